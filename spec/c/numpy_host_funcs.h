/*
 * numpy_host_funcs.h -- section 8 of numpy_host.c: issue 16's functions against NumPy on the
 * same arrays, shared into Lua through DLPack. Included once, by numpy_host.c only, after its
 * section 7 (it uses that file's np_to_lua, agree and py_math's agree()); main() calls
 * test_funcs_np().
 *
 * Data: NumPy's random float32 and float64 arrays with NaN, +-inf, +-0 and +-1 appended (X, Y;
 * U in (-1, 1), P in [1, 11), W in [0, 1)), strided and transposed views of them; random
 * integers of every signed width and uint8 for the bitwise operations; float32, float64 and
 * int64 for einsum and the matrix products. NumPy's side is NumPy's own function where it has
 * one, or the formula written in NumPy (sigmoid 1/(1+exp(-x)), silu, frac, rsqrt, lerp, softmax,
 * log_softmax and logsumexp with the max shift; dist as linalg.norm of the difference). Tensor
 * results must match NumPy's dtype, shape and values (agree(): 1e-5 float32, 1e-12 float64,
 * rtol and atol, NaN where NumPy has NaN, integers exactly); plain Lua values (allclose, equal,
 * dist) within the same tolerance. NumPy has no erf, erfc or gelu: those are torch_host's only.
 * lerp with tensor weights: ltensor follows torch (end - (end - start) * (1 - w) where w >= 0.5),
 * which differs from a + w * (b - a) only where an operand is infinite (inf with 1 and w >= 0.5:
 * torch inf, the formula NaN; -0 with -inf: torch NaN, the formula -inf); the finite part is
 * compared with the formula, the special values with torch's.
 * int64 inputs of the float functions give float32 in ltensor (torch's rule) and float64 in
 * NumPy: there NumPy's values are cast to float32 and compared, the dtype being ltensor's.
 */

static const char py_np16[] =
    "np.seterr(all='ignore')  # overflow and invalid values are part of the data\n"
    "SP = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]\n"
    "def fdata(dt, seed):\n"
    "    r = np.random.default_rng(seed)\n"
    "    x = np.concatenate([r.standard_normal(500) * 4, SP]).astype(dt)\n"
    "    y = np.concatenate([r.standard_normal(500) * 4, SP[::-1]]).astype(dt)\n"
    "    u = (r.random(300) * 2 - 1).astype(dt); p = (r.random(300) * 10 + 1).astype(dt)\n"
    "    w = r.random(507).astype(dt)\n"
    "    return x, y, u, p, w\n"
    "def one(x): return x.dtype.type(1)\n"
    "def sigm(x): return one(x) / (one(x) + np.exp(-x))\n"
    "def lerp(a, b, w): return a + (w if np.ndim(w) else a.dtype.type(w)) * (b - a)\n"
    "def lerp2(a, b, w):  # torch's: b - (b - a) * (1 - w) where w >= 0.5 (differs at inf)\n"
    "    return np.where(w < 0.5, a + w * (b - a), b - (b - a) * (1 - w))\n"
    "def softmax(x, ax):\n"
    "    e = np.exp(x - x.max(ax, keepdims=True))\n"
    "    return e / e.sum(ax, keepdims=True)\n"
    "def log_softmax(x, ax):\n"
    "    s = x - x.max(ax, keepdims=True)\n"
    "    return s - np.log(np.exp(s).sum(ax, keepdims=True))\n"
    "def logsumexp(x, ax, keep=False):  # an all -inf slice: shift by 0 (its sum is -inf)\n"
    "    m = x.max(ax, keepdims=True)\n"
    "    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)\n"
    "    r = np.log(np.exp(x - m).sum(ax, keepdims=True)) + m\n"
    "    return r if keep else np.squeeze(r, ax)\n"
    "def near(a, b, tol):  # a plain Lua value and NumPy's\n"
    "    if isinstance(b, (bool, np.bool_)): return a is bool(b)\n"
    "    b = float(b)\n"
    "    ok = a == b or abs(a - b) <= tol * (1 + abs(b))\n"
    "    if not ok: print('    lua', a, 'numpy', b, file=sys.stderr)\n"
    "    return ok\n";

