/*
 * lua_gather.c -- the methods that index with tensors: index_select, index_add(_),
 * index_copy(_), index_fill(_), gather, scatter(_), scatter_add(_), scatter_reduce(_), take,
 * masked_select, masked_scatter(_), nonzero, and lt.where(cond) with one argument.
 *
 * torch 2.x's names and positional order; dims and index values are 1-based (negatives from
 * the end), keyword-only arguments in a trailing options table. A method ending in _ writes
 * its tensor (read-only ones raise, copy-on-write clones get a block of their own) and returns
 * it; the form without _ writes a clone. Every check (every index value included) happens in
 * the core before the first element is written. lt.index_select, lt.gather, lt.take,
 * lt.masked_select and lt.nonzero are the same functions with the tensor first. Read only by
 * lua_init.c (ltl_part_gather); calls the base (lua_ud.h) and the core (lt_gather.h).
 */
#include <string.h>

#include "lt_copy.h"
#include "lt_gather.h"
#include "lt_math.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* Indices are 1-based on this side. */
#define BASE 1

static int fail(lua_State *L, const char *name, const lt_error *err) {
  return ltl_error(L, "%s: %s", name, err->msg);
}

/* The index tensor argument arg (int64 or int32). */
static lt_tensor *check_index(lua_State *L, int arg, const char *what) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (!ud)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "%s must be an int64 or int32 tensor (got %s)", what,
                                  luaL_typename(L, arg)));
  if (!ud->t) ltl_released(L);
  lt_error err;
  if (lt_check_index_dtype(ud->t, what, &err)) luaL_argerror(L, arg, err.msg);
  return ud->t;
}

/* The source tensor argument arg. */
static lt_tensor *check_src(lua_State *L, int arg, const char *name) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (!ud) ltl_error(L, "%s: src must be a tensor (got %s)", name, luaL_typename(L, arg));
  if (!ud->t) ltl_released(L);
  return ud->t;
}

/* The scalar argument arg as a value for dtype dt: a number, boolean, {re, im} or 0-d tensor. */
static void check_value(lua_State *L, int arg, lt_dtype dt, lt_scalar *s, const char *name) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (ud && ud->t && ud->t->ndim == 0) {
    ltl_check_readable(L, ud->t);
    lt_load(ud->t->dtype, lt_data(ud->t), s);
    return;
  }
  if (ud || !ltl_to_scalar(L, arg, dt, s))
    ltl_error(L, "%s: value must be a number, boolean or 0-d tensor (got %s)", name,
              ud ? "a tensor with dims" : luaL_typename(L, arg));
}

/* The tensor a method writes: self (in place, prepared for writing) or a new clone of it pushed
   on the stack. */
static lt_tensor *target(lua_State *L, int inplace, const char *name) {
  lt_tensor *t = ltl_check(L, 1);
  if (inplace) {
    ltl_prepare_write(L, t);
    return t;
  }
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_clone(t, &ud->t, &err)) fail(L, name, &err);
  return ud->t;
}

/* Returns the written tensor: self, or the clone on top. */
static int written(lua_State *L, int inplace) {
  if (inplace) lua_settop(L, 1);
  return 1;
}

/* {====== index_select and kin ====== */

static int m_index_select(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int dim = ltl_check_dim(L, 2, t->ndim > 0 ? t->ndim : 1);
  lt_tensor *idx = check_index(L, 3, "index");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_index_select(t, dim, idx, BASE, &ud->t, &err)) return fail(L, "index_select", &err);
  return 1;
}

/* index_copy(_)(dim, idx, src), index_add(_)(dim, idx, src, {alpha = }), index_fill(_)(dim,
   idx, value). */
