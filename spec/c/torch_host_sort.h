/*
 * torch_host_sort.h -- section 15 of torch_host.c: issue 15's sorting and scans against torch
 * 1.13 on the same tensors, moved into Lua through DLPack. Included once, by torch_host.c only
 * (it uses that file's torch_to_lua and lua_to_torch); main() calls test_sorting().
 *
 * Data: random integers in [-20, 20] (many ties) as int32, and float32 / float64 halves with
 * about 5% NaN, in (7, 300) tensors (the radix path along dim 2, insertion sort along dim 1)
 * and their transposes. Positions on ltensor's side are 1-based: torch's + 1. Compared exactly
 * (dtype, shape, values, NaN where torch has NaN): sort and its stable indices ascending and
 * descending, median and mode with their positions, cummax / cummin with theirs, unique with
 * inverse and counts (int32: torch 1.13 keeps each NaN apart, ltensor counts them as one value,
 * as NumPy), searchsorted (NaN values, into a NaN-free sequence: torch's binary search is not
 * defined for NaN inside one), bincount, histc. mode's positions are those of torch's unstable
 * sort among equal elements: the elements at ltensor's (the last occurrence) must be the mode. topk
 * and kthvalue: the values (torch's positions among equal elements are its selection algorithm's).
 * cumsum / cumprod within 1e-5 (float32) or 1e-12 (float64), integers exactly.
 *
 * Then issue 30's vector paths of the row sort (test_sorting_vec, called by test_sorting): rows
 * of 15 to 300000 float32, float64, int64 and int32 elements with NaN, infinities, signed zeros,
 * the integer extremes and ties, and strided rows (a transpose): sort and its stable positions
 * both ways, argsort, topk and unique, on the path torch_host runs under (ctest: the default).
 */

static const char py_tsort[] =
    "def tdata(dt, shape, seed):\n"
    "    g = torch.Generator().manual_seed(seed)\n"
    "    x = torch.randint(-20, 21, shape, generator=g)\n"
    "    if not dt.is_floating_point: return x.to(dt)\n"
    "    x = (x * 0.5).to(dt)\n"
    "    x[torch.rand(shape, generator=g) < 0.05] = float('nan')\n"
    "    return x\n"
    "def tsame(r, want, ld):\n"
    "    if 'torch.' + ld != str(want.dtype) or r.shape != want.shape:\n"
    "        print('    lua', ld, tuple(r.shape), 'torch', want.dtype, tuple(want.shape),\n"
    "              file=sys.stderr)\n"
    "        return False\n"
    "    if want.is_floating_point():\n"
    "        tol = 1e-5 if want.dtype == torch.float32 else 1e-12\n"
    "        ok = torch.allclose(r, want, rtol=tol, atol=tol, equal_nan=True)\n"
    "    else:\n"
    "        ok = torch.equal(r, want)\n"
    "    if not ok: print('    lua  ', r.tolist(), '\\n    torch', want.tolist(), "
    "file=sys.stderr)\n"
    "    return ok\n";

/* A: a (7, 300) tensor of the dtype, AT its transpose (a view on both sides), AN A without NaN
   (torch's mode and searchsorted are not defined for NaN inside a row: its unstable sort and
   its binary search take NaN as neither larger nor smaller), S a sorted NaN-free 1-d tensor of
   2000, V 400 values to look up (with NaN). */
static const char *const tsort_cases[][2] = {
    {"A:sort(2)", "A.sort(dim=1, stable=True).values"},
    {"select(2, A:sort(2))", "A.sort(dim=1, stable=True).indices + 1"},
    {"select(2, A:sort(2, true))", "A.sort(dim=1, descending=True, stable=True).indices + 1"},
    {"A:sort(1, true)", "A.sort(dim=0, descending=True, stable=True).values"},
    {"select(2, A:sort(1))", "A.sort(dim=0, stable=True).indices + 1"},
    {"select(2, AT:sort(2, true))", "AT.sort(dim=1, descending=True, stable=True).indices + 1"},
    {"A:argsort(2, false, {stable = true})", "A.sort(dim=1, stable=True).indices + 1"},
    {"A:topk(5, 2)", "A.topk(5, 1).values"},
    {"A:topk(5, 2, false)", "A.topk(5, 1, largest=False).values"},
    {"AT:topk(3, 1)", "AT.topk(3, 0).values"},
    {"A:kthvalue(17, 2)", "A.kthvalue(17, 1).values"},
    {"A:kthvalue(3, 1, true)", "A.kthvalue(3, 0, True).values"},
    {"A:median(2)", "A.median(1).values"},
    {"A:median(1, true)", "A.median(0, True).values"},
    {"AN:mode(2)", "AN.mode(1).values"},
    {"AN:t():mode(1, true)", "AN.t().mode(0, True).values"},
    /* torch's positions of the mode are its unstable sort's; ltensor's is the last occurrence:
       the value there is the mode */
    {"AT_MODE_AT(AN)", "AN.mode(1).values"},
    {"A:cumsum(2)", "A.cumsum(1)"},
    {"AT:cumsum(1)", "AT.cumsum(0)"},
    {"A[{{}, {1, 12}}]:cumprod(2)", "A[:, :12].cumprod(1)"},
    {"A:cummax(2)", "A.cummax(1).values"},
    {"select(2, A:cummax(2))", "A.cummax(1).indices + 1"},
    {"select(2, AT:cummin(1))", "AT.cummin(0).indices + 1"},
    {"A:cummin(1)", "A.cummin(0).values"},
    {"lt.searchsorted(S, V)", "torch.searchsorted(S, V) + 1"},
    {"lt.searchsorted(S, V, {side = 'right'})", "torch.searchsorted(S, V, side='right') + 1"},
    {"lt.searchsorted(S, V, {out_int32 = true})", "torch.searchsorted(S, V, out_int32=True) + 1"},
    {"lt.searchsorted(AN:sort(2), A[{{}, {1, 40}}])",
     "torch.searchsorted(AN.sort(1).values, A[:, :40].contiguous()) + 1"},
};

