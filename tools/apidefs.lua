-- tools/apidefs.lua -- reads the LuaLS definition files of lua/ltensor/meta line by line into
-- one table: classes (fields, operators, metamethods), functions and methods (parameters,
-- returns, overloads, description), aliases and enums. Used by tools/gen_api.lua (docs/API.md)
-- and spec/definitions_spec.lua (the drift test); loaded with dofile, never by the module.
-- The files follow the conventions their header states (../lua/ltensor/meta/ltensor.lua);
-- what breaks them is reported in `problems`, so an entry cannot be half-written.
local M = {}

-- The definition files, relative to the source tree, in the order the reference lists them.
M.FILES = {
  "lua/ltensor/meta/ltensor.lua",
  "lua/ltensor/meta/ltensor/tensor.lua",
  "lua/ltensor/meta/ltensor/math.lua",
  "lua/ltensor/meta/ltensor/shape.lua",
  "lua/ltensor/meta/ltensor/index.lua",
  "lua/ltensor/meta/ltensor/sort.lua",
  "lua/ltensor/meta/ltensor/random.lua",
  "lua/ltensor/meta/ltensor/file.lua",
  "lua/ltensor/meta/ltensor/dlpack.lua",
  "lua/ltensor/meta/ltensor/linalg.lua",
  "lua/ltensor/meta/ltensor/fft.lua",
  "lua/ltensor/meta/ltensor/nn.lua",
  "lua/ltensor/meta/ltensor/image.lua",
}

