/*
 * lt_fft_plan.c -- building, caching and freeing the plans of lt_fft (see lt_fft_plan.h).
 * Lua-free.
 *
 * Calls lt_fft_kern.c (the transform of Bluestein's chirp, once per plan). Called by lt_fft.c.
 */
#include "lt_fft_plan.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const double HALF_PI = 1.57079632679489661923;

void lt_fft_twiddle(int64_t k, int64_t n, double *re, double *im) {
  k %= n;
  if (k < 0) k += n;
  /* angle 2 pi k / n = quadrant q (pi / 2) + (pi / 2) r / n, r in [0, n) */
  int64_t q = k * 4 / n, r = k * 4 - q * n; /* n < 2^61: sizes are far below */
  double c, s;
  if (2 * r <= n) {
    double a = HALF_PI * (double)r / (double)n;
    c = cos(a), s = sin(a);
  } else {
    double a = HALF_PI * (double)(n - r) / (double)n;
    c = sin(a), s = cos(a);
  }
  double cc[4] = {c, -s, -c, s}, ss[4] = {s, c, -s, -c};
  *re = cc[q], *im = -ss[q];
}

/* the values of a table in the plan's precision */
static void *table(int64_t count, int f64) {
  size_t sz = f64 ? sizeof(double) : sizeof(float);
  if (count < 1) count = 1;
  return malloc(sz * 2 * (size_t)count);
}

static void put(void *t, int f64, int64_t i, double re, double im) {
  if (f64)
    ((double *)t)[2 * i] = re, ((double *)t)[2 * i + 1] = im;
  else
    ((float *)t)[2 * i] = (float)re, ((float *)t)[2 * i + 1] = (float)im;
}

static int64_t largest_prime(int64_t n) {
  int64_t p = 1;
  for (int64_t d = 2; d * d <= n; d++)
    while (n % d == 0) p = d, n /= d;
  return n > 1 ? n : p;
}

static int smooth(int64_t n) { return largest_prime(n) <= LT_FFT_RADIX_MAX; }

void lt_fft_plan_free(lt_fft_plan *p) {
  if (!p) return;
  lt_fft_plan_free(p->sub);
  lt_fft_plan_free(p->p1);
  lt_fft_plan_free(p->p2);
  free(p->tw), free(p->rtw), free(p->chirp), free(p->bfft), free(p->tw4b), free(p->tw4s);
  free(p);
}

int lt_fft_plan_lanes(const lt_fft_plan *p) {
  return p->kind == LT_FFTP_DIRECT || p->kind == LT_FFTP_BLUE;
}

int64_t lt_fft_plan_need(const lt_fft_plan *p) { return p->kind == LT_FFTP_BLUE ? p->m : p->n; }

static int direct(lt_fft_plan *p) {
  int64_t n = p->n, rest = n, ntw = 0, l1 = 1;
  while (rest % 4 == 0) p->fac[p->nfac++] = 4, rest /= 4;
  while (rest % 2 == 0) p->fac[p->nfac++] = 2, rest /= 2;
  for (int64_t d = 3; rest > 1; d += 2)
    while (rest % d == 0) p->fac[p->nfac++] = (int)d, rest /= d;
  for (int f = 0; f < p->nfac; f++) {
    int64_t ip = p->fac[f], ido = n / (l1 * ip);
    p->twoff[f] = ntw, ntw += (ip - 1) * (ido - 1);
    p->rootoff[f] = ntw, ntw += ip;
    l1 *= ip;
  }
  if (!(p->tw = table(ntw, p->f64))) return -1;
  l1 = 1;
  for (int f = 0; f < p->nfac; f++) {
    int64_t ip = p->fac[f], ido = n / (l1 * ip);
    double re, im;
    for (int64_t j = 1; j < ip; j++)
      for (int64_t i = 1; i < ido; i++) {
        lt_fft_twiddle(j * l1 * i, n, &re, &im);
        put(p->tw, p->f64, p->twoff[f] + (j - 1) * (ido - 1) + i - 1, re, im);
      }
    for (int64_t q = 0; q < ip; q++) { /* cos, sin of 2 pi q / p */
      lt_fft_twiddle(q, ip, &re, &im);
      put(p->tw, p->f64, p->rootoff[f] + q, re, -im);
    }
    l1 *= ip;
  }
  return 0;
}

static lt_fft_plan *build(int64_t n, int f64, int big);

/* Bluestein: the chirp, and the scaled transform of its conjugate wrapped to m */
static int blue(lt_fft_plan *p) {
  int64_t n = p->n, m = 1;
  while (m < 2 * n - 1) m *= 2;
  p->m = m;
  if (!(p->sub = build(m, p->f64, m > LT_FFT_LANE_MAX)) || !(p->chirp = table(n, p->f64)) ||
      !(p->bfft = table(m, p->f64)))
    return -1;
  double *b = calloc((size_t)m, 2 * sizeof(double));
  if (!b) return -1;
  for (int64_t k = 0, sq = 0; k < n; k++) { /* sq = k^2 mod 2n */
    double re, im;
    lt_fft_twiddle(sq, 2 * n, &re, &im);
    put(p->chirp, p->f64, k, re, im);
    b[2 * k] = re, b[2 * k + 1] = -im;
    if (k) b[2 * (m - k)] = re, b[2 * (m - k) + 1] = -im;
    sq = (sq + 2 * k + 1) % (2 * n);
  }
  /* the transform of b, once, in double: a DIRECT or FOUR plan of m is a power of two, so the
     exact O(m log m) recursion below is enough (a radix-2 decimation in time) */
  double *t = malloc(sizeof(double) * 2 * (size_t)m);
  if (!t) {
    free(b);
    return -1;
  }
  int bits = 0;
  while (((int64_t)1 << bits) < m) bits++;
  for (int64_t i = 0; i < m; i++) {
    int64_t r = 0;
    for (int k = 0; k < bits; k++)
      if (i >> k & 1) r |= (int64_t)1 << (bits - 1 - k);
    t[2 * r] = b[2 * i], t[2 * r + 1] = b[2 * i + 1];
  }
  for (int64_t len = 2; len <= m; len *= 2)
    for (int64_t s = 0; s < m; s += len)
      for (int64_t k = 0; k < len / 2; k++) {
        double wr, wi;
        lt_fft_twiddle(k, len, &wr, &wi);
        double *u = t + 2 * (s + k), *v = t + 2 * (s + k + len / 2);
        double xr = v[0] * wr - v[1] * wi, xi = v[0] * wi + v[1] * wr;
        v[0] = u[0] - xr, v[1] = u[1] - xi, u[0] += xr, u[1] += xi;
      }
  for (int64_t k = 0; k < m; k++)
    put(p->bfft, p->f64, k, t[2 * k] / (double)m, t[2 * k + 1] / (double)m);
  free(t), free(b);
  return 0;
}

