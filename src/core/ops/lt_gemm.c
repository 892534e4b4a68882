/*
 * lt_gemm.c -- the packed float32 matrix product (see lt_gemm.h). Lua-free.
 *
 * Layouts: packed A holds, for each product's A, each block of kc values of K, each panel of MR
 * rows: kc x MR values ([p][r], rows past m zero); packed B, for a piece's column block and
 * block of K: each panel of NR columns as kc x NR values ([p][j], columns past n zero). The
 * micro-kernel multiplies one A panel by one B panel into an MR x NR tile of registers, then
 * writes the tile to C (C = tile + beta C for the first block of K, C += tile after); a tile
 * that sticks out of C goes through a buffer. Loop order in a piece: column block, K block
 * (pack B), B panel, A panel: the B panel stays in L1 while every A panel passes over it.
 */
#include "lt_gemm.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_blas.h"
#include "lt_cpu.h"
#include "lt_pool.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define LT_GEMM_X86 1
#include <immintrin.h>
#else
#define LT_GEMM_X86 0
#endif

/* The largest tile (MR x NR values) of any kernel, the K block, the widest column block. */
#define TILE_MAX 256
#define KC 256
#define NB_MAX 1024

/* A micro-kernel: the kc x MR panel a times the kc x NR panel b (row stride ldb: NR when
   packed) into the tile c (row stride ldc): c = tile + beta c (beta 0: c not read). */
typedef void (*ukr_fn)(int64_t kc, const float *a, const float *b, int64_t ldb, float *c,
                       int64_t ldc, float beta);

typedef struct {
  int mr, nr;
  ukr_fn fn;
} kernel;

/* {====== micro-kernels ====== */

static void ukr_scalar(int64_t kc, const float *a, const float *b, int64_t ldb, float *c,
                       int64_t ldc, float beta) {
  float t[4][8] = {{0}};
  for (int64_t p = 0; p < kc; p++, a += 4, b += ldb)
    for (int r = 0; r < 4; r++)
      for (int j = 0; j < 8; j++) t[r][j] += a[r] * b[j];
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 8; j++)
      c[r * ldc + j] = beta == 0 ? t[r][j] : t[r][j] + beta * c[r * ldc + j];
}

#if LT_GEMM_X86

/* A vector kernel of MR rows by two vectors V of W floats: the tile in registers (the loops over
   rows have constant bounds and unroll), one broadcast of A's value a row and two loads of B a
   step of K. */
#define UKR(NAME, TARGET, V, MR, W, ZERO, SET1, LOAD, FMA, STORE)                              \
  __attribute__((target(TARGET))) static void NAME(int64_t kc, const float *a, const float *b, \
                                                   int64_t ldb, float *c, int64_t ldc,         \
                                                   float beta) {                               \
    V acc[MR][2];                                                                              \
    for (int r = 0; r < MR; r++) acc[r][0] = ZERO(), acc[r][1] = ZERO();                       \
    for (int64_t p = 0; p < kc; p++, a += MR, b += ldb) {                                      \
      V b0 = LOAD(b), b1 = LOAD(b + W);                                                        \
      for (int r = 0; r < MR; r++) {                                                           \
        V t = SET1(a[r]);                                                                      \
        acc[r][0] = FMA(t, b0, acc[r][0]), acc[r][1] = FMA(t, b1, acc[r][1]);                  \
      }                                                                                        \
    }                                                                                          \
    for (int r = 0; r < MR; r++) {                                                             \
      V x = acc[r][0], y = acc[r][1];                                                          \
      if (beta != 0) {                                                                         \
        V bv = SET1(beta);                                                                     \
        x = FMA(bv, LOAD(c + r * ldc), x), y = FMA(bv, LOAD(c + r * ldc + W), y);              \
      }                                                                                        \
      STORE(c + r * ldc, x), STORE(c + r * ldc + W, y);                                        \
    }                                                                                          \
  }
UKR(ukr_avx512, "avx512f", __m512, 8, 16, _mm512_setzero_ps, _mm512_set1_ps, _mm512_loadu_ps,
    _mm512_fmadd_ps, _mm512_storeu_ps)
UKR(ukr_avx2, "avx2,fma", __m256, 6, 8, _mm256_setzero_ps, _mm256_set1_ps, _mm256_loadu_ps,
    _mm256_fmadd_ps, _mm256_storeu_ps)

#endif

