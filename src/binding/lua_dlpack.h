/*
 * lua_dlpack.h -- the DLPack export helpers of lua_dlpack.c that lua_wrapper.c shares (not
 * installed). Only lua_dlpack.c and lua_wrapper.c include it.
 */
#ifndef LUA_DLPACK_H
#define LUA_DLPACK_H

#include "lua_ud.h"

/* __dlpack's opts at idx for t: *versioned, and copy as -1 (nil), 0 or 1. Raises. */
int ltl_dlpack_opts(lua_State *L, int idx, const lt_tensor *t, int *versioned);
/* Pushes a capsule exporting t (see lt_dlpack_export). Raises. */
int ltl_export_capsule(lua_State *L, lt_tensor *t, int versioned, int copy, int read_only);
/* Pushes t's DLPack device type and id. */
int ltl_dlpack_device(lua_State *L, const lt_tensor *t);

#endif
