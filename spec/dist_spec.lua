-- Distances, searching and the elementwise additions of issue 27: logaddexp, logaddexp2, xlogy,
-- reciprocal, clip, lt.polar, lt.cdist, lt.pdist, lt.isin, lt.bucketize, unique_consecutive.
-- torch 1.13's names, positional order, defaults and result dtypes, with SPEC's Lua rules
-- (1-based positions, several results as several values, keyword-only arguments in an options
-- table). Expected values are worked out here from the definitions; spec/c/torch_host_dist.h
-- compares with torch 1.13 on the same data (random, strided, batched, empty).
local lt = require "ltensor"
local helpers = require "helpers"
local raises, near = helpers.raises, helpers.near

local nan, inf = 0 / 0, math.huge

-- Nested lists equal, NaN matching NaN.
local function same(expected, actual)
  if type(expected) == "table" then
    assert.equal(#expected, #actual)
    for i = 1, #expected do same(expected[i], actual[i]) end
  elseif expected ~= expected then
    assert.is_true(actual ~= actual, "expected nan, got " .. tostring(actual))
  else
    assert.equal(expected, actual)
  end
end

-- The p-norm distance of two Lua lists, from its definition.
local function pdistance(a, b, p)
  local acc = 0
  for k = 1, #a do
    local d = math.abs(a[k] - b[k])
    if p == 0 then
      acc = acc + (d ~= 0 and 1 or 0)
    elseif p == inf then
      acc = math.max(acc, d)
    else
      acc = acc + d ^ p
    end
  end
  if p == 0 or p == inf then return acc end
  return acc ^ (1 / p)
end

-- Every distance of the rows of xs to the rows of ys (Lua lists of lists).
local function distances(xs, ys, p)
  local r = {}
  for i = 1, #xs do
    r[i] = {}
    for j = 1, #ys do r[i][j] = pdistance(xs[i], ys[j], p) end
  end
  return r
end

describe("logaddexp and logaddexp2", function()
  it("compute log(exp(x) + exp(y)) without overflow", function()
    local r = lt.logaddexp(lt.tensor({ 1.0, 2.0, 1000.0, -1000.0 }, "float64"),
      lt.tensor({ 1.0, 1.0, 1000.0, -1001.0 }, "float64"))
    near({ 1 + math.log(2), 2 + math.log(1 + math.exp(-1)), 1000 + math.log(2),
      -1000 + math.log(1 + math.exp(-1)) }, r:tolist(), 1e-15)
    assert.equal("float64", r.dtype)
  end)
  it("give an infinity for equal infinities and NaN for NaN", function()
    same({ inf, -inf, nan, inf }, lt.tensor({ inf, -inf, nan, inf }):logaddexp(
      lt.tensor({ inf, -inf, 1.0, -inf })):tolist())
  end)
  it("work in base 2 for logaddexp2", function()
    near({ 2, 3, math.log(2 ^ -3 + 2 ^ 5, 2) }, lt.logaddexp2(lt.tensor({ 1.0, 2.0, -3.0 }, "float64"),
      lt.tensor({ 1.0, 2.0, 5.0 }, "float64")):tolist(), 1e-15)
  end)
  it("broadcast a scalar and keep float32", function()
    local r = lt.tensor({ 0.0, 1.0 }):logaddexp(0)
    assert.equal("float32", r.dtype)
    near({ math.log(2), math.log(1 + math.exp(1)) }, r:tolist(), 1e-6)
  end)
  it("refuse integers and complex, as torch", function()
    raises("logaddexp: not supported for int64", lt.logaddexp, lt.tensor({ 1 }), lt.tensor({ 2 }))
    raises("logaddexp2: not supported for complex64", lt.logaddexp2,
      lt.tensor({ 1 }, "complex64"), lt.tensor({ 1 }, "complex64"))
  end)
  it("have no in-place form, as torch", function()
    assert.is_nil(lt.tensor({ 1.0 }).logaddexp_)
  end)
end)

describe("xlogy", function()
  it("is x * log(y), 0 where x is 0 unless y is NaN", function()
    local r = lt.xlogy(lt.tensor({ 0.0, 0.0, 0.0, 2.0, 3.0 }, "float64"),
      lt.tensor({ nan, 0.0, inf, 3.0, nan }, "float64"))
    same({ nan, 0, 0, 2 * math.log(3), nan }, r:tolist())
  end)
  it("gives float32 for integers and bool, and takes a scalar on either side", function()
    local r = lt.tensor({ 1, 2 }):xlogy(lt.tensor({ 1, 2 }))
    assert.equal("float32", r.dtype)
    near({ 0, 2 * math.log(2) }, r:tolist(), 1e-6)
    near({ 2 * math.log(2), 4 * math.log(2) }, lt.xlogy(2, lt.tensor({ 2.0, 4.0 })):tolist(), 1e-6)
    near({ math.log(2), 2 * math.log(2) }, lt.xlogy(lt.tensor({ 1.0, 2.0 }), 2):tolist(), 1e-6)
    same({ 0, 0 }, lt.xlogy(lt.tensor({ true, false }), lt.tensor({ true, false })):tolist())
  end)
  it("writes in place with xlogy_, refusing an integer tensor", function()
    local t = lt.tensor({ 1.0, 2.0 })
    assert.equal(t, t:xlogy_(lt.tensor({ 1.0, 1.0 })))
    same({ 0, 0 }, t:tolist())
    raises("xlogy_: result type float32 can't be cast", lt.tensor({ 1 }).xlogy_, lt.tensor({ 1 }), 2)
  end)
  it("refuses complex", function()
    raises("xlogy: not supported for complex64", lt.xlogy, lt.tensor({ 1 }, "complex64"), 1)
  end)
end)

describe("reciprocal", function()
  it("is 1 / x, integers and bool giving float32", function()
    local r = lt.reciprocal(lt.tensor({ 1, 2, 0, -4 }))
    assert.equal("float32", r.dtype)
    same({ 1, 0.5, inf, -0.25 }, r:tolist())
    same({ 1, inf }, lt.tensor({ true, false }):reciprocal():tolist())
  end)
  it("divides complex numbers", function()
    local v = lt.reciprocal(lt.tensor({ { 1, 1 } }, "float64"):view("complex128"))
    same({ { 0.5, -0.5 } }, v:view("float64"):tolist())
  end)
  it("works on a strided view and in place (float only)", function()
    local t = lt.tensor({ { 1.0, 2.0 }, { 4.0, 8.0 } }, "float64")
    same({ { 1, 0.25 }, { 0.5, 0.125 } }, t:t():reciprocal():tolist())
    assert.equal(t, t:reciprocal_())
    same({ { 1, 0.5 }, { 0.25, 0.125 } }, t:tolist())
    raises("reciprocal_: result type float32 can't be cast", lt.tensor({ 2 }).reciprocal_,
      lt.tensor({ 2 }))
  end)
end)

describe("clip", function()
  it("is clamp under torch's other name, method, module and in place", function()
    same({ 2, 5, 6 }, lt.tensor({ 1, 5, 9 }):clip(2, 6):tolist())
    same({ 1, 5, 6 }, lt.clip(lt.tensor({ 1, 5, 9 }), nil, 6):tolist())
    local t = lt.tensor({ -1.5, 0.5 })
    assert.equal(t, t:clip_(0))
    same({ 0, 0.5 }, t:tolist())
  end)
  it("names itself in its errors", function()
    raises("clip: too many arguments", lt.clip, lt.tensor({ 1 }), 1, 2, 3)
  end)
end)

describe("lt.polar", function()
  it("makes abs * (cos(angle) + i sin(angle)), complex64 from float32", function()
    local r = lt.polar(lt.tensor({ 1.0, 2.0 }), lt.tensor({ 0.0, math.pi / 2 }))
    assert.equal("complex64", r.dtype)
    near({ { 1, 0 }, { 0, 2 } }, r:view("float32"):view({ 2, 2 }):tolist(), 1e-6)
  end)
  it("makes complex128 from float64 and broadcasts", function()
    local r = lt.polar(lt.tensor({ { 1.0 }, { 2.0 } }, "float64"), lt.tensor({ 0.0, math.pi }, "float64"))
    assert.same({ 2, 2 }, r.shape)
    assert.equal("complex128", r.dtype)
    near({ 2, 0, -2, 0 }, r[2]:view("float64"):tolist(), 1e-15)
  end)
  it("refuses integers and mixed dtypes, and is a module function only", function()
    raises("polar: expected abs and angle both float32 or both float64, got int64 and int64",
      lt.polar, lt.tensor({ 1 }), lt.tensor({ 1 }))
    raises("polar: expected abs and angle both float32 or both float64, got float32 and float64",
      lt.polar, lt.tensor({ 1.0 }), lt.tensor({ 1.0 }, "float64"))
    assert.is_nil(lt.tensor({ 1.0 }).polar)
  end)
end)

describe("lt.cdist", function()
  local xs = { { 0, 0 }, { 1, 2 }, { -3, 4 } }
  local ys = { { 1, 1 }, { 2, -2 } }
  it("gives the p-norm distance of every row to every row, p = 2 by default", function()
    local x, y = lt.tensor(xs, "float64"), lt.tensor(ys, "float64")
    near(distances(xs, ys, 2), lt.cdist(x, y):tolist(), 1e-15)
    for _, p in ipairs({ 0, 1, 3, 0.5, inf }) do
      near(distances(xs, ys, p), lt.cdist(x, y, p):tolist(), 1e-14)
    end
  end)
  it("takes the matrix-product form for more than 25 rows, as torch, within rounding", function()
    local x, y = lt.randn(40, 5, { dtype = "float64" }), lt.randn(30, 5, { dtype = "float64" })
    local direct = lt.cdist(x, y, 2, "donot_use_mm_for_euclid_dist")
    near(distances(x:tolist(), y:tolist(), 2), direct:tolist(), 1e-13)
    near(direct:tolist(), lt.cdist(x, y):tolist(), 1e-10)
    near(direct:tolist(), lt.cdist(x, y, 2, { compute_mode = "use_mm_for_euclid_dist" }):tolist(), 1e-10)
    -- ltensor's own product kernel when the BLAS is switched off: the same distances
    local was = lt.config().blas ~= nil
    lt.config({ blas = false })
    local ok, own = pcall(lt.cdist, x, y)
    lt.config({ blas = was })
    assert(ok, own)
    near(direct:tolist(), own:tolist(), 1e-10)
    -- the same point: never the square root of a negative rounding error (NaN), and at most
    -- the root of one rounding error of the square norm (the product and the norm round
    -- differently: torch gives such a value too, not always 0)
    local d = lt.cdist(x[{ { 1, 1 } }], x[{ { 1, 1 } }], 2, "use_mm_for_euclid_dist"):tolist()[1][1]
    assert.is_true(d >= 0 and d < 1e-6, "distance of a point to itself: " .. tostring(d))
    local z = lt.tensor({ { 3, 4 } }, "float64") -- exact squares: exactly 0
    same({ { 0 } }, lt.cdist(z, z, 2, "use_mm_for_euclid_dist"):tolist())
  end)
  it("takes a p beyond float32's range as infinite for float32, as torch", function()
    local x, y = lt.tensor({ { 0.0, 0.0 }, { 1.0, 3.0 } }), lt.tensor({ { 0.0, 0.5 } })
    same({ { 0.5 }, { 2.5 } }, lt.cdist(x, y, 1e308):tolist())
    same({ 3 }, lt.pdist(x, 1e300):tolist())
  end)
  it("keeps float32 and reads strided views", function()
    local base = lt.tensor({ { 0, 1, -3 }, { 0, 2, 4 } }, "float32")
    local r = lt.cdist(base:t(), lt.tensor(ys, "float32"))
    assert.equal("float32", r.dtype)
    near(distances(xs, ys, 2), r:tolist(), 1e-6)
  end)
  it("broadcasts batch dims", function()
    local a = lt.randn(3, 1, 4, 2, { dtype = "float64" })
    local b = lt.randn(5, 6, 2, { dtype = "float64" })
    local r = lt.cdist(a, b, 1)
    assert.same({ 3, 5, 4, 6 }, r.shape)
    near(distances(a[2][1]:tolist(), b[4]:tolist(), 1), r[2][4]:tolist(), 1e-14)
  end)
  it("gives empty results for empty inputs and zeros for zero columns", function()
    assert.same({ 0, 2 }, lt.cdist(lt.empty(0, 3), lt.ones(2, 3)).shape)
    same({ { 0, 0, 0 }, { 0, 0, 0 } }, lt.cdist(lt.empty(2, 0), lt.empty(3, 0)):tolist())
    same({ { 0, 0, 0 }, { 0, 0, 0 } }, lt.cdist(lt.empty(2, 0), lt.empty(3, 0), inf):tolist())
  end)
  it("refuses other dtypes, too few dims, other column counts, negative p, unknown modes", function()
    local x = lt.ones(2, 2)
    raises("cdist: only float32 and float64 are supported, x1 got int64", lt.cdist,
      lt.ones(2, 2, "int64"), x)
    raises("cdist: only float32 and float64 are supported, x1 got complex64", lt.cdist,
      lt.ones(2, 2, "complex64"), x)
    raises("cdist: x1 and x2 must have the same dtype, got float32 and float64", lt.cdist, x,
      lt.ones(2, 2, "float64"))
    raises("cdist: x1 must have at least 2 dims, got 1", lt.cdist, lt.ones(2), x)
    raises("cdist: x1 and x2 must have the same number of columns, got 2 and 3", lt.cdist, x,
      lt.ones(2, 3))
    raises("cdist: p must be a non%-negative number, got %-1", lt.cdist, x, x, -1)
    raises("cdist: p must be a non%-negative number, got %-?nan", lt.cdist, x, x, nan)
    raises("cdist: p must be a number, got string", lt.cdist, x, x, "2")
    raises("cdist: compute_mode must be", lt.cdist, x, x, 2, "fast")
    raises("cdist: compute_mode given twice", lt.cdist, x, x, 2, "use_mm_for_euclid_dist",
      { compute_mode = "use_mm_for_euclid_dist" })
    raises("cdist: batch dims %[2%] of x1 and %[3%] of x2 do not broadcast", lt.cdist,
      lt.ones(2, 2, 2), lt.ones(3, 2, 2))
  end)
  it("is a module function only, as torch", function()
    assert.is_nil(lt.ones(2, 2).cdist)
  end)
end)

describe("lt.pdist", function()
  it("gives the distances of rows i < j in row-major order", function()
    local xs = { { 0, 0 }, { 3, 4 }, { 1, 1 }, { -2, 5 } }
    local want = {}
    for i = 1, #xs do
      for j = i + 1, #xs do want[#want + 1] = pdistance(xs[i], xs[j], 2) end
    end
    near(want, lt.pdist(lt.tensor(xs, "float64")):tolist(), 1e-15)
    local inf_want = {}
    for i = 1, #xs do
      for j = i + 1, #xs do inf_want[#inf_want + 1] = pdistance(xs[i], xs[j], inf) end
    end
    near(inf_want, lt.pdist(lt.tensor(xs, "float32"):t():contiguous():t(), inf):tolist(), 1e-6)
  end)
  it("is empty for fewer than 2 rows", function()
    assert.same({ 0 }, lt.pdist(lt.ones(1, 3)).shape)
    assert.same({ 0 }, lt.pdist(lt.empty(0, 3)).shape)
  end)
  it("refuses other than 2-d float tensors and negative p", function()
    raises("pdist: input must have 2 dims, got 1", lt.pdist, lt.ones(3))
    raises("pdist: input must have 2 dims, got 3", lt.pdist, lt.ones(3, 2, 2))
    raises("pdist: only float32 and float64 are supported, input got int64", lt.pdist,
      lt.ones(3, 2, "int64"))
    raises("pdist: p must be a non%-negative number", lt.pdist, lt.ones(3, 2), -2)
  end)
end)

describe("lt.isin", function()
  it("tells which elements are among the test elements, in elements' shape", function()
    local r = lt.isin(lt.tensor({ { 1, 2 }, { 3, 4 } }), lt.tensor({ 4, 2, 9 }))
    assert.equal("bool", r.dtype)
    same({ { false, true }, { false, true } }, r:tolist())
  end)
  it("promotes the dtypes and treats -0 as 0 and NaN as equal to nothing", function()
    same({ false, true, false }, lt.isin(lt.tensor({ 1, 2, 3 }), lt.tensor({ 2.0, 3.5 })):tolist())
    same({ true, false }, lt.isin(lt.tensor({ -0.0, nan }), lt.tensor({ 0.0, nan })):tolist())
  end)
  it("takes a scalar on either side and inverts", function()
    assert.is_true(lt.isin(2, lt.tensor({ 1, 2 })):item())
    same({ true, false }, lt.isin(lt.tensor({ 1, 2 }), 2, { invert = true }):tolist())
    same({ false, true }, lt.isin(lt.tensor({ 1, 2 }), lt.tensor({ 2 }), { assume_unique = true }):tolist())
  end)
  it("sorts a large test set and searches it, with the same answers", function()
    local test = lt.arange(0, 3000, 3)
    local e = lt.arange(-5, 3005)
    local r = lt.isin(e, test):tolist()
    for k, v in ipairs(e:tolist()) do
      assert.equal(v >= 0 and v < 3000 and v % 3 == 0, r[k])
    end
    same(lt.isin(e:to("float64"), test, { invert = true }):tolist(), lt.isin(e, test):logical_not():tolist())
  end)
  it("reads strided and empty tensors", function()
    local t = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } }):t()
    same({ { true, false }, { false, true }, { true, false } }, lt.isin(t, lt.tensor({ 1, 3, 5 })):tolist())
    assert.same({ 0 }, lt.isin(lt.empty(0), lt.tensor({ 1.0 })).shape)
    same({ false, false }, lt.isin(lt.tensor({ 1, 2 }), lt.empty(0)):tolist())
  end)
  it("refuses complex, two scalars and unknown options", function()
    raises("isin: not implemented for complex64", lt.isin, lt.ones(2, "complex64"), lt.ones(2))
    raises("isin: elements or test_elements must be a tensor", lt.isin, 1, 2)
    raises("isin: unknown option 'sorted'", lt.isin, lt.ones(2), lt.ones(2), { sorted = true })
    raises("isin: invert must be a boolean", lt.isin, lt.ones(2), lt.ones(2), { invert = 1 })
  end)
