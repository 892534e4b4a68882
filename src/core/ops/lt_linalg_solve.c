/*
 * lt_linalg_solve.c -- solve, solve_triangular, inv, det/slogdet/logdet, cholesky and
 * matrix_power of lt.linalg (see lt_linalg_solve.h), and the helpers lt_linalg_lu.c shares.
 *
 * Each function checks its operands, copies them once into the buffer LAPACK overwrites
 * (lt_cast: a contiguous row-major copy, which LAPACK reads as the column-major transpose), then
 * runs the batch through the routine between lt_la_begin and lt_lapack_leave. Only a left-hand
 * side of solve that LAPACK needs column-major goes through lt_lapack_fortran.
 */
#include "lt_linalg_solve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_blas.h"
#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_lapack.h"
#include "lt_linalg.h"
#include "lt_linalg_decomp.h"
#include "lt_linalg_small.h"
#include "lt_promote.h"
#include "lt_shape.h"

/* {====== shared helpers ====== */

int lt_la_check(const lt_tensor *a, const char *fname, const char *name, int square, lt_dtype *dt,
                lt_error *err) {
  if (a->ndim < 2)
    return lt_fail(err, LT_EARG, "%s: the input tensor %s must have at least 2 dimensions", fname,
                   name);
  int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], mn;
  if (square && m != n)
    return lt_fail(err, LT_EARG,
                   "%s: %s must be batches of square matrices, but they are %lld by %lld matrices",
                   fname, name, (long long)m, (long long)n);
  if (lt_size_mul(m, n, &mn, NULL) || !lt_blas_fits(mn))
    return lt_fail(err, LT_ERANGE, "%s: matrices of %lld x %lld are too large for LAPACK", fname,
                   (long long)m, (long long)n);
  return dt ? lt_lapack_dtype(a->dtype, fname, dt, err) : LT_OK;
}

int lt_la_batch_new(const lt_tensor *a, int drop, lt_dtype dt, lt_tensor **out, lt_error *err) {
  return lt_tensor_new(dt, a->ndim - drop, a->shape, 1, out, err);
}

int64_t lt_la_first_fail(const lt_tensor *info, int *v) {
  const int32_t *p = (const int32_t *)lt_data(info);
  int64_t n = lt_numel(info);
  for (int64_t k = 0; k < n; k++)
    if (p[k]) {
      *v = p[k];
      return k;
    }
  return -1;
}

int lt_la_begin(const char *fname, lt_error *err) {
  int rc = lt_lapack_ready(fname, err);
  return rc ? rc : lt_lapack_enter(fname, err);
}

int lt_la_broadcast(const lt_tensor *a, int ta, const lt_tensor *b, int tb, const char *fname,
                    lt_tensor **av, lt_tensor **bv, lt_error *err) {
  int nd = 0;
  int64_t batch[LT_MAX_NDIM], shape[LT_MAX_NDIM];
  int pos = lt_broadcast_join(&nd, batch, a->ndim - ta, a->shape);
  if (!pos) pos = lt_broadcast_join(&nd, batch, b->ndim - tb, b->shape);
  if (pos) {
    char sa[100], sb[100];
    lt_shape_str(a->ndim - ta, a->shape, sa, sizeof sa);
    lt_shape_str(b->ndim - tb, b->shape, sb, sizeof sb);
    return lt_fail(err, LT_EARG, "%s: the batch dims of A %s and B %s do not broadcast", fname, sa,
                   sb);
  }
  if (nd + (ta > tb ? ta : tb) > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "%s: too many dims", fname);
  memcpy(shape, batch, (size_t)nd * sizeof shape[0]);
  memcpy(shape + nd, a->shape + a->ndim - ta, (size_t)ta * sizeof shape[0]);
  int rc = lt_expand(a, nd + ta, shape, av, err);
  if (rc) return rc;
  memcpy(shape + nd, b->shape + b->ndim - tb, (size_t)tb * sizeof shape[0]);
  rc = lt_expand(b, nd + tb, shape, bv, err);
  if (rc) lt_tensor_free(*av), *av = NULL;
  return rc;
}

int lt_la_rhs_check(int64_t n, int64_t r, int64_t c, int left, const char *fname, lt_error *err) {
  if ((left ? r : c) == n) return LT_OK;
  return lt_fail(err, LT_EARG,
                 "%s: incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)",
                 fname, left ? "AX = B" : "XA = B", (long long)n, (long long)n, (long long)r,
                 (long long)c);
}

