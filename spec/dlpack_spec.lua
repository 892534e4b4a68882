-- DLPack from Lua: capsules, the __dlpack protocol, from_dlpack and to_dlpack.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

local raises = require("helpers").raises

local registry = debug.getregistry()

local function capsule_kind(c)
  for _, name in ipairs({ "dltensor", "dltensor_versioned", "used_dltensor",
    "used_dltensor_versioned" }) do
    if debug.getmetatable(c) == registry[name] then return name end
  end
end

describe("the walkthrough (examples/quickstart.lua)", function()
  it("prints exactly what torch.utils.dlpack's example prints", function()
    local p = assert(io.popen("lua5.4 examples/quickstart.lua 2>&1"))
    local out = p:read("a")
    p:close()
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.equal("tensor([-1, -1,  2,  3])", lines[1])
    assert.equal("tensor([-1, -1,  2,  3])", lines[2])
    assert.truthy(lines[3]:match('^<capsule object "dltensor" at 0x%x+>$'), lines[3])
    assert.equal("tensor([-9, -1,  2,  3])\ttensor([-9, -1,  2,  3])\ttensor([-9, -1,  2,  3])",
      lines[4])
    assert.truthy(lines[5]:match("^false\t.*the capsule was already consumed"), lines[5])
  end)
end)

describe("capsules", function()
  it("use the registry metatables, and switch to 'used' when consumed", function()
    local t = lt.arange(3)
    local c = dlpack.to_dlpack(t)
    assert.equal("dltensor", capsule_kind(c))
    assert.equal("userdata", type(c))
    dlpack.from_dlpack(c)
    assert.equal("used_dltensor", capsule_kind(c))
    local v = t:__dlpack({ max_version = { 1, 3 } })
    assert.equal("dltensor_versioned", capsule_kind(v))
    dlpack.from_dlpack(v)
    assert.equal("used_dltensor_versioned", capsule_kind(v))
  end)

  it("print as Python prints a capsule", function()
    local c = dlpack.to_dlpack(lt.zeros(1))
    assert.truthy(tostring(c):match('^<capsule object "dltensor" at 0x%x+>$'))
    dlpack.from_dlpack(c)
    assert.truthy(tostring(c):match('^<capsule object "used_dltensor" at 0x%x+>$'))
  end)

  it("have no methods and a protected metatable", function()
    local c = dlpack.to_dlpack(lt.zeros(1))
    assert.has_error(function() return c.foo end)
    assert.equal("capsule", getmetatable(c))
  end)

  it("cannot be consumed twice", function()
    local c = dlpack.to_dlpack(lt.zeros(1))
    dlpack.from_dlpack(c)
    assert.has_error(function() dlpack.from_dlpack(c) end,
      "the capsule was already consumed (a DLPack capsule can be used only once)")
  end)

  it("refuse device and copy options", function()
    local c = dlpack.to_dlpack(lt.zeros(1))
    assert.has_error(function() dlpack.from_dlpack(c, { copy = true }) end)
    assert.has_error(function() dlpack.from_dlpack(c, { device = "cpu" }) end)
    assert.equal("dltensor", capsule_kind(c)) -- refused before consumption
  end)

  it("keep their data alive after the tensor is gone", function()
    local c
    do
      local t <close> = lt.arange(5)
      c = dlpack.to_dlpack(t)
    end
    collectgarbage()
    assert.same({ 0, 1, 2, 3, 4 }, dlpack.from_dlpack(c):tolist())
  end)
end)

