/*
 * test_stress.c -- the lifetimes of tensors under a long random sequence of operations, across
 * two lua_States (each opened with ltensor_open, as a host does).
 *
 * A seeded generator draws 100,000 operations (LTENSOR_STRESS_OPS, LTENSOR_STRESS_SEED to
 * change): tensors made with a random shape and dtype, views (transpose, permute, narrow,
 * select, unsqueeze, squeeze, expand, stepped ranges, view(-1), aliases through from_dlpack),
 * copy-on-write clones, writes (set, t[i] = v, fill_), reads, exports (ltensor_export, and
 * capsules from __dlpack / to_dlpack), imports into the other state (ltensor_push_managed and
 * _legacy), capsules consumed in place or left to the collector, tensors released by `<close>`
 * or dropped, host buffers pushed with ltensor_push_borrowed (with and without a lease) and
 * written by the host, leases and tensors revoked, host-made managed tensors, read-only
 * wrappers, and collector steps.
 *
 * A shadow model keeps the expected values of the float64 and int32 tensors (the memory that
 * views, aliases, exports and imports share is one shadow; a clone gets its own), and the
 * expected state of every slot (live, closed by `<close>`, revoked, read-only): every read is
 * compared, every operation on a closed or revoked tensor must raise "released", every write to
 * a read-only one must raise. The layout of every view is read back from Lua and compared with
 * what the view means.
 *
 * Ownership is counted: every managed tensor that crosses between the states (and half of the
 * capsules left in Lua) goes through a wrapper whose deleter this test owns; host-made managed
 * tensors and host buffers count their deleter and release calls. After both states are closed,
 * the exports the host still holds are read (they outlive the states) and freed, and every
 * deleter and release must have run exactly once. Under AddressSanitizer the run must report no
 * leak and no invalid access.
 */
#define _POSIX_C_SOURCE 200809L

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltensor.h"
#include "test_util.h"

#define NSTATES 2
#define NSLOTS 40 /* tensors per state, in the Lua table S */
#define NCAPS 12  /* capsules per state, in the Lua table C */
#define NHOSTX 12 /* exports the host holds */
#define MAXD 5    /* dims of a modeled layout */
#define MAXSHADOW 4096

/* {====== random numbers (splitmix64) ====== */

static uint64_t g_rng;

