/*
 * lua_sort.c -- sorting and scans in Lua: sort, argsort, topk, kthvalue, median, mode, unique,
 * cumsum, cumprod, cummax, cummin, bincount, histc (methods) and lt.searchsorted,
 * lt.bincount, lt.histc.
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

#include "lt_scan.h"
#include "lt_sort.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* The dim at arg (default: the last), 0-based; a 0-d tensor takes 1 or -1. */
static int opt_dim(lua_State *L, int arg, const lt_tensor *t) {
  int nd = t->ndim > 0 ? t->ndim : 1;
  if (lua_isnoneornil(L, arg)) return nd - 1;
  return ltl_check_dim(L, arg, nd);
}

/* A required dim at arg. */
static int check_dim_arg(lua_State *L, int arg, const lt_tensor *t, const char *name) {
  if (lua_isnoneornil(L, arg)) ltl_error(L, "%s: expected a dim (1-based)", name);
  return opt_dim(L, arg, t);
}

/* The options of name (keys: nkeys of them) read into the stack after the positional
   arguments; returns the index of the first option value. At most maxpos positional arguments
   after the tensor. */
static int read_opts(lua_State *L, const char *name, const char *const *keys, int nkeys, int maxpos,
                     int *last) {
  *last = ltl_opts(L, 2, name, keys, nkeys);
  if (*last - 1 > maxpos)
    ltl_error(L, "%s: too many arguments (at most %d%s)", name, maxpos,
              nkeys ? ", then an options table" : "");
  return lua_gettop(L) - nkeys + 1;
}

/* An option at idx that must be a boolean (or nil: def). */
static int opt_flag(lua_State *L, int idx, int def, const char *name, const char *what) {
  if (lua_isnil(L, idx)) return def;
  if (!lua_isboolean(L, idx))
    ltl_error(L, "%s: %s must be a boolean, got %s", name, what, luaL_typename(L, idx));
  return lua_toboolean(L, idx);
}

/* Two new result slots on the stack (values below indices); either may stay NULL. */
static lt_tensor **new_slot(lua_State *L) { return &ltl_newud(L)->t; }

#define CHECK_CORE(L, rc, name, err)                        \
  do {                                                      \
    if (rc) return ltl_error(L, "%s: %s", name, (err).msg); \
  } while (0)

/* }====== */

/* {====== sorting ====== */

static int sort_like(lua_State *L, const char *name, int want_values) {
  static const char *const keys[] = {"stable"};
  int last, o = read_opts(L, name, keys, 1, 2, &last);
  opt_flag(L, o, 1, name, "stable"); /* every sort is stable */
  lt_tensor *t = ltl_check(L, 1);
  int dim = opt_dim(L, 2, t), desc = ltl_opt_bool(L, 3, 0, "descending");
  lua_settop(L, last);
  lt_tensor **v = want_values ? new_slot(L) : NULL, **ix = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_sort(t, dim, desc, 1, v, ix, &err), name, err);
  return want_values ? 2 : 1;
}
static int m_sort(lua_State *L) { return sort_like(L, "sort", 1); }
static int m_argsort(lua_State *L) { return sort_like(L, "argsort", 0); }

static int m_topk(lua_State *L) {
  if (lua_gettop(L) > 5) ltl_error(L, "topk: too many arguments (k, dim, largest, sorted)");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_check_int(L, 2, "k");
  int dim = opt_dim(L, 3, t), largest = ltl_opt_bool(L, 4, 1, "largest");
  ltl_opt_bool(L, 5, 1, "sorted"); /* always sorted */
  lt_tensor **v = new_slot(L), **ix = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_topk(t, k, dim, largest, 1, v, ix, &err), "topk", err);
  return 2;
}

