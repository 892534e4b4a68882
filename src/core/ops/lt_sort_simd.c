/*
 * lt_sort_simd.c -- the row sort's vector kernels (see lt_sort_simd.h). Lua-free.
 *
 * The pack and read-off loops are written once, branch-free, in plain C (the *_c bodies, always
 * inlined) and compiled three times: as they are (the plain path, and the only one where the
 * compiler is not GCC or clang for x86-64), and inside functions with target("avx2") and
 * target("avx512...") attributes, where the compiler's vectorizer (-O3, CMakeLists.txt) turns
 * them into 256- and 512-bit loops. The bitonic network is written with intrinsics: one
 * compare-exchange step of the network is a min and a max of two vectors (partners j >= the
 * lane count apart) or of a vector and its own permutation (partners within a vector), the
 * direction of each lane a constant mask.
 *
 * Calls lt_cpu.h's levels only (the caller passes the level). Called by lt_sort.c and
 * spec/c/test_sort.c.
 */
#include "lt_sort_simd.h"

#include <string.h>

#include "lt_cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_VECTOR_PATHS 1
#if defined(__clang__)
#define LT_SORT_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#else
#define LT_SORT_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,prefer-vector-width=512")))
#endif
#define LT_SORT_AVX2 __attribute__((target("avx2,bmi2,fma")))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define LT_BODY static inline __attribute__((always_inline))
#else
#define LT_BODY static inline
#endif

int lt_sort_simd_takes(lt_dtype dt) {
  return dt == LT_FLOAT32 || dt == LT_INT32 || dt == LT_UINT32 || dt == LT_FLOAT64 ||
         dt == LT_INT64 || dt == LT_UINT64;
}

/* {====== the plain bodies ====== */

#define SIGN32 0x80000000u
#define SIGN64 ((uint64_t)1 << 63)

LT_BODY int64_t pack32_c(lt_dtype dt, const void *x, int64_t n, uint32_t flip, uint64_t *out,
                         uint32_t range[2]) {
  const uint32_t *xs = x;
  int64_t special = 0;
  uint32_t mn = 0xffffffffu, mx = 0;
  if (dt == LT_FLOAT32) {
    for (int64_t i = 0; i < n; i++) {
      uint32_t u = xs[i];
      uint32_t nan = (u & ~SIGN32) > 0x7f800000u, mz = u == SIGN32;
      special += nan | mz;
      u = mz ? 0 : u;
      uint32_t key = u ^ ((uint32_t)((int32_t)u >> 31) | SIGN32);
      key = (nan ? 0xffffffffu : key) ^ flip;
      mn = key < mn ? key : mn;
      mx = key > mx ? key : mx;
      out[i] = (uint64_t)key << 32 | (uint64_t)i;
    }
  } else {
    const uint32_t bias = (dt == LT_INT32 ? SIGN32 : 0) ^ flip;
    for (int64_t i = 0; i < n; i++) {
      uint32_t key = xs[i] ^ bias;
      mn = key < mn ? key : mn;
      mx = key > mx ? key : mx;
      out[i] = (uint64_t)key << 32 | (uint64_t)i;
    }
  }
  range[0] = mn;
  range[1] = mx;
  return special;
}

LT_BODY int64_t keys64_c(lt_dtype dt, const void *x, int64_t n, uint64_t flip, uint64_t *k,
                         uint32_t *ix) {
  const uint64_t *xs = x;
  int64_t special = 0;
  if (dt == LT_FLOAT64) {
    for (int64_t i = 0; i < n; i++) {
      uint64_t u = xs[i];
      uint64_t nan = (u & ~SIGN64) > 0x7ff0000000000000u, mz = u == SIGN64;
      special += (int64_t)(nan | mz);
      u = mz ? 0 : u;
      uint64_t key = u ^ ((uint64_t)((int64_t)u >> 63) | SIGN64);
      k[i] = (nan ? UINT64_MAX : key) ^ flip;
      ix[i] = (uint32_t)i;
    }
  } else {
    const uint64_t bias = dt == LT_INT64 ? SIGN64 : 0;
    for (int64_t i = 0; i < n; i++) {
      k[i] = xs[i] ^ bias ^ flip;
      ix[i] = (uint32_t)i;
    }
  }
  return special;
}

/* In place (idx == a) through one pointer: two would make the vectorizer check their overlap,
   and fall back to a scalar loop. */