/* int32 only (torch 1.13 keeps each NaN apart in unique; histc wants floats). */
static const char *const tsort_int_cases[][2] = {
    {"A:unique()", "A.unique()"},
    {"select(2, A:unique({return_inverse = true}))", "A.unique(return_inverse=True)[1] + 1"},
    {"select(2, A:unique({return_counts = true}))", "A.unique(return_counts=True)[1]"},
    {"A[{{}, {1, 2}}]:remainder(3):unique({dim = 1})", "A[:, :2].remainder(3).unique(dim=0)"},
    {"select(2, A[{{}, {1, 2}}]:remainder(3):unique({dim = 1, return_inverse = true}))",
     "A[:, :2].remainder(3).unique(dim=0, return_inverse=True)[1] + 1"},
    {"select(2, AT[{{1, 3}}]:remainder(2):unique({dim = -1, return_counts = true}))",
     "AT[:3].remainder(2).unique(dim=1, return_counts=True)[1]"},
    {"AT[{{1, 3}}]:remainder(2):unique({dim = 2})", "AT[:3].remainder(2).unique(dim=1)"},
};

/* Lua: the elements of a 2-d tensor at the positions mode(2) gives, row by row. */
static const char lua_mode_at[] =
    "function AT_MODE_AT(a)\n"
    "  local _, i = a:mode(2)\n"
    "  local t = {}\n"
    "  for r = 1, #a do t[r] = a[r][i[r]] end\n"
    "  return lt.tensor(t, a.dtype)\n"
    "end\n";

static int sort_agree(const char *lexpr, const char *texpr) {
  int ok = lua_ok("r = %s", lexpr) && py_ok("want = %s", texpr) && lua_to_py("ld", "r.dtype") &&
           lua_to_torch("r", "r") && py_true("tsame(r, want, ld.decode())");
  if (!ok) fprintf(stderr, "  lua: %s\n  torch: %s\n", lexpr, texpr);
  lua_ok("r = nil");
  py_ok("r = want = None");
  return ok;
}

/* bincount and histc: Lua's and the library's calls on the same data (B, W, H). */
static const char *const counting[][2] = {
    {"B:bincount()", "B.bincount()"},
    {"B:bincount({minlength = 80})", "B.bincount(minlength=80)"},
    {"B:bincount({weights = W})", "B.bincount(W)"},
    {"B:bincount(W:to('float64'))", "B.bincount(W.double())"},
    {"B:bincount(B)", "B.bincount(B)"},
    {"H:histc(10, -2, 2)", "H.histc(10, -2, 2)"},
    {"H:histc()", "H.histc()"},
    {"H:to('float64'):histc(7, -1, 3)", "H.double().histc(7, -1, 3)"},
    {"B:to('float32'):histc(9)", "B.float().histc(9)"},
};

/* {====== issue 30: the vector paths of the row sort ====== */

/* vdata(dt, n, seed): n elements, a quarter of them special (NaN, +-inf, signed zeros, 1.5; or
   the integer extremes, 0 and +-1), the rest normal (floats) or spread over the whole range. */
static const char py_tsort_vec[] =
    "def vdata(dt, n, seed):\n"
    "    g = torch.Generator().manual_seed(seed)\n"
    "    fl = dt.is_floating_point\n"
    "    lo, hi = (-1, 1) if fl else (torch.iinfo(dt).min, torch.iinfo(dt).max)\n"
    "    sp = [float('nan'), float('inf'), -float('inf'), -0.0, 0.0, 1.5] if fl else \\\n"
    "         [lo, hi, 0, -1, 1, lo + 1]\n"
    "    x = torch.randn(n, generator=g, dtype=torch.float64) if fl else \\\n"
    "        torch.randint(lo // 2, hi // 2, (n,), generator=g) * 2 + \\\n"
    "        torch.randint(0, 2, (n,), generator=g)\n"
    "    sp = torch.tensor(sp, dtype=x.dtype)[torch.randint(0, 6, (n,), generator=g)]\n"
    "    return torch.where(torch.randint(0, 8, (n,), generator=g) < 2, sp, x).to(dt)\n";

