-- lt.nn.functional's linear, bilinear, pad, interpolate, batch_norm, layer_norm, group_norm,
-- rms_norm, embedding, dropout, scaled_dot_product_attention, one_hot, normalize,
-- cosine_similarity and pairwise_distance: torch.nn.functional's behaviour, with 1-based dims,
-- indices and class values. spec/c/torch_host_nn_norm.h checks them against torch on random data.
local lt = require "ltensor"
local F = require "ltensor.nn.functional"

-- Whether the tensor t holds the values of the nested table want within tol.
local function near(t, want, tol)
  tol = tol or 1e-5
  local got = t:tolist()
  local function walk(a, b)
    if type(b) == "table" then
      if type(a) ~= "table" or #a ~= #b then return false end
      for i = 1, #b do
        if not walk(a[i], b[i]) then return false end
      end
      return true
    end
    return math.abs(a - b) <= tol * (1 + math.abs(b)) or (a ~= a and b ~= b)
  end
  return walk(got, want)
end

local function f32(t) return lt.tensor(t, "float32") end

local function raises(pattern, f, ...)
  local ok, msg = pcall(f, ...)
  assert.is_false(ok)
  assert.truthy(tostring(msg):find(pattern, 1, true), tostring(msg))
end

describe("lt.nn.functional", function()
  it("is the table require 'ltensor.nn.functional' returns", function()
    assert.equal(lt.nn.functional, F)
  end)
end)

describe("linear", function()
  it("computes input weight^T + bias over the last dim, as torch", function()
    local x = lt.tensor({ { 1, 2 }, { 3, 4 } })
    local w = lt.tensor({ { 1, 0 }, { 0, 1 }, { 1, 1 } })
    assert.truthy(near(F.linear(x:float(), w:float(), lt.tensor({ 1, 2, 3 }):float()),
      { { 2, 4, 6 }, { 4, 6, 10 } }))
    assert.truthy(near(F.linear(x:double(), w:double()), { { 1, 2, 3 }, { 3, 4, 7 } }))
    assert.equal("float64", F.linear(x:double(), w:double()).dtype)
  end)
  it("takes the bias in the options table, and batches of any leading dims", function()
    local x = lt.ones(2, 3, 4)
    local r = F.linear(x, lt.ones(5, 4), { bias = lt.ones(5) })
    assert.same({ 2, 3, 5 }, r.shape)
    assert.equal(5, r[{ 2, 3, 5 }])
  end)
  it("raises naming the function for shapes that do not multiply and mixed dtypes", function()
    raises("linear: input of shape [2, 3] and weight of shape [4, 2]", F.linear, lt.ones(2, 3),
      lt.ones(4, 2))
    raises("linear: weight of dtype float64 does not match", F.linear, lt.ones(2, 3),
      lt.ones(4, 3, "float64"))
    raises("linear: bias given twice", F.linear, lt.ones(2, 3), lt.ones(4, 3), lt.ones(4),
      { bias = lt.ones(4) })
  end)
end)

describe("bilinear", function()
  it("computes x1^T W[o] x2 + b[o]", function()
    local x1, x2 = f32({ { 1, 2 } }), f32({ { 3, 4, 5 } })
    local w = lt.ones(2, 2, 3)
    w[2] = 2
    local r = F.bilinear(x1, x2, w, f32({ 0.5, 0 }))
    assert.truthy(near(r, { { 36.5, 72 } }))
  end)
  it("raises for a weight that is not (out, in1, in2)", function()
    raises("bilinear: weight of shape [2, 3, 3]", F.bilinear, lt.ones(1, 2), lt.ones(1, 3),
      lt.ones(2, 3, 3))
  end)
end)

