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

-- {====== linear, normalization, resizing, attention ======

---@class ltensor.nn.DropoutOptions
---@field p? number the probability of zeroing an element (0.5)
---@field training? boolean false: the input itself is returned (true)
---@field inplace? boolean write the input itself (false)
---@field generator? ltensor.Generator the stream the zeros are drawn from (the process's)

---@class ltensor.nn.AttentionOptions
---@field attn_mask? ltensor.Tensor a bool mask (true: takes part) or a float one added to the scores
---@field dropout_p? number dropout on the attention weights (0)
---@field is_causal? boolean attend only to positions at or before one's own (false)
---@field scale? number the scores' factor (1 / sqrt(E))

--- x (..., in) times weight^T (weight (out, in), or (in)), plus bias (out), as
--- torch.nn.functional.linear: one product through the BLAS. input, weight and bias of one
--- dtype (integers too, as torch).
---@param input ltensor.Tensor (..., in)
---@param weight ltensor.Tensor (out, in)
---@param bias? ltensor.Tensor|{bias?:ltensor.Tensor} (out), or the options table
---@return ltensor.Tensor
function F.linear(input, weight, bias) end

--- y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o], as
--- torch.nn.functional.bilinear.
---@param input1 ltensor.Tensor (..., in1)
---@param input2 ltensor.Tensor (..., in2), the same leading dims
---@param weight ltensor.Tensor (out, in1, in2)
---@param bias? ltensor.Tensor|{bias?:ltensor.Tensor} (out), or the options table
---@return ltensor.Tensor
function F.bilinear(input1, input2, weight, bias) end

--- Pads input, as torch.nn.functional.pad: pad holds (left, right) sizes of the last dim first,
--- then of the dim before, ... Mode "constant" writes value (default 0; negative sizes crop, any
--- dtype); "reflect" (pads below the size), "replicate" and "circular" (pads at most the size)
--- pad the last 1, 2 or 3 dims of an input with 1 or 2 dims more, and take no value.
---@param input ltensor.Tensor
---@param pad integer[] an even number of sizes
---@param mode? "constant"|"reflect"|"replicate"|"circular"|{mode?:string,value?:number}
---@param value? number|{value?:number} the constant (default 0)
---@return ltensor.Tensor
function F.pad(input, pad, mode, value) end

--- Resamples the spatial dims of input (N, C, d1 [, d2 [, d3]]), as
--- torch.nn.functional.interpolate: to size, or by scale_factor (output size floor(d * factor);
--- the factor also places the samples unless recompute_scale_factor), exactly one given, a
--- number or one per spatial dim. Modes "nearest" (default), "nearest-exact", "linear" (3-d),
--- "bilinear" (4-d), "trilinear" (5-d), "bicubic" (4-d) and "area" (adaptive average pooling);
--- align_corners (false) for the linear and cubic ones only. antialias (false) for "bilinear"
--- and "bicubic": downsampling filters every input sample an output covers (torch's filters,
--- as Pillow's), not only the nearest two or four.
--- Floating inputs; the nearest modes take any dtype (uint8 images, int64 labels, bool masks:
--- samples copied, as torch for uint8). An empty batch gives an empty result.
---@param input ltensor.Tensor (N, C, ...)
---@param size? integer|integer[]|{size?:integer|integer[],scale_factor?:number|number[],mode?:string,align_corners?:boolean,recompute_scale_factor?:boolean,antialias?:boolean}
---@param scale_factor? number|number[]
---@param mode? "nearest"|"nearest-exact"|"linear"|"bilinear"|"trilinear"|"bicubic"|"area"
---@param align_corners? boolean
---@param recompute_scale_factor? boolean
---@param antialias? boolean
---@return ltensor.Tensor
function F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias) end

--- Batch normalization of input (N, C, ...) per channel, as torch.nn.functional.batch_norm:
--- (x - mean) / sqrt(var + eps) * weight + bias. Not training: the running statistics (both
--- required). Training: the batch's (more than one value per channel), and running_mean and
--- running_var, when given, updated in place: (1 - momentum) old + momentum new (the unbiased
--- variance).
---@param input ltensor.Tensor (N, C, ...)
---@param running_mean? ltensor.Tensor|{running_mean?:ltensor.Tensor,running_var?:ltensor.Tensor,weight?:ltensor.Tensor,bias?:ltensor.Tensor,training?:boolean,momentum?:number,eps?:number} (C)
---@param running_var? ltensor.Tensor (C)
---@param weight? ltensor.Tensor (C)
---@param bias? ltensor.Tensor (C)
---@param training? boolean (false)
---@param momentum? number (0.1)
---@param eps? number (1e-5)
---@return ltensor.Tensor
function F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps) end

