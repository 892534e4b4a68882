/*
 * lt_copy.h -- bulk element work: strided copy between any two dtypes, and fill.
 *
 * Owns: the iteration over two strided operands (dims reordered and merged so the inner loop
 * is as long and as contiguous as the layout allows), per-dtype inner loops generated from one
 * definition, overlap handling, and the write rules applied in bulk. Lua-free.
 */
#ifndef LT_COPY_H
#define LT_COPY_H

#include "lt_tensor.h"

/* Copies src into dst, converting dtypes and broadcasting src to dst's shape. Overlapping
   memory is handled (src is copied aside first). Fails on a read-only or opaque dst, on shapes
   that do not broadcast, on a dst with overlapping elements (stride 0), and on a float value
   that cannot be written to an integer dst (dst may then be partly written). */
int lt_copy(lt_tensor *dst, const lt_tensor *src, lt_error *err);

/* Writes v to every element of dst. */
int lt_fill(lt_tensor *dst, const lt_scalar *v, lt_error *err);

/* src viewed with dst's shape under broadcasting rules (a new header). */
int lt_broadcast_to(const lt_tensor *src, int ndim, const int64_t *shape, lt_tensor **out,
                    lt_error *err);

/* Formats a scalar for an error message. */
void lt_scalar_str(const lt_scalar *s, char *buf, size_t n);

#endif
