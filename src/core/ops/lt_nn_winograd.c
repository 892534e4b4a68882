/*
 * lt_nn_winograd.c -- F(2x2, 3x3) convolutions (see lt_nn_winograd.h). Lua-free.
 *
 * Layouts: the kernels' transforms U (16, C_out, C_in), the input's V (N, 16, C_in, T) for T
 * tiles of 2x2 outputs (th rows of tw), their products M = U V (N, 16, C_out, T) (U broadcast
 * over the batch); element e = 4a + b of a tile's 4x4 transform is matrix e. The blocked
 * float32 path has the same layouts of V and M for one block of one image (T its tiles), and U
 * in lt_gemm_f32's packed form (lt_gemm_f32_layout), written by the blocks' job itself.
 */
#include "lt_nn_winograd.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_cpu.h"
#include "lt_gemm.h"
#include "lt_linalg.h"
#include "lt_pool.h"

int lt_winograd_fits(int64_t cin, int64_t cout, const int64_t *kernel, const int64_t *stride,
                     const int64_t *dilation, int64_t groups) {
  for (int i = 0; i < 2; i++)
    if (kernel[i] != 3 || stride[i] != 1 || dilation[i] != 1) return 0;
  return groups == 1 && cin >= 16 && cout >= 16;
}

typedef struct {
  const char *x, *m; /* the input (N, C_in, H, W), or the products (N, 16, C_out, T) */
  const char *bias;  /* C_out values added to the output, or NULL */
  char *v, *y;       /* the input's transform (N, 16, C_in, T), or the output (N, C_out, oh, ow) */
  int64_t c, h, w, ph, pw, oh, ow, th, tw;
  int64_t es; /* the distance between the 16 matrices of V or M: C T, or C T + PAD */
  int f64;
} wino_ctx;

/* The 16 rows a plane's transform writes (or reads) lie es elements apart; at es = C T (a
   multiple of 4 KiB for common sizes: 64 channels of 28 x 28 tiles) the 16 streams fall in one
   cache set and thrash it, so the products through lt_gemm_f32 (which takes any strides) put
   PAD elements between the matrices. */
#define PAD 16

/* B^T d B of each 4x4 tile d of plane x: element e = 4 a + b of tile t to v[e es + t]. B first:
   each padded input row, split into its even and odd columns (E, O: tw + 1 each), gives B's 4
   columns of every tile of the row as 4 rows of tw (one vector loop each: tile j's columns
   2 j .. 2 j + 3 are E[j], O[j], E[j + 1], O[j + 1]), once per input row though tile rows
   overlap by 2 of them. They go to 8 planes (b, parity of the row), so that B^T over the 4 rows
   2 ti .. 2 ti + 3 of every tile row is again the same 4 vector loops (bt4), over all the tile
   rows at once: row 2 ti + 2 lies tw after row 2 ti in its plane. The output's transform runs
   the same way, A^T over all the tile rows, then A row by row. The loops take restrict
   pointers so that they vectorize without alias checks. scratch: SCRATCH(tw, rows) values. */
