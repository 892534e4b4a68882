/*
 * lt_sort_quick.c -- the AVX-512 quicksort of packed sort items (see lt_sort_simd.h,
 * lt_sort_quick). Lua-free.
 *
 * Items are distinct uint64s (key << 32 | position, lt_sort_simd.h), so any order of them is
 * the stable order of the elements, and a quicksort needs no care for equal items. Runs of more
 * than QUICK_NET items are partitioned in place around the median of 8 sampled items (16 past
 * 4096 items; sorted in registers): items below the pivot to the left, the others to the right, 8
 * at a time (a compare into a mask, a permutation from a table of 256 that gathers the lanes below
 * the pivot first, and that vector stored whole on both sides: no vpcompressq into memory, slow on
 * AMD's Zen 4 and 5); the first and last 4 vectors are held in registers so that every store
 * lands on items already read (8 vectors of runs of 256 items and more). Runs of at most 128
 * items are sorted by a bitonic network held in up to 16 zmm registers (the padding lanes
 * UINT64_MAX, after every item); runs of 129 to QUICK_NET (256) items, cheaper so than by one
 * more partition, by the network on their first 128 items and on the others, then a bitonic
 * merge of the two (net256: the first against the others reversed, then each half in registers).
 * Past max_depth levels a run is heap sorted, so that no input takes more than O(n log n).
 * lt_sort_quick_split partitions once around the median of 128 samples, for lt_sort.c to sort the
 * two sides on two threads.
 *
 * Compiled for AVX-512 through function target attributes (as lt_sort_simd.c); where the
 * compiler is not GCC or clang for x86-64 there is no AVX-512 path and lt_sort_quick_takes says
 * so. Calls lt_cpu.h's levels only. Called by lt_sort.c and spec/c/test_sort.c.
 */
#include <stdint.h>

#include "lt_cpu.h"
#include "lt_sort_simd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_QUICK 1
#if defined(__clang__)
#define LT_QUICK_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#define UNROLL _Pragma("unroll")
#else
#define LT_QUICK_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,prefer-vector-width=512")))
#define UNROLL _Pragma("GCC unroll 16")
#endif
#define INLINE static inline __attribute__((always_inline))
#endif

/* Runs of at most this many items go to the register network. */
#define QUICK_NET 256

int lt_sort_quick_takes(int level) {
#ifdef HAVE_QUICK
  return level >= LT_CPU_AVX512;
#else
  (void)level;
  return 0;
#endif
}

int lt_sort_quick_depth(int64_t n) {
  int d = 0;
  while (n > 1) n >>= 1, d++;
  return 2 * d + 4;
}

/* The fallback past max_depth: a heap sort (plain C, any path). */
static void sift_down(uint64_t *a, int64_t i, int64_t n) {
  const uint64_t v = a[i];
  for (int64_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[c] <= v) break;
    a[i] = a[c];
  }
  a[i] = v;
}

static void heap_sort(uint64_t *a, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) sift_down(a, i, n);
  for (int64_t e = n - 1; e > 0; e--) {
    uint64_t t = a[0];
    a[0] = a[e];
    a[e] = t;
    sift_down(a, 0, e);
  }
}

#ifdef HAVE_QUICK

/* {====== the network ====== */

/* The standard bitonic network over 8 nv items (lt_sort_simd.c says how its steps map to
   lanes): lane masks by j = 1, 2, 4, lanes with lane & j == 0 (so, by k = 2, 4, the ascending
   ones). nv is a constant where this is inlined, so that every loop unrolls and v stays in
   registers. */
static const uint8_t lower8[8] = {0, 0x55, 0x33, 0, 0x0F, 0, 0, 0};

