/*
 * lua_math.c -- tensor math in Lua beyond the elementwise functions (lua_funcs.c) and the
 * reductions (lua_reduce.c): the matrix products (matmul, mm, bmm, mv, dot, addmm, baddbmm), t and
 * mT, lt.cat / lt.stack, map/apply for the rare per-element Lua function (always on the calling
 * thread: the core's pool never runs Lua), and lt.set_num_threads / get_num_threads.
 *
 * Argument handling only: every operation is the core's (lt_math.h, lt_linalg.h). Operands are
 * tensors or Lua scalars (numbers, booleans); dims are 1-based (negative from the end). Every
 * call counts its arguments as the argument layer does (ltl_args: trailing nils absent, one
 * more raises), and the methods torch also has as torch.f are module functions too
 * (math_both). Read only by lua_init.c (ltl_part_math); calls the base (lua_ud.h) and the
 * core.
 */
#include <limits.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_linalg.h"
#include "lt_math.h"
#include "lt_pool.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The result of a call that made a new tensor (on top) or wrote t (argument 1) in place. */
static int result(lua_State *L, int inplace) {
  if (inplace) lua_settop(L, 1);
  return 1;
}

/* {====== linear algebra, cat, stack ====== */

/* a:matmul(b), a:mm(b), a:bmm(b), a:mv(v), a:dot(b): the core checks the ranks and sizes. */
static int product(lua_State *L, const char *name,
                   int (*fn)(const lt_tensor *, const lt_tensor *, lt_tensor **, lt_error *)) {
  ltl_args(L, 1, 1, 0, name);
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (fn(a, b, &ud->t, &err)) return ltl_error(L, "%s: %s", name, err.msg);
  return 1;
}

static int m_matmul(lua_State *L) { return product(L, "matmul", lt_matmul); }
static int m_mm(lua_State *L) { return product(L, "mm", lt_mm); }
static int m_bmm(lua_State *L) { return product(L, "bmm", lt_bmm); }
static int m_mv(lua_State *L) { return product(L, "mv", lt_mv); }
static int m_dot(lua_State *L) { return product(L, "dot", lt_dot); }

/* The option at idx (ltl_opts pushed it) as alpha or beta (default 1): a number, or {re, im}
   for complex results. */
static void coef_opt(lua_State *L, int idx, const char *name, const char *key, lt_scalar *s) {
  *s = (lt_scalar){.kind = LT_SK_INT, .v.i = 1};
  int t = lua_type(L, idx);
  if (t != LUA_TNIL && ((t != LUA_TNUMBER && t != LUA_TTABLE) ||
                        !ltl_to_scalar(L, idx, t == LUA_TTABLE ? LT_COMPLEX128 : LT_FLOAT64, s)))
    ltl_error(L, "%s: %s must be a number or {re, im}, got %s", name, key, luaL_typename(L, idx));
}

typedef int (*ltl_addfn)(const lt_tensor *, const lt_tensor *, const lt_tensor *, const lt_scalar *,
                         const lt_scalar *, lt_tensor **, lt_error *);

/* input:addmm(mat1, mat2 [, {beta = 1, alpha = 1}]), and addmm_ (the product written into
   input, whose shape must be the product's: no broadcasting in place, as torch); the same for
   input:baddbmm(batch1, batch2 [, opts]) and baddbmm_ (fn lt_baddbmm). */
static int addmm(lua_State *L, int inplace, const char *name, ltl_addfn fn) {
  static const char *const keys[] = {"beta", "alpha"};
  lt_scalar alpha, beta;
  ltl_args(L, 1, 2, 1, name);
  int last = ltl_opts(L, 4, name, keys, 2); /* first: an options metamethod may run Lua code */
  coef_opt(L, -2, name, "beta", &beta);
  coef_opt(L, -1, name, "alpha", &alpha);
  lua_settop(L, last);
  lt_tensor *input = ltl_check(L, 1), *a = ltl_check(L, 2), *b = ltl_check(L, 3);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (fn(input, a, b, &beta, &alpha, &ud->t, &err)) return ltl_error(L, "%s: %s", name, err.msg);
  if (!inplace) return 1;
  const lt_tensor *r = ud->t;
  if (input->ndim != r->ndim || memcmp(input->shape, r->shape, sizeof(int64_t) * (size_t)r->ndim)) {
    char have[64], want[64];
    lt_shape_str(input->ndim, input->shape, have, sizeof have);
    lt_shape_str(r->ndim, r->shape, want, sizeof want);
    return ltl_error(L, "%s: self has shape %s, the product %s", name, have, want);
  }
  ltl_prepare_write(L, input);
  if (lt_copy(input, r, &err)) return ltl_error(L, "%s: %s", name, err.msg);
  return result(L, 1);
}
static int m_addmm(lua_State *L) { return addmm(L, 0, "addmm", lt_addmm); }
static int m_addmm_(lua_State *L) { return addmm(L, 1, "addmm_", lt_addmm); }
static int m_baddbmm(lua_State *L) { return addmm(L, 0, "baddbmm", lt_baddbmm); }
static int m_baddbmm_(lua_State *L) { return addmm(L, 1, "baddbmm_", lt_baddbmm); }

