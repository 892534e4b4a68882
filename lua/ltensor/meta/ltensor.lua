---@meta ltensor
-- LuaLS (lua-language-server) definitions of the module `ltensor`: its functions, dtype
-- constants and the types the other definition files share. Editors read this folder through
-- `.luarc.json`'s `workspace.library` (docs/GUIDE.md, "Editor support"); nothing
-- requires it. docs/API.md is generated from these files (tools/gen_api.lua) and
-- spec/definitions_spec.lua checks them against the live module.
--
-- Conventions, kept so that tools/apidefs.lua can read the files line by line:
-- one `---` block per entry, its first plain line the one-line description; `---@param name
-- type description` and `---@return type [name] [# description]`, with no spaces inside a type;
-- a function block ends in `function ltensor.name(args) end` (methods: `function
-- Tensor:name(args) end`, in ltensor/tensor.lua, ltensor/math.lua, ltensor/shape.lua,
-- ltensor/index.lua, ltensor/sort.lua and ltensor/random.lua; the last three keep their group's
-- module functions too, and ltensor/file.lua holds lt.save and lt.load); properties and
-- constants are `---@field` lines of their class. A method that is also a module function (lt.f
-- as torch.f) says so on its line, `function Tensor:f(args) end; ltensor.f = Tensor.f`, and its
-- block documents both. Every function follows Lua's rule for arguments: trailing nils are
-- absent, and one more than the block lists raises "f: too many arguments (at most N ...)".
-- Dims and positions are 1-based, negative counting from the end.

---@alias ltensor.dtype
---| "bool"
---| "uint8"
---| "int8"
---| "int16"
---| "int32"
---| "int64"
---| "uint16"
---| "uint32"
---| "uint64"
---| "float16"
---| "bfloat16"
---| "float32"
---| "float64"
---| "complex64"
---| "complex128"
---| "float" # alias of float32
---| "double" # alias of float64
---| "half" # alias of float16
---| "long" # alias of int64
---| "int" # alias of int32
---| "short" # alias of int16
---| "cfloat" # alias of complex64
---| "cdouble" # alias of complex128

--- A shape or a list of dims: a sequence of integers, e.g. `{2, 3}`.
---@alias ltensor.Shape integer[]

--- A Lua value written into or read from an element: a number, a boolean, or `{re, im}` for
--- complex dtypes.
---@alias ltensor.Scalar number|boolean|number[]

--- An operand of an elementwise operation: a tensor or a scalar (broadcast as NumPy does).
---@alias ltensor.Operand ltensor.Tensor|ltensor.Scalar

--- Nested sequences of scalars, as `lt.tensor` takes them and `t:tolist()` gives them.
---@alias ltensor.NestedTable table

--- The options table of a constructor or of a cast: `{dtype = "int32"}`. Wherever a function
--- takes a dtype it takes it positionally or so, not both ("dtype given twice").
---@class ltensor.DtypeOptions
---@field dtype? ltensor.dtype the element type of the result

--- The options of `t:to`: `{dtype = "float64", copy = true}`.
---@class ltensor.ToOptions: ltensor.DtypeOptions
---@field non_blocking? boolean accepted for torch's order, ignored
---@field copy? boolean a copy even when the dtype is t's

