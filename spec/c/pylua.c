/*
 * pylua.c -- the DLPack bridge between CPython and Lua 5.4 (see pylua.h).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <string.h>

#include "dlpack.h"

static const char *const capsule_names[] = {"dltensor", "dltensor_versioned"};
static const char *const used_names[] = {"used_dltensor", "used_dltensor_versioned"};

static void call_deleter(void *managed, int versioned) {
  DLManagedTensorVersioned *v = versioned ? managed : NULL;
  DLManagedTensor *l = versioned ? NULL : managed;
  if (v && v->deleter) v->deleter(v);
  if (l && l->deleter) l->deleter(l);
}

/* Sets a Python RuntimeError from the Lua error message at the top, and pops it. */
static void lua_error_to_py(lua_State *L, const char *what) {
  const char *msg = lua_tostring(L, -1);
  PyErr_Format(PyExc_RuntimeError, "%s: %s", what, msg ? msg : "(error object is not a string)");
  lua_pop(L, 1);
}

/* {====== Python -> Lua ====== */

/* Protected: pushes an empty capsule userdata (NULL pointer) with the registry metatable named
   by the light userdata argument. */
static int new_capsule_ud(lua_State *L) {
  const char *name = lua_touserdata(L, 1);
  void **p = lua_newuserdatauv(L, sizeof(void *), 0);
  *p = NULL;
  if (luaL_getmetatable(L, name) != LUA_TTABLE)
    return luaL_error(L, "the registry has no \"%s\" metatable (load ltensor.core first)", name);
  lua_setmetatable(L, -2);
  return 1;
}

/* Pushes an empty Lua capsule of the kind; NULL with a Python exception (nothing pushed). */
static void **push_empty_capsule(lua_State *L, int versioned) {
  if (!lua_checkstack(L, 4)) {
    PyErr_SetString(PyExc_MemoryError, "Lua stack overflow");
    return NULL;
  }
  lua_pushcfunction(L, new_capsule_ud);
  lua_pushlightuserdata(L, (void *)capsule_names[versioned]);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    lua_error_to_py(L, "cannot make a Lua capsule");
    return NULL;
  }
  return lua_touserdata(L, -1);
}

/* Which DLPack kind the PyCapsule is: 0 legacy, 1 versioned, -1 with an exception. */
static int pycapsule_kind(PyObject *capsule) {
  if (!PyCapsule_CheckExact(capsule)) {
    PyErr_Format(PyExc_TypeError, "expected a DLPack PyCapsule, got %s", Py_TYPE(capsule)->tp_name);
    return -1;
  }
  const char *name = PyCapsule_GetName(capsule);
  if (!name && PyErr_Occurred()) return -1;
  for (int k = 0; k < 2; k++)
    if (name && strcmp(name, capsule_names[k]) == 0) return k;
  for (int k = 0; k < 2; k++)
    if (name && strcmp(name, used_names[k]) == 0) {
      PyErr_SetString(PyExc_ValueError,
                      "the DLPack capsule was already consumed (a capsule can be used only once)");
      return -1;
    }
  PyErr_Format(PyExc_ValueError, "not a DLPack capsule: its name is %s%s%s", name ? "\"" : "",
               name ? name : "NULL", name ? "\"" : "");
  return -1;
}

int pylua_push_pycapsule(lua_State *L, PyObject *capsule) {
  int versioned = pycapsule_kind(capsule);
  if (versioned < 0) return -1;
  void **slot = push_empty_capsule(L, versioned); /* before taking anything */
  if (!slot) return -1;
  void *m = PyCapsule_GetPointer(capsule, capsule_names[versioned]);
  if (!m) {
    lua_pop(L, 1); /* an empty capsule is harmless garbage */
    return -1;
  }
  if (PyCapsule_SetName(capsule, used_names[versioned]) < 0) {
    lua_pop(L, 1);
    return -1;
  }
  *slot = m; /* the Lua capsule owns it now */
  return 0;
}

