/*
 * lt_copy.c -- strided copy with dtype conversion, fill, and the operations built on them
 * (clone, cast, reshape's and flatten's copies, arange); see lt_copy.h.
 *
 * A conversion goes through a small "canonical" buffer: the source run is loaded into int64,
 * uint64, double or (double, double) values, then stored into the destination type under the
 * write rules. That needs one load loop per source dtype and one store loop per destination
 * dtype and canonical kind, all generated from LT_DTYPES, instead of 15 x 15 hand copies.
 * Same-dtype copies move bytes directly (memcpy when both runs are contiguous); those with the
 * transpose pattern move by cache-sized tiles (lt_transpose.c). Large contiguous fills use memset
 * or streaming stores. Large copies, conversions and fills run on the pool's threads (lt_pool.h):
 * plain runs through lt_iter_run_par, conversions in pieces with a buffer each, transposing
 * copies by bands of rows of a plane (or by planes, when there are many small ones).
 */
#include "lt_copy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_iter.h"
#include "lt_pool.h"
#include "lt_transpose.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* {====== same-dtype runs ====== */

#define MOVE_RUN(b) MOVE_RUN_(b, LT_UBITS_##b)
#define MOVE_RUN_(b, T)                                                          \
  static int move_##b(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    char *d = p[0];                                                              \
    const char *s = p[1];                                                        \
    int64_t ds = st[0], ss = st[1];                                              \
    (void)ctx;                                                                   \
    if (ds == (int64_t)sizeof(T) && ss == (int64_t)sizeof(T)) {                  \
      memcpy(d, s, (size_t)n * sizeof(T));                                       \
    } else {                                                                     \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, sizeof(T)); \
    }                                                                            \
    return 0;                                                                    \
  }
LT_ELEMENT_BITS(MOVE_RUN)
#define MOVE_ENTRY(E, n, T, c, b, K) [LT_##E] = move_##b,
static const lt_run_fn moves[LT_NDTYPES] = {LT_DTYPES(MOVE_ENTRY)};

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
  if ((bits) == 64)                 \
    (b)->u[i] = *(const T *)(p);    \
  else                              \
    (b)->i[i] = (int64_t) * (const T *)(p)
#define LOAD_FLT(T, bits, p, b, i) (b)->f[i] = *(const T *)(p)
#define LOAD_F16(T, bits, p, b, i) (b)->f[i] = lt_f16_to_f32(*(const uint16_t *)(p))
#define LOAD_BF16(T, bits, p, b, i) (b)->f[i] = lt_bf16_to_f32(*(const uint16_t *)(p))
#define LOAD_CPX(T, bits, p, b, i)        \
  (b)->c[2 * (i)] = ((const T *)(p))->re; \
  (b)->c[2 * (i) + 1] = ((const T *)(p))->im

#define X_LOAD(E, n, T, c, bits, K)                                            \
  static void load_##E(const char *s, int64_t ss, int64_t cnt, canon_buf *b) { \
    for (int64_t i = 0; i < cnt; i++) {                                        \
      LOAD_##K(T, bits, s + i * ss, b, i);                                     \
    }                                                                          \
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
/* through a double rounded to odd: one correct rounding even above 2^53 */
#define FROMI_BF16(T, x) \
  lt_f64_to_bf16(_Generic((x), uint64_t : lt_u64_to_f64_odd, default : lt_i64_to_f64_odd)(x))
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
#define X_STORE(E, n, T, code, bits, K)                                                            \
  static int64_t store_##E(char *d, int64_t ds, int64_t cnt, const canon_buf *b,                   \
                           canon_kind kind) {                                                      \
    int64_t i;                                                                                     \
    switch (kind) {                                                                                \
      case CK_I64:                                                                                 \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMI_##K(T, b->i[i]);                      \
        break;                                                                                     \
      case CK_U64:                                                                                 \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMI_##K(T, b->u[i]);                      \
        break;                                                                                     \
      case CK_F64:                                                                                 \
        for (i = 0; i < cnt; i++)                                                                  \
          if (!FITS_##K(bits, b->f[i])) return i;                                                  \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMF_##K(T, b->f[i]);                      \
        break;                                                                                     \
      case CK_C128:                                                                                \
        for (i = 0; i < cnt; i++)                                                                  \
          if (!FITS_##K(bits, b->c[2 * i])) return i;                                              \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMC_##K(T, b->c[2 * i], b->c[2 * i + 1]); \
        break;                                                                                     \
    }                                                                                              \
    return -1;                                                                                     \
  }
LT_DTYPES(X_STORE)
#undef X_STORE

typedef int64_t (*store_fn)(char *d, int64_t ds, int64_t cnt, const canon_buf *b, canon_kind kind);
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
                     lt_dtype_name(cx->to));
    }
    d += cnt * ds;
    s += cnt * ss;
    n -= cnt;
  }
  return 0;
}

