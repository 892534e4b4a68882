/*
 * lt_kernels.c -- strided copy with dtype conversion, and fill.
 *
 * A conversion goes through a small "canonical" buffer: the source run is loaded into int64,
 * uint64, double or (double, double) values, then stored into the destination type under the
 * write rules. That needs one load loop per source dtype and one store loop per destination
 * dtype and canonical kind, all generated from LT_DTYPES, instead of 15 x 15 hand copies.
 * Same-dtype copies move bytes directly (memcpy when both runs are contiguous).
 */
#include "lt_kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_iter.h"

/* {====== same-dtype runs ====== */

#define MOVE_RUN(T)                                                                 \
  static int move_##T(void *ctx, char *const *p, const int64_t *st, int64_t n) {    \
    char *d = p[0];                                                                 \
    const char *s = p[1];                                                           \
    int64_t ds = st[0], ss = st[1];                                                 \
    (void)ctx;                                                                      \
    if (ds == (int64_t)sizeof(T) && ss == (int64_t)sizeof(T)) {                     \
      memcpy(d, s, (size_t)n * sizeof(T));                                          \
    } else {                                                                        \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, sizeof(T));   \
    }                                                                               \
    return 0;                                                                       \
  }
MOVE_RUN(uint8_t)
MOVE_RUN(uint16_t)
MOVE_RUN(uint32_t)
MOVE_RUN(uint64_t)
MOVE_RUN(lt_c128)

static lt_run_fn move_for_size(size_t es) {
  switch (es) {
    case 1: return move_uint8_t;
    case 2: return move_uint16_t;
    case 4: return move_uint32_t;
    case 8: return move_uint64_t;
    default: return move_lt_c128;
  }
}

/* }====== */

/* {====== converting runs ====== */

#define CHUNK 256

typedef enum { CK_I64, CK_U64, CK_F64, CK_C128 } canon_kind;

typedef union {
  int64_t i[CHUNK];
  uint64_t u[CHUNK];
  double f[CHUNK];
  double c[2 * CHUNK];
} canon_buf;

/* Canonical kind of each category. */
#define CANON_BOOL(bits) CK_I64
#define CANON_SINT(bits) CK_I64
#define CANON_UINT(bits) ((bits) == 64 ? CK_U64 : CK_I64)
#define CANON_FLT(bits) CK_F64
#define CANON_F16(bits) CK_F64
#define CANON_BF16(bits) CK_F64
#define CANON_CPX(bits) CK_C128

static const canon_kind canon_of[LT_NDTYPES] = {
#define X_CANON(E, n, T, c, bits, K) CANON_##K(bits),
    LT_DTYPES(X_CANON)
#undef X_CANON
};

/* Loading one element of category K into the buffer at index i. */
#define LOAD_BOOL(T, bits, p, b, i) (b)->i[i] = *(const uint8_t *)(p) != 0
#define LOAD_SINT(T, bits, p, b, i) (b)->i[i] = *(const T *)(p)
#define LOAD_UINT(T, bits, p, b, i) \
  if ((bits) == 64) (b)->u[i] = *(const T *)(p); else (b)->i[i] = (int64_t)*(const T *)(p)
#define LOAD_FLT(T, bits, p, b, i) (b)->f[i] = *(const T *)(p)
#define LOAD_F16(T, bits, p, b, i) (b)->f[i] = lt_f16_to_f32(*(const uint16_t *)(p))
#define LOAD_BF16(T, bits, p, b, i) (b)->f[i] = lt_bf16_to_f32(*(const uint16_t *)(p))
#define LOAD_CPX(T, bits, p, b, i)         \
  (b)->c[2 * (i)] = ((const T *)(p))->re; \
  (b)->c[2 * (i) + 1] = ((const T *)(p))->im

#define X_LOAD(E, n, T, c, bits, K)                                                          \
  static void load_##E(const char *s, int64_t ss, int64_t cnt, canon_buf *b) {               \
    for (int64_t i = 0; i < cnt; i++) {                                                      \
      LOAD_##K(T, bits, s + i * ss, b, i);                                                   \
    }                                                                                        \
  }
