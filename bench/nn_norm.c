/*
 * nn_norm.c -- bench_nn_norm: lt.nn.functional's interpolate, layer_norm and attention from Lua
 * against torch 1.13 in the same process, at the same thread count.
 *
 *   interpolate  bilinear, 1x64x112x112 float32, scale 2 (goal >= 1.0x torch's
 *                F.interpolate(x, scale_factor=2, mode='bilinear'))
 *   layer_norm   4096x1024 float32 over the last dim, with weight and bias (goal >= 1.0x
 *                F.layer_norm)
 *   attention    8 heads x 512 tokens x 64 dims float32: F.scaled_dot_product_attention(q, k, v)
 *                (goal >= 1.0x torch's explicit torch.softmax(q @ k.transpose(-2, -1) / 8, -1)
 *                @ v; torch 1.13 has no scaled_dot_product_attention)
 *
 * Both sides allocate their result on every call, in a Lua for loop and a Python for loop.
 * Every case runs at 1 thread (ltensor_set_num_threads(1), torch.set_num_threads(1)) and at
 * ltensor's default count (torch set to the same), interleaved with the others, one loop per
 * round; each keeps its best round by the wall clock. The ratio is torch's time over ours
 * (above 1: ltensor is faster). Before timing, the Lua side checks its results against
 * formulas written with ltensor's own operations (a sample of interpolate, the rows' mean and
 * variance after layer_norm, attention against softmax(q k^T / 8) v).
 *
 * Usage: bench_nn_norm
 * Env:   LTENSOR_BENCH_QUICK=1   fewer calls and rounds (a few seconds)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, torch, Lua, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ltensor.h"

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local F = lt.nn.functional\n"
    "local function data(n, ...)\n"
    "  return ((lt.arange(n, 'float64') * 12.9898):sin() * 4.5):to('float32'):view(...)\n"
    "end\n"
    "local img = data(64 * 112 * 112, 1, 64, 112, 112)\n"
    "local x = data(4096 * 1024, 4096, 1024)\n"
    "local w, b = data(1024, 1024) * 0.1 + 1, data(1024, 1024) * 0.1\n"
    "local q = data(8 * 512 * 64, 8, 512, 64) * 0.3\n"
    "local k, v = q:flip(2):contiguous(), q:flip(3):contiguous()\n"
    "local B = {}\n"
    "function B.interp(n)\n"
    "  for _ = 1, n do local r <close> = F.interpolate(img, nil, 2, 'bilinear') end\n"
    "end\n"
    "function B.layer_norm(n)\n"
    "  for _ = 1, n do local r <close> = F.layer_norm(x, {1024}, w, b) end\n"
    "end\n"
    "function B.attention(n)\n"
    "  for _ = 1, n do local r <close> = F.scaled_dot_product_attention(q, k, v) end\n"
    "end\n"
    "function B.check()\n"
    "  local r = F.interpolate(img, nil, 2, 'bilinear')\n"
    "  local want = 0.75 * (0.75 * img[{1, 7, 10, 20}] + 0.25 * img[{1, 7, 10, 21}])\n"
    "    + 0.25 * (0.75 * img[{1, 7, 11, 20}] + 0.25 * img[{1, 7, 11, 21}])\n"
    "  assert(math.abs(r[{1, 7, 20, 40}] - want) < 1e-5, 'interpolate')\n"
    "  local y = (F.layer_norm(x, {1024}, w, b) - b) / w\n"
    "  assert(y:mean(2):abs():max() < 1e-4 and (y:var(2, false) - 1):abs():max() < 1e-3,\n"
    "    'layer_norm')\n"
    "  local a = F.scaled_dot_product_attention(q, k, v)\n"
    "  local e = (q:matmul(k:transpose(2, 3)) / 8):softmax(3):matmul(v)\n"
    "  assert((a - e):abs():max() < 1e-5, 'attention')\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np */
    "import torch\n"
    "import torch.nn.functional as F\n"
    "def data(n, *s):\n"
    "    return (torch.sin(torch.arange(n, dtype=torch.float64) * 12.9898) * 4.5).float()"
    ".view(*s)\n"
    "img = data(64 * 112 * 112, 1, 64, 112, 112)\n"
    "x = data(4096 * 1024, 4096, 1024)\n"
    "w, b = data(1024, 1024) * 0.1 + 1, data(1024, 1024) * 0.1\n"
    "q = data(8 * 512 * 64, 8, 512, 64) * 0.3\n"
    "k, v = q.flip(1).contiguous(), q.flip(2).contiguous()\n"
    "def interp(n):\n"
    "    for _ in range(n): r = F.interpolate(img, scale_factor=2, mode='bilinear')\n"
    "def layer_norm(n):\n"
    "    for _ in range(n): r = F.layer_norm(x, (1024,), w, b)\n"
    "def attention(n):\n"
    "    for _ in range(n): r = torch.softmax(q @ k.transpose(-2, -1) / 8, -1) @ v\n";

static const bench_torch_row rows[] = {
    {"interpolate bilinear 1x64x112x112 x2", "interp", 1.0, 20},
    {"layer_norm 4096x1024", "layer_norm", 1.0, 20},
    {"attention 8x512x64 vs softmax(QK^T)V", "attention", 1.0, 20},
};
#define NROWS ((int)(sizeof rows / sizeof *rows))

int main(int argc, char **argv) {
  const char *who = "bench_nn_norm";
  int quick = bench_flag("LTENSOR_BENCH_QUICK"), rounds = quick ? 2 : 5;
  double t_start = bench_now_ns();
  G = bench_py_open(argc, argv, who, py_code, NULL, NULL, 0);
  if (!G) return 2;
  lua_State *L = bench_lua_open(who);
  int ref = L ? bench_lua_chunk(L, who, lua_chunk, NULL, 0) : LUA_NOREF;
  if (ref == LUA_NOREF || bench_lua_case(L, ref, who, "check", 0) < 0) return 2;
  bench_torch_times t;
  if (bench_torch_run(L, ref, who, rows, NROWS, quick, rounds, &t) < 0) return 2;
  bench_torch_header("ltensor nn (norm, resize, attention) against torch", quick, rounds,
                     t.counts[1]);
  int pass = bench_torch_report(who, rows, NROWS, &t, NULL, 0);
  printf("goals (interpolate, layer_norm, attention >= 1.0x torch at 1 thread and at %d): %s\n",
         t.counts[1], pass ? "PASS" : "MISS");
  printf("(%.1f s)\n", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
