/*
 * lua_linalg.h -- what the parts of lt.linalg share (not installed): registering into the
 * table (lua_spaces.h makes it).
 */
#ifndef LUA_LINALG_H
#define LUA_LINALG_H

#include "lua_spaces.h"

/* Adds funcs (NULL-terminated) to lt.linalg. */
static inline void ltl_linalg_register(lua_State *L, const ltl_tables *at, const luaL_Reg *funcs) {
  ltl_space_register(L, at, "linalg", funcs);
}

#endif