#define WINO(T, S, ATTR)                                                                          \
  /* d0..d3 = p0 - p2, p1 + p2, p2 - p1, p1 - p3 (B^T's rows), n values each. */                  \
  ATTR static void bt4_##S(const T *restrict p0, const T *restrict p1, const T *restrict p2,      \
                           const T *restrict p3, T *restrict d0, T *restrict d1, T *restrict d2,  \
                           T *restrict d3, int64_t n) {                                           \
    for (int64_t j = 0; j < n; j++) d0[j] = p0[j] - p2[j];                                        \
    for (int64_t j = 0; j < n; j++) d1[j] = p1[j] + p2[j];                                        \
    for (int64_t j = 0; j < n; j++) d2[j] = p2[j] - p1[j];                                        \
    for (int64_t j = 0; j < n; j++) d3[j] = p1[j] - p3[j];                                        \
  }                                                                                               \
  /* B of the padded row x (w values after pw zeros, zeros after: 2 tw + 2 in all; x NULL: a      \
     row of the padding) to hb, hb + ps, hb + 2 ps, hb + 3 ps (tw values each). eo: 2 tw + 2. */  \
  ATTR static void hrow_##S(const T *x, int64_t w, int64_t pw, int64_t tw, T *restrict eo, T *hb, \
                            int64_t ps) {                                                         \
    int64_t h = tw + 1;                                                                           \
    if (!x) {                                                                                     \
      for (int b = 0; b < 4; b++) memset(hb + b * ps, 0, (size_t)tw * sizeof(T));                 \
      return;                                                                                     \
    }                                                                                             \
    T *restrict e = eo, *restrict o = eo + h;                                                     \
    int64_t e0 = (pw + 1) / 2, e1 = (pw + w + 1) / 2, o0 = pw / 2, o1 = (pw + w) / 2;             \
    e1 = e1 < h ? e1 : h, o1 = o1 < h ? o1 : h;                                                   \
    for (int64_t j = 0; j < e0; j++) e[j] = 0;                                                    \
    for (int64_t j = e0; j < e1; j++) e[j] = x[2 * j - pw];                                       \
    for (int64_t j = e1; j < h; j++) e[j] = 0;                                                    \
    for (int64_t j = 0; j < o0; j++) o[j] = 0;                                                    \
    for (int64_t j = o0; j < o1; j++) o[j] = x[2 * j + 1 - pw];                                   \
    for (int64_t j = o1; j < h; j++) o[j] = 0;                                                    \
    bt4_##S(e, o, e + 1, o + 1, hb, hb + ps, hb + 2 * ps, hb + 3 * ps, tw);                       \
  }                                                                                               \
  ATTR static void in_plane_##S(const wino_ctx *c, const T *x, T *v, T *scratch, int64_t r0,      \
                                int64_t r1) {                                                     \
    int64_t tw = c->tw, es = c->es, ps = (r1 - r0 + 1) * tw, nt = (r1 - r0) * tw;                 \
    T *eo = scratch, *hp = eo + 2 * tw + 2; /* plane 2 b + parity: ps values */                   \
    for (int64_t r = 2 * r0; r < 2 * r1 + 2; r++) {                                               \
      int64_t ir = r - c->ph;                                                                     \
      hrow_##S(ir >= 0 && ir < c->h ? x + ir * c->w : NULL, c->w, c->pw, tw, eo,                  \
               hp + r % 2 * ps + (r / 2 - r0) * tw, 2 * ps);                                      \
    }                                                                                             \
    for (int b = 0; b < 4; b++) {                                                                 \
      const T *ev = hp + 2 * b * ps, *od = ev + ps;                                               \
      bt4_##S(ev, od, ev + tw, od + tw, v + b * es, v + (4 + b) * es, v + (8 + b) * es,           \
              v + (12 + b) * es, nt);                                                             \
    }                                                                                             \
  }                                                                                               \
  /* d0, d1 = p0 + p1 + p2, p1 - p2 - p3 (A^T's rows), n values each. */                          \
  ATTR static void at2_##S(const T *restrict p0, const T *restrict p1, const T *restrict p2,      \
                           const T *restrict p3, T *restrict d0, T *restrict d1, int64_t n) {     \
    for (int64_t j = 0; j < n; j++) d0[j] = p0[j] + p1[j] + p2[j];                                \
    for (int64_t j = 0; j < n; j++) d1[j] = p1[j] - p2[j] - p3[j];                                \
  }                                                                                               \
  /* A^T m A of each tile's 16 products (m[e es + t]): its 2x2 outputs, plus bias. A^T over the   \
     4 rows of each tile column, all tile rows at once (s: 2 x 4 planes of nt), then A over the   \
     columns of each row of tiles straight into y's rows, as far as the output goes. */           \
  ATTR static void out_plane_##S(const wino_ctx *c, const T *m, T *y, T *scratch, int64_t r0,     \
                                 int64_t r1, T bias) {                                            \
    int64_t tw = c->tw, es = c->es, ow = c->ow, half = ow / 2, nt = (r1 - r0) * tw;               \
    T *s = scratch;                                                                               \
    for (int b = 0; b < 4; b++)                                                                   \
      at2_##S(m + b * es, m + (4 + b) * es, m + (8 + b) * es, m + (12 + b) * es, s + b * nt,      \
              s + (4 + b) * nt, nt);                                                              \
    for (int64_t ti = r0; ti < r1; ti++)                                                          \
      for (int a = 0; a < 2 && 2 * ti + a < c->oh; a++) {                                         \
        const T *restrict q0 = s + 4 * a * nt + (ti - r0) * tw, *restrict q1 = q0 + nt;           \
        const T *restrict q2 = q1 + nt, *restrict q3 = q2 + nt;                                   \
        T *restrict r = y + (2 * ti + a) * ow;                                                    \
        for (int64_t j = 0; j < half; j++) {                                                      \
          r[2 * j] = q0[j] + q1[j] + q2[j] + bias;                                                \
          r[2 * j + 1] = q1[j] - q2[j] - q3[j] + bias;                                            \
        }                                                                                         \
        if (ow % 2) r[ow - 1] = q0[half] + q1[half] + q2[half] + bias;                            \
      }                                                                                           \
  }
