/*
 * lua_index.c -- indexing a tensor from Lua: __index (methods, properties, t[i], t[{...}]),
 * __newindex, __len, __pairs, and t:get / t:set, the allocation-free multi-index access.
 *
 * Keys: an integer selects along the first dim; a table holds one entry per dim, an integer
 * (select) or a range {start, end, step} (inclusive, 1-based, negative from the end). A key
 * that selects down to one element reads or writes that element; any other gives a view.
 * Reading the integer key #t + 1 gives nil, the border of a Lua sequence, so that ipairs(t)
 * ends; every other key out of range raises, at the position of the script that indexed.
 * Read only by lua_init.c (ltl_part_index); calls the base (lua_ud.h) and the core.
 */
#include <string.h>

#include "lt_copy.h"
#include "lt_gather.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* Keeps a slow path out of the frame of the fast path that calls it (GCC and clang). */
#if defined(__GNUC__)
#define LTL_NOINLINE __attribute__((noinline))
#else
#define LTL_NOINLINE
#endif

/* {====== keys ====== */

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

/* The integer at idx; what names it in the message, after the entry of the key it is in
   (entry > 0: "key entry #2: range end must be an integer, got 2.5"). */
static lua_Integer key_int(lua_State *L, int idx, int entry, const char *what) {
  int isnum;
  lua_Integer i = lua_tointegerx(L, idx, &isnum);
  if (!isnum) {
    const char *got =
        lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx);
    if (entry > 0) ltl_error(L, "key entry #%d: %s must be an integer, got %s", entry, what, got);
    ltl_error(L, "%s must be an integer, got %s", what, got);
  }
  return i;
}

static void range_error(lua_State *L, const char *which, lua_Integer v, int dim, lua_Integer n) {
  ltl_error(L, "range %s %I is out of range for dim %d of size %I%s", which, v, dim + 1, n,
            v == 0 ? " (indices are 1-based)" : "");
}

/* Applies the range table at the top of the stack ({a, b, step}, inclusive), entry #entry of
   the key, to dim of v. An endpoint is blamed when it lies outside the dim, the start first; the
   start may be one past the end (either end, by the direction) only in an empty range. */
static void apply_range(lua_State *L, lt_tensor *v, int dim, int entry) {
  int64_t n = v->shape[dim];
  lua_Integer a, b, step = 1;
  if (lua_rawgeti(L, -1, 4) != LUA_TNIL)
    ltl_error(L, "key entry #%d: a range has at most 3 entries {start, end, step}", entry);
  if (lua_rawgeti(L, -2, 3) != LUA_TNIL) step = key_int(L, -1, entry, "range step");
  lua_pop(L, 2);
  if (step == 0) ltl_error(L, "range step must be a nonzero integer");
  /* |step| in unsigned arithmetic: LUA_MININTEGER has no positive counterpart */
  lua_Unsigned ustep = step > 0 ? (lua_Unsigned)step : 0u - (lua_Unsigned)step;
  a = step > 0 ? 1 : (lua_Integer)n;
  b = step > 0 ? (lua_Integer)n : 1;
  if (lua_rawgeti(L, -1, 1) != LUA_TNIL) a = key_int(L, -1, entry, "range start");
  if (lua_rawgeti(L, -2, 2) != LUA_TNIL) b = key_int(L, -1, entry, "range end");
  lua_pop(L, 2);
  lua_Integer ra = a, rb = b, nn = (lua_Integer)n;
  if (a < 0) a += nn + 1;
  if (b < 0) b += nn + 1;
  /* the checks come before any difference of the two: a and b may be far apart */
  int empty = step > 0 ? b < a : a < b;
  if (step > 0) {
    if (a < 1 || a > nn + empty) range_error(L, "start", ra, dim, nn);
    if (b < !empty || b > nn) range_error(L, "end", rb, dim, nn);
  } else {
    if (a < !empty || a > nn) range_error(L, "start", ra, dim, nn);
    if (b < 1 || b > nn + empty) range_error(L, "end", rb, dim, nn);
  }
  lua_Unsigned span = step > 0 ? (lua_Unsigned)(b - a) : (lua_Unsigned)(a - b);
  int64_t count = empty ? 0 : (int64_t)(span / ustep) + 1;
  lt_error err;
  int64_t start = count > 0 ? a - 1 : (a - 1 < 0 ? 0 : (a - 1 > nn ? nn : a - 1));
  LTL_CHECK(L, lt_slice_(v, dim, start, count, step, &err), err);
}

