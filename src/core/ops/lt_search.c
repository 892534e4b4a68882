/*
 * lt_search.c -- isin, bucketize and unique_consecutive (see lt_search.h).
 *
 * isin reads the test elements' order keys once: up to ISIN_LINEAR of them are scanned for each
 * element, more are sorted and searched by bisection (n log m instead of n m); NaN keys are
 * left out of the set and a NaN element is in no set. The elements are cut into pieces for
 * the pool. bucketize is searchsorted with its operands swapped and its boundaries checked.
 * unique_consecutive walks the contiguous data once to count the runs and once to copy their
 * first elements (slices along a dim: the data read as outer x size x inner blocks).
 */
#include "lt_search.h"

#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_elementwise.h"
#include "lt_pool.h"
#include "lt_scan.h"
#include "lt_sort.h"

/* {====== isin ====== */

/* Test sets up to this size are scanned, larger ones sorted and bisected. */
#ifndef ISIN_LINEAR
#define ISIN_LINEAR 16
#endif

typedef struct {
  lt_dtype dt;
  const char *x; /* the elements, contiguous */
  size_t es;
  const uint64_t *keys; /* the test set's keys (sorted when more than ISIN_LINEAR) */
  int64_t nk;
  uint8_t *o;
  int invert;
} isin_ctx;

