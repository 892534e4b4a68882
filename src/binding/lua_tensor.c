/*
 * lua_tensor.c -- the Lua binding of the core tensor: module ltensor.core.
 *
 * Owns: the tensor userdata and its metatable (__index / __newindex dispatch, __len, __gc and
 * __close), Lua-side argument parsing (1-based dims and indices, negative from the end as in
 * string.sub), the constructors, the methods, and the conversion between Lua values and
 * elements. It does no tensor math itself: views, copies and fills are the core's.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lt_copy.h"
#include "ltensor.h"
#include "lua_ltensor.h"

const char ltl_tensor_key = 0;

/* {====== userdata, checks, errors ====== */

/*
 * Per-state bookkeeping: the registry value under &ltl_tensor_key is a userdata whose user
 * values are the metatables (LTL_MT_*), so one light-key registry lookup finds any of them, and
 * whose block counts new finalizable userdata. Lua's incremental collector runs only a few
 * finalizers per step; small userdata with __gc made faster than that (tensors and capsules in
 * a DLPack round-trip loop) would pile up without bound, so every LTL_GC_EVERY of them take
 * one extra collector step.
 */
#define LTL_GC_EVERY 256

ltl_state *ltl_push_metatable(lua_State *L, int which) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key);
  ltl_state *st = lua_touserdata(L, -1);
  lua_getiuservalue(L, -1, which);
  lua_remove(L, -2);
  return st;
}

void ltl_count_finalizable(lua_State *L, ltl_state *st) {
  if (++st->fresh < LTL_GC_EVERY) return;
  st->fresh = 0;
  if (lua_gc(L, LUA_GCISRUNNING)) lua_gc(L, LUA_GCSTEP, 0);
}

ltl_ud *ltl_newud(lua_State *L) {
  ltl_ud *ud = lua_newuserdatauv(L, sizeof(ltl_ud), 0);
  ud->t = NULL;
  ud->tag = &ltl_tensor_key;
  ltl_state *st = ltl_push_metatable(L, LTL_MT_TENSOR);
  lua_setmetatable(L, -2);
  ltl_count_finalizable(L, st);
  return ud;
}

static inline ltl_ud *testud(lua_State *L, int idx) {
  ltl_ud *ud = lua_touserdata(L, idx);
  return ud && lua_rawlen(L, idx) == sizeof(ltl_ud) && ud->tag == &ltl_tensor_key ? ud : NULL;
}

ltl_ud *ltl_testud(lua_State *L, int idx) { return testud(L, idx); }

/*
 * The self of a metamethod. Lua calls __index and __newindex with a tensor, but they are also
 * plain functions a script can reach (core._metatable) and call with any value. The tag is
 * checked, not the block size (an API call on every element access): the tag is the first
 * field, and every userdata a script can hold is at least a pointer long (tensors, wrappers,
 * capsules, files; light userdata point at the static exchange tables), so the read stays
 * inside the block. (A smaller userdata of another C module passed there directly would still
 * be read past its end; checking lua_rawlen first costs t[i] about 5%.)
 */
static inline ltl_ud *self_ud(lua_State *L) {
  ltl_ud *ud = lua_touserdata(L, 1);
  return ud && ud->tag == &ltl_tensor_key ? ud : NULL;
}

static int released(lua_State *L) { return luaL_error(L, "tensor has been released"); }

lt_tensor *ltl_check(lua_State *L, int idx) {
  ltl_ud *ud = ltl_testud(L, idx);
  if (!ud) luaL_typeerror(L, idx, "tensor");
  if (!ud->t || ud->t->storage->revoked) released(L);
  return ud->t;
}

int ltl_raise(lua_State *L, const lt_error *err) { return luaL_error(L, "%s", err->msg); }

void ltl_account(lua_State *L, size_t nbytes) {
  /* Debt of nbytes/1024 KB makes the collector work as if the block were in its heap, so
     loops that drop big tensors free them without anyone calling collectgarbage. */
  size_t kb = nbytes / 1024;
  if (kb == 0 || !lua_gc(L, LUA_GCISRUNNING)) return;
  lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
}

#define CHECK_RC(L, rc, err)      \
  do {                            \
    if (rc) ltl_raise(L, &(err)); \
  } while (0)

/* }====== */

/* {====== arguments ====== */

static lua_Integer check_int(lua_State *L, int arg, const char *what) {
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

static lt_dtype check_dtype(lua_State *L, int arg) {
  const char *name = lua_tostring(L, arg);
  if (lua_type(L, arg) != LUA_TSTRING) luaL_typeerror(L, arg, "dtype name");
  lt_dtype dt = lt_dtype_from_name(name);
  if (dt == LT_NDTYPES) luaL_argerror(L, arg, lua_pushfstring(L, "unknown dtype '%s'", name));
  return dt;
}

static lt_dtype opt_dtype(lua_State *L, int arg, lt_dtype def) {
  return lua_isnoneornil(L, arg) ? def : check_dtype(L, arg);
}

/* A 1-based dim (negative from the end) into 0-based, for a tensor of ndim dims. */
static int check_dim(lua_State *L, int arg, int ndim) {
  lua_Integer d = check_int(L, arg, "dim");
  lua_Integer n = ndim;
  if (d < 0) d += n + 1;
  if (d < 1 || d > n)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "dim %I out of range for a tensor of %d dims",
                                  lua_tointeger(L, arg), ndim));
  return (int)d - 1;
}

/*
 * Reads sizes given either as one table at arg or as integer arguments from arg on; stops at
 * the first non-number argument. Returns the number of sizes and sets *next to the argument
 * after them. allow_neg1 admits -1 (inferred or kept).
 */
