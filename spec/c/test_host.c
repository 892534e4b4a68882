/*
 * test_host.c -- the host C API of ltensor.h, called from C exactly as an embedding program
 * calls it: ltensor_open, pushing managed and borrowed tensors, leases and revocation, export,
 * borrow, and the check helpers for host-written C functions.
 *
 * Every state here has a lua_atpanic handler: a Lua error that reaches the host (outside any
 * lua_pcall) fails the test loudly. Host buffers are heap blocks freed by their release
 * callback, and hand-built managed tensors are freed by their deleter, which both count their
 * calls: a leak, a double release or a use after release shows in the counts and under ASan.
 * The last part runs a representative scenario on a lua_State whose allocator fails at the
 * N-th allocation, for every N the scenario makes.
 */
#define _POSIX_C_SOURCE 200809L

#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <lualib.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltensor.h"
#include "test_lua.h"
#include "test_managed.h"
#include "test_util.h"

#define A(...) ((int64_t[]){__VA_ARGS__})

/* {====== panics ====== */

static long g_panics;
static jmp_buf *g_panic_jmp;     /* set by the allocation-failure runs, which recover and count */
static const char *g_stage = ""; /* the host call running (allocation-failure runs) */
static char g_panic_msg[256];    /* the first panic's message and stage */

static int on_panic(lua_State *L) {
  g_panics++;
  const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a string)";
  if (g_panic_jmp) {
    if (!g_panic_msg[0]) snprintf(g_panic_msg, sizeof g_panic_msg, "in %s: %s", g_stage, msg);
    longjmp(*g_panic_jmp, 1);
  }
  fprintf(stderr, "PANIC: a Lua error reached the host outside any lua_pcall: %s\n", msg);
  CHECKF(0, "Lua panic: %s", msg);
  tu_finish("test_host");
  exit(1);
}

/* }====== */

/* {====== host buffers and hand-built managed tensors ====== */

/* A host buffer of float32, 64-byte aligned, freed by its release callback. */
typedef struct {
  long released;
  float *data;      /* NULL once released */
  void *addr;       /* where it was, for comparisons after release */
  pthread_t thread; /* the thread that released it */
} hbuf;

static void hb_init(hbuf *h, int n) {
  size_t bytes = ((size_t)n * sizeof(float) + 63) / 64 * 64;
  h->data = aligned_alloc(64, bytes ? bytes : 64);
  if (!h->data) abort();
  for (int i = 0; i < n; i++) h->data[i] = (float)i;
  h->addr = h->data;
  h->released = 0;
}

static void hb_release(void *ctx) {
  hbuf *h = ctx;
  h->released++;
  h->thread = pthread_self();
  if (h->released == 1) {
    free(h->data);
    h->data = NULL;
  }
}

/* A float32 tensor description over data (strides NULL unless given). */
static DLTensor mkdesc(void *data, int ndim, int64_t *shape, int64_t *strides) {
  return tm_desc(data, dt_of(kDLFloat, 32, 1), ndim, shape, strides);
}

/* A managed float32 tensor holding 0, 1, 2, ...; one allocation, freed by the deleter, which
   counts into *deleted. */
typedef struct {
  union {
    DLManagedTensorVersioned v;
    DLManagedTensor l;
  } m;
  long *deleted;
  int versioned;
  int64_t shape[70];
  int64_t strides[70];
  _Alignas(64) float data[64];
} mblock;

static void mb_free(mblock *b) {
  (*b->deleted)++;
  free(b);
}
static void mb_del_v(DLManagedTensorVersioned *self) { mb_free(self->manager_ctx); }
static void mb_del_l(DLManagedTensor *self) { mb_free(self->manager_ctx); }

static DLTensor *mdl(mblock *b) { return b->versioned ? &b->m.v.dl_tensor : &b->m.l.dl_tensor; }

static mblock *mb_new(int versioned, int ndim, const int64_t *shape, long *deleted) {
  mblock *b = aligned_alloc(_Alignof(mblock), sizeof(mblock));
  if (!b) abort();
  memset(b, 0, sizeof *b);
  b->deleted = deleted;
  b->versioned = versioned;
  for (int i = 0; i < 64; i++) b->data[i] = (float)i;
  for (int i = 0; i < ndim && i < 70; i++) b->shape[i] = shape[i];
  tm_manage(&b->m, versioned, mkdesc(b->data, ndim, b->shape, NULL), b, mb_del_v, mb_del_l, 0);
  return b;
}

static int push_mb(lua_State *L, mblock *b) {
  return b->versioned ? ltensor_push_managed(L, &b->m.v) : ltensor_push_managed_legacy(L, &b->m.l);
}

/* }====== */

/* {====== Lua helpers ====== */

static const char lua_prelude[] =
    "package.path = ''\n"
    "package.cpath = ''\n" TL_PRELUDE;

/* A state as an embedding host makes it: standard libraries, ltensor_open, and nothing found
   on disk (package.path and cpath empty); globals lt, dlpack and same. */
static lua_State *new_state(void) {
  lua_State *L = luaL_newstate();
  if (!L) abort();
  lua_atpanic(L, on_panic);
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK(lua_gettop(L) == 0);
  if (!lrun(L, lua_prelude)) {
    fprintf(stderr, "cannot load ltensor from the library: %s\n", g_msg);
    exit(2);
  }
  return L;
}

/* A successful push (status rc): the tensor alone on the stack, which becomes the global name. */
static void pushed_as(lua_State *L, int rc, const char *name) {
  CHECK_RC(rc, LTENSOR_OK);
  CHECK(lua_gettop(L) == 1 && ltensor_is_tensor(L, 1));
  lua_setglobal(L, name);
}

/* A failed host call: status want, exactly one value pushed, a string containing sub. Restores
   the stack to top. */
static void fails_with(lua_State *L, int rc, int want, int top, const char *sub, const char *what) {
  CHECKF(rc == want, "%s: status %d, expected %d", what, rc, want);
  int pushed = lua_gettop(L) - top;
  const char *msg = pushed >= 1 && lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  CHECKF(pushed == 1 && msg, "%s: %d values pushed (one message expected), top is a %s", what,
         pushed, pushed >= 1 ? luaL_typename(L, -1) : "nothing");
  CHECKF(msg && strstr(msg, sub), "%s: message '%s' lacks '%s'", what, msg ? msg : "(none)", sub);
  lua_settop(L, top);
}

/* Runs code (which returns one value) and pushes its value. */
static void push_eval(lua_State *L, const char *code) {
  int top = lua_gettop(L);
  int ok = luaL_loadstring(L, code) == LUA_OK && lua_pcall(L, 0, 1, 0) == LUA_OK;
  CHECKF(ok, "Lua: %s\n    error: %s", code, lua_tostring(L, -1));
  if (!ok) {
    lua_settop(L, top);
    lua_pushnil(L);
  }
}

/* Pushes the value of the Lua expression expr, and names the call fn(expr) in what. */
static void push_arg(lua_State *L, const char *fn, const char *expr, char *what, size_t size) {
  char code[64];
  snprintf(code, sizeof code, "return %s", expr);
  snprintf(what, size, "%s(%s)", fn, expr);
  push_eval(L, code);
}

/* Pushes global name. */
static void getg(lua_State *L, const char *name) { lua_getglobal(L, name); }

/* }====== */

/* {====== ltensor_open ====== */

static void test_open(void) {
  /* before the standard libraries (package.preload is the registry's _PRELOAD either way),
     then again after them, then a third time: harmless, pushes nothing */
  lua_State *L = luaL_newstate();
  lua_atpanic(L, on_panic);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK(lua_gettop(L) == 0);
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  CHECK(lua_gettop(L) == 0);
  LOK(L, "package.path = ''; package.cpath = ''");
  /* ltensor.dlpack on its own first: it pulls in what it needs */
  LOK(L, "dlpack = require 'ltensor.dlpack'");
  LOK(L, "lt = require 'ltensor'");
  LTRUE(L, "type(lt.zeros) == 'function' and type(lt.from_dlpack) == 'function'");
  LTRUE(L,
        "type(dlpack.from_dlpack) == 'function' and type(dlpack.to_dlpack) == 'function' "
        "and type(dlpack.ReadOnlyTensorWrapper) == 'function'");
  LTRUE(L, "package.loaded['ltensor'] == lt and package.loaded['ltensor.dlpack'] == dlpack");
  LTRUE(L, "type(require 'ltensor.core') == 'table' and require 'ltensor.format' ~= nil");
  LTRUE(L, "tostring(lt.arange(4)) == 'tensor([0, 1, 2, 3])'");
  /* the walkthrough, with modules from the library only */
  LOK(L, "t = lt.arange(4); t2 = dlpack.from_dlpack(t); t2[{{1, 2}}] = -1");
  LTRUE(L, "tostring(t) == 'tensor([-1, -1,  2,  3])'");
  LOK(L, "cap = dlpack.to_dlpack(t); t3 = dlpack.from_dlpack(cap); t3[1] = -9");
  LTRUE(L, "t[1] == -9 and t2[1] == -9");
  LERR(L, "dlpack.from_dlpack(cap)", "consumed");
  lua_close(L);

  /* the control: without ltensor_open an empty path finds nothing */
  L = luaL_newstate();
  lua_atpanic(L, on_panic);
  luaL_openlibs(L);
  LOK(L, "package.path = ''; package.cpath = ''");
  LERR(L, "require 'ltensor'", "module 'ltensor' not found");
  LERR(L, "require 'ltensor.dlpack'", "module 'ltensor.dlpack' not found");
  lua_close(L);
}

/* }====== */

/* {====== pushing managed tensors ====== */

