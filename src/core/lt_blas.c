/*
 * lt_blas.c -- ltensor's calls into CBLAS (see lt_blas.h): one switch per operation over the
 * four BLAS dtypes. Compiled only when CMake found a BLAS with cblas.h (LTENSOR_HAVE_BLAS).
 * Lua-free; called by lt_linalg.c; asks the pool (lt_pool.h) for the thread count the BLAS
 * should run on.
 *
 * The BLAS is not linked: it is loaded (lt_os.h: dlopen, LoadLibrary) at the first product that
 * asks for it (LTENSOR_BLAS_LIBS, a ':'-separated list CMake wrote: the soname of the library it
 * found, then its path). OpenBLAS starts its threads when it is loaded, so a linked one would start
 * them at `require "ltensor"`, before any operation (SPEC: no thread before the first large
 * operation); loaded here they start with the first matrix product. A machine without the
 * library at run time keeps ltensor's own kernel (lt_blas_active says no).
 */
#include "lt_blas.h"
#include "lt_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "lt_os.h"

#ifndef LTENSOR_BLAS_LIBS
#if defined(_WIN32)
#define LTENSOR_BLAS_LIBS "libopenblas.dll:openblas.dll:libcblas.dll"
#else
#define LTENSOR_BLAS_LIBS "libopenblas.so.0:libcblas.so.3:libblas.so.3"
#endif
#endif

static atomic_int enabled = 1; /* process-wide, like the BLAS's own thread count */

/* {====== loading ====== */

/* The CBLAS interface as the standard declares it (no cblas.h needed: the library is opened at
   run time): the enums' values, and the entry points used, with 32-bit integers (the LP64
   interface every distribution's BLAS exports under these names). */
enum { LT_CBLAS_ROW_MAJOR = 101, LT_CBLAS_NO_TRANS = 111, LT_CBLAS_TRANS = 112 };
typedef void lt_gemm_s(int, int, int, int, int, int, float, const float *, int, const float *, int,
                       float, float *, int);
typedef void lt_gemm_d(int, int, int, int, int, int, double, const double *, int, const double *,
                       int, double, double *, int);
typedef void lt_gemm_c(int, int, int, int, int, int, const void *, const void *, int, const void *,
                       int, const void *, void *, int);
typedef void lt_gemv_s(int, int, int, int, float, const float *, int, const float *, int, float,
                       float *, int);
typedef void lt_gemv_d(int, int, int, int, double, const double *, int, const double *, int, double,
                       double *, int);
typedef void lt_gemv_c(int, int, int, int, const void *, const void *, int, const void *, int,
                       const void *, void *, int);
typedef float lt_dot_s(int, const float *, int, const float *, int);
typedef double lt_dot_d(int, const double *, int, const double *, int);
typedef void lt_dot_c(int, const void *, int, const void *, int, void *);

/* clang-format off */
#define LT_BLAS_FUNCS(X)                                                                 \
  X(cblas_sgemm, lt_gemm_s) X(cblas_dgemm, lt_gemm_d)                                    \
  X(cblas_cgemm, lt_gemm_c) X(cblas_zgemm, lt_gemm_c)                                    \
  X(cblas_sgemv, lt_gemv_s) X(cblas_dgemv, lt_gemv_d)                                    \
  X(cblas_cgemv, lt_gemv_c) X(cblas_zgemv, lt_gemv_c)                                    \
  X(cblas_sdot, lt_dot_s) X(cblas_ddot, lt_dot_d)                                        \
  X(cblas_cdotu_sub, lt_dot_c) X(cblas_zdotu_sub, lt_dot_c)
/* clang-format on */

static struct {
#define LT_X_FIELD(f, type) type *f;
  LT_BLAS_FUNCS(LT_X_FIELD)
#undef LT_X_FIELD
  void (*set_threads)(int); /* openblas_set_num_threads, when it is OpenBLAS */
  int loaded;
} blas;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* Opens the first library of the list that has every entry point. Never closed: products may
   run until the process ends. */
