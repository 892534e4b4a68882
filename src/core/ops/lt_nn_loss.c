/*
 * lt_nn_loss.c -- torch.nn.functional's losses (see lt_nn_loss.h). Every operand is broadcast
 * and copied into a contiguous float64 tensor, the elementwise losses are computed into another
 * (charged to the memory budget like any tensor), and the reduction sums them in double: a
 * loss is one pass over memory, so the copies cost less than the exactness they buy (the
 * float32 result is rounded once).
 */
#include "lt_nn_loss.h"

#include <math.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_promote.h"
#include "lt_softmax.h"

/* {====== operands and results ====== */

static const char *dtype_name(lt_dtype dt) {
  return dt == LT_OPAQUE ? "this dtype" : lt_dtypes[dt].name;
}

static int is_floating(lt_dtype dt) { return dt != LT_OPAQUE && lt_dtypes[dt].is_float; }

/* t broadcast to shape, as a new contiguous float64 tensor (*d: NULL when t is). */
static int as_f64(const lt_tensor *t, int ndim, const int64_t *shape, lt_tensor **d,
                  lt_error *err) {
  *d = NULL;
  if (!t) return LT_OK;
  lt_tensor *v = NULL;
  int rc = lt_broadcast_to(t, ndim, shape, &v, err);
  if (rc == LT_OK) rc = lt_cast(v, LT_FLOAT64, d, err);
  lt_tensor_free(v);
  return rc;
}

static const double *f64(const lt_tensor *t) {
  return t ? (const double *)(void *)lt_data(t) : NULL;
}

static void free_all(lt_tensor **ts, int n) {
  for (int i = 0; i < n; i++) lt_tensor_free(ts[i]);
}

/* A 0-d tensor of dtype rt holding v. */
static int scalar_result(double v, lt_dtype rt, lt_tensor **out, lt_error *err) {
  int rc = lt_tensor_new(rt, 0, NULL, 0, out, err);
  if (rc) return rc;
  lt_scalar s = {LT_SK_FLOAT, {.f = v}, 0};
  lt_store_wrap(rt, lt_data(*out), &s);
  return LT_OK;
}

static double sum_of(const lt_tensor *t) {
  const double *p = f64(t);
  double s = 0;
  for (int64_t i = 0, n = lt_numel(t); i < n; i++) s += p[i];
  return s;
}

/* The result of the losses *l (float64, taken): themselves in dtype rt (reduction none), else
   their sum, divided by denom unless red is SUM. */
static int reduce_result(lt_tensor **l, lt_reduction red, double denom, lt_dtype rt,
                         lt_tensor **out, lt_error *err) {
  if (red == LT_REDUCE_NONE) {
    int rc = lt_cast_over(l, rt, err);
    if (rc == LT_OK)
      *out = *l;
    else
      lt_tensor_free(*l);
    *l = NULL;
    return rc;
  }
  double s = sum_of(*l);
  lt_tensor_free(*l);
  *l = NULL;
  return scalar_result(red == LT_REDUCE_SUM ? s : s / denom, rt, out, err);
}

static int check_readable(const lt_tensor *const *ts, int n, lt_error *err) {
  for (int i = 0; i < n; i++) {
    int rc = ts[i] ? lt_check_readable(ts[i], err) : LT_OK;
    if (rc) return rc;
  }
  return LT_OK;
}

static int same_shape(const lt_tensor *a, const lt_tensor *b) {
  if (a->ndim != b->ndim) return 0;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d]) return 0;
  return 1;
}

static int shape_mismatch(lt_error *err, const char *what, const lt_tensor *t, const char *want,
                          int ndim, const int64_t *shape) {
  char a[160], b[160];
  lt_shape_str(t->ndim, t->shape, a, sizeof a);
  lt_shape_str(ndim, shape, b, sizeof b);
  return lt_fail(err, LT_EARG, "%s of shape %s must be %s %s", what, a, want, b);
}