--- What `lt.config` reports and sets.
---@class ltensor.Config
---@field blas? string|boolean the BLAS matrix products use ("openblas", "cblas" or nil); set false to use ltensor's own kernel, true to go back
---@field lapack? string the LAPACK lt.linalg uses ("openblas": the BLAS library's, "lapack": another; nil: none, and lt.linalg's functions raise "needs LAPACK" except on small matrices); read only
---@field blas_core? string OpenBLAS's kernel set for this processor ("SkylakeX", "Haswell", "Prescott", ...; nil for another BLAS); where it is older than the processor's vector unit (a "Prescott" on an AVX2 or AVX-512 CPU), float32 matrix products and convolutions use ltensor's own product instead; read only
---@field memory_limit? integer|number|false this state's budget for tensor memory in bytes (nil: none); set a byte count, or false / math.huge for none; never above the budget the host set
---@field memory_used? integer bytes of tensor data charged to this state now (live tensors, and dead ones not yet collected); read only
---@field memory_peak? integer the most bytes of tensor data this state had at once; read only
---@field png? string the libpng version lt.image reads and writes PNG with (nil: built without PNG support); read only
---@field jpeg? string the libjpeg lt.image reads and writes JPEG with ("libjpeg-turbo 2.1.5"; nil: built without JPEG support); read only
---@field guard_mappings? boolean the mapping guard (off by default; process-wide): true installs a SIGBUS handler so that reading a file truncated under its mapping raises "FILE: file was truncated while mapped" instead of killing the process (docs/FILES.md)
---@field simd? string the vector path the kernels take: "avx512", "avx2" or "scalar" (the processor's widest, capped by the environment variable LTENSOR_SIMD=avx512|avx2|scalar, read once); read only
---@field simd_max? string the processor's widest vector path, whatever LTENSOR_SIMD says; read only

--- The module table, `local lt = require "ltensor"`: constructors, functions taking tensors
--- first, and every dtype name as a constant (`lt.float32 == "float32"`).
---@class ltensor
---@field _VERSION string the version, "ltensor X.Y.Z"
---@field linalg ltensor.linalg linear algebra, as torch.linalg (ltensor/linalg.lua)
---@field fft ltensor.fft discrete Fourier transforms, as torch.fft (ltensor/fft.lua)
---@field nn ltensor.nn the neural-network functions, lt.nn.functional as torch.nn.functional (ltensor/nn.lua)
---@field image ltensor.image PNG and JPEG images read and written as H x W x C tensors (ltensor/image.lua)
---@field bool "bool" dtype constant
---@field uint8 "uint8" dtype constant
---@field int8 "int8" dtype constant
---@field int16 "int16" dtype constant
---@field int32 "int32" dtype constant
---@field int64 "int64" dtype constant
---@field uint16 "uint16" dtype constant
---@field uint32 "uint32" dtype constant
---@field uint64 "uint64" dtype constant
---@field float16 "float16" dtype constant
---@field bfloat16 "bfloat16" dtype constant
---@field float32 "float32" dtype constant
---@field float64 "float64" dtype constant
---@field complex64 "complex64" dtype constant
---@field complex128 "complex128" dtype constant
---@field float "float32" alias: the name it stands for
---@field double "float64" alias: the name it stands for
---@field half "float16" alias: the name it stands for
---@field long "int64" alias: the name it stands for
---@field int "int32" alias: the name it stands for (as in torch)
---@field short "int16" alias: the name it stands for
---@field cfloat "complex64" alias: the name it stands for
---@field cdouble "complex128" alias: the name it stands for
local ltensor = {}

-- {====== constructors ======

--- A new tensor copied from a number, a boolean, nested tables, a tensor or a DLPack object.
--- Integers give int64, floats float32, booleans bool, unless dtype is given.
---@param data ltensor.Scalar|ltensor.NestedTable|ltensor.Tensor|table
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.tensor(data, dtype) end

--- An uninitialized float32 tensor (or of dtype) of the given shape.
---@param ... integer|ltensor.dtype|ltensor.DtypeOptions the sizes, then the dtype (or {dtype = ...})
---@return ltensor.Tensor
---@overload fun(shape:ltensor.Shape,dtype?:ltensor.dtype|ltensor.DtypeOptions):ltensor.Tensor
function ltensor.empty(...) end

--- A tensor of zeros (float32 unless dtype is given).
---@param ... integer|ltensor.dtype|ltensor.DtypeOptions the sizes, then the dtype (or {dtype = ...})
---@return ltensor.Tensor
---@overload fun(shape:ltensor.Shape,dtype?:ltensor.dtype|ltensor.DtypeOptions):ltensor.Tensor
function ltensor.zeros(...) end

--- A tensor of ones (float32 unless dtype is given).
---@param ... integer|ltensor.dtype|ltensor.DtypeOptions the sizes, then the dtype (or {dtype = ...})
---@return ltensor.Tensor
---@overload fun(shape:ltensor.Shape,dtype?:ltensor.dtype|ltensor.DtypeOptions):ltensor.Tensor
function ltensor.ones(...) end

--- A tensor filled with value; the dtype follows the value (int64, float32, bool, complex64).
---@param shape ltensor.Shape|integer a shape table, or the size of a 1-d tensor
---@param value ltensor.Scalar
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.full(shape, value, dtype) end

--- Values from start (default 0) up to stop, excluded, by step (default 1), as torch.arange:
--- int64 when every number is an integer, else float32.
---@param start number
---@param stop? number
---@param step? number
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
---@overload fun(stop:number,dtype?:ltensor.dtype|ltensor.DtypeOptions):ltensor.Tensor
function ltensor.arange(start, stop, step, dtype) end

--- A tensor holding a copy of the string's raw bytes (native byte order): 1-d, or of the shape
--- given (one size may be -1). The dtype may come last as {dtype = ...}, the shape then second.
---@param bytes string
---@param dtype ltensor.dtype
---@param ... integer|ltensor.DtypeOptions the sizes (or one shape table)
---@return ltensor.Tensor
---@overload fun(bytes:string,dtype:ltensor.dtype,shape:ltensor.Shape):ltensor.Tensor
---@overload fun(bytes:string,shape:ltensor.Shape,opts:ltensor.DtypeOptions):ltensor.Tensor
function ltensor.from_bytes(bytes, dtype, ...) end

--- An n x m matrix (n x n without m) with ones on the diagonal, float32 unless dtype is given.
---@param n integer
---@param m? integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.eye(n, m, dtype) end

--- steps values from start to stop, both included (the ends exact), float32 unless dtype is
--- given (complex64 when an end is `{re, im}`).
---@param start number|number[]
---@param stop number|number[]
---@param steps integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.linspace(start, stop, steps, dtype) end

--- base (default 10) to the powers linspace(start, stop, steps) gives.
---@param start number|number[]
---@param stop number|number[]
---@param steps integer
---@param base? number
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.logspace(start, stop, steps, base, dtype) end

--- A tensor of zeros of t's shape, in t's dtype unless dtype says otherwise.
---@param t ltensor.Tensor
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.zeros_like(t, dtype) end

--- A tensor of ones of t's shape, in t's dtype unless dtype says otherwise.
---@param t ltensor.Tensor
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.ones_like(t, dtype) end

--- An uninitialized tensor of t's shape, in t's dtype unless dtype says otherwise.
---@param t ltensor.Tensor
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.empty_like(t, dtype) end

--- A tensor of t's shape filled with value, in t's dtype unless dtype says otherwise.
---@param t ltensor.Tensor
---@param value ltensor.Scalar
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function ltensor.full_like(t, value, dtype) end

-- }======

-- {====== functions on tensors ======

--- Whether x is an ltensor tensor.
---@param x any
---@return boolean
function ltensor.is_tensor(x) end

--- Elementwise choice: a where cond is true, else b (tensors or scalars, broadcast). With cond
--- alone, cond's 1-based positions where it is true: a table of 1-d int64 tensors, one per dim,
--- as `cond:nonzero({as_tuple = true})`.
---@param cond ltensor.Tensor a bool tensor
---@param a ltensor.Operand
---@param b ltensor.Operand
---@return ltensor.Tensor
---@overload fun(cond:ltensor.Tensor):ltensor.Tensor[]
function ltensor.where(cond, a, b) end

--- The tensors joined along an existing dim (default 1), as torch.cat.
---@param tensors ltensor.Tensor[]
---@param dim? integer
---@return ltensor.Tensor
function ltensor.cat(tensors, dim) end

--- The tensors (of one shape) stacked along a new dim (default 1), as torch.stack.
---@param tensors ltensor.Tensor[]
---@param dim? integer
---@return ltensor.Tensor
function ltensor.stack(tensors, dim) end

--- torch.einsum: the operands contracted as the equation says ("ij,jk->ik"); the operands as
--- arguments or one table. Always a new tensor.
---@param equation string
---@param ... ltensor.Tensor|ltensor.Tensor[] the operands
---@return ltensor.Tensor
function ltensor.einsum(equation, ...) end

--- A table of expanded views, one dim per 0-d or 1-d tensor, as torch.meshgrid; the tensors as
--- arguments or one table, then `{indexing = "ij"|"xy"}`.
---@param ... ltensor.Tensor|ltensor.Tensor[]|{indexing:string}
---@return ltensor.Tensor[]
function ltensor.meshgrid(...) end

-- }======

-- {====== DLPack and configuration ======

--- The same as `require "ltensor.dlpack".from_dlpack`: a tensor sharing x's memory.
---@param x ltensor.Capsule|ltensor.Tensor|table any DLPack-exportable object, or a capsule
---@param opts? ltensor.FromDlpackOptions
---@return ltensor.Tensor
function ltensor.from_dlpack(x, opts) end

--- The same as `require "ltensor.dlpack".to_dlpack`: a legacy "dltensor" capsule of t.
---@param t ltensor.Tensor
---@return ltensor.Capsule
function ltensor.to_dlpack(t) end

--- The same as `require "ltensor.dlpack".ReadOnlyTensorWrapper`: an export-only view of t.
---@param t ltensor.Tensor|ltensor.ReadOnlyTensorWrapper
---@return ltensor.ReadOnlyTensorWrapper
function ltensor.ReadOnlyTensorWrapper(t) end

--- The settings: the BLAS ({blas = "openblas"|"cblas"|nil}; `{blas = false}` switches it off for
--- the whole process, `{blas = true}` back on), the mapping guard (`{guard_mappings = true}` turns
--- it on for the process, `false` off), this state's tensor memory (memory_limit,
--- memory_used, memory_peak) and the vector path in use (simd, simd_max: read only). A tensor that would pass memory_limit raises "not enough memory
--- (budget N bytes, ...)" before its memory is taken, after one full collection was tried.
---@param opts? ltensor.Config
---@return ltensor.Config
function ltensor.config(opts) end

--- Sets the process-wide number of threads bulk operations use (1: the caller's thread only).
---@param n integer
function ltensor.set_num_threads(n) end

--- The process-wide number of threads bulk operations use.
---@return integer
function ltensor.get_num_threads() end

-- }======

return ltensor
