-- Bad input: what every constructor, method, property and index of a tensor does when it is
-- given the wrong thing. The rule (SPEC.md, "Lua API"; STYLE.md, "Errors"): a programming
-- mistake raises a Lua error whose message names the problem; nothing a script passes may crash
-- the process, wrap silently or reach undefined behaviour; a released tensor raises "tensor has
-- been released". Each case below checks both that an error is raised and what it says.
local lt = require "ltensor"

local raises = require("helpers").raises

local OVERFLOW = { "overflow", "too large" }
local RANGE = "out of range"
local INTEGER = "integer"
local NEGATIVE = "negative"
local UNKNOWN_DTYPE = "unknown dtype"
local NAN = "nan"
local RELEASED = "tensor has been released"
local TENSOR_EXPECTED = "tensor expected"

-- Every method of a tensor, as SPEC.md lists them (get/set are the fast multi-index access).
local METHODS = {
  "size", "stride", "numel", "dim", "is_contiguous", "element_size", "nbytes",
  "storage_offset", "data_ptr", "is_read_only", "tolist", "item", "get", "set", "bytes",
  "clone", "contiguous", "to", "copy_", "fill_", "zero_", "view", "reshape", "transpose",
  "permute", "narrow", "select", "unsqueeze", "squeeze", "flatten", "expand",
}
local PROPERTIES = { "shape", "dtype", "ndim", "device", "T" }

-- The tensors that the blocks from "dim and size arguments" on take apart (a failed call writes
-- nothing): a 2x3 matrix, a vector of 4, a 0-d tensor.
local t, v, scalar = lt.zeros(2, 3), lt.arange(4), lt.tensor(5)

-- A list of n ones, for shapes with many dims.
local function ones_list(n)
  local r = {}
  for i = 1, n do r[i] = 1 end
  return r
end

