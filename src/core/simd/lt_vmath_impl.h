/*
 * lt_vmath_impl.h -- what lt_vmath.c, lt_vmath_funcs.c and lt_vmath_nc.c share: the per-path
 * compilation (LT_VMATH_UN and LT_VMATH_BIN over lt_simd.h), the vectorization attributes, the
 * constants, a double's bits, exp's reduction (reduce_exp, expm1 to r^9) and log's (log_split,
 * the atanh series to s^11), and the bodies of float32 log, sin and cos; lt_vmath.c's header says
 * how they are built and how exact they are; LT_VMATH_UN512 and the AVX-512 kernels of
 * lt_vmath_funcs512.c. Static inline, private to those four files (included by them alone).
 */
#ifndef LT_VMATH_IMPL_H
#define LT_VMATH_IMPL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lt_simd.h"

/* Each function's body is a static LT_VINLINE function NAME_b; LT_VMATH_UN (unary, of T) and
   LT_VMATH_BIN (binary float32) compile it once per vector path (lt_simd.h) and define the
   public lt_vmath_NAME, which runs the path of the level in use. */
#define LT_VINLINE LT_SIMD_INLINE
#if defined(__GNUC__) && !defined(__clang__)
#define LT_VIVDEP _Pragma("GCC ivdep")
#else
#define LT_VIVDEP
#endif
#define LT_VMATH_UN(NAME, T)                                                     \
  LT_SIMD_CLONES_VOID(NAME, NAME##_b, (T * y, const T *x, int64_t n), (y, x, n)) \
  void lt_vmath_##NAME(T *y, const T *x, int64_t n) { LT_SIMD_PICK(NAME)(y, x, n); }
#define LT_VMATH_BIN(NAME)                                                                   \
  LT_SIMD_CLONES_VOID(NAME, NAME##_b, (float *y, const float *a, const float *b, int64_t n), \
                      (y, a, b, n))                                                          \
  void lt_vmath_##NAME(float *y, const float *a, const float *b, int64_t n) {                \
    LT_SIMD_PICK(NAME)(y, a, b, n);                                                          \
  }

/* The functions whose AVX-512 path is written with intrinsics (lt_vmath_funcs512.c): their C
   body compiled for the plain and AVX2 paths only, lt_vmath512_NAME taking the AVX-512 one. */
#if LT_SIMD_X86
#define LT_VMATH_UN512(NAME)                                                       \
  static void NAME##_c(float *y, const float *x, int64_t n) { NAME##_b(y, x, n); } \
  LT_TARGET_AVX2 static void NAME##_avx2(float *y, const float *x, int64_t n) {    \
    NAME##_b(y, x, n);                                                             \
  }                                                                                \
  void lt_vmath_##NAME(float *y, const float *x, int64_t n) {                      \
    int l_ = lt_cpu_level();                                                       \
    (l_ >= LT_CPU_AVX512 ? lt_vmath512_##NAME                                      \
     : l_ >= LT_CPU_AVX2 ? NAME##_avx2                                             \
                         : NAME##_c)(y, x, n);                                     \
  }
void lt_vmath512_log2_f32(float *y, const float *x, int64_t n);
void lt_vmath512_log10_f32(float *y, const float *x, int64_t n);
void lt_vmath512_log1p_f32(float *y, const float *x, int64_t n);
void lt_vmath512_exp2_f32(float *y, const float *x, int64_t n);
void lt_vmath512_expm1_f32(float *y, const float *x, int64_t n);
void lt_vmath512_sinh_f32(float *y, const float *x, int64_t n);
void lt_vmath512_cosh_f32(float *y, const float *x, int64_t n);
void lt_vmath512_asinh_f32(float *y, const float *x, int64_t n);
void lt_vmath512_acosh_f32(float *y, const float *x, int64_t n);
void lt_vmath512_atanh_f32(float *y, const float *x, int64_t n);
void lt_vmath512_acos_f32(float *y, const float *x, int64_t n);
void lt_vmath512_atan_f32(float *y, const float *x, int64_t n);
void lt_vmath512_tan_f32(float *y, const float *x, int64_t n);
#else
#define LT_VMATH_UN512(NAME) LT_VMATH_UN(NAME, float)
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

#define PIO2 0x1.921fb54442d18p0
#define PIO4 0x1.921fb54442d18p-1
#define PI 0x1.921fb54442d18p1
#define TAN_PI_8 0x1.a827999fcef32p-2 /* sqrt2 - 1 */
#define TAN_3PI_8 0x1.3504f333f9de6p1 /* sqrt2 + 1 */
/* asin t = t + t^3 (ASIN_C0 + ASIN_C1 t^2 + ... + ASIN_C7 t^14) for |t| <= 1/2, and atan t =
   t + t^3 (ATAN_C0 + ... + ATAN_C6 t^12) for |t| <= sqrt2 - 1 (lt_vmath_funcs.c says how they
   were fitted) */
#define ASIN_C0 0x1.55555548111c4p-3
#define ASIN_C1 0x1.3333404b29a42p-4
#define ASIN_C2 0x1.6db270103fb2cp-5
#define ASIN_C3 0x1.f27eeec833d2ep-6
#define ASIN_C4 0x1.665ccf545a680p-6
#define ASIN_C5 0x1.51b1a8dac8d62p-6
#define ASIN_C6 0x1.0f4c9162a526fp-9
#define ASIN_C7 0x1.0cd7509594d19p-5
#define ATAN_C0 -0x1.5555554e7b9b9p-2
#define ATAN_C1 0x1.999991adff0d1p-3
#define ATAN_C2 -0x1.2490b85384ff4p-3
#define ATAN_C3 0x1.c6d08a7c4c240p-4
#define ATAN_C4 -0x1.70770aaced431p-4
#define ATAN_C5 0x1.1e2b3ea839f60p-4
#define ATAN_C6 -0x1.360b3978e95bbp-5

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

/* log, sin and cos of float32 (lt_vmath.c's header says how), here for lt_vmath.c and
   lt_vmath_nc.c, which compile them with and without contraction. */
static LT_VINLINE void log_f32_b(float *y, const float *x, int64_t n) {
  LT_VIVDEP for (int64_t i = 0; i < n; i++) {
    float xf = x[i];
    double e, lm = log_split((double)xf, &e); /* float subnormals are normal doubles */
    float r = (float)(e * LN2 + lm);
    r = xf == INFINITY ? xf : r;
    r = xf == 0 ? -INFINITY : r;
    r = xf < 0 ? NAN : r;
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

#endif