describe("t:__dlpack(opts)", function()
  local t = lt.arange(6, "float32"):view(2, 3)

  it("negotiates the version: legacy without max_version or below 1, versioned from 1", function()
    assert.equal("dltensor", capsule_kind(t:__dlpack()))
    assert.equal("dltensor", capsule_kind(t:__dlpack({ max_version = { 0, 8 } })))
    assert.equal("dltensor_versioned", capsule_kind(t:__dlpack({ max_version = { 1, 0 } })))
    assert.equal("dltensor_versioned", capsule_kind(t:__dlpack({ max_version = { 2, 0 } })))
  end)

  it("ignores unknown fields and accepts an integer stream", function()
    assert.equal("dltensor_versioned",
      capsule_kind(t:__dlpack({ max_version = { 1, 3 }, stream = 0, whatever = true })))
    assert.has_error(function() t:__dlpack({ stream = "x" }) end)
  end)

  it("names the element of max_version or dl_device that is not an integer", function()
    local ok, err = pcall(t.__dlpack, t, { max_version = { 1, "x" } })
    assert.is_false(ok)
    assert.matches("max_version%[2%] must be an integer, got string", err)
    ok, err = pcall(t.__dlpack, t, { max_version = { 1.5, 3 } })
    assert.is_false(ok)
    assert.matches("max_version%[1%] must be an integer, got number", err)
    ok, err = pcall(t.__dlpack, t, { dl_device = { 1 } })
    assert.is_false(ok)
    assert.matches("dl_device%[2%] must be an integer, got nil", err)
    ok, err = pcall(t.__dlpack, t, { max_version = 13 })
    assert.is_false(ok)
    assert.matches("max_version must be a table {a, b}, got number", err)
  end)

  it("reads options through __index when the table has a metatable", function()
    local opts = setmetatable({}, { __index = { max_version = { 1, 3 }, read_only = true } })
    local c = t:__dlpack(opts)
    assert.equal("dltensor_versioned", capsule_kind(c))
    assert.is_true(dlpack.from_dlpack(c):is_read_only())
  end)

  it("refuses a device the tensor is not on", function()
    assert.equal("dltensor", capsule_kind(t:__dlpack({ dl_device = { 1, 0 } })))
    assert.has_error(function() t:__dlpack({ dl_device = { 2, 0 } }) end)
  end)

  it("shares memory, or copies when asked", function()
    local shared = dlpack.from_dlpack(t:__dlpack({ max_version = { 1, 3 } }))
    assert.equal(t:data_ptr(), shared:data_ptr())
    local copied = dlpack.from_dlpack(t:__dlpack({ max_version = { 1, 3 }, copy = true }))
    assert.are_not.equal(t:data_ptr(), copied:data_ptr())
    assert.same(t:tolist(), copied:tolist())
  end)

  it("keeps shape, strides and dtype of views", function()
    local v = t:transpose(1, 2)
    local back = dlpack.from_dlpack(v:__dlpack({ max_version = { 1, 3 } }))
    assert.same(v.shape, back.shape)
    assert.same(v:stride(), back:stride())
    assert.equal("float32", back.dtype)
    assert.same(v:tolist(), back:tolist())
  end)

  it("reports the device with __dlpack_device", function()
    local dt, id = t:__dlpack_device()
    assert.equal(dlpack.DLDeviceType.kDLCPU, dt)
    assert.equal(0, id)
  end)
end)

