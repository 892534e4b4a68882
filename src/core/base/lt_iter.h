/*
 * lt_iter.h -- iteration over up to four strided operands of one shape, broadcasting, and the
 * overlap tests.
 *
 * Owns: the loop structure every bulk operation shares, the one definition of broadcasting
 * (torch's: shapes right-aligned, a size of 1 stretches), and the tests of whether two
 * operands, or the elements of one, share memory. Size-1 dims are dropped, dims are
 * ordered by the written operand's stride (largest outside, so the inner loop walks the output
 * as contiguously as its layout allows), and neighbouring dims are merged where every operand
 * steps evenly across them, so a contiguous operation becomes one long inner run. A kernel is
 * called once per inner run, never per element. Lua-free.
 *
 * lt_iter_run_par is the one place where elementwise work is split across threads (lt_pool.h):
 * the iteration's elements, in its order, are cut into pieces of whole and partial inner runs.
 *
 * Calls lt_tensor.c (views) and lt_pool.c. Called by lt_copy.c, lt_math.c, lt_reduce.c,
 * lt_linalg.c.
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

/* As lt_iter_run over the elements [lo, hi) of the iteration, in its order: the first and last
   inner runs may be parts of runs. */
int lt_iter_range(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx, int64_t lo,
                  int64_t hi);

/* As lt_iter_run, with the elements cut into pieces (lt_pool_grain; elem_bytes: the bytes one
   element reads and writes, all operands together) that run on the pool's threads. run must
   only read ctx and write its own elements. Returns nonzero when some run returned nonzero
   (which one is not said; lt_iter_run's rule holds for a single piece). */
int lt_iter_run_par(const lt_iter *it, char *const *base, lt_run_fn run, void *ctx,
                    double elem_bytes);

/* {====== broadcasting ====== */

/* Joins (ndim, shape) into the broadcast shape (*nd, acc), which gains leading dims as needed
   (acc has room for LT_MAX_NDIM). Returns 0, or the position counted from the end (1-based) of
   the first pair of sizes that do not broadcast; acc[*nd - pos] and shape[ndim - pos] are that
   pair, unchanged. */
int lt_broadcast_join(int *nd, int64_t *acc, int ndim, const int64_t *shape);
/* The broadcast shape of ts[0..n) (NULL entries are skipped); LT_EARG naming the sizes that
   clash. */
int lt_broadcast_shape(int n, const lt_tensor *const *ts, int *ndim, int64_t *shape, lt_error *err);
/* src viewed with shape (ndim sizes) under broadcasting rules (a new header, no data). */
int lt_broadcast_to(const lt_tensor *src, int ndim, const int64_t *shape, lt_tensor **out,
                    lt_error *err);

/* }====== */

/* {====== overlap ====== */

/* LT_EARG when t has two elements at one address (a stride-0 dim of size > 1): it cannot be
   written elementwise. */
int lt_check_no_internal_overlap(const lt_tensor *t, lt_error *err);
/* Whether the byte ranges x and y touch intersect (neither empty). */
int lt_may_overlap(const lt_tensor *x, const lt_tensor *y);
/* The byte range [lo, hi) the elements of t (not empty) occupy. */
void lt_byte_extent(const lt_tensor *t, const char **lo, const char **hi);
/* Whether x and y are the very same view: same first byte, dtype, shape and strides. */
int lt_same_view(const lt_tensor *x, const lt_tensor *y);
/* Whether x and y share a block without being the same view: an elementwise write into x may
   then change an element of y that is still to be read. */
int lt_partial_overlap(const lt_tensor *x, const lt_tensor *y);

/* }====== */

#endif
