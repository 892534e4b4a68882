/*
 * numpy_host_layout.h -- section 12 of numpy_host.c: issue 27's layout functions (lua_layout.c)
 * against NumPy on the same arrays, shared into Lua through DLPack. Included once, by
 * numpy_host.c only, after numpy_host_funcs.h (it uses numpy_host.c's np_to_lua and agree());
 * main() calls test_layout_np().
 *
 * Data: random arrays of float32, float64, int64, complex128 and bool (A 4 x 6, its transpose
 * AT, a view with column-major strides, B 2 x 3 x 4, vectors V of 5 and W of 3, the 0-d Z and
 * the empty E 0 x 6), 1-based index arrays for take_along_dim (NumPy's side takes them less
 * one), and counts for repeat_interleave. NumPy's side is its own function where it has one
 * (hstack, vstack, dstack, column_stack, array_split / split / vsplit / hsplit / dsplit,
 * moveaxis, swapaxes, ravel, take_along_axis, repeat, rot90, fliplr, flipud, diagflat,
 * broadcast_arrays, kron, tensordot, inner, tril_indices / triu_indices + 1, unravel_index + 1,
 * vander: NumPy's float32 vander is float64, cast back as torch keeps float32), else the
 * definition in NumPy: diag_embed as np.diag of each row, cartesian_prod from meshgrid,
 * combinations from itertools, baddbmm as beta m + alpha (b1 @ b2). The moves are compared for
 * every dtype; the products for float32, float64 and int64 (float32 within 1e-5, float64 within
 * 1e-12, int64 exactly).
 */

static const char py_layout[] =
    "import itertools\n"
    "def ldata(dt, shape, seed):\n"
    "    r = np.random.default_rng(seed)\n"
    "    x = r.integers(-9, 10, shape) if dt == 'int64' else r.standard_normal(shape) * 3\n"
    "    if dt == 'bool': return np.asarray(np.asarray(x) > 0).astype(np.uint8)  # no bool export\n"
    "    if dt == 'complex128': x = x + 1j * r.standard_normal(shape)\n"
    "    return np.asarray(x).astype(dt)\n"
    "def dembed(a, k=0):  # torch.diag_embed of the last dim, dims -2 and -1\n"
    "    return np.stack([np.diag(r, k) for r in a.reshape(-1, a.shape[-1])])"
    ".reshape(a.shape[:-1] + (a.shape[-1] + abs(k),) * 2)\n"
    "def cprod(*vs):\n"
    "    return np.stack([g.ravel() for g in np.meshgrid(*vs, indexing='ij')], -1)\n"
    "def combs(v, r, rep=False):\n"
    "    f = itertools.combinations_with_replacement if rep else itertools.combinations\n"
    "    return np.array(list(f(v, r)), v.dtype).reshape(-1, r)\n";

