/*
 * lt_nn_conv.c -- convolutions, transposed convolutions, unfold and fold (see lt_nn_conv.h).
 * Lua-free.
 *
 * Every function here works on a batched, contiguous input in its computation dtype (an
 * unbatched one is viewed with a batch of 1, then dropped again by lt_nn_give). The spatial
 * dims are always three (a 1-d or 2-d problem has leading dims of size 1, kernel 1, stride 1),
 * so one im2col and one col2im serve conv1d to conv3d. Both work one (N, C) plane per item of
 * the worker pool: plane i reads or writes rows [i ksz, (i + 1) ksz) of the column matrix, so
 * pieces never share an output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_gemm.h"
#include "lt_linalg.h"
#include "lt_nn_conv.h"
#include "lt_nn_norm.h"
#include "lt_nn_winograd.h"
#include "lt_pool.h"

/* {====== geometry ====== */

/* One convolution's spatial geometry: the image's sizes, the output positions, kernel,
   stride, padding before, dilation; ksz kernel elements, l output positions, isz image elements
   per plane. */
typedef struct {
  int64_t in[3], out[3], k[3], s[3], p[3], d[3];
  int64_t ksz, l, isz;
} geom;

/* A geometry for nsp dims whose values are at the end of the 3 (leading ones left at 1). */
static void geom_init(geom *g) {
  for (int i = 0; i < 3; i++) g->in[i] = g->out[i] = g->k[i] = g->s[i] = g->d[i] = 1, g->p[i] = 0;
}
static int geom_sizes(geom *g, lt_error *err) {
  int rc;
  if ((rc = lt_shape_numel(3, g->k, &g->ksz, err)) ||
      (rc = lt_shape_numel(3, g->out, &g->l, err)) || (rc = lt_shape_numel(3, g->in, &g->isz, err)))
    return rc;
  return LT_OK;
}

/* "5 x 5": the last nsp of three sizes, for messages. */
static const char *dims_str(const int64_t *v, int nsp, char *buf, size_t n) {
  size_t at = 0;
  buf[0] = 0;
  for (int i = 3 - nsp; i < 3 && at < n; i++)
    at += (size_t)snprintf(buf + at, n - at, i > 3 - nsp ? " x %lld" : "%lld", (long long)v[i]);
  return buf;
}

int lt_nn_check_arg(int64_t v, int64_t lo, const char *what, lt_error *err) {
  if (v < lo)
    return lt_fail(err, LT_EARG, "%s must be %s, got %lld", what,
                   lo > 0 ? "positive" : "non-negative", (long long)v);
  if (v > LT_CONV_MAX_ARG)
    return lt_fail(err, LT_ERANGE, "%s %lld is too large", what, (long long)v);
  return LT_OK;
}

/* The output sizes of g from its image, kernel, stride, padding (before, and after: phi) and
   dilation; LT_EARG when the padded image is smaller than the dilated kernel. */
static int geom_out(geom *g, int nsp, const int64_t *phi, lt_error *err) {
  int64_t ext[3], padded[3];
  for (int i = 0; i < 3; i++) {
    ext[i] = g->d[i] * (g->k[i] - 1) + 1; /* both <= 2^32: no overflow */
    padded[i] = g->in[i] + g->p[i] + phi[i];
  }
  for (int i = 0; i < 3; i++)
    if (padded[i] < ext[i]) {
      char a[96], b[96];
      return lt_fail(err, LT_EARG,
                     "input: padded size per channel (%s) is smaller than the kernel (%s)",
                     dims_str(padded, nsp, a, sizeof a), dims_str(ext, nsp, b, sizeof b));
    }
  for (int i = 0; i < 3; i++) g->out[i] = (padded[i] - ext[i]) / g->s[i] + 1;
  return geom_sizes(g, err);
}

/* }====== */

/* {====== im2col and col2im ====== */

/* The output positions o (along the last dim) whose image position o s - p + kc d lies in
   [0, in): [*lo, *hi). */
static void span(const geom *g, int64_t kc, int64_t *lo, int64_t *hi) {
  int64_t off = kc * g->d[2] - g->p[2], s = g->s[2], n = g->out[2];
  int64_t a = off >= 0 ? 0 : (-off + s - 1) / s;
  int64_t b = g->in[2] - 1 - off < 0 ? 0 : (g->in[2] - 1 - off) / s + 1;
  a = a < n ? a : n;
  b = b < n ? b : n;
  *lo = a;
  *hi = b > a ? b : a;
}

/* Walks the rows of one plane's columns: for each kernel offset and each output position of
   the two leading dims, the image row it reads (base: its first element's index, or -1 when
   the row lies in the padding) and the valid span of the last dim. BODY sees col (the row of
   g->out[2] values), base, lo, hi, iw0 (the image index of output position 0, may be
   negative). */
