-- Quick start: tensors in Lua with ltensor (run with `make run`).
local lt = require "ltensor"

-- Make tensors from ranges, tables and shapes.
local t = lt.arange(4)                  -- int64, like torch.arange
print(t)                                --> tensor([0, 1, 2, 3])
t[{ { 1, 2 } }] = -1                    -- 1-based, inclusive ranges: elements 1..2
print(t)                                --> tensor([-1, -1,  2,  3])

local m = lt.tensor({ { 1.5, 2 }, { 3, 4 } })
print(m, m.dtype, m.shape[1], m.shape[2])

-- Views share memory with their base.
local col = m[{ {}, 2 }]                -- every row, column 2
col:fill_(0)
print(m)                                --> tensor([[1.5000, 0.0000], [3.0000, 0.0000]])
print(m:transpose(1, 2):contiguous():view(-1))

-- Element access without allocation.
local img = lt.zeros(4, 6, "uint8")
for i = 1, 4 do
  for j = 1, 6 do img:set(i, j, (i * j) % 256) end
end
print(img:get(4, 6), img[4][6], #img)

-- Conversions follow torch: floats truncate into integers, NaN is refused.
local ints = lt.tensor({ 2.9, -2.9 }):to("int32")
print(ints)                             --> tensor([ 2, -2], dtype=int32)
print(pcall(function() ints[1] = 0 / 0 end))

-- Raw bytes in and out.
local raw = lt.from_bytes(string.pack("<i4i4i4", 7, 8, 9), "int32")
print(raw, #raw:bytes())
