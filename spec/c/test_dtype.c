/*
 * test_dtype.c -- the dtype table, float16/bfloat16 conversions (to the bit), and the write
 * rules of lt_store / lt_load.
 *
 * float16 results are compared against GCC's _Float16 (libgcc's soft-fp, correctly rounded) and
 * against an independent reference written here (ref_narrow); bfloat16 results against that
 * reference only.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lt_dtype.h"
#include "test_util.h"

__extension__ typedef _Float16 gcc_f16;

/* {====== helpers ====== */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t xorshift64(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Bits and values through a union (C11 reads the other member as those bytes). */
typedef union {
  float f;
  uint32_t u;
} f32_u;
typedef union {
  double d;
  uint64_t u;
} f64_u;
static uint32_t f32_bits(float f) { return (f32_u){.f = f}.u; }
static float f32_of(uint32_t u) { return (f32_u){.u = u}.f; }
static double f64_of(uint64_t u) { return (f64_u){.u = u}.d; }

/* GCC's own conversions to float16, as bits. The volatile operands keep GCC from folding a
   widen-then-narrow pair into nothing. */
static uint16_t f16_bits(gcc_f16 h) {
  uint16_t b;
  memcpy(&b, &h, sizeof b);
  return b;
}
static uint16_t gcc_f16_of_f64(double d) {
  volatile double vd = d;
  return f16_bits((gcc_f16)vd);
}
static uint16_t gcc_f16_of_f32(float f) {
  volatile float vf = f;
  return f16_bits((gcc_f16)vf);
}
static float gcc_f32_of_f16(uint16_t b) {
  volatile gcc_f16 h;
  memcpy((void *)&h, &b, sizeof h);
  return (float)h;
}

/* The value of a float16 pattern, computed from the fields (finite patterns only). */
static double f16_value(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? ldexp((double)m, -24) : ldexp(1024.0 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
static double bf16_value(uint16_t h) {
  int e = (h >> 7) & 0xff, m = h & 0x7f;
  double v = e == 0 ? ldexp((double)m, -133) : ldexp(128.0 + m, e - 134);
  return (h & 0x8000) ? -v : v;
}

/*
 * Independent reference of a narrowing to a binary format with mbits fraction bits and exponent
 * bias `bias`: the two neighbours of |x| on the grid of the format, ties to the even one,
 * overflow to inf once the rounded value reaches 2^(bias+1). NaN gives the canonical quiet NaN
 * (callers test NaN separately).
 */
static uint16_t ref_narrow(double x, int mbits, int bias) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  uint16_t inf = (uint16_t)(((1u << (15 - mbits)) - 1) << mbits);
  if (isnan(x)) return (uint16_t)(sign | inf | (1u << (mbits - 1)));
  double a = fabs(x), big = ldexp(1.0, bias + 1);
  if (a >= big) return (uint16_t)(sign | inf);
  int emin = 1 - bias, e;
  frexp(a, &e); /* a in [2^(e-1), 2^e) */
  int E = e - 1 < emin ? emin : e - 1;
  double ulp = ldexp(1.0, E - mbits);
  double k = floor(a / ulp); /* exact: scaling by a power of two */
  double lo = k * ulp, mid = (k + 0.5) * ulp, hi = (k + 1) * ulp; /* all exact */
  double r = a < mid ? lo : a > mid ? hi : fmod(k, 2.0) == 0 ? lo : hi;
  if (r >= big) return (uint16_t)(sign | inf);
  if (r < ldexp(1.0, emin)) return (uint16_t)(sign | (uint16_t)(r / ldexp(1.0, emin - mbits)));
  frexp(r, &e);
  E = e - 1;
  uint16_t mant = (uint16_t)((ldexp(r, -E) - 1.0) * ldexp(1.0, mbits));
  return (uint16_t)(sign | (uint16_t)((E + bias) << mbits) | mant);
}
static uint16_t ref_f16(double x) { return ref_narrow(x, 10, 15); }
static uint16_t ref_bf16(double x) { return ref_narrow(x, 7, 127); }

static int f16_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }
static int bf16_is_nan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0; }

/* A random double: random sign and mantissa, exponent field in [lo, hi]. */
static double rand_double(int lo, int hi) {
  uint64_t r = xorshift64();
  uint64_t e = (uint64_t)(lo + (int)(xorshift64() % (uint64_t)(hi - lo + 1)));
  return f64_of((r & 0x800fffffffffffffULL) | (e << 52));
}

/* }====== */

/* {====== (a) float16: every pattern ====== */

static void test_f16_all_patterns(void) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t h = (uint16_t)i;
    float mine = lt_f16_to_f32(h), gcc = gcc_f32_of_f16(h);
    CHECKF(f32_bits(mine) == f32_bits(gcc), "lt_f16_to_f32(0x%04x) = 0x%08x, _Float16 gives 0x%08x",
           h, f32_bits(mine), f32_bits(gcc));
    uint16_t back = lt_f64_to_f16((double)mine);
    if (f16_is_nan(h)) {
      CHECKF(f16_is_nan(back) && (back & 0x0200) && (back & 0x8000) == (h & 0x8000),
             "NaN 0x%04x came back as 0x%04x", h, back);
      CHECKF(back == gcc_f16_of_f32(gcc), "NaN 0x%04x came back as 0x%04x, _Float16: 0x%04x", h,
             back, gcc_f16_of_f32(gcc));
    } else {
      CHECKF(back == h, "round trip of 0x%04x gave 0x%04x", h, back);
      CHECKF(lt_f32_to_f16(mine) == h, "f32 round trip of 0x%04x gave 0x%04x", h,
             lt_f32_to_f16(mine));
      /* the widened value is the value of the fields */
      CHECKF((double)mine == f16_value(h) || (h & 0x7c00) == 0x7c00, "value of 0x%04x", h);
    }
  }
}

/* }====== */

/* {====== (b) float16 narrowing ====== */

static void check_f16(double x, uint16_t want, int line) {
  uint16_t got = lt_f64_to_f16(x), gcc = gcc_f16_of_f64(x);
  CHECKF(got == want, "line %d: lt_f64_to_f16(%a) = 0x%04x, expected 0x%04x", line, x, got, want);
  CHECKF(gcc == want,
         "line %d: the test's expectation for %a (0x%04x) disagrees with _Float16 "
         "(0x%04x)",
         line, x, want, gcc);
}
#define CHECK_F16(x, want) check_f16((x), (want), __LINE__)

