/*
 * test_linalg_small.c -- the small matrices' kernels (lt_linalg_small.h): inv, det and solve of
 * batches of 1x1 to 4x4 float32 and float64 matrices against a Gauss-Jordan reference in long
 * double (complex64 and complex128 too: random and singular, contiguous and transposed), on random,
 * ill-conditioned (cond ~1e3 for float32, ~1e6 for float64), singular, NaN and strided batches
 * (transposed matrices, every other matrix of a batch, two batch dims), the empty and 0x0 cases,
 * and the refusals. Tolerances grow with the condition number as LAPACK's error bound does. Ends
 * with the time of 100k 4x4 float32 inversions and determinants.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <time.h>

#include "lt_linalg_small.h"
#include "test_core.h"

static uint64_t rng = 88172645463325252u;
static double urand(void) { /* xorshift64 into [-1, 1) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / (double)(UINT64_C(1) << 52) - 1;
}

enum { RANDOM, ILL, SINGULAR, NANS };

/* Element (i, j) of matrix m of kind `kind` (n x n), reproducible from (m, kind). Ill: the last
   row is the first plus `tiny` times noise; singular: column m % n is zero. */
static void fill_matrix(double *a, int n, int kind, int64_t m, double tiny) {
  for (int i = 0; i < n * n; i++) a[i] = urand();
  if (kind == ILL && n > 1)
    for (int j = 0; j < n; j++) a[(n - 1) * n + j] = a[j] + tiny * urand();
  if (kind == SINGULAR)
    for (int i = 0; i < n; i++) a[i * n + m % n] = 0;
  if (kind == NANS) a[m % (n * n)] = NAN;
}

/* Gauss-Jordan with partial pivoting in long double: x = a^-1 b (b n x k), det; 0 when a
   pivot is zero. */
static int reference(const double *a0, const double *b0, int n, int k, long double *x,
                     long double *det) {
  long double a[16], b[64];
  for (int i = 0; i < n * n; i++) a[i] = a0[i];
  for (int i = 0; i < n * k; i++) b[i] = b0[i];
  *det = 1;
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (fabsl(a[r * n + c]) > fabsl(a[p * n + c])) p = r;
    if (a[p * n + c] == 0) return *det = 0, 0;
    if (p != c) {
      *det = -*det;
      for (int j = 0; j < n; j++) {
        long double t = a[c * n + j];
        a[c * n + j] = a[p * n + j], a[p * n + j] = t;
      }
      for (int j = 0; j < k; j++) {
        long double t = b[c * k + j];
        b[c * k + j] = b[p * k + j], b[p * k + j] = t;
      }
    }
    long double d = a[c * n + c];
    *det *= d;
    for (int j = 0; j < n; j++) a[c * n + j] /= d;
    for (int j = 0; j < k; j++) b[c * k + j] /= d;
    for (int r = 0; r < n; r++) {
      long double f = a[r * n + c];
      if (r == c || f == 0) continue;
      for (int j = 0; j < n; j++) a[r * n + j] -= f * a[c * n + j];
      for (int j = 0; j < k; j++) b[r * k + j] -= f * b[c * k + j];
    }
  }
  for (int i = 0; i < n * k; i++) x[i] = b[i];
  return 1;
}

/* A batch of `count` n x n matrices of one kind in a tensor of dtype dt, laid out as `layout`
   says: 0 contiguous, 1 each matrix transposed (a view), 2 every other matrix of a batch twice
   as long, 3 a count/3 x 3 batch. The values (in double, row-major per matrix) go to vals. */
static lt_tensor *make_batch(lt_dtype dt, int64_t count, int n, int kind, int layout, double *vals,
                             double tiny) {
  int64_t total = layout == 2 ? 2 * count : count;
  lt_tensor *base = make(dt, 3, A(total, n, n)), *v = NULL;
  for (int64_t m = 0; m < total; m++) {
    double a[16];
    fill_matrix(a, n, kind, m / (layout == 2 ? 2 : 1), tiny);
    int64_t src = layout == 2 ? m / 2 : m;
    for (int i = 0; i < n * n; i++) {
      int r = i / n, c = i % n, at = layout == 1 ? c * n + r : i; /* transposed storage */
      if (dt == LT_FLOAT32)
        ((float *)lt_data(base))[m * n * n + at] = (float)a[i];
      else
        ((double *)lt_data(base))[m * n * n + at] = a[i];
      if (layout != 2 || m % 2 == 0)
        vals[src * n * n + i] = dt == LT_FLOAT32 ? (double)(float)a[i] : a[i];
    }
  }
  if (layout == 1) CHECK_OK(lt_transpose(base, 1, 2, &v, &err));
  if (layout == 2) CHECK_OK(lt_slice(base, 0, 0, count, 2, &v, &err));
  if (layout == 3) CHECK_OK(lt_view(base, 4, A(count / 3, 3, n, n), &v, &err));
  if (!v) return base;
  lt_tensor_free(base);
  return v;
}

