-- writes_spec.lua -- Lua values written into tensors, as a user hits them: every write path
-- raises for a value outside the element type's range (before writing anything), floats
-- truncate toward zero, NaN and infinities never reach an integer, casts between tensors still
-- wrap; uint64 elements are the Lua integers of the same bits (string.pack "I8"); torch's dtype
-- aliases; lt.from_bytes's arguments.
local lt = require "ltensor"
local raises = require("helpers").raises

local function overflow(v, dtype)
  return (("value %s cannot be converted to %s without overflow"):format(v, dtype):gsub("[%-%.]", "%%%0"))
end

describe("a value outside uint8's range", function()
  local MSG = overflow(256, "uint8")
  local function u8(list) return lt.tensor(list or { 1, 2, 3 }, "uint8") end

  it("raises for u[i] = 256 (which stored 0) and leaves the element as it was", function()
    local u = u8()
    raises(MSG, function() u[1] = 256 end)
    raises(overflow(-1, "uint8"), function() u[-1] = -1 end)
    assert.same({ 1, 2, 3 }, u:tolist())
  end)

  it("raises for fill_(300) (which stored 44) before writing any element", function()
    local u = u8()
    raises(overflow(300, "uint8"), u.fill_, u, 300)
    raises(overflow(300.5, "uint8"), u.fill_, u, 300.5)
    assert.same({ 1, 2, 3 }, u:tolist())
    u:fill_(255)
    assert.same({ 255, 255, 255 }, u:tolist())
  end)

  it("raises for lt.full and lt.tensor with 300 (which made 44s)", function()
    raises(overflow(300, "uint8"), lt.full, { 2 }, 300, "uint8")
    raises(overflow(300, "uint8"), lt.full, 2, 300, "uint8")
    raises(overflow(300, "uint8"), lt.tensor, 300, "uint8")
    raises(overflow(300, "uint8"), lt.tensor, { 1, 300 }, "uint8")
    raises(overflow(300, "uint8"), lt.tensor, { { 1, 2 }, { 3, 300 } }, "uint8")
    raises(overflow(-129, "int8"), lt.tensor, { { { -129 } } }, "int8")
  end)

  it("raises for a sub-tensor fill t[i] = v and a table key t[{2, {1, 3}}] = v", function()
    local m = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } }, "uint8")
    raises(MSG, function() m[1] = 256 end)
    raises(MSG, function() m[{ 2, { 1, 3 } }] = 256 end)
    raises(MSG, function() m[{ {}, 2 }] = 256 end)
    raises(MSG, function() m[{ 1, 1 }] = 256 end)
    raises(MSG, function() m[2] = { 7, 256, 9 } end)
    assert.same({ { 1, 2, 3 }, { 4, 5, 6 } }, m:tolist())
  end)

  it("raises for t:set(i, j, v) and copy_ of a scalar", function()
    local m = lt.tensor({ { 1, 2 }, { 3, 4 } }, "uint8")
    raises(MSG, m.set, m, 1, 2, 256)
    raises(MSG, m.copy_, m, 256)
    assert.same({ { 1, 2 }, { 3, 4 } }, m:tolist())
  end)

  it("raises for masked_fill, masked_fill_, where with a scalar and clamp bounds", function()
    local u, mask = u8(), lt.tensor({ true, false, true })
    raises(overflow(300, "uint8"), u.masked_fill, u, mask, 300)
    raises(overflow(300, "uint8"), u.masked_fill_, u, mask, 300)
    raises(overflow(300, "uint8"), lt.where, mask, u, 300)
    raises(overflow(300, "uint8"), u.clamp, u, 0, 300)
    raises(overflow(-1, "uint8"), u.clamp_, u, -1, 2)
    assert.same({ 1, 2, 3 }, u:tolist())
    assert.same({ 255, 2, 255 }, u:masked_fill(mask, 255):tolist())
  end)

  it("raises for arange with a dtype that cannot hold its values (which wrapped to 0, 1)", function()
    raises(MSG, lt.arange, 250, 260, "uint8")
    raises(overflow(128, "int8"), lt.arange, 120, 130, 1, "int8")
    assert.same({ 254, 255 }, lt.arange(254, 256, "uint8"):tolist())
  end)

  it("raises for binary operators with a scalar, as before", function()
    local u = u8()
    raises(overflow(300, "uint8"), function() return u + 300 end)
    raises(overflow(300, "uint8"), u.add_, u, 300)
    raises(overflow(300, "uint8"), u.eq, u, 300)
    assert.same({ 1, 2, 3 }, u:tolist())
  end)
end)

