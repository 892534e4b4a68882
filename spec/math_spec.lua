-- Tensor math: the operators + - * / // % ^ and unary minus, the elementwise methods and their
-- in-place `_` variants, comparisons and logical operations, reductions, matmul, lt.cat,
-- lt.stack, lt.where, masked_fill, clamp, map and apply.
--
-- The reference is PyTorch (SPEC.md: "build what a user of PyTorch would expect"): NumPy
-- broadcasting; torch's type promotion, in which a Lua number (or a 0-d tensor) only raises
-- the result to a higher category (bool < integer < floating < complex) and never widens it
-- within one; integer arithmetic that wraps around, floors like Python, and refuses division
-- by zero and negative powers. Dims, and the positions argmin/argmax and min/max over a dim
-- return, are 1-based as everywhere in Lua. The values below are worked out by hand; the NumPy
-- cross-check in spec/c/numpy_host.c compares the same operations with NumPy on shared data.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

-- {====== helpers ======

local raises = require("helpers").raises

-- The tensor has dtype `dtype` and exactly the values `expected` (a nested list, or a Lua
-- value for a 0-d tensor).
local function same(dtype, expected, t)
  assert.equal(dtype, t.dtype)
  assert.same(expected, t:tolist())
end

local function isnan(x) return x ~= x end

-- A reduction over every element gave the Lua value `expected` of Lua type `kind` ("integer",
-- "float", "boolean"), as t:item() would.
local function value(kind, expected, v)
  assert.equal(kind, math.type(v) or type(v))
  assert.equal(expected, v)
end

-- Nested lists of numbers agree within a relative tolerance (helpers.near, 1e-6 here).
local function near(expected, actual, tol)
  require("helpers").near(expected, actual, tol or 1e-6)
end

-- The tensor has dtype `dtype` and values near `expected`.
local function approx(dtype, expected, t, tol)
  assert.equal(dtype, t.dtype)
  near(expected, t:tolist(), tol)
end

local function shape(t) return t.shape end

local NAN, INF = 0 / 0, math.huge

-- }======

