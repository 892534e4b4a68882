/*
 * numpy_host.c -- NumPy on the other side of DLPack: a host that embeds CPython (with NumPy)
 * and Lua 5.4 (with ltensor linked statically) in one process and passes tensors both ways
 * through ltensor's Python library (src/python/ltensor_python.h), and raw capsules through the
 * test support of spec/c/pylua.c.
 *
 *   NumPy -> Lua  ltensor_py_push(L, arr)
 *   Lua -> NumPy  np.from_dlpack(ltensor_py_export(L, idx))
 *   capsules      arr.__dlpack__() -> pylua_push_pycapsule -> dlpack.from_dlpack(cap), and
 *                 dlpack.to_dlpack(t) -> pylua_take_capsule -> pylua_exporter_new
 *
 * What is checked: every dtype both sides support, both ways (values, dtype names, shapes,
 * bytes); zero copy (writes seen across, equal data pointers, copy-on-write clones); strided,
 * transposed, negative-stride, 0-d and empty tensors both ways; that both sides' deleters run
 * (a NumPy weakref; host-made tensors whose deleter counts); an export that outlives its Lua
 * state; errors (consumed capsules, read-only tensors, dtypes NumPy refuses); and tensor math
 * (operators, elementwise methods, reductions, matmul, cat/stack) against NumPy's on shared
 * arrays, where torch's rules (which ltensor follows) and NumPy's agree; and (8,
 * numpy_host_funcs.h) issue 16's functions, softmax, comparisons, einsum and the bitwise ops;
 * (9, numpy_host_index.h) indexing with tensors, (10, numpy_host_sort.h) issue 15's sorting and
 * scans, and (11, numpy_host_files.h) .npy, .npz and .safetensors files against NumPy's.
 *
 * The embedded Python is the one python3-embed names (Debian's, with python3-numpy), whatever
 * `python3` is on PATH. If NumPy cannot be imported the test fails. Exit status: nonzero when
 * any check failed. Set NUMPY_HOST_VERBOSE=1 to print each section. The fixtures (running code
 * on both sides, host tensors) are test_py.h's.
 */
#include "ltensor_python.h" /* first: it includes Python.h, which sets feature macros */
#include "test_py.h"

/* {====== NumPy on the other side ====== */

/* NumPy -> Lua: Lua global luavar = ltensor_py_push(the array expr). */
PRINTF_LIKE(2, 3) static int np_to_lua(const char *luavar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return py_tensor_to_lua_(luavar, code);
}

/* Lua -> NumPy: Python global pyvar = np.from_dlpack(ltensor_py_export(the tensor expr)). */
PRINTF_LIKE(2, 3) static int lua_to_np(const char *pyvar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  if (!lua_tensor_to_py_("_ex", code)) return 0;
  return py_ok("%s = np.from_dlpack(_ex); del _ex", pyvar);
}

/* Python helpers the checks use, beside test_py.h's (tp_py_helpers, tp_py_samples). Each literal
   stays under C99's 4095 characters. */
static const char py_helpers[] =
    "def np_vals(a): return strict(cplx(a.tolist()))\n"
    "def pvals(a): return np_vals(a)  # pvals, psize, pbytes, paddr: tp_same_as_pv's\n"
    "def psize(a): return a.size\n"
    "def pbytes(a): return a.tobytes()\n"
    "def paddr(a): return a.ctypes.data\n"
    "def lstrides(a): return [s // a.itemsize for s in a.strides]\n"
    "def alias(b):  # a writable NumPy array on b's memory (NumPy marks imports read-only)\n"
    "    buf = (ctypes.c_char * b.nbytes).from_address(b.ctypes.data)\n"
    "    buf.keep = b  # the alias keeps b alive\n"
    "    return np.ndarray(b.shape, b.dtype, buffer=buf, strides=b.strides)\n"
    "def misaligned(dt, n):  # NumPy exports arrays whose data is not aligned to the dtype\n"
    "    a = np.frombuffer(bytearray(n * np.dtype(dt).itemsize + 1), dt, count=n, offset=1)\n"
    "    a[...] = np.arange(n, dtype=dt) * 3\n"
    "    return a\n"
    "NP_BOOL_OUT = not raises(lambda: np.zeros(2, bool).__dlpack__())\n"
    "NP_BOOL_IN = NP_BOOL_OUT and not raises(lambda: np.from_dlpack(np.zeros(2, bool)))\n";

/* }====== */

/* {====== 1, 2: every dtype, both ways; zero copy ====== */

static const char *const dtypes[] = {"bool",    "int8",    "int16",     "int32",     "int64",
                                     "uint8",   "uint16",  "uint32",    "uint64",    "float16",
                                     "float32", "float64", "complex64", "complex128"};

static void numpy_to_lua_dtype(const char *dt) {
  CHECK(py_ok("dt = np.dtype('%s'); a = np.array(SAMPLES['%s'], dt).reshape(2, 3)", dt, dt));
  CHECK(np_to_lua("t", "a"));
  CHECK(lua_true("t.dtype == '%s' and t.ndim == 2 and t.device == 'cpu'", dt));
  CHECK(lua_true("not t:is_read_only()"));
  tp_same_as("t", "a", "lstrides(a)");
  CHECK(lua_to_py("le", "t:element_size()") && py_eq("le", "a.itemsize"));
  /* zero copy: NumPy writes, Lua reads; Lua writes, NumPy reads; one address */
  CHECK(py_ok("a[1, 2] = W2[dt.name]"));
  CHECK(lua_to_py("lx", "t[2][3]") && py_true("strict(lx) == strict(cplx(a[1, 2].item()))"));
  CHECK(lua_to_py("lx", "t[2][3]") &&
        py_true("strict(lx) == strict(cplx(np.array(W2[dt.name], dt).item()))"));
  CHECK(py_to_lua("w", "W1[dt.name]") && lua_ok("t[1][1] = w"));
  CHECK(py_true("a[0, 0].tobytes() == np.array(W1[dt.name], dt).tobytes()"));
  CHECK(lua_ok("t = nil") && py_ok("del a"));
}

