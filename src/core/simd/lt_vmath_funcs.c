/*
 * lt_vmath_funcs.c -- the vectorized float32 functions of lt_funcs.c (sigmoid, silu, expm1,
 * log1p, erf, erfc, gelu, exp2, log2, log10, sinh, cosh, asinh, acosh, atanh, asin, acos, atan,
 * atan2, hypot, fmod) and remainder for lt_math.c; see lt_vmath.h. Built as lt_vmath.c's
 * functions are (the same compiler flags and vector paths, the reductions of lt_vmath_impl.h; its
 * header says how they are exact) and measured the same way, by spec/c/test_vmath.c. On the
 * AVX-512 path, log2, log10, log1p, exp2, expm1, sinh, cosh, asinh, acosh, atanh, acos and atan run
 * lt_vmath_funcs512.c's kernels instead (LT_VMATH_UN512): the same formulas on table-driven
 * reductions, with intrinsics; the bodies here are their plain and AVX2 paths.
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
 * rounded once. Measured like the others: exp2 0.5001, log2 0.5002, log10 0.5004, sinh 0.5003,
 * cosh 0.5001, asinh 0.5004, acosh 0.5003, atanh 0.5004, asin, acos, atan, atan2 and hypot
 * 0.5000 ulp; fmod and remainder equal libm's fmodf (and the formula) bit for bit.
 */
#include "lt_vmath.h"

#include "lt_vmath_impl.h"

/* {====== float32 functions of lt_funcs.c: sigmoid, silu, expm1, log1p, erf, erfc, gelu ====== */

/* 1 / (1 + exp(-x)) and x / (1 + exp(-x)) in double (exp relative to 2e-11, see reduce_exp). */
static inline double sigmoid_denom(float xf) {
  double v = -(double)xf;
  v = v > -120.0 ? v : -120.0; /* sigmoid(120) rounds to 1, sigmoid(-120) to 0; NaN: -120 */
  v = v < 120.0 ? v : 120.0;
  double scale, p = reduce_exp(v, &scale);
  return 1.0 + (scale + scale * p);
}

static LT_VINLINE void sigmoid_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)(1.0 / sigmoid_denom(xf));
    y[i] = xf == xf ? r : xf;
  }
}

static LT_VINLINE void silu_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)((double)xf / sigmoid_denom(xf));
    r = xf < -120.0f ? -0.0f : r;  /* below, x exp(x) underflows (the clamp above keeps x) */
    r = xf == -INFINITY ? NAN : r; /* -inf / inf, as torch */
    y[i] = xf == xf ? r : xf;
  }
}

static LT_VINLINE void expm1_f32_b(float *y, const float *x, int64_t n) {
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
  double e, lm = log_split(u, &e);
  return e * LN2 + lm;
}

static LT_VINLINE void log1p_f32_b(float *y, const float *x, int64_t n) {
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

static LT_VINLINE void erf_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)erf_d(xf);
    y[i] = xf == xf ? r : xf;
  }
}

static LT_VINLINE void erfc_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    float r = (float)erfc_d(xf);
    y[i] = xf == xf ? r : xf;
  }
}

/* gelu(x) = x/2 (1 + erf(x/sqrt2)) = x/2 erfc(-x/sqrt2): relative where the result is tiny. */
static LT_VINLINE void gelu_f32_b(float *y, const float *x, int64_t n) {
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
#define FLT_ROUNDS_INF 0x1.ffffffp127 /* FLT_MAX + half an ulp: from here on a float is inf */

static LT_VINLINE void exp2_f32_b(float *y, const float *x, int64_t n) {
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

static LT_VINLINE void log2_f32_b(float *y, const float *x, int64_t n) { log_base_f32(y, x, n, 0); }

static LT_VINLINE void log10_f32_b(float *y, const float *x, int64_t n) {
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

static LT_VINLINE void sinh_f32_b(float *y, const float *x, int64_t n) { hyp_f32(y, x, n, 0); }

static LT_VINLINE void cosh_f32_b(float *y, const float *x, int64_t n) { hyp_f32(y, x, n, 1); }

/* acosh x = log(x + sqrt(x^2 - 1)): x^2 is exact in double, and the sum is at least 1 + 4.8e-4
   above 1 (x = 1 + 2^-23), so its rounding stays far below a float's ulp in the log. */
static LT_VINLINE void acosh_f32_b(float *y, const float *x, int64_t n) {
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
static LT_VINLINE void asinh_f32_b(float *y, const float *x, int64_t n) {
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

static LT_VINLINE void atanh_f32_b(float *y, const float *x, int64_t n) {
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
  return t + t * z *
                 (ASIN_C0 +
                  z * (ASIN_C1 +
                       z * (ASIN_C2 +
                            z * (ASIN_C3 +
                                 z * (ASIN_C4 + z * (ASIN_C5 + z * (ASIN_C6 + z * ASIN_C7)))))));
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

static LT_VINLINE void asin_f32_b(float *y, const float *x, int64_t n) {
  asin_acos_f32(y, x, n, 0);
}

static LT_VINLINE void acos_f32_b(float *y, const float *x, int64_t n) {
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
         (t +
          t * z *
              (ATAN_C0 +
               z * (ATAN_C1 +
                    z * (ATAN_C2 + z * (ATAN_C3 + z * (ATAN_C4 + z * (ATAN_C5 + z * ATAN_C6)))))));
}

static LT_VINLINE void atan_f32_b(float *y, const float *x, int64_t n) {
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
static LT_VINLINE void atan2_f32_b(float *y, const float *a, const float *b, int64_t n) {
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
static LT_VINLINE void hypot_f32_b(float *y, const float *a, const float *b, int64_t n) {
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

static LT_VINLINE void fmod_f32_b(float *y, const float *a, const float *b, int64_t n) {
  fmod_f32(y, a, b, n, 0);
}

static LT_VINLINE void remainder_f32_b(float *y, const float *a, const float *b, int64_t n) {
  fmod_f32(y, a, b, n, 1);
}

/* }====== */

/* The public functions: each body above compiled per vector path (lt_simd.h), the level in
   use picking one per call. */
LT_VMATH_UN(sigmoid_f32, float)
LT_VMATH_UN(silu_f32, float)
LT_VMATH_UN512(expm1_f32)
LT_VMATH_UN512(log1p_f32)
LT_VMATH_UN(erf_f32, float)
LT_VMATH_UN(erfc_f32, float)
LT_VMATH_UN(gelu_f32, float)
LT_VMATH_UN512(exp2_f32)
LT_VMATH_UN512(log2_f32)
LT_VMATH_UN512(log10_f32)
LT_VMATH_UN512(sinh_f32)
LT_VMATH_UN512(cosh_f32)
LT_VMATH_UN512(acosh_f32)
LT_VMATH_UN512(asinh_f32)
LT_VMATH_UN512(atanh_f32)
LT_VMATH_UN(asin_f32, float)
LT_VMATH_UN512(acos_f32)
LT_VMATH_UN512(atan_f32)
LT_VMATH_BIN(atan2_f32)
LT_VMATH_BIN(hypot_f32)
LT_VMATH_BIN(fmod_f32)
LT_VMATH_BIN(remainder_f32)
