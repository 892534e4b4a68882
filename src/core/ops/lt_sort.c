/*
 * lt_sort.c -- sorting along a dim and what is read off sorted rows (see lt_sort.h). Lua-free.
 *
 * Every operation here works on rows: the input with the dim moved last, made contiguous (no
 * copy when it already is), nrows rows of n elements. A row becomes n (key, position) pairs
 * (lt_order_key, flipped for a descending order) sorted stably: an insertion sort for short
 * rows, else an LSD radix sort on 11-bit digits of keys of the dtype's width (2 passes for 16
 * bits, 3 for 32, 6 for 64; a pass whose digit is the same for every key is skipped), all
 * digit histograms counted in one sweep. Keys of up to 32 bits share one uint64 with their
 * position (one array scattered per pass); 64-bit keys keep a second array. Radix sorting is stable
 * by construction, so equal elements keep their order whatever the direction. The kinds read the
 * sorted pairs off: all of them (sort), the first k (topk), one (kthvalue, median), the longest run
 * (mode). Rows run in parallel over the pool (lt_pool_run), each piece with its own scratch.
 * Results are made in the rows' layout and, when the dim was not the last, copied into tensors of
 * the input's dim order. unique sorts the flattened tensor and reads runs of equal keys;
 * unique along a dim merge-sorts the slices (rows of keys) lexicographically and reads runs of
 * equal rows.
 *
 * Calls lt_copy.c, lt_tensor.c, lt_pool.c. Called by the binding.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_cpu.h"
#include "lt_pool.h"
#include "lt_sort.h"
#include "lt_sort_simd.h"

int lt_check_ordered(const lt_tensor *t, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (!lt_key_bits(t->dtype))
    return lt_fail(err, LT_EARG, "not implemented for %s", lt_dtypes[t->dtype].name);
  return LT_OK;
}

/* {====== sorting one row ====== */

/* Rows shorter than this are insertion sorted. */
#define INSERTION_MAX 48
#define DIGIT 11
#define RADIX (1 << DIGIT)
#define MAX_PASSES ((64 + DIGIT - 1) / DIGIT)

enum { K_SORT, K_TOPK, K_KTH, K_MEDIAN, K_MODE };

typedef struct {
  const char *x;  /* nrows contiguous rows of n elements */
  int64_t n, m;   /* row length; results per row */
  lt_dtype dt;    /* the elements' dtype */
  size_t es;      /* its size */
  int bits, desc; /* key bits; descending order */
  int kind;       /* K_* */
  int64_t k;      /* topk: how many; kthvalue: which (0-based) */
  int64_t base;   /* the first position */
  char *vals;     /* nrows x m results (NULL: none) */
  int64_t *idx;   /* nrows x m positions */
  uint64_t flip;  /* every key bit when descending, else 0 */
  int level;      /* the vector path (lt_cpu_level) */
} rows_ctx;

/* Copies element `from` of row x to element `to` of y (both of c->es bytes). */
static inline void put_elem(size_t es, char *y, int64_t to, const char *x, int64_t from) {
  switch (es) {
    case 1: ((uint8_t *)y)[to] = ((const uint8_t *)x)[from]; break;
    case 2: ((uint16_t *)y)[to] = ((const uint16_t *)x)[from]; break;
    case 4: ((uint32_t *)y)[to] = ((const uint32_t *)x)[from]; break;
    default: ((uint64_t *)y)[to] = ((const uint64_t *)x)[from]; break;
  }
}

/* Reads one result of a sorted row (kthvalue, median, mode) off into row r of the results:
   KEY(j) and POS(j) are the key and the position at sorted place j (sk and si are what they
   read). sort and topk take emit_sorted. */
