/*
 * lt_nn_winograd.c -- F(2x2, 3x3) convolutions (see lt_nn_winograd.h). Lua-free.
 *
 * Layouts: the kernels' transforms U (16, C_out, C_in), the input's V (N, 16, C_in, T) for T
 * tiles of 2x2 outputs (th rows of tw), their products M = U V (N, 16, C_out, T) by one
 * lt_matmul (U broadcast over the batch); element e = 4a + b of a tile's 4x4 transform is
 * matrix e.
 */
#include "lt_nn_winograd.h"

#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
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
  char *v, *y;       /* the input's transform (N, 16, C_in, T), or the output (N, C_out, oh, ow) */
  int64_t c, h, w, ph, pw, oh, ow, th, tw;
  int f64;
} wino_ctx;

/* Tiles go through a buffer of CHUNK at a time, one row of it per transformed element: the 16
   rows of a plane's transform lie C x T elements apart in V and M, a multiple of 4 KiB for
   common sizes (64 channels of 28 x 28 tiles), and 16 streams at such a distance thrash the
   caches' sets; copied a chunk at a time, each stream is read or written a run of lines. */
#define CHUNK 64

/* B^T d B of each 4x4 tile d of plane x: element e of tile t to v[e * es + t]. A row of tiles
   reads 4 input rows, copied into rows of the padded width wp (zeros outside the input) in
   scratch (4 wp + 4 wp values), where B^T applies to whole rows, then B to each tile's 4
   columns; tiles go through buf, CHUNK at a time. */
