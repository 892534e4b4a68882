-- tensor_index_spec.lua -- indexing with tensors: bool masks and int64/int32 index tensors as
-- keys (alone and inside table keys, torch's placement of the advanced dims), for reads (copies)
-- and writes (fills, broadcast scatters); index_select, index_add/copy/fill, gather, scatter,
-- scatter_add, scatter_reduce, take, masked_select, masked_scatter, nonzero, lt.where(cond).
-- Every check happens before the first write: a failed write changes nothing.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local raises = require("helpers").raises

local DTYPES = { "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32",
  "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128" }

local function I(list, dtype) return lt.tensor(list, dtype or "int64") end
local function M(list) return lt.tensor(list, "bool") end
local function grid() return lt.arange(12):reshape(3, 4) end

describe("t[index tensor]", function()
  it("selects rows along dim 1, 1-based, negatives from the end, in the index's shape", function()
    local m = grid()
    assert.same({ { 8, 9, 10, 11 }, { 0, 1, 2, 3 } }, m[I { 3, 1 }]:tolist())
    assert.same({ { 8, 9, 10, 11 } }, m[I { -1 }]:tolist())
    local r = m[I { { 1, 2 }, { 3, 3 } }]
    assert.same({ 2, 2, 4 }, r.shape)
    assert.same({ 8, 9, 10, 11 }, r[2][2]:tolist())
    assert.same({ 4, 5, 6, 7 }, m[I({ 2 }, "int32")][1]:tolist())
  end)

  it("copies: writing the result leaves the tensor as it was", function()
    local m = grid()
    local r = m[I { 1 }]
    r:fill_(-1)
    assert.same({ 0, 1, 2, 3 }, m[1]:tolist())
  end)

  it("takes a 0-d index as a dim that goes away, giving a tensor", function()
    local v = lt.arange(5)
    local r = v[I(3)]
    assert.equal(0, r.ndim)
    assert.equal(2, r:item())
    assert.same({ 4 }, grid()[I(-2)].shape)
  end)

  it("reads empty index tensors and empty tensors", function()
    assert.same({ 0, 4 }, grid()[lt.tensor({}, "int64")].shape)
    assert.same({ 2, 0 }, lt.zeros(3, 0)[I { 1, 3 }].shape)
    raises("index 1 is out of range for dim 1 of size 0", function() return lt.zeros(0, 2)[I { 1 }] end)
  end)

  it("raises for out-of-range values with the value and the dim's size", function()
    local m = grid()
    raises("index 4 is out of range for dim 1 of size 3", function() return m[I { 1, 4 }] end)
    raises("index %-4 is out of range for dim 1 of size 3", function() return m[I { -4 }] end)
    raises("index 0 is out of range for dim 1 of size 3 %(indices are 1%-based%)",
      function() return m[I { 0 }] end)
    raises("index 5 is out of range for dim 2 of size 4", function() return m[{ {}, I { 5 } }] end)
  end)

  it("raises for index tensors of other dtypes, naming the entry", function()
    local m = grid()
    raises("an index tensor must be bool, int64 or int32, got float32",
      function() return m[lt.tensor { 1.0 }] end)
    raises("key entry #2: an index tensor must be bool, int64 or int32, got uint8",
      function() return m[{ 1, lt.tensor({ 1 }, "uint8") }] end)
    raises("too many indices", function() return lt.arange(3)[{ 1, I { 1 } }] end)
  end)
end)

describe("t[mask]", function()
  it("selects the elements (or rows) where a mask of t's leading shape is true", function()
    local m = grid()
    assert.same({ 7, 8, 9, 10, 11 }, m[m:gt(6)]:tolist())
    assert.same({ { 0, 1, 2, 3 }, { 8, 9, 10, 11 } }, m[M { true, false, true }]:tolist())
    assert.same({ 0 }, m[m:lt(0)].shape)
  end)

  it("raises when the mask's shape does not match", function()
    raises("mask of shape %[2%] does not match the shape %[3%] it indexes",
      function() return grid()[M { true, false }] end)
    raises("too many indices", function() return lt.arange(3)[M { { true } }] end)
  end)

  it("takes a 0-d mask as a new dim of size 1 (true) or 0 (false), as torch", function()
    local t = lt.tensor { 1, 2 }
    assert.same({ { 1, 2 } }, t[M(true)]:tolist())
    assert.same({ 0, 2 }, t[M(false)].shape)
    assert.same({ 1 }, lt.tensor(5)[M(true)].shape)
  end)
end)

describe("table keys with tensors", function()
  local a = lt.arange(24):reshape(2, 3, 4)
  local i = I { 1, 2 }
  local function shape(t) return table.concat(t.shape, "x") end

  it("mixes index tensors with ranges and integers", function()
    assert.same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, grid()[{ {}, I { 4, 1 } }]:tolist())
    assert.same({ 1, 9 }, grid()[{ M { true, false, true }, 2 }]:tolist())
    assert.same({ { 5, 6 } }, grid()[{ { 2, 2 }, I { 2, 3 } }]:tolist())
  end)

  it("places adjacent advanced dims where they are, separated ones first (torch's rule)", function()
    assert.equal("2x2", shape(a[{ {}, i, i }]))
    assert.equal("2x3", shape(a[{ i, {}, i }])) -- separated by a range: the index dims first
    assert.equal("3x2", shape(a[{ 1, {}, i }])) -- an integer selects first (torch, not NumPy)
    assert.equal("2", shape(a[{ i, 1, i }]))
    assert.equal("2x2x3", shape(a[{ i:reshape(2, 1), {}, i }])) -- broadcast together
    assert.same({ { 0, 4, 8 }, { 13, 17, 21 } }, a[{ i, {}, i }]:tolist())
    assert.same({ 0, 17 }, a[{ i, i, i }]:tolist())
  end)

  it("raises for index tensors that do not broadcast together", function()
    raises("shapes do not broadcast", function() return a[{ I { 1, 2 }, I { 1, 2, 3 } }] end)
  end)
end)

