/*
 * lt_nn_norm.c -- layer_norm, rms_norm, group_norm, batch_norm, normalize, cosine_similarity and
 * pairwise_distance (see lt_nn_norm.h). Lua-free.
 *
 * layer_norm, rms_norm and group_norm are one walk over rows (the input made contiguous in the
 * computation dtype): each row's mean and variance in two passes (eight lanes of the row's type,
 * then double), then x * a + s per channel, a and s from the row's statistics and the channel's
 * weight and bias. The rows are cut into pieces on the pool. batch_norm computes its statistics
 * per channel (or takes the running ones), then the same per-channel scale and shift. normalize
 * and pairwise_distance compose lt_norm with the elementwise rows; cosine_similarity has its own
 * walk over rows of the two broadcast inputs.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_math.h"
#include "lt_nn_norm.h"
#include "lt_pool.h"
#include "lt_reduce.h"

/* {====== input rules ====== */

int lt_nn_is_float(lt_dtype d) {
  return d == LT_FLOAT32 || d == LT_FLOAT64 || d == LT_FLOAT16 || d == LT_BFLOAT16;
}

int lt_nn_float(const lt_tensor *t, const char *what, lt_error *err) {
  lt_dtype d = t->dtype;
  if (lt_nn_is_float(d)) return LT_OK;
  return lt_fail(err, LT_EARG, "%s: expected a floating-point tensor, got %s", what,
                 lt_dtype_name(d));
}

lt_dtype lt_nn_compute(lt_dtype dt) { return dt == LT_FLOAT64 ? LT_FLOAT64 : LT_FLOAT32; }

int lt_nn_finish(lt_tensor **r, lt_dtype dt, lt_error *err) {
  if ((*r)->dtype == dt) return LT_OK;
  int rc = lt_cast_over(r, dt, err);
  if (rc) {
    lt_tensor_free(*r);
    *r = NULL;
  }
  return rc;
}

/* A floating parameter t (NULL: none) of exactly the shape (nd sizes), as a contiguous tensor
   of dtype ct in *c (*owned: a copy to free). */
static int param(const lt_tensor *t, const char *what, int nd, const int64_t *shape, lt_dtype ct,
                 const lt_tensor **c, lt_tensor **owned, lt_error *err) {
  *c = NULL;
  *owned = NULL;
  if (!t) return LT_OK;
  int rc = lt_nn_float(t, what, err);
  if (rc) return rc;
  int same = t->ndim == nd;
  for (int i = 0; same && i < nd; i++) same = t->shape[i] == shape[i];
  if (!same) {
    char want[128], got[128];
    lt_shape_str(nd, shape, want, sizeof want);
    lt_shape_str(t->ndim, t->shape, got, sizeof got);
    return lt_fail(err, LT_EARG, "%s must have shape %s, got %s", what, want, got);
  }
  return lt_contiguous_as(t, ct, c, owned, err);
}

/* }====== */

/* {====== the row kernel ====== */

typedef struct {
  const char *x;
  char *y;
  int64_t len;    /* elements per row */
  int64_t inner;  /* elements per channel */
  int64_t chans;  /* channels per row: len / inner */
  int64_t period; /* row r's channels are (r % period) * chans ... */
  const char *w, *b;
  double eps;
  int rms;
} rows_ctx;

/* sum((x - m)^2) (sq) or sum(x) of n elements, in eight lanes of T then double. */
#define SUM_FN(NAME, T)                                                          \
  static double NAME(const T *x, int64_t n, T m, int sq) {                       \
    T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                         \
    int64_t k = 0;                                                               \
    if (sq)                                                                      \
      for (; k + 8 <= n; k += 8)                                                 \
        for (int l = 0; l < 8; l++) acc[l] += (x[k + l] - m) * (x[k + l] - m);   \
    else                                                                         \
      for (; k + 8 <= n; k += 8)                                                 \
        for (int l = 0; l < 8; l++) acc[l] += x[k + l];                          \
    double s = 0;                                                                \
    for (int l = 0; l < 8; l++) s += acc[l];                                     \
    for (; k < n; k++) s += sq ? (double)(x[k] - m) * (x[k] - m) : (double)x[k]; \
    return s;                                                                    \
  }
SUM_FN(sum_f32, float)
SUM_FN(sum_f64, double)

