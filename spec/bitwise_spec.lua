-- The bitwise methods bitwise_and, bitwise_or, bitwise_xor, bitwise_not, bitwise_left_shift,
-- bitwise_right_shift (and their in-place `_` forms) and Lua 5.4's operators & | ~ << >> and
-- unary ~ on tensors.
--
-- The reference is PyTorch: integer and bool tensors only (bool: the logical and, or, xor, not;
-- no shifts of bools), torch's type promotion, and the shifts as torch 2.x defines them for
-- every amount: shifting left by a negative amount or by the bit width or more gives 0,
-- shifting right so gives the sign (0 or -1); right shifts of signed integers are arithmetic.
-- The expected values come from a reference written here with Lua's 64-bit integers, wrapped
-- to each dtype's width; spec/c/torch_host.c compares the same operations with torch itself.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local raises = require("helpers").raises

-- {====== the reference ======

local INTS = {
  uint8 = { 8, false }, int8 = { 8, true }, int16 = { 16, true }, int32 = { 32, true },
  int64 = { 64, true }, uint16 = { 16, false }, uint32 = { 32, false }, uint64 = { 64, false },
}
local INT_NAMES = { "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64" }

-- v reduced to dtype dt's width (two's complement), as tolist reads it back (uint64 above
-- 2^63 reads as a negative Lua integer, the same bits).
local function wrap(dt, v)
  local w, signed = INTS[dt][1], INTS[dt][2]
  if w == 64 then return v end
  v = v & ((1 << w) - 1)
  if signed and v >= (1 << (w - 1)) then v = v - (1 << w) end
  return v
end

local function ref_shl(dt, x, y)
  local w = INTS[dt][1]
  if y < 0 or y >= w then return 0 end
  return wrap(dt, x << y)
end

local function ref_shr(dt, x, y)
  local w, signed = INTS[dt][1], INTS[dt][2]
  if y < 0 or y >= w then return (signed and x < 0) and -1 or 0 end
  if x < 0 then return ~((~x) >> y) end -- arithmetic: only signed dtypes read negative here
  return x >> y
end

local REF = {
  bitwise_and = function(dt, x, y) return wrap(dt, x & y) end,
  bitwise_or = function(dt, x, y) return wrap(dt, x | y) end,
  bitwise_xor = function(dt, x, y) return wrap(dt, x ~ y) end,
  bitwise_left_shift = ref_shl,
  bitwise_right_shift = ref_shr,
}
local BINARY = { "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
  "bitwise_right_shift" }

-- Values of every corner of dtype dt: 0, 1, small ones, alternating bits, the extremes.
local function corners(dt)
  local w, signed = INTS[dt][1], INTS[dt][2]
  local hi = w == 64 and math.maxinteger or (signed and (1 << (w - 1)) - 1 or (1 << w) - 1)
  local vs = { 0, 1, 2, 5, 7, hi, hi - 1, wrap(dt, 0x5555555555555555) & hi,
    wrap(dt, 0x3333333333333333) & hi }
  if signed then
    for _, v in ipairs({ -1, -2, -5, -hi - 1, -hi }) do vs[#vs + 1] = v end
  end
  return vs
end

local function map2(dt, f, xs, ys)
  local r = {}
  for i = 1, #xs do r[i] = f(dt, xs[i], ys[i]) end
  return r
end

-- }======

