/*
 * lt_scan.c -- cumsum, cumprod, logcumsumexp, cummax, cummin, searchsorted, bincount and histc (see
 * lt_scan.h). Lua-free.
 *
 * The scans see the input, made contiguous in the dtype they compute in (int64, float32 or
 * float64; a complex sum as pairs of reals), as outer x n x inner: the dim is n. Three ways to
 * walk it, chosen by the shape only (never the thread count): a dim that is not the innermost
 * runs blocks of up to BLOCK neighbouring columns at once, their accumulators side by side;
 * short innermost rows run one after another; one long innermost row (at least LONG_ROW) is cut
 * into CHUNK-element chunks whose totals are folded first (in parallel, 8 accumulators each in
 * a fixed order), then the chunks are scanned from their offsets, GROUP chunks interleaved per
 * piece so that their dependency chains overlap (a running sum is otherwise one addition's
 * latency per element). Every piece goes through the pool (lt_pool_run). Float32, float16 and
 * bfloat16 accumulate in float64, as torch on the CPU.
 *
 * Calls lt_copy.c, lt_tensor.c, lt_pool.c, lt_promote.c, lt_sort.h's keys. Called by the
 * binding.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_pool.h"
#include "lt_promote.h"
#include "lt_scan.h"
#include "lt_sort.h"

/* {====== cumsum and cumprod ====== */

#define BLOCK 256
#define CHUNK 8192
#define GROUP 4
#define LONG_ROW ((int64_t)1 << 16)

enum { W_I64, W_F32, W_F64 };

typedef struct scan_ctx scan_ctx;
typedef void (*range_fn)(const scan_ctx *, int64_t, int64_t); /* items [lo, hi) of a kernel */

struct scan_ctx {
  int op, w;               /* lt_cumop, W_* */
  const char *x;           /* outer x n x inner, contiguous */
  char *y;                 /* the same layout */
  int64_t outer, n, inner; /* inner in reals (complex: twice the elements) */
  int64_t nblk;            /* column blocks per outer (inner > 1) */
  double *fpart;           /* long row: chunk totals, then offsets (float kinds) */
  uint64_t *ipart;         /* the same for int64 */
  range_fn k;              /* the kernel the pool's pieces run (run_kernel) */
};

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))

/* Kernels for elements T accumulated in A, combined by OP (identity ID); a long row's chunk
   totals and offsets in c->PART. */
