/*
 * test_sort.c -- the row sort's vector kernels (src/core/ops/lt_sort_simd.c, lt_sort_quick.c) on
 * every path up to lt_cpu_level() (so LTENSOR_SIMD=scalar, avx2 and the default each test a
 * different set; ctest runs c_sort under each), then lt_sort and lt_topk themselves on the path
 * the environment selects.
 *
 * Kernels: the packed and wide keys against lt_order_key, element by element, with the count of
 * -0.0 and NaN; the bitonic network against qsort for every row length up to LT_SORT_NET_MAX;
 * the AVX-512 quicksort (lt_sort_quick, where the path has it) against qsort for every length up
 * to 300 and longer runs to 1e6, of seven patterns, with its heap sort fallback forced, and its
 * split;
 * the read-off of values (bit for bit: -0.0, NaN payloads and signs) and positions after a
 * reference sort, and of both in one sweep (lt_sort_emit32, also in place). lt_sort: rows of
 * lengths around the network's and the radix sort's boundaries (15, 16, 17, 31..33, 63..65,
 * 255..257, 2047, 2048 (topk's selection), 4095..4097, 300000: its buckets sorted over the pool),
 * of random data with ties, all equal, sorted, reversed, with many NaN (both signs, quiet and
 * signalling), +-inf, -0.0 and the integer extremes, ascending and descending, for float32,
 * float64, int32, int64, uint32, uint64, int16, uint8, float16 and bool: positions equal a stable
 * reference sort (equal keys in position order) and values are the elements' bits at those
 * positions; topk and kthvalue for k = 1, 2, 100, around a quarter of the row (where topk's
 * radix select starts), a third and all of it equal the reference's first k, and k past the
 * row is LT_ERANGE. Then float32 rows of every length up to 300, and of 1e6 at 1, 2 and 5
 * threads (the quicksort's split over the pool).
 */
#include <stdlib.h>

#include "lt_cpu.h"
#include "lt_pool.h"
#include "lt_sort.h"
#include "lt_sort_simd.h"
#include "test_core.h"

/* Knuth's MMIX LCG, its high bits folded down. */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void) {
  rng = rng * 6364136223846793005u + 1442695040888963407u;
  return rng ^ rng >> 29;
}

enum { D_RANDOM, D_TIES, D_EQUAL, D_SORTED, D_REVERSE, D_SPECIAL, D_NKINDS };
static const char *const kind_names[] = {"random", "ties", "equal", "sorted", "reverse", "special"};

/* Bits of special elements of each width: zeros, infinities, NaNs (quiet, signalling, negative),
   ones, the extremes of the integers and of the floats. */
static const uint64_t special16[] = {0,      0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00,
                                     0x7c01, 0x3c00, 0xbc00, 0x7fff, 0xffff, 1};
static const uint64_t special32[] = {0,           0x80000000u, 0x7f800000u, 0xff800000u,
                                     0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x3f800000u,
                                     0xbf800000u, 0x7fffffffu, 0xffffffffu, 1};
static const uint64_t special64[] = {0,
                                     0x8000000000000000u,
                                     0x7ff0000000000000u,
                                     0xfff0000000000000u,
                                     0x7ff8000000000000u,
                                     0xfff8000000000000u,
                                     0x7ff0000000000001u,
                                     0x3ff0000000000000u,
                                     0xbff0000000000000u,
                                     0x7fffffffffffffffu,
                                     0xffffffffffffffffu,
                                     1};

/* Element i of a row of n of kind `kind` as bits of es bytes. */
static uint64_t element(int kind, size_t es, int64_t i, int64_t n, lt_dtype dt) {
  const uint64_t *sp = es == 8 ? special64 : es == 4 ? special32 : special16;
  uint64_t mask = es == 8 ? UINT64_MAX : ((uint64_t)1 << (es * 8)) - 1;
  uint64_t v;
  switch (kind) {
    case D_RANDOM: v = next_u64(); break;
    case D_TIES: v = sp[next_u64() % 12]; break;
    case D_EQUAL: v = sp[7]; break;
    case D_SORTED: v = (uint64_t)i; break;
    case D_REVERSE: v = (uint64_t)(n - i); break;
    default: v = next_u64() % 3 ? sp[next_u64() % 12] : next_u64(); break;
  }
  if (dt == LT_BOOL) return v & 1;
  if (es == 1) return v & 0xff;
  return v & mask;
}

