/*
 * lt_gather.h -- indexing with tensors: advanced indexing by integer index tensors (reads that
 * copy, writes that fill, scatter or accumulate), index_select / index_add / index_copy /
 * index_fill, gather / scatter / scatter_reduce, take, masked_select, masked_scatter, nonzero.
 *
 * Owns: the reading of index tensors (int32 or int64, any strides; a value counts from `base`,
 * 1 for the Lua binding, and negatives from the end), torch's rule for where the dims of
 * several broadcast index tensors go, and the element moves (by element size where only bytes
 * move, by dtype where they are combined). Every check (dtypes, shapes, every index value)
 * happens before the first element is written, so a failed write changes nothing. Large reads
 * are split over the worker pool by output; writes run in index order on the caller's thread
 * (duplicate indices: the last write wins, sums accumulate). Lua-free.
 *
 * Calls lt_moves.c (offsets and moves), lt_copy.c, lt_iter.c, lt_tensor.c, lt_dtype.c. Called by
 * the binding (lua_index.c for keys, lua_gather.c for the methods).
 */
#ifndef LT_GATHER_H
#define LT_GATHER_H

#include "lt_tensor.h"

/* How written elements combine with what is there (torch's scatter_reduce names). */
typedef enum {
  LT_PUT_COPY, /* overwrite */
  LT_PUT_SUM,
  LT_PUT_PROD,
  LT_PUT_MEAN, /* scatter_reduce only */
  LT_PUT_AMAX,
  LT_PUT_AMIN
} lt_putop;

/* LT_EARG "<what> must be an int64 or int32 tensor (got float32)" unless idx can index. */
int lt_check_index_dtype(const lt_tensor *idx, const char *what, lt_error *err);
/* LT_EARG when op cannot combine elements of dt (amax/amin of complex, mean of bool). */
int lt_check_putop(lt_putop op, lt_dtype dt, lt_error *err);

/* {====== advanced indexing ====== */

/* Integer index tensors idx[j] applied to dims dims[j] (0-based, increasing, distinct) of a
   view; the other dims are kept whole. udims[j]: the dim (0-based) a message names for idx[j],
   as the caller's tensor counts its dims. */
typedef struct {
  int n;
  int dims[LT_MAX_NDIM], udims[LT_MAX_NDIM];
  const lt_tensor *idx[LT_MAX_NDIM];
} lt_adv_key;

/*
 * v[key] as torch's advanced indexing: the index tensors broadcast together to a shape B;
 * the result (a new contiguous tensor of v's dtype) has B in place of the indexed dims when
 * those are adjacent, else B first, then the kept dims in order.
 */
int lt_adv_read(const lt_tensor *v, const lt_adv_key *key, int base, lt_tensor **out,
                lt_error *err);
/* The shape of v[key] (*ndim dims into shape, room for LT_MAX_NDIM). */
int lt_adv_shape(const lt_tensor *v, const lt_adv_key *key, int *ndim, int64_t *shape,
                 lt_error *err);
/*
 * v[key] = src (op LT_PUT_COPY), or combined with op: src (any dtype, converted to v's) is
 * broadcast to the shape of v[key] (exact != 0: it must have that shape); src NULL writes
 * the scalar fill. v must be writable and prepared (lt_prepare_write). Elements are written
 * in the order of the index, so with duplicate positions the last write wins (LT_PUT_COPY) or
 * all of them combine.
 */
int lt_adv_write(lt_tensor *v, const lt_adv_key *key, const lt_tensor *src, const lt_scalar *fill,
                 lt_putop op, int exact, int base, lt_error *err);

/* }====== */

/* {====== along one dim (torch's index_select, gather, scatter families) ====== */

/* index_select(dim, idx): idx 0-d or 1-d. */
int lt_index_select(const lt_tensor *t, int dim, const lt_tensor *idx, int base, lt_tensor **out,
                    lt_error *err);
/* index_copy_ (LT_PUT_COPY), index_add_ (LT_PUT_SUM), index_fill_ (src NULL, fill). src must
   have t's shape with dim's size the index's length. */
int lt_index_put(lt_tensor *t, int dim, const lt_tensor *idx, const lt_tensor *src,
                 const lt_scalar *fill, lt_putop op, int base, lt_error *err);
/* gather(dim, idx): idx has t's number of dims, no larger than t in the other dims; the result
   has idx's shape. */
int lt_gather(const lt_tensor *t, int dim, const lt_tensor *idx, int base, lt_tensor **out,
              lt_error *err);
/* scatter_ / scatter_add_ / scatter_reduce_: t[..., idx[i...], ...] (op)= src[i...] along dim
   for every position of idx (src NULL: the scalar fill). include_self 0: the positions written
   start from the reduction's identity (and a mean counts only what was scattered). */
int lt_scatter(lt_tensor *t, int dim, const lt_tensor *idx, const lt_tensor *src,
               const lt_scalar *fill, lt_putop op, int include_self, int base, lt_error *err);

/* }====== */

/* {====== flat and masked ====== */

/* take(idx): t's elements at the flat row-major positions idx, in idx's shape. */
int lt_take(const lt_tensor *t, const lt_tensor *idx, int base, lt_tensor **out, lt_error *err);
/* masked_select(mask): the elements of t (broadcast with the bool mask) where mask is true, as a
   new 1-d tensor in row-major order. */
int lt_masked_select(const lt_tensor *t, const lt_tensor *mask, lt_tensor **out, lt_error *err);
/* v[mask] for a bool mask (at least 1-d) of v's leading shape: the kept rows, row-major, in a
   new tensor of shape [count, v's other sizes...] (what lt_adv_read gives, in one pass). */
int lt_mask_read(const lt_tensor *v, const lt_tensor *mask, lt_tensor **out, lt_error *err);
/* masked_scatter_(mask, src): the elements of src, in row-major order, written where mask
   (broadcast to t's shape) is true. */
int lt_masked_scatter(lt_tensor *t, const lt_tensor *mask, const lt_tensor *src, lt_error *err);
/* nonzero(): a k x ndim int64 tensor of the positions (counted from base) of t's nonzero
   elements, row-major. */
int lt_nonzero(const lt_tensor *t, int base, lt_tensor **out, lt_error *err);

/* }====== */

#endif
