/*
 * lt_linalg_decomp.c -- lt.linalg's decompositions through LAPACK: qr (geqrf, orgqr/ungqr), svd
 * and svdvals (gesdd), eigh and eigvalsh (syevd/heevd), eig and eigvals (geev), lstsq (gelsd);
 * see lt_linalg_decomp.h. Lua-free.
 *
 * Each function makes the copy LAPACK overwrites (the input is never written), then runs one
 * batch loop between lt_lapack_enter and lt_lapack_leave. Where the maths allows, the copy is
 * the row-major one, which LAPACK reads as the transpose: the SVD of A^T = V S U^T gives U and
 * Vh of A directly in row-major order (gesdd's vt is U, its u is Vh). eigh transposes each
 * square matrix of its copy in place, before and after syevd: reading the row-major copy as
 * conj(A) with the other triangle would save nothing (the vectors need a transpose anyway) and
 * would give other signs and phases than torch's call on column-major A. qr, eig and lstsq take
 * the column-major copy (lt_lapack_fortran) and copy their factors out row by row. (The LQ
 * factorization of the row-major copy, A^T = R^T Q^T, gives R and Q row-major without that copy,
 * but OpenBLAS's gelqf and orglq are slower than its geqrf and orgqr: 0.057 s against 0.039 s for a
 * 2000 x 200 float64 qr, 0.94 s against 0.63 s for its complete Q, measured on one thread.)
 *
 * Calls lt_lapack.c, lt_copy.c, lt_tensor.c. Called by the binding (lua_linalg_decomp.c) and
 * lt_linalg_norm.c.
 */
#include "lt_linalg_decomp.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_blas.h"
#include "lt_copy.h"
#include "lt_lapack.h"

/* {====== shared ====== */

int64_t lt_linalg_batch(const lt_tensor *a) {
  int64_t nb = 1;
  for (int d = 0; d < a->ndim - 2; d++) nb *= a->shape[d];
  return nb;
}

int lt_linalg_check(const lt_tensor *a, const char *fname, int square, lt_dtype *dt,
                    lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  if (a->ndim < 2)
    return lt_fail(err, LT_EARG, "%s: the input tensor A must have at least 2 dimensions", fname);
  long long m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
  if (square && m != n)
    return lt_fail(err, LT_EARG,
                   "%s: A must be batches of square matrices, but they are %lld by %lld matrices",
                   fname, m, n);
  if ((rc = lt_lapack_dtype(a->dtype, fname, dt, err))) return rc;
  int64_t mn;
  if (lt_size_mul(m, n, &mn, NULL) || !lt_blas_fits(mn))
    return lt_fail(err, LT_ERANGE,
                   "%s: %lld x %lld matrices are too large for LAPACK (at most 2^31 - 1 "
                   "elements)",
                   fname, m, n);
  return LT_OK;
}

void lt_linalg_conj(lt_dtype dt, void *p, int64_t n) {
  if (dt == LT_COMPLEX64)
    for (int64_t i = 0; i < n; i++) ((float *)p)[2 * i + 1] = -((float *)p)[2 * i + 1];
  else if (dt == LT_COMPLEX128)
    for (int64_t i = 0; i < n; i++) ((double *)p)[2 * i + 1] = -((double *)p)[2 * i + 1];
}

static size_t esize(lt_dtype dt) { return lt_dtypes[dt].size; }

/* dst (rows x cols, row-major) = src (column-major, leading dimension ld). */
static void to_rows(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ld, size_t es) {
#define TO_ROWS(T)                     \
  for (int64_t i = 0; i < rows; i++)   \
    for (int64_t j = 0; j < cols; j++) \
      memcpy(dst + (i * cols + j) * sizeof(T), src + (i + j * ld) * sizeof(T), sizeof(T));
  if (es == 4) {
    TO_ROWS(float)
  } else if (es == 8) {
    TO_ROWS(double)
  } else {
    TO_ROWS(double[2])
  }
#undef TO_ROWS
}

/* Transposes the n x n matrix at p in place. */
static void transpose_square(char *p, int64_t n, size_t es) {
  char tmp[16];
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i + 1; j < n; j++) {
      char *x = p + (i * n + j) * es, *y = p + (j * n + i) * es;
      memcpy(tmp, x, es);
      memcpy(x, y, es);
      memcpy(y, tmp, es);
    }
}

