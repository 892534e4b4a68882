/*
 * lua_parts.h -- the openers of the parts of ltensor.core (not installed). Each part's file
 * defines its opener; lua_init.c, the one file that knows every part, alone calls them.
 */
#ifndef LUA_PARTS_H
#define LUA_PARTS_H

#include <lua.h>

/* Absolute stack indices of the tables a part fills: the tensor metatable, the methods and
   properties tables __index reads, and the module table. */
typedef struct {
  int mt, methods, props, module;
} ltl_tables;

/* Constructors, methods, properties, __gc/__close (lua_tensor.c). */
void ltl_open_tensor(lua_State *L, const ltl_tables *at);
/* __index, __newindex, __len, get/set (lua_index.c). */
void ltl_open_index(lua_State *L, const ltl_tables *at);
/* Operators, elementwise methods, reductions, linear algebra (lua_math.c). */
void ltl_open_math(lua_State *L, const ltl_tables *at);
/* The capsule metatables (in the registry), __dlpack, from_dlpack, to_dlpack (lua_dlpack.c). */
void ltl_open_dlpack(lua_State *L, const ltl_tables *at);
/* The wrapper metatable and ReadOnlyTensorWrapper (lua_wrapper.c). */
void ltl_open_wrapper(lua_State *L, const ltl_tables *at);

#endif
