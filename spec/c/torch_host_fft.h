/*
 * torch_host_fft.h -- section 29 of torch_host.c: lt.fft (issue 29) against torch.fft 1.13 on
 * the same data, moved into Lua by DLPack. Included once, by torch_host.c only (it uses that
 * file's torch_to_lua and lua_to_torch); main() calls test_fft_torch().
 *
 * Data (seeded), for lengths n of 7, 13, 16, 60, 97 and 128: random float32 and float64 arrays
 * of 3 x n (X) and 2 x 3 x n (B), complex64 / complex128 ones (Z, ZB), non-contiguous views
 * (every other column: XS, ZS; transposes of n x 3: XT, ZT), int64 (I), uint8 and bool (TF,
 * crossed as uint8) inputs (which torch computes as float32), and empty batches (E: 0 x n). Every
 * function of lt.fft with every norm, n / s padding and trimming and several dims. The result's
 * dtype and shape must be torch's, its values within 1e-5 (complex64 / float32) or 1e-12
 * (complex128 / float64) of the largest magnitude of torch's result; fftshift and ifftshift
 * exactly.
 */

static const char py_fft_torch[] =
    "def fcheck(r, want):\n"
    "    if r.dtype != want.dtype or r.shape != want.shape:\n"
    "        print('    lua', r.dtype, tuple(r.shape), 'torch', want.dtype, tuple(want.shape),\n"
    "              file=sys.stderr)\n"
    "        return False\n"
    "    if want.numel() == 0: return True\n"
    "    if not (want.is_floating_point() or want.is_complex()): return torch.equal(r, want)\n"
    "    single = want.dtype in (torch.float32, torch.complex64)\n"
    "    tol = 1e-5 if single else 1e-12\n"
    "    err = ((r - want).abs().max() / want.abs().max().clamp(min=1e-300)).item()\n"
    "    if err > tol: print('    relative error', err, file=sys.stderr)\n"
    "    return err <= tol\n"
    "def fsets(dt, n, seed):\n"
    "    g = torch.Generator().manual_seed(seed)\n"
    "    cdt = torch.complex64 if dt == torch.float32 else torch.complex128\n"
    "    rn = lambda *s, d=dt: torch.randn(*s, generator=g, dtype=d) * 3\n"
    "    return dict(X=rn(3, n), XS=rn(3, 2 * n)[:, ::2], XT=rn(n, 3).t(), B=rn(2, 3, n),\n"
    "                Z=rn(3, n, d=cdt), ZS=rn(3, 2 * n, d=cdt)[:, ::2], ZT=rn(n, 3, d=cdt).t(),\n"
    "                ZB=rn(2, 3, n, d=cdt), I=torch.randint(-9, 10, (3, n), generator=g),\n"
    "                TF=(torch.rand(3, n, generator=g) > 0.5).to(torch.uint8), E=rn(0, n))\n";

