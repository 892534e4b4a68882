/*
 * lt_nn_resize.c -- pad and interpolate (see lt_nn_resize.h). Lua-free.
 *
 * A pass resamples one dim of a contiguous tensor seen as (outer, in, inner) into (outer, out,
 * inner): output position o is the sum of k taps w[o k + t] x[idx[o k + t]] (interpolate, in
 * the computation dtype; whole rows per item along the last dim, rows of inner elements per
 * item along the others), or the copy of one position map[o] (pad, any dtype, elements moved
 * as bytes; so is nearest interpolation of a non-float dtype, which torch allows for uint8).
 * Positions follow torch's CPU kernels: nearest in float (floorf(o * scale)), the
 * linear and cubic source index (o + 0.5) scale - 0.5 (linear clamped at 0), cubic weights of
 * A = -0.75 with taps clamped to the edge, area the bins of adaptive average pooling; with
 * antialias, torch's (and Pillow's) filters stretched over the input positions an output
 * covers when downsampling, normalized per output position.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_nn_norm.h"
#include "lt_nn_resize.h"
#include "lt_pool.h"

/* {====== passes ====== */

typedef struct {
  const char *x;
  char *y;
  int64_t in, out, inner, k, es;
  const int64_t *idx; /* k per output position (pad: one) */
  const void *w;      /* k per output position in the computation dtype (pad: none) */
} pass_ctx;

/* Items [lo, hi): with inner 1 whole rows (outer positions), each output position a sum of k
   gathered taps; else (outer, output position) pairs, each a row of inner elements. */
#define TAPS_FN(NAME, T)                                                           \
  static int NAME(void *vc, int64_t lo, int64_t hi) {                              \
    const pass_ctx *c = vc;                                                        \
    const int64_t inner = c->inner, k = c->k, out = c->out;                        \
    const int64_t *idx = c->idx;                                                   \
    const T *w = c->w;                                                             \
    if (inner == 1) {                                                              \
      for (int64_t r = lo; r < hi; r++) {                                          \
        const T *x = (const T *)(const void *)c->x + r * c->in;                    \
        T *y = (T *)(void *)c->y + r * out;                                        \
        if (k == 2)                                                                \
          for (int64_t o = 0; o < out; o++)                                        \
            y[o] = w[2 * o] * x[idx[2 * o]] + w[2 * o + 1] * x[idx[2 * o + 1]];    \
        else                                                                       \
          for (int64_t o = 0; o < out; o++) {                                      \
            T s = w[o * k] * x[idx[o * k]];                                        \
            for (int64_t t = 1; t < k; t++) s += w[o * k + t] * x[idx[o * k + t]]; \
            y[o] = s;                                                              \
          }                                                                        \
      }                                                                            \
      return 0;                                                                    \
    }                                                                              \
    for (int64_t it = lo; it < hi; it++) {                                         \
      int64_t o = it % out;                                                        \
      const T *x = (const T *)(const void *)c->x + (it / out) * c->in * inner;     \
      T *y = (T *)(void *)c->y + it * inner;                                       \
      const int64_t *ix = idx + o * k;                                             \
      const T *wo = w + o * k, *x0 = x + ix[0] * inner, w0 = wo[0];                \
      if (k == 2) {                                                                \
        const T *x1 = x + ix[1] * inner, w1 = wo[1];                               \
        for (int64_t j = 0; j < inner; j++) y[j] = w0 * x0[j] + w1 * x1[j];        \
        continue;                                                                  \
      }                                                                            \
      for (int64_t j = 0; j < inner; j++) y[j] = w0 * x0[j];                       \
      for (int64_t t = 1; t < k; t++) {                                            \
        const T *xt = x + ix[t] * inner, wt = wo[t];                               \
        for (int64_t j = 0; j < inner; j++) y[j] += wt * xt[j];                    \
      }                                                                            \
    }                                                                              \
    return 0;                                                                      \
  }
TAPS_FN(taps_f32, float)
TAPS_FN(taps_f64, double)

