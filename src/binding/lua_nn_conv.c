/*
 * lua_nn_conv.c -- the convolutions and pools of lt.nn.functional: conv1d/2d/3d,
 * conv_transpose1d/2d, max_pool1d/2d, avg_pool1d/2d, adaptive_avg_pool1d/2d,
 * adaptive_max_pool1d/2d, unfold and fold, with torch.nn.functional's positional order; every
 * optional argument may also come in a trailing options table under torch's keyword name
 * (`F.conv2d(x, w, nil, {stride = 2, padding = "same"})`), but not both ways. Size arguments
 * (kernel_size, stride, padding, ...) are a number or an array of one per spatial dim. Pools
 * asked for return_indices return the values and the 1-based indices as two results. Every
 * computation is the core's (lt_nn_conv.h, lt_nn_pool.h). Read only by lua_init.c
 * (ltl_part_nn_conv); calls the base (lua_ud.h), lua_spaces.c and the core.
 */
#include <string.h>

#include "lt_nn_conv.h"
#include "lt_nn_pool.h"
#include "lua_parts.h"
#include "lua_spaces.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* A call's arguments after ltl_args and ltl_opts: positional ones up to last, the options'
   values from opt on (keys[i] at opt + i). */
typedef struct {
  const char *fname;
  const char *const *keys;
  int last, opt;
} call;

/* Reads the options of fname (keys, nkeys; the options table may follow argument first - 1)
   after ltl_args allowed most positional arguments. */
static call begin(lua_State *L, const char *fname, int most, int first, const char *const *keys,
                  int nkeys) {
  call c = {fname, keys, 0, 0};
  ltl_args(L, 0, most, 1, fname);
  c.last = ltl_opts(L, first, fname, keys, nkeys);
  c.opt = lua_gettop(L) - nkeys + 1;
  return c;
}

/* The stack index of argument `pos`, which is also option keys[k]: 0 when neither was given;
   raises when both were. */
static int at(lua_State *L, const call *c, int pos, int k) {
  int p = pos <= c->last && !lua_isnil(L, pos), o = !lua_isnil(L, c->opt + k);
  if (p && o)
    ltl_error(L, "%s: %s given twice (as argument %d and as an option)", c->fname, c->keys[k], pos);
  return p ? pos : o ? c->opt + k : 0;
}

/* A size argument at idx (0: absent, def for each): an integer, or an array of n integers.
   Returns 1 when given. */
static int sizes(lua_State *L, const call *c, int idx, int n, int64_t def, int64_t *v,
                 const char *what) {
  for (int i = 0; i < n; i++) v[i] = def;
  if (!idx) return 0;
  if (lua_type(L, idx) == LUA_TNUMBER) {
    int isint;
    lua_Integer x = lua_tointegerx(L, idx, &isint);
    if (!isint)
      ltl_error(L, "%s: %s must be an integer, got %f", c->fname, what, lua_tonumber(L, idx));
    for (int i = 0; i < n; i++) v[i] = x;
    return 1;
  }
  if (lua_type(L, idx) != LUA_TTABLE || luaL_len(L, idx) != n)
    ltl_error(L, "%s: %s must be an integer or an array of %d integers", c->fname, what, n);
  for (int i = 0; i < n; i++) {
    int isint;
    lua_geti(L, idx, i + 1);
    v[i] = lua_tointegerx(L, -1, &isint);
    isint = isint && lua_type(L, -1) == LUA_TNUMBER; /* not a numeric string */
    lua_pop(L, 1);
    if (!isint)
      ltl_error(L, "%s: %s must be an integer or an array of %d integers", c->fname, what, n);
  }
  return 1;
}

