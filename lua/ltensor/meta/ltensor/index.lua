---@meta _
-- LuaLS definitions of ltensor.Tensor, part 4: indexing with tensors (src/binding/lua_gather.c;
-- tensor keys `t[mask]`, `t[idx]` are lua_index.c's and documented on the class, in
-- ltensor/tensor.lua) and the module's forms (`; ltensor.f = Tensor.f` after a method's `end`:
-- lt.f(t, ...), the same function with the tensor first, as torch.f).
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
function Tensor:index_select(dim, index) end; ltensor.index_select = Tensor.index_select

--- A copy of t with src's slices along dim added at positions index, src scaled by alpha first
--- ({alpha = k}); repeated positions add up.
---@param dim integer
---@param index ltensor.Tensor 0-d or 1-d, one position per slice of src
---@param src ltensor.Tensor
---@param opts? {alpha:number}
---@return ltensor.Tensor
function Tensor:index_add(dim, index, src, opts) end; ltensor.index_add = Tensor.index_add

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
function Tensor:index_copy(dim, index, src) end; ltensor.index_copy = Tensor.index_copy

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
function Tensor:index_fill(dim, index, value) end; ltensor.index_fill = Tensor.index_fill

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
function Tensor:gather(dim, index) end; ltensor.gather = Tensor.gather

--- torch.scatter: a copy of t with src's elements (or value everywhere) written at the
--- positions index gives along dim, the inverse of gather; {reduce = "add"|"multiply"}
--- combines them with t's instead.
---@param dim integer
---@param index ltensor.Tensor of t's number of dims
---@param src ltensor.Tensor|ltensor.Scalar a tensor, or a value (a Lua value or a 0-d tensor)
---@param opts? {reduce:"add"|"multiply"}
---@return ltensor.Tensor
function Tensor:scatter(dim, index, src, opts) end; ltensor.scatter = Tensor.scatter

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
function Tensor:scatter_add(dim, index, src) end; ltensor.scatter_add = Tensor.scatter_add

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
function Tensor:scatter_reduce(dim, index, src, reduce, opts) end; ltensor.scatter_reduce = Tensor.scatter_reduce

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
function Tensor:take(index) end; ltensor.take = Tensor.take

--- A 1-d copy of the elements where mask (a bool tensor, broadcast to t's shape) is true, in
--- row-major order; the same as `t[mask]` when mask has t's shape.
---@param mask ltensor.Tensor
---@return ltensor.Tensor
function Tensor:masked_select(mask) end; ltensor.masked_select = Tensor.masked_select

--- A copy of t with the elements where mask (bool, broadcast to t's shape) is true replaced,
--- in row-major order, by src's first elements (src needs at least that many).
---@param mask ltensor.Tensor
---@param src ltensor.Tensor
---@return ltensor.Tensor
function Tensor:masked_scatter(mask, src) end; ltensor.masked_scatter = Tensor.masked_scatter

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
function Tensor:nonzero(opts) end; ltensor.nonzero = Tensor.nonzero

-- }======

-- {====== distances and searching (src/binding/lua_dist.c) ======

--- torch.isin: whether each element of elements is among test_elements (either may be a
--- number, not both), a bool tensor of elements' shape; dtypes promoted, -0.0 equal to 0.0, a
--- NaN among nothing. {invert = true} negates it; assume_unique is accepted and changes
--- nothing. Complex is refused. Large test sets are sorted once and searched.
---@param elements ltensor.Operand
---@param test_elements ltensor.Operand
---@param opts? {assume_unique:boolean,invert:boolean}
---@return ltensor.Tensor
function ltensor.isin(elements, test_elements, opts) end

--- torch.bucketize: for each value of input (a tensor or a number), the 1-based bucket among
--- the sorted 1-d boundaries, as lt.searchsorted(boundaries, input) gives it (torch's 0-based
--- index + 1): boundaries[i - 1] < v <= boundaries[i], or boundaries[i - 1] <= v <
--- boundaries[i] with {right = true}. int64 in input's shape, int32 with {out_int32 = true}.
---@param input ltensor.Operand
---@param boundaries ltensor.Tensor
---@param opts? {right:boolean,out_int32:boolean}
---@return ltensor.Tensor
function ltensor.bucketize(input, boundaries, opts) end

--- The first element of every run of equal consecutive elements (read in row-major order, a
--- 1-d result; a NaN equals nothing), or with {dim = d} of every run of equal consecutive
--- slices along d. return_inverse adds each element's 1-based run (t's shape; with dim, one
--- per slice), return_counts each run's length, in that order, as torch.unique_consecutive.
---@param opts? {return_inverse:boolean,return_counts:boolean,dim:integer}
---@return ltensor.Tensor values
---@return ltensor.Tensor? inverse # int64, 1-based, with return_inverse
---@return ltensor.Tensor? counts # int64, with return_counts
function Tensor:unique_consecutive(opts) end; ltensor.unique_consecutive = Tensor.unique_consecutive

--- torch.cdist: the p-norm distance of every row of x1 (..., P, M) to every row of x2 (..., R,
--- M), (..., P, R) with the batch dims broadcast; float32 or float64, both the same. p = 0
--- counts differing coordinates, p = math.huge takes the largest difference. For p = 2,
--- compute_mode "use_mm_for_euclid_dist_if_necessary" (the default: when P or R is over 25),
--- "use_mm_for_euclid_dist" or "donot_use_mm_for_euclid_dist" chooses the matrix-product form
--- sqrt(max(|a|^2 + |b|^2 - 2 a.b, 0)) through the BLAS (faster, less exact for close points),
--- positionally or as {compute_mode = }.
---@param x1 ltensor.Tensor
---@param x2 ltensor.Tensor
---@param p? number default 2
---@param compute_mode? "use_mm_for_euclid_dist_if_necessary"|"use_mm_for_euclid_dist"|"donot_use_mm_for_euclid_dist"
---@param opts? {compute_mode:string}
---@return ltensor.Tensor
function ltensor.cdist(x1, x2, p, compute_mode, opts) end

--- torch.pdist: the p-norm distance of rows i < j of the N x M input (float32 or float64), a
--- 1-d tensor of N (N - 1) / 2 in row-major order of (i, j).
---@param input ltensor.Tensor
---@param p? number default 2
---@return ltensor.Tensor
function ltensor.pdist(input, p) end

-- }======
