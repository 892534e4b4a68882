-- sort, argsort, topk, kthvalue, median, mode, unique, cumsum, cumprod, cummax, cummin,
-- searchsorted, bincount and histc (issue 15, "Sorting and scans"): torch 2.x names, positional
-- order and results; dims and every returned position 1-based. The expected values are worked
-- out here from the definitions (a plain Lua sort of (value, position) pairs for the random
-- cases); spec/c/numpy_host_sort.h and spec/c/torch_host_sort.h compare with NumPy and torch
-- 1.13 on the same data.
local lt = require "ltensor"
local raises = require("helpers").raises

local nan = 0 / 0
local function isnan(x) return x ~= x end

-- Nested lists equal, NaN matching NaN.
local function same(expected, actual)
  if type(expected) == "table" then
    assert.equal(#expected, #actual)
    for i = 1, #expected do same(expected[i], actual[i]) end
  elseif isnan(expected) then
    assert.is_true(isnan(actual), "expected nan, got " .. tostring(actual))
  else
    assert.equal(expected, actual)
  end
end

-- The stable ascending (or descending) order of the list xs, NaN largest: positions.
local function order(xs, descending)
  local p = {}
  for i = 1, #xs do p[i] = i end
  local function key_lt(a, b) -- a < b with NaN largest
    if isnan(a) then return false end
    if isnan(b) then return true end
    return a < b
  end
  table.sort(p, function(i, j)
    local a, b = xs[i], xs[j]
    if descending then a, b = b, a end
    if key_lt(a, b) then return true end
    if key_lt(b, a) then return false end
    return i < j
  end)
  return p
end

-- A deterministic list of n numbers with ties (and NaN when with_nan).
local function data(n, seed, with_nan)
  local xs, s = {}, seed
  for i = 1, n do
    s = (s * 1103515245 + 12345) % 2147483648
    xs[i] = (s % 41) - 20
    if with_nan and s % 13 == 0 then xs[i] = nan end
  end
  return xs
end

describe("sort", function()
  it("returns the values and their 1-based positions, ascending by default", function()
    local v, i = lt.tensor{3, 1, 2}:sort()
    same({1, 2, 3}, v:tolist())
    same({2, 3, 1}, i:tolist())
    assert.equal("int64", i.dtype)
  end)

  it("sorts descending with the second argument", function()
    local v, i = lt.tensor{3, 1, 2}:sort(1, true)
    same({3, 2, 1}, v:tolist())
    same({1, 3, 2}, i:tolist())
  end)

  it("puts NaN last ascending and first descending, and treats -0.0 and 0.0 as equal", function()
    local x = lt.tensor{2, nan, -1, 0.0, -0.0, nan}
    local v, i = x:sort()
    same({-1, 0, 0, 2, nan, nan}, v:tolist())
    same({3, 4, 5, 1, 2, 6}, i:tolist()) -- stable: 0.0 before -0.0 as in the input
    v, i = x:sort(-1, true)
    same({nan, nan, 2, 0, 0, -1}, v:tolist())
    same({2, 6, 1, 4, 5, 3}, i:tolist())
  end)

  it("is stable ascending and descending on long rows with ties (radix path)", function()
    for _, n in ipairs{10, 47, 48, 100, 5000} do
      local xs = data(n, n, true)
      local x = lt.tensor(xs, "float64")
      for _, desc in ipairs{false, true} do
        local p = order(xs, desc)
        local v, i = x:sort(1, desc, {stable = true})
        same(p, i:tolist())
        local want = {}
        for k = 1, n do want[k] = xs[p[k]] end
        same(want, v:tolist())
      end
    end
  end)

  it("sorts every real dtype in its own order", function()
    local xs = data(200, 7, false)
    local p = order(xs)
    for _, dt in ipairs{"int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
                        "float64"} do
      local _, i = lt.tensor(xs, dt):sort()
      same(p, i:tolist())
    end
    local u = {}
    for k = 1, 200 do u[k] = xs[k] + 20 end
    for _, dt in ipairs{"uint8", "uint16", "uint32", "uint64"} do
      local _, i = lt.tensor(u, dt):sort()
      same(p, i:tolist())
    end
    local b = lt.tensor{true, false, true, false}
    local v, i = b:sort()
    same({false, false, true, true}, v:tolist())
    same({2, 4, 1, 3}, i:tolist())
  end)

  it("orders uint64 as unsigned and int64 as signed", function()
    local v = lt.tensor({-1, 5, 0}, "uint64"):sort() -- -1 is 2^64 - 1
    same({0, 5, -1}, v:tolist())
    v = lt.tensor({math.mininteger, math.maxinteger, -1}, "int64"):sort()
    same({math.mininteger, -1, math.maxinteger}, v:tolist())
  end)

  it("sorts along any dim of a non-contiguous view, rows in parallel", function()
    local x = lt.tensor{{5, 1, 4}, {2, 8, 0}}
    local v, i = x:sort(1)
    same({{2, 1, 0}, {5, 8, 4}}, v:tolist())
    same({{2, 1, 2}, {1, 2, 1}}, i:tolist())
    local t = x:transpose(1, 2) -- {{5, 2}, {1, 8}, {4, 0}}
    v, i = t:sort(2, true)
    same({{5, 2}, {8, 1}, {4, 0}}, v:tolist())
    same({{1, 2}, {2, 1}, {1, 2}}, i:tolist())
    local big = lt.arange(3000 * 40):reshape(3000, 40):remainder(7):to("float32")
    local bv = big:sort(2)
    for _, r in ipairs{1, 1500, 3000} do
      local row = bv[r]:tolist()
      for k = 2, 40 do assert.is_true(row[k - 1] <= row[k]) end
    end
  end)

  it("takes dim 1 or -1 on a 0-d tensor and sorts empty tensors", function()
    local v, i = lt.tensor(4.5):sort(1)
    assert.equal(0, v.ndim)
    assert.equal(4.5, v:item())
    assert.equal(1, i:item())
    v, i = lt.zeros({0, 3}):sort(1)
    same({0, 3}, v.shape)
    same({0, 3}, i.shape)
  end)

  it("argsort gives the positions only", function()
    local i = lt.tensor{3, 1, 2}:argsort(1, true)
    same({1, 3, 2}, i:tolist())
  end)

  it("raises for complex dtypes, bad dims and bad options", function()
    raises("sort: not implemented for complex64", function()
      lt.zeros({3}, "complex64"):sort()
    end)
    raises("dim", function() lt.zeros({3}):sort(2) end)
    raises("unknown option 'stabel'", function() lt.zeros({3}):sort(1, false, {stabel = true}) end)
    raises("stable must be a boolean", function() lt.zeros({3}):sort(1, false, {stable = 1}) end)
  end)
end)

describe("topk", function()
  it("gives the k largest, largest first, NaN counting as the largest", function()
    local v, i = lt.tensor{1, 5, nan, 3, 5}:topk(3)
    same({nan, 5, 5}, v:tolist())
    same({3, 2, 5}, i:tolist())
  end)

  it("gives the k smallest with largest = false", function()
    local v, i = lt.tensor{4, 1, 3, 1}:topk(2, 1, false)
    same({1, 1}, v:tolist())
    same({2, 4}, i:tolist())
  end)

  it("works along a dim, takes k = 0, and raises naming k out of range", function()
    local v = lt.tensor{{1, 9}, {7, 3}}:topk(1, 1)
    same({{7, 9}}, v:tolist())
    v = lt.tensor{1, 2}:topk(0)
    same({0}, v.shape)
    raises("topk: k 3 out of range %(expected 0 to 2%)", function() lt.tensor{1, 2}:topk(3) end)
    raises("k %-1 out of range", function() lt.tensor{1, 2}:topk(-1) end)
  end)
end)

describe("kthvalue, median and mode", function()
  it("kthvalue gives the k-th smallest and its position, keepdim as torch", function()
    local v, i = lt.tensor{{3, 1, 2}, {6, 5, 4}}:kthvalue(2)
    same({2, 5}, v:tolist())
    same({3, 2}, i:tolist())
    v, i = lt.tensor{{3, 1, 2}, {6, 5, 4}}:kthvalue(1, 1, true)
    same({{3, 1, 2}}, v:tolist())
    same({{1, 1, 1}}, i:tolist())
    raises("kthvalue: k 4 out of range %(expected 1 to 3%)", function()
      lt.tensor{1, 2, 3}:kthvalue(4)
    end)
  end)

  it("median over every element is a Lua value, the lower median", function()
    assert.equal(2, lt.tensor{4, 1, 2, 3}:median())
    assert.equal(2.5, lt.tensor{2.5, 9, 1}:median())
    assert.is_true(isnan(lt.tensor{1, nan, 2}:median()))
    assert.equal("integer", math.type(lt.tensor{5, 1, 3}:median()))
    assert.is_true(isnan(lt.zeros({0}):median())) -- torch: NaN
    raises("median: median of an empty tensor", function() lt.zeros({0}, "int32"):median() end)
  end)

  it("median along a dim gives values and positions, NaN propagating", function()
    local v, i = lt.tensor{{4, 1, 2, 3}, {nan, 1, 2, 3}}:median(2)
    same({2, nan}, v:tolist())
    same({3, 1}, i:tolist())
    raises("median: cannot reduce over dim 1 of size 0", function() lt.zeros({0, 2}):median(1) end)
  end)

  it("mode counts each NaN as a value of its own, as torch", function()
    local v, i = lt.tensor{nan, 2, nan, 3, 3}:mode()
    assert.equal(3, v:item())
    assert.equal(5, i:item())
    v = lt.tensor{nan, 1, nan}:mode()
    assert.equal(1, v:item())
  end)

  it("mode gives the most frequent value (the smallest of a tie) and its last position", function()
    local v, i = lt.tensor{{1, 2, 2, 3}, {4, 4, 1, 1}}:mode()
    same({2, 1}, v:tolist())
    same({3, 4}, i:tolist())
    v, i = lt.tensor{{1, 2}, {1, 3}, {5, 3}}:mode(1, true)
    same({{1, 3}}, v:tolist())
    same({{2, 3}}, i:tolist())
  end)
end)

describe("unique", function()
  it("gives the sorted distinct values, the inverse positions and the counts", function()
    local u, inv, c = lt.tensor{{3, 1}, {3, 2}}:unique({return_inverse = true,
                                                        return_counts = true})
    same({1, 2, 3}, u:tolist())
    same({{3, 1}, {3, 2}}, inv:tolist())
    same({1, 1, 2}, c:tolist())
    local u2, c2 = lt.tensor{2, 2, 0}:unique({return_counts = true})
    same({0, 2}, u2:tolist())
    same({1, 2}, c2:tolist())
  end)

  it("counts -0.0 and 0.0 as one value and every NaN as one", function()
    local u = lt.tensor{0.0, nan, -0.0, nan, 1}:unique()
    assert.equal(3, u:numel())
    assert.is_true(isnan(u[3]))
  end)

  it("gives the distinct slices along a dim, in lexicographic order", function()
    local a = lt.tensor{{1, 3}, {2, 3}, {1, 3}, {0, 9}}
    local u, inv, c = a:unique({dim = 1, return_inverse = true, return_counts = true})
    same({{0, 9}, {1, 3}, {2, 3}}, u:tolist())
    same({2, 3, 2, 1}, inv:tolist())
    same({1, 2, 1}, c:tolist())
    u = lt.tensor{{1, 1, 0}, {2, 2, 5}}:unique({dim = -1})
    same({{0, 1}, {5, 2}}, u:tolist())
  end)

  it("takes empty tensors and raises for a bad dim", function()
    same({0}, lt.zeros({0}):unique().shape)
    same({0, 2}, lt.zeros({0, 2}):unique({dim = 1}).shape)
    raises("unique: dim 3 out of range", function() lt.zeros({2, 2}):unique({dim = 3}) end)
    raises("unique: dim must be an integer", function() lt.zeros({2}):unique({dim = "x"}) end)
  end)
end)

describe("cumsum and cumprod", function()
  it("accumulate along a dim", function()
    local x = lt.tensor{{1, 2, 3}, {4, 5, 6}}
    same({{1, 3, 6}, {4, 9, 15}}, x:cumsum(2):tolist())
    same({{1, 2, 3}, {5, 7, 9}}, x:cumsum(1):tolist())
    same({{1, 2, 6}, {4, 20, 120}}, x:cumprod(2):tolist())
    same({{1, 2, 3}, {4, 10, 18}}, x:cumprod(-2):tolist())
  end)

  it("give int64 for bool and integer inputs, as torch", function()
    local r = lt.tensor({100, 100, 100}, "int8"):cumsum(1)
    assert.equal("int64", r.dtype)
    same({100, 200, 300}, r:tolist())
    r = lt.tensor{true, false, true}:cumsum(1)
    assert.equal("int64", r.dtype)
    same({1, 1, 2}, r:tolist())
    assert.equal("float16", lt.tensor({1, 2}, "float16"):cumsum(1).dtype)
  end)

  it("cast to the dtype option first", function()
    local r = lt.tensor({1, 2, 3}, "int32"):cumsum(1, {dtype = "float64"})
    assert.equal("float64", r.dtype)
    same({1, 3, 6}, r:tolist())
    r = lt.tensor({2.7, 1.5}):cumsum(1, {dtype = "int32"}) -- truncates, then sums
    same({2, 3}, r:tolist())
  end)

  it("sum complex numbers and multiply them", function()
    local z = lt.tensor({1, 2}, "complex64")
    same({{1, 0}, {3, 0}}, z:cumsum(1):tolist())
    same({{1, 0}, {2, 0}}, z:cumprod(1):tolist())
  end)

  it("scan a long row exactly for integers and to float32's precision for floats", function()
    local n = 300000 -- long enough for the chunked, parallel scan
    local r = lt.arange(n):cumsum(1)
    assert.equal(n * (n - 1) // 2, r[n])
    assert.equal(5 * 4 // 2, r[5])
    local f = lt.ones({n}):cumsum(1)
    assert.equal(n, f[n])
    assert.equal(123457, f[123457])
    local s = lt.arange(n):to("float32"):mul(1e-3):cumsum(1)
    local want = 1e-3 * n * (n - 1) / 2
    assert.is_true(math.abs(s[n] - want) <= 1e-6 * want)
  end)

  it("take 0-d and empty tensors and need a dim", function()
    assert.equal(3, lt.tensor(3):cumsum(1):item())
    same({0}, lt.zeros({0}):cumsum(1).shape)
    raises("cumsum: expected a dim", function() lt.zeros({2}):cumsum() end)
    raises("cumsum: unknown dtype 'f32'", function() lt.zeros({2}):cumsum(1, {dtype = "f32"}) end)
  end)
end)

describe("cummax and cummin", function()
  it("give the running extreme and where it was last met", function()
    local v, i = lt.tensor{1, 3, 2, 3, 0}:cummax(1)
    same({1, 3, 3, 3, 3}, v:tolist())
    same({1, 2, 2, 4, 4}, i:tolist())
    v, i = lt.tensor{2, 1, 3, 1}:cummin(1)
    same({2, 1, 1, 1}, v:tolist())
    same({1, 2, 2, 4}, i:tolist())
  end)

  it("let NaN win and stay, as torch", function()
    local v, i = lt.tensor{1, nan, 5, nan}:cummax(1)
    same({1, nan, nan, nan}, v:tolist())
    same({1, 2, 2, 4}, i:tolist())
  end)

  it("run along any dim and over uint64 as unsigned", function()
    local v, i = lt.tensor{{1, 5}, {4, 2}}:cummax(1)
    same({{1, 5}, {4, 5}}, v:tolist())
    same({{1, 1}, {2, 1}}, i:tolist())
    v = lt.tensor({1, -1, 2}, "uint64"):cummax(1)
    same({1, -1, -1}, v:tolist())
  end)
end)

describe("lt.searchsorted", function()
  local seq = lt.tensor{1, 3, 5, 7}
  it("gives the 1-based position where each value would be inserted (torch's + 1)", function()
    same({1, 2, 4, 5}, lt.searchsorted(seq, lt.tensor{0, 3, 6, 9}):tolist())
    same({1, 3, 4, 5}, lt.searchsorted(seq, lt.tensor{0, 3, 6, 9}, {right = true}):tolist())
    same({1, 3, 4, 5}, lt.searchsorted(seq, lt.tensor{0, 3, 6, 9}, {side = "right"}):tolist())
  end)

  it("searches row by row in an n-d sequence, and promotes dtypes", function()
    local s = lt.tensor{{1, 2, 3}, {10, 20, 30}}
    same({{2}, {3}}, lt.searchsorted(s, lt.tensor{{2}, {25}}):tolist())
    same({2}, lt.searchsorted(seq, lt.tensor{2.5}):tolist())
    -- a NaN value goes after every element, as torch
    same({5, 5}, lt.searchsorted(seq, lt.tensor{nan, nan}, {right = true}):tolist())
    same({5}, lt.searchsorted(lt.tensor{1, nan, nan, nan}, lt.tensor{nan}):tolist())
  end)

  it("gives int32 with out_int32, and raises for contradictions and bad shapes", function()
    assert.equal("int32", lt.searchsorted(seq, lt.tensor{2}, {out_int32 = true}).dtype)
    raises("side and right cannot be set to opposites", function()
      lt.searchsorted(seq, lt.tensor{2}, {right = false, side = "right"})
    end)
    raises("leading dims", function()
      lt.searchsorted(lt.zeros({2, 3}), lt.zeros({3, 1}))
    end)
  end)
end)

describe("bincount and histc", function()
  it("bincount counts value v in slot v + 1 (values are data, not positions)", function()
    same({1, 2, 0, 1}, lt.tensor{0, 1, 1, 3}:bincount():tolist())
    same({1, 2, 0, 1, 0, 0}, lt.tensor{0, 1, 1, 3}:bincount({minlength = 6}):tolist())
    local w = lt.bincount(lt.tensor{0, 2, 2}, {weights = lt.tensor{0.5, 1, 2}})
    assert.equal("float32", w.dtype)
    same({0.5, 0, 3}, w:tolist())
    w = lt.tensor{1}:bincount(lt.tensor({2}, "float64"))
    assert.equal("float64", w.dtype)
    same({0, 2}, w:tolist())
    same({0}, lt.tensor({}, "int64"):bincount().shape)
    raises("bincount: values must be non%-negative, got %-1", function()
      lt.tensor{1, -1}:bincount()
    end)
    raises("bincount: expected a 1%-d tensor", function() lt.tensor{1.5}:bincount() end)
  end)

  it("histc counts into equal bins over [min, max], the data's range when they are equal",
     function()
    same({2, 1, 0, 1}, lt.tensor{1., 2, 1, 4}:histc(4):tolist())
    same({1, 1, 0}, lt.tensor{0., 1, 5}:histc(3, 0, 3):tolist()) -- 5 lies outside
    local h = lt.tensor{2.0, 2.0}:histc(2) -- one value: [1, 3]
    same({0, 2}, h:tolist())
    assert.equal("float64", lt.tensor({1, 2}, "float64"):histc(2).dtype)
    raises("histc: bins must be positive", function() lt.tensor{1.}:histc(0) end)
    raises("histc: max must be larger than min", function() lt.tensor{1.}:histc(2, 3, 1) end)
    raises("histc: not implemented for int64", function() lt.tensor{1}:histc() end)
  end)
end)

describe("threads", function()
  it("give the same sorts and scans at every thread count", function()
    local before = lt.get_num_threads()
    local n = 1 << 19
    local x = ((lt.arange(n, "float64") * 12.9898):sin() * 43758.5453 % 1):to("float32")
    local m = x:view(512, 1024)
    local results = {}
    for _, k in ipairs{1, 2, 3} do
      lt.set_num_threads(k)
      local v, i = m:sort(2)
      results[k] = {x:cumsum(1), m:cumsum(1), v, i, m:cumprod(2)}
    end
    lt.set_num_threads(before)
    for k = 2, 3 do
      for j = 1, #results[1] do
        assert.is_true(results[1][j]:equal(results[k][j]), "result " .. j .. " at " .. k)
      end
    end
  end)
end)

describe("cumsum_ and cumprod_", function()
  it("write the running sums and products into t, in t's dtype, and return t", function()
    local x = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32")
    assert.is_true(rawequal(x, x:cumsum_(2)))
    same({ { 1, 3, 6 }, { 4, 9, 15 } }, x:tolist())
    assert.equal("int32", x.dtype)
    local f = lt.tensor({ 1.5, 2, 2 })
    f:cumprod_(1, "float64")
    same({ 1.5, 3, 6 }, f:tolist())
    local v = lt.ones(3, 2):t() -- not contiguous
    v:cumsum_(2)
    same({ { 1, 2, 3 }, { 1, 2, 3 } }, v:tolist())
    raises("cumsum_: expected a dim", function() lt.ones(2):cumsum_() end)
  end)
end)

describe("module forms and dtypes", function()
  it("lt.f(t, ...) is t:f(...) for every method torch has as torch.f", function()
    for _, name in ipairs({ "sort", "argsort", "topk", "kthvalue", "median", "mode", "unique",
      "cumsum", "cumprod", "cummax", "cummin", "bincount", "histc" }) do
      assert.equal(lt[name], lt.zeros(1)[name], name)
    end
    local v, i = lt.sort(lt.tensor({ 3, 1, 2 }))
    same({ 1, 2, 3 }, v:tolist())
    same({ 2, 3, 1 }, i:tolist())
  end)

  it("cumsum takes the dtype positionally as well as in the options", function()
    assert.equal("float64", lt.tensor({ 1, 2 }):cumsum(1, "float64").dtype)
    raises("cumsum: dtype given twice", function()
      return lt.tensor({ 1, 2 }):cumsum(1, "float64", { dtype = "float64" })
    end)
  end)

  it("searchsorted names a bad side and takes nil options as absent", function()
    raises("searchsorted: side must be 'left' or 'right', got 'up'", lt.searchsorted,
      lt.tensor({ 1, 2 }), lt.tensor({ 1 }), { side = "up" })
    same({ 2 }, lt.searchsorted(lt.tensor({ 1, 3 }), lt.tensor({ 2 }), nil):tolist())
  end)
end)

-- a < b, NaN the largest.
local function key_lt(a, b)
  if isnan(a) then return false end
  if isnan(b) then return true end
  return a < b
end

-- The same element: NaN matching NaN, a zero its sign.
local function same_bits(a, b)
  if isnan(a) then return isnan(b) end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

-- issue 30: the vector kernels of the row sort (src/core/ops/lt_sort_simd.c). ctest runs this
-- file once per path (spec_sort under the processor's widest, spec_sort_avx2, spec_sort_scalar:
-- LTENSOR_SIMD caps the path), so each case below runs on the AVX-512 and AVX2 networks and
-- radix splits and on the plain C path.
describe("sort on every vector path", function()
  -- How many places of two lists differ (one assertion per list: long rows stay quick).
  local function differ(a, b)
    local bad = #a == #b and 0 or 1
    for k = 1, #a do
      if not same_bits(a[k], b[k]) then bad = bad + 1 end
    end
    return bad
  end

  local function check(xs, dt, descending)
    local x = lt.tensor(xs, dt)
    local p = order(xs, descending)
    local v, i = x:sort(1, descending)
    assert.equal(0, differ(p, i:tolist()))
    local want, xl = {}, x:tolist()
    for k = 1, #xs do want[k] = xl[p[k]] end
    assert.equal(0, differ(want, v:tolist()))
    assert.equal(0, differ(p, x:argsort(1, descending):tolist()))
  end

  it("is stable around the network's and the radix sort's block sizes, for each dtype", function()
    for _, n in ipairs{15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 4095, 4096, 4097} do
      local with_nan, plain = data(n, n + 1, true), data(n, n + 2, false)
      for _, desc in ipairs{false, true} do
        check(with_nan, "float32", desc)
        check(with_nan, "float64", desc)
        for _, dt in ipairs{"int32", "int64", "int16", "int8"} do check(plain, dt, desc) end
        local u = {}
        for k = 1, n do u[k] = plain[k] + 20 end
        for _, dt in ipairs{"uint8", "uint32", "uint64"} do check(u, dt, desc) end
      end
    end
  end)

  it("keeps all-equal, sorted and reversed rows in a stable order", function()
    for _, n in ipairs{16, 33, 257, 5000} do
      local eq, up, down = {}, {}, {}
      for k = 1, n do eq[k], up[k], down[k] = 7, k, n - k end
      for _, dt in ipairs{"float32", "float64", "int32", "int64"} do
        for _, desc in ipairs{false, true} do
          check(eq, dt, desc)
          check(up, dt, desc)
          check(down, dt, desc)
        end
      end
    end
  end)

  it("orders many NaN, infinities and signed zeros as torch, keeping -0.0's sign", function()
    local specials = {nan, math.huge, -math.huge, 0.0, -0.0, 1.5, -1.5, nan, -0.0}
    for _, n in ipairs{9, 17, 65, 300, 4097} do
      local xs = {}
      for k = 1, n do xs[k] = specials[(k * 7) % #specials + 1] end
      for _, dt in ipairs{"float32", "float64"} do
        for _, desc in ipairs{false, true} do
          check(xs, dt, desc)
          local v, i = lt.tensor(xs, dt):sort(1, desc)
          local vl, il = v:tolist(), i:tolist()
          for k = 1, n do -- a zero keeps the sign of the element it came from
            if vl[k] == 0 then assert.equal(1 / xs[il[k]], 1 / vl[k]) end
          end
        end
      end
    end
  end)

  it("sorts int64 extremes exactly", function()
    local mn, mx = math.mininteger, math.maxinteger
    for _, n in ipairs{5, 33, 300} do
      local xs = {}
      for k = 1, n do xs[k] = ({mx, mn, 0, -1, 1, mx - 1, mn + 1})[k % 7 + 1] end
      check(xs, "int64", false)
      check(xs, "int64", true)
    end
  end)

  it("sorts a long row (its buckets over the thread pool) stably, values at their positions", function()
    local n = 300000
    local xs = data(n, 11, true)
    for k = 1, n, 3 do xs[k] = xs[k] + k / n end -- many distinct values besides the ties
    for _, dt in ipairs{"float32", "float64", "int64"} do
      local src = xs
      if dt == "int64" then
        src = {}
        for k = 1, n do src[k] = xs[k] == xs[k] and math.floor(xs[k] * 1000) or 0 end
      end
      local x = lt.tensor(src, dt)
      local xl = x:tolist()
      for _, desc in ipairs{false, true} do
        local v, i = x:sort(1, desc)
        local vl, il = v:tolist(), i:tolist()
        local bad = 0
        for k = 1, n do
          if not same_bits(xl[il[k]], vl[k]) then bad = bad + 1 end
          if k > 1 then
            local a, b = vl[k - 1], vl[k]
            if desc then a, b = b, a end
            local equal = a == b or (isnan(a) and isnan(b))
            if not (key_lt(a, b) or (equal and il[k - 1] < il[k])) then bad = bad + 1 end
          end
        end
        assert.equal(0, bad)
      end
    end
  end)

  it("reads topk and unique off the same kernels", function()
    for _, n in ipairs{17, 257, 4097} do
      local xs = data(n, n + 3, true)
      local x = lt.tensor(xs, "float32")
      for _, k in ipairs{1, 16, n} do
        local p = order(xs, true)
        local _, i = x:topk(k)
        local want = {}
        for j = 1, k do want[j] = p[j] end
        same(want, i:tolist())
      end
      local u = lt.tensor(data(n, n + 4, false), "int64"):unique()
      local seen, want = {}, {}
      for _, v in ipairs(data(n, n + 4, false)) do
        if not seen[v] then seen[v] = true; want[#want + 1] = v end
      end
      table.sort(want)
      same(want, u:tolist())
    end
  end)

  it("gives topk and kthvalue of long rows as the stable sort's first k, NaN the largest (torch)",
    function()
    for _, n in ipairs{2047, 2048, 5000} do
      for _, dt in ipairs{"float32", "float64", "int32", "int64", "int16"} do
        local x = lt.tensor(data(n, n + 5, dt:sub(1, 5) == "float"), dt) -- ties, NaN for floats
        for _, largest in ipairs{true, false} do
          local sv, si = x:sort(1, largest)
          local svl, sil = sv:tolist(), si:tolist()
          for _, k in ipairs{1, 2, n // 4 - 1, n // 4, n // 4 + 1, n} do
            local v, i = x:topk(k, 1, largest)
            local wi, wv = {}, {}
            for j = 1, k do wi[j], wv[j] = sil[j], svl[j] end
            assert.equal(0, differ(wi, i:tolist()))
            assert.equal(0, differ(wv, v:tolist()))
            if not largest then
              local kv, ki = x:kthvalue(k)
              assert.equal(sil[k], ki:item())
              assert.is_true(same_bits(svl[k], kv:item()))
            end
          end
        end
      end
    end
    local x = lt.tensor(data(3 * 3000, 7, true), "float32"):reshape(3000, 3):t() -- strided rows
    local v1, i1 = x:topk(10, 2)
    local v2, i2 = x:contiguous():sort(2, true)
    same(v2:narrow(2, 1, 10):tolist(), v1:tolist())
    same(i2:narrow(2, 1, 10):tolist(), i1:tolist())
    raises("topk: k 3001 out of range", function() x:topk(3001, 2) end)
  end)

  it("sorts non-contiguous rows (a transposed view) as their contiguous copy", function()
    local xs = data(3 * 300, 5, true)
    local x = lt.tensor(xs, "float32"):reshape(300, 3)
    local t = x:t() -- 3 rows of 300, strided
    local v1, i1 = t:sort(2)
    local v2, i2 = t:contiguous():sort(2)
    same(v2:tolist(), v1:tolist())
    same(i2:tolist(), i1:tolist())
  end)
end)
