/*
 * lua_init.c -- luaopen_ltensor_core, the module ltensor.core: the one file that knows every
 * part of the binding. It makes the tensor metatable and the methods, properties and module
 * tables, lets each part fill them (the ltl_part_* of lua_parts.h, read from here only), and
 * registers the per-state bookkeeping; it also keeps the module's code mapped (pin_module).
 * Called by Lua (require) and lua_host.c; calls the parts, lua_exchange.c and the base.
 */
#if !defined(_WIN32)
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#else
#include <windows.h>
#endif

#include <stdatomic.h>
#include <string.h>

#include "ltensor.h"
#include "lua_luasrc.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The parts, in the order they fill the tables (lua_dlpack.c makes the capsule metatables that
   the bookkeeping holds). */
static const ltl_part *const parts[] = {
    &ltl_part_tensor, &ltl_part_index,         &ltl_part_math,         &ltl_part_funcs,
    &ltl_part_reduce, &ltl_part_softmax,       &ltl_part_sort,         &ltl_part_einsum,
    &ltl_part_dlpack, &ltl_part_wrapper,       &ltl_part_shape,        &ltl_part_gather,
    &ltl_part_file,   &ltl_part_random,        &ltl_part_config,       &ltl_part_spaces,
    &ltl_part_layout, &ltl_part_stats,         &ltl_part_linalg_solve, &ltl_part_linalg_funcs,
    &ltl_part_dist,   &ltl_part_linalg_decomp, &ltl_part_nn_norm,      &ltl_part_nn_conv,
    &ltl_part_nn_act, &ltl_part_fft,           &ltl_part_image,
};

static void open_part(lua_State *L, const ltl_part *p, const ltl_tables *at) {
  const luaL_Reg *lists[4] = {p->metameth, p->methods, p->props, p->funcs};
  const int where[4] = {at->mt, at->methods, at->props, at->module};
  for (int i = 0; i < 4; i++)
    if (lists[i]) ltl_setfuncs(L, where[i], lists[i]);
  if (p->open) p->open(L, at);
}

/*
 * Keeps the code of ltensor mapped for the life of the process. `require` loads core.so and
 * lua_close unloads it (dlclose), but an export (its deleter), a storage released later or an
 * exchange table may be called after that by whoever holds it: NumPy at interpreter shutdown,
 * a host on another thread. So the shared object that holds this function is opened once more,
 * never to be unloaded (RTLD_NODELETE; on Windows a pinned module handle). The object is found by
 * an address inside it (ltl_tensor_key: ISO C has no function-to-object pointer cast). Linked
 * statically into a program, the "object" is the program itself, and this changes nothing.
 */
static void pin_module(void) {
  static atomic_int pinned; /* once per process; a race only opens the object twice */
  if (atomic_load_explicit(&pinned, memory_order_relaxed)) return;
#if !defined(_WIN32)
  Dl_info info;
  if (dladdr(&ltl_tensor_key, &info) && info.dli_fname && /* an address inside ltensor */
      dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
    atomic_store_explicit(&pinned, 1, memory_order_relaxed);
#else
  HMODULE self;
  if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                         &ltl_tensor_key, &self))
    atomic_store_explicit(&pinned, 1, memory_order_relaxed);
#endif
}

/* {====== the Lua layer without `package` ======
 *
 * The modules of lua/ltensor are compiled into the library (lua_luasrc.h). ltl_require finds a
 * module as `require` would, in the registry's table of loaded modules (package.loaded when
 * the package library is open), else runs ltensor.core's opener or the compiled-in source and
 * records the result there. So a state without `package` (a sandboxed host) still gets the
 * module table (ltensor_push_module) and tensors print as torch prints before, or without,
 * any `require "ltensor"`. A chunk run here gets ltl_require as its third argument and uses it
 * in place of the global `require` (see lua/ltensor/init.lua).
 */

/* Runs the compiled-in module at upvalue 1 with (name, ":embedded:", ltl_require): one result. */
static int load_embedded(lua_State *L) {
  const ltl_luasrc *m = lua_touserdata(L, lua_upvalueindex(1));
  if (luaL_loadbuffer(L, m->src, m->len, m->chunkname) != LUA_OK) return lua_error(L);
  lua_pushstring(L, m->name);
  lua_pushliteral(L, ":embedded:");
  lua_pushcfunction(L, ltl_require);
  lua_call(L, 3, 1);
  return 1;
}