describe("t[key] = value with tensors", function()
  it("fills where a mask is true (t[t:gt(5)] = 0)", function()
    local m = grid()
    m[m:gt(5)] = 0
    assert.same({ { 0, 1, 2, 3 }, { 4, 5, 0, 0 }, { 0, 0, 0, 0 } }, m:tolist())
  end)

  it("scatters a tensor broadcast to the selected shape", function()
    local m = grid()
    m[I { 3, 1 }] = lt.tensor { -1, -2, -3, -4 }
    assert.same({ -1, -2, -3, -4 }, m[1]:tolist())
    assert.same({ -1, -2, -3, -4 }, m[3]:tolist())
    m[{ {}, I { 2 } }] = lt.tensor { { 7 }, { 8 }, { 9 } }
    assert.same({ 7, 8, 9 }, m[{ {}, 2 }]:tolist())
    m[m:lt(0)] = lt.arange(6)
    assert.same({ 0, 7, 1, 2 }, m[1]:tolist())
    m[M { true, false, false }] = { { 10, 20, 30, 40 } } -- a nested table as a tensor
    assert.same({ 10, 20, 30, 40 }, m[1]:tolist())
  end)

  it("lets the last write win for duplicate indices", function()
    local v = lt.zeros(3)
    v[I { 2, 2, 2 }] = lt.tensor { 1, 2, 3 }
    assert.same({ 0, 3, 0 }, v:tolist())
  end)

  it("changes nothing when a check fails", function()
    local m = grid()
    local before = m:tolist()
    raises("index 4 is out of range for dim 1 of size 3", function() m[I { 1, 4 }] = 0 end)
    raises("cannot be broadcast", function() m[I { 1, 2 }] = lt.tensor { 1, 2, 3 } end)
    raises("cannot be converted to uint8", function()
      local u = lt.tensor({ 1, 2, 3 }, "uint8")
      u[I { 1 }] = 300
    end)
    local u = lt.tensor({ 1, 2, 3 }, "uint8")
    raises("cannot be converted", function() u[I { 1, 2 }] = lt.tensor { 5, 1e10 } end)
    assert.same({ 1, 2, 3 }, u:tolist())
    assert.same(before, m:tolist())
  end)

  it("reads the value before writing when it shares memory with the tensor", function()
    local v = lt.arange(5)
    v[I { 2, 3, 4, 5 }] = v[{ { 1, 4 } }]
    assert.same({ 0, 0, 1, 2, 3 }, v:tolist())
  end)

  it("raises for read-only tensors and gives a copy-on-write clone its own block", function()
    local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(lt.arange(4)))
    raises("read%-only", function() ro[I { 1 }] = 9 end)
    raises("read%-only", function() ro[ro:gt(1)] = 9 end)
    raises("read%-only", ro.index_fill_, ro, 1, I { 1 }, 0)
    raises("read%-only", ro.scatter_, ro, 1, I { 1 }, 0)
    assert.same({ 0, 1, 2, 3 }, ro:tolist())
    local t = lt.arange(4)
    local c = t:clone()
    c[I { 1 }] = 100
    assert.same({ 0, 1, 2, 3 }, t:tolist())
    assert.same({ 100, 1, 2, 3 }, c:tolist())
    local c2 = t:clone()
    t[t:eq(3)] = -1
    assert.same({ 0, 1, 2, 3 }, c2:tolist())
    assert.same({ 0, 1, 2, -1 }, t:tolist())
  end)
