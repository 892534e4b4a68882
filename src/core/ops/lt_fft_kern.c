/*
 * lt_fft_kern.c -- the kernel tables of lt_fft: lt_fft_kern.h instantiated for float32 and
 * float64 on the scalar path (plain C, every compiler), and where GCC or clang build for x86-64
 * (not Windows) on the AVX2 + FMA and the AVX-512 paths; lt_fft_kern_get picks by lt_cpu_level().
 * Lua-free.
 *
 * Calls lt_cpu.c. Called by lt_fft.c (and spec/c/test_fft.c, for each path).
 */
#include <string.h>

#include "lt_cpu.h"
#include "lt_fft.h"
#include "lt_fft_plan.h"

#define T float
#define W 8
#define SUF f32s
#define KATTR
#define LT_FFT_VEC 0
#include "lt_fft_kern.h"

#define T double
#define W 4
#define SUF f64s
#define KATTR
#define LT_FFT_VEC 0
#include "lt_fft_kern.h"

/* not on Windows: GCC there does not realign the stack for the 32- and 64-byte spills of these
   functions (GCC bug 54412), so they take the plain path */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32)
#define LT_FFT_X86 1
#define T float
#define W 8
#define SUF f32a
#define KATTR __attribute__((target("avx2,fma")))
#define LT_FFT_VEC 1
#include "lt_fft_kern.h"

#define T double
#define W 4
#define SUF f64a
#define KATTR __attribute__((target("avx2,fma")))
#define LT_FFT_VEC 1
#include "lt_fft_kern.h"

#define T float
#define W 16
#define SUF f32z
#define KATTR __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#define LT_FFT_VEC 1
#include "lt_fft_kern.h"

#define T double
#define W 8
#define SUF f64z
#define KATTR __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#define LT_FFT_VEC 1
#include "lt_fft_kern.h"
#endif

const lt_fft_kern *lt_fft_kern_level(int f64, int level) {
#ifdef LT_FFT_X86
  if (level >= LT_CPU_AVX512) return f64 ? &kern_f64z : &kern_f32z;
  if (level >= LT_CPU_AVX2) return f64 ? &kern_f64a : &kern_f32a;
#else
  (void)level;
#endif
  return f64 ? &kern_f64s : &kern_f32s;
}

const lt_fft_kern *lt_fft_kern_get(int f64) { return lt_fft_kern_level(f64, lt_cpu_level()); }