static int is_complex(lt_dtype dt) { return dt == LT_COMPLEX64 || dt == LT_COMPLEX128; }

void lt_la_conj(lt_dtype dt, void *p, int64_t n) {
  if (dt == LT_COMPLEX64)
    for (int64_t i = 0; i < n; i++) ((lt_c64 *)p)[i].im = -((lt_c64 *)p)[i].im;
  else if (dt == LT_COMPLEX128)
    for (int64_t i = 0; i < n; i++) ((lt_c128 *)p)[i].im = -((lt_c128 *)p)[i].im;
}

void lt_la_store(lt_dtype dt, void *p, double re, double im) {
  switch (dt) {
    case LT_FLOAT32: *(float *)p = (float)re; break;
    case LT_FLOAT64: *(double *)p = re; break;
    case LT_COMPLEX64: *(lt_c64 *)p = (lt_c64){(float)re, (float)im}; break;
    default: *(lt_c128 *)p = (lt_c128){re, im}; break;
  }
}

void lt_la_load(lt_dtype dt, const void *p, double *re, double *im) {
  *im = 0;
  switch (dt) {
    case LT_FLOAT32: *re = *(const float *)p; break;
    case LT_FLOAT64: *re = *(const double *)p; break;
    case LT_COMPLEX64: *re = ((const lt_c64 *)p)->re, *im = ((const lt_c64 *)p)->im; break;
    default: *re = ((const lt_c128 *)p)->re, *im = ((const lt_c128 *)p)->im; break;
  }
}

/* Address of matrix k of t (its last two dims the matrix; batch dims any strides, broadcast
   ones included). */
static char *matrix_at(const lt_tensor *t, int64_t k) {
  int64_t off = 0;
  for (int d = t->ndim - 3; d >= 0; d--) {
    int64_t s = t->shape[d];
    off += (k % s) * t->strides[d];
    k /= s;
  }
  return lt_data(t) + off * (int64_t)lt_esize(t);
}

/* The failure of a routine's workspace (LT_LAPACK_NOMEM). */
static int nomem(const char *fname, lt_error *err) {
  return lt_fail(err, LT_ENOMEM, "%s: not enough memory for LAPACK's workspace", fname);
}

/* Fails when info has a nonzero element (check set): fmt takes the value once or twice. */
static int check_info(const lt_tensor *info, int check, const char *fname, const char *fmt,
                      lt_error *err) {
  int v = 0;
  int64_t k = check ? lt_la_first_fail(info, &v) : -1;
  if (k < 0) return LT_OK;
  char msg[200];
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
  snprintf(msg, sizeof msg, fmt, v, v);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  return lt_lapack_fail_at(err, fname, info->ndim > 0, k, "%s", msg);
}

/* Hands the pair (r, i) out: *out = r, *info = i (or i freed when info is NULL); both freed on
   failure, the error named after fname (an allocation's failure does not name it). */
static int give2(int rc, lt_tensor *r, lt_tensor *i, lt_tensor **out, lt_tensor **info,
                 const char *fname, lt_error *err) {
  if (rc) {
    lt_tensor_free(r);
    lt_tensor_free(i);
    return lt_linalg_named(err, rc, fname);
  }
  *out = r;
  if (info)
    *info = i;
  else
    lt_tensor_free(i);
  return LT_OK;
}

/* }====== */

/* {====== inv ====== */

#define LT_MSG_INV                                                                           \
  "The diagonal element %d is zero, the inversion could not be completed because the input " \
  "matrix is singular."

/* getrf then getri on each n x n matrix of buf (contiguous); a singular one becomes NaN. */
static int inv_run(lt_tensor *buf, lt_tensor *info, int n, const char *fname, lt_error *err) {
  int64_t nb = lt_numel(info), mat = (int64_t)n * n;
  size_t es = lt_esize(buf);
  int *ipiv = malloc((size_t)n * sizeof(int)), rc = LT_OK;
  if (!ipiv) return lt_fail_nomem(err, (size_t)n * sizeof(int));
  if ((rc = lt_la_begin(fname, err))) return free(ipiv), rc;
  int32_t *inf = (int32_t *)lt_data(info);
  for (int64_t k = 0; k < nb && !rc; k++) {
    char *p = lt_data(buf) + k * mat * (int64_t)es;
    int r = lt_lapack_getrf(buf->dtype, n, n, p, n, ipiv);
    if (r > 0) {
      inf[k] = r;
      for (int64_t i = 0; i < mat; i++) lt_la_store(buf->dtype, p + i * (int64_t)es, NAN, NAN);
      continue;
    }
    if (r == 0) r = lt_lapack_getri(buf->dtype, n, p, n, ipiv);
    if (r == LT_LAPACK_NOMEM) rc = nomem(fname, err);
  }
  lt_lapack_leave();
  free(ipiv);
  return rc;
}

