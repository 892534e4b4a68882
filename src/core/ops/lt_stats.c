/*
 * lt_stats.c -- nanmedian, quantile, nanquantile, diff, trapezoid, cov, corrcoef, histogram (see
 * lt_stats.h). Lua-free.
 *
 * The order statistics (quantiles, nanmedian) see their input as rows: the dim moved last and
 * the whole copied, contiguous, as float64 (exact for every floating dtype), each row sorted
 * on its own; results are made in float64 and cast once to the input's dtype. cov and histogram
 * accumulate in double (complex cov in pairs of doubles). diff and trapezoid are compositions of
 * narrow views, lt_binary's elementwise rows, lt_cat and the sum reduction, so their dtypes and
 * broadcasting are exactly those of the operations torch composes them of.
 *
 * Calls lt_copy.c, lt_tensor.c, lt_funcs.c, lt_reduce.c, lt_linalg.c (lt_cat), lt_sort.c
 * (lt_median). Called by the binding (lua_stats.c).
 */
#include "lt_stats.h"

#include <math.h>
#include <stdlib.h>

#include "lt_copy.h"
#include "lt_funcs.h"
#include "lt_linalg.h"
#include "lt_reduce.h"
#include "lt_sort.h"

/* {====== rows ====== */

/* dim checked for t (a 0-d tensor takes dim 0 as one element); dim < 0 means every element. */
static int check_stat_dim(const lt_tensor *t, int dim, lt_error *err) {
  if (dim < 0) return LT_OK;
  if (t->ndim == 0) return dim == 0 ? LT_OK : lt_dim_error(err, dim, 1);
  return lt_check_dim(t, dim, err);
}

/* t's elements as *nrows rows of *n float64 (contiguous, *rows): along dim (moved last, the
   other dims in order), or every element as one row when dim < 0 or t is 0-d. */
static int rows_of(const lt_tensor *t, int dim, lt_tensor **rows, int64_t *nrows, int64_t *n,
                   lt_error *err) {
  if (dim < 0 || t->ndim == 0) {
    *nrows = 1;
    *n = lt_numel(t);
    return lt_cast(t, LT_FLOAT64, rows, err);
  }
  int perm[LT_MAX_NDIM], k = 0;
  for (int d = 0; d < t->ndim; d++)
    if (d != dim) perm[k++] = d;
  perm[k] = dim;
  lt_tensor *v = NULL;
  int rc = lt_permute(t, perm, &v, err);
  if (rc) return rc;
  rc = lt_cast(v, LT_FLOAT64, rows, err);
  lt_tensor_free(v);
  *n = t->shape[dim];
  *nrows = 1; /* the other dims' elements */
  for (int d = 0; d < t->ndim; d++)
    if (d != dim) *nrows *= t->shape[d];
  return rc;
}

/* The shape of a reduction of t over dim (< 0: every dim) after the first lead sizes already
   in shape; returns the number of dims. */
static int reduced_shape(const lt_tensor *t, int dim, int keepdim, int64_t *shape, int lead) {
  int nd = lead;
  for (int d = 0; d < t->ndim; d++)
    if (dim >= 0 && d != dim)
      shape[nd++] = t->shape[d];
    else if (keepdim)
      shape[nd++] = 1;
  return nd;
}

/* Ascending, NaN last. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  if (x != x || y != y) return (x != x) - (y != y);
  return (x > y) - (x < y);
}

/* }====== */

/* {====== quantile, nanquantile, nanmedian ====== */

