/*
 * numpy_host_sort.h -- section 10 of numpy_host.c: issue 15's sorting and scans against NumPy
 * on the same arrays, shared into Lua through DLPack. Included once, by numpy_host.c only, after
 * numpy_host_funcs.h (it uses that file's np_to_lua and agree()); main() calls test_sort_np().
 *
 * Data: random integers in [-20, 20] (ties) as int32, int64, uint8 (shifted) and float16 /
 * float32 / float64 halves with about 5% NaN, in (7, 300) arrays (rows long enough for the
 * radix path along dim 2, short ones along dim 1) and a transposed view; a 300000-element
 * float32 row for the chunked cumsum. NumPy's side: np.sort / np.argsort with kind='stable'
 * (NaN last, equal elements in order: torch's stable sort), positions + 1 for ltensor's
 * 1-based ones; topk, kthvalue and the lower median read off np.sort (a row with NaN: NaN, as
 * torch's median); mode from np.unique's counts of the row's non-NaN values (the smallest most
 * frequent value, its last position; each NaN is a value of its own, as in torch); unique with
 * return_inverse / return_counts (NumPy 1.24 counts every NaN as one value, as ltensor does);
 * cumsum / cumprod in int64 for integers (torch's rule) and in float64 for float32 (torch
 * accumulates in double on the CPU), rounded to float32; cummax / cummin values from np.maximum /
 * np.minimum.accumulate (NaN stays), their positions from torch's documented rule written in
 * Python; searchsorted + 1 (a NaN value: after every element, as torch; NumPy puts it before the
 * first NaN); bincount (float32 weights give float32 in ltensor, as torch); histc against
 * np.histogram on NaN-free data.
 *
 * Then issue 30's vector paths of the row sort (sort_vec_np): rows of 15 to 300000 elements
 * around the network's and the radix split's sizes, float32 / float64 (normal, with NaN, +-inf,
 * -0.0 and ties) and int64 / int32 / uint32 / int16 (the whole range with the extremes), and
 * strided rows (a transpose): sort, stable positions both ways, topk, unique, and the sign bit of
 * every sorted value (a -0.0 stays -0.0: np.sort keeps the elements' bits).
 */

static const char py_sort[] =
    "def sdata(dt, shape, seed):\n"
    "    r = np.random.default_rng(seed)\n"
    "    x = r.integers(-20, 21, shape)\n"
    "    if np.dtype(dt).kind == 'u': x = x + 20\n"
    "    if np.dtype(dt).kind != 'f': return x.astype(dt)\n"
    "    x = (x * 0.5).astype(dt)\n"
    "    x[r.random(shape) < 0.05] = np.nan\n"
    "    return x\n"
    "def ssort(a, ax): return np.sort(a, ax, kind='stable')\n"
    "def sarg(a, ax): return np.argsort(a, ax, kind='stable') + 1\n"
    "def lmed(a, ax):\n"
    "    m = np.take(ssort(a, ax), (a.shape[ax] - 1) // 2, ax)\n"
    "    if a.dtype.kind == 'f': m = np.where(np.isnan(a).any(ax), np.nan, m).astype(a.dtype)\n"
    "    return m\n"
    "def same(x, v): return np.isnan(x) if v != v else x == v\n"
    "def mode_rows(a):  # values, 1-based last positions, row by row\n"
    "    vs, ps = [], []\n"
    "    for row in a:  # each NaN a value of its own (torch): never the mode beside others\n"
    "        u, c = np.unique(row[row == row], return_counts=True)\n"
    "        v = u[np.argmax(c)]\n"
    "        vs.append(v); ps.append(np.nonzero(same(row, v))[0][-1] + 1)\n"
    "    return np.array(vs, a.dtype), np.array(ps, np.int64)\n"
    "def ssearch(s, v, side='left'):  # a NaN value goes after every element (torch)\n"
    "    r = np.searchsorted(s, v, side)\n"
    "    return np.where(v != v, s.shape[-1], r) if v.dtype.kind == 'f' else r\n"
    "def cumarg(a, is_max):  # torch's cummax/cummin positions along axis 1, 1-based\n"
    "    out = np.zeros(a.shape, np.int64)\n"
    "    for i, row in enumerate(a):\n"
    "        best, bi = row[0], 0\n"
    "        for j, x in enumerate(row):\n"
    "            if x != x or (best == best and (x >= best if is_max else x <= best)):\n"
    "                best, bi = x, j\n"
    "            out[i, j] = bi + 1\n"
    "    return out\n"
    "def cumacc(a, ax, f):  # integers in int64; float32 in float64, then rounded\n"
    "    if a.dtype.kind != 'f': return f(a, ax, dtype=np.int64)\n"
    "    if a.dtype == np.float32: return f(a.astype(np.float64), ax).astype(np.float32)\n"
    "    return f(a, ax)\n"
    "TOL['float16'] = 1e-2\n";