LT_BODY void positions_c(const uint64_t *a, int64_t n, int64_t base, int64_t *idx) {
  if ((const void *)idx == (const void *)a) {
    for (int64_t j = 0; j < n; j++) idx[j] = (int64_t)(uint32_t)idx[j] + base;
  } else {
    const uint64_t *restrict src = a;
    int64_t *restrict dst = idx;
    for (int64_t j = 0; j < n; j++) dst[j] = (int64_t)(uint32_t)src[j] + base;
  }
}

LT_BODY void positions32_c(const uint32_t *p, int64_t n, int64_t base, int64_t *idx) {
  for (int64_t j = 0; j < n; j++) idx[j] = (int64_t)p[j] + base;
}

/* The keys of 0.0 and of NaN: where -0.0 and NaN went, whose bits the key does not keep. */
LT_BODY void values32_c(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip, int64_t special,
                        const void *x, void *v) {
  uint32_t *vs = v;
  const uint32_t *xs = x;
  if (dt == LT_FLOAT32) {
    for (int64_t j = 0; j < n; j++) {
      uint32_t key = (uint32_t)(a[j] >> 32) ^ flip;
      vs[j] = key ^ ((uint32_t)((int32_t)~key >> 31) | SIGN32);
    }
    for (int64_t j = 0; special && j < n; j++) {
      uint32_t key = (uint32_t)(a[j] >> 32) ^ flip;
      if (key == SIGN32 || key == 0xffffffffu) vs[j] = xs[(uint32_t)a[j]];
    }
  } else {
    const uint32_t bias = (dt == LT_INT32 ? SIGN32 : 0) ^ flip;
    for (int64_t j = 0; j < n; j++) vs[j] = (uint32_t)(a[j] >> 32) ^ bias;
  }
}

/* values32_c without specials and positions_c in one sweep; idx may be a itself, read and
   written through one pointer then (two would make the vectorizer check their overlap, and
   fall back to a scalar loop). */
#define EMIT32_LOOP(SRC, DST)                                                   \
  for (int64_t j = 0; j < n; j++) {                                             \
    const uint64_t item = (SRC)[j];                                             \
    const uint32_t key = (uint32_t)(item >> 32) ^ flip;                         \
    vs[j] = dt == LT_FLOAT32 ? key ^ ((uint32_t)((int32_t)~key >> 31) | SIGN32) \
                             : (uint32_t)(item >> 32) ^ bias;                   \
    (DST)[j] = (uint64_t)((int64_t)(uint32_t)item + base);                      \
  }
LT_BODY void emit32_c(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip, int64_t base,
                      void *v, int64_t *idx) {
  uint32_t *restrict vs = v;
  const uint32_t bias = (dt == LT_INT32 ? SIGN32 : 0) ^ flip;
  if ((const void *)idx == (const void *)a) {
    uint64_t *io = (uint64_t *)idx;
    EMIT32_LOOP(io, io)
  } else {
    const uint64_t *restrict src = a;
    uint64_t *restrict dst = (uint64_t *)idx;
    EMIT32_LOOP(src, dst)
  }
}

LT_BODY void values64_c(lt_dtype dt, const uint64_t *k, const uint32_t *p, int64_t n, uint64_t flip,
                        int64_t special, const void *x, void *v) {
  uint64_t *vs = v;
  const uint64_t *xs = x;
  if (dt == LT_FLOAT64) {
    for (int64_t j = 0; j < n; j++) {
      uint64_t key = k[j] ^ flip;
      vs[j] = key ^ ((uint64_t)((int64_t)~key >> 63) | SIGN64);
    }
    for (int64_t j = 0; special && j < n; j++) {
      uint64_t key = k[j] ^ flip;
      if (key == SIGN64 || key == UINT64_MAX) vs[j] = xs[p[j]];
    }
  } else {
    const uint64_t bias = (dt == LT_INT64 ? SIGN64 : 0) ^ flip;
    for (int64_t j = 0; j < n; j++) vs[j] = k[j] ^ bias;
  }
}

LT_BODY void range_c(const uint64_t *a, int64_t n, uint32_t *lo, uint32_t *hi) {
  uint32_t mn = 0xffffffffu, mx = 0;
  for (int64_t i = 0; i < n; i++) {
    uint32_t key = (uint32_t)(a[i] >> 32);
    mn = key < mn ? key : mn;
    mx = key > mx ? key : mx;
  }
  *lo = mn;
  *hi = mx;
}

