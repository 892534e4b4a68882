/*
 * lt_sort_simd.h -- the vector kernels of the row sort (lt_sort.c): the order keys of a row
 * packed with their positions, a bitonic sorting network for short rows, and the read-off of
 * sorted items into values and int64 positions. Each takes the vector path as an argument
 * (lt_cpu_level(): LT_CPU_AVX512, LT_CPU_AVX2, or LT_CPU_SCALAR, the plain C reference), so that
 * a test can run every path the processor has on one machine. Lua-free.
 *
 * Items: for dtypes with keys of at most 32 bits, one uint64 per element, (key ^ flip) << 32 |
 * position; every item of a row is distinct (the positions are), so any sort of the items,
 * stable or not, gives the stable order of the elements. For 64-bit keys, keys and uint32
 * positions in two arrays (lt_sort.c's radix sort keeps them stable).
 *
 * The sort of whole runs of packed items on the AVX-512 path, lt_sort_quick, is lt_sort_quick.c's.
 *
 * Calls lt_cpu.c (the levels) and lt_sort.h (the keys). Called by lt_sort.c and
 * spec/c/test_sort.c.
 */
#ifndef LT_SORT_SIMD_H
#define LT_SORT_SIMD_H

#include <stdint.h>

#include "lt_dtype.h"

/* Rows of at most this many packed items are sorted by the network on the vector paths. */
#define LT_SORT_NET_MAX 256

/* Whether the pack and read-off kernels take dt: float32, int32, uint32 (packed items) and
   float64, int64, uint64 (wide keys). Other dtypes go through lt_order_key one by one. */
int lt_sort_simd_takes(lt_dtype dt);

/* out[i] = (key(x[i]) ^ flip) << 32 | i for the n elements of x (dt float32, int32 or
   uint32); range[0] and range[1]: the smallest and the largest key ^ flip. Returns how many
   elements were -0.0 or NaN (their values must be read back from x: their keys do not say their
   bits). */
int64_t lt_sort_pack32(int level, lt_dtype dt, const void *x, int64_t n, uint32_t flip,
                       uint64_t *out, uint32_t range[2]);
/* k[i] = key(x[i]) ^ flip, ix[i] = i (dt float64, int64 or uint64); returns the count of -0.0
   and NaN, as lt_sort_pack32. */
int64_t lt_sort_keys64(int level, lt_dtype dt, const void *x, int64_t n, uint64_t flip, uint64_t *k,
                       uint32_t *ix);

/* *lo and *hi: the smallest and the largest key (the top 32 bits) of the n >= 1 packed items a. */
void lt_sort_range(int level, const uint64_t *a, int64_t n, uint32_t *lo, uint32_t *hi);

/* Sorts the n <= LT_SORT_NET_MAX items src ascending into dst (the same array, or one that does
   not overlap it; every item distinct, as packed items are): a bitonic network on the vector
   paths (up to 32 items in AVX-512 registers), an insertion sort on the plain one. */
void lt_sort_net(int level, const uint64_t *src, uint64_t *dst, int64_t n);

/* Whether lt_sort_quick has a vector path at level (AVX-512 and a compiler that builds it). */
int lt_sort_quick_takes(int level);
/* Sorts the n distinct items a ascending in place (lt_sort_quick.c): an AVX-512 quicksort with
   a register network for short runs; past max_depth levels of partitions a run is heap sorted
   (so O(n log n) on any input). Without the AVX-512 path (lt_sort_quick_takes) a heap sort. */
void lt_sort_quick(uint64_t *a, int64_t n, int max_depth);
/* Partitions the n distinct items a around the median of 128 sampled (on lt_sort_quick's path
   and n >= 256; else nothing moves and n comes back): returns m, every item of a[0, m) below
   every item of a[m, n), so that both sides can be sorted apart (over the pool). */
int64_t lt_sort_quick_split(uint64_t *a, int64_t n);
/* lt_sort_quick's max_depth for n items: 2 log2(n) + 4. */
int lt_sort_quick_depth(int64_t n);

/* idx[j] = position of item j + base, for n packed items a. */
void lt_sort_positions(int level, const uint64_t *a, int64_t n, int64_t base, int64_t *idx);
/* idx[j] = p[j] + base. */
void lt_sort_positions32(int level, const uint32_t *p, int64_t n, int64_t base, int64_t *idx);
/* v[j] = the element of packed item a[j] (dt float32, int32 or uint32; flip as packed):
   decoded from the key; when special (lt_sort_pack32's count) is nonzero, -0.0 and NaN read
   back from the row x. */
void lt_sort_values32(int level, lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                      int64_t special, const void *x, void *v);
/* lt_sort_values32 and lt_sort_positions in one sweep, for items without -0.0 or NaN (special
   0); idx may be a itself (each item read before its place is written). */
void lt_sort_emit32(int level, lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                    int64_t base, void *v, int64_t *idx);
/* v[j] = the element of key k[j] at position p[j] (dt float64, int64 or uint64), as
   lt_sort_values32. */
void lt_sort_values64(int level, lt_dtype dt, const uint64_t *k, const uint32_t *p, int64_t n,
                      uint64_t flip, int64_t special, const void *x, void *v);

#endif
