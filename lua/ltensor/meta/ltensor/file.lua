---@meta _
-- LuaLS definitions of files (src/binding/lua_file.c; docs/FILES.md): lt.save and lt.load for
-- .npy, .npz and .safetensors. The path's extension (any case) picks the format; another
-- extension raises. A malformed, truncated or lying file raises an error naming the file.
-- Conventions: see ../ltensor.lua. Nothing requires this file.

---@class ltensor
local ltensor = {}

--- The options of lt.save: `{compress = true}` (.npz only), `{metadata = {...}}` (.safetensors
--- only).
---@class ltensor.SaveOptions
---@field compress? boolean deflate the .npz members (zlib; raises in a build without it)
---@field metadata? table<string,string> the .safetensors header's `__metadata__` (an empty table writes an empty one)

--- The options of lt.load: `{mmap = true}`, `{strict = false}` (.safetensors only).
---@class ltensor.LoadOptions
---@field mmap? boolean map the file instead of reading it (.npy and .safetensors): zero copy, read-only tensors that share the mapping; refused, saying why, where zero copy cannot be had (misaligned data, the other byte order, bool bytes other than 0 and 1)
---@field strict? boolean .safetensors: false leaves a tensor of a dtype ltensor does not know out (listed, with the reason, in a fourth result) instead of raising; default true

-- {====== files ======

--- Writes x to path, replacing the file by a rename (tensors mapped from the old one keep their
--- values): a tensor to `.npy` (a column-major one as Fortran order); a table of name -> tensor
--- to `.npz` (members NAME.npy) or `.safetensors` (tensors laid out by alignment, then name).
--- What a format's fields cannot hold raises before anything is written: an .npz member name
--- over 65535 bytes with ".npy", a .safetensors header over 100000000 bytes, complex128 in
--- .safetensors.
---@param path string ending in .npy, .npz or .safetensors
---@param x ltensor.Tensor|table<string,ltensor.Tensor> a tensor for .npy, a table of name -> tensor otherwise
---@param opts? ltensor.SaveOptions
function ltensor.save(path, x, opts) end

--- Reads path: `.npy` gives a tensor; `.npz` a table of name -> tensor; `.safetensors` that
--- table, the header's metadata (a table of strings, or nil when the file has none) and the
--- names in the file's order; with {strict = false}, also name -> why of the tensors left out
--- (an unknown dtype), which are in neither the table nor the names. Loaded tensors are fresh
--- and writable; with {mmap = true} they share the mapped file and are read-only (`clone()`
--- copies). An .npz, a non-native byte order, misaligned data or bool bytes other than 0 and 1
--- cannot be mapped. safetensors' C64 loads as complex64; its F8, F6 and F4 types as opaque
--- tensors (F4 and F6 packed, as in the file) that save back unchanged.
---@param path string ending in .npy, .npz or .safetensors
---@param opts? ltensor.LoadOptions
---@return ltensor.Tensor|table<string,ltensor.Tensor> tensors # a tensor (.npy) or a table of name -> tensor
---@return table<string,string>? metadata # .safetensors: the metadata, nil without one
---@return string[]? names # .safetensors: the tensors' names in the file's order
---@return table<string,string>? left_out # .safetensors with {strict = false}: name -> why, for each tensor left out
function ltensor.load(path, opts) end

-- }======
