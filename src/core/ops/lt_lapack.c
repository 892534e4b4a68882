/*
 * lt_lapack.c -- ltensor's calls into LAPACK (see lt_lapack.h): finding the routines, the guard,
 * the workspace queries, and the layout helpers of lt.linalg's core. Lua-free.
 *
 * The routines are LAPACK's Fortran entry points (sgetrf_, ..., with 32-bit integers: the LP64
 * interface Debian's OpenBLAS and liblapack3 export), declared here from LAPACK's documented
 * argument lists: every argument by address, and after them one hidden length per character
 * argument, which gfortran-built libraries read (OpenBLAS's own C routines ignore them).
 */
#include "lt_lapack.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_blas.h"
#include "lt_copy.h"
#include "lt_os.h"

#ifndef LTENSOR_LAPACK_LIBS
#if defined(_WIN32)
#define LTENSOR_LAPACK_LIBS "liblapack.dll"
#else
#define LTENSOR_LAPACK_LIBS "liblapack.so.3"
#endif
#endif

/* {====== the routines ====== */

typedef size_t lt_flen;   /* a hidden character length */
typedef void lt_fn(void); /* any routine, as stored */
typedef void f_getrf(const int *, const int *, void *, const int *, int *, int *);
typedef void f_getrs(const char *, const int *, const int *, const void *, const int *, const int *,
                     void *, const int *, int *, lt_flen);
typedef void f_getri(const int *, void *, const int *, const int *, void *, const int *, int *);
typedef void f_potrf(const char *, const int *, void *, const int *, int *, lt_flen);
typedef void f_potrs(const char *, const int *, const int *, const void *, const int *, void *,
                     const int *, int *, lt_flen);
typedef void f_trtrs(const char *, const char *, const char *, const int *, const int *,
                     const void *, const int *, void *, const int *, int *, lt_flen, lt_flen,
                     lt_flen);
typedef void f_geqrf(const int *, const int *, void *, const int *, void *, void *, const int *,
                     int *);
typedef void f_orgqr(const int *, const int *, const int *, void *, const int *, const void *,
                     void *, const int *, int *);
typedef void f_gesdd_r(const char *, const int *, const int *, void *, const int *, void *, void *,
                       const int *, void *, const int *, void *, const int *, int *, int *,
                       lt_flen);
typedef void f_gesdd_c(const char *, const int *, const int *, void *, const int *, void *, void *,
                       const int *, void *, const int *, void *, const int *, void *, int *, int *,
                       lt_flen);
typedef void f_syevd_r(const char *, const char *, const int *, void *, const int *, void *, void *,
                       const int *, int *, const int *, int *, lt_flen, lt_flen);
typedef void f_syevd_c(const char *, const char *, const int *, void *, const int *, void *, void *,
                       const int *, void *, const int *, int *, const int *, int *, lt_flen,
                       lt_flen);
typedef void f_geev_r(const char *, const char *, const int *, void *, const int *, void *, void *,
                      void *, const int *, void *, const int *, void *, const int *, int *, lt_flen,
                      lt_flen);
typedef void f_geev_c(const char *, const char *, const int *, void *, const int *, void *, void *,
                      const int *, void *, const int *, void *, const int *, void *, int *, lt_flen,
                      lt_flen);
typedef void f_gelsd_r(const int *, const int *, const int *, void *, const int *, void *,
                       const int *, void *, const void *, int *, void *, const int *, int *, int *);
typedef void f_trsm(const char *, const char *, const char *, const char *, const int *,
                    const int *, const void *, const void *, const int *, void *, const int *,
                    lt_flen, lt_flen, lt_flen, lt_flen);
typedef void f_gelsd_c(const int *, const int *, const int *, void *, const int *, void *,
                       const int *, void *, const void *, int *, void *, const int *, void *, int *,
                       int *);

/* The routines by name: the real dtypes' (s, d) and the complex ones' (c, z), where they
   differ. */
