/*
 * lt_shape.c -- shapes and construction: diagonal and view-as-dtype (views), flip, roll,
 * repeat, tril/triu, diag (copies), eye, linspace, logspace (see lt_shape.h).
 *
 * The copies are strided copies of a view made on a stack frame (lt_frame): flip copies a view
 * with negated strides, roll copies two slices of each rolled dim, repeat copies a view that
 * gains a stride-0 dim for every repeated one into a destination split the same way. So every
 * element moves through lt_copy's kernels (and its worker pool), none through a loop here.
 */
#include "lt_shape.h"
#include "lt_checked.h"

#include <math.h>
#include <string.h>

#include "lt_copy.h"

/* {====== views ====== */

/* The frame v (a view of the tensor it was made from) given its own header in *out. */
static int alias_frame(const lt_tensor *v, lt_tensor **out, lt_error *err) {
  return lt_tensor_alias(v, out, err);
}

/* In place on a frame: see lt_diagonal. */
static int diagonal_(lt_tensor *v, int64_t offset, int d1, int d2, lt_error *err) {
  int rc;
  if ((rc = lt_check_dim(v, d1, err)) || (rc = lt_check_dim(v, d2, err))) return rc;
  if (d1 == d2) return lt_fail(err, LT_EARG, "dim1 and dim2 cannot be the same dim (%d)", d1 + 1);
  int64_t n1 = v->shape[d1], n2 = v->shape[d2], len, start = 0;
  if (offset >= 0)
    len = offset >= n2 ? 0 : (n1 < n2 - offset ? n1 : n2 - offset);
  else
    len = offset <= -n1 ? 0 : (n1 + offset < n2 ? n1 + offset : n2);
  if (len > 0) start = offset >= 0 ? offset * v->strides[d2] : -offset * v->strides[d1];
  if (v->packed && start != 0)
    return lt_fail(err, LT_EARG,
                   "a diagonal of a packed sub-byte tensor must start at its first "
                   "element");
  int64_t st = 1;
  if (len > 1 && lt_add_overflow(v->strides[d1], v->strides[d2], &st))
    return lt_fail(err, LT_ERANGE, "diagonal stride overflows");
  v->offset += start;
  int hi = d1 > d2 ? d1 : d2, lo = d1 > d2 ? d2 : d1;
  lt_drop_dim_(v, hi);
  lt_drop_dim_(v, lo);
  v->shape[v->ndim] = len;
  v->strides[v->ndim] = st;
  v->ndim++;
  return LT_OK;
}

int lt_diagonal(const lt_tensor *t, int64_t offset, int d1, int d2, lt_tensor **out,
                lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  int rc = diagonal_(v, offset, d1, d2, err);
  return rc ? rc : alias_frame(v, out, err);
}

int lt_view_dtype(const lt_tensor *t, lt_dtype dt, lt_tensor **out, lt_error *err) {
  const char *from = lt_dtype_name(t->dtype), *to = lt_dtype_name(dt);
  if (t->packed)
    return lt_fail(err, LT_EARG, "a packed sub-byte tensor cannot be viewed as %s", to);
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  int64_t old = (int64_t)lt_esize(t), nw = (int64_t)lt_dtypes[dt].size;
  if (old != nw) {
    int last = v->ndim - 1;
    if (v->ndim == 0)
      return lt_fail(err, LT_EARG,
                     "a 0-d tensor cannot be viewed as %s from %s (different "
                     "element sizes)",
                     to, from);
    if (v->strides[last] != 1)
      return lt_fail(err, LT_EARG,
                     "the last dim must have stride 1 to view %s as %s (different "
                     "element sizes), got %lld",
                     from, to, (long long)v->strides[last]);
    if (old > nw) {
      int64_t r = old / nw;
      for (int i = 0; i < last; i++)
        if (lt_mul_overflow(v->strides[i], r, &v->strides[i]))
          return lt_fail(err, LT_ERANGE, "stride of dim %d overflows as %s", i + 1, to);
      if (lt_mul_overflow(v->shape[last], r, &v->shape[last]) ||
          lt_mul_overflow(v->offset, r, &v->offset))
        return lt_fail(err, LT_ERANGE, "tensor is too large to view as %s", to);
    } else {
      int64_t r = nw / old;
      if (v->shape[last] % r)
        return lt_fail(err, LT_EARG,
                       "the last dim's size %lld must be divisible by %lld to view "
                       "%s as %s (different element sizes)",
                       (long long)v->shape[last], (long long)r, from, to);
      if (v->offset % r)
        return lt_fail(err, LT_EARG,
                       "the storage offset %lld must be divisible by %lld to view "
                       "%s as %s (different element sizes)",
                       (long long)v->offset, (long long)r, from, to);
      for (int i = 0; i < last; i++) {
        if (v->strides[i] % r)
          return lt_fail(err, LT_EARG,
                         "the stride of dim %d (%lld) must be divisible by %lld "
                         "to view %s as %s (different element sizes)",
                         i + 1, (long long)v->strides[i], (long long)r, from, to);
        v->strides[i] /= r;
      }
      v->shape[last] /= r;
      v->offset /= r;
    }
    if (v->shape[last] == 1) v->strides[last] = 1;
  }
  v->dtype = dt;
  v->dl_dtype = lt_dtypes[dt].dl;
  return alias_frame(v, out, err);
}

