---@meta _
-- LuaLS definitions of ltensor.Tensor, part 3: the shape copies and views of
-- src/binding/lua_shape.c (flip, roll, repeat, tile, split, chunk, unbind, tril, triu and their
-- in-place forms, diag, diagonal, broadcast_to) and their module forms: `; ltensor.f =
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
