/*
 * lt_checked.h -- overflow-checked int64 arithmetic and the leading-zero count, for sizes,
 * strides and offsets: GCC's and clang's builtins where the compiler has them, portable C
 * elsewhere (MSVC), with the same results (the portable forms are tested against the builtins
 * in spec/c/test_checked.c, which defines LT_CHECKED_PORTABLE to get them). Header only,
 * Lua-free; any file of the core or the binding may include it.
 */
#ifndef LT_CHECKED_H
#define LT_CHECKED_H

#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(LT_CHECKED_PORTABLE)
#define LT_CHECKED_BUILTINS 1
#endif

/* *r = a * b; returns 1 when the product overflows int64 (*r then holds it modulo 2^64). */
static inline int lt_mul_overflow(int64_t a, int64_t b, int64_t *r) {
#ifdef LT_CHECKED_BUILTINS
  return __builtin_mul_overflow(a, b, r);
#else
  *r = (int64_t)((uint64_t)a * (uint64_t)b);
  if (a == 0 || b == 0) return 0;
  if (a > 0) return b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
  return b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b;
#endif
}

/* *r = a + b; returns 1 when the sum overflows int64 (*r then holds it modulo 2^64). */
static inline int lt_add_overflow(int64_t a, int64_t b, int64_t *r) {
#ifdef LT_CHECKED_BUILTINS
  return __builtin_add_overflow(a, b, r);
#else
  *r = (int64_t)((uint64_t)a + (uint64_t)b);
  return b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b;
#endif
}

/* The number of leading zero bits of m, which is not 0. */
static inline int lt_clz64(uint64_t m) {
#ifdef LT_CHECKED_BUILTINS
  return __builtin_clzll(m);
#else
  int n = 0;
  for (uint64_t bit = (uint64_t)1 << 63; !(m & bit); bit >>= 1) n++;
  return n;
#endif
}

#endif
