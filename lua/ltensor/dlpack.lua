-- ltensor.dlpack: sharing tensors with DLPack libraries, as torch.utils.dlpack.
--
--   from_dlpack(x [, {device = "cpu", copy = bool}])  a tensor from a capsule, an ltensor
--                                                      tensor, or any object with __dlpack
--   to_dlpack(t)                                       a legacy "dltensor" capsule
--   ReadOnlyTensorWrapper(t)                           a zero-copy view that only exports,
--                                                      always READ_ONLY
--   DLDeviceType                                       the DLPack device type codes
-- Loaded by ltensor itself (a host without the package library, lua_init.c's ltl_require), the
-- chunk gets that require as its third argument.
local require = select(3, ...) or require
local core = require "ltensor.core"

local dlpack = {
  from_dlpack = core.from_dlpack,
  to_dlpack = core.to_dlpack,
  ReadOnlyTensorWrapper = core.ReadOnlyTensorWrapper,
  DLDeviceType = {
    kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4, kDLVulkan = 7, kDLMetal = 8,
    kDLVPI = 9, kDLROCM = 10, kDLROCMHost = 11, kDLExtDev = 12, kDLCUDAManaged = 13,
    kDLOneAPI = 14, kDLWebGPU = 15, kDLHexagon = 16, kDLMAIA = 17, kDLTrn = 18,
  },
}

return dlpack
