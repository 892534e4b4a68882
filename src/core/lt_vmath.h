/*
 * lt_vmath.h -- vectorized exp, log, tanh, sin, cos and sqrt of contiguous float32 runs, and
 * exp, log and sqrt of float64 ones. Lua-free.
 *
 * y[i] = f(x[i]) for i in [0, n); y may be x itself (in place), never a partial overlap. Results
 * are within 1 ulp of the exact value (spec/c/test_vmath.c measures every 97th float32 bit
 * pattern against double libm: see lt_vmath.c for the bounds found), with libm's special values.
 *
 * Called by lt_math.c's unary kernels, one call per contiguous run, and lt_funcs.c's.
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

#endif
