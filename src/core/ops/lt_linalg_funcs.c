/*
 * lt_linalg_funcs.c -- matrix_exp, multi_dot, vecdot, cross and diagonal of torch.linalg
 * (lt_linalg_funcs.h): products through lt_matmul (the BLAS where it is), ltensor's own loops
 * for the rest; no LAPACK.
 *
 * Calls lt_linalg.c, lt_vecops.c, lt_shape.c, lt_lapack.c (its dtype rule only), lt_copy.c,
 * lt_iter.c, lt_tensor.c. Called by the binding (lua_linalg_funcs.c).
 */
#include "lt_linalg_funcs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_lapack.h"
#include "lt_linalg.h"
#include "lt_shape.h"
#include "lt_vecops.h"

/* rc with err's message behind "fname: " (the messages of the core functions called here name
   no function); rc as it is when 0. */
static int named(int rc, lt_error *err, const char *fname) {
  size_t k = strlen(fname);
  if (!rc || !err || (strncmp(err->msg, fname, k) == 0 && err->msg[k] == ':')) return rc;
  char msg[sizeof err->msg];
  memcpy(msg, err->msg, sizeof msg);
  return lt_fail(err, rc, "%s: %s", fname, msg);
}

/* {====== matrix_exp ====== */

#define EXPM_DEGREE 18 /* 1/19! < 2^-55: the Taylor tail past it, at a 1-norm of at most 1 */

/* The 1-norm (largest column sum of magnitudes) of an n x n matrix of w doubles per element. */
static double norm1(const double *m, int64_t n, int w) {
  double best = 0;
  for (int64_t j = 0; j < n; j++) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
      const double *e = m + (i * n + j) * w;
      s += w == 2 ? hypot(e[0], e[1]) : fabs(e[0]);
    }
    best = s > best || isnan(s) ? s : best;
  }
  return best;
}

/* t += c[k] I + c[k + 1] x + c[k + 2] x2 + c[k + 3] x3 over the batch (count n x n matrices of w
   doubles per element; a zero coefficient adds nothing, not 0 * inf). */
static void combine(lt_tensor *t, const double *c, int k, lt_tensor *const *pw, int64_t n,
                    int64_t count, int w) {
  double *td = (double *)lt_data(t);
  int64_t total = count * n * n * w;
  for (int p = 1; p <= 3; p++) {
    const double *xd = (const double *)lt_data(pw[p - 1]);
    if (k + p > EXPM_DEGREE) break;
    for (int64_t e = 0; e < total; e++) td[e] += c[k + p] * xd[e];
  }
  for (int64_t b = 0; b < count; b++)
    for (int64_t i = 0; i < n; i++) td[((b * n + i) * n + i) * w] += c[k];
}

/* e^x in place, x contiguous (count n x n matrices, w doubles per element: 1 real, 2 complex),
   scale[b] its matrices' squarings. Paterson-Stockmeyer in x^4: T = B4, T = T x^4 + Bj for j =
   3..0, Bj = the terms 4j..4j+3. */
static int expm_scaled(lt_tensor *x, int64_t n, int64_t count, int w, const int *scale, int smax,
                       lt_error *err) {
  double c[EXPM_DEGREE + 1] = {1};
  for (int k = 1; k <= EXPM_DEGREE; k++) c[k] = c[k - 1] / k;
  lt_tensor *pw[3] = {x, NULL, NULL}, *x4 = NULL, *t = NULL, *p = NULL;
  int rc = lt_matmul(x, x, &pw[1], err);
  if (!rc) rc = lt_matmul(pw[1], x, &pw[2], err);
  if (!rc) rc = lt_matmul(pw[1], pw[1], &x4, err);
  if (!rc) rc = lt_tensor_new(x->dtype, x->ndim, x->shape, 1, &t, err);
  if (!rc) combine(t, c, 16, pw, n, count, w);
  for (int j = 3; !rc && j >= 0; j--) {
    rc = lt_matmul(t, x4, &p, err);
    if (rc) break;
    lt_tensor_free(t), t = p, p = NULL;
    combine(t, c, 4 * j, pw, n, count, w);
  }
  size_t mbytes = (size_t)(n * n * w) * sizeof(double);
  for (int it = 0; !rc && it < smax; it++) { /* each matrix squared scale[b] times */
    rc = lt_matmul(t, t, &p, err);
    for (int64_t b = 0; !rc && b < count; b++)
      if (scale[b] > it)
        memcpy(lt_data(t) + (size_t)b * mbytes, lt_data(p) + (size_t)b * mbytes, mbytes);
    lt_tensor_free(p), p = NULL;
  }
  if (!rc) memcpy(lt_data(x), lt_data(t), (size_t)count * mbytes);
  lt_tensor_free(pw[1]), lt_tensor_free(pw[2]), lt_tensor_free(x4), lt_tensor_free(t);
  return rc;
}