static int index_put(lua_State *L, lt_putop op, int fill, int inplace, const char *name) {
  lt_operand alpha = {.t = NULL};
  int scale = 0;
  if (op == LT_PUT_SUM) {
    static const char *const keys[] = {"alpha"};
    int last = ltl_opts(L, 2, name, keys, 1);
    if (!lua_isnil(L, -1)) {
      if (ltl_testud(L, -1)) return ltl_error(L, "%s: alpha must be a number", name);
      ltl_check_operand(L, -1, &alpha, name);
      scale = 1;
    }
    lua_settop(L, last);
  }
  lua_settop(L, 4);
  lt_tensor *self = ltl_check(L, 1);
  int dim = ltl_check_dim(L, 2, self->ndim > 0 ? self->ndim : 1);
  lt_tensor *idx = check_index(L, 3, "index");
  lt_scalar s;
  lt_tensor *src = NULL;
  lt_error err;
  if (fill)
    check_value(L, 4, self->dtype, &s, name);
  else
    src = check_src(L, 4, name);
  if (scale) { /* src * alpha first; the core converts the product to self's dtype */
    lt_operand a = {.t = src};
    ltl_ud *ud = ltl_newud(L); /* owns the product */
    if (lt_binary(LT_MUL, &a, &alpha, NULL, &ud->t, &err)) return fail(L, name, &err);
    src = ud->t;
  }
  lt_tensor *t = target(L, inplace, name);
  if (lt_index_put(t, dim, idx, src, &s, op, BASE, &err)) return fail(L, name, &err);
  return written(L, inplace);
}

static int m_index_copy_(lua_State *L) { return index_put(L, LT_PUT_COPY, 0, 1, "index_copy_"); }
static int m_index_copy(lua_State *L) { return index_put(L, LT_PUT_COPY, 0, 0, "index_copy"); }
static int m_index_add_(lua_State *L) { return index_put(L, LT_PUT_SUM, 0, 1, "index_add_"); }
static int m_index_add(lua_State *L) { return index_put(L, LT_PUT_SUM, 0, 0, "index_add"); }
static int m_index_fill_(lua_State *L) { return index_put(L, LT_PUT_COPY, 1, 1, "index_fill_"); }
static int m_index_fill(lua_State *L) { return index_put(L, LT_PUT_COPY, 1, 0, "index_fill"); }

/* }====== */

/* {====== gather and scatter ====== */

static int m_gather(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  int dim = ltl_check_dim(L, 2, t->ndim > 0 ? t->ndim : 1);
  lt_tensor *idx = check_index(L, 3, "index");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_gather(t, dim, idx, BASE, &ud->t, &err)) return fail(L, "gather", &err);
  return 1;
}

static const char *const reduce_names[] = {"sum", "prod", "mean", "amax", "amin", NULL};
static const lt_putop reduce_ops[] = {LT_PUT_SUM, LT_PUT_PROD, LT_PUT_MEAN, LT_PUT_AMAX,
                                      LT_PUT_AMIN};

/* The common tail: (dim, idx, src or value) at 2..4, op, include_self. */
static int scatter_run(lua_State *L, lt_putop op, int include_self, int value_ok, int inplace,
                       const char *name) {
  lt_tensor *self = ltl_check(L, 1);
  int dim = ltl_check_dim(L, 2, self->ndim > 0 ? self->ndim : 1);
  lt_tensor *idx = check_index(L, 3, "index");
  lt_scalar s;
  lt_tensor *src = NULL;
  if (ltl_testud(L, 4) && !(value_ok && ltl_check(L, 4)->ndim == 0))
    src = check_src(L, 4, name);
  else if (value_ok)
    check_value(L, 4, self->dtype, &s, name);
  else
    src = check_src(L, 4, name);
  lt_tensor *t = target(L, inplace, name);
  lt_error err;
  if (lt_scatter(t, dim, idx, src, &s, op, include_self, BASE, &err)) return fail(L, name, &err);
  return written(L, inplace);
}

