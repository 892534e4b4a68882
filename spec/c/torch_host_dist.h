/*
 * torch_host_dist.h -- section 27b of torch_host.c: issue 27's distances, searching and
 * elementwise additions against torch 1.13 on the same tensors, moved into Lua through DLPack.
 * Included once, by torch_host.c only (it uses that file's torch_to_lua and lua_to_torch); main()
 * calls test_distances().
 *
 * For float32 and float64 (tolerance 1e-4 and 1e-10 for cdist and pdist, whose product form rounds
 * differently; 1e-5 and 1e-12 for the elementwise functions): cdist for p in {0, 1, 2, 3, 0.5,
 * inf, 1e308 (infinite for float32)} on the direct path (7 x 3 by 9 x 3), the product form (37 x 5
 * by 29 x 5: more than 25 rows, as torch decides, and each compute_mode forced), batched with
 * broadcasting (3 x 1 x 6 x 4 by 2 x 8 x 4), a transposed x1, empty inputs; pdist for the same p
 * values and a transposed input; logaddexp, logaddexp2, xlogy (zeros and NaN among the operands),
 * reciprocal (also of int64 and complex64), clip, polar, on random and strided data. For int64 and
 * float64 with NaN (exactly): isin against small (scanned) and large (sorted) test sets, inverted,
 * with scalars (a large set only without NaN elements: torch 1.13's sorting path finds a NaN in
 * any large set, its scanning path in none, ltensor in none); bucketize left and right, int32;
 * unique_consecutive with inverse and counts, flat and along each dim. Positions and inverses on
 * ltensor's side are torch's + 1; bool results cross as uint8 (torch 1.13 imports no bool).
 */

static const char py_tdist[] =
    "def dlist(dt, seed):\n"
    "    g = torch.Generator().manual_seed(seed)\n"
    "    r = lambda *s: torch.randn(*s, generator=g, dtype=dt)\n"
    "    return dict(XS=r(7, 3), YS=r(9, 3), X1=r(37, 5), X2=r(29, 5), XT=r(5, 37),\n"
    "                XB=r(3, 1, 6, 4), YB=r(2, 8, 4), E=r(0, 5),\n"
    "                A=r(7, 300) * 4, B=r(7, 300) * 4, Z=(r(7, 300) > 0.5).to(dt) * r(7, 300))\n";

/* cdist and pdist (tolerance DTOL). */
static const char *const tdist_cases[][2] = {
    {"lt.cdist(XS, YS)", "torch.cdist(XS, YS)"},
    {"lt.cdist(XS, YS, 0)", "torch.cdist(XS, YS, p=0)"},
    {"lt.cdist(XS, YS, 1)", "torch.cdist(XS, YS, p=1)"},
    {"lt.cdist(XS, YS, 3)", "torch.cdist(XS, YS, p=3)"},
    {"lt.cdist(XS, YS, 0.5)", "torch.cdist(XS, YS, p=0.5)"},
    {"lt.cdist(XS, YS, math.huge)", "torch.cdist(XS, YS, p=float('inf'))"},
    {"lt.cdist(XS, YS, 1e308)", "torch.cdist(XS, YS, p=1e308)"},
    {"lt.cdist(X1, X2)", "torch.cdist(X1, X2)"},
    {"lt.cdist(X1, X2, 2, 'donot_use_mm_for_euclid_dist')",
     "torch.cdist(X1, X2, compute_mode='donot_use_mm_for_euclid_dist')"},
    {"lt.cdist(XS, YS, 2, {compute_mode = 'use_mm_for_euclid_dist'})",
     "torch.cdist(XS, YS, compute_mode='use_mm_for_euclid_dist')"},
    {"lt.cdist(X1, X2, 3)", "torch.cdist(X1, X2, p=3)"},
    {"lt.cdist(X1, X2, math.huge)", "torch.cdist(X1, X2, p=float('inf'))"},
    {"lt.cdist(XT:t(), X2)", "torch.cdist(XT.t(), X2)"},
    {"lt.cdist(XT:t(), X1, 1)", "torch.cdist(XT.t(), X1, p=1)"},
    {"lt.cdist(XB, YB)", "torch.cdist(XB, YB)"},
    {"lt.cdist(XB, YB, 1)", "torch.cdist(XB, YB, p=1)"},
    {"lt.cdist(XB, YB, 2, 'use_mm_for_euclid_dist')",
     "torch.cdist(XB, YB, compute_mode='use_mm_for_euclid_dist')"},
    {"lt.cdist(E, X2)", "torch.cdist(E, X2)"},
    {"lt.cdist(X2, E, 1)", "torch.cdist(X2, E, p=1)"},
    {"lt.pdist(X1)", "torch.pdist(X1)"},
    {"lt.pdist(X1, 0)", "torch.pdist(X1, p=0)"},
    {"lt.pdist(X1, 1)", "torch.pdist(X1, p=1)"},
    {"lt.pdist(X1, 3)", "torch.pdist(X1, p=3)"},
    {"lt.pdist(X1, math.huge)", "torch.pdist(X1, p=float('inf'))"},
    {"lt.pdist(XT:t())", "torch.pdist(XT.t())"},
    {"lt.pdist(E)", "torch.pdist(E)"},
};