static int check_sizes(lua_State *L, int arg, int64_t *sizes, int allow_neg1, int *next) {
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
    *next = arg + 1;
    return n;
  }
  while (lua_type(L, arg + n) == LUA_TNUMBER) {
    if (n >= LT_MAX_NDIM)
      luaL_argerror(L, arg + n,
                    lua_pushfstring(L, "too many dimensions (at most %d)", LT_MAX_NDIM));
    lua_Integer v = check_int(L, arg + n, "size");
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

/* }====== */

/* {====== elements <-> Lua values ====== */

static void push_scalar(lua_State *L, lt_dtype dt, const lt_scalar *s) {
  switch (s->kind) {
    case LT_SK_INT:
      if (dt == LT_BOOL)
        lua_pushboolean(L, s->v.i != 0);
      else
        lua_pushinteger(L, (lua_Integer)s->v.i);
      break;
    case LT_SK_UINT:
      if (s->v.u <= (uint64_t)LUA_MAXINTEGER)
        lua_pushinteger(L, (lua_Integer)s->v.u);
      else
        lua_pushnumber(L, (lua_Number)s->v.u); /* beyond Lua integers: the nearest float */
      break;
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

/* Pushes the element at p; the hot path of t[i]. */
static inline void push_element(lua_State *L, lt_dtype dt, const char *p) {
  switch (dt) {
    case LT_FLOAT32: lua_pushnumber(L, *(const float *)p); return;
    case LT_FLOAT64: lua_pushnumber(L, *(const double *)p); return;
    case LT_INT64: lua_pushinteger(L, *(const int64_t *)p); return;
    case LT_INT32: lua_pushinteger(L, *(const int32_t *)p); return;
    case LT_UINT8: lua_pushinteger(L, *(const uint8_t *)p); return;
    default: {
      lt_scalar s;
      lt_load(dt, p, &s);
      push_scalar(L, dt, &s);
    }
  }
}

/* The Lua value at idx as a scalar for a tensor of dtype dt; 0 when it is not one. */
static int to_scalar(lua_State *L, int idx, lt_dtype dt, lt_scalar *s) {
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

static void scalar_error(lua_State *L, const lt_scalar *s, lt_dtype dt) {
  char str[64];
  lt_scalar_str(s, str, sizeof str);
  luaL_error(L, "value %s cannot be converted to %s", str, lt_dtypes[dt].name);
}

/* Writes the Lua value at idx into the element at p of a writable tensor of dtype dt. */
static void store_value(lua_State *L, int idx, lt_dtype dt, char *p) {
  lt_scalar s;
  if (!to_scalar(L, idx, dt, &s))
    luaL_error(L, "cannot write a %s into a %s tensor (number or boolean expected)",
               luaL_typename(L, idx), lt_dtypes[dt].name);
  if (lt_store(dt, p, &s) != LT_STORE_OK) scalar_error(L, &s, dt);
}

/* Before writing through t: raises for read-only or opaque tensors, and gives a copy-on-write
   clone (or its source) a block of its own, charging the copy to the collector. */
static void prepare_write(lua_State *L, lt_tensor *t) {
  lt_error err;
  void *before = t->storage->data;
  if (lt_prepare_write(t, &err)) ltl_raise(L, &err);
  if (t->storage->data != before) ltl_account(L, t->storage->block->nbytes);
}

static void check_readable(lua_State *L, const lt_tensor *t) {
  lt_error err;
  if (!lt_readable(t) && lt_check_readable(t, &err)) ltl_raise(L, &err);
}

/* Address of the element at 0-based index idx[0..ndim). */
static char *element_at(const lt_tensor *t, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->ndim; i++) off += idx[i] * t->strides[i];
  return lt_data(t) + off * (int64_t)lt_esize(t);
}

/* }====== */

/* For the other binding files (lua_ltensor.h). */
void ltl_push_element(lua_State *L, lt_dtype dt, const char *p) { push_element(L, dt, p); }
void ltl_store_value(lua_State *L, int idx, lt_dtype dt, char *p) { store_value(L, idx, dt, p); }
void ltl_prepare_write(lua_State *L, lt_tensor *t) { prepare_write(L, t); }
int ltl_check_dim(lua_State *L, int arg, int ndim) { return check_dim(L, arg, ndim); }
int ltl_to_scalar(lua_State *L, int idx, lt_dtype dt, lt_scalar *s) {
  return to_scalar(L, idx, dt, s);
}

/* {====== constructors ====== */

/* Element kinds met while reading a nested table, in promotion order. */
enum { K_NONE, K_BOOL, K_INT, K_FLOAT };

static const char *dim_error = "expected a sequence of length %I at dim %d (got %s)";

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
        luaL_error(L, "expected a number or boolean at dim %d (got %s)", dim, luaL_typename(L, -1));
        return;
    }
  }
  if (lua_type(L, -1) != LUA_TTABLE || (int64_t)lua_rawlen(L, -1) != shape[dim])
    luaL_error(L, dim_error, (lua_Integer)shape[dim], dim + 1,
               lua_type(L, -1) == LUA_TTABLE
                   ? lua_pushfstring(L, "length %I", (lua_Integer)lua_rawlen(L, -1))
                   : luaL_typename(L, -1));
  for (int64_t i = 1; i <= shape[dim]; i++) {
    lua_rawgeti(L, -1, i);
    scan_table(L, dim + 1, ndim, shape, kind);
    lua_pop(L, 1);
  }
}

/* Stores the (checked) table at the top of the stack into t from element *pos on. */
static void fill_table(lua_State *L, lt_tensor *t, int dim, char **pos) {
  if (dim == t->ndim) {
    store_value(L, -1, t->dtype, *pos);
    *pos += lt_esize(t);
    return;
  }
  for (int64_t i = 1; i <= t->shape[dim]; i++) {
    lua_rawgeti(L, -1, i);
    fill_table(L, t, dim + 1, pos);
    lua_pop(L, 1);
  }
}

