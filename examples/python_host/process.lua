-- process.lua -- the Lua half of examples/python_host: functions that main.py calls through
-- the host's `lua` module. Their tensor arguments are NumPy's arrays, shared through DLPack: a
-- write here is a write into NumPy's memory. A tensor they return goes back to NumPy the same
-- way, without a copy.
local lt = require "ltensor"

-- Where the tensor's first element is: NumPy compares it with arr.ctypes.data.
function data_ptr(t)
  return t:data_ptr()
end

-- Marks the first column of img with -1, in place, and returns a new float64 tensor: img
-- transposed and doubled (no tensor arithmetic yet: a Lua loop over the elements).
function process(img)
  img[{ {}, 1 }] = -1
  local h, w = img:size(1), img:size(2)
  local out = lt.empty({ w, h }, "float64")
  for i = 1, h do
    for j = 1, w do out:set(j, i, 2 * img:get(i, j)) end
  end
  return out
end

-- Fills t (any shape, any strides) with v, in place; returns a view of its first row.
function stamp(t, v)
  t:fill_(v)
  return t[1]
end

-- Keeps t (or nil) in a global, until the next call.
function keep(t)
  kept = t
end