/* scatter(_)(dim, idx, src_or_value, {reduce = "add" | "multiply"}) */
static int scatter(lua_State *L, int inplace) {
  const char *name = inplace ? "scatter_" : "scatter";
  static const char *const keys[] = {"reduce"};
  int last = ltl_opts(L, 2, name, keys, 1);
  lt_putop op = LT_PUT_COPY;
  if (!lua_isnil(L, -1)) {
    const char *r = lua_tostring(L, -1);
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(r, "add") == 0)
      op = LT_PUT_SUM;
    else if (lua_type(L, -1) == LUA_TSTRING && strcmp(r, "multiply") == 0)
      op = LT_PUT_PROD;
    else
      return ltl_error(L, "%s: reduce must be 'add' or 'multiply' (got %s)", name,
                       r ? r : luaL_typename(L, -1));
  }
  lua_settop(L, last < 4 ? 4 : last);
  return scatter_run(L, op, 1, 1, inplace, name);
}

static int m_scatter_(lua_State *L) { return scatter(L, 1); }
static int m_scatter(lua_State *L) { return scatter(L, 0); }

static int scatter_add(lua_State *L, int inplace) {
  lua_settop(L, 4);
  return scatter_run(L, LT_PUT_SUM, 1, 0, inplace, inplace ? "scatter_add_" : "scatter_add");
}
static int m_scatter_add_(lua_State *L) { return scatter_add(L, 1); }
static int m_scatter_add(lua_State *L) { return scatter_add(L, 0); }

/* scatter_reduce(_)(dim, idx, src, reduce, {include_self = true}) */
static int scatter_reduce(lua_State *L, int inplace) {
  const char *name = inplace ? "scatter_reduce_" : "scatter_reduce";
  static const char *const keys[] = {"include_self"};
  int last = ltl_opts(L, 2, name, keys, 1);
  int include_self = ltl_opt_bool(L, -1, 1, "include_self");
  lua_settop(L, last < 5 ? 5 : last);
  if (lua_type(L, 5) != LUA_TSTRING)
    return ltl_error(L, "%s: reduce must be one of 'sum', 'prod', 'mean', 'amax', 'amin' (got %s)",
                     name, luaL_typename(L, 5));
  int r = 0;
  const char *rs = lua_tostring(L, 5);
  while (reduce_names[r] && strcmp(reduce_names[r], rs) != 0) r++;
  if (!reduce_names[r])
    return ltl_error(
        L, "%s: reduce must be one of 'sum', 'prod', 'mean', 'amax', 'amin' (got '%s')", name, rs);
  lua_settop(L, 4);
  return scatter_run(L, reduce_ops[r], include_self, 0, inplace, name);
}
static int m_scatter_reduce_(lua_State *L) { return scatter_reduce(L, 1); }
static int m_scatter_reduce(lua_State *L) { return scatter_reduce(L, 0); }

/* }====== */

/* {====== take, masks, nonzero ====== */

static int m_take(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_tensor *idx = check_index(L, 2, "index");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_take(t, idx, BASE, &ud->t, &err)) return fail(L, "take", &err);
  return 1;
}

static lt_tensor *check_mask(lua_State *L, int arg) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (!ud)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "mask must be a bool tensor (got %s)", luaL_typename(L, arg)));
  if (!ud->t) ltl_released(L);
  return ud->t;
}

static int m_masked_select(lua_State *L) {
  lt_tensor *t = ltl_check(L, 1);
  lt_tensor *mask = check_mask(L, 2);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_masked_select(t, mask, &ud->t, &err)) return fail(L, "masked_select", &err);
  return 1;
}

static int masked_scatter(lua_State *L, int inplace) {
  const char *name = inplace ? "masked_scatter_" : "masked_scatter";
  lua_settop(L, 3);
  ltl_check(L, 1);
  lt_tensor *mask = check_mask(L, 2);
  lt_tensor *src = check_src(L, 3, name);
  lt_tensor *t = target(L, inplace, name);
  lt_error err;
  if (lt_masked_scatter(t, mask, src, &err)) return fail(L, name, &err);
  return written(L, inplace);
}
static int m_masked_scatter_(lua_State *L) { return masked_scatter(L, 1); }
static int m_masked_scatter(lua_State *L) { return masked_scatter(L, 0); }

