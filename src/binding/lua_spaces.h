/*
 * lua_spaces.h -- the namespaces of the module (not installed): lt.linalg, lt.fft and
 * lt.nn.functional, as torch.linalg, torch.fft and torch.nn.functional. lua_spaces.c's part makes
 * their tables; the parts that fill one (lua_linalg_*.c, lua_fft.c, lua_nn_*.c) come after it
 * in lua_init.c's list and register their functions from their openers.
 */
#ifndef LUA_SPACES_H
#define LUA_SPACES_H

#include "lua_parts.h"

/* Adds funcs (NULL-terminated) to the namespace `space` of the module: "linalg", "fft" or
   "nn.functional". */
void ltl_space_register(lua_State *L, const ltl_tables *at, const char *space,
                        const luaL_Reg *funcs);

#endif
