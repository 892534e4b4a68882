-- bench_table.lua -- the one table `make bench` ends with: every row every bench recorded.
--
-- Reads the file LTENSOR_BENCH_RECORD named during the run, where each bench appended its rows
-- (bench/bench.h, bench_record; bench/gc_memory.lua writes the same from Lua), one
-- tab-separated line each:
--   bench  case  threads  ours  reference-name  reference  ratio  comparison  goal  verdict
-- and prints them grouped by bench, in the order the benches ran: ours and the reference (as
-- times, or as numbers of the unit in brackets ending the reference's name, "goal [MiB]"),
-- the ratio, the goal (">= 1.00x": the ratio must reach it, "<= 1.20x": it must not exceed it,
-- "-": information) and PASS, MISS or "info". The last line: "bench: N rows, P pass, M miss".
--
-- Usage: lua5.4 tools/bench_table.lua FILE   (run by the Makefile's bench target)
-- Loaded with dofile (no arguments) it returns its functions instead: parse(text) -> rows, bad
-- line numbers; format(rows) -> the table's text (spec/bench_table_spec.lua checks them).
local M = {}

-- {====== reading ======

local FIELDS = { "bench", "case", "threads", "ours", "ref_name", "ref", "ratio", "cmp", "goal",
                 "verdict" }
local VERDICTS = { PASS = true, MISS = true, INFO = true }

-- The row of one line, or nil when the line is not one.
local function parse_line(line)
  local f = {}
  for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
  if #f ~= #FIELDS then return nil end
  local row = {}
  for i, name in ipairs(FIELDS) do row[name] = f[i] end
  for _, name in ipairs({ "threads", "ours", "ref", "ratio", "goal" }) do
    row[name] = tonumber(row[name])
    if not row[name] then return nil end
  end
  if not VERDICTS[row.verdict] or row.bench == "" then return nil end
  if row.verdict ~= "INFO" and row.cmp ~= ">=" and row.cmp ~= "<=" then return nil end
  return row
end

-- The rows of a record file's text, and the numbers of the lines that are not rows (blank
-- lines are skipped).
function M.parse(text)
  local rows, bad, n = {}, {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    line = line:gsub("\r$", "")
    if line ~= "" then
      local row = parse_line(line)
      if row then
        rows[#rows + 1] = row
      else
        bad[#bad + 1] = n
      end
    end
  end
  return rows, bad
end

-- }======

-- {====== printing ======

-- A time in ns, in the unit that keeps it readable.
local function time_str(ns)
  local a = math.abs(ns)
  if a < 1e3 then return ("%.1f ns"):format(ns) end
  if a < 1e6 then return ("%.2f us"):format(ns / 1e3) end
  if a < 1e9 then return ("%.2f ms"):format(ns / 1e6) end
  return ("%.2f s"):format(ns / 1e9)
end

-- ours and the reference of a row as text, and the reference's name without its unit.
local function values(row)
  local name, unit = row.ref_name:match("^(.-)%s+%[([%a/%%]+)%]$")
  if unit then
    return ("%.4g %s"):format(row.ours, unit), ("%.4g %s"):format(row.ref, unit), name
  end
  return time_str(row.ours), time_str(row.ref), row.ref_name
end

local function goal_str(row)
  if row.verdict == "INFO" then return "-" end
  return ("%s %.2fx"):format(row.cmp, row.goal)
end

local HEAD = { "case", "thr", "ours", "reference", "", "ratio", "goal", "" }

-- The table of rows (grouped by bench, in the order of their first rows) and its last line.
function M.format(rows)
  local order, groups = {}, {}
  for _, row in ipairs(rows) do
    if not groups[row.bench] then
      groups[row.bench] = {}
      order[#order + 1] = row.bench
    end
    local ours, ref, ref_name = values(row)
    local cells = { row.case, row.threads > 0 and tostring(row.threads) or "-", ours, ref_name,
                    ref, ("%.2fx"):format(row.ratio), goal_str(row),
                    row.verdict == "INFO" and "info" or row.verdict }
    table.insert(groups[row.bench], cells)
  end
  local width = {}
  for i, h in ipairs(HEAD) do width[i] = #h end
  for _, bench in ipairs(order) do
    for _, cells in ipairs(groups[bench]) do
      for i, c in ipairs(cells) do width[i] = math.max(width[i], #c) end
    end
  end
  -- text columns to the left, numbers to the right
  local right = { false, true, true, false, true, true, false, false }
  local function line(cells)
    local out = {}
    for i, c in ipairs(cells) do
      out[i] = right[i] and (" "):rep(width[i] - #c) .. c or c .. (" "):rep(width[i] - #c)
    end
    return "  " .. table.concat(out, "  "):gsub("%s+$", "")
  end
  local out = { "== every bench row (ours, the reference, ratio, goal) ==" }
  local pass, miss = 0, 0
  for _, bench in ipairs(order) do
    out[#out + 1] = bench
    out[#out + 1] = line(HEAD)
    for _, cells in ipairs(groups[bench]) do
      out[#out + 1] = line(cells)
      if cells[8] == "PASS" then pass = pass + 1 elseif cells[8] == "MISS" then miss = miss + 1 end
    end
  end
  out[#out + 1] = ("bench: %d rows, %d pass, %d miss"):format(#rows, pass, miss)
  return table.concat(out, "\n") .. "\n"
end

-- }======

-- Prints the table of the record file at path; 0, or 1 when it cannot be read.
local function main(path)
  local f, err = io.open(path, "r")
  if not f then
    io.stderr:write("bench_table: ", err, "\n")
    return 1
  end
  local text = f:read("a")
  f:close()
  local rows, bad = M.parse(text)
  for _, n in ipairs(bad) do
    io.stderr:write(("bench_table: %s:%d: not a bench row (skipped)\n"):format(path, n))
  end
  io.write(M.format(rows))
  return 0
end

local path = ...
if path then os.exit(main(path)) end
return M
