/*
 * torch_host_nn_norm.h -- section 28a of torch_host.c: lt.nn.functional's linear, bilinear,
 * pad, interpolate, the normalizations, embedding, attention, one_hot, normalize,
 * cosine_similarity and pairwise_distance against torch 1.13 on the same data, moved into Lua by
 * DLPack. Included once, by torch_host.c only (it uses that file's torch_to_lua and
 * lua_to_torch); main() calls test_nn_norm().
 *
 * Data: random normal tensors made by torch (seeded), in float32 then float64, contiguous and
 * transposed (XT: a non-contiguous view), with empty batches, size-1 dims, pads as large as the
 * input allows and groups = channels. Results must have torch's dtype and shape and agree
 * within 1e-5 (float32: summation orders differ) or 1e-12 (float64), relative and absolute (the
 * values are of order 1). Where torch 1.13 lacks the function (scaled_dot_product_attention,
 * rms_norm) the reference is its formula written in torch. Class values and indices are
 * 1-based in Lua (C1, IDX1 = torch's + 1).
 */

static const char nn_norm_setup[] =
    "import math\n"
    "import torch.nn.functional as F\n"
    "def nn_data(D):\n"
    "    g = torch.Generator().manual_seed(28)\n"
    "    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64).to(D)\n"
    "    d = dict(X4=r(2, 3, 5, 6), X3=r(2, 4, 7), X5=r(1, 2, 3, 4, 5), X2=r(4, 5), W=r(3, 5),\n"
    "             B=r(3), A1=r(4, 3), A2=r(4, 2), WB=r(6, 3, 2), BB=r(6), W56=r(5, 6),\n"
    "             B56=r(5, 6), WC=r(3), BC=r(3), RM=r(3), RV=r(3).abs() + 0.5, E0=r(0, 5),\n"
    "             Q=r(2, 3, 6, 8), K=r(2, 3, 7, 8), V=r(2, 3, 7, 4), MF=r(6, 7), EW=r(10, 4),\n"
    "             Y4=r(2, 3, 5, 6), X1=r(3, 1, 1, 4), N0=r(0, 3, 4, 4))\n"
    "    d['XT'] = r(2, 3, 6, 5).transpose(2, 3)\n"
    "    d['MB'] = torch.rand(6, 7, generator=g) > 0.3\n"
    "    d['MB'][:, 0] = True\n"
    "    d['MBU'] = d['MB'].to(torch.uint8)  # torch 1.13 exports no bool through DLPack\n"
    "    d['IDX'] = torch.randint(0, 10, (3, 4), generator=g)\n"
    "    d['IDX1'] = d['IDX'] + 1\n"
    "    d['C0'] = torch.tensor([[0, 3, 2], [1, 1, 4]])\n"
    "    d['C1'] = d['C0'] + 1\n"
    "    return d\n"
    "def nn_close(r, w, tol):\n"
    "    return r.dtype == w.dtype and r.shape == w.shape and torch.allclose(r, w, rtol=tol,\n"
    "        atol=tol, equal_nan=True)\n"
    "def sdpa(q, k, v, mask=None, causal=False, scale=None):\n"
    "    s = q @ k.transpose(-2, -1) * (scale or 1 / math.sqrt(q.shape[-1]))\n"
    "    if causal: mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()\n"
    "    if mask is not None and mask.dtype == torch.bool: s = s.masked_fill(~mask, -math.inf)\n"
    "    elif mask is not None: s = s + mask\n"
    "    return torch.softmax(s, -1) @ v\n"
    "def rms(x, n, w=None, eps=None):\n"
    "    dims = tuple(range(-n, 0))\n"
    "    eps = torch.finfo(x.dtype).eps if eps is None else eps\n"
    "    y = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)\n"
    "    return y if w is None else y * w\n";

