/*
 * bench.h -- the harness every bench shares (header-only; each bench is one .c file):
 * clocks in ns, the LTENSOR_BENCH_* switches, a Lua message handler with a traceback, and the
 * Lua state a bench runs in, with ltensor loaded either way a host can load it; for the benches
 * that embed CPython, its set-up. Include after pylua.h where a bench embeds Python (Python.h
 * must come first; the Python part is compiled only then).
 */
#ifndef BENCH_H
#define BENCH_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <dirent.h>
#include <unistd.h>
#endif

#include "ltensor.h"

static inline double bench_clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* This thread's CPU time: on a shared machine a loop that loses the CPU for a while is not
   charged for it. */
static inline double bench_cpu_ns(void) { return bench_clock_ns(CLOCK_THREAD_CPUTIME_ID); }
static inline double bench_now_ns(void) { return bench_clock_ns(CLOCK_MONOTONIC); }

/* Waits (up to 0.5 s) until no other thread of this process is running: a timed loop then starts
   with the CPUs to itself. The benches that embed CPython time torch or NumPy and ltensor
   alternately in one process, and libraries that keep their threads spinning after a call go on
   taking a CPU after it returns: OpenBLAS's threads call sched_yield for about 0.1 s after a
   threaded product (torch's conv_transpose2d, even at torch.set_num_threads(1)), libgomp's spin
   a while. On 2 CPUs, a 2-thread loop that starts then shares them with that thread: ltensor's
   conv2d at 2 threads measured 1.0 ms a call after torch's conv_transpose2d in the same process,
   0.6 ms in a process of its own. Where /proc is missing it does not wait. */
static inline void bench_quiet(void) {
#if defined(__linux__)
  for (int waited = 0; waited < 500; waited++) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return;
    int busy = 0;
    for (struct dirent *e; !busy && (e = readdir(d));) {
      char path[64], buf[512];
      long tid = strtol(e->d_name, NULL, 10);
      if (tid <= 0 || tid == (long)getpid()) continue; /* the benches time on the main thread */
      snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
      FILE *f = fopen(path, "r");
      if (!f) continue;
      size_t n = fread(buf, 1, sizeof buf - 1, f);
      fclose(f);
      buf[n] = 0;
      const char *state = strrchr(buf, ')'); /* the name in parentheses may hold anything */
      busy = state && state[1] == ' ' && state[2] == 'R';
    }
    closedir(d);
    if (!busy) return;
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
#endif
}

/* An environment switch (LTENSOR_BENCH_QUICK, LTENSOR_BENCH_STRICT): set and not "0". */
static inline int bench_flag(const char *name) {
  const char *v = getenv(name);
  return v && v[0] && v[0] != '0';
}

/* A message handler for lua_pcall: the message with a traceback. */
static inline int bench_msgh(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

/* A state with the standard libraries and ltensor_open() (the Lua layer compiled in); NULL
   after printing why, prefixed by `who`. */
static inline lua_State *bench_lua_open(const char *who) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "%s: cannot create a Lua state\n", who);
    return NULL;
  }
  luaL_openlibs(L);
  if (ltensor_open(L) != LTENSOR_OK) { /* require "ltensor" from the sources compiled in */
    fprintf(stderr, "%s: ltensor_open: %s\n", who, lua_tostring(L, -1));
    lua_close(L);
    return NULL;
  }
  return L;
}

/* Runs `chunk` with the integer arguments args[0..nargs-1] and returns a registry reference to
   its result (the bench's table of loops), or LUA_NOREF after printing the error. */
static inline int bench_lua_chunk(lua_State *L, const char *who, const char *chunk,
                                  const lua_Integer *args, int nargs) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  char name[64];
  snprintf(name, sizeof name, "=%s", who);
  int rc = luaL_loadbuffer(L, chunk, strlen(chunk), name);
  if (rc == LUA_OK) {
    for (int i = 0; i < nargs; i++) lua_pushinteger(L, args[i]);
    rc = lua_pcall(L, nargs, 1, h);
  }
  if (rc != LUA_OK) {
    fprintf(stderr, "%s: lua: %s\n", who, lua_tostring(L, -1));
    lua_settop(L, h - 1);
    return LUA_NOREF;
  }
  int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 1); /* the handler */
  return ref;
}