static uint64_t next64(void) {
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int rnd(int n) { return n <= 1 ? 0 : (int)(next64() % (uint64_t)n); }
static int chance(int percent) { return rnd(100) < percent; }

/* }====== */

/* {====== counted deleters and releases ====== */

static long *g_dels; /* per id: how often its deleter (or release) ran */
static long g_ndels, g_capdels;

static long new_id(void) {
  if (g_ndels == g_capdels) {
    g_capdels = g_capdels ? 2 * g_capdels : 1024;
    g_dels = realloc(g_dels, (size_t)g_capdels * sizeof *g_dels);
    if (!g_dels) abort();
  }
  g_dels[g_ndels] = 0;
  return g_ndels++;
}

/* A managed tensor of someone else's (ltensor's export) behind a deleter of ours. */
typedef struct {
  DLManagedTensorVersioned m;
  DLManagedTensorVersioned *inner;
  long id;
} vwrap;

typedef struct {
  DLManagedTensor m;
  DLManagedTensor *inner;
  long id;
} lwrap;

static void vwrap_deleter(DLManagedTensorVersioned *self) {
  vwrap *w = self->manager_ctx;
  g_dels[w->id]++;
  if (w->inner->deleter) w->inner->deleter(w->inner);
  free(w);
}

static void lwrap_deleter(DLManagedTensor *self) {
  lwrap *w = self->manager_ctx;
  g_dels[w->id]++;
  if (w->inner->deleter) w->inner->deleter(w->inner);
  free(w);
}

static DLManagedTensorVersioned *wrap_v(DLManagedTensorVersioned *inner) {
  vwrap *w = malloc(sizeof *w);
  if (!w) abort();
  w->m = *inner; /* the DLTensor's shape and strides stay inner's: valid while inner lives */
  w->m.manager_ctx = w;
  w->m.deleter = vwrap_deleter;
  w->inner = inner;
  w->id = new_id();
  return &w->m;
}

static DLManagedTensor *wrap_l(DLManagedTensor *inner) {
  lwrap *w = malloc(sizeof *w);
  if (!w) abort();
  w->m = *inner;
  w->m.manager_ctx = w;
  w->m.deleter = lwrap_deleter;
  w->inner = inner;
  w->id = new_id();
  return &w->m;
}

/* A managed float64 tensor the host made itself (contiguous), holding values[i] = base + i. */
typedef struct {
  union {
    DLManagedTensorVersioned v;
    DLManagedTensor l;
  } m;
  long id;
  int64_t shape[MAXD];
  double data[];
} hmade;

static void hmade_free(hmade *h) {
  g_dels[h->id]++;
  free(h);
}
static void hmade_del_v(DLManagedTensorVersioned *self) { hmade_free(self->manager_ctx); }
static void hmade_del_l(DLManagedTensor *self) { hmade_free(self->manager_ctx); }

/* }====== */

/* {====== the shadow model ====== */

typedef struct {
  double *v; /* values by element offset */
  int64_t n;
  int refs;
} shadow;

static shadow g_sh[MAXSHADOW];

static int sh_new(int64_t n) {
  for (int i = 0; i < MAXSHADOW; i++)
    if (g_sh[i].refs == 0) {
      g_sh[i].v = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
      if (!g_sh[i].v) abort();
      g_sh[i].n = n;
      g_sh[i].refs = 1;
      return i;
    }
  fprintf(stderr, "test_stress: out of shadows\n");
  abort();
}
static int sh_ref(int id) {
  if (id >= 0) g_sh[id].refs++;
  return id;
}
static void sh_unref(int id) {
  if (id < 0) return;
  if (--g_sh[id].refs == 0) {
    free(g_sh[id].v);
    g_sh[id].v = NULL;
  }
}

/* A strided layout in element units over a shadow. */
typedef struct {
  int ndim;
  int64_t shape[MAXD], strides[MAXD], off;
} layout;

static int64_t lo_numel(const layout *lo) {
  int64_t n = 1;
  for (int d = 0; d < lo->ndim; d++) n *= lo->shape[d];
  return n;
}

static int64_t lo_addr(const layout *lo, const int64_t *idx) {
  int64_t a = lo->off;
  for (int d = 0; d < lo->ndim; d++) a += idx[d] * lo->strides[d];
  return a;
}

/* Advances a row-major index; 0 past the end. */
static int lo_next(const layout *lo, int64_t *idx) {
  for (int d = lo->ndim - 1; d >= 0; d--) {
    if (++idx[d] < lo->shape[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

static int lo_contiguous(const layout *lo) {
  int64_t want = 1;
  for (int d = lo->ndim - 1; d >= 0; d--) {
    if (lo->shape[d] != 1 && lo->strides[d] != want) return 0;
    want *= lo->shape[d];
  }
  return 1;
}

static void lo_str(const layout *lo, char *buf, size_t n) {
  int w = snprintf(buf, n, "off %lld shape", (long long)lo->off);
  for (int d = 0; d < lo->ndim && w > 0 && (size_t)w < n; d++)
    w += snprintf(buf + w, n - (size_t)w, " %lld", (long long)lo->shape[d]);
  for (int d = 0; d < lo->ndim && w > 0 && (size_t)w < n; d++)
    w += snprintf(buf + w, n - (size_t)w, "%s%lld", d ? " " : " strides ",
                  (long long)lo->strides[d]);
}

/* For a fresh block laid out as lo (strides from Lua): the offset that puts its lowest element
   at 0, and the number of elements it spans. */
static int64_t lo_fresh(layout *lo) {
  int64_t lowest = 0, highest = 0;
  if (lo_numel(lo) == 0) {
    lo->off = 0;
    return 0;
  }
  for (int d = 0; d < lo->ndim; d++) {
    int64_t e = (lo->shape[d] - 1) * lo->strides[d];
    if (e < 0)
      lowest += e;
    else
      highest += e;
  }
  lo->off = -lowest;
  return highest - lowest + 1;
}

/* }====== */

/* {====== slots ====== */

enum { ST_OK, ST_CLOSED, ST_REVOKED };

typedef struct {
  int live;    /* S[i] holds a tensor */
  int st;      /* ST_* */
  long handle; /* its storage handle: views share it, revocation follows it */
  int sh;      /* shadow, or -1: values not modeled */
  char kind;   /* 'f' float64, 'i' int32 (modeled), 'o' other */
  int ro;
  layout lo;
} slot;

typedef struct {
  int live;
  int versioned;
  int sh; /* the memory it shares, or -1 */
  char kind;
  int ro;
  layout lo;
  int copy;        /* an export of a copy (IS_COPIED) */
  lua_Integer ptr; /* the address of its first element when exported */
} capsule_rec;

typedef struct {
  DLManagedTensorVersioned *m; /* our wrapper around ltensor's export */
  int sh;
  char kind;
  int ro;
  layout lo;
} hostx;

/* A host buffer pushed with ltensor_push_borrowed. */
typedef struct {
  long id;
  double *data;
  int64_t n;
  int released;
  int sh;
} hbuf;

static lua_State *g_L[NSTATES];
static slot g_slot[NSTATES][NSLOTS];
static capsule_rec g_cap[NSTATES][NCAPS];
static hostx g_hx[NHOSTX];
static long g_handles;

static hbuf **g_hb;
static long g_nhb, g_caphb;

/* leases not yet revoked: lease, state, handle */
typedef struct {
  ltensor_lease *lease;
  int s;
  long handle;
} lease_rec;
static lease_rec g_leases[64];
static int g_nleases;

static void slot_clear(slot *sl) {
  sh_unref(sl->sh);
  memset(sl, 0, sizeof *sl);
  sl->sh = -1;
}

static void release_cb(void *ctx) {
  hbuf *b = ctx;
  g_dels[b->id]++;
  b->released = 1;
  free(b->data);
  b->data = NULL;
  sh_unref(b->sh);
  b->sh = -1;
}

/* }====== */

/* {====== Lua side ====== */

static const char driver[] =
    "package.path, package.cpath = '', ''\n"
    "lt, dlpack = require 'ltensor', require 'ltensor.dlpack'\n"
    "S, C = {}, {}\n"
    /* the layout of S[d], after sp (the address of the source's first element, or 0) */
    "local function info(d, sp)\n"
    "  local t = S[d]\n"
    "  local sh, st = t.shape, t:stride()\n"
    "  return sp or 0, t:const_data_ptr(), t.ndim,\n"
    "    sh[1] or 0, sh[2] or 0, sh[3] or 0, sh[4] or 0, sh[5] or 0,\n"
    "    st[1] or 0, st[2] or 0, st[3] or 0, st[4] or 0, st[5] or 0\n"
    "end\n"
    "function mk_arange(d, dtype, ...)\n"
    "  local n = 1\n"
    "  for _, v in ipairs({...}) do n = n * v end\n"
    "  S[d] = lt.arange(n, dtype):view(...)\n"
    "  return info(d)\n"
    "end\n"
    "local makers = {'zeros', 'ones', 'empty'}\n"
    "function mk_other(d, how, dtype, ...)\n"
    "  if how == 4 then S[d] = lt.full({...}, 1, dtype) else S[d] = lt[makers[how]]({...}, dtype) "
    "end\n"
    "  if how == 3 then S[d]:fill_(0) end -- empty()'s memory is not to be read before a write\n"
    "  return info(d)\n"
    "end\n"
    "function vw(d, s, m, ...)\n"
    "  local t = S[s]\n"
    "  local sp = t:const_data_ptr()\n"
    "  S[d] = t[m](t, ...)\n"
    "  return info(d, sp)\n"
    "end\n"
    "function slice(d, s, dim, a, b, step)\n"
    "  local key = {}\n"
    "  for k = 1, dim - 1 do key[k] = {} end\n"
    "  key[dim] = {a, b, step}\n"
    "  local sp = S[s]:const_data_ptr()\n"
    "  S[d] = S[s][key]\n"
    "  return info(d, sp)\n"
    "end\n"
    "function alias(d, s)\n"
    "  local sp = S[s]:const_data_ptr()\n"
    "  S[d] = dlpack.from_dlpack(S[s])\n"
    "  return info(d, sp)\n"
    "end\n"
    "function clone(d, s) S[d] = S[s]:clone(); return info(d) end\n"
    "function wrapimp(d, s)\n"
    "  S[d] = dlpack.from_dlpack(dlpack.ReadOnlyTensorWrapper(S[s]))\n"
    "  return info(d)\n"
    "end\n"
    "function rd(i, ...) return S[i]:get(...) end\n"
    "function wr(i, ...) S[i]:set(...) end\n"
    "function wri(i, k, v) S[i][k] = v end\n"
    "function fill(i, v) S[i]:fill_(v) end\n"
    "function close(i) local t <close> = S[i] end\n"
    "function drop(i) S[i] = nil end\n"
    "function cap(k, i, how)\n"
    "  local t = S[i]\n"
    "  if how == 0 then C[k] = dlpack.to_dlpack(t)\n"
    "  elseif how == 1 then C[k] = t:__dlpack({max_version = {1, 3}})\n"
    "  else C[k] = t:__dlpack({max_version = {1, 3}, copy = true}) end\n"
    "  return t:const_data_ptr()\n"
    "end\n"
    "function capimp(d, k) local c = C[k]; C[k] = nil; S[d] = dlpack.from_dlpack(c); return "
    "info(d) end\n"
    "function capdrop(k) C[k] = nil end\n"
    "function step(full) if full then collectgarbage() else collectgarbage('step') end end\n";

static char g_err[512];
static long g_failed_ops, g_expected_errors;

/* Calls global fn with arguments by fmt ('i' integer, 'd' number, 's' string, 'b' boolean);
   keeps nres results on the stack. 1 on success; else 0, the message in g_err. */
static int call(lua_State *L, const char *fn, int nres, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int top = lua_gettop(L);
  lua_getglobal(L, fn);
  int n = 0;
  for (const char *f = fmt; *f; f++, n++) switch (*f) {
      case 'i': lua_pushinteger(L, va_arg(ap, lua_Integer)); break;
      case 'd': lua_pushnumber(L, va_arg(ap, double)); break;
      case 's': lua_pushstring(L, va_arg(ap, const char *)); break;
      case 'b': lua_pushboolean(L, va_arg(ap, int)); break;
    }
  va_end(ap);
  if (lua_pcall(L, n, nres, 0) != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    snprintf(g_err, sizeof g_err, "%s", m ? m : "(error object is not a string)");
    lua_settop(L, top);
    return 0;
  }
  return 1;
}

/* Reads info()'s results (on top) into lo; returns the two addresses. */
static void read_info(lua_State *L, layout *lo, lua_Integer *src_ptr, lua_Integer *ptr) {
  int b = lua_gettop(L) - 12;
  *src_ptr = lua_tointeger(L, b);
  *ptr = lua_tointeger(L, b + 1);
  lo->ndim = (int)lua_tointeger(L, b + 2);
  for (int d = 0; d < MAXD; d++) {
    lo->shape[d] = lua_tointeger(L, b + 3 + d);
    lo->strides[d] = lua_tointeger(L, b + 8 + d);
  }
  lua_settop(L, b - 1);
}

#define FAIL(...)           \
  do {                      \
    g_failed_ops++;         \
    CHECKF(0, __VA_ARGS__); \
  } while (0)

/* }====== */

/* {====== helpers of the operations ====== */

static const char *const dtypes[] = {"bool",     "uint8",   "int8",    "int16",     "int32",
                                     "int64",    "uint16",  "uint32",  "uint64",    "float16",
                                     "bfloat16", "float32", "float64", "complex64", "complex128"};

static int esize_of(char kind) { return kind == 'f' ? 8 : 4; }

/* A slot of state s holding a tensor (from a random start), or -1. */
static int pick_live(int s) {
  int start = rnd(NSLOTS);
  for (int k = 0; k < NSLOTS; k++) {
    int i = (start + k) % NSLOTS;
    if (g_slot[s][i].live) return i;
  }
  return -1;
}

/* A destination slot: the old tensor there is dropped (left to the collector). */
static int pick_dest(int s) {
  int i = rnd(NSLOTS);
  slot_clear(&g_slot[s][i]);
  return i;
}

/* The expected outcome of using slot sl: 0 fine, else the message fragment it must raise. */
static const char *unusable(const slot *sl) { return sl->st == ST_OK ? NULL : "released"; }

/* An operation on sl was attempted: when it had to fail, it must have failed with why; when it
   could work, it must have. Returns whether it worked as expected and did work. */
static int outcome(int ok, const char *why, const char *what) {
  if (why) {
    if (ok)
      FAIL("%s: succeeded where it had to raise '%s'", what, why);
    else if (!strstr(g_err, why))
      FAIL("%s: raised '%s', expected '%s'", what, g_err, why);
    else
      g_expected_errors++;
    return 0;
  }
  if (!ok) FAIL("%s: raised '%s'", what, g_err);
  return ok;
}

/* A random index inside lo's shape (lo has elements). */
static void rand_index(const layout *lo, int64_t *idx) {
  for (int d = 0; d < lo->ndim; d++) idx[d] = rnd((int)lo->shape[d]);
}

static void push_index(lua_State *L, const layout *lo, const int64_t *idx) {
  for (int d = 0; d < lo->ndim; d++) lua_pushinteger(L, idx[d] + 1);
}

static double rand_value(char kind) {
  if (kind == 'i') return (double)(rnd(2001) - 1000);
  if (kind == 'f') return (rnd(8001) - 4000) / 4.0;
  return 1;
}

static void push_value(lua_State *L, char kind, double v) {
  if (kind == 'f')
    lua_pushnumber(L, v);
  else
    lua_pushinteger(L, (lua_Integer)v);
}

/* A new shadow holding the values of the tensor in slot src, laid out as dst (from Lua; its off
   is set here). */
static int materialize(const slot *src, layout *dst) {
  int64_t n = lo_fresh(dst);
  int id = sh_new(n);
  if (lo_numel(dst) == 0) return id;
  int64_t idx[MAXD] = {0};
  do {
    g_sh[id].v[lo_addr(dst, idx)] = g_sh[src->sh].v[lo_addr(&src->lo, idx)];
  } while (lo_next(dst, idx));
  return id;
}

/* }====== */

/* {====== the operations ====== */

static long g_counts[32];
static const char *g_names[32];
#define COUNT(k, name) (g_counts[k]++, g_names[k] = (name))

/* A new tensor with a random shape and dtype; float64 and int32 ones are modeled. */
static void op_create(int s) {
  lua_State *L = g_L[s];
  int d = pick_dest(s);
  slot *sl = &g_slot[s][d];
  int ndim = rnd(4);
  int64_t shape[3] = {0};
  for (int k = 0; k < ndim; k++) shape[k] = chance(5) ? 0 : 1 + rnd(4);
  char kind = chance(40) ? 'f' : chance(50) ? 'i' : 'o';
  const char *dt = kind == 'f' ? "float64" : kind == 'i' ? "int32" : dtypes[rnd(15)];
  int ok;
  lua_Integer sp, p;
  char fmt[8];
  if (kind != 'o') {
    snprintf(fmt, sizeof fmt, "is%.*s", ndim, "iii");
    ok = call(L, "mk_arange", 13, fmt, (lua_Integer)d, dt, (lua_Integer)shape[0],
              (lua_Integer)shape[1], (lua_Integer)shape[2]);
  } else {
    snprintf(fmt, sizeof fmt, "iis%.*s", ndim, "iii");
    ok = call(L, "mk_other", 13, fmt, (lua_Integer)d, (lua_Integer)(1 + rnd(4)), dt,
              (lua_Integer)shape[0], (lua_Integer)shape[1], (lua_Integer)shape[2]);
  }
  COUNT(0, "create");
  if (!outcome(ok, NULL, "create")) return;
  read_info(L, &sl->lo, &sp, &p);
  sl->live = 1;
  sl->handle = ++g_handles;
  sl->kind = kind;
  if (kind != 'o') { /* arange: element k (row-major) holds k */
    sl->sh = sh_new(lo_fresh(&sl->lo));
    int64_t idx[MAXD] = {0}, k = 0;
    if (lo_numel(&sl->lo) > 0) do
        g_sh[sl->sh].v[lo_addr(&sl->lo, idx)] = (double)k++;
      while (lo_next(&sl->lo, idx));
  }
}

/* A view of a random slot, by one of the view operations; its layout is read back from Lua and
   compared with what the operation means. */
/* The views that move dims or pick some (how: 0 transpose, 1 permute, 2 narrow, 3 select) of
   slot src into slot d, and what each means for the layout a (want); -1 where it does not apply
   (too few dims, no elements), else whether the call succeeded. */
static int view_pick(lua_State *L, int how, int d, int src, const layout *a, layout *want) {
  int ok = -1, dims = a->ndim;
  if (how == 0 && dims >= 1) { /* transpose */
    int d0 = rnd(dims), d1 = rnd(dims);
    ok = call(L, "vw", 13, "iisii", (lua_Integer)d, (lua_Integer)src, "transpose",
              (lua_Integer)d0 + 1, (lua_Integer)d1 + 1);
    want->shape[d0] = a->shape[d1], want->shape[d1] = a->shape[d0];
    want->strides[d0] = a->strides[d1], want->strides[d1] = a->strides[d0];
  } else if (how == 1 && dims >= 1) { /* permute */
    int perm[MAXD];
    for (int k = 0; k < dims; k++) perm[k] = k;
    for (int k = dims - 1; k > 0; k--) {
      int j = rnd(k + 1), t = perm[k];
      perm[k] = perm[j], perm[j] = t;
    }
    lua_getglobal(L, "vw");
    lua_pushinteger(L, d);
    lua_pushinteger(L, src);
    lua_pushstring(L, "permute");
    for (int k = 0; k < dims; k++) lua_pushinteger(L, perm[k] + 1);
    ok = lua_pcall(L, 3 + dims, 13, 0) == LUA_OK;
    if (!ok) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1)), lua_pop(L, 1);
    for (int k = 0; k < dims; k++)
      want->shape[k] = a->shape[perm[k]], want->strides[k] = a->strides[perm[k]];
  } else if (how == 2 && dims >= 1) { /* narrow */
    int dim = rnd(dims);
    int64_t n = a->shape[dim], start = rnd((int)n + 1), len = rnd((int)(n - start) + 1);
    ok = call(L, "vw", 13, "iisiii", (lua_Integer)d, (lua_Integer)src, "narrow",
              (lua_Integer)dim + 1, (lua_Integer)start + 1, (lua_Integer)len);
    want->shape[dim] = len;
    want->off += start * a->strides[dim];
  } else if (how == 3 && dims >= 1 && lo_numel(a) > 0) { /* select */
    int dim = rnd(dims);
    int64_t i = rnd((int)a->shape[dim]);
    ok =
        call(L, "vw", 13, "iisii", (lua_Integer)d, (lua_Integer)src, "select", (lua_Integer)dim + 1,
             chance(30) ? (lua_Integer)(i - a->shape[dim]) : (lua_Integer)i + 1);
    want->off += i * a->strides[dim];
    for (int k = dim; k < dims - 1; k++)
      want->shape[k] = a->shape[k + 1], want->strides[k] = a->strides[k + 1];
    want->ndim--;
  }
  return ok;
}

/* The views that change the shape (how: 4 unsqueeze, 5 squeeze or expand, 6 a stepped range),
   as view_pick. */
static int view_reshape(lua_State *L, int how, int d, int src, const layout *a, layout *want) {
  int ok = -1, dims = a->ndim;
  if (how == 4 && dims < MAXD) { /* unsqueeze */
    int dim = rnd(dims + 1);
    ok = call(L, "vw", 13, "iisi", (lua_Integer)d, (lua_Integer)src, "unsqueeze",
              (lua_Integer)dim + 1);
    for (int k = dims; k > dim; k--)
      want->shape[k] = a->shape[k - 1], want->strides[k] = a->strides[k - 1];
    want->shape[dim] = 1, want->strides[dim] = 0; /* a size-1 stride is not compared */
    want->ndim++;
  } else if (how == 5 && dims >= 1) { /* squeeze of a size-1 dim, or expand */
    int dim = rnd(dims);
    if (a->shape[dim] == 1 && chance(50)) {
      ok = call(L, "vw", 13, "iisi", (lua_Integer)d, (lua_Integer)src, "squeeze",
                (lua_Integer)dim + 1);
      for (int k = dim; k < dims - 1; k++)
        want->shape[k] = a->shape[k + 1], want->strides[k] = a->strides[k + 1];
      want->ndim--;
    } else {
      lua_getglobal(L, "vw");
      lua_pushinteger(L, d);
      lua_pushinteger(L, src);
      lua_pushstring(L, "expand");
      for (int k = 0; k < dims; k++) {
        int64_t n = a->shape[k] == 1 && chance(60) ? 1 + rnd(3) : a->shape[k];
        lua_pushinteger(L, chance(20) && n == a->shape[k] ? -1 : n);
        if (n != a->shape[k]) want->strides[k] = 0;
        want->shape[k] = n;
      }
      ok = lua_pcall(L, 3 + dims, 13, 0) == LUA_OK;
      if (!ok) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1)), lua_pop(L, 1);
    }
  } else if (how == 6 && dims >= 1 && lo_numel(a) > 0) { /* a stepped range t[{{}, {a, b, step}}] */
    int dim = rnd(dims);
    int64_t n = a->shape[dim], x = rnd((int)n), y = rnd((int)n);
    int step = (1 + rnd(2)) * (chance(50) ? 1 : -1);
    if ((step > 0) != (x <= y)) {
      int64_t t = x;
      x = y, y = t;
    }
    ok = call(L, "slice", 13, "iiiiii", (lua_Integer)d, (lua_Integer)src, (lua_Integer)dim + 1,
              (lua_Integer)x + 1, (lua_Integer)y + 1, (lua_Integer)step);
    int64_t count = (step > 0 ? y - x : x - y) / (step > 0 ? step : -step) + 1;
    want->shape[dim] = count;
    want->strides[dim] = a->strides[dim] * step;
    want->off += x * a->strides[dim];
  }
  return ok;
}

/* The layout read back (sl, of n elements) is the one the view means (want), for the view how
   of ss. */
static void check_view(const slot *ss, const slot *sl, const layout *want, int64_t n, int how) {
  int same = sl->lo.ndim == want->ndim && (n == 0 || ss->kind == 'o' || sl->lo.off == want->off);
  for (int k = 0; same && k < want->ndim; k++)
    same = sl->lo.shape[k] == want->shape[k] &&
           (want->shape[k] <= 1 || n == 0 || sl->lo.strides[k] == want->strides[k]);
  if (!same) {
    char w[160], g[160];
    lo_str(want, w, sizeof w);
    lo_str(&sl->lo, g, sizeof g);
    FAIL("view %d of %s: the layout read back, %s, differs from the one the view means, %s", how,
         ss->kind == 'o' ? "other" : "modeled", g, w);
  }
}

static void op_view(int s) {
  lua_State *L = g_L[s];
  int src = pick_live(s);
  if (src < 0) return;
  slot src_copy = g_slot[s][src]; /* the destination may be the source */
  slot *ss = &src_copy;
  sh_ref(ss->sh);
  const layout *a = &ss->lo;
  layout want = *a;
  int check = 1, ok, how = rnd(9);
  int d = rnd(NSLOTS);
  /* the view, and what it means for the layout (want) */
  ok = view_pick(L, how, d, src, a, &want);
  if (ok < 0) ok = view_reshape(L, how, d, src, a, &want);
  if (ok < 0 && how == 7) { /* view(-1): works when contiguous; the layout is Lua's */
    ok = call(L, "vw", 13, "iisi", (lua_Integer)d, (lua_Integer)src, "view", (lua_Integer)-1);
    check = 0;
    if (!ok && ss->st == ST_OK && !lo_contiguous(a)) { /* a view may refuse: fine */
      COUNT(1, "view");
      g_expected_errors++;
      sh_unref(ss->sh);
      return;
    }
  } else if (ok < 0) { /* an alias: from_dlpack of a tensor shares it */
    ok = call(L, "alias", 13, "ii", (lua_Integer)d, (lua_Integer)src);
  }
  COUNT(1, "view");
  if (ok) slot_clear(&g_slot[s][d]); /* S[d] was replaced */
  if (!outcome(ok, unusable(ss), "view")) {
    sh_unref(ss->sh);
    return;
  }
  slot *sl = &g_slot[s][d];
  lua_Integer sp, p;
  read_info(L, &sl->lo, &sp, &p);
  int64_t n = lo_numel(&sl->lo);
  sl->lo.off = a->off; /* from the addresses: */
  if (n > 0 && lo_numel(a) > 0) sl->lo.off += (p - sp) / esize_of(ss->kind == 'o' ? 'i' : ss->kind);
  if (check) check_view(ss, sl, &want, n, how);
  sl->live = 1;
  sl->handle = ss->handle;
  sl->kind = ss->kind;
  sl->ro = ss->ro;
  sl->sh = ss->kind == 'o' ? -1 : sh_ref(ss->sh);
  sh_unref(ss->sh);
}

/* Whether lo has an expanded dim (stride 0, size > 1): several elements at one address. */
static int lo_expanded(const layout *lo) {
  for (int d = 0; d < lo->ndim; d++)
    if (lo->strides[d] == 0 && lo->shape[d] > 1) return 1;
  return 0;
}

/* A copy-on-write clone: its own values from now on. */
static void op_clone(int s) {
  lua_State *L = g_L[s];
  int src = pick_live(s);
  if (src < 0) return;
  slot copy = g_slot[s][src]; /* the destination may be the source */
  sh_ref(copy.sh);
  int d = rnd(NSLOTS);
  int ok = call(L, "clone", 13, "ii", (lua_Integer)d, (lua_Integer)src);
  COUNT(2, "clone");
  if (outcome(ok, unusable(&copy), "clone")) {
    slot_clear(&g_slot[s][d]);
    slot *sl = &g_slot[s][d];
    lua_Integer sp, p;
    read_info(L, &sl->lo, &sp, &p);
    /* a clone equals an eager copy: even a clone of an expanded view has distinct elements */
    CHECKF(!lo_expanded(&sl->lo), "clone of an expanded view shares elements (stride 0)");
    sl->live = 1;
    sl->handle = ++g_handles;
    sl->kind = copy.kind;
    sl->ro = 0; /* a clone is writable */
    sl->sh = copy.kind == 'o' ? -1 : materialize(&copy, &sl->lo);
  }
  sh_unref(copy.sh);
}

/* A write: set(i, ..., v), t[i] = v on a vector, or fill_(v). */
static void op_write(int s) {
  lua_State *L = g_L[s];
  int i = pick_live(s);
  if (i < 0) return;
  slot *sl = &g_slot[s][i];
  const char *why = unusable(sl);
  if (!why && sl->ro) why = "read-only";
  double v = rand_value(sl->kind);
  int64_t n = lo_numel(&sl->lo), idx[MAXD] = {0};
  int how = n == 0 ? 2 : rnd(3), ok;
  if (how == 1 && sl->lo.ndim != 1) how = 0;
  /* a bulk write into an expanded view may raise, as torch does (one element may not) */
  int may_refuse = !why && how == 2 && lo_expanded(&sl->lo);
  if (how == 0) { /* set */
    rand_index(&sl->lo, idx);
    lua_getglobal(L, "wr");
    lua_pushinteger(L, i);
    push_index(L, &sl->lo, idx);
    push_value(L, sl->kind, v);
    ok = lua_pcall(L, 2 + sl->lo.ndim, 0, 0) == LUA_OK;
  } else if (how == 1) { /* t[i] = v */
    rand_index(&sl->lo, idx);
    lua_getglobal(L, "wri");
    lua_pushinteger(L, i);
    lua_pushinteger(L, chance(30) ? idx[0] - sl->lo.shape[0] : idx[0] + 1);
    push_value(L, sl->kind, v);
    ok = lua_pcall(L, 3, 0, 0) == LUA_OK;
  } else { /* fill_ */
    lua_getglobal(L, "fill");
    lua_pushinteger(L, i);
    push_value(L, sl->kind, v);
    ok = lua_pcall(L, 2, 0, 0) == LUA_OK;
  }
  if (!ok) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1)), lua_pop(L, 1);
  COUNT(3, "write");
  if (may_refuse && !ok && strstr(g_err, "single memory location")) {
    g_expected_errors++;
    return;
  }
  if (!outcome(ok, why, "write") || sl->sh < 0) return;
  if (how < 2) {
    g_sh[sl->sh].v[lo_addr(&sl->lo, idx)] = v;
  } else if (n > 0) {
    int64_t k[MAXD] = {0};
    do g_sh[sl->sh].v[lo_addr(&sl->lo, k)] = v;
    while (lo_next(&sl->lo, k));
  }
}