static void lua_to_numpy_dtype(const char *dt) {
  CHECK(py_ok("dt = np.dtype('%s')", dt) && tp_lua_sample(dt));
  CHECK(lua_true("u.dtype == '%s'", dt));
  CHECK(lua_to_np("b", "u"));
  CHECK(py_true("b.dtype == dt and b.shape == (2, 3)"));
  CHECK(py_eq("np_vals(b)", "np_vals(np.array(SAMPLES[dt.name], dt).reshape(2, 3))"));
  CHECK(py_true("b.tobytes() == np.array(SAMPLES[dt.name], dt).tobytes()"));
  CHECK(lua_to_py("lv", "u:tolist()") && py_eq("strict(lv)", "np_vals(b)"));
  /* zero copy: Lua writes, NumPy reads; NumPy (through a writable alias) writes, Lua reads */
  CHECK(py_to_lua("w", "W1[dt.name]") && lua_ok("u[2][3] = w"));
  CHECK(py_true("b[1, 2].tobytes() == np.array(W1[dt.name], dt).tobytes()"));
  CHECK(py_ok("alias(b)[0, 1] = W2[dt.name]"));
  CHECK(lua_to_py("lx", "u[1][2]") &&
        py_true("strict(lx) == strict(cplx(np.array(W2[dt.name], dt).item()))"));
  CHECK(lua_to_py("lp", "u:data_ptr()") && py_true("lp == b.ctypes.data"));
  CHECK(lua_ok("u = nil") && py_ok("del b"));
}

/* NumPy 1.24 has no DLPack bool: its export refuses cleanly. */
static void numpy_refuses_bool(void) {
  CHECK(py_true("raises(lambda: np.zeros(3, bool).__dlpack__(), BufferError)"));
}

static void test_dtypes(void) {
  section("1, 2: dtypes both ways, zero copy");
  int bool_out = py_flag("NP_BOOL_OUT"), bool_in = py_flag("NP_BOOL_IN");
  tp_dtypes_both_ways("numpy", dtypes, sizeof dtypes / sizeof *dtypes, bool_out, bool_in,
                      numpy_to_lua_dtype, numpy_refuses_bool, lua_to_numpy_dtype);

  set_context("bool refused by numpy");
  if (!bool_in) {
    /* NumPy refuses the tensor after taking the capsule from __dlpack__: the capsule keeps its
       name, so its destructor (the bridge's) runs ltensor's deleter, which lets go of the
       host tensor underneath. */
    const DLDataType dl_bool = {kDLBool, 8, 1};
    int before = host_deleted;
    CHECK(host_to_lua("hb", 0, dl_bool, 4, 0));
    CHECK(lua_true("hb.dtype == 'bool' and hb[1] == false"));
    CHECK(lua_capsule_to_py("ex", "dlpack.to_dlpack(hb)"));
    CHECK(py_true("raises(lambda: np.from_dlpack(ex))"));
    CHECK(py_true("'\"dltensor\"' in repr(ex.__dlpack__())")); /* not consumed */
    CHECK(lua_ok("hb = nil") && (lua_gc_full(), host_deleted == before));
    CHECK(py_ok("del ex") && host_deleted == before + 1);
  }

  set_context("extremes");
  /* uint64 and Lua integers correspond bit for bit (string.unpack "I8"): NumPy's 2^64 - 1 reads
     as -1, 2^63 as math.mininteger; Lua's -1 reaches NumPy as 2^64 - 1; floats that fit are
     stored exactly */
  CHECK(np_to_lua("t", "np.array([2**64 - 1, 2**63, 2**63 - 1, 5], np.uint64)"));
  CHECK(lua_true("math.type(t[1]) == 'integer' and t[1] == -1 and t[2] == math.mininteger"));
  CHECK(lua_true("t[3] == math.maxinteger and t:tolist()[4] == 5 and t:get(1) == -1"));
  CHECK(lua_true("t:bytes() == string.pack('=I8I8I8I8', -1, math.mininteger, math.maxinteger, 5)"));
  CHECK(
      lua_true("tostring(t[{{1, 2}}]) == "
               "'tensor([18446744073709551615,  9223372036854775808], dtype=uint64)'"));
  CHECK(lua_ok("u = lt.zeros({4}, 'uint64'); u[1] = 2^63; u[2] = 1.8e19; u[3] = -1; u[4] = -2"));
  CHECK(lua_to_np("b", "u") &&
        py_true("b.tolist() == [2**63, 18000000000000000000, 2**64 - 1, 2**64 - 2]"));
  /* NaN both ways, in every float width */
  for (int bits = 16; bits <= 64; bits *= 2) {
    set_context("nan float%d", bits);
    CHECK(np_to_lua("t", "np.array([np.nan, -np.nan, 1], np.float%d)", bits));
    CHECK(lua_true("t[1] ~= t[1] and t[2] ~= t[2] and t[3] == 1"));
    CHECK(lua_to_np("b", "lt.tensor({0/0, 1, -(0/0)}, 'float%d')", bits));
    CHECK(py_true("np.isnan(b[0]) and b[1] == 1 and np.isnan(b[2])"));
  }
  CHECK(lua_ok("t, u = nil, nil") && py_ok("del b"));
  lua_gc_full();
}

/* A tensor x0 and its clone x1, one of them (exported) exported to NumPy as pc, before or after
   the clone: two writes (each followed by what pc holds then), then Lua's values; pc is the
   exported tensor's memory (and not the other's, when other is given). A writable export
   materializes a clone: observable behaviour equals an eager copy. */
static const struct {
  const char *what, *make, *exported, *write[2], *pc[2], *lua, *other;
} clone_cases[] = {
    {"export a clone",
     "x0 = lt.arange(6); x1 = x0:clone()",
     "x1",
     {"x0[1] = 100", "x1[2] = 200"},
     {"[0, 1, 2, 3, 4, 5]", "[0, 200, 2, 3, 4, 5]"},
     "x0[1] == 100 and x0[2] == 1 and x1[1] == 0",
     "x0"},
    {"clone after export",
     "x0 = lt.arange(4)",
     "x0",
     {"x1 = x0:clone(); x1[1] = 50", "x0[2] = 70"},
     {"[0, 1, 2, 3]", "[0, 70, 2, 3]"},
     "x1[1] == 50 and x1[2] == 1",
     NULL},
};

