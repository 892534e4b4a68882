/*
 * lua_args.c -- the binding's base, its other half (lua_ud.c is the first): the arguments of a
 * call, counted as Lua's own libraries count them (ltl_args: trailing nils absent, one wording
 * for too many), the options table (ltl_opts), dtypes given positionally or as an option, dims,
 * indices, sizes, the tensors of a list, and the result a core function fills (ltl_out,
 * ltl_result).
 *
 * Declared in lua_ud.h. Every binding file may call it; it calls lua_ud.c and the core.
 */
#include <string.h>

#include "lua_ud.h"

/* {====== arguments ====== */

/* Pushes the n names as "a, b or c", each between quote and quote; returns the string. */
static const char *push_names(lua_State *L, const char *const *names, int n, const char *quote) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; i < n; i++) {
    if (i) luaL_addstring(&b, i + 1 == n ? " or " : ", ");
    luaL_addstring(&b, quote);
    luaL_addstring(&b, names[i]);
    luaL_addstring(&b, quote);
  }
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* Whether the value at idx is an options table: a table without element 1 (a sequence there is
   a positional argument: dims, a shape). */
static int is_options(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  int seq = lua_rawgeti(L, idx, 1) != LUA_TNIL;
  lua_pop(L, 1);
  return !seq;
}

int ltl_too_many(lua_State *L, int self, int most, int opts, const char *fname) {
  static const char *const after[] = {"", " after the tensor", " after the generator"};
  return ltl_error(L, "%s: too many arguments (at most %d%s%s)", fname, most,
                   after[self > 0 && self < 3 ? self : 0], opts ? ", then an options table" : "");
}

int ltl_args(lua_State *L, int self, int most, int opts, const char *fname) {
  int n = lua_gettop(L), own = self != 0;
  while (n > 0 && lua_isnil(L, n)) n--;
  lua_settop(L, n);
  if (n <= own + most || (opts && n == own + most + 1 && is_options(L, n))) return n;
  return ltl_too_many(L, self, most, opts, fname);
}

void ltl_args_end(lua_State *L, int self, int used, int opts, const char *fname) {
  if (lua_gettop(L) > used) ltl_too_many(L, self, used - (self != 0), opts, fname);
}

lt_dtype ltl_dtype_pick(lua_State *L, int arg, lt_dtype opt, lt_dtype def, const char *fname) {
  int pos = !lua_isnoneornil(L, arg);
  if (pos && opt != LT_NDTYPES)
    ltl_error(L, "%s: dtype given twice (as an argument and as an option)", fname);
  if (opt != LT_NDTYPES) return opt;
  return pos ? ltl_check_dtype(L, arg) : def;
}

lt_dtype ltl_dtype_arg(lua_State *L, int arg, int optidx, lt_dtype def, const char *fname) {
  lt_dtype opt = optidx ? ltl_dtype_option(L, optidx, fname, LT_NDTYPES) : LT_NDTYPES;
  return ltl_dtype_pick(L, arg, opt, def, fname);
}

lua_Integer ltl_check_int(lua_State *L, int arg, const char *what) {
  int isnum;
  lua_Integer v = lua_tointegerx(L, arg, &isnum);
  if (!isnum) {
    if (lua_type(L, arg) == LUA_TNUMBER)
      luaL_argerror(
          L, arg, lua_pushfstring(L, "%s must be an integer, got %s", what, lua_tostring(L, arg)));
    luaL_typeerror(L, arg, "integer");
  }
  return v;
}

lua_Integer ltl_opt_int(lua_State *L, int arg, lua_Integer def, const char *what) {
  return lua_isnoneornil(L, arg) ? def : ltl_check_int(L, arg, what);
}

lt_dtype ltl_check_dtype(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TSTRING) luaL_typeerror(L, arg, "dtype name");
  const char *name = lua_tostring(L, arg);
  lt_dtype dt = lt_dtype_from_name(name);
  if (dt == LT_NDTYPES) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "unknown dtype '%s' (expected one of ", name);
    luaL_addvalue(&b);
    for (int i = 0; i < LT_NDTYPES; i++) {
      luaL_addstring(&b, lt_dtypes[i].name);
      luaL_addstring(&b, ", ");
    }
    luaL_addstring(&b, "or the aliases ");
    for (int i = 0; i < LT_NALIASES; i++) {
      luaL_addstring(&b, lt_dtype_aliases[i].alias);
      luaL_addstring(&b, i + 1 < LT_NALIASES ? ", " : ")");
    }
    luaL_pushresult(&b);
    luaL_argerror(L, arg, lua_tostring(L, -1));
  }
  return dt;
}