/* One step (k, j) of the network on the nv vectors v (all constants where inlined). */
LT_QUICK_AVX512 INLINE void net_step(__m512i *v, const int nv, const int k, const int j) {
  if (j >= 8) {
    const int jv = j / 8;
    UNROLL for (int q = 0; q + jv < nv; q++) {
      if (q & jv) continue;
      __m512i lo = _mm512_min_epu64(v[q], v[q + jv]), hi = _mm512_max_epu64(v[q], v[q + jv]);
      v[q] = ((8 * q) & k) ? hi : lo;
      v[q + jv] = ((8 * q) & k) ? lo : hi;
    }
    return;
  }
  const __m512i p = j == 1   ? _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1)
                    : j == 2 ? _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2)
                             : _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4);
  UNROLL for (int q = 0; q < nv; q++) {
    unsigned asc = k < 8 ? lower8[k] : ((8 * q) & k) ? 0x00u : 0xFFu;
    __mmask8 takemin = (__mmask8)(~(asc ^ lower8[j]) & 0xFFu);
    __m512i y = _mm512_permutexvar_epi64(p, v[q]); /* the max, the min where takemin */
    v[q] = _mm512_mask_min_epu64(_mm512_max_epu64(v[q], y), takemin, v[q], y);
  }
}

/* The steps of merge k: j = k / 2, ..., 1 (k at most 128), written out so that each inlines
   with constants. */
LT_QUICK_AVX512 INLINE void net_merge(__m512i *v, const int nv, const int k) {
  if (k > 64) net_step(v, nv, k, 64);
  if (k > 32) net_step(v, nv, k, 32);
  if (k > 16) net_step(v, nv, k, 16);
  if (k > 8) net_step(v, nv, k, 8);
  if (k > 4) net_step(v, nv, k, 4);
  if (k > 2) net_step(v, nv, k, 2);
  net_step(v, nv, k, 1);
}

/* Sorts a[0, n) (n <= 8 nv) in registers: the lanes past n padded with UINT64_MAX. */
LT_QUICK_AVX512 INLINE void net_regs(uint64_t *a, int64_t n, const int nv) {
  const __m512i pad = _mm512_set1_epi64(-1);
  __m512i v[16];
  UNROLL for (int q = 0; q < nv; q++) {
    int64_t left = n - 8 * q;
    __mmask8 m = left >= 8 ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
    v[q] = _mm512_mask_loadu_epi64(pad, m, a + 8 * q);
  }
  net_merge(v, nv, 2);
  net_merge(v, nv, 4);
  net_merge(v, nv, 8);
  if (nv >= 2) net_merge(v, nv, 16);
  if (nv >= 4) net_merge(v, nv, 32);
  if (nv >= 8) net_merge(v, nv, 64);
  if (nv >= 16) net_merge(v, nv, 128);
  UNROLL for (int q = 0; q < nv; q++) {
    int64_t left = n - 8 * q;
    __mmask8 m = left >= 8 ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
    _mm512_mask_storeu_epi64(a + 8 * q, m, v[q]);
  }
}

LT_QUICK_AVX512 static void net8(uint64_t *a, int64_t n) { net_regs(a, n, 1); }
LT_QUICK_AVX512 static void net16(uint64_t *a, int64_t n) { net_regs(a, n, 2); }
LT_QUICK_AVX512 static void net32(uint64_t *a, int64_t n) { net_regs(a, n, 4); }
LT_QUICK_AVX512 static void net64(uint64_t *a, int64_t n) { net_regs(a, n, 8); }
LT_QUICK_AVX512 __attribute__((noinline)) static void net128(uint64_t *a, int64_t n) {
  net_regs(a, n, 16);
}

LT_QUICK_AVX512 static void net_sort(uint64_t *a, int64_t n);

/* The steps of merge 256's half-cleaners within one ascending half of 16 vectors: j = 64, ..., 1
   (k = 256: every lane ascending). */
LT_QUICK_AVX512 INLINE void half_clean(__m512i *v) {
  net_step(v, 16, 256, 64);
  net_step(v, 16, 256, 32);
  net_step(v, 16, 256, 16);
  net_step(v, 16, 256, 8);
  net_step(v, 16, 256, 4);
  net_step(v, 16, 256, 2);
  net_step(v, 16, 256, 1);
}

