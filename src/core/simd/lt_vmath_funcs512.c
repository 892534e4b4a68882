/*
 * lt_vmath_funcs512.c -- the AVX-512 path of float32 log2, log10, log1p, exp2, expm1, sinh,
 * cosh, asinh, acosh, atanh, acos, atan and tan (lt_vmath.h), written with intrinsics: 16 floats a
 * step, widened to double in two halves of 8, with table-driven reductions that need neither a
 * division nor a long series. Lua-free, internal.
 *
 * lt_vmath_funcs.c's C bodies, which GCC vectorizes, spend their time on log_split's division
 * and series to s^11 and on exp's Taylor series to r^9; here the reductions are those of glibc's
 * logf and expf, in double, their 16-entry tables held in two registers each and read with
 * vpermt2pd (no gather):
 *   log:  u = 2^k z with z in [OFF, 2 OFF) (OFF = 0.69921875, from u's bits, no branch), the
 *         top 4 bits of z's mantissa pick c (the middle of its sixteenth; exactly 1 for the one
 *         holding 1, so log(1) = 0), r = z/c - 1 (one FMA, |r| < 0.0297) and log u = k ln2 +
 *         log c + r + r^2 Q(r), Q of degree 4 fitted on [-0.0297, 0.0297] (6.1e-12 relative);
 *   exp:  v = (16 k + i) ln2/16 + r, |r| <= ln2/32: exp v = 2^k 2^(i/16) (1 + expm1 r), the
 *         power of two added into the table value's exponent, expm1 r by Taylor to r^5
 *         (truncation 1.5e-13 relative); exp2 splits x = (16 k + i)/16 + f exactly first.
 * Around them the formulas, clamps and special values are lt_vmath_funcs.c's (asin and atan's
 * polynomials shared through lt_vmath_impl.h); the special values are put back per 16 floats by
 * vfixupimmps (from x's class) and a few blends. atanh differs: no series below 2^-5, the
 * quotient's logarithm down to 2^-28 (see atanh_pre). The result is rounded once to float,
 * within 1 ulp as there: spec/c/test_vmath.c's default run takes this path on a processor with
 * AVX-512 and measures (every 97th bit pattern) 0.5000 ulp for each but expm1 and atanh (0.5001).
 * Every one of the 2^32 floats against double libm (session 35, a harness outside the suite):
 * atanh 0.50008, sinh 0.50007, asinh 0.50002, acosh, atan and acos 0.50001, cosh 0.50000 ulp,
 * NaN and infinities where libm has them.
 *
 * tan (lt_vmath.c's C body elsewhere) reduces by pi/2 in two FMAs, exact enough up to 2^30 (the
 * C body's three-part pi/2 stops at 2^20), and takes tan r = r N(r^2)/D(r^2), a rational fit of
 * degree 2 over 3 (2.4e-14 relative), or -D/(r N) in an odd quadrant: one division, no sine and
 * cosine series; |x| >= 2^30 goes to double libm's tan lane by lane (tan_libm). Every one of the
 * 2^32 floats against double libm's tan rounded once (a harness outside the suite):
 * 0.500000 ulp at most, 132 of them not the nearest float (all within 5e-7 ulp of a midpoint);
 * spec/c/test_vmath.c checks every float of [1, 2), [2^20, 2^21) and [2^29, 1.125 2^30) within
 * 0.5001 ulp. One stage, two blocks in flight: the division ends the chain, and what it costs is
 * the count of operations (a Newton step from rcp14 instead of vdivpd, and Cephes's degree 2 over
 * 4 with its -1/tan from the same N and D, each measured slower). Time per element against the
 * C body's AVX-512 clone (sin r / cos r, 65536 and 4M floats on [-10, 10], best of 40,
 * alternating): 1.5x.
 *
 * The functions with a division or a square root (sinh, asinh, acosh, atanh, acos, atan; not
 * cosh, whose division ends its chain) run in two stages (LT_V512_PIPE): the division or root of
 * the next 32 floats is issued before the rest of these 32, whose chain waited on it; run through
 * at once, the waiting work filled the scheduler (atanh took 0.75 ns/element where its division
 * alone took 0.18 and its logarithm alone 0.44).
 *
 * Measured against lt_vmath_funcs.c's AVX-512 clones (one thread, 65536 floats in cache, best of
 * 30, on a loaded Zen 5), time per element before / after: log2 and log10 2.1x, expm1 1.5x,
 * log1p, cosh and acosh 1.4x, exp2 1.35x, asinh 1.2x, atanh 1.15x, atan 1.08x, acos 1.1x (on a
 * ramp: the square root only where 8 arguments need it). Then the two stages (session 35, the
 * same harness, best of 50, old kernel and new alternating): sinh 1.6x (from the C clone), asinh
 * 1.55-1.65x, acosh 1.65-1.7x, atanh 1.4-1.55x, atan 1.35-1.4x, acos 1.2-1.3x (on (-1, 1)),
 * cosh 1.02x, kept in one stage: at 16M floats no faster (4M floats, out of cache: atanh 1.9x,
 * the others alike); bench_compute at 1 thread
 * against NumPy, before / after: asinh 1.0-1.1x / 1.5-1.7x, acosh 1.0-1.15x / 1.55x, atanh
 * 0.86x / 1.3-1.5x, sinh 0.9-1.1x / 1.3-1.4x, atan 1.0-1.1x / 1.3-1.6x. Division and square root
 * stay the instructions (vdivpd, vsqrtpd): Newton steps from rcp14 / rsqrt14 (also tried again for
 * asinh and acosh, 2^-40 from rsqrt14 and one second-order step), two logarithms for atanh's
 * quotient, or a float quotient or root, measured slower here.
 *
 * Called by lt_vmath_funcs.c (LT_VMATH_UN512), at lt_cpu_level() >= LT_CPU_AVX512 only; built
 * where lt_simd.h's vector paths exist (GCC or clang, x86-64, outside Windows).
 */
