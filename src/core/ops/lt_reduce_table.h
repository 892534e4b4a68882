/*
 * lt_reduce_table.h -- the table of reductions: every reduction of ltensor, one entry each,
 * read by whoever includes it with the entry macro defined (lt_reduce.h makes the enum lt_redop
 * of it, lt_reduce.c the rows of lt_reductions[], the binding its methods and module forms
 * through the rows). No include guard: it is meant to be read several times.
 *
 *   LT_RED(E, name, fold, finish, rule, takes, args, forms)
 *     the reduction LT_E, torch's `name`:
 *     fold    how the elements fold into a state (lt_fold): SUM, PROD, MIN, MAX, ALL, ANY,
 *             NANSUM (a sum without the NaNs, and their count for MEAN), or NONE for a
 *             reduction composed of others (its `compose` function, lt_reduce.c);
 *     finish  how the state becomes the result (lt_finish): VALUE (the sum, product, minimum
 *             ...), MEAN, VAR and STD (a second pass over the squared deviations), POS (the
 *             position of the minimum or maximum), FLAG (all, any); NONE when composed;
 *     rule    the result dtype (lt_red_rule): SAME, WIDE (bool and integers give int64), INT64,
 *             BOOL, REAL (complex gives its part's dtype), FLOAT (bool and integers give
 *             float32);
 *     takes   the dtypes it accepts (LT_TAKES_*): ANY, REAL (no complex), FLOAT, INEXACT
 *             (floating and complex); others are refused naming what it expects;
 *     args    what its Lua forms take after the tensor, in torch's order (LT_RA_* of lt_reduce.h):
 * P (norm's p first), DIM (a dim), DIMS (or a table of dims), UNBIASED (var's unbiased, or
 *             {correction = }), KEEPDIM, DTYPE ({dtype = }: the input cast first), INDICES
 *             (with a dim, the values and their 1-based positions; t:max(other) is maximum),
 *             NEEDS_DIM (the dim is not optional), MEAN (the mean over the same dims as a
 *             second result: std_mean, var_mean);
 *     forms   its forms in Lua (M: t:name(...), ML: also lt.name(t, ...), L: lt.name only, where
 *             torch has torch.name but no Tensor.name).
 *
 * Reductions are over every element (a Lua value in Lua, as t:item()) or over dims (a tensor).
 * A new reduction of the folds and finishes above is a new entry here (docs/CONTRIBUTING.md).
 */
#ifndef LT_RED
#define LT_RED(E, name, fold, finish, rule, takes, args, forms)
#endif

/* clang-format off */
LT_RED(SUM, sum, SUM, VALUE, WIDE, ANY, LT_RA_DIMS | LT_RA_KEEPDIM | LT_RA_DTYPE, ML)
LT_RED(PROD, prod, PROD, VALUE, WIDE, ANY, LT_RA_DIM | LT_RA_KEEPDIM | LT_RA_DTYPE, ML)
LT_RED(MEAN, mean, SUM, MEAN, SAME, INEXACT, LT_RA_DIMS | LT_RA_KEEPDIM | LT_RA_DTYPE, ML)
LT_RED(MIN, min, MIN, VALUE, SAME, REAL, LT_RA_DIM | LT_RA_KEEPDIM | LT_RA_INDICES, ML)
LT_RED(MAX, max, MAX, VALUE, SAME, REAL, LT_RA_DIM | LT_RA_KEEPDIM | LT_RA_INDICES, ML)
LT_RED(AMIN, amin, MIN, VALUE, SAME, REAL, LT_RA_DIMS | LT_RA_KEEPDIM, ML)
LT_RED(AMAX, amax, MAX, VALUE, SAME, REAL, LT_RA_DIMS | LT_RA_KEEPDIM, ML)
LT_RED(ARGMIN, argmin, MIN, POS, INT64, REAL, LT_RA_DIM | LT_RA_KEEPDIM, ML)
LT_RED(ARGMAX, argmax, MAX, POS, INT64, REAL, LT_RA_DIM | LT_RA_KEEPDIM, ML)
LT_RED(ALL, all, ALL, FLAG, BOOL, ANY, LT_RA_DIMS | LT_RA_KEEPDIM, ML)
LT_RED(ANY, any, ANY, FLAG, BOOL, ANY, LT_RA_DIMS | LT_RA_KEEPDIM, ML)
LT_RED(VAR, var, SUM, VAR, SAME, FLOAT, LT_RA_DIMS | LT_RA_UNBIASED | LT_RA_KEEPDIM, ML)
LT_RED(STD, std, SUM, STD, SAME, FLOAT, LT_RA_DIMS | LT_RA_UNBIASED | LT_RA_KEEPDIM, ML)
LT_RED(COUNT_NONZERO, count_nonzero, NONE, NONE, INT64, ANY, LT_RA_DIMS, ML)
LT_RED(NORM, norm, NONE, NONE, REAL, INEXACT, LT_RA_P | LT_RA_DIMS | LT_RA_KEEPDIM | LT_RA_DTYPE, ML)
LT_RED(LOGSUMEXP, logsumexp, NONE, NONE, FLOAT, REAL, LT_RA_DIMS | LT_RA_KEEPDIM | LT_RA_NEEDS_DIM, ML)
LT_RED(NANSUM, nansum, NANSUM, VALUE, WIDE, REAL, LT_RA_DIMS | LT_RA_KEEPDIM | LT_RA_DTYPE, ML)
LT_RED(NANMEAN, nanmean, NANSUM, MEAN, SAME, FLOAT, LT_RA_DIMS | LT_RA_KEEPDIM | LT_RA_DTYPE, ML)
LT_RED(STD_MEAN, std_mean, SUM, STD, SAME, FLOAT, LT_RA_DIMS | LT_RA_UNBIASED | LT_RA_KEEPDIM | LT_RA_MEAN, L)
LT_RED(VAR_MEAN, var_mean, SUM, VAR, SAME, FLOAT, LT_RA_DIMS | LT_RA_UNBIASED | LT_RA_KEEPDIM | LT_RA_MEAN, L)
/* clang-format on */

#undef LT_RED
