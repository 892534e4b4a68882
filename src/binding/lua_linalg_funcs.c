/*
 * lua_linalg_funcs.c -- lt.linalg's products and matrix functions in Lua: matrix_exp (also
 * t:matrix_exp() and lt.matrix_exp, as torch has them), multi_dot (a sequence of tensors),
 * vecdot, cross and diagonal, torch's keyword-only arguments (dim, offset, dim1, dim2) in a
 * trailing options table, dims 1-based (negative from the end).
 *
 * Argument handling only: the computations are the core's (lt_linalg_funcs.h), whose messages
 * name the function already (raised as they are). Read only by lua_init.c
 * (ltl_part_linalg_funcs, after ltl_part_spaces, which makes the table it fills); calls the
 * base (lua_ud.h), lua_linalg.h and the core.
 */
#include <limits.h>

#include "lt_linalg_funcs.h"
#include "lua_linalg.h"
#include "lua_ud.h"

/* The dim option `key` at idx (a value ltl_opts pushed): 1-based, negative from the end, of a
   tensor of ndim dims (0-d: 1 and -1), 0-based; def when it is nil. Raises. */
static int opt_dim(lua_State *L, int idx, int ndim, int def, const char *fname, const char *key) {
  if (lua_isnil(L, idx)) return def;
  int isnum;
  lua_Integer d = lua_tointegerx(L, idx, &isnum), n = ndim > 0 ? ndim : 1;
  if (!isnum)
    return ltl_error(L, "%s: %s must be an integer, got %s", fname, key, luaL_typename(L, idx));
  if (d < -n || d > n || d == 0)
    return ltl_error(L, "%s: %s %I out of range for a tensor of %d dims (dims are 1-based)", fname,
                     key, d, ndim);
  return (int)(d < 0 ? d + n : d - 1);
}

/* The result of a core call whose message names its function: the tensor, or the error. */
static int result(lua_State *L, int rc, const lt_error *err) {
  if (rc) return ltl_raise(L, err);
  return 1;
}

/* t:matrix_exp(), lt.matrix_exp(A), lt.linalg.matrix_exp(A). */
static int m_matrix_exp(lua_State *L) {
  ltl_args(L, 1, 0, 0, "linalg.matrix_exp");
  lt_tensor *a = ltl_check(L, 1);
  lt_error err;
  return result(L, lt_matrix_exp(a, ltl_out(L), &err), &err);
}

/* lt.linalg.multi_dot(tensors): a sequence of two or more tensors. */
static int f_multi_dot(lua_State *L) {
  ltl_args(L, 0, 1, 0, "linalg.multi_dot");
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Unsigned n = lua_rawlen(L, 1);
  if (n > INT_MAX / 4) return ltl_error(L, "linalg.multi_dot: too many tensors");
  const lt_tensor **ts = ltl_tensors(L, 1, (lua_Integer)n, 1, "linalg.multi_dot", "element");
  lt_error err;
  return result(L, lt_multi_dot(ts, (int)n, ltl_out(L), &err), &err);
}

/* lt.linalg.vecdot(x, y, {dim = -1}) and lt.linalg.cross(x, y, {dim = -1}). */
static int vec_pair(lua_State *L, const char *fname, int cross) {
  static const char *const keys[] = {"dim"};
  ltl_args(L, 0, 2, 1, fname);
  int last = ltl_opts(L, 1, fname, keys, 1);
  lt_tensor *x = ltl_check(L, 1), *y = ltl_check(L, 2);
  int nd = x->ndim > y->ndim ? x->ndim : y->ndim;
  int dim = opt_dim(L, lua_gettop(L), nd, nd > 0 ? nd - 1 : 0, fname, "dim");
  lua_settop(L, last);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return result(L, cross ? lt_linalg_cross(x, y, dim, out, &err) : lt_vecdot(x, y, dim, out, &err),
                &err);
}
static int f_vecdot(lua_State *L) { return vec_pair(L, "linalg.vecdot", 0); }
static int f_cross(lua_State *L) { return vec_pair(L, "linalg.cross", 1); }

/* lt.linalg.diagonal(A, {offset = 0, dim1 = -2, dim2 = -1}): a view. */
static int f_diagonal(lua_State *L) {
  static const char *const keys[] = {"offset", "dim1", "dim2"};
  const char *fn = "linalg.diagonal";
  ltl_args(L, 0, 1, 1, fn);
  int last = ltl_opts(L, 1, fn, keys, 3);
  lt_tensor *a = ltl_check(L, 1);
  int o = lua_gettop(L) - 2, isnum = 1; /* the values of offset, dim1, dim2 */
  lua_Integer off = lua_isnil(L, o) ? 0 : lua_tointegerx(L, o, &isnum);
  if (!isnum) return ltl_error(L, "%s: offset must be an integer, got %s", fn, luaL_typename(L, o));
  if (a->ndim < 2)
    return ltl_error(L, "%s: A must have at least 2 dimensions, got %d", fn, a->ndim);
  int d1 = opt_dim(L, o + 1, a->ndim, a->ndim - 2, fn, "dim1");
  int d2 = opt_dim(L, o + 2, a->ndim, a->ndim - 1, fn, "dim2");
  if (d1 == d2) return ltl_error(L, "%s: dim1 and dim2 are the same dim (%d)", fn, d1 + 1);
  lua_settop(L, last);
  lt_error err;
  return result(L, lt_linalg_diagonal(a, (int64_t)off, d1, d2, ltl_out(L), &err), &err);
}

static const luaL_Reg linalg_funcs[] = {
    {"matrix_exp", m_matrix_exp}, {"multi_dot", f_multi_dot}, {"vecdot", f_vecdot},
    {"cross", f_cross},           {"diagonal", f_diagonal},   {NULL, NULL},
};

/* The methods torch also has on Tensor; each is also lt.f (ltl_module_forms). */
static const luaL_Reg linalg_methods[] = {{"matrix_exp", m_matrix_exp}, {NULL, NULL}};
static const char *const linalg_forms[] = {"matrix_exp", NULL};

static void open_linalg_funcs(lua_State *L, const ltl_tables *at) {
  ltl_linalg_register(L, at, linalg_funcs);
  ltl_module_forms(L, at->methods, at->module, linalg_forms);
}

const ltl_part ltl_part_linalg_funcs = {NULL, linalg_methods, NULL, NULL, open_linalg_funcs};
