/*
 * lua_ud.c -- the binding's base, its lauxlib: the tensor userdata and its tags, per-state
 * bookkeeping (metatables, collector steps, GC accounting, module forms), errors, the protected
 * pushes the host and exchange APIs share, and the conversion between Lua values and elements.
 * The other half of the base, the arguments of a call, is lua_args.c.
 *
 * Declared in lua_ud.h. Every binding file may call it; it calls only the core.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_dlpack.h"
#include "lua_ud.h"

const char ltl_tensor_key = 0;
const char ltl_wrapper_key = 0;

const char *const ltl_capsule_names[4] = {"dltensor", "dltensor_versioned", "used_dltensor",
                                          "used_dltensor_versioned"};

/* {====== per-state bookkeeping ====== */

/*
 * The registry value under &ltl_tensor_key is a userdata whose user values are the metatables
 * (LTL_MT_*), so one light-key registry lookup finds any of them, and whose block counts new
 * finalizable userdata. Lua's incremental collector runs only a few finalizers per step; small
 * userdata with __gc made faster than that (tensors and capsules in a DLPack round-trip loop)
 * would pile up without bound (359 MiB and 3.6x the time in a million round trips), so once as
 * many of them were made as the larger of LTL_GC_EVERY and the Lua heap's bytes / 64, a full
 * collection runs: its cost, proportional to the heap, stays a small share of making them (an
 * extra step every 256 instead made each of the generational collector's young collections
 * walk a table being filled with tensors again: loading 160k tensors took 1.9 s for 0.5 s).
 * Its own __gc closes the state's memory account.
 */
#define LTL_GC_EVERY 1024

/* The collector's trigger (see lt_account.h): after a collection, pressure comes again once
   the tensor memory in use has grown by max(LTL_GC_HEAP_FACTOR times the Lua heap,
   LTL_GC_SLACK_MIN). A full collection costs about 0.3 ns per byte of Lua heap here, whatever
   the tensors weigh, so the factor keeps its cost a fraction of making that much tensor memory;
   the minimum keeps small heaps from collecting at every few tensors. Unlike Lua's own
   generational rule, the slack does not grow with the tensor memory alive (a model's weights):
   that would only let garbage pile up, at no saving in collection work, and leave the next
   result a cold block instead of the one just freed. */
#ifndef LTL_GC_HEAP_FACTOR
#define LTL_GC_HEAP_FACTOR 8
#endif
#ifndef LTL_GC_SLACK_MIN
#define LTL_GC_SLACK_MIN ((int64_t)16 << 20)
#endif

/* Whether a finalizer is running: Lua stops the collector while it runs one, and from 5.4.4
   lua_gc reports that internal stop as -1 (a stop by the script is 0). Before 5.4.4 the two read
   the same, and a stopped collector counts as a finalizer: the safe side. */
static int in_finalizer(lua_State *L) {
#if LUA_VERSION_RELEASE_NUM >= 50404
  return lua_gc(L, LUA_GCISRUNNING) < 0;
#else
  return lua_gc(L, LUA_GCISRUNNING) != 1;
#endif
}

/* The account's pressure function: runs inside an allocation of the core, on the thread that
   runs the state, before the memory is taken. A full collection (the generational collector's
   young collections never free tensors that have aged, and the debt of an incremental step is
   no help to it), unless a finalizer is running (the collector cannot run then) or the script
   stopped the collector (then only a charge past the budget collects, as Lua's own emergency
   collections do). */
static void pressure(lt_account *a, size_t need, void *ctx) {
  ltl_state *st = ctx;
  lua_State *L = st->main;
  if (in_finalizer(L)) return;
  int over = lt_account_used(a) + (int64_t)need > lt_account_limit(a);
  if (over || lua_gc(L, LUA_GCISRUNNING)) lua_gc(L, LUA_GCCOLLECT);
  int64_t heap = (int64_t)lua_gc(L, LUA_GCCOUNT) * 1024 + lua_gc(L, LUA_GCCOUNTB);
  int64_t slack = heap * LTL_GC_HEAP_FACTOR;
  lt_account_rebase(a, slack > LTL_GC_SLACK_MIN ? slack : LTL_GC_SLACK_MIN);
}

/* __gc of the bookkeeping (the state closes): tensors still charged keep the account until they
   go; no more pressure. */
static int state_gc(lua_State *L) {
  ltl_state *st = lua_touserdata(L, 1);
  lt_account *a = st->acct;
  st->acct = NULL;
  lt_account_close(a);
  return 0;
}

