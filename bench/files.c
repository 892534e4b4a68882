/*
 * files.c -- bench_files: lt.load and lt.save of .npy files from Lua, against a plain read() of
 * the same file and NumPy's np.save in the same process.
 *
 *   mmap     lt.load(big, {mmap = true}) of a 256 MiB float32 .npy against the same of a 1 KiB
 *            one (goal: at most 3x: zero copy, the time does not grow with the size), and the
 *            resident memory it adds (goal: under a tenth of the file: nothing is read)
 *   read     lt.load(big) against open + read() of the whole cached file into a fresh buffer,
 *            in C (goal: at least 0.8x its speed)
 *   save     lt.save(path, t) against np.save(path, a) of the same 256 MiB of float32 (goal: at
 *            least 1.0x NumPy's speed); both reserve the file's blocks first (fallocate) and
 *            free the old file's (ours: the old file is unlinked after the new one replaced it)
 *
 * The files live in a fresh folder under $TMPDIR (or /tmp), written once before timing so that
 * loads read the page cache; every case runs interleaved with the others, one loop per round,
 * and keeps its best round (wall clock); saves, which the disk's write-back makes noisy, are
 * timed one at a time, three pairs a round, and keep their best. Ratios are the other side's time
 * over ours (above 1: ltensor is faster), except mmap's, big over small (below the goal: good).
 *
 * Usage: bench_files
 * Env:   LTENSOR_BENCH_QUICK=1   fewer rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, NumPy, Lua, the files).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <fcntl.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "ltensor.h"

#define NBIG ((long long)64 << 20) /* float32 elements: 256 MiB */
#define NSMALL 200                 /* float32 elements: about 1 KiB with the header */

static lua_State *L;
static int lua_ref = LUA_NOREF;
static char dir[256], big[300], small[300], out_lt[300], out_np[300];

/* B.name(n): n calls. BIG, SMALL: the two .npy files; OUT: where lt.save writes. */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local N, BIG, SMALL, OUT = ...\n"
    "local t = lt.arange(N, 'float32')\n"
    "lt.save(BIG, t)\n"
    "lt.save(SMALL, lt.arange(200, 'float32'))\n"
    "local B = {}\n"
    "function B.map_big(n) for _ = 1, n do local m <close> = lt.load(BIG, {mmap = true}) end end\n"
    "function B.map_small(n)\n"
    "  for _ = 1, n do local m <close> = lt.load(SMALL, {mmap = true}) end\n"
    "end\n"
    "function B.read_big(n) for _ = 1, n do local m <close> = lt.load(BIG) end end\n"
    "function B.save(n) for _ = 1, n do lt.save(OUT, t) end end\n"
    "function B.check()\n"
    "  local m = lt.load(BIG, {mmap = true})\n"
    "  assert(m:numel() == N and m[N] == t[N] and m[2] == 1 and m:is_read_only())\n"
    "  local r = lt.load(BIG)\n"
    "  assert(r:numel() == N and r[N] == t[N] and r[2] == 1 and not r:is_read_only())\n"
    "end\n"
    "function B.hold() HELD = lt.load(BIG, {mmap = true}) end\n"
    "function B.drop() HELD = nil; collectgarbage() end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; N and OUT_NP are set */
    "a = np.arange(N, dtype=np.float32)\n"
    "def np_save(n):\n"
    "    for _ in range(n): np.save(OUT_NP, a)\n"
    "def check(n):\n"
    "    b = np.load(OUT_NP)\n"
    "    assert b.shape == a.shape and b[-1] == a[-1] and b[1] == 1\n";

/* B[fn](n) once: its time in ns, or -1 (reported). */
static double lua_case(const char *fn, long n) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, lua_ref);
  lua_getfield(L, -1, fn);
  lua_pushinteger(L, n);
  lua_gc(L, LUA_GCCOLLECT);
  double t0 = bench_now_ns();
  int rc = lua_pcall(L, 1, 0, h);
  double dt = bench_now_ns() - t0;
  if (rc != LUA_OK) fprintf(stderr, "bench_files: lua %s: %s\n", fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  return rc == LUA_OK ? dt : -1;
}

static double py_case(const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  if (!f) return bench_py_done(NULL, -1, "bench_files", fn);
  double t0 = bench_now_ns();
  PyObject *r = PyObject_CallFunction(f, "(n)", (Py_ssize_t)n);
  return bench_py_done(r, bench_now_ns() - t0, "bench_files", fn);
}

