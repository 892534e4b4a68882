/*
 * nn_conv.c -- bench_nn_conv: lt.nn.functional's convolutions and pools from Lua against
 * torch.nn.functional (torch 1.13) in an embedded CPython, in the same process, at the same
 * thread count.
 *
 *   conv2d      1x64x56x56 by 64x64x3x3, padding 1, with bias (goal >= 0.8x torch)
 *   max_pool2d  2x2 of 1x64x112x112 (goal >= 1.0x torch)
 *   and, for information: avg_pool2d 2x2 and adaptive_avg_pool2d to 7x7 of 1x64x112x112, a
 *   depthwise conv2d (groups 64) of 1x64x56x56, conv_transpose2d 1x64x28x28 by 64x32x2x2
 *   stride 2.
 *
 * ours: `local r <close> = F.conv2d(x, w, b, 1, 1)` in a Lua for loop; torch: `r = F.conv2d(x,
 * w, b, 1, 1)` in a Python for loop: both allocate their result on every call. The data:
 * frac(sin(12.9898 k) * 43758.5453) - 0.5 for k = 0, 1, ..., computed in float64 and rounded to
 * float32 on both sides. Each case runs at 1 thread (ltensor_set_num_threads(1),
 * torch.set_num_threads(1)) and at ltensor's default count (torch set to the same), interleaved
 * with the others, one loop per round; each keeps its best round (wall clock). Ratio = torch's
 * time / ours (above 1: ltensor is faster). torch's CPU convolutions run oneDNN's (mkldnn) JIT
 * kernels; ours run im2col or Winograd's transforms and, in float32 on an AVX2 or AVX-512
 * processor, ltensor's own packed product (lt_gemm.h; the first line of the report names its
 * path), else the BLAS's sgemm: an OpenBLAS that does not recognize the CPU (a hypervisor
 * hiding its model: "core Prescott" in that line) runs its SSE3 kernels, several times slower
 * than its AVX-512 ones.
 *
 * Usage: bench_nn_conv
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
#include "lt_blas.h" /* the core's: which OpenBLAS kernels run (bench/CMakeLists.txt) */
#include "lt_cpu.h"  /* the core's: the path of its own product */
#include "ltensor.h"

static const char lua_chunk[] =
    "local lt = require 'ltensor'\n"
    "local F = lt.nn.functional\n"
    "local function data(...)\n"
    "  local shape, n = {...}, 1\n"
    "  for _, s in ipairs(shape) do n = n * s end\n"
    "  return (((lt.arange(n, 'float64') * 12.9898):sin() * 43758.5453 % 1) - 0.5)"
    ":to('float32'):reshape(shape)\n"
    "end\n"
    "local x, w, b = data(1, 64, 56, 56), data(64, 64, 3, 3), data(64)\n"
    "local xp, dw = data(1, 64, 112, 112), data(64, 1, 3, 3)\n"
    "local xt, wt = data(1, 64, 28, 28), data(64, 32, 2, 2)\n"
    "local B = {}\n"
    "function B.conv(n) for _ = 1, n do local r <close> = F.conv2d(x, w, b, 1, 1) end end\n"
    "function B.maxpool(n) for _ = 1, n do local r <close> = F.max_pool2d(xp, 2) end end\n"
    "function B.avgpool(n) for _ = 1, n do local r <close> = F.avg_pool2d(xp, 2) end end\n"
    "function B.adaptive(n)\n"
    "  for _ = 1, n do local r <close> = F.adaptive_avg_pool2d(xp, 7) end\n"
    "end\n"
    "function B.depthwise(n)\n"
    "  for _ = 1, n do local r <close> = F.conv2d(x, dw, nil, 1, 1, 1, 64) end\n"
    "end\n"
    "function B.transposed(n)\n"
    "  for _ = 1, n do local r <close> = F.conv_transpose2d(xt, wt, nil, 2) end\n"
    "end\n"
    "function B.check()\n"
    "  local r = F.conv2d(x, w, b, 1, 1)\n"
    "  assert(r.shape[4] == 56 and r.shape[2] == 64, 'conv2d shape')\n"
    "  local u = F.unfold(x, 3, 1, 1):squeeze(1)\n"
    "  local want = w:reshape(64, 576):matmul(u) + b:reshape(64, 1)\n"
    "  assert((r:reshape(64, 3136) - want):abs():max() < 1e-4, 'conv2d values')\n"
    "  local m = F.max_pool2d(xp, 2)\n"
    "  assert(m:max() == xp:max() and m.shape[3] == 56, 'max_pool2d')\n"
    "  return true\n"
    "end\n"
    "return B\n";

