/*
 * lt_transpose.c -- same-dtype copies with the transpose pattern, by cache-sized tiles; see
 * lt_transpose.h. Called by lt_copy.c (lt_copy) alone.
 *
 * A same-dtype copy whose inner dim (after lt_iter's sorting and merging) is contiguous in the
 * destination but strided in the source, while another dim is contiguous in the source -- a
 * transpose, maybe batched -- would read one element per cache line along every inner run and
 * come back to each line much later. Instead those two dims are copied as a plane of tiles:
 * TR_OUTER x TR_OUTER elements (both sides stay in L2), split into tiles whose rows are one
 * cache line in both operands; in a tile, 1-, 2-, 4- and 8-byte elements move as 16x16, 8x8,
 * 4x4 and 2x2 blocks transposed in SSE2 registers (16 bytes per load and per store), 16-byte
 * elements and the edges element by element. The other dims are walked by lt_iter, one plane
 * per position.
 *
 * In a plane of rows x cols elements, element (r, c) is at d + r * dr + c * es in the
 * destination and at s + r * es + c * sc in the source (steps made positive beforehand).
 */
#include "lt_transpose.h"

#include <stdlib.h>

#include "lt_pool.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define TR_OUTER 128 /* a multiple of every tile size */

typedef void (*tile_fn)(char *d, int64_t dr, const char *s, int64_t sc, int64_t rn, int64_t cn);

#define TILE_RUN(b) TILE_RUN_(b, LT_UBITS_##b)
#define TILE_RUN_(b, T)                                                                          \
  static void tile_##b(char *d, int64_t dr, const char *s, int64_t sc, int64_t rn, int64_t cn) { \
    for (int64_t r = 0; r < rn; r++) {                                                           \
      char *dd = d + r * dr;                                                                     \
      const char *ss = s + r * (int64_t)sizeof(T);                                               \
      for (int64_t c = 0; c < cn; c++)                                                           \
        memcpy(dd + c * (int64_t)sizeof(T), ss + c * sc, sizeof(T));                             \
    }                                                                                            \
  }
LT_ELEMENT_BITS(TILE_RUN)

#ifdef __SSE2__
#define LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)

/* One B x B block of ES-byte elements from p (columns sc bytes apart) to q (rows dr apart),
   transposed in SSE2 registers: block_<bits>. */
