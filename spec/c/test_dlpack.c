/*
 * test_dlpack.c -- DLPack import and export, through the core (lt_dlpack_import /
 * lt_dlpack_export) and through Lua (capsules pushed exactly as another Lua C module would,
 * from_dlpack, to_dlpack, t:__dlpack), with hand-built managed tensors whose deleter counts its
 * calls and frees what the test allocated, so that a leak or a double free shows under ASan.
 * Also: capsule lifecycle, exports that outlive their lua_State, and tensors shared between
 * states on different threads.
 */
#define _POSIX_C_SOURCE 200809L

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_dlpack.h"
#include "ltensor.h"
#include "test_lua.h"
#include "test_managed.h"
#include "test_util.h"

/* {====== hand-built managed tensors with a counting deleter ====== */

static atomic_long g_created, g_deleted;
static pthread_t g_del_thread; /* the thread that ran the last deleter */

#define MAXD (LT_MAX_NDIM + 1)

/* One allocation per managed tensor: the managed tensor first, so &b->m is what is passed. */
typedef struct {
  union {
    DLManagedTensorVersioned v;
    DLManagedTensor l;
  } m;
  int versioned;
  void *owned; /* malloc'd data, freed by the deleter (NULL for fake or static data) */
  int64_t shape[MAXD];
  int64_t strides[MAXD];
} tblock;

static void tb_free(tblock *b) {
  atomic_fetch_add(&g_deleted, 1);
  g_del_thread = pthread_self();
  free(b->owned);
  free(b);
}
static void del_versioned(DLManagedTensorVersioned *self) { tb_free(self->manager_ctx); }
static void del_legacy(DLManagedTensor *self) { tb_free(self->manager_ctx); }

static long deleted(void) { return atomic_load(&g_deleted); }

static DLTensor *tdl(tblock *b) { return b->versioned ? &b->m.v.dl_tensor : &b->m.l.dl_tensor; }

#define F32 dt_of(kDLFloat, 32, 1)

/* A CPU managed tensor of ndim dims (shape copied), NULL strides, nbytes of owned data (NULL
   data when 0), version 1.3, flags 0. */
static tblock *mk(int versioned, DLDataType dt, int ndim, const int64_t *shape, size_t nbytes) {
  tblock *b = calloc(1, sizeof *b);
  if (!b) abort();
  atomic_fetch_add(&g_created, 1);
  b->versioned = versioned;
  if (nbytes) {
    b->owned = calloc(1, nbytes);
    if (!b->owned) abort();
  }
  for (int i = 0; i < ndim && i < MAXD; i++) b->shape[i] = shape[i];
  tm_manage(&b->m, versioned, tm_desc(b->owned, dt, ndim, b->shape, NULL), b, del_versioned,
            del_legacy, 0);
  return b;
}

/* A float32 tensor holding 0, 1, 2, ... (n floats of data). */
static tblock *mk_iota(int versioned, int ndim, const int64_t *shape, int n) {
  tblock *b = mk(versioned, F32, ndim, shape, (size_t)n * sizeof(float));
  float *f = b->owned;
  for (int i = 0; i < n; i++) f[i] = (float)i;
  return b;
}

static void set_strides(tblock *b, int ndim, const int64_t *strides) {
  for (int i = 0; i < ndim; i++) b->strides[i] = strides[i];
  tdl(b)->strides = b->strides;
}

static float fget(tblock *b, int i) { return ((float *)b->owned)[i]; }

#define A(...) ((const int64_t[]){__VA_ARGS__})

/* }====== */

/* {====== Lua helpers ====== */

/* A state with ltensor.core registered as a host that links ltensor statically does, and the
   globals lt and dlpack (tl_load_ltensor). */
static lua_State *new_state(void) {
  lua_State *L = luaL_newstate();
  if (!L) abort();
  luaL_openlibs(L);
  tl_load_ltensor(L);
  return L;
}

/* Pushes a capsule exactly as another Lua C module would: a full userdata holding the pointer,
   with the registry metatable of its kind. */
static void push_capsule(lua_State *L, void *m, int versioned) {
  void **p = lua_newuserdatauv(L, sizeof(void *), 0);
  *p = m;
  luaL_setmetatable(L, versioned ? "dltensor_versioned" : "dltensor");
}

/* Stores a capsule of m in the global `cap` and calls require("ltensor.dlpack").from_dlpack(cap)
   under lua_pcall; the result goes to the global `name`. 0 on error, message in g_msg. */
static int lua_import(lua_State *L, void *m, int versioned, const char *name) {
  int top = lua_gettop(L);
  push_capsule(L, m, versioned);
  lua_setglobal(L, "cap");
  lua_getglobal(L, "require");
  lua_pushliteral(L, "ltensor.dlpack");
  int rc = lua_pcall(L, 1, 1, 0);
  if (rc == LUA_OK) {
    lua_getfield(L, -1, "from_dlpack");
    lua_getglobal(L, "cap");
    rc = lua_pcall(L, 1, 1, 0);
    if (rc == LUA_OK) lua_setglobal(L, name);
  }
  if (rc != LUA_OK) set_msg(L);
  lua_settop(L, top);
  return rc == LUA_OK;
}