static const char py_code[] = /* after import sys, numpy as np */
    "import torch\n"
    "import torch.nn.functional as F\n"
    "def data(*shape):\n"
    "    n = int(np.prod(shape))\n"
    "    a = (np.sin(np.arange(n, dtype=np.float64) * 12.9898) * 43758.5453 % 1) - 0.5\n"
    "    return torch.from_numpy(a.astype(np.float32).reshape(shape))\n"
    "x, w, b = data(1, 64, 56, 56), data(64, 64, 3, 3), data(64)\n"
    "xp, dw = data(1, 64, 112, 112), data(64, 1, 3, 3)\n"
    "xt, wt = data(1, 64, 28, 28), data(64, 32, 2, 2)\n"
    "def conv(n):\n"
    "    for _ in range(n): r = F.conv2d(x, w, b, 1, 1)\n"
    "def maxpool(n):\n"
    "    for _ in range(n): r = F.max_pool2d(xp, 2)\n"
    "def avgpool(n):\n"
    "    for _ in range(n): r = F.avg_pool2d(xp, 2)\n"
    "def adaptive(n):\n"
    "    for _ in range(n): r = F.adaptive_avg_pool2d(xp, 7)\n"
    "def depthwise(n):\n"
    "    for _ in range(n): r = F.conv2d(x, dw, None, 1, 1, 1, 64)\n"
    "def transposed(n):\n"
    "    for _ in range(n): r = F.conv_transpose2d(xt, wt, None, 2)\n";

static const bench_torch_row rows[] = {
    {"conv2d 1x64x56x56 * 64x64x3x3 pad 1", "conv", 0.8, 40},
    {"max_pool2d 2x2 of 1x64x112x112", "maxpool", 1.0, 100},
    {"avg_pool2d 2x2 of 1x64x112x112", "avgpool", BENCH_INFO, 100},
    {"adaptive_avg_pool2d 7 of 1x64x112x112", "adaptive", BENCH_INFO, 100},
    {"conv2d depthwise 64x1x3x3 of 1x64x56x56", "depthwise", BENCH_INFO, 40},
    {"conv_transpose2d 1x64x28x28 * 64x32x2x2 s2", "transposed", BENCH_INFO, 40},
};
#define NROWS ((int)(sizeof rows / sizeof *rows))

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK"), rounds = quick ? 2 : 5;
  double t_start = bench_now_ns();
  G = bench_py_open(argc, argv, "bench_nn_conv", py_code, NULL, NULL, 0);
  if (!G) return 2;
  lua_State *L = bench_lua_open("bench_nn_conv");
  int ref = L ? bench_lua_chunk(L, "bench_nn_conv", lua_chunk, NULL, 0) : LUA_NOREF;
  if (ref == LUA_NOREF || bench_lua_case(L, ref, "bench_nn_conv", "check", 0) < 0) return 2;
  bench_torch_times t;
  if (bench_torch_run(L, ref, "bench_nn_conv", rows, NROWS, quick, rounds, &t) < 0) return 2;
  const char *(*corename)(void) = NULL;
  void *sym = lt_blas_sym("openblas_get_corename");
  if (sym) memcpy(&corename, &sym, sizeof sym); /* ISO C has no object-to-function cast */
  printf("ltensor's BLAS: %s%s%s; its own float32 product's path: %s\n",
         lt_blas_name() ? lt_blas_name() : "none (its own kernel)", corename ? ", core " : "",
         corename ? corename() : "", lt_cpu_level_name(lt_cpu_level()));
  bench_torch_header("lt.nn.functional convolutions and pools against torch", quick, rounds,
                     t.counts[1]);
  char summary[256];
  int pass = bench_torch_report("bench_nn_conv", rows, NROWS, &t, summary, sizeof summary);
  printf(
      "goals (conv2d >= 0.8x torch, max_pool2d >= 1.0x, at 1 thread and at the default): %s "
      "(%s)\n(%.1f s)\n",
      pass ? "PASS" : "MISS", summary, (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  lua_close(L);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
