/*
 * lt_linalg_norm.c -- what lt.linalg builds on its decompositions: pinv, matrix_rank, the
 * vector and matrix norms (vector_norm, matrix_norm, norm) and cond; see lt_linalg_decomp.h.
 * Lua-free.
 *
 * Compositions: the norms are lt_norm (the vector p-norm of lt_reduce_dims.c) or sums and
 * extrema of |A| over one dim then the other (1, -1, inf, -inf), and extrema or sums of the
 * singular values for 2, -2 and "nuc"; pinv is V diag(1 / S) U^H from the SVD (V diag(1 / w) V^H
 * from eigh when hermitian), the tolerance cut per matrix; cond is the ratio of the extreme
 * singular values, or norm(A) norm(inv(A)), the inverse from inv_ex (lt_linalg_solve.c: its
 * info marks the singular matrices, whose condition number is inf).
 *
 * Calls lt_linalg_decomp.c, lt_linalg_solve.c (inv), lt_lapack.c, lt_linalg.c (matmul),
 * lt_reduce.c, lt_reduce_dims.c, lt_funcs.c, lt_copy.c, lt_tensor.c. Called by the binding
 * (lua_linalg_decomp.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_lapack.h"
#include "lt_linalg.h"
#include "lt_linalg_decomp.h"
#include "lt_linalg_solve.h"
#include "lt_math.h"
#include "lt_reduce.h"

/* {====== helpers ====== */

/* Element i of a contiguous float32 or float64 block, and its store. */
static double rget(lt_dtype rdt, const lt_tensor *t, int64_t i) {
  const char *p = lt_data(t);
  return rdt == LT_FLOAT32 ? (double)((const float *)(const void *)p)[i]
                           : ((const double *)(const void *)p)[i];
}
static void rset(lt_dtype rdt, lt_tensor *t, int64_t i, double v) {
  char *p = lt_data(t);
  if (rdt == LT_FLOAT32)
    ((float *)(void *)p)[i] = (float)v;
  else
    ((double *)(void *)p)[i] = v;
}

static double eps_of(lt_dtype rdt) {
  return rdt == LT_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
}

/* Replaces *t by op(*t) over dim (0-based), the dim kept. */
static int reduce_over(lt_redop op, lt_tensor **t, int dim, lt_error *err) {
  lt_tensor *r;
  int rc = lt_reduce_dims(op, *t, &dim, 1, 1, 0, &r, err);
  lt_tensor_free(*t);
  *t = rc ? NULL : r;
  return rc;
}

/* Replaces *t by *t viewed with the shape of a less dims d0 and d1 (or with them of size 1 when
   keepdim). */
static int shape_as(lt_tensor **t, const lt_tensor *a, int d0, int d1, int keepdim, lt_error *err) {
  int64_t shape[LT_MAX_NDIM];
  int nd = 0;
  for (int d = 0; d < a->ndim; d++)
    if (d != d0 && d != d1)
      shape[nd++] = a->shape[d];
    else if (keepdim)
      shape[nd++] = 1;
  lt_tensor *r;
  int rc = lt_reshape(*t, nd, shape, &r, NULL, err);
  lt_tensor_free(*t);
  *t = rc ? NULL : r;
  return rc;
}

/* The dtype a norm computes in: a's, or dt (LT_NDTYPES: none given) when a converts to it
   without narrowing and stays real or complex. */
static int norm_dtype(const lt_tensor *a, lt_dtype dt, const char *fname, lt_dtype *out,
                      lt_error *err) {
  const lt_dtype_info *in = &lt_dtypes[a->dtype];
  if (!in->is_float && !in->is_complex)
    return lt_fail(err, LT_EARG,
                   "%s: expected a floating point or complex tensor as input (got %s)", fname,
                   in->name);
  *out = a->dtype;
  if (dt == LT_NDTYPES) return LT_OK;
  const lt_dtype_info *want = &lt_dtypes[dt];
  if (in->is_complex && !want->is_complex)
    return lt_fail(err, LT_EARG, "%s: dtype should be complex for complex inputs, but got %s",
                   fname, want->name);
  if (!in->is_complex && !want->is_float)
    return lt_fail(err, LT_EARG, "%s: dtype should be real for real inputs, but got %s", fname,
                   want->name);
  if (lt_promote(a->dtype, dt) != dt)
    return lt_fail(err, LT_EARG,
                   "%s: the dtype of the input (%s) should be convertible without narrowing to "
                   "the specified dtype (%s)",
                   fname, in->name, want->name);
  *out = dt;
  return LT_OK;
}

