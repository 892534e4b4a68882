/*
 * lt_linalg_small.c -- inv, det and solve of batches of 1x1 to 4x4 matrices, ltensor's own
 * (lt_linalg_small.h). The real kernels are lt_linalg_small_impl.h, included once per dtype; the
 * complex ones are here (scalar); this file also checks the operands, makes the results and
 * walks the batch.
 *
 * Calls lt_tensor.c. Called by the lt.linalg core and spec/c/test_linalg_small.c.
 */
#include "lt_linalg_small.h"

#include <math.h>
#include <string.h>

#include "lt_elementwise.h"

/* Matrices per block: one AVX2 vector's lanes (8 float32, 4 float64; SSE2 takes two vectors for
   one). VLANE(v, l) is lane l of a vector. */
#if defined(__GNUC__)
#define SMALL_VECTORS 1
#define LANES (32 / (int)sizeof(T))
#define VLANE(v, l) (v)[l]
/* Every lane x; m ? a : b lane by lane (m a mask: all bits set or none). Macros, so that no
   function takes or returns a vector (an ABI question without AVX). */
#define SPLAT(x) ((S(vec)){0} + (T)(x))
#define SEL(m, a, b) ((S(vec))(((S(mask))(a) & (m)) | ((S(mask))(b) & ~(m))))
#else
#define SMALL_VECTORS 0
#define LANES 1
#define VLANE(v, l) (v)
#define SPLAT(x) ((T)(x))
#define SEL(m, a, b) ((m) ? (a) : (b))
#endif

/* The bodies inlined into their callers' switch on n (constant loop bounds), and the callers
   cloned for AVX2 as the elementwise kernels are (lt_elementwise.h). */
#if defined(__GNUC__)
#define SMALL_INLINE inline __attribute__((always_inline))
#else
#define SMALL_INLINE inline
#endif
#define SMALL_CLONES LT_KCLONES

enum { SMALL_INV, SMALL_DET, SMALL_SOLVE };

/* The walk over a tensor's batch (its dims but the last two), in row-major order: off is the
   element offset of the current matrix from element (0, ..., 0); it wraps to 0 after the last. */
typedef struct {
  const lt_tensor *t;
  int nb;
  int64_t off, idx[LT_MAX_NDIM];
} walk;

static void walk_init(walk *w, const lt_tensor *t) {
  w->t = t, w->nb = t->ndim - 2, w->off = 0;
  memset(w->idx, 0, sizeof w->idx);
}

static void walk_next(walk *w) {
  for (int d = w->nb - 1; d >= 0; d--) {
    w->off += w->t->strides[d];
    if (++w->idx[d] < w->t->shape[d]) return;
    w->off -= w->t->strides[d] * w->t->shape[d];
    w->idx[d] = 0;
  }
}

#define T float
#define S(x) x##_f32
#define MI int32_t
#include "lt_linalg_small_impl.h"
#undef T
#undef S
#undef MI

#define T double
#define S(x) x##_f64
#define MI int64_t
#include "lt_linalg_small_impl.h"
#undef T
#undef S
#undef MI

/* {====== complex64 and complex128: one matrix at a time, in complex double ====== */

typedef struct {
  double re, im;
} cpx;

