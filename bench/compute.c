/*
 * compute.c -- bench_compute: compute-bound operations, ltensor from Lua against NumPy in the
 * same process: matrix products (ltensor through its BLAS, NumPy through its own) and the
 * float32 transcendental functions (ltensor's vectorized kernels, src/core/simd/lt_vmath.c).
 *
 *   matmul   float32 1024x1024 @ 1024x1024, float64 512x512 @ 512x512   (goal >= 0.9x NumPy)
 *   exp, log, tanh, sin, cos, sqrt of 16M float32 (64 MiB): at 1 thread (goal >= 1.0x NumPy)
 *            and at ltensor's default thread count (goal >= 1.3x NumPy); the same for
 *            sigmoid (NumPy: 1 / (1 + np.exp(-x))), expm1, log1p and relu (np.maximum(x, 0));
 *            erf has no row (NumPy has none, SciPy is not installed)
 *   the other elementwise functions with a NumPy equivalent, same goals, 16M float32 (4M in
 *            quick mode): tan, asin, acos, atanh (on (-1, 1)), atan, sinh, cosh, asinh, exp2,
 *            trunc, frac (x - np.trunc(x)), silu (x / (1 + np.exp(-x))), isnan, isinf,
 *            isfinite, nan_to_num, abs, neg, floor, ceil, round, sign, clamp (np.clip to
 *            [-1, 1]) on [-10, 10]; acosh on [1, 100]; log2, log10, rsqrt (1 / np.sqrt) on
 *            (0, 100]; atan2, fmod, remainder, hypot, maximum and lerp (a + 0.3 (b - a)) of
 *            [-10, 10] and [0.5, 10.5]
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
 *        LTENSOR_BENCH_ONLY=a,b  only the rows of those cases (their Lua names: mm32, exp,
 *                                floor, ...), for iterating on a few kernels
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

#define NFUN (1 << 24)   /* elements of the function cases */
#define NFUN_Q (1 << 22) /* of the extra function cases in quick mode */

static lua_State *L;
static int lua_ref = LUA_NOREF;

/* B[case](n): n calls. a32/b32 1024x1024 float32, a64/b64 512x512 float64 (values in [-1, 1)),
   x in [-10, 10], xp in (0, 100] (for log and sqrt); the extra functions on NX elements: X in
   [-10, 10], XP in (0, 100], XU in (-1, 1), XA in [1, 100], Y in [0.5, 10.5) (second operand). */
static const char lua_chunk1[] =
    "local lt = require 'ltensor'\n"
    "local N, NX = ...\n"
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
    "local function ramp(n, lo, hi) return lt.arange(n, 'float32') * ((hi - lo) / n) + lo end\n"
    "local X = NX == N and x or ramp(NX, -10, 10)\n"
    "local XP = NX == N and xp or ramp(NX, 1e-3, 100 + 1e-3)\n"
    "local XU, XA, Y = ramp(NX, -1 + 1 / NX, 1 + 1 / NX), ramp(NX, 1, 100), ramp(NX, 0.5, 10.5)\n"
    "local SRC = {tan = X, asin = XU, acos = XU, atan = X, sinh = X, cosh = X, asinh = X,\n"
    "  acosh = XA, atanh = XU, log2 = XP, log10 = XP, exp2 = X, trunc = X, frac = X, rsqrt = XP,\n"
    "  silu = X, isnan = X, isinf = X, isfinite = X, nan_to_num = X, abs = X, neg = X,\n"
    "  floor = X, ceil = X, round = X, sign = X}\n"
    "for f, s in pairs(SRC) do\n"
    "  B[f] = function(n) for _ = 1, n do local r <close> = s[f](s) end end\n"
    "end\n"
    "function B.clamp(n) for _ = 1, n do local r <close> = X:clamp(-1, 1) end end\n"
    "for _, f in ipairs({'atan2', 'fmod', 'remainder', 'hypot', 'maximum'}) do\n"
    "  B[f] = function(n) for _ = 1, n do local r <close> = X[f](X, Y) end end\n"
    "end\n"
    "function B.lerp(n) for _ = 1, n do local r <close> = X:lerp(Y, 0.3) end end\n";
