/*
 * lt_softmax.c -- softmax, log_softmax and logsumexp (see lt_softmax.h). Lua-free.
 *
 * One walk serves all three: the output positions are the input with the reduced dim taken
 * out (for softmax the output is viewed the same way); lt_iter_run_par walks those positions,
 * split across the pool, and the kernel walks the reduced dim of each, strided, three times:
 * its largest element, the sum of exp(x - max) (lt_vmath's kernels), then the results. The sum
 * accumulates in float64 for every computation dtype. logsumexp over several dims moves them last
 * and merges them into one (a view when their strides allow, else a copy: lt_reshape).
 */
#include <math.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_softmax.h"
#include "lt_vmath.h"

enum { K_SOFTMAX, K_LOG_SOFTMAX, K_LOGSUMEXP };

typedef struct {
  int kind;
  int64_t n;      /* the length of the reduced dim */
  int64_t sx, sy; /* its byte strides in the input and the output (0 for logsumexp) */
} row_ctx;

/* The exponentials run through lt_vmath's vectorized kernels, CHUNK elements at a time, in a
   buffer on the stack (a strided row is gathered into it): softmax stores them and scales
   them in a last pass, log_softmax and logsumexp need only their sum. */
#define CHUNK 256
#if defined(__GNUC__)
#define LT_INLINE static inline __attribute__((always_inline))
#else
#define LT_INLINE static inline
#endif
/* One row: x and y stepping sx and sy bytes (inlined where they are constants, so that the
   contiguous rows' loops vectorize). */
#define ROW_FN(NAME, T, VEXP)                                                                \
  LT_INLINE void NAME(int kind, int64_t n, const char *x, char *y, int64_t sx, int64_t sy) { \
    T buf[CHUNK];                                                                            \
    T m = -INFINITY;                                                                         \
    int nan = 0;                                                                             \
    for (int64_t i = 0; i < n; i++) {                                                        \
      T v = *(const T *)(x + i * sx);                                                        \
      nan |= v != v;                                                                         \
      m = v > m ? v : m;                                                                     \
    }                                                                                        \
    if (nan) m = (T)NAN;                                                                     \
    if (kind == K_LOGSUMEXP && isinf(m)) m = 0; /* torch's: -inf or +inf */                  \
    double s = 0;                                                                            \
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {                                              \
      int64_t len = n - i0 < CHUNK ? n - i0 : CHUNK;                                         \
      T part = 0;                                                                            \
      for (int64_t j = 0; j < len; j++) buf[j] = *(const T *)(x + (i0 + j) * sx) - m;        \
      VEXP(buf, buf, len);                                                                   \
      for (int64_t j = 0; j < len; j++) part += buf[j];                                      \
      s += part;                                                                             \
      if (kind == K_SOFTMAX)                                                                 \
        for (int64_t j = 0; j < len; j++) *(T *)(y + (i0 + j) * sy) = buf[j];                \
    }                                                                                        \
    if (kind == K_LOGSUMEXP) {                                                               \
      *(T *)y = (T)(log(s) + m);                                                             \
    } else if (kind == K_LOG_SOFTMAX) {                                                      \
      T l = (T)log(s);                                                                       \
      for (int64_t i = 0; i < n; i++) *(T *)(y + i * sy) = *(const T *)(x + i * sx) - m - l; \
    } else {                                                                                 \
      T inv = (T)(1 / s);                                                                    \
      for (int64_t i = 0; i < n; i++) *(T *)(y + i * sy) *= inv;                             \
    }                                                                                        \
  }
/* Up to GROUP rows side by side, whose elements are adjacent (a reduced dim that is not the
   innermost one, positions contiguous in x and y): each step along the dim reads GROUP
   neighbouring elements, where a row at a time would read one element per cache line. */
#define GROUP 64
#define GROUP_FN(NAME, T, VEXP)                                                                  \
  static void NAME(int kind, int64_t n, const char *x, char *y, int64_t sx, int64_t sy, int G) { \
    T m[GROUP], buf[GROUP], l[GROUP];                                                            \
    double s[GROUP];                                                                             \
    unsigned char nan[GROUP];                                                                    \
    for (int g = 0; g < G; g++) {                                                                \
      m[g] = -INFINITY;                                                                          \
      nan[g] = 0;                                                                                \
      s[g] = 0;                                                                                  \
    }                                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                            \
      const T *xi = (const T *)(x + i * sx);                                                     \
      for (int g = 0; g < G; g++) {                                                              \
        nan[g] |= xi[g] != xi[g];                                                                \
        m[g] = xi[g] > m[g] ? xi[g] : m[g];                                                      \
      }                                                                                          \
    }                                                                                            \
    for (int g = 0; g < G; g++) {                                                                \
      if (nan[g]) m[g] = (T)NAN;                                                                 \
      if (kind == K_LOGSUMEXP && isinf(m[g])) m[g] = 0;                                          \
    }                                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                            \
      const T *xi = (const T *)(x + i * sx);                                                     \
      for (int g = 0; g < G; g++) buf[g] = xi[g] - m[g];                                         \
      VEXP(buf, buf, G);                                                                         \
      for (int g = 0; g < G; g++) s[g] += buf[g];                                                \
      if (kind == K_SOFTMAX) memcpy(y + i * sy, buf, (size_t)G * sizeof(T));                     \
    }                                                                                            \
    if (kind == K_LOGSUMEXP) {                                                                   \
      for (int g = 0; g < G; g++) ((T *)y)[g] = (T)(log(s[g]) + m[g]);                           \
      return;                                                                                    \
    }                                                                                            \
    for (int g = 0; g < G; g++) l[g] = kind == K_SOFTMAX ? (T)(1 / s[g]) : (T)log(s[g]) + m[g];  \
    for (int64_t i = 0; i < n; i++) {                                                            \
      T *yi = (T *)(y + i * sy);                                                                 \
      const T *xi = (const T *)(x + i * sx);                                                     \
      if (kind == K_SOFTMAX)                                                                     \
        for (int g = 0; g < G; g++) yi[g] *= l[g];                                               \
      else                                                                                       \
        for (int g = 0; g < G; g++) yi[g] = xi[g] - l[g];                                        \
    }                                                                                            \
  }
