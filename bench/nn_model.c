/*
 * nn_model.c -- bench_nn_model: the forward passes of examples/model (model.lua, with
 * lt.nn.functional) from Lua against the same passes in torch 1.13 (torch.nn.functional) in an
 * embedded CPython, in the same process, at the same thread count.
 *
 *   cnn     the example CNN (conv2d 3->8, batch_norm, relu, max_pool2d, conv2d 8->16,
 *           batch_norm, relu, max_pool2d, linear 256->10) on 32 images of 3x16x16
 *           (goal >= 0.8x torch)
 *   and, for information: the same CNN on one image (the cost of a call), and the transformer
 *   block (embedding, layer_norm, causal attention of 4 heads, gelu MLP, head) on 8 sequences
 *   of 8 tokens.
 *
 * The weights are not trained: both sides make them of the same numbers, frac(sin(12.9898 k) *
 * 43758.5453) - 0.5 (k = 0, 1, ...) scaled by 0.3, computed in float64 and rounded to float32,
 * under train.py's names; B.check compares a first pass of ours with torch's (done once,
 * before timing). Each case runs at 1 thread (ltensor_set_num_threads(1),
 * torch.set_num_threads(1)) and at ltensor's default count (torch set to the same),
 * interleaved with the others, one loop per round; each keeps its best round (wall clock).
 * Ratio = torch's time / ours (above 1: ltensor is faster).
 *
 * Usage: bench_nn_model
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

#define WHO "bench_nn_model"

/* The weights: "name size size ...;" each (the running variances are made positive, 1 + |v|). */
#define SHAPES                                                                                \
  "cnn.conv1.weight 8 3 3 3;cnn.conv1.bias 8;cnn.bn1.weight 8;cnn.bn1.bias 8;"                \
  "cnn.bn1.running_mean 8;cnn.bn1.running_var 8;cnn.conv2.weight 16 8 3 3;cnn.conv2.bias 16;" \
  "cnn.bn2.weight 16;cnn.bn2.bias 16;cnn.bn2.running_mean 16;cnn.bn2.running_var 16;"         \
  "cnn.fc.weight 10 256;cnn.fc.bias 10;block.tok.weight 32 32;block.pos 8 32;"                \
  "block.ln1.weight 32;block.ln1.bias 32;block.qkv.weight 96 32;block.qkv.bias 96;"           \
  "block.proj.weight 32 32;block.proj.bias 32;block.ln2.weight 32;block.ln2.bias 32;"         \
  "block.fc1.weight 128 32;block.fc1.bias 128;block.fc2.weight 32 128;block.fc2.bias 32;"     \
  "block.lnf.weight 32;block.lnf.bias 32;block.head.weight 32 32;block.head.bias 32"

static const char py_code[] = /* after import sys, numpy as np */
    "import math\n"
    "import torch\n"
    "import torch.nn.functional as F\n"
    "def data(*shape, k0=0):\n"
    "    n = int(np.prod(shape))\n"
    "    k = np.arange(k0, k0 + n, dtype=np.float64)\n"
    "    a = ((np.sin(k * 12.9898) * 43758.5453 % 1) - 0.5) * 0.3\n"
    "    return torch.from_numpy(a.astype(np.float32).reshape(shape))\n"
    "shapes = {i.split()[0]: [int(v) for v in i.split()[1:]]\n"
    "          for i in '" SHAPES
    "'.split(';')}\n"
    "w, k0 = {}, 0\n"
    "for name in sorted(shapes):\n"
    "    w[name] = data(*shapes[name], k0=k0); k0 += w[name].numel()\n"
    "    if name.endswith('running_var'): w[name] = 1 + w[name].abs()\n"
    "x32, x1 = data(32, 3, 16, 16), data(1, 3, 16, 16)\n"
    "tokens = torch.arange(64).reshape(8, 8) * 7 % 32\n"
    "def cnn(x):\n"
    "    def bn(t, p):\n"
    "        return F.batch_norm(t, w[p + '.running_mean'], w[p + '.running_var'],\n"
    "                            w[p + '.weight'], w[p + '.bias'], False, 0.1, 1e-5)\n"
    "    x = F.conv2d(x, w['cnn.conv1.weight'], w['cnn.conv1.bias'], 1, 1)\n"
    "    x = F.max_pool2d(F.relu(bn(x, 'cnn.bn1')), 2)\n"
    "    x = F.conv2d(x, w['cnn.conv2.weight'], w['cnn.conv2.bias'], 1, 1)\n"
    "    x = F.max_pool2d(F.relu(bn(x, 'cnn.bn2')), 2)\n"
    "    return F.linear(x.flatten(1), w['cnn.fc.weight'], w['cnn.fc.bias'])\n"
    "def block(t):\n"
    "    ln = lambda v, p: F.layer_norm(v, (32,), w[p + '.weight'], w[p + '.bias'])\n"
    "    lin = lambda v, p: F.linear(v, w[p + '.weight'], w[p + '.bias'])\n"
    "    b, s = t.shape\n"
    "    x = F.embedding(t, w['block.tok.weight']) + w['block.pos'][:s]\n"
    "    q, k, v = (u.view(b, s, 4, 8).transpose(1, 2)\n"
    "               for u in lin(ln(x, 'block.ln1'), 'block.qkv').chunk(3, -1))\n"
    "    mask = torch.ones(s, s, dtype=torch.bool).triu(1)\n"
    "    a = torch.softmax((q @ k.transpose(-2, -1) / math.sqrt(8)).masked_fill(mask,\n"
    "                      float('-inf')), -1) @ v\n"
    "    x = x + lin(a.transpose(1, 2).reshape(b, s, 32), 'block.proj')\n"
    "    x = x + lin(F.gelu(lin(ln(x, 'block.ln2'), 'block.fc1')), 'block.fc2')\n"
    "    return lin(ln(x, 'block.lnf'), 'block.head')\n"
    "def cnn32(n):\n"
    "    for _ in range(n): r = cnn(x32)\n"
    "def cnn1(n):\n"
    "    for _ in range(n): r = cnn(x1)\n"
    "def blk(n):\n"
    "    for _ in range(n): r = block(tokens)\n"
    "want = {'cnn': cnn(x32).numpy().tobytes(), 'block': block(tokens).numpy().tobytes()}\n";

