-- lt.fft: torch.fft's transforms, frequencies and shifts (src/core/ops/lt_fft_api.c over the
-- engine of lt_fft.c, src/binding/lua_fft.c). Values are checked on transforms small enough to
-- work out by hand, and by the identities every transform keeps (round trips, Parseval,
-- the Hermitian symmetry of a real signal's spectrum); NumPy and torch check the rest on the
-- same data (spec/c/numpy_host_fft.h, spec/c/torch_host_fft.h).
local lt = require "ltensor"
local helpers = require "helpers"
local F = lt.fft

-- The largest |a - b| over the largest |b| (over 1 when b is all zeros or empty). A full
-- max gives a Lua number.
local function rel(a, b)
  if b:numel() == 0 then return 0 end
  local m = b:abs():max()
  return (a - b):abs():max() / (m > 0 and m or 1)
end
local function close(a, b, tol) assert.is_true(rel(a, b) <= (tol or 1e-12), "differ by " .. rel(a, b)) end
-- A complex128 tensor from {re, im} pairs.
local function C(pairs_)
  local z = lt.zeros(#pairs_, "complex128")
  for i, p in ipairs(pairs_) do z[i] = p end
  return z
end
local function randn(...)
  local args = table.pack(...)
  args[args.n + 1] = { generator = lt.Generator(29) }
  return lt.randn(table.unpack(args, 1, args.n + 1))
end
local function msg(fname, what) return "fft%." .. fname .. ": " .. what end

describe("lt.fft", function()
  it("is the table require 'ltensor.fft' returns", function()
    assert.equal(lt.fft, require "ltensor.fft")
  end)

  describe("fft and ifft", function()
    it("give the sums of x[j] exp(-2 pi i j k / n), and of exp(+...) / n", function()
      local x = lt.tensor({ 1, 2, 3, 4 }, "float64")
      local X = F.fft(x)
      assert.equal("complex128", X.dtype)
      helpers.near({ { 10, 0 }, { -2, 2 }, { -2, 0 }, { -2, -2 } }, X:tolist(), 1e-12)
      helpers.near({ { 2.5, 0 }, { -0.5, -0.5 }, { -0.5, 0 }, { -0.5, 0.5 } }, F.ifft(x):tolist(), 1e-12)
    end)

    it("promote integers and bool to complex64, float32 to complex64 and keep complex dtypes", function()
      assert.equal("complex64", F.fft(lt.arange(4)).dtype)
      helpers.near({ { 6, 0 }, { -2, 2 }, { -2, 0 }, { -2, -2 } }, F.fft(lt.arange(4)):tolist(), 1e-6)
      assert.equal("complex64", F.fft(lt.tensor({ true, false })).dtype)
      assert.equal("complex64", F.fft(lt.ones(3, "float32")).dtype)
      assert.equal("complex128", F.ifft(lt.ones(3, "complex128")).dtype)
    end)

    it("refuse float16 and bfloat16, as torch does on the CPU", function()
      helpers.raises(msg("fft", "input: float16 is not supported"), F.fft, lt.ones(4, "float16"))
      helpers.raises(msg("ifft", "input: bfloat16 is not supported"), F.ifft, lt.ones(4, "bfloat16"))
    end)

    it("round-trip: ifft(fft(x)) is x, for every norm, on odd, prime and even lengths", function()
      for _, n in ipairs({ 1, 2, 7, 13, 16, 60 }) do
        local x = randn(3, n, "float64"):to("complex128") * 1.5
        for _, norm in ipairs({ "backward", "ortho", "forward" }) do
          close(F.ifft(F.fft(x, nil, nil, norm), nil, nil, norm), x, 1e-12)
        end
      end
    end)

    it("scale by the norm: backward (1 and 1/n), ortho (1/sqrt(n) both), forward (1/n and 1)", function()
      local x = randn(10, "float64")
      local X = F.fft(x)
      close(F.fft(x, nil, nil, "ortho"), X / math.sqrt(10))
      close(F.fft(x, { norm = "forward" }), X / 10)
      close(F.ifft(X, { norm = "backward" }) * 10, F.ifft(X, { norm = "forward" }))
      close(F.ifft(X, nil, nil, "ortho") * math.sqrt(10), F.ifft(X, nil, nil, "forward"))
    end)

    it("keep Parseval's identity: sum |x|^2 = sum |X|^2 / n", function()
      local x = randn(97, "float64")
      local X = F.fft(x)
      local a, b = (x * x):sum(), (X:abs() * X:abs()):sum() / 97
      assert.is_true(math.abs(a - b) <= 1e-12 * a)
      local o = F.fft(x, { norm = "ortho" }):abs()
      assert.is_true(math.abs((o * o):sum() - a) <= 1e-12 * a)
    end)

    it("give a real signal's spectrum the Hermitian symmetry X[k] = conj(X[n - k])", function()
      local X = F.fft(randn(9, "float64")):tolist()
      assert.near(0, X[1][2], 1e-12)
      for k = 2, 9 do
        assert.near(X[k][1], X[11 - k][1], 1e-12)
        assert.near(X[k][2], -X[11 - k][2], 1e-12)
      end
    end)

    it("pad with zeros when n is larger and trim when it is smaller", function()
      local x = lt.tensor({ 1, 2, 3 }, "float64")
      close(F.fft(x, 5), F.fft(lt.tensor({ 1, 2, 3, 0, 0 }, "float64")))
      close(F.fft(x, 2), F.fft(lt.tensor({ 1, 2 }, "float64")))
      close(F.fft(x, { n = 2 }), F.fft(lt.tensor({ 1, 2 }, "float64")))
      helpers.near({ { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } }, F.fft(lt.zeros(0), 4):tolist(), 0)
    end)

    it("transform along dim (1-based, negative from the end), batched over the others", function()
      local x = randn(4, 5, "float64")
      local X = F.fft(x, nil, 1)
      assert.same({ 4, 5 }, X.shape)
      for j = 1, 5 do close(X[{ {}, j }], F.fft(x[{ {}, j }])) end
      close(F.fft(x, { dim = -2 }), X)
      close(F.fft(x, nil, 2), F.fft(x))
    end)

    it("take any view: transposed, strided, read-only", function()
      local x = randn(6, 8, "float64")
      close(F.fft(x:t()), F.fft(x:t():contiguous()))
      close(F.fft(x[{ {}, { 1, 8, 2 } }]), F.fft(x[{ {}, { 1, 8, 2 } }]:contiguous()))
      local w = require("ltensor.dlpack").ReadOnlyTensorWrapper(x)
      close(F.fft(lt.from_dlpack(w)), F.fft(x))
    end)

    it("give empty results for empty batch dims", function()
      assert.same({ 0, 3 }, F.fft(lt.zeros(0, 3)).shape)
      assert.same({ 3, 0 }, F.fft(lt.zeros(3, 0), nil, 1).shape)
    end)

    it("raise for n < 1, an empty dim, a 0-d input, a bad dim or norm, naming the argument", function()
      helpers.raises(msg("fft", "n must be at least 1"), F.fft, lt.ones(3), 0)
      helpers.raises(msg("fft", "n must be at least 1"), F.fft, lt.ones(3), { n = -2 })
      helpers.raises(msg("fft", "n must be an integer"), F.fft, lt.ones(3), 2.5)
      helpers.raises(msg("fft", "invalid number of data points %(0%) specified"), F.fft, lt.zeros(0))
      helpers.raises(msg("fft", "invalid number of data points %(0%)"), F.fft, lt.zeros(3, 0))
      helpers.raises(msg("fft", "input: expected a tensor of at least 1 dim"), F.fft, lt.tensor(1.5))
      helpers.raises(msg("fft", "dim 2 out of range"), F.fft, lt.ones(3), nil, 2)
      helpers.raises(msg("ifft", "dim 0 out of range"), F.ifft, lt.ones(3), { dim = 0 })
      helpers.raises(msg("fft", "norm must be 'backward', 'ortho' or 'forward', got 'bad'"), F.fft,
        lt.ones(3), nil, nil, "bad")
      helpers.raises(msg("fft", "n given twice"), F.fft, lt.ones(3), 2, { n = 2 })
      helpers.raises(msg("fft", "unknown option 's'"), F.fft, lt.ones(3), { s = { 2 } })
      helpers.raises("fft%.fft: too many arguments", F.fft, lt.ones(3), 2, 1, "ortho", {}, 1)
    end)
  end)

  describe("rfft and irfft", function()
    it("give a real signal's n / 2 + 1 non-negative frequencies", function()
      local X = F.rfft(lt.tensor({ 1, 2, 3, 4 }, "float64"))
      assert.equal("complex128", X.dtype)
      helpers.near({ { 10, 0 }, { -2, 2 }, { -2, 0 } }, X:tolist(), 1e-12)
      assert.same({ 4 }, F.rfft(lt.ones(7), 7).shape)
      close(F.rfft(randn(3, 13, "float64")), F.fft(randn(3, 13, "float64"))[{ {}, { 1, 7 } }])
    end)

    it("refuse complex inputs and take integers as float32", function()
      helpers.raises(msg("rfft", "input: expected a real tensor, got complex64"), F.rfft,
        lt.ones(4, "complex64"))
      assert.equal("complex64", F.rfft(lt.arange(4, "int32")).dtype)
    end)

    it("irfft inverts rfft, n defaulting to 2 (m - 1)", function()
      local x = randn(2, 10, "float64")
      local y = F.irfft(F.rfft(x))
      assert.equal("float64", y.dtype)
      close(y, x)
      local odd = randn(11, "float64")
      close(F.irfft(F.rfft(odd), 11), odd)
      helpers.near({ 1, -0.5, 0, -0.5 }, F.irfft(lt.tensor({ 0, 1, 2 })):tolist(), 1e-6)
      assert.equal("float32", F.irfft(lt.tensor({ 0, 1, 2 })).dtype)
    end)

    it("irfft scales by the norm as ifft does, and rfft as fft", function()
      local x = randn(8, "float64")
      for _, norm in ipairs({ "backward", "ortho", "forward" }) do
        close(F.irfft(F.rfft(x, nil, nil, norm), nil, nil, norm), x)
        close(F.rfft(x, { norm = norm }), F.fft(x, { norm = norm })[{ { 1, 5 } }])
      end
    end)

    it("irfft raises for a single point without n (2 (1 - 1) = 0 points)", function()
      helpers.raises(msg("irfft", "invalid number of data points %(0%)"), F.irfft, lt.ones(1))
      assert.same({ 1 }, F.irfft(lt.ones(1), 1).shape)
    end)
  end)

  describe("hfft and ihfft", function()
    it("hfft transforms a Hermitian signal given by its first half to its real spectrum", function()
      local y = F.hfft(C({ { 1, 0 }, { 2, 1 }, { 3, 2 } }))
      assert.equal("float64", y.dtype)
      helpers.near({ 8, 0, 0, -4 }, y:tolist(), 1e-12)
      helpers.near({ 4, 0, 0, 0 }, F.hfft(lt.ones(3)):tolist(), 1e-6)
      assert.equal("float32", F.hfft(lt.ones(3)).dtype)
    end)

    it("ihfft is the conjugate of rfft over n, and hfft inverts it", function()
      local X = F.ihfft(lt.tensor({ 1, 2, 3, 4 }, "float64"))
      helpers.near({ { 2.5, 0 }, { -0.5, -0.5 }, { -0.5, 0 } }, X:tolist(), 1e-12)
      local x = randn(9, "float64")
      for _, norm in ipairs({ "backward", "ortho", "forward" }) do
        close(F.hfft(F.ihfft(x, nil, nil, norm), 9, nil, norm), x)
      end
      helpers.near({ 1, 0, 0, 0 }, F.hfft(lt.ones(3, "complex128"), { norm = "forward" }):tolist(), 1e-12)
      helpers.raises(msg("ihfft", "input: expected a real tensor"), F.ihfft, lt.ones(3, "complex64"))
    end)
  end)

  describe("fft2, fftn and their inverses", function()
    it("transform over each of the dims", function()
      local x = randn(3, 4, 5, "float64")
      close(F.fft2(x), F.fft(F.fft(x, nil, 2), nil, 3))
      close(F.fftn(x), F.fft(F.fft(F.fft(x, nil, 1), nil, 2), nil, 3))
      close(F.fftn(x, nil, { 1, -1 }), F.fft(F.fft(x, nil, 1), nil, 3))
      close(F.fftn(x, nil, 2), F.fft(x, nil, 2))
      close(F.fft2(x, nil, { 3, 1 }), F.fft(F.fft(x, nil, 1), nil, 3))
      helpers.near({ { { 6, 0 }, { 0, 0 }, { 0, 0 } }, { { 0, 0 }, { 0, 0 }, { 0, 0 } } },
        F.fft2(lt.ones(2, 3, "float64")):tolist(), 1e-12)
    end)

    it("take s: zeros padded or the input trimmed per dim; without dim, the last #s dims", function()
      local x = randn(3, 4, "float64")
      local p = lt.zeros(5, 2, "float64")
      p[{ { 1, 3 }, {} }] = x[{ {}, { 1, 2 } }]
      close(F.fft2(x, { 5, 2 }), F.fft2(p))
      assert.same({ 3, 6 }, F.fftn(x, { 6 }).shape)
      close(F.fftn(x, { 6 }), F.fft(x, 6))
      close(F.fftn(x, { -1, 2 }), F.fft2(x[{ {}, { 1, 2 } }]))
      close(F.ifftn(x, { s = { 3, 4 }, dim = { 1, 2 }, norm = "ortho" }), F.ifft2(x, nil, nil, "ortho"))
    end)

    it("round-trip for every norm", function()
      local x = randn(2, 7, 6, "float64"):to("complex128")
      for _, norm in ipairs({ "backward", "ortho", "forward" }) do
        close(F.ifftn(F.fftn(x, nil, nil, norm), nil, nil, norm), x)
        close(F.ifft2(F.fft2(x, { norm = norm }), { norm = norm }), x)
      end
    end)

    it("fftn with an empty dim list gives the input as complex", function()
      local x = randn(2, 3, "float64")
      close(F.fftn(x, { dim = {} }), x:to("complex128")) -- {} alone is an options table
    end)

    it("raise for a dim given twice, s and dim of different lengths, too few dims", function()
      helpers.raises(msg("fft2", "dim: dim 1 given twice"), F.fft2, lt.ones(3, 3), nil, { 1, -2 })
      helpers.raises(msg("fftn", "s and dim must have the same length"), F.fftn, lt.ones(3, 3),
        { 2 }, { 1, 2 })
      helpers.raises(msg("fft2", "s and dim must have the same length"), F.fft2, lt.ones(3, 3), { 2 })
      helpers.raises(msg("fft2", "dim %-2 out of range"), F.fft2, lt.ones(3))
      helpers.raises(msg("fftn", "s must be at least 1 %(the number of data points%) or %-1, got 0"),
        F.fftn, lt.ones(3, 3), { 0, 2 })
      helpers.raises(msg("ifftn", "s%[2%] must be an integer"), F.ifftn, lt.ones(3, 3), { 2, "x" })
      helpers.raises(msg("fftn", "s: 2 entries for a tensor of 1 dims"), F.fftn, lt.ones(3), { 2, 2 })
      helpers.raises(msg("fftn", "input: expected a tensor of at least 1 dim"), F.fftn, lt.tensor(2))
    end)
  end)

  describe("rfft2, rfftn, irfft2, irfftn", function()
    it("halve the last dim and transform the others completely", function()
      local x = randn(4, 6, "float64")
      close(F.rfft2(x), F.fft2(x)[{ {}, { 1, 4 } }])
      close(F.rfftn(x, nil, { 2, 1 }), F.fft2(x)[{ { 1, 3 }, {} }])
      local y = randn(2, 3, 5, "float64")
      close(F.rfftn(y), F.fftn(y)[{ {}, {}, { 1, 3 } }])
    end)

    it("irfftn inverts rfftn with s, for every norm", function()
      local x = randn(3, 5, "float64")
      for _, norm in ipairs({ "backward", "ortho", "forward" }) do
        close(F.irfftn(F.rfftn(x, nil, nil, norm), { 3, 5 }, nil, norm), x)
        close(F.irfft2(F.rfft2(x, { norm = norm }), { s = { 3, 5 }, norm = norm }), x)
      end
      assert.same({ 3, 4 }, F.irfft2(F.rfft2(x)).shape) -- 2 (3 - 1)
      assert.equal("float64", F.irfftn(F.rfftn(x)).dtype)
    end)

    it("refuse complex inputs (rfftn) and an empty dim list", function()
      helpers.raises(msg("rfft2", "input: expected a real tensor"), F.rfft2, lt.ones(2, 2, "complex128"))
      helpers.raises(msg("rfftn", "dim: expected at least one dim"), F.rfftn, lt.ones(2, 2), { dim = {} })
    end)
  end)

  describe("hfft2, hfftn, ihfft2, ihfftn", function()
    it("hfftn transforms forward over every dim, the last read as a Hermitian half", function()
      local z = randn(3, 4, "float64"):to("complex128") +
          randn(3, 4, "float64"):flip(1):to("complex128") * C({ { 0, 1 } })
      local y = F.hfftn(z)
      close(y, F.hfft(F.fft(z, nil, 1))) -- complete along dim 1, Hermitian along dim 2
      assert.equal("float64", y.dtype)
      assert.same({ 3, 6 }, y.shape)
      local back = F.ihfftn(y)
      assert.same({ 3, 4 }, back.shape)
      close(F.hfft2(F.ihfft2(y)), y) -- a real signal survives the round trip
      close(F.hfftn(z, nil, { -1 }), F.hfft(z))
    end)

    it("ihfftn is the conjugate of rfftn with the norm's direction swapped", function()
      local x = randn(4, 6, "float64")
      local swap = { backward = "forward", ortho = "ortho", forward = "backward" }
      for _, norm in ipairs({ "backward", "ortho", "forward" }) do
        local a, b = F.ihfftn(x, nil, nil, norm):tolist(), F.rfftn(x, nil, nil, swap[norm]):tolist()
        for i = 1, 4 do
          for j = 1, 4 do
            assert.near(b[i][j][1], a[i][j][1], 1e-12)
            assert.near(-b[i][j][2], a[i][j][2], 1e-12)
          end
        end
        close(F.hfftn(F.ihfftn(x, nil, nil, norm), { 4, 6 }, nil, norm), x)
      end
      helpers.raises(msg("ihfft2", "input: expected a real tensor"), F.ihfft2, lt.ones(2, 2, "complex64"))
      helpers.raises(msg("hfftn", "dim: expected at least one dim"), F.hfftn, lt.ones(2, 2), { dim = {} })
    end)
  end)

  describe("fftfreq and rfftfreq", function()
    it("give the sample frequencies {0, 1, ..., -1} / (d n), float32 by default", function()
      local f = F.fftfreq(5)
      assert.equal("float32", f.dtype)
      helpers.near({ 0, 0.2, 0.4, -0.4, -0.2 }, f:tolist(), 1e-6)
      helpers.near({ 0, 0.5, -1, -0.5 }, F.fftfreq(4, 0.5, { dtype = "float64" }):tolist(), 1e-15)
      helpers.near({ 0, 0.2, 0.4 }, F.rfftfreq(5):tolist(), 1e-6)
      helpers.near({ 0, 0.125, 0.25 }, F.rfftfreq(4, 2, { dtype = "float64" }):tolist(), 1e-15)
      assert.same({ 0 }, F.fftfreq(0).shape)
    end)

    it("raise for a negative n and a non-floating dtype", function()
      helpers.raises(msg("fftfreq", "n must be non%-negative, got %-1"), F.fftfreq, -1)
      helpers.raises(msg("rfftfreq", "dtype: expected a floating%-point or complex dtype, got int64"),
        F.rfftfreq, 4, { dtype = "int64" })
      helpers.raises(msg("fftfreq", "d must be a number"), F.fftfreq, 4, "x")
    end)
  end)

  describe("fftshift and ifftshift", function()
    it("roll each dim by half its size, and back", function()
      assert.same({ 3, 4, 0, 1, 2 }, F.fftshift(lt.arange(5)):tolist())
      assert.same({ 2, 3, 4, 0, 1 }, F.ifftshift(lt.arange(5)):tolist())
      assert.same({ { 5, 3, 4 }, { 2, 0, 1 } }, F.fftshift(lt.arange(6):view(2, 3)):tolist())
      assert.same({ { 2, 0, 1 }, { 5, 3, 4 } }, F.fftshift(lt.arange(6):view(2, 3), 2):tolist())
      assert.same({ { 2, 0, 1 }, { 5, 3, 4 } }, F.fftshift(lt.arange(6):view(2, 3), { dim = { -1 } }):tolist())
      local x = randn(5, 6, "float64")
      close(F.ifftshift(F.fftshift(x)), x)
      assert.same({ 0, 3 }, F.fftshift(lt.zeros(0, 3)).shape)
    end)

    it("bring frequency 0 to the middle of fftfreq", function()
      helpers.near({ -0.4, -0.2, 0, 0.2, 0.4 }, F.fftshift(F.fftfreq(5)):tolist(), 1e-6)
    end)

    it("raise for a 0-d input and a bad dim", function()
      helpers.raises(msg("fftshift", "input: expected a tensor of at least 1 dim"), F.fftshift, lt.tensor(3))
      helpers.raises(msg("ifftshift", "dim 3 out of range"), F.ifftshift, lt.ones(2, 2), { 1, 3 })
    end)
  end)
end)

describe("lt.fft under the memory budget", function()
  it("charges a long transform's work buffers and names the function when they do not fit", function()
    local x = lt.randn(1 << 20)
    collectgarbage()
    collectgarbage()
    lt.config{ memory_limit = lt.config().memory_used + 12 * (1 << 20) }
    local ok, err = pcall(lt.fft.rfft, x)
    lt.config{ memory_limit = false }
    assert.is_false(ok)
    assert.truthy(tostring(err):find("fft.rfft: not enough memory", 1, true), err)
    assert.equal(524289, lt.fft.rfft(x).shape[1])
  end)
end)