/* The quantile at q of the m >= 1 sorted values v (no NaN among them), torch's lerp. */
static double quantile_of(const double *v, int64_t m, double q, lt_qinterp mode) {
  double rank = q * (double)(m - 1);
  int64_t lo = (int64_t)floor(rank), hi = (int64_t)ceil(rank);
  if (hi > m - 1) hi = m - 1;
  if (lo > hi) lo = hi;
  double a = v[lo], b = v[hi], w = rank - (double)lo;
  switch (mode) {
    case LT_QI_LOWER: return a;
    case LT_QI_HIGHER: return b;
    case LT_QI_NEAREST: return v[(int64_t)rint(rank)];
    case LT_QI_MIDPOINT: w = lo == hi ? 0 : 0.5; break;
    default: break;
  }
  if (lo == hi) return a;
  return w < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w);
}

/* q's values (or qv) as *nq doubles in [0, 1] in *qs (malloc'd). */
static int quantile_qs(const lt_tensor *t, const lt_tensor *q, double qv, double **qs, int64_t *nq,
                       lt_error *err) {
  lt_tensor *qd = NULL;
  int rc = LT_OK;
  *nq = 1;
  if (q) {
    if ((rc = lt_check_readable(q, err))) return rc;
    if (q->ndim > 1) return lt_fail(err, LT_EARG, "q must be a number or a 0-d or 1-d tensor");
    if (q->dtype != t->dtype)
      return lt_fail(err, LT_EARG, "q must have the input's dtype (%s), got %s",
                     lt_dtype_name(t->dtype), lt_dtype_name(q->dtype));
    if ((rc = lt_cast(q, LT_FLOAT64, &qd, err))) return rc;
    *nq = lt_numel(q);
  }
  *qs = malloc((size_t)(*nq > 0 ? *nq : 1) * sizeof **qs);
  if (!*qs) {
    lt_tensor_free(qd);
    return lt_fail(err, LT_ENOMEM, "not enough memory");
  }
  for (int64_t i = 0; i < *nq; i++) {
    double v = qd ? ((const double *)lt_data(qd))[i] : qv;
    if (!(v >= 0 && v <= 1))
      rc = lt_fail(err, LT_ERANGE, "q must be in the range [0, 1], got %g", v);
    (*qs)[i] = v;
  }
  lt_tensor_free(qd);
  if (rc) free(*qs);
  return rc;
}

int lt_quantile(const lt_tensor *t, const lt_tensor *q, double qv, int dim, int keepdim,
                lt_qinterp mode, int ignore_nan, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (t->dtype != LT_FLOAT32 && t->dtype != LT_FLOAT64)
    return lt_fail(err, LT_EARG, "not supported for %s (float32 or float64 expected)",
                   lt_dtype_name(t->dtype));
  if ((rc = check_stat_dim(t, dim, err))) return rc;
  if (lt_numel(t) == 0) return lt_fail(err, LT_EARG, "input tensor must be non-empty");
  double *qs = NULL, *buf = NULL;
  int64_t nq, nrows, n, shape[LT_MAX_NDIM + 1];
  lt_tensor *rows = NULL, *r = NULL;
  if ((rc = quantile_qs(t, q, qv, &qs, &nq, err))) return rc;
  int lead = q && q->ndim == 1;
  shape[0] = nq;
  int nd = reduced_shape(t, dim, keepdim, shape, lead);
  if ((rc = rows_of(t, dim, &rows, &nrows, &n, err)) ||
      (rc = lt_tensor_new(LT_FLOAT64, nd, shape, 0, &r, err)))
    goto done;
  if (!(buf = malloc((size_t)n * sizeof *buf))) {
    rc = lt_fail(err, LT_ENOMEM, "not enough memory");
    goto done;
  }
  const double *x = (const double *)lt_data(rows);
  double *o = (double *)lt_data(r);
  for (int64_t i = 0; i < nrows; i++) {
    int64_t m = 0, nans = 0;
    for (int64_t j = 0; j < n; j++) {
      double v = x[i * n + j];
      if (v != v)
        nans++;
      else
        buf[m++] = v;
    }
    qsort(buf, (size_t)m, sizeof *buf, cmp_double);
    for (int64_t k = 0; k < nq; k++)
      o[k * nrows + i] = (nans && !ignore_nan) || m == 0 ? NAN : quantile_of(buf, m, qs[k], mode);
  }
  rc = lt_cast_over(&r, t->dtype, err);
done:
  free(qs);
  free(buf);
  lt_tensor_free(rows);
  return lt_give(rc, r, out);
}

