-- softmax, log_softmax, logsumexp, isclose, allclose, equal, dist, outer and cross (issue 16):
-- torch 2.x names, positional order and results, dims 1-based. The expected values are
-- computed here in Lua from their definitions; spec/c/torch_host.c compares with torch itself.
local lt = require "ltensor"
local raises = require("helpers").raises

local inf = math.huge
local function isnan(x) return x ~= x end

-- Nested lists agree within a relative tolerance (NaN matches NaN; default 1e-12).
local near = require("helpers").near

-- The softmax of a Lua list, from the definition (shifted by the largest element).
local function softmax_list(xs)
  local m = -inf
  for _, x in ipairs(xs) do m = math.max(m, x) end
  local s, r = 0, {}
  for i, x in ipairs(xs) do
    r[i] = math.exp(x - m)
    s = s + r[i]
  end
  for i = 1, #r do r[i] = r[i] / s end
  return r
end
local function logsumexp_list(xs)
  local m = -inf
  for _, x in ipairs(xs) do m = math.max(m, x) end
  local s = 0
  for _, x in ipairs(xs) do s = s + math.exp(x - m) end
  return math.log(s) + m
end

local rows = { { 1, 2, 3, 4 }, { -1, 0.5, 0.25, 8 }, { 3, 3, 3, 3 } }

describe("softmax", function()
  it("of each row (dim 2 or -1) follows the definition", function()
    local t = lt.tensor(rows, "float64")
    local expected = {}
    for i, r in ipairs(rows) do expected[i] = softmax_list(r) end
    near(expected, t:softmax(2):tolist())
    near(expected, t:softmax(-1):tolist())
    assert.equal("float64", t:softmax(2).dtype)
  end)

  it("along dim 1 is the softmax of each column", function()
    local t = lt.tensor(rows, "float64")
    local got = t:softmax(1):tolist()
    for j = 1, 4 do
      local col = {}
      for i = 1, 3 do col[i] = rows[i][j] end
      local e = softmax_list(col)
      for i = 1, 3 do near(e[i], got[i][j]) end
    end
  end)

  it("sums to 1 along the dim and is uniform over a row of equal values", function()
    local t = lt.tensor(rows)
    local s = t:softmax(2):sum(2):tolist()
    near({ 1, 1, 1 }, s, 1e-6)
    near({ 0.25, 0.25, 0.25, 0.25 }, t:softmax(2):tolist()[3], 1e-7)
  end)

  it("does not overflow with huge float32 inputs (max-shifted)", function()
    local t = lt.tensor({ 1e4, 1e4 - 1, -1e4 }, "float32")
    local got = t:softmax(1):tolist()
    local e = softmax_list({ 1e4, 1e4 - 1, -1e4 })
    near(e, got, 1e-6)
    near(logsumexp_list({ 1e4, 1e4 - 1, -1e4 }), t:logsumexp(1):item(), 1e-6)
    local l1 = math.log(1 + math.exp(-1))
    near({ -l1, -1 - l1, -2e4 - l1 },
      t:log_softmax(1):tolist(), 1e-6)
  end)

  it("gives 0 for -inf entries and nan for rows of -inf only, as torch", function()
    local t = lt.tensor({ { -inf, 1 }, { -inf, -inf }, { inf, 1 }, { 0 / 0, 1 } })
    local got = t:softmax(2):tolist()
    assert.same({ 0, 1 }, got[1])
    for i = 2, 4 do
      assert.is_true(isnan(got[i][1]) and isnan(got[i][2]))
    end
    local l = t:log_softmax(2):tolist()
    assert.same({ -inf, 0 }, l[1])
    assert.is_true(isnan(l[2][1]) and isnan(l[3][2]))
  end)

  it("of a 0-d tensor is 1 (log_softmax 0) and of an empty tensor empty", function()
    local s = lt.tensor(3.5):softmax(1)
    assert.equal(0, s.ndim)
    assert.equal(1, s:item())
    assert.equal(0, lt.tensor(3.5):log_softmax(-1):item())
    local e = lt.zeros({ 2, 0 }):softmax(2)
    assert.same({ 2, 0 }, e.shape)
    assert.same({ 0, 3 }, lt.zeros({ 0, 3 }):log_softmax(2).shape)
  end)

  it("of a non-contiguous view and of a read-only tensor is computed out of place", function()
    local base = lt.tensor(rows, "float64")
    local t = base:transpose(1, 2) -- 4 x 3, strided
    local want = base:softmax(1):transpose(1, 2):tolist()
    near(want, t:softmax(2):tolist())
    local dlpack = require "ltensor.dlpack"
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.tensor(rows, "float64")))
    assert.is_true(ro:is_read_only())
    near(base:softmax(2):tolist(), ro:softmax(2):tolist())
    near(base:logsumexp(2):tolist(), ro:logsumexp(2):tolist())
  end)

  it("computes float16 and bfloat16 in float32 and keeps their dtype", function()
    for _, dt in ipairs({ "float16", "bfloat16" }) do
      local t = lt.tensor({ 1, 2, 3 }, dt)
      local s = t:softmax(1)
      assert.equal(dt, s.dtype)
      near(softmax_list({ 1, 2, 3 }), s:tolist(), 1e-2)
      assert.equal(dt, t:logsumexp(1).dtype)
    end
  end)

  it("refuses integers unless dtype= is given, as torch", function()
    local t = lt.tensor({ 1, 2 })
    raises("softmax: not implemented for int64 input", function() return t:softmax(1) end)
    raises("log_softmax: not implemented for bool", function()
      return lt.tensor({ true }):log_softmax(1)
    end)
    local s = t:softmax(1, { dtype = "float64" })
    assert.equal("float64", s.dtype)
    near(softmax_list({ 1, 2 }), s:tolist())
    raises("not implemented for int32", function() return t:softmax(1, { dtype = "int32" }) end)
  end)

  it("names bad arguments", function()
    local t = lt.tensor(rows)
    raises("dim 3 out of range for a tensor of 2 dims", function() return t:softmax(3) end)
    raises("softmax: a dim is required", function() return t:softmax() end)
    raises("unknown option 'dtpye'", function() return t:softmax(1, { dtpye = "float32" }) end)
    raises("softmax: unknown dtype 'float99'", function() return t:softmax(1, { dtype = "float99" }) end)
    raises("too many arguments", function() return t:log_softmax(1, 2, 3) end)
  end)
