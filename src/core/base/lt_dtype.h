/*
 * lt_dtype.h -- element types: the fifteen dtypes, their DLPack codes, float16/bfloat16
 * conversions, and single-element load/store through a tagged scalar.
 *
 * Owns: the dtype table (names, sizes, DLPack code/bits, torch's aliases), the conversion rules
 * of a scalar write (float -> integer truncates toward zero; NaN, +-inf and values outside an
 * integer type's range are refused, integers too: 256 into uint8 fails rather than wrapping; an
 * LT_SK_INT written into uint64 stores its 64 bits, as Lua's integers and string.pack "I8" do;
 * anything -> bool is "!= 0"; float64 -> float32 rounds, out of range to +-inf; complex -> real
 * drops the imaginary part). Casts between tensors (lt_copy.c) have their own kernels and wrap
 * integers as torch's casts do. Lua-free.
 *
 * Calls nothing else of the core. Called by every core file and the binding.
 */
#ifndef LT_DTYPE_H
#define LT_DTYPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dlpack.h"
#include "lt_checked.h"

/*
 * X(ENUM, name, ctype, dlpack code, bits, category): the one list of dtypes. Every per-dtype
 * table, switch and kernel set is generated from it. Categories pick the conversion rules and
 * the kernels: BOOL, SINT, UINT, FLT (float/double), F16, BF16, CPX. The order is the order of
 * the spec and of the enum below; it is also the order of type promotion within a category.
 * The name is a string literal (a bare `bool` would meet stdbool's macro).
 */
#define LT_DTYPES_EACH(F, X)                                \
  F(X, BOOL, "bool", uint8_t, kDLBool, 8, BOOL)             \
  F(X, UINT8, "uint8", uint8_t, kDLUInt, 8, UINT)           \
  F(X, INT8, "int8", int8_t, kDLInt, 8, SINT)               \
  F(X, INT16, "int16", int16_t, kDLInt, 16, SINT)           \
  F(X, INT32, "int32", int32_t, kDLInt, 32, SINT)           \
  F(X, INT64, "int64", int64_t, kDLInt, 64, SINT)           \
  F(X, UINT16, "uint16", uint16_t, kDLUInt, 16, UINT)       \
  F(X, UINT32, "uint32", uint32_t, kDLUInt, 32, UINT)       \
  F(X, UINT64, "uint64", uint64_t, kDLUInt, 64, UINT)       \
  F(X, FLOAT16, "float16", uint16_t, kDLFloat, 16, F16)     \
  F(X, BFLOAT16, "bfloat16", uint16_t, kDLBfloat, 16, BF16) \
  F(X, FLOAT32, "float32", float, kDLFloat, 32, FLT)        \
  F(X, FLOAT64, "float64", double, kDLFloat, 64, FLT)       \
  F(X, COMPLEX64, "complex64", lt_c64, kDLComplex, 64, CPX) \
  F(X, COMPLEX128, "complex128", lt_c128, kDLComplex, 128, CPX)

/* X(ENUM, name, ctype, code, bits, category) for every dtype. */
#define LT_DTYPE_ROW(X, E, n, T, c, b, K) X(E, n, T, c, b, K)
#define LT_DTYPES(X) LT_DTYPES_EACH(LT_DTYPE_ROW, X)

/* Per category: LT_DTYPES_BY_CATEGORY(P) expands P_<category>(ENUM, ctype, bits) for every
   dtype (P_BOOL, P_SINT, P_UINT, P_FLT, P_F16, P_BF16, P_CPX must all be defined; an empty one
   leaves its category out). Kernel sets that cover only some dtypes select them this way. */
#define LT_DTYPE_CAT_ROW(P, E, n, T, c, b, K) P##_##K(E, T, b)
#define LT_DTYPES_BY_CATEGORY(P) LT_DTYPES_EACH(LT_DTYPE_CAT_ROW, P)

/* The integer dtypes (bool excluded): X(ENUM, ctype, bits). */
#define LT_INT_SEL_BOOL(X, E, T, b)
#define LT_INT_SEL_SINT(X, E, T, b) X(E, T, b)
#define LT_INT_SEL_UINT(X, E, T, b) X(E, T, b)
#define LT_INT_SEL_FLT(X, E, T, b)
#define LT_INT_SEL_F16(X, E, T, b)
#define LT_INT_SEL_BF16(X, E, T, b)
#define LT_INT_SEL_CPX(X, E, T, b)
#define LT_INT_SEL_ROW(X, E, n, T, c, b, K) LT_INT_SEL_##K(X, E, T, b)
#define LT_DTYPES_INT(X) LT_DTYPES_EACH(LT_INT_SEL_ROW, X)