typedef struct {
  double v;
  int64_t i;
} ranked;

/* By value, then position: a stable order. */
static int cmp_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->v != y->v) return x->v < y->v ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

int lt_nanmedian(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
                 lt_tensor **indices, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (!lt_dtypes[t->dtype].is_float) /* no NaN to leave out */
    return lt_median(t, dim, keepdim, base, values, indices, err);
  if ((rc = check_stat_dim(t, dim, err))) return rc;
  if (dim >= 0 && t->ndim > 0 && t->shape[dim] == 0)
    return lt_fail(err, LT_EARG, "cannot reduce an empty dimension (dimension %d has size 0)",
                   dim + 1);
  int64_t nrows, n, shape[LT_MAX_NDIM];
  int nd = reduced_shape(t, dim, keepdim, shape, 0);
  lt_tensor *rows = NULL, *v = NULL, *ix = NULL;
  ranked *buf = NULL;
  if ((rc = rows_of(t, dim, &rows, &nrows, &n, err)) ||
      (rc = lt_tensor_new(LT_FLOAT64, nd, shape, 0, &v, err)) ||
      (dim >= 0 && (rc = lt_tensor_new(LT_INT64, nd, shape, 0, &ix, err))))
    goto done;
  if (!(buf = malloc((size_t)(n > 0 ? n : 1) * sizeof *buf))) {
    rc = lt_fail(err, LT_ENOMEM, "not enough memory");
    goto done;
  }
  const double *x = (const double *)lt_data(rows);
  for (int64_t i = 0; i < nrows; i++) {
    int64_t m = 0, first_nan = -1;
    for (int64_t j = 0; j < n; j++) {
      double e = x[i * n + j];
      if (e != e) {
        if (first_nan < 0) first_nan = j;
      } else {
        buf[m++] = (ranked){e, j};
      }
    }
    qsort(buf, (size_t)m, sizeof *buf, cmp_ranked);
    ranked pick = m > 0 ? buf[(m - 1) / 2] : (ranked){NAN, first_nan > 0 ? first_nan : 0};
    ((double *)lt_data(v))[i] = pick.v;
    if (ix) ((int64_t *)lt_data(ix))[i] = pick.i + base;
  }
  rc = lt_cast_over(&v, t->dtype, err);
done:
  free(buf);
  lt_tensor_free(rows);
  if (rc) {
    lt_tensor_free(v);
    lt_tensor_free(ix);
    return rc;
  }
  *values = v;
  if (indices) *indices = ix;
  return LT_OK;
}

/* }====== */

/* {====== diff, trapezoid ====== */

/* The most element operations diff's n passes may take (seconds of work). */
#define DIFF_MAX_WORK 4294967296.0

/* *out = f(a, b) for tensors a and b (b NULL: the number s). */
static int bin(lt_func f, const lt_tensor *a, const lt_tensor *b, double s, lt_tensor **out,
               lt_error *err) {
  lt_operand x = {a, {LT_SK_INT, {0}, 0}, 0};
  lt_operand y = {b, {LT_SK_FLOAT, {.f = s}, 0}, 0};
  return lt_binary(f, &x, &y, NULL, out, err);
}

/* *out = f(t[1:], t[:-1]) along dim (t's size along it at least 1). */
static int neighbours(lt_func f, const lt_tensor *t, int dim, lt_tensor **out, lt_error *err) {
  int64_t len = t->shape[dim];
  lt_tensor *a = NULL, *b = NULL;
  int rc = lt_narrow(t, dim, 1, len - 1, &a, err);
  if (rc == LT_OK && (rc = lt_narrow(t, dim, 0, len - 1, &b, err)) == LT_OK)
    rc = bin(f, a, b, 0, out, err);
  lt_tensor_free(a);
  lt_tensor_free(b);
  return rc;
}

