/*
 * lt_nn_attn.c -- linear, bilinear, scaled_dot_product_attention, dropout, embedding and
 * one_hot (see lt_nn_attn.h). Lua-free.
 *
 * linear is one gemm (lt_addmm) over the input's rows; bilinear a gemm by the weight's
 * (in1, out * in2) matrix then a batched product with x2. Attention is the explicit form: the
 * query scaled, its product with the keys, the mask applied in place (masked_fill for bool and
 * causal masks, an in-place add for float ones), softmax over the keys in place (a row kernel
 * of its own on the pool, exp by lt_vmath), dropout, the product with the values. Where q, k
 * and v share their batch shape and no mask tensor or dropout is given, a blocked path does the
 * same per block of query rows through the BLAS directly, the block's scores staying in the
 * cache. embedding checks its indices then selects rows (lt_index_select).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_blas.h"
#include "lt_copy.h"
#include "lt_gather.h"
#include "lt_linalg.h"
#include "lt_math.h"
#include "lt_nn_attn.h"
#include "lt_nn_norm.h"
#include "lt_pool.h"
#include "lt_shape.h"
#include "lt_vmath.h"

/* The operand of the scalar v. */
static lt_operand scalar_op(double v) {
  lt_operand o = {NULL, {.kind = LT_SK_FLOAT, .v.f = v}, 0};
  return o;
}
static lt_operand tensor_op(const lt_tensor *t) {
  lt_operand o = {t, {0}, 0};
  return o;
}

/* LT_EARG unless b has a's dtype. */
static int same_dtype(const lt_tensor *a, const lt_tensor *b, const char *what, lt_error *err) {
  if (a->dtype == b->dtype) return LT_OK;
  return lt_fail(err, LT_EARG, "%s of dtype %s does not match input's dtype %s", what,
                 lt_dtype_name(b->dtype), lt_dtype_name(a->dtype));
}

static int shape_error(lt_error *err, const char *fmt, const lt_tensor *a, const lt_tensor *b) {
  char sa[128], sb[128];
  lt_shape_str(a->ndim, a->shape, sa, sizeof sa);
  lt_shape_str(b->ndim, b->shape, sb, sizeof sb);
  return lt_fail(err, LT_EARG, fmt, sa, sb);
}

/* {====== linear and bilinear ====== */

/* The rows of x (..., n) as a 2-d (m, n) tensor (a view where possible). */
static int as_rows(const lt_tensor *x, int64_t n, lt_tensor **res, lt_error *err) {
  int64_t m = 1;
  for (int i = 0; i < x->ndim - 1; i++) m *= x->shape[i];
  int64_t shape[2] = {m, n};
  return lt_reshape(x, 2, shape, res, NULL, err);
}

/* *r (rows, k) reshaped to x's leading dims then k: the result of a row-wise product. */
static int back_to_leading(lt_tensor **r, const lt_tensor *x, int64_t k, lt_error *err) {
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, x->shape, (size_t)(x->ndim - 1) * sizeof *shape);
  shape[x->ndim - 1] = k;
  lt_tensor *v = NULL;
  int rc = lt_reshape(*r, x->ndim, shape, &v, NULL, err);
  lt_tensor_free(*r);
  *r = v;
  return rc;
}

int lt_nn_linear(const lt_tensor *x, const lt_tensor *w, const lt_tensor *b, lt_tensor **out,
                 lt_error *err) {
  int rc = same_dtype(x, w, "weight", err); /* integers too, as torch's addmm */
  if (!rc && b) rc = same_dtype(x, b, "bias", err);
  if (rc) return rc;
  if (w->ndim < 1 || w->ndim > 2 || x->ndim < 1 || x->shape[x->ndim - 1] != w->shape[w->ndim - 1])
    return shape_error(err, "input of shape %s and weight of shape %s cannot be multiplied", x, w);
  lt_tensor *r = NULL, *rows = NULL, *wt = NULL;
  if (w->ndim == 1) {
    rc = lt_matmul(x, w, &r, err);
  } else {
    rc = as_rows(x, w->shape[1], &rows, err);
    if (!rc) rc = lt_transpose(w, 0, 1, &wt, err);
    lt_scalar one = {.kind = LT_SK_FLOAT, .v.f = 1};
    if (!rc && b)
      rc = lt_addmm(b, rows, wt, &one, &one, &r, err);
    else if (!rc)
      rc = lt_mm(rows, wt, &r, err);
    if (!rc) rc = back_to_leading(&r, x, w->shape[0], err);
    b = NULL;
  }
  if (!rc && b) {
    lt_operand ob = tensor_op(b), orr = tensor_op(r);
    lt_tensor *s = NULL;
    rc = lt_binary(LT_ADD, &orr, &ob, NULL, &s, err);
    lt_tensor_free(r);
    r = s;
  }
  lt_tensor_free(rows);
  lt_tensor_free(wt);
  return lt_give(rc, r, out);
}

