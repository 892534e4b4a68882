/*
 * dlpack.c -- bench_dlpack: the cost of one DLPack round trip, ltensor in Lua against NumPy.
 *
 * One process embeds CPython (with NumPy) and Lua 5.4 (with ltensor linked statically) and
 * times, in the same run, for a float32 tensor of 1 KiB and one of 256 MiB:
 *
 *   ours   dlpack.from_dlpack(t:__dlpack(opts))     opts = {max_version = {1, 3}} built once
 *   ours   dlpack.from_dlpack(t:__dlpack{max_version = {1, 3}})   opts built per call
 *   ours   the first form with the collector left alone (see below)
 *   ours   lt.from_dlpack(t)                        an ltensor tensor, no capsule: a new tensor
 *                                                   userdata sharing t's memory
 *   ours   t:__dlpack(opts) alone                   the export half, opts built once: the capsule
 *                                                   is dropped unconsumed, so its __gc runs the
 *                                                   deleter (a consumed one's does nothing): an
 *                                                   upper bound on the export's share
 *   table  {max_version = {1, 3}} alone             what the script's options cost
 *   floor  a C function that makes two minimal userdata with a C __gc (a capsule's, handed a
 *          malloc'd block, and a tensor's size, which takes the block over and frees it when
 *          collected), metatables held as upvalues: the least a round trip through a capsule
 *          can cost in Lua, timed like the rest
 *   NumPy  np.from_dlpack(a)                        NumPy's own export and import
 *
 * A round trip exports a managed tensor and imports it as a new tensor over the same memory:
 * its cost must not depend on the size (zero copy). Each loop runs in its own interpreter (a Lua
 * for loop, a Python for loop); this file times one call of the loop with
 * clock_gettime(CLOCK_THREAD_CPUTIME_ID) (both interpreters run on this thread, and time it
 * spends descheduled on a busy machine is not counted), and every case keeps its best round.
 * The cases run interleaved, one loop of each per round.
 *
 * Verdicts, each a PASS/MISS line: zero copy (256 MiB within 1.2x of 1 KiB), the round trip
 * as scripts write it, opts built per call, at most 1.0x NumPy's (the hoisted form is shown too),
 * and lt.from_dlpack(t) at most 2x the floor. Every row also goes through bench_record.
 *
 * Every loop returns its last import, which is checked: same dtype, shape and data pointer as
 * the source, and writes seen across (both ways in Lua; NumPy 1.x imports are read-only, so
 * there from the source only). NumPy frees by reference counting. In Lua the first two loops
 * call collectgarbage("step", 0) every GC_STEP round trips, inside the timing: Lua 5.4's
 * incremental collector left to itself does not keep up with garbage userdata that have C
 * finalizers (capsules, tensors), and ltensor accounts no memory for an import, so the heap
 * grows with the length of the loop -- the third row shows it. A full collection runs before
 * each loop, outside the timing, and one after it, inside: every loop pays for collecting all
 * the garbage it made (finalizers and frees included). The Lua heap printed is the most seen at
 * the end of a loop, before that collection.
 *
 * The embedded Python is the one python3-embed names (Debian's, with python3-numpy), whatever
 * `python3` is on PATH (see spec/c/numpy_host.c).
 *
 * Usage: bench_dlpack
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (< 2 s)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a verdict is MISS
 * Exit status 2 when something fails (Python, NumPy, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "ltensor.h"

#define SMALL_BYTES ((long long)1 << 10)
#define BIG_BYTES ((long long)256 << 20)
#define ZERO_COPY_GOAL 1.2 /* 256 MiB within this factor of 1 KiB */
#define NUMPY_GOAL 1.0     /* ours (opts built per call) / NumPy per call */
#define GC_STEP 256        /* round trips between two collectgarbage("step", 0) in the loops */
#define FLOOR_GOAL 2.0     /* lt.from_dlpack(t) / floor per call */
#define FLOOR_BYTES 192    /* the floor's malloc: about an export's (managed tensor, dims) */

/* {====== the Lua side ====== */

static lua_State *L;
static int lua_bench_ref = LUA_NOREF; /* the table the chunk below returns */

/* The floor's two userdata: the first (a capsule's: one pointer) is handed a malloc'd block, the
   second (a tensor userdata's size and one user value) takes it over, and the first gets a
   metatable without __gc, as a consumed capsule does; one __gc frees what a block still holds. */
static int floor_gc(lua_State *S) {
  void **p = lua_touserdata(S, 1);
  free(*p);
  *p = NULL;
  return 0;
}

