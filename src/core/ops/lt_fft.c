/*
 * lt_fft.c -- the one-dimensional transform along one dim (see lt_fft.h). Lua-free.
 *
 * This first version is the plain O(n^2) sum over a twiddle table of n entries, one line of the
 * batch per pool item, in double: correct for every n, the reference the fast engine replaces.
 *
 * Calls lt_copy.c (lt_contiguous_as), lt_tensor.c, lt_pool.c. Called by lt_fft_api.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_fft.h"
#include "lt_pool.h"

static const double PI = 3.14159265358979323846;

typedef struct {
  const char *x; /* contiguous input, outer x nin x inner */
  char *y;       /* contiguous output, outer x nout x inner */
  int64_t n, nin, nout, inner;
  lt_fft_kind kind;
  int f64; /* float64/complex128 elements, else float32/complex64 */
  double scale;
  const double *tw; /* 2n: cos, sin of s * 2 pi k / n */
  double *buf;      /* per line: 2n doubles, one buffer per pool item index below */
} fft_ctx;

static double load(const fft_ctx *c, const char *base, int64_t i) {
  return c->f64 ? ((const double *)base)[i] : (double)((const float *)base)[i];
}

static void store(const fft_ctx *c, char *base, int64_t i, double v) {
  if (c->f64)
    ((double *)base)[i] = v;
  else
    ((float *)base)[i] = (float)v;
}

/* The n complex inputs of one line (the full signal: C2R mirrors the half spectrum). */
static void gather(const fft_ctx *c, int64_t o, int64_t in, double *v) {
  int cpx = c->kind != LT_FFT_R2C;
  for (int64_t k = 0; k < c->n; k++) {
    int64_t kk = k, conj = 0;
    if (c->kind == LT_FFT_C2R && k >= c->nin) kk = c->n - k, conj = 1;
    int64_t e = (o * c->nin + kk) * c->inner + in;
    v[2 * k] = load(c, c->x, cpx ? 2 * e : e);
    v[2 * k + 1] = cpx ? load(c, c->x, 2 * e + 1) : 0.0;
    if (c->kind == LT_FFT_C2R && (kk == 0 || 2 * kk == c->n)) v[2 * k + 1] = 0.0;
    if (conj) v[2 * k + 1] = -v[2 * k + 1];
  }
}

static int line(void *vc, int64_t lo, int64_t hi) {
  const fft_ctx *c = vc;
  double *v = malloc(sizeof(double) * 2 * (size_t)c->n);
  if (!v) return 1;
  for (int64_t l = lo; l < hi; l++) {
    int64_t o = l / c->inner, in = l % c->inner;
    gather(c, o, in, v);
    for (int64_t j = 0; j < c->nout; j++) {
      double re = 0, im = 0;
      for (int64_t k = 0, t = 0; k < c->n; k++, t = (t + j) % c->n) {
        re += v[2 * k] * c->tw[2 * t] - v[2 * k + 1] * c->tw[2 * t + 1];
        im += v[2 * k] * c->tw[2 * t + 1] + v[2 * k + 1] * c->tw[2 * t];
      }
      int64_t e = (o * c->nout + j) * c->inner + in;
      if (c->kind == LT_FFT_C2R) {
        store(c, c->y, e, re * c->scale);
      } else {
        store(c, c->y, 2 * e, re * c->scale);
        store(c, c->y, 2 * e + 1, im * c->scale);
      }
    }
  }
  free(v);
  return 0;
}

static int check_kind(const lt_tensor *in, lt_fft_kind kind, int *f64, lt_dtype *odt,
                      lt_error *err) {
  lt_dtype dt = in->dtype;
  if (kind == LT_FFT_R2C) {
    if (dt != LT_FLOAT32 && dt != LT_FLOAT64)
      return lt_fail(err, LT_EARG, "fft: expected a float32 or float64 input, got %s",
                     lt_dtypes[dt].name);
    *f64 = dt == LT_FLOAT64;
    *odt = *f64 ? LT_COMPLEX128 : LT_COMPLEX64;
    return LT_OK;
  }
  if (dt != LT_COMPLEX64 && dt != LT_COMPLEX128)
    return lt_fail(err, LT_EARG, "fft: expected a complex64 or complex128 input, got %s",
                   lt_dtypes[dt].name);
  *f64 = dt == LT_COMPLEX128;
  *odt = kind == LT_FFT_C2C ? dt : (*f64 ? LT_FLOAT64 : LT_FLOAT32);
  return LT_OK;
}

int lt_fft(const lt_tensor *in, int dim, int64_t n, lt_fft_kind kind, int inverse, double scale,
           lt_tensor **out, lt_error *err) {
  fft_ctx c = {.n = n, .kind = kind, .scale = scale};
  lt_dtype odt = LT_COMPLEX64;
  int rc;
  if ((rc = lt_check_dim(in, dim, err)) || (rc = check_kind(in, kind, &c.f64, &odt, err)))
    return rc;
  if (n < 1) return lt_fail(err, LT_EARG, "fft: invalid number of points %lld", (long long)n);
  c.nin = kind == LT_FFT_C2R ? n / 2 + 1 : n;
  c.nout = kind == LT_FFT_R2C ? n / 2 + 1 : n;
  if (in->shape[dim] != c.nin)
    return lt_fail(err, LT_EARG, "fft: expected %lld points along dim %d, got %lld",
                   (long long)c.nin, dim + 1, (long long)in->shape[dim]);
  int64_t shape[LT_MAX_NDIM], outer = 1;
  c.inner = 1;
  for (int d = 0; d < in->ndim; d++) {
    shape[d] = d == dim ? c.nout : in->shape[d];
    if (d < dim) outer *= in->shape[d];
    if (d > dim) c.inner *= in->shape[d];
  }
  const lt_tensor *x;
  lt_tensor *owned = NULL, *y = NULL;
  if ((rc = lt_contiguous_as(in, in->dtype, &x, &owned, err)) ||
      (rc = lt_tensor_new(odt, in->ndim, shape, 0, &y, err))) {
    lt_tensor_free(owned);
    return rc;
  }
  double *tw = malloc(sizeof(double) * 2 * (size_t)n);
  if (!tw) {
    lt_tensor_free(owned), lt_tensor_free(y);
    return lt_fail_nomem(err, sizeof(double) * 2 * (size_t)n);
  }
  for (int64_t k = 0; k < n; k++) {
    double a = (inverse ? 2.0 : -2.0) * PI * (double)k / (double)n;
    tw[2 * k] = cos(a), tw[2 * k + 1] = sin(a);
  }
  c.x = lt_data(x), c.y = lt_data(y), c.tw = tw;
  int64_t lines = outer * c.inner;
  int64_t failed =
      lines ? lt_pool_run(lines, lt_pool_grain(lines, (double)n * (double)n * 4.0), line, &c) : -1;
  free(tw);
  lt_tensor_free(owned);
  if (failed >= 0) {
    lt_tensor_free(y);
    return lt_fail_nomem(err, sizeof(double) * 2 * (size_t)n);
  }
  *out = y;
  return LT_OK;
}