#define EMIT_FN(NAME, KT, KEY, POS)                                                                \
  static void NAME(const rows_ctx *c, int64_t r, const char *x, const KT *sk,                      \
                   const uint32_t *si) {                                                           \
    const int64_t n = c->n, m = c->m;                                                              \
    char *v = c->vals ? c->vals + r * m * (int64_t)c->es : NULL;                                   \
    int64_t *ix = c->idx + r * m, at = 0;                                                          \
    (void)si;                                                                                      \
    (void)m;                                                                                       \
    switch (c->kind) {                                                                             \
      case K_KTH: at = c->k; break;                                                                \
      case K_MEDIAN:                                                                               \
        at = (n - 1) / 2;                                                                          \
        if (lt_key_is_nan(c->dt, KEY(n - 1))) { /* the first NaN: torch's median propagates */     \
          at = n - 1;                                                                              \
          while (at > 0 && KEY(at - 1) == KEY(n - 1)) at--;                                        \
        }                                                                                          \
        break;                                                                                     \
      default: { /* K_MODE: the longest run of equal keys, the smallest; each NaN a run (torch) */ \
        int64_t best = 0, len = 0;                                                                 \
        for (int64_t j = 0, s = 0; j < n; j++)                                                     \
          if (j + 1 == n || KEY(j + 1) != KEY(j) || lt_key_is_nan(c->dt, KEY(j))) {                \
            if (j + 1 - s > len) len = j + 1 - s, best = j; /* its last occurrence */              \
            s = j + 1;                                                                             \
          }                                                                                        \
        at = best;                                                                                 \
      }                                                                                            \
    }                                                                                              \
    ix[0] = (int64_t)POS(at) + c->base;                                                            \
    if (v) put_elem(c->es, v, 0, x, POS(at));                                                      \
  }

/* Keys of at most 32 bits travel with their positions in one uint64 (key << 32 | position):
   one array to scatter per pass instead of two, and an insertion sort that compares whole
   items is stable by itself. */
#define PK_KEY(j) (sk[j] >> 32)
#define PK_POS(j) ((uint32_t)sk[j])
EMIT_FN(emit_packed, uint64_t, PK_KEY, PK_POS)
/* 64-bit keys: keys and positions in two arrays. */
#define W_KEY(j) (sk[j])
#define W_POS(j) (si[j])
EMIT_FN(emit_wide, uint64_t, W_KEY, W_POS)

/* The keys of row x (n elements), flipped for a descending order: keys of up to 32 bits packed
   with their positions into k, 64-bit keys into k and their positions into ix. One case per
   dtype with an order (complex has none), the dtype a constant in each loop, so that
   lt_order_key's switch folds away. */
#define PK_STORE(i, key) (k[i] = (uint64_t)(key) << 32 | (uint64_t)(i))
#define W_STORE(i, key) (k[i] = (key), ix[i] = (uint32_t)(i))
#define KEY_STORE_8 PK_STORE
#define KEY_STORE_16 PK_STORE
#define KEY_STORE_32 PK_STORE
#define KEY_STORE_64 W_STORE
#define KEY_CASE(E, T, b)                                              \
  case LT_##E:                                                         \
    for (int64_t i = 0; i < n; i++)                                    \
      KEY_STORE_##b(i, lt_order_key(LT_##E, (const T *)x + i) ^ flip); \
    break;
#define KEY_BOOL KEY_CASE
#define KEY_SINT KEY_CASE
#define KEY_UINT KEY_CASE
#define KEY_FLT KEY_CASE
#define KEY_F16 KEY_CASE
#define KEY_BF16 KEY_CASE
#define KEY_CPX(E, T, b)

/* Returns how many elements are -0.0 or NaN (lt_sort_simd.h; 0 for the dtypes it does not
   take, whose values are always read back from x). */
static int64_t load_keys(const rows_ctx *c, const char *x, uint64_t *k, uint32_t *ix) {
  const int64_t n = c->n;
  const uint64_t flip = c->flip;
  if (lt_sort_simd_takes(c->dt))
    return ix ? lt_sort_keys64(c->level, c->dt, x, n, flip, k, ix)
              : lt_sort_pack32(c->level, c->dt, x, n, (uint32_t)flip, k);
  switch (c->dt) {
    LT_DTYPES_BY_CATEGORY(KEY)
    default: break;
  }
  return 0;
}

/* Reads sorted items off into row r of sort's or topk's results (the first c->m): positions,
   and values decoded from the keys (special: load_keys' count) or read back from x. */
static void emit_sorted(const rows_ctx *c, int64_t r, const char *x, const uint64_t *sk,
                        const uint32_t *si, int64_t special) {
  const int64_t m = c->m;
  char *v = c->vals ? c->vals + r * m * (int64_t)c->es : NULL;
  int64_t *ix = c->idx + r * m;
  if (si)
    lt_sort_positions32(c->level, si, m, c->base, ix);
  else
    lt_sort_positions(c->level, sk, m, c->base, ix);
  if (!v) return;
  if (!lt_sort_simd_takes(c->dt))
    for (int64_t j = 0; j < m; j++) put_elem(c->es, v, j, x, si ? si[j] : (uint32_t)sk[j]);
  else if (si)
    lt_sort_values64(c->level, c->dt, sk, si, m, c->flip, special, x, v);
  else
    lt_sort_values32(c->level, c->dt, sk, m, (uint32_t)c->flip, special, x, v);
}