/* Whether the count elements at p (dtype dt) are all finite. */
static int all_finite(lt_dtype dt, const void *p, int64_t count) {
  int cpx = lt_dtypes[dt].is_complex;
  int64_t nr = cpx ? 2 * count : count;
  if (lt_lapack_real(dt) == LT_FLOAT32) {
    for (int64_t i = 0; i < nr; i++)
      if (!isfinite(((const float *)p)[i])) return 0;
  } else {
    for (int64_t i = 0; i < nr; i++)
      if (!isfinite(((const double *)p)[i])) return 0;
  }
  return 1;
}

/* Whether the lower (row-major: i >= j) or upper triangle of the n x n matrix at p is finite:
   the elements eigh reads. */
static int triangle_finite(lt_dtype dt, const char *p, int64_t n, int upper) {
  size_t es = esize(dt);
  for (int64_t i = 0; i < n; i++) {
    int64_t j0 = upper ? i : 0, j1 = upper ? n : i + 1;
    if (!all_finite(dt, p + (i * n + j0) * (int64_t)es, j1 - j0)) return 0;
  }
  return 1;
}

/* A new tensor of dt (zero-filled when zero): the nb sizes of batch, then the nt sizes of
   tail. */
static int new_shaped(lt_dtype dt, const int64_t *batch, int nb, int nt, const int64_t *tail,
                      int zero, lt_tensor **out, lt_error *err) {
  int64_t shape[LT_MAX_NDIM + 2];
  if (nb) memcpy(shape, batch, (size_t)nb * sizeof shape[0]);
  if (nt) memcpy(shape + nb, tail, (size_t)nt * sizeof shape[0]);
  return lt_tensor_new(dt, nb + nt, shape, zero, out, err);
}

/* The same with the batch dims of a (its dims but the last two). */
static int new_batched(lt_dtype dt, const lt_tensor *a, int nt, const int64_t *tail, int zero,
                       lt_tensor **out, lt_error *err) {
  return new_shaped(dt, a->shape, a->ndim - 2, nt, tail, zero, out, err);
}

/* The failure of a LAPACK call that is not the matrix's: no memory for the workspace, or an
   argument the routine refused (a bug here). */
static int lapack_fail(lt_error *err, const char *fname, const char *routine, int info) {
  if (info == LT_LAPACK_NOMEM)
    return lt_fail(err, LT_ENOMEM, "%s: not enough memory for LAPACK's workspace", fname);
  return lt_fail(err, LT_EARG, "%s: LAPACK's %s refused argument %d", fname, routine, -info);
}

int lt_linalg_named(lt_error *err, int rc, const char *fname) {
  size_t len = strlen(fname);
  if (rc && err && strncmp(err->msg, fname, len) != 0) {
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    lt_fail(err, rc, "%s: %s", fname, msg);
  }
  return rc;
}

/* The end of a function with n results res: on success each goes to its out (freed when that
   is NULL: a result not asked for), on failure all are freed and err names fname. */
