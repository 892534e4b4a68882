/*
 * index.c -- bench_index: indexing with tensors from Lua against NumPy in the same process.
 *
 *   index_select  x:index_select(1, idx), 1M int64 indices (spread over the whole vector) into
 *                 a 16M float32 vector, against np.take(x, idx): goal >= 1.0x NumPy at 1 thread
 *                 and at ltensor's default thread count (the pool splits the reads by output)
 *   gather        x:gather(1, idx), the same data, against np.take_along_axis (information)
 *   t[mask]       x[x:gt(0)] on 4M float32 (half true), against x[x > 0] (information)
 *
 * ours: `local r <close> = ...` in a Lua for loop; NumPy: `r = ...` in a Python for loop: both
 * allocate their result on every call (the mask case also makes its mask). Every case runs
 * interleaved with the others, one loop per round, and keeps its best round by the wall clock.
 * The ratio is NumPy's time over ours (above 1: ltensor is faster).
 *
 * Usage: bench_index
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, NumPy, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <stdio.h>

#include "bench.h"
#include "ltensor.h"

#define NX (1 << 24) /* elements of the indexed vector */
#define NI (1 << 20) /* indices */
#define NM (1 << 22) /* elements of the masked vector */

/* The indices are a multiplicative hash of 0..NI-1 modulo NX: the same on both sides, spread
   over the whole vector (no locality a cache could use). */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N, M, NMASK = ...\n"
    "local x = lt.arange(N, 'float32') * 0.5\n"
    "local idx = lt.arange(M, 'int64') * 2654435761 % N + 1\n"
    "local xm = (lt.arange(NMASK, 'float32') * 0.618034) % 2 - 1\n"
    "local B = {}\n"
    "function B.select(n) for _ = 1, n do local r <close> = x:index_select(1, idx) end end\n"
    "function B.gather(n) for _ = 1, n do local r <close> = x:gather(1, idx) end end\n"
    "function B.mask(n)\n"
    "  for _ = 1, n do local m <close> = xm:gt(0); local r <close> = xm[m] end\n"
    "end\n"
    "function B.check()\n"
    "  local r = x:index_select(1, idx)\n"
    "  for _, i in ipairs({1, 2, 12345, M}) do assert(r[i] == x[idx[i]], 'index_select') end\n"
    "  assert(x:gather(1, idx):equal(r), 'gather')\n"
    "  local s = xm[xm:gt(0)]\n"
    "  assert(s:numel() == xm:gt(0):sum() and s:min() > 0, 'mask')\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; N, M, NMASK are set */
    "x = np.arange(N, dtype=np.float32) * np.float32(0.5)\n"
    "idx = np.arange(M, dtype=np.int64) * 2654435761 % N\n"
    "xm = (np.arange(NMASK, dtype=np.float32) * np.float32(0.618034)) % 2 - 1\n";

static const bench_row rows[] = {
    {"index_select 1M of 16M f32", "select", "r = np.take(x, idx)", 1.0},
    {"gather 1M of 16M f32", "gather", "r = np.take_along_axis(x, idx, 0)", BENCH_INFO},
    {"t[mask] 4M f32 (mask made)", "mask", "r = xm[xm > 0]", BENCH_INFO},
};
static const bench_def bench = {"bench_index",
                                lua_chunk,
                                py_code,
                                {"N", "M", "NMASK"},
                                {NX, NI, NM},
                                3,
                                rows,
                                sizeof rows / sizeof *rows,
                                {3, 9},
                                {3, 10},
                                "ltensor indexing with tensors against NumPy",
                                NULL,
                                "index_select >= 1.0x np.take at 1 thread and at the default"};

int main(int argc, char **argv) { return bench_rows_main(argc, argv, &bench); }
