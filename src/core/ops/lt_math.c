/*
 * lt_math.c -- elementwise operations, clamp, where and masked_fill (see lt_math.h).
 *
 * Every operation runs in a computation dtype (lt_promote.h): the result dtype, except that
 * float16 and bfloat16 compute in float32 (and round once into the result), comparisons compute
 * in the promoted input dtype, and true division of integers computes in float32. Inputs of
 * another dtype are first cast (lt_cast); then one kernel per (operation, computation dtype),
 * generated from one macro per operation over the dtypes of a category (LT_DTYPES_BY_CATEGORY),
 * runs over each inner run of lt_iter, with a contiguous path the compiler vectorizes (blocks
 * of LT_BLOCK elements, see lt_iter.h). Large operations run on the pool's threads
 * (lt_iter_run_par): the kernels take no state but their operands.
 */
#include "lt_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_elementwise.h"
#include "lt_iter.h"
#include "lt_vmath.h"

const char *const lt_binop_names[] = {[LT_ADD] = "add",
                                      [LT_SUB] = "sub",
                                      [LT_MUL] = "mul",
                                      [LT_DIV] = "div",
                                      [LT_FLOORDIV] = "floor_divide",
                                      [LT_REM] = "remainder",
                                      [LT_POW] = "pow",
                                      [LT_EQ] = "eq",
                                      [LT_NE] = "ne",
                                      [LT_LT] = "lt",
                                      [LT_LE] = "le",
                                      [LT_GT] = "gt",
                                      [LT_GE] = "ge",
                                      [LT_AND] = "logical_and",
                                      [LT_OR] = "logical_or",
                                      [LT_MAXIMUM] = "maximum",
                                      [LT_MINIMUM] = "minimum",
                                      [LT_BAND] = "bitwise_and",
                                      [LT_BOR] = "bitwise_or",
                                      [LT_BXOR] = "bitwise_xor",
                                      [LT_SHL] = "bitwise_left_shift",
                                      [LT_SHR] = "bitwise_right_shift"};
_Static_assert(sizeof lt_binop_names / sizeof lt_binop_names[0] == LT_NBINOPS,
               "a name for every binary operation");
const char *const lt_unop_names[] = {
    [LT_NEG] = "neg",         [LT_ABS] = "abs",         [LT_SQRT] = "sqrt",   [LT_EXP] = "exp",
    [LT_LOG] = "log",         [LT_SIN] = "sin",         [LT_COS] = "cos",     [LT_TANH] = "tanh",
    [LT_FLOOR] = "floor",     [LT_CEIL] = "ceil",       [LT_ROUND] = "round", [LT_SIGN] = "sign",
    [LT_NOT] = "logical_not", [LT_BNOT] = "bitwise_not"};
_Static_assert(sizeof lt_unop_names / sizeof lt_unop_names[0] == LT_NUNOPS,
               "a name for every unary operation");

/* {====== operands ====== */

/* An operand in dtype dt: the tensor itself (*owned NULL) or a converted copy (*owned set). A
   scalar becomes a 0-d tensor. */
int lt_operand_as(const lt_operand *o, lt_dtype dt, const lt_tensor **t, lt_tensor **owned,
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
  union {
    lt_c128 c;
    unsigned char b[16];
  } elem;
  /* torch refuses to wrap an integer scalar, but computes with a float one beyond the dtype's
     range (giving inf) */
  int (*store)(lt_dtype, void *, const lt_scalar *) =
      lt_dtypes[dt].is_float || lt_dtypes[dt].is_complex ? lt_store_wrap : lt_store;
  if (store(dt, &elem, &o->s) != LT_STORE_OK) {
    char str[64];
    lt_scalar_str(&o->s, str, sizeof str);
    return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, lt_dtypes[dt].name);
  }
  int rc = lt_tensor_new(dt, 0, NULL, 0, owned, err);
  if (rc) return rc;
  memcpy(lt_data(*owned), &elem, lt_dtypes[dt].size);
  *t = *owned;
  return LT_OK;
}

static int operand_as(const lt_operand *o, lt_dtype dt, const lt_tensor **t, lt_tensor **owned,
                      lt_error *err) {
  return lt_operand_as(o, dt, t, owned, err);
}

/* }====== */

/* {====== elementwise kernels ====== */

/* The unsigned type integers of b bits compute in (wraps without undefined behaviour). */
#define WIDE_8 uint32_t
#define WIDE_16 uint32_t
#define WIDE_32 uint32_t
#define WIDE_64 uint64_t
/* The part type of a complex dtype of b bits, and the suffix of the libm functions of a float
   dtype of b bits. */
#define PART_64 float
#define PART_128 double
#define PART_LIBM_64 f
#define PART_LIBM_128
#define LIBM_32 f
#define LIBM_64

