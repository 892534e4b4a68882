/*
 * lua_nn_act.c -- lt.nn.functional's activations and losses (torch.nn.functional's names,
 * positional order and defaults): relu, relu6, selu, celu, elu, leaky_relu, gelu, silu, mish,
 * hardswish, hardsigmoid, hardtanh, softplus, threshold, sigmoid, tanh, logsigmoid, softsign,
 * tanhshrink, softmax, log_softmax, softmin, glu; mse_loss, l1_loss, smooth_l1_loss,
 * huber_loss, binary_cross_entropy(_with_logits), kl_div, nll_loss, cross_entropy; and the
 * module forms torch has as torch.f (lt.selu, lt.celu, lt.threshold).
 *
 * Every optional argument of torch's signature comes positionally or, under torch's name, in a
 * trailing options table (`F.leaky_relu(x, 0.2)` or `F.leaky_relu(x, {negative_slope = 0.2})`),
 * not both. Argument handling only: the parameter-free activations are rows of lt_funcs.h
 * (lt_unary), the others lt_nn_act.h's, the losses lt_nn_loss.h's. Read only by lua_init.c
 * (ltl_part_nn_act); calls the base (lua_ud.h), lua_spaces.h and the core.
 */
#include <string.h>

#include "lt_funcs.h"
#include "lt_nn_act.h"
#include "lt_nn_loss.h"
#include "lt_softmax.h"
#include "lua_spaces.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* The arguments of fname: the input, then the nkeys arguments keys names (torch's) from
   position first on, each given positionally or in the trailing options table. Returns the
   index where the value of keys[i] now lies, less i (nil for an absent one). */
static int named_args(lua_State *L, const char *fname, int first, const char *const *keys,
                      int nkeys) {
  ltl_args(L, 0, first - 1 + nkeys, 1, fname);
  int last = ltl_opts(L, first, fname, keys, nkeys), base = lua_gettop(L) - nkeys + 1;
  for (int i = 0; i < nkeys; i++) {
    int pos = first + i;
    if (pos > last || lua_isnil(L, pos)) continue;
    if (!lua_isnil(L, base + i))
      ltl_error(L, "%s: %s given twice (as an argument and as an option)", fname, keys[i]);
    lua_pushvalue(L, pos);
    lua_replace(L, base + i);
  }
  return base;
}

