/*
 * lt_stream.h -- elementwise kernels that write large outputs with streaming (non-temporal)
 * stores: the memory-bound float32 and float64 operations (abs, neg, floor, ceil, round, trunc,
 * frac, relu; add, sub, mul, div, maximum, minimum) over contiguous runs. Lua-free.
 *
 * A plain store first reads the destination's cache line and later writes it back: an output
 * larger than the last-level cache costs its size twice. A streaming store writes whole lines
 * without reading them, so x:abs() of 64 MiB moves 128 MiB instead of 192, and runs at the
 * speed memory allows (bench/compute.c). Below the threshold (lt_stream_worth) the output stays
 * in cache for what reads it next, and the ordinary kernels are faster.
 *
 * The results are bit for bit the ordinary kernels' (lt_math.c's, lt_funcs.c's expressions,
 * written once more as vector instructions here): spec/c/test_stream.c compares them on every
 * special value, length and alignment.
 *
 * Called by lt_math.c and lt_funcs.c, which pick these kernels for an operation whose operands
 * together span lt_stream_worth's bytes. Calls lt_os.c (the cache size).
 */
#ifndef LT_STREAM_H
#define LT_STREAM_H

#include <stdint.h>

#include "lt_dtype.h"

typedef enum {
  LT_SU_ABS, /* fabs */
  LT_SU_NEG,
  LT_SU_FLOOR,
  LT_SU_CEIL,
  LT_SU_ROUND, /* nearbyint: half to even */
  LT_SU_TRUNC,
  LT_SU_FRAC, /* x - trunc(x) */
  LT_SU_RELU, /* x > 0 or NaN: x; else +0 */
  LT_SU_COUNT
} lt_stream_unop;

typedef enum {
  LT_SB_ADD,
  LT_SB_SUB,
  LT_SB_MUL,
  LT_SB_DIV,
  LT_SB_MAX, /* (x is NaN or x > y) ? x : y, as lt_math.c's maximum */
  LT_SB_MIN, /* (x is NaN or x < y) ? x : y */
  LT_SB_COUNT
} lt_stream_binop;

/* Whether an operation whose operands span `bytes` in all (inputs and output) should run these
   kernels: false where they would not stream (no AVX, not x86-64), and below 3/4 of the
   last-level cache (the size lt_os reports; 32 MiB where it reports none). The environment
   variable LTENSOR_STREAM_BYTES, read once, replaces that threshold (0: always; a negative
   number: never). */
int lt_stream_worth(double bytes);

/* y[i] = op(x[i]), i in [0, n), dt LT_FLOAT32 or LT_FLOAT64; y may be x (in place), never a
   partial overlap. Streams where y is aligned to its element size (a misaligned y is written
   with plain stores); ends with a store fence, so the values are visible to whichever thread
   synchronizes with this one next. */
void lt_stream_unary(lt_stream_unop op, lt_dtype dt, void *y, const void *x, int64_t n);

/* y[i] = op(a[i * sa], b[i * sb]), sa and sb 0 (one value for every i) or 1 (contiguous);
   otherwise as lt_stream_unary. */
void lt_stream_binary(lt_stream_binop op, lt_dtype dt, void *y, const void *a, int sa,
                      const void *b, int sb, int64_t n);

#endif