static void test_clones(void) {
  section("2: copy-on-write clones and exports");
  for (size_t i = 0; i < sizeof clone_cases / sizeof *clone_cases; i++) {
    set_context("%s", clone_cases[i].what);
    CHECK(lua_ok("%s", clone_cases[i].make));
    CHECK(lua_to_np("pc", "%s", clone_cases[i].exported));
    for (int w = 0; w < 2; w++) {
      CHECK(lua_ok("%s", clone_cases[i].write[w]));
      CHECK(py_true("pc.tolist() == %s", clone_cases[i].pc[w]));
    }
    CHECK(lua_true("%s", clone_cases[i].lua));
    CHECK(lua_to_py("lp", "%s:data_ptr()", clone_cases[i].exported) &&
          py_true("lp == pc.ctypes.data"));
    if (clone_cases[i].other)
      CHECK(lua_to_py("lp", "%s:data_ptr()", clone_cases[i].other) &&
            py_true("lp != pc.ctypes.data"));
    CHECK(lua_ok("x0, x1 = nil") && py_ok("del pc"));
  }
  tp_clone_of_import("e = np.arange(4.0)", np_to_lua);
  lua_gc_full();
}

/* }====== */

/* {====== 3: strided, transposed, sliced, 0-d, empty ====== */

/* Lua's view (an expression of s) in NumPy, Lua's writes seen there. */
static void view_to_numpy(const char *view) {
  tp_lua_view("numpy", view, lua_to_np, "np.int32", "lstrides(pv)");
  CHECK(py_true("(pv < 0).all()"));
  CHECK(lua_ok("s, sv = nil") && py_ok("del pv"));
}

/* Strides are compared in elements; not for empty tensors, whose strides mean nothing (NumPy
   reports 0 for them whatever it was given). NumPy also exports arrays whose data address is
   not a multiple of the element size (misaligned(), from a byte buffer at offset 1): ltensor
   refuses those at import (typed access to them would be undefined behaviour), and NumPy's
   deleter still runs. */
static void test_strided(void) {
  section("3: strided tensors both ways");
  static const char *const np_views[] = {
      "base.T",         "base[::2, 1:]",     "base[::-1]",
      "base[:, ::-2]",  "base[::-2, ::3].T", "base[3]",
      "base[1:3, 4:5]", "base[:, 2]",        "base[::-1, ::-1]",
      "np.array(7.25)", "np.zeros((0, 3))",  "np.zeros((3, 0)).T",
  };
  static const char *const misaligned_views[] = {
      "misaligned(np.float64, 5)",
      "misaligned(np.int32, 7)[::-2]",
      "misaligned(np.complex64, 4).reshape(2, 2).T",
  };
  CHECK(py_ok("base0 = np.arange(24, dtype=np.float64).reshape(4, 6) * 1.5; base = base0.copy()"));
  for (size_t i = 0; i < sizeof np_views / sizeof *np_views; i++) {
    /* NumPy writes through its view, Lua reads; Lua writes through its tensor, NumPy reads */
    tp_py_view("numpy", np_views[i], "base[...] = base0", np_to_lua, "lstrides(pv)",
               "pv[...] += 100");
    CHECK(lua_ok("v:fill_(-2)"));
    CHECK(py_true("(pv == -2).all()"));
    CHECK(py_true("(base == -2).sum() == (pv.size if np.shares_memory(pv, base) else 0)"));
    CHECK(lua_ok("v = nil") && py_ok("del pv"));
  }
  lua_gc_full();
  for (size_t i = 0; i < sizeof misaligned_views / sizeof *misaligned_views; i++) {
    set_context("numpy -> lua %s", misaligned_views[i]);
    CHECK(py_ok("pv = %s; pv_ref = weakref.ref(pv.base if pv.base is not None else pv)",
                misaligned_views[i]));
    CHECK(pycapsule_to_lua("_cap", "pv.__dlpack__()"));
    CHECK(lua_ok("ok, err = pcall(dlpack.from_dlpack, _cap); _cap = nil"));
    CHECK(lua_ok("assert(not ok and err:find('not aligned'), tostring(err))"));
    lua_gc_full();
    CHECK(py_ok("del pv") && py_true("pv_ref() is None")); /* NumPy's deleter ran */
  }

  /* the views only this test exports (negative strides among them: torch has none) */
  static const char *const lua_views[] = {
      "s[{{1, -1, 2}, {-1, 1, -1}}]",
      "s[{{}, {2, 6, 2}}]",
      "s:permute(2, 1):narrow(1, 2, 4)[{{-1, 1, -2}}]",
  };
  tp_each_lua_view(view_to_numpy, lua_views, sizeof lua_views / sizeof *lua_views);
}

/* }====== */

/* {====== 4: both sides' deleters run ====== */

static void test_deleters(void) {
  section("4: deleters");
  /* NumPy's managed tensor holds the array */
  tp_import_lifetimes("numpy", "d = np.arange(10.0)", "d.__dlpack__()", NULL,
                      "d = np.arange(10.0)");

  set_context("lua -> numpy, consumed");
  /* a host tensor in Lua, exported to NumPy: ltensor's export holds the host tensor, whose
     deleter runs when NumPy lets go of ltensor's managed tensor */
  int before = host_deleted;
  CHECK(host_to_lua("h", 0, host_f64, 8, 0));
  CHECK(lua_to_np("hb", "h:narrow(1, 3, 4)"));
  CHECK(py_true("hb.tolist() == [2.5, 3.5, 4.5, 5.5]"));
  CHECK(lua_ok("h = nil") && (lua_gc_full(), host_deleted == before));
  CHECK(py_true("hb.tolist() == [2.5, 3.5, 4.5, 5.5]"));
  CHECK(py_ok("del hb; gc.collect()") && host_deleted == before + 1);

  set_context("lua -> numpy, never consumed");
  tp_unconsumed_export(0);

  set_context("lua -> numpy -> lua");
  /* a round trip: Lua's tensor -> NumPy's array -> NumPy's export -> a second Lua tensor */
  before = host_deleted;
  CHECK(host_to_lua("h", 0, host_f64, 6, 0));
  CHECK(lua_to_np("hb", "h"));
  /* NumPy 1.x marks arrays from from_dlpack read-only and refuses to export read-only arrays
     (DLPack < 1 cannot say read-only): go through a writable alias that holds hb */
  CHECK(py_true("hb.flags.writeable or raises(lambda: hb.__dlpack__(), BufferError)"));
  CHECK(np_to_lua("h2", "hb if hb.flags.writeable else alias(hb)"));
  CHECK(lua_true("h2:data_ptr() == h:data_ptr() and h2[6] == 5.5"));
  CHECK(lua_ok("h2[1] = -1") && py_true("hb[0] == -1") && lua_true("h[1] == -1"));
  tp_round_trip_release(before, "h2[2] == 1.5");

  tp_many_exports(lua_to_np);
}

