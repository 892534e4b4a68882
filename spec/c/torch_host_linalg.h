/*
 * torch_host_linalg.h -- section 16 of torch_host.c: lt.linalg's products and matrix functions
 * (matrix_exp, multi_dot, vecdot, cross, diagonal) against torch.linalg on the same data, moved
 * into Lua by DLPack. Included once, by torch_host.c only, after its section 12 (it uses that
 * file's torch_to_lua and lua_to_torch); main() calls test_linalg_funcs().
 *
 * Data (seeded): random float64 batches of 4x4 and 6x6 matrices (norms ~1 and, scaled by 12,
 * large enough to need squarings), an ill-conditioned symmetric one (eigenvalues -30..4: e^A's
 * entries span 1e-13 .. 55, cond ~1e15 of the result), their transposed views, float32 and
 * complex64/complex128 copies, 1x1 and empty batches; matrix chains of mixed sizes with 1-d
 * ends, int64 and complex chains; vectors that broadcast. The result's dtype and shape must be
 * torch's; values within a tolerance by dtype (float64 1e-12, float32 2e-6, relative to the
 * result's largest magnitude; matrix_exp of the large and ill-conditioned ones 1e-10), exact
 * for integers and views (diagonal).
 */

static const char *const linalg_cases[][3] = {
    /* Lua, torch, relative tolerance */
    {"lt.linalg.matrix_exp(A)", "torch.linalg.matrix_exp(A)", "1e-12"},
    {"lt.linalg.matrix_exp(A * 12)", "torch.linalg.matrix_exp(A * 12)", "1e-10"},
    {"lt.linalg.matrix_exp(A:transpose(-1, -2))", "torch.linalg.matrix_exp(A.mT)", "1e-12"},
    {"lt.linalg.matrix_exp(A6)", "torch.linalg.matrix_exp(A6)", "1e-12"},
    {"lt.linalg.matrix_exp(ILL)", "torch.linalg.matrix_exp(ILL)", "1e-10"},
    {"A:float():matrix_exp()", "A.float().matrix_exp()", "2e-6"},
    {"lt.matrix_exp(A6:float() * 3)", "torch.matrix_exp(A6.float() * 3)", "2e-5"},
    {"lt.linalg.matrix_exp(Z)", "torch.linalg.matrix_exp(Z)", "1e-12"},
    {"lt.linalg.matrix_exp(Z:to('complex64'))", "torch.linalg.matrix_exp(Z.to(torch.complex64))",
     "2e-6"},
    {"lt.linalg.matrix_exp(A[{{}, {1, 1}, {1, 1}}])", "torch.linalg.matrix_exp(A[:, :1, :1])",
     "1e-14"},
    {"lt.linalg.matrix_exp(A[{{1, 0}}])", "torch.linalg.matrix_exp(A[:0])", "0"},
    {"lt.linalg.multi_dot({M1, M2, M3, M4})", "torch.linalg.multi_dot([M1, M2, M3, M4])", "1e-12"},
    {"lt.linalg.multi_dot({v, M1, M2, w})", "torch.linalg.multi_dot([v, M1, M2, w])", "1e-12"},
    {"lt.linalg.multi_dot({M1:t(), v})", "torch.linalg.multi_dot([M1.t(), v])", "1e-12"},
    {"lt.linalg.multi_dot({N1, N2, N3})", "torch.linalg.multi_dot([N1, N2, N3])", "0"},
    {"lt.linalg.multi_dot({Z[1], Z[2], Z[3]})", "torch.linalg.multi_dot([Z[0], Z[1], Z[2]])",
     "1e-12"},
    {"lt.linalg.multi_dot({M1:float(), M2:float()})",
     "torch.linalg.multi_dot([M1.float(), M2.float()])", "2e-6"},
    {"lt.linalg.vecdot(X, Y)", "torch.linalg.vecdot(X, Y)", "1e-12"},
    {"lt.linalg.vecdot(X, Y, {dim = 2})", "torch.linalg.vecdot(X, Y, dim=1)", "1e-12"},
    {"lt.linalg.vecdot(X:transpose(2, 3), Y:t(), {dim = -2})",
     "torch.linalg.vecdot(X.transpose(1, 2), Y.t(), dim=-2)", "1e-12"},
    {"lt.linalg.vecdot(X:float(), Y:float())", "torch.linalg.vecdot(X.float(), Y.float())", "2e-6"},
    {"lt.linalg.vecdot(Z, Z:transpose(2, 3))", "torch.linalg.vecdot(Z, Z.mT)", "1e-12"},
    {"lt.linalg.cross(P, Q)", "torch.linalg.cross(P, Q)", "1e-14"},
    {"lt.linalg.cross(P:t(), Q:t(), {dim = 1})", "torch.linalg.cross(P.t(), Q.t(), dim=0)",
     "1e-14"},
    {"lt.linalg.cross(P[{{1, 1}}], Q)", "torch.linalg.cross(P[:1], Q)", "1e-14"},
    {"lt.linalg.diagonal(A)", "torch.linalg.diagonal(A)", "0"},
    {"lt.linalg.diagonal(X, {offset = -1, dim1 = 3, dim2 = 1})",
     "torch.linalg.diagonal(X, offset=-1, dim1=2, dim2=0)", "0"},
};

