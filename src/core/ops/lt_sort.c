/*
 * lt_sort.c -- sorting along a dim and what is read off sorted rows (see lt_sort.h). Lua-free.
 *
 * Every operation here works on rows: the input with the dim moved last, made contiguous (no
 * copy when it already is), nrows rows of n elements. A row becomes n (key, position) pairs
 * (lt_order_key, flipped for a descending order) sorted stably. Keys of up to 32 bits share one
 * uint64 with their position (key << 32 | position, packed by lt_sort_simd.c's loops for float32,
 * int32 and uint32): the items of a row are distinct, so any order of them is the stable one.
 * On the AVX-512 path they are sorted by lt_sort_quick.c's quicksort (quick_sort: a long run
 * first split into one range per thread, sorted over the pool), a full sort in place in the
 * positions' result (each item as wide as a position, read off in place), no scratch. On the
 * others by an MSD radix sort (msd_sort): rows too large for the cache first split into
 * 256 buckets of about equal counts (msd_split) sorted over the pool; then runs split by the top
 * 4 to 11 bits of those where their keys differ, down to runs of at most LT_SORT_NET_MAX items,
 * which lt_sort_net sorts (a bitonic network on the vector paths, an insertion sort on the plain
 * one, below INSERTION_MAX there). 64-bit keys keep their positions in a second array and take an
 * insertion sort for short rows, else an LSD radix sort on 11-bit digits (6 passes; a pass whose
 * digit is the same for every key is skipped), all digit histograms counted in one sweep: stable
 * by construction. topk and kthvalue of rows of at least 2048 items wanting at most a quarter
 * of them first pick their k smallest items by a radix select (select_first, on packed items or on
 * 64-bit keys with their positions), then sort only those: the same first k as the full sort.
 * The vector path is lt_cpu_level()'s, read once per call. The kinds read the
 * sorted pairs off: all of them (sort), the first k (topk), one (kthvalue, median), the longest run
 * (mode); sort and topk through lt_sort_simd.c's read-off loops (values decoded from the keys).
 * Rows run in parallel over the pool (lt_pool_run), each piece with its own scratch.
 * Results are made in the rows' layout and, when the dim was not the last, copied into tensors of
 * the input's dim order. unique and unique along a dim are lt_unique.c's.
 *
 * Calls lt_copy.c, lt_tensor.c, lt_pool.c, lt_cpu.c, lt_sort_simd.c, lt_sort_quick.c. Called by
 * the binding.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_cpu.h"
#include "lt_pool.h"
#include "lt_sort.h"
#include "lt_sort_simd.h"

int lt_check_ordered(const lt_tensor *t, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (!lt_key_bits(t->dtype))
    return lt_fail(err, LT_EARG, "not implemented for %s", lt_dtype_name(t->dtype));
  return LT_OK;
}

/* {====== sorting one row ====== */

/* Rows shorter than this are insertion sorted. */
#define INSERTION_MAX 48
#define DIGIT 11
#define RADIX (1 << DIGIT)
#define MAX_PASSES ((64 + DIGIT - 1) / DIGIT)
/* msd_sort's depth: msd_split's level, then levels that take at least 4 of the 32 key bits
   each, or all that are left. */
#define MSD_DEPTH 12
/* Rows of more items than this are first split into 256 buckets of about equal counts
   (msd_split: its stores then stay in the first-level cache until their lines fill); shorter
   runs by up to DIGIT bits. */
#ifndef MSD_WIDE_MAX
#define MSD_WIDE_MAX 32768
#endif
/* Runs of at least this many items sort the buckets of their first digit over the pool. */
#define MSD_PAR_MIN ((int64_t)1 << 17)
/* quick_sort splits a long run into at most this many ranges sorted over the pool. */
#define QUICK_PARTS 16
#define HIST_ROWS (MSD_DEPTH > MAX_PASSES ? MSD_DEPTH : MAX_PASSES)

enum { K_SORT, K_TOPK, K_KTH, K_MEDIAN, K_MODE };

typedef struct {
  const char *x;  /* nrows contiguous rows of n elements */
  int64_t n, m;   /* row length; results per row */
  lt_dtype dt;    /* the elements' dtype */
  size_t es;      /* its size */
  int bits, desc; /* key bits; descending order */
  int kind;       /* K_* */
  int64_t k;      /* topk: how many; kthvalue: which (0-based) */
  int64_t base;   /* the first position */
  char *vals;     /* nrows x m results (NULL: none) */
  int64_t *idx;   /* nrows x m positions */
  uint64_t flip;  /* every key bit when descending, else 0 */
  int level;      /* the vector path (lt_cpu_level) */
} rows_ctx;

