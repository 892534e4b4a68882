/*
 * lua_ltensor.h -- what the Lua binding files share (not installed).
 *
 * A tensor in Lua is a full userdata holding one lt_tensor pointer; NULL once released (by
 * __gc, __close or a host revoke), after which every use raises "tensor has been released".
 * Its block also holds a tag, the address of ltl_tensor_key: a value is a tensor when it is a
 * userdata of exactly sizeof(ltl_ud) bytes carrying the tag. That check costs no registry
 * lookup (it is on every element access) and, unlike a metatable comparison, cannot be fooled by
 * debug.setmetatable on a foreign userdata.
 * The tensor metatable lives in the registry under the light-userdata key ltl_tensor_key (and
 * under the name "ltensor.Tensor" for luaL_checkudata users).
 */
#ifndef LUA_LTENSOR_H
#define LUA_LTENSOR_H

#include <lauxlib.h>
#include <lua.h>

#include "lt_tensor.h"

#define LTL_TENSOR_NAME "ltensor.Tensor"

typedef struct {
  /* &ltl_tensor_key: identifies a tensor without a metatable lookup. First, so that reading it
     from any userdata of at least a pointer stays inside the block (lua_tensor.c, self_ud). */
  const char *tag;
  lt_tensor *t;
} ltl_ud;

extern const char ltl_tensor_key;

/* Metatables of a state, by user value index of its bookkeeping userdata: the tensor's, then
   the four capsule metatables in ltl_capsule_names order. */
enum { LTL_MT_TENSOR = 1, LTL_MT_CAPSULE = 2, LTL_MT_COUNT = 5 };
extern const char *const ltl_capsule_names[4];
/* Per-state bookkeeping (see lua_tensor.c). */
typedef struct {
  unsigned fresh; /* finalizable userdata made since the last extra collector step */
  unsigned spare; /* pointer-sized, as every userdata ltensor makes (see ltl_ud's tag) */
} ltl_state;
/* Pushes metatable `which` (LTL_MT_*) of L's ltensor, which must be open; returns the
   bookkeeping. */
ltl_state *ltl_push_metatable(lua_State *L, int which);
/* Counts one new finalizable userdata; every so many, one extra collector step. */
void ltl_count_finalizable(lua_State *L, ltl_state *st);

/* A new tensor userdata (t == NULL) with the tensor metatable, on top of the stack. Fill ud->t
   after: if anything raises before, the empty userdata is simply collected. */
ltl_ud *ltl_newud(lua_State *L);
/* The tensor at idx, or NULL when the value is not a tensor (released ones included). */
ltl_ud *ltl_testud(lua_State *L, int idx);
/* The live tensor at idx; raises for a non-tensor (naming argument idx) or a released one. */
lt_tensor *ltl_check(lua_State *L, int idx);
/* Drops the tensor reference of a tensor or wrapper userdata (NULL or released: nothing). */
void ltl_release_ud(ltl_ud *ud);
/* Raises err's message. */
int ltl_raise(lua_State *L, const lt_error *err);
/* Tells the garbage collector that nbytes outside its heap are about to be allocated. */
void ltl_account(lua_State *L, size_t nbytes);

/* Shared with lua_tensor.c's element access and argument parsing. */
void ltl_push_element(lua_State *L, lt_dtype dt, const char *p);
void ltl_store_value(lua_State *L, int idx, lt_dtype dt, char *p);
/* Before writing t: raises for read-only or opaque tensors; unshares a copy-on-write clone. */
void ltl_prepare_write(lua_State *L, lt_tensor *t);
/* A 1-based (negative from the end) dim argument, as 0-based. Raises. */
int ltl_check_dim(lua_State *L, int arg, int ndim);
/* The Lua value at idx as a scalar for a tensor of dtype dt; 0 when it is not one. */
int ltl_to_scalar(lua_State *L, int idx, lt_dtype dt, lt_scalar *s);

/* Math (lua_math.c): adds the operators to the metatable and the methods and functions to the
   tables at the given indices. */
void ltl_open_math(lua_State *L, int mt, int methods, int module);

/* Capsules (lua_dlpack.c). A new capsule with a NULL pointer, on top of the stack: fill the
   slot after; an empty capsule is harmless garbage. */
void **ltl_new_capsule(lua_State *L, int versioned);
/* The managed tensor of the capsule at idx, consumed (pointer NULL, "used" metatable); NULL
   when the value is no capsule; raises for a consumed or empty one. */
void *ltl_consume_capsule(lua_State *L, int idx, int *versioned);
/* Makes the capsule metatables and adds the DLPack methods and functions to the tables at
   the given stack indices. */
void ltl_open_dlpack(lua_State *L, int methods, int module);
/* __dlpack's opts at idx for t: *versioned, and copy as -1 (nil), 0 or 1. Raises. */
int ltl_dlpack_opts(lua_State *L, int idx, const lt_tensor *t, int *versioned);
/* Pushes a capsule exporting t (see lt_dlpack_export). Raises. */
int ltl_export_capsule(lua_State *L, lt_tensor *t, int versioned, int copy, int read_only);
/* Pushes t's DLPack device type and id. */
int ltl_dlpack_device(lua_State *L, const lt_tensor *t);

/* ReadOnlyTensorWrapper (lua_wrapper.c): a userdata laid out as ltl_ud, tagged with
   &ltl_wrapper_key. */
extern const char ltl_wrapper_key;
/* The wrapper at idx, or NULL. */
ltl_ud *ltl_testwrapper(lua_State *L, int idx);
/* Makes the wrapper metatable and adds ReadOnlyTensorWrapper to the module table at module. */
void ltl_open_wrapper(lua_State *L, int module);

#endif
