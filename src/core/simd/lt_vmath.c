/*
 * lt_vmath.c -- vectorized float32 exp, log, tanh, sin, cos, tan and sqrt, and float64 exp, log
 * and sqrt (see lt_vmath.h). lt_vmath_funcs.c has the other float32 functions of lt_funcs.c and
 * remainder, built the same way on the shared reductions of lt_vmath_impl.h.
 *
 * Each function is one plain C loop that GCC vectorizes (this file is compiled with -O3,
 * -fno-math-errno, -fno-trapping-math, which lets GCC turn the selects into blends, and
 * -ffp-contract=fast). On x86-64 with GCC or clang the loop is compiled three times
 * (lt_simd.h): for the baseline (SSE2), for x86-64-v3 (AVX2 + FMA) and for x86-64-v4 (AVX-512,
 * 512-bit vectors under GCC), and each call runs the one lt_cpu_level() names (the processor's
 * widest, capped by LTENSOR_SIMD). No intrinsics: another compiler or processor gets the same
 * C, scalar or vectorized as it can. The paths agree within the bounds below, not bit for bit
 * (FMA contraction on the wider ones); lt_vmath_nc.c compiles log, sin and cos without it.
 *
 * Each float is widened to double and the function evaluated in double with a range reduction
 * and a polynomial whose error (below 1e-10 relative) is far under a float's half ulp, then
 * rounded once to float; so the result is within 1 ulp (the rounding, plus the rare case where
 * the double value lies within 1e-10 of a midpoint between two floats). Integers travel as the
 * bits of doubles (the 0x1.8p52 shift), so no loop needs a double-to-integer conversion.
 *   exp:  x = n ln2 + r, |r| <= ln2/2; exp(r) - 1 by its Taylor series to r^9; scaled by the
 *         double 2^n (float subnormals and overflow to inf come out of the one rounding).
 *   log:  x = 2^e m, m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m - 1) / (m + 1), odd
 *         series to s^11; float subnormals are normal doubles.
 *   tanh: expm1(2|x|) as for exp, kept relative for small x (2^n expm1(r) + (2^n - 1)); then
 *         e / (e + 2) with x's sign.
 *   sin, cos: x = q pi/2 + r by a three-part pi/2 (32 + 32 + 53 bits: q * part exact for
 *         |x| < 2^20), then the sine and cosine series of r to r^11 and r^12 and q's quadrant.
 *         |x| >= 2^20, inf and NaN go to libm's sinf/cosf (a block of 256 that holds one runs
 *         libm for the whole block). tan (for lt_funcs.c) is sin r / cos r or -cos r / sin r
 *         from the same reduction, libm's double tan rounded once beyond it (the AVX-512 path:
 *         lt_vmath_funcs512.c's kernel).
 *   sqrt: the instruction (sqrtf without errno), correctly rounded.
 * Special values are libm's: exp(+-inf) = inf, 0; exp overflows to inf and underflows to 0;
 * log(0) = -inf, log(x < 0) = NaN, log(inf) = inf; tanh(+-inf) = +-1; NaN propagates; signed
 * zeros keep their sign (exp(-0) = 1, log(-0) = -inf).
 *
 * Measured by spec/c/test_vmath.c (every 97th float32 bit pattern, against double libm), the
 * largest error in ulp: exp 0.5001, log 0.5004, tanh 0.5002, sqrt 0.5000, tan 0.5001, sin 0.5606
 * and cos 0.5605 -- those two in glibc's sinf/cosf, which the blocks holding |x| >= 2^20 use; the
 * reduced arguments stay within 0.5001. The test fails above 1 ulp; the project's bound is 2.
 *
 * float64 exp, log and sqrt work the same way one precision up, without a wider type: exp
 * reduces with a two-part ln2 (k * LN2_HI exact) and sums expm1(r) to r^13, scaling by 2^k in
 * two steps (subnormal results, overflow); log scales subnormals up by 2^54 and sums log(1 + f)
 * = f - s (f - R) with R to z^11. Measured against long double libm on 4M arguments each: exp
 * 0.9316 ulp, log 0.8296, sqrt 0.5 (the test fails above 2). float64 tanh, sin and cos stay
 * libm's (a float64 tanh this way reached 2.45 ulp).
 */
