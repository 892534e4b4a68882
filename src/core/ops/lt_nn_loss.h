/*
 * lt_nn_loss.h -- the losses of torch.nn.functional: the pointwise ones (mse_loss, l1_loss,
 * smooth_l1_loss, huber_loss, binary_cross_entropy, binary_cross_entropy_with_logits, kl_div),
 * nll_loss and cross_entropy, each with torch's reductions. Lua-free.
 *
 * Owns: the shape rules (broadcasting where torch broadcasts, the same size where it demands
 * it), the formulas (torch 1.13's, log terms clamped at -100 in binary_cross_entropy), the
 * class-index rules (1-based; ignore_index compared with the index as given) and the weighted
 * means. Every sum is taken in double, then rounded once into the result's dtype (the promoted
 * dtype of input and target, a floating one). Calls lt_copy.c (casts), lt_softmax.c
 * (log_softmax), lt_iter.c (broadcasting), lt_tensor.c; called by the binding (lua_nn_act.c).
 */
#ifndef LT_NN_LOSS_H
#define LT_NN_LOSS_H

#include "lt_tensor.h"

/* torch's reduction: the loss of every element, their mean, their sum, or (kl_div) the sum over
   the size of dim 0. */
typedef enum { LT_REDUCE_NONE, LT_REDUCE_MEAN, LT_REDUCE_SUM, LT_REDUCE_BATCHMEAN } lt_reduction;

typedef enum {
  LT_LOSS_MSE,        /* (x - y)^2 */
  LT_LOSS_L1,         /* |x - y| */
  LT_LOSS_SMOOTH_L1,  /* |d| < p ? d^2 / (2p) : |d| - p / 2 (p: beta >= 0; 0 gives l1) */
  LT_LOSS_HUBER,      /* |d| <= p ? d^2 / 2 : p (|d| - p / 2) (p: delta > 0) */
  LT_LOSS_BCE,        /* -w (y log x + (1 - y) log(1 - x)), logs >= -100; x in [0, 1] */
  LT_LOSS_BCE_LOGITS, /* -w (pw y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))) */
  LT_LOSS_KL_DIV,     /* y (log y - x), 0 where y is 0 (xlogy) */
  LT_LOSS_KL_DIV_LOG, /* exp(y) (y - x): kl_div with log_target */
  LT_NLOSSES
} lt_loss;

/* The loss of input x and target y (broadcast together; binary_cross_entropy and its logits
   form demand y of x's shape), weighted by weight (NULL or broadcastable to the result: BCE's
   two) and, for BCE_LOGITS, pos_weight (NULL or broadcastable, along the last dim), reduced by
   red (BATCHMEAN: kl_div only). *out: a 0-d tensor, or the elementwise losses (reduction none).
   The mean of no elements is NaN, as torch's. */
int lt_nn_loss(lt_loss loss, const lt_tensor *x, const lt_tensor *y, const lt_tensor *weight,
               const lt_tensor *pos_weight, double p, lt_reduction red, lt_tensor **out,
               lt_error *err);

/* nll_loss of log-probabilities x (N x C x d1 ... or C) at the 1-based class indices in target
   (an integer tensor, N x d1 ... or 0-d); weight NULL or C per-class weights; a target equal to
   ignore_index counts for nothing. Mean: the weighted sum over the sum of the weights taken. */
int lt_nn_nll_loss(const lt_tensor *x, const lt_tensor *target, const lt_tensor *weight,
                   int64_t ignore_index, lt_reduction red, lt_tensor **out, lt_error *err);

/* cross_entropy of logits x (N x C x d1 ... or C): target an integer tensor of 1-based class
   indices (as lt_nn_nll_loss) or a floating tensor of x's shape holding class probabilities;
   label_smoothing in [0, 1] mixes the target with the uniform distribution, as torch 1.13. */
int lt_nn_cross_entropy(const lt_tensor *x, const lt_tensor *target, const lt_tensor *weight,
                        int64_t ignore_index, double label_smoothing, lt_reduction red,
                        lt_tensor **out, lt_error *err);

#endif
