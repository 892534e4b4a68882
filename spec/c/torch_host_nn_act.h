/*
 * torch_host_nn_act.h -- section 28b of torch_host.c: lt.nn.functional's activations and
 * losses (issue 28) against torch.nn.functional on the same data, moved into Lua by DLPack.
 * Included once, by torch_host.c only, after its section 12 (it uses that file's func_agrees,
 * torch_to_lua and lua_to_torch); main() calls test_nn_act().
 *
 * Data: random normal tensors in float32 and float64 (times 4, so the activations' bends at
 * -3, 0, 3 and 20 are crossed), a transposed (non-contiguous) one, an empty one and a 0-d one;
 * probabilities in (0, 1) and exact 0 and 1 for the binary cross entropies; class indices (torch's
 * plus one in Lua) with ignored entries; N x C and N x C x d1 x d2 logits. Values agree within
 * 1e-5 relative and absolute for float32 (the losses' sums run in double here, in float32 in
 * torch) and 1e-12 for float64; the integer activations exactly.
 */

static const char *const nn_act_cases[][2] = {
    {"F.leaky_relu(X)", "F.leaky_relu(X)"},
    {"F.leaky_relu(XT, 0.2)", "F.leaky_relu(XT, 0.2)"},
    {"F.elu(X, {alpha = 0.7})", "F.elu(X, alpha=0.7)"},
    {"F.celu(XT, 1.5)", "F.celu(XT, 1.5)"},
    {"F.selu(X)", "F.selu(X)"},
    {"lt.selu(XE)", "torch.selu(XE)"},
    {"F.softplus(X)", "F.softplus(X)"},
    {"F.softplus(XT, 2, 5)", "F.softplus(XT, 2, 5)"},
    {"F.hardtanh(X)", "F.hardtanh(X)"},
    {"F.hardtanh(XT, -2.5, 0.5)", "F.hardtanh(XT, -2.5, 0.5)"},
    {"F.relu6(X)", "F.relu6(X)"},
    {"F.hardswish(XT)", "F.hardswish(XT)"},
    {"F.hardsigmoid(X)", "F.hardsigmoid(X)"},
    {"F.mish(X)", "F.mish(X)"},
    {"F.logsigmoid(XT)", "F.logsigmoid(XT)"},
    {"F.softsign(X)", "F.softsign(X)"},
    {"F.tanhshrink(X)", "F.tanhshrink(X)"},
    {"F.threshold(X, 0.5, -2)", "F.threshold(X, 0.5, -2)"},
    {"lt.threshold(XT, 0.1, 20)", "torch.threshold(XT, 0.1, 20)"},
    {"lt.celu(X0)", "torch.celu(X0)"},
    {"F.relu(XT)", "F.relu(XT)"},
    {"F.gelu(X, 'tanh')", "F.gelu(X, approximate='tanh')"},
    {"F.silu(X)", "F.silu(X)"},
    {"F.sigmoid(XT)", "torch.sigmoid(XT)"},
    {"F.tanh(X)", "torch.tanh(X)"},
    {"F.softmax(X, 2)", "F.softmax(X, 1)"},
    {"F.softmax(X3)", "F.softmax(X3, 0)"},
    {"F.log_softmax(XT, -1)", "F.log_softmax(XT, -1)"},
    {"F.softmin(X, 1)", "F.softmin(X, 0)"},
    {"F.glu(X4)", "F.glu(X4)"},
    {"F.glu(XT, 1)", "F.glu(XT, 0)"},
    {"F.mse_loss(X, Y)", "F.mse_loss(X, Y)"},
    {"F.mse_loss(XT, Y, {reduction = 'none'})", "F.mse_loss(XT, Y, reduction='none')"},
    {"F.l1_loss(X, Y, {reduction = 'sum'})", "F.l1_loss(X, Y, reduction='sum')"},
    {"F.smooth_l1_loss(X, Y)", "F.smooth_l1_loss(X, Y)"},
    {"F.smooth_l1_loss(XT, Y, {reduction = 'none', beta = 0.5})",
     "F.smooth_l1_loss(XT, Y, reduction='none', beta=0.5)"},
    {"F.smooth_l1_loss(X, Y, {beta = 0})", "F.smooth_l1_loss(X, Y, beta=0)"},
    {"F.huber_loss(X, Y, 'mean', 2)", "F.huber_loss(X, Y, 'mean', 2)"},
    {"F.huber_loss(XT, Y, 'none')", "F.huber_loss(XT, Y, 'none')"},
    {"F.mse_loss(XE, XE)", "F.mse_loss(XE, XE)"},
    {"F.binary_cross_entropy(P, Q)", "F.binary_cross_entropy(P, Q)"},
    {"F.binary_cross_entropy(P, Q, W, {reduction = 'none'})",
     "F.binary_cross_entropy(P, Q, W, reduction='none')"},
    {"F.binary_cross_entropy(P01, Q, nil, nil, nil, 'sum')",
     "F.binary_cross_entropy(P01, Q, None, None, None, 'sum')"},
    {"F.binary_cross_entropy_with_logits(X, Q)", "F.binary_cross_entropy_with_logits(X, Q)"},
    {"F.binary_cross_entropy_with_logits(XT, Q, W, {pos_weight = PW, reduction = 'none'})",
     "F.binary_cross_entropy_with_logits(XT, Q, W, pos_weight=PW, reduction='none')"},
    {"F.kl_div(LP, Q, {reduction = 'batchmean'})", "F.kl_div(LP, Q, reduction='batchmean')"},
    {"F.kl_div(LP, LQ, {reduction = 'sum', log_target = true})",
     "F.kl_div(LP, LQ, reduction='sum', log_target=True)"},
    {"F.kl_div(LP, Q0, {reduction = 'none'})", "F.kl_div(LP, Q0, reduction='none')"},
    {"F.nll_loss(LP, C1)", "F.nll_loss(LP, C)"},
    {"F.nll_loss(LP, C1I, CW, nil, 3)", "F.nll_loss(LP, CI, CW, None, 2)"},
    {"F.nll_loss(LP, C1, CW, {reduction = 'none'})", "F.nll_loss(LP, C, CW, reduction='none')"},
    {"F.cross_entropy(X, C1)", "F.cross_entropy(X, C)"},
    {"F.cross_entropy(XT, C1, CW)", "F.cross_entropy(XT, C, CW)"},
    {"F.cross_entropy(X, C1I, nil, nil, 3, nil, 'mean', 0.2)",
     "F.cross_entropy(X, CI, None, None, 2, None, 'mean', 0.2)"},
    {"F.cross_entropy(X, C1I, CW, {ignore_index = 3, label_smoothing = 0.1})",
     "F.cross_entropy(X, CI, CW, ignore_index=2, label_smoothing=0.1)"},
    {"F.cross_entropy(X, C1, CW, {reduction = 'none', label_smoothing = 0.3})",
     "F.cross_entropy(X, C, CW, reduction='none', label_smoothing=0.3)"},
    {"F.cross_entropy(X, Q, CW)", "F.cross_entropy(X, Q, CW)"},
    {"F.cross_entropy(X, Q, nil, {reduction = 'sum', label_smoothing = 0.25})",
     "F.cross_entropy(X, Q, reduction='sum', label_smoothing=0.25)"},
    {"F.cross_entropy(X4, C4)", "F.cross_entropy(X4, C4 - 1)"},
    {"F.cross_entropy(X4, C4, CW, {reduction = 'none'})",
     "F.cross_entropy(X4, C4 - 1, CW, reduction='none')"},
    {"F.cross_entropy(X[1], lt.tensor(C1[1]))", "F.cross_entropy(X[0], C[0])"},
    {"F.cross_entropy(XE, CE, nil, {reduction = 'sum'})",
     "F.cross_entropy(XE, CE, reduction='sum')"},
};