int lt_linalg_inv(const lt_tensor *a, const char *fname, int check, lt_tensor **inv,
                  lt_tensor **info, lt_error *err) {
  lt_dtype dt;
  int rc = lt_la_check(a, fname, "A", 1, &dt, err);
  if (rc) return rc;
  int64_t n = a->shape[a->ndim - 1];
  lt_tensor *buf = NULL, *inf = NULL;
  if (lt_small_takes(a->dtype, n)) {
    rc = lt_small_inv(a, &buf, &inf, err);
    if (!rc) rc = check_info(inf, check, fname, LT_MSG_INV, err);
    return give2(rc, buf, inf, inv, info, fname, err);
  }
  if ((rc = lt_lapack_ready(fname, err))) return rc;
  rc = lt_cast(a, dt, &buf, err);
  if (!rc) rc = lt_la_batch_new(a, 2, LT_INT32, &inf, err);
  if (!rc && n > 0 && lt_numel(inf) > 0) rc = inv_run(buf, inf, (int)n, fname, err);
  if (!rc) rc = check_info(inf, check, fname, LT_MSG_INV, err);
  return give2(rc, buf, inf, inv, info, fname, err);
}

/* }====== */

/* {====== det, slogdet, logdet ====== */

/* The sign (s, a complex number of modulus 1, or 0) and log |det| of the LU factors at p (the
   diagonal of U, n x n, and the row swaps ipiv). */
static void lu_slogdet(lt_dtype dt, const char *p, int n, const int *ipiv, double s[2],
                       double *logabs) {
  size_t es = lt_dtypes[dt].size;
  s[0] = 1, s[1] = 0, *logabs = 0;
  for (int i = 0; i < n; i++) {
    double re, im;
    lt_la_load(dt, p + ((size_t)i * (size_t)n + (size_t)i) * es, &re, &im);
    double m = hypot(re, im), t0 = s[0];
    if (ipiv[i] != i + 1) s[0] = -s[0], s[1] = -s[1], t0 = s[0];
    if (m == 0) {
      s[0] = s[1] = 0, *logabs = -INFINITY;
      return;
    }
    re /= m, im /= m;
    s[0] = t0 * re - s[1] * im, s[1] = t0 * im + s[1] * re;
    *logabs += log(m);
  }
}

/* The determinant from the factors at p: the swaps' sign times the product of U's diagonal. */
static void lu_det(lt_dtype dt, const char *p, int n, const int *ipiv, double d[2]) {
  size_t es = lt_dtypes[dt].size;
  d[0] = 1, d[1] = 0;
  for (int i = 0; i < n; i++) {
    double re, im, t0 = d[0];
    lt_la_load(dt, p + ((size_t)i * (size_t)n + (size_t)i) * es, &re, &im);
    if (ipiv[i] != i + 1) re = -re, im = -im;
    d[0] = t0 * re - d[1] * im, d[1] = t0 * im + d[1] * re;
  }
}