WINO(float, float, )
WINO(double, double, )
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define WINO_X86 1
/* The same loops compiled for the wider vector paths (lt_cpu_level picks): float32 only. */
WINO(float, float_avx2, __attribute__((target("avx2,fma"))))
WINO(float, float_avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
#else
#define WINO_X86 0
#endif

/* A float32 plane's transforms on the path lt_cpu_level() says. */
static void in_float(const wino_ctx *c, const float *x, float *v, float *scratch, int64_t r0,
                     int64_t r1) {
#if WINO_X86
  int level = lt_cpu_level();
  if (level >= LT_CPU_AVX512)
    in_plane_float_avx512(c, x, v, scratch, r0, r1);
  else if (level >= LT_CPU_AVX2)
    in_plane_float_avx2(c, x, v, scratch, r0, r1);
  else
#endif
    in_plane_float(c, x, v, scratch, r0, r1);
}

static void out_float(const wino_ctx *c, const float *m, float *y, float *scratch, int64_t r0,
                      int64_t r1, float bias) {
#if WINO_X86
  int level = lt_cpu_level();
  if (level >= LT_CPU_AVX512)
    out_plane_float_avx512(c, m, y, scratch, r0, r1, bias);
  else if (level >= LT_CPU_AVX2)
    out_plane_float_avx2(c, m, y, scratch, r0, r1, bias);
  else
#endif
    out_plane_float(c, m, y, scratch, r0, r1, bias);
}

/* The scratch of the transforms of rows rows of tw tiles: in 8 (rows + 1) tw + 2 tw + 2 values,
   out 8 rows tw + 2 tw. */
#define SCRATCH(tw, rows) (8 * ((rows) + 1) * (tw) + 2 * (tw) + 2)

/* Item i: plane i of the input (n C_in + c), whose transform goes to V[n, :, c, :]; or of the
   output (n C_out + oc), from M[n, :, oc, :]. */
static int in_piece(void *ctx, int64_t lo, int64_t hi) {
  const wino_ctx *c = ctx;
  int64_t tiles = c->th * c->tw, plane = c->h * c->w;
  void *scratch =
      malloc((size_t)(SCRATCH(c->tw, c->th)) * (c->f64 ? sizeof(double) : sizeof(float)));
  if (!scratch) return 1;
  for (int64_t i = lo; i < hi; i++) {
    int64_t n = i / c->c, ch = i % c->c, at = n * 16 * c->es + ch * tiles;
    if (c->f64)
      in_plane_double(c, (const double *)c->x + i * plane, (double *)c->v + at, scratch, 0, c->th);
    else
      in_float(c, (const float *)c->x + i * plane, (float *)c->v + at, scratch, 0, c->th);
  }
  free(scratch);
  return 0;
}

static int out_piece(void *ctx, int64_t lo, int64_t hi) {
  const wino_ctx *c = ctx;
  int64_t tiles = c->th * c->tw, plane = c->oh * c->ow;
  void *scratch =
      malloc((size_t)(SCRATCH(c->tw, c->th)) * (c->f64 ? sizeof(double) : sizeof(float)));
  if (!scratch) return 1;
  for (int64_t i = lo; i < hi; i++) {
    int64_t n = i / c->c, ch = i % c->c, at = n * 16 * c->es + ch * tiles;
    if (c->f64)
      out_plane_double(c, (const double *)c->m + at, (double *)c->y + i * plane, scratch, 0, c->th,
                       c->bias ? ((const double *)c->bias)[ch] : 0);
    else
      out_float(c, (const float *)c->m + at, (float *)c->y + i * plane, scratch, 0, c->th,
                c->bias ? ((const float *)c->bias)[ch] : 0);
  }
  free(scratch);
  return 0;
}

/* U (16, C_out, C_in) for lt_matmul: CHUNK kernels at a time through a buffer, so that each of
   U's 16 matrices is written a run at a time (they lie C_out C_in apart: see PAD); the chunks
   are items of the worker pool. */
#define CHUNK 64
#define KERNEL(T)                                                                        \
  /* G g G^T of the 3x3 kernel g (9 values), each of the 16 values to u + e * stride. */ \
  static void kernel_##T(const T *g, T *u, int64_t stride) {                             \
    T t[4][3];                                                                           \
    for (int j = 0; j < 3; j++) {                                                        \
      t[0][j] = g[j], t[3][j] = g[6 + j];                                                \
      t[1][j] = (T)0.5 * (g[j] + g[3 + j] + g[6 + j]);                                   \
      t[2][j] = (T)0.5 * (g[j] - g[3 + j] + g[6 + j]);                                   \
    }                                                                                    \
    for (int i = 0; i < 4; i++) {                                                        \
      u[(4 * i + 0) * stride] = t[i][0], u[(4 * i + 3) * stride] = t[i][2];              \
      u[(4 * i + 1) * stride] = (T)0.5 * (t[i][0] + t[i][1] + t[i][2]);                  \
      u[(4 * i + 2) * stride] = (T)0.5 * (t[i][0] - t[i][1] + t[i][2]);                  \
    }                                                                                    \
  }