/* Floating results: {Lua, torch}. */
static const char *const nn_norm_cases[][2] = {
    {"F.linear(X2, W, B)", "F.linear(X2, W, B)"},
    {"F.linear(X2, W, {bias = B})", "F.linear(X2, W, B)"},
    {"F.linear(X2:t():t(), W:t():t())", "F.linear(X2, W)"},
    {"F.linear(X3:narrow(3, 1, 5), W)", "F.linear(X3[:, :, :5], W)"},
    {"F.linear(E0, W, B)", "F.linear(E0, W, B)"},
    {"F.linear(X2, B:narrow(1, 1, 1):expand(5):contiguous())", "F.linear(X2, B[:1].expand(5))"},
    {"F.bilinear(A1, A2, WB, BB)", "F.bilinear(A1, A2, WB, BB)"},
    {"F.bilinear(A1, A2, WB)", "F.bilinear(A1, A2, WB)"},
    {"F.pad(X4, {1, 2})", "F.pad(X4, (1, 2))"},
    {"F.pad(XT, {1, 2, 0, 3}, 'constant', 2.5)", "F.pad(XT, (1, 2, 0, 3), 'constant', 2.5)"},
    {"F.pad(X4, {-1, 2, 1, -2})", "F.pad(X4, (-1, 2, 1, -2))"},
    {"F.pad(X4, {2, 1, 4, 4}, 'reflect')", "F.pad(X4, (2, 1, 4, 4), 'reflect')"},
    {"F.pad(X3:transpose(2, 3), {3, 3}, {mode = 'reflect'})",
     "F.pad(X3.transpose(1, 2), (3, 3), mode='reflect')"},
    {"F.pad(X3, {6, 6}, 'reflect')", "F.pad(X3, (6, 6), 'reflect')"},
    {"F.pad(X4, {3, 1, 0, 2}, 'replicate')", "F.pad(X4, (3, 1, 0, 2), 'replicate')"},
    {"F.pad(X3, {7, 7}, 'circular')", "F.pad(X3, (7, 7), 'circular')"},
    {"F.pad(X5, {1, 1, 2, 0, 1, 3}, 'replicate')", "F.pad(X5, (1, 1, 2, 0, 1, 3), 'replicate')"},
    {"F.pad(X5, {1, 2, 3, 1, 2, 3}, 'circular')", "F.pad(X5, (1, 2, 3, 1, 2, 3), 'circular')"},
    {"F.interpolate(X4, nil, 2)", "F.interpolate(X4, None, 2)"},
    {"F.interpolate(XT, {7, 9})", "F.interpolate(XT, (7, 9))"},
    {"F.interpolate(X4, {size = {3, 4}, mode = 'nearest-exact'})",
     "F.interpolate(X4, (3, 4), mode='nearest-exact')"},
    {"F.interpolate(X4, nil, 2, 'bilinear')", "F.interpolate(X4, None, 2, 'bilinear')"},
    {"F.interpolate(XT, {7, 9}, nil, 'bilinear', true)",
     "F.interpolate(XT, (7, 9), None, 'bilinear', True)"},
    {"F.interpolate(X4, nil, {1.5, 0.7}, 'bilinear')",
     "F.interpolate(X4, None, (1.5, 0.7), 'bilinear')"},
    {"F.interpolate(X4, {scale_factor = 1.7, mode = 'bilinear', recompute_scale_factor = true})",
     "F.interpolate(X4, scale_factor=1.7, mode='bilinear', recompute_scale_factor=True)"},
    {"F.interpolate(X4, {8, 11}, nil, 'bicubic')", "F.interpolate(X4, (8, 11), None, 'bicubic')"},
    {"F.interpolate(XT, {3, 13}, nil, 'bicubic', true)",
     "F.interpolate(XT, (3, 13), None, 'bicubic', True)"},
    {"F.interpolate(X4, {2, 4}, nil, 'area')", "F.interpolate(X4, (2, 4), None, 'area')"},
    {"F.interpolate(X4, {3, 5}, nil, 'area')", "F.interpolate(X4, (3, 5), None, 'area')"},
    {"F.interpolate(X3, 11, nil, 'linear')", "F.interpolate(X3, 11, None, 'linear')"},
    {"F.interpolate(X3, 3, nil, 'linear', true)", "F.interpolate(X3, 3, None, 'linear', True)"},
    {"F.interpolate(X5, {4, 2, 7}, nil, 'trilinear')",
     "F.interpolate(X5, (4, 2, 7), None, 'trilinear')"},
    {"F.interpolate(X5, nil, 2, 'nearest')", "F.interpolate(X5, None, 2, 'nearest')"},
    {"F.interpolate(X1, {3, 2}, nil, 'bilinear')", "F.interpolate(X1, (3, 2), None, 'bilinear')"},
    {"F.interpolate(N0, nil, 2, 'bilinear')", "F.interpolate(N0, None, 2, 'bilinear')"},
    {"F.interpolate(X4, {2, 3}, nil, 'bilinear', nil, nil, true)",
     "F.interpolate(X4, (2, 3), None, 'bilinear', antialias=True)"},
    {"F.interpolate(XT, {size = {3, 2}, mode = 'bicubic', antialias = true})",
     "F.interpolate(XT, (3, 2), mode='bicubic', antialias=True)"},
    {"F.interpolate(X4, {scale_factor = {0.4, 1.7}, mode = 'bicubic', antialias = true})",
     "F.interpolate(X4, scale_factor=(0.4, 1.7), mode='bicubic', antialias=True)"},
    {"F.interpolate(XT, {2, 5}, nil, 'bilinear', true, nil, true)",
     "F.interpolate(XT, (2, 5), None, 'bilinear', True, antialias=True)"},
    {"F.layer_norm(X4, {5, 6}, W56, B56)", "F.layer_norm(X4, (5, 6), W56, B56)"},
    {"F.layer_norm(XT, {6}, nil, nil, 1e-3)", "F.layer_norm(XT, (6,), None, None, 1e-3)"},
    {"F.layer_norm(X2, 5, {bias = X2[1]})", "F.layer_norm(X2, (5,), None, X2[0])"},
    {"F.layer_norm(E0, {5})", "F.layer_norm(E0, (5,))"},
    {"F.group_norm(X4, 3, WC, BC)", "F.group_norm(X4, 3, WC, BC)"},
    {"F.group_norm(XT, 1)", "F.group_norm(XT, 1)"},
    {"F.group_norm(X3, 2, nil, nil, 0.1)", "F.group_norm(X3, 2, None, None, 0.1)"},
    {"F.batch_norm(X4, RM, RV, WC, BC)", "F.batch_norm(X4, RM, RV, WC, BC)"},
    {"F.batch_norm(XT, RM, RV)", "F.batch_norm(XT, RM, RV)"},
    {"F.batch_norm(X2:narrow(2, 1, 3), RM, RV, WC, BC, {eps = 0.1})",
     "F.batch_norm(X2[:, :3], RM, RV, WC, BC, eps=0.1)"},
    {"F.batch_norm(X4, nil, nil, nil, nil, true)",
     "F.batch_norm(X4, None, None, None, None, True)"},
    {"F.rms_norm(X4, {5, 6}, W56)", "rms(X4, 2, W56)"},
    {"F.rms_norm(XT, 6, nil, 1e-2)", "rms(XT, 1, None, 1e-2)"},
    {"F.embedding(IDX1, EW)", "F.embedding(IDX, EW)"},
    {"F.embedding(IDX1, EW:t():t())", "F.embedding(IDX, EW)"},
    {"F.scaled_dot_product_attention(Q, K, V)", "sdpa(Q, K, V)"},
    {"F.scaled_dot_product_attention(Q, K, V, MB)", "sdpa(Q, K, V, MB)"},
    {"F.scaled_dot_product_attention(Q, K, V, MF)", "sdpa(Q, K, V, MF)"},
    {"F.scaled_dot_product_attention(Q, Q, Q, nil, 0, true)", "sdpa(Q, Q, Q, causal=True)"},
    {"F.scaled_dot_product_attention(Q, K, V, {scale = 0.3})", "sdpa(Q, K, V, scale=0.3)"},
    {"F.scaled_dot_product_attention(Q:transpose(3, 4):transpose(3, 4), K[1], V[1])",
     "sdpa(Q, K[0], V[0])"},
    {"F.normalize(X4)", "F.normalize(X4)"},
    {"F.normalize(XT, 1, -1)", "F.normalize(XT, 1.0, -1)"},
    {"F.normalize(X2, math.huge, 1)", "F.normalize(X2, math.inf, 0)"},
    {"F.cosine_similarity(X4, Y4)", "F.cosine_similarity(X4, Y4)"},
    {"F.cosine_similarity(XT, Y4, 4)", "F.cosine_similarity(XT, Y4, 3)"},
    {"F.cosine_similarity(X2, X2[2], -1)", "F.cosine_similarity(X2, X2[1], -1)"},
    {"F.pairwise_distance(X2, W:narrow(1, 1, 1))", "F.pairwise_distance(X2, W[:1])"},
    {"F.pairwise_distance(X4, Y4, 1, 0, true)", "F.pairwise_distance(X4, Y4, 1, 0, True)"},
    {"F.pairwise_distance(XT, Y4, math.huge)", "F.pairwise_distance(XT, Y4, math.inf)"},
};

