/*
 * lt_copy.c -- strided copy with dtype conversion, fill, and the operations built on them
 * (clone, cast, reshape's and flatten's copies, arange); see lt_copy.h.
 *
 * A conversion goes through a small "canonical" buffer: the source run is loaded into int64,
 * uint64, double or (double, double) values, then stored into the destination type under the
 * write rules. That needs one load loop per source dtype and one store loop per destination
 * dtype and canonical kind, all generated from LT_DTYPES, instead of 15 x 15 hand copies.
 * Same-dtype copies move bytes directly (memcpy when both runs are contiguous); those with the
 * transpose pattern (a run contiguous in the destination, strided in the source, and another
 * dim contiguous in the source) move by cache-sized tiles. Large contiguous fills use memset or
 * streaming stores. Large copies, conversions and fills run on the pool's threads (lt_pool.h):
 * plain runs through lt_iter_run_par, conversions in pieces with a buffer each, transposing
 * copies by bands of rows of a plane (or by planes, when there are many small ones).
 */
#include "lt_copy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_iter.h"
#include "lt_pool.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* {====== same-dtype runs ====== */

#define MOVE_RUN(b) MOVE_RUN_(b, LT_UBITS_##b)
#define MOVE_RUN_(b, T)                                                          \
  static int move_##b(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    char *d = p[0];                                                              \
    const char *s = p[1];                                                        \
    int64_t ds = st[0], ss = st[1];                                              \
    (void)ctx;                                                                   \
    if (ds == (int64_t)sizeof(T) && ss == (int64_t)sizeof(T)) {                  \
      memcpy(d, s, (size_t)n * sizeof(T));                                       \
    } else {                                                                     \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, sizeof(T)); \
    }                                                                            \
    return 0;                                                                    \
  }
LT_ELEMENT_BITS(MOVE_RUN)
#define MOVE_ENTRY(E, n, T, c, b, K) [LT_##E] = move_##b,
static const lt_run_fn moves[LT_NDTYPES] = {LT_DTYPES(MOVE_ENTRY)};

/* }====== */

/* {====== blocked transposing copies ====== */

/*
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

/* Copies by tiles when the iteration (dst, src, both of dtype dt) has the transpose pattern;
   returns 0, having done nothing, when it has not. */
static int copy_blocked(const lt_iter *it, char *const *base, lt_dtype dt) {
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

/* }====== */

/* {====== converting runs ====== */

#define CHUNK 256

typedef enum { CK_I64, CK_U64, CK_F64, CK_C128 } canon_kind;

typedef union {
  int64_t i[CHUNK];
  uint64_t u[CHUNK];
  double f[CHUNK];
  double c[2 * CHUNK];
} canon_buf;

/* Canonical kind of each category. */
#define CANON_BOOL(bits) CK_I64
#define CANON_SINT(bits) CK_I64
#define CANON_UINT(bits) ((bits) == 64 ? CK_U64 : CK_I64)
#define CANON_FLT(bits) CK_F64
#define CANON_F16(bits) CK_F64
#define CANON_BF16(bits) CK_F64
#define CANON_CPX(bits) CK_C128

static const canon_kind canon_of[LT_NDTYPES] = {
#define X_CANON(E, n, T, c, bits, K) CANON_##K(bits),
    LT_DTYPES(X_CANON)
#undef X_CANON
};

/* Loading one element of category K into the buffer at index i. */
#define LOAD_BOOL(T, bits, p, b, i) (b)->i[i] = *(const uint8_t *)(p) != 0
#define LOAD_SINT(T, bits, p, b, i) (b)->i[i] = *(const T *)(p)
#define LOAD_UINT(T, bits, p, b, i) \
  if ((bits) == 64)                 \
    (b)->u[i] = *(const T *)(p);    \
  else                              \
    (b)->i[i] = (int64_t) * (const T *)(p)
#define LOAD_FLT(T, bits, p, b, i) (b)->f[i] = *(const T *)(p)
#define LOAD_F16(T, bits, p, b, i) (b)->f[i] = lt_f16_to_f32(*(const uint16_t *)(p))
#define LOAD_BF16(T, bits, p, b, i) (b)->f[i] = lt_bf16_to_f32(*(const uint16_t *)(p))
#define LOAD_CPX(T, bits, p, b, i)        \
  (b)->c[2 * (i)] = ((const T *)(p))->re; \
  (b)->c[2 * (i) + 1] = ((const T *)(p))->im

#define X_LOAD(E, n, T, c, bits, K)                                            \
  static void load_##E(const char *s, int64_t ss, int64_t cnt, canon_buf *b) { \
    for (int64_t i = 0; i < cnt; i++) {                                        \
      LOAD_##K(T, bits, s + i * ss, b, i);                                     \
    }                                                                          \
  }
