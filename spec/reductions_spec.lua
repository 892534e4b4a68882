-- Reductions as a Lua script uses them (SPEC.md, "Results a Lua script can test"; issue 13):
-- over every element a Lua value, as t:item() would give (a 0-d tensor is always truthy, so
-- `if t:all()` needs a boolean); over a dim or a table of dims a tensor; torch 2.x's positional
-- order (`var(dim, unbiased, keepdim)`), with torch's keyword-only arguments in one trailing
-- options table. math_spec.lua has the values of each reduction over one dim; this file the
-- forms of the results, several dims, the argument order and the options.
local lt = require "ltensor"
local raises = require("helpers").raises

local function isnan(x) return x ~= x end

-- The Lua type of v: "integer", "float", or type(v).
local function kind(v) return math.type(v) or type(v) end

-- Nested lists agree within a relative tolerance.
local function near(expected, actual, tol)
  require("helpers").near(expected, actual, tol or 1e-9)
end

describe("a reduction over every element", function()
  it("is a boolean for all and any, so that `if t:all()` tests the elements", function()
    local t = lt.tensor({ 1, 0, 1 })
    local taken = false
    if t:all() then taken = true end
    assert.is_false(taken)
    assert.equal(false, t:all())
    assert.equal(true, t:any())
    assert.equal(true, lt.tensor({ 2, 3 }):all())
    assert.equal(false, lt.zeros({ 2, 2 }):any())
    assert.is_true(lt.tensor({ { true, true } }):all())
  end)

  it("answers all and any for complex tensors as torch: nonzero when either part is", function()
    for _, dt in ipairs({ "complex64", "complex128" }) do
      local c = lt.zeros({ 2, 2 }, dt)
      c[{ 1, 1 }] = { 1, 0 }
      c[{ 2, 1 }] = { 0, -2 } -- only the imaginary part is nonzero
      assert.equal(false, c:all())
      assert.equal(true, c:any())
      assert.equal(true, c[{ {}, 1 }]:all())
      assert.same({ true, false }, c:all(1):tolist())
      assert.same({ true, true }, c:any(2):tolist())
      assert.same({ { false }, { false } }, c:all(2, true):tolist())
      assert.equal(false, lt.zeros(3, dt):any())
      c[{ 1, 2 }] = { 0 / 0, 0 } -- NaN is nonzero
      c[{ 2, 2 }] = { 0, 1 }
      assert.equal(true, c:all())
      assert.same({ true }, c:all({ 1, 2 }, true):view(-1):tolist())
    end
  end)

  it("is an integer for integer tensors: t:sum() == 15 and for i = 1, t:sum() work", function()
    local t = lt.tensor({ 1, 2, 3, 4, 5 })
    assert.is_true(t:sum() == 15)
    assert.equal("integer", kind(t:sum()))
    local n = 0
    for _ = 1, lt.tensor({ 1, 2 }):sum() do n = n + 1 end
    assert.equal(3, n)
    assert.equal(120, t:prod())
    assert.equal("integer", kind(lt.tensor({ 3, 200 }, "uint8"):max()))
    assert.equal(200, lt.tensor({ 3, 200 }, "uint8"):max())
    assert.equal(-3, lt.tensor({ -3, 5 }, "int8"):min())
    assert.equal(400, lt.tensor({ 200, 200 }, "uint8"):sum()) -- accumulated in int64
  end)

  it("is a float for floating tensors: math.floor(t:mean()) works", function()
    local t = lt.tensor({ 1.5, 2.5, 4.0 })
    assert.equal("float", kind(t:mean()))
    assert.equal(2, math.floor(t:mean()))
    assert.equal(8.0, t:sum())
    assert.equal("float", kind(lt.tensor({ 1, 2 }, "float16"):sum()))
    assert.equal(4.0, t:amax())
    assert.equal(1.5, t:amin())
  end)

  it("is {re, im} for complex tensors", function()
    local z = lt.zeros({ 2 }, "complex128")
    z[1] = { 3, 4 }
    z[2] = { 1, -1 }
    assert.same({ 4, 3 }, z:sum())
    assert.same({ 2, 1.5 }, z:mean())
    assert.same({ 7, 1 }, z:prod())
    near(math.sqrt(27), z:norm()) -- |3+4i|^2 + |1-i|^2 = 25 + 2
  end)

  it("gives argmax and argmin as a 1-based position in row-major order, also of views", function()
    local a = lt.tensor({ { 1, 9, 3 }, { 4, 2, 6 } })
    assert.equal(2, a:argmax())
    assert.equal("integer", kind(a:argmax()))
    assert.equal(1, a:argmin())
    assert.equal(3, a:t():argmax()) -- a:t() reads 1 4 9 2 3 6
    local c = lt.arange(24):reshape(2, 3, 4):permute(3, 1, 2) -- c[4][2][3] holds 23
    assert.equal(24, c:argmax())
    assert.equal(23, c:reshape(24)[c:argmax()])
  end)

  it("equals t:item() of the tensor a table of every dim gives, for every reduction", function()
    local t = lt.tensor({ { 1.5, -2, 0 }, { 4, 0.25, 3 } }, "float64")
    for _, name in ipairs({ "sum", "mean", "amax", "amin", "all", "any", "var", "std",
      "count_nonzero", "norm" }) do
      local v, r = t[name](t), nil
      if name == "norm" then r = t:norm(2, { 1, 2 }) else r = t[name](t, { 1, 2 }) end
      assert.equal(0, r.ndim, name)
      assert.equal(r:item(), v, name)
      assert.are_not.equal("userdata", type(v), name)
    end
    for _, name in ipairs({ "prod", "max", "min", "argmax", "argmin" }) do
      assert.are_not.equal("userdata", type(t[name](t)), name)
    end
    assert.equal(t:prod(), t:reshape(6):prod(1):item())
    assert.equal(4.0, t:max())
    assert.equal(-2.0, t:min())
  end)

  it("keeps a tensor with keepdim (every dim of size 1)", function()
    local s = lt.tensor({ { 1, 2 }, { 3, 4 } }):sum(nil, true)
    assert.same({ 1, 1 }, s.shape)
    assert.equal(10, s[1][1])
  end)

  it("of nothing gives 0 for sum, 1 for prod, NaN for mean and var, and raises for max", function()
    local e = lt.zeros({ 0 }, "int64")
    assert.equal(0, e:sum())
    assert.equal("integer", kind(e:sum()))
    assert.equal(1, e:prod())
    assert.equal(0, e:count_nonzero())
    assert.is_true(lt.zeros({ 0 }):all())
    assert.is_false(lt.zeros({ 0 }):any())
    assert.is_true(isnan(lt.zeros({ 0 }):mean()))
    assert.is_true(isnan(lt.zeros({ 0 }):var()))
    assert.equal(0.0, lt.zeros({ 0, 3 }):norm())
    raises("empty", function() return e:max() end)
    raises("empty", function() return e:amax() end)
    raises("empty", function() return e:argmax() end)
    raises("empty", function() return lt.zeros({ 0 }):norm(math.huge) end)
  end)
end)

