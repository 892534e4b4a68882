/*
 * lua_reduce.c -- reductions in Lua: sum, mean, prod, amax, amin, max, min, argmax, argmin,
 * all, any, var, std, count_nonzero, norm.
 *
 * Arguments follow torch 2.x's positional order (`var(dim, unbiased, keepdim)`), with torch's
 * keyword-only arguments (dtype, correction) in one trailing options table (ltl_opts). A
 * reduction over every element (no dim given, keepdim false) returns a Lua value, as t:item()
 * would: a 0-d tensor is always truthy in Lua, so `if t:all()` must get a boolean. With a dim,
 * or a table of dims (`t:sum({1, 2})`), the result is a tensor. Dims and the positions of
 * argmax/argmin and max/min over a dim are 1-based. Every computation is the core's
 * (lt_reduce.h). Read only by lua_init.c (ltl_part_reduce); calls the base (lua_ud.h) and the
 * core.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_math.h"
#include "lt_reduce.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* What a method takes after the tensor. */
enum {
  R_DIMS = 1,       /* the dim may be a table of dims */
  R_KEEPDIM = 2,    /* keepdim follows the dim */
  R_UNBIASED = 4,   /* var/std: (dim, unbiased, keepdim), {correction = } */
  R_DTYPE = 8,      /* {dtype = }: the input is cast to it first, and so is the result */
  R_INDICES = 16,   /* max/min: with a dim, values and 1-based positions; max(other) */
  R_POSITIONS = 32, /* argmax/argmin: 1-based positions */
  R_NORM = 64,      /* norm: (p, dim, keepdim) */
  R_NONZERO = 128   /* count_nonzero */
};

typedef struct {
  const char *name;
  lt_redop op;
  unsigned flags;
} red_spec;

/* A call's arguments, read. */
typedef struct {
  int ndims, dims[LT_MAX_NDIM]; /* 0-based */
  int have_dim, list;           /* a dim (or a table of them) was given; it was a table */
  int keepdim, correction;
  double p;       /* norm */
  lt_dtype dtype; /* LT_NDTYPES: none */
} red_args;

/* The dim argument at arg of a call to `name` on a tensor of ndim dims, into a: nothing, an
   integer, or (R_DIMS) a table of integers. */
static void check_dims(lua_State *L, int arg, const red_spec *sp, int ndim, red_args *a) {
  int n = ndim > 0 ? ndim : 1; /* a 0-d tensor takes dim 1 (or -1) */
  if (lua_isnoneornil(L, arg)) return;
  a->have_dim = 1;
  if (lua_type(L, arg) != LUA_TTABLE || !(sp->flags & R_DIMS)) {
    a->dims[0] = ltl_check_dim(L, arg, n);
    a->ndims = 1;
    return;
  }
  a->list = 1;
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
    a->dims[i] = (int)d - 1;
  }
  a->ndims = (int)len;
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

/* Reads a call's arguments (the tensor at 1); returns the tensor, taken after the options
   table was read (its metamethods may run). Leaves the positional arguments only. */
static lt_tensor *check_args(lua_State *L, const red_spec *sp, red_args *a) {
  static const char *const keys_dtype[] = {"dtype"}, *const keys_corr[] = {"correction"};
  const char *const *keys = sp->flags & R_DTYPE ? keys_dtype : keys_corr;
  int nkeys = sp->flags & (R_DTYPE | R_UNBIASED) ? 1 : 0, have_corr = 0;
  memset(a, 0, sizeof *a);
  a->dtype = LT_NDTYPES;
  a->correction = 1;
  int last = ltl_opts(L, 2, sp->name, keys, nkeys);
  if (nkeys && !lua_isnil(L, -1)) {
    if (sp->flags & R_DTYPE) {
      a->dtype = ltl_dtype_option(L, -1, sp->name, LT_NDTYPES);
    } else {
      a->correction = check_correction(L, -1, sp->name);
      have_corr = 1;
    }
  }
  lua_settop(L, last); /* the options are read */
  lt_tensor *t = ltl_check(L, 1);
  int arg = 2, max_args = 2;
  if (sp->flags & (R_NORM | R_UNBIASED)) max_args = 3;
  if (sp->flags & R_NONZERO) max_args = 1;
  if (last - 1 > max_args)
    ltl_error(L, "%s: too many arguments (at most %d, then an options table)", sp->name, max_args);
  if (sp->flags & R_NORM) a->p = check_p(L, arg++);
  if ((sp->flags & R_UNBIASED) && lua_type(L, arg) == LUA_TBOOLEAN && last == arg) {
    if (have_corr) ltl_error(L, "%s: give unbiased or correction, not both", sp->name);
    a->correction = lua_toboolean(L, arg); /* var(unbiased), as torch's overload */
    return t;
  }
  check_dims(L, arg++, sp, t->ndim, a);
  if (sp->flags & R_UNBIASED) {
    if (!lua_isnoneornil(L, arg) && have_corr)
      ltl_error(L, "%s: give unbiased or correction, not both", sp->name);
    int unbiased = ltl_opt_bool(L, arg++, 1, "unbiased");
    if (!have_corr) a->correction = unbiased;
  }
  if (sp->flags & R_KEEPDIM) a->keepdim = ltl_opt_bool(L, arg++, 0, "keepdim");
  return t;
}

/* }====== */

/* {====== running ====== */

