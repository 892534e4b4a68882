/*
 * test_python.c -- ltensor's Python library (src/python/ltensor_python.h, ltensor::python) in a
 * host that embeds CPython (Debian's, with NumPy 1.24 and torch 1.13) and Lua 5.4 with ltensor
 * linked through ltensor::python, with the fixtures of test_py.h.
 *
 * What is checked: ltensor_py_push of NumPy arrays and torch tensors (through __dlpack__, which
 * both reject max_version, and as raw capsules), of ltensor's own exports (versioned capsules,
 * READ_ONLY kept) and its refusals (no __dlpack__, a consumed or foreign capsule, a raising
 * __dlpack__): a status, the message on the Lua stack, no Python exception left set;
 * ltensor_py_export into np.from_dlpack and torch.from_dlpack (legacy capsules), versioned
 * capsules with max_version, copy=True, dl_device and stream checks, the legacy refusal of a
 * read-only tensor (BufferError), a fresh capsule per call; writes seen both ways; exports
 * that outlive lua_close; deleter counts exact (host tensors that count, weakrefs on Python's);
 * copies of fp4 tensors: packed ones copied byte for byte (no read past their bytes), a
 * non-contiguous packed view refused (BufferError), padded ones still flagged padded.
 * Exit status: nonzero when a check failed. TEST_PYTHON_VERBOSE=1 prints each section.
 */
#include "ltensor_python.h" /* first: it includes Python.h, which sets feature macros */
#include "test_py.h"

/* ltensor_py_push(L, the value of expr) failed with status, a message containing needle on the
   Lua stack (popped), the stack one higher than before and no Python exception set. */
static int push_fails(const char *expr, int status, const char *needle) {
  PyObject *v = py_run(Py_eval_input, expr);
  if (!v) return 0;
  int top = lua_gettop(L);
  int rc = ltensor_py_push(L, v);
  Py_DECREF(v);
  const char *msg = lua_gettop(L) == top + 1 ? lua_tostring(L, -1) : NULL;
  int ok = rc == status && msg && strstr(msg, needle) && !PyErr_Occurred();
  if (!ok)
    fprintf(stderr, "  ltensor_py_push(%s): status %d (want %d), message %s (want \"%s\")%s\n",
            expr, rc, status, msg ? msg : "(none)", needle,
            PyErr_Occurred() ? ", a Python exception left set" : "");
  lua_settop(L, top);
  PyErr_Clear();
  return ok;
}

static const char py_setup[] =
    "import numpy as np, torch\n"
    "from torch.utils import dlpack as tdl\n"
    "torch.set_num_threads(1)\n"
    "def capname(c): return repr(c).split('\"')[1]\n"
    "class Raising:\n"
    "    def __dlpack__(self, **kw): raise ValueError('no tensor today')\n"
    "class NotCapsule:\n"
    "    def __dlpack__(self, **kw): return 42\n"
    "class Versioned:  # a producer that speaks DLPack 1.x: records what it was asked\n"
    "    def __init__(self, inner): self.inner, self.asked = inner, None\n"
    "    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):\n"
    "        self.asked = max_version\n"
    "        return self.inner.__dlpack__(max_version=max_version)\n"
    "    def __dlpack_device__(self): return self.inner.__dlpack_device__()\n";

