/*
 * numpy_host_fft.h -- section 14 of numpy_host.c: lt.fft (issue 29) against numpy.fft on the
 * same arrays, shared into Lua through DLPack. Included once, by numpy_host.c only (it uses
 * that file's np_to_lua and lua_to_np); main() calls test_fft_np().
 *
 * Data, for float32 and float64 and for lengths n of 7, 13, 16, 60, 97 and 128 (odd, prime,
 * powers of two, mixed): random real and complex arrays of 3 x n (X, Z), 2 x 3 x n (B, ZB),
 * their non-contiguous views (XS, ZS: every other column of a 3 x 2n array; XT, ZT: the
 * transpose of an n x 3 array) and int64 ones (I). Every function of lt.fft with every norm,
 * n and s padding and trimming, dims 1-based on the Lua side (NumPy's axes 0-based). NumPy
 * 1.24's numpy.fft computes in float64 and gives complex128 or float64: its result is cast to
 * the dtype torch (and ltensor) gives, complex64 / float32 for float32 and integer inputs, and
 * the dtype names must agree (the integer cases cast NumPy's result to complex64 themselves).
 * Values agree within 1e-5 (float32) or 1e-12 (float64) of the largest magnitude of NumPy's result
 * (a transform's error spreads over all its outputs, so a near-zero output is judged against the
 * scale of the whole).
 */

#include <ctype.h>

static const char py_fft[] =
    "def fdata(shape, seed, cpx=False, dt=None):\n"
    "    r = np.random.default_rng(seed)\n"
    "    x = r.standard_normal(shape) * 3\n"
    "    if cpx: x = x + 1j * r.standard_normal(shape)\n"
    "    dt = dt or (('complex64' if fdt == 'float32' else 'complex128') if cpx else fdt)\n"
    "    return np.asarray(x).astype(dt)\n"
    "FTOL = {'float32': 1e-5, 'complex64': 1e-5, 'float64': 1e-12, 'complex128': 1e-12}\n"
    "def fwant(r, dt):  # NumPy's float64 result in the dtype torch gives (a cast one kept)\n"
    "    r = np.asarray(r)\n"
    "    if r.dtype.name in ('complex64', 'float32'): return r\n"
    "    if r.dtype.kind == 'c': return r.astype('complex64' if dt == 'float32' else "
    "'complex128')\n"
    "    return r.astype(dt)\n"
    "def fagree(ldt, lv, n):\n"
    "    ldt = ldt.decode()\n"
    "    if ldt != n.dtype.name or lv.shape != n.shape:\n"
    "        print('    lua', ldt, lv.shape, 'numpy', n.dtype.name, n.shape, file=sys.stderr)\n"
    "        return False\n"
    "    if n.size == 0: return True\n"
    "    scale = max(float(np.max(np.abs(n.astype(np.complex128)))), 1e-300)\n"
    "    err = float(np.max(np.abs(lv.astype(np.complex128) - n))) / scale\n"
    "    if err > FTOL[ldt]: print('    relative error', err, file=sys.stderr)\n"
    "    return err <= FTOL[ldt]\n";

/* The Lua expression's tensor and NumPy's result (cast by fwant to the dtype of the run) agree
   in dtype, shape and values relative to NumPy's largest magnitude. */
static int fft_agree(const char *lua_expr, const char *np_expr) {
  int ok = lua_ok("r = %s", lua_expr) && lua_to_py("rdt", "r.dtype") && lua_to_np("rv", "r") &&
           py_true("fagree(rdt, rv, fwant(%s, fdt))", np_expr);
  if (!ok) fprintf(stderr, "  lua: %s\n  numpy: %s\n", lua_expr, np_expr);
  return lua_ok("r = nil") && py_ok("rv = None") && ok;
}

