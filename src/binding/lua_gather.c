/*
 * lua_gather.c -- the methods that index with tensors: index_select, index_add(_),
 * index_copy(_), index_fill(_), gather, scatter(_), scatter_add(_), scatter_reduce(_), take,
 * masked_select, masked_scatter(_), nonzero, and lt.where(cond) with one argument.
 *
 * torch 2.x's names and positional order; dims and index values are 1-based (negatives from
 * the end), keyword-only arguments in a trailing options table. A method ending in _ writes
 * its tensor (read-only ones raise, copy-on-write clones get a block of their own) and returns
 * it; the form without _ writes a clone. Every check (every index value included) happens in
 * the core before the first element is written. The methods torch also has as torch.X are lt.X
 * too, the same functions with the tensor first (gather_forms). Read only by lua_init.c
 * (ltl_part_gather); calls the base (lua_ud.h) and the core (lt_gather.h).
 */
#include <string.h>

#include "lt_copy.h"
#include "lt_gather.h"
#include "lt_math.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* Indices are 1-based on this side. */
#define BASE 1

/* The index tensor argument arg (int64 or int32). */
static lt_tensor *check_index(lua_State *L, int arg, const char *what) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (!ud)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "%s must be an int64 or int32 tensor, got %s", what,
                                  luaL_typename(L, arg)));
  if (!ud->t) ltl_released(L);
  lt_error err;
  if (lt_check_index_dtype(ud->t, what, &err)) luaL_argerror(L, arg, err.msg);
  return ud->t;
}

/* The source tensor argument arg. */
static lt_tensor *check_src(lua_State *L, int arg, const char *name) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (!ud) ltl_error(L, "%s: src must be a tensor, got %s", name, luaL_typename(L, arg));
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
    ltl_error(L, "%s: value must be a number, boolean or 0-d tensor, got %s", name,
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
  lt_tensor **out = ltl_out(L);
  ltl_result(L, lt_clone(t, out, &err), &err, name);
  return *out;
}

/* Returns the written tensor: self, or the clone on top; raises the core's error first. */
static int written(lua_State *L, int rc, const lt_error *err, int inplace, const char *name) {
  if (rc) return ltl_fail(L, name, err);
  if (inplace) lua_settop(L, 1);
  return 1;
}

/* The tensor and the (dim, index) of a method that takes them first, with at most most
   arguments after the tensor (then an options table, with opts). */
static lt_tensor *dim_index(lua_State *L, int most, int opts, const char *name, int *dim,
                            lt_tensor **idx) {
  ltl_args(L, 1, most, opts, name);
  lt_tensor *t = ltl_check(L, 1);
  *dim = ltl_check_dim(L, 2, t->ndim > 0 ? t->ndim : 1);
  *idx = check_index(L, 3, "index");
  return t;
}

/* {====== index_select and kin ====== */

/* index_select(dim, index) and gather(dim, index): a new tensor. */
static int select_or_gather(lua_State *L, int gather, const char *name) {
  int dim;
  lt_tensor *idx, *t = dim_index(L, 2, 0, name, &dim, &idx);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  int rc = gather ? lt_gather(t, dim, idx, BASE, out, &err)
                  : lt_index_select(t, dim, idx, BASE, out, &err);
  return ltl_result(L, rc, &err, name);
}
static int m_index_select(lua_State *L) { return select_or_gather(L, 0, "index_select"); }
static int m_gather(lua_State *L) { return select_or_gather(L, 1, "gather"); }

/* index_copy(_)(dim, idx, src), index_add(_)(dim, idx, src, {alpha = }), index_fill(_)(dim,
   idx, value). */
static int index_put(lua_State *L, lt_putop op, int fill, int inplace, const char *name) {
  lt_operand alpha = {.t = NULL};
  int scale = 0, sum = op == LT_PUT_SUM;
  ltl_args(L, 1, 3, sum, name);
  if (sum) {
    static const char *const keys[] = {"alpha"};
    int last = ltl_opts(L, 2, name, keys, 1);
    if (!lua_isnil(L, -1)) {
      if (ltl_testud(L, -1)) return ltl_error(L, "%s: alpha must be a number, got tensor", name);
      ltl_check_operand(L, -1, &alpha, name);
      scale = 1;
    }
    lua_settop(L, last);
  }
  int dim;
  lt_tensor *idx, *self = dim_index(L, 3, sum, name, &dim, &idx);
  lt_scalar s;
  lt_tensor *src = NULL;
  lt_error err;
  if (fill)
    check_value(L, 4, self->dtype, &s, name);
  else
    src = check_src(L, 4, name);
  if (scale) { /* src * alpha first; the core converts the product to self's dtype */
    lt_operand a = {.t = src};
    lt_tensor **prod = ltl_out(L); /* owns the product */
    if (lt_binary(LT_MUL, &a, &alpha, NULL, prod, &err)) return ltl_fail(L, name, &err);
    src = *prod;
  }
  lt_tensor *t = target(L, inplace, name);
  return written(L, lt_index_put(t, dim, idx, src, &s, op, BASE, &err), &err, inplace, name);
}