/* a in dtype dt: a itself (*owned NULL) or a copy. */
static int as_dtype(const lt_tensor *a, lt_dtype dt, const lt_tensor **x, lt_tensor **owned,
                    lt_error *err) {
  *owned = NULL;
  *x = a;
  if (a->dtype == dt) return LT_OK;
  int rc = lt_cast(a, dt, owned, err);
  if (rc == LT_OK) *x = *owned;
  return rc;
}

/* }====== */

/* {====== pinv and matrix_rank ====== */

/* The tolerance of one matrix whose largest singular value is smax. */
static double cutoff(const lt_tolerance *t, int64_t m, int64_t n, lt_dtype rdt, double smax) {
  double atol = t->atol == t->atol ? t->atol : 0;
  double rtol = t->rtol == t->rtol                  ? t->rtol
                : t->atol == t->atol && t->atol > 0 ? 0
                                                    : eps_of(rdt) * (double)(m > n ? m : n);
  return fmax(atol, rtol * smax);
}

/* The singular values (|eigenvalues| when hermitian, unsorted) of a, k a matrix, in *s; with
   vectors (u, vh not NULL) the factors too: U, Vh (eigh: V in *u, *vh NULL). */
static int spectrum(const lt_tensor *a, const lt_tolerance *tol, const char *fname, lt_tensor **s,
                    lt_tensor **u, lt_tensor **vh, lt_error *err) {
  if (!tol->hermitian) return lt_linalg_svd(a, 0, u, s, vh, fname, err);
  if (vh) *vh = NULL;
  return lt_linalg_eigh(a, 0, s, u, fname, err);
}

int lt_linalg_matrix_rank(const lt_tensor *a, const lt_tolerance *tol, lt_tensor **out,
                          lt_error *err) {
  static const char fn[] = "linalg.matrix_rank";
  lt_tensor *s = NULL, *r = NULL;
  int rc = spectrum(a, tol, fn, &s, NULL, NULL, err);
  if (rc) return rc;
  int nb = a->ndim - 2;
  int64_t m = a->shape[nb], n = a->shape[nb + 1], k = s->shape[nb], count = lt_linalg_batch(a);
  lt_dtype rdt = s->dtype;
  if ((rc = lt_tensor_new(LT_INT64, nb, a->shape, 0, &r, err)) == LT_OK)
    for (int64_t b = 0; b < count; b++) {
      double smax = 0;
      for (int64_t i = 0; i < k; i++) smax = fmax(smax, fabs(rget(rdt, s, b * k + i)));
      double t = cutoff(tol, m, n, rdt, smax);
      int64_t rank = 0;
      for (int64_t i = 0; i < k; i++) rank += fabs(rget(rdt, s, b * k + i)) > t;
      ((int64_t *)(void *)lt_data(r))[b] = rank;
    }
  lt_tensor_free(s);
  if (rc == LT_OK) *out = r;
  return lt_linalg_named(err, rc, fn);
}

/* A new contiguous conj(t^T) (over the last two dims). */
static int adjoint(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  lt_tensor *tt;
  int rc = lt_transpose(t, t->ndim - 2, t->ndim - 1, &tt, err);
  if (rc == LT_OK) rc = lt_clone(tt, out, err);
  lt_tensor_free(tt);
  if (rc == LT_OK) lt_linalg_conj((*out)->dtype, lt_data(*out), lt_numel(*out));
  return rc;
}