/* Along the last dim (inner 1): whole rows gathered by element size. */
#define GATHER_ROWS(T)                                        \
  for (int64_t r = lo / out; r < (hi + out - 1) / out; r++) { \
    const T *x = (const T *)(const void *)c->x + r * c->in;   \
    T *y = (T *)(void *)c->y + r * out;                       \
    int64_t o0 = r * out < lo ? lo - r * out : 0;             \
    int64_t o1 = (r + 1) * out > hi ? hi - r * out : out;     \
    for (int64_t o = o0; o < o1; o++) y[o] = x[idx[o]];       \
  }                                                           \
  return 0

static int copy_pass(void *vc, int64_t lo, int64_t hi) {
  const pass_ctx *c = vc;
  const int64_t out = c->out, *idx = c->idx;
  if (c->inner == 1) switch (c->es) {
      case 1: GATHER_ROWS(uint8_t);
      case 2: GATHER_ROWS(uint16_t);
      case 4: GATHER_ROWS(uint32_t);
      case 8: GATHER_ROWS(uint64_t);
      default: break;
    }
  size_t row = (size_t)(c->inner * c->es);
  for (int64_t it = lo; it < hi; it++) {
    int64_t o = it % c->out;
    memcpy(c->y + (size_t)it * row, c->x + (size_t)((it / c->out) * c->in + c->idx[o]) * row, row);
  }
  return 0;
}

/* The result of a pass over dim d of x: a new contiguous tensor of size out along d, made
   before the taps (the memory budget refuses a huge size there, not a malloc of its taps). */
static int pass_new(const lt_tensor *x, int d, int64_t out, lt_tensor **y, lt_error *err) {
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
  shape[d] = out;
  return lt_tensor_new(x->dtype, x->ndim, shape, 0, y, err);
}

/* One pass over dim d of the contiguous x into y (pass_new's). */
static int run_pass(const lt_tensor *x, int d, int64_t k, const int64_t *idx, const double *w,
                    lt_tensor *y, lt_error *err) {
  int64_t outer = 1, inner = 1, out = y->shape[d];
  for (int i = 0; i < x->ndim; i++)
    if (i != d) *(i < d ? &outer : &inner) *= x->shape[i];
  if (outer * out * inner == 0) return LT_OK;
  pass_ctx c = {lt_data(x), lt_data(y), x->shape[d], out, inner, k, (int64_t)lt_esize(x), idx, w};
  if (!w) {
    lt_pool_run(outer * out, lt_pool_grain(outer * out, (double)(inner * 2 * c.es)), copy_pass, &c);
    return LT_OK;
  }
  /* the weights in the computation dtype, once */
  void *wt = malloc((size_t)(out * k) * (size_t)c.es + 1);
  if (!wt) return lt_fail_nomem(err, (size_t)(out * k) * (size_t)c.es);
  for (int64_t i = 0; i < out * k; i++)
    if (c.es == 8)
      ((double *)wt)[i] = w[i];
    else
      ((float *)wt)[i] = (float)w[i];
  c.w = wt;
  int64_t items = inner == 1 ? outer : outer * out, per = inner == 1 ? out : inner;
  lt_pool_run(items, lt_pool_grain(items, (double)(per * (k + 1)) * c.es),
              c.es == 8 ? taps_f64 : taps_f32, &c);
  free(wt);
  return LT_OK;
}

/* Replaces *cur (freed when it is not keep) by y; y freed instead when rc is set. */
static int pass_done(int rc, lt_tensor **cur, const lt_tensor *keep, lt_tensor *y) {
  if (rc) lt_tensor_free(y);
  if (!rc && *cur != keep) lt_tensor_free(*cur);
  if (!rc) *cur = y;
  return rc;
}

/* }====== */

/* {====== pad ====== */