#define SCAN_FNS(SUF, T, A, OP, ID, PART)                                                   \
  /* rows [lo, hi) of an innermost dim, each on its own */                                  \
  static void rows_##SUF(const scan_ctx *c, int64_t lo, int64_t hi) {                       \
    for (int64_t r = lo; r < hi; r++) {                                                     \
      const T *x = (const T *)c->x + r * c->n;                                              \
      T *y = (T *)c->y + r * c->n;                                                          \
      A acc = ID;                                                                           \
      for (int64_t i = 0; i < c->n; i++) y[i] = (T)(acc = OP(acc, (A)x[i]));                \
    }                                                                                       \
  }                                                                                         \
  /* column blocks [lo, hi) of a dim that is not innermost */                               \
  static void cols_##SUF(const scan_ctx *c, int64_t lo, int64_t hi) {                       \
    A acc[BLOCK];                                                                           \
    for (int64_t b = lo; b < hi; b++) {                                                     \
      int64_t o = b / c->nblk, j0 = (b % c->nblk) * BLOCK;                                  \
      int64_t w = c->inner - j0 < BLOCK ? c->inner - j0 : BLOCK;                            \
      const T *x = (const T *)c->x + o * c->n * c->inner + j0;                              \
      T *y = (T *)c->y + o * c->n * c->inner + j0;                                          \
      for (int64_t j = 0; j < w; j++) acc[j] = ID;                                          \
      for (int64_t i = 0; i < c->n; i++, x += c->inner, y += c->inner)                      \
        for (int64_t j = 0; j < w; j++) y[j] = (T)(acc[j] = OP(acc[j], (A)x[j]));           \
    }                                                                                       \
  }                                                                                         \
  /* totals of chunks [lo, hi) of one long row */                                           \
  static void fold_##SUF(const scan_ctx *c, int64_t lo, int64_t hi) {                       \
    A *part = c->PART;                                                                      \
    for (int64_t k = lo; k < hi; k++) {                                                     \
      const T *x = (const T *)c->x + k * CHUNK;                                             \
      int64_t len = c->n - k * CHUNK < CHUNK ? c->n - k * CHUNK : CHUNK, i = 0;             \
      A s[8] = {ID, ID, ID, ID, ID, ID, ID, ID};                                            \
      for (; i + 8 <= len; i += 8)                                                          \
        for (int g = 0; g < 8; g++) s[g] = OP(s[g], (A)x[i + g]);                           \
      for (; i < len; i++) s[0] = OP(s[0], (A)x[i]);                                        \
      part[k] = OP(OP(OP(s[0], s[1]), OP(s[2], s[3])), OP(OP(s[4], s[5]), OP(s[6], s[7]))); \
    }                                                                                       \
  }                                                                                         \
  /* chunk groups [lo, hi) of one long row, scanned from their offsets off */               \
  static void chunks_##SUF(const scan_ctx *c, int64_t lo, int64_t hi) {                     \
    const A *off = c->PART;                                                                 \
    const int64_t nch = (c->n + CHUNK - 1) / CHUNK;                                         \
    for (int64_t gi = lo; gi < hi; gi++) {                                                  \
      int64_t k0 = gi * GROUP, full = 0;                                                    \
      A acc[GROUP];                                                                         \
      while (full < GROUP && k0 + full < nch && (k0 + full + 1) * CHUNK <= c->n) {          \
        acc[full] = off[k0 + full];                                                         \
        full++;                                                                             \
      }                                                                                     \
      const T *x = (const T *)c->x + k0 * CHUNK;                                            \
      T *y = (T *)c->y + k0 * CHUNK;                                                        \
      if (full == GROUP) {                                                                  \
        for (int64_t i = 0; i < CHUNK; i++)                                                 \
          for (int g = 0; g < GROUP; g++)                                                   \
            y[g * CHUNK + i] = (T)(acc[g] = OP(acc[g], (A)x[g * CHUNK + i]));               \
        continue;                                                                           \
      }                                                                                     \
      for (int64_t k = k0; k < k0 + GROUP && k < nch; k++) { /* the row's last group */     \
        A a = off[k];                                                                       \
        int64_t len = c->n - k * CHUNK < CHUNK ? c->n - k * CHUNK : CHUNK;                  \
        const T *xk = (const T *)c->x + k * CHUNK;                                          \
        T *yk = (T *)c->y + k * CHUNK;                                                      \
        for (int64_t i = 0; i < len; i++) yk[i] = (T)(a = OP(a, (A)xk[i]));                 \
      }                                                                                     \
    }                                                                                       \
  }

SCAN_FNS(sum_i64, int64_t, uint64_t, ADD, 0, ipart)
SCAN_FNS(prod_i64, int64_t, uint64_t, MUL, 1, ipart)
SCAN_FNS(sum_f32, float, double, ADD, 0, fpart)
SCAN_FNS(prod_f32, float, double, MUL, 1, fpart)
SCAN_FNS(sum_f64, double, double, ADD, 0, fpart)
SCAN_FNS(prod_f64, double, double, MUL, 1, fpart)

/* The kernel set of a scan: [op][w]. */
#define KSET(NAME)                                      \
  {                                                     \
    {NAME##_sum_i64, NAME##_sum_f32, NAME##_sum_f64}, { \
      NAME##_prod_i64, NAME##_prod_f32, NAME##_prod_f64 \
    }                                                   \
  }
static const range_fn rows_k[2][3] = KSET(rows), cols_k[2][3] = KSET(cols),
                      fold_k[2][3] = KSET(fold), chunks_k[2][3] = KSET(chunks);

static int piece(void *vc, int64_t lo, int64_t hi) {
  const scan_ctx *c = vc;
  c->k(c, lo, hi);
  return 0;
}

