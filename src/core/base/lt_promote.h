/*
 * lt_promote.h -- PyTorch's type promotion: the dtype of an operation's result and the dtype it
 * computes in.
 *
 * Owns: the categories bool < integer < floating < complex; torch.promote_types; the result
 * type of operands where scalars and 0-d tensors join a higher category only (int32 tensor + 1
 * stays int32, + 1.5 gives float32); the computation dtype (float16 and bfloat16 compute in
 * float32 and round once at the end); and which result may be written into which tensor
 * (can_cast). Also the operand of an elementwise operation (a tensor or a scalar). Each
 * function's own rule on top of promotion is its row's (lt_funcs.h). Lua-free.
 *
 * Calls lt_dtype.c and lt_fail only. Called by lt_math.c and lt_linalg.c.
 */
#ifndef LT_PROMOTE_H
#define LT_PROMOTE_H

#include "lt_tensor.h"

/* An operand: a tensor, or a scalar (a Lua number or boolean) when t is NULL. */
typedef struct {
  const lt_tensor *t;
  lt_scalar s;
  int is_bool; /* the scalar was a boolean */
} lt_operand;

/* The promotion categories, in promotion order. */
typedef enum { LT_CAT_BOOL, LT_CAT_INT, LT_CAT_FLOAT, LT_CAT_COMPLEX } lt_category;
lt_category lt_category_of(lt_dtype d);

/* torch.promote_types for two dtypes; LT_OPAQUE when either is (lt_dtypes has no entry for it). */
lt_dtype lt_promote(lt_dtype a, lt_dtype b);
/* The promoted dtype of n operands under torch's rules (tensors with dims, then 0-d tensors,
   then scalars, each joining only from a higher category); LT_OPAQUE when a tensor among them
   is opaque. */
lt_dtype lt_result_type(int n, const lt_operand *const *ops);
/* The dtype a kernel computes in for a result of dtype r (float16, bfloat16: float32). */
static inline lt_dtype lt_compute_type(lt_dtype r) {
  return r == LT_FLOAT16 || r == LT_BFLOAT16 ? LT_FLOAT32 : r;
}
/* May a result of dtype r be written into a tensor of dtype d in place (torch's can_cast)? */
static inline int lt_can_cast(lt_dtype r, lt_dtype d) {
  return lt_category_of(r) <= lt_category_of(d);
}

#endif
