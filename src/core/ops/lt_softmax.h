/*
 * lt_softmax.h -- softmax, log_softmax and logsumexp along a dim (lt_softmax.c). Lua-free.
 *
 * Every one is max-shifted (stable: float32 inputs of 1e4 do not overflow). The computation
 * dtype is float32 for float16, bfloat16 and float32 inputs, float64 for float64; the result has
 * the input's dtype. Calls lt_copy.c (casts), lt_vmath.c (exp), lt_iter.c (the walk over the output
 * positions, split across the pool), lt_tensor.c; called by the binding (lua_softmax.c).
 */
#ifndef LT_SOFTMAX_H
#define LT_SOFTMAX_H

#include "lt_tensor.h"

typedef enum { LT_SOFTMAX, LT_LOG_SOFTMAX } lt_smop;

/* softmax or log_softmax of a along dim (0-based; a 0-d tensor takes dim 0), as torch: a row
   holding NaN or +inf gives NaN, a row of -inf only gives NaN, -inf entries give 0 (softmax) and
   -inf (log_softmax). dtype (LT_NDTYPES: none) is torch's dtype=: the input is cast to it first.
   Without it an integer or bool input is refused as torch refuses it. A new contiguous tensor
   of a's shape. */
int lt_softmax(lt_smop op, const lt_tensor *a, int dim, lt_dtype dtype, lt_tensor **out,
               lt_error *err);

/* log(sum(exp(x))) over the ndims dims (0-based, each once; ndims 0: every dim), keeping them
   as size 1 when keepdim. As torch: a row of -inf only gives -inf, one holding +inf gives +inf,
   an empty row -inf; integer and bool inputs compute in float32. A new contiguous tensor. */
int lt_logsumexp(const lt_tensor *a, const int *dims, int ndims, int keepdim, lt_tensor **out,
                 lt_error *err);

#endif
