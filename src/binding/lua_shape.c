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

/* }====== */

/* {====== copies ====== */

/* t:flip(dims) -- dims a table or the dims as arguments; a copy. */
static int m_flip(lua_State *L) {
  ltl_args(L, 1, LT_MAX_NDIM + 1, 0, "flip");
  lt_tensor *t = ltl_check(L, 1);
  int dims[LT_MAX_NDIM];
  if (lua_isnone(L, 2)) return luaL_argerror(L, 2, "dims expected (a table or integers)");
  if (lua_type(L, 2) == LUA_TTABLE) ltl_args_end(L, 1, 2, 0, "flip");
  int n = check_dims(L, 2, t->ndim, dims);
  lt_error err;
  return ltl_result(L, lt_flip(t, t->ndim ? n : 0, dims, ltl_out(L), &err), &err, "flip");
}

/* t:roll(shifts [, dims]) -- integers or tables of them; without dims the flattened tensor
   rolls and keeps its shape. */
static int m_roll(lua_State *L) {
  ltl_args(L, 1, 2, 0, "roll");
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
  int flat = nd == 0 || t->ndim == 0;
  return ltl_result(L, lt_roll(t, flat ? 1 : ns, shifts, flat ? NULL : dims, ltl_out(L), &err),
                    &err, "roll");
}

/* t:repeat(sizes) and t:tile(sizes): sizes a table or integers. tile pads the sizes with
   leading 1s up to the tensor's dims (torch.tile); repeat needs at least that many. */