int lt_nn_bilinear(const lt_tensor *x1, const lt_tensor *x2, const lt_tensor *w, const lt_tensor *b,
                   lt_tensor **out, lt_error *err) {
  int rc = lt_nn_float(x1, "input1", err);
  if (!rc) rc = lt_nn_float(x2, "input2", err);
  if (!rc) rc = lt_nn_float(w, "weight", err);
  if (!rc) rc = same_dtype(x1, x2, "input2", err);
  if (!rc) rc = same_dtype(x1, w, "weight", err);
  if (!rc && b) rc = lt_nn_float(b, "bias", err);
  if (!rc && b) rc = same_dtype(x1, b, "bias", err);
  if (rc) return rc;
  int lead = x1->ndim == x2->ndim && x1->ndim >= 1;
  for (int i = 0; lead && i < x1->ndim - 1; i++) lead = x1->shape[i] == x2->shape[i];
  if (!lead)
    return shape_error(
        err, "input1 of shape %s and input2 of shape %s must have the same leading dims", x1, x2);
  if (w->ndim != 3 || w->shape[1] != x1->shape[x1->ndim - 1] ||
      w->shape[2] != x2->shape[x2->ndim - 1])
    return shape_error(err, "weight of shape %s does not match (out, in1, in2) for input1 %s", w,
                       x1);
  if (b && (b->ndim != 1 || b->shape[0] != w->shape[0]))
    return shape_error(err, "bias of shape %s does not match weight %s", b, w);
  int64_t o = w->shape[0], i1 = w->shape[1], i2 = w->shape[2], wsh[2] = {i1, o * i2};
  int perm[3] = {1, 0, 2};
  lt_tensor *wp = NULL, *wm = NULL, *r1 = NULL, *r2 = NULL, *t = NULL, *t3 = NULL, *c = NULL;
  rc = lt_permute(w, perm, &wp, err);
  if (!rc) rc = lt_reshape(wp, 2, wsh, &wm, NULL, err);
  if (!rc) rc = as_rows(x1, i1, &r1, err);
  if (!rc) rc = lt_mm(r1, wm, &t, err);
  int64_t m = r1 ? r1->shape[0] : 0, s3[3] = {m, o, i2}, s2[3] = {m, i2, 1};
  if (!rc) rc = lt_view(t, 3, s3, &t3, err);
  if (!rc) rc = lt_reshape(x2, 3, s2, &r2, NULL, err);
  if (!rc) rc = lt_bmm(t3, r2, &c, err); /* (m, o, 1) */
  lt_tensor *r = NULL;
  int64_t s1[2] = {m, o};
  if (!rc) rc = lt_reshape(c, 2, s1, &r, NULL, err);
  if (!rc && b) {
    lt_operand orr = tensor_op(r), ob = tensor_op(b);
    rc = lt_binary(LT_ADD, &orr, &ob, r, &r, err);
  }
  if (!rc) rc = back_to_leading(&r, x1, o, err);
  lt_tensor_free(wp);
  lt_tensor_free(wm);
  lt_tensor_free(r1);
  lt_tensor_free(r2);
  lt_tensor_free(t);
  lt_tensor_free(t3);
  lt_tensor_free(c);
  return lt_give(rc, r, out);
}

/* }====== */

/* {====== dropout and attention ====== */

