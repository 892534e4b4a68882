/*
 * numpy_host_linalg.h -- section 13 of numpy_host.c: lt.linalg's solving and inverting (solve,
 * solve_triangular, inv, det, slogdet, cholesky, lu, lu_factor, lu_solve, matrix_power) against
 * NumPy on the same arrays, shared into Lua through DLPack. Included once, by numpy_host.c only,
 * after numpy_host_funcs.h (it uses np_to_lua, lua_to_np and lua_to_py); main() calls
 * test_linalg_np(). Skipped, saying so, in a build without LAPACK.
 *
 * Data: random matrices of float32, float64, complex64 and complex128 built as U diag(s) V^H
 * with singular values from 1 down to 1/cond, well-conditioned (cond 10) and ill-conditioned
 * (cond 1e3 for the single-precision dtypes, 1e6 for the double ones); a single 6 x 6 matrix, its
 * transposed view, a (3, 1) batch of 5 x 5 ones broadcast against a (4,) batch of right-hand
 * sides, Hermitian positive-definite matrices (Q diag(s) Q^H) for cholesky, triangles with a
 * dominant diagonal for solve_triangular, rectangular 4 x 7 and 7 x 4 ones for lu, empty
 * batches. NumPy's side (scipy-free): np.linalg.solve, inv, det, slogdet, cholesky and
 * matrix_power; solve_triangular as np.linalg.solve on the triangle; lu and lu_factor by
 * reconstruction (P L U against A), lu_solve as np.linalg.solve. Tolerances by dtype and
 * condition number: 50 n cond eps of the dtype, relative to the largest magnitude of NumPy's
 * result (at least 1).
 */

static const char py_linalg[] =
    "def lmat(dt, shape, cond, seed):  # U diag(s) V^H, s from 1 down to 1/cond\n"
    "    r = np.random.default_rng(seed)\n"
    "    cx = np.dtype(dt).kind == 'c'\n"
    "    def g():\n"
    "        x = r.standard_normal(shape)\n"
    "        return x + 1j * r.standard_normal(shape) if cx else x\n"
    "    n = shape[-1]\n"
    "    u, _ = np.linalg.qr(g()); v, _ = np.linalg.qr(g())\n"
    "    s = np.logspace(0, -np.log10(cond), n)\n"
    "    return ((u * s[..., None, :]) @ v.conj().swapaxes(-1, -2)).astype(dt)\n"
    "def lspd(dt, shape, cond, seed):  # Hermitian positive-definite, eigenvalues 1 .. 1/cond\n"
    "    q = lmat(dt, shape, 1, seed).astype(np.complex128)\n"
    "    s = np.logspace(0, -np.log10(cond), shape[-1])\n"
    "    a = (q * s[..., None, :]) @ q.conj().swapaxes(-1, -2)\n"
    "    a = (a + a.conj().swapaxes(-1, -2)) / 2\n"
    "    return (a if np.dtype(dt).kind == 'c' else a.real).astype(dt)\n"
    "def lrand(dt, shape, seed):\n"
    "    r = np.random.default_rng(seed)\n"
    "    x = r.standard_normal(shape)\n"
    "    if np.dtype(dt).kind == 'c': x = x + 1j * r.standard_normal(shape)\n"
    "    return x.astype(dt)\n"
    "def ltol(dt, cond, n): return 50 * n * cond * np.finfo(dt).eps\n"
    "def lagree(ldt, lv, n, tol):\n"
    "    ldt, n = ldt.decode(), np.asarray(n)\n"
    "    if ldt != n.dtype.name or lv.shape != n.shape:\n"
    "        print('    lua', ldt, lv.shape, 'numpy', n.dtype.name, n.shape, file=sys.stderr)\n"
    "        return False\n"
    "    if n.size == 0: return True\n"
    "    if n.dtype.kind not in 'fc': return np.array_equal(lv, n)\n"
    "    err = np.max(np.abs(lv.astype(np.complex128) - n))\n"
    "    ok = err <= tol * max(1.0, np.max(np.abs(n)))\n"
    "    if not ok: print('    error', err, 'tolerance', tol, file=sys.stderr)\n"
    "    return bool(ok)\n"
    "def rdt(dt): return np.finfo(dt).dtype.name  # the real dtype of dt\n";

/* The Lua expression (a tensor) and the NumPy one agree within lagree's tolerance T (a Python
   global the caller sets). */