static kernel pick_kernel(void) {
  kernel k = {4, 8, ukr_scalar};
#if LT_GEMM_X86
  int level = lt_cpu_level();
  if (level >= LT_CPU_AVX512)
    k = (kernel){8, 32, ukr_avx512};
  else if (level >= LT_CPU_AVX2)
    k = (kernel){6, 16, ukr_avx2};
#endif
  return k;
}

/* }====== */

/* {====== packing ====== */

/* Rows [0, m) x K values [p0, p0 + kc) of A (strides rs, cs) into MR-row panels at dst. */
static void pack_a(const float *a, int64_t rs, int64_t cs, int64_t m, int64_t p0, int64_t kc,
                   int mr, float *dst) {
  for (int64_t r0 = 0; r0 < m; r0 += mr, dst += kc * mr) {
    int64_t rows = m - r0 < mr ? m - r0 : mr;
    for (int64_t p = 0; p < kc; p++) {
      const float *s = a + r0 * rs + (p0 + p) * cs;
      float *d = dst + p * mr;
      int64_t r = 0;
      for (; r < rows; r++) d[r] = s[r * rs];
      for (; r < mr; r++) d[r] = 0;
    }
  }
}

/* Columns [j0, j1) x K values [p0, p0 + kc) of B (strides rs, cs) into NR-column panels. */
static void pack_b(const float *b, int64_t rs, int64_t cs, int64_t j0, int64_t j1, int64_t p0,
                   int64_t kc, int nr, float *dst) {
  for (int64_t jb = j0; jb < j1; jb += nr, dst += kc * nr) {
    int64_t cols = j1 - jb < nr ? j1 - jb : nr;
    for (int64_t p = 0; p < kc; p++) {
      const float *s = b + (p0 + p) * rs + jb * cs;
      float *d = dst + p * nr;
      int64_t j = 0;
      if (cs == 1) /* a loop, not memcpy: a call per row of nr values costs more than the copy */
        for (; j < cols; j++) d[j] = s[j];
      else
        for (; j < cols; j++) d[j] = s[j * cs];
      for (; j < nr; j++) d[j] = 0;
    }
  }
}

/* }====== */

/* {====== the product ====== */

typedef struct {
  const lt_gemm_f32_args *g;
  kernel kr;
  const float *ap; /* packed A: na products of mpad x k values */
  int64_t mpad, kc, nb, nblk;
  float *bufs;        /* nslots B buffers of bstride floats, 64-byte aligned, made by the caller */
  atomic_char *taken; /* per slot: a piece is using it */
  int nslots;
  size_t bstride;
} gemm_ctx;

/* The tile of rows [r0, r0 + rows) and columns [j, j + cols) of C from the panels pa and pb. */
static void tile(const gemm_ctx *c, const float *pa, const float *pb, int64_t ldb, float *cp,
                 int64_t ldc, int64_t rows, int64_t cols, int64_t kc, float beta) {
  const kernel *k = &c->kr;
  if (rows == k->mr && cols == k->nr) {
    k->fn(kc, pa, pb, ldb, cp, ldc, beta);
    return;
  }
  float t[TILE_MAX];
  k->fn(kc, pa, pb, ldb, t, k->nr, 0);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < cols; j++) {
      float *o = cp + r * ldc + j;
      *o = beta == 0 ? t[r * k->nr + j] : t[r * k->nr + j] + beta * *o;
    }
}

/* Item it: product it / nblk, columns of block it % nblk. bp: the piece's B buffer. B's rows
   (unit column stride) are read where they are, only a last, partial panel packed, when a
   panel of B serves one or two tiles (one or two panels of A: the first layers of a CNN, 8 or
   16 output channels), where packing costs as much as the products; and when B's rows are
   short, of a length that no multiple of 1 KiB divides (Winograd's blocks: 112 tiles), so that
   a panel's kc rows stay in L1 across the panels of A without falling into a few sets. */