int lt_nn_dropout(lt_tensor *x, double p, int inplace, lt_generator *g, lt_tensor **out,
                  lt_error *err) {
  int rc = lt_nn_float(x, "input", err);
  if (rc) return rc;
  if (!(p >= 0 && p <= 1)) return lt_fail(err, LT_EARG, "p must be between 0 and 1, got %g", p);
  if (inplace && (rc = lt_prepare_write(x, err))) return rc;
  lt_tensor *mask = NULL;
  rc = lt_tensor_new(x->dtype, x->ndim, x->shape, 1, &mask, err);
  lt_rand_dist d = {LT_RAND_BERNOULLI, 1 - p, 0, 0, 1, NULL, NULL, NULL};
  if (!rc && p < 1) rc = lt_random_fill(mask, &d, g, err);
  lt_operand om = tensor_op(mask), os = scalar_op(p < 1 ? 1 / (1 - p) : 0), ox = tensor_op(x);
  if (!rc && p < 1) rc = lt_binary(LT_MUL, &om, &os, mask, &mask, err);
  lt_tensor *r = inplace ? x : NULL;
  if (!rc) rc = lt_binary(LT_MUL, &ox, &om, inplace ? x : NULL, &r, err);
  lt_tensor_free(mask);
  if (rc) {
    if (!inplace) lt_tensor_free(r);
    return rc;
  }
  *out = r;
  return LT_OK;
}

/* Softmax of each row of a contiguous float tensor in place: the row's largest value (eight
   lanes), exp(x - max) by lt_vmath, their sum, the scale. A row holding NaN or +inf, or of -inf
   only, becomes NaN (exp of NaN), as torch's. With inv, the rows are left unscaled and
   inv[r] = 1 / sum: the blocked path scales the product's rows instead (Ev elements, not S). */
typedef struct {
  char *p;
  int64_t n;
  double *inv;
} sm_ctx;

#define SOFTMAX_FN(NAME, T, VEXP)                                                   \
  static int NAME(void *vc, int64_t lo, int64_t hi) {                               \
    const sm_ctx *c = vc;                                                           \
    const int64_t n = c->n;                                                         \
    for (int64_t r = lo; r < hi; r++) {                                             \
      T *x = (T *)(void *)c->p + r * n, acc[8];                                     \
      for (int l = 0; l < 8; l++) acc[l] = -INFINITY;                               \
      int64_t k = 0;                                                                \
      for (; k + 8 <= n; k += 8)                                                    \
        for (int l = 0; l < 8; l++) acc[l] = x[k + l] > acc[l] ? x[k + l] : acc[l]; \
      T m = -INFINITY;                                                              \
      for (; k < n; k++) m = x[k] > m ? x[k] : m;                                   \
      for (int l = 0; l < 8; l++) m = acc[l] > m ? acc[l] : m;                      \
      for (k = 0; k < n; k++) x[k] -= m;                                            \
      VEXP(x, x, n);                                                                \
      for (int l = 0; l < 8; l++) acc[l] = 0;                                       \
      for (k = 0; k + 8 <= n; k += 8)                                               \
        for (int l = 0; l < 8; l++) acc[l] += x[k + l];                             \
      double s = 0;                                                                 \
      for (; k < n; k++) s += x[k];                                                 \
      for (int l = 0; l < 8; l++) s += acc[l];                                      \
      if (c->inv) {                                                                 \
        c->inv[r] = 1 / s;                                                          \
        continue;                                                                   \
      }                                                                             \
      T inv = (T)(1 / s);                                                           \
      for (k = 0; k < n; k++) x[k] *= inv;                                          \
    }                                                                               \
    return 0;                                                                       \
  }
SOFTMAX_FN(softmax_f32, float, lt_vmath_exp_f32)
SOFTMAX_FN(softmax_f64, double, lt_vmath_exp_f64)

/* s (a new contiguous float32 or float64 tensor of the scores, rows along its last dim)
   through softmax in place. */
static void softmax_rows(lt_tensor *s) {
  int64_t n = s->shape[s->ndim - 1], rows = n > 0 ? lt_numel(s) / n : 0;
  if (rows == 0) return;
  sm_ctx c = {lt_data(s), n, NULL};
  lt_pool_run(rows, lt_pool_grain(rows, (double)n * 3 * (double)lt_esize(s)),
              s->dtype == LT_FLOAT64 ? softmax_f64 : softmax_f32, &c);
}

