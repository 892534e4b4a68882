/*
 * lt_linalg_funcs.h -- the products and matrix functions of torch.linalg that need no LAPACK:
 * matrix_exp, multi_dot, vecdot, cross and diagonal. Lua-free.
 *
 * Messages start with the function's torch name ("linalg.matrix_exp: ..."), as lt_lapack.h's
 * do, so the binding raises them as they are. Dims are 0-based here.
 *
 * Calls lt_linalg.c (lt_matmul), lt_vecops.c (lt_cross), lt_shape.c (lt_diagonal), lt_lapack.c
 * (the dtype rule), lt_copy.c, lt_iter.c, lt_tensor.c. Called by the binding
 * (lua_linalg_funcs.c).
 */
#ifndef LT_LINALG_FUNCS_H
#define LT_LINALG_FUNCS_H

#include "lt_tensor.h"

/* torch.linalg.matrix_exp of ... x n x n: scaling and squaring (each matrix scaled by 2^-s to a
   1-norm of at most 1, then squared s times) around the Taylor polynomial of degree 18
   evaluated by Paterson-Stockmeyer (7 products), in float64 (complex128 for complex input),
   the result in a's dtype. float16 and bfloat16 as float32; integers and bool refused. */
int lt_matrix_exp(const lt_tensor *a, lt_tensor **out, lt_error *err);

/* torch.linalg.multi_dot of n >= 2 tensors of one dtype: the first may be 1-d (a row), the last
   1-d (a column), the others 2-d; multiplied in the order of least scalar products (the classic
   dynamic programme; left to right past 256 tensors). */
int lt_multi_dot(const lt_tensor *const *ts, int n, lt_tensor **out, lt_error *err);

/* torch.linalg.vecdot: sum over dim (0-based, of the broadcast shape; a 0-d pair is one
   element) of conj(x) * y, x and y of one floating or complex dtype, broadcast. float32 sums in
   float64. */
int lt_vecdot(const lt_tensor *x, const lt_tensor *y, int dim, lt_tensor **out, lt_error *err);

/* torch.linalg.cross along dim (0-based, required: linalg's default is the last dim). */
int lt_linalg_cross(const lt_tensor *x, const lt_tensor *y, int dim, lt_tensor **out,
                    lt_error *err);

/* torch.linalg.diagonal: lt_diagonal with linalg's names in its messages. */
int lt_linalg_diagonal(const lt_tensor *a, int64_t offset, int dim1, int dim2, lt_tensor **out,
                       lt_error *err);

#endif