static void test_push(void) {
  section("1: ltensor_py_push");
  set_context("numpy array through __dlpack__");
  CHECK(py_ok("a = np.arange(12, dtype=np.float32).reshape(3, 4); wa = weakref.ref(a)"));
  CHECK(py_tensor_to_lua_("t", "a"));
  CHECK(lua_true("t.dtype == 'float32' and t:size(1) == 3 and t:size(2) == 4"));
  CHECK(lua_true("t[{2, 3}] == 6"));
  CHECK(lua_to_py("p", "t:data_ptr()") && py_true("p == a.ctypes.data"));
  CHECK(lua_ok("t[{1, 1}] = -5") && py_true("a[0, 0] == -5"));
  CHECK(py_ok("a[2, 3] = 99") && lua_true("t[{3, 4}] == 99"));
  CHECK(py_ok("del a; gc.collect()") && py_true("wa() is not None"));
  CHECK(lua_ok("t = nil") && (lua_gc_full(), py_true("wa() is None")));

  set_context("numpy strided view");
  CHECK(py_ok("g = np.zeros((4, 6), np.int16)"));
  CHECK(py_tensor_to_lua_("v", "g[:, ::2]") && lua_ok("v:fill_(7); v = nil"));
  CHECK(py_true("(g[:, ::2] == 7).all() and not g[:, 1::2].any()"));

  set_context("torch tensor through __dlpack__ and as a capsule");
  CHECK(py_ok("b = torch.arange(6, dtype=torch.float64).reshape(2, 3); wb = weakref.ref(b)"));
  CHECK(py_tensor_to_lua_("tb", "b.T"));
  CHECK(lua_true("tb.dtype == 'float64' and tb:size(1) == 3 and tb[{3, 2}] == 5"));
  CHECK(lua_ok("tb[{1, 2}] = 40") && py_true("b[1, 0].item() == 40"));
  CHECK(py_ok("c = tdl.to_dlpack(b)") && py_tensor_to_lua_("tc", "c"));
  CHECK(py_true("capname(c) == 'used_dltensor'"));
  /* torch's capsule holds its ATen tensor, not the Python object: the data outlives b */
  CHECK(py_ok("del b, c; gc.collect()") && py_true("wb() is None"));
  CHECK(lua_true("tc[{2, 1}] == 40 and tb[{3, 2}] == 5") && lua_ok("tb, tc = nil"));

  set_context("versioned producers: max_version asked, READ_ONLY kept");
  int before = host_deleted;
  CHECK(host_to_lua("ro", 1, host_f64, 4, DLPACK_FLAG_BITMASK_READ_ONLY));
  CHECK(lua_tensor_to_py_("ex", "ro") && lua_ok("ro = nil"));
  CHECK(py_ok("vp = Versioned(ex)") && py_tensor_to_lua_("back", "vp"));
  CHECK(py_true("vp.asked == (1, 3)"));
  CHECK(lua_true("back:is_read_only() and back[2] == 1.5"));
  CHECK(lua_raises("read-only", "back[1] = 0"));
  CHECK(py_ok("vc = ex.__dlpack__(max_version=(1, 0))") &&
        py_true("capname(vc) == 'dltensor_versioned'"));
  CHECK(py_tensor_to_lua_("back2", "vc") && lua_true("back2:is_read_only()"));
  CHECK(py_true("capname(vc) == 'used_dltensor_versioned'"));
  CHECK(py_ok("del vp, vc, ex; gc.collect()") && host_deleted == before);
  CHECK(lua_ok("back, back2 = nil") && (lua_gc_full(), host_deleted == before + 1));

  set_context("refusals: a status, the message, no exception");
  CHECK(push_fails("3", LTENSOR_ERRARG, "expected an object with __dlpack__"));
  CHECK(push_fails("[1, 2]", LTENSOR_ERRARG, "got a Python list"));
  CHECK(push_fails("Raising()", LTENSOR_ERRARG, "no tensor today"));
  CHECK(push_fails("NotCapsule()", LTENSOR_ERRARG, "returned a Python int"));
  CHECK(py_ok("import datetime; dtc = datetime.datetime_CAPI"));
  CHECK(push_fails("dtc", LTENSOR_ERRARG, "not a DLPack capsule"));
  CHECK(py_ok("uc = np.arange(3.0).__dlpack__()") && py_tensor_to_lua_("u", "uc"));
  CHECK(push_fails("uc", LTENSOR_ERRARG, "already consumed"));
  CHECK(lua_true("u[3] == 2.0") && lua_ok("u = nil") && py_ok("del uc"));
  /* ltensor refuses the tensor itself (a 7-bit float): the capsule is consumed and its
     deleter ran */
  before = host_deleted;
  DLManagedTensor *bad = host_new(0, (DLDataType){kDLFloat, 7, 1}, 2, 0);
  PyObject *cap = PyCapsule_New(bad, "dltensor", NULL);
  CHECK(cap && PyDict_SetItemString(G, "badcap", cap) == 0);
  Py_XDECREF(cap);
  CHECK(push_fails("badcap", LTENSOR_ERRARG, "") && host_deleted == before + 1);
  CHECK(py_true("capname(badcap) == 'used_dltensor'") && py_ok("del badcap"));
  CHECK(host_deleted == before + 1);
}

