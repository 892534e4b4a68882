/*
 * lt_math.c -- elementwise operations, type promotion, clamp and where (reductions are in
 * lt_reduce.c, matmul and cat in lt_linalg.c).
 *
 * Every operation runs in a computation dtype: the result dtype, except that float16 and
 * bfloat16 compute in float32 (and round once into the result), comparisons compute in the
 * promoted input dtype, and true division of integers computes in float32. Inputs of another
 * dtype are first cast (lt_cast); then one kernel per (operation, computation dtype), generated
 * from one macro per operation, runs over each inner run of lt_iter, with a contiguous path the
 * compiler vectorizes (blocks of LT_BLOCK elements, see lt_iter.h).
 */
#include "lt_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_iter.h"
#include "lt_copy.h"

const char *const lt_binop_names[LT_NBINOPS] = {
    "add", "sub", "mul", "div", "floor_divide", "remainder",  "pow",     "eq",     "ne",
    "lt",  "le",  "gt",  "ge",  "logical_and",  "logical_or", "maximum", "minimum"};
const char *const lt_unop_names[LT_NUNOPS] = {"neg",   "abs",  "sqrt",       "exp",   "log",
                                              "sin",   "cos",  "tanh",       "floor", "ceil",
                                              "round", "sign", "logical_not"};

/* {====== promotion ====== */

enum { CAT_BOOL, CAT_INT, CAT_FLOAT, CAT_COMPLEX };

static int category(lt_dtype d) {
  if (d == LT_BOOL) return CAT_BOOL;
  if (lt_dtypes[d].is_complex) return CAT_COMPLEX;
  if (lt_dtypes[d].is_float) return CAT_FLOAT;
  return CAT_INT;
}

static int bits(lt_dtype d) { return lt_dtypes[d].dl.bits; }

static lt_dtype int_of(int nbits, int is_signed) {
  switch (nbits) {
    case 8: return is_signed ? LT_INT8 : LT_UINT8;
    case 16: return is_signed ? LT_INT16 : LT_UINT16;
    case 32: return is_signed ? LT_INT32 : LT_UINT32;
    default: return is_signed ? LT_INT64 : LT_UINT64;
  }
}

/* The complex dtype with at least the precision of float dtype f. */
static lt_dtype complex_of(lt_dtype f) { return f == LT_FLOAT64 ? LT_COMPLEX128 : LT_COMPLEX64; }

lt_dtype lt_promote(lt_dtype a, lt_dtype b) {
  if (a == b) return a;
  int ca = category(a), cb = category(b);
  if (ca < cb) {
    lt_dtype t = a;
    a = b;
    b = t;
    int c = ca;
    ca = cb;
    cb = c;
  }
  /* now ca >= cb */
  if (ca != cb) {
    if (ca == CAT_COMPLEX && cb == CAT_FLOAT)
      return bits(b) == 64 && a == LT_COMPLEX64 ? LT_COMPLEX128 : a;
    return a; /* bool < int < float: the higher kind, at its own precision */
  }
  switch (ca) {
    case CAT_INT: {
      int sa = lt_dtypes[a].is_signed, sb = lt_dtypes[b].is_signed;
      if (sa == sb) return bits(a) >= bits(b) ? a : b;
      lt_dtype s = sa ? a : b, u = sa ? b : a;
      if (bits(u) < bits(s)) return s;
      if (bits(u) == 64) return LT_FLOAT64; /* no integer holds both (NumPy's choice) */
      return int_of(2 * bits(u), 1);
    }
    case CAT_FLOAT:
      if ((a == LT_FLOAT16 && b == LT_BFLOAT16) || (a == LT_BFLOAT16 && b == LT_FLOAT16))
        return LT_FLOAT32;
      return bits(a) >= bits(b) ? a : b;
    default: return bits(a) >= bits(b) ? a : b;
  }
}

/* The dtype an operand brings to promotion: a tensor's, or a scalar's default. */
static lt_dtype operand_dtype(const lt_operand *o) {
  if (o->t) return o->t->dtype;
  if (o->is_bool) return LT_BOOL;
  switch (o->s.kind) {
    case LT_SK_INT:
    case LT_SK_UINT: return LT_INT64;
    case LT_SK_FLOAT: return LT_FLOAT32; /* torch's default dtype */
    default: return LT_COMPLEX64;
  }
}

/* 0: tensors with dims, 1: 0-d tensors, 2: scalars. */
static int priority(const lt_operand *o) { return o->t ? (o->t->ndim > 0 ? 0 : 1) : 2; }

/* A higher-priority result keeps its dtype unless the other is of a higher category. */
static lt_dtype combine(lt_dtype hi, lt_dtype lo) {
  if (category(hi) >= category(lo)) return hi;
  if (category(lo) == CAT_COMPLEX && category(hi) == CAT_FLOAT) return complex_of(hi);
  return lt_promote(hi, lo);
}