/* Pushes a new tensor made from the table at idx; dtype inferred unless dt < LT_NDTYPES. */
static lt_tensor *tensor_from_table(lua_State *L, int idx, lt_dtype dt) {
  int64_t shape[LT_MAX_NDIM];
  int ndim = 0, kind = K_NONE;
  idx = lua_absindex(L, idx);
  lua_pushvalue(L, idx);
  while (lua_type(L, -1) == LUA_TTABLE) { /* the shape, from the first elements */
    if (ndim >= LT_MAX_NDIM)
      luaL_error(L, "too many dimensions in nested table (at most %d)", LT_MAX_NDIM);
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
  lt_error err;
  int64_t n;
  if (lt_shape_numel(ndim, shape, &n, &err)) ltl_raise(L, &err);
  ltl_account(L, (size_t)n * lt_dtypes[dt].size);
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_tensor_new(dt, ndim, shape, 0, &ud->t, &err), err);
  char *pos = lt_data(ud->t);
  lua_pushvalue(L, idx);
  fill_table(L, ud->t, 0, &pos);
  lua_pop(L, 1);
  return ud->t;
}

/* Pushes a new contiguous tensor; zero-filled when zero != 0. */
static lt_tensor *new_tensor(lua_State *L, lt_dtype dt, int ndim, const int64_t *shape, int zero) {
  lt_error err;
  int64_t n;
  if (lt_shape_numel(ndim, shape, &n, &err)) ltl_raise(L, &err);
  if ((uint64_t)n <= (uint64_t)PTRDIFF_MAX / lt_dtypes[dt].size)
    ltl_account(L, (size_t)n * lt_dtypes[dt].size);
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_tensor_new(dt, ndim, shape, zero, &ud->t, &err), err);
  return ud->t;
}

/* Pushes a contiguous copy of t converted to dt. */
static lt_tensor *copy_as(lua_State *L, const lt_tensor *t, lt_dtype dt) {
  check_readable(L, t);
  lt_tensor *c = new_tensor(L, dt, t->ndim, t->shape, 0);
  lt_error err;
  CHECK_RC(L, lt_copy(c, t, &err), err);
  return c;
}

/* lt.tensor(data [, dtype]) */
static int lt_tensor_fn(lua_State *L) {
  lt_dtype dt = opt_dtype(L, 2, LT_NDTYPES);
  lt_scalar s;
  switch (lua_type(L, 1)) {
    case LUA_TTABLE: tensor_from_table(L, 1, dt); return 1;
    case LUA_TNUMBER:
    case LUA_TBOOLEAN: {
      to_scalar(L, 1, LT_FLOAT64, &s);
      if (dt == LT_NDTYPES)
        dt = lua_isboolean(L, 1) ? LT_BOOL : lua_isinteger(L, 1) ? LT_INT64 : LT_FLOAT32;
      lt_tensor *t = new_tensor(L, dt, 0, NULL, 0);
      if (lt_store(dt, lt_data(t), &s) != LT_STORE_OK) scalar_error(L, &s, dt);
      return 1;
    }
    default: {
      ltl_ud *ud = ltl_testud(L, 1);
      if (!ud) return luaL_typeerror(L, 1, "number, boolean, table or tensor");
      if (!ud->t) return released(L);
      copy_as(L, ud->t, dt == LT_NDTYPES ? ud->t->dtype : dt);
      return 1;
    }
  }
}

/* lt.empty/zeros/ones(shape [, dtype]) */
static int make_filled(lua_State *L, int how) {
  int64_t shape[LT_MAX_NDIM];
  int next;
  if (lua_type(L, 1) != LUA_TTABLE && lua_type(L, 1) != LUA_TNUMBER)
    luaL_typeerror(L, 1, "shape (table or integers)");
  int ndim = check_sizes(L, 1, shape, 0, &next);
  lt_dtype dt = opt_dtype(L, next, LT_FLOAT32);
  lt_tensor *t = new_tensor(L, dt, ndim, shape, how != 'e');
  if (how == '1') {
    lt_scalar one = {LT_SK_INT, {.i = 1}, 0};
    lt_error err;
    CHECK_RC(L, lt_fill(t, &one, &err), err);
  }
  return 1;
}
static int lt_empty(lua_State *L) { return make_filled(L, 'e'); }
static int lt_zeros(lua_State *L) { return make_filled(L, '0'); }
static int lt_ones(lua_State *L) { return make_filled(L, '1'); }

/* lt.full(shape, value [, dtype]) */
static int lt_full(lua_State *L) {
  int64_t shape[LT_MAX_NDIM];
  int next, ndim;
  if (lua_type(L, 1) == LUA_TTABLE) {
    ndim = check_sizes(L, 1, shape, 0, &next);
  } else {
    lua_Integer n = check_int(L, 1, "size");
    luaL_argcheck(L, n >= 0, 1, "size is negative");
    shape[0] = n;
    ndim = 1;
  }
  lt_dtype def = lua_isboolean(L, 2)   ? LT_BOOL
                 : lua_isinteger(L, 2) ? LT_INT64
                 : lua_istable(L, 2)   ? LT_COMPLEX64
                                       : LT_FLOAT32;
  lt_dtype dt = opt_dtype(L, 3, def);
  lt_scalar s;
  if (!to_scalar(L, 2, dt, &s))
    luaL_typeerror(L, 2, lt_dtypes[dt].is_complex ? "number or {re, im}" : "number or boolean");
  lt_tensor *t = new_tensor(L, dt, ndim, shape, 0);
  lt_error err;
  CHECK_RC(L, lt_fill(t, &s, &err), err);
  return 1;
}

