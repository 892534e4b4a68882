/*
 * lt_nn_loss.c -- torch.nn.functional's losses (see lt_nn_loss.h). Lua-free.
 *
 * The pointwise losses: every operand is broadcast and copied into a contiguous float64 tensor,
 * and the losses are computed in double over the pool, in pieces whose bounds depend on the
 * element count only; a reduction sums each piece, then the pieces' sums in order, so the result
 * does not depend on the thread count (reduction none stores each loss, charged to the budget as
 * any tensor). nll_loss and cross_entropy read the log-probabilities in their own dtype (float32
 * or float64: the half types through float32), only the C values a sample needs; the
 * per-sample terms are float64, summed in order.
 *
 * Calls lt_copy.c, lt_iter.c, lt_promote.c, lt_softmax.c, lt_pool.c, lt_vmath.c. Called by the
 * binding (lua_nn_act.c).
 */
#include "lt_nn_loss.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_pool.h"
#include "lt_promote.h"
#include "lt_softmax.h"
#include "lt_vmath.h"

/* {====== operands and results ====== */

static int is_floating(lt_dtype dt) { return dt != LT_OPAQUE && lt_dtypes[dt].is_float; }

/* An operand as it is: float32 or float64, contiguous (p NULL: absent). */
typedef struct {
  const void *p;
  int f32;
} lp_view;

static inline double lp_at(lp_view v, int64_t k) {
  return v.f32 ? (double)((const float *)v.p)[k] : ((const double *)v.p)[k];
}

/* t as a contiguous float32 or float64 tensor (the half types as float32): *v reads it, *owned
   the copy when one was made. */
static int lp_of(const lt_tensor *t, lp_view *v, lt_tensor **owned, lt_error *err) {
  const lt_tensor *r;
  int rc = lt_contiguous_as(t, t->dtype == LT_FLOAT64 ? LT_FLOAT64 : LT_FLOAT32, &r, owned, err);
  if (rc == LT_OK) v->p = lt_data(r), v->f32 = r->dtype == LT_FLOAT32;
  return rc;
}

/* t broadcast to shape, read in place where it is a contiguous float32 or float64 tensor of
   that shape, else through a contiguous float64 copy (*d; NULL when none was made). */