/* Whether the value at idx has the registry metatable `name`. */
static int has_mt(lua_State *L, int idx, const char *name) {
  idx = lua_absindex(L, idx);
  if (!lua_getmetatable(L, idx)) return 0;
  luaL_getmetatable(L, name);
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

/* Takes the managed tensor out of the capsule in global `name` by the consumption convention
   (pointer set to NULL, metatable switched to the "used" one); NULL when it is no live capsule. */
static void *take_capsule(lua_State *L, const char *name, int *versioned) {
  void *m = NULL;
  lua_getglobal(L, name);
  if (lua_type(L, -1) == LUA_TUSERDATA && lua_rawlen(L, -1) == sizeof(void *)) {
    int v = has_mt(L, -1, "dltensor_versioned"), l = has_mt(L, -1, "dltensor");
    if (v || l) {
      void **p = lua_touserdata(L, -1);
      m = *p;
      *p = NULL;
      luaL_setmetatable(L, v ? "used_dltensor_versioned" : "used_dltensor");
      *versioned = v;
    }
  }
  lua_pop(L, 1);
  return m;
}

/* The pointer held by the capsule in global `name` (without consuming it). */
static void *capsule_ptr(lua_State *L, const char *name) {
  lua_getglobal(L, name);
  void **p = lua_touserdata(L, -1);
  void *m = p ? *p : (void *)&g_msg; /* not NULL when it is no userdata */
  lua_pop(L, 1);
  return m;
}

static int global_has_mt(lua_State *L, const char *global, const char *mt) {
  lua_getglobal(L, global);
  int r = has_mt(L, -1, mt);
  lua_pop(L, 1);
  return r;
}

/* }====== */

/* {====== validation: every rule of lt_dlpack_import, through the core and through Lua ====== */

enum { NBAD = 26 };

/* Invalid cases 0 to 12 (of b, whose DLTensor is d): the version, dims, shape and strides. */
static void bad_layout(tblock *b, DLTensor *d, int i, const char **want) {
  switch (i) {
    case 0:
      b->m.v.version.major = 2;
      b->m.v.version.minor = 0;
      *want = "version 2.0";
      break;
    case 1:
      b->m.v.version.major = 0;
      b->m.v.version.minor = 9;
      *want = "version 0.9";
      break;
    case 2:
      b->m.v.version.major = 2;
      b->m.v.version.minor = 1;
      d->ndim = -7; /* the version is checked before anything else */
      *want = "version 2.1";
      break;
    case 3:
      d->ndim = -1;
      *want = "-1 dims";
      break;
    case 4:
      d->ndim = 65;
      for (int k = 0; k < 65; k++) b->shape[k] = 1;
      *want = "65 dims";
      break;
    case 5:
      d->shape = NULL;
      *want = "NULL shape";
      break;
    case 6:
      b->shape[1] = -3;
      *want = "DLPack tensor: size -3 of dim 2 is negative";
      break;
    case 7:
      b->shape[0] = b->shape[1] = (int64_t)1 << 32;
      *want = "DLPack tensor: shape has too many elements (overflow)";
      break;
    case 8: /* (3 - 1) * 2^62 overflows int64 */
      d->ndim = 1;
      b->shape[0] = 3;
      set_strides(b, 1, A((int64_t)1 << 62));
      *want = "strides overflow";
      break;
    case 9: /* the span fits, its bytes do not: (2^61 + 1) * 4 */
      d->ndim = 1;
      b->shape[0] = 2;
      set_strides(b, 1, A((int64_t)1 << 61));
      *want = "too large";
      break;
    case 10: /* sum of two in-range parts overflows */
      set_strides(b, 2, A(INT64_MAX, 1));
      *want = "strides overflow";
      break;
    case 11:
      d->ndim = 1;
      set_strides(b, 1, A(INT64_MIN));
      *want = "strides overflow";
      break;
    case 12: /* negative strides count by magnitude */
      d->ndim = 1;
      b->shape[0] = 3;
      set_strides(b, 1, A(-((int64_t)1 << 62)));
      *want = "strides overflow";
      break;
    default: abort();
  }
}

/* Invalid cases 13 to 25: the dtype (13 to 19, from float32), device (20 to 22), data and
   offset. */
static void bad_contents(DLTensor *d, int i, const char **want) {
  static const struct {
    DLDataType dt;
    const char *want;
  } dtypes[] = {
      {{18, 32, 1}, "invalid dtype (code 18"},
      {{kDLInt, 12, 1}, "code 0, bits 12,"},
      {{kDLFloat, 8, 1}, "code 2, bits 8,"},
      {{kDLBool, 16, 1}, "code 6, bits 16,"},
      {{kDLFloat, 32, 0}, "lanes 0"},
      {{kDLFloat, 0, 1}, "bits 0,"},
      {{kDLFloat8_e4m3fn, 16, 1}, "code 10, bits 16,"},
  };
  static const struct {
    int type;
    const char *want;
  } devices[] = {
      {5, "unknown device type 5"}, {99, "unknown device type 99"}, {0, "unknown device type 0"}};
  if (i >= 13 && i < 20) {
    d->dtype = dtypes[i - 13].dt;
    *want = dtypes[i - 13].want;
  } else if (i >= 20 && i < 23) {
    d->device.device_type = (DLDeviceType)devices[i - 20].type;
    *want = devices[i - 20].want;
  } else if (i == 23) {
    d->data = NULL;
    *want = "NULL data";
  } else if (i == 24) {
    d->byte_offset = 2;
    *want = "byte_offset 2 ";
  } else if (i == 25) { /* four float32 lanes: 16-byte elements */
    d->dtype = dt_of(kDLFloat, 32, 4);
    d->byte_offset = 4;
    *want = "byte_offset 4 ";
  } else {
    abort();
  }
}

/* Builds invalid case i (NULL when it does not apply to this form); *want: a piece of the
   error message. Data is real owned memory, so the deleter's free shows under ASan. */
static tblock *bad_case(int i, int versioned, const char **want) {
  if (!versioned && i < 3) return NULL; /* version cases */
  tblock *b = mk(versioned, F32, 2, A(2, 3), 64);
  if (i < 13)
    bad_layout(b, tdl(b), i, want);
  else
    bad_contents(tdl(b), i, want);
  return b;
}

/* A check of invalid case i (versioned or legacy), b built by bad_case, want a piece of its
   message; L: a state, for the checks through Lua. */
typedef void (*bad_check)(lua_State *L, tblock *b, int i, int versioned, const char *want);

/* Runs check on every invalid case, in both forms. */
static void each_bad_case(lua_State *L, bad_check check) {
  for (int versioned = 0; versioned <= 1; versioned++)
    for (int i = 0; i < NBAD; i++) {
      const char *want = "";
      tblock *b = bad_case(i, versioned, &want);
      if (b) check(L, b, i, versioned, want);
    }
}

/* lt_dlpack_import refuses the case: *out unwritten, the deleter run once, the message. */
static void bad_core(lua_State *L, tblock *b, int i, int versioned, const char *want) {
  (void)L;
  long before = deleted();
  static lt_frame sentinel_frame;
  lt_tensor *sentinel = &sentinel_frame.t, *t = sentinel;
  lt_error err;
  strcpy(err.msg, "(none)");
  int rc = lt_dlpack_import(&b->m, versioned, &t, &err);
  CHECKF(rc != LT_OK, "case %d (versioned %d) was accepted", i, versioned);
  CHECKF(t == sentinel, "case %d: *out was written", i);
  CHECKF(deleted() == before + 1, "case %d (versioned %d): deleter ran %ld times", i, versioned,
         deleted() - before);
  CHECKF(strstr(err.msg, want) != NULL, "case %d (versioned %d): message '%s' lacks '%s'", i,
         versioned, err.msg, want);
  if (rc == LT_OK && t != sentinel) lt_tensor_free(t);
}

static void test_validation_core(void) {
  each_bad_case(NULL, bad_core);
  /* NULL is refused without a crash; a NULL err is allowed */
  lt_tensor *t = NULL;
  lt_error err;
  CHECK(lt_dlpack_import(NULL, 1, &t, &err) != LT_OK && t == NULL);
  const char *want;
  tblock *b = bad_case(6, 1, &want);
  long before = deleted();
  CHECK(lt_dlpack_import(&b->m, 1, &t, NULL) != LT_OK && t == NULL);
  CHECK(deleted() == before + 1);
}

/* Through Lua: refused with the message, the capsule consumed (no second deleter). */
static void bad_lua(lua_State *L, tblock *b, int i, int versioned, const char *want) {
  long before = deleted();
  int ok = lua_import(L, &b->m, versioned, "t");
  CHECKF(!ok, "case %d (versioned %d) was accepted through Lua", i, versioned);
  CHECKF(deleted() == before + 1, "case %d (versioned %d): deleter ran %ld times at once", i,
         versioned, deleted() - before);
  CHECKF(strstr(g_msg, want) != NULL, "case %d (versioned %d): Lua error '%s' lacks '%s'", i,
         versioned, g_msg, want);
  /* the capsule was consumed before validation: no second deleter from its __gc */
  CHECKF(capsule_ptr(L, "cap") == NULL, "case %d: capsule pointer not cleared", i);
  CHECKF(global_has_mt(L, "cap", versioned ? "used_dltensor_versioned" : "used_dltensor"),
         "case %d: capsule not marked used", i);
  LOK(L, "cap = nil");
  lua_gc(L, LUA_GCCOLLECT, 0);
  CHECKF(deleted() == before + 1, "case %d: deleter ran again at collection", i);
}

static void test_validation_lua(void) {
  lua_State *L = new_state();
  each_bad_case(L, bad_lua);
  long before = deleted();
  lua_close(L);
  CHECK(deleted() == before);
}

/* }====== */

/* {====== accepted layouts ====== */

static void accept_strided(void) {
  lt_error err;
  lt_tensor *t = NULL;
  /* NULL strides: compact row-major */
  tblock *b = mk_iota(1, 2, A(2, 3), 6);
  long before = deleted();
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->dtype == LT_FLOAT32 && t->ndim == 2 && dims_eq(t->shape, A(2, 3), 2));
  CHECK(dims_eq(t->strides, A(3, 1), 2));
  CHECK(lt_data(t) == b->owned && t->readonly == LT_WRITABLE && t->offset == 0);
  CHECK(t->storage->device.device_type == kDLCPU);
  CHECK(deleted() == before);
  lt_tensor *v = NULL;
  CHECK_RC(lt_transpose(t, 0, 1, &v, &err), LT_OK);
  lt_tensor_free(t);
  CHECK(deleted() == before); /* the view keeps it */
  lt_tensor_free(v);
  CHECK(deleted() == before + 1);

  /* legacy form, same rules */
  b = mk_iota(0, 1, A(4), 4);
  CHECK_RC(lt_dlpack_import(&b->m, 0, &t, &err), LT_OK);
  CHECK(lt_data(t) == b->owned && t->readonly == LT_WRITABLE && t->strides[0] == 1);
  lt_tensor_free(t);
  CHECK(deleted() == before + 2);

  /* a valid byte_offset is honoured */
  b = mk_iota(1, 1, A(3), 8);
  tdl(b)->byte_offset = 2 * sizeof(float);
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(lt_data(t) == (char *)b->owned + 8);
  CHECK(*(float *)lt_data(t) == 2.0f);
  void *out = NULL;
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  DLManagedTensorVersioned *m = out;
  CHECK(m->dl_tensor.data == (char *)b->owned + 8 && m->dl_tensor.byte_offset == 0);
  lt_tensor_free(t);
  CHECK(deleted() == before + 2);
  m->deleter(m);
  CHECK(deleted() == before + 3);

  /* minor versions beyond 1.3 are read; a NULL deleter is allowed */
  static float statics[2] = {1.5f, 2.5f};
  b = mk(1, F32, 1, A(2), 0);
  tdl(b)->data = statics;
  b->m.v.version.minor = 9;
  b->m.v.deleter = NULL;
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(*(float *)lt_data(t) == 1.5f);
  lt_tensor_free(t);
  CHECK(deleted() == before + 3);
  b->m.v.deleter = del_versioned;
  b->m.v.deleter(&b->m.v);
}

