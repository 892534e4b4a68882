/*
 * math.c -- bench_math: bulk tensor operations, ltensor from Lua on 1 thread and at the default
 * thread count, against NumPy in the same run (and memset/memcpy in C as the floor).
 *
 * One process embeds CPython (with NumPy) and Lua 5.4 (with ltensor linked statically) and
 * times, in the same run, on float32 tensors of 64 MiB (16M elements; a2, c2: 4096x4096 views):
 *
 *   ours   c:fill_(1.5)   c:copy_(a)   local r <close> = a:add(b)   c:add_(b)
 *          local r <close> = a:mul(0.5)   a:sum()    local r <close> = a2:sum(2)
 *          c2:copy_(a2:t())   local r <close> = ia & ib   local r <close> = ia << 1
 *   NumPy  c.fill(1.5)   np.copyto(c, a)   r = a + b   c += b   r = a * np.float32(0.5)
 *          a.sum()   r = a2.sum(axis=1)   np.copyto(c2, a2.T)   r = ia & ib   r = ia << 1
 * (ia, ib: int32 tensors of 64 MiB, 0, 1, 2, ... and 0x5a5a everywhere), and the vector math:
 *   ours   local r <close> = xf:exp()  (log of pf, sin, tanh; exp and log of xd, pd: float64)
 *   NumPy  r = np.exp(xf)  ...
 * (xf uniform in [-10, 10), pf in [1e-3, 100); xd, pd: float64), whose goal (>= 1.0x NumPy) is
 * at 1 thread, NumPy's count. Then each vector path's kernel of lt_vmath (plain, AVX2,
 * AVX-512, up to the processor's) called from C at 1 thread on 16M elements: exp, log, sin,
 * tanh of float32 and exp of float64, AVX-512 against AVX2 (exp float32's goal: >= 1.2x).
 * Every row goes to bench_record (bench.h) at 1 thread and at the default count.
 *
 * Every ltensor operation runs twice per round: at 1 thread and at the default count
 * (lt.get_num_threads() at start: the cores this process may use, or LTENSOR_NUM_THREADS), set
 * with lt.set_num_threads before its loop. The allocating forms close their result with
 * <close> as NumPy's reference counting frees a + b. NumPy runs these single-threaded.
 *
 * Each operation runs in a loop of its own interpreter (a Lua for loop, one method call per
 * iteration, so the per-call overhead is included; a Python for loop; a C for loop) timed by
 * the wall clock (CLOCK_MONOTONIC: the workers' time counts). The cases run interleaved, one
 * loop of each per round, and each keeps its best round (on a machine shared with other work
 * the best round is the one least disturbed). All buffers are written once before any timing.
 *
 * Bandwidth is bytes moved per second, reads and writes counted once each: fill n, copy 2n,
 * add and add_ 3n, mul 2n, & 3n, << 2n, sum n, sum(2) n, the transposed copy 2n (n = 64 MiB).
 * Goals, at the default count against NumPy: every operation >= 1.3x, the transposed copy >= 3x.
 * Beside each the speedup of the default count over 1 thread.
 *
 * The embedded Python is the one python3-embed names (Debian's, with python3-numpy), whatever
 * `python3` is on PATH. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which this workplace may set
 * for older OpenBLAS builds and which slow a current NumPy, are removed from this process's
 * environment before Python starts (the Lua side does not read them).
 *
 * Usage: bench_math
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (< 10 s)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a verdict is MISS
 * Exit status 2 when something fails (Python, NumPy, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/core/simd/lt_cpu.h"
#include "../src/core/simd/lt_vmath.h"
#include "bench.h"
#include "ltensor.h"

#define SIDE 4096LL         /* the transposed copy and sum(2): SIDE x SIDE */
#define NELEM (SIDE * SIDE) /* 16M float32 elements */
#define NBYTES (NELEM * 4)  /* 64 MiB */
#define NP_GOAL 1.3         /* ours at the default count / NumPy, in bandwidth */
#define TRANSPOSE_GOAL 3.0  /* the transposed copy: ours / NumPy */
#define VM_GOAL 1.0         /* the vector math: ours at 1 thread / NumPy */
#define PATH_GOAL 1.2       /* exp float32 on the AVX-512 path / on the AVX2 path, 1 thread */