/* 1-byte elements: 16x16 blocks, transposed by interleaving 8-, 16-, 32- and 64-bit lanes. */
static inline void block_8(char *q, int64_t dr, const char *p, int64_t sc) {
  __m128i a[16], t[16], u[16], w[2][8];
  for (int k = 0; k < 16; k++) a[k] = LOADU(p + k * sc); /* a[k][i]: row i, col k of the block */
  for (int k = 0; k < 8; k++) {
    t[2 * k] = _mm_unpacklo_epi8(a[2 * k], a[2 * k + 1]);     /* rows 0-7, cols 2k, 2k+1 */
    t[2 * k + 1] = _mm_unpackhi_epi8(a[2 * k], a[2 * k + 1]); /* rows 8-15 */
  }
  for (int g = 0; g < 4; g++) { /* cols 4g..4g+3; u[4g + m]: rows 4m..4m+3 */
    u[4 * g] = _mm_unpacklo_epi16(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm_unpackhi_epi16(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm_unpacklo_epi16(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm_unpackhi_epi16(t[4 * g + 1], t[4 * g + 3]);
  }
  for (int h = 0; h < 2; h++) /* cols 8h..8h+7; w[h][q]: rows 2q, 2q+1 */
    for (int m = 0; m < 4; m++) {
      w[h][2 * m] = _mm_unpacklo_epi32(u[8 * h + m], u[8 * h + 4 + m]);
      w[h][2 * m + 1] = _mm_unpackhi_epi32(u[8 * h + m], u[8 * h + 4 + m]);
    }
  for (int k = 0; k < 8; k++) {
    STOREU(q + 2 * k * dr, _mm_unpacklo_epi64(w[0][k], w[1][k]));
    STOREU(q + (2 * k + 1) * dr, _mm_unpackhi_epi64(w[0][k], w[1][k]));
  }
}

/* 2-byte elements: 8x8 blocks. */
static inline void block_16(char *q, int64_t dr, const char *p, int64_t sc) {
  __m128i a[8], t[8], u[8];
  for (int k = 0; k < 8; k++) a[k] = LOADU(p + k * sc); /* a[k][i]: row i, col k of the block */
  for (int k = 0; k < 4; k++) {
    t[2 * k] = _mm_unpacklo_epi16(a[2 * k], a[2 * k + 1]);     /* rows 0-3, cols 2k, 2k+1 */
    t[2 * k + 1] = _mm_unpackhi_epi16(a[2 * k], a[2 * k + 1]); /* rows 4-7 */
  }
  for (int g = 0; g < 2; g++) { /* cols 4g..4g+3; u[4g + m]: rows 2m, 2m+1 */
    u[4 * g] = _mm_unpacklo_epi32(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm_unpackhi_epi32(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
  }
  for (int k = 0; k < 4; k++) {
    STOREU(q + 2 * k * dr, _mm_unpacklo_epi64(u[k], u[k + 4]));
    STOREU(q + (2 * k + 1) * dr, _mm_unpackhi_epi64(u[k], u[k + 4]));
  }
}

/* 4-byte elements: 4x4 blocks (four source columns in, four destination rows out). */
static inline void block_32(char *q, int64_t dr, const char *p, int64_t sc) {
  __m128i a = LOADU(p), b = LOADU(p + sc), e = LOADU(p + 2 * sc), f = LOADU(p + 3 * sc);
  __m128i ab0 = _mm_unpacklo_epi32(a, b), ef0 = _mm_unpacklo_epi32(e, f);
  __m128i ab1 = _mm_unpackhi_epi32(a, b), ef1 = _mm_unpackhi_epi32(e, f);
  STOREU(q, _mm_unpacklo_epi64(ab0, ef0));
  STOREU(q + dr, _mm_unpackhi_epi64(ab0, ef0));
  STOREU(q + 2 * dr, _mm_unpacklo_epi64(ab1, ef1));
  STOREU(q + 3 * dr, _mm_unpackhi_epi64(ab1, ef1));
}

/* 8-byte elements: 2x2 blocks. */
static inline void block_64(char *q, int64_t dr, const char *p, int64_t sc) {
  __m128i a = LOADU(p), b = LOADU(p + sc);
  STOREU(q, _mm_unpacklo_epi64(a, b));
  STOREU(q + dr, _mm_unpackhi_epi64(a, b));
}

/* A plane of ES-byte elements in B x B blocks, the edges element by element. */
#define TILE_SSE(b, ES, B)                                                                     \
  static void tile_sse_##b(char *d, int64_t dr, const char *s, int64_t sc, int64_t rn,         \
                           int64_t cn) {                                                       \
    int64_t r = 0;                                                                             \
    for (; r + B <= rn; r += B) {                                                              \
      int64_t c = 0;                                                                           \
      for (; c + B <= cn; c += B) block_##b(d + r * dr + c * ES, dr, s + r * ES + c * sc, sc); \
      if (c < cn) tile_##b(d + r * dr + c * ES, dr, s + r * ES + c * sc, sc, B, cn - c);       \
    }                                                                                          \
    if (r < rn) tile_##b(d + r * dr, dr, s + r * ES, sc, rn - r, cn);                          \
  }
TILE_SSE(8, 1, 16)
TILE_SSE(16, 2, 8)
TILE_SSE(32, 4, 4)
TILE_SSE(64, 8, 2)
#undef LOADU
#undef STOREU
#endif

typedef struct {
  int64_t rows, cols, dr, sc, es, tb; /* tb: tile side, one cache line of elements */
  tile_fn tile;
} plane_ctx;

/* Rows [rlo, rhi) of a plane (rlo a multiple of TR_OUTER). */
static void copy_plane(const plane_ctx *t, char *d, const char *s, int64_t rlo, int64_t rhi) {
  for (int64_t r0 = rlo; r0 < rhi; r0 += TR_OUTER) {
    int64_t r1 = rhi - r0 < TR_OUTER ? rhi : r0 + TR_OUTER;
    for (int64_t c0 = 0; c0 < t->cols; c0 += TR_OUTER) {
      int64_t c1 = t->cols - c0 < TR_OUTER ? t->cols : c0 + TR_OUTER;
      for (int64_t r = r0; r < r1; r += t->tb)
        for (int64_t c = c0; c < c1; c += t->tb)
          t->tile(d + r * t->dr + c * t->es, t->dr, s + r * t->es + c * t->sc, t->sc,
                  r1 - r < t->tb ? r1 - r : t->tb, c1 - c < t->tb ? c1 - c : t->tb);
    }
  }
}

/* One run of the outer iteration: n planes. */
static int plane_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  const plane_ctx *t = ctx;
  for (int64_t k = 0; k < n; k++) copy_plane(t, p[0] + k * st[0], p[1] + k * st[1], 0, t->rows);
  return 0;
}

/* A large plane on the pool's threads: pieces of bands of TR_OUTER rows. */
typedef struct {
  const plane_ctx *t;
  char *d;
  const char *s;
} band_job;

static int band_piece(void *ctx, int64_t lo, int64_t hi) {
  const band_job *b = ctx;
  int64_t rhi = hi * TR_OUTER < b->t->rows ? hi * TR_OUTER : b->t->rows;
  copy_plane(b->t, b->d, b->s, lo * TR_OUTER, rhi);
  return 0;
}

/* The planes of the outer iteration: one piece of planes each when they are small, else plane
   after plane, each in bands. */
static int plane_outer_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  const plane_ctx *t = ctx;
  int64_t bands = (t->rows + TR_OUTER - 1) / TR_OUTER;
  int64_t grain = lt_pool_grain(bands, 2.0 * (double)(TR_OUTER * t->cols * t->es));
  for (int64_t k = 0; k < n; k++) {
    band_job b = {t, p[0] + k * st[0], p[1] + k * st[1]};
    lt_pool_run(bands, grain, band_piece, &b);
  }
  return 0;
}

/* Tile functions by dtype: SSE2 blocks where there are, element moves for 16-byte elements. */
#ifdef __SSE2__
#define TILE_ENTRY(E, n, T, c, b, K) [LT_##E] = TILE_FAST_##b,
#define TILE_FAST_8 tile_sse_8
#define TILE_FAST_16 tile_sse_16
#define TILE_FAST_32 tile_sse_32
#define TILE_FAST_64 tile_sse_64
#define TILE_FAST_128 tile_128
#else
#define TILE_ENTRY(E, n, T, c, b, K) [LT_##E] = tile_##b,
#endif
static const tile_fn tiles[LT_NDTYPES] = {LT_DTYPES(TILE_ENTRY)};

int lt_copy_transposed(const lt_iter *it, char *const *base, lt_dtype dt) {
  size_t es = lt_dtypes[dt].size;
  int last = it->ndim - 1;
  int64_t e = (int64_t)es;
  if (es != 1 && es != 2 && es != 4 && es != 8 && es != 16) return 0;
  if (last < 1 || llabs(it->st[0][last]) != e || it->st[1][last] == 0 ||
      llabs(it->st[1][last]) == e)
    return 0;
  int j = last - 1; /* the dim where the source is contiguous: the innermost such */
  while (j >= 0 && llabs(it->st[1][j]) != e) j--;
  if (j < 0) return 0;
  plane_ctx t;
  t.rows = it->shape[j];
  t.cols = it->shape[last];
  t.dr = it->st[0][j];
  t.sc = it->st[1][last];
  t.es = e;
  char *p[2] = {base[0], base[1]};
  int64_t sr = it->st[1][j], dc = it->st[0][last];
  if (sr < 0) { /* walk the rows backwards: the source then steps forwards */
    p[0] += (t.rows - 1) * t.dr;
    p[1] += (t.rows - 1) * sr;
    t.dr = -t.dr;
  }
  if (dc < 0) { /* likewise the columns, for the destination */
    p[0] += (t.cols - 1) * dc;
    p[1] += (t.cols - 1) * t.sc;
    t.sc = -t.sc;
  }
  t.tb = 64 / e; /* 64, 32, 16, 8, 4 */
  t.tile = tiles[dt];
  lt_iter outer; /* the other dims, in the same order */
  outer.nops = 2;
  outer.ndim = 0;
  for (int d = 0; d < last; d++) {
    if (d == j) continue;
    outer.shape[outer.ndim] = it->shape[d];
    outer.st[0][outer.ndim] = it->st[0][d];
    outer.st[1][outer.ndim] = it->st[1][d];
    outer.ndim++;
  }
  double plane_bytes = 2.0 * (double)(t.rows * t.cols * e);
  if (lt_pool_grain(lt_iter_numel(&outer), plane_bytes) > 1)
    lt_iter_run_par(&outer, p, plane_run, &t, plane_bytes); /* small planes, many of them */
  else
    lt_iter_run(&outer, p, plane_outer_run, &t);
  return 1;
}