/* }====== */

/* {====== 5: an export outlives its Lua state ====== */

static void test_outlives_state(void) {
  section("5: exports outlive lua_close");
  set_context("lua_close before NumPy reads");
  int before = host_deleted;
  CHECK(lua_to_np("big", "lt.arange(100000):reshape(1000, 100):transpose(1, 2)"));
  CHECK(lua_to_np("small", "lt.tensor({{1.5, 2.5}, {3.5, 4.5}}, 'float64')[{{}, 2}]"));
  CHECK(host_to_lua("h", 0, host_f64, 5, 0));
  CHECK(lua_to_np("hb", "h:narrow(1, 2, 3)"));
  CHECK(lua_to_np("hb2", "h"));
  close_lua(); /* every Lua tensor and view is gone */
  CHECK(host_deleted == before);
  CHECK(py_true("big.shape == (100, 1000) and big[7, 3] == 307 and big[99, 999] == 99999"));
  CHECK(py_true("(big.T.ravel() == np.arange(100000)).all()"));
  CHECK(py_true("small.tolist() == [2.5, 4.5]"));
  CHECK(py_true("hb.tolist() == [1.5, 2.5, 3.5] and hb2.tolist()[4] == 4.5"));
  CHECK(py_ok("del hb; gc.collect()") && host_deleted == before);
  CHECK(py_ok("del hb2; gc.collect()") && host_deleted == before + 1);
  CHECK(py_ok("del big, small"));
  CHECK(tp_open_lua(luaopen_ltensor_core));
}

/* }====== */

/* {====== 6: errors ====== */

static void test_errors(void) {
  section("6: errors");
  tp_consumed_twice("np.arange(3.0).__dlpack__()");
  /* the same PyCapsule bridged twice */
  CHECK(py_ok("pc = np.arange(3.0).__dlpack__()"));
  CHECK(pycapsule_to_lua("cap", "pc"));
  PyObject *obj = PyDict_GetItemString(G, "pc"); /* borrowed */
  CHECK(obj && pylua_push_pycapsule(L, obj) == -1 && PyErr_ExceptionMatches(PyExc_ValueError));
  PyErr_Clear();
  CHECK(py_ok("del pc") && lua_ok("t = dlpack.from_dlpack(cap)") && lua_true("t[2] == 1.0"));
  /* a PyCapsule that is no DLPack capsule */
  CHECK(py_ok("import datetime; dtc = datetime.datetime_CAPI"));
  obj = PyDict_GetItemString(G, "dtc");
  CHECK(obj && pylua_push_pycapsule(L, obj) == -1 && PyErr_ExceptionMatches(PyExc_ValueError));
  PyErr_Clear();
  /* a Lua capsule taken by the bridge, then used again in Lua, then taken again */
  CHECK(lua_ok("t = lt.arange(3); cap = dlpack.to_dlpack(t)"));
  CHECK(lua_capsule_to_py("ex", "cap"));
  CHECK(lua_raises("already consumed", "dlpack.from_dlpack(cap)"));
  lua_getglobal(L, "cap");
  PyObject *again = pylua_take_capsule(L, -1);
  lua_pop(L, 1);
  CHECK(again == NULL && PyErr_ExceptionMatches(PyExc_ValueError));
  Py_XDECREF(again);
  PyErr_Clear();
  lua_pushinteger(L, 1);
  again = pylua_take_capsule(L, -1);
  lua_pop(L, 1);
  CHECK(again == NULL && PyErr_ExceptionMatches(PyExc_TypeError));
  Py_XDECREF(again);
  PyErr_Clear();
  /* NumPy consumes the exporter's capsule once; a second np.from_dlpack fails cleanly */
  tp_export_consumed_once("np.from_dlpack");

  set_context("read-only");
  int before = tp_read_only_host();
  CHECK(lua_raises("read-only", "ro:narrow(1, 2, 2):__dlpack{max_version = {0, 8}}"));
  CHECK(
      lua_true("tostring(ro:__dlpack{max_version = {1, 0}}):find('\"dltensor_versioned\"', 1, "
               "true) ~= nil"));
  /* its versioned capsule, offered to NumPy: NumPy 1.x reads only legacy capsules and refuses;
     a NumPy that takes it must honour READ_ONLY */
  CHECK(lua_capsule_to_py("ex", "ro:__dlpack{max_version = {1, 3}}"));
  CHECK(py_ok("try:\n    r = np.from_dlpack(ex)\nexcept Exception:\n    r = None"));
  CHECK(py_true("r is None or (not r.flags.writeable and r.tolist() == [0.5, 1.5, 2.5, 3.5])"));
  CHECK(py_ok("del r, ex; gc.collect()") && lua_ok("ro = nil"));
  CHECK((lua_gc_full(), host_deleted == before + 1));
  lua_gc_full();
}

/* }====== */

/* {====== 7: math against NumPy ====== */

/*
 * The same operation computed by ltensor (in Lua) and by NumPy on the same memory: NumPy's
 * arrays are bridged into Lua, each result comes back through DLPack, and the two must have
 * the same dtype name, shape and values (exact for integers and bools, np.allclose for floats).
 * Operands: int32, int64, uint8, float32 and float64 arrays, as equal shapes, broadcast shapes,
 * transposed views and with Lua numbers.
 *
 * ltensor follows torch, which differs from NumPy 1.24 in places; those are left out or made
 * explicit here:
 * - Python scalars: NumPy 1.24 casts by value (uint8 array + -1 is int16, int8 + 1000 is
 *   int16); torch keeps the tensor's dtype (and ltensor refuses the value). Only scalars that
 *   fit the array's dtype are used, where both keep the dtype.
 * - int and float arrays: NumPy picks a float that holds the int (int32 + float32 is float64);
 *   torch keeps the float (float32). Only pairs where both agree are mixed (uint8, int16 with
 *   float32; int32 with float64); integer arrays of mixed signedness agree (uint8 + int8 is
 *   int16 in both).
 * - True division of integers gives float32 in torch, float64 in NumPy; so do int / float
 *   scalar products, sqrt, exp, log, sin, cos, tanh of integers (left out), and floor, ceil,
 *   round of integers give float64 in NumPy but the integers in torch (left out).
 * - sum and prod of integers accumulate in int64 in torch (NumPy: the platform integer, or
 *   uint64 for unsigned): NumPy is given dtype=int64. mean, var and std of integers: NumPy
 *   computes in float64, torch refuses (left out).
 * - Positions are 1-based in Lua: ltensor's minus 1 is compared with NumPy's.
 */