describe("pad", function()
  local x = lt.tensor({ { { 1, 2, 3 } } }, "float32")
  it("pads the last dim first with a constant (0 by default), negative sizes crop", function()
    assert.truthy(near(F.pad(x, { 1, 2 }), { { { 0, 1, 2, 3, 0, 0 } } }))
    assert.truthy(near(F.pad(x, { 1, 0, 1, 1 }, "constant", 7),
      { { { 7, 7, 7, 7 }, { 7, 1, 2, 3 }, { 7, 7, 7, 7 } } }))
    assert.truthy(near(F.pad(x, { -1, 1 }, { value = 9 }), { { { 2, 3, 9 } } }))
  end)
  it("reflects, replicates and wraps around as torch", function()
    assert.truthy(near(F.pad(x, { 2, 2 }, "reflect"), { { { 3, 2, 1, 2, 3, 2, 1 } } }))
    assert.truthy(near(F.pad(x, { 2, 1 }, "replicate"), { { { 1, 1, 1, 2, 3, 3 } } }))
    assert.truthy(near(F.pad(x, { 3, 3 }, "circular"), { { { 1, 2, 3, 1, 2, 3, 1, 2, 3 } } }))
  end)
  it("pads integer tensors, truncating the value as torch", function()
    assert.same({ 3, 1, 2, 3 }, F.pad(lt.tensor({ 1, 2, 3 }), { 1, 0 }, "constant", 3.7):tolist())
  end)
  it("raises for pads the mode cannot make", function()
    raises("pad: reflect pad (3, 0) must be below the size 3", F.pad, x, { 3, 0 }, "reflect")
    raises("pad: circular pad", F.pad, x, { 4, 0 }, "circular")
    raises("pad: pad must have an even number of sizes", F.pad, x, { 1 })
    raises("pad: mode 'reflect' takes no value", F.pad, x, { 1, 1 }, "reflect", 2)
    raises("pad: mode must be", F.pad, x, { 1, 1 }, "mirror")
    raises("pad: 1-d input cannot be padded on 1 dims in this mode", F.pad, lt.ones(3), { 1, 1 },
      "replicate")
  end)
end)

describe("interpolate", function()
  local x = f32({ { { { 1, 2 }, { 3, 4 } } } })
  it("repeats the nearest sample by default", function()
    assert.truthy(near(F.interpolate(x, nil, 2),
      { { { { 1, 1, 2, 2 }, { 1, 1, 2, 2 }, { 3, 3, 4, 4 }, { 3, 3, 4, 4 } } } }))
  end)
  it("repeats the nearest sample of any dtype (uint8 images, int64 labels, masks)", function()
    local u = lt.tensor({ { { { 10, 20 }, { 30, 40 } } } }, "uint8")
    local up = F.interpolate(u, nil, 2)
    assert.equal("uint8", up.dtype)
    assert.same({ { { { 10, 10, 20, 20 }, { 10, 10, 20, 20 }, { 30, 30, 40, 40 },
      { 30, 30, 40, 40 } } } }, up:tolist())
    assert.same({ { { 10, 20, 20 } } }, F.interpolate(u[1]:narrow(2, 1, 1):view(1, 1, 2),
      3, nil, "nearest-exact"):tolist())
    local labels = lt.tensor({ { { 1, 7, 3 } } }, "int64")
    assert.same({ { { 1, 1, 7, 7, 3, 3 } } }, F.interpolate(labels, 6):tolist())
    local mask = lt.tensor({ { { true, false } } })
    assert.same({ { { true, true, false, false } } }, F.interpolate(mask, nil, 2):tolist())
    local lt2 = lt.tensor({ { { 1, 2 }, { 7, 8 }, { 3, 4 } } }, "int64"):transpose(2, 3)
    assert.same({ { { 1, 7 }, { 2, 8 } } }, F.interpolate(lt2, 2):tolist())
    raises("interpolate: input: expected a floating-point tensor, got uint8", F.interpolate, u,
      nil, 2, "bilinear")
  end)
  it("interpolates bilinearly with and without align_corners", function()
    assert.truthy(near(F.interpolate(x, { 3, 3 }, nil, "bilinear", true),
      { { { { 1, 1.5, 2 }, { 2, 2.5, 3 }, { 3, 3.5, 4 } } } }))
    assert.truthy(near(F.interpolate(x, { size = { 1, 4 }, mode = "bilinear" }),
      { { { { 2, 2.25, 2.75, 3 } } } }))
  end)
  it("antialiases bilinear and bicubic downsampling as torch (a stretched filter, normalized)", function()
    local a = lt.arange(16):double():view(1, 1, 4, 4)
    assert.truthy(near(F.interpolate(a, { 2, 2 }, nil, "bilinear", nil, nil, true),
      { { { { 25 / 7, 36 / 7 }, { 69 / 7, 80 / 7 } } } }))
    assert.truthy(near(F.interpolate(a, { size = { 2, 2 }, mode = "bilinear", align_corners = true,
      antialias = true }), { { { { 6.25, 23 / 3 }, { 11.9166666666667, 13.3333333333333 } } } }))
    local up = F.interpolate(a, { size = { 8, 8 }, mode = "bicubic", antialias = true })
    assert.same({ 1, 1, 8, 8 }, up.shape)
    raises("interpolate: antialias is only supported for the modes bilinear and bicubic",
      F.interpolate, a, { size = 2, antialias = true })
    raises("interpolate: antialias is only supported for the modes bilinear and bicubic",
      F.interpolate, a:view(1, 4, 4), { size = 2, mode = "linear", antialias = true })
  end)
  it("averages the bins of adaptive pooling in mode area", function()
    assert.truthy(near(F.interpolate(x, 1, nil, "area"), { { { { 2.5 } } } }))
  end)
  it("keeps float64 and the empty batch", function()
    assert.equal("float64", F.interpolate(x:double(), nil, 2, "bicubic").dtype)
    assert.same({ 0, 3, 8 }, F.interpolate(lt.ones(0, 3, 4), nil, 2, "linear").shape)
  end)
  it("raises as torch for a mode of other dims, integers and ambiguous sizes", function()
    raises("interpolate: mode 'bilinear' needs a 4-d input, got 3-d", F.interpolate,
      lt.ones(1, 1, 2), 4, nil, "bilinear")
    raises("interpolate: input: expected a floating-point tensor, got int64", F.interpolate,
      lt.ones(1, 1, 2, "int64"), 4, nil, "linear")
    raises("interpolate: give exactly one of size and scale_factor", F.interpolate, x, 2, 2)
    raises("interpolate: align_corners can only be set", F.interpolate, x, 2, nil, "nearest",
      false)
    raises("interpolate: size has 3 sizes for the 2 spatial dims", F.interpolate, x, { 1, 2, 3 })
    raises("interpolate: input and output sizes must be greater than 0", F.interpolate, x, nil,
      0.1)
  end)
end)

