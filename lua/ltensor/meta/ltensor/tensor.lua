---@meta _
-- LuaLS definitions of ltensor.Tensor, part 1: the class (properties, operators, metamethods)
-- and the methods that describe, convert, copy, view and index (src/binding/lua_tensor.c,
-- lua_index.c, lua_dlpack.c). The math and reductions are in ltensor/math.lua, the shape copies
-- in ltensor/shape.lua. `; ltensor.f = Tensor.f` after a method's `end` declares its module
-- form lt.f(t, ...), which its block documents (torch.f). Conventions: see ../ltensor.lua.
-- Nothing requires this file.

--- A tensor: a typed, strided view of a block of memory it may share with other tensors and
--- with DLPack peers. Indexing is 1-based and inclusive, negative from the end: `t[i]` is an
--- element of a 1-d tensor or a row view, `t[{2, {1, 3}}]` a view by a table key; `#t` is the
--- size of dim 1; Lua's `==` is identity; `<close>` releases the reference at once.
--- Tensor keys copy, as torch's advanced indexing: `t[mask]` (a bool tensor of t's leading
--- shape) gives the selected elements or slices, `t[idx]` (int64/int32, 1-based, negative from
--- the end) the rows at idx in idx's shape, and index tensors inside a table key
--- (`t[{{}, idx}]`) broadcast together, their dims placed as torch places them;
--- `t[mask] = v` fills, and a tensor value broadcasts and scatters (duplicates: the last wins).
--- metamethod __index: integer keys read elements or rows, table keys select views, tensor keys (masks, index tensors) copy, other keys find methods and properties
--- metamethod __newindex: `t[i] = v` and `t[key] = v` write an element, fill, or copy with broadcasting; tensor keys fill or scatter
--- metamethod __pairs: iterates `(i, t[i])` for i = 1, #t, as ipairs does
--- metamethod __tostring: prints as torch prints, e.g. `tensor([1, 2, 3])`
--- metamethod __close: releases the reference at the end of a `<close>` scope; later use raises "tensor has been released"
--- metamethod __gc: releases the reference when collected
--- metamethod __lt: refused, pointing to `t:lt(x)` (Lua makes the result of `<` a boolean)
--- metamethod __le: refused, pointing to `t:le(x)`
--- metafield __name: "ltensor.Tensor"
--- metafield __metatable: "ltensor.Tensor", what getmetatable(t) gives
--- metafield __dlpack_c_exchange_api: light userdata, the DLPack C exchange table (docs/DLPACK.md)
---@class ltensor.Tensor
---@field shape integer[] the sizes, a new table on each read
---@field dtype ltensor.dtype the canonical dtype name
---@field ndim integer the number of dims
---@field device string "cpu", or the device of an imported tensor ("cuda:0", ...)
---@field T ltensor.Tensor a view with the dims reversed
---@field mT ltensor.Tensor a view with the last two dims swapped
---@field __dlpack_c_exchange_api lightuserdata the DLPack C exchange table
---@field [integer] ltensor.Tensor|number|boolean|number[] t[i]: an element of a 1-d tensor, else a row view
---@field [ltensor.Tensor] ltensor.Tensor t[mask], t[idx]: a copy of the elements or slices a bool mask or an index tensor selects
---@operator len: integer
---@operator unm: ltensor.Tensor
---@operator bnot: ltensor.Tensor
---@operator add(ltensor.Operand): ltensor.Tensor
---@operator sub(ltensor.Operand): ltensor.Tensor
---@operator mul(ltensor.Operand): ltensor.Tensor
---@operator div(ltensor.Operand): ltensor.Tensor
---@operator idiv(ltensor.Operand): ltensor.Tensor
---@operator mod(ltensor.Operand): ltensor.Tensor
---@operator pow(ltensor.Operand): ltensor.Tensor
---@operator band(ltensor.Operand): ltensor.Tensor
---@operator bor(ltensor.Operand): ltensor.Tensor
---@operator bxor(ltensor.Operand): ltensor.Tensor
---@operator shl(ltensor.Operand): ltensor.Tensor
---@operator shr(ltensor.Operand): ltensor.Tensor
local Tensor = {}

