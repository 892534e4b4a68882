/*
 * lt_einsum.h -- torch.einsum: the equation parsed, checked against the operands, and
 * executed as diagonal views, sums and matrix products. Lua-free.
 *
 * Calls lt_linalg.c (lt_matmul), lt_reduce_dims.c, lt_copy.c, lt_tensor.c. Called by the
 * binding (lua_einsum.c).
 */
#ifndef LT_EINSUM_H
#define LT_EINSUM_H

#include <stddef.h>

#include "lt_tensor.h"

/*
 * The contraction of the n operands (n >= 1) that eq (len bytes) describes, as torch.einsum:
 * indices are letters (a-z, A-Z), spaces are ignored, operands are separated by commas, "..."
 * stands for the dims no letter names (broadcast across operands, right-aligned, sizes of 1
 * stretching), and "->" starts the output; without it the output is the ellipsis dims then the
 * letters that appear once, in ASCII order (upper case first). A letter repeated within an operand
 * takes its diagonal; letters not in the output are summed; a letter of size 1 broadcasts against
 * the others. Operands are contracted pairwise from the left: letters of one operand only are
 * summed first (lt_reduce_dims), then the pair becomes one batched matrix product
 * (lt_matmul: the BLAS for float and complex dtypes). The result dtype is what those steps
 * give: the promotion of the operands' dtypes (bool refused by the product), and int64 for
 * integers that went through a sum, as torch's sum gives. The result is always a new tensor,
 * 0-d when the output has no index. Operands and errors are numbered from 1.
 */
int lt_einsum(const char *eq, size_t len, const lt_tensor *const *ops, int n, lt_tensor **out,
              lt_error *err);

#endif
