/*
 * lt_linalg_lu.c -- the LU family of lt.linalg: lu_factor (and _ex), lu (P, L, U) and lu_solve
 * (see lt_linalg_solve.h, which declares them with the helpers shared with lt_linalg_solve.c).
 *
 * The LU of A is not the LU of its transpose, so here the matrices go to getrf column-major
 * (lt_lapack_fortran's copy) and the packed factors come back row-major (one more copy): lu_solve
 * reads them column-major again. Pivots are LAPACK's, already 1-based as torch's are.
 */
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_lapack.h"
#include "lt_linalg_decomp.h"
#include "lt_linalg_solve.h"
#include "lt_shape.h"

/* {====== lu_factor ====== */

/* A new zeroed int32 tensor of a's batch shape then one last dim of size last. */
static int pivots_new(const lt_tensor *a, int64_t last, lt_tensor **out, lt_error *err) {
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, a->shape, (size_t)(a->ndim - 2) * sizeof shape[0]);
  shape[a->ndim - 2] = last;
  return lt_tensor_new(LT_INT32, a->ndim - 1, shape, 1, out, err);
}

/* The factors of every matrix of a: *lu (row-major), *piv, *info (LAPACK's getrf info). */
static int factor(const lt_tensor *a, int pivot, const char *fname, lt_tensor **lu, lt_tensor **piv,
                  lt_tensor **info, lt_error *err) {
  lt_dtype dt;
  int rc = lt_la_check(a, fname, "A", 0, &dt, err);
  if (rc) return rc;
  if (!pivot)
    return lt_fail(err, LT_EARG, "%s: LU without pivoting is not implemented on the CPU", fname);
  if ((rc = lt_lapack_ready(fname, err))) return rc;
  int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
  lt_tensor *f = NULL;
  *piv = *info = NULL;
  rc = lt_lapack_fortran(a, dt, &f, err);
  if (!rc) rc = pivots_new(a, k, piv, err);
  if (!rc) rc = lt_la_batch_new(a, 2, LT_INT32, info, err);
  int64_t nb = rc ? 0 : lt_numel(*info);
  if (!rc && k > 0 && nb > 0 && !(rc = lt_la_begin(fname, err))) {
    size_t es = lt_esize(f);
    int32_t *p = (int32_t *)lt_data(*info), *ip = (int32_t *)lt_data(*piv);
    for (int64_t i = 0; i < nb; i++)
      p[i] = lt_lapack_getrf(dt, (int)m, (int)n, lt_data(f) + (size_t)(i * m * n) * es, (int)m,
                             ip + i * k);
    lt_lapack_leave();
  }
  if (!rc) rc = lt_clone(f, lu, err);
  lt_tensor_free(f);
  if (rc) lt_tensor_free(*piv), lt_tensor_free(*info), *piv = *info = NULL;
  return lt_linalg_named(err, rc, fname);
}

int lt_linalg_lu_factor(const lt_tensor *a, int pivot, int check, lt_tensor **lu, lt_tensor **piv,
                        lt_tensor **info, lt_error *err) {
  const char *fname = "linalg.lu_factor";
  lt_tensor *l = NULL, *p = NULL, *inf = NULL;
  int rc = factor(a, pivot, fname, &l, &p, &inf, err), v = 0;
  int64_t k = rc || !check ? -1 : lt_la_first_fail(inf, &v);
  if (k >= 0)
    rc = lt_lapack_fail_at(err, fname, inf->ndim > 0, k,
                           "U[%d,%d] is zero and using it on lu_solve would result in a division "
                           "by zero. If you still want to perform the factorization, consider "
                           "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
                           v, v);
  if (rc) {
    lt_tensor_free(l), lt_tensor_free(p), lt_tensor_free(inf);
    return rc;
  }
  *lu = l, *piv = p;
  if (info)
    *info = inf;
  else
    lt_tensor_free(inf);
  return LT_OK;
}

/* }====== */

/* {====== lu ====== */