#ifdef LTENSOR_SOURCE_DIR
/* A state that loads ltensor as lua5.4 does: ltensor.core registered (linked in), the Lua layer
   found in the source tree. Exits with status 2 when no state can be made. */
static inline lua_State *bench_lua_source(const char *who) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "%s: cannot create a Lua state\n", who);
    exit(2);
  }
  luaL_openlibs(L);
  luaL_requiref(L, "ltensor.core", luaopen_ltensor_core, 0);
  lua_pop(L, 1);
  lua_getglobal(L, "package");
  lua_pushstring(L, LTENSOR_SOURCE_DIR "/lua/?.lua;" LTENSOR_SOURCE_DIR "/lua/?/init.lua;");
  lua_getfield(L, -2, "path");
  lua_concat(L, 2);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  return L;
}
#endif

/* {====== the summary table ======
 *
 * `make bench` ends with one table of every row every bench measured: each bench appends its
 * rows, one tab-separated line each, to the file LTENSOR_BENCH_RECORD names (nothing when it is
 * unset), and tools/bench_table.lua prints them. A row: the bench, the case, the thread count it
 * ran at (0: not threaded), ours and the reference's time per call in ns (or any unit both share),
 * the reference's name ("NumPy", "torch", "memcpy floor", ...), the ratio the goal is about,
 * the comparison (">=": the ratio must reach the goal, as reference/ours; "<=": it must not
 * exceed it, as ours/floor; "": information only), and the goal. Returns whether it passed.
 * The table prints ours and the reference as times (ns, us, ms, s) unless the reference's name
 * ends with a unit in brackets ("goal [MiB]"): then as plain numbers of that unit. */
static inline int bench_record(const char *bench, const char *label, int threads, double ours,
                               double ref, const char *ref_name, double ratio, const char *cmp,
                               double goal) {
  int info = !cmp || !cmp[0];
  int pass = info || (cmp[0] == '>' ? ratio >= goal : ratio <= goal);
  const char *path = getenv("LTENSOR_BENCH_RECORD");
  FILE *f = path && path[0] ? fopen(path, "a") : NULL;
  if (f) {
    fprintf(f, "%s\t%s\t%d\t%.6g\t%s\t%.6g\t%.4g\t%s\t%.4g\t%s\n", bench, label, threads, ours,
            ref_name, ref, ratio, info ? "" : cmp, info ? 0.0 : goal,
            info   ? "INFO"
            : pass ? "PASS"
                   : "MISS");
    fclose(f);
  }
  return pass;
}

/* }====== */

#ifdef PYLUA_H
static PyObject *G; /* globals of Python's __main__ (borrowed), as bench_py_open returns them */

/* The end of a timed Python call: r (its result, a new reference) dropped and dt returned, or,
   when r is NULL, -1 after printing "<who>: python <what>:" and the Python error. */
static inline double bench_py_done(PyObject *r, double dt, const char *who, const char *what) {
  if (!r) {
    fprintf(stderr, "%s: python %s:\n", who, what);
    if (PyErr_Occurred()) PyErr_Print();
    return -1;
  }
  Py_DECREF(r);
  return dt;
}

/* Starts the embedded Python (pylua_start), imports sys and numpy as np, and runs `code` in
   __main__ with the integer globals names[i] = values[i]; the globals (borrowed), or NULL after
   printing why. */
static inline PyObject *bench_py_open(int argc, char **argv, const char *who, const char *code,
                                      const char *const *names, const long long *values, int n) {
  PyObject *g = pylua_start(argc, argv, who);
  if (!g) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *v = PyLong_FromLongLong(values[i]);
    int bad = !v || PyDict_SetItemString(g, names[i], v) != 0;
    Py_XDECREF(v);
    if (bad) {
      PyErr_Print();
      fprintf(stderr, "%s: cannot set up Python\n", who);
      return NULL;
    }
  }
  PyObject *r = PyRun_String("import sys\nimport numpy as np\n", Py_file_input, g, g);
  if (r) {
    Py_DECREF(r);
    r = PyRun_String(code, Py_file_input, g, g);
  }
  if (!r) {
    PyErr_Print();
    fprintf(stderr, "%s: the embedded Python cannot set up NumPy (apt-get install python3-numpy)\n",
            who);
    return NULL;
  }
  Py_DECREF(r);
  return g;
}