/* Makes mblock b invalid in way i; *want: a piece of the message. 0 when i is past the end. */
static int make_bad(mblock *b, int i, const char **want) {
  DLTensor *d = mdl(b);
  switch (i) {
    case 0:
      d->dtype.code = 99;
      *want = "dtype";
      return 1;
    case 1:
      d->dtype.bits = 0;
      *want = "dtype";
      return 1;
    case 2:
      d->dtype.lanes = 0;
      *want = "dtype";
      return 1;
    case 3:
      d->ndim = -1;
      *want = "dims";
      return 1;
    case 4:
      d->ndim = 65;
      for (int k = 0; k < 65; k++) b->shape[k] = 1;
      *want = "dims";
      return 1;
    case 5:
      d->shape = NULL;
      *want = "NULL shape";
      return 1;
    case 6:
      b->shape[1] = -3;
      *want = "negative";
      return 1;
    case 7:
      d->data = NULL;
      *want = "NULL data";
      return 1;
    case 8:
      d->byte_offset = 2;
      *want = "byte_offset";
      return 1;
    case 9:
      d->device.device_type = (DLDeviceType)99;
      *want = "device";
      return 1;
    case 10:
      d->data = (char *)d->data + 1;
      *want = "aligned";
      return 1;
    case 11:
      if (!b->versioned) return 0;
      b->m.v.version.major = 2;
      *want = "version";
      return 1;
    case 12:
      if (!b->versioned) return 0;
      b->m.v.version.major = 0;
      *want = "version";
      return 1;
    default: return -1;
  }
}

static void test_push_managed(void) {
  lua_State *L = new_state();
  long del = 0;

  /* success: +1, readable, shares memory, deleter only after the tensor and its views go */
  mblock *b = mb_new(1, 2, A(2, 3), &del);
  pushed_as(L, ltensor_push_managed(L, &b->m.v), "m");
  LTRUE(L, "same(m.shape, {2, 3}) and m.dtype == 'float32' and m[2][3] == 5");
  LTRUE(L, "not m:is_read_only()");
  CHECK(lint(L, "m:const_data_ptr()") == (lua_Integer)(intptr_t)b->data);
  LOK(L, "m[1][1] = 42");
  CHECK(b->data[0] == 42.0f);
  b->data[5] = -5.0f; /* and the other way */
  LTRUE(L, "m[2][3] == -5");
  LOK(L, "v = m[2]:view(3, 1); m = nil; collectgarbage(); collectgarbage()");
  CHECK(del == 0);
  LTRUE(L, "v[3][1] == -5");
  LOK(L, "v = nil; collectgarbage(); collectgarbage()");
  CHECK(del == 1);
  LOK(L, "collectgarbage()");
  CHECK(del == 1);

  /* legacy, freed at lua_close */
  long del_l = 0;
  mblock *bl = mb_new(0, 1, A(4), &del_l);
  pushed_as(L, ltensor_push_managed_legacy(L, &bl->m.l), "l");
  LTRUE(L, "same(l:tolist(), {0, 1, 2, 3}) and not l:is_read_only()");
  LOK(L, "lv = l:narrow(1, 2, 2)");
  CHECK(del_l == 0);

  /* READ_ONLY honoured; a writable export of it is still READ_ONLY */
  long del_ro = 0;
  mblock *bro = mb_new(1, 1, A(3), &del_ro);
  bro->m.v.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  CHECK_RC(ltensor_push_managed(L, &bro->m.v), LTENSOR_OK);
  lua_setglobal(L, "ro");
  LTRUE(L, "ro:is_read_only() and ro[2] == 1");
  LERR(L, "ro[1] = 7", "read-only");
  LERR(L, "ro:fill_(7)", "read-only");
  CHECK(bro->data[0] == 0.0f);
  getg(L, "ro");
  DLManagedTensorVersioned *ex = NULL;
  CHECK_RC(ltensor_export(L, -1, 0, &ex), LTENSOR_OK);
  lua_pop(L, 1);
  CHECK(ex && (ex->flags & DLPACK_FLAG_BITMASK_READ_ONLY));
  LOK(L, "ro = nil; collectgarbage(); collectgarbage()");
  CHECK(del_ro == 0); /* the export holds it */
  if (ex) ex->deleter(ex);
  CHECK(del_ro == 1);

  /* no deleter at all is accepted */
  long never = 0;
  mblock *bn = mb_new(1, 1, A(2), &never);
  bn->m.v.deleter = NULL;
  CHECK_RC(ltensor_push_managed(L, &bn->m.v), LTENSOR_OK);
  lua_pop(L, 1);

  /* invalid: ERRARG, one message, the deleter ran exactly once */
  for (int versioned = 0; versioned <= 1; versioned++) {
    for (int i = 0;; i++) {
      long d = 0;
      mblock *bad = mb_new(versioned, 2, A(2, 3), &d);
      const char *want = "";
      int r = make_bad(bad, i, &want);
      if (r < 0) {
        mb_free(bad);
        break;
      }
      if (r == 0) {
        mb_free(bad);
        continue;
      }
      char what[96];
      snprintf(what, sizeof what, "push_managed%s bad case %d", versioned ? "" : "_legacy", i);
      fails_with(L, push_mb(L, bad), LTENSOR_ERRARG, 0, want, what);
      CHECKF(d == 1, "%s: deleter ran %ld times", what, d);
      lua_gc(L, LUA_GCCOLLECT, 0);
      CHECKF(d == 1, "%s: deleter ran %ld times after a collection", what, d);
    }
  }

  /* NULL */
  fails_with(L, ltensor_push_managed(L, NULL), LTENSOR_ERRARG, 0, "NULL", "push_managed(NULL)");
  fails_with(L, ltensor_push_managed_legacy(L, NULL), LTENSOR_ERRARG, 0, "NULL",
             "push_managed_legacy(NULL)");

  lua_close(L);
  CHECK(del_l == 1);
  CHECK(del == 1);
  free(bn);
}

/* }====== */

/* {====== pushing borrowed memory ====== */

static void borrowed_shared(lua_State *L, hbuf *h) {
  /* no lease, strides NULL: shared both ways; a clone is a copy; release once, at collection */
  hb_init(h, 6);
  DLTensor d = mkdesc(h->data, 2, A(2, 3), NULL);
  pushed_as(L, ltensor_push_borrowed(L, &d, 0, hb_release, h, NULL), "h");
  LTRUE(L, "same(h.shape, {2, 3}) and h.dtype == 'float32' and h.device == 'cpu'");
  LTRUE(L, "h[2][1] == 3 and same(h:stride(), {3, 1}) and not h:is_read_only()");
  CHECK(lint(L, "h:const_data_ptr()") == (lua_Integer)(intptr_t)h->addr);
  LOK(L, "h[1][2] = 7");
  CHECK(h->data[1] == 7.0f);
  h->data[4] = 40.0f;
  LTRUE(L, "h[2][2] == 40");
  LOK(L, "c = h:clone(); r = h[2]");
  LTRUE(L, "c:const_data_ptr() ~= h:const_data_ptr()");
  h->data[0] = -1.0f; /* the host writes after the clone: the clone keeps the old value */
  LTRUE(L, "c[1][1] == 0 and h[1][1] == -1");
  LOK(L, "c[1][1] = 99");
  CHECK(h->data[0] == -1.0f);
  CHECK(h->released == 0);
  LOK(L, "h = nil; collectgarbage(); collectgarbage()");
  CHECK(h->released == 0); /* the view r holds it */
  LTRUE(L, "r[3] == 5");
  LOK(L, "r = nil; collectgarbage(); collectgarbage()");
  CHECK(h->released == 1);
  LTRUE(L, "same(c:tolist(), {{99, 7, 2}, {3, 40, 5}})");
}

static void borrowed_layouts(lua_State *L, hbuf *hs) {
  DLTensor d;
  /* explicit strides (a transposed layout) and a byte offset */
  hb_init(hs, 8);
  d = mkdesc(hs->data, 2, A(3, 2), A(1, 3));
  d.byte_offset = 2 * sizeof(float);
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, hs, NULL), LTENSOR_OK);
  lua_setglobal(L, "s");
  LTRUE(L, "same(s:stride(), {1, 3}) and not s:is_contiguous()");
  LTRUE(L, "same(s:tolist(), {{2, 5}, {3, 6}, {4, 7}})");
  LOK(L, "s[3][2] = -7");
  CHECK(hs->data[7] == -7.0f);
  LOK(L, "s = nil; collectgarbage()");
  CHECK(hs->released == 1);

  /* 0-d (shape NULL), and an empty tensor with NULL data */
  hbuf h0;
  hb_init(&h0, 1);
  h0.data[0] = 2.5f;
  d = mkdesc(h0.data, 0, NULL, NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, &h0, NULL), LTENSOR_OK);
  lua_setglobal(L, "z");
  LTRUE(L, "z:item() == 2.5 and z.ndim == 0");
  hbuf he;
  hb_init(&he, 1);
  d = mkdesc(NULL, 1, A(0), NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, &he, NULL), LTENSOR_OK);
  lua_setglobal(L, "e");
  LTRUE(L, "e:numel() == 0 and same(e:tolist(), {})");
  LOK(L, "z = nil; e = nil; collectgarbage()");
  CHECK(h0.released == 1 && he.released == 1);
}

