-- gc_memory.lua -- does the garbage collector see tensor memory? Makes and drops 200 float32
-- tensors of 64 MiB each, never calling collectgarbage, and prints the peak RSS (VmHWM)
-- against the goal of 1 GiB.
--
-- Run with the stand-alone interpreter and the built module:
--   LUA_PATH="$SRC/lua/?.lua;$SRC/lua/?/init.lua;;" LUA_CPATH="$BUILD/lua/?.so;;" \
--     lua5.4 bench/gc_memory.lua
-- Env: LTENSOR_BENCH_QUICK=1 (40 tensors), LTENSOR_BENCH_STRICT=1 (exit 1 on a miss).
--
-- Two loops, each from a reset peak (/proc/self/clear_refs):
--   zeros  lt.zeros(n) and one element written: the goal as stated. lt.zeros takes fresh
--          fresh zero pages that stay untouched until written, so this loop stays small
--          even if no tensor were ever freed; it shows that the loop works, not that the
--          collector keeps up.
--   ones   lt.ones(n): every page written, so each live tensor really holds 64 MiB of RSS and
--          the peak measures how many dead ones the collector lets pile up.
-- A loop stops early, as a miss, when RSS passes 4 GiB (so a broken build cannot exhaust
-- the machine).
local lt = require "ltensor"

local function env_on(name)
  local v = os.getenv(name)
  return v ~= nil and v ~= "" and v ~= "0"
end

local QUICK = env_on("LTENSOR_BENCH_QUICK")
local COUNT = QUICK and 40 or 200
local ELEMS = 16 * 1024 * 1024 -- float32: 64 MiB
local GOAL_KB = 1024 * 1024    -- 1 GiB
local ABORT_KB = 4 * 1024 * 1024

local function status_kb(field)
  local f = assert(io.open("/proc/self/status", "r"))
  local s = f:read("a")
  f:close()
  return tonumber(s:match(field .. ":%s*(%d+)%s*kB"))
end

-- Resets VmHWM to the current RSS; false where the kernel does not allow it.
local function reset_peak()
  local f = io.open("/proc/self/clear_refs", "w")
  if not f then return false end
  local ok = f:write("5")
  ok = f:close() and ok
  return ok and true or false
end

local function run(name, make)
  local reset = reset_peak()
  local start = status_kb("VmRSS")
  local aborted = nil
  for k = 1, COUNT do
    local t = make(ELEMS)
    t[k] = 1 -- one element written (for ones: the data is already all written)
    if status_kb("VmRSS") > ABORT_KB then
      aborted = k
      break
    end
  end
  local peak = status_kb("VmHWM")
  local ok = aborted == nil and peak < GOAL_KB
  print(string.format("%-5s %d x 64 MiB float32, no collectgarbage: peak RSS %7.1f MiB " ..
                      "(start %.1f MiB%s), goal < 1024 MiB: %s%s", name, COUNT, peak / 1024,
                      start / 1024, reset and "" or ", peak not reset", ok and "PASS" or "MISS",
                      aborted and string.format(" (stopped at tensor %d, RSS over 4 GiB)",
                                                aborted) or ""))
  return ok
end

local ok_zeros = run("zeros", function(n) return lt.zeros(n) end)
local ok_ones = run("ones", function(n) return lt.ones(n) end)
if env_on("LTENSOR_BENCH_STRICT") and not (ok_zeros and ok_ones) then os.exit(1) end
