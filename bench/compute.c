/*
 * compute.c -- bench_compute: compute-bound operations, ltensor from Lua against NumPy in the
 * same process: matrix products (ltensor through its BLAS, NumPy through its own) and the
 * float32 transcendental functions (ltensor's vectorized kernels, src/core/lt_vmath.c).
 *
 *   matmul   float32 1024x1024 @ 1024x1024, float64 512x512 @ 512x512   (goal >= 0.9x NumPy)
 *   exp, log, tanh, sin, cos, sqrt of 16M float32 (64 MiB): at 1 thread (goal >= 1.0x NumPy)
 *            and at ltensor's default thread count (goal >= 1.3x NumPy); the same for
 *            sigmoid (NumPy: 1 / (1 + np.exp(-x))), expm1, log1p and relu (np.maximum(x, 0));
 *            erf has no row (NumPy has none, SciPy is not installed)
 *
 * ours: `local r <close> = a:matmul(b)` / `local r <close> = x:exp()` in a Lua for loop; NumPy:
 * `r = a @ b` / `r = np.exp(x)` in a Python for loop: both allocate their result on every call.
 * Everything is timed by the wall clock. Matrix products: ltensor's BLAS at ltensor's thread
 * count, NumPy's at its default (both printed). Functions: ltensor at 1 thread
 * (ltensor_set_num_threads(1)) and at its default count, NumPy's single-threaded loops. Every
 * case runs interleaved with the others, one loop per round, and keeps its best round. The
 * ratio is NumPy's time over ours (above 1: ltensor is faster). The BLAS NumPy loaded is
 * printed (the libraries mapped into the process after `import numpy`, and threadpoolctl's view
 * if it is installed): Debian's NumPy takes libblas.so.3, the reference BLAS unless the
 * alternatives point it at OpenBLAS.
 *
 * OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which this workplace may set for older OpenBLAS
 * builds, are removed from this process's environment before Python starts, as bench_math
 * does; ltensor loads its OpenBLAS at the first product, later, so both BLASes see the same
 * environment (tests and CI never change them).
 *
 * Usage: bench_compute
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, NumPy, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "bench.h"
#include "ltensor.h"

#define NFUN (1 << 24) /* elements of the function cases */

static lua_State *L;
static int lua_ref = LUA_NOREF;