static void borrowed_read_only(lua_State *L, hbuf *hr) {
  DLTensor d;
  /* READ_ONLY: every script write raises naming the host; reads, clones and exports work */
  hb_init(hr, 6);
  d = mkdesc(hr->data, 2, A(2, 3), NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, LTENSOR_READ_ONLY, hb_release, hr, NULL), LTENSOR_OK);
  lua_setglobal(L, "ro");
  LTRUE(L, "ro:is_read_only() and ro[2][3] == 5");
  static const char *const writes[] = {"ro[1][1] = 1",
                                       "ro[1] = 1",
                                       "ro[{1, 2}] = 1",
                                       "ro[{{1, 2}, 2}] = 1",
                                       "ro:fill_(1)",
                                       "ro:zero_()",
                                       "ro:copy_(lt.ones(2, 3))",
                                       "ro:set(1, 1, 1)",
                                       "ro[1]:fill_(1)",
                                       "ro:view(6)[1] = 1",
                                       "ro:transpose(1, 2):zero_()",
                                       "dlpack.from_dlpack(ro)[1][1] = 1",
                                       "ro:select(1, 2):narrow(1, 1, 2):fill_(1)",
                                       NULL};
  for (int i = 0; writes[i]; i++) LERR(L, writes[i], "shared it read-only");
  for (int i = 0; i < 6; i++)
    CHECKF(hr->data[i] == (float)i, "read-only host buffer written at %d", i);
  LERR(L, "dlpack.to_dlpack(ro)", "read-only");
  LOK(L, "rc = ro:clone(); rc[1][1] = 5");
  LTRUE(L, "rc[1][1] == 5 and not rc:is_read_only() and ro[1][1] == 0");
  LTRUE(L, "ro:data_ptr() == ro:const_data_ptr()");
  getg(L, "ro");
  DLManagedTensorVersioned *ex = NULL;
  CHECK_RC(ltensor_export(L, -1, 0, &ex), LTENSOR_OK);
  lua_pop(L, 1);
  CHECK(ex && (ex->flags & DLPACK_FLAG_BITMASK_READ_ONLY) && ex->dl_tensor.data == hr->addr);
  LOK(L, "ro = nil; collectgarbage(); collectgarbage()");
  CHECK(hr->released == 0);
  if (ex) ex->deleter(ex);
  CHECK(hr->released == 1);
}

static void borrowed_leases(lua_State *L, hbuf *hl) {
  DLTensor d;
  /* a lease: *lease is written; release waits for ltensor_revoke_lease */
  hb_init(hl, 4);
  d = mkdesc(hl->data, 1, A(4), NULL);
  ltensor_lease *lease = (ltensor_lease *)hl; /* garbage: must be overwritten */
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, hl, &lease), LTENSOR_OK);
  CHECK(lease != NULL && lease != (ltensor_lease *)hl);
  lua_setglobal(L, "b");
  LTRUE(L, "b[4] == 3");
  LOK(L, "b = nil; collectgarbage(); collectgarbage()");
  CHECK(hl->released <= 1);
  ltensor_revoke_lease(lease);
  CHECK(hl->released == 1);

  /* a lease revoked while the script still holds the tensor: release at once */
  hbuf hk;
  hb_init(&hk, 4);
  d = mkdesc(hk.data, 1, A(4), NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, &hk, &lease), LTENSOR_OK);
  lua_setglobal(L, "k");
  CHECK(hk.released == 0);
  ltensor_revoke_lease(lease);
  CHECK(hk.released == 1);
  LERR(L, "return k[1]", "tensor has been released");
  LOK(L, "k = nil; collectgarbage()");
  CHECK(hk.released == 1);

  /* a lease that outlives its state: release at the revoke, after lua_close */
  lua_State *L2 = new_state();
  hbuf hc;
  hb_init(&hc, 4);
  d = mkdesc(hc.data, 1, A(4), NULL);
  CHECK_RC(ltensor_push_borrowed(L2, &d, 0, hb_release, &hc, &lease), LTENSOR_OK);
  lua_setglobal(L2, "t");
  LOK(L2, "v = t:view(2, 2)");
  lua_close(L2);
  CHECK(hc.released == 0);
  ltensor_revoke_lease(lease);
  CHECK(hc.released == 1);
  ltensor_revoke_lease(NULL); /* ignored */
}

static void borrowed_invalid(lua_State *L) {
  DLTensor d;
  ltensor_lease *lease;
  /* release NULL is accepted */
  _Alignas(64) float plain[4] = {1, 2, 3, 4};
  d = mkdesc(plain, 1, A(4), NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, NULL, NULL, NULL), LTENSOR_OK);
  lua_setglobal(L, "p");
  LTRUE(L, "p[4] == 4");
  LOK(L, "p = nil; collectgarbage()");

  /* invalid descriptions: ERRARG, one message, release ran once, *lease NULL */
  struct {
    const char *what, *want;
    int ndim;
    int null_desc, null_shape, null_data, neg, bad_dtype, misalign;
  } bad[] = {
      {"NULL desc", "", 0, 1, 0, 0, 0, 0, 0},
      {"ndim 65", "dims", 65, 0, 0, 0, 0, 0, 0},
      {"ndim -1", "dims", -1, 0, 0, 0, 0, 0, 0},
      {"NULL shape", "shape", 2, 0, 1, 0, 0, 0, 0},
      {"negative size", "negative", 2, 0, 0, 0, 1, 0, 0},
      {"NULL data", "NULL data", 2, 0, 0, 1, 0, 0, 0},
      {"bad dtype", "dtype", 2, 0, 0, 0, 0, 1, 0},
      {"misaligned", "aligned", 2, 0, 0, 0, 0, 0, 1},
  };
  int64_t shape65[65];
  for (int i = 0; i < 65; i++) shape65[i] = 1;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    for (int with_lease = 0; with_lease <= 1; with_lease++) {
      hbuf hb;
      hb_init(&hb, 8);
      int64_t shp[2] = {2, bad[i].neg ? -3 : 3};
      void *data = bad[i].null_data ? NULL : (char *)hb.data + (bad[i].misalign ? 2 : 0);
      int64_t *shape = bad[i].ndim == 65 ? shape65 : bad[i].null_shape ? NULL : shp;
      d = mkdesc(data, bad[i].ndim, shape, NULL);
      if (bad[i].bad_dtype) d.dtype.code = 77;
      lease = (ltensor_lease *)&hb;
      char what[96];
      snprintf(what, sizeof what, "push_borrowed(%s%s)", bad[i].what, with_lease ? ", lease" : "");
      int rc = ltensor_push_borrowed(L, bad[i].null_desc ? NULL : &d, 0, hb_release, &hb,
                                     with_lease ? &lease : NULL);
      fails_with(L, rc, LTENSOR_ERRARG, 0, bad[i].want, what);
      CHECKF(hb.released == 1, "%s: release ran %ld times", what, hb.released);
      if (with_lease) CHECKF(lease == NULL, "%s: *lease not set to NULL", what);
    }
  }
}

static void test_push_borrowed(void) {
  lua_State *L = new_state();
  hbuf h, hs, hr, hl;
  borrowed_shared(L, &h);
  borrowed_layouts(L, &hs);
  borrowed_read_only(L, &hr);
  borrowed_leases(L, &hl);
  borrowed_invalid(L);
  lua_close(L);
  CHECK(h.released == 1 && hs.released == 1 && hr.released == 1 && hl.released == 1);
}

/* }====== */

/* {====== revocation ====== */

/* Script accesses of x; pre: whether it succeeds on a live writable 2x3 float32 tensor. */
static const struct {
  const char *code;
  int pre;
} accesses[] = {
    {"local _ = x[1]", 1},
    {"local _ = x[-1]", 1},
    {"local _ = x[{1}]", 1},
    {"local _ = x[{{1, 1}}]", 1},
    {"x[1] = 0", 1},
    {"x[{1}] = 0", 1},
    {"x[-1] = x[1]", 1},
    {"for _ in ipairs(x) do end", 1},
    {"for _ in pairs(x) do end", 1},
    {"if x:dim() > 1 then x[1][1] = x[1][2] end", 1}, /* the kept row view */
    {"local _ = #x", 1},
    {"local _ = x.shape", 1},
    {"local _ = x.dtype", 1},
    {"local _ = x.ndim", 1},
    {"local _ = x.device", 1},
    {"x:size()", 1},
    {"x:size(1)", 1},
    {"x:stride()", 1},
    {"x:numel()", 1},
    {"x:dim()", 1},
    {"x:is_contiguous()", 1},
    {"x:element_size()", 1},
    {"x:nbytes()", 1},
    {"x:storage_offset()", 1},
    {"x:data_ptr()", 1},
    {"x:const_data_ptr()", 1},
    {"x:is_read_only()", 1},
    {"x:tolist()", 1},
    {"x:item()", 0},
    {"x:get(1, 1)", 1},
    {"x:set(1, 1, 0)", 1},
    {"x:bytes()", 1},
    {"x:clone()", 1},
    {"x:contiguous()", 1},
    {"x:to('float64')", 1},
    {"x:to('float32')", 1},
    {"x:copy_(x)", 1},
    {"x:fill_(1)", 1},
    {"x:zero_()", 1},
    {"x:view(-1)", 1},
    {"x:reshape(-1)", 1},
    {"x:transpose(1, -1)", 1},
    {"x:permute(2, 1)", 1},
    {"x:narrow(1, 1, 1)", 1},
    {"x:select(1, 1)", 1},
    {"x:unsqueeze(1)", 1},
    {"x:squeeze()", 1},
    {"x:flatten()", 1},
    {"x:expand(2, 3)", 1},
    {"x:__dlpack()", 1},
    {"x:__dlpack{max_version = {1, 3}}", 1},
    {"x:__dlpack_device()", 1},
    {"dlpack.to_dlpack(x)", 1},
    {"dlpack.from_dlpack(x)", 1},
    {"dlpack.from_dlpack(x, {copy = true})", 1},
    {"dlpack.ReadOnlyTensorWrapper(x)", 1},
    {"lt.tensor(x)", 1},
    {"lt.zeros(2, 3):copy_(x)", 1},
    {"local z = lt.zeros(2, 3); z[{}] = x", 1},
    {"local z = lt.zeros(2, 3); z[1] = x[1]", 1},
};
#define NACCESS (sizeof accesses / sizeof accesses[0])

static void run_access(lua_State *L, const char *x, int i, int want_ok) {
  char code[512];
  snprintf(code, sizeof code, "local x = %s\n%s", x, accesses[i].code);
  if (want_ok)
    CHECKF(lrun(L, code), "%s: %s\n    error: %s", x, accesses[i].code, g_msg);
  else
    CHECKF(!lrun(L, code) && strstr(g_msg, "tensor has been released"),
           "%s (revoked): %s\n    expected 'tensor has been released', got: %s", x,
           accesses[i].code, g_msg[0] ? g_msg : "no error");
}

