/*
 * test_math.c -- every row of the two tables against a reference, for every dtype it takes and
 * refusing every other: the elementwise functions (lt_funcs.h; the reference is the row's
 * LT_REF expression of lt_funcs_table.h, evaluated in double, or in double complex) over
 * contiguous, transposed, reversed and broadcast operands, in place, and large enough for the
 * streaming kernels; and the reductions (lt_reduce.h; a naive reference by the row's fold and
 * finish) over every layout, dim and keepdim. The loops run to LT_NFUNCS and LT_NREDOPS: a row
 * added to a table is tested here without a change. Hand-made cases: test_reduce.c,
 * math_spec.lua, funcs_spec.lua.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_funcs.h"
#include "lt_reduce.h"
#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"
#include "test_values.h"

#include <complex.h> /* last: it defines I */

static const lt_dtype all_dtypes[] = {LT_BOOL,    LT_UINT8,     LT_INT8,      LT_INT16,
                                      LT_INT32,   LT_INT64,     LT_UINT16,    LT_UINT32,
                                      LT_UINT64,  LT_FLOAT16,   LT_BFLOAT16,  LT_FLOAT32,
                                      LT_FLOAT64, LT_COMPLEX64, LT_COMPLEX128};
#define NDT ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

/* {====== comparing ====== */

/* An elementwise result against its reference, within a relative tolerance by dtype (looser
   than close_to's: float32 has the vectorized kernels' few ulp, float16 subnormals 6e-8 apart). */
static int ew_close(double got, double want, lt_dtype dt) {
  double rel = dt == LT_FLOAT16 ? 4e-3 : dt == LT_BFLOAT16 ? 1.6e-2 : tol(dt) * 10;
  double floor = dt == LT_FLOAT16 ? 1e-4 : 1e-6;
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  return fabs(got - want) <= rel * (fabs(want) > floor ? fabs(want) : floor);
}

/* v as an element of the integer dtype dt holds it (wrapping), read back as geti would. */
static int64_t wrapped(lt_dtype dt, int64_t v) {
  lt_c128 buf;
  lt_scalar s = {LT_SK_INT, {.i = v}, 0};
  (void)lt_store_wrap(dt, &buf, &s);
  lt_load(dt, (const char *)&buf, &s);
  return s.kind == LT_SK_UINT ? (int64_t)s.v.u : s.v.i;
}

/* }====== */

/* {====== elementwise: the references of the table ====== */

typedef enum { D_NONE, D_ANY, D_POS, D_UNIT, D_GE1, D_SMALL, D_NZ, D_SPEC } domain;

typedef struct {
  domain dx, dy;
  double (*ref)(double x, double y, int B);
  double complex (*refc)(double complex x, double complex y);
} func_ref;

#define LT_REF(E, DX, DY, expr)                      \
  static double ref_##E(double x, double y, int B) { \
    (void)x;                                         \
    (void)y;                                         \
    (void)B;                                         \
    return (double)(expr);                           \
  }
#define LT_REFC(E, expr)                                               \
  static double complex refc_##E(double complex x, double complex y) { \
    (void)x;                                                           \
    (void)y;                                                           \
    return (expr);                                                     \
  }
#include "lt_funcs_table.h"

static const func_ref refs[LT_NFUNCS] = {
#define LT_REF(E, DX, DY, expr) [LT_##E].dx = D_##DX, [LT_##E].dy = D_##DY, [LT_##E].ref = ref_##E,
#define LT_REFC(E, expr) [LT_##E].refc = refc_##E,
#include "lt_funcs_table.h"
};

