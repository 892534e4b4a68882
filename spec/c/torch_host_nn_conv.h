/*
 * torch_host_nn_conv.h -- section 17 of torch_host.c: lt.nn.functional's convolutions and pools
 * (issue 28) against torch.nn.functional on the same data, moved into Lua by DLPack. Included
 * once, by torch_host.c only, after its section 12 (it uses that file's func_agrees, torch_to_lua
 * and lua_to_torch); main() calls test_nn_conv().
 *
 * Data: random normal tensors in float32 and float64, contiguous and transposed (non-contiguous
 * inputs), batched, unbatched and with an empty batch. Cases: conv1d/2d/3d with stride,
 * padding (numbers, arrays, 'same' with an even kernel, 'valid', padding larger than the
 * input), dilation, groups (groups = channels: depthwise, with a depth multiplier), 1x1 kernels
 * (the path without im2col), 3x3 kernels of 16 channels and more (Winograd's F(2x2, 3x3):
 * even and odd output sizes, asymmetric and large padding), one input channel a group (the direct
 * path), a kernel as large as the input; conv_transpose1d/2d with stride, padding, output_padding,
 * groups and dilation; max, avg and adaptive pools with ceil_mode, count_include_pad,
 * divisor_override, dilation and windows that do not divide the input, average pools also over
 * planes wider than a vector (37 x 70 and 37 x 71, the float32 row sums' vector loops and their
 * tails) and one of 80 x 90 (a window above the float32 sums' limit, summed in double); unfold and
 * fold. Values agree within 1e-5 relative and absolute for float32 (conv sums run in another order
 * than torch's: the BLAS's blocking against mkldnn's) and 1e-12 for float64; indices exactly
 * (ltensor's are torch's plus one). float16 inputs compute in float32 and come back as float16:
 * checked against torch's float32 result rounded to float16 (torch 1.13 has no float16 convolution
 * on the CPU), within 1e-2.
 */