/* clang-format off */
#define LT_LAPACK_ROUTINES(X)                                                   \
  X(getrf, "getrf", "getrf") X(getrs, "getrs", "getrs") X(getri, "getri", "getri") \
  X(potrf, "potrf", "potrf") X(potrs, "potrs", "potrs") X(trtrs, "trtrs", "trtrs") \
  X(geqrf, "geqrf", "geqrf") X(orgqr, "orgqr", "ungqr") X(gesdd, "gesdd", "gesdd") \
  X(syevd, "syevd", "heevd") X(geev, "geev", "geev") X(gelsd, "gelsd", "gelsd") \
  X(trsm, "trsm", "trsm")
/* clang-format on */

/* The four entry points of each routine, by slot (s, d, c, z). */
static struct {
#define LT_X_FIELD(r, re, cx) lt_fn *r[4];
  LT_LAPACK_ROUTINES(LT_X_FIELD)
#undef LT_X_FIELD
} lp;

static atomic_int found; /* 1 once every routine was found */
static int from_blas;    /* found in the BLAS library (its guard applies) */
static const char *why;  /* why not, for the error */
static pthread_mutex_t find_m = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int guarded; /* this thread's run holds the BLAS guard */

static int slot(lt_dtype dt) {
  switch (dt) {
    case LT_FLOAT32: return 0;
    case LT_FLOAT64: return 1;
    case LT_COMPLEX64: return 2;
    default: return 3;
  }
}

#ifdef LTENSOR_HAVE_BLAS
/* Looks every routine up with sym (a library's lookup); 1 when all are there. */
static int take_all(void *(*sym)(void *, const char *), void *lib) {
  static const char pre[4] = {'s', 'd', 'c', 'z'};
  char name[16];
  int all = 1;
#define LT_X_SYM(r, re, cx)                                        \
  for (int k = 0; k < 4; k++) {                                    \
    snprintf(name, sizeof name, "%c%s_", pre[k], k < 2 ? re : cx); \
    *(void **)(void *)&lp.r[k] = sym(lib, name);                   \
    all = all && lp.r[k];                                          \
  }
  LT_LAPACK_ROUTINES(LT_X_SYM)
#undef LT_X_SYM
  return all;
}

static void *blas_sym(void *lib, const char *name) { return (void)lib, lt_blas_sym(name); }

/* The BLAS library's LAPACK, else (a BLAS without one) LTENSOR_LAPACK_LIBS. Nothing is opened
   while the BLAS is not loaded: a reference LAPACK links the system's libblas.so.3, which may be
   OpenBLAS, whose threads would then start outside the guard (and spin for ever under an
   address-space limit, the very case in which lt_blas.c defers its load). */
static int find_lapack(void) {
  if (!lt_blas_sym("cblas_dgemm")) {
    why = "the BLAS library is not loaded (absent, or not enough memory for its threads)";
    return 0;
  }
  if (take_all(blas_sym, NULL)) {
    from_blas = 1;
    return 1;
  }
  char names[] = LTENSOR_LAPACK_LIBS;
  for (char *name = names; *name;) {
    char *end = strchr(name, ':'), *next = end ? end + 1 : name + strlen(name);
    if (end) *end = '\0';
    void *h = lt_os_lib_open(name);
    name = next;
    if (h && take_all(lt_os_lib_sym, h)) return 1;
    if (h) lt_os_lib_close(h);
  }
  why = "the BLAS library has none, and " LTENSOR_LAPACK_LIBS " was not found";
  return 0;
}
#else
static int find_lapack(void) {
  why = "ltensor was built without a BLAS";
  return 0;
}
#endif

static int load(void) {
  if (atomic_load_explicit(&found, memory_order_acquire)) return 1;
  pthread_mutex_lock(&find_m);
  int ok = atomic_load(&found) || find_lapack();
  if (ok) atomic_store_explicit(&found, 1, memory_order_release);
  pthread_mutex_unlock(&find_m);
  return ok;
}