int pylua_push_managed(lua_State *L, void *managed, int versioned) {
  versioned = versioned != 0;
  if (!managed) {
    PyErr_SetString(PyExc_ValueError, "managed tensor is NULL");
    return -1;
  }
  void **slot = push_empty_capsule(L, versioned);
  if (!slot) {
    call_deleter(managed, versioned);
    return -1;
  }
  *slot = managed;
  return 0;
}

/* }====== */

/* {====== Lua -> Python ====== */

/* Destructor of the PyCapsules made by pylua_take_capsule: the deleter runs only when no
   consumer took the tensor (the capsule still has its original name). */
static void pycapsule_destructor(PyObject *capsule) {
  for (int k = 0; k < 2; k++) {
    if (!PyCapsule_IsValid(capsule, capsule_names[k])) continue; /* sets no exception */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb); /* a destructor must not disturb a pending exception */
    void *m = PyCapsule_GetPointer(capsule, capsule_names[k]);
    if (m) call_deleter(m, k);
    PyErr_Restore(type, value, tb);
    return;
  }
}

/* Which capsule kind the Lua value at idx is: 0..1 unconsumed, 2..3 used, -1 none. */
static int lua_capsule_kind(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != sizeof(void *) ||
      !lua_checkstack(L, 2) || !lua_getmetatable(L, idx))
    return -1;
  int kind = -1;
  for (int k = 0; k < 4 && kind < 0; k++) {
    luaL_getmetatable(L, k < 2 ? capsule_names[k] : used_names[k - 2]);
    if (lua_rawequal(L, -1, -2)) kind = k;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return kind;
}

PyObject *pylua_take_capsule(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  int kind = lua_capsule_kind(L, idx);
  if (kind < 0)
    return PyErr_Format(PyExc_TypeError, "expected a Lua DLPack capsule, got a Lua %s",
                        lua_typename(L, lua_type(L, idx)));
  if (kind >= 2) {
    PyErr_SetString(PyExc_ValueError,
                    "the Lua capsule was already consumed (a capsule can be used only once)");
    return NULL;
  }
  void **slot = lua_touserdata(L, idx);
  if (!*slot) {
    PyErr_SetString(PyExc_ValueError, "the Lua capsule holds no tensor");
    return NULL;
  }
  PyObject *capsule = PyCapsule_New(*slot, capsule_names[kind], pycapsule_destructor);
  if (!capsule) return NULL; /* the Lua capsule still owns it */
  /* taken: NULL pointer and the "used" metatable (a registry read of an existing key and a
     metatable switch to one without __gc: nothing here can raise) */
  *slot = NULL;
  luaL_getmetatable(L, used_names[kind]);
  lua_setmetatable(L, idx);
  return capsule;
}

/* clang-format off */
typedef struct {
  PyObject_HEAD
  PyObject *capsule;
  int device_type, device_id;
} exporter;
/* clang-format on */

static void exporter_dealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self); /* a heap type: each instance holds a reference to it */
  Py_CLEAR(((exporter *)self)->capsule);
  type->tp_free(self);
  Py_DECREF(type);
}

static PyObject *exporter_dlpack(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
  exporter *e = (exporter *)self;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$OOO:__dlpack__", kwlist, &stream, &max_version,
                                   &dl_device, &copy))
    return NULL;
  (void)max_version; /* only the capsule we hold can be given: a consumer that asks for a
                        versioned one accepts the legacy one too (array API) */
  if (stream != Py_None && e->device_type == kDLCPU) {
    PyErr_SetString(PyExc_BufferError, "stream must be None for a CPU tensor");
    return NULL;
  }
  if (copy == Py_True) {
    PyErr_SetString(PyExc_BufferError, "this exporter cannot copy");
    return NULL;
  }
  if (dl_device != Py_None) {
    int dt, did;
    if (!PyArg_ParseTuple(dl_device, "ii:dl_device", &dt, &did)) return NULL;
    if (dt != e->device_type || did != e->device_id) {
      PyErr_Format(PyExc_BufferError, "cannot move a tensor on device (%d, %d) to (%d, %d)",
                   e->device_type, e->device_id, dt, did);
      return NULL;
    }
  }
  return Py_NewRef(e->capsule);
}

