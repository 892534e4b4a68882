/*
 * lua_math.c -- tensor math in Lua: operators, elementwise methods, matmul, lt.cat / lt.stack /
 * lt.where, map/apply for the rare per-element Lua function (always on the calling thread: the
 * core's pool never runs Lua), and lt.set_num_threads / get_num_threads (reductions:
 * lua_reduce.c).
 *
 * Argument handling only: every operation is the core's (lt_math.h). Operands are tensors or Lua
 * scalars (numbers, booleans). Dims are 1-based (negative from the end). Lua's == and < keep
 * their meaning (identity, and an error): comparisons that give bool tensors are the methods eq,
 * ne, lt, le, gt, ge; & | ~ << >> and unary ~ are the bitwise methods. Read only by lua_init.c
 * (ltl_part_math); calls the base (lua_ud.h) and the core.
 */
#include <limits.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_linalg.h"
#include "lt_math.h"
#include "lt_pool.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== elementwise ====== */

/* Is the operand bool or integer (a tensor of such a dtype, or such a scalar)? An opaque
   tensor is not (it has no entry in lt_dtypes; lt_binary refuses it). */
static int integral(const lt_operand *o) {
  if (o->t && o->t->dtype == LT_OPAQUE) return 0;
  if (o->t) return !lt_dtypes[o->t->dtype].is_float && !lt_dtypes[o->t->dtype].is_complex;
  return o->s.kind == LT_SK_INT || o->s.kind == LT_SK_UINT;
}

/* add and sub: torch's keyword-only alpha, from the options table after the operand (read
   before the operands: its metamethods may run). Returns 0 when there is none. */
static int check_alpha(lua_State *L, lt_binop op, lt_operand *alpha) {
  static const char *const keys[] = {"alpha"};
  const char *name = lt_binop_names[op];
  int last = ltl_opts(L, 3, name, keys, 1), has = !lua_isnil(L, -1);
  memset(alpha, 0, sizeof *alpha);
  if (has && lua_type(L, -1) != LUA_TNUMBER)
    ltl_error(L, "%s: alpha must be a number, got %s", name, luaL_typename(L, -1));
  if (has && lua_isinteger(L, -1))
    alpha->s.v.i = (int64_t)lua_tointeger(L, -1);
  else if (has)
    alpha->s = (lt_scalar){LT_SK_FLOAT, {.f = lua_tonumber(L, -1)}, 0};
  lua_settop(L, last);
  return has;
}

/* b becomes alpha * b (a new tensor held on the stack, or a scalar). Integer operands refuse a
   float alpha, as torch does. */
static void scale_by_alpha(lua_State *L, lt_binop op, const lt_operand *a, lt_operand *b,
                           const lt_operand *alpha) {
  const char *name = lt_binop_names[op];
  if (alpha->s.kind == LT_SK_FLOAT && integral(a) && integral(b))
    ltl_error(L, "%s: alpha must be an integer for integer operands, got %f", name, alpha->s.v.f);
  if (b->t) {
    lt_error err;
    ltl_ud *ud = ltl_newud(L); /* holds alpha * b for the call */
    if (lt_binary(LT_MUL, b, alpha, NULL, &ud->t, &err)) ltl_error(L, "%s: %s", name, err.msg);
    b->t = ud->t;
    return;
  }
  if (alpha->s.kind == LT_SK_FLOAT || b->s.kind == LT_SK_FLOAT) {
    double x = b->s.kind == LT_SK_FLOAT ? b->s.v.f : (double)b->s.v.i;
    double y = alpha->s.kind == LT_SK_FLOAT ? alpha->s.v.f : (double)alpha->s.v.i;
    b->s = (lt_scalar){LT_SK_FLOAT, {.f = x * y}, 0};
  } else { /* wraps, as torch's integers do, without signed overflow */
    uint64_t p = (uint64_t)b->s.v.i * (uint64_t)alpha->s.v.i;
    b->s.kind = LT_SK_INT;
    memcpy(&b->s.v.i, &p, sizeof p);
  }
  b->is_bool = 0;
}