static int hand_out(int rc, const char *fname, lt_error *err, int n, lt_tensor **res,
                    lt_tensor ***outs) {
  for (int i = 0; i < n; i++)
    if (rc == LT_OK && outs[i])
      *outs[i] = res[i];
    else
      lt_tensor_free(res[i]);
  return lt_linalg_named(err, rc, fname);
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Whether rows * cols fits LAPACK's integers. */
static int fits2(int64_t rows, int64_t cols) {
  int64_t p;
  return lt_size_mul(rows, cols, &p, NULL) == LT_OK && lt_blas_fits(p);
}

static int too_large(lt_error *err, const char *fname) {
  return lt_fail(err, LT_ERANGE,
                 "%s: the result is too large for LAPACK (at most 2^31 - 1 "
                 "elements a matrix)",
                 fname);
}

/* }====== */

/* {====== qr ====== */

/* The batch loop of qr over the column-major copy f: R (rows rr) and, unless mode R, Q (qc
   columns) of each matrix; w a scratch of m x wc elements when wc > n (complete Q of a wide
   matrix needs the room), tau k elements. */
static int qr_loop(lt_dtype dt, const lt_tensor *f, int64_t m, int64_t n, int64_t qc, int64_t rr,
                   char *w, char *tau, lt_tensor *tq, lt_tensor *tr, lt_error *err) {
  static const char fn[] = "linalg.qr";
  size_t es = esize(dt);
  int64_t k = min64(m, n), nb = lt_linalg_batch(f);
  int lda = (int)max64(1, m), info = 0;
  if (k == 0 && (!tq || m == 0 || qc == 0)) return LT_OK; /* nothing, however many batches */
  for (int64_t b = 0; b < nb; b++) {
    char *a = lt_data(f) + b * m * n * (int64_t)es;
    if (w) {
      memcpy(w, a, (size_t)(m * n) * es);
      a = w;
    }
    if (k > 0 && (info = lt_lapack_geqrf(dt, (int)m, (int)n, a, lda, tau)))
      return lapack_fail(err, fn, "geqrf", info);
    char *r = lt_data(tr) + b * rr * n * (int64_t)es; /* zero-filled: the lower part stays */
    for (int64_t i = 0; i < rr && i < k; i++)
      for (int64_t j = i; j < n; j++)
        memcpy(r + (i * n + j) * (int64_t)es, a + (i + j * m) * (int64_t)es, es);
    if (!tq || m == 0 || qc == 0) continue;
    if ((info = lt_lapack_orgqr(dt, (int)m, (int)qc, (int)k, a, lda, tau)))
      return lapack_fail(err, fn, "orgqr", info);
    to_rows(lt_data(tq) + b * m * qc * (int64_t)es, a, m, qc, m, es);
  }
  return LT_OK;
}

int lt_linalg_qr(const lt_tensor *a, lt_qr_mode mode, lt_tensor **q, lt_tensor **r, lt_error *err) {
  static const char fn[] = "linalg.qr";
  lt_dtype dt;
  int rc = lt_linalg_check(a, fn, 0, &dt, err);
  if (rc || (rc = lt_lapack_ready(fn, err))) return rc;
  int nd = a->ndim;
  int64_t m = a->shape[nd - 2], n = a->shape[nd - 1], k = min64(m, n);
  int64_t qc = mode == LT_QR_COMPLETE ? m : mode == LT_QR_R ? 0 : k;
  int64_t rr = mode == LT_QR_COMPLETE ? m : k, wc = max64(n, qc);
  if (!fits2(m, wc) || !fits2(rr, n)) return too_large(err, fn);
  size_t es = esize(dt);
  lt_tensor *f = NULL, *tq = NULL, *tr = NULL;
  char *w = wc > n ? malloc((size_t)(m * wc) * es) : NULL, *tau = malloc((size_t)(k + 1) * es);
  int64_t qs[2] = {m, qc}, rs[2] = {rr, n}, empty = 0;
  if (!tau || (wc > n && !w))
    rc = lt_fail(err, LT_ENOMEM, "%s: not enough memory for the factorization", fn);
  if (rc == LT_OK)
    rc = mode == LT_QR_R ? lt_tensor_new(dt, 1, &empty, 0, &tq, err)
                         : new_batched(dt, a, 2, qs, 0, &tq, err);
  if (rc == LT_OK) rc = new_batched(dt, a, 2, rs, 1, &tr, err);
  if (rc == LT_OK) rc = lt_lapack_fortran(a, dt, &f, err);
  if (rc == LT_OK && (rc = lt_lapack_enter(fn, err)) == LT_OK) {
    rc = qr_loop(dt, f, m, n, qc, rr, w, tau, mode == LT_QR_R ? NULL : tq, tr, err);
    lt_lapack_leave();
  }
  free(w);
  free(tau);
  lt_tensor_free(f);
  lt_tensor *res[2] = {tq, tr}, **outs[2] = {q, r};
  return hand_out(rc, fn, err, 2, res, outs);
}

/* }====== */

/* {====== svd ====== */

/* Writes the identity into the rows x cols matrix at p (zero-filled). */
static void set_identity(lt_dtype dt, char *p, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows && i < cols; i++) {
    char *e = p + (i * cols + i) * (int64_t)esize(dt);
    if (lt_lapack_real(dt) == LT_FLOAT32)
      *(float *)(void *)e = 1;
    else
      *(double *)(void *)e = 1;
  }
}

