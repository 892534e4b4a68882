/*
 * lt_unique.c -- unique and unique along a dim (declared in lt_sort.h). Lua-free.
 *
 * unique sorts the flattened tensor (lt_sort) and reads runs of equal order keys; unique along a
 * dim merge-sorts the slices (rows of keys) lexicographically and reads runs of equal rows.
 *
 * Calls lt_sort.c (lt_sort, lt_check_ordered), lt_copy.c, lt_tensor.c. Called by the binding.
 */
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_sort.h"

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
