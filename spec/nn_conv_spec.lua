-- lt.nn.functional's convolutions and pools (issue 28): torch.nn.functional's names, positional
-- order, defaults and shapes, every optional argument also accepted in a trailing options table
-- under torch's keyword name; indices 1-based. The expected values are worked out by hand here;
-- spec/c/torch_host_nn_conv.h compares with torch itself on random data.
local lt = require "ltensor"
local F = require "ltensor.nn.functional"
local helpers = require "helpers"
local raises, near = helpers.raises, helpers.near

-- 1 .. n as a float32 tensor of the given shape.
local function seq(...)
  local shape = { ... }
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return lt.arange(1, n + 1):float():reshape(shape)
end

describe("lt.nn.functional", function()
  it("is the table require 'ltensor.nn.functional' returns", function()
    assert.equal(lt.nn.functional, F)
    assert.is_function(F.conv2d)
  end)
end)

describe("conv1d", function()
  it("slides the kernel without flipping it (cross-correlation), as torch", function()
    local x = seq(1, 1, 5)
    local w = lt.tensor({ { { 1, 0, -1 } } }):float()
    assert.same({ { { -2, -2, -2 } } }, F.conv1d(x, w):tolist())
  end)
  it("takes stride, padding and dilation positionally or as options", function()
    local x, w = seq(1, 1, 5), lt.tensor({ { { 1, 0, -1 } } }):float()
    assert.same({ { { -2, -2 } } }, F.conv1d(x, w, nil, 2):tolist())
    assert.same({ { { -2, -2 } } }, F.conv1d(x, w, nil, { stride = 2 }):tolist())
    assert.same({ { { -2, -2, -2, -2, 4 } } }, F.conv1d(x, w, nil, 1, 1):tolist())
    assert.same({ { { -4 } } }, F.conv1d(x, w, nil, 1, 0, 2):tolist())
    assert.same({ { { -4 } } }, F.conv1d(x, w, nil, { dilation = { 2 } }):tolist())
  end)
  it("adds the bias to each output channel", function()
    local x = seq(1, 1, 3)
    local w = lt.ones(2, 1, 1)
    assert.same({ { { 11, 12, 13 }, { 21, 22, 23 } } },
      F.conv1d(x, w, lt.tensor({ 10, 20 }):float()):tolist())
  end)
  it("keeps the length with padding 'same' (an even kernel pads more on the right)", function()
    local x = seq(1, 1, 4)
    local w = lt.ones(1, 1, 2)
    assert.same({ { { 3, 5, 7, 4 } } }, F.conv1d(x, w, nil, 1, "same"):tolist())
    assert.same({ { { 3, 5, 7 } } }, F.conv1d(x, w, nil, { padding = "valid" }):tolist())
  end)
  it("convolves each group of channels with its own filters (groups)", function()
    local x = lt.tensor({ { { 1, 2 }, { 10, 20 } } }):float()
    local w = lt.tensor({ { { 1 } }, { { 2 } } }):float() -- (2, 1, 1): one filter per channel
    assert.same({ { { 1, 2 }, { 20, 40 } } }, F.conv1d(x, w, nil, 1, 0, 1, 2):tolist())
    assert.same({ { { 1, 2 }, { 20, 40 } } }, F.conv1d(x, w, nil, { groups = 2 }):tolist())
  end)
end)

