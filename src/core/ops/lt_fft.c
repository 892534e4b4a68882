/*
 * lt_fft.c -- the one-dimensional transform along one dim (see lt_fft.h). Lua-free.
 *
 * The complex length N computed is n, or n / 2 for the real kinds of even n (R2C packs the even
 * and odd samples into one complex line and splits the result; C2R the reverse); odd real
 * lengths run the full complex transform. Inverse transforms conjugate on the way in and out of
 * the forward one. Two ways through, by the plan (lt_fft_plan.h):
 *   lanes: blocks of W neighbouring lines gathered into a per-piece buffer (columns of a
 *          non-last dim are contiguous across the block), transformed together on the vector
 *          path's registers, scattered out; blocks split over the pool;
 *   big:   one long line (longer than LT_FFT_LANE_MAX, or a line too few to fill the lanes) at a
 *          time through the four-step split, its column and row passes split over the pool.
 *
 * Calls lt_fft_plan.c, lt_fft_kern.c, lt_copy.c (lt_contiguous_as), lt_tensor.c, lt_pool.c.
 * Called by lt_fft_api.c.
 */
#include "lt_fft.h"

#include <stdlib.h>
#include <string.h>

#include "lt_account.h"
#include "lt_copy.h"
#include "lt_fft_plan.h"
#include "lt_pool.h"

/* malloc'd, 64-byte aligned: *raw is what to free */
static char *aligned(size_t bytes, void **raw) {
  *raw = malloc(bytes + 64);
  return *raw ? (char *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63) : NULL;
}

/* items per piece: one piece under LT_PAR_MIN_BYTES, else about four per thread (lines are
   independent: the cut does not change the result) */
static int64_t grain(int64_t items, double bytes) {
  if (items < 1 || bytes * (double)items < (double)LT_PAR_MIN_BYTES) return items < 1 ? 1 : items;
  int64_t pieces = 4 * (int64_t)lt_pool_threads();
  return (items + pieces - 1) / pieces;
}

typedef struct {
  const lt_fft_kern *K;
  const lt_fft_plan *P;
  const lt_fft_io *io;
  int64_t lines, nout; /* the lanes path: lines, output elements per line written */
  const char *src;     /* the big path: complex arrays (src read, x scratch, y written) */
  char *x, *y;
  int64_t line; /* the big path's line */
} fft_job;

static int lanes_piece(void *vc, int64_t lo, int64_t hi) {
  const fft_job *c = vc;
  const lt_fft_kern *K = c->K;
  size_t bytes = (size_t)(lt_fft_plan_need(c->P) + 1) * K->cvbytes; /* + 1: the R2C split */
  void *raw;
  char *a = aligned(2 * bytes, &raw);
  if (!a) return 1;
  for (int64_t b = lo; b < hi; b++) {
    int64_t l0 = b * K->w;
    int nl = (int)(c->lines - l0 < K->w ? c->lines - l0 : K->w);
    K->gather(c->io, l0, nl, 0, c->io->N, a, 2 * K->w, K->w);
    void *r = K->exec(c->P, a, a + bytes);
    K->scatter(c->io, l0, nl, 0, c->nout, r, 2 * K->w, K->w);
  }
  free(raw);
  return 0;
}

/* FOUR's passes: column blocks (rows 0) or row blocks (rows 1) [lo, hi) */
static int four_piece(void *vc, int64_t lo, int64_t hi, int rows) {
  const fft_job *c = vc;
  const lt_fft_plan *sub = rows ? c->P->p2 : c->P->p1;
  int64_t w = c->K->w, len = rows ? c->P->n1 : c->P->n2, end = hi * w < len ? hi * w : len;
  size_t bytes = (size_t)lt_fft_plan_need(sub) * c->K->cvbytes;
  void *raw;
  char *a = aligned(2 * bytes, &raw);
  if (!a) return 1;
  if (rows)
    c->K->rows(c->P, c->x, c->y, lo * w, end, a, a + bytes);
  else
    c->K->cols(c->P, c->src, c->x, lo * w, end, a, a + bytes);
  free(raw);
  return 0;
}
static int cols_piece(void *vc, int64_t lo, int64_t hi) { return four_piece(vc, lo, hi, 0); }
static int rows_piece(void *vc, int64_t lo, int64_t hi) { return four_piece(vc, lo, hi, 1); }

static int big_exec(const lt_fft_kern *K, const lt_fft_plan *P, const char *src, char *x, char *y);

/* FOUR whose n2 is itself long: each row through big_exec, written transposed */
static int rows_big(const lt_fft_kern *K, const lt_fft_plan *P, char *x, char *y) {
  size_t es = 2 * (P->f64 ? sizeof(double) : sizeof(float));
  void *raw;
  char *t = aligned(es * (size_t)P->n2, &raw);
  if (!t) return -1;
  for (int64_t k1 = 0; k1 < P->n1; k1++) {
    char *row = x + es * (size_t)(k1 * P->n2);
    if (big_exec(K, P->p2, row, row, t)) {
      free(raw);
      return -1;
    }
    for (int64_t k2 = 0; k2 < P->n2; k2++)
      memcpy(y + es * (size_t)(k1 + P->n1 * k2), t + es * (size_t)k2, es);
  }
  free(raw);
  return 0;
}