int lt_matrix_exp(const lt_tensor *a, lt_tensor **out, lt_error *err) {
  const char *fn = "linalg.matrix_exp";
  lt_dtype dt;
  int64_t count;
  int rc = lt_check_readable(a, err);
  if (rc) return named(rc, err, fn);
  if (a->ndim < 2)
    return lt_fail(err, LT_EARG, "%s: A must have at least 2 dimensions, got %d", fn, a->ndim);
  int64_t n = a->shape[a->ndim - 1];
  if (n != a->shape[a->ndim - 2])
    return lt_fail(err, LT_EARG,
                   "%s: A must be batches of square matrices, but they are %lld by %lld matrices",
                   fn, (long long)a->shape[a->ndim - 2], (long long)n);
  if ((rc = lt_lapack_dtype(a->dtype, fn, &dt, err))) return rc;
  int w = lt_dtypes[dt].is_complex ? 2 : 1;
  lt_tensor *x = NULL;
  rc = lt_shape_numel(a->ndim - 2, a->shape, &count, err);
  if (!rc) rc = lt_cast(a, w == 2 ? LT_COMPLEX128 : LT_FLOAT64, &x, err);
  int *scale = !rc && count > 0 ? malloc((size_t)count * sizeof *scale) : NULL;
  if (!rc && count > 0 && !scale) rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  if (!rc && count > 0 && n > 0) {
    int smax = 0;
    for (int64_t b = 0; b < count; b++) { /* x / 2^s, of 1-norm below 1 (NaN, inf: s = 0) */
      double *m = (double *)lt_data(x) + b * n * n * w, nm = norm1(m, n, w);
      int s = 0;
      if (isfinite(nm) && nm >= 1) frexp(nm, &s);
      for (int64_t e = 0; s > 0 && e < n * n * w; e++) m[e] = ldexp(m[e], -s);
      scale[b] = s, smax = s > smax ? s : smax;
    }
    rc = expm_scaled(x, n, count, w, scale, smax, err);
  }
  free(scale);
  if (!rc) rc = lt_cast(x, a->dtype, out, err);
  lt_tensor_free(x);
  return named(rc, err, fn);
}

/* }====== */

/* {====== multi_dot ====== */

#define CHAIN_MAX 256 /* longer chains multiply left to right (the programme is cubic) */

/* The product of m[i..j] in the order split[i * n + j] says (the last matrix of the left part);
   recursion at most CHAIN_MAX deep. */
static int chain(const lt_tensor *const *m, const int *split, int n, int i, int j, lt_tensor **out,
                 lt_error *err) {
  if (i == j) return lt_tensor_alias(m[i], out, err);
  int k = split[i * n + j];
  lt_tensor *l = NULL, *r = NULL;
  int rc = chain(m, split, n, i, k, &l, err);
  if (!rc) rc = chain(m, split, n, k + 1, j, &r, err);
  if (!rc) rc = lt_matmul(l, r, out, err);
  lt_tensor_free(l), lt_tensor_free(r);
  return rc;
}

/* The product of m[0..n) left to right (a chain too long for the programme). */
static int chain_left(const lt_tensor *const *m, int n, lt_tensor **out, lt_error *err) {
  lt_tensor *acc = NULL, *next = NULL;
  int rc = lt_matmul(m[0], m[1], &acc, err);
  for (int i = 2; !rc && i < n; i++) {
    rc = lt_matmul(acc, m[i], &next, err);
    lt_tensor_free(acc), acc = next, next = NULL;
  }
  return lt_give(rc, acc, out);
}

/* The order of least scalar products for matrices of sizes p[i] x p[i + 1]: split[i * n + j]. */
static int chain_order(const int64_t *p, int n, int *split, lt_error *err) {
  double *cost = calloc((size_t)n * (size_t)n, sizeof *cost);
  if (!cost) return lt_fail(err, LT_ENOMEM, "not enough memory");
  for (int len = 1; len < n; len++)
    for (int i = 0; i + len < n; i++) {
      int j = i + len;
      cost[i * n + j] = INFINITY;
      for (int k = i; k < j; k++) {
        double c = cost[i * n + k] + cost[(k + 1) * n + j] + (double)p[i] * p[k + 1] * p[j + 1];
        if (c < cost[i * n + j]) cost[i * n + j] = c, split[i * n + j] = k;
      }
    }
  free(cost);
  return LT_OK;
}

/* Checks the chain and makes mats (1-d ends as 1 x k and k x 1 views, held in ends) and the
   sizes p. */