#include "lt_vmath_impl.h"

#if LT_SIMD_X86
#include <immintrin.h>

#define V512 static inline __attribute__((always_inline)) LT_TARGET_AVX512

/* log: 1/c and -log(1/c) for each sixteenth of [OFF, 2 OFF); Q(r) = (log(1 + r) - r) / r^2 */
#define LOG_OFF 0x3fe6600000000000
static const double LOG_INVC[16] = {
    0x1.661ec6a5122f9p+0, 0x1.571ed3c506b3ap+0, 0x1.49539e3b2d067p+0, 0x1.3c995a47babe7p+0,
    0x1.30d190130d190p+0, 0x1.25e22708092f1p+0, 0x1.1bb4a4046ed29p+0, 0x1.12358e75d3033p+0,
    0x1.0953f39010954p+0, 0x1.0000000000000p+0, 0x1.e573ac901e574p-1, 0x1.ca4b3055ee191p-1,
    0x1.b2036406c80d9p-1, 0x1.9c2d14ee4a102p-1, 0x1.886e5f0abb04ap-1, 0x1.767dce434a9b1p-1};
static const double LOG_LNC[16] = {-0x1.57bf753c8d1fbp-2, -0x1.2bef07cdc9355p-2,
                                   -0x1.01eae5626c691p-2, -0x1.b31d8575bce3bp-3,
                                   -0x1.6574ebe8c1339p-3, -0x1.1aa2b7e23f729p-3,
                                   -0x1.a4e7640b1bc38p-4, -0x1.1973bd1465561p-4,
                                   -0x1.252f32f8d1840p-5, 0x0.0p+0,
                                   0x1.b42dd711971b9p-5,  0x1.c5e548f5bc743p-4,
                                   0x1.526e5e3a1b438p-3,  0x1.bc286742d8cd4p-3,
                                   0x1.1058bf9ae4ad4p-2,  0x1.404308686a7e4p-2};
