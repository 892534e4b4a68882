/*
 * lua_shape.c -- shapes and construction in Lua, with torch 2.x's names and positional order:
 * the methods flip, roll, repeat (a Lua keyword: t["repeat"](t, 2, 3)), tile, split, chunk,
 * unbind, tril, triu, diag, diagonal, trace, broadcast_to (each also lt.X where torch has
 * torch.X), and the constructors lt.eye, linspace, logspace, zeros_like, ones_like, full_like,
 * empty_like, broadcast_to, meshgrid. Dims are 1-based (negative from the end); a sequence of
 * tensors is one Lua table; torch's keyword-only arguments (dtype, indexing) go in a trailing
 * options table (ltl_opts).
 *
 * Argument handling only: every view and copy is the core's (lt_shape.h, lt_tensor.h). Read
 * only by lua_init.c (ltl_part_shape); calls the base (lua_ud.h) and the core.
 */
#include <string.h>

#include "lt_checked.h"
#include "lt_copy.h"
#include "lt_reduce.h"
#include "lt_shape.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The most pieces split, chunk and unbind make (one userdata each, in one table): more is
   refused before the first is made (an expanded dim of 2^40 would fill the Lua heap). */
#define LTL_MAX_PIECES (1 << 24)

/* {====== arguments ====== */

/* A 1-based dim d of a tensor of ndim dims (a 0-d tensor takes 1 and -1), 0-based; raises at
   argument arg. */
static int norm_dim(lua_State *L, lua_Integer d, int ndim, int arg) {
  lua_Integer n = ndim > 0 ? ndim : 1, d0 = d;
  if (d < 0) d += n + 1;
  if (d < 1 || d > n)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "dim %I out of range for a tensor of %d dims", d0, ndim));
  return (int)d - 1;
}

/* Integers given as one table at arg or as the arguments from arg to the top; returns how many
   (at most LT_MAX_NDIM). what names them in messages ("dim", "shift"). */
static int check_ints(lua_State *L, int arg, lua_Integer *out, const char *what) {
  int n = 0;
  if (lua_type(L, arg) == LUA_TTABLE) {
    lua_Unsigned len = lua_rawlen(L, arg);
    if (len > LT_MAX_NDIM)
      luaL_argerror(L, arg, lua_pushfstring(L, "too many %ss (at most %d)", what, LT_MAX_NDIM));
    for (lua_Unsigned i = 1; i <= len; i++) {
      int isnum;
      lua_rawgeti(L, arg, (lua_Integer)i);
      out[n++] = lua_tointegerx(L, -1, &isnum);
      if (!isnum)
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "%s #%d must be an integer, got %s", what, (int)i,
                                      luaL_typename(L, -1)));
      lua_pop(L, 1);
    }
    return n;
  }
  for (int a = arg; a <= lua_gettop(L); a++) {
    if (n >= LT_MAX_NDIM)
      luaL_argerror(L, a, lua_pushfstring(L, "too many %ss (at most %d)", what, LT_MAX_NDIM));
    out[n++] = ltl_check_int(L, a, what);
  }
  return n;
}

/* Dims as check_ints reads them, 0-based for a tensor of ndim dims. */
static int check_dims(lua_State *L, int arg, int ndim, int *dims) {
  lua_Integer v[LT_MAX_NDIM];
  int n = check_ints(L, arg, v, "dim");
  for (int i = 0; i < n; i++) dims[i] = norm_dim(L, v[i], ndim, arg);
  return n;
}

/* The optional integer argument arg, def when none or nil. */
static lua_Integer opt_int(lua_State *L, int arg, lua_Integer def, const char *what) {
  return lua_isnoneornil(L, arg) ? def : ltl_check_int(L, arg, what);
}

/* Raises unless nothing follows argument last. */
static void check_no_more(lua_State *L, int last) {
  for (int i = last + 1; i <= lua_gettop(L); i++)
    if (!lua_isnil(L, i))
      luaL_argerror(L, i,
                    lua_pushfstring(L, "no more arguments expected, got %s", luaL_typename(L, i)));
}

/* One result, the tensor the core made into the userdata on top, or the core's error raised. */
static int pushed(lua_State *L, int rc, const lt_error *err) {
  if (rc) return ltl_raise(L, err);
  return 1;
}

/* }====== */

/* {====== copies ====== */

