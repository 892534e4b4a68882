/*
 * test_vmath.c -- the accuracy of the vectorized float32 kernels (src/core/simd/lt_vmath.c) against
 * double libm rounded to float: every 97th float32 bit pattern (44 million arguments, both
 * signs, subnormals, the whole range), then libm's special values, in-place calls, and the
 * unary operations of lt_math.c (lt_unary) that run them on contiguous float32 tensors. The
 * kernels of lt_funcs.c (sigmoid, silu, expm1, log1p, erf, erfc, gelu, exp2, log2, log10, sinh,
 * cosh, asinh, acosh, atanh, asin, acos, atan, tan) are swept the same way, against double formulas
 * (torch's) or double libm; the binary hypot, atan2, fmod and remainder on pairs (fmod and
 * remainder exactly); tan also over every float of a few ranges (within 0.5001 ulp) and with
 * arguments for libm beside others in one vector.
 *
 * Fails where an error exceeds LT_VMATH_MAX_ULP (1 ulp; the project's bound is 2) and prints the
 * largest error of each function (lt_vmath.c's header and docs/PERFORMANCE.md quote these numbers).
 * The float64 kernels (exp, log, sqrt) are checked on 4M arguments each against long double libm,
 * failing above LT_VMATH64_MAX_ULP (2 ulp).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_cpu.h"
#include "lt_math.h"
#include "lt_vmath.h"
#include "test_core.h"
#include "test_util.h"

#define LT_VMATH_MAX_ULP 1.0
#define PI_1 0x1.921fb54442d18p1 /* pi */
#define PI_2 0x1.921fb54442d18p0 /* pi/2 */
/* every sweep_step-th bit pattern is swept: 97, or the argument of --step (the runs on the narrower
   vector paths, spec/CMakeLists.txt, sweep fewer) */
static uint64_t sweep_step = 97u;
#define BLOCK 4096

typedef void (*vfn)(float *, const float *, int64_t);

/* double references of lt_funcs.c's functions (torch's formulas; gelu as x/2 erfc(-x/sqrt2),
   which stays relative where the result is tiny) */
static double sigmoid_ref(double x) { return 1.0 / (1.0 + exp(-x)); }
static double silu_ref(double x) { return x / (1.0 + exp(-x)); }
static double gelu_ref(double x) { return 0.5 * x * erfc(-x * 0x1.6a09e667f3bcdp-1); }
/* tan beyond the reduction: double libm's, rounded once (glibc's tanf is 1.37 ulp off there) */
static float tan_d(float x) { return (float)tan((double)x); }

static const struct {
  const char *name;
  vfn f;
  double (*ref)(double);
} fns[] = {
    {"exp", lt_vmath_exp_f32, exp},
    {"log", lt_vmath_log_f32, log},
    {"tanh", lt_vmath_tanh_f32, tanh},
    {"sin", lt_vmath_sin_f32, sin},
    {"cos", lt_vmath_cos_f32, cos},
    {"sqrt", lt_vmath_sqrt_f32, sqrt},
    /* the same without FMA contraction (lt_vmath_nc.c: the random normals') */
    {"log nc", lt_vmath_log_nc_f32, log},
    {"sin nc", lt_vmath_sin_nc_f32, sin},
    {"cos nc", lt_vmath_cos_nc_f32, cos},
    /* lt_funcs.c's */
    {"sigmoid", lt_vmath_sigmoid_f32, sigmoid_ref},
    {"silu", lt_vmath_silu_f32, silu_ref},
    {"expm1", lt_vmath_expm1_f32, expm1},
    {"log1p", lt_vmath_log1p_f32, log1p},
    {"erf", lt_vmath_erf_f32, erf},
    {"erfc", lt_vmath_erfc_f32, erfc},
    {"gelu", lt_vmath_gelu_f32, gelu_ref},
    {"exp2", lt_vmath_exp2_f32, exp2},
    {"log2", lt_vmath_log2_f32, log2},
    {"log10", lt_vmath_log10_f32, log10},
    {"sinh", lt_vmath_sinh_f32, sinh},
    {"cosh", lt_vmath_cosh_f32, cosh},
    {"asinh", lt_vmath_asinh_f32, asinh},
    {"acosh", lt_vmath_acosh_f32, acosh},
    {"atanh", lt_vmath_atanh_f32, atanh},
    {"asin", lt_vmath_asin_f32, asin},
    {"acos", lt_vmath_acos_f32, acos},
    {"atan", lt_vmath_atan_f32, atan},
    {"tan", lt_vmath_tan_f32, tan},
};

