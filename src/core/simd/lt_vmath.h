/*
 * lt_vmath.h -- vectorized exp, log, tanh, sin, cos and sqrt of contiguous float32 runs, and
 * exp, log and sqrt of float64 ones. Lua-free.
 *
 * y[i] = f(x[i]) for i in [0, n); y may be x itself (in place), never a partial overlap. Results
 * are within 1 ulp of the exact value (spec/c/test_vmath.c measures every 97th float32 bit
 * pattern against double libm: see lt_vmath.c for the bounds found), with libm's special values.
 *
 * Called by lt_math.c's unary kernels and its float32 remainder, one call per contiguous run,
 * and lt_funcs.c's.
 */
#ifndef LT_VMATH_H
#define LT_VMATH_H

#include <stdint.h>

void lt_vmath_exp_f32(float *y, const float *x, int64_t n);
void lt_vmath_log_f32(float *y, const float *x, int64_t n);
void lt_vmath_tanh_f32(float *y, const float *x, int64_t n);
void lt_vmath_sin_f32(float *y, const float *x, int64_t n);
void lt_vmath_cos_f32(float *y, const float *x, int64_t n);
void lt_vmath_sqrt_f32(float *y, const float *x, int64_t n);

/* float64 (y may be x): exp and log within 1 ulp of the exact value (measured against long
   double libm, see lt_vmath.c), sqrt the instruction; libm's special values. tanh, sin and cos
   of float64 stay libm's. */
void lt_vmath_exp_f64(double *y, const double *x, int64_t n);
void lt_vmath_log_f64(double *y, const double *x, int64_t n);
void lt_vmath_sqrt_f64(double *y, const double *x, int64_t n);

/* float32 sigmoid, silu (x sigmoid x), expm1, log1p, erf, erfc and gelu (torch's erf form), for
   lt_funcs.c: computed in double, within 1 ulp (spec/c/test_vmath.c; lt_vmath.c gives the
   measured bounds), torch's special values (silu(-inf) and gelu(-inf) are NaN). */
void lt_vmath_sigmoid_f32(float *y, const float *x, int64_t n);
void lt_vmath_silu_f32(float *y, const float *x, int64_t n);
void lt_vmath_expm1_f32(float *y, const float *x, int64_t n);
void lt_vmath_log1p_f32(float *y, const float *x, int64_t n);
void lt_vmath_erf_f32(float *y, const float *x, int64_t n);
void lt_vmath_erfc_f32(float *y, const float *x, int64_t n);
void lt_vmath_gelu_f32(float *y, const float *x, int64_t n);

/* float32 exp2, log2, log10, sinh, cosh, asinh, acosh, atanh, asin, acos and atan for lt_funcs.c,
   computed in double the same way (within 1 ulp, spec/c/test_vmath.c), libm's special values
   (log2(0) = -inf, acosh(x < 1) and asin(|x| > 1) NaN, sinh and cosh overflow to inf, atan(+-inf) =
   +-pi/2, signed zeros kept). */
void lt_vmath_exp2_f32(float *y, const float *x, int64_t n);
void lt_vmath_log2_f32(float *y, const float *x, int64_t n);
void lt_vmath_log10_f32(float *y, const float *x, int64_t n);
void lt_vmath_sinh_f32(float *y, const float *x, int64_t n);
void lt_vmath_cosh_f32(float *y, const float *x, int64_t n);
void lt_vmath_asinh_f32(float *y, const float *x, int64_t n);
void lt_vmath_acosh_f32(float *y, const float *x, int64_t n);
void lt_vmath_atanh_f32(float *y, const float *x, int64_t n);
void lt_vmath_asin_f32(float *y, const float *x, int64_t n);
void lt_vmath_acos_f32(float *y, const float *x, int64_t n);
void lt_vmath_atan_f32(float *y, const float *x, int64_t n);
/* tan, by sin and cos's reduction (within 1 ulp); libm's double tan for |x| >= 2^20 (2^30 on the
   AVX-512 path, lt_vmath_funcs512.c), inf and NaN. */
void lt_vmath_tan_f32(float *y, const float *x, int64_t n);

/* float32 binary functions, y[i] = f(a[i], b[i]) (y may be a or b): hypot (within 1 ulp, an
   inf operand gives inf even beside NaN), fmod (exact, as libm's fmodf, whose result is always
   a float) and torch's remainder (fmod, plus b where the signs differ: that sum rounded once),
   for lt_funcs.c and lt_math.c. */
void lt_vmath_hypot_f32(float *y, const float *a, const float *b, int64_t n);
/* atan2(a, b) within 1 ulp, C's values at the signed zeros and infinities */
void lt_vmath_atan2_f32(float *y, const float *a, const float *b, int64_t n);
void lt_vmath_fmod_f32(float *y, const float *a, const float *b, int64_t n);
void lt_vmath_remainder_f32(float *y, const float *a, const float *b, int64_t n);

/* float32 log, sin and cos computed as the three above but without contracting multiplies and
   adds into FMAs (lt_vmath_nc.c), so that every vector path gives the same bits: for the random
   normal fill (lt_random.c), whose numbers must not depend on the processor. */
void lt_vmath_log_nc_f32(float *y, const float *x, int64_t n);
void lt_vmath_sin_nc_f32(float *y, const float *x, int64_t n);
void lt_vmath_cos_nc_f32(float *y, const float *x, int64_t n);

/* The clone of a float32 (or float64) unary function for a vector path, whatever level is in
   use: name "exp", "log", "tanh", "sin" or "cos" (float64: "exp" or "log"), level an
   lt_cpu_level_t at most lt_cpu_level_max() (higher: NULL, as an unknown name), so that a bench
   or a test can run every path in one process (bench/math.c times exp on each). */
typedef void (*lt_vmath_f32_fn)(float *y, const float *x, int64_t n);
typedef void (*lt_vmath_f64_fn)(double *y, const double *x, int64_t n);
lt_vmath_f32_fn lt_vmath_f32_path(const char *name, int level);
lt_vmath_f64_fn lt_vmath_f64_path(const char *name, int level);

#endif