int ltl_set_memory_limit(ltl_state *st, int64_t limit, int from_host) {
  if (!st->acct) return 0;
  if (from_host) {
    st->host_limit = limit;
  } else if (limit > st->host_limit) {
    return -1;
  }
  lt_account_set_limit(st->acct, limit);
  return 0;
}

void ltl_register_state(lua_State *L, int mt) {
  mt = lua_absindex(L, mt);
  ltl_state *st = lua_newuserdatauv(L, sizeof(ltl_state), LTL_MT_COUNT);
  memset(st, 0, sizeof *st);
  st->every = LTL_GC_EVERY;
  st->host_limit = LT_NO_LIMIT;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  st->main = lua_tothread(L, -1);
  lua_pop(L, 1);
  lua_createtable(L, 0, 1); /* its metatable, before the account: a raise leaks nothing */
  lua_pushcfunction(L, state_gc);
  lua_setfield(L, -2, "__gc");
  if (!(st->acct = lt_account_new(pressure, st))) luaL_error(L, "not enough memory");
  lt_account_rebase(st->acct, LTL_GC_SLACK_MIN);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, mt);
  st->mt[LTL_MT_TENSOR] = lua_topointer(L, -1);
  lua_setiuservalue(L, -2, LTL_MT_TENSOR);
  for (int i = 0; i < 4; i++) {
    luaL_getmetatable(L, ltl_capsule_names[i]);
    st->mt[LTL_MT_CAPSULE + i] = lua_topointer(L, -1);
    lua_setiuservalue(L, -2, LTL_MT_CAPSULE + i);
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key);
  ltl_enter(st);
}

ltl_state *ltl_push_metatable(lua_State *L, int which) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key);
  ltl_state *st = lua_touserdata(L, -1);
  ltl_enter(st);
  lua_getiuservalue(L, -1, which);
  lua_replace(L, -2); /* cheaper than lua_remove's rotation */
  return st;
}

ltl_state *ltl_set_metatable(lua_State *L, int which) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key);
  ltl_state *st = lua_touserdata(L, -1);
  ltl_enter(st);
  lua_getiuservalue(L, -1, which);
  lua_setmetatable(L, -3);
  lua_pop(L, 1); /* the bookkeeping */
  return st;
}

ltl_state *ltl_push_state(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key);
  ltl_state *st = lua_touserdata(L, -1);
  ltl_enter(st);
  return st;
}

ltl_state *ltl_state_of(lua_State *L) {
  ltl_state *st = ltl_push_state(L);
  lua_pop(L, 1); /* kept alive by the registry */
  return st;
}

void ltl_count_finalizable(lua_State *L, ltl_state *st) {
  if (++st->fresh < st->every) return;
  st->fresh = 0;
  if (lua_gc(L, LUA_GCISRUNNING) == 1) lua_gc(L, LUA_GCCOLLECT);
  int heap_kb = lua_gc(L, LUA_GCCOUNT);
  st->every = heap_kb > LTL_GC_EVERY * 64 / 1024 ? (unsigned)heap_kb * 16 : LTL_GC_EVERY;
}

void ltl_setfuncs(lua_State *L, int idx, const luaL_Reg *l) {
  lua_pushvalue(L, idx);
  luaL_setfuncs(L, l, 0);
  lua_pop(L, 1);
}

void ltl_module_forms(lua_State *L, int methods, int module, const char *const *names) {
  for (; *names; names++) {
    if (lua_getfield(L, methods, *names) != LUA_TFUNCTION)
      luaL_error(L, "ltensor: module form '%s' names no method", *names);
    lua_setfield(L, module, *names);
  }
}

/* }====== */

/* {====== userdata ====== */

/* A new empty userdata with tag, on top of the stack (no metatable yet). */
static ltl_ud *new_ud(lua_State *L, const char *tag, ltl_state *st) {
  /* a tensor's one user value holds its row view (lua_index.c); a wrapper has none */
  ltl_ud *ud = lua_newuserdatauv(L, sizeof(ltl_ud), tag == &ltl_tensor_key ? LTL_UV_ROW : 0);
  ud->t = ud->closed = NULL;
  ud->tag = tag;
  ud->st = st;
  ltl_enter(st); /* again: making the userdata may have run a finalizer of another state */
  return ud;
}