static cpx c_sub(cpx a, cpx b) { return (cpx){a.re - b.re, a.im - b.im}; }
static cpx c_mul(cpx a, cpx b) {
  return (cpx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
/* a / b by Smith's method (b != 0; |b|^2 never formed, so no overflow on the way). */
static cpx c_div(cpx a, cpx b) {
  if (!(fabs(b.re) < fabs(b.im))) {
    double r = b.im / b.re, d = b.re + b.im * r;
    return (cpx){(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  double r = b.re / b.im, d = b.re * r + b.im;
  return (cpx){(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
static cpx c_load(lt_dtype dt, const char *p, int64_t i) {
  if (dt == LT_COMPLEX64) return (cpx){((const lt_c64 *)p)[i].re, ((const lt_c64 *)p)[i].im};
  return (cpx){((const lt_c128 *)p)[i].re, ((const lt_c128 *)p)[i].im};
}
static void c_store(lt_dtype dt, void *p, int64_t i, cpx v) {
  if (dt == LT_COMPLEX64)
    ((lt_c64 *)p)[i] = (lt_c64){(float)v.re, (float)v.im};
  else
    ((lt_c128 *)p)[i] = (lt_c128){v.re, v.im};
}

/* zgetf2 on one n x n matrix m (row stride 4): pivots by |re| + |im| (izamax), the pivot row's
   index in piv; the first zero pivot (1-based) or 0; *det. */
static int c_lu(cpx *m, int n, int *piv, cpx *det) {
  int info = 0;
  *det = (cpx){1, 0};
  for (int k = 0; k < n; k++) {
    int p = k;
    double best = fabs(m[k * 4 + k].re) + fabs(m[k * 4 + k].im);
    for (int r = k + 1; r < n; r++) {
      double v = fabs(m[r * 4 + k].re) + fabs(m[r * 4 + k].im);
      if (v > best) best = v, p = r;
    }
    piv[k] = p;
    for (int c = 0; p != k && c < n; c++) {
      cpx t = m[k * 4 + c];
      m[k * 4 + c] = m[p * 4 + c], m[p * 4 + c] = t;
    }
    cpx d = m[k * 4 + k];
    *det = c_mul(p != k ? (cpx){-det->re, -det->im} : *det, d);
    if (d.re == 0 && d.im == 0) {
      if (!info) info = k + 1;
      continue; /* the column below is zero too: nothing to eliminate */
    }
    cpx rd = c_div((cpx){1, 0}, d);
    for (int r = k + 1; r < n; r++) {
      cpx f = c_mul(m[r * 4 + k], rd);
      m[r * 4 + k] = f;
      for (int c = k + 1; c < n; c++) m[r * 4 + c] = c_sub(m[r * 4 + c], c_mul(f, m[k * 4 + c]));
    }
  }
  return info;
}

/* zgetrs on one column x (a zero pivot divides as 1). */
static void c_subst(const cpx *m, int n, const int *piv, cpx *x) {
  for (int k = 0; k < n; k++)
    if (piv[k] != k) {
      cpx t = x[k];
      x[k] = x[piv[k]], x[piv[k]] = t;
    }
  for (int k = 0; k < n; k++)
    for (int r = k + 1; r < n; r++) x[r] = c_sub(x[r], c_mul(m[r * 4 + k], x[k]));
  for (int k = n - 1; k >= 0; k--) {
    cpx s = x[k], d = m[k * 4 + k];
    for (int c = k + 1; c < n; c++) s = c_sub(s, c_mul(m[k * 4 + c], x[c]));
    x[k] = d.re == 0 && d.im == 0 ? s : c_div(s, d);
  }
}

/* run()'s complex twin. */
static void run_cpx(const lt_tensor *a, const lt_tensor *rhs, int op, int64_t count, void *out,
                    int32_t *info) {
  int n = (int)a->shape[a->ndim - 1];
  int64_t k = op == SMALL_SOLVE ? rhs->shape[rhs->ndim - 1] : n;
  int64_t si = a->strides[a->ndim - 2], sj = a->strides[a->ndim - 1];
  walk wa, wb;
  walk_init(&wa, a);
  if (rhs) walk_init(&wb, rhs);
  for (int64_t mi = 0; mi < count; mi++) {
    cpx m[16], x[4], det;
    int piv[4];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        m[i * 4 + j] = c_load(a->dtype, lt_data(a), wa.off + i * si + j * sj);
    int inf = c_lu(m, n, piv, &det);
    if (op == SMALL_DET) c_store(a->dtype, out, mi, det);
    if (op != SMALL_DET) info[mi] = inf;
    for (int64_t j = 0; op != SMALL_DET && j < k; j++) {
      for (int i = 0; i < n; i++)
        x[i] =
            rhs ? c_load(rhs->dtype, lt_data(rhs),
                         wb.off + i * rhs->strides[rhs->ndim - 2] + j * rhs->strides[rhs->ndim - 1])
                : (cpx){i == j, 0};
      c_subst(m, n, piv, x);
      for (int i = 0; i < n; i++) c_store(a->dtype, out, (mi * n + i) * k + j, x[i]);
    }
    walk_next(&wa);
    if (rhs) walk_next(&wb);
  }
}

/* }====== */

int lt_small_takes(lt_dtype dt, int64_t n) {
  return (dt == LT_FLOAT32 || dt == LT_FLOAT64 || dt == LT_COMPLEX64 || dt == LT_COMPLEX128) &&
         n >= 0 && n <= 4;
}

/* Checks a (square matrices the kernels take) and makes the batch-shaped result of dtype dt;
 *count is the number of matrices. */
static int check_square(const lt_tensor *a, const char *fname, lt_dtype dt, lt_tensor **res,
                        int64_t *count, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  if (a->ndim < 2)
    return lt_fail(err, LT_EARG, "%s: expected a tensor with 2 or more dimensions (got %d)", fname,
                   a->ndim);
  if (a->shape[a->ndim - 1] != a->shape[a->ndim - 2])
    return lt_fail(err, LT_EARG,
                   "%s: A must be batches of square matrices, but they are %lld by %lld matrices",
                   fname, (long long)a->shape[a->ndim - 2], (long long)a->shape[a->ndim - 1]);
  if (!lt_small_takes(a->dtype, a->shape[a->ndim - 1]))
    return lt_fail(
        err, LT_EARG,
        "%s: the small kernels take float32, float64, complex64 and complex128 matrices up to 4x4",
        fname);
  rc = lt_shape_numel(a->ndim - 2, a->shape, count, err);
  return rc ? rc : lt_tensor_new(dt, a->ndim - 2, a->shape, 1, res, err);
}

static void run(const lt_tensor *a, const lt_tensor *rhs, int op, int64_t count, void *out,
                int32_t *info) {
  if (a->shape[a->ndim - 1] == 0) { /* 0 x 0: det 1, info 0 (zero-filled), nothing to invert */
    for (int64_t m = 0; op == SMALL_DET && m < count; m++)
      if (a->dtype == LT_FLOAT32)
        ((float *)out)[m] = 1;
      else if (a->dtype == LT_FLOAT64)
        ((double *)out)[m] = 1;
      else
        c_store(a->dtype, out, m, (cpx){1, 0});
    return;
  }
  if (lt_dtypes[a->dtype].is_complex)
    run_cpx(a, rhs, op, count, out, info);
  else if (a->dtype == LT_FLOAT32)
    run_f32(a, rhs, op, count, out, info);
  else
    run_f64(a, rhs, op, count, out, info);
}

/* solve (b given) or inv (b NULL): *x and *info. */
static int solve_or_inv(const lt_tensor *a, const lt_tensor *b, lt_tensor **x, lt_tensor **info,
                        lt_error *err) {
  const char *fname = b ? "linalg.solve" : "linalg.inv";
  lt_tensor *in = NULL, *out = NULL;
  int64_t count;
  int rc = check_square(a, fname, LT_INT32, &in, &count, err);
  if (!rc && b) rc = lt_check_readable(b, err);
  if (!rc && b &&
      (b->dtype != a->dtype || b->ndim != a->ndim ||
       memcmp(b->shape, a->shape, (size_t)(a->ndim - 1) * sizeof *a->shape)))
    rc = lt_fail(err, LT_EARG, "%s: B must be of A's dtype and batch shape, with as many rows as A",
                 fname);
  if (!rc)
    rc = lt_tensor_new(a->dtype, b ? b->ndim : a->ndim, b ? b->shape : a->shape, 0, &out, err);
  if (!rc) {
    run(a, b, b ? SMALL_SOLVE : SMALL_INV, count, lt_data(out), (int32_t *)lt_data(in));
    *x = out, *info = in;
    return LT_OK;
  }
  lt_tensor_free(in);
  lt_tensor_free(out);
  return rc;
}

int lt_small_inv(const lt_tensor *a, lt_tensor **inv, lt_tensor **info, lt_error *err) {
  return solve_or_inv(a, NULL, inv, info, err);
}

int lt_small_det(const lt_tensor *a, lt_tensor **det, lt_error *err) {
  lt_tensor *out = NULL;
  int64_t count;
  int rc = check_square(a, "linalg.det", a->dtype, &out, &count, err);
  if (!rc) run(a, NULL, SMALL_DET, count, lt_data(out), NULL);
  return lt_give(rc, out, det);
}

int lt_small_solve(const lt_tensor *a, const lt_tensor *b, lt_tensor **x, lt_tensor **info,
                   lt_error *err) {
  return solve_or_inv(a, b, x, info, err);
}