describe("layer_norm, group_norm, rms_norm", function()
  local x = f32({ { 1, 2, 3, 4 }, { 2, 2, 2, 2 } })
  it("layer_norm subtracts the mean and divides by sqrt(var + eps) over normalized_shape", function()
    local s = 1 / math.sqrt(1.25 + 1e-5)
    assert.truthy(near(F.layer_norm(x, { 4 }),
      { { -1.5 * s, -0.5 * s, 0.5 * s, 1.5 * s }, { 0, 0, 0, 0 } }, 1e-4))
    local r = F.layer_norm(x, 4, lt.full({ 4 }, 2.0), lt.ones(4))
    assert.truthy(near(r[2], { 1, 1, 1, 1 }))
  end)
  it("group_norm normalizes groups of channels, then weight and bias per channel", function()
    local r = F.group_norm(f32({ { { 1, 3 }, { 5, 7 } } }), 2, f32({ 1, 10 }),
      f32({ 0, 1 }), 0)
    assert.truthy(near(r, { { { -1, 1 }, { -9, 11 } } }))
  end)
  it("rms_norm divides by the root mean square (eps: the dtype's machine epsilon)", function()
    local r = F.rms_norm(lt.tensor({ { 3, 4 } }, "float64"), { 2 })
    local rms = math.sqrt(12.5 + 2.220446049250313e-16)
    assert.truthy(near(r, { { 3 / rms, 4 / rms } }, 1e-14))
  end)
  it("raise for shapes that do not match and integer inputs", function()
    raises("layer_norm: input of shape [2, 4] does not end in normalized_shape [3]",
      F.layer_norm, x, { 3 })
    raises("layer_norm: weight must have shape [4], got [3]", F.layer_norm, x, { 4 }, lt.ones(3))
    raises("layer_norm: input: expected a floating-point tensor, got int64", F.layer_norm,
      lt.ones(2, 4, "int64"), { 4 })
    raises("group_norm: num_groups 3 must be positive and divide the 4 channels", F.group_norm,
      lt.ones(1, 4, 2), 3)
  end)
end)

describe("batch_norm", function()
  local x = f32({ { 1, 10 }, { 3, 30 } })
  it("normalizes with the running statistics when not training", function()
    local r = F.batch_norm(x, f32({ 1, 10 }), f32({ 4, 100 }), nil, nil, false, 0.1, 0)
    assert.truthy(near(r, { { 0, 0 }, { 1, 2 } }))
  end)
  it("uses the batch's statistics when training and updates the running ones in place", function()
    local rm, rv = lt.zeros(2), lt.ones(2)
    local r = F.batch_norm(x, rm, rv, nil, nil, true, 0.5, 0)
    assert.truthy(near(r, { { -1, -1 }, { 1, 1 } }))
    assert.truthy(near(rm, { 1, 10 }))
    assert.truthy(near(rv, { 1.5, 100.5 })) -- the unbiased variances 2 and 200
  end)
  it("raises without running statistics in inference and with one value per channel", function()
    raises("batch_norm: running_mean and running_var are required", F.batch_norm, x)
    raises("batch_norm: expected more than 1 value per channel when training", F.batch_norm,
      lt.ones(1, 2), nil, nil, nil, nil, true)
    raises("batch_norm: running_mean must have shape [2], got [3]", F.batch_norm, x,
      lt.zeros(3), lt.ones(2))
  end)
end)

