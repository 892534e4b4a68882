/*
 * test_stream.c -- the streaming-store kernels (src/core/simd/lt_stream.c) against scalar
 * references written here: every unary and binary operation, float32 and float64, on special values
 * (NaN of both signs, +-0, +-inf, halves, subnormals, the largest values, numbers past 2^23 and
 * 2^52) and random ones, for every length up to 100 and some longer, every output and input
 * offset within a vector (the aligned middle, the scalar head and tail), in place, and with
 * either binary operand broadcast. Results must match bit for bit, NaN for NaN where an
 * arithmetic result is NaN (the payload of a NaN sum is the hardware's). Then the threshold:
 * LTENSOR_STREAM_BYTES sets it.
 */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_stream.h"
#include "test_util.h"

#define MAXN 1200
#define NSPECIAL 24

static const double specials[NSPECIAL] = {
    0.0,    -0.0,     1.0,      -1.0,     0.5,       -0.5,       1.5,
    -1.5,   2.5,      -2.5,     INFINITY, -INFINITY, NAN,        -NAN,
    1e-310, -1e-310,  1e-40,    -3e-39,   8388608.5, -8388609.0, 4503599627370497.0,
    3.4e38, -1.7e308, 12345.678};

/* The references: lt_math.c's and lt_funcs.c's expressions, in double (exact for float
   arguments of these operations, so rounding to float gives the float result). */
static double ref_unary(lt_stream_unop op, double v) {
  switch (op) {
    case LT_SU_ABS: return fabs(v);
    case LT_SU_NEG: return -v;
    case LT_SU_FLOOR: return floor(v);
    case LT_SU_CEIL: return ceil(v);
    case LT_SU_ROUND: return nearbyint(v);
    case LT_SU_TRUNC: return trunc(v);
    case LT_SU_FRAC: return v - trunc(v);
    case LT_SU_RELU: return v > 0 || v != v ? v : 0.0;
    case LT_SU_COUNT: break;
  }
  return 0;
}

static const char *const unames[LT_SU_COUNT] = {"abs",   "neg",   "floor", "ceil",
                                                "round", "trunc", "frac",  "relu"};
static const char *const bnames[LT_SB_COUNT] = {"add", "sub", "mul", "div", "max", "min"};

/* x and w of one type; the result computed in that type */
#define REF_BIN(T)                                      \
  static T ref_bin_##T(lt_stream_binop op, T x, T w) {  \
    switch (op) {                                       \
      case LT_SB_ADD: return x + w;                     \
      case LT_SB_SUB: return x - w;                     \
      case LT_SB_MUL: return x * w;                     \
      case LT_SB_DIV: return x / w;                     \
      case LT_SB_MAX: return (x != x || x > w) ? x : w; \
      case LT_SB_MIN: return (x != x || x < w) ? x : w; \
      case LT_SB_COUNT: break;                          \
    }                                                   \
    return 0;                                           \
  }
REF_BIN(float)
REF_BIN(double)

static uint64_t rng = 88172645463325252u;
static double random_value(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  if (rng % 4 == 0) return specials[(rng >> 8) % NSPECIAL];
  return ((double)(int64_t)(rng >> 11) / 9007199254740992.0 - 0.5) * 1e3;
}

/* Whether got is the reference: the same bits, or both NaN where arithmetic may pick the
   payload (nan_ok). */
static int same32(float got, float want, int nan_ok) {
  if (nan_ok && got != got && want != want) return 1;
  return memcmp(&got, &want, sizeof got) == 0;
}
static int same64(double got, double want, int nan_ok) {
  if (nan_ok && got != got && want != want) return 1;
  return memcmp(&got, &want, sizeof got) == 0;
}

static float xa32[MAXN + 16], xb32[MAXN + 16], y32[MAXN + 16];
static double xa64[MAXN + 16], xb64[MAXN + 16], y64[MAXN + 16];

static void fill(int n) {
  for (int i = 0; i < n + 16; i++) {
    double a = i < NSPECIAL ? specials[i] : random_value(), b = random_value();
    if (i >= NSPECIAL && i < 2 * NSPECIAL) b = specials[i - NSPECIAL];
    xa64[i] = a;
    xb64[i] = b;
    xa32[i] = (float)a;
    xb32[i] = (float)b;
  }
}