/* A piece of a conversion: a buffer of its own, no message (the piece that fails first runs
   again with one). */
typedef struct {
  const lt_iter *it;
  char *const *base;
  lt_dtype from, to;
} convert_job;

static int convert_piece(void *ctx, int64_t lo, int64_t hi) {
  const convert_job *j = ctx;
  convert_ctx *cx = malloc(sizeof *cx);
  if (!cx) return LT_ENOMEM;
  cx->from = j->from;
  cx->to = j->to;
  cx->err = NULL;
  int rc = lt_iter_range(j->it, j->base, convert_run, cx, lo, hi);
  free(cx);
  return rc;
}

/* Converts every element of the iteration (operand 0 of dtype to, 1 of dtype from); on the
   pool's threads when large. The first value that does not fit is the one reported. */
static int convert(const lt_iter *it, char *const *base, lt_dtype from, lt_dtype to,
                   lt_error *err) {
  int64_t n = lt_iter_numel(it);
  int64_t grain = lt_pool_grain(n, (double)(lt_dtypes[from].size + lt_dtypes[to].size));
  convert_job j = {it, base, from, to};
  int64_t k = lt_pool_run(n, grain, convert_piece, &j);
  if (k < 0) return LT_OK;
  convert_ctx *cx = malloc(sizeof *cx);
  if (!cx) return lt_fail(err, LT_ENOMEM, "not enough memory");
  cx->from = from;
  cx->to = to;
  cx->err = err;
  int rc = lt_iter_range(it, base, convert_run, cx, k * grain,
                         n - k * grain < grain ? n : (k + 1) * grain);
  free(cx);
  return rc ? rc : lt_fail(err, LT_ENOMEM, "not enough memory");
}

/* }====== */

/* {====== public entry points ====== */

int lt_copy(lt_tensor *dst, const lt_tensor *src, lt_error *err) {
  int rc;
  if ((rc = lt_prepare_write(dst, err)) || (rc = lt_check_readable(src, err))) return rc;
  if ((rc = lt_check_no_internal_overlap(dst, err))) return rc;
  if (lt_numel(dst) == 0) {
    lt_tensor *b;
    if ((rc = lt_broadcast_to(src, dst->ndim, dst->shape, &b, err))) return rc;
    lt_tensor_free(b);
    return LT_OK;
  }
  lt_tensor *aside = NULL, *b = NULL;
  if (src->storage == dst->storage || lt_may_overlap(dst, src)) {
    if (lt_same_view(src, dst)) return LT_OK; /* copying a tensor onto itself */
    if (lt_may_overlap(dst, src)) {
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
    if (!lt_copy_transposed(&it, base, dst->dtype))
      lt_iter_run_par(&it, base, moves[dst->dtype], NULL, 2.0 * (double)lt_esize(dst));
  } else {
    rc = convert(&it, base, b->dtype, dst->dtype, err);
  }
  lt_tensor_free(b);
  lt_tensor_free(aside);
  return rc;
}

/*
 * Large contiguous fills: an element whose bytes are all equal (zero above all) is memset's,
 * which writes without first reading each line into the cache; other elements are written with
 * non-temporal (streaming) SSE2 stores from STREAM_MIN bytes on -- past the size of the caches
 * the ordinary stores gain nothing from them, and pay a read of every line they write.
 * Whether to stream is decided on the whole fill (pieces on several threads are smaller).
 * Returns 0, having written nothing, when neither applies.
 */
#define STREAM_MIN ((size_t)16 << 20)

typedef struct {
  union {
    lt_c128 c;
    unsigned char b[16];
  } elem;     /* first: a fill run reads its element from the start of its context */
  int stream; /* the whole fill is at least STREAM_MIN bytes */
} fill_ctx;

static int fill_wide(char *d, int64_t n, const fill_ctx *f, size_t es) {
  const unsigned char *elem = f->elem.b;
  size_t nbytes = (size_t)n * es, k = 1;
  while (k < es && elem[k] == elem[0]) k++;
  if (k == es) {
    memset(d, elem[0], nbytes);
    return 1;
  }
#ifdef __SSE2__
  size_t head = (16 - ((uintptr_t)d & 15)) & 15; /* whole elements up to a 16-byte boundary */
  if (!f->stream || head % es) return 0;
  unsigned char pat[16];
  for (size_t i = 0; i < 16; i++) pat[i] = elem[i % es]; /* es divides 16 */
  memcpy(d, pat, head);
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)pat);
  size_t off = head;
  for (; off + 64 <= nbytes; off += 64) {
    __m128i *q = (__m128i *)(void *)(d + off);
    _mm_stream_si128(q, v);
    _mm_stream_si128(q + 1, v);
    _mm_stream_si128(q + 2, v);
    _mm_stream_si128(q + 3, v);
  }
  _mm_sfence(); /* the streaming stores are ordered before anything that follows */
  for (; off < nbytes; off += 16) memcpy(d + off, pat, nbytes - off < 16 ? nbytes - off : 16);
  return 1;