/* A read of one element, through get() or (C side) ltensor_borrow, compared with the model. */
static void op_read(int s) {
  lua_State *L = g_L[s];
  int i = pick_live(s);
  if (i < 0) return;
  slot *sl = &g_slot[s][i];
  int64_t idx[MAXD] = {0};
  if (lo_numel(&sl->lo) == 0) return;
  rand_index(&sl->lo, idx);
  COUNT(4, "read");
  if (chance(20)) { /* the host reads through a borrowed DLTensor */
    lua_getglobal(L, "S");
    lua_rawgeti(L, -1, i);
    DLTensor dl;
    int rc = ltensor_borrow(L, -1, &dl);
    int ok = rc == LTENSOR_OK;
    if (!ok) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1));
    lua_settop(L, 0);
    if (!outcome(ok, unusable(sl), "borrow") || sl->sh < 0) return;
    int64_t off = 0;
    for (int d = 0; d < dl.ndim; d++) off += idx[d] * dl.strides[d];
    char *p = (char *)dl.data + dl.byte_offset;
    double got = sl->kind == 'f' ? ((double *)p)[off] : (double)((int32_t *)p)[off];
    double want = g_sh[sl->sh].v[lo_addr(&sl->lo, idx)];
    CHECKF(got == want, "borrow read %g, the model says %g", got, want);
    return;
  }
  lua_getglobal(L, "rd");
  lua_pushinteger(L, i);
  push_index(L, &sl->lo, idx);
  int ok = lua_pcall(L, 1 + sl->lo.ndim, 1, 0) == LUA_OK;
  if (!ok) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1));
  double got = lua_tonumber(L, -1);
  lua_settop(L, 0);
  if (!outcome(ok, unusable(sl), "read") || sl->sh < 0) return;
  double want = g_sh[sl->sh].v[lo_addr(&sl->lo, idx)];
  CHECKF(got == want, "read %g, the model says %g (state %d slot %d)", got, want, s, i);
}

