/*
 * torch_host.c -- PyTorch on the other side of DLPack: a host that embeds CPython (with
 * Debian's python3-torch, torch 1.13) and Lua 5.4 in one process and passes tensors both ways
 * through ltensor's Python library (src/python/ltensor_python.h) where it links ltensor, and
 * raw capsules through the test support of spec/c/pylua.c, with the fixtures of test_py.h.
 *
 *   torch -> Lua  ltensor_py_push(L, torch.utils.dlpack.to_dlpack(t)) (torch_host_require:
 *                 pylua_push_pycapsule -> dlpack.from_dlpack(cap))
 *   Lua -> torch  torch.utils.dlpack.from_dlpack(ltensor_py_export(L, idx)) (torch_host_require:
 *                 dlpack.to_dlpack(t) -> pylua_take_capsule -> pylua_exporter_new), or the
 *                 PyCapsule itself: dlpack.to_dlpack(t) -> pylua_take_capsule
 *                 -> torch.utils.dlpack.from_dlpack(capsule)
 *
 * torch 1.13 speaks legacy capsules ("dltensor") only. What is checked: every dtype both sides
 * have, both ways (values, dtype names, shapes, strides, bytes, data pointers), and those torch
 * refuses (it exports no bool; it imports no bool, no uint16/32/64 and no versioned capsule):
 * each refusal raises, leaves the capsule unconsumed, and ltensor's deleter still runs once;
 * views both ways (transposed, sliced with steps, narrowed, expanded with stride 0, permuted,
 * 0-d, empty; torch has no negative strides: flip copies, and ltensor's negative-stride views
 * are checked for what torch makes of them); memory shared both ways (writes seen across,
 * equal data pointers); ownership: a tensor made on one side, exported and dropped there stays
 * valid on the other, and the producer's memory is freed exactly once (weakref callbacks on
 * torch's tensors, host tensors whose deleter counts on ltensor's side); exports that outlive
 * lua_close, read, written and dropped in torch, some of them only when Python is finalized;
 * reductions of the same data (var/std with unbiased and correction, sums, means and amax over
 * several dims, argmax, norms) give torch's results, and so do softmax, log_softmax,
 * logsumexp, isclose, allclose, equal, dist, outer, cross (10), einsum (11) and the
 * elementwise functions (12), shapes and construction (13, torch_host_shapes.h), indexing with
 * tensors (14, torch_host_index.h: keys, index_select, gather, scatter, scatter_reduce with
 * every reduce, take, masked_select/scatter, nonzero) and sorting and scans (15,
 * torch_host_sort.h) and lt.linalg's products and matrix functions (16, torch_host_linalg.h),
 * and lt.nn.functional's norms, resizing and attention (28a, torch_host_nn_norm.h); the bitwise
 * operations (9) give torch's bits.
 *
 * Built twice from this file: torch_host links ltensor statically (luaopen_ltensor_core, as
 * numpy_host does); torch_host_require (TORCH_HOST_REQUIRE defined) links no ltensor at all
 * and loads the built core.so with require "ltensor" through LUA_CPATH, the way a user's host
 * does, so lua_close unloads the module while torch still holds its exports.
 *
 * The embedded Python is the one python3-embed names (Debian's); if torch cannot be imported
 * the test fails. Exit status: nonzero when any check failed. TORCH_HOST_VERBOSE=1 prints each
 * section.
 */
#ifndef TORCH_HOST_REQUIRE
#include "ltensor_python.h" /* first: it includes Python.h, which sets feature macros */
#endif
#include "test_py.h" /* (else) first */

#ifdef TORCH_HOST_REQUIRE
#define HOST_NAME "torch_host_require"
#define OPEN_CORE NULL /* require finds core.so */
#define LOAD_HINT " (LUA_PATH and LUA_CPATH must find it: ctest sets them)"
#else
#include "ltensor.h"
#define HOST_NAME "torch_host"
#define OPEN_CORE luaopen_ltensor_core
#define LOAD_HINT ""
#endif

/* {====== torch on the other side ====== */

/* torch -> Lua: Lua global luavar = a tensor of tdl.to_dlpack(expr) (ltensor_py_push, or
   dlpack.from_dlpack of the bridged capsule). */
PRINTF_LIKE(2, 3) static int torch_to_lua(const char *luavar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  char src[sizeof code + 32];
  snprintf(src, sizeof src, "tdl.to_dlpack(%s)", code);
#ifdef LTENSOR_PYTHON_H
  return py_tensor_to_lua_(luavar, src);
#else
  if (!pycapsule_to_lua_("_cap", src)) return 0;
  return lua_ok("%s = dlpack.from_dlpack(_cap); _cap = nil", luavar);
#endif
}

/* Lua -> torch: Python global pyvar = tdl.from_dlpack(x), x ltensor_py_export(expr) (without
   ltensor_python: an Exporter of dlpack.to_dlpack(expr)) or, when capsule, the PyCapsule itself
   of dlpack.to_dlpack(expr). */
static int lua_to_torch_(const char *pyvar, const char *expr, int capsule) {
  char src[sizeof code + 32];
  snprintf(src, sizeof src, "dlpack.to_dlpack(%s)", expr);
#ifdef LTENSOR_PYTHON_H
  if (!capsule && !lua_tensor_to_py_("_ex", expr)) return 0;
  if (capsule && !lua_capsule_take_("_ex", src, 0)) return 0;
#else
  if (!lua_capsule_take_("_ex", src, !capsule)) return 0;
#endif
  return py_ok("%s = tdl.from_dlpack(_ex); del _ex", pyvar);
}

PRINTF_LIKE(2, 3) static int lua_to_torch(const char *pyvar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return lua_to_torch_(pyvar, code, 0);
}

PRINTF_LIKE(2, 3) static int lua_to_torch_cap(const char *pyvar, const char *fmt, ...) {
  int fits;
  FORMAT_CODE(fmt, fits);
  if (!fits) return 0;
  return lua_to_torch_(pyvar, code, 1);
}

static const char py_torch[] =
    "import torch\n"
    "from torch.utils import dlpack as tdl\n"
    "torch.set_num_threads(1)  # the suite runs tests side by side\n"
    "def tdt(name): return getattr(torch, name)\n"
    "def tname(t): return str(t.dtype).replace('torch.', '')\n"
    "def tvals(t): return strict(cplx(t.tolist()))\n"
    "pvals, psize, paddr = tvals, torch.Tensor.numel, torch.Tensor.data_ptr  # tp_same_as_pv's\n"
    "def tbytes(t):  # the elements' bytes in row-major order\n"
    "    c = t.contiguous()\n"
    "    return ctypes.string_at(c.data_ptr(), c.numel() * c.element_size())\n"
    "pbytes = tbytes\n"
    "def sample(dt): return torch.tensor(SAMPLES[dt], dtype=tdt(dt)).reshape(2, 3)\n"
    "def scalar(dt, v): return torch.tensor(v, dtype=tdt(dt)).item()\n"
    "def overlaps(t):  # an expanded dim: elements share addresses, torch refuses writes\n"
    "    return any(s == 0 and n > 1 for s, n in zip(t.stride(), t.shape))\n"
    "def shares(a, b): return a.storage().data_ptr() == b.storage().data_ptr()\n"
    "def refuses(f, why):  # f raises a RuntimeError that says why\n"
    "    try: f()\n"
    "    except RuntimeError as e:\n"
    "        if why in str(e): return True\n"
    "        print('    refused, but not for', repr(why), ':', e, file=sys.stderr)\n"
    "    return False\n"
    "class DLTensor(ctypes.Structure):\n"
    "    _fields_ = [('data', ctypes.c_void_p), ('device', ctypes.c_int32 * 2),\n"
    "                ('ndim', ctypes.c_int32), ('dtype', ctypes.c_uint8 * 4),\n"
    "                ('shape', ctypes.POINTER(ctypes.c_int64)),\n"
    "                ('strides', ctypes.POINTER(ctypes.c_int64)),\n"
    "                ('byte_offset', ctypes.c_uint64)]\n"
    "_get = ctypes.pythonapi.PyCapsule_GetPointer\n"
    "_get.restype, _get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]\n"
    "def dl_info(cap):  # a legacy capsule's tensor: first element's address, shape, strides\n"
    "    d = DLTensor.from_address(_get(cap, b'dltensor'))  # dl_tensor leads DLManagedTensor\n"
    "    n = d.ndim\n"
    "    return (d.data + d.byte_offset, d.shape[:n], d.strides[:n] if d.strides else None)\n"
    "def dl_strides(t):  # the strides torch 1.13 exports: 1 for each dim of size 1\n"
    "    return [1 if n < 2 else s for n, s in zip(t.shape, t.stride())]\n";

