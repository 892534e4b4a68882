/*
 * fft.c -- bench_fft: lt_fft (the engine under lt.fft, called from C) against numpy.fft in an
 * embedded CPython, in the same run, on the same data:
 *
 *   rfft1M    rfft of 2^20 float32 (one line)
 *   fft1M     fft of 2^20 complex64 (one line; NumPy upcasts to complex128, that is its cost)
 *   fft2      fft2 of 1024x1024 complex64 (ours: two lt_fft calls, the last dim then the first)
 *   rfft1000  rfft of 1024 lines of 1000 float32 (2^3 5^3)
 *   rfft1009  rfft of 1024 lines of 1009 float32 (a prime: Bluestein)
 *
 * Goals: NumPy's time / ours >= 1.0 with ltensor at 1 thread and >= 1.5 at the default count
 * (NumPy's pocketfft is single-threaded and computes in float64). Each case runs interleaved
 * with the others, one loop per round, each keeping its best round (wall clock). Each case's
 * result is checked against NumPy's once (the sums of the real and imaginary parts).
 *
 * Usage: bench_fft
 * Env:   LTENSOR_BENCH_QUICK=1   fewer rounds and calls
 *        LTENSOR_BENCH_STRICT=1  exit status 1 when a goal is missed
 * Exit status 2 when something fails (Python, NumPy, a check).
 */
#include "pylua.h" /* Python.h first: it sets feature macros for the system headers */

#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lt_fft.h"
#include "ltensor.h"

static const char py_code[] = /* after import sys, numpy as np */
    "def data(count):\n"
    "    return np.sin(np.arange(count, dtype=np.float64) * 12.9898) * 43758.5453 % 1 - 0.5\n"
    "def cdata(count):\n"
    "    v = data(2 * count)\n"
    "    return (v[0::2] + 1j * v[1::2]).astype(np.complex64)\n"
    "x1M = data(1 << 20).astype(np.float32)\n"
    "c1M = cdata(1 << 20)\n"
    "c2 = cdata(1 << 20).reshape(1024, 1024)\n"
    "b1000 = data(1024 * 1000).astype(np.float32).reshape(1024, 1000)\n"
    "b1009 = data(1024 * 1009).astype(np.float32).reshape(1024, 1009)\n"
    "def rfft1M(n):\n"
    "    for _ in range(n): r = np.fft.rfft(x1M)\n"
    "def fft1M(n):\n"
    "    for _ in range(n): r = np.fft.fft(c1M)\n"
    "def fft2(n):\n"
    "    for _ in range(n): r = np.fft.fft2(c2)\n"
    "def rfft1000(n):\n"
    "    for _ in range(n): r = np.fft.rfft(b1000)\n"
    "def rfft1009(n):\n"
    "    for _ in range(n): r = np.fft.rfft(b1009)\n"
    "def sums(r):\n"
    "    return '%.9e %.9e' % (r.real.sum(), r.imag.sum())\n";

typedef struct {
  const char *label, *py, *check;
  lt_tensor *x;
  int kind, twod; /* lt_fft_kind; twod: fft2 (two calls) */
  long calls;
  double ours1, ours, np; /* best loop times, ns */
} fft_case;

static lt_error err;

static lt_tensor *data(lt_dtype dt, int ndim, const int64_t *shape) {
  lt_tensor *t = NULL;
  if (lt_tensor_new(dt, ndim, shape, 0, &t, &err)) return NULL;
  int64_t cnt = lt_numel(t) * (dt == LT_COMPLEX64 ? 2 : 1);
  for (int64_t i = 0; i < cnt; i++) {
    double v = sin((double)i * 12.9898) * 43758.5453;
    ((float *)lt_data(t))[i] = (float)(v - floor(v) - 0.5);
  }
  return t;
}

/* one call of case c: the result, or NULL */
static lt_tensor *once(const fft_case *c) {
  lt_tensor *y = NULL, *z = NULL;
  int last = c->x->ndim - 1;
  int64_t n = c->x->shape[last];
  if (lt_fft(c->x, last, n, (lt_fft_kind)c->kind, 0, 1.0, &y, &err)) return NULL;
  if (!c->twod) return y;
  int rc = lt_fft(y, 0, c->x->shape[0], LT_FFT_C2C, 0, 1.0, &z, &err);
  lt_tensor_free(y);
  return rc ? NULL : z;
}

static double ours_loop(const fft_case *c) {
  double t0 = bench_now_ns();
  for (long i = 0; i < c->calls; i++) {
    lt_tensor *y = once(c);
    if (!y) {
      fprintf(stderr, "bench_fft: %s: %s\n", c->label, err.msg);
      return -1;
    }
    lt_tensor_free(y);
  }
  return bench_now_ns() - t0;
}

