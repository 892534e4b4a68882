/*
 * lua_stats.c -- statistics in Lua: nanmedian, quantile, nanquantile, cov, corrcoef, diff,
 * histogram, logcumsumexp (methods, each also lt.X, the tensor first: stats_forms) and
 * lt.trapezoid (torch has no Tensor.trapezoid).
 *
 * Arguments follow torch's positional order (`quantile(q, dim, keepdim)`, `diff(n, dim,
 * prepend, append)`, `histogram(bins)`), torch's keyword-only arguments in one trailing options
 * table (`{interpolation = "lower"}`, `{correction = 0, fweights = , aweights = }`, `{range =
 * {lo, hi}, weight = , density = }`, `{dx = , dim = }`). Dims and positions are 1-based;
 * several results are several Lua values; nanmedian() and quantile(number) over every element
 * are Lua values, as median() is. The computations are the core's (lt_stats.h; logcumsumexp
 * lt_scan.h's, beside cumsum). Read only by
 * lua_init.c (ltl_part_stats); calls the base (lua_ud.h) and the core.
 */
#include "lt_scan.h"
#include "lt_stats.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== order statistics ====== */

/* The dim at arg (nil: every element, -1), 0-based; a 0-d tensor takes 1 or -1. */
static int any_dim(lua_State *L, int arg, const lt_tensor *t) {
  if (lua_isnoneornil(L, arg)) return -1;
  return ltl_check_dim(L, arg, t->ndim > 0 ? t->ndim : 1);
}

/* nanmedian([dim [, keepdim]]): over every element a Lua value, else values and indices. */
static int m_nanmedian(lua_State *L) {
  ltl_args(L, 1, 2, 0, "nanmedian");
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  if (lua_isnone(L, 2)) {
    lt_tensor **v = ltl_out(L);
    if (lt_nanmedian(t, -1, 0, 1, v, NULL, &err)) return ltl_fail(L, "nanmedian", &err);
    ltl_push_element(L, (*v)->dtype, lt_data(*v));
    return 1;
  }
  if (lua_isnil(L, 2)) ltl_error(L, "nanmedian: keepdim needs a dim");
  int dim = any_dim(L, 2, t), keepdim = ltl_opt_bool(L, 3, 0, "keepdim");
  lt_tensor **v = ltl_out(L), **ix = ltl_out(L);
  if (lt_nanmedian(t, dim, keepdim, 1, v, ix, &err)) return ltl_fail(L, "nanmedian", &err);
  return 2;
}

/* quantile(q [, dim [, keepdim]] [, {interpolation = }]) and nanquantile: q a number or a
   tensor; a number over every element (no keepdim) gives a Lua value. */
static int quantile(lua_State *L, int ignore_nan, const char *name) {
  static const char *const keys[] = {"interpolation"};
  static const char *const modes[] = {"linear", "lower", "higher", "nearest", "midpoint", NULL};
  ltl_args(L, 1, 3, 1, name);
  int last = ltl_opts(L, 2, name, keys, 1);
  int mode = ltl_choice_option(L, -1, LT_QI_LINEAR, name, "interpolation", modes);
  lua_settop(L, last);
  lt_tensor *t = ltl_check(L, 1), *q = NULL;
  double qv = 0;
  if (ltl_testud(L, 2))
    q = ltl_check(L, 2);
  else if (lua_type(L, 2) == LUA_TNUMBER)
    qv = lua_tonumber(L, 2);
  else
    ltl_error(L, "%s: q must be a number or a tensor, got %s", name, luaL_typename(L, 2));
  int dim = any_dim(L, 3, t), keepdim = ltl_opt_bool(L, 4, 0, "keepdim");
  lt_tensor **r = ltl_out(L);
  lt_error err;
  if (lt_quantile(t, q, qv, dim, keepdim, (lt_qinterp)mode, ignore_nan, r, &err))
    return ltl_fail(L, name, &err);
  if (!q && dim < 0 && !keepdim) ltl_push_element(L, (*r)->dtype, lt_data(*r));
  return 1;
}
static int m_quantile(lua_State *L) { return quantile(L, 0, "quantile"); }
static int m_nanquantile(lua_State *L) { return quantile(L, 1, "nanquantile"); }

/* }====== */

/* {====== cov, corrcoef ====== */

/* The tensor option at idx (nil: NULL). */
static lt_tensor *opt_tensor(lua_State *L, int idx, const char *name, const char *key) {
  if (lua_isnil(L, idx)) return NULL;
  if (!ltl_testud(L, idx))
    ltl_error(L, "%s: %s must be a tensor, got %s", name, key, luaL_typename(L, idx));
  return ltl_check(L, idx);
}

/* cov({correction = 1, fweights = , aweights = }) */
static int m_cov(lua_State *L) {
  static const char *const keys[] = {"correction", "fweights", "aweights"};
  ltl_args(L, 1, 0, 1, "cov");
  ltl_opts(L, 2, "cov", keys, 3);
  lua_Integer corr = lua_isnil(L, -3) ? 1 : ltl_check_int(L, -3, "correction");
  lt_tensor *fw = opt_tensor(L, -2, "cov", "fweights"), *aw = opt_tensor(L, -1, "cov", "aweights");
  lt_error err;
  return ltl_result(L, lt_cov(ltl_check(L, 1), corr, fw, aw, ltl_out(L), &err), &err, "cov");
}

static int m_corrcoef(lua_State *L) {
  ltl_args(L, 1, 0, 0, "corrcoef");
  lt_error err;
  return ltl_result(L, lt_corrcoef(ltl_check(L, 1), ltl_out(L), &err), &err, "corrcoef");
}