static void fill(char *x, int kind, lt_dtype dt, int64_t n) {
  size_t es = lt_dtypes[dt].size;
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = element(kind, es, i, n, dt);
    memcpy(x + (size_t)i * es, &v, es); /* little-endian: the low bytes */
  }
}

/* {====== the kernels, on one path ====== */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Positions by key, then by position: the stable order (ref_keys: the keys). */
static const uint64_t *ref_keys;
static int cmp_ref(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  if (ref_keys[x] != ref_keys[y]) return ref_keys[x] < ref_keys[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static void test_pack(int level, lt_dtype dt, int kind, int64_t n, int desc) {
  size_t es = lt_dtypes[dt].size;
  char *x = malloc((size_t)n * es + 8);
  uint64_t *k = malloc((size_t)n * 8 + 8);
  uint32_t *ix = malloc((size_t)n * 4 + 4);
  char *v = malloc((size_t)n * es + 8);
  int64_t *pos = malloc((size_t)n * 8 + 8);
  fill(x, kind, dt, n);
  int64_t want_special = 0, special;
  for (int64_t i = 0; i < n; i++) {
    uint64_t b = 0;
    memcpy(&b, x + (size_t)i * es, es);
    uint64_t sign = (uint64_t)1 << (es * 8 - 1);
    if (lt_dtypes[dt].is_float)
      want_special += b == sign || lt_key_is_nan(dt, lt_order_key(dt, x + (size_t)i * es));
  }
  if (es == 4) {
    uint32_t flip = desc ? 0xffffffffu : 0;
    uint32_t range[2], lo = 0xffffffffu, hi = 0;
    special = lt_sort_pack32(level, dt, x, n, flip, k, range);
    for (int64_t i = 0; i < n; i++) {
      uint32_t key = (uint32_t)(lt_order_key(dt, x + i * 4) ^ flip);
      lo = key < lo ? key : lo;
      hi = key > hi ? key : hi;
    }
    CHECK(range[0] == lo && range[1] == hi);
    if (n) {
      uint32_t rlo, rhi;
      lt_sort_range(level, k, n, &rlo, &rhi);
      CHECK(rlo == lo && rhi == hi);
    }
    for (int64_t i = 0; i < n; i++) {
      uint64_t want = (lt_order_key(dt, x + i * 4) ^ flip) << 32 | (uint64_t)i;
      CHECKF(k[i] == want, "pack32 %s n=%lld i=%lld: %llx, expected %llx", lt_dtypes[dt].name,
             (long long)n, (long long)i, (unsigned long long)k[i], (unsigned long long)want);
    }
    qsort(k, (size_t)n, 8, cmp_u64);
    lt_sort_positions(level, k, n, 1, pos);
    lt_sort_values32(level, dt, k, n, flip, special, x, v);
    for (int64_t j = 0; j < n; j++) {
      CHECK(pos[j] == (int64_t)(uint32_t)k[j] + 1);
      CHECK(memcmp(v + j * 4, x + (uint32_t)k[j] * 4, 4) == 0);
    }
    if (!special) { /* both in one sweep: into pos, then in place over the items */
      uint32_t *v2 = malloc((size_t)n * 4 + 4);
      int64_t bad = 0;
      lt_sort_emit32(level, dt, k, n, flip, 1, v2, pos);
      for (int64_t j = 0; j < n; j++) bad += pos[j] != (int64_t)(uint32_t)k[j] + 1;
      bad += n && memcmp(v2, v, (size_t)n * 4) != 0;
      memcpy(pos, k, (size_t)n * 8); /* the positions alone, in place */
      lt_sort_positions(level, (const uint64_t *)pos, n, 1, pos);
      for (int64_t j = 0; j < n; j++) bad += pos[j] != (int64_t)(uint32_t)k[j] + 1;
      memcpy(pos, k, (size_t)n * 8);
      memset(v2, 0, (size_t)n * 4);
      lt_sort_emit32(level, dt, (const uint64_t *)pos, n, flip, 1, v2, pos);
      for (int64_t j = 0; j < n; j++) bad += pos[j] != (int64_t)(uint32_t)k[j] + 1;
      bad += n && memcmp(v2, v, (size_t)n * 4) != 0;
      CHECKF(bad == 0, "emit32 %s n=%lld: %lld wrong", lt_dtypes[dt].name, (long long)n,
             (long long)bad);
      free(v2);
    }
  } else {
    uint64_t flip = desc ? UINT64_MAX : 0;
    special = lt_sort_keys64(level, dt, x, n, flip, k, ix);
    for (int64_t i = 0; i < n; i++) {
      CHECK(k[i] == (lt_order_key(dt, x + i * 8) ^ flip));
      CHECK(ix[i] == (uint32_t)i);
    }
    /* sort by key then position (the order the radix sort leaves) */
    uint64_t *k2 = malloc((size_t)n * 8 + 8);
    for (int64_t i = 0; i < n; i++) pos[i] = i;
    ref_keys = k;
    qsort(pos, (size_t)n, 8, cmp_ref);
    for (int64_t i = 0; i < n; i++) k2[i] = k[pos[i]], ix[i] = (uint32_t)pos[i];
    memcpy(k, k2, (size_t)n * 8);
    free(k2);
    lt_sort_positions32(level, ix, n, 0, pos);
    lt_sort_values64(level, dt, k, ix, n, flip, special, x, v);
    for (int64_t j = 0; j < n; j++) {
      CHECK(pos[j] == (int64_t)ix[j]);
      CHECK(memcmp(v + j * 8, x + ix[j] * 8, 8) == 0);
    }
  }
  CHECKF(special == want_special, "%s: %lld specials, expected %lld", lt_dtypes[dt].name,
         (long long)special, (long long)want_special);
  free(x);
  free(k);
  free(ix);
  free(v);
  free(pos);
}

static void test_net(int level) {
  uint64_t a[LT_SORT_NET_MAX], b[LT_SORT_NET_MAX];
  for (int64_t n = 0; n <= LT_SORT_NET_MAX; n++) {
    for (int rep = 0; rep < 3; rep++) {
      for (int64_t i = 0; i < n; i++) /* few distinct keys, distinct positions */
        a[i] = (rep == 0   ? next_u64() % 7
                : rep == 1 ? (uint64_t)(n - i)
                           : (next_u64() & 0xffffffffu))
                   << 32 |
               (uint64_t)i;
      if (rep == 1 && n > 0) a[0] = (uint64_t)0xffffffffu << 32; /* a NaN key up front */
      memcpy(b, a, (size_t)n * 8);
      qsort(b, (size_t)n, 8, cmp_u64);
      uint64_t c[LT_SORT_NET_MAX + 1];
      c[n] = 42;                   /* untouched past n */
      lt_sort_net(level, a, c, n); /* into another array */
      lt_sort_net(level, a, a, n); /* in place */
      CHECKF(n == 0 || memcmp(a, b, (size_t)n * 8) == 0, "network n=%lld rep=%d", (long long)n,
             rep);
      CHECKF(c[n] == 42 && (n == 0 || memcmp(c, b, (size_t)n * 8) == 0), "network n=%lld rep=%d",
             (long long)n, rep);
    }
  }
}

/* lt_sort_quick on n items of pattern rep (distinct positions under keys: random, few
   distinct, sorted, reversed, all equal, organ pipe, a NaN key here and there) against qsort,
   with max_depth depth (< 0: lt_sort_quick_depth), in place. */
static void check_quick(int64_t n, int rep, int depth) {
  uint64_t *a = malloc((size_t)n * 8 + 16), *b = malloc((size_t)n * 8 + 8);
  for (int64_t i = 0; i < n; i++) {
    uint64_t key;
    switch (rep) {
      case 0: key = next_u64() & 0xffffffffu; break;
      case 1: key = next_u64() % 3; break;
      case 2: key = (uint64_t)i; break;
      case 3: key = (uint64_t)(n - i); break;
      case 4: key = 7; break;
      case 5: key = (uint64_t)(i < n / 2 ? i : n - i) & 0xffffffffu; break;
      default: key = next_u64() % 5 ? next_u64() & 0xffff : 0xffffffffu; break;
    }
    a[i] = key << 32 | (uint64_t)i;
  }
  a[n] = 42; /* untouched past n */
  memcpy(b, a, (size_t)n * 8);
  qsort(b, (size_t)n, 8, cmp_u64);
  lt_sort_quick(a, n, depth < 0 ? lt_sort_quick_depth(n) : depth);
  CHECKF(a[n] == 42 && (n == 0 || memcmp(a, b, (size_t)n * 8) == 0), "quick n=%lld rep=%d depth=%d",
         (long long)n, rep, depth);
  free(a);
  free(b);
}

/* The AVX-512 quicksort (lt_sort_quick.c), where level has it: every length up to 300 (both
   sides of the network's 8, 16, 32, 64 and 128, of its merge of two to 256, and of the
   partition's 64 held items), longer
   runs, the heap sort past max_depth (0: all of it, 1 and 3: after a few partitions), and
   lt_sort_quick_split. */
static void test_quick(int level) {
  if (!lt_sort_quick_takes(level)) return;
  for (int64_t n = 0; n <= 300; n++)
    for (int rep = 0; rep < 7; rep++) check_quick(n, rep, -1);
  static const int64_t longer[] = {1000, 4097, 65536, 100003, 1000000};
  for (int i = 0; i < 5; i++)
    for (int rep = 0; rep < 7; rep++)
      if (longer[i] < 1000000 || rep == 0 || rep == 1) check_quick(longer[i], rep, -1);
  for (int64_t n = 129; n <= 3000; n += 377)
    for (int depth = 0; depth <= 3; depth += 1 + (depth == 1))
      for (int rep = 0; rep < 7; rep++) check_quick(n, rep, depth);
  for (int64_t n = 256; n <= 100000; n = n * 3 + 1) {
    uint64_t *a = malloc((size_t)n * 8);
    for (int64_t i = 0; i < n; i++) a[i] = (next_u64() % 1000) << 32 | (uint64_t)i;
    int64_t m = lt_sort_quick_split(a, n), bad = 0;
    uint64_t lmax = 0, rmin = UINT64_MAX;
    for (int64_t i = 0; i < m; i++) lmax = a[i] > lmax ? a[i] : lmax;
    for (int64_t i = m; i < n; i++) rmin = a[i] < rmin ? a[i] : rmin;
    for (int64_t i = 0; i < n; i++) a[i] = (uint32_t)a[i]; /* the positions: a permutation */
    qsort(a, (size_t)n, 8, cmp_u64);
    for (int64_t i = 0; i < n; i++) bad += a[i] != (uint64_t)i;
    CHECKF(m > 0 && m < n && lmax < rmin && bad == 0, "quick split n=%lld: %lld of %lld",
           (long long)n, (long long)m, (long long)n);
    free(a);
  }
}

/* }====== */

/* {====== lt_sort and lt_topk, on the selected path ====== */

static void test_route(lt_dtype dt, int kind, int64_t n, int desc) {
  size_t es = lt_dtypes[dt].size;
  lt_tensor *t = make(dt, 1, &n), *v = NULL, *ix = NULL, *tv = NULL, *ti = NULL;
  char *x = lt_data(t);
  fill(x, kind, dt, n);
  uint64_t *keys = malloc((size_t)n * 8 + 8);
  int64_t *ref = malloc((size_t)n * 8 + 8);
  int bits = lt_key_bits(dt);
  uint64_t flip = !desc ? 0 : bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  for (int64_t i = 0; i < n; i++) {
    keys[i] = lt_order_key(dt, x + (size_t)i * es) ^ flip;
    ref[i] = i;
  }
  ref_keys = keys;
  qsort(ref, (size_t)n, 8, cmp_ref);
  tu_set_context("sort %s %s n=%lld %s", lt_dtypes[dt].name, kind_names[kind], (long long)n,
                 desc ? "desc" : "asc");
  CHECK_OK(lt_sort(t, 0, desc, 0, &v, &ix, &err));
  if (v && ix) {
    const int64_t *pi = (const int64_t *)lt_data(ix);
    const char *pv = lt_data(v);
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++)
      bad += pi[j] != ref[j] || memcmp(pv + j * (int64_t)es, x + ref[j] * (int64_t)es, es) != 0;
    CHECKF(bad == 0, "%lld places differ from the stable reference", (long long)bad);
  }
  /* topk and kthvalue: k = 1, a few, both sides of the selection's SELECT_FRAC (a quarter of
     the row) and all of it */
  const int64_t ks[] = {1, 2, 100, n / 4 - 1, n / 4, n / 4 + 1, n / 3, n};
  for (int q = 0; q < (int)(sizeof ks / sizeof *ks); q++) {
    const int64_t k = ks[q];
    if (k < 1 || k > n) continue;
    CHECK_OK(lt_topk(t, k, 0, desc, 1, &tv, &ti, &err));
    if (tv && ti) {
      const int64_t *pi = (const int64_t *)lt_data(ti);
      const char *pv = lt_data(tv);
      int64_t bad = 0;
      for (int64_t j = 0; j < k; j++)
        bad += pi[j] != ref[j] + 1 || memcmp(pv + j * (int64_t)es, x + ref[j] * (int64_t)es, es);
      CHECKF(bad == 0, "topk(%lld): %lld places differ", (long long)k, (long long)bad);
    }
    lt_tensor_free(tv);
    lt_tensor_free(ti);
    tv = ti = NULL;
    if (desc) continue; /* kthvalue counts from the smallest */
    CHECK_OK(lt_kthvalue(t, k, 0, 0, 0, &tv, &ti, &err));
    if (tv && ti)
      CHECKF(*(const int64_t *)lt_data(ti) == ref[k - 1] &&
                 !memcmp(lt_data(tv), x + ref[k - 1] * (int64_t)es, es),
             "kthvalue(%lld): position %lld, expected %lld", (long long)k,
             (long long)*(const int64_t *)lt_data(ti), (long long)ref[k - 1]);
    lt_tensor_free(tv);
    lt_tensor_free(ti);
    tv = ti = NULL;
  }
  if (n) { /* k past the row */
    CHECK(lt_topk(t, n + 1, 0, desc, 1, &tv, &ti, &err) == LT_ERANGE);
    CHECK(lt_kthvalue(t, n + 1, 0, 0, 0, &tv, &ti, &err) == LT_ERANGE);
  }
  tu_set_context("%s", "");
  lt_tensor_free(v);
  lt_tensor_free(ix);
  lt_tensor_free(tv);
  lt_tensor_free(ti);
  lt_tensor_free(t);
  free(keys);
  free(ref);
}

/* }====== */

int main(void) {
  static const lt_dtype kernel_dts[] = {LT_FLOAT32, LT_INT32, LT_UINT32,
                                        LT_FLOAT64, LT_INT64, LT_UINT64};
  static const lt_dtype route_dts[] = {LT_FLOAT32, LT_FLOAT64, LT_INT32, LT_INT64,   LT_UINT32,
                                       LT_UINT64,  LT_INT16,   LT_UINT8, LT_FLOAT16, LT_BOOL};
  static const int64_t lens[] = {0,   1,   2,    7,    8,    9,    15,   16,   17,
                                 31,  32,  33,   47,   48,   63,   64,   65,   255,
                                 256, 257, 1000, 2047, 2048, 4095, 4096, 4097, 300000};
  const int nl = (int)(sizeof lens / sizeof *lens);
  printf("test_sort: vector paths up to %s\n", lt_cpu_level_name(lt_cpu_level()));
  for (int level = LT_CPU_SCALAR; level <= lt_cpu_level(); level++) {
    tu_set_context("kernels %s", lt_cpu_level_name(level));
    test_net(level);
    test_quick(level);
    for (int d = 0; d < 6; d++) {
      CHECK(lt_sort_simd_takes(kernel_dts[d]));
      for (int kind = 0; kind < D_NKINDS; kind++)
        for (int li = 0; li < nl; li++)
          if (lens[li] <= 5000) test_pack(level, kernel_dts[d], kind, lens[li], kind & 1);
    }
  }
  CHECK(!lt_sort_simd_takes(LT_FLOAT16) && !lt_sort_simd_takes(LT_INT16));
  tu_set_context("%s", "");
  for (int d = 0; d < (int)(sizeof route_dts / sizeof *route_dts); d++)
    for (int kind = 0; kind < D_NKINDS; kind++)
      for (int li = 0; li < nl; li++)
        for (int desc = 0; desc < 2; desc++)
          if (lens[li] < 300000 || (kind == D_RANDOM || kind == D_SPECIAL))
            test_route(route_dts[d], kind, lens[li], desc);
  /* every length up to 300 (the quicksort's network and partition edges), and 1e6 over 1, 2
     and 5 threads (the quicksort's split into 1, 2 and 8 ranges over the pool) */
  for (int64_t n = 0; n <= 300; n++)
    for (int kind = 0; kind < D_NKINDS; kind++) test_route(LT_FLOAT32, kind, n, n & 1);
  const int threads = lt_pool_threads();
  for (int th = 1; th <= 5; th += 1 + 2 * (th == 2)) {
    lt_pool_set_threads(th);
    test_route(LT_FLOAT32, D_RANDOM, 1000000, th == 2);
    test_route(LT_FLOAT32, D_SPECIAL, 1000000, th != 2);
  }
  lt_pool_set_threads(threads);
  return tu_finish("test_sort");
}
