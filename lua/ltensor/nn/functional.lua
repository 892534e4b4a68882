-- ltensor.nn.functional: torch.nn.functional's functions (convolutions, pooling, normalization,
-- activations, losses), the same table as `require "ltensor".nn.functional`; the functions are
-- ltensor.core's (src/binding/lua_nn_*.c).
-- Loaded by ltensor itself (a host without the package library, lua_init.c's ltl_require), the
-- chunk gets that require as its third argument.
local require = select(3, ...) or require
return require("ltensor.core").nn.functional