static int la_agree(const char *lua_expr, const char *np_expr) {
  int ok = lua_ok("r = %s", lua_expr) && py_ok("n = np.asarray(%s)", np_expr) &&
           lua_to_py("rdt_", "r.dtype") && lua_to_np("rv", "r:contiguous()") &&
           py_true("lagree(rdt_, rv, n, T)");
  if (!ok) fprintf(stderr, "  lua: %s\n  numpy: %s\n", lua_expr, np_expr);
  lua_ok("r = nil");
  py_ok("n = rv = None");
  return ok;
}

/* A: a 6 x 6 matrix, AT its transposed view (at in NumPy), AB (3, 1, 5, 5), BB (4, 5, 2)
   (broadcast: (3, 4, 5, 2)), B1 (6, 2), V (6), S Hermitian positive-definite (2, 5, 5), TR
   (6, 6) with a dominant diagonal; LU, PIV = lu_factor(A). */
static const char *const la_cases[][2] = {
    {"lt.linalg.solve(A, B1)", "np.linalg.solve(a, b1)"},
    {"lt.linalg.solve(A, V)", "np.linalg.solve(a, v)"},
    {"lt.linalg.solve(AT, B1)", "np.linalg.solve(at, b1)"},
    {"lt.linalg.solve(AB, BB)", "np.linalg.solve(ab, bb[None])"}, /* NumPy: bb a stack of vectors */
    {"lt.linalg.solve(A, B1:transpose(1, 2), {left = false})", "np.linalg.solve(a.T, b1).T"},
    {"lt.linalg.inv(A)", "np.linalg.inv(a)"},
    {"lt.linalg.inv(AT)", "np.linalg.inv(at)"},
    {"lt.linalg.inv(AB)", "np.linalg.inv(ab)"},
    {"lt.linalg.det(AB)", "np.linalg.det(ab)"},
    {"lt.linalg.det(AT)", "np.linalg.det(at)"},
    {"lt.linalg.slogdet(AB)", "np.linalg.slogdet(ab)[0]"},
    {"select(2, lt.linalg.slogdet(AB))", "np.linalg.slogdet(ab)[1]"},
    {"lt.linalg.cholesky(S)", "np.linalg.cholesky(s)"},
    {"lt.linalg.cholesky(S, {upper = true})", "np.linalg.cholesky(s).conj().swapaxes(-1, -2)"},
    {"lt.linalg.cholesky(S:transpose(-2, -1))", "np.linalg.cholesky(s.swapaxes(-1, -2))"},
    {"lt.linalg.solve_triangular(TR, B1, {upper = true})", "np.linalg.solve(np.triu(tr), b1)"},
    {"lt.linalg.solve_triangular(TR:t(), B1, {upper = false})",
     "np.linalg.solve(np.tril(tr.T), b1)"},
    {"lt.linalg.solve_triangular(TR, B1, {upper = false, unitriangular = true})",
     "np.linalg.solve(np.tril(tr, -1) + np.eye(6, dtype=tr.dtype), b1)"},
    {"lt.linalg.solve_triangular(TR, B1:t(), {upper = true, left = false})",
     "np.linalg.solve(np.triu(tr).T, b1).T"},
    {"lt.linalg.lu_solve(LU, PIV, B1)", "np.linalg.solve(a, b1)"},
    {"lt.linalg.lu_solve(LU, PIV, B1, {adjoint = true})", "np.linalg.solve(a.conj().T, b1)"},
    {"lt.linalg.lu_solve(LU, PIV, B1:t(), {left = false})", "np.linalg.solve(a.T, b1).T"},
    {"lt.linalg.lu_solve(LU, PIV, B1:t(), {left = false, adjoint = true})",
     "np.linalg.solve(a.conj(), b1).T"},
    {"PLU(A)", "a"},
    {"PLU(R47)", "r47"},
    {"PLU(R74:t())", "r74.T"},
    {"lt.linalg.matrix_power(A, 3)", "np.linalg.matrix_power(a, 3)"},
    {"lt.linalg.matrix_power(AB, 0)", "np.linalg.matrix_power(ab, 0)"},
};

/* Only well-conditioned: the inverse's powers amplify the condition number. */
static const char *const la_cases_well[][2] = {
    {"lt.linalg.matrix_power(A, -2)", "np.linalg.matrix_power(a, -2)"},
    {"lt.linalg.matrix_power(AT, -3)", "np.linalg.matrix_power(at, -3)"},
};