/* {====== the Lua side ====== */

static lua_State *L;
static int lua_bench_ref = LUA_NOREF; /* the table the chunk below returns */
static char *lua_a, *lua_c;           /* data of the tensors a and c, for memset and memcpy */

/* The loops: B.op(n, threads), one method call per iteration. a = 0, 1, 2, ... (exact in
   float32 below 2^24), b = 0.25 everywhere; the results land in c (c2 is c viewed as
   SIDE x SIDE). threads 0: the default count. */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N, SIDE = ...\n"
    "local default = lt.get_num_threads()\n"
    "local a = lt.arange(N, 'float32')\n"
    "local b = lt.full(N, 0.25, 'float32')\n"
    "local c = lt.full(N, 0, 'float32')\n"
    "local a2, c2 = a:view(SIDE, SIDE), c:view(SIDE, SIDE)\n"
    "local ia, ib = lt.arange(N, 'int32'), lt.full(N, 0x5a5a, 'int32')\n"
    "local B = {a = a, c = c, default = default}\n"
    "local function T(th) lt.set_num_threads(th == 0 and default or th) end\n"
    "function B.fill(n, th) T(th); for _ = 1, n do c:fill_(1.5) end end\n"
    "function B.copy(n, th) T(th); for _ = 1, n do c:copy_(a) end end\n"
    "function B.add(n, th) T(th); for _ = 1, n do local r <close> = a:add(b) end end\n"
    "function B.add_(n, th) T(th); for _ = 1, n do c:add_(b) end end\n"
    "function B.band(n, th) T(th); for _ = 1, n do local r <close> = ia & ib end end\n"
    "function B.shl(n, th) T(th); for _ = 1, n do local r <close> = ia << 1 end end\n"
    "function B.mul(n, th) T(th); for _ = 1, n do local r <close> = a:mul(0.5) end end\n"
    "function B.sum(n, th) T(th); local s; for _ = 1, n do s = a:sum() end; return s end\n"
    "function B.sum2(n, th) T(th); for _ = 1, n do local r <close> = a2:sum(2) end end\n"
    "function B.transpose(n, th) T(th); for _ = 1, n do c2:copy_(a2:t()) end end\n"
    "-- the vector math: x in [-10, 10), p in [1e-3, 100)\n"
    "lt.manual_seed(7)\n"
    "local xf = lt.rand(N, {dtype = 'float32'}):mul(20):sub(10)\n"
    "local pf = lt.rand(N, {dtype = 'float32'}):mul(100):add(1e-3)\n"
    "local xd, pd = xf:to('float64'), pf:to('float64')\n"
    "local function V(t, f) return function(n, th) T(th)\n"
    "  for _ = 1, n do local r <close> = t[f](t) end end end\n"
    "B.exp32, B.log32, B.sin32, B.tanh32 = V(xf, 'exp'), V(pf, 'log'), V(xf, 'sin'), V(xf, "
    "'tanh')\n"
    "B.exp64, B.log64 = V(xd, 'exp'), V(pd, 'log')\n"
    "-- each operation once at each count, its result checked at a few places\n"
    "local function eq(x, y, what) assert(x == y, what .. ': ' .. x .. ' ~= ' .. y) end\n"
    "local function f32(x) return (string.unpack('f', string.pack('f', x))) end\n"
    "local probes = {1, 2, 4097, 123457, N // 2 + 3, N - 1, N}\n"
    "function B.check()\n"
    "  for _, th in ipairs({1, 0}) do\n"
    "    B.fill(1, th); for _, i in ipairs(probes) do eq(c[i], 1.5, 'fill') end\n"
    "    B.copy(1, th); for _, i in ipairs(probes) do eq(c[i], a[i], 'copy') end\n"
    "    B.add_(1, th); for _, i in ipairs(probes) do eq(c[i], f32(a[i] + 0.25), 'add_') end\n"
    "    local r <close> = a:add(b); for _, i in ipairs(probes) do eq(r[i], f32(a[i] + 0.25), "
    "'add') end\n"
    "    local m <close> = a:mul(0.5); for _, i in ipairs(probes) do eq(m[i], f32(a[i] * 0.5), "
    "'mul') end\n"
    "    local i1 <close> = ia & ib; for _, i in ipairs(probes) do eq(i1[i], (i - 1) & 0x5a5a, "
    "'&') end\n"
    "    local i2 <close> = ia << 1; for _, i in ipairs(probes) do eq(i2[i], (i - 1) << 1, '<<') "
    "end\n"
    "    eq(B.sum(1, th), (N - 1) * N / 2, 'sum')\n"
    "    local s2 <close> = a2:sum(2)\n"
    "    for _, i in ipairs({1, 77, SIDE}) do\n"
    "      eq(s2[i], f32(SIDE * (i - 1) * SIDE + SIDE * (SIDE - 1) / 2), 'sum(2)')\n"
    "    end\n"
    "    B.transpose(1, th)\n"
    "    for _, i in ipairs(probes) do\n"
    "      local row, col = (i - 1) // SIDE, (i - 1) % SIDE\n"
    "      eq(c[i], a[col * SIDE + row + 1], 'transposed copy')\n"
    "    end\n"
    "  end\n"
    "  T(0)\n"
    "  return true\n"
    "end\n"
    "return B\n";

