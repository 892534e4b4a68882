/*
 * ltensor_python.c -- the library ltensor_python (ltensor_python.h): ltensor_py_push (a Python
 * DLPack producer or capsule -> a Lua tensor) and ltensor_py_export (a Lua tensor -> a Python
 * DLPack producer). Built on ltensor's host API only; hosts that embed CPython call it.
 */
#include "ltensor_python.h" /* Python.h first: it sets feature macros for the system headers */

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const capsule_names[] = {"dltensor", "dltensor_versioned"};
static const char *const used_names[] = {"used_dltensor", "used_dltensor_versioned"};

/* {====== messages ====== */

/* Protected: pushes the C string given as a light userdata. */
static int push_string(lua_State *L) {
  lua_pushstring(L, lua_touserdata(L, 1));
  return 1;
}

/* Pushes the formatted message (without raising: on a memory error Lua's own message is pushed
   instead) and returns status. */
static int fail(lua_State *L, int status, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (lua_checkstack(L, 2)) {
    lua_pushcfunction(L, push_string); /* a light C function: allocates nothing */
    lua_pushlightuserdata(L, msg);
    lua_pcall(L, 1, 1, 0);
  }
  return status;
}

/* The pending Python exception as a message: pushed, the exception cleared. */
static int fail_py(lua_State *L, const char *what) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  int status = type && PyErr_GivenExceptionMatches(type, PyExc_MemoryError) ? LTENSOR_ERRMEM
                                                                            : LTENSOR_ERRARG;
  PyObject *text = value ? PyObject_Str(value) : NULL;
  const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
  PyErr_Clear(); /* from str() of a strange exception */
  const char *tname = type && PyType_Check(type) ? ((PyTypeObject *)type)->tp_name : "error";
  fail(L, status, "%s (%s%s%s)", what, tname, s && *s ? ": " : "", s ? s : "");
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  return status;
}

/* }====== */

/* {====== Python -> Lua ====== */

/* obj.__dlpack__(max_version=(1, 3)), or obj.__dlpack__() when the producer rejects the
   keyword with a TypeError (DLPack before 1.0). A new reference, or NULL with an exception. */
