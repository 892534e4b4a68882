/*
 * lt_iter.c -- the shared strided loop, broadcasting and the overlap tests (see lt_iter.h).
 */
#include "lt_iter.h"

#include <stdlib.h>
#include <string.h>

#include "lt_pool.h"

void lt_iter_init(lt_iter *it, int nops, lt_tensor *const *ops) {
  const lt_tensor *o = ops[0];
  int n = 0;
  it->nops = nops;
  for (int d = 0; d < o->ndim; d++) {
    if (o->shape[d] == 1) continue;
    it->shape[n] = o->shape[d];
    for (int k = 0; k < nops; k++) it->st[k][n] = ops[k]->strides[d] * (int64_t)lt_esize(ops[k]);
    n++;
  }
  /* insertion sort, stable: |stride of operand 0| descending */
  for (int i = 1; i < n; i++) {
    int64_t sh = it->shape[i], st[LT_ITER_MAXOPS];
    for (int k = 0; k < nops; k++) st[k] = it->st[k][i];
    int j = i - 1;
    while (j >= 0 && llabs(it->st[0][j]) < llabs(st[0])) {
      it->shape[j + 1] = it->shape[j];
      for (int k = 0; k < nops; k++) it->st[k][j + 1] = it->st[k][j];
      j--;
    }
    it->shape[j + 1] = sh;
    for (int k = 0; k < nops; k++) it->st[k][j + 1] = st[k];
  }
  /* merge dim i into the one outside it when every operand steps exactly over all of i */
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m > 0) {
      int mergeable = 1;
      for (int k = 0; k < nops && mergeable; k++)
        mergeable = (uint64_t)it->st[k][m - 1] == (uint64_t)it->st[k][i] * (uint64_t)it->shape[i];
      if (mergeable) {
        it->shape[m - 1] *= it->shape[i];
        for (int k = 0; k < nops; k++) it->st[k][m - 1] = it->st[k][i];
        continue;
      }
    }
    it->shape[m] = it->shape[i];
    for (int k = 0; k < nops; k++) it->st[k][m] = it->st[k][i];
    m++;
  }
  it->ndim = m;
}

int64_t lt_iter_numel(const lt_iter *it) {
  int64_t n = 1;
  for (int d = 0; d < it->ndim; d++) n *= it->shape[d];
  return n;
}

int lt_iter_range(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx, int64_t lo,
                  int64_t hi) {
  char *p[LT_ITER_MAXOPS];
  int64_t st[LT_ITER_MAXOPS] = {0};
  if (lo >= hi) return 0;
  memcpy(p, base, (size_t)it->nops * sizeof(char *));
  if (it->ndim == 0) return run(ctx, p, st, 1);
  int last = it->ndim - 1;
  int64_t idx[LT_MAX_NDIM], rem = lo, len = it->shape[last];
  for (int d = last; d >= 0; d--) { /* lo as a position */
    idx[d] = rem % it->shape[d];
    rem /= it->shape[d];
    for (int k = 0; k < it->nops; k++) p[k] += idx[d] * it->st[k][d];
  }
  for (int k = 0; k < it->nops; k++) st[k] = it->st[k][last];
  for (int64_t left = hi - lo;;) {
    int64_t n = len - idx[last] < left ? len - idx[last] : left;
    int rc = run(ctx, p, st, n);
    if (rc || (left -= n) == 0) return rc;
    for (int k = 0; k < it->nops; k++) p[k] -= idx[last] * st[k]; /* back to the run's start */
    idx[last] = 0;
    int d = last - 1;
    for (; d >= 0; d--) {
      for (int k = 0; k < it->nops; k++) p[k] += it->st[k][d];
      if (++idx[d] < it->shape[d]) break;
      for (int k = 0; k < it->nops; k++) p[k] -= it->st[k][d] * it->shape[d];
      idx[d] = 0;
    }
    if (d < 0) return 0;
  }
}

int lt_iter_run(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx) {
  int64_t total = 1;
  for (int d = 0; d < it->ndim; d++) total *= it->shape[d];
  return lt_iter_range(it, base, run, ctx, 0, total);
}

