/*
 * exchange.c -- bench_exchange: the cost of one DLPack exchange through the C exchange API
 * (ltensor.h: ltensor_exchange()), against the Lua-level round trip, in one process.
 *
 * Cases, each for a 1 KiB and a 256 MiB float32 tensor (equal within noise: nothing is copied):
 *   C export+import  managed_tensor_from_lua_no_sync + managed_tensor_to_lua_no_sync + lua_pop
 *   C dltensor       dltensor_from_lua_no_sync alone (a borrowed DLTensor, no allocation)
 *   Lua round trip   dlpack.from_dlpack(t:__dlpack{max_version = {1, 3}}) in a Lua loop
 * Each is timed with clock_gettime(CLOCK_MONOTONIC) around batches (rounds) of many exchanges,
 * the two sizes in turn, and the best batch is reported in ns per exchange. Two columns: "call"
 * times the calls alone, with the collector stopped during the batch; "GC incl." adds the two full
 * collections that follow every batch (they finalize and free the tensors and capsules the batch
 * dropped, deleters included), less what they cost after an empty batch. The collections keep
 * anything from piling up between batches. A "floor" row times the least a pushed Lua object
 * with a finalizer costs (a userdata with a C __gc, created and dropped); "floor+malloc" adds
 * what an exchange cannot avoid either, one malloc'd block (the managed tensor) that the
 * userdata's __gc frees. Two more rows break an exchange's import down into the steps it cannot
 * avoid: "floor+m+pcall" makes the floor+malloc object inside a lua_pcall (the import must not
 * raise into its C caller, and the userdata's allocation can), "registry get" is one lookup of a
 * light-userdata key in the registry (how a C function without upvalues finds per-state data).
 *
 * Goal: an exchange (C export+import, call) at most 1.5x the floor (call) of the same run, for
 * both sizes, printed as a PASS/MISS line that also gives the absolute ns and the GC-incl.
 * figures. Every row goes through bench_record (the goal row, and the others as information).
 *
 * Usage: bench_exchange
 * Env:   LTENSOR_BENCH_QUICK=1   fewer batches (< 2 s)
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when the goal is missed
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

#define GOAL_RATIO 1.5 /* C export+import / floor, call */
#define FLOOR_MT "bench.floor"

static const ltensor_exchange_api *api;
static volatile uintptr_t sink; /* keeps the dltensor loop from being optimized away */

