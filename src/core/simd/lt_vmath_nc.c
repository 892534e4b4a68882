/*
 * lt_vmath_nc.c -- float32 log, sin and cos exactly as lt_vmath.c's (the bodies of
 * lt_vmath_impl.h), compiled without contracting a multiply and an add into an FMA
 * (-ffp-contract=off: CMakeLists.txt), so that every vector path -- plain C, AVX2, AVX-512 --
 * gives the same bits. lt_vmath.c's own, contracted, may differ from the plain path in the last
 * bit (within the same 1 ulp bound) on about one argument in ten million; the random normal
 * fill, whose numbers SPEC fixes for every platform, takes these. See lt_vmath.h.
 *
 * Calls libm (sinf, cosf for |x| >= 2^20). Called by lt_random.c.
 */
#include "lt_vmath.h"

#include "lt_vmath_impl.h"

static LT_VINLINE void log_nc_f32_b(float *y, const float *x, int64_t n) { log_f32_b(y, x, n); }
static LT_VINLINE void sin_nc_f32_b(float *y, const float *x, int64_t n) { trig_f32(y, x, n, 0); }
static LT_VINLINE void cos_nc_f32_b(float *y, const float *x, int64_t n) { trig_f32(y, x, n, 1); }

/* The public functions: each body compiled per vector path (lt_simd.h), the level in use
   picking one per call. */
LT_VMATH_UN(log_nc_f32, float)
LT_VMATH_UN(sin_nc_f32, float)
LT_VMATH_UN(cos_nc_f32, float)
