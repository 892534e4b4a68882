/*
 * lt_dist.c -- pairwise distances: torch.cdist and torch.pdist (see lt_dist.h).
 *
 * Both make their operands contiguous in their own dtype (no copy when they already are) and
 * cut the rows of the result into pieces for the pool. The direct form computes each distance
 * from the two rows (one loop per kind of p). cdist's product form for p = 2 is torch's
 * (_euclidean_dist): lt_matmul computes every dot product a.b at once (the BLAS's gemm, one per
 * batch entry; ltensor's own kernel without a BLAS), then one fused pass per result row turns
 * them into sqrt(max(|a|^2 + |b|^2 - 2 a.b, 0)) in place, the square norms computed once per
 * row beforehand. Broadcast batch dims are never copied: a row's batch entry maps to its
 * operands' entries through strides that are 0 where a batch dim broadcasts.
 */
#include "lt_dist.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lt_blas.h"
#include "lt_copy.h"
#include "lt_linalg.h"
#include "lt_pool.h"
#include "lt_vmath.h"

/* {====== one distance ====== */

typedef enum { P_ZERO, P_ONE, P_TWO, P_INF, P_ANY } p_kind;

/* The kind of p for dtype dt: a p beyond float's range is infinite for float32 (as torch's
   float32 kernels see it). */
static p_kind kind_of(double p, lt_dtype dt) {
  if (isinf(p) || (dt == LT_FLOAT32 && p > FLT_MAX)) return P_INF;
  return p == 0 ? P_ZERO : p == 1 ? P_ONE : p == 2 ? P_TWO : P_ANY;
}

/* The p-norm distance of rows a and b of m elements, in T (SQRT, FABS, POW: libm's for T). */
#define DIST(E, T, SQRT, FABS, POW)                                           \
  static T dist_##E(const T *a, const T *b, int64_t m, p_kind k, T p) {       \
    T acc = 0;                                                                \
    switch (k) {                                                              \
      case P_ZERO:                                                            \
        for (int64_t i = 0; i < m; i++) acc += (T)(a[i] != b[i]);             \
        return acc;                                                           \
      case P_ONE:                                                             \
        for (int64_t i = 0; i < m; i++) acc += FABS(a[i] - b[i]);             \
        return acc;                                                           \
      case P_TWO:                                                             \
        for (int64_t i = 0; i < m; i++) acc += (a[i] - b[i]) * (a[i] - b[i]); \
        return SQRT(acc);                                                     \
      case P_INF:                                                             \
        for (int64_t i = 0; i < m; i++) {                                     \
          T d = FABS(a[i] - b[i]);                                            \
          acc = d > acc || d != d ? d : acc;                                  \
        }                                                                     \
        return acc;                                                           \
      default:                                                                \
        for (int64_t i = 0; i < m; i++) acc += POW(FABS(a[i] - b[i]), p);     \
        return POW(acc, (T)1 / p);                                            \
    }                                                                         \
  }
DIST(FLOAT32, float, sqrtf, fabsf, powf)
DIST(FLOAT64, double, sqrt, fabs, pow)

/* }====== */

/* {====== the rows of a result ====== */

typedef struct {
  lt_dtype dt;
  const char *a, *b; /* x1 and x2, contiguous */
  char *o;           /* the result, contiguous */
  int64_t P, R, M;
  p_kind k;
  double p;
  int nb;                  /* batch dims of the result */
  const int64_t *bshape;   /* their sizes */
  int64_t s1[LT_MAX_NDIM]; /* x1's element stride along each (0: broadcast), x2's */
  int64_t s2[LT_MAX_NDIM];
  const void *na, *nb2; /* the product form: the square norms of x1's and x2's rows */
  double gk;            /* and the factor of the products in the result: -2 (a.b) or 1 (-2 a.b) */
} rows_ctx;

