/*
 * lt_vmath.c -- vectorized float32 exp, log, tanh, sin, cos and sqrt, and float64 exp, log and
 * sqrt (see lt_vmath.h); float32 sigmoid, silu, expm1, log1p, erf, erfc, gelu, exp2, log2,
 * log10, sinh, cosh, asinh, acosh, atanh, asin, acos, atan, tan, atan2, hypot and fmod for
 * lt_funcs.c, and remainder for lt_math.c.
 *
 * Each function is one plain C loop that GCC vectorizes (this file is compiled with -O3,
 * -fno-math-errno, -fno-trapping-math, which lets GCC turn the selects into blends, and
 * -ffp-contract=fast; on x86-64 with GCC each loop is also cloned for
 * x86-64-v3, AVX2 + FMA, picked at load time, with the baseline SSE2 loop as the fallback
 * elsewhere). No intrinsics: another compiler or processor gets the same C, scalar or
 * vectorized as it can.
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
 *         from the same reduction, libm's double tan rounded once beyond it.
 *   sqrt: the instruction (sqrtf without errno), correctly rounded.
 * Special values are libm's: exp(+-inf) = inf, 0; exp overflows to inf and underflows to 0;
 * log(0) = -inf, log(x < 0) = NaN, log(inf) = inf; tanh(+-inf) = +-1; NaN propagates; signed
 * zeros keep their sign (exp(-0) = 1, log(-0) = -inf).
 *
 * Measured by spec/c/test_vmath.c (every 97th float32 bit pattern, against double libm), the
 * largest error in ulp: exp 0.5001, log 0.5004, tanh 0.5002, sqrt 0.5000, sin 0.5606 and cos
 * 0.5605 -- those two in glibc's sinf/cosf, which the blocks holding |x| >= 2^20 use; the
 * reduced arguments stay within 0.5001. The test fails above 1 ulp; the project's bound is 2.
 *
 * The functions of lt_funcs.c work the same way: sigmoid 1 / (1 + exp(-x)) and silu x / (1 +
 * exp(-x)) from reduce_exp; expm1 as tanh's; log1p as log of 1 + x, which is exact in double
 * for |x| >= 2^-29 (below, x - x^2/2); erf by its Taylor series to a^29 for |x| < 1 and 1 -
 * erfc above; erfc(a) for a >= 1 as exp(-a^2) (a^2 exact for a float a) times erfc(a) exp(a^2),
 * a Chebyshev series of degree 18 in 1/a fitted on [1, 10.5] (6.2e-12 relative), 2 - erfc(-x)
 * for x <= -1; gelu as x/2 erfc(-x/sqrt2). Measured like the others: sigmoid 0.5001, silu
 * 0.5000, expm1 0.5002, log1p 0.5005, erf 0.5000, erfc 0.5001, gelu 0.5001 ulp.
 *
 * The last group: exp2 as exp with x = k + f (exact), 2^f = exp(f ln2); log2 and log10 as
 * log's exponent and series, scaled; sinh (E' + E'/(E' + 1))/2 with E' = expm1|x| (relative
 * for small x) and cosh (E + 1/E)/2; acosh log(x + sqrt(x^2 - 1)) (x^2 exact); asinh and
 * atanh by their series below 2^-5 and logarithms above; asin by a polynomial fit on |x| <= 1/2
 * and pi/2 - 2 asin(sqrt((1 - |x|)/2)) above (acos likewise); atan reduced by one division to |t|
 * <= sqrt2 - 1 plus 0, pi/4 or pi/2; hypot sqrt(a^2 + b^2) (squares exact). fmod is exact: for |a|
 * < 2^23 |b| (b finite, nonzero) the quotient, rounded to an integer, times |b| and the difference
 * are exact in double and one correction fixes a quotient one too large; blocks of 256 holding
 * another pair call fmodf. remainder adds b to fmod where the signs differ (torch's formula),
 * rounded once. Measured like the others: exp2 0.5001, log2 0.5002, log10 0.5004, sinh 0.5003, cosh
 * 0.5001, asinh 0.5004, acosh 0.5003, atanh 0.5004, asin, acos, atan, atan2 and hypot 0.5000, tan
 * 0.5001 ulp;
 * fmod and remainder equal libm's fmodf (and the formula) bit for bit.
 *
 * float64 exp, log and sqrt work the same way one precision up, without a wider type: exp
 * reduces with a two-part ln2 (k * LN2_HI exact) and sums expm1(r) to r^13, scaling by 2^k in
 * two steps (subnormal results, overflow); log scales subnormals up by 2^54 and sums log(1 + f)
 * = f - s (f - R) with R to z^11. Measured against long double libm on 4M arguments each: exp
 * 0.9316 ulp, log 0.8296, sqrt 0.5 (the test fails above 2). float64 tanh, sin and cos stay
 * libm's (a float64 tanh this way reached 2.45 ulp).
 */
