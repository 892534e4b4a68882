/*
 * lapack.c -- bench_lapack: lt.linalg against np.linalg in the same process (NumPy on the
 * OpenBLAS ltensor loads, when Debian's alternatives point libblas/liblapack at it; both
 * printed).
 *
 *   solve    lt.linalg.solve(A, b), A 1024x1024 float64, b 1024x1 (goal >= 0.9x NumPy)
 *   inv      lt.linalg.inv(A), 1024x1024 float64 (goal >= 0.9x)
 *   svd      lt.linalg.svd(A), 512x512 float64, full_matrices as both default (goal >= 0.9x)
 *   eigh     lt.linalg.eigh(S), 512x512 symmetric float64 (goal >= 0.9x)
 *   inv4     lt.linalg.inv of 100k 4x4 float32 matrices (goal >= 3x np.linalg.inv)
 *   det4     lt.linalg.det of the same (goal >= 3x np.linalg.det)
 *   kinv4, kdet4  the small kernels themselves (lt_small_inv, lt_small_det from C, no Lua in
 *            the loop) on the same data, against the same NumPy calls (goal >= 3x)
 *
 * A row whose function this build's lt.linalg lacks (each is a part of its own) prints "not
 * available" and counts as neither pass nor miss. The data: frac(sin(12.9898 k) * 43758.5453)
 * for k = 0, 1, ... (computed in float64 on both sides), plus 4 on the diagonals of the small
 * matrices and n on the big ones' (well conditioned); eigh's matrix is that plus its transpose.
 * ours: `local r <close> = lt.linalg.inv(A)` in a Lua for loop (several results: each closed);
 * NumPy: `r = np.linalg.inv(A)` in a Python for loop. Cases run interleaved, one loop per
 * round, each keeps its best round (wall clock). ltensor at its default thread count (its BLAS
 * too), NumPy's BLAS at its own default. Ratio = NumPy's time / ours.
 *
 * Usage: bench_lapack
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal of an available row is missed
 * Exit status 2 when something fails (Python, NumPy, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lt_linalg_small.h"
#include "ltensor.h"

#define NBIG 1024     /* solve, inv */
#define NDEC 512      /* svd, eigh */
#define NSMALL 100000 /* 4x4 matrices */

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local NB, ND, NS = ...\n"
    "local L = lt.linalg\n"
    "local function data(n, dt)\n"
    "  return ((lt.arange(n, 'float64') * 12.9898):sin() * 43758.5453 % 1):to(dt)\n"
    "end\n"
    "local A = data(NB * NB, 'float64'):view(NB, NB) + lt.eye(NB, 'float64') * NB\n"
    "local b = data(NB, 'float64'):view(NB, 1)\n"
    "local D = data(ND * ND, 'float64'):view(ND, ND)\n"
    "local S = D + D:t()\n"
    "local M = data(NS * 16, 'float64'):view(NS, 4, 4) + lt.eye(4, 'float64') * 4\n"
    "M = M:to('float32')\n"
    "local function closing(...)\n"
    "  for i = 1, select('#', ...) do local r <close> = (select(i, ...)) end\n"
    "end\n"
    "local B = {}\n"
    "if L.solve then function B.solve(n) for _ = 1, n do closing(L.solve(A, b)) end end end\n"
    "if L.inv then\n"
    "  function B.inv(n) for _ = 1, n do closing(L.inv(A)) end end\n"
    "  function B.inv4(n) for _ = 1, n do closing(L.inv(M)) end end\n"
    "end\n"
    "if L.det then function B.det4(n) for _ = 1, n do closing(L.det(M)) end end end\n"
    "if L.svd then function B.svd(n) for _ = 1, n do closing(L.svd(D)) end end end\n"
    "if L.eigh then function B.eigh(n) for _ = 1, n do closing(L.eigh(S)) end end end\n"
    "function B.check()  -- the results of what is there\n"
    "  local function near_eye(p, tol)\n"
    "    local n = p.shape[#p.shape]\n"
    "    local e = (p - lt.eye(n, p.dtype)):abs():max()\n"
    "    assert(e < tol, 'not the inverse: ' .. e)\n"
    "  end\n"
    "  if L.inv then near_eye(L.inv(A):matmul(A), 1e-9); near_eye(L.inv(M):matmul(M), 1e-4) end\n"
    "  if L.solve then\n"
    "    assert((A:matmul(L.solve(A, b)) - b):abs():max() < 1e-9, 'solve')\n"
    "  end\n"
    "  if L.det then  -- float32 against float64\n"
    "    local d, e = L.det(M), L.det(M[7]:to('float64')):item()\n"
    "    assert(d.shape[1] == NS and math.abs(d[7] - e) < 1e-4 * math.abs(e), 'det')\n"
    "  end\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; NB, ND and NS are set */
    "def data(n):\n"
    "    return np.sin(np.arange(n, dtype=np.float64) * 12.9898) * 43758.5453 % 1\n"
    "A = data(NB * NB).reshape(NB, NB) + np.eye(NB) * NB\n"
    "b = data(NB).reshape(NB, 1)\n"
    "D = data(ND * ND).reshape(ND, ND)\n"
    "S = D + D.T\n"
    "M = (data(NS * 16).reshape(NS, 4, 4) + np.eye(4) * 4).astype(np.float32)\n"
    "def solve(n):\n"
    "    for _ in range(n): r = np.linalg.solve(A, b)\n"
    "def inv(n):\n"
    "    for _ in range(n): r = np.linalg.inv(A)\n"
    "def svd(n):\n"
    "    for _ in range(n): r = np.linalg.svd(D)\n"
    "def eigh(n):\n"
    "    for _ in range(n): r = np.linalg.eigh(S)\n"
    "def inv4(n):\n"
    "    for _ in range(n): r = np.linalg.inv(M)\n"
    "def det4(n):\n"
    "    for _ in range(n): r = np.linalg.det(M)\n"
    "def blas():\n"
    "    import os\n"
    "    return ', '.join(sorted({os.path.basename(os.path.realpath(l.split()[-1]))\n"
    "        for l in open('/proc/self/maps') if '.so' in l and ('blas' in l or 'lapack' in "
    "l)}))\n";

