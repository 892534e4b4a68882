/*
 * lua_dlpack.c -- DLPack in Lua: capsules, t:__dlpack / t:__dlpack_device, from_dlpack and
 * to_dlpack.
 *
 * A capsule is a full userdata whose block is exactly one pointer, the managed tensor, with the
 * registry metatable "dltensor" (DLManagedTensor*) or "dltensor_versioned"
 * (DLManagedTensorVersioned*). Consuming it sets the pointer to NULL and switches the metatable
 * to "used_dltensor" / "used_dltensor_versioned" before anything that can fail; an unconsumed
 * capsule's __gc calls the deleter exactly once. Other Lua C modules can make and take capsules
 * by this convention alone, without linking ltensor.
 * Read by lua_init.c (ltl_part_dlpack); called by lua_wrapper.c (the export helpers of
 * lua_dlpack.h); calls lua_exchange.c (ltensor's own exchange tables), the base and the core.
 */
#include <string.h>

#include "lt_copy.h"
#include "lt_dlpack.h"
#include "ltensor.h"
#include "lua_dlpack.h"
#include "lua_parts.h"

#define capsule_names ltl_capsule_names

/* {====== capsules ====== */

static int capsule_gc(lua_State *L, int versioned) {
  void **p = lua_touserdata(L, 1);
  if (!p || lua_rawlen(L, 1) != sizeof(void *) || !*p) return 0;
  /* only a capsule of this function's own kind: called directly (debug.getmetatable), it may
     be given one of the other kind, whose deleter sits elsewhere in the managed tensor */
  int mine = lua_getmetatable(L, 1) && luaL_getmetatable(L, capsule_names[versioned ? 1 : 0]) &&
             lua_rawequal(L, -1, -2);
  if (!mine) return 0;
  void *m = *p;
  *p = NULL; /* once */
  lt_dlpack_delete(m, versioned);
  return 0;
}
static int capsule_gc_legacy(lua_State *L) { return capsule_gc(L, 0); }
static int capsule_gc_versioned(lua_State *L) { return capsule_gc(L, 1); }

static int capsule_tostring(lua_State *L) {
  const char *name = "?";
  if (luaL_getmetafield(L, 1, "__name") == LUA_TSTRING) name = lua_tostring(L, -1);
  lua_pushfstring(L, "<capsule object \"%s\" at %p>", name, lua_topointer(L, 1));
  return 1;
}

