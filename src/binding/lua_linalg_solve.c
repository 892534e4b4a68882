/*
 * lua_linalg_solve.c -- lt.linalg's solving and inverting in Lua: solve, solve_ex,
 * solve_triangular, inv, inv_ex, det, slogdet, cholesky, cholesky_ex, lu, lu_factor,
 * lu_factor_ex, lu_solve, matrix_power; and the methods inverse, det, logdet, slogdet,
 * matrix_power (each also lt.X, as torch.X). Keyword arguments go in a trailing options table
 * ({left = false}, {upper = true}, {check_errors = true}); several results are several values
 * (the _ex forms' info last).
 *
 * Argument handling only: the work is the core's (lt_linalg_solve.h), whose messages name the
 * function already (as torch's LinAlgError does), so they are raised as they are. Read only by
 * lua_init.c (ltl_part_linalg_solve, after ltl_part_spaces, which makes lt.linalg); calls the
 * base (lua_ud.h), lua_linalg.h and the core.
 */
#include "lt_linalg_solve.h"
#include "lua_linalg.h"
#include "lua_ud.h"

/* {====== arguments ====== */

/* The boolean options of a call: keys[i] read into v[i] (defaults there already; -1 marks a
   required one), the stack cut to the positional arguments. */
static void bool_opts(lua_State *L, int first, const char *fname, const char *const *keys, int n,
                      int *v) {
  int last = ltl_opts(L, first, fname, keys, n), top = lua_gettop(L);
  for (int i = 0; i < n; i++) {
    int idx = top - n + 1 + i;
    if (v[i] < 0 && lua_isnil(L, idx))
      ltl_error(L, "%s: the option %s is required (true or false)", fname, keys[i]);
    v[i] = ltl_bool_option(L, idx, v[i], fname, keys[i]);
  }
  lua_settop(L, last);
}

/* The core's failure, raised as it is (it names the function). */
static int check(lua_State *L, int rc, const lt_error *err) {
  if (rc) ltl_raise(L, err);
  return rc;
}

/* }====== */

/* {====== inv, det ====== */

static int inv_common(lua_State *L, int self, int ex, const char *fname) {
  static const char *const keys[] = {"check_errors"};
  ltl_args(L, self, 1 - self, ex, fname);
  int v[1] = {0};
  if (ex) bool_opts(L, 2, fname, keys, 1, v);
  const lt_tensor *a = ltl_check(L, 1);
  lt_tensor **x = ltl_out(L), **info = ex ? ltl_out(L) : NULL;
  lt_error err;
  check(L, lt_linalg_inv(a, fname, !ex || v[0], x, info, &err), &err);
  return ex ? 2 : 1;
}
static int f_inv(lua_State *L) { return inv_common(L, 0, 0, "linalg.inv"); }
static int f_inv_ex(lua_State *L) { return inv_common(L, 0, 1, "linalg.inv_ex"); }
static int m_inverse(lua_State *L) { return inv_common(L, 1, 0, "inverse"); }

static int det_common(lua_State *L, int self, lt_det_kind kind, const char *fname) {
  ltl_args(L, self, 1 - self, 0, fname);
  const lt_tensor *a = ltl_check(L, 1);
  lt_tensor **o1 = ltl_out(L), **o2 = kind == LT_SLOGDET ? ltl_out(L) : NULL;
  lt_error err;
  check(L, lt_linalg_det(a, fname, kind, o1, o2, &err), &err);
  return o2 ? 2 : 1;
}
static int f_det(lua_State *L) { return det_common(L, 0, LT_DET, "linalg.det"); }
static int f_slogdet(lua_State *L) { return det_common(L, 0, LT_SLOGDET, "linalg.slogdet"); }
static int m_det(lua_State *L) { return det_common(L, 1, LT_DET, "det"); }
static int m_slogdet(lua_State *L) { return det_common(L, 1, LT_SLOGDET, "slogdet"); }
static int m_logdet(lua_State *L) { return det_common(L, 1, LT_LOGDET, "logdet"); }

static int power_common(lua_State *L, int self, const char *fname) {
  ltl_args(L, self, 2 - self, 0, fname);
  const lt_tensor *a = ltl_check(L, 1);
  lua_Integer n = ltl_check_int(L, 2, "n");
  lt_error err;
  check(L, lt_linalg_matrix_power(a, n, fname, ltl_out(L), &err), &err);
  return 1;
}
static int f_matrix_power(lua_State *L) { return power_common(L, 0, "linalg.matrix_power"); }
static int m_matrix_power(lua_State *L) { return power_common(L, 1, "matrix_power"); }

/* }====== */

/* {====== solve ====== */

static int solve_common(lua_State *L, int ex, const char *fname) {
  static const char *const keys[] = {"left", "check_errors"};
  ltl_args(L, 0, 2, 1, fname);
  int v[2] = {1, 0};
  bool_opts(L, 3, fname, keys, ex ? 2 : 1, v);
  const lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_tensor **x = ltl_out(L), **info = ex ? ltl_out(L) : NULL;
  lt_error err;
  check(L, lt_linalg_solve(a, b, v[0], fname, !ex || v[1], x, info, &err), &err);
  return ex ? 2 : 1;
}
static int f_solve(lua_State *L) { return solve_common(L, 0, "linalg.solve"); }
static int f_solve_ex(lua_State *L) { return solve_common(L, 1, "linalg.solve_ex"); }