/* lt.arange([start,] stop [, step] [, dtype]): half-open, as torch.arange. */
static int f_arange(lua_State *L) {
  int nargs = lua_gettop(L), nnum = 0, isfloat = 0;
  while (nnum < nargs && lua_type(L, nnum + 1) == LUA_TNUMBER) {
    if (!lua_isinteger(L, nnum + 1)) isfloat = 1;
    nnum++;
  }
  if (nnum == 0) return luaL_typeerror(L, 1, "number");
  if (nnum > 3) return luaL_argerror(L, 4, "at most start, stop and step");
  lt_dtype dt = opt_dtype(L, nnum + 1, isfloat ? LT_FLOAT32 : LT_INT64);
  int64_t count;
  if (!isfloat) {
    lua_Integer start = nnum >= 2 ? lua_tointeger(L, 1) : 0;
    lua_Integer stop = lua_tointeger(L, nnum >= 2 ? 2 : 1);
    lua_Integer step = nnum == 3 ? lua_tointeger(L, 3) : 1;
    luaL_argcheck(L, step != 0, 3, "step must be nonzero");
    luaL_argcheck(L, step > 0 ? stop >= start : stop <= start, 1,
                  "upper bound and lower bound inconsistent with step sign");
    /* span / step, rounded up, in unsigned arithmetic (the span may exceed int64) */
    uint64_t span = step > 0 ? (uint64_t)stop - (uint64_t)start : (uint64_t)start - (uint64_t)stop;
    uint64_t ustep = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
    uint64_t c = span / ustep + (span % ustep != 0);
    if (c > (uint64_t)INT64_MAX) return luaL_error(L, "arange: too many elements");
    count = (int64_t)c;
    lt_tensor *t = new_tensor(L, dt, 1, &count, 0);
    char *p = lt_data(t);
    size_t es = lt_esize(t);
    for (int64_t i = 0; i < count; i++, p += es) {
      lt_scalar s = {
          LT_SK_INT, {.i = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)step)}, 0};
      if (lt_store(dt, p, &s) != LT_STORE_OK) scalar_error(L, &s, dt);
    }
    return 1;
  }
  double start = nnum >= 2 ? lua_tonumber(L, 1) : 0;
  double stop = lua_tonumber(L, nnum >= 2 ? 2 : 1);
  double step = nnum == 3 ? lua_tonumber(L, 3) : 1;
  luaL_argcheck(L, isfinite(start) && isfinite(stop), 1, "start and stop must be finite");
  luaL_argcheck(L, step != 0 && isfinite(step), 3, "step must be finite and nonzero");
  luaL_argcheck(L, step > 0 ? stop >= start : stop <= start, 1,
                "upper bound and lower bound inconsistent with step sign");
  double c = ceil((stop - start) / step);
  if (!(c < 0x1p62)) return luaL_error(L, "arange: too many elements");
  count = (int64_t)c;
  lt_tensor *t = new_tensor(L, dt, 1, &count, 0);
  char *p = lt_data(t);
  size_t es = lt_esize(t);
  for (int64_t i = 0; i < count; i++, p += es) {
    lt_scalar s = {LT_SK_FLOAT, {.f = start + (double)i * step}, 0};
    if (lt_store(dt, p, &s) != LT_STORE_OK) scalar_error(L, &s, dt);
  }
  return 1;
}

/* lt.from_bytes(string, dtype [, shape]): a copy of the raw bytes. */
static int lt_from_bytes(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lt_dtype dt = check_dtype(L, 2);
  size_t es = lt_dtypes[dt].size;
  if (len % es != 0)
    return luaL_argerror(
        L, 1,
        lua_pushfstring(L, "%d bytes is not a multiple of the %s element size (%d)", (int)len,
                        lt_dtypes[dt].name, (int)es));
  int64_t n = (int64_t)(len / es), shape[LT_MAX_NDIM];
  int ndim = 1, next;
  shape[0] = n;
  if (!lua_isnoneornil(L, 3)) {
    ndim = check_sizes(L, 3, shape, 1, &next);
    lt_error err;
    /* resolve -1 and check the count through a view of a flat tensor */
    lt_tensor *flat = new_tensor(L, dt, 1, &n, 0);
    memcpy(lt_data(flat), s, len);
    ltl_ud *ud = ltl_newud(L);
    CHECK_RC(L, lt_view(flat, ndim, shape, &ud->t, &err), err);
    return 1;
  }
  lt_tensor *t = new_tensor(L, dt, ndim, shape, 0);
  if (len) memcpy(lt_data(t), s, len);
  return 1;
}

/* core._readable(t): whether tostring may read the elements. */
static int lt_readable_fn(lua_State *L) {
  lua_pushboolean(L, lt_readable(ltl_check(L, 1)));
  return 1;
}

static int lt_is_tensor(lua_State *L) {
  lua_pushboolean(L, ltl_testud(L, 1) != NULL);
  return 1;
}

/* }====== */

/* {====== indexing ====== */

/* 0-based position of the 1-based (or negative) index i in a dim of size n; raises. */
static int64_t norm_index(lua_State *L, lua_Integer i, int64_t n, int dim) {
  lua_Integer j = i < 0 ? i + (lua_Integer)n + 1 : i;
  if (j < 1 || j > (lua_Integer)n)
    luaL_error(L, "index %I is out of range for dim %d of size %I", i, dim + 1, (lua_Integer)n);
  return (int64_t)j - 1;
}

static lua_Integer key_int(lua_State *L, int idx, const char *what) {
  int isnum;
  lua_Integer i = lua_tointegerx(L, idx, &isnum);
  if (!isnum) {
    if (lua_type(L, idx) == LUA_TNUMBER)
      luaL_error(L, "%s must be an integer (got %s)", what, lua_tostring(L, idx));
    luaL_error(L, "%s must be an integer (got %s)", what, luaL_typename(L, idx));
  }
  return i;
}