/* Runs the kernel of c's op and width among ks over items [0, items) on the pool's threads,
   each item costing about `bytes` of memory traffic. */
static void run_kernel(scan_ctx *c, const range_fn ks[2][3], int64_t items, double bytes) {
  c->k = ks[c->op][c->w];
  lt_pool_run(items, lt_pool_grain(items, bytes), piece, c);
}

/* One long row (c->x, c->y moved to it): chunk totals, offsets in chunk order, chunk scans. */
static int long_row(scan_ctx *c, lt_error *err) {
  const int64_t nch = (c->n + CHUNK - 1) / CHUNK, ngr = (nch + GROUP - 1) / GROUP;
  const size_t es = c->w == W_F32 ? 4 : 8;
  void *part = malloc((size_t)nch * 8);
  if (!part) return lt_fail(err, LT_ENOMEM, "out of memory");
  c->fpart = part;
  c->ipart = part;
  run_kernel(c, fold_k, nch, (double)CHUNK * (double)es);
  if (c->w == W_I64) {
    uint64_t acc = c->op == LT_CUMSUM ? 0 : 1;
    for (int64_t k = 0; k < nch; k++) {
      uint64_t t = c->ipart[k];
      c->ipart[k] = acc;
      acc = c->op == LT_CUMSUM ? acc + t : acc * t;
    }
  } else {
    double acc = c->op == LT_CUMSUM ? 0 : 1;
    for (int64_t k = 0; k < nch; k++) {
      double t = c->fpart[k];
      c->fpart[k] = acc;
      acc = c->op == LT_CUMSUM ? acc + t : acc * t;
    }
  }
  run_kernel(c, chunks_k, ngr, (double)CHUNK * GROUP * 2 * (double)es);
  free(part);
  return LT_OK;
}

/* Complex cumprod (complex products mix the parts): one (outer, column) line at a time. */
static void cprod_lines(const lt_tensor *x, lt_tensor *y, int64_t outer, int64_t n, int64_t inner) {
  const int c128 = x->dtype == LT_COMPLEX128;
  const char *xp = lt_data(x);
  char *yp = lt_data(y);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      double re = 1, im = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t e = (o * n + i) * inner + j;
        double a, b;
        if (c128) {
          a = ((const lt_c128 *)xp)[e].re;
          b = ((const lt_c128 *)xp)[e].im;
        } else {
          a = ((const lt_c64 *)xp)[e].re;
          b = ((const lt_c64 *)xp)[e].im;
        }
        double r2 = re * a - im * b;
        im = re * b + im * a;
        re = r2;
        if (c128) {
          ((lt_c128 *)yp)[e].re = re;
          ((lt_c128 *)yp)[e].im = im;
        } else {
          ((lt_c64 *)yp)[e].re = (float)re;
          ((lt_c64 *)yp)[e].im = (float)im;
        }
      }
    }
}

/* outer, n and inner of t (not 0-d) around dim. */
static void split_dims(const lt_tensor *t, int dim, int64_t *outer, int64_t *n, int64_t *inner) {
  *outer = *inner = 1;
  for (int i = 0; i < dim; i++) *outer *= t->shape[i];
  for (int i = dim + 1; i < t->ndim; i++) *inner *= t->shape[i];
  *n = t->shape[dim];
}

/* t's dim checked, a 0-d tensor's dim 0 accepted. */
static int check_scan_dim(const lt_tensor *t, int dim, lt_error *err) {
  if (t->ndim == 0) return dim == 0 ? LT_OK : lt_dim_error(err, dim, 1);
  return lt_check_dim(t, dim, err);
}