/* ltensor_export of a random slot: the host keeps it (replacing one it drops). */
static void op_export(int s) {
  lua_State *L = g_L[s];
  int i = pick_live(s);
  if (i < 0) return;
  slot *sl = &g_slot[s][i];
  int ro = chance(30);
  lua_getglobal(L, "S");
  lua_rawgeti(L, -1, i);
  DLManagedTensorVersioned *m = NULL;
  int rc = ltensor_export(L, -1, ro, &m);
  if (rc) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1));
  lua_settop(L, 0);
  COUNT(5, "export");
  if (!outcome(rc == LTENSOR_OK, unusable(sl), "export")) return;
  hostx *x = &g_hx[rnd(NHOSTX)];
  if (x->m) x->m->deleter(x->m); /* the host drops the one it held there */
  sh_unref(x->sh);
  x->m = wrap_v(m);
  x->ro = ro || sl->ro || (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY);
  CHECK(!(sl->ro || ro) || (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY));
  /* a read-only export of a clone that still shares its block is a snapshot: not modeled */
  x->sh = x->ro ? -1 : sh_ref(sl->sh);
  x->kind = x->ro ? 'o' : sl->kind;
  x->lo = sl->lo;
}

/* A tensor pushed into state s: S[d] = the value on top of the stack. */
static void put(lua_State *L, int d) {
  lua_getglobal(L, "S");
  lua_insert(L, -2);
  lua_rawseti(L, -2, d);
  lua_settop(L, 0);
}

