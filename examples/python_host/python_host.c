/*
 * python_host.c -- a host that embeds both CPython (with NumPy) and Lua 5.4 (with ltensor
 * linked statically) and lets Python call Lua functions on NumPy arrays, without copies.
 *
 * Python sees a built-in module `lua`:
 *   lua.call(name, *args)  calls the global Lua function `name` (from process.lua). An argument
 *                          with __dlpack__ (a NumPy array) crosses as a DLPack capsule and
 *                          arrives as a tensor sharing its memory; others as plain values.
 *                          A tensor result comes back as np.from_dlpack(...) of its export;
 *                          other results as Python values.
 *   lua.collect()          a full Lua garbage collection.
 * The capsules cross with the bridge of pylua.c (beside this file):
 *   NumPy -> Lua   arr.__dlpack__() -> pylua_push_pycapsule -> dlpack.from_dlpack(cap)
 *   Lua -> NumPy   dlpack.to_dlpack(t) -> pylua_take_capsule -> pylua_exporter_new
 *                  -> np.from_dlpack(exporter)
 * main.py (the Python program the host runs) checks the values; the exit status is nonzero
 * when it raised.
 *
 * Usage: python_host [main.py [process.lua]]   (default: the files next to this source)
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>

#include "ltensor.h"

#ifndef LTENSOR_PY_MAIN
#define LTENSOR_PY_MAIN "main.py"
#endif
#ifndef LTENSOR_PY_LUA
#define LTENSOR_PY_LUA "process.lua"
#endif

/* The host's one Lua state, used by the `lua` module (on the thread holding the GIL). */
static lua_State *L;
static int invoke_ref = LUA_NOREF; /* the glue below, in the registry */

/* Runs in Lua for lua.call: capsules become tensors, a tensor result becomes a capsule. A
   legacy capsule, as NumPy 1.x reads only those. */
static const char glue[] =
    "local lt, dlpack = require 'ltensor', require 'ltensor.dlpack'\n"
    "return function(name, ...)\n"
    "  local f = _G[name]\n"
    "  if type(f) ~= 'function' then error(('no Lua function %s'):format(name), 0) end\n"
    "  local args = table.pack(...)\n"
    "  for i = 1, args.n do\n"
    "    if type(args[i]) == 'userdata' then args[i] = dlpack.from_dlpack(args[i]) end\n"
    "  end\n"
    "  local r = f(table.unpack(args, 1, args.n))\n"
    "  if lt.is_tensor(r) then return dlpack.to_dlpack(r) end\n"
    "  return r\n"
    "end\n";