int lt_cumulate(lt_cumop op, const lt_tensor *t, int dim, lt_dtype dt, lt_tensor **out,
                lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc || (rc = check_scan_dim(t, dim, err))) return rc;
  const lt_tensor *src = t, *x = NULL;
  lt_tensor *cast = NULL, *owned = NULL, *y = NULL;
  if (dt != LT_NDTYPES && dt != t->dtype) {
    if ((rc = lt_cast(t, dt, &cast, err))) return rc;
    src = cast;
  }
  lt_dtype rd = dt != LT_NDTYPES                                    ? dt
                : lt_dtypes[t->dtype].is_int || t->dtype == LT_BOOL ? LT_INT64
                                                                    : t->dtype;
  const int cpx = lt_dtypes[rd].is_complex;
  lt_dtype wd = rd == LT_FLOAT64 || rd == LT_COMPLEX128 ? LT_FLOAT64 /* as reals */
                : lt_dtypes[rd].is_float || cpx         ? LT_FLOAT32
                                                        : LT_INT64;
  if ((rc = lt_contiguous_as(src, cpx ? rd : wd, &x, &owned, err)) ||
      (rc = lt_tensor_new(cpx ? rd : wd, t->ndim, t->shape, 0, &y, err)))
    goto done;
  int64_t outer = 1, n = 1, inner = 1;
  if (t->ndim) split_dims(t, dim, &outer, &n, &inner);
  if (lt_numel(t) > 0) {
    if (cpx && op == LT_CUMPROD) {
      cprod_lines(x, y, outer, n, inner);
    } else {
      if (cpx) inner *= 2;
      scan_ctx c = {op,         wd == LT_INT64 ? W_I64 : wd == LT_FLOAT32 ? W_F32 : W_F64,
                    lt_data(x), lt_data(y),
                    outer,      n,
                    inner,      (inner + BLOCK - 1) / BLOCK,
                    NULL,       NULL,
                    NULL};
      const double es = wd == LT_FLOAT32 ? 4 : 8;
      if (inner > 1) {
        int64_t items = outer * c.nblk;
        run_kernel(&c, cols_k, items, (double)n * BLOCK * 2 * es);
      } else if (n >= LONG_ROW) {
        for (int64_t r = 0; r < outer && !rc; r++) {
          scan_ctx rc1 = c;
          rc1.x = c.x + r * n * (int64_t)es;
          rc1.y = c.y + r * n * (int64_t)es;
          rc = long_row(&rc1, err);
        }
        if (rc) goto done;
      } else {
        run_kernel(&c, rows_k, outer, (double)n * 2 * es);
      }
    }
  }
  rc = lt_cast_over(&y, rd, err);
done:
  lt_tensor_free(cast);
  lt_tensor_free(owned);
  return lt_give(rc, y, out);
}

/* log(exp(a) + exp(b)), -inf the identity, NaN kept. */
static double log_add_exp(double a, double b) {
  if (a != a || b != b) return NAN;
  double m = a > b ? a : b;
  if (m == -INFINITY || m == INFINITY) return m;
  return m + log1p(exp(-fabs(a - b)));
}

int lt_logcumsumexp(const lt_tensor *t, int dim, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc || (rc = check_scan_dim(t, dim, err))) return rc;
  if (!lt_dtypes[t->dtype].is_float)
    return lt_fail(err, LT_EARG, "not supported for %s (floating point expected)",
                   lt_dtype_name(t->dtype));
  lt_tensor *y = NULL;
  if ((rc = lt_cast(t, LT_FLOAT64, &y, err))) return rc; /* scanned in place */
  int64_t outer = 1, n = 1, inner = 1;
  if (t->ndim) split_dims(t, dim, &outer, &n, &inner);
  double *v = (double *)lt_data(y);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      double acc = -INFINITY;
      for (int64_t i = 0; i < n; i++) {
        double *e = &v[(o * n + i) * inner + j];
        *e = acc = log_add_exp(acc, *e);
      }
    }
  rc = lt_cast_over(&y, t->dtype, err);
  return lt_give(rc, y, out);
}

/* }====== */

/* {====== cummax and cummin ====== */

typedef struct {
  const char *x;
  char *v;
  int64_t *ix;
  int64_t n, inner, base;
  lt_dtype dt;
  size_t es;
  int is_max;
} ext_ctx;

/* Lines [lo, hi) (outer x inner of them), each along n. torch's rule: a NaN always takes over;
   otherwise x takes over when x >= best (x <= best for the minimum) and best is not NaN. */