/* Sorts 128 < n <= 256 items: the first 128 and the others by the network, then merged: item i
   of the first against item 127 - i of the others (the lanes of vectors q and 15 - q reversed;
   the padding past n UINT64_MAX), the smaller to the first; then each half by its half-cleaner.
   The others' half is held in b on the way. */
LT_QUICK_AVX512 static void net256(uint64_t *a, int64_t n) {
  const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), pad = _mm512_set1_epi64(-1);
  uint64_t b[128];
  __m512i v[16];
  net128(a, 128);
  net_sort(a + 128, n - 128);
  UNROLL for (int q = 0; q < 16; q++) {
    const int64_t left = n - 128 - 8 * (15 - q);
    const __mmask8 m = left >= 8 ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
    const __m512i x = _mm512_loadu_si512(a + 8 * q);
    const __m512i y =
        _mm512_permutexvar_epi64(rev, _mm512_mask_loadu_epi64(pad, m, a + 128 + 8 * (15 - q)));
    v[q] = _mm512_min_epu64(x, y);
    _mm512_storeu_si512(b + 8 * (15 - q), _mm512_permutexvar_epi64(rev, _mm512_max_epu64(x, y)));
  }
  half_clean(v);
  UNROLL for (int q = 0; q < 16; q++) _mm512_storeu_si512(a + 8 * q, v[q]);
  UNROLL for (int q = 0; q < 16; q++) v[q] = _mm512_loadu_si512(b + 8 * q);
  half_clean(v);
  UNROLL for (int q = 0; q < 16; q++) {
    const int64_t left = n - 128 - 8 * q;
    const __mmask8 m = left >= 8 ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
    _mm512_mask_storeu_epi64(a + 128 + 8 * q, m, v[q]);
  }
}

/* Sorts n <= QUICK_NET items in place. */
LT_QUICK_AVX512 static void net_sort(uint64_t *a, int64_t n) {
  if (n <= 1) return;
  if (n > 128) {
    net256(a, n);
    return;
  }
  if (n <= 8)
    net8(a, n);
  else if (n <= 16)
    net16(a, n);
  else if (n <= 32)
    net32(a, n);
  else if (n <= 64)
    net64(a, n);
  else
    net128(a, n);
}

/* }====== */

/* {====== the partition ====== */

/* The median of 8 items sampled evenly over a[0, n) (n >= 16), or of 16 for runs of more than
   4096 items (their split closer to the middle), sorted in registers: the 5th smallest of 8, the
   9th of 16 (so at least 4 items on either side). */
LT_QUICK_AVX512 static uint64_t pivot_of(const uint64_t *a, int64_t n) {
  uint64_t smp[16];
  if (n > 4096) {
    const int64_t s = n / 16;
    for (int i = 0; i < 16; i++) smp[i] = a[s / 2 + i * s];
    net_regs(smp, 16, 2);
    return smp[8];
  }
  const int64_t s = n / 8;
  for (int i = 0; i < 8; i++) smp[i] = a[s / 2 + i * s];
  net_regs(smp, 8, 1);
  return smp[4];
}

/* By mask of the lanes at or above the pivot, the permutation that gathers a vector's lanes
   below it first, then the others, each in lane order: byte j, the lane that goes to lane j. */
