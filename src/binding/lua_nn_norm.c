/*
 * lua_nn_norm.c -- lt.nn.functional's linear, bilinear, pad, interpolate, batch_norm,
 * layer_norm, group_norm, rms_norm, embedding, dropout, scaled_dot_product_attention, one_hot,
 * normalize, cosine_similarity and pairwise_distance, with torch.nn.functional's positional
 * order; every optional argument may also be given in the trailing options table under torch's
 * keyword name (once), keyword-only ones only there. Dims, class values and embedding indices
 * are 1-based. Argument handling only: the computations are the core's (lt_nn_norm.h,
 * lt_nn_attn.h, lt_nn_resize.h). Read only by lua_init.c (ltl_part_nn_norm); calls the base
 * (lua_ud.h), lua_spaces.c (registration), lua_random.c (generators) and the core.
 */
#include <math.h>
#include <string.h>

#include "lt_nn_attn.h"
#include "lt_nn_norm.h"
#include "lt_nn_resize.h"
#include "lua_random.h"
#include "lua_spaces.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/*
 * The arguments of fname: nreq required ones, then the optional keys[0 .. npos) positionally
 * or in the options table, then keys[npos .. nkeys) in the options table only. Pushes the value
 * of each key (nil when not given) and returns the index of the first: positional and option
 * values both given raise "fname: key given twice".
 */
static int read_args(lua_State *L, const char *fname, int nreq, const char *const *keys, int npos,
                     int nkeys) {
  ltl_args(L, 0, nreq + npos, 1, fname);
  int last = ltl_opts(L, 1, fname, keys, nkeys), base = lua_gettop(L) + 1, opt = base - nkeys;
  for (int i = 0; i < nkeys; i++) {
    int pos = nreq + 1 + i, has_pos = i < npos && pos <= last && !lua_isnil(L, pos);
    if (has_pos && !lua_isnil(L, opt + i)) ltl_error(L, "%s: %s given twice", fname, keys[i]);
    lua_pushvalue(L, has_pos ? pos : opt + i);
  }
  return base;
}

/* The tensor at idx (optional: NULL for nil). */
static lt_tensor *tensor_at(lua_State *L, int idx, const char *fname, const char *what,
                            int optional) {
  if (optional && lua_isnoneornil(L, idx)) return NULL;
  if (!ltl_testud(L, idx))
    ltl_error(L, "%s: %s must be a tensor, got %s", fname, what, luaL_typename(L, idx));
  return ltl_check(L, idx);
}

/* The number at idx, def when nil. */
static double num_at(lua_State *L, int idx, double def, const char *fname, const char *what) {
  if (lua_isnoneornil(L, idx)) return def;
  if (lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: %s must be a number, got %s", fname, what, luaL_typename(L, idx));
  return lua_tonumber(L, idx);
}

/* The integer at idx, def when nil. */
static int64_t int_at(lua_State *L, int idx, int64_t def, const char *fname, const char *what) {
  if (lua_isnoneornil(L, idx)) return def;
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok || lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: %s must be an integer, got %s", fname, what,
              lua_type(L, idx) == LUA_TNUMBER ? "a non-integer number" : luaL_typename(L, idx));
  return v;
}

/* A number or a Lua array of numbers at idx into v (at most max); a number counts `repeat`
   times. Returns the count. */
static int numbers_at(lua_State *L, int idx, double *v, int max, int repeat, const char *fname,
                      const char *what) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    for (int i = 0; i < repeat && i < max; i++) v[i] = lua_tonumber(L, idx);
    return repeat;
  }
  if (lua_type(L, idx) != LUA_TTABLE)
    ltl_error(L, "%s: %s must be a number or an array of numbers, got %s", fname, what,
              luaL_typename(L, idx));
  lua_Integer n = luaL_len(L, idx);
  if (n > max) ltl_error(L, "%s: %s has too many sizes (%d at most)", fname, what, max);
  for (lua_Integer i = 1; i <= n; i++) {
    if (lua_geti(L, idx, i) != LUA_TNUMBER)
      ltl_error(L, "%s: %s[%d] must be a number, got %s", fname, what, (int)i,
                luaL_typename(L, -1));
    v[i - 1] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  return (int)n;
}