static const char lua_chunk2[] = /* after lua_chunk1; ISO C's strings are short */
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
    "  local inf, ex = math.huge, math.exp\n"
    "  local function trunc(v) return v >= 0 and math.floor(v) or math.ceil(v) end\n"
    "  local function round(v)  -- half to even\n"
    "    local f = math.floor(v); local d = v - f\n"
    "    return (d > 0.5 or (d == 0.5 and f % 2 == 1)) and f + 1 or f\n"
    "  end\n"
    "  local lib1 = {tan = math.tan, asin = math.asin, acos = math.acos, atan = math.atan,\n"
    "    sinh = function(v) return (ex(v) - ex(-v)) / 2 end,\n"
    "    cosh = function(v) return (ex(v) + ex(-v)) / 2 end,\n"
    "    asinh = function(v) local s = v < 0 and -1 or 1; v = math.abs(v)\n"
    "      return s * math.log(v + math.sqrt(v * v + 1)) end,\n"
    "    acosh = function(v) return math.log(v + math.sqrt(v * v - 1)) end,\n"
    "    atanh = function(v) return 0.5 * math.log((1 + v) / (1 - v)) end,\n"
    "    log2 = function(v) return math.log(v, 2) end,\n"
    "    log10 = function(v) return math.log(v, 10) end, exp2 = function(v) return 2.0 ^ v end,\n"
    "    trunc = trunc, frac = function(v) return v - trunc(v) end,\n"
    "    rsqrt = function(v) return 1 / math.sqrt(v) end,\n"
    "    silu = function(v) return v / (1 + ex(-v)) end,\n"
    "    isnan = function(v) return v ~= v end,\n"
    "    isinf = function(v) return v == inf or v == -inf end,\n"
    "    isfinite = function(v) return v == v and v ~= inf and v ~= -inf end,\n"
    "    nan_to_num = function(v) return v end, abs = math.abs, neg = function(v) return -v end,\n"
    "    floor = math.floor, ceil = math.ceil, round = round,\n"
    "    sign = function(v) return v > 0 and 1 or v < 0 and -1 or 0 end,\n"
    "    clamp = function(v) return math.min(math.max(v, -1), 1) end}\n"
    "  local lib2 = {atan2 = math.atan, fmod = math.fmod, remainder = function(a, b) return a % b "
    "end,\n"
    "    hypot = function(a, b) return math.sqrt(a * a + b * b) end, maximum = math.max,\n"
    "    lerp = function(a, b) return a + 0.3 * (b - a) end}\n"
    "  local function near(got, want, f)\n"
    "    if type(want) == 'boolean' then assert(got == want, f) return end\n"
    "    assert(math.abs(got - want) <= 1e-6 * math.max(1, math.abs(want)), f)\n"
    "  end\n"
    "  for f, g in pairs(lib1) do\n"
    "    local src = SRC[f] or X\n"
    "    local r = f == 'clamp' and src:clamp(-1, 1) or src[f](src)\n"
    "    for _, i in ipairs({1, 12345, NX // 3, NX}) do near(r[i], g(src[i]), f) end\n"
    "  end\n"
    "  for f, g in pairs(lib2) do\n"
    "    local r = f == 'lerp' and X:lerp(Y, 0.3) or X[f](X, Y)\n"
    "    for _, i in ipairs({1, 12345, NX // 3, NX}) do near(r[i], g(X[i], Y[i]), f) end\n"
    "  end\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code1[] = /* after import sys, numpy as np; N and NX are set */
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
    "np_relu = fn(lambda v: np.maximum(v, np.float32(0)), x)\n";
