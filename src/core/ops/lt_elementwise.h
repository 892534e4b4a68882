/*
 * lt_elementwise.h -- lt_elementwise.c's driver for the kernel files of the core
 * (not installed, internal): operands converted to a computation dtype, and one kernel run over
 * broadcast inputs with the in-place checks, the final cast and the pool's threads; and
 * BLOCKED, the contiguous loop every kernel runs, and the parameters of a kernel compiled per
 * vector path (lt_simd.h).
 *
 * Defined in lt_elementwise.c; called by lt_funcs.c and lt_math.c. Lua-free.
 */
#ifndef LT_ELEMENTWISE_H
#define LT_ELEMENTWISE_H

#include "lt_iter.h"
#include "lt_promote.h"
#include "lt_tensor.h"

/* A kernel: one inner run of lt_iter, p[0] the output, p[1..] the inputs, st their byte
   strides; nonzero fails the operation. */
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

/* The loop of a unary kernel (p, st, n its arguments): o = the expression (of x, of type T) of
   type OT for each element, contiguous runs through BLOCKED, others strided. */
#define LT_UNARY_LOOP(T, OT, ...)                                      \
  do {                                                                 \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T)) { \
      OT *oo_ = (OT *)(void *)p[0];                                    \
      const T *xx_ = (const T *)(const void *)p[1];                    \
      BLOCKED(n, T x = xx_[k]; (void)x; oo_[k] = (__VA_ARGS__));       \
    } else {                                                           \
      for (int64_t e_ = 0; e_ < n; e_++) {                             \
        T x = *(const T *)(const void *)(p[1] + e_ * st[1]);           \
        (void)x;                                                       \
        *(OT *)(void *)(p[0] + e_ * st[0]) = (__VA_ARGS__);            \
      }                                                                \
    }                                                                  \
  } while (0)

/* A kernel's parameters and arguments, for LT_SIMD_CLONES_RET (lt_simd.h): the elementwise
   kernels whose loops need wider vector units (floor, ceil, round, trunc, abs, clamp and the
   classifications: x86-64's baseline SSE2 has no vector rounding) are compiled once per vector
   path and run the one of the level in use (lt_cpu.h; LTENSOR_SIMD forces any). */
#define LT_KERNEL_PARAMS (void *ctx, char *const *p, const int64_t *st, int64_t n)
#define LT_KERNEL_ARGS (ctx, p, st, n)

/* AVX2 clones picked at load by an ifunc (lt_linalg_small.c's kernels). Not under
   ThreadSanitizer, whose runtime starts after the resolvers run. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define LT_KCLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define LT_KCLONES
#endif

#endif