#define PLANE_WALK(PRE, BODY)                                                   \
  for (int64_t ka = 0; ka < g->k[0]; ka++)                                      \
    for (int64_t kb = 0; kb < g->k[1]; kb++)                                    \
      for (int64_t kc = 0; kc < g->k[2]; kc++) {                                \
        int64_t lo, hi, iw0 = kc * g->d[2] - g->p[2];                           \
        PRE span(g, kc, &lo, &hi);                                              \
        for (int64_t oa = 0; oa < g->out[0]; oa++) {                            \
          int64_t ia = oa * g->s[0] - g->p[0] + ka * g->d[0];                   \
          for (int64_t ob = 0; ob < g->out[1]; ob++, col += g->out[2]) {        \
            int64_t ib = ob * g->s[1] - g->p[1] + kb * g->d[1];                 \
            int64_t base = ia < 0 || ia >= g->in[0] || ib < 0 || ib >= g->in[1] \
                               ? -1                                             \
                               : (ia * g->in[1] + ib) * g->in[2];               \
            BODY                                                                \
          }                                                                     \
        }                                                                       \
      }

#define IM2COL(T)                                                                              \
  static void im2col_##T(const geom *g, const T *x, T *col) {                                  \
    int64_t s = g->s[2], n = g->out[2];                                                        \
    PLANE_WALK(                                                                                \
        ;,                                                                                     \
         if (base < 0) {                                                                       \
           memset(col, 0, (size_t)n * sizeof(T));                                              \
           continue;                                                                           \
         } for (int64_t o = 0; o < lo; o++) col[o] = 0;                                        \
        if (s == 1 && hi > lo)                                                                 \
            memcpy(col + lo, x + base + iw0 + lo, (size_t)(hi - lo) * sizeof(T));              \
        else for (int64_t o = lo; o < hi; o++) col[o] = x[base + iw0 + o * s];                 \
        for (int64_t o = hi; o < n; o++) col[o] = 0;)                                          \
  }                                                                                            \
  static void col2im_##T(const geom *g, const T *col, T *x) {                                  \
    int64_t s = g->s[2];                                                                       \
    PLANE_WALK(;, if (base < 0) continue;                                                      \
               for (int64_t o = lo; o < hi; o++) x[base + iw0 + o * s] += col[o];)             \
  }                                                                                            \
  /* A convolution whose groups have one input channel each (depthwise), without columns:      \
     y (holding the bias) += each kernel weight times the shifted plane. */                    \
  static void direct_##T(const geom *g, const T *x, const T *wk, T *y) {                       \
    int64_t s = g->s[2];                                                                       \
    T *col = y, wv = 0;                                                                        \
    PLANE_WALK(col = y; wv = *wk++;, if (base < 0) continue;                                   \
               if (s == 1) for (int64_t o = lo; o < hi; o++) col[o] += wv * x[base + iw0 + o]; \
               else for (int64_t o = lo; o < hi; o++) col[o] += wv * x[base + iw0 + o * s];)   \
  }
IM2COL(float)
IM2COL(double)

/* The 3x3 case of direct_T at stride and dilation 1 in 2-d (dw3_fits): the plane copied into a
   zero-padded buffer p ((oh + 2) x (ow + 2)), then each output row in one vector loop of its 9
   taps, added to the bias in the kernel's order as direct_T adds them (the padding's terms are
   zeros here, skipped there). */
#define DW3(T)                                                                            \
  static void dw3_##T(const geom *g, const T *x, const T *wk, T bias, T *p, T *y) {       \
    int64_t oh = g->out[1], ow = g->out[2], pw = ow + 2, w = g->in[2];                    \
    memset(p, 0, (size_t)((oh + 2) * pw) * sizeof(T));                                    \
    for (int64_t r = 0; r < g->in[1]; r++) /* h + ph <= oh + 2, w + pw <= ow + 2 */       \
      memcpy(p + (r + g->p[1]) * pw + g->p[2], x + r * w, (size_t)w * sizeof(T));         \
    T w0 = wk[0], w1 = wk[1], w2 = wk[2], w3 = wk[3], w4 = wk[4], w5 = wk[5], w6 = wk[6]; \
    T w7 = wk[7], w8 = wk[8];                                                             \
    for (int64_t i = 0; i < oh; i++) {                                                    \
      const T *restrict p0 = p + i * pw, *restrict p1 = p0 + pw, *restrict p2 = p1 + pw;  \
      T *restrict o = y + i * ow;                                                         \
      for (int64_t j = 0; j < ow; j++) {                                                  \
        T acc = bias;                                                                     \
        acc += w0 * p0[j], acc += w1 * p0[j + 1], acc += w2 * p0[j + 2];                  \
        acc += w3 * p1[j], acc += w4 * p1[j + 1], acc += w5 * p1[j + 2];                  \
        acc += w6 * p2[j], acc += w7 * p2[j + 1], acc += w8 * p2[j + 2];                  \
        o[j] = acc;                                                                       \
      }                                                                                   \
    }                                                                                     \
  }
