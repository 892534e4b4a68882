-- gc_memory.lua -- does the garbage collector see tensor memory? For each collector mode
-- (lua5.4's own generational, incremental, and both with tuned parameters) and each loop of
-- the memory issue, runs the loop in a fresh lua5.4 twice: as written (no collectgarbage), and
-- with collectgarbage() at the end of every turn, the reference. Prints, side by side:
--   peak    the peak resident memory above the interpreter's at the start (VmHWM - VmRSS)
--   goal    the live set (the reference's peak: x and the temporaries in flight) + twice the
--           largest temporary + the block cache (what may stay mapped for reuse:
--           LTENSOR_BLOCK_CACHE, 256 MiB by default)
--   tensors the most tensor memory in use at once (lt.config().memory_peak; "-" on a build
--           without it), against the reference's + twice the largest temporary + the slack the
--           account allows before a collection (16 MiB)
--   time    CPU seconds of the loop at 1 thread (the fastest of two runs, or of up to four
--           while past the goal), and its ratio to the reference's fastest (goal <= 1.10)
--
-- Run with the stand-alone interpreter and the built module:
--   LUA_PATH="$SRC/lua/?.lua;$SRC/lua/?/init.lua;;" LUA_CPATH="$BUILD/lua/?.so;;" \
--     lua5.4 bench/gc_memory.lua
-- Env: LTENSOR_BENCH_QUICK=1 (40 turns instead of 200), LTENSOR_BENCH_STRICT=1 (exit 1 on a
-- miss), LTENSOR_BENCH_ONLY=<pattern> (loops whose name matches), LTENSOR_BENCH_RECORD=<file>
-- (each line's checks appended as rows of make bench's summary table, as bench/bench.h's
-- bench_record writes them: peak and tensors in MiB against their goals, time against the
-- reference's).
local function env_on(name)
  local v = os.getenv(name)
  return v ~= nil and v ~= "" and v ~= "0"
end

local QUICK = env_on("LTENSOR_BENCH_QUICK")
local TURNS = QUICK and 40 or 200
local ONLY = os.getenv("LTENSOR_BENCH_ONLY")
local MiB = 1024 * 1024
local ELEMS = 4 * MiB -- float32: 16 MiB, the live x and each temporary
local CACHE = tonumber(os.getenv("LTENSOR_BLOCK_CACHE") or "") or 256 * MiB
local ABORT_KB = 6 * 1024 * 1024 -- a child past 6 GiB resident stops: a broken build

local modes = {
  { "generational", "" },
  { "incremental", "collectgarbage('incremental')" },
  { "gen 50/300", "collectgarbage('generational', 50, 300)" },
  { "inc 400/400", "collectgarbage('incremental', 400, 400)" },
}

-- name, body (x is 16 MiB of float32), set-up, the largest temporary in bytes
local loops = {
  { "(x * 2 + 1) / 3", "local y = (x * 2 + 1) / 3" },
  { "x * 2 at chunk level", "y = x * 2" },
  { "(x * 2):view(1024, -1)[1]", "local y = (x * 2):view(1024, -1)[1]" },
  { "x:sort()", "local v, k = x:sort()", "x = lt.rand(" .. ELEMS // 4 .. ")", 8 * MiB },
  { "clone, add_", "local y = x:clone(); y:add_(1)" },
  { "x:exp()", "local y = x:exp()" },
  { "x[mask]", "local y = x[mask]", "mask = x:gt(0)" },
  { "lt.cat", "local y = lt.cat({x, x})", nil, 32 * MiB },
}

-- bench_record (bench/bench.h) from Lua: one row of the summary table, appended to the file
-- LTENSOR_BENCH_RECORD names (nothing when it is unset); cmp "<=" (ratio = ours / ref).
local RECORD = os.getenv("LTENSOR_BENCH_RECORD")
local function record(label, ours, ref, ref_name, ratio, goal, verdict)
  if not RECORD or RECORD == "" then return end
  local f = io.open(RECORD, "a")
  if not f then return end
  verdict = verdict or (ratio <= goal and "PASS" or "MISS")
  f:write(("gc_memory\t%s\t0\t%.6g\t%s\t%.6g\t%.4g\t<=\t%.4g\t%s\n"):format(label, ours,
    ref_name, ref, ratio, goal, verdict))
  f:close()
end

local function tmpname()
  local p = os.tmpname()
  os.remove(p)
  return p .. ".lua"
end

-- Runs the loop in a fresh lua5.4 (one thread); returns peak RSS above the start (bytes),
-- the account's peak (bytes, or nil), CPU seconds; nil and the output on failure.
local function child(setup, prep, body, collect)
  local script = tmpname()
  local f = assert(io.open(script, "w"))
  f:write(setup, "\n", [[
local lt = require "ltensor"
local function kb(field)
  for l in io.lines("/proc/self/status") do
    local v = l:match("^" .. field .. ":%s*(%d+)") if v then return tonumber(v) end
  end
end
x = lt.ones(]], ELEMS, ")\n", prep or "", "\n", [[
local start = kb("VmRSS")
local t0 = os.clock()
for turn = 1, ]], TURNS, " do\n", body, "\n", collect and "collectgarbage()\n" or "", [[
  if turn % 8 == 0 and kb("VmRSS") > ]], ABORT_KB, [[ then print("ABORT", turn) os.exit(1) end
end
local dt = os.clock() - t0
local c = lt.config and lt.config() or {}
print("RESULT", (kb("VmHWM") - start) * 1024, c.memory_peak or -1, dt)
]])
  f:close()
  local p = assert(io.popen("LTENSOR_NUM_THREADS=1 lua5.4 " .. script .. " 2>&1"))
  local out = p:read("a")
  p:close()
  os.remove(script)
  local peak, acct, dt = out:match("RESULT%s+(%-?%d+)%s+(%-?%d+)%s+([%d.e+-]+)")
  if not peak then return nil, out end
  acct = tonumber(acct)
  return tonumber(peak), acct >= 0 and acct or nil, tonumber(dt)
end

print(("gc_memory: %d turns, x and temporaries of 16 MiB, block cache %d MiB, 1 thread")
  :format(TURNS, CACHE // MiB))
print(("%-12s %-27s %8s %8s %9s %8s %8s %8s %6s  %s"):format("mode", "loop", "peak MiB",
  "goal", "tensors", "goal", "time s", "ref s", "ratio", "verdict"))
local misses = 0
for _, mode in ipairs(modes) do
  for _, loop in ipairs(loops) do
    if not ONLY or loop[1]:find(ONLY, 1, true) then
      local temp = loop[4] or 16 * MiB
      -- twice each, interleaved, the faster of each: the machines are shared; while the time is
      -- still past its goal, up to two pairs more (a loop of 0.1 s moves by a tenth or more
      -- from run to run there; a slower loop stays slower in every pair)
      local peak, acct, dt = child(mode[2], loop[3], loop[2], false)
      local rpeak, racct, ref = child(mode[2], loop[3], loop[2], true)
      for pair = 2, 4 do
        if not (peak and rpeak) or (pair > 2 and dt <= 1.10 * ref) then break end
        local _, _, dt2 = child(mode[2], loop[3], loop[2], false)
        local _, _, ref2 = child(mode[2], loop[3], loop[2], true)
        dt, ref = math.min(dt, dt2 or dt), math.min(ref, ref2 or ref)
      end
      local line
      local label = mode[1] .. ", " .. loop[1]
      if not peak or not rpeak then
        misses = misses + 1
        record(label .. ": failed", 0, 0, "goal [MiB]", 0, 1, "MISS")
        line = ("%-12s %-27s   failed: %s"):format(mode[1], loop[1],
          ((peak and racct or acct) or ""):gsub("\n", " "))
      else
        local goal = rpeak + 2 * temp + CACHE
        local acct_goal = racct and racct + 2 * temp + 16 * MiB
        local ratio = dt / ref
        local ok = peak <= goal and (not acct or acct <= acct_goal) and ratio <= 1.10
        if not ok then misses = misses + 1 end
        record(label .. ": peak", peak / MiB, goal / MiB, "goal [MiB]", peak / goal, 1)
        if acct then
          record(label .. ": tensors", acct / MiB, acct_goal / MiB, "goal [MiB]",
                 acct / acct_goal, 1)
        end
        record(label .. ": time", dt, ref, "collectgarbage() each turn [s]", dt / ref, 1.10)
        line = ("%-12s %-27s %8.0f %8.0f %9s %8s %8.2f %8.2f %6.2f  %s"):format(mode[1],
          loop[1], peak / MiB, goal / MiB, acct and ("%.0f"):format(acct / MiB) or "-",
          acct_goal and ("%.0f"):format(acct_goal / MiB) or "-", dt, ref, ratio,
          ok and "PASS" or "MISS")
      end
      print(line)
    end
  end
end
print(("gc_memory: %d misses"):format(misses))
if env_on("LTENSOR_BENCH_STRICT") and misses > 0 then os.exit(1) end
