---@meta ltensor.nn.functional
-- LuaLS definitions of `lt.nn.functional` (also `require "ltensor.nn.functional"`): the
-- neural-network functions with torch.nn.functional's names, positional order, defaults and
-- shapes (batch first: N x C x ...); keyword arguments go in a trailing options table
-- (`F.conv2d(x, w, b, {stride = 2, padding = "same"})`). float32 and float64 (float16 and
-- bfloat16 compute in float32). Class indices (cross_entropy, nll_loss, embedding, one_hot) are
-- 1-based, as every position in ltensor.

--- The namespace `lt.nn`: `functional` only, as the part of torch.nn without modules.
---@class ltensor.nn
---@field functional ltensor.nn.functional torch.nn.functional's functions

---@class ltensor.nn.functional
local F = {}

-- {====== convolutions and pooling ======
-- Inputs are batched (N, C, *) or unbatched (C, *); size arguments (kernel_size, stride,
-- padding, dilation, output_size) are an integer or an array of one per spatial dim. Every
-- optional argument may instead come in the trailing options table under torch's keyword name
-- (not both). Convolutions lay the input's patches out as columns (im2col) feeding one matrix
-- product per sample and group (the BLAS where there is one); 3x3 kernels at stride 1 with 16
-- channels or more go through Winograd's F(2x2, 3x3) (16 products per 4 outputs instead of 36;
-- float32 results differ from the direct sum by rounding), depthwise ones through a direct
-- kernel. float32 and float64; float16 and
-- bfloat16 compute in float32 and return their dtype; integer inputs raise. The weight and
-- bias must have the input's dtype.

--- 1-d convolution of input (N, C_in, L) by weight (C_out, C_in / groups, k), plus bias
--- (C_out); padding an integer, an array, "same" (stride 1: the output keeps L) or "valid" (0).
---@param input ltensor.Tensor
---@param weight ltensor.Tensor
---@param bias? ltensor.Tensor
---@param stride? integer|integer[]
---@param padding? integer|integer[]|string
---@param dilation? integer|integer[]
---@param groups? integer
---@param opts? {bias: ltensor.Tensor, stride: integer|integer[], padding: integer|integer[]|string, dilation: integer|integer[], groups: integer}
---@return ltensor.Tensor # (N, C_out, L_out)
function F.conv1d(input, weight, bias, stride, padding, dilation, groups, opts) end

--- 2-d convolution of input (N, C_in, H, W) by weight (C_out, C_in / groups, kH, kW), plus bias
--- (C_out), as torch.nn.functional.conv2d; groups = C_in is a depthwise convolution.
---@param input ltensor.Tensor
---@param weight ltensor.Tensor
---@param bias? ltensor.Tensor
---@param stride? integer|integer[]
---@param padding? integer|integer[]|string
---@param dilation? integer|integer[]
---@param groups? integer
---@param opts? {bias: ltensor.Tensor, stride: integer|integer[], padding: integer|integer[]|string, dilation: integer|integer[], groups: integer}
---@return ltensor.Tensor # (N, C_out, H_out, W_out)
function F.conv2d(input, weight, bias, stride, padding, dilation, groups, opts) end

--- 3-d convolution of input (N, C_in, D, H, W) by weight (C_out, C_in / groups, kD, kH, kW).
---@param input ltensor.Tensor
---@param weight ltensor.Tensor
---@param bias? ltensor.Tensor
---@param stride? integer|integer[]
---@param padding? integer|integer[]|string
---@param dilation? integer|integer[]
---@param groups? integer
---@param opts? {bias: ltensor.Tensor, stride: integer|integer[], padding: integer|integer[]|string, dilation: integer|integer[], groups: integer}
---@return ltensor.Tensor # (N, C_out, D_out, H_out, W_out)
function F.conv3d(input, weight, bias, stride, padding, dilation, groups, opts) end

--- 1-d transposed convolution ("deconvolution") of input (N, C_in, L) by weight
--- (C_in, C_out / groups, k): L_out = (L - 1) stride - 2 padding + dilation (k - 1) +
--- output_padding + 1; output_padding must be below stride or dilation. Note torch's order:
--- groups before dilation.
---@param input ltensor.Tensor
---@param weight ltensor.Tensor
---@param bias? ltensor.Tensor
---@param stride? integer|integer[]
---@param padding? integer|integer[]
---@param output_padding? integer|integer[]
---@param groups? integer
---@param dilation? integer|integer[]
---@param opts? {bias: ltensor.Tensor, stride: integer|integer[], padding: integer|integer[], output_padding: integer|integer[], groups: integer, dilation: integer|integer[]}
---@return ltensor.Tensor # (N, C_out, L_out)
function F.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation, opts) end

--- 2-d transposed convolution of input (N, C_in, H, W) by weight (C_in, C_out / groups, kH, kW),
--- each output size as conv_transpose1d's.
---@param input ltensor.Tensor
---@param weight ltensor.Tensor
---@param bias? ltensor.Tensor
---@param stride? integer|integer[]
---@param padding? integer|integer[]
---@param output_padding? integer|integer[]
---@param groups? integer
---@param dilation? integer|integer[]
---@param opts? {bias: ltensor.Tensor, stride: integer|integer[], padding: integer|integer[], output_padding: integer|integer[], groups: integer, dilation: integer|integer[]}
---@return ltensor.Tensor # (N, C_out, H_out, W_out)
function F.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation, opts) end

