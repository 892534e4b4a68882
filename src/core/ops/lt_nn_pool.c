/*
 * lt_nn_pool.c -- max, average and adaptive pooling (see lt_nn_pool.h). Lua-free.
 *
 * The input is made batched and contiguous in its computation dtype, then each (N, C) plane of
 * H x W (H = 1 for 1-d pools) is one item of the worker pool. Windows follow torch's CPU
 * kernels: a max window starts at its first in-range element and takes a later one when it is
 * larger or NaN; an average divides its window's sum by the window (padding included or not)
 * or the divisor given. Averages sum by rows (avg_rows_T: a window's input rows added as
 * vectors, then its columns), in float32 for float32 as torch does, and in double for float64
 * and for float32 windows above AVG_F32_MAX elements (plane_float).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_nn_conv.h"
#include "lt_nn_pool.h"
#include "lt_pool.h"

enum { P_MAX, P_AVG, P_AMAX, P_AAVG };

typedef struct avg_cols avg_cols;

typedef struct {
  int kind, f64, cip;
  int64_t in[2], out[2], k[2], s[2], p[2], d[2], div;
  const char *x;
  char *y;
  int64_t *idx;         /* NULL: no indices */
  const avg_cols *cols; /* average pools by rows: their column windows; NULL: not by rows */
} pool_ctx;

/* The window of output position o along dim i: [*lo, *hi) in the input, step *st; *n the
   average's divisor where padding counts. */
static void window(const pool_ctx *c, int i, int64_t o, int64_t *lo, int64_t *hi, int64_t *st,
                   int64_t *n) {
  int64_t in = c->in[i];
  *st = 1;
  if (c->kind == P_AMAX || c->kind == P_AAVG) {
    *lo = o * in / c->out[i];
    *hi = ((o + 1) * in + c->out[i] - 1) / c->out[i];
    *n = *hi - *lo;
  } else if (c->kind == P_AVG) {
    int64_t a = o * c->s[i] - c->p[i], b = a + c->k[i];
    b = b < in + c->p[i] ? b : in + c->p[i];
    *n = b - a;
    *lo = a > 0 ? a : 0;
    *hi = b < in ? b : in;
  } else { /* max: the dilated window's in-range elements */
    int64_t a = o * c->s[i] - c->p[i], d = c->d[i], b = a + (c->k[i] - 1) * d + 1;
    while (a < 0) a += d;
    *lo = a;
    *hi = b < in ? b : in;
    *st = d;
  }
}

#define POOL_PLANE(T)                                                       \
  static void plane_##T(const pool_ctx *c, const T *x, T *y, int64_t *ix) { \
    int64_t w = c->in[1];                                                   \
    for (int64_t oh = 0; oh < c->out[0]; oh++) {                            \
      int64_t h0, h1, hs, hn;                                               \
      window(c, 0, oh, &h0, &h1, &hs, &hn);                                 \
      for (int64_t ow = 0; ow < c->out[1]; ow++, y++) {                     \
        int64_t w0, w1, ws, wn;                                             \
        window(c, 1, ow, &w0, &w1, &ws, &wn);                               \
        if (c->kind == P_MAX || c->kind == P_AMAX) {                        \
          int64_t at = h0 * w + w0;                                         \
          T m = -(T)INFINITY;                                               \
          for (int64_t h = h0; h < h1; h += hs)                             \
            for (int64_t v = w0; v < w1; v += ws) {                         \
              T e = x[h * w + v];                                           \
              if (e > m || e != e) m = e, at = h * w + v;                   \
            }                                                               \
          *y = m;                                                           \
          if (ix) *ix++ = at + 1;                                           \
        } else {                                                            \
          double s = 0;                                                     \
          for (int64_t h = h0; h < h1; h++)                                 \
            for (int64_t v = w0; v < w1; v++) s += x[h * w + v];            \
          int64_t n = c->div                       ? c->div                 \
                      : c->cip && c->kind == P_AVG ? hn * wn                \
                                                   : (h1 - h0) * (w1 - w0); \
          *y = h0 >= h1 || w0 >= w1 ? (T)0 : (T)(s / (double)n);            \
        }                                                                   \
      }                                                                     \
    }                                                                       \
  }