lt_dtype ltl_opt_dtype(lua_State *L, int arg, lt_dtype def) {
  return lua_isnoneornil(L, arg) ? def : ltl_check_dtype(L, arg);
}

int ltl_check_dim(lua_State *L, int arg, int ndim) {
  lua_Integer d = ltl_check_int(L, arg, "dim");
  lua_Integer n = ndim;
  if (d < 0) d += n + 1;
  if (d < 1 || d > n)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "dim %I out of range for a tensor of %d dims",
                                  lua_tointeger(L, arg), ndim));
  return (int)d - 1;
}

int ltl_opt_dim(lua_State *L, int arg, int ndim, int def) {
  return lua_isnoneornil(L, arg) ? def : ltl_check_dim(L, arg, ndim);
}

lt_dtype ltl_dtype_option(lua_State *L, int idx, const char *fname, lt_dtype def) {
  if (lua_isnil(L, idx)) return def;
  if (lua_type(L, idx) != LUA_TSTRING)
    ltl_error(L, "%s: dtype must be a dtype name, got %s", fname, luaL_typename(L, idx));
  lt_dtype dt = lt_dtype_from_name(lua_tostring(L, idx));
  if (dt == LT_NDTYPES) ltl_error(L, "%s: unknown dtype '%s'", fname, lua_tostring(L, idx));
  return dt;
}

int ltl_opts(lua_State *L, int first, const char *fname, const char *const *keys, int nkeys) {
  int top = lua_gettop(L), opts = 0;
  if (top >= first && is_options(L, top)) opts = top; /* a sequence is positional */
  luaL_checkstack(L, nkeys + 3, "too many options");
  if (opts) {
    lua_pushnil(L);
    while (lua_next(L, opts)) {
      lua_pop(L, 1); /* the value */
      int i = 0;
      if (lua_type(L, -1) == LUA_TSTRING)
        while (i < nkeys && strcmp(lua_tostring(L, -1), keys[i]) != 0) i++;
      if (lua_type(L, -1) != LUA_TSTRING || i == nkeys) {
        push_names(L, keys, nkeys, "");
        if (lua_type(L, -2) == LUA_TSTRING)
          return ltl_error(L, "%s: unknown option '%s' (expected %s)", fname, lua_tostring(L, -2),
                           nkeys ? lua_tostring(L, -1) : "none");
        return ltl_error(L, "%s: options are named, got a %s key (expected %s)", fname,
                         luaL_typename(L, -2), nkeys ? lua_tostring(L, -1) : "none");
      }
    }
  }
  for (int i = 0; i < nkeys; i++)
    if (opts)
      lua_getfield(L, opts, keys[i]);
    else
      lua_pushnil(L);
  return opts ? top - 1 : top;
}

int ltl_dtype_opts(lua_State *L, int first, const char *fname, lt_dtype *opt) {
  static const char *const keys[] = {"dtype"};
  int last = ltl_opts(L, first, fname, keys, 1);
  *opt = ltl_dtype_option(L, -1, fname, LT_NDTYPES);
  lua_settop(L, last);
  return last;
}

int ltl_opt_bool(lua_State *L, int arg, int def, const char *what) {
  if (lua_isnoneornil(L, arg)) return def;
  if (lua_type(L, arg) != LUA_TBOOLEAN)
    return luaL_argerror(
        L, arg, lua_pushfstring(L, "%s must be a boolean, got %s", what, luaL_typename(L, arg)));
  return lua_toboolean(L, arg);
}

int ltl_bool_option(lua_State *L, int idx, int def, const char *fname, const char *key) {
  if (lua_isnil(L, idx)) return def;
  if (lua_type(L, idx) != LUA_TBOOLEAN)
    ltl_error(L, "%s: %s must be a boolean, got %s", fname, key, luaL_typename(L, idx));
  return lua_toboolean(L, idx);
}

int ltl_dim_option(lua_State *L, int idx, int ndim, int def, const char *fname) {
  if (lua_isnil(L, idx)) return def;
  int ok;
  lua_Integer d = lua_tointegerx(L, idx, &ok), n = ndim > 0 ? ndim : 1;
  if (!ok || lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: dim must be an integer, got %s", fname,
              lua_type(L, idx) == LUA_TNUMBER ? "a non-integer number" : luaL_typename(L, idx));
  if (d < -n || d > n || d == 0)
    ltl_error(L, "%s: dim %I out of range (expected 1 to %d%s)", fname, d, (int)n,
              d == 0 ? "; dims are 1-based" : "");
  return (int)(d < 0 ? d + n : d - 1);
}

