-- Indexing: 1-based, inclusive, negative from the end (as string.sub); views share memory.
local lt = require "ltensor"

describe("t[i] on a 1-d tensor", function()
  local t = lt.tensor({ 10, 20, 30, 40 })

  it("is a Lua value of the dtype's kind", function()
    assert.equal(10, t[1])
    assert.equal(40, t[4])
    assert.equal("integer", math.type(t[1]))
    assert.equal("float", math.type(lt.tensor({ 1.5 })[1]))
    assert.equal(true, lt.tensor({ true })[1])
  end)

  it("counts negative indices from the end", function()
    assert.equal(40, t[-1])
    assert.equal(10, t[-4])
  end)

  it("accepts floats with an integral value", function()
    assert.equal(20, t[2.0])
  end)

  it("raises out of range", function()
    assert.has_error(function() return t[0] end,
      "index 0 is out of range for dim 1 of size 4 (indices are 1-based)")
    assert.has_error(function() return t[6] end, "index 6 is out of range for dim 1 of size 4")
    assert.has_error(function() return t[-5] end, "index -5 is out of range for dim 1 of size 4")
    assert.has_error(function() return t[1.5] end, "index must be an integer, got 1.5")
  end)

  it("writes elements with t[i] = v", function()
    local x = lt.zeros(3, "int64")
    x[1] = 5
    x[-1] = 7
    assert.same({ 5, 0, 7 }, x:tolist())
    assert.has_error(function() x[4] = 1 end)
  end)

  it("gives nil for unknown names, like Lua objects", function()
    assert.is_nil(t.no_such_method)
  end)
end)

describe("t[i] on an n-d tensor", function()
  it("is a view of the sub-tensor that shares memory", function()
    local m = lt.arange(6):view(2, 3)
    local row = m[2]
    assert.same({ 3 }, row.shape)
    assert.same({ 3, 4, 5 }, row:tolist())
    row[1] = 99
    assert.equal(99, m:get(2, 1))
    assert.equal(4, m[2][2])
  end)

  it("fills or copies into the sub-tensor on assignment", function()
    local m = lt.zeros(2, 3, "int32")
    m[1] = 7
    m[2] = { 1, 2, 3 }
    assert.same({ { 7, 7, 7 }, { 1, 2, 3 } }, m:tolist())
    m[1] = lt.tensor({ 4, 5, 6 })
    assert.same({ 4, 5, 6 }, m[1]:tolist())
  end)

  it("keeps the base alive through a view", function()
    local v
    do v = lt.arange(1000):view(10, 100)[3] end
    collectgarbage()
    collectgarbage()
    assert.equal(200, v[1])
  end)

  it("raises for a 0-d tensor", function()
    assert.has_error(function() return lt.tensor(1)[1] end, "cannot index a 0-d tensor (use item())")
  end)
end)

