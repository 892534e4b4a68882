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

-- }======