#else
  return 0;
#endif
}

#define FILL_RUN(NAME, T)                                                              \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {           \
    char *d = p[0];                                                                    \
    int64_t ds = st[0];                                                                \
    T v;                                                                               \
    memcpy(&v, ctx, sizeof v);                                                         \
    if (ds == (int64_t)sizeof(T)) {                                                    \
      if (n * (int64_t)sizeof(T) >= 4096 && fill_wide(d, n, ctx, sizeof(T))) return 0; \
      T *q = (T *)(void *)d;                                                           \
      int64_t i = 0;                                                                   \
      for (; i + LT_BLOCK <= n; i += LT_BLOCK)                                         \
        for (int j = 0; j < LT_BLOCK; j++) q[i + j] = v;                               \
      for (; i < n; i++) q[i] = v;                                                     \
    } else {                                                                           \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, &v, sizeof v);                \
    }                                                                                  \
    return 0;                                                                          \
  }
#define FILL_BITS(b) FILL_RUN(fill_##b, LT_UBITS_##b)
LT_ELEMENT_BITS(FILL_BITS)
FILL_RUN(fill_c64, lt_c64) /* 8 bytes aligned to 4: imported complex64 data may be */
/* By dtype: an unsigned word of the element's size, complex64 its own type (its alignment). */
#define FILL_ENTRY(E, n, T, c, b, K) [LT_##E] = FILL_##K(b),
#define FILL_BOOL(b) fill_##b
#define FILL_SINT(b) fill_##b
#define FILL_UINT(b) fill_##b
#define FILL_FLT(b) fill_##b
#define FILL_F16(b) fill_##b
#define FILL_BF16(b) fill_##b
#define FILL_CPX(b) FILL_CPX_##b
#define FILL_CPX_64 fill_c64
#define FILL_CPX_128 fill_128
static const lt_run_fn fills[LT_NDTYPES] = {LT_DTYPES(FILL_ENTRY)};

int lt_fill(lt_tensor *dst, const lt_scalar *v, lt_error *err) {
  int rc;
  if ((rc = lt_prepare_write(dst, err))) return rc;
  if ((rc = lt_check_no_internal_overlap(dst, err))) return rc;
  fill_ctx f;
  memset(&f, 0, sizeof f);
  if (lt_store(dst->dtype, &f.elem, v) != LT_STORE_OK) {
    char str[64];
    lt_scalar_str(v, str, sizeof str);
    return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, lt_dtype_name(dst->dtype));
  }
  if (lt_numel(dst) == 0) return LT_OK;
  lt_iter it;
  lt_tensor *ops[1] = {dst};
  char *base[1] = {lt_data(dst)};
  lt_iter_init(&it, 1, ops);
  f.stream = (uint64_t)lt_numel(dst) * lt_esize(dst) >= STREAM_MIN;
  lt_iter_run_par(&it, base, fills[dst->dtype], &f, (double)lt_esize(dst));
  return LT_OK;
}