/* P of each matrix from its pivots: row perm[j] of column j is 1 (A = P L U). */
static int permutations(const lt_tensor *piv, int64_t m, lt_tensor *p, lt_error *err) {
  int64_t k = piv->shape[piv->ndim - 1], nb = lt_numel(p) / (m * m);
  int64_t *perm = malloc((size_t)m * sizeof *perm);
  if (!perm) return lt_fail_nomem(err, (size_t)m * sizeof *perm);
  const int32_t *ip = (const int32_t *)lt_data(piv);
  size_t es = lt_esize(p);
  for (int64_t b = 0; b < nb; b++) {
    for (int64_t j = 0; j < m; j++) perm[j] = j;
    for (int64_t j = 0; j < k; j++) { /* the swaps getrf made, in order */
      int64_t s = ip[b * k + j] - 1, t = perm[j];
      perm[j] = perm[s], perm[s] = t;
    }
    char *base = lt_data(p) + (size_t)(b * m * m) * es;
    for (int64_t j = 0; j < m; j++)
      lt_la_store(p->dtype, base + (size_t)(perm[j] * m + j) * es, 1, 0);
  }
  free(perm);
  return LT_OK;
}

int lt_linalg_lu(const lt_tensor *a, int pivot, lt_tensor **p, lt_tensor **l, lt_tensor **u,
                 lt_error *err) {
  lt_tensor *lu = NULL, *piv = NULL, *inf = NULL, *lv = NULL, *uv = NULL, *d = NULL;
  lt_tensor *pm = NULL, *lm = NULL, *um = NULL;
  int rc = factor(a, pivot, "linalg.lu", &lu, &piv, &inf, err);
  if (rc) return rc;
  int nd = a->ndim;
  int64_t m = a->shape[nd - 2], n = a->shape[nd - 1], k = m < n ? m : n, shape[LT_MAX_NDIM];
  memcpy(shape, a->shape, (size_t)nd * sizeof shape[0]);
  shape[nd - 1] = m;
  lt_scalar one = {.kind = LT_SK_FLOAT, .v.f = 1};
  rc = lt_narrow(lu, nd - 1, 0, k, &lv, err); /* L: below the diagonal of the first k columns */
  if (!rc) rc = lt_tri(lv, -1, 0, &lm, err);
  if (!rc) rc = lt_diagonal(lm, 0, nd - 2, nd - 1, &d, err);
  if (!rc) rc = lt_fill(d, &one, err);
  if (!rc) rc = lt_narrow(lu, nd - 2, 0, k, &uv, err); /* U: the first k rows, on and above */
  if (!rc) rc = lt_tri(uv, 0, 1, &um, err);
  if (!rc) rc = lt_tensor_new(lu->dtype, nd, shape, 1, &pm, err);
  if (!rc && m > 0) rc = permutations(piv, m, pm, err);
  lt_tensor_free(lu), lt_tensor_free(piv), lt_tensor_free(inf);
  lt_tensor_free(lv), lt_tensor_free(uv), lt_tensor_free(d);
  if (rc) {
    lt_tensor_free(pm), lt_tensor_free(lm), lt_tensor_free(um);
    return lt_linalg_named(err, rc, "linalg.lu");
  }
  *p = pm, *l = lm, *u = um;
  return LT_OK;
}

/* }====== */

/* {====== lu_solve ====== */

/* Checks lu_solve's operands: LU square, pivots int32 of LU's shape less its last dim, each 1
   to n; B of LU's dtype and the sizes the equation needs. */
static int lu_solve_check(const lt_tensor *lu, const lt_tensor *piv, const lt_tensor *b, int left,
                          const char *fname, lt_dtype *dt, lt_error *err) {
  int rc = lt_la_check(lu, fname, "LU", 1, dt, err);
  if (!rc) rc = lt_la_check(b, fname, "B", 0, NULL, err);
  if (rc) return rc;
  if (piv->dtype != LT_INT32)
    return lt_fail(err, LT_EARG, "%s: pivots must be an int32 tensor (got %s)", fname,
                   lt_dtype_name(piv->dtype));
  if (piv->ndim != lu->ndim - 1 ||
      memcmp(piv->shape, lu->shape, (size_t)piv->ndim * sizeof piv->shape[0])) {
    char s[200];
    lt_shape_str(piv->ndim, piv->shape, s, sizeof s);
    return lt_fail(err, LT_EARG,
                   "%s: expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
                   "with shape %s instead",
                   fname, s);
  }
  if (b->dtype != lu->dtype)
    return lt_fail(err, LT_EARG,
                   "%s: expected LU and B to have the same dtype, but found LU of type %s and B "
                   "of type %s instead",
                   fname, lt_dtype_name(lu->dtype), lt_dtype_name(b->dtype));
  int64_t n = lu->shape[lu->ndim - 1], r = b->shape[b->ndim - 2], c = b->shape[b->ndim - 1];
  return lt_la_rhs_check(n, r, c, left, fname, err);
}