static const char py_math[] =
    "def mdata(dt, shape, seed):  # small values, negatives included; floats on a 1/8 grid\n"
    "    r = np.random.default_rng(seed)\n"
    "    if dt == 'uint8': return np.asarray(r.integers(0, 256, shape), dt)\n"
    "    if np.dtype(dt).kind == 'i': return np.asarray(r.integers(-50, 51, shape), dt)\n"
    "    return np.asarray(r.integers(-40, 41, shape) / 8, dt)\n"
    "def operands(dt, sa, sb, va, vb, seed):  # a, b; bz, ap, e for //, % and **\n"
    "    fa, fb = eval('lambda x: x' + va), eval('lambda x: x' + vb)\n"
    "    a0, b0 = mdata(dt, sa, seed), mdata(dt, sb, seed + 1)\n"
    "    isint = np.dtype(dt).kind in 'iu'\n"
    "    bz0 = np.where(b0 == 0, 1, b0).astype(dt)  # no zero divisors\n"
    "    ap0 = a0 if isint else np.asarray(np.abs(a0) + np.array(0.5, dt))  # positive bases\n"
    "    e0 = (np.abs(b0) % 4).astype(dt) if isint else b0  # no negative integer powers\n"
    "    return fa(a0), fb(b0), fb(bz0), fa(ap0), fb(e0)\n"
    "def isint(x): return np.asarray(x).dtype.kind in 'iub'\n"
    "def tdiv(x, y):  # torch divides integers into float32, NumPy into float64\n"
    "    r = np.true_divide(x, y)\n"
    "    return r.astype(np.float32) if isint(x) and isint(y) else r\n"
    "def tfs(x, r):  # an integer array times a float scalar: float32 in torch\n"
    "    return r.astype(np.float32) if isint(x) else r\n"
    "def tred(x):  # sum and prod accumulate integers in int64 in torch\n"
    "    return np.int64 if isint(x) else x.dtype\n"
    "TOL = {'float32': 1e-5, 'float64': 1e-12}\n"
    "def agree(ldt, lv, n):\n"
    "    ldt, n = ldt.decode(), np.asarray(n)\n"
    "    if ldt != n.dtype.name:\n"
    "        print('    dtype: lua', ldt, 'numpy', n.dtype.name, file=sys.stderr)\n"
    "        return False\n"
    "    if n.dtype == bool: n = n.astype(np.uint8)\n"
    "    if lv.shape != n.shape:\n"
    "        print('    shape: lua', lv.shape, 'numpy', n.shape, file=sys.stderr)\n"
    "        return False\n"
    "    if n.dtype.kind == 'f':\n"
    "        t = TOL[n.dtype.name]\n"
    "        ok = np.allclose(lv, n, rtol=t, atol=t, equal_nan=True)\n"
    "    else:\n"
    "        ok = np.array_equal(lv, n)\n"
    "    if not ok: print('    lua  ', lv.tolist(), '\\n    numpy', n.tolist(), file=sys.stderr)\n"
    "    return ok\n";

/* The Lua expression (a tensor) and the NumPy expression agree: dtype name, shape and values.
   Lua's result crosses to NumPy through DLPack (a bool result as uint8: NumPy 1.24 imports no
   bool; its dtype name is compared first). */
static int agree(const char *lua_expr, const char *np_expr) {
  int ok = lua_ok("r = %s", lua_expr) && py_ok("n = np.asarray(%s)", np_expr) &&
           lua_to_py("rdt", "r.dtype") &&
           lua_to_np("rv", "(r.dtype == 'bool' and r:to('uint8') or r)") &&
           py_true("agree(rdt, rv, n)");
  if (!ok) fprintf(stderr, "  lua: %s\n  numpy: %s\n", lua_expr, np_expr);
  lua_ok("r = nil");
  py_ok("n = rv = None");
  return ok;
}

/* agree() with "%d" in both templates: Lua's dim (k + 1) and NumPy's axis (k). */
static int agree_dim(const char *lua_fmt, const char *np_fmt, int k) {
  char le[256], ne[256];
  snprintf(le, sizeof le, lua_fmt, k + 1);
  snprintf(ne, sizeof ne, np_fmt, k);
  return agree(le, ne);
}

static const char *const math_dtypes[] = {"int32", "int64", "uint8", "float32", "float64"};

/* Operand shapes: a's and b's NumPy shapes, then views applied to each (".T": transposed). */
static const struct {
  const char *name, *sa, *sb, *va, *vb;
} math_shapes[] = {
    {"(3,4) (3,4)", "(3, 4)", "(3, 4)", "", ""},
    {"(3,1) (1,4)", "(3, 1)", "(1, 4)", "", ""},
    {"(2,3) (3,)", "(2, 3)", "(3,)", "", ""},
    {"(2,1,4) (3,1)", "(2, 1, 4)", "(3, 1)", "", ""},
    {"(4,3).T (4,3).T", "(4, 3)", "(4, 3)", ".T", ".T"},
    {"(4,3).T (3,4)", "(4, 3)", "(3, 4)", ".T", ""},
    {"(2,6)[:, ::2] (3,)", "(2, 6)", "(3,)", "[:, ::2]", ""},
    {"() (2,2)", "()", "(2, 2)", "", ""},
    {"(50,70) (50,70)", "(50, 70)", "(50, 70)", "", ""}, /* the kernels' long runs */
    {"(50,70) (70,)", "(50, 70)", "(70,)", "", ""},
    {"(70,50).T (50,1)", "(70, 50)", "(50, 1)", ".T", ""},
};