static int floor_pair(lua_State *S) {
  void **cap = lua_newuserdatauv(S, sizeof(void *), 0);
  *cap = NULL;
  lua_pushvalue(S, lua_upvalueindex(1));
  lua_setmetatable(S, -2);
  if (!(*cap = malloc(FLOOR_BYTES))) return luaL_error(S, "not enough memory");
  void **t = lua_newuserdatauv(S, 4 * sizeof(void *), 1);
  t[0] = NULL;
  lua_pushvalue(S, lua_upvalueindex(1));
  lua_setmetatable(S, -2);
  t[0] = *cap; /* consumed: as a used capsule, a metatable without __gc (no finalizer call) */
  *cap = NULL;
  lua_pushvalue(S, lua_upvalueindex(2));
  lua_setmetatable(S, -3);
  return 1;
}

/* The global bench_floor, which the chunk takes as a local. */
static void register_floor(lua_State *S) {
  lua_createtable(S, 0, 1);
  lua_pushcfunction(S, floor_gc);
  lua_setfield(S, -2, "__gc");
  lua_createtable(S, 0, 0);
  lua_pushcclosure(S, floor_pair, 2);
  lua_setglobal(S, "bench_floor");
}

/* The loops. `dlpack` is a local of the chunk, as `np` is a global of the Python module: both
   sides look the function up in their module on every call. */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local dlpack = require 'ltensor.dlpack'\n"
    "local collectgarbage = collectgarbage\n"
    "local floor = bench_floor\n"
    "local SMALL, BIG, STEP = ...\n"
    "local OPTS = {max_version = {1, 3}}\n"
    "local B = {}\n"
    "B.small = lt.zeros(SMALL // 4, 'float32')\n"
    "B.big = lt.zeros(BIG // 4, 'float32')\n"
    "-- n is a multiple of STEP: a basic GC step after every STEP round trips\n"
    "function B.hoisted(t, n)\n"
    "  local u\n"
    "  for _ = 1, n // STEP do\n"
    "    for _ = 1, STEP do u = dlpack.from_dlpack(t:__dlpack(OPTS)) end\n"
    "    collectgarbage('step', 0)\n"
    "  end\n"
    "  return u\n"
    "end\n"
    "function B.percall(t, n)\n"
    "  local u\n"
    "  for _ = 1, n // STEP do\n"
    "    for _ = 1, STEP do u = dlpack.from_dlpack(t:__dlpack{max_version = {1, 3}}) end\n"
    "    collectgarbage('step', 0)\n"
    "  end\n"
    "  return u\n"
    "end\n"
    "function B.alias(t, n)\n"
    "  local u\n"
    "  for _ = 1, n // STEP do\n"
    "    for _ = 1, STEP do u = lt.from_dlpack(t) end\n"
    "    collectgarbage('step', 0)\n"
    "  end\n"
    "  return u\n"
    "end\n"
    "function B.export(t, n)\n"
    "  local u\n"
    "  for _ = 1, n // STEP do\n"
    "    for _ = 1, STEP do u = t:__dlpack(OPTS) end\n"
    "    collectgarbage('step', 0)\n"
    "  end\n"
    "  return u\n"
    "end\n"
    "function B.table(t, n)\n"
    "  local u\n"
    "  for _ = 1, n // STEP do\n"
    "    for _ = 1, STEP do u = {max_version = {1, 3}} end\n"
    "    collectgarbage('step', 0)\n"
    "  end\n"
    "  return u\n"
    "end\n"
    "function B.floor(t, n)\n"
    "  local u\n"
    "  for _ = 1, n // STEP do\n"
    "    for _ = 1, STEP do u = floor() end\n"
    "    collectgarbage('step', 0)\n"
    "  end\n"
    "  return u\n"
    "end\n"
    "-- the collector left to itself (default incremental mode, no step, no accounting)\n"
    "function B.gc_alone(t, n)\n"
    "  local u\n"
    "  for _ = 1, n do u = dlpack.from_dlpack(t:__dlpack(OPTS)) end\n"
    "  return u\n"
    "end\n"
    "-- the table and the floor loops: their last value\n"
    "function B.check_table(t, u) return u.max_version[2] == 3 end\n"
    "function B.check_floor(t, u) return type(u) == 'userdata' end\n"
    "function B.check_capsule(t, u) return tostring(u):find('dltensor_versioned', 1, true) end\n"
    "-- u is the last import of t: the same memory, seen both ways\n"
    "function B.check(t, u, k)\n"
    "  assert(lt.is_tensor(u), 'not a tensor')\n"
    "  assert(u.dtype == 'float32' and u:numel() == t:numel() and u:dim() == 1,\n"
    "         'the import has another dtype or shape')\n"
    "  assert(u:data_ptr() == t:data_ptr(), 'the import does not share the memory')\n"
    "  u[1] = k\n"
    "  assert(t[1] == k, 'a write through the import is not seen by the source')\n"
    "  t[1] = 0\n"
    "  assert(u[1] == 0, 'a write through the source is not seen by the import')\n"
    "  return true\n"
    "end\n"
    "assert(B.small:nbytes() == SMALL and B.big:nbytes() == BIG)\n"
    "return B\n";