static float from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* The error of y in ulps of the float nearest ref; inf where the kinds differ (NaN, inf, a
   zero's sign). */
static double ulp_error(float y, double ref) {
  float want = (float)ref;
  if (isnan(want)) return isnan(y) ? 0 : INFINITY;
  if (isinf(want)) return y == want ? 0 : INFINITY;
  if (isinf(y) || isnan(y)) return INFINITY;
  if (ref == 0) return y == 0 && !signbit(y) == !signbit(ref) ? 0 : INFINITY;
  double ulp = fabs(ref) < 0x1p-126 ? 0x1p-149 : ldexp(1.0, ilogb(ref) - 23);
  return fabs((double)y - ref) / ulp;
}

static void sweep(int k) {
  static float x[BLOCK], y[BLOCK];
  double worst = 0;
  float worst_x = 0;
  uint64_t b = 0;
  while (b <= UINT32_MAX) {
    int n = 0;
    for (; n < BLOCK && b <= UINT32_MAX; n++, b += sweep_step) x[n] = from_bits((uint32_t)b);
    fns[k].f(y, x, n);
    for (int i = 0; i < n; i++) {
      double e = ulp_error(y[i], fns[k].ref((double)x[i]));
      if (e > worst) {
        worst = e;
        worst_x = x[i];
      }
      if (!(e <= LT_VMATH_MAX_ULP))
        CHECKF(0, "%s(%a) = %a, libm %a: %.3f ulp", fns[k].name, (double)x[i], (double)y[i],
               fns[k].ref((double)x[i]), e);
    }
  }
  CHECKF(worst <= LT_VMATH_MAX_ULP, "%s: max error %.4f ulp", fns[k].name, worst);
  printf("%-7s max error %.4f ulp (at %a)\n", fns[k].name, worst, (double)worst_x);
}

/* f at one argument, through the vector kernel, with neighbours (N values in all) so that the
   loop's vector path sees it too: at for float32, at64 for float64. */
#define AT_FN(NAME, T, N)                                  \
  static T NAME(void (*f)(T *, const T *, int64_t), T v) { \
    T x[N], y[N];                                          \
    for (int i = 0; i < N; i++) x[i] = v;                  \
    f(y, x, N);                                            \
    return y[N - 1];                                       \
  }
AT_FN(at, float, 19)
AT_FN(at64, double, 9)

/* f(x) is want exactly (a NaN want: any NaN): f32 and f64 are the float32 and float64 kernels
   that must give it (NULL: not that one). */
static const struct {
  vfn f32;
  void (*f64)(double *, const double *, int64_t);
  double x, want;
} exact[] = {
    {lt_vmath_exp_f32, lt_vmath_exp_f64, INFINITY, INFINITY},
    {lt_vmath_exp_f32, lt_vmath_exp_f64, -INFINITY, 0},
    {lt_vmath_exp_f32, lt_vmath_exp_f64, NAN, NAN},
    {lt_vmath_exp_f32, NULL, 89, INFINITY},
    {lt_vmath_exp_f32, NULL, -104, 0},
    {NULL, lt_vmath_exp_f64, 710, INFINITY},
    {NULL, lt_vmath_exp_f64, -746, 0},
    {lt_vmath_exp_f32, NULL, -0.0, 1},
    {NULL, lt_vmath_exp_f64, 0, 1},
    {lt_vmath_log_f32, lt_vmath_log_f64, 0, -INFINITY},
    {lt_vmath_log_f32, lt_vmath_log_f64, -0.0, -INFINITY},
    {lt_vmath_log_f32, lt_vmath_log_f64, -1, NAN},
    {lt_vmath_log_f32, NULL, -INFINITY, NAN},
    {lt_vmath_log_f32, lt_vmath_log_f64, INFINITY, INFINITY},
    {lt_vmath_log_f32, lt_vmath_log_f64, 1, 0},
    {lt_vmath_log_f32, lt_vmath_log_f64, NAN, NAN},
    {lt_vmath_tanh_f32, NULL, INFINITY, 1},
    {lt_vmath_tanh_f32, NULL, -INFINITY, -1},
    {lt_vmath_tanh_f32, NULL, NAN, NAN},
};

/* Checks the rows of exact that have a kernel fn, through at_fn (at or at64) with x in type T. */
#define CHECK_EXACT(fn, at_fn, T)                                                        \
  for (size_t i_ = 0; i_ < sizeof exact / sizeof *exact; i_++) {                         \
    if (!exact[i_].fn) continue;                                                         \
    double y_ = at_fn(exact[i_].fn, (T)exact[i_].x), want_ = exact[i_].want;             \
    CHECKF(isnan(want_) ? isnan(y_) : y_ == want_, "exact[%zu] %s: f(%a) = %a", i_, #fn, \
           exact[i_].x, y_);                                                             \
  }

static void specials(void) {
  CHECK_EXACT(f32, at, float);
  CHECK(at(lt_vmath_exp_f32, -100) == expf(-100)); /* subnormal */
  float nz = at(lt_vmath_tanh_f32, -0.0f), sz = at(lt_vmath_sin_f32, -0.0f);
  CHECK(nz == 0 && signbit(nz));
  CHECK(sz == 0 && signbit(sz));
  CHECK(at(lt_vmath_cos_f32, 0) == 1);
  float tz = at(lt_vmath_tan_f32, -0.0f);
  CHECK(tz == 0 && signbit(tz));
  for (int i = 0; i < 3; i++) {
    vfn f = i == 2 ? lt_vmath_tan_f32 : i ? lt_vmath_cos_f32 : lt_vmath_sin_f32;
    float (*ref)(float) = i == 2 ? tan_d : i ? cosf : sinf;
    CHECK(isnan(at(f, INFINITY)) && isnan(at(f, -INFINITY)) && isnan(at(f, NAN)));
    const float huge[] = {0x1p20f, 1e30f, -3.4e38f, 123456789.0f};
    for (size_t j = 0; j < sizeof huge / sizeof huge[0]; j++) /* beyond the reduction: libm */
      CHECKF(at(f, huge[j]) == ref(huge[j]), "%s(%a)",
             i == 2 ? "tan"
             : i    ? "cos"
                    : "sin",
             (double)huge[j]);
  }
  CHECK(isnan(at(lt_vmath_sqrt_f32, -1)));
  float sq = at(lt_vmath_sqrt_f32, -0.0f);
  CHECK(sq == 0 && signbit(sq));
  CHECK(at(lt_vmath_sqrt_f32, INFINITY) == INFINITY);
  /* lt_funcs.c's */
  CHECK(at(lt_vmath_sigmoid_f32, INFINITY) == 1 && at(lt_vmath_sigmoid_f32, -INFINITY) == 0);
  CHECK(at(lt_vmath_sigmoid_f32, 0) == 0.5f && isnan(at(lt_vmath_sigmoid_f32, NAN)));
  CHECK(at(lt_vmath_silu_f32, INFINITY) == INFINITY && isnan(at(lt_vmath_silu_f32, -INFINITY)));
  CHECK(at(lt_vmath_gelu_f32, INFINITY) == INFINITY && isnan(at(lt_vmath_gelu_f32, -INFINITY)));
  CHECK(at(lt_vmath_expm1_f32, INFINITY) == INFINITY && at(lt_vmath_expm1_f32, -INFINITY) == -1);
  CHECK(at(lt_vmath_expm1_f32, 89) == INFINITY && isnan(at(lt_vmath_expm1_f32, NAN)));
  float em = at(lt_vmath_expm1_f32, -0.0f), lm = at(lt_vmath_log1p_f32, -0.0f);
  float ez = at(lt_vmath_erf_f32, -0.0f);
  CHECK(em == 0 && signbit(em));
  CHECK(lm == 0 && signbit(lm));
  CHECK(ez == 0 && signbit(ez));
  CHECK(at(lt_vmath_log1p_f32, -1) == -INFINITY && isnan(at(lt_vmath_log1p_f32, -2)));
  CHECK(at(lt_vmath_log1p_f32, INFINITY) == INFINITY && isnan(at(lt_vmath_log1p_f32, -INFINITY)));
  CHECK(at(lt_vmath_log1p_f32, 1e-30f) == 1e-30f);
  CHECK(at(lt_vmath_erf_f32, INFINITY) == 1 && at(lt_vmath_erf_f32, -INFINITY) == -1);
  CHECK(at(lt_vmath_erfc_f32, INFINITY) == 0 && at(lt_vmath_erfc_f32, -INFINITY) == 2);
  CHECK(isnan(at(lt_vmath_erf_f32, NAN)) && isnan(at(lt_vmath_erfc_f32, NAN)));
  CHECK(at(lt_vmath_erfc_f32, 10.5f) == 0 && at(lt_vmath_erfc_f32, 9.0f) == (float)erfc(9.0));
  /* exp2 .. atan */
  CHECK(at(lt_vmath_exp2_f32, INFINITY) == INFINITY && at(lt_vmath_exp2_f32, -INFINITY) == 0);
  CHECK(at(lt_vmath_exp2_f32, 128) == INFINITY && at(lt_vmath_exp2_f32, -150) == 0);
  CHECK(at(lt_vmath_exp2_f32, -149) == 0x1p-149f && at(lt_vmath_exp2_f32, 127) == 0x1p127f);
  CHECK(at(lt_vmath_exp2_f32, -0.0f) == 1 && isnan(at(lt_vmath_exp2_f32, NAN)));
  for (int i = 0; i < 2; i++) {
    vfn f = i ? lt_vmath_log10_f32 : lt_vmath_log2_f32;
    CHECK(at(f, 0) == -INFINITY && at(f, -0.0f) == -INFINITY && at(f, INFINITY) == INFINITY);
    CHECK(isnan(at(f, -1)) && isnan(at(f, -INFINITY)) && isnan(at(f, NAN)) && at(f, 1) == 0);
  }
  CHECK(at(lt_vmath_log2_f32, 0x1p-149f) == -149 && at(lt_vmath_log2_f32, 0x1p100f) == 100);
  for (int k = 0; k <= 10; k++) /* powers of ten exactly */
    CHECKF(at(lt_vmath_log10_f32, (float)pow(10, k)) == (float)k, "log10(1e%d)", k);
  CHECK(at(lt_vmath_sinh_f32, INFINITY) == INFINITY &&
        at(lt_vmath_sinh_f32, -INFINITY) == -INFINITY);
  CHECK(at(lt_vmath_sinh_f32, 90) == INFINITY && at(lt_vmath_sinh_f32, -90) == -INFINITY);
  CHECK(at(lt_vmath_cosh_f32, INFINITY) == INFINITY &&
        at(lt_vmath_cosh_f32, -INFINITY) == INFINITY);
  CHECK(at(lt_vmath_cosh_f32, -90) == INFINITY && at(lt_vmath_cosh_f32, -0.0f) == 1);
  CHECK(isnan(at(lt_vmath_sinh_f32, NAN)) && isnan(at(lt_vmath_cosh_f32, NAN)));
  CHECK(at(lt_vmath_acosh_f32, 1) == 0 && at(lt_vmath_acosh_f32, INFINITY) == INFINITY);
  CHECK(isnan(at(lt_vmath_acosh_f32, 0.999f)) && isnan(at(lt_vmath_acosh_f32, -INFINITY)));
  CHECK(isnan(at(lt_vmath_acosh_f32, NAN)) && isnan(at(lt_vmath_acosh_f32, 0)));
  CHECK(at(lt_vmath_asin_f32, 1) == (float)PI_2 && at(lt_vmath_asin_f32, -1) == -(float)PI_2);
  CHECK(at(lt_vmath_acos_f32, 1) == 0 && at(lt_vmath_acos_f32, -1) == (float)PI_1);
  CHECK(at(lt_vmath_acos_f32, 0) == (float)PI_2 && at(lt_vmath_acos_f32, -0.0f) == (float)PI_2);
  CHECK(at(lt_vmath_atan_f32, INFINITY) == (float)PI_2);
  CHECK(at(lt_vmath_atan_f32, -INFINITY) == -(float)PI_2);
  for (int i = 0; i < 3; i++) {
    vfn f = i == 0 ? lt_vmath_asin_f32 : i == 1 ? lt_vmath_acos_f32 : lt_vmath_atan_f32;
    CHECK(isnan(at(f, NAN)));
    if (i < 2) CHECK(isnan(at(f, 1.0000001f)) && isnan(at(f, -2)) && isnan(at(f, INFINITY)));
  }
  CHECK(at(lt_vmath_asinh_f32, INFINITY) == INFINITY &&
        at(lt_vmath_asinh_f32, -INFINITY) == -INFINITY);
  CHECK(isnan(at(lt_vmath_asinh_f32, NAN)) && isnan(at(lt_vmath_atanh_f32, NAN)));
  CHECK(at(lt_vmath_atanh_f32, 1) == INFINITY && at(lt_vmath_atanh_f32, -1) == -INFINITY);
  CHECK(isnan(at(lt_vmath_atanh_f32, 1.0000001f)) && isnan(at(lt_vmath_atanh_f32, -INFINITY)));
  const vfn odd[] = {lt_vmath_sinh_f32, lt_vmath_asin_f32, lt_vmath_atan_f32, lt_vmath_asinh_f32,
                     lt_vmath_atanh_f32};
  for (int i = 0; i < 5; i++) {
    float z = at(odd[i], -0.0f), p = at(odd[i], 0.0f);
    CHECKF(z == 0 && signbit(z) && p == 0 && !signbit(p), "odd function %d at -0 and 0", i);
  }
}

/* {====== binary: hypot, fmod, remainder ====== */

typedef void (*vfn2)(float *, const float *, const float *, int64_t);

/* torch's remainder of floats, as lt_math.c computed it before: fmod, plus b where the signs
   differ, in double, rounded once. */
static float rem_ref(float a, float b) {
  double r = fmod((double)a, (double)b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return (float)r;
}

static int same_float(float y, float want) {
  return (isnan(y) && isnan(want)) || (y == want && !signbit(y) == !signbit(want));
}

/* Pairs: a every 97th bit pattern; b either a pseudo-random bit pattern (the blocks then go to
   libm) or a times a factor in [2^-24, 2^22] (the exact path, blocks without libm); fmod and
   remainder must give libm's result exactly, hypot within LT_VMATH_MAX_ULP of double hypot. */
static void sweep2(void) {
  static float a[BLOCK], b[BLOCK], y[BLOCK];
  static const struct {
    const char *name;
    vfn2 f;
  } f2[] = {{"hypot", lt_vmath_hypot_f32},
            {"fmod", lt_vmath_fmod_f32},
            {"remainder", lt_vmath_remainder_f32},
            {"atan2", lt_vmath_atan2_f32}};
  for (int mode = 0; mode < 2; mode++) {
    double worst = 0, worst_atan2 = 0;
    uint64_t bits = 0;
    uint32_t st = 2463534242u;
    long mismatches[4] = {0, 0, 0, 0};
    while (bits <= UINT32_MAX) {
      int n = 0;
      for (; n < BLOCK && bits <= UINT32_MAX; n++, bits += sweep_step) {
        st ^= st << 13;
        st ^= st >> 17;
        st ^= st << 5;
        a[n] = from_bits((uint32_t)bits);
        if (mode == 0) {
          b[n] = from_bits(st);
        } else {
          float fa = isfinite(a[n]) && a[n] != 0 ? a[n] : 1.5f;
          float fb = fa * ldexpf(1.0f + (float)(st >> 8) * 0x1p-24f, (int)(st % 47) - 24);
          b[n] = fb != 0 && isfinite(fb) ? fb : 1.0f;
          if (!(fabsf(a[n]) < 0x1p23f * fabsf(b[n]))) b[n] = a[n] != 0 ? a[n] : 1.0f;
        }
      }
      for (int k = 0; k < 4; k++) {
        f2[k].f(y, a, b, n);
        for (int i = 0; i < n; i++) {
          if (k == 0 || k == 3) {
            double ref = k ? atan2((double)a[i], (double)b[i]) : hypot((double)a[i], (double)b[i]);
            double e = ulp_error(y[i], ref);
            double *w = k ? &worst_atan2 : &worst;
            *w = e > *w ? e : *w;
            if (!(e <= LT_VMATH_MAX_ULP) && mismatches[k]++ < 5)
              CHECKF(0, "%s(%a, %a) = %a: %.3f ulp", f2[k].name, (double)a[i], (double)b[i],
                     (double)y[i], e);
          } else {
            float want = k == 1 ? fmodf(a[i], b[i]) : rem_ref(a[i], b[i]);
            if (!same_float(y[i], want) && mismatches[k]++ < 5)
              CHECKF(0, "%s(%a, %a) = %a, want %a", f2[k].name, (double)a[i], (double)b[i],
                     (double)y[i], (double)want);
          }
        }
      }
    }
    for (int k = 0; k < 4; k++)
      CHECKF(mismatches[k] == 0, "%s: %ld wrong (%s pairs)", f2[k].name, mismatches[k],
             mode ? "exact-path" : "random");
    printf("hypot   max error %.4f ulp, atan2 %.4f (%s pairs); fmod and remainder exact\n", worst,
           worst_atan2, mode ? "exact-path" : "random");
  }
}

static float at2(vfn2 f, float u, float v) {
  float a[19], b[19], y[19];
  for (int i = 0; i < 19; i++) a[i] = u, b[i] = v;
  f(y, a, b, 19);
  return y[18];
}

static void specials2(void) {
  CHECK(at2(lt_vmath_hypot_f32, INFINITY, NAN) == INFINITY);
  CHECK(at2(lt_vmath_hypot_f32, NAN, -INFINITY) == INFINITY);
  CHECK(isnan(at2(lt_vmath_hypot_f32, NAN, 1)));
  CHECK(at2(lt_vmath_hypot_f32, 3, 4) == 5 && at2(lt_vmath_hypot_f32, 3e38f, 3e38f) == INFINITY);
  float hz = at2(lt_vmath_hypot_f32, -0.0f, -0.0f);
  CHECK(hz == 0 && !signbit(hz));
  const float zi[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1.0f, -1.0f, 0x1p-149f, NAN};
  for (int i = 0; i < 8; i++) /* atan2 at the signed zeros and infinities: C's */
    for (int j = 0; j < 8; j++)
      CHECKF(same_float(at2(lt_vmath_atan2_f32, zi[i], zi[j]), atan2f(zi[i], zi[j])),
             "atan2(%a, %a)", (double)zi[i], (double)zi[j]);
  const float sp[] = {0.0f,     -0.0f,     1.0f, -1.0f, 2.5f,    -7.25f,  0x1p-149f,     3e38f,
                      INFINITY, -INFINITY, NAN,  1e30f, -1e-30f, 0x1p23f, 0x1.fffffep22f};
  int n = (int)(sizeof sp / sizeof sp[0]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float u = sp[i], v = sp[j];
      CHECKF(same_float(at2(lt_vmath_fmod_f32, u, v), fmodf(u, v)), "fmod(%a, %a)", (double)u,
             (double)v);
      CHECKF(same_float(at2(lt_vmath_remainder_f32, u, v), rem_ref(u, v)), "remainder(%a, %a)",
             (double)u, (double)v);
    }
  /* the quotient's rounding at an integer: a just below and above multiples of b */
  for (int q = 1; q < 1000; q += 7)
    for (int d = -2; d <= 2; d++) {
      float v = 0.1f, u = nextafterf((float)q * v, d < 0 ? 0.0f : INFINITY);
      for (int s = 0; s < (d < 0 ? -d : d); s++) u = nextafterf(u, d < 0 ? 0.0f : INFINITY);
      CHECKF(same_float(at2(lt_vmath_fmod_f32, u, v), fmodf(u, v)), "fmod(%a, 0.1)", (double)u);
      CHECKF(same_float(at2(lt_vmath_fmod_f32, -u, v), fmodf(-u, v)), "fmod(%a, 0.1)", (double)-u);
      CHECKF(same_float(at2(lt_vmath_remainder_f32, -u, v), rem_ref(-u, v)), "remainder(%a, 0.1)",
             (double)-u);
    }
}

/* }====== */

/* In place (y == x) and at every length and misalignment of the run. */
static void in_place_and_tails(void) {
  float x[300], y[300], z[300];
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    for (int i = 0; i < 300; i++) x[i] = z[i] = (float)(i - 150) * 0.37f;
    fns[k].f(y, x, 300);
    fns[k].f(z, z, 300);
    CHECKF(memcmp(y, z, sizeof y) == 0, "%s in place", fns[k].name);
    for (int off = 0; off < 4; off++)
      for (int n = 0; n < 100; n++) { /* the masked tail, the 16 and 32 float steps, the two */
        float w[100];                 /* stages of lt_vmath_funcs512.c (from 64 floats on) */
        fns[k].f(w, x + off, n);
        CHECKF(memcmp(w, y + off, (size_t)n * sizeof(float)) == 0, "%s n=%d off=%d", fns[k].name, n,
               off); /* the same bits, NaN included */
      }
  }
}

/* lt_unary on a contiguous float32 tensor runs the kernels (within LT_VMATH_MAX_ULP); on a
   strided one libm per element (within the project's 2 ulp). */
static void through_lt_unary(void) {
  static const lt_func ops[] = {LT_EXP, LT_LOG, LT_TANH, LT_SIN, LT_COS, LT_SQRT};
  lt_tensor *t = make(LT_FLOAT32, 1, A(1000));
  float *p = (float *)(void *)lt_data(t);
  for (int i = 0; i < 1000; i++) p[i] = (float)(i + 1) * 0.01f;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    lt_tensor *r, *sv, *rs;
    CHECK_OK(lt_unary(ops[k], t, NULL, &r, &err));
    CHECK_OK(lt_slice(t, 0, 0, 500, 2, &sv, &err));
    CHECK_OK(lt_unary(ops[k], sv, NULL, &rs, &err));
    const float *q = (const float *)(const void *)lt_data(r);
    const float *qs = (const float *)(const void *)lt_data(rs);
    for (int i = 0; i < 1000; i++)
      CHECKF(ulp_error(q[i], fns[k].ref((double)p[i])) <= LT_VMATH_MAX_ULP, "lt_unary %s(%a)",
             fns[k].name, (double)p[i]);
    for (int i = 0; i < 500; i++)
      CHECKF(ulp_error(qs[i], fns[k].ref((double)p[2 * i])) <= 2, "strided %s (libm)", fns[k].name);
    lt_tensor_free(r);
    lt_tensor_free(rs);
    lt_tensor_free(sv);
  }
  lt_tensor_free(t);
}