/* Python's one-line answer to expr (a str) in buf, or "?". */
static inline void bench_py_str(const char *expr, char *buf, size_t n) {
  PyObject *v = PyRun_String(expr, Py_eval_input, G, G);
  const char *s = v ? PyUnicode_AsUTF8(v) : NULL;
  snprintf(buf, n, "%s", s ? s : "?");
  if (!s) PyErr_Clear();
  Py_XDECREF(v);
}

/* Calls f with the arguments Py_BuildValue makes of fmt (a tuple format), timed in this
   thread's CPU time (*dt, in ns): the new result, or NULL with a Python error set. */
static inline PyObject *bench_py_time(PyObject *f, double *dt, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *args = Py_VaBuildValue(fmt, ap);
  va_end(ap);
  if (!args) return NULL;
  double t0 = bench_cpu_ns();
  PyObject *r = PyObject_CallObject(f, args);
  *dt = bench_cpu_ns() - t0;
  Py_DECREF(args);
  return r;
}

/* {====== rows of ours against NumPy ======
 *
 * What bench_index, bench_sort and bench_random share: a row is one case, a function of the Lua
 * chunk's table (its registry reference) taking the number of calls, and the Python statement
 * that one call runs (bench_rows_main makes it a function of __main__ that loops as many times).
 * bench_rows_run times every row interleaved with the others, one loop per round, at ltensor's
 * default thread count and at 1 thread, and keeps each best round by the wall clock;
 * bench_rows_report prints the table and says whether every goal was met (the ratio is NumPy's time
 * over ours, at 1 thread and at the default count). */

typedef struct {
  const char *label, *lua, *py; /* py: a statement, the body of the loop */
  double goal;                  /* at 1 thread and at the default count, or BENCH_INFO */
} bench_row;
#define BENCH_INFO 0.0 /* a row without a goal, for information */

/* A row's measures: calls a loop, the best loop times in ns. */
#define BENCH_MAX_ROWS 16
typedef struct {
  long calls;
  double ours, ours1, numpy;
} bench_times;

/* The Lua chunk's B[fn](n) (fn(n) when n > 0, fn() otherwise) once: its time in ns, or -1
   (reported as "<who>: lua <fn>: ..."). */
static inline double bench_lua_case(lua_State *L, int ref, const char *who, const char *fn,
                                    long n) {
  lua_pushcfunction(L, bench_msgh);
  int h = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_getfield(L, -1, fn);
  int nargs = n > 0;
  if (nargs) lua_pushinteger(L, n);
  lua_gc(L, LUA_GCCOLLECT);
  bench_quiet();
  double t0 = bench_now_ns();
  int rc = lua_pcall(L, nargs, 0, h);
  double dt = bench_now_ns() - t0;
  if (rc != LUA_OK) fprintf(stderr, "%s: lua %s: %s\n", who, fn, lua_tostring(L, -1));
  lua_settop(L, h - 1);
  return rc == LUA_OK ? dt : -1;
}

/* Python's G[fn](n) once: its time in ns, or -1 (reported). */
static inline double bench_py_case(const char *who, const char *fn, long n) {
  PyObject *f = PyDict_GetItemString(G, fn); /* borrowed */
  if (!f) return bench_py_done(NULL, -1, who, fn);
  bench_quiet();
  double t0 = bench_now_ns();
  PyObject *r = PyObject_CallFunction(f, "(n)", (Py_ssize_t)n);
  return bench_py_done(r, bench_now_ns() - t0, who, fn);
}