/* }====== */

/* {====== clone, cast, reshape ====== */

int lt_cast(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err); /* first: an opaque t has no dtype to make a copy of */
  if (rc) return rc;
  lt_tensor *c;
  if ((rc = lt_tensor_new(dt, t->ndim, t->shape, 0, &c, err))) return rc;
  if ((rc = lt_copy(c, t, err))) {
    lt_tensor_free(c);
    return rc;
  }
  *out = c;
  return LT_OK;
}

int lt_cast_over(lt_tensor **t, lt_dtype dt, lt_error *err) {
  lt_tensor *c = NULL;
  int rc = (*t)->dtype == dt ? LT_OK : lt_cast(*t, dt, &c, err);
  if (c) {
    lt_tensor_free(*t);
    *t = c;
  }
  return rc;
}

int lt_clone(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  return lt_cast(t, t->dtype, out, err);
}

int lt_contiguous_as(const lt_tensor *t, lt_dtype dt, const lt_tensor **res, lt_tensor **owned,
                     lt_error *err) {
  *owned = NULL;
  *res = t;
  int rc = lt_check_readable(t, err); /* t itself is read too: not on a device, not opaque */
  if (rc || (t->dtype == dt && lt_is_contiguous(t))) return rc;
  rc = lt_cast(t, dt, owned, err);
  *res = *owned;
  return rc;
}

/* Whether no two elements of t share an address (an expanded dim, of stride 0, makes them
   share): sorted by |stride|, each dim must step over everything the dims inside it reach. */
static int elements_distinct(const lt_tensor *t) {
  int dims[LT_MAX_NDIM], n = 0;
  for (int d = 0; d < t->ndim; d++) {
    if (t->shape[d] == 0) return 1;
    if (t->shape[d] > 1) dims[n++] = d;
  }
  for (int i = 1; i < n; i++) /* insertion sort by |stride| */
    for (int j = i; j > 0 && llabs(t->strides[dims[j]]) < llabs(t->strides[dims[j - 1]]); j--) {
      int tmp = dims[j];
      dims[j] = dims[j - 1];
      dims[j - 1] = tmp;
    }
  int64_t reach = 0; /* elements past the first that the inner dims reach */
  for (int i = 0; i < n; i++) {
    int64_t st = llabs(t->strides[dims[i]]);
    if (st <= reach) return 0;
    reach += st * (t->shape[dims[i]] - 1);
  }
  return 1;
}

int lt_clone_lazy(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  uint64_t used = (uint64_t)lt_numel(t) * lt_esize(t);
  lt_storage *s = NULL; /* (a readable tensor is not revoked: it has a block) */
  /* sharing keeps t's layout: only for one whose elements are distinct, or a write to one
     element of the clone would show in the others (an expanded tensor's clone is a copy) */
  if (used > 0 && used * 2 >= t->storage->block->nbytes && elements_distinct(t))
    s = lt_storage_share(t->storage);
  if (!s) return lt_clone(t, out, err);
  lt_tensor *c;
  if ((rc = lt_tensor_alias(t, &c, err))) {
    lt_storage_release(s);
    return rc;
  }
  lt_storage_release(c->storage);
  c->storage = s;
  c->readonly = LT_WRITABLE;
  *out = c;
  return LT_OK;
}

int lt_reshape(const lt_tensor *t, int ndim, const int64_t *shape, lt_tensor **out, int *copied,
               lt_error *err) {
  int rc = lt_view(t, ndim, shape, out, err);
  if (rc == LT_OK) {
    if (copied) *copied = 0;
    return LT_OK;
  }
  if (rc != LT_EARG || ndim < 0 || ndim > LT_MAX_NDIM) return rc;
  int64_t res[LT_MAX_NDIM]; /* a shape error is the same again: no copy is made for it */
  if ((rc = lt_infer_shape(lt_numel(t), ndim, shape, res, err))) return rc;
  lt_tensor *c;
  if ((rc = lt_clone(t, &c, err))) return rc;
  rc = lt_view(c, ndim, res, out, err); /* a contiguous tensor views any shape */
  lt_tensor_free(c);
  if (rc == LT_OK && copied) *copied = 1;
  return rc;
}

