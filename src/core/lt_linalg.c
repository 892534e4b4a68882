/*
 * lt_linalg.c -- matrix products (torch.matmul), concatenation (torch.cat) and stacking
 * (torch.stack); see lt_linalg.h.
 *
 * matmul makes both operands contiguous in the computation dtype (the promoted dtype; float16
 * and bfloat16 compute in float32 and round once at the end), then runs one kernel per batch
 * entry, lt_iter walking the broadcast batch dims. The kernel, one macro over the computation
 * dtypes, loops i-k-j in blocks so that the inner loop runs along contiguous rows of the right
 * operand and of the result (it vectorizes) and a block of the right operand stays in cache.
 * Integers wrap (unsigned arithmetic, no undefined behaviour).
 */
#include "lt_linalg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_promote.h"

/* {====== matmul ====== */

/* Block sizes of the kernel: MM_KB rows of MM_JB columns of the right operand at a time. */
#ifndef LT_MM_KB
#define LT_MM_KB 128
#endif
#ifndef LT_MM_JB
#define LT_MM_JB 512
#endif

/* c (n x m, zero-filled) += a (n x k) * b (k x m), all contiguous. */
typedef void (*mm_fn)(char *c, const char *a, const char *b, int64_t n, int64_t k, int64_t m);

/* MAC(acc, x, y): acc += x * y in the computation dtype. */
#define MAC_FLT(T, W, acc, x, y) ((acc) += (x) * (y))
#define MAC_INT(T, W, acc, x, y) ((acc) = (T)((W)(acc) + (W)(x) * (W)(y)))
#define MAC_CPX(T, W, acc, x, y)               \
  do {                                         \
    T x_ = (x), y_ = (y);                      \
    (acc).re += x_.re * y_.re - x_.im * y_.im; \
    (acc).im += x_.re * y_.im + x_.im * y_.re; \
  } while (0)