KERNEL(float)
KERNEL(double)
typedef struct {
  const char *w; /* the weight (C_out, C_in, 3, 3), contiguous */
  char *u;
  int64_t count;
  int f64;
} kernels_ctx;

/* Chunks [lo, hi): U's entries q = CHUNK lo .. CHUNK hi - 1 of each matrix, q = oc C_in + ic. */
#define KERNELS(T)                                                                  \
  static void kernels_##T(const kernels_ctx *c, int64_t lo, int64_t hi) {           \
    const T *w = (const T *)(const void *)c->w;                                     \
    T *u = (T *)(void *)c->u, buf[16 * CHUNK];                                      \
    for (int64_t k0 = lo * CHUNK; k0 < hi * CHUNK && k0 < c->count; k0 += CHUNK) {  \
      int64_t n = c->count - k0 < CHUNK ? c->count - k0 : CHUNK;                    \
      for (int64_t k = 0; k < n; k++) kernel_##T(w + 9 * (k0 + k), buf + k, CHUNK); \
      for (int e = 0; e < 16; e++)                                                  \
        memcpy(u + e * c->count + k0, buf + e * CHUNK, (size_t)n * sizeof(T));      \
    }                                                                               \
  }
KERNELS(float)
KERNELS(double)

static int kernels_piece(void *ctx, int64_t lo, int64_t hi) {
  const kernels_ctx *c = ctx;
  if (c->f64)
    kernels_double(c, lo, hi);
  else
    kernels_float(c, lo, hi);
  return 0;
}

static int kernels(const lt_tensor *w, lt_dtype ct, lt_tensor **u, lt_error *err) {
  const lt_tensor *wc;
  lt_tensor *ow = NULL;
  int64_t cout = w->shape[0], cin = w->shape[1], shape[3] = {16, cout, cin};
  int rc = lt_contiguous_as(w, ct, &wc, &ow, err);
  if (rc == LT_OK) rc = lt_tensor_new(ct, 3, shape, 0, u, err);
  if (rc == LT_OK) {
    kernels_ctx c = {lt_data(wc), lt_data(*u), cout * cin, ct == LT_FLOAT64};
    int64_t chunks = (cout * cin + CHUNK - 1) / CHUNK;
    double bytes = CHUNK * 25.0 * (ct == LT_FLOAT64 ? 8 : 4);
    lt_pool_run(chunks, lt_pool_grain(chunks, bytes), kernels_piece, &c);
  }
  lt_tensor_free(ow);
  return rc;
}