static int open_lua(void) {
  L = bench_lua_open("bench_dlpack");
  if (L) register_floor(L);
  const lua_Integer args[] = {SMALL_BYTES, BIG_BYTES, GC_STEP};
  if (L) lua_bench_ref = bench_lua_chunk(L, "bench_dlpack", lua_chunk, args, 3);
  return lua_bench_ref != LUA_NOREF;
}

/* Calls B[fn](B[tensor], n) once, then a full collection, and returns the time of both in ns, or
   -1 (reported). Checks the result with B[check]; *heap_kb is the Lua heap right after the loop,
   before the collection. */
static double lua_case(const char *fn, const char *check, const char *tensor, long n, int k,
                       double *heap_kb) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_bench_ref);
  int b = lua_gettop(L);
  lua_getfield(L, b, fn);
  lua_getfield(L, b, tensor);
  lua_pushinteger(L, n);
  lua_gc(L, LUA_GCCOLLECT); /* the garbage of the other cases is not collected in this one's time */
  double t0 = bench_cpu_ns();
  int rc = lua_pcall(L, 2, 1, h);
  double t1 = bench_cpu_ns();
  *heap_kb = lua_gc(L, LUA_GCCOUNT) + lua_gc(L, LUA_GCCOUNTB) / 1024.0;
  double t2 = bench_cpu_ns();
  lua_gc(L, LUA_GCCOLLECT); /* all the garbage of the loop, in its time (the result is held) */
  double dt = (t1 - t0) + (bench_cpu_ns() - t2);
  if (rc == LUA_OK) {
    lua_getfield(L, b, check); /* check(t, u, k) */
    lua_getfield(L, b, tensor);
    lua_pushvalue(L, -3);
    lua_pushinteger(L, k);
    rc = lua_pcall(L, 3, 1, h);
    if (rc == LUA_OK && !lua_toboolean(L, -1)) {
      lua_pushliteral(L, "the check failed");
      rc = LUA_ERRRUN;
    }
  }
  if (rc != LUA_OK) {
    fprintf(stderr, "bench_dlpack: lua %s(%s): %s\n", fn, tensor, lua_tostring(L, -1));
    dt = -1;
  }
  lua_settop(L, h - 1);
  lua_gc(L, LUA_GCCOLLECT);
  return dt;
}

/* }====== */

/* {====== the Python side ====== */

static const char py_code[] = /* run after import sys, numpy as np */
    "small = np.zeros(SMALL // 4, np.float32)\n"
    "big = np.zeros(BIG // 4, np.float32)\n"
    "assert small.nbytes == SMALL and big.nbytes == BIG\n"
    "def np_loop(a, n):\n"
    "    for _ in range(n):\n"
    "        b = np.from_dlpack(a)\n"
    "    return b\n"
    "def np_check(a, b, k):\n"
    "    assert type(b) is np.ndarray and b.dtype == np.float32 and b.shape == a.shape, \\\n"
    "        'the import has another dtype or shape'\n"
    "    ptr = lambda x: x.__array_interface__['data'][0]\n"
    "    assert ptr(b) == ptr(a), 'the import does not share the memory'\n"
    "    a[0] = k  # NumPy 1.x makes DLPack imports read-only: write through the source\n"
    "    assert b[0] == k, 'a write through the source is not seen by the import'\n"
    "    a[0] = 0\n"
    "    return True\n";

static PyObject *np_loop, *np_check;

static int open_python(int argc, char **argv) {
  static const char *const names[] = {"SMALL", "BIG"};
  static const long long values[] = {SMALL_BYTES, BIG_BYTES};
  G = bench_py_open(argc, argv, "bench_dlpack", py_code, names, values, 2);
  if (!G) return 0;
  np_loop = PyDict_GetItemString(G, "np_loop"); /* borrowed, kept alive by G */
  np_check = PyDict_GetItemString(G, "np_check");
  if (!np_loop || !np_check) goto fail;
  return 1;
fail:
  if (PyErr_Occurred()) PyErr_Print();
  fprintf(stderr, "bench_dlpack: cannot set up Python\n");
  return 0;
}