LT_DTYPES(X_LOAD)
#undef X_LOAD

typedef void (*load_fn)(const char *s, int64_t ss, int64_t cnt, canon_buf *b);
static const load_fn loads[LT_NDTYPES] = {
#define X_LOADS(E, n, T, c, bits, K) load_##E,
    LT_DTYPES(X_LOADS)
#undef X_LOADS
};

/*
 * Storing: for each category, the conversion from each canonical kind (x: the value; re, im:
 * a complex value) and whether a double x is representable (FITS). Integers from doubles
 * truncate when they fit; the cast is never reached with an unrepresentable value.
 */
#define FITS_BOOL(bits, x) 1
#define FITS_SINT(bits, x) lt_fits_int(x, bits, 1)
#define FITS_UINT(bits, x) lt_fits_int(x, bits, 0)
#define FITS_FLT(bits, x) 1
#define FITS_F16(bits, x) 1
#define FITS_BF16(bits, x) 1
#define FITS_CPX(bits, x) 1

#define FROMI_BOOL(T, x) (T)((x) != 0)
#define FROMI_SINT(T, x) (T)(x)
#define FROMI_UINT(T, x) (T)(x)
#define FROMI_FLT(T, x) (T)(x)
#define FROMI_F16(T, x) lt_f64_to_f16((double)(x))
#define FROMI_BF16(T, x) lt_f64_to_bf16((double)(x))
#define FROMI_CPX(T, x) ((T){(x), 0})

#define FROMF_BOOL(T, x) (T)((x) != 0)
#define FROMF_SINT(T, x) (T)(x)
#define FROMF_UINT(T, x) (T)(x)
#define FROMF_FLT(T, x) (T)(x)
#define FROMF_F16(T, x) lt_f64_to_f16(x)
#define FROMF_BF16(T, x) lt_f64_to_bf16(x)
#define FROMF_CPX(T, x) ((T){(x), 0})

#define FROMC_BOOL(T, re, im) (T)((re) != 0 || (im) != 0)
#define FROMC_SINT(T, re, im) FROMF_SINT(T, re)
#define FROMC_UINT(T, re, im) FROMF_UINT(T, re)
#define FROMC_FLT(T, re, im) FROMF_FLT(T, re)
#define FROMC_F16(T, re, im) FROMF_F16(T, re)
#define FROMC_BF16(T, re, im) FROMF_BF16(T, re)
#define FROMC_CPX(T, re, im) ((T){(re), (im)})

/* Returns the index of the first value that does not fit, or -1. Nothing of a chunk is
   written when one of its values does not fit. */