/* The plain network: an insertion sort (short rows; items distinct, so stable is moot). */
static void net_c(uint64_t *a, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    uint64_t v = a[i];
    int64_t j = i;
    for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
    a[j] = v;
  }
}

/* }====== */

#ifdef HAVE_VECTOR_PATHS

/* {====== the bodies compiled for AVX2 and AVX-512 ====== */

LT_SORT_AVX2 static int64_t pack32_avx2(lt_dtype dt, const void *x, int64_t n, uint32_t flip,
                                        uint64_t *out, uint32_t range[2]) {
  return pack32_c(dt, x, n, flip, out, range);
}
LT_SORT_AVX512 static int64_t pack32_avx512(lt_dtype dt, const void *x, int64_t n, uint32_t flip,
                                            uint64_t *out, uint32_t range[2]) {
  return pack32_c(dt, x, n, flip, out, range);
}
LT_SORT_AVX2 static int64_t keys64_avx2(lt_dtype dt, const void *x, int64_t n, uint64_t flip,
                                        uint64_t *k, uint32_t *ix) {
  return keys64_c(dt, x, n, flip, k, ix);
}
LT_SORT_AVX512 static int64_t keys64_avx512(lt_dtype dt, const void *x, int64_t n, uint64_t flip,
                                            uint64_t *k, uint32_t *ix) {
  return keys64_c(dt, x, n, flip, k, ix);
}
LT_SORT_AVX2 static void positions_avx2(const uint64_t *a, int64_t n, int64_t base, int64_t *idx) {
  positions_c(a, n, base, idx);
}
LT_SORT_AVX512 static void positions_avx512(const uint64_t *a, int64_t n, int64_t base,
                                            int64_t *idx) {
  positions_c(a, n, base, idx);
}
LT_SORT_AVX2 static void positions32_avx2(const uint32_t *p, int64_t n, int64_t base,
                                          int64_t *idx) {
  positions32_c(p, n, base, idx);
}
LT_SORT_AVX512 static void positions32_avx512(const uint32_t *p, int64_t n, int64_t base,
                                              int64_t *idx) {
  positions32_c(p, n, base, idx);
}
LT_SORT_AVX2 static void values32_avx2(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                                       int64_t special, const void *x, void *v) {
  values32_c(dt, a, n, flip, special, x, v);
}
LT_SORT_AVX512 static void values32_avx512(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                                           int64_t special, const void *x, void *v) {
  values32_c(dt, a, n, flip, special, x, v);
}
LT_SORT_AVX2 static void emit32_avx2(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                                     int64_t base, void *v, int64_t *idx) {
  emit32_c(dt, a, n, flip, base, v, idx);
}
LT_SORT_AVX512 static void emit32_avx512(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                                         int64_t base, void *v, int64_t *idx) {
  emit32_c(dt, a, n, flip, base, v, idx);
}
LT_SORT_AVX2 static void values64_avx2(lt_dtype dt, const uint64_t *k, const uint32_t *p, int64_t n,
                                       uint64_t flip, int64_t special, const void *x, void *v) {
  values64_c(dt, k, p, n, flip, special, x, v);
}
LT_SORT_AVX512 static void values64_avx512(lt_dtype dt, const uint64_t *k, const uint32_t *p,
                                           int64_t n, uint64_t flip, int64_t special, const void *x,
                                           void *v) {
  values64_c(dt, k, p, n, flip, special, x, v);
}

LT_SORT_AVX2 static void range_avx2(const uint64_t *a, int64_t n, uint32_t *lo, uint32_t *hi) {
  range_c(a, n, lo, hi);
}
LT_SORT_AVX512 static void range_avx512(const uint64_t *a, int64_t n, uint32_t *lo, uint32_t *hi) {
  range_c(a, n, lo, hi);
}

/* }====== */

/* {====== the bitonic network ====== */

/* The standard bitonic network over N items (a power of 2): for each k = 2, 4, ..., N and
   j = k/2, ..., 1, item i and its partner i ^ j (i the lower) take the min and the max, in that
   order when i & k is 0, else swapped. With L lanes a vector holds items [b, b + L): partners
   j >= L apart are whole vectors; partners j < L apart are a vector and its permutation by
   lane ^ j, lane i taking the min when "i is the lower" (lane & j == 0) equals "ascending"
   ((b + lane) & k == 0). */