#define WINO(T)                                                                                    \
  static void in_plane_##T(const wino_ctx *c, const T *x, T *v, T *scratch) {                      \
    int64_t tiles = c->th * c->tw, es = c->c * tiles, wp = 2 * c->tw + 2, k = 0, t0 = 0;           \
    T *rows = scratch, *tr = scratch + 4 * wp, buf[16][CHUNK];                                     \
    int64_t q0 = c->pw, n = c->w < wp - q0 ? c->w : wp - q0; /* the columns copied */              \
    for (int64_t ti = 0; ti < c->th; ti++) {                                                       \
      for (int a = 0; a < 4; a++) {                                                                \
        int64_t r = 2 * ti - c->ph + a;                                                            \
        T *row = rows + a * wp;                                                                    \
        for (int64_t j = 0; j < wp; j++) row[j] = 0;                                               \
        if (r >= 0 && r < c->h && n > 0) memcpy(row + q0, x + r * c->w, (size_t)n * sizeof(T));    \
      }                                                                                            \
      for (int64_t j = 0; j < wp; j++) {                                                           \
        T d0 = rows[j], d1 = rows[wp + j], d2 = rows[2 * wp + j], d3 = rows[3 * wp + j];           \
        tr[j] = d0 - d2, tr[wp + j] = d1 + d2, tr[2 * wp + j] = d2 - d1, tr[3 * wp + j] = d1 - d3; \
      }                                                                                            \
      for (int64_t tj = 0; tj < c->tw; tj++) {                                                     \
        for (int a = 0; a < 4; a++) {                                                              \
          const T *t = tr + a * wp + 2 * tj;                                                       \
          buf[4 * a + 0][k] = t[0] - t[2], buf[4 * a + 1][k] = t[1] + t[2];                        \
          buf[4 * a + 2][k] = t[2] - t[1], buf[4 * a + 3][k] = t[1] - t[3];                        \
        }                                                                                          \
        if (++k == CHUNK || t0 + k == tiles) {                                                     \
          for (int e = 0; e < 16; e++) memcpy(v + e * es + t0, buf[e], (size_t)k * sizeof(T));     \
          t0 += k, k = 0;                                                                          \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
  /* A^T m A of each tile's 16 products (m[e * es + t]): its 2x2 outputs. A row of tiles at a      \
     time: its products copied into scratch (16 rows of tw), its two output rows made there        \
     (2 rows of 2 tw), then copied to y as far as the output goes. */                              \
  static void out_plane_##T(const wino_ctx *c, const T *m, T *y, T *scratch) {                     \
    int64_t tw = c->tw, es = c->c * c->th * tw;                                                    \
    T *p = scratch, *o = scratch + 16 * tw;                                                        \
    for (int64_t ti = 0; ti < c->th; ti++) {                                                       \
      for (int e = 0; e < 16; e++)                                                                 \
        memcpy(p + e * tw, m + e * es + ti * tw, (size_t)tw * sizeof(T));                          \
      for (int64_t tj = 0; tj < tw; tj++) {                                                        \
        T s[2][4];                                                                                 \
        for (int b = 0; b < 4; b++) {                                                              \
          T m0 = p[b * tw + tj], m1 = p[(4 + b) * tw + tj], m2 = p[(8 + b) * tw + tj];             \
          T m3 = p[(12 + b) * tw + tj];                                                            \
          s[0][b] = m0 + m1 + m2, s[1][b] = m1 - m2 - m3;                                          \
        }                                                                                          \
        for (int a = 0; a < 2; a++) {                                                              \
          o[a * 2 * tw + 2 * tj] = s[a][0] + s[a][1] + s[a][2];                                    \
          o[a * 2 * tw + 2 * tj + 1] = s[a][1] - s[a][2] - s[a][3];                                \
        }                                                                                          \
      }                                                                                            \
      for (int a = 0; a < 2 && 2 * ti + a < c->oh; a++)                                            \
        memcpy(y + (2 * ti + a) * c->ow, o + a * 2 * tw, (size_t)c->ow * sizeof(T));               \
    }                                                                                              \
  }                                                                                                \
  /* G g G^T of the 3x3 kernel g (9 values), each of the 16 values to u + e * stride. */           \
  static void kernel_##T(const T *g, T *u, int64_t stride) {                                       \
    T t[4][3];                                                                                     \
    for (int j = 0; j < 3; j++) {                                                                  \
      t[0][j] = g[j], t[3][j] = g[6 + j];                                                          \
      t[1][j] = (T)0.5 * (g[j] + g[3 + j] + g[6 + j]);                                             \
      t[2][j] = (T)0.5 * (g[j] - g[3 + j] + g[6 + j]);                                             \
    }                                                                                              \
    for (int i = 0; i < 4; i++) {                                                                  \
      u[(4 * i + 0) * stride] = t[i][0], u[(4 * i + 3) * stride] = t[i][2];                        \
      u[(4 * i + 1) * stride] = (T)0.5 * (t[i][0] + t[i][1] + t[i][2]);                            \
      u[(4 * i + 2) * stride] = (T)0.5 * (t[i][0] - t[i][1] + t[i][2]);                            \
    }                                                                                              \
  }
WINO(float)
WINO(double)

/* Item i: plane i of the input (n C_in + c), whose transform goes to V[n, :, c, :]; or of the
   output (n C_out + oc), from M[n, :, oc, :]. */
static int in_piece(void *ctx, int64_t lo, int64_t hi) {
  const wino_ctx *c = ctx;
  int64_t tiles = c->th * c->tw, plane = c->h * c->w, wp = 2 * c->tw + 2;
  void *scratch = malloc((size_t)(8 * wp) * (c->f64 ? sizeof(double) : sizeof(float)));
  if (!scratch) return 1;
  for (int64_t i = lo; i < hi; i++) {
    int64_t n = i / c->c, ch = i % c->c, at = n * 16 * c->c * tiles + ch * tiles;
    if (c->f64)
      in_plane_double(c, (const double *)c->x + i * plane, (double *)c->v + at, scratch);
    else
      in_plane_float(c, (const float *)c->x + i * plane, (float *)c->v + at, scratch);
  }
  free(scratch);
  return 0;
}

static int out_piece(void *ctx, int64_t lo, int64_t hi) {
  const wino_ctx *c = ctx;
  int64_t tiles = c->th * c->tw, plane = c->oh * c->ow;
  void *scratch = malloc((size_t)(20 * c->tw) * (c->f64 ? sizeof(double) : sizeof(float)));
  if (!scratch) return 1;
  for (int64_t i = lo; i < hi; i++) {
    int64_t n = i / c->c, ch = i % c->c, at = n * 16 * c->c * tiles + ch * tiles;
    if (c->f64)
      out_plane_double(c, (const double *)c->m + at, (double *)c->y + i * plane, scratch);
    else
      out_plane_float(c, (const float *)c->m + at, (float *)c->y + i * plane, scratch);
  }
  free(scratch);
  return 0;
}

/* U (16, C_out, C_in) from the weight. */
static int kernels(const lt_tensor *w, lt_dtype ct, lt_tensor **u, lt_error *err) {
  const lt_tensor *wc;
  lt_tensor *ow = NULL;
  int64_t cout = w->shape[0], cin = w->shape[1], shape[3] = {16, cout, cin};
  int rc = lt_contiguous_as(w, ct, &wc, &ow, err);
  if (rc == LT_OK) rc = lt_tensor_new(ct, 3, shape, 0, u, err);
  if (rc == LT_OK)
    for (int64_t k = 0; k < cout * cin; k++) {
      if (ct == LT_FLOAT64)
        kernel_double((const double *)lt_data(wc) + 9 * k, (double *)lt_data(*u) + k, cout * cin);
      else
        kernel_float((const float *)lt_data(wc) + 9 * k, (float *)lt_data(*u) + k, cout * cin);
    }
  lt_tensor_free(ow);
  return rc;
}

/* M (N, 16, C_out, T), new, = U (16, C_out, C_in) V (N, 16, C_in, T): one batched
   lt_gemm_f32 of the N x 16 products where lt_gemm_wanted says so, else lt_matmul. */
static int products(const lt_tensor *u, const lt_tensor *v, lt_dtype ct, lt_tensor **m,
                    lt_error *err) {
  if (!lt_gemm_wanted(ct)) return lt_matmul(u, v, m, err);
  int64_t n = v->shape[0], co = u->shape[1], ci = u->shape[2], t = v->shape[3];
  int64_t shape[4] = {n, 16, co, t};
  int rc = lt_tensor_new(ct, 4, shape, 0, m, err);
  if (rc) return rc;
  lt_gemm_f32_args g = {.batch = n * 16,
                        .m = co,
                        .n = t,
                        .k = ci,
                        .a = (const float *)lt_data(u),
                        .na = 16,
                        .bsa = co * ci,
                        .rsa = ci,
                        .csa = 1,
                        .b = (const float *)lt_data(v),
                        .bsb = ci * t,
                        .rsb = t,
                        .csb = 1,
                        .c = (float *)lt_data(*m),
                        .bsc = co * t,
                        .ldc = t,
                        .beta = 0};
  return lt_gemm_f32(&g, err);
}

int lt_winograd(const lt_tensor *xb, const lt_tensor *w, lt_dtype ct, int64_t ph, int64_t pw,
                int64_t oh, int64_t ow, lt_tensor **res, lt_error *err) {
  int64_t n = xb->shape[0], cin = xb->shape[1], cout = w->shape[0];
  wino_ctx c = {.h = xb->shape[2],
                .w = xb->shape[3],
                .ph = ph,
                .pw = pw,
                .oh = oh,
                .ow = ow,
                .th = (oh + 1) / 2,
                .tw = (ow + 1) / 2,
                .f64 = ct == LT_FLOAT64};
  int64_t tiles = c.th * c.tw, vshape[4] = {n, 16, cin, tiles}, yshape[3] = {n, cout, oh * ow};
  size_t es = c.f64 ? 8 : 4;
  lt_tensor *u = NULL, *v = NULL, *m = NULL;
  int rc = kernels(w, ct, &u, err);
  if (rc == LT_OK) rc = lt_tensor_new(ct, 4, vshape, 0, &v, err);
  if (rc == LT_OK) {
    c.x = lt_data(xb), c.v = lt_data(v), c.c = cin;
    double bytes = (double)(c.h * c.w + 16 * tiles) * (double)es;
    if (n > 0 && lt_pool_run(n * cin, lt_pool_grain(n * cin, bytes), in_piece, &c) >= 0)
      rc = lt_fail(err, LT_ENOMEM, "not enough memory for the transform's rows");
    if (rc == LT_OK) rc = products(u, v, ct, &m, err);
  }
  if (rc == LT_OK) rc = lt_tensor_new(ct, 3, yshape, 0, res, err);
  if (rc == LT_OK) {
    c.m = lt_data(m), c.y = lt_data(*res), c.c = cout;
    double bytes = (double)(oh * ow + 16 * tiles) * (double)es;
    if (n > 0 && lt_pool_run(n * cout, lt_pool_grain(n * cout, bytes), out_piece, &c) >= 0)
      rc = lt_fail(err, LT_ENOMEM, "not enough memory for the transform's rows");
  }
  lt_tensor_free(u);
  lt_tensor_free(v);
  lt_tensor_free(m);
  return rc;
}
