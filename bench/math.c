/*
 * math.c -- bench_math: the bandwidth of bulk tensor operations, ltensor from Lua against
 * memset/memcpy in C and against NumPy.
 *
 * One process embeds CPython (with NumPy) and Lua 5.4 (with ltensor linked statically) and
 * times, in the same run, on float32 tensors of 64 MiB (16M elements):
 *
 *   C      memset(c, 0x3f, 64 MiB)      memcpy(c, a, 64 MiB)      (on ltensor's own buffers)
 *   ours   c:fill_(1.5)   c:copy_(a)   local r <close> = a:add(b)   r = a:add(b)   c:add_(b)
 *          a:sum()   c2:copy_(a2:transpose(1, 2))              (a2, c2: 4096x4096 views)
 *   NumPy  c.fill(1.5)   np.copyto(c, a)   r = a + b   np.add(a, b, out=c)   c += b   a.sum()
 *          np.copyto(c2, a2.T)
 *
 * a:add(b) makes a new tensor: with <close> it is released when the iteration ends, as NumPy's
 * reference counting releases a + b; plain `r = a:add(b)` leaves it to the collector, which lets
 * several dead results pile up first (every call then maps fresh memory).
 *
 * Each operation runs in a loop of its own interpreter (a Lua for loop, one method call per
 * iteration, so the per-call overhead is included; a Python for loop; a C for loop); this file
 * times one call of the loop with clock_gettime(CLOCK_THREAD_CPUTIME_ID): every loop runs on
 * this thread (none of these NumPy operations uses threads), and time spent descheduled on a
 * busy machine is not counted, while page faults are (they are this thread's system time). The
 * cases run interleaved, one loop of each per round, and each keeps its best round. All buffers
 * are written once before any timing (fresh mappings fault on first touch); the allocating
 * cases (a:add(b), a + b) pay for their fresh result memory on every call, as a program would.
 *
 * Bandwidth is bytes moved per second, reads and writes counted once each: fill and memset n,
 * copy and memcpy 2n, add and add_ 3n, sum n, the transposed copy 2n (n = 64 MiB). Goals:
 *   fill, copy, add, add_ (contiguous)   >= 0.8x memcpy's bandwidth, and no slower than NumPy
 *                                        (add: the <close> form, against a + b: both allocate)
 *   sum                                  >= 0.7x memcpy's bandwidth
 *   transposed copy                      >= 0.25x memcpy's bandwidth
 *
 * The embedded Python is the one python3-embed names (Debian's, with python3-numpy), whatever
 * `python3` is on PATH. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which this workplace may set
 * for older OpenBLAS builds and which slow a current NumPy, are removed from this process's
 * environment before Python starts (the Lua side does not read them).
 *
 * Usage: bench_math
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (< 5 s)
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

#include "bench.h"
#include "ltensor.h"

#define SIDE 4096LL         /* the transposed copy: SIDE x SIDE */
#define NELEM (SIDE * SIDE) /* 16M float32 elements */
#define NBYTES (NELEM * 4)  /* 64 MiB */
#define CONTIG_GOAL 0.8     /* contiguous ops: bandwidth / memcpy's */
#define SUM_GOAL 0.7        /* sum: bandwidth / memcpy's */
#define TRANSPOSE_GOAL 0.25 /* transposed copy: bandwidth / memcpy's */

/* {====== the Lua side ====== */

static lua_State *L;
static int lua_bench_ref = LUA_NOREF; /* the table the chunk below returns */
static char *lua_a, *lua_c;           /* data of the tensors a and c, for memset and memcpy */

