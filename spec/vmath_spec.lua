-- exp, log, tanh, sin, cos and sqrt of float32 tensors: contiguous runs go through ltensor's
-- vectorized kernels (src/core/simd/lt_vmath.c), strided ones through libm per element. Both agree
-- with the float64 functions rounded to float32 within 1 ulp and give libm's special values;
-- spec/c/test_vmath.c sweeps every 97th float32 bit pattern for the bound. The second part: the
-- float32 functions of lt_funcs.c (and remainder) that run kernels of lt_vmath.c too.
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

-- src[name](src) agrees with the float64 function rounded to float32 within 1 ulp; returns its
-- values and the float64 function's.
local function within_1ulp(name, src)
  local got = src[name](src):tolist()
  local want = src:to("float64")[name](src:to("float64")):to("float32"):tolist()
  for i = 1, #want do
    assert(ulps(got[i], want[i]) <= 1,
      ("%s(%s) = %s, float64 gives %s"):format(name, src[i], got[i], want[i]))
  end
  return got, want
end

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
      local _, want = within_1ulp(name, x)
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

-- lt_funcs.c's float32 functions with kernels of lt_vmath.c: contiguous runs straight, strided
-- ones and broadcast operands through a buffer (the same values); float16 computes in float32.
describe("float32 exp2, log2, log10, sinh, cosh, asinh, acosh, atanh, asin, acos, atan, atan2, hypot, fmod, remainder", function()
  local x = arguments()
  local unary = { "exp2", "log2", "log10", "sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos", "atan" }
  local function strided_copy(t)
    local wide = lt.zeros(t:numel(), 2, "float32")
    wide[{ {}, 1 }] = t
    return wide[{ {}, 1 }]
  end

  for _, name in ipairs(unary) do
    it(name .. " agrees with float64 within 1 ulp, the same strided, in place and for float16", function()
      local sources = { x, x / 100, x * 0.01 + 1 } -- the whole range, [-29, 29], near 1
      for _, src in ipairs(sources) do
        local got = within_1ulp(name, src)
        local s = strided_copy(src)
        local sl, gl = s[name](s):tolist(), got
        for i = 1, #gl do assert(ulps(sl[i], gl[i]) == 0, name .. " strided") end
        local y = src:clone()
        y[name .. "_"](y)
        local yl = y:tolist()
        for i = 1, #gl do assert(ulps(yl[i], gl[i]) == 0, name .. "_") end
      end
      local h = lt.tensor({ 0.5, -0.25, 1.5, 3, -7, 100, 0.001 }, "float16")
      local r = h[name](h)
      assert.equal("float16", r.dtype)
      local want = h:to("float32")[name](h:to("float32")):to("float16"):tolist()
      local got = r:tolist()
      for i = 1, #want do
        assert((got[i] ~= got[i] and want[i] ~= want[i]) or got[i] == want[i], name .. " float16")
      end
    end)
  end

  it("give libm's special values", function()
    local v = lt.tensor({ 1 / 0, -1 / 0, 0.0, -0.0, -1, 1, 2, 0 / 0 }, "float32")
    local function of(name) return v[name](v):tolist() end
    local inf = 1 / 0
    local e2, l2, l10 = of("exp2"), of("log2"), of("log10")
    assert.same({ inf, 0, 1, 1, 0.5, 2, 4 }, { e2[1], e2[2], e2[3], e2[4], e2[5], e2[6], e2[7] })
    assert.same({ inf, -inf, -inf, 0, 1 }, { l2[1], l2[3], l2[4], l2[6], l2[7] })
    assert.is_true(l2[2] ~= l2[2] and l2[5] ~= l2[5] and l10[5] ~= l10[5] and l10[8] ~= l10[8])
    assert.same({ inf, -inf, -inf, 0 }, { l10[1], l10[3], l10[4], l10[6] })
    local sh, ch, ac = of("sinh"), of("cosh"), of("acosh")
    assert.same({ inf, -inf, 0, inf, inf, 1 }, { sh[1], sh[2], sh[3], ch[1], ch[2], ch[3] })
    assert.equal(-inf, 1 / sh[4]) -- sinh(-0) = -0
    assert.same({ inf, 0 }, { ac[1], ac[6] })
    assert.is_true(ac[2] ~= ac[2] and ac[3] ~= ac[3] and ac[5] ~= ac[5])
    local as, aco, at = of("asin"), of("acos"), of("atan")
    assert.is_true(as[1] ~= as[1] and as[7] ~= as[7] and aco[2] ~= aco[2] and aco[7] ~= aco[7])
    assert.equal(-inf, 1 / as[4])
    assert.same({ 0, lt.tensor(math.pi, "float32"):item() }, { aco[6], aco[5] })
    local hp = lt.tensor(math.pi / 2, "float32"):item()
    assert.same({ hp, -hp, hp }, { at[1], at[2], as[6] })
    assert.equal(-inf, 1 / at[4])
  end)

  it("atan2, hypot, fmod and remainder agree with float64 (fmod and remainder exactly), with a broadcast number too", function()
    local a = x:clone()
    local b = lt.tensor({ 0.1, -3, 2.5, 1e-3, -7.25, 1e30, 0, -0.0, 1 / 0, 0 / 0 }, "float32")
    local n = a:numel()
    local bb = lt.empty({ n }, "float32")
    for i = 1, n do bb[i] = b[(i - 1) % b:numel() + 1] end
    for _, name in ipairs({ "atan2", "hypot", "fmod", "remainder" }) do
      local tol = (name == "atan2" or name == "hypot") and 1 or 0
      local got = a[name](a, bb):tolist()
      local want = a:to("float64")[name](a:to("float64"), bb:to("float64")):to("float32"):tolist()
      for i = 1, n do
        assert(ulps(got[i], want[i]) <= tol,
          ("%s(%s, %s) = %s, float64 gives %s"):format(name, a[i], bb[i], got[i], want[i]))
      end
      local sa, sb = strided_copy(a), strided_copy(bb)
      local sl = sa[name](sa, sb):tolist()
      for i = 1, n do assert(ulps(sl[i], got[i]) == 0, name .. " strided") end
      local num = a[name](a, 0.37):tolist()
      local num_want = a:to("float64")[name](a:to("float64"), lt.tensor(0.37, "float32"):item()):to("float32"):tolist()
      for i = 1, n do assert(ulps(num[i], num_want[i]) <= tol, name .. " by a number") end
    end
  end)
end)