/* {====== the whole batch at once: lt_matmul ====== */

/* res (N, C_out, oh ow) from U through V (N, 16, C_in, T) and M = U V (N, 16, C_out, T), whole
   tensors, the products by one lt_matmul (U broadcast over the batch). */
static int whole(wino_ctx *c, const lt_tensor *w, lt_dtype ct, int64_t n, lt_tensor *res,
                 lt_error *err) {
  int64_t cin = w->shape[1], cout = w->shape[0], tiles = c->th * c->tw;
  int64_t vshape[4] = {n, 16, cin, tiles};
  size_t es = c->f64 ? 8 : 4;
  lt_tensor *u = NULL, *v = NULL, *m = NULL;
  int rc = kernels(w, ct, &u, err);
  if (rc == LT_OK) rc = lt_tensor_new(ct, 4, vshape, 0, &v, err);
  if (rc == LT_OK) {
    c->v = lt_data(v), c->c = cin, c->es = cin * tiles;
    double bytes = (double)(c->h * c->w + 16 * tiles) * (double)es;
    if (lt_pool_run(n * cin, lt_pool_grain(n * cin, bytes), in_piece, c) >= 0)
      rc = lt_fail(err, LT_ENOMEM, "not enough memory for the transform's rows");
  }
  if (rc == LT_OK) rc = lt_matmul(u, v, &m, err);
  if (rc == LT_OK) {
    c->m = lt_data(m), c->y = lt_data(res), c->c = cout, c->es = cout * tiles;
    double bytes = (double)(c->oh * c->ow + 16 * tiles) * (double)es;
    if (lt_pool_run(n * cout, lt_pool_grain(n * cout, bytes), out_piece, c) >= 0)
      rc = lt_fail(err, LT_ENOMEM, "not enough memory for the transform's rows");
  }
  lt_tensor_free(u);
  lt_tensor_free(v);
  lt_tensor_free(m);
  return rc;
}

/* }====== */

/* {====== a block of tile rows at a time: lt_gemm_f32 ======
 *
 * float32 through lt_gemm_f32: an item of the pool is a block of `rows` rows of tiles of one
 * image, at most 2.5 MiB of V and M together (blocked() says how many rows): the input's
 * transform of every channel (V, the 16 matrices PAD apart), the 16 products with U, the
 * output's transform, all on the item's thread. U is written packed (lt_gemm_f32_layout) by
 * the same job, one panel of output channels a step: every piece first takes steps until none is
 * left, then waits until the others' steps are done. So the conv is one job of the pool, and a
 * worker that wakes late still finds blocks to share.
 *
 * A block's rows of V and M hold its T tiles padded to ldt (padded()): a multiple of the
 * kernel's columns, so that lt_gemm_f32 reads every panel of B straight from V and writes every
 * tile of M in place, where a partial last panel is packed and its tiles go through a buffer on
 * each of the 8 row panels of U (with 28 tiles a row of 56 outputs: 24 of a block's 56 tiles).
 * The padding columns of V are zeroed once per buffer and tile count; those of M are not read. */

/* The kernels a chunk of U's packing transforms at once (pack_panel). */
#define PACK_N 256

typedef struct {
  const wino_ctx *c;
  const float *w; /* the weight (C_out, C_in, 3, 3), contiguous */
  float *up;      /* U, packed: 16 of lay.mpad x C_in */
  lt_gemm_f32_layout lay;
  atomic_int_fast64_t next, done; /* U's steps (panels of mr output channels) taken, done */
  int64_t cin, cout, rows, nblk;
  float *bufs;        /* nslots buffers of bsize floats, made once by the caller */
  int64_t *zeroed;    /* per slot: the tile count whose padding columns of V are zero, or 0 */
  atomic_char *taken; /* per slot: a piece is using it */
  int nslots;
  size_t bsize;
} block_ctx;