#define LOG_Q0 -0x1.0000000005d2bp-1
#define LOG_Q1 0x1.5555530568d6ep-2
#define LOG_Q2 -0x1.fffff8b72e9b4p-3
#define LOG_Q3 0x1.99ebde4b82045p-3
#define LOG_Q4 -0x1.55abb959295b4p-3
/* exp: 2^(i/16) */
static const double EXP_T[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
#define LN2_16 0x1.62e42fefa39efp-5    /* ln2 / 16 */
#define INV_LN2_16 0x1.71547652b82fep4 /* 16 / ln2 */
#define LOG10E 0x1.bcb7b1526e50ep-2
#define LOG10_2 0x1.34413509f79ffp-2

#define SET1(c) _mm512_set1_pd(c)

/* log u = *k ln2 + (the result) for a positive normal double u; others give a finite value or
   NaN, which the callers replace. */
V512 __m512d ln_parts(__m512d u, __m512d *k) {
  __m512i b = _mm512_castpd_si512(u);
  __m512i t = _mm512_sub_epi64(b, _mm512_set1_epi64(LOG_OFF));
  __m512i ki = _mm512_srai_epi64(t, 52);
  __m512i idx = _mm512_srli_epi64(t, 48); /* vpermt2pd reads the low 4 bits */
  __m512d z = _mm512_castsi512_pd(_mm512_sub_epi64(b, _mm512_slli_epi64(ki, 52)));
  __m512d invc =
      _mm512_permutex2var_pd(_mm512_loadu_pd(LOG_INVC), idx, _mm512_loadu_pd(LOG_INVC + 8));
  __m512d lnc = _mm512_permutex2var_pd(_mm512_loadu_pd(LOG_LNC), idx, _mm512_loadu_pd(LOG_LNC + 8));
  __m512d r = _mm512_fmsub_pd(z, invc, SET1(1.0));
  __m512d q = _mm512_fmadd_pd(SET1(LOG_Q4), r, SET1(LOG_Q3));
  q = _mm512_fmadd_pd(q, r, SET1(LOG_Q2));
  q = _mm512_fmadd_pd(q, r, SET1(LOG_Q1));
  q = _mm512_fmadd_pd(q, r, SET1(LOG_Q0));
  *k = _mm512_cvtepi64_pd(ki);
  return _mm512_add_pd(lnc, _mm512_fmadd_pd(_mm512_mul_pd(r, r), q, r));
}

/* log u for a positive normal double u */
V512 __m512d ln_pd(__m512d u) {
  __m512d k, t = ln_parts(u, &k);
  return _mm512_fmadd_pd(k, SET1(LN2), t);
}

/* exp v = *scale (1 + the result) for v = n ln2/16 + r, n an integer held in the low bits of
   z = n + SHIFT (|n| < 2^20); r given. */
V512 __m512d exp_tail(__m512d z, __m512d r, __m512d *scale) {
  __m512i n = _mm512_sub_epi64(_mm512_castpd_si512(z), _mm512_castpd_si512(SET1(SHIFT)));
  __m512d t = _mm512_permutex2var_pd(_mm512_loadu_pd(EXP_T), n, _mm512_loadu_pd(EXP_T + 8));
  __m512i e = _mm512_slli_epi64(_mm512_srai_epi64(n, 4), 52);
  *scale = _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(t), e));
  __m512d p = _mm512_fmadd_pd(SET1(1.0 / 120), r, SET1(1.0 / 24));
  p = _mm512_fmadd_pd(p, r, SET1(1.0 / 6));
  p = _mm512_fmadd_pd(p, r, SET1(0.5));
  p = _mm512_fmadd_pd(p, r, SET1(1.0));
  return _mm512_mul_pd(p, r);
}

/* exp v = *scale (1 + the result) for v in [-160, 160] */
V512 __m512d exp_parts(__m512d v, __m512d *scale) {
  __m512d z = _mm512_fmadd_pd(v, SET1(INV_LN2_16), SET1(SHIFT));
  __m512d r = _mm512_fnmadd_pd(_mm512_sub_pd(z, SET1(SHIFT)), SET1(LN2_16), v);
  return exp_tail(z, r, scale);
}

/* {====== the bodies: 8 doubles (floats widened) in, 8 out; the special values after ====== */

#define CMPD(a, b, op) _mm512_cmp_pd_mask(a, b, op)
#define F16(c) _mm512_set1_ps(c)
#define CMPF(a, b, op) _mm512_cmp_ps_mask(a, b, op)

/* log2 and log10 of a positive normal v (others give a finite value or NaN, replaced) */
V512 __m512d log2_d(__m512d v) {
  __m512d k, t = ln_parts(v, &k);
  return _mm512_fmadd_pd(t, SET1(LOG2E), k);
}
V512 __m512d log10_d(__m512d v) {
  __m512d k, t = ln_parts(v, &k);
  return _mm512_fmadd_pd(k, SET1(LOG10_2), _mm512_mul_pd(t, SET1(LOG10E)));
}

/* log1p: log of 1 + x (exact in double for |x| >= 2^-29), x - x^2/2 below 2^-28 */
V512 __m512d log1p_d(__m512d v) {
  __m512d l = ln_pd(_mm512_add_pd(SET1(1.0), v));
  __mmask8 tiny = CMPD(_mm512_abs_pd(v), SET1(0x1p-28), _CMP_LT_OQ);
  return _mm512_mask_blend_pd(tiny, l, _mm512_fnmadd_pd(_mm512_mul_pd(SET1(0.5), v), v, v));
}

/* exp2: x = n/16 + f exactly (|f| <= 1/32), 2^f = exp(f ln2) */
V512 __m512d exp2_d(__m512d v) {
  v = _mm512_min_pd(_mm512_max_pd(v, SET1(-151.0)), SET1(129.0)); /* NaN: 129, replaced */
  __m512d z = _mm512_fmadd_pd(v, SET1(16.0), SET1(SHIFT));
  __m512d f = _mm512_fmsub_pd(v, SET1(16.0), _mm512_sub_pd(z, SET1(SHIFT)));
  __m512d scale, p = exp_tail(z, _mm512_mul_pd(f, SET1(LN2_16)), &scale);
  return _mm512_fmadd_pd(scale, p, scale);
}