/* }====== */

/* {====== pointwise losses ====== */

static double clamp_log(double v) {
  double l = log(v);
  return l < -100 ? -100 : l;
}

/* The loss of one element: input x, target y, pos_weight pw (1 when absent), parameter p. */
static double point_loss(lt_loss loss, double x, double y, double pw, double p) {
  double d = x - y, ad = fabs(d);
  switch (loss) {
    case LT_LOSS_MSE: return d * d;
    case LT_LOSS_L1: return ad;
    case LT_LOSS_SMOOTH_L1: return p == 0 ? ad : ad < p ? 0.5 * d * d / p : ad - 0.5 * p;
    case LT_LOSS_HUBER: return ad <= p ? 0.5 * d * d : p * (ad - 0.5 * p);
    case LT_LOSS_BCE: return -(y * clamp_log(x) + (1 - y) * clamp_log(1 - x));
    case LT_LOSS_BCE_LOGITS:
      return (1 - y) * x + ((pw - 1) * y + 1) * (log1p(exp(-fabs(x))) + (x < 0 ? -x : 0));
    case LT_LOSS_KL_DIV: return (y == 0 && y == y ? 0 : y * log(y)) - y * x;
    case LT_LOSS_KL_DIV_LOG: return exp(y) * (y - x);
    default: return NAN;
  }
}

/* The checks of lt_nn_loss before any work: dtypes, shapes, parameters. *rt: the result's
   dtype. */
static int check_loss(lt_loss loss, const lt_tensor *x, const lt_tensor *y, double p,
                      lt_reduction red, lt_dtype *rt, lt_error *err) {
  if ((unsigned)loss >= (unsigned)LT_NLOSSES) return lt_fail(err, LT_EARG, "not a loss");
  if (!is_floating(x->dtype))
    return lt_fail(err, LT_EARG, "not supported for %s", dtype_name(x->dtype));
  if (y->dtype == LT_OPAQUE || lt_dtypes[y->dtype].is_complex)
    return lt_fail(err, LT_EARG, "target: not supported for %s", dtype_name(y->dtype));
  *rt = lt_promote(x->dtype, y->dtype);
  if (red == LT_REDUCE_BATCHMEAN && loss != LT_LOSS_KL_DIV && loss != LT_LOSS_KL_DIV_LOG)
    return lt_fail(err, LT_EARG, "reduction 'batchmean' is kl_div's only");
  if ((loss == LT_LOSS_BCE || loss == LT_LOSS_BCE_LOGITS) && !same_shape(x, y))
    return shape_mismatch(err, "target", y, "the input's shape", x->ndim, x->shape);
  if (loss == LT_LOSS_SMOOTH_L1 && !(p >= 0))
    return lt_fail(err, LT_EARG, "beta must not be negative, got %g", p);
  if (loss == LT_LOSS_HUBER && !(p > 0))
    return lt_fail(err, LT_EARG, "delta must be positive, got %g", p);
  return LT_OK;
}