#include "lt_vmath.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The clones are picked by an ifunc resolver, which runs while the program is relocated: under
   ThreadSanitizer that is before its runtime starts, and the instrumented resolver crashes
   (every program linking the core, at load). A TSan build runs the default clone only. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define LT_VCLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#define LT_VINLINE inline __attribute__((always_inline))
#define LT_VIVDEP _Pragma("GCC ivdep")
#else
#define LT_VCLONES
#define LT_VINLINE inline
#define LT_VIVDEP
#endif

#define SHIFT                                                                         \
  0x1.8p52 /* x + SHIFT - SHIFT rounds x to an integer whose bits lie in the low word \
            */
#define LN2 0x1.62e42fefa39efp-1
#define LOG2E 0x1.71547652b82fep0
#define SQRT2 0x1.6a09e667f3bcdp0
#define TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PIO2_1 0x1.921fb544p0 /* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 */
#define PIO2_2 0x1.0b4611a6p-34
#define PIO2_3 0x1.3198a2e037073p-69

static inline uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static inline double double_of(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* expm1(r) for |r| <= ln2/2 + a little: Taylor to r^9 (truncation below 2e-11 relative). */
static inline double expm1_poly(double r) {
  return r *
         (1.0 +
          r * (1.0 / 2 +
               r * (1.0 / 6 +
                    r * (1.0 / 24 +
                         r * (1.0 / 120 +
                              r * (1.0 / 720 +
                                   r * (1.0 / 5040 + r * (1.0 / 40320 + r * (1.0 / 362880)))))))));
}

/* v = n ln2 + r for v in [-160, 160]: *scale = 2^n, returns expm1(r). */
static inline double reduce_exp(double v, double *scale) {
  double t = v * LOG2E + SHIFT;
  double k = t - SHIFT;
  double r = v - k * LN2;
  *scale = double_of((bits_of(t) + 1023) << 52); /* the low bits of t hold n; 2^51 shifts out */
  return expm1_poly(r);
}

LT_VCLONES void lt_vmath_exp_f32(float *y, const float *x, int64_t n) {
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

LT_VCLONES void lt_vmath_log_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    uint64_t u = bits_of((double)xf);
    /* the exponent as a double: its 11 bits under 2^52, minus 2^52 and the bias */
    double e = double_of(0x4330000000000000u | ((u >> 52) & 0x7ff)) - (0x1p52 + 1023);
    double m = double_of((u & 0x000fffffffffffffu) | 0x3ff0000000000000u); /* [1, 2) */
    int big = m > SQRT2;
    m = big ? m * 0.5 : m;
    e = big ? e + 1 : e;
    double s = (m - 1) / (m + 1), z = s * s;
    double lm =
        2 * s *
        (1 + z * (1.0 / 3 + z * (1.0 / 5 + z * (1.0 / 7 + z * (1.0 / 9 + z * (1.0 / 11))))));
    float r = (float)(e * LN2 + lm);
    r = xf == INFINITY ? xf : r;
    r = xf == 0 ? -INFINITY : r;
    r = xf < 0 ? NAN : r;
    y[i] = xf == xf ? r : xf;
  }
}

LT_VCLONES void lt_vmath_tanh_f32(float *y, const float *x, int64_t n) {
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

/* The block sin and cos check for arguments beyond their reduction (|x| >= 2^20, inf, NaN). */
#define TRIG_BLOCK 256

/* x = q pi/2 + r: returns r, *quadrant = q mod 4, *sr = sin r, *cr = cos r. */
static inline void reduce_trig(float xf, uint64_t *quadrant, double *sr, double *cr) {
  double v = xf;
  double t = v * TWO_OVER_PI + SHIFT;
  double q = t - SHIFT;
  double r = ((v - q * PIO2_1) - q * PIO2_2) - q * PIO2_3;
  double z = r * r;
  *quadrant = bits_of(t) & 3;
  *sr = r + r * z *
                (-1.0 / 6 +
                 z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 + z * (-1.0 / 39916800)))));
  *cr =
      1 + z * (-1.0 / 2 +
               z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 +
                                                                         z * (1.0 / 479001600))))));
}

