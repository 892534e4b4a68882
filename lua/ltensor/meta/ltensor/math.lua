---@meta _
-- LuaLS definitions of ltensor.Tensor, part 2: the math methods (src/binding/lua_math.c,
-- lua_funcs.c, lua_reduce.c, lua_softmax.c; trace is lua_shape.c's, its module form declared in
-- ltensor/shape.lua).
-- In-place forms (`add_`) write t, refusing a result type t cannot hold, and return t.
-- A line `ltensor.exp = Tensor.exp` after a method's block says the module has it too, as
-- torch.exp: lt.exp(t, ...) is t:exp(...) (tools/apidefs.lua documents it from the block).
-- Conventions: see ../ltensor.lua. Nothing requires this file.

---@class ltensor.Tensor
local Tensor = {}

---@class ltensor
local ltensor = {}

-- {====== elementwise: binary ======

--- t + other (with {alpha = k}: t + k * other), broadcast and promoted as torch.
---@param other ltensor.Operand
---@param opts? {alpha:number}
---@return ltensor.Tensor
function Tensor:add(other, opts) end
ltensor.add = Tensor.add

--- In place: add written into t.
---@param other ltensor.Operand
---@param opts? {alpha:number}
---@return ltensor.Tensor self
function Tensor:add_(other, opts) end

--- t - other (with {alpha = k}: t - k * other), broadcast and promoted as torch.
---@param other ltensor.Operand
---@param opts? {alpha:number}
---@return ltensor.Tensor
function Tensor:sub(other, opts) end
ltensor.sub = Tensor.sub

--- In place: sub written into t.
---@param other ltensor.Operand
---@param opts? {alpha:number}
---@return ltensor.Tensor self
function Tensor:sub_(other, opts) end

--- t * other, broadcast and promoted as torch.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:mul(other) end
ltensor.mul = Tensor.mul

--- In place: mul written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:mul_(other) end

--- t / other (integers give float32); {rounding_mode = "floor"} floors.
---@param other ltensor.Operand
---@param opts? {rounding_mode:string}
---@return ltensor.Tensor
function Tensor:div(other, opts) end
ltensor.div = Tensor.div

--- In place: div written into t.
---@param other ltensor.Operand
---@param opts? {rounding_mode:string}
---@return ltensor.Tensor self
function Tensor:div_(other, opts) end

--- t // other, flooring as Python (Lua's `//`).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:floor_divide(other) end
ltensor.floor_divide = Tensor.floor_divide

--- In place: floor_divide written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:floor_divide_(other) end

--- t % other with the sign of the divisor, as Python (Lua's `%`).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:remainder(other) end
ltensor.remainder = Tensor.remainder

--- In place: remainder written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:remainder_(other) end

--- t ^ other; negative integer powers of integers raise.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:pow(other) end
ltensor.pow = Tensor.pow

--- In place: pow written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:pow_(other) end

--- The elementwise larger of t and other (NaN propagates).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:maximum(other) end
ltensor.maximum = Tensor.maximum

--- In place: maximum written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:maximum_(other) end

--- The elementwise smaller of t and other (NaN propagates).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:minimum(other) end
ltensor.minimum = Tensor.minimum

--- In place: minimum written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:minimum_(other) end

--- t & other for integer and bool tensors (logical on bools).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:bitwise_and(other) end
ltensor.bitwise_and = Tensor.bitwise_and

--- In place: bitwise_and written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:bitwise_and_(other) end

--- t | other for integer and bool tensors (logical on bools).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:bitwise_or(other) end
ltensor.bitwise_or = Tensor.bitwise_or

--- In place: bitwise_or written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:bitwise_or_(other) end

--- t ~ other for integer and bool tensors (logical on bools).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:bitwise_xor(other) end
ltensor.bitwise_xor = Tensor.bitwise_xor

--- In place: bitwise_xor written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:bitwise_xor_(other) end

--- t << other for integer tensors: 0 for a negative amount or the bit width or more.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:bitwise_left_shift(other) end
ltensor.bitwise_left_shift = Tensor.bitwise_left_shift

--- In place: bitwise_left_shift written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:bitwise_left_shift_(other) end

--- t >> other for integer tensors (arithmetic for signed ones): the sign for a negative amount or the bit width or more.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:bitwise_right_shift(other) end
ltensor.bitwise_right_shift = Tensor.bitwise_right_shift

--- In place: bitwise_right_shift written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:bitwise_right_shift_(other) end

--- atan2(t, other) elementwise, the quadrant from both signs (floating result).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:atan2(other) end
ltensor.atan2 = Tensor.atan2

--- In place: atan2 written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:atan2_(other) end

--- C's fmod: the remainder with the sign of the dividend (truncating for integers).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:fmod(other) end
ltensor.fmod = Tensor.fmod

--- In place: fmod written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:fmod_(other) end

--- sqrt(t^2 + other^2) without overflow; refuses integers.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:hypot(other) end
ltensor.hypot = Tensor.hypot

--- In place: hypot written into t.
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:hypot_(other) end

--- log(exp(t) + exp(other)) without overflow, as torch.logaddexp; floating dtypes only (no
--- in-place form, as torch).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:logaddexp(other) end
ltensor.logaddexp = Tensor.logaddexp

--- log2(2^t + 2^other) without overflow, as torch.logaddexp2; floating dtypes only.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:logaddexp2(other) end
ltensor.logaddexp2 = Tensor.logaddexp2

--- t * log(other), 0 where t is 0 unless other is NaN, as torch.xlogy; integers and bool
--- give float32; complex is refused.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:xlogy(other) end
ltensor.xlogy = Tensor.xlogy

--- In place: xlogy written into t (a floating t).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:xlogy_(other) end

-- }======

-- {====== elementwise: unary ======

--- -t (Lua's unary minus).
---@return ltensor.Tensor
function Tensor:neg() end
ltensor.neg = Tensor.neg

--- In place: neg written into t.
---@return ltensor.Tensor self
function Tensor:neg_() end

--- |t|.
---@return ltensor.Tensor
function Tensor:abs() end
ltensor.abs = Tensor.abs

--- In place: abs written into t.
---@return ltensor.Tensor self
function Tensor:abs_() end

--- The square root (integers give float32).
---@return ltensor.Tensor
function Tensor:sqrt() end
ltensor.sqrt = Tensor.sqrt

--- In place: sqrt written into t.
---@return ltensor.Tensor self
function Tensor:sqrt_() end

--- e to the power t.
---@return ltensor.Tensor
function Tensor:exp() end
ltensor.exp = Tensor.exp

--- In place: exp written into t.
---@return ltensor.Tensor self
function Tensor:exp_() end

--- The natural logarithm.
---@return ltensor.Tensor
function Tensor:log() end
ltensor.log = Tensor.log

--- In place: log written into t.
---@return ltensor.Tensor self
function Tensor:log_() end

--- The sine.
---@return ltensor.Tensor
function Tensor:sin() end
ltensor.sin = Tensor.sin

--- In place: sin written into t.
---@return ltensor.Tensor self
function Tensor:sin_() end

--- The cosine.
---@return ltensor.Tensor
function Tensor:cos() end
ltensor.cos = Tensor.cos

--- In place: cos written into t.
---@return ltensor.Tensor self
function Tensor:cos_() end

--- The hyperbolic tangent.
---@return ltensor.Tensor
function Tensor:tanh() end
ltensor.tanh = Tensor.tanh

--- In place: tanh written into t.
---@return ltensor.Tensor self
function Tensor:tanh_() end

--- Rounded down.
---@return ltensor.Tensor
function Tensor:floor() end
ltensor.floor = Tensor.floor

--- In place: floor written into t.
---@return ltensor.Tensor self
function Tensor:floor_() end

--- Rounded up.
---@return ltensor.Tensor
function Tensor:ceil() end
ltensor.ceil = Tensor.ceil

--- In place: ceil written into t.
---@return ltensor.Tensor self
function Tensor:ceil_() end

--- Rounded to the nearest integer, halves to even, as torch.
---@return ltensor.Tensor
function Tensor:round() end
ltensor.round = Tensor.round

--- In place: round written into t.
---@return ltensor.Tensor self
function Tensor:round_() end

--- t * t, elementwise (bool gives int64, integers wrap), as torch.square.
---@return ltensor.Tensor
function Tensor:square() end
ltensor.square = Tensor.square

--- In place: square written into t.
---@return ltensor.Tensor self
function Tensor:square_() end

--- -1, 0 or 1 by the sign of each element.
---@return ltensor.Tensor
function Tensor:sign() end
ltensor.sign = Tensor.sign

--- In place: sign written into t.
---@return ltensor.Tensor self
function Tensor:sign_() end

--- ~t for integer and bool tensors (logical not on bools).
---@return ltensor.Tensor
function Tensor:bitwise_not() end
ltensor.bitwise_not = Tensor.bitwise_not

--- In place: bitwise_not written into t.
---@return ltensor.Tensor self
function Tensor:bitwise_not_() end

--- 1 / (1 + exp(-t)).
---@return ltensor.Tensor
function Tensor:sigmoid() end
ltensor.sigmoid = Tensor.sigmoid

--- In place: sigmoid written into t.
---@return ltensor.Tensor self
function Tensor:sigmoid_() end

--- max(t, 0); keeps integer dtypes.
---@return ltensor.Tensor
function Tensor:relu() end
ltensor.relu = Tensor.relu

--- In place: relu written into t.
---@return ltensor.Tensor self
function Tensor:relu_() end

--- The tangent.
---@return ltensor.Tensor
function Tensor:tan() end
ltensor.tan = Tensor.tan

--- In place: tan written into t.
---@return ltensor.Tensor self
function Tensor:tan_() end

--- The arcsine.
---@return ltensor.Tensor
function Tensor:asin() end
ltensor.asin = Tensor.asin

--- In place: asin written into t.
---@return ltensor.Tensor self
function Tensor:asin_() end

--- The arccosine.
---@return ltensor.Tensor
function Tensor:acos() end
ltensor.acos = Tensor.acos

--- In place: acos written into t.
---@return ltensor.Tensor self
function Tensor:acos_() end

--- The arctangent.
---@return ltensor.Tensor
function Tensor:atan() end
ltensor.atan = Tensor.atan

--- In place: atan written into t.
---@return ltensor.Tensor self
function Tensor:atan_() end

--- The hyperbolic sine.
---@return ltensor.Tensor
function Tensor:sinh() end
ltensor.sinh = Tensor.sinh

--- In place: sinh written into t.
---@return ltensor.Tensor self
function Tensor:sinh_() end

--- The hyperbolic cosine.
---@return ltensor.Tensor
function Tensor:cosh() end
ltensor.cosh = Tensor.cosh

--- In place: cosh written into t.
---@return ltensor.Tensor self
function Tensor:cosh_() end

--- The inverse hyperbolic sine.
---@return ltensor.Tensor
function Tensor:asinh() end
ltensor.asinh = Tensor.asinh

--- In place: asinh written into t.
---@return ltensor.Tensor self
function Tensor:asinh_() end

--- The inverse hyperbolic cosine.
---@return ltensor.Tensor
function Tensor:acosh() end
ltensor.acosh = Tensor.acosh

--- In place: acosh written into t.
---@return ltensor.Tensor self
function Tensor:acosh_() end

--- The inverse hyperbolic tangent.
---@return ltensor.Tensor
function Tensor:atanh() end
ltensor.atanh = Tensor.atanh

--- In place: atanh written into t.
---@return ltensor.Tensor self
function Tensor:atanh_() end

--- log(1 + t), exact for small t.
---@return ltensor.Tensor
function Tensor:log1p() end
ltensor.log1p = Tensor.log1p

--- In place: log1p written into t.
---@return ltensor.Tensor self
function Tensor:log1p_() end

--- exp(t) - 1, exact for small t.
---@return ltensor.Tensor
function Tensor:expm1() end
ltensor.expm1 = Tensor.expm1

--- In place: expm1 written into t.
---@return ltensor.Tensor self
function Tensor:expm1_() end

--- The base-2 logarithm.
---@return ltensor.Tensor
function Tensor:log2() end
ltensor.log2 = Tensor.log2

--- In place: log2 written into t.
---@return ltensor.Tensor self
function Tensor:log2_() end

--- The base-10 logarithm.
---@return ltensor.Tensor
function Tensor:log10() end
ltensor.log10 = Tensor.log10

--- In place: log10 written into t.
---@return ltensor.Tensor self
function Tensor:log10_() end

--- 2 to the power t.
---@return ltensor.Tensor
function Tensor:exp2() end
ltensor.exp2 = Tensor.exp2

--- In place: exp2 written into t.
---@return ltensor.Tensor self
function Tensor:exp2_() end

--- Rounded toward zero; keeps integer dtypes.
---@return ltensor.Tensor
function Tensor:trunc() end
ltensor.trunc = Tensor.trunc

--- In place: trunc written into t.
---@return ltensor.Tensor self
function Tensor:trunc_() end

--- t - trunc(t); refuses integers.
---@return ltensor.Tensor
function Tensor:frac() end
ltensor.frac = Tensor.frac

--- In place: frac written into t.
---@return ltensor.Tensor self
function Tensor:frac_() end

--- 1 / sqrt(t).
---@return ltensor.Tensor
function Tensor:rsqrt() end
ltensor.rsqrt = Tensor.rsqrt

--- In place: rsqrt written into t.
---@return ltensor.Tensor self
function Tensor:rsqrt_() end

--- 1 / t; integers and bool give float32 (1 / 0 is inf), complex divides.
---@return ltensor.Tensor
function Tensor:reciprocal() end
ltensor.reciprocal = Tensor.reciprocal

--- In place: reciprocal written into t (a floating or complex t).
---@return ltensor.Tensor self
function Tensor:reciprocal_() end

--- The error function.
---@return ltensor.Tensor
function Tensor:erf() end
ltensor.erf = Tensor.erf

--- In place: erf written into t.
---@return ltensor.Tensor self
function Tensor:erf_() end

--- The complementary error function, 1 - erf(t).
---@return ltensor.Tensor
function Tensor:erfc() end
ltensor.erfc = Tensor.erfc

--- In place: erfc written into t.
---@return ltensor.Tensor self
function Tensor:erfc_() end

--- The Gaussian error linear unit; {approximate = "tanh"} uses torch's tanh form. Refuses integers.
---@param opts? {approximate:string}
---@return ltensor.Tensor
function Tensor:gelu(opts) end

--- t * sigmoid(t); refuses integers.
---@return ltensor.Tensor
function Tensor:silu() end

--- A bool tensor: where t is NaN.
---@return ltensor.Tensor
function Tensor:isnan() end
ltensor.isnan = Tensor.isnan

--- A bool tensor: where t is +inf or -inf.
---@return ltensor.Tensor
function Tensor:isinf() end
ltensor.isinf = Tensor.isinf

--- A bool tensor: where t is neither NaN nor infinite.
---@return ltensor.Tensor
function Tensor:isfinite() end
ltensor.isfinite = Tensor.isfinite

--- NaN replaced by nan (0), +inf by posinf and -inf by neginf (the dtype's largest and lowest finite values by default); or one table {nan =, posinf =, neginf =}.
---@param nan? number|{nan:number,posinf:number,neginf:number}
---@param posinf? number
---@param neginf? number
---@return ltensor.Tensor
function Tensor:nan_to_num(nan, posinf, neginf) end
ltensor.nan_to_num = Tensor.nan_to_num

--- In place: NaN replaced by nan (0), +inf by posinf and -inf by neginf (the dtype's largest and lowest finite values by default); or one table {nan =, posinf =, neginf =}.
---@param nan? number|{nan:number,posinf:number,neginf:number}
---@param posinf? number
---@param neginf? number
---@return ltensor.Tensor self
function Tensor:nan_to_num_(nan, posinf, neginf) end

--- Linear interpolation t + weight * (target - t); refuses integers.
---@param target ltensor.Operand the end value
---@param weight ltensor.Operand
---@return ltensor.Tensor
function Tensor:lerp(target, weight) end
ltensor.lerp = Tensor.lerp

--- In place: Linear interpolation t + weight * (target - t); refuses integers.
---@param target ltensor.Operand the end value
---@param weight ltensor.Operand
---@return ltensor.Tensor self
function Tensor:lerp_(target, weight) end

--- Each element limited to [min, max] (either may be nil).
---@param min? ltensor.Operand
---@param max? ltensor.Operand
---@return ltensor.Tensor
function Tensor:clamp(min, max) end
ltensor.clamp = Tensor.clamp

--- In place: Each element limited to [min, max] (either may be nil).
---@param min? ltensor.Operand
---@param max? ltensor.Operand
---@return ltensor.Tensor self
function Tensor:clamp_(min, max) end

--- clamp under torch's other name: each element limited to [min, max] (either may be nil).
---@param min? ltensor.Operand
---@param max? ltensor.Operand
---@return ltensor.Tensor
function Tensor:clip(min, max) end
ltensor.clip = Tensor.clip

--- In place: clip (clamp) written into t.
---@param min? ltensor.Operand
---@param max? ltensor.Operand
---@return ltensor.Tensor self
function Tensor:clip_(min, max) end

--- torch.polar: the complex tensor abs * (cos(angle) + i sin(angle)), broadcast; abs and angle
--- both float32 (complex64) or both float64 (complex128).
---@param abs ltensor.Tensor
---@param angle ltensor.Tensor
---@return ltensor.Tensor
function ltensor.polar(abs, angle) end

--- value where mask is true, t elsewhere, in t's dtype.
---@param mask ltensor.Tensor a bool tensor, broadcast
---@param value ltensor.Operand
---@return ltensor.Tensor
function Tensor:masked_fill(mask, value) end
ltensor.masked_fill = Tensor.masked_fill

--- In place: value where mask is true, t elsewhere, in t's dtype.
---@param mask ltensor.Tensor a bool tensor, broadcast
---@param value ltensor.Operand
---@return ltensor.Tensor self
function Tensor:masked_fill_(mask, value) end

--- A new tensor of t's dtype holding fn(x) for each element x (Lua per element).
---@param fn fun(x:any):any
---@return ltensor.Tensor
function Tensor:map(fn) end

--- Replaces each element x of t by fn(x), in place. An expanded t (several elements at one
--- memory location) is refused, as by every in-place operation.
---@param fn fun(x:any):any
---@return ltensor.Tensor self
function Tensor:apply(fn) end

-- }======

-- {====== comparisons and logic ======

--- A bool tensor: t == other, elementwise (broadcast).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:eq(other) end
ltensor.eq = Tensor.eq

--- In place: eq written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:eq_(other) end

--- A bool tensor: t ~= other, elementwise (broadcast).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:ne(other) end
ltensor.ne = Tensor.ne

--- In place: ne written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:ne_(other) end

--- A bool tensor: t < other, elementwise (broadcast).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:lt(other) end
ltensor.lt = Tensor.lt

--- In place: lt written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:lt_(other) end

--- A bool tensor: t <= other, elementwise (broadcast).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:le(other) end
ltensor.le = Tensor.le

--- In place: le written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:le_(other) end

--- A bool tensor: t > other, elementwise (broadcast).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:gt(other) end
ltensor.gt = Tensor.gt

--- In place: gt written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:gt_(other) end

--- A bool tensor: t >= other, elementwise (broadcast).
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:ge(other) end
ltensor.ge = Tensor.ge

--- In place: ge written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:ge_(other) end

--- A bool tensor: both nonzero.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:logical_and(other) end
ltensor.logical_and = Tensor.logical_and

--- In place: logical_and written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:logical_and_(other) end

--- A bool tensor: either nonzero.
---@param other ltensor.Operand
---@return ltensor.Tensor
function Tensor:logical_or(other) end
ltensor.logical_or = Tensor.logical_or

--- In place: logical_or written into t (1 where true, 0 where false, in t's dtype).
---@param other ltensor.Operand
---@return ltensor.Tensor self
function Tensor:logical_or_(other) end

--- A bool tensor: where t is zero.
---@return ltensor.Tensor
function Tensor:logical_not() end
ltensor.logical_not = Tensor.logical_not

--- In place: logical_not written into t (1 where t was zero, else 0, in t's dtype).
---@return ltensor.Tensor self
function Tensor:logical_not_() end

--- A bool tensor: |t - other| <= atol + rtol * |other| (defaults 1e-05, 1e-08), NaNs equal with equal_nan.
---@param other ltensor.Tensor
---@param rtol? number
---@param atol? number
---@param equal_nan? boolean
---@return ltensor.Tensor
function Tensor:isclose(other, rtol, atol, equal_nan) end
ltensor.isclose = Tensor.isclose

--- Whether every element is close, as isclose: a Lua boolean.
---@param other ltensor.Tensor
---@param rtol? number
---@param atol? number
---@param equal_nan? boolean
---@return boolean
function Tensor:allclose(other, rtol, atol, equal_nan) end
ltensor.allclose = Tensor.allclose

--- Whether other has t's shape and equal values (dtypes promoted): a Lua boolean.
---@param other ltensor.Tensor
---@return boolean
function Tensor:equal(other) end
ltensor.equal = Tensor.equal

-- }======

-- {====== reductions ======

--- The sum (integers give int64): a Lua value over every element, a tensor with a dim.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:sum(dim, keepdim, opts) end
ltensor.sum = Tensor.sum

--- The mean of a floating tensor (of nothing: NaN).
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:mean(dim, keepdim, opts) end
ltensor.mean = Tensor.mean

--- The product (of nothing: 1); one dim at most.
---@param dim? integer
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:prod(dim, keepdim, opts) end
ltensor.prod = Tensor.prod

--- The largest value (NaN propagates) over the dims.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:amax(dim, keepdim) end
ltensor.amax = Tensor.amax

--- The smallest value (NaN propagates) over the dims.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:amin(dim, keepdim) end
ltensor.amin = Tensor.amin

--- The largest value; with a dim, the values and their 1-based positions; with a tensor, torch.maximum.
---@param dim? integer|ltensor.Tensor a dim, or a tensor to compare with
---@param keepdim? boolean
---@return ltensor.Scalar|ltensor.Tensor values
---@return ltensor.Tensor? positions # 1-based, with a dim
function Tensor:max(dim, keepdim) end
ltensor.max = Tensor.max

--- The smallest value; with a dim, the values and their 1-based positions; with a tensor, torch.minimum.
---@param dim? integer|ltensor.Tensor a dim, or a tensor to compare with
---@param keepdim? boolean
---@return ltensor.Scalar|ltensor.Tensor values
---@return ltensor.Tensor? positions # 1-based, with a dim
function Tensor:min(dim, keepdim) end
ltensor.min = Tensor.min

--- The 1-based position of the largest value: in row-major order over every element (a Lua integer), along dim with one.
---@param dim? integer
---@param keepdim? boolean
---@return integer|ltensor.Tensor
function Tensor:argmax(dim, keepdim) end
ltensor.argmax = Tensor.argmax

--- The 1-based position of the smallest value: in row-major order over every element (a Lua integer), along dim with one.
---@param dim? integer
---@param keepdim? boolean
---@return integer|ltensor.Tensor
function Tensor:argmin(dim, keepdim) end
ltensor.argmin = Tensor.argmin

--- Whether every element is nonzero: a Lua boolean over every element, a bool tensor with a dim.
--- A complex element is nonzero when either part is (NaN counts as nonzero).
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@return boolean|ltensor.Tensor
function Tensor:all(dim, keepdim) end
ltensor.all = Tensor.all

--- Whether any element is nonzero: a Lua boolean over every element, a bool tensor with a dim.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@return boolean|ltensor.Tensor
function Tensor:any(dim, keepdim) end
ltensor.any = Tensor.any

--- The variance, torch's (dim, unbiased, keepdim) order; {correction = 0} for the population variance.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param unbiased? boolean
---@param keepdim? boolean
---@param opts? {correction:integer}
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:var(dim, unbiased, keepdim, opts) end
ltensor.var = Tensor.var

--- The standard deviation, torch's (dim, unbiased, keepdim) order; {correction = 0} for the population one.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param unbiased? boolean
---@param keepdim? boolean
---@param opts? {correction:integer}
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:std(dim, unbiased, keepdim, opts) end
ltensor.std = Tensor.std

--- The number of nonzero elements: a Lua integer over every element, an int64 tensor with dims.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@return integer|ltensor.Tensor
function Tensor:count_nonzero(dim) end
ltensor.count_nonzero = Tensor.count_nonzero

--- The p-norm (default 2, "fro"), over every element or the dims.
---@param p? number|string
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:norm(p, dim, keepdim, opts) end
ltensor.norm = Tensor.norm

--- log(sum(exp(t))) over the dims, max-shifted (stable); integers compute in float32.
---@param dim integer|ltensor.Shape
---@param keepdim? boolean
---@return ltensor.Tensor
function Tensor:logsumexp(dim, keepdim) end
ltensor.logsumexp = Tensor.logsumexp

--- The sum with NaN left out (a sum of NaNs is 0); integers give int64, as t:sum(); complex
--- tensors are refused, as torch.nansum.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:nansum(dim, keepdim, opts) end
ltensor.nansum = Tensor.nansum

--- The mean of the elements that are not NaN (none: NaN), of a floating tensor.
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param keepdim? boolean
---@param opts? ltensor.DtypeOptions
---@return ltensor.Scalar|ltensor.Tensor # a Lua value over every element, a tensor with a dim
function Tensor:nanmean(dim, keepdim, opts) end
ltensor.nanmean = Tensor.nanmean

--- torch.std_mean: the standard deviation and the mean over the same dims, as t:std() and
--- t:mean() take them (two Lua values over every element, two tensors with a dim).
---@param t ltensor.Tensor
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param unbiased? boolean
---@param keepdim? boolean
---@param opts? {correction:integer}
---@return ltensor.Scalar|ltensor.Tensor std
---@return ltensor.Scalar|ltensor.Tensor mean
function ltensor.std_mean(t, dim, unbiased, keepdim, opts) end

--- torch.var_mean: the variance and the mean over the same dims, as t:var() and t:mean() take
--- them (two Lua values over every element, two tensors with a dim).
---@param t ltensor.Tensor
---@param dim? integer|ltensor.Shape a dim or a table of dims; none: every element
---@param unbiased? boolean
---@param keepdim? boolean
---@param opts? {correction:integer}
---@return ltensor.Scalar|ltensor.Tensor var
---@return ltensor.Scalar|ltensor.Tensor mean
function ltensor.var_mean(t, dim, unbiased, keepdim, opts) end

--- exp(t) / sum(exp(t)) along dim, max-shifted; integers need {dtype = }.
---@param dim integer
---@param opts? ltensor.DtypeOptions
---@return ltensor.Tensor
function Tensor:softmax(dim, opts) end
ltensor.softmax = Tensor.softmax

--- log(softmax(t)) along dim, computed stably; integers need {dtype = }.
---@param dim integer
---@param opts? ltensor.DtypeOptions
---@return ltensor.Tensor
function Tensor:log_softmax(dim, opts) end
ltensor.log_softmax = Tensor.log_softmax

--- The p-norm (default 2) of t - other: a Lua number.
---@param other ltensor.Tensor
---@param p? number
---@return number
function Tensor:dist(other, p) end
ltensor.dist = Tensor.dist

--- The sum of the main diagonal of a matrix: a Lua value, as t:sum() gives.
---@return ltensor.Scalar
function Tensor:trace() end

-- }======

-- {====== products ======

--- The matrix product as torch.matmul (1-d operands, broadcast batches); a BLAS for float and complex dtypes.
---@param other ltensor.Tensor
---@return ltensor.Tensor
function Tensor:matmul(other) end
ltensor.matmul = Tensor.matmul

--- The product of two matrices.
---@param mat2 ltensor.Tensor
---@return ltensor.Tensor
function Tensor:mm(mat2) end
ltensor.mm = Tensor.mm

--- Batched matrix products of two 3-d tensors (no broadcasting).
---@param mat2 ltensor.Tensor
---@return ltensor.Tensor
function Tensor:bmm(mat2) end
ltensor.bmm = Tensor.bmm

--- The product of a matrix and a vector.
---@param vec ltensor.Tensor
---@return ltensor.Tensor
function Tensor:mv(vec) end
ltensor.mv = Tensor.mv

--- The dot product of two 1-d tensors: a 0-d tensor.
---@param other ltensor.Tensor
---@return ltensor.Tensor
function Tensor:dot(other) end
ltensor.dot = Tensor.dot

--- beta * t + alpha * (mat1 @ mat2), both 1 by default.
---@param mat1 ltensor.Tensor
---@param mat2 ltensor.Tensor
---@param opts? {beta:number,alpha:number}
---@return ltensor.Tensor
function Tensor:addmm(mat1, mat2, opts) end
ltensor.addmm = Tensor.addmm

--- In place: addmm written into t.
---@param mat1 ltensor.Tensor
---@param mat2 ltensor.Tensor
---@param opts? {beta:number,alpha:number}
---@return ltensor.Tensor self
function Tensor:addmm_(mat1, mat2, opts) end

--- In place: t's view transposed (a 2-d tensor; 0-d and 1-d unchanged); its data stays.
---@return ltensor.Tensor self
function Tensor:t_() end
ltensor.t = Tensor.t

--- The outer product of two 1-d tensors: a matrix.
---@param other ltensor.Tensor
---@return ltensor.Tensor
function Tensor:outer(other) end
ltensor.outer = Tensor.outer

--- The cross product along dim (default: the first dim of size 3, as torch.cross).
---@param other ltensor.Tensor
---@param dim? integer
---@return ltensor.Tensor
function Tensor:cross(other, dim) end
ltensor.cross = Tensor.cross

-- }======

-- {====== solving and inverting (lt.linalg's, as Tensor methods) ======

--- The inverse of each square matrix, as torch.inverse (lt.linalg.inv).
---@return ltensor.Tensor
function Tensor:inverse() end
ltensor.inverse = Tensor.inverse

--- The determinant of each square matrix, as torch.det (lt.linalg.det).
---@return ltensor.Tensor
function Tensor:det() end
ltensor.det = Tensor.det

--- The log of the determinant of each square matrix, as torch.logdet: NaN for a negative
--- determinant, -inf for a singular matrix; complex for complex matrices.
---@return ltensor.Tensor
function Tensor:logdet() end
ltensor.logdet = Tensor.logdet

--- The sign and log |det| of each square matrix, as torch.slogdet (lt.linalg.slogdet).
---@return ltensor.Tensor sign
---@return ltensor.Tensor logabsdet
function Tensor:slogdet() end
ltensor.slogdet = Tensor.slogdet

--- t to the integer power n, as torch.matrix_power (lt.linalg.matrix_power).
---@param n integer
---@return ltensor.Tensor
function Tensor:matrix_power(n) end
ltensor.matrix_power = Tensor.matrix_power

-- }======

-- {====== matrix functions (lt.linalg's, as methods) ======

--- The matrix exponential of each square matrix of t (batched), as lt.linalg.matrix_exp.
---@return ltensor.Tensor
function Tensor:matrix_exp() end
ltensor.matrix_exp = Tensor.matrix_exp

-- }======

-- {====== decompositions ======

--- The pseudo-inverse, as torch.pinverse: lt.linalg.pinv with rtol rcond (default 1e-15).
---@param rcond? number
---@return ltensor.Tensor
function Tensor:pinverse(rcond) end
ltensor.pinverse = Tensor.pinverse

-- }======
