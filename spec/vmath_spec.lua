-- exp, log, tanh, sin, cos and sqrt of float32 tensors: contiguous runs go through ltensor's
-- vectorized kernels (src/core/lt_vmath.c), strided ones through libm per element. Both agree
-- with the float64 functions rounded to float32 within 1 ulp and give libm's special values;
-- spec/c/test_vmath.c sweeps every 97th float32 bit pattern for the bound.
local lt = require "ltensor"

-- The distance in ulps of two float32 values (0 for two NaNs, huge for NaN against a number).
local function ulps(a, b)
  if a ~= a or b ~= b then return (a ~= a and b ~= b) and 0 or math.huge end
  local function key(x) -- the bit patterns, made monotonic across the sign
    local u = string.unpack("<i4", string.pack("<f", x))
    return u < 0 and -(u & 0x7fffffff) or u
  end
  return math.abs(key(a) - key(b))
end

local names = { "exp", "log", "tanh", "sin", "cos", "sqrt" }

-- Arguments across the ranges that matter: small, near 1, large, negative, subnormal.
local function arguments()
  local xs = {}
  for i = -400, 400 do xs[#xs + 1] = i * 0.0731 end
  for e = -149, 127, 3 do
    xs[#xs + 1] = 2.0 ^ e
    xs[#xs + 1] = -(2.0 ^ e) * 1.37
  end
  for _, v in ipairs({ 0.0, -0.0, 88.7, -103.9, 1e6, 3e7, 1 / 0, -1 / 0, 0 / 0 }) do
    xs[#xs + 1] = v
  end
  return lt.tensor(xs, "float32")
end

describe("float32 exp, log, tanh, sin, cos and sqrt", function()
  local x = arguments()
  for _, name in ipairs(names) do
    it(name .. " agrees with float64 " .. name .. " within 1 ulp, contiguous or strided", function()
      local got = x[name](x):tolist()
      local want = x:to("float64")[name](x:to("float64")):to("float32"):tolist()
      for i = 1, #want do
        assert(ulps(got[i], want[i]) <= 1,
          ("%s(%s) = %s, float64 gives %s"):format(name, x[i], got[i], want[i]))
      end
      local wide = lt.zeros(x:numel(), 2, "float32")
      wide[{ {}, 1 }] = x
      local strided = wide[{ {}, 1 }] -- a stride of 2: libm per element
      local s = strided[name](strided):tolist()
      for i = 1, #want do assert(ulps(s[i], want[i]) <= 2, name .. " strided") end
    end)
  end

  it("give libm's special values", function()
    local v = lt.tensor({ 1 / 0, -1 / 0, 0.0, -0.0, -1, 1e30 }, "float32")
    local function of(name) return v[name](v):tolist() end
    local e, l, t = of("exp"), of("log"), of("tanh")
    assert.same({ 1 / 0, 0, 1, 1 }, { e[1], e[2], e[3], e[4] })
    assert.equal(1 / 0, l[1])
    assert.is_true(l[2] ~= l[2] and l[5] ~= l[5]) -- log of a negative number is NaN
    assert.same({ -1 / 0, -1 / 0 }, { l[3], l[4] })
    assert.same({ 1, -1 }, { t[1], t[2] })
    assert.equal(-1 / 0, 1 / t[4]) -- tanh(-0) = -0
    local s = of("sin")
    assert.is_true(s[1] ~= s[1] and s[2] ~= s[2])
    assert.equal(-1 / 0, 1 / s[4])
    local s64 = lt.tensor({ 1e30 }, "float32"):to("float64"):sin():to("float32"):tolist()[1]
    assert.is_true(ulps(s[6], s64) <= 1) -- a huge argument is reduced exactly (libm)
    local q = of("sqrt")
    assert.is_true(q[5] ~= q[5])
    assert.equal(-1 / 0, 1 / q[4])
  end)

  it("give the same values in place", function()
    for _, name in ipairs(names) do
      local y = x:clone()
      assert.equal(y, y[name .. "_"](y))
      local want = x[name](x):tolist()
      local got = y:tolist()
      for i = 1, #want do assert(ulps(got[i], want[i]) == 0, name .. "_") end
    end
  end)
end)