/* Creates the four metatables in the registry, once per state. */
static void make_capsule_metatables(lua_State *L) {
  for (int i = 0; i < 4; i++) {
    if (luaL_newmetatable(L, capsule_names[i])) { /* sets __name */
      lua_pushcfunction(L, capsule_tostring);
      lua_setfield(L, -2, "__tostring");
      if (i < 2) {
        lua_pushcfunction(L, i == 0 ? capsule_gc_legacy : capsule_gc_versioned);
        lua_setfield(L, -2, "__gc");
      }
      lua_pushliteral(L, "capsule");
      lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
  }
}

/*
 * The bookkeeping (lua_ud.h) of the closures __dlpack and from_dlpack: their upvalue 1, filled on
 * their first call (the bookkeeping is registered after the parts open) and read from there on.
 * An upvalue costs a few instructions where the registry lookup under a light-userdata key walks
 * the registry's hash chain (about 150 instructions a call, twice per round trip).
 */
#define CACHED lua_upvalueindex(1)

static ltl_state *cached_state(lua_State *L) {
  ltl_state *st = lua_touserdata(L, CACHED);
  if (st) {
    ltl_enter(st);
    return st;
  }
  st = ltl_push_state(L);
  lua_replace(L, CACHED);
  return st;
}

/* A new capsule with a NULL pointer, on top of the stack: fill the slot after; an empty
   capsule is harmless garbage. sidx: the bookkeeping st (on the stack or CACHED), 0: looked up. */
static void **new_capsule(lua_State *L, int versioned, int sidx, ltl_state *st) {
  void **p = lua_newuserdatauv(L, sizeof(void *), 0);
  *p = NULL;
  int which = LTL_MT_CAPSULE + (versioned ? 1 : 0);
  if (!sidx) {
    ltl_count_finalizable(L, ltl_set_metatable(L, which));
    return p;
  }
  lua_getiuservalue(L, sidx, which);
  lua_setmetatable(L, -2);
  ltl_count_finalizable(L, st);
  return p;
}

/* Which capsule metatable the value at idx has: 0..3 as capsule_names, or -1. st: the
   bookkeeping (NULL: looked up). */
static int capsule_kind(lua_State *L, int idx, const ltl_state *st) {
  if (lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != sizeof(void *) ||
      !lua_getmetatable(L, idx))
    return -1;
  const void *mt = lua_topointer(L, -1);
  lua_pop(L, 1);
  if (!st) st = ltl_state_of(L);
  for (int i = 0; i < 4; i++)
    if (st->mt[LTL_MT_CAPSULE + i] == mt) return i;
  return -1;
}

/* Consumes the capsule at idx whose kind (capsule_kind) is known; the bookkeeping is at sidx. */
static void *consume(lua_State *L, int idx, int kind, int *versioned, int sidx) {
  if (kind >= 2)
    ltl_error(L, "the capsule was already consumed (a DLPack capsule can be used only once)");
  void **p = lua_touserdata(L, idx);
  void *m = *p;
  *p = NULL;
  lua_getiuservalue(L, sidx, LTL_MT_CAPSULE + kind + 2); /* used, before anything can fail */
  lua_setmetatable(L, idx);
  if (!m) ltl_error(L, "the capsule holds no tensor");
  *versioned = kind == 1;
  return m;
}

/* Pushes the tensor of the capsule at idx, of known kind (consumed); raises if it is none or
   invalid. sidx: the bookkeeping on the stack (ltl_push_state), 0 when it is not. */
static lt_tensor *import_capsule(lua_State *L, int idx, int kind, uint64_t *flags, int sidx) {
  idx = lua_absindex(L, idx);
  if (!sidx) {
    ltl_push_state(L);
    sidx = lua_gettop(L);
  }
  ltl_ud *ud = ltl_newud_in(L, sidx); /* allocated before the capsule is consumed */
  int versioned;
  void *m = consume(L, idx, kind, &versioned, sidx);
  *flags = versioned ? lt_dlpack_flags(m) : 0;
  lt_error err;
  if (lt_dlpack_import(m, versioned, &ud->t, &err)) ltl_raise(L, &err);
  return ud->t;
}

/* }====== */

/* {====== export: t:__dlpack(opts), t:__dlpack_device(), to_dlpack(t) ====== */

/*
 * Finds the fields names[0..n) of the table at idx: at[i] is the stack index of field i's
 * value, 0 where it is nil. The values stay on the stack: the caller restores its top. A table
 * without a metatable (the literal a script writes) is traversed once with lua_next instead of
 * n lookups by name; one with a metatable is read with lua_getfield, which honours __index.
 */
static void get_fields(lua_State *L, int idx, const char *const *names, const unsigned char *lens,
                       int n, int *at) {
  idx = lua_absindex(L, idx);
  if (lua_gettop(L) + 2 * n + 2 > LUA_MINSTACK) /* room for LUA_MINSTACK values is ensured */
    luaL_checkstack(L, 2 * n + 2, "too many fields");
  for (int i = 0; i < n; i++) at[i] = 0;
  if (lua_getmetatable(L, idx)) {
    lua_pop(L, 1);
    for (int i = 0; i < n; i++)
      if (lua_getfield(L, idx, names[i]) != LUA_TNIL) at[i] = lua_gettop(L);
    return;
  }
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int i = n;
    if (lua_type(L, -2) == LUA_TSTRING) {
      size_t len;
      const char *k = lua_tolstring(L, -2, &len);
      for (i = 0; i < n; i++)
        if (lens[i] == len && k[0] == names[i][0] && memcmp(k, names[i], len) == 0) break;
    }
    if (i < n && !at[i]) {
      at[i] = lua_gettop(L); /* the value stays */
      lua_pushvalue(L, -2);  /* the key again, for lua_next */
    } else {
      lua_pop(L, 1); /* the value; the key stays for lua_next */
    }
  }
}

/* The value at idx (0: nil), field `name` of opts, as an integer pair {a, b}; 0 when nil. */
static int opt_pair(lua_State *L, int idx, const char *name, lua_Integer *a, lua_Integer *b) {
  if (!idx) return 0;
  if (lua_type(L, idx) != LUA_TTABLE)
    ltl_error(L, "%s must be a table {a, b}, got %s", name, luaL_typename(L, idx));
  lua_rawgeti(L, idx, 1);
  lua_rawgeti(L, idx, 2);
  int isnum[2];
  *a = lua_tointegerx(L, -2, &isnum[0]);
  *b = lua_tointegerx(L, -1, &isnum[1]);
  for (int i = 0; i < 2; i++)
    if (!isnum[i])
      ltl_error(L, "%s[%d] must be an integer, got %s", name, i + 1, luaL_typename(L, i - 2));
  lua_pop(L, 2);
  return 1;
}

