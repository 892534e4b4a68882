/*
 * lt_dist.h -- pairwise distances (torch.cdist, torch.pdist): the p-norm distance between every
 * row of one matrix and every row of another (cdist, batched with broadcasting), or between
 * every pair of rows of one matrix (pdist). Lua-free.
 *
 * float32 and float64 only, as torch 1.13 (integers, complex and the half types are refused).
 * p = 0 counts the differing coordinates, p = inf takes the largest difference, any other
 * p >= 0 is (sum |a - b|^p)^(1/p). For p = 2 cdist may take the matrix-product form
 * sqrt(max(|a|^2 + |b|^2 - 2 a.b, 0)) through lt_matmul (the BLAS), as torch's compute_mode
 * says: faster, a little less exact for points close together.
 *
 * Calls lt_linalg.c (lt_matmul), lt_copy.c, lt_tensor.c, lt_pool.c, lt_vmath.c. Called by the
 * binding (lua_dist.c).
 */
#ifndef LT_DIST_H
#define LT_DIST_H

#include "lt_tensor.h"

/* torch's compute_mode: the product form for p = 2 when either side has more than 25 rows
   (use_mm_for_euclid_dist_if_necessary), always (use_mm_for_euclid_dist), never
   (donot_use_mm_for_euclid_dist). */
typedef enum { LT_CDIST_MM_IF_NEEDED, LT_CDIST_MM, LT_CDIST_NO_MM } lt_cdist_mode;

/* *out (batch..., P, R) = the p-norm distance of every row of x1 (batch1..., P, M) to every row
   of x2 (batch2..., R, M), the batch dims broadcast; of x1's dtype, which x2 must share. LT_EARG
   for fewer than 2 dims ("x1 must have at least 2 dims, got 1"), another dtype, different
   column counts, batch dims that do not broadcast, p < 0 or NaN. */
int lt_cdist(const lt_tensor *x1, const lt_tensor *x2, double p, lt_cdist_mode mode,
             lt_tensor **out, lt_error *err);

/* *out (1-d, N (N - 1) / 2) = the p-norm distance of rows i < j of x (N x M), in row-major
   order of (i, j), as torch.pdist. LT_EARG unless x is 2-d float32 or float64 and p >= 0. */
int lt_pdist(const lt_tensor *x, double p, lt_tensor **out, lt_error *err);

#endif
