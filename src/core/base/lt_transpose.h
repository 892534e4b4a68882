/*
 * lt_transpose.h -- the copy of a transpose (maybe batched): a same-dtype copy whose inner run
 * is contiguous in the destination and strided in the source, while another dim is contiguous
 * in the source, moved by cache-sized tiles instead of one element per cache line.
 *
 * Owns: the tile kernels by element size (SSE2 blocks where there are) and their split over the
 * pool's threads. Calls lt_iter.c and lt_pool.c. Called by lt_copy.c alone. Lua-free.
 */
#ifndef LT_TRANSPOSE_H
#define LT_TRANSPOSE_H

#include "lt_iter.h"

/* Copies by tiles when the iteration (dst, src, both of dtype dt) has the transpose pattern;
   returns 0, having done nothing, when it has not. */
int lt_copy_transposed(const lt_iter *it, char *const *base, lt_dtype dt);

#endif
