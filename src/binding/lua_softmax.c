/*
 * lua_softmax.c -- softmax, log_softmax, logsumexp, isclose, allclose, equal, dist, outer and
 * cross in Lua, with torch 2.x's names and positional order (`t:softmax(dim, {dtype = })`,
 * `t:isclose(other, rtol, atol, equal_nan)`); dims are 1-based. allclose and equal return Lua
 * booleans, dist (a reduction over every element) a Lua number. Every computation is the
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

/* Raises unless the top is at most n (the arguments after the tensor: n - 1). */
static void check_nargs(lua_State *L, int n, const char *name, const char *what) {
  if (lua_gettop(L) > n) ltl_error(L, "%s: too many arguments (%s)", name, what);
}

/* softmax(dim, {dtype = }) and log_softmax. */
static int softmax_of(lua_State *L, lt_smop op, const char *name) {
  static const char *const keys[] = {"dtype"};
  int last = ltl_opts(L, 2, name, keys, 1);
  lt_dtype dt = ltl_dtype_option(L, -1, name, LT_NDTYPES);
  lua_settop(L, last);
  check_nargs(L, 2, name, "a dim, then an options table");
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

/* logsumexp(dim, keepdim): dim an integer or a table of them ({} : every dim). */
static int m_logsumexp(lua_State *L) {
  check_nargs(L, 3, "logsumexp", "a dim or a table of dims, then keepdim");
  lt_tensor *t = ltl_check(L, 1);
  int n = t->ndim > 0 ? t->ndim : 1, dims[LT_MAX_NDIM], ndims = 0;
  if (lua_isnoneornil(L, 2)) ltl_error(L, "logsumexp: a dim is required");
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_Unsigned len = lua_rawlen(L, 2);
    if (len > (lua_Unsigned)n)
      luaL_argerror(
          L, 2,
          lua_pushfstring(L, "%I dims given for a tensor of %d dims", (lua_Integer)len, t->ndim));
    for (int i = 0; i < (int)len; i++) {
      lua_rawgeti(L, 2, i + 1);
      int isnum;
      lua_Integer d = lua_tointegerx(L, -1, &isnum), d0 = d;
      if (!isnum)
        luaL_argerror(L, 2, lua_pushfstring(L, "dim %d of the table must be an integer", i + 1));
      lua_pop(L, 1);
      if (d < 0) d += n + 1;
      if (d < 1 || d > n)
        luaL_argerror(
            L, 2, lua_pushfstring(L, "dim %I out of range for a tensor of %d dims", d0, t->ndim));
      dims[ndims++] = (int)d - 1;
    }
  } else {
    dims[ndims++] = ltl_check_dim(L, 2, n);
  }
  int keepdim = ltl_opt_bool(L, 3, 0, "keepdim");
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_logsumexp(t, dims, ndims, keepdim, slot, &err)) return fail(L, "logsumexp", &err);
  return 1;
}

/* The tolerances and equal_nan of isclose/allclose at 3, 4, 5. */
static void check_close_args(lua_State *L, const char *name, double *rtol, double *atol,
                             int *equal_nan) {
  check_nargs(L, 5, name, "other, rtol, atol, equal_nan");
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
  check_nargs(L, 2, "equal", "a tensor to compare with");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  int res;
  if (lt_equal(a, b, &res, &err)) return fail(L, "equal", &err);
  lua_pushboolean(L, res);
  return 1;
}

/* dist(other, p): a Lua number. */
static int m_dist(lua_State *L) {
  check_nargs(L, 3, "dist", "other, p");
  double p = luaL_optnumber(L, 3, 2);
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_dist(a, b, p, slot, &err)) return fail(L, "dist", &err);
  ltl_push_element(L, (*slot)->dtype, lt_data(*slot));
  return 1;
}

static int m_outer(lua_State *L) {
  check_nargs(L, 2, "outer", "a 1-d tensor");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_outer(a, b, slot, &err)) return fail(L, "outer", &err);
  return 1;
}

/* cross(other, dim): without dim the first dim of size 3, as torch.cross. */
static int m_cross(lua_State *L) {
  check_nargs(L, 3, "cross", "other, dim");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  int dim = -1;
  if (!lua_isnoneornil(L, 3)) dim = ltl_check_dim(L, 3, a->ndim > b->ndim ? a->ndim : b->ndim);
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_cross(a, b, dim, slot, &err)) return fail(L, "cross", &err);
  return 1;
}

static const luaL_Reg softmax_methods[] = {
    {"softmax", m_softmax},     {"log_softmax", m_log_softmax},
    {"logsumexp", m_logsumexp}, {"isclose", m_isclose},
    {"allclose", m_allclose},   {"equal", m_equal},
    {"dist", m_dist},           {"outer", m_outer},
    {"cross", m_cross},         {NULL, NULL},
};

const ltl_part ltl_part_softmax = {NULL, softmax_methods, NULL, NULL, NULL};