#define MM_KERNEL(E, T, W, MAC)                                                                   \
  static void mm_##E(char *cp, const char *ap, const char *bp, int64_t n, int64_t k, int64_t m) { \
    T *restrict c = (T *)(void *)cp;                                                              \
    const T *restrict a = (const T *)(const void *)ap;                                            \
    const T *restrict b = (const T *)(const void *)bp;                                            \
    if (m == 1) { /* matrix-vector: dot products */                                               \
      for (int64_t i = 0; i < n; i++) {                                                           \
        T acc = c[i];                                                                             \
        for (int64_t p = 0; p < k; p++) MAC(T, W, acc, a[i * k + p], b[p]);                       \
        c[i] = acc;                                                                               \
      }                                                                                           \
      return;                                                                                     \
    }                                                                                             \
    for (int64_t j0 = 0; j0 < m; j0 += LT_MM_JB) {                                                \
      int64_t j1 = m - j0 < LT_MM_JB ? m : j0 + LT_MM_JB;                                         \
      for (int64_t p0 = 0; p0 < k; p0 += LT_MM_KB) {                                              \
        int64_t p1 = k - p0 < LT_MM_KB ? k : p0 + LT_MM_KB;                                       \
        for (int64_t i = 0; i < n; i++) {                                                         \
          T *restrict ci = c + i * m;                                                             \
          for (int64_t p = p0; p < p1; p++) {                                                     \
            const T x = a[i * k + p];                                                             \
            const T *restrict bq = b + p * m;                                                     \
            for (int64_t j = j0; j < j1; j++) MAC(T, W, ci[j], x, bq[j]);                         \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  }

/* The computation dtypes by category: MM_<category>(E, T, bits) gives MM_KERNEL(E, T, W, MAC),
   W the type the products accumulate in (the unsigned type integers wrap in; a complex dtype's
   part type). Bool is refused; float16 and bfloat16 compute in float32. */
#define MM_WIDE_8 uint32_t
#define MM_WIDE_16 uint32_t
#define MM_WIDE_32 uint32_t
#define MM_WIDE_64 uint64_t
#define MM_PART_64 float
#define MM_PART_128 double
#define MM_BOOL(E, T, b)
#define MM_SINT(E, T, b) MM_KERNEL(E, T, MM_WIDE_##b, MAC_INT)
#define MM_UINT(E, T, b) MM_KERNEL(E, T, MM_WIDE_##b, MAC_INT)
#define MM_FLT(E, T, b) MM_KERNEL(E, T, T, MAC_FLT)
#define MM_F16(E, T, b)
#define MM_BF16(E, T, b)
#define MM_CPX(E, T, b) MM_KERNEL(E, T, MM_PART_##b, MAC_CPX)
LT_DTYPES_BY_CATEGORY(MM)

#define MM_ENTRY(E, T, b) [LT_##E] = mm_##E,
#define MM_ENTRY_BOOL(E, T, b)
#define MM_ENTRY_SINT MM_ENTRY
#define MM_ENTRY_UINT MM_ENTRY
#define MM_ENTRY_FLT MM_ENTRY
#define MM_ENTRY_F16(E, T, b)
#define MM_ENTRY_BF16(E, T, b)
#define MM_ENTRY_CPX MM_ENTRY
/* NULL: bool (refused), float16 and bfloat16 (computed in float32). */
static const mm_fn mm_kernels[LT_NDTYPES] = {LT_DTYPES_BY_CATEGORY(MM_ENTRY)};

typedef struct {
  mm_fn k;
  int64_t n, kk, m;
} mm_ctx;

/* One run over the batch: operand 0 the result, 1 and 2 the operands (matrix starts). */
static int mm_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  const mm_ctx *c = ctx;
  for (int64_t i = 0; i < n; i++)
    c->k(p[0] + i * st[0], p[1] + i * st[1], p[2] + i * st[2], c->n, c->kk, c->m);
  return 0;
}

/* "2x3x4" */
static void shape_str(const lt_tensor *t, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = 0;
  for (int d = 0; d < t->ndim && len < size; d++) {
    int w = snprintf(buf + len, size - len, d ? "x%lld" : "%lld", (long long)t->shape[d]);
    if (w < 0) break;
    len += (size_t)w;
  }
}

/* "matmul: <pre> (2x3) and (4x5)<post>" (test_math pins the prefix) */
static int size_error(const char *pre, const char *post, const lt_tensor *a, const lt_tensor *b,
                      lt_error *err) {
  char sa[96], sb[96];
  shape_str(a, sa, sizeof sa);
  shape_str(b, sb, sizeof sb);
  return lt_fail(err, LT_EARG, "%s (%s) and (%s)%s", pre, sa, sb, post);
}

/* A frame over t's first element with the batch shape: the strides of t's matrices (a
   contiguous tensor of tnb batch dims, right-aligned with the nb of the result; broadcast dims
   step 0). */
static lt_tensor *batch_frame(lt_frame *f, const lt_tensor *t, int tnb, int nb,
                              const int64_t *batch, int64_t matrix) {
  lt_tensor *v = lt_frame_of(f, t);
  int64_t step = matrix;
  v->ndim = nb;
  for (int d = nb - 1; d >= 0; d--) {
    int td = d - (nb - tnb);
    v->shape[d] = batch[d];
    if (td < 0 || t->shape[td] == 1) {
      v->strides[d] = 0;
    } else {
      v->strides[d] = step;
      step *= t->shape[td];
    }
  }
  return v;
}

int lt_matmul(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  int rc;
  if ((rc = lt_check_readable(a, err)) || (rc = lt_check_readable(b, err))) return rc;
  if (a->ndim == 0 || b->ndim == 0)
    return lt_fail(err, LT_EARG, "both arguments need at least 1 dimension, got %d-d and %d-d",
                   a->ndim, b->ndim);
  lt_dtype rt = lt_promote(a->dtype, b->dtype);
  lt_dtype ct = lt_compute_type(rt);
  mm_fn kern = mm_kernels[ct];
  if (!kern) return lt_fail(err, LT_EARG, "matmul is not supported for %s", lt_dtypes[rt].name);
  /* (n x k) times (k x m); a 1-d a is one row, a 1-d b one column */
  int64_t n = a->ndim > 1 ? a->shape[a->ndim - 2] : 1, k = a->shape[a->ndim - 1];
  int64_t kb = b->ndim > 1 ? b->shape[b->ndim - 2] : b->shape[0];
  int64_t m = b->ndim > 1 ? b->shape[b->ndim - 1] : 1;
  if (k != kb) return size_error("sizes", " do not match", a, b, err);
  /* batch dims broadcast */
  int na = a->ndim > 2 ? a->ndim - 2 : 0, nbb = b->ndim > 2 ? b->ndim - 2 : 0;
  int nb = 0;
  int64_t shape[LT_MAX_NDIM];
  if (lt_broadcast_join(&nb, shape, na, a->shape) || lt_broadcast_join(&nb, shape, nbb, b->shape))
    return size_error("batch dimensions of sizes", " do not broadcast", a, b, err);
  int nd = nb;
  if (a->ndim > 1) shape[nd++] = n;
  if (b->ndim > 1) shape[nd++] = m;
  const lt_tensor *ca, *cb;
  lt_tensor *oa = NULL, *ob = NULL, *res = NULL;
  if ((rc = lt_contiguous_as(a, ct, &ca, &oa, err)) ||
      (rc = lt_contiguous_as(b, ct, &cb, &ob, err)) ||
      (rc = lt_tensor_new(ct, nd, shape, 1, &res, err)))
    goto done;
  if (lt_numel(res) > 0 && k > 0) {
    lt_frame fo, fa, fb;
    lt_tensor *ops[3] = {batch_frame(&fo, res, nb, nb, shape, n * m),
                         batch_frame(&fa, ca, na, nb, shape, n * k),
                         batch_frame(&fb, cb, nbb, nb, shape, k * m)};
    char *base[3] = {lt_data(res), lt_data(ca), lt_data(cb)};
    mm_ctx c = {kern, n, k, m};
    lt_iter it;
    lt_iter_init(&it, 3, ops);
    lt_iter_run(&it, base, mm_run, &c);
  }
  if (ct != rt) {
    rc = lt_cast(res, rt, out, err);
    lt_tensor_free(res);
  } else {
    *out = res;
  }
  res = NULL;
done:
  lt_tensor_free(res);
  lt_tensor_free(oa);
  lt_tensor_free(ob);
  return rc;
}

/* }====== */

/* {====== cat ====== */

/* torch skips 1-d empty tensors whatever the other shapes (legacy behaviour). */
static int skipped(const lt_tensor *t) { return t->ndim == 1 && t->shape[0] == 0; }

int lt_cat(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected a non-empty list of tensors");
  int rc, ref = -1;
  lt_dtype dt = LT_BOOL;
  for (int i = 0; i < n; i++) {
    if ((rc = lt_check_readable(ts[i], err))) return rc;
    dt = i ? lt_promote(dt, ts[i]->dtype) : ts[i]->dtype;
    if (ref < 0 && !skipped(ts[i])) ref = i;
  }
  if (ref < 0) return lt_tensor_new(dt, 1, (const int64_t[]){0}, 0, out, err);
  const lt_tensor *r = ts[ref];
  if (r->ndim == 0)
    return lt_fail(err, LT_EARG, "zero-dimensional tensor (at position %d) cannot be concatenated",
                   ref + 1);
  if (dim < 0 || dim >= r->ndim) return lt_dim_error(err, dim, r->ndim);
  int64_t shape[LT_MAX_NDIM], total = 0;
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ts[i];
    if (skipped(t)) continue;
    if (t->ndim != r->ndim)
      return lt_fail(err, LT_EARG,
                     "tensors must have the same number of dimensions: got %d and %d "
                     "(tensor number %d in the list)",
                     r->ndim, t->ndim, i + 1);
    for (int d = 0; d < t->ndim; d++)
      if (d != dim && t->shape[d] != r->shape[d])
        return lt_fail(err, LT_EARG,
                       "sizes of tensors must match except in dim %d; expected size "
                       "%lld but got size %lld for tensor number %d in the list",
                       dim + 1, (long long)r->shape[d], (long long)t->shape[d], i + 1);
    if (__builtin_add_overflow(total, t->shape[dim], &total))
      return lt_fail(err, LT_ERANGE, "the result is too large");
  }
  memcpy(shape, r->shape, (size_t)r->ndim * sizeof(int64_t));
  shape[dim] = total;
  lt_tensor *o;
  if ((rc = lt_tensor_new(dt, r->ndim, shape, 0, &o, err))) return rc;
  int64_t at = 0;
  for (int i = 0; i < n && rc == LT_OK; i++) {
    const lt_tensor *t = ts[i];
    if (skipped(t) || t->shape[dim] == 0) continue;
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, o);
    if ((rc = lt_slice_(v, dim, at, t->shape[dim], 1, err)) == LT_OK) rc = lt_copy(v, t, err);
    at += t->shape[dim];
  }
  if (rc) {
    lt_tensor_free(o);
    return rc;
  }
  *out = o;
  return LT_OK;
}