/* expm1: 2^n (1 + p) - 1 = 2^n p + (2^n - 1), relative for small x too */
V512 __m512d expm1_d(__m512d v) {
  v = _mm512_min_pd(_mm512_max_pd(v, SET1(-104.0)), SET1(89.0));
  __m512d scale, p = exp_parts(v, &scale);
  return _mm512_fmadd_pd(scale, p, _mm512_sub_pd(scale, SET1(1.0)));
}

/* cosh: (E + 1/E)/2, E = exp|x| (one stage: two measured no faster out of cache) */
V512 __m512d cosh_d(__m512d v) {
  __m512d a = _mm512_min_pd(_mm512_abs_pd(v), SET1(90.0));
  __m512d scale, p = exp_parts(a, &scale);
  __m512d e = _mm512_fmadd_pd(scale, p, scale);
  return _mm512_fmadd_pd(SET1(0.5), e, _mm512_div_pd(SET1(0.5), e));
}

/* The two-stage bodies (the header says why): PRE up to and with the division or root, *a
   keeping what POST needs; POST the rest. LT_V512_PIPE runs them. */

/* sinh |x|: (E' + E'/(E' + 1))/2, E' = expm1 a, a = min(|x|, 90) (relative for small x, as
   lt_vmath_funcs.c's) */
V512 __m512d sinh_pre(__m512d v, __m512d *e) {
  __m512d a = _mm512_min_pd(_mm512_abs_pd(v), SET1(90.0)); /* NaN: 90, replaced */
  __m512d scale, p = exp_parts(a, &scale);
  *e = _mm512_fmadd_pd(scale, p, _mm512_sub_pd(scale, SET1(1.0)));
  return _mm512_div_pd(*e, _mm512_add_pd(*e, SET1(1.0)));
}
V512 __m512d sinh_post(__m512d q, __m512d e) {
  return _mm512_mul_pd(SET1(0.5), _mm512_add_pd(e, q));
}

/* asinh a for a < 2^-5: its odd series to a^9 (lt_vmath_funcs.c's) */
V512 __m512d asinh_series(__m512d a) {
  __m512d z = _mm512_mul_pd(a, a);
  __m512d s = _mm512_fmadd_pd(SET1(105.0 / 3456), z, SET1(-15.0 / 336));
  s = _mm512_fmadd_pd(s, z, SET1(3.0 / 40));
  s = _mm512_fmadd_pd(s, z, SET1(-1.0 / 6));
  return _mm512_fmadd_pd(_mm512_mul_pd(a, z), s, a);
}
/* asinh |x|: log(|x| + sqrt(x^2 + 1)) (log 2|x| from 2^30 on, where the difference is below
   2^-60), the series below 2^-5 (computed only where 8 arguments hold one) */
V512 __m512d asinh_pre(__m512d v, __m512d *a) {
  *a = _mm512_abs_pd(v);
  *a = _mm512_mask_blend_pd(CMPD(*a, SET1(0x1.fffffep127), _CMP_LE_OQ), SET1(1.0), *a);
  __m512d u = _mm512_add_pd(*a, _mm512_sqrt_pd(_mm512_fmadd_pd(*a, *a, SET1(1.0))));
  return _mm512_mask_blend_pd(CMPD(*a, SET1(0x1p30), _CMP_GE_OQ), u, _mm512_add_pd(*a, *a));
}
V512 __m512d asinh_post(__m512d u, __m512d a) {
  __m512d l = ln_pd(u);
  __mmask8 small = CMPD(a, SET1(0x1p-5), _CMP_LT_OQ);
  if (small) l = _mm512_mask_blend_pd(small, l, asinh_series(a));
  return l;
}

/* acosh: log(x + sqrt(x^2 - 1)) (x^2 exact; log 2x from 2^30 on); x < 1 (replaced) computed
   as 1 */
V512 __m512d acosh_pre(__m512d v, __m512d *unused) {
  v = _mm512_mask_blend_pd(CMPD(v, SET1(1.0), _CMP_GE_OQ), SET1(1.0), v);
  __m512d u = _mm512_add_pd(v, _mm512_sqrt_pd(_mm512_fmsub_pd(v, v, SET1(1.0))));
  *unused = v;
  return _mm512_mask_blend_pd(CMPD(v, SET1(0x1p30), _CMP_GE_OQ), u, _mm512_add_pd(v, v));
}
V512 __m512d acosh_post(__m512d u, __m512d unused) {
  (void)unused;
  return ln_pd(u);
}