/* The value k of domain d for dtype dt (the imaginary part of a complex one: im). */
static double domain_value(domain d, lt_dtype dt, int64_t k, double *im) {
  const lt_dtype_info *di = &lt_dtypes[dt];
  int fl = di->is_float || di->is_complex, sgn = fl || di->is_signed, b = dt == LT_BOOL;
  int64_t r = (k * 7) % 11;
  *im = di->is_complex ? (double)((k * 3) % 5) * 0.5 - 1 : 0;
  switch (d) {
    case D_POS: return b ? 1 : fl ? 0.25 + (double)r * 0.75 : 1 + (double)r;
    case D_UNIT:
      return b     ? (double)(k % 2)
             : fl  ? (double)(r - 5) / 6.0
             : sgn ? (double)(k % 3 - 1)
                   : (double)(k % 2);
    case D_GE1: return b ? 1 : fl ? 1 + (double)r * 0.5 : 1 + (double)r;
    case D_SMALL: return b ? (double)(k % 2) : (double)((k * 3) % 5);
    case D_NZ: {
      int64_t q = (k * 5) % 9 - 4;
      if (b) return 1;
      if (!sgn) return 1 + (double)((k * 5) % 9);
      if (q == 0) q = 3;
      return fl ? (double)q * 0.5 : (double)q;
    }
    case D_SPEC:
      if (fl && k % 5 == 1) return NAN;
      if (fl && k % 5 == 2) return INFINITY;
      if (fl && k % 5 == 3) return -INFINITY;
      /* fall through */
    default:
      return b     ? (double)(k % 3 != 0)
             : fl  ? (double)(r - 5) * 0.75 + 0.125
             : sgn ? (double)(r - 5)
                   : (double)r;
  }
}

/* A tensor of dtype dt and shape {2, 3} in a layout (0 contiguous, 1 transposed, 2 reversed),
   element k (row-major) the value k + phase of domain d. */
static lt_tensor *operand(lt_dtype dt, domain d, int lay, int phase) {
  lt_tensor *t = NULL;
  if (lay == 1) {
    lt_tensor *c = make(dt, 2, A(3, 2));
    CHECK_OK(lt_transpose(c, 0, 1, &t, &err));
    lt_tensor_free(c);
  } else if (lay == 2) {
    lt_tensor *c = make(dt, 2, A(2, 3)), *w = NULL;
    CHECK_OK(lt_slice(c, 0, 1, 2, -1, &w, &err));
    CHECK_OK(lt_slice(w, 1, 2, 3, -1, &t, &err));
    lt_tensor_free(c);
    lt_tensor_free(w);
  } else {
    t = make(dt, 2, A(2, 3));
  }
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do {
    double im, re = domain_value(d, dt, k++ + phase, &im);
    setc(t, idx, re, im);
  } while (next_index(t->ndim, t->shape, idx));
  return t;
}

/* The dtype a row's result has, and the one it computes in, for operands of dtype p (torch's
   rules, as lt_funcs.h states them). */
static lt_dtype result_of(lt_rule rule, lt_dtype p) {
  int intlike = !lt_dtypes[p].is_float && !lt_dtypes[p].is_complex;
  switch (rule) {
    case LT_RULE_FLOAT: return intlike ? LT_FLOAT32 : p;
    case LT_RULE_POW: return p == LT_BOOL ? LT_INT64 : p;
    case LT_RULE_REAL: return p == LT_COMPLEX64 ? LT_FLOAT32 : p == LT_COMPLEX128 ? LT_FLOAT64 : p;
    case LT_RULE_BOOL:
    case LT_RULE_LOGICAL: return LT_BOOL;
    default: return p;
  }
}
static lt_dtype computed_in(lt_rule rule, lt_dtype p) {
  if (rule == LT_RULE_LOGICAL) return LT_BOOL;
  lt_dtype c = rule == LT_RULE_BOOL || rule == LT_RULE_REAL ? p : result_of(rule, p);
  return c == LT_FLOAT16 || c == LT_BFLOAT16 ? LT_FLOAT32 : c;
}

