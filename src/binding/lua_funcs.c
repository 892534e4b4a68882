/*
 * lua_funcs.c -- the elementwise functions in Lua, registered from the rows of lt_funcs.h: for
 * every row, the method t:name(...), the in-place t:name_(...) and the module form
 * lt.name(t, ...) its forms name, each a closure of one dispatcher (call_row) over the row; the
 * operators (+ - * / // % ^ unary -, & | ~ << >> unary ~), which run the same rows; and the
 * elementwise functions whose arguments are not one or two operands: lerp, nan_to_num, clamp
 * (and its alias clip), lt.where, lt.polar, masked_fill (with their module and in-place forms,
 * funcs_forms).
 *
 * Every call follows the argument layer (lua_ud.h): trailing nils are absent, an extra
 * argument raises, the row's one option (torch's keyword-only argument: add's alpha, div's
 * rounding_mode, gelu's approximate) comes in a trailing options table, and an error names the
 * function once ("add_: result type float32 can't be cast to the tensor's dtype int64"). Argument
 * handling only; the dtype rules and kernels are the rows'. Read only by lua_init.c
 * (ltl_part_funcs); calls the base (lua_ud.h) and the core.
 */
#include <string.h>

#include "lt_math.h"
#include "lua_parts.h"
#include "lua_ud.h"

/* Where a call's result goes: in place, t itself (readied for writing); else a new tensor
   userdata pushed on top. *res holds the in-place result's pointer. */
static lt_tensor **result_slot(lua_State *L, lt_tensor *t, int inplace, lt_tensor **res) {
  if (!inplace) return &ltl_newud(L)->t;
  ltl_prepare_write(L, t);
  return res;
}

/* The call's result: the new tensor on top, or t (argument 1) in place. */
static int result(lua_State *L, int inplace) {
  if (inplace) lua_settop(L, 1);
  return 1;
}

/* {====== options ====== */

/* Is the operand bool or integer (a tensor of such a dtype, or such a scalar)? An opaque
   tensor is not (it has no entry in lt_dtypes; the core refuses it). */
static int integral(const lt_operand *o) {
  if (o->t && o->t->dtype == LT_OPAQUE) return 0;
  if (o->t) return !lt_dtypes[o->t->dtype].is_float && !lt_dtypes[o->t->dtype].is_complex;
  return o->s.kind == LT_SK_INT || o->s.kind == LT_SK_UINT;
}

/* The alpha option (add, sub) at idx, into *alpha; 0 when it is nil. */
static int check_alpha(lua_State *L, int idx, const char *name, lt_operand *alpha) {
  memset(alpha, 0, sizeof *alpha);
  if (lua_isnil(L, idx)) return 0;
  if (lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: alpha must be a number, got %s", name, luaL_typename(L, idx));
  if (lua_isinteger(L, idx))
    alpha->s.v.i = (int64_t)lua_tointeger(L, idx);
  else
    alpha->s = (lt_scalar){LT_SK_FLOAT, {.f = lua_tonumber(L, idx)}, 0};
  return 1;
}

/* b becomes alpha * b (a new tensor held on the stack, or a scalar). Integer operands refuse a
   float alpha, as torch does. */
static void scale_by_alpha(lua_State *L, const char *name, const lt_operand *a, lt_operand *b,
                           const lt_operand *alpha) {
  if (alpha->s.kind == LT_SK_FLOAT && integral(a) && integral(b))
    ltl_error(L, "%s: alpha must be an integer for integer operands, got %f", name, alpha->s.v.f);
  if (b->t) {
    lt_error err;
    ltl_ud *ud = ltl_newud(L); /* holds alpha * b for the call */
    if (lt_binary(LT_MUL, b, alpha, NULL, &ud->t, &err)) ltl_error(L, "%s: %s", name, err.msg);
    b->t = ud->t;
    return;
  }
  if (alpha->s.kind == LT_SK_FLOAT || b->s.kind == LT_SK_FLOAT) {
    double x = b->s.kind == LT_SK_FLOAT ? b->s.v.f : (double)b->s.v.i;
    double y = alpha->s.kind == LT_SK_FLOAT ? alpha->s.v.f : (double)alpha->s.v.i;
    b->s = (lt_scalar){LT_SK_FLOAT, {.f = x * y}, 0};
  } else { /* wraps, as torch's integers do, without signed overflow */
    uint64_t p = (uint64_t)b->s.v.i * (uint64_t)alpha->s.v.i;
    b->s.kind = LT_SK_INT;
    memcpy(&b->s.v.i, &p, sizeof p);
  }
  b->is_bool = 0;
}

/* A string option at idx that picks a row: nil or `none` gives f, `alt` gives to; anything else
   raises, saying what it expects. */
static lt_func pick_row(lua_State *L, int idx, const char *name, const char *key, lt_func f,
                        const char *none, const char *alt, lt_func to, const char *expect) {
  if (lua_isnil(L, idx)) return f;
  const char *v = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
  if (v && strcmp(v, alt) == 0) return to;
  if (v && none && strcmp(v, none) == 0) return f;
  return (lt_func)ltl_error(L, "%s: %s must be %s, got %s", name, key, expect,
                            v ? v : luaL_typename(L, idx));
}

/* The row's option (ltl_opts pushed it at the top): *alpha for add and sub; the row div and gelu
   stand for by their option's value. */
static lt_func read_option(lua_State *L, lt_func f, const char *name, lt_operand *alpha,
                           int *has_alpha) {
  const char *key = lt_funcs[f].opt;
  if (f == LT_ADD || f == LT_SUB) {
    *has_alpha = check_alpha(L, -1, name, alpha);
  } else if (f == LT_DIV) {
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "trunc") == 0)
      ltl_error(L, "%s: rounding_mode 'trunc' is not supported (use 'floor' or floor_divide)",
                name);
    f = pick_row(L, -1, name, key, f, NULL, "floor", LT_FLOORDIV, "'floor' or 'trunc'");
  } else if (f == LT_GELU) {
    f = pick_row(L, -1, name, key, f, "none", "tanh", LT_GELU_TANH, "'none' or 'tanh'");
  }
  return f;
}