/* The complex dtypes: X(ENUM, ctype, bits). */
#define LT_CPX_SEL_BOOL(X, E, T, b)
#define LT_CPX_SEL_SINT(X, E, T, b)
#define LT_CPX_SEL_UINT(X, E, T, b)
#define LT_CPX_SEL_FLT(X, E, T, b)
#define LT_CPX_SEL_F16(X, E, T, b)
#define LT_CPX_SEL_BF16(X, E, T, b)
#define LT_CPX_SEL_CPX(X, E, T, b) X(E, T, b)
#define LT_CPX_SEL_ROW(X, E, n, T, c, b, K) LT_CPX_SEL_##K(X, E, T, b)
#define LT_DTYPES_CPX(X) LT_DTYPES_EACH(LT_CPX_SEL_ROW, X)

/* An unsigned type of b bits (lt_c128 for 128), for kernels that only move elements. */
#define LT_UBITS_8 uint8_t
#define LT_UBITS_16 uint16_t
#define LT_UBITS_32 uint32_t
#define LT_UBITS_64 uint64_t
#define LT_UBITS_128 lt_c128
/* Every element size of the list above, in bits: X(bits). */
#define LT_ELEMENT_BITS(X) X(8) X(16) X(32) X(64) X(128)

typedef struct {
  float re, im;
} lt_c64;
typedef struct {
  double re, im;
} lt_c128;

typedef enum {
#define LT_X_ENUM(E, n, T, c, b, K) LT_##E,
  LT_DTYPES(LT_X_ENUM)
#undef LT_X_ENUM
      LT_NDTYPES,
  /* A valid DLPack type ltensor keeps but cannot compute with (fp8, fp6, fp4, vector lanes):
     the tensor carries its DLDataType and its elements raise on access. */
  LT_OPAQUE = LT_NDTYPES
} lt_dtype;

typedef struct {
  const char *name;     /* "float32" */
  size_t size;          /* bytes per element */
  size_t align;         /* alignment the element's C type needs */
  DLDataType dl;        /* DLPack code, bits, lanes (1) */
  unsigned char is_int; /* integer kinds, bool excluded */
  unsigned char is_signed, is_float, is_complex;
} lt_dtype_info;

extern const lt_dtype_info lt_dtypes[LT_NDTYPES];
/* dt's name for messages: "float32", or "an opaque dtype" for LT_OPAQUE (lt_dtypes has no entry
   for it: index it only with a dtype known not to be opaque). */
static inline const char *lt_dtype_name(lt_dtype dt) {
  return dt < LT_NDTYPES ? lt_dtypes[dt].name : "an opaque dtype";
}

/* torch's other names of dtypes: float, double, half, long, int (int32), short, cfloat, cdouble. */
typedef struct {
  const char *alias;
  lt_dtype dt;
} lt_dtype_alias;
#define LT_NALIASES 8
extern const lt_dtype_alias lt_dtype_aliases[LT_NALIASES];

/* Looks a dtype up by its name ("float32") or an alias ("float"). Returns LT_NDTYPES when the
   name is unknown. */
lt_dtype lt_dtype_from_name(const char *name);
/* The dtype of a DLPack type, or LT_OPAQUE when DLPack allows it but ltensor has no dtype. */
lt_dtype lt_dtype_from_dl(DLDataType dl);
/* torch's name of an opaque type that has one ("float8_e4m3fn", "float8_e5m2", ...; ml_dtypes'
   for the float4 and float6 types), else NULL. */
const char *lt_dl_name(DLDataType dl);

/* float16 / bfloat16 bit patterns. Narrowing rounds to nearest even, keeps NaN quiet, overflows
   to +-inf and produces subnormals; widening is exact. */
uint16_t lt_f64_to_f16(double v);
uint16_t lt_f64_to_bf16(double v);
float lt_f16_to_f32(uint16_t h);
static inline float lt_bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
/* An integer's magnitude as a double rounded to odd: the last of the 53 bits kept is ORed with
   every bit dropped. Narrowing that double to float16 or bfloat16 (11 or 8 bits) then rounds
   correctly, where a plain conversion to double first would round twice (bfloat16 of
   0x7EBFFFFFFFFFFEC3 came out one unit too large). Exact below 2^53. */
static inline double lt_u64_to_f64_odd(uint64_t m) {
  if (m < ((uint64_t)1 << 53)) return (double)m;
  int drop = 11 - lt_clz64(m);
  uint64_t kept = (m >> drop) | ((m & (((uint64_t)1 << drop) - 1)) != 0);
  return (double)kept * (double)((uint64_t)1 << drop); /* both exact */
}
static inline double lt_i64_to_f64_odd(int64_t v) {
  return v < 0 ? -lt_u64_to_f64_odd(0 - (uint64_t)v) : lt_u64_to_f64_odd((uint64_t)v);
}
static inline uint16_t lt_f32_to_f16(float v) { return lt_f64_to_f16((double)v); }
static inline uint16_t lt_f32_to_bf16(float v) { return lt_f64_to_bf16((double)v); }