/* Copies element `from` of row x to element `to` of y (both of c->es bytes). */
static inline void put_elem(size_t es, char *y, int64_t to, const char *x, int64_t from) {
  switch (es) {
    case 1: ((uint8_t *)y)[to] = ((const uint8_t *)x)[from]; break;
    case 2: ((uint16_t *)y)[to] = ((const uint16_t *)x)[from]; break;
    case 4: ((uint32_t *)y)[to] = ((const uint32_t *)x)[from]; break;
    default: ((uint64_t *)y)[to] = ((const uint64_t *)x)[from]; break;
  }
}

/* Reads one result of a sorted row (kthvalue, median, mode) off into row r of the results:
   KEY(j) and POS(j) are the key and the position at sorted place j (sk and si are what they
   read). sort and topk take emit_sorted. */
#define EMIT_FN(NAME, KT, KEY, POS)                                                                \
  static void NAME(const rows_ctx *c, int64_t r, const char *x, const KT *sk,                      \
                   const uint32_t *si) {                                                           \
    const int64_t n = c->n, m = c->m;                                                              \
    char *v = c->vals ? c->vals + r * m * (int64_t)c->es : NULL;                                   \
    int64_t *ix = c->idx + r * m, at = 0;                                                          \
    (void)si;                                                                                      \
    (void)m;                                                                                       \
    switch (c->kind) {                                                                             \
      case K_KTH: at = c->k; break;                                                                \
      case K_MEDIAN:                                                                               \
        at = (n - 1) / 2;                                                                          \
        if (lt_key_is_nan(c->dt, KEY(n - 1))) { /* the first NaN: torch's median propagates */     \
          at = n - 1;                                                                              \
          while (at > 0 && KEY(at - 1) == KEY(n - 1)) at--;                                        \
        }                                                                                          \
        break;                                                                                     \
      default: { /* K_MODE: the longest run of equal keys, the smallest; each NaN a run (torch) */ \
        int64_t best = 0, len = 0;                                                                 \
        for (int64_t j = 0, s = 0; j < n; j++)                                                     \
          if (j + 1 == n || KEY(j + 1) != KEY(j) || lt_key_is_nan(c->dt, KEY(j))) {                \
            if (j + 1 - s > len) len = j + 1 - s, best = j; /* its last occurrence */              \
            s = j + 1;                                                                             \
          }                                                                                        \
        at = best;                                                                                 \
      }                                                                                            \
    }                                                                                              \
    ix[0] = (int64_t)POS(at) + c->base;                                                            \
    if (v) put_elem(c->es, v, 0, x, POS(at));                                                      \
  }

/* Keys of at most 32 bits travel with their positions in one uint64 (key << 32 | position):
   one array to scatter per pass instead of two, and an insertion sort that compares whole
   items is stable by itself. */
#define PK_KEY(j) (sk[j] >> 32)
#define PK_POS(j) ((uint32_t)sk[j])
EMIT_FN(emit_packed, uint64_t, PK_KEY, PK_POS)
/* 64-bit keys: keys and positions in two arrays. */
#define W_KEY(j) (sk[j])
#define W_POS(j) (si[j])
EMIT_FN(emit_wide, uint64_t, W_KEY, W_POS)

/* The keys of row x (n elements), flipped for a descending order: keys of up to 32 bits packed
   with their positions into k, 64-bit keys into k and their positions into ix. One case per
   dtype with an order (complex has none), the dtype a constant in each loop, so that
   lt_order_key's switch folds away. */
#define PK_STORE(i, key) (k[i] = (uint64_t)(key) << 32 | (uint64_t)(i))
#define W_STORE(i, key) (k[i] = (key), ix[i] = (uint32_t)(i))
#define KEY_STORE_8 PK_STORE
#define KEY_STORE_16 PK_STORE
#define KEY_STORE_32 PK_STORE
#define KEY_STORE_64 W_STORE
#define KEY_CASE(E, T, b)                                              \
  case LT_##E:                                                         \
    for (int64_t i = 0; i < n; i++)                                    \
      KEY_STORE_##b(i, lt_order_key(LT_##E, (const T *)x + i) ^ flip); \
    break;
#define KEY_BOOL KEY_CASE
#define KEY_SINT KEY_CASE
#define KEY_UINT KEY_CASE
#define KEY_FLT KEY_CASE
#define KEY_F16 KEY_CASE
#define KEY_BF16 KEY_CASE
#define KEY_CPX(E, T, b)

/* Returns how many elements are -0.0 or NaN (lt_sort_simd.h; 0 for the dtypes it does not
   take, whose values are always read back from x); range: the smallest and largest packed key,
   when *has_range. */
static int64_t load_keys(const rows_ctx *c, const char *x, uint64_t *k, uint32_t *ix,
                         uint32_t range[2], int *has_range) {
  const int64_t n = c->n;
  const uint64_t flip = c->flip;
  *has_range = !ix && lt_sort_simd_takes(c->dt);
  if (lt_sort_simd_takes(c->dt))
    return ix ? lt_sort_keys64(c->level, c->dt, x, n, flip, k, ix)
              : lt_sort_pack32(c->level, c->dt, x, n, (uint32_t)flip, k, range);
  switch (c->dt) {
    LT_DTYPES_BY_CATEGORY(KEY)
    default: break;
  }
  return 0;
}