/* Lane masks of AVX-512's 8 lanes, by j = 1, 2, 4: the lanes with lane & j == 0 (so also, by
   k = 2, 4, the ascending lanes). */
static const uint8_t lower8[8] = {0, 0x55, 0x33, 0, 0x0F, 0, 0, 0};

LT_SORT_AVX512 static void net_avx512(uint64_t *a, int64_t N) {
  const __m512i perm[3] = {_mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1),
                           _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2),
                           _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4)};
  for (int64_t k = 2; k <= N; k <<= 1)
    for (int64_t j = k >> 1; j > 0; j >>= 1) {
      if (j >= 8) {
        for (int64_t i = 0; i < N; i += 8) {
          if (i & j) continue;
          __m512i x = _mm512_loadu_si512(a + i), y = _mm512_loadu_si512(a + i + j);
          __m512i lo = _mm512_min_epu64(x, y), hi = _mm512_max_epu64(x, y);
          _mm512_storeu_si512(a + i, (i & k) ? hi : lo);
          _mm512_storeu_si512(a + i + j, (i & k) ? lo : hi);
        }
        continue;
      }
      const __m512i p = perm[j == 1 ? 0 : j == 2 ? 1 : 2];
      for (int64_t i = 0; i < N; i += 8) {
        unsigned asc = k < 8 ? lower8[k] : (i & k) ? 0x00u : 0xFFu;
        __mmask8 takemin = (__mmask8)(~(asc ^ lower8[j]) & 0xFFu);
        __m512i x = _mm512_loadu_si512(a + i), y = _mm512_permutexvar_epi64(p, x);
        __m512i lo = _mm512_min_epu64(x, y), hi = _mm512_max_epu64(x, y);
        _mm512_storeu_si512(a + i, _mm512_mask_blend_epi64(takemin, hi, lo));
      }
    }
}

/* The same network on nv <= 4 vectors held in registers (nv a constant where it is inlined,
   so that the loops unroll): items [0, n) loaded from src, the lanes past n filled with
   UINT64_MAX (after every item), the n first stored to dst. */
LT_SORT_AVX512 static inline __attribute__((always_inline)) void net_regs_avx512(
    const uint64_t *src, uint64_t *dst, int64_t n, const int nv) {
  const __m512i perm[3] = {_mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1),
                           _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2),
                           _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4)};
  const __m512i pad = _mm512_set1_epi64(-1);
  __m512i v[4];
  for (int q = 0; q < nv; q++) {
    int64_t left = n - 8 * q;
    __mmask8 m = left >= 8 ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
    v[q] = _mm512_mask_loadu_epi64(pad, m, src + 8 * q);
  }
  for (int k = 2; k <= 8 * nv; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      if (j >= 8) {
        const int jv = j / 8;
        for (int q = 0; q + jv < nv; q++) {
          if (q & jv) continue;
          __m512i lo = _mm512_min_epu64(v[q], v[q + jv]), hi = _mm512_max_epu64(v[q], v[q + jv]);
          v[q] = ((8 * q) & k) ? hi : lo;
          v[q + jv] = ((8 * q) & k) ? lo : hi;
        }
        continue;
      }
      const __m512i p = perm[j == 1 ? 0 : j == 2 ? 1 : 2];
      for (int q = 0; q < nv; q++) {
        unsigned asc = k < 8 ? lower8[k] : ((8 * q) & k) ? 0x00u : 0xFFu;
        __mmask8 takemin = (__mmask8)(~(asc ^ lower8[j]) & 0xFFu);
        __m512i y = _mm512_permutexvar_epi64(p, v[q]);
        __m512i lo = _mm512_min_epu64(v[q], y), hi = _mm512_max_epu64(v[q], y);
        v[q] = _mm512_mask_blend_epi64(takemin, hi, lo);
      }
    }
  for (int q = 0; q < nv; q++) {
    int64_t left = n - 8 * q;
    __mmask8 m = left >= 8 ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
    _mm512_mask_storeu_epi64(dst + 8 * q, m, v[q]);
  }
}

LT_SORT_AVX512 static void net8_avx512(const uint64_t *src, uint64_t *dst, int64_t n) {
  net_regs_avx512(src, dst, n, 1);
}
LT_SORT_AVX512 static void net16_avx512(const uint64_t *src, uint64_t *dst, int64_t n) {
  net_regs_avx512(src, dst, n, 2);
}
LT_SORT_AVX512 static void net32_avx512(const uint64_t *src, uint64_t *dst, int64_t n) {
  net_regs_avx512(src, dst, n, 4);
}