int lt_flatten(const lt_tensor *t, int start, int end, lt_tensor **out, lt_error *err) {
  if (t->ndim == 0) {
    int64_t one = 1;
    return lt_reshape(t, 1, &one, out, NULL, err);
  }
  int rc;
  if ((rc = lt_check_dim(t, start, err)) || (rc = lt_check_dim(t, end, err))) return rc;
  if (start > end)
    return lt_fail(err, LT_EARG, "flatten start dim %d comes after end dim %d", start + 1, end + 1);
  int64_t shape[LT_MAX_NDIM], merged = 1;
  int n = 0;
  for (int i = 0; i < start; i++) shape[n++] = t->shape[i];
  /* No overflow: the product of a shape's nonzero sizes fits (lt_shape_numel). Only a zero
     in start..end empties the merged dim; one elsewhere keeps it, as torch: (0,3,4) -> (0,12). */
  for (int i = start; i <= end; i++) merged *= t->shape[i];
  shape[n++] = merged;
  for (int i = end + 1; i < t->ndim; i++) shape[n++] = t->shape[i];
  return lt_reshape(t, n, shape, out, NULL, err);
}

/* }====== */

/* {====== arange ====== */

/* Writes start + i * step for i in [0, count) into a new tensor, as integers or doubles. */
static int arange_fill(lt_dtype dt, int64_t count, int isint, int64_t istart, int64_t istep,
                       double fstart, double fstep, lt_tensor **out, lt_error *err) {
  lt_tensor *t;
  int rc = lt_tensor_new(dt, 1, &count, 0, &t, err);
  if (rc) return rc;
  char *p = lt_data(t);
  size_t es = lt_esize(t);
  for (int64_t i = 0; i < count; i++, p += es) {
    lt_scalar s = {LT_SK_FLOAT, {.f = fstart + (double)i * fstep}, 0};
    if (isint) {
      s.kind = LT_SK_INT;
      s.v.i = (int64_t)((uint64_t)istart + (uint64_t)i * (uint64_t)istep);
    }
    if (lt_store(dt, p, &s) != LT_STORE_OK) {
      char str[64];
      lt_scalar_str(&s, str, sizeof str);
      lt_tensor_free(t);
      return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, lt_dtype_name(dt));
    }
  }
  *out = t;
  return LT_OK;
}

/* A scalar as a double (the real part of a complex one). */
static double scalar_double(const lt_scalar *s) {
  return s->kind == LT_SK_INT ? (double)s->v.i : s->kind == LT_SK_UINT ? (double)s->v.u : s->v.f;
}

int lt_arange(lt_dtype dt, const lt_scalar *start, const lt_scalar *stop, const lt_scalar *step,
              lt_tensor **out, lt_error *err) {
  if (start->kind == LT_SK_INT && stop->kind == LT_SK_INT && step->kind == LT_SK_INT) {
    int64_t a = start->v.i, b = stop->v.i, st = step->v.i;
    if (st == 0) return lt_fail(err, LT_EARG, "step must be nonzero");
    if (st > 0 ? b < a : b > a)
      return lt_fail(err, LT_EARG, "upper bound and lower bound inconsistent with step sign");
    /* span / step, rounded up, in unsigned arithmetic (the span may exceed int64) */
    uint64_t span = st > 0 ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
    uint64_t ustep = st > 0 ? (uint64_t)st : 0 - (uint64_t)st;
    uint64_t c = span / ustep + (span % ustep != 0);
    if (c > (uint64_t)INT64_MAX) return lt_fail(err, LT_ERANGE, "too many elements");
    return arange_fill(dt, (int64_t)c, 1, a, st, 0, 0, out, err);
  }
  double a = scalar_double(start), b = scalar_double(stop), st = scalar_double(step);
  if (!isfinite(a) || !isfinite(b)) return lt_fail(err, LT_EARG, "start and stop must be finite");
  if (st == 0 || !isfinite(st)) return lt_fail(err, LT_EARG, "step must be finite and nonzero");
  if (st > 0 ? b < a : b > a)
    return lt_fail(err, LT_EARG, "upper bound and lower bound inconsistent with step sign");
  double c = ceil((b - a) / st);
  if (!(c < 0x1p62)) return lt_fail(err, LT_ERANGE, "too many elements");
  return arange_fill(dt, (int64_t)c, 0, 0, 0, a, st, out, err);
}

/* }====== */
