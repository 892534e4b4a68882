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

-- A field of /proc/self/status in kB: "VmRSS" (resident now) or "VmHWM" (the peak so far).
function M.status_kb(field)
  local f = assert(io.open("/proc/self/status"))
  local s = f:read("a")
  f:close()
  return tonumber(s:match(field .. ":%s*(%d+)%s*kB"))
end

return M
