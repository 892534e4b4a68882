/*
 * test_fft.c -- lt_fft (lt_fft.h), the engine under lt.fft: every kind (C2C, R2C, C2R), forward
 * and inverse, float32 and float64, against a naive DFT summed in long double: every n from 1 to
 * 64, primes (97, 101, 1009, 2053, and 5003 and 12289 past the lanes' Bluestein), products (360,
 * 1000, 1024, 4096, 3 x 2^13, 2 x 10007), 2^20 for C2C and R2C (sampled outputs), one line and
 * batches (the lanes and the four-step ways through, rows and long columns); inverse round trips;
 * transposed, strided and offset views; every dim of a 3-d tensor; empty batches; the refusals.
 * Relative error = max |ours - ref| / max |ref| per line, under 1e-5 (float32) and 1e-12 (float64).
 * The vector path is lt_cpu_level()'s: CTest runs this three times (c_fft, c_fft_avx2,
 * c_fft_scalar, the last two under LTENSOR_SIMD), and the first also compares every path's kernels
 * directly.
 */
#include <math.h>

#include "lt_cpu.h"
#include "lt_fft.h"
#include "lt_fft_plan.h"
#include "test_core.h"

static uint64_t rng = 88172645463325252u;
static double urand(void) { /* xorshift64 into [-1, 1) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / (double)(UINT64_C(1) << 52) - 1;
}

static const long double PI_L = 3.141592653589793238462643383279502884L;

/* exp(-2 pi i t / n), t < n, in long double (cached for the last n) */
static long double *twl;
static int64_t twn;
static void ref_tw(int64_t n) {
  if (twn == n) return;
  free(twl);
  twl = malloc(sizeof(long double) * 2 * (size_t)n);
  if (!twl) exit(2);
  for (int64_t t = 0; t < n; t++)
    twl[2 * t] = cosl(2 * PI_L * t / n), twl[2 * t + 1] = -sinl(2 * PI_L * t / n);
  twn = n;
}

/* random values in every real component of a contiguous tensor */
static void fill(lt_tensor *t) {
  int64_t cnt = lt_numel(t) * (t->dtype == LT_COMPLEX64 || t->dtype == LT_COMPLEX128 ? 2 : 1);
  if (t->dtype == LT_FLOAT32 || t->dtype == LT_COMPLEX64)
    for (int64_t i = 0; i < cnt; i++) ((float *)lt_data(t))[i] = (float)urand();
  else
    for (int64_t i = 0; i < cnt; i++) ((double *)lt_data(t))[i] = urand();
}

static lt_tensor *rand_tensor(lt_dtype dt, int ndim, const int64_t *shape) {
  lt_tensor *t = make(dt, ndim, shape);
  fill(t);
  return t;
}

static int is_f64(lt_dtype dt) { return dt == LT_FLOAT64 || dt == LT_COMPLEX128; }

/* The full complex signal of one line as the kind reads it, in x (2n long doubles). */
static void read_line(const lt_tensor *in, int dim, int64_t *idx, int64_t n, lt_fft_kind kind,
                      long double *x) {
  int64_t nin = in->shape[dim];
  for (int64_t k = 0; k < n; k++) {
    int64_t kk = kind == LT_FFT_C2R && k >= nin ? n - k : k;
    double im;
    idx[dim] = kk;
    x[2 * k] = get(in, idx, &im);
    x[2 * k + 1] = kind == LT_FFT_R2C ? 0 : im;
    if (kind == LT_FFT_C2R && (kk == 0 || 2 * kk == n)) x[2 * k + 1] = 0;
    if (kk != k) x[2 * k + 1] = -x[2 * k + 1];
  }
  idx[dim] = 0;
}

/* lt_fft(in, dim, n, kind, inv, scale) against the naive sum; samples > 0 checks that many
   outputs per line (spread, with the first and the last), else all. */
static void check(const lt_tensor *in, int dim, int64_t n, lt_fft_kind kind, int inv, double scale,
                  int samples) {
  lt_tensor *y = NULL;
  CHECK_OK(lt_fft(in, dim, n, kind, inv, scale, &y, &err));
  if (!y) return;
  int64_t nout = kind == LT_FFT_R2C ? n / 2 + 1 : n, bshape[LT_MAX_NDIM], idx[LT_MAX_NDIM] = {0};
  CHECKF(y->shape[dim] == nout, "n=%lld: %lld points out", (long long)n, (long long)y->shape[dim]);
  double tol = is_f64(in->dtype) ? 1e-12 : 1e-5, worst = 0;
  ref_tw(n);
  long double *x = malloc(sizeof(long double) * 2 * (size_t)n);
  if (!x) exit(2);
  for (int d = 0; d < in->ndim; d++) bshape[d] = d == dim ? 1 : in->shape[d];
  int64_t lines = 1;
  for (int d = 0; d < in->ndim; d++) lines *= bshape[d];
  for (int64_t line = 0; line < lines; line++, next_index(in->ndim, bshape, idx)) {
    read_line(in, dim, idx, n, kind, x);
    long double maxref = 0, maxdiff = 0;
    int64_t cnt = samples > 0 && samples < nout ? samples : nout;
    for (int64_t s = 0; s < cnt; s++) {
      int64_t j = cnt == nout ? s : s == cnt - 1 ? nout - 1 : s * (nout / cnt) + s % 7;
      long double re = 0, im = 0;
      for (int64_t k = 0, t = 0; k < n; k++, t = (t + j) % n) {
        long double wr = twl[2 * t], wi = inv ? -twl[2 * t + 1] : twl[2 * t + 1];
        re += x[2 * k] * wr - x[2 * k + 1] * wi, im += x[2 * k] * wi + x[2 * k + 1] * wr;
      }
      re *= scale, im *= scale;
      double oi;
      idx[dim] = j;
      double orr = get(y, idx, &oi);
      idx[dim] = 0;
      if (kind == LT_FFT_C2R) im = oi = 0;
      long double m = sqrtl(re * re + im * im), d = hypotl(orr - re, oi - im);
      if (m > maxref) maxref = m;
      if (!(d <= maxdiff)) maxdiff = d;
    }
    double rel = (double)(maxdiff / (maxref > 0 ? maxref : 1));
    if (!(rel <= worst)) worst = rel;
  }
  CHECKF(worst <= tol, "%s n=%lld kind=%d inv=%d dim=%d: relative error %g",
         lt_dtypes[in->dtype].name, (long long)n, (int)kind, inv, dim + 1, worst);
  free(x);
  lt_tensor_free(y);
}

static const lt_dtype real_dt[2] = {LT_FLOAT32, LT_FLOAT64},
                      cpx_dt[2] = {LT_COMPLEX64, LT_COMPLEX128};

/* a batch of `lines` lines of n points (1-d when lines is 0), every kind, both directions */
static void check_n(int64_t n, int64_t lines, int samples) {
  for (int p = 0; p < 2; p++)
    for (int kind = 0; kind < 3; kind++) {
      int64_t nin = kind == LT_FFT_C2R ? n / 2 + 1 : n;
      lt_dtype dt = kind == LT_FFT_R2C ? real_dt[p] : cpx_dt[p];
      lt_tensor *x = lines ? rand_tensor(dt, 2, A(lines, nin)) : rand_tensor(dt, 1, A(nin));
      tu_set_context("n=%lld lines=%lld", (long long)n, (long long)lines);
      for (int inv = 0; inv < 2; inv++)
        check(x, lines ? 1 : 0, n, (lt_fft_kind)kind, inv, inv ? 1.0 / (double)n : 1.0, samples);
      lt_tensor_free(x);
    }
}

/* ifft(fft(x)) / n == x, irfft(rfft(x)) == x */
static void round_trip(int64_t n) {
  for (int p = 0; p < 2; p++) {
    double tol = p ? 1e-12 : 1e-5;
    lt_tensor *x = rand_tensor(cpx_dt[p], 2, A(3, n)), *y = NULL, *z = NULL;
    CHECK_OK(lt_fft(x, 1, n, LT_FFT_C2C, 0, 1.0, &y, &err));
    if (y) CHECK_OK(lt_fft(y, 1, n, LT_FFT_C2C, 1, 1.0 / (double)n, &z, &err));
    double worst = 0;
    for (int64_t i = 0; z && i < 3 * n * 2; i++) {
      double a = p ? ((double *)lt_data(x))[i] : ((float *)lt_data(x))[i];
      double b = p ? ((double *)lt_data(z))[i] : ((float *)lt_data(z))[i];
      if (!(fabs(a - b) <= worst)) worst = fabs(a - b);
    }
    CHECKF(worst <= tol, "round trip c2c n=%lld: %g", (long long)n, worst);
    lt_tensor_free(x), lt_tensor_free(y), lt_tensor_free(z);
    x = rand_tensor(real_dt[p], 2, A(3, n)), y = z = NULL;
    CHECK_OK(lt_fft(x, 1, n, LT_FFT_R2C, 0, 1.0, &y, &err));
    if (y) CHECK_OK(lt_fft(y, 1, n, LT_FFT_C2R, 1, 1.0 / (double)n, &z, &err));
    worst = 0;
    for (int64_t i = 0; z && i < 3 * n; i++) {
      double a = p ? ((double *)lt_data(x))[i] : ((float *)lt_data(x))[i];
      double b = p ? ((double *)lt_data(z))[i] : ((float *)lt_data(z))[i];
      if (!(fabs(a - b) <= worst)) worst = fabs(a - b);
    }
    CHECKF(worst <= tol, "round trip r2c n=%lld: %g", (long long)n, worst);
    lt_tensor_free(x), lt_tensor_free(y), lt_tensor_free(z);
  }
}

/* transposed, strided and offset views; every dim of a 3-d tensor */
static void views(void) {
  for (int p = 0; p < 2; p++)
    for (int kind = 0; kind < 3; kind++) {
      lt_dtype dt = kind == LT_FFT_R2C ? real_dt[p] : cpx_dt[p];
      int64_t n = 12, nin = kind == LT_FFT_C2R ? n / 2 + 1 : n;
      lt_tensor *a = rand_tensor(dt, 2, A(nin, 5)), *t = NULL, *s = NULL, *o = NULL;
      CHECK_OK(lt_transpose(a, 0, 1, &t, &err)); /* 5 x nin, dim 2 strided */
      if (t) check(t, 1, n, (lt_fft_kind)kind, 0, 1.0, 0);
      lt_tensor *b = rand_tensor(dt, 2, A(4, 2 * nin + 3));
      CHECK_OK(lt_slice(b, 1, 3, nin, 2, &s, &err)); /* offset 3, step 2 */
      if (s) check(s, 1, n, (lt_fft_kind)kind, 1, 0.5, 0);
      CHECK_OK(lt_narrow(b, 0, 1, 2, &o, &err));
      lt_tensor *oo = NULL;
      if (o) CHECK_OK(lt_narrow(o, 1, 2, nin, &oo, &err));
      if (oo) check(oo, 1, n, (lt_fft_kind)kind, 0, 1.0, 0);
      int64_t sh[3] = {7, 9, 10};
      for (int d = 0; d < 3; d++) {
        int64_t nn = sh[d], s3[3] = {7, 9, 10};
        s3[d] = kind == LT_FFT_C2R ? nn / 2 + 1 : nn;
        lt_tensor *c = rand_tensor(dt, 3, s3);
        tu_set_context("3-d dim %d", d + 1);
        check(c, d, nn, (lt_fft_kind)kind, d == 1, 1.0, 0);
        lt_tensor_free(c);
      }
      lt_tensor_free(a), lt_tensor_free(t), lt_tensor_free(b), lt_tensor_free(s);
      lt_tensor_free(o), lt_tensor_free(oo);
    }
  /* long columns, fewer than a lane block: the four-step through strided lines */
  for (int kind = 0; kind < 3; kind++)
    for (int64_t n = 4097; n <= 8192; n += 4095) {
      lt_dtype dt = kind == LT_FFT_R2C ? LT_FLOAT64 : LT_COMPLEX128;
      lt_tensor *c = rand_tensor(dt, 2, A(kind == LT_FFT_C2R ? n / 2 + 1 : n, 3));
      tu_set_context("long columns n=%lld", (long long)n);
      check(c, 0, n, (lt_fft_kind)kind, kind == LT_FFT_C2R, 1.0, 10);
      lt_tensor_free(c);
    }
  /* columns of a wide matrix (many neighbouring lines in one lane block), and rows */
  lt_tensor *w = rand_tensor(LT_COMPLEX64, 2, A(64, 37));
  check(w, 0, 64, LT_FFT_C2C, 0, 1.0, 0);
  check(w, 1, 37, LT_FFT_C2C, 1, 1.0, 0);
  lt_tensor_free(w);
}

static void empty_and_errors(void) {
  lt_tensor *e = make(LT_COMPLEX64, 2, A(0, 8)), *y = NULL;
  CHECK_OK(lt_fft(e, 1, 8, LT_FFT_C2C, 0, 1.0, &y, &err));
  CHECK(y && y->shape[0] == 0 && y->shape[1] == 8);
  lt_tensor_free(y), y = NULL;
  lt_tensor *e3 = make(LT_FLOAT64, 3, A(3, 0, 8));
  CHECK_OK(lt_fft(e3, 2, 8, LT_FFT_R2C, 0, 1.0, &y, &err));
  CHECK(y && y->shape[2] == 5 && y->dtype == LT_COMPLEX128 && lt_numel(y) == 0);
  lt_tensor_free(y), y = NULL;
  lt_tensor *c = make(LT_COMPLEX64, 1, A(8)), *r = make(LT_FLOAT32, 1, A(8));
  lt_tensor *i = make(LT_INT64, 1, A(8));
  CHECK_FAILS(lt_fft(c, 0, 0, LT_FFT_C2C, 0, 1.0, &y, &err), "invalid number of points");
  CHECK_FAILS(lt_fft(c, 0, -3, LT_FFT_C2C, 0, 1.0, &y, &err), "invalid number of points");
  CHECK_FAILS(lt_fft(c, 0, 9, LT_FFT_C2C, 0, 1.0, &y, &err), "expected 9 points along dim 1");
  CHECK_FAILS(lt_fft(c, 0, 8, LT_FFT_C2R, 0, 1.0, &y, &err), "expected 5 points");
  CHECK_FAILS(lt_fft(c, 0, 8, LT_FFT_R2C, 0, 1.0, &y, &err), "expected a float32 or float64");
  CHECK_FAILS(lt_fft(r, 0, 8, LT_FFT_C2C, 0, 1.0, &y, &err), "expected a complex64 or complex128");
  CHECK_FAILS(lt_fft(i, 0, 8, LT_FFT_R2C, 0, 1.0, &y, &err), "got int64");
  CHECK_FAILS(lt_fft(c, 1, 8, LT_FFT_C2C, 0, 1.0, &y, &err), "dim 2 out of range");
  CHECK(y == NULL);
  lt_tensor_free(e), lt_tensor_free(e3), lt_tensor_free(c), lt_tensor_free(r), lt_tensor_free(i);
}

/* every path the processor has gives the same transform as the scalar path */
static void paths(void) {
  int64_t ns[] = {1, 7, 16, 60, 97, 210, 1009, 4096};
  for (int p = 0; p < 2; p++)
    for (size_t t = 0; t < sizeof ns / sizeof *ns; t++) {
      int64_t n = ns[t];
      int owned;
      lt_fft_plan *P = lt_fft_plan_get(n, p, 0, &owned);
      CHECK(P != NULL);
      if (!P) continue;
      double *ref = NULL, tol = p ? 1e-12 : 1e-5;
      for (int lv = LT_CPU_SCALAR; lv <= lt_cpu_level_max(); lv++) {
        const lt_fft_kern *K = lt_fft_kern_level(p, lv);
        size_t bytes = (size_t)lt_fft_plan_need(P) * K->cvbytes;
        char *raw = malloc(2 * bytes + 64), *a = raw + (64 - (uintptr_t)raw % 64) % 64;
        if (!raw) exit(2);
        for (int64_t k = 0; k < n; k++) /* the same lines on every path's lanes */
          for (int l = 0; l < 2 * K->w; l++) {
            double v = sin(1.3 * (double)k + 0.7 * (l / K->w) + (l % K->w));
            if (p)
              ((double *)a)[k * 2 * K->w + l] = v;
            else
              ((float *)a)[k * 2 * K->w + l] = (float)v;
          }
        char *r = K->exec(P, a, a + bytes);
        double *got = malloc(sizeof(double) * 2 * (size_t)n);
        for (int64_t k = 0; k < n; k++) /* lane 0 */
          for (int c = 0; c < 2; c++)
            got[2 * k + c] =
                p ? ((double *)r)[k * 2 * K->w + c * K->w] : ((float *)r)[k * 2 * K->w + c * K->w];
        if (!ref) {
          ref = got;
        } else {
          double md = 0, mr = 0;
          for (int64_t k = 0; k < 2 * n; k++) {
            if (fabs(ref[k]) > mr) mr = fabs(ref[k]);
            if (!(fabs(ref[k] - got[k]) <= md)) md = fabs(ref[k] - got[k]);
          }
          CHECKF(md <= tol * mr, "%s path n=%lld f64=%d: %g", lt_cpu_level_name(lv), (long long)n,
                 p, md / mr);
          free(got);
        }
        free(raw);
      }
      free(ref);
      if (owned) lt_fft_plan_free(P);
    }
}

int main(void) {
  printf("test_fft: the %s path\n", lt_cpu_level_name(lt_cpu_level()));
  for (int64_t n = 1; n <= 64; n++) check_n(n, 3, 0);
  int64_t mid[] = {97, 101, 360, 1000, 1009, 1024, 2053, 4096};
  for (size_t i = 0; i < sizeof mid / sizeof *mid; i++) {
    check_n(mid[i], 2, mid[i] > 1024 ? 40 : 0);
    check_n(mid[i], 0, mid[i] > 1024 ? 40 : 0); /* one line: the four-step from 2048 */
  }
  int64_t big[] = {5003, 12289, 3 * 8192, 2 * 10007};
  for (size_t i = 0; i < sizeof big / sizeof *big; i++) check_n(big[i], 0, 12);
  check_n(12289, 3, 6);
  check_n(3 * 8192, 2, 8);      /* long lines of a batch: read and written in place */
  for (int p = 0; p < 2; p++) { /* 2^20: C2C and R2C, one line */
    int64_t n = (int64_t)1 << 20;
    lt_tensor *c = rand_tensor(cpx_dt[p], 1, A(n)), *r = rand_tensor(real_dt[p], 1, A(n));
    tu_set_context("2^20");
    check(c, 0, n, LT_FFT_C2C, 0, 1.0, 10);
    check(r, 0, n, LT_FFT_R2C, 1, 1.0, 10);
    lt_tensor_free(c), lt_tensor_free(r);
  }
  int64_t rt[] = {1, 2, 5, 64, 1000, 1009, 4096, 3 * 8192};
  for (size_t i = 0; i < sizeof rt / sizeof *rt; i++) round_trip(rt[i]);
  tu_set_context("views");
  views();
  tu_set_context("errors");
  empty_and_errors();
  tu_set_context("paths");
  paths();
  free(twl);
  return tu_finish("test_fft");
}
