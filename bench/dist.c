/*
 * dist.c -- bench_dist: lt.cdist from Lua against NumPy and torch.cdist in the same process.
 *
 *   cdist   4096x64 by 4096x64 (1024x64 in quick mode), float32 and float64, p = 2 (torch's
 *           default compute_mode: the matrix-product form through the BLAS, as ours), against
 *           NumPy's scipy-free form np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1)) (goal >= 1.0x)
 *           and torch.cdist(a, b) (goal >= 1.0x)
 *
 * ours: `local r <close> = lt.cdist(a, b)` in a Lua for loop; NumPy and torch in a Python for
 * loop: each allocates its result on every call. ltensor at 1 thread and at its default count,
 * torch at the same counts (torch.set_num_threads), NumPy's expression single-threaded. Cases
 * run interleaved, one loop per round; each keeps its best round (wall clock). Ratio = their
 * time / ours (above 1: ltensor is faster). The full size's NumPy form holds 2 x 4 GiB (float32)
 * and 2 x 8 GiB (float64) of temporaries: run it on a machine with 24 GiB free.
 *
 * As bench_compute, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed from the environment
 * before Python starts, so NumPy's and torch's BLAS and ltensor's OpenBLAS see the same one.
 *
 * Usage: bench_dist
 * Env:   LTENSOR_BENCH_QUICK=1   1024 rows and fewer rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, NumPy, torch, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ltensor.h"

#define M_COLS 64

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N, M = ...\n"
    "local function data(s, dt)\n"
    "  return ((lt.arange(N * M, 'float64') * s):sin() * 43758.5453 % 1):to(dt):view(N, M)\n"
    "end\n"
    "local a32, b32 = data(12.9898, 'float32'), data(78.233, 'float32')\n"
    "local a64, b64 = a32:double(), b32:double()\n"
    "local B = {}\n"
    "function B.c32(n) for _ = 1, n do local r <close> = lt.cdist(a32, b32) end end\n"
    "function B.c64(n) for _ = 1, n do local r <close> = lt.cdist(a64, b64) end end\n"
    "function B.check()\n"
    "  for _, ab in ipairs({{a32, b32, 1e-3}, {a64, b64, 1e-9}}) do\n"
    "    local a, b, tol = ab[1], ab[2], ab[3]\n"
    "    local d = lt.cdist(a, b)\n"
    "    for _, ij in ipairs({{1, 1}, {7, N}, {N, 3}}) do\n"
    "      local i, j = ij[1], ij[2]\n"
    "      local ref = math.sqrt(((a[i] - b[j]) ^ 2):sum())\n"
    "      assert(math.abs(d[i][j] - ref) <= tol * (1 + ref), 'cdist value')\n"
    "    end\n"
    "  end\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; N and M are set */
    "import torch\n"
    "def data(s):\n"
    "    x = np.sin(np.arange(N * M, dtype=np.float64) * s) * 43758.5453 % 1\n"
    "    return x.astype(np.float32).reshape(N, M)\n"
    "a32, b32 = data(12.9898), data(78.233)\n"
    "a64, b64 = a32.astype(np.float64), b32.astype(np.float64)\n"
    "t = {k: torch.from_numpy(v) for k, v in dict(a32=a32, b32=b32, a64=a64, b64=b64).items()}\n"
    "def np32(n):\n"
    "    for _ in range(n): r = np.sqrt(((a32[:, None] - b32[None]) ** 2).sum(-1))\n"
    "def np64(n):\n"
    "    for _ in range(n): r = np.sqrt(((a64[:, None] - b64[None]) ** 2).sum(-1))\n"
    "def th32(n):\n"
    "    for _ in range(n): r = torch.cdist(t['a32'], t['b32'])\n"
    "def th64(n):\n"
    "    for _ in range(n): r = torch.cdist(t['a64'], t['b64'])\n";

/* A case: ours (the Lua loop) against NumPy's and torch's loops. */
typedef struct {
  const char *label, *lua, *np, *thf;
  double ours1, ours, np1, th1, th; /* best loop times, ns */
} dist_case;

/* torch's thread count for the next loops (n >= 1). */
static int torch_threads(int n) {
  char code[64];
  snprintf(code, sizeof code, "torch.set_num_threads(%d)\n", n);
  PyObject *r = PyRun_String(code, Py_file_input, G, G);
  return bench_py_done(r, 0, "bench_dist", "torch.set_num_threads") < 0 ? -1 : 0;
}

static double best(int round, double old, double v) { return round == 1 || v < old ? v : old; }