static int chain_mats(const lt_tensor *const *ts, int n, const lt_tensor **mats, lt_tensor **ends,
                      int64_t *p, lt_error *err) {
  for (int i = 0; i < n; i++) {
    int rc = lt_check_readable(ts[i], err), nd = ts[i]->ndim;
    if (rc) return rc;
    if (ts[i]->dtype != ts[0]->dtype)
      return lt_fail(err, LT_EARG,
                     "all tensors must have the same dtype, but tensor 1 is %s and tensor %d is %s",
                     lt_dtypes[ts[0]->dtype].name, i + 1, lt_dtypes[ts[i]->dtype].name);
    int end = i == 0 || i == n - 1;
    if (nd != 2 && !(end && nd == 1))
      return lt_fail(err, LT_EARG, "tensor %d must be %s but got %d-d", i + 1,
                     end ? "1-d or 2-d" : "2-d", nd);
    mats[i] = ts[i];
    if (nd == 1) {
      const int64_t *sh =
          i == 0 ? (const int64_t[]){1, ts[i]->shape[0]} : (const int64_t[]){ts[i]->shape[0], 1};
      if ((rc = lt_view(ts[i], 2, sh, &ends[i == 0 ? 0 : 1], err))) return rc;
      mats[i] = ends[i == 0 ? 0 : 1];
    }
    p[i] = mats[i]->shape[0];
    if (i > 0 && mats[i - 1]->shape[1] != p[i]) {
      char s0[64], s1[64];
      lt_shape_str(ts[i - 1]->ndim, ts[i - 1]->shape, s0, sizeof s0);
      lt_shape_str(ts[i]->ndim, ts[i]->shape, s1, sizeof s1);
      return lt_fail(err, LT_EARG, "tensors %d and %d with shapes %s and %s cannot be multiplied",
                     i, i + 1, s0, s1);
    }
  }
  p[n] = mats[n - 1]->shape[1];
  return LT_OK;
}

int lt_multi_dot(const lt_tensor *const *ts, int n, lt_tensor **out, lt_error *err) {
  const char *fn = "linalg.multi_dot";
  if (n < 2) return lt_fail(err, LT_EARG, "%s: expected at least 2 tensors but got %d", fn, n);
  const lt_tensor **mats = calloc((size_t)n, sizeof *mats);
  int64_t *p = calloc((size_t)n + 1, sizeof *p);
  int *split = n <= CHAIN_MAX ? calloc((size_t)n * (size_t)n, sizeof *split) : NULL;
  lt_tensor *ends[2] = {NULL, NULL}, *prod = NULL;
  int rc = !mats || !p || (n <= CHAIN_MAX && !split) ? lt_fail(err, LT_ENOMEM, "not enough memory")
                                                     : chain_mats(ts, n, mats, ends, p, err);
  if (!rc && split) rc = chain_order(p, n, split, err);
  if (!rc)
    rc = split ? chain(mats, split, n, 0, n - 1, &prod, err) : chain_left(mats, n, &prod, err);
  if (!rc) { /* the 1-d ends' dims out again */
    int64_t sh[2];
    int nd = 0;
    if (ts[0]->ndim == 2) sh[nd++] = p[0];
    if (ts[n - 1]->ndim == 2) sh[nd++] = p[n];
    rc = lt_view(prod, nd, sh, out, err);
  }
  lt_tensor_free(prod), lt_tensor_free(ends[0]), lt_tensor_free(ends[1]);
  free(mats), free(p), free(split);
  return named(rc, err, fn);
}

/* }====== */

/* {====== vecdot, cross, diagonal ====== */

/* sum_k conj(x[k]) y[k] of kn elements of dtype dt, strides sx, sy (in elements), in double. */
static void dot_run(lt_dtype dt, const char *x, int64_t sx, const char *y, int64_t sy, int64_t kn,
                    double *re, double *im) {
  double r = 0, i = 0;
  for (int64_t k = 0; k < kn; k++) switch (dt) {
      case LT_FLOAT32: r += (double)((const float *)x)[k * sx] * ((const float *)y)[k * sy]; break;
      case LT_FLOAT64: r += ((const double *)x)[k * sx] * ((const double *)y)[k * sy]; break;
      case LT_COMPLEX64: {
        lt_c64 a = ((const lt_c64 *)x)[k * sx], b = ((const lt_c64 *)y)[k * sy];
        r += (double)a.re * b.re + (double)a.im * b.im,
            i += (double)a.re * b.im - (double)a.im * b.re;
        break;
      }
      default: {
        lt_c128 a = ((const lt_c128 *)x)[k * sx], b = ((const lt_c128 *)y)[k * sy];
        r += a.re * b.re + a.im * b.im, i += a.re * b.im - a.im * b.re;
      }
    }
  *re = r, *im = i;
}