describe("constructors given bad input", function()
  describe("lt.tensor(data [, dtype])", function()
    it("raises without data, naming what it accepts", function()
      raises("number, boolean, table or tensor expected", lt.tensor)
    end)

    it("raises for a string or a function as data", function()
      raises("got string", lt.tensor, "1")
      raises("got function", lt.tensor, print)
    end)

    it("raises for an unknown dtype name, quoting it", function()
      raises("unknown dtype 'float33'", lt.tensor, { 1 }, "float33")
      raises(UNKNOWN_DTYPE, lt.tensor, { 1 }, "Float32")
      raises(UNKNOWN_DTYPE, lt.tensor, 1, "")
    end)

    it("raises for a dtype that is neither a name nor nil", function()
      raises("dtype name expected, got table", lt.tensor, { 1 }, { 1 })
      raises("dtype name expected, got boolean", lt.tensor, { 1 }, true)
    end)

    it("raises for a ragged nested table, naming the expected length and dim", function()
      raises("expected a sequence of length 2 at dim 2, got length 1", lt.tensor,
        { { 1, 2 }, { 3 } })
      raises("length 1 at dim 2, got length 2", lt.tensor, { { 1 }, { 2, 3 } })
    end)

    it("raises when a table stands where a number is expected, and the reverse", function()
      raises("expected a number or boolean at dim 1, got table", lt.tensor, { 1, { 2 } })
      raises("expected a sequence of length 1 at dim 2, got number", lt.tensor, { { 1 }, 2 })
    end)

    it("raises for a string element", function()
      raises("expected a number or boolean at dim 1, got string", lt.tensor, { "a" })
      raises("got string", lt.tensor, { { 1, 2 }, "ab" })
    end)

    it("raises for a table that contains itself instead of recursing forever", function()
      local self_ref = {}
      self_ref[1] = self_ref
      raises("too many dimensions in nested table", lt.tensor, self_ref)
      local tail_ref = { 1 }
      tail_ref[2] = tail_ref
      raises("expected a number or boolean", lt.tensor, tail_ref)
    end)

    it("raises for nesting deeper than 64 dims", function()
      local deep = 1
      for _ = 1, 65 do deep = { deep } end
      raises("too many dimensions in nested table %(at most 64%)", lt.tensor, deep)
    end)

    it("raises when NaN is written into an integer dtype", function()
      raises(NAN, lt.tensor, 0 / 0, "int64")
      raises("cannot be converted to int32", lt.tensor, { 1, 0 / 0 }, "int32")
      raises(NAN, lt.tensor, { { 0 / 0 } }, "uint8")
    end)

    it("raises when +inf or -inf is written into an integer dtype", function()
      raises("value inf cannot be converted to int32", lt.tensor, math.huge, "int32")
      raises("value %-inf cannot be converted to uint8", lt.tensor, -math.huge, "uint8")
      raises("inf", lt.tensor, { math.huge }, "int16")
    end)

    it("raises when a float is outside the integer dtype's range instead of wrapping", function()
      raises("value 256 cannot be converted to uint8", lt.tensor, 256.0, "uint8")
      raises("value %-1 cannot be converted to uint8", lt.tensor, -1.0, "uint8")
      raises("cannot be converted to int8", lt.tensor, { 128.0 }, "int8")
      raises("cannot be converted to int8", lt.tensor, { -129.0 }, "int8")
      raises("cannot be converted to int32", lt.tensor, 2147483648.0, "int32")
      raises("cannot be converted to int64", lt.tensor, 2 ^ 63, "int64")
      raises("cannot be converted to uint64", lt.tensor, 2 ^ 64, "uint64")
    end)

    it("accepts floats that truncate into range, as torch does (the boundary)", function()
      assert.are.equal(0, lt.tensor(-0.5, "uint8"):item())
      assert.are.equal(255, lt.tensor(255.9, "uint8"):item())
      assert.are.equal(-128, lt.tensor(-128.9, "int8"):item())
      assert.are.equal(math.mininteger, lt.tensor(-2 ^ 63, "int64"):item())
    end)

    it("raises when a tensor's values do not fit the dtype it is converted to", function()
      raises(NAN, lt.tensor, lt.full({ 2 }, 0 / 0), "int32")
      raises("cannot be converted to int8", lt.tensor, lt.full({ 2 }, 300.5), "int8")
    end)
  end)

  for _, name in ipairs { "empty", "zeros", "ones" } do
    local make = lt[name]
    describe(("lt.%s(shape [, dtype])"):format(name), function()
      it("raises without a shape", function()
        raises("shape %(table or integers%) expected, got no value", make)
        raises("shape %(table or integers%) expected, got no value", make, nil) -- nil: absent
      end)

      it("raises for a shape that is neither a table nor integers", function()
        raises("shape %(table or integers%) expected, got boolean", make, true)
        raises("got function", make, print)
      end)

      it("raises for a negative size, given as an argument or in a table", function()
        raises("size is negative %(%-1%)", make, -1)
        raises("size is negative", make, 2, -3)
        raises("size #2 is negative %(%-3%)", make, { 2, -3 })
      end)

      it("raises for a fractional size, in an argument or in a table", function()
        raises("size must be an integer, got 1.5", make, 1.5)
        raises(INTEGER, make, 2, 2.5)
        raises("size #1 must be an integer", make, { 1.5 })
      end)

      it("raises for a non-number inside a shape table", function()
        raises("size #2 must be an integer, got boolean", make, { 2, true })
        raises("size #1 must be an integer, got table", make, { {} })
      end)

      it("raises for NaN or infinity as a size", function()
        raises(INTEGER, make, 0 / 0)
        raises(INTEGER, make, { math.huge })
      end)

      it("raises for an unknown dtype name, quoting it", function()
        raises("unknown dtype 'bogus'", make, 2, "bogus")
        raises(UNKNOWN_DTYPE, make, { 2, 3 }, "float33")
      end)

      it("raises for a dtype of the wrong type after the sizes", function()
        raises("dtype name expected, got table", make, 2, { 1 })
        raises("dtype name expected, got boolean", make, { 2 }, false)
        -- a number is not read as the name it converts to (this said "unknown dtype '5'")
        raises("dtype name expected, got number", make, { 2 }, 5)
      end)

      it("raises for more than 64 dims", function()
        raises("too many dimensions %(at most 64%)", make, table.unpack(ones_list(65)))
        raises("too many dimensions %(at most 64%)", make, ones_list(65))
      end)

      it("raises when the element count overflows int64", function()
        raises(OVERFLOW, make, 2 ^ 40, 2 ^ 40)
        raises(OVERFLOW, make, { 2 ^ 32, 2 ^ 32, 2 ^ 32 })
        raises(OVERFLOW, make, math.maxinteger, 2)
      end)

      it("raises when the byte size is too large, before allocating anything", function()
        raises(OVERFLOW, make, 2 ^ 62)
        raises(OVERFLOW, make, 2 ^ 61, "float64")
        raises(OVERFLOW, make, math.maxinteger, "uint8")
      end)

      it("raises when a zero size leaves other sizes whose strides overflow int64", function()
        -- contiguous strides of (0, 2^62, 2^62) are (2^124, 2^62, 1): not representable.
        -- Today the stride wraps (signed overflow, undefined behaviour) instead of raising.
        raises(OVERFLOW, make, 0, 2 ^ 62, 2 ^ 62)
      end)
    end)
  end

  describe("lt.full(shape, value [, dtype])", function()
    it("raises without a shape", function()
      raises("integer expected, got no value", lt.full)
    end)

    it("raises without a value, or for a value that is not a number or boolean", function()
      raises("number or boolean expected, got no value", lt.full, { 2 })
      raises("number or boolean expected, got string", lt.full, { 2 }, "1")
      -- a table is a complex {re, im} value: an empty one is neither
      raises("number or {re, im} expected, got table", lt.full, { 2 }, {})
    end)

    it("raises for a negative or fractional size", function()
      raises("size is negative", lt.full, -1, 0)
      raises("size #1 is negative", lt.full, { -1 }, 0)
      raises("size must be an integer, got 1.5", lt.full, 1.5, 0)
      raises("size #1 must be an integer", lt.full, { 1.5 }, 0)
    end)

    it("raises for an unknown dtype name", function()
      raises("unknown dtype 'int65'", lt.full, { 2 }, 1, "int65")
    end)

    it("raises when NaN, infinity or an out-of-range float fills an integer dtype", function()
      raises("value nan cannot be converted to int64", lt.full, { 2 }, 0 / 0, "int64")
      raises("value inf cannot be converted to int16", lt.full, { 2 }, math.huge, "int16")
      raises("value %-inf cannot be converted to uint32", lt.full, { 2 }, -math.huge, "uint32")
      raises("cannot be converted to int32", lt.full, { 2 }, 1e10, "int32")
    end)

    it("raises when a complex value with an imaginary part fills a real dtype", function()
      -- torch: full((2,), 1+2j, dtype=float32) raises rather than dropping the imaginary part,
      -- and t:fill_({1, 2}) on a float tensor already raises here.
      raises("number or boolean expected, got table", lt.full, { 2 }, { 1, 2 }, "float32")
      raises("number or boolean expected, got table", lt.full, { 2 }, { 1, 2 }, "int32")
    end)

    it("raises when the element count or byte size overflows", function()
      raises(OVERFLOW, lt.full, { 2 ^ 40, 2 ^ 40 }, 1)
      raises(OVERFLOW, lt.full, 2 ^ 62, 1.5)
    end)
  end)

  describe("lt.arange([start,] stop [, step] [, dtype])", function()
    it("raises without a number", function()
      raises("number expected, got no value", lt.arange)
      raises("number expected, got string", lt.arange, "5")
    end)

    it("raises for a step of 0, integer or float", function()
      raises("step must be nonzero", lt.arange, 0, 10, 0)
      raises("step must be finite and nonzero", lt.arange, 0, 1, 0.0)
    end)

    it("raises for NaN or infinite bounds or step", function()
      raises("must be finite", lt.arange, 0 / 0)
      raises("must be finite", lt.arange, math.huge)
      raises("must be finite", lt.arange, 0, 1, 0 / 0)
    end)

    it("raises when the step points away from stop", function()
      raises("inconsistent with step sign", lt.arange, 10, 0, 1)
      raises("inconsistent with step sign", lt.arange, 0, 10, -1)
    end)

    it("reads a fourth number as the dtype, and raises past it", function()
      raises("bad argument #4 .*dtype name expected, got number", lt.arange, 1, 2, 3, 4)
      raises("arange: too many arguments %(at most 4, then an options table%)", lt.arange, 1, 2,
        3, "int32", 5)
    end)

    it("raises for an unknown dtype name", function()
      raises("unknown dtype 'bogus'", lt.arange, 5, "bogus")
      raises("dtype name expected, got table", lt.arange, 5, { 1 })
    end)

    it("raises when the element count overflows or the tensor is too large", function()
      raises({ "too many elements", "too large" }, lt.arange, math.mininteger, math.maxinteger)
      raises(OVERFLOW, lt.arange, math.maxinteger)
      raises({ "too many elements", "too large" }, lt.arange, 0, 1, 1e-300)
      raises({ "too many elements", "too large" }, lt.arange, -1e308, 1e308, 1.0)
    end)

    it("raises when a float value does not fit the integer dtype asked for", function()
      raises("value 128 cannot be converted to int8", lt.arange, 0.0, 300.0, 1.0, "int8")
    end)
  end)

  describe("lt.from_bytes(string, dtype [, shape])", function()
    it("raises without a string, or for a table", function()
      raises("string expected, got no value", lt.from_bytes)
      raises("string expected, got table", lt.from_bytes, {}, "uint8")
    end)

    it("raises without a dtype, or for an unknown one", function()
      raises("dtype name expected, got no value", lt.from_bytes, "abcd")
      raises("unknown dtype 'bogus'", lt.from_bytes, "abcd", "bogus")
    end)

    it("raises when the length is not a multiple of the element size", function()
      raises("3 bytes is not a multiple of the float32 element size %(4%)", lt.from_bytes,
        "abc", "float32")
    end)

    it("raises when the shape does not hold exactly the bytes given", function()
      raises("shape has 3 elements but the string holds 4", lt.from_bytes, "abcd", "int8", { 3 })
      raises("shape has 6 elements but the string holds 4", lt.from_bytes, "abcd", "int8", 2, 3)
    end)

    it("raises for two inferred dims, or one that cannot be inferred", function()
      raises("only one dimension can be inferred", lt.from_bytes, "abcd", "int8", { -1, -1 })
      raises("cannot infer", lt.from_bytes, "", "float32", { 0, -1 })
    end)

    it("raises for a negative size other than -1, or a fractional one", function()
      raises("size #1 is negative %(%-2%)", lt.from_bytes, "abcd", "int8", { -2, -2 })
      raises("size #1 must be an integer", lt.from_bytes, "abcd", "int8", { 1.5 })
    end)

    it("raises when the shape's element count overflows", function()
      raises(OVERFLOW, lt.from_bytes, "abcd", "int8", { 2 ^ 40, 2 ^ 40 })
    end)
  end)
end)