static void accept_unusual(void) {
  lt_error err;
  lt_tensor *t = NULL;
  tblock *b;
  void *out = NULL;
  DLManagedTensorVersioned *m;
  long before;
  /* size 0 with NULL data is accepted and re-exports with an address (torch < 2.3 leaks NULL) */
  before = deleted();
  b = mk(1, F32, 2, A(0, 3), 0);
  CHECK(tdl(b)->data == NULL);
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(lt_numel(t) == 0 && dims_eq(t->shape, A(0, 3), 2));
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  m = out;
  CHECK(m->dl_tensor.data != NULL && m->dl_tensor.ndim == 2);
  CHECK(dims_eq(m->dl_tensor.shape, A(0, 3), 2) && m->dl_tensor.strides != NULL);
  lt_tensor_free(t);
  CHECK(deleted() == before);
  m->deleter(m);
  CHECK(deleted() == before + 1);

  /* 0-d tensor, shape and strides NULL */
  b = mk(1, F32, 0, NULL, sizeof(float));
  tdl(b)->shape = NULL;
  *(float *)b->owned = 7.5f;
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->ndim == 0 && lt_numel(t) == 1 && *(float *)lt_data(t) == 7.5f);
  lt_tensor_free(t);
  CHECK(deleted() == before + 2);

  /* fp4 packed two to a byte; byte_offset must then be 0; padded ones say so on re-export */
  b = mk(1, dt_of(kDLFloat4_e2m1fn, 4, 1), 1, A(4), 2);
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->dtype == LT_OPAQUE && t->packed);
  int64_t nb = 0; /* nbytes: 4 elements of 4 bits are 2 bytes, not 4 */
  CHECK(lt_nbytes(t, &nb, &err) == LT_OK && nb == 2);
  t->shape[0] = 3; /* an odd count rounds up */
  CHECK(lt_nbytes(t, &nb, &err) == LT_OK && nb == 2);
  t->shape[0] = 4;
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  m = out;
  CHECK(m->dl_tensor.dtype.code == kDLFloat4_e2m1fn && m->dl_tensor.dtype.bits == 4);
  CHECK(!(m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED));
  m->deleter(m);
  lt_tensor_free(t);
  b = mk(1, dt_of(kDLFloat4_e2m1fn, 4, 1), 1, A(4), 4);
  b->m.v.flags = DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->dtype == LT_OPAQUE && !t->packed && lt_esize(t) == 1);
  CHECK(lt_nbytes(t, &nb, &err) == LT_OK && nb == 4); /* padded: a byte each */
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  m = out;
  CHECK(m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
  m->deleter(m);
  lt_tensor_free(t);
  b = mk(1, dt_of(kDLFloat4_e2m1fn, 4, 1), 1, A(2), 4);
  tdl(b)->byte_offset = 1;
  CHECK(lt_dlpack_import(&b->m, 1, &t, &err) != LT_OK);
  CHECK(deleted() == before + 5);

  /* vector lanes and fp8 are kept, opaque */
  b = mk(1, dt_of(kDLFloat, 32, 4), 1, A(3), 48);
  tdl(b)->byte_offset = 16;
  b->shape[0] = 2;
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->dtype == LT_OPAQUE && lt_esize(t) == 16 && lt_data(t) == (char *)b->owned + 16);
  CHECK(lt_check_readable(t, &err) == LT_EOPAQUE && strstr(err.msg, "lanes 4"));
  lt_tensor_free(t);
  b = mk(1, dt_of(kDLFloat8_e4m3fn, 8, 1), 2, A(2, 3), 6);
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->dtype == LT_OPAQUE && lt_esize(t) == 1);
  CHECK(lt_check_readable(t, &err) == LT_EOPAQUE);
  lt_tensor *c = NULL;
  CHECK(lt_clone(t, &c, &err) != LT_OK && c == NULL);
  lt_tensor_free(t);
  CHECK(deleted() == before + 7);
}

static void test_accept_core(void) {
  accept_strided();
  accept_unusual();
}

static void test_accept_lua(void) {
  lua_State *L = new_state();
  long before = deleted();

  /* NULL strides; writes through Lua land in the producer's memory */
  tblock *b = mk_iota(1, 2, A(2, 3), 6);
  float *data = b->owned;
  CHECKF(lua_import(L, &b->m, 1, "t"), "%s", g_msg);
  LTRUE(L, "same(t.shape, {2, 3}) and same(t:stride(), {3, 1}) and t.dtype == 'float32'");
  LTRUE(L, "same(t:tolist(), {{0, 1, 2}, {3, 4, 5}})");
  LTRUE(L, "t[2][3] == 5 and t:get(1, 2) == 1 and t.device == 'cpu'");
  LTRUE(L, "not t:is_read_only() and t:data_ptr() == t:transpose(1, 2):data_ptr()");
  LOK(L, "t[2][1] = 42; t:set(1, 3, -1)");
  CHECK(data[3] == 42.0f && data[2] == -1.0f);
  data[0] = 9.0f;
  LTRUE(L, "t[1][1] == 9");
  CHECK(capsule_ptr(L, "cap") == NULL && global_has_mt(L, "cap", "used_dltensor_versioned"));

  /* legacy capsule */
  b = mk_iota(0, 1, A(3), 3);
  CHECKF(lua_import(L, &b->m, 0, "l"), "%s", g_msg);
  LTRUE(L, "same(l:tolist(), {0, 1, 2}) and not l:is_read_only()");
  CHECK(global_has_mt(L, "cap", "used_dltensor"));

  /* a valid byte_offset: elements read from data + byte_offset */
  b = mk_iota(1, 1, A(3), 8);
  tdl(b)->byte_offset = 2 * sizeof(float);
  CHECKF(lua_import(L, &b->m, 1, "o"), "%s", g_msg);
  LTRUE(L, "same(o:tolist(), {2, 3, 4}) and o[-1] == 4 and #o == 3");
  LOK(L, "o[1] = 20");
  CHECK(fget(b, 2) == 20.0f && fget(b, 0) == 0.0f);

  /* negative strides: a reversed view, data pointing at element 0 */
  b = mk_iota(1, 1, A(4), 4);
  tdl(b)->byte_offset = 3 * sizeof(float);
  set_strides(b, 1, A(-1));
  CHECKF(lua_import(L, &b->m, 1, "r"), "%s", g_msg);
  LTRUE(L, "same(r:tolist(), {3, 2, 1, 0}) and r:stride(1) == -1 and r[1] == 3");
  b = mk_iota(1, 2, A(2, 2), 4);
  tdl(b)->data = (float *)b->owned + 2;
  set_strides(b, 2, A(-2, 1));
  CHECKF(lua_import(L, &b->m, 1, "r2"), "%s", g_msg);
  LTRUE(L, "same(r2:tolist(), {{2, 3}, {0, 1}}) and r2[2][1] == 0");
  LOK(L, "r2[2][2] = 11");
  CHECK(fget(b, 1) == 11.0f);

  /* zero strides: a broadcast, every row the same memory */
  b = mk_iota(1, 2, A(3, 2), 2);
  set_strides(b, 2, A(0, 1));
  CHECKF(lua_import(L, &b->m, 1, "z"), "%s", g_msg);
  LTRUE(L, "same(z:tolist(), {{0, 1}, {0, 1}, {0, 1}}) and z:stride(1) == 0");
  LOK(L, "z[3][2] = 7");
  LTRUE(L, "z[1][2] == 7 and z[2][2] == 7");
  CHECK(fget(b, 1) == 7.0f);

  /* 0-d tensor */
  b = mk(1, F32, 0, NULL, sizeof(float));
  tdl(b)->shape = NULL;
  *(float *)b->owned = 7.5f;
  CHECKF(lua_import(L, &b->m, 1, "s"), "%s", g_msg);
  LTRUE(L, "s:item() == 7.5 and s.ndim == 0 and s:numel() == 1 and same(s.shape, {})");

  /* integer dtype: Lua integers */
  b = mk(1, dt_of(kDLInt, 32, 1), 1, A(2), 8);
  ((int32_t *)b->owned)[1] = -5;
  CHECKF(lua_import(L, &b->m, 1, "i"), "%s", g_msg);
  LTRUE(L, "i.dtype == 'int32' and math.type(i[2]) == 'integer' and i[2] == -5");

  /* size 0, NULL data: accepted, and re-exported with an address (torch < 2.3 leaks NULL) */
  b = mk(1, F32, 2, A(0, 3), 0);
  CHECKF(lua_import(L, &b->m, 1, "e"), "%s", g_msg);
  LTRUE(L, "e:numel() == 0 and same(e.shape, {0, 3}) and same(e:tolist(), {})");
  LOK(L, "ecap = e:__dlpack{max_version = {1, 3}}");
  int versioned = 0;
  DLManagedTensorVersioned *m = take_capsule(L, "ecap", &versioned);
  CHECK(m && versioned);
  if (m) {
    CHECK(m->dl_tensor.data != NULL && m->dl_tensor.ndim == 2 && m->dl_tensor.strides);
    CHECK(dims_eq(m->dl_tensor.shape, A(0, 3), 2));
    m->deleter(m);
  }

  CHECK(deleted() == before); /* all still held by Lua */
  lua_close(L);
  CHECK(deleted() == before + 9);
}