/* One round of case c (calls loops each): 0, or -1 when a loop failed. */
static int run_case(lua_State *L, int ref, dist_case *c, long calls, int round, int threads) {
  double v[5];
  ltensor_set_num_threads(1);
  if (torch_threads(1)) return -1;
  v[0] = bench_lua_case(L, ref, "bench_dist", c->lua, calls);
  v[1] = bench_py_case("bench_dist", c->thf, calls);
  ltensor_set_num_threads(threads);
  if (torch_threads(threads)) return -1;
  v[2] = bench_lua_case(L, ref, "bench_dist", c->lua, calls);
  v[3] = bench_py_case("bench_dist", c->thf, calls);
  v[4] = bench_py_case("bench_dist", c->np, calls);
  for (int i = 0; i < 5; i++)
    if (v[i] < 0) return -1;
  c->ours1 = best(round, c->ours1, v[0]), c->th1 = best(round, c->th1, v[1]);
  c->ours = best(round, c->ours, v[2]), c->th = best(round, c->th, v[3]);
  c->np1 = best(round, c->np1, v[4]);
  return 0;
}

/* Prints the table; returns whether every goal (>= 1.0x) was met. */
static int report(const dist_case *cs, int n, long calls, int rounds, int quick, long long rows,
                  int threads) {
  char pyver[160];
  bench_py_str(
      "sys.version.split()[0] + ', NumPy ' + np.__version__ + ', torch ' + "
      "torch.__version__",
      pyver, sizeof pyver);
  printf(
      "lt.cdist %lldx%d by %lldx%d against NumPy and torch.cdist, %s mode, best of %d rounds; "
      "%s, Python %s\n",
      rows, M_COLS, rows, M_COLS, quick ? "quick" : "full", rounds, LUA_RELEASE, pyver);
  printf(
      "(wall-clock ms per call; ltensor and torch at 1 thread and at %d, NumPy's expression "
      "single-threaded; ratio = their time / ours)\n",
      threads);
  printf("%-8s %9s %9s %9s %9s %9s %8s %8s %8s %8s %5s %s\n", "case", "ours@1", "ours@def", "NumPy",
         "torch@1", "torch@def", "np/@1", "np/@def", "th@1", "th@def", "goal", "");
  int pass = 1;
  char summary[256] = "";
  for (int i = 0; i < n; i++) {
    const dist_case *c = &cs[i];
    double k = 1e6 * (double)calls,
           r[4] = {c->np1 / c->ours1, c->np1 / c->ours, c->th1 / c->ours1, c->th / c->ours};
    int ok = r[0] >= 1.0 && r[1] >= 1.0 && r[2] >= 1.0 && r[3] >= 1.0;
    pass = pass && ok;
    printf("%-8s %9.2f %9.2f %9.2f %9.2f %9.2f %7.2fx %7.2fx %7.2fx %7.2fx %5s %s\n", c->label,
           c->ours1 / k, c->ours / k, c->np1 / k, c->th1 / k, c->th / k, r[0], r[1], r[2], r[3],
           "1.0x", ok ? "PASS" : "MISS");
    double cl = (double)calls;
    bench_record("dist", c->label, 1, c->ours1 / cl, c->np1 / cl, "NumPy", r[0], ">=", 1.0);
    bench_record("dist", c->label, threads, c->ours / cl, c->np1 / cl, "NumPy", r[1], ">=", 1.0);
    bench_record("dist", c->label, 1, c->ours1 / cl, c->th1 / cl, "torch.cdist", r[2], ">=", 1.0);
    bench_record("dist", c->label, threads, c->ours / cl, c->th / cl, "torch.cdist", r[3],
                 ">=", 1.0);
    size_t len = strlen(summary);
    snprintf(summary + len, sizeof summary - len, "%s%s np %.2fx/%.2fx torch %.2fx/%.2fx",
             len ? ", " : "", c->label, r[0], r[1], r[2], r[3]);
  }
  printf("goals (cdist >= 1.0x NumPy and torch.cdist at 1 thread and at the default): %s (%s)\n",
         pass ? "PASS" : "MISS", summary);
  return pass;
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK"), rounds = quick ? 2 : 3;
  long long rows = quick ? 1024 : 4096, values[2] = {rows, M_COLS};
  static const char *const names[2] = {"N", "M"};
  long calls = 1;
  double t_start = bench_now_ns();
  unsetenv("OPENBLAS_CORETYPE"); /* see the header comment */
  unsetenv("OPENBLAS_L2_SIZE");
  G = bench_py_open(argc, argv, "bench_dist", py_code, names, values, 2);
  if (!G) return 2;
  lua_State *L = bench_lua_open("bench_dist");
  lua_Integer args[2] = {(lua_Integer)rows, M_COLS};
  int ref = L ? bench_lua_chunk(L, "bench_dist", lua_chunk, args, 2) : LUA_NOREF;
  if (ref == LUA_NOREF || bench_lua_case(L, ref, "bench_dist", "check", 0) < 0) return 2;
  dist_case cs[] = {{"float32", "c32", "np32", "th32", 0, 0, 0, 0, 0},
                    {"float64", "c64", "np64", "th64", 0, 0, 0, 0, 0}};
  int threads = ltensor_get_num_threads(), n = (int)(sizeof cs / sizeof *cs);
  for (int round = 1; round <= rounds; round++)
    for (int i = 0; i < n; i++)
      if (run_case(L, ref, &cs[i], calls, round, threads)) return 2;
  int pass = report(cs, n, calls, rounds, quick, rows, threads);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