/* Calls np_loop(G[array], n) once; its time in ns, or -1 (reported). Checks the result. */
static double py_case(const char *array, long n, int k) {
  PyObject *a = PyDict_GetItemString(G, array); /* borrowed */
  double dt = -1;
  PyObject *b = a ? bench_py_time(np_loop, &dt, "(On)", a, (Py_ssize_t)n) : NULL;
  PyObject *ok = b ? PyObject_CallFunction(np_check, "OOi", a, b, k) : NULL;
  Py_XDECREF(b);
  return bench_py_done(ok, dt, "bench_dlpack", array);
}

/* }====== */

/* {====== the cases ====== */

enum { OURS, OURS_PERCALL, OURS_GC_ALONE, ALIAS, EXPORT, TABLE, FLOOR, NUMPY, NROWS };

typedef struct {
  const char *label;
  const char *lua_fn; /* NULL: NumPy */
  const char *check;  /* the Lua function that checks the loop's last value */
  double best[2];     /* best loop time (ns) at 1 KiB, 256 MiB */
  double heap_kb[2];  /* Lua heap at the end of a loop, the most seen */
  double ns[2];       /* per call */
} row;

static row rows[NROWS] = {
    {"ours   from_dlpack(t:__dlpack(opts))", "hoisted", "check", {0}, {0}, {0}},
    {"ours   from_dlpack(t:__dlpack{max_version=...})", "percall", "check", {0}, {0}, {0}},
    {"ours   opts once, GC left alone (no step)", "gc_alone", "check", {0}, {0}, {0}},
    {"ours   lt.from_dlpack(t), no capsule", "alias", "check", {0}, {0}, {0}},
    {"ours   t:__dlpack(opts) alone (export half)", "export", "check_capsule", {0}, {0}, {0}},
    {"table  {max_version = {1, 3}} alone", "table", "check_table", {0}, {0}, {0}},
    {"floor  two userdata with __gc + one malloc", "floor", "check_floor", {0}, {0}, {0}},
    {"NumPy  np.from_dlpack(a)", NULL, NULL, {0}, {0}, {0}},
};