/* Whether x[0..n) holds an argument for libm: the largest magnitude, as bits (inf and NaN
   above every finite value). */
static inline int trig_beyond(const float *x, int64_t n) {
  uint32_t top = 0;
  for (int64_t j = 0; j < n; j++) {
    uint32_t b;
    memcpy(&b, &x[j], sizeof b);
    b &= 0x7fffffffu;
    top = b > top ? b : top;
  }
  return top >= 0x49800000u; /* 2^20 */
}

/* sin (is_cos 0) or cos of x[0..n): cos x = sin(x + pi/2), the next quadrant. Inlined into
   each function (and each of its clones), where is_cos is a constant. */
static LT_VINLINE void trig_f32(float *y, const float *x, int64_t n, int is_cos) {
  for (int64_t i0 = 0; i0 < n; i0 += TRIG_BLOCK) {
    int64_t len = n - i0 < TRIG_BLOCK ? n - i0 : TRIG_BLOCK;
    const float *xb = x + i0;
    float *yb = y + i0;
    if (trig_beyond(xb, len)) {
      for (int64_t j = 0; j < len; j++) yb[j] = is_cos ? cosf(xb[j]) : sinf(xb[j]);
      continue;
    }
    LT_VIVDEP for (int64_t j = 0; j < len; j++) {
      uint64_t q;
      double s, c;
      reduce_trig(xb[j], &q, &s, &c);
      q += (uint64_t)is_cos;
      double v = q & 1 ? c : s;
      float r = (float)(q & 2 ? -v : v);
      yb[j] = !is_cos && xb[j] == 0 ? xb[j] : r; /* sin(-0) = -0, whatever the contractions did */
    }
  }
}

LT_VCLONES void lt_vmath_sin_f32(float *y, const float *x, int64_t n) { trig_f32(y, x, n, 0); }

/* tan from the same reduction: sin r / cos r in an even quadrant, -cos r / sin r in an odd one
   (x near an odd multiple of pi/2, where r is small and sin r relative); blocks holding |x| >=
   2^20, inf or NaN go to libm's double tan, rounded once (glibc's tanf is 1.37 ulp off there). */
LT_VCLONES void lt_vmath_tan_f32(float *y, const float *x, int64_t n) {
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

LT_VCLONES void lt_vmath_cos_f32(float *y, const float *x, int64_t n) { trig_f32(y, x, n, 1); }

LT_VCLONES void lt_vmath_sqrt_f32(float *y, const float *x, int64_t n) {
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

LT_VCLONES void lt_vmath_exp_f64(double *y, const double *x, int64_t n) {
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

LT_VCLONES void lt_vmath_log_f64(double *y, const double *x, int64_t n) {
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

LT_VCLONES void lt_vmath_sqrt_f64(double *y, const double *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) y[i] = sqrt(x[i]);
}

/* }====== */

/* {====== float32 functions of lt_funcs.c: sigmoid, silu, expm1, log1p, erf, erfc, gelu ====== */

/* 1 / (1 + exp(-x)) and x / (1 + exp(-x)) in double (exp relative to 2e-11, see reduce_exp). */
static inline double sigmoid_denom(float xf) {
  double v = -(double)xf;
  v = v > -120.0 ? v : -120.0; /* sigmoid(120) rounds to 1, sigmoid(-120) to 0; NaN: -120 */
  v = v < 120.0 ? v : 120.0;
  double scale, p = reduce_exp(v, &scale);
  return 1.0 + (scale + scale * p);
}

LT_VCLONES void lt_vmath_sigmoid_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)(1.0 / sigmoid_denom(xf));
    y[i] = xf == xf ? r : xf;
  }
}

LT_VCLONES void lt_vmath_silu_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)((double)xf / sigmoid_denom(xf));
    r = xf < -120.0f ? -0.0f : r;  /* below, x exp(x) underflows (the clamp above keeps x) */
    r = xf == -INFINITY ? NAN : r; /* -inf / inf, as torch */
    y[i] = xf == xf ? r : xf;
  }
}

