/*
 * lt_random.c -- Philox4x32-10, the generators' state and the random fills of lt_random.h,
 * which documents the stream exactly.
 *
 * A fill reserves its blocks, then the pool (lt_pool_run) runs pieces of whole blocks: each
 * piece computes Philox for CHUNK blocks at a time, as four arrays of counter words that the
 * compiler vectorizes (32 x 32 -> 64-bit multiplies), and transforms the words into elements of
 * a contiguous buffer of the generation dtype (float32, float64, int64 or uint8). That buffer is
 * the tensor itself when it is contiguous and of that dtype, else a temporary that lt_copy
 * writes into the tensor (converting, following its strides). Called by lua_random.c.
 */
#include "lt_random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_pool.h"
#include "lt_simd.h"
#include "lt_vmath.h"

/* The transforms' kernels are compiled once per vector path (lt_simd.h) and run the one of the
   level in use (lt_cpu.h); Philox itself has intrinsics for AVX2 and AVX-512 beside the
   portable loop. Every path computes the same operations (no contraction in this file): the
   same numbers. */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u
#define PHILOX_ROUNDS 10
/* Blocks computed at once by a piece. */
#define CHUNK LT_PHILOX_CHUNK

/* {====== generator state ====== */

static lt_generator default_gen = {ATOMIC_FLAG_INIT, LT_DEFAULT_SEED, 0};

lt_generator *lt_default_generator(void) { return &default_gen; }

static void gen_lock(lt_generator *g) {
  while (atomic_flag_test_and_set_explicit(&g->lock, memory_order_acquire)) {
  }
}
static void gen_unlock(lt_generator *g) {
  atomic_flag_clear_explicit(&g->lock, memory_order_release);
}

void lt_generator_init(lt_generator *g, uint64_t seed) {
  atomic_flag_clear(&g->lock);
  g->seed = seed;
  g->offset = 0;
}

void lt_generator_seed(lt_generator *g, uint64_t seed) { lt_generator_set(g, seed, 0); }

void lt_generator_get(lt_generator *g, uint64_t *seed, uint64_t *offset) {
  gen_lock(g);
  *seed = g->seed;
  *offset = g->offset;
  gen_unlock(g);
}

void lt_generator_set(lt_generator *g, uint64_t seed, uint64_t offset) {
  gen_lock(g);
  g->seed = seed;
  g->offset = offset;
  gen_unlock(g);
}

uint64_t lt_generator_reserve(lt_generator *g, uint64_t nblocks, uint64_t *seed) {
  gen_lock(g);
  uint64_t o = g->offset;
  *seed = g->seed;
  g->offset = o + nblocks;
  gen_unlock(g);
  return o;
}

/* }====== */

/* {====== Philox4x32-10 ====== */

void lt_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3], ka = key[0], kb = key[1];
  for (int r = 0; r < PHILOX_ROUNDS; r++) {
    uint64_t p0 = (uint64_t)PHILOX_M0 * x0, p1 = (uint64_t)PHILOX_M1 * x2;
    uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ ka, y2 = (uint32_t)(p0 >> 32) ^ x3 ^ kb;
    x1 = (uint32_t)p1;
    x3 = (uint32_t)p0;
    x0 = y0;
    x2 = y2;
    ka += PHILOX_W0;
    kb += PHILOX_W1;
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}

/* Blocks ctr .. ctr + CHUNK - 1 under (ka, kb), in stream order: w[4 i + j] is word j of block
   ctr + i. The same rounds as lt_philox4x32, on arrays: the portable version, which the
   compiler vectorizes (shuffling 32-bit lanes apart for the 64-bit products and back). */
