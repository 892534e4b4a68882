/*
 * lua_host.c -- the host API of ltensor.h: what a program that embeds Lua calls to hand its
 * buffers to scripts, take tensors back, and revoke per-frame buffers; the process-wide settings
 * (thread count, mapping guard).
 *
 * Every entry point runs its Lua work under lua_pcall, so none raises into the host; ownership
 * of what a host passes in is settled on every path (the deleter or release callback runs once,
 * here on failure or later when the last reference goes).
 * The top of the binding, beside lua_init.c: called by host programs only; calls lua_init.c
 * (luaopen_ltensor_core, to open ltensor in a state that lacks it), lua_exchange.c, the base
 * (lua_ud.h) and the core.
 */
#include <stdlib.h>
#include <string.h>

#include "lt_dlpack.h"
#include "lt_mapguard.h"
#include "lt_pool.h"
#include "ltensor.h"
#include "lua_luasrc.h"
#include "lua_ud.h"

/* {====== running protected ====== */

/* A lua_pcall status as the host API's: LTENSOR_OK, LTENSOR_ERRMEM, or `fallback` for any
   other error (whose message is on the stack). */
static int host_status(int status, int fallback) {
  return status == LUA_OK ? LTENSOR_OK : status == LUA_ERRMEM ? LTENSOR_ERRMEM : fallback;
}

/* Runs fn(job) under lua_pcall with one result, as host_status says. */
static int protected_call(lua_State *L, lua_CFunction fn, void *job, int fallback) {
  return host_status(ltl_pcall(L, fn, job), fallback);
}

/* Makes sure ltensor.core is initialized in L (its metatables exist); one nil result. */
static int ensure_core(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key) == LUA_TNIL) {
    lua_pushcfunction(L, luaopen_ltensor_core);
    lua_call(L, 0, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, "ltensor.core") == LUA_TNIL) { /* as require would record it */
      lua_pushvalue(L, -3);
      lua_setfield(L, -3, "ltensor.core");
    }
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  return 1;
}

/* }====== */

/* {====== ltensor_open ====== */

static int open_body(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_ltensor_core);
  lua_setfield(L, -2, "ltensor.core");
  for (const ltl_luasrc *m = ltl_luasrcs; m->name; m++) {
    ltl_push_loader(L, m);
    lua_setfield(L, -2, m->name);
  }
  lua_pop(L, 1);
  lua_pushnil(L); /* the one result protected_call expects */
  return 1;
}

int ltensor_open(lua_State *L) {
  int rc = protected_call(L, open_body, NULL, LTENSOR_ERRARG);
  if (rc == LTENSOR_OK) lua_pop(L, 1);
  return rc;
}

static int push_module_body(lua_State *L) {
  lua_pushcfunction(L, ltl_require);
  lua_pushliteral(L, "ltensor");
  lua_call(L, 1, 1);
  return 1;
}

int ltensor_push_module(lua_State *L) {
  return protected_call(L, push_module_body, NULL, LTENSOR_ERRARG);
}

/* }====== */

/* {====== pushing managed tensors ====== */

/* Pushes a tensor owning m, whose ownership passes in every case. */
static int push_managed(lua_State *L, void *m, int versioned, int read_only_host) {
  if (!m) return ltl_push_message(L, "managed tensor is NULL", LTENSOR_ERRARG);
  int rc = protected_call(L, ensure_core, NULL, LTENSOR_ERRARG);
  if (rc != LTENSOR_OK) {
    lt_dlpack_delete(m, versioned);
    return rc;
  }
  lua_pop(L, 1);
  return host_status(ltl_push_import(L, m, versioned, read_only_host ? LT_RO_HOST : LT_WRITABLE),
                     LTENSOR_ERRARG);
}

int ltensor_push_managed(lua_State *L, DLManagedTensorVersioned *m) {
  return push_managed(L, m, 1, 0);
}

int ltensor_push_managed_legacy(lua_State *L, DLManagedTensor *m) {
  return push_managed(L, m, 0, 0);
}

/* }====== */

/* {====== borrowed host memory ====== */

struct ltensor_lease {
  lt_storage *storage;
};

/* A managed tensor around borrowed memory: its deleter calls the host's release. */
typedef struct {
  DLManagedTensorVersioned m;
  ltensor_release_fn release;
  void *ctx;
  int64_t dims[]; /* shape, strides */
} borrowed;

static void borrowed_deleter(DLManagedTensorVersioned *self) {
  borrowed *b = self->manager_ctx;
  if (b->release) b->release(b->ctx);
  free(b);
}