/* What apply_key returns for a key that holds a tensor (index_key's, not a view's). */
#define KEY_TENSOR 2

/*
 * Applies the key at kidx (an integer, or a table of per-dim entries) to the frame v.
 * Returns 1 when the key selected single elements all the way down (a scalar position),
 * KEY_TENSOR when the key is or holds a tensor (v is then partly applied: start again).
 */
static int apply_key(lua_State *L, lt_tensor *v, int kidx) {
  lt_error err;
  if (lua_type(L, kidx) == LUA_TUSERDATA && ltl_testud(L, kidx)) return KEY_TENSOR;
  if (lua_type(L, kidx) == LUA_TNUMBER) {
    if (v->ndim == 0) ltl_error(L, "cannot index a 0-d tensor (use item())");
    int64_t i = ltl_norm_index(L, key_int(L, kidx, 0, "index"), v->shape[0], 0);
    LTL_CHECK(L, lt_select_(v, 0, i, &err), err);
    return v->ndim == 0;
  }
  if (lua_type(L, kidx) != LUA_TTABLE)
    ltl_error(L, "invalid index: integer, table or tensor expected, got %s",
              luaL_typename(L, kidx));
  lua_Unsigned len = lua_rawlen(L, kidx);
  int dim = 0, selected = 0;
  luaL_checkstack(L, 4, NULL);
  for (lua_Unsigned k = 1; k <= len; k++) {
    if (dim >= v->ndim)
      ltl_error(L, "too many indices for a tensor of %d dims", v->ndim + selected);
    switch (lua_rawgeti(L, kidx, (lua_Integer)k)) {
      case LUA_TNUMBER: {
        lua_Integer i0 = key_int(L, -1, (int)k, "index");
        int64_t i = ltl_norm_index(L, i0, v->shape[dim], dim + selected);
        LTL_CHECK(L, lt_select_(v, dim, i, &err), err);
        selected++;
        break;
      }
      case LUA_TTABLE:
        apply_range(L, v, dim, (int)k);
        dim++;
        break;
      default:
        if (ltl_testud(L, -1)) return KEY_TENSOR;
        ltl_error(L, "invalid index entry #%d: integer, table or tensor expected, got %s", (int)k,
                  luaL_typename(L, -1));
    }
    lua_pop(L, 1);
  }
  return selected > 0 && v->ndim == 0;
}

/* {------ keys that hold tensors ------ */

/* Pushes a new tensor owning t (the stack keeps what a key makes alive). */
static lt_tensor *push_owned(lua_State *L, lt_tensor *t) {
  ltl_ud *ud = ltl_newud(L);
  ud->t = t;
  return t;
}

/* Mask entry #entry (bool tensor m) on dims dim.. of v, into k: the positions of its true
   elements, one 1-d index tensor per dim it covers (pushed). A 0-d mask adds a dim of size 1
   at dim, indexed once (true) or not at all (false), as torch. Returns the dims it covers. */
static int mask_entry(lua_State *L, lt_tensor *v, const lt_tensor *m, int dim, int shown, int entry,
                      lt_adv_key *k) {
  lt_error err;
  if (m->ndim == 0) {
    if (v->ndim >= LT_MAX_NDIM) ltl_error(L, "too many dims");
    ltl_check_readable(L, m);
    for (int d = v->ndim; d > dim; d--)
      v->shape[d] = v->shape[d - 1], v->strides[d] = v->strides[d - 1];
    v->ndim++;
    v->shape[dim] = 1;
    v->strides[dim] = 0;
    int64_t n = *lt_data(m) != 0, one = 1;
    lt_tensor *ix;
    LTL_CHECK(L, lt_tensor_new(LT_INT64, 1, &n, 0, &ix, &err), err);
    if (n) memcpy(lt_data(ix), &one, sizeof one);
    push_owned(L, ix);
    k->dims[k->n] = dim, k->udims[k->n] = shown, k->idx[k->n++] = ix;
    return 1;
  }
  if (dim + m->ndim > v->ndim) ltl_error(L, "too many indices for a tensor of %d dims", v->ndim);
  for (int i = 0; i < m->ndim; i++)
    if (m->shape[i] != v->shape[dim + i]) {
      char a[96], b[96];
      lt_shape_str(m->ndim, m->shape, a, sizeof a);
      lt_shape_str(m->ndim, v->shape + dim, b, sizeof b);
      ltl_error(L, "key entry #%d: mask of shape %s does not match the shape %s it indexes", entry,
                a, b);
    }
  lt_tensor *pos;
  if (lt_nonzero(m, 1, &pos, &err)) ltl_error(L, "%s", err.msg);
  push_owned(L, pos);
  for (int i = 0; i < m->ndim; i++) {
    lt_tensor *col;
    LTL_CHECK(L, lt_select(pos, 1, i, &col, &err), err);
    push_owned(L, col);
    k->dims[k->n] = dim + i, k->udims[k->n] = shown + i, k->idx[k->n++] = col;
  }
  return m->ndim;
}