/* Applies the mask to the scores s (..., L, S) in place. */
static int apply_mask(lt_tensor *s, const lt_tensor *mask, int causal, lt_error *err) {
  lt_operand ninf = scalar_op(-INFINITY);
  lt_tensor *m = NULL, *r = s;
  int rc = LT_OK;
  if (causal) {
    int64_t ls[2] = {s->shape[s->ndim - 2], s->shape[s->ndim - 1]};
    lt_scalar one = {.kind = LT_SK_INT, .v.i = 1};
    rc = lt_tensor_new(LT_BOOL, 2, ls, 0, &m, err);
    if (!rc) rc = lt_fill(m, &one, err);
    if (!rc) rc = lt_tri_(m, 1, 1, err); /* true above the diagonal: masked out */
  } else if (mask && mask->dtype == LT_BOOL) {
    rc = lt_unary(LT_NOT, mask, NULL, &m, err);
  } else if (mask) {
    if ((rc = lt_nn_float(mask, "attn_mask", err))) return rc;
    lt_operand os = tensor_op(s), om = tensor_op(mask);
    return lt_binary(LT_ADD, &os, &om, s, &r, err);
  }
  if (!rc && m) rc = lt_masked_fill(s, m, &ninf, 1, &r, err);
  lt_tensor_free(m);
  return rc;
}

static int attention_checks(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v,
                            const lt_tensor *mask, int causal, lt_error *err) {
  int rc = lt_nn_float(q, "query", err);
  if (!rc) rc = lt_nn_float(k, "key", err);
  if (!rc) rc = lt_nn_float(v, "value", err);
  if (!rc) rc = same_dtype(q, k, "key", err);
  if (!rc) rc = same_dtype(q, v, "value", err);
  if (rc) return rc;
  if (q->ndim < 2 || k->ndim < 2 || v->ndim < 2)
    return lt_fail(err, LT_EARG, "query, key and value must have at least 2 dims (..., L, E)");
  if (q->shape[q->ndim - 1] != k->shape[k->ndim - 1])
    return shape_error(err, "query of shape %s and key of shape %s differ in their last size", q,
                       k);
  if (k->shape[k->ndim - 2] != v->shape[v->ndim - 2])
    return shape_error(err, "key of shape %s and value of shape %s differ in the size S", k, v);
  if (causal && mask) return lt_fail(err, LT_EARG, "attn_mask and is_causal cannot both be given");
  if (mask && mask->dtype != LT_BOOL && (rc = same_dtype(q, mask, "attn_mask", err))) return rc;
  return LT_OK;
}

/* Query rows per block of the blocked path: a block's scores (ROWS x S) stay in the cache
   between the two products and the softmax. */
#define ROWS 256

/* Whether the blocked path takes the call: one batch shape for q, k and v, no mask tensor,
   no dropout, sizes the BLAS takes, and the BLAS on for the dtype. */
static int blocked_fits(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v,
                        const lt_tensor *mask, double dropout_p, lt_dtype ct) {
  if (mask || dropout_p > 0 || q->ndim != k->ndim || q->ndim != v->ndim) return 0;
  for (int i = 0; i < q->ndim - 2; i++)
    if (q->shape[i] != k->shape[i] || q->shape[i] != v->shape[i]) return 0;
  const int64_t *qs = q->shape + q->ndim - 2, *vs = v->shape + v->ndim - 2;
  if (!lt_blas_fits(qs[0]) || !lt_blas_fits(qs[1]) || !lt_blas_fits(vs[0]) || !lt_blas_fits(vs[1]))
    return 0;
  return lt_numel(q) > 0 && lt_numel(v) > 0 && lt_blas_active(ct);
}

/* The blocked path: for each batch and block of query rows, scores = scale q k^T by one gemm
   into a buffer, the causal mask, softmax in place, then out = scores v by a second gemm.
   q, k, v contiguous in ct. Returns 1 when the BLAS refused the run (nothing done). */
