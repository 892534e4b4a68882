/*
 * lt_reduce.h -- reductions: sum, prod, mean, min, max, amin, amax, argmin, argmax, all, any,
 * var, std, count_nonzero, norm, logsumexp, nansum, nanmean, std_mean, var_mean (every entry of
 * lt_reduce_table.h), over every element or over one dim (lt_reduce.c), over several dims, and the
 * reductions composed of others (lt_reduce_dims.c). Lua-free.
 *
 * Definitions are data: each reduction is one row of lt_reductions[] -- its name, the fold its
 * elements go through, how the fold's state becomes the result, its dtype rule, the dtypes it
 * takes, the arguments of its Lua forms -- made by lt_reduce.c from the table lt_reduce_table.h,
 * whose order is the enum's. The binding registers its methods and module forms from the rows
 * (lua_reduce.c); the C test checks every row against a naive reference (spec/c/test_math.c).
 *
 * Calls lt_copy.c (a contiguous copy for argmin/argmax), lt_iter.c, lt_pool.c, lt_tensor.c, and
 * for the composed ones lt_funcs.c and lt_softmax.c. Called by the binding, lt_vecops.c,
 * lt_reduce_dims.c.
 */
#ifndef LT_REDUCE_H
#define LT_REDUCE_H

#include "lt_funcs.h"
#include "lt_tensor.h"

/* Every reduction: LT_SUM, LT_PROD, ..., LT_LOGSUMEXP (lt_reduce_table.h's order). */
typedef enum {
#define LT_RED(E, name, fold, finish, rule, takes, args, forms) LT_##E,
#include "lt_reduce_table.h"
  LT_NREDOPS
} lt_redop;

/* How elements fold into a reduction's state (NONE: a composed reduction). */
typedef enum {
  LT_FOLD_NONE,
  LT_FOLD_SUM,
  LT_FOLD_PROD,
  LT_FOLD_MIN,
  LT_FOLD_MAX,
  LT_FOLD_ALL,
  LT_FOLD_ANY,
  LT_FOLD_NANSUM /* a sum that skips NaN, counting the elements kept (nanmean divides by it) */
} lt_fold;
/* How the state of a fold becomes the result. */
typedef enum {
  LT_FINISH_NONE,
  LT_FINISH_VALUE, /* the sum, product, minimum or maximum */
  LT_FINISH_MEAN,
  LT_FINISH_VAR, /* a second pass: squared deviations from the mean */
  LT_FINISH_STD,
  LT_FINISH_POS, /* the position of the minimum or maximum */
  LT_FINISH_FLAG /* all, any */
} lt_finish;
/* The result dtype from the input's d. */
typedef enum {
  LT_RRULE_SAME,  /* d */
  LT_RRULE_WIDE,  /* d, but bool and integers give int64 (sums wrap) */
  LT_RRULE_INT64, /* int64 */
  LT_RRULE_BOOL,  /* bool */
  LT_RRULE_REAL,  /* d, but complex gives its part's dtype */
  LT_RRULE_FLOAT  /* d, but bool and integers give float32 */
} lt_red_rule;
/* The dtypes a reduction takes. */
enum {
  LT_TAKES_BOOL = 1,
  LT_TAKES_INT = 2,
  LT_TAKES_FLOAT = 4,
  LT_TAKES_COMPLEX = 8,
  LT_TAKES_REAL = 7,
  LT_TAKES_INEXACT = 12,
  LT_TAKES_ANY = 15
};
/* What the Lua forms take after the tensor, in this order. */
enum {
  LT_RA_P = 1,           /* norm's p */
  LT_RA_DIM = 2,         /* a dim */
  LT_RA_DIMS = 4,        /* a dim or a table of dims */
  LT_RA_UNBIASED = 8,    /* var/std: unbiased, or the option correction */
  LT_RA_KEEPDIM = 16,    /* keepdim */
  LT_RA_DTYPE = 32,      /* the option dtype: the input is cast to it first */
  LT_RA_INDICES = 64,    /* with one dim: the values and their positions; (other): maximum */
  LT_RA_NEEDS_DIM = 128, /* the dim must be given */
  LT_RA_MEAN = 256       /* std_mean, var_mean: the mean over the same dims follows the result */
};

