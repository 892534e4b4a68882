/*
 * lt_vmath_impl.h -- what lt_vmath.c and lt_vmath_funcs.c share: the per-path compilation
 * (LT_VMATH_UN and LT_VMATH_BIN over lt_simd.h), the vectorization attributes, the constants, a
 * double's bits, exp's reduction (reduce_exp, expm1 to r^9) and log's (log_split, the atanh series
 * to s^11); lt_vmath.c's header says how they are built and how exact they are. Static inline,
 * private to those two files (included by them alone).
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

#endif