static const char py_code2[] = /* after py_code1 */
    "f32 = np.float32\n"
    "def ramp(n, lo, hi):\n"
    "    return np.arange(n, dtype=f32) * f32((hi - lo) / n) + f32(lo)\n"
    "X = x if NX == N else ramp(NX, -10, 10)\n"
    "XP = xp if NX == N else ramp(NX, 1e-3, 100 + 1e-3)\n"
    "XU, XA, Y = ramp(NX, -1 + 1 / NX, 1 + 1 / NX), ramp(NX, 1, 100), ramp(NX, 0.5, 10.5)\n"
    "for name, f, src in (('tan', np.tan, X), ('asin', np.arcsin, XU), ('acos', np.arccos, XU),\n"
    "        ('atan', np.arctan, X), ('sinh', np.sinh, X), ('cosh', np.cosh, X),\n"
    "        ('asinh', np.arcsinh, X), ('acosh', np.arccosh, XA), ('atanh', np.arctanh, XU),\n"
    "        ('log2', np.log2, XP), ('log10', np.log10, XP), ('exp2', np.exp2, X),\n"
    "        ('trunc', np.trunc, X), ('frac', lambda v: v - np.trunc(v), X),\n"
    "        ('rsqrt', lambda v: f32(1) / np.sqrt(v), XP),\n"
    "        ('silu', lambda v: v / (f32(1) + np.exp(-v)), X), ('isnan', np.isnan, X),\n"
    "        ('isinf', np.isinf, X), ('isfinite', np.isfinite, X),\n"
    "        ('nan_to_num', np.nan_to_num, X), ('abs', np.abs, X), ('neg', np.negative, X),\n"
    "        ('floor', np.floor, X), ('ceil', np.ceil, X), ('round', np.round, X),\n"
    "        ('sign', np.sign, X), ('clamp', lambda v: np.clip(v, f32(-1), f32(1)), X)):\n"
    "    globals()['np_' + name] = fn(f, src)\n"
    "def fn2(f, a, b):\n"
    "    def loop(n):\n"
    "        for _ in range(n): r = f(a, b)\n"
    "    return loop\n"
    "for name, f in (('atan2', np.arctan2), ('fmod', np.fmod), ('remainder', np.remainder),\n"
    "        ('hypot', np.hypot), ('maximum', np.maximum),\n"
    "        ('lerp', lambda a, b: a + f32(0.3) * (b - a))):\n"
    "    globals()['np_' + name] = fn2(f, X, Y)\n";
static const char py_code3[] = /* after py_code2 */
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
  int extra;    /* functions: on the NX elements of the extra cases (4M in quick mode) */
  long calls;
  double ours, ours1, numpy; /* best loop times, ns, by the wall clock */
} row;

/* Functions: at least NumPy's speed on one thread (single-threaded kernels), and 1.3x at the
   default thread count, where the pool splits them. */
