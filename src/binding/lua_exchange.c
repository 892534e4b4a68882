/*
 * lua_exchange.c -- the DLPack C exchange API for Lua (see ltensor.h): export, import and
 * non-owning views of tensors from C, with no Lua call, and two static tables, the regular one
 * and the const one.
 *
 * No function here raises a Lua error into its C caller: failures return -1 with a message
 * pushed, and the one step that must allocate Lua memory (pushing a tensor) runs under
 * lua_pcall (the base's protected pushes).
 * Called by lua_host.c, lua_init.c, lua_dlpack.c and lua_wrapper.c (ltensor_exchange,
 * ltensor_exchange_const); calls the base (lua_ud.h) and the core.
 */
#include <string.h>

#include "lt_dlpack.h"
#include "ltensor.h"
#include "lua_ud.h"

/* {====== failing without raising ====== */

/* Pushes msg (or, if even that fails, Lua's out-of-memory message) and returns -1. */
static int fail(lua_State *L, const char *msg) { return ltl_push_message(L, msg, -1); }

/* The tensor of the tensor or wrapper at idx; *ro when it came through a wrapper. */
static lt_tensor *source(lua_State *L, int idx, int *ro, const char **why) {
  ltl_ud *ud = ltl_toud(L, idx, NULL);
  *ro = 0;
  if (!ud) {
    *why = "expected a tensor or a ReadOnlyTensorWrapper";
    return NULL;
  }
  if (!ud->t || lt_storage_revoked(ud->t->storage)) {
    *why = LTL_RELEASED;
    return NULL;
  }
  *ro = ud->tag == &ltl_wrapper_key;
  return ud->t;
}

/* A read-only export or view of t stays a live view of t's memory. Pins t's storage when that
   costs nothing (its block has no other handle), so that a later t:clone() copies eagerly
   instead of sharing the block, which would move t to new memory on its next write and leave
   the export behind (and a borrowed DLTensor dangling once the clone is gone). A storage that
   shares its block with a clone is left alone: pinning it would copy, and a read-only export
   never gives a copy-on-write clone its own memory. */
static void keep_live(lt_tensor *t) { (void)lt_storage_pin_if_free(t->storage); }

/* }====== */

/* {====== the functions ====== */

static void set_error(void (*SetError)(void *, const char *, const char *), void *ctx,
                      const char *kind, const char *msg) {
  if (SetError) SetError(ctx, kind, msg);
}

static int allocator(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
                     void (*SetError)(void *error_ctx, const char *kind, const char *message)) {
  if (!prototype || !out) {
    set_error(SetError, error_ctx, "ValueError", "prototype and out must not be NULL");
    return -1;
  }
  if (prototype->device.device_type != kDLCPU) {
    set_error(SetError, error_ctx, "RuntimeError", "ltensor allocates host (CPU) memory only");
    return -1;
  }
  lt_dtype dt = lt_dtype_from_dl(prototype->dtype);
  if (dt == LT_OPAQUE) {
    set_error(SetError, error_ctx, "TypeError", "ltensor cannot allocate this DLPack dtype");
    return -1;
  }
  if (prototype->ndim < 0 || prototype->ndim > LT_MAX_NDIM ||
      (prototype->ndim > 0 && !prototype->shape)) {
    set_error(SetError, error_ctx, "ValueError", "prototype has an invalid ndim or shape");
    return -1;
  }
  lt_error err;
  lt_tensor *t;
  void *m;
  lt_account *caller = lt_account_detach(); /* the consumer's memory: no Lua state pays */
  int rc = lt_tensor_new(dt, prototype->ndim, prototype->shape, 1, &t, &err);
  lt_account_attach(caller);
  if (rc) { /* a negative size or one too large to count is the caller's value */
    set_error(SetError, error_ctx, rc == LT_ENOMEM ? "MemoryError" : "ValueError", err.msg);
    return -1;
  }
  rc = lt_dlpack_export(t, 1, 0, 0, &m, &err);
  lt_tensor_free(t); /* the export holds the memory */
  if (rc) {
    set_error(SetError, error_ctx, "MemoryError", err.msg);
    return -1;
  }
  *out = m;
  return 0;
}

static int from_lua(lua_State *L, int idx, DLManagedTensorVersioned **out, int read_only) {
  int ro;
  const char *why;
  lt_tensor *t = source(L, idx, &ro, &why);
  if (!t) return fail(L, why);
  if (read_only || ro) keep_live(t);
  lt_error err;
  void *m;
  if (lt_dlpack_export(t, 1, 0, read_only || ro, &m, &err)) return fail(L, err.msg);
  *out = m;
  return 0;
}
static int from_lua_rw(lua_State *L, int idx, DLManagedTensorVersioned **out) {
  return from_lua(L, idx, out, 0);
}
static int from_lua_ro(lua_State *L, int idx, DLManagedTensorVersioned **out) {
  return from_lua(L, idx, out, 1);
}

/* Ownership of tensor passed to us: on failure its deleter has run and the message is on the
   stack. */
static int to_lua(lua_State *L, DLManagedTensorVersioned *tensor, int read_only) {
  if (!tensor) return fail(L, "managed tensor is NULL");
  return ltl_push_import(L, tensor, 1, read_only ? LT_RO_WRAPPER : LT_WRITABLE) == LUA_OK ? 0 : -1;
}
static int to_lua_rw(lua_State *L, DLManagedTensorVersioned *tensor) {
  return to_lua(L, tensor, 0);
}
static int to_lua_ro(lua_State *L, DLManagedTensorVersioned *tensor) {
  return to_lua(L, tensor, 1);
}

static int dltensor_from_lua(lua_State *L, int idx, DLTensor *out, int read_only) {
  int ro;
  const char *why;
  lt_tensor *t = source(L, idx, &ro, &why);
  if (!t) return fail(L, why);
  if (!out) return fail(L, "out must not be NULL");
  lt_error err;
  if (!read_only && !ro && t->readonly == LT_WRITABLE &&
      lt_tensor_pin(t, &err)) /* the caller may write through the view */
    return fail(L, "not enough memory to copy a shared (cloned) tensor");
  keep_live(t);                /* read-only, or pinned above already */
  lt_storage_lend(t->storage); /* unpinned (a shared clone's): its block outlives its writes */
  out->data = lt_data(t);      /* never NULL (as exports) */
  out->device = t->storage->device;
  out->ndim = t->ndim;
  out->dtype = t->dl_dtype;
  out->shape = t->shape;
  out->strides = t->strides;
  out->byte_offset = 0;
  return 0;
}
static int dltensor_from_lua_rw(lua_State *L, int idx, DLTensor *out) {
  return dltensor_from_lua(L, idx, out, 0);
}
static int dltensor_from_lua_ro(lua_State *L, int idx, DLTensor *out) {
  return dltensor_from_lua(L, idx, out, 1);
}

static int work_stream(DLDeviceType device_type, int32_t device_id, void **out_current_stream) {
  (void)device_type;
  (void)device_id;
  if (!out_current_stream) return -1;
  *out_current_stream = NULL;
  return 0;
}

/* }====== */

static const ltensor_exchange_api regular = {
    {{1, 3}, NULL}, allocator, from_lua_rw, to_lua_rw, dltensor_from_lua_rw, work_stream};
static const ltensor_exchange_api constant = {
    {{1, 3}, NULL}, allocator, from_lua_ro, to_lua_ro, dltensor_from_lua_ro, work_stream};

const ltensor_exchange_api *ltensor_exchange(void) { return &regular; }
const ltensor_exchange_api *ltensor_exchange_const(void) { return &constant; }