/* Views and copies of global t that a script makes before revocation. */
static const char make_views[] =
    "r1 = t[1]; v = t:view(6); tr = t:transpose(1, 2); n = t:narrow(2, 2, 2)\n"
    "s = t:select(2, 1); u = t:unsqueeze(1); f = t:flatten(); e = t[{{1, 2}, {2, 3}}]\n"
    "p = t:permute(2, 1); rs = t:reshape(3, 2); sq = u:squeeze(1); ex = u:expand(4, 2, 3)\n"
    "ct = t:contiguous(); z0 = t:select(1, 2):select(1, 3); fd = dlpack.from_dlpack(t)\n"
    "tf = t:to('float32'); rr = r1[{{2, 3}}]\n"
    "w = dlpack.ReadOnlyTensorWrapper(t)\n"
    "c = t:clone(); c1 = t[1]:clone(); cc = lt.tensor(t); cd = dlpack.from_dlpack(t, {copy = "
    "true})\n"
    "cf = t:to('float64'); ctr = t:transpose(1, 2):contiguous(); cb = lt.from_bytes(t:bytes(), "
    "'float32', 2, 3)\n";
static const char *const views[] = {"t",  "r1", "v",  "tr", "n",  "s",  "u",  "f",  "e", "p",
                                    "rs", "sq", "ex", "ct", "z0", "fd", "tf", "rr", NULL};
static const char *const copies[] = {"c1", "cc", "cd", "cf", "cb", NULL};

/* After t (2x3 over 0..5) was revoked: every view raises, copies keep the old values. */
static void check_revoked(lua_State *L, const char *how) {
  for (int k = 0; views[k]; k++)
    for (size_t i = 0; i < NACCESS; i++) run_access(L, views[k], (int)i, 0);
  for (int k = 0; views[k]; k++) {
    char expr[128];
    snprintf(expr, sizeof expr, "type(tostring(%s)) == 'string'", views[k]);
    CHECKF(ltrue(L, expr), "%s: %s raised: %s", how, expr, g_msg);
  }
  LERR(L, "w:__dlpack{max_version = {1, 3}}", "tensor has been released");
  LERR(L, "dlpack.from_dlpack(w)", "tensor has been released");
  LTRUE(L, "type(tostring(w)) == 'string'");
  LTRUE(L, "same(c:tolist(), {{0, 1, 2}, {3, 4, 5}})");
  LTRUE(L, "same(c1:tolist(), {0, 1, 2}) and same(cc:tolist(), {{0, 1, 2}, {3, 4, 5}})");
  LTRUE(L,
        "same(cd:tolist(), {{0, 1, 2}, {3, 4, 5}}) and same(cf:tolist(), {{0, 1, 2}, {3, 4, 5}})");
  LTRUE(
      L,
      "same(ctr:tolist(), {{0, 3}, {1, 4}, {2, 5}}) and same(cb:tolist(), {{0, 1, 2}, {3, 4, 5}})");
  for (int k = 0; copies[k]; k++) {
    char code[128];
    snprintf(code, sizeof code, "%s:fill_(7)", copies[k]);
    CHECKF(lrun(L, code), "%s: clone %s not writable after revoke: %s", how, copies[k], g_msg);
  }
  LOK(L, "c[2][3] = -1");
  LTRUE(L, "same(c:tolist(), {{0, 1, 2}, {3, 4, -1}})");
  LTRUE(L, "not ltensor_is(t) and not ltensor_is(r1)");
}

static int l_is_tensor(lua_State *L) {
  lua_pushboolean(L, ltensor_is_tensor(L, 1));
  return 1;
}

/* A state with ltensor_is, where global `name` is h (6 floats) lent as a 2x3 tensor (flags,
 *lease when lease is not NULL); with keep, the tensor also stays on the stack. */
static lua_State *lent_state(hbuf *h, const char *name, int flags, ltensor_lease **lease,
                             int keep) {
  lua_State *L = new_state();
  lua_register(L, "ltensor_is", l_is_tensor);
  hb_init(h, 6);
  DLTensor d = mkdesc(h->data, 2, A(2, 3), NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, flags, hb_release, h, lease), LTENSOR_OK);
  if (keep) lua_pushvalue(L, -1);
  lua_setglobal(L, name);
  return L;
}

static void revoke_accesses(void) {
  /* the accesses work on a live borrowed tensor (so the list says something), and all raise
     once it is revoked */
  hbuf hp;
  ltensor_lease *lease = NULL;
  lua_State *L = lent_state(&hp, "pt", 0, &lease, 0);
  for (size_t i = 0; i < NACCESS; i++)
    if (accesses[i].pre) run_access(L, "pt", (int)i, 1);
  LOK(L, "collectgarbage(); collectgarbage()"); /* capsules made above hold exports */
  CHECK(hp.released == 0);
  ltensor_revoke_lease(lease);
  CHECK(hp.released == 1);
  for (size_t i = 0; i < NACCESS; i++) run_access(L, "pt", (int)i, 0);
  lua_close(L);
  CHECK(hp.released == 1);
}

static void revoke_lease_or_index(void) {
  /* ltensor_revoke_lease, with views and copies made before */
  hbuf h;
  ltensor_lease *lease = NULL;
  lua_State *L = lent_state(&h, "t", 0, &lease, 0);
  LOK(L, make_views);
  LTRUE(L, "ltensor_is(t) and ltensor_is(r1) and not ltensor_is(w) and not ltensor_is(1)");
  CHECK(h.released == 0);
  ltensor_revoke_lease(lease);
  CHECK(h.released == 1); /* no export held it: at once */
  check_revoked(L, "revoke_lease");
  /* revoking again through the stack is harmless */
  getg(L, "t");
  CHECK_RC(ltensor_revoke(L, -1), LTENSOR_OK);
  CHECK_RC(ltensor_revoke(L, -1), LTENSOR_OK);
  CHECK(lua_gettop(L) == 1);
  lua_pop(L, 1);
  lua_close(L);
  CHECK(h.released == 1);

  /* ltensor_revoke(L, idx) on the tensor itself (no lease), then the lease-free path twice */
  L = lent_state(&h, "t", 0, NULL, 1);
  LOK(L, make_views);
  CHECK_RC(ltensor_revoke(L, 1), LTENSOR_OK);
  CHECK(lua_gettop(L) == 1);
  CHECK(h.released == 1);
  check_revoked(L, "revoke(L, idx)");
  CHECK_RC(ltensor_revoke(L, 1), LTENSOR_OK);
  CHECK(h.released == 1);
  lua_settop(L, 0);
  lua_close(L);
  CHECK(h.released == 1);
}

static void revoke_views_and_clones(void) {
  /* ltensor_revoke through a view revokes the base and the other views; the lease after is
     harmless; a read-only host tensor says released too */
  hbuf h;
  ltensor_lease *lease = NULL;
  lua_State *L = lent_state(&h, "t", LTENSOR_READ_ONLY, &lease, 0);
  LOK(L, make_views);
  getg(L, "tr");
  CHECK_RC(ltensor_revoke(L, -1), LTENSOR_OK);
  lua_pop(L, 1);
  CHECK(h.released == 1);
  check_revoked(L, "revoke(view) of a read-only tensor");
  ltensor_revoke_lease(lease);
  CHECK(h.released == 1);
  lua_close(L);
  CHECK(h.released == 1);

  /* revoking a tensor the script made: its copy-on-write clone keeps the data, either way */
  L = new_state();
  LOK(L, "a = lt.arange(4); b = a:clone(); a2 = a[{{2, 3}}]; x = lt.arange(3); y = x:clone()");
  getg(L, "a");
  CHECK_RC(ltensor_revoke(L, -1), LTENSOR_OK);
  getg(L, "y");
  CHECK_RC(ltensor_revoke(L, -1), LTENSOR_OK);
  lua_settop(L, 0);
  LERR(L, "return a[1]", "tensor has been released");
  LERR(L, "return a2:tolist()", "tensor has been released");
  LTRUE(L, "same(b:tolist(), {0, 1, 2, 3})");
  LOK(L, "b[1] = 10");
  LTRUE(L, "same(b:tolist(), {10, 1, 2, 3})");
  LERR(L, "return y:tolist()", "tensor has been released");
  LTRUE(L, "same(x:tolist(), {0, 1, 2})");
  LOK(L, "x[1] = 5");
  LTRUE(L, "same(x:tolist(), {5, 1, 2})");
  lua_close(L);
}

static void revoke_refused(void) {
  /* errors: non-tensors and released (closed) tensors: ERRTYPE with a message */
  lua_State *L = new_state();
  LOK(L, "do local y <close> = lt.zeros(2); closed = y end; cap = dlpack.to_dlpack(lt.zeros(2))");
  LOK(L, "w = dlpack.ReadOnlyTensorWrapper(lt.zeros(2))");
  const char *nontensors[] = {"nil", "1", "'s'", "{}", "closed", "cap", "w", "io.stdout", NULL};
  for (int i = 0; nontensors[i]; i++) {
    char what[64];
    push_arg(L, "revoke", nontensors[i], what, sizeof what);
    int top = lua_gettop(L);
    fails_with(L, ltensor_revoke(L, top), LTENSOR_ERRTYPE, top, "tensor", what);
    CHECK(lua_gettop(L) == 1);
    lua_settop(L, 0);
  }
  fails_with(L, ltensor_revoke(L, 5), LTENSOR_ERRTYPE, 0, "tensor", "revoke(no value)");
  LTRUE(L, "w ~= nil"); /* the wrapper still works */
  lua_close(L);
}

static void test_revoke(void) {
  revoke_accesses();
  revoke_lease_or_index();
  revoke_views_and_clones();
  revoke_refused();
}

/* A host's frame loop: each frame's buffer is pushed with a lease, the script keeps what it
   likes, and the lease is revoked at the end of the frame. A script that holds on to last
   frame's tensor gets an error, never stale or freed memory; each buffer is released at the
   end of its own frame. Also a buffer on a device the host cannot read. */
