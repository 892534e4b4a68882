-- tools/bench_table.lua: the table `make bench` ends with, from the rows the benches recorded
-- (bench/bench.h, bench_record).
local bt = dofile("tools/bench_table.lua")

local SAMPLE = table.concat({
  "access\t1-d t[i] read + write float32\t0\t82.5\tminimal x[i]\t68.06\t1.212\t<=\t1.2\tMISS",
  "index\tindex_select\t1\t1.5e+06\tNumPy\t2e+06\t1.333\t>=\t1\tPASS",
  "access\t2-d t[i][j] read + write float32\t0\t150\tminimal x[i]\t68.06\t2.204\t<=\t2.5\tPASS",
  "index\tgather\t2\t300000\tNumPy\t250000\t0.8333\t\t0\tINFO",
  "",
  "not a row",
  "gc_memory\tgenerational x:exp() peak\t0\t120\tgoal [MiB]\t300\t0.4\t<=\t1\tPASS",
  "index\tsort\t1\t2.5e+09\tNumPy\t2e+09\t0.8\t>=\t1.5\tMISS",
}, "\n") .. "\n"

local function lines(text)
  local out = {}
  for l in text:gmatch("([^\n]*)\n") do out[#out + 1] = l end
  return out
end

-- asserts that line holds every one of the plain strings ...
local function has(line, ...)
  for _, want in ipairs({ ... }) do
    assert.truthy(line:find(want, 1, true), ("%q lacks %q"):format(line, want))
  end
end

-- the printed line of a case
local function row_line(out, case)
  for _, l in ipairs(lines(out)) do
    if l:find("  " .. case, 1, true) == 1 then return l end
  end
end

describe("tools/bench_table.lua", function()
  it("reads every tab-separated row and names the lines that are not rows", function()
    local rows, bad = bt.parse(SAMPLE)
    assert.are.equal(6, #rows)
    assert.are.same({ 6 }, bad) -- the blank line 5 is skipped, not reported
    assert.are.equal("access", rows[1].bench)
    assert.are.equal(82.5, rows[1].ours)
    assert.are.equal("<=", rows[1].cmp)
    assert.are.equal("", rows[4].cmp)
    assert.are.equal("INFO", rows[4].verdict)
  end)

  it("refuses a row with a missing field, a bad number or an unknown verdict", function()
    local rows, bad = bt.parse(table.concat({
      "a\tb\t0\t1\tref\t1\t1\t<=\t1",             -- nine fields
      "a\tb\t0\tfast\tref\t1\t1\t<=\t1\tPASS",     -- ours not a number
      "a\tb\t0\t1\tref\t1\t1\t<=\t1\tGOOD",        -- verdict
      "a\tb\t0\t1\tref\t1\t1\t\t1\tPASS",          -- a goal row without its comparison
      "a\tb\t0\t1\tref\t1\t1\t>=\t1\tPASS",
    }, "\n"))
    assert.are.equal(1, #rows)
    assert.are.same({ 1, 2, 3, 4 }, bad)
  end)

  it("groups the rows by bench in the order the benches ran", function()
    local out = bt.format((bt.parse(SAMPLE)))
    local order = {}
    for _, l in ipairs(lines(out)) do
      if l:match("^%S") and not l:match("^==") and not l:match("^bench:") then
        order[#order + 1] = l
      end
    end
    assert.are.same({ "access", "index", "gc_memory" }, order)
    -- the access rows together, under their bench, though index's came between them
    local text = out:match("\naccess\n(.-)\nindex\n")
    assert.truthy(text:find("1-d t[i]", 1, true))
    assert.truthy(text:find("2-d t[i][j]", 1, true))
  end)

  it("prints a '<=' row that exceeds its goal as a miss, ours over the floor", function()
    has(row_line(bt.format((bt.parse(SAMPLE))), "1-d t[i]"), "82.5 ns", "minimal x[i]", "68.1 ns",
        "1.21x  <= 1.20x  MISS")
  end)

  it("prints a '<=' row within its goal and a '>=' row reaching it as passes", function()
    local out = bt.format((bt.parse(SAMPLE)))
    has(row_line(out, "2-d t[i][j]"), "2.20x  <= 2.50x  PASS")
    local l = row_line(out, "index_select")
    has(l, "1.50 ms", "2.00 ms", "1.33x  >= 1.00x  PASS")
    assert.truthy(l:match("^  index_select%s+1%s"), "the thread count")
  end)

  it("prints a '>=' row below its goal as a miss, in seconds when long", function()
    has(row_line(bt.format((bt.parse(SAMPLE))), "sort"), "2.50 s", "0.80x  >= 1.50x  MISS")
  end)

  it("prints an information row without a goal", function()
    local l = row_line(bt.format((bt.parse(SAMPLE))), "gather")
    has(l, "300.00 us", "0.83x  -")
    assert.truthy(l:match("info$"))
    assert.is_nil(l:find("PASS", 1, true))
  end)

  it("prints ours and the reference in the unit the reference's name ends with", function()
    local l = row_line(bt.format((bt.parse(SAMPLE))), "generational")
    has(l, "120 MiB", "goal", "300 MiB")
    assert.is_nil(l:find("[MiB]", 1, true))
    assert.is_nil(l:find(" ns", 1, true))
  end)

  it("ends with the count of rows, passes and misses", function()
    local out = lines(bt.format((bt.parse(SAMPLE))))
    assert.are.equal("bench: 6 rows, 3 pass, 2 miss", out[#out])
    local empty = lines(bt.format({}))
    assert.are.equal("bench: 0 rows, 0 pass, 0 miss", empty[#empty])
  end)

  it("prints the table of a file given on the command line, and fails on a missing one", function()
    -- the tool's output (stderr too) and whether it exited 0
    local function run_tool(file)
      local p = assert(io.popen("lua5.4 tools/bench_table.lua " .. file .. " 2>&1"))
      local out = p:read("a")
      return out, p:close() == true
    end
    local path = os.tmpname()
    assert(io.open(path, "w")):write(SAMPLE):close()
    local out, ok = run_tool(path)
    os.remove(path)
    assert.is_true(ok)
    has(out, "not a bench row", "bench: 6 rows, 3 pass, 2 miss\n")
    out, ok = run_tool(path .. ".missing")
    assert.is_false(ok)
    has(out, "bench_table:")
  end)
end)