static PyObject *call_dlpack(PyObject *method) {
  PyObject *args = PyTuple_New(0);
  PyObject *kwargs =
      Py_BuildValue("{s:(ii)}", "max_version", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  PyObject *r = args && kwargs ? PyObject_Call(method, args, kwargs) : NULL;
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  if (!r && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    r = PyObject_CallNoArgs(method);
  }
  return r;
}

int ltensor_py_push(lua_State *L, PyObject *obj) {
  if (!obj) return fail(L, LTENSOR_ERRARG, "object is NULL");
  PyObject *capsule;
  if (PyCapsule_CheckExact(obj)) {
    capsule = Py_NewRef(obj);
  } else {
    PyObject *method = PyObject_GetAttrString(obj, "__dlpack__");
    if (!method) {
      if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return fail_py(L, "cannot read __dlpack__");
      PyErr_Clear();
      return fail(L, LTENSOR_ERRARG,
                  "expected an object with __dlpack__ or a DLPack capsule, got a Python %s",
                  Py_TYPE(obj)->tp_name);
    }
    capsule = call_dlpack(method);
    Py_DECREF(method);
    if (!capsule) return fail_py(L, "__dlpack__ failed");
    if (!PyCapsule_CheckExact(capsule)) {
      int rc = fail(L, LTENSOR_ERRARG, "__dlpack__ returned a Python %s, not a DLPack capsule",
                    Py_TYPE(capsule)->tp_name);
      Py_DECREF(capsule);
      return rc;
    }
  }
  const char *name = PyCapsule_GetName(capsule);
  PyErr_Clear(); /* a NULL name is no error here */
  int versioned = -1;
  for (int k = 0; k < 2; k++) {
    if (name && strcmp(name, capsule_names[k]) == 0) versioned = k;
    if (name && strcmp(name, used_names[k]) == 0) {
      Py_DECREF(capsule);
      return fail(L, LTENSOR_ERRARG,
                  "the DLPack capsule was already consumed (a capsule can be used only once)");
    }
  }
  if (versioned < 0) {
    int rc = fail(L, LTENSOR_ERRARG, "not a DLPack capsule: its name is %s%s%s", name ? "\"" : "",
                  name ? name : "NULL", name ? "\"" : "");
    Py_DECREF(capsule);
    return rc;
  }
  void *m = PyCapsule_GetPointer(capsule, capsule_names[versioned]);
  if (!m || PyCapsule_SetName(capsule, used_names[versioned]) < 0) {
    Py_DECREF(capsule);
    return fail_py(L, "invalid DLPack capsule");
  }
  Py_DECREF(capsule); /* renamed: its destructor, if this was the last reference, keeps m */
  return versioned ? ltensor_push_managed(L, m) : ltensor_push_managed_legacy(L, m);
}

/* }====== */

/* {====== Lua -> Python ====== */

/* The export an exporter holds, shared by the exporter and every capsule it gave (counted). */
typedef struct {
  atomic_long refs;
  DLManagedTensorVersioned *m; /* from ltensor_export */
} held;

static void held_release(held *h) {
  if (!h || atomic_fetch_sub(&h->refs, 1) != 1) return;
  if (h->m->deleter) h->m->deleter(h->m);
  free(h);
}

/* One fresh managed tensor (what a __dlpack__ call gives): its own shape and strides, the
   held export's data (h counted), or, for a copy, data of its own (h NULL). */
typedef struct {
  union {
    DLManagedTensorVersioned v;
    DLManagedTensor l;
  } m;
  held *h;
  void *copy;
  int64_t dims[]; /* shape, then strides */
} fresh;

static void fresh_free(fresh *f) {
  held_release(f->h);
  free(f->copy);
  free(f);
}

static void fresh_delete_versioned(DLManagedTensorVersioned *self) {
  fresh_free(self->manager_ctx);
}

static void fresh_delete_legacy(DLManagedTensor *self) { fresh_free(self->manager_ctx); }

/* Copies the elements of src (any strides) into dst, row-major; idx has ndim zeroed slots. */
static void copy_strided(const DLTensor *src, char *dst, size_t esize, int64_t numel,
                         int64_t *idx) {
  const char *base = (const char *)src->data + src->byte_offset;
  if (!src->strides) {
    memcpy(dst, base, (size_t)numel * esize);
    return;
  }
  for (int64_t i = 0; i < numel; i++) {
    int64_t off = 0;
    for (int d = 0; d < src->ndim; d++) off += idx[d] * src->strides[d];
    memcpy(dst + (size_t)i * esize, base + off * (int64_t)esize, esize);
    for (int d = src->ndim - 1; d >= 0 && ++idx[d] == src->shape[d]; d--) idx[d] = 0;
  }
}

/* Whether src's elements lie row-major without gaps (NULL strides, or the compact ones; dims of
   size 1 may have any stride). */
static int is_compact(const DLTensor *src) {
  if (!src->strides) return 1;
  int64_t step = 1;
  for (int d = src->ndim - 1; d >= 0; d--) {
    if (src->shape[d] == 0) return 1;
    if (src->shape[d] != 1 && src->strides[d] != step) return 0;
    step *= src->shape[d];
  }
  return 1;
}

/* The bytes of a copy of src (numel elements): numel x the element size, or for sub-byte elements
   packed several to a byte (packed) ceil(numel x bits / 8). -1 when that overflows a size. */
static int64_t copy_bytes(const DLTensor *src, int64_t numel, int packed) {
  uint64_t bits = (uint64_t)src->dtype.bits * src->dtype.lanes;
  if (packed) return numel > INT64_MAX / (int64_t)bits ? -1 : (numel * (int64_t)bits + 7) / 8;
  int64_t esize = (int64_t)(bits + 7) / 8;
  return numel > (int64_t)(PTRDIFF_MAX / esize) ? -1 : numel * esize;
}

/* A fresh managed tensor from h (a copy when copy); NULL with an exception. */
static fresh *fresh_new(held *h, int versioned, int copy) {
  const DLTensor *src = &h->m->dl_tensor;
  int nd = src->ndim;
  /* sub-byte elements two (or more) to a byte, unless the producer said they are padded */
  uint64_t padded = h->m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  int packed = (uint64_t)src->dtype.bits * src->dtype.lanes < 8 && !padded;
  int64_t numel = 1, bytes = 0;
  for (int d = 0; d < nd; d++) numel *= src->shape[d]; /* checked by ltensor's export */
  if (copy && packed && !is_compact(src)) {
    PyErr_SetString(PyExc_BufferError,
                    "cannot copy a non-contiguous tensor of packed sub-byte elements (they have "
                    "no byte address of their own); make it contiguous first");
    return NULL;
  }
  if (copy && (bytes = copy_bytes(src, numel, packed)) < 0) return (fresh *)PyErr_NoMemory();
  fresh *f = calloc(1, sizeof *f + 2 * (size_t)nd * sizeof(int64_t));
  if (!f) return (fresh *)PyErr_NoMemory();
  DLTensor *dl = versioned ? &f->m.v.dl_tensor : &f->m.l.dl_tensor;
  *dl = *src;
  dl->shape = f->dims;
  dl->strides = src->strides || copy ? f->dims + nd : NULL;
  for (int64_t d = nd - 1, step = 1; d >= 0; d--) { /* a copy's strides: row-major */
    f->dims[d] = src->shape[d];
    if (dl->strides) dl->strides[d] = copy ? step : src->strides[d];
    step *= src->shape[d];
  }
  uint64_t flags = (h->m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) | padded;
  if (copy) {
    f->copy = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!f->copy) {
      free(f);
      return (fresh *)PyErr_NoMemory();
    }
    int64_t *idx = calloc(nd > 0 ? (size_t)nd : 1, sizeof(int64_t));
    if (!idx) {
      free(f->copy);
      free(f);
      return (fresh *)PyErr_NoMemory();
    }
    if (packed) /* compact: the packed bytes as they are (byte_offset is 0 for packed data) */
      memcpy(f->copy, (const char *)src->data + src->byte_offset, (size_t)bytes);
    else if (numel > 0)
      copy_strided(src, f->copy, (size_t)(bytes / numel), numel, idx);
    free(idx);
    dl->data = f->copy;
    dl->byte_offset = 0;
    flags = DLPACK_FLAG_BITMASK_IS_COPIED | padded; /* the consumer's: writable */
  } else {
    f->h = h;
    atomic_fetch_add(&h->refs, 1);
  }
  if (versioned) {
    f->m.v.version.major = DLPACK_MAJOR_VERSION;
    f->m.v.version.minor = DLPACK_MINOR_VERSION;
    f->m.v.manager_ctx = f;
    f->m.v.deleter = fresh_delete_versioned;
    f->m.v.flags = flags;
  } else {
    f->m.l.manager_ctx = f;
    f->m.l.deleter = fresh_delete_legacy;
  }
  return f;
}