/* {====== tan: dense ranges, the kernel's limits, huge arguments beside small ones ====== */

#define LT_TAN_MAX_ULP 0.5001

/* Every float with bits in [lo, hi) (positive) and every 7th negated, through lt_vmath_tan_f32,
   within LT_TAN_MAX_ULP of double libm's tan: the largest error. */
static double tan_dense(uint32_t lo, uint32_t hi) {
  static float x[BLOCK], y[BLOCK];
  double worst = 0;
  for (uint32_t b0 = lo; b0 < hi; b0 += BLOCK) {
    int n = 0;
    for (uint32_t b = b0; n < BLOCK && b < hi; b++, n++)
      x[n] = (b - lo) % 7 ? from_bits(b) : -from_bits(b);
    lt_vmath_tan_f32(y, x, n);
    for (int i = 0; i < n; i++) {
      double e = ulp_error(y[i], tan((double)x[i]));
      worst = e > worst ? e : worst;
      if (!(e <= LT_TAN_MAX_ULP))
        CHECKF(0, "tan(%a) = %a, libm %a: %.5f ulp", (double)x[i], (double)y[i], tan((double)x[i]),
               e);
    }
  }
  return worst;
}

/* Every float of [1, 2) (the quadrant beyond pi/2, -1/tan r for small r), of [2^20, 2^21) and
   [2^29, 2^30) (inside the AVX-512 kernel's reduction, beyond the other paths'), and the first
   2^20 from 2^30 on (libm's on every path); then arguments for libm (|x| >= 2^30, inf, NaN) in
   the same blocks of 16 as others, each lane its own value; subnormals and signed zeros. */
