/*
 * lua_linalg_decomp.c -- lt.linalg's decompositions and norms in Lua, with torch.linalg's names,
 * positional order and results: qr, svd, svdvals, eigh, eigvalsh, eig, eigvals, lstsq, pinv,
 * matrix_rank, matrix_norm, vector_norm, norm, cond; and the method t:pinverse (lt.pinverse,
 * torch.pinverse). Several results are several Lua values; dims are 1-based (negative from the
 * end); torch's keyword-only arguments go in a trailing options table (ltl_opts). A vector norm
 * over every element (no dim, keepdim false) is a Lua number, as t:norm() gives.
 *
 * Argument handling only: the computations are the core's (lt_linalg_decomp.h), whose messages
 * name the function. Read only by lua_init.c (ltl_part_linalg_decomp, after ltl_part_spaces,
 * whose table it fills: lua_linalg.h); calls the base (lua_ud.h) and the core.
 */
#include <math.h>
#include <string.h>

#include "lt_linalg_decomp.h"
#include "lua_linalg.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* The string argument arg of fname, one of choices (NULL-terminated), def when none or nil:
   its index. what names it. */
static int check_choice(lua_State *L, int arg, int def, const char *const *choices,
                        const char *fname, const char *what) {
  arg = lua_absindex(L, arg);
  if (lua_isnoneornil(L, arg)) return def;
  const char *s = lua_tostring(L, arg);
  for (int i = 0; s && lua_type(L, arg) == LUA_TSTRING && choices[i]; i++)
    if (strcmp(s, choices[i]) == 0) return i;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; choices[i]; i++) {
    luaL_addstring(&b, i == 0 ? "'" : choices[i + 1] ? ", '" : " or '");
    luaL_addstring(&b, choices[i]);
    luaL_addchar(&b, '\'');
  }
  luaL_pushresult(&b);
  return ltl_error(L, "%s: %s must be %s, got %s", fname, what, lua_tostring(L, -1),
                   lua_type(L, arg) == LUA_TSTRING ? lua_tostring(L, arg) : luaL_typename(L, arg));
}

/* A norm's order at arg: nil (none), a number (math.huge for inf) or, when strings, "fro" or
   "nuc". */
static lt_ord check_ord(lua_State *L, int arg, int strings, const char *fname) {
  lt_ord o = {LT_ORD_NONE, 0};
  if (lua_isnoneornil(L, arg)) return o;
  if (lua_type(L, arg) == LUA_TNUMBER) {
    o.kind = LT_ORD_NUMBER, o.p = lua_tonumber(L, arg);
    if (o.p != o.p) ltl_error(L, "%s: ord must not be nan", fname);
    return o;
  }
  if (strings && lua_type(L, arg) == LUA_TSTRING) {
    const char *s = lua_tostring(L, arg);
    if (strcmp(s, "fro") == 0) return (lt_ord){LT_ORD_FRO, 0};
    if (strcmp(s, "nuc") == 0) return (lt_ord){LT_ORD_NUC, 0};
  }
  ltl_error(L,
            strings ? "%s: ord must be a number, 'fro' or 'nuc', got %s"
                    : "%s: ord must be a number, got %s",
            fname, lua_type(L, arg) == LUA_TSTRING ? lua_tostring(L, arg) : luaL_typename(L, arg));
  return o;
}

/* One 1-based dim (negative from the end) of fname for a tensor of ndim dims, 0-based. */
static int one_dim(lua_State *L, int ok, lua_Integer d, int ndim, const char *fname) {
  lua_Integer n = ndim > 0 ? ndim : 1, d0 = d;
  if (!ok) return ltl_error(L, "%s: dim must be an integer or a table of integers", fname);
  if (d < 0) d += n + 1;
  if (d < 1 || d > n)
    return ltl_error(L, "%s: dim %d out of range for a tensor of %d dims", fname, (int)d0, ndim);
  return (int)d - 1;
}

