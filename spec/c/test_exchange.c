/*
 * test_exchange.c -- the DLPack C exchange API for Lua (ltensor.h: ltensor_exchange() and
 * ltensor_exchange_const()), from C as a consumer library would call it: the tables found through
 * a tensor's or a wrapper's metatable and by indexing, owning exports (regular and const, views,
 * 0-d, empty, copy-on-write clones, read-only tensors, wrappers), imports (sharing, read-only
 * through the const table, a bad version, NULL, an invalid tensor, out of memory), non-owning
 * DLTensor views, the error returns on values that are not tensors, the allocator and the work
 * stream. Every call is made outside any pcall: a Lua error raised into the caller would reach
 * the panic handler, which reports it and aborts. Managed tensors made here have a counting
 * deleter that frees what the test allocated, so that a leak or a double free shows under ASan.
 */
#define _POSIX_C_SOURCE 200809L

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltensor.h"
#include "test_lua.h"
#include "test_managed.h"
#include "test_util.h"

static const ltensor_exchange_api *REG, *CONST;
#define API(k) ((k) ? CONST : REG) /* k = 0: the regular table, 1: the const one */

/* {====== Lua helpers ====== */

/* Every exchange call runs outside a pcall: an error raised into the caller lands here. */
static int panic(lua_State *L) {
  const char *s = lua_tostring(L, -1);
  fprintf(stderr, "test_exchange: a Lua error was raised into the C caller (unprotected): %s\n",
          s ? s : "(not a string)");
  fflush(stderr);
  abort();
  return 0;
}

/* Lua allocations made through the state's allocator, and a switch that makes every growing
   allocation fail (shrinking and freeing always work, as Lua requires). */
static long g_lua_allocs;
static int g_alloc_fail;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (!ptr || nsize > osize) {
    if (g_alloc_fail) return NULL;
    g_lua_allocs++;
  }
  return realloc(ptr, nsize);
}

/* A state with ltensor.core registered as a host that links ltensor statically does, and the
   globals lt and dlpack (tl_load_ltensor). */
static lua_State *new_state(void) {
  lua_State *L = lua_newstate(counting_alloc, NULL);
  if (!L) abort();
  lua_atpanic(L, panic);
  luaL_openlibs(L);
  tl_load_ltensor(L);
  return L;
}

/* Pushes the global `name`; returns its absolute index. */
static int push_global(lua_State *L, const char *name) {
  lua_getglobal(L, name);
  return lua_gettop(L);
}

/* Pops the value on top into the global `name`. */
static void set_global(lua_State *L, const char *name) { lua_setglobal(L, name); }

static void *addr(lua_State *L, const char *expr) { return (void *)(intptr_t)lint(L, expr); }

/* }====== */

/* {====== hand-built managed tensors with a counting deleter ====== */

static long g_created;
static int g_deleted;

/* A 1-d float32 CPU tensor {0, 1, ..., n-1}, version major.3, the given flags. */
static DLManagedTensorVersioned *mk(int n, uint32_t major, uint64_t flags) {
  tm_block *b = tm_block_new((size_t)n * sizeof(float), &g_deleted);
  g_created++;
  float *data = b->data;
  for (int i = 0; i < n; i++) data[i] = (float)i;
  b->shape[0] = n;
  tm_manage(&b->m, 1, tm_desc(b->data, dt_of(kDLFloat, 32, 1), 1, b->shape, NULL), b,
            tm_block_delete, NULL, flags);
  b->m.version.major = major;
  return &b->m;
}

static int is_f32(DLDataType d) { return d.code == kDLFloat && d.bits == 32 && d.lanes == 1; }

/* The top of the stack is a string containing want (NULL: any string). */
static int top_msg(lua_State *L, const char *want) {
  if (lua_type(L, -1) != LUA_TSTRING) {
    snprintf(g_msg, sizeof g_msg, "(a %s, not a string)", luaL_typename(L, -1));
    return 0;
  }
  snprintf(g_msg, sizeof g_msg, "%s", lua_tostring(L, -1));
  return !want || strstr(g_msg, want) != NULL;
}

/* }====== */

/* {====== the tables ====== */

static void check_header(const char *what, const ltensor_exchange_api *api) {
  CHECKF(api != NULL, "%s: NULL table", what);
  if (!api) return;
  CHECKF(api->header.version.major == 1 && api->header.version.minor == 3,
         "%s: header version %u.%u, expected 1.3", what, (unsigned)api->header.version.major,
         (unsigned)api->header.version.minor);
  CHECKF(api->header.prev_api == NULL, "%s: prev_api is not NULL", what);
  CHECKF(api->managed_tensor_allocator && api->managed_tensor_from_lua_no_sync &&
             api->managed_tensor_to_lua_no_sync && api->dltensor_from_lua_no_sync &&
             api->current_work_stream,
         "%s: a NULL function", what);
}

/* The light userdata field `__dlpack_c_exchange_api` of the value at idx, found through its
   metatable (how == 0) or by indexing the value (how == 1); NULL when it is not one. */
static const void *api_of(lua_State *L, int idx, int how) {
  int top = lua_gettop(L);
  int tt = how == 0 ? luaL_getmetafield(L, idx, "__dlpack_c_exchange_api")
                    : lua_getfield(L, idx, "__dlpack_c_exchange_api");
  const void *p = tt == LUA_TLIGHTUSERDATA ? lua_touserdata(L, -1) : NULL;
  lua_settop(L, top);
  return p;
}