typedef struct {
  const char *label, *lua, *py, *fn; /* fn: the lt.linalg function the row needs */
  double goal;
  int kernel;         /* 1: lt_small_inv from C, 2: lt_small_det, 0: the Lua loop */
  long calls[2];      /* quick, full */
  double ours, numpy; /* best loop times, ns */
  int avail;
} row;

static row rows[] = {
    {"solve float64 1024x1024 (1 rhs)", "solve", "solve", "solve", 0.9, 0, {1, 3}, 0, 0, 0},
    {"inv float64 1024x1024", "inv", "inv", "inv", 0.9, 0, {1, 3}, 0, 0, 0},
    {"svd float64 512x512", "svd", "svd", "svd", 0.9, 0, {1, 2}, 0, 0, 0},
    {"eigh float64 512x512", "eigh", "eigh", "eigh", 0.9, 0, {1, 3}, 0, 0, 0},
    {"inv 100k 4x4 float32 (lt.linalg)", "inv4", "inv4", "inv", 3.0, 0, {1, 3}, 0, 0, 0},
    {"det 100k 4x4 float32 (lt.linalg)", "det4", "det4", "det", 3.0, 0, {1, 3}, 0, 0, 0},
    {"inv 100k 4x4 float32 (kernel, C)", "kinv4", "inv4", "inv", 3.0, 1, {1, 3}, 0, 0, 0},
    {"det 100k 4x4 float32 (kernel, C)", "kdet4", "det4", "det", 3.0, 2, {1, 3}, 0, 0, 0},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

static lt_tensor *small; /* the 100k 4x4 float32 matrices, for the kernel rows */

/* The data of the Lua chunk and NumPy, for the kernel rows. */
static int make_small(void) {
  lt_error err;
  if (lt_tensor_new(LT_FLOAT32, 3, (const int64_t[]){NSMALL, 4, 4}, 0, &small, &err)) return -1;
  float *p = (float *)lt_data(small);
  for (int64_t k = 0; k < (int64_t)NSMALL * 16; k++) {
    double v = fmod(sin((double)k * 12.9898) * 43758.5453, 1.0);
    if (v < 0) v += 1; /* Python's and Lua's % are floored */
    p[k] = (float)(v + ((k % 16) % 5 == 0 ? 4.0 : 0.0));
  }
  return 0;
}

/* n calls of a kernel row: its time in ns, or -1. */
static double kernel_case(int kernel, long n) {
  lt_error err;
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++) {
    lt_tensor *r = NULL, *info = NULL;
    int rc = kernel == 1 ? lt_small_inv(small, &r, &info, &err) : lt_small_det(small, &r, &err);
    lt_tensor_free(r), lt_tensor_free(info);
    if (rc) {
      fprintf(stderr, "bench_lapack: kernel: %s\n", err.msg);
      return -1;
    }
  }
  return bench_now_ns() - t0;
}

