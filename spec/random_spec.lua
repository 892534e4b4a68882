-- Random numbers (issue 15, "Random"): generators, the documented Philox4x32-10 stream and its
-- transforms (src/core/ops/lt_random.h), the constructors and the in-place fills. The golden values
-- come from an independent reference written here in pure Lua (Philox on 32-bit masks of Lua
-- integers, checked against Random123's published known answers); the distributions are
-- checked with statistics on a million samples or more.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local raises = require("helpers").raises

-- {====== the reference stream ======

local M32 = 0xffffffff

-- Philox4x32-10 of the counter (c0..c3) under the key (k0, k1). Lua integers wrap modulo 2^64
-- and >> is a logical shift, so a product of two 32-bit words is exact and its halves are
-- (p >> 32) and (p & M32).
local function philox(c0, c1, c2, c3, k0, k1)
  for _ = 1, 10 do
    local p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
    c0, c1, c2, c3 = ((p1 >> 32) ~ c1 ~ k0) & M32, p1 & M32, ((p0 >> 32) ~ c3 ~ k1) & M32, p0 & M32
    k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
  end
  return c0, c1, c2, c3
end

-- The stream of a seed from block `offset` on: words(j) is word j (0-based).
local function stream(seed, offset)
  local cache, cached = {}, nil
  return function(j)
    local b = offset + j // 4
    if b ~= cached then
      cache = { philox(b & M32, b >> 32, 0, 0, seed & M32, seed >> 32) }
      cached = b
    end
    return cache[j % 4 + 1]
  end
end

-- floor(a * b / 2^64) of 64-bit unsigned a, b.
local function mulhi64(a, b)
  local alo, ahi, blo, bhi = a & M32, a >> 32, b & M32, b >> 32
  local ll, lh, hl, hh = alo * blo, alo * bhi, ahi * blo, ahi * bhi
  local mid = (ll >> 32) + (lh & M32) + (hl & M32)
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32)
end

local function x64(w, k) return w(2 * k) << 32 | w(2 * k + 1) end
local function u24(word) return (word >> 8) * 2.0 ^ -24 end
local function u53(x) return (x >> 11) * 2.0 ^ -53 end

local ref = {}
function ref.rand32(seed, offset, n)
  local w, r = stream(seed, offset), {}
  for k = 0, n - 1 do r[k + 1] = u24(w(k)) end
  return r
end
function ref.rand64(seed, offset, n)
  local w, r = stream(seed, offset), {}
  for k = 0, n - 1 do r[k + 1] = u53(x64(w, k)) end
  return r
end
function ref.randint(seed, offset, low, high, n)
  local w, r = stream(seed, offset), {}
  for k = 0, n - 1 do r[k + 1] = low + mulhi64(x64(w, k), high - low) end
  return r
end
-- Box-Muller on pairs of uniforms: element k of n from the pair of draws m = k // 2, the
-- uniforms uniform(w, j) of draw j.
local function box_muller(w, n, uniform)
  local r = {}
  for k = 0, n - 1 do
    local m = k // 2
    local u1, u2 = 1 - uniform(w, 2 * m), uniform(w, 2 * m + 1)
    local rr = math.sqrt(-2 * math.log(u1))
    r[k + 1] = k % 2 == 0 and rr * math.cos(2 * math.pi * u2) or rr * math.sin(2 * math.pi * u2)
  end
  return r
end
function ref.randn32(seed, offset, n)
  return box_muller(stream(seed, offset), n, function(w, j) return u24(w(j)) end)
end
function ref.randn64(seed, offset, n)
  return box_muller(stream(seed, offset), n, function(w, j) return u53(x64(w, j)) end)
end
function ref.randperm(seed, offset, n)
  local w, v = stream(seed, offset), {}
  for i = 1, n do v[i] = i end
  for i = n - 1, 1, -1 do -- 0-based position i, draw n - 1 - i
    local j = mulhi64(x64(w, n - 1 - i), i + 1)
    v[i + 1], v[j + 1] = v[j + 1], v[i + 1]
  end
  return v
end

local function offset_of(g)
  local _, offset = string.unpack("<I8I8", g:get_state())
  return offset
end

local function near_all(expected, actual, tol)
  assert.equal(#expected, #actual)
  for i = 1, #expected do
    assert.is_true(math.abs(expected[i] - actual[i]) <= tol,
      ("element %d: expected %.17g, got %.17g"):format(i, expected[i], actual[i]))
  end
end

-- }======

describe("the reference Philox4x32-10", function()
  it("gives Random123's known answers", function()
    assert.same({ 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 }, { philox(0, 0, 0, 0, 0, 0) })
    assert.same({ 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd },
      { philox(M32, M32, M32, M32, M32, M32) })
    assert.same({ 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 },
      { philox(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0) })
  end)
end)

describe("the stream", function()
  it("is Philox of (block, 0, 0) under the seed: randint over 2^32 gives the even words", function()
    local g = lt.Generator(0)
    -- range 2^32: floor(x * 2^32 / 2^64) is the first word of each pair
    local t = lt.randint(0, 1 << 32, { 2 }, { generator = g })
    assert.same({ 0x6627e8d5, 0xbc57ac4c }, t:tolist())
  end)
  it("gives rand float32 as (word >> 8) * 2^-24", function()
    for _, seed in ipairs({ 0, 1, 67280421310721, -1, 0x123456789abcdef }) do
      local g = lt.Generator(seed)
      assert.same(ref.rand32(seed, 0, 37), lt.rand(37, { generator = g }):tolist())
      assert.equal(10, offset_of(g)) -- ceil(37 / 4)
      assert.same(ref.rand32(seed, 10, 5), lt.rand(5, { generator = g }):tolist())
    end
  end)
  it("gives rand float64 as (two words >> 11) * 2^-53", function()
    local g = lt.Generator(2024)
    assert.same(ref.rand64(2024, 0, 9), lt.rand(9, { generator = g, dtype = "float64" }):tolist())
    assert.equal(5, offset_of(g)) -- 2 words each: ceil(18 / 4)
  end)
  it("gives randint as low + the high half of a 64-bit draw times the range", function()
    local g = lt.Generator(7)
    assert.same(ref.randint(7, 0, -3, 10, 11),
      lt.randint(-3, 10, { 11 }, { generator = g }):tolist())
    assert.equal(6, offset_of(g))
    local big = 1 << 40
    assert.same(ref.randint(7, 6, -big, big, 8),
      lt.randint(-big, big, { 8 }, { generator = g }):tolist())
    -- random_() on int64: [0, 2^63)
    local t = lt.empty(6, "int64"):random_({ generator = lt.Generator(3) })
    assert.same(ref.randint(3, 0, 0, math.mininteger, 6), t:tolist()) -- range 2^63 as unsigned
  end)
  it("gives randn float64 by Box-Muller on block-sized pairs", function()
    local g = lt.Generator(99)
    near_all(ref.randn64(99, 0, 11), lt.randn(11, { generator = g, dtype = "float64" }):tolist(),
      1e-12)
    assert.equal(6, offset_of(g))
  end)
  it("gives randn float32 by Box-Muller on word pairs, within float32 rounding", function()
    local g = lt.Generator(5)
    local n = 4096
    -- the angle 2 pi u2 rounds in float32: |error| <= r * 2^-22 with r <= sqrt(2 log 2^24)
    near_all(ref.randn32(5, 0, n), lt.randn(n, { generator = g }):tolist(), 4e-6)
    assert.equal(n // 4, offset_of(g))
    local r = lt.randn(3, { generator = g }):tolist()
    near_all(ref.randn32(5, n // 4, 3), r, 4e-6)
  end)
  it("scales normal and normal_ by mean and std", function()
    local z = ref.randn64(11, 0, 6)
    local t = lt.normal(3, 2, { 6 }, { generator = lt.Generator(11), dtype = "float64" })
    for i = 1, 6 do z[i] = 3 + 2 * z[i] end
    near_all(z, t:tolist(), 1e-12)
    local u = lt.empty(6, "float64"):normal_(3, 2, { generator = lt.Generator(11) })
    near_all(z, u:tolist(), 1e-12)
  end)
  it("gives normal with tensor means and stds as mean[i] + std[i] z, broadcast", function()
    local z = ref.randn64(12, 0, 6)
    local mean = lt.tensor({ { 1 }, { -1 } }, "float64") -- 2 x 1
    local std = lt.tensor({ 0.5, 1, 2 }, "float64")       -- 3
    local t = lt.normal(mean, std, { generator = lt.Generator(12) })
    assert.same({ 2, 3 }, t.shape)
    assert.equal("float64", t.dtype)
    local exp = {}
    for i = 0, 5 do exp[i + 1] = ({ 1, -1 })[i // 3 + 1] + ({ 0.5, 1, 2 })[i % 3 + 1] * z[i + 1] end
    near_all(exp, t:view(6):tolist(), 1e-12)
    local u = lt.normal(lt.full({ 4 }, 10.0), 0, { generator = lt.Generator(1) })
    assert.same({ 10, 10, 10, 10 }, u:tolist())
    assert.equal("float32", u.dtype)
    local w = lt.normal(5, lt.ones(3, "float64"), { generator = lt.Generator(12) })
    near_all({ 5 + z[1], 5 + z[2], 5 + z[3] }, w:tolist(), 1e-12)
    raises("std must be non%-negative, got %-1", lt.normal, 0, lt.tensor({ 1, -1 }))
    raises("normal: .*shape", lt.normal, lt.zeros(2), lt.zeros(3))
    raises("too many arguments", lt.normal, lt.zeros(2), 1, { 2 })
  end)
  it("gives bernoulli as word * 2^-32 < p", function()
    local w, exp = stream(8, 0), {}
    for k = 0, 19 do exp[k + 1] = w(k) * 2.0 ^ -32 < 0.3 and 1 or 0 end
    local t = lt.zeros(20, "int32"):bernoulli_(0.3, { generator = lt.Generator(8) })
    assert.same(exp, t:tolist())
    local p = lt.full({ 20 }, 0.3, "float64")
    assert.same(exp, lt.bernoulli(p, { generator = lt.Generator(8) }):tolist())
  end)
  it("gives randperm by Fisher-Yates from the end", function()
    local g = lt.Generator(31)
    assert.same(ref.randperm(31, 0, 17), lt.randperm(17, { generator = g }):tolist())
    assert.equal(9, offset_of(g)) -- a 2-word fill of 17 elements
  end)
  it("follows the tensor's row-major order whatever its strides", function()
    local t = lt.zeros(3, 5):t() -- 5 x 3, column-major
    t:uniform_({ generator = lt.Generator(4) })
    local flat, exp = {}, ref.rand32(4, 0, 15)
    for _, row in ipairs(t:tolist()) do
      for _, x in ipairs(row) do flat[#flat + 1] = x end
    end
    assert.same(exp, flat)
  end)
  it("rounds float16 and bfloat16 from the float32 draw", function()
    local h = lt.rand(50, { generator = lt.Generator(1), dtype = "float16" })
    local f = lt.rand(50, { generator = lt.Generator(1) }):to("float16")
    assert.same(f:tolist(), h:tolist())
    local b = lt.randn(50, { generator = lt.Generator(1), dtype = "bfloat16" })
    assert.same(lt.randn(50, { generator = lt.Generator(1) }):to("bfloat16"):tolist(), b:tolist())
  end)
  it("is the same at 1 and 2 threads", function()
    local before = lt.get_num_threads()
    local out = {}
    for n = 1, 2 do
      lt.set_num_threads(n)
      local g = lt.Generator(77)
      out[n] = { lt.randn(1 << 20, { generator = g }), lt.rand(1 << 20, { generator = g }),
        lt.randint(0, 1000, { 1 << 19 }, { generator = g }),
        lt.randn(1 << 19, { generator = g, dtype = "float64" }) }
    end
    lt.set_num_threads(before)
    for i = 1, 4 do assert.is_true(out[1][i]:equal(out[2][i])) end
  end)
end)

describe("generators", function()
  it("start from torch's default seed", function()
    assert.equal(67280421310721, lt.Generator():initial_seed())
    -- the process-wide generator, in a fresh process (other specs in this one may have seeded
    -- it: `luarocks test` runs every spec in one busted process)
    local p = assert(io.popen(
      [[lua5.4 -e "io.write(require('ltensor').default_generator:initial_seed())" 2>&1]]))
    local out = p:read("a")
    p:close()
    assert.equal("67280421310721", out)
  end)
  it("with the same seed agree, and differ from other seeds", function()
    local a, b = lt.Generator(123), lt.Generator(123)
    assert.is_true(lt.rand(1000, { generator = a }):equal(lt.rand(1000, { generator = b })))
    local c = lt.Generator(124)
    assert.is_false(lt.rand(1000, { generator = a }):equal(lt.rand(1000, { generator = c })))
  end)
  it("replay from get_state / set_state", function()
    local g = lt.Generator(5)
    lt.randn(10, { generator = g })
    local s = g:get_state()
    assert.equal(16, #s)
    local x = lt.rand(100, { generator = g })
    assert.equal(g, g:set_state(s))
    assert.is_true(x:equal(lt.rand(100, { generator = g })))
    local seed, offset = string.unpack("<I8I8", s)
    assert.equal(5, seed)
    assert.equal(3, offset)
  end)
  it("reseed with manual_seed, which returns the generator", function()
    local g = lt.Generator(1)
    local x = lt.rand(10, { generator = g })
    assert.equal(g, g:manual_seed(1))
    assert.is_true(x:equal(lt.rand(10, { generator = g })))
    assert.equal(1, g:initial_seed())
    local s = g:seed()
    assert.equal(s, g:initial_seed())
    assert.is_true(s >= 0)
  end)
  it("share one process generator behind lt.manual_seed", function()
    assert.equal(lt.default_generator, lt.manual_seed(42))
    assert.equal(42, lt.initial_seed())
    local x = lt.randn(8)
    lt.manual_seed(42)
    assert.is_true(x:equal(lt.randn(8)))
    local s = lt.seed()
    assert.equal(s, lt.initial_seed())
    assert.matches("Generator%(seed=%d+, offset=0%)", tostring(lt.default_generator))
  end)
  it("keep a generator alive while a call uses it", function()
    for _ = 1, 50 do
      local t = lt.rand(100, { generator = lt.Generator(1) })
      collectgarbage()
      assert.equal(100, t:numel())
    end
  end)
end)

describe("constructors", function()
  it("take shapes as sizes or a table, and make 0-d and empty tensors", function()
    assert.same({ 2, 3 }, lt.rand(2, 3).shape)
    assert.same({ 2, 3 }, lt.randn({ 2, 3 }).shape)
    assert.same({}, lt.rand({}).shape)
    assert.same({}, lt.randn().shape)
    assert.same({ 0, 4 }, lt.rand(0, 4).shape)
    assert.same({ 4 }, lt.randint(5, { 4 }).shape)
    assert.same({}, lt.randint(5, {}).shape)
    assert.same({ 2, 2 }, lt.randint(1, 5, 2, 2).shape)
    assert.same({ 0 }, lt.randperm(0).shape)
    assert.same({ 3 }, lt.normal(0, 1, 3).shape)
  end)
  it("make float32 by default, int64 for randint and randperm, and take a dtype", function()
    assert.equal("float32", lt.rand(2).dtype)
    assert.equal("float64", lt.randn(2, { dtype = "double" }).dtype)
    assert.equal("int64", lt.randint(3, { 2 }).dtype)
    assert.equal("int8", lt.randint(3, { 2 }, { dtype = "int8" }).dtype)
    assert.equal("float32", lt.randint(3, { 2 }, { dtype = "float32" }).dtype)
    assert.equal("int64", lt.randperm(3).dtype)
    assert.equal("int16", lt.randperm(3, { dtype = "int16" }).dtype)
    assert.same({ 1, 2, 3 }, (function()
      local v = lt.randperm(3, { dtype = "float64" }):tolist()
      table.sort(v)
      return v
    end)())
  end)
  it("take the dtype positionally too, the same draws as with the option", function()
    local function g() return { generator = lt.Generator(5) } end
    for _, make in ipairs({
      function(dt, o) return lt.rand(2, 3, dt, o) end,
      function(dt, o) return lt.randn({ 4 }, dt, o) end,
      function(dt, o) return lt.normal(1, 2, { 3 }, dt, o) end,
      function(dt, o) return lt.rand_like(lt.zeros(3), dt, o) end,
    }) do
      local a = make("float64", g())
      local o = g()
      o.dtype = "float64"
      local b = make(nil, o)
      assert.equal("float64", a.dtype)
      assert.same(a:tolist(), b:tolist())
    end
    assert.equal("int32", lt.randint(0, 9, { 2 }, "int32").dtype)
    assert.equal("int16", lt.randint(9, { 2 }, "int16").dtype)
    assert.equal("int8", lt.randperm(4, "int8").dtype)
    assert.equal("int8", lt.randint_like(lt.zeros(2), 0, 5, "int8").dtype)
    assert.equal("int8", lt.randint_like(lt.zeros(2), 5, "int8").dtype)
    raises("rand: dtype given twice", lt.rand, 2, "float64", { dtype = "float64" })
    raises("rand: too many arguments %(at most 2, then an options table%)", lt.rand, 2,
      "float64", 3)
  end)
  it("_like versions take the shape and dtype of a tensor", function()
    local t = lt.zeros({ 3, 2 }, "float64")
    local r = lt.rand_like(t)
    assert.same({ 3, 2 }, r.shape)
    assert.equal("float64", r.dtype)
    assert.equal("float32", lt.randn_like(t, { dtype = "float32" }).dtype)
    local i = lt.randint_like(lt.zeros(50, "int16"), 3)
    assert.equal("int16", i.dtype)
    assert.is_true(i:ge(0):all() and i:lt(3):all())
    local j = lt.randint_like(lt.zeros(50), -2, 2)
    assert.equal("float32", j.dtype)
    assert.is_true(j:ge(-2):all() and j:lt(2):all())
  end)
  it("randint stays in [low, high) and random_ in its forms", function()
    local t = lt.randint(-5, 5, { 10000 })
    assert.equal(-5, t:min())
    assert.equal(4, t:max())
    local u = lt.zeros(10000, "uint8"):random_()
    assert.equal(0, u:min())
    assert.equal(255, u:max())
    local v = lt.zeros(10000, "int32"):random_(7)
    assert.equal(0, v:min())
    assert.equal(6, v:max())
    local w = lt.zeros(10000, "float64"):random_(-3, 3)
    assert.equal(-3, w:min())
    assert.equal(2, w:max())
    assert.equal(0, w:frac():abs():max())
    local b = lt.zeros(1000, "bool"):random_()
    assert.is_true(b:any() and not b:all())
    local f = lt.zeros(1000, "float16"):random_()
    assert.is_true(f:max() <= 2048 and f:min() >= 0)
  end)
end)

describe("in-place fills", function()
  it("return the tensor and write non-contiguous views", function()
    local base = lt.zeros(4, 6)
    local v = base:narrow(2, 2, 3)
    assert.equal(v, v:uniform_(5, 6))
    assert.is_true(v:ge(5):all() and v:lt(6):all())
    assert.equal(0, base:narrow(2, 1, 1):abs():sum())
    assert.equal(0, base:narrow(2, 5, 2):abs():sum())
    local t = lt.zeros(3, 3):t()
    t:normal_()
    assert.is_true(t:ne(0):all())
  end)
  it("work on empty and 0-d tensors", function()
    local e = lt.zeros(0)
    assert.equal(e, e:uniform_())
    local z = lt.tensor(0.0)
    z:uniform_(2, 3)
    assert.is_true(z:item() >= 2 and z:item() < 3)
    local g = lt.Generator(1)
    lt.zeros(0):normal_({ generator = g })
    assert.equal(0, offset_of(g))
  end)
  it("respect copy-on-write clones", function()
    local t = lt.rand(1000)
    local before = t:clone()
    local c = t:clone()
    c:uniform_(2, 3)
    c:bernoulli_(0.5)
    assert.is_true(t:equal(before))
    assert.is_false(c:equal(t))
  end)
  it("bernoulli_ takes a tensor of probabilities broadcast to the tensor", function()
    local t = lt.zeros(1000, 2)
    t:bernoulli_(lt.tensor({ 0, 1 }))
    assert.same({ 0, 1000 }, t:sum(1):tolist())
  end)
  it("refuse read-only tensors and keep their data", function()
    local base = lt.zeros(4)
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(base))
    for _, m in ipairs({ "uniform_", "normal_", "random_", "bernoulli_" }) do
      raises("read%-only", ro[m], ro)
    end
    assert.equal(0, base:abs():sum())
  end)
  it("refuse expanded tensors, whose elements share memory", function()
    raises("refers to a single memory location",
      function() return lt.zeros(1):expand(4):uniform_() end)
  end)
end)

describe("statistics", function()
  local N = 1 << 20
  local g = lt.Generator(2718)

  -- chi-square over k equal bins from the cumulative counts of x < edge
  local function chi_square(t, edges, probs)
    local prev, chi = 0, 0
    for i, e in ipairs(edges) do
      local c = e and t:lt(e):sum() or t:numel()
      local exp = t:numel() * probs[i]
      chi = chi + (c - prev - exp) ^ 2 / exp
      prev = c
    end
    return chi
  end

  it("rand is uniform on [0, 1): mean, variance, chi-square over 100 bins", function()
    for _, dt in ipairs({ "float32", "float64" }) do
      local t = lt.rand(N, { generator = g, dtype = dt })
      assert.is_true(t:min() >= 0 and t:max() < 1)
      assert.is_true(math.abs(t:mean() - 0.5) < 5 * math.sqrt(1 / 12 / N))
      assert.is_true(math.abs(t:var() - 1 / 12) < 0.002)
      local edges, probs = {}, {}
      for i = 1, 100 do
        edges[i] = i < 100 and i / 100 or false
        probs[i] = 0.01
      end
      -- 99 degrees of freedom: P(chi2 > 180) is about 1e-6
      assert.is_true(chi_square(t, edges, probs) < 180)
    end
  end)
  it("uniform_(a, b) covers [a, b)", function()
    local t = lt.empty(N):uniform_(-2, 6, { generator = g })
    assert.is_true(t:min() >= -2 and t:max() < 6)
    assert.is_true(math.abs(t:mean() - 2) < 0.02)
  end)
  it("randn is standard normal: mean, variance, Kolmogorov-Smirnov", function()
    for _, dt in ipairs({ "float32", "float64" }) do
      local t = lt.randn(N, { generator = g, dtype = dt })
      assert.is_true(math.abs(t:mean()) < 5 / math.sqrt(N))
      assert.is_true(math.abs(t:var() - 1) < 0.01)
      -- D over a grid of 161 points in [-4, 4] (the largest gap of the empirical CDF there)
      local xs = {}
      for i = 0, 160 do xs[#xs + 1] = -4 + i * 0.05 end
      local cdf = lt.tensor(xs, "float64"):div(math.sqrt(2)):erf():add(1):mul(0.5):tolist()
      local d = 0
      for i, x in ipairs(xs) do d = math.max(d, math.abs(t:lt(x):sum() / N - cdf[i])) end
      assert.is_true(d * math.sqrt(N) < 2.0, "KS statistic " .. d * math.sqrt(N))
    end
  end)
  it("randint hits every value with equal frequency", function()
    local t = lt.randint(0, 10, { N }, { generator = g })
    for v = 0, 9 do
      local c = t:eq(v):sum()
      assert.is_true(math.abs(c - N / 10) < 5 * math.sqrt(N * 0.09), "value " .. v .. ": " .. c)
    end
  end)
  it("randperm is a permutation", function()
    local v = lt.randperm(5000, { generator = g }):tolist()
    local seen = {}
    for _, x in ipairs(v) do
      assert.is_nil(seen[x])
      assert.is_true(x >= 1 and x <= 5000)
      seen[x] = true
    end
    -- each position is uniform: the first element over many permutations of 4
    local first = { 0, 0, 0, 0 }
    for _ = 1, 4000 do
      local p = lt.randperm(4, { generator = g })
      first[p[1]] = first[p[1]] + 1
    end
    for i = 1, 4 do assert.is_true(math.abs(first[i] - 1000) < 150) end
  end)
  it("bernoulli has frequency p", function()
    local p = lt.full({ N }, 0.25, "float64")
    local b = lt.bernoulli(p, { generator = g })
    assert.equal("float64", b.dtype)
    assert.is_true(math.abs(b:mean() - 0.25) < 5 * math.sqrt(0.25 * 0.75 / N))
    assert.is_true(b:eq(0):logical_or(b:eq(1)):all())
  end)
  it("multinomial with replacement draws categories in proportion", function()
    local probs = lt.tensor({ 1, 0, 2, 3, 4 }, "float64")
    local s = lt.multinomial(probs, 100000, true, { generator = g })
    assert.same({ 100000 }, s.shape)
    assert.equal("int64", s.dtype)
    assert.equal(0, s:eq(2):sum())
    for c, p in pairs({ [1] = 0.1, [3] = 0.2, [4] = 0.3, [5] = 0.4 }) do
      local f = s:eq(c):sum() / 100000
      assert.is_true(math.abs(f - p) < 5 * math.sqrt(p * (1 - p) / 100000), c .. ": " .. f)
    end
  end)
  it("multinomial without replacement draws distinct categories, the first in proportion",
  function()
    local rows = 20000
    local probs = lt.tensor({ 0.1, 0.2, 0, 0.3, 0.4 }):expand(rows, 5)
    local s = lt.multinomial(probs, 4, false, { generator = g })
    assert.same({ rows, 4 }, s.shape)
    local l = s:narrow(1, 1, 200):tolist()
    for _, row in ipairs(l) do
      local seen = {}
      for _, c in ipairs(row) do
        assert.is_nil(seen[c])
        assert.are_not.equal(3, c)
        seen[c] = true
      end
    end
    local first = s:select(2, 1)
    for c, p in pairs({ [1] = 0.1, [2] = 0.2, [4] = 0.3, [5] = 0.4 }) do
      local f = first:eq(c):sum() / rows
      assert.is_true(math.abs(f - p) < 5 * math.sqrt(p * (1 - p) / rows), c .. ": " .. f)
    end
    -- n = the nonzero count: every nonzero category once
    local all = lt.multinomial(lt.tensor({ 0.5, 0, 0.5 }), 2, { generator = g }):tolist()
    table.sort(all)
    assert.same({ 1, 3 }, all)
  end)
  it("multinomial draws in proportion whatever the scale of finite weights", function()
    -- 1.7e308 twice sums to inf: every draw used to land on the last category
    local n = 20000
    for _, w in ipairs({ 1.7e308, 1e-310 }) do
      local s = lt.multinomial(lt.tensor({ w, w }, "float64"), n, true, { generator = g })
      local f = s:eq(1):sum() / n
      assert.is_true(math.abs(f - 0.5) < 5 * math.sqrt(0.25 / n), w .. ": " .. f)
      local first = lt.multinomial(lt.tensor({ w, w }, "float64"):expand(n, 2), 1, false,
        { generator = g }):eq(1):sum() / n
      assert.is_true(math.abs(first - 0.5) < 5 * math.sqrt(0.25 / n), w .. ": " .. first)
    end
    -- the largest weight dwarfs the smallest: the small one is (almost) never drawn
    local s = lt.multinomial(lt.tensor({ 1e300, 1.7e308 }, "float64"), 1000, true, { generator = g })
    assert.equal(1000, s:eq(2):sum())
  end)
end)

describe("errors", function()
  it("name the bad argument", function()
    raises("low must be below high", lt.randint, 5, 5, { 3 })
    raises("low must be below high", lt.randint, 0, { 3 })
    raises("does not fit uint8", lt.randint, 0, 300, { 2 }, { dtype = "uint8" })
    raises("does not fit int8", lt.randint, -200, 0, { 2 }, { dtype = "int8" })
    raises("high", lt.randint, 0, 1.5, { 2 })
    raises("expected a real dtype", lt.randint, 0, 2, { 2 }, { dtype = "complex64" })
    raises("shape", lt.randint, 0, 2)
    raises("dtype must be a floating dtype, got int64", lt.rand, 3, { dtype = "int64" })
    raises("randn: dtype must be a floating dtype", lt.randn, 3, { dtype = "int32" })
    raises("std must be non%-negative", lt.normal, 0, -1, { 2 })
    raises("std must be non%-negative", function() return lt.zeros(2):normal_(0, -1) end)
    raises("n must be non%-negative", lt.randperm, -1)
    raises("int8 cannot hold 300", lt.randperm, 300, { dtype = "int8" })
    raises("^bernoulli: probability must be in %[0, 1%], got 1.5",
      lt.bernoulli, lt.tensor({ 0.5, 1.5 }))
    raises("random_spec%.lua:%d+: bernoulli_: probability must be in %[0, 1%]",
      function() return lt.zeros(2):bernoulli_(2) end) -- where the script called it
    raises("probability must be in %[0, 1%], got %-0.5",
      function() return lt.zeros(2):bernoulli_(lt.tensor({ -0.5 })) end)
    raises("floating dtype", lt.bernoulli, lt.tensor({ 1, 0 }))
    raises("b must be at least a", function() return lt.zeros(2):uniform_(1, 0) end)
    -- as torch: finite bounds in the dtype's range, b - a within it (NaN fills before)
    raises("random_spec%.lua:%d+: uniform_: a = %-inf is out of bounds for float64",
      function() return lt.zeros(2, "float64"):uniform_(-math.huge, math.huge) end)
    raises("random_spec%.lua:%d+: uniform_: b = inf is out of bounds for float32",
      function() return lt.zeros(2):uniform_(0, math.huge) end)
    raises("random_spec%.lua:%d+: uniform_: a = %-1e%+39 is out of bounds for float32",
      function() return lt.zeros(2):uniform_(-1e39, 0) end)
    raises("random_spec%.lua:%d+: uniform_: b %- a must be at most the largest float64",
      function() return lt.zeros(2, "float64"):uniform_(-1.7e308, 1.7e308) end)
    raises("random_spec%.lua:%d+: uniform_: b %- a must be at most the largest float16 %(65504%)",
      function() return lt.zeros(2, "float16"):uniform_(-60000, 60000) end)
    assert.same({ 1, 1 }, lt.zeros(2, "float64"):uniform_(1, 1):tolist())
    raises("random_spec%.lua:%d+: uniform_: expected a floating dtype, got int64",
      function() return lt.zeros(2, "int64"):uniform_() end)
    raises("random_spec%.lua:%d+: bernoulli_: expected a real dtype, got complex64",
      function() return lt.zeros(2, "complex64"):bernoulli_() end)
    raises("std must be non%-negative, got nan", lt.normal, 0, 0 / 0, { 2 })
    raises("random_: too many arguments %(at most 2 after the tensor, then an options table%)",
      function() return lt.zeros(2):random_(1, 2, 3) end)
    raises("expected a floating dtype", function() return lt.zeros(2, "int32"):normal_() end)
    raises("does not fit uint8", function() return lt.zeros(2, "uint8"):random_(0, 257) end)
    raises("low must be below high", function() return lt.zeros(2):random_(0) end)
  end)
  it("refuse bad multinomial probabilities and counts", function()
    raises("^multinomial: probabilities must be finite and non%-negative, got %-1",
      lt.multinomial, lt.tensor({ 0.5, -1 }), 1)
    raises("finite and non%-negative, got inf", lt.multinomial, lt.tensor({ 0.5, math.huge }), 1)
    raises("finite and non%-negative, got nan", lt.multinomial, lt.tensor({ 0.5, 0 / 0 }), 1)
    raises("row 2 sum to zero", lt.multinomial, lt.tensor({ { 1.0, 1 }, { 0.0, 0 } }), 1)
    raises("cannot draw 3 samples without replacement from 2 categories",
      lt.multinomial, lt.tensor({ 1.0, 0, 1 }), 3)
    raises("number of samples must be positive", lt.multinomial, lt.tensor({ 1.0, 1 }), 0)
    raises("1%-d or 2%-d", lt.multinomial, lt.zeros(2, 2, 2), 1)
    raises("floating dtype", lt.multinomial, lt.tensor({ 1, 2 }), 1)
    raises("no categories", lt.multinomial, lt.zeros(0), 1)
    raises("replacement must be a boolean", lt.multinomial, lt.tensor({ 1.0, 2 }), 1, 1)
  end)
  it("name unknown options and bad generators", function()
    raises("rand: unknown option 'seed' %(expected generator or dtype%)", lt.rand, 3, { seed = 1 })
    raises("uniform_: unknown option 'dtype' %(expected generator%)",
      function() return lt.zeros(2):uniform_({ dtype = "float32" }) end)
    raises("randn: generator must be a Generator, got number", lt.randn, 3, { generator = 5 })
    raises("rand: unknown dtype 'flaot'", lt.rand, 3, { dtype = "flaot" })
    raises("randperm: too many arguments %(at most 2, then an options table%)", lt.randperm, 3,
      "int32", 4)
    raises("Generator expected", lt.default_generator.manual_seed, {}, 1)
  end)
  it("set_state refuses a state of the wrong size", function()
    local g = lt.Generator(1)
    raises("state must be the 16 bytes get_state gives, got 15", g.set_state, g, ("x"):rep(15))
    raises("string expected", g.set_state, g, nil)
    assert.equal(1, g:initial_seed())
  end)
end)
