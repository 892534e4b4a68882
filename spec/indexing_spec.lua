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
    assert.has_error(function() return t[0] end, "index 0 is out of range for dim 1 of size 4")
    assert.has_error(function() return t[5] end, "index 5 is out of range for dim 1 of size 4")
    assert.has_error(function() return t[-5] end, "index -5 is out of range for dim 1 of size 4")
    assert.has_error(function() return t[1.5] end, "index must be an integer (got 1.5)")
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