int lt_diff(const lt_tensor *t, int64_t n, int dim, const lt_tensor *prepend,
            const lt_tensor *append, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (t->ndim == 0) return lt_fail(err, LT_EARG, "expects input to be at least one-dimensional");
  if (n < 0) return lt_fail(err, LT_ERANGE, "n must be non-negative, got %lld", (long long)n);
  if ((rc = lt_check_dim(t, dim, err))) return rc;
  const lt_tensor *parts[3];
  int k = 0;
  if (prepend) parts[k++] = prepend;
  parts[k++] = t;
  if (append) parts[k++] = append;
  for (int i = 0; i < k; i++)
    if (parts[i]->ndim != t->ndim)
      return lt_fail(err, LT_EARG, "%s must have the input's number of dims (%d), got %d",
                     parts[i] == prepend ? "prepend" : "append", t->ndim, parts[i]->ndim);
  lt_tensor *cur = NULL, *next = NULL;
  if ((rc = k > 1 ? lt_cat(parts, k, dim, &cur, err) : lt_clone(t, &cur, err))) return rc;
  /* n passes over a shrinking tensor: refuse what would run for minutes (torch's loop too) */
  double len = (double)cur->shape[dim], m = (double)n < len ? (double)n : len;
  double work = len > 0 ? (m * (len - 1) - m * (m - 1) / 2) * ((double)lt_numel(cur) / len) : 0;
  if (work > DIFF_MAX_WORK) {
    rc = lt_fail(err, LT_ERANGE,
                 "n = %lld differences of %lld elements along dim %d is too much work (more than "
                 "2^32 element subtractions)",
                 (long long)n, (long long)cur->shape[dim], dim + 1);
    lt_tensor_free(cur);
    return rc;
  }
  for (int64_t i = 0; i < n && cur->shape[dim] > 0; i++) {
    rc = neighbours(cur->dtype == LT_BOOL ? LT_NE : LT_SUB, cur, dim, &next, err);
    lt_tensor_free(cur);
    cur = next;
    if (rc) return rc;
  }
  *out = cur;
  return LT_OK;
}

/* The spacings of trapezoid's x along dim of y: diff(x), a 1-d x viewed along dim. */
static int spacings(const lt_tensor *y, const lt_tensor *x, int dim, lt_tensor **out,
                    lt_error *err) {
  int64_t len = y->shape[dim];
  if (x->ndim != 1 && x->ndim != y->ndim)
    return lt_fail(err, LT_EARG, "x must be 1-d or have y's number of dims (%d), got %d dims",
                   y->ndim, x->ndim);
  if (x->ndim == 1 && x->shape[0] != len)
    return lt_fail(err, LT_EARG, "there must be one x value for each sample point (%lld), got %lld",
                   (long long)len, (long long)x->shape[0]);
  if (x->ndim != 1) return lt_diff(x, 1, dim, NULL, NULL, out, err);
  lt_tensor *d = NULL;
  int64_t shape[LT_MAX_NDIM];
  for (int i = 0; i < y->ndim; i++) shape[i] = i == dim ? len - 1 : 1;
  int rc = lt_diff(x, 1, 0, NULL, NULL, &d, err);
  if (rc == LT_OK) rc = lt_view(d, y->ndim, shape, out, err);
  lt_tensor_free(d);
  return rc;
}