/* Factors each matrix of buf and writes its result k into o1 (and o2) as kind says. */
static int det_run(lt_tensor *buf, lt_det_kind kind, lt_tensor *o1, lt_tensor *o2, int n,
                   const char *fname, lt_error *err) {
  lt_dtype dt = buf->dtype, rdt = lt_lapack_real(dt);
  int64_t nb = lt_numel(o1), mat = (int64_t)n * n;
  size_t es = lt_dtypes[dt].size, e1 = lt_esize(o1);
  int *ipiv = malloc((size_t)(n > 0 ? n : 1) * sizeof(int)), rc = LT_OK;
  if (!ipiv) return lt_fail_nomem(err, (size_t)n * sizeof(int));
  if (n > 0 && nb > 0 && (rc = lt_la_begin(fname, err))) return free(ipiv), rc;
  for (int64_t k = 0; k < nb; k++) {
    char *p = lt_data(buf) + k * mat * (int64_t)es;
    if (n > 0) lt_lapack_getrf(dt, n, n, p, n, ipiv);
    double s[2], la;
    if (kind == LT_DET) {
      lu_det(dt, p, n, ipiv, s);
      lt_la_store(dt, lt_data(o1) + k * (int64_t)e1, s[0], s[1]);
      continue;
    }
    lu_slogdet(dt, p, n, ipiv, s, &la);
    if (kind == LT_SLOGDET) {
      lt_la_store(dt, lt_data(o1) + k * (int64_t)e1, s[0], s[1]);
      lt_la_store(rdt, lt_data(o2) + k * (int64_t)lt_esize(o2), la, 0);
    } else if (is_complex(dt)) /* log det = log |det| + i arg(sign) */
      lt_la_store(dt, lt_data(o1) + k * (int64_t)e1, la, s[0] == 0 ? 0 : atan2(s[1], s[0]));
    else
      lt_la_store(dt, lt_data(o1) + k * (int64_t)e1, s[0] < 0 ? NAN : la, 0);
  }
  if (n > 0 && nb > 0) lt_lapack_leave();
  free(ipiv);
  return rc;
}

int lt_linalg_det(const lt_tensor *a, const char *fname, lt_det_kind kind, lt_tensor **out,
                  lt_tensor **out2, lt_error *err) {
  lt_dtype dt;
  int rc = lt_la_check(a, fname, "A", 1, &dt, err);
  if (rc) return rc;
  int64_t n = a->shape[a->ndim - 1];
  if (kind == LT_DET && lt_small_takes(a->dtype, n)) return lt_small_det(a, out, err);
  if ((rc = lt_lapack_ready(fname, err))) return rc;
  lt_tensor *buf = NULL, *o1 = NULL, *o2 = NULL;
  rc = lt_cast(a, dt, &buf, err);
  if (!rc) rc = lt_la_batch_new(a, 2, dt, &o1, err);
  if (!rc && kind == LT_SLOGDET) rc = lt_la_batch_new(a, 2, lt_lapack_real(dt), &o2, err);
  if (!rc) rc = det_run(buf, kind, o1, o2, (int)n, fname, err);
  lt_tensor_free(buf);
  if (rc) lt_tensor_free(o2);
  return give2(rc, o1, o2, out, out2, fname, err);
}

/* }====== */

/* {====== solve ====== */

/* getrf of each A (abuf, row-major: LAPACK's A^T) and getrs of its right-hand sides bbuf (n x
   k column-major for the left system, trans 'T'; the row-major k x n of X A = B as LAPACK's
   A^T X^T = B^T, trans 'N'). */
static int solve_run(lt_tensor *abuf, lt_tensor *bbuf, lt_tensor *info, int n, int k, int left,
                     const char *fname, lt_error *err) {
  int64_t nb = lt_numel(info), mat = (int64_t)n * n, rhs = (int64_t)n * k;
  size_t es = lt_esize(abuf);
  int *ipiv = malloc((size_t)n * sizeof(int)), rc;
  if (!ipiv) return lt_fail_nomem(err, (size_t)n * sizeof(int));
  if ((rc = lt_la_begin(fname, err))) return free(ipiv), rc;
  int32_t *inf = (int32_t *)lt_data(info);
  for (int64_t i = 0; i < nb; i++) {
    char *a = lt_data(abuf) + i * mat * (int64_t)es, *b = lt_data(bbuf) + i * rhs * (int64_t)es;
    int r = lt_lapack_getrf(abuf->dtype, n, n, a, n, ipiv);
    if (r > 0) inf[i] = r; /* solved all the same: inf and NaN, as torch */
    if (k > 0) lt_lapack_getrs(abuf->dtype, left ? 'T' : 'N', n, k, a, n, ipiv, b, n);
  }
  lt_lapack_leave();
  free(ipiv);
  return LT_OK;
}

/* b as a batch of matrices (*bm, a view): a vector or batch of vectors gains a last dim of 1;
 *vec says so. Checks the shapes of A X = B (left) or X A = B. */