/* }====== */

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  long n = quick ? 40L * GC_STEP : 400L * GC_STEP; /* round trips per loop */
  int rounds = quick ? 5 : 7;
  double t_start = bench_now_ns();

  if (!open_python(argc, argv) || !open_lua()) return 2;

  static const char *const names[2] = {"small", "big"}; /* the tensors, and the arrays */
  for (int round = 1; round <= rounds; round++) {
    for (int r = 0; r < NROWS; r++) {
      for (int s = 0; s < 2; s++) {
        row *w = &rows[r];
        int k = round * 16 + r * 2 + s + 1; /* the value the check writes */
        double heap = 0;
        double dt = w->lua_fn ? lua_case(w->lua_fn, w->check, names[s], n, k, &heap)
                              : py_case(names[s], n, k);
        if (dt < 0) return 2;
        if (heap > w->heap_kb[s]) w->heap_kb[s] = heap;
        if (round == 1 || dt < w->best[s]) w->best[s] = dt;
      }
    }
  }
  for (int r = 0; r < NROWS; r++)
    for (int s = 0; s < 2; s++) rows[r].ns[s] = rows[r].best[s] / (double)n;

  PyObject *ver =
      PyRun_String("sys.version.split()[0] + ', NumPy ' + np.__version__", Py_eval_input, G, G);
  const char *vs = ver ? PyUnicode_AsUTF8(ver) : NULL;
  printf(
      "ltensor DLPack round trip against NumPy, %s mode: float32 1 KiB (%lld elements) and "
      "256 MiB (%lld), %ld calls per loop, best of %d rounds; %s, Python %s\n",
      quick ? "quick" : "full", SMALL_BYTES / 4, BIG_BYTES / 4, n, rounds, LUA_RELEASE,
      vs ? vs : "?");
  if (!vs) PyErr_Clear();
  Py_XDECREF(ver);
  printf("%-48s %9s %9s %9s %9s %9s %10s\n", "case (ns per call)", "1 KiB", "256 MiB", "256M/1K",
         "/NumPy 1K", "/NumPy 256M", "Lua heap");
  const row *np_row = &rows[NUMPY];
  for (int r = 0; r < NROWS; r++) {
    const row *w = &rows[r];
    char heap[32] = "-";
    if (w->lua_fn)
      snprintf(heap, sizeof heap, "%.0f KiB",
               w->heap_kb[0] > w->heap_kb[1] ? w->heap_kb[0] : w->heap_kb[1]);
    printf("%-48s %9.1f %9.1f %8.2fx %8.2fx %10.2fx %10s\n", w->label, w->ns[0], w->ns[1],
           w->ns[1] / w->ns[0], w->ns[0] / np_row->ns[0], w->ns[1] / np_row->ns[1], heap);
  }
  printf(
      "(opts = {max_version = {1, 3}} built once; every Lua loop but the third calls "
      "collectgarbage(\"step\", 0) every %d calls, and each ends with a full collection, all "
      "inside the timing; Lua heap: the most seen at the end of a loop, before that collection)\n",
      GC_STEP);

  const row *ours = &rows[OURS], *pc = &rows[OURS_PERCALL];
  double zc = ours->ns[1] / ours->ns[0], zc_pc = pc->ns[1] / pc->ns[0];
  int zc_pass = zc <= ZERO_COPY_GOAL && zc_pc <= ZERO_COPY_GOAL;
  printf(
      "zero copy: 256 MiB within %.1fx of 1 KiB: %s (ours %.2fx, opts per call %.2fx; "
      "NumPy %.2fx)\n",
      ZERO_COPY_GOAL, zc_pass ? "PASS" : "MISS", zc, zc_pc, np_row->ns[1] / np_row->ns[0]);
  /* the goal is for the form scripts write, the opts table built per call */
  double vs0 = pc->ns[0] / np_row->ns[0], vs1 = pc->ns[1] / np_row->ns[1];
  int np_pass = vs0 <= NUMPY_GOAL && vs1 <= NUMPY_GOAL;
  printf(
      "ours (opts per call) no slower than NumPy per call (ratio <= %.1f): %s (1 KiB %.2fx, "
      "256 MiB %.2fx; opts hoisted %.2fx, %.2fx)\n",
      NUMPY_GOAL, np_pass ? "PASS" : "MISS", vs0, vs1, ours->ns[0] / np_row->ns[0],
      ours->ns[1] / np_row->ns[1]);
  const row *al = &rows[ALIAS], *fl = &rows[FLOOR], *tb = &rows[TABLE];
  double fa0 = al->ns[0] / fl->ns[0], fa1 = al->ns[1] / fl->ns[1];
  int floor_pass = fa0 <= FLOOR_GOAL && fa1 <= FLOOR_GOAL;
  printf("lt.from_dlpack(t) at most %.1fx the floor: %s (1 KiB %.2fx, 256 MiB %.2fx)\n", FLOOR_GOAL,
         floor_pass ? "PASS" : "MISS", fa0, fa1);
  printf(
      "where the round trip's time goes (1 KiB): floor %.0f ns + the options table %.0f ns = "
      "%.0f ns (%.2fx NumPy's); ours %.0f ns is %.2fx that\n",
      fl->ns[0], tb->ns[0], fl->ns[0] + tb->ns[0], (fl->ns[0] + tb->ns[0]) / np_row->ns[0],
      pc->ns[0], pc->ns[0] / (fl->ns[0] + tb->ns[0]));
  static const char *const size_names[2] = {"1 KiB", "256 MiB"};
  const char *B = "bench_dlpack";
  for (int s = 0; s < 2; s++) {
    char label[96];
    for (int r = 0; r < NUMPY; r++) {
      if (r == ALIAS) continue;
      snprintf(label, sizeof label, "%s, %s", rows[r].label, size_names[s]);
      int goal = r == OURS_PERCALL;
      bench_record(B, label, 0, rows[r].ns[s], np_row->ns[s], "NumPy",
                   np_row->ns[s] / rows[r].ns[s], goal ? ">=" : "", 1.0 / NUMPY_GOAL);
    }
    snprintf(label, sizeof label, "%s, %s", al->label, size_names[s]);
    bench_record(B, label, 0, al->ns[s], fl->ns[s], "floor", al->ns[s] / fl->ns[s],
                 "<=", FLOOR_GOAL);
  }
  bench_record(B, "zero copy: opts per call, 256 MiB against 1 KiB", 0, pc->ns[1], pc->ns[0],
               "1 KiB", zc_pc, "<=", ZERO_COPY_GOAL);
  bench_record(B, "round trip (opts per call) against floor + table, 1 KiB", 0, pc->ns[0],
               fl->ns[0] + tb->ns[0], "floor+table", pc->ns[0] / (fl->ns[0] + tb->ns[0]), "", 0);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);

  lua_close(L); /* Lua first: a host closes the side that may hold the other's tensors first */
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !(zc_pass && np_pass && floor_pass) ? 1 : 0;
}