/* }====== */

/* {====== stack ====== */

int lt_stack(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected a non-empty list of tensors");
  const lt_tensor *r = ts[0];
  if (dim < 0 || dim > r->ndim) return lt_dim_error(err, dim, r->ndim + 1);
  for (int i = 1; i < n; i++)
    if (ts[i]->ndim != r->ndim ||
        memcmp(ts[i]->shape, r->shape, (size_t)r->ndim * sizeof(int64_t)) != 0) {
      char a[128], b[128];
      lt_shape_str(r->ndim, r->shape, a, sizeof a);
      lt_shape_str(ts[i]->ndim, ts[i]->shape, b, sizeof b);
      return lt_fail(err, LT_EARG,
                     "expects each tensor to be equal size, but got %s at entry 1 and %s at "
                     "entry %d",
                     a, b, i + 1);
    }
  /* each tensor unsqueezed at dim, then cat */
  lt_tensor **views = calloc((size_t)n, sizeof *views);
  if (!views) return lt_fail(err, LT_ENOMEM, "not enough memory");
  int rc = LT_OK;
  for (int i = 0; i < n && rc == LT_OK; i++) rc = lt_unsqueeze(ts[i], dim, &views[i], err);
  if (rc == LT_OK) rc = lt_cat((const lt_tensor *const *)views, n, dim, out, err);
  for (int i = 0; i < n; i++) lt_tensor_free(views[i]);
  free(views);
  return rc;
}

/* }====== */