end)

describe("logsumexp", function()
  it("of each row follows the definition, and keepdim keeps the dim", function()
    local t = lt.tensor(rows, "float64")
    local e = {}
    for i, r in ipairs(rows) do e[i] = logsumexp_list(r) end
    near(e, t:logsumexp(2):tolist())
    near(e, t:logsumexp(-1):tolist())
    assert.same({ 3, 1 }, t:logsumexp(2, true).shape)
    near({ { e[1] }, { e[2] }, { e[3] } }, t:logsumexp(2, true):tolist())
  end)

  it("takes a table of dims (and {} for every dim)", function()
    local t = lt.arange(24, "float64"):reshape(2, 3, 4) / 10
    local r = t:logsumexp({ 1, 3 })
    assert.same({ 3 }, r.shape)
    local l = t:tolist()
    for j = 1, 3 do
      local xs = {}
      for i = 1, 2 do for k = 1, 4 do xs[#xs + 1] = l[i][j][k] end end
      near(logsumexp_list(xs), r[j])
    end
    assert.same({ 1, 3, 1 }, t:logsumexp({ 1, 3 }, true).shape)
    local all = {}
    for i = 0, 23 do all[#all + 1] = i / 10 end
    near(logsumexp_list(all), t:logsumexp({}):item())
    -- a strided view reduced over two dims that do not merge
    local v = t:transpose(1, 3) -- 4 x 3 x 2
    near(r:tolist(), v:logsumexp({ 1, 3 }):tolist())
    raises("dim 1 appears twice", function() return t:logsumexp({ 1, -3 }) end)
    raises("dim 4 out of range", function() return t:logsumexp({ 4 }) end)
  end)

  it("gives -inf for rows of -inf and for empty rows, +inf for a row with +inf", function()
    local t = lt.tensor({ { -inf, -inf }, { inf, 1 }, { -inf, 0 } })
    assert.same({ -inf, inf, 0 }, t:logsumexp(2):tolist())
    assert.same({ -inf, -inf }, lt.zeros({ 2, 0 }):logsumexp(2):tolist())
    assert.equal(2.5, lt.tensor(2.5, "float64"):logsumexp(1):item())
  end)

  it("computes integers in float32, as torch", function()
    local r = lt.tensor({ 1, 2 }):logsumexp(1)
    assert.equal("float32", r.dtype)
    near(logsumexp_list({ 1, 2 }), r:item(), 1e-6)
    raises("logsumexp: not supported for complex64", function()
      return lt.tensor({ 1, 2 }, "complex64"):logsumexp(1)
    end)
  end)
end)

describe("isclose, allclose and equal", function()
  it("isclose follows torch's rule with its defaults", function()
    local a = lt.tensor({ 1, 1 + 1e-6, 1 + 1e-4, 0 / 0, inf, -inf, inf, 1e-9 }, "float64")
    local b = lt.tensor({ 1, 1, 1, 0 / 0, inf, inf, 1e308, 0 }, "float64")
    assert.same({ true, true, false, false, true, false, false, true }, a:isclose(b):tolist())
    assert.same({ true, true, false, true, true, false, false, true },
      a:isclose(b, nil, nil, true):tolist())
    assert.same({ true, false, false, false, true, false, false, false },
      a:isclose(b, 0, 0):tolist())
    assert.same({ true, true, true, false, true, false, false, true },
      a:isclose(b, 1e-3):tolist())
    assert.equal("bool", a:isclose(b).dtype)
  end)

  it("isclose broadcasts; integers and bools compare too", function()
    local r = lt.ones({ 2, 1 }):isclose(lt.tensor({ 1, 2, 1 }, "float32"))
    assert.same({ { true, false, true }, { true, false, true } }, r:tolist())
    assert.same({ true, true }, lt.tensor({ 1, 3 }):isclose(lt.tensor({ 3, 1 }), 0, 2.5):tolist())
    assert.same({ true }, lt.tensor({ true }):isclose(lt.tensor({ true })):tolist())
  end)

  it("allclose is a Lua boolean", function()
    local a = lt.tensor({ 1, 2, 3 }, "float64")
    assert.equal(true, a:allclose(a + 1e-9))
    assert.equal(false, a:allclose(a + 1e-3))
    assert.equal(true, a:allclose(a + 1e-3, 1e-2))
    assert.equal(true, a:allclose(a + 1e-3, 0, 2e-3))
    assert.equal(true, lt.zeros({ 0 }):allclose(lt.zeros({ 0 })))
    local n = lt.tensor({ 0 / 0 })
    assert.equal(false, n:allclose(n))
    assert.equal(true, n:allclose(n, nil, nil, true))
  end)

  it("refuses other dtypes, negative tolerances and shapes that do not broadcast", function()
    local a = lt.tensor({ 1, 2 }, "float32")
    raises("isclose: inputs must have the same dtype, got float32 and float64",
      function() return a:isclose(lt.tensor({ 1, 2 }, "float64")) end)
    raises("allclose: rtol must be >= 0, got %-1", function() return a:allclose(a, -1) end)
    raises("atol must be >= 0", function() return a:isclose(a, 0, -1) end)
    raises("isclose:", function() return a:isclose(lt.zeros({ 3 })) end)
    raises("equal_nan is not supported for complex", function()
      local c = lt.tensor({ 1 }, "complex64")
      return c:isclose(c, nil, nil, true)
    end)
    raises("bad argument #1 to 'isclose' %(tensor expected, got number%)", function() return a:isclose(3) end)
  end)

  it("equal is true for the same shape and elements, across dtypes as torch", function()
    local a = lt.tensor({ { 1, 2 }, { 3, 4 } })
    assert.equal(true, a:equal(lt.tensor({ { 1, 2 }, { 3, 4 } })))
    assert.equal(true, a:equal(a:to("float32")))
    assert.equal(false, a:equal(lt.tensor({ { 1, 2 }, { 3, 5 } })))
    assert.equal(false, a:equal(lt.tensor({ 1, 2, 3, 4 })))
    assert.equal(false, lt.ones({ 2 }):equal(lt.ones({ 1 })))
    assert.equal(true, a:transpose(1, 2):equal(lt.tensor({ { 1, 3 }, { 2, 4 } })))
    local n = lt.tensor({ 0 / 0 })
    assert.equal(false, n:equal(n))
    assert.equal(true, lt.zeros({ 0, 2 }):equal(lt.zeros({ 0, 2 })))
  end)
end)

describe("dist, outer and cross", function()
  local a = lt.tensor({ 1, 2, 3 }, "float64")
  local b = lt.tensor({ 4, 6, 9 }, "float64")

  it("dist is the p-norm of the difference, a Lua number", function()
    assert.equal(math.sqrt(9 + 16 + 36), a:dist(b))
    assert.equal(13, a:dist(b, 1))
    assert.equal(6, a:dist(b, inf))
    assert.equal(3, a:dist(b, -inf))
    assert.equal(3, a:dist(b, 0))
    near((27 + 64 + 216) ^ (1 / 3), a:dist(b, 3))
    near(math.sqrt(0 + 1 + 4), a:dist(lt.tensor(1, "float64"))) -- broadcast
    assert.equal(0, lt.zeros({ 0 }):dist(lt.zeros({ 0 }), inf))
    assert.equal("number", type(a:to("float32"):dist(b:to("float32"))))
    raises("dist: not supported for int64 %(floating point or complex expected%)",
      function() return lt.tensor({ 1 }):dist(lt.tensor({ 2 })) end)
  end)

  it("outer multiplies every pair, promoting dtypes", function()
    local r = a:outer(lt.tensor({ 1, 2 }))
    assert.same({ 3, 2 }, r.shape)
    assert.equal("float64", r.dtype)
    assert.same({ { 1, 2 }, { 2, 4 }, { 3, 6 } }, r:tolist())
    local s = lt.arange(6):reshape(2, 3):select(2, 2) -- a strided 1-d view {1, 4}
    assert.same({ { 1, 4 }, { 4, 16 } }, s:outer(s):tolist())
    assert.same({ 0, 3 }, lt.zeros({ 0 }):outer(a).shape)
    raises("outer: self must be a 1%-d tensor, got 2 dims", function() return lt.ones({ 2, 2 }):outer(a) end)
    raises("outer: vec2 must be a 1%-d tensor, got 0 dims", function() return a:outer(lt.tensor(1.0)) end)
  end)

  it("cross is the vector product along the first dim of size 3, or dim", function()
    assert.same({ 0, 3, -2 }, a:cross(b):tolist())
    assert.same({ -2, 4, -2 }, lt.tensor({ 1, 2, 3 }):cross(lt.tensor({ 3, 4, 5 })):tolist())
    local m = lt.tensor({ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, "float64")
    local n = lt.tensor({ { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 } }, "float64")
    -- rows are vectors with dim 2; without dim torch takes dim 1 (the columns)
    assert.same({ { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } }, m:cross(n, 2):tolist())
    assert.same({ { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } }, m:cross(n, -1):tolist())
    local cols = m:cross(n):tolist()
    local want = m:transpose(1, 2):cross(n:transpose(1, 2), 2):transpose(1, 2):tolist()
    assert.same(want, cols)
    -- broadcast (same number of dims)
    local r = lt.ones({ 2, 3 }):cross(lt.tensor({ { 1, 2, 3 } }, "float32"))
    assert.same({ { 1, -2, 1 }, { 1, -2, 1 } }, r:tolist())
  end)

  it("cross names what does not fit", function()
    raises("cross: no dim of size 3", function() return lt.ones({ 2, 4 }):cross(lt.ones({ 2, 4 })) end)
    raises("cross: dim 2 must have size 3, got 4 and 4",
      function() return lt.ones({ 2, 4 }):cross(lt.ones({ 2, 4 }), 2) end)
    raises("cross: inputs must have the same number of dims, got 2 and 1",
      function() return lt.ones({ 2, 3 }):cross(lt.ones({ 3 })) end)
    raises("cross: inputs must have the same dtype, got float32 and float64",
      function() return lt.ones({ 3 }):cross(lt.ones({ 3 }, "float64")) end)
    raises("dim 5 out of range", function() return lt.ones({ 3, 2 }):cross(lt.ones({ 3, 2 }), 5) end)
  end)
end)

describe("large inputs", function()
  it("split across the pool give the rows' own results", function()
    local t = (lt.arange(300 * 257, "float64"):reshape(300, 257) * 0.37):sin() * 5
    local s = t:softmax(2)
    local l = t:tolist()
    local got = s:tolist()
    for _, i in ipairs({ 1, 150, 300 }) do near(softmax_list(l[i]), got[i], 1e-12) end
    near(t:logsumexp(2):tolist(), (t - t:log_softmax(2)):select(2, 1):tolist(), 1e-9)
    for _, i in ipairs({ 1, 150, 300 }) do near(logsumexp_list(l[i]), t:logsumexp(2)[i], 1e-12) end
    near(s:sum(2):tolist(), lt.ones({ 300 }, "float64"):tolist(), 1e-12)
    -- along dim 1: rows side by side (the columns' elements adjacent), in groups and a rest
    local c, lc = t:softmax(1):tolist(), t:logsumexp(1):tolist()
    local lsc = t:log_softmax(1):tolist()
    for _, j in ipairs({ 1, 64, 65, 200, 257 }) do
      local col = {}
      for i = 1, 300 do col[i] = l[i][j] end
      local e = softmax_list(col)
      for _, i in ipairs({ 1, 77, 300 }) do
        near(e[i], c[i][j], 1e-12)
        near(col[i] - logsumexp_list(col), lsc[i][j], 1e-12)
      end
      near(logsumexp_list(col), lc[j], 1e-12)
    end
    local f = t:to("float32"):softmax(1):tolist()
    near(c[5], f[5], 1e-5)
  end)
end)