ltl_ud *ltl_newud(lua_State *L) {
  ltl_state *st = ltl_push_state(L);
  ltl_ud *ud = new_ud(L, &ltl_tensor_key, st);
  lua_getiuservalue(L, -2, LTL_MT_TENSOR);
  lua_setmetatable(L, -2);
  lua_replace(L, -2); /* the bookkeeping */
  ltl_count_finalizable(L, st);
  return ud;
}

lt_tensor *ltl_push_new(lua_State *L, lt_dtype dt, int ndim, const int64_t *shape, int zero) {
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_tensor_new(dt, ndim, shape, zero, &ud->t, &err), err);
  return ud->t;
}

ltl_ud *ltl_new_wrapper_ud(lua_State *L) {
  ltl_state *st = ltl_state_of(L);
  return new_ud(L, &ltl_wrapper_key, st);
}

ltl_ud *ltl_newud_in(lua_State *L, int sidx) {
  ltl_state *st = lua_touserdata(L, sidx);
  ltl_ud *ud = new_ud(L, &ltl_tensor_key, st);
  lua_getiuservalue(L, sidx, LTL_MT_TENSOR);
  lua_setmetatable(L, -2);
  ltl_count_finalizable(L, st);
  return ud;
}

lt_tensor *ltl_check(lua_State *L, int idx) {
  ltl_ud *ud = ltl_testud(L, idx);
  if (!ud) luaL_typeerror(L, idx, "tensor");
  if (!ud->t || lt_storage_revoked(ud->t->storage)) ltl_released(L);
  ltl_enter(ud->st);
  return ud->t;
}

void ltl_release_ud(ltl_ud *ud) {
  if (!ud) return;
  lt_tensor *t = ud->t, *closed = ud->closed;
  ud->t = ud->closed = NULL; /* before the free: a finalizer running again sees nothing */
  lt_tensor_free(t);
  lt_tensor_free(closed);
}

/* Whether the value at idx sits in the stack of a running C function below the caller: a C
   function that took a tensor from its arguments and then ran Lua code (a metamethod of an
   options table, a protocol method) still holds it. Level 0 is the caller itself. */
static int held_by_c(lua_State *L, int idx) {
  lua_Debug ar;
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "S", &ar) || ar.what[0] != 'C') continue;
    for (int n = 1; lua_getlocal(L, &ar, n); n++) { /* "(C temporary)": its stack slots */
      int same = lua_rawequal(L, -1, idx);
      lua_pop(L, 1);
      if (same) return 1;
    }
  }
  return 0;
}

/* Whether L is a coroutine: its resumer's stack cannot be looked at. */
static int in_coroutine(lua_State *L) {
  int main = lua_pushthread(L);
  lua_pop(L, 1);
  return !main;
}

void ltl_close_ud(lua_State *L, int idx) {
  ltl_ud *ud = ltl_testud(L, idx);
  if (!ud || !ud->t) return;
  idx = lua_absindex(L, idx);
  lua_pushnil(L); /* the row view goes too: it holds the storage */
  lua_setiuservalue(L, idx, LTL_UV_ROW);
  if (!in_finalizer(L) && !in_coroutine(L) && !held_by_c(L, idx)) {
    ltl_release_ud(ud);
    return;
  }
  ud->closed = ud->t; /* empty until now: t is set once and emptied once */
  ud->t = NULL;
}

/* }====== */

/* {====== errors ====== */

int ltl_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  luaL_where(L, 1); /* the script's file:line: when a Lua function made the call */
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

int ltl_raise(lua_State *L, const lt_error *err) { return ltl_error(L, "%s", err->msg); }

int ltl_released(lua_State *L) { return ltl_error(L, LTL_RELEASED); }

/* }====== */

/* {====== running protected ====== */

int ltl_pcall(lua_State *L, lua_CFunction fn, void *ud) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM; /* cannot even push the message */
  lua_pushcfunction(L, fn);
  lua_pushlightuserdata(L, ud);
  return lua_pcall(L, 1, 1, 0);
}

static int push_string(lua_State *L) {
  lua_pushstring(L, lua_touserdata(L, 1));
  return 1;
}

int ltl_push_message(lua_State *L, const char *msg, int status) {
  (void)ltl_pcall(L, push_string, (void *)msg);
  return status;
}

typedef struct {
  void *m;
  int versioned, readonly, consumed;
} import_job;

static int import_body(lua_State *L) {
  import_job *job = lua_touserdata(L, 1);
  (void)ltl_push_state(L);         /* at 2, below the result: lua_pcall keeps only the top */
  ltl_ud *ud = ltl_newud_in(L, 2); /* may raise: the job is not consumed yet */
  job->consumed = 1;               /* from here the import settles ownership */
  lt_error err;
  if (lt_dlpack_import(job->m, job->versioned, &ud->t, &err)) return ltl_raise(L, &err);
  if (job->readonly != LT_WRITABLE) ud->t->readonly = (lt_readonly)job->readonly;
  return 1;
}