/* The same weights and inputs, model.lua's passes; check() compares a pass with torch's
   (the float32 bytes torch's want holds, given as arguments). */
static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local model = require 'model'\n"
    "local function data(k0, ...)\n"
    "  local shape, n = {...}, 1\n"
    "  for _, s in ipairs(shape) do n = n * s end\n"
    "  local k = lt.arange(k0, k0 + n, 1, 'float64')\n"
    "  return ((((k * 12.9898):sin() * 43758.5453 % 1) - 0.5) * 0.3):to('float32')"
    ":reshape(shape)\n"
    "end\n"
    "local shapes, names, w, k0 = {}, {}, {}, 0\n"
    "for item in ('" SHAPES
    "'):gmatch('[^;]+') do\n"
    "  local name, dims = item:match('^(%S+)(.*)$')\n"
    "  shapes[name], names[#names + 1] = {}, name\n"
    "  for v in dims:gmatch('%d+') do table.insert(shapes[name], tonumber(v)) end\n"
    "end\n"
    "table.sort(names)\n"
    "for _, name in ipairs(names) do\n"
    "  w[name] = data(k0, table.unpack(shapes[name])); k0 = k0 + w[name]:numel()\n"
    "  if name:match('running_var$') then w[name] = w[name]:abs() + 1 end\n"
    "end\n"
    "local x32, x1 = data(0, 32, 3, 16, 16), data(0, 1, 3, 16, 16)\n"
    "local tokens = lt.arange(64):reshape(8, 8) * 7 % 32 + 1\n"
    "local B = {}\n"
    "function B.cnn32(n) for _ = 1, n do local r <close> = model.cnn(w, x32) end end\n"
    "function B.cnn1(n) for _ = 1, n do local r <close> = model.cnn(w, x1) end end\n"
    "function B.blk(n) for _ = 1, n do local r <close> = model.block(w, tokens) end end\n"
    "function B.check()\n"
    "  for name, got in pairs({ cnn = model.cnn(w, x32), block = model.block(w, tokens) }) do\n"
    "    local t = lt.from_bytes(name == 'cnn' and WANT_CNN or WANT_BLOCK, 'float32',"
    " got.shape)\n"
    "    local err = (got - t):abs():max() / t:abs():max()\n"
    "    assert(err < 1e-5, name .. ': differs from torch by ' .. err)\n"
    "  end\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const bench_torch_row rows[] = {
    {"example CNN, 32 images of 3x16x16", "cnn32", 0.8, 40},
    {"example CNN, 1 image", "cnn1", BENCH_INFO, 400},
    {"transformer block, 8 x 8 tokens", "blk", BENCH_INFO, 200},
};
#define NROWS ((int)(sizeof rows / sizeof *rows))

/* Sets the Lua global `name` to the bytes of Python's want[key]. */
static int want_bytes(lua_State *L, const char *key, const char *name) {
  PyObject *want = PyDict_GetItemString(G, "want"); /* borrowed */
  PyObject *b = want ? PyDict_GetItemString(want, key) : NULL;
  if (!b || !PyBytes_Check(b)) return fprintf(stderr, "%s: no want[%s]\n", WHO, key), 0;
  lua_pushlstring(L, PyBytes_AsString(b), (size_t)PyBytes_Size(b));
  lua_setglobal(L, name);
  return 1;
}

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK"), rounds = quick ? 2 : 5;
  double t_start = bench_now_ns();
  G = bench_py_open(argc, argv, WHO, py_code, NULL, NULL, 0);
  if (!G) return 2;
  lua_State *L = bench_lua_open(WHO);
  if (!L) return 2;
  lua_getglobal(L, "package"); /* model.lua of examples/model */
  lua_pushstring(L, LTENSOR_SOURCE_DIR "/examples/model/?.lua");
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  if (!want_bytes(L, "cnn", "WANT_CNN") || !want_bytes(L, "block", "WANT_BLOCK")) return 2;
  int ref = bench_lua_chunk(L, WHO, lua_chunk, NULL, 0);
  if (ref == LUA_NOREF || bench_lua_case(L, ref, WHO, "check", 0) < 0) return 2;
  bench_torch_times t;
  if (bench_torch_run(L, ref, WHO, rows, NROWS, quick, rounds, &t) < 0) return 2;
  bench_torch_header("bench_nn_model: examples/model's forward passes, ltensor (Lua) against torch",
                     quick, rounds, t.counts[1]);
  int pass = bench_torch_report(WHO, rows, NROWS, &t, NULL, 0);
  printf("goals (example CNN >= 0.8x torch at 1 and %d threads): %s; %.1f s\n", t.counts[1],
         pass ? "PASS" : "MISS", (bench_now_ns() - t_start) / 1e9);
  lua_close(L);
  return !pass && bench_flag("LTENSOR_BENCH_STRICT") ? 1 : 0;
}
