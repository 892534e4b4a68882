/*
 * lua_random.h -- what lua_random.c shares: the Generator behind a Lua value, for the parts
 * whose functions take torch's {generator = g} outside lt.* (lua_nn_norm.c's dropout). Not
 * installed; lua_random.c and lua_nn_norm.c include it.
 */
#ifndef LUA_RANDOM_H
#define LUA_RANDOM_H

#include "lt_random.h"
#include "lua_ud.h"

/* The generator of the Generator at idx (nil or none: the process's), raising "fname:
   generator must be a Generator, got T" for anything else. */
lt_generator *ltl_generator_opt(lua_State *L, int idx, const char *fname);

#endif