int ltl_push_import(lua_State *L, void *m, int versioned, int readonly) {
  import_job job = {m, versioned, readonly, 0};
  int status = ltl_pcall(L, import_body, &job);
  if (status != LUA_OK && !job.consumed) lt_dlpack_delete(m, versioned);
  return status;
}

/* }====== */

/* {====== elements <-> Lua values ====== */

void ltl_check_operand(lua_State *L, int idx, lt_operand *o, const char *what) {
  memset(o, 0, sizeof *o);
  if (ltl_testud(L, idx)) {
    o->t = ltl_check(L, idx);
    return;
  }
  if (lua_type(L, idx) == LUA_TBOOLEAN) o->is_bool = 1;
  if ((lua_type(L, idx) != LUA_TNUMBER && lua_type(L, idx) != LUA_TBOOLEAN) ||
      !ltl_to_scalar(L, idx, LT_FLOAT64, &o->s))
    luaL_error(L, "%s: expected a tensor, number or boolean, got %s", what, luaL_typename(L, idx));
}

void ltl_push_scalar(lua_State *L, lt_dtype dt, const lt_scalar *s) {
  switch (s->kind) {
    case LT_SK_INT:
      if (dt == LT_BOOL)
        lua_pushboolean(L, s->v.i != 0);
      else
        lua_pushinteger(L, (lua_Integer)s->v.i);
      break;
    case LT_SK_UINT: { /* uint64: the Lua integer of the same bits, as string.unpack "I8" */
      lua_Integer i;
      memcpy(&i, &s->v.u, sizeof i);
      lua_pushinteger(L, i);
      break;
    }
    case LT_SK_FLOAT: lua_pushnumber(L, s->v.f); break;
    case LT_SK_COMPLEX: /* a complex element is the pair {re, im} */
      lua_createtable(L, 2, 0);
      lua_pushnumber(L, s->v.f);
      lua_rawseti(L, -2, 1);
      lua_pushnumber(L, s->im);
      lua_rawseti(L, -2, 2);
      break;
  }
}

int ltl_to_scalar(lua_State *L, int idx, lt_dtype dt, lt_scalar *s) {
  idx = lua_absindex(L, idx); /* a relative index would move with the pushes below */
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        s->kind = LT_SK_INT;
        s->v.i = (int64_t)lua_tointeger(L, idx);
      } else {
        s->kind = LT_SK_FLOAT;
        s->v.f = (double)lua_tonumber(L, idx);
      }
      return 1;
    case LUA_TBOOLEAN:
      s->kind = LT_SK_INT;
      s->v.i = lua_toboolean(L, idx);
      return 1;
    case LUA_TTABLE: /* {re, im} for complex tensors */
      if (dt >= LT_NDTYPES || !lt_dtypes[dt].is_complex || lua_rawlen(L, idx) != 2) return 0;
      lua_rawgeti(L, idx, 1);
      lua_rawgeti(L, idx, 2);
      if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TNUMBER) {
        lua_pop(L, 2);
        return 0;
      }
      s->kind = LT_SK_COMPLEX;
      s->v.f = (double)lua_tonumber(L, -2);
      s->im = (double)lua_tonumber(L, -1);
      lua_pop(L, 2);
      return 1;
    default: return 0;
  }
}

void ltl_scalar_error(lua_State *L, const lt_scalar *s, lt_dtype dt) {
  char str[64];
  lt_scalar_str(s, str, sizeof str);
  ltl_error(L, LT_STORE_RANGE_FMT, str, lt_dtype_name(dt));
}

void ltl_store_value(lua_State *L, int idx, lt_dtype dt, char *p) {
  lt_scalar s;
  if (!ltl_to_scalar(L, idx, dt, &s))
    ltl_error(L, "cannot write a %s into a %s tensor (number or boolean expected)",
              luaL_typename(L, idx), lt_dtype_name(dt));
  if (lt_store(dt, p, &s) != LT_STORE_OK) ltl_scalar_error(L, &s, dt);
}

void ltl_prepare_write(lua_State *L, lt_tensor *t) {
  lt_error err;
  (void)ltl_state_of(L); /* entered: a copy-on-write clone's own block is charged to the state */
  if (lt_prepare_write(t, &err)) ltl_raise(L, &err);
}

