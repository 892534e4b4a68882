-- lt.linalg's decompositions and norms, as torch.linalg has them: qr, svd, svdvals, eigh,
-- eigvalsh, eig, eigvals, lstsq, pinv, matrix_rank, matrix_norm, vector_norm, norm, cond, and
-- t:pinverse. Values are checked through reconstructions (Q R = A, U diag(S) Vh = A,
-- A V = V diag(L)) and against torch 1.13's results on the same data; spec/c/numpy_host_decomp.h
-- cross-checks NumPy on random, ill-conditioned, batched and non-contiguous inputs. Without
-- LAPACK (lt.config().lapack nil) the functions that need it raise "needs LAPACK", and the norms
-- that need none still work.
local lt = require "ltensor"
local L = lt.linalg
local HAVE = lt.config().lapack ~= nil

-- {====== helpers ======

local TOL = { float32 = 1e-4, float64 = 1e-10, complex64 = 1e-4, complex128 = 1e-10 }

-- Whether a and b (tensors of one shape, or numbers) agree within tol, relative to b's size.
local function near(a, b, tol)
  if type(a) == "number" then return math.abs(a - b) <= tol * math.max(1, math.abs(b)) end
  assert.same(b.shape, a.shape)
  if a:numel() == 0 then return true end
  local scale = math.max(1, b:abs():max())
  return (a - b):abs():max() <= tol * scale
end

local function real_of(dt)
  return dt == "complex64" and "float32" or dt == "complex128" and "float64" or dt
end

-- A random m x n tensor (with batch dims before) of dtype dt; complex ones from pairs of reals.
local function rand(shape, dt)
  local s = {}
  for i, v in ipairs(shape) do s[i] = v end
  if dt:find("complex") then
    s[#s] = 2 * s[#s]
    return lt.randn(s, real_of(dt)):view(dt)
  end
  return lt.randn(s, dt)
end

-- The conjugate of a complex tensor (a real one as it is).
local function conj(x)
  if not x.dtype:find("complex") then return x end
  local r = x:contiguous():view(real_of(x.dtype))
  local shape = r.shape
  shape[#shape] = shape[#shape] // 2
  shape[#shape + 1] = 2
  return (r:reshape(shape) * lt.tensor({ 1, -1 }, r.dtype)):reshape(r.shape):view(x.dtype)
end
local function adj(x) return conj(x:transpose(-2, -1)) end

-- The n x n identity of dtype dt.
local function eye(n, dt) return lt.eye(n, dt) end

local DTYPES = { "float32", "float64", "complex64", "complex128" }

-- The four dtypes, after seeding the generator (each test draws its own data).
local function seeded_dtypes(seed)
  lt.manual_seed(seed)
  return ipairs(DTYPES)
end

-- }======

if not HAVE then
  describe("without LAPACK", function()
    local A = lt.eye(3)
    it("every decomposition raises 'needs LAPACK' naming the function", function()
      for _, f in ipairs({ "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "pinv",
        "matrix_rank", "cond" }) do
        local ok, msg = pcall(L[f], A)
        assert.is_false(ok)
        assert.truthy(msg:find("linalg." .. f .. ": needs LAPACK", 1, true), msg)
      end
      local ok, msg = pcall(L.lstsq, A, A)
      assert.is_false(ok)
      assert.truthy(msg:find("linalg.lstsq: needs LAPACK", 1, true), msg)
      assert.has_error(function() A:pinverse() end)
      assert.has_error(function() L.matrix_norm(A, 2) end)
    end)
    it("the norms that need no singular value still work", function()
      local M = lt.tensor({ { 1, -2 }, { 3, 4 } }, "float32")
      assert.is_true(near(L.matrix_norm(M):item(), math.sqrt(30), 1e-6))
      assert.equal(7, L.matrix_norm(M, math.huge):item())
      assert.equal(6, L.matrix_norm(M, 1):item())
      assert.is_true(near(L.vector_norm(M), math.sqrt(30), 1e-6))
      assert.equal(6, L.norm(M, 1, { 1, 2 }, false):item())
    end)
  end)
end

if HAVE then
  describe("linalg.qr", function()
    it("factors A = Q R, Q with orthonormal columns and R upper triangular, in every dtype", function()
      for _, dt in seeded_dtypes(1) do
        for _, shape in ipairs({ { 5, 3 }, { 3, 5 }, { 2, 4, 4 } }) do
          local A = rand(shape, dt)
          local Q, R = L.qr(A)
          local k = math.min(shape[#shape - 1], shape[#shape])
          assert.equal(k, Q:size(-1))
          assert.is_true(near(Q:matmul(R), A, TOL[dt]), dt)
          local G = adj(Q):matmul(Q)
          assert.is_true(near(G, eye(k, dt):expand(G.shape), TOL[dt]), dt)
          assert.is_true(near(R:triu(), R, 0), dt)
          assert.is_true(Q:is_contiguous() and R:is_contiguous())
        end
      end
    end)
    it("gives torch's Q and R for a known matrix (LAPACK's signs)", function()
      local A = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 10 }, { 1, 0, 1 } }, "float64")
      local Q, R = L.qr(A)
      assert.is_true(near(R, lt.tensor({ { -8.1854, -9.5292, -11.9726 }, { 0, 1.4812, 1.2898 },
        { 0, 0, 0.9966 } }, "float64"), 1e-4))
      assert.is_true(near(Q[{ {}, 1 }], lt.tensor({ -0.1222, -0.4887, -0.8552, -0.1222 },
        "float64"), 1e-3))
    end)
    it("takes mode 'complete' (Q m x m, R m x n) and 'r' (an empty Q)", function()
      local A = rand({ 5, 3 }, "float64")
      local Q, R = L.qr(A, "complete")
      assert.same({ 5, 5 }, Q.shape)
      assert.same({ 5, 3 }, R.shape)
      assert.is_true(near(Q:matmul(R), A, 1e-10))
      assert.is_true(near(Q:t():matmul(Q), lt.eye(5, "float64"), 1e-10))
      local Q2, R2 = L.qr(A, "r")
      assert.same({ 0 }, Q2.shape)
      assert.is_true(near(R2, select(2, L.qr(A)), 0))
      local W = rand({ 2, 4 }, "float64")
      local Qw, Rw = L.qr(W, "complete")
      assert.same({ 2, 2 }, Qw.shape)
      assert.is_true(near(Qw:matmul(Rw), W, 1e-10))
    end)
    it("reads non-contiguous inputs and never writes them", function()
      local B = rand({ 4, 6 }, "float32")
      local before = B:clone()
      local A = B:t() -- 6 x 4, transposed view
      local Q, R = L.qr(A)
      assert.is_true(near(Q:matmul(R), A, 1e-4))
      assert.is_true(lt.equal(B, before))
      local S = rand({ 6, 8 }, "float64")[{ {}, { 1, 8, 2 } }] -- strided columns
      local Q2, R2 = L.qr(S)
      assert.is_true(near(Q2:matmul(R2), S, 1e-10))
    end)
    it("gives torch's shapes for empty matrices (an identity Q for 'complete' of 3 x 0)", function()
      local Q, R = L.qr(lt.zeros(0, 3))
      assert.same({ 0, 0 }, Q.shape)
      assert.same({ 0, 3 }, R.shape)
      Q, R = L.qr(lt.zeros(3, 0), "complete")
      assert.is_true(lt.equal(Q, lt.eye(3)))
      assert.same({ 3, 0 }, R.shape)
      Q, R = L.qr(lt.zeros(0, 2, 2))
      assert.same({ 0, 2, 2 }, Q.shape)
    end)
    it("computes float16 in float32, raises for integers, bad modes and 1-d tensors", function()
      local Q = L.qr(lt.eye(2):half())
      assert.equal("float32", Q.dtype)
      assert.has_error(function() L.qr(lt.eye(2, "int64")) end,
        "linalg.qr: expected a floating point or complex tensor as input (got int64)")
      local ok, msg = pcall(L.qr, lt.eye(2), "full")
      assert.is_false(ok)
      assert.truthy(msg:find("linalg.qr: mode must be 'reduced', 'complete' or 'r', got full", 1,
        true), msg)
      ok, msg = pcall(L.qr, lt.ones(3))
      assert.truthy(msg:find("at least 2 dimensions", 1, true), msg)
    end)
  end)

  describe("linalg.svd and linalg.svdvals", function()
    it("factor A = U diag(S) Vh with S descending, in every dtype, batched", function()
      for _, dt in seeded_dtypes(2) do
        for _, shape in ipairs({ { 5, 3 }, { 3, 5 }, { 2, 3, 4, 4 } }) do
          local A = rand(shape, dt)
          local U, S, Vh = L.svd(A, false)
          assert.equal(real_of(dt), S.dtype)
          assert.is_true(near((U * S:unsqueeze(-2)):matmul(Vh), A, TOL[dt]), dt)
          local k = S:size(-1)
          assert.is_true(near(adj(U):matmul(U), eye(k, dt):expand(adj(U):matmul(U).shape),
            TOL[dt]), dt)
          local s = S:reshape(-1, k)
          for i = 1, s:size(1) do
            for j = 2, k do assert.is_true(s[i][j - 1] >= s[i][j]) end
          end
          assert.is_true(near(L.svdvals(A), S, TOL[dt]))
        end
      end
    end)
    it("gives torch's singular values and full U (m x m), Vh (n x n) by default", function()
      local A = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 10 }, { 1, 0, 1 } }, "float64")
      local U, S, Vh = L.svd(A)
      assert.same({ 4, 4 }, U.shape)
      assert.same({ 3, 3 }, Vh.shape)
      assert.is_true(near(S, lt.tensor({ 17.4509, 0.9869, 0.7016 }, "float64"), 1e-4))
      assert.is_true(near(U:t():matmul(U), lt.eye(4, "float64"), 1e-12))
      assert.is_true(near(U[{ {}, { 1, 3 } }]:matmul(lt.diag(S)):matmul(Vh), A, 1e-12))
      local U2 = L.svd(A, { full_matrices = false })
      assert.same({ 4, 3 }, U2.shape)
      assert.has_error(function() L.svd(A, false, { full_matrices = false }) end,
        "linalg.svd: full_matrices given twice")
    end)
    it("reads transposed views", function()
      local A = rand({ 6, 4 }, "complex128"):transpose(1, 2)
      local U, S, Vh = L.svd(A, false)
      assert.is_true(near((U * S:unsqueeze(1)):matmul(Vh), A, 1e-10))
    end)
    it("gives identities for empty matrices, as torch", function()
      local U, S, Vh = L.svd(lt.zeros(2, 0))
      assert.is_true(lt.equal(U, lt.eye(2)))
      assert.same({ 0 }, S.shape)
      assert.same({ 0, 0 }, Vh.shape)
      U, S, Vh = L.svd(lt.zeros(0, 2))
      assert.same({ 0, 0 }, U.shape)
      assert.is_true(lt.equal(Vh, lt.eye(2)))
      assert.same({ 0, 2 }, select(3, L.svd(lt.zeros(0, 2), false)).shape)
    end)
    it("raises for NaN or inf, naming the batch element as torch's LinAlgError", function()
      local A = lt.ones(3, 2, 2)
      A[2][1][1] = 0 / 0
      local ok, msg = pcall(L.svd, A)
      assert.is_false(ok)
      assert.truthy(msg:find("linalg.svd: (Batch element 2): The algorithm failed to converge " ..
        "because the input matrix contained non-finite values.", 1, true), msg)
      ok, msg = pcall(L.svdvals, lt.full({ 2, 2 }, math.huge))
      assert.truthy(msg:find("linalg.svdvals: The algorithm failed", 1, true), msg)
    end)
  end)

  describe("linalg.eigh and linalg.eigvalsh", function()
    it("give ascending real eigenvalues and orthonormal eigenvectors, A V = V diag(L)", function()
      for _, dt in seeded_dtypes(3) do
        local X = rand({ 3, 5, 5 }, dt)
        local A = X + adj(X) -- Hermitian
        local w, V = L.eigh(A)
        assert.equal(real_of(dt), w.dtype)
        assert.equal(dt, V.dtype)
        assert.is_true(near(A:matmul(V), V * w:unsqueeze(-2), TOL[dt] * 10), dt)
        assert.is_true(near(adj(V):matmul(V), eye(5, dt):expand({ 3, 5, 5 }), TOL[dt]), dt)
        for b = 1, 3 do
          for j = 2, 5 do assert.is_true(w[b][j - 1] <= w[b][j]) end
        end
        assert.is_true(near(L.eigvalsh(A), w, TOL[dt]))
        assert.is_true(near(L.eigvalsh(A, "U"), w, TOL[dt] * 10))
      end
    end)
    it("reads only the triangle UPLO names, as torch", function()
      local A = lt.tensor({ { 1, 5 }, { -7, 2 } }, "float32")
      assert.is_true(near(L.eigvalsh(A), lt.tensor({ -5.5178, 8.5178 }), 1e-4))
      assert.is_true(near(L.eigvalsh(A, "U"), lt.tensor({ -3.5249, 6.5249 }), 1e-4))
      local w, V = L.eigh(lt.tensor({ { 2, 1 }, { 1, 3 } }, "float64"))
      assert.is_true(near(w, lt.tensor({ 1.3820, 3.6180 }, "float64"), 1e-4))
      assert.is_true(near(V:abs(), lt.tensor({ { 0.8507, 0.5257 }, { 0.5257, 0.8507 } },
        "float64"), 1e-4))
    end)
    it("gives torch's eigenvectors, signs and phases included", function()
      local A = lt.tensor({ { 2, 1, 0.5, 0.1 }, { 1, 3, 0.2, 0.7 }, { 0.5, 0.2, 4, 1.5 },
        { 0.1, 0.7, 1.5, 5 } }, "float64")
      local _, V = L.eigh(A)
      assert.is_true(near(V[{ {}, 1 }], lt.tensor({ 0.8204, -0.5142, -0.1973, 0.1539 }, "float64"),
        1e-4))
      local _, VU = L.eigh(A, "U")
      assert.is_true(near(VU[{ {}, 1 }], -V[{ {}, 1 }], 1e-12)) -- torch's 'U' flips this one
      local C = lt.tensor({ { 2, 0, 1, 1 }, { 1, -1, 3, 0 } }, "float64"):view("complex128")
      local _, VC = L.eigh(C) -- [[2, 1+i], [1-i, 3]]
      assert.is_true(near(VC, lt.tensor({ { -0.8165, 0, -0.5774, 0 }, { 0.4082, -0.4082, -0.5774,
        0.5774 } }, "float64"):view("complex128"), 1e-4))
    end)
    it("raises for NaN or inf in the triangle it reads, and ignores the other one", function()
      local A = lt.tensor({ { 2, 0 / 0 }, { 1, 3 } }, "float64")
      assert.is_true(near(L.eigvalsh(A), L.eigvalsh(lt.tensor({ { 2, 1 }, { 1, 3 } }, "float64")),
        1e-12))
      local ok, msg = pcall(L.eigvalsh, A, "U")
      assert.truthy(msg:find("linalg.eigvalsh: The algorithm failed to converge because the " ..
        "input matrix contained non-finite values.", 1, true), msg)
      ok, msg = pcall(L.eigh, lt.stack({ lt.eye(2), lt.full({ 2, 2 }, math.huge) }))
      assert.truthy(msg:find("linalg.eigh: (Batch element 2): ", 1, true), msg)
    end)
    it("handles 0 x 0 and raises for non-square matrices and a bad UPLO", function()
      local w, V = L.eigh(lt.zeros(0, 0))
      assert.same({ 0 }, w.shape)
      assert.same({ 0, 0 }, V.shape)
      assert.has_error(function() L.eigh(lt.zeros(3, 4)) end,
        "linalg.eigh: A must be batches of square matrices, but they are 3 by 4 matrices")
      local ok, msg = pcall(L.eigvalsh, lt.eye(2), "X")
      assert.truthy(msg:find("linalg.eigvalsh: UPLO must be 'L' or 'U', got X", 1, true), msg)
    end)
  end)

  describe("linalg.eig and linalg.eigvals", function()
    it("give complex eigenvalues and eigenvectors of real matrices, A V = V diag(L)", function()
      local w, V = L.eig(lt.tensor({ { 0, -1 }, { 1, 0 } }, "float32"))
      assert.equal("complex64", w.dtype)
      assert.equal("complex64", V.dtype)
      assert.same({ { 0, 1 }, { 0, -1 } }, w:tolist())
      for _, dt in seeded_dtypes(4) do
        local A = rand({ 2, 6, 6 }, dt)
        local w2, V2 = L.eig(A)
        local cdt = dt:find("complex") and dt or (dt == "float32" and "complex64" or "complex128")
        assert.equal(cdt, V2.dtype)
        assert.is_true(near(A:to(cdt):matmul(V2), V2 * w2:unsqueeze(-2), TOL[dt] * 10), dt)
        local norms = L.vector_norm(V2, 2, -2)
        assert.is_true(near(norms, lt.ones({ 2, 6 }, real_of(cdt)), TOL[dt]))
        assert.is_true(near(L.eigvals(A), w2, TOL[dt]))
      end
    end)
    it("gives torch's eigenvalues for a known matrix", function()
      local A = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 10 } }, "float64")
      local w = L.eigvals(A)
      local re = {}
      for i = 1, 3 do re[i] = w[i][1] end
      table.sort(re)
      assert.is_true(near(lt.tensor(re, "float64"), lt.tensor({ -0.9057, 0.1982, 16.7075 },
        "float64"), 1e-4))
    end)
    it("raises for NaN and inf, and for integers", function()
      local ok, msg = pcall(L.eig, lt.tensor({ { 1, 0 / 0 }, { 0, 1 } }))
      assert.truthy(msg:find("linalg.eig: input tensor should not contain infs or NaNs", 1, true),
        msg)
      assert.has_error(function() L.eigvals(lt.eye(2, "int32")) end,
        "linalg.eigvals: expected a floating point or complex tensor as input (got int32)")
      local w, V = L.eig(lt.zeros(2, 0, 0))
      assert.same({ 2, 0 }, w.shape)
      assert.same({ 2, 0, 0 }, V.shape)
    end)
  end)

  describe("linalg.lstsq", function()
    local A = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 10 }, { 1, 0, 1 } }, "float64")
    local B = lt.tensor({ { 1 }, { 2 }, { 3 }, { 4 } }, "float64")
    it("gives torch's solution, residuals, rank and singular values with driver gelsd", function()
      local x, res, rank, sv = L.lstsq(A, B, { driver = "gelsd" })
      assert.is_true(near(x, lt.tensor({ { 1.3288 }, { -3.7260 }, { 2.4041 } }, "float64"), 1e-4))
      assert.is_true(near(res, lt.tensor({ 1.1575 }, "float64"), 1e-4))
      assert.equal(3, rank:item())
      assert.equal("int64", rank.dtype)
      assert.is_true(near(sv, lt.tensor({ 17.4509, 0.9869, 0.7016 }, "float64"), 1e-4))
      assert.is_true(near(res, ((A:matmul(x) - B) ^ 2):sum(1), 1e-10))
    end)
    it("returns what torch's driver returns: gelsy (default) no residuals nor values", function()
      local x, res, rank, sv = L.lstsq(A, B)
      assert.same({ 0 }, res.shape)
      assert.equal(3, rank:item())
      assert.same({ 0 }, sv.shape)
      assert.is_true(near(x, (L.lstsq(A, B, nil, { driver = "gelss" })), 1e-10))
      local _, res2, rank2 = L.lstsq(A, B, { driver = "gels" })
      assert.same({ 1 }, res2.shape)
      assert.same({ 0 }, rank2.shape)
      local ok, msg = pcall(L.lstsq, A, B, { driver = "lu" })
      assert.truthy(msg:find("driver must be 'gels', 'gelsy', 'gelsd' or 'gelss', got lu", 1,
        true), msg)
    end)
    it("gives the minimum-norm solution of a rank-deficient system, rcond cutting", function()
      local D = lt.tensor({ { 1, 1 }, { 1, 1 }, { 0, 0 } }, "float64")
      local x, res, rank = L.lstsq(D, lt.tensor({ { 2 }, { 2 }, { 0 } }, "float64"),
        { driver = "gelsd" })
      assert.is_true(near(x, lt.tensor({ { 1 }, { 1 } }, "float64"), 1e-12))
      assert.equal(1, rank:item())
      assert.same({ 0 }, res.shape) -- not full rank: no residuals
      local _, _, r2 = L.lstsq(lt.diag(lt.tensor({ 3, 1, 1e-3 }, "float64")), lt.eye(3, "float64"),
        0.01, { driver = "gelsd" })
      assert.equal(2, r2:item())
    end)
    it("takes B as a batch of vectors when it has one dim less, and broadcasts batches", function()
      lt.manual_seed(5)
      local A3 = rand({ 2, 5, 3 }, "float64")
      local b = rand({ 2, 5 }, "float64")
      local x, res = L.lstsq(A3, b, { driver = "gelsd" })
      assert.same({ 2, 3 }, x.shape)
      assert.same({ 2, 1 }, res.shape)
      local x1 = L.lstsq(A3[2], b[2])
      assert.is_true(near(x[2], x1, 1e-10))
      local xb, rb, kb, sb = L.lstsq(rand({ 3, 1, 5, 3 }, "float32"), rand({ 1, 4, 5, 2 }, "float32"),
        { driver = "gelsd" })
      assert.same({ 3, 4, 3, 2 }, xb.shape)
      assert.same({ 3, 4, 2 }, rb.shape)
      assert.same({ 3, 4 }, kb.shape)
      assert.same({ 3, 4, 3 }, sb.shape)
    end)
    it("solves complex systems and wide ones (the minimum-norm solution)", function()
      local Ac = rand({ 3, 5 }, "complex128")
      local bc = rand({ 3, 2 }, "complex128")
      local x = L.lstsq(Ac, bc)
      assert.same({ 5, 2 }, x.shape)
      assert.is_true(near(Ac:matmul(x), bc, 1e-10))
      assert.is_true(near(x, L.pinv(Ac):matmul(bc), 1e-10))
    end)
    it("handles empty matrices as torch (residuals of 3 x 0 are B's column norms)", function()
      local x, res, rank = L.lstsq(lt.zeros(3, 0), lt.tensor({ { 1, 2 }, { 2, 0 }, { 2, 1 } }, "float32"),
        { driver = "gelsd" })
      assert.same({ 0, 2 }, x.shape)
      assert.same({ 9, 5 }, res:tolist())
      assert.equal(0, rank:item())
      x = L.lstsq(lt.zeros(0, 3), lt.zeros(0, 2))
      assert.is_true(lt.equal(x, lt.zeros(3, 2)))
    end)
    it("raises for NaN or inf in A (B's give NaN solutions)", function()
      local ok, msg = pcall(L.lstsq, lt.tensor({ { 0 / 0, 1 }, { 1, 2 } }), lt.ones(2, 1))
      assert.truthy(msg:find("linalg.lstsq: The least squares solution could not be computed " ..
        "because the input matrix contained non-finite values.", 1, true), msg)
      local x = L.lstsq(lt.eye(2), lt.tensor({ { 0 / 0 }, { 1 } }))
      assert.is_true(x[1][1] ~= x[1][1])
    end)
    it("raises for mixed dtypes and mismatched rows", function()
      assert.has_error(function() L.lstsq(A, B:float()) end,
        "linalg.lstsq: expected A and B to have the same dtype, but got A's dtype float64 and " ..
        "B's dtype float32")
      local ok, msg = pcall(L.lstsq, A, B[{ { 1, 3 } }])
      assert.truthy(msg:find("linalg.lstsq: A has 4 rows but B has 3", 1, true), msg)
      ok, msg = pcall(L.lstsq, A, B, 0.1, { rcond = 0.1 })
      assert.truthy(msg:find("rcond given twice", 1, true), msg)
    end)
  end)

  describe("linalg.pinv, t:pinverse and linalg.matrix_rank", function()
    it("pinv satisfies A pinv(A) A = A and inverts a square matrix", function()
      for _, dt in seeded_dtypes(6) do
        local A = rand({ 2, 5, 3 }, dt)
        local P = L.pinv(A)
        assert.same({ 2, 3, 5 }, P.shape)
        assert.is_true(near(A:matmul(P):matmul(A), A, TOL[dt] * 10), dt)
        assert.is_true(near(P:matmul(A):matmul(P), P, TOL[dt] * 10), dt)
      end
      local S = lt.tensor({ { 2, 1 }, { 1, 3 } }, "float64")
      assert.is_true(near(L.pinv(S), lt.tensor({ { 0.6, -0.2 }, { -0.2, 0.4 } }, "float64"), 1e-12))
      assert.is_true(near(L.pinv(S, { hermitian = true }), L.pinv(S), 1e-12))
      assert.is_true(near(S:pinverse(), L.pinv(S), 1e-12))
      assert.is_true(near(lt.pinverse(S), L.pinv(S), 1e-12))
    end)
    it("cuts singular values at max(atol, rtol * the largest), as torch", function()
      local D = lt.diag(lt.tensor({ 3, 1, 1e-3 }, "float64"))
      assert.is_true(near(L.pinv(D, { atol = 0.5 }),
        lt.diag(lt.tensor({ 1 / 3, 1, 0 }, "float64")), 1e-12))
      assert.is_true(near(L.pinv(D, { atol = 1.5 }),
        lt.diag(lt.tensor({ 1 / 3, 0, 0 }, "float64")), 1e-12))
      assert.is_true(near(L.pinv(D, { rtol = 0.2 }),
        lt.diag(lt.tensor({ 1 / 3, 1, 0 }, "float64")), 1e-12))
      assert.is_true(near(D:pinverse(0.5), lt.diag(lt.tensor({ 1 / 3, 0, 0 }, "float64")), 1e-12))
      assert.equal(3, L.matrix_rank(D):item())
      assert.equal(2, L.matrix_rank(D, { atol = 0.5 }):item())
      assert.equal(1, L.matrix_rank(D, { atol = 0.5, rtol = 0.5 }):item())
      assert.equal(3, L.matrix_rank(-lt.eye(3), { hermitian = true }):item())
      assert.equal(0, L.matrix_rank(lt.zeros(0, 3)):item())
      assert.same({ 3, 0 }, L.pinv(lt.zeros(0, 3)).shape)
      assert.same({ 3, 2 }, L.pinv(lt.zeros(2, 3)).shape)
    end)
    it("gives int64 ranks of the batch shape", function()
      local A = lt.stack({ lt.eye(3), lt.zeros(3, 3), lt.diag(lt.tensor({ 1, 1, 0 }, "float32")) })
      local r = L.matrix_rank(A)
      assert.equal("int64", r.dtype)
      assert.same({ 3, 0, 2 }, r:tolist())
      assert.has_error(function() L.matrix_rank(lt.ones(3)) end)
      local ok, msg = pcall(L.pinv, lt.eye(2), { tol = 1 })
      assert.truthy(msg:find("unknown option 'tol'", 1, true), msg)
    end)
  end)

  describe("hostile inputs", function()
    it("a batch of 10^12 empty matrices costs nothing (no loop over nothing)", function()
      local E = lt.empty(0):reshape(1000000000000, 0, 0)
      for _, f in ipairs({ "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "pinv" }) do
        local r = L[f](E)
        assert.equal(1000000000000, r:size(1))
      end
      assert.has_error(function() L.matrix_rank(E) end) -- 8 TB of int64 ranks: not enough memory
    end)
    it("matrices over 2^31 - 1 elements are refused before anything is allocated", function()
      local big = lt.zeros(1):expand(3, 3000000000)
      local ok, msg = pcall(L.qr, big)
      assert.truthy(msg:find("linalg.qr: 3 x 3000000000 matrices are too large for LAPACK", 1,
        true), msg)
      ok, msg = pcall(L.svd, lt.zeros(1):expand(100000, 100000))
      assert.is_false(ok)
    end)
    it("never writes its inputs, read-only ones included", function()
      local dlpack = require "ltensor.dlpack"
      local base = lt.tensor({ { 4, 1 }, { 1, 3 } }, "float64")
      local A = lt.from_dlpack(dlpack.ReadOnlyTensorWrapper(base))
      assert.is_true(A:is_read_only())
      local before = A:clone()
      L.qr(A); L.svd(A); L.eigh(A); L.eig(A); L.lstsq(A, A); L.pinv(A); L.cond(A, 1)
      L.matrix_rank(A); L.matrix_norm(A, "nuc")
      assert.is_true(lt.equal(A, before))
    end)
  end)

  describe("linalg.cond", function()
    local A = lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 10 }, { 1, 0, 1 } }, "float64")
    it("gives the ratio of the extreme singular values (p nil, 2, -2), any shape", function()
      assert.is_true(near(L.cond(A):item(), 24.8742, 1e-5))
      assert.is_true(near(L.cond(A, -2):item(), 1 / 24.8742, 1e-4))
      local s = L.svdvals(A)
      assert.is_true(near(L.cond(A, 2):item(), s[1] / s[3], 1e-12))
    end)
    it("gives norm(A) norm(inv(A)) for the other norms, inf for a singular matrix", function()
      local S = A[{ { 1, 3 } }]
      assert.is_true(near(L.cond(S, "fro"):item(), 90.7842, 1e-5))
      assert.is_true(near(L.cond(S, 1):item(), 133, 1e-10))
      local inv = L.pinv(S)
      for _, p in ipairs({ "fro", "nuc", 1, -1, math.huge, -math.huge }) do
        local want = L.matrix_norm(S, p):item() * L.matrix_norm(inv, p):item()
        assert.is_true(near(L.cond(S, p):item(), want, 1e-8), tostring(p))
      end
      local Z = lt.stack({ lt.eye(3), lt.diag(lt.tensor({ 3, 1, 0 }, "float32")) })
      assert.same({ 1, math.huge }, L.cond(Z, 1):tolist())
      assert.equal(math.huge, L.cond(Z[2]):item())
      assert.equal(0, L.cond(lt.zeros(0, 0)):item())
    end)
    it("raises for a non-square matrix with those norms and for other orders", function()
      assert.has_error(function() L.cond(A, "fro") end,
        "linalg.cond: A must be batches of square matrices, but they are 4 by 3 matrices")
      assert.has_error(function() L.cond(lt.eye(2), 3) end,
        "linalg.cond: got an invalid norm type: 3")
    end)
  end)