static int msgh(lua_State *S) {
  const char *msg = lua_tostring(S, 1);
  luaL_traceback(S, S, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

/* {====== the `lua` module ====== */

/* Pushes a Python argument for Lua: a DLPack capsule for an object with __dlpack__, else the
   plain value. 0, or -1 with an exception (nothing pushed). */
static int push_arg(PyObject *arg) {
  if (!PyObject_HasAttrString(arg, "__dlpack__")) return pylua_push_py(L, arg);
  PyObject *capsule = PyObject_CallMethod(arg, "__dlpack__", NULL);
  if (!capsule) return -1;
  int rc = pylua_push_pycapsule(L, capsule); /* Lua owns the tensor now */
  Py_DECREF(capsule);
  return rc;
}

/* The Lua result at the top as a Python object: a capsule through np.from_dlpack. */
static PyObject *take_result(void) {
  if (lua_type(L, -1) != LUA_TUSERDATA) return pylua_to_py(L, -1);
  PyObject *capsule = pylua_take_capsule(L, -1);
  PyObject *exporter = capsule ? pylua_exporter_new(capsule) : NULL;
  Py_XDECREF(capsule); /* the exporter holds it (and its destructor, if NumPy never takes it) */
  if (!exporter) return NULL;
  PyObject *np = PyImport_ImportModule("numpy");
  PyObject *arr = np ? PyObject_CallMethod(np, "from_dlpack", "O", exporter) : NULL;
  Py_XDECREF(np);
  Py_DECREF(exporter);
  return arr;
}

/* lua.call(name, *args) */
static PyObject *py_call(PyObject *self, PyObject *args) {
  (void)self;
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(args, 0))) {
    PyErr_SetString(PyExc_TypeError, "lua.call(name, *args): name must be a str");
    return NULL;
  }
  if (n > 200 || !lua_checkstack(L, (int)n + 3)) {
    PyErr_SetString(PyExc_ValueError, "lua.call: too many arguments");
    return NULL;
  }
  int top = lua_gettop(L);
  lua_pushcfunction(L, msgh);
  lua_rawgeti(L, LUA_REGISTRYINDEX, invoke_ref);
  PyObject *result = NULL;
  Py_ssize_t i = 0;
  while (i < n && (i == 0 ? pylua_push_py(L, PyTuple_GET_ITEM(args, 0))
                          : push_arg(PyTuple_GET_ITEM(args, i))) == 0)
    i++;
  if (i == n) { /* every argument pushed */
    if (lua_pcall(L, (int)n, 1, top + 1) == LUA_OK)
      result = take_result();
    else
      PyErr_Format(PyExc_RuntimeError, "lua: %s", lua_tostring(L, -1));
  }
  lua_settop(L, top); /* capsules pushed before a failure are Lua garbage: their __gc deletes */
  return result;
}

/* lua.collect() */
static PyObject *py_collect(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  lua_gc(L, LUA_GCCOLLECT);
  Py_RETURN_NONE;
}

static PyMethodDef lua_methods[] = {
    {"call", py_call, METH_VARARGS, "call(name, *args): calls the Lua function name"},
    {"collect", py_collect, METH_NOARGS, "collect(): a full Lua garbage collection"},
    {NULL, NULL, 0, NULL},
};

/* clang-format off */
static struct PyModuleDef lua_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lua",
    .m_doc = "The host's Lua state.",
    .m_size = -1,
    .m_methods = lua_methods,
};
/* clang-format on */

static PyObject *init_lua_module(void) { return PyModule_Create(&lua_module); }

/* }====== */

/* The Lua state: standard libraries, ltensor (preloaded: no .lua files of ltensor needed), the
   script, the glue. 1 on success. */
static int open_lua(const char *script) {
  L = luaL_newstate();
  if (!L) return 0;
  luaL_openlibs(L);
  if (ltensor_open(L) != LTENSOR_OK || luaL_dofile(L, script) != LUA_OK ||
      luaL_loadstring(L, glue) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
    fprintf(stderr, "python_host: %s\n", lua_tostring(L, -1));
    return 0;
  }
  invoke_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_settop(L, 0);
  return 1;
}

int main(int argc, char **argv) {
  const char *main_py = argc > 1 ? argv[1] : LTENSOR_PY_MAIN;
  const char *script = argc > 2 ? argv[2] : LTENSOR_PY_LUA;

  /* `lua` is built in: registered before Python starts */
  if (PyImport_AppendInittab("lua", init_lua_module) < 0) return 1;
  if (!pylua_start(argc, argv, "python_host")) return 1; /* prints why */
  int ok = open_lua(script);
  if (ok) {
    FILE *f = fopen(main_py, "r");
    if (!f) fprintf(stderr, "python_host: cannot open %s\n", main_py);
    /* PyRun_SimpleFile prints the traceback of an exception and returns -1 */
    ok = f && PyRun_SimpleFileExFlags(f, main_py, 1, NULL) == 0;
  } else if (PyErr_Occurred()) {
    PyErr_Print();
  }
  if (L) lua_close(L); /* before Python: Lua may hold NumPy's arrays (their deleters use it) */
  L = NULL;
  if (Py_FinalizeEx() != 0) ok = 0;
  return ok ? 0 : 1;
}