static int repeat_or_tile(lua_State *L, int tile) {
  const char *fname = tile ? "tile" : "repeat";
  ltl_args(L, 1, LT_MAX_NDIM + 1, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  int64_t reps[LT_MAX_NDIM];
  int next;
  int n = ltl_check_sizes(L, 2, reps, 0, &next);
  ltl_args_end(L, 1, next - 1, 0, fname);
  if (tile && n < t->ndim) {
    int pad = t->ndim - n;
    memmove(reps + pad, reps, (size_t)n * sizeof(int64_t));
    for (int i = 0; i < pad; i++) reps[i] = 1;
    n = t->ndim;
  }
  lt_error err;
  return ltl_result(L, lt_repeat(t, n, reps, ltl_out(L), &err), &err, fname);
}
static int m_repeat(lua_State *L) { return repeat_or_tile(L, 0); }
static int m_tile(lua_State *L) { return repeat_or_tile(L, 1); }

/* t:tril(diagonal = 0) and t:triu(diagonal = 0): copies; tril_ and triu_ clear t itself. */
static int tri(lua_State *L, int upper, int inplace, const char *fname) {
  ltl_args(L, 1, 1, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_opt_int(L, 2, 0, "diagonal");
  lt_error err;
  if (!inplace) return ltl_result(L, lt_tri(t, k, upper, ltl_out(L), &err), &err, fname);
  ltl_prepare_write(L, t);
  if (lt_tri_(t, k, upper, &err)) return ltl_fail(L, fname, &err);
  lua_settop(L, 1);
  return 1;
}
static int m_tril(lua_State *L) { return tri(L, 0, 0, "tril"); }
static int m_triu(lua_State *L) { return tri(L, 1, 0, "triu"); }
static int m_tril_(lua_State *L) { return tri(L, 0, 1, "tril_"); }
static int m_triu_(lua_State *L) { return tri(L, 1, 1, "triu_"); }

/* t:diag(diagonal = 0): a 1-d tensor becomes a matrix, a matrix gives its diagonal (copies). */
static int m_diag(lua_State *L) {
  ltl_args(L, 1, 1, 0, "diag");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_opt_int(L, 2, 0, "diagonal");
  lt_error err;
  return ltl_result(L, lt_diag(t, k, ltl_out(L), &err), &err, "diag");
}

/* }====== */

/* {====== views ====== */

/* Pushes a new table holding the views of t along dim d of the given lengths (n of them, or
   while the dim lasts when sizes is NULL: each `size` long, the last one shorter). */
static int push_pieces(lua_State *L, const lt_tensor *t, int d, const int64_t *sizes, int64_t n,
                       int64_t size, const char *fname) {
  int64_t total = t->shape[d], start = 0;
  if (!sizes) n = size > 0 && total > 0 ? (total - 1) / size + 1 : 1; /* no overflow */
  if (n > LTL_MAX_PIECES)
    return ltl_error(L, "%s: %I pieces is more than %d", fname, (lua_Integer)n, LTL_MAX_PIECES);
  lua_createtable(L, n < 1 << 20 ? (int)n : 1 << 20, 0);
  for (int64_t i = 0; i < n; i++) {
    int64_t len = sizes ? sizes[i] : (total - start < size ? total - start : size);
    lt_error err;
    ltl_result(L, lt_narrow(t, d, start, len, ltl_out(L), &err), &err, fname);
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
  ltl_args(L, 1, 2, 0, "split");
  lt_tensor *t = ltl_check(L, 1);
  int d = piece_dim(L, t, 3, "split");
  int64_t total = t->shape[d];
  if (lua_type(L, 2) != LUA_TTABLE) {
    lua_Integer size = ltl_check_int(L, 2, "split_size");
    if (size <= 0 && !(size == 0 && total == 0))
      return luaL_argerror(L, 2, lua_pushfstring(L, "size %I must be positive", size));
    return push_pieces(L, t, d, NULL, 0, size, "split");
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
  return push_pieces(L, t, d, sizes, (int64_t)n, 0, "split");
}

/* t:chunk(chunks, dim = 1): views as torch.chunk makes them, each ceil(size / chunks) long
   (so there may be fewer than chunks); an empty dim gives chunks empty views. */
static int m_chunk(lua_State *L) {
  ltl_args(L, 1, 2, 0, "chunk");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer chunks = ltl_check_int(L, 2, "chunks");
  int d = piece_dim(L, t, 3, "chunk");
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
      ltl_result(L, lt_narrow(t, d, 0, 0, ltl_out(L), &err), &err, "chunk");
      lua_rawseti(L, -2, i);
    }
    return 1;
  }
  int64_t size = total / chunks + (total % chunks != 0);
  return push_pieces(L, t, d, NULL, 0, size, "chunk");
}

/* t:unbind(dim = 1): a table of the views t:select(dim, i). */
static int m_unbind(lua_State *L) {
  ltl_args(L, 1, 1, 0, "unbind");
  lt_tensor *t = ltl_check(L, 1);
  int d = piece_dim(L, t, 2, "unbind");
  int64_t n = t->shape[d];
  if (n > LTL_MAX_PIECES)
    return ltl_error(L, "unbind: %I pieces is more than %d", (lua_Integer)n, LTL_MAX_PIECES);
  lua_createtable(L, n < 1 << 20 ? (int)n : 1 << 20, 0);
  for (int64_t i = 0; i < n; i++) {
    lt_error err;
    ltl_result(L, lt_select(t, d, i, ltl_out(L), &err), &err, "unbind");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* t:diagonal(offset = 0, dim1 = 1, dim2 = 2): a view, the diagonal appended as the last dim. */
static int m_diagonal(lua_State *L) {
  ltl_args(L, 1, 3, 0, "diagonal");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer off = ltl_opt_int(L, 2, 0, "offset");
  if (t->ndim < 2)
    return ltl_error(L, "diagonal: expected a tensor of at least 2 dims, got %d", t->ndim);
  int d1 = ltl_opt_dim(L, 3, t->ndim, 0), d2 = ltl_opt_dim(L, 4, t->ndim, 1);
  if (d1 == d2)
    return luaL_argerror(L, 4, lua_pushfstring(L, "dim1 and dim2 are the same dim (%d)", d1 + 1));
  lt_error err;
  return ltl_result(L, lt_diagonal(t, off, d1, d2, ltl_out(L), &err), &err, "diagonal");
}

/* t:trace(): the sum of the main diagonal of a matrix, a Lua value as t:sum() gives. */
static int m_trace(lua_State *L) {
  ltl_args(L, 1, 0, 0, "trace");
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim != 2) return ltl_error(L, "trace: expected a 2-d tensor, got %d dims", t->ndim);
  ltl_check_readable(L, t);
  lt_error err;
  ltl_ud *d = ltl_newud(L), *s = ltl_newud(L); /* the diagonal, then the sum */
  if (lt_diagonal(t, 0, 0, 1, &d->t, &err) || lt_reduce(LT_SUM, d->t, -1, 0, 0, &s->t, NULL, &err))
    return ltl_fail(L, "trace", &err);
  ltl_push_element(L, s->t->dtype, lt_data(s->t));
  return 1;
}

/* t:broadcast_to(shape) and lt.broadcast_to(t, shape): t:expand's view (-1 keeps a size). */
static int m_broadcast_to(lua_State *L) {
  ltl_args(L, 1, LT_MAX_NDIM + 1, 0, "broadcast_to");
  lt_tensor *t = ltl_check(L, 1);
  int64_t sizes[LT_MAX_NDIM];
  int next;
  if (lua_isnone(L, 2)) return luaL_typeerror(L, 2, "shape (table or integers)");
  int n = ltl_check_sizes(L, 2, sizes, 1, &next);
  ltl_args_end(L, 1, next - 1, 0, "broadcast_to");
  lt_error err;
  return ltl_result(L, lt_expand(t, n, sizes, ltl_out(L), &err), &err, "broadcast_to");
}

/* lt.meshgrid(t1, t2, ... [, {indexing = "ij"|"xy"}]) or lt.meshgrid({t1, t2, ...}, opts): a
   table of expanded views of the 0-d or 1-d tensors, one dim per tensor ("xy" swaps the first
   two, as NumPy's default). */
static int f_meshgrid(lua_State *L) {
  static const char *const keys[] = {"indexing"}, *const ways[] = {"ij", "xy", NULL};
  ltl_args(L, 0, LT_MAX_NDIM + 1, 1, "meshgrid");
  int last = ltl_opts(L, 1, "meshgrid", keys, 1);
  int xy = ltl_choice_option(L, -1, 0, "meshgrid", "indexing", ways);
  lua_settop(L, last);
  int list = last >= 1 && lua_type(L, 1) == LUA_TTABLE; /* one table: its elements */
  if (list) ltl_args_end(L, 0, 1, 1, "meshgrid");
  lua_Integer n = list ? (lua_Integer)lua_rawlen(L, 1) : last;
  if (n == 0) return ltl_error(L, "meshgrid: expected at least one tensor");
  if (n > LT_MAX_NDIM) return ltl_error(L, "meshgrid: too many tensors (at most %d)", LT_MAX_NDIM);
  const lt_tensor **ts = ltl_tensors(L, 1, n, list, "meshgrid", "tensor");
  int64_t shape[LT_MAX_NDIM];
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ts[i];
    if (t->ndim > 1)
      return ltl_error(L, "meshgrid: tensor %d has %d dims (expected 0-d or 1-d tensors)", i + 1,
                       t->ndim);
    ltl_check_readable(L, t);
    if (t->dtype != ts[0]->dtype)
      return ltl_error(L, "meshgrid: tensor %d is %s, tensor 1 is %s (all must have one dtype)",
                       i + 1, lt_dtype_name(t->dtype), lt_dtype_name(ts[0]->dtype));
    int pos = xy && n > 1 && i < 2 ? 1 - i : i;
    shape[pos] = t->ndim ? t->shape[0] : 1;
  }
  lua_createtable(L, (int)n, 0);
  int res = lua_gettop(L);
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ts[i];
    int pos = xy && n > 1 && i < 2 ? 1 - i : i;
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, t); /* 1 everywhere, the tensor's dim at pos */
    v->ndim = (int)n;
    for (int j = 0; j < n; j++) {
      v->shape[j] = 1;
      v->strides[j] = 1;
    }
    v->shape[pos] = t->ndim ? t->shape[0] : 1;
    v->strides[pos] = t->ndim ? t->strides[0] : 1;
    lt_error err;
    ltl_result(L, lt_expand(v, (int)n, shape, ltl_out(L), &err), &err, "meshgrid");
    lua_rawseti(L, res, i + 1);
  }
  return 1;
}