/* The loops: one method call per iteration. a = 0, 1, 2, ... (exact in float32 below 2^24),
   b = 0.25 everywhere; the results land in c (c2 is c viewed as SIDE x SIDE). */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N, SIDE = ...\n"
    "local a = lt.arange(N, 'float32')\n"
    "local b = lt.full(N, 0.25, 'float32')\n"
    "local c = lt.full(N, 0, 'float32')\n"
    "local a2, c2 = a:view(SIDE, SIDE), c:view(SIDE, SIDE)\n"
    "local B = {a = a, c = c}\n"
    "function B.fill(n) for _ = 1, n do c:fill_(1.5) end end\n"
    "function B.copy(n) for _ = 1, n do c:copy_(a) end end\n"
    "function B.add(n) local r; for _ = 1, n do r = a:add(b) end; return r end\n"
    "function B.add_close(n) for _ = 1, n do local r <close> = a:add(b) end end\n"
    "function B.add_(n) for _ = 1, n do c:add_(b) end end\n"
    "function B.sum(n) local s; for _ = 1, n do s = a:sum() end; return s end\n"
    "function B.transpose(n) for _ = 1, n do c2:copy_(a2:transpose(1, 2)) end end\n"
    "-- each operation once, its result checked at a few places\n"
    "local function eq(x, y, what) assert(x == y, what .. ': ' .. x .. ' ~= ' .. y) end\n"
    "local function f32(x) return (string.unpack('f', string.pack('f', x))) end\n"
    "local probes = {1, 2, 4097, 123457, N // 2 + 3, N - 1, N}\n"
    "function B.check()\n"
    "  B.fill(1); for _, i in ipairs(probes) do eq(c[i], 1.5, 'fill') end\n"
    "  B.copy(1); for _, i in ipairs(probes) do eq(c[i], a[i], 'copy') end\n"
    "  B.add_(1); for _, i in ipairs(probes) do eq(c[i], f32(a[i] + 0.25), 'add_') end\n"
    "  local r = B.add(1); for _, i in ipairs(probes) do eq(r[i], f32(a[i] + 0.25), 'add') end\n"
    "  B.add_close(1)\n"
    "  eq(B.sum(1), (N - 1) * N / 2, 'sum')\n"
    "  B.transpose(1)\n"
    "  for _, i in ipairs(probes) do\n"
    "    local row, col = (i - 1) // SIDE, (i - 1) % SIDE\n"
    "    eq(c[i], a[col * SIDE + row + 1], 'transposed copy')\n"
    "  end\n"
    "  return true\n"
    "end\n"
    "return B\n";

/* Calls B[fn](args...) with nargs integers; 1 on success (results dropped), else reports. */
static int lua_callb(const char *fn, lua_Integer arg, int nargs, double *dt) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_bench_ref);
  lua_getfield(L, -1, fn);
  if (nargs) lua_pushinteger(L, arg);
  lua_gc(L, LUA_GCCOLLECT); /* garbage of the other cases is not collected in this one's time */
  double t0 = bench_cpu_ns();
  int rc = lua_pcall(L, nargs, 0, h);
  if (dt) *dt = bench_cpu_ns() - t0;
  if (rc != LUA_OK) fprintf(stderr, "bench_math: lua %s: %s\n", fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  lua_gc(L, LUA_GCCOLLECT);
  return rc == LUA_OK;
}

/* The data address of B[name] (the tensor's data_ptr()). */
static char *lua_tensor_data(const char *name) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_bench_ref);
  lua_getfield(L, -1, name);
  lua_getfield(L, -1, "data_ptr");
  lua_insert(L, -2);
  lua_call(L, 1, 1);
  char *p = (char *)(intptr_t)lua_tointeger(L, -1);
  lua_pop(L, 2);
  return p;
}

static int open_lua(void) {
  L = bench_lua_open("bench_math");
  const lua_Integer args[] = {NELEM, SIDE};
  if (L) lua_bench_ref = bench_lua_chunk(L, "bench_math", lua_chunk, args, 2);
  if (lua_bench_ref == LUA_NOREF) return 0;
  lua_a = lua_tensor_data("a");
  lua_c = lua_tensor_data("c");
  return lua_callb("check", 0, 0, NULL);
}

/* }====== */

/* {====== the Python side ====== */