/* t:flip(dims) -- dims a table or the dims as arguments; a copy. */
static int m_flip(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int dims[LT_MAX_NDIM];
  if (lua_isnoneornil(L, 2)) return luaL_argerror(L, 2, "dims expected (a table or integers)");
  int n = check_dims(L, 2, t->ndim, dims);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  return pushed(L, lt_flip(t, t->ndim ? n : 0, dims, &ud->t, &err), &err);
}

/* t:roll(shifts [, dims]) -- integers or tables of them; without dims the flattened tensor
   rolls and keeps its shape. */
static int m_roll(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lua_settop(L, 3);
  lua_Integer sh[LT_MAX_NDIM];
  int64_t shifts[LT_MAX_NDIM];
  int dims[LT_MAX_NDIM], nd = 0;
  if (lua_isnil(L, 2)) return luaL_argerror(L, 2, "shifts expected (an integer or a table)");
  lua_pushvalue(L, 2); /* check_ints reads to the top: one argument at a time */
  int ns = check_ints(L, 4, sh, "shift");
  lua_settop(L, 3);
  if (!lua_isnil(L, 3)) {
    nd = check_dims(L, 3, t->ndim, dims);
    if (nd != ns)
      return luaL_argerror(
          L, 3, lua_pushfstring(L, "%d dims given for %d shifts (one dim per shift)", nd, ns));
  } else if (ns != 1) {
    return luaL_argerror(L, 2,
                         lua_pushfstring(L, "without dims, one shift is expected, got %d", ns));
  }
  if (ns == 0) return luaL_argerror(L, 2, "at least one shift expected");
  for (int i = 0; i < ns; i++) shifts[i] = sh[i];
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  int flat = nd == 0 || t->ndim == 0;
  return pushed(L, lt_roll(t, flat ? 1 : ns, shifts, flat ? NULL : dims, &ud->t, &err), &err);
}

/* t:repeat(sizes) and t:tile(sizes): sizes a table or integers. tile pads the sizes with
   leading 1s up to the tensor's dims (torch.tile); repeat needs at least that many. */
static int repeat_or_tile(lua_State *L, int tile) {
  lt_tensor *t = ltl_check(L, 1);
  int64_t reps[LT_MAX_NDIM];
  int next;
  int n = ltl_check_sizes(L, 2, reps, 0, &next);
  check_no_more(L, next - 1);
  if (tile && n < t->ndim) {
    int pad = t->ndim - n;
    memmove(reps + pad, reps, (size_t)n * sizeof(int64_t));
    for (int i = 0; i < pad; i++) reps[i] = 1;
    n = t->ndim;
  }
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  return pushed(L, lt_repeat(t, n, reps, &ud->t, &err), &err);
}
static int m_repeat(lua_State *L) { return repeat_or_tile(L, 0); }
static int m_tile(lua_State *L) { return repeat_or_tile(L, 1); }

/* t:tril(diagonal = 0) and t:triu(diagonal = 0): copies. */
static int tri(lua_State *L, int upper) {
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = opt_int(L, 2, 0, "diagonal");
  check_no_more(L, 2);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  return pushed(L, lt_tri(t, k, upper, &ud->t, &err), &err);
}
static int m_tril(lua_State *L) { return tri(L, 0); }
static int m_triu(lua_State *L) { return tri(L, 1); }

/* t:diag(diagonal = 0): a 1-d tensor becomes a matrix, a matrix gives its diagonal (copies). */
static int m_diag(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = opt_int(L, 2, 0, "diagonal");
  check_no_more(L, 2);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  return pushed(L, lt_diag(t, k, &ud->t, &err), &err);
}

/* }====== */

/* {====== views ====== */

/* Pushes a new table holding the views of t along dim d of the given lengths (n of them, or
   while the dim lasts when sizes is NULL: each `size` long, the last one shorter). */
static int push_pieces(lua_State *L, const char *fname, const lt_tensor *t, int d,
                       const int64_t *sizes, int64_t n, int64_t size) {
  int64_t total = t->shape[d], start = 0;
  if (!sizes) n = size > 0 && total > 0 ? (total - 1) / size + 1 : 1; /* no overflow */
  if (n > LTL_MAX_PIECES)
    return ltl_error(L, "%s: %I pieces is more than %d", fname, (lua_Integer)n, LTL_MAX_PIECES);
  lua_createtable(L, n < 1 << 20 ? (int)n : 1 << 20, 0);
  for (int64_t i = 0; i < n; i++) {
    int64_t len = sizes ? sizes[i] : (total - start < size ? total - start : size);
    lt_error err;
    ltl_ud *ud = ltl_newud(L);
    if (lt_narrow(t, d, start, len, &ud->t, &err)) return ltl_raise(L, &err);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
    start += len;
  }
  return 1;
}