/* }====== */

/* {====== constructors ====== */

/* lt.zeros_like(t [, dtype]), ones_like, empty_like, full_like(t, value [, dtype]): a new
   contiguous tensor of t's shape, in t's dtype unless a dtype says otherwise. */
static int make_like(lua_State *L, int how, const char *fname) {
  int darg = how == 'f' ? 3 : 2;
  lt_dtype opt;
  ltl_args(L, 0, darg, 1, fname);
  ltl_dtype_opts(L, 2, fname, &opt);
  lt_tensor *t = ltl_check(L, 1);
  if (t->dtype == LT_OPAQUE && opt == LT_NDTYPES && lua_isnone(L, darg))
    return ltl_error(L,
                     "%s: the tensor's DLPack type has no ltensor dtype; give one with "
                     "{dtype = ...}",
                     fname);
  lt_dtype dt = ltl_dtype_pick(L, darg, opt, t->dtype, fname);
  lt_scalar s = {LT_SK_INT, {.i = how == '1'}, 0};
  if (how == 'f' && !ltl_to_scalar(L, 2, dt, &s))
    return luaL_typeerror(L, 2,
                          lt_dtypes[dt].is_complex ? "number or {re, im}" : "number or boolean");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  if (lt_tensor_new(dt, t->ndim, t->shape, how == '0', out, &err) ||
      ((how == '1' || how == 'f') && lt_fill(*out, &s, &err)))
    return ltl_fail(L, fname, &err);
  return 1;
}
static int f_zeros_like(lua_State *L) { return make_like(L, '0', "zeros_like"); }
static int f_ones_like(lua_State *L) { return make_like(L, '1', "ones_like"); }
static int f_empty_like(lua_State *L) { return make_like(L, 'e', "empty_like"); }
static int f_full_like(lua_State *L) { return make_like(L, 'f', "full_like"); }