/* Times rows[0..n) for `rounds` rounds (see above); 0, or -1 when a case failed. */
static inline int bench_rows_run(lua_State *L, int ref, const char *who, const bench_row *rows,
                                 bench_times *t, int n, int rounds) {
  int def_threads = ltensor_get_num_threads();
  for (int round = 1; round <= rounds; round++)
    for (int r = 0; r < n; r++) {
      const bench_row *w = &rows[r];
      bench_times *m = &t[r];
      char pyfn[16];
      snprintf(pyfn, sizeof pyfn, "_row%d", r);
      double o = bench_lua_case(L, ref, who, w->lua, m->calls);
      double p = bench_py_case(who, pyfn, m->calls);
      ltensor_set_num_threads(1);
      double o1 = bench_lua_case(L, ref, who, w->lua, m->calls);
      ltensor_set_num_threads(def_threads);
      if (o < 0 || p < 0 || o1 < 0) return -1;
      if (round == 1 || o < m->ours) m->ours = o;
      if (round == 1 || o1 < m->ours1) m->ours1 = o1;
      if (round == 1 || p < m->numpy) m->numpy = p;
    }
  return 0;
}

/* Prints the table of rows[0..n) under `title` (then Lua's and NumPy's versions, and `note`
   after the standard explanation, if not NULL), and a last line "goals (<goals>): PASS|MISS
   (...)"; records every row (bench_record) as the bench `name` ("index": the summary table's
   first column; the title when NULL). Returns whether every goal was met. */
static inline int bench_rows_report_as(const char *name, const char *title, const char *note,
                                       const char *goals, const bench_row *rows,
                                       const bench_times *t, int n, int rounds, int quick) {
  char pyver[128];
  bench_py_str("sys.version.split()[0] + ', NumPy ' + np.__version__", pyver, sizeof pyver);
  printf("%s, %s mode, best of %d rounds; %s, Python %s\n", title, quick ? "quick" : "full", rounds,
         LUA_RELEASE, pyver);
  printf(
      "(wall-clock times per call; ltensor at 1 thread and at its default count %d, NumPy "
      "single-threaded; ratio = NumPy's time / ours%s%s)\n",
      ltensor_get_num_threads(), note ? "; " : "", note ? note : "");
  int width = 4;
  for (int r = 0; r < n; r++)
    if ((int)strlen(rows[r].label) > width) width = (int)strlen(rows[r].label);
  printf("%-*s %10s %10s %10s %8s %9s %6s %s\n", width, "case", "ours@1 ms", "ours@def", "NumPy ms",
         "ratio@1", "ratio@def", "goal", "");
  int pass = 1;
  char summary[512] = "";
  for (int r = 0; r < n; r++) {
    const bench_row *w = &rows[r];
    const bench_times *m = &t[r];
    double c = (double)m->calls, ratio = m->numpy / m->ours, ratio1 = m->numpy / m->ours1;
    int ok = !w->goal || (ratio >= w->goal && ratio1 >= w->goal);
    pass = pass && ok;
    char goal[16];
    snprintf(goal, sizeof goal, w->goal ? "%.1fx" : "-", w->goal);
    printf("%-*s %10.2f %10.2f %10.2f %7.2fx %8.2fx %6s %s\n", width, w->label, m->ours1 / 1e6 / c,
           m->ours / 1e6 / c, m->numpy / 1e6 / c, ratio1, ratio, goal,
           !w->goal ? "(information)"
           : ok     ? "PASS"
                    : "MISS");
    int threads = ltensor_get_num_threads();
    const char *bench = name ? name : title;
    bench_record(bench, w->label, 1, m->ours1 / c, m->numpy / c, "NumPy", ratio1,
                 w->goal ? ">=" : "", w->goal);
    bench_record(bench, w->label, threads, m->ours / c, m->numpy / c, "NumPy", ratio,
                 w->goal ? ">=" : "", w->goal);
    if (w->goal) {
      size_t len = strlen(summary);
      snprintf(summary + len, sizeof summary - len, "%s%s %.2fx@1 %.2fx@def", len ? ", " : "",
               w->lua, ratio1, ratio);
    }
  }
  printf("goals (%s): %s (%s)\n", goals, pass ? "PASS" : "MISS", summary);
  return pass;
}

/* The same, recorded under the title. */
static inline int bench_rows_report(const char *title, const char *note, const char *goals,
                                    const bench_row *rows, const bench_times *t, int n, int rounds,
                                    int quick) {
  return bench_rows_report_as(NULL, title, note, goals, rows, t, n, rounds, quick);
}