/* One inner run of a binary operation: o = EXPR(x, y); EXPR may set `bad`. */
#define BIN_RUN(NAME, T, OT, EXPR)                                                          \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {                \
    (void)ctx;                                                                              \
    int bad = 0;                                                                            \
    char *o = p[0];                                                                         \
    const char *a = p[1], *b = p[2];                                                        \
    OT *oo = (OT *)(void *)o;                                                               \
    const T *aa = (const T *)(const void *)a, *bb = (const T *)(const void *)b;             \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T) &&                      \
        st[2] == (int64_t)sizeof(T)) {                                                      \
      BLOCKED(n, T x = aa[k]; T y = bb[k]; oo[k] = (EXPR));                                 \
    } else if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T) && st[2] == 0) { \
      const T y = *bb;                                                                      \
      BLOCKED(n, T x = aa[k]; oo[k] = (EXPR));                                              \
    } else {                                                                                \
      for (int64_t i = 0; i < n; i++) {                                                     \
        T x = *(const T *)(const void *)(a + i * st[1]);                                    \
        T y = *(const T *)(const void *)(b + i * st[2]);                                    \
        *(OT *)(void *)(o + i * st[0]) = (EXPR);                                            \
      }                                                                                     \
    }                                                                                       \
    return bad;                                                                             \
  }

/* Integer floor division and remainder with the sign of the divisor (Python's, torch's); U is
   the unsigned type T computes in. */
#define IDIV_S(T, U, x, y)       \
  ((y) == 0    ? (bad = 1, (T)0) \
   : (y) == -1 ? (T)(0 - (U)(x)) \
               : (T)((x) / (y) - (((x) % (y) != 0) && (((x) < 0) != ((y) < 0)))))
#define IREM_S(T, U, x, y)    \
  ((y) == 0 ? (bad = 1, (T)0) \
   : (y) == -1                \
       ? (T)0                 \
       : (T)((x) % (y) + ((((x) % (y)) != 0 && (((x) % (y) < 0) != ((y) < 0))) ? (y) : 0)))
#define IDIV_U(T, U, x, y) ((y) == 0 ? (bad = 1, (T)0) : (T)((x) / (y)))
#define IREM_U(T, U, x, y) ((y) == 0 ? (bad = 1, (T)0) : (T)((x) % (y)))

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

