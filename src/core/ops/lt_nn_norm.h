/*
 * lt_nn_norm.h -- the normalizations of torch.nn.functional: layer_norm, group_norm, rms_norm,
 * batch_norm, and the vector ones normalize, cosine_similarity and pairwise_distance; with the
 * input rules the nn files share (lt_nn_float, lt_nn_compute). Lua-free.
 *
 * Every function takes floating inputs (float16 and bfloat16 compute in float32, the result in
 * the input's dtype) and returns a new contiguous tensor. The row normalizations run one kernel
 * (a row's mean and variance, then a per-channel scale and shift) over the worker pool.
 *
 * Calls lt_copy.c, lt_pool.c, lt_reduce_dims.c (lt_norm), lt_math.c, lt_tensor.c. Called by
 * the binding (lua_nn_norm.c) and by lt_nn_attn.c, lt_nn_resize.c (the input rules).
 */
#ifndef LT_NN_NORM_H
#define LT_NN_NORM_H

#include "lt_tensor.h"

/* LT_EARG "<what>: expected a floating-point tensor, got <dtype>" unless t is float16,
   bfloat16, float32 or float64: the one wording of every nn function's refusal. */
int lt_nn_float(const lt_tensor *t, const char *what, lt_error *err);
/* Whether dt is one of those floating dtypes. */
int lt_nn_is_float(lt_dtype dt);
/* The computation dtype of inputs of dtype dt: float64 for float64, else float32. */
lt_dtype lt_nn_compute(lt_dtype dt);
/* *r cast to dt unless it has it (the old one freed); on failure *r is freed and NULL. */
int lt_nn_finish(lt_tensor **r, lt_dtype dt, lt_error *err);

/* layer_norm over the last nd dims of x, whose sizes must be shape (nd >= 1); w and b (NULL:
   none) of that shape; eps >= 0. */
int lt_nn_layer_norm(const lt_tensor *x, int nd, const int64_t *shape, const lt_tensor *w,
                     const lt_tensor *b, double eps, lt_tensor **out, lt_error *err);
/* rms_norm: x * rsqrt(mean(x^2) + eps) * w over the last nd dims (w NULL: none); eps < 0 takes
   the machine epsilon of x's dtype (torch 2.x's eps=None). */
int lt_nn_rms_norm(const lt_tensor *x, int nd, const int64_t *shape, const lt_tensor *w, double eps,
                   lt_tensor **out, lt_error *err);
/* group_norm of x (N, C, *) in groups of C / groups channels; w and b of shape (C) or NULL. */
int lt_nn_group_norm(const lt_tensor *x, int64_t groups, const lt_tensor *w, const lt_tensor *b,
                     double eps, lt_tensor **out, lt_error *err);
/* batch_norm of x (N, C, *): with training, the batch's statistics per channel (more than one
   value per channel), and rm, rv (NULL: none) updated in place as torch (momentum, the
   unbiased variance); without, rm and rv (both required) normalize. w, b: (C) or NULL. */
int lt_nn_batch_norm(const lt_tensor *x, lt_tensor *rm, lt_tensor *rv, const lt_tensor *w,
                     const lt_tensor *b, int training, double momentum, double eps, lt_tensor **out,
                     lt_error *err);

/* normalize: x / max(||x||_p along dim, eps) (dim 0-based). */
int lt_nn_normalize(const lt_tensor *x, double p, int dim, double eps, lt_tensor **out,
                    lt_error *err);
/* cosine_similarity of a and b (broadcast) along dim (0-based, of the broadcast shape):
   sum(a b) / sqrt(max(sum(a^2), eps^2) max(sum(b^2), eps^2)). */
int lt_nn_cosine_similarity(const lt_tensor *a, const lt_tensor *b, int dim, double eps,
                            lt_tensor **out, lt_error *err);
/* pairwise_distance: the p-norm of a - b + eps along the last dim (of the broadcast shape). */
int lt_nn_pairwise_distance(const lt_tensor *a, const lt_tensor *b, double p, double eps,
                            int keepdim, lt_tensor **out, lt_error *err);

#endif