static void test_tables(void) {
  REG = ltensor_exchange();
  CONST = ltensor_exchange_const();
  check_header("ltensor_exchange()", REG);
  check_header("ltensor_exchange_const()", CONST);
  CHECK(REG != CONST);
  CHECK(ltensor_exchange() == REG && ltensor_exchange_const() == CONST); /* static */

  lua_State *L = new_state();
  LOK(L,
      "t = lt.zeros(2, 3); w = dlpack.ReadOnlyTensorWrapper(t)\n"
      "v = t:transpose(1, 2); r = dlpack.from_dlpack(w)\n"
      "ww = dlpack.ReadOnlyTensorWrapper(w)");
  int top = lua_gettop(L);
  int t = push_global(L, "t"), w = push_global(L, "w");
  CHECK(luaL_getmetafield(L, t, "__dlpack_c_exchange_api") == LUA_TLIGHTUSERDATA);
  lua_pop(L, 1);
  CHECK(api_of(L, t, 0) == REG);
  CHECK(api_of(L, t, 1) == REG);
  CHECK(api_of(L, w, 0) == CONST);
  CHECK(api_of(L, w, 1) == CONST);
  CHECK(api_of(L, -1, 1) == CONST); /* relative indices work too */
  lua_pop(L, 2);
  /* views, imports (read-only ones too) and wrappers of wrappers */
  const char *regular[] = {"v", "r"};
  for (int i = 0; i < 2; i++) {
    int v = push_global(L, regular[i]);
    CHECKF(api_of(L, v, 0) == REG && api_of(L, v, 1) == REG, "%s", regular[i]);
    lua_pop(L, 1);
  }
  int ww = push_global(L, "ww");
  CHECK(api_of(L, ww, 0) == CONST && api_of(L, ww, 1) == CONST);
  lua_pop(L, 1);
  /* scripts see the same values */
  LTRUE(L, "t.__dlpack_c_exchange_api == lt.zeros(1).__dlpack_c_exchange_api");
  LTRUE(L, "w.__dlpack_c_exchange_api ~= t.__dlpack_c_exchange_api");
  LTRUE(L, "type(t.__dlpack_c_exchange_api) == 'userdata'");
  CHECK(lua_gettop(L) == top);
  lua_close(L);
}

/* }====== */

/* {====== owning exports ====== */

/* The tensors that the export and view tests take apart: float32 t (2, 3), its transpose tt,
   row (t's 2nd row, an offset view) and col (its 2nd column, strided), a 0-d s, an empty e; and
   their shapes and strides in elements. */
static const char VIEWS[] =
    "t = lt.arange(6, 'float32'):view(2, 3)\n"
    "tt = t:transpose(1, 2)\n"
    "row = t[2]\n"
    "col = t[{{}, 2}]\n"
    "s = lt.tensor(5.5)\n"
    "e = lt.zeros(0, 3)";
static int64_t sh23[] = {2, 3}, st23[] = {3, 1}, sh32[] = {3, 2}, st32[] = {1, 3}, sh3[] = {3},
               st1[] = {1}, sh2[] = {2}, st3[] = {3}, sh03[] = {0, 3};

/* managed_tensor_from_lua_no_sync on the value at idx: checks rc 0, the stack balance and
   that the call made no Lua allocation; returns the managed tensor (NULL on failure). */
static DLManagedTensorVersioned *export_at(lua_State *L, const ltensor_exchange_api *api, int idx) {
  DLManagedTensorVersioned *m = NULL;
  int top = lua_gettop(L);
  long allocs = g_lua_allocs;
  int rc = api->managed_tensor_from_lua_no_sync(L, idx, &m);
  CHECKF(rc == 0, "managed_tensor_from_lua_no_sync returned %d (%s)", rc,
         rc ? lua_tostring(L, -1) : "");
  CHECKF(lua_gettop(L) == top, "stack %d -> %d", top, lua_gettop(L));
  CHECKF(g_lua_allocs == allocs, "the export made %ld Lua allocations", g_lua_allocs - allocs);
  if (rc) {
    lua_settop(L, top);
    return NULL;
  }
  CHECK(m != NULL);
  return m;
}

/* export_at on the Lua global name. */
static DLManagedTensorVersioned *export_global(lua_State *L, const ltensor_exchange_api *api,
                                               const char *name) {
  push_global(L, name);
  DLManagedTensorVersioned *m = export_at(L, api, -1);
  lua_pop(L, 1);
  return m;
}

/* Checks the versioned managed tensor m against what the tensor `expr` says. */
static void check_managed(lua_State *L, const char *what, DLManagedTensorVersioned *m,
                          const char *expr, uint64_t flags, int ndim, const int64_t *shape,
                          const int64_t *strides, int empty) {
  if (!m) return;
  char buf[256];
  snprintf(buf, sizeof buf, "%s:const_data_ptr()", expr);
  void *data = addr(L, buf);
  const DLTensor *d = &m->dl_tensor;
  CHECKF(m->version.major == 1 && m->version.minor == 3, "%s: version %u.%u", what,
         (unsigned)m->version.major, (unsigned)m->version.minor);
  CHECKF(m->flags == flags, "%s: flags %llu, expected %llu", what, (unsigned long long)m->flags,
         (unsigned long long)flags);
  CHECKF(m->deleter != NULL, "%s: no deleter", what);
  CHECKF(d->data && (empty || d->data == data), "%s: data %p, tensor's %p", what, d->data, data);
  CHECKF(d->byte_offset == 0, "%s: byte_offset %llu", what, (unsigned long long)d->byte_offset);
  CHECKF(d->device.device_type == kDLCPU && d->device.device_id == 0, "%s: device", what);
  CHECKF(is_f32(d->dtype), "%s: dtype", what);
  CHECKF(d->ndim == ndim, "%s: ndim %d, expected %d", what, (int)d->ndim, ndim);
  if (d->ndim == ndim && ndim > 0) {
    CHECKF(d->shape && dims_eq(d->shape, shape, ndim), "%s: shape", what);
    CHECKF(d->strides && dims_eq(d->strides, strides, ndim), "%s: strides", what);
  }
}

/* Global `name` of L exported through api (apiname) and checked (check_managed; label says what
   it is); the export, which the caller frees. */
static DLManagedTensorVersioned *export_checked(lua_State *L, const ltensor_exchange_api *api,
                                                const char *apiname, const char *name,
                                                const char *label, uint64_t fl, int ndim,
                                                const int64_t *shape, const int64_t *strides,
                                                int empty) {
  char what[64];
  snprintf(what, sizeof what, "%s: %s", apiname, label);
  push_global(L, name);
  DLManagedTensorVersioned *m = export_at(L, api, -1);
  check_managed(L, what, m, name, fl, ndim, shape, strides, empty);
  lua_pop(L, 1);
  return m;
}

