/*
 * fuzz_bytes.c -- libFuzzer target: raw bytes into tensors, and the element conversions.
 *
 * The first byte chooses one of two halves; the rest of the input feeds it.
 *
 * Even: lt.from_bytes(string, dtype [, shape]) in a long-lived lua_State (ltensor_open), with
 * the dtype (names, aliases, unknown names, non-strings) and the shape (none, nil, a table or
 * integer arguments, with -1, 0, negative and huge sizes) from the input, then t:to(each
 * dtype), t:tolist() and tostring(t), all under lua_pcall. Checked (abort() on failure):
 *   - t:bytes() is the string again;
 *   - t:to(bool) holds, per element, whether the element's bytes are nonzero (a float's sign
 *     bit aside);
 *   - widening and narrowing back gives the bytes again: 8/16/32-bit integers through int64
 *     and float64; float16, bfloat16 and float32 through float32/float64, complex64 through
 *     complex128 (elements that are NaN excepted).
 *
 * Odd: the core conversions, on 8-byte words of the input taken as a double, an int64, a
 * uint64 and (the low half) a float16 / bfloat16 pattern:
 *   - lt_f64_to_f16(lt_f16_to_f32(h)) == h for every non-NaN float16 h (and bfloat16 alike);
 *     NaN stays NaN, with its sign, quiet;
 *   - lt_f64_to_f16 / lt_f64_to_bf16 round a double correctly (to nearest, ties to even,
 *     overflowing to inf), against a reference built from ldexp and nearbyint;
 *   - lt_store of every dtype from every scalar kind follows the write rules (float -> integer
 *     truncates; NaN, inf and values out of range, integers too, are refused and then nothing
 *     is written; an int64 into uint64 is its bits; bool is "!= 0"; integers round to float16 /
 *     bfloat16 once and correctly), and lt_load reads back what was stored.
 */
#include <float.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_lua.h"
#include "lt_dtype.h"
#include "ltensor.h"
#include "lua_ud.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, double a, double b) {
  fprintf(stderr, "fuzz_bytes: %s (%.17g, %.17g)\n", what, a, b);
  abort();
}

/* {====== the core conversions ====== */

/* The double nearest to v in a binary format of mbits mantissa bits and exponent bias `bias`
   (ties to even, subnormals, overflow to inf); v finite. */
static double ref_round(double v, int mbits, int bias) {
  double a = fabs(v);
  if (a == 0) return v;
  int ex;
  frexp(a, &ex); /* a = m * 2^ex, m in [0.5, 1): the leading bit is 2^(ex-1) */
  int lead = ex - 1 < 1 - bias ? 1 - bias : ex - 1;
  int q = lead - mbits; /* the unit in the last place */
  double r = ldexp(nearbyint(ldexp(a, -q)), q);
  if (r >= ldexp(1.0, bias + 1)) r = HUGE_VAL;
  return copysign(r, v);
}

/* The same for an integer magnitude (exact: no trip through a double). */
static double ref_round_u64(uint64_t mag, int negative, int mbits, int bias) {
  double r;
  if (mag == 0) {
    r = 0;
  } else {
    int lead = 63 - __builtin_clzll(mag);
    if (lead <= mbits) {
      r = (double)mag;
    } else {
      int shift = lead - mbits;
      uint64_t q = mag >> shift, rem = mag & ((1ull << shift) - 1), half = 1ull << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) q++;
      r = ldexp((double)q, shift);
    }
    if (r >= ldexp(1.0, bias + 1)) r = HUGE_VAL;
  }
  return negative ? -r : r;
}