static const char *const nn_conv_cases[][2] = {
    {"F.conv1d(X1, W1, B1)", "F.conv1d(X1, W1, B1)"},
    {"F.conv1d(X1, W1, nil, 2, 1, 2)", "F.conv1d(X1, W1, None, 2, 1, 2)"},
    {"F.conv1d(X1, W1G, B1, {groups = 2, padding = 'same'})",
     "F.conv1d(X1, W1G, B1, groups=2, padding='same')"},
    {"F.conv1d(X1[1], W1, B1, 1, 4)", "F.conv1d(X1[0], W1, B1, 1, 4)"},
    {"F.conv2d(X2, W2, B2, 1, 1)", "F.conv2d(X2, W2, B2, 1, 1)"},
    {"F.conv2d(X2, W2, B2, 2, {1, 2}, {2, 1})", "F.conv2d(X2, W2, B2, 2, (1, 2), (2, 1))"},
    {"F.conv2d(X2T, W2E, nil, {padding = 'same'})", "F.conv2d(X2T, W2E, padding='same')"},
    {"F.conv2d(X2T, W2E, nil, {padding = 'same', dilation = {2, 3}})",
     "F.conv2d(X2T, W2E, padding='same', dilation=(2, 3))"},
    {"F.conv2d(X2, W2, B2, 1, 'valid')", "F.conv2d(X2, W2, B2, 1, 'valid')"},
    {"F.conv2d(X2, W2G, B2, 1, 1, 1, 2)", "F.conv2d(X2, W2G, B2, 1, 1, 1, 2)"},
    {"F.conv2d(X2T, DW, nil, 1, 1, 1, 4)", "F.conv2d(X2T, DW, None, 1, 1, 1, 4)"},
    {"F.conv2d(X2, DW2, nil, 2, 0, 1, 4)", "F.conv2d(X2, DW2, None, 2, 0, 1, 4)"},
    {"F.conv2d(X2:narrow(2, 2, 1), W2C, B2, 2, 1, 2)", "F.conv2d(X2[:, 1:2], W2C, B2, 2, 1, 2)"},
    {"F.conv1d(X1, DW2:reshape(8, 1, 9), nil, 1, 4, 1, 4)",
     "F.conv1d(X1, DW2.reshape(8, 1, 9), None, 1, 4, 1, 4)"},
    {"F.conv2d(X2, W2, nil, 1, 8)", "F.conv2d(X2, W2, None, 1, 8)"},
    {"F.conv2d(X2, W11, B11)", "F.conv2d(X2, W11, B11)"},
    {"F.conv2d(X2T, W11, B11, 2)", "F.conv2d(X2T, W11, B11, 2)"},
    {"F.conv2d(X2, W2F)", "F.conv2d(X2, W2F)"},
    {"F.conv2d(X2[2], W2, B2, 1, 1)", "F.conv2d(X2[1], W2, B2, 1, 1)"},
    {"F.conv2d(X2E, W2, B2, 1, 1)", "F.conv2d(X2E, W2, B2, 1, 1)"},
    {"F.conv2d(XW, WW, BW, 1, 1)", "F.conv2d(XW, WW, BW, 1, 1)"},
    {"F.conv2d(XW, WW)", "F.conv2d(XW, WW)"},
    {"F.conv2d(XWT, WW, BW, 1, {2, 0})", "F.conv2d(XWT, WW, BW, 1, (2, 0))"},
    {"F.conv2d(XWT, WW, nil, 1, 'same')", "F.conv2d(XWT, WW, None, 1, 'same')"},
    {"F.conv2d(XW[2], WW, BW, 1, 3)", "F.conv2d(XW[1], WW, BW, 1, 3)"},
    {"F.conv2d(XW:narrow(3, 1, 3):narrow(4, 1, 4), WW)", "F.conv2d(XW[:, :, :3, :4], WW)"},
    {"F.conv3d(X3, W3, nil, 1, 1)", "F.conv3d(X3, W3, None, 1, 1)"},
    {"F.conv3d(X3, W3, B3, {1, 2, 2}, {0, 1, 2})", "F.conv3d(X3, W3, B3, (1, 2, 2), (0, 1, 2))"},
    {"F.conv_transpose1d(X1, WT1, B3)", "F.conv_transpose1d(X1, WT1, B3)"},
    {"F.conv_transpose1d(X1, WT1, B3, 2, 1, 1)", "F.conv_transpose1d(X1, WT1, B3, 2, 1, 1)"},
    {"F.conv_transpose1d(X1, WT1G, nil, 3, 2, 1, 2, 2)",
     "F.conv_transpose1d(X1, WT1G, None, 3, 2, 1, 2, 2)"},
    {"F.conv_transpose2d(X2, WT2, B3, 2, 1, 1)", "F.conv_transpose2d(X2, WT2, B3, 2, 1, 1)"},
    {"F.conv_transpose2d(X2T, WT2G, nil, {stride = {1, 2}, groups = 2, dilation = 2})",
     "F.conv_transpose2d(X2T, WT2G, None, stride=(1, 2), groups=2, dilation=2)"},
    {"F.conv_transpose2d(X2[1], WT2, B3)", "F.conv_transpose2d(X2[0], WT2, B3)"},
    {"F.conv_transpose2d(X2E, WT2, B3)", "F.conv_transpose2d(X2E, WT2, B3)"},
    {"F.max_pool1d(X1, 2)", "F.max_pool1d(X1, 2)"},
    {"F.max_pool1d(X1, 3, 2, 1, 2, true)", "F.max_pool1d(X1, 3, 2, 1, 2, True)"},
    {"F.max_pool2d(X2, 2)", "F.max_pool2d(X2, 2)"},
    {"F.max_pool2d(X2T, {3, 2}, {2, 1}, 1, 1, true)",
     "F.max_pool2d(X2T, (3, 2), (2, 1), 1, 1, True)"},
    {"F.max_pool2d(X2, 3, nil, 1, 2)", "F.max_pool2d(X2, 3, None, 1, 2)"},
    {"F.max_pool2d(X2[1], 2, {ceil_mode = true})", "F.max_pool2d(X2[0], 2, ceil_mode=True)"},
    {"F.max_pool2d(X2E, 2)", "F.max_pool2d(X2E, 2)"},
    {"F.avg_pool1d(X1, 3)", "F.avg_pool1d(X1, 3)"},
    {"F.avg_pool1d(X1, 3, 2, 1, true, false)", "F.avg_pool1d(X1, 3, 2, 1, True, False)"},
    {"F.avg_pool2d(X2, 2)", "F.avg_pool2d(X2, 2)"},
    {"F.avg_pool2d(X2T, 3, 2, 1, true, false)", "F.avg_pool2d(X2T, 3, 2, 1, True, False)"},
    {"F.avg_pool2d(X2, {3, 2}, 1, {1, 1}, false, true, 5)",
     "F.avg_pool2d(X2, (3, 2), 1, (1, 1), False, True, 5)"},
    {"F.adaptive_avg_pool1d(X1, 4)", "F.adaptive_avg_pool1d(X1, 4)"},
    {"F.adaptive_avg_pool1d(X1, 5)", "F.adaptive_avg_pool1d(X1, 5)"},
    {"F.adaptive_avg_pool2d(X2, {3, 5})", "F.adaptive_avg_pool2d(X2, (3, 5))"},
    {"F.adaptive_avg_pool2d(X2T, 1)", "F.adaptive_avg_pool2d(X2T, 1)"},
    {"F.avg_pool1d(X1, 2)", "F.avg_pool1d(X1, 2)"},
    {"F.avg_pool1d(X1, 2, {ceil_mode = true})", "F.avg_pool1d(X1, 2, ceil_mode=True)"},
    {"F.avg_pool2d(XP, 2)", "F.avg_pool2d(XP, 2)"},
    {"F.avg_pool2d(XP, 2, {ceil_mode = true})", "F.avg_pool2d(XP, 2, ceil_mode=True)"},
    {"F.avg_pool2d(XP, {3, 2}, {1, 2})", "F.avg_pool2d(XP, (3, 2), (1, 2))"},
    {"F.avg_pool2d(XP, 2, 2, {1, 0})", "F.avg_pool2d(XP, 2, 2, (1, 0))"},
    {"F.avg_pool2d(XP, 2, 2, {1, 0}, false, false)",
     "F.avg_pool2d(XP, 2, 2, (1, 0), False, False)"},
    {"F.avg_pool2d(XP, 2, nil, 0, false, true, 3)", "F.avg_pool2d(XP, 2, None, 0, False, True, 3)"},
    {"F.avg_pool2d(XP, 3, 1, 1)", "F.avg_pool2d(XP, 3, 1, 1)"},
    {"F.avg_pool2d(XP, {5, 4}, {3, 2}, 2, true, false)",
     "F.avg_pool2d(XP, (5, 4), (3, 2), 2, True, False)"},
    {"F.avg_pool2d(XPT, 2)", "F.avg_pool2d(XPT, 2)"},
    {"F.avg_pool2d(XPT, 2, {ceil_mode = true})", "F.avg_pool2d(XPT, 2, ceil_mode=True)"},
    {"F.adaptive_avg_pool2d(XP, {7, 9})", "F.adaptive_avg_pool2d(XP, (7, 9))"},
    {"F.adaptive_avg_pool2d(XP, 1)", "F.adaptive_avg_pool2d(XP, 1)"},
    {"F.adaptive_avg_pool2d(XP, {40, 75})", "F.adaptive_avg_pool2d(XP, (40, 75))"},
    {"F.adaptive_avg_pool2d(XL, 1)", "F.adaptive_avg_pool2d(XL, 1)"},
    {"F.adaptive_max_pool1d(X1, 4)", "F.adaptive_max_pool1d(X1, 4)"},
    {"F.adaptive_max_pool2d(X2, {3, 5})", "F.adaptive_max_pool2d(X2, (3, 5))"},
    {"F.adaptive_max_pool2d(X2T[2], 4)", "F.adaptive_max_pool2d(X2T[1], 4)"},
    {"F.unfold(X2, {2, 3}, 2, 1, {1, 2})", "F.unfold(X2, (2, 3), 2, 1, (1, 2))"},
    {"F.unfold(X2T, 3)", "F.unfold(X2T, 3)"},
    {"F.unfold(X2[1], 2)", "F.unfold(X2[0], 2)"},
    {"F.fold(FX, {7, 8}, {2, 3})", "F.fold(FX, (7, 8), (2, 3))"},
    {"F.fold(FX2, {7, 8}, {2, 3}, 1, 1, 2)", "F.fold(FX2, (7, 8), (2, 3), 1, 1, 2)"},
    {"F.fold(FX[1], {7, 8}, {2, 3})", "F.fold(FX[0], (7, 8), (2, 3))"},
};

