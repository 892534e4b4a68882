-- Statistics as torch 1.13 computes them (issue 27): the NaN-aware reductions (nansum, nanmean,
-- nanmedian, nanquantile), quantile, std_mean and var_mean, cov and corrcoef, diff, trapezoid,
-- histogram and logcumsumexp. The expected values are torch's on the same data;
-- spec/c/numpy_host_stats.h checks the same functions against NumPy on random data.
local lt = require "ltensor"
local helpers = require "helpers"
local raises = helpers.raises
local nan, inf = 0 / 0, math.huge

local function near(expected, actual, tol) helpers.near(expected, actual, tol or 1e-6) end

describe("nansum and nanmean", function()
  it("leave NaN out of the sum and of the count, over every element or dims", function()
    local t = lt.tensor({ { 1, nan, 3 }, { 4, 5, nan } })
    assert.equal(13, t:nansum())
    assert.equal(3.25, t:nanmean())
    near({ 5, 5, 3 }, t:nansum(1):tolist())
    near({ 2, 4.5 }, lt.nanmean(t, 2):tolist())
    near({ { 2 }, { 4.5 } }, t:nanmean(-1, true):tolist())
    assert.equal(13, t:nansum({ 1, 2 }):item())
  end)

  it("give 0 (nansum) and NaN (nanmean) for a row of NaNs or nothing", function()
    local t = lt.tensor({ nan, nan }, "float64")
    assert.equal(0, t:nansum())
    assert.is_true(t:nanmean() ~= t:nanmean())
    assert.is_true(lt.empty({ 0 }):nanmean() ~= lt.empty({ 0 }):nanmean())
    assert.equal(0, lt.empty({ 0 }):nansum())
  end)

  it("sum integers and bool in int64 as t:sum(), and keep float16 (torch's dtypes)", function()
    assert.equal(6, lt.tensor({ 1, 2, 3 }, "int8"):nansum())
    assert.equal("int64", lt.tensor({ { 1, 2 } }, "int8"):nansum(1).dtype)
    assert.equal(1, lt.tensor({ true, false }):nansum())
    local h = lt.tensor({ 1, nan, 2 }, "float16")
    assert.equal("float16", h:nansum(1).dtype)
    assert.equal(3, h:nansum())
    assert.equal("float64", lt.tensor({ 1, 2 }):nansum(1, false, { dtype = "float64" }).dtype)
  end)

  it("read non-contiguous views", function()
    local t = lt.tensor({ { 1, nan }, { 3, 4 }, { nan, 6 } }):t()
    near({ 4, 10 }, t:nansum(2):tolist())
    near({ 2, 5 }, t:nanmean(2):tolist())
  end)

  it("refuse what torch refuses: complex nansum, integer nanmean, bad dims", function()
    raises("nansum: not supported for complex64", lt.nansum, lt.zeros({ 2 }, "complex64"))
    raises("nanmean: not supported for int64", lt.nanmean, lt.tensor({ 1, 2 }))
    raises("nanmean' %(dim 3 out of range", lt.nanmean, lt.zeros({ 2, 2 }), 3)
  end)
end)

describe("std_mean and var_mean", function()
  it("give (std, mean) and (var, mean) as two Lua values over every element", function()
    local s, m = lt.std_mean(lt.tensor({ 1, 2, 4 }, "float64"))
    near(1.5275252316519468, s)
    near(7 / 3, m)
    local v, m2 = lt.var_mean(lt.tensor({ 1, 2, 4 }, "float64"), { correction = 0 })
    near(14 / 9, v)
    near(7 / 3, m2)
  end)

  it("take the dims, unbiased and keepdim of std and var, in torch's order", function()
    local t = lt.tensor({ { 1, 2, 4 }, { 2, 3, 9 } }, "float32")
    local v, m = lt.var_mean(t, 2, false, true)
    near({ { 1.5555556 }, { 9.5555556 } }, v:tolist())
    near({ { 7 / 3 }, { 14 / 3 } }, m:tolist())
    local s, m2 = lt.std_mean(t:t(), { 1 })
    near({ 1.5275252, 3.7859390 }, s:tolist())
    near({ 7 / 3, 14 / 3 }, m2:tolist())
  end)

  it("exist only as lt.f, as torch has no Tensor.std_mean, and refuse integers", function()
    assert.is_nil(lt.tensor({ 1.0 }).std_mean)
    raises("std_mean: not supported for int64", lt.std_mean, lt.tensor({ 1, 2 }))
    raises("var_mean: give unbiased or correction, not both", lt.var_mean,
      lt.tensor({ 1.0, 2.0 }), 1, true, false, { correction = 0 })
  end)
end)

