-- ltensor: tensors for Lua 5.4, shared without copies through DLPack.
--
-- This module gathers the public API: the constructors and helpers of the C module
-- ltensor.core, the dtype names as fields (lt.float32 == "float32"), and tostring() of a tensor,
-- which prints like torch (see ltensor.format).
local core = require "ltensor.core"
local format = require "ltensor.format"

local lt = {}
for k, v in pairs(core) do
  if type(k) == "string" and k:sub(1, 1) ~= "_" then lt[k] = v end
end

core._metatable.__tostring = format.tostring
core._metatable.__name = "ltensor.Tensor"

lt._VERSION = "ltensor 0.1.0"

return lt
