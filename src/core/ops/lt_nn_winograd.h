/*
 * lt_nn_winograd.h -- 3x3 convolutions at stride 1 by Winograd's minimal filtering F(2x2, 3x3)
 * (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", 2015). Lua-free.
 *
 * Each 2x2 block of the output comes from a 4x4 tile of the input: the tiles and the kernels go
 * to a transformed domain (B^T d B and G g G^T) where the convolution is 16 elementwise
 * products summed over the input channels, that is 16 matrix products (C_out x C_in) x
 * (C_in x tiles) per sample, then back (A^T m A): 16 multiplications per 4 outputs instead of
 * 36, for a few additions. In float32 where lt_gemm_wanted says so, a block of tile rows at a
 * time (about 1 MiB of transforms, so they stay in the core's L2) goes through the input's
 * transform, 16 products by lt_gemm_f32 and the output's transform (which adds the bias) on one
 * thread, the blocks of every image spread over the worker pool in one job, whose pieces first
 * share the kernels' transforms, written in lt_gemm_f32's packed form; otherwise the whole
 * batch's transforms are made at once and multiplied by one lt_matmul (the BLAS). The
 * transforms' coefficients are 0, +-1 and 1/2, so results differ from the direct sum by
 * rounding only (float32: a few units in the 6th digit of the largest output).
 *
 * Calls lt_gemm.c, lt_linalg.c (lt_matmul), lt_copy.c, lt_tensor.c, lt_pool.c. Called by
 * lt_nn_conv.c only.
 */
#ifndef LT_NN_WINOGRAD_H
#define LT_NN_WINOGRAD_H

#include "lt_tensor.h"

/* Whether a convolution is worth this path: a 3x3 kernel, stride and dilation 1, one group,
   enough channels for the products to dominate the transforms. */
int lt_winograd_fits(int64_t cin, int64_t cout, const int64_t *kernel, const int64_t *stride,
                     const int64_t *dilation, int64_t groups);

/* res (N, C_out, oh x ow), new, contiguous, dtype ct (float32 or float64) = the convolution of
   xb (N, C_in, H, W), contiguous in ct, by w (C_out, C_in, 3, 3) padded by ph rows on top and
   pw columns on the left (oh, ow: the output sizes, which say the padding after), plus bias
   (C_out values, any dtype; NULL: none), added by the output's transform. */
int lt_winograd(const lt_tensor *xb, const lt_tensor *w, const lt_tensor *bias, lt_dtype ct,
                int64_t ph, int64_t pw, int64_t oh, int64_t ow, lt_tensor **res, lt_error *err);

#endif