static int f_solve_triangular(lua_State *L) {
  static const char *const keys[] = {"upper", "left", "unitriangular"};
  const char *fname = "linalg.solve_triangular";
  ltl_args(L, 0, 2, 1, fname);
  int v[3] = {-1, 1, 0};
  bool_opts(L, 3, fname, keys, 3, v);
  const lt_tensor *a = ltl_check(L, 1), *b = ltl_check(L, 2);
  lt_error err;
  check(L, lt_linalg_solve_triangular(a, b, v[0], v[1], v[2], ltl_out(L), &err), &err);
  return 1;
}

static int cholesky_common(lua_State *L, int ex, const char *fname) {
  static const char *const keys[] = {"upper", "check_errors"};
  ltl_args(L, 0, 1, 1, fname);
  int v[2] = {0, 0};
  bool_opts(L, 2, fname, keys, ex ? 2 : 1, v);
  const lt_tensor *a = ltl_check(L, 1);
  lt_tensor **l = ltl_out(L), **info = ex ? ltl_out(L) : NULL;
  lt_error err;
  check(L, lt_linalg_cholesky(a, v[0], !ex || v[1], l, info, &err), &err);
  return ex ? 2 : 1;
}
static int f_cholesky(lua_State *L) { return cholesky_common(L, 0, "linalg.cholesky"); }
static int f_cholesky_ex(lua_State *L) { return cholesky_common(L, 1, "linalg.cholesky_ex"); }

/* }====== */

/* {====== LU ====== */

static int lu_factor_common(lua_State *L, int ex, const char *fname) {
  static const char *const keys[] = {"pivot", "check_errors"};
  ltl_args(L, 0, 1, 1, fname);
  int v[2] = {1, 0};
  bool_opts(L, 2, fname, keys, ex ? 2 : 1, v);
  const lt_tensor *a = ltl_check(L, 1);
  lt_tensor **lu = ltl_out(L), **piv = ltl_out(L), **info = ex ? ltl_out(L) : NULL;
  lt_error err;
  check(L, lt_linalg_lu_factor(a, v[0], !ex || v[1], lu, piv, info, &err), &err);
  return ex ? 3 : 2;
}
static int f_lu_factor(lua_State *L) { return lu_factor_common(L, 0, "linalg.lu_factor"); }
static int f_lu_factor_ex(lua_State *L) { return lu_factor_common(L, 1, "linalg.lu_factor_ex"); }

static int f_lu(lua_State *L) {
  static const char *const keys[] = {"pivot"};
  ltl_args(L, 0, 1, 1, "linalg.lu");
  int v[1] = {1};
  bool_opts(L, 2, "linalg.lu", keys, 1, v);
  const lt_tensor *a = ltl_check(L, 1);
  lt_tensor **p = ltl_out(L), **l = ltl_out(L), **u = ltl_out(L);
  lt_error err;
  check(L, lt_linalg_lu(a, v[0], p, l, u, &err), &err);
  return 3;
}

static int f_lu_solve(lua_State *L) {
  static const char *const keys[] = {"left", "adjoint"};
  ltl_args(L, 0, 3, 1, "linalg.lu_solve");
  int v[2] = {1, 0};
  bool_opts(L, 4, "linalg.lu_solve", keys, 2, v);
  const lt_tensor *lu = ltl_check(L, 1), *piv = ltl_check(L, 2), *b = ltl_check(L, 3);
  lt_error err;
  check(L, lt_linalg_lu_solve(lu, piv, b, v[0], v[1], ltl_out(L), &err), &err);
  return 1;
}

/* }====== */

static const luaL_Reg solve_funcs[] = {
    {"solve", f_solve},
    {"solve_ex", f_solve_ex},
    {"solve_triangular", f_solve_triangular},
    {"inv", f_inv},
    {"inv_ex", f_inv_ex},
    {"det", f_det},
    {"slogdet", f_slogdet},
    {"cholesky", f_cholesky},
    {"cholesky_ex", f_cholesky_ex},
    {"lu", f_lu},
    {"lu_factor", f_lu_factor},
    {"lu_factor_ex", f_lu_factor_ex},
    {"lu_solve", f_lu_solve},
    {"matrix_power", f_matrix_power},
    {NULL, NULL},
};

/* torch's Tensor methods of the same family (each also lt.X, as torch.X). */
static const luaL_Reg solve_methods[] = {
    {"inverse", m_inverse},           {"det", m_det}, {"logdet", m_logdet}, {"slogdet", m_slogdet},
    {"matrix_power", m_matrix_power}, {NULL, NULL},
};

static const char *const solve_forms[] = {"inverse", "det",          "logdet",
                                          "slogdet", "matrix_power", NULL};

static void open_solve(lua_State *L, const ltl_tables *at) {
  ltl_linalg_register(L, at, solve_funcs);
  ltl_module_forms(L, at->methods, at->module, solve_forms);
}

const ltl_part ltl_part_linalg_solve = {NULL, solve_methods, NULL, NULL, open_solve};