describe("iteration", function()
  it("reads #t + 1 as nil, the border of a sequence, and raises writing it", function()
    local v, m = lt.arange(3), lt.zeros(2, 3)
    assert.is_nil(v[4])
    assert.is_nil(m[3])
    assert.is_nil(lt.zeros(0)[1])
    assert.has_error(function() v[4] = 1 end, "index 4 is out of range for dim 1 of size 3")
    assert.has_error(function() m[3] = 1 end, "index 3 is out of range for dim 1 of size 2")
    -- only that one index, and only along dim 1 with an integer key
    assert.has_error(function() return v[5] end, "index 5 is out of range for dim 1 of size 3")
    assert.has_error(function() return m[{ 1, 4 }] end, "index 4 is out of range for dim 2 of size 3")
    assert.has_error(function() return m[{ 3 }] end, "index 3 is out of range for dim 1 of size 2")
  end)

  it("with ipairs ends cleanly on a 1-d tensor, giving its elements", function()
    local seen = {}
    for i, x in ipairs(lt.tensor({ 10, 20, 30 })) do seen[i] = x end
    assert.same({ 10, 20, 30 }, seen)
    local n = 0
    for _ in ipairs(lt.zeros(0)) do n = n + 1 end
    assert.equal(0, n)
  end)

  it("with ipairs gives the rows of an n-d tensor as views", function()
    local m = lt.arange(6):view(3, 2)
    local rows = {}
    for i, row in ipairs(m) do
      assert.is_true(lt.is_tensor(row))
      rows[i] = row:tolist()
      row[1] = -i -- a view: writes reach m
    end
    assert.same({ { 0, 1 }, { 2, 3 }, { 4, 5 } }, rows)
    assert.same({ { -1, 1 }, { -2, 3 }, { -3, 5 } }, m:tolist())
    local n = 0
    for _, plane in ipairs(lt.zeros(2, 3, 4)) do
      assert.same({ 3, 4 }, plane.shape)
      n = n + 1
    end
    assert.equal(2, n)
  end)

  it("with pairs gives the same (i, t[i]) as ipairs", function()
    local v = lt.tensor({ 1.5, 2.5 })
    local got = {}
    for i, x in pairs(v) do got[#got + 1] = { i, x } end
    assert.same({ { 1, 1.5 }, { 2, 2.5 } }, got)
    local m = lt.arange(4):view(2, 2):transpose(1, 2)
    got = {}
    for i, row in pairs(m) do got[i] = row:tolist() end
    assert.same({ { 0, 2 }, { 1, 3 } }, got)
    for _ in pairs(lt.zeros(0, 3)) do error("an empty tensor has no rows") end
  end)

  it("raises on a 0-d tensor, as torch's does", function()
    local s = lt.tensor(5)
    assert.has_error(function() for _ in pairs(s) do end end, "iteration over a 0-d tensor")
    assert.has_error(function() for _ in ipairs(s) do end end,
      "cannot index a 0-d tensor (use item())")
  end)

  it("raises on a released tensor", function()
    local m = lt.zeros(2, 2)
    do local _ <close> = m end
    assert.has_error(function() for _ in pairs(m) do end end, "tensor has been released")
    assert.has_error(function() for _ in ipairs(m) do end end, "tensor has been released")
  end)
end)

describe("t[i][j]", function()
  it("reads and writes the elements of an n-d tensor", function()
    local m = lt.zeros(3, 4, "int32")
    for i = 1, 3 do
      for j = 1, 4 do m[i][j] = m[i][j] + 10 * i + j end
    end
    assert.same({ { 11, 12, 13, 14 }, { 21, 22, 23, 24 }, { 31, 32, 33, 34 } }, m:tolist())
    assert.equal(34, m[-1][-1])
    local c = lt.zeros(2, 3, 4)
    c[2][3][4] = 7
    assert.equal(7, c:get(2, 3, 4))
    assert.equal(7, c[-1][-1][-1])
  end)

  it("gives each row of a non-contiguous or expanded tensor", function()
    local t = lt.arange(6):view(2, 3):transpose(1, 2) -- 3x2
    assert.same({ 0, 3 }, t[1]:tolist())
    assert.same({ 2, 5 }, t[3]:tolist())
    assert.same({ 1, 4 }, t[2]:tolist())
    local e = lt.arange(3):expand(2, 3)
    assert.same({ 0, 1, 2 }, e[1]:tolist())
    assert.same({ 0, 1, 2 }, e[2]:tolist())
    local r = lt.arange(4)[{ { 4, 1, -1 } }]:view(2, 2)
    assert.same({ { 3, 2 }, { 1, 0 } }, { r[1]:tolist(), r[2]:tolist() })
  end)

  it("may give one row view again for the same row: t[i] is kept by t", function()
    local m = lt.zeros(3, 2)
    assert.is_true(rawequal(m[2], m[2]))
    assert.is_false(rawequal(m[1], m[2]))
    assert.same({ 2 }, m[1].shape)
  end)

  it("makes a row closed with <close> again", function()
    local m = lt.arange(4):view(2, 2)
    do
      local r <close> = m[1]
      assert.equal(1, r[2])
    end
    assert.equal(1, m[1][2])
    m[1][2] = 9
    assert.equal(9, m:get(1, 2))
  end)

  it("keeps a row usable after its base is closed or collected", function()
    local m = lt.arange(6):view(2, 3)
    local r = m[2]
    do local _ <close> = m end
    assert.has_error(function() return m[2] end, "tensor has been released")
    assert.same({ 3, 4, 5 }, r:tolist())
    r[1] = 30
    assert.equal(30, r[1])
    local r2
    do r2 = lt.arange(6):view(3, 2)[3] end
    collectgarbage()
    collectgarbage()
    assert.same({ 4, 5 }, r2:tolist())
  end)

  it("writes a copy-on-write clone's rows, never its source's", function()
    local t = lt.arange(4):view(2, 2)
    local row = t[1] -- kept by t, made before the clone
    local c = t:clone()
    c[1][1] = 100
    assert.same({ { 0, 1 }, { 2, 3 } }, t:tolist())
    assert.same({ { 100, 1 }, { 2, 3 } }, c:tolist())
    row[2] = 50
    t[2][1] = 60
    assert.same({ { 0, 50 }, { 60, 3 } }, t:tolist())
    assert.same({ { 100, 1 }, { 2, 3 } }, c:tolist())
  end)

  it("refuses writes through the rows of a read-only tensor", function()
    local dlpack = require "ltensor.dlpack"
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.zeros(2, 2)))
    assert.equal(0, ro[1][1])
    local ok, err = pcall(function() ro[1][1] = 1 end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("read%-only"), tostring(err))
    assert.equal(0, ro:get(1, 1))
  end)

  it("never takes what a script put in the tensor's user value for a row", function()
    local m = lt.arange(6):view(2, 3)
    local other = lt.arange(3)
    local planted = {
      other, m:view(6), m[{ 2, { 1, 3 } }]:view(3, 1), m:transpose(1, 2)[1], "row", 42, {},
      io.stdout, lt.zeros(2, 3)[1],
    }
    local closed = m[2]:clone()
    do local _ <close> = closed end
    planted[#planted + 1] = closed
    for _, p in ipairs(planted) do
      debug.setuservalue(m, p, 1)
      assert.same({ 0, 1, 2 }, m[1]:tolist())
      debug.setuservalue(m, p, 1)
      assert.same({ 3, 4, 5 }, m[2]:tolist())
    end
    assert.same({ 0, 1, 2 }, other:tolist())
  end)

  it("keeps the memory the collector sees bounded: a row view holds no copy", function()
    local helpers = require "helpers"
    collectgarbage()
    local before = helpers.status_kb("VmRSS")
    for _ = 1, 100 do
      local t = lt.ones(1024, 4096) -- 16 MiB, written
      t[1][1] = t[2][2] + 1
    end
    collectgarbage()
    local grown = helpers.status_kb("VmRSS") - before
    assert.is_true(grown < 256 * 1024, ("RSS grew by %d kB"):format(grown))
  end)
end)