LT_VCLONES void lt_vmath_expm1_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf;
    v = v > -104.0 ? v : -104.0; /* expm1(-104) rounds to -1; NaN becomes -104 here */
    v = v < 89.0 ? v : 89.0;     /* expm1(89) overflows float */
    double scale, p = reduce_exp(v, &scale);
    double e = scale * p + (scale - 1); /* relative for small x too */
    e = e >= 0x1.ffffffp127 ? (double)INFINITY : e;
    float r = (float)e;
    r = xf == 0 ? xf : r; /* expm1(-0) = -0 */
    y[i] = xf == xf ? r : xf;
  }
}

/* log u for a positive normal double u (as lt_vmath_log_f32's series; 1e-10 relative). */
static inline double log_pos(double u) {
  uint64_t b = bits_of(u);
  double e = double_of(0x4330000000000000u | ((b >> 52) & 0x7ff)) - (0x1p52 + 1023);
  double m = double_of((b & 0x000fffffffffffffu) | 0x3ff0000000000000u);
  int big = m > SQRT2;
  m = big ? m * 0.5 : m;
  e = big ? e + 1 : e;
  double s = (m - 1) / (m + 1), z = s * s;
  return e * LN2 +
         2 * s *
             (1 + z * (1.0 / 3 + z * (1.0 / 5 + z * (1.0 / 7 + z * (1.0 / 9 + z * (1.0 / 11))))));
}

LT_VCLONES void lt_vmath_log1p_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf;
    /* 1 + x is exact in double for |x| >= 2^-29; below, log1p(x) = x - x^2/2 to far past a
       float's precision. x <= -1 and inf are fixed up below (u = 1 keeps the log finite). */
    double u = v > -1.0 && v <= 0x1.fffffep127 ? 1.0 + v : 1.0;
    double l = fabs(v) < 0x1p-28 ? v - 0.5 * v * v : log_pos(u);
    float r = (float)l;
    r = xf == INFINITY ? xf : r;
    r = xf == -1.0f ? -INFINITY : r;
    r = xf < -1.0f ? NAN : r;
    y[i] = xf == xf ? r : xf;
  }
}

/* erfc(z) exp(z^2) for z in [1, 10.5]: a Chebyshev series of degree 18 in 1/z (fitted at 400
   Chebyshev nodes against double erfc; largest relative error 6.2e-12 on 20001 points). */
static const double ERFCX_C[19] = {
    0x1.07cac9b5034fep-2,   0x1.7e8cdee72a02ep-3,   -0x1.1d1fecfbb30aap-6,  0x1.6460c6e263f3dp-12,
    0x1.4f7e727c0014ep-12,  -0x1.6b44e5e4ce4e6p-14, 0x1.840cfcf3d8f6dp-17,  0x1.11842fff30bb8p-22,
    -0x1.5057e264aa7ecp-21, 0x1.a80fd5e34ebaap-23,  -0x1.2cd1e31133f82p-25, 0x1.582201e15782cp-30,
    0x1.d4f936931f4b2p-30,  -0x1.a0cb74ab7a61fp-31, 0x1.a87d8603ab552p-33,  -0x1.de357406fec86p-36,
    -0x1.5e0124130f7e0p-39, 0x1.bb5bf8e170d3ep-39,  -0x1.56f260c178628p-40};
#define ERFCX_LO 0x1.8618618618618p-4    /* 1 / 10.5 */
#define ERFCX_SCALE 0x1.1af286bca1af2p+1 /* 2 / (1 - 1/10.5) */
#define TWO_OVER_SQRTPI 0x1.20dd750429b6dp0