describe("from_dlpack", function()
  it("shares the memory of an ltensor tensor", function()
    local a = lt.zeros(3)
    local b = dlpack.from_dlpack(a)
    b[2] = 5
    assert.equal(5, a[2])
    assert.are_not.equal(a, b)
  end)

  it("copies when copy = true, and shares when copy = false", function()
    local a = lt.zeros(3)
    local c = dlpack.from_dlpack(a, { copy = true })
    c[1] = 1
    assert.equal(0, a[1])
    local d = dlpack.from_dlpack(a, { copy = false, device = "cpu" })
    d[1] = 2
    assert.equal(2, a[1])
  end)

  it("takes any object with __dlpack, a plain Lua table included", function()
    local data = lt.arange(4)
    local seen
    local producer = {
      __dlpack = function(self, opts)
        seen = opts
        return data:__dlpack(opts)
      end,
      __dlpack_device = function() return 1, 0 end,
    }
    local t = dlpack.from_dlpack(producer)
    assert.same({ 1, 3 }, seen.max_version)
    assert.same({ 0, 1, 2, 3 }, t:tolist())
    t[1] = 7
    assert.equal(7, data[1])
    dlpack.from_dlpack(producer, { device = "cpu", copy = false })
    assert.same({ 1, 0 }, seen.dl_device)
    assert.equal(false, seen.copy)
  end)

  it("copies when copy = true even if the producer shares", function()
    local data = lt.arange(4)
    local lazy = { -- ignores opts
      __dlpack = function() return dlpack.to_dlpack(data) end,
      __dlpack_device = function() return 1, 0 end,
    }
    local t = dlpack.from_dlpack(lazy, { copy = true })
    t[1] = 100
    assert.equal(0, data[1])
  end)

  it("refuses a producer that copies when copy = false", function()
    local data = lt.arange(4)
    local eager = {
      __dlpack = function() return data:__dlpack({ max_version = { 1, 3 }, copy = true }) end,
      __dlpack_device = function() return 1, 0 end,
    }
    assert.has_error(function() dlpack.from_dlpack(eager, { copy = false }) end,
      "__dlpack made a copy although copy = false was asked")
  end)

  it("raises for objects without the protocol and for bad results", function()
    assert.has_error(function() dlpack.from_dlpack({}) end)
    assert.has_error(function() dlpack.from_dlpack(42) end)
    local bad = { __dlpack = function() return 1 end, __dlpack_device = function() return 1, 0 end }
    assert.has_error(function() dlpack.from_dlpack(bad) end,
      "__dlpack returned number, not a DLPack capsule")
    assert.has_error(function() dlpack.from_dlpack(lt.zeros(1), { device = "cuda" }) end)
  end)

  it("asks __dlpack_device first, and refuses an object without it", function()
    local data, calls = lt.arange(3), {}
    local producer = {
      __dlpack = function(_, opts)
        calls[#calls + 1] = "__dlpack"
        return data:__dlpack(opts)
      end,
      __dlpack_device = function()
        calls[#calls + 1] = "__dlpack_device"
        return 1, 0
      end,
    }
    assert.same({ 0, 1, 2 }, dlpack.from_dlpack(producer):tolist())
    assert.same({ "__dlpack_device", "__dlpack" }, calls)
    local half = { __dlpack = function() return data:__dlpack() end }
    assert.has_error(function() dlpack.from_dlpack(half) end,
      "the table has __dlpack but no __dlpack_device (DLPack needs both)")
    local odd = { __dlpack = half.__dlpack, __dlpack_device = function() return "cpu" end }
    assert.has_error(function() dlpack.from_dlpack(odd) end,
      "__dlpack_device must return two integers (device type and id), got string and nil")
  end)

  it("refuses a move to cpu with copy = false before anything is exported", function()
    local exported = false
    local on_cuda = {
      __dlpack = function() exported = true end,
      __dlpack_device = function() return 2, 0 end, -- kDLCUDA
    }
    raises("^tensor is on cuda:0: moving it to cpu needs a copy, and copy = false was asked$",
      dlpack.from_dlpack, on_cuda, { device = "cpu", copy = false })
    assert.is_false(exported)
  end)

  it("works held in a local, in a coroutine, and called from C (lt.tensor of a capsule)", function()
    -- the functions keep their state's bookkeeping in an upvalue filled on first use
    local src = lt.tensor({ 1, 2, 3 })
    local from, export = dlpack.from_dlpack, src.__dlpack -- as a script may hold them
    local co = coroutine.wrap(function(x)
      local u = from(export(x, { max_version = { 1, 3 } }))
      coroutine.yield(u)
      return from(export(x))
    end)
    local u = co(src)
    assert.equal(src:data_ptr(), u:data_ptr())
    local w = co()
    w[2] = 20
    assert.equal(20, src[2])
    -- lt.tensor of a capsule goes through from_dlpack from C
    local copy = lt.tensor(export(src, { max_version = { 1, 3 } }))
    assert.are_not.equal(src:data_ptr(), copy:data_ptr())
    assert.same({ 1, 20, 3 }, copy:tolist())
  end)

  it("is also lt.from_dlpack", function()
    assert.equal(dlpack.from_dlpack, lt.from_dlpack)
  end)
end)

describe("__dlpack's copy and read_only", function()
  local function read_only_tensor()
    local t = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.arange(4)))
    assert.is_true(t:is_read_only())
    return t
  end

  it("exports a copy of a read-only tensor writable, as NumPy does", function()
    local ro = read_only_tensor()
    local c = dlpack.from_dlpack(ro:__dlpack({ max_version = { 1, 3 }, copy = true }))
    assert.is_false(c:is_read_only())
    c[1] = 9
    assert.same({ 9, 1, 2, 3 }, c:tolist())
    assert.same({ 0, 1, 2, 3 }, ro:tolist())
    -- a copy can even go out as a legacy capsule, which has no READ_ONLY flag to lose
    local l = dlpack.from_dlpack(ro:__dlpack({ copy = true }))
    assert.is_false(l:is_read_only())
    -- unless read_only asks for it
    local r = dlpack.from_dlpack(ro:__dlpack({ max_version = { 1, 3 }, copy = true, read_only = true }))
    assert.is_true(r:is_read_only())
  end)

  it("still refuses to share a read-only tensor through a legacy capsule", function()
    assert.has_error(function() read_only_tensor():__dlpack() end)
  end)

  it("makes a versioned READ_ONLY export when read_only = true", function()
    local t = lt.arange(3)
    local c = t:__dlpack({ max_version = { 1, 3 }, read_only = true })
    assert.equal("dltensor_versioned", capsule_kind(c))
    local v = dlpack.from_dlpack(c)
    assert.is_true(v:is_read_only())
    assert.has_error(function() v[1] = 5 end)
    t[1] = 5 -- still the same memory
    assert.equal(5, v[1])
    assert.is_false(t:is_read_only())
  end)

  it("raises for read_only = true with a legacy request, and for a non-boolean", function()
    assert.has_error(function() lt.arange(3):__dlpack({ read_only = true }) end)
    assert.has_error(function() lt.arange(3):__dlpack({ max_version = { 0, 8 }, read_only = true }) end)
    assert.has_error(function() lt.arange(3):__dlpack({ max_version = { 1, 3 }, read_only = 1 }) end,
      "read_only must be a boolean or nil, got number")
  end)
end)