/* Pivots of piv (contiguous int32) outside 1..n fail: LAPACK would swap rows out of bounds. */
static int pivots_in_range(const lt_tensor *piv, int64_t n, const char *fname, lt_error *err) {
  const int32_t *p = (const int32_t *)lt_data(piv);
  for (int64_t i = 0, np = lt_numel(piv); i < np; i++)
    if (p[i] < 1 || p[i] > n)
      return lt_fail(err, LT_EARG,
                     "%s: pivots given to lu_solve must all be between 1 and %lld (got %d); did "
                     "you pass the result of lu_factor?",
                     fname, (long long)n, (int)p[i]);
  return LT_OK;
}

/* getrs over the batch: f the column-major factors, piv their pivots (contiguous), x the
   right-hand sides (n x k column-major each), trans as getrs takes it. */
static void lu_solve_run(const lt_tensor *f, const lt_tensor *piv, lt_tensor *x, int64_t k,
                         char trans) {
  int64_t n = piv->shape[piv->ndim - 1], nb = n > 0 ? lt_numel(piv) / n : 0;
  size_t es = lt_esize(f);
  const int32_t *ip = (const int32_t *)lt_data(piv);
  for (int64_t i = 0; i < nb; i++)
    lt_lapack_getrs(f->dtype, trans, (int)n, (int)k, lt_data(f) + (size_t)(i * n * n) * es, (int)n,
                    ip + i * n, lt_data(x) + (size_t)(i * n * k) * es, (int)n);
}

int lt_linalg_lu_solve(const lt_tensor *lu, const lt_tensor *piv, const lt_tensor *b, int left,
                       int adjoint, lt_tensor **x, lt_error *err) {
  const char *fname = "linalg.lu_solve";
  lt_dtype dt;
  int rc = lu_solve_check(lu, piv, b, left, fname, &dt, err);
  if (!rc) rc = lt_lapack_ready(fname, err);
  if (rc) return rc;
  int nd = b->ndim;
  int64_t n = lu->shape[lu->ndim - 1], k = left ? b->shape[nd - 1] : b->shape[nd - 2];
  int64_t shape[LT_MAX_NDIM];
  lt_tensor *luv = NULL, *bv = NULL, *pv = NULL, *pc = NULL, *f = NULL, *xb = NULL;
  rc = lt_la_broadcast(lu, 2, b, 2, fname, &luv, &bv, err);
  if (!rc) { /* the pivots broadcast as LU */
    memcpy(shape, luv->shape, (size_t)(luv->ndim - 1) * sizeof shape[0]);
    rc = lt_expand(piv, luv->ndim - 1, shape, &pv, err);
  }
  if (!rc) rc = lt_clone(pv, &pc, err);
  if (!rc) rc = pivots_in_range(pc, n, fname, err);
  if (!rc) rc = lt_lapack_fortran(luv, dt, &f, err);
  /* A X = B and A^H X = B on B column-major; X A = B is A^T X^T = B^T and X A^H = B is
     A X^H = B^H, on B row-major (LAPACK's B^T; conjugated for B^H, and X^H back to X). */
  if (!rc) rc = left ? lt_lapack_fortran(bv, dt, &xb, err) : lt_cast(bv, dt, &xb, err);
  char trans = left ? (adjoint ? (dt == LT_COMPLEX64 || dt == LT_COMPLEX128 ? 'C' : 'T') : 'N')
                    : (adjoint ? 'N' : 'T');
  int conj = !left && adjoint;
  if (!rc && n > 0 && k > 0 && lt_numel(xb) > 0 && !(rc = lt_lapack_enter(fname, err))) {
    if (conj) lt_la_conj(dt, lt_data(xb), lt_numel(xb));
    lu_solve_run(f, pc, xb, k, trans);
    if (conj) lt_la_conj(dt, lt_data(xb), lt_numel(xb));
    lt_lapack_leave();
  }
  lt_tensor *out = NULL;
  if (!rc && left) rc = lt_clone(xb, &out, err);
  if (!rc && !left) out = xb, xb = NULL;
  lt_tensor_free(luv), lt_tensor_free(bv), lt_tensor_free(pv), lt_tensor_free(pc);
  lt_tensor_free(f), lt_tensor_free(xb);
  return lt_linalg_named(err, lt_give(rc, out, x), fname);
}

/* }====== */