/* Every dtype: the moves, stacks and splits (exact copies of NumPy's). */
static const char *const layout_moves[][2] = {
    {"lt.hstack({A, AT:t()})", "np.hstack([a, a])"},
    {"lt.hstack({V, W})", "np.hstack([v, w])"},
    {"lt.hstack({Z, V})", "np.hstack([z, v])"},
    {"lt.vstack({A, A[1]})", "np.vstack([a, a[0]])"},
    {"lt.vstack({E, A})", "np.vstack([e, a])"},
    {"lt.dstack({A, AC})", "np.dstack([a, ac])"},
    {"lt.dstack({V, V})", "np.dstack([v, v])"},
    {"lt.column_stack({A:t()[1], A, Z:expand(4)})", "np.column_stack([a.T[0], a, np.full(4, z)])"},
    {"lt.tensor_split(A, 4, 2)[1]", "np.array_split(a, 4, 1)[0]"},
    {"lt.tensor_split(A, 4, 2)[4]", "np.array_split(a, 4, 1)[3]"},
    {"AT:tensor_split({1, 4, 3, 9})[2]", "np.split(a.T, [1, 4, 3, 9])[1]"},
    {"AT:tensor_split({1, 4, 3, 9})[4]", "np.split(a.T, [1, 4, 3, 9])[3]"},
    {"A:tensor_split({-2}, 2)[2]", "np.split(a, [-2], 1)[1]"},
    {"A:vsplit(2)[2]", "np.vsplit(a, 2)[1]"},
    {"AC:hsplit({2, 5})[2]", "np.hsplit(ac, [2, 5])[1]"},
    {"V:hsplit(5)[3]", "np.hsplit(v, 5)[2]"},
    {"B:dsplit(2)[2]", "np.dsplit(b, 2)[1]"},
    {"B:moveaxis(1, 3)", "np.moveaxis(b, 0, 2)"},
    {"lt.movedim(B, {1, 2}, {3, 1})", "np.moveaxis(b, [0, 1], [2, 0])"},
    {"B:swapaxes(1, -1)", "np.swapaxes(b, 0, -1)"},
    {"AT:swapdims(1, 2)", "np.swapaxes(a.T, 0, 1)"},
    {"AT:ravel()", "np.ravel(a.T)"},
    {"B:ravel()", "np.ravel(b)"},
    {"A:take_along_dim(IX, 2)", "np.take_along_axis(a, ix - 1, 1)"},
    {"AT:take_along_dim(IY, 1)", "np.take_along_axis(a.T, iy - 1, 0)"},
    {"A:take_along_dim(IF)", "np.take_along_axis(a.ravel(), if_ - 1, 0)"},
    {"A:repeat_interleave(R, 2)", "np.repeat(a, r, 1)"},
    {"AT:repeat_interleave(2, 1)", "np.repeat(a.T, 2, 0)"},
    {"A:repeat_interleave(3)", "np.repeat(a, 3)"},
    {"A:rot90()", "np.rot90(a)"},
    {"AC:rot90(-1)", "np.rot90(ac, -1)"},
    {"A:rot90(2)", "np.rot90(a, 2)"},
    {"B:rot90(3, {2, 3})", "np.rot90(b, 3, (1, 2))"},
    {"AT:fliplr()", "np.fliplr(a.T)"},
    {"A:flipud()", "np.flipud(a)"},
    {"A:diag_embed()", "dembed(a)"},
    {"AT:diag_embed(-2)", "dembed(a.T, -2)"},
    {"AT:diagflat(1)", "np.diagflat(a.T, 1)"},
    {"select(2, lt.broadcast_tensors(A[{{}, {1, 1}}], AT:t()))",
     "np.broadcast_arrays(a[:, :1], a)[1]"},
    {"select(1, lt.broadcast_tensors(A[{{}, {1, 1}}], AT:t()))",
     "np.broadcast_arrays(a[:, :1], a)[0]"},
    {"lt.cartesian_prod(V, W, V)", "cprod(v, w, v)"},
    {"lt.combinations(V, 3)", "combs(v, 3)"},
    {"lt.combinations(W, 3, true)", "combs(w, 3, True)"},
    {"E:rot90()", "np.rot90(e)"},
    {"E:ravel()", "np.ravel(e)"},
};

/* The real dtypes: the products and vander. */
static const char *const layout_products[][2] = {
    {"lt.kron(A, B[1])", "np.kron(a, b[0])"},
    {"lt.kron(AT, V)", "np.kron(a.T, v)"},
    {"lt.tensordot(B, C, {{2, 1}, {1, 2}})", "np.tensordot(b, c, ([1, 0], [0, 1]))"},
    {"lt.tensordot(A, AT, 1)", "np.tensordot(a, a.T, 1)"},
    {"lt.tensordot(B, B, 3)", "np.tensordot(b, b, 3)"},
    {"lt.tensordot(A, W, 0)", "np.tensordot(a, w, 0)"},
    {"lt.inner(A, AC)", "np.inner(a, ac)"},
    {"lt.inner(B, A[{{}, {1, 4}}])", "np.inner(b, a[:, :4])"},
    {"lt.vander(V)", "np.vander(v).astype(v.dtype)"},
    {"lt.vander(W, 4, true)", "np.vander(w, 4, True).astype(w.dtype)"},
    {"lt.kron(E, A)", "np.kron(e, a)"},
};

/* Float dtypes: baddbmm (alpha and beta are floats). */
static const char *const layout_baddbmm[][2] = {
    {"lt.baddbmm(M, B, D, {beta = 0.5, alpha = 2})", "0.5 * m + 2 * (b @ d)"},
    {"M:baddbmm(B, D2:transpose(2, 3))", "m + b @ d2.transpose(0, 2, 1)"},
    {"lt.baddbmm(M[1], B, D, {beta = 0})", "b @ d"},
};