/* our result's sums against NumPy's: 0, or -1 (reported) */
static int check(const fft_case *c) {
  lt_tensor *y = once(c);
  if (!y) return -1;
  double s[2] = {0, 0}, r[2];
  for (int64_t i = 0; i < 2 * lt_numel(y); i++) s[i % 2] += ((float *)lt_data(y))[i];
  lt_tensor_free(y);
  char code[64], buf[96];
  snprintf(code, sizeof code, "sums(np.fft.%s)", c->check);
  bench_py_str(code, buf, sizeof buf);
  if (sscanf(buf, "%lf %lf", &r[0], &r[1]) != 2) return -1;
  double scale = fabs(r[0]) + fabs(r[1]) + 1;
  if (fabs(s[0] - r[0]) > 1e-3 * scale || fabs(s[1] - r[1]) > 1e-3 * scale) {
    fprintf(stderr, "bench_fft: %s: sums %g %g, NumPy's %g %g\n", c->label, s[0], s[1], r[0], r[1]);
    return -1;
  }
  return 0;
}

static double best(int round, double old, double v) { return round == 1 || v < old ? v : old; }

int main(int argc, char **argv) {
  int quick = bench_flag("LTENSOR_BENCH_QUICK"), rounds = quick ? 2 : 5;
  double t_start = bench_now_ns();
  G = bench_py_open(argc, argv, "bench_fft", py_code, NULL, NULL, 0);
  if (!G) return 2;
  int64_t m = (int64_t)1 << 20;
  fft_case cs[] = {
      {"rfft 2^20 f32", "rfft1M", "rfft(x1M)", data(LT_FLOAT32, 1, &m), LT_FFT_R2C, 0, 4, 0, 0, 0},
      {"fft 2^20 c64", "fft1M", "fft(c1M)", data(LT_COMPLEX64, 1, &m), LT_FFT_C2C, 0, 2, 0, 0, 0},
      {"fft2 1024^2 c64", "fft2", "fft2(c2)", data(LT_COMPLEX64, 2, (int64_t[]){1024, 1024}),
       LT_FFT_C2C, 1, 2, 0, 0, 0},
      {"rfft 1024x1000", "rfft1000", "rfft(b1000)", data(LT_FLOAT32, 2, (int64_t[]){1024, 1000}),
       LT_FFT_R2C, 0, 4, 0, 0, 0},
      {"rfft 1024x1009", "rfft1009", "rfft(b1009)", data(LT_FLOAT32, 2, (int64_t[]){1024, 1009}),
       LT_FFT_R2C, 0, 4, 0, 0, 0}};
  int n = (int)(sizeof cs / sizeof *cs), threads = ltensor_get_num_threads();
  for (int i = 0; i < n; i++) {
    if (quick) cs[i].calls = (cs[i].calls + 1) / 2;
    if (!cs[i].x || check(&cs[i])) return 2;
  }
  for (int round = 1; round <= rounds; round++)
    for (int i = 0; i < n; i++) {
      fft_case *c = &cs[i];
      ltensor_set_num_threads(1);
      double a = ours_loop(c);
      ltensor_set_num_threads(threads);
      double b = ours_loop(c), p = bench_py_case("bench_fft", c->py, c->calls);
      if (a < 0 || b < 0 || p < 0) return 2;
      c->ours1 = best(round, c->ours1, a), c->ours = best(round, c->ours, b);
      c->np = best(round, c->np, p);
    }
  char npver[64];
  bench_py_str("np.__version__", npver, sizeof npver);
  printf("lt_fft against numpy.fft (NumPy %s), %s mode, best of %d rounds\n", npver,
         quick ? "quick" : "full", rounds);
  printf("(wall-clock ms per call; ltensor at 1 thread and at %d; ratio = NumPy's time / ours)\n",
         threads);
  printf("%-16s %9s %9s %9s %8s %5s %8s %5s %s\n", "case", "ours@1", "ours@def", "NumPy", "@1",
         "goal", "@def", "goal", "");
  int pass = 1;
  for (int i = 0; i < n; i++) {
    const fft_case *c = &cs[i];
    double k = 1e6 * (double)c->calls, r1 = c->np / c->ours1, rd = c->np / c->ours;
    int ok = bench_record("bench_fft", c->label, 1, c->ours1 / (double)c->calls,
                          c->np / (double)c->calls, "NumPy", r1, ">=", 1.0);
    ok &= bench_record("bench_fft", c->label, threads, c->ours / (double)c->calls,
                       c->np / (double)c->calls, "NumPy", rd, ">=", 1.5);
    pass = pass && ok;
    printf("%-16s %9.2f %9.2f %9.2f %7.2fx %5s %7.2fx %5s %s\n", c->label, c->ours1 / k,
           c->ours / k, c->np / k, r1, "1.0x", rd, "1.5x", ok ? "PASS" : "MISS");
  }
  printf("goals (>= 1.0x numpy.fft at 1 thread, >= 1.5x at %d): %s\n(%.1f s)\n", threads,
         pass ? "PASS" : "MISS", (bench_now_ns() - t_start) / 1e9);
  fflush(stdout);
  for (int i = 0; i < n; i++) lt_tensor_free(cs[i].x);
  if (Py_FinalizeEx() != 0) return 2;
  return bench_flag("LTENSOR_BENCH_STRICT") && !pass ? 1 : 0;
}
