/*
 * lt_nn_act.h -- the activations of torch.nn.functional that take parameters (leaky_relu, elu,
 * celu, softplus, hardtanh, threshold) or a dim (softmin, glu). The parameter-free ones (selu,
 * relu6, hardswish, hardsigmoid, mish, logsigmoid, softsign, tanhshrink) are rows of
 * lt_funcs_table.h and run through lt_unary. Lua-free.
 *
 * Owns: one kernel per (activation, computation dtype) reading its parameters, stored in the
 * computation dtype, from the kernel's context; they run through lt_elementwise.c's driver (the
 * pool's threads, in place or into a new tensor). softmin and glu are composed of lt_softmax.c
 * and lt_funcs.c's rows. Calls lt_elementwise.c, lt_funcs.c, lt_softmax.c, lt_copy.c,
 * lt_tensor.c; called by the binding (lua_nn_act.c).
 */
#ifndef LT_NN_ACT_H
#define LT_NN_ACT_H

#include "lt_tensor.h"

typedef enum {
  LT_ACT_LEAKY_RELU, /* x > 0 ? x : p0 * x (p0: negative_slope) */
  LT_ACT_ELU,        /* x > 0 ? x : p0 * (exp(x) - 1) (p0: alpha) */
  LT_ACT_CELU,       /* x > 0 ? x : p0 * (exp(x / p0) - 1) (p0: alpha, not 0) */
  LT_ACT_SOFTPLUS,   /* x * p0 > p1 ? x : log1p(exp(p0 * x)) / p0 (beta, threshold) */
  LT_ACT_HARDTANH,   /* min(max(x, p0), p1) (min_val, max_val); integers too */
  LT_ACT_THRESHOLD,  /* x <= p0 ? p1 : x (threshold, value); integers too */
  LT_NACTS
} lt_act;

/* *out = act(a; p0, p1), a's dtype (float16 and bfloat16 compute in float32); or, with inplace
   (a itself), written into it. Floating dtypes only, and the integers for hardtanh and
   threshold (their parameters truncated toward zero, and raising when out of the dtype's range,
   as torch's); "not supported for bool" and the like otherwise. */
int lt_nn_act(lt_act act, const lt_tensor *a, double p0, double p1, lt_tensor *inplace,
              lt_tensor **out, lt_error *err);

/* softmin(a, dim) = softmax(-a, dim) (dim 0-based; dtype as lt_softmax's). A new tensor. */
int lt_nn_softmin(const lt_tensor *a, int dim, lt_dtype dtype, lt_tensor **out, lt_error *err);

/* glu(a, dim): the first half of a along dim (0-based) times the sigmoid of the second half;
   the size along dim must be even ("halving dimension must be even"), a 0-d tensor fails. */
int lt_nn_glu(const lt_tensor *a, int dim, lt_tensor **out, lt_error *err);

#endif