/* One pass of the radix sort: digit at shift of n items from src (and their positions, when
   si is not NULL) to dst, counts h (made offsets here). */
#define SCATTER(src, dst, si, di, shift, h)               \
  do {                                                    \
    uint32_t sum_ = 0;                                    \
    for (int d_ = 0; d_ < RADIX; d_++) {                  \
      uint32_t cnt_ = (h)[d_];                            \
      (h)[d_] = sum_;                                     \
      sum_ += cnt_;                                       \
    }                                                     \
    for (int64_t i_ = 0; i_ < n; i_++) {                  \
      uint64_t v_ = (src)[i_];                            \
      uint32_t o_ = (h)[(v_ >> (shift)) & (RADIX - 1)]++; \
      (dst)[o_] = v_;                                     \
      if (si) (di)[o_] = (si)[i_];                        \
    }                                                     \
  } while (0)

/* Sorts row r: n keys in k (packed with their positions: ix NULL; else positions in ix) of
   c->bits bits from bit lo of each item, tk and tix (NULL with ix) scratch of n, hist MAX_PASSES x
   RADIX counters; reads the result off. Packed items compare whole, so the insertion sort is stable
   either way. */
static void sort_row(const rows_ctx *c, int64_t r, uint64_t *k, uint32_t *ix, uint64_t *tk,
                     uint32_t *tix, uint32_t *hist) {
  const int64_t n = c->n;
  const char *x = c->x + r * n * (int64_t)c->es;
  const int lo = ix ? 0 : 32;
  const int64_t special = load_keys(c, x, k, ix);
  uint64_t *sk = k, *dk = tk;
  uint32_t *si = ix, *di = tix;
  if (!ix && c->level > LT_CPU_SCALAR && n <= LT_SORT_NET_MAX) {
    lt_sort_net(c->level, k, n); /* packed items: a network in vector registers */
  } else if (n < INSERTION_MAX) {
    for (int64_t i = 1; i < n; i++) {
      uint64_t kv = k[i];
      uint32_t iv = ix ? ix[i] : 0;
      int64_t j = i;
      for (; j > 0 && k[j - 1] > kv; j--) {
        k[j] = k[j - 1];
        if (ix) ix[j] = ix[j - 1];
      }
      k[j] = kv;
      if (ix) ix[j] = iv;
    }
  } else {
    const int passes = (c->bits + DIGIT - 1) / DIGIT;
    memset(hist, 0, sizeof(uint32_t) * RADIX * (size_t)passes);
    for (int64_t i = 0; i < n; i++) {
      uint64_t v = k[i] >> lo;
      for (int p = 0; p < passes; p++) hist[p * RADIX + ((v >> (p * DIGIT)) & (RADIX - 1))]++;
    }
    for (int p = 0; p < passes; p++) {
      uint32_t *h = hist + p * RADIX;
      const int shift = lo + p * DIGIT;
      if (h[(sk[0] >> shift) & (RADIX - 1)] == (uint32_t)n) continue; /* one digit: skip */
      SCATTER(sk, dk, si, di, shift, h);
      uint64_t *t1 = sk;
      sk = dk;
      dk = t1;
      uint32_t *t2 = si;
      si = di;
      di = t2;
    }
  }
  if (c->kind == K_SORT || c->kind == K_TOPK)
    emit_sorted(c, r, x, sk, si, special);
  else if (ix)
    emit_wide(c, r, x, sk, si);
  else
    emit_packed(c, r, x, sk, NULL);
}

