/*
 * numpy_host_image.h -- a section of numpy_host.c: lt.image against Pillow (python3-pil) on the
 * same bytes. Included once, by numpy_host.c only; main() calls test_image_np(). Skipped, with
 * the reason printed, where `import PIL` fails or ltensor was built without PNG or JPEG.
 *
 * PNG, exactly: Pillow writes gray, gray + alpha, rgb, rgba, palette (with and without
 * transparency), 1-bit and 16-bit gray files of a realistic picture (gradients plus noise), and
 * a writer here in Python makes Adam7-interlaced and 16-bit rgb ones; lt.image.decode of the
 * bytes equals Pillow's decode (converted as the mode asks: a palette to RGB / RGBA, 1-bit to
 * 0 / 255; gray from rgb within 1 of Pillow's "L"). The other way, every PNG lt.image.encode
 * makes (1 to 4 channels, uint8, uint16 gray, strided views) decodes in Pillow to the tensor's
 * pixels. JPEG: Pillow's files (4:2:0 and 4:4:4, progressive, gray) decoded by ltensor agree
 * with Pillow's decode within a mean absolute error of 0.5 (both use libjpeg-turbo: in
 * practice exact), and ltensor's JPEG decodes in Pillow as close to the source as Pillow's own
 * JPEG of the same quality (mean absolute error within 0.25 of it), and a smooth picture's
 * within 1.5.
 */

static const char py_image[] =
    "import io, zlib, struct\n"
    "from PIL import Image\n"
    "def picture(h, w, c, seed, hi=255):  # gradients plus noise\n"
    "    r = np.random.default_rng(seed)\n"
    "    y, x = np.mgrid[0:h, 0:w]\n"
    "    base = np.stack([(x * 7 + y * 3 + k * 40) % (hi + 1) for k in range(c)], -1)\n"
    "    return np.clip(base + r.integers(-9, 10, base.shape), 0, hi)\n"
    "def pil_bytes(im, fmt, **kw):\n"
    "    b = io.BytesIO(); im.save(b, fmt, **kw); return b.getvalue()\n"
    "def pil_dec(data, mode=None):\n"
    "    im = Image.open(io.BytesIO(data)); im.load()\n"
    "    a = np.asarray(im.convert(mode) if mode else im)\n"
    "    return a.reshape(a.shape[0], a.shape[1], -1)\n"
    "def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', "
    "zlib.crc32(t + d))\n"
    "def png_raw(a, ct, depth, interlace):  # a: h x w x c samples\n"
    "    h, w, c = a.shape\n"
    "    dt = '>u2' if depth == 16 else 'u1'\n"
    "    passes = [(0,0,8,8),(0,4,8,8),(4,0,8,4),(0,2,4,4),(2,0,4,2),(0,1,2,2),(1,0,2,1)] "
    "if interlace else [(0,0,1,1)]\n"
    "    raw = b''\n"
    "    for y0, x0, dy, dx in passes:\n"
    "        sub = a[y0::dy, x0::dx]\n"
    "        if sub.size: raw += b''.join(b'\\0' + r.astype(dt).tobytes() for r in sub)\n"
    "    ihdr = struct.pack('>IIBBBBB', w, h, depth, ct, 0, 0, int(interlace))\n"
    "    return (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', "
    "zlib.compress(raw)) + chunk(b'IEND', b''))\n";

/* Lua decodes the Python bytes B with mode (NULL: unchanged) into lt_px, shared with NumPy. */
static int lua_decoded(const char *mode) {
  if (!py_to_lua("B", "B")) return 0;
  if (!lua_ok("T = lt.image.decode(B%s%s%s)", mode ? ", {mode = '" : "", mode ? mode : "",
              mode ? "'}" : ""))
    return 0;
  return lua_to_np("lt_px", "T");
}

/* Pillow writes the file pil_bytes(<args><more>), ltensor decodes it with mode
   (NULL: unchanged), Pillow with convert(pil_mode) (NULL: none): the shapes agree, and the
   condition on lt_px and want holds. */
static void agree_with_pillow(const char *args, const char *more, const char *mode,
                              const char *pil_mode, const char *cond) {
  CHECK(py_ok("B = pil_bytes(%s%s)", args, more));
  CHECK(lua_decoded(mode));
  CHECK(py_ok("want = pil_dec(B%s%s%s)", pil_mode ? ", '" : "", pil_mode ? pil_mode : "",
              pil_mode ? "'" : ""));
  CHECK(py_true("lt_px.dtype == np.uint8 and lt_px.shape == want.shape"));
  CHECK(py_true("%s", cond));
}