end)

describe("lt.bucketize", function()
  local bounds = lt.tensor({ 1, 3, 5, 7 })
  it("gives each value's 1-based bucket among sorted boundaries, as searchsorted", function()
    local r = lt.bucketize(lt.tensor({ 1, 5, 9, 0 }), bounds)
    assert.equal("int64", r.dtype)
    same({ 1, 3, 5, 1 }, r:tolist())
    same({ 2, 4, 5, 1 }, lt.bucketize(lt.tensor({ 1, 5, 9, 0 }), bounds, { right = true }):tolist())
    same(lt.searchsorted(bounds, lt.tensor({ 1, 5, 9, 0 })):tolist(),
      lt.bucketize(lt.tensor({ 1, 5, 9, 0 }), bounds):tolist())
  end)
  it("keeps the input's shape, takes a scalar, promotes, and gives int32 when asked", function()
    local r = lt.bucketize(lt.tensor({ { 1.5, 6 }, { 8, 2 } }):t(), bounds, { out_int32 = true })
    assert.equal("int32", r.dtype)
    same({ { 2, 5 }, { 4, 2 } }, r:tolist())
    assert.equal(2, lt.bucketize(3, bounds):item())
    assert.same({ 0 }, lt.bucketize(lt.empty(0), bounds).shape)
  end)
  it("refuses boundaries that are not 1-d and complex values", function()
    raises("bucketize: boundaries must be 1%-d, got 2 dims", lt.bucketize, lt.tensor({ 1 }),
      lt.ones(2, 2))
    raises("bucketize: not implemented for complex64", lt.bucketize, lt.ones(2, "complex64"), bounds)
    raises("bucketize: unknown option 'side'", lt.bucketize, lt.ones(2), bounds, { side = "left" })
  end)
end)