/* B[case](n): n calls. a32/b32 1024x1024 float32, a64/b64 512x512 float64 (values in [-1, 1)),
   x in [-10, 10], xp in (0, 100] (for log and sqrt). */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N = ...\n"
    "local function mat(n, dt)\n"
    "  return ((lt.arange(n * n, dt) * 0.618034) % 2 - 1):view(n, n)\n"
    "end\n"
    "local a32, b32 = mat(1024, 'float32'), mat(1024, 'float32'):t():contiguous()\n"
    "local a64, b64 = mat(512, 'float64'), mat(512, 'float64'):t():contiguous()\n"
    "local x = lt.arange(N, 'float32') * (20 / N) - 10\n"
    "local xp = lt.arange(N, 'float32') * (100 / N) + 1e-3\n"
    "local B = {}\n"
    "function B.mm32(n) for _ = 1, n do local r <close> = a32:matmul(b32) end end\n"
    "function B.mm64(n) for _ = 1, n do local r <close> = a64:matmul(b64) end end\n"
    "for _, f in ipairs({'exp', 'tanh', 'sin', 'cos', 'sigmoid', 'expm1', 'relu'}) do\n"
    "  B[f] = function(n) for _ = 1, n do local r <close> = x[f](x) end end\n"
    "end\n"
    "for _, f in ipairs({'log', 'sqrt', 'log1p'}) do\n"
    "  B[f] = function(n) for _ = 1, n do local r <close> = xp[f](xp) end end\n"
    "end\n"
    "function B.check()  -- one element of each product, a few of each function\n"
    "  for _, m in ipairs({{a32, b32, 1e-3}, {a64, b64, 1e-9}}) do\n"
    "    local a, b, tol = m[1], m[2], m[3]\n"
    "    local r, s = a:matmul(b), 0\n"
    "    for p = 1, a.shape[2] do s = s + a:get(7, p) * b:get(p, 5) end\n"
    "    assert(math.abs(r:get(7, 5) - s) <= tol * a.shape[2], 'matmul')\n"
    "  end\n"
    "  local lib = {exp = math.exp, log = math.log, sin = math.sin, cos = math.cos,\n"
    "    sqrt = math.sqrt, tanh = function(v) local e = math.exp(2 * v); return (e - 1) / (e + 1) "
    "end,\n"
    "    sigmoid = function(v) return 1 / (1 + math.exp(-v)) end,\n"
    "    expm1 = function(v) return math.exp(v) - 1 end,\n"
    "    log1p = function(v) return math.log(1 + v) end, relu = function(v) return math.max(v, 0) "
    "end}\n"
    "  for f, g in pairs(lib) do\n"
    "    local src = (f == 'log' or f == 'sqrt' or f == 'log1p') and xp or x\n"
    "    local r = src[f](src)\n"
    "    for _, i in ipairs({1, 12345, N // 3, N}) do\n"
    "      local want = g(src[i])\n"
    "      assert(math.abs(r[i] - want) <= 1e-6 * math.max(1, math.abs(want)), f)\n"
    "    end\n"
    "  end\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; N is set */
    "def mat(n, dt):\n"
    "    return ((np.arange(n * n, dtype=dt) * dt(0.618034)) % 2 - 1).reshape(n, n)\n"
    "a32, b32 = mat(1024, np.float32), np.ascontiguousarray(mat(1024, np.float32).T)\n"
    "a64, b64 = mat(512, np.float64), np.ascontiguousarray(mat(512, np.float64).T)\n"
    "x = np.arange(N, dtype=np.float32) * np.float32(20 / N) - np.float32(10)\n"
    "xp = np.arange(N, dtype=np.float32) * np.float32(100 / N) + np.float32(1e-3)\n"
    "def mm32(n):\n"
    "    for _ in range(n): r = a32 @ b32\n"
    "def mm64(n):\n"
    "    for _ in range(n): r = a64 @ b64\n"
    "def fn(f, src):\n"
    "    def loop(n):\n"
    "        for _ in range(n): r = f(src)\n"
    "    return loop\n"
    "np_exp, np_tanh, np_sin, np_cos = (fn(f, x) for f in (np.exp, np.tanh, np.sin, np.cos))\n"
    "np_log, np_sqrt, np_log1p = fn(np.log, xp), fn(np.sqrt, xp), fn(np.log1p, xp)\n"
    "np_expm1 = fn(np.expm1, x)\n"
    "np_sigmoid = fn(lambda v: 1 / (1 + np.exp(-v)), x)\n"
    "np_relu = fn(lambda v: np.maximum(v, np.float32(0)), x)\n"
    "def blas():\n"
    "    import ctypes, os\n"
    "    libs = sorted({os.path.realpath(p) for p in (l.split()[-1] for l in "
    "open('/proc/self/maps'))\n"
    "                   if 'blas' in os.path.basename(p) or 'lapack' in os.path.basename(p)})\n"
    "    out = []\n"
    "    for p in libs:\n"
    "        try: t = ctypes.CDLL(p).openblas_get_num_threads()\n"
    "        except Exception: t = None\n"
    "        out.append(os.path.basename(p) + ('' if t is None else ' (%d threads)' % t))\n"
    "    try:\n"
    "        import threadpoolctl\n"
    "        out.append('threadpoolctl: ' + ', '.join('%s %s %s threads' % "
    "(i.get('internal_api'),\n"
    "                   i.get('architecture'), i.get('num_threads'))\n"
    "                   for i in threadpoolctl.threadpool_info()))\n"
    "    except Exception: out.append('no threadpoolctl')\n"
    "    return '; '.join(out)\n";

typedef struct {
  const char *label, *lua, *py;
  double goal;  /* at the default thread count (matmul: NumPy's BLAS at its default too) */
  double goal1; /* functions: on one thread, against NumPy's one thread (0: not timed) */
  long calls;
  double ours, ours1, numpy; /* best loop times, ns, by the wall clock */
} row;

/* Functions: at least NumPy's speed on one thread (single-threaded kernels), and 1.3x at the
   default thread count, where the pool splits them. */
