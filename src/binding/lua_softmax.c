/*
 * lua_softmax.c -- softmax, log_softmax, isclose, allclose, equal, dist, outer and cross in Lua,
 * as methods and as the module's functions (torch.softmax ...), with torch 2.x's names and
 * positional order (`t:softmax(dim, dtype)` or `{dtype = }`, `t:isclose(other, rtol, atol,
 * equal_nan)`); dims are 1-based; arguments counted as the argument layer counts them
 * (ltl_args). allclose and equal return Lua booleans, dist (a reduction over every element) a
 * Lua number. logsumexp is a row of the reductions (lua_reduce.c). Every computation is the
 * core's (lt_softmax.h, lt_vecops.h). Read only by lua_init.c (ltl_part_softmax); calls the
 * base (lua_ud.h) and the core.
 */
#include <math.h>

#include "lt_softmax.h"
#include "lt_vecops.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* Raises the core's message of a failed call to name. */
static int fail(lua_State *L, const char *name, const lt_error *err) {
  return ltl_error(L, "%s: %s", name, err->msg);
}

/* softmax(dim, {dtype = }) and log_softmax. */
static int softmax_of(lua_State *L, lt_smop op, const char *name) {
  static const char *const keys[] = {"dtype"};
  ltl_args(L, 1, 2, 1, name);
  int last = ltl_opts(L, 2, name, keys, 1), opt = lua_gettop(L);
  /* the dtype at 3, or as the option (an index past the top: not given positionally) */
  lt_dtype dt = ltl_dtype_arg(L, last >= 3 ? 3 : opt + 1, opt, LT_NDTYPES, name);
  lua_settop(L, last);
  lt_tensor *t = ltl_check(L, 1);
  if (lua_isnoneornil(L, 2)) ltl_error(L, "%s: a dim is required", name);
  int dim = ltl_check_dim(L, 2, t->ndim > 0 ? t->ndim : 1);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_softmax(op, t, dim, dt, slot, &err)) return fail(L, name, &err);
  return 1;
}
static int m_softmax(lua_State *L) { return softmax_of(L, LT_SOFTMAX, "softmax"); }
static int m_log_softmax(lua_State *L) { return softmax_of(L, LT_LOG_SOFTMAX, "log_softmax"); }

/* The tolerances and equal_nan of isclose/allclose at 3, 4, 5. */
static void check_close_args(lua_State *L, const char *name, double *rtol, double *atol,
                             int *equal_nan) {
  ltl_args(L, 1, 4, 0, name);
  *rtol = luaL_optnumber(L, 3, 1e-05);
  *atol = luaL_optnumber(L, 4, 1e-08);
  *equal_nan = ltl_opt_bool(L, 5, 0, "equal_nan");
}

static int m_isclose(lua_State *L) {
  double rtol, atol;
  int equal_nan;
  check_close_args(L, "isclose", &rtol, &atol, &equal_nan);
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_isclose(a, b, rtol, atol, equal_nan, slot, &err)) return fail(L, "isclose", &err);
  return 1;
}

static int m_allclose(lua_State *L) {
  double rtol, atol;
  int equal_nan, res;
  check_close_args(L, "allclose", &rtol, &atol, &equal_nan);
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  if (lt_allclose(a, b, rtol, atol, equal_nan, &res, &err)) return fail(L, "allclose", &err);
  lua_pushboolean(L, res);
  return 1;
}

static int m_equal(lua_State *L) {
  ltl_args(L, 1, 1, 0, "equal");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  int res;
  if (lt_equal(a, b, &res, &err)) return fail(L, "equal", &err);
  lua_pushboolean(L, res);
  return 1;
}

/* dist(other, p): a Lua number. */
static int m_dist(lua_State *L) {
  ltl_args(L, 1, 2, 0, "dist");
  double p = luaL_optnumber(L, 3, 2);
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_dist(a, b, p, slot, &err)) return fail(L, "dist", &err);
  ltl_push_element(L, (*slot)->dtype, lt_data(*slot));
  return 1;
}

static int m_outer(lua_State *L) {
  ltl_args(L, 1, 1, 0, "outer");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_outer(a, b, slot, &err)) return fail(L, "outer", &err);
  return 1;
}

/* cross(other, dim): without dim the first dim of size 3, as torch.cross. */
static int m_cross(lua_State *L) {
  ltl_args(L, 1, 2, 0, "cross");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  int dim = -1;
  if (!lua_isnoneornil(L, 3)) dim = ltl_check_dim(L, 3, a->ndim > b->ndim ? a->ndim : b->ndim);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_cross(a, b, dim, slot, &err)) return fail(L, "cross", &err);
  return 1;
}

/* The methods; each is also the module's function (torch.softmax, torch.isclose, ...). */
static const luaL_Reg softmax_methods[] = {
    {"softmax", m_softmax}, {"log_softmax", m_log_softmax},
    {"isclose", m_isclose}, {"allclose", m_allclose},
    {"equal", m_equal},     {"dist", m_dist},
    {"outer", m_outer},     {"cross", m_cross},
    {NULL, NULL},
};

const ltl_part ltl_part_softmax = {NULL, softmax_methods, NULL, softmax_methods, NULL};