/* }====== */

/* {====== 1, 2: every dtype, both ways ====== */

static const char *const dtypes[] = {"bool",    "uint8",   "int8",      "int16",
                                     "int32",   "int64",   "float16",   "bfloat16",
                                     "float32", "float64", "complex64", "complex128"};

/* ltensor's dtypes that torch 1.13 lacks (torch 2.3 has them, but the suite runs Debian's
   1.13), with their DLPack codes. */
static const struct {
  const char *name;
  DLDataType dl;
} lt_only[] = {
    {"uint16", {kDLUInt, 16, 1}},
    {"uint32", {kDLUInt, 32, 1}},
    {"uint64", {kDLUInt, 64, 1}},
};

static void torch_to_lua_dtype(const char *dt) {
  CHECK(py_ok("dt = '%s'; a = sample(dt)", dt));
  CHECK(torch_to_lua("t", "a"));
  CHECK(lua_true("t.dtype == '%s' and t.ndim == 2 and t.device == 'cpu'", dt));
  CHECK(lua_to_py("ldt", "t.dtype") && py_eq("ldt.decode()", "tname(a)"));
  CHECK(lua_true("not t:is_read_only() and t:is_contiguous()"));
  tp_same_as("t", "a", "list(a.stride())");
  CHECK(lua_to_py("le", "t:element_size()") && py_eq("le", "a.element_size()"));
  /* zero copy: torch writes, Lua reads; Lua writes, torch reads */
  CHECK(py_ok("a[1, 2] = W2[dt]"));
  CHECK(lua_to_py("lx", "t[2][3]") &&
        py_eq("strict(cplx(lx))", "strict(cplx(scalar(dt, W2[dt])))"));
  CHECK(py_to_lua("w", "W1[dt]") && lua_ok("t[1][1] = w"));
  CHECK(py_eq("tbytes(a[0, 0])", "tbytes(torch.tensor(W1[dt], dtype=tdt(dt)))"));
  /* t.__dlpack__() gives the same legacy capsule as to_dlpack */
  CHECK(py_true("capname(a.__dlpack__()) == 'dltensor'"));
  CHECK(pycapsule_to_lua("_cap", "a.T.__dlpack__()") &&
        lua_ok("t2 = dlpack.from_dlpack(_cap); _cap = nil"));
  CHECK(lua_to_py("lv", "t2:tolist()") && py_eq("strict(lv)", "tvals(a.T)"));
  CHECK(lua_true("t2:data_ptr() == t:data_ptr() and t2:stride(1) == 1 and t2:stride(2) == 3"));
  CHECK(lua_ok("t, t2 = nil") && py_ok("del a"));
}

/* Lua -> torch, through an Exporter (capsule 0) or the raw PyCapsule (capsule 1). */
static void lua_to_torch_dtype(const char *dt, int capsule) {
  CHECK(py_ok("dt = '%s'", dt) && tp_lua_sample(dt));
  CHECK(capsule ? lua_to_torch_cap("b", "u") : lua_to_torch("b", "u"));
  CHECK(py_true("tname(b) == dt and b.shape == (2, 3) and b.device.type == 'cpu'"));
  CHECK(py_true("b.stride() == (3, 1) and b.is_contiguous()"));
  CHECK(py_eq("tvals(b)", "tvals(sample(dt))"));
  CHECK(py_eq("tbytes(b)", "tbytes(sample(dt))"));
  CHECK(lua_to_py("lv", "u:tolist()") && py_eq("strict(lv)", "tvals(b)"));
  CHECK(lua_to_py("lp", "u:data_ptr()") && py_eq("lp", "b.data_ptr()"));
  /* zero copy: Lua writes, torch reads; torch writes, Lua reads */
  CHECK(py_to_lua("w", "W1[dt]") && lua_ok("u[2][3] = w"));
  CHECK(py_eq("tbytes(b[1, 2])", "tbytes(torch.tensor(W1[dt], dtype=tdt(dt)))"));
  CHECK(py_ok("b[0, 1] = W2[dt]"));
  CHECK(lua_to_py("lx", "u[1][2]") &&
        py_eq("strict(cplx(lx))", "strict(cplx(scalar(dt, W2[dt])))"));
  CHECK(lua_ok("u = nil") && py_ok("del b"));
}

/* torch refuses the Lua capsule the Lua expression gives (a host tensor's export, so that its
   deleter counts): through an Exporter and as the raw capsule, torch raises a RuntimeError that
   says why and leaves the capsule unconsumed; ltensor's deleter runs when the capsule is
   dropped, once. */
static void torch_refuses(const char *what, const char *lua_expr, DLDataType dt, int versioned,
                          const char *why) {
  set_context("%s", what);
  for (int capsule = 0; capsule <= 1; capsule++) {
    int before = host_deleted;
    CHECK(host_to_lua("h", 0, dt, 4, 0));
    CHECK(lua_capsule_take_("ex", lua_expr, !capsule));
    CHECK(py_true("refuses(lambda: tdl.from_dlpack(ex), '%s')", why));
    CHECK(py_true("refuses(lambda: torch.from_dlpack(ex), '%s')", why));
    CHECK(py_eq(capsule ? "capname(ex)" : "capname(ex.__dlpack__())",
                versioned ? "'dltensor_versioned'" : "'dltensor'"));
    CHECK(lua_ok("h = nil") && (lua_gc_full(), host_deleted == before));
    CHECK(py_ok("del ex") && host_deleted == before + 1);
  }
}

/* torch 1.13's export refuses bool cleanly, both ways of asking. */
static void torch_refuses_bool(void) {
  CHECK(
      py_true("refuses(lambda: tdl.to_dlpack(torch.zeros(3, dtype=torch.bool)), "
              "'Bool type is not supported by dlpack')"));
  CHECK(
      py_true("refuses(lambda: torch.ones(3, dtype=torch.bool).__dlpack__(), "
              "'Bool type is not supported by dlpack')"));
}

/* Lua -> torch through an Exporter, then through the raw PyCapsule. */
static void lua_to_torch_both(const char *dt) {
  lua_to_torch_dtype(dt, 0);
  lua_to_torch_dtype(dt, 1);
}

