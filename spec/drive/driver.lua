-- spec/drive/driver.lua -- the seeded random driver (issue 25, docs/RELIABILITY.md): from a seed,
-- a sequence of calls over every function of `lt`, `lt.linalg` and `ltensor.dlpack` and every
-- method (read from the LuaLS definitions through tools/apidefs.lua, with the live module's
-- functions the definitions lack), operators, indexing and properties, on a pool of live values
-- that the results join; between them it makes tensors (views, clones, read-only, imported, mapped),
-- closes values, arms finalizers that close, write or export tensors during a later
-- allocation, exports and imports through DLPack, and switches the collector's mode. The rule
-- after each call: an error whose message is a non-empty string, or a usable result; never a
-- crash, sanitizer report or hang; every CHECK_EVERY calls the state still creates, writes and
-- reads a tensor and survives a full collection; at the end, with the pool dropped, no tensor
-- memory is left charged. Tensor memory is capped (lt.config{memory_limit}), so a hostile size
-- raises; calls whose cost would be huge (a reduction over an expanded 2^40-element view) are
-- skipped, and a count hook raises in a call that runs too much Lua.
--
--   lua5.4 spec/drive/driver.lua [--seed S] [--calls K]     one seed, in this process
--   lua5.4 spec/drive/driver.lua --seeds N [--seed S] [--calls K] [--seconds T]
--        seeds S.. S+N-1 (or as many as T seconds allow), each in a child process
--   lua5.4 spec/drive/driver.lua --seed S --upto K           replay seed S to its call K
--   LTENSOR_DRIVE_TRACE=1 prints each call before it is made (LTENSOR_DRIVE_TRACE=K: from
--   call K on); after a crash the last line names the call. LTENSOR_DRIVE_SLOW=S prints the
--   calls that took more than S seconds of CPU.
-- Values and tensors are drive/values.lua's, argument lists drive/args.lua's.
local script = arg and arg[0] or "spec/drive/driver.lua"
local here = script:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path

local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local core = require "ltensor.core"
local V = require "drive.values"
local A = require "drive.args"
local apidefs = dofile(here .. "/../../tools/apidefs.lua")

local BUDGET = 256 * 2 ^ 20 -- the tensor memory budget (docs/MEMORY.md)
local CHECK_EVERY = 16 -- calls between state checks
local CHEAP_NUMEL = 1 << 22 -- above this, only calls whose cost does not grow with numel
local OVER_BUDGET_NUMEL = 1 << 29 -- a copy of this many elements passes any dtype's budget
local MAX_TICKS = 20000 -- the watchdog: 1000 Lua instructions a tick
local CALL_SECONDS = 20 -- the watchdog: CPU seconds of one call
local CHILD_MB = 3072 -- a child's Lua heap at most (and twice that of address space)

-- {====== command line ======

local opt = { seed = 1, calls = 1000, seeds = nil, seconds = nil, upto = math.maxinteger }
do
  local i = 1
  while arg and arg[i] do
    local k, v = arg[i]:match("^%-%-(%w+)$"), arg[i + 1]
    if not k or opt[k] == nil and k ~= "seeds" and k ~= "seconds" then
      error("usage: driver.lua [--seed S] [--calls K] [--seeds N] [--seconds T] [--upto K]")
    end
    opt[k] = math.tointeger(tonumber(v)) or error("--" .. k .. " takes an integer")
    i = i + 2
  end
end
if opt.upto < math.maxinteger then opt.calls = math.max(opt.calls, opt.upto) end
local trace_env = os.getenv("LTENSOR_DRIVE_TRACE")
-- LTENSOR_DRIVE_LOG=path: each call's line, unbuffered, so that the parent shows the last
-- ones after a crash.
local LOG = os.getenv("LTENSOR_DRIVE_LOG")
LOG = LOG and LOG ~= "" and assert(io.open(LOG, "w")) or nil
if LOG then LOG:setvbuf("no") end
local SLOW = tonumber(os.getenv("LTENSOR_DRIVE_SLOW") or "") -- print calls slower than this
local TRACE_FROM = trace_env and trace_env ~= "" and trace_env ~= "0"
  and (math.tointeger(tonumber(trace_env)) or 1) or nil

-- }======