static void test_f16_narrow_random(void) {
  /* exponents from well below the subnormals (2^-27) to well above the max (2^17) */
  for (int i = 0; i < 400000; i++) {
    double x = rand_double(1023 - 27, 1023 + 17);
    uint16_t got = lt_f64_to_f16(x), gcc = gcc_f16_of_f64(x), ref = ref_f16(x);
    CHECKF(got == gcc, "lt_f64_to_f16(%a) = 0x%04x, _Float16: 0x%04x", x, got, gcc);
    CHECKF(ref == gcc, "reference for %a = 0x%04x, _Float16: 0x%04x", x, ref, gcc);
  }
  /* any bit pattern: huge, tiny, subnormal doubles, NaNs with payloads */
  for (int i = 0; i < 100000; i++) {
    double x = f64_of(xorshift64());
    uint16_t got = lt_f64_to_f16(x), gcc = gcc_f16_of_f64(x);
    if (isnan(x))
      CHECKF(f16_is_nan(got) && (got & 0x0200) && (got >> 15) == (uint16_t) !!signbit(x),
             "NaN %a gave 0x%04x", x, got);
    else
      CHECKF(got == gcc, "lt_f64_to_f16(%a) = 0x%04x, _Float16: 0x%04x", x, got, gcc);
  }
  /* doubles a few ulps away from float16 values (directed: mantissas 0..3 and ~0..~3 below) */
  for (int i = 0; i < 65536; i += 7) {
    if (((i >> 10) & 0x1f) == 0x1f) continue;
    double v = f16_value((uint16_t)i);
    double x = v;
    for (int k = 0; k < 3; k++) {
      x = nextafter(x, INFINITY);
      CHECKF(lt_f64_to_f16(x) == gcc_f16_of_f64(x), "%a", x);
    }
    x = v;
    for (int k = 0; k < 3; k++) {
      x = nextafter(x, -INFINITY);
      CHECKF(lt_f64_to_f16(x) == gcc_f16_of_f64(x), "%a", x);
    }
  }
}

static void test_f16_ties(void) {
  /* exactly halfway between h and h+1, for every positive finite h: rounds to the even one */
  for (uint16_t h = 0; h <= 0x7bff; h++) {
    double lo = f16_value(h), hi = h == 0x7bff ? 65536.0 : f16_value((uint16_t)(h + 1));
    double mid = (lo + hi) / 2; /* exact */
    uint16_t even = (h & 1) ? (uint16_t)(h + 1) : h;
    CHECK_F16(mid, even);
    CHECK_F16(-mid, (uint16_t)(even | 0x8000));
    CHECK_F16(nextafter(mid, 0), h);
    CHECK_F16(nextafter(mid, INFINITY), (uint16_t)(h + 1));
    CHECK_F16(-nextafter(mid, 0), (uint16_t)(h | 0x8000));
    CHECK_F16(-nextafter(mid, INFINITY), (uint16_t)((h + 1) | 0x8000));
  }
}

static void test_f16_specials(void) {
  CHECK_F16(0.0, 0x0000);
  CHECK_F16(-0.0, 0x8000);
  CHECK_F16(1.0, 0x3c00);
  CHECK_F16(-2.0, 0xc000);
  CHECK_F16(1.0 + 0x1p-11, 0x3c00);     /* tie, even mantissa kept */
  CHECK_F16(1.0 + 3 * 0x1p-11, 0x3c02); /* tie, odd mantissa rounds up */
  CHECK_F16(65504.0, 0x7bff);
  CHECK_F16(65519.0, 0x7bff);
  CHECK_F16(nextafter(65520.0, 0), 0x7bff);
  CHECK_F16(65520.0, 0x7c00); /* max + half ulp: ties to even = inf */
  CHECK_F16(-65520.0, 0xfc00);
  CHECK_F16(65536.0, 0x7c00);
  CHECK_F16(1e300, 0x7c00);
  CHECK_F16(DBL_MAX, 0x7c00);
  CHECK_F16(-DBL_MAX, 0xfc00);
  CHECK_F16(INFINITY, 0x7c00);
  CHECK_F16(-INFINITY, 0xfc00);
  CHECK_F16(0x1p-24, 0x0001); /* smallest subnormal */
  CHECK_F16(0x1p-25, 0x0000); /* half of it: tie to 0 */
  CHECK_F16(-0x1p-25, 0x8000);
  CHECK_F16(nextafter(0x1p-25, 1), 0x0001); /* just above half */
  CHECK_F16(-nextafter(0x1p-25, 1), 0x8001);
  CHECK_F16(nextafter(0x1p-25, 0), 0x0000);
  CHECK_F16(3 * 0x1p-25, 0x0002); /* tie between 1 and 2 */
  CHECK_F16(0x1p-26, 0x0000);
  CHECK_F16(DBL_TRUE_MIN, 0x0000);
  CHECK_F16(-DBL_MIN, 0x8000);
  CHECK_F16(1023 * 0x1p-24, 0x03ff);   /* largest subnormal */
  CHECK_F16(1023.5 * 0x1p-24, 0x0400); /* rounds up into the normals */
  CHECK_F16(0x1p-14, 0x0400);          /* smallest normal */
  CHECK_F16(0.1, 0x2e66);
  CHECK_F16(3.14159265358979, 0x4248);
  uint16_t n = lt_f64_to_f16(NAN);
  CHECKF(f16_is_nan(n) && (n & 0x0200) && !(n & 0x8000), "NaN gave 0x%04x", n);
  n = lt_f64_to_f16(-NAN);
  CHECKF(f16_is_nan(n) && (n & 0x0200) && (n & 0x8000), "-NaN gave 0x%04x", n);
  n = lt_f64_to_f16(f64_of(0x7ff0000000000001ULL)); /* signaling, low payload only */
  CHECKF(f16_is_nan(n) && (n & 0x0200), "sNaN gave 0x%04x", n);
}

