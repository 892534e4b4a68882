/*
 * lua_reduce.c -- the reductions in Lua, registered from the rows of lt_reduce.h: for every row,
 * the method t:name(...) and the module form lt.name(t, ...) as its forms say, each a closure of
 * one dispatcher (reduce) over the row.
 *
 * Arguments follow torch 2.x's positional order (`var(dim, unbiased, keepdim)`, `norm(p, dim,
 * keepdim)`), as the row's args say, with torch's keyword-only arguments (dtype, correction) in
 * one trailing options table; trailing nils are absent and an extra argument raises (ltl_args).
 * A reduction over every element (no dim given, keepdim false) returns a Lua value, as t:item()
 * would: a 0-d tensor is always truthy in Lua, so `if t:all()` must get a boolean. With a dim,
 * or a table of dims (`t:sum({1, 2})`), the result is a tensor. std_mean and var_mean give
 * two results, the mean second. Dims and the positions of
 * argmax/argmin and max/min over a dim are 1-based. Every computation is the core's. Read only
 * by lua_init.c (ltl_part_reduce); calls the base (lua_ud.h) and the core.
 */
#include <limits.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_math.h"
#include "lt_reduce.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* A call's arguments, read. */
typedef struct {
  lt_red_args ra; /* dims 0-based */
  int have_dim;   /* a dim (or a table of them) was given */
  int list;       /* it was a table */
  lt_dtype dtype; /* LT_NDTYPES: none */
} red_call;

/* The dims of the table at arg (each 1-based or negative) for a tensor of ndim dims, into c. */
static void check_dim_list(lua_State *L, int arg, int ndim, red_call *c) {
  int n = ndim > 0 ? ndim : 1; /* a 0-d tensor takes dim 1 (or -1) */
  lua_Unsigned len = lua_rawlen(L, arg);
  if (len > LT_MAX_NDIM) /* more than a tensor can have: one repeats, or is out of range */
    luaL_argerror(
        L, arg,
        lua_pushfstring(L, "%I dims given for a tensor of %d dims", (lua_Integer)len, ndim));
  for (int i = 0; i < (int)len; i++) {
    int isnum;
    lua_rawgeti(L, arg, i + 1);
    lua_Integer d = lua_tointegerx(L, -1, &isnum), d0 = d;
    if (!isnum)
      luaL_argerror(L, arg,
                    lua_pushfstring(L, "dim %d of the table must be an integer, got %s", i + 1,
                                    lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                                   : luaL_typename(L, -1)));
    lua_pop(L, 1);
    if (d < 0) d += n + 1;
    if (d < 1 || d > n)
      luaL_argerror(L, arg,
                    lua_pushfstring(L, "dim %I out of range for a tensor of %d dims", d0, ndim));
    c->ra.dims[i] = (int)d - 1;
  }
  c->ra.ndims = (int)len;
  c->list = 1;
}

/* The correction option at idx (an integer; beyond int: N - correction <= 0 all the same). */
static int check_correction(lua_State *L, int idx, const char *name) {
  int isnum;
  lua_Integer c = lua_tointegerx(L, idx, &isnum);
  if (!isnum)
    ltl_error(L, "%s: correction must be an integer, got %s", name,
              lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx));
  return c > INT_MAX ? INT_MAX : c < -INT_MAX ? -INT_MAX : (int)c;
}

/* The p argument of norm: a number, nil ("fro", 2) or "fro". */
static double check_p(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return 2;
  if (lua_type(L, arg) == LUA_TSTRING) {
    if (strcmp(lua_tostring(L, arg), "fro") == 0) return 2;
    luaL_argerror(
        L, arg, lua_pushfstring(L, "p must be a number or 'fro', got '%s'", lua_tostring(L, arg)));
  }
  return luaL_checknumber(L, arg);
}

/* How many positional arguments a row's forms take after the tensor. */
static int positional(unsigned args) {
  return !!(args & LT_RA_P) + !!(args & (LT_RA_DIM | LT_RA_DIMS)) + !!(args & LT_RA_UNBIASED) +
         !!(args & LT_RA_KEEPDIM);
}

/* Reads a call's options (first: they may run metamethods), then its positional arguments, as
   the row's args say; returns the tensor. */