/* the forward transform of the complex array src (n = P->n) into y, x (n) scratch (src may be
   x; it is not written otherwise); -1: no memory */
static int big_exec(const lt_fft_kern *K, const lt_fft_plan *P, const char *src, char *x, char *y) {
  fft_job c = {.K = K, .P = P, .src = src, .x = x, .y = y};
  size_t es = 2 * (P->f64 ? sizeof(double) : sizeof(float));
  if (P->kind == LT_FFTP_FOUR) {
    int64_t ncb = (P->n2 + K->w - 1) / K->w, nrb = (P->n1 + K->w - 1) / K->w;
    double cb = (double)P->n1 * (double)K->cvbytes * 4, rb = (double)P->n2 * (double)K->cvbytes * 4;
    if (lt_pool_run(ncb, grain(ncb, cb), cols_piece, &c) >= 0) return -1;
    if (!lt_fft_plan_lanes(P->p2)) return rows_big(K, P, x, y);
    return lt_pool_run(nrb, grain(nrb, rb), rows_piece, &c) >= 0 ? -1 : 0;
  }
  /* BIGBLUE (a lanes plan never comes here: lt_fft sends it to the lanes path) */
  int64_t n = P->n, m = P->m;
  void *raw;
  char *u = aligned(2 * es * (size_t)m, &raw), *v = u + es * (size_t)m;
  if (!u) return -1;
  K->cmul(u, src, P->chirp, 0, n, 0, 0);
  memset(u + es * (size_t)n, 0, es * (size_t)(m - n));
  int rc = big_exec(K, P->sub, u, u, v);
  if (!rc) {
    K->cmul(v, v, P->bfft, 0, m, 0, 1);
    rc = big_exec(K, P->sub, v, v, u);
  }
  if (!rc) K->cmul(y, u, P->chirp, 0, n, 1, 0);
  free(raw);
  return rc;
}

static int in_piece(void *vc, int64_t lo, int64_t hi) {
  const fft_job *c = vc;
  c->K->gather(c->io, c->line, 1, lo, hi, c->x, 2, 1);
  return 0;
}

static int out_piece(void *vc, int64_t lo, int64_t hi) {
  const fft_job *c = vc;
  c->K->scatter(c->io, c->line, 1, lo, hi, c->y, 2, 1);
  return 0;
}

static int split_piece(void *vc, int64_t lo, int64_t hi) {
  const fft_job *c = vc;
  c->K->psplit(c->io, c->y, lo, hi);
  return 0;
}

/* the big path: each line into a complex array (or read in place: complex rows, and the real
   pairs of an even R2C's rows), transformed, out (or written in place: unscaled forward complex
   rows); -1: no memory */
static int big_lines(const lt_fft_kern *K, const lt_fft_plan *P, const lt_fft_io *io, int64_t lines,
                     int64_t nout) {
  size_t es = 2 * (P->f64 ? sizeof(double) : sizeof(float));
  int c2c = io->kind == LT_FFT_C2C, row = io->inner == 1;
  int din = row && !io->cin && (c2c || (io->kind == LT_FFT_R2C && io->N != io->n));
  int dout = row && c2c && !io->cout && io->scale == 1.0;
  int split = io->kind == LT_FFT_R2C && io->N != io->n; /* then written out as complex points */
  lt_fft_io cio = *io;
  cio.kind = LT_FFT_C2C;
  void *raw;
  char *x = aligned(((dout ? 1 : 2) * (size_t)P->n + 1) * es, &raw);
  if (!x) return -1;
  fft_job c = {.K = K, .P = P, .io = io, .x = x, .y = x + es * (size_t)P->n};
  fft_job o = c;
  o.io = split ? &cio : io;
  int rc = 0;
  for (int64_t l = 0; l < lines && !rc; l++) {
    c.line = l;
    if (!din) lt_pool_run(P->n, grain(P->n, (double)es * 2), in_piece, &c);
    const char *src = din ? (const char *)io->x + es * (size_t)(l * P->n) : x;
    char *y = dout ? (char *)io->y + es * (size_t)(l * P->n) : c.y;
    rc = big_exec(K, P, src, x, y);
    int64_t half = P->n / 2 + 1;
    if (!rc && split) lt_pool_run(half, grain(half, (double)es * 4), split_piece, &c);
    o.line = l;
    if (!rc && !dout) lt_pool_run(nout, grain(nout, (double)es * 2), out_piece, &o);
  }
  free(raw);
  return rc;
}