/* Reads sorted items off into row r of sort's or topk's results (the first c->m): positions,
   and values decoded from the keys (special: load_keys' count) or read back from x. */
static void emit_sorted(const rows_ctx *c, int64_t r, const char *x, const uint64_t *sk,
                        const uint32_t *si, int64_t special) {
  const int64_t m = c->m;
  char *v = c->vals ? c->vals + r * m * (int64_t)c->es : NULL;
  int64_t *ix = c->idx + r * m;
  if (v && !si && !special && lt_sort_simd_takes(c->dt)) { /* both in one sweep */
    lt_sort_emit32(c->level, c->dt, sk, m, (uint32_t)c->flip, c->base, v, ix);
    return;
  }
  if (v && !lt_sort_simd_takes(c->dt))
    for (int64_t j = 0; j < m; j++) put_elem(c->es, v, j, x, si ? si[j] : (uint32_t)sk[j]);
  else if (v && si)
    lt_sort_values64(c->level, c->dt, sk, si, m, c->flip, special, x, v);
  else if (v)
    lt_sort_values32(c->level, c->dt, sk, m, (uint32_t)c->flip, special, x, v);
  if (si) /* last: the items may lie in ix itself (rows_piece), read off in place */
    lt_sort_positions32(c->level, si, m, c->base, ix);
  else
    lt_sort_positions(c->level, sk, m, c->base, ix);
}

/* One pass of the radix sort: digit at shift of n items from src (and their positions, when
   si is not NULL) to dst, counts h (made offsets here). */
#define SCATTER(src, dst, si, di, shift, h)               \
  do {                                                    \
    uint32_t sum_ = 0;                                    \
    for (int d_ = 0; d_ < RADIX; d_++) {                  \
      uint32_t cnt_ = (h)[d_];                            \
      (h)[d_] = sum_;                                     \
      sum_ += cnt_;                                       \
    }                                                     \
    for (int64_t i_ = 0; i_ < n; i_++) {                  \
      uint64_t v_ = (src)[i_];                            \
      uint32_t o_ = (h)[(v_ >> (shift)) & (RADIX - 1)]++; \
      (dst)[o_] = v_;                                     \
      if (si) (di)[o_] = (si)[i_];                        \
    }                                                     \
  } while (0)

static int msd_buckets(const rows_ctx *c, uint64_t *src, uint64_t *scr, const uint32_t *ends,
                       uint32_t nb, int into_scr);
static int msd_next(const rows_ctx *c, uint64_t *src, uint64_t *scr, const uint32_t *ends,
                    uint32_t nb, int into_scr, uint32_t *hist, int depth);
static int msd_split(const rows_ctx *c, uint64_t *src, uint64_t *scr, int64_t n, int into_scr,
                     int sig, uint32_t *hist, int depth);

/* The longest run msd_sort hands to lt_sort_net. */
static int64_t small_max(const rows_ctx *c) {
  return c->level > LT_CPU_SCALAR ? LT_SORT_NET_MAX : INSERTION_MAX;
}

/* Ranges of one quick_sort, sorted over the pool. */
typedef struct {
  uint64_t *a;
  int64_t at[QUICK_PARTS + 1]; /* range p: [at[p], at[p + 1]) */
} quick_ctx;

static int quick_piece(void *vq, int64_t lo, int64_t hi) {
  const quick_ctx *q = vq;
  for (int64_t p = lo; p < hi; p++) {
    const int64_t n = q->at[p + 1] - q->at[p];
    lt_sort_quick(q->a + q->at[p], n, lt_sort_quick_depth(n));
  }
  return 0;
}

/* Sorts the n packed items a by lt_sort_quick (the AVX-512 path): runs of at least MSD_PAR_MIN
   items with more than one thread first split into as many ranges as threads (a power of 2, at
   most QUICK_PARTS) by lt_sort_quick_split, then sorted over the pool. Returns 0. */
static int quick_sort(uint64_t *a, int64_t n) {
  const int threads = lt_pool_threads();
  quick_ctx q = {a, {0, n}};
  int parts = 1;
  if (n >= MSD_PAR_MIN)
    for (; parts < threads && parts < QUICK_PARTS; parts *= 2)
      for (int p = parts - 1; p >= 0; p--) { /* range p becomes ranges 2p and 2p + 1 */
        const int64_t lo = q.at[p], hi = q.at[p + 1];
        q.at[2 * p + 2] = hi;
        q.at[2 * p + 1] = lo + lt_sort_quick_split(a + lo, hi - lo);
        q.at[2 * p] = lo;
      }
  return parts > 1 ? lt_pool_run(parts, 1, quick_piece, &q) >= 0 : quick_piece(&q, 0, 1);
}

