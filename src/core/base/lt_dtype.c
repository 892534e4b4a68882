/*
 * lt_dtype.c -- the dtype table, name lookup, float16/bfloat16 rounding, lt_store and
 * lt_scalar_str. Calls nothing else of the core; every core file may call it.
 */
#include "lt_dtype.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const lt_dtype_info lt_dtypes[LT_NDTYPES] = {
#define LT_X_INFO(E, n, T, c, b, K)                                           \
  {n,                                                                         \
   sizeof(T),                                                                 \
   _Alignof(T),                                                               \
   {(uint8_t)(c), (uint8_t)(b), 1},                                           \
   (c) == kDLInt || (c) == kDLUInt,                                           \
   (c) == kDLInt || (c) == kDLFloat || (c) == kDLBfloat || (c) == kDLComplex, \
   (c) == kDLFloat || (c) == kDLBfloat,                                       \
   (c) == kDLComplex},
    LT_DTYPES(LT_X_INFO)
#undef LT_X_INFO
};

const lt_dtype_alias lt_dtype_aliases[LT_NALIASES] = {
    {"float", LT_FLOAT32},    {"double", LT_FLOAT64},     {"half", LT_FLOAT16},
    {"int", LT_INT32},        {"long", LT_INT64},         {"short", LT_INT16},
    {"cfloat", LT_COMPLEX64}, {"cdouble", LT_COMPLEX128},
};

lt_dtype lt_dtype_from_name(const char *name) {
  for (int i = 0; i < LT_NDTYPES; i++)
    if (strcmp(name, lt_dtypes[i].name) == 0) return (lt_dtype)i;
  for (int i = 0; i < LT_NALIASES; i++)
    if (strcmp(name, lt_dtype_aliases[i].alias) == 0) return lt_dtype_aliases[i].dt;
  return LT_NDTYPES;
}

lt_dtype lt_dtype_from_dl(DLDataType dl) {
  if (dl.lanes != 1) return LT_OPAQUE;
  lt_dtype dt = LT_OPAQUE;
  switch ((unsigned)dl.code << 8 | dl.bits) { /* on every import: a switch, not a scan */
#define LT_X_DL(E, n, T, c, b, K) \
  case (unsigned)(c) << 8 | (b): dt = LT_##E; break;
    LT_DTYPES(LT_X_DL)
#undef LT_X_DL
    default: break;
  }
  return dt;
}

const char *lt_dl_name(DLDataType dl) {
  if (dl.lanes != 1) return NULL;
  switch (dl.bits == 8 ? dl.code : 0) { /* as torch names them */
    case kDLFloat8_e4m3fn: return "float8_e4m3fn";
    case kDLFloat8_e4m3fnuz: return "float8_e4m3fnuz";
    case kDLFloat8_e5m2: return "float8_e5m2";
    case kDLFloat8_e5m2fnuz: return "float8_e5m2fnuz";
    case kDLFloat8_e8m0fnu: return "float8_e8m0fnu";
    default: break;
  }
  /* one element each, as ml_dtypes names them (torch has only float4_e2m1fn_x2, a pair) */
  if (dl.code == kDLFloat4_e2m1fn && dl.bits == 4) return "float4_e2m1fn";
  if (dl.code == kDLFloat6_e2m3fn && dl.bits == 6) return "float6_e2m3fn";
  if (dl.code == kDLFloat6_e3m2fn && dl.bits == 6) return "float6_e3m2fn";
  return NULL;
}

/* {====== narrowing doubles to 16-bit floats ====== */

/*
 * Rounds v to a binary float with `mbits` mantissa bits and exponent bias `bias` (float16: 10,
 * 15; bfloat16: 7, 127), to nearest even, in one step from the double (no double rounding).
 * The encoding is built as an integer (exponent << mbits | mantissa) so that a carry out of the
 * mantissa bumps the exponent, and the largest finite value rounds up into infinity.
 */