--- Sliding local blocks (im2col) of input (N, C, H, W): (N, C kH kW, L), L the number of blocks;
--- column l holds block l's values channel by channel, each in row-major kernel order.
---@param input ltensor.Tensor
---@param kernel_size integer|integer[]
---@param dilation? integer|integer[]
---@param padding? integer|integer[]
---@param stride? integer|integer[]
---@param opts? {kernel_size: integer|integer[], dilation: integer|integer[], padding: integer|integer[], stride: integer|integer[]}
---@return ltensor.Tensor
function F.unfold(input, kernel_size, dilation, padding, stride, opts) end

--- The inverse layout of unfold (col2im): blocks (N, C kH kW, L) summed into
--- (N, C, output_size[1], output_size[2]) (overlapping values add up).
---@param input ltensor.Tensor
---@param output_size integer|integer[]
---@param kernel_size integer|integer[]
---@param dilation? integer|integer[]
---@param padding? integer|integer[]
---@param stride? integer|integer[]
---@param opts? {output_size: integer|integer[], kernel_size: integer|integer[], dilation: integer|integer[], padding: integer|integer[], stride: integer|integer[]}
---@return ltensor.Tensor
function F.fold(input, output_size, kernel_size, dilation, padding, stride, opts) end

--- 1-d max pooling of input (N, C, L): stride defaults to kernel_size, padding (at most half the
--- kernel) counts as -inf, ceil_mode rounds the output size up. With return_indices, also the
--- int64 1-based positions of the maxima along L (torch's + 1). A NaN in a window is its max.
---@param input ltensor.Tensor
---@param kernel_size integer|integer[]
---@param stride? integer|integer[]
---@param padding? integer|integer[]
---@param dilation? integer|integer[]
---@param ceil_mode? boolean
---@param return_indices? boolean
---@param opts? {kernel_size: integer|integer[], stride: integer|integer[], padding: integer|integer[], dilation: integer|integer[], ceil_mode: boolean, return_indices: boolean}
---@return ltensor.Tensor values
---@return ltensor.Tensor? indices # with return_indices
function F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, opts) end

--- 2-d max pooling of input (N, C, H, W), as max_pool1d; indices are the 1-based flat positions
--- h W + w + 1 of the maxima within each (N, C) plane of H x W (torch's + 1), usable with
--- `input:flatten(-2):gather(-1, indices:flatten(-2))`.
---@param input ltensor.Tensor
---@param kernel_size integer|integer[]
---@param stride? integer|integer[]
---@param padding? integer|integer[]
---@param dilation? integer|integer[]
---@param ceil_mode? boolean
---@param return_indices? boolean
---@param opts? {kernel_size: integer|integer[], stride: integer|integer[], padding: integer|integer[], dilation: integer|integer[], ceil_mode: boolean, return_indices: boolean}
---@return ltensor.Tensor values
---@return ltensor.Tensor? indices # with return_indices
function F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, opts) end

--- 1-d average pooling of input (N, C, L): stride defaults to kernel_size; count_include_pad
--- (default true) divides by the window including its padding, else by the elements it covers.
---@param input ltensor.Tensor
---@param kernel_size integer|integer[]
---@param stride? integer|integer[]
---@param padding? integer|integer[]
---@param ceil_mode? boolean
---@param count_include_pad? boolean
---@param opts? {kernel_size: integer|integer[], stride: integer|integer[], padding: integer|integer[], ceil_mode: boolean, count_include_pad: boolean}
---@return ltensor.Tensor
function F.avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, opts) end

--- 2-d average pooling of input (N, C, H, W), as avg_pool1d; divisor_override (a positive
--- integer) divides every window's sum instead.
---@param input ltensor.Tensor
---@param kernel_size integer|integer[]
---@param stride? integer|integer[]
---@param padding? integer|integer[]
---@param ceil_mode? boolean
---@param count_include_pad? boolean
---@param divisor_override? integer
---@param opts? {kernel_size: integer|integer[], stride: integer|integer[], padding: integer|integer[], ceil_mode: boolean, count_include_pad: boolean, divisor_override: integer}
---@return ltensor.Tensor
function F.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, opts) end

--- Average pooling of input (N, C, L) to output_size positions: window o covers
--- [floor(o L / out), ceil((o + 1) L / out)).
---@param input ltensor.Tensor
---@param output_size integer|integer[]
---@param opts? {output_size: integer|integer[]}
---@return ltensor.Tensor
function F.adaptive_avg_pool1d(input, output_size, opts) end

--- Average pooling of input (N, C, H, W) to output_size (an integer or {oH, oW}).
---@param input ltensor.Tensor
---@param output_size integer|integer[]
---@param opts? {output_size: integer|integer[]}
---@return ltensor.Tensor
function F.adaptive_avg_pool2d(input, output_size, opts) end

--- Max pooling of input (N, C, L) to output_size positions (windows as adaptive_avg_pool1d);
--- with return_indices also the 1-based positions of the maxima.
---@param input ltensor.Tensor
---@param output_size integer|integer[]
---@param return_indices? boolean
---@param opts? {output_size: integer|integer[], return_indices: boolean}
---@return ltensor.Tensor values
---@return ltensor.Tensor? indices # with return_indices
function F.adaptive_max_pool1d(input, output_size, return_indices, opts) end

--- Max pooling of input (N, C, H, W) to output_size; indices as max_pool2d's (1-based flat
--- positions within each plane).
---@param input ltensor.Tensor
---@param output_size integer|integer[]
---@param return_indices? boolean
---@param opts? {output_size: integer|integer[], return_indices: boolean}
---@return ltensor.Tensor values
---@return ltensor.Tensor? indices # with return_indices
function F.adaptive_max_pool2d(input, output_size, return_indices, opts) end

-- }======