static const char *const math_binops[][2] = {
    {"A + B", "a + b"},
    {"A - B", "a - b"},
    {"A * B", "a * b"},
    {"A / BZ", "tdiv(a, bz)"},
    {"A // BZ", "a // bz"},
    {"A % BZ", "a % bz"},
    {"AP ^ E", "ap ** e"},
    {"A:add(B)", "np.add(a, b)"},
    {"A:floor_divide(BZ)", "np.floor_divide(a, bz)"},
    {"A:remainder(BZ)", "np.remainder(a, bz)"},
    {"A:maximum(B)", "np.maximum(a, b)"},
    {"A:minimum(B)", "np.minimum(a, b)"},
    {"A:eq(B)", "a == b"},
    {"A:ne(B)", "a != b"},
    {"A:lt(B)", "a < b"},
    {"A:le(B)", "a <= b"},
    {"A:gt(B)", "a > b"},
    {"A:ge(B)", "a >= b"},
};

/* Lua numbers that fit every dtype here: both keep the array's dtype (not a 0-d array's:
   NumPy 1.24 casts a 0-d array with a Python scalar by value, to int64 or float64). */
static const char *const math_scalarops[][2] = {
    {"A + 3", "a + 3"},
    {"3 - A", "3 - a"},
    {"A * 2", "a * 2"},
    {"A // 3", "a // 3"},
    {"7 // BZ", "7 // bz"},
    {"A % 3", "a % 3"},
    {"A ^ 2", "a ** 2"},
    {"A / 2", "tdiv(a, 2)"},
    {"A * 1.5", "tfs(a, a * 1.5)"},
    {"A:le(3)", "a <= 3"},
    {"A:maximum(7)", "np.maximum(a, 7)"},
};

static const char *const math_unops[][2] = {
    {"-A", "-a"},
    {"A:neg()", "np.negative(a)"},
    {"A:abs()", "np.abs(a)"},
    {"A:sign()", "np.sign(a)"},
};

static const char *const math_unops_float[][2] = {
    {"AP:sqrt()", "np.sqrt(ap)"}, {"(A / 8):exp()", "np.exp(a / a.dtype.type(8))"},
    {"AP:log()", "np.log(ap)"},   {"A:sin()", "np.sin(a)"},
    {"A:cos()", "np.cos(a)"},     {"A:tanh()", "np.tanh(a)"},
    {"A:floor()", "np.floor(a)"}, {"A:ceil()", "np.ceil(a)"},
    {"A:round()", "np.round(a)"}, /* both round halves to even */
};

/* Arrays to reduce: contiguous, transposed, permuted, strided. */
static const char *const math_reduced[] = {
    "mdata(dt, (2, 3, 4), 31)", "mdata(dt, (2, 3, 4), 32).transpose(2, 0, 1)",
    "mdata(dt, (3, 5), 33).T",  "mdata(dt, (6, 7), 34)[::2, ::-3]",
    "mdata(dt, (5,), 35)",
};

/* A reduction over every element is a Lua value: VAL(v, t) makes it a 0-d tensor of t's dtype
   again (exactly: v came from that dtype) to compare with NumPy's. */
static const char *const math_red_all[][2] = {
    {"VAL(R:sum(), R:sum(1))", "np.sum(r, dtype=tred(r))"},
    {"R:sum(nil, true)", "np.sum(r, dtype=tred(r), keepdims=True)"},
    {"VAL(R:prod(), R:prod(1))", "np.prod(r, dtype=tred(r))"},
    {"VAL(R:min(), R)", "np.min(r)"},
    {"VAL(R:max(), R)", "np.max(r)"},
    {"VAL(R:argmin() - 1, R:argmin(1))", "np.argmin(r)"},
    {"VAL(R:argmax() - 1, R:argmax(1))", "np.argmax(r)"},
};

static const char *const math_red_all_float[][2] = {
    {"VAL(R:mean(), R)", "np.mean(r)"},
    {"VAL(R:var(), R)", "np.var(r, ddof=1)"},
    {"VAL(R:std(), R)", "np.std(r, ddof=1)"},
    {"VAL(R:var(false), R)", "np.var(r, ddof=0)"},
    {"R:std(nil, false, true)", "np.std(r, ddof=0, keepdims=True)"},
};

static const char *const math_red_dim[][2] = {
    {"R:sum(%d)", "np.sum(r, axis=%d, dtype=tred(r))"},
    {"R:sum(%d, true)", "np.sum(r, axis=%d, dtype=tred(r), keepdims=True)"},
    {"R:prod(%d)", "np.prod(r, axis=%d, dtype=tred(r))"},
    {"(R:min(%d))", "np.min(r, axis=%d)"},
    {"select(2, R:min(%d)) - 1", "np.argmin(r, axis=%d)"},
    {"(R:max(%d, true))", "np.max(r, axis=%d, keepdims=True)"},
    {"select(2, R:max(%d)) - 1", "np.argmax(r, axis=%d)"},
    {"R:argmin(%d) - 1", "np.argmin(r, axis=%d)"},
    {"R:argmax(%d) - 1", "np.argmax(r, axis=%d)"},
};

static const char *const math_red_dim_float[][2] = {
    {"R:mean(%d)", "np.mean(r, axis=%d)"},
    {"R:mean(%d, true)", "np.mean(r, axis=%d, keepdims=True)"},
    {"R:var(%d)", "np.var(r, axis=%d, ddof=1)"},
    {"R:std(%d)", "np.std(r, axis=%d, ddof=1)"},
    {"R:var(%d, false)", "np.var(r, axis=%d, ddof=0)"},
    {"R:std(%d, false, true)", "np.std(r, axis=%d, ddof=0, keepdims=True)"},
};