/* erfc(a) for a >= 1 (clamped at 10.5, where it is far below a float's smallest value). */
static inline double erfc_big(double a) {
  a = a < 10.5 ? a : 10.5;
  double t = (1.0 / a - ERFCX_LO) * ERFCX_SCALE - 1.0, b1 = 0, b2 = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 20
#endif
  for (int k = 18; k >= 1; k--) {
    double b0 = ERFCX_C[k] + 2 * t * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  double g = ERFCX_C[0] + t * b1 - b2;
  double scale, p = reduce_exp(-(a * a), &scale);
  return g * (scale + scale * p);
}

/* erf(a) for |a| < 1: its Taylor series to a^29, 2/sqrt(pi) sum (-a^2)^k a / (k! (2k + 1))
   (truncation below 3e-14). */
static inline double erf_small(double a) {
  double z = a * a, s = 1.0 / (87178291200.0 * 29); /* 1 / (14! 29) */
  static const double f[14] = {1.0,       1.0,        2.0,         6.0,         24.0,
                               120.0,     720.0,      5040.0,      40320.0,     362880.0,
                               3628800.0, 39916800.0, 479001600.0, 6227020800.0};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
  for (int k = 13; k >= 0; k--) s = 1.0 / (f[k] * (2 * k + 1)) - z * s;
  return TWO_OVER_SQRTPI * a * s;
}

/* erf(v) and erfc(v) of a double: the series below 1, 1 - erfc above (each keeps its relative
   error where its value is small). */
static inline double erf_d(double v) {
  double a = fabs(v);
  double big = 1.0 - erfc_big(a > 1.0 ? a : 1.0), small = erf_small(a < 1.0 ? v : 0.5);
  return a < 1.0 ? small : copysign(big, v);
}
static inline double erfc_d(double v) {
  double a = fabs(v);
  double big = erfc_big(a > 1.0 ? a : 1.0), small = 1.0 - erf_small(a < 1.0 ? v : 0.5);
  return a < 1.0 ? small : v > 0 ? big : 2.0 - big;
}

LT_VCLONES void lt_vmath_erf_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)erf_d(xf);
    y[i] = xf == xf ? r : xf;
  }
}

LT_VCLONES void lt_vmath_erfc_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)erfc_d(xf);
    y[i] = xf == xf ? r : xf;
  }
}

/* gelu(x) = x/2 (1 + erf(x/sqrt2)) = x/2 erfc(-x/sqrt2): relative where the result is tiny. */
LT_VCLONES void lt_vmath_gelu_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf;
    float r = (float)(0.5 * v * erfc_d(-v * 0x1.6a09e667f3bcdp-1));
    r = xf < -20.0f ? -0.0f : r;   /* underflows (erfc's clamp at 10.5 kept x's size) */
    r = xf == -INFINITY ? NAN : r; /* -inf * 0, as torch */
    y[i] = xf == xf ? r : xf;
  }
}

/* }====== */

/* {====== float32 exp2, log2, log10, sinh, cosh, acosh, asin, acos, atan; hypot, fmod ====== */

#define LOG10E 0x1.bcb7b1526e50ep-2
#define LOG10_2 0x1.34413509f79ffp-2
#define PIO2 0x1.921fb54442d18p0
#define PIO4 0x1.921fb54442d18p-1
#define PI 0x1.921fb54442d18p1
#define TAN_PI_8 0x1.a827999fcef32p-2 /* sqrt2 - 1 */
#define TAN_3PI_8 0x1.3504f333f9de6p1 /* sqrt2 + 1 */
#define FLT_ROUNDS_INF 0x1.ffffffp127 /* FLT_MAX + half an ulp: from here on a float is inf */

/* u = 2^e m for a positive normal double u, m in [sqrt(1/2), sqrt(2)): returns log m (the
   series of lt_vmath_log_f32, 5e-11 relative), *e the exponent. */
static inline double log_split(double u, double *e) {
  uint64_t b = bits_of(u);
  double ex = double_of(0x4330000000000000u | ((b >> 52) & 0x7ff)) - (0x1p52 + 1023);
  double m = double_of((b & 0x000fffffffffffffu) | 0x3ff0000000000000u);
  int big = m > SQRT2;
  m = big ? m * 0.5 : m;
  *e = big ? ex + 1 : ex;
  double s = (m - 1) / (m + 1), z = s * s;
  return 2 * s *
         (1 + z * (1.0 / 3 + z * (1.0 / 5 + z * (1.0 / 7 + z * (1.0 / 9 + z * (1.0 / 11))))));
}

LT_VCLONES void lt_vmath_exp2_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf;
    v = v > -151.0 ? v : -151.0; /* 2^-151 rounds to 0 in float; NaN becomes -151 here */
    v = v < 129.0 ? v : 129.0;   /* 2^128 overflows float */
    double t = v + SHIFT, k = t - SHIFT, f = v - k; /* x = k + f exactly, |f| <= 1/2 */
    double scale = double_of((bits_of(t) + 1023) << 52);
    double e = scale + scale * expm1_poly(f * LN2);
    e = e >= FLT_ROUNDS_INF ? (double)INFINITY : e;
    float r = (float)e;
    y[i] = xf == xf ? r : xf;
  }
}