/* Slot d of state s now models a tensor of its own storage (a new handle): kind, ro, layout lo,
   and the shadow reference sh, which passes to the slot. */
static slot *slot_new(int s, int d, char kind, int ro, const layout *lo, int sh) {
  slot *sl = &g_slot[s][d];
  sl->live = 1;
  sl->handle = ++g_handles;
  sl->kind = kind;
  sl->ro = ro;
  sl->lo = *lo;
  sl->sh = sh;
  return sl;
}

/* A host export goes to state s through ltensor_push_managed (the host lets go of it). */
static void op_import(int s) {
  lua_State *L = g_L[s];
  hostx *x = &g_hx[rnd(NHOSTX)];
  if (!x->m) return;
  int d = pick_dest(s);
  DLManagedTensorVersioned *m = x->m;
  x->m = NULL;
  int rc = ltensor_push_managed(L, m);
  if (rc) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1)), lua_settop(L, 0);
  COUNT(6, "import");
  if (!outcome(rc == LTENSOR_OK, NULL, "push_managed")) {
    sh_unref(x->sh), x->sh = -1;
    return;
  }
  put(L, d);
  slot_new(s, d, x->kind, x->ro, &x->lo, x->sh); /* the reference passes to the slot */
  x->sh = -1;
}

/* A capsule from __dlpack or to_dlpack, in C[k]; half of them go through a wrapper of ours
   (taken out of the capsule and put in a new one, as another Lua C module would). */