const char *lt_lapack_name(void) {
  if (!load()) return NULL;
  return from_blas ? lt_blas_name() : "lapack";
}

int lt_lapack_ready(const char *fname, lt_error *err) {
  if (load()) return LT_OK;
  return lt_fail(err, LT_EARG, "%s: needs LAPACK (%s)", fname, why ? why : "not found");
}

int lt_lapack_enter(const char *fname, lt_error *err) {
  guarded = lt_blas_enter(); /* the BLAS is loaded (find_lapack): its guard covers LAPACK too */
  if (guarded) return LT_OK;
  return lt_fail(err, LT_ENOMEM, "%s: not enough memory for the BLAS's buffers", fname);
}

void lt_lapack_leave(void) {
  if (guarded) lt_blas_leave();
  guarded = 0;
}

/* }====== */

/* {====== layout ====== */

int lt_lapack_dtype(lt_dtype in, const char *fname, lt_dtype *out, lt_error *err) {
  switch (in) {
    case LT_FLOAT32:
    case LT_FLOAT64:
    case LT_COMPLEX64:
    case LT_COMPLEX128: *out = in; return LT_OK;
    case LT_FLOAT16:
    case LT_BFLOAT16: *out = LT_FLOAT32; return LT_OK;
    default:
      return lt_fail(err, LT_EARG,
                     "%s: expected a floating point or complex tensor as input (got %s)", fname,
                     lt_dtype_name(in));
  }
}

lt_dtype lt_lapack_real(lt_dtype dt) {
  return dt == LT_COMPLEX64 ? LT_FLOAT32 : dt == LT_COMPLEX128 ? LT_FLOAT64 : dt;
}

int lt_lapack_fortran(const lt_tensor *a, lt_dtype dt, lt_tensor **out, lt_error *err) {
  int nd = a->ndim;
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, a->shape, (size_t)nd * sizeof shape[0]);
  shape[nd - 2] = a->shape[nd - 1]; /* the transposes, row-major: the matrices column-major */
  shape[nd - 1] = a->shape[nd - 2];
  lt_tensor *t = NULL, *at = NULL;
  int rc = lt_tensor_new(dt, nd, shape, 0, &t, err);
  if (rc == LT_OK) rc = lt_transpose(a, nd - 2, nd - 1, &at, err);
  if (rc == LT_OK) rc = lt_copy(t, at, err);
  if (rc == LT_OK) rc = lt_transpose(t, nd - 2, nd - 1, out, err);
  lt_tensor_free(at);
  lt_tensor_free(t);
  return rc;
}

int lt_lapack_fail_at(lt_error *err, const char *fname, int batched, int64_t k, const char *fmt,
                      ...) {
  if (!err) return LT_EARG;
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (batched)
    return lt_fail(err, LT_EARG, "%s: (Batch element %lld): %s", fname, (long long)k + 1, msg);
  return lt_fail(err, LT_EARG, "%s: %s", fname, msg);
}

/* }====== */

/* {====== calls ====== */

/* Bytes of n elements of dt (n from a workspace query, at least 1). */
static void *work_alloc(lt_dtype dt, double n, int *count) {
  if (!(n >= 1)) n = 1;
  if (n > INT_MAX) return NULL;
  *count = (int)n;
  return malloc((size_t)*count * lt_dtypes[dt].size);
}

/* The size a workspace query wrote (the real part of its first element). */
static double queried(lt_dtype dt, const void *w) {
  if (dt == LT_FLOAT32 || dt == LT_COMPLEX64) return (double)*(const float *)w;
  return *(const double *)w;
}

int lt_lapack_getrf(lt_dtype dt, int m, int n, void *a, int lda, int *ipiv) {
  int info = 0;
  ((f_getrf *)lp.getrf[slot(dt)])(&m, &n, a, &lda, ipiv, &info);
  return info;
}