static void philox_chunk_c(uint32_t ka, uint32_t kb, uint64_t ctr, uint32_t *w) {
  uint32_t x0[CHUNK], x1[CHUNK], x2[CHUNK], x3[CHUNK];
  for (int i = 0; i < CHUNK; i++) { /* counter (c, 0, 0): the first round's x2 product is 0 */
    uint64_t c = ctr + (uint64_t)i, p0 = (uint64_t)PHILOX_M0 * (uint32_t)c;
    x0[i] = (uint32_t)(c >> 32) ^ ka;
    x1[i] = 0;
    x2[i] = (uint32_t)(p0 >> 32) ^ kb;
    x3[i] = (uint32_t)p0;
  }
  for (int r = 1; r < PHILOX_ROUNDS; r++) {
    ka += PHILOX_W0;
    kb += PHILOX_W1;
    for (int i = 0; i < CHUNK; i++) {
      uint64_t p0 = (uint64_t)PHILOX_M0 * x0[i], p1 = (uint64_t)PHILOX_M1 * x2[i];
      uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1[i] ^ ka, y2 = (uint32_t)(p0 >> 32) ^ x3[i] ^ kb;
      x1[i] = (uint32_t)p1;
      x3[i] = (uint32_t)p0;
      x0[i] = y0;
      x2[i] = y2;
    }
  }
  for (int i = 0; i < CHUNK; i++) {
    w[4 * i] = x0[i];
    w[4 * i + 1] = x1[i];
    w[4 * i + 2] = x2[i];
    w[4 * i + 3] = x3[i];
  }
}

#if LT_SIMD_X86
#include <immintrin.h>

/* hi and lo halves of the 32 x 32 -> 64-bit products x m, lane by lane: pmuludq multiplies the
   even lanes; the odd ones are shifted down for a second one, and the halves blended back. */
LT_TARGET_AVX2 static inline void mulhilo8(__m256i x, __m256i m, __m256i *hi, __m256i *lo) {
  __m256i pe = _mm256_mul_epu32(x, m), po = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), m);
  *lo = _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
  *hi = _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xAA);
}

/* philox_chunk_c with AVX2 intrinsics: 8 blocks per vector, then a 4 x 8 transpose into stream
   order. */
LT_TARGET_AVX2 static void philox_chunk_avx2(uint32_t ka, uint32_t kb, uint64_t ctr, uint32_t *w) {
  const __m256i m0 = _mm256_set1_epi32((int)PHILOX_M0), m1 = _mm256_set1_epi32((int)PHILOX_M1);
  for (int g = 0; g < CHUNK; g += 8) {
    uint32_t c0[8], c1[8];
    for (int i = 0; i < 8; i++) {
      uint64_t c = ctr + (uint64_t)(g + i);
      c0[i] = (uint32_t)c;
      c1[i] = (uint32_t)(c >> 32);
    }
    __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)c0);
    __m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)c1);
    __m256i x2 = _mm256_setzero_si256(), x3 = _mm256_setzero_si256();
    uint32_t a = ka, b = kb;
    for (int r = 0; r < PHILOX_ROUNDS; r++) {
      __m256i h0, l0, h1, l1;
      mulhilo8(x0, m0, &h0, &l0);
      mulhilo8(x2, m1, &h1, &l1);
      x0 = _mm256_xor_si256(_mm256_xor_si256(h1, x1), _mm256_set1_epi32((int)a));
      x2 = _mm256_xor_si256(_mm256_xor_si256(h0, x3), _mm256_set1_epi32((int)b));
      x1 = l1;
      x3 = l0;
      a += PHILOX_W0;
      b += PHILOX_W1;
    }
    __m256i t0 = _mm256_unpacklo_epi32(x0, x1), t1 = _mm256_unpackhi_epi32(x0, x1);
    __m256i t2 = _mm256_unpacklo_epi32(x2, x3), t3 = _mm256_unpackhi_epi32(x2, x3);
    __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    __m256i *o = (__m256i *)(void *)(w + 4 * g);
    _mm256_storeu_si256(o, _mm256_permute2x128_si256(u0, u1, 0x20));     /* blocks 0, 1 */
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(u2, u3, 0x20)); /* 2, 3 */
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(u0, u1, 0x31)); /* 4, 5 */
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(u2, u3, 0x31)); /* 6, 7 */
  }
}
/* hi and lo halves of the 32 x 32 -> 64-bit products x m in 16 lanes, as mulhilo8. */
LT_TARGET_AVX512 static inline void mulhilo16(__m512i x, __m512i m, __m512i *hi, __m512i *lo) {
  __m512i pe = _mm512_mul_epu32(x, m), po = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), m);
  *lo = _mm512_mask_blend_epi32(0xAAAA, pe, _mm512_slli_epi64(po, 32));
  *hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe, 32), po);
}

