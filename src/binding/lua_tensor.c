/*
 * lua_tensor.c -- the tensor of ltensor.core in Lua: the constructors (lt.tensor, empty, zeros,
 * ones, full, arange, from_bytes, is_tensor), the methods that describe, convert (to, and
 * torch's shorthands float, double, ... as closures over a dtype), copy and view a tensor (those
 * torch also has as torch.X are lt.X too: forms), its properties (shape, dtype, ndim, device,
 * T), __gc / __close, and __lt / __le, which refuse (pointing to t:lt(x) and t:le(x): Lua makes
 * a comparison's result a boolean).
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
static lt_tensor *copy_as(lua_State *L, const lt_tensor *t, lt_dtype dt, const char *fname) {
  ltl_check_readable(L, t);
  lt_tensor *c = ltl_push_new(L, dt, t->ndim, t->shape, 0);
  lt_error err;
  if (lt_copy(c, t, &err)) ltl_fail(L, fname, &err);
  return c;
}

/* lt.tensor(data [, dtype]): always a copy, as torch.tensor; a capsule or an object with
   __dlpack is copied through DLPack. */
static int lt_tensor_fn(lua_State *L) {
  lt_dtype opt;
  ltl_args(L, 0, 2, 1, "tensor");
  ltl_dtype_opts(L, 2, "tensor", &opt);
  lt_dtype dt = ltl_dtype_pick(L, 2, opt, LT_NDTYPES, "tensor");
  lt_scalar s;
  if (!ltl_testud(L, 1) && ltl_dlpack_import_any(L, 1)) {
    lt_tensor *t = ltl_check(L, -1);
    copy_as(L, t, dt == LT_NDTYPES ? t->dtype : dt, "tensor");
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
      copy_as(L, ud->t, dt == LT_NDTYPES ? ud->t->dtype : dt, "tensor");
      return 1;
    }
  }
}

/* lt.empty/zeros/ones(shape [, dtype]): the sizes as one table or as arguments. */
static int make_filled(lua_State *L, int how, const char *fname) {
  int64_t shape[LT_MAX_NDIM];
  int next;
  lt_dtype opt;
  ltl_args(L, 0, LT_MAX_NDIM + 2, 1, fname);
  ltl_dtype_opts(L, 2, fname, &opt);
  if (lua_type(L, 1) != LUA_TTABLE && lua_type(L, 1) != LUA_TNUMBER)
    luaL_typeerror(L, 1, "shape (table or integers)");
  int ndim = ltl_check_sizes(L, 1, shape, 0, &next);
  lt_dtype dt = ltl_dtype_pick(L, next, opt, LT_FLOAT32, fname);
  ltl_args_end(L, 0, next, 1, fname);
  lt_tensor *t = ltl_push_new(L, dt, ndim, shape, how != 'e');
  if (how == '1') {
    lt_scalar one = {LT_SK_INT, {.i = 1}, 0};
    lt_error err;
    if (lt_fill(t, &one, &err)) ltl_fail(L, fname, &err);
  }
  return 1;
}
static int lt_empty(lua_State *L) { return make_filled(L, 'e', "empty"); }
static int lt_zeros(lua_State *L) { return make_filled(L, '0', "zeros"); }
static int lt_ones(lua_State *L) { return make_filled(L, '1', "ones"); }

/* lt.full(shape, value [, dtype]): shape a table or the size of a 1-d tensor. */
static int lt_full(lua_State *L) {
  int64_t shape[LT_MAX_NDIM];
  int next, ndim;
  lt_dtype opt;
  ltl_args(L, 0, 3, 1, "full");
  ltl_dtype_opts(L, 3, "full", &opt);
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
  lt_dtype dt = ltl_dtype_pick(L, 3, opt, def, "full");
  lt_scalar s;
  if (!ltl_to_scalar(L, 2, dt, &s))
    luaL_typeerror(L, 2, lt_dtypes[dt].is_complex ? "number or {re, im}" : "number or boolean");
  lt_tensor *t = ltl_push_new(L, dt, ndim, shape, 0);
  lt_error err;
  if (lt_fill(t, &s, &err)) ltl_fail(L, "full", &err);
  return 1;
}