int lt_trapezoid(const lt_tensor *y, const lt_tensor *x, double dx, int dim, lt_tensor **out,
                 lt_error *err) {
  int rc = lt_check_readable(y, err);
  if (rc || (x && (rc = lt_check_readable(x, err)))) return rc;
  if (y->ndim == 0) return lt_dim_error(err, dim, 0);
  if ((rc = lt_check_dim(y, dim, err))) return rc;
  int64_t len = y->shape[dim];
  lt_tensor *a = NULL, *b = NULL, *c = NULL, *s = NULL;
  if (x && (rc = spacings(y, x, dim, &a, err))) return rc;
  if (len == 0) { /* nothing to integrate: zeros (in the floating dtype of the sum) */
    if ((rc = lt_reduce(LT_SUM, y, dim, 0, 0, &s, NULL, err)) == LT_OK)
      rc = bin(LT_MUL, s, NULL, 0.0, out, err);
  } else if (x) { /* sum((x[i+1] - x[i]) (y[i+1] + y[i])) / 2 */
    if ((rc = neighbours(LT_ADD, y, dim, &b, err)) == LT_OK &&
        (rc = bin(LT_MUL, a, b, 0, &c, err)) == LT_OK &&
        (rc = lt_reduce(LT_SUM, c, dim, 0, 0, &s, NULL, err)) == LT_OK)
      rc = bin(LT_MUL, s, NULL, 0.5, out, err);
  } else { /* dx (sum(y) - (y[first] + y[last]) / 2) */
    lt_tensor *f = NULL, *l = NULL;
    if ((rc = lt_select(y, dim, 0, &f, err)) == LT_OK &&
        (rc = lt_select(y, dim, len - 1, &l, err)) == LT_OK &&
        (rc = bin(LT_ADD, f, l, 0, &a, err)) == LT_OK &&
        (rc = bin(LT_MUL, a, NULL, 0.5, &b, err)) == LT_OK &&
        (rc = lt_reduce(LT_SUM, y, dim, 0, 0, &s, NULL, err)) == LT_OK &&
        (rc = bin(LT_SUB, s, b, 0, &c, err)) == LT_OK)
      rc = bin(LT_MUL, c, NULL, dx, out, err);
    lt_tensor_free(f);
    lt_tensor_free(l);
  }
  lt_tensor_free(a);
  lt_tensor_free(b);
  lt_tensor_free(c);
  lt_tensor_free(s);
  return rc;
}

/* }====== */

/* {====== cov, corrcoef ====== */

/* The weights w (nobs, all 1 to begin with) multiplied by fweights or aweights (what: which);
   integral: fweights. */
static int apply_weights(const lt_tensor *wt, int integral, const char *what, int64_t nobs,
                         double *w, lt_error *err) {
  int rc = lt_check_readable(wt, err);
  if (rc) return rc;
  const lt_dtype_info *d = &lt_dtypes[wt->dtype];
  if (wt->ndim > 1)
    return lt_fail(err, LT_EARG, "%s must be 0-d or 1-d, got %d dims", what, wt->ndim);
  if (integral ? !(d->is_int) : !d->is_float)
    return lt_fail(err, LT_EARG, "%s must have %s dtype, got %s", what,
                   integral ? "an integer" : "a floating point", d->name);
  if (lt_numel(wt) != nobs)
    return lt_fail(err, LT_EARG, "%s must have one weight per observation (%lld), got %lld", what,
                   (long long)nobs, (long long)lt_numel(wt));
  lt_tensor *c = NULL;
  if ((rc = lt_cast(wt, LT_FLOAT64, &c, err))) return rc;
  const double *v = (const double *)lt_data(c);
  for (int64_t k = 0; k < nobs && rc == LT_OK; k++) {
    if (!(v[k] >= 0)) rc = lt_fail(err, LT_EARG, "%s cannot be negative", what);
    w[k] *= v[k];
  }
  lt_tensor_free(c);
  return rc;
}