static void op_capsule(int s) {
  lua_State *L = g_L[s];
  int i = pick_live(s);
  if (i < 0) return;
  slot *sl = &g_slot[s][i];
  int k = rnd(NCAPS), how = rnd(3);
  const char *why = unusable(sl);
  if (!why && how == 0 && sl->ro) why = "read-only";
  int ok = call(L, "cap", 1, "iii", (lua_Integer)k, (lua_Integer)i, (lua_Integer)how);
  COUNT(7, "capsule");
  capsule_rec *c = &g_cap[s][k];
  if (ok) {
    c->ptr = lua_tointeger(L, -1);
    lua_settop(L, 0);
  }
  if (!outcome(ok, why, "capsule")) return;
  /* C[k] was replaced: the old capsule is garbage now */
  sh_unref(c->sh);
  c->live = 1;
  c->versioned = how != 0;
  c->copy = how == 2;
  c->lo = sl->lo;
  c->ro = sl->ro && !c->copy; /* a copy is the consumer's: writable (SPEC, as NumPy) */
  if (c->copy) {              /* the values of now, in memory of its own, compact row-major */
    c->kind = sl->kind;
    int64_t st = 1;
    for (int d = c->lo.ndim - 1; d >= 0; d--) {
      c->lo.strides[d] = st;
      st *= c->lo.shape[d];
    }
    c->sh = sl->kind == 'o' ? -1 : materialize(sl, &c->lo);
  } else { /* shares sl's memory; a read-only export may be a snapshot: not modeled */
    c->kind = sl->ro ? 'o' : sl->kind;
    c->sh = sl->ro ? -1 : sh_ref(sl->sh);
  }
  if (chance(50)) { /* through our wrapper */
    lua_getglobal(L, "C");
    lua_rawgeti(L, -1, k);
    void **p = lua_touserdata(L, -1);
    if (!p || lua_rawlen(L, -1) != sizeof(void *) || !*p) {
      FAIL("capsule: not a one-pointer userdata with a tensor");
      lua_settop(L, 0);
      return;
    }
    lua_getmetatable(L, -1);
    luaL_getmetatable(L, c->versioned ? "dltensor_versioned" : "dltensor");
    CHECK(lua_rawequal(L, -1, -2));
    void *m = *p;
    *p = NULL;
    luaL_getmetatable(L, c->versioned ? "used_dltensor_versioned" : "used_dltensor");
    lua_setmetatable(L, -4);
    void **q = lua_newuserdatauv(L, sizeof(void *), 0);
    *q = c->versioned ? (void *)wrap_v(m) : (void *)wrap_l(m);
    luaL_setmetatable(L, c->versioned ? "dltensor_versioned" : "dltensor");
    lua_rawseti(L, 1, k);
    lua_settop(L, 0);
  }
}

/* A capsule consumed: by from_dlpack in its own state, or taken by the host into the other
   state; or dropped, for the collector. */
static void op_capsule_use(int s) {
  lua_State *L = g_L[s];
  int k = rnd(NCAPS);
  capsule_rec *c = &g_cap[s][k];
  if (!c->live) return;
  int how = rnd(3);
  COUNT(8, "capsule use");
  c->live = 0;
  int dst_s = s, d;
  if (how == 0) { /* dropped */
    call(L, "capdrop", 0, "i", (lua_Integer)k);
    sh_unref(c->sh), c->sh = -1;
    return;
  }
  if (how == 1) { /* from_dlpack here */
    d = pick_dest(s);
    int ok = call(L, "capimp", 13, "ii", (lua_Integer)d, (lua_Integer)k);
    if (!outcome(ok, NULL, "from_dlpack(capsule)")) {
      sh_unref(c->sh), c->sh = -1;
      return;
    }
    lua_Integer sp, p;
    layout got;
    read_info(L, &got, &sp, &p);
    int same = got.ndim == c->lo.ndim;
    for (int j = 0; same && j < got.ndim; j++) same = got.shape[j] == c->lo.shape[j];
    CHECKF(same, "from_dlpack(capsule): the shape differs from the exported one");
    if (lo_numel(&c->lo) > 0 && !c->copy && !c->ro)
      CHECKF(p == c->ptr, "from_dlpack(capsule) does not share the exported memory");
  } else { /* the host takes it to the other state */
    dst_s = 1 - s;
    lua_getglobal(L, "C");
    lua_rawgeti(L, -1, k);
    void **p = lua_touserdata(L, -1);
    void *m = *p;
    *p = NULL;
    luaL_getmetatable(L, c->versioned ? "used_dltensor_versioned" : "used_dltensor");
    lua_setmetatable(L, -2);
    lua_pushnil(L);
    lua_rawseti(L, -3, k);
    lua_settop(L, 0);
    lua_State *L2 = g_L[dst_s];
    d = pick_dest(dst_s);
    int rc = c->versioned ? ltensor_push_managed(L2, wrap_v(m))
                          : ltensor_push_managed_legacy(L2, wrap_l(m));
    if (rc) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L2, -1)), lua_settop(L2, 0);
    if (!outcome(rc == LTENSOR_OK, NULL, "push_managed(capsule)")) {
      sh_unref(c->sh), c->sh = -1;
      return;
    }
    put(L2, d);
  }
  slot_new(dst_s, d, c->sh < 0 ? 'o' : c->kind, c->ro, &c->lo, c->sh);
  c->sh = -1;
}