/* lt.arange([start,] stop [, step] [, dtype]): half-open, as torch.arange. Integer arithmetic
   when every number is an integer, else double (the core's lt_arange). */
static int f_arange(lua_State *L) {
  int nnum = 0, isfloat = 0;
  lt_dtype opt;
  ltl_args(L, 0, 4, 1, "arange");
  ltl_dtype_opts(L, 2, "arange", &opt);
  while (nnum < 3 && lua_type(L, nnum + 1) == LUA_TNUMBER) {
    if (!lua_isinteger(L, nnum + 1)) isfloat = 1;
    nnum++;
  }
  if (nnum == 0) return luaL_typeerror(L, 1, "number");
  lt_dtype dt = ltl_dtype_pick(L, nnum + 1, opt, isfloat ? LT_FLOAT32 : LT_INT64, "arange");
  ltl_args_end(L, 0, nnum + 1, 1, "arange");
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
  lt_error err;
  return ltl_result(L, lt_arange(dt, &v[0], &v[1], &v[2], ltl_out(L), &err), &err, "arange");
}

/* Checks that the shape at arg (ndim sizes, one may be -1) fits the n elements of a string of
   len bytes of dt. */
static void check_bytes_shape(lua_State *L, int arg, const int64_t *shape, int ndim, int64_t n,
                              size_t len, lt_dtype dt) {
  int64_t known = 1;
  int infer = 0;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] == -1)
      infer++;
    else if (known != 0 && lt_mul_overflow(known, shape[i], &known))
      known = -1; /* more than any string holds */
  }
  if (known < 0) luaL_argerror(L, arg, "shape has too many elements (overflow)");
  if (infer == 0 && known != n)
    luaL_argerror(
        L, arg,
        lua_pushfstring(L, "shape has %I elements but the string holds %I (%I bytes of %s)",
                        (lua_Integer)known, (lua_Integer)n, (lua_Integer)len, lt_dtype_name(dt)));
  if (infer == 1 && (known == 0 || n % known != 0))
    luaL_argerror(
        L, arg,
        lua_pushfstring(L,
                        "cannot infer -1: the other sizes make %I elements, the string "
                        "holds %I (%I bytes of %s)",
                        (lua_Integer)known, (lua_Integer)n, (lua_Integer)len, lt_dtype_name(dt)));
}

/* lt.from_bytes(string, dtype [, shape]): a copy of the raw bytes. The shape is a table or the
   sizes as arguments (one -1 inferred); without one, the tensor is 1-d. The dtype may instead
   come as {dtype = ...}, the shape then second. */
static int lt_from_bytes(lua_State *L) {
  size_t len;
  lt_dtype dt;
  ltl_args(L, 0, LT_MAX_NDIM + 3, 1, "from_bytes");
  ltl_dtype_opts(L, 2, "from_bytes", &dt);
  const char *s = luaL_checklstring(L, 1, &len);
  int sarg = 2; /* where the shape begins */
  if (dt == LT_NDTYPES || lua_type(L, 2) == LUA_TSTRING) {
    dt = dt == LT_NDTYPES ? ltl_check_dtype(L, 2) : ltl_dtype_pick(L, 2, dt, dt, "from_bytes");
    sarg = 3;
  }
  size_t es = lt_dtypes[dt].size;
  if (len % es != 0)
    return luaL_argerror(
        L, 1,
        lua_pushfstring(L, "%I bytes is not a multiple of the %s element size (%d)",
                        (lua_Integer)len, lt_dtype_name(dt), (int)es));
  int64_t n = (int64_t)(len / es), shape[LT_MAX_NDIM];
  int ndim = 1, next = sarg, ty = lua_type(L, sarg);
  shape[0] = n;
  if (ty == LUA_TTABLE || ty == LUA_TNUMBER)
    ndim = ltl_check_sizes(L, sarg, shape, 1, &next);
  else if (ty != LUA_TNONE)
    return luaL_typeerror(L, sarg, "shape (table or integers)");
  ltl_args_end(L, 0, next - 1, 1, "from_bytes");
  if (next != sarg) check_bytes_shape(L, sarg, shape, ndim, n, len, dt);
  lt_tensor *flat = ltl_push_new(L, dt, 1, &n, 0);
  if (len) memcpy(lt_data(flat), s, len);
  if (next == sarg) return 1;
  lt_error err; /* resolves -1 (and refuses two of them) through a view of the flat tensor */
  return ltl_result(L, lt_view(flat, ndim, shape, ltl_out(L), &err), &err, "from_bytes");
}