/* matmul operands: left and right. */
static const char *const math_mm[][2] = {
    {"mdata(dt, (3, 4), 41)", "mdata(dt, (4, 5), 42)"},
    {"mdata(dt, (4, 3), 43).T", "mdata(dt, (4, 5), 44)"},
    {"mdata(dt, (3, 4), 45)", "mdata(dt, (5, 4), 46).T"},
    {"mdata(dt, (2, 3, 4), 47)", "mdata(dt, (4, 2), 48)"},
    {"mdata(dt, (2, 1, 3, 4), 49)", "mdata(dt, (5, 4, 2), 50)"},
    {"mdata(dt, (3, 2, 4), 51).transpose(1, 0, 2)", "mdata(dt, (2, 4, 3), 52)"},
    {"mdata(dt, (4,), 53)", "mdata(dt, (4, 5), 54)"},
    {"mdata(dt, (3, 4), 55)", "mdata(dt, (4,), 56)"},
    {"mdata(dt, (4,), 57)", "mdata(dt, (4,), 58)"},
    {"mdata(dt, (2, 3, 4), 59)", "mdata(dt, (4,), 60)"},
    {"mdata(dt, (40, 70), 61)", "mdata(dt, (70, 30), 62)"},
};

static const char *const math_cat[][2] = {
    {"lt.cat({C1, C3})", "np.concatenate([c1, c3])"},
    {"lt.cat({C1, C4}, 2)", "np.concatenate([c1, c4], 1)"},
    {"lt.cat({C1, C2, C1}, -1)", "np.concatenate([c1, c2, c1], -1)"},
    {"lt.cat({C1:t(), C2:t()}, 2)", "np.concatenate([c1.T, c2.T], 1)"},
    {"lt.cat({C4:t(), C1:t()})", "np.concatenate([c4.T, c1.T])"},
    {"lt.stack({C1, C2})", "np.stack([c1, c2])"},
    {"lt.stack({C1, C2}, 2)", "np.stack([c1, c2], 1)"},
    {"lt.stack({C1, C2, C1}, 3)", "np.stack([c1, c2, c1], 2)"},
    {"lt.stack({C1:t(), C2:t()}, -1)", "np.stack([c1.T, c2.T], -1)"},
};

/* Arrays of two dtypes whose promotion NumPy and torch agree on. */
static const char *const math_mixed[][2] = {
    {"uint8", "int8"},    {"uint8", "int32"},   {"int8", "int64"},    {"int32", "int64"},
    {"uint8", "float32"}, {"int16", "float32"}, {"int32", "float64"}, {"float32", "float64"},
    {"uint8", "float64"}, {"int64", "float64"}, {"uint16", "int16"},  {"uint32", "int32"},
};

static const char *const math_mixed_ops[][2] = {
    {"A + B", "a + b"},
    {"A - B", "a - b"},
    {"A * B", "a * b"},
    {"B * A", "b * a"},
    {"A:maximum(B)", "np.maximum(a, b)"},
    {"A:lt(B)", "a < b"},
    {"A:eq(B)", "a == b"},
    {"A // BZ", "a // bz"},
    {"A % BZ", "a % bz"},
    {"lt.cat({A:reshape(-1), B})", "np.concatenate([a.reshape(-1), b])"},
    {"lt.stack({A[1], B})", "np.stack([a[0], b])"},
    {"A:matmul(B)", "a @ b"},
};

static void math_dtype(const char *dt) {
  int isfloat = dt[0] == 'f';
  CHECK(py_ok("dt = '%s'", dt));

  for (size_t s = 0; s < sizeof math_shapes / sizeof *math_shapes; s++) {
    set_context("%s %s", dt, math_shapes[s].name);
    CHECK(py_ok("a, b, bz, ap, e = operands(dt, %s, %s, '%s', '%s', %d)", math_shapes[s].sa,
                math_shapes[s].sb, math_shapes[s].va, math_shapes[s].vb, (int)s));
    CHECK(np_to_lua("A", "a") && np_to_lua("B", "b") && np_to_lua("BZ", "bz") &&
          np_to_lua("AP", "ap") && np_to_lua("E", "e"));
    for (size_t i = 0; i < sizeof math_binops / sizeof *math_binops; i++)
      CHECK(agree(math_binops[i][0], math_binops[i][1]));
    if (strcmp(math_shapes[s].sa, "()") != 0)
      for (size_t i = 0; i < sizeof math_scalarops / sizeof *math_scalarops; i++)
        CHECK(agree(math_scalarops[i][0], math_scalarops[i][1]));
    for (size_t i = 0; i < sizeof math_unops / sizeof *math_unops; i++)
      CHECK(agree(math_unops[i][0], math_unops[i][1]));
    if (isfloat)
      for (size_t i = 0; i < sizeof math_unops_float / sizeof *math_unops_float; i++)
        CHECK(agree(math_unops_float[i][0], math_unops_float[i][1]));
    /* the operands are NumPy's memory, unchanged */
    CHECK(lua_to_np("lv", "A") && py_true("np.shares_memory(lv, a) and (lv == a).all()"));
    CHECK(lua_ok("A, B, BZ, AP, E = nil") && py_ok("a = b = bz = ap = e = lv = None"));
  }

  for (size_t j = 0; j < sizeof math_reduced / sizeof *math_reduced; j++) {
    set_context("%s reduce %s", dt, math_reduced[j]);
    CHECK(py_ok("r = %s", math_reduced[j]) && np_to_lua("R", "r"));
    for (size_t i = 0; i < sizeof math_red_all / sizeof *math_red_all; i++)
      CHECK(agree(math_red_all[i][0], math_red_all[i][1]));
    if (isfloat)
      for (size_t i = 0; i < sizeof math_red_all_float / sizeof *math_red_all_float; i++)
        CHECK(agree(math_red_all_float[i][0], math_red_all_float[i][1]));
    PyObject *nd = py_run(Py_eval_input, "r.ndim");
    int ndim = nd ? (int)PyLong_AsLong(nd) : 0;
    Py_XDECREF(nd);
    for (int k = 0; k < ndim; k++) {
      for (size_t i = 0; i < sizeof math_red_dim / sizeof *math_red_dim; i++)
        CHECK(agree_dim(math_red_dim[i][0], math_red_dim[i][1], k));
      if (isfloat)
        for (size_t i = 0; i < sizeof math_red_dim_float / sizeof *math_red_dim_float; i++)
          CHECK(agree_dim(math_red_dim_float[i][0], math_red_dim_float[i][1], k));
    }
    CHECK(lua_ok("R = nil") && py_ok("del r"));
  }

  for (size_t j = 0; j < sizeof math_mm / sizeof *math_mm; j++) {
    set_context("%s matmul %zu", dt, j + 1);
    CHECK(py_ok("m1, m2 = %s, %s", math_mm[j][0], math_mm[j][1]));
    CHECK(np_to_lua("M1", "m1") && np_to_lua("M2", "m2"));
    CHECK(agree("M1:matmul(M2)", "m1 @ m2"));
    if (py_flag("m1.ndim == 1 and m2.ndim == 1")) CHECK(agree("M1:dot(M2)", "np.dot(m1, m2)"));
    CHECK(lua_ok("M1, M2 = nil") && py_ok("del m1, m2"));
  }

  set_context("%s cat and stack", dt);
  CHECK(py_ok("c1, c2 = mdata(dt, (2, 3), 71), mdata(dt, (2, 3), 72)"));
  CHECK(py_ok("c3, c4 = mdata(dt, (4, 3), 73), mdata(dt, (5, 2), 74).T"));
  CHECK(np_to_lua("C1", "c1") && np_to_lua("C2", "c2") && np_to_lua("C3", "c3") &&
        np_to_lua("C4", "c4"));
  for (size_t i = 0; i < sizeof math_cat / sizeof *math_cat; i++)
    CHECK(agree(math_cat[i][0], math_cat[i][1]));
  CHECK(lua_ok("C1, C2, C3, C4 = nil") && py_ok("del c1, c2, c3, c4"));
  lua_gc_full();
}