int ltensor_push_borrowed(lua_State *L, const DLTensor *desc, unsigned flags,
                          ltensor_release_fn release, void *ctx, ltensor_lease **lease) {
  if (lease) *lease = NULL;
  if (!desc) {
    if (release) release(ctx);
    return ltl_push_message(L, "ltensor_push_borrowed: desc is NULL", LTENSOR_ERRARG);
  }
  /* Shape and strides are copied from a description the import can accept; any other (ndim
     out of range, NULL shape) keeps its fields and is refused by the import's validation,
     with its message, before they are read. */
  int ndim = desc->ndim >= 0 && desc->ndim <= LT_MAX_NDIM && desc->shape ? desc->ndim : 0;
  borrowed *b = malloc(sizeof *b + 2 * (size_t)ndim * sizeof(int64_t));
  ltensor_lease *ls = lease ? malloc(sizeof *ls) : NULL;
  if (!b || (lease && !ls)) {
    free(b);
    free(ls);
    if (release) release(ctx);
    return ltl_push_message(L, "not enough memory", LTENSOR_ERRMEM);
  }
  memset(&b->m, 0, sizeof b->m);
  b->m.version.major = LT_DLPACK_MAJOR;
  b->m.version.minor = LT_DLPACK_MINOR;
  b->m.manager_ctx = b;
  b->m.deleter = borrowed_deleter;
  b->m.flags = flags & LTENSOR_READ_ONLY ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  b->m.dl_tensor = *desc;
  b->release = release;
  b->ctx = ctx;
  if (desc->ndim == 0) {
    b->m.dl_tensor.shape = NULL;
    b->m.dl_tensor.strides = NULL;
  } else if (ndim > 0) {
    memcpy(b->dims, desc->shape, (size_t)ndim * sizeof(int64_t));
    b->m.dl_tensor.shape = b->dims;
    if (desc->strides) {
      memcpy(b->dims + ndim, desc->strides, (size_t)ndim * sizeof(int64_t));
      b->m.dl_tensor.strides = b->dims + ndim;
    }
  }
  int rc = push_managed(L, &b->m, 1, (flags & LTENSOR_READ_ONLY) != 0);
  if (rc != LTENSOR_OK) {
    free(ls);
    return rc;
  }
  if (ls) {
    ltl_ud *ud = lua_touserdata(L, -1);
    ls->storage = lt_storage_retain(ud->t->storage);
    *lease = ls;
  }
  return LTENSOR_OK;
}

void ltensor_revoke_lease(ltensor_lease *lease) {
  if (!lease) return;
  lt_storage_revoke(lease->storage);
  lt_storage_release(lease->storage);
  free(lease);
}

int ltensor_revoke(lua_State *L, int idx) {
  ltl_ud *ud = ltl_testud(L, idx);
  if (!ud || !ud->t)
    return ltl_push_message(L, "ltensor_revoke: not a tensor, or already released",
                            LTENSOR_ERRTYPE);
  lt_storage_revoke(ud->t->storage);
  return LTENSOR_OK;
}

/* }====== */

/* {====== taking tensors back ====== */

int ltensor_export(lua_State *L, int idx, int read_only, DLManagedTensorVersioned **out) {
  const ltensor_exchange_api *api = read_only ? ltensor_exchange_const() : ltensor_exchange();
  if (!out) return ltl_push_message(L, "ltensor_export: out is NULL", LTENSOR_ERRARG);
  return api->managed_tensor_from_lua_no_sync(L, idx, out) ? LTENSOR_ERRTYPE : LTENSOR_OK;
}

int ltensor_borrow(lua_State *L, int idx, DLTensor *out) {
  if (!out) return ltl_push_message(L, "ltensor_borrow: out is NULL", LTENSOR_ERRARG);
  return ltensor_exchange()->dltensor_from_lua_no_sync(L, idx, out) ? LTENSOR_ERRTYPE : LTENSOR_OK;
}

int ltensor_is_tensor(lua_State *L, int idx) {
  ltl_ud *ud = ltl_testud(L, idx);
  return ud && ud->t && !lt_storage_revoked(ud->t->storage);
}

void ltensor_check_tensor(lua_State *L, int arg, DLTensor *out) {
  if (ltensor_borrow(L, arg, out) != LTENSOR_OK) luaL_argerror(L, arg, lua_tostring(L, -1));
}

/* }====== */

/* {====== memory ====== */

int ltensor_set_memory_limit(lua_State *L, int64_t bytes) {
  int rc = protected_call(L, ensure_core, NULL, LTENSOR_ERRARG);
  if (rc != LTENSOR_OK) return rc;
  lua_pop(L, 1);
  (void)ltl_set_memory_limit(ltl_state_of(L), bytes < 0 ? LT_NO_LIMIT : bytes, 1);
  return LTENSOR_OK;
}

int64_t ltensor_memory_used(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key) == LUA_TNIL) {
    lua_pop(L, 1);
    return -1;
  }
  ltl_state *st = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return st->acct ? lt_account_used(st->acct) : 0;
}

/* }====== */

/* {====== threads ====== */

void ltensor_set_num_threads(int n) { (void)lt_pool_set_threads(n); }

int ltensor_get_num_threads(void) { return lt_pool_threads(); }

/* }====== */

/* {====== the mapping guard ====== */

int ltensor_guard_mappings(int on) {
  return lt_mapguard_enable(on, NULL) ? LTENSOR_ERRARG : LTENSOR_OK;
}

/* }====== */
