"""main.py -- the Python half of examples/python_host: NumPy arrays to Lua and back.

`lua` is a module built into the host program (python_host.c). lua.call(name, *args) calls the
global function `name` of process.lua: NumPy arrays (anything with __dlpack__) arrive as
tensors sharing the array's memory, other arguments as plain Lua values; a tensor the function
returns comes back through np.from_dlpack, without a copy, other results as Python values.
lua.collect() runs Lua's garbage collector. A failed assert makes the host exit nonzero.
"""
import gc
import weakref

import numpy as np

import lua

# Python makes an array; Lua sees the very same memory.
img = np.arange(12, dtype=np.float32).reshape(3, 4)
assert lua.call("data_ptr", img) == img.ctypes.data

# Lua writes into it in place, and returns a new tensor: img transposed and doubled.
out = lua.call("process", img)
assert img[:, 0].tolist() == [-1.0, -1.0, -1.0], img
assert isinstance(out, np.ndarray), type(out)
assert out.dtype == np.float64 and out.shape == (4, 3), (out.dtype, out.shape)
assert np.array_equal(out, 2.0 * img.T.astype(np.float64)), out
assert out[0].tolist() == [-2.0, -2.0, -2.0] and out[3].tolist() == [6.0, 14.0, 22.0], out

# A strided view travels as it is: Lua fills every other column of grid, nothing else.
grid = np.zeros((4, 6), dtype=np.int16)
row = lua.call("stamp", grid[:, ::2], 7)
assert grid[:, ::2].tolist() == [[7, 7, 7]] * 4 and not grid[:, 1::2].any(), grid
# what came back is a view of grid's memory (Lua's first row of the strided view)
assert row.tolist() == [7, 7, 7] and row.ctypes.data == grid.ctypes.data, row
assert row.strides == (4,), row.strides

# Lua holds an array as long as its tensor lives; collected, it lets go (NumPy's deleter ran).
tmp = np.arange(5, dtype=np.int64)
gone = weakref.ref(tmp)
lua.call("keep", tmp)
del tmp
gc.collect()
assert gone() is not None, "Lua's tensor does not hold the array"
lua.call("keep", None)
lua.collect()
assert gone() is None, "Lua still holds the array after collecting"

# What Lua returned outlives Lua's tensor: NumPy's array owns the export now.
lua.collect()
assert out[3].tolist() == [6.0, 14.0, 22.0], out

print("python_host: NumPy -> Lua (in place) -> NumPy (np.from_dlpack): ok")
