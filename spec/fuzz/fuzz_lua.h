/*
 * fuzz_lua.h -- the Lua calls the fuzz targets that drive ltensor from Lua share
 * (fuzz_bytes.c, fuzz_index.c).
 */
#ifndef FUZZ_LUA_H
#define FUZZ_LUA_H

#include <lua.h>

/* Calls method `name` of the value at obj with the nargs values on top; one result. */
static inline void fz_method(lua_State *l, int obj, const char *name, int nargs) {
  obj = lua_absindex(l, obj);
  lua_getfield(l, obj, name);
  lua_insert(l, -(nargs + 1));
  lua_pushvalue(l, obj);
  lua_insert(l, -(nargs + 1));
  lua_call(l, nargs + 1, 1);
}

#endif