/* The dims at arg (an integer or a table of them), 0-based, into dims; how many (0: none). */
static int check_dims(lua_State *L, int arg, int ndim, int *dims, const char *fname) {
  int isnum;
  if (lua_isnoneornil(L, arg)) return 0;
  if (lua_type(L, arg) != LUA_TTABLE) {
    lua_Integer d = lua_tointegerx(L, arg, &isnum);
    dims[0] = one_dim(L, isnum, d, ndim, fname);
    return 1;
  }
  lua_Unsigned len = lua_rawlen(L, arg);
  if (len > LT_MAX_NDIM) return ltl_error(L, "%s: too many dims (%d)", fname, (int)len);
  for (int i = 0; i < (int)len; i++) {
    lua_rawgeti(L, arg, i + 1);
    lua_Integer d = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    dims[i] = one_dim(L, isnum, d, ndim, fname);
  }
  return (int)len;
}

/* The number option at idx (a value ltl_opts pushed), NaN when nil. */
static double number_option(lua_State *L, int idx, const char *fname, const char *key) {
  if (lua_isnil(L, idx)) return NAN;
  if (lua_type(L, idx) != LUA_TNUMBER)
    ltl_error(L, "%s: %s must be a number, got %s", fname, key, luaL_typename(L, idx));
  double v = lua_tonumber(L, idx);
  if (v != v) ltl_error(L, "%s: %s must not be nan", fname, key);
  return v;
}

/* The options {atol, rtol, hermitian} of pinv and matrix_rank; the stack cut to the matrix. */
static lt_tolerance check_tolerance(lua_State *L, const char *fname) {
  static const char *const keys[] = {"atol", "rtol", "hermitian"};
  ltl_args(L, 0, 1, 1, fname);
  int last = ltl_opts(L, 2, fname, keys, 3);
  lt_tolerance t;
  t.atol = number_option(L, -3, fname, "atol");
  t.rtol = number_option(L, -2, fname, "rtol");
  t.hermitian = ltl_bool_option(L, -1, 0, fname, "hermitian");
  lua_settop(L, last);
  return t;
}

/* }====== */

/* {====== decompositions ====== */

static int f_qr(lua_State *L) {
  static const char *const modes[] = {"reduced", "complete", "r", NULL};
  ltl_args(L, 0, 2, 0, "linalg.qr");
  lt_tensor *a = ltl_check(L, 1);
  int mode = check_choice(L, 2, 0, modes, "linalg.qr", "mode");
  lt_error err;
  lt_tensor **q = ltl_out(L), **r = ltl_out(L);
  if (lt_linalg_qr(a, (lt_qr_mode)mode, q, r, &err)) return ltl_raise(L, &err);
  return 2;
}

static int f_svd(lua_State *L) {
  static const char *const keys[] = {"full_matrices"};
  static const char fn[] = "linalg.svd";
  ltl_args(L, 0, 2, 1, fn);
  int last = ltl_opts(L, 2, fn, keys, 1);
  int full = ltl_bool_option(L, -1, 1, fn, "full_matrices");
  if (last >= 2 && !lua_isnil(L, 2) && !lua_isnil(L, -1))
    ltl_error(L, "%s: full_matrices given twice", fn);
  if (last >= 2 && !lua_isnil(L, 2)) full = ltl_opt_bool(L, 2, 1, "full_matrices");
  lua_settop(L, last);
  lt_tensor *a = ltl_check(L, 1);
  lt_error err;
  lt_tensor **u = ltl_out(L), **s = ltl_out(L), **vh = ltl_out(L);
  if (lt_linalg_svd(a, full, u, s, vh, fn, &err)) return ltl_raise(L, &err);
  return 3;
}

static int f_svdvals(lua_State *L) {
  ltl_args(L, 0, 1, 0, "linalg.svdvals");
  lt_tensor *a = ltl_check(L, 1);
  lt_error err;
  lt_tensor **s = ltl_out(L);
  if (lt_linalg_svd(a, 0, NULL, s, NULL, "linalg.svdvals", &err)) return ltl_raise(L, &err);
  return 1;
}

/* eigh and eigvalsh: (A, UPLO = "L"). */
static int eigh(lua_State *L, int vectors, const char *fname) {
  static const char *const uplos[] = {"L", "U", NULL};
  ltl_args(L, 0, 2, 0, fname);
  lt_tensor *a = ltl_check(L, 1);
  int upper = check_choice(L, 2, 0, uplos, fname, "UPLO");
  lt_error err;
  lt_tensor **w = ltl_out(L), **v = vectors ? ltl_out(L) : NULL;
  if (lt_linalg_eigh(a, upper, w, v, fname, &err)) return ltl_raise(L, &err);
  return vectors ? 2 : 1;
}
static int f_eigh(lua_State *L) { return eigh(L, 1, "linalg.eigh"); }
static int f_eigvalsh(lua_State *L) { return eigh(L, 0, "linalg.eigvalsh"); }