int ltl_choice_option(lua_State *L, int idx, int def, const char *fname, const char *key,
                      const char *const *choices) {
  if (lua_isnil(L, idx)) return def;
  const char *v = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
  int n = 0;
  for (; choices[n]; n++)
    if (v && strcmp(v, choices[n]) == 0) return n;
  const char *expected = push_names(L, choices, n, "'");
  const char *got = v ? lua_pushfstring(L, "'%s'", v) : luaL_typename(L, idx);
  return ltl_error(L, "%s: %s must be %s, got %s", fname, key, expected, got);
}

int ltl_index_error(lua_State *L, lua_Integer i, int64_t n, int dim) {
  return ltl_error(L, "index %I is out of range for dim %d of size %I%s", i, dim + 1,
                   (lua_Integer)n, i == 0 ? " (indices are 1-based)" : "");
}

int64_t ltl_norm_index(lua_State *L, lua_Integer i, int64_t n, int dim) {
  lua_Integer j = i < 0 ? i + (lua_Integer)n + 1 : i;
  if (j < 1 || j > (lua_Integer)n) ltl_index_error(L, i, n, dim);
  return (int64_t)j - 1;
}

int ltl_check_sizes(lua_State *L, int arg, int64_t *sizes, int allow_neg1, int *next) {
  int n = 0;
  if (lua_type(L, arg) == LUA_TTABLE) {
    lua_Unsigned len = lua_rawlen(L, arg);
    if (len > LT_MAX_NDIM)
      luaL_argerror(L, arg, lua_pushfstring(L, "too many dimensions (at most %d)", LT_MAX_NDIM));
    for (lua_Unsigned i = 1; i <= len; i++) {
      lua_rawgeti(L, arg, (lua_Integer)i);
      int isnum;
      lua_Integer v = lua_tointegerx(L, -1, &isnum);
      if (!isnum)
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "size #%d must be an integer, got %s", (int)i,
                                      luaL_typename(L, -1)));
      if (v < 0 && !(allow_neg1 && v == -1))
        luaL_argerror(L, arg, lua_pushfstring(L, "size #%d is negative (%I)", (int)i, v));
      sizes[n++] = v;
      lua_pop(L, 1);
    }
    lua_pushvalue(L, arg); /* {dtype = ...} is options, not a shape: say so */
    if (ltl_extra_key(L, (lua_Integer)len)) {
      const char *q = lua_type(L, -1) == LUA_TSTRING ? "'" : "";
      const char *key = luaL_tolstring(L, -1, NULL);
      luaL_argerror(
          L, arg,
          lua_pushfstring(L, "a shape is a sequence of sizes, got a table with key %s%s%s", q, key,
                          q));
    }
    lua_pop(L, 1);
    *next = arg + 1;
    return n;
  }
  while (lua_type(L, arg + n) == LUA_TNUMBER) {
    if (n >= LT_MAX_NDIM)
      luaL_argerror(L, arg + n,
                    lua_pushfstring(L, "too many dimensions (at most %d)", LT_MAX_NDIM));
    lua_Integer v = ltl_check_int(L, arg + n, "size");
    if (v < 0 && !(allow_neg1 && v == -1))
      luaL_argerror(L, arg + n, lua_pushfstring(L, "size is negative (%I)", v));
    sizes[n] = v;
    n++;
  }
  if (n == 0 && !lua_isnoneornil(L, arg) && lua_type(L, arg) != LUA_TSTRING)
    luaL_typeerror(L, arg, "shape (table or integers)");
  *next = arg + n;
  return n;
}

lt_tensor **ltl_out(lua_State *L) { return &ltl_newud(L)->t; }

int ltl_fail(lua_State *L, const char *fname, const lt_error *err) {
  return ltl_error(L, "%s: %s", fname, err->msg);
}

int ltl_result(lua_State *L, int rc, const lt_error *err, const char *fname) {
  return rc ? ltl_fail(L, fname, err) : 1;
}

const lt_tensor **ltl_tensors(lua_State *L, int idx, lua_Integer n, int in_table, const char *what,
                              const char *noun) {
  idx = lua_absindex(L, idx);
  const lt_tensor **ts = lua_newuserdatauv(L, (size_t)n * sizeof(lt_tensor *), 1);
  if (in_table) lua_createtable(L, (int)n, 0); /* filled below without allocating */
  for (lua_Integer i = 1; i <= n; i++) {
    if (in_table) lua_rawgeti(L, idx, i);
    int at = in_table ? -1 : idx + (int)i - 1;
    if (!ltl_testud(L, at))
      luaL_error(L, "%s: %s %d is a %s, not a tensor", what, noun, (int)i, luaL_typename(L, at));
    ts[i - 1] = ltl_check(L, at);
    if (in_table) lua_rawseti(L, -2, i);
  }
  if (in_table) lua_setiuservalue(L, -2, 1);
  return ts;
}

/* }====== */