/* Destructor of the capsules __dlpack__ gives: deletes only when no consumer took the tensor
   (the capsule still has its original name). */
static void capsule_destructor(PyObject *capsule) {
  for (int k = 0; k < 2; k++) {
    if (!PyCapsule_IsValid(capsule, capsule_names[k])) continue; /* sets no exception */
    fresh *f = PyCapsule_GetPointer(capsule, capsule_names[k]);
    if (f) fresh_free(f);
    return;
  }
}

/* clang-format off */
typedef struct {
  PyObject_HEAD
  held *h;
} exporter;
/* clang-format on */

static void exporter_dealloc(PyObject *self) {
  held_release(((exporter *)self)->h);
  Py_TYPE(self)->tp_free(self);
}

/* An optional bool argument: -1 None, 0, 1; -2 with an exception. */
static int opt_bool(PyObject *v, const char *name) {
  if (v == Py_None) return -1;
  if (!PyBool_Check(v)) {
    PyErr_Format(PyExc_TypeError, "%s must be a bool or None, got %s", name, Py_TYPE(v)->tp_name);
    return -2;
  }
  return v == Py_True;
}

/* NULL with a TypeError saying why (replacing the one PyArg_ParseTuple may have set). */
static PyObject *type_error(const char *why) {
  PyErr_Clear();
  PyErr_SetString(PyExc_TypeError, why);
  return NULL;
}