DW3(float)
DW3(double)

/* Whether dw3_T serves g: a 2-d 3x3 kernel at stride 1 and dilation 1. */
static int dw3_fits(const geom *g) {
  return g->in[0] == 1 && g->k[0] == 1 && g->k[1] == 3 && g->k[2] == 3 && g->s[1] == 1 &&
         g->s[2] == 1 && g->d[1] == 1 && g->d[2] == 1;
}

typedef struct {
  const geom *g;
  const char *src;
  char *dst;
  int f64, back; /* float64; col2im (else im2col) */
} plane_ctx;

static int plane_piece(void *ctx, int64_t lo, int64_t hi) {
  const plane_ctx *c = ctx;
  const geom *g = c->g;
  size_t es = c->f64 ? sizeof(double) : sizeof(float);
  int64_t cs = g->ksz * g->l; /* a plane's column elements */
  for (int64_t i = lo; i < hi; i++) {
    if (c->back && c->f64)
      col2im_double(g, (const double *)(c->src + (size_t)(i * cs) * es),
                    (double *)(c->dst + (size_t)(i * g->isz) * es));
    else if (c->back)
      col2im_float(g, (const float *)(c->src + (size_t)(i * cs) * es),
                   (float *)(c->dst + (size_t)(i * g->isz) * es));
    else if (c->f64)
      im2col_double(g, (const double *)(c->src + (size_t)(i * g->isz) * es),
                    (double *)(c->dst + (size_t)(i * cs) * es));
    else
      im2col_float(g, (const float *)(c->src + (size_t)(i * g->isz) * es),
                   (float *)(c->dst + (size_t)(i * cs) * es));
  }
  return 0;
}

/* planes (N x C) planes between an image tensor and a column tensor (both contiguous, of
   dtype dt): im2col (back 0: img -> col) or col2im (back 1: col summed into img). */
static void run_planes(const geom *g, int64_t planes, lt_dtype dt, const lt_tensor *img,
                       const lt_tensor *col, int back) {
  plane_ctx c = {g, lt_data(back ? col : img), lt_data(back ? img : col), dt == LT_FLOAT64, back};
  double bytes = (double)(g->ksz * g->l + g->isz) * (dt == LT_FLOAT64 ? 8 : 4);
  if (planes > 0 && g->l > 0 && g->ksz > 0)
    lt_pool_run(planes, lt_pool_grain(planes, bytes), plane_piece, &c);
}

/* The direct convolution's planes: item n C_out + oc reads input plane n C_in + oc / mult and
   the kernel of oc; y (N, C_out, *) contiguous, b the bias or NULL. */
typedef struct {
  const geom *g;
  const char *x, *w, *b;
  char *y;
  int64_t cin, cout, mult;
  int f64;
} direct_ctx;

static int direct_piece(void *ctx, int64_t lo, int64_t hi) {
  const direct_ctx *c = ctx;
  const geom *g = c->g;
  void *pad = NULL; /* dw3's padded plane */
  if (dw3_fits(g) &&
      !(pad = malloc((size_t)((g->out[1] + 2) * (g->out[2] + 2)) * (c->f64 ? 8 : 4))))
    return 1;
  for (int64_t i = lo; i < hi; i++) {
    int64_t n = i / c->cout, oc = i % c->cout, xi = n * c->cin + oc / c->mult;
    if (c->f64) {
      const double *x = (const double *)c->x + xi * g->isz,
                   *wk = (const double *)c->w + oc * g->ksz;
      double *y = (double *)c->y + i * g->l, v = c->b ? ((const double *)c->b)[oc] : 0;
      if (pad) {
        dw3_double(g, x, wk, v, pad, y);
        continue;
      }
      for (int64_t j = 0; j < g->l; j++) y[j] = v;
      direct_double(g, x, wk, y);
    } else {
      const float *x = (const float *)c->x + xi * g->isz, *wk = (const float *)c->w + oc * g->ksz;
      float *y = (float *)c->y + i * g->l, v = c->b ? ((const float *)c->b)[oc] : 0;
      if (pad) {
        dw3_float(g, x, wk, v, pad, y);
        continue;
      }
      for (int64_t j = 0; j < g->l; j++) y[j] = v;
      direct_float(g, x, wk, y);
    }
  }
  free(pad);
  return 0;
}