/* atanh |x|: log((1 + a) / (1 - a)) / 2, a = |x|, without a series: 1 + a and 1 - a are exact
   for a >= 2^-29 and the quotient's rounding costs 2^-54 absolute, below 2^-26 of the result (at
   least a); a itself below 2^-28, where a^3/3 is below 2^-56 a */
V512 __m512d atanh_pre(__m512d v, __m512d *a) {
  *a = _mm512_abs_pd(v);
  *a = _mm512_mask_blend_pd(CMPD(*a, SET1(1.0), _CMP_LT_OQ), SET1(0.5), *a);
  return _mm512_div_pd(_mm512_add_pd(SET1(1.0), *a), _mm512_sub_pd(SET1(1.0), *a));
}
V512 __m512d atanh_post(__m512d q, __m512d a) {
  __m512d l = _mm512_mul_pd(SET1(0.5), ln_pd(q));
  return _mm512_mask_blend_pd(CMPD(a, SET1(0x1p-28), _CMP_LT_OQ), l, a);
}

/* asin t for |t| <= 1/2: lt_vmath_funcs.c's asin_small */
V512 __m512d asin_small_pd(__m512d t) {
  __m512d z = _mm512_mul_pd(t, t);
  __m512d p = _mm512_fmadd_pd(SET1(ASIN_C7), z, SET1(ASIN_C6));
  p = _mm512_fmadd_pd(p, z, SET1(ASIN_C5));
  p = _mm512_fmadd_pd(p, z, SET1(ASIN_C4));
  p = _mm512_fmadd_pd(p, z, SET1(ASIN_C3));
  p = _mm512_fmadd_pd(p, z, SET1(ASIN_C2));
  p = _mm512_fmadd_pd(p, z, SET1(ASIN_C1));
  p = _mm512_fmadd_pd(p, z, SET1(ASIN_C0));
  return _mm512_fmadd_pd(_mm512_mul_pd(t, z), p, t);
}

/* acos: pi/2 - asin x for |x| <= 1/2; above, with w = sqrt((1 - |x|)/2), 2 asin w (x > 0) or
   pi - 2 asin w (lt_vmath_funcs.c's); *vk keeps x */
V512 __m512d acos_pre(__m512d v, __m512d *vk) {
  __mmask8 big = CMPD(_mm512_abs_pd(v), SET1(0.5), _CMP_GT_OQ);
  *vk = v; /* the square root only where 8 arguments hold one above 1/2 */
  if (big)
    return _mm512_mask_sqrt_pd(v, big, _mm512_fnmadd_pd(SET1(0.5), _mm512_abs_pd(v), SET1(0.5)));
  return v;
}
V512 __m512d acos_post(__m512d t, __m512d v) {
  __mmask8 big = CMPD(_mm512_abs_pd(v), SET1(0.5), _CMP_GT_OQ);
  __m512d p = asin_small_pd(t);
  __m512d p2 = _mm512_add_pd(p, p);
  __m512d hi =
      _mm512_mask_blend_pd(CMPD(v, SET1(0.0), _CMP_GT_OQ), _mm512_sub_pd(SET1(PI), p2), p2);
  return _mm512_mask_blend_pd(big, _mm512_sub_pd(SET1(PIO2), p), hi);
}

/* atan |x| (lt_vmath_funcs.c's atan_pos): t = num / den in [-(sqrt2 - 1), sqrt2 - 1] plus *c = 0,
   pi/4 or pi/2 (atan(inf): t = -1/inf = -0) */
V512 __m512d atan_pre(__m512d v, __m512d *c) {
  __m512d a = _mm512_abs_pd(v);
  __mmask8 mid = CMPD(a, SET1(TAN_PI_8), _CMP_GT_OQ), hi = CMPD(a, SET1(TAN_3PI_8), _CMP_GT_OQ);
  __m512d num = _mm512_mask_blend_pd(mid, a, _mm512_sub_pd(a, SET1(1.0)));
  num = _mm512_mask_blend_pd(hi, num, SET1(-1.0));
  __m512d den = _mm512_mask_blend_pd(mid, SET1(1.0), _mm512_add_pd(a, SET1(1.0)));
  den = _mm512_mask_blend_pd(hi, den, a);
  *c = _mm512_mask_blend_pd(mid, SET1(0.0), SET1(PIO4));
  *c = _mm512_mask_blend_pd(hi, *c, SET1(PIO2));
  return _mm512_div_pd(num, den);
}
V512 __m512d atan_post(__m512d t, __m512d c) {
  __m512d z = _mm512_mul_pd(t, t);
  __m512d p = _mm512_fmadd_pd(SET1(ATAN_C6), z, SET1(ATAN_C5));
  p = _mm512_fmadd_pd(p, z, SET1(ATAN_C4));
  p = _mm512_fmadd_pd(p, z, SET1(ATAN_C3));
  p = _mm512_fmadd_pd(p, z, SET1(ATAN_C2));
  p = _mm512_fmadd_pd(p, z, SET1(ATAN_C1));
  p = _mm512_fmadd_pd(p, z, SET1(ATAN_C0));
  return _mm512_add_pd(c, _mm512_fmadd_pd(_mm512_mul_pd(t, z), p, t));
}