static void tan_checks(void) {
  double w = tan_dense(0x3f800000u, 0x40000000u);
  double w2 = tan_dense(0x49800000u, 0x4a000000u);
  w2 = fmax(w2, tan_dense(0x4e000000u, 0x4e800000u));
  w2 = fmax(w2, tan_dense(0x4e800000u, 0x4e900000u));
  printf("tan     max error %.5f ulp on [1, 2), %.5f on [2^20, 2^21) and [2^29, 1.125 2^30)\n", w,
         w2);
  static const float odd[] = {0x1p30f, -1e30f,    3.4e38f, INFINITY, 0x1.fffffep29f,
                              NAN,     -INFINITY, 1e10f,   -0.0f,    0x1p-149f};
  float x[53], y[53];
  for (int i = 0; i < 53; i++) x[i] = i % 4 == 1 ? odd[(i / 4) % 10] : (float)(i - 26) * 0.7f;
  lt_vmath_tan_f32(y, x, 53);
  for (int i = 0; i < 53; i++)
    CHECKF(ulp_error(y[i], tan((double)x[i])) <= LT_TAN_MAX_ULP,
           "tan(%a) in a mixed block = %a, libm %a", (double)x[i], (double)y[i], tan((double)x[i]));
  CHECK(same_float(at(lt_vmath_tan_f32, -0x1p-149f), -0x1p-149f));
  CHECK(same_float(at(lt_vmath_tan_f32, 0.0f), 0.0f));
  CHECK(same_float(at(lt_vmath_tan_f32, -0.0f), -0.0f));
}