/* An integer argument at idx (0: def). */
static int64_t integer(lua_State *L, const call *c, int idx, int64_t def, const char *what) {
  int isint;
  if (!idx) return def;
  lua_Integer v = lua_tointegerx(L, idx, &isint);
  if (!isint || lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: %s must be an integer, got %s", c->fname, what, luaL_typename(L, idx));
  return v;
}

/* A boolean argument at idx (0: def). */
static int boolean(lua_State *L, const call *c, int idx, int def, const char *what) {
  if (!idx) return def;
  if (!lua_isboolean(L, idx))
    ltl_error(L, "%s: %s must be a boolean, got %s", c->fname, what, luaL_typename(L, idx));
  return lua_toboolean(L, idx);
}

/* A tensor argument at idx (0: NULL when optional, else raises). */
static lt_tensor *tensor(lua_State *L, const call *c, int idx, int optional, const char *what) {
  if (!idx && optional) return NULL;
  if (!idx || !ltl_testud(L, idx))
    ltl_error(L, "%s: %s must be a tensor, got %s", c->fname, what,
              idx ? luaL_typename(L, idx) : "no value");
  return ltl_check(L, idx);
}

/* What a call whose core function returned rc returns: its nres results (pushed by ltl_out
   before the call), or raises. */
static int results(lua_State *L, const call *c, int rc, const lt_error *err, int nres) {
  if (rc) return ltl_fail(L, c->fname, err);
  return nres;
}

/* }====== */

/* {====== convolutions ====== */

/* conv{nsp}d(input, weight, bias, stride, padding, dilation, groups) and
   conv_transpose{nsp}d(input, weight, bias, stride, padding, output_padding, groups,
   dilation). */
static int conv_of(lua_State *L, int nsp, int transposed, const char *fname) {
  static const char *const ckeys[] = {"bias", "stride", "padding", "dilation", "groups"};
  static const char *const tkeys[] = {"bias",           "stride", "padding",
                                      "output_padding", "groups", "dilation"};
  call c = transposed ? begin(L, fname, 8, 3, tkeys, 6) : begin(L, fname, 7, 3, ckeys, 5);
  lt_conv_args a = {.nsp = nsp};
  int pi = at(L, &c, 5, 2);
  sizes(L, &c, at(L, &c, 4, 1), nsp, 1, a.stride, "stride");
  if (!transposed && pi && lua_type(L, pi) == LUA_TSTRING) {
    const char *p = lua_tostring(L, pi);
    if (strcmp(p, "same") && strcmp(p, "valid"))
      ltl_error(L, "%s: padding must be 'same', 'valid', an integer or an array, got '%s'", fname,
                p);
    a.same = p[0] == 's';
    pi = 0;
  }
  sizes(L, &c, pi, nsp, 0, a.padding, "padding");
  if (transposed) {
    sizes(L, &c, at(L, &c, 6, 3), nsp, 0, a.output_padding, "output_padding");
    a.groups = integer(L, &c, at(L, &c, 7, 4), 1, "groups");
    sizes(L, &c, at(L, &c, 8, 5), nsp, 1, a.dilation, "dilation");
  } else {
    sizes(L, &c, at(L, &c, 6, 3), nsp, 1, a.dilation, "dilation");
    a.groups = integer(L, &c, at(L, &c, 7, 4), 1, "groups");
  }
  lt_tensor *x = tensor(L, &c, 1, 0, "input"), *w = tensor(L, &c, 2, 0, "weight");
  lt_tensor *b = tensor(L, &c, at(L, &c, 3, 0), 1, "bias"), **res = ltl_out(L);
  lt_error err;
  int rc = transposed ? lt_conv_transpose(x, w, b, &a, res, &err) : lt_conv(x, w, b, &a, res, &err);
  return results(L, &c, rc, &err, 1);
}
static int f_conv1d(lua_State *L) { return conv_of(L, 1, 0, "conv1d"); }
static int f_conv2d(lua_State *L) { return conv_of(L, 2, 0, "conv2d"); }
static int f_conv3d(lua_State *L) { return conv_of(L, 3, 0, "conv3d"); }
static int f_conv_transpose1d(lua_State *L) { return conv_of(L, 1, 1, "conv_transpose1d"); }
static int f_conv_transpose2d(lua_State *L) { return conv_of(L, 2, 1, "conv_transpose2d"); }

/* unfold(input, kernel_size, dilation, padding, stride) and fold(input, output_size,
   kernel_size, dilation, padding, stride). */
static int fold_of(lua_State *L, int back, const char *fname) {
  static const char *const ukeys[] = {"kernel_size", "dilation", "padding", "stride"};
  static const char *const fkeys[] = {"output_size", "kernel_size", "dilation", "padding",
                                      "stride"};
  call c = back ? begin(L, fname, 6, 2, fkeys, 5) : begin(L, fname, 5, 2, ukeys, 4);
  int64_t os[2], k[2], d[2], p[2], s[2];
  int o = back; /* the positions after output_size move one on */
  if (back && !sizes(L, &c, at(L, &c, 2, 0), 2, 1, os, "output_size"))
    ltl_error(L, "%s: output_size is required", fname);
  if (!sizes(L, &c, at(L, &c, 2 + o, o), 2, 1, k, "kernel_size"))
    ltl_error(L, "%s: kernel_size is required", fname);
  sizes(L, &c, at(L, &c, 3 + o, 1 + o), 2, 1, d, "dilation");
  sizes(L, &c, at(L, &c, 4 + o, 2 + o), 2, 0, p, "padding");
  sizes(L, &c, at(L, &c, 5 + o, 3 + o), 2, 1, s, "stride");
  lt_tensor *x = tensor(L, &c, 1, 0, "input"), **res = ltl_out(L);
  lt_error err;
  int rc = back ? lt_fold(x, os, k, d, p, s, res, &err) : lt_unfold(x, k, d, p, s, res, &err);
  return results(L, &c, rc, &err, 1);
}
static int f_unfold(lua_State *L) { return fold_of(L, 0, "unfold"); }
static int f_fold(lua_State *L) { return fold_of(L, 1, "fold"); }

/* }====== */

/* {====== pools ====== */

/* The arguments 2 to 4 of a pool (options 0 to 2): kernel_size (required), stride (default
   kernel_size), padding. */
static void window_args(lua_State *L, const call *c, lt_pool_args *a) {
  if (!sizes(L, c, at(L, c, 2, 0), a->nsp, 1, a->kernel, "kernel_size"))
    ltl_error(L, "%s: kernel_size is required", c->fname);
  if (!sizes(L, c, at(L, c, 3, 1), a->nsp, 1, a->stride, "stride"))
    memcpy(a->stride, a->kernel, sizeof a->stride);
  sizes(L, c, at(L, c, 4, 2), a->nsp, 0, a->padding, "padding");
}

/* max_pool{nsp}d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices). */
static int max_pool_of(lua_State *L, int nsp, const char *fname) {
  static const char *const keys[] = {"kernel_size", "stride",    "padding",
                                     "dilation",    "ceil_mode", "return_indices"};
  call c = begin(L, fname, 7, 2, keys, 6);
  lt_pool_args a = {.nsp = nsp};
  window_args(L, &c, &a);
  sizes(L, &c, at(L, &c, 5, 3), nsp, 1, a.dilation, "dilation");
  a.ceil_mode = boolean(L, &c, at(L, &c, 6, 4), 0, "ceil_mode");
  int ri = boolean(L, &c, at(L, &c, 7, 5), 0, "return_indices");
  lt_tensor *x = tensor(L, &c, 1, 0, "input"), **res = ltl_out(L), **ix = ri ? ltl_out(L) : NULL;
  lt_error err;
  int rc = lt_max_pool(x, &a, res, ix, &err);
  return results(L, &c, rc, &err, 1 + ri);
}
static int f_max_pool1d(lua_State *L) { return max_pool_of(L, 1, "max_pool1d"); }
static int f_max_pool2d(lua_State *L) { return max_pool_of(L, 2, "max_pool2d"); }

/* avg_pool{nsp}d(input, kernel_size, stride, padding, ceil_mode, count_include_pad
   [, divisor_override: 2-d only]). */
static int avg_pool_of(lua_State *L, int nsp, const char *fname) {
  static const char *const keys[] = {"kernel_size",       "stride",          "padding", "ceil_mode",
                                     "count_include_pad", "divisor_override"};
  call c = begin(L, fname, nsp == 2 ? 7 : 6, 2, keys, nsp == 2 ? 6 : 5);
  lt_pool_args a = {.nsp = nsp};
  window_args(L, &c, &a);
  a.ceil_mode = boolean(L, &c, at(L, &c, 5, 3), 0, "ceil_mode");
  a.count_include_pad = boolean(L, &c, at(L, &c, 6, 4), 1, "count_include_pad");
  if (nsp == 2) {
    int di = at(L, &c, 7, 5);
    a.divisor_override = integer(L, &c, di, 0, "divisor_override");
    if (di && a.divisor_override < 1)
      ltl_error(L, "%s: divisor_override must be positive, got %d", fname, (int)a.divisor_override);
  }
  lt_tensor *x = tensor(L, &c, 1, 0, "input"), **res = ltl_out(L);
  lt_error err;
  int rc = lt_avg_pool(x, &a, res, &err);
  return results(L, &c, rc, &err, 1);
}
static int f_avg_pool1d(lua_State *L) { return avg_pool_of(L, 1, "avg_pool1d"); }
static int f_avg_pool2d(lua_State *L) { return avg_pool_of(L, 2, "avg_pool2d"); }

/* adaptive_{avg,max}_pool{nsp}d(input, output_size [, return_indices: max only]). */
static int adaptive_of(lua_State *L, int max, int nsp, const char *fname) {
  static const char *const keys[] = {"output_size", "return_indices"};
  call c = begin(L, fname, max ? 3 : 2, 2, keys, max ? 2 : 1);
  int64_t os[2];
  if (!sizes(L, &c, at(L, &c, 2, 0), nsp, 1, os, "output_size"))
    ltl_error(L, "%s: output_size is required", fname);
  int ri = max && boolean(L, &c, at(L, &c, 3, 1), 0, "return_indices");
  lt_tensor *x = tensor(L, &c, 1, 0, "input"), **res = ltl_out(L), **ix = ri ? ltl_out(L) : NULL;
  lt_error err;
  int rc = lt_adaptive_pool(max, x, nsp, os, res, ix, &err);
  return results(L, &c, rc, &err, 1 + ri);
}
static int f_adaptive_avg_pool1d(lua_State *L) {
  return adaptive_of(L, 0, 1, "adaptive_avg_pool1d");
}
static int f_adaptive_avg_pool2d(lua_State *L) {
  return adaptive_of(L, 0, 2, "adaptive_avg_pool2d");
}
static int f_adaptive_max_pool1d(lua_State *L) {
  return adaptive_of(L, 1, 1, "adaptive_max_pool1d");
}
static int f_adaptive_max_pool2d(lua_State *L) {
  return adaptive_of(L, 1, 2, "adaptive_max_pool2d");
}

/* }====== */

static void open_nn_conv(lua_State *L, const ltl_tables *tables) {
  static const luaL_Reg funcs[] = {{"conv1d", f_conv1d},
                                   {"conv2d", f_conv2d},
                                   {"conv3d", f_conv3d},
                                   {"conv_transpose1d", f_conv_transpose1d},
                                   {"conv_transpose2d", f_conv_transpose2d},
                                   {"unfold", f_unfold},
                                   {"fold", f_fold},
                                   {"max_pool1d", f_max_pool1d},
                                   {"max_pool2d", f_max_pool2d},
                                   {"avg_pool1d", f_avg_pool1d},
                                   {"avg_pool2d", f_avg_pool2d},
                                   {"adaptive_avg_pool1d", f_adaptive_avg_pool1d},
                                   {"adaptive_avg_pool2d", f_adaptive_avg_pool2d},
                                   {"adaptive_max_pool1d", f_adaptive_max_pool1d},
                                   {"adaptive_max_pool2d", f_adaptive_max_pool2d},
                                   {NULL, NULL}};
  ltl_space_register(L, tables, "nn.functional", funcs);
}

const ltl_part ltl_part_nn_conv = {NULL, NULL, NULL, NULL, open_nn_conv};