static void test_f32_to_f16(void) {
  /* a strided walk over all float patterns (step prime, so every bit position varies) */
  for (uint64_t u = 0; u < 0x100000000ULL; u += 4099) {
    float f = f32_of((uint32_t)u);
    uint16_t got = lt_f32_to_f16(f), gcc = gcc_f16_of_f32(f);
    if (isnan(f))
      CHECKF(f16_is_nan(got) && (got & 0x0200) && (got >> 15) == (u >> 31),
             "NaN 0x%08x gave 0x%04x", (unsigned)u, got);
    else
      CHECKF(got == gcc, "lt_f32_to_f16(0x%08x) = 0x%04x, _Float16: 0x%04x", (unsigned)u, got, gcc);
  }
  /* floats with exponents where float16 rounding happens */
  for (int i = 0; i < 200000; i++) {
    uint32_t e = 127 - 27 + (uint32_t)(xorshift64() % 45);
    uint32_t u = ((uint32_t)xorshift64() & 0x807fffffu) | (e << 23);
    float f = f32_of(u);
    CHECKF(lt_f32_to_f16(f) == gcc_f16_of_f32(f),
           "lt_f32_to_f16(0x%08x) = 0x%04x, _Float16: 0x%04x", u, lt_f32_to_f16(f),
           gcc_f16_of_f32(f));
  }
}

/* }====== */

/* {====== (c) bfloat16 ====== */

static void check_bf16(double x, uint16_t want, int line) {
  uint16_t got = lt_f64_to_bf16(x), ref = ref_bf16(x);
  CHECKF(got == want, "line %d: lt_f64_to_bf16(%a) = 0x%04x, expected 0x%04x", line, x, got, want);
  CHECKF(ref == want, "line %d: reference for %a = 0x%04x, expected 0x%04x", line, x, ref, want);
}
#define CHECK_BF16(x, want) check_bf16((x), (want), __LINE__)

static void test_bf16(void) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t h = (uint16_t)i;
    float f = lt_bf16_to_f32(h);
    CHECKF(f32_bits(f) == i << 16, "lt_bf16_to_f32(0x%04x) = 0x%08x", h, f32_bits(f));
    uint16_t back = lt_f64_to_bf16((double)f), back32 = lt_f32_to_bf16(f);
    if (bf16_is_nan(h)) {
      CHECKF(bf16_is_nan(back) && (back & 0x0040) && (back & 0x8000) == (h & 0x8000),
             "NaN 0x%04x came back as 0x%04x", h, back);
      CHECKF(back32 == back, "0x%04x: f32 0x%04x, f64 0x%04x", h, back32, back);
    } else {
      CHECKF(back == h, "round trip of 0x%04x gave 0x%04x", h, back);
      CHECKF(back32 == h, "f32 round trip of 0x%04x gave 0x%04x", h, back32);
      CHECKF((double)f == bf16_value(h) || (h & 0x7f80) == 0x7f80, "value of 0x%04x", h);
    }
  }
  /* random doubles: from below the subnormals (2^-136) to beyond the max (2^130) */
  for (int i = 0; i < 400000; i++) {
    double x = rand_double(1023 - 136, 1023 + 130);
    uint16_t got = lt_f64_to_bf16(x), ref = ref_bf16(x);
    CHECKF(got == ref, "lt_f64_to_bf16(%a) = 0x%04x, reference 0x%04x", x, got, ref);
  }
  for (int i = 0; i < 100000; i++) {
    double x = f64_of(xorshift64());
    uint16_t got = lt_f64_to_bf16(x);
    if (isnan(x))
      CHECKF(bf16_is_nan(got) && (got & 0x0040) && (got >> 15) == (uint16_t) !!signbit(x),
             "NaN gave 0x%04x", got);
    else
      CHECKF(got == ref_bf16(x), "lt_f64_to_bf16(%a) = 0x%04x, reference 0x%04x", x, got,
             ref_bf16(x));
  }
  /* floats through lt_f32_to_bf16 */
  for (uint64_t u = 0; u < 0x100000000ULL; u += 65521) {
    float f = f32_of((uint32_t)u);
    if (isnan(f)) continue;
    CHECKF(lt_f32_to_bf16(f) == ref_bf16((double)f), "lt_f32_to_bf16(0x%08x) = 0x%04x, ref 0x%04x",
           (unsigned)u, lt_f32_to_bf16(f), ref_bf16((double)f));
  }
  /* ties: every positive finite pattern and the one above it */
  for (uint16_t h = 0; h <= 0x7f7f; h++) {
    double lo = bf16_value(h), hi = h == 0x7f7f ? 0x1p128 : bf16_value((uint16_t)(h + 1));
    double mid = (lo + hi) / 2;
    uint16_t even = (h & 1) ? (uint16_t)(h + 1) : h;
    CHECK_BF16(mid, even);
    CHECK_BF16(-mid, (uint16_t)(even | 0x8000));
    CHECK_BF16(nextafter(mid, 0), h);
    CHECK_BF16(nextafter(mid, INFINITY), (uint16_t)(h + 1));
  }
  double maxbf = 0x1.fep127, halfulp = 0x1p119; /* 0x7f7f and half its ulp */
  CHECK_BF16(maxbf, 0x7f7f);
  CHECK_BF16(maxbf + halfulp, 0x7f80); /* max + half ulp: inf */
  CHECK_BF16(nextafter(maxbf + halfulp, 0), 0x7f7f);
  CHECK_BF16(-(maxbf + halfulp), 0xff80);
  CHECK_BF16((double)FLT_MAX, 0x7f80);
  CHECK_BF16(1e300, 0x7f80);
  CHECK_BF16(INFINITY, 0x7f80);
  CHECK_BF16(-INFINITY, 0xff80);
  CHECK_BF16(0.0, 0x0000);
  CHECK_BF16(-0.0, 0x8000);
  CHECK_BF16(1.0, 0x3f80);
  CHECK_BF16(1.0 + 0x1p-8, 0x3f80);     /* tie, even kept */
  CHECK_BF16(1.0 + 3 * 0x1p-8, 0x3f82); /* tie, odd rounds up */
  CHECK_BF16(0x1p-133, 0x0001);         /* smallest subnormal */
  CHECK_BF16(0x1p-134, 0x0000);         /* half of it: tie to 0 */
  CHECK_BF16(nextafter(0x1p-134, 1), 0x0001);
  CHECK_BF16(0x1p-126, 0x0080);         /* smallest normal */
  CHECK_BF16(127.5 * 0x1p-133, 0x0080); /* largest subnormal + half: rounds up, odd */
  CHECK_BF16(DBL_TRUE_MIN, 0x0000);
  CHECK_BF16(0.1, 0x3dcd);
  CHECK_BF16(-3.14159265358979, 0xc049);
  uint16_t n = lt_f64_to_bf16(NAN);
  CHECKF(bf16_is_nan(n) && (n & 0x0040), "NaN gave 0x%04x", n);
  n = lt_f64_to_bf16(-NAN);
  CHECKF(bf16_is_nan(n) && (n & 0x8000), "-NaN gave 0x%04x", n);
  n = lt_f64_to_bf16(f64_of(0x7ff0000000000001ULL));
  CHECKF(bf16_is_nan(n) && (n & 0x0040), "sNaN gave 0x%04x", n);
}