/* philox_chunk_c with AVX-512 intrinsics (the AVX2 kernel's rounds, twice as wide: GCC's
   vectorization of the portable loop for AVX-512 ran at half this speed): 16 blocks per vector;
   the transpose into stream order
   leaves block 4 L + j in 128-bit lane L of u_j (as in the AVX2 kernel), and a 4 x 4 shuffle
   of those lanes puts blocks 4 L .. 4 L + 3 into output vector L. */
LT_TARGET_AVX512 static void philox_chunk_avx512(uint32_t ka, uint32_t kb, uint64_t ctr,
                                                 uint32_t *w) {
  const __m512i m0 = _mm512_set1_epi32((int)PHILOX_M0), m1 = _mm512_set1_epi32((int)PHILOX_M1);
  for (int g = 0; g < CHUNK; g += 16) {
    uint32_t c0[16], c1[16];
    for (int i = 0; i < 16; i++) {
      uint64_t c = ctr + (uint64_t)(g + i);
      c0[i] = (uint32_t)c;
      c1[i] = (uint32_t)(c >> 32);
    }
    __m512i x0 = _mm512_loadu_si512(c0), x1 = _mm512_loadu_si512(c1);
    __m512i x2 = _mm512_setzero_si512(), x3 = _mm512_setzero_si512();
    uint32_t a = ka, b = kb;
    for (int r = 0; r < PHILOX_ROUNDS; r++) {
      __m512i h0, l0, h1, l1;
      mulhilo16(x0, m0, &h0, &l0);
      mulhilo16(x2, m1, &h1, &l1);
      x0 = _mm512_xor_si512(_mm512_xor_si512(h1, x1), _mm512_set1_epi32((int)a));
      x2 = _mm512_xor_si512(_mm512_xor_si512(h0, x3), _mm512_set1_epi32((int)b));
      x1 = l1;
      x3 = l0;
      a += PHILOX_W0;
      b += PHILOX_W1;
    }
    __m512i t0 = _mm512_unpacklo_epi32(x0, x1), t1 = _mm512_unpackhi_epi32(x0, x1);
    __m512i t2 = _mm512_unpacklo_epi32(x2, x3), t3 = _mm512_unpackhi_epi32(x2, x3);
    __m512i u0 = _mm512_unpacklo_epi64(t0, t2), u1 = _mm512_unpackhi_epi64(t0, t2);
    __m512i u2 = _mm512_unpacklo_epi64(t1, t3), u3 = _mm512_unpackhi_epi64(t1, t3);
    __m512i p01 = _mm512_shuffle_i32x4(u0, u1, 0x44), p23 = _mm512_shuffle_i32x4(u2, u3, 0x44);
    __m512i q01 = _mm512_shuffle_i32x4(u0, u1, 0xEE), q23 = _mm512_shuffle_i32x4(u2, u3, 0xEE);
    uint32_t *o = w + 4 * g;
    _mm512_storeu_si512(o, _mm512_shuffle_i32x4(p01, p23, 0x88));      /* blocks 0 .. 3 */
    _mm512_storeu_si512(o + 16, _mm512_shuffle_i32x4(p01, p23, 0xDD)); /* 4 .. 7 */
    _mm512_storeu_si512(o + 32, _mm512_shuffle_i32x4(q01, q23, 0x88)); /* 8 .. 11 */
    _mm512_storeu_si512(o + 48, _mm512_shuffle_i32x4(q01, q23, 0xDD)); /* 12 .. 15 */
  }
}
#endif