/* The promoted dtype of the operands under torch's rules. */
static lt_dtype result_type(int n, const lt_operand *const *ops) {
  int have[3] = {0, 0, 0};
  lt_dtype r[3] = {LT_BOOL, LT_BOOL, LT_BOOL};
  for (int i = 0; i < n; i++) {
    int p = priority(ops[i]);
    lt_dtype d = operand_dtype(ops[i]);
    r[p] = have[p] ? lt_promote(r[p], d) : d;
    have[p] = 1;
  }
  lt_dtype out = LT_BOOL;
  int any = 0;
  for (int p = 0; p < 3; p++) {
    if (!have[p]) continue;
    out = any ? combine(out, r[p]) : r[p];
    any = 1;
  }
  return out;
}

static int is_compare(lt_binop op) { return op >= LT_EQ && op <= LT_GE; }
static int is_logical(lt_binop op) { return op == LT_AND || op == LT_OR; }

int lt_binary_type(lt_binop op, const lt_operand *a, const lt_operand *b, lt_dtype *out,
                   lt_error *err) {
  const lt_operand *ops[2] = {a, b};
  lt_dtype r = result_type(2, ops);
  if (r == LT_OPAQUE)
    return lt_fail(err, LT_EOPAQUE, "%s: opaque tensors have no arithmetic", lt_binop_names[op]);
  if (is_compare(op) || is_logical(op)) {
    *out = LT_BOOL;
    return LT_OK;
  }
  if (op == LT_DIV && category(r) <= CAT_INT) r = LT_FLOAT32;
  if (op == LT_POW && category(r) == CAT_BOOL) r = LT_INT64;
  *out = r;
  return LT_OK;
}

/* The dtype a kernel computes in for a result (or comparison operands) of dtype r. */
static lt_dtype compute_type(lt_dtype r) {
  return r == LT_FLOAT16 || r == LT_BFLOAT16 ? LT_FLOAT32 : r;
}

/* }====== */

/* {====== shape helpers ====== */

static int broadcast_shape(int n, const lt_tensor *const *ts, int *ndim, int64_t *shape,
                           const char *what, lt_error *err) {
  int nd = 0;
  for (int i = 0; i < n; i++)
    if (ts[i] && ts[i]->ndim > nd) nd = ts[i]->ndim;
  for (int d = 0; d < nd; d++) shape[d] = 1;
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ts[i];
    if (!t) continue;
    for (int d = 0; d < t->ndim; d++) {
      int64_t have = t->shape[d], *want = &shape[nd - t->ndim + d];
      if (have == *want || have == 1) continue;
      if (*want == 1) {
        *want = have;
        continue;
      }
      return lt_fail(err, LT_EARG,
                     "%s: shapes do not broadcast (size %lld against %lld at dim %d from the "
                     "end)",
                     what, (long long)have, (long long)*want, t->ndim - d);
    }
  }
  *ndim = nd;
  return LT_OK;
}

int lt_cast(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err) {
  lt_tensor *c;
  int rc = lt_tensor_new(dt, t->ndim, t->shape, 0, &c, err);
  if (rc) return rc;
  if ((rc = lt_copy(c, t, err))) {
    lt_tensor_free(c);
    return rc;
  }
  *out = c;
  return LT_OK;
}

/* Whether an integer scalar fits integer dtype dt (floats are checked by lt_store). */
static int int_fits(const lt_scalar *s, lt_dtype dt) {
  int b = bits(dt), sgn = lt_dtypes[dt].is_signed;
  if (s->kind == LT_SK_UINT)
    return !sgn ? 1 : b == 64 ? s->v.u <= (uint64_t)INT64_MAX : s->v.u < (1ULL << (b - 1));
  if (s->kind != LT_SK_INT) return 1;
  int64_t v = s->v.i;
  if (b == 64) return sgn || v >= 0;
  return sgn ? v >= -(1LL << (b - 1)) && v < (1LL << (b - 1)) : v >= 0 && v < (1LL << b);
}

/* An operand in dtype dt: the tensor itself (*owned NULL) or a converted copy (*owned set). A
   scalar becomes a 0-d tensor. */