#define X_STORE(E, n, T, code, bits, K)                                                       \
  static int64_t store_##E(char *d, int64_t ds, int64_t cnt, const canon_buf *b,           \
                           canon_kind kind) {                                              \
    int64_t i;                                                                             \
    switch (kind) {                                                                        \
      case CK_I64:                                                                         \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMI_##K(T, b->i[i]);              \
        break;                                                                             \
      case CK_U64:                                                                         \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMI_##K(T, b->u[i]);              \
        break;                                                                             \
      case CK_F64:                                                                         \
        for (i = 0; i < cnt; i++)                                                          \
          if (!FITS_##K(bits, b->f[i])) return i;                                          \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMF_##K(T, b->f[i]);              \
        break;                                                                             \
      case CK_C128:                                                                        \
        for (i = 0; i < cnt; i++)                                                          \
          if (!FITS_##K(bits, b->c[2 * i])) return i;                                      \
        for (i = 0; i < cnt; i++)                                                          \
          *(T *)(d + i * ds) = FROMC_##K(T, b->c[2 * i], b->c[2 * i + 1]);                 \
        break;                                                                             \
    }                                                                                      \
    return -1;                                                                             \
  }
LT_DTYPES(X_STORE)
#undef X_STORE

typedef int64_t (*store_fn)(char *d, int64_t ds, int64_t cnt, const canon_buf *b,
                            canon_kind kind);
static const store_fn stores[LT_NDTYPES] = {
#define X_STORES(E, n, T, c, bits, K) store_##E,
    LT_DTYPES(X_STORES)
#undef X_STORES
};

typedef struct {
  lt_dtype from, to;
  canon_buf buf;
  lt_error *err;
} convert_ctx;

static int convert_run(void *ud, char *const *p, const int64_t *st, int64_t n) {
  convert_ctx *cx = ud;
  char *d = p[0];
  const char *s = p[1];
  int64_t ds = st[0], ss = st[1];
  while (n > 0) {
    int64_t cnt = n < CHUNK ? n : CHUNK;
    loads[cx->from](s, ss, cnt, &cx->buf);
    int64_t bad = stores[cx->to](d, ds, cnt, &cx->buf, canon_of[cx->from]);
    if (bad >= 0) {
      lt_scalar v;
      char str[64];
      lt_load(cx->from, s + bad * ss, &v);
      lt_scalar_str(&v, str, sizeof str);
      return lt_fail(cx->err, LT_ERANGE, "value %s cannot be converted to %s", str,
                     lt_dtypes[cx->to].name);
    }
    d += cnt * ds;
    s += cnt * ss;
    n -= cnt;
  }
  return 0;
}

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

/* {====== public entry points ====== */

int lt_broadcast_to(const lt_tensor *src, int ndim, const int64_t *shape, lt_tensor **out,
                    lt_error *err) {
  if (src->ndim > ndim)
    return lt_fail(err, LT_EARG, "shape mismatch: a tensor of %d dims cannot broadcast to %d dims",
                   src->ndim, ndim);
  for (int i = 0; i < src->ndim; i++) {
    int64_t have = src->shape[i], want = shape[ndim - src->ndim + i];
    if (have != want && have != 1)
      return lt_fail(err, LT_EARG,
                     "shape mismatch: size %lld of dim %d cannot broadcast to size %lld",
                     (long long)have, i + 1, (long long)want);
  }
  return lt_expand(src, ndim, shape, out, err);
}

/* Dst may not have two elements at one address (a stride-0 dim of size > 1). */
static int check_no_internal_overlap(const lt_tensor *t, lt_error *err) {
  for (int i = 0; i < t->ndim; i++)
    if (t->strides[i] == 0 && t->shape[i] > 1)
      return lt_fail(err, LT_EARG,
                     "unsupported operation: more than one element of the written-to tensor "
                     "refers to a single memory location (expanded dim %d); clone it first",
                     i + 1);
  return LT_OK;
}

/* Byte range [lo, hi) touched by t. */
static void byte_extent(const lt_tensor *t, const char **lo, const char **hi) {
  int64_t es = (int64_t)lt_esize(t), a = 0, b = 0;
  for (int i = 0; i < t->ndim; i++) {
    int64_t span = (t->shape[i] - 1) * t->strides[i] * es;
    if (span < 0) a += span; else b += span;
  }
  *lo = lt_data(t) + a;
  *hi = lt_data(t) + b + es;
}

static int may_overlap(const lt_tensor *x, const lt_tensor *y) {
  if (lt_numel(x) == 0 || lt_numel(y) == 0) return 0;
  const char *xl, *xh, *yl, *yh;
  byte_extent(x, &xl, &xh);
  byte_extent(y, &yl, &yh);
  return xl < yh && yl < xh;
}

int lt_copy(lt_tensor *dst, const lt_tensor *src, lt_error *err) {
  int rc;
  if ((rc = lt_prepare_write(dst, err)) || (rc = lt_check_readable(src, err))) return rc;
  if ((rc = check_no_internal_overlap(dst, err))) return rc;
  if (lt_numel(dst) == 0) {
    lt_tensor *b;
    if ((rc = lt_broadcast_to(src, dst->ndim, dst->shape, &b, err))) return rc;
    lt_tensor_free(b);
    return LT_OK;
  }
  lt_tensor *aside = NULL, *b = NULL;
  if (src->storage == dst->storage || may_overlap(dst, src)) {
    /* shape and strides through their pointers: a frame keeps its strides apart from dims */
    size_t nb = (size_t)src->ndim * sizeof(int64_t);
    if (src->storage->data == dst->storage->data && src->offset == dst->offset &&
        src->dtype == dst->dtype && src->ndim == dst->ndim &&
        memcmp(src->shape, dst->shape, nb) == 0 && memcmp(src->strides, dst->strides, nb) == 0)
      return LT_OK; /* copying a tensor onto itself */
    if (may_overlap(dst, src)) {
      if ((rc = lt_clone(src, &aside, err))) return rc;
      src = aside;
    }
  }
  if ((rc = lt_broadcast_to(src, dst->ndim, dst->shape, &b, err))) {
    lt_tensor_free(aside);
    return rc;
  }
  lt_iter it;
  lt_tensor *ops[2] = {dst, b};
  char *base[2] = {lt_data(dst), lt_data(b)};
  lt_iter_init(&it, 2, ops);
  if (dst->dtype == b->dtype) {
    rc = lt_iter_run(&it, base, move_for_size(lt_esize(dst)), NULL);
  } else {
    convert_ctx *cx = malloc(sizeof *cx);
    if (!cx) {
      rc = lt_fail(err, LT_ENOMEM, "not enough memory");
    } else {
      cx->from = b->dtype;
      cx->to = dst->dtype;
      cx->err = err;
      rc = lt_iter_run(&it, base, convert_run, cx);
      free(cx);
    }
  }
  lt_tensor_free(b);
  lt_tensor_free(aside);
  return rc;
}

#define FILL_RUN(T)                                                                      \
  static int fill_##T(void *ctx, char *const *p, const int64_t *st, int64_t n) {         \
    char *d = p[0];                                                                      \
    int64_t ds = st[0];                                                                  \
    T v;                                                                                 \
    memcpy(&v, ctx, sizeof v);                                                           \
    if (ds == (int64_t)sizeof(T)) {                                                      \
      T *q = (T *)(void *)d;                                                             \
      for (int64_t i = 0; i < n; i++) q[i] = v;                                          \
    } else {                                                                             \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, &v, sizeof v);                  \
    }                                                                                    \
    return 0;                                                                            \
  }