/* }====== */

/* {====== float64 ====== */

#define LT_VMATH64_MAX_ULP 2.0

static const struct {
  const char *name;
  void (*f)(double *, const double *, int64_t);
  long double (*ref)(long double);
} fns64[] = {
    {"exp", lt_vmath_exp_f64, expl},
    {"log", lt_vmath_log_f64, logl},
    {"sqrt", lt_vmath_sqrt_f64, sqrtl},
};

/* The error of y in ulps of the double nearest ref (long double libm), as ulp_error. */
static long double ulp_error64(double y, long double ref) {
  double want = (double)ref;
  if (isnan(want)) return isnan(y) ? 0 : INFINITY;
  if (isinf(want)) return y == want ? 0 : INFINITY;
  if (isinf(y) || isnan(y)) return INFINITY;
  if (ref == 0) return y == 0 && !signbit(y) == !signbit(ref) ? 0 : INFINITY;
  long double ulp = fabsl(ref) < 0x1p-1022L ? 0x1p-1074L : ldexpl(1.0L, ilogbl(ref) - 52);
  return fabsl((long double)y - ref) / ulp;
}

/* 4M arguments per function from a fixed xorshift sequence: half arbitrary bit patterns (every
   exponent, both signs, subnormals, inf, NaN), half spread over the range that matters (exp: up
   to +-750 and densely near 0; log and sqrt: (0, 4)). */
