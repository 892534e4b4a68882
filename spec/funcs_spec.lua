-- The elementwise functions of torch beyond the basic math (src/core/ops/lt_funcs.c): sigmoid,
-- relu, gelu, silu, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, log1p, expm1,
-- log2, log10, exp2, trunc, frac, rsqrt, erf, erfc, isnan, isinf, isfinite, nan_to_num, and
-- the binary atan2, fmod, remainder, hypot, lerp; their in-place `_` forms.
--
-- Values are worked out from the definitions (and checked against PyTorch 1.13 by hand; the
-- C cross-check spec/c/torch_host.c compares every function with torch on random data). The
-- dtype rules are torch's: integers and bools give float32 for the floating functions; relu
-- and trunc keep integer dtypes; gelu, silu, frac, hypot and lerp refuse integers; complex
-- inputs are refused except by isnan, isinf and isfinite.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local raises = require("helpers").raises

local inf, nan = math.huge, 0 / 0
local function isnan(x) return x ~= x end

-- every element of t (a 1-d tensor) against the Lua numbers of want (nan matches nan, inf
-- exactly), within a relative tolerance tol (default 1e-6)
local function near(want, t, tol)
  tol = tol or 1e-6
  local got = t:tolist()
  assert.equal(#want, #got)
  for i, w in ipairs(want) do
    local g = got[i]
    if isnan(w) then
      assert.is_true(isnan(g), ("element %d: expected nan, got %s"):format(i, g))
    elseif w == inf or w == -inf or w == 0 then
      assert.equal(w, g, ("element %d"):format(i))
    else
      assert.is_true(math.abs(g - w) <= tol * math.abs(w),
        ("element %d: expected %.9g, got %.9g"):format(i, w, g))
    end
  end
end

local function erf(x) -- the Lua reference: Taylor series (|x| < 3 here), enough for 1e-12
  local s, term, k = 0, x, 0
  repeat
    s = s + term / (2 * k + 1)
    k = k + 1
    term = -term * x * x / k
  until math.abs(term) < 1e-17 and k > 5
  return 2 / math.sqrt(math.pi) * s
end

local function log1p(x) return x == 0 and x or math.log(1 + x) * x / ((1 + x) - 1) end

-- {====== unary: values and special values ======

local xs = { -2.5, -1, -0.25, 0, 0.25, 1, 3 }
local function map(f) local r = {} for i, x in ipairs(xs) do r[i] = f(x) end return r end

local unary = {
  sigmoid = function(x) return 1 / (1 + math.exp(-x)) end,
  silu = function(x) return x / (1 + math.exp(-x)) end,
  gelu = function(x) return 0.5 * x * (1 + erf(x / math.sqrt(2))) end,
  tan = math.tan, atan = math.atan,
  sinh = function(x) return (math.exp(x) - math.exp(-x)) / 2 end,
  cosh = function(x) return (math.exp(x) + math.exp(-x)) / 2 end,
  asinh = function(x) return x < 0 and -math.log(-x + math.sqrt(x * x + 1))
    or math.log(x + math.sqrt(x * x + 1)) end,
  expm1 = function(x) return math.exp(x) - 1 end,
  exp2 = function(x) return 2 ^ x end,
  erf = erf, erfc = function(x) return 1 - erf(x) end,
}

describe("unary functions", function()
  for _, dtype in ipairs({ "float32", "float64" }) do
    local tol = dtype == "float32" and 2e-6 or 1e-11
    for name, f in pairs(unary) do
      it(name .. " on " .. dtype, function()
        local r = lt.tensor(xs, dtype)[name](lt.tensor(xs, dtype))
        assert.equal(dtype, r.dtype)
        -- expm1 near 0 and erfc above 2 lose digits in the Lua reference: loosen there
        near(map(f), r, (name == "expm1" or name == "erfc") and math.max(tol, 1e-7) or tol)
      end)
    end
    it("asin, acos, atanh, acosh, log1p, log2, log10, rsqrt on " .. dtype, function()
      local d = lt.tensor({ -1, -0.5, 0, 0.5, 1 }, dtype)
      near({ -math.pi / 2, math.asin(-0.5), 0, math.asin(0.5), math.pi / 2 }, d:asin(), tol)
      near({ math.pi, math.acos(-0.5), math.pi / 2, math.acos(0.5), 0 }, d:acos(), tol)
      near({ -inf, -0.5 * math.log(3), 0, 0.5 * math.log(3), inf }, d:atanh(), tol)
      local p = lt.tensor({ 0.5, 1, 2, 1e3 }, dtype)
      near({ nan, 0, math.log(2 + math.sqrt(3)), math.log(1e3 + math.sqrt(1e6 - 1)) },
        p:acosh(), tol)
      near({ log1p(0.5), log1p(1), log1p(2), log1p(1e3) }, p:log1p(), tol)
      near({ -1, 0, 1, math.log(1e3, 2) }, p:log2(), tol)
      near({ math.log(0.5, 10), 0, math.log(2, 10), 3 }, p:log10(), tol)
      near({ math.sqrt(2), 1, 1 / math.sqrt(2), 1 / math.sqrt(1e3) }, p:rsqrt(), tol)
    end)
    it("domain edges and special values on " .. dtype, function()
      local t = lt.tensor({ -1, -2, inf, -inf, nan }, dtype)
      near({ -inf, nan, inf, nan, nan }, t:log1p())
      near({ inf, -inf, nan }, lt.tensor({ inf, -inf, nan }, dtype):asinh())
      near({ inf, -inf, nan }, lt.tensor({ 1, -1, 2 }, dtype):atanh())
      near({ nan, 0 }, lt.tensor({ 0.5, 1 }, dtype):acosh())
      near({ 0, 1, 0.5, nan }, lt.tensor({ -inf, inf, 0, nan }, dtype):sigmoid())
      near({ -1, inf, nan }, lt.tensor({ -inf, inf, nan }, dtype):expm1())
      near({ -1, 1, nan }, lt.tensor({ -inf, inf, nan }, dtype):erf())
      near({ 2, 0, nan }, lt.tensor({ -inf, inf, nan }, dtype):erfc())
      near({ nan, inf, nan }, lt.tensor({ -inf, inf, nan }, dtype):silu()) -- as torch
      near({ nan, inf, nan }, lt.tensor({ -inf, inf, nan }, dtype):gelu())
      near({ 0, inf, nan }, lt.tensor({ -inf, inf, nan }, dtype):exp2())
      near({ inf, -inf, nan, 0.5 }, lt.tensor({ 0, -0.0, -1, 4 }, dtype):rsqrt())
      near({ 0, 0, 0.5, nan, inf }, lt.tensor({ -3, -0.0, 0.5, nan, inf }, dtype):relu())
      near({ inf, inf, nan }, lt.tensor({ inf, -inf, nan }, dtype):cosh())
    end)
    it("signed zeros on " .. dtype, function()
      local z = lt.tensor({ -0.0 }, dtype)
      for _, name in ipairs({ "expm1", "log1p", "erf", "tan", "asin", "atan", "sinh", "asinh",
        "atanh", "trunc", "silu" }) do
        local v = z[name](z):item()
        assert.is_true(v == 0 and 1 / v == -inf, name .. "(-0) is -0")
      end
      local r = z:relu():item()
      assert.is_true(r == 0 and 1 / r == inf, "relu(-0) is +0, as torch")
    end)
    it("trunc and frac on " .. dtype, function()
      local t = lt.tensor({ -2.75, -0.5, 0.5, 2.75, inf, nan }, dtype)
      near({ -2, -0.0, 0, 2, inf, nan }, t:trunc())
      near({ -0.75, -0.5, 0.5, 0.75, nan, nan }, t:frac())
    end)
    it("gelu's tanh approximation on " .. dtype, function()
      local function g(x) return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi)
        * (x + 0.044715 * x ^ 3))) end
      near(map(g), lt.tensor(xs, dtype):gelu({ approximate = "tanh" }), tol)
      near(map(unary.gelu), lt.tensor(xs, dtype):gelu({ approximate = "none" }), tol)
    end)
  end

  it("float32 gelu, erfc and sigmoid keep their relative precision far out", function()
    assert.equal(2 ^ -149, lt.tensor({ 10 }):erfc():item()) -- 2.09e-45 rounds to the least float
    near({ 1.5374597944e-12 }, lt.tensor({ 5 }):erfc(), 2e-6)
    near({ 4.539786870243e-05 }, lt.tensor({ -10 }):sigmoid(), 2e-6)
    near({ -7.6198530241605e-23 }, lt.tensor({ -10.0 }):gelu(), 2e-6)
    near({ 1e-30 }, lt.tensor({ 1e-30 }):log1p(), 1e-7)
    near({ 1e-30 }, lt.tensor({ 1e-30 }):expm1(), 1e-7)
  end)

  it("float16 and bfloat16 compute in float32 and keep their dtype", function()
    for _, dtype in ipairs({ "float16", "bfloat16" }) do
      local r = lt.tensor({ 0, 1 }, dtype):sigmoid()
      assert.equal(dtype, r.dtype)
      near({ 0.5, 1 / (1 + math.exp(-1)) }, r, 4e-3)
      assert.equal(dtype, lt.tensor({ 1 }, dtype):erf().dtype)
      assert.same({ true, false }, lt.tensor({ nan, 1 }, dtype):isnan():tolist())
    end
    -- nan_to_num's default posinf is the dtype's largest value, not float32's (which is inf)
    assert.same({ 65504, -65504, 0 }, lt.tensor({ inf, -inf, nan }, "float16"):nan_to_num():tolist())
  end)
