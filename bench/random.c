/*
 * random.c -- bench_random: random fills, ltensor from Lua against NumPy's Generator in the same
 * process.
 *
 *   randn float32 16M   lt.randn(N) against rng.standard_normal(N, dtype=np.float32)
 *                       (goal >= 1.0x NumPy at 1 thread and at ltensor's default count)
 *   rand float32 16M    lt.rand(N) against rng.random(N, dtype=np.float32) (goal >= 1.0x)
 *   randn float64 16M   lt.randn(N, {dtype = 'float64'}) against rng.standard_normal(N)
 *   randint int64 16M   lt.randint(0, 1000, {N}) against rng.integers(0, 1000, N)
 *                       (the last two printed without a goal)
 *
 * ours: `local r <close> = lt.randn(N)` in a Lua for loop; NumPy: `r = rng.standard_normal(...)`
 * in a Python for loop, rng = np.random.default_rng(0) (PCG64, ziggurat normals): both allocate
 * their result on every call. Timed by the wall clock, ltensor at its default thread count and at
 * 1 thread, NumPy single-threaded (its Generator has no threads). Every case runs interleaved
 * with the others, one loop per round, and keeps its best round. The ratio is NumPy's time over
 * ours (above 1: ltensor is faster). The streams differ (Philox against PCG64): only the speed is
 * compared; spec/random_spec.lua checks the numbers.
 *
 * Usage: bench_random
 * Env:   LTENSOR_BENCH_QUICK=1   4M elements, fewer rounds (a few seconds)
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

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N = ...\n"
    "local B = {}\n"
    "function B.randn32(n) for _ = 1, n do local r <close> = lt.randn(N) end end\n"
    "function B.rand32(n) for _ = 1, n do local r <close> = lt.rand(N) end end\n"
    "function B.randn64(n)\n"
    "  for _ = 1, n do local r <close> = lt.randn(N, {dtype = 'float64'}) end\n"
    "end\n"
    "function B.randint(n) for _ = 1, n do local r <close> = lt.randint(0, 1000, {N}) end end\n"
    "function B.check()  -- the fills look like their distributions\n"
    "  local z, u = lt.randn(N), lt.rand(N)\n"
    "  assert(math.abs(z:mean()) < 0.01 and math.abs(z:var() - 1) < 0.01, 'randn')\n"
    "  assert(u:min() >= 0 and u:max() < 1 and math.abs(u:mean() - 0.5) < 0.01, 'rand')\n"
    "  local i = lt.randint(0, 1000, {N})\n"
    "  assert(i:min() == 0 and i:max() == 999, 'randint')\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; N is set */
    "rng = np.random.default_rng(0)\n";

static const bench_row rows[] = {
    {"randn float32", "randn32", "r = rng.standard_normal(N, dtype=np.float32)", 1.0},
    {"rand float32", "rand32", "r = rng.random(N, dtype=np.float32)", 1.0},
    {"randn float64", "randn64", "r = rng.standard_normal(N)", BENCH_INFO},
    {"randint int64", "randint", "r = rng.integers(0, 1000, N)", BENCH_INFO},
};
int main(int argc, char **argv) {
  long long n = bench_flag("LTENSOR_BENCH_QUICK") ? 1 << 22 : 1 << 24;
  char note[64];
  snprintf(note, sizeof note, "%lldM elements a call", n >> 20);
  const bench_def bench = {"bench_random",
                           lua_chunk,
                           py_code,
                           {"N"},
                           {n},
                           1,
                           rows,
                           sizeof rows / sizeof *rows,
                           {2, 7},
                           {1, 3},
                           "ltensor random fills against NumPy's Generator",
                           note,
                           "randn and rand float32 >= 1.0x NumPy at 1 thread and at the default"};
  return bench_rows_main(argc, argv, &bench);
}