static void sweep64(int k) {
  static double x[BLOCK], y[BLOCK];
  uint64_t st = 88172645463325252u;
  long double worst = 0;
  double worst_x = 0;
  for (int blk = 0; blk < 1024; blk++) {
    for (int i = 0; i < BLOCK; i++) {
      st ^= st << 13;
      st ^= st >> 7;
      st ^= st << 17;
      double u = (double)(st >> 11) * 0x1p-53;
      if (i & 1)
        x[i] = k ? u * 4 : (u - 0.5) * 1500.0 / (1 + (i % 7) * 30);
      else
        memcpy(&x[i], &st, sizeof st);
    }
    fns64[k].f(y, x, BLOCK);
    for (int i = 0; i < BLOCK; i++) {
      long double e = ulp_error64(y[i], fns64[k].ref((long double)x[i]));
      if (e > worst) {
        worst = e;
        worst_x = x[i];
      }
      if (!(e <= LT_VMATH64_MAX_ULP))
        CHECKF(0, "float64 %s(%a) = %a: %.3Lf ulp", fns64[k].name, x[i], y[i], e);
    }
  }
  CHECKF(worst <= LT_VMATH64_MAX_ULP, "float64 %s: max error %.4Lf ulp", fns64[k].name, worst);
  printf("float64 %-4s max error %.4Lf ulp (at %a)\n", fns64[k].name, worst, worst_x);
}