static double num_arg(lua_State *L, int idx, double def, const char *fname, const char *key) {
  if (lua_isnil(L, idx)) return def;
  if (lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: %s must be a number, got %s", fname, key, luaL_typename(L, idx));
  return lua_tonumber(L, idx);
}

static double need_num(lua_State *L, int idx, const char *fname, const char *key) {
  if (lua_isnil(L, idx)) ltl_error(L, "%s: %s is required", fname, key);
  return num_arg(L, idx, 0, fname, key);
}

/* A tensor argument at idx: NULL when nil (unless required). */
static lt_tensor *tensor_arg(lua_State *L, int idx, int required, const char *fname,
                             const char *key) {
  if (lua_isnil(L, idx) && !required) return NULL;
  if (!ltl_testud(L, idx))
    ltl_error(L, "%s: %s must be a tensor, got %s", fname, key, luaL_typename(L, idx));
  return ltl_check(L, idx);
}

/* The result of a core call: its tensor (made in the slot on top), or the input itself. */
static int done(lua_State *L, int rc, const lt_error *err, const char *fname, int inplace) {
  if (rc) return ltl_fail(L, fname, err);
  if (inplace) lua_pushvalue(L, 1);
  return 1;
}

/* }====== */

/* {====== activations ====== */

/* A row of lt_funcs.h as f(input [, inplace]) (inplace: whether it takes the argument). */
static int row_act(lua_State *L, lt_func f, int has_inplace, const char *fname) {
  static const char *const keys[] = {"inplace"};
  int base = named_args(L, fname, 2, keys, has_inplace);
  int inplace = has_inplace && ltl_bool_option(L, base, 0, fname, "inplace");
  lt_tensor *t = ltl_check(L, 1), *res;
  lt_error err;
  if (inplace) ltl_prepare_write(L, t);
  lt_tensor **out = inplace ? &res : ltl_out(L);
  return done(L, lt_unary(f, t, inplace ? t : NULL, out, &err), &err, fname, inplace);
}

/* The activations that are rows: F.name(input [, inplace]), and lt.selu (torch.selu). */
static const struct {
  const char *name;
  lt_func f;
  int has_inplace, module; /* module: lt.name, else lt.nn.functional.name */
} row_forms[] = {
    /* clang-format off */
    {"relu", LT_RELU, 1, 0}, {"relu6", LT_RELU6, 1, 0}, {"selu", LT_SELU, 1, 0},
    {"silu", LT_SILU, 1, 0}, {"mish", LT_MISH, 1, 0}, {"hardswish", LT_HARDSWISH, 1, 0},
    {"hardsigmoid", LT_HARDSIGMOID, 1, 0}, {"sigmoid", LT_SIGMOID, 0, 0}, {"tanh", LT_TANH, 0, 0},
    {"logsigmoid", LT_LOGSIGMOID, 0, 0}, {"softsign", LT_SOFTSIGN, 0, 0},
    {"tanhshrink", LT_TANHSHRINK, 0, 0}, {"selu", LT_SELU, 0, 1},
    /* clang-format on */
};

/* The closure of a row form: upvalue its index in row_forms. */
static int row_form(lua_State *L) {
  lua_Integer i = lua_tointeger(L, lua_upvalueindex(1));
  return row_act(L, row_forms[i].f, row_forms[i].has_inplace, row_forms[i].name);
}

/* gelu(input, approximate = 'none' | 'tanh') */
static int f_gelu(lua_State *L) {
  static const char *const keys[] = {"approximate"}, *const modes[] = {"none", "tanh", NULL};
  int base = named_args(L, "gelu", 2, keys, 1);
  int tanh = ltl_choice_option(L, base, 0, "gelu", "approximate", modes);
  lt_tensor *t = ltl_check(L, 1);
  lt_error err;
  return done(L, lt_unary(tanh ? LT_GELU_TANH : LT_GELU, t, NULL, ltl_out(L), &err), &err, "gelu",
              0);
}

/* An activation of lt_nn_act.h: its parameters (keys[0..np), defaults def, required when
   `required`), then inplace when it takes it. */
typedef struct {
  const char *name;
  lt_act act;
  int np, has_inplace, required;
  const char *keys[3];
  double def[2];
} act_form;

static int param_act(lua_State *L, const act_form *a) {
  int base = named_args(L, a->name, 2, a->keys, a->np + a->has_inplace);
  double p[2] = {a->def[0], a->def[1]};
  for (int i = 0; i < a->np; i++)
    p[i] = a->required ? need_num(L, base + i, a->name, a->keys[i])
                       : num_arg(L, base + i, a->def[i], a->name, a->keys[i]);
  int inplace = a->has_inplace && ltl_bool_option(L, base + a->np, 0, a->name, "inplace");
  lt_tensor *t = ltl_check(L, 1), *res;
  lt_error err;
  if (inplace) ltl_prepare_write(L, t);
  lt_tensor **out = inplace ? &res : ltl_out(L);
  return done(L, lt_nn_act(a->act, t, p[0], p[1], inplace ? t : NULL, out, &err), &err, a->name,
              inplace);
}

#define ACT_FORM(fn, ...)                       \
  static int fn(lua_State *L) {                 \
    static const act_form form = {__VA_ARGS__}; \
    return param_act(L, &form);                 \
  }
ACT_FORM(f_leaky_relu, "leaky_relu", LT_ACT_LEAKY_RELU, 1, 1, 0, {"negative_slope", "inplace"},
         {0.01, 0})
ACT_FORM(f_elu, "elu", LT_ACT_ELU, 1, 1, 0, {"alpha", "inplace"}, {1, 0})
ACT_FORM(f_celu, "celu", LT_ACT_CELU, 1, 1, 0, {"alpha", "inplace"}, {1, 0})
ACT_FORM(f_softplus, "softplus", LT_ACT_SOFTPLUS, 2, 0, 0, {"beta", "threshold"}, {1, 20})
ACT_FORM(f_hardtanh, "hardtanh", LT_ACT_HARDTANH, 2, 1, 0, {"min_val", "max_val", "inplace"},
         {-1, 1})
ACT_FORM(f_threshold, "threshold", LT_ACT_THRESHOLD, 2, 1, 1, {"threshold", "value", "inplace"},
         {0, 0})
ACT_FORM(m_celu, "celu", LT_ACT_CELU, 1, 0, 0, {"alpha"}, {1, 0}) /* torch.celu */
ACT_FORM(m_threshold, "threshold", LT_ACT_THRESHOLD, 2, 0, 1, {"threshold", "value"}, {0, 0})

/* softmax, log_softmax, softmin (input, dim, _stacklevel, dtype): without dim, torch's
   implicit one (1 for 2-d and 4-d and more, else 1st). */
static int softmax_like(lua_State *L, int op, const char *fname) {
  static const char *const keys[] = {"dim", "_stacklevel", "dtype"};
  int base = named_args(L, fname, 2, keys, 3);
  num_arg(L, base + 1, 3, fname, "_stacklevel"); /* torch's warning level: checked, unused */
  lt_dtype dt = ltl_dtype_option(L, base + 2, fname, LT_NDTYPES);
  lt_tensor *t = ltl_check(L, 1);
  int implicit = t->ndim == 0 || t->ndim == 1 || t->ndim == 3 ? 0 : 1;
  int dim = ltl_dim_option(L, base, t->ndim, implicit, fname);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  int rc = op < 0 ? lt_nn_softmin(t, dim, dt, out, &err)
                  : lt_softmax((lt_smop)op, t, dim, dt, out, &err);
  return done(L, rc, &err, fname, 0);
}
static int f_softmax(lua_State *L) { return softmax_like(L, LT_SOFTMAX, "softmax"); }
static int f_log_softmax(lua_State *L) { return softmax_like(L, LT_LOG_SOFTMAX, "log_softmax"); }
static int f_softmin(lua_State *L) { return softmax_like(L, -1, "softmin"); }

/* glu(input, dim = -1) */
static int f_glu(lua_State *L) {
  static const char *const keys[] = {"dim"};
  int base = named_args(L, "glu", 2, keys, 1);
  lt_tensor *t = ltl_check(L, 1);
  int dim = ltl_dim_option(L, base, t->ndim, t->ndim ? t->ndim - 1 : 0, "glu");
  lt_error err;
  return done(L, lt_nn_glu(t, dim, ltl_out(L), &err), &err, "glu", 0);
}

/* }====== */

/* {====== losses ====== */

/* The reduction: the string at idx ('mean' when nil; 'batchmean' where allowed), unless the
   deprecated size_average (at sa) or reduce (at rd) is given (0: the function has neither),
   which decide as torch's legacy rule: reduce false gives none, else size_average false sum. */
static lt_reduction reduction_arg(lua_State *L, int sa, int rd, int idx, int batchmean,
                                  const char *fname) {
  static const char *const plain[] = {"none", "mean", "sum", NULL}, *const kl[] = {
                                                                        "none", "mean", "sum",
                                                                        "batchmean", NULL};
  if (sa && (!lua_isnil(L, sa) || !lua_isnil(L, rd))) {
    int size_average = ltl_bool_option(L, sa, 1, fname, "size_average");
    int reduce = ltl_bool_option(L, rd, 1, fname, "reduce");
    return !reduce ? LT_REDUCE_NONE : size_average ? LT_REDUCE_MEAN : LT_REDUCE_SUM;
  }
  static const lt_reduction by[] = {LT_REDUCE_NONE, LT_REDUCE_MEAN, LT_REDUCE_SUM,
                                    LT_REDUCE_BATCHMEAN};
  return by[ltl_choice_option(L, idx, 1, fname, "reduction", batchmean ? kl : plain)];
}

/* mse_loss, l1_loss (input, target, size_average, reduce, reduction) and smooth_l1_loss (...,
   beta = 1). */
static int point_loss(lua_State *L, lt_loss loss, const char *fname) {
  static const char *const keys[] = {"size_average", "reduce", "reduction", "beta"};
  int base = named_args(L, fname, 3, keys, loss == LT_LOSS_SMOOTH_L1 ? 4 : 3);
  lt_reduction red = reduction_arg(L, base, base + 1, base + 2, 0, fname);
  double beta = loss == LT_LOSS_SMOOTH_L1 ? num_arg(L, base + 3, 1, fname, "beta") : 0;
  lt_tensor *x = ltl_check(L, 1), *y = tensor_arg(L, 2, 1, fname, "target");
  lt_error err;
  return done(L, lt_nn_loss(loss, x, y, NULL, NULL, beta, red, ltl_out(L), &err), &err, fname, 0);
}
static int f_mse_loss(lua_State *L) { return point_loss(L, LT_LOSS_MSE, "mse_loss"); }
static int f_l1_loss(lua_State *L) { return point_loss(L, LT_LOSS_L1, "l1_loss"); }
static int f_smooth_l1_loss(lua_State *L) {
  return point_loss(L, LT_LOSS_SMOOTH_L1, "smooth_l1_loss");
}

/* huber_loss(input, target, reduction = 'mean', delta = 1) */
static int f_huber_loss(lua_State *L) {
  static const char *const keys[] = {"reduction", "delta"};
  int base = named_args(L, "huber_loss", 3, keys, 2);
  lt_reduction red = reduction_arg(L, 0, 0, base, 0, "huber_loss");
  double delta = num_arg(L, base + 1, 1, "huber_loss", "delta");
  lt_tensor *x = ltl_check(L, 1), *y = tensor_arg(L, 2, 1, "huber_loss", "target");
  lt_error err;
  return done(L, lt_nn_loss(LT_LOSS_HUBER, x, y, NULL, NULL, delta, red, ltl_out(L), &err), &err,
              "huber_loss", 0);
}

/* binary_cross_entropy(input, target, weight, size_average, reduce, reduction) and
   binary_cross_entropy_with_logits(..., pos_weight) */
static int bce(lua_State *L, lt_loss loss, const char *fname) {
  static const char *const keys[] = {"weight", "size_average", "reduce", "reduction", "pos_weight"};
  int base = named_args(L, fname, 3, keys, loss == LT_LOSS_BCE_LOGITS ? 5 : 4);
  lt_reduction red = reduction_arg(L, base + 1, base + 2, base + 3, 0, fname);
  lt_tensor *x = ltl_check(L, 1), *y = tensor_arg(L, 2, 1, fname, "target");
  lt_tensor *w = tensor_arg(L, base, 0, fname, "weight");
  lt_tensor *pw =
      loss == LT_LOSS_BCE_LOGITS ? tensor_arg(L, base + 4, 0, fname, "pos_weight") : NULL;
  lt_error err;
  return done(L, lt_nn_loss(loss, x, y, w, pw, 0, red, ltl_out(L), &err), &err, fname, 0);
}
static int f_bce(lua_State *L) { return bce(L, LT_LOSS_BCE, "binary_cross_entropy"); }
static int f_bce_logits(lua_State *L) {
  return bce(L, LT_LOSS_BCE_LOGITS, "binary_cross_entropy_with_logits");
}

/* kl_div(input, target, size_average, reduce, reduction = 'mean', log_target = false) */
static int f_kl_div(lua_State *L) {
  static const char *const keys[] = {"size_average", "reduce", "reduction", "log_target"};
  int base = named_args(L, "kl_div", 3, keys, 4);
  lt_reduction red = reduction_arg(L, base, base + 1, base + 2, 1, "kl_div");
  int log_target = ltl_bool_option(L, base + 3, 0, "kl_div", "log_target");
  lt_tensor *x = ltl_check(L, 1), *y = tensor_arg(L, 2, 1, "kl_div", "target");
  lt_error err;
  lt_loss loss = log_target ? LT_LOSS_KL_DIV_LOG : LT_LOSS_KL_DIV;
  return done(L, lt_nn_loss(loss, x, y, NULL, NULL, 0, red, ltl_out(L), &err), &err, "kl_div", 0);
}

/* The ignore_index argument: an integer (torch's sentinel -100 by default). */
static int64_t ignore_arg(lua_State *L, int idx, const char *fname) {
  if (lua_isnil(L, idx)) return -100;
  if (!lua_isinteger(L, idx))
    ltl_error(L, "%s: ignore_index must be an integer, got %s", fname,
              lua_type(L, idx) == LUA_TNUMBER ? "a float" : luaL_typename(L, idx));
  return (int64_t)lua_tointeger(L, idx);
}

/* nll_loss(input, target, weight, size_average, ignore_index, reduce, reduction) and
   cross_entropy(..., label_smoothing) */
static int class_loss(lua_State *L, int ce, const char *fname) {
  static const char *const keys[] = {"weight", "size_average", "ignore_index",
                                     "reduce", "reduction",    "label_smoothing"};
  int base = named_args(L, fname, 3, keys, ce ? 6 : 5);
  lt_reduction red = reduction_arg(L, base + 1, base + 3, base + 4, 0, fname);
  int64_t ignore = ignore_arg(L, base + 2, fname);
  double ls = ce ? num_arg(L, base + 5, 0, fname, "label_smoothing") : 0;
  lt_tensor *x = ltl_check(L, 1), *y = tensor_arg(L, 2, 1, fname, "target");
  lt_tensor *w = tensor_arg(L, base, 0, fname, "weight");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  int rc = ce ? lt_nn_cross_entropy(x, y, w, ignore, ls, red, out, &err)
              : lt_nn_nll_loss(x, y, w, ignore, red, out, &err);
  return done(L, rc, &err, fname, 0);
}
static int f_nll_loss(lua_State *L) { return class_loss(L, 0, "nll_loss"); }
static int f_cross_entropy(lua_State *L) { return class_loss(L, 1, "cross_entropy"); }

/* }====== */

static const luaL_Reg nn_act_funcs[] = {
    {"celu", f_celu},
    {"elu", f_elu},
    {"leaky_relu", f_leaky_relu},
    {"gelu", f_gelu},
    {"hardtanh", f_hardtanh},
    {"softplus", f_softplus},
    {"threshold", f_threshold},
    {"softmax", f_softmax},
    {"log_softmax", f_log_softmax},
    {"softmin", f_softmin},
    {"glu", f_glu},
    {"mse_loss", f_mse_loss},
    {"l1_loss", f_l1_loss},
    {"smooth_l1_loss", f_smooth_l1_loss},
    {"huber_loss", f_huber_loss},
    {"binary_cross_entropy", f_bce},
    {"binary_cross_entropy_with_logits", f_bce_logits},
    {"kl_div", f_kl_div},
    {"nll_loss", f_nll_loss},
    {"cross_entropy", f_cross_entropy},
    {NULL, NULL},
};

/* torch.selu, torch.celu, torch.threshold: the module's own forms. */
static const luaL_Reg nn_act_module[] = {
    {"celu", m_celu}, {"threshold", m_threshold}, {NULL, NULL}};

static void open_nn_act(lua_State *L, const ltl_tables *at) {
  ltl_space_register(L, at, "nn.functional", nn_act_funcs);
  lua_getfield(L, at->module, "nn"); /* lt.nn.functional, which ltl_part_spaces made */
  lua_getfield(L, -1, "functional");
  int space = lua_gettop(L);
  for (size_t i = 0; i < sizeof row_forms / sizeof row_forms[0]; i++) {
    lua_pushinteger(L, (lua_Integer)i);
    lua_pushcclosure(L, row_form, 1);
    lua_setfield(L, row_forms[i].module ? at->module : space, row_forms[i].name);
  }
  lua_pop(L, 2);
}

const ltl_part ltl_part_nn_act = {NULL, NULL, NULL, nn_act_module, open_nn_act};