/* lt.eye(n [, m] [, dtype]): an n x m (n x n) matrix with ones on the diagonal. */
static int f_eye(lua_State *L) {
  lt_dtype opt;
  ltl_args(L, 0, 3, 1, "eye");
  ltl_dtype_opts(L, 2, "eye", &opt);
  lua_Integer n = ltl_check_int(L, 1, "n");
  int darg = lua_type(L, 2) == LUA_TSTRING ? 2 : 3;
  lua_Integer m = darg == 3 ? ltl_opt_int(L, 2, n, "m") : n;
  ltl_args_end(L, 0, darg, 1, "eye");
  lt_dtype dt = ltl_dtype_pick(L, darg, opt, LT_FLOAT32, "eye");
  lt_error err;
  return ltl_result(L, lt_eye(dt, n, m, ltl_out(L), &err), &err, "eye");
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
  lt_dtype opt;
  ltl_args(L, 0, 4 + logspace, 1, fname);
  ltl_dtype_opts(L, 4, fname, &opt);
  double a[2], b[2];
  int cpx = check_point(L, 1, a) | check_point(L, 2, b);
  if (lua_isnone(L, 3)) return luaL_argerror(L, 3, "steps expected (an integer)");
  lua_Integer steps = ltl_check_int(L, 3, "steps");
  if (steps < 0)
    return luaL_argerror(L, 3, lua_pushfstring(L, "steps %I must be non-negative", steps));
  double base = 10;
  int darg = 4;
  if (logspace && lua_type(L, 4) != LUA_TSTRING && !lua_isnoneornil(L, 4)) {
    base = luaL_checknumber(L, 4);
    darg = 5;
  }
  ltl_args_end(L, 0, darg, 1, fname);
  lt_dtype dt = ltl_dtype_pick(L, darg, opt, cpx ? LT_COMPLEX64 : LT_FLOAT32, fname);
  lt_error err;
  return ltl_result(L, lt_linspace(dt, a, b, steps, logspace, base, ltl_out(L), &err), &err, fname);
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
    {"tril_", m_tril_},
    {"triu_", m_triu_},
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

/* Every method but repeat (torch has no torch.repeat) is also lt.X, the tensor first, as torch
   has torch.X. */
static const char *const shape_forms[] = {"flip",   "roll",         "tile", "split", "chunk",
                                          "unbind", "tril",         "triu", "diag",  "diagonal",
                                          "trace",  "broadcast_to", NULL};

static void open_shape(lua_State *L, const ltl_tables *at) {
  ltl_module_forms(L, at->methods, at->module, shape_forms);
}

const ltl_part ltl_part_shape = {NULL, shape_methods, NULL, shape_funcs, open_shape};