describe("bitwise operations on every integer dtype", function()
  for _, dt in ipairs(INT_NAMES) do
    local xs = corners(dt)
    -- every pair of corners: a against each rotation of itself
    local as, bs = {}, {}
    for s = 0, #xs - 1 do
      for i = 1, #xs do
        as[#as + 1] = xs[i]
        bs[#bs + 1] = xs[(i + s - 1) % #xs + 1]
      end
    end
    local a, b = lt.tensor(as, dt), lt.tensor(bs, dt)

    for _, name in ipairs({ "bitwise_and", "bitwise_or", "bitwise_xor" }) do
      it(name .. " of " .. dt .. " tensors", function()
        local r = a[name](a, b)
        assert.equal(dt, r.dtype)
        assert.same(map2(dt, REF[name], as, bs), r:tolist())
      end)
    end

    it("bitwise_not of " .. dt, function()
      local r = a:bitwise_not()
      assert.equal(dt, r.dtype)
      local want = {}
      for i = 1, #as do want[i] = wrap(dt, ~as[i]) end
      assert.same(want, r:tolist())
      assert.same(want, (~a):tolist())
    end)

    it("shifts of " .. dt .. " by 0 to width + 2 and by negative amounts", function()
      local w, signed = INTS[dt][1], INTS[dt][2]
      local amounts = {}
      for s = 0, w + 2 do amounts[#amounts + 1] = s end
      if w < 64 then amounts[#amounts + 1] = w * 2 end
      if signed then
        for _, s in ipairs({ -1, -2, -w, -w - 1, -(1 << (w - 1)) }) do amounts[#amounts + 1] = s end
      end
      local xv, yv = {}, {}
      for _, x in ipairs(xs) do
        for _, s in ipairs(amounts) do
          xv[#xv + 1] = x
          yv[#yv + 1] = s
        end
      end
      local x, y = lt.tensor(xv, dt), lt.tensor(yv, dt)
      local l, r = x:bitwise_left_shift(y), x:bitwise_right_shift(y)
      assert.equal(dt, l.dtype)
      assert.equal(dt, r.dtype)
      assert.same(map2(dt, ref_shl, xv, yv), l:tolist())
      assert.same(map2(dt, ref_shr, xv, yv), r:tolist())
      assert.same(l:tolist(), (x << y):tolist())
      assert.same(r:tolist(), (x >> y):tolist())
    end)

    it("in-place forms of " .. dt .. " write the tensor", function()
      for _, name in ipairs(BINARY) do
        local c = a:clone()
        local y = name:find("shift") and lt.full({ #as }, 3, dt) or b
        local want = c[name](c, y):tolist()
        assert.equal(c, c[name .. "_"](c, y))
        assert.same(want, c:tolist())
      end
      local c = a:clone()
      c:bitwise_not_()
      assert.same(a:bitwise_not():tolist(), c:tolist())
    end)

    it("a Lua integer on either side for " .. dt, function()
      local r = a & 6
      assert.equal(dt, r.dtype)
      assert.same(map2(dt, REF.bitwise_and, as, (function()
        local t = {}
        for i = 1, #as do t[i] = 6 end
        return t
      end)()), r:tolist())
      assert.same(r:tolist(), (6 & a):tolist())
      assert.same((a | lt.full({ #as }, 3, dt)):tolist(), (3 | a):tolist())
      assert.same((a ~ lt.full({ #as }, 1, dt)):tolist(), (1 ~ a):tolist())
      assert.same((a << lt.full({ #as }, 2, dt)):tolist(), (a << 2):tolist())
      assert.same((a >> lt.full({ #as }, 2, dt)):tolist(), a:bitwise_right_shift(2):tolist())
      local two = lt.full({ #as }, 2, dt)
      local clamped = a:bitwise_and(7)
      assert.same(two:bitwise_left_shift(clamped):tolist(), (2 << clamped):tolist())
      assert.same(two:bitwise_right_shift(clamped):tolist(), (2 >> clamped):tolist())
    end)
  end
end)

describe("bitwise operations on bool tensors", function()
  local a = lt.tensor({ true, true, false, false })
  local b = lt.tensor({ true, false, true, false })
  it("and, or, xor, not are the logical ones and stay bool", function()
    assert.same({ true, false, false, false }, (a & b):tolist())
    assert.same({ true, true, true, false }, (a | b):tolist())
    assert.same({ false, true, true, false }, (a ~ b):tolist())
    assert.same({ false, false, true, true }, (~a):tolist())
    assert.equal("bool", a:bitwise_xor(b).dtype)
    assert.same({ false, true, true, false }, a:bitwise_xor(b):tolist())
    assert.same({ false, false, true, true }, a:bitwise_not():tolist())
  end)
  it("with a boolean stays bool; with an integer gives int64, as torch", function()
    assert.same({ false, false, true, true }, (a ~ true):tolist())
    assert.equal("bool", (a & true).dtype)
    local r = a & 1
    assert.equal("int64", r.dtype)
    assert.same({ 1, 1, 0, 0 }, r:tolist())
    assert.same({ 3, 3, 2, 2 }, (2 | a):tolist())
    local s = a << 1
    assert.equal("int64", s.dtype)
    assert.same({ 2, 2, 0, 0 }, s:tolist())
  end)
  it("in place", function()
    local c = a:clone()
    c:bitwise_xor_(b)
    assert.same({ false, true, true, false }, c:tolist())
    c:bitwise_not_()
    assert.same({ true, false, false, true }, c:tolist())
    raises("result type int64 can't be cast to the tensor's dtype bool", c.bitwise_and_, c, 1)
  end)
  it("shifts of bools raise", function()
    raises("bitwise_left_shift: not supported for bool %(integer expected%)",
      function() return a << b end)
    raises("bitwise_right_shift: not supported for bool", a.bitwise_right_shift, a, true)
  end)
end)

describe("bitwise promotion", function()
  it("follows torch's rules", function()
    local i8 = lt.tensor({ 3 }, "int8")
    local i16 = lt.tensor({ 5 }, "int16")
    local u8 = lt.tensor({ 200 }, "uint8")
    assert.equal("int16", (i8 & i16).dtype)
    assert.same({ 1 }, (i8 & i16):tolist())
    local r = u8 | i8
    assert.equal("int16", r.dtype)
    assert.same({ 203 }, r:tolist())
    assert.equal("uint8", (u8 & 15).dtype)
    assert.same({ 8 }, (u8 & 15):tolist())
    assert.equal("int8", (i8 & true).dtype)
    assert.equal("int32", (lt.tensor({ 1 }, "int32") | lt.tensor(1 << 40)).dtype) -- 0-d joins
    assert.equal("uint64", (lt.tensor({ 1 }, "uint64") ~ lt.tensor({ 1 }, "uint32")).dtype)
  end)
  it("a Lua integer must fit the dtype (the writes rule)", function()
    local u8 = lt.tensor({ 200 }, "uint8")
    raises("value 300 cannot be converted to uint8 without overflow", function() return u8 & 300 end)
    raises("value %-1 cannot be converted to uint8", function() return u8 << -1 end)
    raises("cannot be converted to int8", function() return lt.tensor({ 1 }, "int8") << 300 end)
  end)
  it("in place keeps the tensor's dtype when the result casts to it", function()
    local x = lt.tensor({ 1, 2, 3 }, "int8")
    x:bitwise_and_(lt.tensor({ 1 }, "int16"))
    assert.equal("int8", x.dtype)
    assert.same({ 1, 0, 1 }, x:tolist())
  end)
end)

describe("floating operands raise as torch", function()
  local f = lt.tensor({ 1.5, 2 })
  for _, name in ipairs(BINARY) do
    it(name .. " of float32", function()
      local what = name:find("shift") and "integer" or "integer or bool"
      raises(name .. ": not supported for float32 %(" .. what .. " expected%)", f[name], f, f)
      raises(name .. ": not supported for float32", f[name], lt.tensor({ 1 }, "int32"), 1.5)
      raises(name .. ": not supported for float16", f[name], f:to("float16"), 1)
      raises(name .. ": not supported for complex64", f[name], lt.tensor({ 1 }, "complex64"), 1)
      raises(name .. "_: not supported for float64", f[name .. "_"], lt.tensor({ 1.0 }, "float64"), 1)
    end)
  end
  it("bitwise_not of float32 and ~ of float64", function()
    raises("bitwise_not: not supported for float32 %(integer or bool expected%)",
      f.bitwise_not, f)
    raises("bitwise_not: not supported for float64", function() return ~f:to("float64") end)
    raises("bitwise_not_: not supported for float32", f.bitwise_not_, f)
  end)
  it("the operators take a float with an integral value as Lua does, and refuse others", function()
    local a = lt.tensor({ 6, 5 }, "int32")
    assert.same({ 2, 0 }, (a & 2.0):tolist())
    assert.same({ 12, 10 }, (a << 1.0):tolist())
    assert.same({ 7, 7 }, (3.0 | a):tolist())
    raises("bitwise_and: number has no integer representation", function() return a & 1.5 end)
    raises("bitwise_left_shift: number has no integer representation", function() return 0.5 << a end)
    -- the methods keep torch's rule: a float scalar makes the result float
    raises("bitwise_and: not supported for float32", a.bitwise_and, a, 2.0)
  end)
  it("a non-number operand raises", function()
    local a = lt.tensor({ 6, 5 }, "int32")
    raises("expected a tensor, number or boolean, got table", function() return a & {} end)
  end)
end)

describe("bitwise shapes and layouts", function()
  it("broadcasts", function()
    local m = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32")
    local v = lt.tensor({ 1, 2, 4 }, "int32")
    assert.same({ { 1, 2, 0 }, { 0, 0, 4 } }, (m & v):tolist())
    local col = lt.tensor({ { 1 }, { 3 } }, "int16")
    local row = lt.tensor({ { 0, 1, 2 } }, "int16")
    local r = col << row
    assert.equal("int16", r.dtype)
    assert.same({ { 1, 2, 4 }, { 3, 6, 12 } }, r:tolist())
    raises("output with shape %[3%] doesn't match the broadcast shape %[2, 3%]",
      v.bitwise_or_, v, m)
  end)
  it("0-d tensors", function()
    local z = lt.tensor(6, "int32")
    local r = z & 3
    assert.equal(0, r:dim())
    assert.equal(2, r:item())
    assert.equal(-7, (~z):item())
    assert.equal(12, (z << lt.tensor(1, "int32")):item())
  end)
  it("empty tensors", function()
    local e = lt.zeros({ 0, 3 }, "int32")
    local r = e | 1
    assert.same({ 0, 3 }, r.shape)
    assert.equal("int32", r.dtype)
    assert.same({ 0, 3 }, (~e).shape)
    assert.same({ 0, 3 }, (e << e).shape)
  end)
  it("non-contiguous inputs and outputs", function()
    local m = lt.arange(0, 12, 1, "int32"):view(3, 4)
    local t = m:t()
    assert.is_false(t:is_contiguous())
    local want = {}
    local tl = t:tolist()
    for i = 1, #tl do
      want[i] = {}
      for j = 1, #tl[i] do want[i][j] = tl[i][j] ~ 5 end
    end
    assert.same(want, (t ~ 5):tolist())
    assert.same(want, (t ~ lt.full({ 4, 3 }, 5, "int32")):tolist())
    local c = m:clone()
    c:t():bitwise_xor_(5)
    assert.same(want, c:t():tolist())
    local n = m:narrow(2, 2, 2) -- a strided window
    assert.same({ { 1, 2 }, { 5, 6 }, { 9, 10 } }, n:tolist())
    assert.same({ { 2, 4 }, { 10, 12 }, { 18, 20 } }, (n << 1):tolist())
    assert.same({ { 0, 1 }, { 2, 3 }, { 4, 5 } }, (n >> 1):tolist())
  end)
  it("large tensors (split over the pool) give the same bits", function()
    local n = 1 << 20
    local a = lt.arange(0, n, 1, "int32")
    assert.equal(n // 2, (a & 1):sum())
    assert.equal((n - 1) * n, (a << 1):sum())
    assert.equal(-(n * (n + 1)) // 2, (~a):sum())
    local b = a:clone()
    b:bitwise_right_shift_(19)
    assert.equal(n // 2, b:sum())
  end)
end)

describe("read-only tensors", function()
  local function readonly()
    local base = lt.tensor({ 1, 2, 3 }, "int32")
    return dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(base)), base
  end
  for _, name in ipairs({ "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_",
    "bitwise_right_shift_" }) do
    it(name .. " raises \"read-only\" and leaves the data alone", function()
      local ro, base = readonly()
      raises("read%-only", ro[name], ro, 1)
      assert.same({ 1, 2, 3 }, base:tolist())
    end)
  end
  it("bitwise_not_ raises; the operators give new writable tensors", function()
    local ro, base = readonly()
    raises("read%-only", ro.bitwise_not_, ro)
    assert.same({ 1, 2, 3 }, base:tolist())
    local r = ro & 1
    assert.same({ 1, 0, 1 }, r:tolist())
    assert.is_false(r:is_read_only())
    assert.same({ -2, -3, -4 }, (~ro):tolist())
  end)
end)