/* One piece of rows [lo, hi), with scratch of its own. */
static int rows_piece(void *vc, int64_t lo, int64_t hi) {
  const rows_ctx *c = vc;
  const int64_t n = c->n;
  const int wide = c->bits > 32;
  size_t nb = (size_t)n * (wide ? 2 * (8 + sizeof(uint32_t)) : 2 * 8);
  size_t hb = n >= INSERTION_MAX ? sizeof(uint32_t) * RADIX * MAX_PASSES : 0;
  char *mem = malloc(nb + hb + 8);
  if (!mem) return 1;
  uint32_t *hist = (uint32_t *)mem; /* first: the arrays after it stay 8-byte aligned */
  uint64_t *k = (uint64_t *)(mem + hb), *tk = k + n;
  uint32_t *ix = (uint32_t *)(tk + n), *tix = ix + n;
  for (int64_t r = lo; r < hi; r++) {
    sort_row(c, r, k, wide ? ix : NULL, tk, wide ? tix : NULL, hist);
  }
  free(mem);
  return 0;
}

/* }====== */

/* {====== along a dim ====== */

static int is_reduction(int kind) { return kind == K_KTH || kind == K_MEDIAN || kind == K_MODE; }

/* Runs kind along dim of t (not 0-d) into *values (when values is not NULL) and *indices. */
static int along(const lt_tensor *t, int dim, int kind, int desc, int64_t k, int keepdim,
                 int64_t base, lt_tensor **values, lt_tensor **indices, lt_error *err) {
  const int nd = t->ndim, last = nd - 1;
  const int64_t n = t->shape[dim];
  int64_t m = kind == K_SORT ? n : kind == K_TOPK ? k : 1;
  if (n == 0 && is_reduction(kind))
    return lt_fail(err, LT_EARG, "cannot reduce over dim %d of size 0", dim + 1);
  if (n > (int64_t)UINT32_MAX)
    return lt_fail(err, LT_ERANGE, "dim %d of size %lld is too long to sort (at most 2^32 - 1)",
                   dim + 1, (long long)n);
  int perm[LT_MAX_NDIM];
  int64_t mshape[LT_MAX_NDIM], fshape[LT_MAX_NDIM];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != dim) perm[j++] = i;
  perm[last] = dim;
  for (int i = 0; i < nd; i++) {
    mshape[i] = t->shape[perm[i]];
    fshape[i] = t->shape[i];
  }
  mshape[last] = m;
  fshape[dim] = m;
  /* the rows: t with dim moved last, contiguous */
  lt_tensor *moved = NULL, *owned = NULL, *rv = NULL, *ri = NULL;
  const lt_tensor *rows = t;
  int rc = LT_OK;
  if (dim != last && (rc = lt_permute(t, perm, &moved, err))) return rc;
  if ((rc = lt_contiguous_as(moved ? moved : t, t->dtype, &rows, &owned, err))) goto done;
  if ((values && (rc = lt_tensor_new(t->dtype, nd, mshape, 0, &rv, err))) ||
      (rc = lt_tensor_new(LT_INT64, nd, mshape, 0, &ri, err)))
    goto done;
  int64_t nrows = n ? lt_numel(rows) / n : 0;
  if (n && nrows && m) {
    rows_ctx c = {
        lt_data(rows), n,    m, t->dtype, lt_dtypes[t->dtype].size, lt_key_bits(t->dtype),
        desc,          kind, k, base,     rv ? lt_data(rv) : NULL,  (int64_t *)lt_data(ri),
        0,             lt_cpu_level()};
    if (desc) c.flip = c.bits > 32 ? UINT64_MAX : ((uint64_t)1 << c.bits) - 1;
    int64_t grain = lt_pool_grain(nrows, (double)n * (double)(c.es + 8) * 4);
    if (lt_pool_run(nrows, grain, rows_piece, &c) >= 0) {
      rc = lt_fail(err, LT_ENOMEM, "out of memory");
      goto done;
    }
  }
  /* the results in t's dim order */
  lt_tensor **res[2] = {&rv, &ri};
  for (int i = 0; i < 2; i++) {
    lt_tensor *r = *res[i];
    if (!r) continue;
    if (dim != last) {
      lt_tensor *f = NULL, *fv = NULL;
      if ((rc = lt_tensor_new(r->dtype, nd, fshape, 0, &f, err))) goto done;
      if ((rc = lt_permute(f, perm, &fv, err)) || (rc = lt_copy(fv, r, err))) {
        lt_tensor_free(fv);
        lt_tensor_free(f);
        goto done;
      }
      lt_tensor_free(fv);
      lt_tensor_free(r);
      *res[i] = r = f;
    }
    if (is_reduction(kind) && !keepdim) {
      lt_tensor *s = NULL;
      int64_t sh[LT_MAX_NDIM];
      for (int a = 0, b = 0; a < nd; a++)
        if (a != dim) sh[b++] = fshape[a];
      if ((rc = lt_view(r, nd - 1, sh, &s, err))) goto done;
      lt_tensor_free(r);
      *res[i] = s;
    }
  }