static PyObject *exporter_dlpack(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy_arg = Py_None;
  held *h = ((exporter *)self)->h;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$OOO:__dlpack__", kwlist, &stream, &max_version,
                                   &dl_device, &copy_arg))
    return NULL;
  if (stream != Py_None && !PyLong_Check(stream))
    return PyErr_Format(PyExc_TypeError, "stream must be an int or None, got %s",
                        Py_TYPE(stream)->tp_name);
  int versioned = 0, major, minor;
  if (max_version != Py_None) {
    if (!PyTuple_Check(max_version) || !PyArg_ParseTuple(max_version, "ii", &major, &minor))
      return type_error("max_version must be a tuple (major, minor) or None");
    versioned = major >= 1;
  }
  int copy = opt_bool(copy_arg, "copy");
  if (copy == -2) return NULL;
  DLDevice dev = h->m->dl_tensor.device;
  if (dl_device != Py_None) {
    int type, id;
    if (!PyTuple_Check(dl_device) || !PyArg_ParseTuple(dl_device, "ii", &type, &id))
      return type_error("dl_device must be a tuple (device_type, device_id) or None");
    if (type != (int)dev.device_type || id != (int)dev.device_id)
      return PyErr_Format(PyExc_BufferError,
                          "cannot export a tensor on device (%d, %d) to device (%d, %d): "
                          "ltensor does not copy between devices",
                          (int)dev.device_type, (int)dev.device_id, type, id);
  }
  if (copy == 1 && dev.device_type != kDLCPU)
    return PyErr_Format(PyExc_BufferError, "cannot copy a tensor on device (%d, %d)",
                        (int)dev.device_type, (int)dev.device_id);
  if (!versioned && copy != 1 && (h->m->flags & DLPACK_FLAG_BITMASK_READ_ONLY)) {
    PyErr_SetString(PyExc_BufferError,
                    "a read-only tensor cannot be exported as a legacy DLPack capsule, which "
                    "cannot mark it read-only (ask for max_version >= (1, 0), or copy=True)");
    return NULL;
  }
  fresh *f = fresh_new(h, versioned, copy == 1);
  if (!f) return NULL;
  PyObject *capsule = PyCapsule_New(f, capsule_names[versioned], capsule_destructor);
  if (!capsule) fresh_free(f);
  return capsule;
}

static PyObject *exporter_dlpack_device(PyObject *self, PyObject *unused) {
  (void)unused;
  DLDevice dev = ((exporter *)self)->h->m->dl_tensor.device;
  return Py_BuildValue("(ii)", (int)dev.device_type, (int)dev.device_id);
}

static PyMethodDef exporter_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))exporter_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(stream=None, *, max_version=None, dl_device=None, copy=None): a DLPack capsule "
     "of the tensor, made fresh on each call"},
    {"__dlpack_device__", exporter_dlpack_device, METH_NOARGS,
     "__dlpack_device__(): (device_type, device_id)"},
    {NULL, NULL, 0, NULL},
};

/* clang-format off */
static PyTypeObject exporter_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ltensor_python.Export",
    .tp_doc = "An ltensor tensor exported to Python: a DLPack producer (numpy.from_dlpack, "
              "torch.from_dlpack).",
    .tp_basicsize = sizeof(exporter),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = exporter_dealloc,
    .tp_methods = exporter_methods,
};
/* clang-format on */

PyObject *ltensor_py_export(lua_State *L, int idx) {
  if (!(exporter_type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&exporter_type) < 0) return NULL;
  DLManagedTensorVersioned *m = NULL;
  int rc = ltensor_export(L, idx, 0, &m);
  if (rc != LTENSOR_OK) {
    const char *msg = lua_tostring(L, -1);
    PyErr_SetString(rc == LTENSOR_ERRMEM    ? PyExc_MemoryError
                    : rc == LTENSOR_ERRTYPE ? PyExc_TypeError
                                            : PyExc_ValueError,
                    msg ? msg : "cannot export the tensor");
    lua_pop(L, 1);
    return NULL;
  }
  held *h = malloc(sizeof *h);
  exporter *e = h ? PyObject_New(exporter, &exporter_type) : NULL;
  if (!e) {
    free(h);
    if (m->deleter) m->deleter(m);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  atomic_init(&h->refs, 1);
  h->m = m;
  e->h = h;
  return (PyObject *)e;
}

/* }====== */
