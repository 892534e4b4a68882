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
#endif

#endif
