/*
 * lt_nn_attn.h -- the pieces of a transformer block in torch.nn.functional: linear, bilinear,
 * scaled_dot_product_attention, dropout, embedding and one_hot. Lua-free.
 *
 * Products go through lt_linalg (the BLAS); softmax and the rest are short kernels of their own.
 * Results are new contiguous tensors (dropout in place and with training off excepted).
 *
 * Calls lt_linalg.c, lt_vmath.c, lt_pool.c, lt_math.c, lt_random.c, lt_gather.c, lt_shape.c,
 * lt_copy.c, lt_nn_norm.c (the input rules). Called by the binding (lua_nn_norm.c).
 */
#ifndef LT_NN_ATTN_H
#define LT_NN_ATTN_H

#include "lt_random.h"
#include "lt_tensor.h"

/* x (..., in) times w^T (w: (out, in), or (in) giving (...)), plus b (NULL: none; broadcast to
   the product). x, w and b of one dtype (bool refused by the product). */
int lt_nn_linear(const lt_tensor *x, const lt_tensor *w, const lt_tensor *b, lt_tensor **out,
                 lt_error *err);
/* y[..., o] = sum_ij x1[..., i] w[o, i, j] x2[..., j] + b[o]; x1 and x2 with the same leading
   dims, w (out, in1, in2), b (out) or NULL. */
int lt_nn_bilinear(const lt_tensor *x1, const lt_tensor *x2, const lt_tensor *w, const lt_tensor *b,
                   lt_tensor **out, lt_error *err);

/* softmax(q k^T scale + mask) v, as torch 2.x's scaled_dot_product_attention: q (..., L, E),
   k (..., S, E), v (..., S, Ev), batch dims broadcast; mask (NULL: none) a bool tensor (true:
   take part) or a floating one added, broadcast to (..., L, S); causal: the lower triangle
   only (no mask with it); scale <= 0 or NaN: 1 / sqrt(E); dropout_p in [0, 1) draws from g. */
int lt_nn_attention(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v,
                    const lt_tensor *mask, double dropout_p, int causal, double scale,
                    lt_generator *g, lt_tensor **out, lt_error *err);

/* dropout: each element multiplied by 0 with probability p, the others divided by 1 - p (draws
   from g). With
   inplace, x itself is written (it must be writable) and *out = x; without, a new tensor. */
int lt_nn_dropout(lt_tensor *x, double p, int inplace, lt_generator *g, lt_tensor **out,
                  lt_error *err);

/* The rows of weight (num, dim) at the 1-based indices idx (an integer tensor of any shape):
   idx.shape + (dim). max_norm > 0: the rows idx names whose norm_type-norm exceeds it are
   first scaled to max_norm in place (as torch: max_norm / (norm + 1e-7)). */
int lt_nn_embedding(const lt_tensor *idx, lt_tensor *weight, double max_norm, double norm_type,
                    lt_tensor **out, lt_error *err);

/* one_hot: an int64 tensor idx.shape + (classes) holding 1 in column k of each 1-based class
   k of idx (int64); classes < 0: the largest value. */
int lt_nn_one_hot(const lt_tensor *idx, int64_t classes, lt_tensor **out, lt_error *err);

#endif