describe("the arithmetic operators", function()
  local a = lt.tensor({ 6, -7, 8 })
  local b = lt.tensor({ 3, 2, -4 })

  it("add, subtract and multiply elementwise", function()
    same("int64", { 9, -5, 4 }, a + b)
    same("int64", { 3, -9, 12 }, a - b)
    same("int64", { 18, -14, -32 }, a * b)
  end)

  it("divide with / into floats, as torch's true division", function()
    same("float32", { 2, -3.5, -2 }, a / b)
    same("float32", { 0.25, 0.5 }, lt.tensor({ 1.0, 2.0 }) / lt.tensor({ 4.0, 4.0 }))
  end)

  it("floor-divide with // and take the remainder with %, like Lua's own // and %", function()
    same("int64", { 2, -4, -2 }, a // b)
    same("int64", { 0, 1, 0 }, a % b)
    for i = 1, 3 do
      assert.equal(a[i] // b[i], (a // b)[i])
      assert.equal(a[i] % b[i], (a % b)[i])
    end
  end)

  it("raise to powers with ^", function()
    same("int64", { 36, 49, 64 }, a ^ 2)
    same("float32", { 0.5, 0.25 }, lt.tensor({ 2.0, 4.0 }) ^ -1)
    same("float32", { 3, 4 }, lt.tensor({ 9.0, 16.0 }) ^ 0.5)
  end)

  it("negate with unary minus", function()
    same("int64", { -6, 7, -8 }, -a)
    same("float32", { -1.5, 0.5 }, -lt.tensor({ 1.5, -0.5 }))
  end)

  it("take a Lua number on either side, in the right order", function()
    same("int64", { 7, -6, 9 }, a + 1)
    same("int64", { 7, -6, 9 }, 1 + a)
    same("int64", { -5, 8, -7 }, 1 - a)
    same("int64", { 5, -8, 7 }, a - 1)
    same("int64", { 12, -14, 16 }, 2 * a)
    same("float32", { 2, 5 }, 10 / lt.tensor({ 5, 2 }))
    same("int64", { 3, -4 }, 7 // lt.tensor({ 2, -2 }))
    same("int64", { 1, -1 }, 7 % lt.tensor({ 2, -2 }))
    same("int64", { 2, 8 }, 2 ^ lt.tensor({ 1, 3 }))
  end)

  it("return new tensors and leave their operands alone", function()
    local x = lt.tensor({ 1, 2 })
    local y = x + 0
    assert.are_not.equal(x, y)
    y[1] = 99
    assert.same({ 1, 2 }, x:tolist())
  end)

  it("chain like Lua expressions, with Lua's precedence", function()
    same("int64", { 7, 9 }, lt.tensor({ 1, 2 }) * 2 + 5 - lt.tensor({ 0, 0 }) ^ 2)
    same("int64", { -1, -4 }, -lt.tensor({ 1, 2 }) ^ 2)
  end)
end)

describe("the elementwise methods", function()
  it("add, sub, mul, div, floor_divide, remainder and pow match the operators", function()
    local a, b = lt.tensor({ 6, -7, 8 }), lt.tensor({ 3, 2, -4 })
    assert.same((a + b):tolist(), a:add(b):tolist())
    assert.same((a - b):tolist(), a:sub(b):tolist())
    assert.same((a * b):tolist(), a:mul(b):tolist())
    assert.same((a / b):tolist(), a:div(b):tolist())
    assert.same((a // b):tolist(), a:floor_divide(b):tolist())
    assert.same((a % b):tolist(), a:remainder(b):tolist())
    assert.same((a ^ 2):tolist(), a:pow(2):tolist())
    same("int64", { 9, -5, 4 }, a:add(b))
    same("int64", { 7, -6, 9 }, a:add(1))
  end)

  it("maximum and minimum pick elementwise", function()
    local a, b = lt.tensor({ 1, 5, -3 }), lt.tensor({ 4, 2, -3 })
    same("int64", { 4, 5, -3 }, a:maximum(b))
    same("int64", { 1, 2, -3 }, a:minimum(b))
    same("int64", { 2, 5, 2 }, a:maximum(2))
    same("float32", { 1, 2.5, -3 }, a:minimum(2.5))
  end)

  it("neg, abs and sign keep integer dtypes", function()
    local a = lt.tensor({ -3, 0, 2 }, "int32")
    same("int32", { 3, 0, -2 }, a:neg())
    same("int32", { 3, 0, 2 }, a:abs())
    same("int32", { -1, 0, 1 }, a:sign())
    same("float32", { -1, 0, 1 }, lt.tensor({ -2.5, 0.0, 7.0 }):sign())
    same("uint8", { 0, 1 }, lt.tensor({ 0, 200 }, "uint8"):sign())
  end)

  it("sqrt, exp, log, sin, cos and tanh compute in floating point", function()
    approx("float64", { 0, 1.5, 3 }, lt.tensor({ 0, 2.25, 9 }, "float64"):sqrt())
    approx("float64", { 1, math.exp(1), math.exp(-2) }, lt.tensor({ 0, 1, -2 }, "float64"):exp())
    approx("float64", { 0, 1, -math.log(2) }, lt.tensor({ 1, math.exp(1), 0.5 }, "float64"):log())
    approx("float64", { 0, 1, 0.5 }, lt.tensor({ 0, math.pi / 2, math.pi / 6 }, "float64"):sin())
    approx("float64", { 1, -1, 0.5 }, lt.tensor({ 0, math.pi, math.pi / 3 }, "float64"):cos())
    approx("float64", { 0, 0.46211715726000974, -1 }, lt.tensor({ 0, 0.5, -40 }, "float64"):tanh())
    approx("float32", { 2, 3 }, lt.tensor({ 4.0, 9.0 }):sqrt())
  end)

  it("give float32 from sqrt, exp, log, sin, cos and tanh of integers, as torch", function()
    local x = lt.tensor({ 1, 4 }, "int32")
    for _, name in ipairs({ "sqrt", "exp", "log", "sin", "cos", "tanh" }) do
      assert.equal("float32", x[name](x).dtype, name)
    end
    approx("float32", { 1, 2 }, lt.tensor({ 1, 4 }):sqrt())
  end)

  it("floor, ceil and round to integral values, round halves to even", function()
    same("float32", { 1, -2, 2 }, lt.tensor({ 1.7, -1.2, 2.0 }):floor())
    same("float32", { 2, -1, 2 }, lt.tensor({ 1.2, -1.7, 2.0 }):ceil())
    same("float64", { -2, -2, -0.0, 0, 2, 2, 3 },
      lt.tensor({ -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.6 }, "float64"):round())
    same("int32", { 3, -4 }, lt.tensor({ 3, -4 }, "int32"):floor()) -- integers stay as they are
  end)

  it("keep float16 and bfloat16 results in their dtype", function()
    same("float16", { 1.5, 3 }, lt.tensor({ 2.25, 9 }, "float16"):sqrt())
    same("bfloat16", { 2, -2 }, lt.tensor({ 2.5, -1.5 }, "bfloat16"):round())
  end)

  it("take the modulus of complex numbers with abs, in the matching real dtype", function()
    local z = lt.zeros({ 2 }, "complex64")
    z[1] = { 3, 4 }
    z[2] = { 0, -2 }
    same("float32", { 5, 2 }, z:abs())
    same("complex64", { { -3, -4 }, { 0, 2 } }, z:neg())
  end)
end)

describe("the in-place variants", function()
  local cases = {
    { "add_", { 1.5, 2.5 }, { 1 }, { 2.5, 3.5 } },
    { "sub_", { 1.5, 2.5 }, { 1 }, { 0.5, 1.5 } },
    { "mul_", { 1.5, 2.5 }, { 2 }, { 3, 5 } },
    { "div_", { 1.5, 2.5 }, { 2 }, { 0.75, 1.25 } },
    { "floor_divide_", { 7.5, -7.5 }, { 2 }, { 3, -4 } },
    { "remainder_", { 7.5, -7.5 }, { 2 }, { 1.5, 0.5 } },
    { "pow_", { 1.5, 3 }, { 2 }, { 2.25, 9 } },
    { "maximum_", { 1.5, 3 }, { 2 }, { 2, 3 } },
    { "minimum_", { 1.5, 3 }, { 2 }, { 1.5, 2 } },
    { "neg_", { 1.5, -3 }, {}, { -1.5, 3 } },
    { "abs_", { 1.5, -3 }, {}, { 1.5, 3 } },
    { "sqrt_", { 2.25, 9 }, {}, { 1.5, 3 } },
    { "exp_", { 0, 0 }, {}, { 1, 1 } },
    { "log_", { 1, 1 }, {}, { 0, 0 } },
    { "sin_", { 0, 0 }, {}, { 0, 0 } },
    { "cos_", { 0, 0 }, {}, { 1, 1 } },
    { "tanh_", { 0, 0 }, {}, { 0, 0 } },
    { "floor_", { 1.5, -1.5 }, {}, { 1, -2 } },
    { "ceil_", { 1.5, -1.5 }, {}, { 2, -1 } },
    { "round_", { 2.5, -1.5 }, {}, { 2, -2 } },
    { "sign_", { 2.5, -1.5 }, {}, { 1, -1 } },
    { "clamp_", { 1.5, 3 }, { 2 }, { 2, 3 } },
    { "masked_fill_", { 1.5, 3 }, { lt.tensor({ false, true }), 0 }, { 1.5, 0 } },
  }
  for _, c in ipairs(cases) do
    local name, input, args, expected = c[1], c[2], c[3], c[4]
    it(name .. " writes the result into the tensor and returns it", function()
      local t = lt.tensor(input, "float64")
      local ptr = t:data_ptr()
      local r = t[name](t, table.unpack(args))
      assert.equal(t, r)
      assert.equal(ptr, t:data_ptr())
      same("float64", expected, t)
    end)
  end

  it("write through views into their base", function()
    local m = lt.zeros({ 2, 3 }, "int32")
    m:select(1, 2):add_(lt.tensor({ 1, 2, 3 }, "int32"))
    m:select(2, 1):sub_(5)
    same("int32", { { -5, 0, 0 }, { -4, 2, 3 } }, m)
    m:t():mul_(lt.tensor({ 2, -1 }, "int32"))
    same("int32", { { -10, 0, 0 }, { 4, -2, -3 } }, m)
  end)

  it("broadcast the other operand into the tensor's shape", function()
    local m = lt.ones({ 2, 3 })
    m:add_(lt.tensor({ 1, 2, 3 }))
    same("float32", { { 2, 3, 4 }, { 2, 3, 4 } }, m)
  end)

  it("read an overlapping operand as it was before the write", function()
    local a = lt.arange(5)
    a:narrow(1, 2, 4):add_(a:narrow(1, 1, 4)) -- like NumPy's a[1:] += a[:-1]
    same("int64", { 0, 1, 3, 5, 7 }, a)
    local m = lt.arange(4):reshape(2, 2)
    m:add_(m:t())
    same("int64", { { 0, 3 }, { 3, 6 } }, m)
  end)

  it("keep the tensor's dtype when the result's category is no higher, wrapping", function()
    local t = lt.tensor({ 1, 127 }, "int8")
    t:add_(lt.tensor({ 2, 1 }, "int64"))
    same("int8", { 3, -128 }, t)
    local f = lt.tensor({ 1.5 }, "float16")
    f:mul_(lt.tensor({ 2.0 }, "float64"))
    same("float16", { 3 }, f)
  end)

  it("refuse a result of a higher category: an int tensor add_(1.5) raises", function()
    local t = lt.tensor({ 1, 2 })
    raises("result type float32 can't be cast to the tensor's dtype int64", t.add_, t, 1.5)
    raises("can't be cast", t.sqrt_, t)
    raises("can't be cast", t.div_, t, 2)
    raises("can't be cast", t.clamp_, t, 0.5)
    assert.same({ 1, 2 }, t:tolist())
  end)

  it("refuse a result larger than the tensor, naming both shapes", function()
    local t = lt.zeros({ 3 })
    raises({ "2x3", "2, 3" }, t.add_, t, lt.zeros({ 2, 3 }))
    raises({ "2x3", "2, 3" }, t.masked_fill_, t, lt.tensor({ { true }, { false } }), 1)
  end)

  it("refuse to write an expanded tensor, whose elements alias", function()
    local e = lt.zeros({ 1 }):expand(3)
    raises("expanded", e.add_, e, 1)
  end)
end)

describe("comparisons and logical operations", function()
  local a, b = lt.tensor({ 1, 2, 3 }), lt.tensor({ 3, 2, 1 })

  it("eq, ne, lt, le, gt and ge give bool tensors", function()
    same("bool", { false, true, false }, a:eq(b))
    same("bool", { true, false, true }, a:ne(b))
    same("bool", { true, false, false }, a:lt(b))
    same("bool", { true, true, false }, a:le(b))
    same("bool", { false, false, true }, a:gt(b))
    same("bool", { false, true, true }, a:ge(b))
  end)

  it("compare with Lua numbers and across dtypes in the promoted dtype", function()
    same("bool", { false, true, true }, a:gt(1.5))
    same("bool", { true, false, false }, a:eq(1.0))
    -- uint8 255 against int8 -1: compared in int16, so 255 > -1
    same("bool", { true }, lt.tensor({ 255 }, "uint8"):gt(lt.tensor({ -1 }, "int8")))
    same("bool", { true, false }, lt.tensor({ 0.5, 1 }, "float64"):lt(lt.tensor({ 1, 1 }, "int32")))
  end)

  it("compare complex numbers for equality only", function()
    local z, w = lt.zeros({ 2 }, "complex64"), lt.zeros({ 2 }, "complex64")
    z[1] = { 1, 2 }
    w[1] = { 1, 2 }
    w[2] = { 0, 1 }
    same("bool", { true, false }, z:eq(w))
    same("bool", { false, true }, z:ne(w))
    same("bool", { false, true }, z:eq(0))
    raises("lt: not supported for complex64", z.lt, z, w)
  end)

  it("treat nonzero values as true in logical_and, logical_or and logical_not", function()
    local p, q = lt.tensor({ true, true, false, false }), lt.tensor({ true, false, true, false })
    same("bool", { true, false, false, false }, p:logical_and(q))
    same("bool", { true, true, true, false }, p:logical_or(q))
    same("bool", { false, false, true, true }, p:logical_not())
    same("bool", { false, true, true }, lt.tensor({ 0, 2, -1 }):logical_or(lt.tensor({ 0.0, 0, 0 })))
    same("bool", { true, false }, lt.tensor({ 0.0, 0.5 }):logical_not())
    same("bool", { false, true }, lt.tensor({ 0, 3 }):logical_and(true))
  end)

  it("treat bool + as or and bool * as and, as torch", function()
    local p, q = lt.tensor({ true, false, false }), lt.tensor({ true, true, false })
    same("bool", { true, true, false }, p + q)
    same("bool", { true, false, false }, p * q)
    same("bool", { true, true, false }, p:maximum(q))
    same("bool", { true, false, false }, p:minimum(q))
  end)
end)

describe("broadcasting", function()
  it("stretches dims of size 1: (3, 1) + (1, 4) is (3, 4)", function()
    local col = lt.tensor({ { 0 }, { 10 }, { 20 } })
    local row = lt.tensor({ { 1, 2, 3, 4 } })
    local s = col + row
    assert.same({ 3, 4 }, shape(s))
    same("int64", { { 1, 2, 3, 4 }, { 11, 12, 13, 14 }, { 21, 22, 23, 24 } }, s)
    same("int64", { { -1, -2, -3, -4 }, { 9, 8, 7, 6 }, { 19, 18, 17, 16 } }, col - row)
  end)

  it("prepends dims of size 1: (2, 3) + (3) is (2, 3)", function()
    local m = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
    same("int64", { { 11, 22, 33 }, { 14, 25, 36 } }, m + lt.tensor({ 10, 20, 30 }))
    same("int64", { { 11, 22, 33 }, { 14, 25, 36 } }, lt.tensor({ 10, 20, 30 }) + m)
    same("int64", { { 10, 40, 90 }, { 40, 100, 180 } }, m * lt.tensor({ 10, 20, 30 }))
  end)

  it("works through higher ranks: (2, 1, 3) * (4, 1) is (2, 4, 3)", function()
    local a = lt.arange(6):reshape(2, 1, 3)
    local b = lt.arange(4):reshape(4, 1)
    local r = a * b
    assert.same({ 2, 4, 3 }, shape(r))
    assert.same({ 0, 3, 6 }, r[{ 1, 4 }]:tolist())
    assert.same({ 6, 8, 10 }, r[{ 2, 3 }]:tolist())
  end)

  it("takes a Lua number on either side as a 0-d operand", function()
    local m = lt.tensor({ { 1, 2 }, { 3, 4 } })
    same("int64", { { 0, 1 }, { 2, 3 } }, m - 1)
    same("int64", { { 0, -1 }, { -2, -3 } }, 1 - m)
  end)

  it("broadcasts 0-d tensors everywhere and keeps 0-d with 0-d", function()
    local s = lt.tensor(5)
    same("int64", { 6, 7 }, s + lt.tensor({ 1, 2 }))
    same("int64", { { 4 }, { 3 } }, s - lt.tensor({ { 1 }, { 2 } }))
    local z = lt.tensor(2) * lt.tensor(3)
    assert.equal(0, z.ndim)
    assert.equal(6, z:item())
    assert.equal(0, (lt.tensor(2) + 1).ndim)
  end)

  it("keeps empty dims empty: (0, 3) + (3) is (0, 3), (2, 1) + (0) is (2, 0)", function()
    local e = lt.zeros({ 0, 3 }) + lt.ones({ 3 })
    assert.same({ 0, 3 }, shape(e))
    assert.equal(0, e:numel())
    assert.same({ 2, 0 }, shape(lt.zeros({ 2, 1 }) + lt.zeros({ 0 })))
    assert.same({ 0 }, shape(lt.zeros({ 0 }) * 2))
    assert.same({ 0, 3 }, shape(lt.zeros({ 0, 3 }):exp()))
  end)

  it("refuses shapes that do not broadcast, naming both sizes", function()
    local msg = raises("broadcast", function() return lt.zeros({ 2, 3 }) + lt.zeros({ 4 }) end)
    assert.truthy(msg:find("4") and msg:find("3"), msg)
    msg = raises("broadcast", function() return lt.zeros({ 3 }):mul(lt.zeros({ 2 })) end)
    assert.truthy(msg:find("2") and msg:find("3"), msg)
    raises("broadcast", function() return lt.zeros({ 0 }) + lt.zeros({ 2 }) end)
  end)

  it("works on transposed and expanded inputs", function()
    local m = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
    same("int64", { { 2, 6 }, { 3, 7 }, { 4, 8 } }, m:t() + lt.tensor({ 1, 2 }))
    same("int64", { { 2, 4, 6 }, { 5, 7, 9 } }, m + lt.tensor({ 1, 2, 3 }):expand(2, 3))
    same("int64", { { 6, 4, 2 }, { 3, 1, -1 } }, lt.tensor({ 7, 6, 5 }):expand(2, 3) - m)
  end)
end)

describe("type promotion", function()
  local function T(values, dt) return lt.tensor(values, dt) end
  local cases = {
    -- description, function giving the result, expected dtype
    { "int32 + int64 tensors give int64", function() return T({ 1 }, "int32") + T({ 1 }, "int64") end, "int64" },
    { "uint8 + int8 give int16 (no 8-bit type holds both)", function() return T({ 1 }, "uint8") + T({ 1 }, "int8") end, "int16" },
    { "uint8 + int16 give int16", function() return T({ 1 }, "uint8") + T({ 1 }, "int16") end, "int16" },
    { "int8 + int16 give int16", function() return T({ 1 }, "int8") + T({ 1 }, "int16") end, "int16" },
    { "int64 + float32 give float32", function() return T({ 1 }, "int64") + T({ 1 }, "float32") end, "float32" },
    { "int32 + float16 give float16", function() return T({ 1 }, "int32") + T({ 1 }, "float16") end, "float16" },
    { "float32 + float64 give float64", function() return T({ 1 }, "float32") + T({ 1 }, "float64") end, "float64" },
    { "float16 + bfloat16 give float32", function() return T({ 1 }, "float16") + T({ 1 }, "bfloat16") end, "float32" },
    { "int32 tensor + Lua 1 stays int32", function() return T({ 1 }, "int32") + 1 end, "int32" },
    { "int8 tensor * Lua 100 stays int8", function() return T({ 1 }, "int8") * 100 end, "int8" },
    { "int32 tensor + Lua 1.5 gives float32, the default float", function() return T({ 1 }, "int32") + 1.5 end, "float32" },
    { "int64 tensor * Lua 1.0 gives float32", function() return T({ 1 }, "int64") * 1.0 end, "float32" },
    { "float16 tensor + Lua 1.5 stays float16", function() return T({ 1 }, "float16") + 1.5 end, "float16" },
    { "float64 tensor + Lua 1.5 stays float64", function() return T({ 1 }, "float64") + 1.5 end, "float64" },
    { "bfloat16 tensor * Lua 2 stays bfloat16", function() return T({ 1 }, "bfloat16") * 2 end, "bfloat16" },
    { "bool + bool stays bool", function() return T({ true }) + T({ false }) end, "bool" },
    { "bool + Lua true stays bool", function() return T({ true }) + true end, "bool" },
    { "bool + Lua 1 gives int64", function() return T({ true }) + 1 end, "int64" },
    { "bool + Lua 1.5 gives float32", function() return T({ true }) + 1.5 end, "float32" },
    { "bool + int8 tensor gives int8", function() return T({ true }) + T({ 1 }, "int8") end, "int8" },
    { "int8 tensor + Lua true stays int8", function() return T({ 1 }, "int8") + true end, "int8" },
    { "int / int gives float32", function() return T({ 1 }, "int32") / T({ 2 }, "int32") end, "float32" },
    { "int64 / Lua 2 gives float32", function() return T({ 1 }) / 2 end, "float32" },
    { "bool / bool gives float32", function() return T({ true }) / T({ true }) end, "float32" },
    { "int32 // int32 stays int32", function() return T({ 7 }, "int32") // T({ 2 }, "int32") end, "int32" },
    { "int32 ^ Lua 2 stays int32", function() return T({ 3 }, "int32") ^ 2 end, "int32" },
    { "int32 ^ Lua 0.5 gives float32", function() return T({ 4 }, "int32") ^ 0.5 end, "float32" },
    { "bool ^ Lua 2 gives int64", function() return T({ true }) ^ 2 end, "int64" },
    { "complex64 + float64 tensor gives complex128", function() return lt.zeros({ 1 }, "complex64") + T({ 1 }, "float64") end, "complex128" },
    { "complex64 + float32 tensor stays complex64", function() return lt.zeros({ 1 }, "complex64") + T({ 1 }, "float32") end, "complex64" },
    { "complex128 + float16 tensor stays complex128", function() return lt.zeros({ 1 }, "complex128") + T({ 1 }, "float16") end, "complex128" },
    { "complex64 + Lua 1.5 stays complex64", function() return lt.zeros({ 1 }, "complex64") + 1.5 end, "complex64" },
    { "int32 tensor + 0-d int64 tensor stays int32", function() return T({ 1 }, "int32") + T(5) end, "int32" },
    { "uint8 tensor + 0-d int8 tensor stays uint8", function() return T({ 1 }, "uint8") + T(1, "int8") end, "uint8" },
    { "float16 tensor + 0-d float64 tensor stays float16", function() return T({ 1 }, "float16") + T(1, "float64") end, "float16" },
    { "int32 tensor + 0-d float64 tensor gives float64 (the 0-d tensor's own dtype)", function() return T({ 1 }, "int32") + T(1.5, "float64") end, "float64" },
    { "0-d int32 + 0-d int64 give int64", function() return T(1, "int32") + T(1, "int64") end, "int64" },
    { "0-d int32 + Lua 1.5 give float32", function() return T(1, "int32") + 1.5 end, "float32" },
    { "0-d int32 + Lua 1 stay int32", function() return T(1, "int32") + 1 end, "int32" },
    { "comparisons give bool whatever the operands", function() return T({ 1 }, "float64"):lt(T({ 1 }, "int8")) end, "bool" },
    { "uint64 + int64 give float64, NumPy's choice (no integer holds both)", function() return T({ 1 }, "uint64") + T({ 1 }, "int64") end, "float64" },
    { "lt.where(cond, int32 tensor, Lua 2) stays int32", function() return lt.where(T({ true }), T({ 1 }, "int32"), 2) end, "int32" },
    { "lt.where(cond, int32 tensor, Lua 2.5) gives float32", function() return lt.where(T({ true }), T({ 1 }, "int32"), 2.5) end, "float32" },
    { "clamp of an int tensor by Lua 0.5 gives float32", function() return T({ 1 }):clamp(0.5) end, "float32" },
  }
  for _, c in ipairs(cases) do
    it(c[1], function() assert.equal(c[3], c[2]().dtype) end)
  end

  it("computes int + int tensors of mixed signedness exactly in the wider type", function()
    same("int16", { 254, -128 }, lt.tensor({ 255, 0 }, "uint8") + lt.tensor({ -1, -128 }, "int8"))
  end)

  it("computes float16 in float32 and rounds once into float16", function()
    -- 2049 is not a float16; 2048 + 1 rounds to even (2048), 2048 + 3 to 2052
    same("float16", { 2048, 2052 }, lt.tensor({ 2048, 2048 }, "float16") + lt.tensor({ 1, 3 }, "float16"))
    same("float16", { 0.5 }, lt.tensor({ 1 }, "float16") / 2)
  end)

  it("puts a Lua number into the tensor's dtype before the operation", function()
    -- 0.1 in float64 is not 0.1 in float32: a float32 tensor compares with the float32 value
    same("bool", { true }, lt.tensor({ 0.1 }):eq(0.1))
    same("bool", { false }, lt.tensor({ 0.1 }, "float64"):eq(lt.tensor({ 0.1 })))
  end)
end)

describe("integer arithmetic", function()
  it("floors division toward minus infinity, as Python and torch", function()
    local x = lt.tensor({ 7, -7, 7, -7, 6, -6 })
    local y = lt.tensor({ 2, 2, -2, -2, -3, 3 })
    same("int64", { 3, -4, -4, 3, -2, -2 }, x // y)
    same("int64", { 3, -4, -4, 3, -2, -2 }, x:floor_divide(y))
  end)

  it("gives remainders the sign of the divisor, as Python and torch", function()
    local x = lt.tensor({ 7, -7, 7, -7, 6, -6 })
    local y = lt.tensor({ 2, 2, -2, -2, -3, 3 })
    same("int64", { 1, 1, -1, -1, 0, 0 }, x % y)
    same("int64", { 1, 1, -1, -1, 0, 0 }, x:remainder(y))
    -- x == (x // y) * y + x % y
    assert.same(x:tolist(), ((x // y) * y + x % y):tolist())
  end)

  it("floors and takes remainders the same way in every integer dtype", function()
    for _, dt in ipairs({ "int8", "int16", "int32", "int64" }) do
      same(dt, { -4, 3 }, lt.tensor({ -7, -7 }, dt) // lt.tensor({ 2, -2 }, dt))
      same(dt, { 1, -1 }, lt.tensor({ -7, -7 }, dt) % lt.tensor({ 2, -2 }, dt))
    end
    same("uint8", { 100, 1 }, lt.tensor({ 200, 3 }, "uint8") // 2)
    same("uint8", { 2, 3 }, lt.tensor({ 200, 3 }, "uint8") % 6)
  end)

  it("floors float division too: 7.5 // -2 is -4 and 7.5 % -2 is -0.5", function()
    same("float32", { 3, -4, -4, 3 }, lt.tensor({ 7.5, -7.5, 7.5, -7.5 }) // lt.tensor({ 2, 2, -2, -2 }))
    same("float32", { 1.5, 0.5, -0.5, -1.5 }, lt.tensor({ 7.5, -7.5, 7.5, -7.5 }) % lt.tensor({ 2, 2, -2, -2 }))
  end)

  it("wraps the most negative value divided by -1", function()
    same("int8", { -128 }, lt.tensor({ -128 }, "int8") // lt.tensor({ -1 }, "int8"))
    same("int8", { 0 }, lt.tensor({ -128 }, "int8") % lt.tensor({ -1 }, "int8"))
    same("int64", { math.mininteger }, lt.tensor({ math.mininteger }) // -1)
  end)

  it("refuses integer division and remainder by zero", function()
    raises("division by zero", function() return lt.tensor({ 1, 2 }) // lt.tensor({ 1, 0 }) end)
    raises("division by zero", function() return lt.tensor({ 1 }) % 0 end)
    raises("division by zero", function() return lt.tensor({ 1 }, "uint8"):floor_divide(0) end)
    raises("division by zero", function() return lt.tensor({ 5 }, "int16"):remainder(lt.tensor({ 0 }, "int16")) end)
    raises("division by zero", function() return 1 // lt.tensor({ 0 }) end)
  end)

  it("finds a zero divisor anywhere in a long tensor", function()
    for _, dt in ipairs({ "int8", "int32", "int64", "uint8" }) do
      local d = lt.ones({ 1000 }, dt)
      d[777] = 0
      raises("division by zero", function() return lt.ones({ 1000 }, dt) // d end)
      raises("division by zero", function() return lt.ones({ 1000 }, dt) % d end)
      raises("division by zero", function() return lt.ones({ 1000 }, dt):reshape(10, 100):t() // d:reshape(100, 10) end)
    end
  end)

  it("divides by zero with / into infinities and NaN, as floats do", function()
    same("float32", { INF, -INF }, lt.tensor({ 1, -1 }) / 0)
    assert.is_true(isnan((lt.tensor({ 0 }) / 0)[1]))
    same("float32", { INF }, lt.tensor({ 1.0 }) // 0)
    assert.is_true(isnan((lt.tensor({ 1.0 }) % 0)[1]))
  end)

  it("refuses negative integer powers", function()
    raises("negative integer powers", function() return lt.tensor({ 2 }) ^ -1 end)
    raises("negative integer powers", function() return lt.tensor({ 2, 3 }, "int8"):pow(lt.tensor({ 1, -2 }, "int8")) end)
    raises("negative integer powers", function() return 2 ^ lt.tensor({ -1 }) end)
    same("float32", { 0.5 }, lt.tensor({ 2 }) ^ -1.0) -- a float exponent gives floats
  end)

  it("computes integer powers exactly, negative bases included", function()
    same("int64", { -8, 9, 1, 1 }, lt.tensor({ -2, -3, 0, 5 }) ^ lt.tensor({ 3, 2, 0, 0 }))
    same("int64", { 1 << 62 }, lt.tensor({ 2 }) ^ 62)
  end)

  it("wraps around on overflow: int8 100 + 100 is -56, uint8 0 - 1 is 255", function()
    same("int8", { -56 }, lt.tensor({ 100 }, "int8") + lt.tensor({ 100 }, "int8"))
    same("uint8", { 255 }, lt.tensor({ 0 }, "uint8") - 1)
    same("uint8", { 255 }, -lt.tensor({ 1 }, "uint8"))
    same("int8", { -128 }, lt.tensor({ -128 }, "int8"):abs())
    same("int8", { -128 }, lt.tensor({ 2 }, "int8") ^ 7)
    same("uint8", { 0 }, lt.tensor({ 2 }, "uint8") ^ 8)
    same("int16", { -32768 }, lt.tensor({ 32767 }, "int16") + 1)
    same("int32", { -2147483648 }, lt.tensor({ 2147483647 }, "int32") + 1)
    same("int64", { math.mininteger }, lt.tensor({ math.maxinteger }) + 1)
    same("uint8", { 44 }, lt.tensor({ 20 }, "uint8") * 15) -- 300 mod 256
  end)

  it("refuses a Lua number outside the integer dtype's range", function()
    raises("1000 cannot be converted to int8", function() return lt.tensor({ 1 }, "int8") + 1000 end)
    raises("256 cannot be converted to uint8", function() return lt.tensor({ 1 }, "uint8") * 256 end)
    raises("2147483648 cannot be converted to int32", function() return lt.tensor({ 1 }, "int32") + 2147483648 end)
    raises("cannot be converted to int8", function() return lt.tensor({ 1 }, "int8"):eq(1000) end)
    raises("cannot be converted to int16", function() return lt.tensor({ 1 }, "int16"):maximum(-40000) end)
    -- at the edges the values fit
    same("int32", { -2147483648 }, lt.tensor({ 0 }, "int32") + (-2147483648))
    same("int8", { 127 }, lt.tensor({ 0 }, "int8") + 127)
  end)
end)

describe("NaN and infinities", function()
  it("propagate NaN through arithmetic, sum, max and maximum", function()
    assert.is_true(isnan((lt.tensor({ NAN }) + 1)[1]))
    assert.is_true(isnan(lt.tensor({ 1, NAN, 3 }):sum()))
    assert.is_true(isnan(lt.tensor({ 1, NAN, 3 }):max()))
    assert.is_true(isnan(lt.tensor({ 1, NAN, 3 }):min()))
    assert.is_true(isnan(lt.tensor({ 1, NAN, 3 }):prod()))
    assert.is_true(isnan(lt.tensor({ 1, NAN, 3 }, "float64"):mean()))
    near({ 2, NAN, 3 }, lt.tensor({ 1, NAN, 3 }):maximum(lt.tensor({ 2, 2, 2 })):tolist())
    near({ 2, NAN, 3 }, lt.tensor({ 2, 2, 2 }):maximum(lt.tensor({ 1, NAN, 3 })):tolist())
    near({ NAN, NAN }, lt.tensor({ NAN, 1 }):minimum(lt.tensor({ 1, NAN })):tolist())
    near({ NAN }, lt.tensor({ NAN }):clamp(0, 1):tolist())
    near({ NAN }, lt.tensor({ NAN }):sign():tolist())
  end)

  it("point argmax, argmin and max over a dim at the first NaN", function()
    local x = lt.tensor({ 1, NAN, 3, NAN })
    value("integer", 2, x:argmax())
    value("integer", 2, x:argmin())
    local v, i = x:max(1)
    assert.is_true(isnan(v:item()))
    assert.equal(2, i:item())
  end)

  it("compare false with NaN, except ne: nan ne nan is true", function()
    local n = lt.tensor({ NAN })
    same("bool", { false }, n:eq(n))
    same("bool", { true }, n:ne(n))
    same("bool", { false }, n:lt(1))
    same("bool", { false }, n:le(1))
    same("bool", { false }, n:gt(1))
    same("bool", { false }, n:ge(1))
    same("bool", { false }, n:eq(NAN))
  end)

  it("count NaN as true in all, any and logical ops", function()
    value("boolean", true, lt.tensor({ NAN, 1 }):all())
    same("bool", { true }, lt.tensor({ NAN }):logical_and(true))
  end)

  it("follow IEEE rules for infinities", function()
    same("float32", { INF, -INF, 0 }, lt.tensor({ INF, -INF, 1 }) * lt.tensor({ 1, 1, 0 }))
    assert.is_true(isnan((lt.tensor({ INF }) - lt.tensor({ INF }))[1]))
    assert.is_true(isnan(lt.tensor({ INF, -INF }):sum()))
    value("float", INF, lt.tensor({ INF, 1 }):max())
    value("float", -INF, lt.tensor({ 1, -INF }):min())
    same("bool", { true }, lt.tensor({ INF }):eq(INF))
    same("float32", { 0, INF }, lt.tensor({ -INF, INF }):exp())
    same("float32", { -INF }, lt.tensor({ 0.0 }):log())
    assert.is_true(isnan(lt.tensor({ -1.0 }):sqrt()[1]))
    same("float32", { -1, 1 }, lt.tensor({ -INF, INF }):tanh())
  end)
end)

describe("reductions", function()
  -- m = | 1 5 3 |
  --     | 4 2 6 |
  local function m() return lt.tensor({ { 1, 5, 3 }, { 4, 2, 6 } }) end
  local function f() return lt.tensor({ { 1, 5, 3 }, { 4, 2, 6 } }, "float64") end

  it("sum over everything and over each dim, 1-based and negative from the end", function()
    value("integer", 21, m():sum())
    same("int64", { 5, 7, 9 }, m():sum(1))
    same("int64", { 9, 12 }, m():sum(2))
    same("int64", { 9, 12 }, m():sum(-1))
    same("int64", { 5, 7, 9 }, m():sum(-2))
  end)

  it("keep the reduced dim as size 1 with keepdim", function()
    same("int64", { { 5, 7, 9 } }, m():sum(1, true))
    same("int64", { { 9 }, { 12 } }, m():sum(2, true))
    local all = m():sum(nil, true)
    assert.same({ 1, 1 }, all.shape)
    assert.equal(21, all[1][1])
  end)

  it("prod multiplies", function()
    value("integer", 720, m():prod())
    same("int64", { 4, 10, 18 }, m():prod(1))
    same("int64", { 15, 48 }, m():prod(2))
  end)

  it("mean averages floating tensors", function()
    value("float", 3.5, f():mean())
    same("float64", { 2.5, 3.5, 4.5 }, f():mean(1))
    same("float64", { { 3 }, { 4 } }, f():mean(2, true))
    same("float32", { 3, 4 }, f():to("float32"):mean(2))
  end)

  it("min and max over everything give the value", function()
    value("integer", 1, m():min())
    value("integer", 6, m():max())
  end)

  it("min and max over a dim give the values and their 1-based positions", function()
    local v, i = m():max(2)
    same("int64", { 5, 6 }, v)
    same("int64", { 2, 3 }, i)
    v, i = m():min(1)
    same("int64", { 1, 2, 3 }, v)
    same("int64", { 1, 2, 1 }, i)
    v, i = m():max(1, true)
    same("int64", { { 4, 5, 6 } }, v)
    same("int64", { { 2, 1, 2 } }, i)
    v, i = m():min(-1, true)
    same("int64", { { 1 }, { 2 } }, v)
    same("int64", { { 1 }, { 2 } }, i)
  end)

  it("min and max over a dim point at the first of equal extremes", function()
    local v, i = lt.tensor({ { 3, 1, 3 }, { 2, 2, 0 } }):max(2)
    same("int64", { 3, 2 }, v)
    same("int64", { 1, 1 }, i)
  end)

  it("argmin and argmax give 1-based row-major positions, or positions along a dim", function()
    value("integer", 6, m():argmax())
    value("integer", 1, m():argmin())
    same("int64", { 2, 1, 2 }, m():argmax(1))
    same("int64", { 2, 3 }, m():argmax(2))
    same("int64", { 1, 2 }, m():argmin(2))
    same("int64", { { 1, 2, 1 } }, m():argmin(1, true))
  end)

  it("all and any test for nonzero values", function()
    value("boolean", true, m():all())
    value("boolean", false, lt.tensor({ { 1, 0 }, { 1, 1 } }):all())
    same("bool", { true, false }, lt.tensor({ { 1, 1 }, { 0, 1 } }):all(2))
    same("bool", { false, true }, lt.tensor({ { 0, 0 }, { 0, 2 } }):any(2))
    value("boolean", false, lt.zeros({ 2, 2 }):any())
    same("bool", { true, false }, lt.tensor({ { true, false }, { false, false } }):any(2))
  end)

  it("var and std divide by N - correction (default 1; unbiased false: 0)", function()
    -- 1..6: mean 3.5, squared deviations 17.5
    value("float", 3.5, f():var())
    near(17.5 / 6, f():var(false))
    near(17.5 / 6, f():var({ correction = 0 }))
    near(math.sqrt(3.5), f():std())
    near(math.sqrt(17.5 / 6), f():std(nil, false))
    -- rows: {1, 5, 3} and {4, 2, 6}, squared deviations 8 each
    same("float64", { 4, 4 }, f():var(2))
    same("float64", { 2, 2 }, f():std(2))
    near({ 8 / 3, 8 / 3 }, f():var(2, false):tolist())
    near({ { math.sqrt(8 / 3) }, { math.sqrt(8 / 3) } }, f():std(2, false, true):tolist())
    near({ { math.sqrt(8 / 3) }, { math.sqrt(8 / 3) } }, f():std(2, nil, true, { correction = 0 }):tolist())
    -- columns: pairs 3 apart, squared deviations 4.5
    same("float64", { 4.5, 4.5, 4.5 }, f():var(1))
    same("float64", { 1.5, 1.5, 1.5 }, f():std(1, false))
  end)

  it("var gives NaN when N - correction <= 0", function()
    assert.is_true(isnan(lt.tensor({ 5.0 }):var()))
    assert.is_true(isnan(lt.tensor({ 1.0, 2.0 }):var(1, { correction = 2 }):item()))
    value("float", 0.0, lt.tensor({ 5.0 }):var(false))
  end)

  it("var treats a huge correction as huge, not as a truncated int", function()
    local v = lt.tensor({ 1, 2, 3, 4 }, "float64"):var(1, { correction = 1 << 32 })
    assert.is_true(isnan(v:item()), "var with correction 2^32 gave " .. tostring(v:item()))
  end)

  it("reduce transposed views by their logical layout", function()
    local t = m():t() -- | 1 4 | 5 2 | 3 6 |, not contiguous
    assert.is_false(t:is_contiguous())
    same("int64", { 9, 12 }, t:sum(1))
    same("int64", { 5, 7, 9 }, t:sum(2))
    value("integer", 6, t:argmax()) -- 1 4 5 2 3 6: the 6 is 6th
    value("integer", 1, t:argmin())
    value("integer", 2, lt.tensor({ { 1, 2 }, { 9, 3 } }):t():argmax()) -- reads 1 9 2 3
  end)

  it("reduce each dim of a 3-d tensor and of its permutations", function()
    local a = lt.arange(24):reshape(2, 3, 4)
    same("int64", { { 12, 14, 16, 18 }, { 20, 22, 24, 26 }, { 28, 30, 32, 34 } }, a:sum(1))
    same("int64", { { 12, 15, 18, 21 }, { 48, 51, 54, 57 } }, a:sum(2))
    same("int64", { { 6, 22, 38 }, { 54, 70, 86 } }, a:sum(3))
    assert.same({ 1, 3, 4 }, a:sum(1, true).shape)
    assert.same({ 2, 1, 4 }, a:sum(2, true).shape)
    assert.same({ 2, 3, 1 }, a:sum(3, true).shape)
    local p = a:permute(3, 1, 2) -- p[k][i][j] = a[i][j][k]
    same("int64", { { 6, 22, 38 }, { 54, 70, 86 } }, p:sum(1))
    same("int64", { { 4, 4, 4 }, { 4, 4, 4 } }, p:argmax(1))
    same("int64", { { 2, 2, 2, 2 }, { 2, 2, 2, 2 }, { 2, 2, 2, 2 } }, a:permute(2, 3, 1):argmax(3))
    value("integer", 24, p:argmax()) -- the 23 at a[2][3][4] is p[4][2][3]
    local v, i = a:permute(2, 1, 3):max(3) -- v[j][i] = a[i][j][4]
    same("int64", { { 3, 15 }, { 7, 19 }, { 11, 23 } }, v)
    same("int64", { { 4, 4 }, { 4, 4 }, { 4, 4 } }, i)
  end)

  it("sum columns of wide matrices in order", function()
    local a = lt.arange(3000):reshape(3, 1000) -- column j: j, 1000 + j, 2000 + j
    local s = a:sum(1)
    local ok = true
    for j = 1, 1000 do ok = ok and s[j] == 3000 + 3 * (j - 1) end
    assert.is_true(ok)
    local mn = a:to("float64"):mean(1)
    assert.equal(1000 + 999, mn[1000])
    assert.same(a:t():contiguous():sum(2):tolist(), s:tolist())
  end)

  it("sum ten million float32 copies of 0.1 within 1e-6 relative", function()
    local s = lt.full({ 10000000 }, 0.1):sum(1)
    assert.equal("float32", s.dtype)
    assert.is_true(math.abs(s:item() - 1e6) / 1e6 < 1e-6, tostring(s:item()))
    local mean = lt.full({ 10000000 }, 0.1):mean()
    assert.is_true(math.abs(mean - 0.1) / 0.1 < 1e-6, tostring(mean))
  end)

  it("give int64 sums and products of integers and bools, wrapping", function()
    same("int64", 400, lt.tensor({ 200, 200 }, "uint8"):sum(1))
    same("int64", 3, lt.tensor({ 1, 2 }, "int32"):sum(1))
    same("int64", 2, lt.tensor({ true, false, true }):sum(1))
    same("int64", 0, lt.tensor({ true, false }):prod(1))
    value("integer", math.mininteger, lt.tensor({ math.maxinteger, 1 }):sum())
    same("int64", { 2, 0 }, lt.tensor({ { true, true }, { false, false } }):sum(2))
  end)

  it("keep the dtype for floating sums, min and max; give int64 positions and bool tests", function()
    same("float16", 3, lt.tensor({ 1, 2 }, "float16"):sum(1))
    same("int8", -3, lt.tensor({ -3, 5 }, "int8"):min(1))
    same("uint8", 200, lt.tensor({ 3, 200 }, "uint8"):amax(1))
    same("bool", true, lt.tensor({ false, true }):amax(1))
    same("int64", 2, lt.tensor({ 1, 9 }, "float32"):argmax(1))
    same("bool", true, lt.tensor({ 1, 9 }, "float32"):any(1))
    value("boolean", true, lt.tensor({ false, true }):max())
    value("float", 3.0, lt.tensor({ 1, 2 }, "float16"):sum())
  end)

  it("reduce a 0-d tensor over everything or over dim 1", function()
    value("integer", 5, lt.tensor(5):sum())
    same("int64", 5, lt.tensor(5):sum(1))
    local v, i = lt.tensor(5):max(1)
    same("int64", 5, v)
    same("int64", 1, i)
    value("integer", 1, lt.tensor(5):argmax())
    same("int64", 1, lt.tensor(5):argmax(1))
  end)

  it("give 0, 1, true, false and NaN for sum, prod, all, any and mean of nothing", function()
    local e = lt.zeros({ 0 })
    value("float", 0.0, e:sum())
    value("float", 1.0, e:prod())
    value("boolean", true, e:all())
    value("boolean", false, e:any())
    assert.is_true(isnan(e:mean()))
    assert.is_true(isnan(e:var()))
    same("float32", { 0, 0, 0 }, lt.zeros({ 0, 3 }):sum(1))
    same("float32", {}, lt.zeros({ 0, 3 }):sum(2))
  end)

  it("refuse min, max, argmin and argmax of nothing", function()
    raises("empty", function() return lt.zeros({ 0 }):max() end)
    raises("empty", function() return lt.zeros({ 0 }):argmin() end)
    raises("dimension 1 has size 0", function() return lt.zeros({ 0, 3 }):max(1) end)
    local v, i = lt.zeros({ 0, 3 }):max(2) -- nothing to reduce into: fine
    assert.same({ 0 }, v.shape)
    assert.same({ 0 }, i.shape)
  end)

  it("refuse mean, var and std of integers, and complex numbers where undefined", function()
    raises("floating point", function() return m():mean() end)
    raises("floating point", function() return m():var() end)
    raises("floating point", function() return m():std(1) end)
    local z = lt.zeros({ 2 }, "complex64")
    z[1] = { 3, 4 }
    z[2] = { 1, -1 }
    assert.same({ 4, 3 }, z:sum())
    assert.same({ 2, 1.5 }, z:mean())
    assert.same({ 7, 1 }, z:prod())
    same("complex64", { 4, 3 }, z:sum(1))
    raises("complex", function() return z:max() end)
    raises("complex", function() return z:argmin() end)
    raises("complex", function() return z:var() end)
  end)

  it("refuse dims out of range", function()
    raises("out of range", function() return m():sum(3) end)
    raises("out of range", function() return m():max(-3) end)
    raises("out of range", function() return lt.tensor(5):sum(2) end)
    raises("integer", function() return m():sum(1.5) end)
  end)
end)

describe("matmul, dot, t and mT", function()
  it("multiplies matrices", function()
    local a, b = lt.tensor({ { 1, 2 }, { 3, 4 } }), lt.tensor({ { 5, 6 }, { 7, 8 } })
    same("int64", { { 19, 22 }, { 43, 50 } }, a:matmul(b))
    same("int64", { { 23, 34 }, { 31, 46 } }, b:matmul(a))
    same("float64", { { 2 } }, lt.tensor({ { 0.5, 0.25 } }, "float64"):matmul(lt.tensor({ { 2 }, { 4 } }, "float64")))
    same("int64", { { 1, 2, 3 }, { 2, 4, 6 } }, lt.tensor({ { 1 }, { 2 } }):matmul(lt.tensor({ { 1, 2, 3 } })))
  end)

  it("treats a 1-d right operand as a column and a 1-d left one as a row", function()
    local a = lt.tensor({ { 1, 2 }, { 3, 4 } })
    same("int64", { 3, 7 }, a:matmul(lt.tensor({ 1, 1 })))
    same("int64", { 4, 6 }, lt.tensor({ 1, 1 }):matmul(a))
  end)

  it("gives a 0-d dot product of two 1-d tensors, like dot", function()
    local d = lt.tensor({ 1, 2, 3 }):matmul(lt.tensor({ 4, 5, 6 }))
    assert.equal(0, d.ndim)
    assert.equal(32, d:item())
    same("int64", 32, lt.tensor({ 1, 2, 3 }):dot(lt.tensor({ 4, 5, 6 })))
    same("float32", 0, lt.zeros({ 0 }):dot(lt.zeros({ 0 })))
  end)

  it("multiplies batches, broadcasting the batch dims", function()
    local a = lt.arange(8):reshape(2, 2, 2) -- | 0 1 | 2 3 |  and  | 4 5 | 6 7 |
    local swap = lt.tensor({ { 0, 1 }, { 1, 0 } })
    same("int64", { { { 1, 0 }, { 3, 2 } }, { { 5, 4 }, { 7, 6 } } }, a:matmul(swap))
    same("int64", { { { 2, 3 }, { 0, 1 } }, { { 6, 7 }, { 4, 5 } } }, swap:matmul(a))
    same("int64", { { 1, 5 }, { 9, 13 } }, a:matmul(lt.tensor({ 1, 1 })))
    local A = lt.arange(24):reshape(2, 1, 3, 4)
    local B = lt.arange(40):reshape(5, 4, 2)
    local C = A:matmul(B)
    assert.same({ 2, 5, 3, 2 }, C.shape)
    -- A[2][1][3] = {20, 21, 22, 23}, column 2 of B[5] = {33, 35, 37, 39}
    assert.equal(20 * 33 + 21 * 35 + 22 * 37 + 23 * 39, C[{ 2, 5, 3, 2 }])
  end)

  it("multiplies transposed views as their values", function()
    local a = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
    same("int64", { { 17, 22, 27 }, { 22, 29, 36 }, { 27, 36, 45 } }, a:t():matmul(a))
    same("int64", { { 14, 32 }, { 32, 77 } }, a:matmul(a.mT))
  end)

  it("promotes dtypes, computes float16 in float32 and wraps integers", function()
    same("float32", { 3.5 }, lt.tensor({ { 1, 1 } }, "int32"):matmul(lt.tensor({ 1.5, 2 })))
    same("float16", 7, lt.tensor({ 1.5, 2 }, "float16"):matmul(lt.tensor({ 2, 2 }, "float16")))
    same("int8", 44, lt.tensor({ 1, 2 }, "int8"):matmul(lt.tensor({ 100, 100 }, "int8"))) -- 300
    same("int32", { { 2 } }, lt.tensor({ { 1 } }, "int32"):matmul(lt.tensor({ { 2 } }, "int16")))
  end)

  it("gives zeros for an inner size of 0", function()
    same("float32", { { 0, 0, 0 }, { 0, 0, 0 } }, lt.zeros({ 2, 0 }):matmul(lt.zeros({ 0, 3 })))
  end)

  it("refuses mismatched sizes, naming both shapes", function()
    raises("%(2x3%) and %(2x3%)", function() return lt.zeros({ 2, 3 }):matmul(lt.zeros({ 2, 3 })) end)
    raises("do not broadcast", function() return lt.zeros({ 2, 1, 2 }):matmul(lt.zeros({ 3, 2, 1 })) end)
    raises("at least 1 dimension", function() return lt.tensor(1):matmul(lt.tensor({ 1 })) end)
    raises("bool", function() return lt.tensor({ true }):matmul(lt.tensor({ true })) end)
    raises("1%-d tensors expected", function() return lt.zeros({ 2 }):dot(lt.zeros({ 2, 2 })) end)
  end)

  it("t() transposes 2-d tensors as a view and leaves 0-d and 1-d ones", function()
    local a = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
    local t = a:t()
    same("int64", { { 1, 4 }, { 2, 5 }, { 3, 6 } }, t)
    t[1][2] = 40
    assert.equal(40, a[2][1])
    same("int64", { 1, 2 }, lt.tensor({ 1, 2 }):t())
    same("int64", 7, lt.tensor(7):t())
    raises("<= 2 dims", function() return lt.zeros({ 2, 2, 2 }):t() end)
  end)

  it("mT swaps the last two dims of every matrix in a batch", function()
    local a = lt.arange(8):reshape(2, 2, 2)
    same("int64", { { { 0, 2 }, { 1, 3 } }, { { 4, 6 }, { 5, 7 } } }, a.mT)
    raises("at least 2 dims", function() return lt.zeros({ 2 }).mT end)
  end)
end)

describe("lt.cat and lt.stack", function()
  it("cat joins along an existing dim (1 by default, negative from the end)", function()
    same("int64", { 1, 2, 3 }, lt.cat({ lt.tensor({ 1, 2 }), lt.tensor({ 3 }) }))
    local a, b = lt.tensor({ { 1 }, { 2 } }), lt.tensor({ { 3, 4 }, { 5, 6 } })
    same("int64", { { 1, 3, 4 }, { 2, 5, 6 } }, lt.cat({ a, b }, 2))
    same("int64", { { 1, 3, 4 }, { 2, 5, 6 } }, lt.cat({ a, b }, -1))
    same("int64", { { 3, 4 }, { 5, 6 }, { 1, 2 } }, lt.cat({ b, a:t() }, 1))
  end)

  it("cat promotes mixed dtypes", function()
    same("float32", { 1, 2, 1.5 }, lt.cat({ lt.tensor({ 1, 2 }, "int32"), lt.tensor({ 1.5 }) }))
    same("int16", { 255, -1 }, lt.cat({ lt.tensor({ 255 }, "uint8"), lt.tensor({ -1 }, "int8") }))
    same("int64", { 1, 7 }, lt.cat({ lt.tensor({ true }), lt.tensor({ 7 }) }))
    same("float64", { 1, 2 }, lt.cat({ lt.tensor({ 1 }, "float16"), lt.tensor({ 2 }, "float64") }))
  end)

  it("cat skips 1-d empty tensors, as torch, while their dtype still counts", function()
    same("float64", { { 1 } }, lt.cat({ lt.zeros({ 0 }, "float64"), lt.tensor({ { 1 } }) }))
    same("int64", { 1, 2 }, lt.cat({ lt.tensor({ 1, 2 }), lt.zeros({ 0 }, "int64") }))
    assert.same({ 2, 3 }, lt.cat({ lt.zeros({ 2, 0 }), lt.zeros({ 2, 3 }) }, 2).shape)
  end)

  it("stack joins along a new dim", function()
    local a, b = lt.tensor({ 1, 2 }), lt.tensor({ 3, 4 })
    same("int64", { { 1, 2 }, { 3, 4 } }, lt.stack({ a, b }))
    same("int64", { { 1, 3 }, { 2, 4 } }, lt.stack({ a, b }, 2))
    same("int64", { { 1, 3 }, { 2, 4 } }, lt.stack({ a, b }, -1))
    same("int64", { 1, 2 }, lt.stack({ lt.tensor(1), lt.tensor(2) }))
    assert.same({ 3, 2, 2 }, lt.stack({ lt.zeros({ 2, 2 }), lt.ones({ 2, 2 }), lt.zeros({ 2, 2 }) }).shape)
  end)

  it("stack promotes mixed dtypes", function()
    same("int16", { { 1, 2 }, { 3, -4 } }, lt.stack({ lt.tensor({ 1, 2 }, "uint8"), lt.tensor({ 3, -4 }, "int8") }))
    same("float32", { { 1, 2 }, { 0.5, 0 } }, lt.stack({ lt.tensor({ 1, 2 }), lt.tensor({ 0.5, 0 }) }))
  end)

  it("refuse mismatched shapes, naming both sizes", function()
    local msg = raises("sizes", function() return lt.cat({ lt.zeros({ 2, 3 }), lt.zeros({ 2, 4 }) }) end)
    assert.truthy(msg:find("3") and msg:find("4"), msg)
    raises("number of dimensions", function() return lt.cat({ lt.zeros({ 2, 3 }), lt.zeros({ 3 }) }) end)
    raises({ "%[2%].*%[3%]", "%(2%).*%(3%)", "size 2.*size 3" }, function()
      return lt.stack({ lt.zeros({ 2 }), lt.zeros({ 3 }) })
    end)
  end)

  it("refuse bad lists and dims", function()
    raises("non%-empty", function() return lt.cat({}) end)
    raises("element 2 is a number", function() return lt.cat({ lt.zeros({ 1 }), 5 }) end)
    raises("table expected", function() return lt.cat(lt.zeros({ 1 })) end)
    raises("zero%-dimensional", function() return lt.cat({ lt.tensor(1), lt.tensor(2) }) end)
    raises("out of range", function() return lt.cat({ lt.zeros({ 2 }) }, 2) end)
    raises("out of range", function() return lt.stack({ lt.zeros({ 2 }) }, 3) end)
  end)
end)

describe("lt.where and masked_fill", function()
  local c = lt.tensor({ true, false, true })

  it("where picks from the first operand where the condition holds, else the second", function()
    same("int64", { 1, -2, 3 }, lt.where(c, lt.tensor({ 1, 2, 3 }), lt.tensor({ -1, -2, -3 })))
    same("int64", { 1, -1, 3 }, lt.where(c, lt.tensor({ 1, 2, 3 }), -1))
  end)

  it("where takes Lua numbers on either side, with their dtypes", function()
    same("int64", { 1, 0, 1 }, lt.where(c, 1, 0))
    same("float32", { 1.5, 0, 1.5 }, lt.where(c, 1.5, 0))
    same("bool", { true, false, true }, lt.where(c, true, false))
    same("float32", { 1, 2.5, 3 }, lt.where(c, lt.tensor({ 1, 2, 3 }, "int32"), 2.5))
  end)

  it("where broadcasts the condition and both operands", function()
    local r = lt.where(lt.tensor({ { true }, { false } }), lt.tensor({ 1, 2 }), 0)
    same("int64", { { 1, 2 }, { 0, 0 } }, r)
  end)

  it("masked_fill writes the value where the mask holds, keeping the dtype", function()
    same("int64", { 0, 2, 0 }, lt.tensor({ 1, 2, 3 }):masked_fill(c, 0))
    same("int64", { 0, 2, 0 }, lt.tensor({ 1, 2, 3 }):masked_fill(c, 0.5)) -- converted like a write
    same("int32", { 7, 2, 7 }, lt.tensor({ 1, 2, 3 }, "int32"):masked_fill(c, lt.tensor(7)))
    near({ NAN, 2, NAN }, lt.tensor({ 1.0, 2, 3 }):masked_fill(c, NAN):tolist())
    same("float32", { { 9, 1 }, { 9, 1 } }, lt.ones({ 2, 2 }):masked_fill(lt.tensor({ true, false }), 9))
  end)

  it("masked_fill leaves its tensor alone; masked_fill_ writes it", function()
    local t = lt.tensor({ 1, 2, 3 })
    t:masked_fill(c, 0)
    same("int64", { 1, 2, 3 }, t)
    assert.equal(t, t:masked_fill_(c, 0))
    same("int64", { 0, 2, 0 }, t)
  end)

  it("masked_fill refuses a mask that is not bool and a value that is not 0-d", function()
    local t = lt.tensor({ 1, 2 })
    raises("mask must be a bool tensor", t.masked_fill, t, lt.tensor({ 1, 0 }), 0)
    raises("0%-d tensor", t.masked_fill, t, lt.tensor({ true, false }), lt.tensor({ 1, 2 }))
    raises("cannot be converted to int8", function()
      return lt.tensor({ 1 }, "int8"):masked_fill(lt.tensor({ true }), 1000)
    end)
  end)
end)

describe("clamp", function()
  local t = lt.tensor({ 1, 5, 9 })

  it("bounds from below, from above, or both", function()
    same("int64", { 3, 5, 9 }, t:clamp(3))
    same("int64", { 1, 4, 4 }, t:clamp(nil, 4))
    same("int64", { 2, 5, 6 }, t:clamp(2, 6))
    same("int64", { 1, 5, 9 }, t)
  end)

  it("takes tensor bounds, broadcast", function()
    same("int64", { 2, 6, 9 }, t:clamp(lt.tensor({ 2, 6, 7 })))
    same("int64", { { 1, 5, 5 }, { 1, 5, 8 } }, t:clamp(nil, lt.tensor({ { 5 }, { 8 } })))
  end)

  it("promotes like maximum and minimum: a float bound on an int tensor gives floats", function()
    same("float32", { 2.5, 5, 9 }, t:clamp(2.5))
  end)

  it("clamp_ bounds in place, with one bound or two", function()
    local u = lt.tensor({ 1, 5, 9 })
    assert.equal(u, u:clamp_(2))
    same("int64", { 2, 5, 9 }, u)
    u:clamp_(nil, 6)
    same("int64", { 2, 5, 6 }, u)
    u:clamp_(3, 4)
    same("int64", { 3, 4, 4 }, u)
  end)

  -- float tensors with number bounds take one pass; it must give what maximum then minimum give
  it("of float32 and float64 by numbers: NaN propagates, min > max gives max, as maximum then minimum", function()
    for _, dt in ipairs({ "float32", "float64" }) do
      local x = lt.tensor({ -INF, -3, -0.5, 0, 0.25, 2, 7, INF, NAN }, dt)
      local function composed(lo, hi)
        local r = x
        if lo then r = r:maximum(lo) end
        if hi then r = r:minimum(hi) end
        return r:tolist()
      end
      for _, b in ipairs({ { -1, 1 }, { 0.5, nil }, { nil, -2 }, { 3, -3 }, { NAN, 1 }, { -1, NAN },
        { -INF, INF }, { 1e300, nil }, { nil, -1e300 } }) do
        local r = x:clamp(b[1], b[2])
        assert.equal(dt, r.dtype)
        near(composed(b[1], b[2]), r:tolist(), 0)
      end
      same(dt, { -1, -1, -0.5, 0, 0.25, 1, 1, 1 }, lt.tensor({ -INF, -3, -0.5, 0, 0.25, 2, 7, INF }, dt):clamp(-1, 1))
      -- a bound beyond float32's range is +-inf there, as in maximum
      local big = lt.tensor({ 1, -1 }, dt):clamp(nil, 1e300)
      same(dt, { 1, -1 }, big)
      local u = x:clone()
      assert.equal(u, u:clamp_(-1, 1))
      near(composed(-1, 1), u:tolist(), 0)
    end
  end)

  it("of float32 by numbers: strided views, 0-d, empty and large (pooled) tensors", function()
    local m = lt.arange(24, "float32"):view(4, 6) - 10
    local v = m:t()
    same("float32", (v:maximum(lt.tensor(-3, "float32")):minimum(lt.tensor(5, "float32"))):tolist(), v:clamp(-3, 5))
    same("float32", 2, lt.tensor(7, "float32"):clamp(nil, 2))
    same("float32", {}, lt.tensor({}, "float32"):clamp(0, 1))
    local n = 1 << 20
    local big = lt.arange(n, "float32") * (8 / n) - 4
    local r = big:clamp(-1, 2.5)
    local want = big:maximum(lt.tensor(-1, "float32")):minimum(lt.tensor(2.5, "float32"))
    assert.is_true(r:equal(want))
    for _, i in ipairs({ 1, n // 4, n // 2, n }) do
      assert.equal(math.min(math.max(big[i], -1), 2.5), r[i])
    end
  end)

  it("needs at least one bound", function()
    raises("at least one of min and max", t.clamp, t)
    raises("expected a tensor, number or boolean", t.clamp, t, "1")
  end)
end)

describe("map and apply", function()
  it("map calls the function on each element in row-major order, into a new tensor", function()
    local m = lt.tensor({ { 1, 2 }, { 3, 4 } })
    local seen = {}
    local r = m:t():map(function(x)
      seen[#seen + 1] = x
      return x * 10
    end)
    assert.same({ 1, 3, 2, 4 }, seen)
    same("int64", { { 10, 30 }, { 20, 40 } }, r)
    same("int64", { { 1, 2 }, { 3, 4 } }, m)
  end)

  it("map keeps the dtype and converts what the function returns like a write", function()
    same("int32", { 1, -1 }, lt.tensor({ 1, 2 }, "int32"):map(function(x) return x == 1 and 1.9 or -1.9 end))
    same("bool", { false, true }, lt.tensor({ true, false }):map(function(x) return not x end))
    raises("cannot write a string", function()
      return lt.tensor({ 1 }):map(function() return "x" end)
    end)
    raises("cannot be converted", function()
      return lt.tensor({ 1 }, "int8"):map(function() return NAN end)
    end)
  end)

  it("apply replaces each element in place and returns the tensor", function()
    local t = lt.tensor({ { 1, 2 }, { 3, 4 } }, "float64")
    local col = t:select(2, 2)
    assert.equal(col, col:apply(function(x) return x + 0.5 end))
    same("float64", { { 1, 2.5 }, { 3, 4.5 } }, t)
  end)

  it("apply refuses an expanded view, as every in-place operation does", function()
    local base = lt.zeros(1)
    local e, calls = base:expand(3), 0
    local want = select(2, pcall(e.add_, e, 1)):match("unsupported operation.*$")
    local msg = raises("refers to a single memory location",
      function() return e:apply(function(x) calls = calls + 1; return x + 1 end) end)
    assert.equal(want, msg:match("unsupported operation.*$"))
    assert.equal(0, calls) -- the function never ran
    assert.same({ 0 }, base:tolist())
  end)

  it("passes errors raised by the function through", function()
    raises("boom", function()
      return lt.tensor({ 1 }):map(function() error("boom") end)
    end)
    raises("function expected", function() return lt.tensor({ 1 }):map(5) end)
  end)

  it("apply keeps copy-on-write clones taken inside the function unchanged", function()
    local t = lt.tensor({ 1, 2, 3, 4 })
    local snaps = {}
    t:apply(function(x)
      snaps[#snaps + 1] = t:clone()
      return x * 10
    end)
    same("int64", { 10, 20, 30, 40 }, t)
    same("int64", { 1, 2, 3, 4 }, snaps[1])
    same("int64", { 10, 20, 3, 4 }, snaps[3])
  end)

  -- The function may release the tensor it runs over (a `<close>` variable, or a host revoke);
  -- the rest of the walk must raise "tensor has been released", never read freed memory. Run
  -- in a child process: a crash there fails the test instead of the whole spec run.
  for _, method in ipairs({ "map", "apply" }) do
    it(method .. " raises cleanly when the function releases the tensor", function()
      local script = ([[
        local lt = require "ltensor"
        local t = lt.arange(1000):to("float64")
        local ok, err = pcall(t.%s, t, function(x)
          if x == 1 then
            do local u <close> = t end
            collectgarbage(); collectgarbage()
            local junk = {}
            for i = 1, 100 do junk[i] = lt.full({ 16 }, 7.0) end
          end
          return x
        end)
        io.write(ok and "no error" or tostring(err))
      ]]):format(method)
      local path = os.tmpname()
      local f = assert(io.open(path, "w"))
      f:write(script)
      f:close()
      local p = assert(io.popen("lua5.4 " .. path .. " 2>&1"))
      local out = p:read("a")
      local ok, how, code = p:close()
      os.remove(path)
      assert.is_true(ok, ("child %s %s: %s"):format(tostring(how), tostring(code), out))
      assert.truthy(out:find("released", 1, true), out)
    end)
  end
end)

describe("read-only tensors", function()
  local function readonly()
    local base = lt.tensor({ 1.5, -2, 4 })
    return dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(base)), base
  end

  local writes = {
    { "add_", 1 }, { "sub_", 1 }, { "mul_", 2 }, { "div_", 2 }, { "floor_divide_", 2 },
    { "remainder_", 2 }, { "pow_", 2 }, { "maximum_", 0 }, { "minimum_", 0 }, { "neg_" },
    { "abs_" }, { "sqrt_" }, { "exp_" }, { "log_" }, { "sin_" }, { "cos_" }, { "tanh_" },
    { "floor_" }, { "ceil_" }, { "round_" }, { "sign_" }, { "clamp_", 0, 1 },
  }
  for _, w in ipairs(writes) do
    it(w[1] .. " raises \"read-only\" and leaves the data alone", function()
      local ro, base = readonly()
      assert.is_true(ro:is_read_only())
      raises("read%-only", ro[w[1]], ro, table.unpack(w, 2))
      assert.same({ 1.5, -2, 4 }, base:tolist())
    end)
  end

  it("masked_fill_ and apply raise \"read-only\"", function()
    local ro, base = readonly()
    raises("read%-only", ro.masked_fill_, ro, lt.tensor({ true, true, true }), 0)
    raises("read%-only", ro.apply, ro, function(x) return x end)
    assert.same({ 1.5, -2, 4 }, base:tolist())
  end)

  it("can be read: out-of-place math gives new writable tensors", function()
    local ro = readonly()
    local r = ro + 1
    same("float32", { 2.5, -1, 5 }, r)
    assert.is_false(r:is_read_only())
    value("float", 3.5, ro:sum())
    same("float32", { 1.5, 2, 4 }, ro:abs())
    same("float32", { 3, -4, 8 }, ro:map(function(x) return 2 * x end))
    value("float", 4.0, ro:max())
    same("float32", { 1.5, -2, 4, 1.5, -2, 4 }, lt.cat({ ro, ro }))
    local w = lt.zeros({ 3 })
    w:add_(ro)
    same("float32", { 1.5, -2, 4 }, w)
  end)
end)

describe("copy-on-write clones", function()
  local writes = {
    { "add_", function(c) c:add_(1) end },
    { "neg_", function(c) c:neg_() end },
    { "clamp_", function(c) c:clamp_(1, 2) end },
    { "masked_fill_", function(c) c:masked_fill_(lt.tensor({ true, false, false, false }), 9) end },
    { "apply", function(c) c:apply(function(x) return x + 1 end) end },
    { "a view's mul_", function(c) c:narrow(1, 2, 2):mul_(5) end },
  }
  for _, w in ipairs(writes) do
    it("in-place " .. w[1] .. " on a clone leaves the source unchanged and gives the clone its own memory", function()
      local t = lt.arange(4)
      local shared = t:const_data_ptr()
      local c = t:clone()
      assert.equal(shared, c:const_data_ptr())
      w[2](c)
      assert.same({ 0, 1, 2, 3 }, t:tolist())
      assert.equal(shared, t:const_data_ptr())
      assert.are_not.equal(shared, c:const_data_ptr())
    end)

    it("in-place " .. w[1] .. " on the source leaves its clone unchanged", function()
      local t = lt.arange(4)
      local c = t:clone()
      w[2](t)
      assert.same({ 0, 1, 2, 3 }, c:tolist())
    end)
  end

  it("reading a clone in math does not copy it", function()
    local t = lt.arange(4)
    local c = t:clone()
    local _ = c + 1, c:sum(), c:max(1), c:matmul(c), lt.cat({ c, c }), lt.where(c:gt(1), c, 0)
    assert.equal(t:const_data_ptr(), c:const_data_ptr())
  end)

  it("adding a clone into its source reads the values from before the write", function()
    local t = lt.arange(4)
    local c = t:clone()
    t:add_(c)
    same("int64", { 0, 2, 4, 6 }, t)
    same("int64", { 0, 1, 2, 3 }, c)
  end)
end)

describe("bad input", function()
  it("names the operation and the type of a bad operand", function()
    local t = lt.tensor({ 1 })
    raises("add: expected a tensor, number or boolean, got string", function() return t + "1" end)
    raises("mul: expected a tensor, number or boolean, got table", function() return t * {} end)
    raises("got no value", function() return t:sub(nil) end)
    raises("got function", function() return t:maximum(print) end)
    raises("pow: expected a tensor", function() return t ^ {} end)
    raises("tensor expected", function() return t:matmul(1) end)
    raises("tensor expected", function() return lt.where(true, 1, 0) end)
  end)

  it("refuses bool subtraction and negation, pointing at the logical ops", function()
    local b = lt.tensor({ true, false })
    raises("sub: not supported for bool", function() return b - b end)
    raises("logical_not", function() return -b end)
    raises("logical_not", b.neg, b)
  end)

  it("refuses ordering comparisons and other real-only math on complex numbers", function()
    local z = lt.zeros({ 2 }, "complex64")
    for _, name in ipairs({ "lt", "le", "gt", "ge", "maximum", "minimum", "floor_divide", "remainder" }) do
      raises(name .. ": not supported for complex64", z[name], z, z)
    end
    raises("not supported for complex64", z.sqrt, z)
    raises("not supported for complex64", z.floor, z)
  end)

  it("refuses math on released tensors", function()
    local t = lt.tensor({ 1 })
    do local u <close> = t end
    raises("tensor has been released", function() return t + 1 end)
    raises("tensor has been released", function() return lt.tensor({ 1 }) + t end)
    raises("tensor has been released", t.sum, t)
  end)
end)

describe("Lua's own == and <", function()
  it("== is identity: a tensor equals itself, not an equal clone", function()
    local a = lt.tensor({ 1, 2 })
    assert.is_true(a == a)
    assert.is_false(a == a:clone())
    assert.is_false(a == lt.tensor({ 1, 2 }))
    assert.is_false(a == 1)
    assert.is_true(a ~= a:clone())
  end)

  it("< and <= raise; eq, lt, le ... are the elementwise comparisons", function()
    local a, b = lt.tensor({ 1 }), lt.tensor({ 2 })
    raises("cannot be compared elementwise.*use t:lt%(x%)", function() return a < b end)
    raises("cannot be compared elementwise.*use t:le%(x%)", function() return a <= b end)
    raises("cannot be compared elementwise.*use t:gt%(x%)", function() return a > 1 end)
    same("bool", { true }, a:lt(b))
  end)
end)

describe("add and sub with torch's alpha option", function()
  it("add alpha times the operand, a tensor or a number, also in place", function()
    local a = lt.arange(4)
    same("int64", { 0, 3, 6, 9 }, a:add(a, { alpha = 2 }))
    same("int64", { -3, -2, -1, 0 }, a:sub(1, { alpha = 3 }))
    same("float32", { 0, 1.5, 3, 4.5 }, a:to("float32"):add(a, { alpha = 0.5 }))
    same("float32", { 3, 4, 5, 6 }, a:add(1.5, { alpha = 2 }))
    local b = a:clone()
    b:sub_(a, { alpha = -1 })
    same("int64", { 0, 2, 4, 6 }, b)
    same("int64", { math.mininteger }, lt.tensor({ 0 }):add(1 << 62, { alpha = 2 })) -- wraps
  end)

  it("refuse a float alpha for integer operands and options other than alpha", function()
    local a = lt.arange(4)
    raises("alpha must be an integer for integer operands", function() return a:add(a, { alpha = 0.5 }) end)
    raises("alpha must be a number", function() return a:add(a, { alpha = "2" }) end)
    raises("add: unknown option 'beta' %(expected alpha%)", function() return a:add(a, { beta = 1 }) end)
  end)
end)

describe("div with torch's rounding_mode option", function()
  it("divides truly by default and floors with rounding_mode 'floor'", function()
    local a = lt.tensor({ 7, -7 })
    same("float32", { 3.5, -3.5 }, a:div(2))
    same("int64", { 3, -4 }, a:div(2, { rounding_mode = "floor" }))
    same("float32", { 3, -4 }, a:to("float32"):div(2, { rounding_mode = "floor" }))
    local b = a:clone()
    b:div_(2, { rounding_mode = "floor" })
    same("int64", { 3, -4 }, b)
  end)

  it("refuses 'trunc', which has no kernel, and unknown modes", function()
    local a = lt.tensor({ 7, -7 })
    raises("'trunc' is not supported", function() return a:div(2, { rounding_mode = "trunc" }) end)
    raises("must be 'floor' or 'trunc', got round", function() return a:div(2, { rounding_mode = "round" }) end)
  end)
end)

describe("large elementwise results (streaming stores)", function()
  -- Outputs larger than most of the last-level cache are written with streaming stores by
  -- kernels of their own (src/core/simd/lt_stream.c); `ctest -R _stream` runs this file with
  -- LTENSOR_STREAM_BYTES=0, so that every size takes them. A strided input always takes the
  -- plain kernel: the two must agree bit for bit.
  local specials = { 0 / 0, -(0 / 0), 0.0, -0.0, 1 / 0, -1 / 0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
    1e-40, -3e-39, 8388608.5, -8388609, 3.4e38, -3.3e38, 4503599627370497 }
  -- n values: the specials (NaN of one sign only where `one_nan`: the sign of an arithmetic
  -- NaN is the hardware's), then a ramp
  local function values(n, dtype, one_nan)
    local x = lt.arange(n, dtype) * 0.37 - n * 0.18
    for i, v in ipairs(specials) do
      if i <= n and not (one_nan and i == 2) then x[i] = v end
    end
    return x
  end
  -- a strided copy of x: every other element of a wider tensor
  local function strided(x)
    local s = lt.zeros({ x.shape[1], 2 }, x.dtype):select(2, 1)
    s:copy_(x)
    return s
  end
  local function bits(t) return t:view(t.dtype == "float32" and "int32" or "int64") end
  local unary = { "abs", "neg", "floor", "ceil", "round", "trunc", "frac", "relu" }
  local binary = { "add", "sub", "mul", "div", "maximum", "minimum" }
  for _, n in ipairs({ 1000, 1 << 22 }) do
    for _, dtype in ipairs({ "float32", "float64" }) do
      it(("give the plain kernels' bits: %d %s elements"):format(n, dtype), function()
        local x, y = values(n, dtype), values(n, dtype, true):flip(1)
        local xs, ys = strided(x), strided(y)
        for _, f in ipairs(unary) do
          assert.is_true(bits(x[f](x)):equal(bits(xs[f](xs))), f)
        end
        x = values(n, dtype, true)
        xs = strided(x)
        for _, f in ipairs(binary) do
          assert.is_true(bits(x[f](x, y)):equal(bits(xs[f](xs, ys))), f)
          assert.is_true(bits(x[f](x, 0.25)):equal(bits(xs[f](xs, 0.25))), f .. " with a number")
          assert.is_true(bits(x[f](x, y[{ { 1, 1 } }])):equal(bits(xs[f](xs, ys[{ { 1, 1 } }]))),
            f .. " broadcast")
        end
      end)
    end
  end
  it("write in place, and into views", function()
    local n = 1 << 20
    local x = values(n, "float32")
    local want = strided(x):floor()
    local y = x:clone()
    y:floor_()
    assert.is_true(bits(y):equal(bits(want)))
    local wide = lt.zeros(n + 3, "float32")
    local part = wide:narrow(1, 2, n) -- an output that is not 32-byte aligned
    part:copy_(x)
    part:floor_()
    assert.is_true(bits(part):equal(bits(want)))
    assert.equal(0, wide[1])
    assert.equal(0, wide[n + 2])
  end)
end)
