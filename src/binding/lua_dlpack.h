/*
 * lua_dlpack.h -- what lua_dlpack.c shares: the export helpers (lua_wrapper.c) and an import
 * of any DLPack value (lua_tensor.c's lt.tensor). Not installed; lua_dlpack.c, lua_wrapper.c
 * and lua_tensor.c include it.
 */
#ifndef LUA_DLPACK_H
#define LUA_DLPACK_H

#include "lua_ud.h"

/* What __dlpack's opts ask for. */
typedef struct {
  int versioned; /* max_version: -1 not given, 0 legacy (major < 1), 1 versioned */
  int copy;      /* -1 nil, 0 false, 1 true */
  int read_only; /* read_only = true: a READ_ONLY export (versioned only) */
} ltl_dlpack_req;
/* Reads __dlpack's opts at idx (nil: none) for tensor t. Raises for a device t is not on, a bad
   stream or a field of the wrong type. */
ltl_dlpack_req ltl_dlpack_opts(lua_State *L, int idx, const lt_tensor *t);
/* Pushes a capsule exporting t (see lt_dlpack_export). Raises. */
int ltl_export_capsule(lua_State *L, lt_tensor *t, int versioned, int copy, int read_only);
/* Pushes the tensor from_dlpack makes of the capsule or DLPack object (not a tensor) at idx,
   sharing memory where the producer allows, and returns 1; returns 0 and pushes nothing when
   the value is neither. Raises as from_dlpack does. */
int ltl_dlpack_import_any(lua_State *L, int idx);
/* Pushes t's DLPack device type and id. */
int ltl_dlpack_device(lua_State *L, const lt_tensor *t);

#endif
