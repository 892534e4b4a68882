/*
 * lt_elementwise.h -- lt_math.c's elementwise driver for the other kernel files of the core
 * (not installed, internal): operands converted to a computation dtype, and one kernel run over
 * broadcast inputs with the in-place checks, the final cast and the pool's threads; and
 * BLOCKED, the contiguous loop every kernel runs; LT_VRUN2, a float32 binary kernel of
 * lt_vmath.h as a kernel of the driver; the streaming twins of the memory-bound kernels
 * (lt_stream.h) and the choice between a kernel and its twin.
 *
 * Defined in lt_math.c; called by lt_math.c and lt_funcs.c. Lua-free.
 */
#ifndef LT_ELEMENTWISE_H
#define LT_ELEMENTWISE_H

#include "lt_iter.h"
#include "lt_promote.h"
#include "lt_stream.h"
#include "lt_tensor.h"

/* One inner run of lt_iter: p[0] the output, p[1..] the inputs, st their byte strides. Returns
   nonzero to fail the operation (kernel_fail below becomes the message). */
typedef int (*lt_kernel)(void *ctx, char *const *p, const int64_t *st, int64_t n);

/* An operand in dtype dt: the tensor itself (*owned NULL) or a converted copy (*owned set, the
   caller frees it); a scalar becomes a 0-d tensor (a value out of dt's range: LT_ERANGE). */
int lt_operand_as(const lt_operand *o, lt_dtype dt, const lt_tensor **t, lt_tensor **owned,
                  lt_error *err);

/* Runs k (given ctx, read-only: threads share it) over a new output of dtype oc and the inputs
   in[0..nin) (at most 3, already in their computation dtypes) broadcast to shape. *res is
   `inplace` when given (checked writable and of the shape; written through a cast when its
   dtype is not oc), else a new tensor of dtype rt (cast from oc if they differ). */
int lt_run_elementwise(lt_kernel k, void *ctx, int nin, const lt_tensor *const *in, int ndim,
                       const int64_t *shape, lt_dtype oc, lt_dtype rt, lt_tensor *inplace,
                       lt_tensor **res, const char *kernel_fail, lt_error *err);

/* The contiguous loop of a kernel: the statements (which use the index k) for k in [0, n), in
   blocks of LT_BLOCK that the compiler vectorizes (lt_iter.h says why), then the rest. */
#define BLOCKED(n, ...)                                \
  do {                                                 \
    int64_t i_ = 0;                                    \
    for (; i_ + LT_BLOCK <= (n); i_ += LT_BLOCK) {     \
      LT_IVDEP for (int j_ = 0; j_ < LT_BLOCK; j_++) { \
        int64_t k = i_ + j_;                           \
        __VA_ARGS__;                                   \
      }                                                \
    }                                                  \
    for (int64_t k = i_; k < (n); k++) {               \
      __VA_ARGS__;                                     \
    }                                                  \
  } while (0)

/* A float32 binary run through a kernel of lt_vmath.h, VFN(out, a, b, n); other layouts
   (strided, a broadcast operand) go through buffers of LT_VBUF, so the layout never changes a
   result. */
#define LT_VBUF 256
#define LT_VRUN2(NAME, VFN)                                                                  \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {                 \
    (void)ctx;                                                                               \
    if (st[0] == 4 && st[1] == 4 && st[2] == 4) {                                            \
      VFN((float *)(void *)p[0], (const float *)(const void *)p[1],                          \
          (const float *)(const void *)p[2], n);                                             \
      return 0;                                                                              \
    }                                                                                        \
    float ba[LT_VBUF], bb[LT_VBUF];                                                          \
    for (int64_t i0 = 0; i0 < n; i0 += LT_VBUF) {                                            \
      int64_t len = n - i0 < LT_VBUF ? n - i0 : LT_VBUF;                                     \
      for (int64_t j = 0; j < len; j++) {                                                    \
        ba[j] = *(const float *)(const void *)(p[1] + (i0 + j) * st[1]);                     \
        bb[j] = *(const float *)(const void *)(p[2] + (i0 + j) * st[2]);                     \
      }                                                                                      \
      VFN(ba, ba, bb, len);                                                                  \
      for (int64_t j = 0; j < len; j++) *(float *)(void *)(p[0] + (i0 + j) * st[0]) = ba[j]; \
    }                                                                                        \
    return 0;                                                                                \
  }

/* {====== streaming twins ====== */

/* The streaming twin NAME_nt of the float unary kernel NAME (element type T, dtype DT): its
   contiguous runs go to lt_stream_unary(SOP), others to NAME itself. */
#define LT_UN_NT(NAME, T, DT, SOP)                                                              \
  static int NAME##_nt(void *ctx, char *const *p, const int64_t *st, int64_t n) {               \
    if (st[0] != (int64_t)sizeof(T) || st[1] != (int64_t)sizeof(T)) return NAME(ctx, p, st, n); \
    lt_stream_unary(SOP, DT, p[0], p[1], n);                                                    \
    return 0;                                                                                   \
  }
/* The same for a binary kernel: each input contiguous or broadcast (stride 0). */
#define LT_BIN_NT(NAME, T, DT, SOP)                                                \
  static int NAME##_nt(void *ctx, char *const *p, const int64_t *st, int64_t n) {  \
    const int64_t es = (int64_t)sizeof(T);                                         \
    if (st[0] != es || (st[1] != 0 && st[1] != es) || (st[2] != 0 && st[2] != es)) \
      return NAME(ctx, p, st, n);                                                  \
    lt_stream_binary(SOP, DT, p[0], p[1], st[1] != 0, p[2], st[2] != 0, n);        \
    return 0;                                                                      \
  }

/* k, or its streaming twin (NULL: it has none) when the operation's nops operands of numel
   elements of esize bytes span lt_stream_worth's bytes. Defined in lt_math.c. */
lt_kernel lt_stream_pick(lt_kernel k, lt_kernel twin, int nops, double numel, size_t esize);

/* }====== */

#endif