static int ext_piece(void *vc, int64_t lo, int64_t hi) {
  const ext_ctx *c = vc;
  const int fl = lt_dtypes[c->dt].is_float;
  for (int64_t l = lo; l < hi; l++) {
    int64_t o = l / c->inner, j = l % c->inner;
    int64_t e0 = o * c->n * c->inner + j, bi = 0;
    uint64_t bk = lt_order_key(c->dt, c->x + e0 * (int64_t)c->es);
    int bnan = fl && lt_key_is_nan(c->dt, bk);
    for (int64_t i = 0; i < c->n; i++) {
      int64_t e = e0 + i * c->inner;
      uint64_t k = lt_order_key(c->dt, c->x + e * (int64_t)c->es);
      int knan = fl && lt_key_is_nan(c->dt, k);
      if (knan || (!bnan && (c->is_max ? k >= bk : k <= bk))) {
        bk = k;
        bi = i;
        bnan = knan;
      }
      memcpy(c->v + e * (int64_t)c->es, c->x + (e0 + bi * c->inner) * (int64_t)c->es, c->es);
      c->ix[e] = bi + c->base;
    }
  }
  return 0;
}

int lt_cumextreme(const lt_tensor *t, int dim, int is_max, int64_t base, lt_tensor **values,
                  lt_tensor **indices, lt_error *err) {
  int rc = lt_check_ordered(t, err);
  if (rc || (rc = check_scan_dim(t, dim, err))) return rc;
  const lt_tensor *x = NULL;
  lt_tensor *owned = NULL, *v = NULL, *ix = NULL;
  if ((rc = lt_contiguous_as(t, t->dtype, &x, &owned, err)) ||
      (rc = lt_tensor_new(t->dtype, t->ndim, t->shape, 0, &v, err)) ||
      (rc = lt_tensor_new(LT_INT64, t->ndim, t->shape, 0, &ix, err)))
    goto done;
  int64_t outer = 1, n = 1, inner = 1;
  if (t->ndim) split_dims(t, dim, &outer, &n, &inner);
  if (lt_numel(t) > 0) {
    ext_ctx c = {lt_data(x), lt_data(v), (int64_t *)lt_data(ix),   n,     inner,
                 base,       t->dtype,   lt_dtypes[t->dtype].size, is_max};
    int64_t lines = outer * inner;
    lt_pool_run(lines, lt_pool_grain(lines, (double)n * (double)(c.es * 2 + 8) * 2), ext_piece, &c);
  }
done:
  lt_tensor_free(owned);
  if (rc) {
    lt_tensor_free(v);
    lt_tensor_free(ix);
    return rc;
  }
  *values = v;
  *indices = ix;
  return LT_OK;
}

/* }====== */

/* {====== searchsorted ====== */

typedef struct {
  const char *s, *v; /* sequence rows of n, values (rows of nv when the sequence has rows) */
  int64_t n, nv, base;
  int rows, right, i32;
  lt_dtype dt;
  size_t es;
  void *out;
} ss_ctx;

static int ss_piece(void *vc, int64_t lo, int64_t hi) {
  const ss_ctx *c = vc;
  for (int64_t i = lo; i < hi; i++) {
    const char *s = c->s + (c->rows ? i / c->nv * c->n * (int64_t)c->es : 0);
    uint64_t k = lt_order_key(c->dt, c->v + i * (int64_t)c->es);
    int64_t a = 0, b = c->n; /* the first position in [a, b) whose key is >= k (> k: right) */
    if (lt_key_is_nan(c->dt, k)) a = b; /* after every element, either side (torch) */
    while (a < b) {
      int64_t mid = a + (b - a) / 2;
      uint64_t m = lt_order_key(c->dt, s + mid * (int64_t)c->es);
      if (c->right ? m <= k : m < k)
        a = mid + 1;
      else
        b = mid;
    }
    if (c->i32)
      ((int32_t *)c->out)[i] = (int32_t)(a + c->base);
    else
      ((int64_t *)c->out)[i] = a + c->base;
  }
  return 0;
}

