-- The argument rules (SPEC.md, "Arguments follow Lua's own libraries") over every function and
-- method in the LuaLS definitions (lua/ltensor/meta, read by tools/apidefs.lua, the module forms
-- lt.f included), so that a function added later is walked without touching this file. For
-- each one a valid call is built (from the parameters' types, or from VALID below where the
-- types are not enough) and:
--   (a) the valid call with one more argument raises "f: too many arguments" (the function
--       named), whatever that argument is;
--   (b) the valid call with trailing nils returns what the valid call returns, and so does the
--       call of the required arguments alone: a trailing nil is an absent argument;
--   (c) those errors, and the error of a call with a bad first argument (a released tensor as
--       self, a coroutine elsewhere), carry the calling script's "file:line:".
-- EXPECTED lists the functions known to break a rule, each with the reason; a listed function
-- that keeps the rules fails the spec until it is taken off the list.
local lt = require "ltensor"
local core = require "ltensor.core"
local dlpack = require "ltensor.dlpack"
local apidefs = dofile("tools/apidefs.lua")

local defs = apidefs.read(".")

-- {====== valid arguments ======

-- Fresh values for each call: a call may write its arguments (in-place methods) or consume
-- them (a capsule), and a generator's stream moves on.
local function T() return lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32") end
local function I() return lt.tensor({ { 1, 2, 3 }, { 4, 5, 6 } }) end -- int64
local function MASK() return lt.tensor({ { true, false, true }, { false, true, false } }) end
local function G() return { generator = lt.Generator(7) } end
local function IDX() return lt.tensor({ 1 }) end
local function ROW() return lt.tensor({ { 1, 1, 1 } }) end
local NPY = os.tmpname() .. ".npy"
lt.save(NPY, T())

-- The receiver of a method (default T()), by name.
local RECV = {
  item = function() return lt.tensor({ 5.0 }) end,
  bmm = function() return lt.ones(2, 2, 3) end,
  dot = function() return lt.ones(3) end,
  outer = function() return lt.ones(3) end,
  mv = T,
  addmm = function() return lt.ones(2, 2) end,
  bincount = function() return lt.tensor({ 0, 1, 1, 3 }) end,
  matrix_exp = function() return lt.ones(2, 2, "float64") end,
}
RECV.addmm_ = RECV.addmm
for _, n in ipairs({ "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
  "bitwise_right_shift", "bitwise_not" }) do
  RECV[n], RECV[n .. "_"] = I, I
end

-- The arguments (after self, for methods) of a valid call that gives every positional argument
-- the function takes, by the name shown in messages ("t:add", "lt.zeros", "g:seed", ...).
local VALID = {
  ["lt.tensor"] = function() return { { 1, 2 }, "float64" } end,
  ["lt.empty"] = function() return { 2, 3, "float64" } end,
  ["lt.zeros"] = function() return { 2, 3, "float64" } end,
  ["lt.ones"] = function() return { 2, 3, "float64" } end,
  ["lt.full"] = function() return { { 2 }, 1.5, "float64" } end,
  ["lt.arange"] = function() return { 0, 6, 2, "float64" } end,
  ["lt.from_bytes"] = function() return { string.pack("<i4i4", 1, 2), "int32", { 2, 1 } } end,
  ["lt.eye"] = function() return { 2, 3, "float64" } end,
  ["lt.linspace"] = function() return { 0, 1, 5, "float64" } end,
  ["lt.logspace"] = function() return { 0, 1, 5, 2, "float64" } end,
  ["lt.full_like"] = function() return { T(), 2, "float64" } end,
  ["lt.where"] = function() return { MASK(), 1, 0 } end,
  ["lt.cat"] = function() return { { T(), T() }, 1 } end,
  ["lt.stack"] = function() return { { T(), T() }, 1 } end,
  ["lt.einsum"] = function() return { "ij,kj->ik", { T(), T() } } end,
  ["lt.meshgrid"] = function() return { { lt.arange(2), lt.arange(3) }, { indexing = "xy" } } end,
  ["lt.from_dlpack"] = function() return { T(), { copy = true } } end,
  ["lt.set_num_threads"] = function() return { lt.get_num_threads() } end,
  ["lt.searchsorted"] = function()
    return { lt.tensor({ 1, 3, 5 }), lt.tensor({ 2, 4 }), { right = true } }
  end,
  ["lt.isin"] = function() return { T(), lt.tensor({ 2, 5 }), { invert = true } } end,
  ["lt.bucketize"] = function() return { T(), lt.tensor({ 1, 3, 5 }), { right = true } } end,
  ["lt.Generator"] = function() return { 5 } end,
  ["lt.manual_seed"] = function() return { 5 } end,
  ["g:manual_seed"] = function() return { 5 } end,
  ["g:set_state"] = function() return { lt.Generator(3):get_state() } end,
  ["lt.rand"] = function() return { { 2, 3 }, "float64", G() } end,
  ["lt.randn"] = function() return { { 2, 3 }, "float64", G() } end,
  ["lt.normal"] = function() return { 0, 1, { 3 }, "float64", G() } end,
  ["lt.randint"] = function() return { 0, 10, { 3 }, "int32", G() } end,
  ["lt.randperm"] = function() return { 5, "int32", G() } end,
  ["lt.bernoulli"] = function() return { lt.full({ 3 }, 0.5), G() } end,
  ["lt.multinomial"] = function() return { lt.tensor({ 0.2, 0.3, 0.5 }), 2, false, G() } end,
  ["lt.rand_like"] = function() return { T(), "float64", G() } end,
  ["lt.randn_like"] = function() return { T(), "float64", G() } end,
  ["lt.randint_like"] = function() return { T(), 0, 5, "float64", G() } end,
  ["lt.save"] = function() return { NPY, T(), {} } end,
  ["lt.load"] = function() return { NPY, { mmap = false } } end,
  ["w:__dlpack"] = function() return { { max_version = { 1, 3 } } } end,
  ["dlpack.from_dlpack"] = function() return { T(), { copy = true } } end,
  -- lt.linalg's decompositions and norms (lua_linalg_decomp.c)
  ["lt.linalg.qr"] = function() return { T(), "complete" } end,
  ["lt.linalg.svd"] = function() return { T(), false, {} } end,
  ["lt.linalg.eigh"] = function() return { lt.eye(3), "U" } end,
  ["lt.linalg.eigvalsh"] = function() return { lt.eye(3), "U" } end,
  ["lt.linalg.eig"] = function() return { lt.eye(3) } end,
  ["lt.linalg.eigvals"] = function() return { lt.eye(3) } end,
  ["lt.linalg.lstsq"] = function() return { T(), T(), 1e-3, { driver = "gelsd" } } end,
  ["lt.linalg.matrix_norm"] = function() return { T(), "nuc", { 1, 2 }, false, {} } end,
  ["lt.linalg.vector_norm"] = function() return { T(), 2, 1, false, {} } end,
  ["lt.linalg.norm"] = function() return { T(), 2, 1, false, {} } end,
  ["lt.linalg.cond"] = function() return { lt.eye(3), 1 } end,
  ["t:pinverse"] = function() return { 0.1 } end,
  -- lt.nn.functional: linear, normalization, resizing, attention
  ["lt.nn.functional.linear"] = function() return { T(), lt.ones(4, 3), lt.ones(4) } end,
  ["lt.nn.functional.bilinear"] = function() return { T(), T(), lt.ones(2, 3, 3), lt.ones(2) } end,
  ["lt.nn.functional.pad"] = function() return { T(), { 1, 1 }, "constant", 0.5 } end,
  ["lt.nn.functional.interpolate"] = function()
    return { lt.ones(1, 1, 2, 3), nil, 2, "bilinear", true, false, false }
  end,
  ["lt.nn.functional.batch_norm"] = function()
    return { T(), lt.zeros(3), lt.ones(3), lt.ones(3), lt.zeros(3), false, 0.1, 1e-5 }
  end,
  ["lt.nn.functional.layer_norm"] = function() return { T(), { 3 }, lt.ones(3), lt.zeros(3), 1e-5 } end,
  ["lt.nn.functional.group_norm"] = function() return { T(), 3, lt.ones(3), lt.zeros(3), 1e-5 } end,
  ["lt.nn.functional.rms_norm"] = function() return { T(), { 3 }, lt.ones(3), 1e-6 } end,
  ["lt.nn.functional.embedding"] = function() return { I(), lt.ones(6, 2), 1, 1.5, 2, false, false } end,
  ["lt.nn.functional.dropout"] = function() return { T(), 0.5, true, false, G() } end,
  ["lt.nn.functional.scaled_dot_product_attention"] = function()
    return { T(), T(), T(), lt.tensor({ { true, false }, { true, true } }), 0, false, { scale = 0.5 } }
  end,
  ["lt.nn.functional.one_hot"] = function() return { I(), 7 } end,
  ["lt.nn.functional.normalize"] = function() return { T(), 2, 2, 1e-12 } end,
  ["lt.nn.functional.cosine_similarity"] = function() return { T(), T(), 2, 1e-8 } end,
  ["lt.nn.functional.pairwise_distance"] = function() return { T(), T(), 2, 1e-6, true } end,
  -- methods
  ["t:size"] = function() return { 1 } end,
  ["t:stride"] = function() return { 1 } end,
  ["t:to"] = function() return { "float64", false, true } end,
  ["t:get"] = function() return { 1, 2 } end,
  ["t:set"] = function() return { 1, 2, 7 } end,
  ["t:view"] = function() return { { 3, 2 } } end,
  ["t:reshape"] = function() return { { 3, 2 } } end,
  ["t:transpose"] = function() return { 1, 2 } end,
  ["t:permute"] = function() return { { 2, 1 } } end,
  ["t:narrow"] = function() return { 1, 1, 1 } end,
  ["t:expand"] = function() return { { 2, 3 } } end,
  ["t:__dlpack"] = function() return { { max_version = { 1, 3 } } } end,
  ["t:masked_fill"] = function() return { MASK(), 0 } end,
  ["t:masked_fill_"] = function() return { MASK(), 0 } end,
  ["t:map"] = function() return { function(x) return x end } end,
  ["t:apply"] = function() return { function(x) return x end } end,
  ["t:norm"] = function() return { 2, 1, false, {} } end,
  ["t:matmul"] = function() return { T():t() } end,
  ["lt.linalg.matrix_exp"] = function() return { lt.ones(2, 2, "float64") } end,
  ["lt.linalg.multi_dot"] = function() return { { T(), T():t() } } end,
  ["t:mm"] = function() return { T():t() } end,
  ["t:bmm"] = function() return { lt.ones(2, 3, 2) } end,
  ["t:mv"] = function() return { lt.ones(3) } end,
  ["t:dot"] = function() return { lt.ones(3) } end,
  ["t:outer"] = function() return { lt.ones(3) } end,
  ["t:addmm"] = function() return { lt.ones(2, 3), lt.ones(3, 2), {} } end,
  ["t:addmm_"] = function() return { lt.ones(2, 3), lt.ones(3, 2), {} } end,
  ["t:cross"] = function() return { T(), 2 } end,
  ["t:flip"] = function() return { { 1, 2 } } end,
  ["t:roll"] = function() return { 1, 1 } end,
  ["t:repeat"] = function() return { { 1, 2 } } end,
  ["t:tile"] = function() return { { 1, 2 } } end,
  ["t:split"] = function() return { 1, 1 } end,
  ["t:chunk"] = function() return { 2, 1 } end,
  ["t:diagonal"] = function() return { 0, 1, 2 } end,
  ["t:broadcast_to"] = function() return { { 2, 3 } } end,
  ["t:index_select"] = function() return { 1, IDX() } end,
  ["t:index_add"] = function() return { 1, IDX(), lt.ones(1, 3), { alpha = 2 } } end,
  ["t:index_copy"] = function() return { 1, IDX(), lt.ones(1, 3) } end,
  ["t:index_fill"] = function() return { 1, IDX(), 0 } end,
  ["t:gather"] = function() return { 1, ROW() } end,
  ["t:scatter"] = function() return { 1, ROW(), lt.ones(1, 3), { reduce = "add" } } end,
  ["t:scatter_add"] = function() return { 1, ROW(), lt.ones(1, 3) } end,
  ["t:scatter_reduce"] = function()
    return { 1, ROW(), lt.ones(1, 3), "sum", { include_self = true } }
  end,
  ["t:take"] = function() return { IDX() } end,
  ["t:masked_select"] = function() return { MASK() } end,
  ["t:masked_scatter"] = function() return { MASK(), lt.ones(6) } end,
  ["t:sort"] = function() return { 2, true, { stable = true } } end,
  ["t:argsort"] = function() return { 2, true, { stable = true } } end,
  ["t:topk"] = function() return { 2, 2, true, true } end,
  ["t:kthvalue"] = function() return { 1, 2, false } end,
  ["t:median"] = function() return { 2, false } end,
  ["t:mode"] = function() return { 2, false } end,
  ["t:unique"] = function() return { { sorted = true, return_counts = true } } end,
  ["t:cumsum"] = function() return { 2, "float64" } end,
  ["t:cumprod"] = function() return { 2, "float64" } end,
  ["t:cumsum_"] = function() return { 2, "float64" } end,
  ["t:cumprod_"] = function() return { 2, "float64" } end,
  ["t:bincount"] = function() return { lt.ones(4, "float64"), 5 } end,
  ["t:histc"] = function() return { 4, 0, 6 } end,
  ["t:uniform_"] = function() return { 0, 1, G() } end,
  ["t:normal_"] = function() return { 0, 1, G() } end,
  ["t:random_"] = function() return { 0, 5, G() } end,
  ["t:bernoulli_"] = function() return { 0.5, G() } end,
}
-- lt.fft (lua_fft.c): every positional argument, then an empty options table
for _, f in ipairs({ "fft", "ifft", "rfft", "irfft", "hfft", "ihfft" }) do
  VALID["lt.fft." .. f] = function() return { T(), 4, 2, "ortho", {} } end
end
for _, f in ipairs({ "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn",
  "irfftn", "hfftn", "ihfftn" }) do
  VALID["lt.fft." .. f] = function() return { T(), { 2, 4 }, { 1, 2 }, "forward", {} } end
end
VALID["lt.fft.fftfreq"] = function() return { 5, 0.5, { dtype = "float64" } } end
VALID["lt.fft.rfftfreq"] = VALID["lt.fft.fftfreq"]
VALID["lt.fft.fftshift"] = function() return { T(), { 1, 2 } } end
VALID["lt.fft.ifftshift"] = VALID["lt.fft.fftshift"]
-- lt.image (image_spec.lua): a PNG file and a PNG's bytes
local PNG = os.tmpname() .. ".png"
local function PIX() return lt.zeros({ 2, 3 }, "uint8") end
local function PNG_BYTES()
  return lt.config().png and lt.image.encode(PIX(), "png") or "\x89PNG\r\n\x1a\n"
end
VALID["lt.image.write"] = function() return { PNG, PIX(), { compression = 1 } } end
VALID["lt.image.read"] = function()
  local f = assert(io.open(PNG, "wb"))
  f:write(PNG_BYTES())
  f:close()
  return { PNG, { mode = "gray" } }
end
VALID["lt.image.decode"] = function() return { PNG_BYTES(), { mode = "gray" } } end
VALID["lt.image.encode"] = function() return { PIX(), "png", { compression = 1 } } end
-- lt.nn.functional's activations and losses (lua_nn_act.c): choices, probabilities in [0, 1],
-- class indices and per-class weights
local NNF = "lt.nn.functional."
VALID[NNF .. "gelu"] = function() return { T(), "tanh" } end
VALID[NNF .. "huber_loss"] = function() return { T(), T():t():t(), "sum", 0.5 } end
VALID[NNF .. "binary_cross_entropy"] = function()
  return { lt.full({ 2, 3 }, 0.25), T() / 6, T(), false, true, "sum" }
end
VALID[NNF .. "nll_loss"] = function()
  return { T(), lt.tensor({ 1, 3 }), lt.ones(3), false, -100, true, "sum" }
end
VALID[NNF .. "cross_entropy"] = function()
  return { T(), lt.tensor({ 1, 3 }), lt.ones(3), false, -100, true, "sum", 0.1 }
end

-- lt.linalg's solving and inverting (linalg_solve_spec.lua): a square, positive-definite matrix.
local function SQ() return lt.tensor({ { 4, 1 }, { 1, 3 } }, "float64") end
local function COL() return lt.ones(2, 1, "float64") end
for _, n in ipairs({ "inverse", "det", "logdet", "slogdet", "matrix_power" }) do RECV[n] = SQ end
VALID["t:matrix_power"] = function() return { 2 } end
for _, n in ipairs({ "inv", "det", "slogdet", "lu" }) do
  VALID["lt.linalg." .. n] = function() return { SQ() } end
end
VALID["lt.linalg.lu"] = function() return { SQ(), { pivot = true } } end
VALID["lt.linalg.inv_ex"] = function() return { SQ(), { check_errors = true } } end
VALID["lt.linalg.cholesky"] = function() return { SQ(), { upper = true } } end
VALID["lt.linalg.cholesky_ex"] = function() return { SQ(), { upper = true } } end
VALID["lt.linalg.lu_factor"] = function() return { SQ(), { pivot = true } } end
VALID["lt.linalg.lu_factor_ex"] = function() return { SQ(), { pivot = true } } end
VALID["lt.linalg.matrix_power"] = function() return { SQ(), -2 } end
VALID["lt.linalg.solve"] = function() return { SQ(), COL(), { left = true } } end
VALID["lt.linalg.solve_ex"] = function() return { SQ(), COL(), { check_errors = true } } end
VALID["lt.linalg.solve_triangular"] = function() return { SQ(), COL(), { upper = true } } end
VALID["lt.linalg.lu_solve"] = function() -- lu_factor(SQ()), written out (LAPACK may be absent)
  local lu = lt.tensor({ { 4, 1 }, { 0.25, 2.75 } }, "float64")
  return { lu, lt.tensor({ 1, 2 }, "int32"), COL(), { adjoint = true } }
end
for _, n in ipairs({ "index_add", "index_copy", "index_fill", "scatter", "scatter_add",
  "scatter_reduce", "masked_scatter" }) do
  VALID["t:" .. n .. "_"] = VALID["t:" .. n]
end
-- issue 27's layout functions (lua_layout.c) and baddbmm
RECV.dsplit = function() return lt.ones(2, 3, 4) end
RECV.baddbmm = function() return lt.ones(2, 2, 2) end
RECV.baddbmm_ = RECV.baddbmm
for k, f in pairs({
  ["lt.hstack"] = function() return { { T(), T() } } end,
  ["lt.vstack"] = function() return { { T(), T() } } end,
  ["lt.dstack"] = function() return { { T(), T() } } end,
  ["lt.column_stack"] = function() return { { T(), T() } } end,
  ["lt.broadcast_tensors"] = function() return { { T(), lt.ones(3) } } end,
  ["lt.cartesian_prod"] = function() return { { lt.arange(2), lt.arange(3) } } end,
  ["lt.combinations"] = function() return { lt.arange(4), 3, true } end,
  ["lt.unravel_index"] = function() return { lt.tensor({ 1, 6 }), { 2, 3 } } end,
  ["lt.vander"] = function() return { lt.arange(3), 4, true } end,
  ["lt.tensordot"] = function() return { T(), lt.ones(3, 2), { { 2 }, { 1 } } } end,
  ["t:tensor_split"] = function() return { { 1, 2 }, 2 } end,
  ["t:take_along_dim"] = function() return { ROW(), 2 } end,
  ["t:repeat_interleave"] = function() return { 2, 1, { output_size = 4 } } end,
  ["t:rot90"] = function() return { 1, { 2, 1 } } end,
  ["t:diag_embed"] = function() return { 1, 1, 3 } end,
  ["t:baddbmm"] = function() return { lt.ones(2, 2, 3), lt.ones(2, 3, 2), { beta = 2 } } end,
  ["t:baddbmm_"] = function() return { lt.ones(2, 2, 3), lt.ones(2, 3, 2), { beta = 2 } } end,
}) do
  VALID[k] = f
end

-- lt.nn.functional's convolutions and pools: every optional argument at its default.
local NN_CONV_VALID = {
  conv1d = function() return { lt.ones(1, 2, 5), lt.ones(3, 2, 3), lt.zeros(3), 1, 0, 1, 1 } end,
  conv2d = function() return { lt.ones(1, 2, 5, 5), lt.ones(3, 2, 3, 3), lt.zeros(3), 1, 0, 1, 1 } end,
  conv3d = function()
    return { lt.ones(1, 2, 4, 4, 4), lt.ones(3, 2, 2, 2, 2), lt.zeros(3), 1, 0, 1, 1 }
  end,
  conv_transpose1d = function()
    return { lt.ones(1, 2, 5), lt.ones(2, 3, 3), lt.zeros(3), 1, 0, 0, 1, 1 }
  end,
  conv_transpose2d = function()
    return { lt.ones(1, 2, 5, 5), lt.ones(2, 3, 3, 3), lt.zeros(3), 1, 0, 0, 1, 1 }
  end,
  unfold = function() return { lt.ones(1, 2, 4, 4), 2, 1, 0, 1 } end,
  fold = function() return { lt.ones(1, 8, 9), { 4, 4 }, 2, 1, 0, 1 } end,
  max_pool1d = function() return { lt.ones(1, 2, 6), 2, 2, 0, 1, false, false } end,
  max_pool2d = function() return { lt.ones(1, 2, 6, 6), 2, 2, 0, 1, false, false } end,
  avg_pool1d = function() return { lt.ones(1, 2, 6), 2, 2, 0, false, true } end,
  avg_pool2d = function() return { lt.ones(1, 2, 6, 6), 2, 2, 0, false, true, 4 } end,
  adaptive_avg_pool1d = function() return { lt.ones(1, 2, 6), 3 } end,
  adaptive_avg_pool2d = function() return { lt.ones(1, 2, 6, 6), 3 } end,
  adaptive_max_pool1d = function() return { lt.ones(1, 2, 6), 3, false } end,
  adaptive_max_pool2d = function() return { lt.ones(1, 2, 6, 6), 3, false } end,
}
for n, f in pairs(NN_CONV_VALID) do VALID["lt.nn.functional." .. n] = f end

-- A value of a parameter's type: its first alternative. Options tables are empty.
local BY_TYPE = {
  integer = function() return 1 end,
  number = function() return 0.5 end,
  boolean = function() return false end,
  string = function() return "x" end,
  any = function() return 1 end,
  ["ltensor.dtype"] = function() return "float64" end,
  ["ltensor.Tensor"] = T,
  ["ltensor.Operand"] = function() return 2 end,
  ["ltensor.Scalar"] = function() return 1 end,
  ["ltensor.Shape"] = function() return { 2, 3 } end,
  ["ltensor.NestedTable"] = function() return { { 1, 2, 3 }, { 4, 5, 6 } } end,
}
local function value_of(ty)
  if ty:sub(1, 1) == "{" or ty:match("Options$") or ty == "ltensor.Config" then return {} end
  local first = ty:match("^[^|]+")
  local lit = first:match('^"(.*)"$')
  if lit then return lit end
  local make = BY_TYPE[first]
  if make then return make() end -- (not `make and make() or nil`: a boolean's value is false)
  return nil, "no value for type " .. ty
end

-- }======

-- {====== the calls ======

-- The display name and the callable of a definition.
local PREFIX = { ltensor = "lt.", ["ltensor.Tensor"] = "t:", ["ltensor.Generator"] = "g:",
  ["ltensor.dlpack"] = "dlpack.", ["ltensor.ReadOnlyTensorWrapper"] = "w:" }
for class, path in pairs(apidefs.SPACES) do PREFIX[class] = "lt." .. path .. "." end
local function key_of(f) return PREFIX[f.class] .. f.name end

local function callable(f)
  if f.class == "ltensor" then return lt[f.name] end
  if f.class == "ltensor.dlpack" then return dlpack[f.name] end
  if apidefs.SPACES[f.class] then return apidefs.space(lt, f.class)[f.name] end
  if f.class == "ltensor.Tensor" then return core._methods[f.name] end
  if f.class == "ltensor.Generator" then return lt.Generator(1)[f.name] end
  return dlpack.ReadOnlyTensorWrapper(T())[f.name]
end

local function receiver(f)
  if f.class == "ltensor.Tensor" then return (RECV[f.name] or T)() end
  if f.class == "ltensor.Generator" then return lt.Generator(1) end
  if f.class == "ltensor.ReadOnlyTensorWrapper" then return dlpack.ReadOnlyTensorWrapper(T()) end
end

-- The arguments of a valid call of f, self included (a packed list), and how many of them are
-- required (the rest are optional parameters); nil and why when none can be built.
local function valid_args(f)
  local m = f.form_of -- a module form: the method's valid call, the tensor first
  local key = m and key_of(m) or key_of(f)
  local self = m and (RECV[m.name] or T)() or receiver(f)
  local params = m and m.params or f.params
  local args = VALID[key] and VALID[key]()
  if not args then
    args = {}
    for i, p in ipairs(params) do
      if p.name == "..." then return nil, "a `...` parameter: give " .. key .. " a VALID entry" end
      local v, why = value_of(p.type)
      if why then return nil, why .. " (" .. key .. ", " .. p.name .. ")" end
      args[i] = v
    end
  end
  local required = 0
  for i, p in ipairs(params) do
    if not p.optional then required = i end
  end
  local packed = table.pack(table.unpack(args))
  if self ~= nil then
    packed = table.pack(self, table.unpack(args))
    required = required + 1
  end
  return packed, math.min(required, packed.n)
end

-- Calls fn with the first n of args (then the extra values), from a Lua function of this file:
-- an error carries this file's position.
local function call(fn, args, n, ...)
  lt.manual_seed(7) -- the same draws for the calls that use the process's generator
  local all = table.pack(table.unpack(args, 1, n))
  local extra = table.pack(...)
  for i = 1, extra.n do all[all.n + i] = extra[i] end
  all.n = all.n + extra.n
  return table.pack(pcall(function() return fn(table.unpack(all, 1, all.n)) end))
end

-- Whether two results are the same: tensors by dtype, shape and bytes (shape only for loose
-- results), tables field by field, other userdata by type.
local function same(a, b, loose)
  if type(a) ~= type(b) then return false end
  if lt.is_tensor(a) then
    if a.dtype ~= b.dtype or table.concat(a.shape, ",") ~= table.concat(b.shape, ",") then
      return false
    end
    return loose or not core._readable(a) or a:bytes() == b:bytes()
  end
  if type(a) == "table" then
    for k, v in pairs(a) do
      if not same(v, b[k], loose) then return false end
    end
    for k in pairs(b) do
      if a[k] == nil then return false end
    end
    return true
  end
  if type(a) == "number" then return loose or a == b or (a ~= a and b ~= b) end
  if type(a) == "userdata" or type(a) == "function" then return true end
  return a == b
end

-- Results that differ from call to call: addresses, fresh seeds and objects, uninitialized
-- memory, the memory in use.
local LOOSE = { ["t:data_ptr"] = true, ["t:const_data_ptr"] = true, ["lt.seed"] = true,
  ["g:seed"] = true, ["lt.empty"] = true, ["lt.empty_like"] = true, ["lt.config"] = true }

-- }======

-- {====== the rules ======

local WHERE = "arguments_spec%.lua:%d+: "

-- The reason f breaks a rule, or nil.
local function check(f)
  local key = key_of(f)
  local fn = callable(f)
  if type(fn) ~= "function" then return "not a function in the module" end
  local args, required = valid_args(f)
  if not args then return "no valid call: " .. required end
  -- each call gets its arguments fresh (valid_args again): the same values, new objects
  local function call_valid(n, ...) return call(fn, (valid_args(f)), n, ...) end
  local r = call_valid(args.n)
  -- lt.linalg without LAPACK (a build without a BLAS): only the small kernels answer
  if not r[1] and lt.config().lapack == nil and tostring(r[2]):find("needs LAPACK", 1, true) then
    return nil
  end
  -- lt.image without libpng (the no-BLAS build has none)
  if not r[1] and tostring(r[2]):find("built without PNG support", 1, true) then return nil end
  if not r[1] then return "the valid call raised: " .. tostring(r[2]) end
  -- (a) one more argument, of a kind no parameter takes as an option
  local x = call_valid(args.n, 7)
  local msg = tostring(x[2])
  if x[1] then return "an extra argument is accepted" end
  if not msg:find(f.name .. ": too many arguments", 1, true) then
    return "an extra argument raised another error: " .. msg
  end
  -- (c) where the script called
  if not msg:find("^[^\n]*" .. WHERE) then return "no file:line: in " .. msg end
  -- (b) trailing nils, after every argument and after the required ones alone
  local loose = LOOSE[key]
  for _, n in ipairs({ args.n, required }) do
    local plain, nils = call_valid(n), call_valid(n, nil, nil)
    if plain[1] ~= nils[1] then
      return ("with %d arguments and trailing nils: %s, without: %s"):format(n,
        tostring(nils[2]), tostring(plain[2]))
    end
    if plain[1] then
      if plain.n ~= nils.n then return "trailing nils change the number of results" end
      for i = 2, plain.n do
        if not same(plain[i], nils[i], loose) then
          return ("trailing nils change result %d (with %d arguments)"):format(i - 1, n)
        end
      end
    end
  end
  -- (c) a bad first argument: a released tensor as self, a coroutine elsewhere
  if args.n >= 1 then
    local bad = table.pack(table.unpack(args, 1, args.n))
    if f.class == "ltensor.Tensor" then
      local t <close> = T()
      bad[1] = t
    else
      bad[1] = coroutine.create(print)
    end -- t is released here
    local b = call(fn, bad, bad.n)
    if not b[1] and not tostring(b[2]):find("^[^\n]*" .. WHERE) then
      return "a bad first argument raised without file:line: " .. tostring(b[2])
    end
  end
end

-- }======

-- The functions known to break a rule, with the reason (expect(reason, "t:f lt.g ...")). None
-- now: the elementwise and reduction rows (lua_funcs.c, lua_reduce.c) and the other parts apply
-- ltl_args at every entry.
local EXPECTED = {}
local function expect(reason, names)
  for name in names:gmatch("%S+") do EXPECTED[name] = reason end
end

describe("the argument rules over every function in the definitions", function()
  local walked = {}
  for _, f in ipairs(defs.functions) do
    local key = key_of(f)
    walked[#walked + 1] = key
    it(key .. " keeps the rules", function()
      local why = check(f)
      if EXPECTED[key] then
        assert(why, key .. " keeps the rules now: take it off the expected-failure list")
      else
        assert(not why, key .. ": " .. tostring(why))
      end
    end)
  end

  it("walks every function, method and module form (" .. #walked .. ")", function()
    assert.same({}, defs.problems)
    assert.is_true(#walked >= 350)
    for key in pairs(EXPECTED) do
      local found = false
      for _, k in ipairs(walked) do found = found or k == key end
      assert(found, key .. " is on the expected-failure list but is no function")
    end
  end)

  it("raises 'too many arguments' naming the function, in the one wording", function()
    local t = T()
    local ok, err = pcall(function() return t:numel(1) end)
    assert.is_false(ok)
    assert.matches(WHERE .. "numel: too many arguments %(at most 0 after the tensor%)$", err)
    ok, err = pcall(function() return lt.zeros(2, 3, "float32", 7) end)
    assert.matches(WHERE .. "zeros: too many arguments %(at most 3, then an options table%)$", err)
    ok, err = pcall(function() return lt.Generator(1):seed(5) end)
    assert.matches(WHERE .. "seed: too many arguments %(at most 0 after the generator%)$", err)
  end)

  it("gives every method torch also has as torch.f its lt.f, the tensor first", function()
    for name in ([[flip roll tile split chunk unbind tril triu diag diagonal trace broadcast_to
      sort argsort topk kthvalue median mode unique cumsum cumprod cummax cummin bincount histc
      index_select index_add index_copy index_fill gather scatter scatter_add scatter_reduce take
      masked_select masked_scatter nonzero clone flatten narrow numel permute reshape select
      squeeze transpose unsqueeze fill_ zero_]]):gmatch("%S+") do
      assert.equal(core._methods[name], lt[name], name)
    end
    for name in ([[add sub mul div pow exp log sqrt abs sin tanh sigmoid floor clamp lerp
      nan_to_num masked_fill square maximum atan2 eq logical_and sum mean prod max min amax argmax
      all any var std norm logsumexp count_nonzero matmul mm bmm mv dot addmm t softmax
      log_softmax isclose allclose equal dist outer cross]]):gmatch("%S+") do
      assert.equal(core._methods[name], lt[name], name)
    end
    assert.is_function(lt.searchsorted)
    assert.is_function(lt.is_tensor)
    assert.same({ 3, 2 }, lt.transpose(T(), 1, 2).shape)
  end)

  it("forwards optional arguments as nils", function()
    local function sorted(t, dim, descending, opts) return lt.searchsorted(t, dim, opts) end
    assert.same({ 2 }, sorted(lt.tensor({ 1, 3 }), lt.tensor({ 2 })):tolist())
    local function zeros(shape, dtype) return lt.zeros(shape, dtype) end
    assert.equal("float32", zeros({ 2 }).dtype)
  end)

  teardown(function() os.remove(NPY); os.remove(PNG) end)
end)