static void test_dtypes(void) {
  section("1, 2: dtypes both ways, zero copy");
  /* torch 1.13 has no DLPack bool either way: its export raises before making a capsule, its
     import raises "Unsupported code 6" (kDLBool); a later torch that has it is checked */
  int bool_out = !py_flag("raises(lambda: tdl.to_dlpack(torch.zeros(1, dtype=torch.bool)))");
  CHECK(lua_capsule_to_py("ex", "dlpack.to_dlpack(lt.zeros({2}, 'bool'))"));
  int bool_in = !py_flag("raises(lambda: tdl.from_dlpack(ex))");
  CHECK(py_ok("del ex"));
  if (verbose)
    printf("   torch %s bool, %s ltensor's\n", bool_out ? "exports" : "does not export",
           bool_in ? "imports" : "does not import");
  tp_dtypes_both_ways("torch", dtypes, sizeof dtypes / sizeof *dtypes, bool_out, bool_in,
                      torch_to_lua_dtype, torch_refuses_bool, lua_to_torch_both);

  if (!bool_in) {
    const DLDataType dl_bool = {kDLBool, 8, 1};
    torch_refuses("bool refused by torch", "dlpack.to_dlpack(h)", dl_bool, 0, "Unsupported code 6");
  }
  /* ltensor's unsigned dtypes that torch 1.13 lacks */
  for (size_t i = 0; i < sizeof lt_only / sizeof *lt_only; i++) {
    char what[48], why[48];
    snprintf(what, sizeof what, "%s refused by torch", lt_only[i].name);
    snprintf(why, sizeof why, "Unsupported kUInt bits %d", lt_only[i].dl.bits);
    torch_refuses(what, "dlpack.to_dlpack(h)", lt_only[i].dl, 0, why);
  }
  /* torch 1.13 reads only legacy capsules: a versioned one is refused the same way */
  torch_refuses("versioned refused by torch", "h:__dlpack{max_version = {1, 3}}", host_f64, 1,
                "invalid capsule");

  set_context("extremes");
  /* NaN both ways, in every float width */
  static const char *const floats[] = {"float16", "bfloat16", "float32", "float64"};
  for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) {
    set_context("nan %s", floats[i]);
    CHECK(torch_to_lua("t", "torch.tensor([float('nan'), -float('nan'), 1], dtype=torch.%s)",
                       floats[i]));
    CHECK(lua_true("t[1] ~= t[1] and t[2] ~= t[2] and t[3] == 1"));
    CHECK(lua_to_torch("b", "lt.tensor({0/0, 1, -(0/0)}, '%s')", floats[i]));
    CHECK(py_true("b[0].isnan() and b[1] == 1 and b[2].isnan()"));
  }
  CHECK(lua_ok("t = nil") && py_ok("del b"));
  lua_gc_full();
}

/* }====== */

/* {====== 3: views, 0-d, empty ====== */

static void views_from_torch(void) {
  static const char *const torch_views[] = {
      "base.T",
      "base[::2, 1:]",
      "base[:, ::3]",
      "base[1::2, ::4].T",
      "base[3]",
      "base[1:3, 4:5]",
      "base[:, 2]",
      "base.narrow(1, 2, 3)",
      "base.narrow(0, 1, 2).T",
      "base.permute(1, 0)[::2]",
      "base.unsqueeze(1)",
      "base[1].expand(3, 6)",
      "base[:, 1:2].expand(4, 5)",
      "base[2].unsqueeze(0).expand(2, 6).T",
      "base.as_strided((3, 2), (5, 2), 1)",
      "base.flip(0)",
      "base.flip(1)[::2]",
      "base[2, 3]",
      "torch.tensor(7.25, dtype=torch.float64)",
      "base[4:]",
      "torch.zeros(0, 3, dtype=torch.float64)",
      "torch.zeros(3, 0, dtype=torch.float64).T",
  };
  CHECK(py_ok("base0 = torch.arange(24, dtype=torch.float64).reshape(4, 6) * 1.5"));
  CHECK(py_ok("base = base0.clone()"));
  /* torch has no negative strides: flip is a copy in forward order */
  CHECK(py_true("raises(lambda: base[::-1], ValueError)"));
  CHECK(py_true("base.flip(0).stride() == (6, 1) and not shares(base.flip(0), base)"));
  /* torch's export sets the stride of a dim of size 1 to 1, whatever the view's was */
  CHECK(py_true("base[:, 2:3].stride() == (6, 1) and base.unsqueeze(1).stride() == (6, 6, 1)"));
  CHECK(py_true("dl_info(tdl.to_dlpack(base[:, 2:3]))[2] == [6, 1]"));
  CHECK(py_true("dl_info(tdl.to_dlpack(base.unsqueeze(1)))[2] == [6, 1, 1]"));
  for (size_t i = 0; i < sizeof torch_views / sizeof *torch_views; i++) {
    /* torch writes its base (all views see it), Lua reads; Lua writes through its tensor
       where elements do not overlap, torch reads */
    tp_py_view("torch", torch_views[i], "base.copy_(base0)", torch_to_lua, "dl_strides(pv)",
               "base.add_(100)");
    if (py_flag("not overlaps(pv)")) {
      CHECK(lua_ok("v:fill_(-2)"));
      CHECK(py_true("(pv == -2).all()"));
      CHECK(py_true("(base == -2).sum() == (pv.numel() if shares(pv, base) else 0)"));
    } else {
      CHECK(lua_raises("single memory location", "v:fill_(-2)"));
    }
    CHECK(lua_ok("v = nil") && py_ok("del pv"));
  }
  lua_gc_full();
}

/* Lua's view (an expression of s, or a tensor of its own) in torch, Lua's writes seen there;
   torch's writes seen in Lua. */
static void view_to_torch(const char *view) {
  tp_lua_view("torch", view, lua_to_torch, "torch.int32", "list(pv.stride())");
  /* torch writes the view where its elements do not overlap, Lua sees it */
  if (py_flag("not overlaps(pv)")) {
    CHECK(py_ok("pv.sub_(1000)"));
    CHECK(lua_to_py("lv", "sv:tolist()") && py_eq("strict(lv)", "tvals(pv)"));
    CHECK(lua_to_py("lb", "s:tolist()") &&
          py_true("sum(x < -1000 for row in lb for x in row) == (pv.numel() if %d else 0)",
                  view[0] == 's'));
  } else {
    CHECK(py_true("raises(lambda: pv.sub_(1000), RuntimeError)"));
  }
  CHECK(lua_ok("s, sv = nil") && py_ok("del pv"));
}

static void views_to_torch(void) {
  static const char *const lua_views[] = {
      "s[{{1, -1, 2}, {2, 6, 2}}]",
      "s[{{}, {1, 6, 5}}]",
      "s:select(1, 2)",
      "s:permute(2, 1):narrow(1, 2, 4)",
      "s:narrow(2, 3, 1):expand(4, 4)",
      "lt.tensor(7, 'int32')",
      "lt.zeros({0, 3}, 'int32')",
      "lt.zeros({3, 0}, 'int32'):transpose(1, 2)",
  };
  tp_each_lua_view(view_to_torch, lua_views, sizeof lua_views / sizeof *lua_views);
}

static void views_negative(void) {
  /* ltensor's negative strides, which torch cannot represent: ltensor exports them as they
     are (checked in the capsule), and torch 1.13 does not refuse them cleanly: at::fromDLPack
     ends in std::terminate ("Storage size calculation overflowed", computeStorageNbytes), so
     they never reach torch here. A forward copy (contiguous) is what torch gets instead. The
     export is dropped unconsumed: the host tensor under it is freed once. */
  static const char *const lua_negative[] = {
      "s[{{-1, 1, -1}}]",
      "s[{{}, {-1, 1, -2}}]",
      "s:permute(2, 1):narrow(1, 2, 4)[{{-1, 1, -2}}]",
  };
  for (size_t i = 0; i < sizeof lua_negative / sizeof *lua_negative; i++) {
    set_context("lua -> torch %s", lua_negative[i]);
    int before = host_deleted;
    CHECK(host_to_lua("h", 0, host_f64, 24, 0));
    CHECK(lua_ok("s = h:reshape(4, 6); sv = %s", lua_negative[i]));
    CHECK(lua_capsule_to_pycapsule("cap", "dlpack.to_dlpack(sv)"));
    CHECK(py_ok("addr, shape, strides = dl_info(cap)"));
    CHECK(lua_to_py("ls", "sv:stride()") && py_eq("strides", "ls") && py_true("min(ls) < 0"));
    CHECK(lua_to_py("ls", "sv.shape") && py_eq("shape", "ls"));
    CHECK(lua_to_py("lp", "sv:data_ptr()") && py_eq("addr", "lp"));
    CHECK(lua_to_torch("pv", "sv:contiguous()"));
    CHECK(lua_to_py("lv", "sv:tolist()") && py_eq("strict(lv)", "tvals(pv)"));
    CHECK(py_true("pv.is_contiguous() and pv.data_ptr() != addr"));
    CHECK(lua_ok("h, s, sv = nil") && (lua_gc_full(), host_deleted == before));
    CHECK(py_ok("del cap, pv") && host_deleted == before + 1);
  }
  lua_gc_full();
}