/* The same for integers. */
static int ints_at(lua_State *L, int idx, int64_t *v, int max, int repeat, const char *fname,
                   const char *what) {
  double d[LT_MAX_NDIM];
  int n = numbers_at(L, idx, d, max < LT_MAX_NDIM ? max : LT_MAX_NDIM, repeat, fname, what);
  for (int i = 0; i < n; i++) {
    if (d[i] != floor(d[i]) || fabs(d[i]) > 9e15)
      ltl_error(L, "%s: %s must hold integers of at most 2^53 in magnitude, got %f", fname, what,
                d[i]);
    v[i] = (int64_t)d[i];
  }
  return n;
}

/* }====== */

/* {====== linear, bilinear, attention, dropout ====== */

static int f_linear(lua_State *L) {
  static const char *const keys[] = {"bias"};
  int a = read_args(L, "linear", 2, keys, 1, 1);
  lt_tensor *x = tensor_at(L, 1, "linear", "input", 0), *w = tensor_at(L, 2, "linear", "weight", 0);
  lt_tensor *b = tensor_at(L, a, "linear", "bias", 1);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_linear(x, w, b, out, &err), &err, "linear");
}

static int f_bilinear(lua_State *L) {
  static const char *const keys[] = {"bias"};
  int a = read_args(L, "bilinear", 3, keys, 1, 1);
  lt_tensor *x1 = tensor_at(L, 1, "bilinear", "input1", 0);
  lt_tensor *x2 = tensor_at(L, 2, "bilinear", "input2", 0);
  lt_tensor *w = tensor_at(L, 3, "bilinear", "weight", 0);
  lt_tensor *b = tensor_at(L, a, "bilinear", "bias", 1);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_bilinear(x1, x2, w, b, out, &err), &err, "bilinear");
}

static int f_attention(lua_State *L) {
  static const char *const keys[] = {"attn_mask", "dropout_p", "is_causal", "scale"};
  const char *f = "scaled_dot_product_attention";
  int a = read_args(L, f, 3, keys, 3, 4);
  double p = num_at(L, a + 1, 0, f, "dropout_p"), scale = num_at(L, a + 3, -1, f, "scale");
  int causal = ltl_bool_option(L, a + 2, 0, f, "is_causal");
  if (!lua_isnil(L, a + 3) && !(scale > 0)) ltl_error(L, "%s: scale must be positive", f);
  lt_tensor *q = tensor_at(L, 1, f, "query", 0), *k = tensor_at(L, 2, f, "key", 0);
  lt_tensor *v = tensor_at(L, 3, f, "value", 0), *m = tensor_at(L, a, f, "attn_mask", 1);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(
      L, lt_nn_attention(q, k, v, m, p, causal, scale, lt_default_generator(), out, &err), &err, f);
}

static int f_dropout(lua_State *L) {
  static const char *const keys[] = {"p", "training", "inplace", "generator"};
  int a = read_args(L, "dropout", 1, keys, 3, 4);
  double p = num_at(L, a, 0.5, "dropout", "p");
  int training = ltl_bool_option(L, a + 1, 1, "dropout", "training");
  int inplace = ltl_bool_option(L, a + 2, 0, "dropout", "inplace");
  lt_generator *g = ltl_generator_opt(L, a + 3, "dropout");
  lt_tensor *x = tensor_at(L, 1, "dropout", "input", 0);
  if (!(p >= 0 && p <= 1)) ltl_error(L, "dropout: p must be between 0 and 1, got %f", p);
  if (!training || p == 0) { /* torch returns the input itself */
    lua_pushvalue(L, 1);
    return 1;
  }
  lt_error err;
  lt_tensor *r;
  if (inplace) {
    if (lt_nn_dropout(x, p, 1, g, &r, &err)) return ltl_fail(L, "dropout", &err);
    lua_pushvalue(L, 1);
    return 1;
  }
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_dropout(x, p, 0, g, out, &err), &err, "dropout");
}

/* }====== */

/* {====== normalizations ====== */

/* The tensor and its weight, bias (at a, a + 1; nb 0: no bias) and eps (at a + nb + 1, def when
   nil) of a normalization. */
