/*
 * lt_linalg_small.c -- inv, det and solve of batches of 1x1 to 4x4 float32 and float64 matrices,
 * ltensor's own (lt_linalg_small.h). The kernels are lt_linalg_small_impl.h, included once per
 * dtype; this file checks the operands, makes the results and walks the batch.
 *
 * Calls lt_tensor.c. Called by the lt.linalg core and spec/c/test_linalg_small.c.
 */
#include "lt_linalg_small.h"

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

int lt_small_takes(lt_dtype dt, int64_t n) {
  return (dt == LT_FLOAT32 || dt == LT_FLOAT64) && n >= 0 && n <= 4;
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
    return lt_fail(err, LT_EARG,
                   "%s: the small kernels take float32 and float64 matrices up to 4x4", fname);
  rc = lt_shape_numel(a->ndim - 2, a->shape, count, err);
  return rc ? rc : lt_tensor_new(dt, a->ndim - 2, a->shape, 1, res, err);
}

static void run(const lt_tensor *a, const lt_tensor *rhs, int op, int64_t count, void *out,
                int32_t *info) {
  if (a->shape[a->ndim - 1] == 0) { /* 0 x 0: det 1, info 0 (zero-filled), nothing to invert */
    for (int64_t m = 0; op == SMALL_DET && m < count; m++)
      if (a->dtype == LT_FLOAT32)
        ((float *)out)[m] = 1;
      else
        ((double *)out)[m] = 1;
    return;
  }
  if (a->dtype == LT_FLOAT32)
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