/* The value at idx (0: nil), field `name` of opts: -1 nil, 0 false, 1 true. */
static int opt_bool(lua_State *L, int idx, const char *name) {
  if (!idx) return -1;
  if (lua_type(L, idx) != LUA_TBOOLEAN)
    ltl_error(L, "%s must be a boolean or nil, got %s", name, luaL_typename(L, idx));
  return lua_toboolean(L, idx);
}

static const char *const export_keys[] = {"max_version", "copy", "read_only", "dl_device",
                                          "stream"};
static const unsigned char export_lens[] = {11, 4, 9, 9, 6}; /* their lengths */
_Static_assert(sizeof export_lens == sizeof export_keys / sizeof export_keys[0],
               "one length per key");

ltl_dlpack_req ltl_dlpack_opts(lua_State *L, int idx, const lt_tensor *t) {
  ltl_dlpack_req r = {-1, -1, 0};
  int type = lua_type(L, idx);
  if (type == LUA_TNONE || type == LUA_TNIL) return r;
  if (type != LUA_TTABLE) luaL_typeerror(L, idx, lua_typename(L, LUA_TTABLE));
  int top = lua_gettop(L), at[5]; /* the fields, in export_keys order */
  get_fields(L, idx, export_keys, export_lens, 5, at);
  lua_Integer major, minor, dtype, did;
  if (opt_pair(L, at[0], "max_version", &major, &minor)) r.versioned = major >= 1;
  r.copy = opt_bool(L, at[1], "copy");
  r.read_only = opt_bool(L, at[2], "read_only") == 1;
  if (opt_pair(L, at[3], "dl_device", &dtype, &did)) {
    DLDevice d = t->storage->device;
    if (dtype != (lua_Integer)d.device_type || did != (lua_Integer)d.device_id) {
      char have[32];
      lt_device_str(d, have, sizeof have);
      ltl_error(L,
                "cannot export a tensor on %s to device (%I, %I): ltensor does not copy "
                "between devices",
                have, dtype, did);
    }
  }
  if (at[4] && !lua_isinteger(L, at[4]))
    ltl_error(L, "stream must be an integer or nil, got %s", luaL_typename(L, at[4]));
  lua_settop(L, top);
  return r;
}

/* Pushes a capsule exporting t; sidx and st as new_capsule's. */
static int export_capsule(lua_State *L, lt_tensor *t, int versioned, int copy, int read_only,
                          int sidx, ltl_state *st) {
  void **slot = new_capsule(L, versioned, sidx, st);
  lt_error err;
  if (lt_dlpack_export(t, versioned, copy, read_only, slot, &err)) ltl_raise(L, &err);
  return 1;
}

int ltl_export_capsule(lua_State *L, lt_tensor *t, int versioned, int copy, int read_only) {
  return export_capsule(L, t, versioned, copy, read_only, 0, NULL);
}

/* t:__dlpack{max_version = {major, minor}, dl_device = {type, id}, copy = bool, stream = int,
   read_only = bool}: versioned from max_version 1.0 on, else legacy. */
static int m_dlpack(lua_State *L) {
  if (lua_gettop(L) > 2) ltl_args(L, 1, 1, 0, "__dlpack"); /* a trailing nil opts reads as none */
  lt_tensor *t = ltl_check(L, 1);
  ltl_dlpack_req r = ltl_dlpack_opts(L, 2, t);
  ltl_state *st = cached_state(L);
  return export_capsule(L, t, r.versioned == 1, r.copy == 1, r.read_only, CACHED, st);
}

int ltl_dlpack_device(lua_State *L, const lt_tensor *t) {
  lua_pushinteger(L, (lua_Integer)t->storage->device.device_type);
  lua_pushinteger(L, (lua_Integer)t->storage->device.device_id);
  return 2;
}

static int m_dlpack_device(lua_State *L) {
  ltl_args(L, 1, 0, 0, "__dlpack_device");
  return ltl_dlpack_device(L, ltl_check(L, 1));
}

/* dlpack.to_dlpack(t): a legacy capsule, as torch.utils.dlpack.to_dlpack. */
static int f_to_dlpack(lua_State *L) {
  ltl_args(L, 0, 1, 0, "to_dlpack");
  if (ltl_testwrapper(L, 1))
    return ltl_error(L,
                     "a ReadOnlyTensorWrapper cannot become a legacy capsule, which cannot "
                     "mark it read-only; use from_dlpack or __dlpack{max_version = {1, 3}}");
  lt_tensor *t = ltl_check(L, 1);
  return ltl_export_capsule(L, t, 0, 0, 0);
}

