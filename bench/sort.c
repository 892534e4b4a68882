/*
 * sort.c -- bench_sort: sorting and scans, ltensor from Lua against NumPy in the same process.
 *
 *   sort     x:sort() of 1M random float32 against np.sort(x) (goal >= 1.5x at 1 thread and at
 *            the default thread count: issue 30); ours also returns the int64 indices, np.sort
 *            does not. The same for 1M int64 and 1M float64 (goal >= 1.0x), and for 1000 rows of
 *            10000 float32 sorted along the last dim against np.sort(a, axis=-1) (goal >= 1.0x).
 *            x:topk(100) against np.partition then np.sort of the 100 largest (goal >= 1.0x:
 *            a radix select, then a sort of the 100). For information, no goal: x:sort()
 *            against np.argsort(x) then x[i] (values and indices, as ours) and x:argsort()
 *            against np.argsort(x).
 *   cumsum   x:cumsum(1) of 16M float32 against np.cumsum(x) (goal >= 1.0x at 1 thread and at
 *            the default count).
 *
 * ours: `local v <close>, i = x:sort(); local j <close> = i` in a Lua for loop; NumPy: `r =
 * np.sort(x)` in a Python for loop: both allocate their results on every call. The data:
 * frac(sin(12.9898 k) * 43758.5453) for k = 0, 1, ..., computed in float64 and rounded to float32
 * on both sides (int64: times 2^40, truncated). ltensor at 1 thread (ltensor_set_num_threads(1))
 * and at its default count; NumPy's sort and cumsum are single-threaded. Cases run interleaved, one
 * loop per round; each keeps its best round (wall clock). Ratio = NumPy's time / ours (above 1:
 * ltensor is faster).
 *
 * Usage: bench_sort
 * Env:   LTENSOR_BENCH_QUICK=1   fewer rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, NumPy, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ltensor.h"

#define NSORT 1000000
#define NSCAN (1 << 24)

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local NS, NC = ...\n"
    "local function data64(n)\n"
    "  return (lt.arange(n, 'float64') * 12.9898):sin() * 43758.5453 % 1\n"
    "end\n"
    "local function data(n) return data64(n):to('float32') end\n"
    "local xs, xc = data(NS), data(NC)\n"
    "local xd = data64(NS)\n"
    "local xi = (xd * 2 ^ 40):to('int64')\n"
    "local xr = data(1000 * 10000):reshape(1000, 10000)\n"
    "local B = {}\n"
    "local function sorts(x, n) for _ = 1, n do local v <close>, i = x:sort(); local j <close> = i "
    "end end\n"
    "function B.sort(n) sorts(xs, n) end\n"
    "function B.sort_i64(n) sorts(xi, n) end\n"
    "function B.sort_f64(n) sorts(xd, n) end\n"
    "function B.sort_rows(n) sorts(xr, n) end\n"
    "function B.argsort(n) for _ = 1, n do local i <close> = xs:argsort() end end\n"
    "function B.topk(n) for _ = 1, n do local v <close>, i = xs:topk(100); local j <close> = i "
    "end end\n"
    "function B.cumsum(n) for _ = 1, n do local r <close> = xc:cumsum(1) end end\n"
    "function B.check()\n"
    "  for _, x in ipairs({xs, xi, xd}) do\n"
    "    local v, i = x:sort()\n"
    "    for k = 2, NS, 997 do assert(v[k - 1] <= v[k], 'sorted') end\n"
    "    for _, k in ipairs({1, 777, NS}) do assert(x[i[k]] == v[k], 'indices') end\n"
    "  end\n"
    "  local v = xr:sort()\n"
    "  for k = 2, 10000, 97 do assert(v[500][k - 1] <= v[500][k], 'rows') end\n"
    "  local tv, sv = xs:topk(100), xs:sort()\n"
    "  assert(tv[1] == sv[NS] and tv[100] == sv[NS - 99], 'topk')\n"
    "  local r, s = xc:cumsum(1), 0\n"
    "  for k = 1, 1000 do s = s + xc[k] end\n"
    "  assert(math.abs(r[1000] - s) <= 1e-5 * s, 'cumsum')\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; NS and NC are set */
    "def data64(n):\n"
    "    return np.sin(np.arange(n, dtype=np.float64) * 12.9898) * 43758.5453 % 1\n"
    "def data(n): return data64(n).astype(np.float32)\n"
    "xs, xc, xd = data(NS), data(NC), data64(NS)\n"
    "xi = (xd * 2.0 ** 40).astype(np.int64)\n"
    "xr = data(1000 * 10000).reshape(1000, 10000)\n";

static const bench_row rows[] = {
    {"sort float32 1M (+ indices) vs np.sort", "sort", "r = np.sort(xs)", 1.5},
    {"sort int64 1M (+ indices) vs np.sort", "sort_i64", "r = np.sort(xi)", 1.0},
    {"sort float64 1M (+ indices) vs np.sort", "sort_f64", "r = np.sort(xd)", 1.0},
    {"sort float32 1000 x 1e4 rows vs np.sort", "sort_rows", "r = np.sort(xr, axis=-1)", 1.0},
    {"sort float32 1M vs np.argsort + take", "sort", "i = np.argsort(xs); v = xs[i]", BENCH_INFO},
    {"argsort float32 1M vs np.argsort", "argsort", "i = np.argsort(xs)", BENCH_INFO},
    {"topk(100) float32 1M vs np.partition + sort", "topk",
     "r = np.sort(np.partition(xs, -100)[-100:])", 1.0},
    {"cumsum float32 16M vs np.cumsum", "cumsum", "r = np.cumsum(xc)", 1.0},
};
static const bench_def bench = {
    "bench_sort",
    lua_chunk,
    py_code,
    {"NS", "NC"},
    {NSORT, NSCAN},
    2,
    rows,
    sizeof rows / sizeof *rows,
    {2, 7},
    {2, 5},
    "ltensor sorting and scans against NumPy",
    "our sort returns values and int64 indices, np.sort the values only",
    "sort float32 1M >= 1.5x NumPy, the other sorts, topk and cumsum >= 1.0x, at 1 thread and at "
    "the default"};

int main(int argc, char **argv) { return bench_rows_main(argc, argv, &bench); }