describe("table keys", function()
  local m = lt.arange(12):view(3, 4)

  it("select with integers and keep dims with {}", function()
    assert.equal(6, m[{ 2, 3 }])
    assert.same({ 1, 5, 9 }, m[{ {}, 2 }]:tolist())
    assert.same({ 4, 5, 6, 7 }, m[{ 2, {} }]:tolist())
    assert.same({ 4, 5, 6, 7 }, m[{ 2 }]:tolist())
  end)

  it("take inclusive ranges {a, b} and {a, b, step}", function()
    assert.same({ { 5, 6 }, { 9, 10 } }, m[{ { 2, 3 }, { 2, 3 } }]:tolist())
    assert.same({ 0, 2 }, m[{ 1, { 1, 4, 2 } }]:tolist())
    assert.same({ { 8, 9, 10, 11 } }, m[{ { -1 } }]:tolist())
    assert.same({ 1, 2, 3 }, m[{ 1, { 2 } }]:tolist())
  end)

  it("take negative steps, walking backwards", function()
    assert.same({ 3, 2, 1, 0 }, m[{ 1, { -1, 1, -1 } }]:tolist())
    assert.same({ 11, 9 }, m[{ 3, { 4, 1, -2 } }]:tolist())
    assert.same({ 3, 1 }, m[{ 1, { nil, nil, -2 } }]:tolist())
  end)

  it("give empty ranges when the end comes before the start", function()
    assert.same({ 0, 4 }, m[{ { 2, 1 } }].shape)
    assert.same({ 0 }, m[{ 1, { 5, 4 } }].shape)
  end)

  it("raise for out-of-range ends, zero steps and too many indices", function()
    assert.has_error(function() return m[{ { 1, 5 } }] end)
    assert.has_error(function() return m[{ 1, { 0, 2 } }] end)
    assert.has_error(function() return m[{ 1, { 1, 2, 0 } }] end, "range step must be a nonzero integer")
    assert.has_error(function() return m[{ 1, 2, 3 }] end, "too many indices for a tensor of 2 dims")
    assert.has_error(function() return m[{ "a" }] end)
    assert.has_error(function() return m[true] end)
  end)

  it("write through ranges with broadcasting", function()
    local x = lt.zeros(3, 4, "int64")
    x[{ {}, { 2, 3 } }] = 1
    x[{ 3, {} }] = lt.tensor({ 1, 2, 3, 4 })
    x[{ { 1, 2 }, 4 }] = { 8, 9 }
    assert.same({ { 0, 1, 1, 8 }, { 0, 1, 1, 9 }, { 1, 2, 3, 4 } }, x:tolist())
    x[{ 1, 1 }] = -5
    assert.equal(-5, x:get(1, 1))
  end)

  it("copy correctly between overlapping views of one tensor", function()
    local x = lt.arange(6)
    x[{ { 2, 6 } }] = x[{ { 1, 5 } }]
    assert.same({ 0, 0, 1, 2, 3, 4 }, x:tolist())
  end)
end)