describe("a reduction over a table of dims", function()
  -- The reference: one dim at a time, the highest first so that the others keep their numbers.
  local function one_at_a_time(t, name, dims)
    local sorted = {}
    for i, d in ipairs(dims) do sorted[i] = d < 0 and d + t.ndim + 1 or d end
    table.sort(sorted, function(a, b) return a > b end)
    for _, d in ipairs(sorted) do t = t[name](t, d) end
    return t
  end

  local base = lt.arange(120):reshape(2, 3, 4, 5):to("float64") - 50
  local views = {
    contiguous = base,
    permuted = base:permute(4, 2, 1, 3), -- reduced dims whose strides do not nest: a copy
    strided = base[{ {}, { 1, 3, 2 }, {}, { 5, 1, -2 } }],
  }
  local dimsets = { { 1, 2 }, { 2, 4 }, { 1, 3, 4 }, { -1, 1 }, { 4, 3, 2, 1 }, { 3 } }

  it("sums, averages, takes amax, amin, all, any and count_nonzero as one dim at a time", function()
    for vname, t in pairs(views) do
      for _, dims in ipairs(dimsets) do
        local what = vname .. " " .. table.concat(dims, ",")
        for _, name in ipairs({ "sum", "mean", "amax", "amin", "all", "any" }) do
          local got, ref = t[name](t, dims), one_at_a_time(t, name, dims)
          assert.equal(ref.dtype, got.dtype, name .. " " .. what)
          assert.same(ref.shape, got.shape, name .. " " .. what)
          if name == "sum" or name == "mean" then
            near(ref:tolist(), got:tolist())
          else
            assert.same(ref:tolist(), got:tolist(), name .. " " .. what)
          end
        end
        local nz = (t:ne(0)):to("int64")
        assert.same(one_at_a_time(nz, "sum", dims):tolist(), t:count_nonzero(dims):tolist())
      end
    end
  end)

  it("gives var and std of the elements the dims select together", function()
    local t = views.permuted -- shape 5, 3, 2, 4
    -- over {2, 4}: for each (i, k), the 12 elements t[i][.][k][.]
    local ref = t:permute(1, 3, 2, 4):reshape(5, 2, 12)
    near(ref:var(3):tolist(), t:var({ 2, 4 }):tolist())
    near(ref:var(3, false):tolist(), t:var({ 2, 4 }, false):tolist())
    near(ref:std(3, { correction = 2 }):tolist(), t:std({ 2, 4 }, { correction = 2 }):tolist())
    near(t:reshape(120):var(1):item(), t:var({ 1, 2, 3, 4 }):item())
  end)

  it("gives the norm of the elements the dims select together", function()
    local t = views.strided
    local sq = (t * t):sum({ 2, 4 }):sqrt()
    near(sq:tolist(), t:norm(2, { 2, 4 }):tolist())
    near(t:abs():sum({ 1, 3 }):tolist(), t:norm(1, { 1, 3 }):tolist())
    near(t:abs():amax({ 1, 2 }):tolist(), t:norm(math.huge, { 1, 2 }):tolist())
    near(((t:abs() ^ 3):sum({ 3, 4 }) ^ (1 / 3)):tolist(), t:norm(3, { 3, 4 }):tolist())
    near(t:ne(0):sum({ 2, 3 }):to("float64"):tolist(), t:norm(0, { 2, 3 }):tolist())
  end)

  it("keeps every reduced dim as size 1 with keepdim", function()
    local t = lt.arange(24):reshape(2, 3, 4)
    assert.same({ 1, 3, 1 }, t:sum({ 1, 3 }, true).shape)
    assert.same({ 1, 1, 1 }, t:amax({ 1, 2, 3 }, true).shape)
    assert.same({ 2, 1, 1 }, t:to("float32"):mean({ -1, -2 }, true).shape)
    assert.same({ 1, 3, 1 }, t:to("float32"):var({ 1, 3 }, true, true).shape)
    assert.same({ 3 }, t:sum({ 1, 3 }).shape)
    assert.same(t:sum({ 1, 3 }):tolist(), t:sum({ 1, 3 }, true):reshape(3):tolist())
  end)

  it("gives a tensor, 0-d when every dim is reduced; a table of one dim is that dim", function()
    local t = lt.tensor({ { 1, 2 }, { 3, 4 } })
    local s = t:sum({ 1, 2 })
    assert.equal("userdata", type(s))
    assert.equal(0, s.ndim)
    assert.equal(10, s:item())
    assert.same(t:sum(2):tolist(), t:sum({ 2 }):tolist())
    assert.same(t:sum(-1):tolist(), t:sum({ -1 }):tolist())
  end)

  it("refuses a dim given twice, also as a negative dim", function()
    local t = lt.zeros({ 2, 3, 4 })
    raises("dim 1 appears twice", function() return t:sum({ 1, 1 }) end)
    raises("dim 3 appears twice", function() return t:mean({ 3, -1 }) end)
    raises("dim 2 appears twice", function() return t:amax({ 2, 1, -2 }) end)
    raises("dim 1 appears twice", function() return lt.tensor(5):sum({ 1, -1 }) end)
    assert.equal(5, lt.tensor(5):sum({ 1 }):item()) -- a 0-d tensor's one dim
  end)

  it("refuses dims out of range and entries that are not integers", function()
    local t = lt.zeros({ 2, 3 })
    raises("dim 3 out of range", function() return t:sum({ 1, 3 }) end)
    raises("dim %-3 out of range", function() return t:sum({ -3 }) end)
    raises("must be an integer", function() return t:sum({ 1, 1.5 }) end)
    raises("must be an integer, got string", function() return t:sum({ 1, "x" }) end)
    raises("dim 1 appears twice", function() return t:sum({ 1, 2, 1 }) end)
    raises("65 dims given for a tensor of 2 dims", function()
      local many = {}
      for i = 1, 65 do many[i] = 1 end
      return t:sum(many)
    end)
  end)

  it("is refused where torch takes one dim: prod, argmax, argmin, max and min", function()
    local t = lt.ones({ 2, 3 })
    for _, name in ipairs({ "prod", "argmax", "argmin", "max", "min" }) do
      raises("integer expected, got table", function() return t[name](t, { 1, 2 }) end)
    end
  end)

  it("refuses max and amax over an empty dim, naming it", function()
    local t = lt.zeros({ 2, 0, 3 })
    raises("dimension 2 has size 0", function() return t:amax({ 1, 2 }) end)
    assert.same({ 0, 3 }, t:sum({ 1 }).shape)
    assert.same({ 3 }, t:sum({ 1, 2 }):tolist() and t:sum({ 1, 2 }).shape)
    assert.same({ 0, 0, 0 }, t:sum({ 1, 2 }):tolist())
  end)
end)