/* The row length of V and M for nt tiles: nt up to a multiple of the kernel's columns, and not
   a multiple of 256 floats (lt_gemm_f32 packs such rows of B rather than read them in place:
   they would fall into a few cache sets). */
static int64_t padded(const block_ctx *b, int64_t nt) {
  int64_t nr = b->lay.nr, p = (nt + nr - 1) / nr * nr;
  return p <= 1024 && p % 256 == 0 ? p + nr : p;
}

/* Block it % nblk of image it / nblk, with v, m and scratch from buf; *zeroed: the tile count
   whose padding columns of buf's V are zero (updated), or NULL (a buffer of this item only). */
static int block_item(const block_ctx *b, int64_t it, float *buf, int64_t *zeroed) {
  const wino_ctx *c = b->c;
  int64_t tw = c->tw, n = it / b->nblk, r0 = it % b->nblk * b->rows;
  int64_t r1 = r0 + b->rows < c->th ? r0 + b->rows : c->th, nt = (r1 - r0) * tw;
  int64_t plane = c->h * c->w, oplane = c->oh * c->ow, tb = padded(b, b->rows * tw);
  int64_t ldt = padded(b, nt);
  float *v = buf, *m = v + 16 * (b->cin * tb + PAD), *scratch = m + 16 * (b->cout * tb + PAD);
  wino_ctx lc = *c;
  lc.es = b->cin * ldt + PAD;
  if (!zeroed || *zeroed != nt) {
    for (int64_t e = 0; e < 16; e++)
      for (int64_t ch = 0; ch < b->cin; ch++)
        memset(v + e * lc.es + ch * ldt + nt, 0, (size_t)(ldt - nt) * sizeof(float));
    if (zeroed) *zeroed = nt;
  }
  for (int64_t ch = 0; ch < b->cin; ch++)
    in_float(&lc, (const float *)c->x + (n * b->cin + ch) * plane, v + ch * ldt, scratch, r0, r1);
  lt_gemm_f32_args g = {.batch = 16,
                        .m = b->cout,
                        .n = ldt,
                        .k = b->cin,
                        .na = 16,
                        .b = v,
                        .bsb = lc.es,
                        .rsb = ldt,
                        .csb = 1,
                        .c = m,
                        .bsc = b->cout * ldt + PAD,
                        .ldc = ldt,
                        .packed = b->up};
  lt_error err;
  if (lt_gemm_f32(&g, &err) != LT_OK) return 1;
  lc.es = g.bsc;
  const float *bias = (const float *)c->bias;
  for (int64_t oc = 0; oc < b->cout; oc++)
    out_float(&lc, m + oc * ldt, (float *)c->y + (n * b->cout + oc) * oplane, scratch, r0, r1,
              bias ? bias[oc] : 0);
  return 0;
}

/* G g G^T (kernel_float's sums) of the n kernels g[j PACK_N + t] (values j = 0..8 of kernel t,
   a row per j) to the 16 rows u + e us (e = 4 a + b): one vector loop over the kernels. */
static void kernels_vec(const float *restrict g, int64_t n, float *restrict u, int64_t us) {
  for (int64_t t = 0; t < n; t++) {
    float k[4][3];
    for (int j = 0; j < 3; j++) {
      k[0][j] = g[j * PACK_N + t], k[3][j] = g[(6 + j) * PACK_N + t];
      k[1][j] = 0.5f * (g[j * PACK_N + t] + g[(3 + j) * PACK_N + t] + g[(6 + j) * PACK_N + t]);
      k[2][j] = 0.5f * (g[j * PACK_N + t] - g[(3 + j) * PACK_N + t] + g[(6 + j) * PACK_N + t]);
    }
    for (int i = 0; i < 4; i++) {
      u[(4 * i + 0) * us + t] = k[i][0], u[(4 * i + 3) * us + t] = k[i][2];
      u[(4 * i + 1) * us + t] = 0.5f * (k[i][0] + k[i][1] + k[i][2]);
      u[(4 * i + 2) * us + t] = 0.5f * (k[i][0] - k[i][1] + k[i][2]);
    }
  }
}