static void test_export(void) {
  lua_State *L = new_state();
  LOK(L, VIEWS);
  int top = lua_gettop(L);
  for (int k = 0; k < 2; k++) {
    const ltensor_exchange_api *api = API(k);
    uint64_t fl = k ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
    const char *name = k ? "const" : "regular";
    char what[64];

    int t = push_global(L, "t");
    snprintf(what, sizeof what, "%s: t", name);
    DLManagedTensorVersioned *m = export_at(L, api, t);
    check_managed(L, what, m, "t", fl, 2, sh23, st23, 0);
    DLManagedTensorVersioned *m2 = export_at(L, api, -1); /* a relative index */
    check_managed(L, what, m2, "t", fl, 2, sh23, st23, 0);
    if (m && m2) {
      CHECK(m != m2 && m->dl_tensor.shape != m2->dl_tensor.shape); /* each owns its dims */
      CHECK(((float *)m->dl_tensor.data)[4] == 4.0f);
    }
    if (m2) m2->deleter(m2);
    lua_pop(L, 1);

    DLManagedTensorVersioned *mt =
        export_checked(L, api, name, "tt", "transposed", fl, 2, sh32, st32, 0);
    if (mt) mt->deleter(mt);
    DLManagedTensorVersioned *mr =
        export_checked(L, api, name, "row", "a row (offset view)", fl, 1, sh3, st1, 0);
    if (mr && m) {
      CHECK((char *)mr->dl_tensor.data == (char *)m->dl_tensor.data + 3 * sizeof(float));
      CHECK(((float *)mr->dl_tensor.data)[0] == 3.0f);
    }
    if (mr) mr->deleter(mr);
    DLManagedTensorVersioned *ms = export_checked(L, api, name, "s", "0-d", fl, 0, NULL, NULL, 0);
    if (ms) {
      CHECK(ms->dl_tensor.data && *(float *)ms->dl_tensor.data == 5.5f);
      ms->deleter(ms);
    }
    DLManagedTensorVersioned *me = export_checked(L, api, name, "e", "empty", fl, 2, sh03, st23, 1);
    if (me) me->deleter(me);

    /* the export shares memory both ways, and keeps it alive after the tensor is collected */
    if (m && !k) {
      ((float *)m->dl_tensor.data)[1] = 42.0f;
      LTRUE(L, "t[1][2] == 42");
      LOK(L, "t[2][3] = -7");
      CHECK(((float *)m->dl_tensor.data)[5] == -7.0f);
    }
    if (m) {
      LOK(L, "keep = lt.tensor({0, 2, 4}, 'float32'):view(3, 1)");
      DLManagedTensorVersioned *mk2 = export_global(L, api, "keep");
      LOK(L, "keep = nil; collectgarbage(); collectgarbage()");
      if (mk2) {
        float *p = mk2->dl_tensor.data;
        CHECK(p[0] == 0.0f && p[1] == 2.0f && p[2] == 4.0f); /* ASan: no use after free */
        mk2->deleter(mk2);                                   /* ASan: freed once, no leak */
      }
      m->deleter(m);
    }
  }
  LOK(L, "t[1][2] = 1; t[2][3] = 5");
  CHECK(lua_gettop(L) == top);

  /* an export outlives its state */
  LOK(L, "big = lt.arange(1000, 'float32')");
  push_global(L, "big");
  DLManagedTensorVersioned *mb = export_at(L, REG, -1);
  DLManagedTensorVersioned *mbc = export_at(L, CONST, -1);
  lua_close(L);
  if (mb && mbc) {
    CHECK(((float *)mb->dl_tensor.data)[999] == 999.0f);
    CHECK(mbc->dl_tensor.data == mb->dl_tensor.data);
    mb->deleter(mb);
    CHECK(((float *)mbc->dl_tensor.data)[998] == 998.0f);
    mbc->deleter(mbc);
  }
}

/* Read-only tensors and wrappers export READ_ONLY through both tables. */
static void test_export_read_only(void) {
  lua_State *L = new_state();
  LOK(L,
      "t = lt.arange(4, 'float32')\n"
      "w = dlpack.ReadOnlyTensorWrapper(t)\n"
      "ww = dlpack.ReadOnlyTensorWrapper(w)\n"
      "r = dlpack.from_dlpack(w)\n"
      "rc = dlpack.from_dlpack(w:__dlpack{max_version = {1, 3}})\n"
      "rv = r:view(2, 2)");
  int64_t sh4[] = {4}, sh22[] = {2, 2}, st21[] = {2, 1};
  const char *names[] = {"w", "ww", "r", "rc", "rv"};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 5; i++) {
      char what[64];
      snprintf(what, sizeof what, "%s: %s", k ? "const" : "regular", names[i]);
      push_global(L, names[i]);
      DLManagedTensorVersioned *m = export_at(L, API(k), -1);
      int is_view = i == 4;
      /* wrappers print their tensor; their data is t's */
      check_managed(L, what, m, i < 2 ? "t" : names[i], DLPACK_FLAG_BITMASK_READ_ONLY,
                    is_view ? 2 : 1, is_view ? sh22 : sh4, is_view ? st21 : st1, 0);
      if (m) {
        CHECKF(m->dl_tensor.data == addr(L, "t:const_data_ptr()"), "%s shares t's memory", what);
        m->deleter(m);
      }
      lua_pop(L, 1);
    }
  /* a read-only export of a wrapper, imported: sees later writes to t */
  DLManagedTensorVersioned *m = export_global(L, REG, "w");
  if (m) {
    LOK(L, "t[3] = 33");
    CHECK(((float *)m->dl_tensor.data)[2] == 33.0f);
    int top = lua_gettop(L);
    CHECK(REG->managed_tensor_to_lua_no_sync(L, m) == 0);
    CHECK(lua_gettop(L) == top + 1);
    set_global(L, "back");
    LTRUE(L, "back:is_read_only() and back[3] == 33");
    LTRUE(L, "back:const_data_ptr() == t:const_data_ptr()");
    LERR(L, "back[1] = 1", "read-only");
  }
  lua_close(L);
}

/* m (deleted here; NULL: a failed export, already counted) is a read-only export of shared, which
   the Lua tensor name still holds: no copy was made. */
static void read_only_shared(lua_State *L, DLManagedTensorVersioned *m, const char *name,
                             void *shared) {
  if (!m) return;
  char expr[64];
  snprintf(expr, sizeof expr, "%s:const_data_ptr()", name);
  CHECK(m->flags == DLPACK_FLAG_BITMASK_READ_ONLY);
  CHECK(m->dl_tensor.data == shared);
  CHECKF(addr(L, expr) == shared, "%s", expr);
  m->deleter(m);
}

/* Copy-on-write clones: the regular table gives the clone its own memory first; the const
   table and wrappers never do. */
