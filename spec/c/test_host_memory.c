/*
 * test_host_memory.c -- the collector sees memory a host pushes: a host loop hands a script
 * fresh 4 MiB buffers (owning managed tensors, legacy ones and borrowed memory, in turn) which
 * the script uses and drops, without anyone calling collectgarbage. Before ltensor charged
 * pushed and imported memory to the collector, the dropped tensors piled up (their deleters
 * had not run after 126 of them, when a 512 MiB address-space cap stopped the host); ltensor's
 * own tensors in the same loop stay bounded (spec/memory_spec.lua). Checked: the most buffers
 * alive at once stays small, and in the plain build the loop runs under RLIMIT_AS (the current
 * address space plus 512 MiB). Sanitizers reserve terabytes of address space: there the cap is
 * not set, and the count of live buffers alone decides.
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

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK(ltensor_open(L) == LTENSOR_OK);
  CHECK(lrun(L,
             "lt = require 'ltensor'\n"
             "function use(t) t[1] = t[1] + 1; return t[1] end"));
  cap_address_space();
  int done = 0;
  for (int i = 0; i < ROUNDS; i++) {
    lua_getglobal(L, "use");
    if (push(L, i) != LTENSOR_OK) {
      CHECKF(0, "round %d: the push failed (%ld buffers alive)", i, g_live);
      break;
    }
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_tonumber(L, -1) != 2.0) {
      CHECKF(0, "round %d: %s", i, lua_tostring(L, -1));
      break;
    }
    lua_pop(L, 1); /* the script dropped the tensor: only the collector can free it */
    done++;
  }
  CHECK(done == ROUNDS);
  CHECKF(g_max_live <= MAX_LIVE, "%ld buffers of 4 MiB were alive at once (at most %d)", g_max_live,
         MAX_LIVE);
  lua_close(L);
  CHECK(g_live == 0 && g_freed == done);
  printf("test_host_memory: %d rounds, at most %ld buffers alive at once\n", done, g_max_live);
  return tu_finish("test_host_memory");
}
