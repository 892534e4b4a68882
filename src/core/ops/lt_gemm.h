/*
 * lt_gemm.h -- ltensor's own packed matrix product for the convolutions: batches of
 * C = A B + beta C in float32, with strided operands. Lua-free.
 *
 * Owns: the packing of A and B into panels, the register-blocked micro-kernels (AVX-512: 8 rows
 * by 32 columns, AVX2 + FMA: 6 by 16, plain C: 4 by 8; picked by lt_cpu_level()), the cache
 * blocking (kc values of K a block, so that a packed micro-panel of B stays in L1 and the packed
 * A in L2; column blocks of at most 1024 per piece) and the threading: every product of the
 * batch is cut into column blocks, and the pool runs the (product, column block) items, so a
 * batch of small products (one per image of a CNN's batch) is one job over the threads, not
 * one small job each. A is packed once per call, its (matrix, K block) pairs over the pool (or
 * once for several calls: lt_gemm_f32_pack; or by the caller, to lt_gemm_f32_layout_of's
 * layout), B a block at a time by the piece that uses it. The summation order over K is the same at
 * every thread count and every column split, so results do not depend on the thread count.
 *
 * The convolutions (lt_nn_conv.c, lt_nn_winograd.c) call it where lt_gemm_wanted() says so:
 * float32 on a vector path (the BLAS may run kernels that do not know the processor, as
 * OpenBLAS 0.3.21's SSE3 "Prescott" ones on a newer AVX-512 CPU) or float32 without a BLAS;
 * otherwise they keep lt_matmul (the BLAS).
 *
 * Calls lt_pool.c, lt_cpu.c, lt_tensor.c (lt_fail). Called by lt_nn_conv.c, lt_nn_winograd.c
 * and spec/c/test_gemm.c.
 */
#ifndef LT_GEMM_H
#define LT_GEMM_H

#include "lt_tensor.h"

/* batch products C_i = A_i B_i + beta C_i (i in [0, batch)) of m x k by k x n:
   A_i[r][p] = a[(i % na) bsa + r rsa + p csa] (na distinct matrices A, na >= 1: 1 broadcasts
   one A over the batch), B_i[p][j] = b[i bsb + p rsb + j csb], C_i[r][j] = c[i bsc + r ldc + j].
   beta 0: C is written, never read (NaN in it is ignored). Strides may be any (none negative). */
typedef struct {
  int64_t batch, m, n, k;
  const float *a;
  int64_t na, bsa, rsa, csa;
  const float *b;
  int64_t bsb, rsb, csb;
  float *c;
  int64_t bsc, ldc;
  float beta;
  const float
      *packed; /* NULL, or the A's as lt_gemm_f32_pack packed them (a, na, strides unread) */
} lt_gemm_f32_args;

/* Computes g (see above) over the worker pool. LT_ENOMEM when the packing buffers cannot be
   had (C may then be partly written), LT_EARG for a negative size or na < 1. */
int lt_gemm_f32(const lt_gemm_f32_args *g, lt_error *err);

/* Packs g's na matrices A (g's m, k, na, a and strides; the others unread) for several calls
   that share them: *packed (new, free() it; NULL when empty) goes in their field packed. A
   call from a piece of the worker pool runs on its thread only (the pool's rule), so a job over
   blocks can give each its product. */
int lt_gemm_f32_pack(const lt_gemm_f32_args *g, float **packed, lt_error *err);

/* Where lt_gemm_f32_pack puts the values of g's na matrices A (m x k), for a caller that writes
   the packed form itself (lt_nn_winograd.c, from the weights' transforms): A_i[r][p] at
   i mpad k + p0 mpad + (r / mr) mr kb + (p - p0) mr + r % mr, where p0 = p - p % kc and
   kb = min(kc, k - p0); rows m .. mpad - 1 of the last panel are zero. na mpad k floats in all,
   for any na. nr: the kernel's columns; a product whose n is a multiple of it has no partial
   panel of B (packed, and its tile written through a buffer, on every row of A). */
typedef struct {
  int64_t mr, nr, kc, mpad;
} lt_gemm_f32_layout;
void lt_gemm_f32_layout_of(const lt_gemm_f32_args *g, lt_gemm_f32_layout *l);

/* Whether the convolutions' products of dtype dt go through lt_gemm_f32 rather than lt_matmul:
   float32, and a vector path (lt_cpu_level() above scalar) or no BLAS active. */
int lt_gemm_wanted(lt_dtype dt);

#endif