static int operand_as(const lt_operand *o, lt_dtype dt, const lt_tensor **t, lt_tensor **owned,
                      lt_error *err) {
  *owned = NULL;
  if (o->t) {
    int rc = lt_check_readable(o->t, err);
    if (rc) return rc;
    if (o->t->dtype == dt) {
      *t = o->t;
      return LT_OK;
    }
    rc = lt_cast(o->t, dt, owned, err);
    *t = *owned;
    return rc;
  }
  if (lt_dtypes[dt].is_int && !int_fits(&o->s, dt)) { /* torch refuses to wrap a scalar */
    char str[64];
    lt_scalar_str(&o->s, str, sizeof str);
    return lt_fail(err, LT_ERANGE, "value %s cannot be converted to %s without overflow", str,
                   lt_dtypes[dt].name);
  }
  int rc = lt_tensor_new(dt, 0, NULL, 0, owned, err);
  if (rc) return rc;
  if (lt_store(dt, lt_data(*owned), &o->s) != LT_STORE_OK) {
    char str[64];
    lt_scalar_str(&o->s, str, sizeof str);
    lt_tensor_free(*owned);
    *owned = NULL;
    return lt_fail(err, LT_ERANGE, "value %s cannot be converted to %s", str, lt_dtypes[dt].name);
  }
  *t = *owned;
  return LT_OK;
}

/* }====== */

/* {====== elementwise kernels ====== */

/* Unsigned arithmetic of an integer type (wraps without undefined behaviour). */
#define WIDE_uint8_t uint32_t
#define WIDE_int8_t uint32_t
#define WIDE_uint16_t uint32_t
#define WIDE_int16_t uint32_t
#define WIDE_uint32_t uint32_t
#define WIDE_int32_t uint32_t
#define WIDE_uint64_t uint64_t
#define WIDE_int64_t uint64_t
#define W(T) WIDE_##T

/* One inner run of a binary operation: o = EXPR(x, y); EXPR may set `bad`. */
#define BIN_RUN(NAME, T, OT, EXPR)                                                          \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {                \
    (void)ctx;                                                                              \
    int bad = 0;                                                                            \
    char *o = p[0];                                                                         \
    const char *a = p[1], *b = p[2];                                                        \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T) &&                      \
        st[2] == (int64_t)sizeof(T)) {                                                      \
      OT *oo = (OT *)(void *)o;                                                             \
      const T *aa = (const T *)(const void *)a, *bb = (const T *)(const void *)b;           \
      int64_t i = 0;                                                                        \
      for (; i + LT_BLOCK <= n; i += LT_BLOCK) {                                            \
        LT_IVDEP for (int j = 0; j < LT_BLOCK; j++) {                                       \
          T x = aa[i + j], y = bb[i + j];                                                   \
          oo[i + j] = (EXPR);                                                               \
        }                                                                                   \
      }                                                                                     \
      for (; i < n; i++) {                                                                  \
        T x = aa[i], y = bb[i];                                                             \
        oo[i] = (EXPR);                                                                     \
      }                                                                                     \
    } else if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T) && st[2] == 0) { \
      OT *oo = (OT *)(void *)o;                                                             \
      const T *aa = (const T *)(const void *)a;                                             \
      const T y = *(const T *)(const void *)b;                                              \
      int64_t i = 0;                                                                        \
      for (; i + LT_BLOCK <= n; i += LT_BLOCK) {                                            \
        LT_IVDEP for (int j = 0; j < LT_BLOCK; j++) {                                       \
          T x = aa[i + j];                                                                  \
          oo[i + j] = (EXPR);                                                               \
        }                                                                                   \
      }                                                                                     \
      for (; i < n; i++) {                                                                  \
        T x = aa[i];                                                                        \
        oo[i] = (EXPR);                                                                     \
      }                                                                                     \
    } else {                                                                                \
      for (int64_t i = 0; i < n; i++) {                                                     \
        T x = *(const T *)(const void *)(a + i * st[1]);                                    \
        T y = *(const T *)(const void *)(b + i * st[2]);                                    \
        *(OT *)(void *)(o + i * st[0]) = (EXPR);                                            \
      }                                                                                     \
    }                                                                                       \
    return bad;                                                                             \
  }

/* Integer floor division and remainder with the sign of the divisor (Python's, torch's). */
#define IDIV_S(T, x, y)             \
  ((y) == 0    ? (bad = 1, (T)0)    \
   : (y) == -1 ? (T)(0 - (W(T))(x)) \
               : (T)((x) / (y) - (((x) % (y) != 0) && (((x) < 0) != ((y) < 0)))))
#define IREM_S(T, x, y)       \
  ((y) == 0 ? (bad = 1, (T)0) \
   : (y) == -1                \
       ? (T)0                 \
       : (T)((x) % (y) + ((((x) % (y)) != 0 && (((x) % (y) < 0) != ((y) < 0))) ? (y) : 0)))
#define IDIV_U(T, x, y) ((y) == 0 ? (bad = 1, (T)0) : (T)((x) / (y)))
#define IREM_U(T, x, y) ((y) == 0 ? (bad = 1, (T)0) : (T)((x) % (y)))