#ifdef LTENSOR_HAVE_BLAS
static int attention_blocked(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v, int causal,
                             double scale, lt_tensor *o, lt_error *err) {
  int64_t L = q->shape[q->ndim - 2], E = q->shape[q->ndim - 1], S = k->shape[k->ndim - 2];
  int64_t Ev = v->shape[v->ndim - 1], batches = L > 0 ? lt_numel(q) / (L * E) : 0;
  size_t es = lt_esize(q);
  char *buf = malloc((size_t)(ROWS * S) * es + ROWS * sizeof(double));
  if (!buf) return lt_fail_nomem(err, (size_t)(ROWS * S) * es + ROWS * sizeof(double));
  double *inv = (double *)(void *)(buf + (size_t)(ROWS * S) * es); /* es divides 8 */
  if (!lt_blas_enter()) {
    free(buf);
    return 1;
  }
  const double alpha[2] = {scale, 0}, one[2] = {1, 0}, zero[2] = {0, 0};
  const char *qd = lt_data(q), *kd = lt_data(k), *vd = lt_data(v);
  char *od = lt_data(o);
  for (int64_t b = 0; b < batches; b++)
    for (int64_t r0 = 0; r0 < L; r0 += ROWS) {
      int m = (int)(L - r0 < ROWS ? L - r0 : ROWS);
      lt_blas_gemm(o->dtype, 0, 1, m, (int)S, (int)E, alpha, qd + (size_t)((b * L + r0) * E) * es,
                   (int)E, kd + (size_t)(b * S * E) * es, (int)E, zero, buf, (int)S);
      for (int i = 0; causal && i < m; i++)
        for (int64_t j = r0 + i + 1; j < S; j++) {
          if (es == 4)
            ((float *)(void *)buf)[i * S + j] = -INFINITY;
          else
            ((double *)(void *)buf)[i * S + j] = -INFINITY;
        }
      sm_ctx c = {buf, S, inv};
      (es == 4 ? softmax_f32 : softmax_f64)(&c, 0, m);
      char *orow = od + (size_t)((b * L + r0) * Ev) * es;
      lt_blas_gemm(o->dtype, 0, 0, m, (int)Ev, (int)S, one, buf, (int)S,
                   vd + (size_t)(b * S * Ev) * es, (int)Ev, zero, orow, (int)Ev);
      for (int i = 0; i < m; i++)
        for (int64_t j = 0; j < Ev; j++) {
          if (es == 4)
            ((float *)(void *)orow)[i * Ev + j] *= (float)inv[i];
          else
            ((double *)(void *)orow)[i * Ev + j] *= inv[i];
        }
    }
  lt_blas_leave();
  free(buf);
  return LT_OK;
}
#else /* without a BLAS blocked_fits says no: never called */
static int attention_blocked(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v, int causal,
                             double scale, lt_tensor *o, lt_error *err) {
  (void)q, (void)k, (void)v, (void)causal, (void)scale, (void)o, (void)err;
  return 1;
}
#endif

/* The blocked path when it fits (*done set), else nothing. */
static int try_blocked(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v,
                       const lt_tensor *mask, double dropout_p, int causal, double scale, int *done,
                       lt_tensor **out, lt_error *err) {
  lt_dtype ct = lt_nn_compute(q->dtype);
  *done = 0;
  if (!blocked_fits(q, k, v, mask, dropout_p, ct)) return LT_OK;
  const lt_tensor *cq, *ck, *cv;
  lt_tensor *oq = NULL, *ok = NULL, *ov = NULL, *o = NULL;
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, q->shape, (size_t)q->ndim * sizeof *shape);
  shape[q->ndim - 1] = v->shape[v->ndim - 1];
  int rc = lt_contiguous_as(q, ct, &cq, &oq, err);
  if (!rc) rc = lt_contiguous_as(k, ct, &ck, &ok, err);
  if (!rc) rc = lt_contiguous_as(v, ct, &cv, &ov, err);
  if (!rc) rc = lt_tensor_new(ct, q->ndim, shape, 0, &o, err);
  if (!rc) rc = attention_blocked(cq, ck, cv, causal, scale, o, err);
  lt_tensor_free(oq);
  lt_tensor_free(ok);
  lt_tensor_free(ov);
  if (rc == 1) { /* the BLAS refused: the composed path */
    lt_tensor_free(o);
    return LT_OK;
  }
  if (!rc) rc = lt_nn_finish(&o, q->dtype, err);
  *done = 1;
  return lt_give(rc, o, out);
}