done:
  lt_tensor_free(moved);
  lt_tensor_free(owned);
  if (rc) {
    lt_tensor_free(rv);
    lt_tensor_free(ri);
    return rc;
  }
  if (values) *values = rv;
  if (indices)
    *indices = ri;
  else
    lt_tensor_free(ri);
  return LT_OK;
}

/* Checks t and dim, and runs kind along it; a 0-d tensor as one element of dim 0, its results
   0-d. */
static int run_kind(const lt_tensor *t, int dim, int kind, int desc, int64_t k, int keepdim,
                    int64_t base, lt_tensor **values, lt_tensor **indices, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc) return rc;
  if (t->ndim > 0) {
    if ((rc = lt_check_dim(t, dim, err))) return rc;
    return along(t, dim, kind, desc, k, keepdim, base, values, indices, err);
  }
  if (dim != 0) return lt_dim_error(err, dim, 1);
  lt_frame f;
  lt_tensor *one = lt_frame_of(&f, t), *v = NULL, *ix = NULL, *v0 = NULL, *ix0 = NULL;
  one->ndim = 1;
  one->shape[0] = 1;
  one->strides[0] = 1;
  rc = along(one, 0, kind, desc, k, 1, base, values ? &v : NULL, &ix, err);
  if (rc) return rc;
  int flat = lt_numel(ix) == 1; /* a 0-d result; topk with k = 0 keeps its empty dim */
  if (flat && ((values && (rc = lt_view(v, 0, NULL, &v0, err))) ||
               (rc = lt_view(ix, 0, NULL, &ix0, err)))) {
    lt_tensor_free(v0);
    lt_tensor_free(v);
    lt_tensor_free(ix);
    return rc;
  }
  if (flat) {
    lt_tensor_free(v);
    lt_tensor_free(ix);
    v = v0;
    ix = ix0;
  }
  if (values) *values = v;
  if (indices)
    *indices = ix;
  else
    lt_tensor_free(ix);
  return LT_OK;
}

/* The size of dim (0-based, checked) of t, a 0-d tensor's dim 0 being 1. */
static int64_t dim_size(const lt_tensor *t, int dim) {
  return t->ndim == 0 ? 1 : dim >= 0 && dim < t->ndim ? t->shape[dim] : 0;
}

/* t ordered, dim one of its dims (any for 0-d), k from lo to the dim's size. */
static int check_k(const lt_tensor *t, int dim, int64_t k, int64_t lo, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc || (t->ndim && (rc = lt_check_dim(t, dim, err)))) return rc;
  int64_t n = dim_size(t, dim);
  if (k < lo || k > n)
    return lt_fail(err, LT_ERANGE, "k %lld out of range (expected %lld to %lld)", (long long)k,
                   (long long)lo, (long long)n);
  return LT_OK;
}

int lt_sort(const lt_tensor *t, int dim, int descending, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err) {
  return run_kind(t, dim, K_SORT, descending, 0, 0, base, values, indices, err);
}

int lt_topk(const lt_tensor *t, int64_t k, int dim, int largest, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err) {
  int rc = check_k(t, dim, k, 0, err);
  if (rc) return rc;
  return run_kind(t, dim, K_TOPK, largest, k, 0, base, values, indices, err);
}

int lt_kthvalue(const lt_tensor *t, int64_t k, int dim, int keepdim, int64_t base,
                lt_tensor **values, lt_tensor **indices, lt_error *err) {
  int rc = check_k(t, dim, k, 1, err);
  if (rc) return rc;
  return run_kind(t, dim, K_KTH, 0, k - 1, keepdim, base, values, indices, err);
}