int lt_linalg_pinv(const lt_tensor *a, const lt_tolerance *tol, lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.pinv";
  lt_tensor *s = NULL, *u = NULL, *vh = NULL, *sv = NULL, *x = NULL, *y = NULL, *p = NULL;
  int rc = spectrum(a, tol, fn, &s, &u, &vh, err);
  if (rc) return rc;
  int nb = a->ndim - 2;
  int64_t m = a->shape[nb], n = a->shape[nb + 1], k = s->shape[nb], count = lt_linalg_batch(a);
  lt_dtype rdt = s->dtype;
  for (int64_t b = 0; b < count && k > 0; b++) { /* s becomes the inverses kept */
    double smax = 0;
    for (int64_t i = 0; i < k; i++) smax = fmax(smax, fabs(rget(rdt, s, b * k + i)));
    double t = cutoff(tol, m, n, rdt, smax);
    for (int64_t i = 0; i < k; i++) {
      double v = rget(rdt, s, b * k + i);
      rset(rdt, s, b * k + i, fabs(v) > t ? 1 / v : 0);
    }
  }
  /* U diag(1/S) Vh, then its adjoint; hermitian: V diag(1/w) V^H */
  rc = lt_unsqueeze(s, nb, &sv, err);
  if (rc == LT_OK) {
    lt_operand ou = {u, {LT_SK_INT, {0}, 0}, 0}, os = {sv, {LT_SK_INT, {0}, 0}, 0};
    rc = lt_binary(LT_MUL, &ou, &os, NULL, &x, err);
  }
  if (rc == LT_OK && tol->hermitian) {
    if ((rc = adjoint(u, &y, err)) == LT_OK) rc = lt_matmul(x, y, out, err);
  } else if (rc == LT_OK && (rc = lt_matmul(x, vh, &p, err)) == LT_OK) {
    rc = adjoint(p, out, err);
  }
  lt_tensor_free(s);
  lt_tensor_free(u);
  lt_tensor_free(vh);
  lt_tensor_free(sv);
  lt_tensor_free(x);
  lt_tensor_free(y);
  lt_tensor_free(p);
  return lt_linalg_named(err, rc, fn);
}

/* }====== */

/* {====== norms ====== */

int lt_linalg_vector_norm(const lt_tensor *a, double ord, const int *dims, int ndims, int keepdim,
                          lt_dtype dt, lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.vector_norm";
  lt_dtype cdt;
  const lt_tensor *x;
  lt_tensor *owned;
  int rc = lt_check_readable(a, err);
  if (rc || (rc = norm_dtype(a, dt, fn, &cdt, err))) return lt_linalg_named(err, rc, fn);
  if ((rc = as_dtype(a, cdt, &x, &owned, err)) == LT_OK)
    rc = lt_norm(x, ord, dims, ndims, keepdim, out, err);
  lt_tensor_free(owned);
  return lt_linalg_named(err, rc, fn);
}

/* Whether ord is one of matrix_norm's. */
static int matrix_ord(lt_ord ord) {
  if (ord.kind != LT_ORD_NUMBER) return ord.kind != LT_ORD_NONE;
  double p = fabs(ord.p);
  return p == 1 || p == 2 || isinf(p);
}

/* The norms of the singular values: "nuc" (their sum), 2 (the largest), -2 (the smallest) of
   x's matrices over d0, d1, the result in a's shape less those dims. */
static int spectral_norm(const lt_tensor *x, lt_ord ord, int d0, int d1, const char *fname,
                         lt_tensor **out, lt_error *err) {
  int perm[LT_MAX_NDIM], nd = 0;
  for (int d = 0; d < x->ndim; d++)
    if (d != d0 && d != d1) perm[nd++] = d;
  perm[nd++] = d0;
  perm[nd++] = d1;
  lt_tensor *xp, *s = NULL;
  int rc = lt_permute(x, perm, &xp, err);
  if (rc == LT_OK) rc = lt_linalg_svd(xp, 0, NULL, &s, NULL, fname, err);
  lt_tensor_free(xp);
  if (rc) return rc;
  lt_redop op = ord.kind == LT_ORD_NUC ? LT_SUM : ord.p > 0 ? LT_AMAX : LT_AMIN;
  int last = nd - 2;
  rc = lt_reduce_dims(op, s, &last, 1, 0, 0, out, err);
  lt_tensor_free(s);
  return rc;
}