/* }====== */

/* {====== READ_ONLY ====== */

static void test_read_only(void) {
  lt_error err;
  lt_tensor *t = NULL;
  long before = deleted();

  /* core */
  tblock *b = mk_iota(1, 1, A(3), 3);
  b->m.v.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  CHECK_RC(lt_dlpack_import(&b->m, 1, &t, &err), LT_OK);
  CHECK(t->readonly == LT_RO_DLPACK);
  CHECK(lt_check_writable(t, &err) == LT_EREADONLY && strstr(err.msg, "read-only"));
  void *sentinel = &g_msg, *out = sentinel;
  CHECK(lt_dlpack_export(t, 0, 0, 0, &out, &err) == LT_EREADONLY && out == sentinel);
  CHECK(strstr(err.msg, "read-only") != NULL);
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  DLManagedTensorVersioned *m = out;
  CHECK(m->flags == DLPACK_FLAG_BITMASK_READ_ONLY && m->dl_tensor.data == b->owned);
  lt_tensor *t2 = NULL; /* and back: still read-only */
  CHECK_RC(lt_dlpack_import(m, 1, &t2, &err), LT_OK);
  CHECK(t2->readonly == LT_RO_DLPACK);
  lt_tensor_free(t);
  lt_tensor_free(t2);
  CHECK(deleted() == before + 1);

  /* Lua */
  lua_State *L = new_state();
  b = mk_iota(1, 1, A(3), 3);
  b->m.v.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  CHECKF(lua_import(L, &b->m, 1, "t"), "%s", g_msg);
  LTRUE(L, "t:is_read_only() == true and t[2] == 1 and same(t:tolist(), {0, 1, 2})");
  LERRS(L, "read-only", "t[1] = 5", "t[-1] = 5", "t[{2}] = 5", "t[{{1, 2}}] = 5", "t:set(1, 5)",
        "t:fill_(5)", "t:zero_()", "t:copy_(lt.zeros(3))", "t:view(3, 1)[1][1] = 5",
        "t:view(3, 1):select(2, 1)[1] = 5");
  LTRUE(L, "t:narrow(1, 1, 2):is_read_only()");
  CHECK(fget(b, 0) == 0.0f && fget(b, 1) == 1.0f && fget(b, 2) == 2.0f);
  LTRUE(L, "not t:clone():is_read_only()");
  LERRS(L, "read-only", "dlpack.to_dlpack(t)", "t:__dlpack()", "t:__dlpack{max_version = {0, 8}}");
  LOK(L, "rcap = t:__dlpack{max_version = {1, 3}}");
  int versioned = 0;
  m = take_capsule(L, "rcap", &versioned);
  CHECK(m && versioned);
  if (m) {
    CHECK(m->flags & DLPACK_FLAG_BITMASK_READ_ONLY);
    CHECK(m->dl_tensor.data == b->owned);
    m->deleter(m);
  }
  CHECK(deleted() == before + 1);
  lua_close(L);
  CHECK(deleted() == before + 2);
}

/* }====== */

/* {====== opaque: fp8, vector lanes, CUDA ====== */

static void opaque_fp8_lanes(lua_State *L) {
  int versioned = 0;
  /* fp8 e4m3fn */
  tblock *b = mk(1, dt_of(kDLFloat8_e4m3fn, 8, 1), 2, A(2, 3), 6);
  CHECKF(lua_import(L, &b->m, 1, "f"), "%s", g_msg);
  LTRUE(L, "same(f.shape, {2, 3}) and f.dtype == 'float8_e4m3fn'");
  LTRUE(L, "f:numel() == 6 and f:element_size() == 1 and f.ndim == 2 and f.device == 'cpu'");
  LERRS(L, "cannot be read", "return f[1][1]", "return f:get(1, 1)", "return f[{1, 1}]",
        "return f:tolist()", "f[1][1] = 0", "f:fill_(0)", "return f:clone()");
  LOK(L, "ft = f:transpose(1, 2); fr = f:reshape(3, 2); fv = f:view(6); fs = f[2]");
  LTRUE(L, "same(ft.shape, {3, 2}) and same(ft:stride(), {1, 3}) and same(fr.shape, {3, 2})");
  LTRUE(L, "same(fv.shape, {6}) and same(fs.shape, {3}) and fs:storage_offset() == 3");
  LTRUE(L, "ft.dtype == f.dtype and fs.dtype == f.dtype");
  LERR(L, "return ft:reshape(6)", "cannot be read"); /* would need a copy */
  LERR(L, "return fs[1]", "cannot be read");
  LERR(L, "return f:__dlpack{max_version = {1, 3}, copy = true}", "cannot be read");
  LOK(L,
      "c1 = f:__dlpack{max_version = {1, 3}}; c2 = ft:__dlpack{max_version = {1, 3}}; "
      "c3 = fs:__dlpack{max_version = {1, 3}}");
  DLManagedTensorVersioned *m1 = take_capsule(L, "c1", &versioned);
  CHECK(m1 && versioned);
  DLManagedTensorVersioned *m2 = take_capsule(L, "c2", &versioned);
  CHECK(m2 && versioned);
  DLManagedTensorVersioned *m3 = take_capsule(L, "c3", &versioned);
  CHECK(m3 && versioned);
  if (m1 && m2 && m3) {
    DLTensor *d = &m1->dl_tensor;
    CHECK(d->dtype.code == kDLFloat8_e4m3fn && d->dtype.bits == 8 && d->dtype.lanes == 1);
    CHECK(d->data == b->owned && d->ndim == 2 && dims_eq(d->shape, A(2, 3), 2));
    CHECK(dims_eq(d->strides, A(3, 1), 2) && d->byte_offset == 0);
    CHECK(d->device.device_type == kDLCPU && m1->flags == 0);
    d = &m2->dl_tensor;
    CHECK(d->dtype.code == kDLFloat8_e4m3fn && d->dtype.bits == 8);
    CHECK(d->data == b->owned && dims_eq(d->shape, A(3, 2), 2) && dims_eq(d->strides, A(1, 3), 2));
    d = &m3->dl_tensor;
    CHECK(d->data == (char *)b->owned + 3 && d->ndim == 1 && d->shape[0] == 3);
    m1->deleter(m1);
    m2->deleter(m2);
    /* m3 re-imported into Lua: still fp8, still the same memory */
    CHECKF(lua_import(L, m3, 1, "f3"), "%s", g_msg);
    LTRUE(L, "f3.dtype == f.dtype and same(f3.shape, {3}) and f3:data_ptr() == fs:data_ptr()");
  }

  /* vector lanes: kept, opaque */
  b = mk(1, dt_of(kDLFloat, 32, 4), 1, A(3), 48);
  CHECKF(lua_import(L, &b->m, 1, "v4"), "%s", g_msg);
  LTRUE(L, "v4.dtype == 'dlpack(code=2,bits=32,lanes=4)' and v4:element_size() == 16");
  LTRUE(L, "same(v4.shape, {3}) and v4:nbytes() == 48");
  LERR(L, "return v4[1]", "lanes 4");
  LOK(L, "v4r = v4:reshape(3, 1):transpose(1, 2); c4 = v4r:__dlpack{max_version = {1, 3}}");
  DLManagedTensorVersioned *m4 = take_capsule(L, "c4", &versioned);
  CHECK(m4 != NULL);
  if (m4) {
    DLTensor *d = &m4->dl_tensor;
    CHECK(d->dtype.code == kDLFloat && d->dtype.bits == 32 && d->dtype.lanes == 4);
    CHECK(d->data == b->owned && dims_eq(d->shape, A(1, 3), 2));
    m4->deleter(m4);
  }
}