/* }====== */

/* {====== copies ====== */

/* A new contiguous tensor shaped as t (dtype dt); *out on success. */
static int new_like(const lt_tensor *t, lt_dtype dt, int zero, lt_tensor **out, lt_error *err) {
  return lt_tensor_new(dt, t->ndim, t->shape, zero, out, err);
}

int lt_flip(const lt_tensor *t, int ndims, const int *dims, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  unsigned char seen[LT_MAX_NDIM] = {0};
  for (int i = 0; i < ndims; i++) {
    int d = dims[i];
    if ((rc = lt_check_dim(t, d, err))) return rc;
    if (seen[d]++) return lt_fail(err, LT_EARG, "dim %d appears more than once in dims", d + 1);
    if (v->shape[d] > 1) { /* element n - 1 first, walking backwards */
      v->offset += (v->shape[d] - 1) * v->strides[d];
      v->strides[d] = -v->strides[d];
    }
  }
  return lt_clone(v, out, err);
}

/* Copies src rolled by s (0 <= s < n, n = size of dim d) along d into dst (same shape):
   dst[s:] = src[:n-s], dst[:s] = src[n-s:]. */
static int roll_into(lt_tensor *dst, const lt_tensor *src, int d, int64_t s, lt_error *err) {
  int64_t n = src->shape[d];
  if (s == 0) return lt_copy(dst, src, err);
  lt_frame fd, fs;
  for (int part = 0; part < 2; part++) {
    lt_tensor *vd = lt_frame_of(&fd, dst), *vs = lt_frame_of(&fs, src);
    int64_t dstart = part ? 0 : s, sstart = part ? n - s : 0, len = part ? s : n - s;
    int rc;
    if ((rc = lt_slice_(vd, d, dstart, len, 1, err)) ||
        (rc = lt_slice_(vs, d, sstart, len, 1, err)) || (rc = lt_copy(vd, vs, err)))
      return rc;
  }
  return LT_OK;
}

/* shift modulo n, in [0, n). */
static int64_t wrap_shift(int64_t shift, int64_t n) {
  if (n == 0) return 0;
  int64_t s = shift % n;
  return s < 0 ? s + n : s;
}