end)

describe("0-d, expanded and narrow dtypes", function()
  it("gathers, takes and scatters on 0-d tensors", function()
    local t = lt.tensor(5.0)
    assert.equal(5, t:gather(1, I(1)):item())
    assert.same({ 5, 5 }, t:take(I { 1, -1 }):tolist())
    assert.equal(7, t:scatter(1, I(1), 7):item())
    raises("index 2 is out of range for dim 1 of size 1", t.gather, t, 1, I(2))
  end)

  it("index_select and index_fill/add/copy take a 0-d tensor as one element, as torch", function()
    local t = lt.tensor(5.0)
    assert.equal(0, t:index_select(1, I { 1 }).ndim)
    assert.equal(5, t:index_select(1, I(-1)):item())
    assert.equal(2, t:index_fill(1, I { 1 }, 2):item())
    assert.equal(7, t:index_add(1, I(1), lt.tensor(2.0)):item())
    assert.equal(3, t:index_copy(1, I { 1 }, lt.tensor { 3.0 }):item())
    raises("a 0%-d tensor takes an index of one element %(got 2%)", t.index_select, t, 1, I { 1, 1 })
  end)

  it("refuses writes into expanded tensors (one element at several positions)", function()
    local e = lt.zeros(3):expand(2, 3)
    raises("refers to a single memory location", function() e[I { 1 }] = 1 end)
    raises("refers to a single memory location", e.scatter_, e, 1, I { { 1 } }, 1)
    raises("refers to a single memory location", e.index_fill_, e, 1, I { 1 }, 1)
  end)

  it("accumulates in the tensor's dtype (float16 through float32, integers wrap)", function()
    assert.same({ 3.5, 0, 0 }, lt.zeros(3, "float16"):index_add(1, I { 1, 1 },
      lt.tensor({ 1.5, 2 }, "float16")):tolist())
    assert.same({ 16, 1 }, lt.ones(2, "int8"):scatter_reduce(1, I { 1, 1 },
      lt.tensor({ 100, 100 }, "int8"), "prod"):tolist())
    assert.same({ true, true }, lt.tensor { true, false }:scatter_reduce(1, I { 2, 2 },
      lt.tensor { true, false }, "amax"):tolist())
    local c = lt.zeros(2, "complex64"):index_add(1, I { 2, 2 }, lt.tensor({ 1, 2 }, "complex64"))
    assert.same({ 0, 3 }, c:to("float32"):tolist())
  end)
end)