int lt_linalg_matrix_norm(const lt_tensor *a, lt_ord ord, int d0, int d1, int keepdim, lt_dtype dt,
                          lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.matrix_norm";
  int rc = lt_check_readable(a, err);
  if (rc) return lt_linalg_named(err, rc, fn);
  if (a->ndim < 2)
    return lt_fail(err, LT_EARG, "%s: the input tensor A must have at least 2 dimensions", fn);
  if (d0 < 0 || d1 < 0 || d0 >= a->ndim || d1 >= a->ndim || d0 == d1)
    return lt_fail(err, LT_EARG, "%s: dims must be two different dims of A (got %d and %d)", fn,
                   d0 + 1, d1 + 1);
  if (!matrix_ord(ord)) {
    if (ord.kind == LT_ORD_NUMBER)
      return lt_fail(err, LT_EARG, "%s: order %g not supported", fn, ord.p);
    return lt_fail(err, LT_EARG, "%s: an order is needed", fn);
  }
  lt_dtype cdt;
  const lt_tensor *x;
  lt_tensor *owned, *r = NULL;
  if ((rc = norm_dtype(a, dt, fn, &cdt, err))) return rc;
  if ((rc = as_dtype(a, cdt, &x, &owned, err))) return lt_linalg_named(err, rc, fn);
  int dims[2] = {d0, d1};
  if (ord.kind == LT_ORD_FRO) {
    rc = lt_norm(x, 2, dims, 2, keepdim, &r, err);
  } else if (ord.kind == LT_ORD_NUC || fabs(ord.p) == 2) {
    rc = spectral_norm(x, ord, d0, d1, fn, &r, err);
    if (rc == LT_OK) rc = lt_cast_over(&r, lt_lapack_real(cdt), err);
    if (rc == LT_OK) rc = shape_as(&r, a, d0, d1, keepdim, err);
  } else { /* 1: the largest column sum of |A|, inf: the largest row sum; -1, -inf: smallest */
    int first = fabs(ord.p) == 1 ? d0 : d1, then = first == d0 ? d1 : d0;
    if ((rc = lt_unary(LT_ABS, x, NULL, &r, err)) == LT_OK &&
        (rc = reduce_over(LT_SUM, &r, first, err)) == LT_OK &&
        (rc = reduce_over(ord.p > 0 ? LT_AMAX : LT_AMIN, &r, then, err)) == LT_OK)
      rc = shape_as(&r, a, d0, d1, keepdim, err);
  }
  lt_tensor_free(owned);
  if (rc == LT_OK) *out = r;
  return lt_linalg_named(err, rc, fn);
}

int lt_linalg_norm(const lt_tensor *a, lt_ord ord, const int *dims, int ndims, int keepdim,
                   lt_dtype dt, lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.norm";
  int is_str = ord.kind == LT_ORD_FRO || ord.kind == LT_ORD_NUC;
  double p = ord.kind == LT_ORD_NUMBER ? ord.p : 2;
  if (ndims > 2)
    return lt_fail(err, LT_EARG, "%s: dim must be one or two dims when given (got %d)", fn, ndims);
  if (ndims == 0 && ord.kind != LT_ORD_NONE && a->ndim != 1 && a->ndim != 2)
    return lt_fail(err, LT_EARG,
                   "%s: if dim is not given but ord is, the input must be 1-d or 2-d (got %d-d)",
                   fn, a->ndim);
  if (ndims == 2 || (ndims == 0 && ord.kind != LT_ORD_NONE && a->ndim == 2)) {
    lt_ord mo = ord.kind == LT_ORD_NONE ? (lt_ord){LT_ORD_FRO, 0} : ord;
    return lt_linalg_matrix_norm(a, mo, ndims ? dims[0] : 0, ndims ? dims[1] : 1, keepdim, dt, out,
                                 err);
  }
  if (is_str)
    return lt_fail(err, LT_EARG, "%s: order '%s' is a matrix norm's: it needs two dims", fn,
                   ord.kind == LT_ORD_FRO ? "fro" : "nuc");
  return lt_linalg_vector_norm(a, p, dims, ndims, keepdim, dt, out, err);
}