/* n times: open the file, read() all of it into a fresh buffer, free it. */
static double c_read(const char *path, long n) {
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    off_t size = lseek(fd, 0, SEEK_END);
    lseek(fd, 0, SEEK_SET);
    char *buf = malloc((size_t)size);
    size_t got = 0;
    while (buf && got < (size_t)size) {
      ssize_t r = read(fd, buf + got, (size_t)size - got);
      if (r <= 0) break;
      got += (size_t)r;
    }
    close(fd);
    free(buf);
    if (got != (size_t)size) return -1;
  }
  return bench_now_ns() - t0;
}

static void cleanup(void) {
  const char *files[] = {big, small, out_lt, out_np};
  for (int i = 0; i < 4; i++)
    if (files[i][0]) unlink(files[i]);
  if (dir[0]) rmdir(dir);
}

typedef struct {
  const char *label;
  double ours, other; /* best loop times, ns */
  long calls;
} row;

/* The resident memory (MiB) one mapped 256 MiB tensor adds while held, nothing read; -2 when
   a case failed. */
static double mapped_rss_mib(void) {
  long rss0 = 0, rss1 = 0, pages, res0 = 0, res1 = 0;
  lua_gc(L, LUA_GCCOLLECT);
  FILE *f = fopen("/proc/self/statm", "r");
  if (f && fscanf(f, "%ld %ld", &pages, &res0) == 2) rss0 = res0;
  if (f) fclose(f);
  if (lua_case("hold", 0) < 0) return -2;
  f = fopen("/proc/self/statm", "r");
  if (f && fscanf(f, "%ld %ld", &pages, &res1) == 2) rss1 = res1;
  if (f) fclose(f);
  if (lua_case("drop", 0) < 0) return -2;
  return (double)(rss1 - rss0) * (double)sysconf(_SC_PAGESIZE) / (1 << 20);
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  int rounds = quick ? 2 : 5;
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/bench-files-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("bench_files: mkdtemp");
    return 2;
  }
  snprintf(big, sizeof big, "%s/big.npy", dir);
  snprintf(small, sizeof small, "%s/small.npy", dir);
  snprintf(out_lt, sizeof out_lt, "%s/out_lt.npy", dir);
  snprintf(out_np, sizeof out_np, "%s/out_np.npy", dir);
  atexit(cleanup);

  static const char *const names[] = {"N"};
  const long long values[] = {NBIG};
  G = bench_py_open(argc, argv, "bench_files", "OUT_NP = None\n", names, values, 1);
  if (!G) return 2;
  PyObject *p = PyUnicode_FromString(out_np);
  if (!p || PyDict_SetItemString(G, "OUT_NP", p) != 0) return 2;
  Py_DECREF(p);
  PyObject *r = PyRun_String(py_code, Py_file_input, G, G);
  if (!r) {
    bench_py_done(NULL, -1, "bench_files", "set-up");
    return 2;
  }
  Py_DECREF(r);
  L = bench_lua_open("bench_files");
  if (!L) return 2;
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  if (luaL_loadbuffer(L, lua_chunk, strlen(lua_chunk), "=bench_files") != LUA_OK) return 2;
  lua_pushinteger(L, NBIG);
  lua_pushstring(L, big);
  lua_pushstring(L, small);
  lua_pushstring(L, out_lt);
  if (lua_pcall(L, 4, 1, h) != LUA_OK) {
    fprintf(stderr, "bench_files: lua: %s\n", lua_tostring(L, -1));
    return 2;
  }
  lua_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 1);
  if (lua_case("check", 0) < 0) return 2;

  double rss_mib = mapped_rss_mib();
  if (rss_mib < -1) return 2;

  row rows[] = {
      {"mmap load 256 MiB / 1 KiB", 0, 0, quick ? 200 : 1000},
      {"read load / plain read()", 0, 0, quick ? 2 : 4},
      {"lt.save / np.save", 0, 0, 1},
  };
  for (int round = 1; round <= rounds; round++) {
    double mb = lua_case("map_big", rows[0].calls), ms = lua_case("map_small", rows[0].calls);
    double rl = lua_case("read_big", rows[1].calls), rc = c_read(big, rows[1].calls);
    if (mb < 0 || ms < 0 || rl < 0 || rc < 0) return 2;
    /* saves: the disk's write-back makes single saves noisy; each pair is timed on its own and
       the best single save of each side kept */
    for (int k = 0; k < (quick ? 1 : 3); k++) {
      double sl = lua_case("save", 1), sn = py_case("np_save", 1);
      if (sl < 0 || sn < 0) return 2;
      if ((round == 1 && k == 0) || sl < rows[2].ours) rows[2].ours = sl;
      if ((round == 1 && k == 0) || sn < rows[2].other) rows[2].other = sn;
    }
    const double ours[] = {mb, rl}, other[] = {ms, rc};
    for (int i = 0; i < 2; i++) {
      if (round == 1 || ours[i] < rows[i].ours) rows[i].ours = ours[i];
      if (round == 1 || other[i] < rows[i].other) rows[i].other = other[i];
    }
  }
  if (py_case("check", 0) < 0) return 2;

  char pyver[128];
  bench_py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  printf(
      "ltensor files (.npy) against a plain read() and NumPy, %s mode, best of %d rounds; "
      "%s, Python %s; files in %s\n",
      quick ? "quick" : "full", rounds, LUA_RELEASE, pyver, dir);
  printf("%-30s %12s %12s %8s %8s\n", "case", "ours ms", "other ms", "ratio", "goal");
  double ratio_map = rows[0].ours / rows[0].other;
  double ratio_read = rows[1].other / rows[1].ours, ratio_save = rows[2].other / rows[2].ours;
  double c0 = (double)rows[0].calls, c1 = (double)rows[1].calls, c2 = (double)rows[2].calls;
  int ok_map = ratio_map <= 3.0, ok_rss = rss_mib < 25.6, ok_read = ratio_read >= 0.8,
      ok_save = ratio_save >= 1.0;
  printf("%-30s %12.4f %12.4f %7.2fx %7s  %s\n", rows[0].label, rows[0].ours / 1e6 / c0,
         rows[0].other / 1e6 / c0, ratio_map, "<= 3x", ok_map ? "PASS" : "MISS");
  printf("%-30s %12.1f %12s %8s %8s  %s\n", "mmap resident growth (MiB)", rss_mib, "", "", "< 25.6",
         ok_rss ? "PASS" : "MISS");
  printf("%-30s %12.2f %12.2f %7.2fx %7s  %s  (ours %.1f GB/s)\n", rows[1].label,
         rows[1].ours / 1e6 / c1, rows[1].other / 1e6 / c1, ratio_read, ">= 0.8x",
         ok_read ? "PASS" : "MISS", 4.0 * NBIG / (rows[1].ours / c1));
  printf("%-30s %12.2f %12.2f %7.2fx %7s  %s  (ours %.1f GB/s)\n", rows[2].label,
         rows[2].ours / 1e6 / c2, rows[2].other / 1e6 / c2, ratio_save, ">= 1.0x",
         ok_save ? "PASS" : "MISS", 4.0 * NBIG / (rows[2].ours / c2));
  int pass = ok_map && ok_rss && ok_read && ok_save;
  bench_record("files", rows[0].label, 0, rows[0].ours / c0, rows[0].other / c0, "1 KiB file, mmap",
               ratio_map, "<=", 3.0);
  bench_record("files", "mmap resident growth", 0, rss_mib, 25.6, "a tenth of the file [MiB]",
               rss_mib / 25.6, "<=", 1.0);
  bench_record("files", rows[1].label, 0, rows[1].ours / c1, rows[1].other / c1, "read()",
               ratio_read, ">=", 0.8);
  bench_record("files", rows[2].label, 0, rows[2].ours / c2, rows[2].other / c2, "np.save",
               ratio_save, ">=", 1.0);
  printf(
      "goals (mmap <= 3x a 1 KiB file and no resident growth; read >= 0.8x read(); save >= "
      "1.0x np.save): %s (mmap %.2fx, rss %.1f MiB, read %.2fx, save %.2fx)\n",
      pass ? "PASS" : "MISS", ratio_map, rss_mib, ratio_read, ratio_save);
  luaL_unref(L, LUA_REGISTRYINDEX, lua_ref);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return !pass && bench_flag("LTENSOR_BENCH_STRICT") ? 1 : 0;
}
