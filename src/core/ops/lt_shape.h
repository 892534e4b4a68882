/*
 * lt_shape.h -- shapes and construction (torch's names): the views diagonal and view-as-dtype,
 * the copies flip, roll, repeat, tril/triu and diag, and the constructors eye, linspace and
 * logspace. Dims are 0-based; the binding (lua_shape.c) maps its 1-based numbers onto them.
 *
 * Views share the storage and the read-only state of their source (lt_tensor_alias); copies are
 * new, contiguous and writable, as torch's clones. Negative strides (flip) stay inside: what
 * leaves this file never has one. Lua-free.
 *
 * Calls lt_tensor.c (views), lt_copy.c (strided copies, fills), lt_dtype.c. Called by the
 * binding (lua_shape.c).
 */
#ifndef LT_SHAPE_H
#define LT_SHAPE_H

#include "lt_tensor.h"

/* {====== views ====== */

/* The diagonal of dims d1 and d2 (distinct, 0-based) shifted by offset (> 0 above the main
   one): those dims removed, the diagonal appended as the last dim (torch.diagonal). */
int lt_diagonal(const lt_tensor *t, int64_t offset, int d1, int d2, lt_tensor **out, lt_error *err);
/* t's bytes read as dtype dt (torch's Tensor.view(dtype)): any layout when the element sizes
   agree; else the last dim must have stride 1 and (going to a larger element) its byte size,
   the offset and the other strides must divide by the new size; the last dim scales. */
int lt_view_dtype(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err);

/* }====== */

/* {====== copies ====== */

/* t reversed along the ndims dims (each once). */
int lt_flip(const lt_tensor *t, int ndims, const int *dims, lt_tensor **out, lt_error *err);
/* t rolled by shifts[i] along dims[i] (i < n, applied in turn; a dim may repeat); dims NULL:
   the flattened tensor by shifts[0] (n must be 1), shape kept. */
int lt_roll(const lt_tensor *t, int n, const int64_t *shifts, const int *dims, lt_tensor **out,
            lt_error *err);
/* torch's Tensor.repeat: n >= t->ndim counts (each >= 0), the tensor's dims aligned to the last
   ones; the result's size i is reps[i] times the (padded) size. */
int lt_repeat(const lt_tensor *t, int n, const int64_t *reps, lt_tensor **out, lt_error *err);
/* tril (upper 0: keeps j - i <= k) or triu (upper 1: keeps j - i >= k) of every matrix of the
   last two dims (t->ndim >= 2); the rest zero. */
int lt_tri(const lt_tensor *t, int64_t k, int upper, lt_tensor **out, lt_error *err);
/* The same in place (tril_, triu_): clears those elements of t itself, whatever its strides (the
   caller made t writable). */
int lt_tri_(lt_tensor *t, int64_t k, int upper, lt_error *err);
/* torch.diag: a 1-d t becomes the square matrix with t on diagonal k; a 2-d t gives a copy of
   its diagonal k. */
int lt_diag(const lt_tensor *t, int64_t k, lt_tensor **out, lt_error *err);

/* }====== */

/* {====== constructors ====== */

/* An n x m matrix of dt with ones on the main diagonal. */
int lt_eye(lt_dtype dt, int64_t n, int64_t m, lt_tensor **out, lt_error *err);
/* torch.linspace (logspace 0) / torch.logspace (logspace 1: base^x of those): steps >= 0 values
   from start to end ({re, im}: the imaginary parts matter for complex dtypes only), the first half
   counted from start and the second from end, so both ends are exact; computed in dt's precision
   (float16 and bfloat16 in float32, integers in double, then truncated). */
int lt_linspace(lt_dtype dt, const double start[2], const double end[2], int64_t steps,
                int logspace, double base, lt_tensor **out, lt_error *err);

/* }====== */

#endif