/* X, Y, U, P, W: fdata's arrays; X2: a (20, 25) view of X's first 500, Y2: a transposed (20, 25)
   view of Y's first 500 (column-major strides). */
static const char *const np16_funcs[][2] = {
    {"X:sigmoid()", "sigm(x)"},
    {"X:relu()", "np.maximum(x, x.dtype.type(0))"},
    {"X:silu()", "x * sigm(x)"},
    {"X:tan()", "np.tan(x)"},
    {"U:asin()", "np.arcsin(u)"},
    {"X:asin()", "np.arcsin(x)"},
    {"U:acos()", "np.arccos(u)"},
    {"X:acos()", "np.arccos(x)"},
    {"X:atan()", "np.arctan(x)"},
    {"X:sinh()", "np.sinh(x)"},
    {"X:cosh()", "np.cosh(x)"},
    {"X:asinh()", "np.arcsinh(x)"},
    {"P:acosh()", "np.arccosh(p)"},
    {"X:acosh()", "np.arccosh(x)"},
    {"U:atanh()", "np.arctanh(u)"},
    {"X:atanh()", "np.arctanh(x)"},
    {"X:log1p()", "np.log1p(x)"},
    {"X:expm1()", "np.expm1(x)"},
    {"P:log2()", "np.log2(p)"},
    {"X:log2()", "np.log2(x)"},
    {"P:log10()", "np.log10(p)"},
    {"X:log10()", "np.log10(x)"},
    {"X:exp2()", "np.exp2(x)"},
    {"X:trunc()", "np.trunc(x)"},
    {"X:frac()", "x - np.trunc(x)"},
    {"P:rsqrt()", "one(p) / np.sqrt(p)"},
    {"X:rsqrt()", "one(x) / np.sqrt(x)"},
    {"X:isnan()", "np.isnan(x)"},
    {"X:isinf()", "np.isinf(x)"},
    {"X:isfinite()", "np.isfinite(x)"},
    {"X:nan_to_num()", "np.nan_to_num(x)"},
    {"X:nan_to_num(1, 2, -3)", "np.nan_to_num(x, nan=1, posinf=2, neginf=-3)"},
    {"X:atan2(Y)", "np.arctan2(x, y)"},
    {"X:fmod(Y)", "np.fmod(x, y)"},
    {"X:remainder(Y)", "np.remainder(x, y)"},
    {"X:hypot(Y)", "np.hypot(x, y)"},
    {"X:lerp(Y, 0.3)", "lerp(x, y, 0.3)"},
    {"X[{{1, 500}}]:lerp(Y[{{1, 500}}], W[{{1, 500}}])", "lerp(x[:500], y[:500], w[:500])"},
    {"X:lerp(Y, W)", "lerp2(x, y, w)"}, /* the special values: torch's formula, see lerp2 */
    {"X[{{1, -1, 3}}]:sigmoid()", "sigm(x[::3])"},
    {"X[{{2, -1, 2}}]:expm1()", "np.expm1(x[1::2])"},
    {"X2:t():log1p()", "np.log1p(x2.T)"},
    {"X2:atan2(Y2)", "np.arctan2(x2, y2)"},
    {"X2:t():fmod(Y2:t())", "np.fmod(x2.T, y2.T)"},
    {"X2:remainder(Y2[1])", "np.remainder(x2, y2[0])"},
    {"X2:hypot(Y2:t():t())", "np.hypot(x2, y2)"},
};

/* int64 inputs: ltensor (torch) gives float32, NumPy float64; values compared in float32. */
static const char *const np16_int_funcs[][2] = {
    {"I:sigmoid()", "f32(1 / (1 + np.exp(-i.astype(float))))"},
    {"I:exp2()", "f32(np.exp2(i))"},
    {"I:atan()", "f32(np.arctan(i))"},
    {"I:log1p()", "f32(np.log1p(i))"},
    {"I:atan2(J)", "f32(np.arctan2(i, j))"},
    {"I:relu()", "np.maximum(i, 0)"},
    {"I:fmod(J)", "np.fmod(i, j)"},
    {"I:remainder(J)", "np.remainder(i, j)"},
    {"I:isnan()", "np.isnan(i)"},
    {"I:isfinite()", "np.isfinite(i)"},
};

/* Softmax family, comparisons, vector products: ALONG_AXES rows run along each of the 3 axes
   (%d in both expressions), PLAIN_VALUE rows give plain Lua values, TENSOR rows tensors. */