#define ROW_KERNEL(NAME, ROW, GROUPS, T)                                      \
  static int NAME(void *vc, char *const *p, const int64_t *st, int64_t cnt) { \
    const row_ctx *c = vc;                                                    \
    const int64_t n = c->n, sx = c->sx, sy = c->sy, e = (int64_t)sizeof(T);   \
    if (sx != e && st[1] == e && st[0] == e) {                                \
      for (int64_t k = 0; k < cnt; k += GROUP)                                \
        GROUPS(c->kind, n, p[1] + k * e, p[0] + k * e, sx, sy,                \
               cnt - k < GROUP ? (int)(cnt - k) : GROUP);                     \
      return 0;                                                               \
    }                                                                         \
    for (int64_t k = 0; k < cnt; k++) {                                       \
      const char *x = p[1] + k * st[1];                                       \
      char *y = p[0] + k * st[0];                                             \
      if (sx == e && sy == e)                                                 \
        ROW(c->kind, n, x, y, e, e);                                          \
      else if (sx == e && sy == 0)                                            \
        ROW(c->kind, n, x, y, e, 0);                                          \
      else                                                                    \
        ROW(c->kind, n, x, y, sx, sy);                                        \
    }                                                                         \
    return 0;                                                                 \
  }
ROW_FN(row_f32, float, lt_vmath_exp_f32)
ROW_FN(row_f64, double, lt_vmath_exp_f64)
GROUP_FN(group_f32, float, lt_vmath_exp_f32)
GROUP_FN(group_f64, double, lt_vmath_exp_f64)
ROW_KERNEL(rows_f32, row_f32, group_f32, float)
ROW_KERNEL(rows_f64, row_f64, group_f64, double)

/* Runs the kernel over x (float32 or float64) along dim into y, of x's dtype and shape except
   that for logsumexp dim has size 1. Neither is 0-d. The kernels cannot fail. */
static void run_rows(int kind, const lt_tensor *x, int dim, const lt_tensor *y) {
  int64_t n = x->shape[dim];
  if (lt_numel(y) == 0 || (n == 0 && kind != K_LOGSUMEXP)) return;
  size_t es = lt_esize(x);
  row_ctx c = {kind, n, x->strides[dim] * (int64_t)es,
               kind == K_LOGSUMEXP ? 0 : y->strides[dim] * (int64_t)es};
  lt_frame fx, fy;
  lt_tensor *vx = lt_frame_of(&fx, x), *vy = lt_frame_of(&fy, y);
  lt_drop_dim_(vx, dim); /* the positions: element 0 of each row */
  lt_drop_dim_(vy, dim);
  lt_tensor *ops[2] = {vy, vx};
  lt_iter it;
  lt_iter_init(&it, 2, ops);
  char *base[2] = {lt_data(y), lt_data(x)};
  double bytes = (double)(n > 0 ? n : 1) * (double)es * (kind == K_LOGSUMEXP ? 1 : 3);
  (void)lt_iter_run_par(&it, base, x->dtype == LT_FLOAT64 ? rows_f64 : rows_f32, &c, bytes);
}

/* The computation dtype of a floating dtype. */
static lt_dtype compute_dtype(lt_dtype dt) { return dt == LT_FLOAT64 ? LT_FLOAT64 : LT_FLOAT32; }

/* x viewed as 1-d of size 1 when 0-d (in f). */
static const lt_tensor *at_least_1d(lt_frame *f, const lt_tensor *x) {
  if (x->ndim > 0) return x;
  lt_tensor *v = lt_frame_of(f, x);
  v->ndim = 1;
  v->shape[0] = 1;
  v->strides[0] = 0;
  return v;
}

/* *owned (when not NULL) replaced by r; returns r. */
static lt_tensor *replace(lt_tensor **owned, lt_tensor *r) {
  lt_tensor_free(*owned);
  *owned = r;
  return r;
}

