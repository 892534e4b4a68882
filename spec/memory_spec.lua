-- Tensor memory the collector sees, under every collector mode, and the budget a script reads
-- and lowers. The loops run in fresh lua5.4 processes, as a user runs a script: the stock
-- interpreter starts the generational collector, a host often runs the incremental one.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

local helpers = require "helpers"

-- Under AddressSanitizer (preloaded for lua5.4) freed memory waits in a quarantine and the
-- shadow memory counts: resident memory says nothing there, the account still does.
local SANITIZED = (os.getenv("LD_PRELOAD") or ""):find("san") ~= nil
local MiB = 1024 * 1024

local function tmpname(ext)
  local p = os.tmpname()
  os.remove(p)
  return p .. ext
end

-- Runs `body` (a chunk using lt, dlpack, x, N and any globals `prep` made) in a fresh lua5.4
-- with the collector set up by `setup`, N times in a loop at chunk level, and returns the most
-- tensor memory in use at once (bytes) and the peak resident memory (bytes).
local function run_child(setup, prep, body, n)
  local script = tmpname(".lua")
  local f = assert(io.open(script, "w"))
  f:write(setup, "\n",
    "local lt = require 'ltensor'\n",
    "local dlpack = require 'ltensor.dlpack'\n",
    "local N = ", n, "\n",
    "local x = lt.ones(2 * 1024 * 1024) -- 8 MiB, alive throughout\n",
    prep, "\n",
    "for i = 1, N do\n", body, "\nend\n",
    "local hwm\n",
    "for l in io.lines('/proc/self/status') do hwm = hwm or l:match('^VmHWM:%s*(%d+)') end\n",
    "print('RESULT', lt.config().memory_peak, hwm * 1024)\n")
  f:close()
  -- the block cache off: resident memory then shows what is alive, not what is kept for reuse
  local p = assert(io.popen("LTENSOR_BLOCK_CACHE=0 lua5.4 " .. script .. " 2>&1"))
  local out = p:read("a")
  p:close()
  os.remove(script)
  local peak, hwm = out:match("RESULT%s+(%d+)%s+(%d+)")
  assert(peak, "the child failed:\n" .. out)
  return tonumber(peak), tonumber(hwm)
end

local modes = {
  { "the stock generational collector", "" },
  { "the incremental collector", "collectgarbage('incremental')" },
  { "a tuned generational collector", "collectgarbage('generational', 50, 300)" },
  { "a tuned incremental collector", "collectgarbage('incremental', 400, 400)" },
}

-- Loop bodies over x (8 MiB of float32); each makes 8 MiB or more of tensor memory a turn,
-- which piles up (N * 8 MiB) when the collector does not see it.
local npy = tmpname(".npy")
local loops = {
  { "operators", "local y = (x * 2 + 1) / 3" },
  { "an operator at chunk level", "y = x * 2" },
  { "a view of a result", "local y = (x * 2):view(1024, -1)[1]" },
  { "a method", "local y = x:exp()" },
  { "sort", "local v, k = s:sort()", "s = lt.rand(512 * 1024)" },
  { "copy-on-write writes", "local y = x:clone(); y:add_(1)" },
  { "an in-place write of a view of a clone", "local y = x:clone(); y[{{1, 4}}] = 5" },
  { "masks and index tensors", "local y = x[mask]; local z = x[idx]",
    "mask = x:gt(0); idx = lt.arange(1, 2 * 1024 * 1024 + 1)" },
  { "gather", "local y = x:gather(1, idx)", "idx = lt.arange(1, 2 * 1024 * 1024 + 1)" },
  { "conversions", "local y = x:to('float64')" },
  { "lt.cat", "local y = lt.cat({x, x})" },
  { "random fills", "local y = lt.rand(2 * 1024 * 1024); y:normal_()" },
  { "file loads", "local y = lt.load(NPY)", "NPY = " .. ("%q"):format(npy) },
  { "mapped file loads", "local y = lt.load(NPY, {mmap = true})", "NPY = " .. ("%q"):format(npy) },
  { "DLPack imports", "local y = dlpack.from_dlpack(x:__dlpack{copy = true})" },
}