/* cov in double: *c (float64, or complex128 for complex t) and the result dtype *rd. */
static int cov_double(const lt_tensor *t, int64_t correction, const lt_tensor *fw,
                      const lt_tensor *aw, lt_tensor **c, lt_dtype *rd, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (t->ndim > 2)
    return lt_fail(err, LT_EARG, "expected input to have two or fewer dims, got %d", t->ndim);
  const lt_dtype_info *d = &lt_dtypes[t->dtype];
  if (t->dtype == LT_BOOL) return lt_fail(err, LT_EARG, "not supported for bool");
  int cpx = d->is_complex;
  *rd = d->is_float || cpx ? t->dtype : LT_FLOAT32;
  int64_t nvar = t->ndim == 2 ? t->shape[0] : 1, nobs = t->ndim ? t->shape[t->ndim - 1] : 1;
  int64_t shape[2] = {nvar, nvar};
  lt_tensor *x = NULL, *r = NULL;
  double *w = malloc((size_t)(nobs > 0 ? nobs : 1) * sizeof *w), *awv = NULL;
  if (!w) return lt_fail(err, LT_ENOMEM, "not enough memory");
  for (int64_t k = 0; k < nobs; k++) w[k] = 1;
  if ((fw && (rc = apply_weights(fw, 1, "fweights", nobs, w, err))) ||
      (rc = lt_cast(t, cpx ? LT_COMPLEX128 : LT_FLOAT64, &x, err)) ||
      (rc = lt_tensor_new(cpx ? LT_COMPLEX128 : LT_FLOAT64, t->ndim == 2 ? 2 : 0, shape, 0, &r,
                          err)))
    goto done;
  double wsum = 0, wa = 0; /* sum(w), sum(w * aweights) */
  if (aw) {
    if (!(awv = malloc((size_t)(nobs > 0 ? nobs : 1) * sizeof *awv))) {
      rc = lt_fail(err, LT_ENOMEM, "not enough memory");
      goto done;
    }
    for (int64_t k = 0; k < nobs; k++) awv[k] = 1;
    if ((rc = apply_weights(aw, 0, "aweights", nobs, awv, err))) goto done;
    for (int64_t k = 0; k < nobs; k++) w[k] *= awv[k];
  }
  for (int64_t k = 0; k < nobs; k++) {
    wsum += w[k];
    if (aw) wa += w[k] * awv[k];
  }
  double norm = aw ? wsum - (double)correction * wa / wsum : wsum - (double)correction;
  if (!(norm > 0)) norm = 0; /* as torch: inf or NaN follow */
  int step = cpx ? 2 : 1;    /* doubles per element */
  double *xv = (double *)lt_data(x), *o = (double *)lt_data(r);
  for (int64_t i = 0; i < nvar; i++) { /* center each variable on its weighted mean */
    double mr = 0, mi = 0;
    for (int64_t k = 0; k < nobs; k++) {
      mr += w[k] * xv[(i * nobs + k) * step];
      if (cpx) mi += w[k] * xv[(i * nobs + k) * 2 + 1];
    }
    for (int64_t k = 0; k < nobs; k++) {
      xv[(i * nobs + k) * step] -= mr / wsum;
      if (cpx) xv[(i * nobs + k) * 2 + 1] -= mi / wsum;
    }
  }
  for (int64_t i = 0; i < nvar; i++)
    for (int64_t j = 0; j < nvar; j++) { /* sum w (x_i - m_i) conj(x_j - m_j) / norm */
      double sr = 0, si = 0;
      const double *a = xv + i * nobs * step, *b = xv + j * nobs * step;
      for (int64_t k = 0; k < nobs; k++) {
        double ar = a[k * step], br = b[k * step];
        double ai = cpx ? a[k * 2 + 1] : 0, bi = cpx ? b[k * 2 + 1] : 0;
        sr += w[k] * (ar * br + ai * bi);
        si += w[k] * (ai * br - ar * bi);
      }
      o[(i * nvar + j) * step] = sr / norm;
      if (cpx) o[(i * nvar + j) * 2 + 1] = si / norm;
    }
done:
  free(w);
  free(awv);
  lt_tensor_free(x);
  return lt_give(rc, r, c);
}