/* Applies the range table at the top of the stack ({a, b, step}, inclusive) to dim of v. */
static void apply_range(lua_State *L, lt_tensor *v, int dim) {
  int64_t n = v->shape[dim];
  lua_Integer a, b, step = 1;
  if (lua_rawgeti(L, -1, 3) != LUA_TNIL) step = key_int(L, -1, "range step");
  lua_pop(L, 1);
  if (step == 0) luaL_error(L, "range step must be a nonzero integer");
  /* |step| in unsigned arithmetic: LUA_MININTEGER has no positive counterpart */
  lua_Unsigned ustep = step > 0 ? (lua_Unsigned)step : 0u - (lua_Unsigned)step;
  a = step > 0 ? 1 : (lua_Integer)n;
  b = step > 0 ? (lua_Integer)n : 1;
  if (lua_rawgeti(L, -1, 1) != LUA_TNIL) a = key_int(L, -1, "range start");
  if (lua_rawgeti(L, -2, 2) != LUA_TNIL) b = key_int(L, -1, "range end");
  lua_pop(L, 2);
  lua_Integer ra = a, rb = b, nn = (lua_Integer)n;
  if (a < 0) a += nn + 1;
  if (b < 0) b += nn + 1;
  int64_t count;
  if (step > 0) {
    if (a < 1 || a > nn + 1)
      luaL_error(L, "range start %I is out of range for dim %d of size %I", ra, dim + 1, nn);
    if (b < 0 || b > nn)
      luaL_error(L, "range end %I is out of range for dim %d of size %I", rb, dim + 1, nn);
    count = b >= a ? (int64_t)((lua_Unsigned)(b - a) / ustep) + 1 : 0;
  } else {
    if (a < 0 || a > nn)
      luaL_error(L, "range start %I is out of range for dim %d of size %I", ra, dim + 1, nn);
    if (b < 1 || b > nn + 1)
      luaL_error(L, "range end %I is out of range for dim %d of size %I", rb, dim + 1, nn);
    count = a >= b ? (int64_t)((lua_Unsigned)(a - b) / ustep) + 1 : 0;
  }
  lt_error err;
  int64_t start = count > 0 ? a - 1 : (a - 1 < 0 ? 0 : (a - 1 > nn ? nn : a - 1));
  CHECK_RC(L, lt_slice_(v, dim, start, count, step, &err), err);
}

/*
 * Applies the key at kidx (an integer, or a table of per-dim entries) to the frame v.
 * Returns 1 when the key selected single elements all the way down (a scalar position).
 */
static int apply_key(lua_State *L, lt_tensor *v, int kidx) {
  lt_error err;
  if (lua_type(L, kidx) == LUA_TNUMBER) {
    if (v->ndim == 0) luaL_error(L, "cannot index a 0-d tensor (use item())");
    int64_t i = norm_index(L, key_int(L, kidx, "index"), v->shape[0], 0);
    CHECK_RC(L, lt_select_(v, 0, i, &err), err);
    return v->ndim == 0;
  }
  if (lua_type(L, kidx) != LUA_TTABLE)
    luaL_error(L, "invalid index: integer or table expected, got %s", luaL_typename(L, kidx));
  lua_Unsigned len = lua_rawlen(L, kidx);
  int dim = 0, selected = 0;
  luaL_checkstack(L, 4, NULL);
  for (lua_Unsigned k = 1; k <= len; k++) {
    if (dim >= v->ndim)
      luaL_error(L, "too many indices for a tensor of %d dims", v->ndim + selected);
    switch (lua_rawgeti(L, kidx, (lua_Integer)k)) {
      case LUA_TNUMBER: {
        int64_t i = norm_index(L, key_int(L, -1, "index"), v->shape[dim], dim + selected);
        CHECK_RC(L, lt_select_(v, dim, i, &err), err);
        selected++;
        break;
      }
      case LUA_TTABLE:
        apply_range(L, v, dim);
        dim++;
        break;
      default:
        luaL_error(L, "invalid index entry #%d: integer or table expected, got %s", (int)k,
                   luaL_typename(L, -1));
    }
    lua_pop(L, 1);
  }
  return selected > 0 && v->ndim == 0;
}

/* Pushes a new tensor sharing the view v (a frame). */
static void push_view(lua_State *L, const lt_tensor *v) {
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_tensor_alias(v, &ud->t, &err), err);
}

/* Writes the Lua value at vidx into the view v: an element, a fill, or a broadcast copy. */
static void assign(lua_State *L, lt_tensor *v, int vidx) {
  lt_error err;
  prepare_write(L, v);
  ltl_ud *src = ltl_testud(L, vidx);
  if (src) {
    if (!src->t) released(L);
    CHECK_RC(L, lt_copy(v, src->t, &err), err);
    return;
  }
  lt_scalar s;
  /* a table is a {re, im} scalar only for one complex element; otherwise it holds rows */
  if ((v->ndim == 0 || lua_type(L, vidx) != LUA_TTABLE) && to_scalar(L, vidx, v->dtype, &s)) {
    if (v->ndim == 0) {
      if (lt_store(v->dtype, lt_data(v), &s) != LT_STORE_OK) scalar_error(L, &s, v->dtype);
    } else {
      CHECK_RC(L, lt_fill(v, &s, &err), err);
    }
    return;
  }
  if (lua_type(L, vidx) == LUA_TTABLE) {
    lt_tensor *tmp = tensor_from_table(L, vidx, v->dtype);
    CHECK_RC(L, lt_copy(v, tmp, &err), err);
    lua_pop(L, 1);
    return;
  }
  luaL_error(L, "cannot assign a %s to a tensor (number, boolean, table or tensor expected)",
             luaL_typename(L, vidx));
}

static int t_index(lua_State *L) {
  ltl_ud *ud = self_ud(L);
  if (!ud) return luaL_typeerror(L, 1, "tensor");
  switch (lua_type(L, 2)) {
    case LUA_TNUMBER: {
      lt_tensor *t = ud->t;
      if (!t) return released(L);
      if (t->ndim == 1) { /* the fast path: one element of a vector */
        int isnum;
        lua_Integer i = lua_tointegerx(L, 2, &isnum);
        int64_t n = t->shape[0];
        if (i < 0) i += n + 1;
        if (!isnum || i < 1 || i > n) break;
        if (!lt_readable(t)) check_readable(L, t);
        push_element(L, t->dtype, lt_data(t) + (i - 1) * t->strides[0] * (int64_t)lt_esize(t));
        return 1;
      }
      break;
    }
    case LUA_TSTRING:
      lua_pushvalue(L, 2);
      if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; /* a method */
      lua_pushvalue(L, 2);
      if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TFUNCTION) { /* a property */
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        return 1;
      }
      lua_pushnil(L);
      return 1;
    default: break;
  }
  /* the general path: selections and ranges */
  lt_tensor *t = ud->t;
  if (!t || t->storage->revoked) return released(L);
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  if (apply_key(L, v, 2)) {
    check_readable(L, v);
    push_element(L, v->dtype, lt_data(v));
  } else {
    push_view(L, v);
  }
  return 1;
}

