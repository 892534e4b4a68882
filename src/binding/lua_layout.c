/*
 * lua_layout.c -- rearranging tensors in Lua, with torch 2.x's names and positional order: the
 * methods tensor_split, vsplit, hsplit, dsplit, movedim / moveaxis, swapaxes / swapdims, ravel,
 * take_along_dim, repeat_interleave, rot90, fliplr, flipud, diag_embed, diagflat, kron and inner
 * (each also lt.X, as torch has torch.X), and the module functions lt.hstack, vstack, dstack,
 * column_stack, broadcast_tensors, cartesian_prod, combinations, tril_indices, triu_indices,
 * unravel_index, vander and tensordot. Dims and positions are 1-based (negative from the end);
 * tensor_split's indices stay torch's (counts of elements before each cut); split pieces are one
 * Lua table, broadcast_tensors' and unravel_index's results several values.
 *
 * Argument handling only: every view and copy is the core's (lt_layout.h, lt_indices.h,
 * lt_shape.h). Read only by lua_init.c (ltl_part_layout); calls the base (lua_ud.h) and the
 * core.
 */
#include <string.h>

#include "lt_copy.h"
#include "lt_indices.h"
#include "lt_layout.h"
#include "lt_shape.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The most pieces a split makes (one userdata each, in one table), and the most tensors a call
   takes or returns as separate values. */
#define LTL_MAX_PIECES (1 << 24)
#define LTL_MAX_VALUES 4096

/* {====== arguments ====== */

/* The tensors of the sequence at idx (a non-empty table), pushed as ltl_tensors' block. */
static const lt_tensor **tensor_seq(lua_State *L, int idx, int *count, const char *fname) {
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_Unsigned n = lua_rawlen(L, idx);
  if (n == 0) ltl_error(L, "%s: expected a non-empty sequence of tensors", fname);
  if (n > LTL_MAX_VALUES) ltl_error(L, "%s: too many tensors (at most %d)", fname, LTL_MAX_VALUES);
  *count = (int)n;
  return ltl_tensors(L, idx, (lua_Integer)n, 1, fname, "element");
}

/* Element i of the table of dims at arg, 0-based for ndim dims (0-d: 1 and -1). */
static int dim_at(lua_State *L, int arg, lua_Integer i, int ndim) {
  int nd = ndim > 0 ? ndim : 1, isnum;
  lua_rawgeti(L, arg, i);
  lua_Integer d = lua_tointegerx(L, -1, &isnum);
  if (!isnum)
    luaL_argerror(
        L, arg, lua_pushfstring(L, "dim #%I must be an integer, got %s", i, luaL_typename(L, -1)));
  lua_pop(L, 1);
  lua_Integer d1 = d < 0 ? d + nd + 1 : d;
  if (d1 < 1 || d1 > nd)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "dim %I out of range for a tensor of %d dims", d, ndim));
  return (int)d1 - 1;
}

/* Dims given as one integer or a table of them at arg, 0-based for ndim dims (0-d: 1 and -1);
   returns how many. */
static int dim_list(lua_State *L, int arg, int ndim, int *dims) {
  if (lua_type(L, arg) != LUA_TTABLE) {
    dims[0] = ltl_check_dim(L, arg, ndim > 0 ? ndim : 1);
    return 1;
  }
  lua_Unsigned n = lua_rawlen(L, arg);
  if (n > LT_MAX_NDIM)
    luaL_argerror(L, arg, lua_pushfstring(L, "too many dims (at most %d)", LT_MAX_NDIM));
  for (lua_Unsigned i = 1; i <= n; i++) dims[i - 1] = dim_at(L, arg, (lua_Integer)i, ndim);
  return (int)n;
}

/* }====== */

/* {====== stacking and splitting ====== */

/* lt.hstack(tensors), vstack, dstack, column_stack: one table of tensors. */
static int stack_as(lua_State *L, lt_stack_kind kind, const char *fname) {
  int n;
  ltl_args(L, 0, 1, 0, fname);
  const lt_tensor **ts = tensor_seq(L, 1, &n, fname);
  lt_error err;
  return ltl_result(L, lt_stack_as(kind, ts, n, ltl_out(L), &err), &err, fname);
}
static int f_hstack(lua_State *L) { return stack_as(L, LT_HSTACK, "hstack"); }
static int f_vstack(lua_State *L) { return stack_as(L, LT_VSTACK, "vstack"); }
static int f_dstack(lua_State *L) { return stack_as(L, LT_DSTACK, "dstack"); }
static int f_column_stack(lua_State *L) { return stack_as(L, LT_COLUMN_STACK, "column_stack"); }