/* AVX2: 4 lanes; unsigned order through a signed compare of the items with their top bit
   flipped; lane masks as vectors. */
LT_SORT_AVX2 static inline void minmax4(__m256i x, __m256i y, __m256i *lo, __m256i *hi) {
  const __m256i s = _mm256_set1_epi64x((long long)SIGN64);
  __m256i gt = _mm256_cmpgt_epi64(_mm256_xor_si256(x, s), _mm256_xor_si256(y, s));
  *lo = _mm256_blendv_epi8(x, y, gt);
  *hi = _mm256_blendv_epi8(y, x, gt);
}

LT_SORT_AVX2 static inline __m256i lanes4(unsigned m) {
  return _mm256_set_epi64x(-(long long)(m >> 3 & 1), -(long long)(m >> 2 & 1),
                           -(long long)(m >> 1 & 1), -(long long)(m & 1));
}

LT_SORT_AVX2 static void net_avx2(uint64_t *a, int64_t N) {
  for (int64_t k = 2; k <= N; k <<= 1)
    for (int64_t j = k >> 1; j > 0; j >>= 1) {
      if (j >= 4) {
        for (int64_t i = 0; i < N; i += 4) {
          if (i & j) continue;
          __m256i x = _mm256_loadu_si256((const __m256i *)(a + i)), lo, hi;
          __m256i y = _mm256_loadu_si256((const __m256i *)(a + i + j));
          minmax4(x, y, &lo, &hi);
          _mm256_storeu_si256((__m256i *)(a + i), (i & k) ? hi : lo);
          _mm256_storeu_si256((__m256i *)(a + i + j), (i & k) ? lo : hi);
        }
        continue;
      }
      const unsigned lower = j == 1 ? 0x5u : 0x3u;
      for (int64_t i = 0; i < N; i += 4) {
        unsigned asc = k == 2 ? 0x3u : (i & k) ? 0x0u : 0xFu;
        __m256i takemin = lanes4(~(asc ^ lower) & 0xFu), lo, hi;
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + i));
        __m256i y = j == 1 ? _mm256_permute4x64_epi64(x, 0xB1) : _mm256_permute4x64_epi64(x, 0x4E);
        minmax4(x, y, &lo, &hi);
        _mm256_storeu_si256((__m256i *)(a + i), _mm256_blendv_epi8(hi, lo, takemin));
      }
    }
}

/* }====== */

#endif

/* {====== dispatch ====== */

/* One path's loops. */
typedef struct {
  int64_t (*pack32)(lt_dtype, const void *, int64_t, uint32_t, uint64_t *, uint32_t *);
  int64_t (*keys64)(lt_dtype, const void *, int64_t, uint64_t, uint64_t *, uint32_t *);
  void (*range)(const uint64_t *, int64_t, uint32_t *, uint32_t *);
  void (*positions)(const uint64_t *, int64_t, int64_t, int64_t *);
  void (*positions32)(const uint32_t *, int64_t, int64_t, int64_t *);
  void (*values32)(lt_dtype, const uint64_t *, int64_t, uint32_t, int64_t, const void *, void *);
  void (*values64)(lt_dtype, const uint64_t *, const uint32_t *, int64_t, uint64_t, int64_t,
                   const void *, void *);
  void (*emit32)(lt_dtype, const uint64_t *, int64_t, uint32_t, int64_t, void *, int64_t *);
} sort_loops;

/* The plain path's loops: the bodies as they are. */
static int64_t pack32_plain(lt_dtype dt, const void *x, int64_t n, uint32_t flip, uint64_t *out,
                            uint32_t *range) {
  return pack32_c(dt, x, n, flip, out, range);
}
static int64_t keys64_plain(lt_dtype dt, const void *x, int64_t n, uint64_t flip, uint64_t *k,
                            uint32_t *ix) {
  return keys64_c(dt, x, n, flip, k, ix);
}
static void range_plain(const uint64_t *a, int64_t n, uint32_t *lo, uint32_t *hi) {
  range_c(a, n, lo, hi);
}
static void positions_plain(const uint64_t *a, int64_t n, int64_t base, int64_t *idx) {
  positions_c(a, n, base, idx);
}
static void positions32_plain(const uint32_t *p, int64_t n, int64_t base, int64_t *idx) {
  positions32_c(p, n, base, idx);
}
static void values32_plain(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                           int64_t special, const void *x, void *v) {
  values32_c(dt, a, n, flip, special, x, v);
}
static void values64_plain(lt_dtype dt, const uint64_t *k, const uint32_t *p, int64_t n,
                           uint64_t flip, int64_t special, const void *x, void *v) {
  values64_c(dt, k, p, n, flip, special, x, v);
}

