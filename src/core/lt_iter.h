/*
 * lt_iter.h -- iteration over up to four strided operands of one shape.
 *
 * Owns: the loop structure every bulk operation shares. Size-1 dims are dropped, dims are
 * ordered by the written operand's stride (largest outside, so the inner loop walks the output
 * as contiguously as its layout allows), and neighbouring dims are merged where every operand
 * steps evenly across them, so a contiguous operation becomes one long inner run. A kernel is
 * called once per inner run, never per element. Lua-free.
 */
#ifndef LT_ITER_H
#define LT_ITER_H

#include <stdint.h>

#include "lt_tensor.h"

#define LT_ITER_MAXOPS 4

/*
 * The contiguous inner loops of the kernels run in blocks of LT_BLOCK elements: a loop with a
 * constant trip count is one the compiler vectorizes even under GCC's -O2 cost model (which
 * vectorizes only loops whose count is a known multiple of the vector length), and LT_IVDEP
 * before it says that no iteration touches memory another iteration touches, so no alias check
 * is needed. That holds for every elementwise kernel: the written operand is either disjoint
 * from the inputs or the very same elements (in place); partial overlaps are copied aside
 * before a kernel runs.
 */
#define LT_BLOCK 64
#if defined(__GNUC__) && !defined(__clang__)
#define LT_IVDEP _Pragma("GCC ivdep")
#else
#define LT_IVDEP /* clang vectorizes these loops with run-time alias checks of its own */
#endif

typedef struct {
  int ndim, nops;
  int64_t shape[LT_MAX_NDIM];
  int64_t st[LT_ITER_MAXOPS][LT_MAX_NDIM]; /* byte strides; operand 0 is the one written */
} lt_iter;

/* ops[i] are views of the iteration shape (broadcast operands have stride 0). */
void lt_iter_init(lt_iter *it, int nops, lt_tensor *const *ops);

/* One inner run: n elements, operand i at p[i] stepping st[i] bytes. Nonzero stops the loop. */
typedef int (*lt_run_fn)(void *ctx, char *const *p, const int64_t *st, int64_t n);

/* Calls run over every inner run from the operands' first elements; returns the first nonzero
   return of run, or 0. */
int lt_iter_run(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx);

/* Number of elements the iteration covers. */
int64_t lt_iter_numel(const lt_iter *it);

#endif