static int t_newindex(lua_State *L) {
  ltl_ud *ud = self_ud(L);
  if (!ud) return luaL_typeerror(L, 1, "tensor");
  lt_tensor *t = ud->t;
  if (!t || t->storage->revoked) return released(L);
  if (lua_type(L, 2) == LUA_TNUMBER && t->ndim == 1) { /* the fast path */
    int isnum;
    lua_Integer i = lua_tointegerx(L, 2, &isnum);
    int64_t n = t->shape[0];
    if (i < 0) i += n + 1;
    if (isnum && i >= 1 && i <= n && !t->readonly && !t->storage->shared && lt_readable(t)) {
      char *p = lt_data(t) + (i - 1) * t->strides[0] * (int64_t)lt_esize(t);
      if (t->dtype == LT_FLOAT32 && lua_type(L, 3) == LUA_TNUMBER) { /* as lt_store does */
        *(float *)p = lua_isinteger(L, 3) ? (float)lua_tointeger(L, 3) : (float)lua_tonumber(L, 3);
        return 0;
      }
      store_value(L, 3, t->dtype, p);
      return 0;
    }
  }
  if (lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "cannot set field '%s' of a tensor", lua_tostring(L, 2));
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  apply_key(L, v, 2);
  assign(L, v, 3);
  return 0;
}

/* }====== */

/* {====== methods ====== */

static void push_dims(lua_State *L, int n, const int64_t *a) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)a[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static int m_size(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (lua_isnoneornil(L, 2))
    push_dims(L, t->ndim, t->shape);
  else
    lua_pushinteger(L, (lua_Integer)t->shape[check_dim(L, 2, t->ndim)]);
  return 1;
}

static int m_stride(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (lua_isnoneornil(L, 2))
    push_dims(L, t->ndim, t->strides);
  else
    lua_pushinteger(L, (lua_Integer)t->strides[check_dim(L, 2, t->ndim)]);
  return 1;
}

static int m_numel(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)lt_numel(ltl_check(L, 1)));
  return 1;
}

static int m_dim(lua_State *L) {
  lua_pushinteger(L, ltl_check(L, 1)->ndim);
  return 1;
}

static int m_is_contiguous(lua_State *L) {
  lua_pushboolean(L, lt_is_contiguous(ltl_check(L, 1)));
  return 1;
}

static int m_element_size(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)lt_esize(ltl_check(L, 1)));
  return 1;
}

static int m_nbytes(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lua_pushinteger(L, (lua_Integer)(lt_numel(t) * (int64_t)lt_esize(t)));
  return 1;
}

static int m_storage_offset(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)ltl_check(L, 1)->offset);
  return 1;
}

/* t:data_ptr(): the address of the first element, writable: a copy-on-write clone gets its own
   block first, and the block is never shared again (the address may be written through). */
static int m_data_ptr(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (!t->storage->pinned) {
    void *before = t->storage->data;
    if (lt_storage_pin(t->storage)) return luaL_error(L, "not enough memory");
    if (t->storage->data != before) ltl_account(L, t->storage->block->nbytes);
  }
  lua_pushinteger(L, (lua_Integer)(intptr_t)lt_data(t));
  return 1;
}

/* t:const_data_ptr(): the same address for reading; never copies a shared block. */
static int m_const_data_ptr(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)(intptr_t)lt_data(ltl_check(L, 1)));
  return 1;
}

static int m_is_read_only(lua_State *L) {
  lua_pushboolean(L, ltl_check(L, 1)->readonly != LT_WRITABLE);
  return 1;
}