/* Lua's N and torch's n are the length of the run; T the run's float dtype name. */
static const char *const fft_torch_cases[][2] = {
    {"lt.fft.fft(X)", "torch.fft.fft(X)"},
    {"lt.fft.fft(ZS, N + 3, -1, 'ortho')", "torch.fft.fft(ZS, n + 3, -1, 'ortho')"},
    {"lt.fft.fft(XT, {dim = 1, norm = 'forward'})", "torch.fft.fft(XT, dim=0, norm='forward')"},
    {"lt.fft.fft(I, N // 2)", "torch.fft.fft(I, n // 2)"},
    {"lt.fft.fft(TF:bool())", "torch.fft.fft(TF.bool())"},
    {"lt.fft.ifft(TF)", "torch.fft.ifft(TF)"},
    {"lt.fft.fft(E)", "torch.fft.fft(E)"},
    {"lt.fft.ifft(Z)", "torch.fft.ifft(Z)"},
    {"lt.fft.ifft(ZT, 2 * N, 1, 'ortho')", "torch.fft.ifft(ZT, 2 * n, 0, 'ortho')"},
    {"lt.fft.ifft(XS, nil, nil, 'forward')", "torch.fft.ifft(XS, norm='forward')"},
    {"lt.fft.rfft(X)", "torch.fft.rfft(X)"},
    {"lt.fft.rfft(XS, N + 1, nil, 'ortho')", "torch.fft.rfft(XS, n + 1, norm='ortho')"},
    {"lt.fft.rfft(XT, N - 1, 1, 'forward')", "torch.fft.rfft(XT, n - 1, 0, 'forward')"},
    {"lt.fft.rfft(I)", "torch.fft.rfft(I)"},
    {"lt.fft.irfft(Z)", "torch.fft.irfft(Z)"},
    {"lt.fft.irfft(Z, N, nil, 'ortho')", "torch.fft.irfft(Z, n, norm='ortho')"},
    {"lt.fft.irfft(ZT, 2 * N - 1, 1, 'forward')", "torch.fft.irfft(ZT, 2 * n - 1, 0, 'forward')"},
    {"lt.fft.irfft(X)", "torch.fft.irfft(X)"},
    {"lt.fft.hfft(Z)", "torch.fft.hfft(Z)"},
    {"lt.fft.hfft(ZS, N, nil, 'ortho')", "torch.fft.hfft(ZS, n, norm='ortho')"},
    {"lt.fft.hfft(ZT, N + 2, 1, 'forward')", "torch.fft.hfft(ZT, n + 2, 0, 'forward')"},
    {"lt.fft.hfft(X)", "torch.fft.hfft(X)"},
    {"lt.fft.ihfft(X)", "torch.fft.ihfft(X)"},
    {"lt.fft.ihfft(XT, N + 1, 1, 'ortho')", "torch.fft.ihfft(XT, n + 1, 0, 'ortho')"},
    {"lt.fft.ihfft(XS, {norm = 'forward'})", "torch.fft.ihfft(XS, norm='forward')"},
    {"lt.fft.fft2(X)", "torch.fft.fft2(X)"},
    {"lt.fft.fft2(ZT, {5, N - 2}, nil, 'ortho')", "torch.fft.fft2(ZT, (5, n - 2), norm='ortho')"},
    {"lt.fft.ifft2(B, nil, {3, 1}, 'forward')", "torch.fft.ifft2(B, dim=(2, 0), norm='forward')"},
    {"lt.fft.fftn(B)", "torch.fft.fftn(B)"},
    {"lt.fft.fftn(ZB, {4, N + 1}, {1, 3}, 'ortho')",
     "torch.fft.fftn(ZB, (4, n + 1), (0, 2), 'ortho')"},
    {"lt.fft.fftn(XS, {N})", "torch.fft.fftn(XS, (n,))"},
    {"lt.fft.fftn(E, nil, {2})", "torch.fft.fftn(E, dim=(1,))"},
    {"lt.fft.ifftn(ZB)", "torch.fft.ifftn(ZB)"},
    {"lt.fft.ifftn(B, {s = {2, 5}, dim = {-1, 2}})", "torch.fft.ifftn(B, (2, 5), (-1, 1))"},
    {"lt.fft.rfft2(X, nil, nil, 'forward')", "torch.fft.rfft2(X, norm='forward')"},
    {"lt.fft.rfft2(XT, {N - 1, 2})", "torch.fft.rfft2(XT, (n - 1, 2))"},
    {"lt.fft.rfftn(B)", "torch.fft.rfftn(B)"},
    {"lt.fft.rfftn(B, {2, N + 1}, {1, 3}, 'ortho')",
     "torch.fft.rfftn(B, (2, n + 1), (0, 2), 'ortho')"},
    {"lt.fft.irfft2(Z)", "torch.fft.irfft2(Z)"},
    {"lt.fft.irfft2(ZT, {4, 5}, nil, 'ortho')", "torch.fft.irfft2(ZT, (4, 5), norm='ortho')"},
    {"lt.fft.irfftn(ZB)", "torch.fft.irfftn(ZB)"},
    {"lt.fft.irfftn(ZB, {3, N}, {2, 3}, 'forward')",
     "torch.fft.irfftn(ZB, (3, n), (1, 2), 'forward')"},
    {"lt.fft.hfft2(Z)", "torch.fft.hfft2(Z)"},
    {"lt.fft.hfft2(ZT, {3, N}, nil, 'ortho')", "torch.fft.hfft2(ZT, (3, n), norm='ortho')"},
    {"lt.fft.hfftn(ZB, nil, {1, 3}, 'forward')", "torch.fft.hfftn(ZB, dim=(0, 2), norm='forward')"},
    {"lt.fft.hfftn(ZB, {2, 4, N + 1})", "torch.fft.hfftn(ZB, (2, 4, n + 1))"},
    {"lt.fft.ihfft2(X, nil, nil, 'ortho')", "torch.fft.ihfft2(X, norm='ortho')"},
    {"lt.fft.ihfft2(XT, {N - 1, 4})", "torch.fft.ihfft2(XT, (n - 1, 4))"},
    {"lt.fft.ihfftn(B)", "torch.fft.ihfftn(B)"},
    {"lt.fft.ihfftn(B, {5, N}, {3, 1}, 'forward')",
     "torch.fft.ihfftn(B, (5, n), (2, 0), 'forward')"},
    {"lt.fft.fftfreq(N, 0.25, {dtype = T})", "torch.fft.fftfreq(n, 0.25, dtype=dt)"},
    {"lt.fft.rfftfreq(N, 3, {dtype = T})", "torch.fft.rfftfreq(n, 3, dtype=dt)"},
    {"lt.fft.fftshift(B)", "torch.fft.fftshift(B)"},
    {"lt.fft.fftshift(ZT, 1)", "torch.fft.fftshift(ZT, 0)"},
    {"lt.fft.fftshift(B, {3, 3})", "torch.fft.fftshift(B, (2, 2))"},
    {"lt.fft.ifftshift(B, {1, 3})", "torch.fft.ifftshift(B, (0, 2))"},
    {"lt.fft.ifftshift(I)", "torch.fft.ifftshift(I)"},
};

