/*
 * torch_host_shapes.h -- section 13 of torch_host.c: shapes and construction against torch on
 * the same data, moved into Lua by DLPack. Included once, by torch_host.c only, after its
 * section 12 (it uses that file's torch_to_lua and lua_to_torch); main() calls test_shapes().
 *
 * Data: float64 (sines, so every value differs) and int64 tensors, contiguous and permuted or
 * transposed. Copies (flip, roll, repeat, tile, tril, triu, diag) and views (diagonal, split,
 * chunk, unbind, broadcast_to, meshgrid, view(dtype)) must equal torch's exactly: dtype, shape
 * and values; a sequence must have torch's length and each piece torch's piece. eye exactly;
 * trace as a Lua value. linspace and logspace in float32 and float64, steps 1, 2, 5, 100 and
 * 1001, rising and reversed ranges: linspace within 1e-6 (float32) or 1e-14 (float64) of the
 * range's largest magnitude, logspace within 1e-6 / 1e-14 relative.
 */

static const char *const shape_copies[][2] = {
    {"S:flip(1)", "S.flip(0)"},
    {"S:flip(1, 3)", "S.flip((0, 2))"},
    {"ST:flip({-1, 2})", "ST.flip((-1, 1))"},
    {"IT:flip(2)", "IT.flip(1)"},
    {"S:roll(5)", "S.roll(5)"},
    {"ST:roll(-3)", "ST.roll(-3)"},
    {"S:roll(2, 3)", "S.roll(2, 2)"},
    {"ST:roll({1, -5}, {1, 3})", "ST.roll((1, -5), (0, 2))"},
    {"IT:roll({7, 7}, {2, 2})", "IT.roll((7, 7), (1, 1))"},
    {"S['repeat'](S, 2, 1, 3)", "S.repeat(2, 1, 3)"},
    {"IT['repeat'](IT, 3, 2, 1)", "IT.repeat(3, 2, 1)"},
    {"ST:tile(2)", "ST.tile((2,))"},
    {"IT:tile({2, 1, 2})", "IT.tile((2, 1, 2))"},
    {"S:tril()", "S.tril()"},
    {"ST:tril(-1)", "ST.tril(-1)"},
    {"IT:triu(2)", "IT.triu(2)"},
    {"lt.triu(S, -2)", "S.triu(-2)"},
    {"IT:diag()", "IT.diag()"},
    {"IT:diag(-2)", "IT.diag(-2)"},
    {"IT[2]:diag(1)", "IT[1].diag(1)"},
    {"S:select(1, 2):diag(-1)", "S[1].diag(-1)"},
    {"ST:diagonal()", "ST.diagonal()"},
    {"S:diagonal(1, 3, 2)", "S.diagonal(1, 2, 1)"},
    {"ST:diagonal(-1, -1, 1)", "ST.diagonal(-1, -1, 0)"},
    {"lt.broadcast_to(IT[1], {3, 4})", "torch.broadcast_to(IT[0], (3, 4))"},
    {"S:view('int64')", "S.view(torch.int64)"},
    {"I:view('int32')", "I.view(torch.int32)"},
    {"I:view('int16')", "I.view(torch.int16)"},
    {"lt.eye(4, 6, 'int64')", "torch.eye(4, 6, dtype=torch.int64)"},
    {"lt.eye(3, {dtype = 'float64'})", "torch.eye(3, dtype=torch.float64)"},
};

static const char *const shape_lists[][2] = {
    {"S:split(2, 3)", "S.split(2, 2)"},
    {"ST:split({1, 3}, 1)", "ST.split([1, 3], 0)"},
    {"IT:split(2)", "IT.split(2)"},
    {"S:chunk(2, 3)", "S.chunk(2, 2)"},
    {"IT:chunk(3, 2)", "IT.chunk(3, 1)"},
    {"lt.arange(6):chunk(4)", "torch.arange(6).chunk(4)"},
    {"ST:unbind(3)", "ST.unbind(2)"},
    {"lt.meshgrid(I[1], IT[1])", "torch.meshgrid(I[0], IT[0], indexing='ij')"},
    {"lt.meshgrid({I[1], IT[1], I[2]}, {indexing = 'xy'})",
     "torch.meshgrid(I[0], IT[0], I[1], indexing='xy')"},
};

