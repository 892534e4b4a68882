-- Shapes and construction: flip, roll, repeat/tile, split, chunk, unbind, tril/triu, diag,
-- diagonal, trace, eye, linspace, logspace, the *_like constructors, broadcast_to, meshgrid,
-- view(dtype) and T, with torch 2.x's names, order and results (dims 1-based).
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local helpers = require "helpers"

local DTYPES = { "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
  "float16", "bfloat16", "float32", "float64", "complex64", "complex128" }

-- A 2 x 3 int64 matrix 0..5 and a read-only tensor sharing its memory.
local function m23() return lt.arange(6):view(2, 3) end
local function read_only(t) return dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(t)) end

describe("flip", function()
  it("reverses the dims given as a table or as arguments, as a copy", function()
    local t = m23()
    assert.same({ { 3, 4, 5 }, { 0, 1, 2 } }, t:flip(1):tolist())
    assert.same({ { 5, 4, 3 }, { 2, 1, 0 } }, t:flip({ 1, 2 }):tolist())
    assert.same({ { 2, 1, 0 }, { 5, 4, 3 } }, t:flip(-1):tolist())
    assert.same({ { 5, 4, 3 }, { 2, 1, 0 } }, lt.flip(t, 1, 2):tolist())
    local f = t:flip(1)
    f[{ 1, 1 }] = 99
    assert.equal(3, t:get(2, 1))
    assert.is_true(f:is_contiguous())
    for _, s in ipairs(f:stride()) do assert.is_true(s > 0) end
  end)

  it("copies transposed and stepped views, 0-d and empty tensors", function()
    local t = m23():transpose(1, 2) -- {{0, 3}, {1, 4}, {2, 5}}
    assert.same({ { 2, 5 }, { 1, 4 }, { 0, 3 } }, t:flip(1):tolist())
    local s = lt.arange(10)[{ { 1, 10, 3 } }] -- 0 3 6 9
    assert.same({ 9, 6, 3, 0 }, s:flip(1):tolist())
    assert.equal(7, lt.tensor(7):flip(1):item())
    assert.same({ 0, 3 }, lt.zeros(0, 3):flip(1, 2).shape)
  end)

  it("raises for a repeated or out-of-range dim and without dims", function()
    helpers.raises("dim 1 appears more than once", function() m23():flip(1, 1) end)
    helpers.raises("dim 3 out of range for a tensor of 2 dims", function() m23():flip(3) end)
    helpers.raises("dims expected", function() m23():flip() end)
  end)
end)

describe("roll", function()
  it("rolls the flattened tensor without dims and keeps the shape", function()
    assert.same({ { 5, 0, 1 }, { 2, 3, 4 } }, m23():roll(1):tolist())
    assert.same({ { 1, 2, 3 }, { 4, 5, 0 } }, m23():roll(-7):tolist())
  end)

  it("rolls along dims, several shifts at once", function()
    assert.same({ { 2, 0, 1 }, { 5, 3, 4 } }, m23():roll(1, 2):tolist())
    assert.same({ { 5, 3, 4 }, { 2, 0, 1 } }, m23():roll({ 1, 1 }, { 1, 2 }):tolist())
    assert.same({ { 1, 2, 0 }, { 4, 5, 3 } }, lt.roll(m23(), -1, -1):tolist())
    assert.same({ { 0, 3 }, { 1, 4 }, { 2, 5 } }, m23():transpose(1, 2):roll(3, 1):tolist())
    assert.same({ 0, 2 }, lt.zeros(0, 2):roll(1, 1).shape)
  end)

  it("raises when shifts and dims do not pair up", function()
    helpers.raises("2 dims given for 1 shifts", function() m23():roll(1, { 1, 2 }) end)
    helpers.raises("without dims, one shift", function() m23():roll({ 1, 2 }) end)
    helpers.raises("dim 3 out of range", function() m23():roll(1, 3) end)
  end)
end)

