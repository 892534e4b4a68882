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

-- }======

-- {====== norms, products and matrix functions ======

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