static int same_double(double a, double b) {
  return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static void check_half_roundtrip(uint16_t h) {
  int nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
  uint16_t back = lt_f64_to_f16(lt_f16_to_f32(h));
  if (!nan && back != h) fail("float16 -> float -> float16 changed the value", h, back);
  if (nan && ((back & 0x7e00) != 0x7e00 || (back & 0x8000) != (h & 0x8000)))
    fail("float16 NaN did not stay a quiet NaN of the same sign", h, back);
  if (!nan && lt_f32_to_f16(lt_f16_to_f32(h)) != h) fail("float16 via float32 changed", h, 0);

  nan = (h & 0x7f80) == 0x7f80 && (h & 0x7f);
  back = lt_f64_to_bf16(lt_bf16_to_f32(h));
  if (!nan && back != h) fail("bfloat16 -> float -> bfloat16 changed the value", h, back);
  if (nan && ((back & 0x7fc0) != 0x7fc0 || (back & 0x8000) != (h & 0x8000)))
    fail("bfloat16 NaN did not stay a quiet NaN of the same sign", h, back);
}

static void check_narrowing(double x) {
  double got16 = lt_f16_to_f32(lt_f64_to_f16(x)), gotb = lt_bf16_to_f32(lt_f64_to_bf16(x));
  if (isnan(x)) {
    if (!isnan(got16) || !isnan(gotb)) fail("NaN did not narrow to NaN", x, got16);
    if (signbit(got16) != signbit(x) || signbit(gotb) != signbit(x)) fail("NaN sign lost", x, 0);
    return;
  }
  double want16 = isinf(x) ? x : ref_round(x, 10, 15);
  double wantb = isinf(x) ? x : ref_round(x, 7, 127);
  if (!same_double(got16, want16)) fail("float16 rounding of a double", x, got16);
  if (!same_double(gotb, wantb)) fail("bfloat16 rounding of a double", x, gotb);
}

/* What an integer dtype holds after storing the 64-bit pattern u (wrapping). */
static uint64_t wrap(uint64_t u, int bits, int is_signed, int64_t *as_signed) {
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, v = u & mask;
  if (is_signed && bits < 64 && (v >> (bits - 1)) & 1) v |= ~mask;
  *as_signed = v <= INT64_MAX ? (int64_t)v : (int64_t)(v - 0x8000000000000000u) + INT64_MIN;
  return v;
}

/* Stores s into a dtype-sized slot and checks what was written, then what lt_load reads. */
static void check_store(lt_dtype dt, const lt_scalar *s) {
  _Alignas(16) unsigned char slot[16], before[16];
  memset(slot, 0xA5, sizeof slot);
  memcpy(before, slot, sizeof slot);
  int rc = lt_store(dt, slot, s);
  const lt_dtype_info *info = &lt_dtypes[dt];
  double f = s->kind == LT_SK_INT    ? (double)s->v.i
             : s->kind == LT_SK_UINT ? (double)s->v.u
                                     : s->v.f;
  lt_scalar back;
  if (dt == LT_BOOL) {
    int want = s->kind == LT_SK_INT     ? s->v.i != 0
               : s->kind == LT_SK_UINT  ? s->v.u != 0
               : s->kind == LT_SK_FLOAT ? s->v.f != 0
                                        : (s->v.f != 0 || s->im != 0);
    if (rc != LT_STORE_OK || slot[0] != want) fail("bool store", f, slot[0]);
    lt_load(dt, slot, &back);
    if (back.kind != LT_SK_INT || back.v.i != want) fail("bool load", f, (double)back.v.i);
    return;
  }
  if (info->is_int) {
    int bits = (int)info->size * 8, sg = info->is_signed;
    uint64_t pattern;
    if (s->kind == LT_SK_INT || s->kind == LT_SK_UINT) {
      pattern = s->kind == LT_SK_INT ? (uint64_t)s->v.i : s->v.u;
      /* in range: the value survives the narrowing (an int64 into uint64: its bits) */
      int64_t ws;
      uint64_t wu = wrap(pattern, bits, sg, &ws);
      int fits = !sg && bits == 64 ? 1
                 : sg ? (s->kind == LT_SK_INT ? ws == s->v.i : ws >= 0 && (uint64_t)ws == s->v.u)
                      : (s->kind == LT_SK_UINT || s->v.i >= 0) && wu == pattern;
      if (!fits) {
        if (rc != LT_STORE_RANGE) fail("integer out of range was stored", f, bits);
        if (memcmp(slot, before, sizeof slot) != 0) fail("a refused store wrote", f, 0);
        return;
      }
    } else { /* truncation toward zero, if it fits */
      double tx = trunc(s->v.f);
      int fits = isfinite(tx) && (sg ? tx >= -ldexp(1, bits - 1) && tx < ldexp(1, bits - 1)
                                     : tx >= 0 && tx < ldexp(1, bits));
      if (!fits) {
        if (rc != LT_STORE_RANGE) fail("float out of range was stored", s->v.f, bits);
        if (memcmp(slot, before, sizeof slot) != 0) fail("a refused store wrote", s->v.f, 0);
        return;
      }
      if (rc != LT_STORE_OK) fail("float in range was refused", s->v.f, bits);
      pattern = sg ? (uint64_t)(int64_t)tx : (uint64_t)tx;
    }
    if (rc != LT_STORE_OK) fail("integer store refused", f, bits);
    int64_t want_s;
    uint64_t want = wrap(pattern, bits, sg, &want_s);
    uint64_t got = 0;
    memcpy(&got, slot, info->size); /* little-endian */
    if ((got ^ want) & (bits == 64 ? ~0ull : (1ull << bits) - 1)) fail("integer bits", f, bits);
    lt_load(dt, slot, &back);
    if (dt == LT_UINT64) {
      if (back.kind != LT_SK_UINT || back.v.u != want) fail("uint64 load", f, 0);
    } else if (back.kind != LT_SK_INT || back.v.i != want_s) {
      fail("integer load", f, (double)back.v.i);
    }
    return;
  }
  /* a finite value beyond the dtype's largest is refused (torch's element writes); the
     operand store (lt_store_wrap) rounds it, to inf, as the checks below expect */
  double fmax = dt == LT_FLOAT16                         ? 65504.0
                : dt == LT_BFLOAT16                      ? 0x1.fep127
                : dt == LT_FLOAT32 || dt == LT_COMPLEX64 ? (double)FLT_MAX
                                                         : INFINITY;
  double im = s->kind == LT_SK_COMPLEX ? s->im : 0.0;
  if ((isfinite(f) && fabs(f) > fmax) || (isfinite(im) && fabs(im) > fmax)) {
    if (rc != LT_STORE_RANGE) fail("float out of range was stored", f, dt);
    if (memcmp(slot, before, sizeof slot) != 0) fail("a refused store wrote", f, 0);
    rc = lt_store_wrap(dt, slot, s);
  }
  if (rc != LT_STORE_OK) fail("float store refused", f, dt);
  lt_load(dt, slot, &back);
  if (dt == LT_FLOAT16 || dt == LT_BFLOAT16) {
    int m = dt == LT_FLOAT16 ? 10 : 7, bias = dt == LT_FLOAT16 ? 15 : 127;
    double want;
    if (s->kind == LT_SK_INT)
      want =
          ref_round_u64(s->v.i < 0 ? 0 - (uint64_t)s->v.i : (uint64_t)s->v.i, s->v.i < 0, m, bias);
    else if (s->kind == LT_SK_UINT)
      want = ref_round_u64(s->v.u, 0, m, bias);
    else
      want = isnan(s->v.f) || isinf(s->v.f) ? s->v.f : ref_round(s->v.f, m, bias);
    if (back.kind != LT_SK_FLOAT || !same_double(back.v.f, want))
      fail(dt == LT_FLOAT16 ? "float16 store" : "bfloat16 store", f, back.v.f);
    return;
  }
  double want_re = dt == LT_FLOAT32 || dt == LT_COMPLEX64
                       ? (double)(s->kind == LT_SK_INT    ? (float)s->v.i
                                  : s->kind == LT_SK_UINT ? (float)s->v.u
                                                          : (float)s->v.f)
                       : f;
  double want_im = s->kind != LT_SK_COMPLEX ? 0.0
                   : dt == LT_COMPLEX64     ? (double)(float)s->im
                                            : s->im;
  if (!same_double(back.v.f, want_re)) fail("float store/load", f, back.v.f);
  if (info->is_complex) {
    if (back.kind != LT_SK_COMPLEX || !same_double(back.im, want_im))
      fail("complex imaginary part", s->im, back.im);
  } else if (back.kind != LT_SK_FLOAT) {
    fail("float load kind", f, back.kind);
  }
}

static void core_half(fz_in *in) {
  while (fz_more(in)) {
    uint64_t u = fz_u64(in);
    double x;
    memcpy(&x, &u, sizeof x);
    int64_t i = u <= INT64_MAX ? (int64_t)u : (int64_t)(u - 0x8000000000000000u) + INT64_MIN;
    check_half_roundtrip((uint16_t)u);
    check_half_roundtrip((uint16_t)(u >> 48));
    check_narrowing(x);
    /* a double made of a small exponent range, so that rounding cases near float16's and
       bfloat16's ranges come up often */
    double y = ldexp((double)(u >> 11) / 0x1p53 + 1.0, (int)(u & 0x3f) - 30) * (u & 0x40 ? -1 : 1);
    check_narrowing(y);
    lt_scalar ss[] = {{LT_SK_FLOAT, {.f = x}, 0},
                      {LT_SK_FLOAT, {.f = y}, 0},
                      {LT_SK_INT, {.i = i}, 0},
                      {LT_SK_UINT, {.u = u}, 0},
                      {LT_SK_INT, {.i = (int64_t)(int32_t)(uint32_t)u}, 0},
                      {LT_SK_COMPLEX, {.f = y}, x}};
    for (size_t k = 0; k < sizeof ss / sizeof ss[0]; k++)
      for (int dt = 0; dt < LT_NDTYPES; dt++) check_store((lt_dtype)dt, &ss[k]);
  }
}

/* }====== */

/* {====== lt.from_bytes ====== */

static lua_State *L;
static int ref_lt;

/* A full collection every GC_EVERY inputs (compile with -DGC_EVERY=n to change). With 1, the
   memory an input allocates is freed before it ends, so libFuzzer's leak check (which runs
   LeakSanitizer, slowly, after every input that frees less than it allocated) rarely runs. */
#ifndef GC_EVERY
#define GC_EVERY 1
#endif

static const char *const NAMES[] = {
    "bool",       "uint8",   "int8",    "int16",    "int32",   "int64",   "uint16",
    "uint32",     "uint64",  "float16", "bfloat16", "float32", "float64", "complex64",
    "complex128", "float",   "double",  "half",     "int",     "long",    "short",
    "cfloat",     "cdouble", "float8",  "",         "Float32", "int128"};
#define NNAMES (sizeof NAMES / sizeof NAMES[0])

/* What the input asks for: the dtype argument, the shape (none, nil, a table or integer
   arguments), and the string (the rest of the input). */
typedef struct {
  uint8_t dtype_choice, shape_how;
  int nsizes;
  lua_Integer sizes[4];
  const char *s;
  size_t len;
} bytes_job;

static lua_Integer pick_size(fz_in *in) {
  uint8_t b = fz_u8(in);
  if (b < 0x20) return -1;
  if (b < 0xF0) return b % 9;
  if (b < 0xF8) return (lua_Integer)fz_i64(in);
  return b % 2 ? LUA_MAXINTEGER : -2;
}

/* Whether the element of dtype dt at p has any nonzero bit (a float's sign bits aside). */
static int nonzero(lt_dtype dt, const unsigned char *p) {
  size_t n = lt_dtypes[dt].size;
  if (lt_dtypes[dt].is_complex) {
    size_t h = n / 2; /* two floats, each little-endian with the sign in its last byte */
    for (size_t i = 0; i < n; i++)
      if (p[i] & ((i % h == h - 1) ? 0x7f : 0xff)) return 1;
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    if (p[i] & ((lt_dtypes[dt].is_float && i == n - 1) ? 0x7f : 0xff)) return 1;
  return 0;
}

/* Whether the element of a floating dtype at p is a NaN (any component, for complex), as
   lt_load reads it (float16 and bfloat16 NaNs stay NaNs when widened). */
static int is_nan(lt_dtype dt, const unsigned char *p) {
  _Alignas(16) unsigned char e[16];
  memcpy(e, p, lt_dtypes[dt].size);
  lt_scalar v;
  lt_load(dt, e, &v);
  return (v.kind >= LT_SK_FLOAT && isnan(v.v.f)) || (v.kind == LT_SK_COMPLEX && isnan(v.im));
}

/* The wider type to go through and back, for the round-trip check (LT_NDTYPES: none). */
static lt_dtype wider(lt_dtype dt, int alt) {
  switch (dt) {
    case LT_INT8:
    case LT_INT16:
    case LT_INT32:
    case LT_UINT8:
    case LT_UINT16:
    case LT_UINT32: return alt ? LT_FLOAT64 : LT_INT64;
    case LT_FLOAT16:
    case LT_BFLOAT16: return alt ? LT_FLOAT64 : LT_FLOAT32;
    case LT_FLOAT32: return LT_FLOAT64;
    case LT_COMPLEX64: return LT_COMPLEX128;
    default: return LT_NDTYPES;
  }
}

/*
 * Whether t:tolist() makes a bounded number of tables (and elements). An empty tensor may still ask
 * for very many (shape {8, 9e15, 0}: 7.2e16 empty lists, as torch's tolist() would too): that is
 * not a bug but a memory error, which under AddressSanitizer aborts instead of raising.
 */
#define LIST_MAX 4096
static int listable(lua_State *l, int idx) {
  ltl_ud *ud = ltl_testud(l, idx);
  if (!ud || !ud->t) return 1; /* tolist raises */
  int64_t tables = 0, prod = 1;
  for (int d = 0; d < ud->t->ndim && prod > 0; d++) {
    if (ud->t->shape[d] > LIST_MAX || (prod *= ud->t->shape[d]) > LIST_MAX) return 0;
    tables += prod;
  }
  return tables <= LIST_MAX;
}

/* convert(t, dtype): t:to(dtype):tolist() (and tostring() of it when the third argument is
   true); convert(t, LT_NDTYPES): t:tolist(); convert(t, LT_NDTYPES + 1): tostring(t). */
static int convert(lua_State *l) {
  if (lua_isinteger(l, 2)) {
    if (lua_tointeger(l, 2) == LT_NDTYPES) {
      if (listable(l, 1)) fz_method(l, 1, "tolist", 0);
    } else {
      lua_getglobal(l, "tostring");
      lua_pushvalue(l, 1);
      lua_call(l, 1, 1);
    }
    return 0;
  }
  lua_pushvalue(l, 2);
  fz_method(l, 1, "to", 1);
  if (listable(l, -1)) {
    fz_method(l, -1, "tolist", 0);
    lua_pop(l, 1);
  }
  if (lua_toboolean(l, 3)) {
    lua_getglobal(l, "tostring");
    lua_pushvalue(l, -2);
    lua_call(l, 1, 1);
  }
  return 0;
}

static void check_bytes_bool(lua_State *l, int t, const bytes_job *job, lt_dtype dt) {
  size_t es = lt_dtypes[dt].size, n = job->len / es;
  /* the bytes come back */
  fz_method(l, t, "bytes", 0);
  size_t blen;
  const char *b = lua_tolstring(l, -1, &blen);
  if (blen != job->len || memcmp(b, job->s, blen) != 0) fail("bytes() is not the string", 0, 0);
  lua_pop(l, 1);

  /* to(bool): whether each element is nonzero (from bool, to(bool) is t itself: its bytes may
     be any value) */
  lua_pushstring(l, "bool");
  fz_method(l, t, "to", 1);
  fz_method(l, -1, "bytes", 0);
  b = lua_tolstring(l, -1, &blen);
  if (blen != n) fail("to(bool) has another element count", (double)blen, (double)n);
  for (size_t i = 0; i < n; i++)
    if ((b[i] != 0) != nonzero(dt, (const unsigned char *)job->s + i * es) ||
        ((unsigned char)b[i] > 1 && dt != LT_BOOL))
      fail("to(bool) is not 'element != 0'", (double)i, (unsigned char)b[i]);
  lua_pop(l, 2);
}

static void check_widening(lua_State *l, int t, const bytes_job *job, lt_dtype dt) {
  size_t es = lt_dtypes[dt].size, n = job->len / es;
  size_t blen;
  const char *b;
  /* widening and back */
  for (int alt = 0; alt < 2; alt++) {
    lt_dtype w = wider(dt, alt);
    if (w == LT_NDTYPES) continue;
    lua_pushstring(l, lt_dtypes[w].name);
    fz_method(l, t, "to", 1);
    lua_pushstring(l, lt_dtypes[dt].name);
    fz_method(l, -2, "to", 1);
    fz_method(l, -1, "bytes", 0);
    b = lua_tolstring(l, -1, &blen);
    if (blen != job->len) fail("round trip changed the size", (double)blen, (double)job->len);
    for (size_t i = 0; i < n; i++) {
      const unsigned char *a = (const unsigned char *)job->s + i * es;
      if (!is_nan(dt, a) && memcmp(a, b + i * es, es) != 0)
        fail(lt_dtypes[dt].name, (double)i, (double)alt);
    }
    lua_pop(l, 3);
  }
}

static void check_int_to_half(lua_State *l, int t, const bytes_job *job, lt_dtype dt) {
  size_t es = lt_dtypes[dt].size, n = job->len / es;
  size_t blen;
  const char *b;
  /* integers to float16 / bfloat16 (lt_copy's conversion): rounded once, correctly */
  if (lt_dtypes[dt].is_int) {
    static int known = -1;
    if (known < 0) known = 1 /* both bugs fixed: always checked */;
    for (int k = 0; k < 2; k++) {
      lt_dtype h = k ? LT_BFLOAT16 : LT_FLOAT16;
      lua_pushstring(l, lt_dtypes[h].name);
      fz_method(l, t, "to", 1);
      fz_method(l, -1, "bytes", 0);
      b = lua_tolstring(l, -1, &blen);
      if (blen != 2 * n) fail("to(float16) has another element count", (double)blen, (double)n);
      for (size_t i = 0; i < n; i++) {
        _Alignas(8) unsigned char e[8];
        memcpy(e, job->s + i * es, es);
        lt_scalar v;
        lt_load(dt, e, &v);
        int neg = v.kind == LT_SK_INT && v.v.i < 0;
        uint64_t mag = v.kind == LT_SK_UINT ? v.v.u : neg ? 0 - (uint64_t)v.v.i : (uint64_t)v.v.i;
        double want = ref_round_u64(mag, neg, k ? 7 : 10, k ? 127 : 15);
        uint16_t bits = (uint16_t)((unsigned char)b[2 * i] | (unsigned char)b[2 * i + 1] << 8);
        double got = k ? lt_bf16_to_f32(bits) : lt_f16_to_f32(bits);
        /* A fixed bug (lt_copy.c, FROMI_BF16 rounded twice above 2^53); see
           regress-bf16-int64-double-rounding. */
        if (!same_double(got, want) && (known || mag < ((uint64_t)1 << 53)))
          fail(k ? "int to(bfloat16)" : "int to(float16)", (double)mag, got);
      }
      lua_pop(l, 2);
    }
  }
}

/* from_bytes(job): the checks above; raises only where ltensor raises. */
static int from_bytes(lua_State *l) {
  bytes_job *job = lua_touserdata(l, 1);
  lua_rawgeti(l, LUA_REGISTRYINDEX, ref_lt);
  lua_getfield(l, -1, "from_bytes");
  lua_pushlstring(l, job->s, job->len);
  if (job->dtype_choice < 0xF8)
    lua_pushstring(l, NAMES[job->dtype_choice % NNAMES]);
  else if (job->dtype_choice & 1)
    lua_pushinteger(l, 3);
  else
    lua_pushnil(l);
  int nargs = 2;
  switch (job->shape_how) {
    case 0: break;
    case 1:
      lua_pushnil(l);
      nargs++;
      break;
    case 2:
      lua_createtable(l, job->nsizes, 0);
      for (int i = 0; i < job->nsizes; i++) {
        lua_pushinteger(l, job->sizes[i]);
        lua_rawseti(l, -2, i + 1);
      }
      nargs++;
      break;
    default:
      for (int i = 0; i < job->nsizes; i++) lua_pushinteger(l, job->sizes[i]);
      nargs += job->nsizes;
  }
  lua_call(l, nargs, 1); /* errors here are fine: bad dtype, length, shape */
  const int t = lua_gettop(l);
  lua_getfield(l, t, "dtype");
  lt_dtype dt = lt_dtype_from_name(lua_tostring(l, -1));
  lua_pop(l, 1);
  if (dt == LT_NDTYPES) abort(); /* from_bytes made a tensor of a dtype it has no name for */
  check_bytes_bool(l, t, job, dt);
  check_widening(l, t, job, dt);
  check_int_to_half(l, t, job, dt);
  /* every conversion with tolist (tostring, which is Lua and slow, for one of them), tolist
     and tostring, each under its own pcall: anything but a crash */
  for (int d = 0; d <= LT_NDTYPES + 1; d++) {
    lua_pushcfunction(l, convert);
    lua_pushvalue(l, t);
    if (d < LT_NDTYPES)
      lua_pushstring(l, lt_dtypes[d].name);
    else
      lua_pushinteger(l, d);
    lua_pushboolean(l, d == (int)(job->len % LT_NDTYPES));
    if (lua_pcall(l, 3, 0, 0) != LUA_OK) lua_pop(l, 1);
  }
  return 0;
}

static int traceback(lua_State *l) {
  luaL_traceback(l, l, lua_tostring(l, 1), 1);
  return 1;
}

static void lua_half(fz_in *in) {
  if (!L) {
    L = luaL_newstate();
    luaL_openlibs(L);
    if (ltensor_open(L) != LTENSOR_OK || luaL_dostring(L, "return (require 'ltensor')") != LUA_OK)
      fail("cannot open ltensor", 0, 0);
    ref_lt = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  bytes_job job;
  job.dtype_choice = fz_u8(in);
  uint8_t sb = fz_u8(in);
  job.shape_how = sb % 4;
  job.nsizes = job.shape_how >= 2 ? (sb >> 2) % 5 : 0;
  for (int i = 0; i < job.nsizes; i++) job.sizes[i] = pick_size(in);
  job.s = (const char *)in->p + in->i; /* the rest of the input */
  job.len = in->n - in->i;
  if (job.len > 256) job.len = 256;
  if (!(job.dtype_choice & 0x40) && job.dtype_choice < 0xF8) { /* mostly whole elements */
    lt_dtype dt = lt_dtype_from_name(NAMES[job.dtype_choice % NNAMES]);
    if (dt != LT_NDTYPES) job.len -= job.len % lt_dtypes[dt].size;
  }
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("LT_FUZZ_VERBOSE") != NULL;
  lua_settop(L, 0);
  if (verbose) lua_pushcfunction(L, traceback);
  lua_pushcfunction(L, from_bytes);
  lua_pushlightuserdata(L, &job);
  if (lua_pcall(L, 1, 0, verbose ? 1 : 0) != LUA_OK) {
    if (verbose) fprintf(stderr, "fuzz_bytes: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  lua_settop(L, 0);
  static unsigned runs;
  if (++runs % GC_EVERY == 0) lua_gc(L, LUA_GCCOLLECT);
}

/* }====== */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size, 0};
  if (fz_u8(&in) & 1)
    core_half(&in);
  else
    lua_half(&in);
  return 0;
}
