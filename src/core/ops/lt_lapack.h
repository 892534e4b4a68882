/*
 * lt_lapack.h -- LAPACK's routines for ltensor's linear algebra (lt.linalg): finding the library,
 * the guard around calls, one function per routine over the four LAPACK dtypes (float32,
 * float64, complex64, complex128; workspace queries and workspaces included), and the layout
 * the routines take. Lua-free.
 *
 * LAPACK is not linked: its routines are looked up in the BLAS library lt_blas.c loads (OpenBLAS
 * exports LAPACK's routines), else, for a BLAS without them, in LTENSOR_LAPACK_LIBS (Debian's
 * reference liblapack.so.3), at the first call that needs one, once the BLAS is loaded. Without
 * either, or in a build without a BLAS, lt_lapack_ready fails with "fname: needs LAPACK ..." and
 * only ltensor's own kernels run (lt.linalg's small fixed-size matrices).
 *
 * Matrices here are column-major, as LAPACK's: element (i, j) at i + j * ld. A row-major matrix
 * is the column-major matrix of its transpose: callers use that where the maths allows it (the
 * transposed system for solve, ...); otherwise lt_lapack_fortran makes the copy a routine
 * overwrites. Every routine runs between lt_lapack_enter and lt_lapack_leave (the BLAS guard:
 * lt_blas.h says why OpenBLAS needs one).
 *
 * Calls lt_blas.c (the library and its guard), lt_os.h, lt_copy.c, lt_tensor.c. Called by the
 * lt.linalg core files (lt_linalg_*.c) and the binding (lt.config's lapack field).
 */
#ifndef LT_LAPACK_H
#define LT_LAPACK_H

#include <limits.h>

#include "lt_tensor.h"

/* What a routine returns when its workspace could not be allocated (LAPACK's own infos are
   small integers). */
#define LT_LAPACK_NOMEM INT_MIN

/* "openblas" (LAPACK from the BLAS library), "lapack" (another library), or NULL when none can
   be found; looks for it the first time. */
const char *lt_lapack_name(void);
/* 0 when LAPACK is there; else fails with "fname: needs LAPACK (...)" saying why (no BLAS in
   this build, no library found). */
int lt_lapack_ready(const char *fname, lt_error *err);
/* A run of calls (after lt_lapack_ready): 0 when they may be made, until lt_lapack_leave; else
   fails ("fname: not enough memory for the BLAS's buffers"). Runs do not nest. */
int lt_lapack_enter(const char *fname, lt_error *err);
void lt_lapack_leave(void);

/* The compute dtype of a linear-algebra operand: the four LAPACK dtypes as they are, float16
   and bfloat16 computed in float32; any other dtype fails as torch does ("fname: expected a
   floating point or complex tensor as input (got int64)"). */
int lt_lapack_dtype(lt_dtype in, const char *fname, lt_dtype *out, lt_error *err);
/* The real dtype of a compute dtype (complex64 -> float32, complex128 -> float64). */
lt_dtype lt_lapack_real(lt_dtype dt);
/* A new tensor with a's values in dtype dt (a has at least 2 dims, ... x m x n), whose m x n
   matrices are each column-major and contiguous (strides ..., 1, m; the batch contiguous): the
   copy a routine overwrites, matrix k at lt_data(out) + k * m * n * element size. */
int lt_lapack_fortran(const lt_tensor *a, lt_dtype dt, lt_tensor **out, lt_error *err);
/* Fails with torch's LinAlgError wording: "fname: " then, when batched, "(Batch element k): "
   (k the 0-based index over the flattened batch, printed 1-based as every position in ltensor:
   torch prints k), then the message. Returns LT_EARG. */
int lt_lapack_fail_at(lt_error *err, const char *fname, int batched, int64_t k, const char *fmt,
                      ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 5, 6)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* The routines, dt one of the four LAPACK dtypes, sizes and leading dimensions ints (callers
   check lt_blas_fits), characters as LAPACK takes them ('N', 'T', 'C', 'U', 'L', 'V', 'A', 'S',
   'O'). Each returns LAPACK's info (0 success; < 0 a bad argument, a bug of the caller; > 0 the
   routine's own failure: singular, not positive-definite, not converged), or LT_LAPACK_NOMEM.
   Complex routines take the real dtype's arrays where LAPACK does (s, w of syevd). The float
   arguments (s, w, rcond) are of the real dtype of dt. */
int lt_lapack_getrf(lt_dtype dt, int m, int n, void *a, int lda, int *ipiv);
int lt_lapack_getrs(lt_dtype dt, char trans, int n, int nrhs, const void *a, int lda,
                    const int *ipiv, void *b, int ldb);
int lt_lapack_getri(lt_dtype dt, int n, void *a, int lda, const int *ipiv);
int lt_lapack_potrf(lt_dtype dt, char uplo, int n, void *a, int lda);
int lt_lapack_potrs(lt_dtype dt, char uplo, int n, int nrhs, const void *a, int lda, void *b,
                    int ldb);
int lt_lapack_trtrs(lt_dtype dt, char uplo, char trans, char diag, int n, int nrhs, const void *a,
                    int lda, void *b, int ldb);
/* tau: min(m, n) elements of dt. */
int lt_lapack_geqrf(lt_dtype dt, int m, int n, void *a, int lda, void *tau);
/* orgqr for real dtypes, ungqr for complex ones: the m x n Q of geqrf's k reflectors. */
int lt_lapack_orgqr(lt_dtype dt, int m, int n, int k, void *a, int lda, const void *tau);
/* s: min(m, n) reals; u, vt as jobz says ('N': not touched, may be NULL). */
int lt_lapack_gesdd(lt_dtype dt, char jobz, int m, int n, void *a, int lda, void *s, void *u,
                    int ldu, void *vt, int ldvt);
/* syevd for real dtypes, heevd for complex ones: w, n reals, ascending. */
int lt_lapack_syevd(lt_dtype dt, char jobz, char uplo, int n, void *a, int lda, void *w);
/* The eigenvalues into w: n complex values of dt's complex type (real dtypes: LAPACK's wr, wi
   are interleaved into them here); vl, vr as jobvl, jobvr say, in LAPACK's layout (real
   dtypes: a complex pair's vectors as two real columns, re and im, for the caller to expand).
   w is n elements of the complex type (2n reals). */
int lt_lapack_geev(lt_dtype dt, char jobvl, char jobvr, int n, void *a, int lda, void *w, void *vl,
                   int ldvl, void *vr, int ldvr);
/* Minimum-norm least squares by SVD: b (ldb >= max(m, n)) becomes the n x nrhs solution; s the
   min(m, n) singular values (reals); rank the effective rank at rcond (< 0: machine precision). */
int lt_lapack_gelsd(lt_dtype dt, int m, int n, int nrhs, void *a, int lda, void *b, int ldb,
                    void *s, double rcond, int *rank);

/* BLAS's trsm with alpha 1 (side 'L': op(a) x = b, 'R': x op(a) = b; b m x n, overwritten);
   no check of the diagonal. Returns 0. */
int lt_lapack_trsm(lt_dtype dt, char side, char uplo, char transa, char diag, int m, int n,
                   const void *a, int lda, void *b, int ldb);

#endif
