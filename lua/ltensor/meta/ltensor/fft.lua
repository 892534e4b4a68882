---@meta ltensor.fft
-- LuaLS definitions of `lt.fft` (also `require "ltensor.fft"`): discrete Fourier transforms with
-- torch.fft's names, positional order, defaults and result dtypes. Dims are 1-based (negative
-- from the end); `s` and `dim` lists are Lua sequences; torch's keywords may instead come in a
-- trailing options table (`lt.fft.rfft(x, {n = 64, norm = "ortho"})`). bool and integer inputs
-- compute as float32; float32 / float64 give complex64 / complex128 (irfft and hfft give real
-- results); float16 and bfloat16 are refused, as torch 1.13 refuses them on the CPU. A signal
-- size larger than the input pads it with zeros, a smaller one trims it. norm is "backward"
-- (the default: the inverse transforms carry 1/n), "ortho" (1/sqrt(n) both ways) or "forward"
-- (the forward transforms carry 1/n). Every result is a new tensor; any view of any layout may
-- be the input.

---@class ltensor.fft
local fft = {}

---@alias ltensor.fft.norm "backward"|"ortho"|"forward"

---@class ltensor.fft.Options1
---@field n? integer the signal size along dim (the input's size)
---@field dim? integer the dim transformed (-1)
---@field norm? ltensor.fft.norm the scaling ("backward")

---@class ltensor.fft.OptionsN
---@field s? integer[] the signal size along each dim (-1: the input's)
---@field dim? integer|integer[] the dims transformed
---@field norm? ltensor.fft.norm the scaling ("backward")

-- {====== one dim ======

--- The discrete Fourier transform along dim, as torch.fft.fft:
--- X[k] = sum_j x[j] exp(-2 pi i j k / n) over n points (the input padded with zeros or trimmed).
---@param input ltensor.Tensor
---@param n? integer|ltensor.fft.Options1 the signal size along dim, or the options table
---@param dim? integer|ltensor.fft.Options1 the dim (-1), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.Options1 the scaling, or the options table
---@param opts? ltensor.fft.Options1
---@return ltensor.Tensor
function fft.fft(input, n, dim, norm, opts) end

--- The inverse transform along dim, as torch.fft.ifft: x[j] = 1/n sum_k X[k] exp(2 pi i j k / n)
--- (norm "backward"); ifft(fft(x)) is x.
---@param input ltensor.Tensor
---@param n? integer|ltensor.fft.Options1 the signal size along dim, or the options table
---@param dim? integer|ltensor.fft.Options1 the dim (-1), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.Options1 the scaling, or the options table
---@param opts? ltensor.fft.Options1
---@return ltensor.Tensor
function fft.ifft(input, n, dim, norm, opts) end

--- The transform of a real signal along dim, as torch.fft.rfft: its n / 2 + 1 non-negative
--- frequencies (the others are their conjugates). Complex inputs raise.
---@param input ltensor.Tensor
---@param n? integer|ltensor.fft.Options1 the signal size along dim, or the options table
---@param dim? integer|ltensor.fft.Options1 the dim (-1), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.Options1 the scaling, or the options table
---@param opts? ltensor.fft.Options1
---@return ltensor.Tensor
function fft.rfft(input, n, dim, norm, opts) end

--- The inverse of rfft, as torch.fft.irfft: the half spectrum (n / 2 + 1 points read) of a
--- real signal of n points (default 2 (m - 1) for m input points) gives that real signal.
---@param input ltensor.Tensor
---@param n? integer|ltensor.fft.Options1 the signal size along dim, or the options table
---@param dim? integer|ltensor.fft.Options1 the dim (-1), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.Options1 the scaling, or the options table
---@param opts? ltensor.fft.Options1
---@return ltensor.Tensor
function fft.irfft(input, n, dim, norm, opts) end

--- The transform of a Hermitian-symmetric signal given by its first half, as torch.fft.hfft:
--- a real spectrum of n points (default 2 (m - 1)); irfft's sum with the forward sign and scale.
---@param input ltensor.Tensor
---@param n? integer|ltensor.fft.Options1 the signal size along dim, or the options table
---@param dim? integer|ltensor.fft.Options1 the dim (-1), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.Options1 the scaling, or the options table
---@param opts? ltensor.fft.Options1
---@return ltensor.Tensor
function fft.hfft(input, n, dim, norm, opts) end

--- The inverse of hfft, as torch.fft.ihfft: the n / 2 + 1 first points of the inverse transform
--- of a real signal (the conjugate of rfft's, over n with norm "backward"). Complex inputs raise.
---@param input ltensor.Tensor
---@param n? integer|ltensor.fft.Options1 the signal size along dim, or the options table
---@param dim? integer|ltensor.fft.Options1 the dim (-1), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.Options1 the scaling, or the options table
---@param opts? ltensor.fft.Options1
---@return ltensor.Tensor
function fft.ihfft(input, n, dim, norm, opts) end

-- }======

-- {====== two and more dims ======

--- The transform over two dims, as torch.fft.fft2: fftn with dim {-2, -1}.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims ({-2, -1}), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.fft2(input, s, dim, norm, opts) end

--- The inverse transform over two dims, as torch.fft.ifft2.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims ({-2, -1}), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.ifft2(input, s, dim, norm, opts) end

--- rfftn over two dims, as torch.fft.rfft2: the last one halved.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims ({-2, -1}), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.rfft2(input, s, dim, norm, opts) end

--- irfftn over two dims, as torch.fft.irfft2.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims ({-2, -1}), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.irfft2(input, s, dim, norm, opts) end

--- The transform over each of the dims, as torch.fft.fftn (without dim: the last #s dims when s
--- is given, else every dim; an empty dim list gives the input as complex).
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims (every dim), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.fftn(input, s, dim, norm, opts) end

--- The inverse transform over each of the dims, as torch.fft.ifftn.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims (every dim), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.ifftn(input, s, dim, norm, opts) end

--- The transform of a real input over the dims, as torch.fft.rfftn: the last dim halved to
--- s[#s] / 2 + 1 points, the others complete.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims (every dim), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.rfftn(input, s, dim, norm, opts) end

--- The inverse of rfftn, as torch.fft.irfftn: a real result, the last dim of s[#s] points
--- (default 2 (m - 1)).
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims (every dim), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.irfftn(input, s, dim, norm, opts) end

--- hfftn over two dims, as torch.fft.hfft2.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims ({-2, -1}), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.hfft2(input, s, dim, norm, opts) end

--- ihfftn over two dims, as torch.fft.ihfft2.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims ({-2, -1}), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.ihfft2(input, s, dim, norm, opts) end

--- The n-d hfft, as torch.fft.hfftn: the input is the half (last dim) of a Hermitian-symmetric
--- signal; a real result, the last dim of s[#s] points (default 2 (m - 1)).
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims (every dim), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.hfftn(input, s, dim, norm, opts) end

--- The inverse of hfftn, as torch.fft.ihfftn: a real input, the last dim halved to s[#s] / 2 + 1
--- points. Complex inputs raise.
---@param input ltensor.Tensor
---@param s? integer[]|ltensor.fft.OptionsN the signal sizes (-1: the input's), or the options table
---@param dim? integer|integer[]|ltensor.fft.OptionsN the dims (every dim), or the options table
---@param norm? ltensor.fft.norm|ltensor.fft.OptionsN the scaling, or the options table
---@param opts? ltensor.fft.OptionsN
---@return ltensor.Tensor
function fft.ihfftn(input, s, dim, norm, opts) end

-- }======

-- {====== frequencies and shifts ======

--- The sample frequencies of an n-point transform, as torch.fft.fftfreq:
--- {0, 1, ..., ceil(n / 2) - 1, -floor(n / 2), ..., -1} / (d n), in {dtype = } (float32; a
--- floating-point or complex dtype).
---@param n integer
---@param d? number|ltensor.DtypeOptions the sample spacing (1), or the options table
---@param opts? ltensor.DtypeOptions
---@return ltensor.Tensor
function fft.fftfreq(n, d, opts) end

--- The n / 2 + 1 non-negative sample frequencies of rfft, as torch.fft.rfftfreq: {0, 1, ...,
--- floor(n / 2)} / (d n).
---@param n integer
---@param d? number|ltensor.DtypeOptions the sample spacing (1), or the options table
---@param opts? ltensor.DtypeOptions
---@return ltensor.Tensor
function fft.rfftfreq(n, d, opts) end

--- A copy with frequency 0 moved to the middle, as torch.fft.fftshift: each of the dims (default
--- every dim) rolled by half its size.
---@param input ltensor.Tensor
---@param dim? integer|integer[]|{dim?:integer|integer[]} the dims, or the options table
---@return ltensor.Tensor
function fft.fftshift(input, dim) end

--- The inverse of fftshift, as torch.fft.ifftshift (the two differ for odd sizes).
---@param input ltensor.Tensor
---@param dim? integer|integer[]|{dim?:integer|integer[]} the dims, or the options table
---@return ltensor.Tensor
function fft.ifftshift(input, dim) end

-- }======