/* The dim argument at arg (default 1) of a function that needs at least one dim. */
static int piece_dim(lua_State *L, const lt_tensor *t, int arg, const char *fname) {
  if (t->ndim == 0) ltl_error(L, "%s: expected a tensor of at least 1 dim, got a 0-d one", fname);
  return lua_isnoneornil(L, arg) ? 0 : ltl_check_dim(L, arg, t->ndim);
}

/* t:split(split_size_or_sections, dim = 1): views, each split_size long (the last one
   shorter), or of the lengths in the table sections, which must add up to the dim's size. */
static int m_split(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = piece_dim(L, t, 3, "split");
  check_no_more(L, 3);
  int64_t total = t->shape[d];
  if (lua_type(L, 2) != LUA_TTABLE) {
    lua_Integer size = ltl_check_int(L, 2, "split_size");
    if (size <= 0 && !(size == 0 && total == 0))
      return luaL_argerror(L, 2, lua_pushfstring(L, "size %I must be positive", size));
    return push_pieces(L, "split", t, d, NULL, 0, size);
  }
  lua_Unsigned n = lua_rawlen(L, 2);
  int64_t *sizes = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof(int64_t), 0);
  int64_t sum = 0;
  for (lua_Unsigned i = 0; i < n; i++) {
    int isnum;
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (!isnum)
      return luaL_argerror(L, 2,
                           lua_pushfstring(L, "size #%d must be an integer, got %s", (int)i + 1,
                                           luaL_typename(L, -1)));
    if (v < 0)
      return luaL_argerror(L, 2, lua_pushfstring(L, "size #%d is negative (%I)", (int)i + 1, v));
    lua_pop(L, 1);
    sizes[i] = v;
    if (lt_add_overflow(sum, v, &sum)) sum = -1;
  }
  if (sum != total)
    return luaL_argerror(L, 2,
                         lua_pushfstring(L, "sizes add up to %I, but dim %d has size %I",
                                         (lua_Integer)sum, d + 1, (lua_Integer)total));
  return push_pieces(L, "split", t, d, sizes, (int64_t)n, 0);
}

/* t:chunk(chunks, dim = 1): views as torch.chunk makes them, each ceil(size / chunks) long
   (so there may be fewer than chunks); an empty dim gives chunks empty views. */
static int m_chunk(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer chunks = ltl_check_int(L, 2, "chunks");
  int d = piece_dim(L, t, 3, "chunk");
  check_no_more(L, 3);
  if (chunks <= 0)
    return luaL_argerror(L, 2, lua_pushfstring(L, "chunks %I must be positive", chunks));
  int64_t total = t->shape[d];
  if (total == 0) { /* torch gives `chunks` empty pieces: a table that large, within reason */
    if (chunks > LTL_MAX_PIECES)
      return luaL_argerror(L, 2,
                           lua_pushfstring(L, "chunks %I of an empty dim is more than %d pieces",
                                           chunks, LTL_MAX_PIECES));
    lua_createtable(L, (int)chunks, 0);
    for (lua_Integer i = 1; i <= chunks; i++) {
      lt_error err;
      ltl_ud *ud = ltl_newud(L);
      if (lt_narrow(t, d, 0, 0, &ud->t, &err)) return ltl_raise(L, &err);
      lua_rawseti(L, -2, i);
    }
    return 1;
  }
  int64_t size = total / chunks + (total % chunks != 0);
  return push_pieces(L, "chunk", t, d, NULL, 0, size);
}