/*
 * A key that is or holds tensors (kidx), over the frame v of the tensor: integers select and
 * ranges slice v as apply_key does, integer tensors and bool masks are collected into k, in
 * order (they and what they make are pushed). The dims after the key's entries are kept whole.
 */
static void index_key(lua_State *L, lt_tensor *v, int kidx, lt_adv_key *k) {
  int single = lua_type(L, kidx) != LUA_TTABLE;
  lua_Unsigned len = single ? 1 : lua_rawlen(L, kidx);
  int dim = 0, selected = 0;
  lt_error err;
  k->n = 0;
  for (lua_Unsigned e = 1; e <= len; e++) {
    luaL_checkstack(L, 2 * LT_MAX_NDIM + 8, NULL);
    if (single)
      lua_pushvalue(L, kidx);
    else
      lua_rawgeti(L, kidx, (lua_Integer)e);
    int at = lua_gettop(L);
    ltl_ud *ud = ltl_testud(L, at);
    if (!(ud && ud->t && ud->t->dtype == LT_BOOL && ud->t->ndim == 0) && dim >= v->ndim)
      ltl_error(L, "too many indices for a tensor of %d dims", v->ndim + selected);
    if (ud) {
      const lt_tensor *x = ud->t;
      if (!x) ltl_released(L);
      if (x->dtype == LT_BOOL) {
        dim += mask_entry(L, v, x, dim, dim + selected, (int)e, k);
      } else if (x->dtype == LT_INT64 || x->dtype == LT_INT32) {
        k->dims[k->n] = dim, k->udims[k->n] = dim + selected, k->idx[k->n++] = x;
        dim++;
      } else {
        ltl_error(L, "key entry #%d: an index tensor must be bool, int64 or int32, got %s", (int)e,
                  lt_dtype_name(x->dtype));
      }
    } else if (lua_type(L, at) == LUA_TNUMBER) {
      int64_t i = ltl_norm_index(L, key_int(L, at, (int)e, "index"), v->shape[dim], dim + selected);
      LTL_CHECK(L, lt_select_(v, dim, i, &err), err);
      selected++; /* torch's rule: an integer selects first, as if it were not there */
    } else if (lua_type(L, at) == LUA_TTABLE) {
      lua_pushvalue(L, at);
      apply_range(L, v, dim, (int)e);
      lua_pop(L, 1);
      dim++;
    } else {
      ltl_error(L, "invalid index entry #%d: integer, table or tensor expected, got %s", (int)e,
                luaL_typename(L, at));
    }
    /* a tensor entry stays on the stack: k holds its header, which a finalizer run by a later
       allocation may detach (closing it) and, were only the key table holding it, free */
    if (!ud) lua_remove(L, at);
  }
}