describe("reduction arguments in torch 2.x's positional order", function()
  local v = lt.tensor({ 1.0, 2.0, 3.0, 4.0 })

  it("read var and std as (dim, unbiased, keepdim): var(1, false) is torch's 1.25", function()
    near(1.25, v:var(1, false):item(), 1e-6)
    near(5 / 3, v:var(1, true):item(), 1e-6)
    near(1.25, v:var(false), 1e-6) -- torch's var(unbiased)
    near(math.sqrt(1.25), v:std(false), 1e-6)
    assert.same({ 1 }, v:var(1, false, true).shape)
    assert.same({ 1 }, v:std(1, nil, true).shape)
    near(5 / 3, v:var(), 1e-6)
  end)

  it("read max and min as (dim, keepdim), giving values and 1-based positions", function()
    local m = lt.tensor({ { 1, 7, 3 }, { 9, 2, 9 } })
    local values, indices = m:max(2, true)
    assert.same({ { 7 }, { 9 } }, values:tolist())
    assert.same({ { 2 }, { 1 } }, indices:tolist())
    values, indices = m:min(1)
    assert.same({ 1, 2, 3 }, values:tolist())
    assert.same({ 1, 2, 1 }, indices:tolist())
    assert.same({ { 2, 1, 2 } }, m:argmax(1, true):tolist())
  end)

  it("compare two tensors elementwise with max(other) and min(other), as torch", function()
    local a, b = lt.tensor({ 1, 5, 3 }), lt.tensor({ 4, 2, 3 })
    assert.same({ 4, 5, 3 }, a:max(b):tolist())
    assert.same({ 1, 2, 3 }, a:min(b):tolist())
  end)

  it("read norm as (p, dim, keepdim), p 2 ('fro') by default", function()
    local m = lt.tensor({ { 3, -4 }, { 0, 12 } }, "float64")
    near(13, m:norm())
    near(13, m:norm("fro"))
    near(19, m:norm(1))
    near(12, m:norm(math.huge))
    near(0, m:norm(-math.huge))
    near(3, m:norm(0))
    near({ 5, 12 }, m:norm(2, 2):tolist())
    near({ { 4 }, { 12 } }, m:norm(math.huge, 2, true):tolist())
    raises("floating point", function() return lt.tensor({ 1, 2 }):norm() end)
    raises("'fro'", function() return m:norm("nuc") end)
  end)

  it("read count_nonzero as (dim) alone, as torch", function()
    local m = lt.tensor({ { 0, 1, 2 }, { 0, 0, 3 } })
    assert.equal(3, m:count_nonzero())
    assert.same({ 0, 1, 2 }, m:count_nonzero(1):tolist())
    assert.same({ 2, 1 }, m:count_nonzero(-1):tolist())
    assert.equal("int64", m:count_nonzero(1).dtype)
    raises("too many arguments", function() return m:count_nonzero(1, true) end)
  end)

  it("refuse a keepdim or unbiased that is not a boolean, and extra arguments", function()
    raises("keepdim must be a boolean", function() return v:sum(1, 1) end)
    raises("unbiased must be a boolean", function() return v:var(1, 0) end)
    raises("too many arguments", function() return v:sum(1, true, false) end)
    raises("too many arguments", function() return v:var(1, false, true, 0) end)
  end)
end)