/* }====== */

/* {====== the rows ====== */

/* Runs row f on the arguments (a tensor or operands from 1 on; the row's option read first, as
   its metamethods may run): a new tensor on top, or t itself in place. name: the function as
   called ("add_"). No argument count is checked here (call_row does it; operators take two). */
static int run_row(lua_State *L, lt_func f, int inplace, const char *name) {
  const lt_func_row *r = &lt_funcs[f];
  lt_operand ops[2], alpha;
  int has_alpha = 0;
  if (r->opt) {
    int last = ltl_opts(L, r->nin + 1, name, &r->opt, 1);
    f = read_option(L, f, name, &alpha, &has_alpha);
    lua_settop(L, last);
  }
  lt_tensor *t = r->nin == 1 || inplace ? ltl_check(L, 1) : NULL, *res;
  for (int i = 0; i < r->nin; i++) ltl_check_operand(L, i + 1, &ops[i], name);
  if (has_alpha) scale_by_alpha(L, name, &ops[0], &ops[1], &alpha);
  lt_error err;
  lt_tensor **out = result_slot(L, t, inplace, &res);
  int rc = r->nin == 1 ? lt_unary(f, t, inplace ? t : NULL, out, &err)
                       : lt_binary(f, &ops[0], &ops[1], inplace ? t : NULL, out, &err);
  if (rc) return ltl_error(L, "%s: %s", name, err.msg);
  return result(L, inplace);
}

/* The closure of a row's form: upvalues the row (an integer), in place (a boolean) and the name
   it is called by. */
static int call_row(lua_State *L) {
  lt_func f = (lt_func)lua_tointeger(L, lua_upvalueindex(1));
  const char *name = lua_tostring(L, lua_upvalueindex(3));
  ltl_args(L, 1, lt_funcs[f].nin - 1, lt_funcs[f].opt != NULL, name);
  return run_row(L, f, lua_toboolean(L, lua_upvalueindex(2)), name);
}

/* Sets the forms of every row into the methods and module tables. */
static void open_rows(lua_State *L, const ltl_tables *at) {
  for (int f = 0; f < LT_NFUNCS; f++) {
    const lt_func_row *r = &lt_funcs[f];
    for (int inplace = 0; inplace <= 1; inplace++) {
      if (!(r->forms & (inplace ? LT_FORM_INPLACE : LT_FORM_METHOD))) continue;
      lua_pushinteger(L, f);
      lua_pushboolean(L, inplace);
      const char *name = lua_pushfstring(L, inplace ? "%s_" : "%s", r->name);
      lua_pushcclosure(L, call_row, 3);
      if (!inplace && (r->forms & LT_FORM_MODULE)) {
        lua_pushvalue(L, -1);
        lua_setfield(L, at->module, name);
      }
      lua_setfield(L, at->methods, name);
    }
  }
}

/* }====== */

/* {====== operators ====== */

/* a op b: a scalar may stand on either side. */
static int binary_operator(lua_State *L, lt_func f) { return run_row(L, f, 0, lt_funcs[f].name); }
static int mm_add(lua_State *L) { return binary_operator(L, LT_ADD); }
static int mm_sub(lua_State *L) { return binary_operator(L, LT_SUB); }
static int mm_mul(lua_State *L) { return binary_operator(L, LT_MUL); }
static int mm_div(lua_State *L) { return binary_operator(L, LT_DIV); }
static int mm_idiv(lua_State *L) { return binary_operator(L, LT_FLOORDIV); }
static int mm_mod(lua_State *L) { return binary_operator(L, LT_REM); }
static int mm_pow(lua_State *L) { return binary_operator(L, LT_POW); }