/* tan: x = q pi/2 + r, |r| <= pi/4 (a little more where x 2/pi rounds the other way), q = x 2/pi
   rounded and r = (x - q PIO2) - q PIO2_LO by two FMAs, each product exact inside it: the pi/2
   past the two parts and the first FMA's rounding cost about q 2^-106, below 2^-48 of the
   smallest r of a float below 2^30 (2^-27.8, at 0x1.f9cbe2p+7); then tan r = r N(r^2)/D(r^2), N of
   degree 2 and D of degree 3 fitted for relative error on [0, (pi/4)^2] (2.4e-14): r N / D in an
   even quadrant, -D / (r N) (-1/tan r) in an odd one, one division either way. */
#define PIO2_LO 0x1.1a62633145c07p-54 /* pi/2 - PIO2 */
#define TAN_N0 0x1.fffffffffff2bp-1
#define TAN_N1 -0x1.f10704cc0108ap-4
#define TAN_N2 0x1.0a737140b57e0p-9
#define TAN_D1 -0x1.d197168861188p-2 /* D(z) = 1 + TAN_D1 z + TAN_D2 z^2 + TAN_D3 z^3 */
#define TAN_D2 0x1.4bebb32e56129p-6
#define TAN_D3 -0x1.98d7f6b09df00p-14
V512 __m512d tan_d(__m512d v) {
  __m512d t = _mm512_fmadd_pd(v, SET1(TWO_OVER_PI), SET1(SHIFT));
  __m512d q = _mm512_sub_pd(t, SET1(SHIFT));
  __m512d r = _mm512_fnmadd_pd(q, SET1(PIO2_LO), _mm512_fnmadd_pd(q, SET1(PIO2), v));
  __m512d z = _mm512_mul_pd(r, r);
  __m512d nm = _mm512_fmadd_pd(SET1(TAN_N2), z, SET1(TAN_N1));
  nm = _mm512_mul_pd(r, _mm512_fmadd_pd(nm, z, SET1(TAN_N0)));
  __m512d d = _mm512_fmadd_pd(SET1(TAN_D3), z, SET1(TAN_D2));
  d = _mm512_fmadd_pd(d, z, SET1(TAN_D1));
  d = _mm512_fmadd_pd(d, z, SET1(1.0));
  __mmask8 odd = _mm512_test_epi64_mask(_mm512_castpd_si512(t), _mm512_set1_epi64(1));
  __m512d num = _mm512_mask_sub_pd(nm, odd, SET1(0.0), d);
  return _mm512_div_pd(num, _mm512_mask_blend_pd(odd, d, nm));
}

/* }====== */

/* {====== the special values: r computed for 16 floats x, replaced where x asks ====== */

/* vfixupimmps's table (a nibble per class of x: QNaN, SNaN, zero, +1, -inf, +inf, negative,
   positive) of what replaces r: 0 r, 1 x itself, 3 NaN, 4 -inf, 5 +inf */
#define FIXUP(r, x, table) _mm512_fixupimm_ps(r, x, _mm512_set1_epi32(table), 0)
/* r (not negative) with x's sign */
#define WITH_SIGN(r, x) _mm512_or_ps(r, _mm512_and_ps(x, F16(-0.0f)))

