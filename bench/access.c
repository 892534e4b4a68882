/*
 * access.c -- bench_access: the cost of element access from Lua, against the floor.
 *
 * Embeds Lua 5.4 with ltensor linked statically, and defines here a minimal userdata (a float*
 * and a length, C __index/__newindex that only check the bounds) and a minimal 2-d variant with
 * get(i, j)/set(i, j, v) methods: the least a metamethod or method call can cost. The loops are
 * in bench/access.lua; this file times them: bench.time(fn) is clock_gettime(CLOCK_MONOTONIC)
 * around one call of a Lua loop, and the script keeps the best of several rounds.
 *
 * Usage: bench_access [script]   (default: the access.lua next to this file)
 * Env:   LTENSOR_BENCH_QUICK=1   small sizes, few repetitions (< 2 s)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed (1-d t[i] at most
 *                                1.2x, t[i][j] at most 2.5x the minimal userdata's x[i])
 *        LTENSOR_BENCH_RECORD    the file make bench's summary table reads (bench.record)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "ltensor.h"

#ifndef LTENSOR_SOURCE_DIR
#error "LTENSOR_SOURCE_DIR must name the source tree"
#endif

/* {====== the minimal userdata: the floor for metamethod and method access ====== */

#define MUD1 "bench.mud1"
#define MUD2 "bench.mud2"

typedef struct {
  float *p;
  lua_Integer n; /* elements (1-d), or rows (2-d) */
  lua_Integer m; /* columns (2-d) */
} mud;

static mud *mud_new(lua_State *L, lua_Integer n, lua_Integer m, const char *mt) {
  luaL_argcheck(L, n >= 0 && m >= 0 && (m == 0 || n <= (lua_Integer)(SIZE_MAX / 4) / m), 1,
                "bad size");
  mud *u = lua_newuserdatauv(L, sizeof(mud), 0);
  u->p = NULL;
  u->n = n;
  u->m = m;
  luaL_setmetatable(L, mt);
  u->p = calloc((size_t)(n * m) + 1, sizeof(float));
  if (!u->p) luaL_error(L, "out of memory");
  return u;
}

static int mud_gc(lua_State *L) {
  mud *u = lua_touserdata(L, 1);
  free(u->p);
  u->p = NULL;
  return 0;
}

/* bench.mud1(n) */
static int mud1_new(lua_State *L) {
  mud_new(L, luaL_checkinteger(L, 1), 1, MUD1);
  return 1;
}

/* The element u[i] of the mud at 1, i at 2. */
static float *mud1_at(lua_State *L) {
  mud *u = lua_touserdata(L, 1);
  int isnum;
  lua_Integer i = lua_tointegerx(L, 2, &isnum);
  if (!isnum || i < 1 || i > u->n) luaL_error(L, "index out of range");
  return u->p + (i - 1);
}

static int mud1_index(lua_State *L) {
  lua_pushnumber(L, *mud1_at(L));
  return 1;
}

static int mud1_newindex(lua_State *L) {
  *mud1_at(L) = (float)luaL_checknumber(L, 3);
  return 0;
}

/* bench.mud2(rows, cols) */
static int mud2_new(lua_State *L) {
  mud_new(L, luaL_checkinteger(L, 1), luaL_checkinteger(L, 2), MUD2);
  return 1;
}

/* The address of element (i, j) from the arguments 2 and 3; raises out of range. */
static float *mud2_at(lua_State *L) {
  mud *u = lua_touserdata(L, 1);
  int isi, isj;
  lua_Integer i = lua_tointegerx(L, 2, &isi), j = lua_tointegerx(L, 3, &isj);
  if (!isi || !isj || i < 1 || i > u->n || j < 1 || j > u->m) luaL_error(L, "index out of range");
  return u->p + (i - 1) * u->m + (j - 1);
}

static int mud2_get(lua_State *L) {
  lua_pushnumber(L, *mud2_at(L));
  return 1;
}

static int mud2_set(lua_State *L) {
  *mud2_at(L) = (float)luaL_checknumber(L, 4);
  return 0;
}

/* }====== */

/* {====== timing ====== */

/* bench.time(fn): calls fn() once and returns how long it took in this thread's CPU time, in
   ns (on a shared machine a loop that loses the CPU for a while is not charged for it). A full
   collection first keeps the garbage of one case from being collected in the time of another. */
static int bench_time(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_gc(L, LUA_GCCOLLECT);
  lua_settop(L, 1);
  double t0 = bench_cpu_ns();
  lua_call(L, 0, 0);
  lua_pushnumber(L, bench_cpu_ns() - t0);
  return 1;
}

/* bench.record(label, ours, ref, ref_name, ratio, cmp, goal): bench_record's row of
   bench_access (not threaded); cmp "" for information. */
static int bench_record_lua(lua_State *L) {
  const char *label = luaL_checkstring(L, 1);
  double ours = luaL_checknumber(L, 2), ref = luaL_checknumber(L, 3);
  const char *ref_name = luaL_checkstring(L, 4);
  double ratio = luaL_checknumber(L, 5);
  const char *cmp = luaL_checkstring(L, 6);
  double goal = luaL_optnumber(L, 7, 0);
  lua_pushboolean(L, bench_record("access", label, 0, ours, ref, ref_name, ratio, cmp, goal));
  return 1;
}

/* bench.now(): CLOCK_MONOTONIC in ns (for the total). */
static int bench_now(lua_State *L) {
  lua_pushnumber(L, bench_now_ns());
  return 1;
}

/* }====== */

static int open_bench(lua_State *L) {
  static const luaL_Reg metameth1[] = {
      {"__index", mud1_index}, {"__newindex", mud1_newindex}, {"__gc", mud_gc}, {NULL, NULL}};
  luaL_newmetatable(L, MUD1);
  luaL_setfuncs(L, metameth1, 0);
  lua_pop(L, 1);

  luaL_newmetatable(L, MUD2);
  static const luaL_Reg m2[] = {{"get", mud2_get}, {"set", mud2_set}, {NULL, NULL}};
  luaL_newlib(L, m2);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, mud_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);

  static const luaL_Reg fns[] = {{"mud1", mud1_new},   {"mud2", mud2_new},
                                 {"time", bench_time}, {"record", bench_record_lua},
                                 {"now", bench_now},   {NULL, NULL}};
  luaL_newlib(L, fns);
  lua_pushboolean(L, bench_flag("LTENSOR_BENCH_QUICK"));
  lua_setfield(L, -2, "quick");
  return 1;
}

int main(int argc, char **argv) {
  const char *script = argc > 1 ? argv[1] : LTENSOR_SOURCE_DIR "/bench/access.lua";
  lua_State *L = bench_lua_source("bench_access");
  luaL_requiref(L, "bench", open_bench, 0);
  lua_pop(L, 1);

  lua_pushcfunction(L, bench_msgh);
  int rc = luaL_loadfile(L, script);
  if (rc == LUA_OK) rc = lua_pcall(L, 0, 1, -2);
  int status = 0;
  if (rc != LUA_OK) {
    fprintf(stderr, "bench_access: %s\n", lua_tostring(L, -1));
    status = 2;
  } else if (lua_toboolean(L, -1) == 0) { /* the script returns whether the goals were met */
    if (bench_flag("LTENSOR_BENCH_STRICT")) status = 1;
  }
  lua_close(L);
  return status;
}