POOL_PLANE(float)
POOL_PLANE(double)

/* 2x2 windows at stride 2, no padding or dilation: the common downsampling, without the
   window arithmetic (same choice of maximum). */
#define MAX2X2(T)                                                                         \
  static void max2x2_##T(const pool_ctx *c, const T *x, T *y, int64_t *ix) {              \
    int64_t w = c->in[1];                                                                 \
    for (int64_t oh = 0; oh < c->out[0]; oh++) {                                          \
      const T *r0 = x + 2 * oh * w, *r1 = r0 + w;                                         \
      for (int64_t ow = 0; ow < c->out[1]; ow++) {                                        \
        T a = r0[2 * ow], b = r0[2 * ow + 1], d = r1[2 * ow], e = r1[2 * ow + 1];         \
        T m = a;                                                                          \
        int k = 0;                                                                        \
        if (b > m || b != b) m = b, k = 1;                                                \
        if (d > m || d != d) m = d, k = 2;                                                \
        if (e > m || e != e) m = e, k = 3;                                                \
        y[oh * c->out[1] + ow] = m;                                                       \
        if (ix) ix[oh * c->out[1] + ow] = (2 * oh + (k >> 1)) * w + 2 * ow + (k & 1) + 1; \
      }                                                                                   \
    }                                                                                     \
  }
MAX2X2(float)
MAX2X2(double)

/* The same without indices: the value only (NaN when a window holds one, else its maximum),
   by selects without branches that vectorize; random data made the branches above mispredict
   about once a window. */
#define MAX2X2_VALUES(T)                                                                           \
  static T max_##T(T a, T b) {                                                                     \
    T m = b > a ? b : a;                                                                           \
    return b != b ? b : m;                                                                         \
  }                                                                                                \
  static void max2x2v_##T(const pool_ctx *c, const T *x, T *y) {                                   \
    int64_t w = c->in[1], n = c->out[1];                                                           \
    for (int64_t oh = 0; oh < c->out[0]; oh++, y += n) {                                           \
      const T *r0 = x + 2 * oh * w, *r1 = r0 + w;                                                  \
      for (int64_t ow = 0; ow < n; ow++)                                                           \
        y[ow] = max_##T(max_##T(r0[2 * ow], r0[2 * ow + 1]), max_##T(r1[2 * ow], r1[2 * ow + 1])); \
    }                                                                                              \
  }
MAX2X2_VALUES(float)
MAX2X2_VALUES(double)

/* {====== average pools by rows ======} */

/* The largest window (elements) summed in float32 for a float32 pool; larger ones sum in double
   (plane_float). */
#define AVG_F32_MAX 4096
/* Scratch on the stack (doubles) for a piece's row and window sums; more is allocated. */
#define AVG_STACK 1024

/* The column windows of an average pool, the same for every plane: output ow sums
   r[lo[ow], hi[ow]) of a row of window sums and divides by cf[ow] (its width, padding counted
   or not; 1 for an empty window) times the rows' count. [oa, ob): the outputs whose avg_pool
   window lies whole in the row (empty for adaptive pools), summed with vector adds. */
struct avg_cols {
  int32_t *lo, *hi, *cf;
  int64_t oa, ob;
};

/* The plane of an average pool: each output row first sums its window's input rows into one row
   (vector adds over contiguous runs), then sums each window's columns of that row into sum (the
   windows whole in the row, [oa, ob), with vector adds of strided runs, one kernel column at a
   time), then divides them all. A 2-wide window at stride 2 without padding (avg_pool2d(x, 2)'s)
   adds neighbours pairwise over the whole row, and with 2 input rows adds its four elements in
   torch's order, ((r0 + r0') + r1) + r1'. Sums in T as torch's kernel does, with fewer
   roundings a window (about kh + kw against torch's kh kw). */
