/*
 * numpy_host_decomp.h -- a section of numpy_host.c: lt.linalg's decompositions and norms (issue
 * 27: qr, svd, svdvals, eigh, eigvalsh, eig, eigvals, lstsq, pinv, matrix_rank, matrix_norm,
 * vector_norm, norm, cond) against np.linalg on the same arrays, shared into Lua through DLPack.
 * Included once, by numpy_host.c only (it uses that file's np_to_lua and lua_to_np); main()
 * calls test_decomp_np().
 *
 * Data (decomp_py's dmat): NumPy's random matrices of float32, float64, complex64 and
 * complex128: well-conditioned ones, ill-conditioned ones (singular values spread from 1 to
 * 1/cond: cond 1e3 for the single-precision dtypes, 1e6 for the double ones), rank-deficient
 * ones, tall, wide, square and batched (with batch dims that broadcast for lstsq), each also as
 * a transposed (non-contiguous) view, and empty ones. Each row below runs Lua statements on A
 * (B, H: a Hermitian matrix), pulls the named Lua results into NumPy, and checks a Python
 * expression: values that are unique (singular values, eigenvalues, R of QR, lstsq's solution,
 * pinv, norms, cond) against NumPy's within tol (1e-4 single, 1e-11 double, times cond);
 * factors whose signs or phases are free (U, Vh, eigenvectors) through reconstructions
 * (Q R = A, U diag(S) Vh = A, A V = V diag(L)), orthonormality, and |U^H U_numpy| = I.
 * Without LAPACK (lt.config().lapack nil) the section checks the norms that need none.
 */

static const char decomp_py[] =
    "def dmat(dt, shape, seed, cond=None, rank=None):\n"
    "    r = np.random.default_rng(seed)\n"
    "    a = r.standard_normal(shape)\n"
    "    if np.dtype(dt).kind == 'c': a = a + 1j * r.standard_normal(shape)\n"
    "    if cond is not None or rank is not None:\n"
    "        u, s, vh = np.linalg.svd(a, full_matrices=False)\n"
    "        k = s.shape[-1]\n"
    "        s = np.logspace(0, -np.log10(cond or 1), k) * np.ones(s.shape)\n"
    "        if rank is not None: s[..., rank:] = 0\n"
    "        a = (u * s[..., None, :]) @ vh\n"
    "    return a.astype(dt)\n"
    "def adj(x): return np.conj(np.swapaxes(x, -1, -2))\n"
    "def close(x, y, tol):\n"
    "    x, y = np.asarray(x), np.asarray(y)\n"
    "    if x.shape != y.shape:\n"
    "        print('    shape: lua', x.shape, 'numpy', y.shape, file=sys.stderr); return False\n"
    "    if x.size == 0: return True\n"
    "    scale = max(1.0, float(np.abs(y).max()))\n"
    "    err = float(np.abs(x.astype(np.complex128) - y).max()) / scale\n"
    "    if not err <= tol: print('    error', err, 'tol', tol, file=sys.stderr)\n"
    "    return err <= tol\n"
    "def eye_like(x): return np.broadcast_to(np.eye(x.shape[-1]), x.shape)\n"
    "def same_set(x, y, tol):  # eigenvalues, in any order\n"
    "    if np.size(x) == 0: return np.shape(x) == np.shape(y)\n"
    "    n = np.shape(x)[-1]; x = np.asarray(x).reshape(-1, n); y = np.asarray(y).reshape(-1, n)\n"
    "    scale = max(1.0, float(np.abs(y).max()) if y.size else 1.0)\n"
    "    for xr, yr in zip(x, y):\n"
    "        for v in xr:\n"
    "            if np.abs(yr - v).min() / scale > tol:\n"
    "                print('    eigenvalue', v, 'not in', yr, file=sys.stderr); return False\n"
    "    return True\n"
    "def rdt(dt): return {'complex64': 'float32', 'complex128': 'float64'}.get(dt, dt)\n"
    "def cdt(dt): return {'float32': 'complex64', 'float64': 'complex128'}.get(dt, dt)\n";

/* Lua statements, the Lua globals they make to pull into NumPy (space-separated), and a Python
   check over them and a, b, h, h2 (A, B, H, H2 in NumPy), tol, dt, well (whether A is
   well-conditioned: the factors whose comparison needs distinct singular values), eps (machine
   epsilon times the largest size: torch's default tolerance, given to NumPy). Rows of
   decomp_nonempty only run on non-empty matrices: their norms of nothing raise (in torch and
   NumPy alike) or NumPy refuses empty matrices. */