static const char py_code[] = /* run after import sys, numpy as np */
    "a = np.arange(N, dtype=np.float32)\n"
    "b = np.full(N, 0.25, np.float32)\n"
    "c = np.full(N, 0, np.float32)\n"
    "a2, c2 = a.reshape(SIDE, SIDE), c.reshape(SIDE, SIDE)\n"
    "def np_fill(n):\n"
    "    for _ in range(n): c.fill(1.5)\n"
    "def np_copy(n):\n"
    "    for _ in range(n): np.copyto(c, a)\n"
    "def np_add_out(n):\n"
    "    for _ in range(n): np.add(a, b, out=c)\n"
    "def np_add(n):\n"
    "    for _ in range(n): r = a + b\n"
    "    return r\n"
    "def np_iadd(n):\n"
    "    global c\n"
    "    for _ in range(n): c += b\n"
    "def np_sum(n):\n"
    "    for _ in range(n): s = a.sum()\n"
    "    return s\n"
    "def np_transpose(n):\n"
    "    for _ in range(n): np.copyto(c2, a2.T)\n"
    "probes = np.array([0, 1, 4096, 123456, N // 2 + 2, N - 2, N - 1])\n"
    "def np_check():  # each operation once, its result checked at the probes\n"
    "    np_fill(1); assert (c[probes] == 1.5).all(), 'fill'\n"
    "    np_copy(1); assert (c[probes] == a[probes]).all(), 'copy'\n"
    "    want = a[probes] + np.float32(0.25)\n"
    "    np_iadd(1); assert (c[probes] == want).all(), 'iadd'\n"
    "    np_add_out(1); assert (c[probes] == want).all(), 'add out='\n"
    "    assert (np_add(1)[probes] == want).all(), 'add'\n"
    "    np_sum(1)\n"
    "    np_transpose(1)\n"
    "    want = a[(probes % SIDE) * SIDE + probes // SIDE]\n"
    "    assert (c[probes] == want).all(), 'transposed copy'\n"
    "    return True\n"
    "def blas():\n"
    "    try:\n"
    "        import threadpoolctl\n"
    "        i = threadpoolctl.threadpool_info()\n"
    "        return ', '.join('%s %s' % (x.get('internal_api'), x.get('architecture'))\n"
    "                         for x in i)\n"
    "    except Exception:\n"
    "        return 'threadpoolctl not available'\n";

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

/* Calls G[fn](n) once; its time in ns, or -1 (reported). */
static double py_case(const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  double dt = -1;
  PyObject *r = f ? bench_py_time(f, &dt, "(n)", (Py_ssize_t)n) : NULL;
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
  double t0 = bench_cpu_ns();
  for (long i = 0; i < n; i++) {
    if (which == 0)
      memset(lua_c, 0x3f, (size_t)NBYTES);
    else
      memcpy(lua_c, lua_a, (size_t)NBYTES);
    sink = (unsigned char)lua_c[i & 1023];
  }
  return bench_cpu_ns() - t0;
}

/* }====== */

/* {====== the cases ====== */

enum { SRC_C, SRC_LUA, SRC_PY };

/* The operations. OP_ADD_GC: a:add(b) with the result left to the collector. */
enum {
  OP_MEMSET,
  OP_MEMCPY,
  OP_FILL,
  OP_COPY,
  OP_ADD,
  OP_ADD_GC,
  OP_ADD_OUT,
  OP_ADD_,
  OP_SUM,
  OP_TRANSPOSE
};

typedef struct {
  const char *label;
  int src, op;
  int np_op;      /* the NumPy row ours is compared with (-1: none) */
  const char *fn; /* Lua B[fn] or Python G[fn]; NULL for C */
  double moved;   /* bytes moved per call, in units of NBYTES */
  int slow;       /* runs a quarter of the calls per loop (at least one) */
  long calls;     /* calls per loop */
  double best;    /* best loop time (ns) */
  double gbs;     /* bytes moved per second, in 1e9 */
} row;