/* t:unbind(dim = 1): a table of the views t:select(dim, i). */
static int m_unbind(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int d = piece_dim(L, t, 2, "unbind");
  check_no_more(L, 2);
  int64_t n = t->shape[d];
  if (n > LTL_MAX_PIECES)
    return ltl_error(L, "unbind: %I pieces is more than %d", (lua_Integer)n, LTL_MAX_PIECES);
  lua_createtable(L, n < 1 << 20 ? (int)n : 1 << 20, 0);
  for (int64_t i = 0; i < n; i++) {
    lt_error err;
    ltl_ud *ud = ltl_newud(L);
    if (lt_select(t, d, i, &ud->t, &err)) return ltl_raise(L, &err);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* t:diagonal(offset = 0, dim1 = 1, dim2 = 2): a view, the diagonal appended as the last dim. */
static int m_diagonal(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer off = opt_int(L, 2, 0, "offset");
  check_no_more(L, 4);
  if (t->ndim < 2)
    return ltl_error(L, "diagonal: expected a tensor of at least 2 dims, got %d", t->ndim);
  int d1 = lua_isnoneornil(L, 3) ? 0 : ltl_check_dim(L, 3, t->ndim);
  int d2 = lua_isnoneornil(L, 4) ? 1 : ltl_check_dim(L, 4, t->ndim);
  if (d1 == d2)
    return luaL_argerror(L, 4, lua_pushfstring(L, "dim1 and dim2 are the same dim (%d)", d1 + 1));
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_diagonal(t, off, d1, d2, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

/* t:trace(): the sum of the main diagonal of a matrix, a Lua value as t:sum() gives. */
static int m_trace(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  check_no_more(L, 1);
  if (t->ndim != 2) return ltl_error(L, "trace: expected a 2-d tensor, got %d dims", t->ndim);
  ltl_check_readable(L, t);
  lt_error err;
  ltl_ud *d = ltl_newud(L), *s = ltl_newud(L); /* the diagonal, then the sum */
  if (lt_diagonal(t, 0, 0, 1, &d->t, &err) || lt_reduce(LT_SUM, d->t, -1, 0, 0, &s->t, NULL, &err))
    return ltl_raise(L, &err);
  ltl_push_element(L, s->t->dtype, lt_data(s->t));
  return 1;
}

/* t:broadcast_to(shape) and lt.broadcast_to(t, shape): t:expand's view (-1 keeps a size). */
static int m_broadcast_to(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int64_t sizes[LT_MAX_NDIM];
  int next;
  if (lua_isnoneornil(L, 2)) return luaL_typeerror(L, 2, "shape (table or integers)");
  int n = ltl_check_sizes(L, 2, sizes, 1, &next);
  check_no_more(L, next - 1);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_expand(t, n, sizes, &ud->t, &err)) return ltl_raise(L, &err);
  return 1;
}

/* lt.meshgrid(t1, t2, ... [, {indexing = "ij"|"xy"}]) or lt.meshgrid({t1, t2, ...}, opts): a
   table of expanded views of the 0-d or 1-d tensors, one dim per tensor ("xy" swaps the first
   two, as NumPy's default). */
static int f_meshgrid(lua_State *L) {
  static const char *const keys[] = {"indexing"};
  int last = ltl_opts(L, 1, "meshgrid", keys, 1), xy = 0;
  if (!lua_isnil(L, -1)) {
    const char *ix = lua_tostring(L, -1);
    if (lua_type(L, -1) != LUA_TSTRING || (strcmp(ix, "ij") != 0 && strcmp(ix, "xy") != 0))
      return ltl_error(L, "meshgrid: indexing must be \"ij\" or \"xy\", got %s",
                       lua_type(L, -1) == LUA_TSTRING ? ix : luaL_typename(L, -1));
    xy = ix[0] == 'x';
  }
  lua_settop(L, last);
  int first = 1, n = last;
  if (last == 1 && lua_type(L, 1) == LUA_TTABLE) { /* one table: its elements */
    lua_Unsigned len = lua_rawlen(L, 1);
    if (len > LT_MAX_NDIM)
      return ltl_error(L, "meshgrid: too many tensors (at most %d)", LT_MAX_NDIM);
    luaL_checkstack(L, (int)len + 4, NULL);
    for (lua_Unsigned i = 1; i <= len; i++) lua_rawgeti(L, 1, (lua_Integer)i);
    first = 2;
    n = (int)len;
  }
  if (n == 0) return ltl_error(L, "meshgrid: expected at least one tensor");
  if (n > LT_MAX_NDIM) return ltl_error(L, "meshgrid: too many tensors (at most %d)", LT_MAX_NDIM);
  int64_t shape[LT_MAX_NDIM];
  for (int i = 0; i < n; i++) {
    if (!ltl_testud(L, first + i))
      return ltl_error(L, "meshgrid: tensor %d is a %s, not a tensor", i + 1,
                       luaL_typename(L, first + i));
    lt_tensor *t = ltl_check(L, first + i);
    if (t->ndim > 1)
      return ltl_error(L, "meshgrid: tensor %d has %d dims (expected 0-d or 1-d tensors)", i + 1,
                       t->ndim);
    ltl_check_readable(L, t);
    if (t->dtype != ltl_check(L, first)->dtype)
      return ltl_error(L, "meshgrid: tensor %d is %s, tensor 1 is %s (all must have one dtype)",
                       i + 1, lt_dtypes[t->dtype].name, lt_dtypes[ltl_check(L, first)->dtype].name);
    int pos = xy && n > 1 && i < 2 ? 1 - i : i;
    shape[pos] = t->ndim ? t->shape[0] : 1;
  }
  lua_createtable(L, n, 0);
  int res = lua_gettop(L);
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ltl_check(L, first + i);
    int pos = xy && n > 1 && i < 2 ? 1 - i : i;
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, t); /* 1 everywhere, the tensor's dim at pos */
    v->ndim = n;
    for (int j = 0; j < n; j++) {
      v->shape[j] = 1;
      v->strides[j] = 1;
    }
    v->shape[pos] = t->ndim ? t->shape[0] : 1;
    v->strides[pos] = t->ndim ? t->strides[0] : 1;
    lt_error err;
    ltl_ud *ud = ltl_newud(L);
    if (lt_expand(v, n, shape, &ud->t, &err)) return ltl_raise(L, &err);
    lua_rawseti(L, res, i + 1);
  }
  return 1;
}

/* }====== */

/* {====== constructors ====== */

/* The dtype a constructor was given: a dtype name at arg (when a string is there), else opt
   (the options table's, LT_NDTYPES: none), else def. */
static lt_dtype ctor_dtype(lua_State *L, int arg, lt_dtype opt, const char *fname, lt_dtype def) {
  if (lua_type(L, arg) == LUA_TSTRING) {
    if (opt != LT_NDTYPES)
      ltl_error(L, "%s: a dtype is given twice (as an argument and as an option)", fname);
    return ltl_check_dtype(L, arg);
  }
  return opt != LT_NDTYPES ? opt : def;
}

/* The {dtype = } option of a constructor whose positional arguments start at first; leaves the
   positional arguments only. *last receives the last one's index. */
static lt_dtype ctor_opts(lua_State *L, int first, const char *fname, int *last) {
  static const char *const keys[] = {"dtype"};
  *last = ltl_opts(L, first, fname, keys, 1);
  lt_dtype dt = ltl_dtype_option(L, -1, fname, LT_NDTYPES);
  lua_settop(L, *last);
  return dt;
}

/* lt.zeros_like(t, {dtype = }), ones_like, empty_like, full_like(t, value, {dtype = }): a new
   contiguous tensor of t's shape, in t's dtype unless dtype says otherwise. */
static int make_like(lua_State *L, int how, const char *fname) {
  int last, darg = how == 'f' ? 3 : 2;
  lt_dtype opt = ctor_opts(L, 2, fname, &last);
  check_no_more(L, darg);
  lt_tensor *t = ltl_check(L, 1);
  if (t->dtype == LT_OPAQUE && opt == LT_NDTYPES && lua_type(L, darg) != LUA_TSTRING)
    return ltl_error(L,
                     "%s: the tensor's DLPack type has no ltensor dtype; give one with "
                     "{dtype = ...}",
                     fname);
  lt_dtype dt = ctor_dtype(L, darg, opt, fname, t->dtype);
  if (lua_type(L, darg) != LUA_TSTRING && !lua_isnoneornil(L, darg))
    return luaL_typeerror(L, darg, "dtype name");
  lt_scalar s = {LT_SK_INT, {.i = how == '1'}, 0};
  if (how == 'f' && !ltl_to_scalar(L, 2, dt, &s))
    return luaL_typeerror(L, 2,
                          lt_dtypes[dt].is_complex ? "number or {re, im}" : "number or boolean");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_tensor_new(dt, t->ndim, t->shape, how == '0', &ud->t, &err)) return ltl_raise(L, &err);
  if ((how == '1' || how == 'f') && lt_fill(ud->t, &s, &err)) return ltl_raise(L, &err);
  return 1;
}
static int f_zeros_like(lua_State *L) { return make_like(L, '0', "zeros_like"); }
static int f_ones_like(lua_State *L) { return make_like(L, '1', "ones_like"); }
static int f_empty_like(lua_State *L) { return make_like(L, 'e', "empty_like"); }
static int f_full_like(lua_State *L) { return make_like(L, 'f', "full_like"); }

