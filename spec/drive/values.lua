-- spec/drive/values.lua -- the values of the seeded random driver (spec/drive/driver.lua): its
-- pseudo-random generator, the pool of live values that calls draw from and add to, the
-- hostile values, the tensors it makes (random dtype and shape, then views, clones, read-only
-- and imported tensors, mapped and opaque file tensors), the description of any value as
-- the trace prints it, and the probe that the state still works (also matrix_spec.lua's).
-- Argument lists built from the LuaLS definitions are drive/args.lua's. Loaded by the driver
-- and matrix_spec.lua; every decision comes from the seed (no pairs() order, no
-- addresses), so a seed replays the same calls.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local core = require "ltensor.core"

local M = {}

-- Makes, writes and reads back a small tensor; raises when it reads back wrong (the state
-- after a call must still work).
function M.tensor_works()
  local t = lt.zeros(2, 3, "int32")
  t[{ 2, 3 }] = 7
  t[1] = 1
  assert(t:get(2, 3) == 7 and t[1][2] == 1, "tensor reads back wrong")
end

-- {====== the pseudo-random generator (SplitMix64 over Lua's wrapping integers) ======

local Rng = {}
Rng.__index = Rng

function M.rng(seed)
  return setmetatable({ s = seed * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019 }, Rng)
end

function Rng:next()
  self.s = self.s + 0x9E3779B97F4A7C15
  local z = self.s
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end

-- int(n): 1..n; int(a, b): a..b (small ranges only)
function Rng:int(a, b)
  if not b then a, b = 1, a end
  return a + (self:next() >> 1) % (b - a + 1)
end

function Rng:float() return (self:next() >> 11) * 2.0 ^ -53 end
function Rng:chance(p) return self:float() < p end
function Rng:pick(list) return list[self:int(#list)] end

-- }======

-- {====== kinds of values and their descriptions ======

local numel_m = core._methods.numel

function M.kind(v)
  if lt.is_tensor(v) then return "tensor" end
  if type(v) ~= "userdata" then return type(v) end
  local mt = debug.getmetatable(v)
  local name = mt and rawget(mt, "__name")
  if name == "dltensor" or name == "dltensor_versioned" or name == "used_dltensor"
    or name == "used_dltensor_versioned" then
    return "capsule"
  elseif name == "ltensor.ReadOnlyTensorWrapper" then
    return "wrapper"
  elseif name == "ltensor.Generator" then
    return "generator"
  end
  return "userdata"
end

-- What the driver knows of a tensor it may use: nil when released; shape, dtype, numel, span.
function M.info(t)
  if not lt.is_tensor(t) then return nil end
  local ok, shape, dtype = pcall(function() return t.shape, t.dtype end)
  if not ok then return nil end
  local n, span = 1, 1
  for _, s in ipairs(shape) do
    n = n * s -- may pass 2^63: only compared
    span = span * math.max(s, 1) * 1.0
  end
  local okn, numel = pcall(numel_m, t)
  -- span: what walking every dim costs (tolist of a {2^31, 0} tensor makes 2^31 tables)
  return { shape = shape, dtype = dtype, ndim = #shape, numel = okn and numel or n, span = span }
end

local names = setmetatable({}, { __mode = "k" }) -- value -> its id or a short name

function M.name(v, s) names[v] = s return v end

local function num(v)
  if v ~= v then return "0/0" end
  if v == math.huge then return "math.huge" end
  if v == -math.huge then return "-math.huge" end
  if math.type(v) == "integer" then
    if v == math.maxinteger then return "math.maxinteger" end
    if v == math.mininteger then return "math.mininteger" end
    return tostring(v)
  end
  return ("%.17g"):format(v)
end

-- The description of v in the trace: a pool id, a literal, or a short summary.
function M.describe(v, depth)
  depth = depth or 0
  local t = type(v)
  if t == "number" then return num(v) end
  if t == "string" then
    return #v <= 40 and ("%q"):format(v) or ("string(%d bytes)"):format(#v)
  end
  if t == "nil" or t == "boolean" then return tostring(v) end
  if names[v] then return names[v] end
  if t == "table" then
    if depth >= 2 then return "{...}" end
    local parts, n = {}, 0
    for i = 1, math.min(#v, 8) do
      parts[#parts + 1] = M.describe(v[i], depth + 1)
      n = i
    end
    if #v > n then parts[#parts + 1] = ("...(%d)"):format(#v) end
    local keys = {}
    for k in next, v do
      if type(k) ~= "number" or k < 1 or k > #v or math.type(k) ~= "integer" then
        keys[#keys + 1] = k
      end
    end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for i = 1, math.min(#keys, 8) do
      local k = keys[i]
      local ks = type(k) == "string" and k:match("^[%a_][%w_]*$") and k
        or "[" .. M.describe(k, depth + 1) .. "]"
      parts[#parts + 1] = ks .. " = " .. M.describe(v[k], depth + 1)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return t
end

-- }======

-- {====== the pool of live values ======

local Pool = {}
Pool.__index = Pool
local PREFIX = { tensor = "T", capsule = "C", wrapper = "W", generator = "G" }

function M.pool(rng, max)
  return setmetatable({ rng = rng, list = {}, n = 0, max = max or 48 }, Pool)
end

-- Adds v (a tensor, capsule, wrapper or generator) and names it; a full pool drops a random
-- entry (the collector takes it when nothing else holds it).
function Pool:add(v, note)
  local kind = M.kind(v)
  if not PREFIX[kind] or names[v] then return v end
  self.n = self.n + 1
  names[v] = PREFIX[kind] .. self.n
  local e = { v = v, kind = kind, id = names[v], note = note }
  if #self.list >= self.max then
    local i = self.rng:int(#self.list)
    self.list[i] = self.list[#self.list]
    self.list[#self.list] = nil
  end
  self.list[#self.list + 1] = e
  return v
end

-- A random value of the kind ("tensor", "capsule", "wrapper", "generator") or of any kind;
-- live = true: a tensor that is not released, and if given, whose info passes the filter.
function Pool:pick(kind, live, filter)
  local cands = {}
  for _, e in ipairs(self.list) do
    local info = live and M.info(e.v)
    if (not kind or e.kind == kind) and (not live or info and (not filter or filter(info))) then
      cands[#cands + 1] = e
    end
  end
  if #cands == 0 then return nil end
  return self.rng:pick(cands).v
end

-- Drops n random entries.
function Pool:drop(n)
  for _ = 1, math.min(n, #self.list) do
    local i = self.rng:int(#self.list)
    self.list[i] = self.list[#self.list]
    self.list[#self.list] = nil
  end
end

function Pool:clear() self.list = {} end

-- }======

-- {====== hostile values ======

local function close(t)
  local _ <close> = t
end
M.close = close

local function released()
  local t <close> = lt.arange(3)
  return t
end

local function capsule(versioned)
  return lt.arange(2):__dlpack(versioned and { max_version = { 1, 3 } } or nil)
end

local function consumed()
  local c = capsule(false)
  dlpack.from_dlpack(c)
  return c
end

-- A table whose reads run code: what a hostile options table or tensor list does while ltensor
-- reads it. ctx: the driver's context (its pool).
local function trap(ctx, what)
  local function act()
    if what == "error" then error("driver trap raised", 0) end
    if what == "close" then
      local t = ctx.pool:pick("tensor")
      if t then close(t) end
    elseif what == "collect" then
      collectgarbage()
    end
  end
  return M.name(setmetatable({}, {
    __index = function(_, k)
      act()
      if type(k) == "number" and k <= 2 then return ctx.pool:pick("tensor") end
      return nil
    end,
    __len = function() act() return 2 end,
  }), "trap:" .. what)
end

local function deep(n)
  local t = {}
  local cur = t
  for _ = 1, n do
    cur[1] = {}
    cur = cur[1]
  end
  cur[1] = 1
  return M.name(t, ("deep(%d)"):format(n))
end

local function selfref()
  local s = {}
  s[1], s[2], s.dtype, s.x = s, s, s, s
  return M.name(s, "selfref")
end

-- Hostile numbers: sizes, dims and positions a script must not crash ltensor with.
M.NUMBERS = { 0 / 0, math.huge, -math.huge, math.maxinteger, math.mininteger, -1, 0, 2 ^ 53,
  1.5, -0.0, 2 ^ 31, 2 ^ 32, 2 ^ 31 - 1, 2 ^ 62, 2 ^ 63, -2 ^ 63, 1 << 40, -(1 << 40), 65,
  1e308, 5e-324 }

-- The hostile values, as makers of fresh ones (a call may consume a capsule or fill a table).
local HOSTILE = {
  function() return nil end,
  function() return true end,
  function() return false end,
  function() return "" end,
  function() return "x" end,
  function(ctx) return ctx.rng:pick(M.NUMBERS) end,
  function(ctx) return ctx.rng:pick(M.NUMBERS) end,
  function() return {} end,
  function() return { {} } end,
  function() return { 1, { 2 } } end,
  function() return { 1, 2, x = 3, [1.5] = 4 } end,
  function() return { [1] = 1, [1 << 40] = 2 } end,
  selfref,
  function(ctx) return deep(ctx.rng:pick({ 70, 300, 5000 })) end,
  function()
    local t = {}
    for i = 1, 65 do t[i] = 1 end
    return M.name(t, "ones(65)")
  end,
  function() return M.name(string.rep("x", 70000), "rep('x', 70000)") end,
  function() return M.name(io.stdout, "io.stdout") end,
  function() return M.name(coroutine.create(function() end), "coroutine") end,
  function() return M.name(function() end, "function") end,
  function() return M.name(released(), "released") end,
  function() return M.name(capsule(false), "capsule") end,
  function() return M.name(capsule(true), "capsule_versioned") end,
  function() return M.name(consumed(), "consumed_capsule") end,
  function() return M.name(dlpack.ReadOnlyTensorWrapper(lt.arange(3)), "wrapper(arange(3))") end,
  function() return M.name(lt.Generator(7), "Generator(7)") end,
  function() return lt.zeros(1).__dlpack_c_exchange_api end,
  function(ctx) return trap(ctx, "error") end,
  function(ctx) return trap(ctx, "close") end,
  function(ctx) return trap(ctx, "collect") end,
  function(ctx) return ctx.pool:pick() end, -- any pool value, of any kind
  function(ctx) return ctx.pool:pick("tensor") end,
}

function M.hostile(ctx)
  return ctx.rng:pick(HOSTILE)(ctx)
end

M.trap = trap

-- }======

-- {====== tensors ======

M.DTYPES = { "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
  "float16", "bfloat16", "float32", "float64", "complex64", "complex128" }
M.ALIASES = { "float", "double", "half", "long", "int", "short", "cfloat", "cdouble" }

-- A random shape: mostly small, 0-d and empty included, sometimes one long dim (the others
-- then at most 2: a million elements at most, so tables and strings of it stay small).
function M.shape(rng)
  local nd = rng:pick({ 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5 })
  local s = {}
  for i = 1, nd do s[i] = rng:pick({ 1, 1, 2, 2, 3, 3, 4, 5, 0, 7 }) end
  if nd > 0 and rng:chance(0.04) then
    for i = 1, nd do s[i] = math.min(s[i], 2) end
    s[rng:int(nd)] = rng:pick({ 1000, 70000 })
  end
  return s
end

function M.scalar(rng, dtype)
  local r = rng:int(10)
  if dtype and dtype:find("complex") and r <= 5 then return { rng:int(-3, 3), rng:float() } end
  if r <= 3 then return rng:int(-4, 9) end
  if r <= 6 then return rng:float() * 8 - 4 end
  if r <= 8 then return rng:chance(0.5) end
  return rng:pick(M.NUMBERS)
end

-- Nested tables of small integers in the given shape (at most 6 per dim).
local function nested(rng, shape, dim)
  if not dim then
    local s = {}
    for i, n in ipairs(shape) do s[i] = math.min(n, 6) end
    shape, dim = s, 1
  end
  if dim > #shape then return rng:int(-3, 9) end
  local t = {}
  for i = 1, shape[dim] do t[i] = nested(rng, shape, dim + 1) end
  return t
end
M.nested = nested

-- A new base tensor: a constructor of a random dtype and shape. Returns nil when it raised.
local function base(ctx)
  local rng = ctx.rng
  local dtype, shape = rng:pick(M.DTYPES), M.shape(rng)
  local c = rng:int(9)
  if c == 1 then return ctx.call("lt.zeros", lt.zeros, { shape, dtype, n = 2 }) end
  if c == 2 then
    return ctx.call("lt.full", lt.full, { shape, M.scalar(rng, dtype), dtype, n = 3 })
  end
  if c == 3 then
    return ctx.call("lt.rand", lt.rand, { shape, { dtype = rng:pick({ "float32", "float64",
      "float16", "bfloat16", "complex64" }) }, n = 2 })
  end
  if c == 4 then
    return ctx.call("lt.randint", lt.randint, { -5, 10, shape, { dtype = dtype }, n = 4 })
  end
  if c == 5 and #shape <= 3 then
    return ctx.call("lt.tensor", lt.tensor, { nested(rng, shape), dtype, n = 2 })
  end
  if c == 6 then
    local n = 1
    for _, s in ipairs(shape) do n = n * s end
    local bytes = {}
    for i = 1, math.min(n, 64) * 16 do bytes[i] = string.char(rng:int(0, 255)) end
    local str = table.concat(bytes):rep(n > 64 and (n + 63) // 64 or 1)
    local tpl = lt.tensor(0, dtype)
    local need = n * tpl:element_size()
    return ctx.call("lt.from_bytes", lt.from_bytes,
      { M.name(str:sub(1, need), ("bytes(%d)"):format(need)), dtype, shape, n = 3 })
  end
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  local a = ctx.call("lt.arange", lt.arange, { n, dtype, n = 2 })
  if not a then return nil end
  return ctx.call("t:reshape", core._methods.reshape, { a, shape, n = 2 })
end

-- Saves t (and other tensors) to the driver's temporary directory and loads them back, read
-- or mapped.
local function through_file(ctx, t, info)
  local rng = ctx.rng
  ctx.files = ctx.files + 1
  if rng:chance(0.5) then
    local path = ("%s/f%d.npy"):format(ctx.tmp, ctx.files)
    if not ctx.call("lt.save", lt.save, { path, t, n = 2 }, true) then return nil end
    return ctx.call("lt.load", lt.load, { path, { mmap = rng:chance(0.7) }, n = 2 })
  end
  local path = ("%s/f%d.safetensors"):format(ctx.tmp, ctx.files)
  if rng:chance(0.3) then -- an opaque (float8) tensor, as only a file or a peer gives one
    local n = info.numel
    local hdr = ('{"a":{"dtype":"%s","shape":[%s],"data_offsets":[0,%d]}}'):format(
      rng:pick({ "F8_E4M3", "F8_E5M2", "F8_E8M0" }), table.concat(info.shape, ","), n)
    hdr = hdr .. string.rep(" ", (8 - #hdr % 8) % 8)
    local f = assert(io.open(path, "wb"))
    f:write(string.pack("<I8", #hdr), hdr, string.rep("\60", n))
    f:close()
  elseif not ctx.call("lt.save", lt.save, { path, { a = t, b = lt.ones(2) }, n = 2 }, true) then
    return nil
  end
  local r = ctx.call("lt.load", lt.load, { path, { mmap = rng:chance(0.7) }, n = 2 })
  return r and r.a
end

-- One random view, copy or import of t: { label, function, arguments }.
local function derive(ctx, t, info)
  local rng, m = ctx.rng, core._methods
  local nd, sh = info.ndim, info.shape
  local d = nd > 0 and rng:int(nd) or 1
  local k = rng:int(22)
  if k == 1 and nd >= 2 then return "t:transpose", m.transpose, { t, d, rng:int(nd) } end
  if k == 2 then
    local p = {}
    for i = 1, nd do p[i] = i end
    for i = nd, 2, -1 do
      local j = rng:int(i)
      p[i], p[j] = p[j], p[i]
    end
    return "t:permute", m.permute, { t, p }
  end
  if k == 3 and nd > 0 then
    local s = rng:int(math.max(sh[d], 1))
    return "t:narrow", m.narrow, { t, d, s, rng:int(0, math.max(sh[d] - s + 1, 0)) }
  end
  if k == 4 and nd > 0 and sh[d] > 0 then return "t:select", m.select, { t, d, rng:int(-sh[d], sh[d]) } end
  if k == 5 then return "t:unsqueeze", m.unsqueeze, { t, rng:int(1, nd + 1) } end
  if k == 6 then
    local s = {}
    for i = 1, nd do
      s[i] = sh[i] == 1 and rng:pick({ 1, 3, 1 << 20, 1 << 31, 1 << 40 }) or sh[i]
    end
    if rng:chance(0.5) then table.insert(s, 1, rng:pick({ 2, 1 << 20, 1 << 31, 1 << 62 })) end
    return "t:expand", m.expand, { t, s }
  end
  if k == 7 then return "t.T", function(x) return x.T end, { t } end
  if k == 8 and nd >= 2 then return "t.mT", function(x) return x.mT end, { t } end
  if k == 9 and nd > 0 and sh[1] > 0 then
    local a = rng:int(sh[1])
    local key = { { a, rng:int(a, sh[1]), rng:int(1, 3) } }
    if rng:chance(0.3) then key = { { sh[1], 1, -rng:int(1, 2) } } end
    return "t[key]", function(x, kk) return x[kk] end, { t, key }
  end
  if k == 10 then return "t:view(dtype)", m.view, { t, rng:pick(M.DTYPES) } end
  if k == 11 and nd >= 2 then return "t:diagonal", m.diagonal, { t, rng:int(-1, 1) } end
  if k == 12 or k == 13 then return "t:clone", m.clone, { t } end
  if k == 14 then
    return "from_dlpack(wrapper(t))", function(x)
      return dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(x))
    end, { t }
  end
  if k == 15 then
    local opts = rng:pick({ { copy = false }, { copy = true }, {} })
    return "dlpack.from_dlpack", dlpack.from_dlpack, { t, opts }
  end
  if k == 16 then
    local o = rng:chance(0.5) and { max_version = { 1, rng:int(0, 3) } } or nil
    return "from_dlpack(t:__dlpack(opts))", function(x, opts)
      return dlpack.from_dlpack(x:__dlpack(opts))
    end, { t, o }
  end
  if k == 17 then return "t:unbind[1]", function(x, dd) return x:unbind(dd)[1] end, { t, d } end
  if k == 18 and nd > 0 then return "t:flip", m.flip, { t, d } end
  if k == 19 and info.numel <= 70000 then
    return "through a file", function(x) return through_file(ctx, x, info) end, { t }
  end
  if k == 20 and nd == 2 then return "t:t", m.t, { t } end
  if k == 21 and nd > 0 then return "t:squeeze", m.squeeze, { t, d } end
  return "t:contiguous", m.contiguous, { t }
end

-- A new tensor for the pool: a base, then up to three derivations; intermediate tensors join
-- the pool too (so bases and views of one block are alive together).
function M.tensor(ctx)
  local t = base(ctx)
  if not t then return nil end
  ctx.pool:add(t, "base")
  for _ = 1, ctx.rng:int(0, 3) do
    local info = M.info(t)
    if not info then break end
    local label, fn, args = derive(ctx, t, info)
    args.n = #args
    local r = ctx.call(label, fn, args)
    if not lt.is_tensor(r) then break end
    t = r
    ctx.pool:add(t, label)
  end
  return t
end

-- }======

return M
