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
  ltl_args(L, 0, INT_MAX - 1, 0, "einsum");
  if (lua_type(L, 1) != LUA_TSTRING)
    return ltl_error(L, "einsum: the equation must be a string, got %s", luaL_typename(L, 1));
  int list = lua_istable(L, 2) && !ltl_testud(L, 2);
  if (list) ltl_args_end(L, 0, 2, 0, "einsum");
  lua_Integer n = list ? (lua_Integer)lua_rawlen(L, 2) : lua_gettop(L) - 1;
  if (n < 1) return ltl_error(L, "einsum: expected at least one operand after the equation");
  if (n > INT_MAX / 2) return ltl_error(L, "einsum: too many operands");
  const lt_tensor **ts = ltl_tensors(L, 2, n, list, "einsum", "operand");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  size_t len;
  const char *eq = lua_tolstring(L, 1, &len);
  return ltl_result(L, lt_einsum(eq, len, ts, (int)n, out, &err), &err, "einsum");
}

static const luaL_Reg einsum_funcs[] = {{"einsum", f_einsum}, {NULL, NULL}};

const ltl_part ltl_part_einsum = {NULL, NULL, NULL, einsum_funcs, NULL};
