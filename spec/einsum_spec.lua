-- lt.einsum (SPEC.md "The library for scripts", torch.einsum): every result is compared with
-- the same contraction written as explicit loops in Lua (`loops` below: every assignment of
-- the letters, products of the operands' elements summed into the output). The data are small
-- integers, so float64 results are exact whatever the order of summation.
-- spec/c/torch_host.c compares einsum with PyTorch on random data.
local lt = require "ltensor"
local raises = require("helpers").raises

-- {====== helpers ======

local seed = 11
-- A tensor of the shape with small integer values (-4..4) from a fixed sequence.
local function ints(dtype, ...)
  local t = lt.zeros({ ... }, dtype)
  if t:numel() == 0 then return t end
  local flat = t:view(-1)
  for i = 1, flat:numel() do
    seed = (seed * 1103515245 + 12345) % 2147483648
    flat[i] = seed % 9 - 4
  end
  return t
end

-- The element of the nested list at the 1-based positions idx (sizes of 1 broadcast).
local function at(list, shape, idx)
  local v = list
  for d = 1, #shape do v = v[shape[d] == 1 and 1 or idx[d]] end
  return v
end

-- "ij,jk->ik" with explicit loops over every letter: a nested list (or a number for a 0-d
-- output). Letters only, explicit output; a letter of size 1 in one operand broadcasts.
local function loops(eq, ...)
  local ops = { ... }
  local ins, out = eq:gsub(" ", ""):match("^(.*)%->(.*)$")
  local terms, letters, size = {}, {}, {}
  for term in (ins .. ","):gmatch("([^,]*),") do terms[#terms + 1] = term end
  for i, term in ipairs(terms) do
    for d = 1, #term do
      local c, s = term:sub(d, d), ops[i].shape[d]
      if not size[c] then letters[#letters + 1] = c end
      if not size[c] or size[c] == 1 then size[c] = s end
    end
  end
  local lists = {}
  for i, t in ipairs(ops) do lists[i] = t:tolist() end
  -- the output, zero-filled
  local function zeros(d)
    if d > #out then return 0 end
    local r = {}
    for j = 1, size[out:sub(d, d)] do r[j] = zeros(d + 1) end
    return r
  end
  local res = { zeros(1) }
  local val = {}
  local function walk(n)
    if n > #letters then
      local p = 1
      for i, term in ipairs(terms) do
        local idx = {}
        for d = 1, #term do idx[d] = val[term:sub(d, d)] end
        p = p * at(lists[i], ops[i].shape, idx)
      end
      local cell, key = res, 1
      for d = 1, #out do
        cell, key = cell[key], val[out:sub(d, d)]
      end
      cell[key] = cell[key] + p
      return
    end
    for j = 1, size[letters[n]] do
      val[letters[n]] = j
      walk(n + 1)
    end
  end
  walk(1)
  return res[1]
end

-- t as a nested list (a 0-d tensor: its value).
local function value(t)
  if t.ndim == 0 then return t:item() end
  return t:tolist()
end

-- lt.einsum(eq, ...) agrees with the loops over the same operands (refeq: the equation the
-- loops read, default eq itself).
local function check(eq, refeq, ...)
  local r = lt.einsum(eq, ...)
  assert.same(loops(refeq or eq, ...), value(r))
  return r
end

-- }======

describe("lt.einsum", function()
  local a, b = ints("float64", 3, 4), ints("float64", 4, 5)

  describe("products", function()
    it("multiplies matrices (ij,jk->ik), with or without the output given", function()
      local r = check("ij,jk->ik", nil, a, b)
      assert.same({ 3, 5 }, r.shape)
      assert.same(a:matmul(b):tolist(), lt.einsum("ij,jk", a, b):tolist())
    end)

    it("takes the operands as one table, as torch takes a list", function()
      assert.same(value(lt.einsum("ij,jk->ik", a, b)), value(lt.einsum("ij,jk->ik", { a, b })))
    end)

    it("multiplies batches (bij,bjk->bik)", function()
      check("bij,bjk->bik", nil, ints("float64", 2, 3, 4), ints("float64", 2, 4, 2))
    end)

    it("makes outer products (i,j->ij) and inner ones (i,i->), a 0-d tensor", function()
      local u, v = ints("float64", 3), ints("float64", 4)
      check("i,j->ij", nil, u, v)
      local r = check("i,i->", nil, u, u)
      assert.equal(0, r.ndim)
      assert.equal("userdata", type(r))
      assert.equal(0, lt.einsum("i,i", u, u).ndim)
    end)

    it("contracts three operands (ij,jk,kl->il) and four", function()
      local c = ints("float64", 5, 2)
      check("ij,jk,kl->il", nil, a, b, c)
      check("ij,jk,kl,lm->im", nil, a, b, c, ints("float64", 2, 3))
    end)

    it("multiplies elementwise where no letter is summed (ij,ij->ij, ij,j->ij)", function()
      check("ij,ij->ij", nil, a, a)
      check("ij,j->ij", nil, a, ints("float64", 4))
    end)

    it("sums letters that appear in one operand only before the product", function()
      check("ij,jk->", nil, a, b)
      check("ij,kl->ik", nil, a, b)
      check("ijk,j->k", nil, ints("float64", 2, 3, 4), ints("float64", 3))
    end)

    it("runs products large enough for the BLAS", function()
      local x, y = ints("float64", 40, 30), ints("float64", 30, 50)
      assert.same(x:matmul(y):tolist(), lt.einsum("ij,jk->ik", x, y):tolist())
      assert.same(x:matmul(y).T:tolist(), lt.einsum("ij,jk->ki", x, y):tolist())
    end)
  end)

  describe("one operand", function()
    it("transposes (ij->ji) into a new tensor", function()
      local r = check("ij->ji", nil, a)
      r[1][1] = 100
      assert.are_not.equal(100, a[1][1])
    end)

    it("sums (ij->, ij->j, implicit i with ->)", function()
      check("ij->", nil, a)
      check("ij->j", nil, a)
      check("ij->i", nil, a)
    end)

    it("takes the trace (ii) and the diagonal (ii->i)", function()
      local m = ints("float64", 4, 4)
      local tr = check("ii->", nil, m)
      assert.same(tr:item(), lt.einsum("ii", m):item())
      check("ii->i", nil, m)
      check("iij->j", nil, ints("float64", 3, 3, 2))
      check("iji->ij", nil, ints("float64", 3, 2, 3))
      check("iii->i", nil, ints("float64", 2, 2, 2))
    end)

    it("copies an equation that changes nothing", function()
      local r = lt.einsum("ij", a)
      assert.same(a:tolist(), r:tolist())
      r[1][1] = 100
      assert.are_not.equal(100, a[1][1])
    end)
  end)

  describe("the equation", function()
    it("ignores spaces and reads upper- and lower-case letters as different", function()
      check("iJ, Jk -> k i", "iJ,Jk->ki", a, b)
      check("Ab,bA->", nil, ints("float64", 2, 3), ints("float64", 3, 2))
    end)

    it("puts the letters that appear once in ASCII order without ->", function()
      -- "ba,cb" gives ac; "Ba,aB" gives nothing (both letters twice); upper case first
      local x, y = ints("float64", 4, 3), ints("float64", 2, 4)
      assert.same(loops("ba,cb->ac", x, y), value(lt.einsum("ba,cb", x, y)))
      assert.same(loops("aB->Ba", a), value(lt.einsum("aB", a)))
      assert.same({ 4, 3 }, lt.einsum("ij->ji", a).shape)
      assert.same({ 4, 3 }, lt.einsum("ji", a).shape)
    end)
  end)

  describe("the ellipsis", function()
    it("batches matrix products (...ij,...jk->...ik)", function()
      local x, y = ints("float64", 2, 3, 4), ints("float64", 2, 4, 5)
      check("...ij,...jk->...ik", "bij,bjk->bik", x, y)
      check("...ij,...jk", "bij,bjk->bik", x, y) -- implicit: the ellipsis first
    end)

    it("broadcasts dims of size 1 and missing leading dims", function()
      local x, y = ints("float64", 2, 1, 3), ints("float64", 4, 3)
      local r = check("...i,...i->...", "abi,bi->ab", x, y)
      assert.same({ 2, 4 }, r.shape)
      check("...,...", "ab,ab->ab", ints("float64", 3, 1), ints("float64", 1, 4))
    end)

    it("sums the ellipsis dims when the output leaves them out", function()
      check("...ij->ij", "aij->ij", ints("float64", 2, 3, 4))
    end)

    it("covers no dims where the operand has none to spare", function()
      check("i...->i", "i->i", ints("float64", 3))
      assert.same({ 3, 4 }, lt.einsum("ij->...ij", a).shape)
    end)

    it("takes operands of 64 dims, the most a tensor has", function()
      local shape = {}
      for d = 1, 64 do shape[d] = 1 end
      shape[1], shape[64] = 2, 3
      local x, y = ints("float64", table.unpack(shape)), ints("float64", table.unpack(shape))
      local r = lt.einsum("...,...->...", x, y) -- an elementwise product of 64 dims
      assert.same(shape, r.shape)
      assert.is_true(r:equal(x * y))
      local s = lt.einsum("...i,...i->...", x, y) -- 63 batch dims and a contraction
      assert.equal(63, s.ndim)
      assert.is_true(s:equal((x * y):sum(64)))
    end)

    it("broadcasts a letter of size 1 (i,i->i with sizes 3 and 1)", function()
      check("i,i->i", nil, ints("float64", 3), ints("float64", 1))
      check("ij,jk->ik", nil, ints("float64", 3, 1), ints("float64", 4, 2))
    end)
  end)

  describe("operands", function()
    it("reads non-contiguous operands (transposed, sliced, expanded)", function()
      local x = ints("float64", 5, 4).T
      local y = ints("float64", 6, 5)[{ { 1, 6, 2 } }].T
      check("ij,jk->ik", nil, x, y)
      check("ii->i", nil, ints("float64", 4, 4).T)
      check("ij,jk->ik", nil, ints("float64", 1, 4):expand(3, 4), b)
    end)

    it("handles empty dims", function()
      local r = check("ij,jk->ik", nil, ints("float64", 3, 0), ints("float64", 0, 2))
      assert.same({ { 0, 0 }, { 0, 0 }, { 0, 0 } }, r:tolist())
      assert.same({ 0, 2 }, lt.einsum("ij,jk->ik", ints("float64", 0, 3), ints("float64", 3, 2)).shape)
      assert.equal(0, lt.einsum("ij->", ints("float64", 0, 3)):item())
    end)

    it("computes in integer dtypes exactly, as torch gives them", function()
      local x, y = ints("int64", 3, 4), ints("int64", 4, 2)
      local r = check("ij,jk->ik", nil, x, y)
      assert.equal("int64", r.dtype)
      assert.equal(math.type(r[1][1]), "integer")
      local i32 = ints("int32", 3, 4)
      assert.equal("int32", check("ij,jk->ik", nil, i32, ints("int32", 4, 2)).dtype)
      assert.equal("int32", lt.einsum("ij->ji", i32).dtype)
      assert.equal("int64", check("ij->", nil, i32).dtype) -- a sum gives int64, as torch's
    end)

    it("promotes the operands' dtypes (int64 with float32 gives float32)", function()
      local x = ints("int64", 3, 4)
      local r = lt.einsum("ij,jk->ik", x, b:to("float32"))
      assert.equal("float32", r.dtype)
      assert.same(loops("ij,jk->ik", x, b), r:tolist())
    end)

    it("computes float32 and complex products", function()
      local x, y = ints("float32", 3, 4), ints("float32", 4, 2)
      assert.same(loops("ij,jk->ik", x, y), lt.einsum("ij,jk->ik", x, y):tolist())
      local u, v = lt.zeros(2, "complex128"), lt.zeros(2, "complex128")
      u[1], u[2], v[1], v[2] = { 1, 2 }, { 0, 1 }, { 3, 0 }, { 0, 1 }
      -- (1 + 2i) 3 + i i = 2 + 6i
      assert.same({ 2, 6 }, lt.einsum("i,i->", u, v):item())
    end)
  end)

  describe("errors", function()
    it("refuses the wrong number of operands", function()
      raises("einsum: the equation has 2 operands but 1 was given", lt.einsum, "ij,jk", a)
      raises("einsum: the equation has 1 operand but 2 were given", lt.einsum, "ij", a, b)
      raises("einsum: expected at least one operand", lt.einsum, "ij")
      raises("einsum: expected at least one operand", lt.einsum, "ij", {})
    end)

    it("names the operand whose dims the subscripts do not match", function()
      raises("einsum: the number of subscripts in the equation %(2%) does not match the number "
        .. "of dimensions %(3%) for operand 1", lt.einsum, "ij", ints("float64", 2, 3, 4))
      raises("for operand 2$", lt.einsum, "ij,j", a, a)
      raises("the number of subscripts in the equation %(100%) does not match", lt.einsum,
        string.rep("a", 100), a)
      raises("the number of subscripts in the equation %(3%) is more than the number of "
        .. "dimensions %(2%) for operand 1", lt.einsum, "ijk...", a)
    end)

    it("names the index whose sizes differ, and both operands", function()
      raises("einsum: operand 2 has size 4 for index 'j', operand 1 has size 3", lt.einsum,
        "ij,jk", ints("float64", 2, 3), ints("float64", 4, 2))
      raises("operand 2 has size 4 for dim 1 of the ellipsis, operand 1 has size 2", lt.einsum,
        "...i,...i", ints("float64", 2, 3), ints("float64", 4, 3))
      raises("index 'i' is repeated in operand 1 with sizes 3 and 4", lt.einsum, "ii", a)
    end)

    it("refuses invalid characters, with their position", function()
      raises("einsum: invalid character '1' at position 2 of the equation %(indices are the "
        .. "letters a%-z and A%-Z%)", lt.einsum, "i1", a)
      raises("invalid character '%-' at position 3", lt.einsum, "ij-", a)
      raises("'%.' at position 2 is not part of an ellipsis", lt.einsum, "i..j", a)
      raises("more than one '%->'", lt.einsum, "ij->ij->ij", a)
      raises("',' at position 7 is in the output", lt.einsum, "i,j->i,j", lt.ones(2), lt.ones(2))
      raises("invalid byte 0 at position 2", lt.einsum, "i\0j", a)
    end)

    it("refuses output letters not in any operand, or given twice", function()
      raises("einsum: output index 'k' does not appear in any operand", lt.einsum, "ij->k", a)
      raises("einsum: output index 'i' appears more than once", lt.einsum, "ij->ii", a)
    end)

    it("refuses more than one ellipsis per operand or in the output", function()
      raises("einsum: operand 2 has more than one ellipsis", lt.einsum, "i,......", lt.ones(2),
        lt.ones(2))
      raises("einsum: the output has more than one ellipsis", lt.einsum, "...->......", a)
    end)

    it("refuses arguments that are not an equation and tensors", function()
      raises("einsum: the equation must be a string, got number", lt.einsum, 3, a)
      raises("einsum: operand 2 is a number, not a tensor", lt.einsum, "i,i", a, 3)
      raises("einsum: operand 1 is a string, not a tensor", lt.einsum, "i", { "x" })
    end)

    it("refuses bool operands of a product, as torch's bmm does", function()
      raises("einsum: .*bool", lt.einsum, "ij,jk", lt.ones(2, 2, "bool"), lt.ones(2, 2, "bool"))
    end)
  end)
end)
