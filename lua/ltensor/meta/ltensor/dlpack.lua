---@meta ltensor.dlpack
-- LuaLS definitions of the module `ltensor.dlpack` (lua/ltensor/dlpack.lua, as
-- torch.utils.dlpack), of capsules and of ReadOnlyTensorWrapper (src/binding/lua_dlpack.c,
-- lua_wrapper.c). Conventions: see ../ltensor.lua. Nothing requires this file.

--- A DLPack capsule: a userdata holding one `DLManagedTensor *` (metatable "dltensor") or
--- `DLManagedTensorVersioned *` ("dltensor_versioned"), consumed once by from_dlpack (then
--- "used_dltensor" / "used_dltensor_versioned"); an unconsumed one calls the deleter when
--- collected. It has no methods; tostring gives `<capsule object "dltensor" at 0x...>`.
---@class ltensor.Capsule: userdata

--- The request `x:__dlpack(opts)` takes, as the array API's `__dlpack__`.
---@class ltensor.DlpackOptions
---@field max_version? integer[] {major, minor}: major >= 1 gives a versioned capsule (1.3), else legacy
---@field dl_device? integer[] {device_type, device_id} the consumer wants
---@field copy? boolean true: a fresh writable copy (IS_COPIED); false: never copy
---@field stream? integer accepted, unused (no device work)
---@field read_only? boolean a versioned export with READ_ONLY set

--- The options of from_dlpack.
---@class ltensor.FromDlpackOptions
---@field device? string "cpu" or nil
---@field copy? boolean true: always a copy; false: raise when a copy would be needed

--- A zero-copy, export-only view of a tensor, as torch's: only `__dlpack` (always versioned,
--- READ_ONLY set), `__dlpack_device`, `__dlpack_c_exchange_api` and tostring; every other
--- index, write, operator, length or call raises.
---@class ltensor.ReadOnlyTensorWrapper
---@field __dlpack_c_exchange_api lightuserdata the const DLPack C exchange table (exports READ_ONLY)
local ReadOnlyTensorWrapper = {}

--- Exports the wrapped tensor as a versioned READ_ONLY capsule (version 1.x even when
--- max_version is nil).
---@param opts? ltensor.DlpackOptions
---@return ltensor.Capsule
function ReadOnlyTensorWrapper:__dlpack(opts) end

--- The DLPack device of the wrapped tensor: DLDeviceType and device id.
---@return integer device_type
---@return integer device_id
function ReadOnlyTensorWrapper:__dlpack_device() end

--- The module `require "ltensor.dlpack"`: sharing tensors with DLPack libraries, as
--- torch.utils.dlpack.
---@class ltensor.dlpack
local dlpack = {}

--- A tensor from a capsule (consumed), an ltensor tensor or any object with `__dlpack` and
--- `__dlpack_device`, sharing its memory unless a copy was needed or asked for.
---@param x ltensor.Capsule|ltensor.Tensor|table
---@param opts? ltensor.FromDlpackOptions
---@return ltensor.Tensor
function dlpack.from_dlpack(x, opts) end

--- A legacy "dltensor" capsule sharing t's memory, as torch's; raises for a read-only tensor.
---@param t ltensor.Tensor
---@return ltensor.Capsule
function dlpack.to_dlpack(t) end

--- A zero-copy view of t that only exports, always READ_ONLY (a wrapper is wrapped again).
---@param t ltensor.Tensor|ltensor.ReadOnlyTensorWrapper
---@return ltensor.ReadOnlyTensorWrapper
function dlpack.ReadOnlyTensorWrapper(t) end

--- The DLPack device type codes (DLDeviceType).
---@enum ltensor.DLDeviceType
dlpack.DLDeviceType = {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
}

return dlpack