/* Sorts the n packed items src by a most-significant-digit radix sort, the result in src, or
   in scr (scratch of n) when into_scr: the digit is the top bits of those where the keys
   differ (range: the smallest and largest key, or NULL to find them), from 4 to 11 of them as
   n grows (buckets of about 8 items), scattered stably into scr; each bucket is sorted the same
   way with the arrays' roles swapped, or, when short, by the network (vector paths) or the
   insertion sort (plain). hist: MSD_DEPTH x RADIX counters, one row per depth. Large runs at
   depth 0 sort their buckets over the pool (msd_buckets). Returns nonzero when out of memory. */
static int msd_sort(const rows_ctx *c, uint64_t *src, uint64_t *scr, int64_t n, int into_scr,
                    const uint32_t *range, uint32_t *hist, int depth) {
  const int quick = lt_sort_quick_takes(c->level);
  if (quick && !range) { /* AVX-512: the quicksort, in the array the result goes to */
    if (into_scr) memcpy(scr, src, (size_t)n * sizeof *src);
    return quick_sort(into_scr ? scr : src, n);
  }
  if (n <= small_max(c)) {
    lt_sort_net(c->level, src, into_scr ? scr : src, n);
    return 0;
  }
  uint32_t lo, hi;
  if (range)
    lo = range[0], hi = range[1];
  else
    lt_sort_range(c->level, src, n, &lo, &hi);
  if (lo == hi) { /* equal keys: the items are in position order already */
    if (into_scr) memcpy(scr, src, (size_t)n * sizeof *src);
    return 0;
  }
  if (quick) return msd_sort(c, src, scr, n, into_scr, NULL, hist, depth);
  int sig = 32, bits = 4;
  while (!((lo ^ hi) >> (sig - 1))) sig--;
  if (depth == 0 && n > MSD_WIDE_MAX && sig > 8)
    return msd_split(c, src, scr, n, into_scr, sig, hist, depth);
  while (bits < DIGIT && ((int64_t)1 << (bits + 3)) < n) bits++; /* buckets of about 8 items */
  if (bits > sig) bits = sig;
  const int shift = 32 + sig - bits;
  const uint32_t mask = (1u << bits) - 1;
  uint32_t *h = hist + depth * RADIX;
  memset(h, 0, sizeof(uint32_t) << bits);
  for (int64_t i = 0; i < n; i++) h[(src[i] >> shift) & mask]++;
  uint32_t sum = 0;
  for (uint32_t d = 0; d <= mask; d++) {
    uint32_t cnt = h[d];
    h[d] = sum;
    sum += cnt;
  }
  for (int64_t i = 0; i < n; i++) scr[h[(src[i] >> shift) & mask]++] = src[i];
  return msd_next(c, src, scr, h, mask + 1, into_scr, hist, depth);
}

/* After a scatter of src into nb buckets of scr (ends: the end of each): sorts each bucket, over
   the pool at depth 0 for large runs. */
static int msd_next(const rows_ctx *c, uint64_t *src, uint64_t *scr, const uint32_t *ends,
                    uint32_t nb, int into_scr, uint32_t *hist, int depth) {
  if (depth == 0 && ends[nb - 1] >= MSD_PAR_MIN && lt_pool_threads() > 1)
    return msd_buckets(c, src, scr, ends, nb, into_scr);
  for (uint32_t d = 0, off = 0; d < nb; d++) {
    int64_t cnt = (int64_t)ends[d] - off;
    if (msd_sort(c, scr + off, src + off, cnt, !into_scr, NULL, hist, depth + 1)) return 1;
    off = ends[d];
  }
  return 0;
}

/* msd_sort's first step for rows too large for the cache: a histogram of the top 16 (at most
   sig) bits where the keys differ, whose digits are grouped, in order, into 256 buckets of
   about n / 256 items each (so that skewed keys, such as the exponents of floats in [0, 1),
   still give buckets that fit the cache), then one scatter by group. */
static int msd_split(const rows_ctx *c, uint64_t *src, uint64_t *scr, int64_t n, int into_scr,
                     int sig, uint32_t *hist, int depth) {
  const int bits = sig < 16 ? sig : 16, shift = 32 + sig - bits;
  const uint32_t nd = 1u << bits, mask = nd - 1;
  uint32_t *cnt = calloc(nd, sizeof *cnt);
  uint8_t *group = malloc(nd);
  if (!cnt || !group) {
    free(cnt);
    free(group);
    return 1;
  }
  for (int64_t i = 0; i < n; i++) cnt[(src[i] >> shift) & mask]++;
  /* a digit's group: 256 x the items before it / n; the largest key's digit (the last with
     items) never in group 0, where the smallest key's is, so that every group is smaller than n */
  uint32_t ends[256] = {0}, at[256], last = mask;
  while (!cnt[last]) last--;
  uint64_t before = 0;
  for (uint32_t d = 0; d < nd; d++) {
    uint32_t g = d > last ? 255 : (uint32_t)(before * 256 / (uint64_t)n);
    group[d] = (uint8_t)(d == last && g == 0 ? 1 : g);
    ends[group[d]] += cnt[d];
    before += cnt[d];
  }
  for (uint32_t k = 0, sum = 0; k < 256; k++) {
    at[k] = sum;
    sum += ends[k];
    ends[k] = sum;
  }
  for (int64_t i = 0; i < n; i++) scr[at[group[(src[i] >> shift) & mask]]++] = src[i];
  free(cnt);
  free(group);
  return msd_next(c, src, scr, ends, 256, into_scr, hist, depth);
}