/* The elementwise additions (tolerance FTOL). */
static const char *const tdist_funcs[][2] = {
    {"lt.logaddexp(A, B)", "torch.logaddexp(A, B)"},
    {"A:t():logaddexp(B:t())", "A.t().logaddexp(B.t())"},
    {"lt.logaddexp(A, 1.5)", "torch.logaddexp(A, torch.tensor(1.5, dtype=A.dtype))"},
    {"lt.logaddexp2(A, B)", "torch.logaddexp2(A, B)"},
    {"A[{{}, {1, -1, 3}}]:logaddexp2(B[{{}, {1, 100}}])", "A[:, ::3].logaddexp2(B[:, :100])"},
    {"lt.xlogy(Z, B:abs())", "torch.xlogy(Z, B.abs())"},
    {"lt.xlogy(Z, B)", "torch.xlogy(Z, B)"},
    {"Z:t():xlogy(3)", "Z.t().xlogy(3)"},
    {"lt.reciprocal(A)", "torch.reciprocal(A)"},
    {"A:t():reciprocal()", "A.t().reciprocal()"},
    {"lt.clip(A, -1, 2)", "torch.clip(A, -1, 2)"},
    {"A:t():clip(nil, 0.5)", "A.t().clip(None, 0.5)"},
    {"lt.polar(A:abs(), B)", "torch.polar(A.abs(), B)"},
    {"lt.polar(A:abs():t(), B:t())", "torch.polar(A.abs().t(), B.t())"},
};

/* Mixed dtypes, fixed: int64 I, J and complex64 C. */
static const char *const tdist_other[][2] = {
    {"lt.reciprocal(I)", "torch.reciprocal(I)"},
    {"lt.xlogy(I, J)", "torch.xlogy(I, J)"},
    {"lt.reciprocal(C)", "torch.reciprocal(C)"},
    {"lt.clip(I, -3, 4)", "torch.clip(I, -3, 4)"},
};

/* Searching, exactly (int64 K, L, S, V; float64 F with NaN, G; TOL 0). */
static const char *const tdist_search[][2] = {
    {"lt.isin(K, L5):to('uint8')", "torch.isin(K, L5).to(torch.uint8)"},
    {"lt.isin(K, L):to('uint8')", "torch.isin(K, L).to(torch.uint8)"},
    {"lt.isin(K:t(), L, {invert = true}):to('uint8')",
     "torch.isin(K.t(), L, invert=True).to(torch.uint8)"},
    {"lt.isin(K, 3):to('uint8')", "torch.isin(K, 3).to(torch.uint8)"},
    {"lt.isin(F, G):to('uint8')", "torch.isin(F, G).to(torch.uint8)"},
    {"lt.isin(F:nan_to_num(7), K):to('uint8')", "torch.isin(F.nan_to_num(7), K).to(torch.uint8)"},
    {"lt.bucketize(V, S)", "torch.bucketize(V, S) + 1"},
    {"lt.bucketize(V:view(20, 20):t(), S, {right = true})",
     "torch.bucketize(V.view(20, 20).t(), S, right=True) + 1"},
    {"lt.bucketize(V, S, {out_int32 = true})", "torch.bucketize(V, S, out_int32=True) + 1"},
    {"lt.bucketize(F, S)", "torch.bucketize(F, S) + 1"},
    {"K:unique_consecutive()", "K.unique_consecutive()"},
    {"select(2, K:unique_consecutive({return_inverse = true}))",
     "K.unique_consecutive(return_inverse=True)[1] + 1"},
    {"select(2, K:unique_consecutive({return_counts = true}))",
     "K.unique_consecutive(return_counts=True)[1]"},
    {"F:unique_consecutive()", "F.unique_consecutive()"},
    {"select(3, F:t():unique_consecutive({return_inverse = true, return_counts = true}))",
     "F.t().unique_consecutive(return_inverse=True, return_counts=True)[2]"},
    {"R:unique_consecutive({dim = 1})", "R.unique_consecutive(dim=0)"},
    {"select(2, R:unique_consecutive({dim = 1, return_inverse = true}))",
     "R.unique_consecutive(dim=0, return_inverse=True)[1] + 1"},
    {"select(2, R:unique_consecutive({dim = 2, return_counts = true}))",
     "R.unique_consecutive(dim=1, return_counts=True)[1]"},
    {"R:t():unique_consecutive({dim = -1})", "R.t().unique_consecutive(dim=-1)"},
};