/* Binary kernels per category, named op_<DTYPE>: BINOPS_<category>(ENUM, ctype, bits). */
#define CMP_BINOPS(E, T)              \
  BIN_RUN(eq_##E, T, uint8_t, x == y) \
  BIN_RUN(ne_##E, T, uint8_t, x != y) \
  BIN_RUN(lt_##E, T, uint8_t, x < y)  \
  BIN_RUN(le_##E, T, uint8_t, x <= y) \
  BIN_RUN(gt_##E, T, uint8_t, x > y)  \
  BIN_RUN(ge_##E, T, uint8_t, x >= y)
#define INT_BINOPS(E, T, U)                \
  BIN_RUN(add_##E, T, T, (T)((U)x + (U)y)) \
  BIN_RUN(sub_##E, T, T, (T)((U)x - (U)y)) \
  BIN_RUN(mul_##E, T, T, (T)((U)x * (U)y)) \
  CMP_BINOPS(E, T)                         \
  BIN_RUN(max_##E, T, T, x > y ? x : y)    \
  BIN_RUN(min_##E, T, T, x < y ? x : y)
#define SINT_BINOPS(E, T, U)                      \
  INT_BINOPS(E, T, U)                             \
  BIN_RUN(floordiv_##E, T, T, IDIV_S(T, U, x, y)) \
  BIN_RUN(rem_##E, T, T, IREM_S(T, U, x, y))      \
  BIN_RUN(pow_##E, T, T, y < 0 ? (bad = 1, (T)0) : (T)ipow((uint64_t)x, (uint64_t)y))
#define UINT_BINOPS(E, T, U)                      \
  INT_BINOPS(E, T, U)                             \
  BIN_RUN(floordiv_##E, T, T, IDIV_U(T, U, x, y)) \
  BIN_RUN(rem_##E, T, T, IREM_U(T, U, x, y))      \
  BIN_RUN(pow_##E, T, T, (T)ipow((uint64_t)x, (uint64_t)y))
#define FLOAT_BINOPS(E, T)                          \
  BIN_RUN(add_##E, T, T, x + y)                     \
  BIN_RUN(sub_##E, T, T, x - y)                     \
  BIN_RUN(mul_##E, T, T, x *y)                      \
  BIN_RUN(div_##E, T, T, x / y)                     \
  BIN_RUN(floordiv_##E, T, T, (T)fl_floordiv(x, y)) \
  BIN_RUN(pow_##E, T, T, (T)pow(x, y))              \
  CMP_BINOPS(E, T)                                  \
  BIN_RUN(max_##E, T, T, (x != x || x > y) ? x : y) \
  BIN_RUN(min_##E, T, T, (x != x || x < y) ? x : y)
/* Complex: the four operations and (in)equality. */
#define CPX_DIV(T, R, x, y)                                                            \
  ((T){(R)(((x).re * (y).re + (x).im * (y).im) / ((y).re * (y).re + (y).im * (y).im)), \
       (R)(((x).im * (y).re - (x).re * (y).im) / ((y).re * (y).re + (y).im * (y).im))})
#define CPX_BINOPS(E, T, R)                                                           \
  BIN_RUN(add_##E, T, T, ((T){x.re + y.re, x.im + y.im}))                             \
  BIN_RUN(sub_##E, T, T, ((T){x.re - y.re, x.im - y.im}))                             \
  BIN_RUN(mul_##E, T, T, ((T){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re})) \
  BIN_RUN(div_##E, T, T, CPX_DIV(T, R, x, y))                                         \
  BIN_RUN(eq_##E, T, uint8_t, x.re == y.re && x.im == y.im)                           \
  BIN_RUN(ne_##E, T, uint8_t, x.re != y.re || x.im != y.im)
/* bool: + is or, * is and (as torch), logical ops, (in)equality, max/min; the bitwise and, or
   and xor are the logical ones. */
#define BOOL_BINOPS(E, T)                           \
  BIN_RUN(or_##E, T, uint8_t, (uint8_t)(x || y))    \
  BIN_RUN(and_##E, T, uint8_t, (uint8_t)(x && y))   \
  BIN_RUN(xor_##E, T, uint8_t, (uint8_t)(!x != !y)) \
  CMP_BINOPS(E, T)

/* Bitwise and, or, xor and the shifts of integers of b bits, as torch 2.x defines them for every
   amount: a left shift by a negative amount or by b or more gives 0, a right shift so gives the
   sign (0 or -1). A right shift of a negative x is ~(~x >> y): arithmetic without relying on C's
   implementation-defined >> of negatives. */
#define BIT_BINOPS(E, T)              \
  BIN_RUN(band_##E, T, T, (T)(x & y)) \
  BIN_RUN(bor_##E, T, T, (T)(x | y))  \
  BIN_RUN(bxor_##E, T, T, (T)(x ^ y))
#define SINT_BITOPS(E, T, U, b)                                       \
  BIT_BINOPS(E, T)                                                    \
  BIN_RUN(shl_##E, T, T, (y < 0 || y >= (b)) ? (T)0 : (T)((U)x << y)) \
  BIN_RUN(shr_##E, T, T,                                              \
          (y < 0 || y >= (b)) ? (T)(x < 0 ? -1 : 0) : (T)(x < 0 ? ~(~x >> y) : x >> y))
#define UINT_BITOPS(E, T, U, b)                            \
  BIT_BINOPS(E, T)                                         \
  BIN_RUN(shl_##E, T, T, y >= (b) ? (T)0 : (T)((U)x << y)) \
  BIN_RUN(shr_##E, T, T, y >= (b) ? (T)0 : (T)(x >> y))

#define BINOPS_BOOL(E, T, b) BOOL_BINOPS(E, T)
#define BINOPS_SINT(E, T, b) SINT_BINOPS(E, T, WIDE_##b) SINT_BITOPS(E, T, WIDE_##b, b)
#define BINOPS_UINT(E, T, b) UINT_BINOPS(E, T, WIDE_##b) UINT_BITOPS(E, T, WIDE_##b, b)
#define BINOPS_FLT(E, T, b) FLOAT_BINOPS(E, T)
#define BINOPS_F16(E, T, b) /* float16, bfloat16: computed in float32 */
#define BINOPS_BF16(E, T, b)
#define BINOPS_CPX(E, T, b) CPX_BINOPS(E, T, PART_##b)
LT_DTYPES_BY_CATEGORY(BINOPS)
/* remainder: float32's through lt_vmath.h (exact fmod, the same result), float64's fl_rem */
LT_VRUN2(rem_FLOAT32, lt_vmath_remainder_f32)
BIN_RUN(rem_FLOAT64, double, double, fl_rem(x, y))

typedef int (*kernel)(void *ctx, char *const *p, const int64_t *st, int64_t n);

/* binops[dtype][op]; NULL: not defined for that dtype. */
#define CMP_ENTRIES(E)                                                                      \
  [LT_EQ] = eq_##E, [LT_NE] = ne_##E, [LT_LT] = lt_##E, [LT_LE] = le_##E, [LT_GT] = gt_##E, \
  [LT_GE] = ge_##E
#define ARITH_ENTRIES(E)                                                                    \
  [LT_ADD] = add_##E, [LT_SUB] = sub_##E, [LT_MUL] = mul_##E, [LT_FLOORDIV] = floordiv_##E, \
  [LT_REM] = rem_##E, [LT_POW] = pow_##E, [LT_MAXIMUM] = max_##E, [LT_MINIMUM] = min_##E,   \
  CMP_ENTRIES(E)
#define BIT_ENTRIES(E)                                                                \
  [LT_BAND] = band_##E, [LT_BOR] = bor_##E, [LT_BXOR] = bxor_##E, [LT_SHL] = shl_##E, \
  [LT_SHR] = shr_##E
#define BINROW_BOOL(E, T, b)                                                     \
  [LT_##E] = {[LT_ADD] = or_##E,  [LT_MUL] = and_##E,    [LT_AND] = and_##E,     \
              [LT_OR] = or_##E,   [LT_MAXIMUM] = or_##E, [LT_MINIMUM] = and_##E, \
              CMP_ENTRIES(E),     [LT_BAND] = and_##E,   [LT_BOR] = or_##E,      \
              [LT_BXOR] = xor_##E},
#define BINROW_SINT(E, T, b) [LT_##E] = {ARITH_ENTRIES(E), BIT_ENTRIES(E)},
#define BINROW_UINT(E, T, b) [LT_##E] = {ARITH_ENTRIES(E), BIT_ENTRIES(E)},
#define BINROW_FLT(E, T, b) [LT_##E] = {ARITH_ENTRIES(E), [LT_DIV] = div_##E},
#define BINROW_F16(E, T, b)
#define BINROW_BF16(E, T, b)
#define BINROW_CPX(E, T, b)                                               \
  [LT_##E] = {[LT_ADD] = add_##E, [LT_SUB] = sub_##E, [LT_MUL] = mul_##E, \
              [LT_DIV] = div_##E, [LT_EQ] = eq_##E,   [LT_NE] = ne_##E},
static const kernel binops[LT_NDTYPES][LT_NBINOPS] = {LT_DTYPES_BY_CATEGORY(BINROW)};

/* Unary runs: o = EXPR(x). */
/* Unary runs are cloned for AVX2 (an ifunc picks one at load, as lt_vmath.c's): floor, ceil,
   round and abs then vectorize (x86-64's baseline SSE2 has no vector rounding). Not under
   ThreadSanitizer, whose runtime starts after the resolvers run. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define LT_UCLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define LT_UCLONES
#endif

#define UN_RUN(NAME, T, OT, EXPR)                                                       \
  LT_UCLONES static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                                          \
    char *o = p[0];                                                                     \
    const char *a = p[1];                                                               \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T)) {                  \
      OT *oo = (OT *)(void *)o;                                                         \
      const T *aa = (const T *)(const void *)a;                                         \
      BLOCKED(n, T x = aa[k]; oo[k] = (EXPR));                                          \
    } else {                                                                            \
      for (int64_t i = 0; i < n; i++) {                                                 \
        T x = *(const T *)(const void *)(a + i * st[1]);                                \
        *(OT *)(void *)(o + i * st[0]) = (EXPR);                                        \
      }                                                                                 \
    }                                                                                   \
    return 0;                                                                           \
  }

#define SINT_UNOPS(E, T, U)                        \
  UN_RUN(neg_##E, T, T, (T)(0 - (U)x))             \
  UN_RUN(abs_##E, T, T, x < 0 ? (T)(0 - (U)x) : x) \
  UN_RUN(same_##E, T, T, x)                        \
  UN_RUN(bnot_##E, T, T, (T)~x)                    \
  UN_RUN(sign_##E, T, T, (T)((x > 0) - (x < 0)))
#define UINT_UNOPS(E, T, U)            \
  UN_RUN(neg_##E, T, T, (T)(0 - (U)x)) \
  UN_RUN(abs_##E, T, T, x)             \
  UN_RUN(same_##E, T, T, x)            \
  UN_RUN(bnot_##E, T, T, (T)~x)        \
  UN_RUN(sign_##E, T, T, (T)(x > 0))
/* A unary run whose contiguous runs go to a kernel of lt_vmath.h (VFN(out, in, n)); strided
   runs compute EXPR per element. VRUN_<bits>: float32 has such kernels for all six functions,
   float64 for exp, log and sqrt. */
#define UN_VRUN(NAME, T, EXPR, VFN)                                          \
  UN_RUN(NAME##_strided, T, T, EXPR)                                         \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    if (st[0] != (int64_t)sizeof(T) || st[1] != (int64_t)sizeof(T))          \
      return NAME##_strided(ctx, p, st, n);                                  \
    VFN((T *)(void *)p[0], (const T *)(const void *)p[1], n);                \
    return 0;                                                                \
  }
#define VRUN_32(NAME, T, EXPR, FN) UN_VRUN(NAME, T, EXPR, lt_vmath_##FN##_f32)
#define VRUN_64(NAME, T, EXPR, FN) VRUN64_##FN(NAME, T, EXPR)
#define VRUN64_exp(NAME, T, EXPR) UN_VRUN(NAME, T, EXPR, lt_vmath_exp_f64)
#define VRUN64_log(NAME, T, EXPR) UN_VRUN(NAME, T, EXPR, lt_vmath_log_f64)
#define VRUN64_sqrt(NAME, T, EXPR) UN_VRUN(NAME, T, EXPR, lt_vmath_sqrt_f64)
#define VRUN64_sin(NAME, T, EXPR) UN_RUN(NAME, T, T, EXPR)
#define VRUN64_cos(NAME, T, EXPR) UN_RUN(NAME, T, T, EXPR)
#define VRUN64_tanh(NAME, T, EXPR) UN_RUN(NAME, T, T, EXPR)
#define FLOAT_UNOPS(E, T, F, V)            \
  UN_RUN(neg_##E, T, T, -x)                \
  UN_RUN(abs_##E, T, T, fabs##F(x))        \
  V(sqrt_##E, T, sqrt##F(x), sqrt)         \
  V(exp_##E, T, exp##F(x), exp)            \
  V(log_##E, T, log##F(x), log)            \
  V(sin_##E, T, sin##F(x), sin)            \
  V(cos_##E, T, cos##F(x), cos)            \
  V(tanh_##E, T, tanh##F(x), tanh)         \
  UN_RUN(floor_##E, T, T, floor##F(x))     \
  UN_RUN(ceil_##E, T, T, ceil##F(x))       \
  UN_RUN(round_##E, T, T, nearbyint##F(x)) \
  UN_RUN(sign_##E, T, T, x > 0 ? (T)1 : x < 0 ? (T)-1 : x)
#define FLOAT_UNOPS_(E, T, F, V) FLOAT_UNOPS(E, T, F, V) /* F expanded before it is pasted */
#define CPX_UNOPS(E, T, R, F)                \
  UN_RUN(neg_##E, T, T, ((T){-x.re, -x.im})) \
  UN_RUN(abs_##E, T, R, hypot##F(x.re, x.im))
#define CPX_UNOPS_(E, T, R, F) CPX_UNOPS(E, T, R, F)

#define UNOPS_BOOL(E, T, b)          \
  UN_RUN(not_##E, T, T, (uint8_t)!x) \
  UN_RUN(same_##E, T, T, x)
#define UNOPS_SINT(E, T, b) SINT_UNOPS(E, T, WIDE_##b)
#define UNOPS_UINT(E, T, b) UINT_UNOPS(E, T, WIDE_##b)
#define UNOPS_FLT(E, T, b) FLOAT_UNOPS_(E, T, LIBM_##b, VRUN_##b)
#define UNOPS_F16(E, T, b)
#define UNOPS_BF16(E, T, b)
#define UNOPS_CPX(E, T, b) CPX_UNOPS_(E, T, PART_##b, PART_LIBM_##b)
LT_DTYPES_BY_CATEGORY(UNOPS)

/* unops[dtype][op]; NULL: not defined for that dtype. floor, ceil and round keep integers. */
#define ROUNDING_ENTRIES(E) [LT_FLOOR] = same_##E, [LT_CEIL] = same_##E, [LT_ROUND] = same_##E
#define UROW_BOOL(E, T, b)          \
  [LT_##E] = {[LT_ABS] = same_##E,  \
              ROUNDING_ENTRIES(E),  \
              [LT_SIGN] = same_##E, \
              [LT_NOT] = not_##E,   \
              [LT_BNOT] = not_##E},
#define UROW_INT(E)                 \
  [LT_##E] = {[LT_NEG] = neg_##E,   \
              [LT_ABS] = abs_##E,   \
              ROUNDING_ENTRIES(E),  \
              [LT_SIGN] = sign_##E, \
              [LT_BNOT] = bnot_##E},
#define UROW_SINT(E, T, b) UROW_INT(E)
#define UROW_UINT(E, T, b) UROW_INT(E)
#define UROW_FLT(E, T, b)                                                                         \
  [LT_##E] = {                                                                                    \
      [LT_NEG] = neg_##E,     [LT_ABS] = abs_##E,   [LT_SQRT] = sqrt_##E,   [LT_EXP] = exp_##E,   \
      [LT_LOG] = log_##E,     [LT_SIN] = sin_##E,   [LT_COS] = cos_##E,     [LT_TANH] = tanh_##E, \
      [LT_FLOOR] = floor_##E, [LT_CEIL] = ceil_##E, [LT_ROUND] = round_##E, [LT_SIGN] = sign_##E},
#define UROW_F16(E, T, b)
#define UROW_BF16(E, T, b)
#define UROW_CPX(E, T, b) [LT_##E] = {[LT_NEG] = neg_##E, [LT_ABS] = abs_##E},
static const kernel unops[LT_NDTYPES][LT_NUNOPS] = {LT_DTYPES_BY_CATEGORY(UROW)};

/* The streaming twins (lt_elementwise.h) of the memory-bound float kernels, which large
   operations run instead (lt_stream_pick). */
#define NT_KERNELS(E, T)                      \
  LT_UN_NT(neg_##E, T, LT_##E, LT_SU_NEG)     \
  LT_UN_NT(abs_##E, T, LT_##E, LT_SU_ABS)     \
  LT_UN_NT(floor_##E, T, LT_##E, LT_SU_FLOOR) \
  LT_UN_NT(ceil_##E, T, LT_##E, LT_SU_CEIL)   \
  LT_UN_NT(round_##E, T, LT_##E, LT_SU_ROUND) \
  LT_BIN_NT(add_##E, T, LT_##E, LT_SB_ADD)    \
  LT_BIN_NT(sub_##E, T, LT_##E, LT_SB_SUB)    \
  LT_BIN_NT(mul_##E, T, LT_##E, LT_SB_MUL)    \
  LT_BIN_NT(div_##E, T, LT_##E, LT_SB_DIV)    \
  LT_BIN_NT(max_##E, T, LT_##E, LT_SB_MAX)    \
  LT_BIN_NT(min_##E, T, LT_##E, LT_SB_MIN)
NT_KERNELS(FLOAT32, float)
NT_KERNELS(FLOAT64, double)
#define NT_UROW(E)                         \
  [LT_##E] = {[LT_NEG] = neg_##E##_nt,     \
              [LT_ABS] = abs_##E##_nt,     \
              [LT_FLOOR] = floor_##E##_nt, \
              [LT_CEIL] = ceil_##E##_nt,   \
              [LT_ROUND] = round_##E##_nt}
#define NT_BROW(E)                                                                           \
  [LT_##E] = {[LT_ADD] = add_##E##_nt, [LT_SUB] = sub_##E##_nt,     [LT_MUL] = mul_##E##_nt, \
              [LT_DIV] = div_##E##_nt, [LT_MAXIMUM] = max_##E##_nt, [LT_MINIMUM] = min_##E##_nt}
static const kernel nt_unops[LT_NDTYPES][LT_NUNOPS] = {NT_UROW(FLOAT32), NT_UROW(FLOAT64)};
static const kernel nt_binops[LT_NDTYPES][LT_NBINOPS] = {NT_BROW(FLOAT32), NT_BROW(FLOAT64)};

/* }====== */

/* {====== running elementwise operations ====== */

/*
 * Runs kernel k (given ctx) over out (computation dtype oc) and inputs in[0..nin) (already in
 * their computation dtypes), broadcast to shape. The result lands in *res: `inplace` when given
 * (cast from oc if needed), else a new tensor of dtype rt. Declared in lt_elementwise.h for
 * lt_funcs.c; lt_math.c's own calls go through run_elementwise below.
 */
int lt_run_elementwise(lt_kernel k, void *ctx, int nin, const lt_tensor *const *in, int ndim,
                       const int64_t *shape, lt_dtype oc, lt_dtype rt, lt_tensor *inplace,
                       lt_tensor **res, const char *kernel_fail, lt_error *err) {
  lt_tensor *dst = NULL, *tmp = NULL, *views[LT_ITER_MAXOPS] = {NULL};
  lt_tensor *aside[LT_ITER_MAXOPS] = {NULL};
  int rc = LT_OK;
  if (inplace) {
    if ((rc = lt_prepare_write(inplace, err))) return rc;
    if (inplace->ndim != ndim || memcmp(inplace->shape, shape, (size_t)ndim * sizeof(int64_t))) {
      char have[128], want[128];
      lt_shape_str(inplace->ndim, inplace->shape, have, sizeof have);
      lt_shape_str(ndim, shape, want, sizeof want);
      return lt_fail(err, LT_EARG, "output with shape %s doesn't match the broadcast shape %s",
                     have, want);
    }
    if ((rc = lt_check_no_internal_overlap(inplace, err))) return rc;
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
    if (dst == inplace && lt_partial_overlap(dst, src)) {
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
    double bytes = 0; /* per element, every operand's: what decides on threads */
    for (int i = 0; i <= nin; i++) bytes += (double)lt_esize(ops[i]);
    lt_iter_init(&it, nin + 1, ops);
    if (lt_iter_run_par(&it, base, k, ctx, bytes)) rc = lt_fail(err, LT_EARG, "%s", kernel_fail);
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

lt_kernel lt_stream_pick(lt_kernel k, lt_kernel twin, int nops, double numel, size_t esize) {
  return twin && lt_stream_worth((double)nops * numel * (double)esize) ? twin : k;
}

static int run_elementwise(kernel k, int nin, const lt_tensor *const *in, int ndim,
                           const int64_t *shape, lt_dtype oc, lt_dtype rt, lt_tensor *inplace,
                           lt_tensor **res, const char *kernel_fail, lt_error *err) {
  return lt_run_elementwise(k, NULL, nin, in, ndim, shape, oc, rt, inplace, res, kernel_fail, err);
}

int lt_binary(lt_binop op, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
              lt_tensor **out, lt_error *err) {
  const char *name = lt_binop_names[op];
  lt_dtype rt;
  int rc = lt_binary_type(op, a, b, &rt, err);
  if (rc) return rc;
  if (lt_is_bitwise(op) && lt_category_of(rt) >= LT_CAT_FLOAT) /* as torch refuses them */
    return lt_fail(err, LT_EARG, "%s: not defined for %s tensors (integer%s expected)", name,
                   lt_dtypes[rt].name, lt_is_shift(op) ? "" : " or bool");
  if (lt_is_shift(op) && rt == LT_BOOL)
    return lt_fail(err, LT_EARG, "%s: not defined for bool tensors (integer expected)", name);
  const lt_operand *ops[2] = {a, b};
  lt_dtype promoted = lt_result_type(2, ops);
  lt_dtype ct = lt_is_logical(op) ? LT_BOOL : lt_compute_type(lt_is_compare(op) ? promoted : rt);
  kernel k = binops[ct][op];
  if (!k) {
    if (ct == LT_BOOL && op == LT_SUB)
      return lt_fail(err, LT_EARG,
                     "subtracting bool tensors is not supported; a:ne(b) gives their exclusive or");
    return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[ct].name);
  }
  if (inplace && !lt_can_cast(rt, inplace->dtype))
    return lt_fail(err, LT_EARG, "result type %s can't be cast to the tensor's dtype %s",
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
  rc = lt_broadcast_shape(2, in, &ndim, shape, err);
  lt_dtype oc = lt_is_compare(op) || lt_is_logical(op) ? LT_BOOL : ct;
  double numel = 1; /* in double: an expanded view's sizes may multiply past int64 */
  for (int d = 0; rc == LT_OK && d < ndim; d++) numel *= (double)shape[d];
  k = lt_stream_pick(k, nt_binops[ct][op], 3, numel, lt_dtypes[ct].size);
  if (rc == LT_OK)
    rc = run_elementwise(k, 2, in, ndim, shape, oc, rt, inplace, out,
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
  else if (floating && lt_category_of(rt) <= LT_CAT_INT)
    rt = LT_FLOAT32;
  else if (op == LT_ABS && rt == LT_COMPLEX64)
    rt = LT_FLOAT32;
  else if (op == LT_ABS && rt == LT_COMPLEX128)
    rt = LT_FLOAT64;
  if (op == LT_BNOT && lt_category_of(a->dtype) >= LT_CAT_FLOAT)
    return lt_fail(err, LT_EARG, "%s: not defined for %s tensors (integer or bool expected)", name,
                   lt_dtypes[a->dtype].name);
  if (op == LT_NEG && a->dtype == LT_BOOL)
    return lt_fail(err, LT_EARG, "negating a bool tensor is not supported; use logical_not");
  lt_dtype ct = op == LT_NOT ? LT_BOOL : lt_compute_type(floating ? rt : a->dtype);
  kernel k = unops[ct][op];
  if (!k) return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[ct].name);
  k = lt_stream_pick(k, nt_unops[ct][op], 2, lt_numel(a), lt_dtypes[ct].size);
  if (inplace && !lt_can_cast(rt, inplace->dtype))
    return lt_fail(err, LT_EARG, "result type %s can't be cast to the tensor's dtype %s",
                   lt_dtypes[rt].name, lt_dtypes[inplace->dtype].name);
  lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0};
  const lt_tensor *ta;
  lt_tensor *owned;
  if ((rc = operand_as(&oa, ct, &ta, &owned, err))) return rc;
  lt_dtype oc = op == LT_ABS && lt_dtypes[ct].is_complex
                    ? (ct == LT_COMPLEX64 ? LT_FLOAT32 : LT_FLOAT64)
                    : ct;
  rc = run_elementwise(k, 1, &ta, a->ndim, a->shape, oc, rt, inplace, out, "failed", err);
  lt_tensor_free(owned);
  return rc;
}

/* clamp of a float tensor by number bounds in one pass: maximum(x, lo), then minimum(., hi),
   each as the binary kernels' (NaN in x or in a bound propagates); an absent bound is -inf or
   +inf, which leaves every x as it is. Written as four selects (GCC vectorizes those, not the
   conditions joined by ||). */
static inline float clamp1_f(float x, float lo, float hi) {
  float m = x > lo ? x : lo;
  m = x != x ? x : m;
  float r = m < hi ? m : hi;
  return m != m ? m : r;
}
static inline double clamp1_d(double x, double lo, double hi) {
  double m = x > lo ? x : lo;
  m = x != x ? x : m;
  double r = m < hi ? m : hi;
  return m != m ? m : r;
}
#define CLAMP1(x, lo, hi) _Generic((x), float : clamp1_f, double : clamp1_d)(x, lo, hi)
#define CLAMP_RUN(E, T)                                                                      \
  typedef struct {                                                                           \
    T lo, hi;                                                                                \
  } clamp_##E##_ctx;                                                                         \
  LT_UCLONES static int clamp_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    const clamp_##E##_ctx *c = ctx;                                                          \
    const T lo = c->lo, hi = c->hi;                                                          \
    if (st[0] == (int64_t)sizeof(T) && st[1] == (int64_t)sizeof(T)) {                        \
      T *oo = (T *)(void *)p[0];                                                             \
      const T *aa = (const T *)(const void *)p[1];                                           \
      BLOCKED(n, T x = aa[k]; oo[k] = CLAMP1(x, lo, hi));                                    \
    } else {                                                                                 \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T x = *(const T *)(const void *)(p[1] + i * st[1]);                                  \
        *(T *)(void *)(p[0] + i * st[0]) = CLAMP1(x, lo, hi);                                \
      }                                                                                      \
    }                                                                                        \
    return 0;                                                                                \
  }
CLAMP_RUN(FLOAT32, float)
CLAMP_RUN(FLOAT64, double)

/* A bound as the float dtype dt computes it in lt_binary (lt_operand_as: beyond the range,
   +-inf); absent: `none`. */
static int clamp_bound(const lt_operand *o, lt_dtype dt, double none, double *v, lt_error *err) {
  if (!o) {
    *v = none;
    return LT_OK;
  }
  const lt_tensor *t;
  lt_tensor *owned;
  int rc = lt_operand_as(o, dt, &t, &owned, err);
  if (rc) return rc;
  *v = dt == LT_FLOAT32 ? (double)*(const float *)(const void *)lt_data(t)
                        : *(const double *)(const void *)lt_data(t);
  lt_tensor_free(owned);
  return LT_OK;
}

/* clamp of a float32 or float64 tensor by number bounds (not booleans): one pass (CLAMP_RUN),
   with the result lt_binary's maximum and minimum give (the dtype stays a's). */
static int clamp_fused(const lt_tensor *a, const lt_operand *lo, const lt_operand *hi,
                       lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  double l, h;
  if ((rc = clamp_bound(lo, a->dtype, -INFINITY, &l, err)) ||
      (rc = clamp_bound(hi, a->dtype, INFINITY, &h, err)))
    return rc;
  clamp_FLOAT32_ctx c32 = {(float)l, (float)h};
  clamp_FLOAT64_ctx c64 = {l, h};
  int f32 = a->dtype == LT_FLOAT32;
  return lt_run_elementwise(f32 ? clamp_FLOAT32 : clamp_FLOAT64, f32 ? (void *)&c32 : (void *)&c64,
                            1, &a, a->ndim, a->shape, a->dtype, a->dtype, inplace, out, "failed",
                            err);
}

static int number_bound(const lt_operand *o) { return !o || (!o->t && !o->is_bool); }

int lt_clamp(const lt_tensor *a, const lt_operand *lo, const lt_operand *hi, lt_tensor *inplace,
             lt_tensor **out, lt_error *err) {
  if (!lo && !hi) return lt_fail(err, LT_EARG, "at least one of min and max is needed");
  if ((a->dtype == LT_FLOAT32 || a->dtype == LT_FLOAT64) && number_bound(lo) && number_bound(hi))
    return clamp_fused(a, lo, hi, inplace, out, err);
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
#define WHERE_RUN(b) WHERE_RUN_(b, LT_UBITS_##b)
#define WHERE_RUN_(b, T)                                                          \
  static int where_##b(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                                    \
    for (int64_t i = 0; i < n; i++) {                                             \
      const T *src = *(const uint8_t *)(p[1] + i * st[1])                         \
                         ? (const T *)(const void *)(p[2] + i * st[2])            \
                         : (const T *)(const void *)(p[3] + i * st[3]);           \
      memcpy(p[0] + i * st[0], src, sizeof(T));                                   \
    }                                                                             \
    return 0;                                                                     \
  }
LT_ELEMENT_BITS(WHERE_RUN)
#define WHERE_ENTRY(E, n, T, c, b, K) [LT_##E] = where_##b,
static const kernel wheres[LT_NDTYPES] = {LT_DTYPES(WHERE_ENTRY)};

int lt_where(const lt_tensor *cond, const lt_operand *a, const lt_operand *b, lt_tensor **out,
             lt_error *err) {
  const lt_operand *ops[2] = {a, b};
  const lt_tensor *ins[3] = {cond, a->t, b->t};
  for (int i = 0; i < 3; i++) { /* an opaque operand has no dtype to promote (and convert) to */
    int rc = ins[i] ? lt_check_readable(ins[i], err) : LT_OK;
    if (rc) return rc;
  }
  lt_dtype rt = lt_result_type(2, ops);
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
  rc = lt_broadcast_shape(3, in, &ndim, shape, err);
  if (rc == LT_OK)
    rc = run_elementwise(wheres[rt], 3, in, ndim, shape, rt, rt, NULL, out, "failed", err);
  lt_tensor_free(c1);
  lt_tensor_free(a1);
  lt_tensor_free(b1);
  return rc;
}

/* }====== */

int lt_masked_fill(lt_tensor *t, const lt_tensor *mask, const lt_operand *value, int inplace,
                   lt_tensor **out, lt_error *err) {
  if (mask->dtype != LT_BOOL) return lt_fail(err, LT_EARG, "mask must be a bool tensor");
  if (value->t && value->t->ndim != 0)
    return lt_fail(err, LT_EARG, "value must be a number, boolean or 0-d tensor");
  lt_operand ot = {t, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *r;
  int rc = lt_where(mask, value, &ot, &r, err);
  if (rc) return rc;
  if (inplace) { /* the mask must not grow t's shape; the copy converts to t's dtype */
    if (r->ndim != t->ndim || memcmp(r->shape, t->shape, (size_t)t->ndim * sizeof(int64_t))) {
      char have[128], want[128];
      lt_shape_str(t->ndim, t->shape, have, sizeof have);
      lt_shape_str(r->ndim, r->shape, want, sizeof want);
      lt_tensor_free(r);
      return lt_fail(err, LT_EARG, "output with shape %s doesn't match the broadcast shape %s",
                     have, want);
    }
    rc = lt_copy(t, r, err);
    lt_tensor_free(r);
    if (rc == LT_OK) *out = t;
    return rc;
  }
  if (r->dtype == t->dtype) {
    *out = r;
    return LT_OK;
  }
  rc = lt_cast(r, t->dtype, out, err);
  lt_tensor_free(r);
  return rc;
}