static void test_unary(void) {
  static const int lens[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000, MAXN};
  for (int op = 0; op < LT_SU_COUNT; op++)
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
      for (int oy = 0; oy < 8; oy++)
        for (int ox = 0; ox < 8; ox += 3) {
          int n = lens[li];
          fill(n);
          tu_set_context("%s n=%d y+%d x+%d", unames[op], n, oy, ox);
          memset(y32, 0x55, sizeof y32);
          memset(y64, 0x55, sizeof y64);
          lt_stream_unary((lt_stream_unop)op, LT_FLOAT32, y32 + oy, xa32 + ox, n);
          lt_stream_unary((lt_stream_unop)op, LT_FLOAT64, y64 + oy, xa64 + ox, n);
          int bad32 = 0, bad64 = 0;
          for (int i = 0; i < n; i++) {
            float w32 = (float)ref_unary((lt_stream_unop)op, xa32[ox + i]);
            double w64 = ref_unary((lt_stream_unop)op, xa64[ox + i]);
            int nan_ok = op == LT_SU_FRAC || op == LT_SU_FLOOR || op == LT_SU_CEIL ||
                         op == LT_SU_ROUND || op == LT_SU_TRUNC;
            if (!bad32 && !same32(y32[oy + i], w32, nan_ok)) {
              bad32 = 1;
              CHECKF(0, "float32 [%d] of %a: got %a, want %a", i, (double)xa32[ox + i],
                     (double)y32[oy + i], (double)w32);
            }
            if (!bad64 && !same64(y64[oy + i], w64, nan_ok)) {
              bad64 = 1;
              CHECKF(0, "float64 [%d] of %a: got %a, want %a", i, xa64[ox + i], y64[oy + i], w64);
            }
          }
          CHECK(!bad32 && !bad64);
          /* nothing written outside [oy, oy + n) */
          uint32_t guard;
          memcpy(&guard, &y32[oy + n], sizeof guard);
          CHECK(guard == 0x55555555u);
          if (oy > 0) {
            memcpy(&guard, &y32[oy - 1], sizeof guard);
            CHECK(guard == 0x55555555u);
          }
        }
  tu_set_context("%s", "");
}

static void test_in_place(void) {
  int n = 1000;
  fill(n);
  for (int op = 0; op < LT_SU_COUNT; op++) {
    float a[1000], want[1000];
    for (int i = 0; i < n; i++) {
      a[i] = xa32[i];
      want[i] = (float)ref_unary((lt_stream_unop)op, a[i]);
    }
    lt_stream_unary((lt_stream_unop)op, LT_FLOAT32, a, a, n);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= same32(a[i], want[i], 1);
    CHECKF(ok, "%s in place", unames[op]);
  }
}

static void test_binary(void) {
  static const int lens[] = {0, 1, 5, 8, 13, 16, 40, 257, MAXN};
  static const int modes[3][2] = {{1, 1}, {0, 1}, {1, 0}};
  for (int op = 0; op < LT_SB_COUNT; op++)
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
      for (int m = 0; m < 3; m++)
        for (int oy = 0; oy < 8; oy += 3) {
          int n = lens[li], sa = modes[m][0], sb = modes[m][1];
          fill(n);
          tu_set_context("%s n=%d sa=%d sb=%d y+%d", bnames[op], n, sa, sb, oy);
          lt_stream_binary((lt_stream_binop)op, LT_FLOAT32, y32 + oy, xa32 + 1, sa, xb32 + 2, sb,
                           n);
          lt_stream_binary((lt_stream_binop)op, LT_FLOAT64, y64 + oy, xa64 + 1, sa, xb64 + 2, sb,
                           n);
          int ok = 1, nan_ok = op != LT_SB_MAX && op != LT_SB_MIN;
          for (int i = 0; i < n && ok; i++) {
            float w32 = ref_bin_float((lt_stream_binop)op, xa32[1 + i * sa], xb32[2 + i * sb]);
            double w64 = ref_bin_double((lt_stream_binop)op, xa64[1 + i * sa], xb64[2 + i * sb]);
            ok = same32(y32[oy + i], w32, nan_ok) && same64(y64[oy + i], w64, nan_ok);
            if (!ok)
              CHECKF(0, "[%d] of %a, %a: got %a / %a, want %a / %a", i, xa64[1 + i * sa],
                     xb64[2 + i * sb], (double)y32[oy + i], y64[oy + i], (double)w32, w64);
          }
          CHECK(ok);
        }
  tu_set_context("%s", "");
}

/* maximum and minimum keep a NaN from either side, and give w where the two compare equal
   (lt_math.c's (x is NaN or x > w) ? x : w): max(-0, +0) is +0, max(+0, -0) is -0. */
static void test_max_min_cases(void) {
  float a[16], b[16], y[16];
  for (int i = 0; i < 16; i++) {
    a[i] = (float)(i % 2 ? 0.0 : -0.0);
    b[i] = (float)(i % 2 ? -0.0 : 0.0);
  }
  a[3] = NAN;
  b[5] = NAN;
  lt_stream_binary(LT_SB_MAX, LT_FLOAT32, y, a, 1, b, 1, 16);
  CHECK(signbit(y[0]) == 0 && signbit(y[1]) != 0);
  CHECK(isnan(y[3]) && isnan(y[5]));
  lt_stream_binary(LT_SB_MIN, LT_FLOAT32, y, a, 1, b, 1, 16);
  CHECK(signbit(y[0]) == 0 && signbit(y[1]) != 0);
  CHECK(isnan(y[3]) && isnan(y[5]));
}

static void test_threshold(void) {
  /* read once, at the first call: set before it */
  setenv("LTENSOR_STREAM_BYTES", "1000", 1);
  int streams = lt_stream_worth(1e12);
  CHECK(lt_stream_worth(999) == 0);
  CHECK(lt_stream_worth(1000) == streams);
  CHECK(lt_stream_worth(0) == 0);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  CHECK(streams == (__builtin_cpu_supports("avx") != 0));
#endif
}

int main(void) {
  test_threshold();
  test_unary();
  test_in_place();
  test_binary();
  test_max_min_cases();
  return tu_finish("test_stream");
}