static int as_view(const lt_tensor *t, int ndim, const int64_t *shape, lp_view *v, lt_tensor **d,
                   lt_error *err) {
  *d = NULL;
  v->p = NULL, v->f32 = 0;
  if (!t) return LT_OK;
  if (t->ndim == ndim && !memcmp(t->shape, shape, sizeof(int64_t) * (size_t)ndim) &&
      (t->dtype == LT_FLOAT32 || t->dtype == LT_FLOAT64) && lt_is_contiguous(t)) {
    v->p = lt_data(t), v->f32 = t->dtype == LT_FLOAT32;
    return LT_OK;
  }
  lt_tensor *b = NULL;
  int rc = lt_broadcast_to(t, ndim, shape, &b, err);
  if (rc == LT_OK) rc = lt_cast(b, LT_FLOAT64, d, err);
  lt_tensor_free(b);
  if (rc == LT_OK) v->p = lt_data(*d);
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

/* The losses l[0..m) of inputs x, targets y, pos_weight pw (NULL: 1), parameter p: the switch
   outside the loops, so that the simple ones vectorize. */
static void point_block(lt_loss loss, int m, const double *x, const double *y, const double *pw,
                        double p, double *l) {
  switch (loss) {
    case LT_LOSS_MSE:
      for (int k = 0; k < m; k++) l[k] = (x[k] - y[k]) * (x[k] - y[k]);
      break;
    case LT_LOSS_L1:
      for (int k = 0; k < m; k++) l[k] = fabs(x[k] - y[k]);
      break;
    case LT_LOSS_SMOOTH_L1:
      for (int k = 0; k < m; k++) {
        double d = x[k] - y[k], ad = fabs(d);
        l[k] = p == 0 ? ad : ad < p ? 0.5 * d * d / p : ad - 0.5 * p;
      }
      break;
    case LT_LOSS_HUBER:
      for (int k = 0; k < m; k++) {
        double d = x[k] - y[k], ad = fabs(d);
        l[k] = ad <= p ? 0.5 * d * d : p * (ad - 0.5 * p);
      }
      break;
    case LT_LOSS_BCE:
      for (int k = 0; k < m; k++)
        l[k] = -(y[k] * clamp_log(x[k]) + (1 - y[k]) * clamp_log(1 - x[k]));
      break;
    case LT_LOSS_BCE_LOGITS: /* exp(-|x|) by the vector math, in l first */
      for (int k = 0; k < m; k++) l[k] = -fabs(x[k]);
      lt_vmath_exp_f64(l, l, m);
      for (int k = 0; k < m; k++) {
        double a = x[k], w = pw ? pw[k] : 1;
        l[k] = (1 - y[k]) * a + ((w - 1) * y[k] + 1) * (log1p(l[k]) + (a < 0 ? -a : 0));
      }
      break;
    case LT_LOSS_KL_DIV:
      for (int k = 0; k < m; k++)
        l[k] = (y[k] == 0 && y[k] == y[k] ? 0 : y[k] * log(y[k])) - y[k] * x[k];
      break;
    case LT_LOSS_KL_DIV_LOG:
      lt_vmath_exp_f64(l, y, m);
      for (int k = 0; k < m; k++) l[k] *= y[k] - x[k];
      break;
    default:
      for (int k = 0; k < m; k++) l[k] = NAN;
  }
}

/* One pointwise loss over n elements: each piece stores its losses (lv, reduction none) or
   sums them into sums[piece]. */
typedef struct {
  lt_loss loss;
  lp_view x, y, w, pw;
  double p;
  double *lv, *sums;
  int64_t grain;
  double total;
} point_ctx;

enum { BLK = 256 };

/* v[b..b+m) as doubles in buf. */
static void load_block(lp_view v, int64_t b, int m, double *buf) {
  if (v.f32)
    for (int k = 0; k < m; k++) buf[k] = (double)((const float *)v.p)[b + k];
  else
    memcpy(buf, (const double *)v.p + b, (size_t)m * sizeof(double));
}

/* Fails (1) for an input of binary_cross_entropy outside [0, 1]. */
static int point_piece(void *vc, int64_t lo, int64_t hi) {
  const point_ctx *c = vc;
  double x[BLK], y[BLK], pw[BLK], w[BLK], l[BLK], acc[4] = {0, 0, 0, 0};
  for (int64_t b = lo; b < hi; b += BLK) {
    int m = hi - b < BLK ? (int)(hi - b) : BLK;
    load_block(c->x, b, m, x);
    load_block(c->y, b, m, y);
    if (c->pw.p) load_block(c->pw, b, m, pw);
    for (int k = 0; c->loss == LT_LOSS_BCE && k < m; k++)
      if (!(x[k] >= 0 && x[k] <= 1)) return 1;
    point_block(c->loss, m, x, y, c->pw.p ? pw : NULL, c->p, c->lv ? c->lv + b : l);
    double *o = c->lv ? c->lv + b : l;
    if (c->w.p) {
      load_block(c->w, b, m, w);
      for (int k = 0; k < m; k++) o[k] *= w[k];
    }
    for (int k = 0; !c->lv && k < m; k++) acc[k & 3] += o[k];
  }
  if (c->sums) c->sums[lo / c->grain] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  return 0;
}

/* Runs c over n elements; c->total the sum of the losses (reductions). */
static int point_run(point_ctx *c, int64_t n, lt_error *err) {
  c->total = 0;
  if (n == 0) return LT_OK;
  c->grain = lt_pool_grain(n, 64.0);
  int64_t pieces = (n + c->grain - 1) / c->grain;
  if (!c->lv && !(c->sums = calloc((size_t)pieces, sizeof(double))))
    return lt_fail_nomem(err, (size_t)pieces * sizeof(double));
  int64_t bad = lt_pool_run(n, c->grain, point_piece, c);
  for (int64_t k = 0; c->sums && k < pieces; k++) c->total += c->sums[k];
  free(c->sums);
  c->sums = NULL;
  if (bad >= 0) return lt_fail(err, LT_EARG, "all elements of input should be between 0 and 1");
  return LT_OK;
}

/* The checks of lt_nn_loss before any work: dtypes, shapes, parameters. *rt: the result's
   dtype. */
static int check_loss(lt_loss loss, const lt_tensor *x, const lt_tensor *y, double p,
                      lt_reduction red, lt_dtype *rt, lt_error *err) {
  if ((unsigned)loss >= (unsigned)LT_NLOSSES) return lt_fail(err, LT_EARG, "not a loss");
  if (!is_floating(x->dtype))
    return lt_fail(err, LT_EARG, "not supported for %s", lt_dtype_name(x->dtype));
  if (y->dtype == LT_OPAQUE || lt_dtypes[y->dtype].is_complex)
    return lt_fail(err, LT_EARG, "target: not supported for %s", lt_dtype_name(y->dtype));
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
                     lt_dtype_name(ts[i]->dtype));
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  if ((rc = lt_broadcast_shape(2, ts, &ndim, shape, err))) return rc;
  lt_tensor *d[5] = {NULL, NULL, NULL, NULL, NULL};
  lp_view v[4];
  for (int i = 0; i < 4 && rc == LT_OK; i++) rc = as_view(ts[i], ndim, shape, &v[i], &d[i], err);
  if (rc == LT_OK) /* the losses themselves only for reduction none (else a 0-d placeholder) */
    rc = lt_tensor_new(LT_FLOAT64, red == LT_REDUCE_NONE ? ndim : 0, shape, 0, &d[4], err);
  if (rc) {
    free_all(d, 5);
    return rc;
  }
  int64_t n = 0;
  if ((rc = lt_shape_numel(ndim, shape, &n, err))) {
    free_all(d, 5);
    return rc;
  }
  double denom = red == LT_REDUCE_BATCHMEAN ? (x->ndim ? (double)x->shape[0] : 1) : (double)n;
  point_ctx c = {loss, v[0], v[1], v[2], v[3], p, NULL, NULL, 0, 0};
  c.lv = red == LT_REDUCE_NONE ? (double *)(void *)lt_data(d[4]) : NULL;
  rc = point_run(&c, n, err);
  double sum = c.total;
  lt_tensor *l = d[4];
  d[4] = NULL;
  free_all(d, 5);
  if (rc) {
    lt_tensor_free(l);
    return rc;
  }
  if (red == LT_REDUCE_NONE) return reduce_result(&l, red, denom, rt, out, err);
  lt_tensor_free(l);
  return scalar_result(red == LT_REDUCE_SUM ? sum : sum / denom, rt, out, err);
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
    return lt_fail(err, LT_EARG, "not supported for %s", lt_dtype_name(x->dtype));
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
                   lt_dtype_name(target->dtype));
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
    return lt_fail(err, LT_EARG, "weight: not supported for %s", lt_dtype_name(w->dtype));
  if (w->ndim != 1 || w->shape[0] != c)
    return shape_mismatch(err, "weight", w, "one per class:", 1, &c);
  return lt_cast(w, LT_FLOAT64, d, err);
}

