/*
 * test_unreadable.c -- every function of ltensor, called with tensors whose elements the host
 * cannot read, must raise or return without reading them: tensors on a CUDA device (as torch
 * hands over a GPU tensor) and tensors of an opaque DLPack type (float8). Their data pointer is
 * a page mapped PROT_NONE, so a read (or write) of an element faults and the test crashes.
 *
 * The script walks every function of lt, lt.nn.functional, lt.linalg, lt.fft, lt.image and
 * every tensor method, with these tensors of 1 to 5 dims in argument lists of host tensors,
 * numbers and strings. A call that raises must raise a non-empty string; the walk must make
 * some calls that name the device. Each borrowed buffer is released exactly once, by lua_close.
 * Linux and other POSIX systems (mmap).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "ltensor.h"
#include "test_lua.h"
#include "test_util.h"

static long released;
static void on_release(void *ctx) {
  (void)ctx;
  released++;
}

/* Pushes a borrowed tensor over mem (row-major) of the given device type and DLPack dtype. */
static void push_unreadable(lua_State *L, void *mem, int ndim, int64_t *shape, DLDataType dt,
                            int32_t device_type) {
  DLTensor d = {0};
  d.data = mem;
  d.device.device_type = device_type;
  d.ndim = ndim;
  d.dtype = dt;
  d.shape = shape;
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, on_release, NULL, NULL), LTENSOR_OK);
}

static const char walk[] =
    "local core = require 'ltensor.core'\n"
    "local spaces = {lt, lt.nn.functional, lt.linalg, lt.fft, lt.image, core._methods}\n"
    "local skip = {load = 1, save = 1, from_file = 1, config = 1, set_num_threads = 1,\n"
    "              manual_seed = 1, ReadOnlyTensorWrapper = 1}\n"
    "local host = {lt.randn(16), lt.randn(4, 4), lt.randn(2, 4, 2), lt.randn(1, 2, 4, 4),\n"
    "              lt.randn(1, 2, 2, 2, 2)}\n"
    "local idx = lt.tensor({1, 2})\n"
    "calls, raised, named = 0, 0, 0\n"
    "for _, set in ipairs({DEV, OPQ}) do\n"
    "  for _, space in ipairs(spaces) do\n"
    "    for name, f in pairs(space) do\n"
    "      if type(f) == 'function' and not skip[name] then\n"
    "        for nd = 1, 5 do\n"
    "          local u, h = set[nd], host[nd]\n"
    "          for _, a in ipairs({{u}, {u, u}, {h, u}, {u, h}, {u, 1}, {u, 2, 1}, {h, u, u},\n"
    "                              {u, h, h}, {h, h, u}, {set.i}, {u, set.i}, {set.i, u},\n"
    "                              {idx, u}, {u, idx}, {u, 'sum'}, {u, {2, 2}}, {u, nil, 2},\n"
    "                              {u, 1, 1, 1}, {h, u, nil, 1}, {h, 1, u}}) do\n"
    "            calls = calls + 1\n"
    "            local ok, e = pcall(f, table.unpack(a, 1, 4))\n"
    "            if not ok then\n"
    "              raised = raised + 1\n"
    "              if type(e) ~= 'string' or e == '' then\n"
    "                error(('%s raised %s'):format(name, tostring(e)))\n"
    "              end\n"
    "              if e:find('cuda:0', 1, true) or e:find('cannot be read', 1, true) then\n"
    "                named = named + 1\n"
    "              end\n"
    "            end\n"
    "          end\n"
    "        end\n"
    "      end\n"
    "    end\n"
    "  end\n"
    "end\n"
    "collectgarbage()\n";

int main(void) {
  size_t bytes = 1 << 16;
  void *mem = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(mem != MAP_FAILED);
  if (mem == MAP_FAILED) return tu_finish("test_unreadable");
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK(lrun(L, TL_PRELUDE));
  static int64_t shapes[5][5] = {{16}, {4, 4}, {2, 4, 2}, {1, 2, 4, 4}, {1, 2, 2, 2, 2}};
  static int64_t four[] = {4};
  const DLDataType f32 = {kDLFloat, 32, 1}, i64 = {kDLInt, 64, 1}, f8 = {kDLFloat8_e4m3fn, 8, 1};
  long pushed = 0;
  /* DEV: float32 on cuda:0, and DEV.i int64 there; OPQ: float8 in host memory, OPQ.i alike */
  const struct {
    const char *name;
    DLDataType dt;
    int32_t device;
  } sets[] = {{"DEV", f32, kDLCUDA}, {"OPQ", f8, kDLCPU}};
  for (int s = 0; s < 2; s++) {
    lua_createtable(L, 5, 1);
    for (int nd = 1; nd <= 5; nd++) {
      push_unreadable(L, mem, nd, shapes[nd - 1], sets[s].dt, sets[s].device);
      lua_rawseti(L, -2, nd);
      pushed++;
    }
    push_unreadable(L, mem, 1, four, s == 0 ? i64 : f8, sets[s].device);
    lua_setfield(L, -2, "i");
    pushed++;
    lua_setglobal(L, sets[s].name);
  }
  CHECKF(lrun(L, walk), "the walk: %s", g_msg);
  long calls = lint(L, "calls"), raised = lint(L, "raised"), named = lint(L, "named");
  printf("test_unreadable: %ld calls, %ld raised, %ld naming the device or the type\n", calls,
         raised, named);
  CHECK(calls > 40000 && raised > calls / 2 && named > 1000);
  CHECK(released == 0);
  lua_close(L);
  CHECKF(released == pushed, "released %ld of %ld buffers", released, pushed);
  munmap(mem, bytes);
  return tu_finish("test_unreadable");
}