describe("conv2d", function()
  it("of ones by a 3x3 kernel of ones with padding 1 counts each window", function()
    local r = F.conv2d(lt.ones(1, 1, 4, 4), lt.ones(1, 1, 3, 3), lt.tensor({ 0.5 }), 1, 1)
    assert.same({ 1, 1, 4, 4 }, r.shape)
    assert.same({ { 4.5, 6.5, 6.5, 4.5 }, { 6.5, 9.5, 9.5, 6.5 }, { 6.5, 9.5, 9.5, 6.5 },
      { 4.5, 6.5, 6.5, 4.5 } }, r[1][1]:tolist())
  end)
  it("sums over the input channels", function()
    local x = lt.cat({ lt.ones(1, 1, 2, 2), lt.full({ 1, 1, 2, 2 }, 2) }, 2)
    assert.same({ { { { 12 } } } }, F.conv2d(x, lt.ones(1, 2, 2, 2)):tolist())
  end)
  it("takes per-dim stride, padding and dilation arrays", function()
    local x = seq(1, 1, 4, 5)
    local w = lt.ones(1, 1, 1, 1)
    local r = F.conv2d(x, w, nil, { 2, 3 })
    assert.same({ { 1, 4 }, { 11, 14 } }, r[1][1]:tolist())
    r = F.conv2d(x, lt.ones(1, 1, 2, 2), nil, 1, { 0, 1 }, { 3, 1 })
    assert.same({ 1, 1, 1, 6 }, r.shape)
    assert.same({ 17, 36, 40, 44, 48, 25 }, r[1][1][1]:tolist())
  end)
  it("accepts an unbatched (C, H, W) input and an empty batch", function()
    local w = lt.ones(3, 2, 2, 2)
    assert.same({ 3, 1, 1 }, F.conv2d(lt.ones(2, 2, 2), w).shape)
    assert.same({ 0, 3, 2, 2 }, F.conv2d(lt.ones(0, 2, 3, 3), w).shape)
  end)
  it("gives the same result for a transposed (non-contiguous) input", function()
    local x = lt.randn(2, 3, 6, 5)
    local xt = x:transpose(3, 4):contiguous():transpose(3, 4)
    assert.is_false(xt:is_contiguous())
    local w = lt.randn(4, 3, 3, 3)
    near(F.conv2d(x, w, nil, 1, 1):tolist(), F.conv2d(xt, w, nil, 1, 1):tolist(), 1e-6)
  end)
  it("is a depthwise convolution with groups equal to the channels", function()
    local x = lt.cat({ lt.ones(1, 1, 3, 3), lt.full({ 1, 1, 3, 3 }, 2) }, 2)
    local r = F.conv2d(x, lt.ones(2, 1, 3, 3), nil, { groups = 2 })
    assert.same({ { { { 9 } }, { { 18 } } } }, r:tolist())
  end)
  it("keeps float64 and computes float16 in float32, returning float16", function()
    local x = lt.ones(1, 1, 3, 3, "float64")
    assert.equal("float64", F.conv2d(x, lt.ones(1, 1, 2, 2, "float64")).dtype)
    local r = F.conv2d(lt.ones(1, 1, 3, 3):half(), lt.ones(1, 1, 2, 2):half())
    assert.equal("float16", r.dtype)
    assert.same({ { 4, 4 }, { 4, 4 } }, r[1][1]:tolist())
  end)
  it("raises for integer inputs and for a weight of another dtype", function()
    raises("conv2d: input: expected a floating%-point tensor, got int64", F.conv2d,
      lt.ones(1, 1, 3, 3, "int64"), lt.ones(1, 1, 2, 2, "int64"))
    raises("conv2d: weight: expected float32 like input, got float64", F.conv2d,
      lt.ones(1, 1, 3, 3), lt.ones(1, 1, 2, 2, "float64"))
    raises("conv2d: bias: expected float32", F.conv2d, lt.ones(1, 1, 3, 3), lt.ones(1, 1, 2, 2),
      lt.ones(1, "float64"))
  end)
  it("raises naming the argument for bad shapes", function()
    local x = lt.ones(1, 2, 5, 5)
    raises("conv2d: input: expected a 3%-d %(unbatched%) or 4%-d %(batched%) tensor, got 2%-d",
      F.conv2d, lt.ones(5, 5), lt.ones(1, 2, 3, 3))
    raises("conv2d: weight: expected a 4%-d tensor, got 3%-d", F.conv2d, x, lt.ones(1, 2, 3))
    raises("conv2d: input: expected 3 channels", F.conv2d, x, lt.ones(1, 3, 3, 3))
    raises("conv2d: weight: out channels %(3%) must be divisible by groups %(2%)", F.conv2d, x,
      lt.ones(3, 1, 3, 3), nil, 1, 0, 1, 2)
    raises("conv2d: bias: expected a 1%-d tensor of 1 elements", F.conv2d, x,
      lt.ones(1, 2, 3, 3), lt.ones(2))
  end)
  it("raises when the kernel is larger than the padded input", function()
    raises("conv2d: input: padded size per channel %(5 x 5%) is smaller than the kernel %(7 x 7%)",
      F.conv2d, lt.ones(1, 1, 5, 5), lt.ones(1, 1, 7, 7))
    raises("smaller than the kernel %(9 x 1%)", F.conv2d, lt.ones(1, 1, 5, 5),
      lt.ones(1, 1, 3, 1), nil, 1, 1, 4)
    assert.same({ 1, 1, 1, 1 }, F.conv2d(lt.ones(1, 1, 5, 5), lt.ones(1, 1, 7, 7), nil, 1, 1).shape)
  end)
  it("raises for bad size arguments", function()
    local x, w = lt.ones(1, 1, 5, 5), lt.ones(1, 1, 3, 3)
    raises("conv2d: stride must be positive, got 0", F.conv2d, x, w, nil, 0)
    raises("conv2d: padding must be non%-negative, got %-1", F.conv2d, x, w, nil, 1, -1)
    raises("conv2d: groups must be positive, got 0", F.conv2d, x, w, nil, 1, 0, 1, 0)
    raises("conv2d: stride must be an integer or an array of 2 integers", F.conv2d, x, w, nil,
      { 1, 2, 3 })
    raises("conv2d: padding must be 'same', 'valid'", F.conv2d, x, w, nil, 1, "full")
    raises("padding 'same' is not supported for strided convolutions", F.conv2d, x, w, nil, 2,
      "same")
    raises("conv2d: stride given twice", F.conv2d, x, w, nil, 1, { stride = 1 })
    raises("conv2d: unknown option 'strides'", F.conv2d, x, w, nil, { strides = 1 })
    raises("conv2d: dilation %d+ is too large", F.conv2d, x, w, nil, 1, 0, math.maxinteger)
    raises("conv2d: shape has too many elements", F.conv2d, x, w, nil, 1, 1 << 31)
    raises("conv2d: not enough memory", F.conv2d, x, w, nil, 1, 1 << 20)
    raises("conv2d: stride must be an integer, got 1.5", F.conv2d, x, w, nil, 1.5)
  end)
end)