/* Panel q of U's 16 packed matrices (output channels q mr .. q mr + mr - 1; zeros past C_out):
   for a panel and a block of K, each matrix's values lie together, kb mr floats in the order
   (input channel, lane), so the kernels are gathered into g in that order, a chunk of input
   channels at a time, transformed into u, and copied to the 16 matrices one after the other:
   they lie mpad C_in apart (one cache set for 64 channels), and 16 streams of stores into them
   at once made the conv 0.1 ms slower. A panel a step: two threads never write the same cache
   line of U (a row a step, they wrote the lanes of the same lines, 0.1 ms slower at 2 threads). */
static void pack_panel(block_ctx *b, int64_t q) {
  const lt_gemm_f32_layout *l = &b->lay;
  int64_t cin = b->cin, mr = l->mr, size = l->mpad * cin, oc0 = q * mr, step = PACK_N / mr;
  float g[9][PACK_N], u[16][PACK_N];
  for (int64_t p0 = 0; p0 < cin; p0 += l->kc) {
    int64_t kb = cin - p0 < l->kc ? cin - p0 : l->kc;
    float *d = b->up + p0 * l->mpad + oc0 * kb;
    for (int64_t pc = 0; pc < kb; pc += step) {
      int64_t np = kb - pc < step ? kb - pc : step;
      for (int64_t r = 0; r < mr; r++) {
        const float *w = oc0 + r < b->cout ? b->w + 9 * ((oc0 + r) * cin + p0 + pc) : NULL;
        for (int64_t p = 0; p < np; p++)
          for (int j = 0; j < 9; j++) g[j][p * mr + r] = w ? w[9 * p + j] : 0;
      }
      kernels_vec(&g[0][0], np * mr, &u[0][0], PACK_N);
      for (int e = 0; e < 16; e++)
        memcpy(d + e * size + pc * mr, u[e], (size_t)(np * mr) * sizeof(float));
    }
  }
}

/* Takes U's steps until none is left, then waits for those of the other pieces (taken by
   threads that are running them, so the wait ends). */
static void pack_help(block_ctx *b) {
  int64_t rows = b->lay.mpad / b->lay.mr, k;
  while ((k = atomic_fetch_add(&b->next, 1)) < rows) {
    pack_panel(b, k);
    atomic_fetch_add_explicit(&b->done, 1, memory_order_release);
  }
  while (atomic_load_explicit(&b->done, memory_order_acquire) < rows) sched_yield();
}

/* A piece takes a free buffer of the caller's slots (as many as threads run pieces at once),
   mallocing only when none is free: a buffer this size a piece is an mmap, page faults and an
   munmap each time, which the threads would do under the process's one mapping lock. */
static int block_piece(void *ctx, int64_t lo, int64_t hi) {
  block_ctx *b = ctx;
  pack_help(b);
  int slot = 0;
  while (slot < b->nslots && atomic_exchange(&b->taken[slot], 1)) slot++;
  float *own = NULL, *buf = slot < b->nslots ? b->bufs + (size_t)slot * b->bsize : NULL;
  if (!buf && !(buf = own = malloc(b->bsize * sizeof(float)))) return 1;
  int failed = 0;
  int64_t *zeroed = own ? NULL : &b->zeroed[slot];
  for (int64_t it = lo; it < hi && !failed; it++) failed = block_item(b, it, buf, zeroed);
  if (own)
    free(own);
  else
    atomic_store(&b->taken[slot], 0);
  return failed;
}