/* res (N, C_out, L), new, = the direct convolution of xb (N, C_in, *) by w (C_out, 1, *) with
   its bias. */
static int run_direct(const geom *g, const lt_tensor *xb, const lt_tensor *w, const lt_tensor *bias,
                      int64_t groups, lt_dtype ct, lt_tensor **res, lt_error *err) {
  const lt_tensor *wc, *bc = NULL;
  lt_tensor *ow = NULL, *ob = NULL;
  int64_t n = xb->shape[0], cout = w->shape[0], shape[3] = {n, cout, g->l};
  int rc = lt_contiguous_as(w, ct, &wc, &ow, err);
  if (rc == LT_OK && bias) rc = lt_contiguous_as(bias, ct, &bc, &ob, err);
  if (rc == LT_OK) rc = lt_tensor_new(ct, 3, shape, 0, res, err);
  if (rc == LT_OK && n * cout * g->l > 0) {
    direct_ctx c = {
        g,    lt_data(xb),   lt_data(wc),     bc ? lt_data(bc) : NULL, lt_data(*res), xb->shape[1],
        cout, cout / groups, ct == LT_FLOAT64};
    double bytes = (double)(g->l * (g->ksz + 1) + g->isz) * (ct == LT_FLOAT64 ? 8 : 4);
    if (lt_pool_run(n * cout, lt_pool_grain(n * cout, bytes), direct_piece, &c) >= 0)
      rc = lt_fail(err, LT_ENOMEM, "not enough memory for a padded plane");
  }
  lt_tensor_free(ow);
  lt_tensor_free(ob);
  return rc;
}

/* }====== */

/* {====== shared checks and results ====== */

int lt_nn_float_type(const lt_tensor *t, const char *what, lt_dtype *ct, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc == LT_OK) rc = lt_nn_float(t, what, err);
  if (rc == LT_OK) *ct = lt_nn_compute(t->dtype);
  return rc;
}

int lt_nn_check_rank(const lt_tensor *x, int dims, lt_error *err) {
  if (x->ndim != dims && x->ndim != dims + 1)
    return lt_fail(err, LT_EARG,
                   "input: expected a %d-d (unbatched) or %d-d (batched) tensor, got %d-d", dims,
                   dims + 1, x->ndim);
  return LT_OK;
}

int lt_nn_give(lt_tensor *res, int batched, int ndim, const int64_t *shape, lt_dtype dt,
               lt_tensor **out, lt_error *err) {
  lt_tensor *v = NULL;
  int rc =
      batched ? lt_view(res, ndim, shape, &v, err) : lt_view(res, ndim - 1, shape + 1, &v, err);
  lt_tensor_free(res);
  if (rc == LT_OK && v->dtype != dt) rc = lt_cast_over(&v, dt, err);
  return lt_give(rc, v, out);
}

/* Checks that t (the argument `what`) has the dtype of the input. */
static int same_dtype(const lt_tensor *t, const lt_tensor *x, const char *what, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc == LT_OK && t->dtype != x->dtype)
    rc = lt_fail(err, LT_EARG, "%s: expected %s like input, got %s", what, lt_dtype_name(x->dtype),
                 lt_dtype_name(t->dtype));
  return rc;
}

/* The input of a function over nsp spatial dims: (N, C, *) or unbatched (C, *); sets *batched,
   and *xb: a batched, contiguous copy or view in dtype ct (*owned to free). */
static int batched_input(const lt_tensor *x, int nsp, lt_dtype ct, int *batched,
                         const lt_tensor **xb, lt_tensor **owned, lt_error *err) {
  int rc = lt_nn_check_rank(x, nsp + 1, err);
  if (rc) return rc;
  *batched = x->ndim == nsp + 2;
  int64_t shape[5];
  shape[0] = 1;
  memcpy(shape + !*batched, x->shape, (size_t)x->ndim * sizeof(int64_t));
  const lt_tensor *c;
  lt_tensor *oc = NULL, *v = NULL;
  rc = lt_contiguous_as(x, ct, &c, &oc, err);
  if (rc == LT_OK) rc = lt_view(c, nsp + 2, shape, &v, err);
  lt_tensor_free(oc);
  *owned = v;
  *xb = v;
  return rc;
}

/* Adds bias (C values, NULL: none) to res, (N, C, l) contiguous of dtype ct. */
typedef struct {
  const char *b;
  char *y;
  int64_t c, l;
  int f64;
} bias_ctx;

