/*
 * lua_funcs.c -- the elementwise functions of lt_funcs.h as tensor methods, with torch's names:
 * t:sigmoid(), t:relu(), t:gelu([{approximate = "tanh"}]), t:silu(), t:tan() ... t:erfc(),
 * t:isnan(), t:isinf(), t:isfinite(), t:nan_to_num([nan [, posinf [, neginf]]]) (or an options
 * table of those keys), a:atan2(b), a:fmod(b), a:hypot(b), a:lerp(end, weight), and the
 * in-place `_` forms where torch has them (none for gelu, silu and the classifications).
 *
 * Argument handling only; the dtype rules and kernels are the core's. Read only by lua_init.c
 * (ltl_part_funcs); calls the base (lua_ud.h) and the core.
 */
#include <string.h>

#include "lt_funcs.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* The result: the new tensor on top, or, in place, t (argument 1). */
static int finish(lua_State *L, int inplace) {
  if (inplace) lua_settop(L, 1);
  return 1;
}

static int func1(lua_State *L, lt_func f, int inplace) {
  lt_tensor *t = ltl_check(L, 1), *r;
  lt_error err;
  ltl_ud *ud = NULL;
  if (inplace) {
    ltl_prepare_write(L, t);
    if (lt_func1(f, t, t, &r, &err)) return ltl_raise(L, &err);
  } else {
    ud = ltl_newud(L);
    if (lt_func1(f, t, NULL, &ud->t, &err)) return ltl_raise(L, &err);
  }
  return finish(L, inplace);
}

#define FUNC1(name, f)                                         \
  static int m_##name(lua_State *L) { return func1(L, f, 0); } \
  static int m_##name##_(lua_State *L) { return func1(L, f, 1); }
#define FUNC1_OUT(name, f) \
  static int m_##name(lua_State *L) { return func1(L, f, 0); }
FUNC1(sigmoid, LT_SIGMOID)
FUNC1(relu, LT_RELU)
FUNC1_OUT(silu, LT_SILU)
FUNC1(tan, LT_TAN)
FUNC1(asin, LT_ASIN)
FUNC1(acos, LT_ACOS)
FUNC1(atan, LT_ATAN)
FUNC1(sinh, LT_SINH)
FUNC1(cosh, LT_COSH)
FUNC1(asinh, LT_ASINH)
FUNC1(acosh, LT_ACOSH)
FUNC1(atanh, LT_ATANH)
FUNC1(log1p, LT_LOG1P)
FUNC1(expm1, LT_EXPM1)
FUNC1(log2, LT_LOG2)
FUNC1(log10, LT_LOG10)
FUNC1(exp2, LT_EXP2)
FUNC1(trunc, LT_TRUNC)
FUNC1(frac, LT_FRAC)
FUNC1(rsqrt, LT_RSQRT)
FUNC1(erf, LT_ERF)
FUNC1(erfc, LT_ERFC)
FUNC1_OUT(isnan, LT_ISNAN)
FUNC1_OUT(isinf, LT_ISINF)
FUNC1_OUT(isfinite, LT_ISFINITE)

/* t:gelu([{approximate = "none" | "tanh"}]) */
static int m_gelu(lua_State *L) {
  static const char *const keys[] = {"approximate"};
  int last = ltl_opts(L, 2, "gelu", keys, 1);
  lt_func f = LT_GELU;
  if (!lua_isnil(L, -1)) {
    const char *mode = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (mode && strcmp(mode, "tanh") == 0)
      f = LT_GELU_TANH;
    else if (!mode || strcmp(mode, "none") != 0)
      ltl_error(L, "gelu: approximate must be 'none' or 'tanh', got %s",
                mode ? mode : luaL_typename(L, -1));
  }
  lua_settop(L, last);
  return func1(L, f, 0);
}

