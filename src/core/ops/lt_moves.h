/*
 * lt_moves.h -- the machinery under lt_gather.c (not installed, not for other callers): index
 * values read into byte offsets, and the element moves those offsets drive. An lt_moves is n
 * items, item b moving a block of "rest" elements (the dims an index keeps whole, possibly none)
 * from src + soff[b] to dst + doff[b] (an offset array may be NULL: b * step), copied by element
 * size or combined by dtype (lt_putop). Lua-free. Implemented by lt_moves.c; called by
 * lt_gather.c only.
 */
#ifndef LT_MOVES_H
#define LT_MOVES_H

#include "lt_gather.h"

typedef struct {
  lt_dtype dt;
  size_t es;
  lt_putop op;
  int64_t n; /* items */
  char *dst;
  const char *src;
  const int64_t *doff, *soff; /* per item, or NULL: item * step */
  int64_t dstep, sstep;
  int nr; /* rest dims: sizes and byte strides on each side */
  int64_t rs[LT_MAX_NDIM], rd[LT_MAX_NDIM], rsr[LT_MAX_NDIM];
} lt_moves;

/* off[k] (=, or += with add) the position of idx's k-th value (row-major; counted from base,
   negatives from the end) times stride (bytes), for a dim of size n. Every value is checked:
   LT_ERANGE "index 5 is out of range for dim 1 of size 4" (dim 0-based; -1 names a flat
   position "for a tensor of 6 elements"). Split over the pool. */
int lt_index_offsets(const lt_tensor *idx, int base, int64_t n, int dim, int64_t stride, int add,
                     int64_t *off, lt_error *err);
/* off[k] (+= with add) the byte offset sum_d i_d * st[d] of the k-th position of shape. */
void lt_walk_offsets(int ndim, const int64_t *shape, const int64_t *st, int add, int64_t *off);
/* A new offset array of n entries into *out (free() it); LT_ERANGE when n entries overflow
   a size, LT_ENOMEM when out of memory (*out then NULL). */
int lt_new_offsets(int64_t n, int64_t **out, lt_error *err);
/* Runs the moves; par: the items may be split over the pool (their destinations distinct). */
void lt_moves_run(lt_moves *m, int par);
/* The value the positions a scatter_reduce writes start from when include_self is false. */
void lt_put_identity(lt_putop op, lt_dtype dt, lt_scalar *s);
/* The element at p divided by the count c > 0 (floor division for integers, as torch's mean). */
void lt_mean_div(lt_dtype dt, char *p, int64_t c);

#endif