describe("repeat and tile", function()
  it("repeat works as torch's, under the keyword's name", function()
    local v = lt.tensor({ 1, 2, 3 })
    assert.same({ { 1, 2, 3, 1, 2, 3 }, { 1, 2, 3, 1, 2, 3 } }, v["repeat"](v, 2, 2):tolist())
    assert.same({ 4, 6 }, m23()["repeat"](m23(), { 2, 2 }).shape)
    assert.same({ 2, 2, 3 }, m23()["repeat"](m23(), 2, 1, 1).shape)
    assert.same({ 0, 3 }, m23()["repeat"](m23(), 0, 1).shape)
    local r = m23():transpose(1, 2)["repeat"](m23():transpose(1, 2), 1, 2)
    assert.same({ { 0, 3, 0, 3 }, { 1, 4, 1, 4 }, { 2, 5, 2, 5 } }, r:tolist())
  end)

  it("tile pads the repeats with leading ones", function()
    assert.same({ { 0, 1, 2, 0, 1, 2 }, { 3, 4, 5, 3, 4, 5 } }, m23():tile(2):tolist())
    assert.same({ 2, 6 }, lt.tile(m23(), { 2 }).shape)
    assert.same({ 3 }, lt.tensor(5):tile(3).shape)
  end)

  it("repeat raises for fewer repeats than dims and negative repeats", function()
    helpers.raises("cannot be smaller than the tensor's dims", function() m23()["repeat"](m23(), 2) end)
    helpers.raises("negative", function() m23()["repeat"](m23(), 1, -1) end)
  end)
end)