describe("lt.tensor of DLPack values", function()
  it("copies an object with __dlpack, as torch.tensor does", function()
    local data = lt.arange(4)
    local producer = {
      __dlpack = function(_, opts) return data:__dlpack(opts) end,
      __dlpack_device = function() return 1, 0 end,
    }
    local t = lt.tensor(producer)
    assert.same({ 0, 1, 2, 3 }, t:tolist())
    assert.equal("int64", t.dtype)
    t[1] = 100
    assert.equal(0, data[1])
    assert.equal("float64", lt.tensor(producer, "float64").dtype)
    local w = lt.tensor(dlpack.ReadOnlyTensorWrapper(data))
    assert.is_false(w:is_read_only())
    assert.same({ 0, 1, 2, 3 }, w:tolist())
  end)

  it("copies a capsule, consuming it", function()
    local data = lt.arange(3)
    local c = dlpack.to_dlpack(data)
    local t = lt.tensor(c, "int32")
    assert.equal("int32", t.dtype)
    assert.same({ 0, 1, 2 }, t:tolist())
    t[1] = 7
    assert.equal(0, data[1])
    assert.equal("used_dltensor", capsule_kind(c))
    assert.has_error(function() lt.tensor(c) end)
  end)

  it("raises for a table that is not a nested sequence", function()
    assert.has_error(function() lt.tensor({ a = 1 }) end,
      "expected a sequence at dim 1, got a table with key a")
    assert.has_error(function() lt.tensor({ 1, 2, x = 3 }) end,
      "expected a sequence at dim 1, got a table with key x")
    assert.has_error(function() lt.tensor({ { 1, 2 }, { 3, 4, y = 0 } }) end,
      "expected a sequence at dim 2, got a table with key y")
    local holes = { 1, 2 }
    holes[4] = 4
    assert.has_error(function() lt.tensor(holes) end)
    assert.same({}, lt.tensor({}):tolist())
    local hashed = {}
    hashed[2], hashed[1] = 20, 10 -- a sequence whose keys sit in the hash part
    assert.same({ 10, 20 }, lt.tensor(hashed):tolist())
  end)
end)

describe("to_dlpack", function()
  it("makes a legacy capsule of a tensor and nothing else", function()
    assert.equal("dltensor", capsule_kind(dlpack.to_dlpack(lt.zeros(2))))
    assert.has_error(function() dlpack.to_dlpack({}) end)
  end)

  it("exports empty and 0-d tensors", function()
    assert.same({ 0, 3 }, dlpack.from_dlpack(dlpack.to_dlpack(lt.zeros(0, 3))).shape)
    assert.equal(5, dlpack.from_dlpack(dlpack.to_dlpack(lt.tensor(5))):item())
  end)
end)

describe("DLDeviceType", function()
  it("has DLPack's device codes", function()
    assert.equal(1, dlpack.DLDeviceType.kDLCPU)
    assert.equal(2, dlpack.DLDeviceType.kDLCUDA)
    assert.equal(18, dlpack.DLDeviceType.kDLTrn)
  end)
end)
