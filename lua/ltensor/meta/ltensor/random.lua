---@meta _
-- LuaLS definitions of random numbers (src/binding/lua_random.c; docs/GUIDE.md, "Random numbers"): the
-- Generator class, the module's seeding functions and lt.default_generator, the constructors
-- rand, randn, randint, randperm, normal, bernoulli, multinomial and the *_like ones, and the
-- in-place methods uniform_, normal_, random_ and bernoulli_ (each fills t and returns it).
-- Every function takes a trailing options table: `generator` (default: the process's
-- generator, lt.default_generator) and, where it makes a tensor, `dtype` (which may also come
-- positionally, before the options: `lt.rand(2, 3, "float64")`). Shapes are sizes or
-- one table, none being 0-d (randint(high, shape) takes a table). Integer ranges are
-- half-open, [low, high), and must fit the dtype. Conventions: see ../ltensor.lua. Nothing
-- requires this file.

---@class ltensor.Tensor
local Tensor = {}

---@class ltensor
---@field default_generator ltensor.Generator the process's generator, shared by every Lua state and thread; what every function draws from without {generator = g}
local ltensor = {}

--- The options of a random function that draws into an existing tensor or into one of a fixed
--- dtype: `{generator = g}`.
---@class ltensor.GeneratorOptions
---@field generator? ltensor.Generator the generator to draw from (default lt.default_generator)

--- The options of a random constructor: `{generator = g, dtype = "float64"}`.
---@class ltensor.RandomOptions: ltensor.GeneratorOptions
---@field dtype? ltensor.dtype the element type of the result

--- A Philox4x32-10 stream: a 64-bit seed and an offset counted in 128-bit blocks, the same on
--- every platform and at every thread count. Made by lt.Generator(seed); lt.default_generator
--- is the process's.
--- metamethod __tostring: `Generator(seed=S, offset=O)`
--- metafield __name: "ltensor.Generator"
--- metafield __metatable: "locked", what getmetatable(g) gives
---@class ltensor.Generator
local Generator = {}

-- {====== generators ======

--- A generator of its own, seeded with seed (default torch's, 67280421310721) at offset 0.
---@param seed? integer any integer, read as its 64 bits
---@return ltensor.Generator
function ltensor.Generator(seed) end

--- Reseeds the process's generator (offset 0) and returns it, lt.default_generator.
---@param seed integer any integer, read as its 64 bits (lt.initial_seed gives it back)
---@return ltensor.Generator
function ltensor.manual_seed(seed) end

--- Reseeds the process's generator with a fresh seed (from the clock, an address and a count)
--- below 2^63, and returns that seed.
---@return integer
function ltensor.seed() end

--- The seed the process's generator was last seeded with (torch's 67280421310721 in a fresh
--- process).
---@return integer
function ltensor.initial_seed() end

--- Reseeds g (offset 0) and returns g.
---@param seed integer any integer, read as its 64 bits
---@return ltensor.Generator self
function Generator:manual_seed(seed) end

--- Reseeds g with a fresh seed below 2^63 and returns that seed.
---@return integer
function Generator:seed() end

--- The seed g was last seeded with.
---@return integer
function Generator:initial_seed() end

--- g's state as a 16-byte string, `string.pack("<I8I8", seed, offset)`: set_state replays
--- from this point.
---@return string
function Generator:get_state() end

--- Restores a state get_state gave (any other size raises) and returns g.
---@param state string 16 bytes
---@return ltensor.Generator self
function Generator:set_state(state) end

-- }======

