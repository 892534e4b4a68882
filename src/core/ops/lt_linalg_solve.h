/*
 * lt_linalg_solve.h -- lt.linalg's solving and inverting: solve, solve_triangular, inv, det,
 * slogdet, logdet, cholesky, matrix_power (lt_linalg_solve.c) and the LU family lu_factor, lu,
 * lu_solve (lt_linalg_lu.c), with torch.linalg's semantics. Lua-free.
 *
 * Matrices are the last two dims, batched over the dims before them (broadcast between two
 * operands as torch does); float32, float64, complex64, complex128 (float16 and bfloat16 compute
 * and return float32; other dtypes fail as torch does). Results are new contiguous row-major
 * tensors. fname is the name messages start with ("linalg.inv: ..."): every message here names
 * it, as torch's LinAlgError does, so the binding raises err as it is. A singular or
 * non-positive-definite matrix fails naming the batch element when check is set; else *info
 * (an int32 tensor of the batch shape, LAPACK's info per matrix) reports it.
 *
 * A contiguous row-major matrix is LAPACK's column-major transpose: det, inv, cholesky, solve
 * and solve_triangular work on that buffer as it is (det A^T = det A, inv(A^T)^T = inv A, the
 * transposed system), so their inputs are copied once at memcpy speed, never transposed. 2x2,
 * 3x3 and 4x4 inv, det and solve go to ltensor's own kernels (lt_linalg_small.h, when built
 * with LT_LINALG_SMALL) before LAPACK is asked for.
 *
 * Calls lt_lapack.c, lt_linalg.c (lt_matmul), lt_shape.c, lt_copy.c, lt_iter.c, lt_tensor.c.
 * Called by the binding (lua_linalg_solve.c).
 */
#ifndef LT_LINALG_SOLVE_H
#define LT_LINALG_SOLVE_H

#include "lt_tensor.h"

/* torch.linalg.inv / inv_ex (and torch.inverse): *inv of a's shape; *info (NULL: not wanted)
   0 or the getrf info of a singular matrix, whose inverse is NaN. */
int lt_linalg_inv(const lt_tensor *a, const char *fname, int check, lt_tensor **inv,
                  lt_tensor **info, lt_error *err);

typedef enum { LT_DET, LT_SLOGDET, LT_LOGDET } lt_det_kind;
/* LT_DET: *out the determinants (batch shape, the compute dtype). LT_SLOGDET: *out the signs
   (the compute dtype: complex for complex, 0 for a singular matrix), *out2 log |det| (the real
   dtype). LT_LOGDET: *out log det (real dtypes: NaN for a negative determinant; complex: log of
   the sign plus log |det|). */
int lt_linalg_det(const lt_tensor *a, const char *fname, lt_det_kind kind, lt_tensor **out,
                  lt_tensor **out2, lt_error *err);

/* torch.linalg.solve / solve_ex: A X = B (left) or X A = B. b is a batch of vectors when it is
   1-d or a's shape less its last dim (torch's rule), else of n x k matrices; batches
   broadcast; a and b of one dtype. */
int lt_linalg_solve(const lt_tensor *a, const lt_tensor *b, int left, const char *fname, int check,
                    lt_tensor **x, lt_tensor **info, lt_error *err);

/* torch.linalg.solve_triangular: the triangle of a that upper names (unit: its diagonal taken
   as ones), A X = B or X A = B; b has at least 2 dims; dtypes promoted. As torch's, a zero on
   the diagonal is not checked (inf and NaN result). */
int lt_linalg_solve_triangular(const lt_tensor *a, const lt_tensor *b, int upper, int left,
                               int unit, lt_tensor **x, lt_error *err);

/* torch.linalg.cholesky / cholesky_ex: L (A = L L^H, from a's lower triangle) or, upper, U
   (A = U^H U, from a's upper triangle); the other triangle zero. */
int lt_linalg_cholesky(const lt_tensor *a, int upper, int check, lt_tensor **l, lt_tensor **info,
                       lt_error *err);

/* torch.linalg.matrix_power: a^n by repeated squaring through lt_matmul (any dtype lt_matmul
   takes); n = 0 the identity of a's dtype, n < 0 the inverse's power (inv's dtypes). */
int lt_linalg_matrix_power(const lt_tensor *a, int64_t n, const char *fname, lt_tensor **out,
                           lt_error *err);

/* torch.linalg.lu_factor / lu_factor_ex of ... x m x n: *lu packed (L below the diagonal,
   unit diagonal implied, U on and above), *piv the int32 1-based row swaps (... x min(m, n));
   pivot 0 fails as torch's CPU does. */
int lt_linalg_lu_factor(const lt_tensor *a, int pivot, int check, lt_tensor **lu, lt_tensor **piv,
                        lt_tensor **info, lt_error *err);
/* torch.linalg.lu: A = P L U, P m x m, L m x k unit lower, U k x n (k = min(m, n)). */
int lt_linalg_lu(const lt_tensor *a, int pivot, lt_tensor **p, lt_tensor **l, lt_tensor **u,
                 lt_error *err);
/* torch.linalg.lu_solve: A X = B (left) or X A = B, A^H for A when adjoint, A given by
   lu_factor's lu and piv (int32, each 1 to n: checked); batches broadcast. */
int lt_linalg_lu_solve(const lt_tensor *lu, const lt_tensor *piv, const lt_tensor *b, int left,
                       int adjoint, lt_tensor **x, lt_error *err);

/* {====== shared by lt_linalg_solve.c and lt_linalg_lu.c ====== */

/* Checks a (named `name`, "A") for fname: at least 2 dims, square when square is set, sizes
   LAPACK's int holds; *dt its compute dtype (lt_lapack_dtype). */
int lt_la_check(const lt_tensor *a, const char *fname, const char *name, int square, lt_dtype *dt,
                lt_error *err);
/* A new zeroed int32 tensor of a's shape less its last `drop` dims. */
int lt_la_batch_new(const lt_tensor *a, int drop, lt_dtype dt, lt_tensor **out, lt_error *err);
/* The first nonzero element of the int32 tensor info (contiguous): its position (-1: none), its
   value in *v. */
int64_t lt_la_first_fail(const lt_tensor *info, int *v);
/* lt_lapack_ready, then lt_lapack_enter: the start of a run of calls. */
int lt_la_begin(const char *fname, lt_error *err);
/* Views of a (its last `ta` dims matrices) and b (`tb`) whose batch dims are broadcast to one
   shape (*nbatch dims, in *batch). */
int lt_la_broadcast(const lt_tensor *a, int ta, const lt_tensor *b, int tb, const char *fname,
                    lt_tensor **av, lt_tensor **bv, lt_error *err);
/* Fails unless the right-hand sides (r x c) fit A X = B (left: r == n) or X A = B (c == n). */
int lt_la_rhs_check(int64_t n, int64_t r, int64_t c, int left, const char *fname, lt_error *err);
/* Conjugates the n elements of the contiguous buffer p of dtype dt (nothing for real dtypes). */
void lt_la_conj(lt_dtype dt, void *p, int64_t n);
/* Stores re + i im into the element p of dtype dt (a LAPACK dtype). */
void lt_la_store(lt_dtype dt, void *p, double re, double im);
/* Reads the element p of dtype dt (a LAPACK dtype). */
void lt_la_load(lt_dtype dt, const void *p, double *re, double *im);

/* }====== */

#endif