FILL_RUN(uint8_t)
FILL_RUN(uint16_t)
FILL_RUN(uint32_t)
FILL_RUN(uint64_t)
FILL_RUN(lt_c128)

int lt_fill(lt_tensor *dst, const lt_scalar *v, lt_error *err) {
  int rc;
  if ((rc = lt_prepare_write(dst, err))) return rc;
  if ((rc = check_no_internal_overlap(dst, err))) return rc;
  union {
    lt_c128 c;
    unsigned char b[16];
  } elem;
  memset(&elem, 0, sizeof elem);
  if (lt_store(dst->dtype, &elem, v) != LT_STORE_OK) {
    char str[64];
    lt_scalar_str(v, str, sizeof str);
    return lt_fail(err, LT_ERANGE, "value %s cannot be converted to %s", str,
                   lt_dtypes[dst->dtype].name);
  }
  if (lt_numel(dst) == 0) return LT_OK;
  lt_iter it;
  lt_tensor *ops[1] = {dst};
  char *base[1] = {lt_data(dst)};
  lt_iter_init(&it, 1, ops);
  lt_run_fn run;
  switch (lt_esize(dst)) {
    case 1: run = fill_uint8_t; break;
    case 2: run = fill_uint16_t; break;
    case 4: run = fill_uint32_t; break;
    case 8: run = fill_uint64_t; break;
    default: run = fill_lt_c128; break;
  }
  return lt_iter_run(&it, base, run, &elem);
}

/* }====== */
