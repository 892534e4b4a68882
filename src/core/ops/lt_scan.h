/*
 * lt_scan.h -- scans along a dim (cumsum, cumprod, logcumsumexp, cummax, cummin) and the counting
 * and searching of sorted data (searchsorted, bincount, histc), in lt_scan.c. Lua-free.
 *
 * Dims are 0-based, a 0-d tensor taking dim 0 as one element; positions are int64 counted from
 * `base` (the binding passes 1). Results are new contiguous tensors. Calls lt_copy.c,
 * lt_tensor.c, lt_pool.c, lt_promote.c and lt_sort.h's order keys; called by the binding.
 */
#ifndef LT_SCAN_H
#define LT_SCAN_H

#include "lt_tensor.h"

typedef enum { LT_CUMSUM, LT_CUMPROD } lt_cumop;

/* The running sum or product along dim. The input is cast to dt first unless dt is
   LT_NDTYPES; then bool and integers accumulate in int64 (wrapping) and give int64, as torch
   (dt: that dtype), float16, bfloat16 and float32 accumulate in float64 and keep their dtype,
   complex sums too. A long single row is cut into chunks whose size depends only on its
   length, summed in parallel, then scanned from the chunks' offsets: the result is the same at
   every thread count. */
int lt_cumulate(lt_cumop op, const lt_tensor *t, int dim, lt_dtype dt, lt_tensor **out,
                lt_error *err);

/* The running log(sum(exp(x))) along dim, as torch.logcumsumexp: floating dtypes (kept; the
   accumulation in float64), -inf adds nothing, a NaN stays. */
int lt_logcumsumexp(const lt_tensor *t, int dim, lt_tensor **out, lt_error *err);

/* The running maximum (is_max) or minimum along dim and the position where it was last met
   (a tie takes the later position; a NaN wins and stays, each later NaN taking over), as
   torch's cummax/cummin. Real dtypes. */
int lt_cumextreme(const lt_tensor *t, int dim, int is_max, int64_t base, lt_tensor **values,
                  lt_tensor **indices, lt_error *err);

/* For each element of v, the position in the sorted last dim of seq where it would be
   inserted, counted from base: the first position whose element is >= v (> v when right). A
   1-d seq serves every element of v; else seq's leading dims must equal v's. Both are compared
   in their promoted dtype (NaN sorts last in seq; a NaN value goes after every element, as in
   torch). int64 results, int32 when out_int32. */
int lt_searchsorted(const lt_tensor *seq, const lt_tensor *v, int right, int out_int32,
                    int64_t base, lt_tensor **out, lt_error *err);

/* Counts of each value 0, 1, ... of the 1-d integer tensor t (value v counted at slot v): at
   least minlength slots, at least max + 1. With weights (1-d, t's length, real), the sum of
   the weights instead: float32 for float32 weights, else float64. Negative values raise. */
int lt_bincount(const lt_tensor *t, const lt_tensor *weights, int64_t minlength, lt_tensor **out,
                lt_error *err);

/* torch.histc: bins equal bins over [lo, hi] (lo == hi: the data's range, widened by 1 each way
   when it is one value), elements outside (and NaN) ignored, one equal to hi in the last bin.
   Floating t; the counts in t's dtype. */
int lt_histc(const lt_tensor *t, int64_t bins, double lo, double hi, lt_tensor **out,
             lt_error *err);

#endif
