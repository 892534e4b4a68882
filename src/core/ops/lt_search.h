/*
 * lt_search.h -- searching for values among others: isin (membership in a set of test
 * elements), bucketize (the bucket of each value among sorted boundaries) and
 * unique_consecutive (runs of equal elements or slices), as torch has them. Lua-free.
 *
 * Values compare through lt_sort.h's order keys after PyTorch's type promotion, so -0.0 equals
 * 0.0 and integers of any width compare by value; a NaN equals nothing (not even a NaN), as
 * torch's == says. Complex dtypes have no order and are refused. Positions in results are int64
 * counted from `base` (the binding passes 1). Results are new contiguous tensors.
 *
 * Calls lt_sort.h's keys, lt_scan.c (searchsorted), lt_copy.c, lt_elementwise.c (operands),
 * lt_tensor.c, lt_pool.c. Called by the binding (lua_dist.c).
 */
#ifndef LT_SEARCH_H
#define LT_SEARCH_H

#include "lt_promote.h"
#include "lt_tensor.h"

/* *out (bool, elements' shape; 0-d for a scalar) = whether each of elements is among
   test_elements (a tensor of any shape or a scalar; not both scalars), negated with invert.
   Large test sets are sorted once and searched; assume_unique changes nothing but speed in
   torch and nothing here. */
int lt_isin(const lt_operand *elements, const lt_operand *test, int invert, lt_tensor **out,
            lt_error *err);

/* *out (input's shape) = the position, from base, of the bucket of each value of input among the
   sorted 1-d boundaries: the number of boundaries below it (right: at or below it) plus base,
   as torch.bucketize (searchsorted with the roles swapped). int64, int32 with out_int32. */
int lt_bucketize(const lt_operand *input, const lt_tensor *boundaries, int right, int out_int32,
                 int64_t base, lt_tensor **out, lt_error *err);

/* The first element of every run of equal consecutive elements of t read in row-major order
   (dim < 0), or of every run of equal consecutive slices along dim (0-based): *out, 1-d or t's
   shape with dim shortened; *inverse (when not NULL; t's shape, or 1-d of the dim's size): the
   position (from base) of each element's or slice's run; *counts (when not NULL): the length
   of each run, int64. */
int lt_unique_consecutive(const lt_tensor *t, int dim, int64_t base, lt_tensor **out,
                          lt_tensor **inverse, lt_tensor **counts, lt_error *err);

#endif