/* }====== */

/* {====== from_dlpack ====== */

/* A contiguous copy of the tensor at the top, replacing it. */
static void replace_with_copy(lua_State *L) {
  lt_tensor *t = ltl_check(L, -1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_clone(t, &ud->t, &err)) ltl_raise(L, &err);
  lua_remove(L, -2);
}

/* Whether the value at idx can be indexed (a table, or a value whose metatable has __index):
   only those can carry the protocol's methods. */
static int indexable(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TTABLE) return 1;
  if (luaL_getmetafield(L, idx, "__index") == LUA_TNIL) return 0;
  lua_pop(L, 1);
  return 1;
}

/* Pushes the opts from_dlpack gives a producer's __dlpack: {max_version = {1, 3}, dl_device =
   {kDLCPU, 0} when want_cpu, copy = copy unless it is -1}. */
static void push_request(lua_State *L, int want_cpu, int copy) {
  lua_createtable(L, 0, 3);
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, LT_DLPACK_MAJOR);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, LT_DLPACK_MINOR);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, -2, "max_version");
  if (want_cpu) {
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, kDLCPU);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, 0);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "dl_device");
  }
  if (copy != -1) {
    lua_pushboolean(L, copy);
    lua_setfield(L, -2, "copy");
  }
}

/* dlpack.from_dlpack(x [, {device = "cpu"|nil, copy = true|false|nil}]) */
static int f_from_dlpack(lua_State *L) {
  static const char *const keys[] = {"device", "copy"}, *const cpu[] = {"cpu", NULL};
  uint64_t flags = 0;
  const ltl_state *st = cached_state(L);
  if (lua_gettop(L) == 1) { /* the usual call, from_dlpack(capsule): no options to read */
    int kind = capsule_kind(L, 1, st);
    if (kind >= 0) {
      import_capsule(L, 1, kind, &flags, CACHED);
      return 1;
    }
  }
  ltl_args(L, 0, 1, 1, "from_dlpack");
  int last = ltl_opts(L, 2, "from_dlpack", keys, 2);
  int want_cpu = ltl_choice_option(L, -2, -1, "from_dlpack", "device", cpu) == 0;
  int copy = ltl_bool_option(L, -1, -1, "from_dlpack", "copy");
  lua_settop(L, last);
  luaL_checkany(L, 1);
  int kind = capsule_kind(L, 1, st);
  if (kind >= 0) {
    if (want_cpu || copy != -1)
      return ltl_error(L,
                       "device and copy cannot be used with a raw capsule; pass the object "
                       "that made it instead");
    import_capsule(L, 1, kind, &flags, CACHED);
    return 1;
  }
  ltl_ud *src = ltl_testud(L, 1);
  if (src) { /* an ltensor tensor: share, or copy when asked */
    lt_tensor *t = ltl_check(L, 1);
    if (want_cpu && t->storage->device.device_type != kDLCPU) {
      char have[32];
      lt_device_str(t->storage->device, have, sizeof have);
      return ltl_error(L, "tensor is on %s: moving it to cpu needs a copy ltensor cannot make",
                       have);
    }
    lua_settop(L, 1);
    if (copy == 1) {
      replace_with_copy(L);
      return 1;
    }
    lt_error err;
    ltl_ud *ud = ltl_newud_in(L, CACHED);
    if (lt_tensor_alias(t, &ud->t, &err)) ltl_raise(L, &err);
    return 1;
  }
  /* the protocol: x:__dlpack{max_version = {1, 3}, dl_device = ..., copy = ...}; a value that
     cannot be indexed (number, boolean, plain userdata) gets the same clear error */
  if (!indexable(L, 1))
    return ltl_error(L, "expected a tensor, a DLPack capsule or an object with __dlpack, got %s",
                     luaL_typename(L, 1));
  /* ltensor's own C exchange tables (wrappers carry the const one): no Lua call. Tables of
     other modules are not trusted blindly: a script could put any light userdata there. */
  if (lua_getfield(L, 1, "__dlpack_c_exchange_api") == LUA_TLIGHTUSERDATA) {
    const ltensor_exchange_api *api = lua_touserdata(L, -1);
    if (api == ltensor_exchange() || api == ltensor_exchange_const()) {
      DLManagedTensorVersioned *m;
      lua_settop(L, 1);
      ltl_ud *ud = ltl_newud(L);
      if (api->managed_tensor_from_lua_no_sync(L, 1, &m)) return lua_error(L);
      lt_error err;
      if (lt_dlpack_import(m, 1, &ud->t, &err)) ltl_raise(L, &err);
      if (api == ltensor_exchange_const()) ud->t->readonly = LT_RO_WRAPPER; /* say why */
      if (want_cpu && ud->t->storage->device.device_type != kDLCPU)
        return ltl_error(L, "tensor is not on cpu, and ltensor does not copy between devices");
      if (copy == 1) replace_with_copy(L);
      return 1;
    }
  }
  lua_settop(L, 2);
  if (lua_getfield(L, 1, "__dlpack") == LUA_TNIL)
    return ltl_error(L, "expected a tensor, a DLPack capsule or an object with __dlpack, got %s",
                     luaL_typename(L, 1));
  /* the device first, as the array API does: a copy it would need is refused before anything
     is exported */
  if (lua_getfield(L, 1, "__dlpack_device") == LUA_TNIL)
    return ltl_error(L, "the %s has __dlpack but no __dlpack_device (DLPack needs both)",
                     luaL_typename(L, 1));
  lua_pushvalue(L, 1);
  lua_call(L, 1, 2);
  if (!lua_isinteger(L, -2) || !lua_isinteger(L, -1))
    return ltl_error(L,
                     "__dlpack_device must return two integers (device type and id), got %s "
                     "and %s",
                     luaL_typename(L, -2), luaL_typename(L, -1));
  DLDevice dev = {(DLDeviceType)lua_tointeger(L, -2), (int32_t)lua_tointeger(L, -1)};
  lua_pop(L, 2);
  if (want_cpu && dev.device_type != kDLCPU && copy == 0) {
    char have[32];
    lt_device_str(dev, have, sizeof have);
    return ltl_error(
        L, "tensor is on %s: moving it to cpu needs a copy, and copy = false was asked", have);
  }
  lua_pushvalue(L, 1);
  push_request(L, want_cpu, copy);
  lua_call(L, 2, 1);
  kind = capsule_kind(L, -1, st);
  if (kind < 0)
    return ltl_error(L, "__dlpack returned %s, not a DLPack capsule", luaL_typename(L, -1));
  lt_tensor *t = import_capsule(L, -1, kind, &flags, CACHED);
  if (want_cpu && t->storage->device.device_type != kDLCPU)
    return ltl_error(L, "__dlpack ignored dl_device and returned a tensor that is not on cpu");
  if (copy == 0 && (flags & DLPACK_FLAG_BITMASK_IS_COPIED))
    return ltl_error(L, "__dlpack made a copy although copy = false was asked");
  /* copy = true holds only if the producer says it copied (a legacy capsule cannot say) */
  if (copy == 1 && !(flags & DLPACK_FLAG_BITMASK_IS_COPIED)) replace_with_copy(L);
  return 1;
}

