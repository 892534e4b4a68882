/*
 * lt_funcs.h -- the elementwise functions of torch beyond lt_math.h's: sigmoid, relu, gelu,
 * silu, the inverse trigonometric and hyperbolic functions, log1p, expm1, log2, log10, exp2,
 * trunc, frac, rsqrt, erf, erfc, isnan, isinf, isfinite, nan_to_num; atan2, fmod, hypot and
 * lerp (remainder is lt_math.h's LT_REM).
 *
 * Owns torch's dtype rules for each: the floating functions give float32 for bool and integer
 * inputs; gelu, silu, frac, hypot and lerp refuse them; relu and trunc keep integer dtypes;
 * isnan, isinf and isfinite give bool for every dtype; nan_to_num keeps the dtype. float16 and
 * bfloat16 compute in float32 and round once. Complex inputs: isnan, isinf, isfinite only,
 * others fail with "<name> is not implemented for complex64". Runs through lt_math.c's driver
 * (lt_elementwise.h): broadcasting, in-place checks, the pool. Contiguous float32 sigmoid,
 * silu, gelu, expm1, log1p, erf and erfc use lt_vmath.h's kernels (strided runs too, through a
 * buffer, so a result never depends on the layout). Lua-free.
 *
 * Called by the binding (lua_funcs.c); calls lt_math.c (driver), lt_vmath.c, lt_tensor.c.
 */
#ifndef LT_FUNCS_H
#define LT_FUNCS_H

#include "lt_promote.h"
#include "lt_tensor.h"

typedef enum {
  LT_SIGMOID,
  LT_RELU,
  LT_GELU,
  LT_GELU_TANH, /* gelu(x, approximate = "tanh") */
  LT_SILU,
  LT_TAN,
  LT_ASIN,
  LT_ACOS,
  LT_ATAN,
  LT_SINH,
  LT_COSH,
  LT_ASINH,
  LT_ACOSH,
  LT_ATANH,
  LT_LOG1P,
  LT_EXPM1,
  LT_LOG2,
  LT_LOG10,
  LT_EXP2,
  LT_TRUNC,
  LT_FRAC,
  LT_RSQRT,
  LT_ERF,
  LT_ERFC,
  LT_ISNAN,
  LT_ISINF,
  LT_ISFINITE,
  LT_NFUNCS
} lt_func;

typedef enum { LT_ATAN2, LT_FMOD, LT_HYPOT, LT_NFUNCS2 } lt_bfunc;

extern const char *const lt_func_names[LT_NFUNCS];
extern const char *const lt_bfunc_names[LT_NFUNCS2];

/* *out = f(a), a new tensor; or with inplace (a itself, writable) the result written into it
   (its dtype must hold the result's: "result type float32 can't be cast to ..."). */
int lt_func1(lt_func f, const lt_tensor *a, lt_tensor *inplace, lt_tensor **out, lt_error *err);
/* f(a, b), broadcast; atan2 of integers gives float32; fmod of integers truncates (the sign of
   the dividend) and refuses a zero divisor ("integer division by zero", as a % b). */
int lt_func2(lt_bfunc f, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
             lt_tensor **out, lt_error *err);
/* lerp(a, end, weight) = a + weight (end - a), as torch (end - (end - a)(1 - weight) where
   |weight| >= 0.5); weight a scalar or a tensor; floating dtypes only. */
int lt_lerp(const lt_operand *a, const lt_operand *end, const lt_operand *weight,
            lt_tensor *inplace, lt_tensor **out, lt_error *err);
/* nan_to_num(a): NaN to nan, +inf to posinf, -inf to neginf (NULL: 0, the dtype's largest
   finite value, its lowest). Integers and bool are copied unchanged; complex fails. */
int lt_nan_to_num(const lt_tensor *a, const double *nan, const double *posinf, const double *neginf,
                  lt_tensor *inplace, lt_tensor **out, lt_error *err);

#endif
