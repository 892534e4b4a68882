-- ltensor.format: tostring() of a tensor, laid out as torch prints it.
--
-- torch's rules (torch/_tensor_str.py, default print options): 4 digits after the point;
-- floats whose non-zero finite values are all integers print as "1." ; scientific notation when
-- max/min of the absolute values exceeds 1000, max exceeds 1e8 or (for non-integers) min is below
-- 1e-4; columns right-aligned to the widest element; tensors of more than 1000 elements show
-- their first and last 3 entries per dim around "..."; rows wrap at 80 columns; the dtype is
-- shown unless it is float32, complex64, int64 or bool (for an empty tensor: unless float32).
-- Loaded by ltensor itself (a host without the package library, lua_init.c's ltl_require), the
-- chunk gets that require as its third argument.
local require = select(3, ...) or require
local core = require "ltensor.core"

local M = {}

local PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = 4, 1000, 3, 80
local FLOATING = { float16 = true, bfloat16 = true, float32 = true, float64 = true }
local COMPLEX = { complex64 = true, complex128 = true }
local DEFAULT_DTYPE = { float32 = true, complex64 = true, int64 = true, bool = true }

local sfmt, floor, ceil, huge = string.format, math.floor, math.ceil, math.huge

local function finite(v) return v == v and v ~= huge and v ~= -huge end

-- Python's str() of a non-finite float.
local function nonfinite(v)
  if v ~= v then return "nan" end
  return v > 0 and "inf" or "-inf"
end

-- The values a formatter must fit: all of them, or the summarized corners.
local function collect(t, summarize, out)
  if t.ndim == 0 then
    out[#out + 1] = t:item()
    return out
  end
  local n = t.shape[1]
  local function take(i)
    if t.ndim == 1 then out[#out + 1] = t[i] else collect(t[i], summarize, out) end
  end
  if summarize and n > 2 * EDGEITEMS then
    for i = 1, EDGEITEMS do take(i) end
    for i = n - EDGEITEMS + 1, n do take(i) end
  else
    for i = 1, n do take(i) end
  end
  return out
end

-- The unsigned decimal of a Lua integer's 64 bits (a uint64 element reads as the Lua integer
-- of its bits: 2^64 - 1 is -1). string.format has no %u: halve without the sign, divide by 5.
local function unsigned_str(v)
  if v >= 0 then return sfmt("%d", v) end
  local q = (v >> 1) // 5 -- floor(bits / 10), nonnegative
  return sfmt("%d%d", q, v - q * 10) -- the last digit: bits - 10 q, in wrapping arithmetic
end

local function str_plain(v, unsigned)
  if v == true then return "True" elseif v == false then return "False" end
  if unsigned then return unsigned_str(v) end
  return sfmt("%d", v)
end

local Formatter = {}
Formatter.__index = Formatter

local function new_formatter(values, floating, unsigned)
  local f = setmetatable({ floating = floating, unsigned = unsigned, int_mode = true,
    sci_mode = false, max_width = 1 }, Formatter)
  if not floating then
    for _, v in ipairs(values) do f.max_width = math.max(f.max_width, #str_plain(v, unsigned)) end
    return f
  end
  local nz = {}
  for _, v in ipairs(values) do
    if v ~= 0 and finite(v) then nz[#nz + 1] = v end
  end
  if #nz == 0 then return f end
  local lo, hi = huge, 0
  for _, v in ipairs(nz) do
    local a = math.abs(v)
    if a < lo then lo = a end
    if a > hi then hi = a end
    if v ~= ceil(v) then f.int_mode = false end
  end
  local function widest(pattern, extra)
    for _, v in ipairs(nz) do f.max_width = math.max(f.max_width, #sfmt(pattern, v) + extra) end
  end
  if f.int_mode then
    if hi / lo > 1000 or hi > 1e8 then
      f.sci_mode = true
      widest("%." .. PRECISION .. "e", 0)
    else
      widest("%.0f", 1)
    end
  elseif hi / lo > 1000 or hi > 1e8 or lo < 1e-4 then
    f.sci_mode = true
    widest("%." .. PRECISION .. "e", 0)
  else
    widest("%." .. PRECISION .. "f", 0)
  end
  return f
end

function Formatter:format(v)
  local s
  if not self.floating then
    s = str_plain(v, self.unsigned)
  elseif not finite(v) then
    s = nonfinite(v)
  elseif self.sci_mode then
    s = sfmt("%." .. PRECISION .. "e", v)
  elseif self.int_mode then
    s = sfmt("%.0f", v) .. "."
  else
    s = sfmt("%." .. PRECISION .. "f", v)
  end
  return string.rep(" ", self.max_width - #s) .. s
end

-- One element, through one formatter or (complex) two.
local function element_str(v, f1, f2)
  if not f2 then return f1:format(v) end
  local re = f1:format(v[1])
  local im = (f2:format(v[2]) .. "j"):gsub("^%s+", "")
  local c = im:sub(1, 1)
  if c == "+" or c == "-" then return re .. im end
  return re .. "+" .. im
end

local function vector_str(t, indent, summarize, f1, f2)
  local element_length = f1.max_width + 2
  if f2 then element_length = element_length + f2.max_width + 1 end
  local per_line = math.max(1, floor((LINEWIDTH - indent) / element_length))
  local n, data = t.shape[1], {}
  if summarize and n > 2 * EDGEITEMS then
    for i = 1, EDGEITEMS do data[#data + 1] = element_str(t[i], f1, f2) end
    data[#data + 1] = " ..."
    for i = n - EDGEITEMS + 1, n do data[#data + 1] = element_str(t[i], f1, f2) end
  else
    for i = 1, n do data[#data + 1] = element_str(t[i], f1, f2) end
  end
  local lines = {}
  for i = 1, #data, per_line do
    lines[#lines + 1] = table.concat(data, ", ", i, math.min(i + per_line - 1, #data))
  end
  return "[" .. table.concat(lines, ",\n" .. string.rep(" ", indent + 1)) .. "]"
end

local function tensor_str(t, indent, summarize, f1, f2)
  local nd = t.ndim
  if nd == 0 then return element_str(t:item(), f1, f2) end
  if nd == 1 then return vector_str(t, indent, summarize, f1, f2) end
  local n, slices = t.shape[1], {}
  if summarize and n > 2 * EDGEITEMS then
    for i = 1, EDGEITEMS do slices[#slices + 1] = tensor_str(t[i], indent + 1, summarize, f1, f2) end
    slices[#slices + 1] = "..."
    for i = n - EDGEITEMS + 1, n do
      slices[#slices + 1] = tensor_str(t[i], indent + 1, summarize, f1, f2)
    end
  else
    for i = 1, n do slices[#slices + 1] = tensor_str(t[i], indent + 1, summarize, f1, f2) end
  end
  return "[" .. table.concat(slices, "," .. string.rep("\n", nd - 1) .. string.rep(" ", indent + 1)) .. "]"
end

local function body(t, indent)
  local summarize = t:numel() > THRESHOLD
  local dtype = t.dtype
  local values = collect(t, summarize, {})
  if COMPLEX[dtype] then
    local re, im = {}, {}
    for i, v in ipairs(values) do re[i], im[i] = v[1], v[2] end
    return tensor_str(t, indent, summarize, new_formatter(re, true), new_formatter(im, true))
  end
  return tensor_str(t, indent, summarize,
    new_formatter(values, FLOATING[dtype] or false, dtype == "uint64"))
end

-- Python's str() of a shape tuple.
local function tuple(shape)
  if #shape == 1 then return "(" .. shape[1] .. ",)" end
  return "(" .. table.concat(shape, ", ") .. ")"
end

local function add_suffixes(s, suffixes, indent)
  local parts = { s }
  local q = s:find("\n[^\n]*$")
  local last_line_len = q and #s - q + 2 or #s + 2 -- as torch counts it
  for _, suffix in ipairs(suffixes) do
    if last_line_len + #suffix + 2 > LINEWIDTH then
      parts[#parts + 1] = ",\n" .. string.rep(" ", indent) .. suffix
      last_line_len = indent + #suffix
    else
      parts[#parts + 1] = ", " .. suffix
      last_line_len = last_line_len + #suffix + 2
    end
  end
  parts[#parts + 1] = ")"
  return table.concat(parts)
end

function M.tostring(t)
  local ok, dtype = pcall(function() return t.dtype end)
  if not ok then return "tensor(<released>)" end
  local prefix, indent, suffixes = "tensor(", 7, {}
  local device = t.device
  if device ~= "cpu" then suffixes[#suffixes + 1] = "device='" .. device .. "'" end
  local readable = core._readable(t)
  local s
  if t:numel() == 0 then
    if t.ndim ~= 1 then suffixes[#suffixes + 1] = "size=" .. tuple(t.shape) end
    if dtype ~= "float32" then suffixes[#suffixes + 1] = "dtype=" .. dtype end
    s = "[]"
  elseif not readable then
    suffixes[#suffixes + 1] = "size=" .. tuple(t.shape)
    suffixes[#suffixes + 1] = "dtype=" .. dtype
    s = "<data not readable on this host>"
  else
    if not DEFAULT_DTYPE[dtype] then suffixes[#suffixes + 1] = "dtype=" .. dtype end
    s = body(t, indent)
  end
  return add_suffixes(prefix .. s, suffixes, indent)
end

return M
