-- ltensor.fft: torch.fft's functions (transforms, frequencies, shifts), the same table as
-- `require "ltensor".fft`; the functions are ltensor.core's (src/binding/lua_fft.c).
-- Loaded by ltensor itself (a host without the package library, lua_init.c's ltl_require), the
-- chunk gets that require as its third argument.
local require = select(3, ...) or require
return require("ltensor.core").fft