static int pad_checks(const lt_tensor *x, int npad, const int64_t *pad, lt_pad_mode mode,
                      lt_error *err) {
  if (npad % 2) return lt_fail(err, LT_EARG, "pad must have an even number of sizes, got %d", npad);
  if (npad / 2 > x->ndim)
    return lt_fail(err, LT_EARG, "pad of %d sizes pads more dims than the input's %d", npad,
                   x->ndim);
  if (mode != LT_PAD_CONSTANT && (x->ndim < npad / 2 + 1 || x->ndim > npad / 2 + 2 || npad == 0))
    return lt_fail(err, LT_EARG,
                   "%d-d input cannot be padded on %d dims in this mode (expected "
                   "%d-d or %d-d)",
                   x->ndim, npad / 2, npad / 2 + 1, npad / 2 + 2);
  for (int i = 0; i < npad / 2; i++) {
    int d = x->ndim - 1 - i;
    int64_t n = x->shape[d], l = pad[2 * i], r = pad[2 * i + 1];
    if (l > INT64_MAX / 4 || r > INT64_MAX / 4 || l < -INT64_MAX / 4 || r < -INT64_MAX / 4 ||
        n + l + r < 0 || (mode != LT_PAD_CONSTANT && n + l + r < 1))
      return lt_fail(err, LT_EARG, "pad (%lld, %lld) of dim %d of size %lld gives a size below %d",
                     (long long)l, (long long)r, d + 1, (long long)n, mode != LT_PAD_CONSTANT);
    if (mode == LT_PAD_REFLECT && (l >= n || r >= n))
      return lt_fail(err, LT_EARG, "reflect pad (%lld, %lld) must be below the size %lld of dim %d",
                     (long long)l, (long long)r, (long long)n, d + 1);
    if ((mode == LT_PAD_REPLICATE || mode == LT_PAD_CIRCULAR) && n == 0)
      return lt_fail(err, LT_EARG, "dim %d of size 0 cannot be padded in this mode", d + 1);
    if (mode == LT_PAD_CIRCULAR && (l > n || r > n))
      return lt_fail(err, LT_EARG,
                     "circular pad (%lld, %lld) wraps around dim %d of size %lld "
                     "more than once",
                     (long long)l, (long long)r, d + 1, (long long)n);
  }
  return LT_OK;
}

/* Constant: a tensor full of value, the input's kept part copied into its place. */
static int pad_constant(const lt_tensor *x, int npad, const int64_t *pad, double value,
                        lt_tensor **out, lt_error *err) {
  int64_t shape[LT_MAX_NDIM];
  memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
  for (int i = 0; i < npad / 2; i++) shape[x->ndim - 1 - i] += pad[2 * i] + pad[2 * i + 1];
  lt_tensor *y = NULL;
  lt_scalar v = {.kind = LT_SK_FLOAT, .v.f = value};
  if (x->dtype == LT_BOOL || lt_dtypes[x->dtype].is_float == 0) {
    if (!(fabs(value) < 9.2e18)) /* torch truncates toward zero */
      return lt_fail(err, LT_EARG, "value %g cannot be written to a %s tensor", value,
                     lt_dtype_name(x->dtype));
    v.kind = LT_SK_INT;
    v.v.i = (int64_t)trunc(value);
  }
  int rc = lt_tensor_new(x->dtype, x->ndim, shape, 0, &y, err);
  if (!rc) rc = lt_fill(y, &v, err);
  lt_frame fs, fd;
  lt_tensor *src = lt_frame_of(&fs, x), *dst = y ? lt_frame_of(&fd, y) : NULL;
  int empty = 0;
  for (int i = 0; !rc && i < npad / 2; i++) {
    int d = x->ndim - 1 - i;
    int64_t l = pad[2 * i], r = pad[2 * i + 1], n = x->shape[d];
    int64_t len = n + (l < 0 ? l : 0) + (r < 0 ? r : 0);
    if (len <= 0) {
      empty = 1;
      break;
    }
    rc = lt_slice_(src, d, l < 0 ? -l : 0, len, 1, err);
    if (!rc) rc = lt_slice_(dst, d, l > 0 ? l : 0, len, 1, err);
  }
  if (!rc && !empty) rc = lt_copy(dst, src, err);
  return lt_give(rc, y, out);
}