/* lt.eye(n [, m] [, dtype | {dtype = }]): an n x m (n x n) matrix with ones on the diagonal. */
static int f_eye(lua_State *L) {
  int last;
  lt_dtype opt = ctor_opts(L, 1, "eye", &last);
  lua_Integer n = ltl_check_int(L, 1, "n");
  int darg = lua_type(L, 2) == LUA_TSTRING ? 2 : 3;
  lua_Integer m = darg == 3 ? opt_int(L, 2, n, "m") : n;
  check_no_more(L, darg);
  lt_dtype dt = ctor_dtype(L, darg, opt, "eye", LT_FLOAT32);
  if (lua_type(L, darg) != LUA_TSTRING && !lua_isnoneornil(L, darg))
    return luaL_typeerror(L, darg, "dtype name");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  return pushed(L, lt_eye(dt, n, m, &ud->t, &err), &err);
}

/* A start or end argument: a number, or {re, im}. */
static int check_point(lua_State *L, int arg, double v[2]) {
  if (lua_type(L, arg) == LUA_TTABLE) {
    lt_scalar s;
    if (!ltl_to_scalar(L, arg, LT_COMPLEX128, &s)) luaL_typeerror(L, arg, "number or {re, im}");
    v[0] = s.v.f;
    v[1] = s.im;
    return 1;
  }
  v[0] = luaL_checknumber(L, arg);
  v[1] = 0;
  return 0;
}