static void test_frames(void) {
  lua_State *L = new_state();
  LOK(L,
      "kept = {}\n"
      "function frame(buf, n)\n"
      "  if n > 1 then\n"
      "    local ok, e = pcall(function() return kept[n - 1][1] end)\n"
      "    assert(not ok and e:find('tensor has been released'), tostring(e))\n"
      "    assert(kept_clone[1] == n - 1)\n"
      "  end\n"
      "  assert(buf[1] == n and buf[8] == 7)\n"
      "  buf[2] = -n\n"
      "  kept[n] = buf:narrow(1, 1, 4)\n"
      "  kept_clone = buf:clone()\n"
      "end");
  enum { FRAMES = 64 };
  for (int n = 1; n <= FRAMES; n++) {
    hbuf h;
    hb_init(&h, 8);
    h.data[0] = (float)n;
    DLTensor d = mkdesc(h.data, 1, A(8), NULL);
    ltensor_lease *lease = NULL;
    lua_getglobal(L, "frame");
    int rc = ltensor_push_borrowed(L, &d, 0, hb_release, &h, &lease);
    CHECKF(rc == LTENSOR_OK && lease, "frame %d: push_borrowed %d", n, rc);
    if (rc != LTENSOR_OK) {
      lua_settop(L, 0);
      continue;
    }
    lua_pushinteger(L, n);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
      CHECKF(0, "frame %d: %s", n, lua_tostring(L, -1));
      lua_pop(L, 1);
    }
    CHECKF(h.data && h.data[1] == (float)-n, "frame %d: the script's write is missing", n);
    CHECKF(h.released == 0, "frame %d: released during the frame", n);
    ltensor_revoke_lease(lease);
    CHECKF(h.released == 1, "frame %d: released %ld times at the end of the frame", n, h.released);
  }
  LTRUE(L, "#kept == 64 and kept_clone[1] == 64 and kept_clone[2] == -64");
  lua_close(L);

  /* a device buffer: shape, device, views, export and revoke work; elements raise */
  L = new_state();
  static _Alignas(64) char fake_device_memory[64];
  hbuf h;
  hb_init(&h, 1);
  DLTensor d = mkdesc(fake_device_memory, 2, A(2, 4), NULL);
  d.device.device_type = kDLCUDA;
  d.device.device_id = 1;
  ltensor_lease *lease = NULL;
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, &h, &lease), LTENSOR_OK);
  DLManagedTensorVersioned *m = NULL;
  CHECK_RC(ltensor_export(L, -1, 0, &m), LTENSOR_OK);
  CHECK(m && m->dl_tensor.device.device_type == kDLCUDA && m->dl_tensor.device.device_id == 1 &&
        m->dl_tensor.data == fake_device_memory);
  lua_setglobal(L, "g");
  LTRUE(L,
        "g.device == 'cuda:1' and same(g.shape, {2, 4}) and g:transpose(1, 2).device == 'cuda:1'");
  LERR(L, "return g[1][1]", "cuda:1");
  LERR(L, "g:fill_(0)", "cuda:1");
  /* functions that took a contiguous input as it was read it (a segfault before) */
  static const char *const device_reads[] = {
      "F.layer_norm(g, {4})",
      "F.rms_norm(g, 4)",
      "F.group_norm(g:view(1, 2, 4), 1)",
      "F.interpolate(g:view(1, 2, 4), 8)",
      "F.embedding(lt.tensor({1, 2}), g)",
      "F.one_hot(gi)",
      "F.embedding(gi, lt.ones(3, 2))",
      "F.scaled_dot_product_attention(g:view(1, 2, 4), g:view(1, 2, 4), g:view(1, 2, 4))",
      "F.pad(g, {1, 1}, 'reflect')",
  };
  hbuf hi;
  hb_init(&hi, 1);
  DLTensor di = tm_desc(fake_device_memory, dt_of(kDLInt, 64, 1), 1, A(8), NULL);
  di.device = d.device;
  CHECK_RC(ltensor_push_borrowed(L, &di, 0, hb_release, &hi, NULL), LTENSOR_OK);
  lua_setglobal(L, "gi");
  LOK(L, "F = lt.nn.functional");
  for (size_t i = 0; i < sizeof device_reads / sizeof *device_reads; i++)
    LERR(L, device_reads[i], "cuda:1");
  LOK(L, "gi = nil; collectgarbage()");
  CHECK(hi.released == 1);
  LOK(L, "gv = g:view(8)");
  ltensor_revoke_lease(lease);
  CHECK(h.released == 0); /* the export holds it */
  LERR(L, "return g.shape", "tensor has been released");
  LERR(L, "return gv:size()", "tensor has been released");
  lua_close(L);
  CHECK(h.released == 0);
  if (m) m->deleter(m);
  CHECK(h.released == 1);
}

/* }====== */

/* {====== export ====== */

static void *thr_delete(void *arg) {
  DLManagedTensorVersioned *m = arg;
  m->deleter(m);
  return NULL;
}

static void export_script(lua_State *L, DLManagedTensorVersioned **m_out,
                          DLManagedTensorVersioned **mr_out) {
  DLManagedTensorVersioned *m = NULL;
  /* writable, from a script tensor: the managed tensor matches and shares memory */
  LOK(L, "a = lt.arange(6, 'float32'):view(2, 3)");
  getg(L, "a");
  CHECK_RC(ltensor_export(L, 1, 0, &m), LTENSOR_OK);
  CHECK(lua_gettop(L) == 1);
  CHECK(m && m->version.major == 1 && m->deleter);
  if (m) {
    DLTensor *t = &m->dl_tensor;
    CHECK(!(m->flags & DLPACK_FLAG_BITMASK_READ_ONLY));
    CHECK(t->ndim == 2 && dims_eq(t->shape, A(2, 3), 2) && dims_eq(t->strides, A(3, 1), 2));
    CHECK(t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1);
    CHECK(t->device.device_type == kDLCPU && t->byte_offset == 0);
    CHECK(t->data == (void *)(intptr_t)lint(L, "a:const_data_ptr()"));
    float *f = t->data;
    CHECK(f[4] == 4.0f);
    f[4] = 44.0f;
    LTRUE(L, "a[2][2] == 44");
    LOK(L, "a[1][1] = -3");
    CHECK(f[0] == -3.0f);
  }
  lua_settop(L, 0);

  /* read_only asked */
  DLManagedTensorVersioned *mr = NULL;
  LOK(L, "tv = a:transpose(1, 2):narrow(1, 2, 2)"); /* strides {1, 3}, offset 1 */
  getg(L, "tv");
  CHECK_RC(ltensor_export(L, -1, 1, &mr), LTENSOR_OK);
  lua_settop(L, 0);
  CHECK(mr && (mr->flags & DLPACK_FLAG_BITMASK_READ_ONLY));
  if (mr) {
    CHECK(mr->dl_tensor.ndim == 2 && dims_eq(mr->dl_tensor.shape, A(2, 2), 2) &&
          dims_eq(mr->dl_tensor.strides, A(1, 3), 2));
    CHECK((char *)mr->dl_tensor.data + mr->dl_tensor.byte_offset ==
          (char *)(intptr_t)lint(L, "a:const_data_ptr()") + sizeof(float));
  }
  *m_out = m;
  *mr_out = mr;
}

static void export_wrapper_clone(lua_State *L) {
  /* a wrapper: READ_ONLY even when writable was asked, same memory */
  DLManagedTensorVersioned *mw = NULL;
  LOK(L, "w = dlpack.ReadOnlyTensorWrapper(a)");
  getg(L, "w");
  CHECK_RC(ltensor_export(L, -1, 0, &mw), LTENSOR_OK);
  lua_settop(L, 0);
  CHECK(mw && (mw->flags & DLPACK_FLAG_BITMASK_READ_ONLY));
  CHECK(mw && mw->dl_tensor.data == (void *)(intptr_t)lint(L, "a:const_data_ptr()"));
  if (mw) mw->deleter(mw);

  /* a copy-on-write clone: a writable export gives it its own memory; a read-only one not */
  DLManagedTensorVersioned *mc = NULL, *mc2 = NULL;
  LOK(L, "b0 = lt.arange(6, 'float32'):view(2, 3); c1 = b0:clone(); c2 = b0:clone()");
  getg(L, "c1");
  CHECK_RC(ltensor_export(L, -1, 0, &mc), LTENSOR_OK);
  getg(L, "c2");
  CHECK_RC(ltensor_export(L, -1, 1, &mc2), LTENSOR_OK);
  lua_settop(L, 0);
  void *adata = (void *)(intptr_t)lint(L, "b0:const_data_ptr()");
  CHECK(mc && mc->dl_tensor.data != adata);
  CHECK(mc2 && mc2->dl_tensor.data == adata);
  if (mc) {
    ((float *)mc->dl_tensor.data)[1] = 123.0f;
    LTRUE(L, "c1[1][2] == 123 and b0[1][2] == 1 and c2[1][2] == 1");
    mc->deleter(mc);
  }
  if (mc2) mc2->deleter(mc2);
}