/* }====== */

/* {====== cond ====== */

/* The ratio of the extreme singular values of each matrix of a (p 2: largest over smallest; -2
   the inverse); 0 for an empty matrix. */
static int cond_svd(const lt_tensor *a, double p, lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.cond";
  lt_tensor *s = NULL, *r = NULL;
  int rc = lt_linalg_svd(a, 0, NULL, &s, NULL, fn, err);
  if (rc) return rc;
  int nb = a->ndim - 2;
  int64_t k = s->shape[nb], count = lt_linalg_batch(a);
  if ((rc = lt_tensor_new(s->dtype, nb, a->shape, 0, &r, err)) == LT_OK)
    for (int64_t b = 0; b < count; b++) {
      double hi = k ? rget(s->dtype, s, b * k) : 0, lo = k ? rget(s->dtype, s, b * k + k - 1) : 0;
      rset(s->dtype, r, b, k == 0 ? 0 : p > 0 ? hi / lo : lo / hi);
    }
  lt_tensor_free(s);
  if (rc == LT_OK) *out = r;
  return rc;
}

/* norm(A) norm(inv(A)) in the norm ord, inf for a singular matrix (inv_ex's info). */
static int cond_inv(const lt_tensor *a, lt_ord ord, lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.cond";
  lt_dtype dt;
  int rc = lt_linalg_check(a, fn, 1, &dt, err);
  if (rc) return rc;
  int nd = a->ndim;
  lt_dtype rdt = lt_lapack_real(dt);
  if (a->shape[nd - 1] == 0) return lt_tensor_new(rdt, nd - 2, a->shape, 1, out, err);
  lt_tensor *x = NULL, *inv = NULL, *info = NULL, *na = NULL, *ni = NULL, *r = NULL;
  if (a->dtype != dt && (rc = lt_cast(a, dt, &x, err))) return rc; /* the half types: float32 */
  if ((rc = lt_linalg_inv(x ? x : a, fn, 0, &inv, &info, err)) == LT_OK &&
      (rc = lt_linalg_matrix_norm(x ? x : a, ord, nd - 2, nd - 1, 0, LT_NDTYPES, &na, err)) ==
          LT_OK &&
      (rc = lt_linalg_matrix_norm(inv, ord, nd - 2, nd - 1, 0, LT_NDTYPES, &ni, err)) == LT_OK) {
    lt_operand oa = {na, {LT_SK_INT, {0}, 0}, 0}, oi = {ni, {LT_SK_INT, {0}, 0}, 0};
    if ((rc = lt_binary(LT_MUL, &oa, &oi, NULL, &r, err)) == LT_OK) {
      const int32_t *sing = (const int32_t *)lt_data(info);
      for (int64_t b = 0, count = lt_numel(info); b < count; b++)
        if (sing[b]) rset(rdt, r, b, INFINITY);
    }
  }
  lt_tensor_free(x);
  lt_tensor_free(inv);
  lt_tensor_free(info);
  lt_tensor_free(na);
  lt_tensor_free(ni);
  if (rc == LT_OK) *out = r;
  return rc;
}

int lt_linalg_cond(const lt_tensor *a, lt_ord p, lt_tensor **out, lt_error *err) {
  static const char fn[] = "linalg.cond";
  if (p.kind == LT_ORD_NUMBER && !matrix_ord(p))
    return lt_fail(err, LT_EARG, "%s: got an invalid norm type: %g", fn, p.p);
  int rc;
  if (p.kind == LT_ORD_NONE || (p.kind == LT_ORD_NUMBER && fabs(p.p) == 2))
    rc = cond_svd(a, p.kind == LT_ORD_NONE ? 2 : p.p, out, err);
  else
    rc = cond_inv(a, p, out, err);
  return lt_linalg_named(err, rc, fn);
}

/* }====== */
