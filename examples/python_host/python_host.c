/*
 * python_host.c -- a host that embeds both CPython (with NumPy) and Lua 5.4 (with ltensor
 * linked statically) and lets Python call Lua functions on NumPy arrays, without copies.
 *
 * Python sees a built-in module `lua`:
 *   lua.call(name, *args)  calls the global Lua function `name` (from process.lua). An argument
 *                          with __dlpack__ (a NumPy array) arrives as a tensor sharing its
 *                          memory; None, bools, ints, floats and strs as Lua values.
 *                          A tensor result comes back as np.from_dlpack(...) of its export;
 *                          other results (nil, booleans, numbers, strings) as Python values.
 *   lua.collect()          a full Lua garbage collection.
 * The tensors cross with ltensor's Python library (ltensor_python.h, CMake ltensor::python):
 *   NumPy -> Lua   ltensor_py_push(L, arr)
 *   Lua -> NumPy   np.from_dlpack(ltensor_py_export(L, -1))
 * main.py (the Python program the host runs) checks the values; the exit status is nonzero
 * when it raised.
 *
 * Usage: python_host [main.py [process.lua]]   (default: the files next to this source)
 */
#include "ltensor_python.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>

#ifndef LTENSOR_PY_MAIN
#define LTENSOR_PY_MAIN "main.py"
#endif
#ifndef LTENSOR_PY_LUA
#define LTENSOR_PY_LUA "process.lua"
#endif

/* The host's one Lua state, used by the `lua` module (on the thread holding the GIL). */
static lua_State *L;

static int msgh(lua_State *S) {
  const char *msg = lua_tostring(S, 1);
  luaL_traceback(S, S, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

/* {====== the `lua` module ====== */

/* Protected: pushes the Python scalar given as a light userdata (GIL held); raises for others. */
static int push_scalar(lua_State *S) {
  PyObject *v = lua_touserdata(S, 1);
  if (v == Py_None) {
    lua_pushnil(S);
  } else if (PyBool_Check(v)) {
    lua_pushboolean(S, v == Py_True);
  } else if (PyLong_Check(v)) {
    int overflow;
    long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow) return luaL_error(S, "int does not fit a Lua integer");
    lua_pushinteger(S, (lua_Integer)i);
  } else if (PyFloat_Check(v)) {
    lua_pushnumber(S, PyFloat_AS_DOUBLE(v));
  } else {
    Py_ssize_t n;
    const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &n) : NULL;
    if (!s) return luaL_error(S, "cannot pass a Python %s to Lua", Py_TYPE(v)->tp_name);
    lua_pushlstring(S, s, (size_t)n);
  }
  return 1;
}

/* Pushes a Python argument for Lua: a tensor sharing the memory of an object with __dlpack__,
   else the scalar. 0, or -1 with an exception (nothing pushed). */
static int push_arg(PyObject *arg) {
  int tensor = PyObject_HasAttrString(arg, "__dlpack__");
  if (!tensor) lua_pushcfunction(L, push_scalar), lua_pushlightuserdata(L, arg);
  if (tensor ? ltensor_py_push(L, arg) == LTENSOR_OK : lua_pcall(L, 1, 1, 0) == LUA_OK) return 0;
  PyErr_Clear(); /* PyUnicode_AsUTF8AndSize may have set one */
  PyErr_Format(PyExc_TypeError, "lua.call: %s", lua_tostring(L, -1));
  lua_pop(L, 1);
  return -1;
}

/* The Lua result at the top as a Python object: a tensor through np.from_dlpack. */
static PyObject *take_result(void) {
  switch (lua_type(L, -1)) {
    case LUA_TNIL: Py_RETURN_NONE;
    case LUA_TBOOLEAN: return PyBool_FromLong(lua_toboolean(L, -1));
    case LUA_TNUMBER:
      return lua_isinteger(L, -1) ? PyLong_FromLongLong(lua_tointeger(L, -1))
                                  : PyFloat_FromDouble(lua_tonumber(L, -1));
    case LUA_TSTRING: return PyUnicode_FromString(lua_tostring(L, -1));
    default: break;
  }
  PyObject *exported = ltensor_py_export(L, -1); /* TypeError when it is no tensor */
  if (!exported) return NULL;
  PyObject *np = PyImport_ImportModule("numpy");
  PyObject *arr = np ? PyObject_CallMethod(np, "from_dlpack", "O", exported) : NULL;
  Py_XDECREF(np);
  Py_DECREF(exported); /* the array holds what it took; the export itself goes */
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
  PyObject *result = NULL;
  Py_ssize_t i = 0;
  if (lua_getglobal(L, PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0))) != LUA_TFUNCTION) {
    PyErr_Format(PyExc_NameError, "lua.call: no Lua function %S", PyTuple_GET_ITEM(args, 0));
    i = -1;
  }
  while (i >= 0 && i + 1 < n && push_arg(PyTuple_GET_ITEM(args, i + 1)) == 0) i++;
  if (i + 1 == n) { /* every argument pushed */
    if (lua_pcall(L, (int)n - 1, 1, top + 1) == LUA_OK)
      result = take_result();
    else
      PyErr_Format(PyExc_RuntimeError, "lua: %s", lua_tostring(L, -1));
  }
  lua_settop(L, top); /* tensors pushed before a failure are Lua garbage: their __gc deletes */
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
   script. 1 on success. */
static int open_lua(const char *script) {
  L = luaL_newstate();
  if (!L) return 0;
  luaL_openlibs(L);
  if (ltensor_open(L) != LTENSOR_OK || luaL_dofile(L, script) != LUA_OK) {
    fprintf(stderr, "python_host: %s\n", lua_tostring(L, -1));
    return 0;
  }
  lua_settop(L, 0);
  return 1;
}

/* Starts Python named after this program (so sys.prefix is the libpython's, not that of a
   python3 found on PATH), without its signal handlers. 1 on success. */
static int start_python(const char *program) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0;
  PyStatus st = PyConfig_SetBytesString(&config, &config.program_name, program);
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st))
    fprintf(stderr, "python_host: cannot start Python: %s\n", st.err_msg ? st.err_msg : "?");
  return !PyStatus_Exception(st);
}

int main(int argc, char **argv) {
  const char *main_py = argc > 1 ? argv[1] : LTENSOR_PY_MAIN;
  const char *script = argc > 2 ? argv[2] : LTENSOR_PY_LUA;

  /* `lua` is built in: registered before Python starts */
  if (PyImport_AppendInittab("lua", init_lua_module) < 0) return 1;
  if (!start_python(argv[0])) return 1;
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
