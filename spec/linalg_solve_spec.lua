-- lt.linalg's solving and inverting, as torch.linalg: solve, solve_ex, solve_triangular, inv,
-- inv_ex, det, slogdet, cholesky, cholesky_ex, lu, lu_factor, lu_factor_ex, lu_solve,
-- matrix_power, and the methods inverse, det, logdet, slogdet, matrix_power. Values are checked
-- by reconstruction (A X = B, A inv(A) = I, L L^H = A, P L U = A) and on matrices whose results
-- are known; spec/c/numpy_host_linalg.h checks them against NumPy on the same data.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

local LAPACK = lt.config().lapack ~= nil
local I = lt.full({}, { 0, 1 }, "complex128")
local TOL = { float32 = 2e-4, float64 = 1e-10, complex64 = 2e-4, complex128 = 1e-10 }

-- {====== helpers ======

local function maxdiff(a, b) return (a - b):abs():max() end
local function close(a, b, tol)
  assert.are.same(a.shape, b.shape)
  local d = maxdiff(a:to(b.dtype), b)
  assert(d <= tol, ("difference %g above %g"):format(d, tol))
end

-- A random tensor of dtype dt (complex: both parts random) from a seeded generator.
local function rand(shape, dt, seed)
  local g = lt.Generator(seed or 1)
  local t = lt.randn(shape, "float64", { generator = g })
  if dt == "complex64" or dt == "complex128" then
    t = t + lt.randn(shape, "float64", { generator = g }) * I
  end
  return t:to(dt)
end

-- Random n x n matrices (batch shape first) far from singular: R + n I.
local function wellcond(batch, n, dt, seed)
  local shape = {}
  for i, s in ipairs(batch) do shape[i] = s end
  shape[#shape + 1], shape[#shape + 2] = n, n
  return rand(shape, dt, seed) + lt.eye(n, n, dt) * n
end

-- The conjugate transpose of the last two dims (conj x = 2 re(x) - x; the cast to a real dtype
-- keeps the real part).
local function adj(t)
  local tt = t:transpose(-2, -1)
  if t.dtype ~= "complex64" and t.dtype ~= "complex128" then return tt end
  return tt:to("float64"):to(t.dtype) * 2 - tt
end

-- Two n x n float64 matrices: the identity, then one whose U has a zero at (2, 2).
local function singular_batch(n)
  local s = lt.zeros(2, n, n, "float64")
  s[1] = lt.eye(n, n, "float64")
  s[2][1][1] = 1
  return s
end

local function raises(pattern, f, ...)
  local ok, msg = pcall(f, ...)
  assert.is_false(ok)
  assert(tostring(msg):find(pattern, 1, true), ("%q lacks %q"):format(tostring(msg), pattern))
end

local DTYPES = { "float32", "float64", "complex64", "complex128" }

-- }======

if not LAPACK then
  describe("lt.linalg without LAPACK (a build without a BLAS)", function()
    it("computes inv, det and solve of 2x2, 3x3 and 4x4 float matrices itself", function()
      for n = 2, 4 do
        for _, dt in ipairs({ "float32", "float64" }) do
          local a = wellcond({ 3 }, n, dt)
          close(lt.linalg.inv(a):matmul(a), lt.eye(n, n, dt):expand(3, n, n), TOL[dt] * 10)
          local b = rand({ 3, n, 2 }, dt, 2)
          close(a:matmul(lt.linalg.solve(a, b)), b, TOL[dt] * 10)
          assert.are.same({ 3 }, lt.linalg.det(a).shape)
        end
      end
    end)
    it("raises needs LAPACK for larger matrices and for the factorizations", function()
      local a = wellcond({}, 5, "float64")
      raises("linalg.inv: needs LAPACK", lt.linalg.inv, a)
      raises("linalg.solve: needs LAPACK", lt.linalg.solve, a, lt.ones(5, "float64"))
      raises("linalg.cholesky: needs LAPACK", lt.linalg.cholesky, a)
      raises("linalg.lu_factor: needs LAPACK", lt.linalg.lu_factor, a)
      raises("linalg.solve_triangular: needs LAPACK", lt.linalg.solve_triangular, a,
        lt.ones(5, 1, "float64"), { upper = true })
    end)
  end)
  return
end

describe("lt.linalg.solve", function()
  it("solves A X = B for a known system", function()
    local x = lt.linalg.solve(lt.tensor({ { 3, 1 }, { 1, 2 } }, "float64"), lt.tensor({ 9, 8 }, "float64"))
    assert.are.same({ 2 }, x.shape)
    close(x, lt.tensor({ 2, 3 }, "float64"), 1e-12)
  end)

  it("gives A X = B for every dtype, n x k right-hand sides and vectors, n from 1 to 40", function()
    for _, dt in ipairs(DTYPES) do
      for _, n in ipairs({ 1, 2, 3, 4, 5, 17, 40 }) do
        local a, b = wellcond({}, n, dt, n), rand({ n, 3 }, dt, n + 1)
        local x = lt.linalg.solve(a, b)
        assert.are.equal(dt, x.dtype)
        assert.is_true(x:is_contiguous())
        close(a:matmul(x), b, TOL[dt] * n)
        local v = rand({ n }, dt, 3)
        close(a:matmul(lt.linalg.solve(a, v)), v, TOL[dt] * n)
      end
    end
  end)

  it("treats B as a batch of vectors when it has A's shape less the last dim (torch's rule)", function()
    local a = wellcond({ 2 }, 3, "float64")
    assert.are.same({ 2, 3 }, lt.linalg.solve(a, lt.ones(2, 3, "float64")).shape)
    assert.are.same({ 2, 3, 2 }, lt.linalg.solve(a, lt.ones(3, 2, "float64")).shape)
    assert.are.same({ 2, 3 }, lt.linalg.solve(a, lt.ones(3, "float64")).shape)
  end)

  it("broadcasts the batch dims of A and B", function()
    local a, b = wellcond({ 2, 1 }, 4, "float64"), rand({ 3, 4, 2 }, "float64")
    local x = lt.linalg.solve(a, b)
    assert.are.same({ 2, 3, 4, 2 }, x.shape)
    close(a:matmul(x), b:expand(2, 3, 4, 2), 1e-10)
  end)

  it("solves X A = B with {left = false}", function()
    for _, dt in ipairs(DTYPES) do
      local a, b = wellcond({ 2 }, 5, dt), rand({ 2, 3, 5 }, dt, 4)
      local x = lt.linalg.solve(a, b, { left = false })
      assert.are.same({ 2, 3, 5 }, x.shape)
      close(x:matmul(a), b, TOL[dt] * 5)
    end
  end)

  it("reads non-contiguous and read-only operands without writing them", function()
    local a = wellcond({}, 6, "float64"):t()
    local b = rand({ 2, 6 }, "float64"):t()
    local ra = lt.from_dlpack(dlpack.ReadOnlyTensorWrapper(a:clone()))
    assert.is_true(ra:is_read_only())
    local before = ra:clone()
    local x = lt.linalg.solve(ra, b)
    close(a:matmul(x), b, 1e-10)
    assert.is_true(ra:equal(before))
    close(lt.linalg.solve(a, b), x, 1e-12)
  end)

  it("takes empty matrices and empty batches", function()
    assert.are.same({ 0, 2 }, lt.linalg.solve(lt.zeros(0, 0, "float64"), lt.ones(0, 2, "float64")).shape)
    assert.are.same({ 2, 0 }, lt.linalg.solve(lt.zeros(2, 0, 0), lt.ones(0)).shape)
    assert.are.same({ 0, 3, 1 }, lt.linalg.solve(lt.zeros(0, 3, 3), lt.ones(0, 3, 1)).shape)
  end)

  it("computes float16 in float32", function()
    local a = lt.tensor({ { 3, 1 }, { 1, 2 } }, "float16")
    local x = lt.linalg.solve(a, lt.tensor({ 9, 8 }, "float16"))
    assert.are.equal("float32", x.dtype)
    close(x, lt.tensor({ 2, 3 }, "float32"), 1e-5)
  end)

  it("raises for a singular matrix, naming the batch element as torch", function()
    local s = singular_batch(3)
    raises("linalg.solve: (Batch element 2): The solver failed because the input matrix is singular.",
      lt.linalg.solve, s, lt.ones(3, "float64"))
    raises("linalg.solve: The solver failed because the input matrix is singular.",
      lt.linalg.solve, s[2], lt.ones(3, "float64"))
  end)

  it("raises for mismatched dtypes, shapes, integers and too few dims", function()
    raises("expected A and B to have the same dtype, but found A of type float32 and B of type float64",
      lt.linalg.solve, lt.eye(3), lt.ones(3, "float64"))
    raises("incompatible shapes of A and B for the equation AX = B (3x3 and 4x1)", lt.linalg.solve,
      lt.eye(3), lt.ones(4))
    raises("incompatible shapes of A and B for the equation XA = B (3x3 and 3x1)", lt.linalg.solve,
      lt.eye(3), lt.ones(3), { left = false })
    raises("linalg.solve: A must be batches of square matrices, but they are 3 by 4 matrices",
      lt.linalg.solve, lt.ones(3, 4), lt.ones(3))
    raises("linalg.solve: expected a floating point or complex tensor as input (got int64)",
      lt.linalg.solve, lt.tensor({ { 1, 0 }, { 0, 1 } }), lt.tensor({ 1, 1 }))
    raises("linalg.solve: the input tensor A must have at least 2 dimensions", lt.linalg.solve,
      lt.ones(3), lt.ones(3))
    raises("do not broadcast", lt.linalg.solve, lt.ones(2, 3, 3), lt.ones(3, 3, 2))
    raises("left must be a boolean", lt.linalg.solve, lt.eye(2), lt.ones(2), { left = 1 })
    raises("unknown option 'lft'", lt.linalg.solve, lt.eye(2), lt.ones(2), { lft = true })
  end)

  it("refuses matrices whose size overflows LAPACK's int before allocating", function()
    local big = lt.zeros(1, 1):expand(50000, 50000)
    raises("linalg.solve: matrices of 50000 x 50000 are too large for LAPACK", lt.linalg.solve, big,
      lt.zeros(50000))
    raises("linalg.inv: matrices of 50000 x 50000 are too large", lt.linalg.inv, big)
  end)
end)

describe("lt.linalg.solve_ex", function()
  it("reports singular matrices in info (int32 of the batch shape) instead of raising", function()
    local s = singular_batch(3)
    local x, info = lt.linalg.solve_ex(s, lt.ones(3, "float64"))
    assert.are.equal("int32", info.dtype)
    assert.are.same({ 0, 2 }, info:tolist())
    close(x[1], lt.ones(3, "float64"), 0)
    local _, i0 = lt.linalg.solve_ex(lt.eye(2), lt.ones(2))
    assert.are.equal(0, i0.ndim)
    raises("(Batch element 2)", lt.linalg.solve_ex, s, lt.ones(3, "float64"), { check_errors = true })
  end)
end)

describe("lt.linalg.solve_triangular", function()
  it("solves with the upper or lower triangle, on either side, unit diagonal or not", function()
    for _, dt in ipairs(DTYPES) do
      local a = wellcond({ 2 }, 5, dt, 7)
      local b = rand({ 2, 5, 3 }, dt, 8)
      for _, upper in ipairs({ true, false }) do
        for _, unit in ipairs({ false, true }) do
          local t = upper and a:triu() or a:tril()
          if unit then
            local d = t:diagonal(0, -2, -1)
            t = t:clone()
            t:diagonal(0, -2, -1):copy_(lt.ones_like(d))
          end
          local x = lt.linalg.solve_triangular(a, b, { upper = upper, unitriangular = unit })
          close(t:matmul(x), b, TOL[dt] * 10)
          local bt = b:transpose(-2, -1)
          local y = lt.linalg.solve_triangular(a, bt, { upper = upper, left = false, unitriangular = unit })
          close(y:matmul(t), bt, TOL[dt] * 10)
        end
      end
    end
  end)

  it("reads a transposed A in place and broadcasts batches", function()
    local a = wellcond({}, 4, "float64"):t()
    local x = lt.linalg.solve_triangular(a, lt.ones(5, 1, 4, 2, "float64"), { upper = true })
    assert.are.same({ 5, 1, 4, 2 }, x.shape)
    close(a:triu():matmul(x), lt.ones(5, 1, 4, 2, "float64"), 1e-12)
  end)

  it("promotes dtypes as torch", function()
    local x = lt.linalg.solve_triangular(lt.eye(3, 3, "float64"), lt.ones(3, 2), { upper = true })
    assert.are.equal("float64", x.dtype)
  end)

  it("does not check the diagonal: a zero gives inf and NaN, as torch", function()
    local a = lt.zeros(3, 3, "float64")
    a[1][1] = 1
    local x = lt.linalg.solve_triangular(a, lt.ones(3, 1, "float64"), { upper = true })
    assert.is_true(x[3][1] == math.huge)
  end)

  it("needs upper, and B of at least 2 dims", function()
    raises("linalg.solve_triangular: the option upper is required", lt.linalg.solve_triangular,
      lt.eye(3), lt.ones(3, 1))
    raises("the input tensor B must have at least 2 dimensions", lt.linalg.solve_triangular,
      lt.eye(3), lt.ones(3), { upper = true })
    raises("incompatible shapes of A and B for the equation AX = B (3x3 and 4x2)",
      lt.linalg.solve_triangular, lt.eye(3), lt.ones(4, 2), { upper = true })
    raises("expected a floating point or complex tensor as input (got int64)",
      lt.linalg.solve_triangular, lt.tensor({ { 1 } }), lt.tensor({ { 1 } }), { upper = true })
  end)
end)

describe("lt.linalg.inv", function()
  it("inverts a known matrix", function()
    close(lt.linalg.inv(lt.tensor({ { 2, 0 }, { 0, 4 } }, "float64")),
      lt.tensor({ { 0.5, 0 }, { 0, 0.25 } }, "float64"), 1e-15)
  end)

  it("gives A inv(A) = I for every dtype, batched and non-contiguous, n from 1 to 40", function()
    for _, dt in ipairs(DTYPES) do
      for _, n in ipairs({ 1, 2, 3, 4, 5, 9, 40 }) do
        local a = wellcond({ 3 }, n, dt, n)
        local x = lt.linalg.inv(a)
        assert.are.same({ 3, n, n }, x.shape)
        close(a:matmul(x), lt.eye(n, n, dt):expand(3, n, n), TOL[dt] * n)
        close(lt.linalg.inv(a:transpose(-2, -1)), x:transpose(-2, -1), TOL[dt] * n)
      end
    end
  end)

  it("computes float16 and bfloat16 in float32, and returns float32", function()
    local a = lt.tensor({ { 2, 0 }, { 0, 4 } })
    for _, dt in ipairs({ "float16", "bfloat16" }) do
      local x = lt.linalg.inv(a:to(dt))
      assert.are.equal("float32", x.dtype)
      close(x, lt.tensor({ { 0.5, 0 }, { 0, 0.25 } }), 0)
      assert.are.equal("float32", lt.linalg.det(a:to(dt)).dtype)
    end
  end)

  it("is t:inverse() and lt.inverse(t) too", function()
    local a = wellcond({}, 5, "float64")
    close(a:inverse(), lt.linalg.inv(a), 0)
    close(lt.inverse(a), lt.linalg.inv(a), 0)
  end)

  it("takes 0 x 0 matrices and empty batches", function()
    assert.are.same({ 2, 0, 0 }, lt.linalg.inv(lt.zeros(2, 0, 0)).shape)
    assert.are.same({ 0, 5, 5 }, lt.linalg.inv(lt.zeros(0, 5, 5)).shape)
  end)

  it("raises for a singular matrix as torch, naming the batch element and the diagonal element", function()
    local s = singular_batch(5)
    raises("linalg.inv: (Batch element 2): The diagonal element 2 is zero, the inversion could not "
      .. "be completed because the input matrix is singular.", lt.linalg.inv, s)
    raises("inverse: The diagonal element 2 is zero", s[2].inverse, s[2])
  end)

  it("raises for integers, non-square matrices and 1-d tensors", function()
    raises("linalg.inv: expected a floating point or complex tensor as input (got int64)",
      lt.linalg.inv, lt.ones(3, 3, "int64"))
    raises("linalg.inv: A must be batches of square matrices, but they are 3 by 4 matrices",
      lt.linalg.inv, lt.ones(3, 4))
    raises("linalg.inv: the input tensor A must have at least 2 dimensions", lt.linalg.inv, lt.ones(3))
    raises("linalg.inv: too many arguments", lt.linalg.inv, lt.eye(2), 1)
  end)

  it("does not crash on NaN and inf", function()
    local a = lt.full({ 6, 6 }, 0 / 0, "float64")
    local ok = pcall(lt.linalg.inv, a)
    assert.is_boolean(ok)
    local d = lt.linalg.det(a)
    assert.is_true(d:isnan():all())
  end)
end)

describe("lt.linalg.inv_ex", function()
  it("reports singular matrices in info and gives NaN for their inverse", function()
    local s = singular_batch(5)
    local x, info = lt.linalg.inv_ex(s)
    assert.are.same({ 0, 2 }, info:tolist())
    close(x[1], lt.eye(5, 5, "float64"), 0)
    assert.is_true(x[2]:isnan():all())
    raises("(Batch element 2)", lt.linalg.inv_ex, s, { check_errors = true })
  end)
end)

describe("lt.linalg.det, slogdet and logdet", function()
  it("gives known determinants", function()
    local a = lt.tensor({ { 1, 2 }, { 3, 4 } }, "float64")
    assert.are.equal(0, lt.linalg.det(a).ndim)
    assert.is_true(math.abs(lt.linalg.det(a):item() + 2) < 1e-12)
    local p = lt.tensor({ { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } }, "float64")
    assert.is_true(math.abs(lt.linalg.det(p):item() + 1) < 1e-15)
    local big = lt.tensor({ { 4, 1, 2, 0, 1 }, { 1, 5, 3, 1, 0 }, { 2, 3, 6, 0, 1 },
      { 0, 1, 0, 7, 2 }, { 1, 0, 1, 2, 8 } }, "float64")
    local d = lt.linalg.det(big):item()
    local sign, la = lt.linalg.slogdet(big)
    assert.is_true(math.abs(d - sign:item() * math.exp(la:item())) < 1e-9 * math.abs(d))
    assert.is_true(math.abs(lt.logdet(big):item() - la:item()) < 1e-12)
  end)

  it("agrees with sign * exp(logabsdet) for every dtype, batched", function()
    for _, dt in ipairs(DTYPES) do
      local a = rand({ 4, 6, 6 }, dt, 11)
      local d = lt.linalg.det(a)
      local sign, la = lt.linalg.slogdet(a)
      assert.are.same({ 4 }, d.shape)
      assert.are.equal(dt, sign.dtype)
      assert.are.equal((dt == "complex64" or dt == "float32") and "float32" or "float64", la.dtype)
      close(sign * la:exp(), d, TOL[dt] * 100)
      close(sign:abs(), lt.ones(4, "float64"), TOL[dt])
      close(a:det(), d, 0)
      close(lt.det(a:transpose(-2, -1)), d, TOL[dt] * 100)
    end
  end)

  it("gives a complex sign for complex matrices", function()
    local a = (lt.tensor({ { 0, 0 }, { 0, 2 } }, "float64") + lt.tensor({ { 1, 0 }, { 0, 0 } }, "float64") * I)
      :to("complex64")
    local sign, la = lt.linalg.slogdet(a)
    local v = sign:item()
    assert.is_true(math.abs(v[1]) < 1e-7 and math.abs(v[2] - 1) < 1e-7)
    assert.is_true(math.abs(la:item() - math.log(2)) < 1e-6)
    local ld = lt.logdet(lt.tensor({ { -1, 0 }, { 0, 2 } }, "complex128"))
    v = ld:item()
    assert.is_true(math.abs(v[1] - math.log(2)) < 1e-12 and math.abs(v[2] - math.pi) < 1e-12)
  end)

  it("gives det 0, sign 0 and logabsdet -inf for a singular matrix; logdet NaN below zero", function()
    local s = lt.zeros(3, 3, "float64")
    s[1][1] = 1
    assert.are.equal(0, lt.linalg.det(s):item())
    local sign, la = lt.linalg.slogdet(s)
    assert.are.equal(0, sign:item())
    assert.are.equal(-math.huge, la:item())
    assert.are.equal(-math.huge, s:logdet():item())
    local l = lt.logdet(-lt.eye(3, 3, "float64")):item()
    assert.is_true(l ~= l)
  end)

  it("gives 1 for 0 x 0 matrices", function()
    assert.are.same({ 1, 1 }, lt.linalg.det(lt.zeros(2, 0, 0)):tolist())
    local sign, la = lt.slogdet(lt.zeros(0, 0))
    assert.are.equal(1, sign:item())
    assert.are.equal(0, la:item())
  end)

  it("raises for integers and non-square matrices", function()
    raises("linalg.det: expected a floating point or complex tensor as input (got int32)",
      lt.linalg.det, lt.ones(3, 3, "int32"))
    raises("linalg.slogdet: A must be batches of square matrices", lt.linalg.slogdet, lt.ones(3, 4))
    raises("logdet: expected a floating point", lt.logdet, lt.ones(3, 3, "int32"))
  end)
end)

describe("lt.linalg.cholesky", function()
  it("factors a known matrix from its lower triangle, as torch", function()
    local a = lt.tensor({ { 4, 100 }, { 2, 5 } }, "float64")
    close(lt.linalg.cholesky(a), lt.tensor({ { 2, 0 }, { 1, 2 } }, "float64"), 1e-15)
  end)

  it("gives L L^H = A and U^H U = A for every dtype, batched and non-contiguous", function()
    for _, dt in ipairs(DTYPES) do
      for _, n in ipairs({ 1, 3, 8 }) do
        local m = rand({ 2, n, n }, dt, n)
        local a = m:matmul(adj(m)) + lt.eye(n, n, dt) * n
        local l = lt.linalg.cholesky(a)
        close(l, l:tril(), 0)
        close(l:matmul(adj(l)), a, TOL[dt] * n * 10)
        local u = lt.linalg.cholesky(a:transpose(-2, -1), { upper = true })
        close(u, u:triu(), 0)
        close(adj(u):matmul(u), a:transpose(-2, -1), TOL[dt] * n * 10)
      end
    end
  end)

  it("raises for a matrix that is not positive-definite, naming the minor as torch", function()
    local s = lt.stack({ lt.eye(3), -lt.eye(3) })
    raises("linalg.cholesky: (Batch element 2): The factorization could not be completed because "
      .. "the input is not positive-definite (the leading minor of order 1 is not "
      .. "positive-definite).", lt.linalg.cholesky, s)
    raises("linalg.cholesky: A must be batches of square matrices", lt.linalg.cholesky, lt.ones(3, 4))
  end)

  it("takes 0 x 0 matrices", function()
    assert.are.same({ 0, 0 }, lt.linalg.cholesky(lt.zeros(0, 0)).shape)
  end)
end)

describe("lt.linalg.cholesky_ex", function()
  it("reports the failing minor in info instead of raising", function()
    local _, info = lt.linalg.cholesky_ex(lt.stack({ lt.eye(3), -lt.eye(3) }))
    assert.are.same({ 0, 1 }, info:tolist())
    local _, i2 = lt.linalg.cholesky_ex(lt.tensor({ { 1, 2 }, { 3, 4 } }, "float64"))
    assert.are.equal(2, i2:item())
    raises("positive-definite", lt.linalg.cholesky_ex, -lt.eye(2), { check_errors = true })
  end)
end)

describe("lt.linalg.lu_factor, lu and lu_solve", function()
  it("gives torch's packed factors and 1-based pivots for a known matrix", function()
    local lu, piv = lt.linalg.lu_factor(lt.tensor({ { 1, 2 }, { 3, 4 } }, "float64"))
    assert.are.equal("int32", piv.dtype)
    assert.are.same({ 2, 2 }, piv:tolist())
    close(lu, lt.tensor({ { 3, 4 }, { 1 / 3, 2 / 3 } }, "float64"), 1e-15)
    local p, l, u = lt.linalg.lu(lt.tensor({ { 1, 2 }, { 3, 4 } }, "float64"))
    assert.are.same({ { 0, 1 }, { 1, 0 } }, p:tolist())
    close(l, lt.tensor({ { 1, 0 }, { 1 / 3, 1 } }, "float64"), 1e-15)
    close(u, lt.tensor({ { 3, 4 }, { 0, 2 / 3 } }, "float64"), 1e-15)
  end)

  it("gives P L U = A for square and rectangular matrices of every dtype", function()
    for _, dt in ipairs(DTYPES) do
      for _, mn in ipairs({ { 4, 4 }, { 3, 5 }, { 5, 3 }, { 1, 1 } }) do
        local m, n = mn[1], mn[2]
        local k = math.min(m, n)
        local a = rand({ 2, m, n }, dt, m * 10 + n)
        local p, l, u = lt.linalg.lu(a)
        assert.are.same({ 2, m, m }, p.shape)
        assert.are.same({ 2, m, k }, l.shape)
        assert.are.same({ 2, k, n }, u.shape)
        close(p:matmul(l):matmul(u), a, TOL[dt] * 10)
        local lu, piv = lt.linalg.lu_factor(a:transpose(-2, -1):contiguous():transpose(-2, -1))
        assert.are.same({ 2, k }, piv.shape)
        close(lu:tril(-1):narrow(-1, 1, k), l - lt.eye(m, k, dt), TOL[dt])
      end
    end
  end)

  it("solves with lu_solve on either side, with the adjoint or not", function()
    for _, dt in ipairs(DTYPES) do
      local a = wellcond({ 2 }, 6, dt, 3)
      local lu, piv = lt.linalg.lu_factor(a)
      local b = rand({ 2, 6, 2 }, dt, 4)
      close(a:matmul(lt.linalg.lu_solve(lu, piv, b)), b, TOL[dt] * 10)
      close(adj(a):matmul(lt.linalg.lu_solve(lu, piv, b, { adjoint = true })), b, TOL[dt] * 10)
      local bt = b:transpose(-2, -1)
      close(lt.linalg.lu_solve(lu, piv, bt, { left = false }):matmul(a), bt, TOL[dt] * 10)
      close(lt.linalg.lu_solve(lu, piv, bt, { left = false, adjoint = true }):matmul(adj(a)), bt,
        TOL[dt] * 10)
    end
  end)

  it("broadcasts LU and B batches in lu_solve", function()
    local a = wellcond({}, 3, "float64")
    local lu, piv = lt.linalg.lu_factor(a)
    local x = lt.linalg.lu_solve(lu, piv, lt.ones(4, 3, 2, "float64"))
    assert.are.same({ 4, 3, 2 }, x.shape)
    close(a:matmul(x), lt.ones(4, 3, 2, "float64"), 1e-12)
  end)

  it("reports a zero on U's diagonal: lu_factor raises, lu_factor_ex gives info, lu does neither", function()
    local s = singular_batch(3)
    raises("linalg.lu_factor: (Batch element 2): U[2,2] is zero and using it on lu_solve would "
      .. "result in a division by zero", lt.linalg.lu_factor, s)
    local _, _, info = lt.linalg.lu_factor_ex(s)
    assert.are.same({ 0, 2 }, info:tolist())
    local p, l, u = lt.linalg.lu(s)
    close(p:matmul(l):matmul(u), s, 0)
  end)

  it("refuses pivot = false as torch's CPU, and bad pivots before LAPACK sees them", function()
    raises("linalg.lu_factor: LU without pivoting is not implemented on the CPU", lt.linalg.lu_factor,
      lt.eye(3), { pivot = false })
    raises("linalg.lu: LU without pivoting", lt.linalg.lu, lt.eye(3), { pivot = false })
    local lu = lt.eye(3)
    raises("pivots given to lu_solve must all be between 1 and 3 (got 5)", lt.linalg.lu_solve, lu,
      lt.tensor({ 1, 2, 5 }, "int32"), lt.ones(3, 2))
    raises("(got 0)", lt.linalg.lu_solve, lu, lt.tensor({ 1, 2, 0 }, "int32"), lt.ones(3, 2))
    raises("pivots must be an int32 tensor (got int64)", lt.linalg.lu_solve, lu,
      lt.tensor({ 1, 2, 3 }), lt.ones(3, 2))
    raises("expected LU.shape[:-1] and pivots.shape to be the same", lt.linalg.lu_solve, lu,
      lt.tensor({ 1, 2 }, "int32"), lt.ones(3, 2))
    raises("expected LU and B to have the same dtype", lt.linalg.lu_solve, lu,
      lt.tensor({ 1, 2, 3 }, "int32"), lt.ones(3, 2, "float64"))
    raises("incompatible shapes of A and B for the equation XA = B (3x3 and 3x2)", lt.linalg.lu_solve,
      lu, lt.tensor({ 1, 2, 3 }, "int32"), lt.ones(3, 2), { left = false })
  end)

  it("takes empty batches", function()
    local lu, piv = lt.linalg.lu_factor(lt.zeros(0, 3, 3))
    assert.are.same({ 0, 3, 3 }, lu.shape)
    assert.are.same({ 0, 3 }, piv.shape)
  end)
end)

describe("lt.linalg.matrix_power", function()
  it("gives A^n by repeated squaring, the identity for 0, the inverse's power below 0", function()
    local a = lt.tensor({ { 1, 1 }, { 0, 1 } }, "float64")
    close(lt.linalg.matrix_power(a, 5), lt.tensor({ { 1, 5 }, { 0, 1 } }, "float64"), 0)
    close(lt.linalg.matrix_power(a, -3), lt.tensor({ { 1, -3 }, { 0, 1 } }, "float64"), 1e-15)
    close(lt.linalg.matrix_power(a, 0), lt.eye(2, 2, "float64"), 0)
    close(a:matrix_power(1), a, 0)
    local m = wellcond({ 3 }, 5, "float64")
    close(lt.matrix_power(m, 3), m:matmul(m):matmul(m), 1e-9)
  end)

  it("takes integer matrices for n >= 0, and refuses them below", function()
    local a = lt.tensor({ { 1, 1 }, { 1, 0 } })
    assert.are.same({ { 89, 55 }, { 55, 34 } }, lt.linalg.matrix_power(a, 10):tolist())
    assert.are.equal("int64", lt.linalg.matrix_power(a, 0).dtype)
    raises("linalg.matrix_power: expected a floating point or complex tensor as input (got int64)",
      lt.linalg.matrix_power, a, -1)
  end)

  it("survives huge and the most negative exponents", function()
    local p = lt.tensor({ { 0, 1 }, { 1, 0 } }, "float64")
    close(lt.linalg.matrix_power(p, 1 << 62), lt.eye(2, 2, "float64"), 0)
    close(lt.linalg.matrix_power(p, math.mininteger), lt.eye(2, 2, "float64"), 0)
    close(lt.linalg.matrix_power(p, math.maxinteger), p, 0)
  end)

  it("raises for non-square matrices, 1-d tensors, singular matrices below 0", function()
    raises("linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices",
      lt.linalg.matrix_power, lt.ones(2, 3), 2)
    raises("linalg.matrix_power: the input tensor A must have at least 2 dimensions",
      lt.linalg.matrix_power, lt.ones(3), 2)
    raises("The diagonal element", lt.linalg.matrix_power, lt.zeros(5, 5), -1)
    raises("n must be an integer, got 1.5", lt.linalg.matrix_power, lt.eye(2), 1.5)
  end)

  it("keeps batches, empty ones included", function()
    assert.are.same({ 0, 2, 2 }, lt.linalg.matrix_power(lt.zeros(0, 2, 2), -2).shape)
    assert.are.same({ 4, 3, 3 }, lt.eye(3):expand(4, 3, 3):matrix_power(0).shape)
  end)
end)
