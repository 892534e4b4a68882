-- lt.linalg's products and matrix functions that need no LAPACK: matrix_exp (and
-- t:matrix_exp, lt.matrix_exp), multi_dot, vecdot, cross and diagonal, with torch.linalg's
-- names, order, results and errors (dims 1-based, keyword arguments in an options table). The
-- expected values are torch 1.13's on the same data.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local helpers = require "helpers"

local function read_only(t) return dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(t)) end

local A3 = { { 0.5, -1.2, 0.3 }, { 2.0, 0.1, -0.7 }, { 0.4, 0.9, -1.5 } }
local EXP_A3 = { -- torch.linalg.matrix_exp(A3), float64
  { 0.41121680661913285, -0.9434418591467499, 0.36730247771448526 },
  { 1.6246724370521282, -0.16153583849843972, 0.016166304549114732 },
  { 0.698813990849495, 0.06881933153550153, 0.22856317806143955 } }
local EXP_20A3 = { -- of 20 * A3: 1-norm 52, scaled by 2^-6 and squared back
  { -0.28237858084617584, 5.932417415146082, -2.3323204404626523 },
  { -10.225062322869066, 3.363729008548608, -0.19949484631279907 },
  { -4.46056044445259, -0.3224208506702807, 0.6261376683127998 } }