/* the n1 of a four-step split: a divisor near sqrt(n) that runs on lanes (smooth first) */
static int64_t split(int64_t n) {
  int64_t r = (int64_t)sqrt((double)n);
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  for (int pass = 0; pass < 2; pass++)
    for (int64_t d = r < LT_FFT_LANE_MAX ? r : LT_FFT_LANE_MAX; d >= 2; d--)
      if (n % d == 0 && (pass ? d <= LT_FFT_LANE_MAX / 2 : smooth(d))) return d;
  return 0;
}

static int four(lt_fft_plan *p, int64_t n1) {
  int64_t n = p->n, n2 = n / n1, nb = (n2 + LT_FFT_G - 1) / LT_FFT_G;
  p->n1 = n1, p->n2 = n2;
  if (!(p->p1 = build(n1, p->f64, 0)) || !(p->p2 = build(n2, p->f64, n2 > LT_FFT_LANE_MAX)) ||
      !(p->tw4b = table(n1 * nb, p->f64)) || !(p->tw4s = table(n1 * LT_FFT_G, p->f64)))
    return -1;
  double re, im;
  for (int64_t k1 = 0; k1 < n1; k1++) {
    for (int64_t b = 0; b < nb; b++) {
      lt_fft_twiddle(k1 * b * LT_FFT_G, n, &re, &im);
      put(p->tw4b, p->f64, k1 * nb + b, re, im);
    }
    for (int64_t g = 0; g < LT_FFT_G; g++) { /* G real parts, then G imaginary parts */
      lt_fft_twiddle(k1 * g, n, &re, &im);
      if (p->f64)
        ((double *)p->tw4s)[k1 * 2 * LT_FFT_G + g] = re,
                                                ((double *)
                                                     p->tw4s)[k1 * 2 * LT_FFT_G + LT_FFT_G + g] =
                                                    im;
      else
        ((float *)p->tw4s)[k1 * 2 * LT_FFT_G + g] = (float)re,
                                               ((float *)
                                                    p->tw4s)[k1 * 2 * LT_FFT_G + LT_FFT_G + g] =
                                                   (float)im;
    }
  }
  return 0;
}

static lt_fft_plan *build(int64_t n, int f64, int big) {
  lt_fft_plan *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n, p->f64 = f64, p->big = big;
  int rc;
  int64_t n1 = (big || n > LT_FFT_LANE_MAX) && n >= 2048 ? split(n) : 0;
  if (n1 >= 2 && (n1 >= 16 || n > LT_FFT_LANE_MAX)) {
    p->kind = LT_FFTP_FOUR;
    rc = four(p, n1);
  } else if (n <= LT_FFT_LANE_MAX && smooth(n)) {
    p->kind = LT_FFTP_DIRECT;
    rc = direct(p);
  } else if (n <= LT_FFT_LANE_MAX / 2) {
    p->kind = LT_FFTP_BLUE;
    rc = blue(p);
  } else if (n1 >= 2) {
    p->kind = LT_FFTP_FOUR;
    rc = four(p, n1);
  } else {
    p->kind = LT_FFTP_BIGBLUE;
    rc = blue(p);
  }
  if (rc == 0 && (p->rtw = table(n + 1, f64)))
    for (int64_t k = 0; k <= n; k++) {
      double re, im;
      lt_fft_twiddle(k, 2 * n, &re, &im);
      put(p->rtw, f64, k, re, im);
    }
  if (rc || !p->rtw) {
    lt_fft_plan_free(p);
    return NULL;
  }
  return p;
}

static _Atomic(lt_fft_plan *) cache[LT_FFT_CACHE_SLOTS];

lt_fft_plan *lt_fft_plan_get(int64_t n, int f64, int big, int *owned) {
  big = big && n >= 2048;
  *owned = 0;
  for (int s = 0; s < LT_FFT_CACHE_SLOTS; s++) {
    lt_fft_plan *p = atomic_load_explicit(&cache[s], memory_order_acquire);
    if (!p) break;
    if (p->n == n && p->f64 == f64 && p->big == big) return p;
  }
  lt_fft_plan *p = build(n, f64, big);
  if (!p) return NULL;
  for (int s = 0; s < LT_FFT_CACHE_SLOTS; s++) {
    lt_fft_plan *expect = NULL;
    if (atomic_compare_exchange_strong_explicit(&cache[s], &expect, p, memory_order_acq_rel,
                                                memory_order_acquire))
      return p;
  }
  *owned = 1;
  return p;
}
