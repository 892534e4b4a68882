-- ring.lua -- the script each worker thread of examples/threads/threads.c runs in its own
-- lua_State. Tensors reach it from other threads through DLPack (the host pushes an owning
-- DLManagedTensorVersioned with ltensor_push_managed) and leave the same way (ltensor_export):
-- the memory is never copied, only its ownership travels.
local lt = require "ltensor"

-- The producer's tensor: 0, 1, ..., n - 1 as float64, in memory ltensor allocates here.
function produce(n)
  return lt.arange(n, "float64")
end

-- One hop: adds `add` to every element in place (no tensor arithmetic yet: a Lua loop over the
-- elements), and checks that the memory is the one the first producer exported.
function step(t, add, data_ptr)
  assert(t:data_ptr() == data_ptr, "the tensor was copied on its way here")
  assert(not t:is_read_only())
  for i = 1, #t do t[i] = t[i] + add end
end

-- The last consumer: every element is its first value plus `added`, the sum of every hop's
-- `add`. first(i) is i - 1 for produced tensors and 10 (i - 1) for the host's.
function check(t, added, scale, data_ptr)
  assert(t:data_ptr() == data_ptr, "the tensor was copied on its way here")
  for i = 1, #t do
    local want = scale * (i - 1) + added
    if t[i] ~= want then error(("element %d is %s, want %s"):format(i, t[i], want), 0) end
  end
  return true
end