LT_DTYPES(X_LOAD)
#undef X_LOAD

typedef void (*load_fn)(const char *s, int64_t ss, int64_t cnt, canon_buf *b);
static const load_fn loads[LT_NDTYPES] = {
#define X_LOADS(E, n, T, c, bits, K) load_##E,
    LT_DTYPES(X_LOADS)
#undef X_LOADS
};

/*
 * Storing: for each category, the conversion from each canonical kind (x: the value; re, im:
 * a complex value) and whether a double x is representable (FITS). Integers from doubles
 * truncate when they fit; the cast is never reached with an unrepresentable value.
 */
#define FITS_BOOL(bits, x) 1
#define FITS_SINT(bits, x) lt_fits_int(x, bits, 1)
#define FITS_UINT(bits, x) lt_fits_int(x, bits, 0)
#define FITS_FLT(bits, x) 1
#define FITS_F16(bits, x) 1
#define FITS_BF16(bits, x) 1
#define FITS_CPX(bits, x) 1

#define FROMI_BOOL(T, x) (T)((x) != 0)
#define FROMI_SINT(T, x) (T)(x)
#define FROMI_UINT(T, x) (T)(x)
#define FROMI_FLT(T, x) (T)(x)
#define FROMI_F16(T, x) lt_f64_to_f16((double)(x))
/* through a double rounded to odd: one correct rounding even above 2^53 */
#define FROMI_BF16(T, x) \
  lt_f64_to_bf16(_Generic((x), uint64_t : lt_u64_to_f64_odd, default : lt_i64_to_f64_odd)(x))
#define FROMI_CPX(T, x) ((T){(x), 0})

#define FROMF_BOOL(T, x) (T)((x) != 0)
#define FROMF_SINT(T, x) (T)(x)
#define FROMF_UINT(T, x) (T)(x)
#define FROMF_FLT(T, x) (T)(x)
#define FROMF_F16(T, x) lt_f64_to_f16(x)
#define FROMF_BF16(T, x) lt_f64_to_bf16(x)
#define FROMF_CPX(T, x) ((T){(x), 0})

#define FROMC_BOOL(T, re, im) (T)((re) != 0 || (im) != 0)
#define FROMC_SINT(T, re, im) FROMF_SINT(T, re)
#define FROMC_UINT(T, re, im) FROMF_UINT(T, re)
#define FROMC_FLT(T, re, im) FROMF_FLT(T, re)
#define FROMC_F16(T, re, im) FROMF_F16(T, re)
#define FROMC_BF16(T, re, im) FROMF_BF16(T, re)
#define FROMC_CPX(T, re, im) ((T){(re), (im)})

/* Returns the index of the first value that does not fit, or -1. Nothing of a chunk is
   written when one of its values does not fit. */
