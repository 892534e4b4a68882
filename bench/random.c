/*
 * random.c -- bench_random: random fills, ltensor from Lua against NumPy's Generator in the same
 * process.
 *
 *   randn float32 16M   lt.randn(N) against rng.standard_normal(N, dtype=np.float32)
 *                       (goal >= 1.0x NumPy at ltensor's default thread count)
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

static lua_State *L;
static int lua_ref = LUA_NOREF;

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
    "rng = np.random.default_rng(0)\n"
    "def randn32(n):\n"
    "    for _ in range(n): r = rng.standard_normal(N, dtype=np.float32)\n"
    "def rand32(n):\n"
    "    for _ in range(n): r = rng.random(N, dtype=np.float32)\n"
    "def randn64(n):\n"
    "    for _ in range(n): r = rng.standard_normal(N)\n"
    "def randint(n):\n"
    "    for _ in range(n): r = rng.integers(0, 1000, N)\n";

typedef struct {
  const char *label, *fn;
  double goal; /* at the default thread count; 0: none */
  double ours, ours1, numpy;
} row;

static row rows[] = {
    {"randn float32", "randn32", 1.0, 0, 0, 0},
    {"rand float32", "rand32", 1.0, 0, 0, 0},
    {"randn float64", "randn64", 0, 0, 0, 0},
    {"randint int64", "randint", 0, 0, 0, 0},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* B[fn](n) once: its time in ns, or -1 (reported). */
static double lua_case(const char *fn, long n) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_ref);
  lua_getfield(L, -1, fn);
  int nargs = n > 0;
  if (nargs) lua_pushinteger(L, n);
  lua_gc(L, LUA_GCCOLLECT);
  double t0 = bench_now_ns();
  int rc = lua_pcall(L, nargs, 0, h);
  double dt = bench_now_ns() - t0;
  if (rc != LUA_OK) fprintf(stderr, "bench_random: lua %s: %s\n", fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  return rc == LUA_OK ? dt : -1;
}

/* G[fn](n) once: its time in ns, or -1 (reported). */
static double py_case(const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  if (!f) return bench_py_done(NULL, -1, "bench_random", fn);
  double t0 = bench_now_ns();
  PyObject *r = PyObject_CallFunction(f, "(n)", (Py_ssize_t)n);
  return bench_py_done(r, bench_now_ns() - t0, "bench_random", fn);
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  int rounds = quick ? 2 : 7;
  long calls = quick ? 1 : 3;
  long long n = quick ? 1 << 22 : 1 << 24;
  double t_start = bench_now_ns();
  static const char *const names[] = {"N"};
  const long long values[] = {n};
  G = bench_py_open(argc, argv, "bench_random", py_code, names, values, 1);
  if (!G) return 2;
  L = bench_lua_open("bench_random");
  const lua_Integer args[] = {(lua_Integer)n};
  if (L) lua_ref = bench_lua_chunk(L, "bench_random", lua_chunk, args, 1);
  if (lua_ref == LUA_NOREF || lua_case("check", 0) < 0) return 2;

  int def_threads = ltensor_get_num_threads();
  for (int round = 1; round <= rounds; round++)
    for (int r = 0; r < NROWS; r++) {
      row *w = &rows[r];
      double o = lua_case(w->fn, calls), p = py_case(w->fn, calls);
      ltensor_set_num_threads(1);
      double o1 = lua_case(w->fn, calls);
      ltensor_set_num_threads(def_threads);
      if (o < 0 || p < 0 || o1 < 0) return 2;
      if (round == 1 || o < w->ours) w->ours = o;
      if (round == 1 || o1 < w->ours1) w->ours1 = o1;
      if (round == 1 || p < w->numpy) w->numpy = p;
    }

  char pyver[128];
  bench_py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  printf(
      "ltensor random fills against NumPy's Generator, %s mode, best of %d rounds; %s, "
      "Python %s\n",
      quick ? "quick" : "full", rounds, LUA_RELEASE, pyver);
  printf(
      "(wall-clock times of %lldM elements; ltensor at 1 thread and at its default count %d, "
      "NumPy single-threaded; ratio = NumPy's time / ours)\n",
      n >> 20, def_threads);
  printf("%-16s %10s %10s %10s %8s %9s %6s %s\n", "case", "ours@1 ms", "ours@def", "NumPy ms",
         "ratio@1", "ratio@def", "goal", "");
  int pass = 1;
  char summary[1024] = "";
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    double c = (double)calls, ratio = w->numpy / w->ours, ratio1 = w->numpy / w->ours1;
    int ok = !w->goal || ratio >= w->goal;
    pass = pass && ok;
    char goal[16] = "-";
    if (w->goal) snprintf(goal, sizeof goal, "%.1fx", w->goal);
    printf("%-16s %10.2f %10.2f %10.2f %7.2fx %8.2fx %6s %s\n", w->label, w->ours1 / 1e6 / c,
           w->ours / 1e6 / c, w->numpy / 1e6 / c, ratio1, ratio, goal,
           w->goal ? (ok ? "PASS" : "MISS") : "");
    size_t len = strlen(summary);
    snprintf(summary + len, sizeof summary - len, "%s%s %.2fx@1 %.2fx@def", r ? ", " : "", w->fn,
             ratio1, ratio);
  }
  printf("goals (randn and rand float32 >= 1.0x NumPy at the default count): %s (%s)\n",
         pass ? "PASS" : "MISS", summary);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