typedef struct {
  lt_dtype dt;
  int64_t m, n, k, ucol, vrow; /* Vh is ucol x n, U m x vrow */
  char jobz;
  int batched;
  const char *fname;
} svd_plan;

/* The batch loop of svd over c, the row-major copy LAPACK reads as the n x m A^T. */
static int svd_loop(const svd_plan *p, lt_tensor *c, lt_tensor *u, lt_tensor *s, lt_tensor *vh,
                    lt_error *err) {
  size_t es = esize(p->dt), rs = esize(lt_lapack_real(p->dt));
  int64_t nb = lt_linalg_batch(c), m = p->m, n = p->n;
  if (p->k == 0 && (!u || m * p->vrow == 0) && (!vh || p->ucol * n == 0))
    return LT_OK; /* nothing, however many batches */
  for (int64_t b = 0; b < nb; b++) {
    char *a = lt_data(c) + b * m * n * (int64_t)es;
    char *ub = u ? lt_data(u) + b * m * p->vrow * (int64_t)es : NULL;
    char *vb = vh ? lt_data(vh) + b * p->ucol * n * (int64_t)es : NULL;
    if (p->k == 0) { /* nothing to factor: the identities torch gives */
      if (ub) set_identity(p->dt, ub, m, p->vrow);
      if (vb) set_identity(p->dt, vb, p->ucol, n);
      continue;
    }
    if (!all_finite(p->dt, a, m * n))
      return lt_lapack_fail_at(err, p->fname, p->batched, b,
                               "The algorithm failed to converge because the input matrix "
                               "contained non-finite values.");
    int info = lt_lapack_gesdd(p->dt, p->jobz, (int)n, (int)m, a, (int)n,
                               lt_data(s) + b * p->k * (int64_t)rs, vb, (int)n, ub,
                               (int)max64(1, p->vrow));
    if (info > 0)
      return lt_lapack_fail_at(err, p->fname, p->batched, b,
                               "The algorithm failed to converge because the input matrix is "
                               "ill-conditioned or has too many repeated singular values (error "
                               "code: %d).",
                               info);
    if (info) return lapack_fail(err, p->fname, "gesdd", info);
  }
  return LT_OK;
}

int lt_linalg_svd(const lt_tensor *a, int full, lt_tensor **u, lt_tensor **s, lt_tensor **vh,
                  const char *fname, lt_error *err) {
  svd_plan p = {.fname = fname, .batched = a->ndim > 2};
  int rc = lt_linalg_check(a, fname, 0, &p.dt, err);
  if (rc || (rc = lt_lapack_ready(fname, err))) return rc;
  int uv = u != NULL;
  p.m = a->shape[a->ndim - 2], p.n = a->shape[a->ndim - 1], p.k = min64(p.m, p.n);
  p.ucol = full ? p.n : p.k, p.vrow = full ? p.m : p.k;
  p.jobz = !uv ? 'N' : full ? 'A' : 'S';
  if (uv && (!fits2(p.m, p.vrow) || !fits2(p.ucol, p.n))) return too_large(err, fname);
  lt_tensor *c = NULL, *tu = NULL, *ts = NULL, *tv = NULL;
  int64_t us[2] = {p.m, p.vrow}, vs[2] = {p.ucol, p.n};
  rc = new_batched(lt_lapack_real(p.dt), a, 1, &p.k, 0, &ts, err);
  if (rc == LT_OK && uv) rc = new_batched(p.dt, a, 2, us, p.k == 0, &tu, err);
  if (rc == LT_OK && uv) rc = new_batched(p.dt, a, 2, vs, p.k == 0, &tv, err);
  if (rc == LT_OK) rc = lt_cast(a, p.dt, &c, err);
  if (rc == LT_OK && (rc = lt_lapack_enter(fname, err)) == LT_OK) {
    rc = svd_loop(&p, c, tu, ts, tv, err);
    lt_lapack_leave();
  }
  lt_tensor_free(c);
  lt_tensor *res[3] = {tu, ts, tv}, **outs[3] = {u, s, vh};
  return hand_out(rc, fname, err, 3, res, outs);
}