/* Strides are compared in elements, and not for empty tensors (whose strides mean nothing). */
static void test_views(void) {
  section("3: views both ways");
  views_from_torch();
  views_to_torch();
  views_negative();
}

/* }====== */

/* {====== 4: shared memory and ownership ====== */

static void test_ownership(void) {
  section("4: ownership and deleters");
  tp_import_lifetimes("torch", "d = torch.arange(10.0, dtype=torch.float64)", "tdl.to_dlpack(d)",
                      "tdl.from_dlpack(cap)", "d = torch.arange(10.0)");

  set_context("torch -> lua -> torch");
  /* torch's tensor -> a Lua tensor -> ltensor's export -> a second torch tensor: one memory,
     held through both libraries' managers, freed when the last of them goes */
  CHECK(py_ok("d = torch.arange(6.0, dtype=torch.float64); watch('d3', d)"));
  CHECK(torch_to_lua("T", "d"));
  CHECK(lua_to_torch("d2", "T:narrow(1, 2, 4)"));
  CHECK(py_true("d2.data_ptr() == d.data_ptr() + 8 and d2.tolist() == [1.0, 2.0, 3.0, 4.0]"));
  CHECK(py_ok("d2[0] = -1") && py_true("d[1] == -1") && lua_true("T[2] == -1"));
  CHECK(lua_ok("T[3] = -2") && py_true("d2[1] == -2 and d[2] == -2"));
  CHECK(py_ok("del d; gc.collect()") && lua_ok("T = nil"));
  CHECK((lua_gc_full(), py_true("alive('d3')")));
  CHECK(py_true("d2.tolist() == [-1.0, -2.0, 3.0, 4.0]"));
  CHECK(py_ok("del d2; gc.collect()") && py_true("freed_once('d3')"));

  set_context("lua -> torch, consumed");
  /* a host tensor in Lua, exported to torch: ltensor's export holds the host tensor, whose
     deleter runs when torch lets go of ltensor's managed tensor (here after a view of it) */
  int before = host_deleted;
  CHECK(host_to_lua("h", 0, host_f64, 8, 0));
  CHECK(lua_to_torch("hb", "h:narrow(1, 3, 4)"));
  CHECK(py_true("hb.tolist() == [2.5, 3.5, 4.5, 5.5]"));
  CHECK(lua_ok("h = nil") && (lua_gc_full(), host_deleted == before));
  CHECK(py_ok("hv = hb[1:3]; del hb; gc.collect()") && host_deleted == before);
  CHECK(py_true("hv.tolist() == [3.5, 4.5]"));
  CHECK(py_ok("del hv; gc.collect()") && host_deleted == before + 1);

  set_context("lua -> torch, never consumed");
  for (int capsule = 0; capsule <= 1; capsule++) tp_unconsumed_export(capsule);

  set_context("empty tensors, both ways");
  /* torch's empty tensors have no data (data_ptr 0): ltensor takes the NULL pointer and still
     calls torch's deleter. The other way, torch 1.13 never calls the deleter of a DLPack tensor
     whose data is NULL (pytorch/pytorch#117273, fixed in torch 2.3 by #117418): an exporter
     must give its empty tensors a non-NULL address, as NumPy does, or every empty tensor passed
     to torch leaks its export and the memory under it. */
  CHECK(py_ok("d = torch.zeros(0, 3); watch('empty', d)") && py_true("d.data_ptr() == 0"));
  CHECK(torch_to_lua("T", "d") && lua_true("T:numel() == 0 and T.shape[1] == 0"));
  CHECK(py_ok("del d; gc.collect()") && py_true("alive('empty')"));
  CHECK(lua_ok("T = nil") && (lua_gc_full(), py_true("freed_once('empty')")));
  for (int capsule = 0; capsule <= 1; capsule++) {
    before = host_deleted;
    CHECK(host_to_lua("h", 0, host_f64, 0, 0));
    CHECK(capsule ? lua_to_torch_cap("hb", "h:reshape(0, 4)") : lua_to_torch("hb", "h"));
    CHECK(py_true("hb.numel() == 0 and hb.shape == ((0, 4) if %d else (0,))", capsule));
    CHECK(lua_ok("h = nil") && (lua_gc_full(), host_deleted == before));
    CHECK(py_ok("del hb; gc.collect()"));
    CHECKF(host_deleted == before + 1, "torch did not free ltensor's export of an empty tensor");
  }

  set_context("lua -> torch -> lua");
  /* Lua's tensor -> torch's tensor -> torch's export -> a second Lua tensor */
  before = host_deleted;
  CHECK(host_to_lua("h", 0, host_f64, 6, 0));
  CHECK(lua_to_torch_cap("hb", "h"));
  CHECK(torch_to_lua("h2", "hb[1:]"));
  CHECK(lua_true("h2:data_ptr() == h:data_ptr() + 8 and h2[5] == 5.5"));
  CHECK(lua_ok("h2[1] = -1") && py_true("hb[1] == -1") && lua_true("h[2] == -1"));
  CHECK(py_ok("hb[5] = -5") && lua_true("h2[5] == -5 and h[6] == -5"));
  tp_round_trip_release(before, "h2[2] == 2.5");

  tp_clone_of_import("e = torch.arange(4.0)", torch_to_lua);

  tp_many_exports(lua_to_torch);
}

/* }====== */

/* {====== 5: errors ====== */

static void test_errors(void) {
  section("5: errors");
  tp_consumed_twice("tdl.to_dlpack(torch.arange(3.0))");
  /* a Lua capsule taken by the bridge, consumed by torch; torch refuses it a second time */
  CHECK(lua_ok("t = lt.arange(3); cap = dlpack.to_dlpack(t)"));
  CHECK(lua_capsule_to_py("ex", "cap"));
  CHECK(lua_raises("already consumed", "dlpack.from_dlpack(cap)"));
  tp_export_consumed_once("tdl.from_dlpack");

  set_context("read-only");
  /* a read-only tensor has no legacy export, the only kind torch 1.13 reads */
  int before = tp_read_only_host();
  CHECK(lua_ok("ro = nil") && (lua_gc_full(), host_deleted == before + 1));
  lua_gc_full();
}

/* }====== */

/* {====== 5b: reductions agree with torch's ====== */

/* Lua's and torch's reductions of the same data (torch's tensors, imported): var and std with
   unbiased and correction in torch's positional order, sums, means, amax/amin over several
   dims (a permuted view among them, whose dims ltensor copies to merge), argmax/argmin and
   max's positions (1-based in Lua), norms. 'v': no dim, so Lua gives a plain value (not a
   tensor) equal to torch's 0-d result; 't': a tensor of torch's shape and values. */
static const char *const reductions[][3] = {
    {"v", "R:var()", "rd.var()"},
    {"v", "R:var(false)", "rd.var(False)"},
    {"v", "R:std()", "rd.std()"},
    {"t", "R:var(2, false)", "rd.var(1, False)"},
    {"t", "R:var(2, true, true)", "rd.var(1, True, True)"},
    {"t", "R:std({1, 3}, false, true)", "rd.std((0, 2), False, True)"},
    {"t", "R:var(3, {correction = 0})", "rd.var(2, correction=0)"},
    {"t", "R:std({2, 3}, {correction = 2})", "rd.std((1, 2), correction=2)"},
    {"t", "P:var({1, 3})", "pv.var((0, 2))"},
    {"v", "R:sum()", "rd.sum()"},
    {"t", "R:sum({1, 3})", "rd.sum((0, 2))"},
    {"t", "R:sum({-1, 1}, true)", "rd.sum((-1, 0), True)"},
    {"t", "R:mean({2, 3})", "rd.mean((1, 2))"},
    {"t", "P:mean({1, 3})", "pv.mean((0, 2))"},
    {"t", "P:amax({1, 3})", "pv.amax((0, 2))"},
    {"t", "R:amin({1, 2}, true)", "rd.amin((0, 1), True)"},
    {"v", "R:argmax()", "rd.argmax() + 1"},
    {"v", "P:argmax()", "pv.argmax() + 1"},
    {"v", "P:argmin()", "pv.argmin() + 1"},
    {"t", "P:argmin(2)", "pv.argmin(1) + 1"},
    {"t", "R:argmax(3, true)", "rd.argmax(2, True) + 1"},
    {"t", "select(2, P:max(3))", "pv.max(2).indices + 1"},
    {"t", "(P:max(3, true))", "pv.max(2, True).values"},
    {"v", "R:norm(1)", "rd.norm(1)"},
    {"t", "R:norm(2, {1, 3})", "rd.norm(2, (0, 2))"},
    {"t", "P:gt(0):count_nonzero({1, 2})", "torch.count_nonzero(pv > 0, (0, 1))"},
    {"v", "P:gt(0):any()", "(pv > 0).any()"},
    {"t", "R:gt(-9):all(3)", "(rd > -9).all(2)"},
};

