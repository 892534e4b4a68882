/*
 * lt_math.h -- elementwise tensor math: binary and unary operations with broadcasting and
 * PyTorch's type promotion (lt_promote.h), clamp, where and masked_fill.
 *
 * Owns: the integer rules (wrap-around arithmetic, floor division and remainder with the sign
 * of the divisor, division by zero and negative integer powers refused, the bitwise operations
 * of integers and bools with shifts defined for every amount as torch 2.x), and one generic kernel
 * per operation over the computation dtypes, called once per inner run of lt_iter. Reductions
 * are lt_reduce.h's, matmul, cat and stack lt_linalg.h's. Lua-free.
 *
 * Calls lt_promote.c, lt_copy.c, lt_iter.c, lt_tensor.c. Called by the binding and
 * lt_reduce_dims.c (count_nonzero, norm).
 */
#ifndef LT_MATH_H
#define LT_MATH_H

#include "lt_promote.h"
#include "lt_tensor.h"

typedef enum {
  LT_NEG,
  LT_ABS,
  LT_SQRT,
  LT_EXP,
  LT_LOG,
  LT_SIN,
  LT_COS,
  LT_TANH,
  LT_FLOOR,
  LT_CEIL,
  LT_ROUND,
  LT_SIGN,
  LT_NOT,
  LT_BNOT,
  LT_NUNOPS
} lt_unop;

extern const char *const lt_binop_names[LT_NBINOPS];
extern const char *const lt_unop_names[LT_NUNOPS];

/* *out = a op b, a new tensor; or, with inplace (which must be a's tensor, writable), the
   result written into it (its dtype must be able to hold the result type). */
int lt_binary(lt_binop op, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
              lt_tensor **out, lt_error *err);
int lt_unary(lt_unop op, const lt_tensor *a, lt_tensor *inplace, lt_tensor **out, lt_error *err);
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