enum np16_kind { ALONG_AXES, PLAIN_VALUE, TENSOR };
static const struct {
  enum np16_kind kind;
  const char *lua, *np;
} np16_cmp[] = {
    {ALONG_AXES, "S:softmax(%d)", "softmax(s, %d)"},
    {ALONG_AXES, "S:log_softmax(%d)", "log_softmax(s, %d)"},
    {ALONG_AXES, "S:logsumexp(%d)", "logsumexp(s, %d)"},
    {ALONG_AXES, "S:logsumexp(%d, true)", "logsumexp(s, %d, True)"},
    {ALONG_AXES, "S:permute(3, 1, 2):softmax(%d)", "softmax(s.transpose(2, 0, 1), %d)"},
    {TENSOR, "S:logsumexp({1, 3})", "logsumexp(s, (0, 2))"},
    {TENSOR, "A:isclose(B2)", "np.isclose(a, b2)"},
    {TENSOR, "A:isclose(B2, 0, 1e-6)", "np.isclose(a, b2, rtol=0, atol=1e-6)"},
    {TENSOR, "A:isclose(B, 0.5, 0.1)", "np.isclose(a, b, rtol=0.5, atol=0.1)"},
    {TENSOR, "S:isclose(S, 0, 0, true)", "np.isclose(s, s, rtol=0, atol=0, equal_nan=True)"},
    {TENSOR, "S:isclose(S)", "np.isclose(s, s)"},
    {PLAIN_VALUE, "A:allclose(B2)", "np.allclose(a, b2)"},
    {PLAIN_VALUE, "A:allclose(B)", "np.allclose(a, b)"},
    {PLAIN_VALUE, "A:equal(A:clone())", "np.array_equal(a, a.copy())"},
    {PLAIN_VALUE, "A:equal(B2)", "np.array_equal(a, b2)"},
    {PLAIN_VALUE, "A:dist(B)", "np.linalg.norm((a - b).ravel())"},
    {PLAIN_VALUE, "A:dist(B, 1)", "np.linalg.norm((a - b).ravel(), 1)"},
    {PLAIN_VALUE, "A:dist(B, math.huge)", "np.linalg.norm((a - b).ravel(), np.inf)"},
    {PLAIN_VALUE, "A:dist(B, 3.5)", "np.linalg.norm((a - b).ravel(), 3.5)"},
    {PLAIN_VALUE, "A:dist(U:narrow(1, 1, 3))", "np.linalg.norm((a - u[:3]).ravel())"},
    {TENSOR, "U:outer(W)", "np.outer(u, w)"},
    {TENSOR, "A:cross(B)", "np.cross(a, b)"},
    {TENSOR, "C1:cross(C2)", "np.cross(c1, c2, axis=0)"},
    {TENSOR, "C1:cross(C2, 3)", "np.cross(c1, c2, axis=2)"},
    {TENSOR, "C1:permute(3, 2, 1):cross(C2:permute(3, 2, 1), 1)",
     "np.cross(c1.transpose(2, 1, 0), c2.transpose(2, 1, 0), axis=0)"},
};

/* einsum equations and their operands (names of arrays made below), after test_py.h's
   tp_einsum_eqs. */
static const char *const np16_eqs[][2] = {
    {"ij", "ea"},
};

/* Matrix products: Lua and NumPy, on the same names (operands made below). */
static const char *const np16_mm[][2] = {
    {"ma:mm(mb)", "ma @ mb"},
    {"mb:t():mm(ma:t())", "mb.T @ ma.T"},
    {"ma:mv(mv)", "ma @ mv"},
    {"mv:dot(mv)", "np.dot(mv, mv)"},
    {"mw:matmul(ma)", "mw @ ma"},
    {"mb1:bmm(mb2)", "np.matmul(mb1, mb2)"},
    {"mb1:transpose(2, 3):bmm(mb1)", "np.matmul(mb1.transpose(0, 2, 1), mb1)"},
    {"mb1:matmul(mb)", "mb1 @ mb"},
    {"ma[{ {}, { 1, -1, 2 } }]:t():matmul(ma[{ {}, { 1, 3 } }])", "ma[:, ::2].T @ ma[:, 0:3]"},
};