/* Element k of o against the reference of row f at (x[k], y[k]) (complex: xi, yi). */
static void check_value(lt_func f, lt_dtype in, const lt_tensor *o, int64_t k, double x, double xi,
                        double y, double yi, const char *what) {
  const func_ref *r = &refs[f];
  lt_dtype od = o->dtype;
  int64_t idx[LT_MAX_NDIM], kk = k;
  for (int d = o->ndim - 1; d >= 0; d--) {
    idx[d] = kk % o->shape[d];
    kk /= o->shape[d];
  }
  if (lt_dtypes[in].is_complex) {
    CHECKF(r->refc, "%s: no complex reference (LT_REFC) for a row that takes complex", what);
    if (!r->refc) return;
    double complex w = r->refc(CMPLX(x, xi), CMPLX(y, yi));
    double gi, g = get(o, idx, &gi);
    if (od == LT_BOOL) {
      CHECKF((g != 0) == (creal(w) != 0), "%s: element %lld is %g, expected %g", what, (long long)k,
             g, creal(w));
    } else {
      CHECKF(ew_close(g, creal(w), od) && ew_close(gi, lt_dtypes[od].is_complex ? cimag(w) : 0, od),
             "%s: element %lld is %g%+gi, expected %g%+gi", what, (long long)k, g, gi, creal(w),
             cimag(w));
    }
    return;
  }
  double want = r->ref(x, y, in == LT_BOOL);
  if (od == LT_BOOL) {
    double g = get(o, idx, NULL);
    CHECKF((g != 0) == (want != 0), "%s: element %lld (%g, %g) is %g, expected %g", what,
           (long long)k, x, y, g, want);
  } else if (!lt_dtypes[od].is_float) {
    int64_t g = geti(o, idx), w = wrapped(od, (int64_t)want);
    CHECKF(g == w, "%s: element %lld (%g, %g) is %lld, expected %lld", what, (long long)k, x, y,
           (long long)g, (long long)w);
  } else {
    double g = get(o, idx, NULL);
    CHECKF(ew_close(g, want, od), "%s: element %lld (%g, %g) is %.9g, expected %.9g", what,
           (long long)k, x, y, g, want);
  }
}