describe("conv3d", function()
  it("of ones by a 2x2x2 kernel of ones sums 8 ones per window", function()
    local r = F.conv3d(lt.ones(1, 1, 3, 3, 3), lt.ones(2, 1, 2, 2, 2), lt.tensor({ 0, 1 }):float())
    assert.same({ 1, 2, 2, 2, 2 }, r.shape)
    assert.equal(8, r[1][1][1][1][1])
    assert.equal(9, r[1][2][2][2][2])
    assert.same({ 1, 2, 2, 2 }, F.conv3d(lt.ones(1, 3, 3, 3), lt.ones(1, 1, 2, 2, 2)).shape)
  end)
end)

describe("conv_transpose1d", function()
  it("spreads each input element over the kernel, overlaps summed", function()
    local x, w = seq(1, 1, 3), lt.ones(1, 1, 2)
    assert.same({ { { 1, 3, 5, 3 } } }, F.conv_transpose1d(x, w):tolist())
    assert.same({ { { 1, 1, 2, 2, 3, 3 } } }, F.conv_transpose1d(x, w, nil, 2):tolist())
  end)
  it("crops padding and adds output_padding, groups before dilation as torch", function()
    local x, w = seq(1, 1, 3), lt.ones(1, 1, 2)
    assert.same({ { { 1, 2, 2, 3 } } }, F.conv_transpose1d(x, w, nil, 2, 1):tolist())
    assert.same({ { { 1, 2, 2, 3, 3 } } }, F.conv_transpose1d(x, w, nil, 2, 1, 1):tolist())
    assert.same({ { { 1, 2, 4, 2, 3 } } }, F.conv_transpose1d(x, w, nil, 1, 0, 0, 1, 2):tolist())
    assert.same({ { { 1, 2, 4, 2, 3 } } },
      F.conv_transpose1d(x, w, nil, { dilation = 2 }):tolist())
  end)
  it("raises for output_padding not below stride or dilation", function()
    raises("conv_transpose1d: output_padding %(2%) must be smaller than either stride %(2%)",
      F.conv_transpose1d, seq(1, 1, 3), lt.ones(1, 1, 2), nil, 2, 0, 2)
  end)
end)

describe("conv_transpose2d", function()
  it("with stride equal to the kernel tiles the kernel per input element", function()
    local x = lt.tensor({ { { { 1, 2 }, { 3, 4 } } } }):float()
    local r = F.conv_transpose2d(x, lt.ones(1, 2, 2, 2), lt.tensor({ 0, 10 }):float(), 2)
    assert.same({ 1, 2, 4, 4 }, r.shape)
    assert.same({ { 1, 1, 2, 2 }, { 1, 1, 2, 2 }, { 3, 3, 4, 4 }, { 3, 3, 4, 4 } },
      r[1][1]:tolist())
    assert.equal(14, r[1][2][4][4])
  end)
  it("raises when the weight's first dim is not the input's channels", function()
    raises("conv_transpose2d: input: expected 3 channels", F.conv_transpose2d,
      lt.ones(1, 2, 3, 3), lt.ones(3, 1, 2, 2))
  end)
end)