typedef struct {
  const rows_ctx *c;
  uint64_t *src, *scr;  /* msd_sort's arrays: the buckets lie in scr */
  const uint32_t *ends; /* the end of each bucket */
  int into_scr;
} buckets_ctx;

/* Buckets [lo, hi) of one msd_sort, with counters of its own. */
static int buckets_piece(void *vb, int64_t lo, int64_t hi) {
  const buckets_ctx *b = vb;
  uint32_t *hist = malloc(sizeof(uint32_t) * RADIX * MSD_DEPTH);
  if (!hist) return 1;
  int rc = 0;
  for (int64_t d = lo; d < hi && !rc; d++) {
    uint32_t off = d ? b->ends[d - 1] : 0;
    rc = msd_sort(b->c, b->scr + off, b->src + off, (int64_t)b->ends[d] - off, !b->into_scr, NULL,
                  hist, 1);
  }
  free(hist);
  return rc;
}

static int msd_buckets(const rows_ctx *c, uint64_t *src, uint64_t *scr, const uint32_t *ends,
                       uint32_t nb, int into_scr) {
  buckets_ctx b = {c, src, scr, ends, into_scr};
  return lt_pool_run(nb, (nb + 63) / 64, buckets_piece, &b) >= 0;
}

/* topk and kthvalue of rows of at least SELECT_MIN items pick their m smallest items
   (select_first) before sorting, when m is at most a SELECT_FRAC-th of the row. */
#define SELECT_MIN 2048
#define SELECT_FRAC 4
#define SELECT_BITS 11

/* How many items row sorts of c pick by select_first (0: none, a full sort):
   topk or kthvalue, a long row and few results. */
static int64_t select_count(const rows_ctx *c) {
  const int64_t m = c->kind == K_KTH ? c->k + 1 : c->m;
  return (c->kind == K_TOPK || c->kind == K_KTH) && c->n >= SELECT_MIN && m * SELECT_FRAC <= c->n
             ? m
             : 0;
}

/* Sorts the n 64-bit keys *sk and their positions *si stably (an insertion sort for short runs,
   else an LSD radix sort on DIGIT-bit digits, passes of one digit skipped), dk and di scratch of
   n; *sk and *si: where the result lies. hist: HIST_ROWS x RADIX counters. */
static void wide_sort(const rows_ctx *c, int64_t n, uint64_t **psk, uint32_t **psi, uint64_t *dk,
                      uint32_t *di, uint32_t *hist) {
  uint64_t *sk = *psk;
  uint32_t *si = *psi;
  if (n < INSERTION_MAX) {
    for (int64_t i = 1; i < n; i++) {
      uint64_t kv = sk[i];
      uint32_t iv = si[i];
      int64_t j = i;
      for (; j > 0 && sk[j - 1] > kv; j--) {
        sk[j] = sk[j - 1];
        si[j] = si[j - 1];
      }
      sk[j] = kv;
      si[j] = iv;
    }
  } else {
    const int passes = (c->bits + DIGIT - 1) / DIGIT;
    memset(hist, 0, sizeof(uint32_t) * RADIX * (size_t)passes);
    for (int64_t i = 0; i < n; i++) {
      uint64_t v = sk[i];
      for (int p = 0; p < passes; p++) hist[p * RADIX + ((v >> (p * DIGIT)) & (RADIX - 1))]++;
    }
    for (int p = 0; p < passes; p++) {
      uint32_t *h = hist + p * RADIX;
      const int shift = p * DIGIT;
      if (h[(sk[0] >> shift) & (RADIX - 1)] == (uint32_t)n) continue; /* one digit: skip */
      SCATTER(sk, dk, si, di, shift, h);
      uint64_t *t1 = sk;
      sk = dk;
      dk = t1;
      uint32_t *t2 = si;
      si = di;
      di = t2;
    }
  }
  *psk = sk;
  *psi = si;
}

/* Moves the m smallest (1 <= m < n) of the n items k into ok (any order): a radix select. Items
   are packed (ix NULL: distinct, so the m smallest are the first m of the full sort) or 64-bit
   keys with their positions ix (into oix: ordered by key, then position). Each round counts the
   top SELECT_BITS bits of those where the candidates differ, takes every candidate whose digit
   is below the digit of the m-th smallest, and keeps those with that digit (compacted in place,
   in order) as the next round's candidates, until no more remain than are still wanted or all
   have one key (then the first, in position order). Equal keys always share a round, so those
   taken stay in position order. range (or NULL): the smallest and largest key of packed items,
   which spare the first round its search for the bits that differ. h: 1 << SELECT_BITS
   counters. */