describe("unique_consecutive", function()
  it("keeps the first of each run of equal elements, NaNs each their own", function()
    local v, inv, cnt = lt.tensor({ 1, 1, nan, nan, 2, 1 }):unique_consecutive(
      { return_inverse = true, return_counts = true })
    same({ 1, nan, nan, 2, 1 }, v:tolist())
    same({ 1, 1, 2, 3, 4, 5 }, inv:tolist())
    same({ 2, 1, 1, 1, 1 }, cnt:tolist())
    assert.equal("int64", inv.dtype)
    assert.equal("int64", cnt.dtype)
  end)
  it("reads the elements in row-major order, the inverse in the input's shape", function()
    local t = lt.tensor({ { 1, 2 }, { 1, 2 } }):t() -- {{1, 1}, {2, 2}}
    local v, inv = lt.unique_consecutive(t, { return_inverse = true })
    same({ 1, 2 }, v:tolist())
    same({ { 1, 1 }, { 2, 2 } }, inv:tolist())
    assert.same({ 1 }, lt.tensor(5):unique_consecutive().shape)
  end)
  it("returns only what was asked, in torch's order", function()
    local a, b, c = lt.tensor({ 3, 3, 1 }):unique_consecutive({ return_counts = true })
    same({ 3, 1 }, a:tolist())
    same({ 2, 1 }, b:tolist())
    assert.is_nil(c)
  end)
  it("compares slices along a dim", function()
    local t = lt.tensor({ { 1, 1 }, { 1, 1 }, { 2, 3 } })
    local v, inv, cnt = t:unique_consecutive({ dim = 1, return_inverse = true, return_counts = true })
    same({ { 1, 1 }, { 2, 3 } }, v:tolist())
    same({ 1, 1, 2 }, inv:tolist())
    same({ 2, 1 }, cnt:tolist())
    v, inv, cnt = t:unique_consecutive({ dim = -1, return_inverse = true, return_counts = true })
    same({ { 1, 1 }, { 1, 1 }, { 2, 3 } }, v:tolist())
    same({ 1, 2 }, inv:tolist())
    same({ 1, 1 }, cnt:tolist())
  end)
  it("gives empty results for an empty tensor", function()
    local v, inv, cnt = lt.empty(0):unique_consecutive({ return_inverse = true, return_counts = true })
    assert.same({ 0 }, v.shape)
    assert.same({ 0 }, inv.shape)
    assert.same({ 0 }, cnt.shape)
    v = lt.empty(0, 3):unique_consecutive({ dim = 1 })
    assert.same({ 0, 3 }, v.shape)
    raises("unique_consecutive: dims of size 0 other than dim 1 leave nothing to compare",
      lt.empty(3, 0).unique_consecutive, lt.empty(3, 0), { dim = 1 })
  end)
  it("refuses complex, a dim out of range and positional arguments", function()
    raises("unique_consecutive: not implemented for complex64", lt.ones(2, "complex64").unique_consecutive,
      lt.ones(2, "complex64"))
    raises("unique_consecutive: dim 3 out of range for a tensor of 2 dims", lt.ones(2, 2).unique_consecutive,
      lt.ones(2, 2), { dim = 3 })
    raises("unique_consecutive: too many arguments", lt.ones(2).unique_consecutive, lt.ones(2), true)
  end)
end)