static void gemm_item(const gemm_ctx *c, int64_t it, float *bp) {
  const lt_gemm_f32_args *g = c->g;
  int mr = c->kr.mr, nr = c->kr.nr;
  int64_t i = it / c->nblk, j0 = it % c->nblk * c->nb;
  int64_t j1 = j0 + c->nb < g->n ? j0 + c->nb : g->n;
  const float *b = g->b + i * g->bsb, *pa0 = c->ap + (i % g->na) * c->mpad * g->k;
  float *cm = g->c + i * g->bsc;
  int direct = g->csb == 1 && (c->mpad <= 2 * mr || (g->rsb <= 1024 && g->rsb % 256));
  for (int64_t p0 = 0; p0 < g->k; p0 += c->kc) {
    int64_t kc = g->k - p0 < c->kc ? g->k - p0 : c->kc;
    float beta = p0 == 0 ? g->beta : 1;
    if (!direct) pack_b(b, g->rsb, g->csb, j0, j1, p0, kc, nr, bp);
    const float *pa = pa0 + p0 * c->mpad;
    for (int64_t jb = j0; jb < j1; jb += nr) {
      int64_t cols = j1 - jb < nr ? j1 - jb : nr, ldb = nr;
      const float *pb = bp + (jb - j0) * kc;
      if (direct && cols == nr)
        pb = b + p0 * g->rsb + jb, ldb = g->rsb;
      else if (direct)
        pack_b(b, g->rsb, g->csb, jb, j1, p0, kc, nr, bp), pb = bp;
      for (int64_t r0 = 0; r0 < g->m; r0 += mr) {
        int64_t rows = g->m - r0 < mr ? g->m - r0 : mr;
        tile(c, pa + r0 * kc, pb, ldb, cm + r0 * g->ldc + jb, g->ldc, rows, cols, kc, beta);
      }
    }
  }
}

/* A piece takes a free B buffer of the caller's slots (as many as threads can run pieces at
   once, so one is always free), and mallocs only when none is: no allocation per piece, where
   a malloc under way in a thread when another forks can leave a sanitizer's allocator locked in
   the child. B buffers are aligned to 64 bytes by hand (C11's aligned_alloc is missing on
   Windows). */
static int gemm_piece(void *ctx, int64_t lo, int64_t hi) {
  gemm_ctx *c = ctx;
  int slot = 0;
  while (slot < c->nslots && atomic_exchange(&c->taken[slot], 1)) slot++;
  char *raw = NULL;
  float *bp = slot < c->nslots ? c->bufs + (size_t)slot * c->bstride : NULL;
  if (!bp) {
    if (!(raw = malloc(c->bstride * sizeof(float) + 64))) return 1;
    bp = (float *)(void *)(raw + (64 - (uintptr_t)raw % 64) % 64);
  }
  for (int64_t it = lo; it < hi; it++) gemm_item(c, it, bp);
  if (raw)
    free(raw);
  else
    atomic_store(&c->taken[slot], 0);
  return 0;
}

/* C = beta C for k = 0. */
static void scale_c(const lt_gemm_f32_args *g) {
  for (int64_t i = 0; i < g->batch; i++)
    for (int64_t r = 0; r < g->m; r++) {
      float *o = g->c + i * g->bsc + r * g->ldc;
      for (int64_t j = 0; j < g->n; j++) o[j] = g->beta == 0 ? 0 : g->beta * o[j];
    }
}

/* The column block width: at most NB_MAX, a multiple of nr, and narrow enough that the batch
   gives about 4 items a thread when it can (wider blocks pack B less often). */
static int64_t block_width(const lt_gemm_f32_args *g, int nr, int threads) {
  int64_t want = threads > 1 ? (4 * threads + g->batch - 1) / g->batch : 1;
  int64_t least = (g->n + NB_MAX - 1) / NB_MAX, parts = want > least ? want : least;
  int64_t nb = ((g->n + parts - 1) / parts + nr - 1) / nr * nr;
  return nb < 4 * nr && g->n > 4 * nr ? 4 * nr : nb;
}

static int check(const lt_gemm_f32_args *g, lt_error *err) {
  if (g->batch < 0 || g->m < 0 || g->n < 0 || g->k < 0 || g->na < 1)
    return lt_fail(err, LT_EARG, "gemm: sizes must be non-negative");
  return LT_OK;
}

/* The kernel and the blocking of K for g. */
static void plan(const lt_gemm_f32_args *g, gemm_ctx *c) {
  int64_t nkb = (g->k + KC - 1) / KC;
  c->g = g;
  c->kr = pick_kernel();
  c->kc = nkb ? (g->k + nkb - 1) / nkb : 1; /* even blocks: 576 is 3 of 192, not 256 + 256 + 64 */
  c->mpad = (g->m + c->kr.mr - 1) / c->kr.mr * c->kr.mr;
}

typedef struct {
  const lt_gemm_f32_args *g;
  const gemm_ctx *c;
  float *ap;
  int64_t nkb; /* blocks of K a matrix */
} pack_ctx;