#define X_STORE(E, n, T, code, bits, K)                                                            \
  static int64_t store_##E(char *d, int64_t ds, int64_t cnt, const canon_buf *b,                   \
                           canon_kind kind) {                                                      \
    int64_t i;                                                                                     \
    switch (kind) {                                                                                \
      case CK_I64:                                                                                 \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMI_##K(T, b->i[i]);                      \
        break;                                                                                     \
      case CK_U64:                                                                                 \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMI_##K(T, b->u[i]);                      \
        break;                                                                                     \
      case CK_F64:                                                                                 \
        for (i = 0; i < cnt; i++)                                                                  \
          if (!FITS_##K(bits, b->f[i])) return i;                                                  \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMF_##K(T, b->f[i]);                      \
        break;                                                                                     \
      case CK_C128:                                                                                \
        for (i = 0; i < cnt; i++)                                                                  \
          if (!FITS_##K(bits, b->c[2 * i])) return i;                                              \
        for (i = 0; i < cnt; i++) *(T *)(d + i * ds) = FROMC_##K(T, b->c[2 * i], b->c[2 * i + 1]); \
        break;                                                                                     \
    }                                                                                              \
    return -1;                                                                                     \
  }
LT_DTYPES(X_STORE)
#undef X_STORE

typedef int64_t (*store_fn)(char *d, int64_t ds, int64_t cnt, const canon_buf *b, canon_kind kind);
static const store_fn stores[LT_NDTYPES] = {
#define X_STORES(E, n, T, c, bits, K) store_##E,
    LT_DTYPES(X_STORES)
#undef X_STORES
};

typedef struct {
  lt_dtype from, to;
  canon_buf buf;
  lt_error *err;
} convert_ctx;

static int convert_run(void *ud, char *const *p, const int64_t *st, int64_t n) {
  convert_ctx *cx = ud;
  char *d = p[0];
  const char *s = p[1];
  int64_t ds = st[0], ss = st[1];
  while (n > 0) {
    int64_t cnt = n < CHUNK ? n : CHUNK;
    loads[cx->from](s, ss, cnt, &cx->buf);
    int64_t bad = stores[cx->to](d, ds, cnt, &cx->buf, canon_of[cx->from]);
    if (bad >= 0) {
      lt_scalar v;
      char str[64];
      lt_load(cx->from, s + bad * ss, &v);
      lt_scalar_str(&v, str, sizeof str);
      return lt_fail(cx->err, LT_ERANGE, "value %s cannot be converted to %s", str,
                     lt_dtypes[cx->to].name);
    }
    d += cnt * ds;
    s += cnt * ss;
    n -= cnt;
  }
  return 0;
}

/* A piece of a conversion: a buffer of its own, no message (the piece that fails first runs
   again with one). */
typedef struct {
  const lt_iter *it;
  char *const *base;
  lt_dtype from, to;
} convert_job;

static int convert_piece(void *ctx, int64_t lo, int64_t hi) {
  const convert_job *j = ctx;
  convert_ctx *cx = malloc(sizeof *cx);
  if (!cx) return LT_ENOMEM;
  cx->from = j->from;
  cx->to = j->to;
  cx->err = NULL;
  int rc = lt_iter_range(j->it, j->base, convert_run, cx, lo, hi);
  free(cx);
  return rc;
}

/* Converts every element of the iteration (operand 0 of dtype to, 1 of dtype from); on the
   pool's threads when large. The first value that does not fit is the one reported. */
static int convert(const lt_iter *it, char *const *base, lt_dtype from, lt_dtype to,
                   lt_error *err) {
  int64_t n = lt_iter_numel(it);
  int64_t grain = lt_pool_grain(n, (double)(lt_dtypes[from].size + lt_dtypes[to].size));
  convert_job j = {it, base, from, to};
  int64_t k = lt_pool_run(n, grain, convert_piece, &j);
  if (k < 0) return LT_OK;
  convert_ctx *cx = malloc(sizeof *cx);
  if (!cx) return lt_fail(err, LT_ENOMEM, "not enough memory");
  cx->from = from;
  cx->to = to;
  cx->err = err;
  int rc = lt_iter_range(it, base, convert_run, cx, k * grain,
                         n - k * grain < grain ? n : (k + 1) * grain);
  free(cx);
  return rc ? rc : lt_fail(err, LT_ENOMEM, "not enough memory");
}

/* }====== */

/* {====== public entry points ====== */

int lt_copy(lt_tensor *dst, const lt_tensor *src, lt_error *err) {
  int rc;
  if ((rc = lt_prepare_write(dst, err)) || (rc = lt_check_readable(src, err))) return rc;
  if ((rc = lt_check_no_internal_overlap(dst, err))) return rc;
  if (lt_numel(dst) == 0) {
    lt_tensor *b;
    if ((rc = lt_broadcast_to(src, dst->ndim, dst->shape, &b, err))) return rc;
    lt_tensor_free(b);
    return LT_OK;
  }
  lt_tensor *aside = NULL, *b = NULL;
  if (src->storage == dst->storage || lt_may_overlap(dst, src)) {
    if (lt_same_view(src, dst)) return LT_OK; /* copying a tensor onto itself */
    if (lt_may_overlap(dst, src)) {
      if ((rc = lt_clone(src, &aside, err))) return rc;
      src = aside;
    }
  }
  if ((rc = lt_broadcast_to(src, dst->ndim, dst->shape, &b, err))) {
    lt_tensor_free(aside);
    return rc;
  }
  lt_iter it;
  lt_tensor *ops[2] = {dst, b};
  char *base[2] = {lt_data(dst), lt_data(b)};
  lt_iter_init(&it, 2, ops);
  if (dst->dtype == b->dtype) {
    if (!copy_blocked(&it, base, dst->dtype))
      lt_iter_run_par(&it, base, moves[dst->dtype], NULL, 2.0 * (double)lt_esize(dst));
  } else {
    rc = convert(&it, base, b->dtype, dst->dtype, err);
  }
  lt_tensor_free(b);
  lt_tensor_free(aside);
  return rc;
}

/*
 * Large contiguous fills: an element whose bytes are all equal (zero above all) is memset's,
 * which writes without first reading each line into the cache; other elements are written with
 * non-temporal (streaming) SSE2 stores from STREAM_MIN bytes on -- past the size of the caches
 * the ordinary stores gain nothing from them, and pay a read of every line they write.
 * Whether to stream is decided on the whole fill (pieces on several threads are smaller).
 * Returns 0, having written nothing, when neither applies.
 */
#define STREAM_MIN ((size_t)16 << 20)

typedef struct {
  union {
    lt_c128 c;
    unsigned char b[16];
  } elem;     /* first: a fill run reads its element from the start of its context */
  int stream; /* the whole fill is at least STREAM_MIN bytes */
} fill_ctx;

static int fill_wide(char *d, int64_t n, const fill_ctx *f, size_t es) {
  const unsigned char *elem = f->elem.b;
  size_t nbytes = (size_t)n * es, k = 1;
  while (k < es && elem[k] == elem[0]) k++;
  if (k == es) {
    memset(d, elem[0], nbytes);
    return 1;
  }
#ifdef __SSE2__
  size_t head = (16 - ((uintptr_t)d & 15)) & 15; /* whole elements up to a 16-byte boundary */
  if (!f->stream || head % es) return 0;
  unsigned char pat[16];
  for (size_t i = 0; i < 16; i++) pat[i] = elem[i % es]; /* es divides 16 */
  memcpy(d, pat, head);
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)pat);
  size_t off = head;
  for (; off + 64 <= nbytes; off += 64) {
    __m128i *q = (__m128i *)(void *)(d + off);
    _mm_stream_si128(q, v);
    _mm_stream_si128(q + 1, v);
    _mm_stream_si128(q + 2, v);
    _mm_stream_si128(q + 3, v);
  }
  _mm_sfence(); /* the streaming stores are ordered before anything that follows */
  for (; off < nbytes; off += 16) memcpy(d + off, pat, nbytes - off < 16 ? nbytes - off : 16);
  return 1;
#else
  return 0;
#endif
}