void lt_philox_chunk(uint32_t ka, uint32_t kb, uint64_t ctr, uint32_t *w, int portable) {
#if LT_SIMD_X86
  int level = portable ? LT_CPU_SCALAR : lt_cpu_level();
  if (level >= LT_CPU_AVX512) {
    philox_chunk_avx512(ka, kb, ctr, w);
    return;
  }
  if (level >= LT_CPU_AVX2) {
    philox_chunk_avx2(ka, kb, ctr, w);
    return;
  }
#else
  (void)portable;
#endif
  philox_chunk_c(ka, kb, ctr, w);
}
static void philox_chunk(uint32_t ka, uint32_t kb, uint64_t ctr, uint32_t *w) {
  lt_philox_chunk(ka, kb, ctr, w, 0);
}

/* Reads single 64-bit draws (word pairs) of a stream at random positions, one block cached. */
typedef struct {
  uint32_t key[2];
  uint64_t origin, cached;
  int have;
  uint32_t w[4];
} stream;

static void stream_init(stream *s, uint64_t seed, uint64_t origin) {
  s->key[0] = (uint32_t)seed;
  s->key[1] = (uint32_t)(seed >> 32);
  s->origin = origin;
  s->have = 0;
}

/* x64 of words 2d, 2d + 1. */
static uint64_t stream_draw(stream *s, uint64_t d) {
  uint64_t b = s->origin + d / 2;
  if (!s->have || s->cached != b) {
    uint32_t ctr[4] = {(uint32_t)b, (uint32_t)(b >> 32), 0, 0};
    lt_philox4x32(ctr, s->key, s->w);
    s->cached = b;
    s->have = 1;
  }
  int j = (int)(d % 2) * 2;
  return (uint64_t)s->w[j] << 32 | s->w[j + 1];
}