static void test_math(void) {
  CHECK(tp_section_setup("7: math against NumPy", py_math));
  CHECK(lua_ok("function VAL(v, t) return lt.tensor(v, t.dtype) end"));
  for (size_t i = 0; i < sizeof math_dtypes / sizeof *math_dtypes; i++) math_dtype(math_dtypes[i]);

  /* arrays of two dtypes: elementwise, cat and stack, matmul promote alike */
  for (size_t j = 0; j < sizeof math_mixed / sizeof *math_mixed; j++) {
    const char *d1 = math_mixed[j][0], *d2 = math_mixed[j][1];
    set_context("mixed %s %s", d1, d2);
    CHECK(py_ok("a, b = mdata('%s', (3, 4), 81), mdata('%s', (4,), 82)", d1, d2));
    CHECK(py_ok("bz = np.where(b == 0, 1, b).astype(b.dtype)"));
    CHECK(np_to_lua("A", "a") && np_to_lua("B", "b") && np_to_lua("BZ", "bz"));
    for (size_t i = 0; i < sizeof math_mixed_ops / sizeof *math_mixed_ops; i++)
      CHECK(agree(math_mixed_ops[i][0], math_mixed_ops[i][1]));
    CHECK(lua_ok("A, B, BZ = nil") && py_ok("del a, b, bz"));
  }

  /* float32 sums: ltensor adds in float64, within 1e-6 relative of NumPy's float64 sum of ten
     million float32 0.1s (NumPy's own float32 sum, pairwise only within its buffers, is 1e-5
     off: 999989.44) */
  set_context("float32 sum of 1e7 values");
  CHECK(py_ok("big = np.full(10**7, 0.1, np.float32)") && np_to_lua("BIG", "big"));
  CHECK(lua_to_py("ls", "BIG:sum()") && lua_true("BIG:sum(1).dtype == 'float32'"));
  CHECK(py_true("abs(ls / big.sum(dtype=np.float64) - 1) < 1e-6"));
  CHECK(lua_to_py("ls", "BIG:mean()"));
  CHECK(py_true("abs(ls / big.mean(dtype=np.float64) - 1) < 1e-6"));
  CHECK(lua_ok("BIG = nil") && py_ok("del big, ls"));
  lua_gc_full();
}

/* }====== */

#include "numpy_host_decomp.h" /* lt.linalg's decompositions and norms (test_decomp_np) */
#include "numpy_host_files.h"  /* 11: lt.save / lt.load against NumPy (test_files_np) */
#include "numpy_host_funcs.h"  /* 8: issue 16's functions (test_funcs_np) */
#include "numpy_host_image.h"  /* lt.image against Pillow (test_image_np) */
#include "numpy_host_index.h"  /* 9: indexing with tensors (test_index_np) */
#include "numpy_host_sort.h"   /* 10: issue 15's sorting and scans (test_sort_np) */
#include "numpy_host_stats.h"  /* 12: issue 27's statistics (test_stats_np) */

#include "numpy_host_fft.h"    /* 14: lt.fft against numpy.fft (test_fft_np) */
#include "numpy_host_layout.h" /* 12: issue 27's layout functions (test_layout_np) */
#include "numpy_host_linalg.h" /* 13: lt.linalg solve, inv, det, ... (test_linalg_np) */

int main(int argc, char **argv) {
  const char *v = getenv("NUMPY_HOST_VERBOSE");
  verbose = v && *v && strcmp(v, "0") != 0;

  G = pylua_start(argc, argv, "numpy_host: FAIL");
  if (!G || !py_ok("import sys")) {
    fprintf(stderr, "numpy_host: FAIL: cannot set up Python\n");
    return 1;
  }
  if (!py_ok("import numpy as np")) {
    py_ok("print('sys.version', sys.version, '\\nsys.path', sys.path, file=sys.stderr)");
    fprintf(stderr,
            "numpy_host: FAIL: the embedded Python cannot import numpy "
            "(apt-get install python3-numpy)\n");
    return 1;
  }
  if (verbose)
    py_ok("print('python', sys.version.split()[0], sys.prefix, 'numpy', np.__version__)");
  CHECK(py_ok("%s", tp_py_helpers));
  CHECK(py_ok("%s", py_helpers));
  CHECK(py_ok("%s", tp_py_samples));
  CHECK(tp_open_lua(luaopen_ltensor_core));
  if (tu_failed) {
    fprintf(stderr, "numpy_host: FAIL: set-up failed\n");
    return 1;
  }

  test_dtypes();
  test_clones();
  test_strided();
  test_deleters();
  test_outlives_state();
  test_errors();
  test_math();
  test_funcs_np();
  test_index_np();
  test_sort_np();
  test_stats_np();
  test_files_np();
  test_decomp_np();
  test_layout_np();
  test_linalg_np();
  test_fft_np();
  test_image_np();

  close_lua(); /* before Python: Lua may hold NumPy's managed tensors */
  tu_context[0] = '\0';
  CHECK(Py_FinalizeEx() == 0);
  return tu_finish("numpy_host");
}