/* core._readable(t): whether tostring may read the elements. */
static int lt_readable_fn(lua_State *L) {
  ltl_args(L, 0, 1, 0, "_readable");
  lua_pushboolean(L, lt_readable(ltl_check(L, 1)));
  return 1;
}

static int lt_is_tensor(lua_State *L) {
  ltl_args(L, 0, 1, 0, "is_tensor");
  lua_pushboolean(L, ltl_testud(L, 1) != NULL);
  return 1;
}

/* }====== */

/* {====== methods ====== */

/* The tensor of a method that takes nothing else. */
static lt_tensor *self_only(lua_State *L, const char *fname) {
  ltl_args(L, 1, 0, 0, fname);
  return ltl_check(L, 1);
}

static void push_dims(lua_State *L, int n, const int64_t *a) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)a[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* t:size([d]) / t:stride([d]): every dim as a table, or dim d's */
static int dims_or_one(lua_State *L, int strides) {
  ltl_args(L, 1, 1, 0, strides ? "stride" : "size");
  lt_tensor *t = ltl_check(L, 1);
  const int64_t *a = strides ? t->strides : t->shape;
  if (lua_isnone(L, 2))
    push_dims(L, t->ndim, a);
  else
    lua_pushinteger(L, (lua_Integer)a[ltl_check_dim(L, 2, t->ndim)]);
  return 1;
}
static int m_size(lua_State *L) { return dims_or_one(L, 0); }
static int m_stride(lua_State *L) { return dims_or_one(L, 1); }

static int m_numel(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)lt_numel(self_only(L, "numel")));
  return 1;
}

static int m_dim(lua_State *L) {
  lua_pushinteger(L, self_only(L, "dim")->ndim);
  return 1;
}

static int m_is_contiguous(lua_State *L) {
  lua_pushboolean(L, lt_is_contiguous(self_only(L, "is_contiguous")));
  return 1;
}

static int m_element_size(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)lt_esize(self_only(L, "element_size")));
  return 1;
}

static int m_nbytes(lua_State *L) {
  int64_t n;
  lt_error err;
  if (lt_nbytes(self_only(L, "nbytes"), &n, &err)) return ltl_fail(L, "nbytes", &err);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

static int m_storage_offset(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)self_only(L, "storage_offset")->offset);
  return 1;
}

/* t:data_ptr(): the address of the first element, writable: a copy-on-write clone gets its own
   block first, and the block is never shared again (the address may be written through). */
static int m_data_ptr(lua_State *L) {
  lt_tensor *t = self_only(L, "data_ptr");
  lt_error err;
  if (lt_tensor_pin(t, &err)) return ltl_fail(L, "data_ptr", &err);
  lua_pushinteger(L, (lua_Integer)(intptr_t)lt_data(t));
  return 1;
}

/* t:const_data_ptr(): the same address for reading; never copies a shared block. */
static int m_const_data_ptr(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)(intptr_t)lt_data(self_only(L, "const_data_ptr")));
  return 1;
}

static int m_is_read_only(lua_State *L) {
  lua_pushboolean(L, self_only(L, "is_read_only")->readonly != LT_WRITABLE);
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
  lt_tensor *t = self_only(L, "tolist");
  ltl_check_readable(L, t);
  push_list(L, t, 0, lt_data(t));
  return 1;
}

