-- Bugs the seeded random driver (spec/drive/driver.lua) found, reproduced through the Lua API as
-- a script hits them; each names the seed and call that found it. Those that belong to an area
-- with a spec file of its own are there (shape_spec.lua: more pieces than a table holds;
-- memory_spec.lua: the collector's extra steps).
local lt = require "ltensor"
local raises = require("helpers").raises

-- An opaque tensor, as only a file or a DLPack peer gives one: float8 from a .safetensors file.
local function float8(n)
  local path = os.tmpname()
  os.remove(path)
  path = path .. ".safetensors"
  local hdr = ('{"a":{"dtype":"F8_E4M3","shape":[%d],"data_offsets":[0,%d]}}'):format(n, n)
  hdr = hdr .. (" "):rep((8 - #hdr % 8) % 8)
  local f = assert(io.open(path, "wb"))
  f:write(string.pack("<I8", #hdr), hdr, ("\60"):rep(n))
  f:close()
  local t = lt.load(path).a
  os.remove(path)
  return t
end

describe("driver regressions", function()
  -- seed 121, call 124: `t:add_(u)` on a float8 t promoted through lt_dtypes[LT_OPAQUE], one
  -- past the end of the dtype table (a global-buffer-overflow under AddressSanitizer), and
  -- raised "result type float32 can't be cast to the tensor's dtype (null)".
  it("refuses arithmetic on an opaque tensor with a tensor operand, either side, in place", function()
    local t, u = float8(2), lt.ones(2)
    local opaque = { "opaque tensors have no arithmetic", "cannot be read or written" }
    raises(opaque, t.add_, t, u)
    raises(opaque, t.mul_, t, lt.ones(1))
    raises(opaque, function() return t + u end)
    raises(opaque, function() return u * t end)
    raises(opaque, u.add_, u, t)
    raises(opaque, t.lerp, t, u, t)
    raises(opaque, lt.cat, { u, t })
  end)

  -- seed 2102, call 1355: `t:add_(x, {alpha = a})` on a float8 t asked lt_dtypes whether t is
  -- integral, one past its end (UBSan: index 15 out of bounds for type 'lt_dtype_info [15]').
  it("refuses add and sub with alpha on an opaque tensor", function()
    local t = float8(2)
    local opaque = { "opaque tensors have no arithmetic", "cannot be read or written" }
    raises(opaque, t.add_, t, -3.5, { alpha = 1.5 })
    raises(opaque, t.sub, t, 2, { alpha = 2 })
    raises(opaque, t.add, t, lt.ones(2), { alpha = 0.5 })
    raises(opaque, lt.ones(2).sub, lt.ones(2), t, { alpha = 2 })
  end)

  it("refuses an opaque tensor among lt.where's operands before promoting", function()
    local t = float8(2)
    local cond = lt.ones(2, "bool")
    raises("cannot be read or written", lt.where, cond, t, 1)
    raises("cannot be read or written", lt.where, cond, 1, t)
    raises("cannot be read or written", lt.where, t, 1, 2)
  end)

  -- seed 70029, call 1773: `F.embedding(idx, w)` with an out-of-range index in an int32 (or
  -- non-contiguous) idx freed its int64 copy, then read the bad index from it for the message
  -- (heap-use-after-free under AddressSanitizer).
  it("names an out-of-range class index of a converted index tensor", function()
    local F = lt.nn.functional
    raises("^embedding: index 11 is out of range 1 to 10$", F.embedding,
      lt.tensor({ 1, 11 }, "int32"), lt.ones(10, 3))
    raises("^embedding: index 0 is out of range 1 to 10 %(indices are 1%-based%)$", F.embedding,
      lt.tensor({ { 1, 2 }, { 0, 3 } }, "int64"):t(), lt.ones(10, 3))
    raises("^one_hot: class value 5 is out of range 1 to 4", F.one_hot,
      lt.tensor({ { 1, 2 }, { 5, 3 } }, "int64"):t(), 4)
  end)

  -- seeds 70035, 70045, 70054, 70062, 70069, 70105: an opaque tensor reached messages and checks
  -- that read lt_dtypes[LT_OPAQUE], one past the table's end (UBSan: index 15 out of bounds):
  -- F.pad's constant mode, linalg's dtype check, attention's and embedding's dtype messages.
  it("refuses an opaque tensor in nn and linalg functions, naming it", function()
    local F, t = lt.nn.functional, float8(4)
    local opaque = { "opaque", "cannot be read or written" }
    raises(opaque, F.pad, t, {})
    raises(opaque, F.pad, t, { 1, 1 }, "constant", 2)
    raises(opaque, F.pad, t:view(1, 1, 4), { 1, 1 }, "reflect")
    raises(opaque, lt.linalg.det, t:view(2, 2))
    raises(opaque, lt.linalg.inv, t:view(2, 2))
    raises(opaque, F.scaled_dot_product_attention, lt.ones(1, 2, 2), t:view(1, 2, 2),
      lt.ones(1, 2, 2))
    raises(opaque, F.embedding, lt.tensor({ 1 }), t:view(2, 2), nil, 1.0)
    raises(opaque, F.interpolate, t:view(1, 1, 4), nil, 2)
  end)
end)