describe("embedding", function()
  local w = lt.tensor({ { 1, 1 }, { 2, 2 }, { 3, 4 } })
  it("selects the rows at 1-based indices, in the indices' shape", function()
    assert.same({ { { 3, 4 }, { 1, 1 } } }, F.embedding(lt.tensor({ { 3, 1 } }), w:float()):tolist())
  end)
  it("scales the rows named that exceed max_norm, in the weight itself", function()
    local wf = w:float()
    F.embedding(lt.tensor({ 3 }), wf, nil, 1)
    assert.truthy(near(wf[3], { 0.6, 0.8 }, 1e-5))
    assert.truthy(near(wf[2], { 2, 2 }))
  end)
  it("raises for index 0 saying indices are 1-based, and for float indices", function()
    raises("embedding: index 0 is out of range 1 to 3 (indices are 1-based)", F.embedding,
      lt.tensor({ 0 }), w)
    raises("embedding: input must be an int64 or int32 tensor", F.embedding, lt.ones(2), w)
    raises("embedding: padding_idx 4 must be within num_embeddings 3", F.embedding,
      lt.tensor({ 1 }), w, 4)
  end)
end)

describe("dropout", function()
  it("zeroes elements with probability p and scales the rest by 1 / (1 - p)", function()
    local r = F.dropout(lt.ones(1000), 0.25, { generator = lt.Generator(1) })
    local zeros, others = 0, 0
    for i = 1, 1000 do
      if r[i] == 0 then zeros = zeros + 1 else others = others + 1; assert.near(4 / 3, r[i], 1e-6) end
    end
    assert.truthy(zeros > 180 and zeros < 320, zeros)
  end)
  it("draws the same zeros from generators of one seed", function()
    local a = F.dropout(lt.ones(64), 0.5, true, false, { generator = lt.Generator(9) })
    local b = F.dropout(lt.ones(64), { generator = lt.Generator(9) })
    assert.same(a:tolist(), b:tolist())
  end)
  it("returns the input itself when not training or p is 0, and writes it when inplace", function()
    local x = lt.ones(4)
    assert.equal(x, F.dropout(x, 0.5, false))
    assert.equal(x, F.dropout(x, 0))
    assert.equal(x, F.dropout(x, 1, true, true))
    assert.same({ 0, 0, 0, 0 }, x:tolist())
  end)
  it("raises for p outside [0, 1] and integer inputs", function()
    raises("dropout: p must be between 0 and 1, got 1.5", F.dropout, lt.ones(2), 1.5)
    raises("dropout: input: expected a floating-point tensor, got int64", F.dropout, lt.ones(2, "int64"))
    raises("dropout: generator must be a Generator", F.dropout, lt.ones(2), { generator = 1 })
  end)
end)

describe("scaled_dot_product_attention", function()
  local q = f32({ { 1, 0 }, { 0, 1 } })
  local v = f32({ { 1, 2 }, { 3, 4 } })
  it("is softmax(q k^T / sqrt(E)) v", function()
    local a = math.exp(1 / math.sqrt(2))
    local p = a / (a + 1)
    assert.truthy(near(F.scaled_dot_product_attention(q, q, v),
      { { p + 3 * (1 - p), 2 * p + 4 * (1 - p) }, { p * 3 + (1 - p), 4 * p + 2 * (1 - p) } }))
  end)
  it("attends only to earlier positions with is_causal, and only where a bool mask is true", function()
    local r = F.scaled_dot_product_attention(q, q, v, nil, 0, true)
    assert.truthy(near(r[1], { 1, 2 }))
    local m = lt.tensor({ { false, true }, { true, false } })
    assert.truthy(near(F.scaled_dot_product_attention(q, q, v, m), { { 3, 4 }, { 1, 2 } }))
  end)
  it("adds a float mask and takes scale as an option", function()
    local big = f32({ { 0, -1e9 }, { -1e9, 0 } })
    assert.truthy(near(F.scaled_dot_product_attention(q, q, v, { attn_mask = big, scale = 3 }),
      { { 1, 2 }, { 3, 4 } }))
  end)
  it("raises for mismatched sizes and a mask with is_causal", function()
    raises("scaled_dot_product_attention: query of shape [2, 2] and key of shape [2, 3]",
      F.scaled_dot_product_attention, q, lt.ones(2, 3), v)
    raises("scaled_dot_product_attention: attn_mask and is_causal cannot both be given",
      F.scaled_dot_product_attention, q, q, v, lt.ones(2, 2), 0, true)
  end)
end)