#define AVG_ROWS(T)                                                                             \
  static void avg_rows_##T(const pool_ctx *c, T *acc, T *sum, const T *x, T *y) {               \
    const avg_cols *k = c->cols;                                                                \
    int64_t w = c->in[1], n = c->out[1];                                                        \
    int pairs = c->kind == P_AVG && c->k[1] == 2 && c->s[1] == 2 && c->p[1] == 0 && 2 * n <= w; \
    for (int64_t oh = 0; oh < c->out[0]; oh++, y += n) {                                        \
      int64_t h0, h1, hs, hn;                                                                   \
      window(c, 0, oh, &h0, &h1, &hs, &hn);                                                     \
      int64_t rows = h1 - h0, cnt = c->cip && c->kind == P_AVG ? hn : rows;                     \
      if (rows <= 0) { /* no input row in the window (torch's checks leave none such) */        \
        for (int64_t o = 0; o < n; o++) y[o] = 0;                                               \
        continue;                                                                               \
      }                                                                                         \
      const T *r = x + h0 * w, *r1 = r + w;                                                     \
      T d = (T)(c->div ? c->div : 2 * cnt); /* the pairs' divisor */                            \
      if (pairs && rows == 2) {                                                                 \
        for (int64_t o = 0; o < n; o++)                                                         \
          y[o] = (((r[2 * o] + r[2 * o + 1]) + r1[2 * o]) + r1[2 * o + 1]) / d;                 \
        continue;                                                                               \
      }                                                                                         \
      if (rows > 1) {                                                                           \
        T *a = acc;                                                                             \
        for (int64_t v = 0; v < w; v++) a[v] = r[v] + r1[v];                                    \
        for (int64_t h = h0 + 2; h < h1; h++) {                                                 \
          const T *rh = x + h * w;                                                              \
          for (int64_t v = 0; v < w; v++) a[v] += rh[v];                                        \
        }                                                                                       \
        r = a;                                                                                  \
      }                                                                                         \
      if (pairs) {                                                                              \
        for (int64_t o = 0; o < n; o++) y[o] = (r[2 * o] + r[2 * o + 1]) / d;                   \
        continue;                                                                               \
      }                                                                                         \
      for (int64_t o = 0; o < n; o++) {                                                         \
        if (o == k->oa) o = k->ob;                                                              \
        if (o == n) break;                                                                      \
        T t = 0;                                                                                \
        for (int64_t v = k->lo[o]; v < k->hi[o]; v++) t += r[v];                                \
        sum[o] = t;                                                                             \
      }                                                                                         \
      if (k->ob > k->oa) { /* sums over j of ra[o sw + j], the window's order */                \
        const T *ra = r + k->lo[k->oa];                                                         \
        T *sa = sum + k->oa;                                                                    \
        int64_t sw = c->s[1], m = k->ob - k->oa;                                                \
        for (int64_t o = 0; o < m; o++) sa[o] = ra[o * sw];                                     \
        for (int64_t j = 1; j < c->k[1]; j++)                                                   \
          for (int64_t o = 0; o < m; o++) sa[o] += ra[o * sw + j];                              \
      }                                                                                         \
      if (c->div) {                                                                             \
        for (int64_t o = 0; o < n; o++) y[o] = sum[o] / (T)c->div;                              \
      } else { /* (T)cnt * cf[o] is the integer divisor exactly: below 2^24 for float32 */      \
        T f = (T)cnt;                                                                           \
        for (int64_t o = 0; o < n; o++) y[o] = sum[o] / (f * (T)k->cf[o]);                      \
      }                                                                                         \
    }                                                                                           \
  }
AVG_ROWS(float)
AVG_ROWS(double)

