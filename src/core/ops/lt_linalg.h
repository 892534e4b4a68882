/*
 * lt_linalg.h -- matrix products (torch.matmul), concatenation (torch.cat) and stacking
 * (torch.stack). Lua-free.
 *
 * Matrix products of float32, float64, complex64 and complex128 go to the BLAS when one was
 * found at build time and is switched on (lt_blas.h): operands whose matrices are row-major or
 * transposed with a unit stride go as they are (strides become leading dimensions), others are
 * packed once into a contiguous copy. Every other dtype, and every product without a BLAS, runs
 * ltensor's own kernel.
 *
 * Calls lt_blas.c, lt_promote.c, lt_copy.c, lt_math.c, lt_iter.c, lt_tensor.c. Called by the
 * binding.
 */
#ifndef LT_LINALG_H
#define LT_LINALG_H

#include "lt_tensor.h"

/* torch.matmul: 1-d and 2-d operands, and batches that broadcast (1-d . 1-d is a 0-d dot; a
   1-d left operand is a row and a 1-d right one a column, removed from the result). The dtype
   is lt_promote's of the two (bool refused); float16/bfloat16 compute in float32, integers
   wrap. The result is a new contiguous tensor. */
int lt_matmul(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);

/* The fixed-rank forms, with torch's shape checks and errors naming the operand and the sizes,
   then lt_matmul: mm (2-d self, 2-d mat2), bmm (3-d, equal batch sizes, no broadcasting), mv
   (2-d self, 1-d vec), dot (1-d self and other of one size; a 0-d result). */
int lt_mm(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);
int lt_bmm(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);
int lt_mv(const lt_tensor *a, const lt_tensor *v, lt_tensor **out, lt_error *err);
int lt_dot(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);
/* torch.addmm: beta input + alpha (mat1 mat2), input broadcast to the product's n x m. The
   dtype is the promotion of the three; alpha and beta are integers for an integer result and
   real for a real one. beta 0 ignores input's values (NaN included), as torch. Through the
   BLAS in one gemm where it takes the dtype, else the product then the elementwise
   operations. */
int lt_addmm(const lt_tensor *input, const lt_tensor *a, const lt_tensor *b, const lt_scalar *beta,
             const lt_scalar *alpha, lt_tensor **out, lt_error *err);

/* torch.baddbmm: beta input + alpha (batch1 @ batch2) for 3-d batch1 (b x n x k) and batch2
   (b x k x m), input broadcast to b x n x m; dtypes, alpha and beta as lt_addmm's (beta 0
   ignores input's values). The products, then the elementwise operations. */
int lt_baddbmm(const lt_tensor *input, const lt_tensor *a, const lt_tensor *b,
               const lt_scalar *beta, const lt_scalar *alpha, lt_tensor **out, lt_error *err);

/* torch.cat along dim (dtypes promoted; shapes equal except along dim; n >= 1). 1-d tensors
   of size 0 are skipped as torch does (their dtype still takes part in the promotion). */
int lt_cat(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err);

/* torch.stack along dim (0-based, 0 to ndim): every tensor must have the shape of the first
   ("expects each tensor to be equal size, but got %s at entry 1 and %s at entry %d"); each is
   viewed with a size-1 dim inserted at dim, then they are concatenated (lt_cat, dtypes
   promoted). n >= 1. */
int lt_stack(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err);

#endif