static int bias_piece(void *ctx, int64_t lo, int64_t hi) {
  const bias_ctx *c = ctx;
  for (int64_t r = lo; r < hi; r++) {
    int64_t ch = r % c->c;
    if (c->f64) {
      double *y = (double *)c->y + r * c->l, v = ((const double *)c->b)[ch];
      for (int64_t i = 0; i < c->l; i++) y[i] += v;
    } else {
      float *y = (float *)c->y + r * c->l, v = ((const float *)c->b)[ch];
      for (int64_t i = 0; i < c->l; i++) y[i] += v;
    }
  }
  return 0;
}

static int add_bias(lt_tensor *res, const lt_tensor *bias, int64_t n, int64_t ch, int64_t l,
                    lt_dtype ct, lt_error *err) {
  if (!bias || n * ch * l == 0) return LT_OK;
  const lt_tensor *b;
  lt_tensor *ob = NULL;
  int rc = lt_contiguous_as(bias, ct, &b, &ob, err);
  if (rc == LT_OK) {
    bias_ctx c = {lt_data(b), lt_data(res), ch, l, ct == LT_FLOAT64};
    lt_pool_run(n * ch, lt_pool_grain(n * ch, (double)l * (ct == LT_FLOAT64 ? 16 : 8)), bias_piece,
                &c);
  }
  lt_tensor_free(ob);
  return rc;
}

/* }====== */

/* {====== convolutions ====== */

/* The checks both convolutions share: dtypes, the weight's rank, groups, the bias, the size
   arguments. wch: the weight's dim that must match the channels of the input times groups
   (conv: dim 1, times groups; transposed: dim 0). */
static int conv_checks(const lt_tensor *x, const lt_tensor *w, const lt_tensor *bias,
                       const lt_conv_args *a, int transposed, lt_dtype *ct, lt_error *err) {
  int rc, nsp = a->nsp;
  if (nsp < 1 || nsp > 3) return lt_fail(err, LT_EARG, "%d spatial dims are not supported", nsp);
  if ((rc = lt_nn_float_type(x, "input", ct, err)) || (rc = same_dtype(w, x, "weight", err)) ||
      (bias && (rc = same_dtype(bias, x, "bias", err))))
    return rc;
  if ((rc = lt_nn_check_rank(x, nsp + 1, err))) return rc;
  if (w->ndim != nsp + 2)
    return lt_fail(err, LT_EARG, "weight: expected a %d-d tensor, got %d-d", nsp + 2, w->ndim);
  if ((rc = lt_nn_check_arg(a->groups, 1, "groups", err))) return rc;
  for (int i = 0; i < nsp; i++)
    if ((rc = lt_nn_check_arg(a->stride[i], 1, "stride", err)) ||
        (rc = lt_nn_check_arg(a->dilation[i], 1, "dilation", err)) ||
        (rc = lt_nn_check_arg(a->padding[i], 0, "padding", err)) ||
        (rc = lt_nn_check_arg(w->shape[2 + i], 1, "weight: kernel size", err)))
      return rc;
  int64_t cin = x->shape[x->ndim - nsp - 1], g = a->groups;
  int64_t cout = transposed ? w->shape[1] * g : w->shape[0];
  if (transposed ? cin != w->shape[0] : cin != w->shape[1] * g)
    return lt_fail(err, LT_EARG,
                   "input: expected %lld channels (weight of shape (%lld, %lld, ...) with groups "
                   "%lld), got %lld",
                   (long long)(transposed ? w->shape[0] : w->shape[1] * g), (long long)w->shape[0],
                   (long long)w->shape[1], (long long)g, (long long)cin);
  if ((transposed ? cin : cout) % g)
    return lt_fail(err, LT_EARG, "%s channels (%lld) must be divisible by groups (%lld)",
                   transposed ? "input:" : "weight: out", (long long)(transposed ? cin : cout),
                   (long long)g);
  if (bias && (bias->ndim != 1 || bias->shape[0] != cout))
    return lt_fail(err, LT_EARG, "bias: expected a 1-d tensor of %lld elements", (long long)cout);
  return LT_OK;
}

/* The weight (dims 0 and 1 as given, then the kernel) as (G, rows, cols), contiguous, in ct. */
static int weight_matrix(const lt_tensor *w, lt_dtype ct, int64_t g, int64_t rows, int64_t cols,
                         lt_tensor **out, lt_error *err) {
  const lt_tensor *c;
  lt_tensor *oc = NULL;
  int64_t shape[3] = {g, rows, cols};
  int rc = lt_contiguous_as(w, ct, &c, &oc, err);
  if (rc == LT_OK) rc = lt_view(c, 3, shape, out, err);
  lt_tensor_free(oc);
  return rc;
}

