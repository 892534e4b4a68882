/*
 * test_gemm.c -- ltensor's packed float32 product (src/core/ops/lt_gemm.c) against a naive
 * triple loop in double: every M from 1 to 70 by N and K values around the kernels' tiles
 * (4 x 8, 6 x 16, 8 x 32) and the K block (256), some large shapes (the convolutions' 64 x 3136
 * by 576, a 300 x 1100 by 600), batches with one A broadcast and with several, transposed and
 * strided operands, beta 0 (C's NaN ignored), 1 and 0.5, K = 0; the same bits at 1 and at 3
 * threads, and with A packed once beforehand (lt_gemm_f32_pack). Each value must lie within
 * 1e-5 (plus 4 ulp of float32) of the sum of |a b| of its row and column. ctest runs it as
 * c_gemm (the processor's path), c_gemm_avx2 and c_gemm_scalar (LTENSOR_SIMD capping the path).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_cpu.h"
#include "lt_gemm.h"
#include "lt_pool.h"
#include "test_util.h"

static uint64_t seed = 88172645463325252ull;

/* A value in [-1, 1) (xorshift). */
static float rnd(void) {
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (float)((double)(seed >> 11) / 9007199254740992.0 * 2 - 1);
}

static float *rand_buf(int64_t n) {
  float *p = malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  for (int64_t i = 0; i < n; i++) p[i] = rnd();
  return p;
}

/* Checks g's result c against the naive sum, c0 holding C as it was before the call. */
static void check_against(const lt_gemm_f32_args *g, const float *c0) {
  long bad = 0;
  for (int64_t i = 0; i < g->batch; i++)
    for (int64_t r = 0; r < g->m; r++)
      for (int64_t j = 0; j < g->n; j++) {
        double s = 0, mag = 0;
        const float *a = g->a + (i % g->na) * g->bsa + r * g->rsa,
                    *b = g->b + i * g->bsb + j * g->csb;
        for (int64_t p = 0; p < g->k; p++) {
          double v = (double)a[p * g->csa] * (double)b[p * g->rsb];
          s += v, mag += fabs(v);
        }
        int64_t at = i * g->bsc + r * g->ldc + j;
        if (g->beta != 0) s += (double)g->beta * c0[at], mag += fabs((double)g->beta * c0[at]);
        double got = g->c[at];
        if (!(fabs(got - s) <= 1e-5 * mag + 4 * 1.2e-7 * fabs(s) + 1e-30) && bad++ < 3)
          fprintf(stderr, "  [%lld][%lld][%lld]: got %.9g, want %.9g\n", (long long)i, (long long)r,
                  (long long)j, got, s);
      }
  CHECKF(bad == 0, "%ld wrong values", bad);
}

/* One product of m x k by k x n, A and B row-major or transposed, C with a row stride past n
   (filled with NaN when beta is 0), batch products of na A's. */
static void one(int64_t batch, int64_t na, int64_t m, int64_t n, int64_t k, int ta, int tb,
                float beta) {
  tu_set_context("%s %lldx%lldx%lld batch %lld/%lld ta %d tb %d beta %g",
                 lt_cpu_level_name(lt_cpu_level()), (long long)m, (long long)n, (long long)k,
                 (long long)batch, (long long)na, ta, tb, (double)beta);
  int64_t ldc = n + 3, sa = m * k + 5, sb = k * n + 7, sc = m * ldc + 1;
  float *a = rand_buf(na * sa), *b = rand_buf(batch * sb), *c = rand_buf(batch * sc);
  float *c0 = malloc((size_t)(batch * sc > 0 ? batch * sc : 1) * sizeof(float));
  if (beta == 0)
    for (int64_t i = 0; i < batch * sc; i++) c[i] = NAN;
  memcpy(c0, c, (size_t)(batch * sc) * sizeof(float));
  lt_gemm_f32_args g = {batch, m,  n,          k,          a, na, sa,  ta ? 1 : k, ta ? m : 1,
                        b,     sb, tb ? 1 : n, tb ? k : 1, c, sc, ldc, beta,       NULL};
  lt_error err;
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK);
  check_against(&g, c0);
  float *packed, *c2 = malloc((size_t)(batch * sc > 0 ? batch * sc : 1) * sizeof(float));
  memcpy(c2, c0, (size_t)(batch * sc) * sizeof(float));
  CHECK_RC(lt_gemm_f32_pack(&g, &packed, &err), LT_OK); /* A packed once: the same bits */
  g.c = c2, g.packed = packed, g.a = NULL;
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK);
  CHECK(memcmp(c, c2, (size_t)(batch * sc) * sizeof(float)) == 0);
  free(packed), free(c2);
  for (int64_t i = 0; i < batch; i++) /* the gaps between rows and products are untouched */
    for (int64_t r = 0; r < m; r++)
      for (int64_t j = n; j < ldc; j++) {
        int64_t at = i * sc + r * ldc + j;
        CHECK(memcmp(c + at, c0 + at, sizeof(float)) == 0);
      }
  free(a), free(b), free(c), free(c0);
}