int lt_lapack_getrs(lt_dtype dt, char trans, int n, int nrhs, const void *a, int lda,
                    const int *ipiv, void *b, int ldb) {
  int info = 0;
  ((f_getrs *)lp.getrs[slot(dt)])(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
  return info;
}

int lt_lapack_getri(lt_dtype dt, int n, void *a, int lda, const int *ipiv) {
  f_getri *f = (f_getri *)lp.getri[slot(dt)];
  double q[2] = {0, 0};
  int info = 0, lwork = -1;
  f(&n, a, &lda, ipiv, q, &lwork, &info);
  void *work = work_alloc(dt, queried(dt, q), &lwork);
  if (!work) return LT_LAPACK_NOMEM;
  f(&n, a, &lda, ipiv, work, &lwork, &info);
  free(work);
  return info;
}

int lt_lapack_potrf(lt_dtype dt, char uplo, int n, void *a, int lda) {
  int info = 0;
  ((f_potrf *)lp.potrf[slot(dt)])(&uplo, &n, a, &lda, &info, 1);
  return info;
}

int lt_lapack_potrs(lt_dtype dt, char uplo, int n, int nrhs, const void *a, int lda, void *b,
                    int ldb) {
  int info = 0;
  ((f_potrs *)lp.potrs[slot(dt)])(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1);
  return info;
}

int lt_lapack_trtrs(lt_dtype dt, char uplo, char trans, char diag, int n, int nrhs, const void *a,
                    int lda, void *b, int ldb) {
  int info = 0;
  ((f_trtrs *)lp.trtrs[slot(dt)])(&uplo, &trans, &diag, &n, &nrhs, a, &lda, b, &ldb, &info, 1, 1,
                                  1);
  return info;
}

int lt_lapack_geqrf(lt_dtype dt, int m, int n, void *a, int lda, void *tau) {
  f_geqrf *f = (f_geqrf *)lp.geqrf[slot(dt)];
  double q[2] = {0, 0};
  int info = 0, lwork = -1;
  f(&m, &n, a, &lda, tau, q, &lwork, &info);
  void *work = work_alloc(dt, queried(dt, q), &lwork);
  if (!work) return LT_LAPACK_NOMEM;
  f(&m, &n, a, &lda, tau, work, &lwork, &info);
  free(work);
  return info;
}

int lt_lapack_orgqr(lt_dtype dt, int m, int n, int k, void *a, int lda, const void *tau) {
  f_orgqr *f = (f_orgqr *)lp.orgqr[slot(dt)];
  double q[2] = {0, 0};
  int info = 0, lwork = -1;
  f(&m, &n, &k, a, &lda, tau, q, &lwork, &info);
  void *work = work_alloc(dt, queried(dt, q), &lwork);
  if (!work) return LT_LAPACK_NOMEM;
  f(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  free(work);
  return info;
}

int lt_lapack_gesdd(lt_dtype dt, char jobz, int m, int n, void *a, int lda, void *s, void *u,
                    int ldu, void *vt, int ldvt) {
  int mn = m < n ? m : n, mx = m < n ? n : m, info = 0, lwork = -1;
  int cpx = dt == LT_COMPLEX64 || dt == LT_COMPLEX128;
  double q[2] = {0, 0}, one[2] = {0, 0};
  if (!u) u = one, ldu = 1; /* jobz 'N' reads neither, but LAPACK checks ldu, ldvt >= 1 */
  if (!vt) vt = one, ldvt = 1;
  int *iwork = malloc(8 * (size_t)(mn > 0 ? mn : 1) * sizeof(int));
  /* LAPACK's bound on the complex routines' real workspace */
  size_t a5 = 5 * (size_t)mn + 7, b2 = 2 * (size_t)mx + 2 * (size_t)mn + 1;
  size_t nr = jobz == 'N' ? 7 * (size_t)mn : (size_t)mn * (a5 > b2 ? a5 : b2);
  void *rwork = cpx ? malloc((nr > 0 ? nr : 1) * lt_dtypes[lt_lapack_real(dt)].size) : NULL;
  void *work = NULL;
  if (iwork && (!cpx || rwork)) {
    if (cpx)
      ((f_gesdd_c *)lp.gesdd[slot(dt)])(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, q, &lwork,
                                        rwork, iwork, &info, 1);
    else
      ((f_gesdd_r *)lp.gesdd[slot(dt)])(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, q, &lwork,
                                        iwork, &info, 1);
    work = work_alloc(dt, queried(dt, q), &lwork);
  }
  if (work && cpx)
    ((f_gesdd_c *)lp.gesdd[slot(dt)])(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork,
                                      rwork, iwork, &info, 1);
  else if (work)
    ((f_gesdd_r *)lp.gesdd[slot(dt)])(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork,
                                      iwork, &info, 1);
  else
    info = LT_LAPACK_NOMEM;
  free(work);
  free(rwork);
  free(iwork);
  return info;
}

int lt_lapack_syevd(lt_dtype dt, char jobz, char uplo, int n, void *a, int lda, void *w) {
  int cpx = dt == LT_COMPLEX64 || dt == LT_COMPLEX128, info = 0, lwork = -1, lrwork = -1,
      liwork = -1, iq = 0;
  double q[2] = {0, 0}, rq[2] = {0, 0};
  lt_dtype rdt = lt_lapack_real(dt);
  if (cpx)
    ((f_syevd_c *)lp.syevd[slot(dt)])(&jobz, &uplo, &n, a, &lda, w, q, &lwork, rq, &lrwork, &iq,
                                      &liwork, &info, 1, 1);
  else
    ((f_syevd_r *)lp.syevd[slot(dt)])(&jobz, &uplo, &n, a, &lda, w, q, &lwork, &iq, &liwork, &info,
                                      1, 1);
  void *work = work_alloc(dt, queried(dt, q), &lwork);
  void *rwork = cpx ? work_alloc(rdt, queried(rdt, rq), &lrwork) : NULL;
  liwork = iq > 1 ? iq : 1;
  int *iwork = malloc((size_t)liwork * sizeof(int));
  if (!work || !iwork || (cpx && !rwork))
    info = LT_LAPACK_NOMEM;
  else if (cpx)
    ((f_syevd_c *)lp.syevd[slot(dt)])(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork,
                                      iwork, &liwork, &info, 1, 1);
  else
    ((f_syevd_r *)lp.syevd[slot(dt)])(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork,
                                      &info, 1, 1);
  free(work);
  free(rwork);
  free(iwork);
  return info;
}

int lt_lapack_geev(lt_dtype dt, char jobvl, char jobvr, int n, void *a, int lda, void *w, void *vl,
                   int ldvl, void *vr, int ldvr) {
  int cpx = dt == LT_COMPLEX64 || dt == LT_COMPLEX128, info = 0, lwork = -1;
  size_t rs = lt_dtypes[lt_lapack_real(dt)].size, nn = (size_t)(n > 0 ? n : 1);
  double q[2] = {0, 0}, one[2] = {0, 0};
  if (!vl) vl = one, ldvl = 1;
  if (!vr) vr = one, ldvr = 1;
  /* real dtypes: wr then wi, interleaved into w afterwards; complex: LAPACK's rwork (2n) */
  char *aux = malloc(2 * nn * rs);
  if (!aux) return LT_LAPACK_NOMEM;
  if (cpx)
    ((f_geev_c *)lp.geev[slot(dt)])(&jobvl, &jobvr, &n, a, &lda, w, vl, &ldvl, vr, &ldvr, q, &lwork,
                                    aux, &info, 1, 1);
  else
    ((f_geev_r *)lp.geev[slot(dt)])(&jobvl, &jobvr, &n, a, &lda, aux, aux + nn * rs, vl, &ldvl, vr,
                                    &ldvr, q, &lwork, &info, 1, 1);
  void *work = work_alloc(dt, queried(dt, q), &lwork);
  if (!work)
    info = LT_LAPACK_NOMEM;
  else if (cpx)
    ((f_geev_c *)lp.geev[slot(dt)])(&jobvl, &jobvr, &n, a, &lda, w, vl, &ldvl, vr, &ldvr, work,
                                    &lwork, aux, &info, 1, 1);
  else
    ((f_geev_r *)lp.geev[slot(dt)])(&jobvl, &jobvr, &n, a, &lda, aux, aux + nn * rs, vl, &ldvl, vr,
                                    &ldvr, work, &lwork, &info, 1, 1);
  if (!cpx && info != LT_LAPACK_NOMEM)
    for (int i = 0; i < n; i++) { /* (wr[i], wi[i]) -> w[i] */
      memcpy((char *)w + (2 * (size_t)i) * rs, aux + (size_t)i * rs, rs);
      memcpy((char *)w + (2 * (size_t)i + 1) * rs, aux + (nn + (size_t)i) * rs, rs);
    }
  free(work);
  free(aux);
  return info;
}

int lt_lapack_gelsd(lt_dtype dt, int m, int n, int nrhs, void *a, int lda, void *b, int ldb,
                    void *s, double rcond, int *rank) {
  int cpx = dt == LT_COMPLEX64 || dt == LT_COMPLEX128, info = 0, lwork = -1, iq = 0;
  lt_dtype rdt = lt_lapack_real(dt);
  double q[2] = {0, 0}, rq[2] = {0, 0}, rc = rcond;
  float rcf = (float)rcond;
  const void *prc = rdt == LT_FLOAT32 ? (const void *)&rcf : (const void *)&rc;
  if (cpx)
    ((f_gelsd_c *)lp.gelsd[slot(dt)])(&m, &n, &nrhs, a, &lda, b, &ldb, s, prc, rank, q, &lwork, rq,
                                      &iq, &info);
  else
    ((f_gelsd_r *)lp.gelsd[slot(dt)])(&m, &n, &nrhs, a, &lda, b, &ldb, s, prc, rank, q, &lwork, &iq,
                                      &info);
  int lr = 0, li = iq > 1 ? iq : 1;
  void *work = work_alloc(dt, queried(dt, q), &lwork);
  void *rwork = cpx ? work_alloc(rdt, queried(rdt, rq), &lr) : NULL;
  int *iwork = malloc((size_t)li * sizeof(int));
  if (!work || !iwork || (cpx && !rwork))
    info = LT_LAPACK_NOMEM;
  else if (cpx)
    ((f_gelsd_c *)lp.gelsd[slot(dt)])(&m, &n, &nrhs, a, &lda, b, &ldb, s, prc, rank, work, &lwork,
                                      rwork, iwork, &info);
  else
    ((f_gelsd_r *)lp.gelsd[slot(dt)])(&m, &n, &nrhs, a, &lda, b, &ldb, s, prc, rank, work, &lwork,
                                      iwork, &info);
  free(work);
  free(rwork);
  free(iwork);
  return info;
}

/* BLAS's trsm (found with LAPACK: OpenBLAS exports it, and liblapack.so.3 reaches it through
   its BLAS): added for linalg.solve_triangular, which, as torch's, does not check the diagonal
   (trtrs refuses an exact zero; torch gives inf and NaN). alpha is 1. */
int lt_lapack_trsm(lt_dtype dt, char side, char uplo, char transa, char diag, int m, int n,
                   const void *a, int lda, void *b, int ldb) {
  static const double one[2] = {1, 0};
  static const float onef[2] = {1, 0};
  const void *alpha =
      dt == LT_FLOAT32 || dt == LT_COMPLEX64 ? (const void *)onef : (const void *)one;
  ((f_trsm *)lp.trsm[slot(dt)])(&side, &uplo, &transa, &diag, &m, &n, alpha, a, &lda, b, &ldb, 1, 1,
                                1, 1);
  return 0;
}

/* }====== */