static void linalg_dtype(const char *dt, int ill) {
  const char *cond = ill ? "(1e3 if np.finfo(dt).bits <= 32 else 1e6)" : "10";
  set_context("linalg %s cond %s: set-up", dt, ill ? "high" : "10");
  CHECK(
      py_ok("dt = '%s'; c = %s; T = ltol(dt, c, 6)\n"
            "a = lmat(dt, (6, 6), c, 1); at = lmat(dt, (6, 6), c, 2).T\n"
            "ab = lmat(dt, (3, 1, 5, 5), c, 3); bb = lrand(dt, (4, 5, 2), 4)\n"
            "b1 = lrand(dt, (6, 2), 5); v = lrand(dt, (6,), 6); s = lspd(dt, (2, 5, 5), c, 7)\n"
            "tr = lrand(dt, (6, 6), 8) + 6 * np.eye(6, dtype=dt)\n"
            "r47 = lrand(dt, (4, 7), 9); r74 = lrand(dt, (4, 7), 10)",
            dt, cond));
  CHECK(np_to_lua("A", "a") && np_to_lua("AT", "at") && np_to_lua("AB", "ab") &&
        np_to_lua("BB", "bb") && np_to_lua("B1", "b1") && np_to_lua("V", "v") &&
        np_to_lua("S", "s") && np_to_lua("TR", "tr") && np_to_lua("R47", "r47") &&
        np_to_lua("R74", "r74"));
  CHECK(
      lua_ok("LU, PIV = lt.linalg.lu_factor(A)\n"
             "function PLU(x) local p, l, u = lt.linalg.lu(x) return p:matmul(l):matmul(u) end"));
  TP_AGREE_EACH(la_agree, la_cases, "linalg %s%s", dt, ill ? " ill-conditioned" : "");
  if (!ill) TP_AGREE_EACH(la_agree, la_cases_well, "linalg %s", dt);
  CHECK(lua_ok("A, AT, AB, BB, B1, V, S, TR, R47, R74, LU, PIV, PLU = nil") &&
        py_ok("del a, at, ab, bb, b1, v, s, tr, r47, r74"));
}

/* Integers (matrix_power) and empty operands. */
static const char *const la_exact[][2] = {
    {"lt.linalg.matrix_power(IM, 7)", "np.linalg.matrix_power(im, 7)"},
    {"lt.linalg.matrix_power(IM:transpose(2, 3), 2)",
     "np.linalg.matrix_power(im.swapaxes(1, 2), 2)"},
    {"lt.linalg.inv(E)", "np.linalg.inv(e)"},
    {"lt.linalg.det(E)", "np.linalg.det(e)"},
    {"lt.linalg.det(E0)", "np.linalg.det(e0)"},
    {"lt.linalg.solve(E, lt.zeros(0, 3, 1, 'float64'))", "np.linalg.solve(e, np.zeros((0, 3, 1)))"},
    {"lt.linalg.cholesky(E)", "np.linalg.cholesky(e)"},
};

static void test_linalg_np(void) {
  CHECK(tp_section_setup("13: lt.linalg's solving and inverting against NumPy", py_linalg));
  CHECK(lua_ok("HAVE_LAPACK = lt.config().lapack ~= nil"));
  CHECK(lua_to_py("have_lapack", "HAVE_LAPACK"));
  if (!py_true("have_lapack")) {
    fprintf(stderr, "numpy_host: section 13 skipped: this build has no LAPACK\n");
    return;
  }
  static const char *const dts[] = {"float32", "float64", "complex64", "complex128"};
  for (size_t i = 0; i < sizeof dts / sizeof *dts; i++) {
    linalg_dtype(dts[i], 0);
    linalg_dtype(dts[i], 1);
  }
  set_context("linalg integers and empty operands: set-up");
  CHECK(
      py_ok("T = 1e-12; im = np.random.default_rng(11).integers(-3, 4, (2, 4, 4))\n"
            "e = np.zeros((0, 3, 3)); e0 = np.zeros((2, 0, 0))"));
  CHECK(np_to_lua("IM", "im") && np_to_lua("E", "e") && np_to_lua("E0", "e0"));
  TP_AGREE_EACH(la_agree, la_exact, "linalg integers and empty operands");
  CHECK(lua_ok("IM, E, E0 = nil") && py_ok("del im, e, e0"));
  set_context("%s", "");
  lua_gc_full();
}