/* The unary operators: Lua passes the operand twice. */
static int unary_operator(lua_State *L, lt_func f) {
  lua_settop(L, 1);
  return run_row(L, f, 0, lt_funcs[f].name);
}
static int mm_unm(lua_State *L) { return unary_operator(L, LT_NEG); }
static int mm_bnot(lua_State *L) { return unary_operator(L, LT_BNOT); }

/* The bitwise operators: as Lua's own & | ~ << >> do, a float operand with an integral value
   counts as that integer (t & 2.0 is t & 2) and any other float raises; the methods keep
   torch's rule (a float scalar makes the result float, which they refuse). */
static int bitwise_operator(lua_State *L, lt_func f) {
  for (int i = 1; i <= 2; i++) {
    if (lua_type(L, i) != LUA_TNUMBER || lua_isinteger(L, i)) continue;
    int exact;
    lua_Integer v = lua_tointegerx(L, i, &exact); /* only a float with an integral value */
    if (!exact) return ltl_error(L, "%s: number has no integer representation", lt_funcs[f].name);
    lua_pushinteger(L, v);
    lua_replace(L, i);
  }
  return binary_operator(L, f);
}
static int mm_band(lua_State *L) { return bitwise_operator(L, LT_BAND); }
static int mm_bor(lua_State *L) { return bitwise_operator(L, LT_BOR); }
static int mm_bxor(lua_State *L) { return bitwise_operator(L, LT_BXOR); }
static int mm_shl(lua_State *L) { return bitwise_operator(L, LT_SHL); }
static int mm_shr(lua_State *L) { return bitwise_operator(L, LT_SHR); }

static const luaL_Reg funcs_metameth[] = {
    {"__add", mm_add},   {"__sub", mm_sub},   {"__mul", mm_mul},   {"__div", mm_div},
    {"__idiv", mm_idiv}, {"__mod", mm_mod},   {"__pow", mm_pow},   {"__unm", mm_unm},
    {"__band", mm_band}, {"__bor", mm_bor},   {"__bxor", mm_bxor}, {"__shl", mm_shl},
    {"__shr", mm_shr},   {"__bnot", mm_bnot}, {NULL, NULL},
};

/* }====== */

/* {====== lerp, nan_to_num, clamp, polar, where, masked_fill ====== */

/* t:clamp(min, max) (either may be nil) and clamp_; clip and clip_ are their aliases, as torch's.
 */
static int clamp(lua_State *L, int inplace, const char *name) {
  ltl_args(L, 1, 2, 0, name);
  lt_tensor *t = ltl_check(L, 1), *res;
  lt_operand lo, hi;
  int has_lo = !lua_isnoneornil(L, 2), has_hi = !lua_isnoneornil(L, 3);
  if (has_lo) ltl_check_operand(L, 2, &lo, name);
  if (has_hi) ltl_check_operand(L, 3, &hi, name);
  lt_error err;
  lt_tensor **out = result_slot(L, t, inplace, &res);
  if (lt_clamp(t, has_lo ? &lo : NULL, has_hi ? &hi : NULL, inplace ? t : NULL, out, &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  return result(L, inplace);
}
static int m_clamp(lua_State *L) { return clamp(L, 0, "clamp"); }
static int m_clamp_(lua_State *L) { return clamp(L, 1, "clamp_"); }
static int m_clip(lua_State *L) { return clamp(L, 0, "clip"); }
static int m_clip_(lua_State *L) { return clamp(L, 1, "clip_"); }

/* lt.polar(abs, angle): a complex tensor (module only, as torch). */
static int f_polar(lua_State *L) {
  ltl_args(L, 0, 2, 0, "polar");
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_polar(a, b, &ud->t, &err)) return ltl_error(L, "polar: %s", err.msg);
  return 1;
}

/* lt.where(cond, a, b) */
static int f_where(lua_State *L) {
  ltl_args(L, 0, 3, 0, "where");
  lt_tensor *c = ltl_check(L, 1);
  lt_operand a, b;
  ltl_check_operand(L, 2, &a, "where");
  ltl_check_operand(L, 3, &b, "where");
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_where(c, &a, &b, &ud->t, &err)) return ltl_error(L, "where: %s", err.msg);
  return 1;
}

