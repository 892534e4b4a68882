/*
 * numpy_host_index.h -- section 9 of numpy_host.c: indexing with tensors against NumPy on the
 * same arrays, shared into Lua through DLPack. Included once, by numpy_host.c only, after
 * section 8 (it uses that file's np_to_lua and agree()); main() calls test_index_np().
 *
 * NumPy's side: fancy indexing (x[i], x[mask], x[i, :, j] and the writes x[i] = v), np.take,
 * np.take_along_axis (gather), np.put_along_axis (scatter), np.add.at (index_add and
 * scatter_add), np.place (masked_scatter), np.nonzero; duplicate positions included where NumPy
 * defines the result (its writes go in order, the last one wins, as ours). Index arrays are
 * random int64 with negatives; the Lua side gets them plus one where they are >= 0 (1-based).
 * NumPy exports no bool arrays: masks cross as uint8 and become bool on the Lua side. Every
 * dtype of the list, results of ltensor's dtype, shape and values (agree()).
 */

static const char py_index[] =
    "def lua1(i): return np.where(i >= 0, i + 1, i)\n"
    "def put(a, i, v):\n"
    "    a = a.copy(); a[i] = v; return a\n"
    "def put_along(a, i, v, ax):\n"
    "    a = a.copy(); np.put_along_axis(a, i, v, ax); return a\n"
    "def add_at(a, i, v):\n"
    "    a = a.copy(); np.add.at(a, i, v); return a\n"
    "def place(a, m, v):\n"
    "    a = a.copy(); np.place(a, m, v); return a\n"
    "ri = np.random.default_rng(9)\n"
    "i1 = ri.integers(-4, 4, 9); i2 = ri.integers(-5, 5, 3); i3 = ri.integers(-6, 6, 9)\n"
    "ia = ri.integers(0, 4, 7); t = ri.integers(-120, 120, (2, 5))\n"
    "g = ri.integers(0, 6, (4, 5, 2)); g2 = ri.integers(0, 5, (4, 8, 6))\n";

/* {Lua, NumPy}: X (4, 5, 6) and V, S, W (values for writes) of the dtype under test. */
static const char *const index_cases[][2] = {
    {"X[I1]", "x[i1]"},
    {"X[{{}, I2}]", "x[:, i2]"},
    {"X[{I1, {}, I3}]", "x[i1, :, i3]"},
    {"X[{{}, {}, I3:reshape(3, 3)}]", "x[:, :, i3.reshape(3, 3)]"},
    {"X[MK]", "x[mk]"},
    {"X[X:ne(X[{1, 1, {1, 1}}])]", "x[x != x[0, 0, 0:1]]"},
    {"X:take(T)", "np.take(x, t)"},
    {"X:index_select(2, I2)", "np.take(x, i2, axis=1)"},
    {"X:gather(3, G)", "np.take_along_axis(x, g, 2)"},
    {"X:ne(0):nonzero()", "np.stack(np.nonzero(x != 0), 1) + 1"},
    {"lt.where(X:ne(0))[3]", "np.nonzero(x != 0)[2] + 1"},
    {"X:masked_select(MK:unsqueeze(3))", "x[np.broadcast_to(mk[:, :, None], x.shape)]"},
    {"(function() local w = X:clone(); w[I1] = V; return w end)()", "put(x, i1, v)"},
    {"(function() local w = X:clone(); w[MK] = W; return w end)()", "put(x, mk, w)"},
    {"(function() local w = X:clone(); w[{{}, I2}] = X[{1, 1, {2, 2}}]; return w end)()",
     "put(x, (slice(None), i2), x[0, 0, 1:2])"},
    {"X:scatter(2, G2:narrow(2, 1, 5), S:narrow(2, 1, 5))", "put_along(x, g2[:, :5], s[:, :5], 1)"},
    {"X:index_add(1, IA, V:narrow(1, 1, 7))", "add_at(x, ia, v[:7])"},
    {"X:scatter_add(2, G2, S)",
     "add_at(x, (np.arange(4)[:, None, None], g2, np.arange(6)[None, None, :]), s)"},
    {"X:masked_scatter(MK:unsqueeze(3), S:flatten())",
     "place(x, np.broadcast_to(mk[:, :, None], x.shape), s.flatten())"},
};

static const char *const index_dtypes[] = {"float32", "float64", "int32",    "int64",
                                           "uint8",   "int16",   "complex64"};

static void test_index_np(void) {
  CHECK(tp_section_setup("9: indexing with tensors against NumPy", py_index));
  static const char *const ivars[] = {"i1", "i2", "i3", "ia", "t", "g", "g2"};
  for (size_t i = 0; i < sizeof ivars / sizeof *ivars; i++) {
    char up[8];
    snprintf(up, sizeof up, "%s", ivars[i]);
    for (char *c = up; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    CHECK(np_to_lua(up, "lua1(%s).astype(np.int64)", ivars[i]));
  }
  for (size_t d = 0; d < sizeof index_dtypes / sizeof *index_dtypes; d++) {
    const char *dt = index_dtypes[d];
    set_context("index %s: set-up", dt);
    CHECK(
        py_ok("dt = '%s'; x = mdata(dt if dt != 'complex64' else 'float32', (4, 5, 6), 91)"
              ".astype(dt)",
              dt));
    CHECK(py_ok("v = mdata(dt if dt != 'complex64' else 'float32', (9, 5, 6), 92).astype(dt)"));
    CHECK(py_ok("s = mdata(dt if dt != 'complex64' else 'float32', (4, 8, 6), 93).astype(dt)"));
    CHECK(
        py_ok("mk = x[:, :, 0] != x[0, 0, 0]; w = s.flatten()[:int((x[mk]).size)]"
              ".reshape(x[mk].shape)"));
    CHECK(np_to_lua("X", "x") && np_to_lua("V", "v") && np_to_lua("S", "s") &&
          np_to_lua("W", "w") && np_to_lua("MK", "mk.astype(np.uint8)"));
    CHECK(lua_ok("MK = MK:ne(0)"));
    TP_AGREE_EACH(agree, index_cases, "index %s", dt);
    CHECK(lua_ok("X, V, S, W, MK = nil") && py_ok("del x, v, s, w, mk"));
  }
  set_context("%s", "");
  CHECK(lua_ok("I1, I2, I3, IA, T, G, G2 = nil"));
  lua_gc_full();
}