int lt_median(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
              lt_tensor **indices, lt_error *err) {
  if (dim >= 0) return run_kind(t, dim, K_MEDIAN, 0, 0, keepdim, base, values, indices, err);
  int rc = lt_check_ordered(t, err);
  if (rc) return rc;
  if (lt_numel(t) == 0) { /* torch: NaN for floating dtypes */
    if (!lt_dtypes[t->dtype].is_float) return lt_fail(err, LT_EARG, "median of an empty tensor");
    lt_scalar nan = {LT_SK_FLOAT, {.f = NAN}, 0};
    lt_tensor *r = NULL;
    if ((rc = lt_tensor_new(t->dtype, 0, NULL, 0, &r, err)) || (rc = lt_fill(r, &nan, err))) {
      lt_tensor_free(r);
      return rc;
    }
    *values = r;
    if (indices) *indices = NULL;
    return LT_OK;
  }
  lt_tensor *flat = NULL;
  int64_t n = lt_numel(t);
  if ((rc = lt_reshape(t, 1, &n, &flat, NULL, err))) return rc;
  rc = run_kind(flat, 0, K_MEDIAN, 0, 0, 0, base, values, NULL, err);
  lt_tensor_free(flat);
  if (indices) *indices = NULL;
  return rc;
}

int lt_mode(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err) {
  return run_kind(t, dim, K_MODE, 0, 0, keepdim, base, values, indices, err);
}

/* }====== */

/* The end of both uniques: on success hands out the values and the inverse and counts asked
   for; on failure (rc != 0) frees all three. Returns rc. */
static int unique_finish(int rc, lt_tensor *u, lt_tensor *inv, lt_tensor *cnt, lt_tensor **out,
                         lt_tensor **inverse, lt_tensor **counts) {
  if (rc) {
    lt_tensor_free(u);
    lt_tensor_free(inv);
    lt_tensor_free(cnt);
    return rc;
  }
  *out = u;
  if (inverse) *inverse = inv;
  if (counts) *counts = cnt;
  return LT_OK;
}

/* {====== unique ====== */

int lt_unique(const lt_tensor *t, int64_t base, lt_tensor **out, lt_tensor **inverse,
              lt_tensor **counts, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc) return rc;
  int64_t n = lt_numel(t), nu = 0;
  lt_tensor *flat = NULL, *sv = NULL, *si = NULL, *u = NULL, *inv = NULL, *cnt = NULL;
  if ((rc = lt_reshape(t, 1, &n, &flat, NULL, err)) || (rc = lt_sort(flat, 0, 0, 0, &sv, &si, err)))
    goto done;
  const char *v = lt_data(sv);
  const int64_t *pos = (const int64_t *)lt_data(si);
  const size_t es = lt_dtypes[t->dtype].size;
  for (int64_t i = 0; i < n; i++)
    nu += i == 0 || lt_order_key(t->dtype, v + i * es) != lt_order_key(t->dtype, v + (i - 1) * es);
  if ((rc = lt_tensor_new(t->dtype, 1, &nu, 0, &u, err)) ||
      (counts && (rc = lt_tensor_new(LT_INT64, 1, &nu, 0, &cnt, err))) ||
      (inverse && (rc = lt_tensor_new(LT_INT64, t->ndim, t->shape, 0, &inv, err))))
    goto done;
  char *uo = lt_data(u);
  int64_t *co = cnt ? (int64_t *)lt_data(cnt) : NULL, *io = inv ? (int64_t *)lt_data(inv) : NULL;
  for (int64_t i = 0, j = -1; i < n; i++) {
    if (i == 0 || lt_order_key(t->dtype, v + i * es) != lt_order_key(t->dtype, v + (i - 1) * es)) {
      j++;
      memcpy(uo + j * (int64_t)es, v + i * (int64_t)es, es);
      if (co) co[j] = 0;
    }
    if (co) co[j]++;
    if (io) io[pos[i]] = j + base;
  }
done:
  lt_tensor_free(flat);
  lt_tensor_free(sv);
  lt_tensor_free(si);
  return unique_finish(rc, u, inv, cnt, out, inverse, counts);
}

/* }====== */

/* {====== unique along a dim ====== */

typedef struct {
  const uint64_t *keys; /* n rows of m keys */
  int64_t m;
} rows_order;

/* Row a before row b: lexicographic by key, then by position (a stable order). */
static int row_less(const rows_order *o, int64_t a, int64_t b) {
  const uint64_t *x = o->keys + a * o->m, *y = o->keys + b * o->m;
  for (int64_t j = 0; j < o->m; j++)
    if (x[j] != y[j]) return x[j] < y[j];
  return a < b;
}

