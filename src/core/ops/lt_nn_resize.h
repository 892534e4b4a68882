/*
 * lt_nn_resize.h -- torch.nn.functional's pad and interpolate. Lua-free.
 *
 * Both work one dim at a time: an output position along a dim reads a few input positions
 * (taps) with weights, and the dims are resampled in turn (separable: bilinear, bicubic and
 * area of several dims are products of one-dim ones). pad's non-constant modes are taps of
 * weight 1 that copy elements of any dtype; interpolate computes in float32 (float64 for
 * float64 inputs) on the worker pool.
 *
 * Calls lt_copy.c, lt_pool.c, lt_tensor.c, lt_nn_norm.c (the input rules). Called by the binding
 * (lua_nn_norm.c).
 */
#ifndef LT_NN_RESIZE_H
#define LT_NN_RESIZE_H

#include "lt_tensor.h"

typedef enum { LT_PAD_CONSTANT, LT_PAD_REFLECT, LT_PAD_REPLICATE, LT_PAD_CIRCULAR } lt_pad_mode;

/* pad: npad sizes in torch's order (last dim's left and right first, then the dim before);
   constant pads write value (negative pads crop); reflect, replicate and circular need 1 to 3
   padded dims of an input with 1 or 2 dims more (torch's rule), reflect pads below the
   size, circular pads at most the size. Any dtype; a new contiguous tensor. */
int lt_nn_pad(const lt_tensor *x, int npad, const int64_t *pad, lt_pad_mode mode, double value,
              lt_tensor **out, lt_error *err);

typedef enum {
  LT_INTERP_NEAREST,
  LT_INTERP_NEAREST_EXACT,
  LT_INTERP_LINEAR, /* linear, bilinear, trilinear: by the input's dims */
  LT_INTERP_BICUBIC,
  LT_INTERP_AREA,
} lt_interp_mode;

/* interpolate of x (N, C, d1 .. dk), k = 1 to 3: size (k output sizes) or scales (k factors;
   the output size is floor(d * factor)), exactly one of them not NULL. The factors also set
   the source positions unless recompute. align_corners for linear and bicubic; antialias for
   linear and bicubic (torch takes it for bilinear and bicubic: the binding checks the name). */
int lt_nn_interpolate(const lt_tensor *x, const int64_t *size, const double *scales,
                      lt_interp_mode mode, int align_corners, int recompute, int antialias,
                      lt_tensor **out, lt_error *err);

#endif