/* log2 (base10 0) or log10 of x[0..n): the exponent and log m of log_split, scaled. Inlined
   into each function, where base10 is a constant. */
static LT_VINLINE void log_base_f32(float *y, const float *x, int64_t n, int base10) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf > 0 && xf <= 0x1.fffffep127f ? (double)xf : 1.0; /* others fixed up below */
    double e, lm = log_split(v, &e);
    float r = (float)(base10 ? e * LOG10_2 + lm * LOG10E : e + lm * LOG2E);
    r = xf == INFINITY ? xf : r;
    r = xf == 0 ? -INFINITY : r;
    r = xf < 0 ? NAN : r;
    y[i] = xf == xf ? r : xf;
  }
}

LT_VCLONES void lt_vmath_log2_f32(float *y, const float *x, int64_t n) { log_base_f32(y, x, n, 0); }

LT_VCLONES void lt_vmath_log10_f32(float *y, const float *x, int64_t n) {
  log_base_f32(y, x, n, 1);
}

/* sinh (is_cosh 0) or cosh of x[0..n) from exp|x|: sinh as (E' + E'/(E' + 1))/2 with E' =
   expm1|x| (relative for small x, as tanh's), cosh as (E + 1/E)/2. */
static LT_VINLINE void hyp_f32(float *y, const float *x, int64_t n, int is_cosh) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double a = fabs((double)xf);
    a = a < 90.0 ? a : 90.0; /* sinh and cosh of 90 overflow float; NaN becomes 90 here */
    double scale, p = reduce_exp(a, &scale);
    double h;
    if (is_cosh) {
      double e = scale + scale * p;
      h = 0.5 * e + 0.5 / e;
    } else {
      double em1 = scale * p + (scale - 1);
      h = 0.5 * (em1 + em1 / (em1 + 1));
    }
    h = h >= FLT_ROUNDS_INF ? (double)INFINITY : h;
    float r = (float)(is_cosh ? h : copysign(h, (double)xf));
    y[i] = xf == xf ? r : xf;
  }
}

LT_VCLONES void lt_vmath_sinh_f32(float *y, const float *x, int64_t n) { hyp_f32(y, x, n, 0); }

LT_VCLONES void lt_vmath_cosh_f32(float *y, const float *x, int64_t n) { hyp_f32(y, x, n, 1); }

/* acosh x = log(x + sqrt(x^2 - 1)): x^2 is exact in double, and the sum is at least 1 + 4.8e-4
   above 1 (x = 1 + 2^-23), so its rounding stays far below a float's ulp in the log. */
LT_VCLONES void lt_vmath_acosh_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf >= 1 && xf <= 0x1.fffffep127f ? (double)xf : 1.0; /* others fixed up below */
    double e, lm = log_split(v + sqrt(v * v - 1), &e);
    float r = (float)(e * LN2 + lm);
    r = xf == INFINITY ? xf : r;
    r = xf < 1 ? NAN : r;
    y[i] = xf == xf ? r : xf;
  }
}

/* asinh and atanh: odd Taylor series to a^9 and a^11 below |x| = 2^-5 (a^2 <= 2^-10: the
   truncation is below 1e-16 relative), above it the logarithm of log_split, whose argument's
   rounding (1e-16) then costs at most 4e-15 relative: asinh |x| = log(|x| + sqrt(x^2 + 1)),
   atanh |x| = log((1 + |x|) / (1 - |x|)) / 2 (1 + |x| and 1 - |x| exact). */
LT_VCLONES void lt_vmath_asinh_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf, a = fabs(v);
    a = a <= 0x1.fffffep127 ? a : 1.0; /* inf and NaN are fixed up below */
    double z = a * a;
    double small = a + a * z * (-1.0 / 6 + z * (3.0 / 40 + z * (-15.0 / 336 + z * (105.0 / 3456))));
    double e, lm = log_split(a + sqrt(z + 1), &e);
    double r = a < 0x1p-5 ? small : e * LN2 + lm;
    float rf = (float)copysign(r, v);
    rf = xf == INFINITY || xf == -INFINITY ? xf : rf;
    y[i] = xf == xf ? rf : xf;
  }
}