static const char *const decomp_rows[][3] = {
    {"Q, R = lt.linalg.qr(A)", "Q R",
     "close(Q @ R, a, tol) and close(adj(Q) @ Q, eye_like(adj(Q) @ Q), tol)"
     " and close(R, np.linalg.qr(a)[1], tol) and Q.dtype.name == dt"},
    {"Q, R = lt.linalg.qr(A, 'complete')", "Q R",
     "close(Q @ R, a, tol) and close(adj(Q) @ Q, eye_like(adj(Q) @ Q), tol)"
     " and close(R, np.linalg.qr(a, 'complete')[1], tol)"},
    {"Q, R = lt.linalg.qr(A, 'r')", "R", "close(R, np.linalg.qr(a, 'r'), tol)"},
    {"U, S, Vh = lt.linalg.svd(A, false)", "U S Vh",
     "close(S, np.linalg.svd(a, compute_uv=False), tol) and S.dtype.name == rdt(dt)"
     " and close((U * S[..., None, :]) @ Vh, a, tol)"
     " and (not well or close(np.abs(adj(U) @ np.linalg.svd(a, False)[0]),"
     " eye_like(adj(U) @ U), tol))"},
    {"U, S, Vh = lt.linalg.svd(A)", "U Vh",
     "close(adj(U) @ U, eye_like(adj(U) @ U), tol) and close(Vh @ adj(Vh), eye_like(Vh), tol)"
     " and U.shape[-1] == a.shape[-2] and Vh.shape[-2] == a.shape[-1]"},
    {"S = lt.linalg.svdvals(A)", "S", "close(S, np.linalg.svd(a, compute_uv=False), tol)"},
    {"W, V = lt.linalg.eigh(H)", "W V",
     "close(W, np.linalg.eigvalsh(h), tol) and close(h @ V, V * W[..., None, :], tol)"
     " and close(adj(V) @ V, eye_like(V), tol)"
     " and (not well or close(np.abs(adj(V) @ np.linalg.eigh(h)[1]), eye_like(V), tol))"},
    {"W = lt.linalg.eigvalsh(H, 'U')", "W", "close(W, np.linalg.eigvalsh(h, 'U'), tol)"},
    {"W, V = lt.linalg.eig(H2)", "W V",
     "same_set(W, np.linalg.eigvals(h2), tol) and W.dtype.name == cdt(dt)"
     " and close(h2 @ V, V * W[..., None, :], tol) and close(np.linalg.norm(V, axis=-2),"
     " np.ones(W.shape), tol)"},
    {"W = lt.linalg.eigvals(H2)", "W", "same_set(W, np.linalg.eigvals(h2), tol)"},
    {"X, Res, Rank, SV = lt.linalg.lstsq(A, B, nil, {driver = 'gelsd'})", "X Res Rank SV",
     "all(close(x, y, tol) for x, y in zip((X, Res, SV), lstsq_np(a, b)))"
     " and (Rank == lstsq_np(a, b)[3]).all()"},
    {"P = lt.linalg.pinv(A)", "P", "close(P, np.linalg.pinv(a, eps), tol)"},
    {"P = lt.linalg.pinv(H, {hermitian = true})", "P",
     "close(P, np.linalg.pinv(h, eps, hermitian=True), tol)"},
    {"K = lt.linalg.matrix_rank(A)", "K", "(K == np.linalg.matrix_rank(a)).all()"},
    {"K = lt.linalg.matrix_rank(H, {hermitian = true})", "K",
     "(K == np.linalg.matrix_rank(h, hermitian=True)).all()"},
    {"N1, N2, N3, N4 = lt.linalg.matrix_norm(A, 'nuc'), lt.linalg.matrix_norm(A, 2),"
     " lt.linalg.matrix_norm(A, -2), lt.linalg.matrix_norm(A, 'fro', {-1, -2}, true)",
     "N1 N2 N3 N4",
     "close(N1, np.linalg.norm(a, 'nuc', (-2, -1)), tol) and close(N2, np.linalg.norm(a, 2,"
     " (-2, -1)), tol) and close(N3, np.linalg.norm(a, -2, (-2, -1)), tol)"
     " and close(N4, np.linalg.norm(a, 'fro', (-1, -2), True), tol)"},
    {"N1, N2, N3, N4 = lt.linalg.matrix_norm(A, 1), lt.linalg.matrix_norm(A, -1),"
     " lt.linalg.matrix_norm(A, math.huge), lt.linalg.matrix_norm(A, -math.huge)",
     "N1 N2 N3 N4",
     "all(close(n, np.linalg.norm(a, o, (-2, -1)), tol) for n, o in"
     " ((N1, 1), (N2, -1), (N3, np.inf), (N4, -np.inf)))"},
    {"N1, N2, N3 = lt.linalg.vector_norm(A, 3.5, -1), lt.linalg.vector_norm(A, 0, {-2}),"
     " lt.linalg.norm(A, math.huge, -2, true)",
     "N1 N2 N3",
     "close(N1, np.linalg.norm(a, 3.5, -1), tol) and close(N2, np.linalg.norm(a, 0, -2), tol)"
     " and close(N3, np.linalg.norm(a, np.inf, -2, True), tol)"},
    {"C1, C2, C3 = lt.linalg.cond(A), lt.linalg.cond(A, -2), lt.linalg.cond(H2, 'fro')", "C1 C2 C3",
     "(kind == 'rank' or close(C1, np.linalg.cond(a), tol) and close(C2, np.linalg.cond(a, -2),"
     " tol)) and close(C3, np.linalg.cond(h2, 'fro'), tol)"},
    {"C1, C2, C3, C4 = lt.linalg.cond(H2, 1), lt.linalg.cond(H2, -1),"
     " lt.linalg.cond(H2, math.huge), lt.linalg.cond(H2, 'nuc')",
     "C1 C2 C3 C4",
     "all(close(c, np.linalg.cond(h2, o), tol) for c, o in"
     " ((C1, 1), (C2, -1), (C3, np.inf), (C4, 'nuc')))"},
};