/* *res (N, G, M, L), new, = wm (G, M, K, any non-negative strides) times col (N, G, K, L),
   contiguous, both in ct: one batched lt_gemm_f32 over every image and group where
   lt_gemm_wanted says so (so a batch of small images is one job over the threads), else
   lt_matmul. */
static int product(const lt_tensor *wm, const lt_tensor *col, lt_dtype ct, lt_tensor **res,
                   lt_error *err) {
  const int64_t *ws = wm->strides;
  if (!lt_gemm_wanted(ct) || ws[0] < 0 || ws[1] < 0 || ws[2] < 0)
    return lt_matmul(wm, col, res, err);
  int64_t n = col->shape[0], gr = wm->shape[0], m = wm->shape[1], k = wm->shape[2];
  int64_t l = col->shape[3], shape[4] = {n, gr, m, l};
  int rc = lt_tensor_new(ct, 4, shape, 0, res, err);
  if (rc) return rc;
  lt_gemm_f32_args g = {.batch = n * gr,
                        .m = m,
                        .n = l,
                        .k = k,
                        .a = (const float *)lt_data(wm),
                        .na = gr,
                        .bsa = ws[0],
                        .rsa = ws[1],
                        .csa = ws[2],
                        .b = (const float *)lt_data(col),
                        .bsb = k * l,
                        .rsb = l,
                        .csb = 1,
                        .c = (float *)lt_data(*res),
                        .bsc = m * l,
                        .ldc = l,
                        .beta = 0};
  return lt_gemm_f32(&g, err);
}

/* res (N, G, C_out / G, L), new, = the weight (G, C_out / G, C_in / G x ksz) times the columns
   of xb (N, G, C_in / G x ksz, L): im2col's, or xb itself for a 1x1 kernel that reads every
   position (direct). */
static int run_product(const geom *g, const lt_tensor *xb, const lt_tensor *w, int64_t gr,
                       lt_dtype ct, int direct, lt_tensor **res, lt_error *err) {
  int64_t n = xb->shape[0], cin = xb->shape[1], cout = w->shape[0], kk;
  lt_tensor *wm = NULL, *col = NULL;
  int rc = lt_size_mul(cin / gr, g->ksz, &kk, err);
  if (rc == LT_OK) rc = weight_matrix(w, ct, gr, cout / gr, kk, &wm, err);
  if (rc == LT_OK) {
    int64_t cshape[4] = {n, gr, kk, g->l};
    if (direct)
      rc = lt_view(xb, 4, cshape, &col, err);
    else if ((rc = lt_tensor_new(ct, 4, cshape, 0, &col, err)) == LT_OK)
      run_planes(g, n * cin, ct, xb, col, 0);
  }
  if (rc == LT_OK) rc = product(wm, col, ct, res, err);
  lt_tensor_free(wm);
  lt_tensor_free(col);
  return rc;
}

int lt_conv(const lt_tensor *x, const lt_tensor *w, const lt_tensor *bias, const lt_conv_args *a,
            lt_tensor **out, lt_error *err) {
  lt_dtype ct;
  int rc = conv_checks(x, w, bias, a, 0, &ct, err), nsp = a->nsp, batched;
  if (rc) return rc;
  if (a->same)
    for (int i = 0; i < nsp; i++)
      if (a->stride[i] != 1)
        return lt_fail(err, LT_EARG, "padding 'same' is not supported for strided convolutions");
  geom g;
  int64_t phi[3] = {0, 0, 0};
  geom_init(&g);
  for (int i = 0, j = 3 - nsp; i < nsp; i++, j++) {
    g.in[j] = x->shape[x->ndim - nsp + i];
    g.k[j] = w->shape[2 + i];
    g.s[j] = a->stride[i];
    g.d[j] = a->dilation[i];
    int64_t total = g.d[j] * (g.k[j] - 1);
    g.p[j] = a->same ? total / 2 : a->padding[i];
    phi[j] = a->same ? total - total / 2 : a->padding[i];
  }
  if ((rc = geom_out(&g, nsp, phi, err))) return rc;
  const lt_tensor *xb;
  lt_tensor *xo = NULL, *res = NULL;
  if ((rc = batched_input(x, nsp, ct, &batched, &xb, &xo, err))) return rc;
  int64_t n = xb->shape[0], cout = w->shape[0];
  int direct = g.ksz == 1 && g.l == g.isz && g.p[0] + g.p[1] + g.p[2] == 0;
  if (xb->shape[1] == a->groups && !direct) /* one input channel a group: no columns */
    rc = run_direct(&g, xb, w, bias, a->groups, ct, &res, err);
  else if (nsp == 2 && lt_winograd_fits(xb->shape[1], cout, g.k + 1, g.s + 1, g.d + 1, a->groups)) {
    rc = lt_winograd(xb, w, bias, ct, g.p[1], g.p[2], g.out[1], g.out[2], &res, err);
  } else if ((rc = run_product(&g, xb, w, a->groups, ct, direct, &res, err)) == LT_OK)
    rc = add_bias(res, bias, n, cout, g.l, ct, err);
  lt_tensor_free(xo);
  if (rc) {
    lt_tensor_free(res);
    return rc;
  }
  int64_t shape[5] = {n, cout};
  for (int i = 0; i < nsp; i++) shape[2 + i] = g.out[3 - nsp + i];
  return lt_nn_give(res, batched, nsp + 2, shape, x->dtype, out, err);
}