/* The data of the reductions (rd, a permuted view pv) and close(a, b): nested lists agree
   within 1e-12 relative. */
static const char py_reductions[] =
    "rd = (torch.arange(60, dtype=torch.float64).reshape(3, 4, 5) * 0.37).sin() * 10\n"
    "pv = rd.permute(2, 0, 1)\n"
    "def close(a, b):\n"
    "    if isinstance(b, list):\n"
    "        return isinstance(a, list) and len(a) == len(b) and "
    "all(close(x, y) for x, y in zip(a, b))\n"
    "    return a == b or abs(a - b) <= 1e-12 * max(1, abs(b))";

static void test_reductions(void) {
  CHECK(tp_section_setup("5b: reductions agree with torch's", py_reductions));
  CHECK(torch_to_lua("R", "rd") && torch_to_lua("P", "pv"));
  for (size_t i = 0; i < sizeof reductions / sizeof *reductions; i++) {
    set_context("reductions: %s", reductions[i][1]);
    CHECK(lua_ok("rr = %s", reductions[i][1]) && py_ok("pr = %s", reductions[i][2]));
    if (reductions[i][0][0] == 'v') {
      CHECK(lua_true("type(rr) == 'number' or type(rr) == 'boolean'"));
      CHECK(lua_to_py("lr", "rr") && py_true("pr.dim() == 0 and close(lr, pr.item())"));
    } else {
      CHECK(lua_to_py("ls", "rr.shape") && py_eq("ls", "list(pr.shape)"));
      CHECK(lua_to_py("lr", "rr:tolist()") && py_true("close(lr, pr.tolist())"));
    }
  }
  CHECK(lua_ok("R, P, rr = nil") && py_ok("del rd, pv, pr"));
  lua_gc_full();
}

/* }====== */

/* {====== 6: exports outlive lua_close ====== */

/* Tensors exported to torch, and a torch tensor imported into Lua, then lua_close: the
   exports are read, written and dropped in torch afterwards (with require, core.so is unloaded
   by then unless ltensor keeps itself mapped), the last of them only by Py_FinalizeEx. The
   import's memory goes back to torch with the state. */
static int outlives_before;

static void test_outlives_state(void) {
  section("6: exports outlive lua_close");
  set_context("lua_close before torch reads");
  outlives_before = host_deleted;
  CHECK(lua_to_torch("big", "lt.arange(100000):reshape(1000, 100):transpose(1, 2)"));
  CHECK(lua_to_torch_cap("small", "lt.tensor({{1.5, 2.5}, {3.5, 4.5}}, 'float64')[{{}, 2}]"));
  CHECK(lua_to_torch("e", "lt.zeros({0, 4})") && lua_to_torch("z", "lt.tensor(3, 'int16')"));
  CHECK(host_to_lua("h", 0, host_f64, 5, 0));
  CHECK(lua_to_torch("hb", "h:narrow(1, 2, 3)"));
  CHECK(lua_to_torch_cap("hb2", "h"));
  CHECK(host_to_lua("h", 0, host_f64, 3, 0) && lua_capsule_to_py("hex", "dlpack.to_dlpack(h)"));
  CHECK(host_to_lua("h", 0, host_f64, 7, 0) && lua_to_torch("hlast", "h:transpose(1, 1)"));
  CHECK(py_ok("d = torch.arange(5.0); watch('in_lua', d)") && torch_to_lua("fromtorch", "d"));
  CHECK(lua_ok("keep = fromtorch:narrow(1, 2, 2)") && py_ok("del d; gc.collect()"));
  CHECK(py_true("alive('in_lua')"));
  close_lua(); /* every Lua tensor, view and capsule is gone; with require, core.so too */
  CHECK(py_ok("gc.collect()") && py_true("freed_once('in_lua')"));
  CHECK(host_deleted == outlives_before);
  CHECK(py_true("big.shape == (100, 1000) and big[7, 3] == 307 and big[99, 999] == 99999"));
  CHECK(py_true("(big.T.reshape(-1) == torch.arange(100000)).all()"));
  CHECK(py_ok("big[0, 0] = -1") && py_true("big.sum() == 4999950000 - 1"));
  CHECK(py_true("small.tolist() == [2.5, 4.5] and small.stride() == (2,)"));
  CHECK(py_true("e.shape == (0, 4) and z.item() == 3 and z.dtype == torch.int16"));
  CHECK(py_true("hb.tolist() == [1.5, 2.5, 3.5] and hb2.tolist()[4] == 4.5"));
  CHECK(py_ok("hb2 += 1") && py_true("hb.tolist() == [2.5, 3.5, 4.5]"));
  CHECK(py_ok("del hb; gc.collect()") && host_deleted == outlives_before);
  CHECK(py_ok("del hb2; gc.collect()") && host_deleted == outlives_before + 1);
  /* an export never consumed, dropped after lua_close: the bridge calls ltensor's deleter */
  CHECK(py_true("capname(hex.__dlpack__()) == 'dltensor'"));
  CHECK(py_ok("del hex; gc.collect()") && host_deleted == outlives_before + 2);
  /* a torch tensor made from one after lua_close */
  CHECK(py_ok("hb3 = tdl.from_dlpack(hlast.__dlpack__())"));
  CHECK(py_true("hb3.data_ptr() == hlast.data_ptr() and hb3.tolist()[6] == 6.5"));
  CHECK(py_ok("del big, small, e, z, hb3"));
  /* hlast is left for Py_FinalizeEx */
  CHECK(host_deleted == outlives_before + 2);
}

/* }====== */

/* {====== 8: matrix products against torch's ====== */

/* The operands names[i] of shapes[i] (n of them), random of dtype dt in torch (int64: integers
   from -9 to 8) and shared into Lua under the same names; ctx starts each context. */
static void random_operands(const char *ctx, const char *dt, const char *const *names,
                            const char *const *shapes, size_t n) {
  for (size_t i = 0; i < n; i++) {
    set_context("%s%s %s", ctx, dt, names[i]);
    if (strcmp(dt, "int64") == 0)
      CHECK(py_ok("%s = torch.randint(-9, 9, (%s,), dtype=torch.int64)", names[i], shapes[i]));
    else
      CHECK(py_ok("%s = torch.randn(%s, dtype=torch.%s)", names[i], shapes[i], dt));
    CHECK(torch_to_lua(names[i], "%s", names[i]));
  }
}

/* torch's r (Lua's result) is torch's want (a Python expression): shape and dtype, then the
   values exactly (is_int) or within tol. */
static void same_result(const char *want, int is_int, const char *tol) {
  CHECK(py_true("r.shape == (%s).shape and r.dtype == (%s).dtype", want, want));
  if (is_int)
    CHECK(py_true("torch.equal(r, %s)", want));
  else
    CHECK(py_true("torch.allclose(r, %s, rtol=%s, atol=%s)", want, tol, tol));
}