/* The cases: shapes of A (m x n, batched), of B, of the square H and H2, the conditioning
   (None, 'ill': cond 1e3 or 1e6, 'rank': rank 2), and whether A reaches Lua as a transposed
   view. */
static const struct {
  const char *a, *b, *sq, *cond;
  int view;
} decomp_cases[] = {
    {"(6, 4)", "(6, 3)", "(5, 5)", "None", 0},
    {"(4, 6)", "(4, 2)", "(4, 4)", "None", 0},
    {"(3, 5, 5)", "(3, 5, 2)", "(3, 4, 4)", "None", 0},
    {"(2, 1, 7, 3)", "(1, 3, 7, 2)", "(2, 3, 3)", "None", 0},
    {"(5, 7)", "(5, 2)", "(6, 6)", "None", 1},
    {"(7, 4)", "(7,)", "(5, 5)", "'ill'", 0},
    {"(2, 6, 6)", "(2, 6, 1)", "(2, 6, 6)", "'ill'", 1},
    {"(6, 5)", "(6, 2)", "(5, 5)", "'rank'", 0},
    {"(0, 3)", "(0, 2)", "(0, 0)", "None", 0},
    {"(2, 4, 0)", "(2, 4, 1)", "(2, 0, 0)", "None", 0},
};

/* The first row of decomp_rows that runs on non-empty matrices only: matrix_rank onwards. */
#define DECOMP_NONEMPTY 13

static const char *const decomp_dtypes[] = {"float32", "float64", "complex64", "complex128"};