/* dtype-free: the index tables. */
static const char *const layout_indices[][2] = {
    {"lt.tril_indices(5, 7, 2)", "np.stack(np.tril_indices(5, 2, 7)) + 1"},
    {"lt.tril_indices(6, 4, -3)", "np.stack(np.tril_indices(6, -3, 4)) + 1"},
    {"lt.triu_indices(6, 4, -1)", "np.stack(np.triu_indices(6, -1, 4)) + 1"},
    {"lt.triu_indices(4, 9, 3)", "np.stack(np.triu_indices(4, 3, 9)) + 1"},
    {"select(1, lt.unravel_index(F, {3, 4, 5}))", "np.unravel_index(f - 1, (3, 4, 5))[0] + 1"},
    {"select(3, lt.unravel_index(F, 3, 4, 5))", "np.unravel_index(f - 1, (3, 4, 5))[2] + 1"},
    {"select(1, lt.unravel_index(F:view(6, 10), {60}))",
     "np.unravel_index(f.reshape(6, 10) - 1, (60,))[0] + 1"},
};

static void layout_dtype(const char *dt) {
  set_context("layout %s: set-up", dt);
  CHECK(
      py_ok("a = ldata('%s', (4, 6), 120); b = ldata('%s', (2, 3, 4), 121)\n"
            "c = ldata('%s', (3, 2, 5), 122); v = ldata('%s', 5, 123); w = ldata('%s', 3, 124)\n"
            "z = ldata('%s', (), 125); e = ldata('%s', (0, 6), 126)\n"
            "ac = np.asfortranarray(ldata('%s', (4, 6), 127)); m = ldata('%s', (2, 1, 5), 128)\n"
            "d = ldata('%s', (2, 4, 5), 131); d2 = ldata('%s', (2, 5, 4), 132)\n"
            "rg = np.random.default_rng(129)\n"
            "ix = rg.integers(1, 7, (4, 3)); iy = rg.integers(1, 5, (2, 4))\n"
            "if_ = rg.integers(1, 25, 7); r = rg.integers(0, 4, 6)",
            dt, dt, dt, dt, dt, dt, dt, dt, dt, dt, dt));
  CHECK(np_to_lua("A", "a") && np_to_lua("B", "b") && np_to_lua("C", "c") && np_to_lua("V", "v") &&
        np_to_lua("W", "w") && np_to_lua("Z", "z") && np_to_lua("E", "e") &&
        np_to_lua("AC", "ac") && np_to_lua("M", "m") && np_to_lua("D", "d") &&
        np_to_lua("D2", "d2") && np_to_lua("IX", "ix") && np_to_lua("IY", "iy") &&
        np_to_lua("IF", "if_") && np_to_lua("R", "r") && lua_ok("AT = A:t()"));
  if (strcmp(dt, "bool") == 0) /* crossed as uint8: bool on both sides from here */
    CHECK(lua_ok("A, B, C, V, W, Z, E, AC = A:bool(), B:bool(), C:bool(), V:bool(), W:bool(), "
                 "Z:bool(), E:bool(), AC:bool(); AT = A:t()") &&
          py_ok("a, b, c, v, w, z, e, ac = (x.astype(bool) for x in (a, b, c, v, w, z, e, ac))"));
  TP_AGREE_EACH(agree, layout_moves, "layout %s", dt);
  if (dt[0] == 'f' || dt[0] == 'i') TP_AGREE_EACH(agree, layout_products, "layout %s", dt);
  if (dt[0] == 'f') TP_AGREE_EACH(agree, layout_baddbmm, "layout %s", dt);
  CHECK(lua_ok("A, AT, B, C, D, D2, V, W, Z, E, AC, M, IX, IY, IF, R = nil") &&
        py_ok("del a, b, c, d, d2, v, w, z, e, ac, m, ix, iy, if_, r, rg"));
}

static void test_layout_np(void) {
  static const char *const layout_dtypes[] = {"float32", "float64", "int64", "complex128", "bool"};
  CHECK(tp_section_setup("12: issue 27's layout functions against NumPy", py_layout));
  for (size_t i = 0; i < sizeof layout_dtypes / sizeof *layout_dtypes; i++)
    layout_dtype(layout_dtypes[i]);
  set_context("layout: index tables");
  CHECK(py_ok("f = np.random.default_rng(130).integers(1, 61, 60)") && np_to_lua("F", "f"));
  TP_AGREE_EACH(agree, layout_indices, "layout");
  CHECK(lua_ok("F = nil") && py_ok("del f"));
  set_context("%s", "");
  lua_gc_full();
}