/* Rows [lo, hi): statistics, then y = x * a + s per channel. */
#define ROWS_FN(NAME, T, SUM)                                                         \
  static int NAME(void *vc, int64_t lo, int64_t hi) {                                 \
    const rows_ctx *c = vc;                                                           \
    const int64_t n = c->len;                                                         \
    for (int64_t r = lo; r < hi; r++) {                                               \
      const T *x = (const T *)(const void *)c->x + r * n;                             \
      T *y = (T *)(void *)c->y + r * n;                                               \
      T m = c->rms ? 0 : (T)(SUM(x, n, 0, 0) / (double)n);                            \
      T rstd = (T)(1 / sqrt(SUM(x, n, m, 1) / (double)n + c->eps));                   \
      int64_t ch0 = (r % c->period) * c->chans;                                       \
      const T *w = c->w ? (const T *)(const void *)c->w + ch0 : NULL;                 \
      const T *b = c->b ? (const T *)(const void *)c->b + ch0 : NULL;                 \
      if (c->inner == 1) { /* one pass, the affine variant chosen outside the loop */ \
        if (w && b)                                                                   \
          for (int64_t k = 0; k < n; k++) y[k] = (x[k] - m) * rstd * w[k] + b[k];     \
        else if (w)                                                                   \
          for (int64_t k = 0; k < n; k++) y[k] = (x[k] - m) * rstd * w[k];            \
        else if (b)                                                                   \
          for (int64_t k = 0; k < n; k++) y[k] = (x[k] - m) * rstd + b[k];            \
        else                                                                          \
          for (int64_t k = 0; k < n; k++) y[k] = (x[k] - m) * rstd;                   \
        continue;                                                                     \
      }                                                                               \
      for (int64_t ch = 0; ch < c->chans; ch++) {                                     \
        T a = w ? rstd * w[ch] : rstd, s = (b ? b[ch] : 0) - m * a;                   \
        const T *xc = x + ch * c->inner;                                              \
        T *yc = y + ch * c->inner;                                                    \
        for (int64_t k = 0; k < c->inner; k++) yc[k] = xc[k] * a + s;                 \
      }                                                                               \
    }                                                                                 \
    return 0;                                                                         \
  }
ROWS_FN(rows_f32, float, sum_f32)
ROWS_FN(rows_f64, double, sum_f64)

/* Runs the rows of x (rows x len, any layout) into a new tensor of x's shape and dtype; the
   weight and bias w, b (NULL or floating, of wshape) are cast to the computation dtype. */
static int run_rows(const lt_tensor *x, int64_t rows, rows_ctx *c, const lt_tensor *w,
                    const lt_tensor *b, int wnd, const int64_t *wshape, lt_tensor **out,
                    lt_error *err) {
  lt_dtype ct = lt_nn_compute(x->dtype);
  const lt_tensor *cx, *cw, *cb;
  lt_tensor *ox = NULL, *ow = NULL, *ob = NULL, *y = NULL;
  int rc = param(w, "weight", wnd, wshape, ct, &cw, &ow, err);
  if (!rc) rc = param(b, "bias", wnd, wshape, ct, &cb, &ob, err);
  if (!rc) rc = lt_contiguous_as(x, ct, &cx, &ox, err);
  if (!rc) rc = lt_tensor_new(ct, x->ndim, x->shape, 0, &y, err);
  if (!rc && rows > 0 && c->len > 0) {
    c->x = lt_data(cx);
    c->y = lt_data(y);
    c->w = cw ? lt_data(cw) : NULL;
    c->b = cb ? lt_data(cb) : NULL;
    int64_t grain = lt_pool_grain(rows, (double)c->len * 2 * (double)lt_esize(y));
    lt_pool_run(rows, grain, ct == LT_FLOAT64 ? rows_f64 : rows_f32, c);
  }
  lt_tensor_free(ox);
  lt_tensor_free(ow);
  lt_tensor_free(ob);
  if (!rc) rc = lt_nn_finish(&y, x->dtype, err);
  return lt_give(rc, y, out);
}

/* The rows of a norm over the last nd dims of x, which must be shape. */
static int last_dims(const lt_tensor *x, int nd, const int64_t *shape, int64_t *rows, int64_t *len,
                     lt_error *err) {
  int rc = lt_nn_float(x, "input", err);
  if (rc) return rc;
  if (nd < 1) return lt_fail(err, LT_EARG, "normalized_shape must have at least one size");
  int same = nd <= x->ndim;
  for (int i = 0; same && i < nd; i++) same = x->shape[x->ndim - nd + i] == shape[i];
  if (!same) {
    char want[128], got[128];
    lt_shape_str(nd, shape, want, sizeof want);
    lt_shape_str(x->ndim, x->shape, got, sizeof got);
    return lt_fail(err, LT_EARG, "input of shape %s does not end in normalized_shape %s", got,
                   want);
  }
  *rows = 1;
  *len = 1;
  for (int i = 0; i < x->ndim; i++) *(i < x->ndim - nd ? rows : len) *= x->shape[i];
  return LT_OK;
}