/* The element offsets in x1 and x2 of batch entry b of the result. */
static void batch_offsets(const rows_ctx *c, int64_t b, int64_t *o1, int64_t *o2) {
  *o1 = *o2 = 0;
  for (int d = c->nb - 1; d >= 0; d--) {
    int64_t i = b % c->bshape[d];
    b /= c->bshape[d];
    *o1 += i * c->s1[d];
    *o2 += i * c->s2[d];
  }
}

/* Rows [lo, hi) of the result (row r: batch entry r / P, row r % P of x1), directly. */
#define DIRECT_ROWS(E, T)                                                           \
  static void direct_##E(const rows_ctx *c, int64_t lo, int64_t hi) {               \
    const T *a = (const T *)(const void *)c->a, *b = (const T *)(const void *)c->b; \
    T *o = (T *)(void *)c->o;                                                       \
    for (int64_t r = lo; r < hi; r++) {                                             \
      int64_t o1, o2;                                                               \
      batch_offsets(c, r / c->P, &o1, &o2);                                         \
      const T *ar = a + o1 + (r % c->P) * c->M;                                     \
      for (int64_t j = 0; j < c->R; j++)                                            \
        o[r * c->R + j] = dist_##E(ar, b + o2 + j * c->M, c->M, c->k, (T)c->p);     \
    }                                                                               \
  }
DIRECT_ROWS(FLOAT32, float)
DIRECT_ROWS(FLOAT64, double)

/* The same from the dot products already in the result: |a|^2 + |b|^2 - 2 a.b, at least 0,
   then its square root (lt_vmath's, vectorized) over the row. */
#define MM_ROWS(E, T, VSQRT)                                                 \
  static void mm_##E(const rows_ctx *c, int64_t lo, int64_t hi) {            \
    const T *na = c->na, *nb = c->nb2;                                       \
    T *o = (T *)(void *)c->o;                                                \
    for (int64_t r = lo; r < hi; r++) {                                      \
      int64_t o1, o2;                                                        \
      batch_offsets(c, r / c->P, &o1, &o2);                                  \
      const T ni = na[o1 / c->M + r % c->P]; /* M > 0 in the product form */ \
      const T *nj = nb + o2 / c->M;                                          \
      T *g = o + r * c->R;                                                   \
      for (int64_t j = 0; j < c->R; j++) {                                   \
        T v = ni + nj[j] + (T)c->gk * g[j];                                  \
        g[j] = v > 0 ? v : 0;                                                \
      }                                                                      \
      VSQRT(g, g, c->R);                                                     \
    }                                                                        \
  }
MM_ROWS(FLOAT32, float, lt_vmath_sqrt_f32)
MM_ROWS(FLOAT64, double, lt_vmath_sqrt_f64)

/* A piece of rows: the product form when the norms are there, else the direct one. */
static int rows_piece(void *vc, int64_t lo, int64_t hi) {
  const rows_ctx *c = vc;
  int f64 = c->dt == LT_FLOAT64;
  if (c->na) {
    (f64 ? mm_FLOAT64 : mm_FLOAT32)(c, lo, hi);
  } else {
    (f64 ? direct_FLOAT64 : direct_FLOAT32)(c, lo, hi);
  }
  return 0;
}

/* The square norms of the n rows of m elements of x (contiguous, T) into nrm, in T. */
#define SQUARE_NORMS(E, T)                                                 \
  static void norms_##E(const char *xp, int64_t n, int64_t m, void *nrm) { \
    const T *x = (const T *)(const void *)xp;                              \
    for (int64_t i = 0; i < n; i++) {                                      \
      T s = 0;                                                             \
      for (int64_t k = 0; k < m; k++) s += x[i * m + k] * x[i * m + k];    \
      ((T *)nrm)[i] = s;                                                   \
    }                                                                      \
  }
SQUARE_NORMS(FLOAT32, float)
SQUARE_NORMS(FLOAT64, double)