/* Whether the Lua chunk's table (registry ref) has a loop named fn. */
static int has_case(lua_State *L, int ref, const char *fn) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_getfield(L, -1, fn);
  int yes = !lua_isnil(L, -1);
  lua_pop(L, 2);
  return yes;
}

static int report(int quick, int rounds) {
  char pyver[128], blas[512];
  bench_py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  bench_py_str("blas()", blas, sizeof blas);
  printf("ltensor lt.linalg against np.linalg, %s mode, best of %d rounds; %s, Python %s\n",
         quick ? "quick" : "full", rounds, LUA_RELEASE, pyver);
  printf(
      "(wall-clock times per call; ltensor at its default thread count %d, NumPy's BLAS at its "
      "own; NumPy's libraries: %s; ratio = NumPy's time / ours)\n",
      ltensor_get_num_threads(), blas);
  printf("%-34s %10s %10s %8s %6s %s\n", "case", "ours ms", "NumPy ms", "ratio", "goal", "");
  int pass = 1;
  char summary[512] = "";
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    double c = (double)w->calls[!quick], ratio = w->numpy / w->ours;
    size_t len = strlen(summary);
    if (!w->avail) {
      printf("%-34s %10s %10.2f %8s %5.1fx not available (lt.linalg.%s is not in this build)\n",
             w->label, "-", w->numpy / 1e6 / c, "-", w->goal, w->fn);
      snprintf(summary + len, sizeof summary - len, "%s%s n/a", len ? ", " : "", w->lua);
      continue;
    }
    int ok = ratio >= w->goal;
    pass = pass && ok;
    printf("%-34s %10.2f %10.2f %7.2fx %5.1fx %s\n", w->label, w->ours / 1e6 / c,
           w->numpy / 1e6 / c, ratio, w->goal, ok ? "PASS" : "MISS");
    bench_record("lapack", w->label, ltensor_get_num_threads(), w->ours / c, w->numpy / c, "NumPy",
                 ratio, ">=", w->goal);
    snprintf(summary + len, sizeof summary - len, "%s%s %.2fx", len ? ", " : "", w->lua, ratio);
  }
  printf("goals (solve, inv, svd, eigh >= 0.9x; 4x4 inv, det >= 3x): %s (%s)\n",
         pass ? "PASS" : "MISS", summary);
  return pass;
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK"), rounds = quick ? 2 : 5;
  double t_start = bench_now_ns();
  static const char *const names[] = {"NB", "ND", "NS"};
  const long long values[] = {NBIG, NDEC, NSMALL};
  G = bench_py_open(argc, argv, "bench_lapack", py_code, names, values, 3);
  if (!G || make_small() != 0) return 2;
  lua_State *L = bench_lua_open("bench_lapack");
  const lua_Integer args[] = {NBIG, NDEC, NSMALL};
  int ref = L ? bench_lua_chunk(L, "bench_lapack", lua_chunk, args, 3) : LUA_NOREF;
  if (ref == LUA_NOREF || bench_lua_case(L, ref, "bench_lapack", "check", 0) < 0) return 2;
  for (int r = 0; r < NROWS; r++) rows[r].avail = rows[r].kernel || has_case(L, ref, rows[r].lua);
  for (int round = 1; round <= rounds; round++)
    for (int r = 0; r < NROWS; r++) {
      row *w = &rows[r];
      long n = w->calls[!quick];
      double o = !w->avail   ? 0
                 : w->kernel ? kernel_case(w->kernel, n)
                             : bench_lua_case(L, ref, "bench_lapack", w->lua, n);
      double p = bench_py_case("bench_lapack", w->py, n);
      if (o < 0 || p < 0) return 2;
      if (round == 1 || o < w->ours) w->ours = o;
      if (round == 1 || p < w->numpy) w->numpy = p;
    }
  int pass = report(quick, rounds);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lt_tensor_free(small);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