static double elem(const lt_tensor *t, int64_t i) {
  return t->dtype == LT_FLOAT32 ? (double)((const float *)lt_data(t))[i]
                                : ((const double *)lt_data(t))[i];
}

static double norm1(const double *a, int n) { /* max column sum */
  double best = 0;
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < n; i++) s += fabs(a[i * n + j]);
    best = s > best ? s : best;
  }
  return best;
}

/* inv, det and solve (two right-hand sides) of one batch, checked matrix by matrix. */
static void check_batch(lt_dtype dt, int n, int kind, int layout) {
  int64_t count = 48 + 3; /* three blocks of 16 and a partial one; a multiple of 3 */
  double eps = dt == LT_FLOAT32 ? 0x1p-24 : 0x1p-53, tiny = dt == LT_FLOAT32 ? 1e-3 : 1e-6;
  double *vals = malloc((size_t)count * 16 * sizeof *vals);
  tu_set_context("%s n=%d kind=%d layout=%d", lt_dtypes[dt].name, n, kind, layout);
  lt_tensor *a = make_batch(dt, count, n, kind, layout, vals, tiny), *inv = NULL, *info = NULL;
  lt_tensor *det = NULL, *b = make(dt, 3, A(count, n, 2)), *x = NULL, *xinfo = NULL, *bv = b;
  if (layout == 3) CHECK_OK(lt_view(b, 4, A(count / 3, 3, n, 2), &bv, &err));
  double *bvals = malloc((size_t)count * 8 * sizeof *bvals);
  for (int64_t i = 0; i < count * n * 2; i++) {
    double v = urand();
    bvals[i] = dt == LT_FLOAT32 ? (double)(float)v : v;
    if (dt == LT_FLOAT32)
      ((float *)lt_data(b))[i] = (float)v;
    else
      ((double *)lt_data(b))[i] = v;
  }
  CHECK_OK(lt_small_inv(a, &inv, &info, &err));
  CHECK_OK(lt_small_det(a, &det, &err));
  CHECK_OK(lt_small_solve(a, bv, &x, &xinfo, &err));
  CHECK(inv && inv->ndim == a->ndim && lt_is_contiguous(inv) && info->dtype == LT_INT32);
  CHECK(det && det->ndim == a->ndim - 2 && det->dtype == dt && x && x->ndim == a->ndim);
  for (int64_t m = 0; inv && det && x && m < count; m++) {
    const double *am = vals + m * n * n;
    double ident[16] = {0};
    for (int i = 0; i < n; i++) ident[i * n + i] = 1;
    long double rinv[16], rx[8], rdet;
    int ok = reference(am, ident, n, n, rinv, &rdet);
    reference(am, bvals + m * n * 2, n, 2, rx, &rdet);
    int32_t got_info = ((int32_t *)lt_data(info))[m];
    if (kind == NANS) { /* no crash, NaN out */
      CHECK(isnan(elem(det, m)));
      continue;
    }
    if (!ok) {
      CHECKF(got_info == (int)(m % n) + 1, "matrix %lld: info %d", (long long)m, got_info);
      CHECKF(elem(det, m) == 0, "matrix %lld: det %g", (long long)m, elem(det, m));
      CHECK(((int32_t *)lt_data(xinfo))[m] == got_info);
      continue;
    }
    CHECKF(got_info == 0, "matrix %lld: info %d", (long long)m, got_info);
    double rinvd[16], scale = 0, ex = 0, xs = 0;
    for (int i = 0; i < n * n; i++) rinvd[i] = (double)rinv[i];
    double cond = norm1(am, n) * norm1(rinvd, n), tol = 8 * n * cond * eps;
    for (int i = 0; i < n * n; i++) {
      scale = fmax(scale, fabs(rinvd[i]));
      ex = fmax(ex, fabs(elem(inv, m * n * n + i) - rinvd[i]));
    }
    CHECKF(ex <= tol * scale, "matrix %lld: inverse off by %g (scale %g, cond %g)", (long long)m,
           ex, scale, cond);
    double dd = fabs(elem(det, m) - (double)rdet);
    CHECKF(dd <= tol * fabs((double)rdet) + 1e-300, "matrix %lld: det %g, expected %g",
           (long long)m, elem(det, m), (double)rdet);
    ex = 0;
    for (int i = 0; i < n * 2; i++) {
      xs = fmax(xs, fabs((double)rx[i]));
      ex = fmax(ex, fabs(elem(x, m * n * 2 + i) - (double)rx[i]));
    }
    CHECKF(ex <= tol * xs, "matrix %lld: solution off by %g (scale %g)", (long long)m, ex, xs);
  }
  tu_set_context("%s", "");
  if (bv != b) lt_tensor_free(bv);
  lt_tensor_free(b);
  lt_tensor_free(a), lt_tensor_free(inv), lt_tensor_free(info), lt_tensor_free(det);
  lt_tensor_free(x), lt_tensor_free(xinfo);
  free(vals), free(bvals);
}

