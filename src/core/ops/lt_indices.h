/*
 * lt_indices.h -- tensors made from tables of positions, with torch's names: cartesian_prod,
 * combinations, tril_indices / triu_indices, unravel_index, and vander (the powers of a vector).
 * Positions a caller reads or gets are counted from `base` (1 for the Lua binding, as nonzero
 * and argmax count). Every size is checked for overflow before anything is allocated, so a huge
 * request fails with a message, never a crash. Lua-free.
 *
 * Calls lt_tensor.c, lt_copy.c, lt_dtype.c. Called by the binding (lua_layout.c).
 */
#ifndef LT_INDICES_H
#define LT_INDICES_H

#include "lt_tensor.h"

/* torch.cartesian_prod: ts[0..n) 1-d tensors of one dtype; an N x n tensor of every tuple in
   row-major order (n == 1: the tensor itself, a view). */
int lt_cartesian_prod(const lt_tensor *const *ts, int n, lt_tensor **out, lt_error *err);
/* torch.combinations: the r-element combinations of a 1-d t's elements (with_replacement: with
   repetitions), in lexicographic order of positions, as a count x r tensor of t's dtype
   (r == 0: an empty 1-d tensor). */
int lt_combinations(const lt_tensor *t, int64_t r, int with_replacement, lt_tensor **out,
                    lt_error *err);
/* torch.tril_indices (upper 0: j - i <= offset) / triu_indices (upper 1: j - i >= offset): a
   2 x N tensor of dtype dt (an integer dtype) of the row and column positions, counted from
   base, of those elements of a row x col matrix, in row-major order. */
int lt_tri_indices(int64_t row, int64_t col, int64_t offset, int upper, lt_dtype dt, int base,
                   lt_tensor **out, lt_error *err);
/* torch.unravel_index: for flat positions idx (an integer tensor, counted from base, negatives
   from the end), the coordinates in a tensor of shape (nd sizes), counted from base: nd int64
   tensors of idx's shape into outs. */
int lt_unravel_index(const lt_tensor *idx, int nd, const int64_t *shape, int base, lt_tensor **outs,
                     lt_error *err);
/* torch.vander: the len(x) x N matrix of powers of the 1-d x (N < 0: len(x)), decreasing from
   x^(N-1) unless increasing; bool and integers give int64 (wrapping), float16 and bfloat16
   compute in float32. */
int lt_vander(const lt_tensor *x, int64_t N, int increasing, lt_tensor **out, lt_error *err);

#endif
