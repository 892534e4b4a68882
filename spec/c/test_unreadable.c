/*
 * test_unreadable.c -- every function of ltensor, called with tensors whose elements the host
 * cannot read, must raise or return without reading them: tensors on a CUDA device (as torch
 * hands over a GPU tensor) and tensors of an opaque DLPack type (float8). Their data pointer is
 * a page mapped PROT_NONE, so a read (or write) of an element faults and the test crashes.
 * Then the same for writes: read-only tensors (LTENSOR_READ_ONLY) over a page mapped PROT_READ,
 * so that any write through them faults, with the in-place forms (inplace = true, setters,
 * masked and indexed writes) added.
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
static void push_borrowed(lua_State *L, void *mem, int ndim, int64_t *shape, DLDataType dt,
                          int32_t device_type, unsigned flags) {
  DLTensor d = {0};
  d.data = mem;
  d.device.device_type = device_type;
  d.ndim = ndim;
  d.dtype = dt;
  d.shape = shape;
  CHECK_RC(ltensor_push_borrowed(L, &d, flags, on_release, NULL, NULL), LTENSOR_OK);
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
    "for _, set in ipairs(SETS) do\n"
    "  for _, space in ipairs(spaces) do\n"
    "    for name, f in pairs(space) do\n"
    "      if type(f) == 'function' and not skip[name] then\n"
    "        for nd = 1, 5 do\n"
    "          local u, h = set[nd], host[nd]\n"
    "          for _, a in ipairs({{u}, {u, u}, {h, u}, {u, h}, {u, 1}, {u, 2, 1}, {h, u, u},\n"
    "                              {u, h, h}, {h, h, u}, {set.i}, {u, set.i}, {set.i, u},\n"
    "                              {idx, u}, {u, idx}, {u, 'sum'}, {u, {2, 2}}, {u, nil, 2},\n"
    "                              {u, 1, 1, 1}, {h, u, nil, 1}, {h, 1, u}, {u, true},\n"
    "                              {u, 0.5, true}, {u, {inplace = true}}, {u, 0, u},\n"
    "                              {u, 1, set.i, u}, {u, h:gt(0.6), 0}}) do\n"
    "            calls = calls + 1\n"
    "            local ok, e = pcall(f, table.unpack(a, 1, 4))\n"
    "            if not ok then\n"
    "              raised = raised + 1\n"
    "              if type(e) ~= 'string' or e == '' then\n"
    "                error(('%s raised %s'):format(name, tostring(e)))\n"
    "              end\n"
    "              for _, word in ipairs(NAMED) do\n"
    "                if e:find(word, 1, true) then named = named + 1; break end\n"
    "              end\n"
    "            end\n"
    "          end\n"
    "        end\n"
    "      end\n"
    "    end\n"
    "  end\n"
    "end\n"
    "for _, set in ipairs(SETS) do\n"
    "  for nd = 1, 5 do\n"
    "    local u = set[nd]\n"
    "    for _, key in ipairs({1, {1}, {{1, 2}}, host[nd]:gt(0.6), idx}) do\n"
    "      calls = calls + 1\n"
    "      if not pcall(function() u[key] = 0 end) then raised = raised + 1 end\n"
    "    end\n"
    "  end\n"
    "end\n"
    "collectgarbage()\n";

/* Pushes the sets of tensors the walk takes (globals, and the list SETS): 1- to 5-d tensors of
   dtype dt on device over mem, and .i, a 1-d index tensor of 4 elements over imem. */