/* NaN: x; 0: -inf; +inf: +inf; below 0: NaN */
V512 __m512 fix_log(__m512 r, __m512 x) { return FIXUP(r, x, 0x03530411); }
/* NaN: x */
V512 __m512 fix_nan(__m512 r, __m512 x) { return FIXUP(r, x, 0x00000011); }
/* NaN and zeros: x (expm1(-0) = -0) */
V512 __m512 fix_expm1(__m512 r, __m512 x) { return FIXUP(r, x, 0x00000111); }
/* NaN and zeros: x (tan(-0) = -0); the infinities: NaN */
V512 __m512 fix_tan(__m512 r, __m512 x) { return FIXUP(r, x, 0x00330111); }
/* NaN: x; -1: -inf; below: NaN; +inf: +inf */
V512 __m512 fix_log1p(__m512 r, __m512 x) {
  r = _mm512_mask_blend_ps(CMPF(x, F16(-1.0f), _CMP_EQ_OQ), r, F16(-INFINITY));
  r = _mm512_mask_blend_ps(CMPF(x, F16(-1.0f), _CMP_LT_OQ), r, F16(NAN));
  return FIXUP(r, x, 0x00500011);
}
/* x's sign; NaN and the infinities: x */
V512 __m512 fix_asinh(__m512 r, __m512 x) { return FIXUP(WITH_SIGN(r, x), x, 0x00110011); }
/* NaN: x; below 1: NaN; +inf: +inf */
V512 __m512 fix_acosh(__m512 r, __m512 x) {
  r = _mm512_mask_blend_ps(CMPF(x, F16(1.0f), _CMP_LT_OQ), r, F16(NAN));
  return FIXUP(r, x, 0x00500011);
}
/* x's sign; NaN: x */
V512 __m512 fix_atan(__m512 r, __m512 x) { return fix_nan(WITH_SIGN(r, x), x); }
/* beyond +-1: NaN; NaN: x */
V512 __m512 fix_acos(__m512 r, __m512 x) {
  r = _mm512_mask_blend_ps(CMPF(_mm512_abs_ps(x), F16(1.0f), _CMP_GT_OQ), r, F16(NAN));
  return fix_nan(r, x);
}
/* x's sign; +-1: +-inf; beyond: NaN; NaN: x */
V512 __m512 fix_atanh(__m512 r, __m512 x) {
  r = WITH_SIGN(r, x);
  __m512 ax = _mm512_abs_ps(x);
  r = _mm512_mask_blend_ps(CMPF(ax, F16(1.0f), _CMP_EQ_OQ), r, WITH_SIGN(F16(INFINITY), x));
  r = _mm512_mask_blend_ps(CMPF(ax, F16(1.0f), _CMP_GT_OQ), r, F16(NAN));
  return fix_nan(r, x);
}

/* }====== */

/* BODY of 16 floats: widened in two halves, rounded back, FIX applied */
#define LO8(f) _mm512_cvtps_pd(_mm512_castps512_ps256(f))
#define HI8(f) _mm512_cvtps_pd(_mm512_extractf32x8_ps(f, 1))
#define JOIN16(lo, hi) \
  _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1)
#define LT_V512_16(BODY, FIX, xf) FIX(JOIN16(BODY(LO8(xf)), BODY(HI8(xf))), xf)

/* the 16 and the fewer floats after x + i: ONE16 of xf, the tail through masked loads and stores */
#define LT_V512_TAIL(ONE16)                         \
  for (; i + 16 <= n; i += 16) {                    \
    __m512 xf = _mm512_loadu_ps(x + i);             \
    _mm512_storeu_ps(y + i, ONE16);                 \
  }                                                 \
  if (i < n) {                                      \
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1); \
    __m512 xf = _mm512_maskz_loadu_ps(m, x + i);    \
    _mm512_mask_storeu_ps(y + i, m, ONE16);         \
  }

/* lt_vmath512_NAME: BODY and FIX over x[0..n), 32 then 16 at a time, the tail through masked loads
   and stores (y may be x). */
#define LT_V512_LOOP(NAME, ONE16)                                                      \
  LT_TARGET_AVX512 void lt_vmath512_##NAME(float *y, const float *x, int64_t n) {      \
    int64_t i = 0;                                                                     \
    for (; i + 32 <= n; i += 32) { /* two blocks in flight: their chains interleave */ \
      __m512 xf = _mm512_loadu_ps(x + i);                                              \
      __m512 r0 = ONE16;                                                               \
      xf = _mm512_loadu_ps(x + i + 16);                                                \
      __m512 r1 = ONE16;                                                               \
      _mm512_storeu_ps(y + i, r0);                                                     \
      _mm512_storeu_ps(y + i + 16, r1);                                                \
    }                                                                                  \
    LT_V512_TAIL(ONE16)                                                                \
  }
#define LT_V512_UN(NAME, BODY, FIX) LT_V512_LOOP(NAME, LT_V512_16(BODY, FIX, xf))

/* PRE of 16 floats xf into q0, q1 (and a0, a1); POST of them, FIX applied */
#define PIPE_PRE(xf, q0, a0, q1, a1, PRE) \
  __m512d a0, a1, q0 = PRE(LO8(xf), &a0), q1 = PRE(HI8(xf), &a1)