/* }====== */

/* {====== diff, trapezoid, logcumsumexp ====== */

/* diff([n [, dim [, prepend [, append]]]]): n 1, dim the last by default. */
static int m_diff(lua_State *L) {
  ltl_args(L, 1, 4, 0, "diff");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer n = ltl_opt_int(L, 2, 1, "n");
  int dim = ltl_opt_dim(L, 3, t->ndim > 0 ? t->ndim : 1, t->ndim - 1);
  lt_tensor *pre = lua_isnoneornil(L, 4) ? NULL : ltl_check(L, 4);
  lt_tensor *app = lua_isnoneornil(L, 5) ? NULL : ltl_check(L, 5);
  lt_error err;
  return ltl_result(L, lt_diff(t, n, dim, pre, app, ltl_out(L), &err), &err, "diff");
}

/* lt.trapezoid(y [, x] [, {dx = 1, dim = -1}]): x a tensor of sample points, or a number (dx). */
static int f_trapezoid(lua_State *L) {
  static const char *const keys[] = {"dx", "dim"};
  ltl_args(L, 0, 2, 1, "trapezoid");
  int last = ltl_opts(L, 2, "trapezoid", keys, 2);
  lt_tensor *y = ltl_check(L, 1), *x = NULL;
  double dx = 1;
  int have_dx = !lua_isnil(L, -2);
  if (have_dx) dx = luaL_checknumber(L, -2);
  int dim = lua_isnil(L, -1) ? y->ndim - 1 : ltl_check_dim(L, -1, y->ndim > 0 ? y->ndim : 1);
  if (last >= 2) {
    if (have_dx) ltl_error(L, "trapezoid: give x or dx, not both");
    if (ltl_testud(L, 2))
      x = ltl_check(L, 2);
    else
      dx = luaL_checknumber(L, 2);
  }
  if (y->ndim == 0) ltl_error(L, "trapezoid: y must have at least one dim");
  lt_error err;
  return ltl_result(L, lt_trapezoid(y, x, dx, dim, ltl_out(L), &err), &err, "trapezoid");
}

/* logcumsumexp(dim): the dim is required, as torch's. */
static int m_logcumsumexp(lua_State *L) {
  ltl_args(L, 1, 1, 0, "logcumsumexp");
  lt_tensor *t = ltl_check(L, 1);
  if (lua_isnoneornil(L, 2)) ltl_error(L, "logcumsumexp: expected a dim (1-based)");
  int dim = ltl_check_dim(L, 2, t->ndim > 0 ? t->ndim : 1);
  lt_error err;
  return ltl_result(L, lt_logcumsumexp(t, dim, ltl_out(L), &err), &err, "logcumsumexp");
}

/* }====== */

/* {====== histogram ====== */

/* The range option at idx into r: a table {lo, hi}; 0 when nil. */
static int check_range(lua_State *L, int idx, double *r) {
  if (lua_isnil(L, idx)) return 0;
  if (!lua_istable(L, idx) || lua_rawlen(L, idx) != 2)
    ltl_error(L, "histogram: range must be a table {min, max}");
  for (int i = 0; i < 2; i++) {
    lua_rawgeti(L, idx, i + 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
      ltl_error(L, "histogram: range must hold two numbers, got %s", luaL_typename(L, -1));
    r[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  return 1;
}

/* histogram([bins] [, {range = , weight = , density = }]): bins an integer (100) or a tensor of
   edges; hist, bin_edges. */
static int m_histogram(lua_State *L) {
  static const char *const keys[] = {"range", "weight", "density"};
  ltl_args(L, 1, 1, 1, "histogram");
  int last = ltl_opts(L, 2, "histogram", keys, 3);
  double range[2];
  int have_range = check_range(L, lua_absindex(L, -3), range);
  lt_tensor *w = opt_tensor(L, -2, "histogram", "weight");
  int density = ltl_bool_option(L, -1, 0, "histogram", "density");
  lt_tensor *t = ltl_check(L, 1), *edges = NULL;
  lua_Integer bins = 100;
  if (last >= 2 && ltl_testud(L, 2))
    edges = ltl_check(L, 2);
  else
    bins = ltl_opt_int(L, 2, 100, "bins");
  if (edges && have_range) ltl_error(L, "histogram: range cannot be given with a tensor of bins");
  lt_tensor **h = ltl_out(L), **e = ltl_out(L);
  lt_error err;
  if (lt_histogram(t, bins, edges, have_range ? range : NULL, w, density, h, e, &err))
    return ltl_fail(L, "histogram", &err);
  return 2;
}

/* }====== */

static const luaL_Reg stats_methods[] = {{"nanmedian", m_nanmedian},
                                         {"quantile", m_quantile},
                                         {"nanquantile", m_nanquantile},
                                         {"cov", m_cov},
                                         {"corrcoef", m_corrcoef},
                                         {"diff", m_diff},
                                         {"histogram", m_histogram},
                                         {"logcumsumexp", m_logcumsumexp},
                                         {NULL, NULL}};
static const luaL_Reg stats_funcs[] = {{"trapezoid", f_trapezoid}, {NULL, NULL}};

/* The methods that are also lt.X, the tensor first, as torch has torch.X. */
static const char *const stats_forms[] = {"nanmedian", "quantile",     "nanquantile",
                                          "cov",       "corrcoef",     "diff",
                                          "histogram", "logcumsumexp", NULL};

static void open_stats(lua_State *L, const ltl_tables *at) {
  ltl_module_forms(L, at->methods, at->module, stats_forms);
}

const ltl_part ltl_part_stats = {NULL, stats_methods, NULL, stats_funcs, open_stats};