/* Pushes the elements of t from dim on, starting at p, as nested tables. */
static void push_list(lua_State *L, const lt_tensor *t, int dim, const char *p) {
  if (dim == t->ndim) {
    push_element(L, t->dtype, p);
    return;
  }
  luaL_checkstack(L, 3, "tensor too deep");
  /* i * stride before the element size: a dim of size 0 or 1 may have a stride whose byte
     stride overflows (an empty (0, 2^63-1) tensor: 2^63-1 elements), and addresses nothing */
  int64_t n = t->shape[dim], es = (int64_t)lt_esize(t);
  lua_createtable(L, n < INT_MAX ? (int)n : INT_MAX, 0);
  for (int64_t i = 0; i < n; i++) {
    push_list(L, t, dim + 1, p + i * t->strides[dim] * es);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

static int m_tolist(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  check_readable(L, t);
  push_list(L, t, 0, lt_data(t));
  return 1;
}

/* t:item() -- the one element; t:get(i, j, ...) -- the element at an index, no allocation. */
static int m_item(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  check_readable(L, t);
  if (lt_numel(t) != 1)
    return luaL_error(L, "a tensor with %I elements cannot be converted to a Lua value",
                      (lua_Integer)lt_numel(t));
  int64_t zero[LT_MAX_NDIM] = {0};
  push_element(L, t->dtype, element_at(t, zero));
  return 1;
}

/* The address of the element named by the ndim integer arguments from arg on. */
static char *index_args(lua_State *L, const lt_tensor *t, int arg) {
  int64_t off = 0;
  for (int d = 0; d < t->ndim; d++) {
    int isnum;
    lua_Integer i = lua_tointegerx(L, arg + d, &isnum);
    int64_t n = t->shape[d];
    if (!isnum) check_int(L, arg + d, "index");
    if (i < 0) i += n + 1;
    if (i < 1 || i > n) norm_index(L, lua_tointeger(L, arg + d), n, d);
    off += (i - 1) * t->strides[d];
  }
  return lt_data(t) + off * (int64_t)lt_esize(t);
}

static int m_get(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int nidx = lua_gettop(L) - 1;
  if (nidx != t->ndim)
    return luaL_error(L, "get: expected %d indices for a %d-d tensor, got %d", t->ndim, t->ndim,
                      nidx);
  char *p = index_args(L, t, 2);
  if (!lt_readable(t)) check_readable(L, t);
  push_element(L, t->dtype, p);
  return 1;
}

static int m_set(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int nidx = lua_gettop(L) - 2;
  if (nidx != t->ndim)
    return luaL_error(L, "set: expected %d indices and a value for a %d-d tensor, got %d indices",
                      t->ndim, t->ndim, nidx < 0 ? 0 : nidx);
  if (t->readonly || t->storage->shared || !lt_readable(t)) prepare_write(L, t);
  char *p = index_args(L, t, 2);
  store_value(L, lua_gettop(L), t->dtype, p);
  return 0;
}

static int m_bytes(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  check_readable(L, t);
  size_t n = (size_t)lt_numel(t) * lt_esize(t);
  if (lt_is_contiguous(t)) {
    lua_pushlstring(L, n ? lt_data(t) : "", n);
    return 1;
  }
  lt_tensor *c = copy_as(L, t, t->dtype);
  lua_pushlstring(L, lt_data(c), n);
  return 1;
}

/* t:clone(): copy-on-write; shares t's block until either side writes. */
static int m_clone(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_clone_lazy(t, &ud->t, &err), err);
  if (ud->t->storage != t->storage && ud->t->storage->block != t->storage->block)
    ltl_account(L, (size_t)lt_numel(t) * lt_esize(t)); /* it was an eager copy */
  return 1;
}

static int m_contiguous(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (lt_is_contiguous(t)) {
    lua_settop(L, 1);
    return 1;
  }
  copy_as(L, t, t->dtype);
  return 1;
}

static int m_to(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_dtype dt = check_dtype(L, 2);
  if (dt == t->dtype) {
    lua_settop(L, 1);
    return 1;
  }
  copy_as(L, t, dt);
  return 1;
}

static int m_copy_(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  luaL_checkany(L, 2);
  lt_frame f;
  assign(L, lt_frame_of(&f, t), 2);
  lua_settop(L, 1);
  return 1;
}

static int m_fill_(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_scalar s;
  if (!to_scalar(L, 2, t->dtype, &s)) return luaL_typeerror(L, 2, "number or boolean");
  lt_error err;
  CHECK_RC(L, lt_fill(t, &s, &err), err);
  lua_settop(L, 1);
  return 1;
}

static int m_zero_(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_scalar s = {LT_SK_INT, {.i = 0}, 0};
  lt_error err;
  CHECK_RC(L, lt_fill(t, &s, &err), err);
  lua_settop(L, 1);
  return 1;
}

static int reshape_like(lua_State *L, int copy_ok) {
  lt_tensor *t = ltl_check(L, 1);
  int64_t shape[LT_MAX_NDIM];
  int next;
  int ndim = check_sizes(L, 2, shape, 1, &next);
  luaL_argcheck(L, lua_isnone(L, next), next, "integer size expected");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  int copied = 0;
  int rc = copy_ok ? lt_reshape(t, ndim, shape, &ud->t, &copied, &err)
                   : lt_view(t, ndim, shape, &ud->t, &err);
  CHECK_RC(L, rc, err);
  if (copied) ltl_account(L, lt_numel(t) * lt_esize(t));
  return 1;
}
static int m_view(lua_State *L) { return reshape_like(L, 0); }
static int m_reshape(lua_State *L) { return reshape_like(L, 1); }

static int m_transpose(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d0 = check_dim(L, 2, t->ndim), d1 = check_dim(L, 3, t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_transpose(t, d0, d1, &ud->t, &err), err);
  return 1;
}

static int m_permute(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int perm[LT_MAX_NDIM], n = 0;
  if (lua_type(L, 2) == LUA_TTABLE) { /* permute({3, 1, 2}): unpack onto the stack */
    lua_Unsigned len = lua_rawlen(L, 2);
    luaL_argcheck(L, len <= LT_MAX_NDIM, 2, "too many dims");
    luaL_checkstack(L, (int)len, NULL);
    for (lua_Unsigned i = 1; i <= len; i++) lua_rawgeti(L, 2, (lua_Integer)i);
    lua_remove(L, 2);
  }
  int top = lua_gettop(L);
  if (top - 1 != t->ndim)
    return luaL_error(L, "permute: expected %d dims, got %d", t->ndim, top - 1);
  for (int a = 2; a <= top; a++) perm[n++] = check_dim(L, a, t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_permute(t, perm, &ud->t, &err), err);
  return 1;
}

static int m_narrow(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = check_dim(L, 2, t->ndim);
  lua_Integer start = check_int(L, 3, "start"), len = check_int(L, 4, "length");
  lua_Integer n = (lua_Integer)t->shape[d];
  luaL_argcheck(L, len >= 0, 4, "length must be non-negative");
  if (start < 0) start += n + 1;
  if (start < 1 || start > n + 1)
    return luaL_argerror(L, 3,
                         lua_pushfstring(L, "start %I out of range for dim %d of size %I",
                                         lua_tointeger(L, 3), d + 1, n));
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_narrow(t, d, start - 1, len, &ud->t, &err), err);
  return 1;
}

static int m_select(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = check_dim(L, 2, t->ndim);
  int64_t i = norm_index(L, check_int(L, 3, "index"), t->shape[d], d);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_select(t, d, i, &ud->t, &err), err);
  return 1;
}

static int m_unsqueeze(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = check_dim(L, 2, t->ndim + 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_unsqueeze(t, d, &ud->t, &err), err);
  return 1;
}

static int m_squeeze(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = lua_isnoneornil(L, 2) ? -1 : check_dim(L, 2, t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_squeeze(t, d, &ud->t, &err), err);
  return 1;
}

static int m_flatten(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int nd = t->ndim > 0 ? t->ndim : 1;
  int s = lua_isnoneornil(L, 2) ? 0 : check_dim(L, 2, nd);
  int e = lua_isnoneornil(L, 3) ? nd - 1 : check_dim(L, 3, nd);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_flatten(t, s, e, &ud->t, &err), err);
  return 1;
}