/* A plain Lua value (number or boolean) and NumPy's, within tol. */
static int agree_value(const char *lua_expr, const char *np_expr, const char *tol) {
  int ok = lua_ok("rr = %s", lua_expr) && lua_to_py("lr", "rr") && py_ok("pr = %s", np_expr) &&
           py_true("near(lr, pr, %s)", tol);
  if (!ok) fprintf(stderr, "  lua: %s\n  numpy: %s\n", lua_expr, np_expr);
  lua_ok("rr = nil");
  return ok;
}

static void np16_float(const char *dt, const char *tol) {
  set_context("funcs %s: set-up", dt);
  CHECK(py_ok("x, y, u, p, w = fdata('%s', 16)", dt));
  CHECK(py_ok("x2 = x[:500].reshape(20, 25); y2 = y[:500].reshape(25, 20).T"));
  CHECK(np_to_lua("X", "x") && np_to_lua("Y", "y") && np_to_lua("U", "u") && np_to_lua("P", "p") &&
        np_to_lua("W", "w") && np_to_lua("X2", "x2") && np_to_lua("Y2", "y2"));
  TP_AGREE_EACH(agree, np16_funcs, "funcs %s", dt);

  set_context("softmax %s: set-up", dt);
  CHECK(
      py_ok("r = np.random.default_rng(17)\n"
            "s = (r.standard_normal((4, 6, 3)) * 3).astype('%s')\n"
            "s[0, 0, :] = -np.inf; s[1, 1, 0] = 1e4; s[2, 3, 1] = -1e4; s[3, :, 2] = -np.inf\n"
            "a = r.standard_normal((4, 6, 3)).astype(s.dtype)\n"
            "b = r.standard_normal((4, 6, 3)).astype(s.dtype)\n"
            "b2 = (a + r.standard_normal((4, 6, 3)) * 1e-7).astype(s.dtype)\n"
            "c1 = r.standard_normal((3, 4, 3)).astype(s.dtype)\n"
            "c2 = r.standard_normal((3, 4, 3)).astype(s.dtype)",
            dt));
  CHECK(np_to_lua("S", "s") && np_to_lua("A", "a") && np_to_lua("B", "b") &&
        np_to_lua("B2", "b2") && np_to_lua("C1", "c1") && np_to_lua("C2", "c2"));
  for (size_t i = 0; i < sizeof np16_cmp / sizeof *np16_cmp; i++) {
    const char *le = np16_cmp[i].lua, *ne = np16_cmp[i].np;
    for (int k = 0; np16_cmp[i].kind == ALONG_AXES && k < 3; k++) {
      set_context("softmax %s: %s, axis %d", dt, le, k + 1);
      CHECK(agree_dim(le, ne, k));
    }
    if (np16_cmp[i].kind == ALONG_AXES) continue;
    set_context("compare %s: %s", dt, le);
    if (np16_cmp[i].kind == PLAIN_VALUE)
      CHECK(agree_value(le, ne, tol));
    else
      CHECK(agree(le, ne));
  }

  CHECK(lua_ok("X, Y, U, P, W, X2, Y2, S, A, B, B2, C1, C2 = nil") &&
        py_ok("del x, y, u, p, w, x2, y2, s, a, b, b2, c1, c2"));
}