describe("split, chunk and unbind", function()
  it("split gives views of split_size, the last one shorter", function()
    local t = lt.arange(5)
    local p = t:split(2)
    assert.equal(3, #p)
    assert.same({ 4 }, p[3]:tolist())
    p[1][1] = 40
    assert.equal(40, t[1])
    local q = m23():split({ 1, 2 }, 2)
    assert.same({ { 0 }, { 3 } }, q[1]:tolist())
    assert.same({ { 1, 2 }, { 4, 5 } }, q[2]:tolist())
    assert.equal(2, #lt.split(m23(), 1))
    assert.equal(1, #lt.arange(3):split(math.maxinteger))
    assert.equal(1, #lt.arange(0):split(0))
  end)

  it("split raises for sizes that are not positive or do not add up", function()
    helpers.raises("size 0 must be positive", function() lt.arange(3):split(0) end)
    helpers.raises("sizes add up to 2, but dim 1 has size 3", function() lt.arange(3):split({ 1, 1 }) end)
    helpers.raises("dim 2 out of range", function() lt.arange(3):split(1, 2) end)
    helpers.raises("at least 1 dim", function() lt.tensor(1):split(1) end)
  end)

  it("chunk makes torch's sizes (maybe fewer chunks than asked)", function()
    local sizes = function(ts)
      local r = {}
      for i, v in ipairs(ts) do r[i] = v:size(1) end
      return r
    end
    assert.same({ 2, 2, 1 }, sizes(lt.arange(5):chunk(3)))
    assert.same({ 2, 2, 2 }, sizes(lt.arange(6):chunk(4))) -- torch: 3 chunks of 2
    assert.same({ 0, 0, 0 }, sizes(lt.arange(0):chunk(3)))
    assert.same({ 2, 1 }, (function()
      local c = m23():chunk(2, 2)
      return { c[1]:size(2), c[2]:size(2) }
    end)())
    helpers.raises("chunks 0 must be positive", function() lt.arange(3):chunk(0) end)
    -- an empty dim gives `chunks` empty pieces, as torch; a count no table could hold raises
    helpers.raises("of an empty dim is more than 16777216 pieces",
      function() lt.arange(0):chunk(math.maxinteger) end)
  end)

  it("split, chunk and unbind refuse more pieces than a table could hold, before making any", function()
    -- an expanded dim of 2^40 once made views until the Lua heap filled the machine
    local big = lt.zeros(1):expand(2 ^ 40)
    helpers.raises("unbind: 1099511627776 pieces is more than 16777216", big.unbind, big)
    helpers.raises("split: 1099511627776 pieces is more than 16777216", big.split, big, 1)
    helpers.raises("chunk: 1099511627776 pieces is more than 16777216", big.chunk, big, 2 ^ 40)
    assert.equal(2, #big:chunk(2))
  end)

  it("unbind gives the selected views", function()
    local t = m23()
    local u = t:unbind(2)
    assert.equal(3, #u)
    assert.same({ 1, 4 }, u[2]:tolist())
    u[2][1] = -1
    assert.equal(-1, t:get(1, 2))
    assert.same({ 0, 1, 2 }, lt.unbind(m23())[1]:tolist())
  end)
end)

describe("tril, triu, diag, diagonal and trace", function()
  it("tril and triu keep a triangle of every matrix, as copies", function()
    local o = lt.ones(3, 4, "int32")
    assert.same({ { 1, 0, 0, 0 }, { 1, 1, 0, 0 }, { 1, 1, 1, 0 } }, o:tril():tolist())
    assert.same({ { 1, 1, 0, 0 }, { 1, 1, 1, 0 }, { 1, 1, 1, 1 } }, o:tril(1):tolist())
    assert.same({ { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 0 } }, lt.tril(o, -1):tolist())
    assert.same({ { 0, 1, 1, 1 }, { 0, 0, 1, 1 }, { 0, 0, 0, 1 } }, o:triu(1):tolist())
    assert.same({ { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 0, 1, 1, 1 } }, o:triu(-1):tolist())
    assert.same(o:tolist(), o:tril(100):tolist())
    assert.same({ 2, 3, 4 }, lt.ones(2, 3, 4):triu().shape)
    assert.same({ { 0, 3 }, { 0, 0 }, { 0, 0 } }, m23():transpose(1, 2):triu(1):tolist())
    helpers.raises("at least 2 dims", function() lt.ones(3):tril() end)
  end)

  it("diag makes a matrix of a vector and copies a matrix's diagonal", function()
    assert.same({ { 0, 1, 0 }, { 0, 0, 2 }, { 0, 0, 0 } }, lt.tensor({ 1, 2 }):diag(1):tolist())
    assert.same({ { 0, 0 }, { 1, 0 } }, lt.diag(lt.tensor({ 1 }), -1):tolist())
    assert.same({ 0, 4 }, m23():diag():tolist())
    assert.same({ 1, 5 }, m23():diag(1):tolist())
    assert.same({ 3 }, m23():diag(-1):tolist())
    local d = m23():diag()
    d[1] = 9
    assert.equal(0, m23():get(1, 1))
    helpers.raises("expected a 1%-d or 2%-d tensor", function() lt.ones(2, 2, 2):diag() end)
  end)

  it("diagonal is a view with the diagonal as the last dim", function()
    local t = m23()
    local d = t:diagonal()
    assert.same({ 0, 4 }, d:tolist())
    d[2] = 40
    assert.equal(40, t:get(2, 2))
    assert.same({ 1, 5 }, t:diagonal(1):tolist())
    assert.same({ 3 }, t:diagonal(-1):tolist())
    assert.same({ 0 }, t:diagonal(5).shape)
    local c = lt.arange(24):view(2, 3, 4)
    assert.same({ 4, 2 }, c:diagonal(0, 1, 2).shape)
    assert.same({ { 0, 13 }, { 4, 17 }, { 8, 21 } }, c:diagonal(0, 1, 3):tolist())
    assert.same({ 2, 3 }, lt.diagonal(c, 0, -1, -2).shape)
    helpers.raises("same dim", function() c:diagonal(0, 1, 1) end)
    helpers.raises("at least 2 dims", function() lt.ones(3):diagonal() end)
  end)

  it("trace returns a Lua value, as other full reductions", function()
    assert.equal(4, m23():trace())
    assert.equal(math.type(m23():trace()), "integer")
    assert.equal(2.5, lt.tensor({ { 1.5, 0 }, { 0, 1 } }):trace())
    assert.same({ 2, 0 }, lt.eye(2, "complex64"):trace())
    assert.equal(0, lt.zeros(0, 3):trace())
    helpers.raises("expected a 2%-d tensor", function() lt.ones(3):trace() end)
  end)
end)

describe("eye, linspace and logspace", function()
  it("eye makes identity matrices", function()
    assert.same({ { 1, 0 }, { 0, 1 } }, lt.eye(2):tolist())
    assert.equal("float32", lt.eye(2).dtype)
    assert.same({ { 1, 0, 0 }, { 0, 1, 0 } }, lt.eye(2, 3, "int64"):tolist())
    assert.same({ { true, false }, { false, true } }, lt.eye(2, { dtype = "bool" }):tolist())
    assert.same({ 0, 4 }, lt.eye(0, 4).shape)
    helpers.raises("n must be non%-negative", function() lt.eye(-1) end)
  end)

  it("linspace makes exact ends and torch's values", function()
    assert.same({ 0, 0.25, 0.5, 0.75, 1 }, lt.linspace(0, 1, 5):tolist())
    assert.equal("float32", lt.linspace(0, 1, 5).dtype)
    assert.same({ 3 }, lt.linspace(3, 9, 1):tolist())
    assert.same({ 3, 9 }, lt.linspace(3, 9, 2):tolist())
    assert.same({}, lt.linspace(3, 9, 0):tolist())
    assert.same({ 1, 0.5, 0 }, lt.linspace(1, 0, 3, { dtype = "float64" }):tolist())
    local v = lt.linspace(-1.3, 7.1, 101, "float64")
    assert.equal(-1.3, v[1])
    assert.equal(7.1, v[101])
    assert.same({ 0, 2, 5, 7, 10 }, lt.linspace(0, 10, 5, "int64"):tolist())
    assert.same({ { 0, 0 }, { 0.5, 1 }, { 1, 2 } }, lt.linspace({ 0, 0 }, { 1, 2 }, 3):tolist())
    helpers.raises("steps %-1 must be non%-negative", function() lt.linspace(0, 1, -1) end)
    helpers.raises("steps expected", function() lt.linspace(0, 1) end)
    helpers.raises("not defined for bool", function() lt.linspace(0, 1, 3, "bool") end)
    helpers.raises("value 300 cannot be converted to uint8", function()
      lt.linspace(0, 300, 3, "uint8")
    end)
  end)

  it("logspace raises base to linspace's values", function()
    assert.same({ 1, 10, 100 }, lt.logspace(0, 2, 3, { dtype = "float64" }):tolist())
    assert.same({ 1, 2, 4, 8 }, lt.logspace(0, 3, 4, 2):tolist())
    assert.same({ 8, 4, 2, 1 }, lt.logspace(3, 0, 4, 2, "int32"):tolist())
  end)
end)

describe("the *_like constructors", function()
  it("take the shape and, unless told, the dtype of the tensor", function()
    local t = lt.ones(2, 3, "int16"):transpose(1, 2)
    local z = lt.zeros_like(t)
    assert.same({ 3, 2 }, z.shape)
    assert.equal("int16", z.dtype)
    assert.same({ { 0, 0 }, { 0, 0 }, { 0, 0 } }, z:tolist())
    assert.same({ { 1, 1 } }, lt.ones_like(lt.zeros(1, 2), { dtype = "int8" }):tolist())
    assert.equal("int8", lt.ones_like(lt.zeros(1, 2), { dtype = "int8" }).dtype)
    assert.same({ 7.5, 7.5 }, lt.full_like(lt.zeros(2), 7.5):tolist())
    assert.same({ 7, 7 }, lt.full_like(lt.zeros(2), 7.5, { dtype = "int32" }):tolist())
    assert.same({ 2 }, lt.empty_like(lt.zeros(2), "float64").shape)
    assert.is_false(lt.zeros_like(read_only(lt.ones(2))):is_read_only())
    helpers.raises("unknown option 'dtyp'", function() lt.zeros_like(t, { dtyp = "int8" }) end)
    helpers.raises("cannot be converted to uint8", function()
      lt.full_like(lt.zeros(2, "uint8"), 300)
    end)
  end)
end)

describe("broadcast_to and meshgrid", function()
  it("broadcast_to is a view of the expanded tensor", function()
    local v = lt.tensor({ 1, 2, 3 })
    local b = lt.broadcast_to(v, { 2, 3 })
    assert.same({ { 1, 2, 3 }, { 1, 2, 3 } }, b:tolist())
    v[1] = 10
    assert.equal(10, b:get(2, 1))
    assert.same({ 4, 3 }, v:broadcast_to(4, -1).shape)
    helpers.raises("must be 1 to expand", function() v:broadcast_to(2, 4) end)
  end)

  it("meshgrid gives a table of views, ij by default, xy on request", function()
    local x, y = lt.tensor({ 1, 2, 3 }), lt.tensor({ 4, 5 })
    local g = lt.meshgrid(x, y)
    assert.same({ 3, 2 }, g[1].shape)
    assert.same({ { 1, 1 }, { 2, 2 }, { 3, 3 } }, g[1]:tolist())
    assert.same({ { 4, 5 }, { 4, 5 }, { 4, 5 } }, g[2]:tolist())
    local h = lt.meshgrid({ x, y }, { indexing = "xy" })
    assert.same({ { 1, 2, 3 }, { 1, 2, 3 } }, h[1]:tolist())
    assert.same({ { 4, 4, 4 }, { 5, 5, 5 } }, h[2]:tolist())
    x[1] = 100
    assert.equal(100, g[1]:get(1, 2))
    assert.same({ 3, 2, 1 }, lt.meshgrid(x, y, lt.tensor(0))[3].shape)
    helpers.raises("indexing must be", function() lt.meshgrid(x, { indexing = "ji" }) end)
    helpers.raises("0%-d or 1%-d", function() lt.meshgrid(lt.ones(2, 2)) end)
    helpers.raises("one dtype", function() lt.meshgrid(x, lt.ones(2)) end)
    helpers.raises("at least one tensor", function() lt.meshgrid() end)
  end)
end)

describe("view(dtype) and T", function()
  it("reinterprets the bytes of elements of one size, any layout", function()
    local f = lt.tensor({ 1.0, -2.0 })
    assert.same({ 0x3f800000, -0x40000000 }, f:view("int32"):tolist())
    local t = lt.arange(6, "int32"):view(2, 3):transpose(1, 2)
    local u = t:view("uint32")
    assert.same(t:stride(), u:stride())
    u[{ 1, 2 }] = 7
    assert.equal(7, t:get(1, 2))
    assert.same({ 2, 3 }, lt.arange(6):view(2, 3):view("float64").shape)
  end)

  it("scales the last dim between element sizes", function()
    local s = lt.tensor({ 1, 0, 2, 0 }, "int16")
    assert.same({ 1, 2 }, s:view("int32"):tolist())
    assert.same({ 1, 0, 0, 0, 2, 0, 0, 0 }, lt.tensor({ 1, 2 }, "int32"):view("uint8"):tolist())
    local c = lt.tensor({ { 1, 2 }, { 3, 4 } }, "complex64"):view("float32")
    assert.same({ 2, 4 }, c.shape)
    assert.same({ 4, 1 }, c:stride())
    assert.same({ 1, 0, 2, 0 }, c[1]:tolist())
    local m = lt.zeros(2, 4, "float32"):view("float64")
    assert.same({ 2, 2 }, m.shape)
    assert.same({ 2, 1 }, m:stride())
  end)

  it("raises where torch does", function()
    helpers.raises("0%-d tensor", function() lt.tensor(1, "int32"):view("int64") end)
    helpers.raises("last dim must have stride 1",
      function() lt.zeros(2, 2, "int32"):transpose(1, 2):view("int64") end)
    helpers.raises("divisible by 2", function() lt.zeros(3, "int32"):view("int64") end)
    helpers.raises("unknown dtype", function() lt.zeros(2):view("float31") end)
    assert.same({ 2, 3 }, lt.zeros(6):view(2, 3).shape) -- sizes still work
  end)

  it("T reverses every dim (also for ndim other than 2)", function()
    local t = lt.arange(24):view(2, 3, 4)
    assert.same({ 4, 3, 2 }, t.T.shape)
    assert.equal(t:get(2, 3, 4), t.T:get(4, 3, 2))
    assert.same({ 3 }, lt.arange(3).T.shape)
  end)
end)

describe("every dtype", function()
  for _, dt in ipairs(DTYPES) do
    it("flips, rolls, repeats, tiles and cuts triangles of " .. dt, function()
      local base = lt.arange(6):view(2, 3)
      local t = base:to(dt)
      local function same(a, b)
        assert.equal(dt, a.dtype)
        assert.is_true(a:equal(b:to(dt)), "values differ")
      end
      same(t:flip(1, 2), base:flip(1, 2))
      same(t:roll(1, 2), base:roll(1, 2))
      same(t:roll(-2), base:roll(-2))
      same(t["repeat"](t, 2, 1, 2), base["repeat"](base, 2, 1, 2))
      same(t:tile(2), base:tile(2))
      same(t:tril(), base:tril())
      same(t:triu(1), base:triu(1))
      same(t:diag(), base:diag())
      same(t.T:diag(), base.T:diag())
      same(lt.tensor({ 1, 2 }):to(dt):diag(), lt.tensor({ 1, 2 }):diag())
      same(t:diagonal(), base:diagonal())
      same(lt.eye(2, 3, dt), lt.eye(2, 3, "int64"))
      same(lt.zeros_like(t), lt.zeros(2, 3, "int64"))
      same(lt.ones_like(t), lt.ones(2, 3, "int64"))
      assert.equal(5, #t:view(-1):split(2) + #t:chunk(2))
    end)
  end

  it("views of a read-only tensor stay read-only, copies are writable", function()
    local r = read_only(m23())
    for _, v in ipairs({ r:diagonal(), r:split(1)[1], r:chunk(2)[1], r:unbind()[1],
      r:broadcast_to(2, 2, 3), r:view("uint64"), lt.meshgrid(r:select(1, 1))[1] }) do
      assert.is_true(v:is_read_only())
    end
    for _, c in ipairs({ r:flip(1), r:roll(1), r["repeat"](r, 1, 1), r:tile(1), r:tril(), r:triu(),
      r:diag() }) do
      assert.is_false(c:is_read_only())
      c:fill_(1)
    end
    assert.same({ { 0, 1, 2 }, { 3, 4, 5 } }, r:tolist())
  end)

  it("copies of a copy-on-write clone leave the clone and its source alone", function()
    local a = m23()
    local c = a:clone()
    local f = c:flip(1)
    f:fill_(0)
    c:diagonal():fill_(-1)
    assert.same({ { 0, 1, 2 }, { 3, 4, 5 } }, a:tolist())
    assert.same({ { -1, 1, 2 }, { 3, -1, 5 } }, c:tolist())
  end)
end)

describe("tril_ and triu_", function()
  it("clear the triangle of t itself and return t, whatever its strides", function()
    local o = lt.ones(3, 4, "int32")
    assert.is_true(rawequal(o, o:tril_()))
    assert.same({ { 1, 0, 0, 0 }, { 1, 1, 0, 0 }, { 1, 1, 1, 0 } }, o:tolist())
    local b = lt.ones(2, 3, 3)
    b:triu_(1)
    assert.same(lt.ones(2, 3, 3):triu(1):tolist(), b:tolist())
    local base = lt.ones(4, 3)
    local v = base:t() -- 3 x 4, not contiguous
    v:tril_(-1)
    assert.same(lt.ones(3, 4):tril(-1):tolist(), v:tolist())
    assert.same(lt.ones(3, 4):tril(-1):t():tolist(), base:tolist())
  end)

  it("refuse a read-only tensor and fewer than 2 dims, and keep a clone apart", function()
    helpers.raises("read%-only", function() read_only(m23()):tril_() end)
    helpers.raises("tril_: input must have at least 2 dims", function() lt.ones(3):tril_() end)
    -- an expanded view: clearing part of a row would clear the one row they all share
    local row = lt.tensor({ { 1, 2, 3 } })
    helpers.raises("tril_: unsupported operation: more than one element of the written%-to tensor",
      function() row:expand(4, 3):tril_() end)
    helpers.raises("triu_: unsupported operation", function() row:expand(3, 3):triu_(1) end)
    assert.same({ { 1, 2, 3 } }, row:tolist())
    local t = lt.ones(2, 2)
    local c = t:clone()
    c:triu_()
    assert.same({ { 1, 1 }, { 1, 1 } }, t:tolist())
    assert.same({ { 1, 1 }, { 0, 1 } }, c:tolist())
  end)
end)

describe("module forms", function()
  it("lt.f(t, ...) is t:f(...) for every shape method torch has as torch.f", function()
    for _, name in ipairs({ "flip", "roll", "tile", "split", "chunk", "unbind", "tril", "triu",
      "diag", "diagonal", "trace", "broadcast_to" }) do
      assert.equal(lt[name], lt.zeros(1)[name], name)
    end
    assert.is_nil(lt["repeat"]) -- torch has no torch.repeat
    assert.same(m23():flip(2):tolist(), lt.flip(m23(), 2):tolist())
  end)
end)
