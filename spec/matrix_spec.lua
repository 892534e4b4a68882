-- The bad-input matrix: every public Lua function and method, each bad value in each argument
-- position. errors_spec.lua checks chosen cases and their messages; this file checks the rule
-- over every combination (SPEC.md, "Lua API"; STYLE.md, "Errors"): a call raises an error whose
-- message is a string, or returns a valid result; it never crashes, and after every call the
-- state still creates, writes and reads a tensor (and survives a full collection: after every
-- call in the armed passes, after every 16th in the plain one). Crashes and
-- memory errors show as a dead process here, and under `make asan` as a sanitizer report.
--
-- What is enumerated (the lists are read from the module, so new functions join by themselves):
--   * every function of `lt`, `ltensor.core` and `ltensor.dlpack`;
--   * every method of `require("ltensor.core")._methods`, on receivers of several kinds
--     (vector, matrix, 0-d, bool, complex, float16, uint8, empty, read-only, copy-on-write
--     clone, non-contiguous view);
--   * the properties and the metamethods (operators, index, newindex, len, tostring, gc, close)
--     of tensors, of ReadOnlyTensorWrapper and of capsules, called as operators and directly;
--   * the DLPack paths: capsules (fresh and consumed), __dlpack options, the protocol with a
--     plain table whose __dlpack is or returns a bad value, ltensor's exchange table on an
--     impostor.
-- A position is an argument, or a field of a table argument (a shape entry, a range bound, an
-- option), to depth 3. The receiver (self) counts as position 1.
--
-- The enumeration runs three times (issue 12: a script's finalizer must not free a tensor under
-- a running C function):
--   * plain: every call as it is;
--   * with a releasing finalizer armed, incremental collector, and again generational: before
--     each call, for each tensor among its arguments (the receiver, and the tensors that are
--     fields of a table argument) an unreachable object whose __gc does `local c <close> = t`
--     (two for the first tensor: the second closes a tensor already closed), then
--     helpers.collect_at_next_allocation() (collectgarbage "restart": the collector's debt
--     zero), so the call's first allocation collects and runs those finalizers inside the C
--     function. In incremental mode the step size is 2^100 bytes, so that collection is a whole
--     cycle; in generational mode it is a young collection. After the call the checks are those
--     of the plain pass, and then every finalizer has run and each tensor it closed reads as
--     released ("tensor has been released"). The pass counts the finalizers that ran inside
--     their call and asserts a floor: all but those of calls that allocate nothing (a getter
--     returning a number, an in-place operation that succeeds), whose finalizers run after it.
--     An armed call collects twice (in the call, and in the state check), so to keep each pass
--     around a minute (plain build, each pass alone as CTest runs them: plain 22 s, incremental
--     69 s, generational 40 s) the armed passes try one bad value in ARMED_STRIDE at each position, rotating with the
--     position: consecutive positions take disjoint sets, so a function with ARMED_STRIDE
--     positions or more meets every bad value, and each bad value is tried in every area. The
--     calls with good arguments, which get deepest into the C code (and are the ones that
--     allocate after taking their tensors), are all made, on every receiver.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local core = require "ltensor.core"
local helpers = require "helpers"
local tensor_works = require("drive.values").tensor_works

-- Below this many combinations the enumeration has lost something.
local FLOOR = 60000
-- The armed passes: one bad value in ARMED_STRIDE per position; below ARMED_FLOOR calls, or
-- with fewer than IN_CALL_SHARE of the armed finalizers run inside their call, a pass has lost
-- something.
local ARMED_STRIDE = 5
local ARMED_FLOOR = 14000
local IN_CALL_SHARE = 0.8