/* }====== */

/* {====== (d) the dtype table ====== */

static void test_table(void) {
  static const struct {
    const char *name;
    lt_dtype dt;
    size_t size;
    int code, bits;
    int is_int, is_signed, is_float, is_complex;
  } want[] = {
      {"bool", LT_BOOL, 1, 6, 8, 0, 0, 0, 0},
      {"uint8", LT_UINT8, 1, 1, 8, 1, 0, 0, 0},
      {"int8", LT_INT8, 1, 0, 8, 1, 1, 0, 0},
      {"int16", LT_INT16, 2, 0, 16, 1, 1, 0, 0},
      {"int32", LT_INT32, 4, 0, 32, 1, 1, 0, 0},
      {"int64", LT_INT64, 8, 0, 64, 1, 1, 0, 0},
      {"uint16", LT_UINT16, 2, 1, 16, 1, 0, 0, 0},
      {"uint32", LT_UINT32, 4, 1, 32, 1, 0, 0, 0},
      {"uint64", LT_UINT64, 8, 1, 64, 1, 0, 0, 0},
      {"float16", LT_FLOAT16, 2, 2, 16, 0, 1, 1, 0},
      {"bfloat16", LT_BFLOAT16, 2, 4, 16, 0, 1, 1, 0},
      {"float32", LT_FLOAT32, 4, 2, 32, 0, 1, 1, 0},
      {"float64", LT_FLOAT64, 8, 2, 64, 0, 1, 1, 0},
      {"complex64", LT_COMPLEX64, 8, 5, 64, 0, 1, 0, 1},
      {"complex128", LT_COMPLEX128, 16, 5, 128, 0, 1, 0, 1},
  };
  CHECK(sizeof want / sizeof want[0] == LT_NDTYPES);
  CHECK(LT_NDTYPES == 15);
  unsigned seen = 0;
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    lt_dtype dt = lt_dtype_from_name(want[i].name);
    CHECKF(dt == want[i].dt, "lt_dtype_from_name(\"%s\") = %d", want[i].name, (int)dt);
    if (dt >= LT_NDTYPES) continue;
    seen |= 1u << dt;
    const lt_dtype_info *in = &lt_dtypes[dt];
    CHECKF(strcmp(in->name, want[i].name) == 0, "name of %s is %s", want[i].name, in->name);
    CHECKF(in->size == want[i].size, "%s: size %zu", want[i].name, in->size);
    CHECKF(in->dl.code == want[i].code, "%s: code %d", want[i].name, in->dl.code);
    CHECKF(in->dl.bits == want[i].bits, "%s: bits %d", want[i].name, in->dl.bits);
    CHECKF(in->dl.lanes == 1, "%s: lanes %d", want[i].name, in->dl.lanes);
    CHECKF((size_t)in->dl.bits == 8 * in->size, "%s: bits vs size", want[i].name);
    CHECKF(!!in->is_int == want[i].is_int, "%s: is_int", want[i].name);
    CHECKF(!!in->is_signed == want[i].is_signed, "%s: is_signed", want[i].name);
    CHECKF(!!in->is_float == want[i].is_float, "%s: is_float", want[i].name);
    CHECKF(!!in->is_complex == want[i].is_complex, "%s: is_complex", want[i].name);
    DLDataType dl = {(uint8_t)want[i].code, (uint8_t)want[i].bits, 1};
    CHECKF(lt_dtype_from_dl(dl) == dt, "lt_dtype_from_dl of %s", want[i].name);
    CHECKF(lt_dtype_from_dl(in->dl) == dt, "lt_dtype_from_dl round trip of %s", want[i].name);
    DLDataType v4 = dl;
    v4.lanes = 4;
    CHECKF(lt_dtype_from_dl(v4) == LT_OPAQUE, "%s x4 is opaque", want[i].name);
  }
  CHECK(seen == (1u << LT_NDTYPES) - 1);
  /* the DLPack codes themselves */
  CHECK(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLBfloat == 4 && kDLComplex == 5 &&
        kDLBool == 6 && kDLFloat8_e4m3fn == 10);

  static const struct {
    const char *alias;
    lt_dtype dt;
  } aliases[] = {{"float", LT_FLOAT32},    {"double", LT_FLOAT64},    {"half", LT_FLOAT16},
                 {"int", LT_INT32},        {"long", LT_INT64},        {"short", LT_INT16},
                 {"cfloat", LT_COMPLEX64}, {"cdouble", LT_COMPLEX128}};
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    CHECKF(lt_dtype_from_name(aliases[i].alias) == aliases[i].dt, "alias %s", aliases[i].alias);
  const char *unknown[] = {"", "float8", "Float32", "float32 ", "int128", "complex", "uint"};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
    CHECKF(lt_dtype_from_name(unknown[i]) == LT_NDTYPES, "unknown name \"%s\"", unknown[i]);

  DLDataType fp8 = {kDLFloat8_e4m3fn, 8, 1}, f8 = {kDLFloat, 8, 1}, i128 = {kDLInt, 128, 1},
             b1 = {kDLBool, 1, 1}, opq = {kDLOpaqueHandle, 64, 1}, f4 = {kDLFloat4_e2m1fn, 4, 1},
             c32 = {kDLComplex, 32, 1}, bf32 = {kDLBfloat, 32, 1};
  CHECK(lt_dtype_from_dl(fp8) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(f8) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(i128) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(b1) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(opq) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(f4) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(c32) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(bf32) == LT_OPAQUE);
  DLDataType f32x4 = {kDLFloat, 32, 4}, f32x0 = {kDLFloat, 32, 0};
  CHECK(lt_dtype_from_dl(f32x4) == LT_OPAQUE);
  CHECK(lt_dtype_from_dl(f32x0) == LT_OPAQUE);
}

/* }====== */

/* {====== (e) lt_store and lt_load ====== */

