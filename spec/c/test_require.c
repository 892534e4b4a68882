/*
 * test_require.c -- exports that outlive lua_close when ltensor was loaded as users load it:
 * `require "ltensor"` from the built core.so. This program does NOT link ltensor: it embeds
 * Lua 5.4 and CPython (with NumPy), and only the module's own code can free what it exported.
 *
 * lua_close unloads every C library the state loaded (dlclose). Before ltensor pinned its
 * shared object, a consumer freeing an export after lua_close jumped into unmapped code (here:
 * NumPy at interpreter shutdown, SIGSEGV). What runs:
 *   1. require "ltensor"; a host buffer with a counting deleter goes in as a capsule;
 *   2. exports of it and of ltensor's own tensors go to a plain C consumer (capsules taken by
 *      the convention of SPEC "Capsule"), through the C exchange API, and to NumPy;
 *   3. lua_close;
 *   4. the C consumer reads and frees its exports, the exchange table (taken before the close)
 *      is called again, NumPy reads and drops its arrays, and Python finalizes;
 *   5. the host buffer's deleter ran exactly once, after the last export of it was gone.
 * Under ASan (make asan) a deleter run twice or never shows as a double free or a leak.
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>

#include "ltensor.h" /* types only: this program does not link ltensor */
#include "test_util.h"

/* {====== the host buffer: 12 float32 with a counting deleter ====== */

static int g_deleted;

static void host_deleter(DLManagedTensorVersioned *m) {
  g_deleted++;
  free(m->dl_tensor.data);
  free(m);
}

static int64_t g_shape[1] = {12};

static DLManagedTensorVersioned *host_tensor(void) {
  DLManagedTensorVersioned *m = calloc(1, sizeof *m);
  float *data = malloc(12 * sizeof *data);
  if (!m || !data) {
    free(m);
    free(data);
    return NULL;
  }
  for (int i = 0; i < 12; i++) data[i] = (float)i;
  m->version.major = 1;
  m->version.minor = 3;
  m->deleter = host_deleter;
  m->dl_tensor.data = data;
  m->dl_tensor.device.device_type = kDLCPU;
  m->dl_tensor.ndim = 1;
  m->dl_tensor.dtype.code = kDLFloat;
  m->dl_tensor.dtype.bits = 32;
  m->dl_tensor.dtype.lanes = 1;
  m->dl_tensor.shape = g_shape;
  return m;
}

/* }====== */

/* {====== a plain C consumer of Lua capsules ====== */

/* Takes the managed tensor out of the capsule `name` held in global `var`: the pointer is set
   to NULL and the metatable switched to "used_<name>" first, as SPEC's convention says. */
static void *take(lua_State *L, const char *var, const char *name) {
  void *m = NULL;
  char used[32];
  snprintf(used, sizeof used, "used_%s", name);
  lua_getglobal(L, var);
  if (lua_type(L, -1) == LUA_TUSERDATA && lua_rawlen(L, -1) == sizeof(void *) &&
      lua_getmetatable(L, -1)) {
    luaL_getmetatable(L, name);
    int ok = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    if (ok) {
      void **slot = lua_touserdata(L, -1);
      m = *slot;
      *slot = NULL;
      luaL_getmetatable(L, used);
      lua_setmetatable(L, -2);
    }
  }
  lua_pop(L, 1);
  return m;
}

static float sum_f32(const DLTensor *t) {
  int64_t n = 1;
  for (int d = 0; d < t->ndim; d++) n *= t->shape[d];
  const float *p = (const float *)((const char *)t->data + t->byte_offset);
  float s = 0;
  for (int64_t i = 0; i < n; i++) s += p[t->ndim == 1 && t->strides ? i * t->strides[0] : i];
  return s;
}

/* }====== */