#define FILL_RUN(NAME, T)                                                              \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {           \
    char *d = p[0];                                                                    \
    int64_t ds = st[0];                                                                \
    T v;                                                                               \
    memcpy(&v, ctx, sizeof v);                                                         \
    if (ds == (int64_t)sizeof(T)) {                                                    \
      if (n * (int64_t)sizeof(T) >= 4096 && fill_wide(d, n, ctx, sizeof(T))) return 0; \
      T *q = (T *)(void *)d;                                                           \
      int64_t i = 0;                                                                   \
      for (; i + LT_BLOCK <= n; i += LT_BLOCK)                                         \
        for (int j = 0; j < LT_BLOCK; j++) q[i + j] = v;                               \
      for (; i < n; i++) q[i] = v;                                                     \
    } else {                                                                           \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, &v, sizeof v);                \
    }                                                                                  \
    return 0;                                                                          \
  }
#define FILL_BITS(b) FILL_RUN(fill_##b, LT_UBITS_##b)
LT_ELEMENT_BITS(FILL_BITS)
FILL_RUN(fill_c64, lt_c64) /* 8 bytes aligned to 4: imported complex64 data may be */
/* By dtype: an unsigned word of the element's size, complex64 its own type (its alignment). */
#define FILL_ENTRY(E, n, T, c, b, K) [LT_##E] = FILL_##K(b),
#define FILL_BOOL(b) fill_##b
#define FILL_SINT(b) fill_##b
#define FILL_UINT(b) fill_##b
#define FILL_FLT(b) fill_##b
#define FILL_F16(b) fill_##b
#define FILL_BF16(b) fill_##b
#define FILL_CPX(b) FILL_CPX_##b
#define FILL_CPX_64 fill_c64
#define FILL_CPX_128 fill_128
static const lt_run_fn fills[LT_NDTYPES] = {LT_DTYPES(FILL_ENTRY)};

