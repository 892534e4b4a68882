/*
 * lt_linalg_decomp.h -- lt.linalg's decompositions and norms, as torch.linalg has them: qr, svd
 * (svdvals), eigh (eigvalsh), eig (eigvals), lstsq (lt_linalg_decomp.c, through LAPACK), and
 * what is built on them: pinv, matrix_rank, matrix_norm, vector_norm, norm, cond
 * (lt_linalg_norm.c). Lua-free.
 *
 * Matrices are the last two dims of a tensor (... x m x n), batched over the dims before them;
 * the inputs are float32, float64, complex64 or complex128 (float16 and bfloat16 compute in
 * float32; other dtypes fail as torch does), never written; every result is a new contiguous,
 * row-major tensor. Messages name the function as torch does ("linalg.svd: ..."), and a failure
 * of one matrix of a batch names it as torch's LinAlgError does, 1-based ("(Batch element 3): "
 * for A[3]).
 * Without LAPACK (lt_lapack_ready) every function that needs it fails with "needs LAPACK"; the
 * vector norms and the matrix norms "fro", 1, -1, inf and -inf need none.
 *
 * Calls lt_lapack.c (the routines), lt_linalg.c (matmul), lt_reduce.c and lt_reduce_dims.c
 * (sums, extrema, vector norms), lt_funcs.c (elementwise), lt_copy.c, lt_tensor.c. Called by
 * the binding (lua_linalg_decomp.c).
 */
#ifndef LT_LINALG_DECOMP_H
#define LT_LINALG_DECOMP_H

#include "lt_tensor.h"

/* {====== decompositions (lt_linalg_decomp.c) ====== */

typedef enum { LT_QR_REDUCED, LT_QR_COMPLETE, LT_QR_R } lt_qr_mode;

/* torch.linalg.qr: A = Q R, Q with orthonormal columns (m x k reduced, m x m complete, an empty
   1-d tensor in mode R), R upper triangular (k x n reduced and R, m x n complete), k =
   min(m, n). */
int lt_linalg_qr(const lt_tensor *a, lt_qr_mode mode, lt_tensor **q, lt_tensor **r, lt_error *err);

/* torch.linalg.svd: A = U diag(S) Vh, S descending and real (the real dtype); U m x m and Vh
   n x n when full, else m x k and k x n. Without uv (u and vh NULL): the singular values only
   (torch.linalg.svdvals; fname names the function in messages). A matrix with NaN or inf fails
   naming its batch element. */
int lt_linalg_svd(const lt_tensor *a, int full, lt_tensor **u, lt_tensor **s, lt_tensor **vh,
                  const char *fname, lt_error *err);

/* torch.linalg.eigh: the eigenvalues (real, ascending) and, when v is not NULL, the
   orthonormal eigenvectors (columns) of the Hermitian matrices A, read from the lower triangle
   (upper 0) or the upper one (upper 1). fname: "linalg.eigh" or "linalg.eigvalsh". */
int lt_linalg_eigh(const lt_tensor *a, int upper, lt_tensor **w, lt_tensor **v, const char *fname,
                   lt_error *err);

/* torch.linalg.eig: the eigenvalues and, when v is not NULL, the eigenvectors (columns, each of
   norm 1 as LAPACK's geev gives them) of square A, complex (complex64 for float32 input)
   whatever the input's dtype: a real matrix's conjugate pairs become two complex columns. NaN
   or inf fails. fname: "linalg.eig" or "linalg.eigvals". */
int lt_linalg_eig(const lt_tensor *a, lt_tensor **w, lt_tensor **v, const char *fname,
                  lt_error *err);

/* torch.linalg.lstsq's drivers: every one computes with LAPACK's gelsd (the minimum-norm
   solution by SVD); the driver decides what else is returned, as in torch. */
typedef enum { LT_LSTSQ_GELS, LT_LSTSQ_GELSY, LT_LSTSQ_GELSD, LT_LSTSQ_GELSS } lt_lstsq_driver;

/* torch.linalg.lstsq: X minimizing |A X - B| (A ... x m x n, B ... x m x k, or ... x m when B
   has one dim less than A: the vector case; the batch dims broadcast). rcond: singular values
   at most rcond times the largest count as zero (NaN: machine epsilon times max(m, n)). Results:
   x; residuals (the squared residual norm of each column of B, when m > n, every matrix has
   rank n and the driver is not gelsy; else an empty 1-d tensor); rank (int64, the batch shape;
   empty for gels); sv, the singular values (gelsd and gelss; else empty). A and B must have one
   dtype. */