/* Integer results, exactly. */
static const char *const nn_norm_exact[][2] = {
    {"F.one_hot(C1)", "F.one_hot(C0)"},
    {"F.one_hot(C1, 7)", "F.one_hot(C0, 7)"},
    {"F.one_hot(C1:t())", "F.one_hot(C0.t())"},
    {"F.pad(IDX, {1, 1}, 'constant', 3.7)", "F.pad(IDX, (1, 1), 'constant', 3.7)"},
    {"F.pad(IDX:view(1, 3, 4), {2, 3}, 'reflect')",
     "F.pad(IDX.view(1, 3, 4).double(), (2, 3), "
     "'reflect').long()"},
    {"F.linear(IDX, IDX)", "F.linear(IDX, IDX)"},
    /* nearest of integers: torch 1.13 takes uint8 (other integers through float64 there) */
    {"F.interpolate(MBU:view(1, 1, 6, 7), nil, 1.7)",
     "F.interpolate(MBU.view(1, 1, 6, 7), None, 1.7)"},
    {"F.interpolate(MBU:view(2, 3, 7):transpose(2, 3), {5}, nil, 'nearest-exact')",
     "F.interpolate(MBU.view(2, 3, 7).transpose(1, 2), 5, None, 'nearest-exact')"},
    {"F.interpolate(IDX:view(1, 3, 4), 9)", "F.interpolate(IDX.view(1, 3, 4).double(), 9).long()"},
};