int lt_fill(lt_tensor *dst, const lt_scalar *v, lt_error *err) {
  int rc;
  if ((rc = lt_prepare_write(dst, err))) return rc;
  if ((rc = lt_check_no_internal_overlap(dst, err))) return rc;
  fill_ctx f;
  memset(&f, 0, sizeof f);
  if (lt_store(dst->dtype, &f.elem, v) != LT_STORE_OK) {
    char str[64];
    lt_scalar_str(v, str, sizeof str);
    return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, lt_dtypes[dst->dtype].name);
  }
  if (lt_numel(dst) == 0) return LT_OK;
  lt_iter it;
  lt_tensor *ops[1] = {dst};
  char *base[1] = {lt_data(dst)};
  lt_iter_init(&it, 1, ops);
  f.stream = (uint64_t)lt_numel(dst) * lt_esize(dst) >= STREAM_MIN;
  lt_iter_run_par(&it, base, fills[dst->dtype], &f, (double)lt_esize(dst));
  return LT_OK;
}

/* }====== */

/* {====== clone, cast, reshape ====== */

int lt_cast(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err); /* first: an opaque t has no dtype to make a copy of */
  if (rc) return rc;
  lt_tensor *c;
  if ((rc = lt_tensor_new(dt, t->ndim, t->shape, 0, &c, err))) return rc;
  if ((rc = lt_copy(c, t, err))) {
    lt_tensor_free(c);
    return rc;
  }
  *out = c;
  return LT_OK;
}

int lt_clone(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  return lt_cast(t, t->dtype, out, err);
}

int lt_contiguous_as(const lt_tensor *t, lt_dtype dt, const lt_tensor **res, lt_tensor **owned,
                     lt_error *err) {
  *owned = NULL;
  *res = t;
  if (t->dtype == dt && lt_is_contiguous(t)) return LT_OK;
  int rc = lt_cast(t, dt, owned, err);
  *res = *owned;
  return rc;
}

/* Whether no two elements of t share an address (an expanded dim, of stride 0, makes them
   share): sorted by |stride|, each dim must step over everything the dims inside it reach. */
static int elements_distinct(const lt_tensor *t) {
  int dims[LT_MAX_NDIM], n = 0;
  for (int d = 0; d < t->ndim; d++) {
    if (t->shape[d] == 0) return 1;
    if (t->shape[d] > 1) dims[n++] = d;
  }
  for (int i = 1; i < n; i++) /* insertion sort by |stride| */
    for (int j = i; j > 0 && llabs(t->strides[dims[j]]) < llabs(t->strides[dims[j - 1]]); j--) {
      int tmp = dims[j];
      dims[j] = dims[j - 1];
      dims[j - 1] = tmp;
    }
  int64_t reach = 0; /* elements past the first that the inner dims reach */
  for (int i = 0; i < n; i++) {
    int64_t st = llabs(t->strides[dims[i]]);
    if (st <= reach) return 0;
    reach += st * (t->shape[dims[i]] - 1);
  }
  return 1;
}

int lt_clone_lazy(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  uint64_t used = (uint64_t)lt_numel(t) * lt_esize(t);
  lt_storage *s = NULL; /* (a readable tensor is not revoked: it has a block) */
  /* sharing keeps t's layout: only for one whose elements are distinct, or a write to one
     element of the clone would show in the others (an expanded tensor's clone is a copy) */
  if (used > 0 && used * 2 >= t->storage->block->nbytes && elements_distinct(t))
    s = lt_storage_share(t->storage);
  if (!s) return lt_clone(t, out, err);
  lt_tensor *c;
  if ((rc = lt_tensor_alias(t, &c, err))) {
    lt_storage_release(s);
    return rc;
  }
  lt_storage_release(c->storage);
  c->storage = s;
  c->readonly = LT_WRITABLE;
  *out = c;
  return LT_OK;
}

int lt_reshape(const lt_tensor *t, int ndim, const int64_t *shape, lt_tensor **out, int *copied,
               lt_error *err) {
  int rc = lt_view(t, ndim, shape, out, err);
  if (rc == LT_OK) {
    if (copied) *copied = 0;
    return LT_OK;
  }
  if (rc != LT_EARG || ndim < 0 || ndim > LT_MAX_NDIM) return rc;
  int64_t res[LT_MAX_NDIM]; /* a shape error is the same again: no copy is made for it */
  if ((rc = lt_infer_shape(lt_numel(t), ndim, shape, res, err))) return rc;
  lt_tensor *c;
  if ((rc = lt_clone(t, &c, err))) return rc;
  rc = lt_view(c, ndim, res, out, err); /* a contiguous tensor views any shape */
  lt_tensor_free(c);
  if (rc == LT_OK && copied) *copied = 1;
  return rc;
}