static int m_kthvalue(lua_State *L) {
  if (lua_gettop(L) > 4) ltl_error(L, "kthvalue: too many arguments (k, dim, keepdim)");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_check_int(L, 2, "k");
  int dim = opt_dim(L, 3, t), keepdim = ltl_opt_bool(L, 4, 0, "keepdim");
  lt_tensor **v = new_slot(L), **ix = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_kthvalue(t, k, dim, keepdim, 1, v, ix, &err), "kthvalue", err);
  return 2;
}

static int m_median(lua_State *L) {
  if (lua_gettop(L) > 3) ltl_error(L, "median: too many arguments (dim, keepdim)");
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  if (lua_isnoneornil(L, 2)) { /* over every element: a Lua value */
    if (!lua_isnoneornil(L, 3)) ltl_error(L, "median: keepdim needs a dim");
    lt_tensor **v = new_slot(L);
    CHECK_CORE(L, lt_median(t, -1, 0, 1, v, NULL, &err), "median", err);
    ltl_push_element(L, (*v)->dtype, lt_data(*v));
    return 1;
  }
  int dim = opt_dim(L, 2, t), keepdim = ltl_opt_bool(L, 3, 0, "keepdim");
  lt_tensor **v = new_slot(L), **ix = new_slot(L);
  CHECK_CORE(L, lt_median(t, dim, keepdim, 1, v, ix, &err), "median", err);
  return 2;
}

static int m_mode(lua_State *L) {
  if (lua_gettop(L) > 3) ltl_error(L, "mode: too many arguments (dim, keepdim)");
  lt_tensor *t = ltl_check(L, 1);
  int dim = opt_dim(L, 2, t), keepdim = ltl_opt_bool(L, 3, 0, "keepdim");
  lt_tensor **v = new_slot(L), **ix = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_mode(t, dim, keepdim, 1, v, ix, &err), "mode", err);
  return 2;
}

static int m_unique(lua_State *L) {
  static const char *const keys[] = {"sorted", "return_inverse", "return_counts", "dim"};
  int last, o = read_opts(L, "unique", keys, 4, 0, &last);
  opt_flag(L, o, 1, "unique", "sorted"); /* the result is always sorted */
  int inv = opt_flag(L, o + 1, 0, "unique", "return_inverse");
  int cnt = opt_flag(L, o + 2, 0, "unique", "return_counts");
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
  lt_tensor **u = new_slot(L), **iv = inv ? new_slot(L) : NULL, **ct = cnt ? new_slot(L) : NULL;
  lt_error err;
  CHECK_CORE(L,
             dim < 0 ? lt_unique(t, 1, u, iv, ct, &err) : lt_unique_dim(t, dim, 1, u, iv, ct, &err),
             "unique", err);
  return 1 + inv + cnt;
}

/* }====== */

/* {====== scans ====== */

static int cumulate(lua_State *L, lt_cumop op, const char *name) {
  static const char *const keys[] = {"dtype"};
  int last, o = read_opts(L, name, keys, 1, 1, &last);
  lt_dtype dt = LT_NDTYPES;
  if (!lua_isnil(L, o)) {
    if (lua_type(L, o) != LUA_TSTRING)
      ltl_error(L, "%s: dtype must be a dtype name, got %s", name, luaL_typename(L, o));
    dt = lt_dtype_from_name(lua_tostring(L, o));
    if (dt == LT_NDTYPES) ltl_error(L, "%s: unknown dtype '%s'", name, lua_tostring(L, o));
  }
  lt_tensor *t = ltl_check(L, 1);
  int dim = check_dim_arg(L, 2, t, name);
  lua_settop(L, last);
  lt_tensor **r = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_cumulate(op, t, dim, dt, r, &err), name, err);
  return 1;
}
static int m_cumsum(lua_State *L) { return cumulate(L, LT_CUMSUM, "cumsum"); }
static int m_cumprod(lua_State *L) { return cumulate(L, LT_CUMPROD, "cumprod"); }