/* mm, bmm, mv, dot, addmm and matmul (with transposed, strided and broadcast operands) of
   torch's random tensors, shared into Lua, computed by ltensor (the BLAS where one was built in)
   and compared with torch's own results: within 1e-4 (float32, complex64), 1e-10 (float64,
   complex128), exactly for int64 (ltensor's own kernel). */
static void test_products(void) {
  section("8: matrix products against torch");
  static const char *const dts[] = {"float32", "float64", "complex64", "complex128", "int64"};
  static const char *const names[] = {"a", "b", "v", "w", "b1", "b2", "bb", "bc", "inp"};
  static const char *const shapes[] = {"7, 5",    "5, 6",       "5",       "7", "3, 7, 5",
                                       "3, 5, 6", "2, 1, 7, 5", "4, 5, 6", "6"};
  static const struct {
    const char *lua, *torch;
  } ops[] = {
      {"a:mm(b)", "a.mm(b)"},
      {"a:matmul(b)", "a.matmul(b)"},
      {"b:t():mm(a:t())", "b.T.mm(a.T)"},
      {"a:mv(v)", "a.mv(v)"},
      {"v:dot(v)", "(v * v).sum()"}, /* Debian's torch 1.13 gives 0 for complex v.dot(v) */
      {"w:matmul(a)", "w.matmul(a)"},
      {"a:matmul(v)", "a.matmul(v)"},
      {"b1:bmm(b2)", "b1.bmm(b2)"},
      {"b1:transpose(2, 3):bmm(b1)", "b1.transpose(1, 2).bmm(b1)"},
      {"bb:matmul(bc)", "bb.matmul(bc)"},
      {"b1:matmul(b)", "b1.matmul(b)"},
      {"inp:addmm(a, b, {beta = 3, alpha = 2})", "inp.addmm(a, b, beta=3, alpha=2)"},
      {"inp:addmm(a, b)", "inp.addmm(a, b)"},
      {"a[{ {}, { 1, -1, 2 } }]:t():matmul(a[{ {}, { 1, 3 } }])", "a[:, ::2].T.matmul(a[:, 0:3])"},
      {"a[{ { 2, 6 } }]:mm(b[{ {}, { 2, 5 } }])", "a[1:6].mm(b[:, 1:5])"},
  };
  CHECK(py_ok("torch.manual_seed(14)"));
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    const char *dt = dts[d];
    int is_int = strcmp(dt, "int64") == 0;
    const char *tol = strstr(dt, "32") || strcmp(dt, "complex64") == 0 ? "1e-4" : "1e-10";
    random_operands("", dt, names, shapes, sizeof names / sizeof *names);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
      set_context("%s %s", dt, ops[i].lua);
      CHECK(lua_to_torch("r", "%s", ops[i].lua));
      same_result(ops[i].torch, is_int, tol);
    }
  }
  set_context("%s", "");
  CHECK(lua_ok("a, b, v, w, b1, b2, bb, bc, inp, r = nil") &&
        py_ok("del a, b, v, w, b1, b2, bb, bc, inp, r"));
}

/* }====== */

/* {====== 9: bitwise operations against torch's ====== */

/* Every bitwise method and operator of ltensor on torch's random data (shared into Lua; bool
   crosses as uint8, since torch 1.13 exports no bool), exactly equal to torch's, dtype too:
   tensor with tensor, broadcast, transposed, with a Lua integer on either side, and the shifts
   of every element by 0..width+2 where torch 1.13 defines them (it shifts in C++'s int, so
   int8/uint8/int16 up to 31; int32/int64 below their width; negative amounts nowhere). */
static void test_bitwise(void) {
  section("9: bitwise operations against torch");
  static const struct {
    const char *dt;
    int width;
    const char *lo, *hi;
  } dts[] = {{"bool", 1, "0", "2"},
             {"uint8", 8, "0", "256"},
             {"int8", 8, "-128", "128"},
             {"int16", 16, "-2**15", "2**15"},
             {"int32", 32, "-2**31", "2**31"},
             {"int64", 64, "-2**63", "2**63 - 1"}};
  static const char *const ops[][2] = {
      /* after test_py.h's tp_bitwise_ops */
      {"A:clone():bitwise_or_(B)", "a | b"},
      {"A:bitwise_not()", "a.bitwise_not()"},
  };
  CHECK(py_ok("torch.manual_seed(16)"));
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    const char *dt = dts[d].dt;
    int is_bool = dts[d].width == 1;
    set_context("bitwise %s: set-up", dt);
    CHECK(py_ok("a, b = (torch.randint(%s, %s, (4, 5), dtype=torch.%s) for _ in range(2))",
                dts[d].lo, dts[d].hi, is_bool ? "uint8" : dt));
    CHECK(torch_to_lua("A", "a") && torch_to_lua("B", "b"));
    if (is_bool)
      CHECK(py_ok("a, b = a.bool(), b.bool()") && lua_ok("A, B = A:to('bool'), B:to('bool')"));
    for (size_t i = 0; i < TP_NBITWISE + sizeof ops / sizeof *ops; i++) {
      const char *const *op = i < TP_NBITWISE ? tp_bitwise_ops[i] : ops[i - TP_NBITWISE];
      set_context("bitwise %s: %s", dt, op[0]);
      CHECK(lua_ok("rr = %s", op[0]) && py_ok("pr = %s", op[1]));
      CHECK(lua_to_py("ld", "rr.dtype") && py_eq("ld.decode()", "tname(pr)"));
      CHECK(lua_to_py("lr", "rr:tolist()") && py_eq("lr", "pr.tolist()"));
    }
    if (is_bool) continue;
    int top = dts[d].width <= 16 ? dts[d].width + 2 : dts[d].width - 1;
    set_context("bitwise %s: shifts by 0..%d", dt, top);
    CHECK(py_ok("s = torch.arange(%d, dtype=torch.%s)", top + 1, dt) && torch_to_lua("S", "s"));
    CHECK(lua_ok("rl, rr = A:view(-1, 1) << S, A:view(-1, 1):bitwise_right_shift(S)"));
    CHECK(lua_to_py("ll", "rl:tolist()") && py_eq("ll", "(a.view(-1, 1) << s).tolist()"));
    CHECK(lua_to_py("lr", "rr:tolist()") && py_eq("lr", "(a.view(-1, 1) >> s).tolist()"));
    CHECK(lua_to_py("ll", "(A << 3):tolist()") && py_eq("ll", "(a << 3).tolist()"));
    CHECK(lua_to_py("lr", "(A >> 3):tolist()") && py_eq("lr", "(a >> 3).tolist()"));
  }
  set_context("%s", "");
  CHECK(lua_ok("A, B, S, rr, rl = nil") && py_ok("del a, b, pr"));
  lua_gc_full();
}

/* }====== */

/* {====== 10: softmax, comparisons and vector products ====== */

/* softmax, log_softmax and logsumexp (a row of -inf, an element of 1e4: the shift keeps float32
   finite), isclose/allclose/equal, dist, outer and cross, by ltensor and by torch on the same
   torch tensors (float32 and float64, imported into Lua). 't': a float tensor of torch's shape,
   dtype and values (within 1e-5 for float32, 1e-12 for float64, NaN where torch has NaN);
   'b': a bool tensor (compared as uint8: torch 1.13 imports no bool); 'v': a plain Lua value
   (number or boolean) equal to torch's. */
