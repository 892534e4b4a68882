/*
 * test_lua.h -- running Lua from the C tests that embed it: a chunk, the truth of an
 * expression, an integer, and CHECK-style macros that print the Lua error or result.
 * Include after test_util.h. The last message or result is in g_msg (per thread: some tests
 * run states on several threads).
 */
#ifndef TEST_LUA_H
#define TEST_LUA_H

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

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

#define LOK(L, code) CHECKF(lrun(L, code), "Lua: %s\n    error: %s", code, g_msg)
#define LTRUE(L, expr) CHECKF(ltrue(L, expr), "Lua: %s\n    gave: %s", expr, g_msg)
#define LERR(L, code, want)                     \
  CHECKF(!lrun(L, code) && strstr(g_msg, want), \
         "Lua: %s\n    expected an error containing '%s', got: %s", code, want, g_msg)

#endif