LT_VCLONES void lt_vmath_atanh_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf, a = fabs(v);
    a = a < 1 ? a : 0.5; /* 1, beyond and NaN are fixed up below */
    double z = a * a;
    double small =
        a + a * z * (1.0 / 3 + z * (1.0 / 5 + z * (1.0 / 7 + z * (1.0 / 9 + z * (1.0 / 11)))));
    double e, lm = log_split((1 + a) / (1 - a), &e);
    double r = a < 0x1p-5 ? small : 0.5 * (e * LN2 + lm);
    float rf = (float)copysign(r, v);
    rf = xf == 1 ? INFINITY : rf;
    rf = xf == -1 ? -INFINITY : rf;
    rf = xf > 1 || xf < -1 ? NAN : rf;
    y[i] = xf == xf ? rf : xf;
  }
}

/* asin t for |t| <= 1/2: t P(t^2), P of degree 8 fitted by least squares on 400 Chebyshev
   nodes of [0, 1/4] for relative error (largest 1.0e-12 on 2001 points, against mpmath). */
static inline double asin_small(double t) {
  double z = t * t;
  return t +
         t * z *
             (0x1.55555548111c4p-3 +
              z * (0x1.3333404b29a42p-4 +
                   z * (0x1.6db270103fb2cp-5 +
                        z * (0x1.f27eeec833d2ep-6 +
                             z * (0x1.665ccf545a680p-6 +
                                  z * (0x1.51b1a8dac8d62p-6 +
                                       z * (0x1.0f4c9162a526fp-9 + z * 0x1.0cd7509594d19p-5)))))));
}

/* asin (is_acos 0) or acos of x[0..n): |x| <= 1/2 by asin_small; above, with w = sqrt((1 -
   |x|)/2) (exact up to the square root's rounding), asin |x| = pi/2 - 2 asin w, acos x = 2 asin w
   (x > 0) or pi - 2 asin w. |x| > 1 gives NaN through the square root. */
static LT_VINLINE void asin_acos_f32(float *y, const float *x, int64_t n, int is_acos) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf, a = fabs(v);
    int big = a > 0.5;
    double w = sqrt(0.5 - 0.5 * a);
    double r;
    if (is_acos) {
      double p = asin_small(big ? w : v);
      r = big ? (v > 0 ? 2 * p : PI - 2 * p) : PIO2 - p;
    } else {
      double p = asin_small(big ? w : a);
      r = copysign(big ? PIO2 - 2 * p : p, v);
    }
    float rf = (float)r;
    rf = a > 1 ? NAN : rf;
    y[i] = xf == xf ? rf : xf;
  }
}

LT_VCLONES void lt_vmath_asin_f32(float *y, const float *x, int64_t n) {
  asin_acos_f32(y, x, n, 0);
}

LT_VCLONES void lt_vmath_acos_f32(float *y, const float *x, int64_t n) {
  asin_acos_f32(y, x, n, 1);
}

/* atan a for a >= 0 (or NaN): reduced with one division to t in [-(sqrt2 - 1), sqrt2 - 1], atan a
   = c + atan t with c = 0 (a <= sqrt2 - 1, t = a), pi/4 (t = (a - 1) / (a + 1), both exact for
   a float a) or pi/2 (a > sqrt2 + 1, t = -1/a; atan(inf) = pi/2); atan t = t P(t^2), P of
   degree 7 fitted as asin_small's on [0, (sqrt2 - 1)^2] (largest relative error 8.5e-13). */
static inline double atan_pos(double a) {
  int mid = a > TAN_PI_8, hi = a > TAN_3PI_8;
  double num = hi ? -1.0 : mid ? a - 1 : a;
  double den = hi ? a : mid ? a + 1 : 1.0;
  double c = hi ? PIO2 : mid ? PIO4 : 0.0;
  double t = num / den, z = t * t;
  return c +
         (t + t * z *
                  (-0x1.5555554e7b9b9p-2 +
                   z * (0x1.999991adff0d1p-3 +
                        z * (-0x1.2490b85384ff4p-3 +
                             z * (0x1.c6d08a7c4c240p-4 +
                                  z * (-0x1.70770aaced431p-4 +
                                       z * (0x1.1e2b3ea839f60p-4 + z * -0x1.360b3978e95bbp-5)))))));
}

LT_VCLONES void lt_vmath_atan_f32(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double v = xf;
    float r = (float)copysign(atan_pos(fabs(v)), v);
    y[i] = xf == xf ? r : xf;
  }
}