/* t:t(): the transpose of a 2-d tensor (0-d and 1-d unchanged), as torch; t:t_() transposes t's
   own view in place (its data stays where it is). */
static int transpose2(lua_State *L, int inplace) {
  const char *name = inplace ? "t_" : "t";
  ltl_args(L, 1, 0, 0, name);
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim > 2)
    return ltl_error(L, "%s: expected a tensor with <= 2 dims, got %d", name, t->ndim);
  if (inplace) {
    if (t->ndim == 2) {
      int64_t s = t->shape[0], st = t->strides[0];
      t->shape[0] = t->shape[1];
      t->strides[0] = t->strides[1];
      t->shape[1] = s;
      t->strides[1] = st;
    }
    return result(L, 1);
  }
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  int rc = t->ndim == 2 ? lt_transpose(t, 0, 1, &ud->t, &err) : lt_tensor_alias(t, &ud->t, &err);
  if (rc) return ltl_error(L, "%s: %s", name, err.msg);
  return 1;
}
static int m_t(lua_State *L) { return transpose2(L, 0); }
static int m_t_(lua_State *L) { return transpose2(L, 1); }

/* t.mT: the last two dims swapped. */
static int p_mT(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim < 2) return ltl_error(L, "mT: expected a tensor of at least 2 dims, got %d", t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_transpose(t, t->ndim - 2, t->ndim - 1, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

/* The tensors of the sequence at idx (ltl_tensors), pushed. */
static const lt_tensor **tensor_list(lua_State *L, int idx, int *count, const char *what) {
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_Unsigned n = lua_rawlen(L, idx);
  if (n == 0) luaL_error(L, "%s: expected a non-empty sequence of tensors", what);
  if (n > INT_MAX) luaL_error(L, "%s: too many tensors", what);
  *count = (int)n;
  return ltl_tensors(L, idx, (lua_Integer)n, 1, what, "element");
}

/* lt.cat(tensors [, dim]) and lt.stack(tensors [, dim]) */
static int cat_or_stack(lua_State *L, int stack) {
  const char *name = stack ? "stack" : "cat";
  int n;
  ltl_args(L, 0, 2, 0, name);
  lua_settop(L, 2); /* the scratch block goes above the arguments */
  const lt_tensor **ts = tensor_list(L, 1, &n, name);
  int nd = ts[0]->ndim + (stack ? 1 : 0);
  int dim = lua_isnoneornil(L, 2) ? 0 : ltl_check_dim(L, 2, nd > 0 ? nd : 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if ((stack ? lt_stack : lt_cat)(ts, n, dim, &ud->t, &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  return 1;
}
static int f_cat(lua_State *L) { return cat_or_stack(L, 0); }
static int f_stack(lua_State *L) { return cat_or_stack(L, 1); }

/* }====== */

/* {====== map and apply ====== */

/*
 * Calls fn (argument 2) on every element of t in row-major order and stores the results into
 * dst (t itself for apply). The walk holds its own view of t (a userdata on the stack, so a
 * Lua error frees it): fn may release or clone t, or the host revoke it, between two elements.
 */
static void each(lua_State *L, lt_tensor *t, lt_tensor *dst, int in_place) {
  lt_error err;
  ltl_ud *hold = ltl_newud(L);
  if (lt_tensor_alias(t, &hold->t, &err)) ltl_raise(L, &err);
  t = hold->t;
  if (in_place) dst = t;
  int64_t idx[LT_MAX_NDIM] = {0}, n = lt_numel(t);
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0, doff = 0;
    for (int d = 0; d < t->ndim; d++) {
      off += idx[d] * t->strides[d];
      doff += idx[d] * dst->strides[d];
    }
    lua_pushvalue(L, 2);
    if (!lt_readable(t)) ltl_released(L);
    ltl_push_element(L, t->dtype, lt_data(t) + off * (int64_t)lt_esize(t));
    lua_call(L, 1, 1);
    ltl_check(L, 1); /* fn may have released the tensor (its <close>, a host revoke) */
    if (in_place)
      ltl_prepare_write(L, dst); /* ... or cloned it */
    else if (!lt_readable(t))
      ltl_released(L);
    ltl_store_value(L, -1, dst->dtype, lt_data(dst) + doff * (int64_t)lt_esize(dst));
    lua_pop(L, 1);
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (++idx[d] < t->shape[d]) break;
      idx[d] = 0;
    }
  }
  lua_pop(L, 1);
}

/* t:map(fn): a new tensor of t's dtype holding fn(x) for each element x. */
static int m_map(lua_State *L) {
  ltl_args(L, 1, 1, 0, "map");
  lt_tensor *t = ltl_check(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lt_error err;
  if (lt_check_readable(t, &err)) return ltl_raise(L, &err);
  ltl_ud *ud = ltl_newud(L);
  if (lt_tensor_new(t->dtype, t->ndim, t->shape, 0, &ud->t, &err)) return ltl_raise(L, &err);
  each(L, t, ud->t, 0);
  return 1;
}

/* t:apply(fn): replaces each element x of t by fn(x), in place. An expanded view is refused,
   as by every in-place operation: fn would run once per element, several times per memory
   location. */
static int m_apply(lua_State *L) {
  ltl_args(L, 1, 1, 0, "apply");
  lt_tensor *t = ltl_check(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  ltl_prepare_write(L, t);
  lt_error err;
  if (lt_check_no_internal_overlap(t, &err)) return ltl_raise(L, &err);
  each(L, t, t, 1);
  lua_settop(L, 1);
  return 1;
}

/* }====== */

/* {====== threads ====== */

/* lt.set_num_threads(n): the process-wide count of threads for bulk operations. */
static int f_set_num_threads(lua_State *L) {
  ltl_args(L, 0, 1, 0, "set_num_threads");
  lua_Integer n = luaL_checkinteger(L, 1);
  luaL_argcheck(L, n >= 1, 1, "expected a positive number of threads");
  lt_pool_set_threads(n > LT_POOL_MAX_THREADS ? LT_POOL_MAX_THREADS : (int)n);
  return 0;
}

static int f_get_num_threads(lua_State *L) {
  ltl_args(L, 0, 0, 0, "get_num_threads");
  lua_pushinteger(L, lt_pool_threads());
  return 1;
}

/* }====== */

/* The methods torch also has as torch.f: methods and module functions both (open_math). */
static const luaL_Reg math_both[] = {
    {"matmul", m_matmul}, {"mm", m_mm},           {"bmm", m_bmm}, {"mv", m_mv}, {"dot", m_dot},
    {"addmm", m_addmm},   {"baddbmm", m_baddbmm}, {"t", m_t},     {NULL, NULL},
};
/* The methods alone. */
static const luaL_Reg math_methods[] = {
    {"addmm_", m_addmm_}, {"baddbmm_", m_baddbmm_}, {"t_", m_t_},
    {"map", m_map},       {"apply", m_apply},       {NULL, NULL},
};
/* The module's own functions. */
static const luaL_Reg math_funcs[] = {{"cat", f_cat},
                                      {"stack", f_stack},
                                      {"set_num_threads", f_set_num_threads},
                                      {"get_num_threads", f_get_num_threads},
                                      {NULL, NULL}};

static void open_math(lua_State *L, const ltl_tables *at) {
  lua_pushcfunction(L, p_mT);
  lua_setfield(L, at->props, "mT");
  ltl_setfuncs(L, at->methods, math_both);
  ltl_setfuncs(L, at->module, math_both);
}

const ltl_part ltl_part_math = {NULL, math_methods, NULL, math_funcs, open_math};