describe("the trailing options table of reductions", function()
  local v = lt.tensor({ 1.0, 2.0, 3.0, 4.0 })

  it("carries var's and std's correction", function()
    near(1.25, v:var({ correction = 0 }), 1e-6)
    near(1.25, v:var(1, { correction = 0 }):item(), 1e-6)
    near(5 / 2, v:var(1, nil, true, { correction = 2 }):tolist()[1], 1e-6)
    near(math.sqrt(1.25), v:std({ correction = 0 }), 1e-6)
    raises("unbiased or correction, not both", function() return v:var(1, true, { correction = 0 }) end)
    raises("unbiased or correction, not both", function() return v:var(false, { correction = 0 }) end)
    raises("correction must be an integer", function() return v:var({ correction = "x" }) end)
  end)

  it("carries sum's, mean's and prod's dtype: the input is cast first, as torch", function()
    local i = lt.tensor({ 1, 2, 4 })
    local s = i:sum({ dtype = "float64" })
    assert.equal("float", kind(s))
    assert.equal(7.0, s)
    assert.equal("int32", i:sum(1, { dtype = "int32" }).dtype)
    assert.equal("float64", i:mean(1, { dtype = "float64" }).dtype)
    near(7 / 3, i:mean({ dtype = "float64" }))
    assert.equal(8.0, i:prod({ dtype = "float32" }))
    assert.equal(-1, lt.tensor({ 1 << 31, 1 << 31, -1 }):sum({ dtype = "int32" })) -- wraps in int32
    raises("unknown dtype 'float99'", function() return i:sum({ dtype = "float99" }) end)
    raises("floating point", function() return i:mean({ dtype = "int64" }) end)
  end)

  it("raises for an unknown key, naming it and the keys there are", function()
    raises("sum: unknown option 'dtpye' %(expected dtype%)", function() return v:sum({ dtpye = "float64" }) end)
    raises("var: unknown option 'unbiased' %(expected correction%)", function() return v:var({ unbiased = false }) end)
    raises("unknown option 'dtype' %(expected none%)", function() return v:amax(1, { dtype = "float64" }) end)
    raises("options are named", function() return v:sum({ [2] = 1 }) end)
  end)

  it("is read before the tensor: an __index that releases the tensor gives an error", function()
    local t = lt.tensor({ 1.0, 2.0 })
    local opts = setmetatable({}, { __index = function() local c <close> = t end })
    raises("tensor has been released", function() return t:sum(1, opts) end)
    assert.is_false(pcall(function() return t:sum() end))
  end)
end)