-- {====== the bad values ======
-- Each is made fresh for every call: a call may consume a capsule or write into a table.

local function released()
  local t <close> = lt.arange(3)
  return t -- closed on return
end

local function consumed_capsule()
  local c = dlpack.to_dlpack(lt.arange(2))
  dlpack.from_dlpack(c)
  return c
end

local BAD = {
  { "nil", function() return nil end },
  { "true", function() return true end },
  { "false", function() return false end },
  { '""', function() return "" end },
  { '"x"', function() return "x" end },
  { "NaN", function() return 0 / 0 end },
  { "inf", function() return math.huge end },
  { "-inf", function() return -math.huge end },
  { "maxinteger", function() return math.maxinteger end },
  { "mininteger", function() return math.mininteger end },
  { "-1", function() return -1 end },
  { "2^53", function() return 2 ^ 53 end },
  { "1.5", function() return 1.5 end },
  { "{}", function() return {} end },
  { "{{}}", function() return { {} } end },
  { "{1,{2}}", function() return { 1, { 2 } } end },
  { "self-referencing table", function()
    local s = {}
    s[1], s[2], s.x = s, s, s
    return s
  end },
  { "io.stdout", function() return io.stdout end },
  { "coroutine", function() return coroutine.create(function() end) end },
  { "function", function() return function() end end },
  { "released tensor", released },
  { "capsule", function() return dlpack.to_dlpack(lt.arange(2)) end },
  { "consumed capsule", consumed_capsule },
  { "ReadOnlyTensorWrapper", function() return dlpack.ReadOnlyTensorWrapper(lt.arange(3)) end },
  { "light userdata", function() return lt.zeros(1).__dlpack_c_exchange_api end },
}

-- }======

-- {====== receivers and argument templates ======

local RECEIVERS = {
  { "int64 vector", function() return lt.arange(6) end },
  { "float32 matrix", function() return lt.ones(2, 3) end },
  { "float64 0-d", function() return lt.tensor(2.5, "float64") end },
  { "bool", function() return lt.tensor({ true, false, true }) end },
  { "complex64", function() return lt.full({ 2 }, { 1, 2 }) end },
  { "float16", function() return lt.ones(4, "float16") end },
  { "uint8", function() return lt.arange(4, "uint8") end },
  { "empty", function() return lt.zeros(0) end },
  { "read-only", function()
    return dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.arange(4, "float32")))
  end },
  { "cow clone", function() return lt.arange(6):clone() end },
  { "non-contiguous", function() return lt.arange(12):view(3, 4):t() end },
}

-- A marker in a template: instantiated by calling make(receiver) for every call (a fresh
-- tensor, or anything else that must not be shared between calls). It is a leaf: no position
-- inside it.
local Mark = {}
local function mk(make) return setmetatable({ make = make }, Mark) end
local SAME = mk(function(r) return lt.zeros(r.shape, "float32") end) -- same shape as self
local MASK = mk(function(r) return lt.zeros(r.shape, "bool") end)
local VEC = mk(function() return lt.arange(3) end)
local MAT = mk(function() return lt.ones(2, 3) end)
local FN = function(x) return x end -- a good function argument (map, apply)
local FVEC = mk(function() return lt.tensor({ 0.2, 0.3, 0.5 }) end)
local GEN = mk(function() return lt.Generator(1) end) -- a fresh generator (random numbers)

local function ones(n, v)
  local r = {}
  for i = 1, n do r[i] = v or 1 end
  return r
end