/* `<close>` releases one tensor (its views live on), or a slot is simply dropped. */
static void op_close(int s) {
  int i = pick_live(s);
  if (i < 0) return;
  slot *sl = &g_slot[s][i];
  COUNT(9, "close/drop");
  if (chance(50)) {
    call(g_L[s], "close", 0, "i", (lua_Integer)i);
    sl->st = ST_CLOSED;
    sh_unref(sl->sh), sl->sh = -1;
    sl->kind = 'o';
  } else {
    call(g_L[s], "drop", 0, "i", (lua_Integer)i);
    slot_clear(sl);
  }
}

/* Marks every slot of state s on handle h revoked. */
static void revoke_handle(int s, long h) {
  for (int i = 0; i < NSLOTS; i++) {
    slot *sl = &g_slot[s][i];
    if (sl->live && sl->handle == h && sl->st == ST_OK) {
      sl->st = ST_REVOKED;
      sh_unref(sl->sh), sl->sh = -1;
      sl->kind = 'o';
    }
  }
}

/* A host buffer (float64) pushed with ltensor_push_borrowed, with a lease most of the time;
   sometimes read-only. */
static void op_borrow(int s) {
  lua_State *L = g_L[s];
  int d = pick_dest(s);
  if (g_nhb == g_caphb) {
    g_caphb = g_caphb ? 2 * g_caphb : 256;
    g_hb = realloc(g_hb, (size_t)g_caphb * sizeof *g_hb);
    if (!g_hb) abort();
  }
  hbuf *b = calloc(1, sizeof *b);
  if (!b) abort();
  g_hb[g_nhb++] = b;
  layout lo = {0};
  lo.ndim = rnd(4);
  for (int k = lo.ndim - 1, st = 1; k >= 0; k--) {
    lo.shape[k] = 1 + rnd(4);
    lo.strides[k] = st;
    st *= (int)lo.shape[k];
  }
  b->n = lo_numel(&lo);
  b->data = aligned_alloc(64, (size_t)((b->n * 8 + 63) / 64 * 64));
  if (!b->data) abort();
  b->id = new_id();
  b->sh = sh_new(b->n);
  for (int64_t k = 0; k < b->n; k++) b->data[k] = g_sh[b->sh].v[k] = (double)(k * 3) / 2;
  DLTensor desc = {b->data, {kDLCPU, 0}, lo.ndim, {kDLFloat, 64, 1}, lo.shape, NULL, 0};
  int ro = chance(20), with_lease = chance(70) && g_nleases < 64;
  ltensor_lease *lease = NULL;
  int rc = ltensor_push_borrowed(L, &desc, ro ? LTENSOR_READ_ONLY : 0, release_cb, b,
                                 with_lease ? &lease : NULL);
  if (rc) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1)), lua_settop(L, 0);
  COUNT(10, "push_borrowed");
  if (!outcome(rc == LTENSOR_OK, NULL, "push_borrowed")) return;
  put(L, d);
  slot *sl = slot_new(s, d, 'f', ro, &lo, sh_ref(b->sh));
  if (lease) g_leases[g_nleases++] = (lease_rec){lease, s, sl->handle};
}

/* The host writes into one of its buffers that Lua has not released. */
static void op_host_write(void) {
  if (g_nhb == 0) return;
  hbuf *b = g_hb[rnd((int)g_nhb)];
  if (b->released || b->n == 0) return;
  COUNT(11, "host write");
  int64_t k = rnd((int)b->n);
  double v = rand_value('f');
  b->data[k] = v;
  g_sh[b->sh].v[k] = v;
}

/* The host revokes a lease, or a tensor of a slot through ltensor_revoke. */
static void op_revoke(int s) {
  COUNT(12, "revoke");
  if (g_nleases > 0 && chance(70)) {
    int j = rnd(g_nleases);
    lease_rec r = g_leases[j];
    g_leases[j] = g_leases[--g_nleases];
    ltensor_revoke_lease(r.lease);
    revoke_handle(r.s, r.handle);
    return;
  }
  int i = pick_live(s);
  if (i < 0) return;
  slot *sl = &g_slot[s][i];
  lua_State *L = g_L[s];
  lua_getglobal(L, "S");
  lua_rawgeti(L, -1, i);
  int rc = ltensor_revoke(L, -1);
  if (rc) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1));
  lua_settop(L, 0);
  /* a closed tensor is no tensor any more; a revoked one may be revoked again */
  if (outcome(rc == LTENSOR_OK, sl->st == ST_CLOSED ? "released" : NULL, "ltensor_revoke"))
    revoke_handle(s, sl->handle);
}

/* A managed tensor the host made (versioned or legacy, sometimes READ_ONLY), pushed. */
static void op_host_made(int s) {
  lua_State *L = g_L[s];
  int d = pick_dest(s);
  layout lo = {0};
  lo.ndim = rnd(4);
  for (int k = lo.ndim - 1, st = 1; k >= 0; k--) {
    lo.shape[k] = rnd(4);
    lo.strides[k] = st;
    st *= (int)lo.shape[k];
  }
  int64_t n = lo_numel(&lo);
  hmade *h = malloc(sizeof *h + (size_t)n * sizeof(double));
  if (!h) abort();
  memset(h, 0, sizeof *h);
  h->id = new_id();
  int versioned = chance(70), ro = versioned && chance(30);
  memcpy(h->shape, lo.shape, sizeof h->shape);
  int sh = sh_new(n);
  for (int64_t k = 0; k < n; k++) h->data[k] = g_sh[sh].v[k] = 100.0 + (double)k;
  DLTensor dl = {n ? h->data : NULL, {kDLCPU, 0}, lo.ndim, {kDLFloat, 64, 1}, h->shape, NULL, 0};
  int rc;
  if (versioned) {
    h->m.v.version.major = 1;
    h->m.v.version.minor = 3;
    h->m.v.manager_ctx = h;
    h->m.v.deleter = hmade_del_v;
    h->m.v.flags = ro ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
    h->m.v.dl_tensor = dl;
    rc = ltensor_push_managed(L, &h->m.v);
  } else {
    h->m.l.manager_ctx = h;
    h->m.l.deleter = hmade_del_l;
    h->m.l.dl_tensor = dl;
    rc = ltensor_push_managed_legacy(L, &h->m.l);
  }
  if (rc) snprintf(g_err, sizeof g_err, "%s", lua_tostring(L, -1)), lua_settop(L, 0);
  COUNT(13, "host-made push");
  if (!outcome(rc == LTENSOR_OK, NULL, "push_managed(host-made)")) {
    sh_unref(sh);
    return;
  }
  put(L, d);
  slot_new(s, d, 'f', ro, &lo, sh);
}

