-- The vector paths (src/core/simd/lt_cpu.h, lt_simd.h): the kernels of the vector math, the
-- elementwise loops, the reductions and the random fills are compiled for plain C, AVX2 and
-- AVX-512, and run the processor's widest path unless the environment variable LTENSOR_SIMD
-- (scalar, avx2, avx512; read once) caps it. lt.config() reports the path in use. Each path is
-- run here in a child lua5.4 on the same data: the reductions, elementwise kernels and random
-- fills give the same bits on every path; the vector math agrees within 1 ulp (the wider paths
-- contract multiplies and adds into FMAs).
local lt = require "ltensor"

local paths = { "scalar", "avx2", "avx512" }
local rank = { scalar = 1, avx2 = 2, avx512 = 3 }

-- What a child computes: each line a label and the exact values (%a) of a result.
local script = [[
local lt = require "ltensor"
local function dump(label, v)
  if type(v) ~= "table" then v = { v } end
  local parts = {}
  for i, x in ipairs(v) do parts[i] = type(x) == "number" and ("%a"):format(x) or tostring(x) end
  io.write(label, " ", table.concat(parts, ","), "\n")
end
local c = lt.config()
dump("simd", c.simd .. " " .. c.simd_max)
lt.manual_seed(1234)
for _, dt in ipairs({ "float32", "float64" }) do
  local x = lt.randn({ 5003 }, { dtype = dt }) * 10
  dump(dt .. " rand", lt.rand({ 777 }, { dtype = dt }):tolist())
  dump(dt .. " randn", lt.randn({ 1031 }, { dtype = dt }):tolist())
  dump(dt .. " normal_", lt.empty({ 3, 129 }, { dtype = dt }):t():normal_(2, 3):tolist()[1])
  dump(dt .. " uniform_", lt.empty({ 515 }, { dtype = dt }):uniform_(-2, 5):tolist())
  dump(dt .. " sum", x:sum())
  dump(dt .. " mean rows", x:narrow(1, 1, 5000):view(50, 100):mean(2):tolist())
  dump(dt .. " max", { x:max(), x:argmax() })
  dump(dt .. " min", { x:min(), x:argmin() })
  dump(dt .. " max dim", x:narrow(1, 1, 5000):view(100, 50):max(2):tolist())
  local y = x:clone()
  y[4001] = 0 / 0
  dump(dt .. " max nan", { tostring(y:max()), y:argmax(), y:argmin() })
  dump(dt .. " floor", x:floor():narrow(1, 1, 300):tolist())
  dump(dt .. " round", x:round():narrow(1, 1, 300):tolist())
  dump(dt .. " abs", x:abs():narrow(1, 1, 300):tolist())
  dump(dt .. " clamp", x:clamp(-3, 4):narrow(1, 1, 300):tolist())
end
dump("randint", lt.randint(-50, 1000, { 999 }):tolist())
-- 16M float32 normals, as the sum of their bit patterns: FMA contraction in their log, sin or cos
-- changes two of these (seed 99) on the wider paths
lt.manual_seed(99)
dump("randn 16M bits", lt.randn({ 1 << 24 }):view("int32"):to("int64"):sum())
dump("isum", lt.randint(-1000, 1000, { 4099 }):sum())
local v = lt.linspace(-30, 30, 2001, { dtype = "float32" })
for _, f in ipairs({ "exp", "log", "tanh", "sin", "cos", "sigmoid", "erf", "atan" }) do
  dump("vmath " .. f, v[f](v):tolist())
end
]]

-- Runs the script in a child lua5.4 with LTENSOR_SIMD = path: label -> values (strings).
local function run(path)
  local f = os.tmpname()
  local h = assert(io.open(f, "w"))
  h:write(script)
  h:close()
  local p = assert(io.popen("LTENSOR_SIMD=" .. path .. " lua5.4 " .. f .. " 2>&1"))
  local out = p:read("a")
  local ok = p:close()
  os.remove(f)
  assert(ok, "the child on " .. path .. " failed: " .. out:sub(-600))
  local res = {}
  for label, vals in out:gmatch("([^\n]-) (%S+)\n") do res[label] = vals end
  res.simd = out:match("simd (%S+ %S+)\n")
  return res
end

-- The distance in ulps of two float32 values given as %a strings.
local function ulps(a, b)
  local special = { inf = 1 / 0, ["-inf"] = -1 / 0, nan = 0 / 0, ["-nan"] = 0 / 0 }
  local x, y = tonumber(a) or special[a], tonumber(b) or special[b]
  if x ~= x or y ~= y then return (x ~= x and y ~= y) and 0 or math.huge end
  local function key(v)
    local u = string.unpack("<i4", string.pack("<f", v))
    return u < 0 and -(u & 0x7fffffff) or u
  end
  return math.abs(key(x) - key(y))
end

local function split(s)
  local t = {}
  for v in s:gmatch("[^,]+") do t[#t + 1] = v end
  return t
end

describe("the vector paths (LTENSOR_SIMD)", function()
  it("reports the path in use and the processor's widest in lt.config()", function()
    local c = lt.config()
    assert.is_not_nil(rank[c.simd])
    assert.is_not_nil(rank[c.simd_max])
    assert.is_true(rank[c.simd] <= rank[c.simd_max])
    local cap = os.getenv("LTENSOR_SIMD")
    if rank[cap] then
      assert.equal(math.min(rank[cap], rank[c.simd_max]), rank[c.simd])
    else
      assert.equal(c.simd_max, c.simd)
    end
  end)

  it("caps the path at LTENSOR_SIMD, never above the processor's, and ignores an unknown value",
    function()
      local widest = lt.config().simd_max
      for _, p in ipairs(paths) do
        local got = run(p).simd
        local want = paths[math.min(rank[p], rank[widest])]
        assert.equal(want .. " " .. widest, got)
      end
      assert.equal(widest .. " " .. widest, run("sse9").simd)
    end)

  it("gives the same reductions, elementwise results and random numbers on every path, and the "
    .. "vector math within 1 ulp", function()
      local base = run("scalar")
      for _, p in ipairs({ "avx2", "avx512" }) do
        local other = run(p)
        local n = 0
        for label, vals in pairs(base) do
          if label:match("^simd") then goto continue end
          n = n + 1
          assert.is_not_nil(other[label], label .. " missing on " .. p)
          if label:match("^vmath") then
            local a, b = split(vals), split(other[label])
            assert.equal(#a, #b)
            for i = 1, #a do
              assert(ulps(a[i], b[i]) <= 1, ("%s[%d]: %s on scalar, %s on %s"):format(label, i, a[i],
                b[i], p))
            end
          else
            assert(vals == other[label], label .. " differs between scalar and " .. p)
          end
          ::continue::
        end
        assert.is_true(n > 30)
      end
    end)
end)
