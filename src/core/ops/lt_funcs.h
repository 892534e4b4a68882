/*
 * lt_funcs.h -- the elementwise functions f(x) and f(x, y): add, mul, the comparisons, the
 * bitwise operations, neg, abs, exp, sigmoid, erf, isnan ... (every entry of lt_funcs_table.h),
 * with broadcasting and PyTorch's type promotion (lt_promote.h); and lerp, nan_to_num and polar,
 * whose arguments or results the rows do not describe. Lua-free.
 *
 * Definitions are data: each function is one row of lt_funcs[] -- its name, dtype rule, kernels
 * per computation dtype, Lua forms, option and messages -- made by lt_funcs.c from the table
 * lt_funcs_table.h, whose order is the enum's. lt_unary and lt_binary run any row; the binding
 * registers its methods, in-place methods and module forms from the rows (lua_funcs.c), and the
 * C test checks every row against its reference (spec/c/test_math.c).
 *
 * The dtype rules are torch 2.x's: float16 and bfloat16 compute in float32 and round once into
 * the result; integers wrap; floor division and remainder take the divisor's sign; a zero integer
 * divisor and a negative integer power raise. Calls lt_elementwise.c (the driver),
 * lt_vmath.c, lt_stream.c, lt_tensor.c; called by the binding, lt_math.c (clamp), lt_reduce_dims.c,
 * lt_vecops.c, lt_linalg.c, lt_einsum.c.
 */
#ifndef LT_FUNCS_H
#define LT_FUNCS_H

#include "lt_elementwise.h"
#include "lt_promote.h"
#include "lt_tensor.h"

/* Every elementwise function: LT_ADD, LT_SUB, ..., LT_ISFINITE (lt_funcs_table.h's order). */
typedef enum {
#define LT_FN(E, name, nin, rule, forms, opt, hint, fail) LT_##E,
#include "lt_funcs_table.h"
  LT_NFUNCS
} lt_func;

/* The dtype of a result, from the promoted dtype p of the operands (lt_result_type). */
typedef enum {
  LT_RULE_SAME,   /* p (float16 and bfloat16 compute in float32) */
  LT_RULE_FLOAT,  /* p, but bool and integers give float32 */
  LT_RULE_POW,    /* p, but bool gives int64 */
  LT_RULE_REAL,   /* p, but complex gives its part's dtype (abs) */
  LT_RULE_BOOL,   /* bool, computed in p (comparisons, isnan ...) */
  LT_RULE_LOGICAL /* bool, computed in bool (the operands are cast to bool first) */
} lt_rule;

/* The forms a function has in Lua: t:name(...), t:name_(...), lt.name(t, ...). */
enum { LT_FORM_METHOD = 1, LT_FORM_INPLACE = 2, LT_FORM_MODULE = 4 };

typedef struct {
  const char *name; /* torch's name */
  int nin;          /* operands: 1 or 2 */
  lt_rule rule;
  unsigned forms;           /* LT_FORM_* */
  const char *opt;          /* the key of its one options-table option, or NULL */
  const char *hint;         /* what a refused dtype's message ends with, or NULL */
  const char *fail;         /* the message of a failing kernel, or NULL */
  lt_kernel k[LT_NDTYPES];  /* by computation dtype; NULL: refused */
  lt_kernel nt[LT_NDTYPES]; /* the streaming twins, or NULL */
} lt_func_row;

extern const lt_func_row lt_funcs[LT_NFUNCS];

/* *out = f(a) for a row of one operand, a new tensor; or, with inplace (a itself, writable),
   the result written into it (its dtype must hold the result's: "result type float32 can't be
   cast to the tensor's dtype int64"). A dtype without a kernel: "not supported for bool (use
   logical_not)", the row's hint in parentheses. Messages name no function. */
int lt_unary(lt_func f, const lt_tensor *a, lt_tensor *inplace, lt_tensor **out, lt_error *err);
/* The same for a row of two operands, broadcast: *out = f(a, b). */
int lt_binary(lt_func f, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
              lt_tensor **out, lt_error *err);

/* lerp(a, end, weight) = a + weight (end - a), as torch (end - (end - a)(1 - weight) where
   |weight| >= 0.5); weight a scalar or a tensor; floating dtypes only. */
int lt_lerp(const lt_operand *a, const lt_operand *end, const lt_operand *weight,
            lt_tensor *inplace, lt_tensor **out, lt_error *err);
/* nan_to_num(a): NaN to nan, +inf to posinf, -inf to neginf (NULL: 0, the dtype's largest
   finite value, its lowest). Integers and bool are copied unchanged; complex fails. */
int lt_nan_to_num(const lt_tensor *a, const double *nan, const double *posinf, const double *neginf,
                  lt_tensor *inplace, lt_tensor **out, lt_error *err);

/* polar(abs, angle) = abs * (cos(angle) + i sin(angle)), broadcast: both float32 (a complex64
   result) or both float64 (complex128); else LT_EARG. */
int lt_polar(const lt_tensor *abs, const lt_tensor *angle, lt_tensor **out, lt_error *err);

#endif
