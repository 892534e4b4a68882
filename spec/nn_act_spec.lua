-- lt.nn.functional's activations and losses (issue 28): torch.nn.functional's names, positional
-- order, defaults and results; every optional argument positionally or in a trailing options
-- table; class indices 1-based. The expected values are computed here in Lua from torch's
-- definitions; spec/c/torch_host_nn_act.h compares with torch itself.
local lt = require "ltensor"
local F = require "ltensor.nn.functional"
local helpers = require "helpers"
local raises, near = helpers.raises, helpers.near

local XS = { -5, -3, -1.5, -0.25, 0, 0.5, 2, 3.5, 25 }

-- f applied to each of XS (a list).
local function map(f)
  local r = {}
  for i, x in ipairs(XS) do r[i] = f(x) end
  return r
end
local function log1p(x) return math.log(1 + x) end
local function expm1(x) return math.exp(x) - 1 end
local function sigmoid(x) return 1 / (1 + math.exp(-x)) end

describe("lt.nn.functional's activations", function()
  local x64 = function() return lt.tensor(XS, "float64") end

  it("are the functions torch.nn.functional names, in the same table as require gives", function()
    assert.equal(lt.nn.functional, F)
    for _, n in ipairs({ "leaky_relu", "elu", "selu", "celu", "softplus", "hardtanh", "relu6",
      "hardswish", "hardsigmoid", "mish", "softmin", "glu", "logsigmoid", "softsign",
      "tanhshrink", "threshold", "relu", "gelu", "silu", "sigmoid", "tanh", "softmax",
      "log_softmax" }) do
      assert.equal("function", type(F[n]), n)
    end
  end)

  it("compute torch's formulas, with their defaults", function()
    local cases = {
      { F.leaky_relu, function(x) return x > 0 and x or 0.01 * x end },
      { F.elu, function(x) return x > 0 and x or expm1(x) end },
      { F.celu, function(x) return x > 0 and x or expm1(x) end },
      { F.selu, function(x)
        local scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
        return scale * (x > 0 and x or alpha * expm1(x))
      end },
      { F.softplus, function(x) return x > 20 and x or log1p(math.exp(x)) end },
      { F.hardtanh, function(x) return math.min(math.max(x, -1), 1) end },
      { F.relu6, function(x) return math.min(math.max(x, 0), 6) end },
      { F.hardswish, function(x) return x * math.min(math.max(x + 3, 0), 6) / 6 end },
      { F.hardsigmoid, function(x) return math.min(math.max(x + 3, 0), 6) / 6 end },
      { F.mish, function(x)
        local sp = log1p(math.exp(x))
        return x * (math.exp(2 * sp) - 1) / (math.exp(2 * sp) + 1)
      end },
      { F.logsigmoid, function(x) return math.log(sigmoid(x)) end },
      { F.softsign, function(x) return x / (1 + math.abs(x)) end },
      { F.tanhshrink, function(x) return x - (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1) end },
      { F.relu, function(x) return math.max(x, 0) end },
      { F.silu, function(x) return x * sigmoid(x) end },
      { F.sigmoid, sigmoid },
    }
    for i, c in ipairs(cases) do near(map(c[2]), c[1](x64()):tolist(), 1e-12, "case " .. i) end
  end)

  it("take their parameters positionally or by torch's name in an options table", function()
    near(map(function(x) return x > 0 and x or 0.2 * x end), F.leaky_relu(x64(), 0.2):tolist())
    near(F.leaky_relu(x64(), 0.2):tolist(), F.leaky_relu(x64(), { negative_slope = 0.2 }):tolist())
    near(map(function(x) return x > 0 and x or 2 * expm1(x / 2) end), F.celu(x64(), 2):tolist())
    near(map(function(x) return x > 0 and x or 0.5 * expm1(x) end),
      F.elu(x64(), { alpha = 0.5 }):tolist())
    near(map(function(x) return 2 * x > 3 and x or log1p(math.exp(2 * x)) / 2 end),
      F.softplus(x64(), 2, 3):tolist())
    near(map(function(x) return math.min(math.max(x, -2), 0.5) end),
      F.hardtanh(x64(), { min_val = -2, max_val = 0.5 }):tolist())
    near(map(function(x) return x <= 0.5 and -7 or x end), F.threshold(x64(), 0.5, -7):tolist())
    raises("given twice", F.leaky_relu, x64(), 0.2, { negative_slope = 0.3 })
    raises("unknown option 'slope'", F.leaky_relu, x64(), { slope = 0.3 })
    raises("threshold: threshold is required", F.threshold, x64())
    raises("alpha must be a number", F.elu, x64(), "big")
  end)

  it("write the input and return it with inplace = true, as torch", function()
    local t = lt.tensor({ -2.0, 3 })
    assert.equal(t, F.leaky_relu(t, 0.5, true))
    assert.same({ -1, 3 }, t:tolist())
    assert.equal(t, F.relu(t, { inplace = true }))
    assert.same({ 0, 3 }, t:tolist())
    local dlpack = require "ltensor.dlpack"
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.tensor({ -1.0, 1 })))
    raises("read%-only", F.hardtanh, ro, -0.5, 0.5, true)
    raises("read%-only", F.relu6, ro, true)
    assert.same({ -0.5, 0.5 }, F.hardtanh(ro, -0.5, 0.5):tolist())
  end)

  it("gelu takes approximate = 'tanh' and raises on another mode", function()
    local t = lt.tensor({ -1, 0.5, 2 }, "float64")
    local k = math.sqrt(2 / math.pi)
    local want = {}
    for i, x in ipairs({ -1, 0.5, 2 }) do
      local u = k * (x + 0.044715 * x ^ 3)
      want[i] = 0.5 * x * (1 + (math.exp(2 * u) - 1) / (math.exp(2 * u) + 1))
    end
    near(want, F.gelu(t, "tanh"):tolist())
    near(want, F.gelu(t, { approximate = "tanh" }):tolist())
    raises("approximate must be 'none' or 'tanh'", F.gelu, t, "fast")
  end)

  it("keep NaN, as torch", function()
    local t = lt.tensor({ 0 / 0 })
    for _, n in ipairs({ "relu6", "hardtanh", "threshold", "leaky_relu", "elu", "mish" }) do
      local r = n == "threshold" and F[n](t, 0, 1) or F[n](t)
      assert.is_true(r[1] ~= r[1], n)
    end
  end)

  it("keep the dtype: float16 and bfloat16 compute in float32, integers only where torch takes them", function()
    local h = F.elu(lt.tensor({ -1, 2 }, "float16"))
    assert.equal("float16", h.dtype)
    near({ expm1(-1), 2 }, h:float():tolist(), 1e-3)
    assert.equal("bfloat16", F.selu(lt.tensor({ 1 }, "bfloat16")).dtype)
    local i = lt.tensor({ -3, -1, 0, 2, 7 })
    assert.same({ -1, -1, 0, 1, 1 }, F.hardtanh(i, -1.5, 1.5):tolist()) -- limits truncated
    assert.equal("int64", F.hardtanh(i).dtype)
    assert.same({ 0, 0, 0, 2, 6 }, F.relu6(i):tolist())
    assert.same({ 5, 5, 5, 2, 7 }, F.threshold(i, 1.5, 5):tolist())
    assert.equal("float32", F.softsign(i).dtype)
    raises("not supported for int64", F.elu, i)
    raises("not supported for int64", F.mish, i)
    raises("not supported for bool", F.relu6, lt.tensor({ true }))
    raises("cannot be converted to uint8", F.hardtanh, lt.tensor({ 1 }, "uint8"), -1, 1)
    raises("value 300 cannot be converted to int8", F.threshold, lt.tensor({ 1 }, "int8"), 1, 300)
    raises("celu: alpha cannot be 0", F.celu, lt.tensor({ 1.0 }), 0)
  end)

  it("work on empty, 0-d and non-contiguous tensors", function()
    assert.same({ 0, 3 }, F.leaky_relu(lt.zeros(0, 3)).shape)
    assert.equal(0, F.selu(lt.tensor(0.0)).ndim)
    local t = lt.tensor({ { -1, 2 }, { 3, -4 } }, "float64"):t()
    near({ { -0.01, 3 }, { 2, -0.04 } }, F.leaky_relu(t):tolist())
    near({ { 0, 3 }, { 2, 0 } }, F.relu6(t):tolist())
  end)

  it("softmax, log_softmax and softmin take dim (1-based), torch's implicit dim and a dtype", function()
    local t = lt.tensor({ { 1, 2 }, { 3, 5 } }, "float64")
    local function sm(a, b) return { math.exp(a) / (math.exp(a) + math.exp(b)),
      math.exp(b) / (math.exp(a) + math.exp(b)) } end
    near({ sm(1, 2), sm(3, 5) }, F.softmax(t, 2):tolist())
    near({ sm(1, 2), sm(3, 5) }, F.softmax(t):tolist()) -- 2-d: the 2nd dim
    near(sm(1, 2), F.softmax(lt.tensor({ 1, 2 }, "float64")):tolist()) -- 1-d: the 1st
    near({ sm(-1, -2), sm(-3, -5) }, F.softmin(t, -1):tolist())
    local ls = F.log_softmax(t, { dim = 1 })
    near(math.log(math.exp(1) / (math.exp(1) + math.exp(3))), ls[1][1])
    assert.equal("float64", F.softmax(lt.tensor({ 1, 2 }), 1, nil, "float64").dtype)
    assert.equal("float64", F.softmin(lt.tensor({ 1, 2 }), { dim = 1, dtype = "float64" }).dtype)
    raises("^softmax: dim 3 out of range %(expected 1 to 2%)", F.softmax, t, 3)
    raises("^softmin: dim 0 out of range .*1%-based", F.softmin, t, 0)
    raises("^log_softmax: dim must be an integer, got a non%-integer number", F.log_softmax, t,
           { dim = 1.5 })
  end)

  it("glu halves dim (the last by default): a * sigmoid(b)", function()
    local t = lt.tensor({ { 1, 2, 3, 4 } }, "float64")
    near({ { 1 * sigmoid(3), 2 * sigmoid(4) } }, F.glu(t):tolist())
    near({ { { 1 * sigmoid(3), 2 * sigmoid(4) } } }, F.glu(t:view(1, 2, 2), 2):tolist())
    raises("halving dimension must be even, but dim 2 is size 3", F.glu, lt.zeros(2, 3))
    raises("0%-d", F.glu, lt.tensor(1.0))
    raises("not supported for int64", F.glu, lt.tensor({ 1, 2 }))
    raises("^glu: dim %-3 out of range %(expected 1 to 2%)", F.glu, lt.zeros(2, 4), -3)
  end)

  it("have torch's module forms where torch has torch.f: lt.selu, lt.celu, lt.threshold", function()
    local t = lt.tensor({ -1, 2 }, "float64")
    assert.same(F.selu(t):tolist(), lt.selu(t):tolist())
    assert.same(F.celu(t, 2):tolist(), lt.celu(t, 2):tolist())
    assert.same({ 9, 2 }, lt.threshold(t, 0, 9):tolist())
    raises("too many arguments", lt.selu, t, true)
  end)
