/*
 * lt_funcs.c -- torch's further elementwise functions (see lt_funcs.h): one kernel per
 * (function, computation dtype) run by lt_math.c's driver (lt_elementwise.h).
 *
 * Computation dtypes: float32 and float64 (float16 and bfloat16 inputs are cast to float32 and
 * the result rounded once), integers for relu, trunc and fmod, complex for isnan, isinf and
 * isfinite. float32 uses libm's float functions, except the eighteen unary ones of lt_vmath.h
 * (contiguous runs straight, strided ones through a buffer) and its atan2, hypot and fmod
 * (LT_VRUN2); float64 uses libm's double functions. The formulas are torch's: sigmoid 1 / (1 +
 * exp(-x)), silu x / (1 + exp(-x)), gelu x/2 (1 + erf(x / sqrt2)) (computed as x/2 erfc(-x /
 * sqrt2)), the tanh gelu x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), frac x - trunc(x),
 * rsqrt 1 / sqrt(x), relu keeps NaN and gives +0 for -0.
 */
#include "lt_funcs.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_elementwise.h"
#include "lt_iter.h"
#include "lt_vmath.h"

const char *const lt_func_names[] = {
    [LT_SIGMOID] = "sigmoid", [LT_RELU] = "relu",   [LT_GELU] = "gelu",
    [LT_GELU_TANH] = "gelu",  [LT_SILU] = "silu",   [LT_TAN] = "tan",
    [LT_ASIN] = "asin",       [LT_ACOS] = "acos",   [LT_ATAN] = "atan",
    [LT_SINH] = "sinh",       [LT_COSH] = "cosh",   [LT_ASINH] = "asinh",
    [LT_ACOSH] = "acosh",     [LT_ATANH] = "atanh", [LT_LOG1P] = "log1p",
    [LT_EXPM1] = "expm1",     [LT_LOG2] = "log2",   [LT_LOG10] = "log10",
    [LT_EXP2] = "exp2",       [LT_TRUNC] = "trunc", [LT_FRAC] = "frac",
    [LT_RSQRT] = "rsqrt",     [LT_ERF] = "erf",     [LT_ERFC] = "erfc",
    [LT_ISNAN] = "isnan",     [LT_ISINF] = "isinf", [LT_ISFINITE] = "isfinite"};
_Static_assert(sizeof lt_func_names / sizeof lt_func_names[0] == LT_NFUNCS,
               "a name for every function");
const char *const lt_bfunc_names[] = {
    [LT_ATAN2] = "atan2", [LT_FMOD] = "fmod", [LT_HYPOT] = "hypot"};
_Static_assert(sizeof lt_bfunc_names / sizeof lt_bfunc_names[0] == LT_NFUNCS2,
               "a name for every binary function");

/* {====== kernels ====== */

/* The kernels are cloned for AVX2 (an ifunc picks one at load, as lt_vmath.c's): the contiguous
   loops of trunc, frac, rsqrt, the classifications and the binary functions' arithmetic then
   vectorize (x86-64's baseline SSE2 has no vector truncation). Not under ThreadSanitizer, whose
   runtime starts after the resolvers run. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define LT_KCLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define LT_KCLONES
#endif

/* One inner run of a unary function: o = EXPR(x). */
#define RUN1(NAME, T, OT, EXPR)                                                         \
  LT_KCLONES static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                                          \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T)) {                  \
      OT *oo = (OT *)(void *)p[0];                                                      \
      const T *aa = (const T *)(const void *)p[1];                                      \
      BLOCKED(n, T x = aa[k]; oo[k] = (EXPR));                                          \
    } else {                                                                            \
      for (int64_t i = 0; i < n; i++) {                                                 \
        T x = *(const T *)(const void *)(p[1] + i * st[1]);                             \
        *(OT *)(void *)(p[0] + i * st[0]) = (EXPR);                                     \
      }                                                                                 \
    }                                                                                   \
    return 0;                                                                           \
  }