end)

-- }======

-- {====== dtypes, layouts, in place ======

describe("dtype rules", function()
  it("integer and bool inputs give float32 for the floating functions", function()
    for _, name in ipairs({ "sigmoid", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
      "acosh", "atanh", "log1p", "expm1", "log2", "log10", "exp2", "rsqrt", "erf", "erfc" }) do
      for _, dtype in ipairs({ "int64", "int32", "uint8", "bool" }) do
        local t = lt.tensor(dtype == "bool" and { true, false } or { 1, 2 }, dtype)
        local r = t[name](t)
        assert.equal("float32", r.dtype, name .. " of " .. dtype)
        local f = lt.tensor(dtype == "bool" and { 1, 0 } or { 1, 2 }, "float32")
        near(f[name](f):tolist(), r, 0)
      end
    end
    assert.same({ 2, 0.25, 8 }, lt.tensor({ 1, -2, 3 }):exp2():tolist())
  end)
  it("relu and trunc keep integer dtypes; bool is refused", function()
    local i = lt.tensor({ 1, -2, 3 })
    assert.equal("int64", i:relu().dtype)
    assert.same({ 1, 0, 3 }, i:relu():tolist())
    assert.same({ 1, -2, 3 }, i:trunc():tolist())
    assert.equal("int8", lt.tensor({ -1 }, "int8"):relu().dtype)
    assert.same({ 200 }, lt.tensor({ 200 }, "uint8"):relu():tolist())
    raises("relu: not supported for bool", function() return lt.tensor({ true }):relu() end)
    raises("trunc: not supported for bool", function() return lt.tensor({ true }):trunc() end)
  end)
  it("gelu, silu and frac refuse integers, as torch", function()
    for _, name in ipairs({ "gelu", "silu", "frac" }) do
      local t = lt.tensor({ 1, 2 })
      raises(name .. ": not supported for int64", t[name], t)
    end
    raises("gelu: approximate must be 'none' or 'tanh', got fast", function()
      return lt.tensor({ 1.0 }):gelu({ approximate = "fast" }) end)
    raises("unknown option", function() return lt.tensor({ 1.0 }):gelu({ approx = "tanh" }) end)
  end)
  it("isnan, isinf and isfinite give bool for every dtype", function()
    local t = lt.tensor({ nan, inf, -inf, 1, -0.0 })
    assert.same({ true, false, false, false, false }, t:isnan():tolist())
    assert.same({ false, true, true, false, false }, t:isinf():tolist())
    assert.same({ false, false, false, true, true }, t:isfinite():tolist())
    for _, dtype in ipairs({ "int64", "uint8", "bool", "int16" }) do
      local i = lt.tensor({ 1, 0 }, dtype)
      assert.same({ false, false }, i:isnan():tolist())
      assert.same({ false, false }, i:isinf():tolist())
      assert.same({ true, true }, i:isfinite():tolist())
      assert.equal("bool", i:isfinite().dtype)
    end
    local c = lt.zeros({ 3 }, "complex64")
    c[1], c[2], c[3] = { 1, nan }, { nan, 0 }, { inf, 0 }
    assert.same({ true, true, false }, c:isnan():tolist())
    assert.same({ false, false, true }, c:isinf():tolist())
    assert.same({ false, false, false }, c:isfinite():tolist())
  end)
  it("complex inputs are refused by the other functions", function()
    local c = lt.zeros({ 1 }, "complex64")
    for _, name in ipairs({ "sigmoid", "relu", "tan", "erf", "log1p", "trunc", "nan_to_num" }) do
      raises(name .. ": not supported for complex64", c[name], c)
    end
    raises("atan2: not supported for complex64", function() return c:atan2(c) end)
  end)
end)

describe("layouts", function()
  it("0-d and empty tensors", function()
    local z = lt.tensor(0.5)
    assert.equal(0, z:sigmoid():dim())
    assert.is_true(math.abs(z:erf():item() - erf(0.5)) < 1e-6)
    assert.equal(0, lt.tensor(nan):isnan():dim())
    assert.is_true(lt.tensor(nan):isnan():item())
    local e = lt.zeros({ 0, 3 })
    for _, name in ipairs({ "sigmoid", "erf", "gelu", "isnan", "nan_to_num", "log1p" }) do
      local r = e[name](e)
      assert.same({ 0, 3 }, r:size())
    end
    assert.same({ 0, 3 }, e:atan2(e):size())
  end)
  it("transposed and stepped inputs give what their contiguous copies give", function()
    local base = (lt.arange(64):to("float32") * 0.0281 - 0.9):view(8, 8) -- in every domain
    local tr, st = base:t(), base:view(64)[{ { 1, 64, 3 } }]
    assert.is_false(tr:is_contiguous())
    for _, name in ipairs({ "sigmoid", "silu", "gelu", "erf", "erfc", "log1p", "expm1", "tan",
      "atan", "asinh", "exp2", "trunc", "frac", "relu", "isnan" }) do
      for _, v in ipairs({ tr, st }) do
        assert.same(v:contiguous()[name](v:contiguous()):tolist(), v[name](v):tolist(), name)
      end
    end
    local d = base:to("float64"):t()
    assert.same(d:contiguous():erf():tolist(), d:erf():tolist())
  end)
end)

describe("large tensors (split across the pool's threads)", function()
  it("give every element what a small tensor of the same values gives", function()
    local big = lt.arange(350000):to("float32") % 7 - 3 -- -3 .. 3, repeating
    local small = lt.arange(7):to("float32") - 3
    for _, name in ipairs({ "sigmoid", "gelu", "erf", "atan", "relu", "expm1", "isnan" }) do
      local r = big[name](big):view(50000, 7)
      local want = small[name](small)
      assert.is_true(r:eq(want):all(), name)
    end
    local logs = big:log() -- NaN, -inf and finite values
    local fixed = logs:nan_to_num(1, 2, 3)
    assert.is_true(fixed:isfinite():all())
    assert.same(small:log():nan_to_num(1, 2, 3):tolist(), fixed[{ { 1, 7 } }]:tolist())
    assert.is_true(big:atan2(big + 0.5):view(50000, 7):eq(small:atan2(small + 0.5)):all())
  end)
end)

describe("in place", function()
  it("returns the tensor itself with the values of the out-of-place form", function()
    for _, name in ipairs({ "sigmoid", "relu", "tan", "atan", "sinh", "asinh", "log1p",
      "expm1", "log2", "exp2", "trunc", "frac", "rsqrt", "erf", "erfc" }) do
      local t = lt.tensor({ 0.25, 0.5, 2 })
      local want = t[name](t):tolist()
      assert.equal(t, t[name .. "_"](t))
      assert.same(want, t:tolist())
    end
    local t = lt.tensor({ nan, inf, 1 })
    assert.equal(t, t:nan_to_num_(7, 8, 9))
    assert.same({ 7, 8, 1 }, t:tolist())
  end)
  it("writes a view in place", function()
    local t = lt.tensor({ { 0, 1 }, { 2, 3 } }, "float64")
    t:t():sigmoid_()
    assert.same({ 0.5, 1 / (1 + math.exp(-1)) }, t[1]:tolist())
  end)
  it("an integer tensor cannot hold a float result", function()
    local i = lt.tensor({ 1, 2 })
    raises("result type float32 can't be cast to the tensor's dtype int64", i.sigmoid_, i)
    raises("result type float32 can't be cast to the tensor's dtype int64",
      function() return i:atan2_(i) end)
    assert.equal(i, i:relu_())
    assert.equal(i, i:trunc_())
    assert.equal(i, i:fmod_(2))
    assert.same({ 1, 0 }, i:tolist())
  end)
  it("read-only tensors raise and keep their data", function()
    local base = lt.tensor({ 0.5, nan, 2 })
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(base))
    for _, w in ipairs({ { "sigmoid_" }, { "relu_" }, { "erf_" }, { "trunc_" }, { "nan_to_num_" },
      { "atan2_", 1 }, { "fmod_", 2 }, { "hypot_", 1 }, { "lerp_", 1, 0.5 } }) do
      raises("read%-only", ro[w[1]], ro, table.unpack(w, 2))
    end
    assert.equal(0.5, base[1])
    assert.is_true(isnan(base:tolist()[2]))
    -- out of place is fine
    assert.same({ false, true, false }, ro:isnan():tolist())
  end)
end)

