/*
 * lt_sort.h -- sorting along a dim and what is read off a sorted row: sort, argsort, topk,
 * kthvalue, median, mode (lt_sort.c), unique (lt_unique.c), and the order key every comparison of
 * ltensor's sorting and searching goes through (here, inline: lt_scan.c's cummax/cummin and
 * searchsorted use it too). Lua-free.
 *
 * Order: every real dtype maps to an unsigned key of its own width whose unsigned order is the
 * element order: bool and unsigned integers as they are, signed integers with the sign bit
 * flipped, floats with the sign bit flipped (positive) or every bit flipped (negative), -0.0
 * as 0.0 (equal), and every NaN as the largest key (NaN sorts last ascending, first
 * descending, and counts as the largest in topk, as torch). Complex dtypes have no order.
 *
 * Positions in results are int64, counted from `base` (the binding passes 1; C callers 0).
 * Results are new contiguous tensors. Calls lt_copy.c, lt_tensor.c, lt_pool.c; called by the
 * binding and lt_scan.c (for the key only).
 */
#ifndef LT_SORT_H
#define LT_SORT_H

#include <stdint.h>
#include <string.h>

#include "lt_tensor.h"

/* {====== order keys ====== */

/* Bits of dt's key (8, 16, 32 or 64); 0 for dtypes without an order (complex, opaque). */
static inline int lt_key_bits(lt_dtype dt) {
  if (dt >= LT_NDTYPES || lt_dtypes[dt].is_complex) return 0;
  return (int)lt_dtypes[dt].size * 8;
}

static inline uint64_t lt_float_key_(uint64_t u, int bits) {
  uint64_t sign = (uint64_t)1 << (bits - 1), all = sign | (sign - 1);
  if (u == sign) u = 0; /* -0.0 == 0.0 */
  return u & sign ? ~u & all : u | sign;
}

/* The order key of the element at p of dtype dt (one with an order). */
static inline uint64_t lt_order_key(lt_dtype dt, const void *p) {
  switch (dt) {
    case LT_BOOL: return *(const uint8_t *)p != 0;
    case LT_UINT8: return *(const uint8_t *)p;
    case LT_UINT16: return *(const uint16_t *)p;
    case LT_UINT32: return *(const uint32_t *)p;
    case LT_UINT64: return *(const uint64_t *)p;
    case LT_INT8: return (uint8_t)(*(const uint8_t *)p ^ 0x80u);
    case LT_INT16: return (uint16_t)(*(const uint16_t *)p ^ 0x8000u);
    case LT_INT32: return *(const uint32_t *)p ^ 0x80000000u;
    case LT_INT64: return *(const uint64_t *)p ^ ((uint64_t)1 << 63);
    case LT_FLOAT16: {
      uint16_t u = *(const uint16_t *)p;
      return (u & 0x7fff) > 0x7c00 ? 0xffff : lt_float_key_(u, 16);
    }
    case LT_BFLOAT16: {
      uint16_t u = *(const uint16_t *)p;
      return (u & 0x7fff) > 0x7f80 ? 0xffff : lt_float_key_(u, 16);
    }
    case LT_FLOAT32: {
      uint32_t u;
      memcpy(&u, p, 4);
      return (u & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : lt_float_key_(u, 32);
    }
    case LT_FLOAT64: {
      uint64_t u;
      memcpy(&u, p, 8);
      return (u & ~((uint64_t)1 << 63)) > 0x7ff0000000000000u ? UINT64_MAX : lt_float_key_(u, 64);
    }
    default: return 0;
  }
}

/* Whether a key of dt is a NaN's (floating dtypes only have them). */
static inline int lt_key_is_nan(lt_dtype dt, uint64_t k) {
  if (!lt_dtypes[dt].is_float) return 0;
  int bits = lt_key_bits(dt);
  return k == (bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1);
}

/* LT_EARG "not implemented for <dtype>" unless t's dtype has an order; also t readable. */
int lt_check_ordered(const lt_tensor *t, lt_error *err);

/* }====== */

/* {====== along a dim (0-based; a 0-d tensor takes dim 0 as one element) ====== */

/* Sorts along dim: *values (NULL: not made, argsort) in t's dtype and *indices (int64). Stable:
   equal elements keep their order, ascending and descending. */
int lt_sort(const lt_tensor *t, int dim, int descending, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err);
/* The k largest (or smallest) along dim, largest first (smallest first); 0 <= k <= size of the
   dim, else LT_ERANGE "k %lld out of range (expected 0 to %lld)" (k as given). Always sorted. */
int lt_topk(const lt_tensor *t, int64_t k, int dim, int largest, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err);
/* The k-th smallest (1 <= k <= size, else LT_ERANGE naming k), the dim removed unless keepdim. */
int lt_kthvalue(const lt_tensor *t, int64_t k, int dim, int keepdim, int64_t base,
                lt_tensor **values, lt_tensor **indices, lt_error *err);
/* The lower median along dim (a NaN, the first one, when the row has one), the dim removed
   unless keepdim; dim < 0: over every element, *values 0-d and indices not made (NULL). An
   empty dim raises; so does an empty tensor without a dim, unless floating (NaN, as torch). */
int lt_median(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
              lt_tensor **indices, lt_error *err);
/* The most frequent value along dim (the smallest of those equally frequent; each NaN counts
   as a value of its own, as in torch, so a NaN is the mode only of a row of NaNs and distinct
   values) and the position of its last occurrence. */
int lt_mode(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err);
/* The distinct elements of t, ascending, as a 1-d tensor (NaNs count as one value); *inverse
   (when not NULL): t's shape, for each element its position in *out (from base); *counts (when
   not NULL): int64, how often each value occurs. */
int lt_unique(const lt_tensor *t, int64_t base, lt_tensor **out, lt_tensor **inverse,
              lt_tensor **counts, lt_error *err);

/* unique along dim (0-based): the distinct slices t.select(dim, i), in lexicographic order of
   their elements (row-major; each compared by its order key, so NaNs are equal), stacked along
   dim; *inverse (1-d, the dim's size): for each slice its position in *out; *counts: int64. */
int lt_unique_dim(const lt_tensor *t, int dim, int64_t base, lt_tensor **out, lt_tensor **inverse,
                  lt_tensor **counts, lt_error *err);

/* }====== */

#endif