static long push_sets(lua_State *L, const char *const *names, int nsets, void *mem, void *imem,
                      const DLDataType *dts, const DLDataType *idts, const int32_t *devices,
                      unsigned flags) {
  static int64_t shapes[5][5] = {{16}, {4, 4}, {2, 4, 2}, {1, 2, 4, 4}, {1, 2, 2, 2, 2}};
  static int64_t four[] = {4};
  long pushed = 0;
  lua_createtable(L, nsets, 0);
  for (int s = 0; s < nsets; s++) {
    lua_createtable(L, 5, 1);
    for (int nd = 1; nd <= 5; nd++) {
      push_borrowed(L, mem, nd, shapes[nd - 1], dts[s], devices[s], flags);
      lua_rawseti(L, -2, nd);
      pushed++;
    }
    push_borrowed(L, imem, 1, four, idts[s], devices[s], flags);
    lua_setfield(L, -2, "i");
    pushed++;
    lua_pushvalue(L, -1);
    lua_setglobal(L, names[s]);
    lua_rawseti(L, -2, s + 1);
  }
  lua_setglobal(L, "SETS");
  return pushed;
}

/* Runs the walk over the sets pushed (pushed borrowed buffers), with NAMED = named (Lua), the
   words of which at least min_named messages must hold one; then closes L. */
static void run_walk(lua_State *L, long pushed, const char *what, const char *named,
                     long min_named) {
  CHECK(lrun(L, named));
  CHECKF(lrun(L, walk), "the walk (%s): %s", what, g_msg);
  long calls = lint(L, "calls"), raised = lint(L, "raised"), n = lint(L, "named");
  printf("test_unreadable: %s: %ld calls, %ld raised, %ld naming why\n", what, calls, raised, n);
  CHECK(calls > 40000 && raised > calls / 2 && n >= min_named);
  CHECK(released == 0);
  lua_close(L);
  CHECKF(released == pushed, "%s: released %ld of %ld buffers", what, released, pushed);
  released = 0;
}

static lua_State *new_state(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK(lrun(L, TL_PRELUDE));
  return L;
}

int main(void) {
  size_t bytes = 1 << 16;
  char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(mem != MAP_FAILED);
  if (mem == MAP_FAILED) return tu_finish("test_unreadable");
  const DLDataType f32 = {kDLFloat, 32, 1}, i64 = {kDLInt, 64, 1}, f8 = {kDLFloat8_e4m3fn, 8, 1};

  /* unreadable: float32 on cuda:0 (DEV, with int64 DEV.i) and float8 in host memory (OPQ) */
  CHECK(mprotect(mem, bytes, PROT_NONE) == 0);
  lua_State *L = new_state();
  static const char *const unreadable[] = {"DEV", "OPQ"};
  const DLDataType udt[] = {f32, f8}, uidt[] = {i64, f8};
  const int32_t udev[] = {kDLCUDA, kDLCPU};
  long pushed = push_sets(L, unreadable, 2, mem, mem, udt, uidt, udev, 0);
  run_walk(L, pushed, "unreadable", "NAMED = {'cuda:0', 'cannot be read'}", 1000);

  /* unwritable: read-only float32 and float64 (all 0.5 as float32) and int64 indices 1, 2 */
  CHECK(mprotect(mem, bytes, PROT_READ | PROT_WRITE) == 0);
  for (size_t i = 0; i < bytes / 2 / sizeof(float); i++) ((float *)(void *)mem)[i] = 0.5f;
  int64_t *imem = (int64_t *)(void *)(mem + bytes / 2);
  for (int i = 0; i < 4; i++) imem[i] = 1 + i % 2;
  CHECK(mprotect(mem, bytes, PROT_READ) == 0);
  L = new_state();
  static const char *const readonly[] = {"RO32", "RO64"};
  const DLDataType rdt[] = {f32, {kDLFloat, 64, 1}}, ridt[] = {i64, i64};
  const int32_t rdev[] = {kDLCPU, kDLCPU};
  pushed = push_sets(L, readonly, 2, mem, imem, rdt, ridt, rdev, LTENSOR_READ_ONLY);
  run_walk(L, pushed, "read-only", "NAMED = {'read-only'}", 1000);
  munmap(mem, bytes);
  return tu_finish("test_unreadable");
}