/* t[key] for a key with tensors: a new tensor (torch's advanced indexing copies). */
static int index_tensor_key(lua_State *L, const lt_tensor *t, int kidx) {
  lt_frame f;
  lt_adv_key k;
  lt_error err;
  lt_tensor *v = lt_frame_of(&f, t);
  ltl_ud *key = ltl_testud(L, kidx);
  /* the mask's header, taken once: a finalizer run by the allocation below may close the mask,
     which empties key->t but keeps the header while the key is on the stack */
  const lt_tensor *mask = key ? key->t : NULL;
  if (mask && mask->dtype == LT_BOOL && mask->ndim > 0) { /* t[mask] */
    ltl_ud *ud = ltl_newud(L);
    if (lt_mask_read(v, mask, &ud->t, &err)) ltl_error(L, "%s", err.msg);
    return 1;
  }
  index_key(L, v, kidx, &k);
  ltl_check_readable(L, v);
  ltl_ud *ud = ltl_newud(L);
  if (lt_adv_read(v, &k, 1, &ud->t, &err)) ltl_error(L, "%s", err.msg);
  return 1;
}

/* t[key] = value for a key with tensors: a fill (number, boolean) or a tensor (or nested table)
   broadcast to the selected shape; every check before the first write. */
static void assign_tensor_key(lua_State *L, lt_tensor *t, int kidx, int vidx) {
  lt_frame f;
  lt_adv_key k;
  lt_error err;
  lt_scalar s;
  lt_tensor *v = lt_frame_of(&f, t);
  ltl_prepare_write(L, v);
  index_key(L, v, kidx, &k);
  const lt_tensor *src = NULL;
  ltl_ud *ud = ltl_testud(L, vidx);
  if (ud) {
    if (!ud->t) ltl_released(L);
    src = ud->t;
  } else if (lua_type(L, vidx) == LUA_TTABLE) {
    src = ltl_from_table(L, vidx, v->dtype);
  } else if (!ltl_to_scalar(L, vidx, v->dtype, &s)) {
    ltl_error(L, "cannot assign a %s to a tensor (number, boolean, table or tensor expected)",
              luaL_typename(L, vidx));
  }
  if (lt_adv_write(v, &k, src, &s, LT_PUT_COPY, 0, 1, &err)) ltl_error(L, "%s", err.msg);
}

/* }------ */

/* }====== */

/* {====== reading and writing through a key ====== */

/* Pushes a new tensor sharing the view v (a frame). */
static void push_view(lua_State *L, const lt_tensor *v) {
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  LTL_CHECK(L, lt_tensor_alias(v, &ud->t, &err), err);
}

/* Writes the Lua value at vidx into the view v: an element, a fill, or a broadcast copy. */
static void assign(lua_State *L, lt_tensor *v, int vidx) {
  lt_error err;
  ltl_prepare_write(L, v);
  ltl_ud *src = ltl_testud(L, vidx);
  if (src) {
    if (!src->t) ltl_released(L);
    LTL_CHECK(L, lt_copy(v, src->t, &err), err);
    return;
  }
  lt_scalar s;
  /* a table is a {re, im} scalar only for one complex element; otherwise it holds rows */
  if ((v->ndim == 0 || lua_type(L, vidx) != LUA_TTABLE) && ltl_to_scalar(L, vidx, v->dtype, &s)) {
    if (v->ndim == 0) {
      if (lt_store(v->dtype, lt_data(v), &s) != LT_STORE_OK) ltl_scalar_error(L, &s, v->dtype);
    } else {
      LTL_CHECK(L, lt_fill(v, &s, &err), err);
    }
    return;
  }
  if (lua_type(L, vidx) == LUA_TTABLE) {
    lt_tensor *tmp = ltl_from_table(L, vidx, v->dtype);
    LTL_CHECK(L, lt_copy(v, tmp, &err), err);
    lua_pop(L, 1);
    return;
  }
  ltl_error(L, "cannot assign a %s to a tensor (number, boolean, table or tensor expected)",
            luaL_typename(L, vidx));
}

/* t:copy_(src): src (a tensor, scalar or nested table) written into all of t. */
static int m_copy_(lua_State *L) {
  ltl_args(L, 1, 1, 0, "copy_");
  lt_tensor *t = ltl_check(L, 1);
  luaL_checkany(L, 2);
  lt_frame f;
  assign(L, lt_frame_of(&f, t), 2);
  lua_settop(L, 1);
  return 1;
}

/* {------ row views ------ */