/* The end of both operations: y (computed in ct) cast back to dt, the intermediate freed, and
 *out = y; on failure (rc set on entry, or by the cast) y is freed too. */
static int finish(int rc, lt_tensor *y, lt_dtype ct, lt_dtype dt, lt_tensor *owned, lt_tensor **out,
                  lt_error *err) {
  lt_tensor *r;
  if (rc == LT_OK && ct != dt && (rc = lt_cast(y, dt, &r, err)) == LT_OK) replace(&y, r);
  lt_tensor_free(owned);
  if (rc) {
    lt_tensor_free(y);
    return rc;
  }
  *out = y;
  return LT_OK;
}

int lt_softmax(lt_smop op, const lt_tensor *a, int dim, lt_dtype dtype, lt_tensor **out,
               lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  int nd = a->ndim > 0 ? a->ndim : 1;
  if (dim < 0 || dim >= nd) return lt_dim_error(err, dim, nd);
  lt_dtype dt = dtype != LT_NDTYPES ? dtype : a->dtype;
  const lt_dtype_info *d = &lt_dtypes[dt];
  if (!d->is_float || d->is_complex)
    return lt_fail(err, LT_EARG, "not implemented for %s input (give dtype = a floating dtype)",
                   d->name);
  lt_dtype ct = compute_dtype(dt);
  lt_tensor *owned = NULL, *y = NULL, *r;
  const lt_tensor *x = a;
  if (dt != a->dtype) { /* torch casts to dtype= first */
    if ((rc = lt_cast(a, dt, &r, err))) return rc;
    x = replace(&owned, r);
  }
  if (x->dtype != ct) { /* a half computes in float32 */
    if ((rc = lt_cast(x, ct, &r, err))) goto done;
    x = replace(&owned, r);
  }
  if ((rc = lt_tensor_new(ct, a->ndim, a->shape, 0, &y, err))) goto done;
  lt_frame fx, fy;
  run_rows(op == LT_LOG_SOFTMAX ? K_LOG_SOFTMAX : K_SOFTMAX, at_least_1d(&fx, x), dim,
           at_least_1d(&fy, y));
done:
  return finish(rc, y, ct, dt, owned, out, err);
}

int lt_logsumexp(const lt_tensor *a, const int *dims, int ndims, int keepdim, lt_tensor **out,
                 lt_error *err) {
  unsigned char mask[LT_MAX_NDIM];
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  int nd = a->ndim > 0 ? a->ndim : 1;
  memset(mask, ndims == 0, sizeof mask);
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0 || dims[i] >= nd) return lt_dim_error(err, dims[i], nd);
    if (mask[dims[i]]) return lt_fail(err, LT_EARG, "dim %d appears twice", dims[i] + 1);
    mask[dims[i]] = 1;
  }
  const lt_dtype_info *d = &lt_dtypes[a->dtype];
  if (d->is_complex)
    return lt_fail(err, LT_EARG, "not supported for %s (bool, integer or floating point expected)",
                   d->name);
  lt_dtype dt = d->is_float ? a->dtype : LT_FLOAT32, ct = compute_dtype(dt);
  lt_tensor *owned = NULL, *y = NULL, *r;
  const lt_tensor *x = a;
  if (a->dtype != ct) {
    if ((rc = lt_cast(a, ct, &r, err))) return rc;
    x = replace(&owned, r);
  }
  /* kept dims in order, then the reduced ones merged into one */
  lt_frame fx;
  const lt_tensor *x1 = at_least_1d(&fx, x);
  lt_frame fp;
  lt_tensor *p = lt_frame_of(&fp, x1);
  int nkeep = 0, k = 0;
  int64_t kept[LT_MAX_NDIM + 1], red = 1;
  for (int i = 0; i < x1->ndim; i++)
    if (!mask[i]) {
      kept[nkeep] = x1->shape[i];
      p->shape[nkeep] = x1->shape[i];
      p->strides[nkeep++] = x1->strides[i];
    }
  k = nkeep;
  for (int i = 0; i < x1->ndim; i++)
    if (mask[i]) {
      p->shape[k] = x1->shape[i];
      p->strides[k++] = x1->strides[i];
      red *= x1->shape[i];
    }
  kept[nkeep] = red;
  if ((rc = lt_reshape(p, nkeep + 1, kept, &r, NULL, err))) goto done;
  replace(&owned, r);
  kept[nkeep] = 1;
  if ((rc = lt_tensor_new(ct, nkeep + 1, kept, 0, &y, err))) goto done;
  run_rows(K_LOGSUMEXP, owned, nkeep, y);
  int64_t shape[LT_MAX_NDIM];
  int ndo = 0;
  for (int i = 0; i < a->ndim; i++)
    if (!mask[i])
      shape[ndo++] = a->shape[i];
    else if (keepdim)
      shape[ndo++] = 1;
  if ((rc = lt_view(y, ndo, shape, &r, err))) goto done;
  replace(&y, r);
done:
  return finish(rc, y, ct, dt, owned, out, err);
}