/* The arguments of a reduction: over dims[0..ndims) (0-based; ndims 0: every element), keeping
   them as size 1 when keepdim; var/std's correction; norm's p. */
typedef struct {
  int ndims, dims[LT_MAX_NDIM];
  int keepdim, correction;
  double p;
} lt_red_args;

typedef struct {
  const char *name; /* torch's */
  lt_fold fold;
  lt_finish finish;
  lt_red_rule rule;
  unsigned takes; /* LT_TAKES_* */
  unsigned args;  /* LT_RA_* */
  unsigned forms; /* LT_FORM_* (lt_funcs.h) */
  /* a composed reduction (fold NONE): the result over ra->dims, in *out */
  int (*compose)(const lt_tensor *a, const lt_red_args *ra, lt_tensor **out, lt_error *err);
} lt_red_row;

extern const lt_red_row lt_reductions[LT_NREDOPS];

/* Reduces over every element (dim < 0) or over dim, keeping it as size 1 when keepdim.
   correction: for var/std (torch's default 1). With idx (not NULL) a fold MIN/MAX of finish VALUE
   over a dim also gives the 0-based positions as int64 in *idx. Rows of fold NONE are refused.
   Result dtypes by the row's rule; sum and prod of integers wrap in int64. A NaN wins min/max/
   argmin/argmax (the first one). min, max, argmin and argmax of nothing raise; sum gives 0, prod
   1, all true, any false, mean and var NaN; var/std with N - correction <= 0 give NaN. A dtype
   the row does not take: "not supported for int64 (floating point expected)". The results are
   new contiguous tensors; without a dim, keepdim gives ndim sizes of 1, else 0-d. A 0-d tensor
   reduces over dim 0 like over every element. *idx is NULL unless filled. */
int lt_reduce(lt_redop op, const lt_tensor *a, int dim, int keepdim, int correction,
              lt_tensor **out, lt_tensor **idx, lt_error *err);

/* Reduces over the ndims dims (0-based, each one once; ndims 0: every dim), keeping each as
   size 1 when keepdim: the result dtypes and rules of lt_reduce, one tensor (min and max give
   the values only, as torch's amin/amax). Position reductions take one dim. "dim 2 appears
   twice" for a repeated dim. A 0-d tensor takes dim 0 (its only one). Composed rows run their
   compose function. */
int lt_reduce_dims(lt_redop op, const lt_tensor *a, const int *dims, int ndims, int keepdim,
                   int correction, lt_tensor **out, lt_error *err);

/* The number of nonzero elements (NaN counts) over dims as lt_reduce_dims, in int64. */
int lt_count_nonzero(const lt_tensor *a, const int *dims, int ndims, int keepdim, lt_tensor **out,
                     lt_error *err);

/* The vector p-norm over dims as lt_reduce_dims: (sum |x|^p)^(1/p); p = inf the largest |x|,
   -inf the smallest, 0 the number of nonzero elements. Floating and complex inputs; the result
   is real (complex64 -> float32). The inf norms of nothing raise. */
int lt_norm(const lt_tensor *a, double p, const int *dims, int ndims, int keepdim, lt_tensor **out,
            lt_error *err);

/* The compose functions of the composed rows (lt_reduce_dims.c): lt_compose_COUNT_NONZERO ... */
#define LT_RED(E, name, fold, finish, rule, takes, args, forms) LT_COMPOSE_DECL_##fold(E)
#define LT_COMPOSE_DECL_NONE(E) \
  int lt_compose_##E(const lt_tensor *a, const lt_red_args *ra, lt_tensor **out, lt_error *err);
#define LT_COMPOSE_DECL_SUM(E)
#define LT_COMPOSE_DECL_PROD(E)
#define LT_COMPOSE_DECL_MIN(E)
#define LT_COMPOSE_DECL_MAX(E)
#define LT_COMPOSE_DECL_ALL(E)
#define LT_COMPOSE_DECL_ANY(E)
#define LT_COMPOSE_DECL_NANSUM(E)
#include "lt_reduce_table.h"

#endif