#define PIPE_POST(q0, a0, q1, a1, xf, POST, FIX) FIX(JOIN16(POST(q0, a0), POST(q1, a1)), xf)

/* lt_vmath512_NAME for a two-stage BODY (see the bodies): while 64 floats remain, PRE of the next
   32 then POST of the 32 before; what is left as LT_V512_LOOP's tail (y may be x: each block is
   read before the store of the one before it, and stores go to floats already read). */
#define LT_V512_PIPE(NAME, PRE, POST, FIX)                                              \
  V512 __m512d NAME##_d(__m512d v) {                                                    \
    __m512d a, q = PRE(v, &a);                                                          \
    return POST(q, a);                                                                  \
  }                                                                                     \
  LT_TARGET_AVX512 void lt_vmath512_##NAME##_f32(float *y, const float *x, int64_t n) { \
    int64_t i = 0;                                                                      \
    if (n >= 32) {                                                                      \
      __m512 xa = _mm512_loadu_ps(x), xb = _mm512_loadu_ps(x + 16);                     \
      PIPE_PRE(xa, q0, a0, q1, a1, PRE);                                                \
      PIPE_PRE(xb, q2, a2, q3, a3, PRE);                                                \
      for (; i + 64 <= n; i += 32) {                                                    \
        __m512 na = _mm512_loadu_ps(x + i + 32), nb = _mm512_loadu_ps(x + i + 48);      \
        PIPE_PRE(na, p0, b0, p1, b1, PRE);                                              \
        PIPE_PRE(nb, p2, b2, p3, b3, PRE);                                              \
        _mm512_storeu_ps(y + i, PIPE_POST(q0, a0, q1, a1, xa, POST, FIX));              \
        _mm512_storeu_ps(y + i + 16, PIPE_POST(q2, a2, q3, a3, xb, POST, FIX));         \
        xa = na, xb = nb, q0 = p0, q1 = p1, q2 = p2, q3 = p3;                           \
        a0 = b0, a1 = b1, a2 = b2, a3 = b3;                                             \
      }                                                                                 \
      _mm512_storeu_ps(y + i, PIPE_POST(q0, a0, q1, a1, xa, POST, FIX));                \
      _mm512_storeu_ps(y + i + 16, PIPE_POST(q2, a2, q3, a3, xb, POST, FIX));           \
      i += 32;                                                                          \
    }                                                                                   \
    LT_V512_TAIL(LT_V512_16(NAME##_d, FIX, xf))                                         \
  }

/* tan of 16 floats xf: tan_d, then double libm's tan rounded once (glibc's tanf is 1.37 ulp off
   there) in the lanes where |x| >= 2^30, beyond the reduction (tan_libm, out of line) */
LT_TARGET_AVX512 __attribute__((noinline, cold)) static __m512 tan_libm(__m512 r, __m512 xf,
                                                                        __mmask16 big) {
  float y[16], x[16];
  _mm512_storeu_ps(y, r);
  _mm512_storeu_ps(x, xf);
  for (int j = 0; j < 16; j++)
    if (big >> j & 1) y[j] = (float)tan((double)x[j]);
  return _mm512_loadu_ps(y);
}
V512 __m512 tan16(__m512 xf) {
  __m512 r = LT_V512_16(tan_d, fix_tan, xf);
  __mmask16 big = CMPF(_mm512_abs_ps(xf), F16(0x1p30f), _CMP_GE_OQ);
  return big ? tan_libm(r, xf, big) : r;
}

LT_V512_UN(log2_f32, log2_d, fix_log)
LT_V512_UN(log10_f32, log10_d, fix_log)
LT_V512_UN(log1p_f32, log1p_d, fix_log1p)
LT_V512_UN(exp2_f32, exp2_d, fix_nan)
LT_V512_UN(expm1_f32, expm1_d, fix_expm1)
LT_V512_UN(cosh_f32, cosh_d, fix_nan)
LT_V512_PIPE(sinh, sinh_pre, sinh_post, fix_atan)
LT_V512_PIPE(asinh, asinh_pre, asinh_post, fix_asinh)
LT_V512_PIPE(acosh, acosh_pre, acosh_post, fix_acosh)
LT_V512_PIPE(atanh, atanh_pre, atanh_post, fix_atanh)
LT_V512_PIPE(acos, acos_pre, acos_post, fix_acos)
LT_V512_PIPE(atan, atan_pre, atan_post, fix_atan)
LT_V512_LOOP(tan_f32, tan16(xf))

#else
typedef int lt_vmath_funcs512_none; /* ISO C: a translation unit declares something */
#endif