static void test_export(void) {
  section("2: ltensor_py_export");
  set_context("into np.from_dlpack, shared both ways");
  CHECK(lua_ok("x = lt.arange(12, 'float64'):reshape(3, 4)"));
  CHECK(lua_tensor_to_py_("ex", "x:transpose(1, 2)"));
  CHECK(py_true("ex.__dlpack_device__() == (1, 0)"));
  CHECK(py_ok("n = np.from_dlpack(ex)") && py_true("n.shape == (4, 3) and n[3, 2] == 11"));
  CHECK(lua_to_py("p", "x:data_ptr()") && py_true("n.ctypes.data == p"));
  CHECK(lua_ok("x[{1, 2}] = -3") && py_true("n[1, 0] == -3"));
  CHECK(py_ok("al = np.ndarray(n.shape, n.dtype, buffer=(ctypes.c_char * 96).from_address(p), "
              "strides=n.strides); al[2, 1] = 77") &&
        lua_true("x[{2, 3}] == 77"));
  CHECK(py_ok("n2 = np.from_dlpack(ex)") && py_true("n2[2, 1] == 77")); /* a fresh capsule */
  CHECK(py_ok("del al"));

  set_context("into torch.from_dlpack, shared both ways");
  CHECK(lua_tensor_to_py_("tx", "x[2]"));
  CHECK(py_ok("tt = torch.from_dlpack(tx)") && py_true("tt.tolist() == [4.0, 5.0, 77.0, 7.0]"));
  CHECK(py_ok("tt[0] = 123") && lua_true("x[{2, 1}] == 123"));
  CHECK(lua_ok("x[{2, 4}] = 0.5") && py_true("tt[3].item() == 0.5"));
  CHECK(py_true("tdl.from_dlpack(tx).data_ptr() == tt.data_ptr()"));

  set_context("capsules: versioned, legacy, copies, devices, streams");
  CHECK(py_true("capname(ex.__dlpack__()) == 'dltensor'"));
  CHECK(py_true("capname(ex.__dlpack__(max_version=(0, 8))) == 'dltensor'"));
  CHECK(py_true("capname(ex.__dlpack__(max_version=(1, 3))) == 'dltensor_versioned'"));
  CHECK(py_true("capname(ex.__dlpack__(stream=None, dl_device=(1, 0))) == 'dltensor'"));
  CHECK(py_true("raises(lambda: ex.__dlpack__(dl_device=(2, 0)), BufferError)"));
  CHECK(py_true("raises(lambda: ex.__dlpack__(stream='s'), TypeError)"));
  CHECK(py_true("raises(lambda: ex.__dlpack__(copy=1), TypeError)"));
  CHECK(py_true("raises(lambda: ex.__dlpack__(max_version=3), TypeError)"));
  /* copy=True: ltensor's memory is not the copy's */
  CHECK(py_ok("cp = np.from_dlpack(Versioned(ex))") && py_true("cp.ctypes.data == p"));
  CHECK(py_ok("c = ex.__dlpack__(copy=True)") && py_tensor_to_lua_("xc", "c"));
  CHECK(lua_true("xc:size(1) == 4 and xc:size(2) == 3 and xc:is_contiguous()"));
  CHECK(lua_true("xc:data_ptr() ~= x:data_ptr() and xc:equal(x:t())"));
  CHECK(lua_ok("xc[{1, 1}] = 1000") && lua_true("x[{1, 1}] == 0"));
  CHECK(py_ok("vc = ex.__dlpack__(max_version=(1, 3), copy=True)") &&
        py_tensor_to_lua_("xv", "vc") && lua_true("not xv:is_read_only() and xv:equal(x:t())"));
  CHECK(lua_ok("xc, xv = nil") && py_ok("del c, vc, cp"));

  set_context("a read-only tensor");
  int before = host_deleted;
  CHECK(host_to_lua("ro", 1, host_f64, 3, DLPACK_FLAG_BITMASK_READ_ONLY));
  CHECK(lua_tensor_to_py_("rex", "ro"));
  CHECK(py_true("raises(lambda: rex.__dlpack__(), BufferError)"));
  CHECK(py_ok("try:\n    np.from_dlpack(rex)\nexcept BufferError as e:\n    why = str(e)"));
  CHECK(py_true("'read-only' in why and 'legacy' in why"));
  CHECK(py_true("raises(lambda: torch.from_dlpack(rex), BufferError)"));
  CHECK(py_ok("rcopy = tdl.from_dlpack(rex.__dlpack__(copy=True))"));
  CHECK(py_true("rcopy.tolist() == [0.5, 1.5, 2.5]"));
  CHECK(py_ok("rcopy[0] = 9") && lua_true("ro[1] == 0.5"));
  CHECK(lua_tensor_to_py_("wex", "dlpack.ReadOnlyTensorWrapper(lt.arange(3))"));
  CHECK(py_true("raises(lambda: np.from_dlpack(wex), BufferError)"));
  CHECK(py_ok("del rex, rcopy, wex; gc.collect()") && lua_ok("ro = nil"));
  CHECK((lua_gc_full(), host_deleted == before + 1));

  set_context("no tensor at idx");
  lua_pushinteger(L, 3);
  int top = lua_gettop(L);
  PyObject *none = ltensor_py_export(L, -1);
  CHECK(!none && PyErr_ExceptionMatches(PyExc_TypeError) && lua_gettop(L) == top);
  Py_XDECREF(none);
  PyErr_Clear();
  lua_pop(L, 1);
  CHECK(py_ok("del ex, n, n2, tx, tt; gc.collect()"));
}

