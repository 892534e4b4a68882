/*
 * lt_vecops.h -- whole-tensor comparisons (isclose, allclose, equal) and the vector products
 * and distances (outer, cross, dist) of torch (lt_vecops.c). Lua-free.
 *
 * Calls lt_iter.c (isclose's kernel, split across the pool), lt_math.c, lt_reduce*.c,
 * lt_linalg.c (stack), lt_tensor.c; called by the binding (lua_softmax.c).
 */
#ifndef LT_VECOPS_H
#define LT_VECOPS_H

#include "lt_tensor.h"

/* torch.isclose: |a - b| <= atol + |rtol * b| elementwise (finite differences only), or a == b,
   or (equal_nan) both NaN; broadcast; a new bool tensor. a and b must have one dtype, rtol and
   atol must be >= 0; complex with equal_nan is refused (as torch). */
int lt_isclose(const lt_tensor *a, const lt_tensor *b, double rtol, double atol, int equal_nan,
               lt_tensor **out, lt_error *err);
/* Whether isclose holds everywhere (*res 0 or 1). */
int lt_allclose(const lt_tensor *a, const lt_tensor *b, double rtol, double atol, int equal_nan,
                int *res, lt_error *err);
/* torch.equal: the same shape and equal elements (dtypes promoted; NaN equals nothing). */
int lt_equal(const lt_tensor *a, const lt_tensor *b, int *res, lt_error *err);

/* torch.dist: the p-norm of a - b (broadcast) over every element, a 0-d tensor (lt_norm's
   rules; the inf norms of nothing give 0, as torch). */
int lt_dist(const lt_tensor *a, const lt_tensor *b, double p, lt_tensor **out, lt_error *err);
/* torch.outer of two 1-d tensors: out[i][j] = a[i] * b[j] (dtypes promoted). */
int lt_outer(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);
/* torch.cross along dim (0-based; dim < 0: the first dim of size 3 of the broadcast shape, as
   torch.cross without dim): a and b have one dtype and ndim, broadcast, size 3 along dim. */
int lt_cross(const lt_tensor *a, const lt_tensor *b, int dim, lt_tensor **out, lt_error *err);

#endif
