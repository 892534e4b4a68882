/*
 * lt_reduce.h -- reductions: sum, prod, mean, min, max, argmin, argmax, all, any, var, std,
 * over every element or over one dim (lt_reduce.c); over several dims, count_nonzero and norm
 * (lt_reduce_dims.c). Lua-free.
 *
 * Calls lt_copy.c (a contiguous copy for argmin/argmax), lt_iter.c, lt_tensor.c, and for
 * count_nonzero and norm lt_math.c. Called by the binding.
 */
#ifndef LT_REDUCE_H
#define LT_REDUCE_H

#include "lt_tensor.h"

typedef enum {
  LT_SUM,
  LT_PROD,
  LT_MEAN,
  LT_MIN,
  LT_MAX,
  LT_ARGMIN,
  LT_ARGMAX,
  LT_ALL,
  LT_ANY,
  LT_VAR,
  LT_STD
} lt_redop;
/* The number of reductions: a macro, not an enum member, so that a switch over lt_redop that
   names every reduction (the C tests have one) needs no case for it. */
#define LT_NREDOPS (LT_STD + 1)

extern const char *const lt_redop_names[LT_NREDOPS];

/* Reduces over every element (dim < 0) or over dim, keeping it as size 1 when keepdim.
   correction: for var/std (torch's default 1). For LT_MIN/LT_MAX with a dim, *idx (when not
   NULL) receives the 0-based positions as int64.
   Result dtypes: sum/prod give int64 for bool and integers (wrapping), else the input dtype;
   mean, var, std keep the (floating) dtype and refuse others, complex included for var/std;
   min/max keep the dtype; argmin/argmax give int64 (over every element: the row-major
   position); all/any give bool. A NaN wins min/max/argmin/argmax (the first one). min, max,
   argmin and argmax of nothing raise; sum gives 0, prod 1, all true, any false, mean and var
   NaN; var/std with N - correction <= 0 give NaN. Complex: sum, prod and mean only. The
   results are new contiguous tensors; without a dim, keepdim gives ndim sizes of 1, else 0-d.
   A 0-d tensor reduces over dim 0 like over every element. *idx is NULL unless filled. */
int lt_reduce(lt_redop op, const lt_tensor *a, int dim, int keepdim, int correction,
              lt_tensor **out, lt_tensor **idx, lt_error *err);

/* Reduces over the ndims dims (0-based, each one once; ndims 0: every dim), keeping each as
   size 1 when keepdim: the result dtypes and rules of lt_reduce, one tensor (min and max give
   the values only, as torch's amin/amax). argmin and argmax take one dim. "dim 2 appears twice"
   for a repeated dim. A 0-d tensor takes dim 0 (its only one). */
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

#endif
