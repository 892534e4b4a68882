---@meta ltensor.nn.functional
-- LuaLS definitions of `lt.nn.functional` (also `require "ltensor.nn.functional"`): the
-- neural-network functions with torch.nn.functional's names, positional order, defaults and
-- shapes (batch first: N x C x ...); keyword arguments go in a trailing options table
-- (`F.conv2d(x, w, b, {stride = 2, padding = "same"})`). float32 and float64 (float16 and
-- bfloat16 compute in float32). Class indices (cross_entropy, nll_loss, embedding, one_hot) are
-- 1-based, as every position in ltensor.

--- The namespace `lt.nn`: `functional` only, as the part of torch.nn without modules.
---@class ltensor.nn
---@field functional ltensor.nn.functional torch.nn.functional's functions

---@class ltensor.nn.functional
local F = {}