/* The indices of the max pools: 1-based, torch's plus one. */
static const char *const nn_pool_indices[][2] = {
    {"select(2, F.max_pool1d(X1, 3, 2, 1, 2, true, true))",
     "F.max_pool1d(X1, 3, 2, 1, 2, True, True)[1] + 1"},
    {"select(2, F.max_pool2d(X2, 2, {return_indices = true}))",
     "F.max_pool2d(X2, 2, return_indices=True)[1] + 1"},
    {"select(2, F.max_pool2d(X2T, 3, 2, 1, 2, true, true))",
     "F.max_pool2d(X2T, 3, 2, 1, 2, True, True)[1] + 1"},
    {"select(2, F.adaptive_max_pool2d(X2, {3, 5}, true))",
     "F.adaptive_max_pool2d(X2, (3, 5), True)[1] + 1"},
    {"select(2, F.adaptive_max_pool1d(X1, 4, true))", "F.adaptive_max_pool1d(X1, 4, True)[1] + 1"},
};

/* float16 in, float16 out, computed in float32. */
static const char *const nn_conv_half[][2] = {
    {"F.conv2d(X2:half(), W2:half(), B2:half(), 1, 1)",
     "F.conv2d(X2.half().float(), W2.half().float(), B2.half().float(), 1, 1).half()"},
    {"F.max_pool2d(X2:half(), 2)", "F.max_pool2d(X2.half().float(), 2).half()"},
    {"F.avg_pool2d(X2:bfloat16(), 2)", "F.avg_pool2d(X2.bfloat16().float(), 2).bfloat16()"},
};