static void test_export_cow(void) {
  lua_State *L = new_state();
  LOK(L,
      "src = lt.arange(4, 'float32')\n"
      "c1, c2, c3, c4, c5 = src:clone(), src:clone(), src:clone(), src:clone(), src:clone()\n"
      "w5 = dlpack.ReadOnlyTensorWrapper(c5)");
  void *shared = addr(L, "src:const_data_ptr()");
  LTRUE(L, "c1:const_data_ptr() == src:const_data_ptr()"); /* the premise: clones share */

  /* regular, on a clone: the clone moves to its own memory, the export holds that */
  DLManagedTensorVersioned *m = export_global(L, REG, "c1");
  if (m) {
    void *now = addr(L, "c1:const_data_ptr()");
    CHECKF(now != shared, "c1 still shares %p", shared);
    CHECK(m->dl_tensor.data == now);
    CHECK(addr(L, "src:const_data_ptr()") == shared); /* the source keeps the original */
    ((float *)m->dl_tensor.data)[0] = 100.0f;
    LTRUE(L, "c1[1] == 100 and src[1] == 0 and c2[1] == 0");
    m->deleter(m);
  }

  /* const, on a clone: READ_ONLY and no copy */
  m = export_global(L, CONST, "c2");
  read_only_shared(L, m, "c2", shared);
  LTRUE(L, "c2:const_data_ptr() == src:const_data_ptr()");
  LOK(L, "c2[2] = 50"); /* still copy-on-write afterwards */
  LTRUE(L, "c2[2] == 50 and src[2] == 1 and c2:const_data_ptr() ~= src:const_data_ptr()");

  /* regular, through a wrapper of a clone: read-only, no copy */
  m = export_global(L, REG, "w5");
  read_only_shared(L, m, "c5", shared);

  /* dltensor_from_lua_no_sync: regular unshares, const does not */
  DLTensor d;
  int top = lua_gettop(L);
  push_global(L, "c3");
  memset(&d, 0, sizeof d);
  CHECK(CONST->dltensor_from_lua_no_sync(L, -1, &d) == 0);
  CHECK(d.data == shared && addr(L, "c3:const_data_ptr()") == shared);
  memset(&d, 0, sizeof d);
  CHECK(REG->dltensor_from_lua_no_sync(L, -1, &d) == 0);
  CHECK(lua_gettop(L) == top + 1);
  void *now = addr(L, "c3:const_data_ptr()");
  CHECKF(now != shared && d.data == now, "c3: view %p, tensor %p, shared %p", d.data, now, shared);
  if (d.data && d.data != shared) ((float *)d.data)[3] = 9.0f; /* the caller may write */
  LTRUE(L, "c3[4] == 9 and src[4] == 3 and c4[4] == 3");
  lua_pop(L, 1);
  push_global(L, "w5");
  memset(&d, 0, sizeof d);
  CHECK(REG->dltensor_from_lua_no_sync(L, -1, &d) == 0);
  CHECK(d.data == shared && addr(L, "c5:const_data_ptr()") == shared);
  lua_pop(L, 1);

  /* regular, on a view of a clone: the clone and all its views move together */
  LOK(L, "c6 = src:clone(); v6 = c6[{{2, 3}}]; v6b = c6[{{3, 4}}]");
  m = export_global(L, REG, "v6");
  if (m) {
    void *c6 = addr(L, "c6:const_data_ptr()");
    CHECK(c6 != shared && m->dl_tensor.data == (char *)c6 + sizeof(float));
    CHECK(addr(L, "v6:const_data_ptr()") == m->dl_tensor.data);
    CHECK(addr(L, "v6b:const_data_ptr()") == (char *)c6 + 2 * sizeof(float));
    ((float *)m->dl_tensor.data)[1] = 70.0f;
    LTRUE(L, "c6[3] == 70 and v6b[1] == 70 and src[3] == 2");
    m->deleter(m);
  }

  /* the source of clones, exported writable, moves too: the clones keep the original */
  m = export_global(L, REG, "src");
  if (m) {
    CHECK(m->dl_tensor.data == addr(L, "src:const_data_ptr()"));
    ((float *)m->dl_tensor.data)[1] = -1.0f;
    LTRUE(L, "src[2] == -1 and c4[2] == 1 and c5[2] == 1");
    m->deleter(m);
  }
  CHECK(lua_gettop(L) == top);
  lua_close(L);
}

/* A read-only export, or a const borrowed view, of a tensor stays a live view of it when the
   tensor is cloned afterwards and then written (an eager clone would not move the tensor). */
static void test_read_only_export_then_clone(void) {
  lua_State *L = new_state();
  LOK(L,
      "t = lt.arange(4, 'float32'); u = lt.arange(4, 'float32')\n"
      "old = u:clone(); old = nil; collectgarbage(); collectgarbage()"); /* u: clone gone */
  int top = lua_gettop(L);
  push_global(L, "t");
  DLManagedTensorVersioned *m = export_at(L, CONST, -1);
  DLTensor d;
  CHECK(CONST->dltensor_from_lua_no_sync(L, -1, &d) == 0);
  lua_pop(L, 1);
  DLManagedTensorVersioned *mu = export_global(L, CONST, "u");
  /* clone each, write the original, drop the clones */
  LOK(L,
      "c = t:clone(); t[1] = 100; cu = u:clone(); u[1] = 100\n"
      "c = nil; cu = nil; collectgarbage(); collectgarbage()");
  if (m) {
    CHECKF(((float *)m->dl_tensor.data)[0] == 100.0f, "const export of t: data[0] = %g",
           (double)((float *)m->dl_tensor.data)[0]);
    CHECK(m->dl_tensor.data == addr(L, "t:const_data_ptr()"));
    m->deleter(m);
  }
  if (mu) {
    CHECK(((float *)mu->dl_tensor.data)[0] == 100.0f);
    mu->deleter(mu);
  }
  CHECK(d.data == addr(L, "t:const_data_ptr()")); /* ASan: the view does not dangle */
  if (d.data == addr(L, "t:const_data_ptr()")) CHECK(((float *)d.data)[0] == 100.0f);
  /* the same through a wrapper, from Lua */
  LOK(L,
      "src = lt.arange(4, 'float32'); rs = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(src))\n"
      "cs = src:clone(); src[1] = 7");
  LTRUE(L, "rs[1] == 7 and cs[1] == 0 and rs:const_data_ptr() == src:const_data_ptr()");
  LOK(L,
      "src2 = lt.arange(4, 'float32'); w2 = dlpack.ReadOnlyTensorWrapper(src2)\n"
      "rs2 = dlpack.from_dlpack(w2:__dlpack{max_version = {1, 3}})\n"
      "cs2 = src2:clone(); src2[1] = 7");
  LTRUE(L, "rs2[1] == 7 and cs2[1] == 0");
  /* clones stay copy-on-write for tensors never exported */
  LOK(L, "fresh = lt.arange(4, 'float32'); cf = fresh:clone()");
  LTRUE(L, "cf:const_data_ptr() == fresh:const_data_ptr()");
  CHECK(lua_gettop(L) == top);
  lua_close(L);
}