/* t:item(): the one element. */
static int m_item(lua_State *L) {
  lt_tensor *t = self_only(L, "item");
  ltl_check_readable(L, t);
  if (lt_numel(t) != 1)
    return ltl_error(L, "item: a tensor with %I elements cannot be converted to a Lua value",
                     (lua_Integer)lt_numel(t));
  ltl_push_element(L, t->dtype, lt_data(t)); /* every index 0 */
  return 1;
}

static int m_bytes(lua_State *L) {
  lt_tensor *t = self_only(L, "bytes");
  ltl_check_readable(L, t);
  size_t n = (size_t)lt_numel(t) * lt_esize(t);
  if (lt_is_contiguous(t)) {
    lua_pushlstring(L, n ? lt_data(t) : "", n);
    return 1;
  }
  lt_tensor *c = copy_as(L, t, t->dtype, "bytes");
  lua_pushlstring(L, lt_data(c), n);
  return 1;
}

/* t:clone(): copy-on-write; shares t's block until either side writes. */
static int m_clone(lua_State *L) {
  lt_tensor *t = self_only(L, "clone");
  lt_error err;
  return ltl_result(L, lt_clone_lazy(t, ltl_out(L), &err), &err, "clone");
}

/* t itself when it already is what a conversion asks for (contiguous, a dtype), else a copy. */
static int self_or_copy(lua_State *L, lt_tensor *t, int same, lt_dtype dt, const char *fname) {
  if (same) {
    lua_settop(L, 1);
    return 1;
  }
  copy_as(L, t, dt, fname);
  return 1;
}

static int m_contiguous(lua_State *L) {
  lt_tensor *t = self_only(L, "contiguous");
  return self_or_copy(L, t, lt_is_contiguous(t), t->dtype, "contiguous");
}

/* t:to(dtype [, non_blocking [, copy]]), torch's order, or t:to(other) (other's dtype); the
   same as options {dtype, non_blocking, copy}: t itself when it has the dtype, unless copy asks
   for a new tensor (non_blocking means nothing on the CPU: a copy is complete). */
static int m_to(lua_State *L) {
  static const char *const keys[] = {"dtype", "non_blocking", "copy"};
  ltl_args(L, 1, 3, 1, "to");
  int last = ltl_opts(L, 2, "to", keys, 3), o = lua_gettop(L) - 2;
  lt_dtype opt = ltl_dtype_option(L, o, "to", LT_NDTYPES);
  int copy = ltl_bool_option(L, o + 2, 0, "to", "copy");
  (void)ltl_bool_option(L, o + 1, 0, "to", "non_blocking");
  lua_settop(L, last);
  lt_tensor *t = ltl_check(L, 1);
  lt_dtype dt = opt;
  if (opt != LT_NDTYPES) {
    dt = ltl_dtype_pick(L, 2, opt, opt, "to"); /* raises when argument 2 gives one too */
  } else if (ltl_testud(L, 2)) {               /* t:to(other): other's dtype */
    dt = ltl_check(L, 2)->dtype;
    if (dt == LT_OPAQUE) return luaL_argerror(L, 2, "tensor of a type ltensor cannot compute with");
  } else {
    dt = ltl_check_dtype(L, 2);
  }
  (void)ltl_opt_bool(L, 3, 0, "non_blocking");
  copy = ltl_opt_bool(L, 4, copy, "copy");
  return self_or_copy(L, t, dt == t->dtype && !copy, dt, "to");
}

/* t:float(), t:double(), t:half(), ...: t:to(dtype) for the dtype of the name (upvalue 1; its
   name upvalue 2), as torch's shorthands. */
static int m_as(lua_State *L) {
  lt_dtype dt = (lt_dtype)lua_tointeger(L, lua_upvalueindex(1));
  lt_tensor *t = self_only(L, lua_tostring(L, lua_upvalueindex(2)));
  return self_or_copy(L, t, dt == t->dtype, dt, lua_tostring(L, lua_upvalueindex(2)));
}