/* Lua's N and NumPy's n are the length of the run. */
static const char *const fft_cases[][2] = {
    {"lt.fft.fft(X)", "np.fft.fft(x)"},
    {"lt.fft.fft(Z, nil, -1, 'ortho')", "np.fft.fft(z, norm='ortho')"},
    {"lt.fft.fft(XT, nil, 1, 'forward')", "np.fft.fft(xt, axis=0, norm='forward')"},
    {"lt.fft.fft(ZS, N + 3)", "np.fft.fft(zs, n + 3)"},
    {"lt.fft.fft(X, {n = N // 2 + 1, dim = 2})", "np.fft.fft(x, n // 2 + 1, 1)"},
    {"lt.fft.fft(I)", "np.fft.fft(i).astype('complex64')"},
    {"lt.fft.ifft(Z)", "np.fft.ifft(z)"},
    {"lt.fft.ifft(ZT, 2 * N, 1, 'ortho')", "np.fft.ifft(zt, 2 * n, 0, norm='ortho')"},
    {"lt.fft.ifft(XS, nil, nil, 'forward')", "np.fft.ifft(xs, norm='forward')"},
    {"lt.fft.rfft(X)", "np.fft.rfft(x)"},
    {"lt.fft.rfft(XS, N + 1, nil, 'ortho')", "np.fft.rfft(xs, n + 1, norm='ortho')"},
    {"lt.fft.rfft(XT, N - 1, 1, 'forward')", "np.fft.rfft(xt, n - 1, 0, norm='forward')"},
    {"lt.fft.rfft(I, {norm = 'ortho'})", "np.fft.rfft(i, norm='ortho').astype('complex64')"},
    {"lt.fft.irfft(Z)", "np.fft.irfft(z)"},
    {"lt.fft.irfft(Z, N, nil, 'ortho')", "np.fft.irfft(z, n, norm='ortho')"},
    {"lt.fft.irfft(ZT, 2 * N - 1, 1, 'forward')", "np.fft.irfft(zt, 2 * n - 1, 0, norm='forward')"},
    {"lt.fft.irfft(ZS, N // 2)", "np.fft.irfft(zs, n // 2)"},
    {"lt.fft.hfft(Z)", "np.fft.hfft(z)"},
    {"lt.fft.hfft(ZS, N, nil, 'ortho')", "np.fft.hfft(zs, n, norm='ortho')"},
    {"lt.fft.hfft(ZT, N + 2, 1, 'forward')", "np.fft.hfft(zt, n + 2, 0, norm='forward')"},
    {"lt.fft.ihfft(X)", "np.fft.ihfft(x)"},
    {"lt.fft.ihfft(XT, N + 1, 1, 'ortho')", "np.fft.ihfft(xt, n + 1, 0, norm='ortho')"},
    {"lt.fft.ihfft(XS, {norm = 'forward'})", "np.fft.ihfft(xs, norm='forward')"},
    {"lt.fft.fft2(X)", "np.fft.fft2(x)"},
    {"lt.fft.fft2(ZT, {5, N - 2}, nil, 'ortho')", "np.fft.fft2(zt, (5, n - 2), norm='ortho')"},
    {"lt.fft.ifft2(B, nil, {3, 1}, 'forward')", "np.fft.ifft2(b, axes=(2, 0), norm='forward')"},
    {"lt.fft.fftn(B)", "np.fft.fftn(b)"},
    {"lt.fft.fftn(ZB, {4, N + 1}, {1, 3}, 'ortho')",
     "np.fft.fftn(zb, (4, n + 1), (0, 2), norm='ortho')"},
    {"lt.fft.fftn(XS, {N})", "np.fft.fftn(xs, (n,))"},
    {"lt.fft.ifftn(ZB)", "np.fft.ifftn(zb)"},
    {"lt.fft.ifftn(B, {s = {2, 5}, dim = {-1, 2}})", "np.fft.ifftn(b, (2, 5), (-1, 1))"},
    {"lt.fft.rfft2(X, nil, nil, 'forward')", "np.fft.rfft2(x, norm='forward')"},
    {"lt.fft.rfft2(XT, {N - 1, 2})", "np.fft.rfft2(xt, (n - 1, 2))"},
    {"lt.fft.rfftn(B)", "np.fft.rfftn(b)"},
    {"lt.fft.rfftn(B, {2, N + 1}, {1, 3}, 'ortho')",
     "np.fft.rfftn(b, (2, n + 1), (0, 2), norm='ortho')"},
    {"lt.fft.irfft2(Z)", "np.fft.irfft2(z)"},
    {"lt.fft.irfft2(ZT, {4, 5}, nil, 'ortho')", "np.fft.irfft2(zt, (4, 5), norm='ortho')"},
    {"lt.fft.irfftn(ZB)", "np.fft.irfftn(zb)"},
    {"lt.fft.irfftn(ZB, {3, N}, {2, 3}, 'forward')",
     "np.fft.irfftn(zb, (3, n), (1, 2), norm='forward')"},
    {"lt.fft.fftshift(B)", "np.fft.fftshift(b)"},
    {"lt.fft.fftshift(ZT, 1)", "np.fft.fftshift(zt, 0)"},
    {"lt.fft.ifftshift(B, {1, 3})", "np.fft.ifftshift(b, (0, 2))"},
    {"lt.fft.fftfreq(N, 0.25, {dtype = DT})", "np.fft.fftfreq(n, 0.25)"},
    {"lt.fft.rfftfreq(N, 3, {dtype = DT})", "np.fft.rfftfreq(n, 3)"},
};

/* The data's Lua names; NumPy's are the same in lower case. */
static const char *const fft_vars[] = {"X", "XS", "XT", "B", "Z", "ZS", "ZT", "ZB", "I", NULL};

static void fft_run(const char *dt, int n) {
  set_context("fft %s n=%d: set-up", dt, n);
  CHECK(
      py_ok("fdt, n = '%s', %d\n"
            "x = fdata((3, n), 140); xs = fdata((3, 2 * n), 141)[:, ::2]\n"
            "xt = fdata((n, 3), 142).T; b = fdata((2, 3, n), 143)\n"
            "z = fdata((3, n), 144, True); zs = fdata((3, 2 * n), 145, True)[:, ::2]\n"
            "zt = fdata((n, 3), 146, True).T; zb = fdata((2, 3, n), 147, True)\n"
            "i = np.random.default_rng(148).integers(-9, 10, (3, n))",
            dt, n));
  for (const char *const *v = fft_vars; *v; v++) {
    char low[8] = {0};
    for (size_t j = 0; (*v)[j] && j + 1 < sizeof low; j++) low[j] = (char)tolower((*v)[j]);
    CHECK(np_to_lua(*v, "%s", low));
  }
  CHECK(lua_ok("N, DT = %d, '%s'", n, dt));
  CHECK(
      lua_ok("assert(not XS:is_contiguous() and not XT:is_contiguous() and "
             "not ZS:is_contiguous())"));
  TP_AGREE_EACH(fft_agree, fft_cases, "fft %s n=%d", dt, n);
  CHECK(lua_ok("X, XS, XT, B, Z, ZS, ZT, ZB, I = nil") &&
        py_ok("del x, xs, xt, b, z, zs, zt, zb, i"));
}

static void test_fft_np(void) {
  static const char *const dts[] = {"float32", "float64"};
  static const int lengths[] = {7, 13, 16, 60, 97, 128};
  CHECK(tp_section_setup("14: lt.fft against numpy.fft", py_fft));
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
    for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++) fft_run(dts[d], lengths[k]);
  set_context("%s", "");
  lua_gc_full();
}