static int m_index_copy_(lua_State *L) { return index_put(L, LT_PUT_COPY, 0, 1, "index_copy_"); }
static int m_index_copy(lua_State *L) { return index_put(L, LT_PUT_COPY, 0, 0, "index_copy"); }
static int m_index_add_(lua_State *L) { return index_put(L, LT_PUT_SUM, 0, 1, "index_add_"); }
static int m_index_add(lua_State *L) { return index_put(L, LT_PUT_SUM, 0, 0, "index_add"); }
static int m_index_fill_(lua_State *L) { return index_put(L, LT_PUT_COPY, 1, 1, "index_fill_"); }
static int m_index_fill(lua_State *L) { return index_put(L, LT_PUT_COPY, 1, 0, "index_fill"); }

/* }====== */

/* {====== gather and scatter ====== */

static const char *const reduce_names[] = {"sum", "prod", "mean", "amax", "amin", NULL};
static const lt_putop reduce_ops[] = {LT_PUT_SUM, LT_PUT_PROD, LT_PUT_MEAN, LT_PUT_AMAX,
                                      LT_PUT_AMIN};

/* The common tail: (dim, idx, src or value) at 2..4 (most arguments after the tensor, then an
   options table with opts), op, include_self. */
static int scatter_run(lua_State *L, lt_putop op, int include_self, int value_ok, int inplace,
                       const char *name) {
  int dim;
  lt_tensor *idx, *self = dim_index(L, 3, 0, name, &dim, &idx);
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
  int rc = lt_scatter(t, dim, idx, src, &s, op, include_self, BASE, &err);
  return written(L, rc, &err, inplace, name);
}

/* scatter(_)(dim, idx, src_or_value, {reduce = "add" | "multiply"}) */
static int scatter(lua_State *L, int inplace) {
  static const char *const keys[] = {"reduce"}, *const ways[] = {"add", "multiply", NULL};
  static const lt_putop ops[] = {LT_PUT_COPY, LT_PUT_SUM, LT_PUT_PROD};
  const char *name = inplace ? "scatter_" : "scatter";
  ltl_args(L, 1, 3, 1, name);
  int last = ltl_opts(L, 2, name, keys, 1);
  lt_putop op = ops[ltl_choice_option(L, -1, -1, name, "reduce", ways) + 1];
  lua_settop(L, last);
  return scatter_run(L, op, 1, 1, inplace, name);
}

static int m_scatter_(lua_State *L) { return scatter(L, 1); }
static int m_scatter(lua_State *L) { return scatter(L, 0); }

static int m_scatter_add_(lua_State *L) {
  return scatter_run(L, LT_PUT_SUM, 1, 0, 1, "scatter_add_");
}
static int m_scatter_add(lua_State *L) {
  return scatter_run(L, LT_PUT_SUM, 1, 0, 0, "scatter_add");
}

/* scatter_reduce(_)(dim, idx, src, reduce, {include_self = true}) */
static int scatter_reduce(lua_State *L, int inplace) {
  static const char *const keys[] = {"include_self"};
  const char *name = inplace ? "scatter_reduce_" : "scatter_reduce";
  ltl_args(L, 1, 4, 1, name);
  int last = ltl_opts(L, 2, name, keys, 1);
  int include_self = ltl_bool_option(L, -1, 1, name, "include_self");
  lua_settop(L, last < 5 ? 5 : last);
  int r = ltl_choice_option(L, 5, -1, name, "reduce", reduce_names);
  if (r < 0) luaL_argerror(L, 5, "reduce expected ('sum', 'prod', 'mean', 'amax' or 'amin')");
  lua_settop(L, 4);
  return scatter_run(L, reduce_ops[r], include_self, 0, inplace, name);
}
static int m_scatter_reduce_(lua_State *L) { return scatter_reduce(L, 1); }
static int m_scatter_reduce(lua_State *L) { return scatter_reduce(L, 0); }

/* }====== */

/* {====== take, masks, nonzero ====== */