describe("methods and properties called on something that is not a tensor", function()
  local t = lt.zeros(2)
  for _, name in ipairs(METHODS) do
    it(("t.%s(42) raises 'tensor expected', naming argument #1"):format(name), function()
      raises("bad argument #1 .*tensor expected, got number", t[name], 42)
    end)
  end

  it("every method called without self raises 'tensor expected, got no value'", function()
    for _, name in ipairs(METHODS) do
      raises("tensor expected, got no value", t[name])
    end
  end)

  it("every method raises for a table, a string or another userdata as self", function()
    for _, name in ipairs(METHODS) do
      raises("tensor expected, got table", t[name], {})
      raises("tensor expected, got string", t[name], "x")
      raises(TENSOR_EXPECTED, t[name], io.stdout)
    end
  end)

  it("the properties, read through the metatable's __index, raise for a non-tensor", function()
    local index = debug.getmetatable(t).__index
    for _, name in ipairs(PROPERTIES) do
      raises("tensor expected, got number", index, 42, name)
    end
  end)

  it("__len and __newindex raise for a non-tensor; __gc ignores one", function()
    local mt = debug.getmetatable(t)
    raises("tensor expected, got number", mt.__len, 42)
    raises("tensor expected, got number", mt.__newindex, 42, 1, 1)
    assert.has_no.errors(function() mt.__gc(42) end)
    assert.has_no.errors(function() mt.__gc() end)
  end)
end)