static void test_softmax(void) {
  section("10: softmax, comparisons and vector products against torch");
  static const char *const ops[][3] = {
      {"t", "X:softmax(3)", "x.softmax(2)"},
      {"t", "X:softmax(1)", "x.softmax(0)"},
      {"t", "X:log_softmax(-1)", "x.log_softmax(-1)"},
      {"t", "X:log_softmax(2)", "x.log_softmax(1)"},
      {"t", "X:permute(3, 1, 2):softmax(2)", "x.permute(2, 0, 1).softmax(1)"},
      {"t", "X:logsumexp(3)", "x.logsumexp(2)"},
      {"t", "X:logsumexp({1, 3}, true)", "x.logsumexp((0, 2), True)"},
      {"t", "A:logsumexp(-2)", "a.logsumexp(-2)"},
      {"t", "A:transpose(1, 3):logsumexp({1, 2})", "a.transpose(0, 2).logsumexp((0, 1))"},
      {"b", "A:isclose(B2)", "a.isclose(b2)"},
      {"b", "A:isclose(B2, 0, 1e-7)", "a.isclose(b2, 0, 1e-7)"},
      {"b", "A:isclose(B, 0.5, 0.1)", "a.isclose(b, 0.5, 0.1)"},
      {"b", "X:isclose(X, 0, 0, true)", "x.isclose(x, 0, 0, True)"},
      {"v", "A:allclose(B2)", "a.allclose(b2)"},
      {"v", "A:allclose(B)", "a.allclose(b)"},
      {"v", "A:equal(A:clone())", "torch.equal(a, a.clone())"},
      {"v", "A:equal(B2)", "torch.equal(a, b2)"},
      {"v", "A:dist(B)", "a.dist(b).item()"},
      {"v", "A:dist(B, 1)", "a.dist(b, 1).item()"},
      {"v", "A:dist(B, math.huge)", "a.dist(b, float('inf')).item()"},
      {"v", "A:dist(B, 3.5)", "a.dist(b, 3.5).item()"},
      {"v", "A:dist(U:narrow(1, 1, 3))", "a.dist(u[:3]).item()"},
      {"t", "U:outer(W)", "u.outer(w)"},
      {"t", "A:cross(B)", "a.cross(b)"},
      {"t", "C1:cross(C2)", "c1.cross(c2)"},
      {"t", "C1:cross(C2, 3)", "torch.linalg.cross(c1, c2, dim=2)"},
  };
  static const char *const dts[] = {"float32", "float64"};
  CHECK(py_ok("import warnings; warnings.simplefilter('ignore')")); /* cross without dim */
  CHECK(py_ok("torch.manual_seed(16)"));
  CHECK(
      py_ok("def near(a, b, tol):\n"
            "    if isinstance(b, bool): return a is b\n"
            "    return a == b or abs(a - b) <= tol * max(1, abs(b))"));
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    const char *dt = dts[d], *tol = d == 0 ? "1e-5" : "1e-12";
    set_context("softmax %s: set-up", dt);
    CHECK(
        py_ok("x = torch.randn(4, 6, 3, dtype=torch.%s) * 3\n"
              "x[0, 0, :] = float('-inf'); x[1, 1, 0] = 1e4; x[2, 3, 1] = -1e4\n"
              "x[3, :, 2] = float('-inf')",
              dt));
    CHECK(
        py_ok("a = torch.randn(4, 6, 3, dtype=torch.%s); b = torch.randn(4, 6, 3, dtype=a.dtype)\n"
              "b2 = a + torch.randn(4, 6, 3, dtype=a.dtype) * 1e-7\n"
              "u = torch.randn(5, dtype=a.dtype); w = torch.randn(7, dtype=a.dtype)\n"
              "c1 = torch.randn(3, 4, 3, dtype=a.dtype); c2 = torch.randn(3, 4, 3, dtype=a.dtype)",
              dt));
    CHECK(torch_to_lua("X", "x") && torch_to_lua("A", "a") && torch_to_lua("B", "b") &&
          torch_to_lua("B2", "b2") && torch_to_lua("U", "u") && torch_to_lua("W", "w") &&
          torch_to_lua("C1", "c1") && torch_to_lua("C2", "c2"));
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
      const char *kind = ops[i][0], *lua = ops[i][1], *torch = ops[i][2];
      set_context("softmax %s: %s", dt, lua);
      if (kind[0] == 'v') {
        CHECK(lua_ok("rr = %s", lua) && lua_to_py("lr", "rr") && py_ok("pr = %s", torch));
        CHECK(py_true("near(lr, pr, %s)", tol));
      } else if (kind[0] == 'b') {
        CHECK(lua_true("(%s).dtype == 'bool'", lua));
        CHECK(lua_to_torch("r", "(%s):to('uint8')", lua));
        CHECK(py_true("torch.equal(r, (%s).to(torch.uint8))", torch));
      } else {
        CHECK(lua_to_torch("r", "%s", lua));
        CHECK(py_true("r.shape == (%s).shape and r.dtype == (%s).dtype", torch, torch));
        CHECK(py_true("torch.allclose(r, %s, rtol=%s, atol=%s, equal_nan=True)", torch, tol, tol));
      }
    }
  }
  set_context("%s", "");
  CHECK(lua_ok("X, A, B, B2, U, W, C1, C2, rr = nil") &&
        py_ok("del x, a, b, b2, u, w, c1, c2, r, pr, lr"));
  lua_gc_full();
}

/* }====== */

/* {====== 11: einsum against torch ====== */

/* lt.einsum and torch.einsum of the same equations on the same random tensors (shared into
   Lua): within 1e-10 in float64, exactly in int64. */
static void test_einsum(void) {
  section("11: einsum against torch");
  static const char *const dts[] = {"float64", "int64"};
  static const char *const names[] = {"ea", "eb", "ec", "ev", "ew", "em", "ex", "ey", "ez"};
  static const char *const shapes[] = {"4, 5", "5, 6",    "6, 3",    "5",         "4",
                                       "5, 5", "3, 4, 5", "3, 5, 6", "2, 1, 4, 5"};
  static const char *const eqs[][2] = {
      /* after test_py.h's tp_einsum_eqs */
      {"ij,jk", "ea, eb"},
      {"ij->", "ea"},
      {"...ij,...jk", "ez, ey"},
      {"i J, J k -> k", "ea, eb"},
      {"bij,bjk,kl->bl", "ex, ey, ec"},
  };
  CHECK(py_ok("torch.manual_seed(16)"));
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    int is_int = strcmp(dts[d], "int64") == 0;
    random_operands("einsum ", dts[d], names, shapes, sizeof names / sizeof *names);
    for (size_t i = 0; i < TP_NEINSUM + sizeof eqs / sizeof *eqs; i++) {
      const char *const *eq = i < TP_NEINSUM ? tp_einsum_eqs[i] : eqs[i - TP_NEINSUM];
      set_context("einsum %s '%s'", dts[d], eq[0]);
      CHECK(lua_to_torch("r", "lt.einsum('%s', %s)", eq[0], eq[1]));
      CHECK(py_ok("pr = torch.einsum('%s', %s)", eq[0], eq[1]));
      same_result("pr", is_int, "1e-10");
    }
  }
  set_context("%s", "");
  CHECK(lua_ok("ea, eb, ec, ev, ew, em, ex, ey, ez, r = nil") &&
        py_ok("del ea, eb, ec, ev, ew, em, ex, ey, ez, r, pr"));
  lua_gc_full();
}

/* }====== */

/* {====== 12: elementwise functions against torch's ====== */

/* Every function of lt_funcs.c on torch's random data (with NaN, +-inf, +-0 and +-1 at the end),
   shared into Lua: the result's dtype must be torch's and its values (compared as float64, since
   torch 1.13 imports no bool tensors) within rtol = atol = 1e-5 (float32) or 1e-12 (float64),
   NaN where torch has NaN; int64 inputs (promotion) within 1e-6.
   X: anything; U: (-1, 1); P: [1, 11); Y: a second operand; W: weights in [0, 1). */