int lt_nn_layer_norm(const lt_tensor *x, int nd, const int64_t *shape, const lt_tensor *w,
                     const lt_tensor *b, double eps, lt_tensor **out, lt_error *err) {
  int64_t rows, len;
  int rc = last_dims(x, nd, shape, &rows, &len, err);
  if (rc) return rc;
  rows_ctx c = {NULL, NULL, len, 1, len, 1, NULL, NULL, eps, 0};
  return run_rows(x, rows, &c, w, b, nd, shape, out, err);
}

int lt_nn_rms_norm(const lt_tensor *x, int nd, const int64_t *shape, const lt_tensor *w, double eps,
                   lt_tensor **out, lt_error *err) {
  int64_t rows, len;
  int rc = last_dims(x, nd, shape, &rows, &len, err);
  if (rc) return rc;
  if (eps < 0)
    eps = x->dtype == LT_FLOAT64    ? DBL_EPSILON
          : x->dtype == LT_FLOAT16  ? 0.0009765625
          : x->dtype == LT_BFLOAT16 ? 0.0078125
                                    : FLT_EPSILON;
  rows_ctx c = {NULL, NULL, len, 1, len, 1, NULL, NULL, eps, 1};
  return run_rows(x, rows, &c, w, NULL, nd, shape, out, err);
}

/* x as (N, C, rest): N, C and the product of the rest. */
static int batch_channels(const lt_tensor *x, int64_t *n, int64_t *ch, int64_t *rest,
                          lt_error *err) {
  int rc = lt_nn_float(x, "input", err);
  if (rc) return rc;
  if (x->ndim < 2) {
    char got[128];
    lt_shape_str(x->ndim, x->shape, got, sizeof got);
    return lt_fail(err, LT_EARG, "input must have at least 2 dims (N, C, ...), got shape %s", got);
  }
  *n = x->shape[0];
  *ch = x->shape[1];
  *rest = 1;
  for (int i = 2; i < x->ndim; i++) *rest *= x->shape[i];
  return LT_OK;
}

int lt_nn_group_norm(const lt_tensor *x, int64_t groups, const lt_tensor *w, const lt_tensor *b,
                     double eps, lt_tensor **out, lt_error *err) {
  int64_t n = 0, ch = 0, rest = 0;
  int rc = batch_channels(x, &n, &ch, &rest, err);
  if (rc) return rc;
  if (groups < 1 || ch % groups)
    return lt_fail(err, LT_EARG, "num_groups %lld must be positive and divide the %lld channels",
                   (long long)groups, (long long)ch);
  rows_ctx c = {NULL, NULL, ch / groups * rest, rest, ch / groups, groups, NULL, NULL, eps, 0};
  return run_rows(x, n * groups, &c, w, b, 1, &ch, out, err);
}

/* }====== */

/* {====== batch_norm ====== */

typedef struct {
  const char *x;
  char *y;
  int64_t n, ch, rest;
  double *mean, *var; /* per channel: the batch's (computed), or the running ones (given) */
  double *a, *s;      /* per channel: the scale and shift */
} bn_ctx;

/* The batch's mean and biased variance of channels [lo, hi). */
#define BN_STATS_FN(NAME, T)                                                    \
  static int NAME(void *vc, int64_t lo, int64_t hi) {                           \
    const bn_ctx *c = vc;                                                       \
    for (int64_t k = lo; k < hi; k++) {                                         \
      double s = 0, q = 0;                                                      \
      for (int64_t i = 0; i < c->n; i++) {                                      \
        const T *x = (const T *)(const void *)c->x + (i * c->ch + k) * c->rest; \
        for (int64_t j = 0; j < c->rest; j++) s += x[j];                        \
      }                                                                         \
      double m = s / (double)(c->n * c->rest);                                  \
      for (int64_t i = 0; i < c->n; i++) {                                      \
        const T *x = (const T *)(const void *)c->x + (i * c->ch + k) * c->rest; \
        for (int64_t j = 0; j < c->rest; j++) q += (x[j] - m) * (x[j] - m);     \
      }                                                                         \
      c->mean[k] = m;                                                           \
      c->var[k] = q / (double)(c->n * c->rest);                                 \
    }                                                                           \
    return 0;                                                                   \
  }