int lt_linalg_lstsq(const lt_tensor *a, const lt_tensor *b, double rcond, lt_lstsq_driver driver,
                    lt_tensor **x, lt_tensor **residuals, lt_tensor **rank, lt_tensor **sv,
                    lt_error *err);

/* }====== */

/* {====== built on them (lt_linalg_norm.c) ====== */

/* Tolerances of pinv and matrix_rank: singular values (absolute eigenvalues when hermitian)
   at most max(atol, rtol * the largest) count as zero. NaN atol: 0; NaN rtol: 0 when atol was
   given and is positive, else machine epsilon times max(m, n) (torch's defaults). */
typedef struct {
  double atol, rtol;
  int hermitian;
} lt_tolerance;

/* torch.linalg.pinv: the pseudo-inverse (n x m), through svd (eigh when hermitian). */
int lt_linalg_pinv(const lt_tensor *a, const lt_tolerance *tol, lt_tensor **out, lt_error *err);
/* torch.linalg.matrix_rank: the number of singular values above the tolerance (int64, the batch
   shape). */
int lt_linalg_matrix_rank(const lt_tensor *a, const lt_tolerance *tol, lt_tensor **out,
                          lt_error *err);

/* A norm's order: a number (inf and -inf included) or one of torch's strings. */
typedef enum { LT_ORD_NUMBER, LT_ORD_FRO, LT_ORD_NUC, LT_ORD_NONE } lt_ord_kind;
typedef struct {
  lt_ord_kind kind;
  double p;
} lt_ord;

/* torch.linalg.vector_norm over dims[0..ndims) (0-based; none: every element). ord a number.
   dt: the dtype a is cast to first (LT_NDTYPES: none); a complex input needs a complex dt, a
   real one a real dt, and neither narrows ("the dtype of the input (float32) should be
   convertible without narrowing to the specified dtype (float16)"). The result is real. */
int lt_linalg_vector_norm(const lt_tensor *a, double ord, const int *dims, int ndims, int keepdim,
                          lt_dtype dt, lt_tensor **out, lt_error *err);
/* torch.linalg.matrix_norm over the two dims d0, d1 (0-based, different): "fro", "nuc", inf,
   -inf, 1, -1, 2 or -2; dt as vector_norm's. */
int lt_linalg_matrix_norm(const lt_tensor *a, lt_ord ord, int d0, int d1, int keepdim, lt_dtype dt,
                          lt_tensor **out, lt_error *err);
/* torch.linalg.norm: a vector norm over one dim (or, ord none and no dims, over every
   element), a matrix norm over two dims (or no dims and a 2-d a), as torch dispatches. */
int lt_linalg_norm(const lt_tensor *a, lt_ord ord, const int *dims, int ndims, int keepdim,
                   lt_dtype dt, lt_tensor **out, lt_error *err);
/* torch.linalg.cond: the condition number in the norm p (LT_ORD_NONE: 2): the ratio of the
   extreme singular values for 2 and -2 (any m x n), norm(A) norm(inv(A)) for the others
   (square A; a singular one gives inf). Real, the batch shape. */
int lt_linalg_cond(const lt_tensor *a, lt_ord p, lt_tensor **out, lt_error *err);

/* }====== */

/* {====== shared by the two files ====== */

/* The checks of a matrix argument of fname: at least 2 dims ("linalg.qr: the input tensor A
   must have at least 2 dimensions"), square when asked ("A must be batches of square matrices,
   but they are 3 by 4 matrices"), readable, a dtype LAPACK takes (*dt, lt_lapack_dtype), sizes
   LAPACK's integers hold. */
int lt_linalg_check(const lt_tensor *a, const char *fname, int square, lt_dtype *dt, lt_error *err);
/* The number of matrices of a (the product of its batch dims). */
int64_t lt_linalg_batch(const lt_tensor *a);
/* rc, err's message prefixed with "fname: " unless it starts with it (the failure of a call the
   function made: an allocation, a cast). */
int lt_linalg_named(lt_error *err, int rc, const char *fname);
/* Conjugates, in place, the n elements of a contiguous block of a complex dtype (others: no
   change). */
void lt_linalg_conj(lt_dtype dt, void *p, int64_t n);

/* }====== */

#endif