/* Whether the row sums take c: an average pool of float64, or of float32 whose windows hold at
   most AVG_F32_MAX elements, with a padded width that fits the column windows' int32. */
static int avg_rows_take(const pool_ctx *c) {
  if ((c->kind != P_AVG && c->kind != P_AAVG) || c->in[1] > INT32_MAX ||
      c->p[1] > (INT32_MAX - c->in[1]) / 2)
    return 0;
  if (c->f64) return 1;
  int64_t kh = c->k[0], kw = c->k[1];
  if (c->kind == P_AAVG) /* an adaptive window spans at most ceil(in / out) + 1 */
    kh = c->in[0] / c->out[0] + 2, kw = c->in[1] / c->out[1] + 2;
  return kh <= AVG_F32_MAX && kw <= AVG_F32_MAX && kh * kw <= AVG_F32_MAX;
}

/* The column windows of the average pool c into k, its arrays in buf (3 out[1] int32); k. */
static const avg_cols *avg_cols_init(const pool_ctx *c, int32_t *buf, avg_cols *k) {
  int64_t n = c->out[1];
  *k = (avg_cols){buf, buf + n, buf + 2 * n, 0, 0};
  for (int64_t o = 0; o < n; o++) {
    int64_t w0, w1, ws, wn = 0;
    window(c, 1, o, &w0, &w1, &ws, &wn);
    k->lo[o] = (int32_t)w0, k->hi[o] = (int32_t)w1;
    k->cf[o] = w1 <= w0 ? 1 : (int32_t)(c->cip && c->kind == P_AVG ? wn : w1 - w0);
    int whole = c->kind == P_AVG && o * c->s[1] - c->p[1] >= 0 && w1 - w0 == c->k[1];
    if (whole && k->ob == k->oa)
      k->oa = o, k->ob = o + 1;
    else if (whole && k->ob == o)
      k->ob = o + 1;
  }
  return k;
}

/* Planes lo..hi-1 of the average pool c by rows; 0, or -1 when its scratch could not be had
   (the caller then takes plane_T). */
static int avg_rows_planes(const pool_ctx *c, int64_t lo, int64_t hi) {
  int64_t w = c->in[1], n = c->out[1];
  size_t esz = c->f64 ? sizeof(double) : sizeof(float), bytes = (size_t)(w + n) * esz;
  double stack[AVG_STACK];
  char *buf = bytes <= sizeof stack ? (char *)stack : malloc(bytes), *sum;
  if (!buf) return -1;
  sum = buf + (size_t)w * esz;
  for (int64_t i = lo; i < hi; i++)
    if (c->f64)
      avg_rows_double(c, (double *)(void *)buf, (double *)(void *)sum,
                      (const double *)c->x + i * c->in[0] * w, (double *)c->y + i * c->out[0] * n);
    else
      avg_rows_float(c, (float *)(void *)buf, (float *)(void *)sum,
                     (const float *)c->x + i * c->in[0] * w, (float *)c->y + i * c->out[0] * n);
  if (buf != (char *)stack) free(buf);
  return 0;
}

/* }====== */

static int pool_piece(void *ctx, int64_t lo, int64_t hi) {
  const pool_ctx *c = ctx;
  int64_t isz = c->in[0] * c->in[1], osz = c->out[0] * c->out[1];
  int fast = c->kind == P_MAX && c->k[0] == 2 && c->k[1] == 2 && c->s[0] == 2 && c->s[1] == 2 &&
             c->p[0] == 0 && c->p[1] == 0 && c->d[0] == 1 && c->d[1] == 1 &&
             2 * c->out[0] <= c->in[0] && 2 * c->out[1] <= c->in[1];
  if (c->cols && avg_rows_planes(c, lo, hi) == 0) return 0;
  for (int64_t i = lo; i < hi; i++) {
    int64_t *ix = c->idx ? c->idx + i * osz : NULL;
    if (c->f64) {
      const double *x = (const double *)c->x + i * isz;
      double *y = (double *)c->y + i * osz;
      if (fast && !ix)
        max2x2v_double(c, x, y);
      else
        fast ? max2x2_double(c, x, y, ix) : plane_double(c, x, y, ix);
    } else {
      const float *x = (const float *)c->x + i * isz;
      float *y = (float *)c->y + i * osz;
      if (fast && !ix)
        max2x2v_float(c, x, y);
      else
        fast ? max2x2_float(c, x, y, ix) : plane_float(c, x, y, ix);
    }
  }
  return 0;
}