/* Writes s into every element of the tensor at 1 (fname's), which it returns. */
static int fill_with(lua_State *L, lt_tensor *t, const lt_scalar *s, const char *fname) {
  lt_error err;
  if (lt_fill(t, s, &err)) return ltl_fail(L, fname, &err);
  lua_settop(L, 1);
  return 1;
}

static int m_fill_(lua_State *L) {
  ltl_args(L, 1, 1, 0, "fill_");
  lt_tensor *t = ltl_check(L, 1);
  lt_scalar s;
  if (!ltl_to_scalar(L, 2, t->dtype, &s)) return luaL_typeerror(L, 2, "number or boolean");
  return fill_with(L, t, &s, "fill_");
}

static int m_zero_(lua_State *L) {
  lt_scalar s = {LT_SK_INT, {.i = 0}, 0};
  return fill_with(L, self_only(L, "zero_"), &s, "zero_");
}

/* t:view(sizes), t:reshape(sizes), t:expand(sizes): the sizes as one table or as arguments
   (-1 inferred or kept); copy: may reshape copy. */
static int sized(lua_State *L, int how, const char *fname) {
  ltl_args(L, 1, LT_MAX_NDIM + 1, how == 'v', fname);
  int64_t shape[LT_MAX_NDIM];
  int next;
  lt_tensor *t = ltl_check(L, 1);
  int ndim = ltl_check_sizes(L, 2, shape, 1, &next), copied = 0;
  ltl_args_end(L, 1, next - 1, how == 'v', fname);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  int rc = how == 'r'   ? lt_reshape(t, ndim, shape, out, &copied, &err)
           : how == 'v' ? lt_view(t, ndim, shape, out, &err)
                        : lt_expand(t, ndim, shape, out, &err);
  return ltl_result(L, rc, &err, fname);
}
/* t:view(shape) or t:view(dtype): the same bytes read as another dtype (lt_view_dtype). */
static int m_view(lua_State *L) {
  lt_dtype opt;
  ltl_args(L, 1, LT_MAX_NDIM + 1, 1, "view");
  ltl_dtype_opts(L, 2, "view", &opt);
  if (lua_type(L, 2) != LUA_TSTRING && opt == LT_NDTYPES) return sized(L, 'v', "view");
  lt_tensor *t = ltl_check(L, 1);
  lt_dtype dt = ltl_dtype_pick(L, 2, opt, opt, "view");
  ltl_args_end(L, 1, opt == LT_NDTYPES ? 2 : 1, 1, "view");
  lt_error err;
  return ltl_result(L, lt_view_dtype(t, dt, ltl_out(L), &err), &err, "view");
}
static int m_reshape(lua_State *L) { return sized(L, 'r', "reshape"); }
static int m_expand(lua_State *L) { return sized(L, 'e', "expand"); }

static int m_transpose(lua_State *L) {
  ltl_args(L, 1, 2, 0, "transpose");
  lt_tensor *t = ltl_check(L, 1);
  int d0 = ltl_check_dim(L, 2, t->ndim), d1 = ltl_check_dim(L, 3, t->ndim);
  lt_error err;
  return ltl_result(L, lt_transpose(t, d0, d1, ltl_out(L), &err), &err, "transpose");
}

static int m_permute(lua_State *L) {
  ltl_args(L, 1, LT_MAX_NDIM + 1, 0, "permute");
  lt_tensor *t = ltl_check(L, 1);
  int perm[LT_MAX_NDIM], n = 0;
  if (lua_type(L, 2) == LUA_TTABLE) { /* permute({3, 1, 2}): unpack onto the stack */
    ltl_args_end(L, 1, 2, 0, "permute");
    lua_Unsigned len = lua_rawlen(L, 2);
    luaL_argcheck(L, len <= LT_MAX_NDIM, 2, "too many dims");
    luaL_checkstack(L, (int)len, NULL);
    for (lua_Unsigned i = 1; i <= len; i++) lua_rawgeti(L, 2, (lua_Integer)i);
    lua_remove(L, 2);
  }
  int top = lua_gettop(L);
  if (top - 1 != t->ndim)
    return ltl_error(L, "permute: expected %d dims, got %d", t->ndim, top - 1);
  for (int a = 2; a <= top; a++) perm[n++] = ltl_check_dim(L, a, t->ndim);
  lt_error err;
  return ltl_result(L, lt_permute(t, perm, ltl_out(L), &err), &err, "permute");
}