static uint64_t ipow(uint64_t base, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

static double fl_floordiv(double a, double b) {
  if (b == 0) return a / b;
  double mod = fmod(a, b), div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return copysign(0.0, a / b);
  double f = floor(div);
  return div - f > 0.5 ? f + 1.0 : f;
}

static double fl_rem(double a, double b) {
  double r = fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

#define INT_BINOPS(T)                            \
  BIN_RUN(add_##T, T, T, (T)((W(T))x + (W(T))y)) \
  BIN_RUN(sub_##T, T, T, (T)((W(T))x - (W(T))y)) \
  BIN_RUN(mul_##T, T, T, (T)((W(T))x * (W(T))y)) \
  BIN_RUN(eq_##T, T, uint8_t, x == y)            \
  BIN_RUN(ne_##T, T, uint8_t, x != y)            \
  BIN_RUN(lt_##T, T, uint8_t, x < y)             \
  BIN_RUN(le_##T, T, uint8_t, x <= y)            \
  BIN_RUN(gt_##T, T, uint8_t, x > y)             \
  BIN_RUN(ge_##T, T, uint8_t, x >= y)            \
  BIN_RUN(max_##T, T, T, x > y ? x : y)          \
  BIN_RUN(min_##T, T, T, x < y ? x : y)
#define SINT_BINOPS(T)                         \
  INT_BINOPS(T)                                \
  BIN_RUN(floordiv_##T, T, T, IDIV_S(T, x, y)) \
  BIN_RUN(rem_##T, T, T, IREM_S(T, x, y))      \
  BIN_RUN(pow_##T, T, T, y < 0 ? (bad = 1, (T)0) : (T)ipow((uint64_t)x, (uint64_t)y))
#define UINT_BINOPS(T)                         \
  INT_BINOPS(T)                                \
  BIN_RUN(floordiv_##T, T, T, IDIV_U(T, x, y)) \
  BIN_RUN(rem_##T, T, T, IREM_U(T, x, y))      \
  BIN_RUN(pow_##T, T, T, (T)ipow((uint64_t)x, (uint64_t)y))

UINT_BINOPS(uint8_t)
SINT_BINOPS(int8_t)
SINT_BINOPS(int16_t)
SINT_BINOPS(int32_t)
SINT_BINOPS(int64_t)
UINT_BINOPS(uint16_t)
UINT_BINOPS(uint32_t)
UINT_BINOPS(uint64_t)

#define FLOAT_BINOPS(T)                             \
  BIN_RUN(add_##T, T, T, x + y)                     \
  BIN_RUN(sub_##T, T, T, x - y)                     \
  BIN_RUN(mul_##T, T, T, x *y)                      \
  BIN_RUN(div_##T, T, T, x / y)                     \
  BIN_RUN(floordiv_##T, T, T, (T)fl_floordiv(x, y)) \
  BIN_RUN(rem_##T, T, T, (T)fl_rem(x, y))           \
  BIN_RUN(pow_##T, T, T, (T)pow(x, y))              \
  BIN_RUN(eq_##T, T, uint8_t, x == y)               \
  BIN_RUN(ne_##T, T, uint8_t, x != y)               \
  BIN_RUN(lt_##T, T, uint8_t, x < y)                \
  BIN_RUN(le_##T, T, uint8_t, x <= y)               \
  BIN_RUN(gt_##T, T, uint8_t, x > y)                \
  BIN_RUN(ge_##T, T, uint8_t, x >= y)               \
  BIN_RUN(max_##T, T, T, (x != x || x > y) ? x : y) \
  BIN_RUN(min_##T, T, T, (x != x || x < y) ? x : y)

FLOAT_BINOPS(float)
FLOAT_BINOPS(double)

/* Complex: the four operations and (in)equality. */
#define CPX_DIV(T, R, x, y)                                                            \
  ((T){(R)(((x).re * (y).re + (x).im * (y).im) / ((y).re * (y).re + (y).im * (y).im)), \
       (R)(((x).im * (y).re - (x).re * (y).im) / ((y).re * (y).re + (y).im * (y).im))})
#define CPX_BINOPS(T, R)                                                              \
  BIN_RUN(add_##T, T, T, ((T){x.re + y.re, x.im + y.im}))                             \
  BIN_RUN(sub_##T, T, T, ((T){x.re - y.re, x.im - y.im}))                             \
  BIN_RUN(mul_##T, T, T, ((T){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re})) \
  BIN_RUN(div_##T, T, T, CPX_DIV(T, R, x, y))                                         \
  BIN_RUN(eq_##T, T, uint8_t, x.re == y.re && x.im == y.im)                           \
  BIN_RUN(ne_##T, T, uint8_t, x.re != y.re || x.im != y.im)

CPX_BINOPS(lt_c64, float)
CPX_BINOPS(lt_c128, double)

/* bool: + is or, * is and (as torch), logical ops, (in)equality, max/min. */
BIN_RUN(or_bool, uint8_t, uint8_t, (uint8_t)(x || y))
BIN_RUN(and_bool, uint8_t, uint8_t, (uint8_t)(x &&y))
BIN_RUN(eq_bool, uint8_t, uint8_t, x == y)
BIN_RUN(ne_bool, uint8_t, uint8_t, x != y)
BIN_RUN(lt_bool, uint8_t, uint8_t, x < y)
BIN_RUN(le_bool, uint8_t, uint8_t, x <= y)
BIN_RUN(gt_bool, uint8_t, uint8_t, x > y)
BIN_RUN(ge_bool, uint8_t, uint8_t, x >= y)

typedef int (*kernel)(void *ctx, char *const *p, const int64_t *st, int64_t n);

#define INT_ROW(T)                                                                           \
  {                                                                                          \
    add_##T, sub_##T, mul_##T, NULL, floordiv_##T, rem_##T, pow_##T, eq_##T, ne_##T, lt_##T, \
        le_##T, gt_##T, ge_##T, NULL, NULL, max_##T, min_##T                                 \
  }
#define FLOAT_ROW(T)                                                                            \
  {                                                                                             \
    add_##T, sub_##T, mul_##T, div_##T, floordiv_##T, rem_##T, pow_##T, eq_##T, ne_##T, lt_##T, \
        le_##T, gt_##T, ge_##T, NULL, NULL, max_##T, min_##T                                    \
  }
#define CPX_ROW(T)                                                                                \
  {                                                                                               \
    add_##T, sub_##T, mul_##T, div_##T, NULL, NULL, NULL, eq_##T, ne_##T, NULL, NULL, NULL, NULL, \
        NULL, NULL, NULL, NULL                                                                    \
  }

/* binops[dtype][op], in LT_DTYPES order; NULL: not defined for that dtype. */
static const kernel binops[LT_NDTYPES][LT_NBINOPS] = {
    {or_bool, NULL, and_bool, NULL, NULL, NULL, NULL, eq_bool, ne_bool, lt_bool, le_bool, gt_bool,
     ge_bool, and_bool, or_bool, or_bool, and_bool},
    INT_ROW(uint8_t),
    INT_ROW(int8_t),
    INT_ROW(int16_t),
    INT_ROW(int32_t),
    INT_ROW(int64_t),
    INT_ROW(uint16_t),
    INT_ROW(uint32_t),
    INT_ROW(uint64_t),
    {NULL},
    {NULL}, /* float16, bfloat16: computed in float32 */
    FLOAT_ROW(float),
    FLOAT_ROW(double),
    CPX_ROW(lt_c64),
    CPX_ROW(lt_c128),
};

/* Unary runs: o = EXPR(x). */
#define UN_RUN(NAME, T, OT, EXPR)                                            \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                               \
    char *o = p[0];                                                          \
    const char *a = p[1];                                                    \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T)) {       \
      OT *oo = (OT *)(void *)o;                                              \
      const T *aa = (const T *)(const void *)a;                              \
      int64_t i = 0;                                                         \
      for (; i + LT_BLOCK <= n; i += LT_BLOCK) {                             \
        LT_IVDEP for (int j = 0; j < LT_BLOCK; j++) {                        \
          T x = aa[i + j];                                                   \
          oo[i + j] = (EXPR);                                                \
        }                                                                    \
      }                                                                      \
      for (; i < n; i++) {                                                   \
        T x = aa[i];                                                         \
        oo[i] = (EXPR);                                                      \
      }                                                                      \
    } else {                                                                 \
      for (int64_t i = 0; i < n; i++) {                                      \
        T x = *(const T *)(const void *)(a + i * st[1]);                     \
        *(OT *)(void *)(o + i * st[0]) = (EXPR);                             \
      }                                                                      \
    }                                                                        \
    return 0;                                                                \
  }

#define SINT_UNOPS(T)                                 \
  UN_RUN(neg_##T, T, T, (T)(0 - (W(T))x))             \
  UN_RUN(abs_##T, T, T, x < 0 ? (T)(0 - (W(T))x) : x) \
  UN_RUN(same_##T, T, T, x)                           \
  UN_RUN(sign_##T, T, T, (T)((x > 0) - (x < 0)))
#define UINT_UNOPS(T)                     \
  UN_RUN(neg_##T, T, T, (T)(0 - (W(T))x)) \
  UN_RUN(abs_##T, T, T, x)                \
  UN_RUN(same_##T, T, T, x)               \
  UN_RUN(sign_##T, T, T, (T)(x > 0))

UINT_UNOPS(uint8_t)
SINT_UNOPS(int8_t)
SINT_UNOPS(int16_t)
SINT_UNOPS(int32_t)
SINT_UNOPS(int64_t)
UINT_UNOPS(uint16_t)
UINT_UNOPS(uint32_t)
UINT_UNOPS(uint64_t)

#define FLOAT_UNOPS(T, F)                  \
  UN_RUN(neg_##T, T, T, -x)                \
  UN_RUN(abs_##T, T, T, fabs##F(x))        \
  UN_RUN(sqrt_##T, T, T, sqrt##F(x))       \
  UN_RUN(exp_##T, T, T, exp##F(x))         \
  UN_RUN(log_##T, T, T, log##F(x))         \
  UN_RUN(sin_##T, T, T, sin##F(x))         \
  UN_RUN(cos_##T, T, T, cos##F(x))         \
  UN_RUN(tanh_##T, T, T, tanh##F(x))       \
  UN_RUN(floor_##T, T, T, floor##F(x))     \
  UN_RUN(ceil_##T, T, T, ceil##F(x))       \
  UN_RUN(round_##T, T, T, nearbyint##F(x)) \
  UN_RUN(sign_##T, T, T, x > 0 ? (T)1 : x < 0 ? (T)-1 : x)

FLOAT_UNOPS(float, f)
FLOAT_UNOPS(double, )

UN_RUN(neg_lt_c64, lt_c64, lt_c64, ((lt_c64){-x.re, -x.im}))
UN_RUN(neg_lt_c128, lt_c128, lt_c128, ((lt_c128){-x.re, -x.im}))
UN_RUN(abs_lt_c64, lt_c64, float, hypotf(x.re, x.im))
UN_RUN(abs_lt_c128, lt_c128, double, hypot(x.re, x.im))
UN_RUN(not_bool, uint8_t, uint8_t, (uint8_t)!x)
UN_RUN(same_bool, uint8_t, uint8_t, x)

#define INT_UROW(T)                                                                               \
  {                                                                                               \
    neg_##T, abs_##T, NULL, NULL, NULL, NULL, NULL, NULL, same_##T, same_##T, same_##T, sign_##T, \
        NULL                                                                                      \
  }
#define FLOAT_UROW(T)                                                                              \
  {                                                                                                \
    neg_##T, abs_##T, sqrt_##T, exp_##T, log_##T, sin_##T, cos_##T, tanh_##T, floor_##T, ceil_##T, \
        round_##T, sign_##T, NULL                                                                  \
  }

static const kernel unops[LT_NDTYPES][LT_NUNOPS] = {
    {NULL, same_bool, NULL, NULL, NULL, NULL, NULL, NULL, same_bool, same_bool, same_bool,
     same_bool, not_bool},
    INT_UROW(uint8_t),
    INT_UROW(int8_t),
    INT_UROW(int16_t),
    INT_UROW(int32_t),
    INT_UROW(int64_t),
    INT_UROW(uint16_t),
    INT_UROW(uint32_t),
    INT_UROW(uint64_t),
    {NULL},
    {NULL},
    FLOAT_UROW(float),
    FLOAT_UROW(double),
    {neg_lt_c64, abs_lt_c64, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {neg_lt_c128, abs_lt_c128, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

/* }====== */

/* {====== running elementwise operations ====== */

/* Byte ranges of two tensors may overlap (and they are not the very same view). */
static int partial_overlap(const lt_tensor *x, const lt_tensor *y) {
  if (x->storage->block != y->storage->block) return 0;
  if (x->offset == y->offset && x->ndim == y->ndim && x->dtype == y->dtype &&
      memcmp(x->shape, y->shape, (size_t)x->ndim * sizeof(int64_t)) == 0 &&
      memcmp(x->strides, y->strides, (size_t)x->ndim * sizeof(int64_t)) == 0)
    return 0; /* elementwise in place: each element reads itself */
  return 1;
}

/*
 * Runs kernel k over out (computation dtype oc) and inputs in[0..nin) (already in their
 * computation dtypes), broadcast to shape. The result lands in *res: `inplace` when given (cast
 * from oc if needed), else a new tensor of dtype rt.
 */
static int run_elementwise(kernel k, int nin, const lt_tensor *const *in, int ndim,
                           const int64_t *shape, lt_dtype oc, lt_dtype rt, lt_tensor *inplace,
                           lt_tensor **res, const char *what, const char *kernel_fail,
                           lt_error *err) {
  lt_tensor *dst = NULL, *tmp = NULL, *views[LT_ITER_MAXOPS] = {NULL};
  lt_tensor *aside[LT_ITER_MAXOPS] = {NULL};
  int rc = LT_OK;
  if (inplace) {
    if ((rc = lt_prepare_write(inplace, err))) return rc;
    if (inplace->ndim != ndim || memcmp(inplace->shape, shape, (size_t)ndim * sizeof(int64_t))) {
      char have[128], want[128];
      lt_shape_str(inplace->ndim, inplace->shape, have, sizeof have);
      lt_shape_str(ndim, shape, want, sizeof want);
      return lt_fail(err, LT_EARG, "%s: output with shape %s doesn't match the broadcast shape %s",
                     what, have, want);
    }
    for (int i = 0; i < inplace->ndim; i++)
      if (inplace->strides[i] == 0 && inplace->shape[i] > 1)
        return lt_fail(err, LT_EARG, "%s: in-place on an expanded tensor (stride 0)", what);
  }
  if (inplace && inplace->dtype == oc) {
    dst = inplace;
  } else {
    rc = lt_tensor_new(oc, ndim, shape, 0, &tmp, err);
    if (rc) return rc;
    dst = tmp;
  }
  lt_tensor *ops[LT_ITER_MAXOPS];
  char *base[LT_ITER_MAXOPS];
  ops[0] = dst;
  base[0] = lt_data(dst);
  for (int i = 0; i < nin && rc == LT_OK; i++) {
    const lt_tensor *src = in[i];
    if (dst == inplace && partial_overlap(dst, src)) {
      rc = lt_clone(src, &aside[i], err);
      src = aside[i];
    }
    if (rc == LT_OK) rc = lt_broadcast_to(src, ndim, shape, &views[i], err);
    if (rc == LT_OK) {
      ops[i + 1] = views[i];
      base[i + 1] = lt_data(views[i]);
    }
  }
  if (rc == LT_OK && lt_numel(dst) > 0) {
    lt_iter it;
    lt_iter_init(&it, nin + 1, ops);
    if (lt_iter_run(&it, base, k, NULL)) rc = lt_fail(err, LT_EARG, "%s: %s", what, kernel_fail);
  }
  for (int i = 0; i < nin; i++) {
    lt_tensor_free(views[i]);
    lt_tensor_free(aside[i]);
  }
  if (rc) {
    lt_tensor_free(tmp);
    return rc;
  }
  if (inplace) {
    if (dst != inplace) {
      rc = lt_copy(inplace, dst, err);
      lt_tensor_free(tmp);
    }
    *res = inplace;
    return rc;
  }
  if (oc != rt) {
    rc = lt_cast(dst, rt, res, err);
    lt_tensor_free(tmp);
    return rc;
  }
  *res = dst;
  return LT_OK;
}

/* May the result dtype r be written into a tensor of dtype d in place (torch's can_cast)? */
static int can_cast(lt_dtype r, lt_dtype d) { return category(r) <= category(d); }

int lt_binary(lt_binop op, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
              lt_tensor **out, lt_error *err) {
  const char *name = lt_binop_names[op];
  lt_dtype rt;
  int rc = lt_binary_type(op, a, b, &rt, err);
  if (rc) return rc;
  const lt_operand *ops[2] = {a, b};
  lt_dtype promoted = result_type(2, ops);
  lt_dtype ct = is_logical(op) ? LT_BOOL : compute_type(is_compare(op) ? promoted : rt);
  kernel k = binops[ct][op];
  if (!k) {
    if (ct == LT_BOOL && op == LT_SUB)
      return lt_fail(err, LT_EARG,
                     "sub: subtracting bool tensors is not supported; use logical_xor or ~");
    return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[ct].name);
  }
  if (inplace && !can_cast(rt, inplace->dtype))
    return lt_fail(err, LT_EARG, "%s_: result type %s can't be cast to the tensor's dtype %s", name,
                   lt_dtypes[rt].name, lt_dtypes[inplace->dtype].name);
  const lt_tensor *ta, *tb;
  lt_tensor *oa = NULL, *ob = NULL;
  if ((rc = operand_as(a, ct, &ta, &oa, err)) || (rc = operand_as(b, ct, &tb, &ob, err))) {
    lt_tensor_free(oa);
    return rc;
  }
  const lt_tensor *in[2] = {ta, tb};
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  rc = broadcast_shape(2, in, &ndim, shape, name, err);
  lt_dtype oc = is_compare(op) || is_logical(op) ? LT_BOOL : ct;
  if (rc == LT_OK)
    rc = run_elementwise(k, 2, in, ndim, shape, oc, rt, inplace, out, name,
                         op == LT_POW ? "integers to negative integer powers are not allowed"
                                      : "integer division by zero",
                         err);
  lt_tensor_free(oa);
  lt_tensor_free(ob);
  return rc;
}

int lt_unary(lt_unop op, const lt_tensor *a, lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  const char *name = lt_unop_names[op];
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  lt_dtype rt = a->dtype;
  int floating = op >= LT_SQRT && op <= LT_TANH;
  if (op == LT_NOT)
    rt = LT_BOOL;
  else if (floating && category(rt) <= CAT_INT)
    rt = LT_FLOAT32;
  else if (op == LT_ABS && rt == LT_COMPLEX64)
    rt = LT_FLOAT32;
  else if (op == LT_ABS && rt == LT_COMPLEX128)
    rt = LT_FLOAT64;
  if (op == LT_NEG && a->dtype == LT_BOOL)
    return lt_fail(err, LT_EARG, "neg: negating a bool tensor is not supported; use logical_not");
  lt_dtype ct = op == LT_NOT ? LT_BOOL : compute_type(floating ? rt : a->dtype);
  kernel k = unops[ct][op];
  if (!k) return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[ct].name);
  if (inplace && !can_cast(rt, inplace->dtype))
    return lt_fail(err, LT_EARG, "%s_: result type %s can't be cast to the tensor's dtype %s", name,
                   lt_dtypes[rt].name, lt_dtypes[inplace->dtype].name);
  lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0};
  const lt_tensor *ta;
  lt_tensor *owned;
  if ((rc = operand_as(&oa, ct, &ta, &owned, err))) return rc;
  lt_dtype oc = op == LT_ABS && lt_dtypes[ct].is_complex
                    ? (ct == LT_COMPLEX64 ? LT_FLOAT32 : LT_FLOAT64)
                    : ct;
  rc = run_elementwise(k, 1, &ta, a->ndim, a->shape, oc, rt, inplace, out, name, "failed", err);
  lt_tensor_free(owned);
  return rc;
}

int lt_clamp(const lt_tensor *a, const lt_operand *lo, const lt_operand *hi, lt_tensor *inplace,
             lt_tensor **out, lt_error *err) {
  if (!lo && !hi) return lt_fail(err, LT_EARG, "clamp: at least one of min and max is needed");
  lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *step = NULL;
  int rc = LT_OK;
  const lt_operand *cur = &oa;
  lt_operand tmp;
  if (lo) {
    rc = lt_binary(LT_MAXIMUM, cur, lo, hi ? NULL : inplace, &step, err);
    if (rc) return rc;
    tmp = (lt_operand){step, {LT_SK_INT, {0}, 0}, 0};
    cur = &tmp;
  }
  if (hi) {
    lt_tensor *r;
    rc = lt_binary(LT_MINIMUM, cur, hi, inplace, &r, err);
    if (step && step != inplace) lt_tensor_free(step);
    if (rc) return rc;
    *out = r;
    return LT_OK;
  }
  *out = step;
  return LT_OK;
}

/* where: out = cond ? a : b, in the promoted dtype of a and b. */
#define WHERE_RUN(T)                                                              \
  static int where_##T(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                                    \
    for (int64_t i = 0; i < n; i++) {                                             \
      const T *src = *(const uint8_t *)(p[1] + i * st[1])                         \
                         ? (const T *)(const void *)(p[2] + i * st[2])            \
                         : (const T *)(const void *)(p[3] + i * st[3]);           \
      memcpy(p[0] + i * st[0], src, sizeof(T));                                   \
    }                                                                             \
    return 0;                                                                     \
  }
WHERE_RUN(uint8_t)
WHERE_RUN(uint16_t)
WHERE_RUN(uint32_t)
WHERE_RUN(uint64_t)
WHERE_RUN(lt_c128)

int lt_where(const lt_tensor *cond, const lt_operand *a, const lt_operand *b, lt_tensor **out,
             lt_error *err) {
  const lt_operand *ops[2] = {a, b};
  lt_dtype rt = result_type(2, ops);
  lt_operand oc = {cond, {LT_SK_INT, {0}, 0}, 0};
  const lt_tensor *tc, *ta, *tb;
  lt_tensor *c1 = NULL, *a1 = NULL, *b1 = NULL;
  int rc;
  if ((rc = operand_as(&oc, LT_BOOL, &tc, &c1, err)) || (rc = operand_as(a, rt, &ta, &a1, err)) ||
      (rc = operand_as(b, rt, &tb, &b1, err))) {
    lt_tensor_free(c1);
    lt_tensor_free(a1);
    return rc;
  }
  const lt_tensor *in[3] = {tc, ta, tb};
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  rc = broadcast_shape(3, in, &ndim, shape, "where", err);
  if (rc == LT_OK) {
    kernel k;
    switch (lt_dtypes[rt].size) {
      case 1: k = where_uint8_t; break;
      case 2: k = where_uint16_t; break;
      case 4: k = where_uint32_t; break;
      case 8: k = where_uint64_t; break;
      default: k = where_lt_c128; break;
    }
    rc = run_elementwise(k, 3, in, ndim, shape, rt, rt, NULL, out, "where", "failed", err);
  }
  lt_tensor_free(c1);
  lt_tensor_free(a1);
  lt_tensor_free(b1);
  return rc;
}

/* }====== */
