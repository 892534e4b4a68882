/*
 * lua_tensor.c -- the tensor of ltensor.core in Lua: the constructors (lt.tensor, empty, zeros,
 * ones, full, arange, from_bytes, is_tensor), the methods that describe, convert, copy and view
 * a tensor, its properties (shape, dtype, ndim, device, T), __gc / __close, and __lt / __le,
 * which refuse (pointing to t:lt(x) and t:le(x): Lua makes a comparison's result a boolean).
 *
 * Argument handling only: views, copies and fills are the core's. Indexing (__index, get/set,
 * copy_) is lua_index.c's, math lua_math.c's. Read only by lua_init.c (ltl_part_tensor);
 * calls the base (lua_ud.h) and the core.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lt_checked.h"
#include "lt_copy.h"
#include "lt_shape.h"
#include "lua_dlpack.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== constructors ====== */

/* Pushes a contiguous copy of t converted to dt. */
static lt_tensor *copy_as(lua_State *L, const lt_tensor *t, lt_dtype dt) {
  ltl_check_readable(L, t);
  lt_tensor *c = ltl_push_new(L, dt, t->ndim, t->shape, 0);
  lt_error err;
  LTL_CHECK(L, lt_copy(c, t, &err), err);
  return c;
}

/* lt.tensor(data [, dtype]): always a copy, as torch.tensor; a capsule or an object with
   __dlpack is copied through DLPack. */
