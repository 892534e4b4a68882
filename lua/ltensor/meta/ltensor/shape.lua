---@meta _
-- LuaLS definitions of ltensor.Tensor, part 3: the shape copies and views of
-- src/binding/lua_shape.c (flip, roll, repeat, tile, split, chunk, unbind, tril, triu and their
-- in-place forms, diag, diagonal, broadcast_to), the layout functions of src/binding/lua_layout.c
-- (tensor_split, movedim, rot90, lt.hstack, lt.tril_indices, kron, ...) and their module forms: `; ltensor.f =
-- Tensor.f` after a method's `end` declares lt.f(t, ...) (torch.f), which its block documents.
-- The constructors (lt.eye, lt.linspace, lt.zeros_like, lt.meshgrid, ...) are in ../ltensor.lua.
-- Conventions: see ../ltensor.lua. Nothing requires this file.

---@class ltensor.Tensor
local Tensor = {}

---@class ltensor
local ltensor = {}

-- {====== shapes: copies and views ======

--- A copy with the order of the elements along the dims reversed.
---@param ... integer|ltensor.Shape the dims, or one table of them
---@return ltensor.Tensor
function Tensor:flip(...) end; ltensor.flip = Tensor.flip

--- A copy with the elements shifted along the dims, wrapping around (without dims: the flattened tensor).
---@param shifts integer|ltensor.Shape
---@param dims? integer|ltensor.Shape
---@return ltensor.Tensor
function Tensor:roll(shifts, dims) end; ltensor.roll = Tensor.roll

--- A copy of t repeated sizes times along each dim, as torch's repeat (a Lua keyword: call `t["repeat"](t, 2, 1)`, or use tile).
---@param ... integer|ltensor.Shape the repetitions, or one table of them
---@return ltensor.Tensor
Tensor["repeat"] = function(self, ...) end

--- A copy of t repeated sizes times along each dim (sizes padded with 1s in front).
---@param ... integer|ltensor.Shape the repetitions, or one table of them
---@return ltensor.Tensor
function Tensor:tile(...) end; ltensor.tile = Tensor.tile

--- A table of views along dim (default 1), each split_size long (the last shorter), or of the sizes in a table.
---@param split_size integer|ltensor.Shape
---@param dim? integer
---@return ltensor.Tensor[]
function Tensor:split(split_size, dim) end; ltensor.split = Tensor.split

--- A table of at most chunks views along dim (default 1), each ceil(size / chunks) long.
---@param chunks integer
---@param dim? integer
---@return ltensor.Tensor[]
function Tensor:chunk(chunks, dim) end; ltensor.chunk = Tensor.chunk

--- A table of the views t:select(dim, i) for every i (dim default 1).
---@param dim? integer
---@return ltensor.Tensor[]
function Tensor:unbind(dim) end; ltensor.unbind = Tensor.unbind

--- A copy with the elements above the diagonal (0: the main one, positive above) set to 0.
---@param diagonal? integer
---@return ltensor.Tensor
function Tensor:tril(diagonal) end; ltensor.tril = Tensor.tril

--- A copy with the elements below the diagonal (0: the main one, positive above) set to 0.
---@param diagonal? integer
---@return ltensor.Tensor
function Tensor:triu(diagonal) end; ltensor.triu = Tensor.triu

--- In place: tril written into t (the elements above the diagonal set to 0); returns t.
---@param diagonal? integer
---@return ltensor.Tensor self
function Tensor:tril_(diagonal) end

--- In place: triu written into t (the elements below the diagonal set to 0); returns t.
---@param diagonal? integer
---@return ltensor.Tensor self
function Tensor:triu_(diagonal) end

--- A 1-d tensor becomes a diagonal matrix; a matrix gives its diagonal (copies).
---@param diagonal? integer
---@return ltensor.Tensor
function Tensor:diag(diagonal) end; ltensor.diag = Tensor.diag

--- A view of the diagonal of dims dim1 and dim2 (default 1, 2), appended as the last dim.
---@param offset? integer
---@param dim1? integer
---@param dim2? integer
---@return ltensor.Tensor
function Tensor:diagonal(offset, dim1, dim2) end; ltensor.diagonal = Tensor.diagonal

--- A view of t expanded to the shape, as t:expand (-1 keeps a size).
---@param ... integer|ltensor.Shape the integers, or one table of them
---@return ltensor.Tensor
function Tensor:broadcast_to(...) end; ltensor.broadcast_to = Tensor.broadcast_to

-- t:trace() is documented with the reductions (ltensor/math.lua)
ltensor.trace = Tensor.trace

-- }======