static row rows[] = {
    {"matmul float32 1024x1024", "mm32", "mm32", 0.9, 0, 0, 0, 0, 0},
    {"matmul float64 512x512", "mm64", "mm64", 0.9, 0, 0, 0, 0, 0},
    {"exp  float32 16M", "exp", "np_exp", 1.3, 1.0, 0, 0, 0, 0},
    {"log  float32 16M", "log", "np_log", 1.3, 1.0, 0, 0, 0, 0},
    {"tanh float32 16M", "tanh", "np_tanh", 1.3, 1.0, 0, 0, 0, 0},
    {"sin  float32 16M", "sin", "np_sin", 1.3, 1.0, 0, 0, 0, 0},
    {"cos  float32 16M", "cos", "np_cos", 1.3, 1.0, 0, 0, 0, 0},
    {"sqrt float32 16M", "sqrt", "np_sqrt", 1.3, 1.0, 0, 0, 0, 0},
    /* lt_funcs.c's; erf has no row: NumPy has no erf (SciPy's is not installed) */
    {"sigmoid float32 16M", "sigmoid", "np_sigmoid", 1.3, 1.0, 0, 0, 0, 0},
    {"expm1 float32 16M", "expm1", "np_expm1", 1.3, 1.0, 0, 0, 0, 0},
    {"log1p float32 16M", "log1p", "np_log1p", 1.3, 1.0, 0, 0, 0, 0},
    {"relu float32 16M", "relu", "np_relu", 1.3, 1.0, 0, 0, 0, 0},
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
  if (rc != LUA_OK) fprintf(stderr, "bench_compute: lua %s: %s\n", fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  return rc == LUA_OK ? dt : -1;
}

/* G[fn](n) once: its time in ns, or -1 (reported). */
static double py_case(const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  if (!f) return bench_py_done(NULL, -1, "bench_compute", fn);
  double t0 = bench_now_ns();
  PyObject *r = PyObject_CallFunction(f, "(n)", (Py_ssize_t)n);
  return bench_py_done(r, bench_now_ns() - t0, "bench_compute", fn);
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  int rounds = quick ? 2 : 7;
  double t_start = bench_now_ns();
  unsetenv("OPENBLAS_CORETYPE"); /* NumPy's BLAS only: see the header comment */
  unsetenv("OPENBLAS_L2_SIZE");
  static const char *const names[] = {"N"};
  static const long long values[] = {NFUN};
  G = bench_py_open(argc, argv, "bench_compute", py_code, names, values, 1);
  if (!G) return 2;
  L = bench_lua_open("bench_compute");
  const lua_Integer args[] = {NFUN};
  if (L) lua_ref = bench_lua_chunk(L, "bench_compute", lua_chunk, args, 1);
  if (lua_ref == LUA_NOREF || lua_case("check", 0) < 0) return 2;
  lua_getglobal(L, "require");
  lua_pushliteral(L, "ltensor");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "config");
  lua_call(L, 0, 1);
  lua_getfield(L, -1, "blas");
  char ours_blas[64];
  snprintf(ours_blas, sizeof ours_blas, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "none");
  lua_pop(L, 3);

  int def_threads = ltensor_get_num_threads();
  for (int r = 0; r < NROWS; r++)
    rows[r].calls = !rows[r].goal1 ? (quick ? 2 : 6) : (quick ? 1 : 2);
  for (int round = 1; round <= rounds; round++)
    for (int r = 0; r < NROWS; r++) {
      row *w = &rows[r];
      double o = lua_case(w->lua, w->calls), p = py_case(w->py, w->calls), o1 = 0;
      if (w->goal1) {
        ltensor_set_num_threads(1);
        o1 = lua_case(w->lua, w->calls);
        ltensor_set_num_threads(def_threads);
      }
      if (o < 0 || p < 0 || o1 < 0) return 2;
      if (round == 1 || o < w->ours) w->ours = o;
      if (round == 1 || o1 < w->ours1) w->ours1 = o1;
      if (round == 1 || p < w->numpy) w->numpy = p;
    }

  char pyver[128], blas[512];
  bench_py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  bench_py_str("blas()", blas, sizeof blas);
  int threads = ltensor_get_num_threads(); /* the BLAS runs on ltensor's count */
  printf(
      "ltensor compute-bound operations against NumPy, %s mode, best of %d rounds; %s, "
      "Python %s\n",
      quick ? "quick" : "full", rounds, LUA_RELEASE, pyver);
  printf("ltensor's BLAS: %s", ours_blas);
  if (threads) printf(" (%d threads)", threads);
  printf("; NumPy's: %s\n", blas);
  printf(
      "(wall-clock times; matmul with ltensor's BLAS at ltensor's thread count and NumPy's at its "
      "default; functions at 1 thread and at ltensor's default count %d, NumPy single-threaded; "
      "ratio = NumPy's time / ours)\n",
      def_threads);
  printf("%-28s %10s %10s %10s %8s %6s %9s %6s %s\n", "case", "ours@1 ms", "ours@def", "NumPy ms",
         "ratio@1", "goal", "ratio@def", "goal", "");
  int pass = 1;
  char summary[640] = "";
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    double c = (double)w->calls, ratio = w->numpy / w->ours,
           ratio1 = w->goal1 ? w->numpy / w->ours1 : 0;
    int ok = ratio >= w->goal && (!w->goal1 || ratio1 >= w->goal1);
    pass = pass && ok;
    if (w->goal1)
      printf("%-28s %10.2f %10.2f %10.2f %7.2fx %5.1fx %8.2fx %5.1fx %s", w->label,
             w->ours1 / 1e6 / c, w->ours / 1e6 / c, w->numpy / 1e6 / c, ratio1, w->goal1, ratio,
             w->goal, ok ? "PASS" : "MISS");
    else
      printf("%-28s %10s %10.2f %10.2f %8s %6s %8.2fx %5.1fx %s  (ours %.1f GFLOP/s)", w->label, "",
             w->ours / 1e6 / c, w->numpy / 1e6 / c, "", "", ratio, w->goal, ok ? "PASS" : "MISS",
             2 * pow(r == 0 ? 1024 : 512, 3) / (w->ours / c));
    printf("\n");
    size_t len = strlen(summary);
    if (w->goal1)
      snprintf(summary + len, sizeof summary - len, "%s%s %.2fx@1 %.2fx@def", r ? ", " : "", w->lua,
               ratio1, ratio);
    else
      snprintf(summary + len, sizeof summary - len, "%s%s %.2fx", r ? ", " : "", w->lua, ratio);
  }
  printf(
      "goals (matmul >= 0.9x; functions >= 1.0x NumPy at 1 thread, 1.3x at the default): %s (%s)\n",
      pass ? "PASS" : "MISS", summary);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