static void specials64(void) {
  CHECK_EXACT(f64, at64, double);
  CHECK(ulp_error64(at64(lt_vmath_exp_f64, -740), expl(-740.0L)) <= 1); /* subnormal */
  CHECK(ulp_error64(at64(lt_vmath_exp_f64, 709.78), expl((long double)709.78)) <=
        2);                                                                     /* near DBL_MAX */
  CHECK(ulp_error64(at64(lt_vmath_log_f64, 0x1p-1074), logl(0x1p-1074L)) <= 1); /* subnormal */
  CHECK(isnan(at64(lt_vmath_sqrt_f64, -1)));
  double sq = at64(lt_vmath_sqrt_f64, -0.0);
  CHECK(sq == 0 && signbit(sq));
}

/* }====== */

/* The vector paths (lt_vmath_f32_path): each the processor has exists, the others and unknown
   names do not; every path of exp, log, tanh, sin and cos agrees with the one in use within 1
   ulp on every 997th bit pattern; and the uncontracted log, sin and cos (lt_vmath_nc.c) give the
   plain path's bits exactly, whatever path is in use. */
static void paths(void) {
  static const char *const names[] = {"exp", "log", "tanh", "sin", "cos"};
  int top = lt_cpu_level_max();
  CHECK(lt_cpu_level() <= top);
  CHECK(lt_vmath_f32_path("exp", top + 1) == NULL);
  CHECK(lt_vmath_f32_path("exp", -1) == NULL);
  CHECK(lt_vmath_f32_path("nope", LT_CPU_SCALAR) == NULL);
  CHECK(lt_vmath_f64_path("exp", top + 1) == NULL);
  CHECK(lt_vmath_f64_path("tanh", LT_CPU_SCALAR) == NULL);
  for (int l = LT_CPU_SCALAR; l <= top; l++) CHECK(lt_vmath_f64_path("log", l) != NULL);
  const vfn nc[] = {NULL, lt_vmath_log_nc_f32, NULL, lt_vmath_sin_nc_f32, lt_vmath_cos_nc_f32};
  float *x = malloc(BLOCK * sizeof *x), *y = malloc(BLOCK * sizeof *y),
        *z = malloc(BLOCK * sizeof *z);
  if (!x || !y || !z) {
    CHECK(!"memory");
    free(x);
    free(y);
    free(z);
    return;
  }
  for (int f = 0; f < 5; f++) {
    int bad = 0, bad_nc = 0;
    for (uint64_t b0 = 0; b0 < 0x100000000u; b0 += (uint64_t)997 * BLOCK) {
      int m = 0;
      for (uint64_t b = b0; m < BLOCK && b < 0x100000000u; b += 997)
        x[m++] = from_bits((uint32_t)b);
      lt_vmath_f32_path(names[f], LT_CPU_SCALAR)(y, x, m);
      if (nc[f]) {
        nc[f](z, x, m);
        bad_nc += memcmp(y, z, (size_t)m * sizeof *y) != 0;
      }
      for (int l = LT_CPU_SCALAR + 1; l <= top; l++) {
        lt_vmath_f32_path(names[f], l)(z, x, m);
        for (int i = 0; i < m; i++) bad += ulp_error(z[i], (double)y[i]) > 1.0;
      }
    }
    CHECKF(bad == 0, "%s: %d values of the vector paths more than 1 ulp from the plain one",
           names[f], bad);
    CHECKF(bad_nc == 0, "%s: %d blocks where lt_vmath_nc.c's differ from the plain path", names[f],
           bad_nc);
  }
  free(x);
  free(y);
  free(z);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--step") == 0 && atoi(argv[2]) > 0)
    sweep_step = (uint64_t)atoi(argv[2]);
  paths();
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) sweep((int)k);
  specials();
  in_place_and_tails();
  through_lt_unary();
  sweep2();
  specials2();
  tan_checks();
  for (size_t k = 0; k < sizeof fns64 / sizeof fns64[0]; k++) sweep64((int)k);
  specials64();
  return tu_finish("test_vmath");
}