static void opaque_devices(lua_State *L) {
  int versioned = 0;
  tblock *b;
  /* CUDA: a fake device pointer, never dereferenced */
  void *fake = (void *)(uintptr_t)0xdead0000u;
  b = mk(1, F32, 2, A(2, 2), 0);
  tdl(b)->data = fake;
  tdl(b)->device.device_type = kDLCUDA;
  CHECKF(lua_import(L, &b->m, 1, "g"), "%s", g_msg);
  LTRUE(L, "g.device == 'cuda:0' and same(g.shape, {2, 2}) and g.dtype == 'float32'");
  LTRUE(L, "g:numel() == 4 and g:data_ptr() == 0xdead0000");
  LTRUE(L,
        "select('#', g:__dlpack_device()) == 2 and g:__dlpack_device() == 2 and "
        "select(2, g:__dlpack_device()) == 0");
  LERRS(L, "cuda:0", "return g[1][1]", "return g:get(1, 2)", "return g:tolist()", "return g:item()",
        "g[1][1] = 1", "g:fill_(1)", "return g:clone()",
        "return g:__dlpack{max_version = {1, 3}, copy = true}",
        "return g:__dlpack{max_version = {1, 3}, dl_device = {1, 0}}",
        "return dlpack.from_dlpack(g, {device = 'cpu'})");
  LOK(L, "gt = g:transpose(1, 2); gr = g[2]");
  LTRUE(L, "same(gt.shape, {2, 2}) and gt.device == 'cuda:0' and gr.device == 'cuda:0'");
  LOK(L, "cg = gt:__dlpack{max_version = {1, 3}, dl_device = {2, 0}}; cl = dlpack.to_dlpack(gr)");
  DLManagedTensorVersioned *mg = take_capsule(L, "cg", &versioned);
  CHECK(mg && versioned);
  if (mg) {
    DLTensor *d = &mg->dl_tensor;
    CHECK(d->device.device_type == kDLCUDA && d->device.device_id == 0);
    CHECK(d->data == fake && dims_eq(d->shape, A(2, 2), 2) && dims_eq(d->strides, A(1, 2), 2));
    mg->deleter(mg);
  }
  DLManagedTensor *ml = take_capsule(L, "cl", &versioned);
  CHECK(ml && !versioned);
  if (ml) {
    DLTensor *d = &ml->dl_tensor;
    CHECK(d->device.device_type == kDLCUDA && d->data == (char *)fake + 8 && d->ndim == 1);
    ml->deleter(ml);
  }
  /* another device id; a host-readable device type reads */
  b = mk(1, F32, 1, A(2), 0);
  tdl(b)->data = fake;
  tdl(b)->device.device_type = kDLROCM;
  tdl(b)->device.device_id = 3;
  CHECKF(lua_import(L, &b->m, 1, "g3"), "%s", g_msg);
  LTRUE(L, "g3.device == 'rocm:3'");
  LERR(L, "return g3[1]", "rocm:3");
  b = mk_iota(1, 1, A(2), 2);
  tdl(b)->device.device_type = kDLCUDAHost;
  CHECKF(lua_import(L, &b->m, 1, "h"), "%s", g_msg);
  LTRUE(L, "h.device == 'cuda_host:0' and h[2] == 1");
}

static void test_opaque_lua(void) {
  lua_State *L = new_state();
  long before = deleted();
  opaque_fp8_lanes(L);
  opaque_devices(L);
  CHECK(deleted() == before);
  lua_close(L);
  CHECK(deleted() == before + 5);
}

/* }====== */

/* {====== export through the core ====== */

/* Checks the DLTensor of an export of t. */
static void check_export(const char *what, const DLTensor *d, const lt_tensor *t, void *data,
                         const int64_t *strides) {
  CHECKF(d->data == data, "%s: data %p, expected %p", what, d->data, data);
  CHECKF(d->device.device_type == kDLCPU && d->device.device_id == 0, "%s: device", what);
  CHECKF(d->ndim == t->ndim, "%s: ndim %d", what, (int)d->ndim);
  CHECKF(d->dtype.code == kDLFloat && d->dtype.bits == 32 && d->dtype.lanes == 1, "%s: dtype",
         what);
  CHECKF(dims_eq(d->shape, t->shape, t->ndim), "%s: shape", what);
  CHECKF(t->ndim == 0 || d->strides != NULL, "%s: strides not filled", what);
  CHECKF(dims_eq(d->strides, strides, t->ndim), "%s: strides", what);
  CHECKF(d->byte_offset == 0, "%s: byte_offset", what);
}

static void test_export_core(void) {
  lt_error err;
  lt_tensor *t = NULL, *tt = NULL;
  CHECK_RC(lt_tensor_new(LT_FLOAT32, 2, A(2, 3), 0, &t, &err), LT_OK);
  float *f = (float *)lt_data(t);
  for (int i = 0; i < 6; i++) f[i] = (float)(i + 1);
  CHECK_RC(lt_transpose(t, 0, 1, &tt, &err), LT_OK);
  void *out = NULL;

  /* versioned, shared */
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  DLManagedTensorVersioned *mv = out;
  CHECK(mv->version.major == 1 && mv->version.minor == 3);
  CHECK(mv->flags == 0 && lt_dlpack_flags(mv) == 0 && lt_dlpack_flags(NULL) == 0);
  CHECK(mv->deleter != NULL && mv->manager_ctx != NULL);
  check_export("versioned", &mv->dl_tensor, t, f, A(3, 1));

  /* legacy, shared */
  CHECK_RC(lt_dlpack_export(t, 0, 0, 0, &out, &err), LT_OK);
  DLManagedTensor *ml = out;
  CHECK(ml->deleter != NULL && ml->manager_ctx != NULL);
  check_export("legacy", &ml->dl_tensor, t, f, A(3, 1));

  /* a transposed view keeps its strides */
  CHECK_RC(lt_dlpack_export(tt, 1, 0, 0, &out, &err), LT_OK);
  DLManagedTensorVersioned *mt = out;
  check_export("transposed", &mt->dl_tensor, tt, f, A(1, 3));

  /* copy: fresh contiguous memory, IS_COPIED */
  CHECK_RC(lt_dlpack_export(tt, 1, 1, 0, &out, &err), LT_OK);
  DLManagedTensorVersioned *mc = out;
  CHECK(mc->flags == DLPACK_FLAG_BITMASK_IS_COPIED);
  CHECK(mc->dl_tensor.data != f && mc->dl_tensor.data != NULL);
  CHECK(dims_eq(mc->dl_tensor.strides, A(2, 1), 2) && dims_eq(mc->dl_tensor.shape, A(3, 2), 2));
  float *cf = mc->dl_tensor.data;
  CHECK(cf[0] == 1 && cf[1] == 4 && cf[2] == 2 && cf[5] == 6);
  CHECK_RC(lt_dlpack_export(t, 0, 1, 0, &out, &err), LT_OK); /* legacy copy cannot say it */
  DLManagedTensor *mlc = out;
  CHECK(mlc->dl_tensor.data != f && ((float *)mlc->dl_tensor.data)[4] == 5);

  /* read_only asked */
  CHECK_RC(lt_dlpack_export(t, 1, 0, 1, &out, &err), LT_OK);
  DLManagedTensorVersioned *mr = out;
  CHECK(mr->flags == DLPACK_FLAG_BITMASK_READ_ONLY && mr->dl_tensor.data == f);
  CHECK_RC(lt_dlpack_export(t, 1, 1, 1, &out, &err), LT_OK);
  DLManagedTensorVersioned *mrc = out;
  CHECK(mrc->flags == (DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED));
  void *sentinel = &g_msg;
  out = sentinel;
  CHECK(lt_dlpack_export(t, 0, 0, 1, &out, &err) == LT_EREADONLY && out == sentinel);
  CHECK(t->readonly == LT_WRITABLE); /* asking does not change the tensor */

  /* the exports outlive the tensor: shared memory still readable and writable */
  f[0] = 100.0f;
  CHECK(cf[0] == 1); /* the copy is separate */
  lt_tensor_free(t);
  lt_tensor_free(tt);
  CHECK(((float *)mv->dl_tensor.data)[0] == 100.0f && ((float *)ml->dl_tensor.data)[5] == 6.0f);

  /* round trip: an export imported back shares the memory */
  lt_tensor *back = NULL;
  CHECK_RC(lt_dlpack_import(mt, 1, &back, &err), LT_OK);
  CHECK(lt_data(back) == (char *)f && dims_eq(back->strides, A(1, 3), 2));
  CHECK(back->readonly == LT_WRITABLE);
  lt_tensor *back2 = NULL;
  CHECK_RC(lt_dlpack_import(mr, 1, &back2, &err), LT_OK);
  CHECK(back2->readonly == LT_RO_DLPACK);
  lt_tensor_free(back2);

  mv->deleter(mv);
  ml->deleter(ml);
  mc->deleter(mc);
  mlc->deleter(mlc);
  mrc->deleter(mrc);
  CHECK(*(float *)lt_data(back) == 100.0f); /* back holds the last reference */
  lt_tensor_free(back);

  /* empty and 0-d */
  CHECK_RC(lt_tensor_new(LT_FLOAT32, 2, A(0, 3), 0, &t, &err), LT_OK);
  for (int v = 0; v <= 1; v++) {
    CHECK_RC(lt_dlpack_export(t, v, 0, 0, &out, &err), LT_OK);
    DLTensor *d =
        v ? &((DLManagedTensorVersioned *)out)->dl_tensor : &((DLManagedTensor *)out)->dl_tensor;
    /* an address even when empty: torch before 2.3 never frees a tensor with NULL data */
    check_export(v ? "empty versioned" : "empty legacy", d, t, lt_data(t), A(3, 1));
    CHECK_RC(lt_dlpack_import(out, v, &back, &err), LT_OK);
    CHECK(lt_numel(back) == 0 && dims_eq(back->shape, A(0, 3), 2));
    lt_tensor_free(back);
  }
  lt_tensor_free(t);
  CHECK_RC(lt_tensor_new(LT_FLOAT32, 0, NULL, 0, &t, &err), LT_OK);
  *(float *)lt_data(t) = 3.0f;
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &out, &err), LT_OK);
  mv = out;
  CHECK(mv->dl_tensor.ndim == 0 && mv->dl_tensor.data == lt_data(t));
  CHECK_RC(lt_dlpack_import(mv, 1, &back, &err), LT_OK);
  CHECK(back->ndim == 0 && *(float *)lt_data(back) == 3.0f);
  lt_tensor_free(back);
  lt_tensor_free(t);
}