static void test_linalg_funcs(void) {
  CHECK(tp_section_setup(
      "16: lt.linalg's products and matrix functions against torch.linalg",
      "g = torch.Generator().manual_seed(16)\n"
      "def rn(*s, dtype=torch.float64): return torch.randn(*s, generator=g, dtype=dtype)\n"
      "A, A6 = rn(5, 4, 4) * 0.5, rn(2, 3, 6, 6) * 0.4\n"
      "Qm, _ = torch.linalg.qr(rn(5, 5))\n"
      "ILL = Qm @ torch.diag(torch.linspace(-30, 4, 5, dtype=torch.float64)) @ Qm.t()\n"
      "Z = rn(3, 3, 3, dtype=torch.complex128) * 0.6\n"
      "M1, M2, M3, M4 = rn(10, 30), rn(30, 5), rn(5, 60), rn(60, 7)\n"
      "v, w = rn(10), rn(5)\n"
      "N1, N2, N3 = (torch.randint(-9, 9, s, generator=g) for s in ((3, 4), (4, 2), (2, 5)))\n"
      "X, Y = rn(4, 5, 6), rn(5, 6)\n"
      "P, Q = rn(4, 3), rn(4, 3)\n"));
  static const char *const names[] = {"A", "A6", "ILL", "Z",  "M1", "M2", "M3", "M4", "v",
                                      "w", "N1", "N2",  "N3", "X",  "Y",  "P",  "Q"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    CHECK(torch_to_lua(names[i], "%s", names[i]));
  for (size_t i = 0; i < sizeof linalg_cases / sizeof *linalg_cases; i++) {
    set_context("linalg: %s", linalg_cases[i][0]);
    CHECK(lua_to_torch("r", "%s", linalg_cases[i][0]) && py_ok("want = %s", linalg_cases[i][1]));
    CHECK(py_true("r.dtype == want.dtype and r.shape == want.shape"));
    CHECK(
        py_true("want.numel() == 0 or (r - want).abs().max().item() <= "
                "%s * max(1.0, want.abs().max().item())",
                linalg_cases[i][2]));
  }
  set_context("%s", "");
  CHECK(lua_ok("A, A6, ILL, Z, M1, M2, M3, M4, v, w, N1, N2, N3, X, Y, P, Q, r = nil") &&
        py_ok("del A, A6, ILL, Z, M1, M2, M3, M4, v, w, N1, N2, N3, X, Y, P, Q, r, want"));
}