-- {====== layout: stacks, splits, moves, index tables, products (src/binding/lua_layout.c) ======

--- The tensors joined column-wise, as torch.hstack: 0-d tensors become 1-d, then they are joined along dim 1 when the first is 1-d, else along dim 2.
---@param tensors ltensor.Tensor[]
---@return ltensor.Tensor
function ltensor.hstack(tensors) end

--- The tensors joined row-wise, as torch.vstack: 0-d and 1-d tensors become rows (a 1-d tensor of n is 1 x n), then they are joined along dim 1.
---@param tensors ltensor.Tensor[]
---@return ltensor.Tensor
function ltensor.vstack(tensors) end

--- The tensors joined depth-wise, as torch.dstack: each made at least 3-d (n becomes 1 x n x 1, m x n becomes m x n x 1), then joined along dim 3.
---@param tensors ltensor.Tensor[]
---@return ltensor.Tensor
function ltensor.dstack(tensors) end

--- The tensors as columns, as torch.column_stack: 0-d and 1-d tensors become n x 1 columns, then all are joined along dim 2.
---@param tensors ltensor.Tensor[]
---@return ltensor.Tensor
function ltensor.column_stack(tensors) end

--- A table of views along dim (default 1), as torch.tensor_split: an integer n gives n pieces (the first size % n one longer); a table of indices cuts before each index, where an index is torch's: the count of elements before the cut (a cut at 2 leaves 2 elements in the first piece; negatives count from the end), not a 1-based position.
---@param sections_or_indices integer|integer[]
---@param dim? integer
---@return ltensor.Tensor[]
function Tensor:tensor_split(sections_or_indices, dim) end; ltensor.tensor_split = Tensor.tensor_split

--- tensor_split along dim 1 of a tensor of at least 2 dims; an integer must divide the dim's size (indices as tensor_split's: counts of elements before each cut).
---@param sections_or_indices integer|integer[]
---@return ltensor.Tensor[]
function Tensor:vsplit(sections_or_indices) end; ltensor.vsplit = Tensor.vsplit

--- tensor_split along dim 2 (dim 1 of a 1-d tensor); an integer must divide the dim's size.
---@param sections_or_indices integer|integer[]
---@return ltensor.Tensor[]
function Tensor:hsplit(sections_or_indices) end; ltensor.hsplit = Tensor.hsplit

--- tensor_split along dim 3 of a tensor of at least 3 dims; an integer must divide the dim's size.
---@param sections_or_indices integer|integer[]
---@return ltensor.Tensor[]
function Tensor:dsplit(sections_or_indices) end; ltensor.dsplit = Tensor.dsplit

--- A view with dim source moved to position destination (integers, or tables of as many distinct dims); the other dims keep their order.
---@param source integer|integer[]
---@param destination integer|integer[]
---@return ltensor.Tensor
function Tensor:movedim(source, destination) end; ltensor.movedim = Tensor.movedim

--- movedim by NumPy's name.
---@param source integer|integer[]
---@param destination integer|integer[]
---@return ltensor.Tensor
function Tensor:moveaxis(source, destination) end; ltensor.moveaxis = Tensor.moveaxis

--- A view with dims axis0 and axis1 swapped (t:transpose).
---@param axis0 integer
---@param axis1 integer
---@return ltensor.Tensor
function Tensor:swapaxes(axis0, axis1) end; ltensor.swapaxes = Tensor.swapaxes

--- swapaxes by torch's other name.
---@param dim0 integer
---@param dim1 integer
---@return ltensor.Tensor
function Tensor:swapdims(dim0, dim1) end; ltensor.swapdims = Tensor.swapdims

--- The elements as a 1-d tensor in row-major order: a view when the strides allow it, else a copy.
---@return ltensor.Tensor
function Tensor:ravel() end; ltensor.ravel = Tensor.ravel

--- The elements at the 1-based positions of indices along dim, t and indices (same number of dims) broadcast in the other dims; without dim, the flattened t at the flattened indices.
---@param indices ltensor.Tensor an int64 or int32 tensor
---@param dim? integer
---@return ltensor.Tensor
function Tensor:take_along_dim(indices, dim) end; ltensor.take_along_dim = Tensor.take_along_dim

--- Each element repeated along dim (without dim: of the flattened t): repeats an integer, or an integer tensor of one count or one per element; `{output_size = n}` checks the total. lt.repeat_interleave(repeats) alone gives the 1-based positions 1, 2, ... each repeated its count times.
---@param repeats integer|ltensor.Tensor
---@param dim? integer
---@param opts? {output_size:integer}
---@return ltensor.Tensor
function Tensor:repeat_interleave(repeats, dim, opts) end; ltensor.repeat_interleave = Tensor.repeat_interleave

--- t rotated k quarter turns (default 1; negative turns the other way) in the plane of dims (default {1, 2}), from the first dim towards the second.
---@param k? integer
---@param dims? integer[]
---@return ltensor.Tensor
function Tensor:rot90(k, dims) end; ltensor.rot90 = Tensor.rot90

