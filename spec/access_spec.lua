-- t[i], t[i] = v and t[i][j]: the fast paths of __index and __newindex (lua_index.c) give what
-- the general paths give, and leave every other case to them.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

local function err_of(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  return tostring(err)
end

describe("t[i] on a 1-d tensor", function()
  it("reads and writes elements 1-based, negative indices from the end, as torch's t[i - 1]", function()
    for _, dt in ipairs({ "float32", "float64", "int64", "int32", "uint8", "int16", "bool" }) do
      local t = lt.tensor({ 1, 0, 3, 4 }, { dtype = dt })
      if dt == "bool" then
        t[2], t[-1] = true, false
      else
        t[2], t[-1] = 9, 7
      end
      local want = dt == "bool" and { true, true, true, false } or { 1, 9, 3, 7 }
      assert.same(want, t:tolist(), dt)
      assert.equal(want[1], t[1], dt)
      assert.equal(want[4], t[-1], dt)
      assert.equal(want[1], t[-4], dt)
    end
  end)

  it("reads and writes through a strided view, into its base", function()
    local base = lt.arange(10):float()
    local v = base[{ { 2, 10, 3 } }] -- elements 1, 4, 7 (0-based values)
    assert.equal(4.0, v[2])
    v[-1] = 70
    assert.equal(70.0, base[8])
    local tr = lt.arange(6):float():view(2, 3):t() -- column view of a transposed tensor
    local col = tr[2]
    assert.same({ 1, 4 }, col:tolist())
    col[2] = 40
    assert.equal(40.0, tr[2][2])
  end)

  it("converts on write as torch does: float32 rounds, integers truncate, overflow raises", function()
    local f = lt.zeros(2)
    f[1] = 0.1
    assert.equal(string.unpack("f", string.pack("f", 0.1)), f[1])
    assert.is_true(f[1] ~= 0.1)
    f[2] = 2 ^ 60 -- beyond the fast path's exact range: the general path stores it
    assert.equal(2 ^ 60, f[2])
    local i = lt.zeros(2, { dtype = "int64" })
    i[1] = 3.0
    assert.equal(3, i[1])
    i[2] = 2.5
    assert.equal(2, i[2])
    assert.truthy(err_of(function() i[2] = 2 ^ 70 end):find("cannot be converted to int64", 1,
                                                             true))
    assert.equal(2, i[2])
    f[1] = 0 / 0
    assert.is_true(f[1] ~= f[1])
  end)

  it("takes integral float keys as integers and refuses others, naming the key", function()
    local t = lt.arange(5):float()
    assert.equal(1.0, t[2.0])
    t[3.0] = 30
    assert.equal(30.0, t[3])
    assert.truthy(err_of(function() return t[2.5] end):find("index must be an integer, got 2.5",
                                                            1, true))
    assert.truthy(err_of(function() t[2.5] = 1 end):find("index must be an integer, got 2.5", 1,
                                                          true))
  end)

  it("does not take a numeric string for an index", function()
    local t = lt.arange(5):float()
    assert.is_nil(t["1"])
    assert.truthy(err_of(function() t["1"] = 1 end):find("cannot set field '1'", 1, true))
    assert.truthy(err_of(function() t[1] = "1" end):find("cannot write a string", 1, true))
    assert.equal(0.0, t[1])
  end)

  it("gives nil at #t + 1 (where ipairs stops) and raises past it, 1-based in the message", function()
    local t = lt.arange(3):float()
    assert.is_nil(t[4])
    local n = 0
    for _ in ipairs(t) do n = n + 1 end
    assert.equal(3, n)
    assert.truthy(err_of(function() return t[5] end):find("index 5 is out of range for dim 1 of size 3",
                                                          1, true))
    assert.truthy(err_of(function() return t[0] end):find("(indices are 1-based)", 1, true))
    assert.truthy(err_of(function() return t[-4] end):find("index -4 is out of range", 1, true))
    assert.truthy(err_of(function() t[4] = 1 end):find("index 4 is out of range", 1, true))
    assert.truthy(err_of(function() t[math.mininteger] = 1 end):find("out of range", 1, true))
  end)

  it("refuses writes to a read-only tensor and leaves it as it was", function()
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.arange(3):float()))
    assert.equal(1.0, ro[2])
    assert.truthy(err_of(function() ro[2] = 5 end):find("read%-only"))
    assert.equal(1.0, ro[2])
  end)

  it("unshares a copy-on-write clone on its first write through t[i]", function()
    local src = lt.arange(4):float()
    local c = src:clone()
    c[1] = 42
    assert.equal(0.0, src[1])
    assert.equal(42.0, c[1])
    src[2] = 7
    assert.equal(1.0, c[2])
    assert.equal(7.0, src[2])
  end)

  it("raises for a closed tensor on read and write", function()
    local t = lt.arange(3):float()
    do local _ <close> = t end
    assert.truthy(err_of(function() return t[1] end):find("released"))
    assert.truthy(err_of(function() t[1] = 1 end):find("released"))
  end)
end)

describe("t[i][j] on an n-d tensor", function()
  it("reads and writes every element through the row t[i]", function()
    local m = lt.zeros(3, 4)
    for i = 1, 3 do
      for j = 1, 4 do m[i][j] = m[i][j] + 10 * i + j end
    end
    assert.same({ { 11, 12, 13, 14 }, { 21, 22, 23, 24 }, { 31, 32, 33, 34 } }, m:tolist())
    assert.equal(34.0, m[-1][-1])
    assert.equal(m[2], m[2]) -- the row is kept while it is that row
  end)

  it("gives the new row after the tensor changed its geometry in place", function()
    local m = lt.arange(6):float():view(2, 3)
    assert.same({ 0, 1, 2 }, m[1]:tolist())
    m:t_()
    assert.same({ 0, 3 }, m[1]:tolist())
    m[1][2] = 30
    assert.same({ { 0, 30 }, { 1, 4 }, { 2, 5 } }, m:tolist())
  end)

  it("never gives a wrapper or a closed row that was put in the tensor's user value", function()
    local m = lt.arange(6):view(2, 3)
    local wrapper = dlpack.ReadOnlyTensorWrapper(m[1])
    debug.setuservalue(m, wrapper, 1)
    assert.same({ 0, 1, 2 }, m[1]:tolist())
    local row = m[2]
    do local _ <close> = row end
    assert.same({ 3, 4, 5 }, m[2]:tolist())
  end)

  it("writes through the row of a copy-on-write clone without touching its source", function()
    local src = lt.zeros(2, 2)
    local c = src:clone()
    c[2][2] = 5
    assert.same({ { 0, 0 }, { 0, 5 } }, c:tolist())
    assert.same({ { 0, 0 }, { 0, 0 } }, src:tolist())
  end)

  it("raises for a row out of range, naming the dim (#t + 1 is nil, the border)", function()
    local m = lt.zeros(2, 3)
    assert.is_nil(m[3])
    assert.truthy(err_of(function() return m[4][1] end):find("out of range for dim 1 of size 2", 1,
                                                             true))
    assert.truthy(err_of(function() return m[1][5] end):find("index 5 is out of range", 1, true))
    assert.truthy(err_of(function() m[1][0] = 1 end):find("1-based", 1, true))
  end)
end)