-- A complex tensor from a list (or a matrix) of {re, im} pairs.
local function cplx(rows, dt)
  if type(rows[1][1]) ~= "table" then
    local z = lt.zeros({ #rows }, dt)
    for i = 1, #rows do z[i] = rows[i] end
    return z
  end
  local z = lt.zeros({ #rows, #rows[1] }, dt)
  for i = 1, #rows do
    for j = 1, #rows[1] do z[{ i, j }] = rows[i][j] end
  end
  return z
end

-- The largest |a - b| over two tensors' elements (real dtypes).
local function maxdiff(a, b) return (a:double() - b:double()):abs():max() end

describe("linalg.matrix_exp", function()
  it("gives torch's e^A for float64, and scales and squares matrices of large norm", function()
    helpers.near(EXP_A3, lt.linalg.matrix_exp(lt.tensor(A3, "float64")):tolist(), 1e-14)
    local big = lt.tensor(A3, "float64") * 20
    helpers.near(EXP_20A3, lt.linalg.matrix_exp(big):tolist(), 1e-12)
  end)

  it("is the rotation for a skew matrix and I + N for a nilpotent one (float32)", function()
    local th = 0.7
    local r = lt.linalg.matrix_exp(lt.tensor({ { 0, -th }, { th, 0 } }))
    assert.equal("float32", r.dtype)
    helpers.near({ { math.cos(th), -math.sin(th) }, { math.sin(th), math.cos(th) } }, r:tolist(), 1e-6)
    assert.same({ { 1, 1 }, { 0, 1 } }, lt.linalg.matrix_exp(lt.tensor({ { 0., 1 }, { 0, 0 } })):tolist())
  end)

  it("inverts: e^A e^-A = I over a random batch, also through t:matrix_exp and lt.matrix_exp", function()
    lt.manual_seed(7)
    local a = lt.randn(5, 4, 4, "float64")
    local e, f = a:matrix_exp(), lt.matrix_exp(-a)
    local id = lt.eye(4, "float64"):expand(5, 4, 4)
    assert.is_true(maxdiff(e:matmul(f), id) < 1e-12)
    assert.is_true(maxdiff(lt.linalg.matrix_exp(a), e) == 0)
  end)

  it("takes non-contiguous and read-only matrices and leaves them unchanged", function()
    local a = lt.tensor(A3, "float64")
    local t = a:transpose(1, 2)
    local want = lt.tensor(EXP_A3, "float64"):transpose(1, 2)
    assert.is_true(maxdiff(lt.linalg.matrix_exp(t), want) < 1e-14)
    local ro = read_only(lt.tensor(A3, "float64"))
    assert.is_true(maxdiff(lt.linalg.matrix_exp(ro), lt.tensor(EXP_A3, "float64")) < 1e-14)
    helpers.near(A3, ro:tolist(), 0)
  end)

  it("computes complex matrices (torch's values)", function()
    local c = cplx({ { { 0, 1 }, { 2, 0 } }, { { 0.5, 0 }, { -1, 1 } } }, "complex128")
    local e = lt.linalg.matrix_exp(c):tolist()
    helpers.near({ 0.7549625298464925, 1.1757844758079343 }, e[1][1], 1e-13)
    helpers.near({ 0.8007581894237269, 1.2471069897891853 }, e[1][2], 1e-13)
    helpers.near({ 0.354583435134629, 0.5522309809133417 }, e[2][2], 1e-13)
    assert.equal("complex64", lt.linalg.matrix_exp(c:to("complex64")).dtype)
  end)

  it("keeps empty shapes, and float16 input as float16", function()
    assert.same({ 0, 0 }, lt.linalg.matrix_exp(lt.zeros(0, 0)).shape)
    assert.same({ 2, 0, 0 }, lt.linalg.matrix_exp(lt.zeros(2, 0, 0)).shape)
    assert.same({ 0, 3, 3 }, lt.linalg.matrix_exp(lt.zeros(0, 3, 3)).shape)
    local h = lt.linalg.matrix_exp(lt.zeros(2, 2, "float16"))
    assert.equal("float16", h.dtype)
    assert.same({ { 1, 0 }, { 0, 1 } }, h:tolist())
  end)

  it("gives NaN or inf for NaN, inf and overflowing input, never hangs", function()
    local n = lt.linalg.matrix_exp(lt.tensor({ { 0 / 0, 1 }, { 0, 1 } })):tolist()
    assert.is_true(n[1][1] ~= n[1][1])
    local o = lt.linalg.matrix_exp(lt.tensor({ { 1000., 1 }, { 0, 1 } })):tolist()
    assert.equal(math.huge, o[1][1])
    local big = lt.linalg.matrix_exp(lt.full({ 2, 2 }, 1e308, "float64")):tolist()
    assert.is_true(big[1][1] ~= big[1][1] or big[1][1] == math.huge)
  end)

  it("raises for integers, non-square matrices and fewer than 2 dims", function()
    helpers.raises("linalg.matrix_exp: expected a floating point or complex tensor as input %(got int64%)",
      lt.linalg.matrix_exp, lt.ones(2, 2, "int64"))
    helpers.raises("linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices",
      lt.linalg.matrix_exp, lt.ones(2, 3))
    helpers.raises("linalg.matrix_exp: A must have at least 2 dimensions, got 1", lt.linalg.matrix_exp, lt.ones(3))
    helpers.raises("too many arguments", lt.linalg.matrix_exp, lt.ones(2, 2), 1)
  end)
end)

describe("linalg.multi_dot", function()
  it("multiplies a chain, a 1-d first tensor as a row and a 1-d last one as a column", function()
    local a, b, c = lt.arange(6.):view(2, 3), lt.arange(12.):view(3, 4), lt.arange(8.):view(4, 2)
    assert.same(a:matmul(b):matmul(c):tolist(), lt.linalg.multi_dot({ a, b, c }):tolist())
    local v, w = lt.tensor({ 1., 2 }), lt.tensor({ 1., -1 })
    assert.same({ 2 }, lt.linalg.multi_dot({ a, b, c, w }).shape)
    assert.same({ 4 }, lt.linalg.multi_dot({ v, a, b }).shape)
    local s = lt.linalg.multi_dot({ v, a, b, c, w })
    assert.equal(0, s.ndim)
    assert.equal(v:matmul(a):matmul(b):matmul(c):matmul(w):item(), s:item())
    assert.equal(5, lt.linalg.multi_dot({ v, v }):item())
  end)

  it("picks the cheapest order, with the same values as left to right", function()
    lt.manual_seed(3)
    local a, b, c = lt.randn(50, 2, "float64"), lt.randn(2, 60, "float64"), lt.randn(60, 3, "float64")
    local want = a:matmul(b):matmul(c)
    assert.is_true(maxdiff(lt.linalg.multi_dot({ a, b, c }), want) < 1e-12)
    local t = lt.randn(3, 5, "float64"):transpose(1, 2) -- non-contiguous
    assert.is_true(maxdiff(lt.linalg.multi_dot({ t, a:narrow(1, 1, 3), b }), t:matmul(a:narrow(1, 1, 3)):matmul(b)) < 1e-12)
  end)

  it("multiplies chains longer than the ordering programme takes (300 matrices) left to right", function()
    local ms = {}
    for i = 1, 300 do ms[i] = lt.tensor({ { 1., 1 }, { 0, 1 } }) end
    assert.same({ { 1, 300 }, { 0, 1 } }, lt.linalg.multi_dot(ms):tolist())
    ms[1], ms[300] = lt.tensor({ 0., 1 }), lt.tensor({ 1., 0 })
    assert.equal(0, lt.linalg.multi_dot(ms):item())
  end)

  it("takes integer and complex tensors and empty sizes, as torch", function()
    assert.same({ { 3, 3 }, { 3, 3 } }, lt.linalg.multi_dot({ lt.ones(2, 3, "int64"), lt.ones(3, 2, "int64") }):tolist())
    assert.same({ 0, 4 }, lt.linalg.multi_dot({ lt.ones(0, 3), lt.ones(3, 4) }).shape)
    assert.same({ { 0, 0 }, { 0, 0 } }, lt.linalg.multi_dot({ lt.ones(2, 0), lt.ones(0, 2) }):tolist())
    local z = lt.linalg.multi_dot({ lt.ones(1, 2, "complex64"), lt.ones(2, 1, "complex64") })
    assert.same({ { { 2, 0 } } }, z:tolist())
  end)

  it("raises for fewer than 2 tensors, other dims, mixed dtypes and sizes that do not chain", function()
    helpers.raises("linalg.multi_dot: expected at least 2 tensors but got 1", lt.linalg.multi_dot, { lt.ones(2) })
    helpers.raises("linalg.multi_dot: expected at least 2 tensors but got 0", lt.linalg.multi_dot, {})
    helpers.raises("tensor 1 must be 1%-d or 2%-d but got 3%-d", lt.linalg.multi_dot, { lt.ones(2, 2, 2), lt.ones(2, 2) })
    helpers.raises("tensor 2 must be 2%-d but got 1%-d", lt.linalg.multi_dot, { lt.ones(2, 2), lt.ones(2), lt.ones(2, 2) })
    helpers.raises("same dtype, but tensor 1 is float32 and tensor 2 is float64", lt.linalg.multi_dot,
      { lt.ones(2, 2), lt.ones(2, 2, "float64") })
    helpers.raises("tensors 1 and 2 with shapes %[2, 3%] and %[2, 3%] cannot be multiplied", lt.linalg.multi_dot,
      { lt.ones(2, 3), lt.ones(2, 3) })
    helpers.raises("element 2 is a number, not a tensor", lt.linalg.multi_dot, { lt.ones(2), 3 })
  end)
end)

describe("linalg.vecdot", function()
  it("sums x * y over the last dim, broadcasting", function()
    local x = lt.tensor({ { 1., 2 }, { 3, 4 } })
    assert.same({ 3, 7 }, lt.linalg.vecdot(x, lt.tensor({ 1., 1 })):tolist())
    assert.same({ 4, 6 }, lt.linalg.vecdot(x, lt.tensor({ { 1. }, { 1 } }), { dim = 1 }):tolist())
    assert.same({ 4, 2 }, lt.linalg.vecdot(lt.ones(2, 3), lt.ones(4, 1, 3)).shape)
    assert.equal(6, lt.linalg.vecdot(lt.tensor(2.), lt.tensor(3.)):item())
  end)

  it("conjugates x for complex tensors", function()
    local x = cplx({ { 0, 1 }, { 0, 2 } }, "complex128") -- {i, 2i}
    local y = cplx({ { 1, 0 }, { 1, 0 } }, "complex128")
    assert.same({ 0, -3 }, lt.linalg.vecdot(x, y):tolist()) -- conj(i) + conj(2i) = -3i
    assert.same({ 5, 0 }, lt.linalg.vecdot(x, x):tolist())
  end)

  it("takes transposed views, and gives zeros or empty results for empty operands", function()
    local m = lt.arange(6.):view(2, 3)
    assert.same({ 9, 17, 29 }, lt.linalg.vecdot(m:t(), m:t()):tolist())
    assert.same({ 0, 0, 0 }, lt.linalg.vecdot(lt.ones(3, 0), lt.ones(0)):tolist())
    assert.same({ 0 }, lt.linalg.vecdot(lt.ones(0, 3), lt.ones(3)).shape)
  end)

  it("raises for mixed dtypes, integers, a bad dim and sizes that do not broadcast", function()
    helpers.raises("linalg.vecdot: x and y must have the same dtype", lt.linalg.vecdot, lt.ones(2), lt.ones(2, "float64"))
    helpers.raises("expected a floating point or complex tensor as input %(got int64%)", lt.linalg.vecdot,
      lt.ones(2, "int64"), lt.ones(2, "int64"))
    helpers.raises("dim 3 out of range for a tensor of 2 dims", lt.linalg.vecdot, lt.ones(2, 3), lt.ones(3), { dim = 3 })
    helpers.raises("linalg.vecdot: ", lt.linalg.vecdot, lt.ones(3), lt.ones(2))
    helpers.raises("unknown option 'dims'", lt.linalg.vecdot, lt.ones(3), lt.ones(3), { dims = 1 })
  end)
end)

describe("linalg.cross", function()
  it("takes the last dim by default, where t:cross takes the first of size 3", function()
    local x, y = lt.tensor({ { 1., 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }), lt.tensor({ { 0., 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 } })
    assert.same({ { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } }, lt.linalg.cross(x, y):tolist())
    assert.same(x:cross(y, 2):tolist(), lt.linalg.cross(x, y):tolist())
    assert.same(x:cross(y, 1):tolist(), lt.linalg.cross(x, y, { dim = 1 }):tolist())
    assert.same({ 4, 2, 3 }, lt.linalg.cross(lt.ones(1, 2, 3), lt.ones(4, 1, 3)).shape)
    assert.same({ 0, 3 }, lt.linalg.cross(lt.ones(0, 3), lt.ones(0, 3)).shape)
  end)

  it("raises as torch for a dim of another size, other ndims and mixed dtypes", function()
    helpers.raises("linalg.cross: dim 2 must have size 3, got 4 and 4", lt.linalg.cross, lt.ones(3, 4), lt.ones(3, 4))
    helpers.raises("linalg.cross: inputs must have the same number of dims", lt.linalg.cross, lt.ones(2, 1, 3), lt.ones(4, 3))
    helpers.raises("linalg.cross: inputs must have the same dtype", lt.linalg.cross, lt.ones(3, "int64"), lt.ones(3))
    helpers.raises("dim 0 out of range", lt.linalg.cross, lt.ones(3), lt.ones(3), { dim = 0 })
  end)
end)

describe("linalg.diagonal", function()
  it("views the diagonal of the last two dims by default", function()
    local t = lt.arange(24):view(2, 3, 4)
    assert.same({ { 0, 5, 10 }, { 12, 17, 22 } }, lt.linalg.diagonal(t):tolist())
    assert.same({ { 1, 14 }, { 5, 18 }, { 9, 22 } }, lt.linalg.diagonal(t, { offset = 1, dim1 = 1, dim2 = 3 }):tolist())
    local d = lt.linalg.diagonal(t)
    d[{ 1, 1 }] = -1 -- a view
    assert.equal(-1, t:get(1, 1, 1))
  end)

  it("raises for fewer than 2 dims, a repeated dim and a bad option", function()
    helpers.raises("linalg.diagonal: A must have at least 2 dimensions, got 1", lt.linalg.diagonal, lt.ones(3))
    helpers.raises("dim1 and dim2 are the same dim %(1%)", lt.linalg.diagonal, lt.ones(3, 3), { dim1 = 1, dim2 = -2 })
    helpers.raises("offset must be an integer, got string", lt.linalg.diagonal, lt.ones(3, 3), { offset = "x" })
    helpers.raises("dim2 5 out of range", lt.linalg.diagonal, lt.ones(3, 3), { dim2 = 5 })
  end)
end)

describe("linalg under the memory budget", function()
  it("names the function when its result does not fit the budget", function()
    if not lt.config().lapack then return end
    local a = lt.randn(40000, 8, 8) + lt.eye(8) * 8
    collectgarbage()
    collectgarbage()
    lt.config{ memory_limit = lt.config().memory_used + 4 * 1024 * 1024 }
    local ok, err = pcall(function()
      for _, f in ipairs{ "inv", "det", "slogdet", "cholesky", "lu_factor", "lu", "qr", "svd" } do
        helpers.raises("linalg%." .. f .. ": not enough memory", lt.linalg[f], a)
      end
      helpers.raises("linalg%.solve: not enough memory", lt.linalg.solve, a, a)
      helpers.raises("linalg%.matrix_power: not enough memory", lt.linalg.matrix_power, a, 3)
    end)
    lt.config{ memory_limit = false }
    assert(ok, err)
  end)
end)