/* A float32 run through a kernel of lt_vmath.h; strided runs through a buffer. */
#define VBUF 256
#define VRUN1(NAME, VFN)                                                                      \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {                  \
    (void)ctx;                                                                                \
    if (st[0] == 4 && st[1] == 4) {                                                           \
      VFN((float *)(void *)p[0], (const float *)(const void *)p[1], n);                       \
      return 0;                                                                               \
    }                                                                                         \
    float buf[VBUF];                                                                          \
    for (int64_t i0 = 0; i0 < n; i0 += VBUF) {                                                \
      int64_t len = n - i0 < VBUF ? n - i0 : VBUF;                                            \
      for (int64_t j = 0; j < len; j++)                                                       \
        buf[j] = *(const float *)(const void *)(p[1] + (i0 + j) * st[1]);                     \
      VFN(buf, buf, len);                                                                     \
      for (int64_t j = 0; j < len; j++) *(float *)(void *)(p[0] + (i0 + j) * st[0]) = buf[j]; \
    }                                                                                         \
    return 0;                                                                                 \
  }

#define SQRT_2_OVER_PI 0x1.9884533d43651p-1
#define SQRT1_2 0x1.6a09e667f3bcdp-1

static double gelu_tanh_d(double x) {
  return 0.5 * x * (1.0 + tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)));
}

