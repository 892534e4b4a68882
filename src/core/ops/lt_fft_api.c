/*
 * lt_fft_api.c -- torch.fft's functions from the one-dimensional engine (see lt_fft_api.h).
 * Lua-free.
 *
 * An n-d transform is a plan of one-dimensional passes: the input is first brought to the
 * working dtype and to the sizes the passes read (one copy, zeros padded; a trim alone is a
 * view), then each pass makes a new tensor from the last. Real-to-half transforms (rfftn,
 * ihfft) take their real pass first, on the last dim, and complex passes after; half-to-real
 * ones (irfftn, hfft) take the complex passes first and the real one last, so every pass reads
 * what the engine's kind expects. Each pass carries its own dim's share of the norm's scale.
 * hfftn is irfftn's passes with the forward sign (the forward transform of the Hermitian
 * signal x's first half gives), ihfftn rfftn's with the inverse sign (for a real input, the
 * conjugate of rfftn over n): the same plans, the direction flipped.
 *
 * Calls lt_fft.c, lt_copy.c, lt_shape.c (lt_roll), lt_tensor.c. Called by lua_fft.c.
 */
#include <math.h>
#include <stdlib.h>

#include "lt_copy.h"
#include "lt_fft_api.h"
#include "lt_shape.h"

/* The scale one pass of n points carries: 1/n on the side the norm names, 1/sqrt(n) both ways
   for "ortho". */
static double pass_scale(lt_fft_norm norm, int inverse, int64_t n) {
  if (norm == LT_FFT_ORTHO) return 1.0 / sqrt((double)n);
  if ((norm == LT_FFT_BACKWARD) == (inverse != 0)) return 1.0 / (double)n;
  return 1.0;
}

static int real_in(lt_fft_func f) { return f == LT_FFTF_RFFT || f == LT_FFTF_IHFFT; }
static int real_out(lt_fft_func f) { return f == LT_FFTF_IRFFT || f == LT_FFTF_HFFT; }
static int inverse_of(lt_fft_func f) {
  return f == LT_FFTF_IFFT || f == LT_FFTF_IRFFT || f == LT_FFTF_IHFFT;
}

/* The dtype the passes start from: the real one of its precision for rfft and ihfft, else the
   complex one (bool and integers as float32). */
static int work_dtype(lt_dtype dt, lt_fft_func f, lt_dtype *wdt, lt_error *err) {
  if (dt >= LT_NDTYPES)
    return lt_fail(err, LT_EARG, "expected a numeric tensor, got an opaque dtype");
  if (dt == LT_FLOAT16 || dt == LT_BFLOAT16)
    return lt_fail(err, LT_EARG,
                   "input: %s is not supported (torch refuses it on the CPU too): convert to "
                   "float32",
                   lt_dtype_name(dt));
  int f64 = dt == LT_FLOAT64 || dt == LT_COMPLEX128;
  if (lt_dtypes[dt].is_complex && real_in(f))
    return lt_fail(err, LT_EARG, "input: expected a real tensor, got %s (fft takes complex ones)",
                   lt_dtype_name(dt));
  if (real_in(f))
    *wdt = f64 ? LT_FLOAT64 : LT_FLOAT32;
  else
    *wdt = f64 ? LT_COMPLEX128 : LT_COMPLEX64;
  return LT_OK;
}

/* The plan: dims (0-based, checked), the signal size of each and the size the passes read of
   the input along it. */
typedef struct {
  int nd;
  int dims[LT_MAX_NDIM];
  int64_t n[LT_MAX_NDIM];    /* signal sizes */
  int64_t read[LT_MAX_NDIM]; /* what the first pass reads: n, or n / 2 + 1 for the last C2R dim */
} fft_plan;

static int plan_dims(const lt_tensor *in, int ndims, const int *dims, const int64_t *s, fft_plan *p,
                     lt_error *err) {
  if (ndims < 0 || ndims > LT_MAX_NDIM || (ndims > in->ndim && (dims || s)))
    return lt_fail(err, LT_EARG, "%s: %d entries for a tensor of %d dims", dims ? "dim" : "s",
                   ndims, in->ndim);
  p->nd = dims || s ? ndims : in->ndim;
  for (int i = 0; i < p->nd; i++) {
    int d = dims ? dims[i] : in->ndim - p->nd + i;
    if (d < 0 || d >= in->ndim) return lt_dim_error(err, d, in->ndim);
    for (int j = 0; j < i; j++)
      if (p->dims[j] == d) return lt_fail(err, LT_EARG, "dim: dim %d given twice", d + 1);
    p->dims[i] = d;
  }
  return LT_OK;
}

static int plan_sizes(const lt_tensor *in, lt_fft_func f, const int64_t *s, fft_plan *p,
                      lt_error *err) {
  for (int i = 0; i < p->nd; i++) {
    int64_t m = in->shape[p->dims[i]], n = s && s[i] != -1 ? s[i] : m;
    int last_c2r = real_out(f) && i == p->nd - 1;
    if (last_c2r && !(s && s[i] != -1)) n = 2 * (m - 1);
    if (n < 1)
      return lt_fail(err, LT_EARG, "invalid number of data points (%lld) specified along dim %d",
                     (long long)n, p->dims[i] + 1);
    p->n[i] = n;
    p->read[i] = last_c2r ? n / 2 + 1 : n;
  }
  return LT_OK;
}

/* *out = in in dtype wdt with p's read sizes along p's dims: a view when that only trims, else a
   new tensor (zeros where it pads). */