/* The nll terms: loss[i] = -w[t] lp[t] at each (sample, position) i of log-probabilities lp
   (N x C x S), 0 where the target is ignored; *wsum the sum of the weights taken. */
static int nll_terms(lp_view lp, const int64_t *tg, const double *w, const layout *lay,
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
      loss[i] = -wt * lp_at(lp, (b * lay->c + t - 1) * lay->s + s);
      *wsum += wt;
    }
  return LT_OK;
}

/* -sum over the classes of w[c] q[c] lp[c] at each (sample, position): q the target's
   probabilities (NULL: 1 for every class, then 0 where the index target tg is ignored). */
static void smooth_terms(lp_view lp, const lp_view *q, const int64_t *tg, const double *w,
                         const layout *lay, int64_t ignore, double ls, double *out) {
  for (int64_t b = 0; b < lay->n; b++)
    for (int64_t s = 0; s < lay->s; s++) {
      double acc = 0;
      for (int64_t c = 0; c < lay->c; c++) {
        int64_t k = (b * lay->c + c) * lay->s + s;
        double qc = q ? lp_at(*q, k) * (1 - ls) + ls / (double)lay->c : 1;
        acc += (w ? w[c] : 1) * qc * lp_at(lp, k);
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
  lp_view lp = {NULL, 0};
  if (rc == LT_OK) rc = lp_of(x, &lp, &d[P_LP], err);
  if (rc == LT_OK) rc = lt_tensor_new(LT_FLOAT64, lay.ndim, lay.shape, 0, &d[P_LOSS], err);
  double wsum = 0;
  if (rc == LT_OK)
    rc = nll_terms(lp, (const int64_t *)(void *)lt_data(d[P_TG]), f64(d[P_W]), &lay, ignore_index,
                   (double *)(void *)lt_data(d[P_LOSS]), &wsum, err);
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
static int ce_indices(lp_view lp, lt_tensor **d, const layout *lay, int64_t ignore, double ls,
                      lt_reduction red, lt_dtype rt, lt_tensor **out, lt_error *err) {
  const double *w = f64(d[P_W]);
  const int64_t *tg = (const int64_t *)(void *)lt_data(d[P_TG]);
  double wsum = 0;
  int rc = nll_terms(lp, tg, w, lay, ignore, (double *)(void *)lt_data(d[P_LOSS]), &wsum, err);
  if (rc || ls == 0) return rc ? rc : reduce_result(&d[P_LOSS], red, wsum, rt, out, err);
  double *sm = (double *)(void *)lt_data(d[P_SMOOTH]), *lv = (double *)(void *)lt_data(d[P_LOSS]);
  smooth_terms(lp, NULL, tg, w, lay, ignore, 0, sm);
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
  lp_view q = {NULL, 0};
  rc = probs ? lp_of(target, &q, &d[P_TG], err) : class_indices(target, &lay, &d[P_TG], err);
  if (rc == LT_OK) rc = class_weights(weight, lay.c, &d[P_W], err);
  if (rc == LT_OK) rc = lt_softmax(LT_LOG_SOFTMAX, x, x->ndim == 1 ? 0 : 1, LT_NDTYPES, &lsm, err);
  lp_view lp = {NULL, 0};
  if (rc == LT_OK) rc = lp_of(lsm, &lp, &d[P_LP], err);
  for (int i = P_LOSS; i <= P_SMOOTH && rc == LT_OK; i++)
    rc = lt_tensor_new(LT_FLOAT64, lay.ndim, lay.shape, 0, &d[i], err);
  if (rc == LT_OK && probs) {
    smooth_terms(lp, &q, NULL, f64(d[P_W]), &lay, 0, label_smoothing,
                 (double *)(void *)lt_data(d[P_LOSS]));
    rc = reduce_result(&d[P_LOSS], red, (double)(lay.n * lay.s), x->dtype, out, err);
  } else if (rc == LT_OK) {
    rc = ce_indices(lp, d, &lay, ignore_index, label_smoothing, red, x->dtype, out, err);
  }
  lt_tensor_free(lsm);
  free_all(d, P_N);
  return rc;
}

/* }====== */