/* t:masked_fill(mask, value): where(mask, value, t) in t's dtype; masked_fill_ writes t. */
static int masked_fill(lua_State *L, int inplace) {
  const char *name = inplace ? "masked_fill_" : "masked_fill";
  ltl_args(L, 1, 2, 0, name);
  lt_tensor *t = ltl_check(L, 1), *mask = ltl_check(L, 2), *res;
  lt_operand v;
  ltl_check_operand(L, 3, &v, name);
  lt_error err;
  lt_tensor **out = result_slot(L, t, inplace, &res);
  if (lt_masked_fill(t, mask, &v, inplace, out, &err)) return ltl_error(L, "%s: %s", name, err.msg);
  return result(L, inplace);
}
static int m_masked_fill(lua_State *L) { return masked_fill(L, 0); }
static int m_masked_fill_(lua_State *L) { return masked_fill(L, 1); }

/* t:lerp(end, weight): weight a number or a tensor; lerp_ writes t. */
static int lerp(lua_State *L, int inplace) {
  const char *name = inplace ? "lerp_" : "lerp";
  ltl_args(L, 1, 2, 0, name);
  lt_operand a, e, w;
  lt_tensor *t = ltl_check(L, 1), *res;
  ltl_check_operand(L, 1, &a, name);
  ltl_check_operand(L, 2, &e, name);
  ltl_check_operand(L, 3, &w, name);
  lt_error err;
  lt_tensor **out = result_slot(L, t, inplace, &res);
  if (lt_lerp(&a, &e, &w, inplace ? t : NULL, out, &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  return result(L, inplace);
}
static int m_lerp(lua_State *L) { return lerp(L, 0); }
static int m_lerp_(lua_State *L) { return lerp(L, 1); }

/* t:nan_to_num([nan [, posinf [, neginf]]]) or t:nan_to_num({nan =, posinf =, neginf =}) */
static int nan_to_num(lua_State *L, int inplace) {
  static const char *const keys[] = {"nan", "posinf", "neginf"};
  const char *name = inplace ? "nan_to_num_" : "nan_to_num";
  ltl_args(L, 1, 3, 1, name);
  int last = ltl_opts(L, 2, name, keys, 3);
  double v[3];
  int has[3];
  for (int i = 0; i < 3; i++) {
    int idx = lua_gettop(L) - 2 + i; /* the option's value */
    if (!lua_isnil(L, idx) && 2 + i <= last && !lua_isnil(L, 2 + i))
      ltl_error(L, "%s: %s given twice (as an argument and as an option)", name, keys[i]);
    if (lua_isnil(L, idx) && 2 + i <= last) idx = 2 + i;
    has[i] = !lua_isnil(L, idx);
    if (has[i] && lua_type(L, idx) != LUA_TNUMBER)
      ltl_error(L, "%s: %s must be a number, got %s", name, keys[i], luaL_typename(L, idx));
    v[i] = has[i] ? lua_tonumber(L, idx) : 0;
  }
  lua_settop(L, 1);
  lt_tensor *t = ltl_check(L, 1), *res;
  lt_error err;
  lt_tensor **out = result_slot(L, t, inplace, &res);
  if (lt_nan_to_num(t, has[0] ? &v[0] : NULL, has[1] ? &v[1] : NULL, has[2] ? &v[2] : NULL,
                    inplace ? t : NULL, out, &err))
    return ltl_error(L, "%s: %s", name, err.msg);
  return result(L, inplace);
}
static int m_nan_to_num(lua_State *L) { return nan_to_num(L, 0); }
static int m_nan_to_num_(lua_State *L) { return nan_to_num(L, 1); }

/* Functions that torch has as torch.f and as an in-place method: t:name(...), lt.name(t, ...)
   and t:name_(...) (open_funcs). */
static const struct {
  const char *name;
  lua_CFunction f, f_;
} funcs_forms[] = {{"lerp", m_lerp, m_lerp_},
                   {"nan_to_num", m_nan_to_num, m_nan_to_num_},
                   {"clamp", m_clamp, m_clamp_},
                   {"clip", m_clip, m_clip_},
                   {"masked_fill", m_masked_fill, m_masked_fill_}};
/* The module's own. */
static const luaL_Reg funcs_funcs[] = {{"where", f_where}, {"polar", f_polar}, {NULL, NULL}};

/* }====== */

static void open_funcs(lua_State *L, const ltl_tables *at) {
  open_rows(L, at);
  for (size_t i = 0; i < sizeof funcs_forms / sizeof funcs_forms[0]; i++) {
    lua_pushcfunction(L, funcs_forms[i].f);
    lua_pushvalue(L, -1);
    lua_setfield(L, at->methods, funcs_forms[i].name);
    lua_setfield(L, at->module, funcs_forms[i].name);
    lua_pushfstring(L, "%s_", funcs_forms[i].name);
    lua_pushcfunction(L, funcs_forms[i].f_);
    lua_settable(L, at->methods);
  }
}

const ltl_part ltl_part_funcs = {funcs_metameth, NULL, NULL, funcs_funcs, open_funcs};