/* }====== */

/* {====== eigh ====== */

int lt_linalg_eigh(const lt_tensor *a, int upper, lt_tensor **w, lt_tensor **v, const char *fname,
                   lt_error *err) {
  lt_dtype dt;
  int rc = lt_linalg_check(a, fname, 1, &dt, err);
  if (rc || (rc = lt_lapack_ready(fname, err))) return rc;
  int64_t n = a->shape[a->ndim - 1], nb = lt_linalg_batch(a);
  size_t es = esize(dt), rs = esize(lt_lapack_real(dt));
  lt_tensor *tw = NULL, *c = NULL;
  rc = new_batched(lt_lapack_real(dt), a, 1, &n, 0, &tw, err);
  if (rc == LT_OK) rc = lt_cast(a, dt, &c, err); /* transposed in place below */
  if (rc == LT_OK && (rc = lt_lapack_enter(fname, err)) == LT_OK) {
    for (int64_t b = 0; b < nb && n > 0 && rc == LT_OK; b++) {
      char *p = lt_data(c) + b * n * n * (int64_t)es;
      if (!triangle_finite(dt, p, n, upper)) {
        rc = lt_lapack_fail_at(err, fname, a->ndim > 2, b,
                               "The algorithm failed to converge because the input matrix "
                               "contained non-finite values.");
        break;
      }
      transpose_square(p, n, es); /* column-major A: torch's call, its signs and phases */
      int info = lt_lapack_syevd(dt, v ? 'V' : 'N', upper ? 'U' : 'L', (int)n, p, (int)n,
                                 lt_data(tw) + b * n * (int64_t)rs);
      if (info > 0)
        rc = lt_lapack_fail_at(err, fname, a->ndim > 2, b,
                               "The algorithm failed to converge because the input matrix is "
                               "ill-conditioned or has too many repeated eigenvalues (error "
                               "code: %d).",
                               info);
      else if (info)
        rc = lapack_fail(err, fname, "syevd", info);
      else if (v) /* the eigenvectors, column-major: row-major */
        transpose_square(p, n, es);
    }
    lt_lapack_leave();
  }
  lt_tensor *res[2] = {tw, c}, **outs[2] = {w, v};
  return hand_out(rc, fname, err, 2, res, outs);
}

/* }====== */

/* {====== eig ====== */

static lt_dtype complex_of(lt_dtype dt) {
  return dt == LT_FLOAT32 ? LT_COMPLEX64 : dt == LT_FLOAT64 ? LT_COMPLEX128 : dt;
}

/* The complex n x n eigenvectors (row-major, at out) of a real matrix from geev's column-major
   vr and its eigenvalues w (interleaved): a pair's vectors are vr_j +- i vr_j+1. */
#define EXPAND(T)                                                      \
  static void expand_##T(T *out, const T *vr, const T *w, int64_t n) { \
    for (int64_t j = 0; j < n; j++) {                                  \
      int pair = w[2 * j + 1] != 0 && j + 1 < n;                       \
      for (int64_t i = 0; i < n; i++) {                                \
        T re = vr[i + j * n], im = pair ? vr[i + (j + 1) * n] : 0;     \
        out[2 * (i * n + j)] = re;                                     \
        out[2 * (i * n + j) + 1] = im;                                 \
        if (pair) {                                                    \
          out[2 * (i * n + j + 1)] = re;                               \
          out[2 * (i * n + j + 1) + 1] = -im;                          \
        }                                                              \
      }                                                                \
      j += pair;                                                       \
    }                                                                  \
  }
EXPAND(float)
EXPAND(double)
#undef EXPAND