/* Scalars of each kind (the fields not given are zero). */
static lt_scalar sc_f(double f) { return (lt_scalar){.kind = LT_SK_FLOAT, .v.f = f}; }
static lt_scalar sc_i(int64_t i) { return (lt_scalar){.kind = LT_SK_INT, .v.i = i}; }
static lt_scalar sc_u(uint64_t u) { return (lt_scalar){.kind = LT_SK_UINT, .v.u = u}; }
static lt_scalar sc_c(double re, double im) {
  return (lt_scalar){.kind = LT_SK_COMPLEX, .v.f = re, .im = im};
}

/* The integer in an element, read with plain C types (independent of lt_load). */
static int64_t raw_int(lt_dtype dt, const unsigned char *p) {
  union {
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    unsigned char bytes[16];
  } v;
  memcpy(v.bytes, p, lt_dtypes[dt].size);
  switch (dt) {
    case LT_BOOL:
    case LT_UINT8: return p[0];
    case LT_INT8: return v.i8;
    case LT_INT16: return v.i16;
    case LT_INT32: return v.i32;
    case LT_INT64: return v.i64;
    case LT_UINT16: return v.u16;
    case LT_UINT32: return v.u32;
    case LT_UINT64: return (int64_t)v.u64;
    default: return -12345;
  }
}

#define SENTINEL 0xA5

/* Stores s into a sentinel-filled buffer; returns the status and whether bytes beyond the
   element (or, on failure, any byte) changed. */
static int store(lt_dtype dt, lt_scalar s, unsigned char *buf, int *clobbered) {
  memset(buf, SENTINEL, 32);
  int rc = lt_store(dt, buf, &s);
  size_t from = rc == LT_STORE_OK ? lt_dtypes[dt].size : 0;
  *clobbered = 0;
  for (size_t i = from; i < 32; i++)
    if (buf[i] != SENTINEL) *clobbered = 1;
  return rc;
}

static void store_int_ok(lt_dtype dt, lt_scalar s, int64_t want, int line) {
  unsigned char buf[32];
  int clob;
  int rc = store(dt, s, buf, &clob);
  CHECKF(rc == LT_STORE_OK, "line %d: store to %s failed", line, lt_dtypes[dt].name);
  CHECKF(!clob, "line %d: store to %s wrote past the element", line, lt_dtypes[dt].name);
  if (rc == LT_STORE_OK)
    CHECKF(raw_int(dt, buf) == want, "line %d: %s holds %lld, expected %lld", line,
           lt_dtypes[dt].name, (long long)raw_int(dt, buf), (long long)want);
}
static void store_fails(lt_dtype dt, lt_scalar s, int line) {
  unsigned char buf[32];
  int clob;
  int rc = store(dt, s, buf, &clob);
  CHECKF(rc == LT_STORE_RANGE, "line %d: store of %a to %s returned %d, expected RANGE", line,
         s.v.f, lt_dtypes[dt].name, rc);
  CHECKF(!clob, "line %d: failed store to %s wrote something", line, lt_dtypes[dt].name);
}
#define STORE_OK(dt, s, want) store_int_ok((dt), (s), (int64_t)(want), __LINE__)
#define STORE_FAILS(dt, s) store_fails((dt), (s), __LINE__)

static void store_int_examples(void) {
  /* the brief's examples, spelled out */
  STORE_OK(LT_INT8, sc_f(127.9), 127);
  STORE_FAILS(LT_INT8, sc_f(128.0));
  STORE_OK(LT_INT8, sc_f(-128.9), -128);
  STORE_FAILS(LT_INT8, sc_f(-129.0));
  STORE_OK(LT_UINT8, sc_f(-0.5), 0);
  STORE_FAILS(LT_UINT8, sc_f(-1.0));
  STORE_OK(LT_UINT8, sc_f(255.99), 255);
  STORE_FAILS(LT_UINT8, sc_f(256.0));
  STORE_OK(LT_INT32, sc_f(2147483647.9), 2147483647);
  STORE_FAILS(LT_INT32, sc_f(2147483648.0));
  STORE_OK(LT_INT32, sc_f(-2147483648.9), INT32_MIN);
  STORE_FAILS(LT_INT32, sc_f(-2147483649.0));
  STORE_OK(LT_UINT32, sc_f(4294967295.5), 4294967295);
  STORE_FAILS(LT_UINT32, sc_f(4294967296.0));

  /* integers out of range are refused, not wrapped (torch refuses a scalar that overflows) */
  static const struct {
    lt_dtype dt;
    int64_t lo, hi;
  } ranges[] = {{LT_INT8, INT8_MIN, INT8_MAX},    {LT_UINT8, 0, UINT8_MAX},
                {LT_INT16, INT16_MIN, INT16_MAX}, {LT_UINT16, 0, UINT16_MAX},
                {LT_INT32, INT32_MIN, INT32_MAX}, {LT_UINT32, 0, UINT32_MAX}};
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
    STORE_OK(ranges[i].dt, sc_i(ranges[i].lo), ranges[i].lo);
    STORE_OK(ranges[i].dt, sc_i(ranges[i].hi), ranges[i].hi);
    STORE_OK(ranges[i].dt, sc_u((uint64_t)ranges[i].hi), ranges[i].hi);
    STORE_FAILS(ranges[i].dt, sc_i(ranges[i].lo - 1));
    STORE_FAILS(ranges[i].dt, sc_i(ranges[i].hi + 1));
    STORE_FAILS(ranges[i].dt, sc_u((uint64_t)ranges[i].hi + 1));
    STORE_FAILS(ranges[i].dt, sc_u(UINT64_MAX));
  }
  STORE_FAILS(LT_INT32, sc_i(INT64_C(0x10000000005))); /* not its low 32 bits */
  STORE_FAILS(LT_UINT8, sc_u(UINT64_C(0x8000000000000101)));
  STORE_OK(LT_INT64, sc_i(INT64_MIN), INT64_MIN);
  STORE_OK(LT_INT64, sc_i(INT64_MAX), INT64_MAX);
  STORE_OK(LT_INT64, sc_u(INT64_MAX), INT64_MAX);
  STORE_FAILS(LT_INT64, sc_u((uint64_t)INT64_MAX + 1));
  STORE_FAILS(LT_INT64, sc_u(UINT64_MAX));
  STORE_OK(LT_UINT64, sc_u(UINT64_MAX), -1);
  /* an LT_SK_INT into uint64 is its 64 bits (Lua's integers, string.pack "I8") */
  STORE_OK(LT_UINT64, sc_i(-1), -1); /* all ones */
  STORE_OK(LT_UINT64, sc_i(INT64_MIN), INT64_MIN);
  STORE_OK(LT_UINT64, sc_i(INT64_MAX), INT64_MAX);
  /* floats into uint64: in [0, 2^64) after truncation */
  STORE_OK(LT_UINT64, sc_f(0x1p63), INT64_MIN);
  STORE_OK(LT_UINT64, sc_f(0x1p64 - 0x1p11), -(int64_t)2048);
  STORE_FAILS(LT_UINT64, sc_f(0x1p64));
  STORE_OK(LT_UINT64, sc_f(-0.9), 0);
  STORE_FAILS(LT_UINT64, sc_f(-1.0));
  STORE_FAILS(LT_INT64, sc_f(0x1p63));
  STORE_OK(LT_INT64, sc_f(-0x1p63), INT64_MIN);
}

