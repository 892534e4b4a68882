---@meta ltensor.linalg
-- LuaLS definitions of `lt.linalg`: linear algebra with torch.linalg's names, positional order
-- and results. Matrices are the last two dims of a tensor, batched over the dims before them
-- (broadcast between operands as torch does); float32, float64, complex64 and complex128
-- (float16 and bfloat16 compute in float32; integers raise). Several results are several Lua
-- values; positions returned (pivots) are 1-based. The factorizations go through LAPACK, loaded
-- at the first call (`lt.config().lapack` names it); without it they raise "needs LAPACK",
-- except inv, det and solve of 2x2, 3x3 and 4x4 matrices, which ltensor computes itself.
-- A singular or non-positive-definite input raises as torch's LinAlgError does, naming the
-- batch element ("linalg.inv: (Batch element 3): ..."); the `_ex` forms return `info` instead.

---@class ltensor.linalg
local linalg = {}

-- {====== solving and inverting (LU, Cholesky, triangular) ======

-- }======

-- {====== decompositions (QR, SVD, eigenvalues, least squares) ======

--- The QR decomposition A = Q R, Q with orthonormal columns, R upper triangular (k = min(m, n)).
--- mode "reduced": Q m x k, R k x n; "complete": Q m x m, R m x n; "r": R only (k x n) and an
--- empty Q, as torch.
---@param A ltensor.Tensor ... x m x n
---@param mode? string "reduced" (default), "complete" or "r"
---@return ltensor.Tensor Q
---@return ltensor.Tensor R
function linalg.qr(A, mode) end

--- The singular value decomposition A = U diag(S) Vh, S descending and real. full_matrices
--- (default true, positionally or as an option): U m x m and Vh n x n; false: m x k and k x n.
--- Signs of the singular vectors are LAPACK's (gesdd). NaN or inf raises.
---@param A ltensor.Tensor ... x m x n
---@param full_matrices? boolean default true
---@param opts? {full_matrices:boolean}
---@return ltensor.Tensor U
---@return ltensor.Tensor S # real (float32 for complex64), descending
---@return ltensor.Tensor Vh
function linalg.svd(A, full_matrices, opts) end

--- The singular values of A, descending and real (... x min(m, n)).
---@param A ltensor.Tensor
---@return ltensor.Tensor
function linalg.svdvals(A) end

--- The eigenvalues (real, ascending) and orthonormal eigenvectors (columns) of Hermitian
--- (symmetric) matrices, read from the lower triangle ("L", default) or the upper one ("U").
---@param A ltensor.Tensor ... x n x n
---@param UPLO? string "L" or "U"
---@return ltensor.Tensor eigenvalues # real
---@return ltensor.Tensor eigenvectors # A = V diag(L) V^H
function linalg.eigh(A, UPLO) end

--- The eigenvalues of Hermitian matrices (real, ascending), as eigh's first result.
---@param A ltensor.Tensor ... x n x n
---@param UPLO? string "L" or "U"
---@return ltensor.Tensor
function linalg.eigvalsh(A, UPLO) end

--- The eigenvalues and eigenvectors (columns of norm 1) of square matrices, complex whatever
--- the input (complex64 for float32): a real matrix's conjugate pairs are two complex columns,
--- A V = V diag(L). NaN or inf raises.
---@param A ltensor.Tensor ... x n x n
---@return ltensor.Tensor eigenvalues # complex
---@return ltensor.Tensor eigenvectors # complex
function linalg.eig(A) end

--- The eigenvalues of square matrices, complex, as eig's first result.
---@param A ltensor.Tensor ... x n x n
---@return ltensor.Tensor
function linalg.eigvals(A) end

--- The least-squares solution X minimizing |A X - B| (the minimum-norm one when A is
--- rank-deficient), through LAPACK's gelsd for every driver. B is ... x m x k, or ... x m when it
--- has one dim less than A; the batch dims broadcast. rcond (positionally or as an option):
--- singular values at most rcond times the largest count as zero (default machine epsilon times
--- max(m, n)). The driver ("gelsy", torch's default, "gels", "gelsd", "gelss") decides what
--- else is returned, as torch: residuals when m > n, the driver is not gelsy and every matrix
--- has full rank (else empty); rank except for gels; singular values for gelsd and gelss.
---@param A ltensor.Tensor ... x m x n
---@param B ltensor.Tensor ... x m x k, or ... x m
---@param rcond? number
---@param opts? {rcond:number, driver:string}
---@return ltensor.Tensor solution # ... x n x k (or ... x n)
---@return ltensor.Tensor residuals # ... x k squared residual norms, or empty
---@return ltensor.Tensor rank # int64, the batch shape, or empty
---@return ltensor.Tensor singular_values # ... x min(m, n), or empty
function linalg.lstsq(A, B, rcond, opts) end

--- The pseudo-inverse (n x m), from the SVD (eigh when hermitian): singular values at most
--- max(atol, rtol * the largest) count as zero. Defaults as torch: atol 0, rtol machine epsilon
--- times max(m, n), or 0 when atol is given and positive.
---@param A ltensor.Tensor ... x m x n
---@param opts? {atol:number, rtol:number, hermitian:boolean}
---@return ltensor.Tensor
function linalg.pinv(A, opts) end

--- The rank: the number of singular values (absolute eigenvalues when hermitian) above
--- max(atol, rtol * the largest), tolerances as pinv's. int64, the batch shape.
---@param A ltensor.Tensor ... x m x n
---@param opts? {atol:number, rtol:number, hermitian:boolean}
---@return ltensor.Tensor
function linalg.matrix_rank(A, opts) end

-- }======

-- {====== norms, products and matrix functions ======

--- The matrix norm over two dims (default the last two, {-2, -1}): ord "fro" (default), "nuc"
--- (the sum of the singular values), math.huge / -math.huge (the largest / smallest row sum of
--- |A|), 1 / -1 (column sums), 2 / -2 (the largest / smallest singular value). Real; the
--- dtype option casts A first (no narrowing; complex stays complex).
---@param A ltensor.Tensor
---@param ord? number|string
---@param dim? ltensor.Shape two dims
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Tensor
function linalg.matrix_norm(A, ord, dim, keepdim, opts) end

--- The vector ord-norm (default 2; math.huge the largest |x|, -math.huge the smallest, 0 the
--- number of nonzero elements) over a dim, a table of dims, or every element: then a Lua
--- number, as t:norm() (unless keepdim). The dtype option casts x first, as matrix_norm's.
---@param x ltensor.Tensor
---@param ord? number
---@param dim? integer|ltensor.Shape
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return number|ltensor.Tensor
function linalg.vector_norm(x, ord, dim, keepdim, opts) end

--- torch.linalg.norm: a vector norm over one dim, a matrix norm over two; without dim, the
--- 2-norm of every element when ord is nil (a Lua number), else ord's norm of a 1-d (a Lua
--- number) or 2-d A (a matrix norm).
---@param A ltensor.Tensor
---@param ord? number|string
---@param dim? integer|ltensor.Shape one or two dims
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return number|ltensor.Tensor
function linalg.norm(A, ord, dim, keepdim, opts) end

--- The condition number in the norm p: nil or 2 the ratio of the largest to the smallest singular
--- value (-2 its inverse; any m x n), or norm(A, p) * norm(inv(A), p) for "fro", "nuc", 1,
--- -1, math.huge and -math.huge (square A; inf when singular). Real, the batch shape.
---@param A ltensor.Tensor
---@param p? number|string
---@return ltensor.Tensor
function linalg.cond(A, p) end

-- }======