static int lt_tensor_fn(lua_State *L) {
  lt_dtype dt = ltl_opt_dtype(L, 2, LT_NDTYPES);
  lt_scalar s;
  if (!ltl_testud(L, 1) && ltl_dlpack_import_any(L, 1)) {
    lt_tensor *t = ltl_check(L, -1);
    copy_as(L, t, dt == LT_NDTYPES ? t->dtype : dt);
    return 1;
  }
  switch (lua_type(L, 1)) {
    case LUA_TTABLE: ltl_from_table(L, 1, dt); return 1;
    case LUA_TNUMBER:
    case LUA_TBOOLEAN: {
      ltl_to_scalar(L, 1, LT_FLOAT64, &s);
      if (dt == LT_NDTYPES)
        dt = lua_isboolean(L, 1) ? LT_BOOL : lua_isinteger(L, 1) ? LT_INT64 : LT_FLOAT32;
      lt_tensor *t = ltl_push_new(L, dt, 0, NULL, 0);
      if (lt_store(dt, lt_data(t), &s) != LT_STORE_OK) ltl_scalar_error(L, &s, dt);
      return 1;
    }
    default: {
      ltl_ud *ud = ltl_testud(L, 1);
      if (!ud) return luaL_typeerror(L, 1, "number, boolean, table or tensor");
      if (!ud->t) return ltl_released(L);
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
  int ndim = ltl_check_sizes(L, 1, shape, 0, &next);
  lt_dtype dt = ltl_opt_dtype(L, next, LT_FLOAT32);
  lt_tensor *t = ltl_push_new(L, dt, ndim, shape, how != 'e');
  if (how == '1') {
    lt_scalar one = {LT_SK_INT, {.i = 1}, 0};
    lt_error err;
    LTL_CHECK(L, lt_fill(t, &one, &err), err);
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
    ndim = ltl_check_sizes(L, 1, shape, 0, &next);
  } else {
    lua_Integer n = ltl_check_int(L, 1, "size");
    luaL_argcheck(L, n >= 0, 1, "size is negative");
    shape[0] = n;
    ndim = 1;
  }
  lt_dtype def = lua_isboolean(L, 2)   ? LT_BOOL
                 : lua_isinteger(L, 2) ? LT_INT64
                 : lua_istable(L, 2)   ? LT_COMPLEX64
                                       : LT_FLOAT32;
  lt_dtype dt = ltl_opt_dtype(L, 3, def);
  lt_scalar s;
  if (!ltl_to_scalar(L, 2, dt, &s))
    luaL_typeerror(L, 2, lt_dtypes[dt].is_complex ? "number or {re, im}" : "number or boolean");
  lt_tensor *t = ltl_push_new(L, dt, ndim, shape, 0);
  lt_error err;
  LTL_CHECK(L, lt_fill(t, &s, &err), err);
  return 1;
}

/* lt.arange([start,] stop [, step] [, dtype]): half-open, as torch.arange. Integer arithmetic
   when every number is an integer, else double (the core's lt_arange). */
static int f_arange(lua_State *L) {
  int nargs = lua_gettop(L), nnum = 0, isfloat = 0;
  while (nnum < nargs && lua_type(L, nnum + 1) == LUA_TNUMBER) {
    if (!lua_isinteger(L, nnum + 1)) isfloat = 1;
    nnum++;
  }
  if (nnum == 0) return luaL_typeerror(L, 1, "number");
  if (nnum > 3) return luaL_argerror(L, 4, "at most start, stop and step");
  lt_dtype dt = ltl_opt_dtype(L, nnum + 1, isfloat ? LT_FLOAT32 : LT_INT64);
  /* the arguments holding start, stop and step (0: the default, 0 or 1); one number is stop */
  int pos[3] = {nnum >= 2 ? 1 : 0, nnum >= 2 ? 2 : 1, nnum == 3 ? 3 : 0};
  lt_scalar v[3];
  for (int i = 0; i < 3; i++) {
    lua_Integer def = i == 2;
    if (isfloat)
      v[i] = (lt_scalar){LT_SK_FLOAT, {.f = pos[i] ? lua_tonumber(L, pos[i]) : (double)def}, 0};
    else
      v[i] = (lt_scalar){LT_SK_INT, {.i = pos[i] ? lua_tointeger(L, pos[i]) : def}, 0};
  }
  ltl_ud *ud = ltl_newud(L);
  lt_error err;
  if (lt_arange(dt, &v[0], &v[1], &v[2], &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

/* lt.from_bytes(string, dtype [, shape]): a copy of the raw bytes. The shape is a table or the
   sizes as arguments (one -1 inferred); without one, the tensor is 1-d. Nothing may follow. */
static int lt_from_bytes(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lt_dtype dt = ltl_check_dtype(L, 2);
  size_t es = lt_dtypes[dt].size;
  if (len % es != 0)
    return luaL_argerror(
        L, 1,
        lua_pushfstring(L, "%I bytes is not a multiple of the %s element size (%d)",
                        (lua_Integer)len, lt_dtypes[dt].name, (int)es));
  int64_t n = (int64_t)(len / es), shape[LT_MAX_NDIM];
  int ndim = 1, next = 3;
  shape[0] = n;
  int ty = lua_type(L, 3);
  if (ty == LUA_TTABLE || ty == LUA_TNUMBER)
    ndim = ltl_check_sizes(L, 3, shape, 1, &next);
  else if (ty != LUA_TNONE && ty != LUA_TNIL)
    return luaL_typeerror(L, 3, "shape (table or integers)");
  for (int i = next; i <= lua_gettop(L); i++)
    if (!lua_isnil(L, i))
      return luaL_argerror(
          L, i, lua_pushfstring(L, "no more arguments expected, got %s", luaL_typename(L, i)));
  if (ty == LUA_TTABLE || ty == LUA_TNUMBER) {
    int64_t known = 1;
    int infer = 0;
    for (int i = 0; i < ndim; i++) {
      if (shape[i] == -1)
        infer++;
      else if (known != 0 && lt_mul_overflow(known, shape[i], &known))
        known = -1; /* more than any string holds */
    }
    if (known < 0) return luaL_argerror(L, 3, "shape has too many elements (overflow)");
    if (infer == 0 && known != n)
      return luaL_argerror(
          L, 3,
          lua_pushfstring(L, "shape has %I elements but the string holds %I (%I bytes of %s)",
                          (lua_Integer)known, (lua_Integer)n, (lua_Integer)len,
                          lt_dtypes[dt].name));
    if (infer == 1 && (known == 0 || n % known != 0))
      return luaL_argerror(
          L, 3,
          lua_pushfstring(L,
                          "cannot infer -1: the other sizes make %I elements, the string holds "
                          "%I (%I bytes of %s)",
                          (lua_Integer)known, (lua_Integer)n, (lua_Integer)len,
                          lt_dtypes[dt].name));
    lt_error err;
    /* resolves -1 (and refuses two of them) through a view of a flat tensor */
    lt_tensor *flat = ltl_push_new(L, dt, 1, &n, 0);
    if (len) memcpy(lt_data(flat), s, len);
    ltl_ud *ud = ltl_newud(L);
    LTL_CHECK(L, lt_view(flat, ndim, shape, &ud->t, &err), err);
    return 1;
  }
  lt_tensor *t = ltl_push_new(L, dt, ndim, shape, 0);
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

/* {====== methods ====== */

static void push_dims(lua_State *L, int n, const int64_t *a) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)a[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* t:size([d]) / t:stride([d]): every dim as a table, or dim d's */
static int dims_or_one(lua_State *L, int strides) {
  lt_tensor *t = ltl_check(L, 1);
  const int64_t *a = strides ? t->strides : t->shape;
  if (lua_isnoneornil(L, 2))
    push_dims(L, t->ndim, a);
  else
    lua_pushinteger(L, (lua_Integer)a[ltl_check_dim(L, 2, t->ndim)]);
  return 1;
}
static int m_size(lua_State *L) { return dims_or_one(L, 0); }
static int m_stride(lua_State *L) { return dims_or_one(L, 1); }

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
  lt_error err;
  if (lt_tensor_pin(t, &err)) return ltl_raise(L, &err);
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
    ltl_push_element(L, t->dtype, p);
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
  ltl_check_readable(L, t);
  push_list(L, t, 0, lt_data(t));
  return 1;
}

/* Address of the element at 0-based index idx[0..ndim). */
static char *element_at(const lt_tensor *t, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->ndim; i++) off += idx[i] * t->strides[i];
  return lt_data(t) + off * (int64_t)lt_esize(t);
}

/* t:item(): the one element. */
static int m_item(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  ltl_check_readable(L, t);
  if (lt_numel(t) != 1)
    return ltl_error(L, "a tensor with %I elements cannot be converted to a Lua value",
                     (lua_Integer)lt_numel(t));
  int64_t zero[LT_MAX_NDIM] = {0};
  ltl_push_element(L, t->dtype, element_at(t, zero));
  return 1;
}

static int m_bytes(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  ltl_check_readable(L, t);
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
  LTL_CHECK(L, lt_clone_lazy(t, &ud->t, &err), err);
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

/* t:to(dtype [, non_blocking [, copy]]), torch's order: t itself when it has the dtype, unless
   copy asks for a new tensor (non_blocking means nothing on the CPU: a copy is complete). */
static int m_to(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_dtype dt = ltl_check_dtype(L, 2);
  (void)ltl_opt_bool(L, 3, 0, "non_blocking");
  int copy = ltl_opt_bool(L, 4, 0, "copy");
  if (dt == t->dtype && !copy) {
    lua_settop(L, 1);
    return 1;
  }
  copy_as(L, t, dt);
  return 1;
}

static int m_fill_(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_scalar s;
  if (!ltl_to_scalar(L, 2, t->dtype, &s)) return luaL_typeerror(L, 2, "number or boolean");
  lt_error err;
  LTL_CHECK(L, lt_fill(t, &s, &err), err);
  lua_settop(L, 1);
  return 1;
}

static int m_zero_(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_scalar s = {LT_SK_INT, {.i = 0}, 0};
  lt_error err;
  LTL_CHECK(L, lt_fill(t, &s, &err), err);
  lua_settop(L, 1);
  return 1;
}

static int reshape_like(lua_State *L, int copy_ok) {
  lt_tensor *t = ltl_check(L, 1);
  int64_t shape[LT_MAX_NDIM];
  int next;
  int ndim = ltl_check_sizes(L, 2, shape, 1, &next);
  luaL_argcheck(L, lua_isnone(L, next), next, "integer size expected");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  int copied = 0;
  int rc = copy_ok ? lt_reshape(t, ndim, shape, &ud->t, &copied, &err)
                   : lt_view(t, ndim, shape, &ud->t, &err);
  LTL_CHECK(L, rc, err);
  return 1;
}
/* t:view(shape) or t:view(dtype): the same bytes read as another dtype (lt_view_dtype). */
static int m_view(lua_State *L) {
  if (lua_type(L, 2) != LUA_TSTRING) return reshape_like(L, 0);
  lt_tensor *t = ltl_check(L, 1);
  lt_dtype dt = ltl_check_dtype(L, 2);
  luaL_argcheck(L, lua_isnone(L, 3), 3, "no more arguments expected after a dtype");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_view_dtype(t, dt, &ud->t, &err), err);
  return 1;
}
static int m_reshape(lua_State *L) { return reshape_like(L, 1); }

static int m_transpose(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d0 = ltl_check_dim(L, 2, t->ndim), d1 = ltl_check_dim(L, 3, t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_transpose(t, d0, d1, &ud->t, &err), err);
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
  for (int a = 2; a <= top; a++) perm[n++] = ltl_check_dim(L, a, t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_permute(t, perm, &ud->t, &err), err);
  return 1;
}

static int m_narrow(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = ltl_check_dim(L, 2, t->ndim);
  lua_Integer start = ltl_check_int(L, 3, "start"), len = ltl_check_int(L, 4, "length");
  lua_Integer n = (lua_Integer)t->shape[d];
  luaL_argcheck(L, len >= 0, 4, "length must be non-negative");
  if (start < 0) start += n + 1;
  if (start < 1 || start > n + 1)
    return luaL_argerror(L, 3,
                         lua_pushfstring(L, "start %I out of range for dim %d of size %I",
                                         lua_tointeger(L, 3), d + 1, n));
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_narrow(t, d, start - 1, len, &ud->t, &err), err);
  return 1;
}

static int m_select(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = ltl_check_dim(L, 2, t->ndim);
  int64_t i = ltl_norm_index(L, ltl_check_int(L, 3, "index"), t->shape[d], d);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_select(t, d, i, &ud->t, &err), err);
  return 1;
}

static int m_unsqueeze(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = ltl_check_dim(L, 2, t->ndim + 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_unsqueeze(t, d, &ud->t, &err), err);
  return 1;
}

static int m_squeeze(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = lua_isnoneornil(L, 2) ? -1 : ltl_check_dim(L, 2, t->ndim);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_squeeze(t, d, &ud->t, &err), err);
  return 1;
}

static int m_flatten(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int nd = t->ndim > 0 ? t->ndim : 1;
  int s = lua_isnoneornil(L, 2) ? 0 : ltl_check_dim(L, 2, nd);
  int e = lua_isnoneornil(L, 3) ? nd - 1 : ltl_check_dim(L, 3, nd);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_flatten(t, s, e, &ud->t, &err), err);
  return 1;
}