/* The activations that take integers: exact. */
static const char *const nn_act_int[][2] = {
    {"F.hardtanh(XI, -3, 4)", "F.hardtanh(XI, -3, 4)"},
    {"F.relu6(XI)", "F.relu6(XI)"},
    {"F.threshold(XI, 1.5, 7)", "F.threshold(XI, 1.5, 7)"},
    {"F.softsign(XI)", "F.softsign(XI)"},
};

static void test_nn_act(void) {
  static const char *const dts[] = {"float32", "float64"};
  section("28b: lt.nn.functional's activations and losses against torch");
  CHECK(py_ok("import torch.nn.functional as F") && lua_ok("F = lt.nn.functional"));
  for (size_t d = 0; d < 2; d++) {
    const char *dt = dts[d];
    set_context("nn act %s: set-up", dt);
    CHECK(
        py_ok("torch.manual_seed(282); r = lambda *s: torch.randn(*s, dtype=torch.%s)\n"
              "X, Y, XT, X3 = 4 * r(6, 5), r(6, 5), 4 * r(5, 6).t(), r(2, 3, 4)\n"
              "XE, X0, X4 = r(0, 5), r(()), r(3, 5, 2, 4)\n"
              "P = torch.rand(6, 5, dtype=torch.%s) * 0.98 + 0.01\n"
              "Q = torch.rand(6, 5, dtype=torch.%s); Q0 = Q.masked_fill(Q < 0.3, 0)\n"
              "P01 = P.clone(); P01[0, 0] = 0; P01[1, 1] = 1\n"
              "W, PW, CW = torch.rand(5, dtype=torch.%s), 2 * torch.rand(5, dtype=torch.%s), "
              "torch.rand(5, dtype=torch.%s) + 0.5\n"
              "LP, LQ = F.log_softmax(r(6, 5), 1), F.log_softmax(r(6, 5), 1)\n"
              "C = torch.randint(0, 5, (6,)); CI = C.clone(); CI[1] = 2; CI[4] = 2\n"
              "C1, C1I, CE = C + 1, CI + 1, torch.zeros(0, dtype=torch.long)\n"
              "C4 = torch.randint(0, 5, (3, 2, 4)) + 1\n"
              "XI = torch.randint(-10, 10, (4, 5))",
              dt, dt, dt, dt, dt, dt));
    static const char *const names[] = {"X", "Y",  "XT",  "X3",  "XE", "X0", "X4", "P",
                                        "Q", "Q0", "P01", "W",   "PW", "CW", "LP", "LQ",
                                        "C", "CI", "C1",  "C1I", "CE", "C4", "XI"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      CHECK(torch_to_lua(names[i], "%s", names[i]));
    CHECK(py_ok("FTOL = %s", d ? "1e-12" : "1e-5"));
    TP_AGREE_EACH(func_agrees, nn_act_cases, "nn act %s", dt);
    if (d == 0) {
      CHECK(py_ok("FTOL = 0"));
      TP_AGREE_EACH(func_agrees, nn_act_int, "nn act int");
    }
  }
  set_context("%s", "");
  CHECK(lua_ok("X, Y, XT, X3, XE, X0, X4, P, Q, Q0, P01, W, PW, CW = nil") &&
        lua_ok("LP, LQ, C, CI, C1, C1I, CE, C4, XI, F = nil"));
}