describe("index messages", function()
  local t = lt.zeros(2, 3)
  local v = lt.arange(4)
  local raises = require("helpers").raises

  it("says that indices are 1-based when the index is 0", function()
    raises("index 0 is out of range for dim 1 of size 4 %(indices are 1%-based%)",
      function() return v[0] end)
    raises("index 0 is out of range for dim 2 of size 3 %(indices are 1%-based%)",
      function() return t[{ 1, 0 }] end)
    raises("%(indices are 1%-based%)", function() v[0] = 1 end)
    raises("%(indices are 1%-based%)", t.select, t, 1, 0)
  end)

  it("raises at the position of the script that indexed", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() return v[6] end)
    assert.is_false(ok)
    assert.equal("indexing_spec.lua:" .. line .. ":", err:match("[^/]*:%d+:"))
    line = debug.getinfo(1, "l").currentline + 1
    ok, err = pcall(function() t[{ { 1, 9 } }] = 1 end)
    assert.is_false(ok)
    assert.equal("indexing_spec.lua:" .. line .. ":", err:match("[^/]*:%d+:"))
  end)

  it("blames the first endpoint outside the dim, the start before the end", function()
    -- {3, 5} on size 2: both are outside; this blamed 5 (start 3 passed as "one past the end")
    raises("range start 3 is out of range for dim 1 of size 2",
      function() return t[{ { 3, 5 } }] end)
    raises("range start 4 is out of range for dim 2 of size 3",
      function() return t[{ {}, { 4, 9 } }] end)
    raises("range start 0 is out of range for dim 1 of size 2 %(indices are 1%-based%)",
      function() return t[{ { 0, 5 } }] end)
    raises("range start 3 is out of range for dim 1 of size 2",
      function() return t[{ { 3, 1, -1 } }] end)
    raises("range end 0 is out of range for dim 1 of size 2",
      function() return t[{ { 2, 0, -1 } }] end)
    -- one past the end stays a valid start of an empty range, as t[2:] in Python
    assert.same({ 0, 3 }, t[{ { 3, 2 } }].shape)
    assert.same({ 0, 3 }, t[{ { 0, 1, -1 } }].shape)
  end)

  it("raises for a range with a fourth entry", function()
    raises("key entry #1: a range has at most 3 entries {start, end, step}",
      function() return t[{ { 1, 2, 1, 4 } }] end)
    raises("key entry #2: a range has at most 3 entries",
      function() return t[{ 1, { 1, 2, 1, 1 } }] end)
    raises("key entry #1: a range has at most 3 entries",
      function() t[{ { nil, nil, nil, 1 } }] = 0 end)
  end)

  it("names the entry of the key that holds a non-integer", function()
    raises("key entry #2: index must be an integer, got 1.5",
      function() return t[{ 1, 1.5 }] end)
    raises("key entry #2: range end must be an integer, got 2.5",
      function() return t[{ 1, { 1, 2.5 } }] end)
    raises("key entry #1: range start must be an integer, got string",
      function() return t[{ { "a" } }] end)
    raises("key entry #2: range step must be an integer, got table",
      function() t[{ {}, { 1, 2, {} } }] = 0 end)
  end)
end)

describe("get and set", function()
  it("read and write one element by its full index", function()
    local m = lt.zeros(2, 3, 4)
    m:set(2, 3, 4, 1.5)
    m:set(-1, 1, -4, 2)
    assert.equal(1.5, m:get(2, 3, 4))
    assert.equal(2, m:get(2, 1, 1))
    assert.equal(1.5, m[2][3][4])
  end)

  it("need exactly one index per dim", function()
    local m = lt.zeros(2, 2)
    assert.has_error(function() m:get(1) end, "get: expected 2 indices for a 2-d tensor, got 1")
    assert.has_error(function() m:set(1, 1) end)
    assert.has_error(function() m:get(1, 3) end, "index 3 is out of range for dim 2 of size 2")
  end)

  it("work on 0-d tensors with no index", function()
    local s = lt.tensor(3)
    s:set(4)
    assert.equal(4, s:get())
  end)
end)

describe("#t", function()
  it("is the size of dim 1", function()
    assert.equal(3, #lt.zeros(3, 5))
    assert.equal(0, #lt.zeros(0))
    assert.has_error(function() return #lt.tensor(1) end)
  end)
end)