int lt_nn_pad(const lt_tensor *x, int npad, const int64_t *pad, lt_pad_mode mode, double value,
              lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(x, err); /* an opaque x has no value to pad with */
  if (!rc) rc = pad_checks(x, npad, pad, mode, err);
  if (rc) return rc;
  if (mode == LT_PAD_CONSTANT) return pad_constant(x, npad, pad, value, out, err);
  const lt_tensor *c;
  lt_tensor *owned = NULL, *cur;
  if ((rc = lt_contiguous_as(x, x->dtype, &c, &owned, err))) return rc;
  /* cur is the copy (passes free it) or x itself (kept) */
  const lt_tensor *keep = owned ? NULL : c;
  cur = owned ? owned : (lt_tensor *)(uintptr_t)c;
  for (int i = 0; !rc && i < npad / 2; i++) {
    int d = x->ndim - 1 - i;
    int64_t n = x->shape[d], l = pad[2 * i], m = n + l + pad[2 * i + 1];
    lt_tensor *y = NULL;
    if ((rc = pass_new(cur, d, m, &y, err))) break;
    int64_t *map = malloc((size_t)m * sizeof *map + 1);
    if (!map) {
      rc = pass_done(lt_fail_nomem(err, (size_t)m * sizeof *map), &cur, keep, y);
      break;
    }
    for (int64_t o = 0; o < m; o++) {
      int64_t s = o - l;
      if (mode == LT_PAD_REFLECT)
        s = s < 0 ? -s : s >= n ? 2 * (n - 1) - s : s;
      else if (mode == LT_PAD_REPLICATE)
        s = s < 0 ? 0 : s >= n ? n - 1 : s;
      else
        s = ((s % n) + n) % n;
      map[o] = s;
    }
    rc = pass_done(run_pass(cur, d, 1, map, NULL, y, err), &cur, keep, y);
    free(map);
  }
  if (cur == keep && !rc) rc = lt_clone(keep, &cur, err); /* no dims padded */
  return lt_give(rc, cur == keep ? NULL : cur, out);
}

/* }====== */

/* {====== interpolate ====== */

static double cubic1(double x) { return ((-0.75 + 2) * x - (-0.75 + 3)) * x * x + 1; }
static double cubic2(double x) { return ((-0.75 * x - 5 * -0.75) * x + 8 * -0.75) * x - 4 * -0.75; }

/* torch's area_pixel_compute_scale: input positions per output position. */
static double src_scale(int64_t in, int64_t out, double sf, int ac) {
  return ac       ? (out > 1 ? (double)(in - 1) / (double)(out - 1) : 0)
         : sf > 0 ? 1 / sf
                  : (double)in / (double)out;
}

/* The antialiasing filters (torch's, as Pillow's): the triangle of bilinear, the cubic of
   A = -0.5 of bicubic. */
static double aa_filter(lt_interp_mode mode, double x) {
  x = fabs(x);
  if (mode == LT_INTERP_LINEAR) return x < 1 ? 1 - x : 0;
  const double a = -0.5;
  return x < 1 ? ((a + 2) * x - (a + 3)) * x * x + 1 : x < 2 ? (((x - 5) * x + 8) * x - 4) * a : 0;
}

/* The half width of the antialiasing filter in input positions: widened by the scale when
   downsampling. */
static double aa_support(lt_interp_mode mode, double scale) {
  double half = mode == LT_INTERP_LINEAR ? 1 : 2;
  return scale >= 1 ? half * scale : half;
}

/* The antialiased taps (k per output position, as torch's _compute_weights_aa): the filter
   stretched by the scale around the center scale (o + 0.5), over the input positions it
   covers, normalized to sum 1; the unused taps weigh 0. */