end)

describe("lt.nn.functional's losses", function()
  local x = function() return lt.tensor({ { 0.5, -1 }, { 2, 3 } }, "float64") end
  local y = function() return lt.tensor({ { 1, 1 }, { 0, 3.5 } }, "float64") end
  local D = { -0.5, -2, 2, -0.5 }

  local function reduce(v, how)
    local s = 0
    for _, e in ipairs(v) do s = s + e end
    return how == "sum" and s or s / #v
  end
  local function flat(t) return t:reshape(-1):tolist() end

  it("mse_loss, l1_loss, smooth_l1_loss and huber_loss reduce by mean, sum or none", function()
    local sq, ab, sl, hu = {}, {}, {}, {}
    for i, d in ipairs(D) do
      sq[i], ab[i] = d * d, math.abs(d)
      sl[i] = math.abs(d) < 1 and 0.5 * d * d or math.abs(d) - 0.5
      hu[i] = math.abs(d) <= 1.5 and 0.5 * d * d or 1.5 * (math.abs(d) - 0.75)
    end
    near(reduce(sq), F.mse_loss(x(), y()):item())
    near(reduce(ab, "sum"), F.l1_loss(x(), y(), { reduction = "sum" }):item())
    near(sl, flat(F.smooth_l1_loss(x(), y(), nil, nil, "none")))
    near(reduce(hu), F.huber_loss(x(), y(), "mean", 1.5):item())
    near(reduce(ab), F.smooth_l1_loss(x(), y(), { beta = 0 }):item()) -- beta 0: l1
    assert.equal(0, F.mse_loss(x(), y()).ndim)
    raises("beta must not be negative", F.smooth_l1_loss, x(), y(), { beta = -1 })
    raises("delta must be positive", F.huber_loss, x(), y(), "mean", 0)
    raises("reduction must be 'none', 'mean' or 'sum', got 'avg'", F.mse_loss, x(), y(), { reduction = "avg" })
  end)

  it("honour torch's deprecated size_average and reduce", function()
    near(reduce({ 0.25, 4, 4, 0.25 }, "sum"), F.mse_loss(x(), y(), false):item())
    assert.same({ 2, 2 }, F.mse_loss(x(), y(), nil, false).shape)
  end)

  it("broadcast input and target where torch does, and give NaN for the mean of nothing", function()
    near({ { 0.25, 0.25 }, { 1, 4 } }, F.mse_loss(lt.tensor({ { 0.5 }, { 2 } }, "float64"),
      lt.tensor({ 1, 0 }, "float64"), { reduction = "none" }):tolist())
    local e = F.mse_loss(lt.zeros(0), lt.zeros(0)):item()
    assert.is_true(e ~= e)
  end)

  it("binary_cross_entropy clamps its logs at -100, weighs, and wants input in [0, 1]", function()
    local p = lt.tensor({ 0.25, 0, 1 }, "float64")
    local t = lt.tensor({ 1, 1, 0 }, "float64")
    near({ -math.log(0.25), 100, 100 }, F.binary_cross_entropy(p, t, nil, nil, nil, "none"):tolist())
    near(2 * (-math.log(0.25) + 200) / 3,
      F.binary_cross_entropy(p, t, lt.tensor({ 2 }, "float64")):item())
    raises("all elements of input should be between 0 and 1", F.binary_cross_entropy,
      lt.tensor({ 1.5 }), lt.tensor({ 1 }))
    raises("target of shape %[1%] must be the input's shape %[2%]", F.binary_cross_entropy,
      lt.tensor({ 0.5, 0.5 }), lt.tensor({ 1 }))
  end)

  it("binary_cross_entropy_with_logits is stable and takes pos_weight", function()
    local z = lt.tensor({ -200, 0.5, 200 }, "float64")
    local t = lt.tensor({ 1, 0, 1 }, "float64")
    local l = F.binary_cross_entropy_with_logits(z, t, { reduction = "none" }):tolist()
    near({ 200, log1p(math.exp(0.5)), 0 }, l)
    local pw = lt.tensor({ 3 }, "float64")
    local lp = F.binary_cross_entropy_with_logits(lt.tensor({ 0.5 }, "float64"), lt.tensor({ 1 }, "float64"),
      nil, nil, nil, "sum", pw):item()
    near(-3 * math.log(sigmoid(0.5)), lp)
  end)

  it("kl_div takes log-probabilities, log_target and 'batchmean'", function()
    local lp = lt.tensor({ { -1, -2 }, { -0.5, -3 } }, "float64")
    local q = lt.tensor({ { 0.3, 0 }, { 0.6, 0.4 } }, "float64")
    local none = { 0.3 * (math.log(0.3) + 1), 0, 0.6 * (math.log(0.6) + 0.5), 0.4 * (math.log(0.4) + 3) }
    near(none, flat(F.kl_div(lp, q, { reduction = "none" })))
    near(reduce(none, "sum") / 2, F.kl_div(lp, q, nil, nil, "batchmean"):item())
    local lq = lt.tensor({ { -1, -1 } }, "float64")
    near(math.exp(-1) * 0 + math.exp(-1) * 1, F.kl_div(lt.tensor({ { -1, -2 } }, "float64"), lq,
      { reduction = "sum", log_target = true }):item())
    raises("reduction must be 'none', 'mean' or 'sum', got 'batchmean'", F.mse_loss, lp, q, { reduction = "batchmean" })
  end)

  local logits = function() return lt.tensor({ { 1, 2, 3 }, { 0.5, -1, 2 }, { 0, 0, 0 } }, "float64") end
  local function logsm(row)
    local s = 0
    for _, v in ipairs(row) do s = s + math.exp(v) end
    local r = {}
    for i, v in ipairs(row) do r[i] = v - math.log(s) end
    return r
  end

  it("nll_loss takes 1-based class indices, weights and ignore_index", function()
    local lp = F.log_softmax(logits(), 2)
    local rows = lp:tolist()
    local t = lt.tensor({ 3, 1, 2 })
    near(-(rows[1][3] + rows[2][1] + rows[3][2]) / 3, F.nll_loss(lp, t):item())
    local w = lt.tensor({ 1, 2, 4 }, "float64")
    near(-(4 * rows[1][3] + 1 * rows[2][1] + 2 * rows[3][2]) / 7, F.nll_loss(lp, t, w):item())
    near(-(4 * rows[1][3] + 2 * rows[3][2]) / 6,
      F.nll_loss(lp, lt.tensor({ 3, -100, 2 }), w):item())
    near(-(rows[1][3] + rows[3][2]) / 2, F.nll_loss(lp, lt.tensor({ 3, 1, 2 }), nil, nil, 1):item())
    near({ -rows[1][3], 0, -rows[3][2] }, F.nll_loss(lp, lt.tensor({ 3, 7, 2 }),
      { ignore_index = 7, reduction = "none" }):tolist())
    raises("target 0 is out of bounds %(class indices are 1%-based: 1 to 3%)", F.nll_loss, lp, lt.tensor({ 0, 1, 1 }))
    raises("target 4 is out of bounds", F.nll_loss, lp, lt.tensor({ 4, 1, 1 }))
    raises("target must be an integer tensor of class indices", F.nll_loss, lp, lt.tensor({ 1.0, 2, 3 }))
    raises("weight of shape %[2%] must be one per class: %[3%]", F.nll_loss, lp, t, lt.ones(2, "float64"))
    raises("target of shape %[2%] must be the input's shape without its class dim %[3%]", F.nll_loss, lp, lt.tensor({ 1, 2 }))
  end)

  it("cross_entropy is nll_loss of log_softmax over dim 2, with label_smoothing", function()
    local l = logits()
    local rows = l:tolist()
    local t = lt.tensor({ 3, 1, 2 })
    local a, b, c = logsm(rows[1]), logsm(rows[2]), logsm(rows[3])
    near(-(a[3] + b[1] + c[2]) / 3, F.cross_entropy(l, t):item())
    local ls, nll = 0.3, -(a[3] + b[1] + c[2]) / 3
    local smooth = -(a[1] + a[2] + a[3] + b[1] + b[2] + b[3] + c[1] + c[2] + c[3]) / 3
    near((1 - ls) * nll + ls / 3 * smooth, F.cross_entropy(l, t, { label_smoothing = ls }):item())
    near(-a[2], F.cross_entropy(lt.tensor(rows[1], "float64"), lt.tensor(2)):item()) -- unbatched
    raises("label_smoothing must be between 0.0 and 1.0, got 1.5", F.cross_entropy, l, t, { label_smoothing = 1.5 })
  end)

  it("cross_entropy takes class probabilities of the input's shape", function()
    local l = logits()
    local rows = l:tolist()
    local q = lt.tensor({ { 0.2, 0.3, 0.5 }, { 1, 0, 0 }, { 0, 0.5, 0.5 } }, "float64")
    local qs = q:tolist()
    local s = 0
    for i = 1, 3 do
      local lp = logsm(rows[i])
      for k = 1, 3 do s = s - qs[i][k] * lp[k] end
    end
    near(s / 3, F.cross_entropy(l, q):item())
    near(s, F.cross_entropy(l, q, { reduction = "sum" }):item())
    raises("target of class probabilities of shape %[3%] must be the input's shape", F.cross_entropy, l, lt.tensor({ 0.1, 0.2, 0.7 }, "float64"))
  end)

  it("cross_entropy takes N x C x d1 ... logits with N x d1 ... targets", function()
    local l = lt.tensor({ { { 1, 0 }, { 0, 2 } } }, "float64") -- 1 x 2 x 2
    local t = lt.tensor({ { 1, 2 } })
    local a, b = logsm({ 1, 0 }), logsm({ 0, 2 })
    near({ { -a[1], -b[2] } }, F.cross_entropy(l, t, { reduction = "none" }):tolist())
  end)

  it("refuse integer inputs and bad shapes, naming the function", function()
    raises("mse_loss: not supported for int64", F.mse_loss, lt.tensor({ 1 }), lt.tensor({ 1 }))
    raises("cross_entropy: input must have a class dim", F.cross_entropy, lt.tensor(1.0), lt.tensor(1))
    raises("target must be a tensor, got number", F.l1_loss, lt.tensor({ 1.0 }), 1)
    raises("too many arguments", F.huber_loss, x(), y(), "mean", 1, {}, 3)
    assert.equal("float32", F.mse_loss(lt.tensor({ 1.0 }), lt.tensor({ 2 })).dtype)
    assert.equal("float64", F.mse_loss(lt.tensor({ 1.0 }), lt.tensor({ 2 }, "float64")).dtype)
  end)

  it("sums the losses of a large input to the same value at every thread count", function()
    local g = lt.Generator(7)
    local a, b = lt.randn({ 300, 1000 }, { generator = g }), lt.randn({ 300, 1000 }, { generator = g })
    local w = lt.rand({ 1000 }, { generator = g })
    local threads = lt.get_num_threads()
    local function all()
      return { F.mse_loss(a, b):item(), F.l1_loss(a, b, { reduction = "sum" }):item(),
        F.binary_cross_entropy_with_logits(a, b:sigmoid(), { pos_weight = w }):item(),
        F.huber_loss(a:double(), b:double(), "mean", 0.5):item() }
    end
    lt.set_num_threads(1)
    local one = all()
    lt.set_num_threads(math.max(2, threads))
    local many = all()
    lt.set_num_threads(threads)
    assert.same(one, many)
    local d = (a:double() - b:double())
    near((d * d):mean(), one[1], 1e-6)
    near(d:abs():sum(), one[2], 1e-6)
  end)
end)
