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

static lua_State *L;
static int lua_ref = LUA_NOREF;

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
    "xm = (np.arange(NMASK, dtype=np.float32) * np.float32(0.618034)) % 2 - 1\n"
    "def np_select(n):\n"
    "    for _ in range(n): r = np.take(x, idx)\n"
    "def np_gather(n):\n"
    "    for _ in range(n): r = np.take_along_axis(x, idx, 0)\n"
    "def np_mask(n):\n"
    "    for _ in range(n): r = xm[xm > 0]\n";

typedef struct {
  const char *label, *lua, *py;
  double goal; /* at 1 thread and at the default count (0: information only) */
  long calls;
  double ours, ours1, numpy;
} row;

static row rows[] = {
    {"index_select 1M of 16M f32", "select", "np_select", 1.0, 0, 0, 0, 0},
    {"gather 1M of 16M f32", "gather", "np_gather", 0, 0, 0, 0, 0},
    {"t[mask] 4M f32 (mask made)", "mask", "np_mask", 0, 0, 0, 0, 0},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

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
  if (rc != LUA_OK) fprintf(stderr, "bench_index: lua %s: %s\n", fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  return rc == LUA_OK ? dt : -1;
}

static double py_case(const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  if (!f) return bench_py_done(NULL, -1, "bench_index", fn);
  double t0 = bench_now_ns();
  PyObject *r = PyObject_CallFunction(f, "(n)", (Py_ssize_t)n);
  return bench_py_done(r, bench_now_ns() - t0, "bench_index", fn);
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  int rounds = quick ? 3 : 9;
  long calls = quick ? 3 : 10;
  double t_start = bench_now_ns();
  static const char *const names[] = {"N", "M", "NMASK"};
  const long long values[] = {NX, NI, NM};
  G = bench_py_open(argc, argv, "bench_index", py_code, names, values, 3);
  if (!G) return 2;
  L = bench_lua_open("bench_index");
  const lua_Integer args[] = {NX, NI, NM};
  if (L) lua_ref = bench_lua_chunk(L, "bench_index", lua_chunk, args, 3);
  if (lua_ref == LUA_NOREF || lua_case("check", 0) < 0) return 2;

  int def_threads = ltensor_get_num_threads();
  for (int round = 1; round <= rounds; round++)
    for (int r = 0; r < NROWS; r++) {
      row *w = &rows[r];
      w->calls = calls;
      double o = lua_case(w->lua, calls), p = py_case(w->py, calls);
      ltensor_set_num_threads(1);
      double o1 = lua_case(w->lua, calls);
      ltensor_set_num_threads(def_threads);
      if (o < 0 || p < 0 || o1 < 0) return 2;
      if (round == 1 || o < w->ours) w->ours = o;
      if (round == 1 || o1 < w->ours1) w->ours1 = o1;
      if (round == 1 || p < w->numpy) w->numpy = p;
    }

  char pyver[128];
  bench_py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  printf("ltensor indexing with tensors against NumPy, %s mode, best of %d rounds; %s, Python %s\n",
         quick ? "quick" : "full", rounds, LUA_RELEASE, pyver);
  printf(
      "(wall-clock times; ours at 1 thread and at the default count %d; NumPy single-threaded; "
      "ratio = NumPy's time / ours)\n",
      def_threads);
  printf("%-30s %10s %10s %10s %8s %9s %6s %s\n", "case", "ours@1 ms", "ours@def", "NumPy ms",
         "ratio@1", "ratio@def", "goal", "");
  int pass = 1;
  char summary[512] = "";
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    double c = (double)w->calls, ratio = w->numpy / w->ours, ratio1 = w->numpy / w->ours1;
    int ok = !w->goal || (ratio >= w->goal && ratio1 >= w->goal);
    pass = pass && ok;
    printf("%-30s %10.2f %10.2f %10.2f %7.2fx %8.2fx ", w->label, w->ours1 / 1e6 / c,
           w->ours / 1e6 / c, w->numpy / 1e6 / c, ratio1, ratio);
    if (w->goal)
      printf("%5.1fx %s\n", w->goal, ok ? "PASS" : "MISS");
    else
      printf("%6s (information)\n", "-");
    size_t len = strlen(summary);
    snprintf(summary + len, sizeof summary - len, "%s%s %.2fx@1 %.2fx@def", r ? ", " : "", w->lua,
             ratio1, ratio);
  }
  printf("goal (index_select >= 1.0x np.take at 1 thread and at the default): %s (%s)\n",
         pass ? "PASS" : "MISS", summary);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