static int m_expand(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int64_t sizes[LT_MAX_NDIM];
  int next;
  int n = ltl_check_sizes(L, 2, sizes, 1, &next);
  luaL_argcheck(L, lua_isnone(L, next), next, "integer size expected");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_expand(t, n, sizes, &ud->t, &err), err);
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
  if (t->dtype == LT_OPAQUE && lt_dl_name(t->dl_dtype))
    lua_pushstring(L, lt_dl_name(t->dl_dtype));
  else if (t->dtype == LT_OPAQUE)
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

/* __gc and __close: drop this userdata's reference; later uses raise. */
static int t_gc(lua_State *L) {
  ltl_release_ud(ltl_testud(L, 1));
  return 0;
}

static int t_close(lua_State *L) {
  ltl_close_ud(L, 1);
  return 0;
}

/* t.T: the dims reversed, a view (on 0-d and 1-d the tensor itself, as a view), as torch. */
static int p_T(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int perm[LT_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) perm[d] = t->ndim - 1 - d;
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_permute(t, perm, &ud->t, &err), err);
  return 1;
}

/* __lt and __le: Lua turns what they return into a boolean, so `t < x` cannot be elementwise;
   the message names the method that is. Lua calls __lt(x, t) for both x < t and t > x: either
   reads t:gt(x). */
static int compare_error(lua_State *L, const char *op, const char *m, const char *flipped) {
  return luaL_error(L,
                    "tensors cannot be compared elementwise with %s (Lua makes the result a "
                    "boolean): use t:%s(x)",
                    op, ltl_testud(L, 1) ? m : flipped);
}
static int t_lt(lua_State *L) { return compare_error(L, "'<' or '>'", "lt", "gt"); }
static int t_le(lua_State *L) { return compare_error(L, "'<=' or '>='", "le", "ge"); }

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
    {"bytes", m_bytes},
    {"clone", m_clone},
    {"contiguous", m_contiguous},
    {"to", m_to},
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

static const luaL_Reg properties[] = {{"shape", p_shape},   {"dtype", p_dtype}, {"ndim", p_ndim},
                                      {"device", p_device}, {"T", p_T},         {NULL, NULL}};

static const luaL_Reg metameth[] = {
    {"__gc", t_gc}, {"__close", t_close}, {"__lt", t_lt}, {"__le", t_le}, {NULL, NULL}};

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

const ltl_part ltl_part_tensor = {metameth, methods, properties, funcs, NULL};
