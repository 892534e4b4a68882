---@meta _
-- LuaLS definitions of ltensor.Tensor, part 3: indexing with tensors (src/binding/lua_gather.c;
-- tensor keys `t[mask]`, `t[idx]` are lua_index.c's and documented on the class, in
-- ltensor/tensor.lua) and the module's forms lt.index_select, lt.gather, lt.take,
-- lt.masked_select and lt.nonzero (the same functions, the tensor first).
-- Index tensors are int64 or int32 and hold 1-based positions, negative from the end; every
-- index value is checked before the first element is written, so a call that raises has
-- changed nothing. A method ending in _ writes t and returns it; the form without _ writes a
-- copy of t and returns the copy. Conventions: see ../ltensor.lua. Nothing requires this file.

---@class ltensor.Tensor
local Tensor = {}

---@class ltensor
local ltensor = {}

-- {====== index_select and kin ======

--- A copy of the slices at positions index along dim (a 0-d or 1-d int64/int32 tensor), as
--- torch.index_select: that dim's size becomes #index.
---@param dim integer
---@param index ltensor.Tensor
---@return ltensor.Tensor
function Tensor:index_select(dim, index) end

--- A copy of t with src's slices along dim added at positions index, src scaled by alpha first
--- ({alpha = k}); repeated positions add up.
---@param dim integer
---@param index ltensor.Tensor 0-d or 1-d, one position per slice of src
---@param src ltensor.Tensor
---@param opts? {alpha:number}
---@return ltensor.Tensor
function Tensor:index_add(dim, index, src, opts) end

--- In place: index_add written into t.
---@param dim integer
---@param index ltensor.Tensor
---@param src ltensor.Tensor
---@param opts? {alpha:number}
---@return ltensor.Tensor self
function Tensor:index_add_(dim, index, src, opts) end

--- A copy of t with src's slices along dim copied to positions index (repeated positions: the
--- last wins).
---@param dim integer
---@param index ltensor.Tensor 0-d or 1-d, one position per slice of src
---@param src ltensor.Tensor
---@return ltensor.Tensor
function Tensor:index_copy(dim, index, src) end

--- In place: index_copy written into t.
---@param dim integer
---@param index ltensor.Tensor
---@param src ltensor.Tensor
---@return ltensor.Tensor self
function Tensor:index_copy_(dim, index, src) end

--- A copy of t with the slices at positions index along dim filled with value.
---@param dim integer
---@param index ltensor.Tensor 0-d or 1-d
---@param value ltensor.Scalar|ltensor.Tensor a Lua value or a 0-d tensor
---@return ltensor.Tensor
function Tensor:index_fill(dim, index, value) end

--- In place: index_fill written into t.
---@param dim integer
---@param index ltensor.Tensor
---@param value ltensor.Scalar|ltensor.Tensor
---@return ltensor.Tensor self
function Tensor:index_fill_(dim, index, value) end

-- }======