int lt_roll(const lt_tensor *t, int n, const int64_t *shifts, const int *dims, lt_tensor **out,
            lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  lt_tensor *res;
  if (!dims) { /* flattened: a 1-d view (or copy) of t rolled into a 1-d frame of the result */
    int64_t numel = lt_numel(t);
    lt_tensor *flat;
    if (n != 1) return lt_fail(err, LT_EARG, "without dims, roll takes one shift, got %d", n);
    if ((rc = lt_reshape(t, 1, &numel, &flat, NULL, err))) return rc;
    if ((rc = new_like(t, t->dtype, 0, &res, err))) {
      lt_tensor_free(flat);
      return rc;
    }
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, res);
    v->ndim = 1;
    v->shape[0] = numel;
    v->strides[0] = 1;
    rc = roll_into(v, flat, 0, wrap_shift(shifts[0], numel), err);
    lt_tensor_free(flat);
    if (rc) {
      lt_tensor_free(res);
      return rc;
    }
    *out = res;
    return LT_OK;
  }
  for (int i = 0; i < n; i++)
    if ((rc = lt_check_dim(t, dims[i], err))) return rc;
  if (n < 1) return lt_fail(err, LT_EARG, "roll needs at least one shift");
  const lt_tensor *src = t;
  lt_tensor *prev = NULL; /* the result of the step before, freed after the next one */
  for (int i = 0; i < n; i++) {
    if ((rc = new_like(t, t->dtype, 0, &res, err))) {
      lt_tensor_free(prev);
      return rc;
    }
    rc = roll_into(res, src, dims[i], wrap_shift(shifts[i], t->shape[dims[i]]), err);
    lt_tensor_free(prev);
    if (rc) {
      lt_tensor_free(res);
      return rc;
    }
    src = prev = res;
  }
  *out = res;
  return LT_OK;
}

int lt_repeat(const lt_tensor *t, int n, const int64_t *reps, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (n < t->ndim)
    return lt_fail(err, LT_EARG,
                   "the number of repeats (%d) cannot be smaller than the "
                   "tensor's dims (%d)",
                   n, t->ndim);
  if (n > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "too many dimensions (%d, at most %d)", n, LT_MAX_NDIM);
  int64_t shape[LT_MAX_NDIM];
  int lead = n - t->ndim, en = 0;
  /* the expanded source: a stride-0 dim of size r before each dim repeated r > 1 times (a
     size-1 dim just becomes r long) */
  int64_t esh[2 * LT_MAX_NDIM], est[2 * LT_MAX_NDIM];
  for (int i = 0; i < n; i++) {
    int64_t s = i < lead ? 1 : t->shape[i - lead], st = i < lead ? 0 : t->strides[i - lead];
    if (reps[i] < 0)
      return lt_fail(err, LT_EARG, "repeat %lld for dim %d is negative", (long long)reps[i], i + 1);
    if (lt_size_mul(s, reps[i], &shape[i], NULL))
      return lt_fail(err, LT_ERANGE, "shape has too many elements (overflow)");
    if (reps[i] != 1 && s != 1) { /* r copies of the whole dim */
      esh[en] = reps[i];
      est[en++] = 0;
      esh[en] = s;
      est[en++] = st;
    } else if (s == 1) { /* one element, r times */
      esh[en] = reps[i];
      est[en++] = 0;
    } else {
      esh[en] = s;
      est[en++] = st;
    }
  }
  lt_tensor *res;
  if ((rc = lt_tensor_new(t->dtype, n, shape, 0, &res, err))) return rc;
  if (lt_numel(res) == 0) {
    *out = res;
    return LT_OK;
  }
  if (en > LT_MAX_NDIM) { /* a copy through a view of more dims than a frame holds */
    lt_tensor_free(res);
    return lt_fail(err, LT_EARG, "too many repeated dims (at most %d dims in all)", LT_MAX_NDIM);
  }
  lt_frame fs, fd;
  lt_tensor *vs = lt_frame_of(&fs, t), *vd = lt_frame_of(&fd, res);
  vs->ndim = vd->ndim = en;
  memcpy(vs->shape, esh, (size_t)en * sizeof(int64_t));
  memcpy(vs->strides, est, (size_t)en * sizeof(int64_t));
  memcpy(vd->shape, esh, (size_t)en * sizeof(int64_t));
  lt_contiguous_strides(en, esh, vd->strides);
  if ((rc = lt_copy(vd, vs, err))) {
    lt_tensor_free(res);
    return rc;
  }
  *out = res;
  return LT_OK;
}

/* Clears the elements of every matrix of t's last two dims (t->ndim >= 2, any strides) that
   tril (upper 0: keeps j - i <= k) or triu (upper 1: keeps j - i >= k) drops. Zero bytes are
   zero in every dtype. */