/* The same bits at 1 and at 3 threads (the summation order is fixed). */
static void threads_agree(void) {
  int64_t m = 37, n = 2000, k = 300;
  tu_set_context("%s threads", lt_cpu_level_name(lt_cpu_level()));
  float *a = rand_buf(m * k), *b = rand_buf(k * n), *c1 = calloc((size_t)(m * n), sizeof(float));
  float *c3 = calloc((size_t)(m * n), sizeof(float));
  lt_gemm_f32_args g = {3, m,     n / 3, k, a,  1,         0,     k, 1,
                        b, n / 3, n,     1, c1, m * n / 3, n / 3, 0, NULL};
  lt_error err;
  int before = lt_pool_threads();
  lt_pool_set_threads(1);
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK);
  g.c = c3;
  lt_pool_set_threads(3);
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK);
  lt_pool_set_threads(before);
  CHECK(memcmp(c1, c3, (size_t)(m * n) * sizeof(float)) == 0);
  free(a), free(b), free(c1), free(c3);
}

static void edges(void) {
  tu_set_context("edges");
  lt_error err;
  float c[6] = {1, 2, 3, 4, 5, NAN}, a = 1, b = 1;
  lt_gemm_f32_args g = {1, 2, 3, 0, &a, 1, 0, 1, 1, &b, 0, 1, 1, c, 0, 3, 0.5f, NULL};
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK); /* K = 0: C = beta C */
  CHECK(c[0] == 0.5f && c[4] == 2.5f && isnan(c[5]));
  g.beta = 0;
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK); /* beta 0: zeros, NaN dropped */
  CHECK(c[0] == 0 && c[5] == 0);
  g.m = -1;
  CHECK_RC(lt_gemm_f32(&g, &err), LT_EARG);
  g.m = 2, g.na = 0;
  CHECK_RC(lt_gemm_f32(&g, &err), LT_EARG);
  g.na = 1, g.batch = 0;
  CHECK_RC(lt_gemm_f32(&g, &err), LT_OK);
}

int main(void) {
  static const int64_t ns[] = {1, 2, 5, 8, 15, 16, 17, 31, 32, 33, 63, 70};
  static const int64_t ks[] = {1, 3, 17, 64, 70};
  printf("test_gemm: path %s\n", lt_cpu_level_name(lt_cpu_level()));
  for (int64_t m = 1; m <= 70; m++)
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
      for (size_t j = 0; j < sizeof ks / sizeof *ks; j++)
        one(1, 1, m, ns[i], ks[j], 0, 0, m % 3 == 0 ? 1.0f : 0.0f);
  one(1, 1, 64, 3136, 576, 0, 0, 0);     /* im2col's product of bench_nn_conv */
  one(16, 16, 64, 784, 64, 0, 0, 0);     /* Winograd's 16 products */
  one(32, 1, 8, 256, 27, 0, 0, 0);       /* the example CNN's first layer, the whole batch */
  one(1, 1, 300, 1100, 600, 1, 1, 0.5f); /* several K blocks, transposed operands */
  one(5, 2, 13, 45, 260, 1, 0, 1);
  one(4, 3, 9, 1030, 7, 0, 1, 0);
  threads_agree();
  edges();
  return tu_finish("test_gemm");
}
