-- ltensor: tensors for Lua 5.4, shared without copies through DLPack.
--
-- This module gathers the public API: the constructors and helpers of the C module
-- ltensor.core and the dtype names as fields (lt.float32 == "float32"). tostring() of a tensor
-- prints like torch through ltensor.format, with or without this module (lua_init.c).
-- Loaded by ltensor itself (a host without the package library, lua_init.c's ltl_require), the
-- chunk gets that require as its third argument.
local require = select(3, ...) or require
local core = require "ltensor.core"
-- The printer, loaded here so that the copy on package.path is the one tostring() uses.
require "ltensor.format"

local lt = {}
for k, v in pairs(core) do
  if type(k) == "string" and k:sub(1, 1) ~= "_" then lt[k] = v end
end

lt._VERSION = "ltensor 0.1.0"

return lt