/* Calls B[fn](args...) with nargs integers; 1 on success (results dropped), else reports. */
static int lua_callb(const char *fn, lua_Integer n, lua_Integer th, int nargs, double *dt) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_bench_ref);
  lua_getfield(L, -1, fn);
  if (nargs) {
    lua_pushinteger(L, n);
    lua_pushinteger(L, th);
  }
  lua_gc(L, LUA_GCCOLLECT); /* garbage of the other cases is not collected in this one's time */
  double t0 = bench_now_ns();
  int rc = lua_pcall(L, nargs ? 2 : 0, 0, h);
  if (dt) *dt = bench_now_ns() - t0;
  if (rc != LUA_OK) fprintf(stderr, "bench_math: lua %s: %s\n", fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  lua_gc(L, LUA_GCCOLLECT);
  return rc == LUA_OK;
}

/* B[name] as an integer: a tensor's data_ptr(), or a number. */
static lua_Integer lua_field(const char *name) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_bench_ref);
  lua_getfield(L, -1, name);
  if (lua_isinteger(L, -1)) {
    lua_Integer v = lua_tointeger(L, -1);
    lua_pop(L, 2);
    return v;
  }
  lua_getfield(L, -1, "data_ptr");
  lua_insert(L, -2);
  lua_call(L, 1, 1);
  lua_Integer p = lua_tointeger(L, -1);
  lua_pop(L, 2);
  return p;
}

static int open_lua(void) {
  L = bench_lua_open("bench_math");
  const lua_Integer args[] = {NELEM, SIDE};
  if (L) lua_bench_ref = bench_lua_chunk(L, "bench_math", lua_chunk, args, 2);
  if (lua_bench_ref == LUA_NOREF) return 0;
  lua_a = (char *)(intptr_t)lua_field("a");
  lua_c = (char *)(intptr_t)lua_field("c");
  return lua_callb("check", 0, 0, 0, NULL);
}

/* }====== */

/* {====== the Python side ====== */