-- }======

-- {====== nan_to_num ======

describe("square", function()
  it("is t * t in t's dtype, as torch: bool gives int64, integers wrap", function()
    assert.same({ 9, 0.25, 4 }, lt.tensor({ -3.0, 0.5, 2 }):square():tolist())
    local i = lt.tensor({ 3, -4 }, "int8"):square()
    assert.equal("int8", i.dtype)
    assert.same({ 9, 16 }, i:tolist())
    assert.same({ 64 }, lt.tensor({ 200 }, "uint8"):square():tolist()) -- 40000 mod 256
    local b = lt.tensor({ true, false }):square()
    assert.equal("int64", b.dtype)
    assert.same({ 1, 0 }, b:tolist())
    local z = lt.zeros({ 1 }, "complex64")
    z[1] = { 1, 2 }
    assert.same({ { -3, 4 } }, z:square():tolist())
  end)
  it("has the in-place and module forms", function()
    local t = lt.tensor({ 1.5, -2 })
    assert.equal(t, t:square_())
    assert.same({ 2.25, 4 }, t:tolist())
    assert.same({ 4, 9 }, lt.square(lt.tensor({ 2, -3 })):tolist())
    raises("square_: result type int64 can't be cast to the tensor's dtype bool", function()
      return lt.tensor({ true }):square_() end)
    raises("square: too many arguments", function() return t:square(2) end)
  end)
end)

describe("nan_to_num", function()
  local t = lt.tensor({ nan, inf, -inf, 1.5 }, "float64")
  it("defaults: 0, the largest and lowest finite values of the dtype", function()
    assert.same({ 0, 1.7976931348623157e308, -1.7976931348623157e308, 1.5 }, t:nan_to_num():tolist())
    local f = lt.tensor({ inf, -inf })
    assert.same({ 3.4028234663852886e38, -3.4028234663852886e38 }, f:nan_to_num():tolist())
  end)
  it("positional and keyword replacements", function()
    assert.same({ 1, 2, 3, 1.5 }, t:nan_to_num(1, 2, 3):tolist())
    assert.same({ 0, 5, -1.7976931348623157e308, 1.5 }, t:nan_to_num({ posinf = 5 }):tolist())
    assert.same({ 9, 1.7976931348623157e308, -1.7976931348623157e308, 1.5 },
      t:nan_to_num(9):tolist())
    assert.same({ 0, inf, -inf }, lt.tensor({ nan, inf, -inf }):nan_to_num(0, 1e300, -1e300)
      :tolist()) -- beyond float32: inf, as a float32 conversion gives
    raises("nan_to_num: posinf must be a number, got string",
      function() return t:nan_to_num(nil, "x") end)
  end)
  it("integers and bools come back unchanged", function()
    local i = lt.tensor({ 1, -2 })
    local r = i:nan_to_num()
    assert.same({ 1, -2 }, r:tolist())
    assert.are_not.equal(i, r)
    assert.equal(i, i:nan_to_num_())
    assert.same({ true, false }, lt.tensor({ true, false }):nan_to_num():tolist())
  end)
end)

-- }======