static const uint64_t split_perm[256] = {
    0x0706050403020100u, 0x0007060504030201u, 0x0107060504030200u, 0x0100070605040302u,
    0x0207060504030100u, 0x0200070605040301u, 0x0201070605040300u, 0x0201000706050403u,
    0x0307060504020100u, 0x0300070605040201u, 0x0301070605040200u, 0x0301000706050402u,
    0x0302070605040100u, 0x0302000706050401u, 0x0302010706050400u, 0x0302010007060504u,
    0x0407060503020100u, 0x0400070605030201u, 0x0401070605030200u, 0x0401000706050302u,
    0x0402070605030100u, 0x0402000706050301u, 0x0402010706050300u, 0x0402010007060503u,
    0x0403070605020100u, 0x0403000706050201u, 0x0403010706050200u, 0x0403010007060502u,
    0x0403020706050100u, 0x0403020007060501u, 0x0403020107060500u, 0x0403020100070605u,
    0x0507060403020100u, 0x0500070604030201u, 0x0501070604030200u, 0x0501000706040302u,
    0x0502070604030100u, 0x0502000706040301u, 0x0502010706040300u, 0x0502010007060403u,
    0x0503070604020100u, 0x0503000706040201u, 0x0503010706040200u, 0x0503010007060402u,
    0x0503020706040100u, 0x0503020007060401u, 0x0503020107060400u, 0x0503020100070604u,
    0x0504070603020100u, 0x0504000706030201u, 0x0504010706030200u, 0x0504010007060302u,
    0x0504020706030100u, 0x0504020007060301u, 0x0504020107060300u, 0x0504020100070603u,
    0x0504030706020100u, 0x0504030007060201u, 0x0504030107060200u, 0x0504030100070602u,
    0x0504030207060100u, 0x0504030200070601u, 0x0504030201070600u, 0x0504030201000706u,
    0x0607050403020100u, 0x0600070504030201u, 0x0601070504030200u, 0x0601000705040302u,
    0x0602070504030100u, 0x0602000705040301u, 0x0602010705040300u, 0x0602010007050403u,
    0x0603070504020100u, 0x0603000705040201u, 0x0603010705040200u, 0x0603010007050402u,
    0x0603020705040100u, 0x0603020007050401u, 0x0603020107050400u, 0x0603020100070504u,
    0x0604070503020100u, 0x0604000705030201u, 0x0604010705030200u, 0x0604010007050302u,
    0x0604020705030100u, 0x0604020007050301u, 0x0604020107050300u, 0x0604020100070503u,
    0x0604030705020100u, 0x0604030007050201u, 0x0604030107050200u, 0x0604030100070502u,
    0x0604030207050100u, 0x0604030200070501u, 0x0604030201070500u, 0x0604030201000705u,
    0x0605070403020100u, 0x0605000704030201u, 0x0605010704030200u, 0x0605010007040302u,
    0x0605020704030100u, 0x0605020007040301u, 0x0605020107040300u, 0x0605020100070403u,
    0x0605030704020100u, 0x0605030007040201u, 0x0605030107040200u, 0x0605030100070402u,
    0x0605030207040100u, 0x0605030200070401u, 0x0605030201070400u, 0x0605030201000704u,
    0x0605040703020100u, 0x0605040007030201u, 0x0605040107030200u, 0x0605040100070302u,
    0x0605040207030100u, 0x0605040200070301u, 0x0605040201070300u, 0x0605040201000703u,
    0x0605040307020100u, 0x0605040300070201u, 0x0605040301070200u, 0x0605040301000702u,
    0x0605040302070100u, 0x0605040302000701u, 0x0605040302010700u, 0x0605040302010007u,
    0x0706050403020100u, 0x0700060504030201u, 0x0701060504030200u, 0x0701000605040302u,
    0x0702060504030100u, 0x0702000605040301u, 0x0702010605040300u, 0x0702010006050403u,
    0x0703060504020100u, 0x0703000605040201u, 0x0703010605040200u, 0x0703010006050402u,
    0x0703020605040100u, 0x0703020006050401u, 0x0703020106050400u, 0x0703020100060504u,
    0x0704060503020100u, 0x0704000605030201u, 0x0704010605030200u, 0x0704010006050302u,
    0x0704020605030100u, 0x0704020006050301u, 0x0704020106050300u, 0x0704020100060503u,
    0x0704030605020100u, 0x0704030006050201u, 0x0704030106050200u, 0x0704030100060502u,
    0x0704030206050100u, 0x0704030200060501u, 0x0704030201060500u, 0x0704030201000605u,
    0x0705060403020100u, 0x0705000604030201u, 0x0705010604030200u, 0x0705010006040302u,
    0x0705020604030100u, 0x0705020006040301u, 0x0705020106040300u, 0x0705020100060403u,
    0x0705030604020100u, 0x0705030006040201u, 0x0705030106040200u, 0x0705030100060402u,
    0x0705030206040100u, 0x0705030200060401u, 0x0705030201060400u, 0x0705030201000604u,
    0x0705040603020100u, 0x0705040006030201u, 0x0705040106030200u, 0x0705040100060302u,
    0x0705040206030100u, 0x0705040200060301u, 0x0705040201060300u, 0x0705040201000603u,
    0x0705040306020100u, 0x0705040300060201u, 0x0705040301060200u, 0x0705040301000602u,
    0x0705040302060100u, 0x0705040302000601u, 0x0705040302010600u, 0x0705040302010006u,
    0x0706050403020100u, 0x0706000504030201u, 0x0706010504030200u, 0x0706010005040302u,
    0x0706020504030100u, 0x0706020005040301u, 0x0706020105040300u, 0x0706020100050403u,
    0x0706030504020100u, 0x0706030005040201u, 0x0706030105040200u, 0x0706030100050402u,
    0x0706030205040100u, 0x0706030200050401u, 0x0706030201050400u, 0x0706030201000504u,
    0x0706040503020100u, 0x0706040005030201u, 0x0706040105030200u, 0x0706040100050302u,
    0x0706040205030100u, 0x0706040200050301u, 0x0706040201050300u, 0x0706040201000503u,
    0x0706040305020100u, 0x0706040300050201u, 0x0706040301050200u, 0x0706040301000502u,
    0x0706040302050100u, 0x0706040302000501u, 0x0706040302010500u, 0x0706040302010005u,
    0x0706050403020100u, 0x0706050004030201u, 0x0706050104030200u, 0x0706050100040302u,
    0x0706050204030100u, 0x0706050200040301u, 0x0706050201040300u, 0x0706050201000403u,
    0x0706050304020100u, 0x0706050300040201u, 0x0706050301040200u, 0x0706050301000402u,
    0x0706050302040100u, 0x0706050302000401u, 0x0706050302010400u, 0x0706050302010004u,
    0x0706050403020100u, 0x0706050400030201u, 0x0706050401030200u, 0x0706050401000302u,
    0x0706050402030100u, 0x0706050402000301u, 0x0706050402010300u, 0x0706050402010003u,
    0x0706050403020100u, 0x0706050403000201u, 0x0706050403010200u, 0x0706050403010002u,
    0x0706050403020100u, 0x0706050403020001u, 0x0706050403020100u, 0x0706050403020100u,
};