static const char *const tsort_vec_cases[][2] = {
    {"X:sort()", "X.sort(stable=True).values"},
    {"select(2, X:sort())", "X.sort(stable=True).indices + 1"},
    {"X:sort(1, true)", "X.sort(descending=True, stable=True).values"},
    {"select(2, X:sort(1, true))", "X.sort(descending=True, stable=True).indices + 1"},
    {"X:argsort()", "X.sort(stable=True).indices + 1"},
    {"X:topk(math.min(5, #X))", "X.topk(min(5, X.shape[0])).values"},
    {"X:topk(#X // 2, 1, false)", "X.topk(X.shape[0] // 2, largest=False).values"},
    {"X:topk(math.min(100, #X // 4))", "X.topk(min(100, X.shape[0] // 4)).values"},
    {"X:kthvalue(math.min(3, #X))", "X.kthvalue(min(3, X.shape[0])).values"},
    {"XT:sort(2)", "XT.sort(dim=1, stable=True).values"},
    {"select(2, XT:sort(2, true))", "XT.sort(dim=1, descending=True, stable=True).indices + 1"},
};

static void test_sorting_vec(void) {
  CHECK(py_ok("%s", py_tsort_vec));
  static const char *const dts[] = {"float32", "float64", "int64", "int32"};
  static const int ns[] = {15, 16, 17, 33, 65, 257, 4097, 300000};
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
      set_context("vector sort %s n=%d: set-up", dts[d], ns[k]);
      CHECK(py_ok("X = vdata(torch.%s, %d, %d); XT = vdata(torch.%s, %d * 3, 7).reshape(%d, 3).t()",
                  dts[d], ns[k], 30 + (int)k, dts[d], ns[k], ns[k]));
      CHECK(torch_to_lua("X", "X") && torch_to_lua("XT", "XT"));
      TP_AGREE_EACH(sort_agree, tsort_vec_cases, "vector sort %s n=%d", dts[d], ns[k]);
      if (d >= 2) {
        set_context("vector sort %s n=%d: unique", dts[d], ns[k]);
        CHECK(sort_agree("X:unique()", "X.unique()"));
      }
      CHECK(lua_ok("X, XT = nil") && py_ok("del X, XT"));
    }
  set_context("%s", "");
  lua_gc_full();
}

/* }====== */

static void test_sorting(void) {
  section("15: sorting and scans against torch");
  CHECK(py_ok("%s", py_tsort) && lua_ok("%s", lua_mode_at));
  static const char *const dts[] = {"float32", "float64", "int32"};
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    set_context("sorting %s: set-up", dts[d]);
    CHECK(
        py_ok("A = tdata(torch.%s, (7, 300), 15); AT = A.t(); AN = A.nan_to_num(3.25)\n"
              "S = tdata(torch.%s, (2000,), 16).nan_to_num(3.25).sort().values; V = "
              "tdata(torch.%s, (400,), 17)",
              dts[d], dts[d], dts[d]));
    CHECK(torch_to_lua("A", "A") && torch_to_lua("S", "S") && torch_to_lua("V", "V") &&
          lua_ok("AT = A:t(); AN = A:nan_to_num(3.25)"));
    TP_AGREE_EACH(sort_agree, tsort_cases, "sorting %s", dts[d]);
    if (d == 2) TP_AGREE_EACH(sort_agree, tsort_int_cases, "sorting %s", dts[d]);
    set_context("sorting %s: median()", dts[d]);
    CHECK(lua_to_py("lm", "A:median()") && lua_to_py("lm2", "A[{{}, {1, 11}}]:median()"));
    CHECK(py_true("(lambda w, v: v == w or (v != v and w != w))(A.median().item(), lm)"));
    CHECK(py_true("(lambda w, v: v == w or (v != v and w != w))(A[:, :11].median().item(), lm2)"));
    CHECK(lua_ok("A, AT, AN, S, V = nil") && py_ok("del A, AT, AN, S, V, lm, lm2"));
  }

  set_context("counting: set-up");
  CHECK(py_ok(
      "g = torch.Generator().manual_seed(18); B = torch.randint(0, 50, (1000,), generator=g)\n"
      "W = torch.rand(1000, generator=g); H = torch.randn(1000, generator=g)"));
  CHECK(torch_to_lua("B", "B") && torch_to_lua("W", "W") && torch_to_lua("H", "H"));
  TP_AGREE_EACH(sort_agree, counting, "counting");
  set_context("%s", "");
  CHECK(lua_ok("B, W, H = nil") && py_ok("del B, W, H, g"));
  lua_gc_full();
  test_sorting_vec();
}