-- {====== binary ======

describe("binary functions", function()
  it("atan2 by quadrant, and of integers as float32", function()
    local y = lt.tensor({ 1, 1, -1, -1, 0, 0 }, "float64")
    local x = lt.tensor({ 1, -1, -1, 1, -1, 1 }, "float64")
    near({ math.pi / 4, 3 * math.pi / 4, -3 * math.pi / 4, -math.pi / 4, math.pi, 0 },
      y:atan2(x), 1e-15)
    local r = lt.tensor({ 1, -2 }):atan2(lt.tensor({ 2, 0 }))
    assert.equal("float32", r.dtype)
    near({ math.atan(0.5), -math.pi / 2 }, r)
    assert.equal("float64", lt.tensor({ 1 }):atan2(lt.tensor({ 2.0 }, "float64")).dtype)
    near({ math.pi / 2 }, lt.tensor({ 1.0 }):atan2(0))
  end)
  it("fmod has the sign of the dividend, remainder of the divisor", function()
    local a, b = lt.tensor({ -3.0, 3, -3, 3, 5.5 }), lt.tensor({ 2.0, -2, -2, 2, 2 })
    assert.same({ -1, 1, -1, 1, 1.5 }, a:fmod(b):tolist())
    assert.same({ 1, -1, -1, 1, 1.5 }, a:remainder(b):tolist())
    local i, j = lt.tensor({ -3, 3, -3, 3 }), lt.tensor({ 2, -2, -2, 2 })
    assert.same({ -1, 1, -1, 1 }, i:fmod(j):tolist())
    assert.equal("int64", i:fmod(j).dtype)
    assert.same({ 1, -1, -1, 1 }, i:remainder(j):tolist())
    assert.same({ 0 }, lt.tensor({ -9223372036854775807 - 1 }):fmod(-1):tolist())
    assert.equal("float32", i:fmod(2.5).dtype)
    near({ nan, nan, 1, nan }, lt.tensor({ 1.0, inf, 1, nan }):fmod(lt.tensor({ 0, 1, inf, 1 })))
  end)
  it("integer division by zero raises for fmod and remainder, as % does", function()
    local i = lt.tensor({ 1, 2 })
    raises("integer division by zero", function() return i:fmod(0) end)
    raises("integer division by zero", function() return i:remainder(lt.tensor({ 1, 0 })) end)
    raises("integer division by zero", function() return i % 0 end)
    near({ inf, -inf }, lt.tensor({ 1.0, -1 }) / 0)
    raises("fmod: not supported for bool", function() return lt.tensor({ true }):fmod(true) end)
  end)
  it("hypot", function()
    near({ 5, 13, inf, inf }, lt.tensor({ 3.0, -5, inf, nan }):hypot(lt.tensor({ 4.0, 12, nan, -inf })))
    assert.equal("float64", lt.tensor({ 3.0 }):hypot(lt.tensor({ 4.0 }, "float64")).dtype)
    raises("hypot: not supported for int64", function()
      return lt.tensor({ 3 }):hypot(lt.tensor({ 4 })) end)
  end)
  it("lerp with a scalar or a tensor weight, broadcast", function()
    local a, b = lt.tensor({ 1.0, 2 }), lt.tensor({ 3.0, 4 })
    assert.same({ 2, 3 }, a:lerp(b, 0.5):tolist())
    assert.same({ 1.5, 3.5 }, a:lerp(b, lt.tensor({ 0.25, 0.75 })):tolist())
    assert.same({ 3, 4 }, a:lerp(b, 1):tolist()) -- exact at weight 1
    assert.same({ { 1, 2 }, { 3, 4 } }, a:lerp(b, lt.tensor({ { 0 }, { 1 } })):tolist())
    assert.equal(a, a:lerp_(b, 0.5))
    assert.same({ 2, 3 }, a:tolist())
    raises("lerp: not supported for int64", function()
      return lt.tensor({ 1 }):lerp(lt.tensor({ 2 }), 0.5) end)
  end)
  it("broadcasts and takes scalars on the right", function()
    local col = lt.tensor({ { 1.0 }, { -1 } })
    assert.same({ 2, 3 }, col:atan2(lt.tensor({ 1.0, 2, 3 })):size())
    assert.same({ { 1, 1 }, { -1, -1 } }, col:fmod(lt.tensor({ 2.0, 3 })):tolist())
    near({ 5 }, lt.tensor({ 3.0 }):hypot(4))
  end)
end)

-- }======