end

describe("linalg.matrix_norm", function()
  local M = lt.tensor({ { 0, 1, 2 }, { 3, 4, 5 } }, "float32") - 2 -- torch's arange(6).reshape(2, 3) - 2
  it("gives 'fro' by default and the sums of |A| for 1, -1, inf and -inf", function()
    assert.is_true(near(L.matrix_norm(M):item(), 4.3589, 1e-4))
    assert.equal(6, L.matrix_norm(M, math.huge):item())
    assert.equal(3, L.matrix_norm(M, -math.huge):item())
    assert.equal(3, L.matrix_norm(M, 1):item())
    assert.equal(3, L.matrix_norm(M, -1):item())
    assert.equal("float32", L.matrix_norm(M).dtype)
  end)
  if HAVE then
    it("gives the singular values' norms for 'nuc', 2 and -2", function()
      assert.is_true(near(L.matrix_norm(M, "nuc"):item(), 5.8049, 1e-4))
      assert.is_true(near(L.matrix_norm(M, 2):item(), 3.9396, 1e-4))
      assert.is_true(near(L.matrix_norm(M, -2):item(), 1.8653, 1e-4))
      local c = rand({ 3, 3 }, "complex64")
      assert.equal("float32", L.matrix_norm(c, "nuc").dtype)
      assert.is_true(near(L.matrix_norm(c, 2):item(), L.svdvals(c)[1], 1e-5))
    end)
  end
  it("reduces over the two dims given, keeping them when asked", function()
    lt.manual_seed(7)
    local X = lt.randn(3, 4, 5)
    local r = L.matrix_norm(X, "fro", { 1, 3 })
    assert.same({ 4 }, r.shape)
    assert.is_true(near(r[2], L.matrix_norm(X[{ {}, 2 }]):item(), 1e-5))
    assert.same({ 3, 1, 1 }, L.matrix_norm(X, "fro", nil, true).shape)
    local k = L.matrix_norm(X, 1, { -1, 1 }, true)
    assert.same({ 1, 4, 1 }, k.shape)
    assert.is_true(near(k[1][3][1], L.matrix_norm(X[{ {}, 3 }]:t(), 1):item(), 1e-5))
    if HAVE then
      local s = L.matrix_norm(X, 2, { 3, 1 }, true)
      assert.same({ 1, 4, 1 }, s.shape)
      assert.is_true(near(s[1][2][1], L.matrix_norm(X[{ {}, 2 }]:t(), 2):item(), 1e-5))
    end
  end)
  it("casts to the dtype option, refusing narrowing and real for complex, as torch", function()
    assert.equal("float64", L.matrix_norm(M, "fro", nil, false, { dtype = "float64" }).dtype)
    assert.has_error(function() L.matrix_norm(M:double(), "fro", nil, false, { dtype = "float32" }) end,
      "linalg.matrix_norm: the dtype of the input (float64) should be convertible without " ..
      "narrowing to the specified dtype (float32)")
    assert.has_error(function() L.matrix_norm(M, "fro", nil, false, { dtype = "complex64" }) end,
      "linalg.matrix_norm: dtype should be real for real inputs, but got complex64")
    assert.has_error(function() L.matrix_norm(M:to("complex64"), 1, nil, false, { dtype = "float32" }) end,
      "linalg.matrix_norm: dtype should be complex for complex inputs, but got float32")
  end)
  it("raises for other orders, equal dims, 1-d and integer tensors", function()
    assert.has_error(function() L.matrix_norm(M, 3) end, "linalg.matrix_norm: order 3 not supported")
    local ok, msg = pcall(L.matrix_norm, M, "foo")
    assert.truthy(msg:find("ord must be a number, 'fro' or 'nuc', got foo", 1, true), msg)
    assert.has_error(function() L.matrix_norm(M, "fro", { 1, 1 }) end,
      "linalg.matrix_norm: dims must be two different dims of A (got 1 and 1)")
    assert.has_error(function() L.matrix_norm(lt.ones(3)) end,
      "linalg.matrix_norm: the input tensor A must have at least 2 dimensions")
    assert.has_error(function() L.matrix_norm(lt.ones(2, 2, "int64")) end,
      "linalg.matrix_norm: expected a floating point or complex tensor as input (got int64)")
    ok, msg = pcall(L.matrix_norm, M, "fro", { 1, 5 })
    assert.truthy(msg:find("dim 5 out of range for a tensor of 2 dims", 1, true), msg)
  end)
end)