static void select_first(uint64_t *k, uint32_t *ix, int64_t n, int64_t m, const uint32_t *range,
                         uint64_t *ok, uint32_t *oix, uint32_t *h) {
  int64_t taken = 0;
  while (taken < m && n > m - taken) {
    const int64_t need = m - taken;
    uint64_t lo = k[0], hi = k[0];
    if (range) { /* hi above every item: the bits above the top one of lo ^ hi are all equal */
      lo = (uint64_t)range[0] << 32;
      hi = (uint64_t)range[1] << 32 | UINT32_MAX;
      range = NULL;
    } else {
      for (int64_t i = 1; i < n; i++) {
        lo = k[i] < lo ? k[i] : lo;
        hi = k[i] > hi ? k[i] : hi;
      }
    }
    if (lo == hi) { /* one key: the first in position order */
      n = need;
      break;
    }
    int sig = 64;
    while (!((lo ^ hi) >> (sig - 1))) sig--;
    const int bits = sig < SELECT_BITS ? sig : SELECT_BITS, shift = sig - bits;
    const uint32_t mask = (1u << bits) - 1;
    memset(h, 0, sizeof(uint32_t) << bits);
    for (int64_t i = 0; i < n; i++) h[(k[i] >> shift) & mask]++;
    uint32_t cut = 0;
    for (int64_t before = 0; before + h[cut] < need; cut++) before += h[cut];
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
      const uint64_t v = k[i];
      const uint32_t d = (uint32_t)(v >> shift) & mask;
      if (d < cut) {
        if (ix) oix[taken] = ix[i];
        ok[taken++] = v;
      } else if (d == cut) {
        if (ix) ix[kept] = ix[i];
        k[kept++] = v;
      }
    }
    n = kept;
  }
  if (taken < m) {
    memcpy(ok + taken, k, (size_t)(m - taken) * sizeof *k);
    if (ix) memcpy(oix + taken, ix, (size_t)(m - taken) * sizeof *ix);
  }
}

/* Sorts row r: n keys in k (packed with their positions: ix NULL; else positions in ix) of
   c->bits bits, tk and tix (NULL with ix) scratch of n, hist HIST_ROWS x RADIX counters; reads the
   result off. Returns nonzero when out of memory. Packed items go through msd_sort; 64-bit keys
   through an insertion sort (short rows) or an LSD radix sort, both stable. */
static int sort_row(const rows_ctx *c, int64_t r, uint64_t *k, uint32_t *ix, uint64_t *tk,
                    uint32_t *tix, uint32_t *hist) {
  const int64_t n = c->n;
  const char *x = c->x + r * n * (int64_t)c->es;
  uint32_t range[2];
  int has_range;
  const int64_t special = load_keys(c, x, k, ix, range, &has_range);
  uint64_t *sk = k, *dk = tk;
  uint32_t *si = ix, *di = tix;
  const int64_t m = select_count(c);
  if (m && !ix) { /* the m smallest into tk, sorted there */
    select_first(k, NULL, n, m, has_range ? range : NULL, tk, NULL, hist);
    if (msd_sort(c, tk, k, m, 0, NULL, hist, 0)) return 1;
    sk = tk;
  } else if (!ix) {
    if (msd_sort(c, k, tk, n, 0, has_range ? range : NULL, hist, 0)) return 1;
  } else if (m) { /* 64-bit keys: the m smallest pairs into tk and tix, sorted */
    select_first(k, ix, n, m, NULL, tk, tix, hist);
    sk = tk, si = tix;
    wide_sort(c, m, &sk, &si, k, ix, hist);
  } else {
    wide_sort(c, n, &sk, &si, dk, di, hist);
  }
  if (c->kind == K_SORT || c->kind == K_TOPK)
    emit_sorted(c, r, x, sk, si, special);
  else if (ix)
    emit_wide(c, r, x, sk, si);
  else
    emit_packed(c, r, x, sk, NULL);
  return 0;
}

/* One piece of rows [lo, hi), with scratch of its own. */
static int rows_piece(void *vc, int64_t lo, int64_t hi) {
  const rows_ctx *c = vc;
  const int64_t n = c->n;
  const int wide = c->bits > 32;
  /* a full sort of packed items by the quicksort: in place in the row's positions (its items
     as wide as they), no scratch */
  const int inplace = c->kind == K_SORT && !wide && lt_sort_quick_takes(c->level);
  size_t nb = inplace ? 0 : (size_t)n * (wide ? 2 * (8 + sizeof(uint32_t)) : 2 * 8);
  size_t hb = n >= INSERTION_MAX && !inplace ? sizeof(uint32_t) * RADIX * HIST_ROWS : 0;
  char *mem = malloc(nb + hb + 8);
  if (!mem) return 1;
  uint32_t *hist = inplace ? NULL : (uint32_t *)mem; /* first: the arrays after it stay aligned */
  uint64_t *k = inplace ? NULL : (uint64_t *)(mem + hb), *tk = inplace ? NULL : k + n;
  uint32_t *ix = wide ? (uint32_t *)(tk + n) : NULL, *tix = wide ? ix + n : NULL;
  int rc = 0;
  for (int64_t r = lo; r < hi && !rc; r++)
    rc = sort_row(c, r, inplace ? (uint64_t *)(c->idx + r * n) : k, ix, tk, tix, hist);
  free(mem);
  return rc;
}

