/*
 * test_host_memory.c -- the collector sees memory a host pushes, and a host caps it.
 *
 * A host loop hands a script fresh 4 MiB buffers (owning managed tensors, legacy ones and
 * borrowed memory, in turn) which the script uses and drops, without anyone calling
 * collectgarbage; then a frame loop lends one 4 MiB frame buffer at a time (revoked at the end
 * of each frame) to a script that computes `fb * 0.5 + 1`. Both run in a state whose collector
 * is incremental and in one that is generational (as lua5.4's own is): before ltensor's memory
 * account ran full collections, a generational host's frame loop grew to 2.2 GiB. Checked: the
 * most buffers alive at once and the most tensor memory in use (ltensor_memory_used) stay
 * small, and in the plain build everything runs under RLIMIT_AS (the current address space
 * plus 512 MiB). Sanitizers reserve terabytes of address space: there the cap is not set.
 * Then the budget: ltensor_set_memory_limit, what a script may and may not do to it, and a
 * push that would pass it.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ltensor.h"
#include "test_lua.h"
#include "test_managed.h"
#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define BUF_BYTES ((size_t)4 << 20)
#define ROUNDS 600
#define FRAMES 600
#define MAX_LIVE 48 /* 192 MiB: without the charge all ROUNDS buffers stay alive */

static long g_live, g_max_live, g_freed;
static int64_t g_shape[1] = {BUF_BYTES / sizeof(float)};

typedef struct {
  DLManagedTensorVersioned v; /* or the legacy header, which is smaller */
  DLManagedTensor l;
  float *data;
} host_buf;

static void buf_gone(void) {
  g_live--;
  g_freed++;
}

static void del_v(DLManagedTensorVersioned *m) {
  host_buf *b = m->manager_ctx;
  free(b->data);
  free(b);
  buf_gone();
}

static void del_l(DLManagedTensor *m) {
  host_buf *b = m->manager_ctx;
  free(b->data);
  free(b);
  buf_gone();
}

static void release_borrowed(void *ctx) {
  free(ctx);
  buf_gone();
}

/* A fresh buffer, counted live; NULL when the address space ran out. */
static float *new_data(void) {
  float *p = malloc(BUF_BYTES);
  if (!p) return NULL;
  p[0] = 1.0f;
  if (++g_live > g_max_live) g_max_live = g_live;
  return p;
}

/* Pushes buffer i the way i selects; 0 on success. */
static int push(lua_State *L, int i) {
  float *data = new_data();
  if (!data) return -1;
  DLTensor d = tm_desc(data, dt_of(kDLFloat, 32, 1), 1, g_shape, NULL);
  if (i % 3 == 2) return ltensor_push_borrowed(L, &d, 0, release_borrowed, data, NULL);
  host_buf *b = malloc(sizeof *b);
  if (!b) {
    free(data);
    g_live--;
    return -1;
  }
  b->data = data;
  if (i % 3 == 0) {
    tm_manage(&b->v, 1, d, b, del_v, NULL, 0);
    return ltensor_push_managed(L, &b->v);
  }
  tm_manage(&b->l, 0, d, b, NULL, del_l, 0);
  return ltensor_push_managed_legacy(L, &b->l);
}

static void cap_address_space(void) {
  if (SANITIZED) return;
  long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld", &pages) != 1) pages = 0;
    fclose(f);
  }
  if (pages <= 0) return;
  struct rlimit r;
  if (getrlimit(RLIMIT_AS, &r) != 0) return;
  rlim_t cap = (rlim_t)pages * 4096 + ((rlim_t)512 << 20);
  if (r.rlim_max != RLIM_INFINITY && cap > r.rlim_max) cap = r.rlim_max;
  r.rlim_cur = cap;
  CHECK(setrlimit(RLIMIT_AS, &r) == 0);
}

/* A state with ltensor, its collector in mode (LUA_GCINC or LUA_GCGEN). */
static lua_State *new_state(int mode) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_gc(L, mode, 0, 0);
  CHECK(ltensor_open(L) == LTENSOR_OK);
  CHECK(lrun(L,
             "lt = require 'ltensor'\n"
             "function use(t) t[1] = t[1] + 1; return t[1] end\n"
             "function frame(fb) local y = fb * 0.5 + 1; return y[1] + y[#y] end"));
  return L;
}

/* Pushed buffers the script drops: ROUNDS of them, at most MAX_LIVE alive at once. */
static void push_loop(lua_State *L, const char *mode) {
  int done = 0;
  g_max_live = 0;
  for (int i = 0; i < ROUNDS; i++) {
    lua_getglobal(L, "use");
    if (push(L, i) != LTENSOR_OK) {
      CHECKF(0, "%s, round %d: the push failed (%ld buffers alive): %s", mode, i, g_live,
             lua_tostring(L, -1));
      break;
    }
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_tonumber(L, -1) != 2.0) {
      CHECKF(0, "%s, round %d: %s", mode, i, lua_tostring(L, -1));
      break;
    }
    lua_pop(L, 1); /* the script dropped the tensor: only the collector can free it */
    done++;
  }
  CHECK(done == ROUNDS);
  CHECKF(g_max_live <= MAX_LIVE, "%s: %ld buffers of 4 MiB were alive at once (at most %d)", mode,
         g_max_live, MAX_LIVE);
  printf("test_host_memory: %s, %d pushes, at most %ld buffers alive at once\n", mode, done,
         g_max_live);
}

