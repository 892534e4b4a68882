/*
 * test_sandbox.c -- ltensor in hosts that never `require` it: ltensor_push_module in a state
 * without the package library (a sandboxed host), and the printer of a tensor a host pushes
 * into a state where no script loaded the module. Each case builds its own lua_State, opens
 * only the libraries it names, and closes it; release callbacks count their calls.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltensor.h"
#include "test_lua.h"
#include "test_util.h"

/* A state with only the libraries a sandbox typically keeps: base, string, table, math. */
static lua_State *sandbox(void) {
  lua_State *L = luaL_newstate();
  static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                                  {LUA_STRLIBNAME, luaopen_string},
                                  {LUA_TABLIBNAME, luaopen_table},
                                  {LUA_MATHLIBNAME, luaopen_math},
                                  {NULL, NULL}};
  for (const luaL_Reg *l = libs; l->func; l++) {
    luaL_requiref(L, l->name, l->func, 1);
    lua_pop(L, 1);
  }
  return L;
}

static void test_push_module_sandboxed(void) {
  lua_State *L = sandbox();
  CHECK(ltrue(L, "require == nil and package == nil"));
  CHECK_RC(ltensor_push_module(L), LTENSOR_OK);
  CHECK(lua_istable(L, -1));
  lua_setglobal(L, "lt");
  CHECK_RC(ltensor_push_module(L), LTENSOR_OK); /* the same table again */
  lua_getglobal(L, "lt");
  CHECK(lua_rawequal(L, -1, -2));
  lua_pop(L, 2);
  CHECKF(ltrue(L, "lt._VERSION == 'ltensor 0.1.0' and lt.float32 == 'float32'"), "%s", g_msg);
  CHECKF(ltrue(L, "tostring(lt.tensor({1, 2, 3})) == 'tensor([1, 2, 3])'"), "%s", g_msg);
  CHECKF(ltrue(L,
               "tostring(lt.tensor({1.5, 2}, 'float64')) == "
               "'tensor([1.5000, 2.0000], dtype=float64)'"),
         "%s", g_msg);
  CHECKF(ltrue(L, "lt.arange(6):view(2, 3):sum() == 15"), "%s", g_msg);
  CHECKF(ltrue(L, "tostring(lt.zeros(2, 2)) == 'tensor([[0., 0.],\\n        [0., 0.]])'"), "%s",
         g_msg);
  /* the module's own require is not leaked into the sandbox */
  CHECK(ltrue(L, "require == nil"));
  lua_close(L);
}

/* A float32 host buffer pushed borrowed, released through the callback. */
static long g_released;
static void on_release(void *ctx) {
  free(ctx);
  g_released++;
}

static int push_host_floats(lua_State *L, int n) {
  float *data = malloc(sizeof(float) * (size_t)n);
  for (int i = 0; i < n; i++) data[i] = (float)i + 0.5f;
  int64_t shape[1] = {n};
  DLTensor desc = {.data = data,
                   .device = {kDLCPU, 0},
                   .ndim = 1,
                   .dtype = {kDLFloat, 32, 1},
                   .shape = shape,
                   .strides = NULL,
                   .byte_offset = 0};
  int rc = ltensor_push_borrowed(L, &desc, 0, on_release, data, NULL);
  if (rc != LTENSOR_OK) free(data);
  return rc;
}

static void test_print_without_require(void) {
  /* a full state that never requires ltensor: the pushed tensor still prints as torch */
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  long before = g_released;
  CHECK_RC(push_host_floats(L, 3), LTENSOR_OK);
  lua_setglobal(L, "t");
  CHECKF(ltrue(L, "tostring(t) == 'tensor([0.5000, 1.5000, 2.5000])'"), "%s", g_msg);
  CHECKF(ltrue(L, "tostring(t + 1) == 'tensor([1.5000, 2.5000, 3.5000])'"), "%s", g_msg);
  CHECK(ltrue(L, "package.loaded.ltensor == nil")); /* printing loaded only what it needs */
  lua_close(L);
  CHECK(g_released == before + 1);

  /* the same in a sandbox */
  L = sandbox();
  CHECK_RC(push_host_floats(L, 2), LTENSOR_OK);
  lua_setglobal(L, "t");
  CHECKF(ltrue(L, "tostring(t) == 'tensor([0.5000, 1.5000])'"), "%s", g_msg);
  lua_close(L);
  CHECK(g_released == before + 2);
}

static void test_module_and_require_agree(void) {
  /* push_module first, then require: one table */
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK_RC(ltensor_push_module(L), LTENSOR_OK);
  lua_setglobal(L, "pushed");
  CHECKF(ltrue(L, "rawequal(require 'ltensor', pushed)"), "%s", g_msg);
  CHECKF(ltrue(L, "rawequal(require 'ltensor.core', package.loaded['ltensor.core'])"), "%s", g_msg);
  lua_close(L);

  /* require first, then push_module */
  L = luaL_newstate();
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK(lrun(L, "required = require 'ltensor'"));
  CHECK_RC(ltensor_push_module(L), LTENSOR_OK);
  lua_getglobal(L, "required");
  CHECK(lua_rawequal(L, -1, -2));
  lua_pop(L, 2);
  lua_close(L);

  /* a host that pushes a tensor before any require: require later gives a working module */
  L = luaL_newstate();
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK_RC(push_host_floats(L, 2), LTENSOR_OK);
  lua_setglobal(L, "t");
  CHECKF(ltrue(L, "require('ltensor').is_tensor(t) and (t * 2):sum() == 4"), "%s", g_msg);
  lua_close(L);
}

int main(void) {
  test_push_module_sandboxed();
  test_print_without_require();
  test_module_and_require_agree();
  return tu_finish("test_sandbox");
}