/* lt.linspace(start, end, steps [, dtype | {dtype = }]) and lt.logspace(start, end, steps
   [, base = 10] [, ...]): float32 unless a dtype is given (complex64 when an end is {re, im}). */
static int spaced(lua_State *L, int logspace) {
  const char *fname = logspace ? "logspace" : "linspace";
  int last;
  lt_dtype opt = ctor_opts(L, 1, fname, &last);
  double a[2], b[2];
  int cpx = check_point(L, 1, a) | check_point(L, 2, b);
  if (lua_isnoneornil(L, 3)) return luaL_argerror(L, 3, "steps expected (an integer)");
  lua_Integer steps = ltl_check_int(L, 3, "steps");
  if (steps < 0)
    return luaL_argerror(L, 3, lua_pushfstring(L, "steps %I must be non-negative", steps));
  double base = 10;
  int darg = 4;
  if (logspace && lua_type(L, 4) != LUA_TSTRING && !lua_isnoneornil(L, 4)) {
    base = luaL_checknumber(L, 4);
    darg = 5;
  }
  check_no_more(L, darg);
  lt_dtype dt = ctor_dtype(L, darg, opt, fname, cpx ? LT_COMPLEX64 : LT_FLOAT32);
  if (lua_type(L, darg) != LUA_TSTRING && !lua_isnoneornil(L, darg))
    return luaL_typeerror(L, darg, "dtype name");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  return pushed(L, lt_linspace(dt, a, b, steps, logspace, base, &ud->t, &err), &err);
}
static int f_linspace(lua_State *L) { return spaced(L, 0); }
static int f_logspace(lua_State *L) { return spaced(L, 1); }

/* }====== */

static const luaL_Reg shape_methods[] = {
    {"flip", m_flip},
    {"roll", m_roll},
    {"repeat", m_repeat},
    {"tile", m_tile},
    {"split", m_split},
    {"chunk", m_chunk},
    {"unbind", m_unbind},
    {"tril", m_tril},
    {"triu", m_triu},
    {"diag", m_diag},
    {"diagonal", m_diagonal},
    {"trace", m_trace},
    {"broadcast_to", m_broadcast_to},
    {NULL, NULL},
};

/* The constructors. */
static const luaL_Reg shape_funcs[] = {
    {"meshgrid", f_meshgrid},
    {"eye", f_eye},
    {"linspace", f_linspace},
    {"logspace", f_logspace},
    {"zeros_like", f_zeros_like},
    {"ones_like", f_ones_like},
    {"empty_like", f_empty_like},
    {"full_like", f_full_like},
    {NULL, NULL},
};

/* Every method is also lt.X (the tensor first), as torch has torch.X, except repeat (torch has
   no torch.repeat). */
static void open_shape(lua_State *L, const ltl_tables *at) {
  for (const luaL_Reg *r = shape_methods; r->name; r++) {
    if (strcmp(r->name, "repeat") == 0) continue;
    lua_pushcfunction(L, r->func);
    lua_setfield(L, at->module, r->name);
  }
}

const ltl_part ltl_part_shape = {NULL, shape_methods, NULL, shape_funcs, open_shape};