typedef struct {
  lt_tensor *x, *w, *b;
  double eps;
} norm_args;
static norm_args read_norm(lua_State *L, int a, int nb, double def, const char *fname) {
  norm_args n;
  n.eps = num_at(L, a + nb + 1, def, fname, "eps");
  if (!(n.eps >= 0)) ltl_error(L, "%s: eps must be non-negative", fname);
  n.x = tensor_at(L, 1, fname, "input", 0);
  n.w = tensor_at(L, a, fname, "weight", 1);
  n.b = nb ? tensor_at(L, a + 1, fname, "bias", 1) : NULL;
  return n;
}

static int f_layer_norm(lua_State *L) {
  static const char *const keys[] = {"weight", "bias", "eps"};
  int a = read_args(L, "layer_norm", 2, keys, 3, 3);
  int64_t shape[LT_MAX_NDIM];
  int nd = ints_at(L, 2, shape, LT_MAX_NDIM, 1, "layer_norm", "normalized_shape");
  norm_args n = read_norm(L, a, 1, 1e-5, "layer_norm");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_layer_norm(n.x, nd, shape, n.w, n.b, n.eps, out, &err), &err,
                    "layer_norm");
}

static int f_rms_norm(lua_State *L) {
  static const char *const keys[] = {"weight", "eps"};
  int a = read_args(L, "rms_norm", 2, keys, 2, 2);
  int64_t shape[LT_MAX_NDIM];
  int nd = ints_at(L, 2, shape, LT_MAX_NDIM, 1, "rms_norm", "normalized_shape");
  int given = !lua_isnil(L, a + 1); /* nil: the dtype's machine epsilon (the core's -1) */
  norm_args n = read_norm(L, a, 0, 0, "rms_norm");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_rms_norm(n.x, nd, shape, n.w, given ? n.eps : -1, out, &err), &err,
                    "rms_norm");
}

static int f_group_norm(lua_State *L) {
  static const char *const keys[] = {"weight", "bias", "eps"};
  int a = read_args(L, "group_norm", 2, keys, 3, 3);
  int64_t g = int_at(L, 2, 0, "group_norm", "num_groups");
  norm_args n = read_norm(L, a, 1, 1e-5, "group_norm");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_group_norm(n.x, g, n.w, n.b, n.eps, out, &err), &err, "group_norm");
}

static int f_batch_norm(lua_State *L) {
  static const char *const keys[] = {"running_mean", "running_var", "weight", "bias",
                                     "training",     "momentum",    "eps"};
  const char *f = "batch_norm";
  int a = read_args(L, f, 1, keys, 7, 7);
  int training = ltl_bool_option(L, a + 4, 0, f, "training");
  double momentum = num_at(L, a + 5, 0.1, f, "momentum"), eps = num_at(L, a + 6, 1e-5, f, "eps");
  lt_tensor *x = tensor_at(L, 1, f, "input", 0), *rm = tensor_at(L, a, f, "running_mean", 1);
  lt_tensor *rv = tensor_at(L, a + 1, f, "running_var", 1),
            *w = tensor_at(L, a + 2, f, "weight", 1);
  lt_tensor *b = tensor_at(L, a + 3, f, "bias", 1);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_batch_norm(x, rm, rv, w, b, training, momentum, eps, out, &err), &err,
                    f);
}

static int f_normalize(lua_State *L) {
  static const char *const keys[] = {"p", "dim", "eps"};
  int a = read_args(L, "normalize", 1, keys, 3, 3);
  double p = num_at(L, a, 2, "normalize", "p"), eps = num_at(L, a + 2, 1e-12, "normalize", "eps");
  lt_tensor *x = tensor_at(L, 1, "normalize", "input", 0);
  int dim = ltl_dim_option(L, a + 1, x->ndim, 1, "normalize");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_normalize(x, p, dim, eps, out, &err), &err, "normalize");
}

static int f_cosine_similarity(lua_State *L) {
  static const char *const keys[] = {"dim", "eps"};
  const char *f = "cosine_similarity";
  int a = read_args(L, f, 2, keys, 2, 2);
  double eps = num_at(L, a + 1, 1e-8, f, "eps");
  lt_tensor *x1 = tensor_at(L, 1, f, "x1", 0), *x2 = tensor_at(L, 2, f, "x2", 0);
  int nd = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
  int dim = ltl_dim_option(L, a, nd, 1, f);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_cosine_similarity(x1, x2, dim, eps, out, &err), &err, f);
}