void ltl_check_readable(lua_State *L, const lt_tensor *t) {
  lt_error err;
  if (!lt_readable(t) && lt_check_readable(t, &err)) ltl_raise(L, &err);
}

/* Element kinds met while reading a nested table, in promotion order. */
enum { K_NONE, K_BOOL, K_INT, K_FLOAT };

static const char *dim_error = "expected a sequence of length %I at dim %d, got %s";

/* The usual table keeps 1..n in its array part, and then nothing follows key n in the traversal
   order: one lua_next settles it. A table where something does follow is walked whole. */
int ltl_extra_key(lua_State *L, lua_Integer n) {
  if (n > 0)
    lua_pushinteger(L, n);
  else
    lua_pushnil(L);
  if (!lua_next(L, -2)) return 0;
  lua_pop(L, 2);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1); /* the value */
    lua_Integer k = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    if (k < 1 || k > n) return 1;
  }
  return 0;
}

/* Checks that the table at the top of the stack has the shape shape[dim..ndim) and records
   the widest element kind in *kind. */
static void scan_table(lua_State *L, int dim, int ndim, const int64_t *shape, int *kind) {
  luaL_checkstack(L, 4, "nested table too deep");
  if (dim == ndim) {
    switch (lua_type(L, -1)) {
      case LUA_TBOOLEAN:
        if (*kind < K_BOOL) *kind = K_BOOL;
        return;
      case LUA_TNUMBER: {
        int k = lua_isinteger(L, -1) ? K_INT : K_FLOAT;
        if (*kind < k) *kind = k;
        return;
      }
      default:
        ltl_error(L, "expected a number or boolean at dim %d, got %s", dim, luaL_typename(L, -1));
        return;
    }
  }
  if (lua_type(L, -1) != LUA_TTABLE || (int64_t)lua_rawlen(L, -1) != shape[dim])
    ltl_error(L, dim_error, (lua_Integer)shape[dim], dim + 1,
              lua_type(L, -1) == LUA_TTABLE
                  ? lua_pushfstring(L, "length %I", (lua_Integer)lua_rawlen(L, -1))
                  : luaL_typename(L, -1));
  if (ltl_extra_key(L, (lua_Integer)shape[dim]))
    ltl_error(L, "expected a sequence at dim %d, got a table with key %s", dim + 1,
              luaL_tolstring(L, -1, NULL));
  for (int64_t i = 1; i <= shape[dim]; i++) {
    lua_rawgeti(L, -1, i);
    scan_table(L, dim + 1, ndim, shape, kind);
    lua_pop(L, 1);
  }
}

/* Stores the (checked) table at the top of the stack into t from element *pos on. */
static void fill_table(lua_State *L, lt_tensor *t, int dim, char **pos) {
  if (dim == t->ndim) {
    ltl_store_value(L, -1, t->dtype, *pos);
    *pos += lt_esize(t);
    return;
  }
  for (int64_t i = 1; i <= t->shape[dim]; i++) {
    lua_rawgeti(L, -1, i);
    fill_table(L, t, dim + 1, pos);
    lua_pop(L, 1);
  }
}

lt_tensor *ltl_from_table(lua_State *L, int idx, lt_dtype dt) {
  int64_t shape[LT_MAX_NDIM];
  int ndim = 0, kind = K_NONE;
  idx = lua_absindex(L, idx);
  lua_pushvalue(L, idx);
  while (lua_type(L, -1) == LUA_TTABLE) { /* the shape, from the first elements */
    if (ndim >= LT_MAX_NDIM)
      ltl_error(L, "too many dimensions in nested table (at most %d)", LT_MAX_NDIM);
    lua_Unsigned len = lua_rawlen(L, -1);
    shape[ndim++] = (int64_t)len;
    if (len == 0) break;
    lua_rawgeti(L, -1, 1);
    lua_remove(L, -2);
  }
  lua_pop(L, 1);
  lua_pushvalue(L, idx);
  scan_table(L, 0, ndim, shape, &kind);
  lua_pop(L, 1);
  if (dt >= LT_NDTYPES) dt = kind == K_BOOL ? LT_BOOL : kind == K_INT ? LT_INT64 : LT_FLOAT32;
  lt_tensor *t = ltl_push_new(L, dt, ndim, shape, 0);
  char *pos = lt_data(t);
  lua_pushvalue(L, idx);
  fill_table(L, t, 0, &pos);
  lua_pop(L, 1);
  return t;
}

/* }====== */