static void emit32_plain(lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip, int64_t base,
                         void *v, int64_t *idx) {
  emit32_c(dt, a, n, flip, base, v, idx);
}

static const sort_loops loops_plain = {pack32_plain,    keys64_plain,      range_plain,
                                       positions_plain, positions32_plain, values32_plain,
                                       values64_plain,  emit32_plain};
#ifdef HAVE_VECTOR_PATHS
static const sort_loops loops_avx2 = {pack32_avx2,    keys64_avx2,      range_avx2,
                                      positions_avx2, positions32_avx2, values32_avx2,
                                      values64_avx2,  emit32_avx2};
static const sort_loops loops_avx512 = {pack32_avx512,    keys64_avx512,      range_avx512,
                                        positions_avx512, positions32_avx512, values32_avx512,
                                        values64_avx512,  emit32_avx512};
#endif

static const sort_loops *loops(int level) {
#ifdef HAVE_VECTOR_PATHS
  if (level >= LT_CPU_AVX512) return &loops_avx512;
  if (level >= LT_CPU_AVX2) return &loops_avx2;
#endif
  (void)level;
  return &loops_plain;
}

int64_t lt_sort_pack32(int level, lt_dtype dt, const void *x, int64_t n, uint32_t flip,
                       uint64_t *out, uint32_t range[2]) {
  return loops(level)->pack32(dt, x, n, flip, out, range);
}

int64_t lt_sort_keys64(int level, lt_dtype dt, const void *x, int64_t n, uint64_t flip, uint64_t *k,
                       uint32_t *ix) {
  return loops(level)->keys64(dt, x, n, flip, k, ix);
}

void lt_sort_range(int level, const uint64_t *a, int64_t n, uint32_t *lo, uint32_t *hi) {
  loops(level)->range(a, n, lo, hi);
}

void lt_sort_positions(int level, const uint64_t *a, int64_t n, int64_t base, int64_t *idx) {
  loops(level)->positions(a, n, base, idx);
}

void lt_sort_positions32(int level, const uint32_t *p, int64_t n, int64_t base, int64_t *idx) {
  loops(level)->positions32(p, n, base, idx);
}

void lt_sort_values32(int level, lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                      int64_t special, const void *x, void *v) {
  loops(level)->values32(dt, a, n, flip, special, x, v);
}

void lt_sort_values64(int level, lt_dtype dt, const uint64_t *k, const uint32_t *p, int64_t n,
                      uint64_t flip, int64_t special, const void *x, void *v) {
  loops(level)->values64(dt, k, p, n, flip, special, x, v);
}

void lt_sort_emit32(int level, lt_dtype dt, const uint64_t *a, int64_t n, uint32_t flip,
                    int64_t base, void *v, int64_t *idx) {
  loops(level)->emit32(dt, a, n, flip, base, v, idx);
}

void lt_sort_net(int level, const uint64_t *src, uint64_t *dst, int64_t n) {
#ifdef HAVE_VECTOR_PATHS
  if (level >= LT_CPU_AVX512 && n <= 32) {
    if (n <= 8)
      net8_avx512(src, dst, n);
    else if (n <= 16)
      net16_avx512(src, dst, n);
    else
      net32_avx512(src, dst, n);
    return;
  }
  if (level >= LT_CPU_AVX2 && n > 1 && n <= LT_SORT_NET_MAX) {
    uint64_t buf[LT_SORT_NET_MAX];
    int64_t N = level >= LT_CPU_AVX512 ? 8 : 4;
    while (N < n) N <<= 1;
    memcpy(buf, src, (size_t)n * sizeof *src);
    for (int64_t i = n; i < N; i++) buf[i] = UINT64_MAX; /* after every item */
    if (level >= LT_CPU_AVX512)
      net_avx512(buf, N);
    else
      net_avx2(buf, N);
    memcpy(dst, buf, (size_t)n * sizeof *dst);
    return;
  }
#endif
  (void)level;
  if (dst != src) memmove(dst, src, (size_t)n * sizeof *src);
  net_c(dst, n);
}

/* }====== */