int lt_cov(const lt_tensor *t, int64_t correction, const lt_tensor *fweights,
           const lt_tensor *aweights, lt_tensor **out, lt_error *err) {
  lt_tensor *c = NULL;
  lt_dtype rd;
  int rc = cov_double(t, correction, fweights, aweights, &c, &rd, err);
  if (rc == LT_OK) rc = lt_cast_over(&c, rd, err);
  return lt_give(rc, c, out);
}

static double clip1(double v) { return v > 1 ? 1 : v < -1 ? -1 : v; } /* NaN stays */

int lt_corrcoef(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  lt_tensor *c = NULL;
  lt_dtype rd;
  int rc = cov_double(t, 1, NULL, NULL, &c, &rd, err);
  if (rc) return rc;
  int cpx = c->dtype == LT_COMPLEX128, step = cpx ? 2 : 1;
  int64_t nvar = c->ndim == 2 ? c->shape[0] : 1;
  double *o = (double *)lt_data(c), *sd = malloc((size_t)nvar * sizeof *sd);
  if (!sd) rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  for (int64_t i = 0; i < nvar && sd; i++) sd[i] = sqrt(o[(i * nvar + i) * step]);
  for (int64_t i = 0; i < nvar && sd; i++)
    for (int64_t j = 0; j < nvar; j++)
      for (int p = 0; p < step; p++) {
        double *e = &o[(i * nvar + j) * step + p];
        *e = clip1(*e / sd[i] / sd[j]);
      }
  free(sd);
  if (rc == LT_OK) rc = lt_cast_over(&c, rd, err);
  return lt_give(rc, c, out);
}

/* }====== */

/* {====== histogram ====== */

/* The nb + 1 edges e of equal bins over range, or the data's (x, n values). */
static int equal_edges(const double *x, int64_t n, const double *range, int f32, int64_t nb,
                       double *e, lt_error *err) {
  double lo = 0, hi = 1;
  if (range) {
    lo = range[0];
    hi = range[1];
  } else if (n > 0) {
    lo = hi = x[0];
    for (int64_t i = 0; i < n; i++) {
      if (x[i] != x[i]) {
        lo = hi = x[i];
        break;
      }
      lo = x[i] < lo ? x[i] : lo;
      hi = x[i] > hi ? x[i] : hi;
    }
  }
  if (lo > hi) return lt_fail(err, LT_EARG, "min should not exceed max, got min %g max %g", lo, hi);
  if (!isfinite(lo) || !isfinite(hi)) /* fabs: a NaN prints as nan whatever its sign bit */
    return lt_fail(err, LT_EARG, "range of [%g, %g] is not finite", isnan(lo) ? fabs(lo) : lo,
                   isnan(hi) ? fabs(hi) : hi);
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  for (int64_t i = 0; i <= nb; i++) {
    double v = i == nb ? hi : lo + (hi - lo) * (double)i / (double)nb;
    e[i] = f32 ? (double)(float)v : v;
  }
  return LT_OK;
}

