/*
 * lua_dist.c -- distances and searching in Lua: lt.cdist, lt.pdist, lt.isin, lt.bucketize
 * (module functions only, as torch has them) and t:unique_consecutive (also
 * lt.unique_consecutive).
 *
 * Arguments follow torch's positional order (`cdist(x1, x2, p, compute_mode)`, `pdist(input,
 * p)`), torch's keyword-only arguments in one trailing options table (`{invert = true}`,
 * `{right = true, out_int32 = true}`, `{return_inverse = true, return_counts = true, dim = 1}`).
 * bucketize's positions and unique_consecutive's inverse are 1-based, as searchsorted's are;
 * several results are several Lua values, as unique's. The computations are the core's
 * (lt_dist.h, lt_search.h). Read only by lua_init.c (ltl_part_dist); calls the base (lua_ud.h)
 * and the core.
 */
#include "lt_dist.h"
#include "lt_search.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The number p at arg (def when none or nil); raises naming fname. */
static double opt_p(lua_State *L, int arg, const char *fname) {
  if (lua_isnoneornil(L, arg)) return 2.0;
  if (lua_type(L, arg) != LUA_TNUMBER)
    ltl_error(L, "%s: p must be a number, got %s", fname, luaL_typename(L, arg));
  return lua_tonumber(L, arg);
}

/* lt.cdist(x1, x2 [, p [, compute_mode]]), compute_mode also as {compute_mode = }. */
static int f_cdist(lua_State *L) {
  static const char *const keys[] = {"compute_mode"}, *const modes[] = {
                                                          "use_mm_for_euclid_dist_if_necessary",
                                                          "use_mm_for_euclid_dist",
                                                          "donot_use_mm_for_euclid_dist", NULL};
  ltl_args(L, 0, 4, 1, "cdist");
  int last = ltl_opts(L, 3, "cdist", keys, 1), o = lua_gettop(L);
  if (!lua_isnil(L, o) && last >= 4 && !lua_isnil(L, 4))
    ltl_error(L, "cdist: compute_mode given twice (as an argument and as an option)");
  int mode = ltl_choice_option(L, lua_isnil(L, o) && last >= 4 ? 4 : o, LT_CDIST_MM_IF_NEEDED,
                               "cdist", "compute_mode", modes);
  double p = opt_p(L, 3, "cdist");
  lt_tensor *x1 = ltl_check(L, 1), *x2 = ltl_check(L, 2);
  lua_settop(L, last);
  lt_error err;
  return ltl_result(L, lt_cdist(x1, x2, p, (lt_cdist_mode)mode, ltl_out(L), &err), &err, "cdist");
}

/* lt.pdist(input [, p]) */
static int f_pdist(lua_State *L) {
  ltl_args(L, 0, 2, 0, "pdist");
  lt_tensor *x = ltl_check(L, 1);
  double p = opt_p(L, 2, "pdist");
  lt_error err;
  return ltl_result(L, lt_pdist(x, p, ltl_out(L), &err), &err, "pdist");
}

/* lt.isin(elements, test_elements, {assume_unique = , invert = }): either may be a number. */
static int f_isin(lua_State *L) {
  static const char *const keys[] = {"assume_unique", "invert"};
  ltl_args(L, 0, 2, 1, "isin");
  int last = ltl_opts(L, 3, "isin", keys, 2), o = lua_gettop(L) - 1;
  ltl_bool_option(L, o, 0, "isin", "assume_unique"); /* a hint only */
  int invert = ltl_bool_option(L, o + 1, 0, "isin", "invert");
  lua_settop(L, last);
  lt_operand e, t;
  ltl_check_operand(L, 1, &e, "isin");
  ltl_check_operand(L, 2, &t, "isin");
  lt_error err;
  return ltl_result(L, lt_isin(&e, &t, invert, ltl_out(L), &err), &err, "isin");
}

/* lt.bucketize(input, boundaries, {right = , out_int32 = }): input a tensor or a number. */
static int f_bucketize(lua_State *L) {
  static const char *const keys[] = {"right", "out_int32"};
  ltl_args(L, 0, 2, 1, "bucketize");
  int last = ltl_opts(L, 3, "bucketize", keys, 2), o = lua_gettop(L) - 1;
  int right = ltl_bool_option(L, o, 0, "bucketize", "right");
  int i32 = ltl_bool_option(L, o + 1, 0, "bucketize", "out_int32");
  lua_settop(L, last);
  lt_operand in;
  ltl_check_operand(L, 1, &in, "bucketize");
  lt_tensor *b = ltl_check(L, 2);
  lt_error err;
  return ltl_result(L, lt_bucketize(&in, b, right, i32, 1, ltl_out(L), &err), &err, "bucketize");
}

/* t:unique_consecutive({return_inverse = , return_counts = , dim = }): the values, then the
   inverse and the counts asked for. */
static int m_unique_consecutive(lua_State *L) {
  static const char *const keys[] = {"return_inverse", "return_counts", "dim"};
  const char *name = "unique_consecutive";
  ltl_args(L, 1, 0, 1, name);
  int last = ltl_opts(L, 2, name, keys, 3), o = lua_gettop(L) - 2;
  int inv = ltl_bool_option(L, o, 0, name, "return_inverse");
  int cnt = ltl_bool_option(L, o + 1, 0, name, "return_counts");
  lt_tensor *t = ltl_check(L, 1);
  int dim = -1;
  if (!lua_isnil(L, o + 2)) {
    if (!lua_isinteger(L, o + 2))
      ltl_error(L, "%s: dim must be an integer, got %s", name, luaL_typename(L, o + 2));
    lua_Integer d = lua_tointeger(L, o + 2), d0 = d;
    if (d < 0) d += t->ndim + 1;
    if (d < 1 || d > t->ndim)
      ltl_error(L, "%s: dim %I out of range for a tensor of %d dims", name, d0, t->ndim);
    dim = (int)d - 1;
  }
  lua_settop(L, last);
  lt_tensor **u = ltl_out(L), **iv = inv ? ltl_out(L) : NULL, **ct = cnt ? ltl_out(L) : NULL;
  lt_error err;
  if (lt_unique_consecutive(t, dim, 1, u, iv, ct, &err)) return ltl_fail(L, name, &err);
  return 1 + inv + cnt;
}

static const luaL_Reg dist_methods[] = {{"unique_consecutive", m_unique_consecutive}, {NULL, NULL}};
static const luaL_Reg dist_funcs[] = {{"cdist", f_cdist},
                                      {"pdist", f_pdist},
                                      {"isin", f_isin},
                                      {"bucketize", f_bucketize},
                                      {NULL, NULL}};

static const char *const dist_forms[] = {"unique_consecutive", NULL};

static void open_dist(lua_State *L, const ltl_tables *at) {
  ltl_module_forms(L, at->methods, at->module, dist_forms);
}

const ltl_part ltl_part_dist = {NULL, dist_methods, NULL, dist_funcs, open_dist};
