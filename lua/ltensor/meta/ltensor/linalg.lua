---@meta ltensor.linalg
-- LuaLS definitions of `lt.linalg`: linear algebra with torch.linalg's names, positional order
-- and results. Matrices are the last two dims of a tensor, batched over the dims before them
-- (broadcast between operands as torch does); float32, float64, complex64 and complex128
-- (float16 and bfloat16 compute in float32; integers raise). Several results are several Lua
-- values; positions returned (pivots) are 1-based. The factorizations go through LAPACK, loaded
-- at the first call (`lt.config().lapack` names it); without it they raise "needs LAPACK",
-- except inv, det and solve of 2x2, 3x3 and 4x4 matrices, which ltensor computes itself.
-- A singular or non-positive-definite input raises as torch's LinAlgError does, naming the
-- batch element, 1-based ("linalg.inv: (Batch element 3): ..." for A[3]; torch counts from 0);
-- the `_ex` forms return `info` instead.

---@class ltensor.linalg
local linalg = {}

-- {====== solving and inverting (LU, Cholesky, triangular) ======

--- X with A X = B (with {left = false}: X A = B), as torch.linalg.solve: B is a batch of vectors
--- when it is 1-d or has A's shape less its last dim, else of n x k matrices; A and B of one
--- dtype, their batch dims broadcast. A singular A raises, naming the batch element.
---@param A ltensor.Tensor
---@param B ltensor.Tensor
---@param opts? {left:boolean}
---@return ltensor.Tensor
function linalg.solve(A, B, opts) end

--- solve that reports singular matrices in info (int32, the batch shape: 0, or the position
--- of U's first zero diagonal element) instead of raising; {check_errors = true} raises.
---@param A ltensor.Tensor
---@param B ltensor.Tensor
---@param opts? {left:boolean,check_errors:boolean}
---@return ltensor.Tensor result
---@return ltensor.Tensor info
function linalg.solve_ex(A, B, opts) end

--- X with A X = B (or X A = B, {left = false}) for a triangular A: {upper = true} reads A's upper
--- triangle, {upper = false} its lower one (required, as torch's), {unitriangular = true} takes
--- its diagonal as ones. B has at least 2 dims; dtypes promoted. A zero on the diagonal is not
--- checked: inf and NaN, as torch.
---@param A ltensor.Tensor
---@param B ltensor.Tensor
---@param opts {upper:boolean,left:boolean,unitriangular:boolean}
---@return ltensor.Tensor
function linalg.solve_triangular(A, B, opts) end

--- The inverse of each square matrix (A inv(A) = I). A singular one raises, naming the batch
--- element and U's zero diagonal element.
---@param A ltensor.Tensor
---@return ltensor.Tensor
function linalg.inv(A) end

--- inv with info (int32, the batch shape; 0 or U's first zero diagonal element, 1-based)
--- instead of raising; a singular matrix's inverse is NaN. {check_errors = true} raises.
---@param A ltensor.Tensor
---@param opts? {check_errors:boolean}
---@return ltensor.Tensor inverse
---@return ltensor.Tensor info
function linalg.inv_ex(A, opts) end

--- The determinant of each square matrix, a tensor of the batch shape (0-d for one matrix); 1
--- for 0 x 0.
---@param A ltensor.Tensor
---@return ltensor.Tensor
function linalg.det(A) end

--- The sign and the log of the absolute value of the determinant (det = sign * exp(logabsdet)):
--- sign of A's dtype (a complex number of modulus 1 for complex A; 0 with logabsdet -inf for a
--- singular matrix), logabsdet real.
---@param A ltensor.Tensor
---@return ltensor.Tensor sign
---@return ltensor.Tensor logabsdet
function linalg.slogdet(A) end

--- The Cholesky factor L of each Hermitian positive-definite matrix (A = L L^H, from A's lower
--- triangle); {upper = true}: U (A = U^H U, from its upper triangle). A matrix that is not
--- positive-definite raises, naming the batch element and the leading minor.
---@param A ltensor.Tensor
---@param opts? {upper:boolean}
---@return ltensor.Tensor
function linalg.cholesky(A, opts) end

--- cholesky with info (int32, the batch shape: 0, or the order of the leading minor that is
--- not positive-definite) instead of raising; {check_errors = true} raises.
---@param A ltensor.Tensor
---@param opts? {upper:boolean,check_errors:boolean}
---@return ltensor.Tensor L
---@return ltensor.Tensor info
function linalg.cholesky_ex(A, opts) end

--- The LU decomposition with partial pivoting of each m x n matrix: A = P L U, P m x m, L m x k
--- with ones on its diagonal, U k x n (k = min(m, n)). {pivot = false} raises, as torch's CPU.
---@param A ltensor.Tensor
---@param opts? {pivot:boolean}
---@return ltensor.Tensor P
---@return ltensor.Tensor L
---@return ltensor.Tensor U
function linalg.lu(A, opts) end

--- The packed LU factors of each m x n matrix (L below the diagonal, U on and above) and the
--- row swaps (int32, 1-based: row i was swapped with row pivots[i]), for lu_solve. A zero on
--- U's diagonal raises (lu_factor_ex reports it instead).
---@param A ltensor.Tensor
---@param opts? {pivot:boolean}
---@return ltensor.Tensor LU
---@return ltensor.Tensor pivots
function linalg.lu_factor(A, opts) end

--- lu_factor with info (int32, the batch shape: 0, or the position of U's first zero diagonal
--- element) instead of raising; {check_errors = true} raises.
---@param A ltensor.Tensor
---@param opts? {pivot:boolean,check_errors:boolean}
---@return ltensor.Tensor LU
---@return ltensor.Tensor pivots
---@return ltensor.Tensor info
function linalg.lu_factor_ex(A, opts) end

--- X with A X = B from lu_factor's LU and pivots ({left = false}: X A = B; {adjoint = true}: A^H
--- for A). Pivots are checked (1 to n); batch dims broadcast; LU and B of one dtype.
---@param LU ltensor.Tensor
---@param pivots ltensor.Tensor
---@param B ltensor.Tensor
---@param opts? {left:boolean,adjoint:boolean}
---@return ltensor.Tensor
function linalg.lu_solve(LU, pivots, B, opts) end

--- A to the integer power n by repeated squaring: n = 0 the identity (of A's dtype), n < 0 the
--- power of the inverse. Integer dtypes take n >= 0.
---@param A ltensor.Tensor
---@param n integer
---@return ltensor.Tensor
function linalg.matrix_power(A, n) end

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
--- Through gesdd on A^T (the row-major A as LAPACK reads it, no transposed copy): the singular
--- vectors' signs (phases), which are not unique, may differ from torch's. NaN or inf raises.
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

--- The matrix exponential e^A of each n x n matrix of A (batched), as torch.linalg.matrix_exp:
--- scaling and squaring around a Taylor polynomial of degree 18, computed in float64 (complex128
--- for complex A) and returned in A's dtype; needs no LAPACK. Also `A:matrix_exp()`.
---@param A ltensor.Tensor
---@return ltensor.Tensor
function linalg.matrix_exp(A) end

--- The product of two or more matrices in the order of fewest scalar multiplications, as
--- torch.linalg.multi_dot: the first may be 1-d (a row), the last 1-d (a column), the others
--- 2-d, all of one dtype; a 1-d end's dim is removed from the result.
---@param tensors ltensor.Tensor[]
---@return ltensor.Tensor
function linalg.multi_dot(tensors) end

--- The dot product along `dim` (default -1) of x and y, broadcast: sum(conj(x) * y), as
--- torch.linalg.vecdot; x and y of one floating or complex dtype.
---@param x ltensor.Tensor
---@param y ltensor.Tensor
---@param opts? {dim:integer}
---@return ltensor.Tensor
function linalg.vecdot(x, y, opts) end

--- The cross product along `dim` (default -1, where `t:cross` takes the first dim of size 3) of
--- x and y, of one dtype and number of dims, broadcast; that dim must have size 3.
---@param x ltensor.Tensor
---@param y ltensor.Tensor
---@param opts? {dim:integer}
---@return ltensor.Tensor
function linalg.cross(x, y, opts) end

--- A view of the diagonals of A's matrices (dims dim1, dim2; default -2, -1), shifted by
--- `offset` (> 0 above the main one), appended as the last dim, as torch.linalg.diagonal.
---@param A ltensor.Tensor
---@param opts? {offset:integer, dim1:integer, dim2:integer}
---@return ltensor.Tensor
function linalg.diagonal(A, opts) end

-- }======