describe("hostile index tensors", function()
  it("refuse indices that broadcast past 2^63 positions, reading and writing", function()
    -- expanded views cost no memory; 2^32 x 2^32 wrapped to 0 positions, a write that did nothing
    local t = lt.zeros(2, 2)
    local rows = lt.ones({ 1, 1 }, "int64"):expand(2 ^ 32 // 1, 1)
    local cols = lt.ones({ 1 }, "int64"):expand(2 ^ 32 // 1)
    raises("shape has too many elements %(overflow%)", function() t[{ rows, cols }] = 1 end)
    raises("shape has too many elements %(overflow%)", function() return t[{ rows, cols }] end)
    local big = lt.ones({ 1, 1 }, "int64"):expand(2 ^ 40 // 1, 1)
    raises("too many elements %(overflow%)", function() return t[{ big, big:view(-1) }] end)
    assert.same({ { 0, 0 }, { 0, 0 } }, t:tolist())
  end)
end)

-- A finalizer that closes a tensor while a call allocates: the call keeps the header it took
-- (a closed tensor's header lives on while its userdata is on the stack) and gives the result
-- of the tensor as it was; the tensor reads as released afterwards. Every allocation collects
-- (incremental mode, pause 1%, steps of 2^100 bytes), so the finalizer runs inside the call.
describe("a finalizer that closes a tensor during the call", function()
  local function arm(fn)
    collectgarbage("incremental", 1, 0, 100)
    collectgarbage("restart")
    local ok, r = pcall(fn)
    collectgarbage("incremental", 200, 100, 13)
    collectgarbage("generational")
    return ok, r
  end

  it("does not empty the mask of t[mask]", function()
    local t, mask = grid(), M { true, false, true }
    local read = function() return t[mask] end
    setmetatable({}, { __gc = function() local _ <close> = mask end })
    local ok, r = arm(read)
    assert.is_true(ok, r)
    assert.same({ { 0, 1, 2, 3 }, { 8, 9, 10, 11 } }, r:tolist())
    raises("tensor has been released", function() return t[mask] end)
  end)

  it("nor free the index tensors of a table key taken out of it", function()
    local t, key = grid(), nil
    do
      local idx = I { 3, 1 }
      key = { idx, M { true, false, false, true } }
      setmetatable({}, { __gc = function()
        key[1] = nil
        local _ <close> = idx
      end })
    end
    local read = function() return t[key] end
    local ok, r = arm(read)
    assert.is_true(ok, r)
    assert.same({ 8, 3 }, r:tolist())
  end)

  it("nor free the tensors of lt.cat's and lt.einsum's lists taken out of them", function()
    for _, call in ipairs({
      function(list) return lt.cat(list) end,
      function(list) return lt.einsum("i,i->i", list) end,
    }) do
      local list
      do
        local a = lt.ones(2)
        list = { a, lt.ones(2) }
        setmetatable({}, { __gc = function()
          list[1] = nil
          local _ <close> = a
        end })
      end
      local ok, r = arm(function() return call(list) end)
      -- the element read before the finalizer ran, or the hole it left
      assert.is_true(ok or tostring(r):find("is a nil, not a tensor") ~= nil, tostring(r))
      if ok then assert.is_true(r:eq(1):all()) end
    end
  end)
end)

describe("every dtype", function()
  it("reads and writes through index tensors and masks", function()
    for _, dt in ipairs(DTYPES) do
      local v = lt.tensor({ 1, 0, 1, 1 }, dt)
      assert.same(v[{ { 3, 4 } }]:tolist(), v[I { 3, 4 }]:tolist(), dt)
      assert.same(dt, v[I { 1 }].dtype)
      local w = v:clone()
      w[I { 2 }] = v[I { 1 }]
      assert.same(v[1], w[2], dt)
      assert.equal(3, #v:nonzero(), dt)
      assert.same(v:index_select(1, I { 4, 1 }):tolist(), { v[4], v[1] }, dt)
      assert.same(v:gather(1, I { 2, 2 }):tolist(), { v[2], v[2] }, dt)
      assert.same(v:take(I { -1 }):tolist(), { v[4] }, dt)
      assert.equal(3, v:masked_select(v:ne(0)):numel(), dt)
    end
  end)

  it("reads non-contiguous tensors and index tensors", function()
    local t = lt.arange(12):reshape(3, 4):transpose(1, 2) -- 4 x 3
    local idx = I { 4, 0, 1, 9, 2 }[{ { 1, 5, 2 } }] -- {4, 1, 2}, stride 2
    assert.same({ { 3, 7, 11 }, { 0, 4, 8 }, { 1, 5, 9 } }, t[idx]:tolist())
    assert.same({ { 3, 7, 11 }, { 0, 4, 8 }, { 1, 5, 9 } }, t:index_select(1, idx):tolist())
    assert.same({ 1, 0, 4 }, t:take(idx):tolist()) -- row-major over t as it is
  end)
end)

describe("index_select, index_add_, index_copy_, index_fill_", function()
  it("index_select picks along a dim, as lt.index_select too", function()
    local m = grid()
    assert.same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, m:index_select(2, I { 4, 1 }):tolist())
    assert.same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, lt.index_select(m, -1, I { -1, 1 }):tolist())
    assert.same({ 1, 4 }, m:index_select(1, I(2)).shape)
    raises("index must be 0%-d or 1%-d", m.index_select, m, 1, I { { 1 } })
    raises("bad argument #3 to '[%w.]*index_select' %(index must be an int64 or int32 tensor",
      m.index_select, m, 1, lt.tensor { 1.5 })
  end)

  it("index_add_ accumulates duplicates, with alpha", function()
    local z = lt.zeros(3, 2)
    z:index_add_(1, I { 1, 1, 3 }, lt.ones(3, 2), { alpha = 2 })
    assert.same({ { 4, 4 }, { 0, 0 }, { 2, 2 } }, z:tolist())
    local o = lt.zeros(3):index_add(1, I { 2, 2 }, lt.tensor { 1.5, 2 })
    assert.same({ 0, 3.5, 0 }, o:tolist())
    raises("source of shape %[2%] does not match the indexed shape %[3, 2%]",
      z.index_add_, z, 1, I { 1, 2, 3 }, lt.ones(2))
  end)

  it("index_copy_ and index_fill_ write, the forms without _ write a clone", function()
    local z = lt.zeros(2, 3)
    assert.same({ { 0, 1, 0 }, { 0, 1, 0 } }, z:index_fill(2, I { 2 }, 1):tolist())
    assert.same({ { 0, 0, 0 }, { 0, 0, 0 } }, z:tolist())
    assert.equal(z, z:index_fill_(2, I { -1 }, 5))
    assert.same({ { 0, 0, 5 }, { 0, 0, 5 } }, z:tolist())
    z:index_copy_(1, I { 2 }, lt.tensor { { 7, 8, 9 } })
    assert.same({ 7, 8, 9 }, z[2]:tolist())
    assert.same({ { 1, 1, 5 }, { 1, 1, 9 } }, z:index_copy(2, I { 1, 2 }, lt.ones(2, 2)):tolist())
    raises("index 3 is out of range for dim 1 of size 2", z.index_fill_, z, 1, I { 1, 3 }, 0)
    assert.same({ { 0, 0, 5 }, { 7, 8, 9 } }, z:tolist())
  end)
end)

describe("gather and scatter", function()
  it("gather picks along a dim for every index position", function()
    local m = grid()
    assert.same({ { 0, 0 }, { 7, 6 }, { 9, 9 } }, m:gather(2, I { { 1, 1 }, { 4, 3 }, { 2, 2 } }):tolist())
    assert.same({ { 8, 1, 6 } }, lt.gather(m, 1, I { { 3, 1, 2 } }):tolist())
    raises("index of shape %[1, 5%] is larger than the input of shape %[3, 4%] at dim 2",
      m.gather, m, 1, I { { 1, 1, 1, 1, 1 } })
    raises("index must have as many dims as the input", m.gather, m, 1, I { 1 })
    assert.same({ 0, 4 }, m:gather(1, lt.zeros(0, 4):to("int64")).shape)
  end)

  it("scatter_ writes src or a value; reduce add and multiply", function()
    local z = lt.zeros(2, 3)
    z:scatter_(2, I { { 3, 1 }, { 2, 2 } }, lt.tensor { { 1, 2 }, { 3, 4 } })
    assert.same({ { 2, 0, 1 }, { 0, 4, 0 } }, z:tolist()) -- the last write wins
    z:scatter_(1, I { { 2, 2, 2 } }, 9)
    assert.same({ 9, 9, 9 }, z[2]:tolist())
    local o = lt.ones(3):scatter(1, I { 1, 1 }, lt.tensor { 2, 3 }, { reduce = "multiply" })
    assert.same({ 6, 1, 1 }, o:tolist())
    o = lt.ones(3):scatter(1, I { 1, 1 }, lt.tensor { 2, 3 }, { reduce = "add" })
    assert.same({ 6, 1, 1 }, o:tolist())
    raises("reduce must be 'add' or 'multiply'", z.scatter_, z, 1, I { { 1 } }, 1, { reduce = "x" })
  end)

  it("scatter_add_ sums duplicates", function()
    local z = lt.zeros(3, 4)
    z:scatter_add_(1, I { { 1, 2, 3, 1 }, { 1, 1, 1, 1 } }, lt.ones(2, 4))
    assert.same({ { 2, 1, 1, 2 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } }, z:tolist())
  end)

  it("scatter_reduce_ sum, prod, mean, amax, amin, with and without include_self", function()
    local idx, src = I { 1, 1, 2, 4 }, lt.tensor { 2, 4, 6, 8 }
    local base = lt.tensor({ 1, 1, 1, 1 }, "float64")
    local want = {
      sum = { { 7, 7, 1, 9 }, { 6, 6, 1, 8 } },
      prod = { { 8, 6, 1, 8 }, { 8, 6, 1, 8 } },
      mean = { { 7 / 3, 3.5, 1, 4.5 }, { 3, 6, 1, 8 } },
      amax = { { 4, 6, 1, 8 }, { 4, 6, 1, 8 } },
      amin = { { 1, 1, 1, 1 }, { 2, 6, 1, 8 } },
    }
    for op, w in pairs(want) do
      assert.same(w[1], base:scatter_reduce(1, idx, src, op):tolist(), op)
      assert.same(w[2], base:scatter_reduce(1, idx, src, op, { include_self = false }):tolist(), op)
    end
    -- integer means floor, as torch
    local r = lt.tensor({ 0, 0 }, "int64"):scatter_reduce_(1, I { 1, 1 }, I { -3, 0 }, "mean")
    assert.same({ -1, 0 }, r:tolist())
    raises("reduce must be 'sum', 'prod', 'mean', 'amax' or 'amin', got 'max'", base.scatter_reduce, base, 1, idx, src, "max")
    local c = lt.zeros(2, "complex64")
    raises("reduce 'amax' is not supported for complex64", c.scatter_reduce_, c, 1, I { 1 },
      lt.ones(1, "complex64"), "amax")
    -- on a non-contiguous tensor
    local t = lt.zeros(2, 3):to("float64"):transpose(1, 2)
    t:scatter_reduce_(1, I { { 1, 1 }, { 1, 1 } }, lt.tensor { { 2, 4 }, { 6, 8 } }, "mean")
    assert.same({ { 8 / 3, 4 }, { 0, 0 }, { 0, 0 } }, t:tolist())
  end)

  it("checks every index before writing", function()
    local z = lt.zeros(3)
    raises("index 4 is out of range for dim 1 of size 3", z.scatter_add_, z, 1, I { 1, 4 }, lt.ones(2))
    raises("index of shape %[3%] is larger than the source of shape %[2%]", z.scatter_, z, 1,
      I { 1, 2, 3 }, lt.ones(2))
    assert.same({ 0, 0, 0 }, z:tolist())
  end)
end)

describe("take, masked_select, masked_scatter_, nonzero, lt.where(cond)", function()
  it("take reads flat row-major positions", function()
    local m = grid()
    assert.same({ { 0, 11 }, { 10, 5 } }, m:take(I { { 1, 12 }, { -2, 6 } }):tolist())
    assert.same({ 11 }, lt.take(m:transpose(1, 2), I { 12 }):tolist())
    raises("index 13 is out of range for a tensor of 12 elements", m.take, m, I { 13 })
  end)

  it("masked_select broadcasts the mask", function()
    local m = grid()
    assert.same({ 0, 2, 4, 6, 8, 10 }, m:masked_select(M { true, false, true, false }):tolist())
    assert.same({ 11 }, lt.masked_select(m, m:eq(11)):tolist())
    raises("mask must be a bool tensor %(got int64%)", m.masked_select, m, I { 1 })
  end)

  it("masked_scatter_ writes src's elements in order where the mask is true", function()
    local m = lt.zeros(2, 3)
    m:masked_scatter_(M { { true, false, true }, { false, true, false } }, lt.tensor { { 1, 2 }, { 3, 4 } })
    assert.same({ { 1, 0, 2 }, { 0, 3, 0 } }, m:tolist())
    local o = lt.zeros(2, 2):masked_scatter(M { false, true }, lt.arange(4):to("float32"))
    assert.same({ { 0, 0 }, { 0, 1 } }, o:tolist())
    raises("source has 1 elements, fewer than the 4 true elements", m.masked_scatter_, m,
      M { true, true, false }, lt.ones(1))
    assert.same({ { 1, 0, 2 }, { 0, 3, 0 } }, m:tolist())
  end)

  it("nonzero gives 1-based positions, k x ndim int64, or a table of columns", function()
    local m = lt.tensor { { 0, 1 }, { 2, 0 } }
    local p = m:nonzero()
    assert.equal("int64", p.dtype)
    assert.same({ { 1, 2 }, { 2, 1 } }, p:tolist())
    local cols = m:nonzero({ as_tuple = true })
    assert.same({ 1, 2 }, cols[1]:tolist())
    assert.same({ 2, 1 }, cols[2]:tolist())
    assert.same({ 0, 2 }, lt.zeros(2, 2):nonzero().shape)
    assert.same({ 1, 0 }, lt.tensor(3):nonzero().shape)
    assert.same({ { 1 } }, lt.tensor { 0 / 0 }:nonzero():tolist()) -- NaN is nonzero
    assert.same({ { 2 } }, lt.tensor({ 0, 1 }, "complex64"):nonzero():tolist())
    assert.same({ { 1, 2 } }, lt.nonzero(m:gt(0.5):logical_and(m:lt(1.5))):tolist())
  end)

  it("lt.where(cond) gives the positions per dim; lt.where(c, a, b) still chooses", function()
    local w = lt.where(lt.tensor { { 0, 1 }, { 1, 1 } }:ne(0))
    assert.equal(2, #w)
    assert.same({ 1, 2, 2 }, w[1]:tolist())
    assert.same({ 2, 1, 2 }, w[2]:tolist())
    assert.same({ 1, 5 }, lt.where(M { true, false }, lt.tensor { 1, 2 }, 5):tolist())
  end)
end)

describe("large index tensors (split over the worker pool)", function()
  it("give the same result at every thread count, and check every value", function()
    local n = 1 << 20
    local x = lt.arange(4 * n, "float32")
    local idx = lt.arange(n, "int64") * 2654435761 % (4 * n) + 1
    local before = lt.get_num_threads()
    lt.set_num_threads(1)
    local one = x:index_select(1, idx)
    local g1 = x:gather(1, idx)
    lt.set_num_threads(before)
    local many = x:index_select(1, idx)
    assert.is_true(one:equal(many))
    assert.is_true(g1:equal(x:gather(1, idx)))
    assert.is_true(many:equal(x[idx]))
    assert.equal(idx[n] - 1, many[n])
    idx[n] = 4 * n + 1
    raises("index 4194305 is out of range for dim 1 of size 4194304", x.index_select, x, 1, idx)
    local y = x:clone()
    raises("index 4194305 is out of range", function() y[idx] = 0 end)
    assert.is_true(y:equal(x))
  end)
end)