static int f_pairwise_distance(lua_State *L) {
  static const char *const keys[] = {"p", "eps", "keepdim"};
  const char *f = "pairwise_distance";
  int a = read_args(L, f, 2, keys, 3, 3);
  double p = num_at(L, a, 2, f, "p"), eps = num_at(L, a + 1, 1e-6, f, "eps");
  int keepdim = ltl_bool_option(L, a + 2, 0, f, "keepdim");
  lt_tensor *x1 = tensor_at(L, 1, f, "x1", 0), *x2 = tensor_at(L, 2, f, "x2", 0);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_pairwise_distance(x1, x2, p, eps, keepdim, out, &err), &err, f);
}

/* }====== */

/* {====== embedding, one_hot ====== */

static int f_embedding(lua_State *L) {
  static const char *const keys[] = {"padding_idx", "max_norm", "norm_type", "scale_grad_by_freq",
                                     "sparse"};
  const char *f = "embedding";
  int a = read_args(L, f, 2, keys, 5, 5);
  int64_t pad = int_at(L, a, 0, f, "padding_idx");
  double max_norm = num_at(L, a + 1, 0, f, "max_norm"), nt = num_at(L, a + 2, 2, f, "norm_type");
  ltl_bool_option(L, a + 3, 0, f, "scale_grad_by_freq"); /* gradients only */
  ltl_bool_option(L, a + 4, 0, f, "sparse");
  if (!lua_isnil(L, a + 1) && !(max_norm > 0)) ltl_error(L, "%s: max_norm must be positive", f);
  if (!(nt > 0)) ltl_error(L, "%s: norm_type must be positive", f);
  lt_tensor *x = tensor_at(L, 1, f, "input", 0), *w = tensor_at(L, 2, f, "weight", 0);
  int64_t n = w->ndim > 0 ? w->shape[0] : 0;
  if (!lua_isnil(L, a) && (pad == 0 || pad > n || pad < -n)) /* gradients only, checked as torch */
    ltl_error(L, "%s: padding_idx %I must be within num_embeddings %I (1-based)", f,
              (lua_Integer)pad, (lua_Integer)n);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_embedding(x, w, max_norm, nt, out, &err), &err, f);
}

static int f_one_hot(lua_State *L) {
  static const char *const keys[] = {"num_classes"};
  int a = read_args(L, "one_hot", 1, keys, 1, 1);
  int64_t c = int_at(L, a, -1, "one_hot", "num_classes");
  if (c < -1) ltl_error(L, "one_hot: num_classes must be -1 or at least 0, got %I", (lua_Integer)c);
  lt_tensor *x = tensor_at(L, 1, "one_hot", "tensor", 0);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_one_hot(x, c, out, &err), &err, "one_hot");
}

/* }====== */

/* {====== pad, interpolate ====== */

static int f_pad(lua_State *L) {
  static const char *const keys[] = {"mode", "value"};
  static const char *const modes[] = {"constant", "reflect", "replicate", "circular", NULL};
  int a = read_args(L, "pad", 2, keys, 2, 2);
  int mode = ltl_choice_option(L, a, 0, "pad", "mode", modes);
  double value = num_at(L, a + 1, 0, "pad", "value");
  if (mode != LT_PAD_CONSTANT && value != 0)
    ltl_error(L, "pad: mode '%s' takes no value", modes[mode]);
  int64_t pad[2 * LT_MAX_NDIM];
  if (lua_type(L, 2) != LUA_TTABLE)
    ltl_error(L, "pad: pad must be an array of sizes, got %s", luaL_typename(L, 2));
  int npad = ints_at(L, 2, pad, 2 * LT_MAX_NDIM, 0, "pad", "pad");
  lt_tensor *x = tensor_at(L, 1, "pad", "input", 0);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L, lt_nn_pad(x, npad, pad, (lt_pad_mode)mode, value, out, &err), &err, "pad");
}