static int blocked(wino_ctx *c, const float *w, int64_t cout, int64_t cin, int64_t n,
                   lt_tensor *res, lt_error *err) {
  block_ctx b = {.c = c, .w = w, .cin = cin, .cout = cout, .rows = 1};
  lt_gemm_f32_args g = {.m = cout, .k = cin, .na = 16};
  lt_gemm_f32_layout_of(&g, &b.lay);
  /* at most 2.5 MiB of V and M a block; of the row counts up to that, the one whose blocks
     spread best over the threads: the fewest padded tiles on the busiest thread (one thread:
     all the blocks; more: as many full blocks as the most any thread gets), the larger on a
     tie. Measured on 64 channels of 56 x 56 (issue 28): at 1 thread blocks of 10 rows (288
     padded tiles, 2.3 MiB) took 0.80-0.83 ms, of 4 rows (the 1 MiB that fits the core's L2)
     0.88-0.91, of 9 0.89 (252 tiles padded to 288): the padding and a pass over U a block
     count, not the L2; at 2 threads 7 and 2 rows were alike. */
  int64_t fit = ((int64_t)5 << 19) / (64 * (cin + cout)) / c->tw, threads = lt_pool_threads();
  for (int64_t r = 1, best = 0; r <= fit && r <= c->th; r++) {
    int64_t nblk = (c->th + r - 1) / r, full = padded(&b, r * c->tw), load;
    if (threads == 1)
      load = n * ((nblk - 1) * full + padded(&b, (c->th - (nblk - 1) * r) * c->tw));
    else
      load = (n * nblk + threads - 1) / threads * full;
    if (r == 1 || load <= best) best = load, b.rows = r;
  }
  b.nblk = (c->th + b.rows - 1) / b.rows;
  atomic_init(&b.next, 0);
  atomic_init(&b.done, 0);
  c->y = lt_data(res);
  int64_t tb = padded(&b, b.rows * c->tw), items = n * b.nblk;
  b.bsize = (size_t)(16 * (cin * tb + PAD) + 16 * (cout * tb + PAD) + SCRATCH(c->tw, b.rows));
  b.nslots = (int)(items < threads ? items : threads);
  /* U, then the slots' buffers, their tile counts, their flags (each aligned to its type) */
  size_t usize = (size_t)(16 * b.lay.mpad * cin), fsize = usize + b.bsize * (size_t)b.nslots;
  size_t zat = (fsize * sizeof(float) + 7) / 8 * 8, fat = zat + (size_t)b.nslots * sizeof(int64_t);
  char *raw = malloc(fat + (size_t)b.nslots);
  if (!raw) return lt_fail(err, LT_ENOMEM, "not enough memory for a block of the transforms");
  b.up = (float *)(void *)raw;
  b.bufs = b.up + usize;
  b.zeroed = (int64_t *)(void *)(raw + zat);
  b.taken = (atomic_char *)(void *)(raw + fat);
  for (int i = 0; i < b.nslots; i++) b.zeroed[i] = 0, atomic_init(&b.taken[i], 0);
  int rc = LT_OK;
  if (lt_pool_run(items, 1, block_piece, &b) >= 0)
    rc = lt_fail(err, LT_ENOMEM, "not enough memory for a block of the transforms");
  free(raw);
  return rc;
}

/* }====== */

int lt_winograd(const lt_tensor *xb, const lt_tensor *w, const lt_tensor *bias, lt_dtype ct,
                int64_t ph, int64_t pw, int64_t oh, int64_t ow, lt_tensor **res, lt_error *err) {
  int64_t n = xb->shape[0], cout = w->shape[0], cin = w->shape[1];
  wino_ctx c = {.x = lt_data(xb),
                .h = xb->shape[2],
                .w = xb->shape[3],
                .ph = ph,
                .pw = pw,
                .oh = oh,
                .ow = ow,
                .th = (oh + 1) / 2,
                .tw = (ow + 1) / 2,
                .f64 = ct == LT_FLOAT64};
  int64_t yshape[3] = {n, cout, oh * ow};
  const lt_tensor *bc = NULL, *wc = NULL;
  lt_tensor *ob = NULL, *ow_ = NULL;
  int rc = bias ? lt_contiguous_as(bias, ct, &bc, &ob, err) : LT_OK;
  if (rc == LT_OK) c.bias = bc ? lt_data(bc) : NULL, rc = lt_contiguous_as(w, ct, &wc, &ow_, err);
  if (rc == LT_OK) rc = lt_tensor_new(ct, 3, yshape, 0, res, err);
  if (rc == LT_OK && n > 0 && oh * ow > 0) {
    if (lt_gemm_wanted(ct)) /* lt_gemm_f32 by blocks, else lt_matmul on the whole */
      rc = blocked(&c, (const float *)lt_data(wc), cout, cin, n, *res, err);
    else
      rc = whole(&c, wc, ct, n, *res, err);
  }
  lt_tensor_free(ow_);
  lt_tensor_free(ob);
  return rc;
}