/* Row f on operands x (and y) of dtype dt against the reference, or its refusal. */
static void check_call(lt_func f, lt_dtype dt, const lt_tensor *x, const lt_tensor *y,
                       lt_tensor *inplace, const char *what) {
  const lt_func_row *row = &lt_funcs[f];
  lt_dtype rt = result_of(row->rule, dt), ct = computed_in(row->rule, dt);
  lt_operand ox = {x, {LT_SK_INT, {0}, 0}, 0}, oy = {y, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *o = NULL;
  err.msg[0] = 0;
  int rc =
      row->nin == 1 ? lt_unary(f, x, inplace, &o, &err) : lt_binary(f, &ox, &oy, inplace, &o, &err);
  if (!row->k[ct]) {
    char want[64];
    snprintf(want, sizeof want, "not supported for %s", lt_dtypes[dt].name);
    CHECKF(rc != LT_OK && strstr(err.msg, want), "%s: expected a refusal, got \"%s\"", what,
           err.msg);
    if (rc == LT_OK && o != inplace) lt_tensor_free(o);
    return;
  }
  CHECKF(rc == LT_OK, "%s: %s", what, err.msg);
  if (rc) return;
  CHECKF(o->dtype == (inplace ? inplace->dtype : rt) && o->ndim == 2 && o->shape[0] == 2 &&
             o->shape[1] == 3,
         "%s: got %s with %d dims, expected %s", what, lt_dtypes[o->dtype].name, o->ndim,
         lt_dtypes[rt].name);
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do {
    double xi, yi = 0, xv = get(x, idx, &xi), yv = 0;
    if (y) yv = get(y, y->ndim ? idx : NULL, &yi);
    if (y && y->ndim == 1) yv = get(y, idx + 1, &yi);
    check_value(f, dt, o, k++, xv, xi, yv, yi, what);
  } while (next_index(x->ndim, x->shape, idx));
  if (o != inplace) lt_tensor_free(o);
}

/* A large contiguous run of row f in float dtype dt: the streaming kernel (the threshold is set
   low in main) and the pool's threads, element by element against the reference. */
static void check_large(lt_func f, lt_dtype dt) {
  const func_ref *r = &refs[f];
  const int64_t n = 1 << 16;
  lt_tensor *x = make(dt, 1, A(n)), *y = make(dt, 1, A(n)), *o = NULL;
  for (int64_t k = 0; k < n; k++) {
    double im;
    set(x, A(k), domain_value(r->dx, dt, k, &im));
    set(y, A(k), domain_value(r->dy == D_NONE ? D_ANY : r->dy, dt, k + 1, &im));
  }
  lt_operand ox = {x, {LT_SK_INT, {0}, 0}, 0}, oy = {y, {LT_SK_INT, {0}, 0}, 0};
  int rc = lt_funcs[f].nin == 1 ? lt_unary(f, x, NULL, &o, &err)
                                : lt_binary(f, &ox, &oy, NULL, &o, &err);
  CHECKF(rc == LT_OK, "%s large %s: %s", lt_funcs[f].name, lt_dtypes[dt].name, err.msg);
  int64_t bad = 0;
  for (int64_t k = 0; rc == LT_OK && k < n; k++) {
    double want = r->ref(get(x, A(k), NULL), get(y, A(k), NULL), 0);
    if (!ew_close(get(o, A(k), NULL), want, dt)) bad++;
  }
  CHECKF(bad == 0, "%s large %s: %lld elements differ", lt_funcs[f].name, lt_dtypes[dt].name,
         (long long)bad);
  lt_tensor_free(o);
  lt_tensor_free(x);
  lt_tensor_free(y);
}

static void test_funcs_rows(void) {
  static const char *const lays[] = {"contiguous", "transposed", "reversed"};
  for (int f = 0; f < LT_NFUNCS; f++) {
    const lt_func_row *row = &lt_funcs[f];
    const func_ref *r = &refs[f];
    CHECKF(row->name && (row->nin == 1 || row->nin == 2), "row %d: no name or arity", f);
    CHECKF(r->ref && (r->dy == D_NONE) == (row->nin == 1), "%s: no reference (LT_REF) of its arity",
           row->name);
    if (!r->ref || (r->dy == D_NONE) != (row->nin == 1)) continue;
    for (int di = 0; di < NDT; di++) {
      lt_dtype dt = all_dtypes[di];
      char what[128];
      for (int lay = 0; lay < 3; lay++) {
        lt_tensor *x = operand(dt, r->dx, lay, 0), *y = NULL;
        if (row->nin == 2) y = operand(dt, r->dy, 2 - lay, 1);
        snprintf(what, sizeof what, "%s of %s %s", row->name, lt_dtypes[dt].name, lays[lay]);
        check_call((lt_func)f, dt, x, y, NULL, what);
        if (lay == 0 && y) { /* y broadcast: a row of 3, then a 0-d tensor */
          lt_tensor *y1 = NULL, *y0 = NULL;
          CHECK_OK(lt_select(y, 0, 1, &y1, &err));
          CHECK_OK(lt_select(y1, 0, 2, &y0, &err));
          snprintf(what, sizeof what, "%s of %s, y broadcast", row->name, lt_dtypes[dt].name);
          check_call((lt_func)f, dt, x, y1, NULL, what);
          check_call((lt_func)f, dt, x, y0, NULL, what);
          lt_tensor_free(y1);
          lt_tensor_free(y0);
        }
        if (lay == 0 && (row->forms & LT_FORM_INPLACE) && result_of(row->rule, dt) == dt) {
          lt_tensor *c = NULL;
          CHECK_OK(lt_clone(x, &c, &err));
          snprintf(what, sizeof what, "%s_ of %s", row->name, lt_dtypes[dt].name);
          check_call((lt_func)f, dt, x, y, c, what);
          lt_tensor_free(c);
        }
        lt_tensor_free(x);
        lt_tensor_free(y);
      }
    }
    for (lt_dtype dt = LT_FLOAT32; dt <= LT_FLOAT64; dt++)
      if (row->nt[dt]) check_large((lt_func)f, dt);
  }
}

/* }====== */

/* {====== reductions: every row against a naive reference, every layout, dim and dtype ====== */

/* The value pattern of element k (row-major) for dtype dt. */
static double pattern(lt_dtype dt, int64_t k) {
  int64_t r = (k * 5) % 7; /* 0..6, repeats (ties for min/max) */
  if (dt == LT_BOOL) return (k % 5) % 3 != 0;
  if (!lt_dtypes[dt].is_signed && !lt_dtypes[dt].is_float && !lt_dtypes[dt].is_complex)
    return (double)r;
  if (lt_dtypes[dt].is_float || lt_dtypes[dt].is_complex)
    return (double)(r - 3) * 0.5 + (k % 2 ? 0.25 : 0);
  return (double)(r - 3);
}

/* A (2,3) or (2,3,4) tensor of dtype dt in a layout: 0 contiguous, 1 transposed (a permuted
   contiguous tensor), 2 reversed along dims 0 and last (negative strides), 3 every other
   element of a larger tensor. Element k of the logical tensor is pattern(dt, k). */
static lt_tensor *layout(lt_dtype dt, int ndim, int kind) {
  const int64_t *shape = ndim == 2 ? A(2, 3) : A(2, 3, 4);
  lt_tensor *base = NULL;
  if (kind == 1) {
    int perm2[] = {1, 0}, perm3[] = {2, 0, 1}; /* stored (3,2) and (4,2,3) */
    int64_t st[3] = {0, 0, 0};
    for (int d = 0; d < ndim; d++) st[d] = shape[(ndim == 2 ? perm2 : perm3)[d]];
    lt_tensor *c = make(dt, ndim, st);
    int inv2[] = {1, 0}, inv3[] = {1, 2, 0};
    CHECK_OK(lt_permute(c, ndim == 2 ? inv2 : inv3, &base, &err));
    lt_tensor_free(c);
  } else if (kind == 2) {
    lt_tensor *c = make(dt, ndim, shape), *w = NULL;
    CHECK_OK(lt_slice(c, 0, shape[0] - 1, shape[0], -1, &w, &err));
    CHECK_OK(lt_slice(w, ndim - 1, shape[ndim - 1] - 1, shape[ndim - 1], -1, &base, &err));
    lt_tensor_free(c);
    lt_tensor_free(w);
  } else if (kind == 3) {
    int64_t big[3] = {0, 0, 0};
    for (int d = 0; d < ndim; d++) big[d] = shape[d] * 2;
    lt_tensor *w = NULL;
    base = make(dt, ndim, big);
    for (int d = 0; d < ndim; d++) {
      CHECK_OK(lt_slice(base, d, 1, shape[d], 2, &w, &err));
      lt_tensor_free(base);
      base = w;
    }
  } else {
    base = make(dt, ndim, shape);
  }
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do setc(base, idx, pattern(dt, k), lt_dtypes[dt].is_complex ? (double)(k % 3) - 1 : 0), k++;
  while (next_index(base->ndim, base->shape, idx));
  return base;
}

typedef struct {
  double re, im; /* floating or complex value */
  uint64_t u;    /* integer sum or product */
  int64_t at;    /* min/max position */
  int64_t kept;  /* nansum: the values that are not NaN */
} ref_val;

/* The fold of row r over n values (logical order): vals/ims, and as integers ivs. */
static ref_val fold_ref(const lt_red_row *r, int64_t n, const double *vals, const double *ims,
                        const int64_t *ivs) {
  ref_val v = {r->fold == LT_FOLD_PROD || r->fold == LT_FOLD_ALL, 0, r->fold == LT_FOLD_PROD, 0, 0};
  for (int64_t i = 0; i < n; i++) {
    int nonzero = vals[i] != 0 || ims[i] != 0; /* NaN is nonzero */
    if (r->fold == LT_FOLD_NANSUM) {           /* NaN left out (an integer is never NaN) */
      if (isnan(vals[i])) continue;
      v.re += vals[i];
      v.u += (uint64_t)ivs[i];
      v.kept++;
    } else if (r->fold == LT_FOLD_SUM) {
      v.re += vals[i];
      v.im += ims[i];
      v.u += (uint64_t)ivs[i];
    } else if (r->fold == LT_FOLD_PROD) {
      double re = v.re * vals[i] - v.im * ims[i];
      v.im = v.re * ims[i] + v.im * vals[i];
      v.re = re;
      v.u *= (uint64_t)ivs[i];
    } else if (r->fold == LT_FOLD_ALL) {
      v.re = v.re && nonzero;
    } else if (r->fold == LT_FOLD_ANY) {
      v.re = v.re || nonzero;
    } else if (i == 0 ||
               (!isnan(v.re) &&
                (isnan(vals[i]) || (r->fold == LT_FOLD_MAX ? vals[i] > v.re : vals[i] < v.re)))) {
      v.re = vals[i]; /* the first extreme; the first NaN wins */
      v.at = i;
    }
  }
  return v;
}

/* The reference of row r over n values: its fold and finish, or, for a composed row, what it
   composes (count_nonzero, norm with p 2, logsumexp). Sets *known 0 for a row it cannot check. */
static ref_val reference(const lt_red_row *r, int64_t n, const double *vals, const double *ims,
                         const int64_t *ivs, int correction, int *known) {
  ref_val v = {0, 0, 0, 0, 0};
  *known = 1;
  if (r->fold == LT_FOLD_NONE) {
    double m = -INFINITY, s = 0;
    for (int64_t i = 0; i < n; i++) {
      if (strcmp(r->name, "count_nonzero") == 0) v.u += vals[i] != 0 || ims[i] != 0;
      if (strcmp(r->name, "norm") == 0) v.re += vals[i] * vals[i] + ims[i] * ims[i];
      if (vals[i] > m) m = vals[i];
    }
    for (int64_t i = 0; i < n; i++) s += exp(vals[i] - m);
    if (strcmp(r->name, "norm") == 0)
      v.re = sqrt(v.re);
    else if (strcmp(r->name, "logsumexp") == 0)
      v.re = m + log(s);
    else if (strcmp(r->name, "count_nonzero") != 0)
      *known = 0;
    return v;
  }
  v = fold_ref(r, n, vals, ims, ivs);
  if (r->finish == LT_FINISH_MEAN) {
    double k = r->fold == LT_FOLD_NANSUM ? (double)v.kept : (double)n;
    v.re /= k;
    v.im /= k;
  } else if (r->finish == LT_FINISH_VAR || r->finish == LT_FINISH_STD) {
    double m = v.re / (double)n, s = 0;
    for (int64_t i = 0; i < n; i++) s += (vals[i] - m) * (vals[i] - m);
    v.re = n - correction <= 0 ? NAN : s / (double)(n - correction);
    if (r->finish == LT_FINISH_STD) v.re = sqrt(v.re);
  }
  return v;
}

/* The result dtype of row r for the input's dtype (lt_reduce_table.h's rules). */
static lt_dtype red_result(const lt_red_row *r, lt_dtype in) {
  int intlike = !lt_dtypes[in].is_float && !lt_dtypes[in].is_complex;
  switch (r->rule) {
    case LT_RRULE_WIDE: return intlike ? LT_INT64 : in;
    case LT_RRULE_INT64: return LT_INT64;
    case LT_RRULE_BOOL: return LT_BOOL;
    case LT_RRULE_REAL:
      return in == LT_COMPLEX64 ? LT_FLOAT32 : in == LT_COMPLEX128 ? LT_FLOAT64 : in;
    case LT_RRULE_FLOAT: return intlike ? LT_FLOAT32 : in;
    default: return in;
  }
}

/* Checks output element k against the reference. */
static void check_elem(const lt_red_row *r, lt_dtype in, const lt_tensor *o, const lt_tensor *ix,
                       int64_t k, ref_val v, const char *what) {
  lt_dtype od = o->dtype;
  double got = at(o, k);
  int isint = !lt_dtypes[in].is_float && !lt_dtypes[in].is_complex;
  int extreme = r->fold == LT_FOLD_MIN || r->fold == LT_FOLD_MAX;
  if (r->finish == LT_FINISH_POS) {
    CHECKF(got == (double)v.at, "%s: element %lld is %g, expected %lld", what, (long long)k, got,
           (long long)v.at);
  } else if (extreme) {
    CHECKF(got == v.re || (isnan(got) && isnan(v.re)), "%s: element %lld is %g, expected %g", what,
           (long long)k, got, v.re);
    if (ix)
      CHECKF(at(ix, k) == (double)v.at, "%s: position %lld is %g, expected %lld", what,
             (long long)k, at(ix, k), (long long)v.at);
  } else if (r->finish == LT_FINISH_FLAG) {
    CHECKF(got == v.re, "%s: element %lld is %g, expected %g", what, (long long)k, got, v.re);
  } else if ((isint && r->finish == LT_FINISH_VALUE) || od == LT_INT64) {
    int64_t idx[LT_MAX_NDIM], kk = k;
    for (int d = o->ndim - 1; d >= 0; d--) {
      idx[d] = kk % o->shape[d];
      kk /= o->shape[d];
    }
    CHECKF(geti(o, idx) == (int64_t)v.u, "%s: element %lld is %lld, expected %lld", what,
           (long long)k, (long long)geti(o, idx), (long long)v.u);
  } else {
    CHECKF(close_to(got, v.re, od), "%s: element %lld is %.9g, expected %.9g", what, (long long)k,
           got, v.re);
    if (lt_dtypes[od].is_complex)
      CHECKF(close_to(at_im(o, k), v.im, od),
             "%s: element %lld has imaginary part %.9g, expected %.9g", what, (long long)k,
             at_im(o, k), v.im);
  }
}

/* The values reduced into output position k of a reduction of t over dim (-1: all). */
static int64_t gather_values(const lt_tensor *t, int dim, int64_t k, double *vals, double *ims,
                             int64_t *ivs) {
  int64_t len = dim < 0 ? lt_numel(t) : t->shape[dim], oidx[LT_MAX_NDIM], rest[LT_MAX_NDIM];
  int nr = 0;
  for (int d = 0; d < t->ndim; d++)
    if (dim >= 0 && d != dim) rest[nr++] = t->shape[d];
  for (int d = nr - 1; d >= 0; d--) {
    oidx[d] = k % rest[d];
    k /= rest[d];
  }
  for (int64_t j = 0; j < len; j++) {
    int64_t idx[LT_MAX_NDIM];
    if (dim < 0) {
      int64_t q = j;
      for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = q % t->shape[d];
        q /= t->shape[d];
      }
    } else {
      for (int d = 0, r = 0; d < t->ndim; d++) idx[d] = d == dim ? j : oidx[r++];
    }
    vals[j] = get(t, idx, &ims[j]);
    ivs[j] = geti(t, idx);
  }
  return len;
}

