-- doctest.lua -- runs every code block of README.md and docs/*.md. CTest's `docs` test
-- (spec/CMakeLists.txt) calls it; by hand: `lua5.4 tools/doctest.lua build [FILE.md ...]`.
--
-- usage: lua5.4 tools/doctest.lua BUILD_DIR [--sanitize LIST] [FILE.md ...]
-- The Lua blocks need LUA_PATH and LUA_CPATH that find ltensor (CTest's LT_LUA_ENV, or
-- `make shell`); the C and CMake blocks use the host library of BUILD_DIR, installed with
-- `cmake --install` into a temporary prefix as a user would.
--
-- What each block must do, by its fence's language:
--   lua    runs in a fresh lua5.4, in an empty temporary folder, loaded under the page's name
--          (its errors say README.md:LINE:). A line `code --> text` checks what the line
--          gives: `print(...)` as printed, any other expression as shown by `show` below
--          (values separated by spaces, tables as constructors), `--> error: text` the error
--          it raises. Lines holding only `--> text` continue the text above. `...` in a text
--          matches anything; runs of whitespace compare equal.
--   c      compiles against the installed library (pkg-config, or CMake's ltensor::python for
--          a block that includes ltensor_python.h), with warnings as errors; a block with
--          main() also runs and must exit 0.
--   cmake  configures and builds with the page's C block before it (else the one after) as
--          host.c, then runs it.
--   text   the whole output of the lua or c block before it, checked as a `-->` text is.
--   sh     every command exists: programs on PATH, make targets in the Makefile, and paths
--          into the tree (examples/..., spec/...) in the checkout.
--   json   parses.
-- A block that quotes a source file (a table entry, a definitions block) carries
-- `<!-- excerpt: PATH -->` on the line before its fence: its lines must appear, in a row, in
-- PATH (relative to the checkout; trailing whitespace ignored), so the quote cannot drift.
-- A block that cannot run as it stands carries `<!-- no-test: why -->`; one that waits for a
-- function not landed yet carries `<!-- pending: what -->`, and must fail until it lands (then
-- the mark has to go: a pending block that passes fails).
local src = arg[0]:match("^(.*)/tools/[^/]*$") or "."
local build, sanitize, pages = nil, "", {}
do
  local i = 1
  while arg[i] do
    if arg[i] == "--sanitize" then
      sanitize, i = arg[i + 1] or "", i + 2
    else
      if build then pages[#pages + 1] = arg[i] else build = arg[i] end
      i = i + 1
    end
  end
end
if not build then
  io.stderr:write("usage: lua5.4 tools/doctest.lua BUILD_DIR [--sanitize LIST] [FILE.md ...]\n")
  os.exit(2)
end

-- {====== shell helpers ======

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- sh(cmd): runs cmd, returns ok and its stdout and stderr together. Every command but the
-- lua5.4 of a Lua block runs without the sanitizer runtime a sanitizer build's environment
-- preloads for lua5.4 (its leak check would fail mktemp or cc; the programs built here link
-- the runtime themselves).
local function sh(cmd)
  local p = io.popen("(unset LD_PRELOAD; " .. cmd .. ") 2>&1")
  local out = p:read("a")
  return p:close(), out
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local tmp = assert(select(2, sh("mktemp -d")):match("^(%S+)\n"), "mktemp failed")
local function cleanup() sh("rm -rf " .. q(tmp)) end
local nblock = 0
local function blockdir() -- a fresh folder for one block
  nblock = nblock + 1
  local d = tmp .. "/b" .. nblock
  sh("mkdir " .. q(d))
  return d
end
-- }======

-- {====== pages and blocks ======

-- parse(page, text) -> the fenced blocks: {lang, line (the first code line's), lines,
-- mark = {kind, why} or nil}; the mark is the last non-blank line before the fence.
local function parse(page, text)
  local blocks, cur, prev = {}, nil, ""
  local n = 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    if cur then
      if line:match("^%s*```%s*$") then
        blocks[#blocks + 1], cur = cur, nil
      else
        cur.lines[#cur.lines + 1] = line:sub(#cur.indent + 1)
      end
    else
      local indent, lang = line:match("^(%s*)```%s*([%w_+-]*)%s*$")
      if indent then
        if lang == "" then error(("%s:%d: a code block without a language"):format(page, n)) end
        local kind, why = prev:match("^%s*<!%-%-%s*([%w-]+):%s*(.-)%s*%-%->%s*$")
        if kind and kind ~= "no-test" and kind ~= "pending" and kind ~= "excerpt" then
          error(("%s:%d: unknown mark '%s' (no-test, pending or excerpt)"):format(page, n - 1,
            kind))
        end
        if kind and why == "" then error(("%s:%d: a %s mark says why"):format(page, n - 1, kind)) end
        cur = { lang = lang, line = n + 1, lines = {}, indent = indent,
                mark = kind and { kind = kind, why = why } }
      end
      if not line:match("^%s*$") then prev = line end
    end
  end
  if cur then error(("%s:%d: unclosed code block"):format(page, cur.line - 1)) end
  return blocks
end
-- }======

-- {====== lua blocks ======

-- What `...`-texts match: whitespace runs as one space, `...` anything (in the child too).
local matches_src = [==[
local function norm(s) return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")) end
local function MATCHES(want, got)
  local pat = norm(want):gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"):gsub("%%%.%%%.%%%.", ".-")
  return norm(got):match("^" .. pat .. "$") ~= nil
end
]==]
local matches = load(matches_src .. "return MATCHES\n")()

-- The child's prelude: print and __show record what each line of the page gives; at the end
-- every `-->` text is compared with it.
local prelude = [==[
local got, real_print = {}, print
local function record(s) -- what the page's line gives (record <- emit <- print <- the page)
  local info = debug.getinfo(4, "Sl")
  if info and info.source == "@" .. page then
    local t = got[info.currentline] or {}
    got[info.currentline], t[#t + 1] = t, s
  end
end
local function show(v, nested)
  if type(v) == "table" and getmetatable(v) == nil then
    local parts, n = {}, #v
    for i = 1, n do parts[#parts + 1] = show(v[i], true) end
    local keys = {}
    for k in pairs(v) do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
    end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. " = " .. show(v[k], true) end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  if nested and type(v) == "string" then return ("%q"):format(v) end
  return tostring(v)
end
local function emit(conv, sep, ...) -- prints and records the values, converted
  local t = table.pack(...)
  for i = 1, t.n do t[i] = conv(t[i]) end
  local s = table.concat(t, sep, 1, t.n)
  record(s)
  real_print(s)
end
function print(...) emit(tostring, "\t", ...) end
function __show(...) emit(show, "  ", ...) end
function __raises(f)
  local ok, err = pcall(f)
  emit(tostring, "", ok and "(no error)" or "error: " .. tostring(err))
end
local chunk = assert(load(code, "@" .. page))
local ok, err = xpcall(chunk, debug.traceback)
if not ok then
  io.stderr:write(tostring(err), "\n")
  os.exit(1)
end
local bad = 0
for line, text in pairs(want) do
  local g = got[line] and table.concat(got[line], "\n")
  if not g then
    io.stderr:write(("%s:%d: gave nothing, expected: %s\n"):format(page, line, text))
    bad = bad + 1
  elseif not MATCHES(text, g) then
    io.stderr:write(("%s:%d: expected: %s\n%s:%d:      got: %s\n"):format(page, line, text,
      page, line, g))
    bad = bad + 1
  end
end
os.exit(bad == 0 and 0 or 1)
]==]

-- transform(block) -> the code (with the page's line numbers) and the `-->` texts by line.
local function transform(page, b)
  local out, want, last = {}, {}, nil
  for _ = 1, b.line - 1 do out[#out + 1] = "" end
  for k, line in ipairs(b.lines) do
    local n = b.line + k - 1
    local code, text = line:match("^(.-)%-%->%s?(.*)$")
    if not code then
      out[#out + 1], last = line, nil
    elseif code:match("^%s*$") then
      if not last then error(("%s:%d: a `-->` text continues nothing"):format(page, n)) end
      want[last] = want[last] .. "\n" .. text
      out[#out + 1] = ""
    else
      local c = code:gsub("%s+$", "")
      local expr = load("return " .. c) ~= nil
      if text:match("^error:") then
        if expr then
          c = "__raises(function() return " .. c .. " end)"
        elseif load(c) then
          c = "__raises(function() " .. c .. " end)"
        else
          error(("%s:%d: `--> error:` needs a whole statement on its line"):format(page, n))
        end
      elseif not c:match("^%s*print%s*%(") and expr then
        c = "__show(" .. c .. ")"
      end
      out[#out + 1], want[n], last = c, text, n
    end
  end
  return table.concat(out, "\n"), want
end

local function serialize(t) -- a table of line -> string, as Lua source
  local parts = {}
  for k, v in pairs(t) do parts[#parts + 1] = ("[%d] = %q"):format(k, v) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local function run_lua(page, b) -- -> ok, message, stdout
  local code, want = transform(page, b)
  local dir = blockdir()
  write(dir .. "/run.lua", matches_src .. "local page, code, want = " .. ("%q"):format(page) ..
    ", " .. ("%q"):format(code) .. ", " .. serialize(want) .. "\n" .. prelude)
  local p = io.popen("cd " .. q(dir) .. " && lua5.4 run.lua 2>" .. q(dir .. "/err"))
  local out = p:read("a")
  local ok = p:close()
  local err = read(dir .. "/err")
  return ok, err, out
end
-- }======

-- {====== C and CMake blocks ======

local prefix -- the temporary install of BUILD_DIR's host library: {dir, pc (ltensor.pc's folder)}
local function install()
  if prefix then return true end
  local dir = tmp .. "/prefix"
  local ok, out = sh("cmake --install " .. q(build) .. " --prefix " .. q(dir))
  if not ok then return false, "cmake --install " .. build .. " failed:\n" .. out end
  local _, found = sh("find " .. q(dir) .. " -name ltensor.pc")
  local pc = found:match("^(.-)/ltensor%.pc")
  if not pc then return false, "the build installs no ltensor.pc (LTENSOR_INSTALL_HOST?)" end
  prefix = { dir = dir, pc = pc }
  return true
end

local sanflags = sanitize ~= "" and ("-fsanitize=" .. sanitize .. " -fno-omit-frame-pointer") or ""

local function run_cmake_host(dir, cmakelists, c) -- -> ok, message, stdout
  write(dir .. "/CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(doc LANGUAGES C)\n"
    .. cmakelists)
  write(dir .. "/host.c", c)
  local ok, out = sh(("cmake -S %s -B %s/b -DCMAKE_PREFIX_PATH=%s -DCMAKE_C_FLAGS=%s " ..
      "-DCMAKE_EXE_LINKER_FLAGS=%s && cmake --build %s/b"):format(q(dir), q(dir), q(prefix.dir),
      q(sanflags), q(sanflags), q(dir)))
  if not ok then return false, out end
  local _, exe = sh("find " .. q(dir .. "/b") .. " -maxdepth 1 -type f -perm -u+x")
  exe = exe:match("[^\n]+")
  if not exe then return false, "the CMake block builds no program" end
  if not c:match("int%s+main%s*%(") then return true, "", "" end
  ok, out = sh("cd " .. q(dir) .. " && " .. q(exe))
  return ok, ok and "" or out, out
end

local function run_c(page, b) -- -> ok, message, stdout
  local ok, msg = install()
  if not ok then return false, msg end
  local dir = blockdir()
  local c = table.concat(b.lines, "\n") .. "\n"
  if c:match("ltensor_python%.h") then -- Python's embedding library: through CMake's target
    return run_cmake_host(dir, "find_package(ltensor CONFIG REQUIRED)\n" ..
      "add_executable(host host.c)\ntarget_link_libraries(host PRIVATE ltensor::python)\n", c)
  end
  write(dir .. "/host.c", c)
  local main = c:match("int%s+main%s*%(")
  local env = "PKG_CONFIG_PATH=" .. q(prefix.pc) .. " "
  local cmd = ("cc -std=c11 -Wall -Wextra -Wpedantic -Werror %s %s -o %s/host %s " ..
      "$(%spkg-config --cflags --libs ltensor) -Wl,-rpath,$(%spkg-config --variable=libdir ltensor)")
      :format(sanflags, main and "" or "-c", q(dir), q(dir .. "/host.c"), env, env)
  local out
  ok, out = sh(cmd)
  if not ok then return false, page .. ":" .. b.line .. ": does not compile:\n" .. out end
  if not main then return true, "", "" end
  ok, out = sh("cd " .. q(dir) .. " && ./host")
  return ok, ok and "" or "exited with an error:\n" .. out, out
end

local function run_cmake(page, b, last_c)
  if not last_c then return false, "a CMake block needs a C block on the page" end
  local text = table.concat(b.lines, "\n") .. "\n"
  if not text:match("host%.c") then return false, "the CMake block does not build host.c" end
  local ok, msg = install()
  if not ok then return false, msg end
  return run_cmake_host(blockdir(), text, table.concat(last_c.lines, "\n") .. "\n")
end
-- }======

-- {====== excerpts ======

local function lines_of(text) -- the lines of text, trailing whitespace taken off
  local ls = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do ls[#ls + 1] = (line:gsub("%s+$", "")) end
  return ls
end

local function run_excerpt(b, path) -- -> ok, message: b's lines appear in a row in path
  local f = io.open(src .. "/" .. path, "rb")
  if not f then return false, "no file " .. path end
  local file = lines_of(f:read("a"))
  f:close()
  local want = lines_of(table.concat(b.lines, "\n"))
  for i = 1, #file - #want + 1 do
    local k = 1
    while k <= #want and file[i + k - 1] == want[k] do k = k + 1 end
    if k > #want then return true, "" end
  end
  return false, "the block is not in " .. path .. " as it stands (quote it again from there)"
end
-- }======

-- {====== shell and JSON blocks ======

local makefile = read(src .. "/Makefile")
local function make_target(t)
  return makefile:find("\n" .. t:gsub("%-", "%%-") .. "%s*:") ~= nil
end
local builtins = { cd = true, eval = true, export = true, source = true, ["."] = true,
  echo = true, set = true, ["["] = true, test = true }

local function words(cmd) -- shell words, quotes kept out, $(...) as one word
  local ws, i = {}, 1
  while i <= #cmd do
    local c = cmd:sub(i, i)
    if c:match("%s") then
      i = i + 1
    else
      local j, w = i, ""
      while j <= #cmd and not cmd:sub(j, j):match("%s") do
        local ch = cmd:sub(j, j)
        if ch == '"' or ch == "'" then
          local k = cmd:find(ch, j + 1, true) or #cmd
          w, j = w .. cmd:sub(j + 1, k - 1), k + 1
        elseif cmd:sub(j, j + 1) == "$(" then
          local depth, k = 0, j
          repeat
            local x = cmd:sub(k, k)
            if x == "(" then depth = depth + 1 elseif x == ")" then depth = depth - 1 end
            k = k + 1
          until depth == 0 or k > #cmd
          w, j = w .. cmd:sub(j, k - 1), k
        else
          w, j = w .. ch, j + 1
        end
      end
      ws[#ws + 1], i = w, j
    end
  end
  return ws
end

local function check_command(cmd, problems)
  local ws = words(cmd)
  local k = 1
  while ws[k] and (ws[k]:match("^[%w_]+=") or ws[k] == "sudo" or ws[k] == "env") do k = k + 1 end
  local prog = ws[k]
  if not prog then return end
  if prog == "make" then
    for i = k + 1, #ws do
      if not ws[i]:match("^%-") and not ws[i]:match("=") and not make_target(ws[i]) then
        problems[#problems + 1] = "no make target '" .. ws[i] .. "'"
      end
    end
  elseif not builtins[prog] and not prog:match("^%$") then
    if prog:match("/") then
      if not io.open(src .. "/" .. prog) then problems[#problems + 1] = "no file " .. prog end
    elseif not sh("command -v " .. q(prog) .. " >/dev/null") then
      problems[#problems + 1] = "no program '" .. prog .. "' on PATH"
    end
  end
  for i = k + 1, #ws do -- paths into the checkout
    local w = ws[i]
    local top = w:match("^([%w_.-]+)/")
    if top and not w:match("[$*]") and (top == "examples" or top == "spec" or top == "tools"
        or top == "docs" or top == "src" or top == "bench" or top == "lua" or top == "cmake") then
      local f = io.open(src .. "/" .. w:gsub("[,;:)]$", ""))
      if f then f:close() else problems[#problems + 1] = "no file " .. w end
    end
  end
end

local function run_sh(_, b)
  local problems, text = {}, table.concat(b.lines, "\n"):gsub("\\\n", " ")
  for line in (text .. "\n"):gmatch("(.-)\n") do
    line = line:gsub("^%s*#.*$", ""):gsub("%s+#%s.*$", "")
    for cmd in (line .. "&&"):gmatch("(.-)%s*[&|;]+") do check_command(cmd, problems) end
  end
  return #problems == 0, table.concat(problems, "; "), ""
end

local function run_json(_, b)
  local dir = blockdir()
  write(dir .. "/b.json", table.concat(b.lines, "\n"))
  local ok, out = sh("python3 -c 'import json, sys; json.load(open(sys.argv[1]))' " ..
    q(dir .. "/b.json"))
  return ok, out, ""
end
-- }======

-- {====== the run ======

if #pages == 0 then
  pages[1] = "README.md"
  for f in select(2, sh("cd " .. q(src) .. " && ls docs/*.md")):gmatch("[^\n]+") do
    pages[#pages + 1] = f
  end
end

local failed, total, pending_n, skipped = 0, 0, 0, {}
for _, page in ipairs(pages) do
  local path = page:match("^/") and page or src .. "/" .. page
  local blocks = parse(page, read(path))
  local counts, last, last_c = {}, nil, nil
  for i, b in ipairs(blocks) do
    local where = ("%s:%d"):format(page, b.line - 1)
    local ok, msg, out
    if b.mark and b.mark.kind == "no-test" then
      skipped[#skipped + 1] = where .. " (" .. b.lang .. "): " .. b.mark.why
    else
      if b.mark and b.mark.kind == "excerpt" then
        ok, msg = run_excerpt(b, b.mark.why)
      elseif b.lang == "lua" then
        ok, msg, out = run_lua(page, b)
      elseif b.lang == "c" then
        ok, msg, out = run_c(page, b)
        last_c = b
      elseif b.lang == "cmake" then
        local c = last_c
        for j = i + 1, #blocks do
          if c then break end
          if blocks[j].lang == "c" then c = blocks[j] end
        end
        ok, msg, out = run_cmake(page, b, c)
      elseif b.lang == "sh" then
        ok, msg, out = run_sh(page, b)
      elseif b.lang == "json" then
        ok, msg, out = run_json(page, b)
      elseif b.lang == "text" then
        if not last or (last.lang ~= "lua" and last.lang ~= "c") then
          ok, msg = false, "a text block shows the output of the lua or c block before it"
        elseif not last.out then
          ok, msg = false, "the block before it failed"
        else
          local want = table.concat(b.lines, "\n")
          ok = matches(want, last.out)
          msg = ok and "" or ("expected:\n%s\ngot:\n%s"):format(want, last.out)
        end
      else
        ok, msg = false, "no test for ```" .. b.lang .. " blocks"
      end
      b.out = (b.lang == "lua" or b.lang == "c") and ok and out or nil
      local kind = b.mark and b.mark.kind == "excerpt" and "excerpt" or b.lang
      total = total + 1
      counts[kind] = (counts[kind] or 0) + 1
      if b.mark and b.mark.kind == "pending" then
        if ok then
          failed = failed + 1
          print(("FAIL %s: marked pending (%s) but passes: remove the mark"):format(where, b.mark.why))
        else
          pending_n = pending_n + 1
          print(("pending %s: %s"):format(where, b.mark.why))
        end
      elseif not ok then
        failed = failed + 1
        print(("FAIL %s (%s):\n%s"):format(where, kind, msg))
      end
    end
    last = b
  end
  local parts = {}
  for lang, n in pairs(counts) do parts[#parts + 1] = n .. " " .. lang end
  table.sort(parts)
  print(("%s: %d blocks (%s)"):format(page, #blocks, table.concat(parts, ", ")))
end
for _, s in ipairs(skipped) do print("not run: " .. s) end
print(("%d blocks run, %d failed, %d pending, %d marked no-test"):format(total, failed, pending_n,
  #skipped))
cleanup()
os.exit(failed == 0 and 0 or 1)
-- }======