describe("nanmedian", function()
  it("is the lower median of the elements that are not NaN", function()
    assert.equal(2, lt.tensor({ nan, 1, 3, 2, 4 }):nanmedian())
    assert.equal(2, lt.tensor({ 3, 1, 2, 5 }):nanmedian()) -- integers: the median
    local v, i = lt.tensor({ { nan, 1, 3, 2 }, { nan, nan, nan, nan } }):nanmedian(2)
    near({ 2, nan }, v:tolist())
    assert.equal(4, i:tolist()[1]) -- 1-based position of the 2
  end)

  it("keeps the dim with keepdim and reads transposed views", function()
    local t = lt.tensor({ { 5, nan }, { 1, 2 }, { 3, 7 } }):t()
    local v, i = t:nanmedian(2, true)
    assert.same({ 2, 1 }, v.shape)
    near({ { 3 }, { 2 } }, v:tolist())
    assert.same({ { 3 }, { 2 } }, i:tolist())
  end)

  it("raises for an empty dim and for complex tensors", function()
    raises("nanmedian: cannot reduce an empty dimension", lt.nanmedian, lt.empty({ 2, 0 }), 2)
    raises("nanmedian:", lt.nanmedian, lt.zeros({ 2 }, "complex64"))
    raises("nanmedian: keepdim needs a dim", lt.nanmedian, lt.zeros({ 2 }), nil, true)
  end)
end)

describe("quantile and nanquantile", function()
  local x = lt.tensor({ { 1, 5, 2, 8 }, { 3, nan, 4, 0 } })

  it("interpolate linearly between ranks; a NaN makes quantile NaN, nanquantile skips it", function()
    near({ 2.6, nan }, x:quantile(0.4, 2):tolist())
    near({ 2.6, 2.4 }, x:nanquantile(0.4, 2):tolist())
    assert.is_true(x:quantile(0.5) ~= x:quantile(0.5)) -- a Lua value: NaN
    near(3.5, lt.tensor({ 1, 2, 3, 4, 10 }, "float64"):quantile(0.625))
  end)

  it("take every interpolation of torch", function()
    local t = lt.tensor({ 1, 2, 3, 4, 10 }, "float32")
    local q = lt.tensor({ 0.1, 0.3, 0.5, 0.625, 0.9 })
    local want = {
      linear = { 1.4, 2.2, 3, 3.5, 7.6 },
      lower = { 1, 2, 3, 3, 4 },
      higher = { 2, 3, 3, 4, 10 },
      nearest = { 1, 2, 3, 3, 10 },
      midpoint = { 1.5, 2.5, 3, 3.5, 7 },
    }
    for mode, w in pairs(want) do
      near(w, t:quantile(q, nil, nil, { interpolation = mode }):tolist())
    end
  end)

  it("put a 1-d q's dim first and keep the reduced dim with keepdim", function()
    local r = x:nanquantile(lt.tensor({ 0.25, 0.5 }), 2, true)
    assert.same({ 2, 2, 1 }, r.shape)
    near({ { { 1.75 }, { 1.5 } }, { { 3.5 }, { 3 } } }, r:tolist())
    assert.same({ 2 }, x:quantile(lt.tensor({ 0.25, 0.5 })).shape)
    assert.equal(3, lt.tensor(3.0):quantile(0.5))
  end)

  it("raise for integers, empty tensors, q out of [0, 1] and unknown interpolations", function()
    raises("quantile: not supported for int64", lt.quantile, lt.tensor({ 1, 2 }), 0.5)
    raises("quantile: input tensor must be non%-empty", lt.quantile, lt.empty({ 0 }), 0.5)
    raises("quantile: q must be in the range %[0, 1%], got 1.5", lt.quantile, x, 1.5)
    raises("quantile: q must be in the range", lt.quantile, x, nan)
    raises("nanquantile: interpolation must be", lt.nanquantile, x, 0.5, 1, false,
      { interpolation = "foo" })
    raises("quantile: q must have the input's dtype", lt.quantile, x,
      lt.tensor({ 0.5 }, "float64"))
    raises("quantile: q must be a number or a 0%-d or 1%-d tensor", lt.quantile, x,
      lt.tensor({ { 0.5 } }))
    raises("quantile: q must be a number or a tensor", lt.quantile, x, "half")
  end)
end)