static void export_borrowed(lua_State *L, hbuf *h, DLManagedTensorVersioned **mh_out) {
  /* borrowed host memory: export before revoke stays readable after it and after lua_close;
     release runs when its deleter does, on its thread */
  hb_init(h, 6);
  DLTensor d = mkdesc(h->data, 2, A(2, 3), NULL);
  ltensor_lease *lease = NULL;
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, h, &lease), LTENSOR_OK);
  DLManagedTensorVersioned *mh = NULL, *mh2 = NULL;
  CHECK_RC(ltensor_export(L, -1, 0, &mh), LTENSOR_OK);
  CHECK_RC(ltensor_export(L, -1, 1, &mh2), LTENSOR_OK);
  lua_setglobal(L, "h");
  CHECK(mh && mh->dl_tensor.data == h->addr && !(mh->flags & DLPACK_FLAG_BITMASK_READ_ONLY));
  ltensor_revoke_lease(lease);
  CHECK(h->released == 0);
  LERR(L, "return h[1][1]", "tensor has been released");
  /* a revoked tensor cannot be exported */
  getg(L, "h");
  DLManagedTensorVersioned *none = (DLManagedTensorVersioned *)h;
  fails_with(L, ltensor_export(L, -1, 0, &none), LTENSOR_ERRTYPE, 1, "released", "export(revoked)");
  fails_with(L, ltensor_export(L, -1, 1, &none), LTENSOR_ERRTYPE, 1, "released",
             "export(revoked, read_only)");
  lua_settop(L, 0);
  if (mh) {
    float *f = mh->dl_tensor.data;
    CHECK(f[5] == 5.0f);
  }
  if (mh2) mh2->deleter(mh2);
  CHECK(h->released == 0);
  *mh_out = mh;
}

static void export_refused(lua_State *L) {
  int sentinel; /* what *out holds before: a failed export leaves it */
  DLManagedTensorVersioned *none;
  /* non-tensors and released tensors */
  LOK(L, "do local y <close> = lt.zeros(2); closed = y end; cap = dlpack.to_dlpack(lt.zeros(2))");
  const char *nontensors[] = {"nil", "1", "'s'", "{}", "closed", "cap", "io.stdout", NULL};
  for (int i = 0; nontensors[i]; i++) {
    char what[64];
    push_arg(L, "export", nontensors[i], what, sizeof what);
    none = (DLManagedTensorVersioned *)&sentinel;
    fails_with(L, ltensor_export(L, 1, 0, &none), LTENSOR_ERRTYPE, 1,
               strcmp(nontensors[i], "closed") ? "tensor" : "released", what);
    CHECKF(none == (DLManagedTensorVersioned *)&sentinel, "%s wrote *out", what);
    lua_settop(L, 0);
  }
  LOK(L, "x = lt.zeros(2)");
  getg(L, "x");
  fails_with(L, ltensor_export(L, 1, 0, NULL), LTENSOR_ERRARG, 1, "NULL", "export(out NULL)");
  lua_settop(L, 0);
}

static void test_export(void) {
  lua_State *L = new_state();
  DLManagedTensorVersioned *m = NULL, *mr = NULL, *mh = NULL;
  hbuf h;
  export_script(L, &m, &mr);
  export_wrapper_clone(L);
  export_borrowed(L, &h, &mh);
  export_refused(L);
  lua_close(L);
  /* after lua_close: still valid, values as the script left them */
  if (m) {
    float *f = m->dl_tensor.data;
    CHECK(f[0] == -3.0f && f[4] == 44.0f && f[5] == 5.0f);
  }
  if (mr) {
    float *f = (float *)((char *)mr->dl_tensor.data + mr->dl_tensor.byte_offset);
    CHECK(f[0] == 1.0f && f[3] == 44.0f && f[1] == 2.0f); /* tv[1][1], tv[1][2], tv[2][1] */
  }
  /* push the exports into a second state: readable there */
  lua_State *L2 = new_state();
  if (m) {
    CHECK_RC(ltensor_push_managed(L2, m), LTENSOR_OK);
    lua_setglobal(L2, "m");
    LTRUE(L2, "same(m:tolist(), {{-3, 1, 2}, {3, 44, 5}}) and not m:is_read_only()");
  }
  if (mr) {
    CHECK_RC(ltensor_push_managed(L2, mr), LTENSOR_OK);
    lua_setglobal(L2, "mr");
    LTRUE(L2, "same(mr:tolist(), {{1, 44}, {2, 5}}) and mr:is_read_only()");
    LERR(L2, "mr[1][1] = 0", "read-only");
  }
  lua_close(L2);
  CHECK(h.released == 0);
  if (mh) {
    CHECK(((float *)mh->dl_tensor.data)[3] == 3.0f);
    pthread_t th;
    if (pthread_create(&th, NULL, thr_delete, mh) == 0) {
      pthread_join(th, NULL);
      CHECK(h.released == 1);
      CHECK(!pthread_equal(h.thread, pthread_self()));
    } else {
      mh->deleter(mh);
    }
  }
  CHECK(h.released == 1);
}

/* }====== */

/* {====== borrow, is_tensor, check_tensor ====== */

/* host_sum(a [, b]): checks its tensor arguments, sums the float32 elements of the first. */
static int host_sum(lua_State *L) {
  DLTensor d, d2;
  int top = lua_gettop(L);
  ltensor_check_tensor(L, 1, &d);
  if (top >= 2) ltensor_check_tensor(L, 2, &d2);
  if (lua_gettop(L) != top) return luaL_error(L, "ltensor_check_tensor changed the stack");
  if (d.dtype.code != kDLFloat || d.dtype.bits != 32) return luaL_error(L, "float32 expected");
  int64_t idx[64] = {0}, n = 1;
  for (int i = 0; i < d.ndim; i++) n *= d.shape[i];
  double s = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int i = 0; i < d.ndim; i++) off += idx[i] * (d.strides ? d.strides[i] : 0);
    s += ((const float *)((const char *)d.data + d.byte_offset))[off];
    for (int i = d.ndim - 1; i >= 0; i--) {
      if (++idx[i] < d.shape[i]) break;
      idx[i] = 0;
    }
  }
  lua_pushnumber(L, s);
  return 1;
}

static int host_is(lua_State *L) {
  int top = lua_gettop(L);
  int r = ltensor_is_tensor(L, 1);
  if (lua_gettop(L) != top) return luaL_error(L, "ltensor_is_tensor changed the stack");
  lua_pushboolean(L, r);
  return 1;
}

static void test_borrow_and_checks(void) {
  lua_State *L = new_state();
  DLTensor d;

  /* borrow matches the tensor: data, shape, strides, offset folded into data */
  LOK(L, "a = lt.arange(12, 'float32'):view(3, 4); v = a:transpose(1, 2):narrow(1, 2, 2)");
  getg(L, "v");
  memset(&d, 0, sizeof d);
  CHECK_RC(ltensor_borrow(L, 1, &d), LTENSOR_OK);
  CHECK(lua_gettop(L) == 1);
  CHECK(d.ndim == 2 && dims_eq(d.shape, A(2, 3), 2) && dims_eq(d.strides, A(1, 4), 2));
  CHECK(d.dtype.code == kDLFloat && d.dtype.bits == 32 && d.device.device_type == kDLCPU);
  CHECK((char *)d.data + d.byte_offset ==
        (char *)(intptr_t)lint(L, "a:const_data_ptr()") + sizeof(float));
  CHECK((char *)d.data + d.byte_offset == (char *)(intptr_t)lint(L, "v:const_data_ptr()"));
  CHECK(((float *)((char *)d.data + d.byte_offset))[4] == 5.0f); /* v[1][2] = a[2][2] */
  lua_settop(L, 0);

  /* borrowed host memory with an offset */
  hbuf h;
  hb_init(&h, 8);
  DLTensor desc = mkdesc(h.data, 1, A(3), A(2));
  desc.byte_offset = sizeof(float);
  CHECK_RC(ltensor_push_borrowed(L, &desc, 0, hb_release, &h, NULL), LTENSOR_OK);
  CHECK_RC(ltensor_borrow(L, -1, &d), LTENSOR_OK);
  CHECK((char *)d.data + d.byte_offset == (char *)h.addr + sizeof(float));
  CHECK(d.ndim == 1 && d.shape[0] == 3 && d.strides && d.strides[0] == 2);
  lua_setglobal(L, "hb");
  LTRUE(L, "same(hb:tolist(), {1, 3, 5})");

  /* a copy-on-write clone is given its own memory: writes through the view stay in it */
  LOK(L, "c = a:clone()");
  getg(L, "c");
  CHECK_RC(ltensor_borrow(L, -1, &d), LTENSOR_OK);
  lua_pop(L, 1);
  CHECK(d.data != (void *)(intptr_t)lint(L, "a:const_data_ptr()"));
  ((float *)d.data)[0] = 77.0f;
  LTRUE(L, "c[1][1] == 77 and a[1][1] == 0");

  /* errors */
  LOK(L, "do local y <close> = lt.zeros(2); closed = y end; r = lt.zeros(2)");
  getg(L, "r");
  CHECK_RC(ltensor_revoke(L, -1), LTENSOR_OK);
  lua_pop(L, 1);
  const char *bad[] = {"nil", "1", "'s'", "{}", "closed", "r", "io.stdout", NULL};
  for (int i = 0; bad[i]; i++) {
    char what[64];
    push_arg(L, "borrow", bad[i], what, sizeof what);
    fails_with(L, ltensor_borrow(L, 1, &d), LTENSOR_ERRTYPE, 1,
               strcmp(bad[i], "closed") && strcmp(bad[i], "r") ? "tensor" : "released", what);
    CHECKF(!ltensor_is_tensor(L, 1), "is_tensor(%s)", bad[i]);
    CHECK(lua_gettop(L) == 1);
    lua_settop(L, 0);
  }
  getg(L, "a");
  fails_with(L, ltensor_borrow(L, 1, NULL), LTENSOR_ERRARG, 1, "NULL", "borrow(out NULL)");
  CHECK(ltensor_is_tensor(L, 1) && lua_gettop(L) == 1);
  CHECK(ltensor_is_tensor(L, -1));
  CHECK(!ltensor_is_tensor(L, 2)); /* no value */
  lua_settop(L, 0);

  /* from C functions that scripts call */
  lua_register(L, "host_sum", host_sum);
  lua_register(L, "host_is", host_is);
  LTRUE(L, "host_sum(a) == 66 and host_sum(v) == 1 + 5 + 9 + 2 + 6 + 10");
  LTRUE(L, "host_sum(lt.tensor({1.5, 2.5})) == 4 and host_sum(hb) == 9");
  LTRUE(L, "host_sum(a[2], a) == 4 + 5 + 6 + 7");
  LTRUE(L, "host_is(a) and host_is(v) and host_is(hb)");
  LTRUE(L, "not host_is(1) and not host_is(nil) and not host_is({}) and not host_is('x')");
  LTRUE(L, "not host_is(closed) and not host_is(r) and not host_is(io.stdout) and not host_is()");
  LERRS(L, "bad argument #1 to 'host_sum'", "host_sum(5)", "host_sum()", "host_sum({1, 2})",
        "host_sum(closed)");
  LERR(L, "host_sum(r)", "released");
  LERR(L, "host_sum(r)", "bad argument #1");
  LERR(L, "host_sum(a, 'x')", "bad argument #2 to 'host_sum'");
  LTRUE(L, "select('#', pcall(host_sum, 1)) == 2");
  lua_close(L);
  CHECK(h.released == 1);
}