/* t:nan_to_num([nan [, posinf [, neginf]]]) or t:nan_to_num({nan =, posinf =, neginf =}) */
static int nan_to_num(lua_State *L, int inplace) {
  static const char *const keys[] = {"nan", "posinf", "neginf"};
  const char *name = inplace ? "nan_to_num_" : "nan_to_num";
  int last = ltl_opts(L, 2, name, keys, 3);
  double v[3];
  int has[3];
  for (int i = 0; i < 3; i++) {
    int idx = lua_gettop(L) - 2 + i; /* the option's value */
    if (lua_isnil(L, idx) && 2 + i <= last) idx = 2 + i;
    has[i] = !lua_isnil(L, idx);
    if (has[i] && lua_type(L, idx) != LUA_TNUMBER)
      ltl_error(L, "%s: %s must be a number, got %s", name, keys[i], luaL_typename(L, idx));
    v[i] = has[i] ? lua_tonumber(L, idx) : 0;
  }
  lua_settop(L, 1);
  lt_tensor *t = ltl_check(L, 1), *r;
  lt_error err;
  ltl_ud *ud = NULL;
  const double *p0 = has[0] ? &v[0] : NULL, *p1 = has[1] ? &v[1] : NULL,
               *p2 = has[2] ? &v[2] : NULL;
  if (inplace) {
    ltl_prepare_write(L, t);
    if (lt_nan_to_num(t, p0, p1, p2, t, &r, &err)) return ltl_raise(L, &err);
  } else {
    ud = ltl_newud(L);
    if (lt_nan_to_num(t, p0, p1, p2, NULL, &ud->t, &err)) return ltl_raise(L, &err);
  }
  return finish(L, inplace);
}
static int m_nan_to_num(lua_State *L) { return nan_to_num(L, 0); }
static int m_nan_to_num_(lua_State *L) { return nan_to_num(L, 1); }

static int func2(lua_State *L, lt_bfunc f, int inplace) {
  lt_operand a, b;
  lt_tensor *t = ltl_check(L, 1), *r;
  ltl_check_operand(L, 1, &a, lt_bfunc_names[f]);
  ltl_check_operand(L, 2, &b, lt_bfunc_names[f]);
  lt_error err;
  ltl_ud *ud = NULL;
  if (inplace) {
    ltl_prepare_write(L, t);
    if (lt_func2(f, &a, &b, t, &r, &err)) return ltl_raise(L, &err);
  } else {
    ud = ltl_newud(L);
    if (lt_func2(f, &a, &b, NULL, &ud->t, &err)) return ltl_raise(L, &err);
  }
  return finish(L, inplace);
}
#define FUNC2(name, f)                                         \
  static int m_##name(lua_State *L) { return func2(L, f, 0); } \
  static int m_##name##_(lua_State *L) { return func2(L, f, 1); }
FUNC2(atan2, LT_ATAN2)
FUNC2(fmod, LT_FMOD)
FUNC2(hypot, LT_HYPOT)

/* t:lerp(end, weight): weight a number or a tensor */
static int lerp(lua_State *L, int inplace) {
  lt_operand a, e, w;
  lt_tensor *t = ltl_check(L, 1), *r;
  ltl_check_operand(L, 1, &a, "lerp");
  ltl_check_operand(L, 2, &e, "lerp");
  ltl_check_operand(L, 3, &w, "lerp");
  lt_error err;
  ltl_ud *ud = NULL;
  if (inplace) {
    ltl_prepare_write(L, t);
    if (lt_lerp(&a, &e, &w, t, &r, &err)) return ltl_raise(L, &err);
  } else {
    ud = ltl_newud(L);
    if (lt_lerp(&a, &e, &w, NULL, &ud->t, &err)) return ltl_raise(L, &err);
  }
  return finish(L, inplace);
}
static int m_lerp(lua_State *L) { return lerp(L, 0); }
static int m_lerp_(lua_State *L) { return lerp(L, 1); }

#define M(name) \
  {#name, m_##name}, { #name "_", m_##name##_ }
static const luaL_Reg funcs_methods[] = {M(sigmoid),
                                         M(relu),
                                         M(tan),
                                         M(asin),
                                         M(acos),
                                         M(atan),
                                         M(sinh),
                                         M(cosh),
                                         M(asinh),
                                         M(acosh),
                                         M(atanh),
                                         M(log1p),
                                         M(expm1),
                                         M(log2),
                                         M(log10),
                                         M(exp2),
                                         M(trunc),
                                         M(frac),
                                         M(rsqrt),
                                         M(erf),
                                         M(erfc),
                                         M(atan2),
                                         M(fmod),
                                         M(hypot),
                                         M(lerp),
                                         M(nan_to_num),
                                         {"gelu", m_gelu},
                                         {"silu", m_silu},
                                         {"isnan", m_isnan},
                                         {"isinf", m_isinf},
                                         {"isfinite", m_isfinite},
                                         {NULL, NULL}};

const ltl_part ltl_part_funcs = {NULL, funcs_methods, NULL, NULL, NULL};