/* }====== */

/* {====== along a dim ====== */

static int is_reduction(int kind) { return kind == K_KTH || kind == K_MEDIAN || kind == K_MODE; }

/* Runs kind along dim of t (not 0-d) into *values (when values is not NULL) and *indices. */
static int along(const lt_tensor *t, int dim, int kind, int desc, int64_t k, int keepdim,
                 int64_t base, lt_tensor **values, lt_tensor **indices, lt_error *err) {
  const int nd = t->ndim, last = nd - 1;
  const int64_t n = t->shape[dim];
  int64_t m = kind == K_SORT ? n : kind == K_TOPK ? k : 1;
  if (n == 0 && is_reduction(kind))
    return lt_fail(err, LT_EARG, "cannot reduce over dim %d of size 0", dim + 1);
  if (n > (int64_t)UINT32_MAX)
    return lt_fail(err, LT_ERANGE, "dim %d of size %lld is too long to sort (at most 2^32 - 1)",
                   dim + 1, (long long)n);
  int perm[LT_MAX_NDIM];
  int64_t mshape[LT_MAX_NDIM], fshape[LT_MAX_NDIM];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != dim) perm[j++] = i;
  perm[last] = dim;
  for (int i = 0; i < nd; i++) {
    mshape[i] = t->shape[perm[i]];
    fshape[i] = t->shape[i];
  }
  mshape[last] = m;
  fshape[dim] = m;
  /* the rows: t with dim moved last, contiguous */
  lt_tensor *moved = NULL, *owned = NULL, *rv = NULL, *ri = NULL;
  const lt_tensor *rows = t;
  int rc = LT_OK;
  if (dim != last && (rc = lt_permute(t, perm, &moved, err))) return rc;
  if ((rc = lt_contiguous_as(moved ? moved : t, t->dtype, &rows, &owned, err))) goto done;
  if ((values && (rc = lt_tensor_new(t->dtype, nd, mshape, 0, &rv, err))) ||
      (rc = lt_tensor_new(LT_INT64, nd, mshape, 0, &ri, err)))
    goto done;
  int64_t nrows = n ? lt_numel(rows) / n : 0;
  if (n && nrows && m) {
    rows_ctx c = {lt_data(rows),
                  n,
                  m,
                  t->dtype,
                  lt_dtypes[t->dtype].size,
                  lt_key_bits(t->dtype),
                  desc,
                  kind,
                  k,
                  base,
                  rv ? lt_data(rv) : NULL,
                  (int64_t *)lt_data(ri),
                  0,
                  lt_cpu_level()};
    if (desc) c.flip = c.bits > 32 ? UINT64_MAX : ((uint64_t)1 << c.bits) - 1;
    int64_t grain = lt_pool_grain(nrows, (double)n * (double)(c.es + 8) * 4);
    if (lt_pool_run(nrows, grain, rows_piece, &c) >= 0) {
      rc = lt_fail(err, LT_ENOMEM, "out of memory");
      goto done;
    }
  }
  /* the results in t's dim order */
  lt_tensor **res[2] = {&rv, &ri};
  for (int i = 0; i < 2; i++) {
    lt_tensor *r = *res[i];
    if (!r) continue;
    if (dim != last) {
      lt_tensor *f = NULL, *fv = NULL;
      if ((rc = lt_tensor_new(r->dtype, nd, fshape, 0, &f, err))) goto done;
      if ((rc = lt_permute(f, perm, &fv, err)) || (rc = lt_copy(fv, r, err))) {
        lt_tensor_free(fv);
        lt_tensor_free(f);
        goto done;
      }
      lt_tensor_free(fv);
      lt_tensor_free(r);
      *res[i] = r = f;
    }
    if (is_reduction(kind) && !keepdim) {
      lt_tensor *s = NULL;
      int64_t sh[LT_MAX_NDIM];
      for (int a = 0, b = 0; a < nd; a++)
        if (a != dim) sh[b++] = fshape[a];
      if ((rc = lt_view(r, nd - 1, sh, &s, err))) goto done;
      lt_tensor_free(r);
      *res[i] = s;
    }
  }
done:
  lt_tensor_free(moved);
  lt_tensor_free(owned);
  if (rc) {
    lt_tensor_free(rv);
    lt_tensor_free(ri);
    return rc;
  }
  if (values) *values = rv;
  if (indices)
    *indices = ri;
  else
    lt_tensor_free(ri);
  return LT_OK;
}