static lt_tensor *check_mask(lua_State *L, int arg) {
  ltl_ud *ud = ltl_testud(L, arg);
  if (!ud)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "mask must be a bool tensor, got %s", luaL_typename(L, arg)));
  if (!ud->t) ltl_released(L);
  return ud->t;
}

/* take(index) and masked_select(mask): a new 1-d tensor. */
static int take_or_select(lua_State *L, int masked, const char *name) {
  ltl_args(L, 1, 1, 0, name);
  lt_tensor *t = ltl_check(L, 1);
  lt_tensor *by = masked ? check_mask(L, 2) : check_index(L, 2, "index");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  int rc = masked ? lt_masked_select(t, by, out, &err) : lt_take(t, by, BASE, out, &err);
  return ltl_result(L, rc, &err, name);
}
static int m_take(lua_State *L) { return take_or_select(L, 0, "take"); }
static int m_masked_select(lua_State *L) { return take_or_select(L, 1, "masked_select"); }

static int masked_scatter(lua_State *L, int inplace) {
  const char *name = inplace ? "masked_scatter_" : "masked_scatter";
  ltl_args(L, 1, 2, 0, name);
  ltl_check(L, 1);
  lt_tensor *mask = check_mask(L, 2);
  lt_tensor *src = check_src(L, 3, name);
  lt_tensor *t = target(L, inplace, name);
  lt_error err;
  return written(L, lt_masked_scatter(t, mask, src, &err), &err, inplace, name);
}
static int m_masked_scatter_(lua_State *L) { return masked_scatter(L, 1); }
static int m_masked_scatter(lua_State *L) { return masked_scatter(L, 0); }

/* Pushes the positions of t's nonzero elements as a table of ndim 1-d int64 tensors (one per
   dim; a 0-d t counts as 1-d). */
static void push_tuple(lua_State *L, const lt_tensor *t, const char *name) {
  lt_error err;
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  if (v->ndim == 0) v->ndim = 1, v->shape[0] = 1, v->strides[0] = 1;
  lt_tensor **pos = ltl_out(L);
  ltl_result(L, lt_nonzero(v, BASE, pos, &err), &err, name);
  lua_createtable(L, v->ndim, 0);
  for (int d = 0; d < v->ndim; d++) {
    lt_frame fc;
    lt_tensor *col = lt_frame_of(&fc, *pos);
    if (lt_select_(col, 1, d, &err)) ltl_fail(L, name, &err);
    ltl_result(L, lt_clone(col, ltl_out(L), &err), &err, name);
    lua_rawseti(L, -2, d + 1);
  }
  lua_remove(L, -2);
}

/* nonzero({as_tuple = false}) */
static int m_nonzero(lua_State *L) {
  static const char *const keys[] = {"as_tuple"};
  ltl_args(L, 1, 0, 1, "nonzero");
  ltl_opts(L, 2, "nonzero", keys, 1);
  int tuple = ltl_bool_option(L, -1, 0, "nonzero", "as_tuple");
  lt_tensor *t = ltl_check(L, 1);
  if (tuple) {
    push_tuple(L, t, "nonzero");
    return 1;
  }
  lt_error err;
  return ltl_result(L, lt_nonzero(t, BASE, ltl_out(L), &err), &err, "nonzero");
}

/* lt.where(cond): the positions, as nonzero(cond, {as_tuple = true}); lt.where(cond, a, b): the
   elementwise choice (upvalue 1, lua_math.c's). Trailing nils are absent. */
static int f_where(lua_State *L) {
  if (ltl_args(L, 0, 3, 0, "where") == 1) {
    push_tuple(L, ltl_check(L, 1), "where");
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  int status = lua_pcall(L, lua_gettop(L) - 1, 1, 0);
  if (status == LUA_OK) return 1;
  if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) { /* say where it was called */
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
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

/* The methods that are also lt.X, the tensor first, as torch has torch.X. */
static const char *const gather_forms[] = {"index_select",
                                           "index_copy",
                                           "index_add",
                                           "index_fill",
                                           "gather",
                                           "scatter",
                                           "scatter_add",
                                           "scatter_reduce",
                                           "take",
                                           "masked_select",
                                           "masked_scatter",
                                           "nonzero",
                                           NULL};

/* The module forms; lt.where gains its one-argument form, over the three-argument one
   lua_math.c set. */
static void open_gather(lua_State *L, const ltl_tables *at) {
  ltl_module_forms(L, at->methods, at->module, gather_forms);
  lua_getfield(L, at->module, "where");
  lua_pushcclosure(L, f_where, 1);
  lua_setfield(L, at->module, "where");
}

const ltl_part ltl_part_gather = {NULL, gather_methods, NULL, NULL, open_gather};