/* A new tensor userdata holding op(...) made by the caller; *slot to fill. */
#define NEW_RESULT(L) (&ltl_newud(L)->t)

/* The tensor at the top becomes dtype dt (a new tensor replacing it) unless it has it. */
static void cast_top(lua_State *L, lt_dtype dt) {
  lt_tensor *t = ltl_check(L, -1);
  if (t->dtype == dt) return;
  lt_error err;
  lt_tensor **slot = NEW_RESULT(L);
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
static int extreme_of_two(lua_State *L, const red_spec *sp) {
  if (lua_gettop(L) > 2)
    ltl_error(L, "%s: too many arguments (a tensor to compare with)", sp->name);
  lt_operand x = {ltl_check(L, 1), {LT_SK_INT, {0}, 0}, 0};
  lt_operand y = {ltl_check(L, 2), {LT_SK_INT, {0}, 0}, 0};
  lt_error err;
  lt_tensor **slot = NEW_RESULT(L);
  if (lt_binary(sp->op == LT_MAX ? LT_MAXIMUM : LT_MINIMUM, &x, &y, NULL, slot, &err))
    return ltl_error(L, "%s: %s", sp->name, err.msg);
  return 1;
}

static int reduce(lua_State *L, const red_spec *sp) {
  if ((sp->flags & R_INDICES) && ltl_testud(L, 2)) return extreme_of_two(L, sp);
  red_args a;
  lt_tensor *t = check_args(L, sp, &a);
  lt_error err;
  int rc;
  if (a.dtype != LT_NDTYPES) { /* torch casts the input first */
    lt_tensor **slot = NEW_RESULT(L);
    if (lt_cast(t, a.dtype, slot, &err)) return ltl_raise(L, &err);
    t = *slot;
  }
  int value = !a.have_dim && !a.keepdim; /* a Lua value, as item() */
  int with_idx = a.have_dim && !a.list && (sp->flags & R_INDICES);
  lt_tensor **slot = NEW_RESULT(L), **ix = with_idx ? NEW_RESULT(L) : NULL;
  if (sp->flags & R_NORM)
    rc = lt_norm(t, a.p, a.dims, a.ndims, a.keepdim, slot, &err);
  else if (sp->flags & R_NONZERO)
    rc = lt_count_nonzero(t, a.dims, a.ndims, 0, slot, &err);
  else if (a.list)
    rc = lt_reduce_dims(sp->op, t, a.dims, a.ndims, a.keepdim, a.correction, slot, &err);
  else
    rc = lt_reduce(sp->op, t, a.have_dim ? a.dims[0] : -1, a.keepdim, a.correction, slot, ix, &err);
  if (rc) return ltl_error(L, "%s: %s", sp->name, err.msg); /* the name once */
  if (ix) {                                                 /* values, positions */
    one_based(L, -1);
    return 2;
  }
  if (sp->flags & R_POSITIONS) one_based(L, -1);
  /* sum, prod and mean give the dtype asked for (integer sums accumulate in int64) */
  if (a.dtype != LT_NDTYPES && !(sp->flags & R_NORM)) cast_top(L, a.dtype);
  lt_tensor *r = ltl_check(L, -1);
  if (!value) {
    return 1;
  }
  ltl_push_element(L, r->dtype, lt_data(r));
  return 1;
}

#define REDUCE(name, op, flags)                      \
  static int m_##name(lua_State *L) {                \
    static const red_spec spec = {#name, op, flags}; \
    return reduce(L, &spec);                         \
  }
#define KD R_KEEPDIM
REDUCE(sum, LT_SUM, R_DIMS | KD | R_DTYPE)
REDUCE(mean, LT_MEAN, R_DIMS | KD | R_DTYPE)
REDUCE(prod, LT_PROD, KD | R_DTYPE)
REDUCE(amax, LT_MAX, R_DIMS | KD)
REDUCE(amin, LT_MIN, R_DIMS | KD)
REDUCE(max, LT_MAX, KD | R_INDICES)
REDUCE(min, LT_MIN, KD | R_INDICES)
REDUCE(argmax, LT_ARGMAX, KD | R_POSITIONS)
REDUCE(argmin, LT_ARGMIN, KD | R_POSITIONS)
REDUCE(all, LT_ALL, R_DIMS | KD)
REDUCE(any, LT_ANY, R_DIMS | KD)
REDUCE(var, LT_VAR, R_DIMS | KD | R_UNBIASED)
REDUCE(std, LT_STD, R_DIMS | KD | R_UNBIASED)
REDUCE(count_nonzero, LT_SUM, R_DIMS | R_NONZERO)
REDUCE(norm, LT_SUM, R_DIMS | KD | R_NORM | R_DTYPE)

/* }====== */

static const luaL_Reg reduce_methods[] = {
    {"sum", m_sum},       {"mean", m_mean},
    {"prod", m_prod},     {"amax", m_amax},
    {"amin", m_amin},     {"max", m_max},
    {"min", m_min},       {"argmax", m_argmax},
    {"argmin", m_argmin}, {"all", m_all},
    {"any", m_any},       {"var", m_var},
    {"std", m_std},       {"count_nonzero", m_count_nonzero},
    {"norm", m_norm},     {NULL, NULL},
};

const ltl_part ltl_part_reduce = {NULL, reduce_methods, NULL, NULL, NULL};