/* }====== */

/* {====== capsules in Lua ====== */

static void capsules_raw(lua_State *L, long before) {
  /* a capsule dropped unconsumed: deleter once, at collection */
  tblock *b = mk_iota(1, 1, A(2), 2);
  push_capsule(L, &b->m, 1);
  lua_pop(L, 1);
  lua_gc(L, LUA_GCCOLLECT, 0);
  CHECK(deleted() == before + 1);
  lua_gc(L, LUA_GCCOLLECT, 0);
  CHECK(deleted() == before + 1);

  /* tostring; rawlen */
  b = mk_iota(0, 1, A(2), 2);
  push_capsule(L, &b->m, 0);
  lua_setglobal(L, "lc");
  b = mk_iota(1, 1, A(2), 2);
  push_capsule(L, &b->m, 1);
  lua_setglobal(L, "vc");
  LTRUE(L, "tostring(lc):match('^<capsule object \"dltensor\" at 0x%x+>$') ~= nil");
  LTRUE(L, "tostring(vc):match('^<capsule object \"dltensor_versioned\" at 0x%x+>$') ~= nil");
  LTRUE(L, "getmetatable(lc) == 'capsule' and type(lc) == 'userdata'");
  /* raw capsule with device or copy: refused, left unconsumed */
  LERR(L, "return dlpack.from_dlpack(vc, {copy = true})", "raw capsule");
  CHECK(capsule_ptr(L, "vc") == &b->m && global_has_mt(L, "vc", "dltensor_versioned"));
  LERR(L, "return dlpack.from_dlpack(vc, {device = 'cpu'})", "raw capsule");
  CHECK(capsule_ptr(L, "vc") == &b->m);

  /* consumed: pointer NULL, "used" metatables, tostring says so; a second use raises */
  LOK(L, "a = dlpack.from_dlpack(lc); av = lt.from_dlpack(vc)");
  CHECK(capsule_ptr(L, "lc") == NULL && global_has_mt(L, "lc", "used_dltensor"));
  CHECK(capsule_ptr(L, "vc") == NULL && global_has_mt(L, "vc", "used_dltensor_versioned"));
  LTRUE(L, "tostring(lc):match('^<capsule object \"used_dltensor\" at 0x%x+>$') ~= nil");
  LTRUE(L, "tostring(vc):match('^<capsule object \"used_dltensor_versioned\" at 0x%x+>$')");
  CHECK(deleted() == before + 1);
  LERR(L, "return dlpack.from_dlpack(lc)", "already consumed");
  LERR(L, "return dlpack.from_dlpack(vc)", "already consumed");
  LOK(L, "lc = nil; vc = nil; collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 1); /* a and av hold them */
  LOK(L, "a = nil; av = nil; collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 3);

  /* an empty capsule (NULL pointer, live metatable): refused, marked used, nothing freed */
  push_capsule(L, NULL, 1);
  lua_setglobal(L, "nc");
  LERR(L, "return dlpack.from_dlpack(nc)", "holds no tensor");
  CHECK(global_has_mt(L, "nc", "used_dltensor_versioned"));

  /* not a capsule: a userdata of another size, or with another metatable */
  void **p = lua_newuserdatauv(L, 2 * sizeof(void *), 0);
  p[0] = p[1] = NULL;
  luaL_setmetatable(L, "dltensor");
  lua_setglobal(L, "big");
  LERR(L, "return dlpack.from_dlpack(big)", "expected");
  LERR(L, "return dlpack.from_dlpack(io.stdout)", "expected");
  LERR(L, "return dlpack.from_dlpack(42)", "expected a tensor, a DLPack capsule");
  LERR(L, "return dlpack.from_dlpack(true)", "got boolean");
  LERR(L, "return dlpack.from_dlpack('s')", "got string");
  LERR(L, "return dlpack.from_dlpack({})", "got table");
  LERR(L, "return dlpack.from_dlpack()", "value expected");
}

static void capsules_own(lua_State *L, long before) {
  tblock *b;
  /* ltensor's own capsules: one pointer, the registry metatables, by version */
  LOK(L,
      "x = lt.tensor({1, 2, 3}, 'float32')\n"
      "k1 = dlpack.to_dlpack(x); k2 = x:__dlpack(); k3 = x:__dlpack{max_version = {0, 9}}\n"
      "k4 = x:__dlpack{max_version = {1, 0}}; k5 = x:__dlpack{max_version = {2, 0}}\n"
      "k6 = x:__dlpack{max_version = {1, 3}, copy = true}\n"
      "k7 = x:__dlpack{max_version = {1, 3}, copy = false, stream = 0, unknown = 1}");
  const char *const ks[] = {"k1", "k2", "k3", "k4", "k5", "k6", "k7"};
  for (int i = 0; i < 7; i++) {
    lua_getglobal(L, ks[i]);
    CHECKF(lua_type(L, -1) == LUA_TUSERDATA && lua_rawlen(L, -1) == sizeof(void *), "%s: rawlen %d",
           ks[i], (int)lua_rawlen(L, -1));
    CHECKF(has_mt(L, -1, i < 3 ? "dltensor" : "dltensor_versioned"), "%s: metatable", ks[i]);
    lua_pop(L, 1);
  }
  LTRUE(L, "tostring(k1):match('^<capsule object \"dltensor\" at 0x%x+>$') ~= nil");
  int versioned = 0;
  DLManagedTensorVersioned *m6 = take_capsule(L, "k6", &versioned);
  DLManagedTensorVersioned *m7 = take_capsule(L, "k7", &versioned);
  CHECK(m6 && m7);
  if (m6 && m7) {
    CHECK(m6->flags == DLPACK_FLAG_BITMASK_IS_COPIED && m7->flags == 0);
    CHECK((intptr_t)m7->dl_tensor.data == lint(L, "x:data_ptr()"));
    CHECK(m6->dl_tensor.data != m7->dl_tensor.data);
    CHECK(((float *)m6->dl_tensor.data)[2] == 3.0f);
    m6->deleter(m6);
    m7->deleter(m7);
  }
  LERR(L, "return x:__dlpack{max_version = {1, 3}, dl_device = {2, 0}}", "between devices");
  LERR(L, "return x:__dlpack{max_version = 1}", "max_version");
  LERR(L, "return x:__dlpack{copy = 1}", "copy");
  LERR(L, "return x:__dlpack{stream = 'a'}", "stream");
  /* ltensor capsules dropped unconsumed: their __gc runs ltensor's deleter (ASan: no leak) */
  LOK(L, "k1, k2, k3, k4, k5 = nil; collectgarbage(); collectgarbage()");

  /* ltensor's capsule of an imported tensor, dropped: releases its reference */
  b = mk_iota(1, 1, A(2), 2);
  CHECKF(lua_import(L, &b->m, 1, "t"), "%s", g_msg);
  LOK(L,
      "c = t:__dlpack{max_version = {1, 3}}; c2 = dlpack.to_dlpack(t); t = nil; "
      "collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 3);
  LOK(L, "c = nil; collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 3);
  LOK(L, "c2 = nil; collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 4);

  /* an object with __dlpack: called with max_version {1, 3}; copy=true copies when the
     producer did not */
  b = mk_iota(1, 1, A(3), 3);
  push_capsule(L, &b->m, 1);
  lua_setglobal(L, "pc");
  LOK(L,
      "obj = {__dlpack = function(self, o) asked = o; return pc end,\n"
      "       __dlpack_device = function() return 1, 0 end}\n"
      "y = dlpack.from_dlpack(obj, {copy = true})");
  LTRUE(L, "asked.max_version[1] == 1 and asked.max_version[2] == 3 and asked.copy == true");
  LTRUE(L, "same(y:tolist(), {0, 1, 2}) and not y:is_read_only()");
  CHECK(lint(L, "y:data_ptr()") != (lua_Integer)(intptr_t)b->owned);
  CHECK(deleted() == before + 4 || deleted() == before + 5);
  LOK(L, "pc = nil; obj = nil; collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 5); /* the copy holds nothing of the producer's */
}

/* The four metatables exist once ltensor.core is loaded (nothing else required). */
static void capsules_metatables(void) {
  static const char *const names[] = {"dltensor", "dltensor_versioned", "used_dltensor",
                                      "used_dltensor_versioned"};
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  luaL_requiref(L, "ltensor.core", luaopen_ltensor_core, 0);
  lua_pop(L, 1);
  for (int i = 0; i < 4; i++) {
    CHECKF(luaL_getmetatable(L, names[i]) == LUA_TTABLE, "no registry metatable %s", names[i]);
    CHECKF(lua_getfield(L, -1, "__name") == LUA_TSTRING && !strcmp(lua_tostring(L, -1), names[i]),
           "__name of %s", names[i]);
    lua_pop(L, 1);
    CHECKF((lua_getfield(L, -1, "__gc") == LUA_TFUNCTION) == (i < 2), "__gc of %s", names[i]);
    lua_pop(L, 2);
  }
  lua_close(L);
}

static void test_capsules(void) {
  capsules_metatables();
  lua_State *L = new_state();
  long before = deleted();
  capsules_raw(L, before);
  capsules_own(L, before);
  /* unconsumed capsules at lua_close: deleter once each */
  tblock *b = mk_iota(1, 1, A(2), 2);
  push_capsule(L, &b->m, 1);
  lua_setglobal(L, "left1");
  b = mk_iota(0, 1, A(2), 2);
  push_capsule(L, &b->m, 0);
  lua_setglobal(L, "left2");
  CHECK(deleted() == before + 5);
  lua_close(L);
  CHECK(deleted() == before + 7);
}

/* }====== */

/* {====== copy-on-write clones and exports ====== */

static void test_cow(void) {
  lt_error err;
  int versioned = 0;

  /* core: a read-only export of a lazy clone shares the block; a writable one gets its own */
  lt_tensor *t = NULL, *c = NULL;
  CHECK_RC(lt_tensor_new(LT_FLOAT32, 1, A(4), 1, &t, &err), LT_OK);
  float *tf = (float *)lt_data(t);
  tf[0] = 1.0f;
  CHECK_RC(lt_clone_lazy(t, &c, &err), LT_OK);
  void *out = NULL;
  CHECK_RC(lt_dlpack_export(c, 1, 0, 1, &out, &err), LT_OK);
  DLManagedTensorVersioned *mr = out;
  CHECK(mr->flags == DLPACK_FLAG_BITMASK_READ_ONLY);
  CHECK(((float *)mr->dl_tensor.data)[0] == 1.0f);
  CHECK_RC(lt_dlpack_export(c, 1, 0, 0, &out, &err), LT_OK);
  DLManagedTensorVersioned *mw = out;
  CHECK(mw->flags == 0 && mw->dl_tensor.data != (void *)tf);
  CHECK(mw->dl_tensor.data == lt_data(c) && ((float *)mw->dl_tensor.data)[0] == 1.0f);
  ((float *)mw->dl_tensor.data)[0] = 5.0f; /* the consumer writes: the original is untouched */
  CHECK(tf[0] == 1.0f && *(float *)lt_data(c) == 5.0f);
  tf[1] = 6.0f; /* and the other way round */
  CHECK(((float *)mw->dl_tensor.data)[1] == 0.0f);
  lt_tensor_free(c);
  lt_tensor_free(t);
  CHECK(((float *)mr->dl_tensor.data)[0] == 1.0f); /* the read-only export kept its block */
  CHECK(((float *)mw->dl_tensor.data)[0] == 5.0f);
  mr->deleter(mr);
  mw->deleter(mw);

  /* Lua: exporting a clone writable separates it from its source */
  lua_State *L = new_state();
  LOK(L,
      "x = lt.tensor({1, 2, 3}, 'float32'); y = x:clone()\n"
      "cy = y:__dlpack{max_version = {1, 3}}");
  DLManagedTensorVersioned *m = take_capsule(L, "cy", &versioned);
  CHECK(m != NULL);
  if (m) {
    float *f = m->dl_tensor.data;
    CHECK(f[0] == 1.0f && f[2] == 3.0f);
    CHECK((intptr_t)f != lint(L, "x:const_data_ptr()"));
    f[0] = 99.0f;
    LTRUE(L, "x[1] == 1 and y[1] == 99");
    LOK(L, "y[2] = 5; z = y:clone(); z[3] = -3");
    CHECK(f[1] == 5.0f && f[2] == 3.0f); /* y writes into the exported memory; z is apart */
    f[1] = 50.0f;
    LTRUE(L, "z[2] == 5 and y[2] == 50");
    m->deleter(m);
  }
  /* an exported tensor cloned afterwards: the clone does not see writes through the export */
  LOK(L, "w = lt.tensor({1, 2}, 'float32'); cw = w:__dlpack{max_version = {1, 3}}; wc = w:clone()");
  m = take_capsule(L, "cw", &versioned);
  CHECK(m != NULL);
  if (m) {
    ((float *)m->dl_tensor.data)[0] = 8.0f;
    LTRUE(L, "w[1] == 8 and wc[1] == 1");
    m->deleter(m);
  }
  /* an imported tensor's clone is a copy: the producer's later writes do not reach it */
  long before = deleted();
  tblock *b = mk_iota(1, 1, A(2), 2);
  CHECKF(lua_import(L, &b->m, 1, "t"), "%s", g_msg);
  LOK(L, "tc = t:clone()");
  ((float *)b->owned)[0] = 77.0f;
  LTRUE(L, "t[1] == 77 and tc[1] == 0 and not tc:is_read_only()");
  LOK(L, "t = nil; collectgarbage(); collectgarbage()");
  CHECK(deleted() == before + 1);
  LTRUE(L, "tc[1] == 0 and tc[2] == 1");
  lua_close(L);
}

/* }====== */

/* {====== lifetime: after lua_close, across states and threads ====== */

typedef struct {
  void *m;          /* in: a versioned managed tensor */
  lua_State *L;     /* out: the state, left open */
  int ok, write_ok; /* import and write worked */
  double first;     /* u[1] as read there */
  char msg[sizeof g_msg];
  int close_now; /* close the state before returning */
  int idx;       /* the element it sets to 42 (1-based) */
  long deleted_after_close;
} thr_job;

static void *thr_import(void *arg) {
  thr_job *j = arg;
  lua_State *L = new_state();
  j->L = L;
  j->ok = lua_import(L, j->m, 1, "u");
  if (!j->ok) snprintf(j->msg, sizeof j->msg, "%s", g_msg);
  if (j->ok) {
    char code[64];
    snprintf(code, sizeof code, "u[%d] = 42; first = u[1]", j->idx);
    j->write_ok = lrun(L, code);
    if (!j->write_ok) snprintf(j->msg, sizeof j->msg, "%s", g_msg);
    lua_getglobal(L, "first");
    j->first = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  if (j->close_now) {
    lua_close(L);
    j->L = NULL;
    j->deleted_after_close = deleted();
  }
  return NULL;
}

static void *thr_close(void *arg) {
  lua_close(arg);
  return NULL;
}

static void *thr_delete(void *arg) {
  DLManagedTensorVersioned *m = arg;
  m->deleter(m);
  return NULL;
}

static void test_lifetime(void) {
  int versioned = 0;

  /* an export used after lua_close of its state; its deleter run on another thread */
  lua_State *L = new_state();
  LOK(L, "x = lt.tensor({1.5, 2.5, 3.5}, 'float64'); cap = x:__dlpack{max_version = {1, 3}}");
  lua_getglobal(L, "cap");
  CHECK(lua_rawlen(L, -1) == sizeof(void *));
  lua_pop(L, 1);
  DLManagedTensorVersioned *m = take_capsule(L, "cap", &versioned);
  CHECK(m && versioned);
  CHECK(global_has_mt(L, "cap", "used_dltensor_versioned") && capsule_ptr(L, "cap") == NULL);
  LERR(L, "return dlpack.from_dlpack(cap)", "already consumed");
  lua_close(L);
  if (m) {
    CHECK(m->version.major == 1 && m->version.minor == 3);
    const double *d = m->dl_tensor.data;
    CHECK(d[0] == 1.5 && d[1] == 2.5 && d[2] == 3.5);
    CHECK(m->dl_tensor.dtype.code == kDLFloat && m->dl_tensor.dtype.bits == 64);
    ((double *)m->dl_tensor.data)[1] = -1.0; /* still writable memory */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, thr_delete, m) == 0);
    pthread_join(th, NULL);
  }

  /* a legacy export (to_dlpack) after lua_close */
  L = new_state();
  LOK(L, "cap = dlpack.to_dlpack(lt.arange(5, 'int64'))");
  DLManagedTensor *ml = take_capsule(L, "cap", &versioned);
  CHECK(ml && !versioned);
  lua_close(L);
  if (ml) {
    CHECK(((int64_t *)ml->dl_tensor.data)[4] == 4 && ml->dl_tensor.shape[0] == 5);
    ml->deleter(ml);
  }

  /* producer -> state A (main thread) -> export -> state B on thread 1; B writes, A sees it;
     A closes first, B is closed on thread 2: the producer's deleter runs once, there */
  long before = deleted();
  tblock *b = mk_iota(1, 1, A(4), 4);
  lua_State *La = new_state();
  CHECKF(lua_import(La, &b->m, 1, "t"), "%s", g_msg);
  LOK(La, "c = t:__dlpack{max_version = {1, 3}}");
  m = take_capsule(La, "c", &versioned);
  CHECK(m != NULL);
  thr_job j1;
  memset(&j1, 0, sizeof j1);
  j1.m = m;
  j1.idx = 2;
  pthread_t th1, th2;
  CHECK(pthread_create(&th1, NULL, thr_import, &j1) == 0);
  pthread_join(th1, NULL);
  CHECKF(j1.ok && j1.write_ok, "thread import: %s", j1.msg);
  CHECK(j1.first == 0.0);
  LTRUE(La, "t[2] == 42 and same(t:tolist(), {0, 42, 2, 3})");
  CHECK(fget(b, 1) == 42.0f);
  LOK(La, "t[3] = 7");
  CHECK(deleted() == before);
  lua_close(La);
  CHECK(deleted() == before); /* B still holds it */
  if (j1.L) {
    LTRUE(j1.L, "u[3] == 7 and u[4] == 3");
    CHECK(pthread_create(&th2, NULL, thr_close, j1.L) == 0);
    pthread_join(th2, NULL);
    CHECK(deleted() == before + 1);
    CHECK(pthread_equal(g_del_thread, th2));
  }

  /* the other order: B imports, writes and closes on its thread; A closes last */
  b = mk_iota(1, 1, A(4), 4);
  La = new_state();
  CHECKF(lua_import(La, &b->m, 1, "t"), "%s", g_msg);
  LOK(La, "c = t:__dlpack{max_version = {1, 3}}; t2 = t:view(2, 2)");
  m = take_capsule(La, "c", &versioned);
  thr_job j2;
  memset(&j2, 0, sizeof j2);
  j2.m = m;
  j2.idx = 2;
  j2.close_now = 1;
  CHECK(pthread_create(&th1, NULL, thr_import, &j2) == 0);
  pthread_join(th1, NULL);
  CHECKF(j2.ok && j2.write_ok, "thread import: %s", j2.msg);
  CHECK(j2.deleted_after_close == before + 1);
  LTRUE(La, "t[2] == 42 and t2[1][2] == 42");
  CHECK(deleted() == before + 1);
  lua_close(La);
  CHECK(deleted() == before + 2);
  CHECK(pthread_equal(g_del_thread, pthread_self()));

  /* two states on two threads at once, each holding an export of the same tensor */
  b = mk_iota(1, 1, A(4), 4);
  La = new_state();
  CHECKF(lua_import(La, &b->m, 1, "t"), "%s", g_msg);
  LOK(La, "c1 = t:__dlpack{max_version = {1, 3}}; c2 = t:__dlpack{max_version = {1, 3}}");
  thr_job j3, j4;
  memset(&j3, 0, sizeof j3);
  memset(&j4, 0, sizeof j4);
  j3.m = take_capsule(La, "c1", &versioned);
  j4.m = take_capsule(La, "c2", &versioned);
  j3.close_now = j4.close_now = 1;
  j3.idx = 2; /* different elements: the two threads do not race */
  j4.idx = 3;
  lua_close(La);
  CHECK(deleted() == before + 2);
  CHECK(pthread_create(&th1, NULL, thr_import, &j3) == 0);
  CHECK(pthread_create(&th2, NULL, thr_import, &j4) == 0);
  pthread_join(th1, NULL);
  pthread_join(th2, NULL);
  CHECKF(j3.ok && j3.write_ok && j4.ok && j4.write_ok, "threads: %s / %s", j3.msg, j4.msg);
  CHECK(deleted() == before + 3);
  CHECK(pthread_equal(g_del_thread, th1) || pthread_equal(g_del_thread, th2));
}

/* }====== */

/* Exports a fresh export of t (versioned, sharing); NULL on failure. */
static DLManagedTensorVersioned *own_export(lt_tensor *t) {
  void *m = NULL;
  lt_error err;
  CHECK_RC(lt_dlpack_export(t, 1, 0, 0, &m, &err), LT_OK);
  return m;
}

/* Imports m, which must be refused with a message holding why (its deleter runs). */
static void refused_own(DLManagedTensorVersioned *m, const char *what, const char *why) {
  lt_tensor *u = NULL;
  lt_error err;
  int rc = lt_dlpack_import(m, 1, &u, &err);
  CHECKF(rc != LT_OK && strstr(err.msg, why), "%s: rc %d (%s)", what, rc,
         rc ? err.msg : "accepted");
  lt_tensor_free(u);
}

/* ltensor's own export coming back after its holder changed it: it used to skip every check, so
   byte_offset was ignored (the old first element read back) and a larger shape was accepted (a
   write far past the block crashed). Now byte_offset counts and the elements must lie in what
   was exported. */
static void test_own_export_modified(void) {
  int64_t shape[1] = {8};
  lt_tensor *t = NULL, *v = NULL, *u = NULL;
  lt_error err;
  CHECK_RC(lt_tensor_new(LT_FLOAT32, 1, shape, 1, &t, &err), LT_OK);
  if (!t) return;
  float *p = (float *)(void *)lt_data(t);
  for (int i = 0; i < 8; i++) p[i] = (float)i;
  DLManagedTensorVersioned *m = own_export(t);
  if (m) { /* DLPack: the first element is at data + byte_offset */
    m->dl_tensor.byte_offset = 8;
    m->dl_tensor.shape[0] = 6;
    CHECK_RC(lt_dlpack_import(m, 1, &u, &err), LT_OK);
    if (u) {
      const float *q = (const float *)(const void *)lt_data(u);
      CHECKF(lt_numel(u) == 6 && q[0] == 2.0f && q[5] == 7.0f, "read %g .. %g", (double)q[0],
             (double)q[5]);
      lt_tensor_free(u);
    }
  }
  if ((m = own_export(t))) {
    m->dl_tensor.shape[0] = (int64_t)1 << 20;
    refused_own(m, "shape enlarged", "outside the memory");
  }
  if ((m = own_export(t))) {
    m->dl_tensor.strides[0] = 2;
    refused_own(m, "stride enlarged", "outside the memory");
  }
  if ((m = own_export(t))) {
    m->dl_tensor.byte_offset = 32; /* one past the last element */
    m->dl_tensor.shape[0] = 1;
    refused_own(m, "byte_offset past the end", "outside the memory");
  }
  if ((m = own_export(t))) {
    m->dl_tensor.data = (char *)m->dl_tensor.data - 64;
    refused_own(m, "data moved before the block", "outside the memory");
  }
  if ((m = own_export(t))) {
    m->dl_tensor.byte_offset = 2; /* a multiple of no float */
    refused_own(m, "byte_offset inside an element", "not a multiple");
  }
  /* a view exports its own elements only: growing it back to the whole block is refused */
  CHECK_RC(lt_narrow(t, 0, 2, 3, &v, &err), LT_OK);
  if (v && (m = own_export(v))) {
    m->dl_tensor.data = (char *)m->dl_tensor.data - 8;
    m->dl_tensor.shape[0] = 8;
    refused_own(m, "view grown to its block", "outside the memory");
  }
  if (v && (m = own_export(v))) { /* shrinking within the view is fine */
    m->dl_tensor.byte_offset = 4;
    m->dl_tensor.shape[0] = 2;
    CHECK_RC(lt_dlpack_import(m, 1, &u, &err), LT_OK);
    if (u) {
      CHECK(((const float *)(const void *)lt_data(u))[0] == 3.0f);
      lt_tensor_free(u);
    }
  }
  lt_tensor_free(v);
  lt_tensor_free(t);
}

int main(void) {
  test_own_export_modified();
  test_validation_core();
  test_validation_lua();
  test_accept_core();
  test_accept_lua();
  test_read_only();
  test_opaque_lua();
  test_export_core();
  test_capsules();
  test_cow();
  test_lifetime();
  CHECKF(atomic_load(&g_created) == atomic_load(&g_deleted),
         "%ld managed tensors made, %ld deleted", atomic_load(&g_created), atomic_load(&g_deleted));
  return tu_finish("test_dlpack");
}
