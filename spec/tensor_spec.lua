-- The core tensor through the public Lua API: constructors, dtypes, properties, conversions.
local lt = require "ltensor"
local helpers = require "helpers"

local DTYPES = { "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32",
  "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128" }
local SIZES = { bool = 1, uint8 = 1, int8 = 1, int16 = 2, int32 = 4, int64 = 8, uint16 = 2,
  uint32 = 4, uint64 = 8, float16 = 2, bfloat16 = 2, float32 = 4, float64 = 8, complex64 = 8,
  complex128 = 16 }

describe("lt.tensor", function()
  it("infers int64 from integers, float32 from floats and bool from booleans, as torch", function()
    assert.equal("int64", lt.tensor({ 1, 2, 3 }).dtype)
    assert.equal("float32", lt.tensor({ 1, 2.5 }).dtype)
    assert.equal("bool", lt.tensor({ true, false }).dtype)
    assert.equal("int64", lt.tensor({ true, 2 }).dtype)
    assert.equal("float32", lt.tensor({ { 1 }, { 2.0 } }).dtype)
    assert.equal("float32", lt.tensor({}).dtype)
  end)

  it("makes 0-d tensors from numbers and booleans", function()
    local t = lt.tensor(7)
    assert.equal(0, t.ndim)
    assert.same({}, t.shape)
    assert.equal(7, t:item())
    assert.equal("float32", lt.tensor(2.5).dtype)
    assert.equal(true, lt.tensor(true):item())
  end)

  it("reads nested tables row-major with the shape of their nesting", function()
    local t = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
    assert.same({ 2, 3 }, t.shape)
    assert.same({ { 1, 2, 3 }, { 4, 5, 6 } }, t:tolist())
    assert.same({ 3, 1 }, t:stride())
    assert.same({ 2, 0 }, lt.tensor({ {}, {} }).shape)
  end)

  it("converts to the dtype it is given", function()
    local t = lt.tensor({ 1.9, -1.9, 300 }, "int16")
    assert.same({ 1, -1, 300 }, t:tolist())
    assert.same({ 255 }, lt.tensor({ 255 }, lt.uint8):tolist())
    assert.has_error(function() lt.tensor({ 300 }, lt.uint8) end,
      "value 300 cannot be converted to uint8 without overflow")
    assert.same({ 1.5 }, lt.tensor({ 1.5 }, "float64"):tolist())
  end)

  it("copies a tensor", function()
    local a = lt.tensor({ 1, 2 })
    local b = lt.tensor(a)
    b[1] = 9
    assert.equal(1, a[1])
    assert.equal("float64", lt.tensor(a, "float64").dtype)
  end)
end)

