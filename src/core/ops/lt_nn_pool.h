/*
 * lt_nn_pool.h -- pooling of torch.nn.functional: max_pool1d/2d (with indices), avg_pool1d/2d,
 * adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d. Lua-free.
 *
 * Owns: the output sizes (torch's, ceil_mode included), the checks and messages (the argument
 * named; a padding above half the kernel; an output too small), and the kernels, one (N, C)
 * plane per item of the worker pool; a 1-d pool is a 2-d one over a plane of height 1. Inputs
 * are (N, C, *) or unbatched (C, *), of float32 or float64 (float16 and bfloat16 compute in
 * float32 and come back in their dtype; integers are refused). Max pools take torch's maximum:
 * the first largest element, a NaN wherever one is in the window. Indices are int64, the
 * 1-based flat position of the maximum within its (N, C) plane (h W + w + 1, the input's H x W;
 * for 1-d pools the position along L), as torch's 0-based ones plus one. Results are new
 * contiguous tensors.
 *
 * Calls lt_nn_conv.c (lt_nn_float_type, lt_nn_give), lt_copy.c, lt_tensor.c, lt_pool.c.
 * Called by the binding (lua_nn_conv.c).
 */
#ifndef LT_NN_POOL_H
#define LT_NN_POOL_H

#include "lt_tensor.h"

/* The arguments of max_pool and avg_pool over nsp (1 or 2) spatial dims. dilation is max
   pooling's (1 for avg), count_include_pad and divisor_override (0: none) avg pooling's. */
typedef struct {
  int nsp;
  int64_t kernel[2], stride[2], padding[2], dilation[2];
  int ceil_mode, count_include_pad;
  int64_t divisor_override;
} lt_pool_args;

/* torch.nn.functional.max_pool{nsp}d; indices (NULL: not asked) the positions of the maxima. */
int lt_max_pool(const lt_tensor *x, const lt_pool_args *a, lt_tensor **out, lt_tensor **indices,
                lt_error *err);
/* torch.nn.functional.avg_pool{nsp}d. */
int lt_avg_pool(const lt_tensor *x, const lt_pool_args *a, lt_tensor **out, lt_error *err);
/* torch.nn.functional.adaptive_{max,avg}_pool{nsp}d to output_size (nsp values >= 0); window o
   of a dim of size n covers [floor(o n / out), ceil((o + 1) n / out)). indices as lt_max_pool's
   (max only). */
int lt_adaptive_pool(int max, const lt_tensor *x, int nsp, const int64_t *output_size,
                     lt_tensor **out, lt_tensor **indices, lt_error *err);

#endif