static const char *const funcs[][2] = {
    {"X:sigmoid()", "X.sigmoid()"},
    {"X:relu()", "X.relu()"},
    {"X:gelu()", "F.gelu(X)"},
    {"X:gelu({approximate = 'tanh'})", "F.gelu(X, approximate='tanh')"},
    {"X:silu()", "F.silu(X)"},
    {"X:tan()", "X.tan()"},
    {"U:asin()", "U.asin()"},
    {"U:acos()", "U.acos()"},
    {"X:atan()", "X.atan()"},
    {"X:sinh()", "X.sinh()"},
    {"X:cosh()", "X.cosh()"},
    {"X:asinh()", "X.asinh()"},
    {"P:acosh()", "P.acosh()"},
    {"U:atanh()", "U.atanh()"},
    {"X:log1p()", "X.log1p()"},
    {"X:expm1()", "X.expm1()"},
    {"P:log2()", "P.log2()"},
    {"P:log10()", "P.log10()"},
    {"X:exp2()", "X.exp2()"},
    {"X:trunc()", "X.trunc()"},
    {"X:frac()", "X.frac()"},
    {"P:rsqrt()", "P.rsqrt()"},
    {"X:erf()", "X.erf()"},
    {"X:erfc()", "X.erfc()"},
    {"X:isnan()", "X.isnan()"},
    {"X:isinf()", "X.isinf()"},
    {"X:isfinite()", "X.isfinite()"},
    {"X:nan_to_num()", "X.nan_to_num()"},
    {"X:nan_to_num(1, 2, -3)", "X.nan_to_num(1, 2, -3)"},
    {"X:atan2(Y)", "X.atan2(Y)"},
    {"X:fmod(Y)", "X.fmod(Y)"},
    {"X:remainder(Y)", "X.remainder(Y)"},
    {"X:hypot(Y)", "X.hypot(Y)"},
    {"X:lerp(Y, 0.3)", "X.lerp(Y, 0.3)"},
    {"X:lerp(Y, W)", "X.lerp(Y, W)"},
    {"X[{{1, -1, 3}}]:sigmoid()", "X[::3].sigmoid()"},
    {"X[{{2, -1, 2}}]:erf()", "X[1::2].erf()"},
};
static const char *const int_funcs[][2] = {
    {"I:sigmoid()", "I.sigmoid()"},
    {"I:erf()", "I.erf()"},
    {"I:exp2()", "I.exp2()"},
    {"I:atan()", "I.atan()"},
    {"I:log1p()", "I.log1p()"},
    {"I:relu()", "I.relu()"},
    {"I:trunc()", "I.trunc()"},
    {"I:isnan()", "I.isnan()"},
    {"I:isfinite()", "I.isfinite()"},
    {"I:nan_to_num()", "I.nan_to_num()"},
    {"I:atan2(J)", "I.atan2(J)"},
    {"I:fmod(J)", "I.fmod(J)"},
    {"I:remainder(J)", "I.remainder(J)"},
};

/* Lua's r = lua_expr and torch's want = torch_expr agree: dtype, shape, and values within the
   Python global FTOL, relative and absolute (compared in float64, NaN equal to NaN). */
static int func_agrees(const char *lua_expr, const char *torch_expr) {
  return lua_ok("r = %s", lua_expr) && py_ok("want = %s", torch_expr) &&
         lua_to_py("ld", "r.dtype") && py_true("'torch.' + ld.decode() == str(want.dtype)") &&
         lua_to_torch("r", "r:to('float64')") && py_true("r.shape == want.shape") &&
         py_true("torch.allclose(r, want.double(), rtol=FTOL, atol=FTOL, equal_nan=True)");
}

static void test_funcs(void) {
  section("12: elementwise functions against torch");
  static const char *const dts[] = {"float32", "float64"};
  CHECK(py_ok("import torch.nn.functional as F; torch.manual_seed(16)"));
  CHECK(py_ok("sp = [float('nan'), float('inf'), -float('inf'), 0.0, -0.0, 1.0, -1.0]"));
  for (size_t d = 0; d < 2; d++) {
    const char *dt = dts[d];
    set_context("funcs %s: set-up", dt);
    CHECK(
        py_ok("X = torch.cat([torch.randn(500, dtype=torch.%s) * 4, "
              "torch.tensor(sp, dtype=torch.%s)])",
              dt, dt));
    CHECK(
        py_ok("Y = torch.cat([torch.randn(500, dtype=torch.%s) * 4, "
              "torch.tensor(sp[::-1], dtype=torch.%s)])",
              dt, dt));
    CHECK(py_ok("U = torch.rand(300, dtype=torch.%s) * 2 - 1", dt));
    CHECK(py_ok("P = torch.rand(300, dtype=torch.%s) * 10 + 1", dt));
    CHECK(py_ok("W = torch.rand(507, dtype=torch.%s)", dt));
    CHECK(torch_to_lua("X", "X") && torch_to_lua("Y", "Y") && torch_to_lua("U", "U") &&
          torch_to_lua("P", "P") && torch_to_lua("W", "W"));
    CHECK(py_ok("FTOL = %s", d ? "1e-12" : "1e-5"));
    TP_AGREE_EACH(func_agrees, funcs, "funcs %s", dt);
  }
  set_context("funcs int64: set-up");
  CHECK(
      py_ok("I = torch.randint(-9, 10, (200,)); J = torch.randint(1, 6, (200,)) * "
            "(torch.randint(0, 2, (200,)) * 2 - 1)"));
  CHECK(torch_to_lua("I", "I") && torch_to_lua("J", "J"));
  CHECK(py_ok("FTOL = 1e-6"));
  TP_AGREE_EACH(func_agrees, int_funcs, "funcs int64");
  set_context("%s", "");
  CHECK(lua_ok("X, Y, U, P, W, I, J, r = nil") && py_ok("del X, Y, U, P, W, I, J, r, want, ld"));
}

/* }====== */

#include "torch_host_dist.h"    /* 27b: issue 27's distances and searching (test_distances) */
#include "torch_host_fft.h"     /* 29: lt.fft against torch.fft (test_fft_torch) */
#include "torch_host_index.h"   /* 14: indexing with tensors (test_indexing) */
#include "torch_host_linalg.h"  /* 16: lt.linalg's products and matrix functions */
#include "torch_host_nn_act.h"  /* 28b: nn activations and losses (test_nn_act) */
#include "torch_host_nn_conv.h" /* 17: convolutions and pools (test_nn_conv) */
#include "torch_host_nn_norm.h" /* 28a: nn norms, resizing, attention (test_nn_norm) */
#include "torch_host_shapes.h"  /* 13: shapes and construction (test_shapes) */
#include "torch_host_sort.h"    /* 15: issue 15's sorting and scans (test_sorting) */

int main(int argc, char **argv) {
  const char *v = getenv("TORCH_HOST_VERBOSE");
  verbose = v && *v && strcmp(v, "0") != 0;

  G = pylua_start(argc, argv, HOST_NAME ": FAIL");
  if (!G || !py_ok("import sys")) {
    fprintf(stderr, HOST_NAME ": FAIL: cannot set up Python\n");
    return 1;
  }
  CHECK(py_ok("%s", tp_py_helpers));
  CHECK(py_ok("%s", tp_py_samples));
  if (!py_ok("%s", py_torch)) {
    py_ok("print('sys.version', sys.version, '\\nsys.path', sys.path, file=sys.stderr)");
    fprintf(stderr, HOST_NAME
            ": FAIL: the embedded Python cannot import torch "
            "(apt-get install python3-torch)\n");
    return 1;
  }
  if (verbose)
    py_ok("print('python', sys.version.split()[0], sys.prefix, 'torch', torch.__version__)");
  if (!tp_open_lua(OPEN_CORE)) {
    fprintf(stderr, HOST_NAME ": FAIL: cannot load ltensor in Lua" LOAD_HINT "\n");
    return 1;
  }
  if (tu_failed) {
    fprintf(stderr, HOST_NAME ": FAIL: set-up failed\n");
    return 1;
  }

  test_dtypes();
  test_views();
  test_ownership();
  test_errors();
  test_reductions();
  test_products();
  test_bitwise();
  test_softmax();
  test_einsum();
  test_funcs();
  test_shapes();
  test_indexing();
  test_sorting();
  test_linalg_funcs();
  test_distances();
  test_nn_norm();
  test_nn_conv();
  test_nn_act();
  test_fft_torch();
  test_outlives_state(); /* closes the Lua state */

  section("7: Py_FinalizeEx frees the last export");
  CHECK(Py_FinalizeEx() == 0);
  CHECK(host_deleted == outlives_before + 3);
  return tu_finish(HOST_NAME);
}