describe("every integer dtype's range", function()
  local RANGES = {
    { "int8", -128, 127 }, { "uint8", 0, 255 }, { "int16", -32768, 32767 },
    { "uint16", 0, 65535 }, { "int32", -2147483648, 2147483647 }, { "uint32", 0, 4294967295 },
  }
  for _, r in ipairs(RANGES) do
    local dtype, lo, hi = r[1], r[2], r[3]
    it(("%s accepts %d and %d and refuses %d and %d on every path"):format(dtype, lo, hi, lo - 1,
      hi + 1), function()
      local t = lt.zeros(2, dtype)
      t[1], t[2] = lo, hi
      assert.same({ lo, hi }, t:tolist())
      assert.same({ hi, hi }, lt.full({ 2 }, hi, dtype):tolist())
      assert.same({ lo, hi }, lt.tensor({ lo, hi }, dtype):tolist())
      assert.same({ lo + 0.0, hi + 0.0 }, lt.tensor({ lo + 0.0, hi + 0.0 }, dtype):tolist())
      for _, bad in ipairs({ lo - 1, hi + 1 }) do
        raises(overflow(bad, dtype), function() t[1] = bad end)
        raises(overflow(bad, dtype), t.set, t, 2, bad)
        raises(overflow(bad, dtype), t.fill_, t, bad)
        raises(overflow(bad, dtype), lt.full, { 2 }, bad, dtype)
        raises(overflow(bad, dtype), lt.tensor, { bad }, dtype)
        raises(overflow(bad, dtype), function() t[1] = bad + 0.0 end) -- as a float
      end
      assert.same({ lo, hi }, t:tolist())
    end)
  end

  it("int64 holds Lua's integers, and refuses floats from 2^63 on", function()
    local t = lt.zeros(2, "int64")
    t[1], t[2] = math.mininteger, math.maxinteger
    assert.same({ math.mininteger, math.maxinteger }, t:tolist())
    t[1] = -2 ^ 63 -- a float, exactly the smallest int64
    assert.equal(math.mininteger, t[1])
    t[2] = 2 ^ 63 - 1024 -- the largest float below 2^63
    assert.equal(9223372036854774784, t[2])
    raises("value 9.2233720368547758e%+18 cannot be converted to int64 without overflow",
      function() t[2] = 2 ^ 63 end)
    raises("cannot be converted to int64 without overflow", lt.full, { 1 }, 2 ^ 63, "int64")
    raises("cannot be converted to int64 without overflow", lt.tensor, { -2 ^ 63 - 4096 }, "int64")
    assert.equal(9223372036854774784, t[2])
  end)
end)

describe("a float written into an integer dtype", function()
  it("truncates toward zero: 3.7 is 3, -3.7 is -3", function()
    local t = lt.zeros(4, "int32")
    t[1], t[2] = 3.7, -3.7
    t:set(3, 0.999)
    t[4] = -0.999
    assert.same({ 3, -3, 0, 0 }, t:tolist())
    assert.same({ 3, 3 }, lt.full({ 2 }, 3.7, "int16"):tolist())
    assert.same({ 255, 0 }, lt.tensor({ 255.9, -0.9 }, "uint8"):tolist())
  end)

  it("refuses NaN and infinities for every integer dtype", function()
    for _, dtype in ipairs({ "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
      "uint64" }) do
      local t = lt.zeros(1, dtype)
      raises(overflow("nan", dtype), function() t[1] = 0 / 0 end)
      raises(overflow("inf", dtype), t.fill_, t, math.huge)
      raises(overflow("-inf", dtype), lt.full, { 1 }, -math.huge, dtype)
      raises(overflow("nan", dtype), lt.tensor, { 0 / 0 }, dtype)
      assert.same({ 0 }, t:tolist())
    end
  end)
end)

describe("bool and floating dtypes", function()
  it("bool takes booleans and numbers: zero is false, anything else (NaN too) true", function()
    local b = lt.zeros(6, "bool")
    b[1], b[2], b[3], b[4], b[5], b[6] = true, 5, -1, 0.5, 0 / 0, 0
    assert.same({ true, true, true, true, true, false }, b:tolist())
    assert.same({ true, false }, lt.tensor({ 256, -0.0 }, "bool"):tolist())
    b:fill_(300)
    assert.same({ true, true, true, true, true, true }, b:tolist())
  end)

  it("floating dtypes refuse a finite float beyond their range, as torch's writes do", function()
    local f = lt.zeros(3, "float32")
    raises("value 1%.0+1e%+300 cannot be converted to float32 without overflow",
      function() f[1] = 1e300 end)
    raises("cannot be converted to float32 without overflow", function() f[2] = -1e300 end)
    raises("cannot be converted to float16 without overflow", lt.full, { 1 }, 1e6, "float16")
    raises("cannot be converted to bfloat16 without overflow", function()
      lt.zeros(1, "bfloat16"):fill_(1e39)
    end)
    raises("cannot be converted to complex64 without overflow", function()
      lt.zeros(1, "complex64")[1] = { 0, 1e39 }
    end)
    raises("cannot be converted to float32 without overflow", lt.tensor, { 1, 1e39 }, "float32")
    assert.same({ 0, 0, 0 }, f:tolist()) -- nothing was written
    f[1], f[2], f[3] = math.huge, -math.huge, 0 / 0 -- infinities and NaN are kept
    local v = f:tolist()
    assert.same({ math.huge, -math.huge }, { v[1], v[2] })
    assert.is_true(v[3] ~= v[3])
    assert.same({ 65504 }, lt.full({ 1 }, 65504, "float16"):tolist()) -- the largest is fine
    assert.same({ 1e300 }, lt.full({ 1 }, 1e300, "float64"):tolist())
  end)

  it("an operation with a float scalar beyond the range gives infinities (torch's half + 1e5)",
    function()
      assert.same({ math.huge, math.huge }, (lt.zeros(2, "float16") + 1e5):tolist())
      assert.same({ -math.huge }, (lt.zeros(1, "float32") - 1e300):tolist())
    end)
end)