/* Runs the pool c (kind, windows and output sizes set) over x (nsp spatial dims), making the
   result and, when indices is not NULL, the indices. */
static int run_pool(pool_ctx *c, const lt_tensor *x, int nsp, lt_tensor **out, lt_tensor **indices,
                    lt_error *err) {
  lt_dtype ct;
  int rc = lt_nn_float_type(x, "input", &ct, err), batched;
  if (rc) return rc;
  batched = x->ndim == nsp + 2;
  int64_t shape[4] = {1};
  memcpy(shape + !batched, x->shape, (size_t)x->ndim * sizeof(int64_t));
  int64_t planes = shape[0] * shape[1];
  shape[2] = c->out[0];
  shape[nsp + 1] = c->out[1];
  const lt_tensor *xc;
  lt_tensor *xo = NULL, *res = NULL, *ix = NULL;
  if ((rc = lt_contiguous_as(x, ct, &xc, &xo, err)) == LT_OK &&
      (rc = lt_tensor_new(ct, nsp + 2, shape, 0, &res, err)) == LT_OK && indices)
    rc = lt_tensor_new(LT_INT64, nsp + 2, shape, 0, &ix, err);
  if (rc == LT_OK && planes > 0 && c->out[0] * c->out[1] > 0) {
    c->f64 = ct == LT_FLOAT64;
    c->x = lt_data(xc);
    c->y = lt_data(res);
    c->idx = ix ? (int64_t *)lt_data(ix) : NULL;
    double bytes =
        (double)(c->in[0] * c->in[1] + c->out[0] * c->out[1] * (ix ? 3 : 1)) * (c->f64 ? 8 : 4);
    avg_cols cols; /* no memory for the windows: the pool runs as plane_T */
    int32_t *cw = avg_rows_take(c) ? malloc((size_t)c->out[1] * 3 * sizeof(int32_t)) : NULL;
    c->cols = cw ? avg_cols_init(c, cw, &cols) : NULL;
    lt_pool_run(planes, lt_pool_grain(planes, bytes), pool_piece, c);
    free(cw);
  }
  lt_tensor_free(xo);
  if (rc) {
    lt_tensor_free(res);
    lt_tensor_free(ix);
    return rc;
  }
  if ((rc = lt_nn_give(res, batched, nsp + 2, shape, x->dtype, out, err))) {
    lt_tensor_free(ix);
    return rc;
  }
  if (indices && (rc = lt_nn_give(ix, batched, nsp + 2, shape, LT_INT64, indices, err))) {
    lt_tensor_free(*out);
    *out = NULL;
  }
  return rc;
}

/* The input's rank, and its spatial sizes into c->in (1-d: height 1). */
static int pool_input(const lt_tensor *x, int nsp, pool_ctx *c, lt_error *err) {
  if (nsp < 1 || nsp > 2) return lt_fail(err, LT_EARG, "%d spatial dims are not supported", nsp);
  int rc = lt_nn_check_rank(x, nsp + 1, err);
  if (rc) return rc;
  c->in[0] = nsp == 2 ? x->shape[x->ndim - 2] : 1;
  c->in[1] = x->shape[x->ndim - 1];
  for (int i = x->ndim - nsp - 1; i < x->ndim; i++)
    if (x->shape[i] == 0)
      return lt_fail(err, LT_EARG,
                     "input: expected non-zero sizes except the batch's, got size 0 at dim %d",
                     i + 1);
  return LT_OK;
}

