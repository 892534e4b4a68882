/*
 * test_py.h -- the fixtures of the interop hosts (numpy_host.c, torch_host.c): one process that
 * embeds CPython and Lua 5.4 and passes tensors between them through the DLPack bridge of
 * spec/c/pylua.c, and of ltensor's Python library (src/python/ltensor_python.h) where the host
 * links it.
 *
 * Both sides run code given as printf formats: py_ok / lua_ok (statements ran), py_true /
 * lua_true (an expression is true), py_eq (two Python expressions are equal, both printed when
 * not), lua_raises (an error about a phrase). Values cross as plain values (lua_to_py,
 * py_to_lua: pylua.h says which) and tensors as capsules (pycapsule_to_lua: a Python DLPack
 * capsule becomes a Lua one; lua_capsule_to_py: a Lua capsule becomes a pylua Exporter, an
 * object with __dlpack__ and __dlpack_device__); with ltensor_python.h included first,
 * py_tensor_to_lua_ (ltensor_py_push) and lua_tensor_to_py_ (ltensor_py_export). Every helper
 * reports what went wrong on stderr and returns 0, so CHECK (test_util.h) counts it. Host tensors
 * (host_new, host_to_lua) are made here with a deleter that counts in host_deleted. tp_open_lua
 * opens the Lua side with ltensor linked in or loaded with require.
 *
 * Then the cases both hosts run (tp_*), given the library's name, the host's conversions
 * (lua_to_np / np_to_lua, lua_to_torch / torch_to_lua) and Python expressions: every dtype both
 * ways, views both ways, lifetimes of imports and exports, clones, read-only tensors, tables
 * of (Lua, Python) expressions that must agree. The host's Python names pvals, psize, pbytes and
 * paddr for its library's arrays (tp_same_as).
 *
 * The caller starts Python (pylua_start) into G before anything else, and includes this header
 * first (Python.h sets feature macros for the system headers).
 */
#ifndef TEST_PY_H
#define TEST_PY_H

#include "pylua.h" /* Python.h first (or ltensor_python.h, included before this) */

#include <lauxlib.h>
#include <lualib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_managed.h"
#include "test_util.h"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* {====== sections and cases ====== */

#define set_context tu_set_context

static int verbose; /* print each section */

static inline void section(const char *name) {
  tu_context[0] = '\0';
  if (verbose) printf("-- %s\n", name);
}

/* }====== */

/* {====== running code on both sides ====== */

static lua_State *L;
static PyObject *G; /* globals of Python's __main__ (borrowed) */

static char code[4096];

/* Formats into code; 0 (with a message) when it does not fit. */
static inline int vformat(const char *fmt, va_list ap) {
  int n = vsnprintf(code, sizeof code, fmt, ap);
  if (n < 0 || (size_t)n >= sizeof code) {
    fprintf(stderr, "test_py: code too long: %.60s...\n", fmt);
    return 0;
  }
  return 1;
}

/* Formats the arguments that follow fmt in the variadic function where it stands into code;
   fits: whether they did. */
#define FORMAT_CODE(fmt, fits)  \
  do {                          \
    va_list ap_;                \
    va_start(ap_, fmt);         \
    (fits) = vformat(fmt, ap_); \
    va_end(ap_);                \
  } while (0)

static inline void py_report(const char *what, const char *src) {
  fprintf(stderr, "  python %s: %s\n", what, src);
  if (PyErr_Occurred()) PyErr_PrintEx(0); /* 0: keep no traceback (and its frames) alive */
}

/* Runs src (start: Py_file_input or Py_eval_input); a new reference, or NULL (reported). */
static inline PyObject *py_run(int start, const char *src) {
  PyObject *r = PyRun_String(src, start, G, G);
  if (!r) py_report("error in", src);
  return r;
}

/* Python statements ran without error. */
PRINTF_LIKE(1, 2) static inline int py_ok(const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  PyObject *r = py_run(Py_file_input, code);
  Py_XDECREF(r);
  return r != NULL;
}

/* A Python expression is true (reported when false or failing). */
PRINTF_LIKE(1, 2) static inline int py_true(const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  PyObject *r = py_run(Py_eval_input, code);
  if (!r) return 0;
  int t = PyObject_IsTrue(r);
  Py_DECREF(r);
  if (t < 0) py_report("error in", code);
  if (t == 0) fprintf(stderr, "  python: false: %s\n", code);
  return t == 1;
}

