/*
 * A host built out of tree against an installed ltensor::python (spec/install_test.sh): it embeds
 * CPython (with NumPy) and Lua 5.4, pushes a NumPy array into Lua with ltensor_py_push, lets a
 * script write into it, and reads a tensor the script made through ltensor_py_export and
 * np.from_dlpack, after lua_close. Prints OK and exits 0, or says what failed and exits 1.
 */
#include <ltensor/ltensor_python.h> /* first: Python.h */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>

static const char script[] =
    "local a = ...\n"
    "a[{1, 2}] = 42\n"
    "return (a * 2):sum(1)\n";

/* Runs Python statements; 1 when they ran. */
static int py(PyObject *g, const char *src) {
  PyObject *r = PyRun_String(src, Py_file_input, g, g);
  if (!r) PyErr_Print();
  Py_XDECREF(r);
  return r != NULL;
}

int main(int argc, char **argv) {
  (void)argc;
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  PyStatus st = PyConfig_SetBytesString(&config, &config.program_name, argv[0]);
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st)) return fprintf(stderr, "host_python: no Python\n"), 1;
  PyObject *g = PyModule_GetDict(PyImport_AddModule("__main__"));
  if (!py(g, "import numpy as np\na = np.arange(6.0).reshape(2, 3)\n")) return 1;

  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  if (ltensor_open(L) != LTENSOR_OK || luaL_loadstring(L, script) != LUA_OK ||
      ltensor_py_push(L, PyDict_GetItemString(g, "a")) != LTENSOR_OK ||
      lua_pcall(L, 1, 1, 0) != LUA_OK)
    return fprintf(stderr, "host_python: %s\n", lua_tostring(L, -1)), 1;
  PyObject *ex = ltensor_py_export(L, -1);
  lua_close(L); /* the export stays valid */
  if (!ex || PyDict_SetItemString(g, "ex", ex) != 0) return PyErr_Print(), 1;
  Py_DECREF(ex);
  if (!py(g,
          "s = np.from_dlpack(ex)\n"
          "assert a[0, 1] == 42, a\n"
          "assert s.tolist() == [6.0, 92.0, 14.0], s\n"
          "print('OK')\n"))
    return 1;
  return Py_FinalizeEx() == 0 ? 0 : 1;
}