-- Good arguments (after self) of each method, as a template or a function of a sample
-- receiver giving one. A method missing here gets DEFAULT, and is still enumerated.
local DEFAULT = { 1, 1 }
local function indices(r) return ones(r.ndim) end
local SIG = {
  size = { 1 }, stride = { 1 }, to = { "float64" }, copy_ = { SAME }, fill_ = { 1 },
  get = indices,
  set = function(r)
    local a = ones(r.ndim)
    a[#a + 1] = 0
    return a
  end,
  view = { { -1 } }, reshape = { -1 }, transpose = { 1, -1 },
  permute = function(r)
    local p = {}
    for i = 1, r.ndim do p[i] = r.ndim + 1 - i end
    return { p }
  end,
  narrow = { 1, 1, 1 }, select = { 1, -1 }, unsqueeze = { 1 }, squeeze = { 1 },
  flatten = { 1, -1 }, expand = function(r) return { r.shape } end,
  __dlpack = { { max_version = { 1, 3 }, dl_device = { 1, 0 }, copy = false, stream = 0 } },
  clamp = { 0, 4 }, clamp_ = { 0, 4 }, masked_fill = { MASK, 0 }, masked_fill_ = { MASK, 0 },
  sum = { 1, true, { dtype = "float64" } }, prod = { 1, true }, mean = { { 1 }, true },
  min = { 1, true }, max = { 1, true }, amin = { { 1 }, true }, amax = { 1, true },
  argmin = { 1, true }, argmax = { 1, true }, all = { { 1 }, true }, any = { 1, true },
  var = { 1, false, true }, std = { { 1 }, { correction = 0 } }, count_nonzero = { { 1 } },
  norm = { 2, 1, true, { dtype = "float64" } },
  matmul = function(r)
    return { mk(function() return lt.ones(r.ndim >= 1 and r.shape[r.ndim] or 1) end) }
  end,
  mm = function(r) return { mk(function() return lt.ones(r.ndim >= 1 and r.shape[r.ndim] or 1, 2) end) } end,
  bmm = function(r)
    return { mk(function() return lt.ones(r.shape[1] or 1, r.ndim >= 1 and r.shape[r.ndim] or 1, 2) end) }
  end,
  addmm = { mk(function() return lt.ones(2, 3) end), mk(function() return lt.ones(3, 2) end),
    { beta = 2, alpha = 1 } },
  map = { FN }, apply = { FN },
  uniform_ = { 0, 1, { generator = GEN } }, normal_ = { 0, 1, { generator = GEN } },
  random_ = { 0, 5, { generator = GEN } }, bernoulli_ = { 0.5, { generator = GEN } },
}
for _, name in ipairs({ "add", "sub", "mul", "div", "floor_divide", "remainder", "pow",
  "maximum", "minimum" }) do
  SIG[name], SIG[name .. "_"] = { SAME }, { 2 }
end
for _, name in ipairs({ "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or" }) do
  SIG[name] = { 1 }
end
SIG.dot, SIG.mv = SIG.matmul, SIG.matmul
SIG.addmm_ = SIG.addmm
for _, name in ipairs({ "numel", "dim", "is_contiguous", "element_size", "nbytes",
  "storage_offset", "data_ptr", "const_data_ptr", "is_read_only", "tolist", "item", "bytes",
  "clone", "contiguous", "zero_", "__dlpack_device", "t", "neg", "neg_", "abs", "abs_",
  "sqrt", "sqrt_", "exp", "exp_", "log", "log_", "sin", "sin_", "cos", "cos_", "tanh",
  "tanh_", "floor", "floor_", "ceil", "ceil_", "round", "round_", "sign", "sign_",
  "logical_not" }) do
  SIG[name] = {}
end

local function capsule() return dlpack.to_dlpack(lt.arange(3)) end
local PROTOCOL = mk(function()
  return {
    __dlpack = function(_, opts) return lt.arange(3):__dlpack(opts) end,
    __dlpack_device = function() return 1, 0 end,
  }
end)

-- Good argument lists of the functions of lt, core and dlpack (several forms each); a function
-- missing here gets DEFAULT.
local FSIG = {
  tensor = { { { 1, 2, 3 }, "float32" }, { { { 1, 2 }, { 3, 4 } } }, { 1.5, "int32" } },
  empty = { { { 2, 3 }, "float32" }, { 2, 3, "int32" } },
  zeros = { { { 2, 3 }, "float32" }, { 2, 3, "int32" } },
  ones = { { { 2, 3 }, "float32" }, { 2, 3, "int32" } },
  full = { { { 2, 3 }, 1.5, "float64" }, { 2, true }, { { 2 }, { 1, 2 }, "complex128" } },
  arange = { { 1, 10, 2, "int32" }, { 5 }, { 0, 1, 0.25 } },
  from_bytes = { { string.pack("<i4i4", 1, 2), "int32", { 2, 1 } } },
  is_tensor = { { VEC } },
  _readable = { { VEC } },
  where = { { mk(function() return lt.tensor({ true, false, true }) end), VEC, 0 } },
  cat = { { { VEC, VEC }, 1 } },
  config = { {}, { { blas = true } } },
  stack = { { { VEC, VEC }, 1 } },
  from_dlpack = {
    { VEC, { device = "cpu", copy = false } },
    { mk(capsule) },
    { mk(function() return dlpack.ReadOnlyTensorWrapper(lt.arange(3)) end), { copy = true } },
    { PROTOCOL, { device = "cpu", copy = true } },
    -- an impostor: a plain table carrying ltensor's own exchange table
    { mk(function() return { __dlpack_c_exchange_api = lt.zeros(1).__dlpack_c_exchange_api } end) },
  },
  to_dlpack = { { VEC } },
  ReadOnlyTensorWrapper = { { VEC }, { mk(function() return dlpack.ReadOnlyTensorWrapper(lt.arange(2)) end) } },
  -- random numbers (lua_random.c)
  rand = { { 2, 3, { dtype = "float64", generator = GEN } }, { { 2, 3 } } },
  randn = { { 2, 3, { dtype = "float16", generator = GEN } }, { { 4 } } },
  randint = { { 0, 10, { 2, 3 }, { dtype = "int32", generator = GEN } }, { 5, { 2 } } },
  randperm = { { 5, { dtype = "int16", generator = GEN } } },
  normal = { { 0, 1, { 3 }, { generator = GEN } }, { FVEC, FVEC, { dtype = "float64" } } },
  bernoulli = { { mk(function() return lt.full({ 3 }, 0.5) end), { generator = GEN } } },
  multinomial = { { FVEC, 2, false, { generator = GEN } },
    { mk(function() return lt.ones(2, 3) end), 4, true } },
  rand_like = { { FVEC, { dtype = "float64", generator = GEN } } },
  randn_like = { { FVEC, { generator = GEN } } },
  randint_like = { { VEC, 0, 5, { dtype = "int8", generator = GEN } }, { VEC, 5 } },
  Generator = { { 5 } },
  manual_seed = { { 5 } },
}

-- }======