int lt_searchsorted(const lt_tensor *seq, const lt_tensor *v, int right, int out_int32,
                    int64_t base, lt_tensor **out, lt_error *err) {
  int rc = lt_check_ordered(seq, err);
  if (rc || (rc = lt_check_ordered(v, err))) return rc;
  if (seq->ndim == 0) return lt_fail(err, LT_EARG, "the sorted sequence must have at least 1 dim");
  int rows = seq->ndim > 1;
  if (rows) {
    int same = v->ndim == seq->ndim;
    for (int i = 0; same && i < seq->ndim - 1; i++) same = v->shape[i] == seq->shape[i];
    if (!same) {
      char a[128], b[128];
      lt_shape_str(seq->ndim - 1, seq->shape, a, sizeof a);
      lt_shape_str(v->ndim > 0 ? v->ndim - 1 : 0, v->shape, b, sizeof b);
      return lt_fail(err, LT_EARG,
                     "the leading dims of the sorted sequence %s and of the values %s differ "
                     "(or use a 1-d sequence)",
                     a, b);
    }
  }
  int64_t n = seq->shape[seq->ndim - 1];
  if (out_int32 && n + base > INT32_MAX)
    return lt_fail(err, LT_ERANGE, "positions do not fit int32 (%lld elements)", (long long)n);
  lt_dtype dt = lt_promote(seq->dtype, v->dtype);
  const lt_tensor *s = NULL, *x = NULL;
  lt_tensor *os = NULL, *ox = NULL, *r = NULL;
  if ((rc = lt_contiguous_as(seq, dt, &s, &os, err)) ||
      (rc = lt_contiguous_as(v, dt, &x, &ox, err)) ||
      (rc = lt_tensor_new(out_int32 ? LT_INT32 : LT_INT64, v->ndim, v->shape, 0, &r, err)))
    goto done;
  int64_t nv = v->ndim ? v->shape[v->ndim - 1] : 1, total = lt_numel(v);
  if (total > 0) {
    ss_ctx c = {lt_data(s), lt_data(x),         n,         nv, base, rows, right, out_int32,
                dt,         lt_dtypes[dt].size, lt_data(r)};
    lt_pool_run(total, lt_pool_grain(total, 64.0 * 8), ss_piece, &c);
  }
done:
  lt_tensor_free(os);
  lt_tensor_free(ox);
  return lt_give(rc, r, out);
}

/* }====== */

/* {====== bincount and histc ====== */

int lt_bincount(const lt_tensor *t, const lt_tensor *weights, int64_t minlength, lt_tensor **out,
                lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc || (weights && (rc = lt_check_readable(weights, err)))) return rc;
  if (t->ndim != 1 || !lt_dtypes[t->dtype].is_int)
    return lt_fail(err, LT_EARG, "expected a 1-d tensor of non-negative integers, got %d-d %s",
                   t->ndim, lt_dtype_name(t->dtype));
  if (minlength < 0)
    return lt_fail(err, LT_ERANGE, "minlength must be non-negative, got %lld",
                   (long long)minlength);
  if (weights && (weights->ndim != 1 || weights->shape[0] != t->shape[0]))
    return lt_fail(err, LT_EARG, "weights must be 1-d of the input's length %lld",
                   (long long)t->shape[0]);
  if (weights && lt_dtypes[weights->dtype].is_complex)
    return lt_fail(err, LT_EARG, "weights must be real, got %s", lt_dtype_name(weights->dtype));
  const lt_tensor *x = NULL, *w = NULL;
  lt_tensor *ox = NULL, *ow = NULL, *r = NULL;
  lt_dtype rd = !weights ? LT_INT64 : weights->dtype == LT_FLOAT32 ? LT_FLOAT32 : LT_FLOAT64;
  const int u64 = t->dtype == LT_UINT64;
  if ((rc = lt_contiguous_as(t, LT_INT64, &x, &ox, err)) ||
      (weights && (rc = lt_contiguous_as(weights, LT_FLOAT64, &w, &ow, err))))
    goto done;
  const int64_t n = t->shape[0], *xv = (const int64_t *)lt_data(x);
  int64_t size = minlength;
  for (int64_t i = 0; i < n; i++) {
    if (xv[i] < 0 || (u64 && xv[i] == INT64_MAX)) {
      if (u64 || xv[i] == INT64_MAX) {
        rc = lt_fail(err, LT_ERANGE, "value %llu is too large to count",
                     (unsigned long long)(uint64_t)xv[i]);
      } else {
        rc = lt_fail(err, LT_ERANGE, "values must be non-negative, got %lld", (long long)xv[i]);
      }
      goto done;
    }
    if (xv[i] >= size) size = xv[i] + 1;
  }
  if ((rc = lt_tensor_new(weights ? LT_FLOAT64 : LT_INT64, 1, &size, 1, &r, err))) goto done;
  if (weights) {
    double *acc = (double *)lt_data(r);
    const double *wv = (const double *)lt_data(w);
    for (int64_t i = 0; i < n; i++) acc[xv[i]] += wv[i];
  } else {
    int64_t *acc = (int64_t *)lt_data(r);
    for (int64_t i = 0; i < n; i++) acc[xv[i]]++;
  }
  rc = lt_cast_over(&r, rd, err);