/* {------ sub-byte elements: fp4 two to a byte (packed) or one to a byte (padded) ------ */

/* A host fp4 tensor of rows x 8 elements whose data is a block of its own, exactly as large as
   the elements need (so that AddressSanitizer sees a read past it): packed, 4 bytes a row, byte
   i holding 7 i + 1; padded (flags), 8 bytes a row of zeros. */
static int fp4_to_lua(const char *luavar, int64_t rows, uint64_t flags) {
  size_t n = (size_t)rows * (flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED ? 8 : 4);
  tm_block *h = tm_block_new(n, &host_deleted);
  unsigned char *data = h->data;
  for (size_t i = 0; !flags && i < n; i++) data[i] = (unsigned char)(7 * i + 1);
  h->shape[0] = rows;
  h->shape[1] = 8;
  tm_manage(&h->m, 1, tm_desc(h->data, dt_of(kDLFloat4_e2m1fn, 4, 1), 2, h->shape, NULL), h,
            tm_block_delete, NULL, flags);
  if (pylua_push_managed(L, &h->m, 1) != 0) {
    py_report("cannot push", "an fp4 host tensor");
    return 0;
  }
  lua_setglobal(L, "_cap");
  return lua_ok("%s = dlpack.from_dlpack(_cap); _cap = nil", luavar);
}

/* The managed tensor of the versioned capsule the Python expression gives (the capsule, which
   still owns it, stays in the Python global `held_capsule`); NULL with a report. */
static DLManagedTensorVersioned *capsule_tensor(const char *expr) {
  if (!py_ok("held_capsule = %s", expr)) return NULL;
  PyObject *c = PyDict_GetItemString(G, "held_capsule"); /* borrowed */
  DLManagedTensorVersioned *m = c ? PyCapsule_GetPointer(c, "dltensor_versioned") : NULL;
  if (!m) {
    py_report("not a versioned capsule:", expr);
    PyErr_Clear();
  }
  return m;
}