/* The windows of max_pool / avg_pool from a and the output sizes, torch's
   pooling_output_shape. */
static int pool_windows(const lt_pool_args *a, pool_ctx *c, lt_error *err) {
  int nsp = a->nsp, rc;
  for (int j = 0; j < 2; j++) c->k[j] = c->s[j] = c->d[j] = 1, c->p[j] = 0;
  for (int i = 0, j = 2 - nsp; i < nsp; i++, j++) {
    if ((rc = lt_nn_check_arg(a->kernel[i], 1, "kernel_size", err)) ||
        (rc = lt_nn_check_arg(a->stride[i], 1, "stride", err)) ||
        (rc = lt_nn_check_arg(a->padding[i], 0, "padding", err)) ||
        (rc = lt_nn_check_arg(a->dilation[i], 1, "dilation", err)))
      return rc;
    c->k[j] = a->kernel[i], c->s[j] = a->stride[i], c->p[j] = a->padding[i];
    c->d[j] = a->dilation[i];
    if (c->p[j] > c->k[j] / 2)
      return lt_fail(err, LT_EARG,
                     "padding should be at most half of kernel_size, got padding %lld and "
                     "kernel_size %lld",
                     (long long)c->p[j], (long long)c->k[j]);
    int64_t num =
        c->in[j] + 2 * c->p[j] - c->d[j] * (c->k[j] - 1) - 1 + (a->ceil_mode ? c->s[j] - 1 : 0);
    int64_t o = (num >= 0 ? num / c->s[j] : -((-num + c->s[j] - 1) / c->s[j])) + 1;
    if (a->ceil_mode && o > 0 && (o - 1) * c->s[j] >= c->in[j] + c->p[j]) o--;
    if (o < 1)
      return lt_fail(err, LT_EARG,
                     "input: output size %lld is too small for input size %lld (kernel_size %lld, "
                     "padding %lld)",
                     (long long)o, (long long)c->in[j], (long long)c->k[j], (long long)c->p[j]);
    c->out[j] = o;
  }
  if (nsp == 1) c->out[0] = 1;
  return LT_OK;
}

int lt_max_pool(const lt_tensor *x, const lt_pool_args *a, lt_tensor **out, lt_tensor **indices,
                lt_error *err) {
  pool_ctx c = {.kind = P_MAX};
  int rc;
  if ((rc = pool_input(x, a->nsp, &c, err)) || (rc = pool_windows(a, &c, err))) return rc;
  return run_pool(&c, x, a->nsp, out, indices, err);
}

int lt_avg_pool(const lt_tensor *x, const lt_pool_args *a, lt_tensor **out, lt_error *err) {
  pool_ctx c = {.kind = P_AVG, .cip = a->count_include_pad, .div = a->divisor_override};
  lt_pool_args b = *a;
  int rc;
  b.dilation[0] = b.dilation[1] = 1;
  if (a->divisor_override < 0) return lt_fail(err, LT_EARG, "divisor_override must be positive");
  if ((rc = pool_input(x, a->nsp, &c, err)) || (rc = pool_windows(&b, &c, err))) return rc;
  return run_pool(&c, x, a->nsp, out, NULL, err);
}

int lt_adaptive_pool(int max, const lt_tensor *x, int nsp, const int64_t *output_size,
                     lt_tensor **out, lt_tensor **indices, lt_error *err) {
  pool_ctx c = {.kind = max ? P_AMAX : P_AAVG};
  int rc = pool_input(x, nsp, &c, err);
  if (rc) return rc;
  c.out[0] = 1;
  for (int i = 0, j = 2 - nsp; i < nsp; i++, j++) {
    if ((rc = lt_nn_check_arg(output_size[i], 0, "output_size", err))) return rc;
    c.out[j] = output_size[i];
  }
  return run_pool(&c, x, nsp, out, max ? indices : NULL, err);
}