static lt_tensor *check_args(lua_State *L, const lt_red_row *r, red_call *c) {
  static const char *const keys_dtype[] = {"dtype"}, *const keys_corr[] = {"correction"};
  int opts = (r->args & (LT_RA_DTYPE | LT_RA_UNBIASED)) != 0, have_corr = 0;
  memset(c, 0, sizeof *c);
  c->dtype = LT_NDTYPES;
  c->ra.correction = 1;
  /* an options table (keys or none, named when unknown) follows what must be given: a required
     dim is never taken for one ({} is every dim there) */
  ltl_args(L, 1, positional(r->args), 1, r->name);
  int last = ltl_opts(L, r->args & LT_RA_NEEDS_DIM ? 3 : 2, r->name,
                      r->args & LT_RA_DTYPE ? keys_dtype : keys_corr, opts);
  if (opts && !lua_isnil(L, -1)) {
    if (r->args & LT_RA_DTYPE) {
      c->dtype = ltl_dtype_option(L, -1, r->name, LT_NDTYPES);
    } else {
      c->ra.correction = check_correction(L, -1, r->name);
      have_corr = 1;
    }
  }
  lua_settop(L, last); /* the options are read */
  lt_tensor *t = ltl_check(L, 1);
  int arg = 2;
  if (r->args & LT_RA_P) c->ra.p = check_p(L, arg++);
  if ((r->args & LT_RA_UNBIASED) && lua_type(L, arg) == LUA_TBOOLEAN && last == arg) {
    if (have_corr) ltl_error(L, "%s: give unbiased or correction, not both", r->name);
    c->ra.correction = lua_toboolean(L, arg); /* var(unbiased), as torch's overload */
    return t;
  }
  if (!lua_isnoneornil(L, arg)) {
    c->have_dim = 1;
    if (lua_type(L, arg) == LUA_TTABLE && (r->args & LT_RA_DIMS))
      check_dim_list(L, arg, t->ndim, c);
    else
      c->ra.dims[c->ra.ndims++] = ltl_check_dim(L, arg, t->ndim > 0 ? t->ndim : 1);
  } else if (r->args & LT_RA_NEEDS_DIM) {
    ltl_error(L, "%s: a dim is required", r->name);
  }
  arg++;
  if (r->args & LT_RA_UNBIASED) {
    if (!lua_isnoneornil(L, arg) && have_corr)
      ltl_error(L, "%s: give unbiased or correction, not both", r->name);
    int unbiased = ltl_opt_bool(L, arg++, 1, "unbiased");
    if (!have_corr) c->ra.correction = unbiased;
  }
  if (r->args & LT_RA_KEEPDIM) c->ra.keepdim = ltl_opt_bool(L, arg++, 0, "keepdim");
  return t;
}

/* }====== */

/* {====== running ====== */

/* The tensor at the top becomes dtype dt (a new tensor replacing it) unless it has it. */
static void cast_top(lua_State *L, lt_dtype dt) {
  lt_tensor *t = ltl_check(L, -1);
  if (t->dtype == dt) return;
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_cast(t, dt, slot, &err)) ltl_raise(L, &err);
  lua_replace(L, -2);
}

/* 0-based positions in the tensor at idx become 1-based. */
static void one_based(lua_State *L, int idx) {
  lt_tensor *t = ltl_check(L, idx), *r;
  lt_operand a = {t, {LT_SK_INT, {0}, 0}, 0};
  lt_operand one = {NULL, {LT_SK_INT, {.i = 1}, 0}, 0};
  lt_error err;
  if (lt_binary(LT_ADD, &a, &one, t, &r, &err)) ltl_raise(L, &err);
}