int lt_nn_loss(lt_loss loss, const lt_tensor *x, const lt_tensor *y, const lt_tensor *weight,
               const lt_tensor *pos_weight, double p, lt_reduction red, lt_tensor **out,
               lt_error *err) {
  const lt_tensor *ts[4] = {x, y, weight, pos_weight};
  lt_dtype rt = LT_FLOAT32;
  int rc = check_readable(ts, 4, err);
  if (rc || (rc = check_loss(loss, x, y, p, red, &rt, err))) return rc;
  for (int i = 2; i < 4; i++)
    if (ts[i] && (ts[i]->dtype == LT_OPAQUE || lt_dtypes[ts[i]->dtype].is_complex))
      return lt_fail(err, LT_EARG, "%s: not supported for %s", i == 2 ? "weight" : "pos_weight",
                     dtype_name(ts[i]->dtype));
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  if ((rc = lt_broadcast_shape(2, ts, &ndim, shape, err))) return rc;
  lt_tensor *d[5] = {NULL, NULL, NULL, NULL, NULL};
  for (int i = 0; i < 4 && rc == LT_OK; i++) rc = as_f64(ts[i], ndim, shape, &d[i], err);
  if (rc == LT_OK) rc = lt_tensor_new(LT_FLOAT64, ndim, shape, 0, &d[4], err);
  if (rc) {
    free_all(d, 5);
    return rc;
  }
  const double *xv = f64(d[0]), *yv = f64(d[1]), *wv = f64(d[2]), *pv = f64(d[3]);
  double *lv = (double *)(void *)lt_data(d[4]);
  int64_t n = lt_numel(d[4]);
  for (int64_t i = 0; i < n; i++) {
    if (loss == LT_LOSS_BCE && !(xv[i] >= 0 && xv[i] <= 1)) {
      free_all(d, 5);
      return lt_fail(err, LT_EARG, "all elements of input should be between 0 and 1");
    }
    lv[i] = point_loss(loss, xv[i], yv[i], pv ? pv[i] : 1, p) * (wv ? wv[i] : 1);
  }
  double denom = red == LT_REDUCE_BATCHMEAN ? (x->ndim ? (double)x->shape[0] : 1) : (double)n;
  lt_tensor *l = d[4];
  d[4] = NULL;
  free_all(d, 5);
  return reduce_result(&l, red, denom, rt, out, err);
}

/* }====== */

/* {====== nll_loss and cross_entropy ====== */

/* The layout of N x C x d1 ... logits or log-probabilities (or C alone). */
typedef struct {
  int64_t n, c, s; /* batch, classes, positions per sample (the product of d1 ...) */
  int ndim;        /* the result's dims with reduction none: x's less the class dim */
  int64_t shape[LT_MAX_NDIM];
} layout;

static int layout_of(const lt_tensor *x, layout *lay, lt_error *err) {
  if (x->ndim == 0)
    return lt_fail(err, LT_EARG,
                   "input must have a class dim (C or N x C x ...), got a 0-d tensor");
  if (!is_floating(x->dtype))
    return lt_fail(err, LT_EARG, "not supported for %s", dtype_name(x->dtype));
  int cd = x->ndim == 1 ? 0 : 1;
  lay->n = x->ndim == 1 ? 1 : x->shape[0];
  lay->c = x->shape[cd];
  lay->s = 1;
  for (int d = 2; d < x->ndim; d++) lay->s *= x->shape[d];
  lay->ndim = 0;
  for (int d = 0; d < x->ndim; d++)
    if (d != cd) lay->shape[lay->ndim++] = x->shape[d];
  return LT_OK;
}

/* The class indices: an integer tensor of the layout's shape, as contiguous int64. */
static int class_indices(const lt_tensor *target, const layout *lay, lt_tensor **t, lt_error *err) {
  *t = NULL;
  if (target->dtype == LT_OPAQUE || !lt_dtypes[target->dtype].is_int)
    return lt_fail(err, LT_EARG,
                   "target must be an integer tensor of class indices (1-based), got %s",
                   dtype_name(target->dtype));
  if (target->ndim != lay->ndim ||
      memcmp(target->shape, lay->shape, sizeof(int64_t) * (size_t)lay->ndim))
    return shape_mismatch(err, "target", target, "the input's shape without its class dim",
                          lay->ndim, lay->shape);
  return lt_cast(target, LT_INT64, t, err);
}

/* The class weights: NULL, or a 1-d tensor of C elements as contiguous float64. */
static int class_weights(const lt_tensor *w, int64_t c, lt_tensor **d, lt_error *err) {
  *d = NULL;
  if (!w) return LT_OK;
  if (!is_floating(w->dtype))
    return lt_fail(err, LT_EARG, "weight: not supported for %s", dtype_name(w->dtype));
  if (w->ndim != 1 || w->shape[0] != c)
    return shape_mismatch(err, "weight", w, "one per class:", 1, &c);
  return lt_cast(w, LT_FLOAT64, d, err);
}

