/*
 * lua_linalg.h -- what the parts of lt.linalg share (not installed): the table itself. Each part
 * (lua_linalg_*.c) registers its functions into it from its opener; lua_linalg.c makes it.
 */
#ifndef LUA_LINALG_H
#define LUA_LINALG_H

#include "lua_parts.h"

/* Adds funcs (NULL-terminated) to the module's `linalg` table (ltl_part_linalg made it). */
void ltl_linalg_register(lua_State *L, const ltl_tables *at, const luaL_Reg *funcs);

#endif