/* The transposed convolution's geometry: the conv from its output (g.in) to its input (g.out). */
static int transposed_geom(const lt_tensor *x, const lt_tensor *w, const lt_conv_args *a, geom *g,
                           lt_error *err) {
  int nsp = a->nsp, rc;
  geom_init(g);
  for (int i = 0, j = 3 - nsp; i < nsp; i++, j++) {
    int64_t in = x->shape[x->ndim - nsp + i], op = a->output_padding[i];
    g->k[j] = w->shape[2 + i];
    g->s[j] = a->stride[i];
    g->d[j] = a->dilation[i];
    g->p[j] = a->padding[i];
    g->out[j] = in;
    if ((rc = lt_nn_check_arg(op, 0, "output_padding", err))) return rc;
    if (op >= g->s[j] && op >= g->d[j])
      return lt_fail(err, LT_EARG,
                     "output_padding (%lld) must be smaller than either stride (%lld) or dilation "
                     "(%lld)",
                     (long long)op, (long long)g->s[j], (long long)g->d[j]);
    /* (in - 1) s - 2 p + d (k - 1) + op + 1, each term below 2^33 */
    int64_t size = 0;
    if (in > 0 && (rc = lt_size_mul(in - 1, g->s[j], &size, err))) return rc;
    if (size > ((int64_t)1 << 62))
      return lt_fail(err, LT_ERANGE, "output size %lld x %lld is too large", (long long)in,
                     (long long)g->s[j]);
    size += g->d[j] * (g->k[j] - 1) + op + 1 - 2 * g->p[j];
    if (size <= 0 || in == 0) {
      char b[96];
      int64_t sizes[3] = {1, 1, 1};
      for (int m = 0; m < nsp; m++) sizes[3 - nsp + m] = x->shape[x->ndim - nsp + m];
      return lt_fail(err, LT_EARG, "input: the output size for input size (%s) is not positive",
                     dims_str(sizes, nsp, b, sizeof b));
    }
    g->in[j] = size;
  }
  return geom_sizes(g, err);
}

int lt_conv_transpose(const lt_tensor *x, const lt_tensor *w, const lt_tensor *bias,
                      const lt_conv_args *a, lt_tensor **out, lt_error *err) {
  lt_dtype ct;
  int rc = conv_checks(x, w, bias, a, 1, &ct, err), nsp = a->nsp, batched;
  geom g;
  if (rc || (rc = transposed_geom(x, w, a, &g, err))) return rc;
  const lt_tensor *xb;
  lt_tensor *xo = NULL, *wm = NULL, *wt = NULL, *xm = NULL, *cols = NULL, *res = NULL;
  if ((rc = batched_input(x, nsp, ct, &batched, &xb, &xo, err))) return rc;
  int64_t n = xb->shape[0], cin = xb->shape[1], gr = a->groups, cig = cin / gr;
  int64_t cout = w->shape[1] * gr, kk;
  int64_t shape[5] = {n, cout};
  for (int i = 0; i < nsp; i++) shape[2 + i] = g.in[3 - nsp + i];
  int64_t xshape[4] = {n, gr, cig, g.l};
  /* columns (N, G, C_out / G x ksz, L) = weight^T (G, C_out / G x ksz, C_in / G) x */
  if ((rc = lt_size_mul(w->shape[1], g.ksz, &kk, err)) == LT_OK &&
      (rc = weight_matrix(w, ct, gr, cig, kk, &wm, err)) == LT_OK &&
      (rc = lt_transpose(wm, 1, 2, &wt, err)) == LT_OK &&
      (rc = lt_view(xb, 4, xshape, &xm, err)) == LT_OK &&
      (rc = product(wt, xm, ct, &cols, err)) == LT_OK &&
      (rc = lt_tensor_new(ct, nsp + 2, shape, 1, &res, err)) == LT_OK)
    run_planes(&g, n * cout, ct, res, cols, 1);
  lt_tensor_free(xo);
  lt_tensor_free(wm);
  lt_tensor_free(wt);
  lt_tensor_free(xm);
  lt_tensor_free(cols);
  if (rc == LT_OK) rc = add_bias(res, bias, n, cout, g.isz, ct, err);
  if (rc) {
    lt_tensor_free(res);
    return rc;
  }
  return lt_nn_give(res, batched, nsp + 2, shape, x->dtype, out, err);
}