-- {====== several seeds: one child process each ======

if opt.seeds or opt.seconds then
  local interp = arg[-1] or "lua5.4"
  local t0, seed, total, failed = os.time(), opt.seed, { calls = 0, skipped = 0, seeds = 0 }, {}
  local last = opt.seeds and opt.seed + opt.seeds - 1 or math.maxinteger
  local clock0 = os.clock()
  local log = os.tmpname() -- the children's call log
  -- A child may not take the machine whatever the driver gets wrong: its address space is
  -- capped (not under AddressSanitizer, whose shadow needs terabytes of it: there the Lua
  -- heap's cap, below, must do).
  local guard = ("ulimit -v %d;"):format(CHILD_MB * 2 * 1024)
  if (os.getenv("LD_PRELOAD") or ""):find("asan") then guard = "" end
  while seed <= last and (not opt.seconds or os.time() - t0 < opt.seconds) do
    local cmd = ("%s LTENSOR_DRIVE_LOG=%q timeout -k 5 %d %q %q --seed %d --calls %d 2>&1"):format(
      guard, log, opt.seconds and math.max(opt.seconds, 300) or 300, interp, script, seed,
      opt.calls)
    local p = io.popen(cmd)
    for line in p:lines() do
      print(line)
      local c, s = line:match("^drive: seed %d+: (%d+) calls, (%d+) skipped")
      if c then
        total.calls, total.skipped = total.calls + tonumber(c), total.skipped + tonumber(s)
      end
    end
    local ok, how, code = p:close()
    total.seeds = total.seeds + 1
    if not ok then
      failed[#failed + 1] = seed
      local lines = {}
      for l in io.lines(log) do
        lines[#lines + 1] = l
        if #lines > 12 then table.remove(lines, 1) end
      end
      print("drive: the last calls of seed " .. seed .. ":\n  " .. table.concat(lines, "\n  "))
      print(("drive: seed %d FAILED (%s %s%s); replay: LTENSOR_DRIVE_TRACE=1 %s %s --seed %d "
        .. "--calls %d"):format(seed, how, code, code == 124 and ", a hang" or "", interp, script,
        seed, opt.calls))
    end
    seed = seed + 1
  end
  os.remove(log)
  print(("drive: %d seeds (%d..%d), %d calls, %d skipped, %d s, %.1f s CPU here; %s"):format(
    total.seeds, opt.seed, seed - 1, total.calls, total.skipped, os.time() - t0,
    os.clock() - clock0, #failed == 0 and "all passed" or "FAILED: " .. table.concat(failed, " ")))
  os.exit(#failed == 0)
end

-- }======

-- {====== one seed ======

local rng = V.rng(opt.seed)
local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute("mkdir -p '" .. tmp .. "'"))
local ctx = { rng = rng, pool = V.pool(rng), tmp = tmp, files = 0,
  defs = apidefs.read(here .. "/../..") }
assert(#ctx.defs.problems == 0, "the definitions do not read: " .. tostring(ctx.defs.problems[1]))
local stats = { calls = 0, skipped = 0, errors = 0, finalizers = 0, t0 = os.clock(),
  slowest = 0, slowest_call = "" }

local function finish(code, msg)
  if msg then io.stderr:write(msg, "\n") end
  os.execute("rm -rf '" .. tmp .. "'")
  print(("drive: seed %d: %d calls, %d skipped, %d raised, %d finalizers, %.2f s%s"):format(
    opt.seed, stats.calls, stats.skipped, stats.errors, stats.finalizers,
    os.clock() - stats.t0, code == 0 and "" or " FAILED"))
  print(("drive: seed %d: slowest call %.2f s: %s"):format(opt.seed, stats.slowest,
    stats.slowest_call:sub(1, 160)))
  os.exit(code == 0, true)
end

local function fail(label, what)
  finish(1, ("drive: seed %d, %s: %s\nreplay: LTENSOR_DRIVE_TRACE=1 lua5.4 %s --seed %d "
    .. "--upto %d"):format(opt.seed, label, what, script, opt.seed, stats.calls))
end

-- The watchdog: a count hook that raises once a call has run MAX_TICKS ticks or CALL_SECONDS,
-- and ends the seed when the Lua heap passes CHILD_MB (ltensor's tensor memory has its budget).
local wd = { active = false, ticks = 0, t0 = 0, heap = 0 }
debug.sethook(function()
  wd.heap = wd.heap + 1
  if wd.heap % 64 == 0 and collectgarbage("count") > CHILD_MB * 1024 then
    debug.sethook()
    fail("the Lua heap", ("%.0f MiB, past %d MiB"):format(collectgarbage("count") / 1024, CHILD_MB))
  end
  if not wd.active then return end
  wd.ticks = wd.ticks + 1
  if wd.ticks > MAX_TICKS or (wd.ticks % 64 == 0 and os.clock() - wd.t0 > CALL_SECONDS) then
    error("driver watchdog: the call ran too long", 0)
  end
end, "", 1000)

-- The cost of a call: the largest span (elements, counting empty dims as 1) of a tensor among
-- its arguments (and their fields).
local CONSTANT = {} -- functions whose cost does not grow with the elements
for n in ([[size stride numel dim is_contiguous element_size nbytes storage_offset data_ptr
  const_data_ptr is_read_only view reshape transpose permute narrow select unsqueeze squeeze
  flatten expand t T mT __dlpack __dlpack_device clone broadcast_to diagonal is_tensor
  from_dlpack to_dlpack ReadOnlyTensorWrapper tostring close property item contiguous to
  zeros_like ones_like empty_like full_like rand_like randn_like randint_like]]):gmatch("%S+") do
  CONSTANT[n] = true
end
-- Functions whose result has as many elements as their largest operand, allocated before any
-- work: past OVER_BUDGET_NUMEL elements they must raise the budget's error at once. The
-- definitions give them: the elementwise methods of math.lua (no parameter, or an operand).
local ALLOC = { ["(a + b)"] = true, ["(a * b)"] = true, ["(a - b)"] = true, ["-"] = true }
for _, f in ipairs(ctx.defs.functions) do
  local p = f.params
  if f.file:find("math%.lua$") and f.class == "ltensor.Tensor" and f.name:sub(-1) ~= "_"
    and (#p == 0 or p[1].type == "ltensor.Operand" and #p <= 2)
    and f.returns[1] and f.returns[1].type == "ltensor.Tensor" then
    ALLOC[f.name] = true
  end
end
local function numel_of(v)
  local info = V.info(v)
  return info and info.span or 0
end
local function cost(args)
  local c = 0
  for i = 1, args.n do
    local v = args[i]
    if type(v) == "table" and not getmetatable(v) then
      for j = 1, math.min(#v, 8) do c = math.max(c, numel_of(v[j])) end
    else
      c = math.max(c, numel_of(v))
    end
  end
  return c
end

local function state_works(label)
  local ok, err = pcall(function()
    V.tensor_works()
    collectgarbage()
    local used = lt.config().memory_used
    assert(used <= BUDGET, "memory_used " .. used .. " past the budget")
  end)
  if not ok then fail(label, "the state no longer works: " .. tostring(err)) end
end

-- A result must be usable; tensors, capsules, wrappers and generators join the pool.
local function take(label, v, uninitialized)
  local kind = V.kind(v)
  if kind == "tensor" then
    local ok, err = pcall(function()
      local info = V.info(v)
      if not info then return end -- a callback closed it
      local _ = v.ndim, v.device
      if uninitialized and core._readable(v) and not v:is_read_only() then v:zero_() end
      if info.span <= 1000 then
        assert(type(tostring(v)) == "string")
        if core._readable(v) then v:tolist() end
      end
    end)
    if not ok and not tostring(err):find("released", 1, true) then
      fail(label, "the result is not a usable tensor: " .. tostring(err))
    end
  elseif kind == "table" then
    for i = 1, math.min(#v, 4) do take(label, v[i]) end
    for _, k in ipairs({ "a", "b", "c" }) do
      if lt.is_tensor(rawget(v, k)) then take(label, v[k]) end
    end
    return
  elseif kind == "capsule" or kind == "wrapper" or kind == "userdata" then
    local ok, s = pcall(tostring, v)
    if ok and type(s) ~= "string" then fail(label, "tostring of the result is not a string") end
  end
  ctx.pool:add(v, label)
end

local UNINITIALIZED = { ["lt.empty"] = true, ["lt.empty_like"] = true }

-- Makes one call: traces it, skips it when too costly, checks its error or its results.
-- Returns the first result, or nil when it raised or was skipped.
local function call(label, fn, args, quiet)
  if stats.calls >= opt.upto then finish(0, "drive: stopped after call " .. opt.upto) end
  stats.calls = stats.calls + 1
  local i = stats.calls
  local shown = {}
  for k = 1, args.n do shown[k] = V.describe(args[k]) end
  local text = ("#%d %s(%s)"):format(i, label, table.concat(shown, ", "))
  if TRACE_FROM and i >= TRACE_FROM then
    io.stderr:write(text, "\n")
    io.stderr:flush()
  end
  if LOG then LOG:write(text:sub(1, 300), "\n") end
  local name = label:gsub(" in a coroutine$", "")
  local base = name:match("[%.:]([%w_]+)$") or name
  local c = cost(args)
  if c > CHEAP_NUMEL and not CONSTANT[base] and not (c > OVER_BUDGET_NUMEL and ALLOC[base]) then
    stats.skipped = stats.skipped + 1
    return nil
  end
  local table_error = ctx.table_error -- a callback among the arguments raises a table
  ctx.table_error = false
  wd.ticks, wd.t0, wd.active = 0, os.clock(), true
  local r = table.pack(pcall(fn, table.unpack(args, 1, args.n)))
  wd.active = false
  local took = os.clock() - wd.t0
  if took > stats.slowest then stats.slowest, stats.slowest_call = took, text end
  if SLOW and took > SLOW then io.stderr:write(("slow: %.2f s: %s\n"):format(took, text)) end
  if name == "lt.config" then lt.config { memory_limit = BUDGET } end
  -- seeds from entropy (lt.seed(), g:seed(), lt.Generator()) made seeded again: a replay
  -- must draw the same numbers
  if name == "lt.seed" or name == "Generator:seed" or name == "lt.Generator" then
    local g = name == "lt.seed" and lt.default_generator or name == "lt.Generator" and r[2]
      or args[1]
    pcall(function() g:manual_seed(opt.seed) end)
  end
  if name == "lt.set_num_threads" and lt.get_num_threads() > 4 then lt.set_num_threads(2) end
  if r[1] then
    for k = 2, math.min(r.n, 6) do take(text, r[k], UNINITIALIZED[name]) end
  else
    stats.errors = stats.errors + 1
    local e = r[2]
    if type(e) ~= "string" and not (table_error and type(e) == "table") then
      fail(text, "the error is a " .. type(e) .. ", not a string")
    elseif type(e) == "string" and (e == "" or e:find("(null)", 1, true)) then
      fail(text, ("the error message is %q"):format(e))
    end
  end
  if TRACE_FROM and i >= TRACE_FROM then -- the results, by their pool ids
    local out = {}
    for k = 2, math.min(r.n, 6) do out[k - 1] = V.describe(r[k]) end
    io.stderr:write("  -> ", r[1] and table.concat(out, ", ") or "error: " ..
      tostring(r[2]):sub(1, 100), "\n")
  end
  if not quiet and i % CHECK_EVERY == 0 then state_works(text) end
  if r[1] then return r[2] end
  return nil
end
ctx.call = call

-- }======

-- {====== what the driver calls ======

-- Every function of the definitions, then the live module's functions they lack.
local API = {}
do
  local seen = {}
  local samples = { ["ltensor.Generator"] = lt.Generator(1),
    ["ltensor.ReadOnlyTensorWrapper"] = dlpack.ReadOnlyTensorWrapper(lt.arange(2)) }
  local RECV = { ["ltensor.Tensor"] = "tensor", ["ltensor.Generator"] = "generator",
    ["ltensor.ReadOnlyTensorWrapper"] = "wrapper" }
  for _, f in ipairs(ctx.defs.functions) do
    local fn
    if f.class == "ltensor" then
      fn = lt[f.name]
    elseif f.class == "ltensor.dlpack" then
      fn = dlpack[f.name]
    elseif apidefs.SPACES[f.class] then
      fn = apidefs.space(lt, f.class)[f.name]
    elseif f.class == "ltensor.Tensor" then
      fn = core._methods[f.name]
    elseif samples[f.class] then
      fn = samples[f.class][f.name]
    end
    if type(fn) == "function" then
      local label = (f.class == "ltensor" and "lt" or f.class == "ltensor.Tensor" and "t"
        or f.class:gsub("^ltensor%.", "")) .. f.sep .. f.name
      API[#API + 1] = { label = label, fn = fn, def = f, recv = RECV[f.class] }
      seen[fn] = true
    end
  end
  local tables = { { "lt.", lt }, { "dlpack.", dlpack }, { "core.", core },
    { "t:", core._methods } }
  local spaces = {}
  for class in pairs(apidefs.SPACES) do spaces[#spaces + 1] = class end
  table.sort(spaces) -- the seed's sequence of calls does not depend on pairs' order
  for _, class in ipairs(spaces) do
    tables[#tables + 1] = { "lt." .. apidefs.SPACES[class] .. ".", apidefs.space(lt, class) }
  end
  for _, m in ipairs(tables) do
    local keys = {}
    for k, v in pairs(m[2]) do
      if type(v) == "function" and not seen[v] then keys[#keys + 1] = k end
    end
    table.sort(keys)
    for _, k in ipairs(keys) do
      local fn = m[2][k]
      if not seen[fn] then
        seen[fn] = true
        API[#API + 1] = { label = m[1] .. k, fn = fn, recv = m[1] == "t:" and "tensor" or nil }
      end
    end
  end
end

-- The dims a method's receiver needs, where it is not any (most of the time one of those).
local NDIM = { mm = 2, addmm = 2, addmm_ = 2, mv = 2, bmm = 3, dot = 1, outer = 1, trace = 2,
  t = 2, diag = 1, tril = 2, triu = 2, cross = 1 }

local function receiver(kind, name)
  if rng:chance(0.1) then return V.hostile(ctx) end
  if kind == "tensor" then
    local nd = NDIM[name]
    if nd and rng:chance(0.7) then
      local t = ctx.pool:pick("tensor", true, function(info) return info.ndim == nd end)
      if t then return t end
    end
    return ctx.pool:pick("tensor", rng:chance(0.85))
  end
  return ctx.pool:pick(kind) or V.hostile(ctx)
end

-- fn run inside a coroutine (a tensor's <close> there only detaches it): its error, or its
-- results.
local function in_coroutine(fn)
  return function(...)
    local r = table.pack(coroutine.resume(coroutine.create(fn), ...))
    if not r[1] then error(r[2], 0) end
    return table.unpack(r, 2, r.n)
  end
end

local function api_call()
  local e = rng:pick(API)
  local self = e.recv and receiver(e.recv, e.def and e.def.name) or nil
  local args = e.def and A.build(ctx, e.def, self) or A.generic(ctx)
  if e.recv then
    for k = args.n, 1, -1 do args[k + 1] = args[k] end -- (args may hold nils)
    args[1], args.n = self, args.n + 1
  end
  if rng:chance(0.05) then
    call(e.label .. " in a coroutine", in_coroutine(e.fn), args)
  else
    call(e.label, e.fn, args)
  end
end

local BINOPS = { "+", "-", "*", "/", "//", "%", "^", "&", "|", "~", "<<", ">>", "..", "==",
  "<", "<=" }
local binop = {}
for _, op in ipairs(BINOPS) do binop[op] = load("return function(a, b) return a " .. op .. " b end")() end
local UNOPS = {
  { "-", function(a) return -a end }, { "~", function(a) return ~a end },
  { "#", function(a) return #a end }, { "tostring", tostring },
  { "pairs", function(a)
    local n = 0
    for _ in pairs(a) do
      n = n + 1
      if n == 3 then break end
    end
    return n
  end },
}
local PROPS = { "shape", "dtype", "ndim", "device", "T", "mT", "__dlpack_c_exchange_api",
  "junk", "__gc", "__index" }

local METAMETHODS = {}
for k, v in pairs(core._metatable) do
  if type(v) == "function" then METAMETHODS[#METAMETHODS + 1] = k end
end
table.sort(METAMETHODS)

local function operand(S)
  return A.build(ctx, { name = "op", params = { { name = "other", type = "ltensor.Operand" } } },
    S)[1]
end

-- An index key: an integer, a table of ranges, a mask or an index tensor, a name, or hostile.
local function key_for(t)
  local info = V.info(t)
  local n = info and info.ndim > 0 and info.shape[1] or 1
  local k = rng:int(8)
  if k <= 2 then return rng:int(-n - 1, n + 1) end
  if k == 3 then return { rng:int(-n, n), {} } end
  if k == 4 then
    local a = rng:int(-n, n)
    return { { a, rng:int(-n, n), rng:pick({ 1, 2, -1, 0 }) } }
  end
  if k == 5 then
    return A.build(ctx, { name = "key", params = { { name = "mask", type = "ltensor.Tensor" } } }, t)[1]
  end
  if k == 6 then
    return A.build(ctx, { name = "key", params = { { name = "index", type = "ltensor.Tensor" } } }, t)[1]
  end
  if k == 7 then return rng:pick({ "sum", "shape", "junk", "__dlpack" }) end
  return V.hostile(ctx)
end

local function operator()
  local t = ctx.pool:pick(rng:chance(0.8) and "tensor" or nil, rng:chance(0.9))
    or V.hostile(ctx)
  local k = rng:int(10)
  if k <= 4 then
    local op, o = rng:pick(BINOPS), operand(V.info(t))
    if rng:chance(0.5) then
      call("(a " .. op .. " b)", binop[op], { t, o, n = 2 })
    else
      call("(a " .. op .. " b)", binop[op], { o, t, n = 2 })
    end
  elseif k == 5 then
    local u = rng:pick(UNOPS)
    call(u[1], u[2], { t, n = 1 })
  elseif k <= 7 then
    call("t[k]", function(x, key) return x[key] end, { t, key_for(t), n = 2 })
  elseif k <= 9 then
    local info = V.info(t)
    local v = rng:chance(0.2) and V.hostile(ctx) or rng:chance(0.6) and V.scalar(rng, info and
      info.dtype) or operand(info)
    call("t[k] = v", function(x, key, val) x[key] = val end, { t, key_for(t), v, n = 3 })
  elseif rng:chance(0.7) then
    local p = rng:pick(PROPS)
    call("property", function(x, name) return x[name] end, { t, p, n = 2 })
  else -- a metamethod of the tensor metatable called directly, on any value
    local name = rng:pick(METAMETHODS)
    call("metatable." .. name, core._metatable[name], { t, operand(V.info(t)), n = 2 })
  end
end

-- A finalizer armed on a pool tensor: when the next allocation collects (the collector's debt
-- is set to zero), it closes, writes, views or exports the tensor, inside that allocation.
local FINAL = {
  close = V.close,
  write = function(t) t:fill_(1) end,
  add = function(t) t:add_(1) end,
  element = function(t) t[1] = 0 end,
  view = function(t) return t:view(-1) end,
  export = function(t) return dlpack.from_dlpack(dlpack.to_dlpack(t)) end,
  clone = function(t) return t:clone() end,
}
local FINAL_NAMES = { "close", "close", "write", "add", "element", "view", "export", "clone" }
local function arm()
  local t = ctx.pool:pick("tensor")
  if not t then return end
  local what = rng:pick(FINAL_NAMES)
  call("arm finalizer: " .. what, function(x)
    setmetatable({}, { __gc = function()
      stats.finalizers = stats.finalizers + 1
      pcall(FINAL[what], x)
    end })
    collectgarbage("restart") -- the next allocation collects (spec/helpers.lua)
  end, { t, n = 1 }, true)
end

local function lifecycle()
  local k = rng:int(10)
  if k <= 3 then
    local v = ctx.pool:pick(rng:chance(0.8) and "tensor" or nil)
    if v ~= nil and rng:chance(0.2) then
      call("close in a coroutine", in_coroutine(V.close), { v, n = 1 })
    elseif v ~= nil then
      call("close", V.close, { v, n = 1 })
    end
  elseif k <= 6 then
    arm()
  elseif k == 7 then
    local t = ctx.pool:pick("tensor")
    if t then call("dlpack.ReadOnlyTensorWrapper", dlpack.ReadOnlyTensorWrapper, { t, n = 1 }) end
  elseif k == 8 then
    local g = rng:int(4)
    if g == 1 then
      call("collectgarbage", collectgarbage, { "generational", n = 1 }, true)
    elseif g == 2 then
      -- Lua's defaults, an eager collector, and steps that finish a cycle (a pause of 100,
      -- cycles without rest, makes every allocation cost the heap: slow, not a finding)
      local p = rng:pick({ { 200, 100, 13 }, { 200, 400, 13 }, { 200, 100, 100 } })
      call("collectgarbage", collectgarbage, { "incremental", p[1], p[2], p[3], n = 4 }, true)
    else
      call("collectgarbage", collectgarbage, { "step", rng:int(0, 64), n = 2 }, true)
    end
  elseif k == 9 then
    ctx.pool:drop(rng:int(1, 6))
  else
    local c = ctx.pool:pick("capsule")
    local cmt = c and debug.getmetatable(c)
    if cmt and cmt.__gc and rng:chance(0.3) then
      call("capsule.__gc", cmt.__gc, { c, n = 1 })
    elseif c then
      call("tostring", tostring, { c, n = 1 })
    end
  end
end

-- }======

-- {====== the run ======

lt.config { memory_limit = BUDGET }
lt.manual_seed(opt.seed)
ctx.pool:add(lt.Generator(opt.seed), "generator")
for _ = 1, 6 do V.tensor(ctx) end

while stats.calls < opt.calls do
  local k = rng:int(100)
  if k <= 58 then
    api_call()
  elseif k <= 78 then
    operator()
  elseif k <= 88 then
    V.tensor(ctx)
  else
    lifecycle()
  end
end

-- Everything dropped, nothing may stay charged.
debug.sethook()
ctx.pool:clear()
collectgarbage()
collectgarbage()
state_works("the end")
collectgarbage()
local used = lt.config().memory_used
if used ~= 0 then
  fail("the end", ("%d bytes of tensor memory still charged with every value dropped"):format(used))
end
finish(0)

-- }======