/* One frame buffer lent per frame and revoked after it; the script's temporaries (two 4 MiB
   results a frame) must not pile up: at most MAX_LIVE buffers' worth of tensor memory. */
static void frame_loop(lua_State *L, const char *mode) {
  float *fb = malloc(BUF_BYTES);
  CHECK(fb != NULL);
  if (!fb) return;
  for (size_t i = 0; i < BUF_BYTES / sizeof(float); i++) fb[i] = 2.0f;
  DLTensor d = tm_desc(fb, dt_of(kDLFloat, 32, 1), 1, g_shape, NULL);
  int done = 0;
  for (int i = 0; i < FRAMES; i++) {
    ltensor_lease *lease;
    lua_getglobal(L, "frame");
    if (ltensor_push_borrowed(L, &d, LTENSOR_READ_ONLY, NULL, NULL, &lease) != LTENSOR_OK) {
      CHECKF(0, "%s, frame %d: %s", mode, i, lua_tostring(L, -1));
      break;
    }
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_tonumber(L, -1) != 4.0) {
      CHECKF(0, "%s, frame %d: %s", mode, i, lua_tostring(L, -1));
      ltensor_revoke_lease(lease);
      break;
    }
    lua_pop(L, 1);
    ltensor_revoke_lease(lease); /* the end of the frame */
    done++;
  }
  free(fb);
  lua_Integer peak = lint(L, "lt.config().memory_peak"); /* the most in use at once, ever */
  CHECK(done == FRAMES);
  CHECKF(peak > 0 && peak <= (lua_Integer)MAX_LIVE * (lua_Integer)BUF_BYTES,
         "%s: %lld MiB of tensor memory in use at once (at most %d)", mode, (long long)(peak >> 20),
         MAX_LIVE * 4);
  printf("test_host_memory: %s, %d frames, at most %lld MiB of tensors in use\n", mode, done,
         (long long)(peak >> 20));
}

/* The budget a host sets: scripts read it, may lower it, never raise it; a tensor or a push
   that would pass it fails before its memory is taken, its deleter run once. */
static void budget(void) {
  lua_State *L = new_state(LUA_GCGEN);
  CHECK(ltensor_memory_used(L) == 0);
  CHECK(ltensor_set_memory_limit(L, (int64_t)64 << 20) == LTENSOR_OK);
  LTRUE(L, "lt.config().memory_limit == 64 * 2^20");
  LOK(L, "keep = lt.ones(4 * 2^20)"); /* 16 MiB */
  CHECK(ltensor_memory_used(L) == (int64_t)16 << 20);
  LERR(L, "lt.ones(16 * 2^20)", "not enough memory (budget 67108864 bytes");
  LERR(L, "lt.config{memory_limit = 65 * 2^20}", "above the budget the host set");
  LERR(L, "lt.config{memory_limit = false}", "above the budget the host set");
  LOK(L, "lt.config{memory_limit = 32 * 2^20}");
  LTRUE(L, "lt.config().memory_limit == 32 * 2^20");
  LERR(L, "lt.ones(5 * 2^20)", "not enough memory (budget 33554432 bytes"); /* 16 + 20 > 32 */
  LOK(L, "lt.config{memory_limit = 48 * 2^20}"); /* up again, below the host's */
  LOK(L, "lt.ones(5 * 2^20)");
  /* a push past the budget: refused, the deleter runs once, nothing stays charged */
  LOK(L, "lt.config{memory_limit = 17 * 2^20}");
  long freed = g_freed;
  int rc = push(L, 0);
  CHECK(rc == LTENSOR_ERRARG);
  CHECKF(rc != LTENSOR_OK && strstr(lua_tostring(L, -1), "budget"), "%s", lua_tostring(L, -1));
  if (rc != LTENSOR_OK) lua_pop(L, 1);
  CHECK(g_freed == freed + 1 && g_live == 0);
  LOK(L, "keep = nil; collectgarbage()");
  CHECK(ltensor_memory_used(L) == 0);
  CHECK(ltensor_set_memory_limit(L, -1) == LTENSOR_OK); /* off */
  LTRUE(L, "lt.config().memory_limit == nil");
  LOK(L, "lt.config{memory_limit = 2^40}");
  lua_close(L);
  CHECK(g_live == 0);
}

int main(void) {
  cap_address_space();
  static const struct {
    int mode;
    const char *name;
  } modes[] = {{LUA_GCINC, "incremental"}, {LUA_GCGEN, "generational"}};
  for (int m = 0; m < 2; m++) {
    lua_State *L = new_state(modes[m].mode);
    long freed = g_freed;
    push_loop(L, modes[m].name);
    frame_loop(L, modes[m].name);
    lua_close(L);
    CHECK(g_live == 0 && g_freed - freed == ROUNDS);
  }
  budget();
  return tu_finish("test_host_memory");
}