/* The mode of interpolate (index in modes) as the core's, checking the input's dims. */
static lt_interp_mode interp_mode(lua_State *L, int m, int ndim) {
  static const int need[] = {0, 0, 3, 4, 5, 4, 0};
  static const lt_interp_mode as[] = {LT_INTERP_NEAREST, LT_INTERP_NEAREST_EXACT, LT_INTERP_LINEAR,
                                      LT_INTERP_LINEAR,  LT_INTERP_LINEAR,        LT_INTERP_BICUBIC,
                                      LT_INTERP_AREA};
  static const char *const names[] = {"nearest",   "nearest-exact", "linear", "bilinear",
                                      "trilinear", "bicubic",       "area"};
  if (need[m] && ndim != need[m])
    ltl_error(L, "interpolate: mode '%s' needs a %d-d input, got %d-d", names[m], need[m], ndim);
  return as[m];
}

static int f_interpolate(lua_State *L) {
  static const char *const keys[] = {"size",          "scale_factor",           "mode",
                                     "align_corners", "recompute_scale_factor", "antialias"};
  static const char *const modes[] = {"nearest",   "nearest-exact", "linear", "bilinear",
                                      "trilinear", "bicubic",       "area",   NULL};
  const char *f = "interpolate";
  int a = read_args(L, f, 1, keys, 6, 6);
  int m = ltl_choice_option(L, a + 2, 0, f, "mode", modes);
  int ac = ltl_bool_option(L, a + 3, 0, f, "align_corners");
  int rec = ltl_bool_option(L, a + 4, 0, f, "recompute_scale_factor");
  int aa = ltl_bool_option(L, a + 5, 0, f, "antialias");
  if (aa && m != 3 && m != 5) /* bilinear, bicubic */
    ltl_error(L, "%s: antialias is only supported for the modes bilinear and bicubic", f);
  lt_tensor *x = tensor_at(L, 1, f, "input", 0);
  int k = x->ndim - 2;
  lt_interp_mode mode = interp_mode(L, m, x->ndim);
  if (!lua_isnil(L, a + 3) && mode != LT_INTERP_LINEAR && mode != LT_INTERP_BICUBIC)
    ltl_error(L,
              "%s: align_corners can only be set with the modes linear, bilinear, bicubic "
              "and trilinear",
              f);
  if (lua_isnil(L, a) == lua_isnil(L, a + 1))
    ltl_error(L, "%s: give exactly one of size and scale_factor", f);
  if (!lua_isnil(L, a) && rec)
    ltl_error(L, "%s: recompute_scale_factor is not meaningful with an explicit size", f);
  int64_t size[3];
  double sf[3];
  int n = k < 1 || k > 3    ? k
          : lua_isnil(L, a) ? numbers_at(L, a + 1, sf, 3, k, f, "scale_factor")
                            : ints_at(L, a, size, 3, k, f, "size");
  if (n != k)
    ltl_error(L, "%s: %s has %d sizes for the %d spatial dims of the input (N, C, ...)", f,
              lua_isnil(L, a) ? "scale_factor" : "size", n, k);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  return ltl_result(L,
                    lt_nn_interpolate(x, lua_isnil(L, a) ? NULL : size, lua_isnil(L, a) ? sf : NULL,
                                      mode, ac, rec, aa, out, &err),
                    &err, f);
}

/* }====== */

static const luaL_Reg funcs[] = {
    {"linear", f_linear},
    {"bilinear", f_bilinear},
    {"pad", f_pad},
    {"interpolate", f_interpolate},
    {"batch_norm", f_batch_norm},
    {"layer_norm", f_layer_norm},
    {"group_norm", f_group_norm},
    {"rms_norm", f_rms_norm},
    {"embedding", f_embedding},
    {"dropout", f_dropout},
    {"scaled_dot_product_attention", f_attention},
    {"one_hot", f_one_hot},
    {"normalize", f_normalize},
    {"cosine_similarity", f_cosine_similarity},
    {"pairwise_distance", f_pairwise_distance},
    {NULL, NULL},
};

static void open_nn_norm(lua_State *L, const ltl_tables *at) {
  ltl_space_register(L, at, "nn.functional", funcs);
}

const ltl_part ltl_part_nn_norm = {NULL, NULL, NULL, NULL, open_nn_norm};
