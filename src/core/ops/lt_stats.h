/*
 * lt_stats.h -- statistics that are not rows of the reduction table: nanmedian, quantile and
 * nanquantile, cov and corrcoef, diff, trapezoid, histogram (lt_stats.c). Lua-free.
 *
 * Semantics are torch 1.13's (names, defaults, result dtypes, what raises); dims are 0-based
 * here (the binding converts), positions int64 counted from `base` (the binding passes 1).
 * Results are new contiguous tensors. Calls lt_copy.c, lt_tensor.c, lt_funcs.c (lt_binary),
 * lt_reduce.c, lt_linalg.c (lt_cat) and lt_sort.c (lt_median); called by the binding
 * (lua_stats.c).
 */
#ifndef LT_STATS_H
#define LT_STATS_H

#include "lt_tensor.h"

/* quantile's interpolation between the two nearest ranks, in the order of torch's names:
   linear, lower, higher, nearest (ties to even), midpoint. */
typedef enum { LT_QI_LINEAR, LT_QI_LOWER, LT_QI_HIGHER, LT_QI_NEAREST, LT_QI_MIDPOINT } lt_qinterp;

/* The q-th quantiles of t (float32 or float64, not empty) along dim (dim < 0: over every
   element), the dim removed unless keepdim. q: a 0-d or 1-d tensor of t's dtype (values in
   [0, 1]), or NULL for the number qv. A 1-d q adds a leading dim of its length. With ignore_nan
   (nanquantile) NaNs are left out (a row of NaNs gives NaN); without, a row with a NaN gives
   NaN. */
int lt_quantile(const lt_tensor *t, const lt_tensor *q, double qv, int dim, int keepdim,
                lt_qinterp mode, int ignore_nan, lt_tensor **out, lt_error *err);

/* The lower median of the elements that are not NaN along dim (NaN for a row of NaNs, its
   position then the first NaN's) and its position, the dim removed unless keepdim; dim < 0:
   over every element, *values 0-d and *indices not made. Integer and bool dtypes: lt_median. An
   empty dim raises. */
int lt_nanmedian(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
                 lt_tensor **indices, lt_error *err);

/* The n-th forward difference along dim (x[i+1] - x[i], n times; bool: x[i+1] != x[i]), after
   prepend and append (NULL: none; t's number of dims) are joined to t along dim (dtypes
   promoted). n >= 0; n = 0 gives a copy. t has at least one dim. n passes that would take
   more than 2^32 element subtractions raise (LT_ERANGE) rather than run for minutes. */
int lt_diff(const lt_tensor *t, int64_t n, int dim, const lt_tensor *prepend,
            const lt_tensor *append, lt_tensor **out, lt_error *err);

/* The trapezoid rule along dim: sample points x (1-d of y's size along dim, or y's number of
   dims, broadcast) or, with x NULL, spaced dx apart. Integers give float32. */
int lt_trapezoid(const lt_tensor *y, const lt_tensor *x, double dx, int dim, lt_tensor **out,
                 lt_error *err);

/* The covariance matrix of the variables in the rows of t (1-d: one variable; 0-d: one
   observation), observations in the columns, with fweights (integer, >= 0) and aweights
   (floating, >= 0) (NULL: none; each 1-d or 0-d, one per observation) and the correction
   (torch's: 1 unbiased). Floating and complex t keep their dtype, integers give float32; bool
   raises. A 1-d or 0-d t gives a 0-d result. */
int lt_cov(const lt_tensor *t, int64_t correction, const lt_tensor *fweights,
           const lt_tensor *aweights, lt_tensor **out, lt_error *err);
/* Pearson's correlation coefficients: cov(t) normalized by its diagonal, clipped to [-1, 1]
   (each part of a complex one). */
int lt_corrcoef(const lt_tensor *t, lt_tensor **out, lt_error *err);

/* torch.histogram of t's elements (float32 or float64): bins equal bins over range (NULL: the
   data's minimum and maximum, widened by 0.5 each way when equal; [0, 1] for no data), or,
   when edges is not NULL, the bins between its increasing elements (1-d, t's dtype). A bin
   holds [left, right), the last also its right edge; elements outside and NaN are left out.
   weight (NULL or t's shape and dtype) counts each element; density divides by the total and
   the bin width. *hist and *bin_edges in t's dtype. */
int lt_histogram(const lt_tensor *t, int64_t bins, const lt_tensor *edges, const double *range,
                 const lt_tensor *weight, int density, lt_tensor **hist, lt_tensor **bin_edges,
                 lt_error *err);

#endif