/* A const borrowed view of a tensor whose block a clone still shares (pinning it would copy,
   so it is not pinned) stays valid while the tensor lives, whatever copy-on-write does after:
   a write gives the tensor memory of its own, and the view keeps the block of before, which
   lives as long as the tensor. It used to go with the clone: the view pointed at freed memory. */
static void test_borrowed_view_of_shared_clone(void) {
  lua_State *L = new_state();
  LOK(L, "O = lt.arange(4, 'float32'); C = O:clone(); W = dlpack.ReadOnlyTensorWrapper(O)");
  DLTensor d[2];
  memset(d, 0, sizeof d);
  push_global(L, "W");
  CHECK(CONST->dltensor_from_lua_no_sync(L, -1, &d[0]) == 0);
  lua_pop(L, 1);
  CHECK(d[0].data && d[0].data == addr(L, "O:const_data_ptr()") &&
        d[0].data == addr(L, "C:const_data_ptr()"));
  LOK(L, "O[1] = 5; C = nil; collectgarbage(); collectgarbage()");
  LTRUE(L, "O[1] == 5 and O[4] == 3");
  const float *p = d[0].data; /* ASan: reading it is no use after free */
  CHECKF(p && p[0] == 0.0f && p[3] == 3.0f, "the view reads %g .. %g", p ? (double)p[0] : -1.0,
         p ? (double)p[3] : -1.0);
  /* the new memory is O's alone: a view of it pins it, so it stays live (the clone copies) */
  push_global(L, "W");
  CHECK(CONST->dltensor_from_lua_no_sync(L, -1, &d[1]) == 0);
  lua_pop(L, 1);
  LOK(L, "C = O:clone(); O[2] = 6; C = nil; collectgarbage(); collectgarbage()");
  const float *q = d[1].data;
  CHECKF(q && q != p && q == addr(L, "O:const_data_ptr()") && q[0] == 5.0f && q[1] == 6.0f,
         "the second view reads %g, %g", q ? (double)q[0] : -1.0, q ? (double)q[1] : -1.0);
  CHECK(p[1] == 1.0f);
  LTRUE(L, "O[1] == 5 and O[2] == 6");
  /* a tensor never lent a view still leaves the old block to the clone */
  LOK(L, "F = lt.arange(4, 'float32'); G = F:clone(); F[1] = 9");
  LTRUE(L, "G[1] == 0 and F[1] == 9");
  lua_close(L); /* the blocks go with O: LeakSanitizer checks they do */
}

/* }====== */

/* {====== imports ====== */

static void import_shared(lua_State *L, int top) {
  /* round trip through the regular table: a writable tensor sharing the memory */
  DLManagedTensorVersioned *m = export_global(L, REG, "t");
  if (m) {
    CHECK(REG->managed_tensor_to_lua_no_sync(L, m) == 0);
    CHECK(lua_gettop(L) == top + 1);
    CHECK(luaL_testudata(L, -1, "ltensor.Tensor") != NULL);
    set_global(L, "r");
    LTRUE(L, "r:const_data_ptr() == t:const_data_ptr()");
    LTRUE(L, "same(r.shape, {2, 3}) and same(r:stride(), {3, 1}) and r.dtype == 'float32'");
    LTRUE(L, "not r:is_read_only()");
    LOK(L, "r[2][1] = 30");
    LTRUE(L, "t[2][1] == 30");
    LOK(L, "r = nil; collectgarbage()");
  }

  /* through the const table: read-only, still sharing */
  m = export_global(L, CONST, "t");
  if (m) {
    CHECK(CONST->managed_tensor_to_lua_no_sync(L, m) == 0);
    CHECK(lua_gettop(L) == top + 1);
    set_global(L, "rr");
    LTRUE(L, "rr:is_read_only() and rr:const_data_ptr() == t:const_data_ptr()");
    LERR(L, "rr[1][1] = 1", "read-only");
    LERR(L, "rr:fill_(0)", "read-only");
    LOK(L, "t[1][1] = 11");
    LTRUE(L, "rr[1][1] == 11");
  }
}

static void import_owned(lua_State *L, int top) {
  DLManagedTensorVersioned *m;
  /* the const table makes even a writable export read-only; ours with a counting deleter */
  long d0 = g_deleted;
  m = mk(5, 1, 0);
  CHECK(CONST->managed_tensor_to_lua_no_sync(L, m) == 0);
  CHECK(lua_gettop(L) == top + 1);
  set_global(L, "h");
  LTRUE(L, "h:is_read_only() and same(h:tolist(), {0, 1, 2, 3, 4})");
  LERR(L, "h[1] = 1", "read-only");
  CHECK(g_deleted == d0);
  LOK(L, "h = nil; collectgarbage(); collectgarbage()");
  CHECK(g_deleted == d0 + 1);

  /* regular: writable, writes land in the producer's memory; READ_ONLY is honoured */
  m = mk(3, 1, 0);
  float *p = ((tm_block *)m->manager_ctx)->data;
  CHECK(REG->managed_tensor_to_lua_no_sync(L, m) == 0);
  set_global(L, "h");
  LOK(L, "h[3] = 7");
  CHECK(p[2] == 7.0f);
  LOK(L, "h = nil; collectgarbage(); collectgarbage()");
  CHECK(g_deleted == d0 + 2);
  m = mk(3, 1, DLPACK_FLAG_BITMASK_READ_ONLY);
  CHECK(REG->managed_tensor_to_lua_no_sync(L, m) == 0);
  set_global(L, "h");
  LTRUE(L, "h:is_read_only()");
  LERR(L, "h[1] = 1", "read-only");
  LOK(L, "h = nil; collectgarbage(); collectgarbage()");
  CHECK(g_deleted == d0 + 3);
}

