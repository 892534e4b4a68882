/*
 * numpy_host_stats.h -- section 12 of numpy_host.c: issue 27's statistics against NumPy on the
 * same arrays, shared into Lua through DLPack. Included once, by numpy_host.c only, after
 * numpy_host_funcs.h (it uses np_to_lua and agree()); main() calls test_stats_np().
 *
 * Data: NumPy's random normals (times 3) as float32 and float64, (6, 40) arrays A with about
 * 5% NaN and N without, their transposes (views) AT and NT; random integers I (int32) and U
 * (uint8) for the functions that take them; empty and 0-d tensors. NumPy's side: nansum and
 * nanmean in float64 rounded to the dtype (ltensor accumulates in double); nanmedian as the lower
 * nanquantile (torch's lower median; NumPy's nanmedian averages the two middle values) and its
 * position as the first match + 1; quantile and nanquantile for every interpolation (NumPy's
 * `method`, the same five names); std_mean and var_mean as np.std / np.var (ddof) and np.mean;
 * cov with ddof, fweights and aweights, and corrcoef; diff with n, axis, prepend, append;
 * trapezoid as np.trapz; histogram as np.histogram (counts cast to the input's dtype, as torch
 * gives them); logcumsumexp as np.logaddexp.accumulate. Tolerances are agree()'s: 1e-5
 * float32, 1e-12 float64, integers exact.
 */

static const char py_stats[] =
    "def stdata(dt, shape, seed, nan=0.05):\n"
    "    r = np.random.default_rng(seed)\n"
    "    x = (r.standard_normal(shape) * 3).astype(dt)\n"
    "    if nan: x[r.random(shape) < nan] = np.nan\n"
    "    return x\n"
    "def in64(f, a, *args, **kw):  # NumPy's f in float64, rounded to a's dtype\n"
    "    return np.asarray(f(a.astype(np.float64), *args, **kw)).astype(a.dtype)\n"
    "def nmed(a, ax): return in64(np.nanquantile, a, 0.5, axis=ax, method='lower')\n"
    "def nmed_pos(a):  # 1-based position of each row's lower median (no ties in the data)\n"
    "    m = nmed(a, 1)\n"
    "    return np.array([np.argmax(r == v) + 1 for r, v in zip(a, m)], np.int64)\n"
    "def quant(a, q, ax, m, nan=False, keep=False):\n"
    "    f = np.nanquantile if nan else np.quantile\n"
    "    return in64(f, a, q, axis=ax, method=m, keepdims=keep)\n";

/* A, AT: (6, 40) with NaN and its transpose; N, NT: without NaN; Q: quantiles (A's dtype). */
static const char *const stats_cases[][2] = {
    {"A:nansum(2)", "in64(np.nansum, a, 1)"},
    {"AT:nansum(1, true)", "in64(np.nansum, a.T, 0, keepdims=True)"},
    {"A:nansum({1, 2}, true)", "in64(np.nansum, a, keepdims=True)"},
    {"A:nanmean(1)", "in64(np.nanmean, a, 0)"},
    {"AT:nanmean(2)", "in64(np.nanmean, a.T, 1)"},
    {"A:nanmedian(2)", "nmed(a, 1)"},
    {"select(2, N:nanmedian(2))", "nmed_pos(g)"},
    {"AT:nanmedian(1)", "nmed(a.T, 0)"},
    {"A:quantile(0.3, 2)", "quant(a, 0.3, 1, 'linear')"},
    {"N:quantile(Q, 2)", "quant(g, q, 1, 'linear')"},
    {"NT:quantile(Q, 1, true)", "quant(g.T, q, 0, 'linear', keep=True)"},
    {"N:quantile(Q, nil, nil, {interpolation = 'lower'})", "quant(g, q, None, 'lower')"},
    {"N:quantile(Q, 2, false, {interpolation = 'higher'})", "quant(g, q, 1, 'higher')"},
    {"N:quantile(Q, 2, false, {interpolation = 'nearest'})", "quant(g, q, 1, 'nearest')"},
    {"N:quantile(Q, 2, false, {interpolation = 'midpoint'})", "quant(g, q, 1, 'midpoint')"},
    {"A:nanquantile(Q, 2)", "quant(a, q, 1, 'linear', True)"},
    {"AT:nanquantile(0.9, 1, false, {interpolation = 'nearest'})",
     "quant(a.T, 0.9, 0, 'nearest', True)"},
    {"A:nanquantile(Q, 2, false, {interpolation = 'midpoint'})",
     "quant(a, q, 1, 'midpoint', True)"},
    {"lt.std_mean(N, 2)", "in64(np.std, g, 1, ddof=1)"},
    {"select(2, lt.std_mean(N, 2))", "in64(np.mean, g, 1)"},
    {"lt.var_mean(NT, 1, {correction = 0})", "in64(np.var, g.T, 0)"},
    {"select(2, lt.var_mean(NT, {1, 2}, true, true))", "in64(np.mean, g.T, keepdims=True)"},
    {"N:cov()", "in64(np.cov, g)"},
    {"NT:t():cov({correction = 0})", "in64(np.cov, g, ddof=0)"},
    {"N:cov({fweights = F, aweights = W})", "in64(np.cov, g, fweights=f, aweights=w)"},
    {"N[3]:cov()", "in64(np.cov, g[2])"},
    {"N:corrcoef()", "in64(np.corrcoef, g)"},
    {"NT:t():corrcoef()", "in64(np.corrcoef, g)"},
    {"A:diff()", "np.diff(a)"},
    {"A:diff(3, 1)", "np.diff(a, 3, 0)"},
    {"AT:diff(2, 2, AT[{{}, {1, 2}}], AT[{{}, {3, 3}}])",
     "np.diff(a.T, 2, 1, prepend=a.T[:, :2], append=a.T[:, 2:3])"},
    {"lt.trapezoid(N)", "in64(np.trapz, g)"},
    {"lt.trapezoid(NT, {dim = 1, dx = 0.25})", "in64(np.trapz, g.T, dx=0.25, axis=0)"},
    {"lt.trapezoid(N, X)", "in64(np.trapz, g, x.astype(np.float64))"},
    {"lt.trapezoid(NT, NT, {dim = 1})", "in64(np.trapz, g.T, g.T.astype(np.float64), axis=0)"},
    {"N:histogram(10)", "np.histogram(g, 10)[0].astype(g.dtype)"},
    {"select(2, N:histogram(10))", "np.histogram(g, 10)[1].astype(g.dtype)"},
    {"NT:histogram(7, {range = {-2, 3}, weight = NT, density = true})",
     "in64(lambda v: np.histogram(v, 7, (-2, 3), weights=v, density=True)[0], g.T)"},
    {"N:histogram(E)", "np.histogram(g, e)[0].astype(g.dtype)"},
    {"A:logcumsumexp(2)", "in64(np.logaddexp.accumulate, a, 1)"},
    {"AT:logcumsumexp(1)", "in64(np.logaddexp.accumulate, a.T, 0)"},
};