/* The nll terms: loss[i] = -w[t] lp[t] at each (sample, position) i of log-probabilities lp
   (N x C x S), 0 where the target is ignored; *wsum the sum of the weights taken. */
static int nll_terms(const double *lp, const int64_t *tg, const double *w, const layout *lay,
                     int64_t ignore, double *loss, double *wsum, lt_error *err) {
  *wsum = 0;
  for (int64_t b = 0; b < lay->n; b++)
    for (int64_t s = 0; s < lay->s; s++) {
      int64_t i = b * lay->s + s, t = tg[i];
      if (t == ignore) {
        loss[i] = 0;
        continue;
      }
      if (t < 1 || t > lay->c)
        return lt_fail(err, LT_ERANGE,
                       "target %lld is out of bounds (class indices are 1-based: 1 to %lld)",
                       (long long)t, (long long)lay->c);
      double wt = w ? w[t - 1] : 1;
      loss[i] = -wt * lp[(b * lay->c + t - 1) * lay->s + s];
      *wsum += wt;
    }
  return LT_OK;
}

/* -sum over the classes of w[c] q[c] lp[c] at each (sample, position): q the target's
   probabilities (NULL: 1 for every class, then 0 where the index target tg is ignored). */
static void smooth_terms(const double *lp, const double *q, const int64_t *tg, const double *w,
                         const layout *lay, int64_t ignore, double ls, double *out) {
  for (int64_t b = 0; b < lay->n; b++)
    for (int64_t s = 0; s < lay->s; s++) {
      double acc = 0;
      for (int64_t c = 0; c < lay->c; c++) {
        int64_t k = (b * lay->c + c) * lay->s + s;
        double qc = q ? q[k] * (1 - ls) + ls / (double)lay->c : 1;
        acc += (w ? w[c] : 1) * qc * lp[k];
      }
      int64_t i = b * lay->s + s;
      out[i] = tg && tg[i] == ignore ? 0 : -acc;
    }
}

/* The pieces both losses hold: log-probabilities, indices, weights, the losses (and a second
   set of losses for smoothing). */
enum { P_LP, P_TG, P_W, P_LOSS, P_SMOOTH, P_N };

int lt_nn_nll_loss(const lt_tensor *x, const lt_tensor *target, const lt_tensor *weight,
                   int64_t ignore_index, lt_reduction red, lt_tensor **out, lt_error *err) {
  const lt_tensor *ts[3] = {x, target, weight};
  layout lay;
  int rc = check_readable(ts, 3, err);
  if (rc || (rc = layout_of(x, &lay, err))) return rc;
  lt_tensor *d[P_N] = {NULL};
  rc = class_indices(target, &lay, &d[P_TG], err);
  if (rc == LT_OK) rc = class_weights(weight, lay.c, &d[P_W], err);
  if (rc == LT_OK) rc = lt_cast(x, LT_FLOAT64, &d[P_LP], err);
  if (rc == LT_OK) rc = lt_tensor_new(LT_FLOAT64, lay.ndim, lay.shape, 0, &d[P_LOSS], err);
  double wsum = 0;
  if (rc == LT_OK)
    rc = nll_terms(f64(d[P_LP]), (const int64_t *)(void *)lt_data(d[P_TG]), f64(d[P_W]), &lay,
                   ignore_index, (double *)(void *)lt_data(d[P_LOSS]), &wsum, err);
  lt_tensor *l = d[P_LOSS];
  d[P_LOSS] = NULL;
  free_all(d, P_N);
  if (rc) {
    lt_tensor_free(l);
    return rc;
  }
  return reduce_result(&l, red, wsum, x->dtype, out, err);
}