-- {====== constructors ======

--- Uniform draws from [0, 1) in a tensor of the given shape (none: 0-d), float32 unless a
--- floating dtype is given.
---@param ... integer|ltensor.Shape|ltensor.RandomOptions the sizes (or one shape table), then a dtype, then the options
---@return ltensor.Tensor
---@overload fun(shape:ltensor.Shape,opts?:ltensor.RandomOptions):ltensor.Tensor
function ltensor.rand(...) end

--- Standard normal draws (Box-Muller) in a tensor of the given shape (none: 0-d), float32
--- unless a floating dtype is given.
---@param ... integer|ltensor.Shape|ltensor.RandomOptions the sizes (or one shape table), then a dtype, then the options
---@return ltensor.Tensor
---@overload fun(shape:ltensor.Shape,opts?:ltensor.RandomOptions):ltensor.Tensor
function ltensor.randn(...) end

--- Normal draws of mean and std (non-negative): with numbers, in a tensor of the shape that
--- follows (none: 0-d), float32 unless a floating dtype is given; with a tensor for either
--- (or both), of their broadcast shape and no shape argument, in the first tensor's dtype
--- when it is floating (else float32).
---@param mean number|ltensor.Tensor
---@param std number|ltensor.Tensor
---@param ... integer|ltensor.Shape|ltensor.RandomOptions the sizes (or one shape table), then a dtype, then the options
---@return ltensor.Tensor
---@overload fun(mean:number,std:number,shape:ltensor.Shape,opts?:ltensor.RandomOptions):ltensor.Tensor
---@overload fun(mean:number|ltensor.Tensor,std:number|ltensor.Tensor,opts?:ltensor.RandomOptions):ltensor.Tensor
function ltensor.normal(mean, std, ...) end

--- Integers drawn from [low, high) in a tensor of the given shape (sizes or a table; an empty
--- table or none: 0-d), int64 unless a dtype is given (any real one, bool included, that
--- holds the range). `lt.randint(high, shape)` draws from [0, high) and takes its shape as a
--- table.
---@param low integer
---@param high integer above low
---@param ... integer|ltensor.Shape|ltensor.RandomOptions the sizes (or one shape table), then a dtype, then the options
---@return ltensor.Tensor
---@overload fun(high:integer,shape:ltensor.Shape,opts?:ltensor.RandomOptions):ltensor.Tensor
function ltensor.randint(low, high, ...) end

--- A random permutation of 1..n (Fisher-Yates), int64 unless an integer or floating dtype
--- that holds n is given.
---@param n integer non-negative
---@param dtype? ltensor.dtype
---@param opts? ltensor.RandomOptions
---@return ltensor.Tensor
function ltensor.randperm(n, dtype, opts) end

--- 1 with probability p[i], else 0, in p's dtype (floating) and shape; every p[i] in [0, 1].
---@param p ltensor.Tensor
---@param opts? ltensor.GeneratorOptions
---@return ltensor.Tensor
function ltensor.bernoulli(p, opts) end

--- n categories drawn by the weights of probs (floating, finite, non-negative, 1-d or one
--- distribution per row of a 2-d one), 1-based, int64 of shape (n) or (rows, n). Without
--- replacement (the default) n must not exceed a row's nonzero weights; the draws come out in
--- decreasing order of their keys (Efraimidis-Spirakis).
---@param probs ltensor.Tensor
---@param n integer positive
---@param replacement? boolean default false
---@param opts? ltensor.GeneratorOptions
---@return ltensor.Tensor
function ltensor.multinomial(probs, n, replacement, opts) end

--- Uniform draws from [0, 1) of t's shape, in t's dtype (which must be floating) unless a
--- floating dtype is given.
---@param t ltensor.Tensor
---@param dtype? ltensor.dtype
---@param opts? ltensor.RandomOptions
---@return ltensor.Tensor
function ltensor.rand_like(t, dtype, opts) end

--- Standard normal draws of t's shape, in t's dtype (which must be floating) unless a floating
--- dtype is given.
---@param t ltensor.Tensor
---@param dtype? ltensor.dtype
---@param opts? ltensor.RandomOptions
---@return ltensor.Tensor
function ltensor.randn_like(t, dtype, opts) end

--- Integers drawn from [low, high) (low 0 when only high is given) of t's shape, in t's dtype
--- unless a dtype is given; the range must fit that dtype.
---@param t ltensor.Tensor
---@param low integer
---@param high integer above low
---@param dtype? ltensor.dtype
---@param opts? ltensor.RandomOptions
---@return ltensor.Tensor
---@overload fun(t:ltensor.Tensor,high:integer,dtype?:ltensor.dtype,opts?:ltensor.RandomOptions):ltensor.Tensor
function ltensor.randint_like(t, low, high, dtype, opts) end

-- }======

-- {====== in place ======

--- In place: fills a floating t with uniform draws from [a, b), default [0, 1) (b at least a).
--- As torch, a and b must be finite and within t's dtype, and b - a at most its largest value.
---@param a? number default 0
---@param b? number default 1
---@param opts? ltensor.GeneratorOptions
---@return ltensor.Tensor self
function Tensor:uniform_(a, b, opts) end

--- In place: fills a floating t with normal draws of mean (default 0) and std (default 1,
--- non-negative).
---@param mean? number default 0
---@param std? number default 1
---@param opts? ltensor.GeneratorOptions
---@return ltensor.Tensor self
function Tensor:normal_(mean, std, opts) end

--- In place: fills a real t with integers from [0, the largest integer its dtype holds]
--- (uint64: 2^63 - 1; floating: 2^digits, 2^24 for float32, 2^53 for float64; bool: 0 or 1);
--- `t:random_(to)` from [0, to), `t:random_(from, to)` from [from, to), which must fit t's dtype.
---@param from? integer with to: the lowest value; alone, it is to
---@param to? integer above from
---@param opts? ltensor.GeneratorOptions
---@return ltensor.Tensor self
---@overload fun(to:integer,opts?:ltensor.GeneratorOptions):ltensor.Tensor
function Tensor:random_(from, to, opts) end

--- In place: fills t with 1 with probability p (a number in [0, 1], default 0.5, or a real
--- tensor broadcast to t's shape), else 0.
---@param p? number|ltensor.Tensor default 0.5
---@param opts? ltensor.GeneratorOptions
---@return ltensor.Tensor self
function Tensor:bernoulli_(p, opts) end

-- }======
