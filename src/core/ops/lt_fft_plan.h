/*
 * lt_fft_plan.h -- the plans of lt_fft (how a length is transformed: factors, twiddles, the
 * Bluestein chirp, the four-step split), their cache, and the kernel table of one precision and
 * vector path. Lua-free.
 *
 * A plan computes the forward transform (exp(-2 pi i j k / n)) of one length in one precision;
 * lt_fft.c gets the inverse by conjugating on the way in and out. Kinds:
 *   DIRECT   n <= LT_FFT_LANE_MAX, every prime factor <= LT_FFT_RADIX_MAX: Stockham passes of
 *            radix 4, 2, 3, 5 and a generic odd radix, on blocks of lanes (W lines at once);
 *   BLUE     n <= LT_FFT_LANE_MAX / 2 with a larger prime factor: Bluestein's chirp-z through a
 *            DIRECT plan of a power of two m >= 2n - 1, also on lanes;
 *   FOUR     one long line: n = n1 x n2, the n1-point columns on lanes, a twiddle, the n2-point
 *            rows (on lanes, or FOUR/BIGBLUE again when n2 is itself long);
 *   BIGBLUE  one long line with a large prime factor: Bluestein through a FOUR plan of m.
 * Twiddles are computed in double from a small argument (octant symmetry) and rounded to the
 * plan's precision. Plans are shared read-only by the pool's threads; the cache publishes them
 * with an atomic compare-and-swap into a fixed number of slots (a plan that finds no free slot
 * is used once and freed by its caller). Cached plans stay reachable until exit.
 *
 * Calls lt_cpu.c (in lt_fft_kern.c). Called by lt_fft.c and lt_fft_kern.c.
 */
#ifndef LT_FFT_PLAN_H
#define LT_FFT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define LT_FFT_RADIX_MAX 61   /* the largest prime the generic radix takes; above: Bluestein */
#define LT_FFT_LANE_MAX 8192  /* the longest transform done on blocks of lanes */
#define LT_FFT_G 16           /* the four-step twiddle's column granularity: W divides it */
#define LT_FFT_MAXFAC 64      /* factors of a DIRECT plan */
#define LT_FFT_CACHE_SLOTS 32 /* plans kept */

typedef enum { LT_FFTP_DIRECT, LT_FFTP_BLUE, LT_FFTP_FOUR, LT_FFTP_BIGBLUE } lt_fftp_kind;

typedef struct lt_fft_plan {
  int64_t n;
  int f64, kind, big; /* big: the cache key's "one long line" form */
  /* DIRECT: the passes, their twiddles (complex, the plan's precision) at twoff[f] and the
     radix's own roots exp(2 pi i q / p) at rootoff[f] */
  int nfac, fac[LT_FFT_MAXFAC];
  int64_t twoff[LT_FFT_MAXFAC], rootoff[LT_FFT_MAXFAC];
  void *tw;
  /* exp(-2 pi i k / (2n)), k <= n: the even real transforms' split pass over this plan */
  void *rtw;
  /* BLUE, BIGBLUE: m, the plan of m, chirp[k] = exp(-pi i k^2 / n) (n complex), bfft = the
     transform of conj(chirp) wrapped to m, divided by m (m complex) */
  int64_t m;
  struct lt_fft_plan *sub;
  void *chirp, *bfft;
  /* FOUR: n = n1 x n2, the plans of n1 (on lanes) and n2, the twiddle exp(-2 pi i k1 t2 / n)
     as tw4b[k1][t2 / G] x tw4s[k1][t2 % G] (tw4s: G real parts then G imaginary parts) */
  int64_t n1, n2;
  struct lt_fft_plan *p1, *p2;
  void *tw4b, *tw4s;
} lt_fft_plan;

/* The plan of n points in float64 (f64) or float32, big = 1 for the one-long-line form (FOUR or
   BIGBLUE where n allows, else the lanes form). *owned = 1 when the caller must free it with
   lt_fft_plan_free (the cache was full). NULL when memory ran out. */
lt_fft_plan *lt_fft_plan_get(int64_t n, int f64, int big, int *owned);
void lt_fft_plan_free(lt_fft_plan *p);
/* DIRECT and BLUE plans run on lanes. */
int lt_fft_plan_lanes(const lt_fft_plan *p);
/* The complex elements each of the two lane buffers of a lanes plan holds. */
int64_t lt_fft_plan_need(const lt_fft_plan *p);
/* exp(-2 pi i k / n) in double, from an argument of at most pi / 4. */
void lt_fft_twiddle(int64_t k, int64_t n, double *re, double *im);

/* One line's way in and out of a transform (lt_fft.c fills it; the kernels read it). Lines are
   numbered l = o x inner + i; element k of line l is at (o x len + k) x inner + i. */
typedef struct {
  const void *x;
  void *y;
  int64_t n; /* the transform's points */
  int64_t N; /* the complex points computed: n, or n / 2 for the even real kinds */
  int64_t nin, nout, inner;
  int kind;      /* lt_fft_kind */
  int cin, cout; /* conjugate the complex input, the output (the inverse) */
  double scale;
  const void *rtw; /* the plan's rtw: even R2C / C2R */
} lt_fft_io;

/* The kernels of one precision and vector path. Lane buffers hold W lines: complex element k of
   lane l has its real part at T index k * 2W + l and its imaginary part at k * 2W + W + l; a
   plain complex array is the same with W = 1 (es = 2, imoff = 1). */
typedef struct {
  int w;
  size_t cvbytes; /* bytes of one complex element of a lane buffer */
  /* the forward transform of the lanes plan p of the lines in a (b is scratch): the buffer
     that holds the result */
  void *(*exec)(const lt_fft_plan *p, void *a, void *b);
  /* elements [k0, k1) of the complex input of lines [l0, l0 + nl) (nl <= w), into dst; lanes
     past nl are zeroed */
  void (*gather)(const lt_fft_io *io, int64_t l0, int nl, int64_t k0, int64_t k1, void *dst,
                 int64_t es, int64_t imoff);
  /* the output elements [k0, k1) of lines [l0, l0 + nl) from the transform in src */
  void (*scatter)(const lt_fft_io *io, int64_t l0, int nl, int64_t k0, int64_t k1, const void *src,
                  int64_t es, int64_t imoff);
  /* FOUR's passes over complex arrays of n: columns [c0, c1) of src into x (c0 a multiple of
     w; src may be x), twiddled; rows [r0, r1) of x into y (transposed) */
  void (*cols)(const lt_fft_plan *p, const void *src, void *x, int64_t c0, int64_t c1, void *a,
               void *b);
  void (*rows)(const lt_fft_plan *p, const void *x, void *y, int64_t r0, int64_t r1, void *a,
               void *b);
  /* y[k] = (cin ? conj(x[k]) : x[k]) * c[k], conjugated when cout, k in [k0, k1); c NULL: 1 */
  void (*cmul)(void *y, const void *x, const void *c, int64_t k0, int64_t k1, int cin, int cout);
  /* an even R2C's split pass on a plain complex array z (N + 1 points), pairs k, N - k for k in
     [k0, k1), k <= N / 2 */
  void (*psplit)(const lt_fft_io *io, void *z, int64_t k0, int64_t k1);
} lt_fft_kern;

/* The kernels of the path lt_cpu_level() picks, or of the given level (tests). */
const lt_fft_kern *lt_fft_kern_get(int f64);
const lt_fft_kern *lt_fft_kern_level(int f64, int level);

#endif