static int fit_input(const lt_tensor *in, lt_dtype wdt, const fft_plan *p, lt_tensor **out,
                     lt_error *err) {
  lt_frame src;
  lt_tensor *v = lt_frame_of(&src, in);
  int64_t shape[LT_MAX_NDIM];
  int pad = 0, rc;
  for (int d = 0; d < in->ndim; d++) shape[d] = in->shape[d];
  for (int i = 0; i < p->nd; i++) {
    int d = p->dims[i];
    int64_t keep = p->read[i] < in->shape[d] ? p->read[i] : in->shape[d];
    pad |= p->read[i] > in->shape[d];
    shape[d] = p->read[i];
    if ((rc = lt_slice_(v, d, 0, keep, 1, err))) return rc;
  }
  if (!pad && wdt == in->dtype) return lt_tensor_alias(v, out, err);
  lt_tensor *y = NULL;
  if ((rc = lt_tensor_new(wdt, in->ndim, shape, pad, &y, err))) return rc;
  lt_frame dst;
  lt_tensor *w = lt_frame_of(&dst, y);
  for (int d = 0; d < in->ndim && !rc; d++) rc = lt_slice_(w, d, 0, v->shape[d], 1, err);
  if (!rc) rc = lt_copy(w, v, err);
  return lt_give(rc, y, out);
}

/* One pass: *cur (owned) replaced by its transform along dim. */
static int pass(lt_tensor **cur, int dim, int64_t n, lt_fft_kind kind, int inverse,
                lt_fft_norm norm, lt_error *err) {
  lt_tensor *next = NULL;
  int rc = lt_fft(*cur, dim, n, kind, inverse, pass_scale(norm, inverse, n), &next, err);
  if (rc) return rc;
  lt_tensor_free(*cur);
  *cur = next;
  return LT_OK;
}

int lt_fft_nd(const lt_tensor *in, lt_fft_func f, int ndims, const int *dims, const int64_t *s,
              lt_fft_norm norm, lt_tensor **out, lt_error *err) {
  fft_plan p = {.nd = 0};
  lt_dtype wdt = LT_COMPLEX64;
  int rc;
  if (in->ndim == 0)
    return lt_fail(err, LT_EARG, "input: expected a tensor of at least 1 dim, got a 0-d tensor");
  if ((rc = lt_check_readable(in, err)) || (rc = work_dtype(in->dtype, f, &wdt, err)) ||
      (rc = plan_dims(in, ndims, dims, s, &p, err)))
    return rc;
  if (p.nd == 0 && f != LT_FFTF_FFT && f != LT_FFTF_IFFT)
    return lt_fail(err, LT_EARG, "dim: expected at least one dim to transform");
  if ((rc = plan_sizes(in, f, s, &p, err))) return rc;
  if (p.nd == 0) return lt_cast(in, wdt, out, err);
  lt_tensor *cur = NULL;
  if ((rc = fit_input(in, wdt, &p, &cur, err))) return rc;
  int inv = inverse_of(f), last = p.nd - 1;
  if (real_in(f)) rc = pass(&cur, p.dims[last], p.n[last], LT_FFT_R2C, inv, norm, err);
  for (int i = 0; i < p.nd && !rc; i++) {
    if (f == LT_FFTF_FFT || f == LT_FFTF_IFFT || i != last)
      rc = pass(&cur, p.dims[i], p.n[i], LT_FFT_C2C, inv, norm, err);
  }
  if (!rc && real_out(f)) rc = pass(&cur, p.dims[last], p.n[last], LT_FFT_C2R, inv, norm, err);
  return lt_give(rc, cur, out);
}

int lt_fftfreq(int64_t n, double d, lt_dtype dt, int onesided, lt_tensor **out, lt_error *err) {
  if (n < 0) return lt_fail(err, LT_EARG, "n must be non-negative, got %lld", (long long)n);
  if (dt >= LT_NDTYPES || !(lt_dtypes[dt].is_float || lt_dtypes[dt].is_complex))
    return lt_fail(err, LT_EARG, "dtype: expected a floating-point or complex dtype, got %s",
                   lt_dtype_name(dt));
  int64_t m = onesided ? n / 2 + 1 : n;
  lt_tensor *y = NULL;
  int rc = lt_tensor_new(LT_FLOAT64, 1, &m, 0, &y, err);
  if (rc) return rc;
  double *v = (double *)lt_data(y), step = 1.0 / ((double)n * d);
  for (int64_t k = 0; k < m; k++) {
    int64_t j = onesided || k <= (n - 1) / 2 ? k : k - n;
    v[k] = (double)j * step;
  }
  rc = lt_cast_over(&y, dt, err);
  return lt_give(rc, y, out);
}

int lt_fftshift(const lt_tensor *in, int ndims, const int *dims, int inverse, lt_tensor **out,
                lt_error *err) {
  if (in->ndim == 0)
    return lt_fail(err, LT_EARG, "input: expected a tensor of at least 1 dim, got a 0-d tensor");
  int all[LT_MAX_NDIM];
  int64_t shifts[LT_MAX_NDIM];
  if (!dims) {
    ndims = in->ndim;
    for (int d = 0; d < ndims; d++) all[d] = d;
    dims = all;
  }
  if (ndims < 0 || ndims > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "dim: at most %d dims, got %d", LT_MAX_NDIM, ndims);
  if (ndims == 0) return lt_clone(in, out, err);
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0 || dims[i] >= in->ndim) return lt_dim_error(err, dims[i], in->ndim);
    int64_t half = in->shape[dims[i]] / 2;
    shifts[i] = inverse ? -half : half;
  }
  return lt_roll(in, ndims, shifts, dims, out, err);
}
