/*
 * lt_simd.h -- one kernel body compiled once per vector path (plain C, AVX2 + FMA, AVX-512) and
 * the pick among them by lt_cpu_level(), so that LTENSOR_SIMD forces any path the processor
 * has (an ifunc resolver, as target_clones makes, follows the processor only). Lua-free,
 * internal (not installed).
 *
 * A body is a static LT_SIMD_INLINE function without target attributes; LT_SIMD_CLONES_VOID
 * (or _INT) defines NAME_c, NAME_avx2 and NAME_avx512 that call it, each compiled for its
 * target (the body is inlined, then vectorized for that path's registers: 512-bit under GCC,
 * whose AVX-512 tuning otherwise prefers 256-bit vectors; clang keeps 256-bit ones there, with
 * AVX-512's instructions), and LT_SIMD_PICK(NAME) is the one the level in use asks for. The
 * vector paths exist where GCC or clang build for x86-64 outside Windows (whose ABI does not
 * align the stack for AVX spills); elsewhere only NAME_c is defined and picked.
 *
 * Calls lt_cpu.c. Used by lt_vmath.c, lt_vmath_funcs.c, lt_vmath_funcs512.c (LT_TARGET_AVX512
 * alone), lt_funcs.c, lt_math.c, lt_reduce.c and lt_random.c.
 */
#ifndef LT_SIMD_H
#define LT_SIMD_H

#include "lt_cpu.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32)
#define LT_SIMD_X86 1
#define LT_SIMD_INLINE inline __attribute__((always_inline))
#define LT_TARGET_AVX2 __attribute__((target("arch=x86-64-v3")))
#if defined(__clang__)
#define LT_TARGET_AVX512 __attribute__((target("arch=x86-64-v4")))
#else
#define LT_TARGET_AVX512 __attribute__((target("arch=x86-64-v4,prefer-vector-width=512")))
#endif
#else
#define LT_SIMD_X86 0
#if defined(__GNUC__) || defined(__clang__)
#define LT_SIMD_INLINE inline __attribute__((always_inline))
#else
#define LT_SIMD_INLINE inline
#endif
#endif

#if LT_SIMD_X86
/* NAME_c, NAME_avx2, NAME_avx512 (static, returning RET: void or a value) with parameters
   PARAMS, each running BODY(ARGS) compiled for its path. */
#define LT_SIMD_CLONES_VOID(NAME, BODY, PARAMS, ARGS)          \
  static void NAME##_c PARAMS { BODY ARGS; }                   \
  LT_TARGET_AVX2 static void NAME##_avx2 PARAMS { BODY ARGS; } \
  LT_TARGET_AVX512 static void NAME##_avx512 PARAMS { BODY ARGS; }
#define LT_SIMD_CLONES_RET(RET, NAME, BODY, PARAMS, ARGS)            \
  static RET NAME##_c PARAMS { return BODY ARGS; }                   \
  LT_TARGET_AVX2 static RET NAME##_avx2 PARAMS { return BODY ARGS; } \
  LT_TARGET_AVX512 static RET NAME##_avx512 PARAMS { return BODY ARGS; }
/* The clone of NAME for the level in use. */
#define LT_SIMD_PICK(NAME)                         \
  (lt_cpu_level() >= LT_CPU_AVX512 ? NAME##_avx512 \
   : lt_cpu_level() >= LT_CPU_AVX2 ? NAME##_avx2   \
                                   : NAME##_c)
#else
#define LT_SIMD_CLONES_VOID(NAME, BODY, PARAMS, ARGS) \
  static void NAME##_c PARAMS { BODY ARGS; }
#define LT_SIMD_CLONES_RET(RET, NAME, BODY, PARAMS, ARGS) \
  static RET NAME##_c PARAMS { return BODY ARGS; }
#define LT_SIMD_PICK(NAME) NAME##_c
#endif

#endif
