-- tostring(t) prints as torch prints the same tensor (torch's dtype names lose "torch.").
local lt = require "ltensor"

local function S(t) return tostring(t) end

describe("tostring", function()
  it("right-aligns integers to the widest", function()
    assert.equal("tensor([0, 1, 2, 3])", S(lt.arange(4)))
    assert.equal("tensor([-1, -1,  2,  3])", S(lt.tensor({ -1, -1, 2, 3 })))
  end)

  it("prints floats with 4 decimals, or as '1.' when all are integers", function()
    assert.equal("tensor([ 1.5000, -2.2500])", S(lt.tensor({ 1.5, -2.25 })))
    assert.equal("tensor([1., 2., 3.])", S(lt.tensor({ 1.0, 2.0, 3.0 })))
    assert.equal("tensor(3.5000)", S(lt.tensor(3.5)))
    assert.equal("tensor(7)", S(lt.tensor(7)))
  end)

  it("switches to scientific notation for wide ranges", function()
    assert.equal("tensor([1.0000e-05, 1.0000e+00, 1.0000e+03])", S(lt.tensor({ 1e-5, 1, 1000 })))
    assert.equal("tensor([1.0000e+00, 1.0000e+09], dtype=float64)", S(lt.tensor({ 1, 1e9 }, "float64")))
  end)

  it("prints nan and inf as Python does", function()
    assert.equal("tensor([nan, 1., inf])", S(lt.tensor({ 0 / 0, 1.0, math.huge })))
    assert.equal("tensor([0.1000,    nan])", S(lt.tensor({ 0.1, 0 / 0 })))
  end)

  it("prints booleans as True and False", function()
    assert.equal("tensor([ True, False])", S(lt.tensor({ true, false })))
  end)

  it("shows the dtype unless it is float32, complex64, int64 or bool", function()
    assert.equal("tensor([1, 2], dtype=int32)", S(lt.tensor({ 1, 2 }, "int32")))
    assert.equal("tensor([1., 2.], dtype=float64)", S(lt.tensor({ 1, 2 }, "float64")))
    assert.equal("tensor([0.5000], dtype=float16)", S(lt.tensor({ 0.5 }, "float16")))
    assert.equal("tensor([1, 2])", S(lt.tensor({ 1, 2 })))
  end)

  it("prints complex numbers with real and imaginary columns", function()
    local c = lt.zeros(2, "complex64")
    c[1] = { 1, 2 }
    c[2] = { -3.5, -1 }
    assert.equal("tensor([ 1.0000+2.j, -3.5000-1.j])", S(c))
  end)

  it("nests rows with matching indentation and blank lines between blocks", function()
    assert.equal("tensor([[1.5000, 2.0000],\n        [3.0000, 4.0000]])",
      S(lt.tensor({ { 1.5, 2 }, { 3, 4 } })))
    assert.equal("tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])",
      S(lt.arange(8):view(2, 2, 2)))
  end)

  it("wraps long rows at 80 columns", function()
    assert.equal(
      "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n" ..
      "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n" ..
      "        28., 29.])",
      S(lt.arange(30, "float32")))
  end)

  it("summarizes tensors of more than 1000 elements", function()
    assert.equal("tensor([   0,    1,    2,  ..., 1997, 1998, 1999])", S(lt.arange(2000)))
    local s = S(lt.arange(2000):view(40, 50))
    assert.equal(
      "tensor([[   0,    1,    2,  ...,   47,   48,   49],\n" ..
      "        [  50,   51,   52,  ...,   97,   98,   99],\n" ..
      "        [ 100,  101,  102,  ...,  147,  148,  149],\n" ..
      "        ...,\n" ..
      "        [1850, 1851, 1852,  ..., 1897, 1898, 1899],\n" ..
      "        [1900, 1901, 1902,  ..., 1947, 1948, 1949],\n" ..
      "        [1950, 1951, 1952,  ..., 1997, 1998, 1999]])", s)
  end)

  it("prints empty tensors with their size and dtype where torch does", function()
    assert.equal("tensor([])", S(lt.tensor({})))
    assert.equal("tensor([], size=(0, 3))", S(lt.zeros(0, 3)))
    assert.equal("tensor([], dtype=int64)", S(lt.zeros(0, "int64")))
  end)

  it("prints views as the values they show", function()
    assert.equal("tensor([[0, 3],\n        [1, 4],\n        [2, 5]])", S(lt.arange(6):view(2, 3):transpose(1, 2)))
  end)

  it("does not raise for a released tensor", function()
    local t = lt.zeros(1)
    debug.getmetatable(t).__gc(t)
    assert.equal("tensor(<released>)", S(t))
  end)
end)
