/*
 * torch_host_index.h -- section 14 of torch_host.c: indexing with tensors against torch 1.13 on
 * the same data, moved by DLPack. Included once, by torch_host.c only (both of its builds), after
 * section 12 (it uses that file's torch_to_lua, lua_to_torch and the test_py.h fixtures); main()
 * calls test_indexing(). Kept apart so that torch_host.c does not grow past its size.
 */

/* {====== 14: indexing with tensors ====== */

/* {Lua expression, torch expression}: the same data on both sides; the index tensors of Lua
   (capital letters) are torch's plus one where torch's are >= 0 (negatives count from the end on
   both sides). Duplicate positions only where torch's result is defined (sums, reductions). */
static const char *const indexing[][2] = {
    {"X[I1]", "x[i1]"},
    {"X[{{}, I2}]", "x[:, i2]"},
    {"X[{I1, {}, I3}]", "x[i1, :, i3]"},
    {"X[{{}, I2:reshape(2, 1), I3:narrow(1, 1, 4)}]", "x[:, i2.reshape(2, 1), i3[:4]]"},
    {"X[{2, {}, I3}]", "x[1, :, i3]"},
    {"X[{I1, 3, I3}]", "x[i1, 2, i3]"},
    {"X[MK]", "x[mk]"},
    {"X[{MA, {2, 4}}]", "x[ma, 1:4]"},
    {"X:permute(3, 1, 2)[{{}, MK}]", "x.permute(2, 0, 1)[:, mk]"},
    {"X:index_select(2, I2)", "x.index_select(1, i2 % 5)"},
    {"X:index_select(3, I3)", "x.index_select(2, i3 % 6)"},
    {"X:gather(3, G)", "x.gather(2, g)"},
    {"X:transpose(1, 3):gather(1, G:transpose(1, 3))",
     "x.transpose(0, 2).gather(0, g.transpose(0, 2))"},
    {"X:take(T)", "x.take(t % 120)"},
    {"X:masked_select(MK:unsqueeze(3))", "x.masked_select(mk.unsqueeze(2))"},
    {"X:gt(0.5):nonzero()", "(x > 0.5).nonzero() + 1"},
    {"X:index_add(1, IA, S)", "x.index_add(0, ia, s)"},
    {"X:index_add(1, IA, S, {alpha = -2})", "x.index_add(0, ia, s, alpha=-2)"},
    {"X:index_copy(1, IP, X[{{1, 3}}])", "x.index_copy(0, ip, x[:3])"},
    {"X:index_fill(3, I3, -1.5)", "x.index_fill(2, i3 % 6, -1.5)"},
    {"X:scatter(2, GS, S2)", "x.scatter(1, gs, s2)"},
    {"X:scatter(2, GS, 7.25)", "x.scatter(1, gs, 7.25)"},
    {"X:scatter_add(2, G2, S3)", "x.scatter_add(1, g2, s3)"},
    {"X:masked_scatter(MK:unsqueeze(3), S4)", "x.masked_scatter(mk.unsqueeze(2), s4)"},
    {"(function() local w = X:clone(); w[IP] = X[{{2, 4}}]; return w end)()",
     "xw = x.clone(); xw[ip] = x[1:4]; xw"},
    {"(function() local w = X:clone(); w[MK] = 0; return w end)()",
     "xw = x.clone(); xw[mk] = 0; xw"},
    {"(function() local w = X:clone(); w[{{}, I2, 1}] = S4:narrow(1, 1, 4):reshape(4, 1); return w "
     "end)()",
     "xw = x.clone(); xw[:, i2, 0] = s4[:4].reshape(4, 1); xw"},
};

/* The data of the indexing checks: x and its integer copy xi, index tensors (0-based here,
   lua1 makes them 1-based), masks, sources s*. */
