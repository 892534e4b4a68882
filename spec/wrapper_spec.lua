-- dlpack.ReadOnlyTensorWrapper: a zero-copy view whose only use is a read-only DLPack export.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

local REFUSED = "ReadOnlyTensorWrapper only supports DLPack export; '%s' is not allowed"

local function refused(name, fn)
  local ok, err = pcall(fn)
  assert.is_false(ok, name .. " was allowed")
  assert.truthy(tostring(err):find(REFUSED:format(name), 1, true),
    ("%s: unexpected message %s"):format(name, tostring(err)))
end

describe("ReadOnlyTensorWrapper", function()
  it("exports a read-only tensor that shares memory", function()
    local t = lt.arange(4)
    local r = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(t))
    assert.is_true(r:is_read_only())
    assert.equal(t:const_data_ptr(), r:const_data_ptr())
    t[1] = 42
    assert.equal(42, r[1])
  end)

  it("makes the imported tensor refuse every write, saying why", function()
    local r = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.zeros(3)))
    for _, write in ipairs({
      function() r[1] = 1 end,
      function() r:set(1, 1) end,
      function() r[{ { 1, 2 } }] = 1 end,
      function() r:fill_(1) end,
      function() r:zero_() end,
      function() r:copy_(lt.ones(3)) end,
      function() r[{ { 1, 2 } }]:fill_(1) end,
    }) do
      local ok, err = pcall(write)
      assert.is_false(ok)
      assert.truthy(err:find("tensor is read-only (it came from a ReadOnlyTensorWrapper)", 1, true))
    end
    assert.same({ 0, 0, 0 }, r:tolist())
  end)

  it("keeps read-only through views, and clones are writable copies", function()
    local r = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.zeros(2, 2)))
    assert.is_true(r[1]:is_read_only())
    assert.is_true(r:transpose(1, 2):is_read_only())
    local c = r:clone()
    c[1] = 5
    assert.same({ 5, 5 }, c[1]:tolist())
    assert.same({ 0, 0 }, r[1]:tolist())
  end)

  it("exports only versioned capsules with READ_ONLY", function()
    local w = dlpack.ReadOnlyTensorWrapper(lt.zeros(2))
    local c = w:__dlpack({ max_version = { 1, 3 } })
    assert.equal(debug.getregistry()["dltensor_versioned"], debug.getmetatable(c))
    assert.is_true(dlpack.from_dlpack(c):is_read_only())
    -- no max_version: versioned all the same, as torch's wrapper defaults it to (1, 0)
    local d = w:__dlpack()
    assert.equal(debug.getregistry()["dltensor_versioned"], debug.getmetatable(d))
    assert.is_true(dlpack.from_dlpack(d):is_read_only())
    assert.is_true(dlpack.from_dlpack(w:__dlpack({ copy = true })):is_read_only())
    assert.has_error(function() w:__dlpack({ max_version = { 0, 9 } }) end)
    assert.has_error(function() dlpack.to_dlpack(w) end)
  end)

  it("reports its device and carries the const exchange table", function()
    local t = lt.zeros(2)
    local w = dlpack.ReadOnlyTensorWrapper(t)
    assert.same({ 1, 0 }, { w:__dlpack_device() })
    assert.equal("userdata", type(w.__dlpack_c_exchange_api))
    assert.are_not.equal(t.__dlpack_c_exchange_api, w.__dlpack_c_exchange_api)
  end)

  it("prints the tensor it wraps", function()
    assert.equal("ReadOnlyTensorWrapper(tensor([0, 1, 2]))",
      tostring(dlpack.ReadOnlyTensorWrapper(lt.arange(3))))
  end)

  it("refuses every other key, write, operator, length, call and comparison", function()
    local w = dlpack.ReadOnlyTensorWrapper(lt.arange(3))
    local w2 = dlpack.ReadOnlyTensorWrapper(lt.arange(3))
    refused("shape", function() return w.shape end)
    refused("size", function() return w:size() end)
    refused("1", function() return w[1] end)
    refused("dtype", function() w.dtype = 1 end)
    refused("1", function() w[1] = 0 end)
    refused("__add", function() return w + 1 end)
    refused("__add", function() return 1 + w end)
    refused("__sub", function() return w - 1 end)
    refused("__mul", function() return w * 2 end)
    refused("__div", function() return w / 2 end)
    refused("__mod", function() return w % 2 end)
    refused("__pow", function() return w ^ 2 end)
    refused("__unm", function() return -w end)
    refused("__idiv", function() return w // 2 end)
    refused("__band", function() return w & 1 end)
    refused("__bor", function() return w | 1 end)
    refused("__bxor", function() return w ~ 1 end)
    refused("__shl", function() return w << 1 end)
    refused("__shr", function() return w >> 1 end)
    refused("__bnot", function() return ~w end)
    refused("__concat", function() return w .. "x" end)
    refused("__len", function() return #w end)
    refused("__eq", function() return w == w2 end)
    refused("__lt", function() return w < w2 end)
    refused("__le", function() return w <= w2 end)
    refused("__call", function() return w() end)
    assert.equal("ReadOnlyTensorWrapper", getmetatable(w))
  end)

  it("says in every refusal how to get a read-only tensor of its memory", function()
    local t = lt.arange(4)
    local w = dlpack.ReadOnlyTensorWrapper(t)
    local HINT = "for a read-only tensor of its memory, use dlpack.from_dlpack(w)"
    for _, f in ipairs({
      function() return w[1] end,
      function() w[1] = 0 end,
      function() return w:add_(1) end,
      function() return w:sum(1) end,
      function() return w + 1 end,
      function() return #w end,
    }) do
      local ok, err = pcall(f)
      assert.is_false(ok)
      assert.truthy(tostring(err):find(HINT, 1, true), tostring(err))
    end
    -- and the hint works: a read-only tensor sharing t's memory
    local r = dlpack.from_dlpack(w)
    assert.is_true(r:is_read_only())
    assert.equal(t:const_data_ptr(), r:const_data_ptr())
    assert.same({ 0, 1, 2, 3 }, r:tolist())
  end)

  it("does not make a copy-on-write clone copy its data", function()
    local t = lt.arange(4)
    local c = t:clone()
    local r = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(c))
    assert.equal(t:const_data_ptr(), c:const_data_ptr())
    assert.equal(t:const_data_ptr(), r:const_data_ptr())
    local w = dlpack.ReadOnlyTensorWrapper(c)
    dlpack.from_dlpack(w:__dlpack({ max_version = { 1, 3 } }))
    assert.equal(t:const_data_ptr(), c:const_data_ptr())
    -- a writable export does
    dlpack.from_dlpack(c:__dlpack({ max_version = { 1, 3 } }))
    assert.are_not.equal(t:const_data_ptr(), c:const_data_ptr())
  end)

  it("takes only tensors (or wrappers)", function()
    assert.has_error(function() dlpack.ReadOnlyTensorWrapper({}) end)
    local w = dlpack.ReadOnlyTensorWrapper(dlpack.ReadOnlyTensorWrapper(lt.zeros(1)))
    assert.is_true(dlpack.from_dlpack(w):is_read_only())
  end)
end)