/* Integers, empty and 0-d tensors (the dtype-specific data is I, U, Z). */
static const char *const stats_other[][2] = {
    {"I:nansum(2)", "np.nansum(i, 1, dtype=np.int64)"},
    {"I:diff(2, 1)", "np.diff(i, 2, 0)"},
    {"U:diff()", "np.diff(u)"},
    {"(U:gt(100)):diff()", "np.diff(u > 100)"},
    {"I:cov()", "np.cov(i).astype(np.float32)"},
    {"I:corrcoef()", "np.corrcoef(i).astype(np.float32)"},
    {"lt.trapezoid(I)", "np.trapz(i).astype(np.float32)"},
    {"Z:nansum(1)", "np.nansum(z, 0)"},
    {"Z:nanmean(2)", "np.full(0, np.nan, np.float32)"},
    {"Z:diff(1, 1)", "np.diff(z, 1, 0)"},
    {"lt.trapezoid(Z, {dim = 1})", "np.trapz(z, axis=0)"},
    {"Z:logcumsumexp(1)", "np.logaddexp.accumulate(z, 0)"},
    {"lt.empty({0}):histogram(4)",
     "np.histogram(np.zeros(0, np.float32), 4)[0].astype(np.float32)"},
    {"lt.tensor(2.5):quantile(lt.tensor({0.5}))",
     "np.quantile(np.float32(2.5), [0.5]).astype(np.float32)"},
};

static void stats_dtype(const char *dt) {
  set_context("statistics %s: set-up", dt);
  CHECK(
      py_ok("a = stdata('%s', (6, 40), 271); g = stdata('%s', (6, 40), 272, 0)\n"
            "q = np.array([0, 0.1, 0.25, 0.5, 0.625, 0.9, 1], '%s')\n"
            "r = np.random.default_rng(273); f = r.integers(0, 4, 40); w = r.random(40)\n"
            "x = np.cumsum(r.random(40)).astype('%s'); e = np.array([-5, -1, 0, 0.5, 4], '%s')",
            dt, dt, dt, dt, dt));
  CHECK(np_to_lua("A", "a") && np_to_lua("N", "g") && np_to_lua("Q", "q") && np_to_lua("F", "f") &&
        np_to_lua("W", "w") && np_to_lua("X", "x") && np_to_lua("E", "e") &&
        lua_ok("AT = A:t(); NT = N:t()"));
  TP_AGREE_EACH(agree, stats_cases, "statistics %s", dt);
  CHECK(lua_ok("A, AT, N, NT, Q, F, W, X, E = nil") && py_ok("del a, g, q, r, f, w, x, e"));
}

static void test_stats_np(void) {
  CHECK(tp_section_setup("12: issue 27's statistics against NumPy", py_stats));
  stats_dtype("float32");
  stats_dtype("float64");
  set_context("statistics: integers, empty and 0-d");
  CHECK(
      py_ok("r = np.random.default_rng(274); i = r.integers(-50, 50, (5, 30)).astype(np.int32)\n"
            "u = r.integers(0, 256, 60).astype(np.uint8); z = np.zeros((0, 4), np.float32)"));
  CHECK(np_to_lua("I", "i") && np_to_lua("U", "u") && np_to_lua("Z", "z"));
  TP_AGREE_EACH(agree, stats_other, "statistics");
  CHECK(lua_ok("I, U, Z = nil") && py_ok("del r, i, u, z"));
  set_context("%s", "");
  lua_gc_full();
}
