/*
 * lt_copy.h -- every operation that may copy elements: strided copy between any two dtypes,
 * fill, clone (eager and copy-on-write), cast, contiguous, reshape and flatten (a view when the
 * strides allow, else a copy), and arange.
 *
 * Owns: per-dtype inner loops generated from LT_DTYPES (a canonical buffer between any two
 * dtypes; same-dtype moves by element size), overlap handling, and the write rules applied in
 * bulk. Lua-free.
 *
 * Calls lt_iter.c, lt_pool.c, lt_transpose.c (the copies of transposes), lt_tensor.c,
 * lt_storage.c, lt_dtype.c. Called by lt_math.c,
 * lt_reduce.c, lt_linalg.c, lt_dlpack.c and the binding.
 */
#ifndef LT_COPY_H
#define LT_COPY_H

#include "lt_iter.h"
#include "lt_tensor.h"

/* Copies src into dst, converting dtypes and broadcasting src to dst's shape. Overlapping
   memory is handled (src is copied aside first). Fails on a read-only or opaque dst, on shapes
   that do not broadcast, on a dst with overlapping elements (stride 0), and on a float value
   that cannot be written to an integer dst (dst may then be partly written). */
int lt_copy(lt_tensor *dst, const lt_tensor *src, lt_error *err);

/* Writes v to every element of dst. */
int lt_fill(lt_tensor *dst, const lt_scalar *v, lt_error *err);

/* A new contiguous copy of t in dtype dt (writable); lt_clone: in t's own dtype. */
int lt_cast(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err);
/* *t in dtype dt: a cast replaces it (the old tensor freed); nothing when it has dt already. */
int lt_cast_over(lt_tensor **t, lt_dtype dt, lt_error *err);
int lt_clone(const lt_tensor *t, lt_tensor **out, lt_error *err);
/* A writable copy of t that shares t's block until either side writes (same shape, strides and
   offset). Falls back to lt_clone when the block cannot be shared (memory from outside, a
   pinned block), when t covers less than half of it, or when elements of t share an address
   (an expanded view: its clone's elements must be distinct). */
int lt_clone_lazy(const lt_tensor *t, lt_tensor **out, lt_error *err);
/* t as a contiguous tensor of dtype dt: t itself (*owned NULL) or a new copy (*owned, which the
   caller frees; *res points to it). Refuses a t the host cannot read (lt_check_readable), so
   *res's data can be read in every case. */
int lt_contiguous_as(const lt_tensor *t, lt_dtype dt, const lt_tensor **res, lt_tensor **owned,
                     lt_error *err);

/* As lt_view, or a contiguous copy when no view can express the shape (*copied = 1; copied may
   be NULL). */
int lt_reshape(const lt_tensor *t, int ndim, const int64_t *shape, lt_tensor **out, int *copied,
               lt_error *err);
/* Merges dims start..end (0-based, inclusive) into one; a view when possible, else a copy. A
   0-d tensor becomes 1-d. */
int lt_flatten(const lt_tensor *t, int start, int end, lt_tensor **out, lt_error *err);

/*
 * torch.arange: a new 1-d tensor of dtype dt holding start, start + step, ... up to stop
 * (excluded). When all three scalars are LT_SK_INT the arithmetic is integer (the span computed
 * unsigned, so it may exceed int64; the count rounded up; LT_ERANGE "too many elements" past
 * INT64_MAX); else it is double: start and stop must be finite ("start and stop must be
 * finite"), step finite and nonzero ("step must be finite and nonzero"; for integers "step must
 * be nonzero"), its sign that of stop - start ("upper bound and lower bound inconsistent with
 * step sign"), and the count below 2^62 ("too many elements"): LT_EARG / LT_ERANGE. Each value
 * is written with lt_store; one the dtype cannot hold fails with LT_ERANGE "value %s cannot be
 * converted to %s". *out is set only on success.
 */
int lt_arange(lt_dtype dt, const lt_scalar *start, const lt_scalar *stop, const lt_scalar *step,
              lt_tensor **out, lt_error *err);

#endif