static PyObject *exporter_dlpack_device(PyObject *self, PyObject *unused) {
  (void)unused;
  exporter *e = (exporter *)self;
  return Py_BuildValue("(ii)", e->device_type, e->device_id);
}

static PyMethodDef exporter_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))exporter_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(stream=None, *, max_version=None, dl_device=None, copy=None): the capsule"},
    {"__dlpack_device__", exporter_dlpack_device, METH_NOARGS,
     "__dlpack_device__(): (device_type, device_id)"},
    {NULL, NULL, 0, NULL},
};

/* A heap type, made by pylua_init. */
static PyType_Slot exporter_slots[] = {
    {Py_tp_doc, (void *)"A DLPack producer holding one capsule that came from Lua."},
    {Py_tp_dealloc, (void *)(uintptr_t)exporter_dealloc}, /* ISO C: a function's address as data */
    {Py_tp_methods, exporter_methods},
    {0, NULL},
};
static PyType_Spec exporter_spec = {"pylua.Exporter", sizeof(exporter), 0, Py_TPFLAGS_DEFAULT,
                                    exporter_slots};
static PyTypeObject *exporter_type;

int pylua_init(void) {
  if (!exporter_type) exporter_type = (PyTypeObject *)PyType_FromSpec(&exporter_spec);
  return exporter_type ? 0 : -1;
}

PyObject *pylua_exporter_new(PyObject *capsule) {
  const DLTensor *dl = NULL;
  if (PyCapsule_IsValid(capsule, capsule_names[0]))
    dl = &((DLManagedTensor *)PyCapsule_GetPointer(capsule, capsule_names[0]))->dl_tensor;
  else if (PyCapsule_IsValid(capsule, capsule_names[1]))
    dl = &((DLManagedTensorVersioned *)PyCapsule_GetPointer(capsule, capsule_names[1]))->dl_tensor;
  else {
    if (pycapsule_kind(capsule) >= 0) /* else the reason is set as an exception */
      PyErr_SetString(PyExc_ValueError, "invalid DLPack capsule");
    return NULL;
  }
  exporter *e = PyObject_New(exporter, exporter_type);
  if (!e) return NULL;
  e->capsule = Py_NewRef(capsule);
  e->device_type = (int)dl->device.device_type;
  e->device_id = (int)dl->device.device_id;
  return (PyObject *)e;
}

/* }====== */

/* {====== plain values ====== */

#define PYLUA_MAX_DEPTH 100

static PyObject *to_py(lua_State *L, int idx, int depth) {
  switch (lua_type(L, idx)) {
    case LUA_TNIL: Py_RETURN_NONE;
    case LUA_TBOOLEAN: return PyBool_FromLong(lua_toboolean(L, idx));
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) return PyLong_FromLongLong((long long)lua_tointeger(L, idx));
      return PyFloat_FromDouble((double)lua_tonumber(L, idx));
    case LUA_TSTRING: {
      size_t n;
      const char *s = lua_tolstring(L, idx, &n);
      return PyBytes_FromStringAndSize(s, (Py_ssize_t)n);
    }
    case LUA_TTABLE: {
      if (depth >= PYLUA_MAX_DEPTH || !lua_checkstack(L, 2))
        return PyErr_Format(PyExc_RecursionError, "Lua table nested too deep");
      lua_Unsigned n = lua_rawlen(L, idx);
      if (n > (lua_Unsigned)PY_SSIZE_T_MAX) return PyErr_NoMemory();
      PyObject *list = PyList_New((Py_ssize_t)n);
      if (!list) return NULL;
      for (lua_Unsigned i = 0; i < n; i++) {
        lua_rawgeti(L, idx, (lua_Integer)i + 1);
        PyObject *x = to_py(L, lua_gettop(L), depth + 1);
        lua_pop(L, 1);
        if (!x) {
          Py_DECREF(list);
          return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, x);
      }
      return list;
    }
    default:
      return PyErr_Format(PyExc_TypeError, "cannot convert a Lua %s to Python",
                          lua_typename(L, lua_type(L, idx)));
  }
}