int lt_flatten(const lt_tensor *t, int start, int end, lt_tensor **out, lt_error *err) {
  if (t->ndim == 0) {
    int64_t one = 1;
    return lt_reshape(t, 1, &one, out, NULL, err);
  }
  int rc;
  if ((rc = lt_check_dim(t, start, err)) || (rc = lt_check_dim(t, end, err))) return rc;
  if (start > end)
    return lt_fail(err, LT_EARG, "flatten start dim %d comes after end dim %d", start + 1, end + 1);
  int64_t shape[LT_MAX_NDIM], merged = 1;
  int n = 0;
  for (int i = 0; i < start; i++) shape[n++] = t->shape[i];
  /* No overflow: the product of a shape's nonzero sizes fits (lt_shape_numel). Only a zero
     in start..end empties the merged dim; one elsewhere keeps it, as torch: (0,3,4) -> (0,12). */
  for (int i = start; i <= end; i++) merged *= t->shape[i];
  shape[n++] = merged;
  for (int i = end + 1; i < t->ndim; i++) shape[n++] = t->shape[i];
  return lt_reshape(t, n, shape, out, NULL, err);
}

/* }====== */

/* {====== arange ====== */

/* Writes start + i * step for i in [0, count) into a new tensor, as integers or doubles. */
static int arange_fill(lt_dtype dt, int64_t count, int isint, int64_t istart, int64_t istep,
                       double fstart, double fstep, lt_tensor **out, lt_error *err) {
  lt_tensor *t;
  int rc = lt_tensor_new(dt, 1, &count, 0, &t, err);
  if (rc) return rc;
  char *p = lt_data(t);
  size_t es = lt_esize(t);
  for (int64_t i = 0; i < count; i++, p += es) {
    lt_scalar s = {LT_SK_FLOAT, {.f = fstart + (double)i * fstep}, 0};
    if (isint) {
      s.kind = LT_SK_INT;
      s.v.i = (int64_t)((uint64_t)istart + (uint64_t)i * (uint64_t)istep);
    }
    if (lt_store(dt, p, &s) != LT_STORE_OK) {
      char str[64];
      lt_scalar_str(&s, str, sizeof str);
      lt_tensor_free(t);
      return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, lt_dtypes[dt].name);
    }
  }
  *out = t;
  return LT_OK;
}

/* A scalar as a double (the real part of a complex one). */
static double scalar_double(const lt_scalar *s) {
  return s->kind == LT_SK_INT ? (double)s->v.i : s->kind == LT_SK_UINT ? (double)s->v.u : s->v.f;
}

int lt_arange(lt_dtype dt, const lt_scalar *start, const lt_scalar *stop, const lt_scalar *step,
              lt_tensor **out, lt_error *err) {
  if (start->kind == LT_SK_INT && stop->kind == LT_SK_INT && step->kind == LT_SK_INT) {
    int64_t a = start->v.i, b = stop->v.i, st = step->v.i;
    if (st == 0) return lt_fail(err, LT_EARG, "step must be nonzero");
    if (st > 0 ? b < a : b > a)
      return lt_fail(err, LT_EARG, "upper bound and lower bound inconsistent with step sign");
    /* span / step, rounded up, in unsigned arithmetic (the span may exceed int64) */
    uint64_t span = st > 0 ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
    uint64_t ustep = st > 0 ? (uint64_t)st : 0 - (uint64_t)st;
    uint64_t c = span / ustep + (span % ustep != 0);
    if (c > (uint64_t)INT64_MAX) return lt_fail(err, LT_ERANGE, "too many elements");
    return arange_fill(dt, (int64_t)c, 1, a, st, 0, 0, out, err);
  }
  double a = scalar_double(start), b = scalar_double(stop), st = scalar_double(step);
  if (!isfinite(a) || !isfinite(b)) return lt_fail(err, LT_EARG, "start and stop must be finite");
  if (st == 0 || !isfinite(st)) return lt_fail(err, LT_EARG, "step must be finite and nonzero");
  if (st > 0 ? b < a : b > a)
    return lt_fail(err, LT_EARG, "upper bound and lower bound inconsistent with step sign");
  double c = ceil((b - a) / st);
  if (!(c < 0x1p62)) return lt_fail(err, LT_ERANGE, "too many elements");
  return arange_fill(dt, (int64_t)c, 0, 0, 0, a, st, out, err);
}

/* }====== */