static void store_bool(void) {
  /* anything -> bool is != 0 */
  STORE_OK(LT_BOOL, sc_i(0), 0);
  STORE_OK(LT_BOOL, sc_i(256), 1); /* not wrapped to 0 */
  STORE_OK(LT_BOOL, sc_i(-1), 1);
  STORE_OK(LT_BOOL, sc_u(UINT64_C(1) << 63), 1);
  STORE_OK(LT_BOOL, sc_u(0), 0);
  STORE_OK(LT_BOOL, sc_f(0.0), 0);
  STORE_OK(LT_BOOL, sc_f(-0.0), 0);
  STORE_OK(LT_BOOL, sc_f(0.25), 1);
  STORE_OK(LT_BOOL, sc_f(-1e-300), 1);
  STORE_OK(LT_BOOL, sc_f(NAN), 1);
  STORE_OK(LT_BOOL, sc_f(INFINITY), 1);
  STORE_OK(LT_BOOL, sc_c(0.0, 0.0), 0);
  STORE_OK(LT_BOOL, sc_c(0.0, 2.0), 1);
  STORE_OK(LT_BOOL, sc_c(NAN, 0.0), 1);
}

/* Floats into each integer dtype: truncated toward zero; NaN, inf and the values past the
   range's exact boundaries refused. */
static void store_int_floats(void) {
  static const struct {
    lt_dtype dt;
    int bits, is_signed;
  } ints[] = {{LT_UINT8, 8, 0},  {LT_INT8, 8, 1},    {LT_INT16, 16, 1},  {LT_INT32, 32, 1},
              {LT_INT64, 64, 1}, {LT_UINT16, 16, 0}, {LT_UINT32, 32, 0}, {LT_UINT64, 64, 0}};
  for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
    lt_dtype dt = ints[k].dt;
    int bits = ints[k].bits;
    /* truncation toward zero */
    STORE_OK(dt, sc_f(2.9), 2);
    STORE_OK(dt, sc_f(0.999), 0);
    STORE_OK(dt, sc_f(-0.0), 0);
    STORE_OK(dt, sc_f(100.5), 100);
    STORE_OK(dt, sc_c(7.9, 3.0), 7); /* complex -> integer: real part */
    if (ints[k].is_signed) {
      STORE_OK(dt, sc_f(-2.9), -2);
      STORE_OK(dt, sc_f(-0.999), 0);
    } else {
      STORE_FAILS(dt, sc_f(-2.9));
      STORE_OK(dt, sc_f(-0.5), 0);
      STORE_OK(dt, sc_f(nextafter(-1.0, 0)), 0);
      STORE_FAILS(dt, sc_f(-1.0));
    }
    STORE_FAILS(dt, sc_f(NAN));
    STORE_FAILS(dt, sc_f(-NAN));
    STORE_FAILS(dt, sc_f(INFINITY));
    STORE_FAILS(dt, sc_f(-INFINITY));
    STORE_FAILS(dt, sc_f(1e300));
    STORE_FAILS(dt, sc_f(-1e300));
    STORE_FAILS(dt, sc_c(NAN, 0));
    STORE_FAILS(dt, sc_c(1e300, 0));
    /* exact boundaries */
    if (bits < 64) {
      double lo = ints[k].is_signed ? -ldexp(1.0, bits - 1) : 0.0;
      double hi = ints[k].is_signed ? ldexp(1.0, bits - 1) : ldexp(1.0, bits); /* first bad */
      STORE_OK(dt, sc_f(hi - 0.1), (int64_t)hi - 1);
      STORE_OK(dt, sc_f(hi - 1), (int64_t)hi - 1);
      STORE_FAILS(dt, sc_f(hi));
      STORE_FAILS(dt, sc_f(hi + 1));
      STORE_OK(dt, sc_f(lo), (int64_t)lo);
      STORE_OK(dt, sc_f(lo - 0.9), (int64_t)lo);
      STORE_FAILS(dt, sc_f(lo - 1));
    } else if (ints[k].is_signed) {
      STORE_FAILS(dt, sc_f(0x1p63));
      STORE_FAILS(dt, sc_f(9.2233720368547758e18)); /* 2^63 as %.17g prints it */
      /* 9.2233720368547748e18 is the double below 2^63 (2^63 - 1024): it fits */
      STORE_OK(dt, sc_f(9.2233720368547748e18), INT64_C(9223372036854774784));
      STORE_OK(dt, sc_f(nextafter(0x1p63, 0)), INT64_C(9223372036854774784));
      STORE_OK(dt, sc_f(-0x1p63), INT64_MIN);
      STORE_FAILS(dt, sc_f(nextafter(-0x1p63, -INFINITY)));
    } else {
      STORE_FAILS(dt, sc_f(0x1p64));
      STORE_OK(dt, sc_f(0x1p63), (int64_t)(UINT64_C(1) << 63));
      STORE_OK(dt, sc_f(nextafter(0x1p64, 0)), (int64_t)UINT64_C(18446744073709549568));
    }
  }
}

static void test_store_int(void) {
  store_int_floats();
  store_int_examples();
  store_bool();
}

