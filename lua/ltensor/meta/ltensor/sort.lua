---@meta _
-- LuaLS definitions of ltensor.Tensor, part 5: sorting and scans (src/binding/lua_sort.c), their
-- module forms (`; ltensor.f = Tensor.f` after a method's `end`: lt.f(t, ...), as torch.f) and
-- lt.searchsorted.
-- torch's positional order (`sort(dim, descending)`, `topk(k, dim, largest, sorted)`), its
-- keyword-only arguments in one trailing options table. dim defaults to the last one where
-- torch's does; every position returned is a 1-based int64 tensor; several results are several
-- Lua values. Every sort is stable. Conventions: see ../ltensor.lua. Nothing requires this file.

---@class ltensor.Tensor
local Tensor = {}

---@class ltensor
local ltensor = {}

-- {====== sorting ======

--- The elements sorted along dim (default the last), ascending unless descending, and their
--- 1-based positions in t; NaN sorts last ascending, first descending.
---@param dim? integer
---@param descending? boolean
---@param opts? {stable:boolean} accepted for torch's sake: every sort is stable
---@return ltensor.Tensor values
---@return ltensor.Tensor positions # int64, 1-based along dim
function Tensor:sort(dim, descending, opts) end; ltensor.sort = Tensor.sort

--- The 1-based positions (int64) that sort the elements along dim (default the last): the
--- second result of sort.
---@param dim? integer
---@param descending? boolean
---@param opts? {stable:boolean}
---@return ltensor.Tensor positions
function Tensor:argsort(dim, descending, opts) end; ltensor.argsort = Tensor.argsort

--- The k largest elements along dim (default the last), or the k smallest when largest is
--- false, sorted, and their 1-based positions; NaN counts as the largest.
---@param k integer
---@param dim? integer
---@param largest? boolean default true
---@param sorted? boolean accepted for torch's sake: the result is always sorted
---@return ltensor.Tensor values
---@return ltensor.Tensor positions # int64, 1-based along dim
function Tensor:topk(k, dim, largest, sorted) end; ltensor.topk = Tensor.topk

--- The k-th smallest element along dim (default the last; k is 1-based) and its 1-based
--- position; keepdim keeps dim with size 1.
---@param k integer
---@param dim? integer
---@param keepdim? boolean
---@return ltensor.Tensor values
---@return ltensor.Tensor positions # int64, 1-based along dim
function Tensor:kthvalue(k, dim, keepdim) end; ltensor.kthvalue = Tensor.kthvalue

--- The lower median: over every element a Lua value; with a dim, the medians along it and
--- their 1-based positions. NaN propagates.
---@param dim? integer
---@param keepdim? boolean only with a dim
---@return ltensor.Scalar|ltensor.Tensor values # a Lua value without a dim
---@return ltensor.Tensor? positions # int64, 1-based, with a dim
function Tensor:median(dim, keepdim) end; ltensor.median = Tensor.median

--- The most frequent value along dim (default the last; the smallest of a tie) and its last
--- 1-based position.
---@param dim? integer
---@param keepdim? boolean
---@return ltensor.Tensor values
---@return ltensor.Tensor positions # int64, 1-based along dim
function Tensor:mode(dim, keepdim) end; ltensor.mode = Tensor.mode

--- The distinct elements, sorted, as a 1-d tensor (every NaN one value); {dim = d}: the
--- distinct slices along d in lexicographic order. return_inverse adds each element's
--- 1-based position in the result (t's shape; with dim, one per slice), return_counts how
--- often each value occurs, in that order.
---@param opts? {sorted:boolean,return_inverse:boolean,return_counts:boolean,dim:integer}
---@return ltensor.Tensor values
---@return ltensor.Tensor? inverse # int64, 1-based, with return_inverse
---@return ltensor.Tensor? counts # int64, with return_counts
function Tensor:unique(opts) end; ltensor.unique = Tensor.unique

-- }======

-- {====== scans ======

--- The running sums along dim (required); bool and integers give int64, a dtype another
--- result dtype (positionally or as {dtype = }).
---@param dim integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function Tensor:cumsum(dim, dtype) end; ltensor.cumsum = Tensor.cumsum

--- In place: cumsum written into t, in t's dtype (computed in dtype when one is given).
---@param dim integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor self
function Tensor:cumsum_(dim, dtype) end

--- The running products along dim (required); bool and integers give int64, a dtype another
--- result dtype (positionally or as {dtype = }).
---@param dim integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor
function Tensor:cumprod(dim, dtype) end; ltensor.cumprod = Tensor.cumprod

--- In place: cumprod written into t, in t's dtype (computed in dtype when one is given).
---@param dim integer
---@param dtype? ltensor.dtype|ltensor.DtypeOptions
---@return ltensor.Tensor self
function Tensor:cumprod_(dim, dtype) end

--- The running maximum along dim (required) and the 1-based position it came from (a tie takes
--- the later one; a NaN takes over and stays).
---@param dim integer
---@return ltensor.Tensor values
---@return ltensor.Tensor positions # int64, 1-based along dim
function Tensor:cummax(dim) end; ltensor.cummax = Tensor.cummax

--- The running minimum along dim (required) and the 1-based position it came from (a tie takes
--- the later one; a NaN takes over and stays).
---@param dim integer
---@return ltensor.Tensor values
---@return ltensor.Tensor positions # int64, 1-based along dim
function Tensor:cummin(dim) end; ltensor.cummin = Tensor.cummin

-- }======

-- {====== counting ======

--- Counts of the non-negative integers of a 1-d t: value v in slot v + 1, at least minlength
--- slots; with weights (t's shape) their sums instead (float32 weights give float32, others
--- float64). Also `t:bincount({weights = w, minlength = n})`.
---@param weights? ltensor.Tensor|{weights:ltensor.Tensor,minlength:integer} the weights, or an options table
---@param minlength? integer
---@return ltensor.Tensor
function Tensor:bincount(weights, minlength) end; ltensor.bincount = Tensor.bincount

--- A histogram of a floating tensor's elements in bins (default 100) equal bins from min to
--- max (both 0 by default; min == max takes the data's range), in t's dtype; elements outside
--- are left out.
---@param bins? integer
---@param min? number
---@param max? number
---@return ltensor.Tensor
function Tensor:histc(bins, min, max) end; ltensor.histc = Tensor.histc

-- }======

-- {====== module forms ======

--- torch.searchsorted: for each of values, the 1-based position where it would be inserted
--- into sorted_sequence (torch's 0-based insertion point + 1), before equal elements, or after
--- them with {right = true} or {side = "right"}; sorted_sequence is 1-d or has values' leading
--- dims, sorted along its last. int64, int32 with {out_int32 = true}. A NaN goes after
--- everything.
---@param sorted_sequence ltensor.Tensor
---@param values ltensor.Tensor
---@param opts? {right:boolean,side:"left"|"right",out_int32:boolean}
---@return ltensor.Tensor
function ltensor.searchsorted(sorted_sequence, values, opts) end


-- }======

-- {====== statistics ======

--- The running log(sum(exp(t))) along dim (required), computed stably; floating dtypes.
---@param dim integer
---@return ltensor.Tensor
function Tensor:logcumsumexp(dim) end; ltensor.logcumsumexp = Tensor.logcumsumexp

--- The lower median of the elements that are not NaN (a row of NaNs gives NaN): a Lua value
--- over every element; with a dim, the values and their 1-based positions. Integers: t:median().
---@param dim? integer
---@param keepdim? boolean
---@return ltensor.Scalar|ltensor.Tensor values
---@return ltensor.Tensor? positions # 1-based, with a dim
function Tensor:nanmedian(dim, keepdim) end; ltensor.nanmedian = Tensor.nanmedian

--- The q-th quantiles of a float32 or float64 tensor over every element or along dim; q a
--- number or a 1-d tensor of t's dtype (a leading dim of its length), each in [0, 1];
--- {interpolation = "linear"|"lower"|"higher"|"nearest"|"midpoint"} between the two nearest
--- ranks. A NaN makes its row's quantiles NaN. A number q over every element gives a Lua value.
---@param q number|ltensor.Tensor
---@param dim? integer
---@param keepdim? boolean
---@param opts? {interpolation:"linear"|"lower"|"higher"|"nearest"|"midpoint"}
---@return ltensor.Scalar|ltensor.Tensor
function Tensor:quantile(q, dim, keepdim, opts) end; ltensor.quantile = Tensor.quantile

--- t:quantile with NaNs left out (a row of NaNs gives NaN).
---@param q number|ltensor.Tensor
---@param dim? integer
---@param keepdim? boolean
---@param opts? {interpolation:"linear"|"lower"|"higher"|"nearest"|"midpoint"}
---@return ltensor.Scalar|ltensor.Tensor
function Tensor:nanquantile(q, dim, keepdim, opts) end; ltensor.nanquantile = Tensor.nanquantile

--- The covariance matrix of the variables in t's rows (observations in its columns; a 1-d t
--- is one variable and gives a 0-d tensor), with {correction = 1} (0: the population one),
--- integer fweights and floating aweights (one per observation). Integers give float32.
---@param opts? {correction:integer,fweights:ltensor.Tensor,aweights:ltensor.Tensor}
---@return ltensor.Tensor
function Tensor:cov(opts) end; ltensor.cov = Tensor.cov

--- Pearson's correlation coefficients of the variables in t's rows, clipped to [-1, 1].
---@return ltensor.Tensor
function Tensor:corrcoef() end; ltensor.corrcoef = Tensor.corrcoef

--- The n-th forward difference along dim (default the last): t[i+1] - t[i] (bool: ~=), n
--- times (n >= 0), after prepend and append are joined to t along dim.
---@param n? integer
---@param dim? integer
---@param prepend? ltensor.Tensor
---@param append? ltensor.Tensor
---@return ltensor.Tensor
function Tensor:diff(n, dim, prepend, append) end; ltensor.diff = Tensor.diff

--- A histogram of a float32 or float64 tensor's elements: bins equal bins (default 100) over
--- {range = {min, max}} (default the data's), or the bins between the edges of a 1-d tensor;
--- each bin holds [left, right), the last its right edge too. {weight = w} (t's shape) counts
--- weights, {density = true} divides by the total times the bin width.
---@param bins? integer|ltensor.Tensor
---@param opts? {range:number[],weight:ltensor.Tensor,density:boolean}
---@return ltensor.Tensor hist
---@return ltensor.Tensor bin_edges
function Tensor:histogram(bins, opts) end; ltensor.histogram = Tensor.histogram

--- torch.trapezoid: the trapezoid rule along dim ({dim = }, default the last) over sample
--- points x (a 1-d tensor of y's size along dim, or y's number of dims) or spaced dx apart (a
--- number, or {dx = }, default 1). Integers give float32.
---@param y ltensor.Tensor
---@param x? ltensor.Tensor|number
---@param opts? {dx:number,dim:integer}
---@return ltensor.Tensor
function ltensor.trapezoid(y, x, opts) end

-- }======