typedef struct {
  const lt_iter *it;
  char *const *base;
  lt_run_fn run;
  void *ctx;
} par_job;

static int par_piece(void *ctx, int64_t lo, int64_t hi) {
  const par_job *j = ctx;
  return lt_iter_range(j->it, j->base, j->run, j->ctx, lo, hi);
}

int lt_iter_run_par(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx,
                    double elem_bytes) {
  int64_t n = lt_iter_numel(it), grain = lt_pool_grain(n, elem_bytes);
  if (grain >= n) return lt_iter_run(it, base, run, ctx);
  par_job j = {it, base, run, ctx};
  return lt_pool_run(n, grain, par_piece, &j) >= 0;
}

/* {====== broadcasting ====== */

int lt_broadcast_join(int *nd, int64_t *acc, int ndim, const int64_t *shape) {
  if (ndim > *nd) { /* new leading dims of size 1 */
    int grow = ndim - *nd;
    memmove(acc + grow, acc, (size_t)*nd * sizeof(int64_t));
    for (int d = 0; d < grow; d++) acc[d] = 1;
    *nd = ndim;
  }
  for (int d = 0; d < ndim; d++) {
    int64_t have = shape[d], *want = &acc[*nd - ndim + d];
    if (have == *want || have == 1) continue;
    if (*want != 1) return ndim - d;
    *want = have;
  }
  return 0;
}

int lt_broadcast_shape(int n, const lt_tensor *const *ts, int *ndim, int64_t *shape,
                       lt_error *err) {
  int nd = 0;
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ts[i];
    if (!t) continue;
    int pos = lt_broadcast_join(&nd, shape, t->ndim, t->shape);
    if (pos)
      return lt_fail(err, LT_EARG,
                     "shapes do not broadcast (size %lld against %lld at dim %d from the end)",
                     (long long)t->shape[t->ndim - pos], (long long)shape[nd - pos], pos);
  }
  *ndim = nd;
  return LT_OK;
}

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

/* }====== */

/* {====== overlap ====== */

int lt_check_no_internal_overlap(const lt_tensor *t, lt_error *err) {
  for (int i = 0; i < t->ndim; i++)
    if (t->strides[i] == 0 && t->shape[i] > 1)
      return lt_fail(err, LT_EARG,
                     "unsupported operation: more than one element of the written-to tensor "
                     "refers to a single memory location (expanded dim %d); clone it first",
                     i + 1);
  return LT_OK;
}

void lt_byte_extent(const lt_tensor *t, const char **lo, const char **hi) {
  int64_t es = (int64_t)lt_esize(t), a = 0, b = 0;
  for (int i = 0; i < t->ndim; i++) {
    int64_t span = (t->shape[i] - 1) * t->strides[i] * es;
    if (span < 0)
      a += span;
    else
      b += span;
  }
  *lo = lt_data(t) + a;
  *hi = lt_data(t) + b + es;
}

int lt_may_overlap(const lt_tensor *x, const lt_tensor *y) {
  if (lt_numel(x) == 0 || lt_numel(y) == 0) return 0;
  const char *xl, *xh, *yl, *yh;
  lt_byte_extent(x, &xl, &xh);
  lt_byte_extent(y, &yl, &yh);
  return xl < yh && yl < xh;
}

int lt_same_view(const lt_tensor *x, const lt_tensor *y) {
  /* shape and strides through their pointers: a frame keeps its strides apart from dims */
  size_t nb = (size_t)x->ndim * sizeof(int64_t);
  return x->storage->data == y->storage->data && x->offset == y->offset && x->dtype == y->dtype &&
         x->ndim == y->ndim && memcmp(x->shape, y->shape, nb) == 0 &&
         memcmp(x->strides, y->strides, nb) == 0;
}

int lt_partial_overlap(const lt_tensor *x, const lt_tensor *y) {
  return lt_shares_block(x, y) && !lt_same_view(x, y);
}

/* }====== */