BN_STATS_FN(bn_stats_f32, float)
BN_STATS_FN(bn_stats_f64, double)

/* y = x * a + s over the (sample, channel) blocks [lo, hi). */
#define BN_APPLY_FN(NAME, T)                                          \
  static int NAME(void *vc, int64_t lo, int64_t hi) {                 \
    const bn_ctx *c = vc;                                             \
    for (int64_t k = lo; k < hi; k++) {                               \
      const T *x = (const T *)(const void *)c->x + k * c->rest;       \
      T *y = (T *)(void *)c->y + k * c->rest, a = (T)c->a[k % c->ch]; \
      T s = (T)c->s[k % c->ch];                                       \
      for (int64_t j = 0; j < c->rest; j++) y[j] = x[j] * a + s;      \
    }                                                                 \
    return 0;                                                         \
  }
BN_APPLY_FN(bn_apply_f32, float)
BN_APPLY_FN(bn_apply_f64, double)

/* t (NULL: none), a floating tensor of shape (ch), as ch doubles in v (def when NULL). */
static int channel_values(const lt_tensor *t, const char *what, int64_t ch, double def, double *v,
                          lt_error *err) {
  const lt_tensor *c;
  lt_tensor *owned;
  int rc = param(t, what, 1, &ch, LT_FLOAT64, &c, &owned, err);
  if (rc) return rc;
  for (int64_t k = 0; k < ch; k++) v[k] = c ? ((const double *)(const void *)lt_data(c))[k] : def;
  lt_tensor_free(owned);
  return LT_OK;
}

/* Writes v (ch doubles) into the running statistic t, as torch: t = (1 - m) t + m v. */
static int update_running(lt_tensor *t, const char *what, const double *v, int64_t ch,
                          double momentum, lt_error *err) {
  double *old = malloc((size_t)ch * sizeof *old + 1);
  if (!old) return lt_fail_nomem(err, (size_t)ch * sizeof *old);
  int rc = channel_values(t, what, ch, 0, old, err);
  lt_tensor *nv = NULL;
  if (!rc) rc = lt_tensor_new(LT_FLOAT64, 1, &ch, 0, &nv, err);
  if (!rc) {
    double *p = (double *)(void *)lt_data(nv);
    for (int64_t k = 0; k < ch; k++) p[k] = (1 - momentum) * old[k] + momentum * v[k];
    rc = lt_copy(t, nv, err);
  }
  lt_tensor_free(nv);
  free(old);
  return rc;
}

/* The statistics (training: the batch's, the running ones updated) into c->mean, c->var. */
static int bn_statistics(bn_ctx *c, lt_dtype ct, lt_tensor *rm, lt_tensor *rv, int training,
                         double momentum, lt_error *err) {
  if (!training) {
    if (!rm || !rv)
      return lt_fail(err, LT_EARG, "running_mean and running_var are required when not training");
    int rc = channel_values(rm, "running_mean", c->ch, 0, c->mean, err);
    return rc ? rc : channel_values(rv, "running_var", c->ch, 0, c->var, err);
  }
  int64_t count = c->n * c->rest;
  if (count <= 1)
    return lt_fail(err, LT_EARG, "expected more than 1 value per channel when training, got %lld",
                   (long long)count);
  /* both checked (dtype, shape, writable) before either is written; read into the buffers the
     statistics overwrite next */
  int rc = channel_values(rm, "running_mean", c->ch, 0, c->mean, err);
  if (!rc) rc = channel_values(rv, "running_var", c->ch, 0, c->var, err);
  if (rc || (rm && (rc = lt_check_writable(rm, err))) || (rv && (rc = lt_check_writable(rv, err))))
    return rc;
  int64_t grain = lt_pool_grain(c->ch, (double)count * 2 * (ct == LT_FLOAT64 ? 8 : 4));
  lt_pool_run(c->ch, grain, ct == LT_FLOAT64 ? bn_stats_f64 : bn_stats_f32, c);
  if (rm && (rc = update_running(rm, "running_mean", c->mean, c->ch, momentum, err))) return rc;
  if (!rv) return LT_OK;
  double *unb = c->s; /* free until the scale and shift are computed */
  for (int64_t k = 0; k < c->ch; k++) unb[k] = c->var[k] * (double)count / (double)(count - 1);
  return update_running(rv, "running_var", unb, c->ch, momentum, err);
}