/* A: a (7, 300) array of the dtype; AT: its transpose (a view). */
static const char *const sort_cases[][2] = {
    {"A:sort(2)", "ssort(a, 1)"},
    {"select(2, A:sort(2))", "sarg(a, 1)"},
    {"A:sort(1)", "ssort(a, 0)"},
    {"select(2, A:sort(-2))", "sarg(a, 0)"},
    {"AT:sort(1)", "ssort(a.T, 0)"},
    {"select(2, AT:sort(2))", "sarg(a.T, 1)"},
    {"A:argsort(2, false, {stable = true})", "sarg(a, 1)"},
    {"A:topk(5, 2, false)", "ssort(a, 1)[:, :5]"},
    {"select(2, A:topk(5, 2, false))", "sarg(a, 1)[:, :5]"},
    {"A:topk(4, 2)", "np.flip(ssort(a, 1), 1)[:, :4]"},
    {"A:topk(3, 1)", "np.flip(ssort(a, 0), 0)[:3]"},
    {"A:kthvalue(17, 2)", "ssort(a, 1)[:, 16]"},
    {"select(2, A:kthvalue(17, 2))", "sarg(a, 1)[:, 16]"},
    {"A:kthvalue(2, 1, true)", "ssort(a, 0)[1:2]"},
    {"A:median(2)", "lmed(a, 1)"},
    {"A:median(1)", "lmed(a, 0)"},
    {"A:mode(2)", "mode_rows(a)[0]"},
    {"select(2, A:mode(2))", "mode_rows(a)[1]"},
    {"AT:mode(1)", "mode_rows(a)[0]"},
    {"A:unique()", "np.unique(a)"},
    {"select(2, A:unique({return_inverse = true}))",
     "np.unique(a, return_inverse=True)[1].reshape(a.shape) + 1"},
    {"select(2, A:unique({return_counts = true}))", "np.unique(a, return_counts=True)[1]"},
    {"A:cumsum(2)", "cumacc(a, 1, np.cumsum)"},
    {"AT:cumsum(1)", "cumacc(a.T, 0, np.cumsum)"},
    {"A:cumsum(1)", "cumacc(a, 0, np.cumsum)"},
    {"A[{{}, {1, 12}}]:cumprod(2)", "cumacc(a[:, :12], 1, np.cumprod)"},
    {"A:cummax(2)", "np.maximum.accumulate(a, 1)"},
    {"select(2, A:cummax(2))", "cumarg(a, True)"},
    {"A:cummin(2)", "np.minimum.accumulate(a, 1)"},
    {"select(2, A:cummin(2))", "cumarg(a, False)"},
    {"lt.searchsorted(S, V)", "ssearch(s, v) + 1"},
    {"lt.searchsorted(S, V, {right = true})", "np.searchsorted(s, v, 'right') + 1"},
    {"lt.searchsorted(A:sort(2), A[{{}, {1, 50}}])",
     "np.stack([ssearch(r, q) for r, q in zip(ssort(a, 1), a[:, :50])]) + 1"},
};

static const char *const sort_dtypes[] = {"float32", "float64", "float16",
                                          "int32",   "int64",   "uint8"};

static void sort_dtype(const char *dt) {
  set_context("sorting %s: set-up", dt);
  CHECK(
      py_ok("a = sdata('%s', (7, 300), 91); s = np.sort(sdata('%s', 5000, 92))\n"
            "v = sdata('%s', 400, 93)",
            dt, dt, dt));
  CHECK(np_to_lua("A", "a") && np_to_lua("S", "s") && np_to_lua("V", "v") && lua_ok("AT = A:t()"));
  for (size_t i = 0; i < sizeof sort_cases / sizeof *sort_cases; i++) {
    if (strcmp(dt, "float16") == 0 && strstr(sort_cases[i][0], "cum"))
      continue; /* NumPy's
float16 accumulates in float16 */
    set_context("sorting %s: %s", dt, sort_cases[i][0]);
    CHECK(agree(sort_cases[i][0], sort_cases[i][1]));
  }
  CHECK(lua_ok("A, AT, S, V = nil") && py_ok("del a, s, v"));
}

/* bincount and histc: Lua's and the library's calls on the same data (B, W, H). */
static const char *const counting[][2] = {
    {"B:bincount()", "np.bincount(b)"},
    {"B:bincount({minlength = 80})", "np.bincount(b, minlength=80)"},
    {"B:bincount({weights = W})", "np.bincount(b, weights=w)"},
    {"lt.bincount(B, W:to('float32'))",
     "np.bincount(b, weights=w.astype(np.float32)).astype(np.float32)"},
    {"H:histc(10, -2, 2)", "np.histogram(h, 10, (-2, 2))[0].astype(np.float64)"},
    {"H:histc(7)", "np.histogram(h, 7, (h.min(), h.max()))[0].astype(np.float64)"},
    {"H:to('float32'):histc(5, -1, 3)",
     "np.histogram(h.astype(np.float32), 5, (-1, 3))[0].astype(np.float32)"},
};

