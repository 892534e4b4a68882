-- Copy-on-write clones: t:clone() shares data until either side writes; observably an eager copy.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"

local helpers = require "helpers"

local function rss_kb() return helpers.status_kb("VmRSS") end

describe("t:clone()", function()
  it("shares the data buffer until a write", function()
    local t = lt.arange(8)
    local c = t:clone()
    assert.equal(t:const_data_ptr(), c:const_data_ptr())
    assert.same(t:tolist(), c:tolist())
  end)

  it("gives the writer its own copy when the clone is written", function()
    local t = lt.arange(4)
    local before = t:const_data_ptr()
    local c = t:clone()
    c[1] = 100
    assert.equal(100, c[1])
    assert.equal(0, t[1])
    assert.equal(before, t:const_data_ptr()) -- the source keeps the original
    assert.are_not.equal(before, c:const_data_ptr())
  end)

  it("gives the writer its own copy when the source is written", function()
    local t = lt.arange(4)
    local c = t:clone()
    local shared = c:const_data_ptr()
    t[2] = -1
    assert.equal(1, c[2])
    assert.equal(-1, t[2])
    assert.equal(shared, c:const_data_ptr()) -- the clone keeps the original
  end)

  for _, case in ipairs({
    { "t[i] = v", function(x) x[1] = 9 end },
    { "t:set(...)", function(x) x:set(1, 9) end },
    { "t[{...}] = v", function(x) x[{ { 1, 2 } }] = 9 end },
    { "fill_", function(x) x:fill_(9) end },
    { "zero_", function(x) x:zero_() end },
    { "copy_", function(x) x:copy_(lt.full({ 4 }, 9)) end },
    { "data_ptr()", function(x) x:data_ptr() end },
    { "a writable export", function(x) dlpack.from_dlpack(x:__dlpack({ max_version = { 1, 3 } })) end },
    { "to_dlpack", function(x) dlpack.to_dlpack(x) end },
  }) do
    it("materializes on " .. case[1], function()
      local t = lt.arange(4)
      local c = t:clone()
      local shared = t:const_data_ptr()
      case[2](c)
      assert.are_not.equal(shared, c:const_data_ptr())
      assert.equal(shared, t:const_data_ptr())
      assert.same({ 0, 1, 2, 3 }, t:tolist())
    end)
  end

  it("does not materialize on reads", function()
    local t = lt.arange(4):view(2, 2)
    local c = t:clone()
    local shared = t:const_data_ptr()
    local _ = c[1][2], c:get(2, 2), c:tolist(), c:bytes(), tostring(c)
    _ = c:transpose(1, 2):contiguous()
    _ = c:to("float64")
    _ = c:clone()
    assert.equal(shared, c:const_data_ptr())
    assert.equal(shared, t:const_data_ptr())
  end)

  it("makes views of a clone follow their clone", function()
    local t = lt.arange(6):view(2, 3)
    local c = t:clone()
    local row = c[2]
    local col = c[{ {}, 1 }]
    c:set(2, 1, 50) -- c gets its own copy; its views must see it
    assert.equal(50, row[1])
    assert.equal(50, col[2])
    row[2] = 60 -- a write through a view lands in the clone, not in t
    assert.equal(60, c:get(2, 2))
    assert.equal(4, t:get(2, 2))
  end)

  it("makes views of the source follow the source", function()
    local t = lt.arange(4)
    local v = t[{ { 2, 3 } }]
    local c = t:clone()
    v[1] = 77
    assert.equal(77, t[2])
    assert.equal(1, c[2])
  end)

  it("copies a writable export's data away from the clone", function()
    local t = lt.arange(4)
    local c = t:clone()
    local shared = dlpack.from_dlpack(c:__dlpack({ max_version = { 1, 3 } }))
    shared[1] = 5
    assert.equal(5, c[1])
    assert.equal(0, t[1])
  end)

  it("keeps a pinned tensor's clones eager", function()
    local t = lt.arange(4)
    t:data_ptr() -- the address escaped: t's memory is never shared again
    local c = t:clone()
    assert.are_not.equal(t:const_data_ptr(), c:const_data_ptr())
  end)

  it("is eager for a small view of a large tensor", function()
    local big = lt.zeros(1000)
    local c = big[{ { 1, 10 } }]:clone()
    assert.are_not.equal(big:const_data_ptr(), c:const_data_ptr())
    assert.same({ 10 }, c.shape)
  end)

  it("gives a clone of an expanded view elements of its own, as an eager copy would", function()
    local e = lt.tensor(5):expand(4)
    local c = e:clone()
    c[1] = 7
    assert.same({ 7, 5, 5, 5 }, c:tolist())
    assert.same({ 5, 5, 5, 5 }, e:tolist())
    local m = lt.arange(2):view(2, 1):expand(2, 3):clone()
    m[{ 1, 1 }] = 9
    assert.same({ { 9, 0, 0 }, { 1, 1, 1 } }, m:tolist())
  end)

  it("costs no memory for a 256 MiB tensor until written", function()
    local t = lt.ones(64 * 1024 * 1024) -- 256 MiB of float32, every page touched
    collectgarbage()
    local before = rss_kb()
    local c = t:clone()
    local after_clone = rss_kb()
    assert.is_true(after_clone - before < 16 * 1024,
      ("clone grew RSS by %d KiB"):format(after_clone - before))
    c[1] = 2
    local after_write = rss_kb()
    assert.is_true(after_write - before > 200 * 1024,
      ("writing the clone grew RSS by only %d KiB"):format(after_write - before))
    assert.equal(1, t[1])
    assert.equal(2, c[1])
  end)
end)
