/*
 * lua_einsum.c -- lt.einsum(equation, a, b, ...) and lt.einsum(equation, {a, b, ...}), torch's
 * two forms. Argument handling only: the equation, its checks and the contraction are the
 * core's (lt_einsum.h). Read only by lua_init.c (ltl_part_einsum); calls the base (lua_ud.h)
 * and the core.
 */
#include <limits.h>

#include "lt_einsum.h"
#include "lua_parts.h"
#include "lua_ud.h"

static int f_einsum(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING)
    return luaL_error(L, "einsum: the equation must be a string, got %s", luaL_typename(L, 1));
  int list = lua_istable(L, 2) && !ltl_testud(L, 2) && lua_gettop(L) == 2;
  lua_Integer n = list ? (lua_Integer)lua_rawlen(L, 2) : lua_gettop(L) - 1;
  if (n < 1) return luaL_error(L, "einsum: expected at least one operand after the equation");
  if (n > INT_MAX / 2) return luaL_error(L, "einsum: too many operands");
  const lt_tensor **ts = lua_newuserdatauv(L, (size_t)n * sizeof(lt_tensor *), 0);
  for (lua_Integer i = 1; i <= n; i++) {
    if (list) lua_rawgeti(L, 2, i);
    int at = list ? -1 : (int)i + 1;
    if (!ltl_testud(L, at))
      return luaL_error(L, "einsum: operand %d is a %s, not a tensor", (int)i,
                        luaL_typename(L, at));
    ts[i - 1] = ltl_check(L, at);
    if (list) lua_pop(L, 1); /* the table keeps it alive */
  }
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  size_t len;
  const char *eq = lua_tolstring(L, 1, &len);
  if (lt_einsum(eq, len, ts, (int)n, &ud->t, &err)) return ltl_error(L, "einsum: %s", err.msg);
  return 1;
}

static const luaL_Reg einsum_funcs[] = {{"einsum", f_einsum}, {NULL, NULL}};

const ltl_part ltl_part_einsum = {NULL, NULL, NULL, einsum_funcs, NULL};