describe("one_hot", function()
  it("puts class k (1-based) in column k; num_classes defaults to the largest value", function()
    assert.same({ { 0, 0, 1 }, { 1, 0, 0 } }, F.one_hot(lt.tensor({ 3, 1 })):tolist())
    assert.same({ 2, 4 }, F.one_hot(lt.tensor({ 3, 1 }), 4).shape)
    assert.equal("int64", F.one_hot(lt.tensor({ 1 })).dtype)
  end)
  it("raises for class 0 and values past num_classes", function()
    raises("one_hot: class value 0 is out of range 1 to 2 (indices are 1-based)", F.one_hot,
      lt.tensor({ 0, 2 }))
    raises("one_hot: class value 5 is out of range 1 to 4", F.one_hot, lt.tensor({ 5 }), 4)
    raises("one_hot: input must be an int64 tensor", F.one_hot, lt.ones(2))
    raises("one_hot: cannot infer num_classes from an empty tensor", F.one_hot,
      lt.empty(0, "int64"))
  end)
end)

describe("normalize, cosine_similarity, pairwise_distance", function()
  local a = f32({ { 3, 4 }, { 0, 0 } })
  it("normalize divides by the p-norm along dim 2 by default (eps keeps zeros)", function()
    assert.truthy(near(F.normalize(a), { { 0.6, 0.8 }, { 0, 0 } }))
    assert.truthy(near(F.normalize(a, 1, 1), { { 1, 1 }, { 0, 0 } }))
    raises("normalize: dim 3 out of range", F.normalize, a, 2, 3)
  end)
  it("cosine_similarity is the cosine along dim 2, broadcast", function()
    assert.truthy(near(F.cosine_similarity(a, f32({ 4, -3 })), { 0, 0 }))
    assert.truthy(near(F.cosine_similarity(a, f32({ { 6, 8 } }), 2), { 1, 0 }))
    raises("cosine_similarity: x1 of shape [2, 2] and x2 of shape [3] do not broadcast",
      F.cosine_similarity, a, lt.ones(3))
  end)
  it("pairwise_distance is the p-norm of x1 - x2 + eps along the last dim", function()
    assert.truthy(near(F.pairwise_distance(a, lt.zeros(2, 2), 2, 0), { 5, 0 }))
    assert.same({ 2, 1 }, F.pairwise_distance(a, a, 2, 1e-6, true).shape)
    raises("pairwise_distance: x1: expected a floating-point tensor, got int64", F.pairwise_distance,
      lt.ones(2, "int64"), lt.ones(2))
  end)
end)

describe("half-precision inputs", function()
  it("compute in float32 and return their own dtype", function()
    local x = lt.randn(3, 2, 4, 4, { generator = lt.Generator(3) })
    for _, dt in ipairs({ "float16", "bfloat16" }) do
      local h = x:to(dt)
      local cases = {
        { F.layer_norm(h, { 4 }), F.layer_norm(h:float(), { 4 }) },
        { F.group_norm(h, 2), F.group_norm(h:float(), 2) },
        { F.interpolate(h, nil, 2, "bilinear"), F.interpolate(h:float(), nil, 2, "bilinear") },
        { F.scaled_dot_product_attention(h, h, h), F.scaled_dot_product_attention(h:float(),
          h:float(), h:float()) },
      }
      for _, c in ipairs(cases) do
        assert.equal(dt, c[1].dtype)
        assert.is_true(c[1]:float():allclose(c[2]:to(dt):float(), 0, 0))
      end
    end
  end)
end)

describe("batch_norm in training", function()
  it("checks both running statistics before writing either", function()
    local rm, rv = lt.zeros(2), lt.ones(3)
    raises("batch_norm: running_var must have shape [2], got [3]", F.batch_norm,
      lt.tensor({ { 1, 10 }, { 3, 30 } }, "float32"), rm, rv, nil, nil, true)
    assert.same({ 0, 0 }, rm:tolist())
  end)
end)