/* One reduction of t over dim (-1: all) against the reference. */
static void check_reduction(lt_redop op, const lt_tensor *t, int dim, int keepdim,
                            const char *lay) {
  const lt_red_row *r = &lt_reductions[op];
  char what[160];
  snprintf(what, sizeof what, "%s of %s %dd %s dim %d keepdim %d", r->name,
           lt_dtypes[t->dtype].name, t->ndim, lay, dim, keepdim);
  lt_tensor *o = NULL, *ix = NULL;
  int correction = r->finish == LT_FINISH_VAR ? 1 : 0; /* std with correction 0, var with 1 */
  int with_idx = (r->fold == LT_FOLD_MIN || r->fold == LT_FOLD_MAX) && r->finish == LT_FINISH_VALUE;
  err.msg[0] = 0;
  int rc = r->fold == LT_FOLD_NONE
               ? lt_reduce_dims(op, t, &dim, dim >= 0, keepdim, correction, &o, &err)
               : lt_reduce(op, t, dim, keepdim, correction, &o, with_idx ? &ix : NULL, &err);
  unsigned cat = 1u << lt_category_of(t->dtype);
  if (!(r->takes & cat)) {
    CHECKF(rc != LT_OK && strstr(err.msg, "not supported for"), "%s: accepted (%s)", what, err.msg);
    if (rc == LT_OK) lt_tensor_free(o);
    return;
  }
  CHECKF(rc == LT_OK, "%s: %s", what, err.msg);
  if (rc != LT_OK) return;
  int64_t want[LT_MAX_NDIM];
  int nd = 0;
  for (int d = 0; d < t->ndim; d++)
    if (dim < 0 || d == dim) {
      if (keepdim) want[nd++] = 1;
    } else {
      want[nd++] = t->shape[d];
    }
  CHECKF(same_shape(o, nd, want) && o->dtype == red_result(r, t->dtype),
         "%s: shape/dtype (%d dims, %s)", what, o->ndim, lt_dtypes[o->dtype].name);
  CHECKF(lt_is_contiguous(o), "%s: result not contiguous", what);
  if (dim >= 0 && ix) CHECKF(same_shape(ix, nd, want) && ix->dtype == LT_INT64, "%s: idx", what);
  if (dim < 0) CHECK(ix == NULL);
  double vals[64], ims[64];
  int64_t ivs[64];
  for (int64_t k = 0; k < lt_numel(o); k++) {
    int64_t len = gather_values(t, dim, k, vals, ims, ivs);
    int known;
    ref_val v = reference(r, len, vals, ims, ivs, correction, &known);
    CHECKF(known, "%s: no reference for this composed reduction (add one to test_math.c)", what);
    if (known) check_elem(r, t->dtype, o, ix, k, v, what);
  }
  lt_tensor_free(o);
  lt_tensor_free(ix);
}