/* A host that links ltensor statically, and a script that finds the shared module
   ltensor.core on package.cpath (as when ltensor_open was not called, or failed): two copies
   of ltensor in one state. Whatever happens (the second copy refused with an error, or both
   working), the host's tensor must stay usable and be released exactly once. Runs where the
   environment's LUA_CPATH finds the module (ctest sets it). */
static void test_two_copies(void) {
  lua_State *L = luaL_newstate();
  lua_atpanic(L, on_panic);
  luaL_openlibs(L);
  if (!ltrue(L, "package.searchpath('ltensor.core', package.cpath) ~= nil")) {
    printf("test_two_copies: ltensor.core not on package.cpath, skipped\n");
    lua_close(L);
    return;
  }
  hbuf h;
  hb_init(&h, 4);
  DLTensor d = mkdesc(h.data, 1, A(4), NULL);
  CHECK_RC(ltensor_push_borrowed(L, &d, 0, hb_release, &h, NULL), LTENSOR_OK);
  lua_setglobal(L, "t");
  int loaded = lrun(L, "lt = require 'ltensor'");
  CHECKF(!loaded || ltrue(L, "t[4] == 3 and t:numel() == 4"),
         "after a second copy of ltensor was loaded from package.cpath, the host's tensor "
         "does not work: %s",
         g_msg);
  LOK(L, "t = nil; collectgarbage(); collectgarbage()");
  CHECKF(h.released == 1,
         "two copies of ltensor (%s): the host's tensor was released %ld times after "
         "collection",
         loaded ? "loaded" : "refused", h.released);
  lua_close(L);
  CHECKF(h.released == 1, "two copies of ltensor: released %ld times after lua_close", h.released);
}

/* }====== */

/* {====== a failing allocator ====== */

typedef struct {
  long n;       /* growing requests since armed */
  long fail_at; /* the first that fails (0: none) */
  long fail_len;
  long failed;
  int armed;
} falloc;

static void *f_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  falloc *a = ud;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (a->armed && (ptr == NULL || nsize > osize)) {
    a->n++;
    if (a->fail_at && a->n >= a->fail_at && a->n - a->fail_at < a->fail_len) {
      a->failed++;
      return NULL;
    }
  }
  return realloc(ptr, nsize);
}

typedef struct {
  long runs, hit; /* runs, and runs where an allocation failed */
  long panics, contract, release, deleter, script;
  long first_panic, first_contract, first_release, first_deleter, first_script;
  char contract_what[160];
  /* how often each call reported a failure: proof that the runs reach them */
  long open_fail, borrowed_fail, managed_fail, export_fail, revoke_fail, script_fail, repush_fail;
  long gc_errors; /* finalizers Lua could not call (its warning "error in __gc") */
} fstats;

static fstats g_fs;
static long g_run_n;

/* Lua reports a finalizer it could not run (a __gc whose call failed to allocate) as the
   warning "error in __gc (...)", in pieces; it then never runs that finalizer. */
static void count_warning(void *ud, const char *msg, int tocont) {
  (void)ud;
  (void)tocont;
  if (strcmp(msg, "__gc") == 0) g_fs.gc_errors++;
}

static void note(long *count, long *first) {
  if ((*count)++ == 0) *first = g_run_n;
}

/* The status contract of a host call: rc one of the allowed codes; on OK, ok_pushed values
   pushed; otherwise exactly one string. Returns rc. */
static int contract(lua_State *L, int rc, int top, int ok_pushed, unsigned allowed,
                    const char *what) {
  int good = (allowed >> rc) & 1u;
  if (rc == LTENSOR_OK)
    good = good && lua_gettop(L) == top + ok_pushed;
  else
    good = good && lua_gettop(L) == top + 1 && lua_type(L, -1) == LUA_TSTRING;
  if (!good) {
    if (g_fs.contract == 0)
      snprintf(g_fs.contract_what, sizeof g_fs.contract_what, "%s: status %d, %d values pushed",
               what, rc, lua_gettop(L) - top);
    note(&g_fs.contract, &g_fs.first_contract);
  }
  return rc;
}

/* Names the host call for a panic report, then makes it. */
#define STAGE(what, call) (g_stage = (what), (call))
#define OKMEM ((1u << LTENSOR_OK) | (1u << LTENSOR_ERRMEM))
#define OKTYPE ((1u << LTENSOR_OK) | (1u << LTENSOR_ERRTYPE))

static const char scenario_script[] =
    "local t, m = ...\n"
    "local r, v = t[1], t:view(6)\n"
    "local tr, n = t:transpose(1, 2), t:narrow(2, 2, 2)\n"
    "local c = t:clone()\n"
    "local lt, dlpack = require 'ltensor', require 'ltensor.dlpack'\n"
    "W = dlpack.ReadOnlyTensorWrapper(t); S = tostring(t) .. tostring(lt.arange(3))\n"
    "r[1] = 10; v[6] = m[2]\n"
    "V = {r, v, tr, n, m:view(2, 2)}\n"
    "return c\n";

static const char scenario_after[] =
    "local c, e = ...\n"
    "local ok1, e1 = pcall(function() return V[3][1][1] end)\n"
    "local ok2, e2 = pcall(function() return V[1]:clone() end)\n"
    "return not ok1 and not ok2 and e1:find('released') ~= nil and e2:find('released') ~= nil\n"
    "  and c[1][1] == 0 and c[2][3] == 5 and e[1][1] == 10 and e[2][3] == 1\n";

/* The scenario's managed tensors: versioned (slot midx) and legacy pushed, then an invalid one,
   NULL and an invalid borrowed description; every push that fails ran its deleter (counted in
   *del_v, *del_l, *del_bad) or release (hbad) once. */
static void scenario_managed(lua_State *L, int midx, mblock *mv, mblock *ml, mblock *mbad,
                             const long *del_v, const long *del_l, const long *del_bad,
                             hbuf *hbad) {
  int rc = contract(L, STAGE("push_managed", ltensor_push_managed(L, &mv->m.v)), midx - 1, 1, OKMEM,
                    "push_managed");
  if (rc) {
    g_fs.managed_fail++;
    if (*del_v != 1) note(&g_fs.deleter, &g_fs.first_deleter);
  }
  rc = contract(L, STAGE("push_legacy", ltensor_push_managed_legacy(L, &ml->m.l)), midx, 1, OKMEM,
                "push_legacy");
  if (rc) {
    g_fs.managed_fail++;
    if (*del_l != 1) note(&g_fs.deleter, &g_fs.first_deleter);
  }
  lua_settop(L, midx);
  rc = contract(L, STAGE("push_managed(invalid)", ltensor_push_managed(L, &mbad->m.v)), midx, 1,
                (1u << LTENSOR_ERRARG) | (1u << LTENSOR_ERRMEM), "push_managed(invalid)");
  if (*del_bad != 1) note(&g_fs.deleter, &g_fs.first_deleter);
  lua_settop(L, midx);
  rc = contract(L, STAGE("push_managed(NULL)", ltensor_push_managed(L, NULL)), midx, 1,
                (1u << LTENSOR_ERRARG) | (1u << LTENSOR_ERRMEM), "push_managed(NULL)");
  lua_settop(L, midx);
  DLTensor bad = mkdesc(hbad->data, 65, NULL, NULL);
  rc = contract(
      L, STAGE("push_borrowed(invalid)", ltensor_push_borrowed(L, &bad, 0, hb_release, hbad, NULL)),
      midx, 1, (1u << LTENSOR_ERRARG) | (1u << LTENSOR_ERRMEM), "push_borrowed(invalid)");
  if (hbad->released != 1) note(&g_fs.release, &g_fs.first_release);
  lua_settop(L, midx);
}

/* The scenario's exports (*ex of the frame's buffer at tidx, *exc of the clone at cidx) and
   borrow, then the end of the frame: the lease (h's) revoked, the managed tensor at midx
   revoked twice. */
static void scenario_take_back(lua_State *L, int tidx, int midx, int cidx, hbuf *h,
                               ltensor_lease *lease, DLManagedTensorVersioned *volatile *ex,
                               DLManagedTensorVersioned *volatile *exc) {
  /* take tensors back */
  DLManagedTensorVersioned *out = (DLManagedTensorVersioned *)h;
  DLTensor d;
  int rc;
  rc = contract(L, STAGE("export", ltensor_export(L, tidx, 0, &out)), cidx, 0, OKTYPE, "export");
  if (rc == LTENSOR_OK)
    *ex = out;
  else
    g_fs.export_fail++, lua_settop(L, cidx);
  out = NULL;
  rc = contract(L, STAGE("export(clone)", ltensor_export(L, cidx, 1, &out)), cidx, 0, OKTYPE,
                "export(clone)");
  if (rc == LTENSOR_OK)
    *exc = out;
  else
    lua_settop(L, cidx);
  rc = contract(L, STAGE("borrow", ltensor_borrow(L, cidx, &d)), cidx, 0, OKTYPE, "borrow");
  lua_settop(L, cidx);
  rc = contract(L, STAGE("export(NULL)", ltensor_export(L, tidx, 0, NULL)), cidx, 1,
                (1u << LTENSOR_ERRARG) | (1u << LTENSOR_ERRMEM), "export(NULL)");
  lua_settop(L, cidx);

  /* end of the frame: revoke the buffer and the managed tensor, twice */
  ltensor_revoke_lease(lease);
  if (*ex == NULL && h->released != 1) note(&g_fs.release, &g_fs.first_release);
  rc = contract(L, STAGE("revoke", ltensor_revoke(L, midx)), cidx, 0, OKTYPE, "revoke");
  if (rc) g_fs.revoke_fail++;
  lua_settop(L, cidx);
  rc = contract(L, STAGE("revoke again", ltensor_revoke(L, midx)), cidx, 0, OKTYPE, "revoke again");
  lua_settop(L, cidx);
  rc = contract(L, STAGE("revoke(revoked)", ltensor_revoke(L, tidx)), cidx, 0, OKTYPE,
                "revoke(revoked)");
  lua_settop(L, cidx);
  if (ltensor_is_tensor(L, tidx) || ltensor_is_tensor(L, midx))
    note(&g_fs.contract, &g_fs.first_contract);
}