--- A copy reversed along dim 2 (left to right), of a tensor of at least 2 dims.
---@return ltensor.Tensor
function Tensor:fliplr() end; ltensor.fliplr = Tensor.fliplr

--- A copy reversed along dim 1 (up to down), of a tensor of at least 1 dim.
---@return ltensor.Tensor
function Tensor:flipud() end; ltensor.flipud = Tensor.flipud

--- A new tensor of one dim more, zero but for the diagonal offset (default 0) of dims dim1 and dim2 (default -2 and -1, counted in the result), which holds t's last dim.
---@param offset? integer
---@param dim1? integer
---@param dim2? integer
---@return ltensor.Tensor
function Tensor:diag_embed(offset, dim1, dim2) end; ltensor.diag_embed = Tensor.diag_embed

--- A square matrix with the flattened t on the diagonal offset (default 0; positive above the main one).
---@param offset? integer
---@return ltensor.Tensor
function Tensor:diagflat(offset) end; ltensor.diagflat = Tensor.diagflat

--- Views of the tensors (as arguments, or one table of them) expanded to their broadcast shape, as several results.
---@param ... ltensor.Tensor|ltensor.Tensor[]
---@return ltensor.Tensor ...
function ltensor.broadcast_tensors(...) end

--- Every tuple of elements of the 1-d tensors (of one dtype; as arguments, or one table of them), as the rows of an N x n tensor in row-major order; one tensor is returned as it is.
---@param ... ltensor.Tensor|ltensor.Tensor[]
---@return ltensor.Tensor
function ltensor.cartesian_prod(...) end

--- The r-element combinations (default 2) of the elements of a 1-d tensor, in order, as the rows of a tensor of its dtype; with_replacement lets an element repeat. r = 0 gives an empty 1-d tensor.
---@param t ltensor.Tensor
---@param r? integer
---@param with_replacement? boolean
---@return ltensor.Tensor
function ltensor.combinations(t, r, with_replacement) end

--- The 1-based (row, column) positions of the lower triangle of a row x col matrix (the elements with column - row <= offset, default 0), as a 2 x N int64 tensor in row-major order (or the integer dtype given); torch's are 0-based.
---@param row integer
---@param col integer
---@param offset? integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.tril_indices(row, col, offset, dtype) end

--- The 1-based (row, column) positions of the upper triangle of a row x col matrix (column - row >= offset, default 0), as tril_indices gives them.
---@param row integer
---@param col integer
---@param offset? integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.triu_indices(row, col, offset, dtype) end

--- The coordinates of 1-based flat positions (as argmax gives them; negatives from the end) in a tensor of the shape: one int64 tensor of 1-based positions per dim, as several results (several integers for an integer position).
---@param indices ltensor.Tensor|integer an integer tensor, or one position
---@param ... integer|ltensor.Shape the shape's sizes, or one table of them
---@return ltensor.Tensor|integer ...
function ltensor.unravel_index(indices, ...) end

--- The Vandermonde matrix of a 1-d x: N columns (default #x) of the powers x^(N-1) down to x^0, or up from x^0 when increasing; bool and integers give int64.
---@param x ltensor.Tensor
---@param N? integer
---@param increasing? boolean
---@return ltensor.Tensor
function ltensor.vander(x, N, increasing) end

--- The Kronecker product of t and other (dims aligned to the last).
---@param other ltensor.Tensor
---@return ltensor.Tensor
function Tensor:kron(other) end; ltensor.kron = Tensor.kron

--- The sum of products over the last dims of t and other (a 0-d operand multiplies): t's other dims, then other's.
---@param other ltensor.Tensor
---@return ltensor.Tensor
function Tensor:inner(other) end; ltensor.inner = Tensor.inner

--- The sum of products of a and b over dims: an integer n (default 2) takes a's last n dims with b's first n; a pair of tables {{a's dims}, {b's dims}} names them (1-based). The result has a's other dims, then b's.
---@param a ltensor.Tensor
---@param b ltensor.Tensor
---@param dims? integer|integer[][]
---@return ltensor.Tensor
function ltensor.tensordot(a, b, dims) end

--- beta * t + alpha * (batch1 @ batch2) for 3-d batch1 (b x n x k) and batch2 (b x k x m), t broadcast to b x n x m; both 1 by default (beta 0 ignores t's values).
---@param batch1 ltensor.Tensor
---@param batch2 ltensor.Tensor
---@param opts? {beta:number,alpha:number}
---@return ltensor.Tensor
function Tensor:baddbmm(batch1, batch2, opts) end; ltensor.baddbmm = Tensor.baddbmm

--- In place: baddbmm written into t (whose shape must be the result's).
---@param batch1 ltensor.Tensor
---@param batch2 ltensor.Tensor
---@param opts? {beta:number,alpha:number}
---@return ltensor.Tensor self
function Tensor:baddbmm_(batch1, batch2, opts) end

-- }======