describe("cov and corrcoef", function()
  local x = lt.tensor({ { 0, 1, 2 }, { 2, 1, 0.5 } })

  it("give the covariance of the rows' variables, with correction", function()
    near({ { 1, -0.75 }, { -0.75, 0.5833333 } }, x:cov():tolist())
    near({ { 0.6666667, -0.5 }, { -0.5, 0.3888889 } }, lt.cov(x, { correction = 0 }):tolist())
    near(7 / 3, lt.tensor({ 1, 2, 4 }):cov():item())
    assert.equal(0, lt.tensor({ 1, 2, 4 }):cov().ndim)
  end)

  it("weigh observations by fweights and aweights as torch", function()
    local c = x:cov({ fweights = lt.tensor({ 1, 2, 1 }), aweights = lt.tensor({ 0.5, 1, 2 }) })
    near({ { 0.6428571, -0.4285714 }, { -0.4285714, 0.3035714 } }, c:tolist())
  end)

  it("give float32 for integers, and conjugate complex deviations", function()
    local c = lt.tensor({ { 1, 2, 4 }, { 3, 3, 1 } }):cov()
    assert.equal("float32", c.dtype)
    near({ { 7 / 3, -5 / 3 }, { -5 / 3, 4 / 3 } }, c:tolist())
    local z = lt.tensor({ { 1, 2, 3 }, { 1, 0, 0 } }, "complex128")
    z[{ 1, 1 }] = { 1, 1 }
    z[{ 2, 3 }] = { 0, 1 }
    local zc = z:cov():tolist()
    near({ 4 / 3, 0 }, zc[1][1])
    near({ -2 / 3, -1 / 6 }, zc[1][2])
  end)

  it("normalize to correlation coefficients, NaN for a constant variable", function()
    near({ { 1, -0.9819805 }, { -0.9819805, 1 } }, x:corrcoef():tolist())
    near({ { nan, nan }, { nan, 1 } }, lt.tensor({ { 1, 1, 1 }, { 1, 2, 3 } }):corrcoef():tolist())
    near(1, lt.corrcoef(lt.tensor({ 1, 2, 4 })):item())
  end)

  it("reads transposed views and gives NaN for no observations", function()
    near(x:cov():tolist(), x:t():contiguous():t():cov():tolist())
    near({ { nan, nan }, { nan, nan } }, lt.empty({ 2, 0 }):cov():tolist())
  end)

  it("raise for 3-d input, bool, and bad weights", function()
    raises("cov: expected input to have two or fewer dims, got 3", lt.cov, lt.ones({ 2, 2, 2 }))
    raises("cov: not supported for bool", lt.cov, lt.tensor({ true, false }))
    raises("cov: fweights must have an integer dtype", lt.cov, x,
      { fweights = lt.tensor({ 1.0, 2, 1 }) })
    raises("cov: fweights cannot be negative", lt.cov, x, { fweights = lt.tensor({ 1, -2, 1 }) })
    raises("cov: aweights cannot be negative", lt.cov, x, { aweights = lt.tensor({ 1, -2, 1.0 }) })
    raises("cov: fweights must have one weight per observation %(3%), got 2", lt.cov, x,
      { fweights = lt.tensor({ 1, 2 }) })
    raises("cov: unknown option 'bias'", lt.cov, x, { bias = true })
  end)
end)