-- {====== instantiating templates and enumerating positions ======

local function instantiate(tpl, r)
  if getmetatable(tpl) == Mark then return tpl.make(r) end
  if type(tpl) ~= "table" then return tpl end
  local out = {}
  for k, v in pairs(tpl) do out[k] = instantiate(v, r) end
  return out
end

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return ks
end

-- Every position in the argument list tpl (1-based arguments), as paths of keys: each
-- argument, each field of a table argument (to depth 3), and (extra) one argument past the end.
local function positions(tpl, extra)
  local out = {}
  local function walk(t, prefix, depth)
    for _, k in ipairs(sorted_keys(t)) do
      local path = { table.unpack(prefix) }
      path[#path + 1] = k
      out[#out + 1] = path
      local v = t[k]
      if type(v) == "table" and getmetatable(v) ~= Mark and depth < 3 then
        walk(v, path, depth + 1)
      end
    end
  end
  walk(tpl, {}, 1)
  if extra then out[#out + 1] = { #tpl + 1 } end
  return out
end

local function set_path(args, path, v)
  local t = args
  for i = 1, #path - 1 do t = t[path[i]] end
  t[path[#path]] = v
  if #path == 1 and path[1] > args.n then args.n = path[1] end
end

local function path_str(path)
  local s = "arg " .. tostring(path[1])
  for i = 2, #path do s = s .. "." .. tostring(path[i]) end
  return s
end

-- }======

-- {====== the passes ======

local function new_stats()
  return { calls = 0, armed_calls = 0, armed = 0, ran_in_call = 0, rot = 0 }
end

local DEFAULT_GC = function() collectgarbage("incremental", 200, 100, 13) end -- Lua's defaults
local PASSES = {
  { title = "the bad-input matrix", name = "plain", stride = 1, gc = DEFAULT_GC },
  { title = "the bad-input matrix with a releasing finalizer armed before every call, "
      .. "incremental collector", name = "incremental", stride = ARMED_STRIDE, armed = true,
    gc = function() collectgarbage("incremental", 200, 100, 100) end }, -- steps finish cycles
  { title = "the bad-input matrix with a releasing finalizer armed before every call, "
      .. "generational collector", name = "generational", stride = ARMED_STRIDE, armed = true,
    gc = function() collectgarbage("generational") end },
}
for _, pass in ipairs(PASSES) do pass.stats = new_stats() end
-- LTENSOR_MATRIX_PASS=plain, incremental or generational runs that pass alone: CTest runs the
-- three as separate tests, in parallel and each in a fresh state (one after another in one
-- busted process, the later passes ran 3 to 7 times slower than alone: every full collection
-- also walks what busted has kept of the earlier ones).
local ONLY = os.getenv("LTENSOR_MATRIX_PASS")
if ONLY and ONLY ~= "" then
  local kept = {}
  for _, pass in ipairs(PASSES) do
    if pass.name == ONLY then kept[1] = pass end
  end
  assert(kept[1], "LTENSOR_MATRIX_PASS must be plain, incremental or generational, got " .. ONLY)
  PASSES = kept
end
local PASS = PASSES[1] -- the pass whose `it` runs now (set by before_each)

-- The bad values tried at the next position: all of them in the plain pass; in an armed pass
-- those whose index is congruent to a counter that advances with each position.
local SUBSETS = {}
local function bad_values()
  local n = PASS.stride
  if n == 1 then return BAD end
  if not SUBSETS[n] then
    SUBSETS[n] = {}
    for i, b in ipairs(BAD) do
      local k = i % n
      SUBSETS[n][k] = SUBSETS[n][k] or {}
      table.insert(SUBSETS[n][k], b)
    end
  end
  PASS.stats.rot = (PASS.stats.rot + 1) % n
  return SUBSETS[n][PASS.stats.rot]
end

-- }======

-- {====== releasing finalizers ======

local in_call = false -- true from the moment the called function starts until it returns
local function leave(...)
  in_call = false
  return ...
end
local function enter(fn, ...)
  in_call = true
  return leave(fn(...))
end

-- Arms releasing finalizers for the tensors among args (and among the fields of its table
-- arguments): a list of records { t, armed, ran, err }.
local MAX_TARGETS = 6
local function arm(args)
  local recs, seen = {}, {}
  local function add(v)
    if type(v) == "userdata" and not seen[v] and #recs < MAX_TARGETS and lt.is_tensor(v) then
      seen[v] = true
      recs[#recs + 1] = { t = v, armed = 0, ran = 0, stats = PASS.stats }
    end
  end
  for i = 1, args.n do
    local v = args[i]
    if type(v) == "table" then
      for _, w in pairs(v) do add(w) end
    else
      add(v)
    end
  end
  for i, rec in ipairs(recs) do
    local function ran(err)
      rec.ran = rec.ran + 1
      if in_call then rec.stats.ran_in_call = rec.stats.ran_in_call + 1 end
      rec.err = rec.err or err
    end
    for _ = 1, i == 1 and 2 or 1 do
      helpers.releasing_finalizer(rec.t, ran)
      rec.armed = rec.armed + 1
    end
    PASS.stats.armed = PASS.stats.armed + rec.armed
  end
  return recs
end

-- }======

-- {====== the checks ======

local failures = {}
-- LTENSOR_MATRIX_TRACE=1 prints each call before it is made: the last line names a crash.
local TRACE = os.getenv("LTENSOR_MATRIX_TRACE")

local function fail(what)
  if #failures < 25 then failures[#failures + 1] = what end
end

-- Functions whose result holds memory never written (torch.empty's contract): its properties
-- are checked, its elements not read (memcheck would rightly flag the reads).
local UNINITIALIZED = { [lt.empty] = true }

-- A result must be usable: a tensor answers its properties and prints (small ones), a capsule
-- prints.
local function validate(label, v, skip_elements)
  if lt.is_tensor(v) then
    local ok, err = pcall(function()
      local n = v:numel()
      local _ = v.shape, v.dtype, v.ndim, v.device
      if n <= 1000 and not skip_elements then
        local s = tostring(v)
        assert(type(s) == "string")
        if core._readable(v) then v:tolist() end
      end
    end)
    if not ok and not tostring(err):find("released", 1, true) then
      fail(label .. ": the result is not a usable tensor: " .. tostring(err))
    end
  elseif type(v) == "userdata" then
    local ok, s = pcall(tostring, v)
    if ok and type(s) ~= "string" then fail(label .. ": tostring of the result is not a string") end
  end
end

-- The state after a call: creates, writes and reads a tensor, and collects garbage (in the
-- plain pass after every COLLECT_EVERY-th call: a full collection costs 0.6 ms here, which made
-- 100 of the plain pass's 115 s; the armed passes collect after every call, as they must).
local COLLECT_EVERY = 16
local function state_works(label)
  local ok, err = pcall(function()
    tensor_works()
    if PASS.armed or PASS.stats.calls % COLLECT_EVERY == 0 then collectgarbage() end
  end)
  if not ok then fail(label .. ": the state no longer works: " .. tostring(err)) end
end

local numel = core._methods.numel

-- After an armed call and a full collection: every finalizer ran, closed its tensor without an
-- error, and the tensor reads as released.
local function all_released(label, recs)
  for _, rec in ipairs(recs) do
    if rec.ran ~= rec.armed then
      fail(("%s: %d of %d finalizers ran"):format(label, rec.ran, rec.armed))
    elseif rec.err then
      fail(label .. ": <close> in a finalizer raised: " .. rec.err)
    else
      local ok, err = pcall(numel, rec.t)
      if ok or not tostring(err):find("tensor has been released", 1, true) then
        fail(label .. ": a tensor closed by a finalizer does not read as released: "
          .. tostring(ok and "numel() = " .. tostring(err) or err))
      end
    end
  end
end

-- Calls fn(args) under pcall: an error must carry a string, a result must be usable. In an
-- armed pass, releasing finalizers are armed for the call's tensors first.
local function try(label, fn, args)
  local st = PASS.stats
  st.calls = st.calls + 1
  if TRACE then io.stderr:write(label, "\n") end
  local recs
  if PASS.armed then
    recs = arm(args)
    if #recs > 0 then st.armed_calls = st.armed_calls + 1 end
    helpers.collect_at_next_allocation() -- the call's first allocation collects
  end
  local r = table.pack(pcall(enter, fn, table.unpack(args, 1, args.n)))
  in_call = false
  if r[1] then
    for i = 2, r.n do validate(label, r[i], UNINITIALIZED[fn]) end
  elseif type(r[2]) ~= "string" then
    fail(("%s: error object is a %s, not a string"):format(label, type(r[2])))
  end
  r = nil
  state_works(label)
  if recs then all_released(label, recs) end
end

local function args_of(tpl, r)
  local a = instantiate(tpl, r)
  a.n = #tpl
  return a
end

-- fn with each bad value at each position of the argument template tpl. With a receiver
-- factory, self is argument 1 (made fresh each call) and tpl the rest; bad_self says whether
-- self is also replaced, and extra whether one argument past the end is tried (for functions
-- that take a variable number).
local function matrix(label, fn, tpl, recv, bad_self, extra)
  local sample = recv and recv() or nil
  if type(tpl) == "function" then tpl = tpl(sample) end
  local function call_args(path, bad)
    local r = recv and recv() or nil
    local a = args_of(tpl, r)
    if path then set_path(a, path, bad) end
    if recv then
      a = { r, table.unpack(a, 1, a.n), n = a.n + 1 }
    end
    return a
  end
  try(label .. " (good arguments)", fn, call_args(nil))
  for _, path in ipairs(positions(tpl, extra)) do
    for _, b in ipairs(bad_values()) do
      local shown = recv and { path[1] + 1, table.unpack(path, 2) } or path
      try(("%s, %s = %s"):format(label, path_str(shown), b[1]), fn, call_args(path, b[2]()))
    end
  end
  if recv and bad_self then
    for _, b in ipairs(bad_values()) do
      local a = args_of(tpl, sample)
      try(("%s, self = %s"):format(label, b[1]), fn,
        { b[2](), table.unpack(a, 1, a.n), n = a.n + 1 })
    end
  end
end

local function no_failures()
  local list = failures
  failures = {}
  assert.are.same({}, list)
end

-- }======

local function define_matrix()
  describe("functions of lt, ltensor.core and ltensor.dlpack", function()
    local seen, names = {}, {}
    for _, mod in ipairs({ { "lt", lt }, { "core", core }, { "dlpack", dlpack } }) do
      for _, k in ipairs(sorted_keys(mod[2])) do
        local f = mod[2][k]
        if type(f) == "function" and not seen[f] then
          seen[f] = true
          names[#names + 1] = { mod[1] .. "." .. k, k, f }
        end
      end
    end
    for _, e in ipairs(names) do
      local label, key, f = e[1], e[2], e[3]
      it(label, function()
        for form, tpl in ipairs(FSIG[key] or { DEFAULT }) do
          matrix(("%s form %d"):format(label, form), f, tpl, nil, false, true)
        end
        no_failures()
      end)
    end
  end)

  describe("tensor methods (require('ltensor.core')._methods)", function()
    for _, name in ipairs(sorted_keys(core._methods)) do
      local m = core._methods[name]
      if type(m) == "function" then
        it("t:" .. name, function()
          for i, rc in ipairs(RECEIVERS) do
            matrix(("t:%s on %s"):format(name, rc[1]), m, SIG[name] or DEFAULT, rc[2], i == 1,
              i == 1)
          end
          no_failures()
        end)
      else
        it("t." .. name .. " (a value) reads on every receiver", function()
          for _, rc in ipairs(RECEIVERS) do
            try("t." .. name, function(t) return t[name] end, { rc[2](), n = 1 })
          end
          no_failures()
        end)
      end
    end
  end)

  local mt = core._metatable
  local BINOPS = { "+", "-", "*", "/", "//", "%", "^", "..", "==", "<", "<=", "&", "|", "~",
    "<<", ">>" }
  local function binop(op) return load("return function(a, b) return a " .. op .. " b end")() end
  local PROPS = { "shape", "dtype", "ndim", "device", "mT" }

  describe("properties, indexing and writes", function()
    it("properties on every receiver, and read through __index with a bad self", function()
      for _, p in ipairs(PROPS) do
        for _, rc in ipairs(RECEIVERS) do
          try("t." .. p, function(t) return t[p] end, { rc[2](), n = 1 })
        end
        matrix("__index(self, " .. p .. ")", mt.__index, { p }, RECEIVERS[1][2], true, true)
      end
      no_failures()
    end)

    local KEYS = { 1, -1, { 1 }, { {} }, { { 1, 2 } }, { { 1, 2, 1 } }, { { -1, 1, -1 } }, { 1, {} } }
    it("t[key] with every bad key and with bad entries in table keys", function()
      for _, rc in ipairs(RECEIVERS) do
        for _, k in ipairs(KEYS) do
          matrix(("t[%s] on %s"):format(type(k), rc[1]), function(t, key) return t[key] end,
            { k }, rc[2])
        end
      end
      no_failures()
    end)

    it("t[key] = value with bad keys, bad values and bad entries in both", function()
      for _, rc in ipairs(RECEIVERS) do
        for _, k in ipairs(KEYS) do
          matrix(("t[%s] = v on %s"):format(type(k), rc[1]),
            function(t, key, v) t[key] = v end, { k, 0 }, rc[2])
        end
        matrix("t[{}] = {rows} on " .. rc[1], function(t, key, v) t[key] = v end,
          { { {} }, { 1, 2 } }, rc[2])
      end
      no_failures()
    end)
  end)

  describe("operators and metamethods", function()
    it("every binary operator with a bad operand on either side", function()
      for i, op in ipairs(BINOPS) do
        local f = binop(op)
        -- the operators past ^ have no tensor metamethod: Lua raises; one receiver suffices
        for _, rc in ipairs(i <= 7 and RECEIVERS or { RECEIVERS[1] }) do
          matrix(("t %s x on %s"):format(op, rc[1]), f, { SAME }, rc[2])
          matrix(("x %s t on %s"):format(op, rc[1]), function(b, a) return f(a, b) end,
            { SAME }, rc[2])
        end
      end
      no_failures()
    end)

    it("unary operators and tostring on every receiver", function()
      for _, rc in ipairs(RECEIVERS) do
        try("-t on " .. rc[1], function(t) return -t end, { rc[2](), n = 1 })
        try("#t on " .. rc[1], function(t) return #t end, { rc[2](), n = 1 })
        try("~t on " .. rc[1], function(t) return ~t end, { rc[2](), n = 1 })
        try("t() on " .. rc[1], function(t) return t() end, { rc[2](), n = 1 })
        try("tostring(t) on " .. rc[1], tostring, { rc[2](), n = 1 })
      end
      no_failures()
    end)

    it("every metamethod of the tensor metatable called directly with bad arguments", function()
      for _, k in ipairs(sorted_keys(mt)) do
        local f = mt[k]
        if type(f) == "function" then
          matrix("metatable." .. k, f, k == "__newindex" and { 1, 0 } or { 1 }, RECEIVERS[1][2],
            true, true)
        end
      end
      no_failures()
    end)
  end)

  describe("DLPack", function()
    it("t:__dlpack with bad options, on every receiver", function()
      local m = core._methods.__dlpack
      for _, rc in ipairs(RECEIVERS) do
        matrix("t:__dlpack{max_version} on " .. rc[1], m, { { max_version = { 0, 9 } } }, rc[2])
      end
      no_failures()
    end)

    it("from_dlpack of an object whose __dlpack returns a bad value", function()
      for _, b in ipairs(bad_values()) do
        try("__dlpack returns " .. b[1], dlpack.from_dlpack,
          { { __dlpack = function() return b[2]() end }, n = 1 })
        try("__dlpack_c_exchange_api = " .. b[1], dlpack.from_dlpack,
          { setmetatable({}, { __index = function(_, k)
            if k == "__dlpack_c_exchange_api" then return b[2]() end
            if k == "__dlpack" then return function(_, o) return lt.arange(2):__dlpack(o) end end
          end }), n = 1 })
      end
      no_failures()
    end)

    it("capsules: to_dlpack on every receiver, each used twice, printed and collected", function()
      for _, rc in ipairs(RECEIVERS) do
        for _, versioned in ipairs({ false, true }) do
          local t = rc[2]()
          local ok, c = pcall(t.__dlpack, t, versioned and { max_version = { 1, 3 } } or nil)
          PASS.stats.calls = PASS.stats.calls + 1
          if ok then
            try("tostring(capsule) on " .. rc[1], tostring, { c, n = 1 })
            try("from_dlpack(capsule) on " .. rc[1], dlpack.from_dlpack, { c, n = 1 })
            try("from_dlpack(capsule) again on " .. rc[1], dlpack.from_dlpack, { c, n = 1 })
            try("to_dlpack(...) left to the collector on " .. rc[1], dlpack.to_dlpack, { t, n = 1 })
          elseif type(c) ~= "string" then
            fail("__dlpack on " .. rc[1] .. ": error object is not a string")
          end
          state_works("capsule on " .. rc[1])
        end
      end
      no_failures()
    end)

    it("the capsule metatables' functions called directly with bad arguments", function()
      for _, make in ipairs({ capsule, consumed_capsule,
        function() return lt.arange(2):__dlpack({ max_version = { 1, 3 } }) end }) do
        local cmt = debug.getmetatable(make())
        for _, k in ipairs(sorted_keys(cmt)) do
          if type(cmt[k]) == "function" then
            matrix("capsule metatable." .. k, cmt[k], {}, make, true, true)
          end
        end
      end
      no_failures()
    end)

    it("ReadOnlyTensorWrapper: every operator, index and its two methods with bad arguments", function()
      local function wrapper() return dlpack.ReadOnlyTensorWrapper(lt.arange(4)) end
      local w = wrapper()
      matrix("w:__dlpack", w.__dlpack, { { max_version = { 1, 3 }, copy = false } }, wrapper, true,
        true)
      matrix("w:__dlpack_device", w.__dlpack_device, {}, wrapper, true, true)
      matrix("w[key]", function(x, k) return x[k] end, { "__dlpack" }, wrapper)
      matrix("w[key] = v", function(x, k, v) x[k] = v end, { 1, 0 }, wrapper)
      matrix("w(...)", function(x, ...) return x(...) end, { 1 }, wrapper, false, true)
      for _, op in ipairs(BINOPS) do
        local f = binop(op)
        matrix(("w %s x"):format(op), f, { 1 }, wrapper)
        matrix(("x %s w"):format(op), function(b, a) return f(a, b) end, { 1 }, wrapper)
      end
      for _, u in ipairs({ function(x) return -x end, function(x) return #x end,
        function(x) return ~x end, tostring }) do
        try("unary on a wrapper", u, { wrapper(), n = 1 })
      end
      local wmt = debug.getmetatable(w)
      for _, k in ipairs(sorted_keys(wmt)) do
        if type(wmt[k]) == "function" then
          matrix("wrapper metatable." .. k, wmt[k], { 1, 0 }, wrapper, true, true)
        end
      end
      no_failures()
    end)

    it("<close> on tensors, and a closed tensor in every method", function()
      for _, rc in ipairs(RECEIVERS) do
        local escaped
        do
          local t <close> = rc[2]()
          escaped = t
        end
        for _, name in ipairs(sorted_keys(core._methods)) do
          local m = core._methods[name]
          if type(m) == "function" then try("closed t:" .. name, m, { escaped, n = 1 }) end
        end
      end
      no_failures()
    end)
  end)
end

for _, pass in ipairs(PASSES) do
  describe(pass.title, function()
    before_each(function()
      PASS = pass
      pass.gc()
    end)
    after_each(function()
      PASS = PASSES[1]
      DEFAULT_GC()
    end)

    define_matrix()

    it(pass.armed and "counted its calls, and most finalizers ran inside them"
      or "counted its combinations", function()
      local st = pass.stats
      if not pass.armed then
        print(("\nbad-input matrix: %d calls, each followed by a state check"):format(st.calls))
        -- (the collections of the state checks, one in COLLECT_EVERY, ran: a last one here)
        collectgarbage()
        assert.is_true(st.calls >= FLOOR, ("only %d combinations (floor %d)"):format(st.calls,
          FLOOR))
        return
      end
      print(("\nbad-input matrix, %s: %d calls, %d with finalizers armed (%d finalizers), %d of "
        .. "them ran inside the call"):format(pass.name, st.calls, st.armed_calls, st.armed,
        st.ran_in_call))
      assert.is_true(st.calls >= ARMED_FLOOR, ("only %d calls (floor %d)"):format(st.calls,
        ARMED_FLOOR))
      assert.is_true(st.ran_in_call >= IN_CALL_SHARE * st.armed,
        ("only %d of %d finalizers ran inside the call"):format(st.ran_in_call, st.armed))
    end)
  end)
end