/* div: torch's keyword-only rounding_mode, from the options table after the operand: nil
   (true division) or "floor" (floor_divide); "trunc" has no kernel here. */
static lt_binop check_rounding(lua_State *L) {
  static const char *const keys[] = {"rounding_mode"};
  int last = ltl_opts(L, 3, "div", keys, 1);
  lt_binop op = LT_DIV;
  if (!lua_isnil(L, -1)) {
    const char *mode = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    if (strcmp(mode, "floor") == 0)
      op = LT_FLOORDIV;
    else if (strcmp(mode, "trunc") == 0)
      ltl_error(L, "div: rounding_mode 'trunc' is not supported (use 'floor' or floor_divide)");
    else
      ltl_error(L, "div: rounding_mode must be 'floor' or 'trunc', got %s",
                lua_type(L, -1) == LUA_TSTRING ? mode : luaL_typename(L, -1));
  }
  lua_settop(L, last);
  return op;
}

static int binary(lua_State *L, lt_binop op, int inplace) {
  lt_operand a, b, alpha;
  int has_alpha = (op == LT_ADD || op == LT_SUB) && check_alpha(L, op, &alpha);
  if (op == LT_DIV) op = check_rounding(L);
  ltl_check_operand(L, 1, &a, lt_binop_names[op]);
  ltl_check_operand(L, 2, &b, lt_binop_names[op]);
  if (has_alpha) scale_by_alpha(L, op, &a, &b, &alpha);
  lt_error err;
  if (inplace) {
    lt_tensor *t = ltl_check(L, 1), *r;
    if (lt_binary(op, &a, &b, t, &r, &err)) return ltl_raise(L, &err);
    lua_settop(L, 1);
    return 1;
  }
  ltl_ud *ud = ltl_newud(L);
  if (lt_binary(op, &a, &b, NULL, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

static int unary(lua_State *L, lt_unop op, int inplace) {
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  if (inplace) {
    lt_tensor *r;
    if (lt_unary(op, t, t, &r, &err)) return ltl_raise(L, &err);
    lua_settop(L, 1);
    return 1;
  }
  ltl_ud *ud = ltl_newud(L);
  if (lt_unary(op, t, NULL, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

#define BINARY(name, op)                                         \
  static int m_##name(lua_State *L) { return binary(L, op, 0); } \
  static int m_##name##_(lua_State *L) { return binary(L, op, 1); }
BINARY(add, LT_ADD)
BINARY(sub, LT_SUB)
BINARY(mul, LT_MUL)
BINARY(div, LT_DIV)
BINARY(floor_divide, LT_FLOORDIV)
BINARY(remainder, LT_REM)
BINARY(pow, LT_POW)
BINARY(maximum, LT_MAXIMUM)
BINARY(minimum, LT_MINIMUM)
BINARY(bitwise_and, LT_BAND)
BINARY(bitwise_or, LT_BOR)
BINARY(bitwise_xor, LT_BXOR)
BINARY(bitwise_left_shift, LT_SHL)
BINARY(bitwise_right_shift, LT_SHR)
#define COMPARE(name, op) \
  static int m_##name(lua_State *L) { return binary(L, op, 0); }
COMPARE(eq, LT_EQ)
COMPARE(ne, LT_NE)
COMPARE(lt, LT_LT)
COMPARE(le, LT_LE)
COMPARE(gt, LT_GT)
COMPARE(ge, LT_GE)
COMPARE(logical_and, LT_AND)
COMPARE(logical_or, LT_OR)

#define UNARY(name, op)                                         \
  static int m_##name(lua_State *L) { return unary(L, op, 0); } \
  static int m_##name##_(lua_State *L) { return unary(L, op, 1); }
UNARY(neg, LT_NEG)
UNARY(abs, LT_ABS)
UNARY(sqrt, LT_SQRT)
UNARY(exp, LT_EXP)
UNARY(log, LT_LOG)
UNARY(sin, LT_SIN)
UNARY(cos, LT_COS)
UNARY(tanh, LT_TANH)
UNARY(floor, LT_FLOOR)
UNARY(ceil, LT_CEIL)
UNARY(round, LT_ROUND)
UNARY(sign, LT_SIGN)
UNARY(bitwise_not, LT_BNOT)
static int m_logical_not(lua_State *L) { return unary(L, LT_NOT, 0); }

/* The operators: a scalar may stand on either side. */
static int mm_add(lua_State *L) { return binary(L, LT_ADD, 0); }
static int mm_sub(lua_State *L) { return binary(L, LT_SUB, 0); }
static int mm_mul(lua_State *L) { return binary(L, LT_MUL, 0); }
static int mm_div(lua_State *L) { return binary(L, LT_DIV, 0); }
static int mm_idiv(lua_State *L) { return binary(L, LT_FLOORDIV, 0); }
static int mm_mod(lua_State *L) { return binary(L, LT_REM, 0); }
static int mm_pow(lua_State *L) { return binary(L, LT_POW, 0); }
static int mm_unm(lua_State *L) {
  lua_settop(L, 1); /* Lua passes the operand twice */
  return unary(L, LT_NEG, 0);
}

/* The bitwise operators: as Lua's own & | ~ << >> do, a float operand with an integral value
   counts as that integer (t & 2.0 is t & 2) and any other float raises; the methods keep
   torch's rule (a float scalar makes the result float, which they refuse). */
static int bitwise_operator(lua_State *L, lt_binop op) {
  for (int i = 1; i <= 2; i++) {
    if (lua_type(L, i) != LUA_TNUMBER || lua_isinteger(L, i)) continue;
    int exact;
    lua_Integer v = lua_tointegerx(L, i, &exact); /* only a float with an integral value */
    if (!exact) return ltl_error(L, "%s: number has no integer representation", lt_binop_names[op]);
    lua_pushinteger(L, v);
    lua_replace(L, i);
  }
  return binary(L, op, 0);
}
static int mm_band(lua_State *L) { return bitwise_operator(L, LT_BAND); }
static int mm_bor(lua_State *L) { return bitwise_operator(L, LT_BOR); }
static int mm_bxor(lua_State *L) { return bitwise_operator(L, LT_BXOR); }
static int mm_shl(lua_State *L) { return bitwise_operator(L, LT_SHL); }
static int mm_shr(lua_State *L) { return bitwise_operator(L, LT_SHR); }
static int mm_bnot(lua_State *L) {
  lua_settop(L, 1); /* ~t: Lua passes the operand twice */
  return unary(L, LT_BNOT, 0);
}

/* t:clamp(min, max) (either may be nil) and clamp_ */
static int clamp(lua_State *L, int inplace) {
  lt_tensor *t = ltl_check(L, 1);
  lt_operand lo, hi;
  int has_lo = !lua_isnoneornil(L, 2), has_hi = !lua_isnoneornil(L, 3);
  if (has_lo) ltl_check_operand(L, 2, &lo, "clamp");
  if (has_hi) ltl_check_operand(L, 3, &hi, "clamp");
  lt_error err;
  if (inplace) {
    lt_tensor *r;
    if (lt_clamp(t, has_lo ? &lo : NULL, has_hi ? &hi : NULL, t, &r, &err))
      return ltl_raise(L, &err);
    lua_settop(L, 1);
    return 1;
  }
  ltl_ud *ud = ltl_newud(L);
  if (lt_clamp(t, has_lo ? &lo : NULL, has_hi ? &hi : NULL, NULL, &ud->t, &err))
    return ltl_raise(L, &err);
  return 1;
}
static int m_clamp(lua_State *L) { return clamp(L, 0); }
static int m_clamp_(lua_State *L) { return clamp(L, 1); }

/* lt.where(cond, a, b) */
static int f_where(lua_State *L) {
  lt_tensor *c = ltl_check(L, 1);
  lt_operand a, b;
  ltl_check_operand(L, 2, &a, "where");
  ltl_check_operand(L, 3, &b, "where");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_where(c, &a, &b, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

/* t:masked_fill(mask, value): where(mask, value, t) in t's dtype; masked_fill_ writes t. */
static int masked_fill(lua_State *L, int inplace) {
  lt_tensor *t = ltl_check(L, 1), *mask = ltl_check(L, 2), *r;
  lt_operand v;
  ltl_check_operand(L, 3, &v, "masked_fill");
  lt_error err;
  if (inplace) {
    ltl_prepare_write(L, t);
    if (lt_masked_fill(t, mask, &v, 1, &r, &err)) return ltl_raise(L, &err);
    lua_settop(L, 1);
    return 1;
  }
  ltl_ud *ud = ltl_newud(L);
  if (lt_masked_fill(t, mask, &v, 0, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}
static int m_masked_fill(lua_State *L) { return masked_fill(L, 0); }
static int m_masked_fill_(lua_State *L) { return masked_fill(L, 1); }

/* }====== */

/* {====== linear algebra, cat, stack ====== */

/* a:matmul(b), a:mm(b), a:bmm(b), a:mv(v), a:dot(b): the core checks the ranks and sizes. */
static int product(lua_State *L, const char *name,
                   int (*fn)(const lt_tensor *, const lt_tensor *, lt_tensor **, lt_error *)) {
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

/* opts.name as alpha or beta (default 1): a number, or {re, im} for complex results. */
static void coef_opt(lua_State *L, int opts, const char *name, lt_scalar *s) {
  *s = (lt_scalar){.kind = LT_SK_INT, .v.i = 1};
  if (lua_isnoneornil(L, opts)) return;
  lua_getfield(L, opts, name);
  int t = lua_type(L, -1);
  if (t != LUA_TNIL && ((t != LUA_TNUMBER && t != LUA_TTABLE) ||
                        !ltl_to_scalar(L, -1, t == LUA_TTABLE ? LT_COMPLEX128 : LT_FLOAT64, s)))
    luaL_error(L, "addmm: %s must be a number or {re, im}, got %s", name, luaL_typename(L, -1));
  lua_pop(L, 1);
}

/* input:addmm(mat1, mat2 [, {beta = 1, alpha = 1}]), and addmm_ (the product written into
   input, whose shape must be the product's: no broadcasting in place, as torch). */
static int addmm(lua_State *L, int inplace) {
  const char *name = inplace ? "addmm_" : "addmm";
  lt_scalar alpha, beta;
  if (!lua_isnoneornil(L, 4)) luaL_checktype(L, 4, LUA_TTABLE);
  coef_opt(L, 4, "beta", &beta); /* first: an options metamethod may run Lua code */
  coef_opt(L, 4, "alpha", &alpha);
  lt_tensor *input = ltl_check(L, 1), *a = ltl_check(L, 2), *b = ltl_check(L, 3);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_addmm(input, a, b, &beta, &alpha, &ud->t, &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  if (!inplace) {
    return 1;
  }
  const lt_tensor *r = ud->t;
  if (input->ndim != r->ndim || memcmp(input->shape, r->shape, sizeof(int64_t) * (size_t)r->ndim)) {
    char have[64], want[64];
    lt_shape_str(input->ndim, input->shape, have, sizeof have);
    lt_shape_str(r->ndim, r->shape, want, sizeof want);
    return ltl_error(L, "%s: self has shape %s, the product %s", name, have, want);
  }
  ltl_prepare_write(L, input);
  LTL_CHECK(L, lt_copy(input, r, &err), err);
  lua_settop(L, 1);
  return 1;
}
static int m_addmm(lua_State *L) { return addmm(L, 0); }
static int m_addmm_(lua_State *L) { return addmm(L, 1); }

/* t:t(): the transpose of a 2-d tensor (0-d and 1-d unchanged), as torch. */
static int m_t(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim > 2) return luaL_error(L, "t() expects a tensor with <= 2 dims, got %d", t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  int rc = t->ndim == 2 ? lt_transpose(t, 0, 1, &ud->t, &err) : lt_tensor_alias(t, &ud->t, &err);
  if (rc) return ltl_raise(L, &err);
  return 1;
}

/* t.mT: the last two dims swapped. */
static int p_mT(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim < 2) return luaL_error(L, "mT needs a tensor of at least 2 dims, got %d", t->ndim);
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
  int n;
  lua_settop(L, 2); /* the scratch block goes above the arguments */
  const lt_tensor **ts = tensor_list(L, 1, &n, stack ? "stack" : "cat");
  int nd = ts[0]->ndim + (stack ? 1 : 0);
  int dim = lua_isnoneornil(L, 2) ? 0 : ltl_check_dim(L, 2, nd > 0 ? nd : 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if ((stack ? lt_stack : lt_cat)(ts, n, dim, &ud->t, &err)) return ltl_raise(L, &err);
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

#define M(name) \
  {#name, m_##name}, { #name "_", m_##name##_ }
static const luaL_Reg math_methods[] = {
    M(add),
    M(sub),
    M(mul),
    M(div),
    M(floor_divide),
    M(remainder),
    M(pow),
    M(maximum),
    M(minimum),
    M(bitwise_and),
    M(bitwise_or),
    M(bitwise_xor),
    M(bitwise_not),
    M(bitwise_left_shift),
    M(bitwise_right_shift),
    M(neg),
    M(abs),
    M(sqrt),
    M(exp),
    M(log),
    M(sin),
    M(cos),
    M(tanh),
    M(floor),
    M(ceil),
    M(round),
    M(sign),
    M(clamp),
    M(masked_fill),
    {"eq", m_eq},
    {"ne", m_ne},
    {"lt", m_lt},
    {"le", m_le},
    {"gt", m_gt},
    {"ge", m_ge},
    {"logical_and", m_logical_and},
    {"logical_or", m_logical_or},
    {"logical_not", m_logical_not},
    {"matmul", m_matmul},
    {"mm", m_mm},
    {"bmm", m_bmm},
    {"mv", m_mv},
    {"dot", m_dot},
    {"addmm", m_addmm},
    {"addmm_", m_addmm_},
    {"t", m_t},
    {"map", m_map},
    {"apply", m_apply},
    {NULL, NULL},
};

static const luaL_Reg math_metameth[] = {
    {"__add", mm_add},   {"__sub", mm_sub},   {"__mul", mm_mul},   {"__div", mm_div},
    {"__idiv", mm_idiv}, {"__mod", mm_mod},   {"__pow", mm_pow},   {"__unm", mm_unm},
    {"__band", mm_band}, {"__bor", mm_bor},   {"__bxor", mm_bxor}, {"__shl", mm_shl},
    {"__shr", mm_shr},   {"__bnot", mm_bnot}, {NULL, NULL},
};

/* {====== threads ====== */

/* lt.set_num_threads(n): the process-wide count of threads for bulk operations. */
static int f_set_num_threads(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1);
  luaL_argcheck(L, n >= 1, 1, "expected a positive number of threads");
  lt_pool_set_threads(n > LT_POOL_MAX_THREADS ? LT_POOL_MAX_THREADS : (int)n);
  return 0;
}

static int f_get_num_threads(lua_State *L) {
  lua_pushinteger(L, lt_pool_threads());
  return 1;
}

/* }====== */

static const luaL_Reg math_funcs[] = {{"where", f_where},
                                      {"cat", f_cat},
                                      {"stack", f_stack},
                                      {"set_num_threads", f_set_num_threads},
                                      {"get_num_threads", f_get_num_threads},
                                      {NULL, NULL}};

static void open_math(lua_State *L, const ltl_tables *at) {
  lua_pushcfunction(L, p_mT);
  lua_setfield(L, at->props, "mT");
}

const ltl_part ltl_part_math = {math_metameth, math_methods, NULL, math_funcs, open_math};