int ltl_dlpack_import_any(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (capsule_kind(L, idx, NULL) < 0) { /* an object with __dlpack? (not a tensor: the caller's) */
    if (!indexable(L, idx)) return 0;
    int has = lua_getfield(L, idx, "__dlpack") != LUA_TNIL;
    lua_pop(L, 1);
    if (!has) return 0;
  }
  lua_pushnil(L); /* from_dlpack reads its bookkeeping from upvalue 1 */
  lua_pushcclosure(L, f_from_dlpack, 1);
  lua_pushvalue(L, idx);
  lua_call(L, 1, 1);
  return 1;
}

/* }====== */

static const luaL_Reg dlpack_methods[] = {{"__dlpack_device", m_dlpack_device}, {NULL, NULL}};

static const luaL_Reg dlpack_funcs[] = {{"to_dlpack", f_to_dlpack}, {NULL, NULL}};

static void open_dlpack(lua_State *L, const ltl_tables *at) {
  make_capsule_metatables(L);
  lua_pushnil(L); /* upvalue 1: the bookkeeping, filled on the first call (cached_state) */
  lua_pushcclosure(L, m_dlpack, 1);
  lua_setfield(L, at->methods, "__dlpack");
  lua_pushnil(L);
  lua_pushcclosure(L, f_from_dlpack, 1);
  lua_setfield(L, at->module, "from_dlpack");
  lua_pushlightuserdata(L, (void *)ltensor_exchange());
  lua_setfield(L, at->methods, "__dlpack_c_exchange_api");
}

const ltl_part ltl_part_dlpack = {NULL, dlpack_methods, NULL, dlpack_funcs, open_dlpack};