static void import_refused(lua_State *L, int top) {
  DLManagedTensorVersioned *m;
  /* failures: -1, one message pushed, the deleter run exactly once */
  for (int k = 0; k < 2; k++) {
    long before = g_deleted;
    m = mk(4, 2, 0); /* major version 2 */
    CHECK(API(k)->managed_tensor_to_lua_no_sync(L, m) == -1);
    CHECK(lua_gettop(L) == top + 1);
    CHECKF(top_msg(L, "version"), "version 2: message %s", g_msg);
    CHECK(g_deleted == before + 1);
    lua_settop(L, top);

    m = mk(4, 0, 0); /* major version 0 */
    CHECK(API(k)->managed_tensor_to_lua_no_sync(L, m) == -1);
    CHECK(lua_gettop(L) == top + 1 && top_msg(L, NULL));
    CHECK(g_deleted == before + 2);
    lua_settop(L, top);

    m = mk(4, 1, 0); /* invalid: negative ndim */
    m->dl_tensor.ndim = -1;
    CHECK(API(k)->managed_tensor_to_lua_no_sync(L, m) == -1);
    CHECK(lua_gettop(L) == top + 1 && top_msg(L, NULL));
    CHECK(g_deleted == before + 3);
    lua_settop(L, top);

    m = mk(4, 1, 0); /* invalid: NULL data with elements */
    m->dl_tensor.data = NULL;
    CHECK(API(k)->managed_tensor_to_lua_no_sync(L, m) == -1);
    CHECK(lua_gettop(L) == top + 1 && top_msg(L, NULL));
    CHECK(g_deleted == before + 4);
    lua_settop(L, top);

    CHECK(API(k)->managed_tensor_to_lua_no_sync(L, NULL) == -1);
    CHECK(lua_gettop(L) == top + 1);
    CHECKF(top_msg(L, NULL) && g_msg[0], "NULL: message %s", g_msg);
    lua_settop(L, top);

    /* out of memory in Lua: the tensor cannot be pushed; the deleter still runs once */
    m = mk(4, 1, 0);
    lua_gc(L, LUA_GCCOLLECT);
    g_alloc_fail = 1;
    int rc = API(k)->managed_tensor_to_lua_no_sync(L, m);
    g_alloc_fail = 0;
    CHECK(rc == -1);
    CHECK(lua_gettop(L) == top + 1 && top_msg(L, NULL));
    CHECK(g_deleted == before + 5);
    lua_settop(L, top);
  }
}

static void test_import(void) {
  lua_State *L = new_state();
  LOK(L, "t = lt.arange(6, 'float32'):view(2, 3)");
  int top = lua_gettop(L);
  import_shared(L, top);
  import_owned(L, top);
  import_refused(L, top);
  /* an import from another state: the tensor crosses states through the exchange */
  lua_State *L2 = new_state();
  LOK(L2, "x = lt.tensor({1, 2, 3}, 'float32')");
  push_global(L2, "x");
  DLManagedTensorVersioned *m = export_at(L2, REG, -1);
  lua_close(L2);
  if (m) {
    CHECK(REG->managed_tensor_to_lua_no_sync(L, m) == 0);
    set_global(L, "fromL2");
    LTRUE(L, "same(fromL2:tolist(), {1, 2, 3})");
  }
  CHECK(lua_gettop(L) == top);
  lua_close(L); /* collects r, rr, fromL2: their exports are released (ASan: no leak) */
  CHECK(g_deleted == g_created);
}

/* }====== */

/* {====== non-owning views ====== */

static void check_view(lua_State *L, const char *what, const ltensor_exchange_api *api,
                       const char *expr, int ndim, const int64_t *shape, const int64_t *strides,
                       int empty) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s:const_data_ptr()", expr);
  void *data = addr(L, buf);
  lua_getglobal(L, expr);
  int top = lua_gettop(L);
  DLTensor d;
  memset(&d, 0xAB, sizeof d);
  long allocs = g_lua_allocs;
  int rc = api->dltensor_from_lua_no_sync(L, -1, &d);
  CHECKF(rc == 0, "%s: rc %d", what, rc);
  CHECKF(lua_gettop(L) == top, "%s: stack %d -> %d", what, top, lua_gettop(L));
  CHECKF(g_lua_allocs == allocs, "%s: %ld Lua allocations", what, g_lua_allocs - allocs);
  lua_settop(L, top - 1);
  if (rc) return;
  CHECKF(d.data && (empty || d.data == data), "%s: data %p, tensor's %p", what, d.data, data);
  CHECKF(d.byte_offset == 0, "%s: byte_offset", what);
  CHECKF(d.device.device_type == kDLCPU && d.device.device_id == 0, "%s: device", what);
  CHECKF(is_f32(d.dtype), "%s: dtype", what);
  CHECKF(d.ndim == ndim, "%s: ndim %d", what, (int)d.ndim);
  if (d.ndim == ndim && ndim > 0) {
    CHECKF(d.shape && dims_eq(d.shape, shape, ndim), "%s: shape", what);
    CHECKF(d.strides && dims_eq(d.strides, strides, ndim), "%s: strides", what);
  }
}