static void make_taps_aa(lt_interp_mode mode, int64_t in, int64_t out, double sf, int ac, int64_t k,
                         int64_t *idx, double *w) {
  double scale = src_scale(in, out, sf, ac), support = aa_support(mode, scale);
  double inv = scale >= 1 ? 1 / scale : 1;
  for (int64_t o = 0; o < out; o++) {
    double center = scale * ((double)o + 0.5), total = 0;
    int64_t lo = (int64_t)(center - support + 0.5), hi = (int64_t)(center + support + 0.5);
    lo = lo > 0 ? lo : 0;
    hi = hi < in ? hi : in;
    int64_t *ix = idx + o * k;
    double *wt = w + o * k;
    for (int64_t t = 0; t < k; t++) {
      int64_t j = lo + t;
      ix[t] = j < hi ? j : lo;
      wt[t] = j < hi ? aa_filter(mode, ((double)j - center + 0.5) * inv) : 0;
      total += wt[t];
    }
    for (int64_t t = 0; total != 0 && t < k; t++) wt[t] /= total;
  }
}

/* The taps (k per output position) of one dim: in -> out, the factor sf (0: none). */
static void make_taps(lt_interp_mode mode, int64_t in, int64_t out, double sf, int ac, int64_t k,
                      int64_t *idx, double *w) {
  double scale = src_scale(in, out, sf, ac);
  for (int64_t o = 0; o < out; o++) {
    int64_t *ix = idx + o * k;
    double *wt = w + o * k;
    if (mode == LT_INTERP_NEAREST || mode == LT_INTERP_NEAREST_EXACT) {
      float fs = sf > 0 ? (float)(1 / sf) : (float)in / (float)out;
      float pos = mode == LT_INTERP_NEAREST ? (float)o * fs : ((float)o + 0.5f) * fs;
      int64_t s = (mode == LT_INTERP_NEAREST && out == in) ? o : (int64_t)floorf(pos);
      ix[0] = s < in - 1 ? s : in - 1;
      wt[0] = 1;
    } else if (mode == LT_INTERP_AREA) {
      int64_t s = o * in / out, e = ((o + 1) * in + out - 1) / out;
      for (int64_t t = 0; t < k; t++) {
        ix[t] = s + t < e ? s + t : s;
        wt[t] = s + t < e ? 1.0 / (double)(e - s) : 0;
      }
    } else {
      double src = ac ? scale * (double)o : scale * ((double)o + 0.5) - 0.5;
      if (mode == LT_INTERP_LINEAR) {
        if (src < 0) src = 0;
        int64_t i0 = (int64_t)src;
        double l1 = src - (double)i0;
        ix[0] = i0;
        ix[1] = i0 + (i0 < in - 1);
        wt[0] = 1 - l1;
        wt[1] = l1;
      } else {
        double f = floor(src), t = src - f;
        double cw[4] = {cubic2(t + 1), cubic1(t), cubic1(1 - t), cubic2(2 - t)};
        for (int j = 0; j < 4; j++) {
          int64_t s = (int64_t)f - 1 + j;
          ix[j] = s < 0 ? 0 : s > in - 1 ? in - 1 : s;
          wt[j] = cw[j];
        }
      }
    }
  }
}

/* Taps per output position of a mode (with antialiasing: the filter's width, as torch's). */
static int64_t taps_of(lt_interp_mode mode, int64_t in, int64_t out, double sf, int ac, int aa) {
  if (aa) return (int64_t)ceil(aa_support(mode, src_scale(in, out, sf, ac))) * 2 + 1;
  switch (mode) {
    case LT_INTERP_LINEAR: return 2;
    case LT_INTERP_BICUBIC: return 4;
    case LT_INTERP_AREA: return (in + out - 1) / out + 1;
    default: return 1;
  }
}