/* lt_store_wrap: the core's own results; integers keep their low bits, floats are checked. */
static void wrap_ok(lt_dtype dt, lt_scalar s, int64_t want, int line) {
  unsigned char buf[32];
  memset(buf, SENTINEL, sizeof buf);
  CHECKF(lt_store_wrap(dt, buf, &s) == LT_STORE_OK, "line %d: wrap to %s failed", line,
         lt_dtypes[dt].name);
  CHECKF(raw_int(dt, buf) == want, "line %d: %s holds %lld, expected %lld", line,
         lt_dtypes[dt].name, (long long)raw_int(dt, buf), (long long)want);
  CHECKF(buf[lt_dtypes[dt].size] == SENTINEL, "line %d: wrote past the element", line);
}
#define WRAP_OK(dt, s, want) wrap_ok((dt), (s), (int64_t)(want), __LINE__)

static void test_store_wrap(void) {
  WRAP_OK(LT_UINT8, sc_i(300), 44);
  WRAP_OK(LT_UINT8, sc_i(-1), 255);
  WRAP_OK(LT_INT8, sc_i(200), -56);
  WRAP_OK(LT_INT16, sc_i(65537), 1);
  WRAP_OK(LT_INT32, sc_i(INT64_C(0x10000000005)), 5);
  WRAP_OK(LT_INT64, sc_u(UINT64_MAX), -1);
  WRAP_OK(LT_UINT8, sc_u(UINT64_C(0x8000000000000101)), 1);
  WRAP_OK(LT_BOOL, sc_i(256), 1);
  unsigned char buf[32];
  lt_scalar nan = sc_f(NAN), big = sc_f(300.0);
  CHECK(lt_store_wrap(LT_INT32, buf, &nan) == LT_STORE_RANGE);
  CHECK(lt_store_wrap(LT_UINT8, buf, &big) == LT_STORE_RANGE);
}

static void test_store_float(void) {
  unsigned char buf[32];
  int clob;
  float f;
  double d;
  uint16_t h;
  lt_c64 c;
  lt_c128 cc;

  CHECK(store(LT_FLOAT32, sc_f(0.1), buf, &clob) == LT_STORE_OK && !clob);
  memcpy(&f, buf, 4);
  CHECK(f32_bits(f) == f32_bits((float)0.1));
  /* a finite value beyond the range raises (torch's element writes); infinities are kept */
  CHECK(store(LT_FLOAT32, sc_f(1e300), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_FLOAT32, sc_f(-1e300), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_COMPLEX64, sc_c(0.0, 1e39), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_FLOAT32, sc_f(INFINITY), buf, &clob) == LT_STORE_OK);
  memcpy(&f, buf, 4);
  CHECK(isinf(f) && f > 0);
  lt_scalar huge = sc_f(1e300), h16 = sc_f(65520.0);
  CHECK(lt_store_wrap(LT_FLOAT32, buf, &huge) == LT_STORE_OK); /* an operand: inf */
  memcpy(&f, buf, 4);
  CHECK(isinf(f) && f > 0);
  CHECK(store(LT_FLOAT32, sc_f(NAN), buf, &clob) == LT_STORE_OK);
  memcpy(&f, buf, 4);
  CHECK(isnan(f));
  /* integers round once, straight from the integer (not through a double first) */
  int64_t big = (INT64_C(1) << 60) + (INT64_C(1) << 36) + 1;
  CHECK(store(LT_FLOAT32, sc_i(big), buf, &clob) == LT_STORE_OK);
  memcpy(&f, buf, 4);
  CHECKF(f == (float)big && f == 0x1.000002p60f, "int64 %lld stored to float32 as %a",
         (long long)big, (double)f);
  CHECK(store(LT_FLOAT32, sc_i(-big), buf, &clob) == LT_STORE_OK);
  memcpy(&f, buf, 4);
  CHECKF(f == (float)-big, "int64 %lld stored to float32 as %a", (long long)-big, (double)f);
  uint64_t ubig = (UINT64_C(1) << 63) + (UINT64_C(1) << 39) + 1;
  CHECK(store(LT_FLOAT32, sc_u(ubig), buf, &clob) == LT_STORE_OK);
  memcpy(&f, buf, 4);
  CHECKF(f == (float)ubig, "uint64 %llu stored to float32 as %a", (unsigned long long)ubig,
         (double)f);
  CHECK(store(LT_COMPLEX64, sc_i(big), buf, &clob) == LT_STORE_OK);
  memcpy(&c, buf, sizeof c);
  CHECKF(c.re == (float)big && c.im == 0, "int64 to complex64: %a", (double)c.re);
  CHECK(store(LT_FLOAT32, sc_u(UINT64_MAX), buf, &clob) == LT_STORE_OK);
  memcpy(&f, buf, 4);
  CHECK(f == 0x1p64f);

  CHECK(store(LT_FLOAT64, sc_i((INT64_C(1) << 53) + 1), buf, &clob) == LT_STORE_OK && !clob);
  memcpy(&d, buf, 8);
  CHECK(d == 0x1p53);
  CHECK(store(LT_FLOAT64, sc_u(UINT64_MAX), buf, &clob) == LT_STORE_OK);
  memcpy(&d, buf, 8);
  CHECK(d == 0x1p64);
  CHECK(store(LT_FLOAT64, sc_c(2.5, -1.0), buf, &clob) == LT_STORE_OK);
  memcpy(&d, buf, 8);
  CHECK(d == 2.5); /* complex -> real drops the imaginary part */

  CHECK(store(LT_FLOAT16, sc_f(65520.0), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_FLOAT16, sc_i(70000), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_BFLOAT16, sc_f(1e39), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_FLOAT16, sc_f(65504.0), buf, &clob) == LT_STORE_OK);
  memcpy(&h, buf, 2);
  CHECK(h == 0x7bff);
  CHECK(lt_store_wrap(LT_FLOAT16, buf, &h16) == LT_STORE_OK);
  memcpy(&h, buf, 2);
  CHECK(h == 0x7c00);
  CHECK(store(LT_FLOAT16, sc_i(3), buf, &clob) == LT_STORE_OK);
  memcpy(&h, buf, 2);
  CHECK(h == 0x4200);
  CHECK(store(LT_FLOAT16, sc_i(-70000), buf, &clob) == LT_STORE_RANGE && !clob);
  CHECK(store(LT_FLOAT16, sc_c(1.5, 2.0), buf, &clob) == LT_STORE_OK);
  memcpy(&h, buf, 2);
  CHECK(h == 0x3e00);
  CHECK(store(LT_BFLOAT16, sc_f(1.0), buf, &clob) == LT_STORE_OK && !clob);
  memcpy(&h, buf, 2);
  CHECK(h == 0x3f80);
  CHECK(store(LT_BFLOAT16, sc_u(UINT64_MAX), buf, &clob) == LT_STORE_OK);
  memcpy(&h, buf, 2);
  CHECK(h == 0x5f80); /* 2^64 */

  /* complex <- real sets im = 0 (the sentinel bytes are overwritten) */
  CHECK(store(LT_COMPLEX64, sc_f(1.5), buf, &clob) == LT_STORE_OK && !clob);
  memcpy(&c, buf, sizeof c);
  CHECK(c.re == 1.5f && c.im == 0.0f && !signbit(c.im));
  CHECK(store(LT_COMPLEX64, sc_i(-7), buf, &clob) == LT_STORE_OK);
  memcpy(&c, buf, sizeof c);
  CHECK(c.re == -7.0f && c.im == 0.0f);
  CHECK(store(LT_COMPLEX64, sc_c(0.1, -0.2), buf, &clob) == LT_STORE_OK);
  memcpy(&c, buf, sizeof c);
  CHECK(c.re == (float)0.1 && c.im == (float)-0.2);
  CHECK(store(LT_COMPLEX128, sc_f(-2.25), buf, &clob) == LT_STORE_OK && !clob);
  memcpy(&cc, buf, sizeof cc);
  CHECK(cc.re == -2.25 && cc.im == 0.0);
  CHECK(store(LT_COMPLEX128, sc_u(UINT64_C(1) << 63), buf, &clob) == LT_STORE_OK);
  memcpy(&cc, buf, sizeof cc);
  CHECK(cc.re == 0x1p63 && cc.im == 0.0);
  CHECK(store(LT_COMPLEX128, sc_c(0.1, -0.2), buf, &clob) == LT_STORE_OK);
  memcpy(&cc, buf, sizeof cc);
  CHECK(cc.re == 0.1 && cc.im == -0.2);

  CHECK(store(LT_OPAQUE, sc_f(1.0), buf, &clob) == LT_STORE_RANGE && !clob);
}