/* The short name of a bench for the summary table: who without its "bench_" prefix. */
static inline const char *bench_short_name(const char *who) {
  return strncmp(who, "bench_", 6) == 0 ? who + 6 : who;
}

/* A bench of rows, whole: its name (who); the integer parameters that the Lua chunk (which
   returns the table of its loops and a check()) gets as its arguments, in order, and Python's
   code as globals of those names; the rows; the rounds and the calls a loop (quick, full); the
   report's title, note and goals (bench_rows_report). */
typedef struct {
  const char *who, *lua_chunk, *py_code;
  const char *names[4];
  long long values[4];
  int nvalues;
  const bench_row *rows;
  int nrows, rounds[2];
  long calls[2];
  const char *title, *note, *goals;
} bench_def;

/* Runs the bench of rows d in a process that embeds Python: the chunk and Python's code set up,
   the rows timed, the report. Returns the exit status: 0; 1 when LTENSOR_BENCH_STRICT is set and
   a goal was missed; 2 when something failed. */
static inline int bench_rows_main(int argc, char **argv, const bench_def *d) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  double t_start = bench_now_ns();
  G = bench_py_open(argc, argv, d->who, d->py_code, d->names, d->values, d->nvalues);
  if (!G) return 2;
  for (int r = 0; r < d->nrows; r++) { /* each row's loop: _row<r>(n) */
    char def[512];
    snprintf(def, sizeof def, "def _row%d(n):\n    for _ in range(n): %s\n", r, d->rows[r].py);
    PyObject *f = PyRun_String(def, Py_file_input, G, G);
    if (bench_py_done(f, 0, d->who, d->rows[r].py) < 0) return 2;
  }
  lua_State *L = bench_lua_open(d->who);
  lua_Integer args[4];
  for (int i = 0; i < d->nvalues; i++) args[i] = (lua_Integer)d->values[i];
  int ref = L ? bench_lua_chunk(L, d->who, d->lua_chunk, args, d->nvalues) : LUA_NOREF;
  if (ref == LUA_NOREF || bench_lua_case(L, ref, d->who, "check", 0) < 0) return 2;
  bench_times t[BENCH_MAX_ROWS];
  if (d->nrows > BENCH_MAX_ROWS) return 2;
  for (int r = 0; r < d->nrows; r++) t[r] = (bench_times){d->calls[!quick], 0, 0, 0};
  int rounds = d->rounds[!quick];
  if (bench_rows_run(L, ref, d->who, d->rows, t, d->nrows, rounds) != 0) return 2;
  int pass = bench_rows_report_as(bench_short_name(d->who), d->title, d->note, d->goals, d->rows, t,
                                  d->nrows, rounds, quick);
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}

/* }====== */

/* {====== rows of ours against torch ======
 *
 * What bench_nn_norm, bench_nn_conv and bench_nn_model share: a row is one case, a function of
 * the Lua chunk's table and a function of Python's __main__ of the same name, each taking the
 * number of calls. bench_torch_run times every row at 1 thread and at ltensor's default count
 * (torch.set_num_threads set to the same), interleaved with the others, one loop per round,
 * and keeps each best round by the wall clock; bench_torch_report prints the table (ratio =
 * torch's time / ours), records every row (bench_record) and says whether every goal was met. */

typedef struct {
  const char *label, *fn; /* fn: the Lua chunk's and Python's loop of the case */
  double goal;            /* at 1 thread and at the default count, or BENCH_INFO */
  long calls;             /* a loop's calls (full mode; quick mode a quarter) */
} bench_torch_row;

/* The best time per call in ns of row r at thread count t (0: one thread, 1: the default). */
typedef struct {
  double ours[BENCH_MAX_ROWS][2], torch[BENCH_MAX_ROWS][2];
  int counts[2];
} bench_torch_times;

/* Sets ltensor's and torch's thread counts; 0, or -1 (reported). */
static inline int bench_torch_threads(const char *who, int n) {
  char code[64];
  ltensor_set_num_threads(n);
  snprintf(code, sizeof code, "torch.set_num_threads(%d)\n", n);
  PyObject *r = PyRun_String(code, Py_file_input, G, G);
  return bench_py_done(r, 0, who, "set_num_threads") < 0 ? -1 : 0;
}