/* The functions both float dtypes share: NAME_E, libm suffix F. */
#define FLOAT_FUNCS(E, T, F)                                                    \
  RUN1(relu_##E, T, T, x > 0 || x != x ? x : (T)0)                              \
  RUN1(gelu_tanh_##E, T, T, (T)gelu_tanh_d((double)x))                          \
  RUN1(trunc_##E, T, T, trunc##F(x))                                            \
  RUN1(frac_##E, T, T, x - trunc##F(x))                                         \
  RUN1(rsqrt_##E, T, T, (T)1 / sqrt##F(x))                                      \
  RUN1(isnan_##E, T, uint8_t, (uint8_t)(x != x))                                \
  RUN1(isinf_##E, T, uint8_t, (uint8_t)(x == (T)INFINITY || x == -(T)INFINITY)) \
  RUN1(isfinite_##E, T, uint8_t, (uint8_t)(x - x == 0))
FLOAT_FUNCS(FLOAT32, float, f)
FLOAT_FUNCS(FLOAT64, double, )

/* libm's double functions for float64; float32 has kernels of lt_vmath.h for these */
#define VMATH_FUNCS(E, T, F)      \
  RUN1(asin_##E, T, T, asin(x))   \
  RUN1(acos_##E, T, T, acos(x))   \
  RUN1(atan_##E, T, T, atan(x))   \
  RUN1(sinh_##E, T, T, sinh(x))   \
  RUN1(cosh_##E, T, T, cosh(x))   \
  RUN1(asinh_##E, T, T, asinh(x)) \
  RUN1(acosh_##E, T, T, acosh(x)) \
  RUN1(atanh_##E, T, T, atanh(x)) \
  RUN1(log2_##E, T, T, log2(x))   \
  RUN1(log10_##E, T, T, log10(x)) \
  RUN1(exp2_##E, T, T, exp2(x))
VMATH_FUNCS(FLOAT64, double, )
RUN1(tan_FLOAT64, double, double, tan(x))
VRUN1(tan_FLOAT32, lt_vmath_tan_f32)
VRUN1(asin_FLOAT32, lt_vmath_asin_f32)
VRUN1(acos_FLOAT32, lt_vmath_acos_f32)
VRUN1(atan_FLOAT32, lt_vmath_atan_f32)
VRUN1(sinh_FLOAT32, lt_vmath_sinh_f32)
VRUN1(cosh_FLOAT32, lt_vmath_cosh_f32)
VRUN1(asinh_FLOAT32, lt_vmath_asinh_f32)
VRUN1(acosh_FLOAT32, lt_vmath_acosh_f32)
VRUN1(atanh_FLOAT32, lt_vmath_atanh_f32)
VRUN1(log2_FLOAT32, lt_vmath_log2_f32)
VRUN1(log10_FLOAT32, lt_vmath_log10_f32)
VRUN1(exp2_FLOAT32, lt_vmath_exp2_f32)
VRUN1(sigmoid_FLOAT32, lt_vmath_sigmoid_f32)
VRUN1(silu_FLOAT32, lt_vmath_silu_f32)
VRUN1(gelu_FLOAT32, lt_vmath_gelu_f32)
VRUN1(log1p_FLOAT32, lt_vmath_log1p_f32)
VRUN1(expm1_FLOAT32, lt_vmath_expm1_f32)
VRUN1(erf_FLOAT32, lt_vmath_erf_f32)
VRUN1(erfc_FLOAT32, lt_vmath_erfc_f32)
RUN1(sigmoid_FLOAT64, double, double, 1.0 / (1.0 + exp(-x)))
RUN1(silu_FLOAT64, double, double, x / (1.0 + exp(-x)))
RUN1(gelu_FLOAT64, double, double, 0.5 * x * erfc(-x * SQRT1_2))
RUN1(log1p_FLOAT64, double, double, log1p(x))
RUN1(expm1_FLOAT64, double, double, expm1(x))
RUN1(erf_FLOAT64, double, double, erf(x))
RUN1(erfc_FLOAT64, double, double, erfc(x))

/* Integers: relu (signed: max(x, 0); unsigned: x) and trunc (x). */
#define IFUNCS_SINT(E, T, b) \
  RUN1(same_##E, T, T, x)    \
  RUN1(relu_##E, T, T, x < 0 ? (T)0 : x)
#define IFUNCS_UINT(E, T, b) \
  RUN1(same_##E, T, T, x)    \
  RUN1(relu_##E, T, T, x)
#define IFUNCS_BOOL(E, T, b)
#define IFUNCS_FLT(E, T, b)
#define IFUNCS_F16(E, T, b)
#define IFUNCS_BF16(E, T, b)
#define IFUNCS_CPX(E, T, b)
LT_DTYPES_BY_CATEGORY(IFUNCS)

/* Complex: the three classifications, on either part. */
#define CPX_FUNCS(E, T, b)                                             \
  RUN1(isnan_##E, T, uint8_t, (uint8_t)(x.re != x.re || x.im != x.im)) \
  RUN1(isinf_##E, T, uint8_t, (uint8_t)(isinf(x.re) || isinf(x.im)))   \
  RUN1(isfinite_##E, T, uint8_t, (uint8_t)(x.re - x.re == 0 && x.im - x.im == 0))
LT_DTYPES_CPX(CPX_FUNCS)

#define FLOAT_ROW(E)                                                                        \
  [LT_##                                                                                    \
      E] = {[LT_SIGMOID] = sigmoid_##E,     [LT_RELU] = relu_##E,   [LT_GELU] = gelu_##E,   \
            [LT_GELU_TANH] = gelu_tanh_##E, [LT_SILU] = silu_##E,   [LT_TAN] = tan_##E,     \
            [LT_ASIN] = asin_##E,           [LT_ACOS] = acos_##E,   [LT_ATAN] = atan_##E,   \
            [LT_SINH] = sinh_##E,           [LT_COSH] = cosh_##E,   [LT_ASINH] = asinh_##E, \
            [LT_ACOSH] = acosh_##E,         [LT_ATANH] = atanh_##E, [LT_LOG1P] = log1p_##E, \
            [LT_EXPM1] = expm1_##E,         [LT_LOG2] = log2_##E,   [LT_LOG10] = log10_##E, \
            [LT_EXP2] = exp2_##E,           [LT_TRUNC] = trunc_##E, [LT_FRAC] = frac_##E,   \
            [LT_RSQRT] = rsqrt_##E,         [LT_ERF] = erf_##E,     [LT_ERFC] = erfc_##E,   \
            [LT_ISNAN] = isnan_##E,         [LT_ISINF] = isinf_##E, [LT_ISFINITE] = isfinite_##E},
#define INT_ROW(E, T, b) [LT_##E] = {[LT_RELU] = relu_##E, [LT_TRUNC] = same_##E},
#define CPX_ROW(E, T, b) \
  [LT_##E] = {[LT_ISNAN] = isnan_##E, [LT_ISINF] = isinf_##E, [LT_ISFINITE] = isfinite_##E},
static const lt_kernel funcs1[LT_NDTYPES][LT_NFUNCS] = {
    FLOAT_ROW(FLOAT32) FLOAT_ROW(FLOAT64) LT_DTYPES_INT(INT_ROW) LT_DTYPES_CPX(CPX_ROW)};

/* The streaming twins (lt_elementwise.h) of the memory-bound ones, for large operations. */
#define NT_FUNCS(E, T)                        \
  LT_UN_NT(relu_##E, T, LT_##E, LT_SU_RELU)   \
  LT_UN_NT(trunc_##E, T, LT_##E, LT_SU_TRUNC) \
  LT_UN_NT(frac_##E, T, LT_##E, LT_SU_FRAC)
NT_FUNCS(FLOAT32, float)
NT_FUNCS(FLOAT64, double)
#define NT_ROW(E) \
  [LT_##E] = {[LT_RELU] = relu_##E##_nt, [LT_TRUNC] = trunc_##E##_nt, [LT_FRAC] = frac_##E##_nt}
static const lt_kernel nt_funcs1[LT_NDTYPES][LT_NFUNCS] = {NT_ROW(FLOAT32), NT_ROW(FLOAT64)};

/* One inner run of a binary function: o = EXPR(x, y); EXPR may set `bad`. */
#define RUN2(NAME, T, EXPR)                                                             \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {            \
    (void)ctx;                                                                          \
    int bad = 0;                                                                        \
    if (st[0] == (int64_t)sizeof(T) && st[1] == (int64_t)sizeof(T) &&                   \
        st[2] == (int64_t)sizeof(T)) {                                                  \
      T *oo = (T *)(void *)p[0];                                                        \
      const T *aa = (const T *)(const void *)p[1], *bb = (const T *)(const void *)p[2]; \
      for (int64_t k = 0; k < n; k++) {                                                 \
        T x = aa[k], y = bb[k];                                                         \
        oo[k] = (EXPR);                                                                 \
      }                                                                                 \
    } else {                                                                            \
      for (int64_t i = 0; i < n; i++) {                                                 \
        T x = *(const T *)(const void *)(p[1] + i * st[1]);                             \
        T y = *(const T *)(const void *)(p[2] + i * st[2]);                             \
        *(T *)(void *)(p[0] + i * st[0]) = (EXPR);                                      \
      }                                                                                 \
    }                                                                                   \
    return bad;                                                                         \
  }

LT_VRUN2(atan2_FLOAT32, lt_vmath_atan2_f32)
RUN2(atan2_FLOAT64, double, atan2(x, y))
LT_VRUN2(fmod_FLOAT32, lt_vmath_fmod_f32)
RUN2(fmod_FLOAT64, double, fmod(x, y))
LT_VRUN2(hypot_FLOAT32, lt_vmath_hypot_f32)
RUN2(hypot_FLOAT64, double, hypot(x, y))
/* Integer fmod: C's %, the sign of the dividend; x % -1 is 0 (INT_MIN % -1 overflows). */
#define IFMOD_SINT(E, T, b) \
  RUN2(fmod_##E, T, y == 0 ? (bad = 1, (T)0) : y == (T)-1 ? (T)0 : (T)(x % y))
#define IFMOD_UINT(E, T, b) RUN2(fmod_##E, T, y == 0 ? (bad = 1, (T)0) : (T)(x % y))
#define IFMOD_BOOL(E, T, b)
#define IFMOD_FLT(E, T, b)
#define IFMOD_F16(E, T, b)
#define IFMOD_BF16(E, T, b)
#define IFMOD_CPX(E, T, b)
LT_DTYPES_BY_CATEGORY(IFMOD)

#define FLOAT_ROW2(E) \
  [LT_##E] = {[LT_ATAN2] = atan2_##E, [LT_FMOD] = fmod_##E, [LT_HYPOT] = hypot_##E},
#define INT_ROW2(E, T, b) [LT_##E] = {[LT_FMOD] = fmod_##E},
static const lt_kernel funcs2[LT_NDTYPES][LT_NFUNCS2] = {FLOAT_ROW2(FLOAT32) FLOAT_ROW2(FLOAT64)
                                                             LT_DTYPES_INT(INT_ROW2)};

/* lerp, torch's two-sided form (exact at weight 0 and 1). */
#define LERP(E, T)                                                                \
  static int lerp_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) {  \
    (void)ctx;                                                                    \
    for (int64_t i = 0; i < n; i++) {                                             \
      T x = *(const T *)(const void *)(p[1] + i * st[1]);                         \
      T y = *(const T *)(const void *)(p[2] + i * st[2]);                         \
      T w = *(const T *)(const void *)(p[3] + i * st[3]);                         \
      *(T *)(void *)(p[0] + i * st[0]) =                                          \
          (w < 0 ? -w : w) < (T)0.5 ? x + w * (y - x) : y - (y - x) * ((T)1 - w); \
    }                                                                             \
    return 0;                                                                     \
  }
LERP(FLOAT32, float)
LERP(FLOAT64, double)

/* nan_to_num: the three replacements in the computation dtype. */
typedef struct {
  double nan, posinf, neginf;
} nan_repl;

static float to_f32(double v) { /* without the undefined conversion of a value beyond float */
  return v > FLT_MAX ? INFINITY : v < -FLT_MAX ? -INFINITY : (float)v;
}

#define NAN_TO_NUM(E, T, CONV)                                                         \
  static int nan_to_num_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    const nan_repl *c = ctx;                                                           \
    const T vn = CONV(c->nan), vp = CONV(c->posinf), vm = CONV(c->neginf);             \
    for (int64_t i = 0; i < n; i++) {                                                  \
      T x = *(const T *)(const void *)(p[1] + i * st[1]);                              \
      *(T *)(void *)(p[0] + i * st[0]) = x != x              ? vn                      \
                                         : x == (T)INFINITY  ? vp                      \
                                         : x == -(T)INFINITY ? vm                      \
                                                             : x;                      \
    }                                                                                  \
    return 0;                                                                          \
  }
#define SAME_DOUBLE(v) (v)
NAN_TO_NUM(FLOAT32, float, to_f32)
NAN_TO_NUM(FLOAT64, double, SAME_DOUBLE)

/* }====== */

/* {====== the operations ====== */

static int not_complex(const char *name, lt_dtype dt, lt_error *err) {
  return lt_fail(err, LT_EARG, "%s is not implemented for %s", name, lt_dtypes[dt].name);
}

static int check_cast(lt_dtype rt, const lt_tensor *inplace, lt_error *err) {
  if (inplace && !lt_can_cast(rt, inplace->dtype))
    return lt_fail(err, LT_EARG, "result type %s can't be cast to the tensor's dtype %s",
                   lt_dtypes[rt].name, lt_dtypes[inplace->dtype].name);
  return LT_OK;
}

/* Runs k over a (converted to ct), the result of dtype rt (computed in oc). */
static int run1(lt_kernel k, void *ctx, const lt_tensor *a, lt_dtype ct, lt_dtype oc, lt_dtype rt,
                lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0};
  const lt_tensor *ta;
  lt_tensor *owned;
  int rc = lt_operand_as(&oa, ct, &ta, &owned, err);
  if (rc) return rc;
  rc = lt_run_elementwise(k, ctx, 1, &ta, a->ndim, a->shape, oc, rt, inplace, out, "failed", err);
  lt_tensor_free(owned);
  return rc;
}

int lt_func1(lt_func f, const lt_tensor *a, lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  const char *name = lt_func_names[f];
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  lt_category cat = lt_category_of(a->dtype);
  int classify = f == LT_ISNAN || f == LT_ISINF || f == LT_ISFINITE;
  if (cat == LT_CAT_COMPLEX && !classify) return not_complex(name, a->dtype, err);
  if (classify && cat <= LT_CAT_INT) { /* never NaN nor inf */
    if ((rc = check_cast(LT_BOOL, inplace, err))) return rc;
    lt_tensor *t;
    if ((rc = lt_tensor_new(LT_BOOL, a->ndim, a->shape, 1, &t, err))) return rc;
    if (f == LT_ISFINITE) memset(lt_data(t), 1, (size_t)lt_numel(t));
    *out = t;
    return LT_OK;
  }
  int keeps_int = f == LT_RELU || f == LT_TRUNC;
  int float_only = f == LT_GELU || f == LT_GELU_TANH || f == LT_SILU || f == LT_FRAC;
  if ((keeps_int && cat == LT_CAT_BOOL) || (float_only && cat <= LT_CAT_INT))
    return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[a->dtype].name);
  lt_dtype rt = classify ? LT_BOOL : cat <= LT_CAT_INT && !keeps_int ? LT_FLOAT32 : a->dtype;
  lt_dtype ct = lt_compute_type(classify ? a->dtype : rt);
  lt_kernel k = funcs1[ct][f];
  if (!k) return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[ct].name);
  k = lt_stream_pick(k, nt_funcs1[ct][f], 2, (double)lt_numel(a), lt_dtypes[ct].size);
  if ((rc = check_cast(rt, inplace, err))) return rc;
  return run1(k, NULL, a, ct, classify ? LT_BOOL : ct, rt, inplace, out, err);
}

int lt_nan_to_num(const lt_tensor *a, const double *nan, const double *posinf, const double *neginf,
                  lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  lt_category cat = lt_category_of(a->dtype);
  if (cat == LT_CAT_COMPLEX) return not_complex("nan_to_num", a->dtype, err);
  if (cat <= LT_CAT_INT) { /* nothing to replace */
    if (inplace) {
      if ((rc = lt_prepare_write(inplace, err))) return rc;
      *out = inplace;
      return LT_OK;
    }
    return lt_clone(a, out, err);
  }
  double big = lt_float_max(a->dtype);
  nan_repl c = {nan ? *nan : 0.0, posinf ? *posinf : big, neginf ? *neginf : -big};
  lt_dtype ct = lt_compute_type(a->dtype);
  return run1(ct == LT_FLOAT32 ? nan_to_num_FLOAT32 : nan_to_num_FLOAT64, &c, a, ct, ct, a->dtype,
              inplace, out, err);
}

/* Operands ops[0..n) converted to ct and their broadcast shape; frees what it made on failure. */
static int convert(int n, const lt_operand *const *ops, lt_dtype ct, const lt_tensor **in,
                   lt_tensor **owned, int *ndim, int64_t *shape, lt_error *err) {
  int rc = LT_OK;
  for (int i = 0; i < n; i++) owned[i] = NULL;
  for (int i = 0; i < n && rc == LT_OK; i++) rc = lt_operand_as(ops[i], ct, &in[i], &owned[i], err);
  if (rc == LT_OK) rc = lt_broadcast_shape(n, in, ndim, shape, err);
  if (rc)
    for (int i = 0; i < n; i++) lt_tensor_free(owned[i]);
  return rc;
}

/* Runs k over the n operands in ct, the result of dtype rt. */
static int run_n(lt_kernel k, int n, const lt_operand *const *ops, lt_dtype ct, lt_dtype rt,
                 lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  const lt_tensor *in[3];
  lt_tensor *owned[3];
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  int rc = convert(n, ops, ct, in, owned, &ndim, shape, err);
  if (rc) return rc;
  rc = lt_run_elementwise(k, NULL, n, in, ndim, shape, ct, rt, inplace, out,
                          "integer division by zero", err);
  for (int i = 0; i < n; i++) lt_tensor_free(owned[i]);
  return rc;
}

int lt_func2(lt_bfunc f, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
             lt_tensor **out, lt_error *err) {
  const char *name = lt_bfunc_names[f];
  const lt_operand *ops[2] = {a, b};
  for (int i = 0; i < 2; i++)
    if (ops[i]->t) {
      int rc = lt_check_readable(ops[i]->t, err);
      if (rc) return rc;
    }
  lt_dtype rt = lt_result_type(2, ops);
  lt_category cat = lt_category_of(rt);
  if (cat == LT_CAT_COMPLEX) return not_complex(name, rt, err);
  if (f == LT_ATAN2 && cat <= LT_CAT_INT) rt = LT_FLOAT32;
  lt_dtype ct = lt_compute_type(rt);
  lt_kernel k = funcs2[ct][f];
  if (!k) return lt_fail(err, LT_EARG, "%s is not supported for %s", name, lt_dtypes[ct].name);
  int rc = check_cast(rt, inplace, err);
  if (rc) return rc;
  return run_n(k, 2, ops, ct, rt, inplace, out, err);
}

int lt_lerp(const lt_operand *a, const lt_operand *end, const lt_operand *weight,
            lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  const lt_operand *ops[3] = {a, end, weight};
  for (int i = 0; i < 3; i++)
    if (ops[i]->t) {
      int rc = lt_check_readable(ops[i]->t, err);
      if (rc) return rc;
    }
  lt_dtype rt = lt_result_type(2, ops); /* a float weight does not make integers lerp */
  if (weight->t) rt = lt_promote(rt, weight->t->dtype);
  lt_category cat = lt_category_of(rt);
  if (cat == LT_CAT_COMPLEX) return not_complex("lerp", rt, err);
  if (cat != LT_CAT_FLOAT)
    return lt_fail(err, LT_EARG, "lerp is not supported for %s", lt_dtypes[rt].name);
  lt_dtype ct = lt_compute_type(rt);
  int rc = check_cast(rt, inplace, err);
  if (rc) return rc;
  return run_n(ct == LT_FLOAT32 ? lerp_FLOAT32 : lerp_FLOAT64, 3, ops, ct, rt, inplace, out, err);
}

/* }====== */