/* Pillow's files, decoded by both. */
static void image_png_from_pillow(void) {
  static const char *const cases[][3] = {
      /* what Pillow writes, the mode ltensor reads with, what Pillow converts to */
      {"Image.fromarray(picture(37, 53, 1, 1)[..., 0].astype(np.uint8), 'L')", NULL, NULL},
      {"Image.fromarray(picture(37, 53, 2, 2).astype(np.uint8), 'LA')", NULL, NULL},
      {"Image.fromarray(picture(37, 53, 3, 3).astype(np.uint8), 'RGB')", NULL, NULL},
      {"Image.fromarray(picture(37, 53, 4, 4).astype(np.uint8), 'RGBA')", NULL, NULL},
      {"Image.fromarray(picture(37, 53, 3, 5).astype(np.uint8)).quantize(40)", NULL, "RGB"},
      {"Image.fromarray(picture(37, 53, 4, 6).astype(np.uint8)).quantize(40, method=2)", NULL,
       "RGBA"},
      {"Image.fromarray(picture(37, 53, 1, 7)[..., 0].astype(np.uint8) > 128)", NULL, "L"},
      {"Image.fromarray(picture(37, 53, 1, 8)[..., 0].astype(np.uint8), 'L')", "rgb", "RGB"},
      {"Image.fromarray(picture(37, 53, 3, 9).astype(np.uint8), 'RGB')", "rgba", "RGBA"},
      {"Image.fromarray(picture(37, 53, 4, 10).astype(np.uint8), 'RGBA')", "rgb", "RGB"},
      {"Image.fromarray(picture(37, 53, 2, 11).astype(np.uint8), 'LA')", "gray", "L"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    set_context("png from Pillow: %s, mode %s", cases[i][0], cases[i][1] ? cases[i][1] : "-");
    agree_with_pillow(cases[i][0], ", 'PNG'", cases[i][1], cases[i][2],
                      "np.array_equal(lt_px, want)");
  }
  set_context("png from Pillow: rgb as gray within 1 of Pillow's L");
  CHECK(py_ok("B = pil_bytes(Image.fromarray(picture(37, 53, 3, 12).astype(np.uint8)), 'PNG')"));
  CHECK(lua_decoded("gray"));
  CHECK(py_true("np.abs(lt_px.astype(int) - pil_dec(B, 'L')).max() <= 1"));
  set_context("png from Pillow: 16-bit gray");
  CHECK(
      py_ok("src = picture(37, 53, 1, 13, 65535)[..., 0].astype(np.uint16)\n"
            "B = pil_bytes(Image.fromarray(src, 'I;16'), 'PNG')"));
  CHECK(lua_decoded(NULL));
  CHECK(py_true("lt_px.dtype == np.uint16 and np.array_equal(lt_px[..., 0], src)"));
  CHECK(py_true("np.array_equal(lt_px[..., 0], np.asarray(Image.open(io.BytesIO(B))))"));
}

/* Interlaced and 16-bit rgb files from the writer here (Pillow writes neither). */
static void image_png_written_here(void) {
  static const char *const cases[][2] = {
      {"picture(29, 31, 3, 20)", "2, 8"},         {"picture(29, 31, 4, 21)", "6, 8"},
      {"picture(29, 31, 1, 22)", "0, 8"},         {"picture(29, 31, 2, 23)", "4, 8"},
      {"picture(29, 31, 3, 24, 65535)", "2, 16"}, {"picture(3, 2, 3, 25)", "2, 8"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int il = 0; il <= 1; il++) {
      set_context("png written here: %s, type and depth %s, interlaced %d", cases[i][0],
                  cases[i][1], il);
      CHECK(py_ok("src = %s\nB = png_raw(src, %s, %d)", cases[i][0], cases[i][1], il));
      CHECK(lua_decoded(NULL));
      CHECK(py_true("np.array_equal(lt_px, src)"));
      if (strstr(cases[i][1], ", 8")) /* Pillow reads 16-bit rgb as 8-bit */
        CHECK(py_true("np.array_equal(lt_px, pil_dec(B))"));
    }
  }
}

/* ltensor's PNG, decoded by Pillow. */
static void image_png_to_pillow(void) {
  static const char *const cases[] = {
      "lt.randint(0, 256, {23, 41, 1}, {dtype = 'uint8'})",
      "lt.randint(0, 256, {23, 41, 2}, {dtype = 'uint8'})",
      "lt.randint(0, 256, {23, 41, 3}, {dtype = 'uint8'})",
      "lt.randint(0, 256, {23, 41, 4}, {dtype = 'uint8'})",
      "lt.randint(0, 256, {41, 23, 4}, {dtype = 'uint8'}):transpose(1, 2)",
      "lt.randint(0, 256, {23, 41}, {dtype = 'uint8'})",
      "lt.randint(0, 65536, {23, 41}, {dtype = 'uint16'})",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    set_context("png to Pillow: %s", cases[i]);
    CHECK(lua_ok("S = %s; E = lt.image.encode(S, 'png')", cases[i]));
    CHECK(lua_to_np("src", "S") && lua_to_py("B", "E"));
    CHECK(py_ok("got = np.asarray(Image.open(io.BytesIO(B)))"));
    CHECK(py_true("np.array_equal(got.reshape(src.shape), src)"));
  }
}

/* JPEG both ways. */
static void image_jpeg(void) {
  static const char *const from_pillow[] = {
      "Image.fromarray(picture(64, 96, 3, 30).astype(np.uint8)), 'JPEG', quality=90",
      "Image.fromarray(picture(61, 93, 3, 31).astype(np.uint8)), 'JPEG', quality=75, "
      "subsampling=0",
      "Image.fromarray(picture(64, 96, 3, 32).astype(np.uint8)), 'JPEG', progressive=True",
      "Image.fromarray(picture(64, 96, 1, 33)[..., 0].astype(np.uint8)), 'JPEG'",
  };
  for (size_t i = 0; i < sizeof from_pillow / sizeof from_pillow[0]; i++) {
    set_context("jpeg from Pillow: %s", from_pillow[i]);
    agree_with_pillow(from_pillow[i], "", NULL, NULL,
                      "np.abs(lt_px.astype(float) - want).mean() <= 0.5");
  }
  /* the error of Pillow's own encode at the same quality is the yardstick */
  set_context("jpeg to Pillow");
  CHECK(
      py_ok("src = picture(64, 96, 3, 34).astype(np.uint8)\n"
            "def err(data): return np.abs(pil_dec(data).astype(float) - src).mean()\n"
            "pil_err = err(pil_bytes(Image.fromarray(src), 'JPEG', quality=90))"));
  CHECK(np_to_lua("S", "src"));
  CHECK(lua_ok("E = lt.image.encode(S, 'jpeg')") && lua_to_py("B", "E"));
  CHECK(py_true("err(B) <= pil_err + 0.25"));
  CHECK(lua_ok("E = lt.image.encode(S:to('float32') / 255, 'jpeg', {quality = 90})"));
  CHECK(lua_to_py("B", "E") && py_true("err(B) <= pil_err + 0.25"));
  set_context("jpeg to Pillow: a smooth picture");
  CHECK(
      py_ok("y, x = np.mgrid[0:64, 0:96]\n"
            "src = np.stack([x * 2, y * 3, x + y], -1).astype(np.uint8)"));
  CHECK(np_to_lua("S", "src"));
  CHECK(lua_ok("E = lt.image.encode(S, 'jpeg')") && lua_to_py("B", "E"));
  CHECK(py_true("err(B) < 1.5"));
}

static void test_image_np(void) {
  section("lt.image against Pillow");
  if (!py_flag("__import__('importlib').util.find_spec('PIL') is not None")) {
    printf(
        "numpy_host: lt.image against Pillow skipped: cannot import PIL "
        "(apt-get install python3-pil)\n");
    return;
  }
  if (!lua_true("lt.config().png ~= nil and lt.config().jpeg ~= nil")) {
    printf(
        "numpy_host: lt.image against Pillow skipped: ltensor was built without PNG or "
        "JPEG support\n");
    return;
  }
  CHECK(py_ok("%s", py_image));
  image_png_from_pillow();
  image_png_written_here();
  image_png_to_pillow();
  image_jpeg();
  CHECK(lua_ok("S, T, E, B = nil, nil, nil, nil"));
  CHECK(py_ok("del B, src, lt_px"));
  lua_gc_full();
}