static const char py_index[] =
    "torch.manual_seed(13); x = torch.randn(4, 5, 6, dtype=torch.float64)\n"
    "def lua1(i): return torch.where(i >= 0, i + 1, i)\n"
    "i1 = torch.randint(-4, 4, (7,)); i2 = torch.randint(-5, 5, (2,)); "
    "i3 = torch.randint(-6, 6, (7,)); ia = torch.randint(0, 4, (6,)); "
    "ip = torch.randperm(4)[:3]; t = torch.randint(-120, 120, (3, 3))\n"
    "g = torch.randint(0, 6, (4, 5, 3)); g2 = torch.randint(0, 5, (4, 7, 6)); "
    "gs = torch.argsort(torch.rand(4, 5, 6), dim=1)[:, :3, :]\n"
    "s = torch.randn(6, 5, 6, dtype=torch.float64); "
    "s2 = torch.randn(4, 3, 6, dtype=torch.float64); "
    "s3 = torch.randn(4, 7, 6, dtype=torch.float64); "
    "s4 = torch.randn(200, dtype=torch.float64)\n"
    "mk = x[:, :, 0] > 0; ma = torch.tensor([True, False, True, True]); "
    "xi = (x * 10).long(); si = (s3 * 10).long()";

static void test_indexing(void) {
  CHECK(tp_section_setup("14: indexing with tensors against torch", py_index));
  CHECK(torch_to_lua("X", "x") && torch_to_lua("XI", "xi") && torch_to_lua("SI", "si"));
  static const char *const ivars[] = {"i1", "i2", "i3", "ia", "ip", "t", "g", "g2", "gs"};
  for (size_t i = 0; i < sizeof ivars / sizeof *ivars; i++) {
    char up[8];
    snprintf(up, sizeof up, "%s", ivars[i]);
    for (char *c = up; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    CHECK(torch_to_lua(up, "lua1(%s)", ivars[i]));
  }
  CHECK(torch_to_lua("S", "s") && torch_to_lua("S2", "s2") && torch_to_lua("S3", "s3") &&
        torch_to_lua("S4", "s4"));
  /* torch exports no bool: the masks cross as uint8 */
  CHECK(torch_to_lua("MK", "mk.to(torch.uint8)") && torch_to_lua("MA", "ma.to(torch.uint8)"));
  CHECK(lua_ok("MK, MA = MK:ne(0), MA:ne(0)"));
  for (size_t i = 0; i < sizeof indexing / sizeof *indexing; i++) {
    set_context("indexing: %s", indexing[i][0]);
    const char *py = indexing[i][1], *last = strrchr(py, ';');
    CHECK(lua_ok("r = %s", indexing[i][0]));
    if (last) /* statements, then the expression */
      CHECK(py_ok("%.*s", (int)(last - py), py) && py_ok("want = %s", last + 1));
    else
      CHECK(py_ok("want = %s", py));
    CHECK(lua_to_py("ld", "r.dtype") && py_true("'torch.' + ld.decode() == str(want.dtype)"));
    CHECK(lua_to_torch("r", "r") && py_true("r.shape == want.shape"));
    CHECK(py_true("torch.allclose(r, want, rtol=1e-12, atol=1e-12)"));
  }
  static const char *const reds[] = {"sum", "prod", "mean", "amax", "amin"};
  for (size_t i = 0; i < 5; i++)
    for (int self = 0; self < 2; self++)
      for (int integer = 0; integer < 2; integer++) {
        const char *lx = integer ? "XI" : "X", *px = integer ? "xi" : "x";
        const char *ls = integer ? "SI" : "S3", *ps = integer ? "si" : "s3";
        set_context("indexing: scatter_reduce %s %s include_self=%d", lx, reds[i], self);
        CHECK(lua_ok("r = %s:scatter_reduce(2, G2, %s, '%s', {include_self = %s})", lx, ls, reds[i],
                     self ? "true" : "false"));
        CHECK(py_ok("want = %s.scatter_reduce(1, g2, %s, '%s', include_self=%s)", px, ps, reds[i],
                    self ? "True" : "False"));
        CHECK(lua_to_torch("r", "r") && py_true("r.dtype == want.dtype"));
        CHECK(py_true(integer ? "torch.equal(r, want)"
                              : "torch.allclose(r, want, rtol=1e-12, atol=1e-12)"));
      }
  set_context("%s", "");
  CHECK(lua_ok("X, XI, SI, S, S2, S3, S4, MK, MA, r = nil") && py_ok("del x, xi, si, r, want"));
}

/* }====== */
