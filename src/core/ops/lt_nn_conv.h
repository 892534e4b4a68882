/*
 * lt_nn_conv.h -- convolutions of torch.nn.functional (conv1d/2d/3d, conv_transpose1d/2d) and
 * the im2col pair unfold / fold. Lua-free.
 *
 * Owns: the shape rules and messages of these functions (torch's: the argument named, the
 * padded input against the dilated kernel, channels against groups) and the im2col / col2im
 * kernels. A convolution lays the patches of its input out as columns (im2col, one (N, C)
 * plane per piece of the worker pool), then the products of every sample and group give the
 * output: in float32 one batched lt_gemm_f32 (ltensor's packed AVX-512 / AVX2 product, one job
 * over the threads for the whole batch) where lt_gemm_wanted says so, else lt_matmul (the BLAS
 * when there is one); a 1x1 kernel with stride 1 and no padding skips im2col; a 3x3 kernel at
 * stride 1 with 16 channels or more goes through Winograd's F(2x2, 3x3) (lt_nn_winograd.h);
 * groups of one input channel each (depthwise) through a direct kernel without columns. A
 * transposed convolution is the product of the transposed weight and the input (the same
 * product), then col2im (fold) into the output. float32 and float64 compute as they are;
 * float16 and bfloat16 in float32, returned in their dtype; integers and the others are
 * refused. Results are new contiguous tensors.
 *
 * Calls lt_gemm.c, lt_linalg.c (lt_matmul), lt_nn_winograd.c, lt_nn_norm.c (lt_nn_float),
 * lt_copy.c, lt_tensor.c, lt_pool.c. Called by the binding (lua_nn_conv.c).
 */
#ifndef LT_NN_CONV_H
#define LT_NN_CONV_H

#include "lt_tensor.h"

/* The largest value a size argument (kernel, stride, padding, dilation, output size) may
   take: products of two of them stay below 2^62 (lt_nn_pool.c's too). */
#define LT_CONV_MAX_ARG ((int64_t)1 << 31)

/* The arguments of a convolution over nsp spatial dims (1 to 3), torch's. */
typedef struct {
  int nsp;
  int64_t stride[3], padding[3], dilation[3];
  int64_t output_padding[3]; /* transposed convolutions only */
  int64_t groups;
  int same; /* padding "same": the output has the input's size (stride 1; padding ignored) */
} lt_conv_args;

/* The computation dtype of a tensor of the nn functions (lt_nn_pool.c too): float32 and float64
   themselves, float16 and bfloat16 float32; else LT_EARG, "<what>: expected a floating-point
   tensor, got int64". Also checks that t is readable. */
int lt_nn_float_type(const lt_tensor *t, const char *what, lt_dtype *ct, lt_error *err);
/* The end of an nn function that computed res (contiguous, its computation dtype) for a batched
   input: res viewed as the shape (ndim dims; the leading batch dim dropped when batched is 0),
   cast to dt; *out the result, res freed either way. */
int lt_nn_give(lt_tensor *res, int batched, int ndim, const int64_t *shape, lt_dtype dt,
               lt_tensor **out, lt_error *err);

/* LT_EARG, "input: expected a 3-d (unbatched) or 4-d (batched) tensor, got 2-d", unless the
   input x has dims dims or dims + 1. */
int lt_nn_check_rank(const lt_tensor *x, int dims, lt_error *err);
/* LT_EARG unless lo <= v ("<what> must be positive|non-negative, got v"), LT_ERANGE when
   v > LT_CONV_MAX_ARG: the check of every size argument (what: its name). */
int lt_nn_check_arg(int64_t v, int64_t lo, const char *what, lt_error *err);

/* torch.nn.functional.conv{nsp}d: input (N, C_in, *) or unbatched (C_in, *), weight
   (C_out, C_in / groups, *kernel), bias (C_out) or NULL. */
int lt_conv(const lt_tensor *x, const lt_tensor *w, const lt_tensor *bias, const lt_conv_args *a,
            lt_tensor **out, lt_error *err);
/* torch.nn.functional.conv_transpose{nsp}d: input (N, C_in, *) or unbatched, weight
   (C_in, C_out / groups, *kernel), bias (C_out) or NULL; output size per dim
   (in - 1) stride - 2 padding + dilation (kernel - 1) + output_padding + 1. */
int lt_conv_transpose(const lt_tensor *x, const lt_tensor *w, const lt_tensor *bias,
                      const lt_conv_args *a, lt_tensor **out, lt_error *err);

/* torch.nn.functional.unfold (im2col): input (N, C, H, W) or (C, H, W) gives
   (N, C kh kw, L) or (C kh kw, L), L the number of blocks. Each array holds 2 values. */
int lt_unfold(const lt_tensor *x, const int64_t *kernel, const int64_t *dilation,
              const int64_t *padding, const int64_t *stride, lt_tensor **out, lt_error *err);
/* torch.nn.functional.fold (col2im, summing overlaps): input (N, C kh kw, L) or (C kh kw, L)
   gives (N, C, oh, ow) or (C, oh, ow); output_size holds oh and ow. */
int lt_fold(const lt_tensor *x, const int64_t *output_size, const int64_t *kernel,
            const int64_t *dilation, const int64_t *padding, const int64_t *stride, lt_tensor **out,
            lt_error *err);

#endif