static int solve_rhs(const lt_tensor *a, const lt_tensor *b, int left, const char *fname,
                     lt_tensor **bm, int *vec, lt_error *err) {
  int64_t n = a->shape[a->ndim - 1];
  if (b->ndim < 1)
    return lt_fail(err, LT_EARG, "%s: the input tensor B must have at least 1 dimension", fname);
  *vec = b->ndim == 1 || (b->ndim == a->ndim - 1 &&
                          !memcmp(b->shape, a->shape, (size_t)b->ndim * sizeof b->shape[0]));
  int rc = *vec ? lt_unsqueeze(b, b->ndim, bm, err) : lt_tensor_alias(b, bm, err);
  if (rc) return rc;
  const lt_tensor *t = *bm;
  int64_t r = t->shape[t->ndim - 2], c = t->shape[t->ndim - 1];
  rc = lt_la_rhs_check(n, r, c, left, fname, err);
  if (!rc) rc = lt_la_check(t, fname, "B", 0, NULL, err);
  if (rc) lt_tensor_free(*bm), *bm = NULL;
  return rc;
}

/* The small kernels' solve of av, bv (broadcast): X A = B as A^T X^T = B^T. */
static int solve_small(const lt_tensor *av, const lt_tensor *bv, int left, lt_tensor **x,
                       lt_tensor **info, lt_error *err) {
  if (left) return lt_small_solve(av, bv, x, info, err);
  int nd = av->ndim;
  lt_tensor *at = NULL, *bt = NULL, *xt = NULL, *xv = NULL;
  int rc = lt_transpose(av, nd - 2, nd - 1, &at, err);
  if (!rc) rc = lt_transpose(bv, nd - 2, nd - 1, &bt, err);
  if (!rc) rc = lt_small_solve(at, bt, &xt, info, err);
  if (!rc) rc = lt_transpose(xt, nd - 2, nd - 1, &xv, err);
  if (!rc) rc = lt_clone(xv, x, err);
  if (rc && *info) lt_tensor_free(*info), *info = NULL;
  lt_tensor_free(at), lt_tensor_free(bt), lt_tensor_free(xt), lt_tensor_free(xv);
  return rc;
}

/* The LAPACK solve of av, bv (broadcast, the last dims n x n and the right-hand sides). */
static int solve_lapack(const lt_tensor *av, const lt_tensor *bv, lt_dtype dt, int left,
                        const char *fname, lt_tensor **x, lt_tensor **info, lt_error *err) {
  int nd = bv->ndim, rc;
  int64_t n = av->shape[nd - 1], k = left ? bv->shape[nd - 1] : bv->shape[nd - 2];
  lt_tensor *abuf = NULL, *bbuf = NULL;
  if ((rc = lt_lapack_ready(fname, err))) return rc;
  rc = lt_cast(av, dt, &abuf, err);
  if (!rc) rc = left ? lt_lapack_fortran(bv, dt, &bbuf, err) : lt_cast(bv, dt, &bbuf, err);
  if (!rc) rc = lt_la_batch_new(av, 2, LT_INT32, info, err);
  if (!rc && n > 0 && lt_numel(*info) > 0)
    rc = solve_run(abuf, bbuf, *info, (int)n, (int)k, left, fname, err);
  lt_tensor_free(abuf);
  if (!rc && left) rc = lt_clone(bbuf, x, err); /* column-major to row-major */
  if (!rc && !left) *x = bbuf, bbuf = NULL;
  lt_tensor_free(bbuf);
  if (rc && *info) lt_tensor_free(*info), *info = NULL;
  return rc;
}

int lt_linalg_solve(const lt_tensor *a, const lt_tensor *b, int left, const char *fname, int check,
                    lt_tensor **x, lt_tensor **info, lt_error *err) {
  lt_dtype dt;
  int rc = lt_la_check(a, fname, "A", 1, &dt, err), vec = 0;
  if (rc) return rc;
  if (b->dtype != a->dtype)
    return lt_fail(err, LT_EARG,
                   "%s: expected A and B to have the same dtype, but found A of type %s and B of "
                   "type %s instead",
                   fname, lt_dtype_name(a->dtype), lt_dtype_name(b->dtype));
  lt_tensor *bm = NULL, *av = NULL, *bv = NULL, *xm = NULL, *inf = NULL, *xs = NULL;
  rc = solve_rhs(a, b, left, fname, &bm, &vec, err);
  if (!rc) rc = lt_la_broadcast(a, 2, bm, 2, fname, &av, &bv, err);
  if (!rc) {
    if (lt_small_takes(a->dtype, a->shape[a->ndim - 1]))
      rc = solve_small(av, bv, left, &xm, &inf, err);
    else
      rc = solve_lapack(av, bv, dt, left, fname, &xm, &inf, err);
  }
  if (!rc && vec) rc = lt_squeeze(xm, xm->ndim - 1, &xs, err);
  if (!rc && !vec) xs = xm, xm = NULL;
  if (!rc)
    rc = check_info(inf, check, fname, "The solver failed because the input matrix is singular.",
                    err);
  lt_tensor_free(bm), lt_tensor_free(av), lt_tensor_free(bv), lt_tensor_free(xm);
  return give2(rc, xs, inf, x, info, fname, err);
}