/* Pushes the table of t's views along dim d for the sections or indices at arg (an integer, or
   a table of integers). must_divide: an integer must divide the dim's size (vsplit, ...). */
static int push_split(lua_State *L, const lt_tensor *t, int d, int arg, int must_divide,
                      const char *fname) {
  int64_t total = t->shape[d], sections = 0;
  int nidx = 0;
  int64_t *idx = NULL;
  if (lua_type(L, arg) == LUA_TTABLE) {
    lua_Unsigned n = lua_rawlen(L, arg);
    if (n >= LTL_MAX_PIECES)
      return luaL_argerror(L, arg, lua_pushfstring(L, "more than %d indices", LTL_MAX_PIECES));
    nidx = (int)n;
    idx = lua_newuserdatauv(L, (n ? n : 1) * sizeof(int64_t), 0);
    for (int i = 0; i < nidx; i++) {
      lua_rawgeti(L, arg, i + 1);
      int isnum;
      idx[i] = lua_tointegerx(L, -1, &isnum);
      if (!isnum)
        return luaL_argerror(L, arg,
                             lua_pushfstring(L, "index #%d must be an integer, got %s", i + 1,
                                             luaL_typename(L, -1)));
      lua_pop(L, 1);
    }
  } else {
    sections = ltl_check_int(L, arg, "sections");
    if (sections <= 0)
      return luaL_argerror(
          L, arg, lua_pushfstring(L, "sections %I must be positive", (lua_Integer)sections));
    if (sections > LTL_MAX_PIECES)
      return luaL_argerror(L, arg, lua_pushfstring(L, "more than %d pieces", LTL_MAX_PIECES));
    if (must_divide && total % sections)
      return ltl_error(L, "%s: dim %d of size %I does not divide into %I equal pieces", fname,
                       d + 1, (lua_Integer)total, (lua_Integer)sections);
  }
  int64_t n = idx ? nidx + 1 : sections;
  int64_t *starts = lua_newuserdatauv(L, 2 * (size_t)n * sizeof(int64_t), 0), *lens = starts + n;
  lt_error err;
  if (lt_split_bounds(total, sections, nidx, idx, starts, lens, &err))
    return ltl_fail(L, fname, &err);
  lua_createtable(L, n < 1 << 20 ? (int)n : 1 << 20, 0);
  for (int64_t i = 0; i < n; i++) {
    ltl_result(L, lt_narrow(t, d, starts[i], lens[i], ltl_out(L), &err), &err, fname);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* t:tensor_split(sections_or_indices, dim = 1) */
static int m_tensor_split(lua_State *L) {
  ltl_args(L, 1, 2, 0, "tensor_split");
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim == 0) return ltl_error(L, "tensor_split: expected a tensor of at least 1 dim, got 0");
  if (lua_isnone(L, 2)) return luaL_argerror(L, 2, "sections or indices expected");
  int d = ltl_opt_dim(L, 3, t->ndim, 0);
  return push_split(L, t, d, 2, 0, "tensor_split");
}

/* t:vsplit(x) (dim 1, at least 2-d), hsplit (dim 2, or 1 of a 1-d tensor), dsplit (dim 3, at
   least 3-d): tensor_split with sections that must divide the dim. */
static int split_at(lua_State *L, int least, const char *fname) {
  ltl_args(L, 1, 1, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim < least)
    return ltl_error(L, "%s: expected a tensor of at least %d dims, got %d", fname, least, t->ndim);
  if (lua_isnone(L, 2)) return luaL_argerror(L, 2, "sections or indices expected");
  int d = least == 2 ? 0 : least == 3 ? 2 : t->ndim > 1; /* vsplit, dsplit, hsplit */
  return push_split(L, t, d, 2, 1, fname);
}
static int m_vsplit(lua_State *L) { return split_at(L, 2, "vsplit"); }
static int m_hsplit(lua_State *L) { return split_at(L, 1, "hsplit"); }
static int m_dsplit(lua_State *L) { return split_at(L, 3, "dsplit"); }

/* }====== */

/* {====== moving and taking ====== */

/* t:movedim(source, destination) and moveaxis: dims as integers or tables of them. */
static int movedim(lua_State *L, const char *fname) {
  ltl_args(L, 1, 2, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  int src[LT_MAX_NDIM], dst[LT_MAX_NDIM];
  if (lua_isnone(L, 3)) return luaL_argerror(L, 3, "destination expected");
  int ns = dim_list(L, 2, t->ndim, src), nd = dim_list(L, 3, t->ndim, dst);
  if (ns != nd)
    return ltl_error(L, "%s: %d source dims and %d destination dims (one for each)", fname, ns, nd);
  lt_error err;
  return ltl_result(L, lt_movedim(t, ns, src, dst, ltl_out(L), &err), &err, fname);
}
static int m_movedim(lua_State *L) { return movedim(L, "movedim"); }
static int m_moveaxis(lua_State *L) { return movedim(L, "moveaxis"); }

/* t:swapaxes(axis0, axis1) and swapdims: t:transpose's view (a 0-d tensor takes 1 and -1). */
static int swap(lua_State *L, const char *fname) {
  ltl_args(L, 1, 2, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  int nd = t->ndim ? t->ndim : 1;
  int a = ltl_check_dim(L, 2, nd), b = ltl_check_dim(L, 3, nd);
  lt_error err;
  if (t->ndim == 0) return ltl_result(L, lt_tensor_alias(t, ltl_out(L), &err), &err, fname);
  return ltl_result(L, lt_transpose(t, a, b, ltl_out(L), &err), &err, fname);
}
static int m_swapaxes(lua_State *L) { return swap(L, "swapaxes"); }
static int m_swapdims(lua_State *L) { return swap(L, "swapdims"); }

/* t:ravel(): the flattened t, a view when the strides allow it. */
static int m_ravel(lua_State *L) {
  ltl_args(L, 1, 0, 0, "ravel");
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  int end = t->ndim ? t->ndim - 1 : 0;
  return ltl_result(L, lt_flatten(t, 0, end, ltl_out(L), &err), &err, "ravel");
}

/* t:take_along_dim(indices [, dim]): without dim, the flattened t at the flattened indices. */
static int m_take_along_dim(lua_State *L) {
  ltl_args(L, 1, 2, 0, "take_along_dim");
  lt_tensor *t = ltl_check(L, 1), *idx = ltl_check(L, 2);
  int d = lua_isnoneornil(L, 3) ? -1 : ltl_check_dim(L, 3, t->ndim ? t->ndim : 1);
  lt_error err;
  return ltl_result(L, lt_take_along_dim(t, idx, d, 1, ltl_out(L), &err), &err, "take_along_dim");
}

/* t:repeat_interleave(repeats [, dim] [, {output_size = n}]): repeats an integer or an integer
   tensor; lt.repeat_interleave(repeats) alone gives the 1-based positions repeated. */
static int repeat_interleave(lua_State *L, int module) {
  static const char *const keys[] = {"output_size"};
  ltl_args(L, 1, 2, 1, "repeat_interleave");
  int last = ltl_opts(L, 2, "repeat_interleave", keys, 1);
  lua_Integer osize = -1;
  if (!lua_isnil(L, -1)) {
    int isnum;
    osize = lua_tointegerx(L, -1, &isnum);
    if (!isnum || osize < 0)
      return ltl_error(L, "repeat_interleave: output_size must be a non-negative integer");
  }
  lua_settop(L, last);
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  if (module && last == 1) /* torch.repeat_interleave(repeats) */
    return ltl_result(L, lt_repeat_positions(t, osize, 1, ltl_out(L), &err), &err,
                      "repeat_interleave");
  if (lua_isnone(L, 2)) return luaL_argerror(L, 2, "repeats expected (an integer or a tensor)");
  lt_tensor *reps = ltl_testud(L, 2) ? ltl_check(L, 2) : NULL;
  lua_Integer count = reps ? 0 : ltl_check_int(L, 2, "repeats");
  int d = lua_isnoneornil(L, 3) ? -1 : ltl_check_dim(L, 3, t->ndim ? t->ndim : 1);
  return ltl_result(L, lt_repeat_interleave(t, reps, count, d, osize, ltl_out(L), &err), &err,
                    "repeat_interleave");
}
static int m_repeat_interleave(lua_State *L) { return repeat_interleave(L, 0); }
static int f_repeat_interleave(lua_State *L) { return repeat_interleave(L, 1); }

/* t:rot90(k = 1, dims = {1, 2}) */
static int m_rot90(lua_State *L) {
  ltl_args(L, 1, 2, 0, "rot90");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer k = ltl_opt_int(L, 2, 1, "k");
  int dims[LT_MAX_NDIM] = {0, 1};
  if (t->ndim < 2)
    return ltl_error(L, "rot90: expected a tensor of at least 2 dims, got %d", t->ndim);
  if (!lua_isnoneornil(L, 3)) {
    if (lua_type(L, 3) != LUA_TTABLE) return luaL_typeerror(L, 3, "table of two dims");
    if (dim_list(L, 3, t->ndim, dims) != 2) return luaL_argerror(L, 3, "expected two dims");
  }
  lt_error err;
  return ltl_result(L, lt_rot90(t, k, dims[0], dims[1], ltl_out(L), &err), &err, "rot90");
}

/* t:fliplr() (dim 2, at least 2-d) and t:flipud() (dim 1, at least 1-d): copies. */
static int flip_one(lua_State *L, int d, const char *fname) {
  ltl_args(L, 1, 0, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim < d + 1)
    return ltl_error(L, "%s: expected a tensor of at least %d dims, got %d", fname, d + 1, t->ndim);
  lt_error err;
  return ltl_result(L, lt_flip(t, 1, &d, ltl_out(L), &err), &err, fname);
}
static int m_fliplr(lua_State *L) { return flip_one(L, 1, "fliplr"); }
static int m_flipud(lua_State *L) { return flip_one(L, 0, "flipud"); }

/* t:diag_embed(offset = 0, dim1 = -2, dim2 = -1) (dims of the result, t's dims + 1) and
   t:diagflat(offset = 0). */
static int diag_of(lua_State *L, int embed) {
  const char *fname = embed ? "diag_embed" : "diagflat";
  ltl_args(L, 1, embed ? 3 : 1, 0, fname);
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer off = ltl_opt_int(L, 2, 0, "offset");
  lt_error err;
  if (!embed) return ltl_result(L, lt_diagflat(t, off, ltl_out(L), &err), &err, fname);
  int nd = t->ndim + 1;
  int d1 = ltl_opt_dim(L, 3, nd, nd - 2), d2 = ltl_opt_dim(L, 4, nd, nd - 1);
  return ltl_result(L, lt_diag_embed(t, off, d1, d2, ltl_out(L), &err), &err, fname);
}
static int m_diag_embed(lua_State *L) { return diag_of(L, 1); }
static int m_diagflat(lua_State *L) { return diag_of(L, 0); }

/* The tensors of a call f(t1, t2, ...) or f({t1, t2, ...}) (at most most of them), pushed as
   ltl_tensors' block; their count into *n. */
static const lt_tensor **tensor_args(lua_State *L, int most, int *n, const char *fname) {
  ltl_args(L, 0, most, 0, fname);
  int list = lua_type(L, 1) == LUA_TTABLE && !ltl_testud(L, 1);
  if (list) ltl_args_end(L, 0, 1, 0, fname);
  lua_Integer k = list ? (lua_Integer)lua_rawlen(L, 1) : lua_gettop(L);
  if (k > most) ltl_error(L, "%s: too many tensors (at most %d)", fname, most);
  *n = (int)k;
  return ltl_tensors(L, 1, k, list, fname, list ? "element" : "argument");
}

/* lt.broadcast_tensors(t1, t2, ...) or ({t1, t2, ...}): the views, as several values. */
static int f_broadcast_tensors(lua_State *L) {
  int n;
  const lt_tensor **ts = tensor_args(L, LTL_MAX_VALUES, &n, "broadcast_tensors");
  luaL_checkstack(L, n + 2, "broadcast_tensors: too many tensors");
  lt_tensor **outs = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof(lt_tensor *), 0);
  ltl_ud **uds = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof(ltl_ud *), 0);
  for (int i = 0; i < n; i++) uds[i] = ltl_newud(L); /* first: nothing raises after the views */
  lt_error err;
  if (lt_broadcast_tensors(ts, n, outs, &err)) return ltl_fail(L, "broadcast_tensors", &err);
  for (int i = 0; i < n; i++) uds[i]->t = outs[i];
  return n;
}

/* }====== */

/* {====== constructors ====== */

/* lt.cartesian_prod(t1, t2, ...) or ({t1, t2, ...}): 1-d tensors of one dtype. */
static int f_cartesian_prod(lua_State *L) {
  int n;
  const lt_tensor **ts = tensor_args(L, LT_MAX_NDIM, &n, "cartesian_prod");
  lt_error err;
  return ltl_result(L, lt_cartesian_prod(ts, n, ltl_out(L), &err), &err, "cartesian_prod");
}

/* lt.combinations(t, r = 2, with_replacement = false) */
static int f_combinations(lua_State *L) {
  ltl_args(L, 0, 3, 0, "combinations");
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer r = ltl_opt_int(L, 2, 2, "r");
  int rep = ltl_opt_bool(L, 3, 0, "with_replacement");
  lt_error err;
  return ltl_result(L, lt_combinations(t, r, rep, ltl_out(L), &err), &err, "combinations");
}

/* lt.tril_indices(row, col, offset = 0 [, dtype | {dtype = }]) and triu_indices: 2 x N int64
   (or the integer dtype given) of 1-based positions. */
static int tri_indices(lua_State *L, int upper, const char *fname) {
  lt_dtype opt;
  ltl_args(L, 0, 4, 1, fname);
  ltl_dtype_opts(L, 1, fname, &opt);
  lua_Integer row = ltl_check_int(L, 1, "row"), col = ltl_check_int(L, 2, "col");
  int darg = lua_type(L, 3) == LUA_TSTRING ? 3 : 4;
  lua_Integer off = darg == 4 ? ltl_opt_int(L, 3, 0, "offset") : 0;
  ltl_args_end(L, 0, darg, 1, fname);
  lt_dtype dt = ltl_dtype_pick(L, darg, opt, LT_INT64, fname);
  lt_error err;
  return ltl_result(L, lt_tri_indices(row, col, off, upper, dt, 1, ltl_out(L), &err), &err, fname);
}
static int f_tril_indices(lua_State *L) { return tri_indices(L, 0, "tril_indices"); }
static int f_triu_indices(lua_State *L) { return tri_indices(L, 1, "triu_indices"); }

/* lt.unravel_index(indices, shape): indices an integer tensor of 1-based flat positions (one
   int64 tensor of coordinates per dim of shape, as several values), or a Lua integer (several
   integers). shape a table or sizes as arguments. */
static int f_unravel_index(lua_State *L) {
  ltl_args(L, 0, LT_MAX_NDIM + 1, 0, "unravel_index");
  int64_t shape[LT_MAX_NDIM];
  int next, scalar = lua_type(L, 1) == LUA_TNUMBER;
  if (lua_isnone(L, 2)) return luaL_typeerror(L, 2, "shape (table or integers)");
  int nd = ltl_check_sizes(L, 2, shape, 0, &next);
  ltl_args_end(L, 0, next - 1, 0, "unravel_index");
  const lt_tensor *idx;
  if (scalar) {
    lua_Integer v = ltl_check_int(L, 1, "index");
    lt_tensor *s = ltl_push_new(L, LT_INT64, 0, NULL, 0);
    *(int64_t *)lt_data(s) = v;
    lua_replace(L, 1);
  }
  idx = ltl_check(L, 1);
  luaL_checkstack(L, 2 * nd + 3, "unravel_index: too many dims");
  lt_tensor **outs = lua_newuserdatauv(L, (size_t)(nd ? nd : 1) * sizeof(lt_tensor *), 0);
  ltl_ud **uds = lua_newuserdatauv(L, (size_t)(nd ? nd : 1) * sizeof(ltl_ud *), 0);
  int base = lua_gettop(L);
  for (int d = 0; d < nd; d++) uds[d] = ltl_newud(L); /* first: nothing raises after the call */
  lt_error err;
  if (lt_unravel_index(idx, nd, shape, 1, outs, &err)) return ltl_fail(L, "unravel_index", &err);
  for (int d = 0; d < nd; d++) uds[d]->t = outs[d];
  if (!scalar) return nd;
  for (int d = 0; d < nd; d++) lua_pushinteger(L, *(const int64_t *)lt_data(outs[d]));
  lua_rotate(L, base + 1, nd); /* the integers below the tensors, which the collector frees */
  lua_settop(L, base + nd);
  return nd;
}

/* lt.vander(x, N = #x, increasing = false) */
static int f_vander(lua_State *L) {
  ltl_args(L, 0, 3, 0, "vander");
  lt_tensor *x = ltl_check(L, 1);
  lua_Integer n = ltl_opt_int(L, 2, -1, "N");
  if (!lua_isnoneornil(L, 2) && n < 0)
    return luaL_argerror(L, 2, lua_pushfstring(L, "N %I must be non-negative", n));
  int inc = ltl_opt_bool(L, 3, 0, "increasing");
  lt_error err;
  return ltl_result(L, lt_vander(x, n, inc, ltl_out(L), &err), &err, "vander");
}

/* }====== */

/* {====== products ====== */

/* a:kron(b) and a:inner(b) */
static int m_kron(lua_State *L) {
  ltl_args(L, 1, 1, 0, "kron");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  return ltl_result(L, lt_kron(a, b, ltl_out(L), &err), &err, "kron");
}
static int m_inner(lua_State *L) {
  ltl_args(L, 1, 1, 0, "inner");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  return ltl_result(L, lt_inner(a, b, ltl_out(L), &err), &err, "inner");
}

/* lt.tensordot(a, b, dims = 2): dims an integer (a's last dims with b's first ones) or a pair of
   tables of 1-based dims {{a's}, {b's}}. */
static int f_tensordot(lua_State *L) {
  ltl_args(L, 0, 3, 0, "tensordot");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  int da[LT_MAX_NDIM], db[LT_MAX_NDIM], n;
  if (lua_type(L, 3) == LUA_TTABLE) {
    if (lua_rawlen(L, 3) != 2)
      return luaL_argerror(L, 3, "expected an integer or two tables of dims");
    lua_rawgeti(L, 3, 1);
    lua_rawgeti(L, 3, 2);
    if (!lua_istable(L, 4) || !lua_istable(L, 5))
      return luaL_argerror(L, 3, "expected an integer or two tables of dims");
    n = dim_list(L, 4, a->ndim, da);
    if (dim_list(L, 5, b->ndim, db) != n)
      return luaL_argerror(L, 3, "the two tables of dims must have one length");
    if (n > 0 && (a->ndim == 0 || b->ndim == 0))
      return luaL_argerror(L, 3, "a 0-d tensor has no dims to contract");
  } else {
    lua_Integer k = ltl_opt_int(L, 3, 2, "dims");
    if (k < 0 || k > a->ndim || k > b->ndim)
      return luaL_argerror(
          L, 3,
          lua_pushfstring(L, "dims %I is not between 0 and the tensors' dims (%d, %d)", k, a->ndim,
                          b->ndim));
    n = (int)k;
    for (int i = 0; i < n; i++) {
      da[i] = a->ndim - n + i;
      db[i] = i;
    }
  }
  lt_error err;
  return ltl_result(L, lt_tensordot(a, b, n, da, db, ltl_out(L), &err), &err, "tensordot");
}

/* }====== */

static const luaL_Reg layout_methods[] = {
    {"tensor_split", m_tensor_split},
    {"vsplit", m_vsplit},
    {"hsplit", m_hsplit},
    {"dsplit", m_dsplit},
    {"movedim", m_movedim},
    {"moveaxis", m_moveaxis},
    {"swapaxes", m_swapaxes},
    {"swapdims", m_swapdims},
    {"ravel", m_ravel},
    {"take_along_dim", m_take_along_dim},
    {"repeat_interleave", m_repeat_interleave},
    {"rot90", m_rot90},
    {"fliplr", m_fliplr},
    {"flipud", m_flipud},
    {"diag_embed", m_diag_embed},
    {"diagflat", m_diagflat},
    {"kron", m_kron},
    {"inner", m_inner},
    {NULL, NULL},
};

/* The module's own functions (torch has no Tensor method of these names), and
   repeat_interleave, whose module form also takes the repeats alone. */
static const luaL_Reg layout_funcs[] = {
    {"hstack", f_hstack},
    {"vstack", f_vstack},
    {"dstack", f_dstack},
    {"column_stack", f_column_stack},
    {"broadcast_tensors", f_broadcast_tensors},
    {"cartesian_prod", f_cartesian_prod},
    {"combinations", f_combinations},
    {"tril_indices", f_tril_indices},
    {"triu_indices", f_triu_indices},
    {"unravel_index", f_unravel_index},
    {"vander", f_vander},
    {"tensordot", f_tensordot},
    {"repeat_interleave", f_repeat_interleave},
    {NULL, NULL},
};

/* Every method but repeat_interleave (above) is also lt.X, the tensor first. */
static const char *const layout_forms[] = {
    "tensor_split", "vsplit",     "hsplit",   "dsplit",         "movedim", "moveaxis",
    "swapaxes",     "swapdims",   "ravel",    "take_along_dim", "rot90",   "fliplr",
    "flipud",       "diag_embed", "diagflat", "kron",           "inner",   NULL};

static void open_layout(lua_State *L, const ltl_tables *at) {
  ltl_module_forms(L, at->methods, at->module, layout_forms);
}

const ltl_part ltl_part_layout = {NULL, layout_methods, NULL, layout_funcs, open_layout};
