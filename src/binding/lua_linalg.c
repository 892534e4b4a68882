/*
 * lua_linalg.c -- the table lt.linalg (torch.linalg's namespace): made by this part's opener,
 * filled by the parts of the linear algebra binding (lua_linalg_*.c) from theirs, which come
 * after it in lua_init.c's list (lua_linalg.h).
 */
#include "lua_linalg.h"

void ltl_linalg_register(lua_State *L, const ltl_tables *at, const luaL_Reg *funcs) {
  lua_getfield(L, at->module, "linalg");
  luaL_setfuncs(L, funcs, 0);
  lua_pop(L, 1);
}

static void open_linalg(lua_State *L, const ltl_tables *at) {
  lua_newtable(L);
  lua_setfield(L, at->module, "linalg");
}

const ltl_part ltl_part_linalg = {NULL, NULL, NULL, NULL, open_linalg};
