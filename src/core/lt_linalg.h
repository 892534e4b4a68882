/*
 * lt_linalg.h -- matrix products (torch.matmul), concatenation (torch.cat) and stacking
 * (torch.stack). Lua-free.
 *
 * Calls lt_promote.c, lt_copy.c, lt_iter.c, lt_tensor.c. Called by the binding.
 */
#ifndef LT_LINALG_H
#define LT_LINALG_H

#include "lt_tensor.h"

/* torch.matmul: 1-d and 2-d operands, and batches that broadcast (1-d . 1-d is a 0-d dot; a
   1-d left operand is a row and a 1-d right one a column, removed from the result). The dtype
   is lt_promote's of the two (bool refused); float16/bfloat16 compute in float32, integers
   wrap. The result is a new contiguous tensor. */
int lt_matmul(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);

/* torch.cat along dim (dtypes promoted; shapes equal except along dim; n >= 1). 1-d tensors
   of size 0 are skipped as torch does (their dtype still takes part in the promotion). */
int lt_cat(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err);

/* torch.stack along dim (0-based, 0 to ndim): every tensor must have the shape of the first
   ("expects each tensor to be equal size, but got %s at entry 1 and %s at entry %d"); each is
   viewed with a size-1 dim inserted at dim, then they are concatenated (lt_cat, dtypes
   promoted). n >= 1. */
int lt_stack(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err);

#endif