static void test_subbyte(void) {
  section("3: sub-byte elements");
  int before = host_deleted;
  set_context("a packed fp4 tensor: 64 elements in 32 bytes");
  CHECK(fp4_to_lua("f4", 8, 0) && lua_true("f4:nbytes() == 32 and f4:numel() == 64"));
  CHECK(lua_tensor_to_py_("f4x", "f4"));
  DLManagedTensorVersioned *m = capsule_tensor("f4x.__dlpack__(max_version=(1, 3), copy=True)");
  CHECK(m && m->dl_tensor.dtype.bits == 4 && (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED));
  CHECK(m && !(m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED));
  int same = m != NULL;
  for (int i = 0; same && i < 32; i++) same = ((unsigned char *)m->dl_tensor.data)[i] == 7 * i + 1;
  CHECK(same); /* the packed bytes, copied as they are */
  CHECK(py_ok("del held_capsule"));
  CHECK(py_tensor_to_lua_("f4c", "f4x.__dlpack__(max_version=(1, 3), copy=True)"));
  CHECK(lua_true("f4c:nbytes() == 32 and f4c:data_ptr() ~= f4:data_ptr()"));

  set_context("a non-contiguous packed view cannot be copied");
  CHECK(lua_tensor_to_py_("f4t", "f4:t()"));
  CHECK(py_true("raises(lambda: f4t.__dlpack__(max_version=(1, 3), copy=True), BufferError)"));
  CHECK(py_true("raises(lambda: f4t.__dlpack__(copy=True), BufferError)"));
  CHECK(py_ok("f4v = f4t.__dlpack__(max_version=(1, 3))")); /* sharing needs no copy */

  set_context("padded fp4 (one to a byte) stays padded, copied or not");
  CHECK(fp4_to_lua("p4", 2, DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED));
  CHECK(lua_true("p4:nbytes() == 16") && lua_tensor_to_py_("p4x", "p4"));
  m = capsule_tensor("p4x.__dlpack__(max_version=(1, 3))");
  CHECK(m && (m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED));
  m = capsule_tensor("p4x.__dlpack__(max_version=(1, 3), copy=True)");
  CHECK(m && (m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) &&
        (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED));
  CHECK(py_ok("del held_capsule, f4x, f4t, f4v, p4x; gc.collect()"));
  CHECK(lua_ok("f4, f4c, p4 = nil") && (lua_gc_full(), host_deleted == before + 2));
}

/* }------ */

/* Exports (and what consumed them) outlive lua_close; the host tensor's deleter runs once, when
   the last of them is gone. */
static void test_outlives_state(void) {
  section("4: exports outlive lua_close");
  set_context("lua_close before the consumers read");
  int before = host_deleted;
  CHECK(host_to_lua("h", 0, host_f64, 6, 0));
  CHECK(lua_tensor_to_py_("hx", "h:narrow(1, 2, 4)"));
  CHECK(py_ok("hn = np.from_dlpack(hx)") && lua_tensor_to_py_("hy", "h"));
  CHECK(lua_tensor_to_py_("big", "lt.arange(100000):reshape(1000, 100):t()"));
  CHECK(py_ok("bigt = torch.from_dlpack(big)"));
  CHECK(py_ok("pending = hy.__dlpack__(max_version=(1, 3))")); /* never consumed */
  CHECK(py_ok("d = np.arange(4.0); wd = weakref.ref(d)") && py_tensor_to_lua_("fromnp", "d"));
  CHECK(py_ok("del d; gc.collect()") && py_true("wd() is not None"));
  close_lua();
  CHECK(py_ok("gc.collect()") && py_true("wd() is None")); /* NumPy's deleter ran in lua_close */
  CHECK(host_deleted == before);
  CHECK(py_true("hn.tolist() == [1.5, 2.5, 3.5, 4.5]"));
  CHECK(py_true("bigt.shape == (100, 1000) and bigt[7, 3].item() == 307"));
  CHECK(py_ok("n3 = np.from_dlpack(hx)") && py_true("n3[3] == 4.5")); /* fresh after close */
  CHECK(py_ok("del hx, hn, n3, big, bigt; gc.collect()") && host_deleted == before);
  CHECK(py_ok("del hy; gc.collect()") && host_deleted == before); /* pending holds it */
  CHECK(py_ok("del pending; gc.collect()") && host_deleted == before + 1);
}

int main(int argc, char **argv) {
  const char *v = getenv("TEST_PYTHON_VERBOSE");
  verbose = v && *v && strcmp(v, "0") != 0;
  G = pylua_start(argc, argv, "test_python: FAIL");
  if (!G || !py_ok("%s", tp_py_helpers) || !py_ok("%s", py_setup)) {
    fprintf(stderr,
            "test_python: FAIL: cannot set up Python with NumPy and torch "
            "(apt-get install python3-numpy python3-torch)\n");
    return 1;
  }
  CHECK(tp_open_lua(luaopen_ltensor_core));
  if (tu_failed) return tu_finish("test_python");
  test_push();
  test_export();
  test_subbyte();
  test_outlives_state();
  tu_context[0] = '\0';
  CHECK(Py_FinalizeEx() == 0);
  return tu_finish("test_python");
}