describe("dtypes", function()
  it("exist by name and as lt.<name> fields", function()
    for _, name in ipairs(DTYPES) do
      assert.equal(name, lt[name])
      local t = lt.zeros(3, name)
      assert.equal(name, t.dtype)
      assert.equal(SIZES[name], t:element_size())
      assert.equal(3 * SIZES[name], t:nbytes())
    end
  end)

  it("round-trip a value through every dtype", function()
    for _, name in ipairs(DTYPES) do
      local t = lt.zeros(2, name)
      if name == "bool" then
        t[1] = true
        assert.equal(true, t[1])
        assert.equal(false, t[2])
      elseif name:find("complex") then
        t[1] = { 1.5, -2 }
        assert.same({ 1.5, -2 }, t[1])
        t[2] = 3
        assert.same({ 3, 0 }, t[2])
      else
        t[1] = 100
        assert.equal(100, t[1])
        if name:find("int") then assert.equal("integer", math.type(t[1])) end
        if name:find("float") then assert.equal("float", math.type(t[1])) end
      end
    end
  end)

  it("rounds float16 and bfloat16 to nearest even", function()
    local h = lt.zeros(4, "float16")
    h[1] = 2049 -- halfway between 2048 and 2050: even mantissa wins
    h[2] = lt.tensor({ 65520.0 }, "float64"):to("float16")[1] -- a cast rounds past 65504 to inf
    h[3] = 2 ^ -25 -- exactly half the smallest subnormal: ties to 0
    h[4] = 0.1
    assert.equal(2048, h[1])
    assert.equal(math.huge, h[2])
    assert.equal(0, h[3])
    assert.equal(0.0999755859375, h[4])
    local b = lt.tensor({ 1 + 2 ^ -8, 1 + 3 * 2 ^ -8 }, "bfloat16")
    assert.same({ 1.0, 1 + 2 ^ -6 }, b:tolist())
  end)

  it("writes floats into integers by truncating toward zero", function()
    local t = lt.zeros(2, "int32")
    t[1] = 2.9
    t[2] = -2.9
    assert.same({ 2, -2 }, t:tolist())
  end)

  it("refuses integers outside a narrower integer's range instead of wrapping", function()
    local t = lt.zeros(3, "int8")
    assert.has_error(function() t[1] = 200 end, "value 200 cannot be converted to int8 without overflow")
    assert.has_error(function() t[2] = -129 end, "value -129 cannot be converted to int8 without overflow")
    t[3] = -128
    assert.same({ 0, 0, -128 }, t:tolist())
  end)

  it("refuses NaN, infinities and out-of-range floats for integer dtypes", function()
    local t = lt.zeros(1, "int32")
    assert.has_error(function() t[1] = 0 / 0 end, "value nan cannot be converted to int32 without overflow")
    assert.has_error(function() t[1] = math.huge end, "value inf cannot be converted to int32 without overflow")
    assert.has_error(function() t[1] = 2 ^ 31 end)
    assert.has_error(function() lt.zeros(1, "uint8")[1] = -1.0 end)
    assert.equal(0, t[1])
  end)

  it("reads uint64 values beyond Lua integers as the integers of the same bits", function()
    local t = lt.zeros(1, "uint64")
    t[1] = -1 -- 2^64 - 1, as string.pack("I8", -1)
    assert.equal(-1, t[1])
    assert.equal(math.type(t[1]), "integer")
    assert.equal(("\xff"):rep(8), t:bytes())
  end)
end)