static int eig_loop(lt_dtype dt, const lt_tensor *f, int64_t n, char *vr, lt_tensor *tw,
                    lt_tensor *tv, const char *fname, lt_error *err) {
  size_t es = esize(dt), ces = esize(complex_of(dt));
  int64_t nb = lt_linalg_batch(f);
  for (int64_t b = 0; b < nb && n > 0; b++) {
    char *a = lt_data(f) + b * n * n * (int64_t)es, *wb = lt_data(tw) + b * n * (int64_t)ces;
    if (!all_finite(dt, a, n * n))
      return lt_fail(err, LT_EARG, "%s: input tensor should not contain infs or NaNs", fname);
    int info = lt_lapack_geev(dt, 'N', tv ? 'V' : 'N', (int)n, a, (int)n, wb, NULL, 1, vr, (int)n);
    if (info > 0)
      return lt_lapack_fail_at(err, fname, f->ndim > 2, b,
                               "The QR algorithm failed to compute all the eigenvalues (error "
                               "code: %d).",
                               info);
    if (info) return lapack_fail(err, fname, "geev", info);
    if (!tv) continue;
    char *vb = lt_data(tv) + b * n * n * (int64_t)ces;
    if (dt == LT_FLOAT32)
      expand_float((float *)(void *)vb, (const float *)(void *)vr, (const float *)(void *)wb, n);
    else if (dt == LT_FLOAT64)
      expand_double((double *)(void *)vb, (const double *)(void *)vr, (const double *)(void *)wb,
                    n);
    else
      to_rows(vb, vr, n, n, n, es);
  }
  return LT_OK;
}

int lt_linalg_eig(const lt_tensor *a, lt_tensor **w, lt_tensor **v, const char *fname,
                  lt_error *err) {
  lt_dtype dt;
  int rc = lt_linalg_check(a, fname, 1, &dt, err);
  if (rc || (rc = lt_lapack_ready(fname, err))) return rc;
  int64_t n = a->shape[a->ndim - 1], sq[2] = {n, n};
  lt_tensor *f = NULL, *tw = NULL, *tv = NULL;
  char *vr = v ? malloc((size_t)(n * n + 1) * esize(dt)) : NULL;
  if (v && !vr) return lt_fail(err, LT_ENOMEM, "%s: not enough memory for the eigenvectors", fname);
  rc = new_batched(complex_of(dt), a, 1, &n, 0, &tw, err);
  if (rc == LT_OK && v) rc = new_batched(complex_of(dt), a, 2, sq, 0, &tv, err);
  if (rc == LT_OK) rc = lt_lapack_fortran(a, dt, &f, err);
  if (rc == LT_OK && (rc = lt_lapack_enter(fname, err)) == LT_OK) {
    rc = eig_loop(dt, f, n, vr, tw, tv, fname, err);
    lt_lapack_leave();
  }
  free(vr);
  lt_tensor_free(f);
  lt_tensor *res[2] = {tw, tv}, **outs[2] = {w, v};
  return hand_out(rc, fname, err, 2, res, outs);
}

/* }====== */

/* {====== lstsq ====== */

typedef struct {
  lt_dtype dt;
  int64_t m, n, k, nrhs, ldb;
  double rcond;
  int batched;
} lstsq_plan;

/* The batch loop of lstsq over fa and fb, the column-major copies of A and B (expanded to the
   broadcast batch): x, the residuals res (squared norms of the rows n..m-1 of each solved
   column), rank and the singular values s. *full: whether every matrix had rank n. bw: a
   scratch of ldb x nrhs elements. */