/* Two Python expressions are equal (both values reported when not). */
static inline int py_eq(const char *lhs, const char *rhs) {
  char src[512];
  snprintf(src, sizeof src, "(%s) == (%s)", lhs, rhs);
  PyObject *r = py_run(Py_eval_input, src);
  if (!r) return 0;
  int t = PyObject_IsTrue(r);
  Py_DECREF(r);
  if (t < 0) py_report("error in", src);
  if (t == 0) {
    fprintf(stderr, "  python: %s != %s\n", lhs, rhs);
    snprintf(src, sizeof src, "print('    ', repr(%s), '\\n    ', repr(%s), file=sys.stderr)", lhs,
             rhs);
    Py_XDECREF(py_run(Py_file_input, src));
  }
  return t == 1;
}

/* A quiet Python truth test, for what the machine has (not a check). */
static inline int py_flag(const char *expr) {
  PyObject *r = py_run(Py_eval_input, expr);
  int t = r ? PyObject_IsTrue(r) : 0;
  Py_XDECREF(r);
  return t == 1;
}

static inline int lua_msgh(lua_State *S) {
  const char *msg = lua_tostring(S, 1);
  luaL_traceback(S, S, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

/* Runs src as a Lua chunk; LUA_OK with nres results pushed, or the error message pushed. */
static inline int lua_run(const char *src, int nres) {
  lua_pushcfunction(L, lua_msgh);
  int h = lua_gettop(L);
  int rc = luaL_loadbuffer(L, src, strlen(src), "=lua");
  if (rc == LUA_OK) rc = lua_pcall(L, 0, nres, h);
  lua_remove(L, h);
  return rc;
}

/* Lua statements ran without error. */
PRINTF_LIKE(1, 2) static inline int lua_ok(const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  if (lua_run(code, 0) != LUA_OK) {
    fprintf(stderr, "  lua error in: %s\n  %s\n", code, lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}

/* A Lua expression is true (reported when false or failing). */
PRINTF_LIKE(1, 2) static inline int lua_true(const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  char src[sizeof code + 16];
  snprintf(src, sizeof src, "return (%s)", code);
  if (lua_run(src, 1) != LUA_OK) {
    fprintf(stderr, "  lua error in: %s\n  %s\n", src, lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
  }
  int t = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (!t) fprintf(stderr, "  lua: false: %s\n", code);
  return t;
}

/* Lua statements raise an error whose message contains needle. */
PRINTF_LIKE(2, 3) static inline int lua_raises(const char *needle, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  if (lua_run(code, 0) == LUA_OK) {
    fprintf(stderr, "  lua: no error from: %s\n", code);
    return 0;
  }
  const char *msg = lua_tostring(L, -1);
  int ok = msg && strstr(msg, needle);
  if (!ok) fprintf(stderr, "  lua: error from %s\n  is not about \"%s\": %s\n", code, needle, msg);
  lua_pop(L, 1);
  return ok;
}

/* Pushes the value of the Lua expression; 0 (nothing pushed) after printing the error. */
static inline int lua_eval(const char *expr) {
  char src[sizeof code + 64]; /* expr may be code wrapped by a caller */
  snprintf(src, sizeof src, "return (%s)", expr);
  if (lua_run(src, 1) == LUA_OK) return 1;
  fprintf(stderr, "  lua error in: %s\n  %s\n", src, lua_tostring(L, -1));
  lua_pop(L, 1);
  return 0;
}

/* Sets Python global pyvar to the value of the Lua expression (plain values, see pylua.h). */
PRINTF_LIKE(2, 3) static inline int lua_to_py(const char *pyvar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  if (!lua_eval(code)) return 0;
  PyObject *v = pylua_to_py(L, -1);
  lua_pop(L, 1);
  int ok = v && PyDict_SetItemString(G, pyvar, v) == 0;
  Py_XDECREF(v);
  if (!ok) py_report("cannot take the value of", code);
  return ok;
}

/* Sets Lua global luavar to what push (pylua_push_py or pylua_push_pycapsule) makes of the value
   of the Python expression; `what` names the failure. */
static inline int py_value_to_lua(const char *luavar, const char *expr,
                                  int (*push)(lua_State *, PyObject *), const char *what) {
  PyObject *v = py_run(Py_eval_input, expr);
  if (!v) return 0;
  int ok = push(L, v) == 0;
  Py_DECREF(v);
  if (ok)
    lua_setglobal(L, luavar);
  else
    py_report(what, expr);
  return ok;
}

/* Sets Lua global luavar to the value of the Python expression. */
PRINTF_LIKE(2, 3) static inline int py_to_lua(const char *luavar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return py_value_to_lua(luavar, code, pylua_push_py, "cannot give Lua the value of");
}

/* Sets Lua global luavar to a Lua capsule made from the PyCapsule the Python expression gives
   (consuming it). */
static inline int pycapsule_to_lua_(const char *luavar, const char *expr) {
  return py_value_to_lua(luavar, expr, pylua_push_pycapsule, "cannot bridge the capsule of");
}

PRINTF_LIKE(2, 3) static inline int pycapsule_to_lua(const char *luavar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return pycapsule_to_lua_(luavar, code);
}

/* Sets Python global pyvar to the PyCapsule taken from the Lua capsule the Lua expression
   gives (the Lua capsule is consumed), or, when exporter, to an Exporter holding it. */
static inline int lua_capsule_take_(const char *pyvar, const char *expr, int exporter) {
  if (!lua_eval(expr)) return 0;
  PyObject *cap = pylua_take_capsule(L, -1);
  lua_pop(L, 1);
  PyObject *ex = cap && exporter ? pylua_exporter_new(cap) : Py_XNewRef(cap);
  Py_XDECREF(cap);
  int ok = ex && PyDict_SetItemString(G, pyvar, ex) == 0;
  Py_XDECREF(ex);
  if (!ok) py_report("cannot bridge the capsule of", expr);
  return ok;
}

/* Python global pyvar = an Exporter of the Lua capsule the Lua expression gives. */
PRINTF_LIKE(2, 3) static inline int lua_capsule_to_py(const char *pyvar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return lua_capsule_take_(pyvar, code, 1);
}

/* Python global pyvar = the PyCapsule itself, taken from the Lua capsule the expression gives. */
PRINTF_LIKE(2, 3)
static inline int lua_capsule_to_pycapsule(const char *pyvar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return lua_capsule_take_(pyvar, code, 0);
}

#ifdef LTENSOR_PYTHON_H
/* Through ltensor's Python library (hosts that link ltensor_python include ltensor_python.h
   first): Lua global luavar = ltensor_py_push of the value of the Python expression. */
static inline int py_tensor_to_lua_(const char *luavar, const char *expr) {
  PyObject *v = py_run(Py_eval_input, expr);
  if (!v) return 0;
  int rc = ltensor_py_push(L, v);
  Py_DECREF(v);
  if (rc != LTENSOR_OK || PyErr_Occurred()) {
    fprintf(stderr, "  ltensor_py_push(%s): status %d: %s%s\n", expr, rc, lua_tostring(L, -1),
            PyErr_Occurred() ? " (and a Python exception left set)" : "");
    lua_pop(L, 1);
    PyErr_Clear();
    return 0;
  }
  lua_setglobal(L, luavar);
  return 1;
}

/* Python global pyvar = ltensor_py_export of the tensor the Lua expression gives. */
static inline int lua_tensor_to_py_(const char *pyvar, const char *expr) {
  if (!lua_eval(expr)) return 0;
  int top = lua_gettop(L);
  PyObject *ex = ltensor_py_export(L, -1);
  int ok = ex && lua_gettop(L) == top && PyDict_SetItemString(G, pyvar, ex) == 0;
  lua_settop(L, top - 1);
  Py_XDECREF(ex);
  if (!ok) py_report("cannot export the tensor of", expr);
  return ok;
}
#endif

/* }====== */

/* {====== host tensors: made here, with a deleter that counts ====== */

static int host_deleted; /* how many host tensors' deleters ran */

typedef struct {
  union {
    DLManagedTensor l;
    DLManagedTensorVersioned v;
  } m;
  int64_t shape[1];
  double data[];
} host_tensor;

static inline void host_delete_legacy(DLManagedTensor *self) {
  host_deleted++;
  free(self->manager_ctx);
}

static inline void host_delete_versioned(DLManagedTensorVersioned *self) {
  host_deleted++;
  free(self->manager_ctx);
}

/* A 1-d managed tensor of n elements of dtype (at most 8 bytes each), owning its memory.
   float64 elements are i + 0.5; other dtypes are zero-filled. */
static inline void *host_new(int versioned, DLDataType dtype, int64_t n, uint64_t flags) {
  host_tensor *h = calloc(1, sizeof *h + (size_t)n * sizeof(double));
  if (!h) abort();
  h->shape[0] = n;
  if (dtype.code == kDLFloat && dtype.bits == 64)
    for (int64_t i = 0; i < n; i++) h->data[i] = (double)i + 0.5;
  tm_manage(&h->m, versioned, tm_desc(h->data, dtype, 1, h->shape, NULL), h, host_delete_versioned,
            host_delete_legacy, flags);
  return &h->m;
}

static const DLDataType host_f64 = {kDLFloat, 64, 1};

/* Lua global luavar = dlpack.from_dlpack(a Lua capsule of a new host tensor). */
static inline int host_to_lua(const char *luavar, int versioned, DLDataType dtype, int64_t n,
                              uint64_t flags) {
  if (pylua_push_managed(L, host_new(versioned, dtype, n, flags), versioned) != 0) {
    py_report("cannot push", "a host tensor");
    return 0;
  }
  lua_setglobal(L, "_cap");
  return lua_ok("%s = dlpack.from_dlpack(_cap); _cap = nil", luavar);
}

/* }====== */

/* {====== setting up both sides ====== */

static inline void lua_gc_full(void) {
  lua_gc(L, LUA_GCCOLLECT);
  lua_gc(L, LUA_GCCOLLECT);
}

/* A new Lua state in L with the globals lt and dlpack. open_core, when given
   (luaopen_ltensor_core), registers ltensor.core as a host that links ltensor statically does;
   when NULL, require loads the built core.so through LUA_CPATH (ctest sets it), as lua5.4
   does. The Lua files come from LUA_PATH, or else from the source tree this file is in. */
static inline int tp_open_lua(lua_CFunction open_core) {
  L = luaL_newstate();
  if (!L) return 0;
  luaL_openlibs(L);
  if (open_core) {
    luaL_requiref(L, "ltensor.core", open_core, 0);
    lua_pop(L, 1);
  }
  const char *file = __FILE__, *tail = strstr(file, "spec/c/test_py.h");
  if (file[0] == '/' && tail) {
    int n = (int)(tail - file);
    if (!lua_ok("package.path = package.path .. ';%.*slua/?.lua;%.*slua/?/init.lua'", n, file, n,
                file))
      return 0;
  }
  return lua_ok("lt = require 'ltensor'; dlpack = require 'ltensor.dlpack'");
}

static inline void close_lua(void) {
  if (L) lua_close(L);
  L = NULL;
}

/* Python helpers both hosts use. */
static const char tp_py_helpers[] =
    "import sys, gc, weakref, ctypes\n"
    "def cplx(x):\n"
    "    if isinstance(x, list): return [cplx(y) for y in x]\n"
    "    if isinstance(x, complex): return [x.real, x.imag]\n"
    "    return x\n"
    "def strict(x):  # values with their Python types: True != 1, 1.0 != 1\n"
    "    if isinstance(x, list): return [strict(y) for y in x]\n"
    "    return (type(x).__name__, x)\n"
    "def raises(f, exc=Exception):\n"
    "    try: f()\n"
    "    except exc: return True\n"
    "    return False\n"
    "def capname(c): return repr(c).split('\"')[1]\n"
    "FREED = {}  # name -> how many times the weakref callback ran\n"
    "def watch(name, t):  # counts t's finalization (a capsule's manager keeps it alive)\n"
    "    FREED[name] = 0\n"
    "    def fin(_ref): FREED[name] += 1\n"
    "    WATCHED[name] = weakref.ref(t, fin)\n"
    "WATCHED = {}\n"
    "def alive(name): return WATCHED[name]() is not None\n"
    "def freed_once(name): return WATCHED[name]() is None and FREED[name] == 1\n";

/* Sample values of each dtype (the extremes, -0.0, the smallest subnormal, inf), by name, and
   two values to write (W1: Lua writes, Python reads; W2: the other way). */
static const char tp_py_samples[] =
    "inf = float('inf')\n"
    "SAMPLES = {\n"
    " 'bool': [True, False, True, True, False, False],\n"
    " 'int8': [-128, -35, -1, 0, 1, 127],\n"
    " 'int16': [-32768, -1000, -1, 0, 1, 32767],\n"
    " 'int32': [-2**31, -70000, -1, 0, 1, 2**31 - 1],\n"
    " 'int64': [-2**63, -2**40, -1, 0, 1, 2**63 - 1],\n"
    " 'uint8': [0, 1, 127, 128, 200, 255],\n"
    " 'uint16': [0, 1, 255, 32768, 40000, 65535],\n"
    " 'uint32': [0, 1, 65536, 2**31, 3000000000, 2**32 - 1],\n"
    " 'uint64': [0, 1, 2**32, 2**53 + 1, 2**62, 2**63 - 1],\n"
    " 'float16': [-65504.0, -1.5, -0.0, 2.0**-24, 0.1, inf],\n"
    " 'bfloat16': [-3.3895313892515355e38, -1.5, -0.0, 2.0**-133, 0.1, inf],\n"
    " 'float32': [-3.4028234663852886e38, -1.5, -0.0, 1.401298464324817e-45, 0.1, inf],\n"
    " 'float64': [-1.7976931348623157e308, -2.5, -0.0, 5e-324, 0.1, -inf],\n"
    " 'complex64': [1+2j, -1.5-0.25j, 0j, complex(0.1, -0.1), complex(inf, 1),\n"
    "               complex(3.4028234663852886e38, -1e-45)],\n"
    " 'complex128': [1+2j, -1.5-0.25j, 0j, complex(0.1, 1/3), complex(-inf, 5e-324),\n"
    "                complex(1e308, -1e308)],\n"
    "}\n"
    "def writes(i, f, c, b):\n"
    "    d = {k: i for k in ('int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',\n"
    "                        'uint64')}\n"
    "    d.update({'float16': f, 'bfloat16': f, 'float32': f, 'float64': f, 'complex64': c,\n"
    "              'complex128': c, 'bool': b})\n"
    "    return d\n"
    "W1 = writes(7, 0.1, complex(0.1, -0.2), False)   # Lua writes, Python reads\n"
    "W2 = writes(99, -0.7, complex(-0.7, 0.3), True)  # Python writes, Lua reads\n";

/* Starts the section name of checks against a Python library: the Python code setup (the
   section's data and helpers) runs in the context "<name>: set-up". Whether it ran. */
static inline int tp_section_setup(const char *name, const char *setup) {
  section(name);
  set_context("%s: set-up", name);
  return py_ok("%s", setup);
}

/* Each case's Lua expression (cases[i][0]) agrees with its Python one (cases[i][1]) by the
   host's agree, checked in the context "<fmt, ...>: <the Lua expression>". TP_AGREE_EACH
   counts a table's cases. */
typedef int (*tp_agree_fn)(const char *lua_expr, const char *py_expr);
PRINTF_LIKE(4, 5)
static inline void tp_agree_each(tp_agree_fn agree, const char *const (*cases)[2], size_t n,
                                 const char *fmt, ...) {
  char what[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  for (size_t i = 0; i < n; i++) {
    set_context("%s: %s", what, cases[i][0]);
    CHECK(agree(cases[i][0], cases[i][1]));
  }
}
#define TP_AGREE_EACH(agree, cases, ...) \
  tp_agree_each(agree, cases, sizeof cases / sizeof *cases, __VA_ARGS__)

/* The Lua tensor in global lv and the Python array in global pa agree: values, shape, strides
   (pa's as the Python expression strides gives them; not compared for empty arrays, whose
   strides mean nothing), bytes and the address of the first element. Each host's Python
   defines pvals, psize, pbytes and paddr for its library's arrays. */
static inline void tp_same_as(const char *lv, const char *pa, const char *strides) {
  char rhs[128], lhs[64];
  snprintf(rhs, sizeof rhs, "pvals(%s)", pa);
  CHECK(lua_to_py("lv", "%s:tolist()", lv) && py_eq("strict(lv)", rhs));
  snprintf(rhs, sizeof rhs, "list(%s.shape)", pa);
  CHECK(lua_to_py("ls", "%s.shape", lv) && py_eq("ls", rhs));
  snprintf(lhs, sizeof lhs, "ls if psize(%s) else 0", pa);
  snprintf(rhs, sizeof rhs, "%s if psize(%s) else 0", strides, pa);
  CHECK(lua_to_py("ls", "%s:stride()", lv) && py_eq(lhs, rhs));
  snprintf(rhs, sizeof rhs, "pbytes(%s)", pa);
  CHECK(lua_to_py("lb", "%s:bytes()", lv) && py_eq("lb", rhs));
  CHECK(lua_to_py("lp", "%s:data_ptr()", lv) &&
        py_true("psize(%s) == 0 or lp == paddr(%s)", pa, pa));
}

/* A host's way to take a Lua tensor (the expression fmt, ...) to a Python global pyvar:
   lua_to_np, lua_to_torch. */
typedef int (*tp_to_py_fn)(const char *pyvar, const char *fmt, ...);

/* The view (a Lua expression of s, an int32 4x6 arange; or a tensor of its own) taken by to_py
   to the Python global pv of the library lib (int32: its int32 dtype): the same values, shape,
   strides (as the Python expression strides gives pv's), bytes and address; then Lua writes s
   (every element negative), and pv shows it. The caller checks its library's writes, then
   drops s, sv and pv. */
static inline void tp_lua_view(const char *lib, const char *view, tp_to_py_fn to_py,
                               const char *int32, const char *strides) {
  set_context("lua -> %s %s", lib, view);
  CHECK(lua_ok("s = lt.arange(24, 'int32'):reshape(4, 6); sv = %s", view));
  CHECK(to_py("pv", "sv"));
  CHECK(py_true("pv.dtype == %s", int32));
  tp_same_as("sv", "pv", strides);
  CHECK(lua_ok("for i = 1, 4 do for j = 1, 6 do s:set(i, j, -(i * 10 + j)) end end"));
  CHECK(lua_to_py("lv", "sv:tolist()") && py_eq("strict(lv)", "pvals(pv)"));
}

/* ltensor's own memory, exported to Python by to_py and dropped many times (leaks show under the
   sanitizers and valgrind). */
static inline void tp_many_exports(tp_to_py_fn to_py) {
  set_context("lua-allocated, many");
  CHECK(lua_ok("for i = 1, 50 do _G['x' .. i] = lt.arange(1000) end"));
  for (int i = 1; i <= 50; i++) CHECK(to_py("xs", "x%d:narrow(1, %d, 10)", i, i));
  CHECK(py_true("xs.tolist() == list(range(49, 59))"));
  CHECK(lua_ok("for i = 1, 50 do _G['x' .. i] = nil end") && py_ok("del xs"));
  lua_gc_full();
}

/* A host's way to take a Python tensor (the expression fmt, ...) to a Lua global luavar:
   np_to_lua, torch_to_lua. */
typedef int (*tp_to_lua_fn)(const char *luavar, const char *fmt, ...);

/* A copy-on-write clone of an import (Python's 4-element float tensor e, made by the statement
   make, taken by to_lua) is a copy: Python's later writes reach the import, not the clone. */
static inline void tp_clone_of_import(const char *make, tp_to_lua_fn to_lua) {
  set_context("clone of an import");
  CHECK(py_ok("%s", make) && to_lua("e0", "e"));
  CHECK(lua_ok("e1 = e0:clone(); e1[1] = -1; e0[2] = -2"));
  CHECK(py_true("e.tolist() == [0.0, -2.0, 2.0, 3.0]"));
  CHECK(lua_true("e1[1] == -1 and e1[2] == 1"));
  CHECK(py_ok("e[3] = 9") && lua_true("e0[4] == 9 and e1[4] == 3"));
  CHECK(lua_ok("e0, e1 = nil") && py_ok("del e"));
}

/* A capsule of Python's (the expression producer), consumed in Lua, then passed again. */
static inline void tp_consumed_twice(const char *producer) {
  set_context("consumed capsules");
  CHECK(pycapsule_to_lua("cap", "%s", producer));
  CHECK(lua_ok("t = dlpack.from_dlpack(cap)"));
  CHECK(lua_raises("already consumed", "dlpack.from_dlpack(cap)"));
  CHECK(lua_true("t[3] == 2.0"));
}

/* Python's array d, made by the statement make, exported as a capsule (the expression capsule,
   of d) and consumed in Lua: the producer's managed tensor holds d while Lua holds the import
   or a view of it. refused (NULL: none): an expression of cap that the library must refuse once
   Lua consumed cap. Then d made by make_unconsumed, its capsule never consumed: the Lua
   capsule's __gc calls the producer's deleter. lib names the library in the contexts. */
static inline void tp_import_lifetimes(const char *lib, const char *make, const char *capsule,
                                       const char *refused, const char *make_unconsumed) {
  set_context("%s -> lua, consumed", lib);
  CHECK(py_ok("%s; watch('d', d)", make));
  CHECK(py_ok("cap = %s; del d; gc.collect()", capsule) && py_true("alive('d')"));
  CHECK(pycapsule_to_lua("cap", "cap"));
  CHECK(py_true("capname(cap) == 'used_dltensor'"));
  CHECK(!refused || py_true("raises(lambda: %s)", refused)); /* consumed: the library too */
  CHECK(lua_ok("t = dlpack.from_dlpack(cap); v = t:narrow(1, 2, 3)"));
  CHECK(py_ok("del cap; gc.collect()") && py_true("alive('d')"));
  CHECK((lua_gc_full(), py_true("alive('d')")));
  CHECK(lua_ok("t = nil") && (lua_gc_full(), py_true("alive('d')")));
  CHECK(lua_true("v[1] == 1.0 and v[3] == 3.0"));
  CHECK(lua_ok("v = nil; cap = nil") && (lua_gc_full(), py_true("freed_once('d')")));

  set_context("%s -> lua, never consumed", lib);
  CHECK(py_ok("%s; watch('d2', d)", make_unconsumed));
  CHECK(pycapsule_to_lua("cap2", "%s", capsule));
  CHECK(py_ok("del d; gc.collect()") && py_true("alive('d2')"));
  CHECK(lua_ok("cap2 = nil") && (lua_gc_full(), py_true("freed_once('d2')")));
}

/* A host tensor's Lua capsule taken by the bridge, as a pylua Exporter or (capsule) as a raw
   Python capsule, and never consumed in Python: the host's deleter runs when the bridge's
   object goes, not before. */
static inline void tp_unconsumed_export(int capsule) {
  int before = host_deleted;
  CHECK(host_to_lua("h", 0, host_f64, 8, 0));
  CHECK(lua_ok("hcap = dlpack.to_dlpack(h)"));
  CHECK(capsule ? lua_capsule_to_pycapsule("ex", "hcap") : lua_capsule_to_py("ex", "hcap"));
  CHECK(lua_true("tostring(hcap):find('used_dltensor', 1, true) ~= nil"));
  CHECK(py_true("capname(ex if %d else ex.__dlpack__()) == 'dltensor'", capsule));
  CHECK(capsule || py_true("ex.__dlpack_device__() == (1, 0)"));
  CHECK(lua_ok("h, hcap = nil") && (lua_gc_full(), host_deleted == before));
  CHECK(py_ok("del ex") && host_deleted == before + 1); /* the bridge's destructor */
}

/* The end of a round trip Lua -> Python -> Lua of a host tensor h (host_deleted was before),
   its second Lua tensor h2: Python lets go of hb and Lua of h, and the host tensor lives while
   h2 does (h2_check: a Lua expression true of h2's values). */
static inline void tp_round_trip_release(int before, const char *h2_check) {
  CHECK(py_ok("del hb; gc.collect()") && lua_ok("h = nil"));
  CHECK((lua_gc_full(), host_deleted == before));
  CHECK(lua_true("%s", h2_check));
  CHECK(lua_ok("h2 = nil") && (lua_gc_full(), host_deleted == before + 1));
}

/* The Lua capsule cap of t (lt.arange(3)), taken by the bridge into the Exporter ex, imported
   by the library's from_dlpack (a Python function name): one memory; the Exporter's capsule is
   used, a second import fails cleanly. Drops t, cap, ex and the import. */
static inline void tp_export_consumed_once(const char *from_dlpack) {
  CHECK(py_ok("b = %s(ex)", from_dlpack) && py_true("b.tolist() == [0, 1, 2]"));
  CHECK(py_true("capname(ex.__dlpack__()) == 'used_dltensor'"));
  CHECK(py_true("raises(lambda: %s(ex))", from_dlpack));
  CHECK(py_true("b.tolist() == [0, 1, 2]"));
  CHECK(lua_ok("t[1] = 5") && py_true("b[0] == 5"));
  CHECK(lua_ok("t, cap = nil") && py_ok("del b, ex"));
}

/* Makes the Lua global ro a read-only host tensor of 4 float64 (a versioned export with
   READ_ONLY: ltensor has no Lua constructor for one), which refuses writes and every export
   that cannot say read-only. Returns host_deleted before it. */
static inline int tp_read_only_host(void) {
  int before = host_deleted;
  CHECK(host_to_lua("ro", 1, host_f64, 4, DLPACK_FLAG_BITMASK_READ_ONLY));
  CHECK(lua_true("ro:is_read_only() and ro[2] == 1.5"));
  CHECK(lua_raises("read-only", "ro[1] = 0"));
  CHECK(lua_raises("read-only", "dlpack.to_dlpack(ro)"));
  CHECK(lua_raises("read-only", "ro:__dlpack()"));
  return before;
}

/* Every dtype of the list both ways between Lua and the library lib: to_lua(dt) checks one
   Python -> Lua, from_lua(dt) one Lua -> Python. bool only where the library has it: its
   export (bool_out; else refused() checks that it refuses cleanly), its import (bool_in). */
static inline void tp_dtypes_both_ways(const char *lib, const char *const *dtypes, size_t n,
                                       int bool_out, int bool_in, void (*to_lua)(const char *),
                                       void (*refused)(void), void (*from_lua)(const char *)) {
  for (size_t i = 0; i < n; i++) {
    const char *dt = dtypes[i];
    int is_bool = strcmp(dt, "bool") == 0;
    set_context("%s -> lua %s", lib, dt);
    if (!is_bool || bool_out)
      to_lua(dt);
    else
      refused();
    set_context("lua -> %s %s", lib, dt);
    if (!is_bool || bool_in) from_lua(dt);
  }
  lua_gc_full();
}

/* Makes the Lua global u: the samples of dtype dt (SAMPLES[dt] of tp_py_samples) written one
   by one into a new tensor, reshaped to 2x3. Whether it ran. */
static inline int tp_lua_sample(const char *dt) {
  return py_to_lua("vals", "SAMPLES['%s']", dt) &&
         lua_ok(
             "u = lt.zeros({6}, '%s'); for i = 1, #vals do u[i] = vals[i] end; "
             "u = u:reshape(2, 3)",
             dt);
}

/* The library lib's view (a Python expression of its array base), made after the statement
   reset, taken by to_lua to the Lua global v: the same values, shape, strides (as the Python
   expression strides gives pv's), bytes and address; then the library writes (the statement
   write), and v shows it. The caller checks Lua's writes, then drops v and pv. */
static inline void tp_py_view(const char *lib, const char *view, const char *reset,
                              tp_to_lua_fn to_lua, const char *strides, const char *write) {
  set_context("%s -> lua %s", lib, view);
  CHECK(py_ok("%s; pv = %s", reset, view));
  CHECK(to_lua("v", "pv"));
  tp_same_as("v", "pv", strides);
  CHECK(py_ok("%s", write));
  CHECK(lua_to_py("lv", "v:tolist()") && py_eq("strict(lv)", "pvals(pv)"));
}

/* The views of s (tp_lua_view's) that both interop tests export; each adds its own. */
static const char *const tp_lua_views[] = {
    "s:transpose(1, 2)",
    "s:narrow(2, 2, 3)",
    "s:narrow(1, 2, 2):transpose(1, 2)",
    "s:select(2, 3)",
    "s:select(1, 2):select(1, 3)",
    "s:narrow(1, 1, 0)",
    "s:unsqueeze(2)",
    "s:select(1, 2):unsqueeze(1):expand(3, 6)",
};

/* Runs the host's check of one Lua view (view_to) on each of tp_lua_views, then on the n of its
   own (extra), then collects. */
static inline void tp_each_lua_view(void (*view_to)(const char *), const char *const *extra,
                                    size_t n) {
  for (size_t i = 0; i < sizeof tp_lua_views / sizeof *tp_lua_views; i++) view_to(tp_lua_views[i]);
  for (size_t i = 0; i < n; i++) view_to(extra[i]);
  lua_gc_full();
}

/* The bitwise expressions both interop tests run: in Lua on A, B and in Python (NumPy and torch
   spell them alike) on a, b. */
static const char *const tp_bitwise_ops[][2] = {
    {"A & B", "a & b"},
    {"A | B", "a | b"},
    {"A ~ B", "a ^ b"},
    {"~A", "~a"},
    {"A:bitwise_and(B[1])", "a & b[0]"},
    {"A:t():bitwise_or(B:t())", "a.T | b.T"},
    {"A:bitwise_xor(5)", "a ^ 5"},
    {"3 & A", "3 & a"},
};
#define TP_NBITWISE (sizeof tp_bitwise_ops / sizeof *tp_bitwise_ops)

/* The einsum equations both interop tests run, and their operands (arrays both make: ea 4x5,
   eb 5x6, ec 6x3, ev 5, ew 4, em 5x5, ex 3x4x5, ey 3x5x6). */
static const char *const tp_einsum_eqs[][2] = {
    {"ij,jk->ik", "ea, eb"},
    {"bij,bjk->bik", "ex, ey"},
    {"bij,bkj->bik", "ex, ex"},
    {"i,j->ij", "ev, ew"},
    {"i,i->", "ev, ev"},
    {"ii->", "em"},
    {"ii->i", "em"},
    {"ij->ji", "ea"},
    {"ij,ij->ij", "ea, ea"},
    {"ji,jk->ik", "ea, ea"},
    {"...ij,...jk->...ik", "ex, eb"},
    {"ij,jk,kl->il", "ea, eb, ec"},
    {"ijk,j->k", "ex, ew"},
};
#define TP_NEINSUM (sizeof tp_einsum_eqs / sizeof *tp_einsum_eqs)

/* }====== */

#endif