/* }====== */

/* {====== solve_triangular ====== */

/* The layout trsm reads matrix a in: 'R' row-major (LAPACK's transpose; *ld its row stride),
   'C' column-major, 0 neither (a copy is needed). */
static char tri_layout(const lt_tensor *a, lt_dtype dt, int64_t *ld) {
  int nd = a->ndim;
  int64_t n = a->shape[nd - 1], rs = a->strides[nd - 2], cs = a->strides[nd - 1];
  int64_t lo = n > 1 ? n : 1;
  if (a->dtype != dt) return 0;
  if ((cs == 1 || n <= 1) && rs >= lo && lt_blas_fits(rs)) return *ld = rs, 'R';
  if ((rs == 1 || n <= 1) && cs >= lo && lt_blas_fits(cs)) return *ld = cs, 'C';
  return 0;
}

/* trsm on each matrix of x (contiguous, row-major: LAPACK's X^T), with A read from av. */
static void tri_run(const lt_tensor *av, lt_tensor *x, char layout, int64_t lda, int upper,
                    int left, int unit) {
  int nd = x->ndim;
  int64_t n = av->shape[nd - 1], r = x->shape[nd - 2], c = x->shape[nd - 1], nb = lt_numel(x);
  nb = r * c > 0 ? nb / (r * c) : 0;
  /* LAPACK sees A^T when a is row-major: the other triangle, no transpose; A column-major:
     transposed. A X = B is X^T A^T = B^T (side 'R'); X A = B is A^T X^T = B^T (side 'L'). */
  char uplo = (layout == 'R') == !upper ? 'U' : 'L', trans = layout == 'R' ? 'N' : 'T';
  char side = left ? 'R' : 'L', diag = unit ? 'U' : 'N';
  int m = (int)(left ? c : n), k = (int)(left ? n : r);
  size_t es = lt_esize(x);
  for (int64_t i = 0; i < nb; i++)
    lt_lapack_trsm(x->dtype, side, uplo, trans, diag, m, k, matrix_at(av, i), (int)lda,
                   lt_data(x) + i * r * c * (int64_t)es, m);
}

int lt_linalg_solve_triangular(const lt_tensor *a, const lt_tensor *b, int upper, int left,
                               int unit, lt_tensor **x, lt_error *err) {
  const char *fname = "linalg.solve_triangular";
  lt_dtype dt;
  int rc = lt_la_check(a, fname, "A", 1, NULL, err);
  if (!rc) rc = lt_la_check(b, fname, "B", 0, NULL, err);
  if (!rc) rc = lt_lapack_dtype(lt_promote(a->dtype, b->dtype), fname, &dt, err);
  if (rc) return rc;
  int nd = b->ndim;
  int64_t n = a->shape[a->ndim - 1], r = b->shape[nd - 2], c = b->shape[nd - 1];
  if ((rc = lt_la_rhs_check(n, r, c, left, fname, err))) return rc;
  if ((rc = lt_lapack_ready(fname, err))) return rc;
  lt_tensor *av = NULL, *bv = NULL, *ac = NULL, *acv = NULL, *out = NULL;
  rc = lt_la_broadcast(a, 2, b, 2, fname, &av, &bv, err);
  int64_t lda = 0;
  char layout = rc ? 0 : tri_layout(a, dt, &lda);
  if (!rc && !layout) { /* a copy of a itself (not of its broadcast view), row-major */
    rc = lt_cast(a, dt, &ac, err);
    if (!rc) rc = lt_expand(ac, av->ndim, av->shape, &acv, err);
    layout = 'R', lda = n > 1 ? n : 1;
  }
  if (!rc) rc = lt_tensor_new(dt, bv->ndim, bv->shape, 0, &out, err);
  if (!rc) rc = lt_copy(out, bv, err);
  if (!rc && n > 0 && lt_numel(out) > 0 && !(rc = lt_lapack_enter(fname, err))) {
    tri_run(acv ? acv : av, out, layout, lda, upper, left, unit);
    lt_lapack_leave();
  }
  lt_tensor_free(av), lt_tensor_free(bv), lt_tensor_free(ac), lt_tensor_free(acv);
  return lt_linalg_named(err, lt_give(rc, out, x), fname);
}