/* Pushes the positions of t's nonzero elements as a table of ndim 1-d int64 tensors (one per
   dim; a 0-d t counts as 1-d). */
static void push_tuple(lua_State *L, const lt_tensor *t) {
  lt_error err;
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  if (v->ndim == 0) v->ndim = 1, v->shape[0] = 1, v->strides[0] = 1;
  ltl_ud *pos = ltl_newud(L);
  if (lt_nonzero(v, BASE, &pos->t, &err)) fail(L, "nonzero", &err);
  lua_createtable(L, v->ndim, 0);
  for (int d = 0; d < v->ndim; d++) {
    lt_frame fc;
    lt_tensor *col = lt_frame_of(&fc, pos->t);
    LTL_CHECK(L, lt_select_(col, 1, d, &err), err);
    ltl_ud *ud = ltl_newud(L);
    LTL_CHECK(L, lt_clone(col, &ud->t, &err), err);
    lua_rawseti(L, -2, d + 1);
  }
  lua_remove(L, -2);
}

/* nonzero({as_tuple = false}) */
static int m_nonzero(lua_State *L) {
  static const char *const keys[] = {"as_tuple"};
  int last = ltl_opts(L, 2, "nonzero", keys, 1);
  int tuple = ltl_opt_bool(L, -1, 0, "as_tuple");
  if (last > 1) return ltl_error(L, "nonzero: expected no arguments but an options table");
  lt_tensor *t = ltl_check(L, 1);
  if (tuple) {
    push_tuple(L, t);
    return 1;
  }
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_nonzero(t, BASE, &ud->t, &err)) return fail(L, "nonzero", &err);
  return 1;
}

/* lt.where(cond): the positions, as nonzero(cond, {as_tuple = true}); lt.where(cond, a, b): the
   elementwise choice (upvalue 1, lua_math.c's). */
static int f_where(lua_State *L) {
  if (lua_gettop(L) == 1) {
    push_tuple(L, ltl_check(L, 1));
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

/* }====== */

static const luaL_Reg gather_methods[] = {{"index_select", m_index_select},
                                          {"index_copy_", m_index_copy_},
                                          {"index_copy", m_index_copy},
                                          {"index_add_", m_index_add_},
                                          {"index_add", m_index_add},
                                          {"index_fill_", m_index_fill_},
                                          {"index_fill", m_index_fill},
                                          {"gather", m_gather},
                                          {"scatter_", m_scatter_},
                                          {"scatter", m_scatter},
                                          {"scatter_add_", m_scatter_add_},
                                          {"scatter_add", m_scatter_add},
                                          {"scatter_reduce_", m_scatter_reduce_},
                                          {"scatter_reduce", m_scatter_reduce},
                                          {"take", m_take},
                                          {"masked_select", m_masked_select},
                                          {"masked_scatter_", m_masked_scatter_},
                                          {"masked_scatter", m_masked_scatter},
                                          {"nonzero", m_nonzero},
                                          {NULL, NULL}};

static const luaL_Reg gather_funcs[] = {
    {"index_select", m_index_select},   {"gather", m_gather},   {"take", m_take},
    {"masked_select", m_masked_select}, {"nonzero", m_nonzero}, {NULL, NULL}};

/* lt.where gains its one-argument form, over the three-argument one lua_math.c set. */
static void open_gather(lua_State *L, const ltl_tables *at) {
  lua_getfield(L, at->module, "where");
  lua_pushcclosure(L, f_where, 1);
  lua_setfield(L, at->module, "where");
}

const ltl_part ltl_part_gather = {NULL, gather_methods, NULL, gather_funcs, open_gather};
