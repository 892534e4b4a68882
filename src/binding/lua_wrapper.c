/*
 * lua_wrapper.c -- dlpack.ReadOnlyTensorWrapper: a zero-copy, export-only view of a tensor.
 *
 * Owns: the wrapper userdata (laid out as a tensor userdata, with its own tag and metatable).
 * Its metatable allows __dlpack (always versioned, READ_ONLY set, never giving a copy-on-write
 * clone its own memory), __dlpack_device, __dlpack_c_exchange_api (the const table) and
 * tostring. Every other index, write, operator, length, call, comparison or concatenation raises
 * "ReadOnlyTensorWrapper only supports DLPack export; '<name>' is not allowed (for a read-only
 * tensor of its memory, use dlpack.from_dlpack(w))".
 * Read only by lua_init.c (ltl_part_wrapper); calls lua_dlpack.c (lua_dlpack.h) for the
 * export, lua_exchange.c (the const table), the base and the core.
 */
#include "ltensor.h"
#include "lua_dlpack.h"
#include "lua_parts.h"

#define WRAPPER_NAME "ltensor.ReadOnlyTensorWrapper"
#define REFUSED                                                                              \
  "ReadOnlyTensorWrapper only supports DLPack export; '%s' is not allowed (for a read-only " \
  "tensor of its memory, use dlpack.from_dlpack(w))"

static lt_tensor *check_wrapper(lua_State *L, int idx) {
  ltl_ud *ud = ltl_testwrapper(L, idx);
  if (!ud) luaL_typeerror(L, idx, "ReadOnlyTensorWrapper");
  if (!ud->t) ltl_released(L);
  return ud->t;
}

/* w:__dlpack{max_version = {1, 3}, ...}: a READ_ONLY versioned capsule, sharing memory. With
   no max_version it is versioned all the same, as torch's wrapper defaults it to (1, 0). */
static int w_dlpack(lua_State *L) {
  ltl_args(L, 1, 1, 0, "__dlpack");
  lt_tensor *t = check_wrapper(L, 1);
  ltl_dlpack_req r = ltl_dlpack_opts(L, 2, t);
  int copy = r.copy;
  if (r.versioned == 0)
    return ltl_error(L,
                     "a ReadOnlyTensorWrapper exports only versioned capsules, which can "
                     "mark it read-only: pass max_version = {1, 3} or none");
  lua_settop(L, 1);
  /* the export stays a live view of t: pin t's storage when that copies nothing (its block has
     no other handle), so that a later t:clone() copies eagerly instead of moving t away from
     the export on its next write; a block shared with a clone is left alone */
  if (copy != 1) (void)lt_storage_pin_if_free(t->storage);
  return ltl_export_capsule(L, t, 1, copy == 1, 1);
}

static int w_dlpack_device(lua_State *L) {
  ltl_args(L, 1, 0, 0, "__dlpack_device");
  return ltl_dlpack_device(L, check_wrapper(L, 1));
}

/* The allowed keys live in upvalue 1; everything else is refused by name. */
static int w_index(lua_State *L) {
  check_wrapper(L, 1);
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  }
  return luaL_error(L, REFUSED, luaL_tolstring(L, 2, NULL));
}

static int w_newindex(lua_State *L) { return luaL_error(L, REFUSED, luaL_tolstring(L, 2, NULL)); }

/* Every operator: upvalue 1 is its name. */
static int w_refuse(lua_State *L) {
  return luaL_error(L, REFUSED, lua_tostring(L, lua_upvalueindex(1)));
}

static int w_tostring(lua_State *L) {
  lt_tensor *t = check_wrapper(L, 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L); /* a temporary tensor sharing t, printed as tensors print */
  if (lt_tensor_alias(t, &ud->t, &err)) return ltl_raise(L, &err);
  lua_pushfstring(L, "ReadOnlyTensorWrapper(%s)", luaL_tolstring(L, -1, NULL));
  return 1;
}

static int w_gc(lua_State *L) {
  ltl_release_ud(ltl_testwrapper(L, 1));
  return 0;
}

/* dlpack.ReadOnlyTensorWrapper(t): t a tensor (or a wrapper, wrapped again). */
static int f_wrapper(lua_State *L) {
  ltl_args(L, 0, 1, 0, "ReadOnlyTensorWrapper");
  ltl_ud *w = ltl_testwrapper(L, 1);
  lt_tensor *t = w ? check_wrapper(L, 1) : ltl_check(L, 1);
  ltl_ud *ud = ltl_new_wrapper_ud(L);
  luaL_setmetatable(L, WRAPPER_NAME);
  lt_error err;
  if (lt_tensor_alias(t, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

static const char *const refused_ops[] = {"__add", "__sub",  "__mul",    "__div", "__mod",  "__pow",
                                          "__unm", "__idiv", "__band",   "__bor", "__bxor", "__shl",
                                          "__shr", "__bnot", "__concat", "__len", "__eq",   "__lt",
                                          "__le",  "__call", "__close",  NULL};

static const luaL_Reg allowed[] = {
    {"__dlpack", w_dlpack}, {"__dlpack_device", w_dlpack_device}, {NULL, NULL}};
static const luaL_Reg wrapper_metameth[] = {
    {"__newindex", w_newindex}, {"__tostring", w_tostring}, {"__gc", w_gc}, {NULL, NULL}};

static void open_wrapper(lua_State *L, const ltl_tables *at) {
  if (luaL_newmetatable(L, WRAPPER_NAME)) {
    for (int i = 0; refused_ops[i]; i++) {
      lua_pushstring(L, refused_ops[i]);
      lua_pushcclosure(L, w_refuse, 1);
      lua_setfield(L, -2, refused_ops[i]);
    }
    lua_createtable(L, 0, 3); /* the allowed keys */
    luaL_setfuncs(L, allowed, 0);
    lua_pushlightuserdata(L, (void *)ltensor_exchange_const());
    lua_setfield(L, -2, "__dlpack_c_exchange_api");
    lua_pushcclosure(L, w_index, 1);
    lua_setfield(L, -2, "__index");
    luaL_setfuncs(L, wrapper_metameth, 0);
    lua_pushlightuserdata(L, (void *)ltensor_exchange_const());
    lua_setfield(L, -2, "__dlpack_c_exchange_api");
    lua_pushliteral(L, "ReadOnlyTensorWrapper");
    lua_setfield(L, -2, "__metatable");
  }
  lua_pop(L, 1);
  (void)at;
}

static const luaL_Reg wrapper_funcs[] = {{"ReadOnlyTensorWrapper", f_wrapper}, {NULL, NULL}};

const ltl_part ltl_part_wrapper = {NULL, NULL, NULL, wrapper_funcs, open_wrapper};
