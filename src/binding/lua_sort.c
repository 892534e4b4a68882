/*
 * lua_sort.c -- sorting and scans in Lua: sort, argsort, topk, kthvalue, median, mode, unique,
 * cumsum, cumprod (and their in-place cumsum_, cumprod_), cummax, cummin, bincount, histc
 * (methods, each also lt.X, the tensor first: sort_forms) and lt.searchsorted.
 *
 * Arguments follow torch 2.x's positional order (`sort(dim, descending)`, `topk(k, dim,
 * largest, sorted)`), torch's keyword-only arguments in one trailing options table (ltl_opts:
 * `{stable = true}`, `{dtype = }`, `{return_inverse = true}`). Dims and every position returned
 * are 1-based; searchsorted gives the 1-based position where a value would be inserted
 * (torch's 0-based insertion point + 1). Several results are several Lua values; median()
 * over every element is a Lua value. The computations are the core's (lt_sort.h, lt_scan.h).
 * Read only by lua_init.c (ltl_part_sort); calls the base (lua_ud.h) and the core.
 */
#include <string.h>

#include "lt_copy.h"
#include "lt_scan.h"
#include "lt_sort.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* The dim at arg (default: the last), 0-based; a 0-d tensor takes 1 or -1. */
static int opt_dim(lua_State *L, int arg, const lt_tensor *t) {
  int nd = t->ndim > 0 ? t->ndim : 1;
  return ltl_opt_dim(L, arg, nd, nd - 1);
}

/* A required dim at arg. */
static int check_dim_arg(lua_State *L, int arg, const lt_tensor *t, const char *name) {
  if (lua_isnoneornil(L, arg)) ltl_error(L, "%s: expected a dim (1-based)", name);
  return opt_dim(L, arg, t);
}

/* The arguments of method name: at most most after the tensor, then the options of keys (nkeys
   of them) read into the stack above the positional arguments; returns the index of the first
   option value and sets *last to the last positional argument's. */
static int read_opts(lua_State *L, const char *name, const char *const *keys, int nkeys, int most,
                     int *last) {
  ltl_args(L, 1, most, nkeys > 0, name);
  *last = ltl_opts(L, 2, name, keys, nkeys);
  return lua_gettop(L) - nkeys + 1;
}

/* Pushes the k results the core made into slots (values before indices, as torch orders
   them), or raises its error as name's. */
static int results(lua_State *L, int rc, const lt_error *err, const char *name, int k) {
  if (rc) return ltl_fail(L, name, err);
  return k;
}

/* }====== */

/* {====== sorting ====== */

static int sort_like(lua_State *L, const char *name, int want_values) {
  static const char *const keys[] = {"stable"};
  int last, o = read_opts(L, name, keys, 1, 2, &last);
  ltl_bool_option(L, o, 1, name, "stable"); /* every sort is stable */
  lt_tensor *t = ltl_check(L, 1);
  int dim = opt_dim(L, 2, t), desc = ltl_opt_bool(L, 3, 0, "descending");
  lua_settop(L, last);
  lt_tensor **v = want_values ? ltl_out(L) : NULL, **ix = ltl_out(L);
  lt_error err;
  return results(L, lt_sort(t, dim, desc, 1, v, ix, &err), &err, name, want_values ? 2 : 1);
}
static int m_sort(lua_State *L) { return sort_like(L, "sort", 1); }
static int m_argsort(lua_State *L) { return sort_like(L, "argsort", 0); }

static int m_topk(lua_State *L) {
  ltl_args(L, 1, 4, 0, "topk");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_check_int(L, 2, "k");
  int dim = opt_dim(L, 3, t), largest = ltl_opt_bool(L, 4, 1, "largest");
  ltl_opt_bool(L, 5, 1, "sorted"); /* always sorted */
  lt_tensor **v = ltl_out(L), **ix = ltl_out(L);
  lt_error err;
  return results(L, lt_topk(t, k, dim, largest, 1, v, ix, &err), &err, "topk", 2);
}

static int m_kthvalue(lua_State *L) {
  ltl_args(L, 1, 3, 0, "kthvalue");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_check_int(L, 2, "k");
  int dim = opt_dim(L, 3, t), keepdim = ltl_opt_bool(L, 4, 0, "keepdim");
  lt_tensor **v = ltl_out(L), **ix = ltl_out(L);
  lt_error err;
  return results(L, lt_kthvalue(t, k, dim, keepdim, 1, v, ix, &err), &err, "kthvalue", 2);
}