static void np16_bitwise(void) {
  static const struct {
    const char *dt;
    int width;
  } dts[] = {{"int8", 8}, {"uint8", 8}, {"int16", 16}, {"int32", 32}, {"int64", 64}};
  static const char *const ops[][2] = {
      /* after test_py.h's tp_bitwise_ops */
      {"A:bitwise_not()", "np.invert(a)"},
      {"A << 3", "a << 3"},
      {"A >> 3", "a >> 3"},
      {"A:view(-1, 1) << S", "a.reshape(-1, 1) << s"},
      {"A:view(-1, 1) >> S", "a.reshape(-1, 1) >> s"},
      {"A:t():bitwise_left_shift(S[{{1, 4}}])", "np.left_shift(a.T, s[:4])"},
      {"A:bitwise_right_shift(S[{{1, 5}}])", "np.right_shift(a, s[:5])"},
  };
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    const char *dt = dts[d].dt;
    set_context("bitwise %s: set-up", dt);
    CHECK(
        py_ok("r = np.random.default_rng(18); ii = np.iinfo('%s')\n"
              "a, b = (r.integers(ii.min, ii.max, (4, 5), dtype='%s', endpoint=True) "
              "for _ in range(2))\n"
              "s = np.arange(%d, dtype=a.dtype)",
              dt, dt, dts[d].width));
    CHECK(np_to_lua("A", "a") && np_to_lua("B", "b") && np_to_lua("S", "s"));
    for (size_t i = 0; i < TP_NBITWISE + sizeof ops / sizeof *ops; i++) {
      const char *const *op = i < TP_NBITWISE ? tp_bitwise_ops[i] : ops[i - TP_NBITWISE];
      set_context("bitwise %s: %s", dt, op[0]);
      CHECK(agree(op[0], op[1]));
    }
  }
  set_context("bitwise uint8 with int8");
  CHECK(py_ok("a = np.arange(-128, 128, 7).astype('uint8'); b = np.arange(-128, 128, 7, 'int8')"));
  CHECK(np_to_lua("A", "a") && np_to_lua("B", "b"));
  CHECK(agree("A & B", "a & b") && agree("A | B", "a | b") && agree("A ~ B", "a ^ b"));
  CHECK(lua_ok("A, B, S = nil") && py_ok("del a, b, s"));
}

static void np16_products(const char *dt) {
  static const char *const names[] = {"ea", "eb", "ec", "ev", "ew", "em",  "ex",
                                      "ey", "ma", "mb", "mv", "mw", "mb1", "mb2"};
  static const char *const shapes[] = {"4, 5",    "5, 6", "6, 3", "5", "4", "5, 5",    "3, 4, 5",
                                       "3, 5, 6", "7, 5", "5, 6", "5", "7", "3, 7, 5", "3, 5, 6"};
  int is_int = dt[0] == 'i';
  CHECK(py_ok("r = np.random.default_rng(19)"));
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    set_context("products %s: %s", dt, names[i]);
    if (is_int)
      CHECK(py_ok("%s = r.integers(-9, 10, (%s,), dtype='%s')", names[i], shapes[i], dt));
    else
      CHECK(py_ok("%s = r.standard_normal((%s,)).astype('%s')", names[i], shapes[i], dt));
    CHECK(np_to_lua(names[i], "%s", names[i]));
  }
  for (size_t i = 0; i < TP_NEINSUM + sizeof np16_eqs / sizeof *np16_eqs; i++) {
    const char *const *eq = i < TP_NEINSUM ? tp_einsum_eqs[i] : np16_eqs[i - TP_NEINSUM];
    char le[128], ne[128];
    set_context("einsum %s '%s'", dt, eq[0]);
    snprintf(le, sizeof le, "lt.einsum('%s', %s)", eq[0], eq[1]);
    snprintf(ne, sizeof ne, "np.einsum('%s', %s)", eq[0], eq[1]);
    CHECK(agree(le, ne));
  }
  TP_AGREE_EACH(agree, np16_mm, "products %s", dt);
  CHECK(lua_ok("ea, eb, ec, ev, ew, em, ex, ey, ma, mb, mv, mw, mb1, mb2 = nil") &&
        py_ok("del ea, eb, ec, ev, ew, em, ex, ey, ma, mb, mv, mw, mb1, mb2"));
}

static void test_funcs_np(void) {
  CHECK(tp_section_setup("8: issue 16's functions against NumPy", py_np16));
  CHECK(py_ok("def f32(v): return np.asarray(v).astype(np.float32)"));
  np16_float("float32", "1e-5");
  np16_float("float64", "1e-12");

  set_context("funcs int64: set-up");
  CHECK(
      py_ok("r = np.random.default_rng(20); i = r.integers(-9, 10, 200)\n"
            "j = r.integers(1, 6, 200) * (r.integers(0, 2, 200) * 2 - 1)"));
  CHECK(np_to_lua("I", "i") && np_to_lua("J", "j"));
  TP_AGREE_EACH(agree, np16_int_funcs, "funcs int64");
  CHECK(lua_ok("I, J = nil") && py_ok("del i, j"));

  np16_bitwise();
  np16_products("float32");
  np16_products("float64");
  np16_products("int64");
  set_context("%s", "");
  lua_gc_full();
}