void ltl_push_loader(lua_State *L, const ltl_luasrc *m) {
  lua_pushlightuserdata(L, (void *)m);
  lua_pushcclosure(L, load_embedded, 1);
}

int ltl_require(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  lua_settop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* name LOADED */
  if (lua_getfield(L, 2, name) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  if (strcmp(name, "ltensor.core") == 0) {
    lua_pushcfunction(L, luaopen_ltensor_core);
  } else {
    const ltl_luasrc *m = ltl_luasrcs;
    while (m->name && strcmp(m->name, name) != 0) m++;
    if (!m->name) return luaL_error(L, "module '%s' is not part of ltensor", name);
    ltl_push_loader(L, m);
  }
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) { /* as require: a module that returns nothing is true */
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, 2, name);
  return 1;
}

/* __tostring of a tensor: ltensor.format's printer, loaded on first use. */
static int t_tostring(lua_State *L) {
  lua_settop(L, 1);
  lua_pushcfunction(L, ltl_require);
  lua_pushliteral(L, "ltensor.format");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "tostring");
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

/* }====== */

LUAMOD_API int luaopen_ltensor_core(lua_State *L) {
  pin_module();
  /* The bookkeeping userdata is registered last, under this copy's own key, and marks a state
     whose initialization completed: one cut short by a memory error is redone by the next
     require. A second copy of ltensor in the same state (a host's static one and a core.so found
     on package.cpath) would fight over the metatables, so it is refused. */
  int complete = lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key) != LUA_TNIL;
  lua_pop(L, 1);
  if (!complete && luaL_getmetatable(L, LTL_TENSOR_NAME) != LUA_TNIL) {
    /* no mark yet: our own initialization was cut short right after making the table */
    int tt = lua_getfield(L, -1, "__ltensor_copy");
    if (tt != LUA_TNIL && lua_touserdata(L, -1) != (void *)&ltl_tensor_key)
      return luaL_error(L,
                        "another copy of ltensor is already loaded in this state (a host "
                        "that links ltensor must call ltensor_open before scripts require it)");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  ltl_tables at;
  if (luaL_newmetatable(L, LTL_TENSOR_NAME) || !complete) { /* mt */
    lua_pushlightuserdata(L, (void *)&ltl_tensor_key);      /* which copy made it */
    lua_setfield(L, -2, "__ltensor_copy");
    lua_pushliteral(L, LTL_TENSOR_NAME); /* getmetatable(t) gives the type name */
    lua_setfield(L, -2, "__metatable");
    lua_pushlightuserdata(L, (void *)ltensor_exchange());
    lua_setfield(L, -2, "__dlpack_c_exchange_api");
    lua_pushcfunction(L, t_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_newtable(L); /* mt methods */
    lua_newtable(L); /* mt methods props */
  } else {           /* a second require: the tables __index already reads */
    lua_getfield(L, -1, "__index");
    lua_getupvalue(L, -1, 1);
    lua_getupvalue(L, -2, 2); /* mt __index methods props */
    lua_remove(L, -3);
  }
  lua_newtable(L); /* mt methods props M */
  at.module = lua_gettop(L);
  at.props = at.module - 1;
  at.methods = at.module - 2;
  at.mt = at.module - 3;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) open_part(L, parts[i], &at);
  if (!complete) ltl_register_state(L, at.mt);
  lua_pushvalue(L, at.methods);
  lua_setfield(L, at.module, "_methods");
  lua_pushvalue(L, at.props);
  lua_setfield(L, at.module, "_properties"); /* for spec/definitions_spec.lua */
  lua_pushvalue(L, at.mt);
  lua_setfield(L, at.module, "_metatable"); /* for the Lua layer (__tostring) */
  for (int i = 0; i < LT_NDTYPES; i++) {
    lua_pushstring(L, lt_dtypes[i].name);
    lua_setfield(L, at.module, lt_dtypes[i].name);
  }
  for (int i = 0; i < LT_NALIASES; i++) { /* lt.float == "float32": t.dtype's canonical name */
    lua_pushstring(L, lt_dtypes[lt_dtype_aliases[i].dt].name);
    lua_setfield(L, at.module, lt_dtype_aliases[i].alias);
  }
  return 1;
}