describe("unfold and fold", function()
  it("unfold lays out each block as a column, channel by channel", function()
    local r = F.unfold(seq(1, 1, 3, 3), 2)
    assert.same({ 1, 4, 4 }, r.shape)
    assert.same({ { 1, 2, 4, 5 }, { 2, 3, 5, 6 }, { 4, 5, 7, 8 }, { 5, 6, 8, 9 } }, r[1]:tolist())
    assert.same({ 8, 1 }, F.unfold(lt.ones(2, 2, 2), 2).shape)
  end)
  it("fold sums overlapping blocks back: fold(unfold(x)) is x times the blocks covering it",
    function()
      local x = seq(1, 1, 3, 3)
      local r = F.fold(F.unfold(x, 2), { 3, 3 }, 2)
      assert.same({ { 1, 4, 3 }, { 8, 20, 12 }, { 7, 16, 9 } }, r[1][1]:tolist())
      local y = seq(1, 2, 4, 4)
      assert.same(y:tolist(), F.fold(F.unfold(y, 2, 1, 0, 2), 4, 2, 1, 0, 2):tolist())
    end)
  it("fold raises when the blocks do not match output_size", function()
    raises("fold: input: size of dim 3 %(5%) must match the number of sliding blocks",
      F.fold, lt.ones(1, 4, 5), { 3, 3 }, 2)
    raises("fold: input: size of dim 2 %(5%) must be divisible by the product of kernel_size",
      F.fold, lt.ones(1, 5, 4), { 3, 3 }, 2)
  end)
end)

describe("max_pool2d", function()
  it("takes each window's maximum; stride defaults to kernel_size", function()
    local r = F.max_pool2d(seq(1, 1, 4, 4), 2)
    assert.same({ { { { 6, 8 }, { 14, 16 } } } }, r:tolist())
  end)
  it("returns the 1-based flat positions within each plane with return_indices", function()
    local x = seq(2, 3, 4, 4):neg() -- the maximum of each window is its first element
    local v, i = F.max_pool2d(x, 2, nil, 0, 1, false, true)
    assert.same({ { 1, 3 }, { 9, 11 } }, i[2][3]:tolist())
    assert.equal("int64", i.dtype)
    local v2, i2 = F.max_pool2d(seq(1, 1, 4, 4), 2, { return_indices = true })
    assert.same({ { { { 6, 8 }, { 14, 16 } } } }, i2:tolist())
    assert.same(v2:tolist(), v2:tolist())
    assert.same(v:flatten(-2):tolist(), x:flatten(-2):gather(-1, i:flatten(-2)):tolist())
  end)
  it("pads with -inf, dilates, and rounds the output up with ceil_mode", function()
    local x = seq(1, 1, 5, 5)
    assert.same({ 1, 1, 3, 3 }, F.max_pool2d(x, 2, 2, 1).shape)
    assert.same({ { 1, 3, 5 }, { 11, 13, 15 }, { 21, 23, 25 } },
      F.max_pool2d(x, 2, 2, 1)[1][1]:tolist())
    assert.same({ 1, 1, 2, 2 }, F.max_pool2d(x, 2).shape)
    assert.same({ { 7, 9, 10 }, { 17, 19, 20 }, { 22, 24, 25 } },
      F.max_pool2d(x, 2, nil, 0, 1, true)[1][1]:tolist())
    assert.same({ { 19 } }, F.max_pool2d(x, 2, 2, 0, 3)[1][1]:tolist())
  end)
  it("propagates NaN", function()
    local x = lt.tensor({ { { 1, 0 / 0 }, { 3, 4 } } }):float()
    local r = F.max_pool2d(x, 2)
    assert.is_true(r[1][1][1] ~= r[1][1][1])
  end)
  it("raises for padding above half the kernel, a kernel above the input, integers", function()
    raises("max_pool2d: padding should be at most half of kernel_size", F.max_pool2d,
      lt.ones(1, 4, 4), 2, 1, 2)
    raises("max_pool2d: input: output size 0 is too small", F.max_pool2d, lt.ones(1, 4, 4), 5)
    raises("max_pool2d: input: expected a floating%-point tensor, got int64", F.max_pool2d,
      lt.ones(1, 4, 4, "int64"), 2)
    raises("max_pool2d: kernel_size is required", F.max_pool2d, lt.ones(1, 4, 4))
    raises("max_pool2d: input: expected non%-zero sizes", F.max_pool2d, lt.ones(1, 0, 4, 4), 2)
  end)
  it("keeps an empty batch and an unbatched input", function()
    assert.same({ 0, 2, 2, 2 }, F.max_pool2d(lt.ones(0, 2, 4, 4), 2).shape)
    assert.same({ 2, 2, 2 }, F.max_pool2d(lt.ones(2, 4, 4), 2).shape)
  end)
end)

