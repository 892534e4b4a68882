rockspec_format = "3.0"
package = "ltensor"
version = "0.1.0-1"
source = {
  url = "git+https://github.com/ltensor/ltensor.git",
  tag = "v0.1.0",
}
description = {
  summary = "Tensors for Lua 5.4, shared with any DLPack library without copying",
  detailed = [[
ltensor gives Lua 5.4 a real tensor type (15 dtypes, strided views, torch-style indexing and
printing) over a small C core, and shares tensors with DLPack libraries (PyTorch, NumPy, JAX,
a host program's own buffers) without copying.]],
  homepage = "https://github.com/ltensor/ltensor",
  license = "MIT",
  labels = { "tensor", "array", "dlpack", "numeric" },
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
test = {
  type = "busted",
  flags = { "--run=rock" },
}
build = {
  type = "cmake",
  variables = {
    CMAKE_BUILD_TYPE = "Release",
    CMAKE_INSTALL_PREFIX = "$(PREFIX)",
    LUA_INCLUDE_DIR = "$(LUA_INCDIR)",
    LTENSOR_LUADIR = "$(LUADIR)",
    LTENSOR_LIBDIR = "$(LIBDIR)",
    LTENSOR_BUILD_TESTS = "OFF",
    LTENSOR_INSTALL_HOST = "OFF",
    LTENSOR_BUILD_BENCH = "OFF",
    LTENSOR_WERROR = "OFF",
  },
}