done:
  lt_tensor_free(ox);
  lt_tensor_free(ow);
  return lt_give(rc, r, out);
}

/* Element i of the contiguous float tensor x as a double. */
static double load_float(lt_dtype dt, const char *p, int64_t i) {
  switch (dt) {
    case LT_FLOAT16: return lt_f16_to_f32(((const uint16_t *)p)[i]);
    case LT_BFLOAT16: return lt_bf16_to_f32(((const uint16_t *)p)[i]);
    case LT_FLOAT32: return ((const float *)p)[i];
    default: return ((const double *)p)[i];
  }
}

int lt_histc(const lt_tensor *t, int64_t bins, double lo, double hi, lt_tensor **out,
             lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (!lt_dtypes[t->dtype].is_float)
    return lt_fail(err, LT_EARG, "not implemented for %s (a floating dtype is expected)",
                   lt_dtype_name(t->dtype));
  if (bins <= 0) return lt_fail(err, LT_ERANGE, "bins must be positive, got %lld", (long long)bins);
  if (lo > hi) return lt_fail(err, LT_EARG, "max must be larger than min");
  const lt_tensor *x = NULL;
  lt_tensor *ox = NULL, *r = NULL, *c = NULL;
  if ((rc = lt_contiguous_as(t, t->dtype, &x, &ox, err))) return rc;
  const int64_t n = lt_numel(t);
  const char *p = lt_data(x);
  const int f32 = t->dtype != LT_FLOAT64; /* the edges and the arithmetic in float, as torch */
  if (lo == hi && n > 0) {
    lo = INFINITY;
    hi = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
      double e = load_float(t->dtype, p, i);
      if (e != e) {
        lo = hi = e;
        break;
      }
      lo = e < lo ? e : lo;
      hi = e > hi ? e : hi;
    }
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  if (f32) {
    lo = (float)lo;
    hi = (float)hi;
  }
  if (!isfinite(lo) || !isfinite(hi)) {
    rc = lt_fail(err, LT_EARG, "range of [%g, %g] is not finite", lo, hi);
    goto done;
  }
  if ((rc = lt_tensor_new(LT_INT64, 1, &bins, 1, &r, err))) goto done;
  int64_t *cnt = (int64_t *)lt_data(r);
  for (int64_t i = 0; i < n; i++) {
    double e = load_float(t->dtype, p, i);
    if (!(e >= lo && e <= hi)) continue;
    int64_t pos = f32 ? (int64_t)(((float)e - (float)lo) * (float)bins / ((float)hi - (float)lo))
                      : (int64_t)((e - lo) * (double)bins / (hi - lo));
    if (pos >= bins) pos = bins - 1;
    cnt[pos]++;
  }
  if ((rc = lt_cast(r, t->dtype, &c, err))) goto done;
done:
  lt_tensor_free(ox);
  lt_tensor_free(r);
  if (rc) return rc;
  *out = c;
  return LT_OK;
}

/* }====== */