/* out[r] = sum_k conj(x[r, k]) y[r, k] over the rows r of the result (rnd dims of out's shape),
   the operands' dim rnd (size kn) summed. */
static void vecdot_rows(const lt_tensor *x, const lt_tensor *y, lt_tensor *out, int rnd,
                        int64_t kn) {
  int64_t idx[LT_MAX_NDIM] = {0}, ox = 0, oy = 0, total = lt_numel(out);
  int64_t sx = x->strides[rnd], sy = y->strides[rnd], es = (int64_t)lt_esize(out);
  const char *xd = lt_data(x), *yd = lt_data(y);
  char *od = lt_data(out);
  for (int64_t r = 0; r < total; r++) {
    lt_scalar s = {.kind = lt_dtypes[out->dtype].is_complex ? LT_SK_COMPLEX : LT_SK_FLOAT};
    dot_run(out->dtype, xd + ox * es, sx, yd + oy * es, sy, kn, &s.v.f, &s.im);
    lt_store_wrap(out->dtype, od + r * es, &s);
    for (int d = rnd - 1; d >= 0; d--) {
      ox += x->strides[d], oy += y->strides[d];
      if (++idx[d] < out->shape[d]) break;
      ox -= x->strides[d] * out->shape[d], oy -= y->strides[d] * out->shape[d], idx[d] = 0;
    }
  }
}

int lt_vecdot(const lt_tensor *x, const lt_tensor *y, int dim, lt_tensor **out, lt_error *err) {
  const char *fn = "linalg.vecdot";
  int rc = lt_check_readable(x, err);
  if (!rc) rc = lt_check_readable(y, err);
  if (rc) return named(rc, err, fn);
  if (x->dtype != y->dtype)
    return lt_fail(err, LT_EARG, "%s: x and y must have the same dtype, but x is %s and y is %s",
                   fn, lt_dtype_name(x->dtype), lt_dtype_name(y->dtype));
  lt_dtype dt = x->dtype;
  if (dt != LT_FLOAT32 && dt != LT_FLOAT64 && !lt_dtypes[dt].is_complex)
    return lt_fail(err, LT_EARG,
                   "%s: expected a floating point or complex tensor as input (got %s)", fn,
                   lt_dtype_name(dt));
  const lt_tensor *ts[2] = {x, y};
  int64_t shape[LT_MAX_NDIM + 1], rshape[LT_MAX_NDIM];
  int nd, perm[LT_MAX_NDIM], rnd = 0;
  if ((rc = lt_broadcast_shape(2, ts, &nd, shape, err))) return named(rc, err, fn);
  if (nd == 0) shape[nd++] = 1; /* two 0-d tensors: one element */
  if (dim < 0 || dim >= nd)
    return lt_fail(err, LT_EARG, "%s: dim %d out of range for %d dims", fn, dim + 1, nd);
  for (int d = 0; d < nd; d++)
    if (d != dim) perm[rnd] = d, rshape[rnd++] = shape[d];
  perm[rnd] = dim;
  lt_tensor *xb = NULL, *yb = NULL, *xp = NULL, *yp = NULL, *res = NULL;
  rc = lt_broadcast_to(x, nd, shape, &xb, err);
  if (!rc) rc = lt_broadcast_to(y, nd, shape, &yb, err);
  if (!rc) rc = lt_permute(xb, perm, &xp, err);
  if (!rc) rc = lt_permute(yb, perm, &yp, err);
  if (!rc) rc = lt_tensor_new(dt, rnd, rshape, 0, &res, err);
  if (!rc) vecdot_rows(xp, yp, res, rnd, shape[dim]);
  lt_tensor_free(xb), lt_tensor_free(yb), lt_tensor_free(xp), lt_tensor_free(yp);
  return named(lt_give(rc, res, out), err, fn);
}

int lt_linalg_cross(const lt_tensor *x, const lt_tensor *y, int dim, lt_tensor **out,
                    lt_error *err) {
  int nd = x->ndim > y->ndim ? x->ndim : y->ndim;
  if (dim < 0 || dim >= (nd ? nd : 1))
    return lt_fail(err, LT_EARG, "linalg.cross: dim %d out of range for %d dims", dim + 1, nd);
  return named(lt_cross(x, y, dim, out, err), err, "linalg.cross");
}

int lt_linalg_diagonal(const lt_tensor *a, int64_t offset, int dim1, int dim2, lt_tensor **out,
                       lt_error *err) {
  return named(lt_diagonal(a, offset, dim1, dim2, out, err), err, "linalg.diagonal");
}

/* }====== */