static uint16_t narrow_f64(double v, int mbits, int bias) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << 15;
  uint64_t mag = b & 0x7fffffffffffffffULL;
  uint32_t inf = (uint32_t)(2 * bias + 1) << mbits;
  if (mag >= 0x7ff0000000000000ULL) {
    if (mag == 0x7ff0000000000000ULL) return (uint16_t)(sign | inf);
    /* NaN: quiet, with the top payload bits kept. */
    uint32_t payload = (uint32_t)((mag >> (52 - mbits)) & ((1u << mbits) - 1));
    return (uint16_t)(sign | inf | (1u << (mbits - 1)) | payload);
  }
  int e = (int)(mag >> 52) - 1023;
  if (e > bias) return (uint16_t)(sign | inf);
  uint64_t m = (mag & ((1ULL << 52) - 1)) | (1ULL << 52); /* v = m * 2^(e-52) */
  int shift;
  uint64_t q;
  if (e >= 1 - bias) { /* normal in the narrow format */
    shift = 52 - mbits;
    q = ((uint64_t)(e + bias) << mbits) | ((m >> shift) & ((1ULL << mbits) - 1));
  } else { /* subnormal: units of 2^(1-bias-mbits) */
    shift = 53 - bias - mbits - e;
    if (shift > 53) return (uint16_t)sign; /* below half the smallest subnormal */
    q = m >> shift;
  }
  uint64_t rem = m & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return (uint16_t)(sign | (uint32_t)q);
}

uint16_t lt_f64_to_f16(double v) { return narrow_f64(v, 10, 15); }
uint16_t lt_f64_to_bf16(double v) { return narrow_f64(v, 7, 127); }

float lt_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
  if (e == 0x1f) /* inf, or NaN made quiet (as a conversion does), payload kept */
    u = sign | 0x7f800000u | (m << 13) | (m ? 0x00400000u : 0);
  else if (e != 0)
    u = sign | ((e + 112) << 23) | (m << 13);
  else {
    float f = (float)m * 0x1p-24f; /* exact: m < 2^10 */
    return sign ? -f : f;
  }
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* }====== */

/* {====== lt_store: the write rules ====== */

/* The scalar as a double (real part for complex). */
static double scalar_f64(const lt_scalar *s) {
  switch (s->kind) {
    case LT_SK_INT: return (double)s->v.i;
    case LT_SK_UINT: return (double)s->v.u;
    default: return s->v.f;
  }
}

/* The scalar as a double on its way to float16 or bfloat16: integers rounded to odd, so that
   they are rounded once, correctly (see lt_u64_to_f64_odd). */
static double scalar_f64_narrow(const lt_scalar *s) {
  switch (s->kind) {
    case LT_SK_INT: return lt_i64_to_f64_odd(s->v.i);
    case LT_SK_UINT: return lt_u64_to_f64_odd(s->v.u);
    default: return s->v.f;
  }
}

/* The scalar as a float, rounded once (an integer through a double would round twice). */
static float scalar_f32(const lt_scalar *s) {
  switch (s->kind) {
    case LT_SK_INT: return (float)s->v.i;
    case LT_SK_UINT: return (float)s->v.u;
    default: return (float)s->v.f;
  }
}

/* Whether the integer scalar s (LT_SK_INT or LT_SK_UINT) lies in the range of an integer type
   of `bits` bits. An LT_SK_INT into 64 unsigned bits always does: its bits are the value. */
static int int_in_range(const lt_scalar *s, int bits, int is_signed) {
  if (s->kind == LT_SK_UINT) {
    uint64_t u = s->v.u;
    if (is_signed) return bits == 64 ? u <= (uint64_t)INT64_MAX : u < ((uint64_t)1 << (bits - 1));
    return bits == 64 || u < ((uint64_t)1 << bits);
  }
  int64_t v = s->v.i;
  if (bits == 64) return 1;
  if (is_signed) return v >= -((int64_t)1 << (bits - 1)) && v < ((int64_t)1 << (bits - 1));
  return v >= 0 && v < ((int64_t)1 << bits);
}

/* The scalar as an integer under the write rules: integers in range as they are, floats
   truncated toward zero; LT_STORE_RANGE when the value does not fit (an integer out of range
   wraps instead when `wrap`). */
static int scalar_int(const lt_scalar *s, int bits, int is_signed, int wrap, uint64_t *out) {
  if (s->kind == LT_SK_INT || s->kind == LT_SK_UINT) {
    if (!wrap && !int_in_range(s, bits, is_signed)) return LT_STORE_RANGE;
    *out = s->kind == LT_SK_INT ? (uint64_t)s->v.i : s->v.u;
    return LT_STORE_OK;
  }
  double x = s->v.f;
  if (!lt_fits_int(x, bits, is_signed)) return LT_STORE_RANGE;
  *out = is_signed ? (uint64_t)(int64_t)x : (uint64_t)x;
  return LT_STORE_OK;
}

/* Whether a finite value beyond max (float32's, float16's, bfloat16's largest finite value)
   is written: torch refuses it on element writes ("value cannot be converted to type float
   without overflow"); infinities and NaN are kept. Integers are checked too (70000 into
   float16). */