describe("constructors", function()
  it("take shapes as a table or as arguments", function()
    assert.same({ 2, 3 }, lt.zeros({ 2, 3 }).shape)
    assert.same({ 2, 3 }, lt.zeros(2, 3).shape)
    assert.same({ 2, 3 }, lt.ones(2, 3, "int32").shape)
    assert.equal("int32", lt.ones({ 2, 3 }, "int32").dtype)
    assert.same({}, lt.zeros({}).shape)
  end)

  it("fill zeros, ones and full values", function()
    assert.same({ 0, 0 }, lt.zeros(2):tolist())
    assert.same({ { 1, 1 } }, lt.ones(1, 2, "int64"):tolist())
    local f = lt.full({ 2 }, 7)
    assert.equal("int64", f.dtype)
    assert.same({ 7, 7 }, f:tolist())
    assert.equal("float32", lt.full(2, 0.5).dtype)
    assert.equal("bool", lt.full(2, true).dtype)
    assert.same({ 2.5, 2.5 }, lt.full(2, 2.5, "float64"):tolist())
  end)

  it("default to float32 for empty, zeros and ones", function()
    assert.equal("float32", lt.empty(3).dtype)
    assert.equal("float32", lt.zeros(3).dtype)
    assert.equal("float32", lt.ones(3).dtype)
  end)

  it("give arange a half-open range like torch", function()
    assert.same({ 0, 1, 2, 3 }, lt.arange(4):tolist())
    assert.same({ 2, 4, 6 }, lt.arange(2, 8, 2):tolist())
    assert.same({ 5, 3, 1 }, lt.arange(5, 0, -2):tolist())
    assert.equal("int64", lt.arange(3).dtype)
    assert.equal("float32", lt.arange(0, 1, 0.25).dtype)
    assert.same({ 0, 0.25, 0.5, 0.75 }, lt.arange(0, 1, 0.25):tolist())
    assert.equal("float64", lt.arange(3, "float64").dtype)
    assert.same({}, lt.arange(0):tolist())
  end)

  it("copy raw bytes with from_bytes", function()
    local t = lt.from_bytes(string.pack("<i4i4i4i4", 1, 2, 3, 4), "int32", { 2, 2 })
    assert.same({ { 1, 2 }, { 3, 4 } }, t:tolist())
    assert.same({ 4 }, lt.from_bytes(string.pack("<dddd", 1, 2, 3, 4), "float64").shape)
    assert.same({ 2, 2 }, lt.from_bytes(string.pack("<i4i4i4i4", 1, 2, 3, 4), "int32", { -1, 2 }).shape)
  end)

  it("round-trip bytes()", function()
    local t = lt.arange(6, "int16"):view(2, 3)
    local s = t:bytes()
    assert.equal(12, #s)
    assert.same(t:tolist(), lt.from_bytes(s, "int16", { 2, 3 }):tolist())
    -- a transposed tensor gives its elements in row-major order of its own shape
    local vals = { string.unpack("<i2i2i2i2i2i2", t:transpose(1, 2):bytes()) }
    vals[7] = nil -- the position string.unpack returns last
    assert.same({ 0, 3, 1, 4, 2, 5 }, vals)
  end)
end)

describe("properties and methods", function()
  local t = lt.zeros(2, 3, 4)

  it("report shape, dtype, ndim and device", function()
    assert.same({ 2, 3, 4 }, t.shape)
    assert.equal("float32", t.dtype)
    assert.equal(3, t.ndim)
    assert.equal("cpu", t.device)
  end)

  it("give a new shape table each time", function()
    local s = t.shape
    s[1] = 99
    assert.equal(2, t.shape[1])
  end)

  it("report sizes and strides per dim, 1-based and negative from the end", function()
    assert.equal(2, t:size(1))
    assert.equal(4, t:size(-1))
    assert.same({ 12, 4, 1 }, t:stride())
    assert.equal(4, t:stride(2))
    assert.equal(24, t:numel())
    assert.equal(3, t:dim())
    assert.equal(2, #t)
  end)

  it("give a 64-byte aligned data address", function()
    for _ = 1, 8 do
      assert.equal(0, lt.empty(3, "int8"):data_ptr() % 64)
    end
  end)

  it("report storage offsets of views in elements", function()
    local base = lt.arange(10)
    local v = base[{ { 3, 5 } }]
    assert.equal(2, v:storage_offset())
    assert.equal(2 * base:element_size(), v:data_ptr() - base:data_ptr())
  end)

  it("are not read-only for tensors ltensor makes", function()
    assert.is_false(t:is_read_only())
  end)

  it("return self from the in-place methods", function()
    local x = lt.zeros(3)
    assert.equal(x, x:fill_(2))
    assert.same({ 2, 2, 2 }, x:tolist())
    assert.equal(x, x:zero_())
    assert.same({ 0, 0, 0 }, x:tolist())
    assert.equal(x, x:copy_(lt.tensor({ 1, 2, 3 })))
    assert.same({ 1, 2, 3 }, x:tolist())
  end)

  it("copy_ converts dtypes and broadcasts", function()
    local x = lt.zeros(2, 3, "int32")
    x:copy_(lt.tensor({ 1.5, 2.5, 3.5 }))
    assert.same({ { 1, 2, 3 }, { 1, 2, 3 } }, x:tolist())
    assert.has_error(function() x:copy_(lt.zeros(4)) end)
  end)

  it("clone makes an independent copy", function()
    local a = lt.arange(4)
    local b = a:clone()
    b[1] = 42
    assert.equal(0, a[1])
    assert.equal(42, b[1])
  end)

  it("to() converts, and returns the same tensor for the same dtype", function()
    local a = lt.tensor({ 1.5, -2.5 })
    assert.equal(a, a:to("float32"))
    assert.same({ 1, -2 }, a:to("int64"):tolist())
    assert.same({ true, true }, a:to("bool"):tolist())
  end)

  it("item() reads the single element of any shape", function()
    assert.equal(5, lt.tensor({ { 5 } }):item())
    assert.has_error(function() lt.zeros(2):item() end)
  end)

  it("contiguous() returns self when already contiguous, else a copy", function()
    local a = lt.arange(6):view(2, 3)
    assert.equal(a, a:contiguous())
    local b = a:transpose(1, 2):contiguous()
    assert.is_true(b:is_contiguous())
    assert.same({ { 0, 3 }, { 1, 4 }, { 2, 5 } }, b:tolist())
  end)
end)

describe("lt.is_tensor", function()
  it("is true for tensors only", function()
    assert.is_true(lt.is_tensor(lt.zeros(1)))
    assert.is_false(lt.is_tensor({}))
    assert.is_false(lt.is_tensor(io.stdout))
    assert.is_false(lt.is_tensor(nil))
  end)
end)

describe("release", function()
  it("happens at once for a <close> variable, and later use raises", function()
    local escaped
    do
      local t <close> = lt.zeros(3)
      escaped = t
    end
    assert.has_error(function() return escaped[1] end, "tensor has been released")
    assert.has_error(function() return escaped:numel() end, "tensor has been released")
    assert.has_error(function() escaped[1] = 1 end, "tensor has been released")
  end)

  -- A finalizer runs inside whatever allocation triggers the collector, which may be one made
  -- by an ltensor function that already holds the tensor: a `<close>` there must not free it
  -- under that function (it crashed, or under ASan read freed memory, in about half the methods).
  it("by <close> in a finalizer never frees a tensor under a running method", function()
    local dlpack = require "ltensor.dlpack"
    local calls = {
      function(t) return t:apply(function() return 12345 end) end,
      function(t) return t + 1 end,
      function(t) return t:clone() end,
      function(t) return t:sum() end,
      function(t) return tostring(t) end,
      function(t) local c = t:clone(); c[1] = 5; return c end,
      function(t) return dlpack.from_dlpack(t:__dlpack({ max_version = { 1, 3 } })) end,
      function(t) return dlpack.to_dlpack(t) end,
      function(t) return dlpack.ReadOnlyTensorWrapper(t) end,
      function(t) return t:view(4, 4)[2] end,
    }
    local cur
    for _, call in ipairs(calls) do
      for _ = 1, 3000 do
        local t = lt.zeros(16)
        cur = t
        setmetatable({}, { __gc = function() local c <close> = cur end })
        pcall(call, t)
      end
    end
    collectgarbage()
    local t = lt.zeros(2)
    do local c <close> = t end
    assert.has_error(function() return t[1] end, "tensor has been released")
  end)

  -- The same from Lua code a C function runs itself: a metamethod of an options table, and a
  -- coroutine resumed from there (whose resumer's stack cannot be seen from inside it).
  it("by <close> in Lua code a method runs never frees the tensor under it", function()
    local t = lt.zeros(16)
    local opts = setmetatable({}, { __index = function() local c <close> = t end })
    assert.equal("userdata", type(t:__dlpack(opts))) -- the export was made before the close
    assert.has_error(function() return t[1] end, "tensor has been released")
    local u = lt.zeros(16)
    local co_opts = setmetatable({}, {
      __index = function() coroutine.wrap(function() local c <close> = u end)() end,
    })
    assert.equal("userdata", type(u:__dlpack(co_opts)))
    assert.has_error(function() return u[1] end, "tensor has been released")
    collectgarbage() -- the detached headers go with their userdata (LeakSanitizer checks)
  end)

  it("leaves views of a released tensor working", function()
    local v
    do
      local t <close> = lt.arange(4)
      v = t[{ { 2, 3 } }]
    end
    collectgarbage()
    assert.same({ 1, 2 }, v:tolist())
  end)
end)

describe("to in torch's positional order (dtype, non_blocking, copy)", function()
  it("returns the tensor itself for its own dtype unless copy is true", function()
    local t = lt.arange(3)
    assert.is_true(rawequal(t, t:to("int64")))
    assert.is_true(rawequal(t, t:to("int64", false)))
    local c = t:to("int64", false, true)
    assert.is_false(rawequal(t, c))
    c[1] = 7
    assert.equal(0, t[1])
    assert.equal("float64", t:to("float64", true).dtype)
    assert.has_error(function() t:to("int64", false, 1) end)
  end)
end)

describe("to with another tensor's dtype, or with options", function()
  it("takes a tensor for its dtype, and {dtype, non_blocking, copy}", function()
    local t = lt.arange(3)
    assert.equal("float64", t:to(lt.zeros(1, "float64")).dtype)
    assert.is_true(rawequal(t, t:to(lt.zeros(1, "int64"))))
    assert.equal("int8", t:to({ dtype = "int8" }).dtype)
    assert.is_false(rawequal(t, t:to({ dtype = "int64", copy = true })))
    assert.is_true(rawequal(t, t:to({ dtype = "int64" })))
    helpers.raises("to: dtype given twice", t.to, t, "int8", { dtype = "int8" })
    helpers.raises("to: unknown option 'device'", t.to, t, { device = "cpu" })
    helpers.raises("to: copy must be a boolean, got number", t.to, t, { dtype = "int8", copy = 1 })
  end)
end)

describe("the dtype shorthands, as torch's", function()
  local SHORT = { float = "float32", double = "float64", half = "float16", bfloat16 = "bfloat16",
    long = "int64", int = "int32", short = "int16", char = "int8", byte = "uint8", bool = "bool",
    cfloat = "complex64", cdouble = "complex128" }

  it("convert as t:to(dtype) does", function()
    local t = lt.tensor({ 0, 1.5, 2.5 })
    for name, dtype in pairs(SHORT) do
      local c = t[name](t)
      assert.equal(dtype, c.dtype, name)
      assert.same(t:to(dtype):tolist(), c:tolist(), name)
    end
  end)

  it("return the tensor itself when it has the dtype already", function()
    for name, dtype in pairs(SHORT) do
      local t = lt.zeros(2, dtype)
      assert.is_true(rawequal(t, t[name](t)), name)
    end
  end)

  it("take no argument", function()
    local t = lt.zeros(2)
    helpers.raises("float: too many arguments %(at most 0 after the tensor%)", t.float, t, 1)
    assert.equal("float32", t:float(nil).dtype)
  end)
end)

describe("constructors take the dtype positionally or as {dtype = ...}", function()
  it("either way gives the same tensor, and both at once raise", function()
    for _, make in ipairs({
      function(dt) return lt.tensor({ 1, 2 }, dt) end,
      function(dt) return lt.zeros(2, 3, dt) end,
      function(dt) return lt.ones({ 2, 3 }, dt) end,
      function(dt) return lt.empty({ 2 }, dt) end,
      function(dt) return lt.full({ 2 }, 7, dt) end,
      function(dt) return lt.arange(1, 5, dt) end,
      function(dt) return lt.eye(2, dt) end,
      function(dt) return lt.linspace(0, 1, 3, dt) end,
      function(dt) return lt.zeros_like(lt.zeros(2), dt) end,
      function(dt) return lt.full_like(lt.zeros(2), 3, dt) end,
    }) do
      local a, b = make("float64"), make({ dtype = "float64" })
      assert.equal("float64", a.dtype)
      assert.equal("float64", b.dtype)
      assert.same(a.shape, b.shape)
    end
    helpers.raises("zeros: dtype given twice", lt.zeros, 2, "int8", { dtype = "int8" })
    helpers.raises("eye: dtype given twice", lt.eye, 2, "int8", { dtype = "int8" })
    helpers.raises("full_like: dtype given twice", lt.full_like, lt.zeros(1), 2, "int8",
      { dtype = "int8" })
    helpers.raises("tensor: unknown option 'device' %(expected dtype%)", lt.tensor, 1,
      { device = "cpu" })
  end)

  it("from_bytes takes the shape second when the dtype comes as an option", function()
    local s = string.pack("<i4i4i4i4", 1, 2, 3, 4)
    assert.same({ { 1, 2 }, { 3, 4 } }, lt.from_bytes(s, { 2, 2 }, { dtype = "int32" }):tolist())
    assert.same({ 1, 2, 3, 4 }, lt.from_bytes(s, { dtype = "int32" }):tolist())
    helpers.raises("dtype name expected, got no value", lt.from_bytes, s)
  end)

  it("a shape table with other keys is refused, not read as options", function()
    helpers.raises("a shape is a sequence of sizes, got a table with key 'dtype'", lt.zeros,
      { dtype = "int32" })
  end)
end)