/* Lua's r = lua_expr and torch's want = torch_expr agree: dtype, shape, and values within the
   Python global TOL (complex compared as complex128, everything else as float64; NaN equal to
   NaN). */
static int dist_agree(const char *lua_expr, const char *torch_expr) {
  int ok = lua_ok("r = %s", lua_expr) && py_ok("want = %s", torch_expr) &&
           lua_to_py("ld", "r.dtype") && py_true("'torch.' + ld.decode() == str(want.dtype)") &&
           lua_to_torch("r", "r:to(r.dtype:match('complex') and 'complex128' or 'float64')") &&
           py_true("r.shape == want.shape") &&
           py_true("torch.allclose(r, want.to(r.dtype), rtol=TOL, atol=TOL, equal_nan=True)");
  if (!ok) fprintf(stderr, "  lua: %s\n  torch: %s\n", lua_expr, torch_expr);
  lua_ok("r = nil");
  py_ok("r = want = None");
  return ok;
}

static void test_distances(void) {
  section("27b: distances, searching and elementwise additions against torch");
  CHECK(py_ok("%s", py_tdist));
  static const char *const dts[] = {"float32", "float64"};
  static const char *const names[] = {"XS", "YS", "X1", "X2", "XT", "XB", "YB", "E", "A", "B", "Z"};
  for (size_t d = 0; d < 2; d++) {
    set_context("distances %s: set-up", dts[d]);
    CHECK(py_ok("globals().update(dlist(torch.%s, %d))", dts[d], 27 + (int)d));
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      CHECK(torch_to_lua(names[i], "%s", names[i]));
    CHECK(py_ok("TOL = %s", d ? "1e-10" : "1e-4"));
    TP_AGREE_EACH(dist_agree, tdist_cases, "distances %s", dts[d]);
    /* a point's distance to itself in the product form is the square root of a rounding
       error on both sides: about sqrt(eps) * |x| */
    CHECK(py_ok("TOL = %s", d ? "1e-7" : "3e-3"));
    CHECK(dist_agree("lt.cdist(X1, X1)", "torch.cdist(X1, X1)"));
    CHECK(py_ok("TOL = %s", d ? "1e-12" : "1e-5"));
    TP_AGREE_EACH(dist_agree, tdist_funcs, "additions %s", dts[d]);
  }
  set_context("%s", "searching: set-up");
  CHECK(
      py_ok("g = torch.Generator().manual_seed(2727)\n"
            "K = torch.randint(-20, 21, (30, 40), generator=g); L = torch.randint(-30, 30, "
            "(100,), generator=g)\n"
            "L5 = L[:5].clone(); J = torch.randint(1, 9, (200,), generator=g)\n"
            "I = torch.randint(-9, 10, (200,), generator=g); C = torch.randn(60, "
            "dtype=torch.complex64, generator=g)\n"
            "F = torch.randint(-5, 6, (20, 30), generator=g).double()\n"
            "F[torch.rand(20, 30, generator=g) < 0.1] = float('nan')\n"
            "G = torch.tensor([1.0, -2.0, float('nan'), 4.0, -0.0])\n"
            "S = torch.randint(-25, 25, (50,), generator=g).sort().values; V = "
            "torch.randint(-30, 30, (400,), generator=g)\n"
            "R = torch.randint(0, 2, (12, 3), generator=g).repeat_interleave(2, 0)"));
  static const char *const snames[] = {"K", "L", "L5", "J", "I", "C", "F", "G", "S", "V", "R"};
  for (size_t i = 0; i < sizeof snames / sizeof *snames; i++)
    CHECK(torch_to_lua(snames[i], "%s", snames[i]));
  CHECK(py_ok("TOL = 1e-6"));
  TP_AGREE_EACH(dist_agree, tdist_other, "%s", "int64 and complex64");
  CHECK(py_ok("TOL = 0"));
  TP_AGREE_EACH(dist_agree, tdist_search, "%s", "searching");
  set_context("%s", "");
  CHECK(lua_ok("XS, YS, X1, X2, XT, XB, YB, E, A, B, Z = nil") &&
        lua_ok("K, L, L5, J, I, C, F, G, S, V, R, r = nil"));
  CHECK(
      py_ok("del K, L, L5, J, I, C, F, G, S, V, R, g, want, ld\n"
            "for k in dlist(torch.float32, 0): del globals()[k]"));
  lua_gc_full();
}
