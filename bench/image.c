/*
 * image.c -- bench_image: lt.image against Pillow in the same process.
 *
 *   png decode   lt.image.decode of a 2048 x 2048 RGBA PNG against Pillow's
 *                Image.open(...).load() of the same bytes (goal >= 1.0x)
 *   png encode   lt.image.encode(t, "png") of that image against Pillow's im.save(..., "PNG"),
 *                both at their default compression (zlib level 6; goal >= 1.0x); the two files'
 *                sizes are printed, to show the defaults are comparable
 *   jpeg         decode and encode of the same picture as RGB JPEG, quality 90 on both sides,
 *                for information
 *
 * The picture: smooth gradients plus noise (frac(sin(12.9898 k) * 43758.5453) scaled to -8..7),
 * made by NumPy and written by Pillow as the PNG both sides decode (its path handed to Lua in
 * the environment variable LTENSOR_BENCH_IMAGE); ltensor encodes the tensor it decoded, Pillow
 * the image it decoded. The codecs run on one thread in both libraries (the rows run at 1 thread
 * and at ltensor's default count all the same, as every bench_rows bench does). Ratio = Pillow's
 * time / ours.
 *
 * Usage: bench_image
 * Env:   LTENSOR_BENCH_QUICK=1   fewer rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, Pillow, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ltensor.h"

#define SIDE 2048

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local SIDE = ...\n"
    "local f = assert(io.open(os.getenv('LTENSOR_BENCH_IMAGE'), 'rb'))\n"
    "local png = f:read('a'); f:close()\n"
    "local pic = lt.image.decode(png)\n"
    "local jpg = lt.image.encode(pic[{{}, {}, {1, 3}}]:contiguous(), 'jpeg')\n"
    "local rgb = lt.image.decode(jpg)\n"
    "local B = {}\n"
    "function B.png_decode(n) for _ = 1, n do local t <close> = lt.image.decode(png) end end\n"
    "function B.png_encode(n) for _ = 1, n do local s = lt.image.encode(pic, 'png') end end\n"
    "function B.jpeg_decode(n) for _ = 1, n do local t <close> = lt.image.decode(jpg) end end\n"
    "function B.jpeg_encode(n) for _ = 1, n do local s = lt.image.encode(rgb, 'jpeg') end end\n"
    "function B.check()\n"
    "  assert(pic.shape[1] == SIDE and pic.shape[2] == SIDE and pic.shape[3] == 4, 'shape')\n"
    "  local ours = lt.image.encode(pic, 'png')\n"
    "  assert(lt.equal(lt.image.decode(ours), pic), 'png round trip')\n"
    "  print(('png sizes: ltensor %d bytes, Pillow %s bytes (raw %d)'):format(#ours,\n"
    "        os.getenv('LTENSOR_BENCH_PIL_SIZE'), SIDE * SIDE * 4))\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np; SIDE is set */
    "import io, os, tempfile\n"
    "from PIL import Image\n"
    "y, x = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)\n"
    "k = np.arange(SIDE * SIDE * 4, dtype=np.float64).reshape(SIDE, SIDE, 4)\n"
    "noise = np.floor((np.sin(k * 12.9898) * 43758.5453 % 1) * 16) - 8\n"
    "base = np.stack([x / 8, y / 8, (x + y) / 16, 255 - x / 16], -1)\n"
    "A = np.clip(base + noise, 0, 255).astype(np.uint8)\n"
    "b = io.BytesIO(); Image.fromarray(A, 'RGBA').save(b, 'PNG'); B = b.getvalue()\n"
    "path = os.path.join(tempfile.mkdtemp(prefix='ltensor-bench-'), 'picture.png')\n"
    "open(path, 'wb').write(B)\n"
    "os.environ['LTENSOR_BENCH_IMAGE'] = path\n"
    "os.environ['LTENSOR_BENCH_PIL_SIZE'] = str(len(B))\n"
    "IM = Image.open(io.BytesIO(B)); IM.load()\n"
    "b = io.BytesIO(); IM.convert('RGB').save(b, 'JPEG', quality=90); J = b.getvalue()\n"
    "RGB = Image.open(io.BytesIO(J)); RGB.load()\n"
    "def pil_decode(data): im = Image.open(io.BytesIO(data)); im.load()\n"
    "def pil_encode(im, fmt, **kw): b = io.BytesIO(); im.save(b, fmt, **kw)\n";

static const bench_row rows[] = {
    {"png decode 2048x2048 rgba vs Pillow", "png_decode", "pil_decode(B)", 1.0},
    {"png encode 2048x2048 rgba vs Pillow", "png_encode", "pil_encode(IM, 'PNG')", 1.0},
    {"jpeg decode 2048x2048 rgb vs Pillow", "jpeg_decode", "pil_decode(J)", BENCH_INFO},
    {"jpeg encode 2048x2048 rgb q90 vs Pillow", "jpeg_encode",
     "pil_encode(RGB, 'JPEG', quality=90)", BENCH_INFO},
};
static const bench_def bench = {
    .who = "bench_image",
    .lua_chunk = lua_chunk,
    .py_code = py_code,
    .names = {"SIDE"},
    .values = {SIDE},
    .nvalues = 1,
    .rows = rows,
    .nrows = sizeof rows / sizeof *rows,
    .rounds = {2, 5}, /* quick, full */
    .calls = {1, 3},
    .title = "ltensor images against Pillow",
    .note = "the codecs are single-threaded in both; \"NumPy\" columns are Pillow's",
    .goals = "png decode and encode >= 1.0x Pillow",
};

int main(int argc, char **argv) { return bench_rows_main(argc, argv, &bench); }
