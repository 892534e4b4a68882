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
end)
