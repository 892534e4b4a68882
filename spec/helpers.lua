-- helpers.lua -- what the specs share: `local helpers = require "helpers"` (the test
-- environment's LUA_PATH has spec/?.lua).
local assert = require "luassert" -- busted gives specs its assert; a module takes it here
local M = {}

-- raises(patterns, fn, ...): fn(...) must raise, and the message must match the Lua pattern
-- `patterns` or one of the list of alternatives (Lua patterns have no "|"). Returns the message.
function M.raises(patterns, fn, ...)
  local args = table.pack(...)
  local ok, err = pcall(fn, table.unpack(args, 1, args.n))
  assert.is_false(ok, "expected an error")
  local msg = tostring(err)
  if type(patterns) == "string" then patterns = { patterns } end
  for _, p in ipairs(patterns) do
    if msg:find(p) then return msg end
  end
  assert.is_true(false, ("error message %q matches none of: %s"):format(msg,
    table.concat(patterns, " | ")))
end

-- near(expected, actual, tol, path): nested lists of numbers agree within a relative (and as
-- small absolute) tolerance tol (default 1e-12); NaN matches NaN, infinities match exactly. path
-- names the value in messages.
function M.near(expected, actual, tol, path)
  tol = tol or 1e-12
  path = path or "value"
  if type(expected) == "table" then
    assert.equal("table", type(actual), path .. " is not a list")
    assert.equal(#expected, #actual, path .. " has the wrong length")
    for i = 1, #expected do M.near(expected[i], actual[i], tol, path .. "[" .. i .. "]") end
    return
  end
  if expected ~= expected then
    assert.is_true(actual ~= actual, ("%s: expected nan, got %s"):format(path, tostring(actual)))
  elseif expected == math.huge or expected == -math.huge then
    assert.equal(expected, actual, path)
  else
    local ok = math.abs(expected - actual) <= tol * math.max(1, math.abs(expected))
    assert.is_true(ok, ("%s: expected %.17g, got %.17g"):format(path, expected, actual))
  end
end

-- A field of /proc/self/status in kB: "VmRSS" (resident now) or "VmHWM" (the peak so far).
function M.status_kb(field)
  local f = assert(io.open("/proc/self/status"))
  local s = f:read("a")
  f:close()
  return tonumber(s:match(field .. ":%s*(%d+)%s*kB"))
end

-- releasing_finalizer(t, on_run): what a hostile script does to a tensor from a finalizer. Makes
-- an unreachable object whose __gc does `local c <close> = t`; the next collection runs it,
-- inside whatever allocation triggers that collection. on_run(err), if given, is called from
-- the finalizer after the close, with the error the close raised or nil.
local function close(t)
  local _ <close> = t
end
function M.releasing_finalizer(t, on_run)
  setmetatable({}, { __gc = function()
    local ok, err = pcall(close, t)
    if on_run then on_run(not ok and tostring(err) or nil) end
  end })
end

-- collect_at_next_allocation(): sets the collector's debt to zero (collectgarbage "restart"
-- does that, and leaves a running collector running), so the next allocation, wherever it is,
-- makes a collection step: in generational mode a young collection, in incremental mode a step
-- that, with a step size of 2^100 (collectgarbage("incremental", 0, 0, 100)), finishes a cycle.
-- Either runs the finalizers of the objects found unreachable.
function M.collect_at_next_allocation()
  collectgarbage("restart")
end

return M
