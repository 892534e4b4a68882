-- spec/drive/args.lua -- the argument lists of the seeded random driver (spec/drive/driver.lua),
-- built from the LuaLS definitions (lua/ltensor/meta, read by tools/apidefs.lua): each
-- parameter's type gives a plausible value (a dim of the receiver, an index tensor within its
-- sizes, a mask of its shape, an options table of the fields its class declares), one in
-- HOSTILE_P is replaced by a hostile value (drive/values.lua), optional parameters are left out
-- at random and an extra argument is sometimes added. Functions the definitions lack get
-- generic arguments. Values come from drive/values.lua's pool and generator only.
local lt = require "ltensor"
local V = require "drive.values"

local M = {}

M.HOSTILE_P = 0.08 -- an argument, a field or an entry replaced by a hostile value
local OMIT_P = 0.35 -- an optional parameter left out
local EXTRA_P = 0.03 -- one argument too many

-- Splits a LuaLS type at its top-level "|".
local function alternatives(ty)
  local out, depth, cur = {}, 0, {}
  for ch in ty:gmatch(".") do
    if ch == "{" or ch == "(" or ch == "<" then depth = depth + 1 end
    if ch == "}" or ch == ")" or ch == ">" then depth = depth - 1 end
    if ch == "|" and depth == 0 then
      out[#out + 1] = table.concat(cur)
      cur = {}
    else
      cur[#cur + 1] = ch
    end
  end
  out[#out + 1] = table.concat(cur)
  return out
end

-- The fields of an inline table type "{a:number,b:string}": list of {name, type}.
local function inline_fields(ty)
  local body, fields, depth, cur = ty:sub(2, -2), {}, 0, {}
  for ch in (body .. ","):gmatch(".") do
    if ch == "{" or ch == "(" then depth = depth + 1 end
    if ch == "}" or ch == ")" then depth = depth - 1 end
    if ch == "," and depth == 0 then
      local s = table.concat(cur)
      local n, t = s:match("^([%w_]+):(.*)$")
      if n then fields[#fields + 1] = { name = n, type = t } end
      cur = {}
    else
      cur[#cur + 1] = ch
    end
  end
  return fields
end

-- {====== plausible values by name and type ======

local DIMS = { dim = true, dim0 = true, dim1 = true, dim2 = true, start_dim = true, end_dim = true }
local COUNTS = { n = true, steps = true, bins = true, minlength = true, chunks = true,
  split_size = true, k = true, m = true, correction = true }
local WORDS = { "sum", "mean", "prod", "amax", "amin", "add", "multiply", "floor", "trunc",
  "tanh", "none", "left", "right", "xy", "ij", "fro", "nuc", "cpu", "cuda", "x", "",
  "float32", "int64" }
local EQUATIONS = { "ij,jk->ik", "ii->i", "i,i->", "ij->ji", "...ij->...ji", "bij,bjk->bik",
  "i,j->ij", "ii", "ij", "", "->", "i->", "a,b,c->abc", "ijk", "i,i,i->i", "aa,bb->ab" }

local function size_of(S, d)
  if not S or S.ndim == 0 then return 1 end
  d = (d and d >= 1 and d <= S.ndim) and d or (d and d < 0 and d >= -S.ndim and S.ndim + 1 + d)
    or 1
  return S.shape[d]
end

local function int(ctx, st, name)
  local rng, S = ctx.rng, st.S
  if rng:chance(0.05) then return rng:pick(V.NUMBERS) end
  if DIMS[name] then
    local nd = S and S.ndim or 2
    local d = rng:chance(0.85) and (nd > 0 and rng:int(-nd, nd) or rng:pick({ 1, -1 }))
      or rng:int(-nd - 2, nd + 2)
    if d == 0 then d = 1 end
    st.dim = d
    return d
  end
  local n = size_of(S, st.dim)
  if name == "start" then return rng:int(-n, n + 1) end
  if name == "length" then return rng:int(0, n + 1) end
  if name == "index" then return rng:int(-n - 1, n + 1) end
  if COUNTS[name] then
    if rng:chance(0.05) then return rng:pick({ 1000, 1 << 20, 1 << 31, 1 << 40 }) end
    return rng:int(0, math.max(n, 3) + 1)
  end
  if name == "seed" then return rng:int(-5, 1000000) end
  return rng:int(-3, 6)
end

local function number(ctx)
  local rng = ctx.rng
  local r = rng:int(10)
  if r <= 4 then return rng:float() * 6 - 3 end
  if r <= 8 then return rng:int(-3, 5) end
  return rng:pick(V.NUMBERS)
end

local function dtype(ctx)
  if ctx.rng:chance(0.85) then return ctx.rng:pick(V.DTYPES) end
  return ctx.rng:pick(V.ALIASES)
end

local function string_for(ctx, name)
  local rng = ctx.rng
  if name == "path" then
    local ext = rng:pick({ ".npy", ".npy", ".npz", ".safetensors", ".safetensors", ".bin", "",
      ".png", ".jpg" })
    if rng:chance(0.05) then return rng:pick({ "", "/nonexistent/dir/x.npy", ctx.tmp }) end
    return ("%s/p%d%s"):format(ctx.tmp, rng:int(6), ext)
  end
  if name == "equation" then return rng:pick(EQUATIONS) end -- (einsum's operands follow it)
  if name == "state" then
    local g = ctx.pool:pick("generator")
    local ok, s = pcall(function() return g:get_state() end)
    if ok and type(s) == "string" then
      if rng:chance(0.5) then return s end
      local i = rng:int(#s)
      return s:sub(1, i - 1) .. string.char(rng:int(0, 255)) .. s:sub(i + 1, rng:int(#s))
    end
  end
  if name == "bytes" then
    local n = rng:int(0, 40)
    local b = {}
    for i = 1, n do b[i] = string.char(rng:int(0, 255)) end
    return table.concat(b)
  end
  return rng:pick(WORDS)
end

-- A tensor of the given shape and dtype with small values (made by a traced call).
local function made(ctx, label, shape, dt)
  if dt:find("float") or dt:find("complex") then
    return ctx.call(label, lt.rand, { shape, { dtype = dt }, n = 2 })
  end
  return ctx.call(label, lt.randint, { 0, 3, shape, { dtype = dt }, n = 4 })
end

-- An index tensor for the receiver S along st.dim: 1-d for index_* and take, S's number of
-- dims for gather and scatter, values mostly within the dim's size (1-based), int64 mostly.
local function index_for(ctx, st, S)
  local rng = ctx.rng
  local n = st.dim and size_of(S, st.dim) or S.numel
  if type(n) ~= "number" or n > 1 << 40 then n = 3 end
  local shape
  if st.fname:find("^index_") or st.fname == "take" or st.fname == "index_select" then
    shape = { rng:int(0, 4) }
  else
    shape = {}
    for i = 1, S.ndim do shape[i] = rng:int(math.min(S.shape[i], 1), S.shape[i]) end
  end
  st.index_shape = shape
  local low = rng:chance(0.8) and 1 or -n
  local dt = rng:chance(0.85) and "int64" or rng:pick({ "int32", "float32", "uint8", "bool" })
  return ctx.call("lt.randint(index)", lt.randint, { low, math.max(n, low) + 1, shape,
    { dtype = dt }, n = 4 })
end

-- A tensor for a tensor parameter: an index within the receiver's sizes, a mask of its shape,
-- a source of the index's shape, a matrix product's partner, one of the receiver's shape and
-- (mostly) dtype, or a pool tensor.
local function tensor_for(ctx, st, name)
  local rng, S = ctx.rng, st.S
  if not S or rng:chance(0.3) then
    return ctx.pool:pick("tensor", rng:chance(0.9)) or ctx.pool:pick("tensor")
  end
  if name == "index" then return index_for(ctx, st, S) end
  if name == "mask" then
    local m = ctx.call("lt.rand(mask)", lt.rand, { S.shape, n = 1 })
    return m and ctx.call("t:gt", m.gt, { m, 0.5, n = 2 })
  end
  local shape = S.shape
  if name == "src" and st.index_shape then
    if st.fname:find("^index_") then -- S's shape, the indexed dim as long as the index
      shape = { table.unpack(S.shape) }
      local d = st.dim and (st.dim < 0 and S.ndim + 1 + st.dim or st.dim) or 1
      if shape[d] then shape[d] = st.index_shape[1] end
    else
      shape = st.index_shape
    end
  elseif name == "mat2" or name == "vec" or name == "mat1" or st.matmul then
    local last = S.ndim > 0 and S.shape[S.ndim] or 1
    shape = name == "vec" and { last } or { last, rng:int(0, 3) }
    if name == "mat2" and S.ndim == 3 then shape = { S.shape[1], last, 2 } end
    if st.fname == "dot" then shape = { last } end
    if st.fname:find("^addmm") and S.ndim == 2 then -- input (n x m) = mat1 (n x k) mat2 (k x m)
      st.k = st.k or rng:int(0, 3)
      shape = name == "mat1" and { S.shape[1], st.k } or { st.k, S.shape[2] }
    end
  end
  if shape[1] and shape[1] > 1000 then shape = { 2 } end
  local dt = rng:chance(0.7) and S.dtype or rng:pick({ "float32", "float64", "complex64" })
  if not lt[dt] then dt = "float32" end -- an opaque receiver
  return made(ctx, "lt.rand(like)", shape, dt) or ctx.pool:pick("tensor", true)
end

local function callback(ctx)
  local rng, pool = ctx.rng, ctx.pool
  local k = rng:int(11)
  local left = 3 -- the costly ones act on their first three elements only
  local fns = {
    function(x) return x end,
    function() return nil end,
    function() return {} end,
    function() return "x" end,
    function() error("driver callback raised", 0) end,
    function() error({}) end,
    function(x)
      left = left - 1
      local t = left >= 0 and pool:pick("tensor")
      if t then V.close(t) end
      return x
    end,
    function(x)
      left = left - 1
      if left >= 0 then collectgarbage() end
      return x
    end,
    function(x)
      left = left - 1
      local t = left >= 0 and pool:pick("tensor", true)
      if t then pcall(t.fill_, t, 1) end
      return x
    end,
    function(x) return x * 2 end,
    function(x) return coroutine.yield(x) end, -- across ltensor's C call, or outside any
  }
  local names = { "identity", "nil", "table", "string", "raises", "raises_table", "closes",
    "collects", "writes", "doubles", "yields" }
  if k == 6 then ctx.table_error = true end
  return V.name(fns[k], "fn:" .. names[k])
end

-- A DLPack protocol object: __dlpack and __dlpack_device as functions, some of them hostile.
local function protocol(ctx)
  local rng, pool = ctx.rng, ctx.pool
  local src = pool:pick("tensor") or lt.arange(3)
  local kind = rng:int(8)
  local obj = {
    __dlpack = function(_, opts)
      if kind == 1 then return V.hostile(ctx) end
      if kind == 2 then V.close(src) end
      if kind == 3 then
        local c = src:__dlpack(opts)
        lt.from_dlpack(c)
        return c -- consumed
      end
      if kind == 4 then return src:__dlpack(nil) end -- legacy, whatever was asked
      return src:__dlpack(opts)
    end,
    __dlpack_device = function()
      if kind == 5 then return 2, 0 end
      if kind == 6 then return end
      return 1, 0
    end,
  }
  return V.name(obj, "protocol" .. kind .. "(" .. V.describe(src) .. ")")
end

local gen -- gen(ctx, st, ty, name): a value of type ty

local function options(ctx, st, fields)
  local rng, o = ctx.rng, {}
  for _, f in ipairs(fields) do
    if rng:chance(0.6) then
      o[f.name] = rng:chance(M.HOSTILE_P) and V.hostile(ctx) or gen(ctx, st, f.type, f.name)
    end
  end
  if rng:chance(0.15) then o[rng:pick({ "junk", "dtype", "generator", "copy" })] = V.hostile(ctx) end
  if rng:chance(0.05) then o[1] = V.hostile(ctx) end
  return o
end

local function class_fields(defs, name)
  local out = {}
  while name and defs.classes[name] do
    local c = defs.classes[name]
    for _, f in ipairs(c.fields) do
      local n = f.name:gsub("%?$", "")
      out[#out + 1] = { name = n, type = f.type }
    end
    name = c.parent
  end
  return out
end

function gen(ctx, st, ty, name)
  local rng = ctx.rng
  local alts = alternatives(ty)
  local a = alts[rng:int(#alts)]
  if a:sub(-2) == "[]" then
    local list = {}
    for i = 1, rng:int(0, 3) do list[i] = gen(ctx, st, a:sub(1, -3), name) end
    return list
  end
  if a:match('^".*"$') then return a:sub(2, -2) end
  if a:sub(1, 1) == "{" then return options(ctx, st, inline_fields(a)) end
  if a:sub(1, 4) == "fun(" then return callback(ctx) end
  if a:sub(1, 6) == "table<" then
    local t = {}
    for _, k in ipairs({ "a", "b", "c" }) do
      if rng:chance(0.6) then
        t[k] = a:find("Tensor") and ctx.pool:pick("tensor", true) or string_for(ctx, "x")
      end
    end
    return t
  end
  if a == "integer" then return int(ctx, st, name) end
  if a == "number" then return number(ctx) end
  if a == "boolean" then return rng:chance(0.5) end
  if a == "false" then return false end
  if a == "string" then return string_for(ctx, name) end
  if a == "any" then return rng:chance(0.5) and ctx.pool:pick() or V.hostile(ctx) end
  if a == "table" then return rng:chance(0.6) and protocol(ctx) or V.nested(rng, V.shape(rng)) end
  if a == "ltensor.dtype" then return dtype(ctx) end
  if a == "ltensor.Shape" then
    local s = V.shape(rng)
    if DIMS[name] or name == "dims" then
      for i = 1, #s do s[i] = int(ctx, st, "dim") end
    end
    return s
  end
  if a == "ltensor.Scalar" then return V.scalar(rng, st.S and st.S.dtype) end
  if a == "ltensor.NestedTable" then
    return V.nested(rng, st.S and st.S.numel <= 64 and st.S.shape or V.shape(rng))
  end
  if a == "ltensor.Operand" then
    if rng:chance(0.4) then return V.scalar(rng, st.S and st.S.dtype) end
    return tensor_for(ctx, st, name)
  end
  if a == "ltensor.Tensor" then return tensor_for(ctx, st, name) end
  if a == "ltensor.Capsule" then
    return ctx.pool:pick("capsule") or ctx.call("t:__dlpack", lt.arange(2).__dlpack,
      { lt.arange(2), n = 1 })
  end
  if a == "ltensor.ReadOnlyTensorWrapper" then return ctx.pool:pick("wrapper") end
  if a == "ltensor.Generator" then return ctx.pool:pick("generator") end
  if ctx.defs.classes[a] then return options(ctx, st, class_fields(ctx.defs, a)) end
  return V.hostile(ctx) -- a type this reader does not know
end

-- }======

-- {====== variable arguments ======

-- A shape that keeps S's element count, or another.
local function view_shape(ctx, S)
  local rng = ctx.rng
  local k = rng:int(5)
  if k == 1 then return { -1 } end
  if k == 2 then return { S.numel } end
  if k == 3 then
    local s = {}
    for i = S.ndim, 1, -1 do s[#s + 1] = S.shape[i] end
    return s
  end
  if k == 4 then
    local s = { table.unpack(S.shape) }
    table.insert(s, rng:int(#s + 1), 1)
    return s
  end
  return V.shape(rng)
end

-- Operands that fit an einsum equation: one per term left of "->", a size per letter (the
-- same letter, the same size), "..." as up to two leading dims.
local function einsum_operands(ctx, eq)
  local rng, sizes, out = ctx.rng, {}, {}
  local batch = {}
  for i = 1, rng:int(0, 2) do batch[i] = rng:int(1, 3) end
  local lhs = eq:match("^(.-)%->") or eq
  for term in (lhs .. ","):gmatch("([^,]*),") do
    local shape = {}
    if term:find("...", 1, true) then
      for _, b in ipairs(batch) do shape[#shape + 1] = b end
    end
    for ch in term:gsub("%.%.%.", ""):gmatch("%a") do
      sizes[ch] = sizes[ch] or rng:int(0, 4)
      shape[#shape + 1] = sizes[ch]
    end
    out[#out + 1] = made(ctx, "lt.rand(einsum)", shape, rng:pick({ "float32", "float64",
      "int64", "complex64" }))
  end
  return out
end

local SHAPED = { empty = true, zeros = true, ones = true, rand = true, randn = true,
  normal = true, randint = true }

local function varargs(ctx, st, f, p)
  local rng, S, name = ctx.rng, st.S, f.name
  local out = {}
  local function spread(s)
    if rng:chance(0.5) then
      out[#out + 1] = s
    else
      for _, x in ipairs(s) do out[#out + 1] = x end
    end
  end
  if S and (name == "view" or name == "reshape") then
    spread(rng:chance(0.1) and { dtype(ctx) } or view_shape(ctx, S))
  elseif S and (name == "expand" or name == "broadcast_to") then
    local s = {}
    for i = 1, S.ndim do
      s[i] = S.shape[i] == 1 and rng:pick({ 1, 4, -1, 1 << 20, 1 << 40 }) or S.shape[i]
    end
    if rng:chance(0.4) then table.insert(s, 1, rng:pick({ 2, 1 << 31, 1 << 62 })) end
    spread(s)
  elseif S and (name == "permute" or name == "flip") then
    local s = {}
    for i = 1, S.ndim do s[i] = i end
    for i = #s, 2, -1 do
      local j = rng:int(i)
      s[i], s[j] = s[j], s[i]
    end
    if name == "flip" then
      for i = #s, rng:int(0, #s) + 1, -1 do s[i] = nil end
    end
    spread(s)
  elseif S and (name == "tile" or name == "repeat") then
    local s = {}
    for i = 1, S.ndim + rng:int(0, 1) do s[i] = rng:chance(0.03) and (1 << 30) or rng:int(0, 3) end
    spread(s)
  elseif S and (name == "get" or name == "set") then
    for i = 1, S.ndim do out[i] = rng:int(-S.shape[i] - 1, S.shape[i] + 1) end
    if name == "set" then out[#out + 1] = V.scalar(rng, S.dtype) end
  elseif name == "einsum" and type(st.equation) == "string" and rng:chance(0.8) then
    for _, v in ipairs(einsum_operands(ctx, st.equation)) do out[#out + 1] = v end
  elseif SHAPED[name] or name == "from_bytes" then
    spread(V.shape(rng))
    if name ~= "from_bytes" and rng:chance(0.5) then
      out[#out + 1] = rng:chance(0.5) and dtype(ctx)
        or { dtype = dtype(ctx), generator = ctx.pool:pick("generator") }
    end
  else
    for i = 1, rng:int(0, 3) do out[i] = gen(ctx, st, p.type, "...") end
  end
  return out
end

-- }======

-- The arguments of a call of f (a definition of tools/apidefs.lua) on receiver self (nil for a
-- module function): a list with its count in n.
function M.build(ctx, f, self)
  local rng = ctx.rng
  local st = { S = V.info(self), fname = f.name, matmul = f.name:find("m[mv]$")
    or f.name == "matmul" or f.name == "dot" or f.name == "outer" }
  ctx.table_error = false
  local args, n = {}, 0
  local function put(v)
    n = n + 1
    args[n] = v
  end
  for i, p in ipairs(f.params) do
    if p.name == "..." then
      for _, v in ipairs(varargs(ctx, st, f, p)) do put(v) end
    elseif p.optional and rng:chance(OMIT_P) then
      put(nil)
    elseif rng:chance(M.HOSTILE_P) then
      put(V.hostile(ctx))
    else
      put(gen(ctx, st, p.type, p.name))
      if p.name == "equation" then st.equation = args[n] end
    end
    if i == 1 and not self and p.name == "t" then st.S = V.info(args[1]) end
  end
  while n > 0 and args[n] == nil and rng:chance(0.9) do n = n - 1 end
  if rng:chance(EXTRA_P) then put(V.hostile(ctx)) end
  args.n = n
  return args
end

-- Arguments for a function the definitions lack: up to three values of any kind.
function M.generic(ctx)
  local args = { n = ctx.rng:int(0, 3) }
  for i = 1, args.n do
    args[i] = ctx.rng:chance(0.5) and ctx.pool:pick() or V.hostile(ctx)
  end
  return args
end

return M
