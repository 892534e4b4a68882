-- lt.image: PNG and JPEG images read and written as H x W x C tensors (SPEC.md "Images").
-- The PNG inputs are made here by a small writer of every color type, bit depth and Adam7
-- interlacing (stored deflate blocks), so what a decode must give is known exactly; agreement
-- with Pillow on the same files is spec/c/numpy_host_image.h's.
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local helpers = require "helpers"
local fx = require "file_fixtures"

local raises = helpers.raises
teardown(fx.cleanup)

local HAVE_PNG, HAVE_JPEG = lt.config().png ~= nil, lt.config().jpeg ~= nil

-- {====== a PNG writer for the inputs ======

local crc32 = fx.crc32
local function adler32(s)
  local a, b = 1, 0
  for i = 1, #s do
    a = (a + s:byte(i)) % 65521
    b = (b + a) % 65521
  end
  return (b << 16) | a
end
local function chunk(kind, data)
  return (">I4"):pack(#data) .. kind .. data .. (">I4"):pack(crc32(kind .. data))
end
-- A zlib stream of stored (uncompressed) deflate blocks.
local function zstored(raw)
  local out, i = { "\x78\x01" }, 1
  repeat
    local len = math.min(65535, #raw - i + 1)
    out[#out + 1] = string.char(i + len > #raw and 1 or 0) .. ("<I2I2"):pack(len, len ~ 0xFFFF)
      .. raw:sub(i, i + len - 1)
    i = i + len
  until i > #raw
  out[#out + 1] = (">I4"):pack(adler32(raw))
  return table.concat(out)
end
-- One filtered row (filter 0) of samples at depth bits each.
local function pack_row(vals, depth)
  local out = { "\0" }
  if depth >= 8 then
    local f = depth == 16 and ">I2" or "B"
    for _, v in ipairs(vals) do out[#out + 1] = f:pack(v) end
  else
    local acc, n = 0, 0
    for _, v in ipairs(vals) do
      acc, n = (acc << depth) | v, n + depth
      if n == 8 then out[#out + 1], acc, n = string.char(acc), 0, 0 end
    end
    if n > 0 then out[#out + 1] = string.char(acc << (8 - n)) end
  end
  return table.concat(out)
end
local CHANNELS = { [0] = 1, [2] = 3, [3] = 1, [4] = 2, [6] = 4 }
local ADAM7 = { { 0, 0, 8, 8 }, { 0, 4, 8, 8 }, { 4, 0, 8, 4 }, { 0, 2, 4, 4 }, { 2, 0, 4, 2 },
  { 0, 1, 2, 2 }, { 1, 0, 2, 1 } }
-- A PNG of h x w samples s (a flat row-major list, c per pixel for color type ct) at depth;
-- o: {interlace = true, plte = "rgbrgb...", trns = "..."}.
local function png(h, w, ct, depth, s, o)
  o = o or {}
  local c = CHANNELS[ct]
  local function row(y, x0, dx)
    local vals = {}
    for x = x0, w - 1, dx do
      for k = 1, c do vals[#vals + 1] = s[(y * w + x) * c + k] end
    end
    return pack_row(vals, depth)
  end
  local raw = {}
  for _, p in ipairs(o.interlace and ADAM7 or { { 0, 0, 1, 1 } }) do
    if p[2] < w then
      for y = p[1], h - 1, p[3] do raw[#raw + 1] = row(y, p[2], p[4]) end
    end
  end
  local ihdr = (">I4I4BBBBB"):pack(w, h, depth, ct, 0, 0, o.interlace and 1 or 0)
  return "\x89PNG\r\n\x1a\n" .. chunk("IHDR", ihdr) .. (o.plte and chunk("PLTE", o.plte) or "")
    .. (o.trns and chunk("tRNS", o.trns) or "") .. chunk("IDAT", zstored(table.concat(raw)))
    .. chunk("IEND", "")
end
-- A PNG whose header declares h x w pixels of color type ct, with no pixel data.
local function png_declaring(h, w, ct)
  return "\x89PNG\r\n\x1a\n" .. chunk("IHDR", (">I4I4BBBBB"):pack(w, h, 8, ct, 0, 0, 0))
    .. chunk("IDAT", zstored("")) .. chunk("IEND", "")
end
local function random_samples(n, hi)
  local s = {}
  for i = 1, n do s[i] = math.random(0, hi) end
  return s
end
local function flat(t) return t:flatten():tolist() end

-- }======

if HAVE_PNG then
  describe("decoding PNG", function()
    math.randomseed(29)
    local H, W = 5, 7
    it("gives every color type and bit depth as H x W x C, interlaced or not", function()
      for _, case in ipairs({ { 0, 8 }, { 4, 8 }, { 2, 8 }, { 6, 8 }, { 0, 16 }, { 4, 16 },
        { 2, 16 }, { 6, 16 } }) do
        local ct, depth = case[1], case[2]
        local c = CHANNELS[ct]
        local s = random_samples(H * W * c, (1 << depth) - 1)
        for _, interlace in ipairs({ false, true }) do
          local t = lt.image.decode(png(H, W, ct, depth, s, { interlace = interlace }))
          assert.same({ H, W, c }, t.shape)
          assert.equal(depth == 16 and "uint16" or "uint8", t.dtype)
          assert.same(s, flat(t))
        end
      end
    end)
    it("expands gray of 1, 2 and 4 bits to 0..255", function()
      for _, depth in ipairs({ 1, 2, 4 }) do
        local hi = (1 << depth) - 1
        local s = random_samples(H * W, hi)
        local want = {}
        for i, v in ipairs(s) do want[i] = v * 255 // hi end
        assert.same(want, flat(lt.image.decode(png(H, W, 0, depth, s))))
        assert.same(want, flat(lt.image.decode(png(H, W, 0, depth, s, { interlace = true }))))
      end
    end)
    it("expands a palette to rgb, and to rgba where it has transparency", function()
      local plte = "\10\20\30\200\100\0\255\255\255\0\0\0"
      local idx = random_samples(H * W, 3)
      local rgb, rgba = {}, {}
      for _, i in ipairs(idx) do
        for k = 1, 3 do rgb[#rgb + 1] = plte:byte(i * 3 + k) end
        for k = 1, 3 do rgba[#rgba + 1] = plte:byte(i * 3 + k) end
        rgba[#rgba + 1] = ({ 0, 128, 255, 255 })[i + 1] -- tRNS lists 3: the fourth is opaque
      end
      assert.same(rgb, flat(lt.image.decode(png(H, W, 3, 8, idx, { plte = plte }))))
      local t = lt.image.decode(png(H, W, 3, 8, idx, { plte = plte, trns = "\0\128\255" }))
      assert.same({ H, W, 4 }, t.shape)
      assert.same(rgba, flat(t))
    end)
    it("converts channels with mode: gray, rgb and rgba", function()
      local s = random_samples(H * W * 3, 255)
      local bytes = png(H, W, 2, 8, s)
      local rgba = lt.image.decode(bytes, { mode = "rgba" })
      assert.same({ H, W, 4 }, rgba.shape)
      assert.same(s, flat(rgba[{ {}, {}, { 1, 3 } }]))
      assert.same({ 255 }, flat(rgba[{ {}, {}, 4 }]:unique()))
      local gray = flat(lt.image.decode(bytes, { mode = "gray" }))
      for i = 1, H * W do -- ITU-R 601 luma, as Pillow's "L" and libjpeg's gray
        local want = 0.299 * s[3 * i - 2] + 0.587 * s[3 * i - 1] + 0.114 * s[3 * i]
        assert.is_true(math.abs(gray[i] - want) <= 1,
          ("pixel %d: %d vs %g"):format(i, gray[i], want))
      end
      local g = random_samples(H * W * 2, 255) -- gray + alpha
      local ga = png(H, W, 4, 8, g)
      local rgb = lt.image.decode(ga, { mode = "rgb" })
      assert.same({ H, W, 3 }, rgb.shape)
      for i = 1, H * W do
        assert.same({ g[2 * i - 1], g[2 * i - 1], g[2 * i - 1] },
          flat(rgb:reshape(-1, 3)[i]))
      end
      assert.same(lt.image.decode(ga)[{ {}, {}, 1 }]:tolist(),
        lt.image.decode(ga, { mode = "gray" })[{ {}, {}, 1 }]:tolist())
      local same = {} -- r = g = b gives that value exactly
      for i = 1, H * W do
        local v = math.random(0, 255)
        same[3 * i - 2], same[3 * i - 1], same[3 * i] = v, v, v
      end
      local gs = flat(lt.image.decode(png(H, W, 2, 8, same), { mode = "gray" }))
      for i = 1, H * W do assert.equal(same[3 * i], gs[i]) end
    end)
    it("keeps 16 bits in every mode, adding an opaque alpha of 65535", function()
      local s = random_samples(H * W, 65535)
      local t = lt.image.decode(png(H, W, 0, 16, s), { mode = "rgba" })
      assert.equal("uint16", t.dtype)
      assert.same({ 65535 }, flat(t[{ {}, {}, 4 }]:unique()))
      assert.same(s, flat(t[{ {}, {}, 2 }]))
    end)
  end)

  describe("encoding PNG", function()
    it("round-trips uint8 and uint16 with 1 to 4 channels, and H x W as one channel", function()
      lt.manual_seed(1)
      for _, dt in ipairs({ "uint8", "uint16" }) do
        local hi = dt == "uint8" and 256 or 65536
        for c = 1, 4 do
          local t = lt.randint(0, hi, { 9, 13, c }, { dtype = dt })
          local back = lt.image.decode(lt.image.encode(t, "png"))
          assert.equal(dt, back.dtype)
          assert.is_true(lt.equal(t, back))
        end
        local t = lt.randint(0, hi, { 4, 6 }, { dtype = dt })
        assert.is_true(lt.equal(t:unsqueeze(3), lt.image.decode(lt.image.encode(t, "png"))))
      end
    end)
    it("takes any layout: transposed and strided views, read-only imports", function()
      local t = lt.randint(0, 256, { 10, 8, 3 }, { dtype = "uint8" })
      local v = t:permute(2, 1, 3) -- 8 x 10 x 3, not contiguous
      assert.is_true(lt.equal(v, lt.image.decode(lt.image.encode(v, "png"))))
      local s = t[{ { 1, -1, 2 }, {}, { 1, 3, 2 } }] -- every other row, channels 1 and 3
      assert.is_true(lt.equal(s, lt.image.decode(lt.image.encode(s, "png"))))
      local ro = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(t))
      assert.is_true(lt.equal(t, lt.image.decode(lt.image.encode(ro, "png"))))
    end)
    it("scales floating-point tensors from [0, 1], rounding, clamping, NaN to 0", function()
      for _, dt in ipairs({ "float32", "float64", "float16", "bfloat16" }) do
        local t = lt.tensor({ { 0, 0.5, 1, 1.5 }, { -1, 0 / 0, 0.2, 0.999 } }, dt)
        local back = lt.image.decode(lt.image.encode(t, "png"))
        assert.equal("uint8", back.dtype)
        local want = { 0, 128, 255, 255, 0, 0, 51, 255 }
        assert.same(want, flat(back))
      end
    end)
    it("picks the zlib level with compression (6 by default)", function()
      local t = lt.arange(64 * 64 * 3):remainder(251):to("uint8"):reshape(64, 64, 3)
      local none = lt.image.encode(t, "png", { compression = 0 })
      local best = lt.image.encode(t, "png", { compression = 9 })
      assert.is_true(#none > 64 * 64 * 3 and #best < #none)
      assert.equal(lt.image.encode(t, "png"), lt.image.encode(t, "png", { compression = 6 }))
      assert.is_true(lt.equal(t, lt.image.decode(none)) and lt.equal(t, lt.image.decode(best)))
    end)
    it("refuses what PNG cannot hold, naming the function and the argument", function()
      raises("image.encode: bytes: PNG takes 1, 2, 3 or 4 channels, got 5",
        lt.image.encode, lt.zeros({ 2, 2, 5 }, "uint8"), "png")
      raises("image.encode: bytes: PNG takes uint8, uint16 or floating%-point tensors, got int64",
        lt.image.encode, lt.zeros({ 2, 2 }, "int64"), "png")
      raises("image.encode: bytes: cannot encode an empty image %(0 x 3%)", lt.image.encode,
        lt.zeros({ 0, 3 }, "uint8"), "png")
      raises("image.encode: bytes: expected an H x W or H x W x C tensor, got 4 dims",
        lt.image.encode, lt.zeros({ 1, 2, 2, 3 }, "uint8"), "png")
      raises("image.encode: bytes: expected an H x W or H x W x C tensor, got 1 dims",
        lt.image.encode, lt.zeros({ 3 }, "uint8"), "png")
      raises("image.encode: bytes: expected an H x W or H x W x C tensor, got 0 dims",
        lt.image.encode, lt.tensor(7, "uint8"), "png")
      raises("image.encode: bytes: image of 2147483648 x 1 is too large for PNG %(at most "
        .. "2147483647%)",
        lt.image.encode, lt.zeros({ 1, 1 }, "uint8"):expand(1 << 31, 1), "png")
      raises("image.encode: compression must be 0 to 9, got 10", lt.image.encode,
        lt.zeros({ 2, 2 }, "uint8"), "png", { compression = 10 })
      raises("image.encode: quality is for JPEG", lt.image.encode, lt.zeros({ 2, 2 }, "uint8"),
        "png", { quality = 50 })
      raises("image.encode: format must be 'png' or 'jpeg', got gif", lt.image.encode,
        lt.zeros({ 2, 2 }, "uint8"), "gif")
      raises("image.encode: unknown option 'level'", lt.image.encode,
        lt.zeros({ 2, 2 }, "uint8"), "png", { level = 3 })
    end)
  end)

  describe("reading and writing PNG files", function()
    it("writes by extension (any case) and reads by signature", function()
      local t = lt.randint(0, 256, { 6, 5, 4 }, { dtype = "uint8" })
      for _, ext in ipairs({ ".png", ".PNG" }) do
        local path = fx.tmp(ext)
        lt.image.write(path, t)
        assert.is_true(lt.equal(t, lt.image.read(path)))
        assert.equal("\x89PNG", fx.read(path):sub(1, 4))
      end
      local path = fx.tmp(".jpg") -- a PNG under a JPEG name still reads
      fx.write(path, lt.image.encode(t, "png"))
      assert.is_true(lt.equal(t, lt.image.read(path)))
      assert.same({ 6, 5, 3 }, lt.image.read(path, { mode = "rgb" }).shape)
    end)
    it("raises naming a file that is missing, not an image, or of an unknown extension", function()
      local missing = fx.tmp(".png")
      raises("image.read: " .. fx.lit(missing) .. ": cannot open %(No such file",
        lt.image.read, missing)
      local text = fx.tmp(".png")
      fx.write(text, "hello, not an image")
      raises("image.read: " .. fx.lit(text) .. ": not a PNG or JPEG image", lt.image.read, text)
      raises("image.write: x%.bmp: unknown image extension '%.bmp' %(expected %.png, %.jpg or "
        .. "%.jpeg%)",
        lt.image.write, "x.bmp", lt.zeros({ 2, 2 }, "uint8"))
      raises("image.write: noext: unknown image extension ''", lt.image.write, "noext",
        lt.zeros({ 2, 2 }, "uint8"))
      raises("image.decode: bytes: empty, not an image", lt.image.decode, "")
      raises("image.read: mode must be 'unchanged', 'gray', 'rgb' or 'rgba', got 'cmyk'",
        lt.image.read, text, { mode = "cmyk" })
      raises("image.read: too many arguments", lt.image.read, text, "rgb", {})
    end)
  end)

  describe("a corrupt, truncated or lying PNG", function()
    local good = png(4, 4, 2, 8, random_samples(48, 255))
    it("raises naming the input and the problem, for every cut of the file", function()
      for n = 1, #good - 1 do
        local ok, msg = pcall(lt.image.decode, good:sub(1, n))
        assert.is_false(ok)
        assert.truthy(msg:find("image.decode: bytes: ", 1, true), msg)
        assert.truthy(msg:find("truncated PNG") or msg:find("corrupt PNG") or
          msg:find("not a PNG or JPEG"), msg)
      end
      raises("image.decode: bytes: truncated PNG %(unexpected end of data%)", lt.image.decode,
        good:sub(1, #good - 20))
    end)
    local function flip(s, i)
      return s:sub(1, i - 1) .. string.char(s:byte(i) ~ 0xff) .. s:sub(i + 1)
    end
    it("raises on a damaged CRC or damaged data", function()
      local bad = flip(good, #good - 12) -- the last byte of IDAT's CRC (IEND is 12 bytes)
      raises("image.decode: bytes: corrupt PNG %(IDAT: CRC error%)", lt.image.decode, bad)
      raises("image.decode: bytes: corrupt PNG %(IDAT: invalid block type%)", lt.image.decode,
        flip(good, good:find("IDAT", 1, true) + 6))
      local path = fx.tmp(".png")
      fx.write(path, bad)
      raises("image.read: " .. fx.lit(path) .. ": corrupt PNG", lt.image.read, path)
    end)
    it("refuses declared sizes the data cannot hold before allocating them", function()
      local used = lt.config().memory_used
      raises("image.decode: bytes: truncated PNG %(60000 x 60000 pixels declared in %d+ bytes%)",
        lt.image.decode, png_declaring(60000, 60000, 6))
      assert.is_true(lt.config().memory_used - used < 1 << 20)
      raises("image.decode: bytes: image of 1 x 70000 is larger than ltensor reads %(65535%)",
        lt.image.decode, png_declaring(1, 70000, 0))
    end)
    it("counts the image against the memory budget, refusing one that would pass it", function()
      local t = lt.zeros({ 300, 300, 4 }, "uint8")
      local bytes = lt.image.encode(t, "png", { compression = 9 })
      collectgarbage()
      lt.config { memory_limit = lt.config().memory_used + 100000 }
      local ok, msg = pcall(lt.image.decode, bytes)
      lt.config { memory_limit = false }
      assert.is_false(ok)
      assert.truthy(msg:find("image.decode: bytes: not enough memory", 1, true), msg)
      assert.is_true(lt.equal(t, lt.image.decode(bytes)))
    end)
  end)
end

if HAVE_JPEG then
  describe("JPEG", function()
    -- a smooth picture: what JPEG keeps well
    local y = lt.arange(48):reshape(48, 1):expand(48, 64)
    local x = lt.arange(64):reshape(1, 64):expand(48, 64)
    local pic = lt.stack({ x * 3, y * 4, (x + y) * 2 }, 3):to("uint8")
    local function mean_error(a, b) return (a:to("float64") - b:to("float64")):abs():mean() end
    it("round-trips rgb and gray within a small error at quality 90", function()
      local back = lt.image.decode(lt.image.encode(pic, "jpeg"))
      assert.same({ 48, 64, 3 }, back.shape)
      assert.equal("uint8", back.dtype)
      assert.is_true(mean_error(pic, back) < 2)
      local g = pic[{ {}, {}, { 1, 1 } }]
      local gb = lt.image.decode(lt.image.encode(g, "jpg"))
      assert.same({ 48, 64, 1 }, gb.shape)
      assert.is_true(mean_error(g, gb) < 1)
    end)
    it("trades size for error with quality", function()
      local lo, hi = lt.image.encode(pic, "jpeg", { quality = 10 }),
        lt.image.encode(pic, "jpeg", { quality = 100 })
      assert.is_true(#lo < #hi)
      assert.is_true(mean_error(pic, lt.image.decode(hi)) < mean_error(pic, lt.image.decode(lo)))
    end)
    it("decodes to gray, rgb and rgba by mode", function()
      local bytes = lt.image.encode(pic, "jpeg")
      local rgb = lt.image.decode(bytes)
      local rgba = lt.image.decode(bytes, { mode = "rgba" })
      assert.is_true(lt.equal(rgb, rgba[{ {}, {}, { 1, 3 } }]))
      assert.same({ 255 }, flat(rgba[{ {}, {}, 4 }]:unique()))
      local gray = lt.image.decode(bytes, { mode = "gray" })
      local luma = (rgb:to("float64") * lt.tensor({ 0.299, 0.587, 0.114 }, "float64")):sum(3, true)
      assert.is_true(mean_error(luma, gray) < 2)
      local path = fx.tmp(".JPEG")
      lt.image.write(path, pic:permute(2, 1, 3), { quality = 95 })
      assert.same({ 64, 48, 3 }, lt.image.read(path).shape)
      assert.equal("\xff\xd8\xff", fx.read(path):sub(1, 3))
    end)
    it("takes floats in [0, 1] and refuses uint16 and other channel counts", function()
      local f = pic:to("float32") / 255
      assert.is_true(mean_error(pic, lt.image.decode(lt.image.encode(f, "jpeg"))) < 2)
      raises("image.encode: bytes: JPEG takes uint8 or floating%-point tensors, got uint16",
        lt.image.encode, lt.zeros({ 2, 2 }, "uint16"), "jpeg")
      raises("image.encode: bytes: image of 70000 x 2 is too large for JPEG %(at most 65500%)",
        lt.image.encode, lt.zeros({ 1, 1, 3 }, "uint8"):expand(70000, 2, 3), "jpeg")
      raises("image.encode: bytes: JPEG takes 1 or 3 channels, got 4", lt.image.encode,
        lt.zeros({ 2, 2, 4 }, "uint8"), "jpeg")
      raises("image.write: quality must be 1 to 100, got 0", lt.image.write, "x.jpg", pic,
        { quality = 0 })
      raises("image.write: compression is for PNG", lt.image.write, "x.jpg", pic,
        { compression = 3 })
      raises("image.encode: quality must be an integer, got 2.5", lt.image.encode, pic, "jpeg",
        { quality = 2.5 })
    end)
    it("gives a CMYK file's four channels unchanged, and refuses converting them", function()
      local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "spec/"
      local cmyk = fx.read(here .. "fuzz/corpus/fuzz_jpeg/cmyk") -- Pillow's, 12 x 16
      assert.same({ 12, 16, 4 }, lt.image.decode(cmyk).shape)
      raises("image.decode: bytes: a CMYK JPEG reads only with mode 'unchanged'",
        lt.image.decode, cmyk, { mode = "rgb" })
    end)
    it("raises on a truncated or corrupt file, naming it", function()
      local bytes = lt.image.encode(pic, "jpeg")
      raises("image.decode: bytes: truncated JPEG", lt.image.decode, bytes:sub(1, #bytes // 2))
      for n = 3, #bytes - 1, 37 do
        local ok, msg = pcall(lt.image.decode, bytes:sub(1, n))
        assert.is_false(ok)
        assert.truthy(msg:find("image.decode: bytes: truncated JPEG") or
          msg:find("image.decode: bytes: corrupt JPEG"), msg)
      end
      local i = bytes:find("\xff\xc0", 1, true) -- SOF0: a zero height
      local bad = bytes:sub(1, i + 4) .. "\0\0" .. bytes:sub(i + 7)
      raises("image.decode: bytes: corrupt JPEG %(.*%)", lt.image.decode, bad)
      local sof = bytes:sub(1, i + 4) .. "\xff\xd0\xff\xd0" .. bytes:sub(i + 9) -- 65488 x 65488
      raises("image.decode: bytes: truncated JPEG %(65488 x 65488 pixels declared in %d+ bytes%)",
        lt.image.decode, sof)
      local path = fx.tmp(".jpg")
      fx.write(path, bytes:sub(1, 300))
      raises("image.read: " .. fx.lit(path) .. ": truncated JPEG", lt.image.read, path)
    end)
  end)
end

describe("lt.config", function()
  it("names the PNG and JPEG libraries, or nil where ltensor was built without them", function()
    local c = lt.config()
    assert.is_true(c.png == nil or type(c.png) == "string")
    assert.is_true(c.jpeg == nil or c.jpeg:find("jpeg") ~= nil)
  end)
end)

if not HAVE_PNG or not HAVE_JPEG then
  describe("a build without the image libraries", function()
    it("keeps the functions, which raise saying what is missing", function()
      local t = lt.zeros({ 2, 2 }, "uint8")
      if not HAVE_PNG then
        raises("image.encode: ltensor was built without PNG support", lt.image.encode, t, "png")
        raises("image.write: ltensor was built without PNG support", lt.image.write,
          fx.tmp(".png"), t)
        raises("image.decode: ltensor was built without PNG support", lt.image.decode,
          "\x89PNG\r\n\x1a\n....")
      end
      if not HAVE_JPEG then
        raises("image.encode: ltensor was built without JPEG support", lt.image.encode, t, "jpeg")
        raises("image.decode: ltensor was built without JPEG support", lt.image.decode,
          "\xff\xd8\xff\xe0")
      end
    end)
  end)
end