static const char py_code[] = /* run after import sys, numpy as np */
    "a = np.arange(N, dtype=np.float32)\n"
    "b = np.full(N, 0.25, np.float32)\n"
    "c = np.full(N, 0, np.float32)\n"
    "a2, c2 = a.reshape(SIDE, SIDE), c.reshape(SIDE, SIDE)\n"
    "half = np.float32(0.5)\n"
    "ia, ib = np.arange(N, dtype=np.int32), np.full(N, 0x5a5a, np.int32)\n"
    "def np_band(n):\n"
    "    for _ in range(n): r = ia & ib\n"
    "    return r\n"
    "def np_shl(n):\n"
    "    for _ in range(n): r = ia << 1\n"
    "    return r\n"
    "def np_fill(n):\n"
    "    for _ in range(n): c.fill(1.5)\n"
    "def np_copy(n):\n"
    "    for _ in range(n): np.copyto(c, a)\n"
    "def np_add(n):\n"
    "    for _ in range(n): r = a + b\n"
    "    return r\n"
    "def np_iadd(n):\n"
    "    global c\n"
    "    for _ in range(n): c += b\n"
    "def np_mul(n):\n"
    "    for _ in range(n): r = a * half\n"
    "    return r\n"
    "def np_sum(n):\n"
    "    for _ in range(n): s = a.sum()\n"
    "    return s\n"
    "def np_sum2(n):\n"
    "    for _ in range(n): r = a2.sum(axis=1)\n"
    "    return r\n"
    "rng = np.random.default_rng(7)\n"
    "xf = (rng.random(N, dtype=np.float32) * 20 - 10).astype(np.float32)\n"
    "pf = (rng.random(N, dtype=np.float32) * 100 + np.float32(1e-3)).astype(np.float32)\n"
    "xd, pd = xf.astype(np.float64), pf.astype(np.float64)\n"
    "def vm(f, x):\n"
    "    def run(n):\n"
    "        for _ in range(n): r = f(x)\n"
    "        return r\n"
    "    return run\n"
    "np_exp32, np_log32, np_sin32, np_tanh32 = vm(np.exp, xf), vm(np.log, pf), vm(np.sin, xf), "
    "vm(np.tanh, xf)\n"
    "np_exp64, np_log64 = vm(np.exp, xd), vm(np.log, pd)\n"
    "def np_transpose(n):\n"
    "    for _ in range(n): np.copyto(c2, a2.T)\n"
    "probes = np.array([0, 1, 4096, 123456, N // 2 + 2, N - 2, N - 1])\n"
    "def np_check():  # each operation once, its result checked at the probes\n"
    "    np_fill(1); assert (c[probes] == 1.5).all(), 'fill'\n"
    "    np_copy(1); assert (c[probes] == a[probes]).all(), 'copy'\n"
    "    want = a[probes] + np.float32(0.25)\n"
    "    np_iadd(1); assert (c[probes] == want).all(), 'iadd'\n"
    "    assert (np_add(1)[probes] == want).all(), 'add'\n"
    "    assert np_mul(1).dtype == np.float32, 'mul'\n"
    "    assert (np_band(1)[probes] == probes & 0x5a5a).all(), 'band'\n"
    "    r = np_shl(1); assert r.dtype == np.int32 and (r[probes] == probes << 1).all(), 'shl'\n"
    "    np_sum(1)\n"
    "    assert np_sum2(1).shape == (SIDE,), 'sum(axis=1)'\n"
    "    np_transpose(1)\n"
    "    want = a[(probes % SIDE) * SIDE + probes // SIDE]\n"
    "    assert (c[probes] == want).all(), 'transposed copy'\n"
    "    return True\n";

static int open_python(int argc, char **argv) {
  /* the NumPy part only: see the header comment */
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("OPENBLAS_L2_SIZE");
  static const char *const names[] = {"N", "SIDE"};
  static const long long values[] = {NELEM, SIDE};
  G = bench_py_open(argc, argv, "bench_math", py_code, names, values, 2);
  if (!G) return 0;
  PyObject *r = PyRun_String("np_check()", Py_eval_input, G, G);
  if (!r) goto fail;
  Py_DECREF(r);
  return 1;
fail:
  if (PyErr_Occurred()) PyErr_Print();
  fprintf(stderr, "bench_math: cannot set up Python\n");
  return 0;
}

/* Calls G[fn](n) once; its wall-clock time in ns, or -1 (reported). */
static double py_case(const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  double dt = -1;
  PyObject *r = NULL;
  if (f) {
    double t0 = bench_now_ns();
    r = PyObject_CallFunction(f, "n", (Py_ssize_t)n);
    dt = bench_now_ns() - t0;
  }
  return bench_py_done(r, dt, "bench_math", fn);
}

/* Python's one-line answer to expr, or "?". */
static void py_str(const char *expr, char *buf, size_t n) {
  PyObject *v = PyRun_String(expr, Py_eval_input, G, G);
  const char *s = v ? PyUnicode_AsUTF8(v) : NULL;
  snprintf(buf, n, "%s", s ? s : "?");
  if (!s) PyErr_Clear();
  Py_XDECREF(v);
}

/* }====== */

/* {====== the C floor ====== */

static volatile unsigned char sink; /* keeps the loops from being optimized away */

static double c_case(int which, long n) {
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++) {
    if (which == 0)
      memset(lua_c, 0x3f, (size_t)NBYTES);
    else
      memcpy(lua_c, lua_a, (size_t)NBYTES);
    sink = (unsigned char)lua_c[i & 1023];
  }
  return bench_now_ns() - t0;
}