static void fft_torch_run(const char *dt, int n, int seed) {
  static const char *const names[] = {"X", "XS", "XT", "B", "Z", "ZS", "ZT", "ZB", "I", "TF", "E"};
  set_context("fft %s n=%d: set-up", dt, n);
  CHECK(py_ok("dt, n = torch.%s, %d\nglobals().update(fsets(dt, n, %d))", dt, n, seed));
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    CHECK(torch_to_lua(names[i], "%s", names[i]));
  CHECK(lua_ok("N, T = %d, '%s'", n, dt));
  for (size_t i = 0; i < sizeof fft_torch_cases / sizeof *fft_torch_cases; i++) {
    set_context("fft %s n=%d: %s", dt, n, fft_torch_cases[i][0]);
    CHECK(lua_to_torch("r", "%s", fft_torch_cases[i][0]) &&
          py_true("fcheck(r, %s)", fft_torch_cases[i][1]));
  }
  CHECK(lua_ok("X, XS, XT, B, Z, ZS, ZT, ZB, I, TF, E, N, T = nil") &&
        py_ok("del X, XS, XT, B, Z, ZS, ZT, ZB, I, TF, E, r"));
}

static void test_fft_torch(void) {
  static const int lengths[] = {7, 13, 16, 60, 97, 128};
  CHECK(tp_section_setup("29: lt.fft against torch.fft", py_fft_torch));
  for (int k = 0; k < 12; k++) /* float32 at each length, then float64 */
    fft_torch_run(k < 6 ? "float32" : "float64", lengths[k % 6], 290 + k);
  set_context("%s", "");
  lua_gc_full();
}