int lt_nn_attention(const lt_tensor *q, const lt_tensor *k, const lt_tensor *v,
                    const lt_tensor *mask, double dropout_p, int causal, double scale,
                    lt_generator *g, lt_tensor **out, lt_error *err) {
  int rc = attention_checks(q, k, v, mask, causal, err);
  if (rc) return rc;
  if (!(dropout_p >= 0 && dropout_p <= 1))
    return lt_fail(err, LT_EARG, "dropout_p must be between 0 and 1, got %g", dropout_p);
  if (!(scale > 0)) scale = 1 / sqrt((double)q->shape[q->ndim - 1]);
  lt_dtype ct = lt_nn_compute(q->dtype);
  if (ct != q->dtype) { /* float16, bfloat16: the whole computation in float32 */
    lt_tensor *cq = NULL, *ck = NULL, *cv = NULL, *cm = NULL, *r = NULL;
    rc = lt_cast(q, ct, &cq, err);
    if (!rc) rc = lt_cast(k, ct, &ck, err);
    if (!rc) rc = lt_cast(v, ct, &cv, err);
    if (!rc && mask && mask->dtype != LT_BOOL) rc = lt_cast(mask, ct, &cm, err);
    if (!rc) rc = lt_nn_attention(cq, ck, cv, cm ? cm : mask, dropout_p, causal, scale, g, &r, err);
    lt_tensor_free(cq);
    lt_tensor_free(ck);
    lt_tensor_free(cv);
    lt_tensor_free(cm);
    if (!rc) rc = lt_nn_finish(&r, q->dtype, err);
    return lt_give(rc, r, out);
  }
  int done;
  rc = try_blocked(q, k, v, mask, dropout_p, causal, scale, &done, out, err);
  if (rc || done) return rc;
  /* the scores (float32 or float64), softmax in place */
  lt_tensor *qs = NULL, *kt = NULL, *s = NULL, *d = NULL;
  lt_operand oq = tensor_op(q), osc = scalar_op(scale);
  rc = lt_binary(LT_MUL, &oq, &osc, NULL, &qs, err);
  if (!rc) rc = lt_transpose(k, k->ndim - 2, k->ndim - 1, &kt, err);
  if (!rc) rc = lt_matmul(qs, kt, &s, err);
  if (!rc) rc = apply_mask(s, mask, causal, err);
  if (!rc) softmax_rows(s);
  if (!rc && dropout_p > 0) rc = lt_nn_dropout(s, dropout_p, 1, g, &d, err);
  if (!rc) rc = lt_matmul(s, v, out, err);
  lt_tensor_free(qs);
  lt_tensor_free(kt);
  lt_tensor_free(s);
  return rc;
}

/* }====== */

/* {====== embedding and one_hot ====== */

/* idx (an integer tensor) as contiguous int64, each value checked in [1, n]. */
static int class_values(const lt_tensor *idx, int64_t n, const char *what, const lt_tensor **c,
                        lt_tensor **owned, lt_error *err) {
  int rc = lt_contiguous_as(idx, LT_INT64, c, owned, err);
  if (rc) return rc;
  const int64_t *p = (const int64_t *)(const void *)lt_data(*c);
  for (int64_t i = 0, cnt = lt_numel(*c); i < cnt; i++)
    if (p[i] < 1 || p[i] > n) {
      long long v = (long long)p[i]; /* p may be *owned's */
      lt_tensor_free(*owned);
      *owned = NULL;
      return lt_fail(err, LT_ERANGE, "%s %lld is out of range 1 to %lld%s", what, v, (long long)n,
                     v == 0 ? " (indices are 1-based)" : "");
    }
  return LT_OK;
}

/* Scales the rows idx names (checked) whose norm exceeds max_norm, in place. */
static int renorm_rows(lt_tensor *w, const int64_t *idx, int64_t cnt, double max_norm,
                       double norm_type, lt_error *err) {
  if (w->dtype != LT_FLOAT32 && w->dtype != LT_FLOAT64)
    return lt_fail(err, LT_EARG, "max_norm needs a float32 or float64 weight, got %s",
                   lt_dtype_name(w->dtype));
  int rc = lt_prepare_write(w, err);
  if (rc) return rc;
  char *base = lt_data(w);
  int64_t es = (int64_t)lt_esize(w), dim = w->shape[1];
  for (int64_t i = 0; i < cnt; i++) {
    char *row = base + (idx[i] - 1) * w->strides[0] * es;
    double s = 0;
    for (int64_t j = 0; j < dim; j++) {
      char *p = row + j * w->strides[1] * es;
      double v = fabs(es == 4 ? (double)*(float *)(void *)p : *(double *)(void *)p);
      s = isinf(norm_type) ? (v > s ? v : s) : s + pow(v, norm_type);
    }
    double nrm = isinf(norm_type) ? s : pow(s, 1 / norm_type);
    if (!(nrm > max_norm)) continue;
    double f = max_norm / (nrm + 1e-7);
    for (int64_t j = 0; j < dim; j++) {
      char *p = row + j * w->strides[1] * es;
      if (es == 4)
        *(float *)(void *)p = (float)(*(float *)(void *)p * f);
      else
        *(double *)(void *)p *= f;
    }
  }
  return LT_OK;
}

