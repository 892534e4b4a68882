/*
 * test_lua.h -- running Lua from the C tests that embed it: a chunk, the truth of an
 * expression, an integer, and CHECK-style macros that print the Lua error or result.
 * Include after test_util.h. The last message or result is in g_msg (per thread: some tests
 * run states on several threads). And the set-up the tests share: TL_PRELUDE (the globals lt,
 * dlpack and same) and tl_load_ltensor, for a state that loads ltensor as lua5.4 does.
 */
#ifndef TEST_LUA_H
#define TEST_LUA_H

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltensor.h"

static _Thread_local char g_msg[2048];

static inline void set_msg(lua_State *L) {
  const char *s = lua_tostring(L, -1);
  snprintf(g_msg, sizeof g_msg, "%s", s ? s : "(error object is not a string)");
}

/* Runs a chunk; 1 on success, else 0 with the message in g_msg. */
static inline int lrun(lua_State *L, const char *code) {
  int top = lua_gettop(L);
  int rc = luaL_loadstring(L, code);
  if (rc == LUA_OK) rc = lua_pcall(L, 0, 0, 0);
  if (rc != LUA_OK)
    set_msg(L);
  else
    g_msg[0] = 0;
  lua_settop(L, top);
  return rc == LUA_OK;
}

/* Evaluates an expression; its truth, with what it gave (or the error) in g_msg. */
static inline int ltrue(lua_State *L, const char *expr) {
  char buf[2048];
  snprintf(buf, sizeof buf, "return %s", expr);
  int top = lua_gettop(L);
  int rc = luaL_loadstring(L, buf);
  if (rc == LUA_OK) rc = lua_pcall(L, 0, 1, 0);
  int v = 0;
  if (rc != LUA_OK) {
    set_msg(L);
  } else {
    v = lua_toboolean(L, -1);
    snprintf(g_msg, sizeof g_msg, "%s", luaL_tolstring(L, -1, NULL));
  }
  lua_settop(L, top);
  return v;
}

/* The integer value of an expression (-12345 on error, message in g_msg). */
static inline lua_Integer lint(lua_State *L, const char *expr) {
  char buf[2048];
  snprintf(buf, sizeof buf, "return %s", expr);
  int top = lua_gettop(L);
  lua_Integer v = -12345;
  if (luaL_loadstring(L, buf) == LUA_OK && lua_pcall(L, 0, 1, 0) == LUA_OK)
    v = lua_tointeger(L, -1);
  else
    set_msg(L);
  lua_settop(L, top);
  return v;
}

/* Globals lt and dlpack, and same(a, b): equality of nested sequences. */
#define TL_PRELUDE                                                         \
  "lt = require 'ltensor'\n"                                               \
  "dlpack = require 'ltensor.dlpack'\n"                                    \
  "function same(a, b)\n"                                                  \
  "  if type(a) ~= 'table' or type(b) ~= 'table' then return a == b end\n" \
  "  if #a ~= #b then return false end\n"                                  \
  "  for i = 1, #a do if not same(a[i], b[i]) then return false end end\n" \
  "  return true\n"                                                        \
  "end\n"

/* Registers ltensor.core as a host that links ltensor statically does and runs TL_PRELUDE.
   LUA_PATH (set by ctest) finds lua/ltensor; the source tree's lua/ dir, derived from this
   file's path, is a fallback for running a test binary by hand. Exits (status 2) on failure. */
static inline void tl_load_ltensor(lua_State *L) {
  luaL_requiref(L, "ltensor.core", luaopen_ltensor_core, 0);
  lua_pop(L, 1);
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", __FILE__);
  char *cut = strstr(dir, "spec/c/test_lua.h");
  if (cut) *cut = 0;
  lua_pushstring(L, dir);
  lua_setglobal(L, "SRCDIR");
  if (!lrun(L,
            "package.path = package.path .. ';' .. SRCDIR .. 'lua/?.lua;' .. SRCDIR .. "
            "'lua/?/init.lua'") ||
      !lrun(L, TL_PRELUDE)) {
    fprintf(stderr, "cannot load ltensor in Lua: %s\n", g_msg);
    exit(2);
  }
}

#define LOK(L, code) CHECKF(lrun(L, code), "Lua: %s\n    error: %s", code, g_msg)
#define LTRUE(L, expr) CHECKF(ltrue(L, expr), "Lua: %s\n    gave: %s", expr, g_msg)
#define LERR(L, code, want)                     \
  CHECKF(!lrun(L, code) && strstr(g_msg, want), \
         "Lua: %s\n    expected an error containing '%s', got: %s", code, want, g_msg)
/* Each of the chunks (string literals after want) raises an error containing want. */
#define LERRS(L, want, ...)                                                                      \
  do {                                                                                           \
    static const char *const chunks_[] = {__VA_ARGS__};                                          \
    for (size_t i_ = 0; i_ < sizeof chunks_ / sizeof *chunks_; i_++) LERR(L, chunks_[i_], want); \
  } while (0)

#endif