describe("diff", function()
  local a = lt.tensor({ { 1, 4, 9 }, { 2, 3, 7 } })

  it("takes forward differences along the last dim, n times", function()
    assert.same({ { 3, 5 }, { 1, 4 } }, a:diff():tolist())
    assert.same({ { 2 }, { 3 } }, a:diff(2):tolist())
    assert.same({ 0, 3 }, lt.diff(a, 2, 1).shape) -- more than the dim holds: empty
    assert.same(a:tolist(), a:diff(0):tolist())
  end)

  it("joins prepend and append first, promoting dtypes", function()
    local r = a:diff(1, 2, lt.tensor({ { 0 }, { 0 } }), lt.tensor({ { 1, 1 }, { 1, 1 } }))
    assert.same({ { 1, 3, 5, -8, 0 }, { 2, 1, 4, -6, 0 } }, r:tolist())
    near({ -0.5, 1 }, lt.tensor({ 1, 2 }):diff(1, 1, lt.tensor({ 1.5 })):tolist())
  end)

  it("compares bools and wraps unsigned integers, as torch", function()
    assert.same({ true, false }, lt.tensor({ true, false, false }):diff():tolist())
    assert.same({ 255 }, lt.tensor({ 2, 1 }, "uint8"):diff():tolist())
    assert.same({ 1, 3 }, lt.tensor({ 1, 4, 5 }):flip(1):diff():neg():tolist()) -- a view
  end)

  it("raises for 0-d input, negative n and prepend of other dims", function()
    raises("diff: expects input to be at least one%-dimensional", lt.diff, lt.tensor(3))
    raises("diff: n must be non%-negative, got %-1", lt.diff, a, -1)
    raises("diff: prepend must have the input's number of dims %(2%), got 0", lt.diff, a, 1, 2,
      lt.tensor(1))
    raises("diff' %(dim 3 out of range", lt.diff, a, 1, 3)
    -- n passes over a long row would run for minutes: a clear error instead
    raises("diff: n = 515498 differences of 560000 elements along dim 1 is too much work",
      lt.diff, lt.arange(560000), 515498)
  end)
end)

describe("trapezoid", function()
  local y = lt.tensor({ { 1, 2, 4 }, { 3, 5, 6 } })

  it("integrates along the last dim with unit spacing, dx, or sample points", function()
    near({ 4.5, 9.5 }, lt.trapezoid(y):tolist())
    near({ 1, 1.75, 2.5 }, lt.trapezoid(y, { dx = 0.5, dim = 1 }):tolist())
    near({ 7.5, 15 }, lt.trapezoid(y, lt.tensor({ 0, 1, 3.0 })):tolist())
    near({ 7.5, 13.5 }, lt.trapezoid(y, y):tolist())
    near(8, lt.trapezoid(lt.tensor({ 1, 2, 3 }), 2):item())
  end)

  it("gives float32 for integers and 0 for one point or none", function()
    local r = lt.trapezoid(lt.tensor({ 1, 2, 3 }))
    assert.equal("float32", r.dtype)
    assert.equal(4, r:item())
    assert.equal(0, lt.trapezoid(lt.tensor({ 1.0 })):item())
    assert.equal(0, lt.trapezoid(lt.empty({ 0 })):item())
    near(6.5, lt.trapezoid(lt.tensor({ 1, 2, 3 }), lt.tensor({ 1, 2, 4 })):item())
  end)

  it("raises for mismatched sample points and 0-d y", function()
    raises("trapezoid: there must be one x value for each sample point", lt.trapezoid, y,
      lt.tensor({ 0.0, 1 }))
    raises("trapezoid: y must have at least one dim", lt.trapezoid, lt.tensor(1.0))
    raises("trapezoid: give x or dx, not both", lt.trapezoid, y, lt.tensor({ 1, 2, 3 }),
      { dx = 2 })
  end)
end)