static int check_kind(const lt_tensor *in, lt_fft_kind kind, int *f64, lt_dtype *odt,
                      lt_error *err) {
  lt_dtype dt = in->dtype;
  if (kind == LT_FFT_R2C) {
    if (dt != LT_FLOAT32 && dt != LT_FLOAT64)
      return lt_fail(err, LT_EARG, "fft: expected a float32 or float64 input, got %s",
                     lt_dtype_name(dt));
    *f64 = dt == LT_FLOAT64;
    *odt = *f64 ? LT_COMPLEX128 : LT_COMPLEX64;
    return LT_OK;
  }
  if (dt != LT_COMPLEX64 && dt != LT_COMPLEX128)
    return lt_fail(err, LT_EARG, "fft: expected a complex64 or complex128 input, got %s",
                   lt_dtype_name(dt));
  *f64 = dt == LT_COMPLEX128;
  *odt = kind == LT_FFT_C2C ? dt : (*f64 ? LT_FLOAT64 : LT_FLOAT32);
  return LT_OK;
}

/* the transform of the contiguous x into y (lt_fft's checks done); -1: no memory */
static int run(const lt_tensor *x, lt_tensor *y, int dim, lt_fft_io *io, int f64) {
  int64_t lines = 1, N = io->N;
  for (int d = 0; d < x->ndim; d++)
    if (d != dim) lines *= x->shape[d];
  if (lines == 0) return 0;
  const lt_fft_kern *K = lt_fft_kern_get(f64);
  int owned, big = N > LT_FFT_LANE_MAX || (lines < K->w && N >= 2048);
  lt_fft_plan *P = lt_fft_plan_get(N, f64, big, &owned);
  if (!P) return -1;
  io->x = lt_data(x), io->y = lt_data(y), io->rtw = P->rtw;
  int64_t nout = io->kind == LT_FFT_C2R ? N : io->nout;
  int rc;
  if (lt_fft_plan_lanes(P)) {
    fft_job c = {.K = K, .P = P, .io = io, .lines = lines, .nout = nout};
    int64_t nblk = (lines + K->w - 1) / K->w;
    double bytes = (double)lt_fft_plan_need(P) * (double)K->cvbytes * 4;
    rc = lt_pool_run(nblk, grain(nblk, bytes), lanes_piece, &c) >= 0 ? -1 : 0;
  } else {
    rc = big_lines(K, P, io, lines, nout);
  }
  if (owned) lt_fft_plan_free(P);
  return rc;
}

int lt_fft(const lt_tensor *in, int dim, int64_t n, lt_fft_kind kind, int inverse, double scale,
           lt_tensor **out, lt_error *err) {
  lt_fft_io io = {.n = n, .kind = kind, .scale = scale};
  int f64 = 0, rc;
  lt_dtype odt = LT_COMPLEX64;
  if ((rc = lt_check_dim(in, dim, err)) || (rc = check_kind(in, kind, &f64, &odt, err))) return rc;
  if (n < 1) return lt_fail(err, LT_EARG, "fft: invalid number of points %lld", (long long)n);
  io.nin = kind == LT_FFT_C2R ? n / 2 + 1 : n;
  io.nout = kind == LT_FFT_R2C ? n / 2 + 1 : n;
  io.N = kind != LT_FFT_C2C && n % 2 == 0 ? n / 2 : n;
  io.cin = inverse && kind != LT_FFT_R2C;
  io.cout = inverse && kind != LT_FFT_C2R;
  if (in->shape[dim] != io.nin)
    return lt_fail(err, LT_EARG, "fft: expected %lld points along dim %d, got %lld",
                   (long long)io.nin, dim + 1, (long long)in->shape[dim]);
  int64_t shape[LT_MAX_NDIM];
  io.inner = 1;
  for (int d = 0; d < in->ndim; d++) {
    shape[d] = d == dim ? io.nout : in->shape[d];
    if (d > dim) io.inner *= in->shape[d];
  }
  const lt_tensor *x;
  lt_tensor *owned = NULL, *y = NULL;
  if ((rc = lt_contiguous_as(in, in->dtype, &x, &owned, err)) ||
      (rc = lt_tensor_new(odt, in->ndim, shape, 0, &y, err))) {
    lt_tensor_free(owned);
    return rc;
  }
  /* the work buffers (a long line's four-step copies, the pieces' blocks: a few times N complex
     values) are charged to the budget while they live, as a tensor would be */
  size_t scratch = (size_t)io.N * (f64 ? 16 : 8) * 4;
  int refused = 0;
  lt_account *acct = lt_account_charge(scratch, &refused);
  rc = refused ? -1 : run(x, y, dim, &io, f64);
  lt_account_refund(acct, scratch);
  lt_tensor_free(owned);
  if (rc) {
    lt_tensor_free(y);
    return lt_fail_nomem(err, refused ? scratch : (size_t)io.N * 64);
  }
  *out = y;
  return LT_OK;
}