/* {====== issue 30: the vector paths of the row sort ====== */

/* X: a row of n of the dtype (floats: normal with NaN, +-inf, -0.0 and ties; integers: the
   whole range with the extremes and ties), XT a (n, 3) array's transpose (3 strided rows). */
static const char py_sort_vec[] =
    "def vdata(dt, n, seed):\n"
    "    r = np.random.default_rng(seed)\n"
    "    dt = np.dtype(dt)\n"
    "    if dt.kind == 'f':\n"
    "        x = r.standard_normal(n)\n"
    "        sp = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5])\n"
    "    else:\n"
    "        i = np.iinfo(dt)\n"
    "        x = r.integers(i.min, i.max, n, dtype=dt, endpoint=True)\n"
    "        sp = np.array([i.min, i.max, 0, 1, i.min + 1, i.max - 1], dtype=dt)\n"
    "    x = np.where(r.integers(0, 8, n) < 2, sp[r.integers(0, 6, n)], x)\n"
    "    return x.astype(dt)\n"
    "def signs(a): return np.signbit(a) if a.dtype.kind == 'f' else a\n";

static const char *const sort_vec_cases[][2] = {
    {"X:sort()", "ssort(x, 0)"},
    {"select(2, X:sort())", "sarg(x, 0)"},
    {"select(2, X:sort(1, true))", "len(x) - sarg(x[::-1], 0)[::-1] + 1"},
    {"X:argsort()", "sarg(x, 0)"},
    {"X:topk(math.min(7, #X), 1, false)", "ssort(x, 0)[:7]"},
    {"XT:sort(2)", "ssort(xt, 1)"},
    {"select(2, XT:sort(2))", "sarg(xt, 1)"},
    {"X:unique()", "np.unique(x)"},
};

static void sort_vec_np(void) {
  CHECK(py_ok("%s", py_sort_vec));
  static const char *const dts[] = {"float32", "float64", "int64", "int32", "uint32", "int16"};
  static const int ns[] = {15, 16,  17,  31,  32,   33,   63,   64,
                           65, 255, 256, 257, 4095, 4096, 4097, 300000};
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
      set_context("vector sort %s n=%d: set-up", dts[d], ns[k]);
      CHECK(py_ok("x = vdata('%s', %d, %d); xt = vdata('%s', %d * 3, 9).reshape(%d, 3).T", dts[d],
                  ns[k], 40 + (int)k, dts[d], ns[k], ns[k]));
      CHECK(np_to_lua("X", "x") && np_to_lua("XT", "xt"));
      TP_AGREE_EACH(agree, sort_vec_cases, "vector sort %s n=%d", dts[d], ns[k]);
      set_context("vector sort %s n=%d: signs of the values", dts[d], ns[k]);
      CHECK(lua_to_py("sv", "X:sort():tolist()") &&
            py_true("np.array_equal(signs(np.array(sv, x.dtype)), "
                    "signs(ssort(x, 0)))"));
      CHECK(lua_ok("X, XT = nil") && py_ok("del x, xt, sv"));
    }
  set_context("%s", "");
}

/* }====== */

static void test_sort_np(void) {
  CHECK(tp_section_setup("10: issue 15's sorting and scans against NumPy", py_sort));
  for (size_t i = 0; i < sizeof sort_dtypes / sizeof *sort_dtypes; i++) sort_dtype(sort_dtypes[i]);

  set_context("cumsum of a long float32 row");
  CHECK(py_ok("x = np.random.default_rng(94).standard_normal(300000).astype(np.float32)"));
  CHECK(np_to_lua("X", "x"));
  CHECK(agree("X:cumsum(1)", "np.cumsum(x.astype(np.float64)).astype(np.float32)"));
  CHECK(agree("X[{{1, -1, 3}}]:cumsum(1)",
              "np.cumsum(x[::3].astype(np.float64)).astype(np.float32)"));

  set_context("bincount and histc");
  CHECK(
      py_ok("r = np.random.default_rng(95); b = r.integers(0, 50, 1000)\n"
            "w = r.random(1000); h = r.standard_normal(1000)"));
  CHECK(np_to_lua("B", "b") && np_to_lua("W", "w") && np_to_lua("H", "h"));
  TP_AGREE_EACH(agree, counting, "counting");
  CHECK(lua_ok("X, B, W, H = nil") && py_ok("del x, b, w, h, r"));
  sort_vec_np();
  set_context("%s", "");
  lua_gc_full();
}