/* The output sizes into osz (k of them). */
static int out_sizes(const lt_tensor *x, const int64_t *size, const double *scales, int k,
                     int64_t *osz, lt_error *err) {
  for (int i = 0; i < k; i++) {
    double in = (double)x->shape[2 + i];
    if (scales && !(scales[i] > 0 && isfinite(scales[i]) && in * scales[i] < 9e15))
      return lt_fail(err, LT_EARG, "scale_factor must be positive and finite, got %g",
                     scales[i] != scales[i] ? fabs(scales[i]) : scales[i]);
    osz[i] = size ? size[i] : (int64_t)floor(in * scales[i]);
    if (osz[i] < 1 || x->shape[2 + i] < 1)
      return lt_fail(err, LT_EARG,
                     "input and output sizes must be greater than 0, got input "
                     "size %lld and output size %lld",
                     (long long)x->shape[2 + i], (long long)osz[i]);
    if (osz[i] > ((int64_t)1 << 40)) return lt_fail(err, LT_ERANGE, "output size too large");
  }
  return LT_OK;
}

int lt_nn_interpolate(const lt_tensor *x, const int64_t *size, const double *scales,
                      lt_interp_mode mode, int align_corners, int recompute, int antialias,
                      lt_tensor **out, lt_error *err) {
  /* nearest of a non-float dtype (uint8 images, masks, labels): positions copied as bytes */
  int bycopy = (mode == LT_INTERP_NEAREST || mode == LT_INTERP_NEAREST_EXACT) &&
               x->dtype != LT_OPAQUE && !lt_nn_is_float(x->dtype);
  int rc = bycopy ? LT_OK : lt_nn_float(x, "input", err);
  if (rc) return rc;
  if (antialias && mode != LT_INTERP_LINEAR && mode != LT_INTERP_BICUBIC)
    return lt_fail(err, LT_EARG, "antialias is only supported for the modes bilinear and bicubic");
  int k = x->ndim - 2;
  if (k < 1 || k > 3 || (mode == LT_INTERP_BICUBIC && k != 2))
    return lt_fail(err, LT_EARG, "input must be %s (N, C, ...), got %d-d",
                   mode == LT_INTERP_BICUBIC ? "4-d" : "3-d, 4-d or 5-d", x->ndim);
  if (!size == !scales)
    return lt_fail(err, LT_EARG, "exactly one of size and scale_factor must be given");
  int64_t osz[3];
  if ((rc = out_sizes(x, size, scales, k, osz, err))) return rc;
  if (mode == LT_INTERP_AREA || recompute) scales = NULL;
  if (mode != LT_INTERP_LINEAR && mode != LT_INTERP_BICUBIC) align_corners = 0;
  const lt_tensor *c;
  lt_tensor *owned = NULL, *cur;
  if ((rc = lt_contiguous_as(x, bycopy ? x->dtype : lt_nn_compute(x->dtype), &c, &owned, err)))
    return rc;
  const lt_tensor *keep = owned ? NULL : c;
  cur = owned ? owned : (lt_tensor *)(uintptr_t)c;
  for (int i = k - 1; !rc && i >= 0; i--) {
    double sf = scales ? scales[i] : 0;
    int64_t in = x->shape[2 + i], o = osz[i],
            nt = taps_of(mode, in, o, sf, align_corners, antialias);
    lt_tensor *y = NULL;
    if ((rc = pass_new(cur, 2 + i, o, &y, err))) break;
    int64_t *idx = malloc((size_t)(o * nt) * (sizeof *idx + sizeof(double)));
    if (!idx) {
      rc = pass_done(lt_fail_nomem(err, (size_t)(o * nt) * (sizeof *idx + sizeof(double))), &cur,
                     keep, y);
      break;
    }
    double *w = (double *)(void *)(idx + o * nt);
    if (antialias)
      make_taps_aa(mode, in, o, sf, align_corners, nt, idx, w);
    else
      make_taps(mode, in, o, sf, align_corners, nt, idx, w);
    rc = pass_done(run_pass(cur, 2 + i, nt, idx, bycopy ? NULL : w, y, err), &cur, keep, y);
    free(idx);
  }
  if (rc) {
    if (cur != keep) lt_tensor_free(cur);
    return rc;
  }
  if ((rc = lt_nn_finish(&cur, x->dtype, err))) return rc;
  *out = cur;
  return LT_OK;
}

/* }====== */