int lt_nn_batch_norm(const lt_tensor *x, lt_tensor *rm, lt_tensor *rv, const lt_tensor *w,
                     const lt_tensor *b, int training, double momentum, double eps, lt_tensor **out,
                     lt_error *err) {
  int64_t n = 0, ch = 0, rest = 0;
  int rc = batch_channels(x, &n, &ch, &rest, err);
  if (rc) return rc;
  if (ch > INT64_MAX / 64) return lt_fail(err, LT_ERANGE, "too many channels");
  double *buf = malloc((size_t)ch * 4 * sizeof *buf + 1);
  if (!buf) return lt_fail_nomem(err, (size_t)ch * 4 * sizeof *buf);
  lt_dtype ct = lt_nn_compute(x->dtype);
  const lt_tensor *cx;
  lt_tensor *ox = NULL, *y = NULL;
  bn_ctx c = {NULL, NULL, n, ch, rest, buf, buf + ch, buf + 2 * ch, buf + 3 * ch};
  rc = lt_contiguous_as(x, ct, &cx, &ox, err);
  if (!rc) {
    c.x = lt_data(cx);
    rc = bn_statistics(&c, ct, rm, rv, training, momentum, err);
  }
  if (!rc) rc = channel_values(w, "weight", ch, 1, c.a, err);
  if (!rc) rc = channel_values(b, "bias", ch, 0, c.s, err);
  if (!rc) rc = lt_tensor_new(ct, x->ndim, x->shape, 0, &y, err);
  if (!rc && n * ch > 0 && rest > 0) {
    for (int64_t k = 0; k < ch; k++) {
      c.a[k] /= sqrt(c.var[k] + eps);
      c.s[k] -= c.mean[k] * c.a[k];
    }
    c.y = lt_data(y);
    int64_t grain = lt_pool_grain(n * ch, (double)rest * 2 * (double)lt_esize(y));
    lt_pool_run(n * ch, grain, ct == LT_FLOAT64 ? bn_apply_f64 : bn_apply_f32, &c);
  }
  lt_tensor_free(ox);
  free(buf);
  if (!rc) rc = lt_nn_finish(&y, x->dtype, err);
  return lt_give(rc, y, out);
}

/* }====== */

/* {====== vector norms ====== */

int lt_nn_normalize(const lt_tensor *x, double p, int dim, double eps, lt_tensor **out,
                    lt_error *err) {
  int rc = lt_nn_float(x, "input", err);
  if (rc) return rc;
  if ((rc = lt_check_dim(x, dim, err))) return rc;
  lt_tensor *nrm = NULL, *den = NULL;
  rc = lt_norm(x, p, &dim, 1, 1, &nrm, err);
  lt_operand lo = {NULL, {.kind = LT_SK_FLOAT, .v.f = eps}, 0};
  if (!rc) rc = lt_clamp(nrm, &lo, NULL, NULL, &den, err);
  lt_operand a = {x, {0}, 0}, d = {den, {0}, 0};
  if (!rc) rc = lt_binary(LT_DIV, &a, &d, NULL, out, err);
  lt_tensor_free(nrm);
  lt_tensor_free(den);
  return rc;
}

int lt_nn_pairwise_distance(const lt_tensor *a, const lt_tensor *b, double p, double eps,
                            int keepdim, lt_tensor **out, lt_error *err) {
  int rc = lt_nn_float(a, "x1", err);
  if (!rc) rc = lt_nn_float(b, "x2", err);
  if (rc) return rc;
  lt_tensor *d = NULL, *e = NULL;
  lt_operand oa = {a, {0}, 0}, ob = {b, {0}, 0};
  rc = lt_binary(LT_SUB, &oa, &ob, NULL, &d, err);
  lt_operand od = {NULL, {0}, 0}, oe = {NULL, {.kind = LT_SK_FLOAT, .v.f = eps}, 0};
  od.t = d;
  if (!rc) rc = lt_binary(LT_ADD, &od, &oe, NULL, &e, err);
  int dim = e ? e->ndim - 1 : 0;
  if (!rc && e->ndim == 0)
    rc = lt_norm(e, p, NULL, 0, 0, out, err);
  else if (!rc)
    rc = lt_norm(e, p, &dim, 1, keepdim, out, err);
  lt_tensor_free(d);
  lt_tensor_free(e);
  return rc;
}

