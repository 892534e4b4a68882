-- Matrix products: matmul, mm, bmm, mv, dot and addmm, through the BLAS (SPEC.md "The library
-- for scripts": float32, float64, complex64 and complex128 go to a CBLAS when one was built in)
-- and through ltensor's own kernel, which serves every other dtype and builds without a BLAS.
--
-- lt.config().blas names the BLAS in use; lt.config{blas = false} switches it off, so each
-- product below runs both ways and the two must agree exactly: the data are small integers,
-- whose products and sums every order of summation gives exactly. spec/math_spec.lua has the
-- hand-worked values of matmul; spec/c/torch_host.c compares these products with PyTorch.
local lt = require "ltensor"
local raises = require("helpers").raises

-- {====== helpers ======

-- A tensor of the shape with small integer values (-4..4) from a fixed sequence.
local seed = 7
local function ints(dtype, ...)
  local t = lt.zeros({ ... }, dtype)
  local flat = t:view(-1)
  for i = 1, flat:numel() do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local v = seed % 9 - 4
    if dtype == "complex64" or dtype == "complex128" then
      seed = (seed * 1103515245 + 12345) % 2147483648
      flat[i] = { v, seed % 9 - 4 }
    else
      flat[i] = v
    end
  end
  return t
end

-- fn() with the BLAS on, then off (on the same data when fn makes some): both results, as
-- lists (or the value of a 0-d tensor).
local function both(fn)
  local was, from = lt.config().blas ~= nil, seed
  local on = fn()
  seed = from
  lt.config { blas = false }
  local ok, off = pcall(fn)
  lt.config { blas = was }
  assert(ok, off)
  assert.equal(on.dtype, off.dtype)
  assert.same(off.shape, on.shape)
  return on:tolist(), off:tolist()
end

-- fn() gives the same values through the BLAS and through the own kernel.
local function agree(fn)
  local on, off = both(fn)
  assert.same(off, on)
  return on
end

local blas_dtypes = { "float32", "float64", "complex64", "complex128" }

-- An it per BLAS dtype dt, its sentence the format what of dt, running fn(dt).
local function each_blas_dtype(what, fn)
  for _, dt in ipairs(blas_dtypes) do
    it(what:format(dt), function() fn(dt) end)
  end
end

-- }======

describe("the BLAS", function()
  it("is named by lt.config().blas, and switched off and on by lt.config{blas = ...}", function()
    local name = lt.config().blas
    local expected = os.getenv("LTENSOR_TEST_BLAS") -- set by ctest: the BLAS CMake found
    if expected then assert.equal(expected ~= "" and expected or nil, name) end
    assert.is_nil(lt.config { blas = false }.blas)
    assert.is_nil(lt.config().blas)
    assert.equal(name, lt.config { blas = true }.blas)
    assert.equal(name, lt.config().blas)
  end)
end)

describe("matmul through the BLAS and the own kernel", function()
  each_blas_dtype("agree on %s matrices, row and column vectors, and dots", function(dt)
    local a, b = ints(dt, 5, 7), ints(dt, 7, 6)
    agree(function() return a:matmul(b) end)
    agree(function() return a:mm(b) end)
    agree(function() return a:mv(b[{ {}, 2 }]) end)
    agree(function() return b[{ {}, 3 }]:matmul(b) end)
    agree(function() return a[2]:dot(b[{ {}, 4 }]) end)
    agree(function() return a[{ { 1, 1 } }]:matmul(b) end) -- 1 x k times k x m
    agree(function() return a:matmul(b[{ {}, { 2, 2 } }]) end) -- n x k times k x 1
  end)

  each_blas_dtype("agree on transposed and strided %s operands", function(dt)
    local a, b = ints(dt, 7, 5), ints(dt, 6, 7)
    agree(function() return a:t():matmul(b:t()) end) -- both transposed: no copy
    agree(function() return a.mT:mm(ints(dt, 7, 3)) end)
    local big = ints(dt, 9, 12)
    local rows = big[{ { 2, 6 }, { 3, 9 } }] -- a leading dimension of 12
    agree(function() return rows:matmul(ints(dt, 7, 4)) end)
    agree(function() return rows:t():matmul(rows) end)
    local every2 = big[{ {}, { 1, -1, 2 } }] -- a column stride of 2: packed
    agree(function() return every2:t():matmul(big[{ {}, { 2, 7 } }]) end)
    agree(function() return every2:matmul(ints(dt, 6, 3)) end)
    agree(function() return big[{ {}, 5 }]:matmul(big) end) -- a strided row vector
    agree(function() return big:mv(big[3]) end)
    agree(function() return big[{ {}, 1 }]:dot(big[{ {}, 2 }]) end)
    local wide = lt.zeros({ 1, 7 }, dt):expand(4, 7) -- a row stride of 0: packed
    agree(function() return (wide + ints(dt, 4, 7)):matmul(ints(dt, 7, 2)) end)
    agree(function() return wide:matmul(ints(dt, 7, 2)) end)
  end)

  each_blas_dtype("agree on %s batches that broadcast, are permuted or are bmm's", function(dt)
    local A, B = ints(dt, 2, 1, 3, 4), ints(dt, 5, 4, 2)
    local C = agree(function() return A:matmul(B) end)
    assert.equal(2, #C)
    assert.equal(5, #C[1])
    local P = ints(dt, 3, 4, 2):permute(3, 1, 2) -- batch dim with a stride of 1
    agree(function() return P:matmul(ints(dt, 4, 5)) end)
    agree(function() return P:bmm(ints(dt, 2, 4, 3)) end)
    agree(function() return ints(dt, 3, 2, 5):bmm(ints(dt, 3, 6, 5):transpose(2, 3)) end)
    agree(function() return ints(dt, 4, 3):matmul(ints(dt, 2, 3, 6)) end)
    agree(function() return ints(dt, 3):matmul(ints(dt, 2, 3, 6)) end)
    agree(function() return ints(dt, 2, 3, 6):matmul(ints(dt, 6)) end)
  end)

  each_blas_dtype("give zeros for an inner size of 0 and empty results for empty outer sizes (%s)",
    function(dt)
      local z = agree(function() return lt.zeros({ 3, 0 }, dt):matmul(lt.zeros({ 0, 2 }, dt)) end)
      local zero = (dt == "complex64" or dt == "complex128") and { 0, 0 } or 0
      assert.same({ { zero, zero }, { zero, zero }, { zero, zero } }, z)
      assert.same({}, agree(function() return lt.zeros({ 0, 4 }, dt):mm(lt.zeros({ 4, 2 }, dt)) end))
      local e = lt.zeros({ 2, 4 }, dt):mm(lt.zeros({ 4, 0 }, dt))
      assert.same({ 2, 0 }, e.shape)
      assert.same(zero, lt.zeros({ 0 }, dt):dot(lt.zeros({ 0 }, dt)):item())
    end)

  it("computes float16 and bfloat16 in float32 either way", function()
    for _, dt in ipairs({ "float16", "bfloat16" }) do
      local r = agree(function() return ints(dt, 4, 5):matmul(ints(dt, 5, 3)) end)
      assert.equal(4, #r)
      assert.equal(dt, ints(dt, 2, 2):mm(ints(dt, 2, 2)).dtype)
    end
  end)

  it("promotes mixed dtypes before the BLAS sees them", function()
    local a, b = ints("int32", 3, 4), ints("float64", 4, 2)
    local r = agree(function() return a:matmul(b) end)
    assert.same(a:to("float64"):matmul(b):tolist(), r)
    assert.equal("complex64", ints("float32", 2, 3):mm(ints("complex64", 3, 2)).dtype)
  end)

  it("keeps the own kernel for integers, which wrap", function()
    local r = lt.tensor({ { 100, 100 } }, "int8"):mm(lt.tensor({ { 2 }, { 1 } }, "int8"))
    assert.same({ { 44 } }, r:tolist()) -- 300 wraps
    local a = ints("int32", 4, 3)
    assert.same(a:to("float64"):matmul(a:t():to("float64")):to("int32"):tolist(),
      a:matmul(a:t()):tolist())
  end)

  it("matches a sum written out in Lua", function()
    local a, b = ints("float64", 6, 5), ints("float64", 5, 4)
    local c = a:matmul(b)
    for i = 1, 6 do
      for j = 1, 4 do
        local s = 0
        for p = 1, 5 do s = s + a:get(i, p) * b:get(p, j) end
        assert.equal(s, c:get(i, j))
      end
    end
  end)
end)

describe("mm, bmm, mv and dot", function()
  it("refuse operands of the wrong rank, naming the operand", function()
    local m, v = lt.zeros(2, 3), lt.zeros(3)
    raises("^mm: self must be a matrix, got a 1%-d tensor$", v.mm, v, m)
    raises("^mm: mat2 must be a matrix, got a 1%-d tensor$", m.mm, m, v)
    raises("^bmm: self must be a 3%-d tensor, got a 2%-d tensor$", m.bmm, m, m)
    raises("^bmm: mat2 must be a 3%-d tensor, got a 2%-d tensor$", lt.zeros(1, 2, 3).bmm,
      lt.zeros(1, 2, 3), m)
    raises("^mv: self must be a matrix, got a 1%-d tensor$", v.mv, v, v)
    raises("^mv: vec must be a 1%-d tensor, got a 2%-d tensor$", m.mv, m, m)
    raises("^dot: 1%-d tensors expected, got 2%-d and 1%-d$", m.dot, m, v)
  end)

  it("refuse sizes that do not multiply, giving both shapes", function()
    local m = lt.zeros(2, 3)
    raises("^mm: self and mat2 shapes cannot be multiplied %(2x3 and 2x3%)$", m.mm, m, m)
    raises("^bmm: self and mat2 must have the same batch size %(2x2x3 and 3x3x2%)$",
      lt.zeros(2, 2, 3).bmm, lt.zeros(2, 2, 3), lt.zeros(3, 3, 2))
    raises("^bmm: self and mat2 shapes cannot be multiplied %(2x2x3 and 2x2x3%)$",
      lt.zeros(2, 2, 3).bmm, lt.zeros(2, 2, 3), lt.zeros(2, 2, 3))
    raises("^mv: self and vec shapes cannot be multiplied %(2x3 and 2%)$", m.mv, m, lt.zeros(2))
    raises("^dot: self and other must have the same size %(3 and 4%)$", lt.zeros(3).dot,
      lt.zeros(3), lt.zeros(4))
  end)

  it("do not broadcast bmm's batch dims, unlike matmul", function()
    local a, b = lt.zeros(1, 2, 3), lt.zeros(4, 3, 2)
    assert.same({ 4, 2, 2 }, a:matmul(b).shape)
    raises("must have the same batch size", a.bmm, a, b)
  end)
end)

describe("addmm", function()
  each_blas_dtype("gives beta input + alpha mat1 mat2, broadcasting input (%s)", function(dt)
    local m1, m2 = ints(dt, 4, 5), ints(dt, 5, 3)
    for _, input in ipairs({ ints(dt, 4, 3), ints(dt, 3), ints(dt, 4, 1), ints(dt, 1) }) do
      local r = agree(function() return input:addmm(m1, m2, { beta = 2, alpha = -3 }) end)
      local want = (input * 2 + m1:mm(m2) * -3):tolist()
      assert.same(want, r)
      assert.same((input + m1:mm(m2)):tolist(), agree(function() return input:addmm(m1, m2) end))
    end
    agree(function() return ints(dt, 4, 3):addmm(m1:t():t(), ints(dt, 3, 5):t(), { alpha = 2 }) end)
  end)

  it("ignores input's values, NaN included, when beta is 0", function()
    local input = lt.full({ 2, 2 }, 0 / 0, "float64")
    local a = lt.tensor({ { 1, 2 }, { 3, 4 } }, "float64")
    local on, off = both(function() return input:addmm(a, a, { beta = 0 }) end)
    assert.same({ { 7, 10 }, { 15, 22 } }, on)
    assert.same(on, off)
    assert.same({ { 7, 10 }, { 15, 22 } }, lt.full({ 2, 2 }, 5):addmm(lt.tensor({ { 1, 2 }, { 3, 4 } }),
      lt.tensor({ { 1, 2 }, { 3, 4 } }), { beta = 0 }):tolist())
  end)

  it("gives beta input when the inner size is 0", function()
    for _, dt in ipairs(blas_dtypes) do
      local input = ints(dt, 2, 3)
      local r = agree(function() return input:addmm(lt.zeros({ 2, 0 }, dt), lt.zeros({ 0, 3 }, dt),
          { beta = 2, alpha = 3 }) end)
      assert.same((input * 2):tolist(), r)
    end
  end)

  it("takes complex alpha and beta for complex tensors", function()
    local a = lt.zeros({ 1, 1 }, "complex128")
    a:set(1, 1, { 1, 1 })
    local r = a:addmm(a, a, { alpha = { 0, 1 }, beta = { 2, 0 } }) -- (1+i)^2 = 2i; i * 2i = -2
    assert.same({ { { 0, 2 } } }, r:tolist())
  end)

  it("works on integers with integer alpha and beta, and refuses fractions there", function()
    local i = lt.tensor({ { 1, 2 }, { 3, 4 } })
    assert.same({ { 17, 26 }, { 39, 56 } }, i:addmm(i, i, { beta = 3, alpha = 2 }):tolist())
    raises("^addmm: alpha must be an integer for int64 tensors$", i.addmm, i, i, i, { alpha = 0.5 })
    raises("^addmm: beta must be a real number for float32 tensors$", lt.zeros(1, 1).addmm,
      lt.zeros(1, 1), lt.zeros(1, 1), lt.zeros(1, 1), { beta = { 0, 1 } })
    raises("^addmm: alpha must be a number or {re, im}, got string$", i.addmm, i, i, i,
      { alpha = "2" })
  end)

  it("checks the shapes, naming the operands", function()
    local m = lt.zeros(2, 3)
    raises("^addmm: mat1 must be a matrix, got a 1%-d tensor$", m.addmm, m, lt.zeros(3), m)
    raises("^addmm: mat2 must be a matrix, got a 3%-d tensor$", m.addmm, m, m, lt.zeros(1, 3, 3))
    raises("^addmm: mat1 and mat2 shapes cannot be multiplied %(2x3 and 2x3%)$", m.addmm, m, m, m)
    raises("^addmm: input of size %(4%) does not broadcast to the product's %(2x2%)$",
      lt.zeros(4).addmm, lt.zeros(4), m, m:t())
  end)

  it("has an in-place form, addmm_, that writes input and returns it", function()
    local a = ints("float32", 3, 4)
    local b = ints("float32", 4, 2)
    local c = ints("float32", 3, 2)
    local want = c:addmm(a, b, { beta = 2, alpha = 3 })
    local clone = c:clone() -- copy-on-write: the clone keeps c's old values
    local before = c:tolist()
    assert.equal(c, c:addmm_(a, b, { beta = 2, alpha = 3 }))
    assert.same(want:tolist(), c:tolist())
    assert.same(before, clone:tolist())
    -- no broadcasting in place: input must have the product's shape
    local row = lt.zeros(2)
    raises("^addmm_: self has shape %[2%], the product %[3, 2%]$", row.addmm_, row, a, b)
    assert.same({ 0, 0 }, row:tolist())
    local ro = require("ltensor.dlpack").from_dlpack(
      lt.zeros(3, 2):__dlpack({ max_version = { 1, 3 }, read_only = true }))
    assert.is_true(ro:is_read_only())
    raises("read%-only", ro.addmm_, ro, a, b)
  end)
end)

describe("matrix products under an address-space limit", function()
  -- A sandboxing host caps the address space (RLIMIT_AS). OpenBLAS retried the allocation of its
  -- 128 MiB buffers for ever there, and the product never returned; ltensor's guard
  -- (src/core/ops/lt_blas.c) now checks that memory first and computes with its own kernel when it
  -- is not there. Each cap: a fresh lua5.4 under `ulimit -v`, killed by `timeout` if it hangs.
  -- not under the sanitizers (their runtime, preloaded, reserves terabytes of address space)
  local runnable = not (os.getenv("LD_PRELOAD") or ""):find("san", 1, true)
    and os.execute("command -v timeout >/dev/null 2>&1")
  local script = [[
    local lt = require "ltensor"
    local out = {}
    for _, dt in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local a = lt.ones({ 256, 256 }, dt)
      local p, v, d = a:matmul(a), a:mv(a[1]), a[1]:dot(a[1])
      out[#out + 1] = tostring(p:equal(lt.full({ 256, 256 }, 256, dt))
        and v:equal(lt.full({ 256 }, 256, dt)) and d:equal(lt.tensor(256, dt)))
    end
    io.write(table.concat(out, " "), " ", tostring(lt.config().blas))
  ]]
  for _, kib in ipairs({ 100000, 200000, 300000 }) do
    local what = ("give the right results at once under ulimit -v %d"):format(kib)
    if not runnable then
      pending(what .. " (skipped: a sanitizer's runtime is preloaded, or timeout(1) is missing)")
    else it(what, function()
      local path = os.tmpname()
      local f = assert(io.open(path, "w"))
      f:write(script)
      f:close()
      local p = assert(io.popen(("ulimit -v %d && exec timeout 20 lua5.4 %s 2>&1"):format(kib,
        path)))
      local out = p:read("a")
      local ok, how, code = p:close()
      os.remove(path)
      assert.is_true(ok, ("child %s %s (124: hung): %s"):format(tostring(how), tostring(code), out))
      assert.truthy(out:find("^true true true true "), out)
    end) end
  end
end)