/* }====== */

/* {====== the cases ====== */

/* One operation: ours at 1 thread and at the default count, NumPy's, the C floor's. */
typedef struct {
  const char *name, *ours, *numpy; /* labels */
  const char *fn, *np_fn;          /* Lua B[fn], Python G[np_fn] */
  double moved;                    /* bytes moved per call, in units of NBYTES */
  double goal;                     /* ours at the default count / NumPy */
  int np_slow;                     /* NumPy runs a quarter of the calls per loop (at least 1) */
  double best[3];                  /* best loop time (ns): ours at 1, at the default, NumPy */
  long calls[3];
  int one; /* the goal holds at 1 thread (the vector math: NumPy's runs on one) */
} op;

static op ops[] = {
    {"fill_", "c:fill_(1.5)", "c.fill(1.5)", "fill", "np_fill", 1, NP_GOAL, 0, {0}, {0}, 0},
    {"copy_", "c:copy_(a)", "np.copyto(c, a)", "copy", "np_copy", 2, NP_GOAL, 0, {0}, {0}, 0},
    {"add", "local r <close> = a:add(b)", "r = a + b", "add", "np_add", 3, NP_GOAL, 0, {0}, {0}, 0},
    {"add_", "c:add_(b)", "c += b", "add_", "np_iadd", 3, NP_GOAL, 0, {0}, {0}, 0},
    {"mul",
     "local r <close> = a:mul(0.5)",
     "r = a * np.float32(0.5)",
     "mul",
     "np_mul",
     2,
     NP_GOAL,
     0,
     {0},
     {0},
     0},
    {"a & b",
     "local r <close> = ia & ib",
     "r = ia & ib",
     "band",
     "np_band",
     3,
     NP_GOAL,
     0,
     {0},
     {0},
     0},
    {"a << 1",
     "local r <close> = ia << 1",
     "r = ia << 1",
     "shl",
     "np_shl",
     2,
     NP_GOAL,
     0,
     {0},
     {0},
     0},
    {"sum", "a:sum()", "a.sum()", "sum", "np_sum", 1, NP_GOAL, 0, {0}, {0}, 0},
    {"sum(2)",
     "local r <close> = a2:sum(2)",
     "a2.sum(axis=1)",
     "sum2",
     "np_sum2",
     1,
     NP_GOAL,
     0,
     {0},
     {0},
     0},
    {"transposed copy",
     "c2:copy_(a2:t())",
     "np.copyto(c2, a2.T)",
     "transpose",
     "np_transpose",
     2,
     TRANSPOSE_GOAL,
     1,
     {0},
     {0},
     0},
    {"exp f32",
     "local r <close> = xf:exp()",
     "r = np.exp(xf)",
     "exp32",
     "np_exp32",
     2,
     VM_GOAL,
     0,
     {0},
     {0},
     1},
    {"log f32",
     "local r <close> = pf:log()",
     "r = np.log(pf)",
     "log32",
     "np_log32",
     2,
     VM_GOAL,
     0,
     {0},
     {0},
     1},
    {"sin f32",
     "local r <close> = xf:sin()",
     "r = np.sin(xf)",
     "sin32",
     "np_sin32",
     2,
     VM_GOAL,
     0,
     {0},
     {0},
     1},
    {"tanh f32",
     "local r <close> = xf:tanh()",
     "r = np.tanh(xf)",
     "tanh32",
     "np_tanh32",
     2,
     VM_GOAL,
     0,
     {0},
     {0},
     1},
    {"exp f64",
     "local r <close> = xd:exp()",
     "r = np.exp(xd)",
     "exp64",
     "np_exp64",
     4,
     VM_GOAL,
     0,
     {0},
     {0},
     1},
    {"log f64",
     "local r <close> = pd:log()",
     "r = np.log(pd)",
     "log64",
     "np_log64",
     4,
     VM_GOAL,
     0,
     {0},
     {0},
     1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* }====== */

/* {====== the vector paths ====== */

/* Each vector path's kernel of lt_vmath (lt_vmath_f32_path: whatever LTENSOR_SIMD says) on 16M
   elements at 1 thread, called from C, interleaved, best of `rounds`: exp, log, sin and tanh of
   float32 and exp of float64, on the data of the rows above (x in [-10, 10), p in [1e-3,
   100); log here on 5 x + 50.001). exp float32's AVX-512 time against its AVX2 time is a goal
   (PATH_GOAL); the rest is information. Returns whether the goal holds (or the processor has no
   AVX-512). */
static int paths_report(int rounds) {
  static const char *const f32[] = {"exp", "log", "sin", "tanh"};
  enum { NF = 5 }; /* the four above, then exp float64 */
  int top = lt_cpu_level_max();
  float *xf = malloc((size_t)NBYTES), *pf = malloc((size_t)NBYTES), *yf = malloc((size_t)NBYTES);
  double *xd = malloc((size_t)NBYTES * 2), *yd = malloc((size_t)NBYTES * 2);
  int pass = xf && pf && yf && xd && yd;
  if (!pass) {
    fprintf(stderr, "bench_math: no memory for the vector paths\n");
    goto done;
  }
  uint64_t st = 7;
  for (int64_t i = 0; i < NELEM; i++) {
    st = st * 6364136223846793005u + 1442695040888963407u;
    xf[i] = (float)((double)(st >> 40) * 0x1p-24 * 20 - 10);
    pf[i] = xf[i] * 5 + 50.001f;
    xd[i] = xf[i];
  }
  double best[NF][3] = {{0}};
  for (int round = 1; round <= rounds; round++)
    for (int f = 0; f < NF; f++)
      for (int l = LT_CPU_SCALAR; l <= top; l++) {
        double t0 = bench_now_ns();
        if (f < 4)
          lt_vmath_f32_path(f32[f], l)(yf, f == 1 ? pf : xf, NELEM);
        else
          lt_vmath_f64_path("exp", l)(yd, xd, NELEM);
        double dt = bench_now_ns() - t0;
        if (round == 1 || dt < best[f][l]) best[f][l] = dt;
      }
  printf(
      "\nthe vector paths, lt_vmath from C at 1 thread on %lld elements, best of %d rounds "
      "(ms; LTENSOR_SIMD does not apply here; the processor's widest: %s)\n",
      NELEM, rounds, lt_cpu_level_name(top));
  printf("%-10s %10s %10s %10s %14s\n", "function", "scalar", "avx2", "avx512", "avx512/avx2");
  for (int f = 0; f < NF; f++) {
    char label[64];
    snprintf(label, sizeof label, "%s %s", f < 4 ? f32[f] : "exp", f < 4 ? "f32" : "f64");
    printf("%-10s", label);
    for (int l = LT_CPU_SCALAR; l <= LT_CPU_AVX512; l++)
      if (l <= top)
        printf(" %10.2f", best[f][l] / 1e6);
      else
        printf(" %10s", "-");
    if (top >= LT_CPU_AVX512) {
      double r = best[f][LT_CPU_AVX2] / best[f][LT_CPU_AVX512];
      int goal = f == 0;
      printf(" %13.2fx%s\n", r, goal ? (r >= PATH_GOAL ? "  PASS" : "  MISS") : "");
      snprintf(label, sizeof label, "%s %s, avx512 path vs avx2", f < 4 ? f32[f] : "exp",
               f < 4 ? "f32" : "f64");
      bench_record("bench_math", label, 1, best[f][LT_CPU_AVX512] / 1e6, best[f][LT_CPU_AVX2] / 1e6,
                   "avx2 path", r, goal ? ">=" : "", PATH_GOAL);
      if (goal) pass = r >= PATH_GOAL;
    } else {
      printf("\n");
    }
  }
  printf("exp float32, the AVX-512 path against the AVX2 path (goal >= %.1fx): %s\n", PATH_GOAL,
         top < LT_CPU_AVX512 ? "no AVX-512 here"
         : pass              ? "PASS"
                             : "MISS");
done:
  free(xf);
  free(pf);
  free(yf);
  free(xd);
  free(yd);
  return pass;
}

/* }====== */

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  long n = quick ? 2 : 4; /* calls per loop */
  int rounds = quick ? 3 : 15;
  double t_start = bench_now_ns();

  if (!open_python(argc, argv) || !open_lua()) return 2;
  int threads = (int)lua_field("default");
  double t_setup = bench_now_ns(), floor_best[2] = {0, 0};

  for (int round = 1; round <= rounds; round++) {
    for (int k = 0; k < 2; k++) { /* memset, memcpy */
      double dt = c_case(k, n);
      if (round == 1 || dt < floor_best[k]) floor_best[k] = dt;
    }
    for (int i = 0; i < NOPS; i++) {
      op *o = &ops[i];
      for (int w = 0; w < 3; w++) {
        long calls = w == 2 && o->np_slow ? (n / 4 > 0 ? n / 4 : 1) : n;
        double dt;
        if (w < 2) {
          if (!lua_callb(o->fn, calls, w == 0 ? 1 : 0, 1, &dt)) return 2;
        } else if ((dt = py_case(o->np_fn, calls)) < 0) {
          return 2;
        }
        o->calls[w] = calls;
        if (round == 1 || dt < o->best[w]) o->best[w] = dt;
      }
    }
  }

  char pyver[128];
  py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  printf(
      "ltensor bulk operations against NumPy, %s mode: float32, %lld MiB (%lld elements; sum(2) "
      "and the transposed copy on %lldx%lld), %ld calls per loop (NumPy's transposed copy %ld), "
      "best of %d rounds by the wall clock; ltensor at 1 thread and at the default count %d; %s, "
      "Python %s\n",
      quick ? "quick" : "full", NBYTES >> 20, NELEM, SIDE, SIDE, n, n / 4 > 0 ? n / 4 : 1, rounds,
      threads, LUA_RELEASE, pyver);
  printf(
      "(bytes moved count reads and writes once each: fill n, copy 2n, add 3n, add_ 3n, mul 2n, "
      "& 3n, << 2n, sum n, sum(2) n, transposed copy 2n)\n");
  double gb = (double)NBYTES / 1e9;
  printf("C floor, 1 thread: memset %.2f GB/s, memcpy %.2f GB/s\n",
         gb * (double)n / floor_best[0] * 1e9, 2 * gb * (double)n / floor_best[1] * 1e9);
  printf("(/NumPy: at the default count; the vector math's rows (f32, f64) at 1 thread)\n");
  printf("%-16s %-30s %8s %8s %8s %8s %8s %7s %6s  %s\n", "op", "ours", "ms@1", "ms@def",
         "GB/s@def", "NumPy ms", "/NumPy", "def/1", "goal", "verdict");
  int pass = 1;
  char summary[512] = "";
  for (int i = 0; i < NOPS; i++) {
    const op *o = &ops[i];
    double ms[3];
    for (int w = 0; w < 3; w++) ms[w] = o->best[w] / 1e6 / (double)o->calls[w];
    double vs_np = ms[2] / ms[o->one ? 0 : 1], speedup = ms[0] / ms[1];
    int ok = vs_np >= o->goal;
    bench_record("bench_math", o->name, 1, ms[0], ms[2], "NumPy", ms[2] / ms[0], o->one ? ">=" : "",
                 o->goal);
    bench_record("bench_math", o->name, threads, ms[1], ms[2], "NumPy", ms[2] / ms[1],
                 o->one ? "" : ">=", o->goal);
    pass = pass && ok;
    printf("%-16s %-30s %8.2f %8.2f %8.2f %8.2f %7.2fx %6.2fx %5.1fx  %s\n", o->name, o->ours,
           ms[0], ms[1], o->moved * gb / ms[1] * 1e3, ms[2], vs_np, speedup, o->goal,
           ok ? "PASS" : "MISS");
    size_t len = strlen(summary);
    snprintf(summary + len, sizeof summary - len, "%s%s %.2fx", i ? ", " : "", o->name, vs_np);
  }
  printf("NumPy rows: %s\n", ops[0].numpy);
  for (int i = 1; i < NOPS; i++) printf("            %s\n", ops[i].numpy);
  printf(
      "against NumPy at %d threads (goal %.1fx, transposed copy %.1fx; the vector math at 1 "
      "thread, %.1fx): %s (%s)\n",
      threads, NP_GOAL, TRANSPOSE_GOAL, VM_GOAL, pass ? "PASS" : "MISS", summary);
  pass = paths_report(quick ? 3 : 9) && pass;
  printf("(%.1f s, %.1f s of it setting up and checking)\n", (bench_now_ns() - t_start) / 1e9,
         (t_setup - t_start) / 1e9);
  fflush(stdout);

  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
