/*
 * A host program built out of tree against an installed ltensor (spec/install_test.sh): it links
 * libltensor, registers it with ltensor_open alone (package.path and package.cpath are emptied,
 * so no .so and no .lua file is found on disk), lends a buffer to a script, and keeps an export
 * past lua_close. Prints OK and exits 0, or says what failed and exits 1.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>

#include <ltensor/ltensor.h> /* both spellings work with the installed include directories */
#include "ltensor.h"

static int released = 0;
static void on_release(void *ctx) { ++*(int *)ctx; }

/* Says what failed (with the line) and exits 1, where the condition is false. */
#define CHECK(c, ...)                               \
  do {                                              \
    if (!(c)) {                                     \
      fprintf(stderr, "host: line %d: ", __LINE__); \
      fprintf(stderr, __VA_ARGS__);                 \
      fputc('\n', stderr);                          \
      exit(1);                                      \
    }                                               \
  } while (0)

static const char script[] =
    "local t = ...\n"
    "local lt = require 'ltensor'\n"
    "local dl = require 'ltensor.dlpack'\n"
    "assert(package.path == '' and package.cpath == '', 'the search paths are not empty')\n"
    "assert(t.dtype == 'float32' and t.shape[1] == 2 and t.shape[2] == 3, 'wrong borrowed "
    "tensor')\n"
    "t[{2, 3}] = 42\n"
    "local view = dl.from_dlpack(t)        -- shares the host's memory\n"
    "view[{1, 1}] = view[{2, 3}] + 1\n"
    "assert(dl.DLDeviceType.kDLCPU == 1)\n"
    "assert(tostring(lt.arange(3)) == 'tensor([0, 1, 2])', tostring(lt.arange(3)))\n"
    "return lt.arange(1, 5):to('float64'), t\n";

int main(void) {
  float buf[6] = {0};
  int64_t shape[2] = {2, 3};
  DLTensor desc = {buf, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  DLManagedTensorVersioned *owned = NULL, *lent = NULL;

  lua_State *L = luaL_newstate();
  CHECK(L != NULL, "luaL_newstate failed");
  luaL_openlibs(L);
  CHECK(ltensor_open(L) == LTENSOR_OK, "ltensor_open: %s", lua_tostring(L, -1));
  CHECK(luaL_dostring(L, "package.path = ''; package.cpath = ''") == LUA_OK, "%s",
        lua_tostring(L, -1));

  CHECK(luaL_loadbuffer(L, script, sizeof script - 1, "=host") == LUA_OK, "%s",
        lua_tostring(L, -1));
  CHECK(ltensor_push_borrowed(L, &desc, 0, on_release, &released, NULL) == LTENSOR_OK,
        "ltensor_push_borrowed: %s", lua_tostring(L, -1));
  CHECK(lua_pcall(L, 1, 2, 0) == LUA_OK, "script: %s", lua_tostring(L, -1));

  /* the script wrote into the host's own buffer */
  CHECK(buf[5] == 42.0f, "buf[5] = %g, expected 42", (double)buf[5]);
  CHECK(buf[0] == 43.0f, "buf[0] = %g, expected 43", (double)buf[0]);

  CHECK(ltensor_export(L, -2, 0, &owned) == LTENSOR_OK, "ltensor_export: %s", lua_tostring(L, -1));
  CHECK(ltensor_export(L, -1, 1, &lent) == LTENSOR_OK, "ltensor_export: %s", lua_tostring(L, -1));
  lua_close(L);

  /* the exports outlive the state; the borrowed buffer is released only with its export */
  CHECK(released == 0, "the borrowed buffer was released while exported");
  const DLTensor *o = &owned->dl_tensor;
  CHECK(owned->version.major == 1 && o->ndim == 1 && o->shape[0] == 4 &&
            o->dtype.code == kDLFloat && o->dtype.bits == 64,
        "unexpected export");
  const double *d = (const double *)((const char *)o->data + o->byte_offset);
  for (int i = 0; i < 4; i++) CHECK(d[i] == i + 1, "export[%d] = %g", i, d[i]);
  CHECK(lent->dl_tensor.data == (void *)buf && (lent->flags & DLPACK_FLAG_BITMASK_READ_ONLY),
        "the export of the borrowed tensor is not a read-only view of the host's buffer");
  if (owned->deleter) owned->deleter(owned);
  CHECK(lent->deleter != NULL, "no deleter");
  lent->deleter(lent);
  CHECK(released == 1, "released %d times, expected once", released);

  puts("OK");
  return 0;
}