static int m_narrow(lua_State *L) {
  ltl_args(L, 1, 3, 0, "narrow");
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
  return ltl_result(L, lt_narrow(t, d, start - 1, len, ltl_out(L), &err), &err, "narrow");
}

static int m_select(lua_State *L) {
  ltl_args(L, 1, 2, 0, "select");
  lt_tensor *t = ltl_check(L, 1);
  int d = ltl_check_dim(L, 2, t->ndim);
  int64_t i = ltl_norm_index(L, ltl_check_int(L, 3, "index"), t->shape[d], d);
  lt_error err;
  return ltl_result(L, lt_select(t, d, i, ltl_out(L), &err), &err, "select");
}

static int m_unsqueeze(lua_State *L) {
  ltl_args(L, 1, 1, 0, "unsqueeze");
  lt_tensor *t = ltl_check(L, 1);
  int d = ltl_check_dim(L, 2, t->ndim + 1);
  lt_error err;
  return ltl_result(L, lt_unsqueeze(t, d, ltl_out(L), &err), &err, "unsqueeze");
}

static int m_squeeze(lua_State *L) {
  ltl_args(L, 1, 1, 0, "squeeze");
  lt_tensor *t = ltl_check(L, 1);
  int d = ltl_opt_dim(L, 2, t->ndim, -1);
  lt_error err;
  return ltl_result(L, lt_squeeze(t, d, ltl_out(L), &err), &err, "squeeze");
}

static int m_flatten(lua_State *L) {
  ltl_args(L, 1, 2, 0, "flatten");
  lt_tensor *t = ltl_check(L, 1);
  int nd = t->ndim > 0 ? t->ndim : 1;
  int s = ltl_opt_dim(L, 2, nd, 0), e = ltl_opt_dim(L, 3, nd, nd - 1);
  lt_error err;
  return ltl_result(L, lt_flatten(t, s, e, ltl_out(L), &err), &err, "flatten");
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
    lua_pushstring(L, lt_dtypes[t->dtype].name); /* not opaque here */
  return 1;
}

static int p_ndim(lua_State *L) {
  lua_pushinteger(L, ltl_check(L, 1)->ndim);
  return 1;
}

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
  return ltl_result(L, lt_permute(t, perm, ltl_out(L), &err), &err, "T");
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

/* The methods that are also lt.X, the tensor first, as torch has torch.X. */
static const char *const forms[] = {"clone",   "flatten", "narrow",  "numel",     "permute",
                                    "reshape", "select",  "squeeze", "transpose", "unsqueeze",
                                    "fill_",   "zero_",   NULL};

/* The dtype shorthands, torch's: t:float() is t:to("float32"). */
static const struct {
  const char *name;
  lt_dtype dt;
} shorthands[] = {
    {"float", LT_FLOAT32},     {"double", LT_FLOAT64},   {"half", LT_FLOAT16},
    {"bfloat16", LT_BFLOAT16}, {"long", LT_INT64},       {"int", LT_INT32},
    {"short", LT_INT16},       {"char", LT_INT8},        {"byte", LT_UINT8},
    {"bool", LT_BOOL},         {"cfloat", LT_COMPLEX64}, {"cdouble", LT_COMPLEX128},
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

static void open_tensor(lua_State *L, const ltl_tables *at) {
  for (size_t i = 0; i < sizeof shorthands / sizeof shorthands[0]; i++) {
    lua_pushinteger(L, shorthands[i].dt);
    lua_pushstring(L, shorthands[i].name);
    lua_pushcclosure(L, m_as, 2);
    lua_setfield(L, at->methods, shorthands[i].name);
  }
  ltl_module_forms(L, at->methods, at->module, forms);
}

/* }====== */

const ltl_part ltl_part_tensor = {metameth, methods, properties, funcs, open_tensor};