static int m_expand(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int64_t sizes[LT_MAX_NDIM];
  int next;
  int n = check_sizes(L, 2, sizes, 1, &next);
  luaL_argcheck(L, lua_isnone(L, next), next, "integer size expected");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  CHECK_RC(L, lt_expand(t, n, sizes, &ud->t, &err), err);
  return 1;
}

/* }====== */

/* {====== properties and metamethods ====== */

static int p_shape(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  push_dims(L, t->ndim, t->shape);
  return 1;
}

static int p_dtype(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->dtype == LT_OPAQUE)
    lua_pushfstring(L, "dlpack(code=%d,bits=%d,lanes=%d)", t->dl_dtype.code, t->dl_dtype.bits,
                    t->dl_dtype.lanes);
  else
    lua_pushstring(L, lt_dtypes[t->dtype].name);
  return 1;
}

static int p_ndim(lua_State *L) { return m_dim(L); }

static int p_device(lua_State *L) {
  char buf[32];
  lt_device_str(ltl_check(L, 1)->storage->device, buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

static int t_len(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim == 0) return luaL_error(L, "len() of a 0-d tensor");
  lua_pushinteger(L, (lua_Integer)t->shape[0]);
  return 1;
}

void ltl_release_ud(ltl_ud *ud) {
  if (ud && ud->t) {
    lt_tensor *t = ud->t;
    ud->t = NULL; /* before the free: a finalizer running again sees a released tensor */
    lt_tensor_free(t);
  }
}

/* __gc and __close: drop this userdata's reference; later uses raise. */
static int t_gc(lua_State *L) {
  ltl_release_ud(ltl_testud(L, 1));
  return 0;
}

static const luaL_Reg methods[] = {
    {"size", m_size},
    {"stride", m_stride},
    {"numel", m_numel},
    {"dim", m_dim},
    {"is_contiguous", m_is_contiguous},
    {"element_size", m_element_size},
    {"nbytes", m_nbytes},
    {"storage_offset", m_storage_offset},
    {"data_ptr", m_data_ptr},
    {"const_data_ptr", m_const_data_ptr},
    {"is_read_only", m_is_read_only},
    {"tolist", m_tolist},
    {"item", m_item},
    {"get", m_get},
    {"set", m_set},
    {"bytes", m_bytes},
    {"clone", m_clone},
    {"contiguous", m_contiguous},
    {"to", m_to},
    {"copy_", m_copy_},
    {"fill_", m_fill_},
    {"zero_", m_zero_},
    {"view", m_view},
    {"reshape", m_reshape},
    {"transpose", m_transpose},
    {"permute", m_permute},
    {"narrow", m_narrow},
    {"select", m_select},
    {"unsqueeze", m_unsqueeze},
    {"squeeze", m_squeeze},
    {"flatten", m_flatten},
    {"expand", m_expand},
    {NULL, NULL},
};

static const luaL_Reg properties[] = {
    {"shape", p_shape}, {"dtype", p_dtype}, {"ndim", p_ndim}, {"device", p_device}, {NULL, NULL},
};

static const luaL_Reg metameth[] = {
    {"__newindex", t_newindex}, {"__len", t_len}, {"__gc", t_gc}, {"__close", t_gc}, {NULL, NULL},
};

static const luaL_Reg funcs[] = {
    {"tensor", lt_tensor_fn},
    {"empty", lt_empty},
    {"zeros", lt_zeros},
    {"ones", lt_ones},
    {"full", lt_full},
    {"arange", f_arange},
    {"from_bytes", lt_from_bytes},
    {"is_tensor", lt_is_tensor},
    {"_readable", lt_readable_fn},
    {NULL, NULL},
};

/* }====== */

LUAMOD_API int luaopen_ltensor_core(lua_State *L) {
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
  if (luaL_newmetatable(L, LTL_TENSOR_NAME) || !complete) { /* mt */
    lua_pushlightuserdata(L, (void *)&ltl_tensor_key);      /* which copy made it */
    lua_setfield(L, -2, "__ltensor_copy");
    luaL_setfuncs(L, metameth, 0);
    lua_pushliteral(L, LTL_TENSOR_NAME); /* getmetatable(t) gives the type name */
    lua_setfield(L, -2, "__metatable");
    lua_pushlightuserdata(L, (void *)ltensor_exchange());
    lua_setfield(L, -2, "__dlpack_c_exchange_api");
    luaL_newlib(L, methods);    /* mt methods */
    luaL_newlib(L, properties); /* mt methods props */
    lua_pushcclosure(L, t_index, 2);
    lua_setfield(L, -2, "__index");
  }
  /* mt */
  luaL_newlib(L, funcs); /* mt M */
  lua_getfield(L, -2, "__index");
  lua_getupvalue(L, -1, 1); /* mt M __index methods */
  ltl_open_dlpack(L, -1, -3);
  ltl_open_wrapper(L, -3);
  ltl_open_math(L, -4, -1, -3);
  lua_setfield(L, -3, "_methods");
  lua_pop(L, 1);
  if (!complete) { /* the bookkeeping userdata: its user values are the metatables */
    ltl_state *st = lua_newuserdatauv(L, sizeof(ltl_state), LTL_MT_COUNT);
    st->fresh = 0;
    lua_pushvalue(L, -3);
    lua_setiuservalue(L, -2, LTL_MT_TENSOR);
    for (int i = 0; i < 4; i++) { /* made by ltl_open_dlpack */
      luaL_getmetatable(L, ltl_capsule_names[i]);
      lua_setiuservalue(L, -2, LTL_MT_CAPSULE + i);
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ltl_tensor_key);
  }
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "_metatable"); /* for the Lua layer (__tostring) */
  for (int i = 0; i < LT_NDTYPES; i++) {
    lua_pushstring(L, lt_dtypes[i].name);
    lua_setfield(L, -2, lt_dtypes[i].name);
  }
  return 1;
}