describe("histogram", function()
  local h = lt.tensor({ 1, 2, 1, 2.5, 4 })

  it("counts in equal bins over the data's range and returns the edges", function()
    local hist, edges = h:histogram(4)
    near({ 2, 1, 1, 1 }, hist:tolist())
    near({ 1, 1.75, 2.5, 3.25, 4 }, edges:tolist())
    assert.equal(100, #lt.histogram(h))
  end)

  it("takes a tensor of edges, range, weight and density", function()
    near({ 0, 2, 3 }, (h:histogram(lt.tensor({ 0, 1, 2, 5.0 }))):tolist())
    local hist = h:histogram(3, { range = { 0, 3 }, weight = lt.tensor({ 1, 2, 3, 4, 5.0 }),
      density = true })
    near({ 0, 0.4, 0.6 }, hist:tolist())
  end)

  it("widens one value by 0.5 each way, and counts nothing in [0, 1] for no data", function()
    local hist, edges = lt.tensor({ 2, 2.0 }, "float64"):histogram(2)
    near({ 0, 2 }, hist:tolist())
    near({ 1.5, 2, 2.5 }, edges:tolist())
    assert.equal("float64", edges.dtype)
    local _, e = lt.empty({ 0 }):histogram(3)
    near({ 0, 1 / 3, 2 / 3, 1 }, e:tolist())
  end)

  it("counts every element of an n-d tensor, read through a view", function()
    near({ 2, 2 }, (lt.tensor({ { 1, 2 }, { 3, 4.0 } }):t():histogram(2)):tolist())
  end)

  it("raises as torch for integers, NaN ranges, bad bins and mismatched weights", function()
    raises("histogram: not supported for int64", lt.histogram, lt.tensor({ 1, 2 }), 2)
    raises("histogram: range of %[nan, nan%] is not finite", lt.histogram,
      lt.tensor({ 1, nan }), 2)
    raises("histogram: bins must be > 0, got 0", lt.histogram, h, 0)
    raises("histogram: min should not exceed max", lt.histogram, h, 2, { range = { 3, 1 } })
    raises("histogram: bin edges must increase monotonically", lt.histogram, h,
      lt.tensor({ 0, 2, 1.0 }))
    raises("histogram: bins tensor must have the input's dtype", lt.histogram, h,
      lt.tensor({ 0, 1 }, "float64"))
    raises("histogram: weight must have the input's shape", lt.histogram, h, 2,
      { weight = lt.tensor({ 1, 2.0 }) })
    raises("histogram: range of %[0, inf%] is not finite", lt.histogram, h, 2,
      { range = { 0, inf } })
  end)
end)

describe("logcumsumexp", function()
  it("is the running log(sum(exp(t))) along dim, -inf adding nothing", function()
    near({ 0, 1.3132617, 1.3132617, inf }, lt.tensor({ 0, 1, -inf, inf }):logcumsumexp(1):tolist())
    near({ -inf, -inf }, lt.tensor({ -inf, -inf }):logcumsumexp(1):tolist())
    near({ 1, nan, nan }, lt.tensor({ 1, nan, 2 }):logcumsumexp(-1):tolist())
  end)

  it("is stable for large values and scans any dim of a view", function()
    local t = lt.tensor({ { 1000, 1000 }, { 0, 0 } }, "float64")
    near({ { 1000, 1000 + math.log(2) }, { 0, math.log(2) } }, t:logcumsumexp(2):tolist(), 1e-12)
    near({ { 1000, 0 }, { 1000 + math.log(2), math.log(2) } },
      lt.logcumsumexp(t:t(), 1):tolist(), 1e-12)
    assert.equal(1, lt.tensor(1.0):logcumsumexp(1):item())
  end)

  it("needs a dim and a floating dtype, as torch", function()
    raises("logcumsumexp: expected a dim", lt.logcumsumexp, lt.zeros({ 2 }))
    raises("logcumsumexp: not supported for int64", lt.logcumsumexp, lt.tensor({ 1, 2 }), 1)
  end)
end)