/* One case in one dtype: the arrays on both sides, then every row. */
static void decomp_case(size_t c, const char *dt) {
  int single = strcmp(dt, "float32") == 0 || strcmp(dt, "complex64") == 0;
  const char *cond = decomp_cases[c].cond;
  set_context("decomp %s %s%s cond %s: set-up", dt, decomp_cases[c].a,
              decomp_cases[c].view ? " (transposed view)" : "", cond);
  CHECK(py_ok(
      "dt = '%s'; kind = %s; cnum = %s if kind == 'ill' else 1.0\n"
      "ill = cnum if kind == 'ill' else None; rk = 2 if kind == 'rank' else None\n"
      "a = dmat(dt, %s, 31, ill, rk); b = dmat(dt, %s, 32)\n"
      "if %d: a = np.ascontiguousarray(np.swapaxes(a, -1, -2)); a = np.swapaxes(a, -1, -2)\n"
      "x = dmat(dt, %s, 33, ill); h = (x + adj(x)) / 2; h2 = dmat(dt, %s, 34, ill)\n"
      "well = kind is None; tol = %s * (cnum if kind == 'ill' else 1.0)\n"
      "eps = np.finfo(rdt(dt)).eps * max(a.shape[-2:])",
      dt, cond, single ? "1e3" : "1e6", decomp_cases[c].a, decomp_cases[c].b, decomp_cases[c].view,
      decomp_cases[c].sq, decomp_cases[c].sq, single ? "2e-4" : "1e-10"));
  CHECK(np_to_lua("A", "a") && np_to_lua("B", "b") && np_to_lua("H", "h") && np_to_lua("H2", "h2"));
  if (decomp_cases[c].view) CHECK(lua_true("not A:is_contiguous()"));
  int empty = strstr(decomp_cases[c].a, "(0,") || strstr(decomp_cases[c].a, ", 0)");
  for (size_t i = 0; i < sizeof decomp_rows / sizeof *decomp_rows; i++) {
    const char *const *row = decomp_rows[i];
    if (empty && i >= DECOMP_NONEMPTY) continue;
    set_context("decomp %s %s%s cond %s: %s", dt, decomp_cases[c].a,
                decomp_cases[c].view ? " (transposed view)" : "", cond, row[0]);
    if (!lua_ok("%s", row[0])) {
      CHECK(0);
      continue;
    }
    int ok = 1;
    char names[64];
    snprintf(names, sizeof names, "%s", row[1]);
    for (char *name = strtok(names, " "); ok && name; name = strtok(NULL, " "))
      ok = lua_to_np(name, "%s", name);
    CHECK(ok && py_true("%s", row[2]));
  }
  CHECK(
      lua_ok("A, B, H, H2, Q, R, U, S, Vh, W, V, X, Res, Rank, SV, P, K = nil\n"
             "N1, N2, N3, N4, C1, C2, C3, C4 = nil"));
}

static void test_decomp_np(void) {
  int have = 0;
  set_context("decomp: set-up");
  CHECK(py_ok("%s", decomp_py));
  CHECK(
      py_ok("def lstsq_np(a, b):  # np.linalg.lstsq over a broadcast batch, results as torch's\n"
            "    vec = b.ndim == a.ndim - 1\n"
            "    bb = b[..., None] if vec else b\n"
            "    sh = np.broadcast_shapes(a.shape[:-2], bb.shape[:-2]); nb = int(np.prod(sh))\n"
            "    A = np.broadcast_to(a, sh + a.shape[-2:]).reshape((nb,) + a.shape[-2:])\n"
            "    B = np.broadcast_to(bb, sh + bb.shape[-2:]).reshape((nb,) + bb.shape[-2:])\n"
            "    m, n = a.shape[-2:]; k = bb.shape[-1]\n"
            "    out = [np.linalg.lstsq(x, y, rcond=eps) if m and n else\n"
            "           (np.zeros((n, k), a.dtype), (np.abs(y) ** 2).sum(0), 0, np.zeros(0))\n"
            "           for x, y in zip(A, B)]\n"
            "    X = np.array([o[0] for o in out]).reshape(sh + (n, k))\n"
            "    if vec: X = X[..., 0]\n"
            "    rank = np.array([o[2] for o in out]).reshape(sh)\n"
            "    sv = np.array([o[3] for o in out]).reshape(sh + (min(m, n),))\n"
            "    full = m > n and (rank == n).all()\n"
            "    res = np.array([o[1] for o in out]).reshape(sh + (k,)) if full else np.zeros(0)\n"
            "    return X, res, sv, rank"));
  if (!lua_eval("lt.config().lapack ~= nil")) {
    CHECK(0);
    return;
  }
  have = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (!have) { /* the norms that need no LAPACK, and the error of one that does */
    set_context("decomp: without LAPACK");
    CHECK(py_ok("a = dmat('float64', (3, 4, 5), 35)") && np_to_lua("A", "a"));
    CHECK(lua_to_np("N", "lt.linalg.matrix_norm(A, 1)") &&
          py_true("close(N, np.linalg.norm(a, 1, (-2, -1)), 1e-12)"));
    CHECK(lua_to_np("N", "lt.linalg.vector_norm(A, 3, {1, 3})") &&
          py_true("close(N, (np.abs(a) ** 3).sum((0, 2)) ** (1 / 3), 1e-12)"));
    CHECK(lua_raises("linalg.svd: needs LAPACK", "lt.linalg.svd(A)"));
    CHECK(lua_ok("A, N = nil"));
    return;
  }
  for (size_t d = 0; d < sizeof decomp_dtypes / sizeof *decomp_dtypes; d++)
    for (size_t c = 0; c < sizeof decomp_cases / sizeof *decomp_cases; c++)
      decomp_case(c, decomp_dtypes[d]);
  lua_gc_full();
}