int lt_nn_embedding(const lt_tensor *idx, lt_tensor *weight, double max_norm, double norm_type,
                    lt_tensor **out, lt_error *err) {
  if (idx->dtype != LT_INT64 && idx->dtype != LT_INT32)
    return lt_fail(err, LT_EARG, "input must be an int64 or int32 tensor of indices, got %s",
                   lt_dtype_name(idx->dtype));
  if (weight->ndim != 2) {
    char s[128];
    lt_shape_str(weight->ndim, weight->shape, s, sizeof s);
    return lt_fail(err, LT_EARG, "weight must be 2-d (num_embeddings, dim), got shape %s", s);
  }
  const lt_tensor *c;
  lt_tensor *owned = NULL, *flat = NULL, *sel = NULL;
  int rc = class_values(idx, weight->shape[0], "index", &c, &owned, err);
  if (rc) return rc;
  if (max_norm > 0)
    rc = renorm_rows(weight, (const int64_t *)(const void *)lt_data(c), lt_numel(c), max_norm,
                     norm_type, err);
  int64_t n = lt_numel(c), shape[LT_MAX_NDIM];
  if (!rc) rc = lt_reshape(c, 1, &n, &flat, NULL, err);
  if (!rc) rc = lt_index_select(weight, 0, flat, 1, &sel, err);
  memcpy(shape, idx->shape, (size_t)idx->ndim * sizeof *shape);
  shape[idx->ndim] = weight->shape[1];
  if (!rc && idx->ndim + 1 > LT_MAX_NDIM) rc = lt_fail(err, LT_EARG, "too many dims");
  if (!rc) rc = lt_reshape(sel, idx->ndim + 1, shape, out, NULL, err);
  lt_tensor_free(owned);
  lt_tensor_free(flat);
  lt_tensor_free(sel);
  return rc;
}

int lt_nn_one_hot(const lt_tensor *idx, int64_t classes, lt_tensor **out, lt_error *err) {
  if (idx->dtype != LT_INT64)
    return lt_fail(err, LT_EARG, "input must be an int64 tensor of class indices, got %s",
                   lt_dtype_name(idx->dtype));
  if (idx->ndim >= LT_MAX_NDIM) return lt_fail(err, LT_EARG, "too many dims");
  const lt_tensor *c;
  lt_tensor *owned = NULL, *r = NULL;
  int rc = lt_contiguous_as(idx, LT_INT64, &c, &owned, err);
  if (rc) return rc;
  const int64_t *p = (const int64_t *)(const void *)lt_data(c);
  int64_t n = lt_numel(c);
  if (classes < 0) {
    if (n == 0) rc = lt_fail(err, LT_EARG, "cannot infer num_classes from an empty tensor");
    classes = 0;
    for (int64_t i = 0; i < n; i++) classes = p[i] > classes ? p[i] : classes;
  }
  lt_tensor_free(owned);
  if (!rc) rc = class_values(idx, classes, "class value", &c, &owned, err);
  if (rc) return rc;
  p = (const int64_t *)(const void *)lt_data(c);
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, idx->shape, (size_t)idx->ndim * sizeof *shape);
  shape[idx->ndim] = classes;
  rc = lt_tensor_new(LT_INT64, idx->ndim + 1, shape, 1, &r, err);
  if (!rc) {
    int64_t *y = (int64_t *)(void *)lt_data(r);
    for (int64_t i = 0; i < n; i++) y[i * classes + p[i] - 1] = 1;
  }
  lt_tensor_free(owned);
  return lt_give(rc, r, out);
}

/* }====== */