--- Normalizes over the last dims of input, which must be normalized_shape, as
--- torch.nn.functional.layer_norm: (x - mean) / sqrt(var + eps) * weight + bias.
---@param input ltensor.Tensor
---@param normalized_shape integer|integer[]
---@param weight? ltensor.Tensor|{weight?:ltensor.Tensor,bias?:ltensor.Tensor,eps?:number} of normalized_shape
---@param bias? ltensor.Tensor of normalized_shape
---@param eps? number (1e-5)
---@return ltensor.Tensor
function F.layer_norm(input, normalized_shape, weight, bias, eps) end

--- Normalizes input (N, C, ...) in num_groups groups of channels, as
--- torch.nn.functional.group_norm, then weight and bias per channel.
---@param input ltensor.Tensor (N, C, ...)
---@param num_groups integer dividing C
---@param weight? ltensor.Tensor|{weight?:ltensor.Tensor,bias?:ltensor.Tensor,eps?:number} (C)
---@param bias? ltensor.Tensor (C)
---@param eps? number (1e-5)
---@return ltensor.Tensor
function F.group_norm(input, num_groups, weight, bias, eps) end

--- x * rsqrt(mean(x^2) + eps) * weight over the last dims (normalized_shape), as torch 2.x's
--- torch.nn.functional.rms_norm; eps nil: the machine epsilon of input's dtype.
---@param input ltensor.Tensor
---@param normalized_shape integer|integer[]
---@param weight? ltensor.Tensor|{weight?:ltensor.Tensor,eps?:number} of normalized_shape
---@param eps? number
---@return ltensor.Tensor
function F.rms_norm(input, normalized_shape, weight, eps) end

--- The rows of weight (num_embeddings, dim) at the 1-based indices input (int64 or int32, any
--- shape): input.shape + (dim), as torch.nn.functional.embedding. padding_idx (1-based, or
--- negative from the end) only matters to gradients and is checked; with max_norm the rows
--- named whose norm_type-norm exceeds it are scaled to it in weight itself first.
---@param input ltensor.Tensor indices, 1-based
---@param weight ltensor.Tensor (num_embeddings, dim)
---@param padding_idx? integer|{padding_idx?:integer,max_norm?:number,norm_type?:number,scale_grad_by_freq?:boolean,sparse?:boolean}
---@param max_norm? number
---@param norm_type? number (2)
---@param scale_grad_by_freq? boolean gradients only
---@param sparse? boolean gradients only
---@return ltensor.Tensor
function F.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse) end

--- Zeroes each element with probability p and scales the others by 1 / (1 - p), as
--- torch.nn.functional.dropout; training false or p 0 returns input itself, inplace writes it.
--- {generator = g} draws from g (ltensor's Generator, not torch's stream).
---@param input ltensor.Tensor floating
---@param p? number|ltensor.nn.DropoutOptions (0.5)
---@param training? boolean (true)
---@param inplace? boolean (false)
---@param opts? ltensor.nn.DropoutOptions
---@return ltensor.Tensor
function F.dropout(input, p, training, inplace, opts) end

--- softmax(query key^T * scale + mask) value, as torch 2.x's
--- torch.nn.functional.scaled_dot_product_attention: query (..., L, E), key (..., S, E),
--- value (..., S, Ev), batch dims broadcast. attn_mask: bool (true: take part) or floating
--- (added), broadcast to (..., L, S); is_causal keeps the lower triangle (not with a mask); a
--- row with every key masked gives NaN. scale only in the options table.
---@param query ltensor.Tensor (..., L, E)
---@param key ltensor.Tensor (..., S, E)
---@param value ltensor.Tensor (..., S, Ev)
---@param attn_mask? ltensor.Tensor|ltensor.nn.AttentionOptions
---@param dropout_p? number (0)
---@param is_causal? boolean (false)
---@param opts? ltensor.nn.AttentionOptions
---@return ltensor.Tensor
function F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, opts) end

--- One-hot rows, as torch.nn.functional.one_hot with 1-based classes: class value k gives a 1
--- in column k of an int64 tensor tensor.shape + (num_classes); num_classes -1 (default): the
--- largest value. Values outside 1 .. num_classes raise.
---@param tensor ltensor.Tensor int64 class values, 1-based
---@param num_classes? integer|{num_classes?:integer}
---@return ltensor.Tensor
function F.one_hot(tensor, num_classes) end

