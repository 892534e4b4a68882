/*
 * lt_cpu.h -- which vector path the kernels take: the processor's widest (asked once), lowered
 * by the environment variable LTENSOR_SIMD so that every path can be run and tested on one
 * machine. Lua-free.
 *
 * Kernels written for several paths (the FFT, the sort, the convolution's product, the vector
 * math) pick theirs with lt_cpu_level(); code compiled with target_clones follows the
 * processor only. LTENSOR_SIMD = "avx512", "avx2" or "scalar" (read once, at the first call)
 * caps the level; it never raises it above what the processor has, and an unknown value is
 * ignored.
 *
 * Calls nothing of ltensor. Called by the kernels and by the binding's lt.config().
 */
#ifndef LT_CPU_H
#define LT_CPU_H

typedef enum {
  LT_CPU_SCALAR = 0, /* plain C: any processor, and the reference path */
  LT_CPU_AVX2 = 1,   /* x86-64-v3: AVX2, FMA, BMI2 */
  LT_CPU_AVX512 = 2  /* x86-64-v4: AVX-512 F, BW, DQ, VL */
} lt_cpu_level_t;

/* The level the kernels use (the processor's, capped by LTENSOR_SIMD). */
int lt_cpu_level(void);
/* The processor's own level, whatever LTENSOR_SIMD says. */
int lt_cpu_level_max(void);
/* "avx512", "avx2" or "scalar". */
const char *lt_cpu_level_name(int level);

#endif