describe("max_pool1d", function()
  it("pools along the last dim, with 1-based positions along it", function()
    local v, i = F.max_pool1d(lt.tensor({ { 3, 1, 4, 1, 5, 9, 2 } }):float(), 2, nil, 0, 1, false,
      true)
    assert.same({ { 3, 4, 9 } }, v:tolist())
    assert.same({ { 1, 3, 6 } }, i:tolist())
    assert.same({ { 3, 4, 9, 2 } }, F.max_pool1d(lt.tensor({ { 3, 1, 4, 1, 5, 9, 2 } }):float(),
      2, { ceil_mode = true }):tolist())
  end)
end)

describe("avg_pool2d", function()
  it("averages each window", function()
    assert.same({ { { { 3.5, 5.5 }, { 11.5, 13.5 } } } }, F.avg_pool2d(seq(1, 1, 4, 4), 2):tolist())
  end)
  it("divides by the padded window unless count_include_pad is false", function()
    local x = lt.ones(1, 1, 3, 3)
    assert.same({ { 0.25, 0.5 }, { 0.5, 1 } }, F.avg_pool2d(x, 2, 2, 1)[1][1]:tolist())
    assert.same({ { 1, 1 }, { 1, 1 } }, F.avg_pool2d(x, 2, 2, 1, false, false)[1][1]:tolist())
    assert.same({ { 1, 1 }, { 1, 1 } },
      F.avg_pool2d(x, 2, 2, 1, { count_include_pad = false })[1][1]:tolist())
  end)
  it("divides by divisor_override when given", function()
    assert.same({ { { { 7, 11 }, { 23, 27 } } } },
      F.avg_pool2d(seq(1, 1, 4, 4), 2, nil, 0, false, true, 2):tolist())
    raises("avg_pool2d: divisor_override must be positive", F.avg_pool2d, seq(1, 1, 4, 4), 2,
      nil, 0, false, true, 0)
  end)
end)

