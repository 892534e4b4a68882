/*
 * lt_blas.h -- the matrix products of a CBLAS (OpenBLAS, or another found at build time) for
 * float32, float64, complex64 and complex128, and the switches around it. Lua-free.
 *
 * lt_blas.c is compiled only when CMake found a BLAS (it then defines LTENSOR_HAVE_BLAS for the
 * whole build); without one the inline forms below say "no BLAS", and every matrix product runs
 * ltensor's own kernel (lt_linalg.c). Matrices are row-major: element (i, j) at i * ld + j, or
 * with trans set the transpose of such a matrix. Sizes and leading dimensions must fit an int
 * (the caller checks, lt_blas_fits).
 *
 * Called by lt_linalg.c (products), lt_lapack.c (the library's LAPACK) and the binding (lt.config).
 * The BLAS runs on the pool's thread count (lt_pool_threads), set again at a run whenever it
 * changed. Every call is made between lt_blas_enter and lt_blas_leave: the guard that keeps
 * OpenBLAS from hanging the process when its memory runs out or a thread forks (lt_blas.c says
 * how).
 */
#ifndef LT_BLAS_H
#define LT_BLAS_H

#include <limits.h>
#include <stdint.h>

#include "lt_dtype.h"

/* Whether v fits the BLAS's integer type (int: Debian's OpenBLAS has the 32-bit interface). */
static inline int lt_blas_fits(int64_t v) { return v >= 0 && v <= INT_MAX; }

#ifdef LTENSOR_HAVE_BLAS

/* "openblas", or "cblas" for another CBLAS. */
const char *lt_blas_name(void);
/* The kernel set OpenBLAS picked for this processor ("Prescott", "SkylakeX", ...:
   openblas_get_corename), or NULL (another BLAS, or none loaded). */
const char *lt_blas_core(void);
/* Whether the BLAS's kernels use the processor's vector unit: 0 when OpenBLAS runs a kernel set
   older than AVX2 (OpenBLAS 0.3.21 takes a CPU it does not know, such as Xeon model 207, for a
   "Prescott" and runs SSE3 kernels) on a processor with AVX2 or AVX-512 (lt_cpu_level), where
   ltensor's own float32 product (lt_gemm.c) is several times faster; else 1. */
int lt_blas_knows_cpu(void);
/* Whether products of dtype dt go to the BLAS now: a BLAS dtype, the BLAS switched on, and
   loaded (the first such question loads it, once the address space can take the threads it
   starts; until then the answer is no). */
int lt_blas_active(lt_dtype dt);
/* Switches the BLAS on (nonzero) or off (ltensor's own kernel for every dtype), for the whole
   process; on at start. Returns the previous setting. */
int lt_blas_enable(int on);
/* The address of the symbol `name` in the BLAS library (OpenBLAS exports LAPACK too: lt_lapack.c
   looks its routines up here), loading it as lt_blas_active does whether the BLAS is switched
   on or off; NULL when the library is absent, not loaded yet for want of memory, or lacks it.
   Calls through it are runs like the products' (lt_blas_enter, lt_blas_leave). */
void *lt_blas_sym(const char *name);
/* Starts a run of calls (lt_blas_gemm, _gemv, _dot) on this thread, after lt_blas_active said
   yes: 1 when they may be made, until lt_blas_leave; 0 when they must not, because the memory
   OpenBLAS would need for its buffers is not there (it would retry for ever): the caller then
   computes with its own kernel. A run may wait for a fork under way; a fork waits for the runs
   under way. Runs do not nest. */
int lt_blas_enter(void);
void lt_blas_leave(void);

/* C (m x n, ldc) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C. alpha and beta are {re, im}
   (the imaginary part is ignored for real dtypes). */
void lt_blas_gemm(lt_dtype dt, int transa, int transb, int m, int n, int k, const double *alpha,
                  const void *a, int lda, const void *b, int ldb, const double *beta, void *c,
                  int ldc);
/* y (incy) = alpha * op(A) x (incx) + beta * y; A is m x n (lda) before op. */
void lt_blas_gemv(lt_dtype dt, int trans, int m, int n, const double *alpha, const void *a, int lda,
                  const void *x, int incx, const double *beta, void *y, int incy);
/* *out (one element of dt) = sum of x[i] * y[i] (no conjugate). */
void lt_blas_dot(lt_dtype dt, int n, const void *x, int incx, const void *y, int incy, void *out);

#else

static inline const char *lt_blas_name(void) { return 0; }
static inline const char *lt_blas_core(void) { return 0; }
static inline int lt_blas_knows_cpu(void) { return 1; }
static inline int lt_blas_active(lt_dtype dt) { return (void)dt, 0; }
static inline int lt_blas_enable(int on) { return (void)on, 0; }
static inline void *lt_blas_sym(const char *name) { return (void)name, (void *)0; }
static inline int lt_blas_enter(void) { return 0; }
static inline void lt_blas_leave(void) {}

#endif

#endif