static void tri_clear(lt_tensor *t, int64_t k, int upper) {
  int nb = t->ndim - 2;
  int64_t rows = t->shape[nb], cols = t->shape[nb + 1], numel = lt_numel(t);
  int64_t rs = t->strides[nb], cs = t->strides[nb + 1], idx[LT_MAX_NDIM] = {0};
  size_t es = lt_esize(t);
  /* beyond rows + cols, k keeps or clears everything: clamped, i + k cannot overflow */
  int64_t lim = rows + cols;
  if (k > lim) k = lim;
  if (k < -lim) k = -lim;
  for (int64_t b = 0; numel > 0 && b < numel / (rows * cols); b++) {
    int64_t base = 0; /* the matrix at the batch index idx */
    for (int d = 0; d < nb; d++) base += idx[d] * t->strides[d];
    for (int64_t i = 0; i < rows; i++) {
      int64_t lo, hi; /* the columns cleared */
      if (upper) {
        lo = 0;
        hi = i + k < 0 ? 0 : (i + k > cols ? cols : i + k);
      } else {
        lo = i + k + 1 < 0 ? 0 : (i + k + 1 > cols ? cols : i + k + 1);
        hi = cols;
      }
      char *row = lt_data(t) + (base + i * rs) * (int64_t)es;
      if (hi > lo && cs == 1)
        memset(row + (size_t)lo * es, 0, (size_t)(hi - lo) * es);
      else
        for (int64_t j = lo; j < hi; j++) memset(row + j * cs * (int64_t)es, 0, es);
    }
    for (int d = nb - 1; d >= 0 && ++idx[d] == t->shape[d]; d--) idx[d] = 0;
  }
}

int lt_tri(const lt_tensor *t, int64_t k, int upper, lt_tensor **out, lt_error *err) {
  if (t->ndim < 2) return lt_fail(err, LT_EARG, "input must have at least 2 dims, got %d", t->ndim);
  lt_tensor *c;
  int rc = lt_clone(t, &c, err);
  if (rc) return rc;
  tri_clear(c, k, upper);
  *out = c;
  return LT_OK;
}

int lt_tri_(lt_tensor *t, int64_t k, int upper, lt_error *err) {
  if (t->ndim < 2) return lt_fail(err, LT_EARG, "input must have at least 2 dims, got %d", t->ndim);
  int rc = lt_check_readable(t, err);
  if (!rc) rc = lt_check_no_internal_overlap(t, err); /* as every other in-place write */
  if (rc) return rc;
  tri_clear(t, k, upper);
  return LT_OK;
}

int lt_diag(const lt_tensor *t, int64_t k, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (t->ndim == 2) {
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, t);
    if ((rc = diagonal_(v, k, 0, 1, err))) return rc;
    return lt_clone(v, out, err);
  }
  if (t->ndim != 1)
    return lt_fail(err, LT_EARG, "expected a 1-d or 2-d tensor, got %d dims", t->ndim);
  int64_t n, ak = k < 0 ? -(k + 1) : k; /* |k| - 1 when k < 0: no overflow at INT64_MIN */
  if (k < 0 && lt_add_overflow(ak, 1, &ak)) ak = INT64_MAX;
  if (lt_add_overflow(t->shape[0], ak, &n))
    return lt_fail(err, LT_ERANGE, "shape has too many elements (overflow)");
  int64_t shape[2] = {n, n};
  lt_tensor *res;
  if ((rc = lt_tensor_new(t->dtype, 2, shape, 1, &res, err))) return rc;
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, res);
  if ((rc = diagonal_(v, k, 0, 1, err)) || (rc = lt_copy(v, t, err))) {
    lt_tensor_free(res);
    return rc;
  }
  *out = res;
  return LT_OK;
}

/* }====== */

/* {====== constructors ====== */