/* {====== complex ====== */

typedef struct {
  long double re, im;
} lc;

static lc lc_mul(lc a, lc b) { return (lc){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static lc lc_div(lc a, lc b) {
  long double d = b.re * b.re + b.im * b.im;
  return (lc){(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
static long double lc_abs(lc a) { return sqrtl(a.re * a.re + a.im * a.im); }

/* Gauss-Jordan with partial pivoting in long double complex: a^-1 into x (n x n) and det; 0
   when a pivot is zero. a is destroyed. */
static int lc_reference(lc *a, int n, lc *x, lc *det) {
  for (int i = 0; i < n * n; i++) x[i] = (lc){i / n == i % n, 0};
  *det = (lc){1, 0};
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (lc_abs(a[r * n + c]) > lc_abs(a[p * n + c])) p = r;
    if (lc_abs(a[p * n + c]) == 0) return 0;
    for (int j = 0; p != c && j < n; j++) {
      lc t = a[c * n + j];
      a[c * n + j] = a[p * n + j], a[p * n + j] = t;
      t = x[c * n + j], x[c * n + j] = x[p * n + j], x[p * n + j] = t;
    }
    if (p != c) det->re = -det->re, det->im = -det->im;
    lc d = a[c * n + c];
    *det = lc_mul(*det, d);
    for (int j = 0; j < n; j++)
      a[c * n + j] = lc_div(a[c * n + j], d), x[c * n + j] = lc_div(x[c * n + j], d);
    for (int r = 0; r < n; r++) {
      lc f = a[r * n + c];
      for (int j = 0; r != c && j < n; j++) {
        lc u = lc_mul(f, a[c * n + j]), v = lc_mul(f, x[c * n + j]);
        a[r * n + j].re -= u.re, a[r * n + j].im -= u.im;
        x[r * n + j].re -= v.re, x[r * n + j].im -= v.im;
      }
    }
  }
  return 1;
}

/* inv and det of 21 complex n x n matrices (random, or column m % n zero), contiguous or each
   transposed; solve with the identity as B gives the inverse too. */
static void check_complex(lt_dtype dt, int n, int singular, int transposed) {
  int64_t count = 21;
  double eps = dt == LT_COMPLEX64 ? 0x1p-24 : 0x1p-53;
  tu_set_context("%s n=%d singular=%d transposed=%d", lt_dtypes[dt].name, n, singular, transposed);
  lt_tensor *base = make(dt, 3, A(count, n, n)), *a = base, *inv = NULL, *info = NULL, *det = NULL;
  lt_tensor *eye = make(dt, 3, A(count, n, n)), *x = NULL, *xinfo = NULL;
  lc *vals = malloc((size_t)count * 16 * sizeof *vals);
  for (int64_t m = 0; m < count; m++)
    for (int i = 0; i < n * n; i++) {
      int r = i / n, c = i % n, at = transposed ? c * n + r : i;
      double re = singular && c == m % n ? 0 : urand(), im = singular && c == m % n ? 0 : urand();
      if (dt == LT_COMPLEX64) {
        ((lt_c64 *)lt_data(base))[m * n * n + at] = (lt_c64){(float)re, (float)im};
        re = (float)re, im = (float)im;
      } else {
        ((lt_c128 *)lt_data(base))[m * n * n + at] = (lt_c128){re, im};
      }
      vals[m * 16 + i] = (lc){re, im};
      if (r == c) {
        if (dt == LT_COMPLEX64)
          ((lt_c64 *)lt_data(eye))[m * n * n + i] = (lt_c64){1, 0};
        else
          ((lt_c128 *)lt_data(eye))[m * n * n + i] = (lt_c128){1, 0};
      }
    }
  if (transposed) CHECK_OK(lt_transpose(base, 1, 2, &a, &err));
  CHECK_OK(lt_small_inv(a, &inv, &info, &err));
  CHECK_OK(lt_small_det(a, &det, &err));
  CHECK_OK(lt_small_solve(a, eye, &x, &xinfo, &err));
  for (int64_t m = 0; inv && det && x && m < count; m++) {
    lc ref[16], rdet, am[16];
    memcpy(am, vals + m * 16, sizeof am);
    int ok = lc_reference(am, n, ref, &rdet);
    int32_t got = ((int32_t *)lt_data(info))[m];
    lt_scalar d;
    lt_load(dt, lt_data(det) + m * (int64_t)lt_esize(det), &d);
    if (!ok) {
      CHECKF(got == (int)(m % n) + 1 && d.v.f == 0 && d.im == 0, "matrix %lld: info %d, det %g%+gi",
             (long long)m, got, d.v.f, d.im);
      continue;
    }
    double anorm = 0, xnorm = 0, ex = 0, exs = 0;
    for (int i = 0; i < n * n; i++) {
      anorm = fmax(anorm, (double)lc_abs(vals[m * 16 + i]));
      xnorm = fmax(xnorm, (double)lc_abs(ref[i]));
    }
    double tol = 16 * n * n * anorm * xnorm * eps; /* cond ~ n |A| |A^-1| */
    for (int i = 0; i < n * n; i++) {
      lt_scalar v, w;
      lt_load(dt, lt_data(inv) + (m * n * n + i) * (int64_t)lt_esize(inv), &v);
      lt_load(dt, lt_data(x) + (m * n * n + i) * (int64_t)lt_esize(x), &w);
      ex = fmax(ex, hypot(v.v.f - (double)ref[i].re, v.im - (double)ref[i].im));
      exs = fmax(exs, hypot(w.v.f - v.v.f, w.im - v.im));
    }
    CHECKF(got == 0 && ex <= tol * xnorm, "matrix %lld: info %d, inverse off by %g (tol %g)",
           (long long)m, got, ex, tol * xnorm);
    CHECKF(exs <= tol * xnorm, "matrix %lld: solve(A, I) off inv(A) by %g", (long long)m, exs);
    double dd = hypot(d.v.f - (double)rdet.re, d.im - (double)rdet.im);
    CHECKF(dd <= tol * (double)lc_abs(rdet), "matrix %lld: det off by %g", (long long)m, dd);
  }
  tu_set_context("%s", "");
  if (a != base) lt_tensor_free(a);
  lt_tensor_free(base), lt_tensor_free(eye), lt_tensor_free(inv), lt_tensor_free(info);
  lt_tensor_free(det), lt_tensor_free(x), lt_tensor_free(xinfo);
  free(vals);
}

/* }====== */

/* Empty batches, 0x0 matrices (det 1), 0-d batch shapes and the refusals. */
static void test_edges(void) {
  lt_tensor *a = make(LT_FLOAT32, 3, A(0, 3, 3)), *inv = NULL, *info = NULL, *det = NULL;
  CHECK_OK(lt_small_inv(a, &inv, &info, &err));
  CHECK(inv->shape[0] == 0 && info->ndim == 1 && info->shape[0] == 0);
  lt_tensor_free(a), lt_tensor_free(inv), lt_tensor_free(info);
  a = make(LT_FLOAT64, 3, A(2, 0, 0));
  CHECK_OK(lt_small_det(a, &det, &err));
  CHECK(det->shape[0] == 2 && elem(det, 0) == 1 && elem(det, 1) == 1);
  lt_tensor_free(a), lt_tensor_free(det);
  a = make(LT_FLOAT64, 2, A(2, 2)); /* one matrix: a 0-d det */
  ((double *)lt_data(a))[0] = 3, ((double *)lt_data(a))[3] = 2;
  CHECK_OK(lt_small_det(a, &det, &err));
  CHECK(det->ndim == 0 && elem(det, 0) == 6);
  lt_tensor_free(det), lt_tensor_free(a);

  CHECK(lt_small_takes(LT_FLOAT32, 4) && lt_small_takes(LT_FLOAT64, 1));
  CHECK(!lt_small_takes(LT_FLOAT32, 5) && !lt_small_takes(LT_INT64, 2));
  CHECK(!lt_small_takes(LT_FLOAT16, 2) && !lt_small_takes(LT_FLOAT32, -1));
  CHECK(lt_small_takes(LT_COMPLEX64, 3) && lt_small_takes(LT_COMPLEX128, 4));
  CHECK(!lt_small_takes(LT_COMPLEX128, 5));
  lt_tensor *x = NULL;
  a = make(LT_INT64, 2, A(2, 2));
  CHECK_FAILS(lt_small_inv(a, &inv, &info, &err), "inv: the small kernels take");
  lt_tensor_free(a);
  a = make(LT_FLOAT32, 2, A(5, 5));
  CHECK_FAILS(lt_small_det(a, &det, &err), "det: the small kernels take");
  lt_tensor_free(a);
  a = make(LT_FLOAT32, 2, A(2, 3));
  CHECK_FAILS(lt_small_det(a, &det, &err), "square matrices");
  lt_tensor_free(a);
  a = make(LT_FLOAT32, 1, A(4));
  CHECK_FAILS(lt_small_inv(a, &inv, &info, &err), "2 or more dimensions");
  lt_tensor_free(a);
  a = make(LT_FLOAT32, 3, A(2, 3, 3));
  lt_tensor *b = make(LT_FLOAT32, 3, A(3, 3, 1));
  CHECK_FAILS(lt_small_solve(a, b, &x, &info, &err), "batch shape");
  lt_tensor_free(b);
  b = make(LT_FLOAT64, 3, A(2, 3, 1));
  CHECK_FAILS(lt_small_solve(a, b, &x, &info, &err), "dtype");
  lt_tensor_free(b);
  b = make(LT_FLOAT32, 3, A(2, 3, 0)); /* no right-hand side */
  CHECK_OK(lt_small_solve(a, b, &x, &info, &err));
  CHECK(x->shape[2] == 0 && info->shape[0] == 2);
  lt_tensor_free(b), lt_tensor_free(a), lt_tensor_free(x), lt_tensor_free(info);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The figures bench/lapack.c compares with NumPy: 100k 4x4 float32 inv and det. */
static void time_kernels(void) {
  int64_t count = 100000;
  lt_tensor *a = make(LT_FLOAT32, 3, A(count, 4, 4)), *inv = NULL, *info = NULL, *det = NULL;
  for (int64_t i = 0; i < count * 16; i++) ((float *)lt_data(a))[i] = (float)urand();
  double best_inv = 1e9, best_det = 1e9;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now();
    CHECK_OK(lt_small_inv(a, &inv, &info, &err));
    double t1 = now();
    CHECK_OK(lt_small_det(a, &det, &err));
    double t2 = now();
    best_inv = fmin(best_inv, t1 - t0), best_det = fmin(best_det, t2 - t1);
    lt_tensor_free(inv), lt_tensor_free(info), lt_tensor_free(det);
  }
  printf("100k 4x4 float32: inv %.2f ms, det %.2f ms\n", best_inv * 1e3, best_det * 1e3);
  lt_tensor_free(a);
}

int main(void) {
  lt_dtype dts[] = {LT_FLOAT32, LT_FLOAT64};
  for (int d = 0; d < 2; d++)
    for (int n = 1; n <= 4; n++)
      for (int kind = RANDOM; kind <= NANS; kind++)
        for (int layout = 0; layout < 4; layout++) check_batch(dts[d], n, kind, layout);
  for (int n = 1; n <= 4; n++)
    for (int v = 0; v < 4; v++) {
      check_complex(LT_COMPLEX64, n, v & 1, v >> 1);
      check_complex(LT_COMPLEX128, n, v & 1, v >> 1);
    }
  test_edges();
  time_kernels();
  return tu_finish("test_linalg_small");
}