/* cross_entropy with class indices: nll of log_softmax, mixed with the smoothing term. */
static int ce_indices(lt_tensor **d, const layout *lay, int64_t ignore, double ls, lt_reduction red,
                      lt_dtype rt, lt_tensor **out, lt_error *err) {
  const double *w = f64(d[P_W]);
  const int64_t *tg = (const int64_t *)(void *)lt_data(d[P_TG]);
  double wsum = 0;
  int rc =
      nll_terms(f64(d[P_LP]), tg, w, lay, ignore, (double *)(void *)lt_data(d[P_LOSS]), &wsum, err);
  if (rc || ls == 0) return rc ? rc : reduce_result(&d[P_LOSS], red, wsum, rt, out, err);
  double *sm = (double *)(void *)lt_data(d[P_SMOOTH]), *lv = (double *)(void *)lt_data(d[P_LOSS]);
  smooth_terms(f64(d[P_LP]), NULL, tg, w, lay, ignore, 0, sm);
  int64_t n = lay->n * lay->s;
  double k = ls / (double)lay->c;
  if (red == LT_REDUCE_NONE) {
    for (int64_t i = 0; i < n; i++) lv[i] = (1 - ls) * lv[i] + k * sm[i];
    return reduce_result(&d[P_LOSS], red, 1, rt, out, err);
  }
  double nll = sum_of(d[P_LOSS]), smooth = sum_of(d[P_SMOOTH]);
  if (red == LT_REDUCE_MEAN) { /* both over the weights taken (the count of the targets not
                                  ignored when unweighted), as torch */
    nll /= wsum;
    smooth /= wsum;
  }
  return scalar_result((1 - ls) * nll + k * smooth, rt, out, err);
}

int lt_nn_cross_entropy(const lt_tensor *x, const lt_tensor *target, const lt_tensor *weight,
                        int64_t ignore_index, double label_smoothing, lt_reduction red,
                        lt_tensor **out, lt_error *err) {
  const lt_tensor *ts[3] = {x, target, weight};
  layout lay;
  int rc = check_readable(ts, 3, err);
  if (rc || (rc = layout_of(x, &lay, err))) return rc;
  if (!(label_smoothing >= 0 && label_smoothing <= 1))
    return lt_fail(err, LT_EARG, "label_smoothing must be between 0.0 and 1.0, got %g",
                   label_smoothing);
  int probs = is_floating(target->dtype);
  if (probs && !same_shape(target, x))
    return shape_mismatch(err, "target of class probabilities", target, "the input's shape",
                          x->ndim, x->shape);
  lt_tensor *d[P_N] = {NULL}, *lsm = NULL;
  rc = probs ? lt_cast(target, LT_FLOAT64, &d[P_TG], err)
             : class_indices(target, &lay, &d[P_TG], err);
  if (rc == LT_OK) rc = class_weights(weight, lay.c, &d[P_W], err);
  if (rc == LT_OK) rc = lt_softmax(LT_LOG_SOFTMAX, x, x->ndim == 1 ? 0 : 1, LT_NDTYPES, &lsm, err);
  if (rc == LT_OK) rc = lt_cast(lsm, LT_FLOAT64, &d[P_LP], err);
  for (int i = P_LOSS; i <= P_SMOOTH && rc == LT_OK; i++)
    rc = lt_tensor_new(LT_FLOAT64, lay.ndim, lay.shape, 0, &d[i], err);
  lt_tensor_free(lsm);
  if (rc == LT_OK && probs) {
    smooth_terms(f64(d[P_LP]), f64(d[P_TG]), NULL, f64(d[P_W]), &lay, 0, label_smoothing,
                 (double *)(void *)lt_data(d[P_LOSS]));
    rc = reduce_result(&d[P_LOSS], red, (double)(lay.n * lay.s), x->dtype, out, err);
  } else if (rc == LT_OK) {
    rc = ce_indices(d, &lay, ignore_index, label_smoothing, red, x->dtype, out, err);
  }
  free_all(d, P_N);
  return rc;
}

/* }====== */