/* Times rows[0..n) (see above) into t; 0, or -1 when a case failed. */
static inline int bench_torch_run(lua_State *L, int ref, const char *who,
                                  const bench_torch_row *rows, int n, int quick, int rounds,
                                  bench_torch_times *t) {
  t->counts[0] = 1, t->counts[1] = ltensor_get_num_threads();
  if (n > BENCH_MAX_ROWS) return -1;
  for (int round = 0; round < rounds; round++)
    for (int c = 0; c < 2; c++) {
      if (bench_torch_threads(who, t->counts[c]) < 0) return -1;
      for (int r = 0; r < n; r++) {
        long calls = quick ? (rows[r].calls + 3) / 4 : rows[r].calls;
        double o = bench_lua_case(L, ref, who, rows[r].fn, calls);
        double p = bench_py_case(who, rows[r].fn, calls);
        if (o < 0 || p < 0) return -1;
        o /= (double)calls, p /= (double)calls;
        if (round == 0 || o < t->ours[r][c]) t->ours[r][c] = o;
        if (round == 0 || p < t->torch[r][c]) t->torch[r][c] = p;
      }
    }
  return bench_torch_threads(who, t->counts[1]);
}

/* Prints the table of rows[0..n) (ms per call), records each row at both counts under `who`,
   and appends "<fn> <ratio>x@1 <ratio>x@def" of each row with a goal to summary (size ns).
   Returns whether every goal was met. */
/* The report's two first lines: what is measured (then the mode, rounds, Lua's, Python's and
   torch's versions) and how to read the table (threads: the default count). */
static inline void bench_torch_header(const char *what, int quick, int rounds, int threads) {
  char ver[128];
  bench_py_str("sys.version.split()[0] + ', torch ' + torch.__version__", ver, sizeof ver);
  printf("%s, %s mode, best of %d rounds; %s, Python %s\n", what, quick ? "quick" : "full", rounds,
         LUA_RELEASE, ver);
  printf("(wall-clock ms per call; both at 1 thread and both at %d; ratio = torch's time / ours)\n",
         threads);
}

static inline int bench_torch_report(const char *who, const bench_torch_row *rows, int n,
                                     const bench_torch_times *t, char *summary, size_t ns) {
  int width = 4, pass = 1;
  for (int r = 0; r < n; r++)
    if ((int)strlen(rows[r].label) > width) width = (int)strlen(rows[r].label);
  printf("%-*s %9s %9s %8s %9s %9s %9s %6s\n", width, "case", "ours@1", "torch@1", "ratio@1",
         "ours@def", "torch@def", "ratio@def", "goal");
  if (ns) summary[0] = 0;
  for (int r = 0; r < n; r++) {
    const bench_torch_row *w = &rows[r];
    double r1 = t->torch[r][0] / t->ours[r][0], rd = t->torch[r][1] / t->ours[r][1];
    int ok = !w->goal || (r1 >= w->goal && rd >= w->goal);
    pass = pass && ok;
    char goal[16];
    snprintf(goal, sizeof goal, w->goal ? "%.1fx" : "-", w->goal);
    printf("%-*s %9.3f %9.3f %7.2fx %9.3f %9.3f %8.2fx %6s %s\n", width, w->label,
           t->ours[r][0] / 1e6, t->torch[r][0] / 1e6, r1, t->ours[r][1] / 1e6, t->torch[r][1] / 1e6,
           rd, goal,
           !w->goal ? "(information)"
           : ok     ? "PASS"
                    : "MISS");
    for (int c = 0; c < 2; c++)
      bench_record(bench_short_name(who), w->label, t->counts[c], t->ours[r][c], t->torch[r][c],
                   "torch", c ? rd : r1, w->goal ? ">=" : "", w->goal);
    if (w->goal && ns) {
      size_t len = strlen(summary);
      snprintf(summary + len, ns - len, "%s%s %.2fx@1 %.2fx@def", len ? ", " : "", w->fn, r1, rd);
    }
  }
  return pass;
}

/* }====== */
#endif

#endif