/* Checks t and dim, and runs kind along it; a 0-d tensor as one element of dim 0, its results
   0-d. */
static int run_kind(const lt_tensor *t, int dim, int kind, int desc, int64_t k, int keepdim,
                    int64_t base, lt_tensor **values, lt_tensor **indices, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc) return rc;
  if (t->ndim > 0) {
    if ((rc = lt_check_dim(t, dim, err))) return rc;
    return along(t, dim, kind, desc, k, keepdim, base, values, indices, err);
  }
  if (dim != 0) return lt_dim_error(err, dim, 1);
  lt_frame f;
  lt_tensor *one = lt_frame_of(&f, t), *v = NULL, *ix = NULL, *v0 = NULL, *ix0 = NULL;
  one->ndim = 1;
  one->shape[0] = 1;
  one->strides[0] = 1;
  rc = along(one, 0, kind, desc, k, 1, base, values ? &v : NULL, &ix, err);
  if (rc) return rc;
  int flat = lt_numel(ix) == 1; /* a 0-d result; topk with k = 0 keeps its empty dim */
  if (flat && ((values && (rc = lt_view(v, 0, NULL, &v0, err))) ||
               (rc = lt_view(ix, 0, NULL, &ix0, err)))) {
    lt_tensor_free(v0);
    lt_tensor_free(v);
    lt_tensor_free(ix);
    return rc;
  }
  if (flat) {
    lt_tensor_free(v);
    lt_tensor_free(ix);
    v = v0;
    ix = ix0;
  }
  if (values) *values = v;
  if (indices)
    *indices = ix;
  else
    lt_tensor_free(ix);
  return LT_OK;
}

/* The size of dim (0-based, checked) of t, a 0-d tensor's dim 0 being 1. */
static int64_t dim_size(const lt_tensor *t, int dim) {
  return t->ndim == 0 ? 1 : dim >= 0 && dim < t->ndim ? t->shape[dim] : 0;
}

/* t ordered, dim one of its dims (any for 0-d), k from lo to the dim's size. */
static int check_k(const lt_tensor *t, int dim, int64_t k, int64_t lo, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc || (t->ndim && (rc = lt_check_dim(t, dim, err)))) return rc;
  int64_t n = dim_size(t, dim);
  if (k < lo || k > n)
    return lt_fail(err, LT_ERANGE, "k %lld out of range (expected %lld to %lld)", (long long)k,
                   (long long)lo, (long long)n);
  return LT_OK;
}

int lt_sort(const lt_tensor *t, int dim, int descending, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err) {
  return run_kind(t, dim, K_SORT, descending, 0, 0, base, values, indices, err);
}

int lt_topk(const lt_tensor *t, int64_t k, int dim, int largest, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err) {
  int rc = check_k(t, dim, k, 0, err);
  if (rc) return rc;
  return run_kind(t, dim, K_TOPK, largest, k, 0, base, values, indices, err);
}

int lt_kthvalue(const lt_tensor *t, int64_t k, int dim, int keepdim, int64_t base,
                lt_tensor **values, lt_tensor **indices, lt_error *err) {
  int rc = check_k(t, dim, k, 1, err);
  if (rc) return rc;
  return run_kind(t, dim, K_KTH, 0, k - 1, keepdim, base, values, indices, err);
}

int lt_median(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
              lt_tensor **indices, lt_error *err) {
  if (dim >= 0) return run_kind(t, dim, K_MEDIAN, 0, 0, keepdim, base, values, indices, err);
  int rc = lt_check_ordered(t, err);
  if (rc) return rc;
  if (lt_numel(t) == 0) { /* torch: NaN for floating dtypes */
    if (!lt_dtypes[t->dtype].is_float) return lt_fail(err, LT_EARG, "median of an empty tensor");
    lt_scalar nan = {LT_SK_FLOAT, {.f = NAN}, 0};
    lt_tensor *r = NULL;
    if ((rc = lt_tensor_new(t->dtype, 0, NULL, 0, &r, err)) || (rc = lt_fill(r, &nan, err))) {
      lt_tensor_free(r);
      return rc;
    }
    *values = r;
    if (indices) *indices = NULL;
    return LT_OK;
  }
  lt_tensor *flat = NULL;
  int64_t n = lt_numel(t);
  if ((rc = lt_reshape(t, 1, &n, &flat, NULL, err))) return rc;
  rc = run_kind(flat, 0, K_MEDIAN, 0, 0, 0, base, values, NULL, err);
  lt_tensor_free(flat);
  if (indices) *indices = NULL;
  return rc;
}

int lt_mode(const lt_tensor *t, int dim, int keepdim, int64_t base, lt_tensor **values,
            lt_tensor **indices, lt_error *err) {
  return run_kind(t, dim, K_MODE, 0, 0, keepdim, base, values, indices, err);
}

/* }====== */
