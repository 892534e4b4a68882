/*
 * lt_iter.c -- the shared strided loop.
 */
#include "lt_iter.h"

#include <stdlib.h>
#include <string.h>

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

int lt_iter_run(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx) {
  char *p[LT_ITER_MAXOPS];
  int64_t st[LT_ITER_MAXOPS] = {0};
  memcpy(p, base, (size_t)it->nops * sizeof(char *));
  if (it->ndim == 0) return run(ctx, p, st, 1);
  int last = it->ndim - 1;
  for (int k = 0; k < it->nops; k++) st[k] = it->st[k][last];
  int64_t idx[LT_MAX_NDIM] = {0};
  for (;;) {
    int rc = run(ctx, p, st, it->shape[last]);
    if (rc) return rc;
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