-- {====== gather and scatter ======

--- torch.gather: a tensor of index's shape, out[i][j] = t[index[i][j]][j] for dim 1 (the
--- position along dim from index, the others from the element's own).
---@param dim integer
---@param index ltensor.Tensor of t's number of dims
---@return ltensor.Tensor
function Tensor:gather(dim, index) end

--- torch.scatter: a copy of t with src's elements (or value everywhere) written at the
--- positions index gives along dim, the inverse of gather; {reduce = "add"|"multiply"}
--- combines them with t's instead.
---@param dim integer
---@param index ltensor.Tensor of t's number of dims
---@param src ltensor.Tensor|ltensor.Scalar a tensor, or a value (a Lua value or a 0-d tensor)
---@param opts? {reduce:"add"|"multiply"}
---@return ltensor.Tensor
function Tensor:scatter(dim, index, src, opts) end

--- In place: scatter written into t.
---@param dim integer
---@param index ltensor.Tensor
---@param src ltensor.Tensor|ltensor.Scalar
---@param opts? {reduce:"add"|"multiply"}
---@return ltensor.Tensor self
function Tensor:scatter_(dim, index, src, opts) end

--- torch.scatter_add: a copy of t with src's elements added at the positions index gives
--- along dim (repeated positions add up).
---@param dim integer
---@param index ltensor.Tensor of t's number of dims
---@param src ltensor.Tensor
---@return ltensor.Tensor
function Tensor:scatter_add(dim, index, src) end

--- In place: scatter_add written into t.
---@param dim integer
---@param index ltensor.Tensor
---@param src ltensor.Tensor
---@return ltensor.Tensor self
function Tensor:scatter_add_(dim, index, src) end

--- torch.scatter_reduce: a copy of t with src's elements combined by reduce at the positions
--- index gives along dim; {include_self = false} leaves t's own values out of the positions
--- written.
---@param dim integer
---@param index ltensor.Tensor of t's number of dims
---@param src ltensor.Tensor
---@param reduce "sum"|"prod"|"mean"|"amax"|"amin"
---@param opts? {include_self:boolean}
---@return ltensor.Tensor
function Tensor:scatter_reduce(dim, index, src, reduce, opts) end

--- In place: scatter_reduce written into t.
---@param dim integer
---@param index ltensor.Tensor
---@param src ltensor.Tensor
---@param reduce "sum"|"prod"|"mean"|"amax"|"amin"
---@param opts? {include_self:boolean}
---@return ltensor.Tensor self
function Tensor:scatter_reduce_(dim, index, src, reduce, opts) end

-- }======

-- {====== take, masks, nonzero ======

--- torch.take: the elements at positions index of t read as 1-d in row-major order, in a
--- tensor of index's shape.
---@param index ltensor.Tensor
---@return ltensor.Tensor
function Tensor:take(index) end

--- A 1-d copy of the elements where mask (a bool tensor, broadcast to t's shape) is true, in
--- row-major order; the same as `t[mask]` when mask has t's shape.
---@param mask ltensor.Tensor
---@return ltensor.Tensor
function Tensor:masked_select(mask) end

--- A copy of t with the elements where mask (bool, broadcast to t's shape) is true replaced,
--- in row-major order, by src's first elements (src needs at least that many).
---@param mask ltensor.Tensor
---@param src ltensor.Tensor
---@return ltensor.Tensor
function Tensor:masked_scatter(mask, src) end

--- In place: masked_scatter written into t.
---@param mask ltensor.Tensor
---@param src ltensor.Tensor
---@return ltensor.Tensor self
function Tensor:masked_scatter_(mask, src) end

--- The 1-based positions of the nonzero elements: a k x ndim int64 tensor, one row per element
--- in row-major order; with {as_tuple = true} a table of ndim 1-d int64 tensors, one per dim
--- (a 0-d t counts as 1-d), as lt.where(cond).
---@param opts? {as_tuple:boolean}
---@return ltensor.Tensor|ltensor.Tensor[]
function Tensor:nonzero(opts) end

-- }======

-- {====== module forms ======

--- t:index_select(dim, index) with the tensor first.
---@param t ltensor.Tensor
---@param dim integer
---@param index ltensor.Tensor
---@return ltensor.Tensor
function ltensor.index_select(t, dim, index) end

--- t:gather(dim, index) with the tensor first.
---@param t ltensor.Tensor
---@param dim integer
---@param index ltensor.Tensor
---@return ltensor.Tensor
function ltensor.gather(t, dim, index) end

--- t:take(index) with the tensor first.
---@param t ltensor.Tensor
---@param index ltensor.Tensor
---@return ltensor.Tensor
function ltensor.take(t, index) end

--- t:masked_select(mask) with the tensor first.
---@param t ltensor.Tensor
---@param mask ltensor.Tensor
---@return ltensor.Tensor
function ltensor.masked_select(t, mask) end

--- t:nonzero(opts) with the tensor first.
---@param t ltensor.Tensor
---@param opts? {as_tuple:boolean}
---@return ltensor.Tensor|ltensor.Tensor[]
function ltensor.nonzero(t, opts) end

-- }======