describe("dim and size arguments of methods", function()

  describe("size(d) and stride(d)", function()
    it("raise for a dim out of range, positive or negative", function()
      for _, m in ipairs { "size", "stride" } do
        raises("dim 3 out of range for a tensor of 2 dims", t[m], t, 3)
        raises("dim %-3 out of range for a tensor of 2 dims", t[m], t, -3)
        raises("dim 0 out of range", t[m], t, 0)
        raises(RANGE, t[m], t, math.maxinteger)
        raises(RANGE, t[m], t, math.mininteger)
      end
    end)

    it("raise for any dim of a 0-d tensor", function()
      raises("dim 1 out of range for a tensor of 0 dims", scalar.size, scalar, 1)
      raises(RANGE, scalar.stride, scalar, -1)
    end)

    it("raise for a fractional or non-numeric dim", function()
      raises("dim must be an integer, got 1.5", t.size, t, 1.5)
      raises("integer expected, got string", t.stride, t, "x")
      raises("integer expected, got table", t.size, t, {})
    end)
  end)

  describe("view(shape) and reshape(shape)", function()
    it("raise when the element count differs", function()
      raises("shape of 4 elements is invalid for input of size 6", t.view, t, 4)
      raises("shape of 5 elements is invalid for input of size 6", t.reshape, t, 5)
    end)

    it("raise for two -1 sizes, or a -1 next to a zero size", function()
      raises("only one dimension can be inferred", t.view, t, -1, -1)
      raises("only one dimension can be inferred", t.reshape, t, { -1, -1 })
      raises("cannot infer", lt.zeros(0).view, lt.zeros(0), 0, -1)
    end)

    it("raise for a negative size other than -1, and for a fractional size", function()
      raises("size is negative %(%-2%)", t.view, t, -2, 3)
      raises("size #1 is negative", t.reshape, t, { -3, -2 })
      raises("size must be an integer, got 1.5", t.view, t, 1.5, 4)
      raises("size #2 must be an integer", t.reshape, t, { 6, 0.5 })
    end)

    it("raise when the shape's element count overflows", function()
      raises(OVERFLOW, t.view, t, 2 ^ 40, 2 ^ 40)
      raises(OVERFLOW, t.view, t, 2 ^ 40, 2 ^ 40, -1)
      raises(OVERFLOW, t.reshape, t, 2 ^ 32, 2 ^ 32)
    end)

    it("view raises for strides it cannot express, pointing to reshape", function()
      local tt = t:transpose(1, 2)
      raises("use reshape instead", tt.view, tt, 6)
    end)

    it("view and reshape raise for a string shape instead of reading it as no shape", function()
      -- lt.zeros(1):view("x") today returns a 0-d view: the string is skipped as if the
      -- shape were empty (check_sizes lets a string through for make_filled's dtype).
      local one = lt.zeros(1)
      raises({ "shape", "integer", "dtype" }, one.view, one, "x")
      raises({ "shape", "integer", "dtype" }, one.reshape, one, "x")
    end)
  end)

  describe("transpose(d0, d1)", function()
    it("raises for a dim out of range, positive or negative", function()
      raises("bad argument #3 .*dim 3 out of range", t.transpose, t, 1, 3)
      raises("bad argument #2 .*dim %-3 out of range", t.transpose, t, -3, 1)
      raises(RANGE, scalar.transpose, scalar, 1, 1)
    end)

    it("raises for a missing or fractional dim", function()
      raises("integer expected, got no value", t.transpose, t, 1)
      raises("dim must be an integer, got 1.5", t.transpose, t, 1.5, 1)
    end)
  end)

  describe("permute(dims)", function()
    it("raises for a repeated dim", function()
      raises("dimension 1 repeats in permutation", t.permute, t, 1, 1)
    end)

    it("raises when the number of dims does not match", function()
      raises("permute: expected 2 dims, got 1", t.permute, t, 1)
      raises("permute: expected 2 dims, got 0", t.permute, t)
      raises("permute: expected 2 dims, got 3", t.permute, t, 1, 2, 3)
    end)

    it("raises for a dim out of range", function()
      raises("dim 3 out of range for a tensor of 2 dims", t.permute, t, 1, 3)
      raises(RANGE, t.permute, t, { 2, 0 })
    end)

    it("accepts negative dims counted from the end, as every other dim argument does", function()
      -- torch: x.permute(-1, 0); today this raises "size is negative (-1)".
      local ok, p = pcall(t.permute, t, -1, 1)
      assert.is_true(ok, tostring(p))
      assert.are.same({ 3, 2 }, p.shape)
    end)

    it("raises for a fractional dim, calling it a dim rather than a size", function()
      local msg = raises(INTEGER, t.permute, t, 1.5, 1)
      assert.matches("dim", msg)
    end)
  end)

  describe("narrow(dim, start, length)", function()
    it("raises for a start out of range, positive, zero or negative", function()
      raises("start 0 out of range for dim 2 of size 3", t.narrow, t, 2, 0, 1)
      raises("start 5 out of range for dim 2 of size 3", t.narrow, t, 2, 5, 0)
      raises("start %-5 out of range", t.narrow, t, 2, -5, 1)
      raises(RANGE, t.narrow, t, 1, math.mininteger, 1)
    end)

    it("raises when start + length runs past the end", function()
      raises("start 3 %+ length 2 exceeds size 3 of dim 2", t.narrow, t, 2, 3, 2)
      raises("exceeds size", t.narrow, t, 1, 1, math.maxinteger)
    end)

    it("raises for a negative length, saying it is negative", function()
      -- torch: "narrow(): length must be non-negative"; today: "start 1 + length -1 exceeds".
      raises(NEGATIVE, t.narrow, t, 2, 1, -1)
    end)

    it("raises for a dim out of range", function()
      raises("dim 3 out of range", t.narrow, t, 3, 1, 1)
      raises(RANGE, scalar.narrow, scalar, 1, 1, 1)
    end)

    it("raises for missing or fractional arguments, naming which", function()
      raises("bad argument #3 .*integer expected, got no value", t.narrow, t, 1)
      raises("start must be an integer, got 1.5", t.narrow, t, 1, 1.5, 1)
      raises("length must be an integer, got 1.5", t.narrow, t, 1, 1, 1.5)
    end)
  end)

  describe("select(dim, i)", function()
    it("raises for an index out of range, positive, zero or negative", function()
      raises("index 3 is out of range for dim 1 of size 2", t.select, t, 1, 3)
      raises("index %-3 is out of range", t.select, t, 1, -3)
      raises("index 0 is out of range", t.select, t, 1, 0)
      raises(RANGE, t.select, t, 2, math.maxinteger)
    end)

    it("raises for a dim out of range, and on a 0-d tensor", function()
      raises("dim 3 out of range", t.select, t, 3, 1)
      raises("dim 1 out of range for a tensor of 0 dims", scalar.select, scalar, 1, 1)
    end)

    it("raises for a missing or fractional index", function()
      raises("integer expected, got no value", t.select, t, 1)
      raises("index must be an integer, got 1.5", t.select, t, 1, 1.5)
    end)

    it("raises for any index into an empty dim", function()
      local e = lt.zeros(0, 3)
      raises("index 1 is out of range for dim 1 of size 0", e.select, e, 1, 1)
    end)
  end)

  describe("unsqueeze(d)", function()
    it("raises for a dim beyond ndim + 1, positive or negative", function()
      raises("dim 4 out of range for a tensor of 3 dims", t.unsqueeze, t, 4)
      raises("dim %-4 out of range", t.unsqueeze, t, -4)
      raises("dim 0 out of range", t.unsqueeze, t, 0)
    end)

    it("raises without a dim or for a fractional one", function()
      raises("integer expected, got no value", t.unsqueeze, t)
      raises("dim must be an integer, got 0.5", t.unsqueeze, t, 0.5)
    end)

    it("raises when the result would have more than 64 dims", function()
      local full = lt.zeros(ones_list(64))
      raises("too many dimensions %(at most 64%)", full.unsqueeze, full, 1)
    end)
  end)

  describe("squeeze([d])", function()
    it("raises for a dim out of range", function()
      raises("dim 3 out of range", t.squeeze, t, 3)
      raises("dim %-3 out of range", t.squeeze, t, -3)
      raises(RANGE, scalar.squeeze, scalar, 1)
    end)

    it("raises for a fractional or non-numeric dim", function()
      raises("dim must be an integer, got 1.5", t.squeeze, t, 1.5)
      raises("integer expected, got string", t.squeeze, t, "x")
    end)
  end)

  describe("flatten([start [, end]])", function()
    it("raises for dims out of range", function()
      raises("dim 3 out of range", t.flatten, t, 3)
      raises("dim %-3 out of range", t.flatten, t, 1, -3)
      raises("dim 2 out of range for a tensor of 1 dims", scalar.flatten, scalar, 2)
    end)

    it("raises when start comes after end", function()
      raises("flatten start dim 2 comes after end dim 1", t.flatten, t, 2, 1)
    end)

    it("raises for a fractional dim", function()
      raises("dim must be an integer, got 1.5", t.flatten, t, 1.5)
    end)
  end)

  describe("expand(sizes)", function()
    it("raises for fewer sizes than dims", function()
      raises("the number of sizes %(1%) must be at least the tensor's dims %(2%)", t.expand, t, 3)
    end)

    it("raises when a dim that is not 1 would change size", function()
      raises("size 2 of dim 1 must be 1 to expand to 3", t.expand, t, 3, 3)
    end)

    it("raises for -1 on a new leading dim and for sizes below -1", function()
      raises("size %-1 is not allowed for new leading dim 1", t.expand, t, -1, 2, 3)
      raises("size is negative %(%-2%)", t.expand, t, 2, -2)
    end)

    it("raises for a fractional size", function()
      raises("size must be an integer, got 1.5", t.expand, t, 2, 1.5)
    end)

    it("raises for more than 64 sizes", function()
      local one = lt.zeros(1)
      raises("too many dimensions %(at most 64%)", one.expand, one, table.unpack(ones_list(65)))
    end)

    it("raises when the expanded element count overflows", function()
      local one = lt.zeros(1)
      raises(OVERFLOW, one.expand, one, 2 ^ 40, 2 ^ 40)
      raises(OVERFLOW, one.expand, one, 2 ^ 62, 2)
    end)
  end)

  describe("nbytes()", function()
    it("cannot be asked of a tensor whose byte count exceeds int64: expand refuses it", function()
      -- 2^62 float64 elements are 2^65 bytes
      local one = lt.zeros(1, "float64")
      raises(OVERFLOW, one.expand, one, 2 ^ 62)
      assert.are.equal(2 ^ 62, lt.zeros(1, "int8"):expand(2 ^ 62):nbytes())
    end)
  end)
end)

describe("element access methods given bad input", function()

  describe("item()", function()
    it("raises for a tensor that does not hold exactly one element", function()
      raises("a tensor with 6 elements cannot be converted to a Lua value", t.item, t)
      local e = lt.zeros(0)
      raises("a tensor with 0 elements", e.item, e)
    end)
  end)

  describe("get(i, j, ...)", function()
    it("raises for too few or too many indices", function()
      raises("get: expected 2 indices for a 2%-d tensor, got 1", t.get, t, 1)
      raises("get: too many arguments %(at most 2 after the tensor%)", t.get, t, 1, 1, 1)
    end)

    it("raises for an index out of range, positive, zero or negative", function()
      raises("index 3 is out of range for dim 1 of size 2", t.get, t, 3, 1)
      raises("index 4 is out of range for dim 2 of size 3", t.get, t, 1, 4)
      raises("index %-3 is out of range", t.get, t, -3, 1)
      raises("index 0 is out of range", t.get, t, 0, 1)
      raises(RANGE, t.get, t, math.mininteger, 1)
    end)

    it("raises for a fractional, nil or string index", function()
      raises("index must be an integer, got 1.5", t.get, t, 1.5, 1)
      raises("integer expected, got nil", t.get, t, nil, 1)
      raises("integer expected, got string", t.get, t, "a", 1)
    end)

    it("raises for an index on a 0-d tensor", function()
      local s = lt.tensor(1)
      raises("get: too many arguments %(at most 0 after the tensor%)", s.get, s, 1)
    end)
  end)

  describe("set(i, j, ..., value)", function()
    it("raises without indices or a value", function()
      raises("set: expected 2 indices and a value for a 2%-d tensor, got 0 indices", t.set, t)
      raises("got 1 indices", t.set, t, 1, 5)
    end)

    it("raises for an index out of range", function()
      raises("index 4 is out of range for dim 2 of size 3", t.set, t, 1, 4, 5)
      raises("index %-5 is out of range", v.set, v, -5, 1)
    end)

    it("raises for a fractional index", function()
      raises("index must be an integer, got 1.5", v.set, v, 1.5, 1)
    end)

    it("raises for a nil, string or table value", function()
      raises("cannot write a nil into a float32 tensor", t.set, t, 1, 1, nil)
      raises("cannot write a string into a float32 tensor", t.set, t, 1, 1, "1")
      raises("cannot write a table into a int64 tensor", v.set, v, 1, {})
    end)

    it("raises for NaN, infinity or an out-of-range float in an integer dtype", function()
      raises("value nan cannot be converted to int64", v.set, v, 1, 0 / 0)
      raises("value inf cannot be converted to int64", v.set, v, 1, math.huge)
      raises("cannot be converted to int64", v.set, v, 1, 2 ^ 63)
      local u = lt.zeros(2, "uint16")
      raises("value 65536 cannot be converted to uint16", u.set, u, 1, 65536.0)
    end)
  end)

  describe("tolist() and bytes()", function()
    it("raise nothing for an empty tensor (the boundary)", function()
      assert.are.same({}, lt.zeros(0):tolist())
      assert.are.equal("", lt.zeros(0, 3):bytes())
    end)
  end)
end)

describe("writes given bad input", function()

  describe("to(dtype)", function()
    it("raises without a dtype, or for an unknown one", function()
      raises("dtype name expected, got no value", t.to, t)
      raises("unknown dtype 'bogus'", t.to, t, "bogus")
      raises("dtype name expected, got table", t.to, t, { 1 })
      raises("dtype name expected, got number", t.to, t, 7)
    end)

    it("raises when a value does not fit the integer dtype", function()
      local nan = lt.full({ 2 }, 0 / 0)
      raises(NAN, nan.to, nan, "int32")
      local big = lt.full({ 2 }, 1e10, "float64")
      raises("cannot be converted to int32", big.to, big, "int32")
      local inf = lt.full({ 2 }, -math.huge)
      raises("inf", inf.to, inf, "uint64")
    end)
  end)

  describe("copy_(src)", function()
    it("raises without a source", function()
      raises("bad argument #2 .*value expected", t.copy_, t)
    end)

    it("raises for a string or function source", function()
      raises("cannot assign a string to a tensor", t.copy_, t, "x")
      raises("cannot assign a function to a tensor", t.copy_, t, print)
    end)

    it("raises when the source does not broadcast to the destination", function()
      raises("shape mismatch: size 4 of dim 1 cannot broadcast to size 3", t.copy_, t,
        lt.zeros(4))
      raises("shape mismatch", t.copy_, t, { 1, 2 })
    end)

    it("raises for a ragged table source", function()
      raises("expected a sequence of length 3 at dim 2", t.copy_, t, { { 1, 2, 3 }, { 1 } })
    end)

    it("raises when NaN, infinity or an out-of-range value goes into an integer dtype", function()
      raises(NAN, v.copy_, v, 0 / 0)
      raises(NAN, v.copy_, v, lt.full({ 4 }, 0 / 0))
      raises("inf", v.copy_, v, lt.full({ 4 }, math.huge))
      raises(NAN, v.copy_, v, { 1, 2, 0 / 0, 4 })
      local i32 = lt.zeros(2, "int32")
      raises("cannot be converted to int32", i32.copy_, i32, lt.full({ 2 }, 1e300, "float64"))
    end)
  end)

  describe("fill_(value) and zero_()", function()
    it("fill_ raises without a value, or for a string or table", function()
      raises("number or boolean expected, got no value", t.fill_, t)
      raises("number or boolean expected, got string", t.fill_, t, "1")
      raises("number or boolean expected, got table", t.fill_, t, { 1, 2 })
    end)

    it("fill_ raises for NaN, infinity or an out-of-range float in an integer dtype", function()
      raises("value nan cannot be converted to int64", v.fill_, v, 0 / 0)
      raises("value %-inf cannot be converted to int64", v.fill_, v, -math.huge)
      local u8 = lt.zeros(2, "uint8")
      raises("value 300 cannot be converted to uint8", u8.fill_, u8, 300.0)
    end)

    it("a failed fill_ leaves the tensor unchanged", function()
      local u8 = lt.tensor({ 7, 7 }, "uint8")
      raises("cannot be converted", u8.fill_, u8, -1.0)
      assert.are.same({ 7, 7 }, u8:tolist())
    end)

    it("zero_ raises for a non-tensor self", function()
      raises("tensor expected, got string", t.zero_, "x")
    end)
  end)
end)

describe("comparison operators on tensors", function()
  -- Lua turns what __lt and __le return into a boolean, so an elementwise t < 1 is impossible;
  -- before, these raised Lua's own "attempt to compare userdata with number"
  local t, x = lt.arange(3), lt.ones(3)
  local WHY = "tensors cannot be compared elementwise with "

  it("< and > raise pointing to t:lt(x) or t:gt(x)", function()
    raises(WHY .. "'<' or '>' %(Lua makes the result a boolean%): use t:lt%(x%)",
      function() return t < 1 end)
    raises("use t:lt%(x%)", function() return t < x end)
    raises("use t:lt%(x%)", function() return x > t end) -- Lua calls __lt(t, x)
    raises("use t:gt%(x%)", function() return t > 1 end) -- Lua calls __lt(1, t)
    raises("use t:gt%(x%)", function() return 1 < t end)
  end)

  it("<= and >= raise pointing to t:le(x) or t:ge(x)", function()
    raises(WHY .. "'<=' or '>=' %(Lua makes the result a boolean%): use t:le%(x%)",
      function() return t <= 1 end)
    raises("use t:le%(x%)", function() return t <= x end)
    raises("use t:ge%(x%)", function() return t >= 2 end)
  end)

  it("the methods named compare elementwise", function()
    assert.same({ true, false, false }, t:lt(1):tolist())
    assert.same({ false, false, true }, t:gt(1):tolist())
    assert.same({ true, true, false }, t:le(1):tolist())
    assert.same({ false, true, true }, t:ge(1):tolist())
  end)
end)

describe("indexing given bad input", function()

  describe("t[i] (read)", function()
    it("raises for an index out of range, positive, zero or negative", function()
      -- #t + 1 reads nil (the border of a sequence, for ipairs): the first positive one out of
      -- range that raises is #t + 2
      raises("index 6 is out of range for dim 1 of size 4", function() return v[6] end)
      raises("index %-5 is out of range for dim 1 of size 4", function() return v[-5] end)
      raises("index 0 is out of range", function() return v[0] end)
      raises("index 4 is out of range for dim 1 of size 2", function() return t[4] end)
      raises("index %-3 is out of range", function() return t[-3] end)
    end)

    it("raises for the largest and smallest integers without overflowing", function()
      raises(RANGE, function() return v[math.maxinteger] end)
      raises(RANGE, function() return v[math.mininteger] end)
      raises(RANGE, function() return t[math.mininteger] end)
    end)

    it("raises for a fractional, NaN or infinite index", function()
      raises("index must be an integer, got 1.5", function() return v[1.5] end)
      raises("index must be an integer, got 1.5", function() return t[1.5] end)
      raises("index must be an integer, got %-?nan", function() return v[0 / 0] end)
      raises("index must be an integer, got inf", function() return v[math.huge] end)
      raises(INTEGER, function() return v[2 ^ 63] end)
    end)

    it("raises for a nil or boolean index", function()
      raises("invalid index: integer, table or tensor expected, got nil", function() return v[nil] end)
      raises("got boolean", function() return v[true] end)
    end)

    it("gives nil for a string key that is no method or property, as a Lua object does", function()
      assert.is_nil(v.nonexistent)
      assert.is_nil(v["1"])
    end)

    it("raises for an integer index into a 0-d tensor, pointing to item()", function()
      raises("cannot index a 0%-d tensor %(use item%(%)%)", function() return scalar[1] end)
    end)

    it("raises for any index into an empty dim", function()
      local e = lt.zeros(0)
      assert.is_nil(e[1]) -- #e + 1, the border
      raises("index 2 is out of range for dim 1 of size 0", function() return e[2] end)
      raises("index %-1 is out of range", function() return e[-1] end)
      raises("index 1 is out of range for dim 1 of size 0", function() e[1] = 0 end)
    end)
  end)

  describe("t[{...}] (a table key)", function()
    it("raises for more indices than dims", function()
      raises("too many indices for a tensor of 2 dims", function() return t[{ 1, 1, 1 }] end)
      raises("too many indices for a tensor of 2 dims", function() return t[{ 1, {}, 1 }] end)
      raises("too many indices for a tensor of 2 dims", function() return t[{ {}, {}, {} }] end)
      raises("too many indices for a tensor of 0 dims", function() return scalar[{ 1 }] end)
    end)

    it("raises for an entry out of range, naming its dim", function()
      raises("index 3 is out of range for dim 1 of size 2", function() return t[{ 3 }] end)
      raises("index 4 is out of range for dim 2 of size 3", function() return t[{ 1, 4 }] end)
      raises("index %-4 is out of range for dim 2", function() return t[{ 1, -4 }] end)
    end)

    it("raises for an entry that is fractional, a string or a boolean", function()
      raises("index must be an integer, got 1.5", function() return t[{ 1.5 }] end)
      raises("invalid index entry #1: integer, table or tensor expected, got string",
        function() return t[{ "a" }] end)
      raises("invalid index entry #2: integer, table or tensor expected, got boolean",
        function() return t[{ 1, true }] end)
    end)

    it("raises for a range step of 0", function()
      raises("range step must be a nonzero integer", function() return t[{ { 1, 2, 0 } }] end)
      raises("range step must be a nonzero integer", function() return v[{ { 1, 4, 0 } }] end)
    end)

    it("raises for a fractional or non-numeric range start, end or step", function()
      raises("range start must be an integer, got 1.5", function() return t[{ { 1.5, 2 } }] end)
      raises("range end must be an integer, got 2.5", function() return t[{ { 1, 2.5 } }] end)
      raises("range step must be an integer, got 1.5",
        function() return t[{ { 1, 2, 1.5 } }] end)
      raises("range start must be an integer, got string",
        function() return t[{ { "a", 2 } }] end)
      raises("range step must be an integer, got string",
        function() return t[{ { 1, 2, "x" } }] end)
    end)

    it("raises for a range start or end out of range, positive or negative", function()
      raises("range end 5 is out of range for dim 1 of size 2",
        function() return t[{ { 1, 5 } }] end)
      raises("range start 0 is out of range", function() return t[{ { 0, 1 } }] end)
      raises("range start %-5 is out of range", function() return t[{ { -5, 1 } }] end)
      raises("range end 4 is out of range for dim 2 of size 3",
        function() return t[{ {}, { 1, 4 } }] end)
    end)

    it("raises for the extreme integers as range bounds without overflowing", function()
      raises(RANGE, function() return t[{ { math.maxinteger, 1 } }] end)
      raises(RANGE, function() return t[{ { math.mininteger, 1 } }] end)
      raises(RANGE, function() return t[{ { 1, math.mininteger } }] end)
      -- the most negative step walks backwards from 1 towards 2: nothing, as in Python
      assert.are.same({ 0, 3 }, t[{ { 1, 2, math.mininteger } }].shape)
    end)

    it("a step larger than the dim selects only the start, as in torch", function()
      -- torch: t[0:2:2**62] has 1 row; today this raises "range step must be a nonzero integer".
      local ok, r = pcall(function() return t[{ { 1, 2, 2 ^ 62 } }] end)
      assert.is_true(ok, tostring(r))
      assert.are.same({ 1, 3 }, r.shape)
    end)
  end)

  describe("t[i] = v and t[{...}] = v (write)", function()
    it("raises for an index out of range, positive, zero or negative", function()
      raises("index 5 is out of range for dim 1 of size 4", function() v[5] = 1 end)
      raises("index %-5 is out of range", function() v[-5] = 1 end)
      raises("index 0 is out of range", function() v[0] = 1 end)
      raises("index 3 is out of range for dim 1 of size 2", function() t[3] = 1 end)
      raises("index 4 is out of range for dim 2 of size 3", function() t[{ 1, 4 }] = 1 end)
    end)

    it("raises for a fractional, NaN, nil or boolean key", function()
      raises("index must be an integer, got 1.5", function() v[1.5] = 1 end)
      raises(INTEGER, function() v[0 / 0] = 1 end)
      raises("invalid index: integer, table or tensor expected, got nil", function() v[nil] = 1 end)
      raises("got boolean", function() t[true] = 1 end)
    end)

    it("raises for a string key: fields of a tensor cannot be set", function()
      raises("cannot set field 'foo' of a tensor", function() v.foo = 1 end)
      for _, name in ipairs(PROPERTIES) do
        raises("cannot set field '" .. name .. "'", function() v[name] = 1 end)
      end
    end)

    it("raises when writing into a 0-d tensor with an integer key", function()
      raises("cannot index a 0%-d tensor", function() scalar[1] = 2 end)
    end)

    it("raises when writing a string, nil, table or function as an element", function()
      raises("cannot write a string into a int64 tensor", function() v[1] = "x" end)
      raises("cannot write a string into a int64 tensor", function() v[1] = "1" end)
      raises("cannot write a nil into a int64 tensor", function() v[1] = nil end)
      raises("cannot write a table into a int64 tensor", function() v[1] = {} end)
      raises("cannot write a function into a int64 tensor", function() v[1] = print end)
    end)

    it("raises when writing a string into a sub-tensor", function()
      raises("cannot assign a string to a tensor", function() t[1] = "x" end)
      raises("cannot assign a string to a tensor", function() t[{ 1, { 1, 2 } }] = "x" end)
    end)

    it("raises for NaN, infinity or an out-of-range float in an integer dtype", function()
      raises("value nan cannot be converted to int64", function() v[1] = 0 / 0 end)
      raises("value inf cannot be converted to int64", function() v[1] = math.huge end)
      raises("value %-inf cannot be converted to int64", function() v[1] = -math.huge end)
      raises("cannot be converted to int64", function() v[1] = 2 ^ 63 end)
      local m = lt.zeros(2, 2, "int32")
      raises("value nan cannot be converted to int32", function() m[1] = 0 / 0 end)
      raises("value nan cannot be converted to int32", function() m[1] = { 0 / 0, 1 } end)
      raises("cannot be converted to int32", function() m[{ 1, 1 }] = 3e9 end)
      raises("cannot be converted to int32", function() m[{ {}, 2 }] = -3e9 end)
    end)

    it("leaves the element unchanged when the write raises", function()
      local w = lt.tensor({ 1, 2, 3 })
      raises(NAN, function() w[2] = 0 / 0 end)
      raises("cannot write", function() w[2] = "x" end)
      assert.are.same({ 1, 2, 3 }, w:tolist())
    end)

    it("raises when the value does not broadcast to the sub-tensor", function()
      raises("shape mismatch: size 2 of dim 1 cannot broadcast to size 3",
        function() t[1] = { 1, 2 } end)
      raises("shape mismatch: size 4 of dim 1 cannot broadcast to size 3",
        function() t[1] = lt.zeros(4) end)
      raises("expected a sequence of length 2",
        function() t[{ {}, { 1, 2 } }] = { { 1, 2 }, { 3 } } end)
    end)
  end)

  describe("#t", function()
    it("raises for a 0-d tensor, as len() does in torch", function()
      raises("len%(%) of a 0%-d tensor", function() return #scalar end)
    end)
  end)
end)

describe("released tensors", function()
  local function released_tensor()
    local t = lt.arange(3)
    debug.getmetatable(t).__gc(t)
    return t
  end

  for _, name in ipairs(METHODS) do
    it(("t:%s() on a tensor released by __gc raises 'tensor has been released'"):format(name),
      function()
        local t = released_tensor()
        raises(RELEASED, t[name], t)
      end)
  end

  it("every property of a released tensor raises 'tensor has been released'", function()
    local t = released_tensor()
    for _, name in ipairs(PROPERTIES) do
      raises(RELEASED, function() return t[name] end)
    end
  end)

  it("indexing, writing and #t on a released tensor raise 'tensor has been released'", function()
    local t = released_tensor()
    raises(RELEASED, function() return t[1] end)
    raises(RELEASED, function() return t[{ 1 }] end)
    raises(RELEASED, function() return t[{ { 1, 2 } }] end)
    raises(RELEASED, function() t[1] = 1 end)
    raises(RELEASED, function() t[{ { 1, 2 } }] = 1 end)
    raises(RELEASED, function() return #t end)
  end)

  it("a released tensor raises when used as the source of a copy or a constructor", function()
    local t = released_tensor()
    local dst = lt.zeros(3)
    raises(RELEASED, dst.copy_, dst, t)
    raises(RELEASED, function() dst[{}] = t end)
    raises(RELEASED, lt.tensor, t)
  end)

  it("a tensor closed by <close> raises 'tensor has been released' on every later use", function()
    local escaped
    do
      local t <close> = lt.zeros(3)
      escaped = t
    end
    raises(RELEASED, escaped.numel, escaped)
    raises(RELEASED, function() return escaped[1] end)
    raises(RELEASED, function() escaped[1] = 1 end)
    raises(RELEASED, function() return escaped.shape end)
    raises(RELEASED, function() return #escaped end)
  end)

  it("tostring() of a released tensor does not raise, and says it was released", function()
    local t = released_tensor()
    local ok, s = pcall(tostring, t)
    assert.is_true(ok, tostring(s))
    assert.matches("released", s)
    local closed
    do
      local c <close> = lt.zeros(2)
      closed = c
    end
    assert.has_no.errors(function() return tostring(closed) end)
  end)

  it("releasing twice, or closing after __gc, is harmless", function()
    local t = released_tensor()
    local mt = debug.getmetatable(t)
    assert.has_no.errors(function() mt.__gc(t) end)
    assert.has_no.errors(function() mt.__close(t) end)
    raises(RELEASED, t.numel, t)
  end)

  it("is_tensor still recognises a released tensor (it is one, only unusable)", function()
    assert.is_true(lt.is_tensor(released_tensor()))
  end)

  it("a view keeps working after its base was released", function()
    local base = lt.arange(6)
    local view = base[{ { 2, 4 } }]
    debug.getmetatable(base).__gc(base)
    collectgarbage()
    assert.are.same({ 1, 2, 3 }, view:tolist())
    view[1] = 10
    assert.are.equal(10, view[1])
  end)
end)

describe("after all of the errors above", function()
  it("the module still creates, writes and reads tensors", function()
    collectgarbage()
    collectgarbage()
    local t = lt.zeros(2, 3, "int32")
    t[{ 1, 2 }] = 7
    t[2] = { 1, 2, 3 }
    t:set(1, 3, -4.9)
    assert.are.same({ { 0, 7, -4 }, { 1, 2, 3 } }, t:tolist())
    assert.are.equal(7, t:get(1, 2))
    local v = lt.arange(4)
    v[-1] = 42
    assert.are.same({ 0, 1, 2, 42 }, v:tolist())
    assert.are.equal("tensor([ 0,  1,  2, 42])", tostring(v))
  end)
end)