describe("average pools' sums", function()
  -- ltensor sums float32 windows in float32 (the window's rows first, with vector adds), as torch
  -- does, and windows above 4096 elements in double: the float64 result is the reference, itself
  -- checked against unfold's windows.
  local function agrees(f, x, ...)
    local got, want = f(x, ...), f(x:double(), ...)
    assert.equal("float32", got.dtype)
    assert.same(want.shape, got.shape)
    local err = (got:double() - want):abs():max()
    assert.is_true(err <= 1e-5, ("off by %g"):format(err))
  end
  -- avg_pool2d without ceil_mode from unfold: each window's sum (zeros where padded) over its
  -- divisor, the elements counted by the same sum over ones where padding does not count.
  local function by_unfold(x, kh, kw, s, p, cip, div)
    local n, ch, h, w = table.unpack(x.shape)
    local oh, ow = (h + 2 * p[1] - kh) // s[1] + 1, (w + 2 * p[2] - kw) // s[2] + 1
    local function sums(t)
      return F.unfold(t, { kh, kw }, 1, p, s):reshape(n, ch, kh * kw, oh * ow):sum(3)
    end
    return (sums(x) / (div or cip and kh * kw or sums(lt.ones_like(x)))):reshape(n, ch, oh, ow)
  end
  lt.manual_seed(36)
  local x = lt.randn(2, 3, 23, 45) -- wider than a vector, with odd sizes

  it("avg_pool2d matches float64 and unfold for any kernel, stride, padding, divisor", function()
    local xd = x:double()
    for _, k in ipairs({ 1, 2, 3, { 2, 3 }, { 5, 2 }, { 1, 4 } }) do
      for _, s in ipairs({ false, 1, 2, { 3, 2 }, { 1, 2 } }) do
        local kh, kw = type(k) == "table" and k[1] or k, type(k) == "table" and k[2] or k
        local sh = type(s) == "table" and s[1] or s or kh
        local sw = type(s) == "table" and s[2] or s or kw
        for _, p in ipairs({ { 0, 0 }, { kh // 2, 0 }, { kh // 2, kw // 2 } }) do
          for _, cip in ipairs({ true, false }) do
            for _, div in ipairs({ false, 3 }) do
              agrees(F.avg_pool2d, x, k, s or nil, p, true, cip, div or nil)
              agrees(F.avg_pool2d, x, k, s or nil, p, false, cip, div or nil)
              local err = (F.avg_pool2d(xd, k, s or nil, p, false, cip, div or nil)
                - by_unfold(xd, kh, kw, { sh, sw }, p, cip, div or nil)):abs():max()
              assert.is_true(err <= 1e-12, ("off by %g"):format(err))
            end
          end
        end
      end
    end
  end)
  it("avg_pool1d and unbatched inputs take the same sums", function()
    agrees(F.avg_pool1d, x[1][1], 2)
    agrees(F.avg_pool1d, x[1][1], 3, 2, 1, true, false)
    agrees(F.avg_pool2d, x[2], 2)
    agrees(F.avg_pool1d, lt.randn(1, 2, 3001), 3, 2, 1) -- rows longer than the stack's scratch
  end)
  it("adaptive_avg_pool2d agrees with float64, windows overlapping or not", function()
    for _, o in ipairs({ 1, 2, 7, { 5, 11 }, { 23, 45 }, { 30, 60 }, { 1, 45 } }) do
      agrees(F.adaptive_avg_pool2d, x, o)
    end
    agrees(F.adaptive_avg_pool2d, lt.randn(1, 2, 70, 80), 1) -- 5600 elements: summed in double
  end)
  it("2x2 windows sum in float32 in torch's order, giving torch's results to the bit", function()
    local v = lt.tensor({ { { 1, 2 ^ -24, 2 ^ -24, 2 ^ -24 }, { 2 ^ -24, 0, 3, 5 } } }):float()
    -- in float32 1 + 2^-24 rounds to 1 (ties to even), so the first window sums to 1 exactly
    assert.same({ { { 0.25, 2 } } }, F.avg_pool2d(v, 2):tolist())
  end)
end)

describe("avg_pool1d", function()
  it("averages along the last dim, ceil_mode keeping the partial window", function()
    local x = lt.tensor({ { { 1, 2, 3, 4, 5 } } }):float()
    assert.same({ { { 1.5, 3.5 } } }, F.avg_pool1d(x, 2):tolist())
    assert.same({ { { 1.5, 3.5, 5 } } }, F.avg_pool1d(x, 2, { ceil_mode = true }):tolist())
  end)
end)

describe("adaptive pools", function()
  it("adaptive_avg_pool1d averages windows [floor(o n / out), ceil((o + 1) n / out))", function()
    local x = lt.tensor({ { 1, 2, 3, 4, 5 } }):float()
    assert.same({ { 2, 4 } }, F.adaptive_avg_pool1d(x, 2):tolist())
    assert.same({ { 3 } }, F.adaptive_avg_pool1d(x, 1):tolist())
  end)
  it("adaptive_avg_pool2d to 1 is the mean of each plane", function()
    local r = F.adaptive_avg_pool2d(seq(2, 3, 4, 4), 1)
    assert.same({ 2, 3, 1, 1 }, r.shape)
    assert.equal(8.5, r[1][1][1][1])
    assert.same({ 2, 3, 2, 3 }, F.adaptive_avg_pool2d(seq(2, 3, 4, 4), { 2, 3 }).shape)
  end)
  it("adaptive_max_pool2d returns the maxima and their 1-based flat positions", function()
    local v, i = F.adaptive_max_pool2d(seq(1, 1, 4, 4), 2, true)
    assert.same({ { { { 6, 8 }, { 14, 16 } } } }, v:tolist())
    assert.same({ { { { 6, 8 }, { 14, 16 } } } }, i:tolist())
    local v1, i1 = F.adaptive_max_pool1d(lt.tensor({ { 5, 1, 2, 7 } }):float(), 2,
      { return_indices = true })
    assert.same({ { 5, 7 } }, v1:tolist())
    assert.same({ { 1, 4 } }, i1:tolist())
  end)
  it("raises for a negative output_size or an empty plane", function()
    raises("adaptive_avg_pool2d: output_size must be non%-negative", F.adaptive_avg_pool2d,
      lt.ones(1, 4, 4), -1)
    raises("adaptive_max_pool2d: input: expected non%-zero sizes", F.adaptive_max_pool2d,
      lt.ones(1, 0, 4), 2)
  end)
end)