/* floor(a b / 2^64). */
static uint64_t mulhi64(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;
  return (uint64_t)(((u128)a * b) >> 64);
#else
  uint64_t alo = (uint32_t)a, ahi = a >> 32, blo = (uint32_t)b, bhi = b >> 32;
  uint64_t ll = alo * blo, lh = alo * bhi, hl = ahi * blo, hh = ahi * bhi;
  uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* The int64 of the two's complement bits u (no implementation-defined conversion). */
static int64_t as_signed(uint64_t u) {
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

/* }====== */

/* {====== transforms: the words of a chunk into m elements ====== */

#define TWO_PI_F 6.28318530717958647692f
#define TWO_PI 6.28318530717958647692

static LT_SIMD_INLINE void uniform_f32_b(const uint32_t *w, float *o, int m, float a, float s) {
  for (int i = 0; i < m; i++) o[i] = a + s * ((float)(w[i] >> 8) * 0x1p-24f);
}
LT_SIMD_CLONES_VOID(uniform_f32_k, uniform_f32_b,
                    (const uint32_t *w, float *o, int m, float a, float s), (w, o, m, a, s))
static void uniform_f32(const uint32_t *w, float *o, int m, float a, float s) {
  LT_SIMD_PICK(uniform_f32_k)(w, o, m, a, s);
}

static void uniform_f64(const uint32_t *w, double *o, int m, double a, double s) {
  for (int i = 0; i < m; i++) {
    uint64_t x = (uint64_t)w[2 * i] << 32 | w[2 * i + 1];
    o[i] = a + s * ((double)(x >> 11) * 0x1p-53);
  }
}

/* The 4 CHUNK normals of a chunk's words (pairs of words), mean + std z. */
static LT_SIMD_INLINE void normal_f32_b(const uint32_t *w, float *z, float mean, float std) {
  float u1[2 * CHUNK], th[2 * CHUNK], sn[2 * CHUNK], cs[2 * CHUNK];
  for (int j = 0; j < 2 * CHUNK; j++) {
    u1[j] = 1.0f - (float)(w[2 * j] >> 8) * 0x1p-24f;
    th[j] = (float)(w[2 * j + 1] >> 8) * 0x1p-24f * TWO_PI_F;
  }
  lt_vmath_log_nc_f32(u1, u1, 2 * CHUNK); /* the same bits on every vector path */
  lt_vmath_sin_nc_f32(sn, th, 2 * CHUNK);
  lt_vmath_cos_nc_f32(cs, th, 2 * CHUNK);
  for (int j = 0; j < 2 * CHUNK; j++) {
    float r = std * sqrtf(-2.0f * u1[j]);
    z[2 * j] = mean + r * cs[j];
    z[2 * j + 1] = mean + r * sn[j];
  }
}
LT_SIMD_CLONES_VOID(normal_f32_k, normal_f32_b,
                    (const uint32_t *w, float *z, float mean, float std), (w, z, mean, std))
static void normal_f32(const uint32_t *w, float *z, float mean, float std) {
  LT_SIMD_PICK(normal_f32_k)(w, z, mean, std);
}

/* Normals k0 .. k0 + m - 1 of float64 (k0 even: a chunk starts on a block). */
static void normal_f64(const uint32_t *w, double *o, int m, double mean, double std) {
  for (int i = 0; i < m; i += 2) {
    const uint32_t *b = w + 2 * i;
    uint64_t x1 = (uint64_t)b[0] << 32 | b[1], x2 = (uint64_t)b[2] << 32 | b[3];
    double u1 = 1.0 - (double)(x1 >> 11) * 0x1p-53, u2 = (double)(x2 >> 11) * 0x1p-53;
    double r = sqrt(-2.0 * log(u1));
    o[i] = mean + std * (r * cos(TWO_PI * u2));
    if (i + 1 < m) o[i + 1] = mean + std * (r * sin(TWO_PI * u2));
  }
}

static void ints(const uint32_t *w, int64_t *o, int m, int64_t low, uint64_t range) {
  for (int i = 0; i < m; i++) {
    uint64_t x = (uint64_t)w[2 * i] << 32 | w[2 * i + 1];
    o[i] = as_signed((uint64_t)low + mulhi64(x, range));
  }
}

static void bernoulli(const uint32_t *w, uint8_t *o, int m, double p, const double *pp) {
  for (int i = 0; i < m; i++) o[i] = (double)w[i] * 0x1p-32 < (pp ? pp[i] : p);
}

/* }====== */

/* {====== fills ====== */

typedef struct {
  const lt_rand_dist *d;
  char *out; /* n elements of gdt, contiguous */
  lt_dtype gdt;
  int w; /* words per element */
  int64_t n;
  uint32_t ka, kb;
  uint64_t origin;
} fill_job;

static int fill_piece(void *ctx, int64_t lo, int64_t hi) {
  const fill_job *j = ctx;
  const lt_rand_dist *d = j->d;
  int per = 4 / j->w; /* elements per block */
  uint32_t words[4 * CHUNK];
  float z[4 * CHUNK];
  for (int64_t b = lo; b < hi; b += CHUNK) {
    philox_chunk(j->ka, j->kb, j->origin + (uint64_t)b, words);
    int64_t k0 = b * per, kend = (b + CHUNK < hi ? b + CHUNK : hi) * per;
    if (kend > j->n) kend = j->n;
    int m = (int)(kend - k0);
    size_t es = lt_dtypes[j->gdt].size;
    char *o = j->out + k0 * (int64_t)es;
    switch (d->kind) {
      case LT_RAND_UNIFORM:
        if (j->gdt == LT_FLOAT32)
          uniform_f32(words, (float *)(void *)o, m, (float)d->a, (float)(d->b - d->a));
        else
          uniform_f64(words, (double *)(void *)o, m, d->a, d->b - d->a);
        break;
      case LT_RAND_NORMAL:
        if (d->mean) { /* per element: mean + std z, in double */
          if (j->gdt == LT_FLOAT32) {
            normal_f32(words, z, 0.0f, 1.0f);
            for (int i = 0; i < m; i++)
              ((float *)(void *)o)[i] = (float)(d->mean[k0 + i] + d->std[k0 + i] * z[i]);
          } else {
            double *oo = (double *)(void *)o;
            normal_f64(words, oo, m, 0.0, 1.0);
            for (int i = 0; i < m; i++) oo[i] = d->mean[k0 + i] + d->std[k0 + i] * oo[i];
          }
        } else if (j->gdt == LT_FLOAT32) {
          normal_f32(words, z, (float)d->a, (float)d->b);
          memcpy(o, z, (size_t)m * sizeof(float));
        } else {
          normal_f64(words, (double *)(void *)o, m, d->a, d->b);
        }
        break;
      case LT_RAND_INT: ints(words, (int64_t *)(void *)o, m, d->low, d->range); break;
      case LT_RAND_BERNOULLI:
        bernoulli(words, (uint8_t *)o, m, d->a, d->p ? d->p + k0 : NULL);
        break;
    }
  }
  return 0;
}

int lt_random_int_bounds(lt_dtype dt, int64_t *lo, int64_t *hi, lt_error *err) {
  const lt_dtype_info *in = &lt_dtypes[dt];
  int digits = dt == LT_FLOAT16 ? 11 : dt == LT_BFLOAT16 ? 8 : dt == LT_FLOAT32 ? 24 : 53;
  if (in->is_complex) return lt_fail(err, LT_EARG, "expected a real dtype, got %s", in->name);
  if (dt == LT_BOOL) {
    *lo = 0;
    *hi = 1;
  } else if (in->is_float) {
    *hi = (int64_t)1 << digits;
    *lo = -*hi;
  } else {
    int bits = (int)in->size * 8;
    if (in->is_signed) {
      *hi = (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
      *lo = -*hi - 1;
    } else {
      *lo = 0;
      *hi = bits == 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << bits) - 1);
    }
  }
  return LT_OK;
}

int lt_random_fill(lt_tensor *t, const lt_rand_dist *d, lt_generator *g, lt_error *err) {
  const lt_dtype_info *in = &lt_dtypes[t->dtype];
  int rc = lt_check_writable(t, err);
  if (rc) return rc;
  int real = d->kind == LT_RAND_INT || d->kind == LT_RAND_BERNOULLI; /* else floating */
  if (t->dtype == LT_OPAQUE || in->is_complex || (!real && !in->is_float))
    return lt_fail(err, LT_EARG, "expected a %s dtype, got %s", real ? "real" : "floating",
                   t->dtype == LT_OPAQUE ? "an opaque one" : in->name);
  if ((rc = lt_check_no_internal_overlap(t, err))) return rc;
  if (d->kind == LT_RAND_INT && d->range == 0)
    return lt_fail(err, LT_EARG, "the range of integers is empty");
  if (d->kind == LT_RAND_UNIFORM) { /* as torch: finite bounds whose distance t's dtype holds */
    double max = lt_float_max(t->dtype);
    for (int i = 0; i < 2; i++) {
      double x = i ? d->b : d->a;
      if (!(fabs(x) <= max))
        return lt_fail(err, LT_ERANGE, "%s = %g is out of bounds for %s", i ? "b" : "a",
                       isnan(x) ? fabs(x) : x, in->name);
    }
    if (!(d->b - d->a <= max))
      return lt_fail(err, LT_ERANGE,
                     "b - a must be at most the largest %s (%g), got a = %g, b = %g", in->name, max,
                     d->a, d->b);
  }
  int64_t n = lt_numel(t);
  if (d->kind == LT_RAND_BERNOULLI)
    for (int64_t k = 0; k < (d->p ? n : 1); k++) {
      double p = d->p ? d->p[k] : d->a;
      if (!(p >= 0 && p <= 1))
        return lt_fail(err, LT_EARG, "probability must be in [0, 1], got %g",
                       isnan(p) ? fabs(p) : p); /* "nan", never "-nan" */
    }
  if (d->kind == LT_RAND_NORMAL && d->mean)
    for (int64_t k = 0; k < n; k++)
      if (!(d->std[k] >= 0))
        return lt_fail(err, LT_EARG, "std must be non-negative, got %g",
                       isnan(d->std[k]) ? fabs(d->std[k]) : d->std[k]);
  if (n == 0) return LT_OK;
  fill_job j = {d, NULL, LT_FLOAT32, 1, n, 0, 0, 0};
  switch (d->kind) {
    case LT_RAND_UNIFORM:
    case LT_RAND_NORMAL:
      j.gdt = t->dtype == LT_FLOAT64 ? LT_FLOAT64 : LT_FLOAT32;
      j.w = t->dtype == LT_FLOAT64 ? 2 : 1;
      break;
    case LT_RAND_INT:
      j.gdt = LT_INT64;
      j.w = 2;
      break;
    case LT_RAND_BERNOULLI: j.gdt = t->dtype == LT_BOOL ? LT_BOOL : LT_UINT8; break;
  }
  lt_tensor *tmp = NULL;
  if (t->dtype == j.gdt && lt_is_contiguous(t)) {
    j.out = lt_data(t);
  } else {
    if ((rc = lt_tensor_new(j.gdt, t->ndim, t->shape, 0, &tmp, err))) return rc;
    j.out = lt_data(tmp);
  }
  uint64_t seed, nblocks = ((uint64_t)n * (uint64_t)j.w + 3) / 4;
  j.origin = lt_generator_reserve(g, nblocks, &seed);
  j.ka = (uint32_t)seed;
  j.kb = (uint32_t)(seed >> 32);
  /* a block's worth of output, weighted by the work of its transform */
  double block_bytes =
      (double)(4 / j.w) * (double)lt_dtypes[j.gdt].size * (d->kind == LT_RAND_NORMAL ? 4.0 : 1.0);
  int64_t nb = (int64_t)nblocks;
  int64_t grain = lt_pool_grain(nb, block_bytes);
  if (grain < CHUNK && grain < nb) grain = CHUNK; /* pieces of whole chunks */
  (void)lt_pool_run(nb, grain, fill_piece, &j);
  if (tmp) {
    rc = lt_copy(t, tmp, err);
    lt_tensor_free(tmp);
  }
  return rc;
}

/* }====== */

/* {====== permutations and multinomial samples ====== */

int lt_randperm(int64_t n, lt_generator *g, lt_tensor **out, lt_error *err) {
  if (n < 0) return lt_fail(err, LT_EARG, "n must be non-negative, got %lld", (long long)n);
  int rc = lt_tensor_new(LT_INT64, 1, &n, 0, out, err);
  if (rc) return rc;
  int64_t *v = (int64_t *)(void *)lt_data(*out);
  for (int64_t i = 0; i < n; i++) v[i] = i + 1;
  uint64_t seed, origin = lt_generator_reserve(g, ((uint64_t)n * 2 + 3) / 4, &seed);
  stream s;
  stream_init(&s, seed, origin);
  for (int64_t i = n - 1; i >= 1; i--) {
    uint64_t j = mulhi64(stream_draw(&s, (uint64_t)(n - 1 - i)), (uint64_t)i + 1);
    int64_t x = v[i];
    v[i] = v[j];
    v[j] = x;
  }
  return LT_OK;
}

typedef struct {
  double key;
  int64_t cat;
} keyed;

static int by_key(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key) return x->key > y->key ? -1 : 1;
  return x->cat < y->cat ? -1 : x->cat > y->cat;
}