/*
 * t[i] on an n-d tensor is a view, and t[i][j] = t[i][j] + 1 would make two of them per element
 * (torch7's issue 474: a userdata, a header and a finalizer each). A tensor's user value
 * LTL_UV_ROW holds the view it gave last; t[i] gives it again while it still is row i of this
 * tensor, so a loop over the elements of a row allocates once per row. The view is an ordinary
 * tensor (its own header and storage reference, collected as any), so every lifetime rule holds
 * as for a new one; the only difference a script sees is that t[i] == t[i] while the row is
 * kept, and `<close>` on one closes both (a closed row is then made again). What the user value
 * holds is checked in full before it is given, so nothing put there (debug.setuservalue) is
 * taken for a row.
 */

/* Whether r is the view of row i0 (0-based, in range) of t. */
static inline int is_row(const lt_tensor *r, const lt_tensor *t, int64_t i0) {
  if (r->offset != t->offset + i0 * t->strides[0] || r->storage != t->storage ||
      r->ndim != t->ndim - 1 || r->dtype != t->dtype || r->readonly != t->readonly ||
      r->packed != t->packed || r->dl_dtype.code != t->dl_dtype.code ||
      r->dl_dtype.bits != t->dl_dtype.bits || r->dl_dtype.lanes != t->dl_dtype.lanes)
    return 0;
  for (int d = 0; d < r->ndim; d++)
    if (r->shape[d] != t->shape[d + 1] || r->strides[d] != t->strides[d + 1]) return 0;
  return 1;
}

/* Pushes t[i0 + 1] of the tensor t at stack index 1 (i0 in range): the element of a 1-d
   tensor, else the row view, the kept one when it still is that row. */
static int push_at(lua_State *L, const lt_tensor *t, int64_t i0) {
  if (t->ndim == 1) {
    if (!lt_readable(t)) ltl_check_readable(L, t);
    ltl_push_element(L, t->dtype, lt_data(t) + i0 * t->strides[0] * (int64_t)lt_esize(t));
    if (lt_map_damaged(t)) ltl_check_readable(L, t); /* this read met the truncation */
    return 1;
  }
  if (lt_storage_revoked(t->storage)) return ltl_released(L);
  if (lua_getiuservalue(L, 1, LTL_UV_ROW) == LUA_TUSERDATA) {
    ltl_ud *r = ltl_testud(L, -1); /* any value a script put there is checked, size first */
    if (r && r->t && is_row(r->t, t, i0)) return 1;
  }
  lua_pop(L, 1);
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  lt_error err;
  LTL_CHECK(L, lt_select_(v, 0, i0, &err), err);
  push_view(L, v);
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, 1, LTL_UV_ROW); /* pops the copy */
  return 1;
}

/* }------ */

/* {------ the fast paths ------
 *
 * t[i] and t[i] = v with an integer i are what element loops run, once or twice per element:
 * __index and __newindex try them first in a small frame, and leave everything else (and every
 * error) to the general paths, which start over and make the same checks with their messages.
 * What they may take: a 1-d tensor whose element can be read (written) at once, and the row
 * t[i] of an n-d tensor that the tensor still keeps (row views, above). Measured with callgrind
 * on bench_access's loops: a call into the general path's frame (a few KiB of key state) and
 * the size check of a kept row cost t[i][j] a quarter of its instructions.
 */

/* The address of element i (1-based, negative from the end) of t when t is 1-d and i is in
   range; NULL otherwise. */
static inline char *fast_element(const lt_tensor *t, lua_Integer i) {
  if (t->ndim != 1) return NULL;
  int64_t n = t->shape[0];
  if (i < 0) i += n + 1;
  if ((lua_Unsigned)i - 1u >= (lua_Unsigned)n) return NULL; /* i < 1 or i > n */
  return lt_data(t) + (i - 1) * t->strides[0] * (int64_t)lt_esize(t);
}

/* Pushes the row i (1-based, negative from the end) of the n-d tensor t at stack index 1 when t
   keeps it (push_at made it) and it still is that row; 0 with nothing pushed otherwise. Only a
   userdata with the tensor tag is taken, the tag read as self_ud reads it. */
static inline int push_kept_row(lua_State *L, const lt_tensor *t, lua_Integer i) {
  int64_t n = t->shape[0];
  if (i < 0) i += n + 1;
  if ((lua_Unsigned)i - 1u >= (lua_Unsigned)n || lt_storage_revoked(t->storage)) return 0;
  if (lua_getiuservalue(L, 1, LTL_UV_ROW) == LUA_TUSERDATA) {
    const ltl_ud *r = lua_touserdata(L, -1);
    if (r->tag == &ltl_tensor_key && r->t && is_row(r->t, t, i - 1)) return 1;
  }
  lua_pop(L, 1);
  return 0;
}