/* median and mode (dim, keepdim): values and indices; median() over every element, a Lua
   value. */
static int median_or_mode(lua_State *L, int median, const char *name) {
  ltl_args(L, 1, 2, 0, name);
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  if (median && lua_isnone(L, 2)) { /* over every element: a Lua value */
    lt_tensor **v = ltl_out(L);
    results(L, lt_median(t, -1, 0, 1, v, NULL, &err), &err, name, 1);
    ltl_push_element(L, (*v)->dtype, lt_data(*v));
    return 1;
  }
  if (median && lua_isnil(L, 2)) ltl_error(L, "%s: keepdim needs a dim", name);
  int dim = opt_dim(L, 2, t), keepdim = ltl_opt_bool(L, 3, 0, "keepdim");
  lt_tensor **v = ltl_out(L), **ix = ltl_out(L);
  int rc = median ? lt_median(t, dim, keepdim, 1, v, ix, &err)
                  : lt_mode(t, dim, keepdim, 1, v, ix, &err);
  return results(L, rc, &err, name, 2);
}
static int m_median(lua_State *L) { return median_or_mode(L, 1, "median"); }
static int m_mode(lua_State *L) { return median_or_mode(L, 0, "mode"); }

static int m_unique(lua_State *L) {
  static const char *const keys[] = {"sorted", "return_inverse", "return_counts", "dim"};
  int last, o = read_opts(L, "unique", keys, 4, 0, &last);
  ltl_bool_option(L, o, 1, "unique", "sorted"); /* the result is always sorted */
  int inv = ltl_bool_option(L, o + 1, 0, "unique", "return_inverse");
  int cnt = ltl_bool_option(L, o + 2, 0, "unique", "return_counts");
  lt_tensor *t = ltl_check(L, 1);
  int dim = -1;
  if (!lua_isnil(L, o + 3)) {
    if (!lua_isinteger(L, o + 3))
      ltl_error(L, "unique: dim must be an integer, got %s", luaL_typename(L, o + 3));
    lua_Integer d = lua_tointeger(L, o + 3), d0 = d;
    int nd = t->ndim;
    if (d < 0) d += nd + 1;
    if (d < 1 || d > nd)
      ltl_error(L, "unique: dim %I out of range for a tensor of %d dims", d0, nd);
    dim = (int)d - 1;
  }
  lua_settop(L, last);
  lt_tensor **u = ltl_out(L), **iv = inv ? ltl_out(L) : NULL, **ct = cnt ? ltl_out(L) : NULL;
  lt_error err;
  int rc = dim < 0 ? lt_unique(t, 1, u, iv, ct, &err) : lt_unique_dim(t, dim, 1, u, iv, ct, &err);
  return results(L, rc, &err, "unique", 1 + inv + cnt);
}

/* }====== */

/* {====== scans ====== */

/* cumsum(dim [, dtype]) and cumprod: a new tensor; cumsum_ and cumprod_ (inplace) write the
   result back into t, in t's dtype. */
static int cumulate(lua_State *L, lt_cumop op, int inplace, const char *name) {
  lt_dtype dt;
  ltl_args(L, 1, 2, 1, name);
  ltl_dtype_opts(L, 2, name, &dt);
  lt_tensor *t = ltl_check(L, 1);
  int dim = check_dim_arg(L, 2, t, name);
  dt = ltl_dtype_pick(L, 3, dt, LT_NDTYPES, name);
  lt_tensor **r = ltl_out(L);
  lt_error err;
  if (lt_cumulate(op, t, dim, dt, r, &err)) return ltl_fail(L, name, &err);
  if (!inplace) return 1;
  ltl_prepare_write(L, t);
  if (lt_copy(t, *r, &err)) return ltl_fail(L, name, &err);
  lua_settop(L, 1);
  return 1;
}
static int m_cumsum(lua_State *L) { return cumulate(L, LT_CUMSUM, 0, "cumsum"); }
static int m_cumprod(lua_State *L) { return cumulate(L, LT_CUMPROD, 0, "cumprod"); }
static int m_cumsum_(lua_State *L) { return cumulate(L, LT_CUMSUM, 1, "cumsum_"); }
static int m_cumprod_(lua_State *L) { return cumulate(L, LT_CUMPROD, 1, "cumprod_"); }