#include "lt_vmath.h"

#include "lt_vmath_impl.h"

static LT_VINLINE void exp_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf;
    v = v > -104.0 ? v : -104.0; /* exp(-104) rounds to 0 in float; NaN becomes -104 here */
    v = v < 89.0 ? v : 89.0;     /* exp(89) overflows float */
    double scale, p = reduce_exp(v, &scale);
    double e = scale + scale * p;
    e = e >= 0x1.ffffffp127 ? (double)INFINITY : e; /* FLT_MAX + half an ulp rounds to inf */
    float r = (float)e;
    y[i] = xf == xf ? r : xf;
  }
}

static LT_VINLINE void tanh_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double a = fabs((double)xf);
    a = a < 20.0 ? a : 20.0; /* tanh(20) rounds to 1; NaN becomes 20 here */
    double scale, p = reduce_exp(2 * a, &scale);
    double em1 = scale * p + (scale - 1); /* expm1(2a), relative for small a too */
    float r = (float)copysign(em1 / (em1 + 2), (double)xf);
    y[i] = xf == xf ? r : xf;
  }
}

static LT_VINLINE void sin_f32_b(float *y, const float *x, int64_t n) { trig_f32(y, x, n, 0); }

/* tan from the same reduction: sin r / cos r in an even quadrant, -cos r / sin r in an odd one
   (x near an odd multiple of pi/2, where r is small and sin r relative); blocks holding |x| >=
   2^20, inf or NaN go to libm's double tan, rounded once (glibc's tanf is 1.37 ulp off there). */
static LT_VINLINE void tan_f32_b(float *y, const float *x, int64_t n) {
  for (int64_t i0 = 0; i0 < n; i0 += TRIG_BLOCK) {
    int64_t len = n - i0 < TRIG_BLOCK ? n - i0 : TRIG_BLOCK;
    const float *xb = x + i0;
    float *yb = y + i0;
    if (trig_beyond(xb, len)) {
      for (int64_t j = 0; j < len; j++) yb[j] = (float)tan((double)xb[j]);
      continue;
    }
    LT_VIVDEP for (int64_t j = 0; j < len; j++) {
      uint64_t q;
      double s, c;
      reduce_trig(xb[j], &q, &s, &c);
      float r = (float)(q & 1 ? -c / s : s / c);
      yb[j] = xb[j] == 0 ? xb[j] : r; /* tan(-0) = -0 */
    }
  }
}

static LT_VINLINE void cos_f32_b(float *y, const float *x, int64_t n) { trig_f32(y, x, n, 1); }

static LT_VINLINE void sqrt_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) y[i] = sqrtf(x[i]);
}

/* {====== float64 ====== */

#define LN2_HI 0x1.62e42feep-1 /* ln2 = LN2_HI + LN2_LO; k * LN2_HI is exact for |k| < 2^20 */
#define LN2_LO 0x1.a39ef35793c76p-33

/* 2^k for an integer k in [-1022, 1023] held as a double: through the SHIFT bits. */
static inline double pow2i(double k) { return double_of((bits_of(k + SHIFT) + 1023) << 52); }

/* expm1(r) for |r| <= ln2/2 + a little, Taylor to r^13 (truncation below 1e-17 relative). */
static inline double expm1_poly64(double r) {
  double z = r * r;
  double q =
      1.0 / 6 +
      r * (1.0 / 24 +
           r * (1.0 / 120 +
                r * (1.0 / 720 +
                     r * (1.0 / 5040 +
                          r * (1.0 / 40320 +
                               r * (1.0 / 362880 + r * (1.0 / 3628800 +
                                                        r * (1.0 / 39916800 +
                                                             r * (1.0 / 479001600 +
                                                                  r * (1.0 / 6227020800.0))))))))));
  return r + (z * 0.5 + z * r * q);
}

/* v = k ln2 + r (two-part ln2): returns r, *k the integer k as a double. */
static inline double reduce_exp64(double v, double *k) {
  *k = (v * LOG2E + SHIFT) - SHIFT;
  return (v - *k * LN2_HI) - *k * LN2_LO;
}