static int eig(lua_State *L, int vectors, const char *fname) {
  ltl_args(L, 0, 1, 0, fname);
  lt_tensor *a = ltl_check(L, 1);
  lt_error err;
  lt_tensor **w = ltl_out(L), **v = vectors ? ltl_out(L) : NULL;
  if (lt_linalg_eig(a, w, v, fname, &err)) return ltl_raise(L, &err);
  return vectors ? 2 : 1;
}
static int f_eig(lua_State *L) { return eig(L, 1, "linalg.eig"); }
static int f_eigvals(lua_State *L) { return eig(L, 0, "linalg.eigvals"); }

/* lstsq(A, B, rcond, {rcond =, driver =}): solution, residuals, rank, singular values. */
static int f_lstsq(lua_State *L) {
  static const char *const keys[] = {"rcond", "driver"};
  static const char *const drivers[] = {"gels", "gelsy", "gelsd", "gelss", NULL};
  static const char fn[] = "linalg.lstsq";
  ltl_args(L, 0, 3, 1, fn);
  int last = ltl_opts(L, 3, fn, keys, 2);
  double rcond = number_option(L, -2, fn, "rcond");
  int driver = check_choice(L, -1, LT_LSTSQ_GELSY, drivers, fn, "driver");
  if (last >= 3 && !lua_isnil(L, 3) && rcond == rcond) ltl_error(L, "%s: rcond given twice", fn);
  if (last >= 3 && !lua_isnil(L, 3)) {
    lua_pushvalue(L, 3);
    rcond = number_option(L, -1, fn, "rcond");
  }
  lua_settop(L, last);
  lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  lt_tensor **x = ltl_out(L), **res = ltl_out(L), **rank = ltl_out(L), **sv = ltl_out(L);
  if (lt_linalg_lstsq(a, b, rcond, (lt_lstsq_driver)driver, x, res, rank, sv, &err))
    return ltl_raise(L, &err);
  return 4;
}

typedef int tol_fn(const lt_tensor *a, const lt_tolerance *tol, lt_tensor **out, lt_error *err);

/* The result of fn on the matrix argument with the tolerance t. */
static int with_tolerance(lua_State *L, const lt_tolerance *t, tol_fn *fn) {
  lt_tensor *a = ltl_check(L, 1);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  if (fn(a, t, out, &err)) return ltl_raise(L, &err);
  return 1;
}

static int f_pinv(lua_State *L) {
  lt_tolerance t = check_tolerance(L, "linalg.pinv");
  return with_tolerance(L, &t, lt_linalg_pinv);
}

static int f_matrix_rank(lua_State *L) {
  lt_tolerance t = check_tolerance(L, "linalg.matrix_rank");
  return with_tolerance(L, &t, lt_linalg_matrix_rank);
}

/* t:pinverse(rcond = 1e-15): torch.pinverse, linalg.pinv with rtol rcond. */
static int m_pinverse(lua_State *L) {
  ltl_args(L, 1, 1, 0, "pinverse");
  lt_tolerance t = {NAN, 1e-15, 0};
  if (!lua_isnoneornil(L, 2)) {
    t.rtol = luaL_checknumber(L, 2);
    if (t.rtol != t.rtol) ltl_error(L, "pinverse: rcond must not be nan");
  }
  return with_tolerance(L, &t, lt_linalg_pinv);
}

/* }====== */

/* {====== norms ====== */

/* The arguments (A, ord, dim, keepdim, {dtype}) of the norms, past the tensor: the stack cut
   to them. */
typedef struct {
  lt_tensor *a;
  lt_ord ord;
  int dims[LT_MAX_NDIM], ndims, keepdim;
  lt_dtype dt;
} norm_args;