static int lrun(lua_State *L, const char *code) {
  if (luaL_dostring(L, code) != LUA_OK) {
    fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}

static int pyrun(PyObject *globals, const char *code) {
  PyObject *r = PyRun_String(code, Py_file_input, globals, globals);
  if (!r) {
    PyErr_Print();
    return 0;
  }
  Py_DECREF(r);
  return 1;
}

/* Hands the Lua capsule in global `var` to NumPy as the Python global `name`. */
static int to_numpy(lua_State *L, PyObject *globals, const char *var, const char *name) {
  lua_getglobal(L, var);
  PyObject *cap = pylua_take_capsule(L, -1);
  lua_pop(L, 1);
  PyObject *exp = cap ? pylua_exporter_new(cap) : NULL;
  Py_XDECREF(cap);
  PyObject *np = exp ? PyDict_GetItemString(globals, "np") : NULL;
  PyObject *arr = np ? PyObject_CallMethod(np, "from_dlpack", "O", exp) : NULL;
  Py_XDECREF(exp);
  if (!arr) {
    PyErr_Print();
    return 0;
  }
  int rc = PyDict_SetItemString(globals, name, arr);
  Py_DECREF(arr);
  return rc == 0;
}

int main(int argc, char **argv) {
  PyObject *globals = pylua_start(argc, argv, "test_require");
  if (!globals) return 1;
  CHECK(pyrun(globals, "import numpy as np"));

  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK(lrun(L, "lt = require 'ltensor'; dlpack = require 'ltensor.dlpack'"));
  /* the module really came from a shared object, not from this program */
  CHECK(lrun(L, "assert(package.loaded['ltensor.core'] and not package.preload['ltensor.core'])"));

  DLManagedTensorVersioned *hm = host_tensor();
  CHECK(hm != NULL);
  if (!hm || pylua_push_managed(L, hm, 1) != 0) return tu_finish("test_require");
  lua_setglobal(L, "hcap");
  CHECK(lrun(L, "h = dlpack.from_dlpack(hcap); h[1] = 100"));

  /* exports for the C consumer: a view of the host buffer, ltensor's own memory (versioned and
     legacy), a transposed view */
  CHECK(lrun(L,
             "c_host = h:narrow(1, 1, 4):__dlpack{max_version = {1, 3}}\n"
             "c_own = lt.arange(10, 'float32'):__dlpack{max_version = {1, 3}}\n"
             "c_legacy = dlpack.to_dlpack(lt.ones(5))\n"
             "api = h.__dlpack_c_exchange_api"));
  DLManagedTensorVersioned *e_host = take(L, "c_host", "dltensor_versioned");
  DLManagedTensorVersioned *e_own = take(L, "c_own", "dltensor_versioned");
  DLManagedTensor *e_legacy = take(L, "c_legacy", "dltensor");
  CHECK(e_host && e_own && e_legacy);

  /* through the C exchange API */
  lua_getglobal(L, "api");
  const ltensor_exchange_api *api = lua_touserdata(L, -1);
  lua_pop(L, 1);
  CHECK(api != NULL && api->header.version.major == 1);
  DLManagedTensorVersioned *e_api = NULL;
  CHECK(lrun(L, "x = lt.full({3}, 2.5)"));
  lua_getglobal(L, "x");
  CHECK(api && api->managed_tensor_from_lua_no_sync(L, -1, &e_api) == 0 && e_api);
  lua_pop(L, 1);

  /* exports for NumPy (1.24 takes legacy capsules only): the host buffer (whole and strided)
     and ltensor's own memory */
  CHECK(lrun(L,
             "n_host = h:__dlpack()\n"
             "n_step = h[{{1, 12, 3}}]:__dlpack()\n"
             "n_own = lt.arange(6, 'float64'):view(2, 3):transpose(1, 2):__dlpack()\n"
             "n_fin = dlpack.to_dlpack(lt.ones(2, 'int32'))"));
  CHECK(to_numpy(L, globals, "n_host", "a_host"));
  CHECK(to_numpy(L, globals, "n_step", "a_step"));
  CHECK(to_numpy(L, globals, "n_own", "a_own"));
  CHECK(to_numpy(L, globals, "n_fin", "a_fin")); /* freed by NumPy at interpreter shutdown */

  lua_close(L); /* unloads core.so unless ltensor keeps its code mapped */
  CHECK(g_deleted == 0);

  /* the C consumer reads, then frees */
  if (e_host && e_own && e_legacy && e_api) {
    CHECK(sum_f32(&e_host->dl_tensor) == 100 + 1 + 2 + 3);
    CHECK(sum_f32(&e_own->dl_tensor) == 45);
    CHECK(sum_f32(&e_legacy->dl_tensor) == 5);
    CHECK(sum_f32(&e_api->dl_tensor) == 7.5);
    e_host->deleter(e_host);
    e_own->deleter(e_own);
    e_legacy->deleter(e_legacy);
    e_api->deleter(e_api);
  }
  CHECK(g_deleted == 0); /* NumPy still holds the host buffer */

  /* the exchange table stays callable: its allocator and stream query need no Lua state */
  if (api) {
    int64_t shape[2] = {2, 3};
    DLTensor proto = {NULL, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
    DLManagedTensorVersioned *fresh = NULL;
    CHECK(api->managed_tensor_allocator(&proto, &fresh, NULL, NULL) == 0 && fresh);
    if (fresh) {
      CHECK(fresh->dl_tensor.ndim == 2 && sum_f32(&fresh->dl_tensor) == 0);
      fresh->deleter(fresh);
    }
    void *stream = (void *)1;
    CHECK(api->current_work_stream(kDLCPU, 0, &stream) == 0 && stream == NULL);
  }

  /* NumPy reads, drops two arrays now and the last one at finalization */
  CHECK(pyrun(globals,
              "assert a_host.sum() == 100 + sum(range(1, 12)), a_host\n"
              "assert list(a_step) == [100, 3, 6, 9], a_step\n"
              "assert a_own.tolist() == [[0, 3], [1, 4], [2, 5]], a_own\n"
              "del a_step, a_own\n"
              "import gc; gc.collect()"));
  CHECK(g_deleted == 0);
  CHECK(pyrun(globals, "del a_host\nimport gc; gc.collect()"));
  CHECK(g_deleted == 1);
  CHECK(pyrun(globals, "assert a_fin.tolist() == [1, 1]"));
  if (Py_FinalizeEx() < 0) CHECK(!"Py_FinalizeEx failed");
  CHECK(g_deleted == 1);
  return tu_finish("test_require");
}