static void die(lua_State *L, const char *what) {
  fprintf(stderr, "bench_exchange: %s: %s\n", what,
          lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(no message)");
  exit(2);
}

/* {====== the timed loops ====== */

enum { C_EXCHANGE, C_DLTENSOR, LUA_ROUND_TRIP, FLOOR, FLOOR_MALLOC, FLOOR_PCALL, REGISTRY, NCASES };
static const char *const case_names[] = {"C export+import", "C dltensor",   "Lua round trip",
                                         "floor",           "floor+malloc", "floor+m+pcall",
                                         "registry get"};
static const char registry_key = 0; /* what "registry get" looks up */

/* The floor+malloc object, pushed: the body of "floor+m+pcall". */
static int push_floor_malloc(lua_State *L) {
  void **p = lua_newuserdatauv(L, 16, 0);
  *p = NULL;
  luaL_setmetatable(L, FLOOR_MT);
  if (!(*p = malloc(192))) return luaL_error(L, "not enough memory");
  return 1;
}

/* n exchanges of the tensor at idx (the Lua loop is the function at fn). */
static void run_case(lua_State *L, int which, int fn, int idx, long n) {
  switch (which) {
    case C_EXCHANGE:
      for (long i = 0; i < n; i++) {
        DLManagedTensorVersioned *m;
        if (api->managed_tensor_from_lua_no_sync(L, idx, &m)) die(L, "export");
        if (api->managed_tensor_to_lua_no_sync(L, m)) die(L, "import");
        lua_pop(L, 1);
      }
      break;
    case C_DLTENSOR: {
      uintptr_t acc = 0;
      for (long i = 0; i < n; i++) {
        DLTensor d;
        if (api->dltensor_from_lua_no_sync(L, idx, &d)) die(L, "dltensor");
        acc += (uintptr_t)d.data + (uintptr_t)d.shape[0];
      }
      sink = acc;
      break;
    }
    case LUA_ROUND_TRIP:
      lua_pushvalue(L, fn);
      lua_pushvalue(L, idx);
      lua_pushinteger(L, (lua_Integer)n);
      if (lua_pcall(L, 2, 0, 0) != LUA_OK) die(L, "Lua round trip");
      break;
    case FLOOR: /* the least a pushed object with a finalizer costs: a userdata with a C __gc */
      for (long i = 0; i < n; i++) {
        void **p = lua_newuserdatauv(L, 16, 0);
        *p = NULL;
        luaL_setmetatable(L, FLOOR_MT);
        lua_pop(L, 1);
      }
      break;
    case FLOOR_MALLOC: /* the same, holding a malloc'd block its __gc frees */
      for (long i = 0; i < n; i++) {
        void **p = lua_newuserdatauv(L, 16, 0);
        *p = NULL;
        luaL_setmetatable(L, FLOOR_MT);
        if (!(*p = malloc(192))) die(L, "malloc");
        lua_pop(L, 1);
      }
      break;
    case FLOOR_PCALL: /* the same, made under lua_pcall as a protected push is */
      for (long i = 0; i < n; i++) {
        lua_pushcfunction(L, push_floor_malloc);
        if (lua_pcall(L, 0, 1, 0) != LUA_OK) die(L, "floor+m+pcall");
        lua_pop(L, 1);
      }
      break;
    default: { /* one registry lookup under a light-userdata key */
      uintptr_t acc = 0;
      for (long i = 0; i < n; i++) {
        acc += (uintptr_t)lua_rawgetp(L, LUA_REGISTRYINDEX, &registry_key);
        lua_pop(L, 1);
      }
      sink = acc;
      break;
    }
  }
}

/* One batch: n exchanges with the collector stopped (timed: *call), then two full collections,
   which finalize and free what the batch dropped (timed with it: *all). ns in total. */
static void batch(lua_State *L, int which, int fn, int idx, long n, double *call, double *all) {
  lua_gc(L, LUA_GCSTOP);
  double t0 = bench_now_ns();
  run_case(L, which, fn, idx, n);
  double t1 = bench_now_ns();
  lua_gc(L, LUA_GCRESTART);
  lua_gc(L, LUA_GCCOLLECT);
  lua_gc(L, LUA_GCCOLLECT);
  double t2 = bench_now_ns();
  *call = t1 - t0;
  *all = t2 - t0;
}

/* Best of `batches` batches of b exchanges for each of the tensors at idx[0..nidx), taken in
   turn so that both sizes see the same heap and machine state (a short batch is the likeliest to
   run undisturbed on a busy machine): ns per exchange, the call alone and with the collection of
   what it dropped (less gc0, the cost of the two collections of an empty batch). */
static void measure(lua_State *L, int which, int fn, const int *idx, int nidx, long b, int batches,
                    double gc0, double *call_ns, double *all_ns) {
  for (int i = 0; i < nidx; i++) call_ns[i] = all_ns[i] = 1e300;
  for (int k = 0; k < batches; k++)
    for (int i = 0; i < nidx; i++) {
      double c, a;
      batch(L, which, fn, idx[i], b, &c, &a);
      if (c / (double)b < call_ns[i]) call_ns[i] = c / (double)b;
      if ((a - gc0) / (double)b < all_ns[i]) all_ns[i] = (a - gc0) / (double)b;
    }
}

/* The two full collections of a batch that dropped nothing, in ns (median of 21). */
static double empty_batch_gc(lua_State *L) {
  double t[21];
  for (int i = 0; i < 21; i++) {
    double c, a;
    batch(L, C_DLTENSOR, 0, 0, 0, &c, &a);
    t[i] = a;
  }
  for (int i = 1; i < 21; i++) /* insertion sort */
    for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
      double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  return t[10];
}

static int floor_gc(lua_State *L) {
  void **p = lua_touserdata(L, 1);
  free(*p);
  *p = NULL;
  return 0;
}

/* }====== */

static const char lua_code[] =
    "local dlpack = require 'ltensor.dlpack'\n"
    "return function(t, n)\n"
    "  for _ = 1, n do dlpack.from_dlpack(t:__dlpack{max_version = {1, 3}}) end\n"
    "end\n";

int main(void) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK");
  lua_State *L = bench_lua_source("bench_exchange");
  luaL_newmetatable(L, FLOOR_MT);
  lua_pushcfunction(L, floor_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_pushboolean(L, 1); /* the value "registry get" finds */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &registry_key);

  /* the table, as a consumer finds it: through a tensor's metatable */
  if (luaL_dostring(L, "return require('ltensor').zeros(1)")) die(L, "require ltensor");
  if (luaL_getmetafield(L, -1, "__dlpack_c_exchange_api") != LUA_TLIGHTUSERDATA)
    die(L, "no __dlpack_c_exchange_api");
  api = lua_touserdata(L, -1);
  lua_pop(L, 2);
  if (api != ltensor_exchange() || api->header.version.major != 1) die(L, "unexpected table");
  if (luaL_loadstring(L, lua_code) || lua_pcall(L, 0, 1, 0)) die(L, "Lua loop");
  int fn = lua_gettop(L);

  /* exchanges per batch (the dltensor view allocates nothing: longer batches), batches */
  const long b[NCASES] = {2000, 20000, 2000, 2000, 2000, 2000, 20000};
  const int batches = quick ? 10 : 100;
  struct {
    const char *label, *make;
    double call[NCASES], all[NCASES];
  } sizes[] = {
      {"1 KiB", "return require('ltensor').zeros(256)", {0}, {0}},
      {"256 MiB", "return require('ltensor').zeros(64 * 1024 * 1024)", {0}, {0}},
  };

  double t_start = bench_now_ns();
  double gc0 = empty_batch_gc(L);
  int idx[2];
  for (int s = 0; s < 2; s++) {
    if (luaL_dostring(L, sizes[s].make)) die(L, "making the tensor");
    idx[s] = lua_gettop(L);
  }
  for (int c = 0; c < NCASES; c++) {
    double call[2], all[2];
    measure(L, c, fn, idx, 2, b[c], 2, gc0, call, all); /* warm-up */
    measure(L, c, fn, idx, 2, b[c], batches, gc0, call, all);
    for (int s = 0; s < 2; s++) {
      sizes[s].call[c] = call[s];
      sizes[s].all[c] = all[s];
    }
  }
  lua_pop(L, 2);
  lua_gc(L, LUA_GCCOLLECT);
  double total_s = (bench_now_ns() - t_start) / 1e9;

  printf(
      "bench_exchange: one DLPack exchange of a float32 tensor through the C exchange API, "
      "ns per exchange\n"
      "  (best of %d batches of %ld (dltensor: %ld); 'call': the calls alone; 'GC incl.': "
      "also the two full collections after each batch that finalize and free what it "
      "dropped, less the %.1f us they take after an empty batch%s)\n",
      batches, b[C_EXCHANGE], b[C_DLTENSOR], gc0 / 1e3, quick ? "; quick" : "");
  printf("  %-16s %-8s %9s %9s  %s\n", "case", "size", "call", "GC incl.",
         "Lua round trip / case (call, GC incl.)");
  for (int c = 0; c < NCASES; c++)
    for (int s = 0; s < 2; s++)
      printf("  %-16s %-8s %9.1f %9.1f  %6.1fx %6.1fx\n", case_names[c], sizes[s].label,
             sizes[s].call[c], sizes[s].all[c], sizes[s].call[LUA_ROUND_TRIP] / sizes[s].call[c],
             sizes[s].all[LUA_ROUND_TRIP] / sizes[s].all[c]);
  printf("  zero copy, 256 MiB / 1 KiB (call):");
  for (int c = 0; c < FLOOR; c++)
    printf(" %s %.2f%s", case_names[c], sizes[1].call[c] / sizes[0].call[c],
           c + 1 < FLOOR ? "," : "\n");
  double worst = 0, worst_ns = 0, worst_all = 0, worst_all_ratio = 0;
  for (int s = 0; s < 2; s++) {
    double r = sizes[s].call[C_EXCHANGE] / sizes[s].call[FLOOR];
    double ra = sizes[s].all[C_EXCHANGE] / sizes[s].all[FLOOR];
    if (r > worst) worst = r;
    if (ra > worst_all_ratio) worst_all_ratio = ra;
    if (sizes[s].call[C_EXCHANGE] > worst_ns) worst_ns = sizes[s].call[C_EXCHANGE];
    if (sizes[s].all[C_EXCHANGE] > worst_all) worst_all = sizes[s].all[C_EXCHANGE];
  }
  int pass = worst <= GOAL_RATIO;
  for (int s = 0; s < 2; s++) {
    char label[64];
    for (int c = 0; c < NCASES; c++) {
      if (c == FLOOR) continue;
      snprintf(label, sizeof label, "%s (call), %s", case_names[c], sizes[s].label);
      double ours = sizes[s].call[c], fl = sizes[s].call[FLOOR];
      bench_record("bench_exchange", label, 0, ours, fl, "floor", ours / fl,
                   c == C_EXCHANGE ? "<=" : "", GOAL_RATIO);
    }
    snprintf(label, sizeof label, "C export+import (call) against floor+malloc, %s",
             sizes[s].label);
    bench_record("bench_exchange", label, 0, sizes[s].call[C_EXCHANGE], sizes[s].call[FLOOR_MALLOC],
                 "floor+malloc", sizes[s].call[C_EXCHANGE] / sizes[s].call[FLOOR_MALLOC], "", 0);
    snprintf(label, sizeof label, "C export+import (GC incl.), %s", sizes[s].label);
    bench_record("bench_exchange", label, 0, sizes[s].all[C_EXCHANGE], sizes[s].all[FLOOR], "floor",
                 sizes[s].all[C_EXCHANGE] / sizes[s].all[FLOOR], "", 0);
  }
  printf(
      "goal: C export+import (call) at most %.1fx the floor: %s (%.2fx, worst of 1 KiB and "
      "256 MiB; %.1f ns against %.1f ns; with the collection of the imported tensor %.1f ns, "
      "%.2fx the floor's; %.1fx faster than the Lua round trip) [%.1f s]\n",
      GOAL_RATIO, pass ? "PASS" : "MISS", worst, worst_ns, sizes[0].call[FLOOR], worst_all,
      worst_all_ratio, sizes[0].call[LUA_ROUND_TRIP] / sizes[0].call[C_EXCHANGE], total_s);
  lua_close(L);
  return !pass && bench_flag("LTENSOR_BENCH_STRICT") ? 1 : 0;
}