/* max(other) and min(other): torch's maximum and minimum. */
static int extreme_of_two(lua_State *L, lt_redop op) {
  const char *name = lt_reductions[op].name;
  ltl_args(L, 1, 1, 0, name);
  lt_operand x = {ltl_check(L, 1), {LT_SK_INT, {0}, 0}, 0};
  lt_operand y = {ltl_check(L, 2), {LT_SK_INT, {0}, 0}, 0};
  lt_error err;
  lt_tensor **slot = &ltl_newud(L)->t;
  if (lt_binary(lt_reductions[op].fold == LT_FOLD_MAX ? LT_MAXIMUM : LT_MINIMUM, &x, &y, NULL, slot,
                &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  return 1;
}

/* Row op of a fold over the dims of call c (every element when none), into *slot. */
static int fold_over(lt_redop op, const lt_tensor *t, const red_call *c, lt_tensor **slot,
                     lt_tensor **ix, lt_error *err) {
  if (c->list)
    return lt_reduce_dims(op, t, c->ra.dims, c->ra.ndims, c->ra.keepdim, c->ra.correction, slot,
                          err);
  return lt_reduce(op, t, c->have_dim ? c->ra.dims[0] : -1, c->ra.keepdim, c->ra.correction, slot,
                   ix, err);
}

/* std_mean and var_mean: the result on top, then the mean of t over the same dims, as torch's
   (std, mean); over every element, two Lua values. */
static int with_mean(lua_State *L, const lt_tensor *t, const red_call *c, int value,
                     const char *name) {
  lt_error err;
  if (fold_over(LT_MEAN, t, c, &ltl_newud(L)->t, NULL, &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  if (value) {
    const lt_tensor *s = ltl_check(L, -2), *m = ltl_check(L, -1);
    ltl_push_element(L, s->dtype, lt_data(s));
    ltl_push_element(L, m->dtype, lt_data(m));
  }
  return 2;
}

/* The closure of a row's forms: upvalue the row (an integer). */
static int reduce(lua_State *L) {
  lt_redop op = (lt_redop)lua_tointeger(L, lua_upvalueindex(1));
  const lt_red_row *r = &lt_reductions[op];
  if ((r->args & LT_RA_INDICES) && ltl_testud(L, 2)) return extreme_of_two(L, op);
  red_call c;
  lt_tensor *t = check_args(L, r, &c);
  lt_error err;
  int rc;
  if (c.dtype != LT_NDTYPES) { /* torch casts the input first */
    lt_tensor **slot = &ltl_newud(L)->t;
    if (lt_cast(t, c.dtype, slot, &err)) return ltl_raise(L, &err);
    t = *slot;
  }
  int value = !c.have_dim && !c.ra.keepdim; /* a Lua value, as item() */
  int with_idx = c.have_dim && !c.list && (r->args & LT_RA_INDICES);
  lt_tensor **slot = &ltl_newud(L)->t, **ix = with_idx ? &ltl_newud(L)->t : NULL;
  if (r->compose)
    rc = r->compose(t, &c.ra, slot, &err);
  else
    rc = fold_over(op, t, &c, slot, ix, &err);
  if (rc) return ltl_error(L, "%s: %s", r->name, err.msg); /* the name once */
  if (r->args & LT_RA_MEAN) return with_mean(L, t, &c, value, r->name);
  if (ix) { /* values, positions */
    one_based(L, -1);
    return 2;
  }
  if (r->finish == LT_FINISH_POS) one_based(L, -1);
  /* sum, prod and mean give the dtype asked for (integer sums accumulate in int64) */
  if (c.dtype != LT_NDTYPES && !r->compose) cast_top(L, c.dtype);
  if (value) {
    const lt_tensor *res = ltl_check(L, -1);
    ltl_push_element(L, res->dtype, lt_data(res));
  }
  return 1;
}

/* Sets the forms of every row into the methods and module tables. */
static void open_reduce(lua_State *L, const ltl_tables *at) {
  for (int op = 0; op < LT_NREDOPS; op++) {
    const lt_red_row *r = &lt_reductions[op];
    if (!(r->forms & (LT_FORM_METHOD | LT_FORM_MODULE))) continue;
    lua_pushinteger(L, op);
    lua_pushcclosure(L, reduce, 1);
    if (r->forms & LT_FORM_MODULE) {
      lua_pushvalue(L, -1);
      lua_setfield(L, at->module, r->name);
    }
    if (r->forms & LT_FORM_METHOD)
      lua_setfield(L, at->methods, r->name);
    else
      lua_pop(L, 1); /* lt.name only (std_mean, var_mean) */
  }
}

/* }====== */

const ltl_part ltl_part_reduce = {NULL, NULL, NULL, NULL, open_reduce};