/* }====== */

/* {====== unfold and fold ====== */

/* The 2-d geometry of unfold/fold over an image of size hw; LT_EARG naming bad arguments. */
static int fold_geom(const int64_t *hw, const int64_t *kernel, const int64_t *dilation,
                     const int64_t *padding, const int64_t *stride, geom *g, lt_error *err) {
  int rc;
  geom_init(g);
  for (int i = 0; i < 2; i++) {
    if ((rc = lt_nn_check_arg(kernel[i], 1, "kernel_size", err)) ||
        (rc = lt_nn_check_arg(dilation[i], 1, "dilation", err)) ||
        (rc = lt_nn_check_arg(padding[i], 0, "padding", err)) ||
        (rc = lt_nn_check_arg(stride[i], 1, "stride", err)))
      return rc;
    g->in[1 + i] = hw[i];
    g->k[1 + i] = kernel[i];
    g->d[1 + i] = dilation[i];
    g->p[1 + i] = padding[i];
    g->s[1 + i] = stride[i];
  }
  return geom_out(g, 2, g->p, err);
}

int lt_unfold(const lt_tensor *x, const int64_t *kernel, const int64_t *dilation,
              const int64_t *padding, const int64_t *stride, lt_tensor **out, lt_error *err) {
  lt_dtype ct;
  int rc = lt_nn_float_type(x, "input", &ct, err), batched;
  if (rc) return rc;
  if ((rc = lt_nn_check_rank(x, 3, err))) return rc;
  geom g;
  if ((rc = fold_geom(x->shape + x->ndim - 2, kernel, dilation, padding, stride, &g, err)))
    return rc;
  const lt_tensor *xb;
  lt_tensor *xo = NULL, *col = NULL;
  if ((rc = batched_input(x, 2, ct, &batched, &xb, &xo, err))) return rc;
  int64_t shape[3] = {xb->shape[0], 0, g.l};
  if ((rc = lt_size_mul(xb->shape[1], g.ksz, &shape[1], err)) == LT_OK &&
      (rc = lt_tensor_new(ct, 3, shape, 0, &col, err)) == LT_OK)
    run_planes(&g, shape[0] * xb->shape[1], ct, xb, col, 0);
  lt_tensor_free(xo);
  if (rc) return rc;
  return lt_nn_give(col, batched, 3, shape, x->dtype, out, err);
}

int lt_fold(const lt_tensor *x, const int64_t *output_size, const int64_t *kernel,
            const int64_t *dilation, const int64_t *padding, const int64_t *stride, lt_tensor **out,
            lt_error *err) {
  lt_dtype ct;
  int rc = lt_nn_float_type(x, "input", &ct, err), batched;
  if (rc) return rc;
  if ((rc = lt_nn_check_rank(x, 2, err))) return rc;
  geom g;
  for (int i = 0; i < 2; i++)
    if ((rc = lt_nn_check_arg(output_size[i], 1, "output_size", err))) return rc;
  if ((rc = fold_geom(output_size, kernel, dilation, padding, stride, &g, err))) return rc;
  int64_t rows = x->shape[x->ndim - 2], l = x->shape[x->ndim - 1];
  if (rows % g.ksz)
    return lt_fail(err, LT_EARG,
                   "input: size of dim %d (%lld) must be divisible by the product of kernel_size "
                   "(%lld)",
                   x->ndim - 1, (long long)rows, (long long)g.ksz);
  if (l != g.l)
    return lt_fail(err, LT_EARG,
                   "input: size of dim %d (%lld) must match the number of sliding blocks (%lld x "
                   "%lld = %lld)",
                   x->ndim, (long long)l, (long long)g.out[1], (long long)g.out[2], (long long)g.l);
  const lt_tensor *xb;
  lt_tensor *xo = NULL, *res = NULL;
  if ((rc = batched_input(x, 1, ct, &batched, &xb, &xo, err))) return rc;
  int64_t shape[4] = {xb->shape[0], rows / g.ksz, output_size[0], output_size[1]};
  if ((rc = lt_tensor_new(ct, 4, shape, 1, &res, err)) == LT_OK)
    run_planes(&g, shape[0] * shape[1], ct, res, xb, 1);
  lt_tensor_free(xo);
  if (rc) return rc;
  return lt_nn_give(res, batched, 4, shape, x->dtype, out, err);
}

/* }====== */