static void load(void) {
  char names[] = LTENSOR_BLAS_LIBS;
  for (char *name = names; *name;) {
    char *end = strchr(name, ':'), *next = end ? end + 1 : name + strlen(name);
    if (end) *end = '\0';
    void *h = lt_os_lib_open(name);
    name = next;
    if (!h) continue;
    int all = 1;
#define LT_X_SYM(f, type)                           \
  *(void **)(void *)&blas.f = lt_os_lib_sym(h, #f); \
  all = all && blas.f;
    LT_BLAS_FUNCS(LT_X_SYM)
#undef LT_X_SYM
    if (!all) {
      lt_os_lib_close(h);
      continue;
    }
    *(void **)(void *)&blas.set_threads = lt_os_lib_sym(h, "openblas_set_num_threads");
    blas.loaded = 1;
    return;
  }
}

static int loaded(void) {
  pthread_once(&load_once, load);
  return blas.loaded;
}

const char *lt_blas_name(void) {
  if (!loaded()) return NULL;
  return blas.set_threads ? "openblas" : "cblas";
}

int lt_blas_active(lt_dtype dt) {
  return (dt == LT_FLOAT32 || dt == LT_FLOAT64 || dt == LT_COMPLEX64 || dt == LT_COMPLEX128) &&
         atomic_load_explicit(&enabled, memory_order_relaxed) && loaded();
}

int lt_blas_enable(int on) { return atomic_exchange(&enabled, on != 0); }

static atomic_int applied = 0; /* the BLAS thread count last set; 0: the BLAS's own default */

void lt_blas_set_num_threads(int n) {
  if (n < 1) n = 1;
  atomic_store(&applied, n);
  if (loaded() && blas.set_threads) blas.set_threads(n);
}

/* Before each call: the BLAS runs on ltensor's thread count (lt.set_num_threads,
   LTENSOR_NUM_THREADS, or the default), set again only when it changed. */
static void sync_threads(void) {
  int n = lt_pool_threads();
  if (atomic_load_explicit(&applied, memory_order_relaxed) != n) lt_blas_set_num_threads(n);
}

/* }====== */

static int tr(int t) { return t ? LT_CBLAS_TRANS : LT_CBLAS_NO_TRANS; }

void lt_blas_gemm(lt_dtype dt, int transa, int transb, int m, int n, int k, const double *alpha,
                  const void *a, int lda, const void *b, int ldb, const double *beta, void *c,
                  int ldc) {
  sync_threads();
  const int o = LT_CBLAS_ROW_MAJOR;
  switch (dt) {
    case LT_FLOAT32:
      blas.cblas_sgemm(o, tr(transa), tr(transb), m, n, k, (float)alpha[0], a, lda, b, ldb,
                       (float)beta[0], c, ldc);
      break;
    case LT_FLOAT64:
      blas.cblas_dgemm(o, tr(transa), tr(transb), m, n, k, alpha[0], a, lda, b, ldb, beta[0], c,
                       ldc);
      break;
    case LT_COMPLEX64: {
      const float al[2] = {(float)alpha[0], (float)alpha[1]},
                  be[2] = {(float)beta[0], (float)beta[1]};
      blas.cblas_cgemm(o, tr(transa), tr(transb), m, n, k, al, a, lda, b, ldb, be, c, ldc);
      break;
    }
    case LT_COMPLEX128:
      blas.cblas_zgemm(o, tr(transa), tr(transb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      break;
    default: break; /* lt_blas_active refused it */
  }
}

void lt_blas_gemv(lt_dtype dt, int trans, int m, int n, const double *alpha, const void *a, int lda,
                  const void *x, int incx, const double *beta, void *y, int incy) {
  sync_threads();
  const int o = LT_CBLAS_ROW_MAJOR;
  switch (dt) {
    case LT_FLOAT32:
      blas.cblas_sgemv(o, tr(trans), m, n, (float)alpha[0], a, lda, x, incx, (float)beta[0], y,
                       incy);
      break;
    case LT_FLOAT64:
      blas.cblas_dgemv(o, tr(trans), m, n, alpha[0], a, lda, x, incx, beta[0], y, incy);
      break;
    case LT_COMPLEX64: {
      const float al[2] = {(float)alpha[0], (float)alpha[1]},
                  be[2] = {(float)beta[0], (float)beta[1]};
      blas.cblas_cgemv(o, tr(trans), m, n, al, a, lda, x, incx, be, y, incy);
      break;
    }
    case LT_COMPLEX128:
      blas.cblas_zgemv(o, tr(trans), m, n, alpha, a, lda, x, incx, beta, y, incy);
      break;
    default: break;
  }
}

void lt_blas_dot(lt_dtype dt, int n, const void *x, int incx, const void *y, int incy, void *out) {
  sync_threads();
  switch (dt) {
    case LT_FLOAT32: {
      float r = blas.cblas_sdot(n, x, incx, y, incy);
      memcpy(out, &r, sizeof r);
      break;
    }
    case LT_FLOAT64: {
      double r = blas.cblas_ddot(n, x, incx, y, incy);
      memcpy(out, &r, sizeof r);
      break;
    }
    case LT_COMPLEX64: blas.cblas_cdotu_sub(n, x, incx, y, incy, out); break;
    case LT_COMPLEX128: blas.cblas_zdotu_sub(n, x, incx, y, incy, out); break;
    default: break;
  }
}
