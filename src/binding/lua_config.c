/*
 * lua_config.c -- lt.config: what a script may read and set of ltensor's settings. The BLAS
 * and the mapping guard (process-wide: lt_mapguard.h), the vector path the kernels take (read
 * only: lt_cpu.h, LTENSOR_SIMD), and the state's tensor memory: its
 * budget, what is in use and the most ever in use (the account the core charges, lt_account.h;
 * the budget's rules are the base's, ltl_set_memory_limit).
 * A part of ltensor.core (lua_parts.h); calls the base and the core.
 */
#include <math.h>

#include "lt_blas.h"
#include "lt_cpu.h"
#include "lt_image.h"
#include "lt_lapack.h"
#include "lt_mapguard.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The memory_limit option at idx: a byte count (an integer, or a float holding one), or
   math.huge / false for none. */
static int64_t limit_option(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TBOOLEAN && !lua_toboolean(L, idx)) return LT_NO_LIMIT;
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Integer n = 0;
    int integral = lua_isinteger(L, idx) ? (n = lua_tointeger(L, idx), 1)
                                         : lua_numbertointeger(lua_tonumber(L, idx), &n);
    if (integral && n < 0) ltl_error(L, "config: memory_limit must not be negative, got %I", n);
    if (integral) return (int64_t)n;
    if (lua_tonumber(L, idx) == HUGE_VAL) return LT_NO_LIMIT;
  }
  return ltl_error(L, "config: memory_limit must be a byte count, math.huge or false, got %s",
                   lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx));
}

/* lt.config([{blas = bool, memory_limit = bytes, guard_mappings = bool}]) -> {blas =
   "openblas" | "cblas" | nil, lapack = "openblas" | "lapack" | nil, memory_limit = bytes | nil,
   blas_core = OpenBLAS's kernel set | nil, memory_used = bytes, memory_peak = bytes,
   guard_mappings = bool, simd = "avx512" | "avx2" | "scalar", simd_max = the same, png = version
   | nil, jpeg = version | nil}. blas = false switches the BLAS
   off for the process (ltensor's own kernel for every dtype), true back on (where one was built
   in). memory_limit sets this state's budget; it may not pass a budget the host set
   (ltensor_set_memory_limit). guard_mappings = true installs the process's SIGBUS handler for files
   truncated under their mapping (ltensor_guard_mappings), false removes it. The settings are
   applied after all of them were read. */
static int f_config(lua_State *L) {
  static const char *const keys[] = {"blas", "memory_limit", "guard_mappings"};
  if (lua_gettop(L) >= 1 && !lua_isnil(L, 1)) luaL_checktype(L, 1, LUA_TTABLE);
  int top = ltl_args(L, 0, 0, 1, "config");
  ltl_opts(L, 1, "config", keys, 3);
  int blas = top + 1, lim = top + 2, guard = top + 3;
  int use_blas = ltl_bool_option(L, blas, -1, "config", "blas");
  int guarded = ltl_bool_option(L, guard, -1, "config", "guard_mappings");
  int64_t limit = lua_isnil(L, lim) ? 0 : limit_option(L, lim);
  ltl_state *st = ltl_state_of(L);
  if (!lua_isnil(L, lim) && ltl_set_memory_limit(st, limit, 0))
    return ltl_error(L, "config: memory_limit %I is above the budget the host set (%I bytes)",
                     (lua_Integer)limit, (lua_Integer)st->host_limit);
  if (use_blas >= 0) lt_blas_enable(use_blas);
  lt_error err;
  if (guarded >= 0 && lt_mapguard_enable(guarded, &err)) return ltl_fail(L, "config", &err);
  lua_createtable(L, 0, 8);
  if (lt_blas_active(LT_FLOAT32)) {
    lua_pushstring(L, lt_blas_name());
    lua_setfield(L, -2, "blas");
    lua_pushstring(L, lt_blas_core()); /* nil for another BLAS than OpenBLAS */
    lua_setfield(L, -2, "blas_core");
  }
  if (lt_lapack_name()) {
    lua_pushstring(L, lt_lapack_name());
    lua_setfield(L, -2, "lapack");
  }
  if (st->acct) {
    if (lt_account_limit(st->acct) != LT_NO_LIMIT) {
      lua_pushinteger(L, (lua_Integer)lt_account_limit(st->acct));
      lua_setfield(L, -2, "memory_limit");
    }
    lua_pushinteger(L, (lua_Integer)lt_account_used(st->acct));
    lua_setfield(L, -2, "memory_used");
    lua_pushinteger(L, (lua_Integer)lt_account_peak(st->acct));
    lua_setfield(L, -2, "memory_peak");
  }
  lua_pushboolean(L, lt_mapguard_enabled());
  lua_setfield(L, -2, "guard_mappings");
  lua_pushstring(L, lt_cpu_level_name(lt_cpu_level()));
  lua_setfield(L, -2, "simd");
  lua_pushstring(L, lt_cpu_level_name(lt_cpu_level_max()));
  lua_setfield(L, -2, "simd_max");
  lua_pushstring(L, lt_image_version(LT_IMG_PNG)); /* nil without (lt.image) */
  lua_setfield(L, -2, "png");
  lua_pushstring(L, lt_image_version(LT_IMG_JPEG));
  lua_setfield(L, -2, "jpeg");
  return 1;
}

static const luaL_Reg config_funcs[] = {{"config", f_config}, {NULL, NULL}};

const ltl_part ltl_part_config = {NULL, NULL, NULL, config_funcs, NULL};