static int cumextreme(lua_State *L, int is_max, const char *name) {
  if (lua_gettop(L) > 2) ltl_error(L, "%s: too many arguments (dim)", name);
  lt_tensor *t = ltl_check(L, 1);
  int dim = check_dim_arg(L, 2, t, name);
  lt_tensor **v = new_slot(L), **ix = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_cumextreme(t, dim, is_max, 1, v, ix, &err), name, err);
  return 2;
}
static int m_cummax(lua_State *L) { return cumextreme(L, 1, "cummax"); }
static int m_cummin(lua_State *L) { return cumextreme(L, 0, "cummin"); }

/* }====== */

/* {====== searching and counting ====== */

static int f_searchsorted(lua_State *L) {
  static const char *const keys[] = {"right", "side", "out_int32"};
  int last, o = read_opts(L, "searchsorted", keys, 3, 1, &last);
  int right = opt_flag(L, o, 0, "searchsorted", "right");
  if (!lua_isnil(L, o + 1)) {
    const char *side = lua_tostring(L, o + 1);
    int r = side && strcmp(side, "right") == 0;
    if (lua_type(L, o + 1) != LUA_TSTRING || (!r && strcmp(side, "left") != 0))
      ltl_error(L, "searchsorted: side must be 'left' or 'right'");
    if (!lua_isnil(L, o) && r != right)
      ltl_error(L, "searchsorted: side and right cannot be set to opposites");
    right = r;
  }
  int i32 = opt_flag(L, o + 2, 0, "searchsorted", "out_int32");
  lt_tensor *seq = ltl_check(L, 1), *v = ltl_check(L, 2);
  lua_settop(L, last);
  lt_tensor **r = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_searchsorted(seq, v, right, i32, 1, r, &err), "searchsorted", err);
  return 1;
}

/* bincount(weights, minlength) or bincount({weights = , minlength = }). */
static int m_bincount(lua_State *L) {
  static const char *const keys[] = {"weights", "minlength"};
  int last, o = read_opts(L, "bincount", keys, 2, 2, &last);
  if (lua_isnil(L, o) && last >= 2) lua_pushvalue(L, 2), lua_replace(L, o);
  if (lua_isnil(L, o + 1) && last >= 3) lua_pushvalue(L, 3), lua_replace(L, o + 1);
  lt_tensor *t = ltl_check(L, 1), *w = lua_isnil(L, o) ? NULL : ltl_check(L, o);
  lua_Integer minlength = lua_isnil(L, o + 1) ? 0 : ltl_check_int(L, o + 1, "minlength");
  lt_tensor **r = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_bincount(t, w, minlength, r, &err), "bincount", err);
  return 1;
}

static int m_histc(lua_State *L) {
  if (lua_gettop(L) > 4) ltl_error(L, "histc: too many arguments (bins, min, max)");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer bins = lua_isnoneornil(L, 2) ? 100 : ltl_check_int(L, 2, "bins");
  double lo = luaL_optnumber(L, 3, 0), hi = luaL_optnumber(L, 4, 0);
  lt_tensor **r = new_slot(L);
  lt_error err;
  CHECK_CORE(L, lt_histc(t, bins, lo, hi, r, &err), "histc", err);
  return 1;
}

/* }====== */

static const luaL_Reg sort_methods[] = {
    {"sort", m_sort},       {"argsort", m_argsort}, {"topk", m_topk},     {"kthvalue", m_kthvalue},
    {"median", m_median},   {"mode", m_mode},       {"unique", m_unique}, {"cumsum", m_cumsum},
    {"cumprod", m_cumprod}, {"cummax", m_cummax},   {"cummin", m_cummin}, {"bincount", m_bincount},
    {"histc", m_histc},     {NULL, NULL},
};
static const luaL_Reg sort_funcs[] = {
    {"searchsorted", f_searchsorted},
    {"bincount", m_bincount},
    {"histc", m_histc},
    {NULL, NULL},
};

const ltl_part ltl_part_sort = {NULL, sort_methods, NULL, sort_funcs, NULL};
