/*
 * lt_math.h -- tensor math: elementwise operations with broadcasting and PyTorch's type
 * promotion, reductions, matrix products, cat/stack and where.
 *
 * Owns: the promotion rules (categories bool < integer < floating < complex; scalars and 0-d
 * tensors join a higher category only: int32 tensor + 1 stays int32, + 1.5 gives float32), the
 * computation dtype (float16/bfloat16 compute in float32 and round once at the end), the
 * integer rules (wrap-around arithmetic, floor division and remainder with the sign of the
 * divisor, division by zero and negative integer powers refused), and one generic kernel per
 * operation over the computation dtypes, called once per inner run of lt_iter. Lua-free.
 */
#ifndef LT_MATH_H
#define LT_MATH_H

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
  LT_NBINOPS
} lt_binop;

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
  LT_NUNOPS
} lt_unop;

typedef enum {
  LT_SUM,
  LT_PROD,
  LT_MEAN,
  LT_MIN,
  LT_MAX,
  LT_ARGMIN,
  LT_ARGMAX,
  LT_ALL,
  LT_ANY,
  LT_VAR,
  LT_STD
} lt_redop;

/* An operand: a tensor, or a scalar (a Lua number or boolean) when t is NULL. */
typedef struct {
  const lt_tensor *t;
  lt_scalar s;
  int is_bool; /* the scalar was a boolean */
} lt_operand;

extern const char *const lt_binop_names[LT_NBINOPS];
extern const char *const lt_unop_names[LT_NUNOPS];

/* torch.promote_types for two dtypes. */
lt_dtype lt_promote(lt_dtype a, lt_dtype b);
/* The dtype of a op b (bool for comparisons and logical ops). */
int lt_binary_type(lt_binop op, const lt_operand *a, const lt_operand *b, lt_dtype *out,
                   lt_error *err);

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

/* Reduces over every element (dim < 0) or over dim, keeping it as size 1 when keepdim.
   correction: for var/std (torch's default 1). For LT_MIN/LT_MAX with a dim, *idx (when not
   NULL) receives the 0-based positions as int64.
   Result dtypes: sum/prod give int64 for bool and integers (wrapping), else the input dtype;
   mean, var, std keep the (floating) dtype and refuse others, complex included for var/std;
   min/max keep the dtype; argmin/argmax give int64 (over every element: the row-major
   position); all/any give bool. A NaN wins min/max/argmin/argmax (the first one). min, max,
   argmin and argmax of nothing raise; sum gives 0, prod 1, all true, any false, mean and var
   NaN; var/std with N - correction <= 0 give NaN. Complex: sum, prod and mean only. The
   results are new contiguous tensors; without a dim, keepdim gives ndim sizes of 1, else 0-d.
   A 0-d tensor reduces over dim 0 like over every element. *idx is NULL unless filled. */
int lt_reduce(lt_redop op, const lt_tensor *a, int dim, int keepdim, int correction,
              lt_tensor **out, lt_tensor **idx, lt_error *err);

/* torch.matmul: 1-d and 2-d operands, and batches that broadcast (1-d . 1-d is a 0-d dot; a
   1-d left operand is a row and a 1-d right one a column, removed from the result). The dtype
   is lt_promote's of the two (bool refused); float16/bfloat16 compute in float32, integers
   wrap. The result is a new contiguous tensor. */
int lt_matmul(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);

/* torch.cat along dim (dtypes promoted; shapes equal except along dim; n >= 1). 1-d tensors
   of size 0 are skipped as torch does (their dtype still takes part in the promotion). */
int lt_cat(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err);

/* A contiguous copy of t in dtype dt. */
int lt_cast(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err);

#endif