static row rows[] = {
    {"C      memset(c, 0x3f, n)", SRC_C, OP_MEMSET, -1, NULL, 1, 0, 0, 0, 0},
    {"C      memcpy(c, a, n)", SRC_C, OP_MEMCPY, -1, NULL, 2, 0, 0, 0, 0},
    {"ours   c:fill_(1.5)", SRC_LUA, OP_FILL, OP_FILL, "fill", 1, 0, 0, 0, 0},
    {"NumPy  c.fill(1.5)", SRC_PY, OP_FILL, -1, "np_fill", 1, 0, 0, 0, 0},
    {"ours   c:copy_(a)", SRC_LUA, OP_COPY, OP_COPY, "copy", 2, 0, 0, 0, 0},
    {"NumPy  np.copyto(c, a)", SRC_PY, OP_COPY, -1, "np_copy", 2, 0, 0, 0, 0},
    {"ours   local r <close> = a:add(b)", SRC_LUA, OP_ADD, OP_ADD, "add_close", 3, 0, 0, 0, 0},
    {"ours   r = a:add(b) (collector frees)", SRC_LUA, OP_ADD_GC, OP_ADD, "add", 3, 0, 0, 0, 0},
    {"NumPy  r = a + b", SRC_PY, OP_ADD, -1, "np_add", 3, 0, 0, 0, 0},
    {"NumPy  np.add(a, b, out=c)", SRC_PY, OP_ADD_OUT, -1, "np_add_out", 3, 0, 0, 0, 0},
    {"ours   c:add_(b)", SRC_LUA, OP_ADD_, OP_ADD_, "add_", 3, 0, 0, 0, 0},
    {"NumPy  c += b", SRC_PY, OP_ADD_, -1, "np_iadd", 3, 0, 0, 0, 0},
    {"ours   a:sum()", SRC_LUA, OP_SUM, OP_SUM, "sum", 1, 0, 0, 0, 0},
    {"NumPy  a.sum()", SRC_PY, OP_SUM, -1, "np_sum", 1, 0, 0, 0, 0},
    {"ours   c2:copy_(a2:transpose(1, 2))", SRC_LUA, OP_TRANSPOSE, OP_TRANSPOSE, "transpose", 2, 0,
     0, 0, 0},
    {"NumPy  np.copyto(c2, a2.T)", SRC_PY, OP_TRANSPOSE, -1, "np_transpose", 2, 1, 0, 0, 0},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

static const row *find(int src, int op) {
  for (int r = 0; r < NROWS; r++)
    if (rows[r].src == src && rows[r].op == op) return &rows[r];
  return NULL;
}

/* ours / other, in bandwidth */
static double ratio(const row *ours, const row *other) { return ours->gbs / other->gbs; }

/* }====== */

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  long n = quick ? 2 : 4; /* calls per loop */
  int rounds = quick ? 3 : 25;
  double t_start = bench_now_ns();

  if (!open_python(argc, argv) || !open_lua()) return 2;
  double t_setup = bench_now_ns();

  for (int r = 0; r < NROWS; r++) rows[r].calls = rows[r].slow ? (n / 4 > 0 ? n / 4 : 1) : n;
  for (int round = 1; round <= rounds; round++) {
    for (int r = 0; r < NROWS; r++) {
      row *w = &rows[r];
      double dt;
      switch (w->src) {
        case SRC_C: dt = c_case(w->op == OP_MEMCPY, w->calls); break;
        case SRC_LUA:
          if (!lua_callb(w->fn, w->calls, 1, &dt)) dt = -1;
          break;
        default: dt = py_case(w->fn, w->calls); break;
      }
      if (dt < 0) return 2;
      if (round == 1 || dt < w->best) w->best = dt;
    }
  }
  for (int r = 0; r < NROWS; r++)
    rows[r].gbs = rows[r].moved * (double)NBYTES * (double)rows[r].calls / rows[r].best;

  char pyver[128], blas[256];
  py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  py_str("blas()", blas, sizeof blas);
  printf(
      "ltensor bulk operations against memset/memcpy and NumPy, %s mode: float32, %lld MiB "
      "(%lld elements; the transposed copy %lldx%lld), %ld calls per loop (NumPy's "
      "transposed copy %ld), best of %d rounds; %s, Python %s (%s)\n",
      quick ? "quick" : "full", NBYTES >> 20, NELEM, SIDE, SIDE, n, n / 4 > 0 ? n / 4 : 1, rounds,
      LUA_RELEASE, pyver, blas);
  printf(
      "(bytes moved count reads and writes once each: fill/memset n, copy/memcpy 2n, add 3n, "
      "add_ 3n, sum n, transposed copy 2n)\n");
  const row *mset = find(SRC_C, OP_MEMSET), *mcpy = find(SRC_C, OP_MEMCPY);
  printf("%-40s %9s %8s %9s %9s %9s\n", "case", "ms/call", "GB/s", "/memcpy", "/memset", "/NumPy");
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    char vs_set[16] = "", vs_np[16] = "";
    if (w->op == OP_FILL) snprintf(vs_set, sizeof vs_set, "%.2fx", ratio(w, mset));
    if (w->np_op >= 0) snprintf(vs_np, sizeof vs_np, "%.2fx", ratio(w, find(SRC_PY, w->np_op)));
    printf("%-40s %9.2f %8.2f %8.2fx %9s %9s\n", w->label, w->best / 1e6 / (double)w->calls, w->gbs,
           ratio(w, mcpy), vs_set, vs_np);
  }
  const row *add = find(SRC_LUA, OP_ADD), *add_gc = find(SRC_LUA, OP_ADD_GC);
  const row *add_out = find(SRC_PY, OP_ADD_OUT);
  printf(
      "(a:add(b) and a + b allocate their result: both pay for fresh pages on every call, "
      "which np.add(a, b, out=c) does not; ours against it: %.2fx, collector-freed %.2fx)\n",
      ratio(add, add_out), ratio(add_gc, add_out));

  static const int contig[] = {OP_FILL, OP_COPY, OP_ADD, OP_ADD_};
  static const char *const names[] = {"fill_", "copy_", "add", "add_"};
  int bw_pass = 1, np_pass = 1;
  char bw_list[256] = "", np_list[256] = "";
  for (int i = 0; i < 4; i++) {
    const row *o = find(SRC_LUA, contig[i]), *p = find(SRC_PY, contig[i]);
    double rb = ratio(o, mcpy), rn = ratio(o, p);
    bw_pass = bw_pass && rb >= CONTIG_GOAL;
    np_pass = np_pass && rn >= 1.0;
    size_t lb = strlen(bw_list), ln = strlen(np_list);
    snprintf(bw_list + lb, sizeof bw_list - lb, "%s%s %.2fx", i ? ", " : "", names[i], rb);
    snprintf(np_list + ln, sizeof np_list - ln, "%s%s %.2fx", i ? ", " : "", names[i], rn);
  }
  printf("contiguous ops >= %.1fx memcpy's bandwidth: %s (%s; add with <close>)\n", CONTIG_GOAL,
         bw_pass ? "PASS" : "MISS", bw_list);
  printf("contiguous ops no slower than NumPy: %s (%s; add with <close> against a + b)\n",
         np_pass ? "PASS" : "MISS", np_list);
  const row *sum = find(SRC_LUA, OP_SUM), *tr = find(SRC_LUA, OP_TRANSPOSE);
  double rs = ratio(sum, mcpy), rt = ratio(tr, mcpy);
  int sum_pass = rs >= SUM_GOAL, tr_pass = rt >= TRANSPOSE_GOAL;
  printf("sum >= %.1fx memcpy's bandwidth: %s (%.2fx; NumPy's a.sum() %.2fx)\n", SUM_GOAL,
         sum_pass ? "PASS" : "MISS", rs, ratio(find(SRC_PY, OP_SUM), mcpy));
  printf("transposed copy >= %.2fx memcpy's bandwidth: %s (%.2fx; NumPy's copyto %.2fx)\n",
         TRANSPOSE_GOAL, tr_pass ? "PASS" : "MISS", rt, ratio(find(SRC_PY, OP_TRANSPOSE), mcpy));
  printf("(%.1f s, %.1f s of it setting up and checking)\n", (bench_now_ns() - t_start) / 1e9,
         (t_setup - t_start) / 1e9);
  fflush(stdout);

  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  int pass = bw_pass && np_pass && sum_pass && tr_pass;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