PyObject *pylua_to_py(lua_State *L, int idx) { return to_py(L, lua_absindex(L, idx), 0); }

/* Pushes obj; raises a Lua error (a Python exception set first, when Python failed). Holds no
   new Python reference across a call that can raise. */
static void push_py(lua_State *L, PyObject *obj, int depth) {
  luaL_checkstack(L, 3, "Python value nested too deep");
  if (depth >= PYLUA_MAX_DEPTH) {
    PyErr_SetString(PyExc_RecursionError, "Python value nested too deep");
    luaL_error(L, "Python error");
  }
  if (obj == Py_None) {
    lua_pushnil(L);
  } else if (PyBool_Check(obj)) {
    lua_pushboolean(L, obj == Py_True);
  } else if (PyLong_Check(obj)) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow) PyErr_SetString(PyExc_OverflowError, "int does not fit a Lua integer");
    if (overflow || (v == -1 && PyErr_Occurred())) luaL_error(L, "Python error");
    lua_pushinteger(L, (lua_Integer)v);
  } else if (PyFloat_Check(obj)) {
    lua_pushnumber(L, (lua_Number)PyFloat_AS_DOUBLE(obj));
  } else if (PyComplex_Check(obj)) {
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, (lua_Number)PyComplex_RealAsDouble(obj));
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, (lua_Number)PyComplex_ImagAsDouble(obj));
    lua_rawseti(L, -2, 2);
  } else if (PyBytes_Check(obj)) {
    lua_pushlstring(L, PyBytes_AS_STRING(obj), (size_t)PyBytes_GET_SIZE(obj));
  } else if (PyUnicode_Check(obj)) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &n);
    if (!s) luaL_error(L, "Python error");
    lua_pushlstring(L, s, (size_t)n);
  } else if (PyList_Check(obj) || PyTuple_Check(obj)) {
    int list = PyList_Check(obj);
    Py_ssize_t n = list ? PyList_GET_SIZE(obj) : PyTuple_GET_SIZE(obj);
    lua_createtable(L, n < INT_MAX ? (int)n : INT_MAX, 0);
    for (Py_ssize_t i = 0; i < n; i++) { /* borrowed items; a list is not changed meanwhile */
      push_py(L, list ? PyList_GET_ITEM(obj, i) : PyTuple_GET_ITEM(obj, i), depth + 1);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
  } else {
    PyErr_Format(PyExc_TypeError, "cannot convert a Python %s to Lua", Py_TYPE(obj)->tp_name);
    luaL_error(L, "Python error");
  }
}

static int push_py_protected(lua_State *L) {
  PyObject *obj = lua_touserdata(L, 1);
  lua_pop(L, 1);
  push_py(L, obj, 0);
  return 1;
}

int pylua_push_py(lua_State *L, PyObject *obj) {
  if (!lua_checkstack(L, 3)) {
    PyErr_SetString(PyExc_MemoryError, "Lua stack overflow");
    return -1;
  }
  lua_pushcfunction(L, push_py_protected);
  lua_pushlightuserdata(L, obj);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    if (PyErr_Occurred())
      lua_pop(L, 1);
    else
      lua_error_to_py(L, "cannot convert a Python value to Lua");
    return -1;
  }
  return 0;
}

/* }====== */

PyObject *pylua_start(int argc, char **argv, const char *who) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0;
  config.parse_argv = 0;
  PyStatus st = PyConfig_SetBytesArgv(&config, argc, argv); /* program name: this program */
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st)) {
    fprintf(stderr, "%s: cannot start Python: %s\n", who, st.err_msg ? st.err_msg : "?");
    return NULL;
  }
  PyObject *g = PyModule_GetDict(PyImport_AddModule("__main__"));
  if (!g || pylua_init() != 0) {
    if (PyErr_Occurred()) PyErr_Print();
    fprintf(stderr, "%s: cannot set up the embedded Python\n", who);
    return NULL;
  }
  return g;
}