typedef struct {
  const char *a, *b;
  char *y;
  int64_t len;
  double eps2;
} cos_ctx;

#define COS_FN(NAME, T)                                        \
  static int NAME(void *vc, int64_t lo, int64_t hi) {          \
    const cos_ctx *c = vc;                                     \
    for (int64_t r = lo; r < hi; r++) {                        \
      const T *a = (const T *)(const void *)c->a + r * c->len; \
      const T *b = (const T *)(const void *)c->b + r * c->len; \
      double ab = 0, aa = 0, bb = 0;                           \
      for (int64_t k = 0; k < c->len; k++) {                   \
        ab += (double)a[k] * b[k];                             \
        aa += (double)a[k] * a[k];                             \
        bb += (double)b[k] * b[k];                             \
      }                                                        \
      aa = aa > c->eps2 ? aa : c->eps2;                        \
      bb = bb > c->eps2 ? bb : c->eps2;                        \
      ((T *)(void *)c->y)[r] = (T)(ab / sqrt(aa * bb));        \
    }                                                          \
    return 0;                                                  \
  }
COS_FN(cos_f32, float)
COS_FN(cos_f64, double)

/* t expanded to (nd, shape) with dim moved last, contiguous in ct. */
static int rows_last(const lt_tensor *t, int nd, const int64_t *shape, int dim, lt_dtype ct,
                     lt_tensor **res, lt_error *err) {
  lt_tensor *e = NULL, *m = NULL;
  int perm[LT_MAX_NDIM];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != dim) perm[j++] = i;
  perm[nd - 1] = dim;
  int rc = lt_expand(t, nd, shape, &e, err);
  if (!rc) rc = lt_permute(e, perm, &m, err);
  if (!rc) rc = lt_cast(m, ct, res, err);
  lt_tensor_free(e);
  lt_tensor_free(m);
  return rc;
}

int lt_nn_cosine_similarity(const lt_tensor *a, const lt_tensor *b, int dim, double eps,
                            lt_tensor **out, lt_error *err) {
  int rc = lt_nn_float(a, "x1", err);
  if (!rc) rc = lt_nn_float(b, "x2", err);
  if (rc) return rc;
  int64_t shape[LT_MAX_NDIM];
  int nd = a->ndim;
  memcpy(shape, a->shape, (size_t)nd * sizeof *shape);
  if (lt_broadcast_join(&nd, shape, b->ndim, b->shape)) {
    char sa[128], sb[128];
    lt_shape_str(a->ndim, a->shape, sa, sizeof sa);
    lt_shape_str(b->ndim, b->shape, sb, sizeof sb);
    return lt_fail(err, LT_EARG, "x1 of shape %s and x2 of shape %s do not broadcast", sa, sb);
  }
  if (dim < -nd || dim >= (nd > 0 ? nd : 1)) return lt_dim_error(err, dim, nd);
  if (dim < 0) dim += nd;
  lt_dtype ct = lt_promote(a->dtype, b->dtype), rt = ct;
  ct = lt_nn_compute(ct);
  lt_tensor *ca = NULL, *cb = NULL, *y = NULL;
  int64_t len = nd > 0 ? shape[dim] : 1, rows = 1, oshape[LT_MAX_NDIM];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != dim) rows *= (oshape[j++] = shape[i]);
  if (nd == 0) {
    rc = lt_cast(a, ct, &ca, err);
    if (!rc) rc = lt_cast(b, ct, &cb, err);
  } else {
    rc = rows_last(a, nd, shape, dim, ct, &ca, err);
    if (!rc) rc = rows_last(b, nd, shape, dim, ct, &cb, err);
  }
  if (!rc) rc = lt_tensor_new(ct, nd > 0 ? nd - 1 : 0, oshape, 0, &y, err);
  if (!rc && rows > 0) {
    cos_ctx c = {lt_data(ca), lt_data(cb), lt_data(y), len, eps * eps};
    lt_pool_run(rows, lt_pool_grain(rows, (double)len * 2 * (double)lt_esize(y)),
                ct == LT_FLOAT64 ? cos_f64 : cos_f32, &c);
  }
  lt_tensor_free(ca);
  lt_tensor_free(cb);
  if (!rc) rc = lt_nn_finish(&y, rt, err);
  return lt_give(rc, y, out);
}

/* }====== */