static int lstsq_loop(const lstsq_plan *p, const lt_tensor *fa, const lt_tensor *fb, char *bw,
                      lt_tensor *x, lt_tensor *res, lt_tensor *rank, lt_tensor *s, int *full,
                      lt_error *err) {
  static const char fn[] = "linalg.lstsq";
  size_t es = esize(p->dt), rs = esize(lt_lapack_real(p->dt));
  int64_t m = p->m, n = p->n, nrhs = p->nrhs, nb = lt_linalg_batch(fa);
  int cpx = lt_dtypes[p->dt].is_complex, f32 = lt_lapack_real(p->dt) == LT_FLOAT32;
  for (int64_t b = 0; b < nb; b++) {
    char *a = lt_data(fa) + b * m * n * (int64_t)es, *bb = lt_data(fb) + b * m * nrhs * (int64_t)es;
    memset(bw, 0, (size_t)(p->ldb * nrhs) * es);
    for (int64_t j = 0; j < nrhs; j++)
      memcpy(bw + j * p->ldb * (int64_t)es, bb + j * m * (int64_t)es, (size_t)m * es);
    int rk = 0;
    if (!all_finite(p->dt, a, m * n)) /* gelsd would refuse it as a bad argument */
      return lt_lapack_fail_at(err, fn, p->batched, b,
                               "The least squares solution could not be computed because the "
                               "input matrix contained non-finite values.");
    if (p->k > 0) {
      int info = lt_lapack_gelsd(p->dt, (int)m, (int)n, (int)nrhs, a, (int)m, bw, (int)p->ldb,
                                 lt_data(s) + b * p->k * (int64_t)rs, p->rcond, &rk);
      if (info > 0)
        return lt_lapack_fail_at(err, fn, p->batched, b,
                                 "The algorithm for computing the SVD failed to converge (error "
                                 "code: %d).",
                                 info);
      if (info) return lapack_fail(err, fn, "gelsd", info);
    }
    ((int64_t *)(void *)lt_data(rank))[b] = rk;
    *full = *full && rk == n;
    to_rows(lt_data(x) + b * n * nrhs * (int64_t)es, bw, n, nrhs, p->ldb, es);
    char *rb = lt_data(res) + b * nrhs * (int64_t)rs;
    for (int64_t j = 0; j < nrhs; j++) {
      double sum = 0;
      int64_t parts = cpx ? 2 : 1;
      for (int64_t i = n * parts; i < m * parts; i++) {
        int64_t at = j * p->ldb * parts + i;
        double v = f32 ? ((const float *)(void *)bw)[at] : ((const double *)(void *)bw)[at];
        sum += v * v;
      }
      if (f32)
        ((float *)(void *)rb)[j] = (float)sum;
      else
        ((double *)(void *)rb)[j] = sum;
    }
  }
  return LT_OK;
}

/* The broadcast batch shape of A (na batch dims) and B (nb) into shape; its length, or -1. */
static int broadcast_batch(const int64_t *as, int na, const int64_t *bs, int nb, int64_t *shape) {
  int nd = na > nb ? na : nb;
  for (int i = 0; i < nd; i++) {
    int64_t x = i < nd - na ? 1 : as[i - (nd - na)], y = i < nd - nb ? 1 : bs[i - (nd - nb)];
    if (x != y && x != 1 && y != 1) return -1;
    shape[i] = x == 1 ? y : x;
  }
  return nd;
}

/* A and B as the column-major copies of their matrices over the broadcast batch (fa, fb) and
   the sizes of the problem (p). */
static int lstsq_prepare(const lt_tensor *a, const lt_tensor *b, lstsq_plan *p, int64_t *batch,
                         int *nbatch, lt_tensor **fa, lt_tensor **fb, lt_error *err) {
  static const char fn[] = "linalg.lstsq";
  int rc = lt_check_readable(b, err);
  if (rc) return lt_linalg_named(err, rc, fn);
  if (a->dtype != b->dtype)
    return lt_fail(err, LT_EARG,
                   "%s: expected A and B to have the same dtype, but got A's dtype %s and B's "
                   "dtype %s",
                   fn, lt_dtype_name(a->dtype), lt_dtype_name(b->dtype));
  int vec = b->ndim == a->ndim - 1, bnd = vec ? b->ndim - 1 : b->ndim - 2;
  if (bnd < 0)
    return lt_fail(err, LT_EARG, "%s: the input tensor B must have at least 2 dimensions", fn);
  p->m = a->shape[a->ndim - 2], p->n = a->shape[a->ndim - 1], p->k = min64(p->m, p->n);
  p->nrhs = vec ? 1 : b->shape[b->ndim - 1];
  int64_t bm = b->shape[bnd];
  if (bm != p->m)
    return lt_fail(err, LT_EARG, "%s: A has %lld rows but B has %lld (%s)", fn, (long long)p->m,
                   (long long)bm, vec ? "B is a batch of vectors: it has one dim less than A" : "");
  if ((*nbatch = broadcast_batch(a->shape, a->ndim - 2, b->shape, bnd, batch)) < 0)
    return lt_fail(err, LT_EARG, "%s: the batch dims of A and B do not broadcast", fn);
  p->ldb = max64(1, max64(p->m, p->n));
  if (!fits2(p->ldb, p->nrhs) || !fits2(p->n, p->nrhs)) return too_large(err, fn);
  int nd = *nbatch + 2;
  lt_tensor *bv = NULL, *ae = NULL, *be = NULL;
  batch[nd - 2] = p->m, batch[nd - 1] = p->n;
  rc = lt_expand(a, nd, batch, &ae, err);
  batch[nd - 1] = p->nrhs;
  if (rc == LT_OK) rc = vec ? lt_unsqueeze(b, b->ndim, &bv, err) : lt_tensor_alias(b, &bv, err);
  if (rc == LT_OK) rc = lt_expand(bv, nd, batch, &be, err);
  if (rc == LT_OK) rc = lt_lapack_fortran(ae, p->dt, fa, err);
  if (rc == LT_OK) rc = lt_lapack_fortran(be, p->dt, fb, err);
  lt_tensor_free(bv);
  lt_tensor_free(ae);
  lt_tensor_free(be);
  return lt_linalg_named(err, rc, fn);
}

