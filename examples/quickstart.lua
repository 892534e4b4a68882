-- The torch.utils.dlpack walkthrough, in Lua (run with `make run`).
local lt, dlpack = require "ltensor", require "ltensor.dlpack"

local t = lt.arange(4)
local t2 = dlpack.from_dlpack(t)
t2[{ { 1, 2 } }] = -1 -- memory is shared
print(t2)             --> tensor([-1, -1,  2,  3])
print(t)              --> tensor([-1, -1,  2,  3])

local capsule = dlpack.to_dlpack(t)
print(capsule)        --> <capsule object "dltensor" at 0x...>
local t3 = dlpack.from_dlpack(capsule)
t3[1] = -9            -- now three tensors share memory
print(t3, t2, t)      --> each tensor([-9, -1,  2,  3])

local ok, err = pcall(dlpack.from_dlpack, capsule)
print(ok, err)        --> false  ...: the capsule was already consumed ...