/* The same into a new array *nrm (free it). */
static int square_norms(lt_dtype dt, const char *x, int64_t n, int64_t m, void **nrm,
                        lt_error *err) {
  size_t es = lt_dtypes[dt].size;
  *nrm = malloc((size_t)(n > 0 ? n : 1) * es);
  if (!*nrm) return lt_fail_nomem(err, (size_t)n * es);
  if (dt == LT_FLOAT32)
    norms_FLOAT32(x, n, m, *nrm);
  else
    norms_FLOAT64(x, n, m, *nrm);
  return LT_OK;
}

/* }====== */

/* {====== checks ====== */

/* x (named what) readable, of at least 2 dims (exactly 2: exact), float32 or float64. */
static int check_operand(const lt_tensor *x, const char *what, int exact, lt_error *err) {
  int rc = lt_check_readable(x, err);
  if (rc) return rc;
  if (x->ndim < 2 || (exact && x->ndim != 2))
    return lt_fail(err, LT_EARG, "%s must have %s2 dims, got %d", what, exact ? "" : "at least ",
                   x->ndim);
  if (x->dtype != LT_FLOAT32 && x->dtype != LT_FLOAT64)
    return lt_fail(err, LT_EARG, "only float32 and float64 are supported, %s got %s", what,
                   lt_dtype_name(x->dtype));
  return LT_OK;
}

static int check_p(double p, lt_error *err) {
  if (!(p >= 0)) return lt_fail(err, LT_EARG, "p must be a non-negative number, got %g", p);
  return LT_OK;
}

/* The result's batch shape (*nb dims into shape) and the batch strides of x1 and x2 in c. */
static int batch_shape(const lt_tensor *x1, const lt_tensor *x2, int *nb, int64_t *shape,
                       rows_ctx *c, lt_error *err) {
  int n1 = x1->ndim - 2, n2 = x2->ndim - 2, n = n1 > n2 ? n1 : n2;
  int64_t st1 = x1->shape[n1] * x1->shape[n1 + 1], st2 = x2->shape[n2] * x2->shape[n2 + 1];
  for (int d = n - 1; d >= 0; d--) {
    int d1 = d - (n - n1), d2 = d - (n - n2);
    int64_t z1 = d1 >= 0 ? x1->shape[d1] : 1, z2 = d2 >= 0 ? x2->shape[d2] : 1;
    if (z1 != z2 && z1 != 1 && z2 != 1) {
      char b1[128], b2[128];
      lt_shape_str(n1, x1->shape, b1, sizeof b1);
      lt_shape_str(n2, x2->shape, b2, sizeof b2);
      return lt_fail(err, LT_EARG, "batch dims %s of x1 and %s of x2 do not broadcast", b1, b2);
    }
    shape[d] = z1 == 1 ? z2 : z1;
    c->s1[d] = z1 == 1 ? 0 : st1;
    c->s2[d] = z2 == 1 ? 0 : st2;
    st1 *= z1;
    st2 *= z2;
  }
  *nb = n;
  return LT_OK;
}

/* }====== */

/* {====== cdist and pdist ====== */

/* The rows of c computed into the new result o: the product form (o holds the dot products)
   or directly. */
static int run_rows(rows_ctx *c, int64_t nrows, int mm, int64_t n1, int64_t n2, lt_error *err) {
  void *na = NULL, *nb = NULL;
  size_t es = lt_dtypes[c->dt].size;
  if (mm) {
    int rc = square_norms(c->dt, c->a, n1, c->M, &na, err);
    if (!rc) rc = square_norms(c->dt, c->b, n2, c->M, &nb, err);
    if (rc) {
      free(na);
      return rc;
    }
    c->na = na;
    c->nb2 = nb;
  }
  double item = (double)c->R * (double)es * (mm ? 2.0 : (double)(c->M > 0 ? c->M : 1));
  if (nrows > 0) lt_pool_run(nrows, lt_pool_grain(nrows, item), rows_piece, c);
  free(na);
  free(nb);
  return LT_OK;
}