--- input / max(||input||_p along dim, eps), as torch.nn.functional.normalize (dim 2 by default:
--- torch's dim=1).
---@param input ltensor.Tensor
---@param p? number|{p?:number,dim?:integer,eps?:number} (2)
---@param dim? integer 1-based (2)
---@param eps? number (1e-12)
---@return ltensor.Tensor
function F.normalize(input, p, dim, eps) end

--- sum(x1 x2) / sqrt(max(sum(x1^2), eps^2) max(sum(x2^2), eps^2)) along dim, x1 and x2
--- broadcast, as torch.nn.functional.cosine_similarity (dim 2 by default: torch's dim=1).
---@param x1 ltensor.Tensor
---@param x2 ltensor.Tensor
---@param dim? integer|{dim?:integer,eps?:number} 1-based (2)
---@param eps? number (1e-8)
---@return ltensor.Tensor
function F.cosine_similarity(x1, x2, dim, eps) end

--- The p-norm of x1 - x2 + eps along the last dim, as torch.nn.functional.pairwise_distance.
---@param x1 ltensor.Tensor
---@param x2 ltensor.Tensor
---@param p? number|{p?:number,eps?:number,keepdim?:boolean} (2)
---@param eps? number (1e-6)
---@param keepdim? boolean (false)
---@return ltensor.Tensor
function F.pairwise_distance(x1, x2, p, eps, keepdim) end

-- }======

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

-- {====== activations and losses ======
-- Every optional argument comes positionally, in torch's order, or under torch's name in a
-- trailing options table (`F.leaky_relu(x, 0.2)`, `F.leaky_relu(x, {negative_slope = 0.2})`),
-- not both. `inplace = true` writes the result into the input and returns it. Activations keep
-- the input's dtype (float16 and bfloat16 compute in float32) and refuse integers unless said.
-- Losses return a 0-d tensor (reduction "mean", the default, or "sum"), or the elementwise
-- losses (reduction "none"); torch's deprecated size_average and reduce are honoured as torch
-- honours them. Sums are taken in double.

--- max(x, 0), NaN kept; integers too.
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.relu(input, inplace) end

--- min(max(x, 0), 6); integers too (bool refused).
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.relu6(input, inplace) end

--- scale * (x > 0 ? x : alpha * (exp(x) - 1)) with torch's constants (1.0507..., 1.6732...).
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.selu(input, inplace) end

--- x > 0 ? x : alpha * (exp(x / alpha) - 1); alpha 0 raises.
---@param input ltensor.Tensor
---@param alpha? number default 1
---@param inplace? boolean
---@return ltensor.Tensor
function F.celu(input, alpha, inplace) end

--- x > 0 ? x : alpha * (exp(x) - 1).
---@param input ltensor.Tensor
---@param alpha? number default 1
---@param inplace? boolean
---@return ltensor.Tensor
function F.elu(input, alpha, inplace) end

--- x > 0 ? x : negative_slope * x.
---@param input ltensor.Tensor
---@param negative_slope? number default 0.01
---@param inplace? boolean
---@return ltensor.Tensor
function F.leaky_relu(input, negative_slope, inplace) end

--- The Gaussian error linear unit, exact (erf) or with approximate = "tanh".
---@param input ltensor.Tensor
---@param approximate? string "none" (default) or "tanh"
---@return ltensor.Tensor
function F.gelu(input, approximate) end

--- x * sigmoid(x).
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.silu(input, inplace) end

--- x * tanh(softplus(x)).
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.mish(input, inplace) end

--- x * relu6(x + 3) / 6.
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.hardswish(input, inplace) end

--- relu6(x + 3) / 6.
---@param input ltensor.Tensor
---@param inplace? boolean
---@return ltensor.Tensor
function F.hardsigmoid(input, inplace) end

--- min(max(x, min_val), max_val), NaN kept; integers too (the limits truncated, raising beyond
--- the dtype's range).
---@param input ltensor.Tensor
---@param min_val? number default -1
---@param max_val? number default 1
---@param inplace? boolean
---@return ltensor.Tensor
function F.hardtanh(input, min_val, max_val, inplace) end

--- log(1 + exp(beta * x)) / beta, or x where beta * x > threshold.
---@param input ltensor.Tensor
---@param beta? number default 1
---@param threshold? number default 20
---@return ltensor.Tensor
function F.softplus(input, beta, threshold) end

--- x <= threshold ? value : x; integers too.
---@param input ltensor.Tensor
---@param threshold number
---@param value number
---@param inplace? boolean
---@return ltensor.Tensor
function F.threshold(input, threshold, value, inplace) end

--- 1 / (1 + exp(-x)); integers and bool give float32.
---@param input ltensor.Tensor
---@return ltensor.Tensor
function F.sigmoid(input) end

--- tanh(x); integers and bool give float32.
---@param input ltensor.Tensor
---@return ltensor.Tensor
function F.tanh(input) end

--- log(sigmoid(x)), stable for large |x|.
---@param input ltensor.Tensor
---@return ltensor.Tensor
function F.logsigmoid(input) end

--- x / (1 + |x|); integers give float32.
---@param input ltensor.Tensor
---@return ltensor.Tensor
function F.softsign(input) end

--- x - tanh(x); integers give float32.
---@param input ltensor.Tensor
---@return ltensor.Tensor
function F.tanhshrink(input) end

--- softmax along dim (1-based; without it torch's implicit dim: 1st for 0-d, 1-d and 3-d
--- inputs, else 2nd). _stacklevel is accepted and unused, as in torch; dtype casts first.
---@param input ltensor.Tensor
---@param dim? integer
---@param _stacklevel? integer
---@param dtype? ltensor.dtype
---@return ltensor.Tensor
function F.softmax(input, dim, _stacklevel, dtype) end

--- log(softmax(x)) along dim, computed stably (dims as F.softmax).
---@param input ltensor.Tensor
---@param dim? integer
---@param _stacklevel? integer
---@param dtype? ltensor.dtype
---@return ltensor.Tensor
function F.log_softmax(input, dim, _stacklevel, dtype) end

--- softmax(-x) along dim (dims as F.softmax).
---@param input ltensor.Tensor
---@param dim? integer
---@param _stacklevel? integer
---@param dtype? ltensor.dtype
---@return ltensor.Tensor
function F.softmin(input, dim, _stacklevel, dtype) end

--- The gated linear unit: a * sigmoid(b), a and b the halves of input along dim (its size must
--- be even).
---@param input ltensor.Tensor
---@param dim? integer default -1
---@return ltensor.Tensor
function F.glu(input, dim) end

--- The mean (or sum, or each) of (input - target)^2, broadcast together.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param size_average? boolean deprecated (reduction)
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@return ltensor.Tensor
function F.mse_loss(input, target, size_average, reduce, reduction) end

--- The mean (or sum, or each) of |input - target|.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param size_average? boolean deprecated (reduction)
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@return ltensor.Tensor
function F.l1_loss(input, target, size_average, reduce, reduction) end

--- |d| < beta ? d^2 / (2 beta) : |d| - beta / 2, d = input - target (beta 0: l1_loss).
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param size_average? boolean deprecated (reduction)
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@param beta? number default 1, not negative
---@return ltensor.Tensor
function F.smooth_l1_loss(input, target, size_average, reduce, reduction, beta) end

--- |d| <= delta ? d^2 / 2 : delta (|d| - delta / 2), d = input - target.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param reduction? string "mean" (default), "sum" or "none"
---@param delta? number default 1, positive
---@return ltensor.Tensor
function F.huber_loss(input, target, reduction, delta) end

--- -weight (t log x + (1 - t) log(1 - x)), each log clamped at -100; input in [0, 1] and target
--- of its shape.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param weight? ltensor.Tensor broadcast to the input's shape
---@param size_average? boolean deprecated (reduction)
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@return ltensor.Tensor
function F.binary_cross_entropy(input, target, weight, size_average, reduce, reduction) end

--- binary_cross_entropy of sigmoid(input), computed stably from the logits; pos_weight weighs
--- the positive term (broadcast along the last dim: one per class).
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param weight? ltensor.Tensor
---@param size_average? boolean deprecated (reduction)
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@param pos_weight? ltensor.Tensor
---@return ltensor.Tensor
function F.binary_cross_entropy_with_logits(input, target, weight, size_average, reduce, reduction, pos_weight) end

--- The Kullback-Leibler divergence of log-probabilities input from target: target (log target
--- - input), 0 where target is 0; with log_target, exp(target) (target - input). "batchmean"
--- divides the sum by the size of dim 1.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param size_average? boolean deprecated (reduction)
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "batchmean", "sum" or "none"
---@param log_target? boolean
---@return ltensor.Tensor
function F.kl_div(input, target, size_average, reduce, reduction, log_target) end

--- -weight[t] input[t] of log-probabilities input (N x C x d1 ... or C) at the 1-based class
--- indices target (N x d1 ... or 0-d, an integer tensor); a target equal to ignore_index (torch's
--- -100 by default) counts for nothing; the mean divides by the sum of the weights taken.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param weight? ltensor.Tensor C weights, one per class
---@param size_average? boolean deprecated (reduction)
---@param ignore_index? integer default -100
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@return ltensor.Tensor
function F.nll_loss(input, target, weight, size_average, ignore_index, reduce, reduction) end

--- nll_loss of log_softmax(input) over the class dim (2nd, or the only one), for 1-based class
--- indices; or, for a floating target of the input's shape, -sum(weight * target *
--- log_softmax(input)) over the classes (class probabilities). label_smoothing in [0, 1] mixes
--- the target with the uniform distribution.
---@param input ltensor.Tensor
---@param target ltensor.Tensor
---@param weight? ltensor.Tensor C weights, one per class
---@param size_average? boolean deprecated (reduction)
---@param ignore_index? integer default -100
---@param reduce? boolean deprecated (reduction)
---@param reduction? string "mean" (default), "sum" or "none"
---@param label_smoothing? number default 0
---@return ltensor.Tensor
function F.cross_entropy(input, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing) end

-- }======