static void check_norm_args(lua_State *L, norm_args *n, int strings, const char *fname) {
  ltl_args(L, 0, 4, 1, fname);
  int last = ltl_dtype_opts(L, 2, fname, &n->dt);
  lua_settop(L, last);
  n->a = ltl_check(L, 1);
  n->ord = check_ord(L, 2, strings, fname);
  n->ndims = check_dims(L, 3, n->a->ndim, n->dims, fname);
  n->keepdim = ltl_opt_bool(L, 4, 0, "keepdim");
}

/* Returns the result on top: a Lua number for a reduction over every element (no dim, keepdim
   false), else the tensor. */
static int norm_result(lua_State *L, const norm_args *n) {
  if (n->ndims == 0 && !n->keepdim) {
    const lt_tensor *r = ltl_check(L, -1);
    ltl_push_element(L, r->dtype, lt_data(r));
  }
  return 1;
}

static int f_vector_norm(lua_State *L) {
  static const char fn[] = "linalg.vector_norm";
  norm_args n;
  check_norm_args(L, &n, 0, fn);
  double ord = n.ord.kind == LT_ORD_NONE ? 2 : n.ord.p;
  lt_error err;
  lt_tensor **out = ltl_out(L);
  if (lt_linalg_vector_norm(n.a, ord, n.dims, n.ndims, n.keepdim, n.dt, out, &err))
    return ltl_raise(L, &err);
  return norm_result(L, &n);
}

static int f_matrix_norm(lua_State *L) {
  static const char fn[] = "linalg.matrix_norm";
  norm_args n;
  check_norm_args(L, &n, 1, fn);
  if (n.ord.kind == LT_ORD_NONE) n.ord.kind = LT_ORD_FRO;
  if (n.ndims == 0) {
    n.ndims = 2;
    n.dims[0] = n.a->ndim - 2, n.dims[1] = n.a->ndim - 1;
  } else if (n.ndims != 2) {
    return ltl_error(L, "%s: dim must be a table of 2 dims, got %d", fn, n.ndims);
  }
  lt_error err;
  lt_tensor **out = ltl_out(L);
  if (lt_linalg_matrix_norm(n.a, n.ord, n.dims[0], n.dims[1], n.keepdim, n.dt, out, &err))
    return ltl_raise(L, &err);
  return 1;
}

static int f_norm(lua_State *L) {
  norm_args n;
  check_norm_args(L, &n, 1, "linalg.norm");
  int whole = n.ndims == 0 && (n.ord.kind == LT_ORD_NONE || n.a->ndim == 1);
  lt_error err;
  lt_tensor **out = ltl_out(L);
  if (lt_linalg_norm(n.a, n.ord, n.dims, n.ndims, n.keepdim, n.dt, out, &err))
    return ltl_raise(L, &err);
  return whole ? norm_result(L, &n) : 1;
}

static int f_cond(lua_State *L) {
  ltl_args(L, 0, 2, 0, "linalg.cond");
  lt_tensor *a = ltl_check(L, 1);
  lt_ord p = check_ord(L, 2, 1, "linalg.cond");
  lt_error err;
  lt_tensor **out = ltl_out(L);
  if (lt_linalg_cond(a, p, out, &err)) return ltl_raise(L, &err);
  return 1;
}

/* }====== */

static const luaL_Reg decomp_funcs[] = {
    {"qr", f_qr},
    {"svd", f_svd},
    {"svdvals", f_svdvals},
    {"eigh", f_eigh},
    {"eigvalsh", f_eigvalsh},
    {"eig", f_eig},
    {"eigvals", f_eigvals},
    {"lstsq", f_lstsq},
    {"pinv", f_pinv},
    {"matrix_rank", f_matrix_rank},
    {"matrix_norm", f_matrix_norm},
    {"vector_norm", f_vector_norm},
    {"norm", f_norm},
    {"cond", f_cond},
    {NULL, NULL},
};

static const luaL_Reg decomp_methods[] = {
    {"pinverse", m_pinverse},
    {NULL, NULL},
};

static void open_decomp(lua_State *L, const ltl_tables *at) {
  static const char *const forms[] = {"pinverse", NULL};
  ltl_linalg_register(L, at, decomp_funcs);
  ltl_module_forms(L, at->methods, at->module, forms);
}

const ltl_part ltl_part_linalg_decomp = {NULL, decomp_methods, NULL, NULL, open_decomp};