/* {====== tagged scalar: one element on its way in or out ====== */

typedef enum { LT_SK_INT, LT_SK_UINT, LT_SK_FLOAT, LT_SK_COMPLEX } lt_scalar_kind;

typedef struct {
  lt_scalar_kind kind;
  union {
    int64_t i;
    uint64_t u;
    double f;
  } v;
  double im; /* imaginary part, LT_SK_COMPLEX only */
} lt_scalar;

/* Status of a store: the value cannot be represented under the write rules. */
#define LT_STORE_OK 0
#define LT_STORE_RANGE 1
/* The message of LT_STORE_RANGE, with the value (lt_scalar_str) and the dtype's name. */
#define LT_STORE_RANGE_FMT "value %s cannot be converted to %s without overflow"

/* Float -> integer range check: true when trunc(x) fits the integer type. NaN fails. */
static inline int lt_fits_int(double x, int bits, int is_signed) {
  switch (bits) {
    case 8: return is_signed ? (x > -129.0 && x < 128.0) : (x > -1.0 && x < 256.0);
    case 16: return is_signed ? (x > -32769.0 && x < 32768.0) : (x > -1.0 && x < 65536.0);
    case 32:
      return is_signed ? (x > -2147483649.0 && x < 2147483648.0) : (x > -1.0 && x < 4294967296.0);
    default: return is_signed ? (x >= -0x1p63 && x < 0x1p63) : (x > -1.0 && x < 0x1p64);
  }
}

/* Loading one element of a category (T its C type, b its bits). */
#define LT_LOAD_BOOL(T, b, p, s) ((s)->kind = LT_SK_INT, (s)->v.i = *(const uint8_t *)(p) != 0)
#define LT_LOAD_SINT(T, b, p, s) ((s)->kind = LT_SK_INT, (s)->v.i = *(const T *)(p))
#define LT_LOAD_UINT(T, b, p, s)                                    \
  ((b) == 64 ? ((s)->kind = LT_SK_UINT, (s)->v.u = *(const T *)(p)) \
             : ((s)->kind = LT_SK_INT, (s)->v.u = *(const T *)(p)))
#define LT_LOAD_F16(T, b, p, s) \
  ((s)->kind = LT_SK_FLOAT, (s)->v.f = lt_f16_to_f32(*(const uint16_t *)(p)))
#define LT_LOAD_BF16(T, b, p, s) \
  ((s)->kind = LT_SK_FLOAT, (s)->v.f = lt_bf16_to_f32(*(const uint16_t *)(p)))
#define LT_LOAD_FLT(T, b, p, s) ((s)->kind = LT_SK_FLOAT, (s)->v.f = *(const T *)(p))
#define LT_LOAD_CPX(T, b, p, s) \
  ((s)->kind = LT_SK_COMPLEX, (s)->v.f = ((const T *)(p))->re, (s)->im = ((const T *)(p))->im)

/* Reads the element at p. */
static inline void lt_load(lt_dtype dt, const void *p, lt_scalar *s) {
  switch (dt) {
#define LT_X_LOAD(E, n, T, c, b, K) \
  case LT_##E: LT_LOAD_##K(T, b, p, s); break;
    LT_DTYPES(LT_X_LOAD)
#undef LT_X_LOAD
    default:
      s->kind = LT_SK_INT;
      s->v.i = 0;
      break;
  }
}

/* Writes s into the element at p under the write rules. Returns LT_STORE_RANGE (and writes
   nothing) when s is NaN, infinite or outside the range of an integer dtype (after truncation
   for a float; an LT_SK_INT always fits uint64, as its bits), or a finite float beyond the
   largest finite value of float16, bfloat16, float32 or complex64 (as torch's element writes;
   infinities and NaN are kept). */
int lt_store(lt_dtype dt, void *p, const lt_scalar *s);
/* The same, except that an integer outside an integer dtype's range wraps (keeps its low bits),
   as a cast does, and a finite float beyond a floating dtype's range becomes an infinity: for
   results the core computed (an integer sum in 64 bits written to its result dtype) and a
   float scalar operand of an operation (torch's `half + 1e5` gives inf), never for values a
   user writes. */
int lt_store_wrap(lt_dtype dt, void *p, const lt_scalar *s);

/* The largest finite value of a floating or complex dtype (of each part for complex ones:
   65504 for float16, 0x1.fep127 for bfloat16, FLT_MAX, DBL_MAX); 0 for the other dtypes. */
double lt_float_max(lt_dtype dt);

/* Formats a scalar for an error message ("3", "nan", "-inf", "0.10000000000000001"). */
void lt_scalar_str(const lt_scalar *s, char *buf, size_t n);

/* }====== */

#endif
