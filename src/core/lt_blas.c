/*
 * lt_blas.c -- ltensor's calls into CBLAS (see lt_blas.h): one switch per operation over the
 * four BLAS dtypes. Compiled only when CMake found a BLAS with cblas.h (LTENSOR_HAVE_BLAS;
 * LTENSOR_BLAS_OPENBLAS when it is OpenBLAS). Lua-free; called by lt_linalg.c; asks the pool
 * (lt_pool.h) for the thread count the BLAS should run on.
 */
#include "lt_blas.h"
#include "lt_pool.h"

#include <cblas.h>
#include <stdatomic.h>
#include <string.h>

static atomic_int enabled = 1; /* process-wide, like the BLAS's own thread count */

const char *lt_blas_name(void) {
#ifdef LTENSOR_BLAS_OPENBLAS
  return "openblas";
#else
  return "cblas";
#endif
}

int lt_blas_active(lt_dtype dt) {
  return (dt == LT_FLOAT32 || dt == LT_FLOAT64 || dt == LT_COMPLEX64 || dt == LT_COMPLEX128) &&
         atomic_load_explicit(&enabled, memory_order_relaxed);
}

int lt_blas_enable(int on) { return atomic_exchange(&enabled, on != 0); }

static atomic_int applied = 0; /* the BLAS thread count last set; 0: the BLAS's own default */

void lt_blas_set_num_threads(int n) {
  if (n < 1) n = 1;
  atomic_store(&applied, n);
#ifdef LTENSOR_BLAS_OPENBLAS
  openblas_set_num_threads(n);
#endif
}

/* Before each call: the BLAS runs on ltensor's thread count (lt.set_num_threads,
   LTENSOR_NUM_THREADS, or the default), set again only when it changed. */
static void sync_threads(void) {
  int n = lt_pool_threads();
  if (atomic_load_explicit(&applied, memory_order_relaxed) != n) lt_blas_set_num_threads(n);
}

static enum CBLAS_TRANSPOSE tr(int t) { return t ? CblasTrans : CblasNoTrans; }

void lt_blas_gemm(lt_dtype dt, int transa, int transb, int m, int n, int k, const double *alpha,
                  const void *a, int lda, const void *b, int ldb, const double *beta, void *c,
                  int ldc) {
  sync_threads();
  const enum CBLAS_ORDER o = CblasRowMajor;
  switch (dt) {
    case LT_FLOAT32:
      cblas_sgemm(o, tr(transa), tr(transb), m, n, k, (float)alpha[0], a, lda, b, ldb,
                  (float)beta[0], c, ldc);
      break;
    case LT_FLOAT64:
      cblas_dgemm(o, tr(transa), tr(transb), m, n, k, alpha[0], a, lda, b, ldb, beta[0], c, ldc);
      break;
    case LT_COMPLEX64: {
      const float al[2] = {(float)alpha[0], (float)alpha[1]},
                  be[2] = {(float)beta[0], (float)beta[1]};
      cblas_cgemm(o, tr(transa), tr(transb), m, n, k, al, a, lda, b, ldb, be, c, ldc);
      break;
    }
    case LT_COMPLEX128:
      cblas_zgemm(o, tr(transa), tr(transb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      break;
    default: break; /* lt_blas_active refused it */
  }
}

void lt_blas_gemv(lt_dtype dt, int trans, int m, int n, const double *alpha, const void *a, int lda,
                  const void *x, int incx, const double *beta, void *y, int incy) {
  sync_threads();
  const enum CBLAS_ORDER o = CblasRowMajor;
  switch (dt) {
    case LT_FLOAT32:
      cblas_sgemv(o, tr(trans), m, n, (float)alpha[0], a, lda, x, incx, (float)beta[0], y, incy);
      break;
    case LT_FLOAT64:
      cblas_dgemv(o, tr(trans), m, n, alpha[0], a, lda, x, incx, beta[0], y, incy);
      break;
    case LT_COMPLEX64: {
      const float al[2] = {(float)alpha[0], (float)alpha[1]},
                  be[2] = {(float)beta[0], (float)beta[1]};
      cblas_cgemv(o, tr(trans), m, n, al, a, lda, x, incx, be, y, incy);
      break;
    }
    case LT_COMPLEX128:
      cblas_zgemv(o, tr(trans), m, n, alpha, a, lda, x, incx, beta, y, incy);
      break;
    default: break;
  }
}

void lt_blas_dot(lt_dtype dt, int n, const void *x, int incx, const void *y, int incy, void *out) {
  sync_threads();
  switch (dt) {
    case LT_FLOAT32: {
      float r = cblas_sdot(n, x, incx, y, incy);
      memcpy(out, &r, sizeof r);
      break;
    }
    case LT_FLOAT64: {
      double r = cblas_ddot(n, x, incx, y, incy);
      memcpy(out, &r, sizeof r);
      break;
    }
    case LT_COMPLEX64: cblas_cdotu_sub(n, x, incx, y, incy, out); break;
    case LT_COMPLEX128: cblas_zdotu_sub(n, x, incx, y, incy, out); break;
    default: break;
  }
}