/* The product form's products straight into the new result o (not initialised) through the
   BLAS, -2 a.b, one gemm per batch entry: 1 when done, 0 when the BLAS cannot take them (none,
   switched off, sizes beyond its int, its guard refusing the run). */
static int blas_products(rows_ctx *c, int64_t nbatch) {
#ifdef LTENSOR_HAVE_BLAS
  if (!lt_blas_active(c->dt) || !lt_blas_fits(c->P) || !lt_blas_fits(c->R) || !lt_blas_fits(c->M) ||
      !lt_blas_enter())
    return 0;
  const double alpha[2] = {-2, 0}, beta[2] = {0, 0};
  size_t es = lt_dtypes[c->dt].size;
  for (int64_t k = 0; k < nbatch; k++) {
    int64_t o1, o2;
    batch_offsets(c, k, &o1, &o2);
    lt_blas_gemm(c->dt, 0, 1, (int)c->P, (int)c->R, (int)c->M, alpha, c->a + (size_t)o1 * es,
                 (int)c->M, c->b + (size_t)o2 * es, (int)c->M, beta,
                 c->o + (size_t)(k * c->P * c->R) * es, (int)c->R);
  }
  lt_blas_leave();
  c->gk = 1;
  return 1;
#else
  (void)c, (void)nbatch;
  return 0;
#endif
}

/* The product form's products into *o: through the BLAS, else lt_matmul (x1 times x2
   transposed: a.b, ltensor's own kernel without a BLAS). */
static int products(rows_ctx *c, const lt_tensor *x1, const lt_tensor *x2, int nd,
                    const int64_t *shape, int64_t nbatch, lt_tensor **o, lt_error *err) {
  int rc = lt_tensor_new(c->dt, nd, shape, 0, o, err);
  if (rc) return rc;
  c->o = lt_data(*o);
  if (blas_products(c, nbatch)) return LT_OK;
  lt_tensor_free(*o);
  *o = NULL;
  lt_tensor *t2 = NULL;
  rc = lt_transpose(x2, x2->ndim - 2, x2->ndim - 1, &t2, err);
  if (!rc) rc = lt_matmul(x1, t2, o, err);
  lt_tensor_free(t2);
  if (!rc) c->o = lt_data(*o), c->gk = -2;
  return rc;
}

int lt_cdist(const lt_tensor *x1, const lt_tensor *x2, double p, lt_cdist_mode mode,
             lt_tensor **out, lt_error *err) {
  int rc;
  if ((rc = check_operand(x1, "x1", 0, err)) || (rc = check_operand(x2, "x2", 0, err)) ||
      (rc = check_p(p, err)))
    return rc;
  if (x1->dtype != x2->dtype)
    return lt_fail(err, LT_EARG, "x1 and x2 must have the same dtype, got %s and %s",
                   lt_dtype_name(x1->dtype), lt_dtype_name(x2->dtype));
  rows_ctx c = {.dt = x1->dtype, .k = kind_of(p, x1->dtype)};
  c.p = c.k == P_ANY ? p : 0; /* then within T's range */
  c.P = x1->shape[x1->ndim - 2], c.R = x2->shape[x2->ndim - 2], c.M = x1->shape[x1->ndim - 1];
  if (x2->shape[x2->ndim - 1] != c.M)
    return lt_fail(err, LT_EARG,
                   "x1 and x2 must have the same number of columns, got %lld and %lld",
                   (long long)c.M, (long long)x2->shape[x2->ndim - 1]);
  int64_t shape[LT_MAX_NDIM], nrows;
  if ((rc = batch_shape(x1, x2, &c.nb, shape, &c, err))) return rc;
  c.bshape = shape;
  shape[c.nb] = c.P, shape[c.nb + 1] = c.R;
  if ((rc = lt_shape_numel(c.nb + 1, shape, &nrows, err))) return rc;
  int mm = c.k == P_TWO && c.M > 0 && nrows > 0 && c.R > 0 &&
           (mode == LT_CDIST_MM || (mode == LT_CDIST_MM_IF_NEEDED && (c.P > 25 || c.R > 25)));
  const lt_tensor *a, *b;
  lt_tensor *oa = NULL, *ob = NULL, *o = NULL;
  if ((rc = lt_contiguous_as(x1, c.dt, &a, &oa, err)) ||
      (rc = lt_contiguous_as(x2, c.dt, &b, &ob, err)))
    goto done;
  c.a = lt_data(a), c.b = lt_data(b);
  if (mm)
    rc = products(&c, a, b, c.nb + 2, shape, nrows / c.P, &o, err);
  else if (!(rc = lt_tensor_new(c.dt, c.nb + 2, shape, 1, &o, err)))
    c.o = lt_data(o);
  if (rc) goto done;
  rc = run_rows(&c, nrows, mm, lt_numel(a) / (c.M ? c.M : 1), lt_numel(b) / (c.M ? c.M : 1), err);
done:
  lt_tensor_free(oa);
  lt_tensor_free(ob);
  return lt_give(rc, o, out);
}