/* }------ */

/* t[i] for an integer i, off the fast paths: a row, the border #t + 1 (nil), or the general
   path's error (0 returned). */
static int index_integer(lua_State *L, const lt_tensor *t, lua_Integer i) {
  if (t->ndim == 0) return 0;
  int64_t n = t->shape[0];
  if (i < 0) i += n + 1; /* from here i == n + 1 only when the key was n + 1 */
  if (i >= 1 && i <= n) return push_at(L, t, i - 1);
  if (i == n + 1 && !lt_storage_revoked(t->storage)) { /* the border of the sequence */
    lua_pushnil(L);
    return 1;
  }
  return 0;
}

/* __index off the fast paths: methods, properties, rows, selections, ranges and tensor keys.
   Upvalue 1 holds the methods, upvalue 2 the properties. */
static LTL_NOINLINE int index_general(lua_State *L) {
  ltl_ud *ud = self_ud(L);
  if (!ud) return luaL_typeerror(L, 1, "tensor");
  switch (lua_type(L, 2)) {
    case LUA_TNUMBER: {
      lt_tensor *t = ud->t;
      if (!t) return ltl_released(L);
      int isnum;
      lua_Integer i = lua_tointegerx(L, 2, &isnum);
      if (!isnum) break;
      if (index_integer(L, t, i)) return 1;
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
  /* selections and ranges */
  lt_tensor *t = ud->t;
  if (!t || lt_storage_revoked(t->storage)) return ltl_released(L);
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  int r = apply_key(L, v, 2);
  if (r == KEY_TENSOR) return index_tensor_key(L, t, 2);
  if (r) {
    ltl_check_readable(L, v);
    ltl_push_element(L, v->dtype, lt_data(v));
  } else {
    push_view(L, v);
  }
  return 1;
}

/* __index: the fast paths (an element of a 1-d tensor, a kept row), else index_general. */
static int t_index(lua_State *L) {
  const ltl_ud *ud = self_ud(L);
  if (ud && ud->t && lua_type(L, 2) == LUA_TNUMBER) {
    const lt_tensor *t = ud->t;
    int isnum;
    lua_Integer i = lua_tointegerx(L, 2, &isnum);
    if (isnum) {
      const char *p = fast_element(t, i);
      if (p && lt_readable(t)) {
        ltl_push_element(L, t->dtype, p);
        /* a mapped file truncated during this very read (the mapping guard's zero pages):
           raise rather than give the zero */
        if (lt_map_damaged(t)) ltl_check_readable(L, t);
        return 1;
      }
      if (t->ndim > 1 && push_kept_row(L, t, i)) return 1;
    }
  }
  return index_general(L);
}

/* __newindex off the fast path: every check, with its message, then the write. */
static LTL_NOINLINE int newindex_general(lua_State *L) {
  ltl_ud *ud = self_ud(L);
  if (!ud) return luaL_typeerror(L, 1, "tensor");
  lt_tensor *t = ud->t;
  if (!t || lt_storage_revoked(t->storage)) return ltl_released(L);
  if (lua_type(L, 2) == LUA_TSTRING)
    return ltl_error(L, "cannot set field '%s' of a tensor", lua_tostring(L, 2));
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  if (apply_key(L, v, 2) == KEY_TENSOR)
    assign_tensor_key(L, t, 2, 3);
  else
    assign(L, v, 3);
  return 0;
}

/* __newindex: an element of a 1-d tensor that may be written at once (a revoked tensor is not
   write-ready, nor a copy-on-write clone still sharing its block: the general path unshares it
   and charges the copy), else newindex_general. */
static int t_newindex(lua_State *L) {
  const ltl_ud *ud = self_ud(L);
  if (ud && ud->t && lua_type(L, 2) == LUA_TNUMBER) {
    lt_tensor *t = ud->t;
    int isnum;
    lua_Integer i = lua_tointegerx(L, 2, &isnum);
    char *p = isnum ? fast_element(t, i) : NULL;
    if (p && lt_write_ready(t)) {
      ltl_store_element(L, 3, t->dtype, p);
      return 0;
    }
  }
  return newindex_general(L);
}

/* The iterator of pairs(t): (t, i) -> i + 1, t[i + 1], or nothing after the last. */
static int pairs_next(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lua_Integer i = luaL_checkinteger(L, 2);
  if (t->ndim == 0) return ltl_error(L, "iteration over a 0-d tensor");
  if (i < 0 || i >= (lua_Integer)t->shape[0]) return 0;
  lua_settop(L, 1);
  lua_pushinteger(L, i + 1);
  push_at(L, t, (int64_t)i);
  return 2;
}

/* __pairs: iterates (i, t[i]) for i = 1, #t, as ipairs does. */
static int t_pairs(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim == 0) return ltl_error(L, "iteration over a 0-d tensor");
  lua_pushcfunction(L, pairs_next);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int t_len(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  if (t->ndim == 0) return ltl_error(L, "len() of a 0-d tensor");
  lua_pushinteger(L, (lua_Integer)t->shape[0]);
  return 1;
}

/* }====== */

/* {====== t:get(i, j, ...), t:set(i, j, ..., value) ====== */

/* The address of the element named by the ndim integer arguments from arg on. */
static char *index_args(lua_State *L, const lt_tensor *t, int arg) {
  int64_t off = 0;
  for (int d = 0; d < t->ndim; d++) {
    int isnum;
    lua_Integer i = lua_tointegerx(L, arg + d, &isnum);
    int64_t n = t->shape[d];
    if (!isnum) ltl_check_int(L, arg + d, "index");
    if (i < 0) i += n + 1;
    if (i < 1 || i > n) ltl_norm_index(L, lua_tointeger(L, arg + d), n, d);
    off += (i - 1) * t->strides[d];
  }
  return lt_data(t) + off * (int64_t)lt_esize(t);
}

/* The number of indices (and a value when set) given to get or set (fname) on t: ndim, else it
   raises; nothing else may follow. */
static void check_indices(lua_State *L, const lt_tensor *t, int value, const char *fname) {
  int nidx = lua_gettop(L) - 1 - value;
  if (nidx > t->ndim) ltl_args_end(L, 1, t->ndim + 1 + value, 0, fname);
  if (nidx != t->ndim)
    ltl_error(L, "%s: expected %d indices%s for a %d-d tensor, got %d%s", fname, t->ndim,
              value ? " and a value" : "", t->ndim, nidx < 0 ? 0 : nidx, value ? " indices" : "");
}

static int m_get(lua_State *L) {
  ltl_args(L, 1, LT_MAX_NDIM + 1, 0, "get");
  lt_tensor *t = ltl_check(L, 1);
  check_indices(L, t, 0, "get");
  char *p = index_args(L, t, 2);
  if (!lt_readable(t)) ltl_check_readable(L, t);
  ltl_push_element(L, t->dtype, p);
  return 1;
}

static int m_set(lua_State *L) {
  int given = lua_gettop(L);
  ltl_args(L, 1, LT_MAX_NDIM + 2, 0, "set");
  lt_tensor *t = ltl_check(L, 1);
  if (given == t->ndim + 2) lua_settop(L, given); /* set(i, j, nil): "cannot write a nil" */
  check_indices(L, t, 1, "set");
  if (!lt_write_ready(t)) ltl_prepare_write(L, t);
  char *p = index_args(L, t, 2);
  ltl_store_value(L, lua_gettop(L), t->dtype, p);
  return 0;
}

/* }====== */

static const luaL_Reg index_methods[] = {
    {"get", m_get}, {"set", m_set}, {"copy_", m_copy_}, {NULL, NULL}};

static const luaL_Reg index_metameth[] = {
    {"__newindex", t_newindex}, {"__len", t_len}, {"__pairs", t_pairs}, {NULL, NULL}};

/* __index: a closure over the methods and properties tables */
static void open_index(lua_State *L, const ltl_tables *at) {
  lua_pushvalue(L, at->methods);
  lua_pushvalue(L, at->props);
  lua_pushcclosure(L, t_index, 2);
  lua_setfield(L, at->mt, "__index");
}

const ltl_part ltl_part_index = {index_metameth, index_methods, NULL, NULL, open_index};