describe("memory the garbage collector sees", function()
  setup(function() lt.save(npy, lt.ones(2 * 1024 * 1024)) end)
  teardown(function() os.remove(npy) end)

  for _, mode in ipairs(modes) do
    describe("under " .. mode[1], function()
      for _, loop in ipairs(loops) do
        it("stays bounded in a loop of " .. loop[1], function()
          local n = SANITIZED and 24 or 40 -- either way past the bound below if nothing frees
          local peak, hwm = run_child(mode[2], loop[3] or "", loop[2], n)
          -- without the collector seeing tensor memory, n turns keep n * 8 MiB or more alive
          assert.is_true(peak <= 120 * MiB,
            ("%d MiB of tensors in use at once"):format(peak // MiB))
          if not SANITIZED then
            assert.is_true(hwm <= peak + 160 * MiB,
              ("peak resident memory %d MiB, tensors %d MiB"):format(hwm // MiB, peak // MiB))
          end
        end)
      end
    end)
  end

  it("keeps the generational collector's young collections for the Lua heap alone", function()
    -- a loop that makes no tensors: the account asks for no collection at all
    local before = collectgarbage("count")
    local t = lt.ones(4)
    for _ = 1, 10000 do local _ = t[1] end
    assert.is_true(collectgarbage("count") - before < 4096)
  end)
end)

describe("the collector's extra steps", function()
  after_each(function() collectgarbage("generational") end)

  it("stay linear when one call makes many views kept in one table", function()
    -- every 256 new tensors took a collector step, which can cost the whole heap (here each
    -- step finishes a cycle): 2^18 pieces took 57 s, 2^20 over 3 min
    collectgarbage("incremental", 200, 100, 100)
    local t0 = os.clock()
    local pieces = lt.zeros(1):expand(2 ^ 18):split(1)
    local took = os.clock() - t0
    assert.equal(2 ^ 18, #pieces)
    assert.is_true(took < (SANITIZED and 20 or 8), ("%.1f s"):format(took))
  end)
end)

describe("the memory budget", function()
  after_each(function()
    lt.config{memory_limit = false}
    collectgarbage()
  end)

  it("reports the tensor memory in use, exactly, and what it was after frees", function()
    collectgarbage()
    local base = lt.config().memory_used
    local a = lt.zeros(1000, 1000)            -- 4,000,000 bytes
    local b = lt.zeros(10, "float64")          -- 80
    assert.equal(base + 4000080, lt.config().memory_used)
    local v = a:view(-1)                      -- views take no memory
    assert.equal(base + 4000080, lt.config().memory_used)
    a, b, v = nil, nil, nil
    collectgarbage()
    assert.equal(base, lt.config().memory_used)
    assert.is_true(lt.config().memory_peak >= base + 4000080)
  end)

  it("charges a copy-on-write clone when a write gives it its own memory", function()
    local a = lt.ones(1000)
    collectgarbage()
    local used = lt.config().memory_used
    local c = a:clone()
    assert.equal(used, lt.config().memory_used)
    c:add_(1)
    assert.equal(used + 4000, lt.config().memory_used)
    local d = a:clone()
    d[1] = 7                                    -- an element write does too
    assert.equal(used + 8000, lt.config().memory_used)
  end)

  it("raises before allocating what would pass it", function()
    collectgarbage()
    lt.config{memory_limit = lt.config().memory_used + 10 * MiB}
    local keep = lt.ones(2 * MiB // 4)
    helpers.raises("not enough memory %(budget %d+ bytes", lt.ones, 3 * MiB)
    helpers.raises("not enough memory %(budget", lt.empty, 1e12) -- never reaches the system
    helpers.raises("not enough memory %(budget", function() return lt.ones(1) + lt.ones(9 * MiB // 4) end)
    assert.equal(2 * MiB, keep:nbytes())
  end)

  it("tries one full collection before it raises", function()
    collectgarbage()
    lt.config{memory_limit = lt.config().memory_used + 10 * MiB}
    collectgarbage("stop") -- nothing but the budget collects now
    for _ = 1, 20 do local _ = lt.ones(MiB // 4) end -- 20 MiB made, all dead
    local t = lt.ones(6 * MiB // 4)
    collectgarbage("restart")
    assert.equal(6 * MiB, t:nbytes())
  end)

  it("is lowered by a script and raised again, and counts toward no other state", function()
    lt.config{memory_limit = 12345678}
    assert.equal(12345678, lt.config().memory_limit)
    lt.config{memory_limit = math.huge}
    assert.is_nil(lt.config().memory_limit)
    helpers.raises("memory_limit must not be negative", lt.config, {memory_limit = -1})
    helpers.raises("memory_limit must be a byte count", lt.config, {memory_limit = "1"})
    helpers.raises("unknown option 'memory'", lt.config, {memory = 1})
  end)

  it("counts imports, loads and mapped files", function()
    local path = tmpname(".npy")
    lt.save(path, lt.zeros(1 * MiB // 4))
    collectgarbage()
    local used = lt.config().memory_used
    local m = lt.load(path, {mmap = true})
    assert.is_true(lt.config().memory_used >= used + MiB) -- the whole mapping
    local l = lt.load(path)
    assert.is_true(lt.config().memory_used >= used + 2 * MiB)
    lt.config{memory_limit = lt.config().memory_used + MiB // 2}
    helpers.raises("not enough memory %(budget", lt.load, path, {mmap = true})
    helpers.raises("not enough memory %(budget", lt.load, path)
    m, l = nil, nil
    collectgarbage()
    assert.equal(used, lt.config().memory_used)
    lt.config{memory_limit = false}
    local c = dlpack.from_dlpack(lt.ones(1000):__dlpack{copy = true})
    assert.equal(4000, c:nbytes())
    os.remove(path)
  end)

  it("counts the bytes of an .npz member while its tensor is made from them", function()
    local path = tmpname(".npz")
    lt.save(path, {a = lt.zeros(2 * MiB // 4)}) -- stored: 2 MiB read, then a 2 MiB tensor
    collectgarbage()
    lt.config{memory_limit = lt.config().memory_used + 3 * MiB}
    helpers.raises("member 'a.npy': not enough memory %(budget", lt.load, path)
    lt.config{memory_limit = lt.config().memory_used + 5 * MiB}
    assert.equal(2 * MiB, lt.load(path).a:nbytes())
    collectgarbage()
    assert.is_true(lt.config().memory_peak >= 4 * MiB)
    os.remove(path)
  end)
end)

describe("a collection inside an allocation", function()
  -- Over the budget (or past the collector's trigger) an allocation collects before it takes
  -- memory; the finalizers that collection runs must not pull memory from under the operation.
  local function armed(fn, ...)
    collectgarbage()
    collectgarbage("stop")                           -- only the budget collects now
    local base = lt.config().memory_used
    local a = lt.ones(64 * 1024)                     -- 256 KiB, the operation's input
    do local _ = a:clone() end                       -- a dead clone shares a's block
    local seen                                       -- (finalized after the one below)
    setmetatable({}, { __gc = function()
      local ok, err = pcall(function() a:add_(1) end) -- would move a to a block of its own
      seen = ok and "written" or tostring(err)
    end })
    for _ = 1, 8 do local _ = lt.ones(64 * 1024) end -- 2 MiB of garbage
    lt.config{memory_limit = base + 4 * 256 * 1024} -- what is alive fits, not the garbage
    local r = table.pack(pcall(fn, a, ...))
    collectgarbage("restart")
    lt.config{memory_limit = false}
    return seen, a, table.unpack(r, 1, r.n)
  end
  after_each(function() collectgarbage("restart") end)

  it("refuses a finalizer's write that would give the operation's input a block of its own", function()
    local seen, a, ok, r = armed(function(a) return a * 2 end)
    assert.is_true(ok, tostring(r))
    assert.matches("while the collector runs inside an allocation", seen)
    assert.is_true(r:eq(2):all())
    assert.is_true(a:eq(1):all())
  end)

  it("keeps every operation's inputs while it allocates", function()
    for _, f in ipairs{
      function(a) return a:sort() end,
      function(a) return lt.cat({a, a}) end,
      function(a) return a:cumsum(1) end,
      function(a) return a[a:gt(0)] end,
      function(a) return a:to("float64") end,
    } do
      local seen, a, ok, r = armed(f)
      assert.is_true(ok, tostring(r))
      assert.is_not_nil(seen)
      assert.is_true(a:eq(1):all())
    end
  end)
end)

describe("memory given back", function()
  it("unmaps what a script dropped, beyond the block cache", function()
    if SANITIZED then return end
    local script = tmpname(".lua")
    local f = assert(io.open(script, "w"))
    f:write([[
local lt = require "ltensor"
local function rss()
  for l in io.lines("/proc/self/status") do
    local kb = l:match("^VmRSS:%s*(%d+)") if kb then return kb * 1024 end
  end
end
local sizes = {64 * 1024, 1024 * 1024, 3 * 1000 * 1000}
for _, n in ipairs(sizes) do
  local keep = {}
  for i = 1, 400 * 1024 * 1024 // n do keep[i] = lt.ones(n // 4) end
  local pins = {}
  for i = 1, 100 do pins[i] = lt.ones(10) end -- small allocations above the big ones
  local held = rss()
  keep = nil
  collectgarbage()
  collectgarbage()
  print("SIZE", n, held, rss())
end
]])
    f:close()
    local p = assert(io.popen("LTENSOR_BLOCK_CACHE=0 lua5.4 " .. script .. " 2>&1"))
    local out = p:read("a")
    p:close()
    os.remove(script)
    local count = 0
    for n, held, after in out:gmatch("SIZE%s+(%d+)%s+(%d+)%s+(%d+)") do
      count = count + 1
      assert.is_true(tonumber(held) >= 400 * MiB)
      assert.is_true(tonumber(after) < 100 * MiB,
        ("%s-byte tensors: %d MiB resident after the drop"):format(n, tonumber(after) // MiB))
    end
    assert.equal(3, count, out)
  end)
end)
