/*
 * test_checked.c -- the portable forms of lt_checked.h (what a compiler without GCC's builtins,
 * MSVC, gets) against the builtins, on the edges of int64: every pair of a set of boundary
 * values, plus pseudo-random pairs; results, overflow flags and the wrapped values must agree.
 */
#include <stdint.h>
#include <stdio.h>

#define LT_CHECKED_PORTABLE 1
#include "lt_checked.h"
#include "test_util.h"

static const int64_t edges[] = {0,
                                1,
                                -1,
                                2,
                                -2,
                                3,
                                7,
                                -7,
                                INT32_MAX,
                                INT32_MIN,
                                (int64_t)1 << 32,
                                -((int64_t)1 << 32),
                                3037000499, /* floor(sqrt(2^63 - 1)) */
                                3037000500,
                                -3037000499,
                                -3037000500,
                                (int64_t)1 << 62,
                                -((int64_t)1 << 62),
                                INT64_MAX,
                                INT64_MIN,
                                INT64_MAX - 1,
                                INT64_MIN + 1,
                                INT64_MAX / 2,
                                INT64_MIN / 2};
#define NEDGES ((int)(sizeof edges / sizeof edges[0]))

static void check_pair(int64_t a, int64_t b) {
  int64_t r1, r2;
  int o1 = lt_mul_overflow(a, b, &r1), o2 = __builtin_mul_overflow(a, b, &r2);
  CHECKF(o1 == o2 && r1 == r2, "mul %lld * %lld: portable %d %lld, builtin %d %lld", (long long)a,
         (long long)b, o1, (long long)r1, o2, (long long)r2);
  o1 = lt_add_overflow(a, b, &r1);
  o2 = __builtin_add_overflow(a, b, &r2);
  CHECKF(o1 == o2 && r1 == r2, "add %lld + %lld: portable %d %lld, builtin %d %lld", (long long)a,
         (long long)b, o1, (long long)r1, o2, (long long)r2);
}

int main(void) {
  for (int i = 0; i < NEDGES; i++)
    for (int j = 0; j < NEDGES; j++) check_pair(edges[i], edges[j]);
  uint64_t s = 0x9E3779B97F4A7C15u; /* xorshift pairs, scaled to hit both sides of overflow */
  for (int k = 0; k < 200000; k++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    int64_t a = (int64_t)s >> (s & 63);
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    int64_t b = (int64_t)s >> (s & 63);
    check_pair(a, b);
  }
  for (int bit = 0; bit < 64; bit++) {
    uint64_t m = (uint64_t)1 << bit;
    CHECKF(lt_clz64(m) == __builtin_clzll(m), "clz of 2^%d", bit);
    CHECKF(lt_clz64(m | 1) == __builtin_clzll(m | 1), "clz of 2^%d + 1", bit);
  }
  return tu_finish("test_checked");
}
