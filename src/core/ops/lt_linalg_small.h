/*
 * lt_linalg_small.h -- ltensor's own kernels for batches of small square matrices (1x1 to 4x4):
 * inv, det and solve without LAPACK, vectorized across the batch for float32 and float64 (complex64
 * and complex128: one matrix at a time, in complex double, with zgetf2's pivoting). Lua-free.
 *
 * Each real kernel loads a block of matrices into structure-of-arrays form (element (i, j) of 8
 * float32 or 4 float64 matrices side by side: one AVX2 vector, so that every step is one vector
 * operation over the block), factors them by LU with partial pivoting (LAPACK's getrf, unrolled,
 * the pivot chosen by branchless selects), then substitutes. The results are those of
 * getrf/getrs/getri up to rounding; a zero pivot is reported as getrf reports it (info k > 0) and
 * never divided by.
 *
 * Calls lt_tensor.c. Called by the lt.linalg core (inv, det and solve pick these kernels for
 * the matrices lt_small_takes takes, in builds with or without LAPACK), bench/lapack.c and
 * spec/c/test_linalg_small.c.
 */
#ifndef LT_LINALG_SMALL_H
#define LT_LINALG_SMALL_H

#include "lt_tensor.h"

/* Whether the fixed-size kernels take n x n matrices of dtype dt (n 1..4, and 0: empty matrices,
   det 1, as torch; float32, float64, complex64, complex128). Failures below name the function as
   torch does
   ("linalg.inv: ..."). */
int lt_small_takes(lt_dtype dt, int64_t n);

/* a: ... x n x n of dtype dt (lt_small_takes), any strides. *inv: a new contiguous tensor of a's
   shape; *info: a new int32 tensor of the batch shape: 0, or k > 0 when the matrix is singular
   (LAPACK's getrf meaning: the 1-based index of the first exactly-zero pivot). The inverse of a
   singular matrix holds what the substitution gave with its zero pivots taken as 1. */
int lt_small_inv(const lt_tensor *a, lt_tensor **inv, lt_tensor **info, lt_error *err);

/* *det: a new tensor of the batch shape, dtype dt (0 exactly for a zero pivot). */
int lt_small_det(const lt_tensor *a, lt_tensor **det, lt_error *err);

/* b: ... x n x k with the same batch shape as a (the caller broadcasts both), dtype dt. *x: new
   contiguous ... x n x k; *info as lt_small_inv's. */
int lt_small_solve(const lt_tensor *a, const lt_tensor *b, lt_tensor **x, lt_tensor **info,
                   lt_error *err);

#endif