static void test_dltensor(void) {
  lua_State *L = new_state();
  LOK(L, VIEWS);
  LOK(L, "w = dlpack.ReadOnlyTensorWrapper(tt)\nr = dlpack.from_dlpack(w)");
  int top = lua_gettop(L);
  for (int k = 0; k < 2; k++) {
    const ltensor_exchange_api *api = API(k);
    check_view(L, k ? "const t" : "t", api, "t", 2, sh23, st23, 0);
    check_view(L, k ? "const tt" : "tt", api, "tt", 2, sh32, st32, 0);
    check_view(L, k ? "const col" : "col", api, "col", 1, sh2, st3, 0);
    check_view(L, k ? "const s" : "s", api, "s", 0, NULL, NULL, 0);
    check_view(L, k ? "const e" : "e", api, "e", 2, sh03, st23, 1);
    check_view(L, k ? "const r" : "r", api, "r", 2, sh32, st32, 0);
  }
  /* wrappers: the wrapped tensor's view */
  push_global(L, "w");
  DLTensor d;
  memset(&d, 0, sizeof d);
  CHECK(REG->dltensor_from_lua_no_sync(L, -1, &d) == 0);
  CHECK(d.data == addr(L, "tt:const_data_ptr()") && d.ndim == 2 && d.strides &&
        dims_eq(d.strides, st32, 2));
  lua_pop(L, 1);
  /* the view is live: writes through it are the tensor's */
  push_global(L, "col");
  CHECK(REG->dltensor_from_lua_no_sync(L, -1, &d) == 0);
  lua_pop(L, 1);
  if (d.data) ((float *)d.data)[d.strides[0]] = 44.0f;
  LTRUE(L, "t[2][2] == 44");
  /* NULL out: -1 and a message */
  for (int k = 0; k < 2; k++) {
    push_global(L, "t");
    CHECK(API(k)->dltensor_from_lua_no_sync(L, -1, NULL) == -1);
    CHECK(lua_gettop(L) == top + 2 && top_msg(L, NULL));
    lua_settop(L, top);
  }
  CHECK(lua_gettop(L) == top);
  lua_close(L);
}

/* }====== */

/* {====== values that are not tensors ====== */

static void test_errors(void) {
  lua_State *L = new_state();
  LOK(L,
      "rel = lt.zeros(2); debug.getmetatable(rel).__gc(rel)\n"
      "relw = dlpack.ReadOnlyTensorWrapper(lt.zeros(2)); debug.getmetatable(relw).__gc(relw)\n"
      "relv = lt.zeros(2, 2); relv2 = relv[1]; debug.getmetatable(relv).__gc(relv)\n"
      "cap = lt.arange(3):__dlpack{max_version = {1, 3}}\n"
      "legacy = dlpack.to_dlpack(lt.arange(3))\n"
      "num, tab, str, fn, f = 42, {}, 'tensor', print, io.stdout");
  struct {
    const char *global, *want;
  } cases[] = {
      {"num", "expected a tensor"},        {"tab", "expected a tensor"},
      {"str", "expected a tensor"},        {"fn", "expected a tensor"},
      {"f", "expected a tensor"},          {"undefined_global", "expected a tensor"},
      {"cap", "expected a tensor"},        {"legacy", "expected a tensor"},
      {"rel", "tensor has been released"}, {"relw", "tensor has been released"},
  };
  const int ncases = (int)(sizeof cases / sizeof cases[0]);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < ncases + 3; i++) {
      const char *name = i < ncases        ? cases[i].global
                         : i == ncases     ? "(light userdata)"
                         : i == ncases + 1 ? "(foreign userdata)"
                                           : "(none: above the top)";
      const char *want = i < ncases ? cases[i].want : "expected a tensor";
      lua_pushliteral(L, "below"); /* a sentinel under the value */
      int idx;
      if (i < ncases) {
        idx = push_global(L, name);
      } else if (i == ncases) {
        lua_pushlightuserdata(L, (void *)REG);
        idx = lua_gettop(L);
      } else if (i == ncases + 1) { /* a userdata of a tensor's size, zero-filled */
        memset(lua_newuserdatauv(L, 2 * sizeof(void *), 0), 0, 2 * sizeof(void *));
        idx = lua_gettop(L);
      } else {
        idx = lua_gettop(L) + 1; /* acceptable, not valid: nothing there */
      }
      int top = lua_gettop(L);
      for (int f = 0; f < 2; f++) {
        int rc;
        if (f == 0) {
          DLManagedTensorVersioned *m = NULL;
          rc = API(k)->managed_tensor_from_lua_no_sync(L, idx, &m);
          CHECKF(m == NULL, "%s: out written on failure", name);
        } else {
          DLTensor d;
          rc = API(k)->dltensor_from_lua_no_sync(L, idx, &d);
        }
        const char *fname = f ? "dltensor_from_lua_no_sync" : "managed_tensor_from_lua_no_sync";
        CHECKF(rc == -1, "%s %s(%s): rc %d", k ? "const" : "regular", fname, name, rc);
        CHECKF(lua_gettop(L) == top + 1, "%s(%s): stack %d -> %d", fname, name, top, lua_gettop(L));
        CHECKF(top_msg(L, want), "%s(%s): message '%s', expected '%s'", fname, name, g_msg, want);
        lua_pop(L, 1);
        /* the stack below is untouched */
        CHECK(lua_gettop(L) == top);
        if (idx <= top) {
          lua_getglobal(L, i < ncases ? name : "undefined_global");
          CHECKF(i >= ncases || lua_rawequal(L, -1, idx), "%s: value at idx changed", name);
          lua_pop(L, 1);
        }
        CHECK(lua_type(L, top - (idx <= top)) == LUA_TSTRING &&
              strcmp(lua_tostring(L, top - (idx <= top)), "below") == 0);
      }
      lua_settop(L, top - (idx <= top) - 1);
    }
  /* the capsules were not consumed by the failed calls */
  LTRUE(L, "same(dlpack.from_dlpack(cap):tolist(), {0, 1, 2})");
  LTRUE(L, "same(dlpack.from_dlpack(legacy):tolist(), {0, 1, 2})");
  /* a view of a released tensor still works */
  LTRUE(L, "relv2:numel() == 2");
  DLManagedTensorVersioned *m = export_global(L, REG, "relv2");
  if (m) m->deleter(m);

  /* out of memory in Lua while reporting an error: still -1 and a message, no raise */
  LOK(L, "num = 1");
  push_global(L, "num");
  int top = lua_gettop(L);
  lua_gc(L, LUA_GCCOLLECT);
  g_alloc_fail = 1;
  DLManagedTensorVersioned *mm = NULL;
  int rc = REG->managed_tensor_from_lua_no_sync(L, -1, &mm);
  int tt = lua_type(L, -1);
  g_alloc_fail = 0;
  CHECK(rc == -1 && lua_gettop(L) == top + 1 && tt == LUA_TSTRING);
  lua_settop(L, top - 1);
  lua_close(L);
}

/* }====== */

/* {====== allocator and work stream ====== */

typedef struct {
  int calls;
  char kind[64];
  char msg[256];
} err_rec;

static void set_error(void *ctx, const char *kind, const char *message) {
  err_rec *e = ctx;
  e->calls++;
  snprintf(e->kind, sizeof e->kind, "%s", kind ? kind : "(null)");
  snprintf(e->msg, sizeof e->msg, "%s", message ? message : "(null)");
}