int lt_multinomial(const lt_tensor *probs, int64_t n, int replacement, lt_generator *g,
                   lt_tensor **out, lt_error *err) {
  int rc;
  if (probs->dtype == LT_OPAQUE || !lt_dtypes[probs->dtype].is_float)
    return lt_fail(err, LT_EARG, "probabilities must have a floating dtype, got %s",
                   lt_dtype_name(probs->dtype));
  if (probs->ndim < 1 || probs->ndim > 2)
    return lt_fail(err, LT_EARG, "probabilities must be 1-d or 2-d, got %d dims", probs->ndim);
  if (n < 1)
    return lt_fail(err, LT_EARG, "number of samples must be positive, got %lld", (long long)n);
  int64_t rows = probs->ndim == 2 ? probs->shape[0] : 1, cats = probs->shape[probs->ndim - 1];
  if (cats == 0) return lt_fail(err, LT_EARG, "probabilities have no categories");
  const lt_tensor *pc;
  lt_tensor *owned = NULL;
  if ((rc = lt_contiguous_as(probs, LT_FLOAT64, &pc, &owned, err))) return rc;
  const double *p = (const double *)(const void *)lt_data(pc);
  for (int64_t r = 0; r < rows && !rc; r++) {
    double sum = 0;
    int64_t nz = 0;
    for (int64_t c = 0; c < cats; c++) {
      double x = p[r * cats + c];
      if (!(x >= 0) || isinf(x)) {
        rc = lt_fail(err, LT_EARG, "probabilities must be finite and non-negative, got %g",
                     isnan(x) ? fabs(x) : x);
        break;
      }
      sum += x;
      nz += x > 0;
    }
    if (rc) break;
    if (!(sum > 0))
      rc = lt_fail(err, LT_EARG, "probabilities of row %lld sum to zero", (long long)r + 1);
    else if (!replacement && n > nz)
      rc = lt_fail(err, LT_EARG,
                   "cannot draw %lld samples without replacement from %lld categories of "
                   "nonzero probability (row %lld)",
                   (long long)n, (long long)nz, (long long)r + 1);
  }
  double *cum = NULL;
  keyed *ks = NULL;
  int64_t bytes;
  if (!rc && !(rc = lt_size_mul(cats, replacement ? (int64_t)sizeof *cum : (int64_t)sizeof *ks,
                                &bytes, err))) {
    cum = replacement ? malloc((size_t)bytes) : NULL;
    ks = replacement ? NULL : malloc((size_t)bytes);
    if (!cum && !ks) rc = lt_fail(err, LT_ENOMEM, "out of memory");
  }
  int64_t shape[2] = {rows, n};
  if (!rc)
    rc = probs->ndim == 2 ? lt_tensor_new(LT_INT64, 2, shape, 0, out, err)
                          : lt_tensor_new(LT_INT64, 1, &n, 0, out, err);
  if (!rc) {
    int64_t *o = (int64_t *)(void *)lt_data(*out);
    uint64_t draws = (uint64_t)rows * (uint64_t)(replacement ? n : cats), seed;
    stream s;
    uint64_t origin = lt_generator_reserve(g, (draws * 2 + 3) / 4, &seed);
    stream_init(&s, seed, origin);
    for (int64_t r = 0; r < rows; r++) {
      const double *pr = p + r * cats;
      if (replacement) {
        /* weights scaled by a power of two that brings the largest into [0.5, 1): exact, and
           the running sum stays finite however large the finite weights are (1e308 twice
           would sum to inf, and every draw would land on the last category) */
        double acc = 0, top = 0;
        int64_t last = 0;
        int e;
        for (int64_t c = 0; c < cats; c++) top = pr[c] > top ? pr[c] : top;
        frexp(top, &e);
        for (int64_t c = 0; c < cats; c++) {
          cum[c] = acc += ldexp(pr[c], -e);
          if (pr[c] > 0) last = c;
        }
        for (int64_t k = 0; k < n; k++) {
          double u = (double)(stream_draw(&s, (uint64_t)(r * n + k)) >> 11) * 0x1p-53;
          double target = u * acc;
          int64_t lo = 0, hi = cats; /* first c with cum[c] > target */
          while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (cum[mid] > target)
              hi = mid;
            else
              lo = mid + 1;
          }
          o[r * n + k] = (lo < cats ? lo : last) + 1;
        }
      } else {
        /* the exponential races -log(1 - u) / p, compared as logs: log(-log(1 - u)) - log(p)
           neither overflows nor underflows, whatever the scale of the finite weights (the
           quotient underflowed to ties for huge ones and overflowed for subnormal ones) */
        int64_t m = 0;
        for (int64_t c = 0; c < cats; c++) {
          double u = (double)(stream_draw(&s, (uint64_t)(r * cats + c)) >> 11) * 0x1p-53;
          if (pr[c] > 0) ks[m++] = (keyed){log(pr[c]) - log(-log(1.0 - u)), c};
        }
        qsort(ks, (size_t)m, sizeof *ks, by_key);
        for (int64_t k = 0; k < n; k++) o[r * n + k] = ks[k].cat + 1;
      }
    }
  }
  free(cum);
  free(ks);
  lt_tensor_free(owned);
  return rc;
}

/* }====== */