/* }====== */

/* {====== cholesky ====== */

int lt_linalg_cholesky(const lt_tensor *a, int upper, int check, lt_tensor **l, lt_tensor **info,
                       lt_error *err) {
  const char *fname = "linalg.cholesky";
  lt_dtype dt;
  int rc = lt_la_check(a, fname, "A", 1, &dt, err);
  if (!rc) rc = lt_lapack_ready(fname, err);
  if (rc) return rc;
  int64_t n = a->shape[a->ndim - 1];
  lt_tensor *buf = NULL, *inf = NULL;
  rc = lt_cast(a, dt, &buf, err);
  if (!rc) rc = lt_la_batch_new(a, 2, LT_INT32, &inf, err);
  int64_t nb = rc ? 0 : lt_numel(inf);
  /* buf holds A^T column-major, conj(A) for a Hermitian A: its factor U' (conj(A) = U'^H U',
     from the triangle 'U' of A^T, A's lower one) read row-major is L = U'^T, A = L L^H; and
     'L' gives U the same way. */
  if (!rc && n > 0 && nb > 0 && !(rc = lt_la_begin(fname, err))) {
    size_t bytes = (size_t)(n * n) * lt_esize(buf);
    int32_t *p = (int32_t *)lt_data(inf);
    for (int64_t k = 0; k < nb; k++)
      p[k] =
          lt_lapack_potrf(dt, upper ? 'L' : 'U', (int)n, lt_data(buf) + (size_t)k * bytes, (int)n);
    lt_lapack_leave();
  }
  if (!rc) rc = lt_tri_(buf, 0, upper, err); /* the triangle LAPACK did not write */
  if (!rc)
    rc = check_info(inf, check, fname,
                    "The factorization could not be completed because the input is not "
                    "positive-definite (the leading minor of order %d is not positive-definite).",
                    err);
  return give2(rc, buf, inf, l, info, fname, err);
}

/* }====== */

/* {====== matrix_power ====== */

/* lt_matmul's failure given fname first. */
static int product(const lt_tensor *x, const lt_tensor *y, const char *fname, lt_tensor **out,
                   lt_error *err) {
  lt_error e;
  int rc = lt_matmul(x, y, out, &e);
  return rc ? lt_fail(err, rc, "%s: %s", fname, e.msg) : LT_OK;
}

/* n x n identities of a's dtype in a's shape. */
static int identities(const lt_tensor *a, lt_tensor **out, lt_error *err) {
  int64_t n = a->shape[a->ndim - 1];
  lt_tensor *e = NULL, *ev = NULL;
  int rc = lt_eye(a->dtype, n, n, &e, err);
  if (!rc) rc = lt_expand(e, a->ndim, a->shape, &ev, err);
  if (!rc) rc = lt_clone(ev, out, err);
  lt_tensor_free(e), lt_tensor_free(ev);
  return rc;
}

int lt_linalg_matrix_power(const lt_tensor *a, int64_t n, const char *fname, lt_tensor **out,
                           lt_error *err) {
  int rc = lt_la_check(a, fname, "A", 1, NULL, err);
  if (rc) return rc;
  if (n == 0) return lt_linalg_named(err, identities(a, out, err), fname);
  lt_tensor *owned = NULL, *res = NULL; /* owned: base when it is not a */
  if (n < 0 && (rc = lt_linalg_inv(a, fname, 1, &owned, NULL, err))) return rc;
  const lt_tensor *base = owned ? owned : a;
  uint64_t e = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
  for (;;) { /* res = the product of base^(2^k) over the bits k of e */
    if (e & 1) {
      lt_tensor *t = NULL;
      rc = res ? product(res, base, fname, &t, err) : lt_clone(base, &t, err);
      lt_tensor_free(res), res = t;
      if (rc) break;
    }
    if (!(e >>= 1)) break;
    lt_tensor *sq = NULL;
    rc = product(base, base, fname, &sq, err);
    lt_tensor_free(owned), owned = sq, base = sq;
    if (rc) break;
  }
  lt_tensor_free(owned);
  return lt_linalg_named(err, lt_give(rc, res, out), fname);
}

/* }====== */