/* Stores vector x's items below the pivot (not in ge) at a + l, its others ending at a + r, as
   one permuted vector stored twice: the lanes past each side are garbage on slots free to take
   it (where the two sides meet, l + 8 == r, the two stores are one). Returns how many went
   right. */
LT_QUICK_AVX512 INLINE int split_store(uint64_t *a, int64_t l, int64_t r, __m512i x, __mmask8 ge) {
  const unsigned m = (unsigned)ge;
  const __m512i idx = _mm512_cvtepu8_epi64(_mm_cvtsi64_si128((long long)split_perm[m]));
  const __m512i y = _mm512_permutexvar_epi64(idx, x);
  _mm512_storeu_si512(a + l, y);
  _mm512_storeu_si512(a + r - 8, y);
  return __builtin_popcount(m);
}

/* Partitions a[0, n) (n >= 16 hold): the items below pivot first, then the others; returns
   how many are below. The first and the last hold vectors are read into registers first; then
   each step reads hold vectors from the side with fewer free slots (so that both keep 8 hold),
   and stores land only on slots already read; the held vectors go last. hold (4 or 8) is a
   constant where this is inlined: more of it, fewer branches that the processor mispredicts. */
LT_QUICK_AVX512 INLINE int64_t partition_h(uint64_t *a, int64_t n, uint64_t pivot, const int hold) {
  int64_t left = 0, right = n;
  for (int64_t i = n % 8; i > 0; i--) { /* scalar steps until a whole number of vectors is left */
    if (a[left] >= pivot) {
      uint64_t t = a[left];
      a[left] = a[--right];
      a[right] = t;
    } else {
      left++;
    }
  }
  const __m512i pv = _mm512_set1_epi64((long long)pivot);
  __m512i held[16];
  for (int h = 0; h < hold; h++) {
    held[h] = _mm512_loadu_si512(a + left + 8 * h);
    held[hold + h] = _mm512_loadu_si512(a + right - 8 * (h + 1));
  }
  int64_t ls = left, rs = right; /* stores: [ls, ...) and [..., rs) */
  left += 8 * hold;
  right -= 8 * hold;
  while ((right - left) % (8 * hold)) { /* single vectors until whole steps are left */
    __m512i x;
    if (rs - right < left - ls) {
      right -= 8;
      x = _mm512_loadu_si512(a + right);
    } else {
      x = _mm512_loadu_si512(a + left);
      left += 8;
    }
    const int cnt = split_store(a, ls, rs, x, _mm512_cmpge_epu64_mask(x, pv));
    rs -= cnt;
    ls += 8 - cnt;
  }
  while (left < right) {
    __m512i x[8];
    if (rs - right < left - ls) {
      right -= 8 * hold;
      for (int h = 0; h < hold; h++) x[h] = _mm512_loadu_si512(a + right + 8 * h);
    } else {
      for (int h = 0; h < hold; h++) x[h] = _mm512_loadu_si512(a + left + 8 * h);
      left += 8 * hold;
    }
    for (int h = 0; h < hold; h++) {
      const int cnt = split_store(a, ls, rs, x[h], _mm512_cmpge_epu64_mask(x[h], pv));
      rs -= cnt;
      ls += 8 - cnt;
    }
  }
  for (int h = 0; h < 2 * hold; h++) { /* the free slots: 8 (2 hold - h), in one run */
    const int cnt = split_store(a, ls, rs, held[h], _mm512_cmpge_epu64_mask(held[h], pv));
    rs -= cnt;
    ls += 8 - cnt;
  }
  return ls;
}

