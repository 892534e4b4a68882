/*
 * lt_math.h -- the elementwise operations beyond the table of lt_funcs.h: clamp, where and
 * masked_fill; and, through lt_funcs.h, every f(x) and f(x, y) of that table (lt_unary,
 * lt_binary). Lua-free.
 *
 * The driver every elementwise kernel runs under (operands converted to a computation dtype,
 * broadcasting, the in-place checks, the final cast and the pool's threads) is lt_elementwise.c's.
 * Reductions are lt_reduce.h's, matmul, cat and stack lt_linalg.h's.
 *
 * Calls lt_elementwise.c, lt_funcs.c, lt_promote.c, lt_copy.c, lt_tensor.c. Called by the binding,
 * lt_reduce_dims.c, lt_vecops.c, lt_linalg.c, lt_einsum.c.
 */
#ifndef LT_MATH_H
#define LT_MATH_H

#include "lt_funcs.h"
#include "lt_promote.h"
#include "lt_tensor.h"

/* clamp(a, lo, hi): lo or hi may be NULL (no bound). */
int lt_clamp(const lt_tensor *a, const lt_operand *lo, const lt_operand *hi, lt_tensor *inplace,
             lt_tensor **out, lt_error *err);
/* where(cond, a, b): elements of a where cond is true, else of b; broadcast. */
int lt_where(const lt_tensor *cond, const lt_operand *a, const lt_operand *b, lt_tensor **out,
             lt_error *err);

/* t:masked_fill(mask, value): value where mask (a bool tensor, broadcast) is true, else t's
   element. value is a scalar or a 0-d tensor (LT_EARG "value must be a number, boolean or 0-d
   tensor"; a mask of another dtype: "mask must be a bool tensor"). Out of place (inplace 0) the
   result is a new tensor of t's dtype in the broadcast shape; in place the broadcast shape must
   be t's ("output with shape %s doesn't match the broadcast shape %s") and t is written through
   the normal write checks (read-only, shared block, conversion), *out = t. */
int lt_masked_fill(lt_tensor *t, const lt_tensor *mask, const lt_operand *value, int inplace,
                   lt_tensor **out, lt_error *err);

#endif