/*
 * The scenario of a host frame, on a state whose allocator fails from its request fail_at on,
 * fail_len requests (fail_at 0: never). Returns the number of growing requests it made.
 *
 * Lua 5.4 itself cannot call a finalizer whose call fails to allocate (a CallInfo, stack):
 * it warns "error in __gc" and never runs it, so the tensor's storage, and the deleter or
 * release behind it, would leak whatever ltensor does. So while the allocator can fail, the
 * automatic collector is stopped (the emergency collection Lua makes on every failure, which
 * runs no finalizers, still happens), and the failures end before lua_close, as for a host
 * whose memory pressure ends with the frame; count_warning checks that no finalizer was lost.
 */
static long scenario(long fail_at, long fail_len) {
  static falloc a; /* static: read after a longjmp */
  memset(&a, 0, sizeof a);
  hbuf h, hbad;
  hb_init(&h, 6);
  hb_init(&hbad, 4);
  long del_v = 0, del_l = 0, del_bad = 0;
  mblock *mv = mb_new(1, 1, A(4), &del_v);
  mblock *ml = mb_new(0, 2, A(2, 2), &del_l);
  mblock *mbad = mb_new(1, 1, A(4), &del_bad);
  mbad->m.v.dl_tensor.dtype.lanes = 0;
  DLManagedTensorVersioned *volatile ex = NULL, *volatile exc = NULL;
  volatile int script_ok = -1;

  lua_State *L = lua_newstate(f_alloc, &a);
  if (!L) abort();
  lua_atpanic(L, on_panic);
  lua_setwarnf(L, count_warning, NULL);
  luaL_openlibs(L);
  lua_checkstack(L, 40);
  /* only the compiled-in modules: when ltensor_open fails, require must not find a second
     copy of ltensor on disk (test_two_copies) */
  (void)luaL_dostring(L, "package.path = ''; package.cpath = ''");
  lua_settop(L, 0);
  lua_gc(L, LUA_GCSTOP);
  jmp_buf jb;
  g_panic_jmp = &jb;
  a.n = 0;
  a.fail_at = fail_at;
  a.fail_len = fail_len;
  a.armed = 1;
  if (setjmp(jb)) {
    /* a Lua error reached the host: the state cannot be trusted any more (it is leaked) */
    g_panic_jmp = NULL;
    note(&g_fs.panics, &g_fs.first_panic);
    return a.n;
  }

  int top = lua_gettop(L), rc;

  rc = contract(L, STAGE("ltensor_open", ltensor_open(L)), top, 0, OKMEM, "ltensor_open");
  if (rc) g_fs.open_fail++, lua_settop(L, top);

  /* the frame's buffer, with a lease; slot tidx: the tensor or the message */
  DLTensor desc = mkdesc(h.data, 2, A(2, 3), NULL);
  ltensor_lease *lease = NULL;
  int tidx = top + 1;
  rc = contract(L,
                STAGE("push_borrowed", ltensor_push_borrowed(L, &desc, 0, hb_release, &h, &lease)),
                top, 1, OKMEM, "push_borrowed");
  if (rc) g_fs.borrowed_fail++;
  if ((rc == LTENSOR_OK) != (lease != NULL)) note(&g_fs.contract, &g_fs.first_contract);
  if (rc && h.released != 1) note(&g_fs.release, &g_fs.first_release);

  /* managed tensors: versioned (slot midx), legacy, invalid */
  int midx = tidx + 1;
  scenario_managed(L, midx, mv, ml, mbad, &del_v, &del_l, &del_bad, &hbad);

  /* the script makes views and a clone (slot cidx: the clone or the message) */
  int cidx = midx + 1;
  rc = luaL_loadbuffer(L, scenario_script, sizeof scenario_script - 1, "=scenario");
  if (rc == LUA_OK) {
    lua_pushvalue(L, tidx);
    lua_pushvalue(L, midx);
    rc = lua_pcall(L, 2, 1, 0);
  }
  if (rc) {
    g_fs.script_fail++;
    if (fail_at == 0) note(&g_fs.script, &g_fs.first_script);
  }

  scenario_take_back(L, tidx, midx, cidx, &h, lease, &ex, &exc);

  /* the export comes back in (slot eidx), and a script checks what the frame left */
  int eidx = cidx + 1;
  if (ex) {
    DLManagedTensorVersioned *e = ex;
    ex = NULL;
    rc = contract(L, STAGE("push_managed(export)", ltensor_push_managed(L, e)), cidx, 1, OKMEM,
                  "push_managed(export)");
    if (rc) g_fs.repush_fail++;
  } else {
    lua_pushnil(L);
  }
  rc = luaL_loadbuffer(L, scenario_after, sizeof scenario_after - 1, "=after");
  if (rc == LUA_OK) {
    lua_pushvalue(L, cidx);
    lua_pushvalue(L, eidx);
    rc = lua_pcall(L, 2, 1, 0);
  }
  script_ok = rc == LUA_OK && lua_toboolean(L, -1);
  lua_settop(L, eidx);

  a.armed = 0;
  lua_gc(L, LUA_GCRESTART);
  lua_close(L);
  g_panic_jmp = NULL;
  if (exc) exc->deleter(exc);
  if (h.released != 1) note(&g_fs.release, &g_fs.first_release);
  if (hbad.released != 1) note(&g_fs.release, &g_fs.first_release);
  if (del_v != 1 || del_l != 1 || del_bad != 1) note(&g_fs.deleter, &g_fs.first_deleter);
  if (fail_at == 0 && !script_ok) note(&g_fs.script, &g_fs.first_script);
  if (a.failed) g_fs.hit++;
  g_fs.runs++;
  return a.n;
}

static void test_alloc_failure(long *points) {
  /* a run without failures: the scenario works, and how many requests it makes */
  g_run_n = 0;
  long total = scenario(0, 0);
  CHECKF(g_fs.panics == 0 && g_fs.contract == 0 && g_fs.release == 0 && g_fs.deleter == 0 &&
             g_fs.script == 0,
         "the scenario fails without any allocation failure (contract: %s)", g_fs.contract_what);
  CHECK(total > 100);
  /* every point: the allocation fails and so does every later one in the frame, or it fails
     once (with the retry after Lua's emergency collection: two requests) */
  long lens[] = {LONG_MAX, 2};
  for (int k = 0; k < 2; k++)
    for (long n = 1; n <= total + 1; n++) {
      g_run_n = n;
      scenario(n, lens[k]);
    }
  *points = total + 1;
  CHECKF(g_fs.panics == 0, "%ld runs panicked (first at allocation %ld, %s)", g_fs.panics,
         g_fs.first_panic, g_panic_msg);
  CHECKF(g_fs.contract == 0, "%ld status contract violations (first at allocation %ld: %s)",
         g_fs.contract, g_fs.first_contract, g_fs.contract_what);
  CHECKF(g_fs.release == 0, "%ld release count errors (first at allocation %ld)", g_fs.release,
         g_fs.first_release);
  CHECKF(g_fs.deleter == 0, "%ld deleter count errors (first at allocation %ld)", g_fs.deleter,
         g_fs.first_deleter);
  CHECKF(g_fs.gc_errors == 0, "Lua could not call %ld finalizers", g_fs.gc_errors);
  /* the runs reached the failure paths of every call */
  CHECK(g_fs.hit >= total);
  CHECKF(g_fs.open_fail > 0 && g_fs.borrowed_fail > 0 && g_fs.managed_fail > 0 &&
             g_fs.export_fail > 0 && g_fs.revoke_fail > 0 && g_fs.script_fail > 0 &&
             g_fs.repush_fail > 0,
         "failure paths not reached: open %ld, borrowed %ld, managed %ld, export %ld, revoke "
         "%ld, script %ld, repush %ld",
         g_fs.open_fail, g_fs.borrowed_fail, g_fs.managed_fail, g_fs.export_fail, g_fs.revoke_fail,
         g_fs.script_fail, g_fs.repush_fail);
}

/* }====== */

int main(void) {
  test_open();
  test_push_managed();
  test_push_borrowed();
  test_revoke();
  test_frames();
  test_export();
  test_borrow_and_checks();
  test_two_copies();
  long points = 0;
  test_alloc_failure(&points);
  printf(
      "allocation-failure points: %ld (each run twice: failing from there on, and once), "
      "%ld runs, %ld with a failed allocation; failures reported by open %ld, push_borrowed "
      "%ld, push_managed %ld, export %ld, revoke %ld, push_managed(export) %ld; scripts "
      "failed %ld\n",
      points, g_fs.runs, g_fs.hit, g_fs.open_fail, g_fs.borrowed_fail, g_fs.managed_fail,
      g_fs.export_fail, g_fs.revoke_fail, g_fs.repush_fail, g_fs.script_fail);
  CHECK(g_panics == 0);
  int status = tu_finish("test_host");
  fflush(stdout); /* before LeakSanitizer's report at exit, which may abort */
  return status;
}
