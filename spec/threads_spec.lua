-- Threads: lt.set_num_threads / lt.get_num_threads, one process-wide count of threads for bulk
-- operations (SPEC.md "Threads"). Large operations split across the pool's workers; results are
-- the same at every count (ltensor cuts work into pieces by size alone and combines partial
-- sums in order), so the checks below compare exactly. Lua functions (map, apply) always run
-- on the calling thread. ctest also runs this file and math_spec.lua with
-- LTENSOR_NUM_THREADS=1 and =2 (spec_math_t1, spec_math_t2, spec_threads_t1, spec_threads_t2).
local lt = require "ltensor"
local raises = require("helpers").raises

-- Whether a and b hold the same values (NaN matching NaN), shape and dtype.
local function same(a, b)
  assert.equal(a.dtype, b.dtype)
  assert.same(a.shape, b.shape)
  local fa, fb = a:reshape(-1), b:reshape(-1)
  if fa.dtype == "float32" or fa.dtype == "float64" then
    local nan_a, nan_b = fa:ne(fa), fb:ne(fb)
    assert.equal(0, nan_a:ne(nan_b):sum(1):item())
    fa, fb = fa:masked_fill(nan_a, 0), fb:masked_fill(nan_b, 0)
  end
  assert.equal(0, fa:ne(fb):sum(1):item())
end

-- A set of large operations (about 1 MB each) on fixed inputs.
local function compute()
  local n = 300000
  local x = lt.arange(n, "float64"):mul(0.37):sin():mul(1000)
  local y = x:view(600, 500)
  local i = lt.arange(n, "int64"):remainder(1001):sub(500)
  return {
    x:add(1.5), y:mul(y), x:exp():log(), y:t():contiguous(), y:t():to("float32"), i:mul(i),
    i:floor_divide(7), x:gt(0), x:sum(1), y:sum(1), y:sum(2), y:argmax(1), y:t():argmax(2),
    i:sum(1), i:prod(1), x:var(1), x:std(1), x:mean(1), x:max(1), y:clamp(-10, 10),
    lt.where(x:gt(0), x, i:to("float64")), i:to("int32"):to("float32"),
  }
end

describe("the thread count", function()
  local saved
  before_each(function() saved = lt.get_num_threads() end)
  after_each(function() lt.set_num_threads(saved) end)

  it("is a positive integer, by default the cores or LTENSOR_NUM_THREADS", function()
    local n = lt.get_num_threads()
    assert.equal("integer", math.type(n))
    assert.is_true(n >= 1)
    local env = tonumber(os.getenv("LTENSOR_NUM_THREADS") or "")
    if env and env >= 1 then assert.equal(math.floor(env), n) end
  end)

  it("is set for the process and read back", function()
    lt.set_num_threads(3)
    assert.equal(3, lt.get_num_threads())
    lt.set_num_threads(1)
    assert.equal(1, lt.get_num_threads())
  end)

  it("must be a positive integer", function()
    raises("expected a positive number of threads", lt.set_num_threads, 0)
    raises("expected a positive number of threads", lt.set_num_threads, -2)
    raises("number expected", lt.set_num_threads, "many")
    raises("integer representation", lt.set_num_threads, 1.5)
    assert.equal(saved, lt.get_num_threads())
  end)
end)

describe("large operations on several threads", function()
  local saved
  before_each(function() saved = lt.get_num_threads() end)
  after_each(function() lt.set_num_threads(saved) end)

  it("give the same results at 1, 2 and 4 threads, run after run", function()
    lt.set_num_threads(1)
    local ref = compute()
    for _, n in ipairs({ 2, 4, 4 }) do
      lt.set_num_threads(n)
      local got = compute()
      assert.equal(#ref, #got)
      for k = 1, #ref do same(ref[k], got[k]) end
    end
  end)

  it("raise the same errors at every count", function()
    local z = lt.arange(300000, "int32"):remainder(1000) -- zeros at 1, 1001, ...
    local big = lt.full(300000, 1, "float64")
    big[200000] = 1e12
    for _, n in ipairs({ 1, 3 }) do
      lt.set_num_threads(n)
      raises("integer division by zero", z.floor_divide, lt.ones(300000, "int32"), z)
      raises("value 1000000000000 cannot be converted to int32", big.to, big, "int32")
    end
  end)

  it("run Lua functions (map, apply) on the calling thread, in order", function()
    lt.set_num_threads(4)
    local t = lt.arange(100000, "float32")
    local seen, last = 0, -1
    local ok = true
    local r = t:map(function(v)
      seen = seen + 1
      ok = ok and v == last + 1
      last = v
      return v * 2
    end)
    assert.is_true(ok)
    assert.equal(100000, seen)
    same(t:mul(2), r)
  end)
end)