/* Replaces *t by an empty 1-d tensor of its dtype. */
static int make_empty(lt_tensor **t, lt_error *err) {
  int64_t zero = 0;
  lt_tensor *e;
  int rc = lt_tensor_new((*t)->dtype, 1, &zero, 0, &e, err);
  if (rc == LT_OK) lt_tensor_free(*t), *t = e;
  return rc;
}

int lt_linalg_lstsq(const lt_tensor *a, const lt_tensor *b, double rcond, lt_lstsq_driver driver,
                    lt_tensor **x, lt_tensor **residuals, lt_tensor **rank, lt_tensor **sv,
                    lt_error *err) {
  static const char fn[] = "linalg.lstsq";
  lstsq_plan p = {.batched = 0};
  int rc = lt_linalg_check(a, fn, 0, &p.dt, err);
  if (rc || (rc = lt_lapack_ready(fn, err))) return rc;
  int64_t batch[LT_MAX_NDIM + 2];
  int nbatch = 0, full = 1, vec = b->ndim == a->ndim - 1;
  lt_tensor *fa = NULL, *fb = NULL, *tx = NULL, *tres = NULL, *trank = NULL, *ts = NULL;
  if ((rc = lstsq_prepare(a, b, &p, batch, &nbatch, &fa, &fb, err))) return rc;
  p.batched = nbatch > 0;
  lt_dtype rdt = lt_lapack_real(p.dt);
  p.rcond = rcond == rcond ? rcond
                           : (rdt == LT_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16) *
                                 (double)max64(p.m, p.n);
  int64_t xs[2] = {p.n, p.nrhs};
  char *bw = malloc((size_t)(p.ldb * p.nrhs + 1) * esize(p.dt));
  if (!bw) rc = lt_fail(err, LT_ENOMEM, "%s: not enough memory for the solution", fn);
  if (rc == LT_OK) rc = new_shaped(p.dt, batch, nbatch, vec ? 1 : 2, xs, 0, &tx, err);
  if (rc == LT_OK) rc = new_shaped(rdt, batch, nbatch, 1, &p.nrhs, 0, &tres, err);
  if (rc == LT_OK) rc = new_shaped(LT_INT64, batch, nbatch, 0, NULL, 0, &trank, err);
  if (rc == LT_OK) rc = new_shaped(rdt, batch, nbatch, 1, &p.k, 0, &ts, err);
  if (rc == LT_OK && (rc = lt_lapack_enter(fn, err)) == LT_OK) {
    rc = lstsq_loop(&p, fa, fb, bw, tx, tres, trank, ts, &full, err);
    lt_lapack_leave();
  }
  free(bw);
  lt_tensor_free(fa);
  lt_tensor_free(fb);
  /* what the driver returns, as torch */
  if (rc == LT_OK && !(p.m > p.n && driver != LT_LSTSQ_GELSY && (driver == LT_LSTSQ_GELS || full)))
    rc = make_empty(&tres, err);
  if (rc == LT_OK && driver == LT_LSTSQ_GELS) rc = make_empty(&trank, err);
  if (rc == LT_OK && driver != LT_LSTSQ_GELSD && driver != LT_LSTSQ_GELSS)
    rc = make_empty(&ts, err);
  lt_tensor *res[4] = {tx, tres, trank, ts}, **outs[4] = {x, residuals, rank, sv};
  return hand_out(rc, fn, err, 4, res, outs);
}

/* }====== */