static void test_nn_conv(void) {
  static const char *const dts[] = {"float32", "float64"};
  section("17: lt.nn.functional's convolutions and pools against torch");
  CHECK(py_ok("import torch.nn.functional as F") && lua_ok("F = lt.nn.functional"));
  for (size_t d = 0; d < 2; d++) {
    const char *dt = dts[d];
    set_context("nn conv %s: set-up", dt);
    CHECK(
        py_ok("torch.manual_seed(28); r = lambda *s: torch.randn(*s, dtype=torch.%s)\n"
              "X1, W1, W1G, B1 = r(2, 4, 9), r(6, 4, 3), r(6, 2, 3), r(6)\n"
              "X2, W2, W2G, B2 = r(2, 4, 7, 8), r(6, 4, 3, 3), r(6, 2, 3, 3), r(6)\n"
              "X2T, W2E = r(2, 4, 8, 7).transpose(2, 3), r(3, 4, 2, 4)\n"
              "DW, DW2, W11, B11 = r(4, 1, 3, 3), r(8, 1, 3, 3), r(5, 4, 1, 1), r(5)\n"
              "W2F, X2E, W2C = r(2, 4, 7, 8), X2[:0], r(6, 1, 3, 3)\n"
              "X3, W3, B3 = r(1, 2, 5, 6, 7), r(3, 2, 2, 3, 3), r(3)\n"
              "WT1, WT1G, WT2, WT2G = r(4, 3, 3), r(4, 2, 3), r(4, 3, 3, 3), r(4, 2, 3, 3)\n"
              "FX, FX2 = r(2, 24, 36), r(2, 24, 16)\n"
              "XW, WW, BW = r(2, 16, 9, 11), r(20, 16, 3, 3), r(20)\n"
              "XWT = r(2, 16, 12, 9).transpose(2, 3)\n"
              "XP, XPT, XL = r(2, 3, 37, 70), r(1, 2, 71, 37).transpose(2, 3), r(1, 2, 80, 90)",
              dt));
    static const char *const names[] = {
        "X1",  "W1",   "W1G", "B1",  "X2",  "W2",  "W2G", "B2",  "X2T", "W2E", "DW",
        "DW2", "W11",  "B11", "W2F", "X2E", "W2C", "X3",  "W3",  "B3",  "WT1", "WT1G",
        "WT2", "WT2G", "FX",  "FX2", "XW",  "WW",  "BW",  "XWT", "XP",  "XPT", "XL"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      CHECK(torch_to_lua(names[i], "%s", names[i]));
    CHECK(py_ok("FTOL = %s", d ? "1e-12" : "1e-5"));
    TP_AGREE_EACH(func_agrees, nn_conv_cases, "nn conv %s", dt);
    CHECK(py_ok("FTOL = 0"));
    TP_AGREE_EACH(func_agrees, nn_pool_indices, "nn pool indices %s", dt);
    if (d == 0) {
      CHECK(py_ok("FTOL = 1e-2"));
      TP_AGREE_EACH(func_agrees, nn_conv_half, "nn conv half");
    }
  }
  set_context("%s", "");
  CHECK(lua_ok(
            "X1, W1, W1G, B1, X2, W2, W2G, B2, X2T, W2E, DW, DW2, W11, B11, W2F, X2E, W2C = nil") &&
        lua_ok(
            "X3, W3, B3, WT1, WT1G, WT2, WT2G, FX, FX2, XW, WW, BW, XWT, XP, XPT, XL, F, r = nil"));
}