static int float_overflows(const lt_scalar *s, double max) {
  double x = scalar_f64(s);
  if (isfinite(x) && fabs(x) > max) return 1;
  return s->kind == LT_SK_COMPLEX && isfinite(s->im) && fabs(s->im) > max;
}

double lt_float_max(lt_dtype dt) {
  switch (dt) {
    case LT_FLOAT16: return 65504.0;
    case LT_BFLOAT16: return 0x1.fep127;
    case LT_FLOAT32:
    case LT_COMPLEX64: return FLT_MAX;
    case LT_FLOAT64:
    case LT_COMPLEX128: return DBL_MAX;
    default: return 0.0;
  }
}

static int store(lt_dtype dt, void *p, const lt_scalar *s, int wrap) {
  uint64_t u;
  double f;
  int int_rc = LT_STORE_OK;
  if (!wrap) { /* float64 and complex128 hold every finite double */
    double max = dt == LT_FLOAT64 || dt == LT_COMPLEX128 ? 0.0 : lt_float_max(dt);
    if (max > 0.0 && float_overflows(s, max)) return LT_STORE_RANGE;
  }
  switch (dt) {
    case LT_BOOL:
      switch (s->kind) {
        case LT_SK_INT: *(uint8_t *)p = s->v.i != 0; break;
        case LT_SK_UINT: *(uint8_t *)p = s->v.u != 0; break;
        case LT_SK_FLOAT: *(uint8_t *)p = s->v.f != 0; break;
        case LT_SK_COMPLEX: *(uint8_t *)p = s->v.f != 0 || s->im != 0; break;
      }
      return LT_STORE_OK;
#define LT_X_STORE_INT(E, T, bits, sgn)     \
  case LT_##E:                              \
    if (scalar_int(s, bits, sgn, wrap, &u)) \
      int_rc = LT_STORE_RANGE;              \
    else                                    \
      *(T *)p = (T)u;                       \
    break;
#define STORE_BOOL(E, T, b)
#define STORE_SINT(E, T, b) LT_X_STORE_INT(E, T, b, 1)
#define STORE_UINT(E, T, b) LT_X_STORE_INT(E, T, b, 0)
#define STORE_FLT(E, T, b)
#define STORE_F16(E, T, b)
#define STORE_BF16(E, T, b)
#define STORE_CPX(E, T, b)
      LT_DTYPES_BY_CATEGORY(STORE)
#undef LT_X_STORE_INT
    case LT_FLOAT16: *(uint16_t *)p = lt_f64_to_f16(scalar_f64_narrow(s)); return LT_STORE_OK;
    case LT_BFLOAT16: *(uint16_t *)p = lt_f64_to_bf16(scalar_f64_narrow(s)); return LT_STORE_OK;
    case LT_FLOAT32: *(float *)p = scalar_f32(s); return LT_STORE_OK;
    case LT_FLOAT64: *(double *)p = scalar_f64(s); return LT_STORE_OK;
    case LT_COMPLEX64:
      ((lt_c64 *)p)->re = scalar_f32(s);
      ((lt_c64 *)p)->im = s->kind == LT_SK_COMPLEX ? (float)s->im : 0.0f;
      return LT_STORE_OK;
    case LT_COMPLEX128:
      f = scalar_f64(s);
      ((lt_c128 *)p)->re = f;
      ((lt_c128 *)p)->im = s->kind == LT_SK_COMPLEX ? s->im : 0.0;
      return LT_STORE_OK;
    default: return LT_STORE_RANGE;
  }
  return int_rc; /* the integer dtypes' cases break out */
}

int lt_store(lt_dtype dt, void *p, const lt_scalar *s) { return store(dt, p, s, 0); }
int lt_store_wrap(lt_dtype dt, void *p, const lt_scalar *s) { return store(dt, p, s, 1); }

/* }====== */

void lt_scalar_str(const lt_scalar *s, char *buf, size_t n) {
  switch (s->kind) {
    case LT_SK_INT: snprintf(buf, n, "%lld", (long long)s->v.i); break;
    case LT_SK_UINT: snprintf(buf, n, "%llu", (unsigned long long)s->v.u); break;
    case LT_SK_FLOAT:
    case LT_SK_COMPLEX:
      if (isnan(s->v.f))
        snprintf(buf, n, "nan");
      else if (isinf(s->v.f))
        snprintf(buf, n, "%sinf", s->v.f < 0 ? "-" : "");
      else
        snprintf(buf, n, "%.17g", s->v.f);
      break;
  }
}