/* The edges tensor *et (float64, nb + 1 of them) of a histogram of x. */
static int hist_edges(const lt_tensor *t, const double *x, int64_t bins, const lt_tensor *edges,
                      const double *range, lt_tensor **et, lt_error *err) {
  int rc;
  int64_t ne;
  if (edges) {
    if ((rc = lt_check_readable(edges, err))) return rc;
    if (edges->ndim != 1)
      return lt_fail(err, LT_EARG, "bins tensor must be 1-d, got %d dims", edges->ndim);
    if (edges->dtype != t->dtype)
      return lt_fail(err, LT_EARG, "bins tensor must have the input's dtype (%s), got %s",
                     lt_dtype_name(t->dtype), lt_dtype_name(edges->dtype));
    if (lt_numel(edges) < 1) return lt_fail(err, LT_EARG, "bins tensor must have an edge");
    if ((rc = lt_cast(edges, LT_FLOAT64, et, err))) return rc;
    const double *e = (const double *)lt_data(*et);
    for (int64_t i = 1; i < lt_numel(edges); i++)
      if (!(e[i] >= e[i - 1])) {
        lt_tensor_free(*et);
        *et = NULL;
        return lt_fail(err, LT_EARG, "bin edges must increase monotonically");
      }
    return LT_OK;
  }
  if (bins <= 0) return lt_fail(err, LT_ERANGE, "bins must be > 0, got %lld", (long long)bins);
  if (bins > ((int64_t)1 << 48))
    return lt_fail(err, LT_ERANGE, "bins %lld is too large", (long long)bins);
  ne = bins + 1;
  if ((rc = lt_tensor_new(LT_FLOAT64, 1, &ne, 0, et, err))) return rc;
  rc =
      equal_edges(x, lt_numel(t), range, t->dtype == LT_FLOAT32, bins, (double *)lt_data(*et), err);
  if (rc) {
    lt_tensor_free(*et);
    *et = NULL;
  }
  return rc;
}

int lt_histogram(const lt_tensor *t, int64_t bins, const lt_tensor *edges, const double *range,
                 const lt_tensor *weight, int density, lt_tensor **hist, lt_tensor **bin_edges,
                 lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc || (weight && (rc = lt_check_readable(weight, err)))) return rc;
  if (t->dtype != LT_FLOAT32 && t->dtype != LT_FLOAT64)
    return lt_fail(err, LT_EARG, "not supported for %s (float32 or float64 expected)",
                   lt_dtype_name(t->dtype));
  if (weight) {
    int same = weight->ndim == t->ndim;
    for (int d = 0; same && d < t->ndim; d++) same = weight->shape[d] == t->shape[d];
    if (!same || weight->dtype != t->dtype)
      return lt_fail(err, LT_EARG, "weight must have the input's shape and dtype (%s)",
                     lt_dtype_name(t->dtype));
  }
  lt_tensor *x = NULL, *w = NULL, *et = NULL, *h = NULL;
  if ((rc = lt_cast(t, LT_FLOAT64, &x, err)) ||
      (weight && (rc = lt_cast(weight, LT_FLOAT64, &w, err))))
    goto done;
  const double *xv = (const double *)lt_data(x), *wv = w ? (const double *)lt_data(w) : NULL;
  if ((rc = hist_edges(t, xv, bins, edges, range, &et, err))) goto done;
  int64_t nb = lt_numel(et) - 1, n = lt_numel(t);
  const double *e = (const double *)lt_data(et);
  if ((rc = lt_tensor_new(LT_FLOAT64, 1, &nb, 1, &h, err))) goto done;
  double *hv = (double *)lt_data(h), total = 0;
  for (int64_t i = 0; i < n && nb > 0; i++) {
    double v = xv[i];
    if (!(v >= e[0] && v <= e[nb])) continue; /* outside, or NaN */
    int64_t lo = 0, hi = nb;                  /* the last edge <= v, at most edge nb - 1 */
    while (hi - lo > 1) {
      int64_t mid = lo + (hi - lo) / 2;
      if (e[mid] <= v)
        lo = mid;
      else
        hi = mid;
    }
    hv[lo] += wv ? wv[i] : 1;
  }
  for (int64_t i = 0; i < nb; i++) total += hv[i];
  for (int64_t i = 0; i < nb && density; i++) hv[i] /= total * (e[i + 1] - e[i]);
  if ((rc = lt_cast_over(&h, t->dtype, err)) || (rc = lt_cast_over(&et, t->dtype, err))) goto done;
done:
  lt_tensor_free(x);
  lt_tensor_free(w);
  if (rc) {
    lt_tensor_free(et);
    lt_tensor_free(h);
    return rc;
  }
  *hist = h;
  *bin_edges = et;
  return LT_OK;
}

/* }====== */