describe("casts between tensors", function()
  it("still wrap integers, as torch's casts do: to, copy_, in-place results", function()
    local wide = lt.tensor({ 300, -1, 256, -129 }, "int64")
    assert.same({ 44, 255, 0, 127 }, wide:to("uint8"):tolist())
    local u = lt.zeros(4, "uint8")
    u:copy_(wide)
    assert.same({ 44, 255, 0, 127 }, u:tolist())
    local m = lt.zeros(2, 2, "int8")
    m[1] = lt.tensor({ 200, 1 }, "int32") -- a tensor assigned into a view is a copy
    assert.same({ { -56, 1 }, { 0, 0 } }, m:tolist())
    local i8 = lt.tensor({ 1 }, "int8")
    i8:add_(lt.tensor({ 300 }, "int16")) -- computed in int16, written back wrapped
    assert.same({ 45 }, i8:tolist())
  end)
end)

describe("uint64 elements", function()
  local MAX = -1 -- 2^64 - 1 as the Lua integer of the same bits

  it("read 2^64 - 1 as -1 (it read 1.8446744073709552e19) through every read", function()
    local t = lt.tensor({ MAX, 7 }, "uint64")
    assert.equal(MAX, t[1])
    assert.equal("integer", math.type(t[1]))
    assert.equal(MAX, t:get(1))
    assert.same({ MAX, 7 }, t:tolist())
    assert.equal(MAX, t[{ { 1, 1 } }]:item())
    local best, at = t:max(1)
    assert.equal(MAX, best:item())
    assert.equal(1, at:item())
    assert.same({ MAX }, lt.tensor({ { MAX } }, "uint64"):max(2):tolist())
  end)

  it("store a Lua integer's bits, as string.pack('I8') does", function()
    local values = { -1, math.mininteger, math.maxinteger, -2, 0, 1 }
    local t = lt.zeros(#values, "uint64")
    for i, v in ipairs(values) do t[i] = v end
    assert.equal(string.pack("=" .. ("I8"):rep(#values), table.unpack(values)), t:bytes())
    assert.same(values, lt.tensor(values, "uint64"):tolist())
    assert.same({ -1, -1 }, lt.full({ 2 }, -1, "uint64"):tolist())
    local back = lt.from_bytes(string.pack("=I8I8", -1, math.mininteger), "uint64")
    assert.same({ -1, math.mininteger }, back:tolist())
  end)

  it("take floats in [0, 2^64) after truncation, and refuse the rest", function()
    local t = lt.zeros(3, "uint64")
    t[1], t[2], t[3] = 2 ^ 63, 2 ^ 64 - 2048, -0.5
    assert.same({ math.mininteger, -2048, 0 }, t:tolist())
    raises("value 1.8446744073709552e%+19 cannot be converted to uint64 without overflow",
      function() t[1] = 2 ^ 64 end)
    raises(overflow("-1", "uint64"), function() t[1] = -1.0 end)
    assert.equal(math.mininteger, t[1])
  end)

  it("print unsigned, exactly (it printed 18446744073709551616)", function()
    assert.equal("tensor([18446744073709551615,                    0], dtype=uint64)",
      tostring(lt.tensor({ -1, 0 }, "uint64")))
    assert.equal("tensor(9223372036854775808, dtype=uint64)",
      tostring(lt.tensor(math.mininteger, "uint64")))
    assert.equal("tensor([18446744073709551606, 18446744073709551605], dtype=uint64)",
      tostring(lt.tensor({ -10, -11 }, "uint64")))
    assert.equal("tensor([1, 2], dtype=uint64)", tostring(lt.tensor({ 1, 2 }, "uint64")))
    local big = tostring(lt.full({ 2000 }, -1, "uint64"))
    assert.truthy(big:find("18446744073709551615, 18446744073709551615, 18446744073709551615,",
      1, true))
    assert.falsy(big:find("-", 1, true))
  end)

  it("compare and compute with a Lua integer as the uint64 of its bits", function()
    local t = lt.tensor({ -1, 5 }, "uint64")
    assert.same({ true, false }, t:eq(-1):tolist())
    assert.same({ false, false }, t:gt(-1):tolist()) -- -1 is the largest uint64
    assert.same({ 0, 6 }, (t + 1):tolist()) -- 2^64 - 1 + 1 wraps
    assert.same({ -2, 4 }, (t + (-1)):tolist()) -- adding 2^64 - 1 is subtracting 1
    assert.same({ 5, 5 }, t:clamp(nil, 5):tolist())
  end)
end)

describe("dtype names", function()
  local ALIASES = { float = "float32", double = "float64", half = "float16", long = "int64",
    int = "int32", short = "int16", cfloat = "complex64", cdouble = "complex128" }

  for alias, name in pairs(ALIASES) do
    it(("accept torch's alias %s for %s wherever a dtype name goes"):format(alias, name), function()
      assert.equal(name, lt[alias])
      assert.equal(name, lt.zeros(2, alias).dtype)
      assert.equal(name, lt.tensor({ 1 }, alias).dtype)
      assert.equal(name, lt.full({ 1 }, 1, alias).dtype)
      assert.equal(name, lt.arange(3, alias).dtype)
      assert.equal(name, lt.zeros(1):to(alias).dtype)
      assert.equal(name, lt.from_bytes(("\0"):rep(16), alias).dtype)
    end)
  end

  it("raise for an unknown name, listing the valid ones", function()
    local msg = raises("unknown dtype 'flaot32' %(expected one of bool, uint8, int8, int16, int32, "
      .. "int64, uint16, uint32, uint64, float16, bfloat16, float32, float64, complex64, "
      .. "complex128, or the aliases float, double, half, int, long, short, cfloat, cdouble%)",
      lt.zeros, 2, "flaot32")
    assert.truthy(msg:find("bad argument #2 to", 1, true))
    for _, bad in ipairs({ "f32", "Float32", "int128", "", "float32 " }) do
      raises("unknown dtype '" .. bad .. "'", lt.zeros, 2, bad)
      raises("unknown dtype '" .. bad .. "'", lt.zeros(1).to, lt.zeros(1), bad)
    end
    assert.is_nil(lt.f32)
  end)
end)

describe("lt.from_bytes(string, dtype [, shape])", function()
  local S = "abcdef"

  it("takes the shape as a table or as sizes, one of them -1", function()
    assert.same({ 2, 3 }, lt.from_bytes(S, "uint8", { 2, 3 }).shape)
    assert.same({ 2, 3 }, lt.from_bytes(S, "uint8", 2, 3).shape)
    assert.same({ 3, 2 }, lt.from_bytes(S, "uint8", -1, 2).shape)
    assert.same({ 6 }, lt.from_bytes(S, "uint8").shape)
    assert.same({ 6 }, lt.from_bytes(S, "uint8", nil).shape)
    assert.same({ { 97, 98, 99 }, { 100, 101, 102 } }, lt.from_bytes(S, "uint8", 2, 3):tolist())
  end)

  it("raises for an argument that is not a shape (a string said 'shape of 1 elements')", function()
    raises("bad argument #3 to '[%w.]*from_bytes' %(shape %(table or integers%) expected, got string%)",
      lt.from_bytes, "abcd", "float32", ">")
    raises("shape %(table or integers%) expected, got boolean", lt.from_bytes, S, "uint8", true)
  end)

  it("raises for an extra argument instead of ignoring it", function()
    raises("from_bytes: too many arguments %(at most 3, then an options table%)",
      lt.from_bytes, S, "uint8", { 6 }, 7)
    raises("from_bytes: too many arguments %(at most 4, then an options table%)", lt.from_bytes,
      S, "uint8", 2, 3, "x")
    raises("bad argument #3 .*shape %(table or integers%) expected, got nil", lt.from_bytes, S,
      "uint8", nil, { 1 })
  end)

  it("says both counts when the sizes do not match the string", function()
    raises("shape has 8 elements but the string holds 6 %(6 bytes of uint8%)", lt.from_bytes, S,
      "uint8", 2, 4)
    raises("shape has 2 elements but the string holds 3 %(6 bytes of int16%)", lt.from_bytes, S,
      "int16", { 2 })
    raises("shape has 6 elements but the string holds 2 %(8 bytes of float32%)", lt.from_bytes,
      ("\0"):rep(8), "float32", 2, 3)
    raises("cannot infer %-1: the other sizes make 4 elements, the string holds 6 %(6 bytes of "
      .. "uint8%)", lt.from_bytes, S, "uint8", 4, -1)
  end)
end)