static void test_load(void) {
  unsigned char buf[16];
  lt_scalar s;
  memset(buf, 0, sizeof buf);

  buf[0] = 2; /* a bool byte other than 0/1 reads as true */
  lt_load(LT_BOOL, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == 1);
  buf[0] = 0;
  lt_load(LT_BOOL, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == 0);
  buf[0] = 200;
  lt_load(LT_UINT8, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == 200);
  lt_load(LT_INT8, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == -56);
  int16_t i16 = -30000;
  memcpy(buf, &i16, 2);
  lt_load(LT_INT16, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == -30000);
  lt_load(LT_UINT16, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == 65536 - 30000);
  int32_t i32 = -2000000000;
  memcpy(buf, &i32, 4);
  lt_load(LT_INT32, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == -2000000000);
  lt_load(LT_UINT32, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == INT64_C(4294967296) - 2000000000);
  int64_t i64 = INT64_MIN;
  memcpy(buf, &i64, 8);
  lt_load(LT_INT64, buf, &s);
  CHECK(s.kind == LT_SK_INT && s.v.i == INT64_MIN);
  lt_load(LT_UINT64, buf, &s);
  CHECK(s.kind == LT_SK_UINT && s.v.u == UINT64_C(1) << 63);
  uint64_t u64 = UINT64_MAX;
  memcpy(buf, &u64, 8);
  lt_load(LT_UINT64, buf, &s);
  CHECK(s.kind == LT_SK_UINT && s.v.u == UINT64_MAX);
  uint16_t h = 0x3e00;
  memcpy(buf, &h, 2);
  lt_load(LT_FLOAT16, buf, &s);
  CHECK(s.kind == LT_SK_FLOAT && s.v.f == 1.5);
  h = 0x0001;
  memcpy(buf, &h, 2);
  lt_load(LT_FLOAT16, buf, &s);
  CHECK(s.kind == LT_SK_FLOAT && s.v.f == 0x1p-24);
  h = 0xc0a0;
  memcpy(buf, &h, 2);
  lt_load(LT_BFLOAT16, buf, &s);
  CHECK(s.kind == LT_SK_FLOAT && s.v.f == -5.0);
  float f = 0.1f;
  memcpy(buf, &f, 4);
  lt_load(LT_FLOAT32, buf, &s);
  CHECK(s.kind == LT_SK_FLOAT && s.v.f == (double)0.1f);
  double d = -0.1;
  memcpy(buf, &d, 8);
  lt_load(LT_FLOAT64, buf, &s);
  CHECK(s.kind == LT_SK_FLOAT && s.v.f == -0.1);
  lt_c64 c = {1.5f, -2.5f};
  memcpy(buf, &c, sizeof c);
  lt_load(LT_COMPLEX64, buf, &s);
  CHECK(s.kind == LT_SK_COMPLEX && s.v.f == 1.5 && s.im == -2.5);
  lt_c128 cc = {0.1, 1e300};
  memcpy(buf, &cc, sizeof cc);
  lt_load(LT_COMPLEX128, buf, &s);
  CHECK(s.kind == LT_SK_COMPLEX && s.v.f == 0.1 && s.im == 1e300);

  /* store then load gives the value back, for every dtype */
  for (int dt = 0; dt < LT_NDTYPES; dt++) {
    lt_scalar in = dt == LT_BOOL ? sc_i(1) : sc_i(100);
    CHECK(lt_store((lt_dtype)dt, buf, &in) == LT_STORE_OK);
    lt_load((lt_dtype)dt, buf, &s);
    double v = s.kind == LT_SK_INT ? (double)s.v.i : s.kind == LT_SK_UINT ? (double)s.v.u : s.v.f;
    CHECKF(v == (dt == LT_BOOL ? 1.0 : 100.0), "%s: stored 100, loaded %g", lt_dtypes[dt].name, v);
    if (s.kind == LT_SK_COMPLEX) CHECK(s.im == 0);
  }
}

/* }====== */

int main(void) {
  test_f16_all_patterns();
  test_f16_narrow_random();
  test_f16_ties();
  test_f16_specials();
  test_f32_to_f16();
  test_bf16();
  test_table();
  test_store_int();
  test_store_wrap();
  test_store_float();
  test_load();
  return tu_finish("test_dtype");
}