-- The namespaces of the module (torch's torch.linalg, torch.nn.functional): the class of each
-- and its path under `require "ltensor"`.
M.SPACES = {
  ["ltensor.linalg"] = "linalg",
  ["ltensor.nn.functional"] = "nn.functional",
  ["ltensor.fft"] = "fft",
  ["ltensor.image"] = "image",
}

-- The live table of a namespace class (nil for any other class).
function M.space(lt, class)
  local path = M.SPACES[class]
  if not path then return nil end
  local t = lt
  for k in path:gmatch("[^.]+") do t = t and t[k] end
  return t
end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- "name type rest" -> name, type, rest (types hold no spaces, by convention)
local function words(s)
  local a, b, rest = s:match("^(%S+)%s+(%S+)%s*(.*)$")
  if a then return a, b, rest end
  return s:match("^(%S+)%s*(.*)$")
end

local function new_class(defs, name)
  local c = defs.classes[name]
  if not c then
    c = { name = name, desc = {}, fields = {}, operators = {}, metas = {}, enums = {} }
    defs.classes[name] = c
    defs.class_order[#defs.class_order + 1] = name
  end
  return c
end

local function take_alias(defs, file, tags, desc)
  local name, ty = words(tags[1].rest)
  local a = { name = name, type = ty ~= "" and ty or nil, desc = desc, values = {}, file = file }
  for k = 2, #tags do
    local v, d = tags[k].rest:match("^(%S+)%s*#?%s*(.*)$")
    a.values[#a.values + 1] = { value = v, desc = d }
  end
  defs.aliases[#defs.aliases + 1] = a
end

local function take_class(defs, vars, file, tags, desc, code, problem)
  local name = tags[1].rest:match("^([%w_.]+)")
  local c = new_class(defs, name)
  c.parent = c.parent or tags[1].rest:match(":%s*([%w_.]+)")
  c.file = c.file or file
  local metas = {}
  for _, d in ipairs(desc) do
    local kind, mname, mdesc = d:match("^(meta%a+) (__[%w_]+): (.*)$")
    if kind then
      c.metas[#c.metas + 1] = { kind = kind, name = mname, desc = mdesc }
    else
      metas[#metas + 1] = d
    end
  end
  for _, d in ipairs(metas) do c.desc[#c.desc + 1] = d end
  for k = 2, #tags do
    local t = tags[k]
    if t.tag == "field" then
      local fname, fty, fdesc = words(t.rest)
      c.fields[#c.fields + 1] = { name = fname, type = fty, desc = fdesc }
    elseif t.tag == "operator" then
      local op, sig = t.rest:match("^(%a+)(.*)$")
      c.operators[#c.operators + 1] = { op = op, sig = sig }
    else
      problem("unexpected ---@" .. t.tag .. " in a class block")
    end
  end
  if code then
    local var = code:match("^local (%w+) = {}$")
    if var then vars[var] = name else problem("a class block ends in `local Name = {}`") end
  end
end

-- An enum's block and its values, the lines after i up to the closing brace; returns the last
-- line read.
local function take_enum(defs, vars, tags, desc, code, lines, i, problem)
  local ename = trim(tags[1].rest)
  local var, field = (code or ""):match("^(%w+)%.([%w_]+) = {$")
  if not var or not vars[var] then
    problem("an enum block ends in `Var.name = {` of a class's table")
    return i
  end
  local e = { name = field, type = ename, desc = desc, values = {} }
  while lines[i + 1] and not lines[i + 1]:match("^}") do
    i = i + 1
    local k, v = lines[i]:match("^%s*([%w_]+) = (%-?%d+),?$")
    if k then e.values[#e.values + 1] = { key = k, value = tonumber(v) } end
  end
  i = i + 1
  local c = new_class(defs, vars[var])
  c.enums[#c.enums + 1] = e
  return i
end

-- The tags of a function's block: parameters, returns, overloads.
local function take_tags(f, tags, problem)
  for _, t in ipairs(tags) do
    if t.tag == "param" then
      local pname, pty, pdesc = words(t.rest)
      local opt = pname:sub(-1) == "?"
      f.params[#f.params + 1] = { name = opt and pname:sub(1, -2) or pname, type = pty,
        desc = pdesc, optional = opt }
    elseif t.tag == "return" then
      local rty, rest = t.rest:match("^(%S+)%s*(.*)$")
      -- `---@return type [name] [# description]`, as LuaLS reads it
      local rname, rdesc = rest:match("^([%a_][%w_]*)%s*(.*)$")
      if not rname then rdesc = rest end
      f.returns[#f.returns + 1] = { type = rty, name = rname, desc = trim((rdesc:gsub("^#", ""))) }
    elseif t.tag == "overload" then
      f.overloads[#f.overloads + 1] = t.rest
    else
      problem("unexpected ---@" .. t.tag .. " in the block of " .. f.name)
    end
  end
end

-- A function: `function Var.name(args) end`, `function Var:name(args) end` or
-- `Var["name"] = function(self, args) end`; a method's line may go on with its module form,
-- `function Tensor:flip(...) end; ltensor.flip = Tensor.flip`.
local function take_function(defs, vars, file, block, tags, desc, code, problem)
  local var, sep, name, args
  local fcode, mvar, mname, ovar, oname =
    (code or ""):match("^(function .- end); (%w+)%.([%w_]+) = (%w+)%.([%w_]+)$")
  if fcode then
    code = fcode
    defs.forms[#defs.forms + 1] = { var = mvar, name = mname, of = ovar, method = oname,
      file = file, line = block[#block].n + 1, where = file .. ":" .. (block[#block].n + 1) }
  end
  if code then
    var, sep, name, args = code:match("^function (%w+)([.:])([%w_]+)%((.-)%) end$")
    if not var then
      var, name, args = code:match('^(%w+)%["([%w_]+)"%] = function%(self,? ?(.-)%) end$')
      sep = ":"
    end
  end
  if not var then
    problem("a block that is neither an alias, a class, an enum nor a function")
    return
  end
  if not vars[var] then problem("`" .. var .. "` is no class's table") end
  local f = {
    class = vars[var], sep = sep, name = name, desc = desc, params = {}, returns = {},
    overloads = {}, args = {}, file = file, line = block[1].n,
  }
  for a in args:gmatch("[^,%s]+") do f.args[#f.args + 1] = a end
  take_tags(f, tags, problem)
  if #desc == 0 then problem(name .. " has no description line") end
  local pnames = {}
  for k, p in ipairs(f.params) do pnames[k] = p.name end
  if table.concat(pnames, ",") ~= table.concat(f.args, ",") then
    problem(name .. "'s ---@param lines (" .. table.concat(pnames, ", ") ..
      ") are not its arguments (" .. table.concat(f.args, ", ") .. ")")
  end
  local key = f.class .. f.sep .. name
  if defs.seen[key] then problem(name .. " is defined twice (first at " .. defs.seen[key] .. ")") end
  defs.seen[key] = file .. ":" .. block[1].n
  defs.functions[#defs.functions + 1] = f
end

-- One block of `---` lines and the code line after it (nil at a blank line or a comment);
-- returns the last line read.
local function take_block(defs, vars, file, block, code, lines, i)
  local where = file .. ":" .. block[1].n
  local function problem(msg) defs.problems[#defs.problems + 1] = where .. ": " .. msg end
  local desc, tags = {}, {}
  for _, l in ipairs(block) do
    local tag, rest = l.s:match("^%-%-%-@(%w+)%s*(.*)$")
    if tag then
      tags[#tags + 1] = { tag = tag, rest = rest, n = l.n }
    elseif l.s:match("^%-%-%-|") then
      tags[#tags + 1] = { tag = "|", rest = trim(l.s:sub(5)), n = l.n }
    else
      desc[#desc + 1] = trim(l.s:sub(4))
    end
  end
  local first = tags[1] and tags[1].tag
  if first == "meta" then
    defs.meta[file] = trim(tags[1].rest)
  elseif first == "alias" then
    take_alias(defs, file, tags, desc)
  elseif first == "class" then
    take_class(defs, vars, file, tags, desc, code, problem)
  elseif first == "enum" then
    i = take_enum(defs, vars, tags, desc, code, lines, i, problem)
  else
    take_function(defs, vars, file, block, tags, desc, code, problem)
  end
  return i
end

-- A module form, `ltensor.flip = Tensor.flip` (after the method's `function ... end` on its
-- line, or on a line of its own): lt.flip(t, ...) is the method t:flip(...) as a function of
-- the tensor, as torch.flip is Tensor.flip. It becomes a function of the module's class whose
-- parameters are t and the method's, documented by the method's block, so that one block
-- serves both (defs.forms lists them, in file order).
local function take_forms(defs, vars)
  for _, form in ipairs(defs.forms) do
    local m
    for _, f in ipairs(defs.functions) do
      if f.class == vars[form.of] and f.sep == ":" and f.name == form.method then m = f end
    end
    if not m or not vars[form.var] then
      defs.problems[#defs.problems + 1] = form.where .. ": `" .. form.var .. "." .. form.name ..
        " = " .. form.of .. "." .. form.method .. "` names no documented method"
    else
      local params = { { name = "t", type = m.class, desc = "", optional = false } }
      for _, p in ipairs(m.params) do params[#params + 1] = p end
      local args = { "t" }
      for _, a in ipairs(m.args) do args[#args + 1] = a end
      defs.functions[#defs.functions + 1] = {
        class = vars[form.var], sep = ".", name = form.name, form_of = m, params = params,
        returns = m.returns, overloads = {}, args = args, file = form.file, line = form.line,
        desc = { "`t:" .. form.method .. "(...)` as a function of the tensor (torch." ..
          form.name .. "): " .. table.concat(m.desc, " ") },
      }
    end
  end
end

-- Reads the files (paths relative to root, default M.FILES) into the definitions table.
function M.read(root, files)
  local defs = { classes = {}, class_order = {}, functions = {}, aliases = {}, meta = {},
    problems = {}, files = files or M.FILES, forms = {}, seen = {} }
  local vars = {}
  for _, file in ipairs(defs.files) do
    local fh = assert(io.open(root .. "/" .. file, "r"))
    local lines = {}
    for l in fh:lines() do lines[#lines + 1] = l end
    fh:close()
    local block, i = {}, 1
    while i <= #lines do
      local l = lines[i]
      local var, name, of, method = l:match("^(%w+)%.([%w_]+) = (%w+)%.([%w_]+)$")
      if var and #block == 0 then
        defs.forms[#defs.forms + 1] = { var = var, name = name, of = of, method = method,
          file = file, line = i, where = file .. ":" .. i }
      elseif l:match("^%-%-%-") then
        block[#block + 1] = { s = l, n = i }
      else
        if #block > 0 then
          local code = l:match("^%S") and not l:match("^%-%-") and l or nil
          i = take_block(defs, vars, file, block, code, lines, i)
          block = {}
        end
      end
      i = i + 1
    end
    if #block > 0 then take_block(defs, vars, file, block, nil, lines, #lines) end
  end
  take_forms(defs, vars)
  return defs
end

-- The functions of one class, in file order; sep "." (functions) or ":" (methods).
function M.functions_of(defs, class, sep)
  local r = {}
  for _, f in ipairs(defs.functions) do
    if f.class == class and (not sep or f.sep == sep) then r[#r + 1] = f end
  end
  return r
end

return M
