-- The LuaLS definitions (lua/ltensor/meta) against the live module: every function and
-- constant of `ltensor`, every method, property and metamethod of a tensor, every name of
-- `ltensor.dlpack`, `lt.linalg`, `lt.nn.functional` and ReadOnlyTensorWrapper is documented, and nothing
-- documented is gone.
-- A failure lists every name, so a new function is added by copying a block of its group.
local lt = require "ltensor"
local core = require "ltensor.core"
local dlpack = require "ltensor.dlpack"
local apidefs = dofile("tools/apidefs.lua")

local defs = apidefs.read(".")

-- Names of the live table `live` (filtered by keep) against the documented set `doc`: the
-- missing ones and the stale ones, each sorted.
local function drift(live, doc, keep)
  local missing, stale = {}, {}
  for k, v in pairs(live) do
    if type(k) == "string" and (not keep or keep(k, v)) and not doc[k] then
      missing[#missing + 1] = k
    end
  end
  for k in pairs(doc) do
    if live[k] == nil or (keep and not keep(k, live[k])) then stale[#stale + 1] = k end
  end
  table.sort(missing)
  table.sort(stale)
  return missing, stale
end

local function assert_same(what, file, live, doc, keep)
  local missing, stale = drift(live, doc, keep)
  local msg = {}
  if #missing > 0 then
    msg[#msg + 1] = ("%d of %s missing from the definitions (add a block to %s, copying one " ..
      "of its group): %s"):format(#missing, what, file, table.concat(missing, ", "))
  end
  if #stale > 0 then
    msg[#msg + 1] = ("%d of %s documented but no longer there: %s"):format(#stale, what,
      table.concat(stale, ", "))
  end
  assert(#msg == 0, table.concat(msg, "\n"))
end

local function set_of(list, key)
  local s = {}
  for _, x in ipairs(list) do s[x[key]] = true end
  return s
end

local function functions(class, sep) return set_of(apidefs.functions_of(defs, class, sep), "name") end
local function class(name) return assert(defs.classes[name], "no ---@class " .. name) end

describe("the LuaLS definitions", function()
  it("follow the files' conventions (every block parses, every argument has a ---@param)", function()
    assert.same({}, defs.problems)
  end)

  it("are meta files that name their modules and load as Lua", function()
    assert.equal("ltensor", defs.meta["lua/ltensor/meta/ltensor.lua"])
    assert.equal("ltensor.dlpack", defs.meta["lua/ltensor/meta/ltensor/dlpack.lua"])
    for _, f in ipairs(apidefs.FILES) do assert.truthy(loadfile(f)) end
  end)

  it("document every function and constant of require 'ltensor'", function()
    local doc = functions("ltensor", ".")
    for name in pairs(set_of(class("ltensor").fields, "name")) do doc[name] = true end
    assert_same("the module's names", "lua/ltensor/meta/ltensor.lua", lt, doc)
  end)

  it("give each dtype constant its value, and the dtype alias every name", function()
    local values = {}
    for _, a in ipairs(defs.aliases) do
      if a.name == "ltensor.dtype" then
        for _, v in ipairs(a.values) do values[#values + 1] = v.value:match('^"(.*)"$') end
      end
    end
    table.sort(values)
    local names = {} -- the fields typed as a string constant (not _VERSION, default_generator)
    for _, f in ipairs(class("ltensor").fields) do
      if f.type:match('^"') then
        names[#names + 1] = f.name
        assert.equal('"' .. lt[f.name] .. '"', f.type)
      end
    end
    table.sort(names)
    assert.same(names, values)
  end)

  it("document every method of a tensor", function()
    local doc = functions("ltensor.Tensor", ":")
    for _, f in ipairs(class("ltensor.Tensor").fields) do
      if core._methods[f.name] ~= nil then doc[f.name] = true end -- a non-function entry
    end
    assert_same("the tensor methods", "lua/ltensor/meta/ltensor/math.lua (or tensor.lua)",
      core._methods, doc)
  end)

  it("document every property of a tensor as a ---@field", function()
    local doc = {}
    for _, f in ipairs(class("ltensor.Tensor").fields) do
      if f.name:sub(1, 1) ~= "[" and core._methods[f.name] == nil then doc[f.name] = true end
    end
    assert.is_table(core._properties)
    assert_same("the tensor properties", "lua/ltensor/meta/ltensor/tensor.lua",
      core._properties, doc)
  end)

  it("document every metamethod and metafield of a tensor", function()
    local doc = {}
    for _, o in ipairs(class("ltensor.Tensor").operators) do doc["__" .. o.op] = true end
    for _, m in ipairs(class("ltensor.Tensor").metas) do doc[m.name] = true end
    -- __ltensor_copy marks which copy of ltensor made the metatable (lua_init.c): internal
    assert_same("the tensor metatable's names", "lua/ltensor/meta/ltensor/tensor.lua",
      core._metatable, doc, function(k) return k ~= "__ltensor_copy" end)
  end)

  it("document every name of require 'ltensor.dlpack', DLDeviceType's codes included", function()
    local doc = functions("ltensor.dlpack", ".")
    local codes = {}
    for _, e in ipairs(class("ltensor.dlpack").enums) do
      doc[e.name] = true
      for _, v in ipairs(e.values) do codes[v.key] = v.value end
    end
    assert_same("ltensor.dlpack's names", "lua/ltensor/meta/ltensor/dlpack.lua", dlpack, doc)
    assert.same(dlpack.DLDeviceType, codes)
  end)

  it("document every function of lt.linalg, lt.fft and lt.nn.functional", function()
    for class, path in pairs(apidefs.SPACES) do
      local space = apidefs.space(lt, class)
      assert.is_table(space, path)
      local file = class == "ltensor.nn.functional" and "nn.lua" or path .. ".lua"
      assert_same("lt." .. path .. "'s functions", "lua/ltensor/meta/ltensor/" .. file, space,
        functions(class, "."))
    end
    assert.equal(lt.nn.functional, require "ltensor.nn.functional")
    assert.equal(lt.fft, require "ltensor.fft")
  end)

  it("document ReadOnlyTensorWrapper's names, each of which works on a wrapper", function()
    local w = dlpack.ReadOnlyTensorWrapper(lt.arange(3))
    local doc = functions("ltensor.ReadOnlyTensorWrapper", ":")
    for _, f in ipairs(class("ltensor.ReadOnlyTensorWrapper").fields) do doc[f.name] = true end
    local n = 0
    for name in pairs(doc) do
      n = n + 1
      assert.is_not_nil(w[name], name)
    end
    assert.equal(3, n)
    assert.has_error(function() return w.shape end)
  end)

  it("document Generator's methods, each of which works on a generator", function()
    local g = lt.Generator(1)
    local n = 0
    for _, f in ipairs(apidefs.functions_of(defs, "ltensor.Generator", ":")) do
      n = n + 1
      assert.is_function(g[f.name], f.name)
    end
    assert.equal(5, n)
    assert.equal(lt.default_generator, lt.manual_seed(1))
  end)

  it("name the drift in a message that lists each missing and each stale name", function()
    local missing, stale = drift({ a = 1, b = 2, c = 3 }, { a = true, z = true })
    assert.same({ "b", "c" }, missing)
    assert.same({ "z" }, stale)
    local ok, err = pcall(assert_same, "x", "f.lua", { a = 1, b = 2 }, { a = true, z = true })
    assert.is_false(ok)
    assert.matches("1 of x missing from the definitions %(add a block to f.lua", err)
    assert.matches(": b\n", err)
    assert.matches("documented but no longer there: z", err)
  end)
end)