typedef struct {
  lt_dtype dt;
  const char *x;
  char *o;
  int64_t N, M;
  p_kind k;
  double p;
} pdist_ctx;

/* Rows i in [lo, hi): the distances of row i to rows j > i, from position i (2N - i - 1) / 2. */
#define PDIST_ROWS(E, T)                                                           \
  static void pdist_##E(const pdist_ctx *c, int64_t lo, int64_t hi) {              \
    const T *x = (const T *)(const void *)c->x;                                    \
    T *o = (T *)(void *)c->o;                                                      \
    for (int64_t i = lo; i < hi; i++) {                                            \
      T *oi = o + i * (2 * c->N - i - 1) / 2;                                      \
      for (int64_t j = i + 1; j < c->N; j++)                                       \
        oi[j - i - 1] = dist_##E(x + i * c->M, x + j * c->M, c->M, c->k, (T)c->p); \
    }                                                                              \
  }
PDIST_ROWS(FLOAT32, float)
PDIST_ROWS(FLOAT64, double)

static int pdist_piece(void *vc, int64_t lo, int64_t hi) {
  const pdist_ctx *c = vc;
  if (c->dt == LT_FLOAT32)
    pdist_FLOAT32(c, lo, hi);
  else
    pdist_FLOAT64(c, lo, hi);
  return 0;
}

int lt_pdist(const lt_tensor *x, double p, lt_tensor **out, lt_error *err) {
  int rc;
  if ((rc = check_operand(x, "input", 1, err)) || (rc = check_p(p, err))) return rc;
  pdist_ctx c = {.dt = x->dtype, .N = x->shape[0], .M = x->shape[1], .k = kind_of(p, x->dtype)};
  c.p = c.k == P_ANY ? p : 0; /* then within T's range */
  int64_t n = 0;
  if (c.N > 1 && (rc = lt_size_mul(c.N, c.N - 1, &n, err))) return rc;
  n /= 2;
  const lt_tensor *a;
  lt_tensor *oa = NULL, *o = NULL;
  if ((rc = lt_contiguous_as(x, c.dt, &a, &oa, err)) ||
      (rc = lt_tensor_new(c.dt, 1, &n, 1, &o, err)))
    goto done;
  c.x = lt_data(a), c.o = lt_data(o);
  double item = (double)c.N * (double)lt_dtypes[c.dt].size * (double)(c.M > 0 ? c.M : 1) / 2;
  if (n > 0) lt_pool_run(c.N, lt_pool_grain(c.N, item), pdist_piece, &c);
done:
  lt_tensor_free(oa);
  return lt_give(rc, o, out);
}

/* }====== */