static int in_keys(const isin_ctx *c, uint64_t k) {
  if (c->nk <= ISIN_LINEAR) {
    for (int64_t i = 0; i < c->nk; i++)
      if (c->keys[i] == k) return 1;
    return 0;
  }
  int64_t lo = 0, hi = c->nk; /* the first key >= k is in [lo, hi] */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (c->keys[mid] < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < c->nk && c->keys[lo] == k;
}

static int isin_piece(void *vc, int64_t lo, int64_t hi) {
  const isin_ctx *c = vc;
  for (int64_t i = lo; i < hi; i++) {
    uint64_t k = lt_order_key(c->dt, c->x + (size_t)i * c->es);
    int in = !lt_key_is_nan(c->dt, k) && in_keys(c, k);
    c->o[i] = (uint8_t)(in != c->invert);
  }
  return 0;
}

static int cmp_key(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* The keys of the n elements of x (contiguous, dt) but NaNs', sorted when more than
   ISIN_LINEAR, into a new array *keys (free it) of *nk. */
static int test_keys(lt_dtype dt, const char *x, int64_t n, uint64_t **keys, int64_t *nk,
                     lt_error *err) {
  size_t es = lt_dtypes[dt].size;
  if ((uint64_t)n > SIZE_MAX / sizeof(uint64_t) - 1)
    return lt_fail(err, LT_ERANGE, "too many test elements (%lld)", (long long)n);
  *keys = malloc((size_t)(n + 1) * sizeof(uint64_t));
  if (!*keys) return lt_fail_nomem(err, (size_t)n * sizeof(uint64_t));
  *nk = 0;
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = lt_order_key(dt, x + (size_t)i * es);
    if (!lt_key_is_nan(dt, k)) (*keys)[(*nk)++] = k;
  }
  if (*nk > ISIN_LINEAR) qsort(*keys, (size_t)*nk, sizeof(uint64_t), cmp_key);
  return LT_OK;
}

int lt_isin(const lt_operand *elements, const lt_operand *test, int invert, lt_tensor **out,
            lt_error *err) {
  if (!elements->t && !test->t)
    return lt_fail(err, LT_EARG, "elements or test_elements must be a tensor");
  const lt_operand *ops[2] = {elements, test};
  int rc;
  for (int i = 0; i < 2; i++)
    if (ops[i]->t && (rc = lt_check_ordered(ops[i]->t, err))) return rc;
  lt_dtype dt = lt_result_type(2, ops);
  const lt_tensor *e0 = NULL, *t0 = NULL, *e = NULL, *t = NULL;
  lt_tensor *oe0 = NULL, *ot0 = NULL, *oe = NULL, *ot = NULL, *r = NULL;
  uint64_t *keys = NULL;
  int64_t nk = 0;
  if ((rc = lt_operand_as(elements, dt, &e0, &oe0, err)) ||
      (rc = lt_operand_as(test, dt, &t0, &ot0, err)) ||
      (rc = lt_contiguous_as(e0, dt, &e, &oe, err)) ||
      (rc = lt_contiguous_as(t0, dt, &t, &ot, err)) ||
      (rc = test_keys(dt, lt_data(t), lt_numel(t), &keys, &nk, err)) ||
      (rc = lt_tensor_new(LT_BOOL, e->ndim, e->shape, 0, &r, err)))
    goto done;
  isin_ctx c = {dt, lt_data(e), lt_dtypes[dt].size, keys, nk, (uint8_t *)lt_data(r), invert != 0};
  int64_t n = lt_numel(e);
  if (n > 0)
    lt_pool_run(n, lt_pool_grain(n, 8.0 * (nk > ISIN_LINEAR ? 16 : (double)nk + 1)), isin_piece,
                &c);
done:
  free(keys);
  lt_tensor_free(oe0);
  lt_tensor_free(ot0);
  lt_tensor_free(oe);
  lt_tensor_free(ot);
  return lt_give(rc, r, out);
}

/* }====== */

/* {====== bucketize ====== */

int lt_bucketize(const lt_operand *input, const lt_tensor *boundaries, int right, int out_int32,
                 int64_t base, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(boundaries, err);
  if (rc) return rc;
  if (boundaries->ndim != 1)
    return lt_fail(err, LT_EARG, "boundaries must be 1-d, got %d dims", boundaries->ndim);
  const lt_tensor *x;
  lt_tensor *owned = NULL;
  lt_dtype dt = input->t ? input->t->dtype : lt_result_type(1, &input);
  if ((rc = lt_operand_as(input, dt, &x, &owned, err))) return rc;
  rc = lt_searchsorted(boundaries, x, right, out_int32, base, out, err);
  lt_tensor_free(owned);
  return rc;
}

/* }====== */

/* {====== unique_consecutive ====== */

/* Whether elements a and b (of dt) are equal, as == says (a NaN equals nothing). */
static int same(lt_dtype dt, const char *a, const char *b) {
  uint64_t ka = lt_order_key(dt, a);
  return ka == lt_order_key(dt, b) && !lt_key_is_nan(dt, ka);
}

/* Whether slices s and s - 1 of x (outer x n x inner elements of size es) are equal. */
static int same_slice(lt_dtype dt, const char *x, int64_t outer, int64_t n, int64_t inner,
                      int64_t s) {
  size_t es = lt_dtypes[dt].size;
  for (int64_t o = 0; o < outer; o++) {
    const char *a = x + (size_t)((o * n + s) * inner) * es, *b = a - (size_t)inner * es;
    for (int64_t k = 0; k < inner; k++)
      if (!same(dt, a + (size_t)k * es, b + (size_t)k * es)) return 0;
  }
  return 1;
}

int lt_unique_consecutive(const lt_tensor *t, int dim, int64_t base, lt_tensor **out,
                          lt_tensor **inverse, lt_tensor **counts, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc || (dim >= 0 && (rc = lt_check_dim(t, dim, err)))) return rc;
  int64_t outer = 1, inner = 1, n = dim >= 0 ? t->shape[dim] : lt_numel(t), nu = 0;
  for (int d = 0; dim >= 0 && d < t->ndim; d++)
    if (d != dim) *(d < dim ? &outer : &inner) *= t->shape[d];
  if (dim >= 0 && n > 0 && outer * inner == 0) /* as torch: no slices to compare */
    return lt_fail(err, LT_EARG, "dims of size 0 other than dim %d leave nothing to compare",
                   dim + 1);
  const lt_tensor *x;
  lt_tensor *ox = NULL, *u = NULL, *inv = NULL, *cnt = NULL;
  if ((rc = lt_contiguous_as(t, t->dtype, &x, &ox, err))) goto done;
  const char *xd = lt_data(x);
  const lt_dtype dt = t->dtype;
  const size_t es = lt_dtypes[dt].size;
  for (int64_t s = 0; s < n; s++) nu += s == 0 || !same_slice(dt, xd, outer, n, inner, s);
  int64_t ushape[LT_MAX_NDIM];
  memcpy(ushape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
  if (dim >= 0) ushape[dim] = nu;
  if ((rc = lt_tensor_new(dt, dim >= 0 ? t->ndim : 1, dim >= 0 ? ushape : &nu, 0, &u, err)) ||
      (counts && (rc = lt_tensor_new(LT_INT64, 1, &nu, 0, &cnt, err))) ||
      (inverse && (rc = lt_tensor_new(LT_INT64, dim >= 0 ? 1 : t->ndim, dim >= 0 ? &n : t->shape, 0,
                                      &inv, err))))
    goto done;
  char *uo = lt_data(u);
  int64_t *co = cnt ? (int64_t *)lt_data(cnt) : NULL, *io = inv ? (int64_t *)lt_data(inv) : NULL;
  for (int64_t s = 0, j = -1; s < n; s++) {
    if (s == 0 || !same_slice(dt, xd, outer, n, inner, s)) {
      j++;
      for (int64_t o = 0; o < outer; o++)
        memcpy(uo + (size_t)((o * nu + j) * inner) * es, xd + (size_t)((o * n + s) * inner) * es,
               (size_t)inner * es);
      if (co) co[j] = 0;
    }
    if (co) co[j]++;
    if (io) io[s] = j + base;
  }
done:
  lt_tensor_free(ox);
  if (!rc && inverse) *inverse = inv, inv = NULL; /* handed out: not freed below */
  if (!rc && counts) *counts = cnt, cnt = NULL;
  lt_tensor_free(inv);
  lt_tensor_free(cnt);
  return lt_give(rc, u, out);
}

/* }====== */