/* Items [lo, hi): block it % nkb of K of matrix it / nkb. */
static int pack_piece(void *ctx, int64_t lo, int64_t hi) {
  const pack_ctx *pc = ctx;
  const lt_gemm_f32_args *g = pc->g;
  const gemm_ctx *c = pc->c;
  for (int64_t it = lo; it < hi; it++) {
    int64_t i = it / pc->nkb, p0 = it % pc->nkb * c->kc;
    pack_a(g->a + i * g->bsa, g->rsa, g->csa, g->m, p0, g->k - p0 < c->kc ? g->k - p0 : c->kc,
           c->kr.mr, pc->ap + i * c->mpad * g->k + p0 * c->mpad);
  }
  return 0;
}

/* na of g's matrices A packed into *ap (new; NULL when empty), the (matrix, K block) pairs
   over the pool. */
static int pack_all(const lt_gemm_f32_args *g, const gemm_ctx *c, int64_t na, float **ap,
                    lt_error *err) {
  int64_t total;
  int rc = lt_size_mul(c->mpad, g->k, &total, err);
  if (rc == LT_OK) rc = lt_size_mul(total, na, &total, err);
  *ap = NULL;
  if (rc || total == 0) return rc;
  if (!(*ap = malloc((size_t)total * sizeof(float))))
    return lt_fail_nomem(err, (size_t)total * sizeof(float));
  pack_ctx pc = {g, c, *ap, (g->k + c->kc - 1) / c->kc};
  int64_t items = na * pc.nkb;
  lt_pool_run(items, lt_pool_grain(items, 8.0 * (double)c->mpad * (double)c->kc), pack_piece, &pc);
  return LT_OK;
}

int lt_gemm_f32_pack(const lt_gemm_f32_args *g, float **packed, lt_error *err) {
  gemm_ctx c;
  int rc = check(g, err);
  *packed = NULL;
  if (rc) return rc;
  plan(g, &c);
  return pack_all(g, &c, g->na, packed, err);
}

void lt_gemm_f32_layout_of(const lt_gemm_f32_args *g, lt_gemm_f32_layout *l) {
  gemm_ctx c;
  plan(g, &c);
  l->mr = c.kr.mr, l->nr = c.kr.nr, l->kc = c.kc, l->mpad = c.mpad;
}

int lt_gemm_f32(const lt_gemm_f32_args *g, lt_error *err) {
  int rc = check(g, err);
  if (rc || g->batch == 0 || g->m == 0 || g->n == 0) return rc;
  if (g->k == 0) {
    scale_c(g);
    return LT_OK;
  }
  gemm_ctx c;
  plan(g, &c);
  float *ap = NULL;
  if (!g->packed && (rc = pack_all(g, &c, g->na < g->batch ? g->na : g->batch, &ap, err)))
    return rc;
  c.ap = g->packed ? g->packed : ap;
  c.nb = block_width(g, c.kr.nr, lt_pool_threads());
  c.nblk = (g->n + c.nb - 1) / c.nb;
  int64_t items = g->batch * c.nblk;
  /* below about 2 Mflop a job costs more than it gains: one piece on this thread */
  double flops = 2.0 * (double)g->batch * (double)g->m * (double)g->n * (double)g->k;
  int64_t grain = flops < 2e6 ? items : 1, slots = lt_pool_threads();
  c.nslots = (int)(items / grain < slots ? items / grain : slots);
  c.bstride = ((size_t)(c.nb + c.kr.nr) * (size_t)c.kc + 15) / 16 * 16; /* 64-byte multiples */
  size_t bytes = c.bstride * sizeof(float) * (size_t)c.nslots;
  char *raw = malloc(bytes + 64 + (size_t)c.nslots);
  if (!raw) {
    free(ap);
    return lt_fail_nomem(err, bytes);
  }
  c.bufs = (float *)(void *)(raw + (64 - (uintptr_t)raw % 64) % 64);
  c.taken = (atomic_char *)(void *)((char *)c.bufs + bytes);
  for (int i = 0; i < c.nslots; i++) atomic_init(&c.taken[i], 0);
  if (lt_pool_run(items, grain, gemm_piece, &c) >= 0)
    rc = lt_fail_nomem(err, c.bstride * sizeof(float));
  free(raw);
  free(ap);
  return rc;
}

int lt_gemm_wanted(lt_dtype dt) {
  return dt == LT_FLOAT32 && (lt_cpu_level() > LT_CPU_SCALAR || !lt_blas_active(dt));
}

/* }====== */