/* Sorts the positions p[0..n) by row_less (a bottom-up merge sort, tmp scratch of n). */
static void sort_rows(const rows_order *o, int64_t *p, int64_t *tmp, int64_t n) {
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = row_less(o, p[j], p[i]) ? p[j++] : p[i++];
      while (i < mid) tmp[k++] = p[i++];
      while (j < hi) tmp[k++] = p[j++];
    }
    memcpy(p, tmp, (size_t)n * sizeof *p);
  }
}

int lt_unique_dim(const lt_tensor *t, int dim, int64_t base, lt_tensor **out, lt_tensor **inverse,
                  lt_tensor **counts, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc || (rc = lt_check_dim(t, dim, err))) return rc;
  const int nd = t->ndim;
  const int64_t n = t->shape[dim], m = n ? lt_numel(t) / n : 0;
  const size_t es = lt_dtypes[t->dtype].size;
  int perm[LT_MAX_NDIM];
  perm[0] = dim;
  for (int i = 0, j = 1; i < nd; i++)
    if (i != dim) perm[j++] = i;
  lt_tensor *moved = NULL, *owned = NULL, *r = NULL, *f = NULL, *fv = NULL, *inv = NULL,
            *cnt = NULL;
  const lt_tensor *rows = NULL;
  uint64_t *keys = NULL;
  int64_t *p = NULL, *grp = NULL, nu = 0;
  if ((rc = lt_permute(t, perm, &moved, err)) ||
      (rc = lt_contiguous_as(moved, t->dtype, &rows, &owned, err)))
    goto done;
  int64_t kb, pb; /* the bytes of keys and p: n x m elements of any dtype, 8 bytes a key */
  if ((rc = lt_size_mul(n * m + 1, (int64_t)sizeof *keys, &kb, err)) ||
      (rc = lt_size_mul(2 * n + 1, (int64_t)sizeof *p, &pb, err)))
    goto done;
  keys = malloc((size_t)kb);
  p = malloc((size_t)pb);
  grp = malloc((size_t)(n + 1) * sizeof *grp);
  if (!keys || !p || !grp) {
    rc = lt_fail(err, LT_ENOMEM, "out of memory");
    goto done;
  }
  const char *x = lt_data(rows);
  for (int64_t i = 0; i < n * m; i++) keys[i] = lt_order_key(t->dtype, x + i * (int64_t)es);
  for (int64_t i = 0; i < n; i++) p[i] = i;
  rows_order o = {keys, m};
  sort_rows(&o, p, p + n, n);
  for (int64_t i = 0; i < n; i++) { /* grp[i]: the distinct row of sorted place i */
    if (i > 0 && memcmp(keys + p[i] * m, keys + p[i - 1] * m, (size_t)m * sizeof *keys)) nu++;
    if (i == 0) nu = 1;
    grp[i] = nu - 1;
  }
  int64_t shape[LT_MAX_NDIM], fshape[LT_MAX_NDIM];
  for (int i = 0; i < nd; i++) {
    shape[i] = moved->shape[i];
    fshape[i] = t->shape[i];
  }
  shape[0] = fshape[dim] = nu;
  if ((rc = lt_tensor_new(t->dtype, nd, shape, 0, &r, err)) ||
      (inverse && (rc = lt_tensor_new(LT_INT64, 1, &n, 0, &inv, err))) ||
      (counts && (rc = lt_tensor_new(LT_INT64, 1, &nu, 1, &cnt, err))))
    goto done;
  char *ro = lt_data(r);
  for (int64_t i = 0; i < n; i++) {
    if (i == 0 || grp[i] != grp[i - 1])
      memcpy(ro + grp[i] * m * (int64_t)es, x + p[i] * m * (int64_t)es, (size_t)m * es);
    if (inv) ((int64_t *)lt_data(inv))[p[i]] = grp[i] + base;
    if (cnt) ((int64_t *)lt_data(cnt))[grp[i]]++;
  }
  if ((rc = lt_tensor_new(t->dtype, nd, fshape, 0, &f, err)) ||
      (rc = lt_permute(f, perm, &fv, err)) || (rc = lt_copy(fv, r, err)))
    goto done;
done:
  free(keys);
  free(p);
  free(grp);
  lt_tensor_free(moved);
  lt_tensor_free(owned);
  lt_tensor_free(r);
  lt_tensor_free(fv);
  return unique_finish(rc, f, inv, cnt, out, inverse, counts);
}

/* }====== */