static int cumextreme(lua_State *L, int is_max, const char *name) {
  ltl_args(L, 1, 1, 0, name);
  lt_tensor *t = ltl_check(L, 1);
  int dim = check_dim_arg(L, 2, t, name);
  lt_tensor **v = ltl_out(L), **ix = ltl_out(L);
  lt_error err;
  return results(L, lt_cumextreme(t, dim, is_max, 1, v, ix, &err), &err, name, 2);
}
static int m_cummax(lua_State *L) { return cumextreme(L, 1, "cummax"); }
static int m_cummin(lua_State *L) { return cumextreme(L, 0, "cummin"); }

/* }====== */

/* {====== searching and counting ====== */

/* lt.searchsorted(sorted_sequence, values, {right = , side = , out_int32 = }) */
static int f_searchsorted(lua_State *L) {
  static const char *const keys[] = {"right", "side", "out_int32"}, *const sides[] = {
                                                                        "left", "right", NULL};
  ltl_args(L, 0, 2, 1, "searchsorted");
  int last = ltl_opts(L, 3, "searchsorted", keys, 3), o = lua_gettop(L) - 2;
  int right = ltl_bool_option(L, o, 0, "searchsorted", "right");
  int side = ltl_choice_option(L, o + 1, right, "searchsorted", "side", sides);
  if (!lua_isnil(L, o) && side != right)
    ltl_error(L, "searchsorted: side and right cannot be set to opposites");
  int i32 = ltl_bool_option(L, o + 2, 0, "searchsorted", "out_int32");
  lt_tensor *seq = ltl_check(L, 1), *v = ltl_check(L, 2);
  lua_settop(L, last);
  lt_error err;
  return ltl_result(L, lt_searchsorted(seq, v, side, i32, 1, ltl_out(L), &err), &err,
                    "searchsorted");
}

/* bincount(weights, minlength) or bincount({weights = , minlength = }). */
static int m_bincount(lua_State *L) {
  static const char *const keys[] = {"weights", "minlength"};
  int last, o = read_opts(L, "bincount", keys, 2, 2, &last);
  if (lua_isnil(L, o) && last >= 2) lua_pushvalue(L, 2), lua_replace(L, o);
  if (lua_isnil(L, o + 1) && last >= 3) lua_pushvalue(L, 3), lua_replace(L, o + 1);
  lt_tensor *t = ltl_check(L, 1), *w = lua_isnil(L, o) ? NULL : ltl_check(L, o);
  lua_Integer minlength = lua_isnil(L, o + 1) ? 0 : ltl_check_int(L, o + 1, "minlength");
  lt_error err;
  return ltl_result(L, lt_bincount(t, w, minlength, ltl_out(L), &err), &err, "bincount");
}

static int m_histc(lua_State *L) {
  ltl_args(L, 1, 3, 0, "histc");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer bins = ltl_opt_int(L, 2, 100, "bins");
  double lo = luaL_optnumber(L, 3, 0), hi = luaL_optnumber(L, 4, 0);
  lt_error err;
  return ltl_result(L, lt_histc(t, bins, lo, hi, ltl_out(L), &err), &err, "histc");
}

/* }====== */

static const luaL_Reg sort_methods[] = {
    /* sorting */
    {"sort", m_sort},
    {"argsort", m_argsort},
    {"topk", m_topk},
    {"kthvalue", m_kthvalue},
    {"median", m_median},
    {"mode", m_mode},
    {"unique", m_unique},
    /* scans, and the in-place forms torch has */
    {"cumsum", m_cumsum},
    {"cumprod", m_cumprod},
    {"cumsum_", m_cumsum_},
    {"cumprod_", m_cumprod_},
    {"cummax", m_cummax},
    {"cummin", m_cummin},
    /* counting */
    {"bincount", m_bincount},
    {"histc", m_histc},
    {NULL, NULL}};
static const luaL_Reg sort_funcs[] = {{"searchsorted", f_searchsorted}, {NULL, NULL}};

/* The methods that are also lt.X, the tensor first, as torch has torch.X. */
static const char *const sort_forms[] = {"sort",   "argsort",  "topk",   "kthvalue", "median",
                                         "mode",   "unique",   "cumsum", "cumprod",  "cummax",
                                         "cummin", "bincount", "histc",  NULL};

static void open_sort(lua_State *L, const ltl_tables *at) {
  ltl_module_forms(L, at->methods, at->module, sort_forms);
}

const ltl_part ltl_part_sort = {NULL, sort_methods, NULL, sort_funcs, open_sort};
