/*
 * lua_spaces.c -- the namespace tables of the module (lua_spaces.h): lt.linalg, lt.fft and
 * lt.nn.functional (lt.nn holds functional; `require "ltensor.nn.functional"` returns the same
 * table, lua/ltensor/nn/functional.lua). Made by this part's opener, empty; filled by the parts
 * listed after it. Read only by lua_init.c and those parts.
 */
#include <string.h>

#include "lua_spaces.h"

/* Pushes the table at the dotted path under the module table, making what is missing. */
static void push_space(lua_State *L, int module, const char *space) {
  lua_pushvalue(L, module);
  while (*space) {
    const char *dot = strchr(space, '.');
    size_t n = dot ? (size_t)(dot - space) : strlen(space);
    lua_pushlstring(L, space, n);
    if (lua_rawget(L, -2) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushlstring(L, space, n);
      lua_pushvalue(L, -2);
      lua_rawset(L, -4);
    }
    lua_remove(L, -2);
    space += n + (dot != NULL);
  }
}

void ltl_space_register(lua_State *L, const ltl_tables *at, const char *space,
                        const luaL_Reg *funcs) {
  push_space(L, at->module, space);
  luaL_setfuncs(L, funcs, 0);
  lua_pop(L, 1);
}

static void open_spaces(lua_State *L, const ltl_tables *at) {
  static const char *const spaces[] = {"linalg", "nn.functional", "fft", "image"};
  for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++) {
    push_space(L, at->module, spaces[i]);
    lua_pop(L, 1);
  }
}

const ltl_part ltl_part_spaces = {NULL, NULL, NULL, NULL, open_spaces};