static row rows[] = {
    {"matmul float32 1024x1024", "mm32", "mm32", 0.9, 0, 0, 0, 0, 0, 0},
    {"matmul float64 512x512", "mm64", "mm64", 0.9, 0, 0, 0, 0, 0, 0},
#define FN(name, extra) \
  { name, name, "np_" name, 1.3, 1.0, extra, 0, 0, 0, 0 }
    FN("exp", 0),
    FN("log", 0),
    FN("tanh", 0),
    FN("sin", 0),
    FN("cos", 0),
    FN("sqrt", 0),
    /* lt_funcs.c's; erf has no row: NumPy has no erf (SciPy's is not installed) */
    FN("sigmoid", 0),
    FN("expm1", 0),
    FN("log1p", 0),
    FN("relu", 0),
    /* the other elementwise functions NumPy has */
    FN("tan", 1),
    FN("asin", 1),
    FN("acos", 1),
    FN("atan", 1),
    FN("sinh", 1),
    FN("cosh", 1),
    FN("asinh", 1),
    FN("acosh", 1),
    FN("atanh", 1),
    FN("log2", 1),
    FN("log10", 1),
    FN("exp2", 1),
    FN("trunc", 1),
    FN("frac", 1),
    FN("rsqrt", 1),
    FN("silu", 1),
    FN("isnan", 1),
    FN("isinf", 1),
    FN("isfinite", 1),
    FN("nan_to_num", 1),
    FN("atan2", 1),
    FN("fmod", 1),
    FN("remainder", 1),
    FN("hypot", 1),
    FN("lerp", 1),
    FN("abs", 1),
    FN("neg", 1),
    FN("floor", 1),
    FN("ceil", 1),
    FN("round", 1),
    FN("sign", 1),
    FN("clamp", 1),
    FN("maximum", 1),
#undef FN
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* Whether the row named name is selected by LTENSOR_BENCH_ONLY (a comma-separated list of
   case names; unset or empty: every row). */
static int selected(const char *name) {
  const char *only = getenv("LTENSOR_BENCH_ONLY");
  if (!only || !*only) return 1;
  size_t len = strlen(name);
  for (const char *p = only; *p;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && strncmp(p, name, n) == 0) return 1;
    p += n;
    if (*p == ',') p++;
  }
  return 0;
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  int rounds = quick ? 2 : 7;
  double t_start = bench_now_ns();
  unsetenv("OPENBLAS_CORETYPE"); /* NumPy's BLAS only: see the header comment */
  unsetenv("OPENBLAS_L2_SIZE");
  long long nx = quick ? NFUN_Q : NFUN;
  static char lua_chunk[sizeof lua_chunk1 + sizeof lua_chunk2];
  static char py_code[sizeof py_code1 + sizeof py_code2 + sizeof py_code3];
  snprintf(lua_chunk, sizeof lua_chunk, "%s%s", lua_chunk1, lua_chunk2);
  snprintf(py_code, sizeof py_code, "%s%s%s", py_code1, py_code2, py_code3);
  static const char *const names[] = {"N", "NX"};
  const long long values[] = {NFUN, nx};
  G = bench_py_open(argc, argv, "bench_compute", py_code, names, values, 2);
  if (!G) return 2;
  L = bench_lua_open("bench_compute");
  const lua_Integer args[] = {NFUN, (lua_Integer)nx};
  if (L) lua_ref = bench_lua_chunk(L, "bench_compute", lua_chunk, args, 2);
  if (lua_ref == LUA_NOREF || bench_lua_case(L, lua_ref, "bench_compute", "check", 0) < 0) return 2;
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
      if (!selected(w->lua)) continue;
      double o = bench_lua_case(L, lua_ref, "bench_compute", w->lua, w->calls),
             p = bench_py_case("bench_compute", w->py, w->calls), o1 = 0;
      if (w->goal1) {
        ltensor_set_num_threads(1);
        o1 = bench_lua_case(L, lua_ref, "bench_compute", w->lua, w->calls);
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
  char summary[4096] = "";
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    if (!selected(w->lua)) continue;
    double c = (double)w->calls, ratio = w->numpy / w->ours,
           ratio1 = w->goal1 ? w->numpy / w->ours1 : 0;
    int ok = ratio >= w->goal && (!w->goal1 || ratio1 >= w->goal1);
    pass = pass && ok;
    char label[64];
    if (w->goal1)
      snprintf(label, sizeof label, "%-10s float32 %lldM", w->label, (w->extra ? nx : NFUN) >> 20);
    else
      snprintf(label, sizeof label, "%s", w->label);
    if (w->goal1)
      printf("%-28s %10.2f %10.2f %10.2f %7.2fx %5.1fx %8.2fx %5.1fx %s", label, w->ours1 / 1e6 / c,
             w->ours / 1e6 / c, w->numpy / 1e6 / c, ratio1, w->goal1, ratio, w->goal,
             ok ? "PASS" : "MISS");
    else
      printf("%-28s %10s %10.2f %10.2f %8s %6s %8.2fx %5.1fx %s  (ours %.1f GFLOP/s)", label, "",
             w->ours / 1e6 / c, w->numpy / 1e6 / c, "", "", ratio, w->goal, ok ? "PASS" : "MISS",
             2 * pow(r == 0 ? 1024 : 512, 3) / (w->ours / c));
    printf("\n");
    if (w->goal1)
      bench_record("compute", label, 1, w->ours1 / c, w->numpy / c, "NumPy", ratio1,
                   ">=", w->goal1);
    bench_record("compute", label, def_threads, w->ours / c, w->numpy / c, "NumPy", ratio,
                 ">=", w->goal);
    size_t len = strlen(summary);
    if (w->goal1)
      snprintf(summary + len, sizeof summary - len, "%s%s %.2fx@1 %.2fx@def", len ? ", " : "",
               w->lua, ratio1, ratio);
    else
      snprintf(summary + len, sizeof summary - len, "%s%s %.2fx", len ? ", " : "", w->lua, ratio);
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