static void test_shapes(void) {
  CHECK(tp_section_setup("13: shapes and construction against torch",
                         "S = (torch.arange(24, dtype=torch.float64).reshape(2, 3, 4) * 0.7)"
                         ".sin() * 10\n"
                         "ST = S.permute(2, 0, 1)\n"
                         "torch.manual_seed(13); I = torch.randint(-50, 50, (4, 5)); IT = I.t()"));
  CHECK(torch_to_lua("S", "S") && torch_to_lua("ST", "ST") && torch_to_lua("I", "I") &&
        torch_to_lua("IT", "IT"));
  for (size_t i = 0; i < sizeof shape_copies / sizeof *shape_copies; i++) {
    set_context("shapes: %s", shape_copies[i][0]);
    CHECK(lua_to_torch("r", "%s", shape_copies[i][0]) && py_ok("want = %s", shape_copies[i][1]));
    CHECK(py_true("r.dtype == want.dtype and r.shape == want.shape and torch.equal(r, want)"));
  }
  for (size_t i = 0; i < sizeof shape_lists / sizeof *shape_lists; i++) {
    set_context("shapes: %s", shape_lists[i][0]);
    CHECK(lua_ok("rs = %s", shape_lists[i][0]) && py_ok("ws = %s", shape_lists[i][1]));
    CHECK(lua_to_py("n", "#rs") && py_true("n == len(ws)"));
    for (int k = 1; k <= 6 && lua_true("#rs >= %d", k); k++) {
      CHECK(lua_to_torch("r", "rs[%d]", k) && py_ok("want = ws[%d]", k - 1));
      CHECK(py_true("r.dtype == want.dtype and r.shape == want.shape and torch.equal(r, want)"));
    }
  }
  set_context("shapes: trace");
  CHECK(lua_to_py("lr", "IT:trace()") && py_true("lr == IT.trace().item()"));
  CHECK(lua_to_py("lr", "S[1]:trace()") && py_true("lr == S[0].trace().item()"));

  static const char *const ranges[][2] = {
      {"0", "1"}, {"-3.7", "11.3"}, {"5", "-2.5"}, {"1e3", "-1e3"}, {"0.1", "0.1"}};
  static const int steps[] = {1, 2, 5, 100, 1001};
  static const char *const dts[] = {"float32", "float64"}, *const tols[] = {"1e-6", "1e-14"};
  for (size_t d = 0; d < 2; d++)
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
      for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
        const char *a = ranges[i][0], *b = ranges[i][1], *dt = dts[d], *tol = tols[d];
        set_context("shapes: linspace(%s, %s, %d) %s", a, b, steps[s], dt);
        CHECK(lua_to_torch("r", "lt.linspace(%s, %s, %d, '%s')", a, b, steps[s], dt) &&
              py_ok("want = torch.linspace(%s, %s, %d, dtype=torch.%s)", a, b, steps[s], dt));
        CHECK(py_true("r.dtype == want.dtype and r.shape == want.shape"));
        CHECK(py_true("(r - want).abs().max().item() <= %s * max(abs(%s), abs(%s))", tol, a, b));
        if (steps[s] > 0)
          CHECK(
              py_true("r[0].item() == want[0].item() and "
                      "r[-1].item() == want[-1].item()"));
        set_context("shapes: logspace(%s, %s, %d, 2) %s", a, b, steps[s], dt);
        if (a[0] == '1') continue; /* 2^1000 overflows float32 and float64 */
        CHECK(lua_to_torch("r", "lt.logspace(%s, %s, %d, 2, '%s')", a, b, steps[s], dt) &&
              py_ok("want = torch.logspace(%s, %s, %d, 2, dtype=torch.%s)", a, b, steps[s], dt));
        CHECK(py_true("r.dtype == want.dtype and r.shape == want.shape"));
        CHECK(py_true("((r - want).abs() / want.abs()).max().item() <= %s", tol));
      }
  set_context("%s", "");
  CHECK(lua_ok("S, ST, I, IT, r, rs = nil") && py_ok("del S, ST, I, IT, r, want, ws, lr, n"));
}