static LT_VINLINE void exp_f64_b(double *y, const double *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    double xv = x[i];
    double v = xv > -746.0 ? xv : -746.0; /* exp(-746) rounds to 0; NaN becomes -746 here */
    v = v < 710.0 ? v : 710.0;            /* exp(710) overflows */
    double k, r = reduce_exp64(v, &k);
    double k1 = (k * 0.5 + SHIFT) - SHIFT, k2 = k - k1; /* 2^k in two steps: subnormals, inf */
    double e = ((1 + expm1_poly64(r)) * pow2i(k1)) * pow2i(k2);
    y[i] = xv == xv ? e : xv;
  }
}

static LT_VINLINE void log_f64_b(double *y, const double *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    double xv = x[i];
    int sub = xv < 0x1p-1022; /* subnormal (or not positive): scaled to a normal number */
    uint64_t u = bits_of(sub ? xv * 0x1p54 : xv);
    double e = double_of(0x4330000000000000u | ((u >> 52) & 0x7ff)) - (0x1p52 + 1023);
    e = sub ? e - 54 : e;
    double m = double_of((u & 0x000fffffffffffffu) | 0x3ff0000000000000u); /* [1, 2) */
    int big = m > SQRT2;
    m = big ? m * 0.5 : m;
    e = big ? e + 1 : e;
    /* log(1 + f) = 2 atanh(s) = f - s (f - R), s = f / (2 + f), R = 2 (z/3 + z^2/5 + ...) */
    double f = m - 1, s = f / (2 + f), z = s * s;
    double R =
        z *
        (2.0 / 3 +
         z * (2.0 / 5 +
              z * (2.0 / 7 +
                   z * (2.0 / 9 + z * (2.0 / 11 +
                                       z * (2.0 / 13 +
                                            z * (2.0 / 15 +
                                                 z * (2.0 / 17 +
                                                      z * (2.0 / 19 +
                                                           z * (2.0 / 21 + z * (2.0 / 23)))))))))));
    double r = e * LN2_HI + ((e * LN2_LO - s * (f - R)) + f);
    r = xv == INFINITY ? xv : r;
    r = xv == 0 ? -INFINITY : r;
    r = xv < 0 ? NAN : r;
    y[i] = xv == xv ? r : xv;
  }
}

static LT_VINLINE void sqrt_f64_b(double *y, const double *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) y[i] = sqrt(x[i]);
}

/* }====== */

/* The public functions: each body above compiled per vector path (lt_simd.h), the level in
   use picking one per call. */
LT_VMATH_UN(exp_f32, float)
LT_VMATH_UN(log_f32, float)
LT_VMATH_UN(tanh_f32, float)
LT_VMATH_UN(sin_f32, float)
LT_VMATH_UN512(tan_f32)
LT_VMATH_UN(cos_f32, float)
LT_VMATH_UN(sqrt_f32, float)
LT_VMATH_UN(exp_f64, double)
LT_VMATH_UN(log_f64, double)
LT_VMATH_UN(sqrt_f64, double)

#if LT_SIMD_X86
#define PATHS(NAME) \
  { NAME##_c, NAME##_avx2, NAME##_avx512 }
#else
#define PATHS(NAME) \
  { NAME##_c, NULL, NULL }
#endif

lt_vmath_f32_fn lt_vmath_f32_path(const char *name, int level) {
  static const struct {
    const char *name;
    lt_vmath_f32_fn fn[3];
  } t[] = {{"exp", PATHS(exp_f32)},
           {"log", PATHS(log_f32)},
           {"tanh", PATHS(tanh_f32)},
           {"sin", PATHS(sin_f32)},
           {"cos", PATHS(cos_f32)}};
  if (level < LT_CPU_SCALAR || level > lt_cpu_level_max()) return NULL;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(t[i].name, name) == 0) return t[i].fn[level];
  return NULL;
}

lt_vmath_f64_fn lt_vmath_f64_path(const char *name, int level) {
  static const struct {
    const char *name;
    lt_vmath_f64_fn fn[3];
  } t[] = {{"exp", PATHS(exp_f64)}, {"log", PATHS(log_f64)}};
  if (level < LT_CPU_SCALAR || level > lt_cpu_level_max()) return NULL;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(t[i].name, name) == 0) return t[i].fn[level];
  return NULL;
}