static DLTensor proto(int device, int code, int bits, int ndim, int64_t *shape) {
  DLTensor p;
  memset(&p, 0, sizeof p);
  p.device.device_type = (DLDeviceType)device;
  p.device.device_id = 0;
  p.ndim = ndim;
  p.dtype.code = (uint8_t)code;
  p.dtype.bits = (uint8_t)bits;
  p.dtype.lanes = 1;
  p.shape = shape;
  return p;
}

static void test_allocator(void) {
  for (int k = 0; k < 2; k++) {
    DLPackManagedTensorAllocator alloc = API(k)->managed_tensor_allocator;
    err_rec e = {0, "", ""};
    DLTensor p = proto(kDLCPU, kDLFloat, 32, 2, sh23);
    int64_t colmajor[] = {1, 2};
    p.strides = colmajor; /* a prototype's layout is not copied: the result is compact */
    DLManagedTensorVersioned *m = NULL;
    int rc = alloc(&p, &m, &e, set_error);
    CHECKF(rc == 0 && m, "allocator: rc %d, SetError %s: %s", rc, e.kind, e.msg);
    CHECK(e.calls == 0);
    if (m) {
      const DLTensor *d = &m->dl_tensor;
      CHECK(m->version.major == 1 && m->version.minor == 3);
      CHECK(m->flags == 0 && m->deleter);
      CHECK(d->device.device_type == kDLCPU && d->device.device_id == 0);
      CHECK(is_f32(d->dtype) && d->ndim == 2 && d->byte_offset == 0);
      CHECK(d->shape && dims_eq(d->shape, sh23, 2));
      CHECK(d->strides && dims_eq(d->strides, st23, 2));
      CHECK(d->shape != sh23); /* its own dims */
      CHECK(d->data && (uintptr_t)d->data % 64 == 0);
      if (d->data) {
        int zero = 1;
        for (int i = 0; i < 6; i++) zero &= ((float *)d->data)[i] == 0.0f;
        CHECK(zero);
        ((float *)d->data)[5] = 6.0f; /* writable */
      }
      /* it imports into Lua as a tensor like any other */
      lua_State *L = new_state();
      CHECK(REG->managed_tensor_to_lua_no_sync(L, m) == 0);
      set_global(L, "a");
      LTRUE(L, "same(a:tolist(), {{0, 0, 0}, {0, 0, 6}}) and not a:is_read_only()");
      lua_close(L);
    }
    /* 0-d, empty, another dtype */
    p = proto(kDLCPU, kDLFloat, 64, 0, NULL);
    m = NULL;
    CHECK(alloc(&p, &m, &e, set_error) == 0 && m && m->dl_tensor.ndim == 0 && m->dl_tensor.data);
    if (m) {
      CHECK(*(double *)m->dl_tensor.data == 0.0 && m->dl_tensor.dtype.bits == 64);
      m->deleter(m);
    }
    p = proto(kDLCPU, kDLInt, 16, 2, sh03);
    m = NULL;
    CHECK(alloc(&p, &m, &e, set_error) == 0 && m);
    if (m) {
      CHECK(m->dl_tensor.data != NULL && m->dl_tensor.shape && m->dl_tensor.shape[0] == 0);
      CHECK(m->dl_tensor.dtype.code == kDLInt && m->dl_tensor.dtype.bits == 16);
      m->deleter(m);
    }
    CHECK(e.calls == 0);

    /* failures: SetError (kind and message), -1, *out untouched */
    struct {
      const char *what;
      DLTensor p;
      int null_out;
    } bad[] = {
        {"CUDA", proto(kDLCUDA, kDLFloat, 32, 2, sh23), 0},
        {"fp8", proto(kDLCPU, kDLFloat8_e4m3fn, 8, 2, sh23), 0},
        {"NULL out", proto(kDLCPU, kDLFloat, 32, 2, sh23), 1},
        {"ndim 65", proto(kDLCPU, kDLFloat, 32, 65, sh23), 0},
        {"NULL shape", proto(kDLCPU, kDLFloat, 32, 2, NULL), 0},
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
      err_rec r = {0, "", ""};
      static DLManagedTensorVersioned sentinel_mt;
      DLManagedTensorVersioned *sentinel = &sentinel_mt, *out = sentinel;
      rc = alloc(&bad[i].p, bad[i].null_out ? NULL : &out, &r, set_error);
      CHECKF(rc == -1, "%s: rc %d", bad[i].what, rc);
      CHECKF(r.calls == 1 && r.kind[0] && r.msg[0], "%s: SetError called %d times (%s: %s)",
             bad[i].what, r.calls, r.kind, r.msg);
      CHECKF(out == sentinel, "%s: out written", bad[i].what);
      /* without SetError: still -1, nothing else */
      CHECK(alloc(&bad[i].p, bad[i].null_out ? NULL : &out, NULL, NULL) == -1);
    }
    err_rec r = {0, "", ""};
    CHECK(alloc(NULL, &m, &r, set_error) == -1 && r.calls == 1);
    /* a negative size is refused */
    int64_t neg[] = {2, -3};
    p = proto(kDLCPU, kDLFloat, 32, 2, neg);
    r.calls = 0;
    DLManagedTensorVersioned *out = NULL;
    CHECK(alloc(&p, &out, &r, set_error) == -1 && r.calls == 1 && out == NULL);
    CHECKF(strcmp(r.kind, "ValueError") == 0, "negative size: %s (%s)", r.kind, r.msg);
  }
}

static void test_stream(void) {
  int devices[] = {kDLCPU, kDLCUDA, kDLROCM};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 3; i++) {
      void *stream = (void *)&stream;
      int rc = API(k)->current_work_stream((DLDeviceType)devices[i], i, &stream);
      CHECKF(rc == 0 && stream == NULL, "current_work_stream(%d): rc %d, stream %p", devices[i], rc,
             stream);
    }
}

/* }====== */

int main(void) {
  test_tables();
  if (!REG || !CONST) return tu_finish("test_exchange");
  test_export();
  test_export_read_only();
  test_export_cow();
  test_read_only_export_then_clone();
  test_borrowed_view_of_shared_clone();
  test_import();
  test_dltensor();
  test_errors();
  test_allocator();
  test_stream();
  CHECK(g_deleted == g_created);
  return tu_finish("test_exchange");
}