/* t (a float layout) with every fourth element NaN: the NaN-skipping rows (nansum, nanmean)
   run on it too. */
static lt_tensor *with_nans(lt_tensor *t) {
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do
    if (k++ % 4 == 1) setc(t, idx, NAN, 0);
  while (next_index(t->ndim, t->shape, idx));
  return t;
}

static void test_reduce_rows(void) {
  static const char *const lays[] = {"contiguous", "transposed", "reversed", "strided"};
  for (int op = 0; op < LT_NREDOPS; op++)
    CHECKF(lt_reductions[op].name && lt_reductions[op].forms, "reduction %d: no name or form", op);
  for (int di = 0; di < NDT; di++)
    for (int ndim = 2; ndim <= 3; ndim++)
      for (int lay = 0; lay < 4; lay++) {
        lt_tensor *t = layout(all_dtypes[di], ndim, lay);
        for (int op = 0; op < LT_NREDOPS; op++)
          for (int dim = -1; dim < ndim; dim++)
            for (int kd = 0; kd <= 1; kd++) check_reduction((lt_redop)op, t, dim, kd, lays[lay]);
        lt_tensor_free(t);
        if (!lt_dtypes[all_dtypes[di]].is_float) continue;
        t = with_nans(layout(all_dtypes[di], ndim, lay));
        for (int op = 0; op < LT_NREDOPS; op++)
          for (int dim = -1; dim < ndim && lt_reductions[op].fold == LT_FOLD_NANSUM; dim++)
            for (int kd = 0; kd <= 1; kd++) check_reduction((lt_redop)op, t, dim, kd, "with NaN");
        lt_tensor_free(t);
      }
}

/* }====== */

int main(void) {
  /* large operations stream from 64 KiB on (the default is most of the last-level cache) */
  setenv("LTENSOR_STREAM_BYTES", "65536", 1);
  test_funcs_rows();
  test_reduce_rows();
  return tu_finish("test_math");
}