describe("linalg.vector_norm and linalg.norm", function()
  it("vector_norm gives a Lua number over every element, a tensor over dims", function()
    local x = lt.tensor({ { 3, -4 }, { 0, 12 } }, "float32")
    assert.equal(13, L.vector_norm(x))
    assert.equal(19, L.vector_norm(x, 1))
    assert.equal(12, L.vector_norm(x, math.huge))
    assert.equal(0, L.vector_norm(x, -math.huge))
    assert.equal(3, L.vector_norm(x, 0))
    assert.is_true(near(L.vector_norm(lt.tensor({ 0, 1, 2 }, "float32"), 0.5), 5.8284, 1e-4))
    assert.is_true(near(L.vector_norm(x, 2, 1), lt.tensor({ 3, math.sqrt(160) }), 1e-6))
    assert.same({ 5, 12 }, L.vector_norm(x, 2, -1):tolist())
    assert.same({ { 13 } }, L.vector_norm(x, 2, nil, true):tolist())
    assert.same({ 1, 2, 1 }, L.vector_norm(lt.ones(2, 2, 3), 2, { 1, 3 }, true).shape)
    assert.equal(3, L.vector_norm(lt.tensor(-3.0)))
    assert.equal("float16", L.vector_norm(x:half(), 2, 1).dtype)
    assert.equal("float64", L.vector_norm(x, 2, 1, false, { dtype = "float64" }).dtype)
  end)
  it("vector_norm of complex elements is real: the norm of their magnitudes", function()
    local z = lt.tensor({ 3, 4, 0, 12 }, "float32"):view("complex64") -- 3+4i, 12i
    assert.equal(13, L.vector_norm(z))
    assert.equal("float32", L.vector_norm(z, 2, 1).dtype)
  end)
  it("vector_norm raises as torch for integers, strings, empty inf norms and narrowing", function()
    assert.has_error(function() L.vector_norm(lt.tensor({ 1, 2 })) end,
      "linalg.vector_norm: expected a floating point or complex tensor as input (got int64)")
    local ok, msg = pcall(L.vector_norm, lt.ones(3), "fro")
    assert.truthy(msg:find("linalg.vector_norm: ord must be a number, got fro", 1, true), msg)
    ok, msg = pcall(L.vector_norm, lt.zeros(0), math.huge)
    assert.truthy(msg:find("linalg.vector_norm: cannot take the inf norm of an empty tensor", 1,
      true), msg)
    assert.has_error(function() L.vector_norm(lt.ones(3), 2, nil, false, { dtype = "float16" }) end,
      "linalg.vector_norm: the dtype of the input (float32) should be convertible without " ..
      "narrowing to the specified dtype (float16)")
  end)
  it("norm dispatches as torch: a vector norm over one dim or every element, else matrix", function()
    local A = lt.tensor({ { 3, 0 }, { 0, 1 } }, "float32")
    assert.is_true(near(L.norm(A), math.sqrt(10), 1e-6))
    assert.is_true(near(L.norm(A, "fro"):item(), math.sqrt(10), 1e-6))
    assert.equal(3, L.norm(A, math.huge):item()) -- a 2-d A: the matrix norm
    assert.equal(7, L.norm(lt.tensor({ 3, -4 }, "float32"), 1))
    assert.same({ 3, 1 }, L.norm(A, 1, 2):tolist())
    assert.equal(3, L.norm(A, 1, { 1, 2 }):item())
    if HAVE then assert.equal(3, L.norm(A, 2):item()) end
    local ok, msg = pcall(L.norm, lt.ones(2, 3, 4), 2)
    assert.truthy(msg:find("linalg.norm: if dim is not given but ord is, the input must be 1-d " ..
      "or 2-d (got 3-d)", 1, true), msg)
    assert.is_true(near(L.norm(lt.ones(2, 3, 4)), math.sqrt(24), 1e-6))
    ok, msg = pcall(L.norm, lt.ones(2, 3, 4), nil, { 1, 2, 3 })
    assert.truthy(msg:find("dim must be one or two dims when given (got 3)", 1, true), msg)
    ok, msg = pcall(L.norm, A, "fro", 1)
    assert.truthy(msg:find("order 'fro' is a matrix norm's", 1, true), msg)
  end)
end)