/* from_dlpack(ReadOnlyTensorWrapper(t)): read-only, sharing t (or a snapshot of a clone). */
static void op_wrapper(int s) {
  int src = pick_live(s);
  if (src < 0) return;
  int d = rnd(NSLOTS);
  slot copy = g_slot[s][src];
  int ok = call(g_L[s], "wrapimp", 13, "ii", (lua_Integer)d, (lua_Integer)src);
  COUNT(14, "wrapper import");
  slot_clear(&g_slot[s][d]);
  if (!outcome(ok, unusable(&copy), "wrapper import")) return;
  slot *sl = &g_slot[s][d];
  lua_Integer sp, p;
  read_info(g_L[s], &sl->lo, &sp, &p);
  sl->live = 1;
  sl->handle = ++g_handles;
  sl->kind = 'o';
  sl->ro = 1;
}

static void op_gc(int s) {
  COUNT(15, "gc step");
  call(g_L[s], "step", 0, "b", chance(2));
}

/* }====== */

/* {====== the run ====== */

static lua_State *new_state(void) {
  lua_State *L = luaL_newstate();
  if (!L) abort();
  luaL_openlibs(L);
  CHECK_RC(ltensor_open(L), LTENSOR_OK);
  if (luaL_dostring(L, driver) != LUA_OK) {
    fprintf(stderr, "test_stress: driver: %s\n", lua_tostring(L, -1));
    exit(2);
  }
  return L;
}

/* After the states are closed: an export the host holds still reads as the model says. */
static void check_export_after_close(const hostx *x) {
  if (!x->m || x->sh < 0) return;
  const DLTensor *dl = &x->m->dl_tensor;
  if (lo_numel(&x->lo) == 0) return;
  int64_t idx[MAXD] = {0};
  long bad = 0;
  do {
    int64_t off = 0;
    for (int d = 0; d < dl->ndim; d++) off += idx[d] * dl->strides[d];
    char *p = (char *)dl->data + dl->byte_offset;
    double got = x->kind == 'f' ? ((double *)p)[off] : (double)((int32_t *)p)[off];
    if (got != g_sh[x->sh].v[lo_addr(&x->lo, idx)]) bad++;
  } while (lo_next(&x->lo, idx));
  CHECKF(bad == 0, "an export read after lua_close: %ld elements differ from the model", bad);
}

int main(void) {
  const char *e = getenv("LTENSOR_STRESS_OPS");
  long nops = e ? atol(e) : 100000;
  e = getenv("LTENSOR_STRESS_SEED");
  uint64_t seed = e ? strtoull(e, NULL, 10) : 20240611u;
  g_rng = seed;
  for (int s = 0; s < NSTATES; s++) {
    g_L[s] = new_state();
    for (int i = 0; i < NSLOTS; i++) g_slot[s][i].sh = -1;
    for (int k = 0; k < NCAPS; k++) g_cap[s][k].sh = -1;
  }
  for (int k = 0; k < NHOSTX; k++) g_hx[k].sh = -1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);

  for (long n = 0; n < nops; n++) {
    int s = rnd(NSTATES), r = rnd(100);
    if (r < 14)
      op_create(s);
    else if (r < 30)
      op_view(s);
    else if (r < 36)
      op_clone(s);
    else if (r < 48)
      op_write(s);
    else if (r < 62)
      op_read(s);
    else if (r < 67)
      op_export(s);
    else if (r < 71)
      op_import(s);
    else if (r < 76)
      op_capsule(s);
    else if (r < 80)
      op_capsule_use(s);
    else if (r < 84)
      op_close(s);
    else if (r < 87)
      op_borrow(s);
    else if (r < 89)
      op_host_write();
    else if (r < 91)
      op_revoke(s);
    else if (r < 93)
      op_host_made(s);
    else if (r < 95)
      op_wrapper(s);
    else
      op_gc(s);
    if (lua_gettop(g_L[s]) != 0) {
      FAIL("operation left %d values on the stack", lua_gettop(g_L[s]));
      lua_settop(g_L[s], 0);
    }
    if (g_failed_ops > 20) {
      fprintf(stderr, "test_stress: stopping after %ld failed operations (op %ld)\n", g_failed_ops,
              n);
      break;
    }
  }

  /* the end: leases still open are revoked (the frame ends), the states close, the host reads
     and frees the exports it holds; then every deleter and release has run exactly once */
  for (int j = 0; j < g_nleases; j++) ltensor_revoke_lease(g_leases[j].lease);
  for (int s = 0; s < NSTATES; s++) lua_close(g_L[s]);
  for (int k = 0; k < NHOSTX; k++) {
    check_export_after_close(&g_hx[k]);
    if (g_hx[k].m) g_hx[k].m->deleter(g_hx[k].m);
    sh_unref(g_hx[k].sh);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long wrong = 0, first = -1;
  for (long id = 0; id < g_ndels; id++)
    if (g_dels[id] != 1) {
      if (first < 0) first = id;
      wrong++;
    }
  CHECKF(wrong == 0,
         "%ld of %ld deleters and releases did not run exactly once (first: id %ld, "
         "%ld runs)",
         wrong, g_ndels, first, first >= 0 ? g_dels[first] : 0);
  for (long i = 0; i < g_nhb; i++) {
    CHECK(g_hb[i]->released);
    free(g_hb[i]);
  }
  free(g_hb);
  free(g_dels);
  for (int s = 0; s < NSTATES; s++)
    for (int i = 0; i < NSLOTS; i++) slot_clear(&g_slot[s][i]);
  for (int s = 0; s < NSTATES; s++)
    for (int k = 0; k < NCAPS; k++) sh_unref(g_cap[s][k].sh);
  int leaked_shadows = 0;
  for (int i = 0; i < MAXSHADOW; i++) leaked_shadows += g_sh[i].refs != 0;
  CHECKF(leaked_shadows == 0, "%d shadows still referenced (the test's own bookkeeping)",
         leaked_shadows);

  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf(
      "test_stress: seed %llu, %ld operations in %.2f s on 2 states; %ld owned deleters and "
      "releases, each run once; %ld expected errors raised\n ",
      (unsigned long long)seed, nops, secs, g_ndels, g_expected_errors);
  for (int k = 0; k < 32; k++)
    if (g_names[k]) printf(" %s %ld", g_names[k], g_counts[k]);
  printf("\n");
  int status = tu_finish("test_stress");
  fflush(stdout);
  return status;
}

/* }====== */