LT_QUICK_AVX512 static int64_t partition(uint64_t *a, int64_t n, uint64_t pivot) {
  return n >= 256 ? partition_h(a, n, pivot, 8) : partition_h(a, n, pivot, 4);
}

/* }====== */

LT_QUICK_AVX512 static void quick(uint64_t *a, int64_t n, int depth) {
  while (n > QUICK_NET) {
    if (depth-- <= 0) {
      heap_sort(a, n);
      return;
    }
    const int64_t m = partition(a, n, pivot_of(a, n));
    /* the shorter side by recursion, the longer by the loop: a stack of O(log n) */
    if (m < n - m) {
      quick(a, m, depth);
      a += m;
      n -= m;
    } else {
      quick(a + m, n - m, depth);
      n = m;
    }
  }
  net_sort(a, n);
}

/* The median of 128 items sampled evenly over a[0, n) (n >= 256), sorted in registers. */
LT_QUICK_AVX512 static uint64_t wide_pivot(const uint64_t *a, int64_t n) {
  const int64_t s = n / 128;
  uint64_t smp[128];
  for (int i = 0; i < 128; i++) smp[i] = a[s / 2 + i * s];
  net128(smp, 128);
  return smp[64];
}

#endif

int64_t lt_sort_quick_split(uint64_t *a, int64_t n) {
#ifdef HAVE_QUICK
  if (n >= 256) return partition(a, n, wide_pivot(a, n));
#endif
  (void)a;
  return n;
}

void lt_sort_quick(uint64_t *a, int64_t n, int max_depth) {
#ifdef HAVE_QUICK
  quick(a, n, max_depth);
#else
  (void)max_depth;
  heap_sort(a, n);
#endif
}