static void test_nn_norm(void) {
  static const char *const names[] = {"X4", "X3", "X5",  "X2",  "W",    "B",  "A1", "A2",
                                      "WB", "BB", "W56", "B56", "WC",   "BC", "RM", "RV",
                                      "E0", "Q",  "K",   "V",   "MF",   "EW", "Y4", "X1",
                                      "N0", "XT", "MBU", "IDX", "IDX1", "C0", "C1"};
  CHECK(tp_section_setup("28a: lt.nn.functional's norms, resizing and attention against torch",
                         nn_norm_setup));
  CHECK(lua_ok("F = lt.nn.functional"));
  static const char *const dts[] = {"float32", "float64"}, *const tols[] = {"1e-5", "1e-12"};
  for (int d = 0; d < 2; d++) {
    set_context("nn_norm: %s data", dts[d]);
    CHECK(py_ok("ND = nn_data(torch.%s); globals().update(ND)", dts[d]));
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      CHECK(torch_to_lua(names[i], "ND['%s']", names[i]));
    CHECK(lua_ok("MB = MBU:bool()"));
    for (size_t i = 0; i < sizeof nn_norm_cases / sizeof *nn_norm_cases; i++) {
      set_context("nn_norm %s: %s", dts[d], nn_norm_cases[i][0]);
      CHECK(lua_to_torch("r", "%s", nn_norm_cases[i][0]) &&
            py_ok("want = %s", nn_norm_cases[i][1]));
      CHECK(py_true("nn_close(r, want, %s)", tols[d]));
    }
    /* batch_norm in training updates the running statistics as torch */
    set_context("nn_norm %s: batch_norm training updates running_mean and running_var", dts[d]);
    CHECK(lua_ok("RM1, RV1 = RM:clone(), RV:clone()") &&
          py_ok("RM1, RV1 = RM.clone(), RV.clone()"));
    CHECK(lua_to_torch("r", "F.batch_norm(XT, RM1, RV1, WC, BC, true, 0.3)") &&
          py_ok("want = F.batch_norm(XT, RM1, RV1, WC, BC, True, 0.3)"));
    CHECK(lua_to_torch("rm", "RM1") && lua_to_torch("rv", "RV1"));
    CHECK(py_true("nn_close(r, want, %s) and nn_close(rm, RM1, %s) and nn_close(rv, RV1, %s)",
                  tols[d], tols[d], tols[d]));
  }
  for (size_t i = 0; i < sizeof nn_norm_exact / sizeof *nn_norm_exact; i++) {
    set_context("nn_norm: %s", nn_norm_exact[i][0]);
    CHECK(lua_to_torch("r", "%s", nn_norm_exact[i][0]) && py_ok("want = %s", nn_norm_exact[i][1]));
    CHECK(py_true("r.dtype == want.dtype and r.shape == want.shape and torch.equal(r, want)"));
  }
  set_context("%s", "");
  CHECK(lua_ok("F, r, RM1, RV1, MB = nil"));
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) CHECK(lua_ok("%s = nil", names[i]));
  CHECK(py_ok("del ND, r, want, rm, rv, RM1, RV1"));
}