/* atan2(a, b) = +-(atan(|a| / |b|) or pi minus it where b has its sign bit set), with a's sign;
   the quotient in double (|a| / |b| rounded once, never underflowing for floats). 0/0 counts as
   0 and inf/inf as 1, which gives C's atan2 at the signed zeros and infinities. */
LT_VCLONES void lt_vmath_atan2_f32(float *y, const float *a, const float *b, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float af = a[i], bf = b[i];
    double u = fabs((double)af), v = fabs((double)bf);
    double q = u / v;
    q = u == 0 && v == 0 ? 0.0 : q;
    q = u == INFINITY && v == INFINITY ? 1.0 : q;
    double r = atan_pos(q);
    r = signbit(bf) ? PI - r : r;
    float rf = (float)copysign(r, (double)af);
    y[i] = af == af && bf == bf ? rf : af + bf;
  }
}

/* hypot: sqrt(a^2 + b^2) in double (the squares exact, no overflow nor underflow for floats);
   an infinite operand gives inf even beside NaN, as C's hypot. */
LT_VCLONES void lt_vmath_hypot_f32(float *y, const float *a, const float *b, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float af = a[i], bf = b[i];
    double u = af, v = bf;
    double h = sqrt(u * u + v * v);
    h = h >= FLT_ROUNDS_INF ? (double)INFINITY : h;
    float r = (float)h;
    r = fabsf(af) == INFINITY || fabsf(bf) == INFINITY ? INFINITY : r;
    y[i] = r;
  }
}

/* The block fmod and remainder check for arguments beyond their exact path. */
#define FMOD_BLOCK 256

/* Whether a[0..n), b[0..n) hold a pair the exact path does not take: |a| >= 2^23 |b|, b zero,
   inf or NaN, a inf or NaN. */
static inline int fmod_beyond(const float *a, const float *b, int64_t n) {
  int bad = 0;
  for (int64_t j = 0; j < n; j++) {
    double u = fabs((double)a[j]), v = fabs((double)b[j]);
    bad |= !(u < 0x1p23 * v && v <= 0x1.fffffep127);
  }
  return bad;
}

/* fmod(a, b) for |a| < 2^23 |b|, b finite and nonzero, exactly: q = rint(|a| / |b|) is
   trunc(|a| / |b|) or one above it, q |b| is exact (at most 48 bits), and so is |a| - q |b|
   (a multiple of the smaller of a's and b's float ulps below 2^25 |b|, well within a double's
   53 bits); one addition of |b| corrects the quotient one above. The result has a's sign, a
   zero too. */
static inline double fmod_exact(float af, float bf) {
  double u = fabs((double)af), v = fabs((double)bf);
  double q = (u / v + SHIFT) - SHIFT;
  double r = u - q * v;
  r = r < 0 ? r + v : r;
  return copysign(r, (double)af);
}

/* fmod (is_rem 0) or torch's remainder (the result takes b's sign: fmod, plus b where the
   signs differ; the sum rounded once) of a[0..n) and b[0..n); blocks holding a pair beyond
   fmod_exact call libm's fmodf. */
static LT_VINLINE void fmod_f32(float *y, const float *a, const float *b, int64_t n, int is_rem) {
  for (int64_t i0 = 0; i0 < n; i0 += FMOD_BLOCK) {
    int64_t len = n - i0 < FMOD_BLOCK ? n - i0 : FMOD_BLOCK;
    const float *ab = a + i0, *bb = b + i0;
    float *yb = y + i0;
    if (fmod_beyond(ab, bb, len)) {
      for (int64_t j = 0; j < len; j++) {
        double r = fmodf(ab[j], bb[j]), v = bb[j];
        yb[j] = is_rem && r != 0 && (r < 0) != (v < 0) ? (float)(r + v) : (float)r;
      }
      continue;
    }
    LT_VIVDEP for (int64_t j = 0; j < len; j++) {
      double r = fmod_exact(ab[j], bb[j]), v = bb[j];
      yb[j] = is_rem && r != 0 && (r < 0) != (v < 0) ? (float)(r + v) : (float)r;
    }
  }
}

LT_VCLONES void lt_vmath_fmod_f32(float *y, const float *a, const float *b, int64_t n) {
  fmod_f32(y, a, b, n, 0);
}

LT_VCLONES void lt_vmath_remainder_f32(float *y, const float *a, const float *b, int64_t n) {
  fmod_f32(y, a, b, n, 1);
}

/* }====== */
