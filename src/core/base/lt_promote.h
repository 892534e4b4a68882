/*
 * lt_promote.h -- PyTorch's type promotion: the dtype of an operation's result and the dtype it
 * computes in.
 *
 * Owns: the categories bool < integer < floating < complex; torch.promote_types; the result
 * type of operands where scalars and 0-d tensors join a higher category only (int32 tensor + 1
 * stays int32, + 1.5 gives float32); the computation dtype (float16 and bfloat16 compute in
 * float32 and round once at the end); and which result may be written into which tensor
 * (can_cast). Also the binary operations and the operand, since their result type is decided
 * here (their kernels are lt_math.c's). Lua-free.
 *
 * Calls lt_dtype.c and lt_fail only. Called by lt_math.c and lt_linalg.c.
 */
#ifndef LT_PROMOTE_H
#define LT_PROMOTE_H

#include "lt_tensor.h"

typedef enum {
  LT_ADD,
  LT_SUB,
  LT_MUL,
  LT_DIV,
  LT_FLOORDIV,
  LT_REM,
  LT_POW,
  LT_EQ,
  LT_NE,
  LT_LT,
  LT_LE,
  LT_GT,
  LT_GE,
  LT_AND,
  LT_OR,
  LT_MAXIMUM,
  LT_MINIMUM,
  LT_BAND,
  LT_BOR,
  LT_BXOR,
  LT_SHL,
  LT_SHR,
  LT_NBINOPS
} lt_binop;

static inline int lt_is_compare(lt_binop op) { return op >= LT_EQ && op <= LT_GE; }
static inline int lt_is_logical(lt_binop op) { return op == LT_AND || op == LT_OR; }
/* The bitwise operations: integer and bool operands only (the shifts: integer only). */
static inline int lt_is_bitwise(lt_binop op) { return op >= LT_BAND && op <= LT_SHR; }
static inline int lt_is_shift(lt_binop op) { return op == LT_SHL || op == LT_SHR; }

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
/* The dtype of a op b (bool for comparisons and logical ops; true division of integers gives
   float32, pow of bools int64; the bitwise operations keep the promoted dtype, which lt_binary
   refuses when it is floating or complex, or bool for a shift). LT_EOPAQUE for an opaque
   tensor. */
int lt_binary_type(lt_binop op, const lt_operand *a, const lt_operand *b, lt_dtype *out,
                   lt_error *err);
/* The dtype a kernel computes in for a result of dtype r (float16, bfloat16: float32). */
static inline lt_dtype lt_compute_type(lt_dtype r) {
  return r == LT_FLOAT16 || r == LT_BFLOAT16 ? LT_FLOAT32 : r;
}
/* May a result of dtype r be written into a tensor of dtype d in place (torch's can_cast)? */
static inline int lt_can_cast(lt_dtype r, lt_dtype d) {
  return lt_category_of(r) <= lt_category_of(d);
}

#endif