---@class ltensor
local ltensor = {}

-- {====== describing ======

--- The size of dim d, or every size as a table without d.
---@param d? integer
---@return integer|integer[]
function Tensor:size(d) end

--- The stride (in elements) of dim d, or every stride as a table without d.
---@param d? integer
---@return integer|integer[]
function Tensor:stride(d) end

--- The number of elements.
---@return integer
function Tensor:numel() end; ltensor.numel = Tensor.numel

--- The number of dims, as t.ndim.
---@return integer
function Tensor:dim() end

--- Whether the elements lie in row-major order without gaps.
---@return boolean
function Tensor:is_contiguous() end

--- The size of one element in bytes.
---@return integer
function Tensor:element_size() end

--- The size of the elements in bytes (numel times element_size; packed sub-byte elements, such
--- as fp4 imported through DLPack, count ceil(numel x bits / 8)).
---@return integer
function Tensor:nbytes() end

--- The offset, in elements, of the first element from the start of the storage (0-based, as
--- torch's).
---@return integer
function Tensor:storage_offset() end

--- The address of the first element, as an integer (a shared copy-on-write block is copied
--- first).
---@return integer
function Tensor:data_ptr() end

--- The address of the first element, for reading: never copies a shared block.
---@return integer
function Tensor:const_data_ptr() end

--- Whether writes raise (a read-only import, a mapped file, a host's read-only buffer).
---@return boolean
function Tensor:is_read_only() end

-- }======

-- {====== reading and converting ======

--- The elements as nested Lua tables (a Lua value for a 0-d tensor).
---@return ltensor.NestedTable|ltensor.Scalar
function Tensor:tolist() end

--- The one element of a tensor with one element, as a Lua value.
---@return ltensor.Scalar
function Tensor:item() end

--- The raw bytes of the elements (row-major, native byte order) as a Lua string.
---@return string
function Tensor:bytes() end

--- A copy (copy-on-write: the data is shared until either side is written).
---@return ltensor.Tensor
function Tensor:clone() end; ltensor.clone = Tensor.clone

--- t itself when contiguous, else a contiguous copy.
---@return ltensor.Tensor
function Tensor:contiguous() end

--- t in another dtype: t itself when it has it (unless copy), else a copy; integers wrap as
--- torch's casts do. The dtype may be a tensor's (`t:to(other)`), and the arguments may come as
--- options instead (`t:to({dtype = "float64", copy = true})`).
---@param dtype ltensor.dtype|ltensor.Tensor|ltensor.ToOptions
---@param non_blocking? boolean accepted for torch's order, ignored
---@param copy? boolean a copy even when the dtype is t's
---@return ltensor.Tensor
function Tensor:to(dtype, non_blocking, copy) end

--- t as float32, as t:to("float32"): t itself when it has that dtype (torch's shorthand).
---@return ltensor.Tensor
function Tensor:float() end

--- t as float64, as t:to("float64"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:double() end

--- t as float16, as t:to("float16"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:half() end

--- t as bfloat16, as t:to("bfloat16"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:bfloat16() end

--- t as int64, as t:to("int64"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:long() end

--- t as int32, as t:to("int32"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:int() end

--- t as int16, as t:to("int16"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:short() end

--- t as int8, as t:to("int8") (torch's char): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:char() end

--- t as uint8, as t:to("uint8") (torch's byte): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:byte() end

--- t as bool, as t:to("bool"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:bool() end

--- t as complex64, as t:to("complex64"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:cfloat() end

--- t as complex128, as t:to("complex128"): t itself when it has that dtype.
---@return ltensor.Tensor
function Tensor:cdouble() end

-- }======

-- {====== writing ======

--- Writes src (a tensor, broadcast and cast; a scalar; nested tables) into all of t.
---@param src ltensor.Operand|ltensor.NestedTable
---@return ltensor.Tensor self
function Tensor:copy_(src) end

--- Writes value into every element.
---@param value ltensor.Scalar
---@return ltensor.Tensor self
function Tensor:fill_(value) end; ltensor.fill_ = Tensor.fill_

--- Writes zero into every element.
---@return ltensor.Tensor self
function Tensor:zero_() end; ltensor.zero_ = Tensor.zero_

--- The element at the 1-based indices (one per dim), allocating nothing.
---@param ... integer
---@return ltensor.Scalar
function Tensor:get(...) end

--- Writes the element at the 1-based indices (one per dim), then the value.
---@param ... integer|ltensor.Scalar the indices, then the value
function Tensor:set(...) end

-- }======

-- {====== views ======

--- A view with another shape (one size may be -1), or of the same bytes as another dtype;
--- raises when the strides allow no view (use reshape instead).
---@param ... integer|ltensor.Shape|ltensor.dtype|ltensor.DtypeOptions the sizes, a shape table, or a dtype (or {dtype = ...})
---@return ltensor.Tensor
function Tensor:view(...) end

--- A view with another shape when one fits, else a copy (one size may be -1).
---@param ... integer|ltensor.Shape the sizes or a shape table
---@return ltensor.Tensor
function Tensor:reshape(...) end; ltensor.reshape = Tensor.reshape

--- A view with dims dim0 and dim1 swapped.
---@param dim0 integer
---@param dim1 integer
---@return ltensor.Tensor
function Tensor:transpose(dim0, dim1) end; ltensor.transpose = Tensor.transpose

--- A view with the dims in the given order.
---@param ... integer|ltensor.Shape the dims, or one table of them
---@return ltensor.Tensor
function Tensor:permute(...) end; ltensor.permute = Tensor.permute

--- A view of length elements of dim from position start.
---@param dim integer
---@param start integer
---@param length integer
---@return ltensor.Tensor
function Tensor:narrow(dim, start, length) end; ltensor.narrow = Tensor.narrow

--- A view of position index along dim, that dim removed.
---@param dim integer
---@param index integer
---@return ltensor.Tensor
function Tensor:select(dim, index) end; ltensor.select = Tensor.select

--- A view with a dim of size 1 inserted at dim.
---@param dim integer
---@return ltensor.Tensor
function Tensor:unsqueeze(dim) end; ltensor.unsqueeze = Tensor.unsqueeze

--- A view without the dims of size 1 (only dim when given).
---@param dim? integer
---@return ltensor.Tensor
function Tensor:squeeze(dim) end; ltensor.squeeze = Tensor.squeeze

--- The dims from start_dim to end_dim (default all) merged into one: a view when possible.
---@param start_dim? integer
---@param end_dim? integer
---@return ltensor.Tensor
function Tensor:flatten(start_dim, end_dim) end; ltensor.flatten = Tensor.flatten

--- A view with dims of size 1 expanded to the sizes (stride 0; -1 keeps a size).
---@param ... integer|ltensor.Shape the sizes or a shape table
---@return ltensor.Tensor
function Tensor:expand(...) end

--- The transpose of a 2-d tensor (0-d and 1-d unchanged), as torch's t().
---@return ltensor.Tensor
function Tensor:t() end

-- }======

-- {====== DLPack ======

--- Exports t as a DLPack capsule, as the array API's `__dlpack__` (versioned when
--- max_version's major is 1 or more).
---@param opts? ltensor.DlpackOptions
---@return ltensor.Capsule
function Tensor:__dlpack(opts) end

--- The DLPack device: two integers, DLDeviceType and device id.
---@return integer device_type
---@return integer device_id
function Tensor:__dlpack_device() end

-- }======
