/*
 * lt_cpu.c -- the vector path the kernels take (see lt_cpu.h). Lua-free.
 *
 * The processor is asked once (__builtin_cpu_supports where GCC or clang build for x86-64, else
 * the scalar path); the answer and LTENSOR_SIMD's cap are cached in an atomic, so that every
 * thread computes the same value and a race only repeats the work.
 */
#include "lt_cpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"scalar", "avx2", "avx512"};

const char *lt_cpu_level_name(int level) {
  return level >= LT_CPU_SCALAR && level <= LT_CPU_AVX512 ? names[level] : "scalar";
}

int lt_cpu_level_max(void) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  __builtin_cpu_init();
  int v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2");
  int v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  return v4 ? LT_CPU_AVX512 : v3 ? LT_CPU_AVX2 : LT_CPU_SCALAR;
#else
  return LT_CPU_SCALAR;
#endif
}

static atomic_int level_cache = -1;

int lt_cpu_level(void) {
  int v = atomic_load_explicit(&level_cache, memory_order_relaxed);
  if (v >= 0) return v;
  v = lt_cpu_level_max();
  const char *cap = getenv("LTENSOR_SIMD");
  for (int l = LT_CPU_SCALAR; cap && l < v; l++)
    if (strcmp(cap, names[l]) == 0) v = l;
  atomic_store_explicit(&level_cache, v, memory_order_relaxed);
  return v;
}