int lt_eye(lt_dtype dt, int64_t n, int64_t m, lt_tensor **out, lt_error *err) {
  if (n < 0) return lt_fail(err, LT_EARG, "n must be non-negative, got %lld", (long long)n);
  if (m < 0) return lt_fail(err, LT_EARG, "m must be non-negative, got %lld", (long long)m);
  int64_t shape[2] = {n, m};
  lt_tensor *res;
  int rc = lt_tensor_new(dt, 2, shape, 1, &res, err);
  if (rc) return rc;
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, res);
  lt_scalar one = {LT_SK_INT, {.i = 1}, 0};
  if ((rc = diagonal_(v, 0, 0, 1, err)) || (rc = lt_fill(v, &one, err))) {
    lt_tensor_free(res);
    return rc;
  }
  *out = res;
  return LT_OK;
}

/* Value i of steps (steps >= 2) from a to b, as torch computes it, in float or double. */
static float lin_f(float a, float b, float step, int64_t i, int64_t steps) {
  return i < steps / 2 ? a + step * (float)i : b - step * (float)(steps - 1 - i);
}
static double lin_d(double a, double b, double step, int64_t i, int64_t steps) {
  return i < steps / 2 ? a + step * (double)i : b - step * (double)(steps - 1 - i);
}

int lt_linspace(lt_dtype dt, const double start[2], const double end[2], int64_t steps,
                int logspace, double base, lt_tensor **out, lt_error *err) {
  const char *fname = logspace ? "logspace" : "linspace";
  if (steps < 0)
    return lt_fail(err, LT_EARG, "number of steps must be non-negative, got %lld",
                   (long long)steps);
  if (dt == LT_BOOL) return lt_fail(err, LT_EARG, "%s is not defined for bool", fname);
  const lt_dtype_info *info = &lt_dtypes[dt];
  int single = info->size == 4 || dt == LT_FLOAT16 || dt == LT_BFLOAT16 || dt == LT_COMPLEX64;
  single = single && (info->is_float || info->is_complex);
  double a[2] = {start[0], info->is_complex ? start[1] : 0},
         b[2] = {end[0], info->is_complex ? end[1] : 0};
  if (info->is_int) /* torch converts the ends to the dtype first */
    for (int j = 0; j < 2; j++) {
      double *x = j ? b : a;
      if (!lt_fits_int(x[0], (int)info->size * 8, info->is_signed)) {
        lt_scalar s = {LT_SK_FLOAT, {.f = x[0]}, 0};
        char str[64];
        lt_scalar_str(&s, str, sizeof str);
        return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, info->name);
      }
      x[0] = trunc(x[0]);
    }
  lt_tensor *res;
  int rc = lt_tensor_new(dt, 1, &steps, 0, &res, err);
  if (rc) return rc;
  char *p = lt_data(res);
  int ncomp = info->is_complex ? 2 : 1;
  double fstep[2] = {0, 0};
  float sstep[2] = {0, 0};
  for (int j = 0; j < ncomp && steps > 1; j++) {
    sstep[j] = ((float)b[j] - (float)a[j]) / (float)(steps - 1);
    fstep[j] = (b[j] - a[j]) / (double)(steps - 1);
  }
  for (int64_t i = 0; i < steps; i++) {
    double x[2];
    for (int j = 0; j < ncomp; j++) {
      if (steps == 1)
        x[j] = single ? (double)(float)a[j] : a[j];
      else if (single)
        x[j] = (double)lin_f((float)a[j], (float)b[j], sstep[j], i, steps);
      else
        x[j] = lin_d(a[j], b[j], fstep[j], i, steps);
    }
    if (logspace) { /* base^(re + i im) = base^re (cos(im ln base) + i sin(im ln base)) */
      double r = pow(base, x[0]);
      if (ncomp == 2) {
        double ang = x[1] * log(base);
        x[0] = r * cos(ang);
        x[1] = r * sin(ang);
      } else {
        x[0] = r;
      }
    }
    lt_scalar s = ncomp == 2 ? (lt_scalar){LT_SK_COMPLEX, {.f = x[0]}, x[1]}
                             : (lt_scalar){LT_SK_FLOAT, {.f = x[0]}, 0};
    if (lt_store(dt, p + (size_t)i * info->size, &s) != LT_STORE_OK) {
      char str[64];
      lt_scalar_str(&s, str, sizeof str);
      lt_tensor_free(res);
      return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, info->name);
    }
  }
  *out = res;
  return LT_OK;
}

/* }====== */
