/*
 * test_tensor.c -- sizes, creation, storage reference counts and every view function, checked
 * against hand-computed shapes, strides, offsets and element values.
 */
#include <stdint.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"

/* {====== helpers ====== */

#define D(...) ((const double[]){__VA_ARGS__})

/* A float64 tensor of the given shape holding 0, 1, 2, ... in row-major order. */
static lt_tensor *arange(int ndim, const int64_t *shape) {
  lt_tensor *t = NULL;
  if (lt_tensor_new(LT_FLOAT64, ndim, shape, 0, &t, &err) != LT_OK) {
    CHECKF(0, "arange: %s", err.msg);
    return NULL;
  }
  double *p = (double *)(void *)lt_data(t);
  for (int64_t i = 0; i < lt_numel(t); i++) p[i] = (double)i;
  return t;
}

/* The element of t at a multi-index, as a double. */
static double at(const lt_tensor *t, const int64_t *idx) {
  const char *p = lt_data(t);
  for (int i = 0; i < t->ndim; i++) p += idx[i] * t->strides[i] * (int64_t)lt_esize(t);
  lt_scalar s;
  lt_load(t->dtype, p, &s);
  return s.kind == LT_SK_INT ? (double)s.v.i : s.kind == LT_SK_UINT ? (double)s.v.u : s.v.f;
}

static void check_layout(const lt_tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                         int64_t offset, int line) {
  if (!t) {
    CHECKF(0, "line %d: no tensor", line);
    return;
  }
  CHECKF(t->ndim == ndim, "line %d: ndim %d, expected %d", line, t->ndim, ndim);
  if (t->ndim != ndim) return;
  for (int i = 0; i < ndim; i++) {
    CHECKF(t->shape[i] == shape[i], "line %d: shape[%d] = %lld, expected %lld", line, i,
           (long long)t->shape[i], (long long)shape[i]);
    if (strides)
      CHECKF(t->strides[i] == strides[i], "line %d: strides[%d] = %lld, expected %lld", line, i,
             (long long)t->strides[i], (long long)strides[i]);
  }
  if (offset >= 0)
    CHECKF(t->offset == offset, "line %d: offset %lld, expected %lld", line, (long long)t->offset,
           (long long)offset);
}
/* strides NULL or offset -1: not checked */
#define LAYOUT(t, ndim, shape, strides, offset) \
  check_layout((t), (ndim), (shape), (strides), (offset), __LINE__)

/* The elements of t in row-major order equal want[0..n). */
static void check_values(const lt_tensor *t, int64_t n, const double *want, int line) {
  if (!t) return;
  CHECKF(lt_numel(t) == n, "line %d: %lld elements, expected %lld", line, (long long)lt_numel(t),
         (long long)n);
  if (lt_numel(t) != n || n == 0) return;
  int64_t idx[LT_MAX_NDIM] = {0};
  int64_t k = 0;
  do {
    double v = at(t, idx);
    CHECKF(v == want[k], "line %d: element %lld is %g, expected %g", line, (long long)k, v,
           want[k]);
    k++;
  } while (next_index(t->ndim, t->shape, idx));
}
#define VALUES(t, n, want) check_values((t), (n), (want), __LINE__)

static long refs(const lt_tensor *t) { return atomic_load(&t->storage->refs); }

/* }====== */

static void test_shape_numel(void) {
  int64_t n = -7;
  CHECK_OK(lt_shape_numel(3, A(2, 3, 4), &n, &err));
  CHECK(n == 24);
  CHECK_OK(lt_shape_numel(0, NULL, &n, &err));
  CHECK(n == 1);
  CHECK_OK(lt_shape_numel(3, A(3, 0, 5), &n, &err));
  CHECK(n == 0);
  CHECK_OK(lt_shape_numel(3, A(INT64_C(1) << 62, 0, 1), &n, &err));
  CHECK(n == 0);
  CHECK_OK(lt_shape_numel(2, A(INT64_MAX, 1), &n, &err));
  CHECK(n == INT64_MAX);
  CHECK_OK(lt_shape_numel(2, A(INT64_C(1) << 31, INT64_C(1) << 31), &n, &err));
  CHECK(n == INT64_C(1) << 62);
  n = -7;
  CHECK_ERR(lt_shape_numel(2, A(-1, 2), &n, &err), LT_ERANGE);
  CHECK(n == -7);
  CHECK_ERR(lt_shape_numel(2, A(0, -1), &n, &err), LT_ERANGE);
  CHECK_ERR(lt_shape_numel(2, A(INT64_C(1) << 40, INT64_C(1) << 40), &n, &err), LT_ERANGE);
  CHECK_ERR(lt_shape_numel(2, A(INT64_C(1) << 31, INT64_C(1) << 32), &n, &err), LT_ERANGE);
  CHECK_ERR(lt_shape_numel(2, A(INT64_MAX, 2), &n, &err), LT_ERANGE);
  /* the nonzero sizes of an empty shape must not overflow either (strides come from them) */
  CHECK_ERR(lt_shape_numel(3, A(INT64_C(1) << 40, INT64_C(1) << 40, 0), &n, &err), LT_ERANGE);
  CHECK(n == -7);
  CHECK(lt_shape_numel(1, A(-5), &n, NULL) == LT_ERANGE); /* err may be NULL */
}

static void test_tensor_new(void) {
  for (int dt = 0; dt < LT_NDTYPES; dt++) {
    lt_tensor *t = NULL;
    CHECK_OK(lt_tensor_new((lt_dtype)dt, 3, A(3, 5, 7), 1, &t, &err));
    if (!t) continue;
    LAYOUT(t, 3, A(3, 5, 7), A(35, 7, 1), 0);
    CHECKF(((uintptr_t)lt_data(t) & 63) == 0, "%s data not 64-byte aligned", lt_dtypes[dt].name);
    CHECK(t->dtype == (lt_dtype)dt);
    CHECK(t->dl_dtype.code == lt_dtypes[dt].dl.code && t->dl_dtype.bits == lt_dtypes[dt].dl.bits &&
          t->dl_dtype.lanes == 1);
    CHECK(lt_esize(t) == lt_dtypes[dt].size);
    CHECK(t->readonly == LT_WRITABLE);
    CHECK(refs(t) == 1);
    CHECK(t->storage->block->nbytes >= 105 * lt_dtypes[dt].size);
    CHECK(t->storage->device.device_type == kDLCPU);
    CHECK(lt_numel(t) == 105);
    CHECK(lt_is_contiguous(t));
    int nonzero = 0;
    for (size_t i = 0; i < 105 * lt_dtypes[dt].size; i++) nonzero |= lt_data(t)[i];
    CHECKF(!nonzero, "%s: zero-filled tensor has nonzero bytes", lt_dtypes[dt].name);
    lt_tensor_free(t);
  }
  lt_tensor *t = NULL;
  /* size-1 and size-0 dims: strides as torch (a size counts as at least 1) */
  CHECK_OK(lt_tensor_new(LT_INT32, 4, A(2, 1, 3, 1), 0, &t, &err));
  LAYOUT(t, 4, A(2, 1, 3, 1), A(3, 3, 1, 1), 0);
  lt_tensor_free(t);
  CHECK_OK(lt_tensor_new(LT_INT32, 3, A(2, 0, 3), 0, &t, &err));
  LAYOUT(t, 3, A(2, 0, 3), A(3, 3, 1), 0);
  CHECK(lt_numel(t) == 0);
  CHECK(((uintptr_t)lt_data(t) & 63) == 0);
  lt_tensor_free(t);
  /* 0-d: one element */
  CHECK_OK(lt_tensor_new(LT_FLOAT64, 0, NULL, 1, &t, &err));
  CHECK(t->ndim == 0 && lt_numel(t) == 1 && lt_is_contiguous(t));
  CHECK(t->storage->block->nbytes >= 8 && ((uintptr_t)lt_data(t) & 63) == 0);
  lt_tensor_free(t);
  /* 64 dims of size 1 are fine, 65 are not */
  int64_t ones[LT_MAX_NDIM + 1];
  for (int i = 0; i <= LT_MAX_NDIM; i++) ones[i] = 1;
  CHECK_OK(lt_tensor_new(LT_UINT8, LT_MAX_NDIM, ones, 0, &t, &err));
  CHECK(t->ndim == LT_MAX_NDIM && lt_numel(t) == 1);
  lt_tensor *u = NULL;
  CHECK_ERR(lt_unsqueeze(t, 0, &u, &err), LT_EARG);
  CHECK(u == NULL);
  lt_tensor_free(t);
  t = NULL;
  CHECK_ERR(lt_tensor_new(LT_UINT8, LT_MAX_NDIM + 1, ones, 0, &t, &err), LT_EARG);
  CHECK(t == NULL);
  CHECK_ERR(lt_tensor_new(LT_UINT8, -1, ones, 0, &t, &err), LT_EARG);
  CHECK(lt_tensor_alloc(LT_MAX_NDIM + 1) == NULL);
  CHECK(lt_tensor_alloc(-1) == NULL);
  /* sizes that cannot be allocated fail cleanly, before reaching malloc */
  CHECK_ERR(lt_tensor_new(LT_FLOAT32, 1, A(INT64_C(1) << 62), 0, &t, &err), LT_ERANGE);
  CHECK_ERR(lt_tensor_new(LT_COMPLEX128, 1, A(INT64_C(1) << 60), 0, &t, &err), LT_ERANGE);
  CHECK_ERR(lt_tensor_new(LT_FLOAT64, 2, A(INT64_C(1) << 31, INT64_C(1) << 31), 0, &t, &err),
            LT_ERANGE);
  CHECK_ERR(lt_tensor_new(LT_UINT8, 1, A(INT64_MAX), 0, &t, &err), LT_ERANGE);
  CHECK_ERR(lt_tensor_new(LT_UINT8, 2, A(INT64_C(1) << 40, INT64_C(1) << 40), 0, &t, &err),
            LT_ERANGE);
  CHECK_ERR(lt_tensor_new(LT_UINT8, 2, A(3, -1), 0, &t, &err), LT_ERANGE);
  CHECK(t == NULL);
}

static void test_refcount(void) {
  lt_tensor *base = arange(2, A(4, 4)), *v = NULL, *w = NULL, *a = NULL;
  CHECK(refs(base) == 1);
  CHECK_OK(lt_transpose(base, 0, 1, &v, &err));
  CHECK(v->storage == base->storage && refs(base) == 2);
  CHECK_OK(lt_select(v, 0, 2, &w, &err)); /* column 2 of base */
  CHECK(refs(base) == 3);
  CHECK_OK(lt_tensor_alias(base, &a, &err));
  CHECK(refs(base) == 4 && a->storage == base->storage);
  lt_tensor_free(base); /* the views keep the data alive */
  CHECK(refs(v) == 3);
  VALUES(v, 16, D(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
  lt_tensor_free(v);
  lt_tensor_free(a);
  CHECK(refs(w) == 1);
  VALUES(w, 4, D(2, 6, 10, 14));
  /* writes through the last view land in the (still alive) storage */
  double *p = (double *)(void *)lt_data(w);
  p[w->strides[0]] = -1;
  VALUES(w, 4, D(2, -1, 10, 14));
  lt_tensor_free(w);
  lt_tensor_free(NULL);
  lt_storage_release(NULL);

  /* a wrapped block without a release function: only the header goes */
  static double block[4];
  DLDevice cpu = {kDLCPU, 0};
  lt_storage *s = lt_storage_wrap(block, sizeof block, sizeof block, cpu, NULL, NULL);
  CHECK(s && s->data == block && atomic_load(&s->refs) == 1);
  lt_storage_retain(s);
  CHECK(atomic_load(&s->refs) == 2);
  lt_storage_release(s);
  lt_storage_release(s);
}

static int release_calls;
static void *release_data;
static void count_release(void *ctx, void *data) {
  release_calls += ctx == &release_calls;
  release_data = data;
}

static void test_wrap_release(void) {
  static double block[6] = {1, 2, 3, 4, 5, 6};
  DLDevice cpu = {kDLCPU, 0};
  lt_storage *s =
      lt_storage_wrap(block, sizeof block, sizeof block, cpu, count_release, &release_calls);
  lt_tensor *t = lt_tensor_alloc(2), *v = NULL;
  t->storage = s;
  t->dtype = LT_FLOAT64;
  t->dl_dtype = lt_dtypes[LT_FLOAT64].dl;
  t->shape[0] = 2;
  t->shape[1] = 3;
  lt_contiguous_strides(2, t->shape, t->strides);
  CHECK_OK(lt_transpose(t, 0, 1, &v, &err));
  lt_tensor_free(t);
  CHECK(release_calls == 0);
  VALUES(v, 6, D(1, 4, 2, 5, 3, 6));
  lt_tensor_free(v);
  CHECK(release_calls == 1 && release_data == block);
}

static void test_view(void) {
  lt_tensor *t = arange(3, A(2, 3, 4)), *v = NULL;
  CHECK_OK(lt_view(t, 2, A(4, 6), &v, &err));
  LAYOUT(v, 2, A(4, 6), A(6, 1), 0);
  CHECK(v->storage == t->storage);
  lt_tensor_free(v);
  CHECK_OK(lt_view(t, 2, A(-1, 8), &v, &err));
  LAYOUT(v, 2, A(3, 8), A(8, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_view(t, 3, A(2, -1, 2), &v, &err));
  LAYOUT(v, 3, A(2, 6, 2), A(12, 2, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_view(t, 1, A(-1), &v, &err));
  LAYOUT(v, 1, A(24), A(1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_view(t, 5, A(1, 2, 1, 12, 1), &v, &err));
  LAYOUT(v, 5, A(1, 2, 1, 12, 1), NULL, 0);
  CHECK(v->strides[1] == 12 && v->strides[3] == 1);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_view(t, 2, A(-1, -1), &v, &err), LT_EARG);
  CHECK_ERR(lt_view(t, 2, A(5, 5), &v, &err), LT_EARG);
  CHECK_ERR(lt_view(t, 2, A(-1, 5), &v, &err), LT_EARG);
  CHECK_ERR(lt_view(t, 2, A(-2, -12), &v, &err), LT_ERANGE);
  CHECK_ERR(lt_view(t, 2, A(0, -1), &v, &err), LT_EARG);
  CHECK(v == NULL);

  /* a transposed tensor: dims that cross the two contiguous subspaces cannot be merged */
  lt_tensor *m = arange(2, A(2, 3)), *mt = NULL;
  CHECK_OK(lt_transpose(m, 0, 1, &mt, &err));
  CHECK_ERR(lt_view(mt, 1, A(6), &v, &err), LT_EARG);
  CHECK(strstr(err.msg, "reshape") != NULL);
  CHECK_ERR(lt_view(mt, 2, A(2, 3), &v, &err), LT_EARG);
  CHECK_OK(lt_view(mt, 3, A(3, 1, 2), &v, &err)); /* torch: strides (1, 6, 3) */
  LAYOUT(v, 3, A(3, 1, 2), A(1, 6, 3), 0);
  VALUES(v, 6, D(0, 3, 1, 4, 2, 5));
  lt_tensor_free(v);
  CHECK_OK(lt_view(mt, 2, A(3, 2), &v, &err));
  LAYOUT(v, 2, A(3, 2), A(1, 3), 0);
  lt_tensor_free(v);
  lt_tensor_free(mt);
  lt_tensor_free(m);

  /* a column slice: dim 0 can be split, the rows cannot be merged */
  lt_tensor *n = NULL;
  CHECK_OK(lt_view(t, 2, A(4, 6), &m, &err));
  CHECK_OK(lt_narrow(m, 1, 1, 3, &n, &err));
  LAYOUT(n, 2, A(4, 3), A(6, 1), 1);
  CHECK_OK(lt_view(n, 3, A(2, 2, 3), &v, &err));
  LAYOUT(v, 3, A(2, 2, 3), A(12, 6, 1), 1);
  VALUES(v, 12, D(1, 2, 3, 7, 8, 9, 13, 14, 15, 19, 20, 21));
  lt_tensor_free(v);
  CHECK_ERR(lt_view(n, 1, A(12), &v, &err), LT_EARG);
  lt_tensor_free(n);
  lt_tensor_free(m);

  /* an expanded tensor: stride-0 dims split into stride-0 dims */
  lt_tensor *r = arange(1, A(3)), *e = NULL;
  CHECK_OK(lt_expand(r, 2, A(4, 3), &e, &err));
  CHECK_OK(lt_view(e, 3, A(2, 2, 3), &v, &err));
  LAYOUT(v, 3, A(2, 2, 3), A(0, 0, 1), 0);
  lt_tensor_free(v);
  CHECK_ERR(lt_view(e, 1, A(12), &v, &err), LT_EARG);
  lt_tensor_free(e);
  lt_tensor_free(r);

  /* 0-d <-> {1} */
  lt_tensor *z = NULL;
  CHECK_OK(lt_tensor_new(LT_FLOAT64, 0, NULL, 0, &z, &err));
  *(double *)(void *)lt_data(z) = 42;
  CHECK_OK(lt_view(z, 1, A(1), &v, &err));
  LAYOUT(v, 1, A(1), A(1), 0);
  VALUES(v, 1, D(42));
  lt_tensor *back = NULL;
  CHECK_OK(lt_view(v, 0, NULL, &back, &err));
  CHECK(back->ndim == 0 && lt_numel(back) == 1);
  VALUES(back, 1, D(42));
  lt_tensor_free(back);
  lt_tensor_free(v);
  CHECK_OK(lt_view(z, 1, A(-1), &v, &err));
  LAYOUT(v, 1, A(1), NULL, 0);
  lt_tensor_free(v);
  CHECK_OK(lt_view(z, 2, A(1, 1), &v, &err));
  LAYOUT(v, 2, A(1, 1), NULL, 0);
  lt_tensor_free(v);
  CHECK_ERR(lt_view(z, 1, A(2), &v, &err), LT_EARG);
  lt_tensor_free(z);

  /* empty tensors */
  lt_tensor *em = NULL;
  CHECK_OK(lt_tensor_new(LT_FLOAT64, 2, A(0, 3), 0, &em, &err));
  CHECK_OK(lt_view(em, 2, A(3, 0), &v, &err));
  LAYOUT(v, 2, A(3, 0), NULL, 0);
  lt_tensor_free(v);
  CHECK_OK(lt_view(em, 1, A(-1), &v, &err));
  LAYOUT(v, 1, A(0), NULL, 0);
  lt_tensor_free(v);
  CHECK_ERR(lt_view(em, 2, A(-1, 0), &v, &err), LT_EARG);
  CHECK_ERR(lt_view(em, 1, A(1), &v, &err), LT_EARG);
  lt_tensor_free(em);

  /* too many dims */
  int64_t ones[LT_MAX_NDIM + 1];
  for (int i = 0; i <= LT_MAX_NDIM; i++) ones[i] = 1;
  ones[0] = 24;
  CHECK_OK(lt_view(t, LT_MAX_NDIM, ones, &v, &err));
  CHECK(v->ndim == LT_MAX_NDIM);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_view(t, LT_MAX_NDIM + 1, ones, &v, &err), LT_EARG);
  CHECK_ERR(lt_reshape(t, LT_MAX_NDIM + 1, ones, &v, NULL, &err), LT_EARG);
  CHECK(v == NULL);
  lt_tensor_free(t);
}

static void test_reshape(void) {
  lt_tensor *t = arange(2, A(2, 3)), *v = NULL, *tt = NULL;
  int copied = -1;
  CHECK_OK(lt_reshape(t, 2, A(3, 2), &v, &copied, &err));
  CHECK(copied == 0 && v->storage == t->storage);
  LAYOUT(v, 2, A(3, 2), A(2, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_transpose(t, 0, 1, &tt, &err));
  copied = -1;
  CHECK_OK(lt_reshape(tt, 1, A(6), &v, &copied, &err));
  CHECK(copied == 1 && v->storage != t->storage && refs(v) == 1);
  LAYOUT(v, 1, A(6), A(1), 0);
  VALUES(v, 6, D(0, 3, 1, 4, 2, 5));
  CHECK(((uintptr_t)lt_data(v) & 63) == 0);
  lt_tensor_free(v);
  copied = -1;
  CHECK_OK(lt_reshape(tt, 2, A(-1, 3), &v, &copied, &err));
  CHECK(copied == 1);
  LAYOUT(v, 2, A(2, 3), A(3, 1), 0);
  VALUES(v, 6, D(0, 3, 1, 4, 2, 5));
  lt_tensor_free(v);
  copied = -1;
  CHECK_OK(lt_reshape(tt, 3, A(3, 2, 1), &v, &copied, &err)); /* a view is possible */
  CHECK(copied == 0 && v->storage == t->storage);
  LAYOUT(v, 3, A(3, 2, 1), NULL, 0);
  VALUES(v, 6, D(0, 3, 1, 4, 2, 5));
  lt_tensor_free(v);
  CHECK_OK(lt_reshape(tt, 1, A(6), &v, NULL, &err)); /* copied may be NULL */
  lt_tensor_free(v);
  v = NULL;
  copied = -1;
  CHECK_ERR(lt_reshape(tt, 1, A(7), &v, &copied, &err), LT_EARG);
  CHECK_ERR(lt_reshape(tt, 2, A(-1, -1), &v, &copied, &err), LT_EARG);
  CHECK_ERR(lt_reshape(tt, 2, A(-1, 4), &v, &copied, &err), LT_EARG);
  CHECK(v == NULL && copied == -1);
  lt_tensor_free(tt);
  lt_tensor_free(t);
}

static void test_transpose_permute(void) {
  lt_tensor *t = arange(3, A(2, 3, 4)), *v = NULL, *w = NULL;
  CHECK_OK(lt_transpose(t, 0, 2, &v, &err));
  LAYOUT(v, 3, A(4, 3, 2), A(1, 4, 12), 0);
  CHECK(!lt_is_contiguous(v));
  /* v[i][j][k] = t[k][j][i] = 12k + 4j + i */
  int64_t idx[3] = {0, 0, 0};
  int bad = 0;
  do bad += at(v, idx) != (double)(12 * idx[2] + 4 * idx[1] + idx[0]);
  while (next_index(3, v->shape, idx));
  CHECK(bad == 0);
  CHECK_OK(lt_transpose(v, 2, 0, &w, &err));
  LAYOUT(w, 3, A(2, 3, 4), A(12, 4, 1), 0);
  CHECK(lt_is_contiguous(w));
  lt_tensor_free(w);
  lt_tensor_free(v);
  CHECK_OK(lt_transpose(t, 1, 1, &v, &err));
  LAYOUT(v, 3, A(2, 3, 4), A(12, 4, 1), 0);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_transpose(t, 0, 3, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_transpose(t, -1, 0, &v, &err), LT_ERANGE);
  CHECK(v == NULL);

  CHECK_OK(lt_permute(t, (const int[]){2, 0, 1}, &v, &err));
  LAYOUT(v, 3, A(4, 2, 3), A(1, 12, 4), 0);
  VALUES(v, 24,
         D(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23));
  lt_tensor_free(v);
  CHECK_OK(lt_permute(t, (const int[]){0, 1, 2}, &v, &err));
  LAYOUT(v, 3, A(2, 3, 4), A(12, 4, 1), 0);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_permute(t, (const int[]){0, 0, 1}, &v, &err), LT_EARG);
  CHECK_ERR(lt_permute(t, (const int[]){2, 1, 2}, &v, &err), LT_EARG);
  CHECK_ERR(lt_permute(t, (const int[]){0, 1, 3}, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_permute(t, (const int[]){0, -1, 2}, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(t);
  lt_tensor *z = NULL;
  CHECK_OK(lt_tensor_new(LT_FLOAT32, 0, NULL, 0, &z, &err));
  CHECK_OK(lt_permute(z, NULL, &v, &err));
  CHECK(v->ndim == 0);
  lt_tensor_free(v);
  lt_tensor_free(z);
}

static void test_narrow_select(void) {
  lt_tensor *t = arange(2, A(4, 6)), *v = NULL, *w = NULL;
  CHECK_OK(lt_narrow(t, 1, 2, 3, &v, &err));
  LAYOUT(v, 2, A(4, 3), A(6, 1), 2);
  VALUES(v, 12, D(2, 3, 4, 8, 9, 10, 14, 15, 16, 20, 21, 22));
  CHECK(!lt_is_contiguous(v));
  CHECK_OK(lt_narrow(v, 0, 1, 2, &w, &err));
  LAYOUT(w, 2, A(2, 3), A(6, 1), 8);
  VALUES(w, 6, D(8, 9, 10, 14, 15, 16));
  lt_tensor_free(w);
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 0, 1, 2, &v, &err));
  LAYOUT(v, 2, A(2, 6), A(6, 1), 6);
  CHECK(lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 0, 4, 0, &v, &err));
  LAYOUT(v, 2, A(0, 6), NULL, -1);
  CHECK(lt_numel(v) == 0);
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 1, 0, 6, &v, &err));
  LAYOUT(v, 2, A(4, 6), A(6, 1), 0);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_narrow(t, 0, 3, 2, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_narrow(t, 0, -1, 1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_narrow(t, 0, 5, 0, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_narrow(t, 0, 0, -1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_narrow(t, 2, 0, 1, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(t);

  t = arange(3, A(2, 3, 4));
  CHECK_OK(lt_select(t, 1, 2, &v, &err));
  LAYOUT(v, 2, A(2, 4), A(12, 1), 8);
  VALUES(v, 8, D(8, 9, 10, 11, 20, 21, 22, 23));
  CHECK_OK(lt_select(v, 0, 1, &w, &err));
  LAYOUT(w, 1, A(4), A(1), 20);
  lt_tensor *s = NULL;
  CHECK_OK(lt_select(w, 0, 3, &s, &err));
  LAYOUT(s, 0, NULL, NULL, 23);
  VALUES(s, 1, D(23));
  lt_tensor *s2 = NULL;
  CHECK_ERR(lt_select(s, 0, 0, &s2, &err), LT_ERANGE); /* 0-d has no dims */
  lt_tensor_free(s);
  lt_tensor_free(w);
  lt_tensor_free(v);
  CHECK_OK(lt_select(t, 2, 1, &v, &err));
  LAYOUT(v, 2, A(2, 3), A(12, 4), 1);
  VALUES(v, 6, D(1, 5, 9, 13, 17, 21));
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_select(t, 1, 3, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_select(t, 1, -1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_select(t, 3, 0, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(t);
}

static void test_slice(void) {
  lt_tensor *t = arange(1, A(10)), *v = NULL, *w = NULL;
  CHECK_OK(lt_slice(t, 0, 1, 4, 2, &v, &err));
  LAYOUT(v, 1, A(4), A(2), 1);
  VALUES(v, 4, D(1, 3, 5, 7));
  CHECK_OK(lt_slice(v, 0, 3, 2, -2, &w, &err)); /* 7, 3 */
  LAYOUT(w, 1, A(2), A(-4), 7);
  VALUES(w, 2, D(7, 3));
  lt_tensor_free(w);
  lt_tensor_free(v);
  CHECK_OK(lt_slice(t, 0, 9, 10, -1, &v, &err));
  LAYOUT(v, 1, A(10), A(-1), 9);
  VALUES(v, 10, D(9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  CHECK(!lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_slice(t, 0, 8, 3, -3, &v, &err));
  LAYOUT(v, 1, A(3), A(-3), 8);
  VALUES(v, 3, D(8, 5, 2));
  lt_tensor_free(v);
  CHECK_OK(lt_slice(t, 0, 1, 5, 2, &v, &err)); /* last element is 9 */
  VALUES(v, 5, D(1, 3, 5, 7, 9));
  lt_tensor_free(v);
  CHECK_OK(lt_slice(t, 0, 4, 1, 5, &v, &err)); /* one element: stride unchanged */
  LAYOUT(v, 1, A(1), A(1), 4);
  lt_tensor_free(v);
  CHECK_OK(lt_slice(t, 0, 10, 0, 1, &v, &err)); /* empty at the end */
  LAYOUT(v, 1, A(0), NULL, -1);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_slice(t, 0, 2, 5, 2, &v, &err), LT_ERANGE);  /* would reach 10 */
  CHECK_ERR(lt_slice(t, 0, 2, 3, -2, &v, &err), LT_ERANGE); /* would reach -2 */
  CHECK_ERR(lt_slice(t, 0, 10, 1, 1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_slice(t, 0, -1, 1, 1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_slice(t, 0, 11, 0, 1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_slice(t, 0, 0, -1, 1, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_slice(t, 0, 0, 2, 0, &v, &err), LT_EARG);
  CHECK_ERR(lt_slice(t, 0, 0, 2, INT64_MAX, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_slice(t, 0, 9, 3, INT64_MIN, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_slice(t, 1, 0, 1, 1, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(t);

  t = arange(2, A(4, 6));
  CHECK_OK(lt_slice(t, 1, 5, 3, -2, &v, &err));
  LAYOUT(v, 2, A(4, 3), A(6, -2), 5);
  VALUES(v, 12, D(5, 3, 1, 11, 9, 7, 17, 15, 13, 23, 21, 19));
  CHECK_OK(lt_slice(v, 0, 3, 2, -3, &w, &err)); /* rows 3, 0 */
  LAYOUT(w, 2, A(2, 3), A(-18, -2), 23);
  VALUES(w, 6, D(23, 21, 19, 5, 3, 1));
  lt_tensor_free(w);
  lt_tensor_free(v);
  lt_tensor_free(t);
}

static void test_unsqueeze_squeeze(void) {
  lt_tensor *t = arange(3, A(2, 3, 4)), *v = NULL, *tt = NULL;
  static const int64_t want[4][4] = {{24, 12, 4, 1}, {12, 12, 4, 1}, {12, 4, 4, 1}, {12, 4, 1, 1}};
  for (int d = 0; d <= 3; d++) {
    CHECK_OK(lt_unsqueeze(t, d, &v, &err));
    int64_t shape[4], k = 0;
    for (int i = 0; i < 4; i++) shape[i] = i == d ? 1 : (int64_t[]){2, 3, 4}[k++];
    LAYOUT(v, 4, shape, want[d], 0);
    CHECK(lt_is_contiguous(v));
    lt_tensor_free(v);
  }
  /* on a non-contiguous tensor: size * stride of the dim it goes before, as torch */
  CHECK_OK(lt_transpose(t, 0, 2, &tt, &err)); /* {4,3,2} strides {1,4,12} */
  static const int64_t want_t[4][4] = {
      {4, 1, 4, 12}, {1, 12, 4, 12}, {1, 4, 24, 12}, {1, 4, 12, 1}};
  for (int d = 0; d <= 3; d++) {
    CHECK_OK(lt_unsqueeze(tt, d, &v, &err));
    int64_t shape[4], k = 0;
    for (int i = 0; i < 4; i++) shape[i] = i == d ? 1 : (int64_t[]){4, 3, 2}[k++];
    LAYOUT(v, 4, shape, want_t[d], 0);
    lt_tensor_free(v);
  }
  v = NULL;
  CHECK_ERR(lt_unsqueeze(t, 4, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_unsqueeze(t, -1, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(tt);
  lt_tensor_free(t);
  lt_tensor *z = NULL;
  CHECK_OK(lt_tensor_new(LT_INT64, 0, NULL, 0, &z, &err));
  CHECK_OK(lt_unsqueeze(z, 0, &v, &err));
  LAYOUT(v, 1, A(1), A(1), 0);
  lt_tensor_free(v);

  /* squeeze */
  CHECK_OK(lt_squeeze(z, -1, &v, &err));
  CHECK(v->ndim == 0);
  lt_tensor_free(v);
  lt_tensor_free(z);
  t = arange(4, A(1, 3, 1, 2)); /* strides {6, 2, 2, 1} */
  CHECK_OK(lt_squeeze(t, -1, &v, &err));
  LAYOUT(v, 2, A(3, 2), A(2, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_squeeze(t, 0, &v, &err));
  LAYOUT(v, 3, A(3, 1, 2), A(2, 2, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_squeeze(t, 2, &v, &err));
  LAYOUT(v, 3, A(1, 3, 2), A(6, 2, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_squeeze(t, 1, &v, &err)); /* size 3: kept */
  LAYOUT(v, 4, A(1, 3, 1, 2), A(6, 2, 2, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_squeeze(t, 3, &v, &err)); /* size 2: kept */
  LAYOUT(v, 4, A(1, 3, 1, 2), A(6, 2, 2, 1), 0);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_squeeze(t, 4, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(t);
  t = arange(2, A(1, 1));
  CHECK_OK(lt_squeeze(t, -1, &v, &err));
  CHECK(v->ndim == 0);
  VALUES(v, 1, D(0));
  lt_tensor_free(v);
  lt_tensor_free(t);
}

static void test_flatten(void) {
  lt_tensor *t = arange(3, A(2, 3, 4)), *v = NULL, *tt = NULL;
  CHECK_OK(lt_flatten(t, 0, 2, &v, &err));
  LAYOUT(v, 1, A(24), A(1), 0);
  CHECK(v->storage == t->storage);
  lt_tensor_free(v);
  CHECK_OK(lt_flatten(t, 1, 2, &v, &err));
  LAYOUT(v, 2, A(2, 12), A(12, 1), 0);
  CHECK(v->storage == t->storage);
  lt_tensor_free(v);
  CHECK_OK(lt_flatten(t, 0, 1, &v, &err));
  LAYOUT(v, 2, A(6, 4), A(4, 1), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_flatten(t, 1, 1, &v, &err));
  LAYOUT(v, 3, A(2, 3, 4), A(12, 4, 1), 0);
  lt_tensor_free(v);
  /* transposed: merging dims 0..1 needs a copy, dims 1..2 do not */
  CHECK_OK(lt_transpose(t, 0, 2, &tt, &err)); /* {4,3,2} strides {1,4,12} */
  CHECK_OK(lt_flatten(tt, 0, 1, &v, &err));
  LAYOUT(v, 2, A(12, 2), A(2, 1), 0);
  CHECK(v->storage != t->storage);
  VALUES(v, 24,
         D(0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23));
  lt_tensor_free(v);
  lt_tensor *p = NULL;
  CHECK_OK(lt_permute(t, (const int[]){1, 2, 0}, &p, &err)); /* {3,4,2} strides {4,1,12} */
  CHECK_OK(lt_flatten(p, 0, 1, &v, &err));
  LAYOUT(v, 2, A(12, 2), A(1, 12), 0);
  CHECK(v->storage == t->storage);
  lt_tensor_free(v);
  lt_tensor_free(p);
  v = NULL;
  CHECK_ERR(lt_flatten(t, 2, 1, &v, &err), LT_EARG);
  CHECK_ERR(lt_flatten(t, 0, 3, &v, &err), LT_ERANGE);
  CHECK_ERR(lt_flatten(t, -1, 1, &v, &err), LT_ERANGE);
  CHECK(v == NULL);
  lt_tensor_free(tt);
  lt_tensor_free(t);
  /* 0-d -> {1} */
  lt_tensor *z = NULL;
  CHECK_OK(lt_tensor_new(LT_FLOAT64, 0, NULL, 0, &z, &err));
  *(double *)(void *)lt_data(z) = 5;
  CHECK_OK(lt_flatten(z, 0, 0, &v, &err));
  LAYOUT(v, 1, A(1), A(1), 0);
  VALUES(v, 1, D(5));
  lt_tensor_free(v);
  lt_tensor_free(z);
  /* empty tensors keep the sizes that are not zero, as torch: (0,3,4).flatten(1) is (0,12) */
  lt_tensor *e = NULL;
  CHECK_OK(lt_tensor_new(LT_FLOAT64, 3, A(0, 3, 4), 0, &e, &err));
  CHECK_OK(lt_flatten(e, 1, 2, &v, &err));
  LAYOUT(v, 2, A(0, 12), NULL, 0);
  lt_tensor_free(v);
  CHECK_OK(lt_flatten(e, 0, 1, &v, &err));
  LAYOUT(v, 2, A(0, 4), NULL, 0);
  lt_tensor_free(v);
  lt_tensor_free(e);
  /* sizes whose product overflows cannot make an empty tensor either */
  e = NULL;
  CHECK_ERR(lt_tensor_new(LT_FLOAT64, 3, A(INT64_C(1) << 40, INT64_C(1) << 40, 0), 0, &e, &err),
            LT_ERANGE);
  CHECK(e == NULL);
}

static void test_expand(void) {
  lt_tensor *t = arange(2, A(3, 1)), *v = NULL;
  CHECK_OK(lt_expand(t, 2, A(3, 4), &v, &err));
  LAYOUT(v, 2, A(3, 4), A(1, 0), 0);
  VALUES(v, 12, D(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
  CHECK(!lt_is_contiguous(v));
  CHECK(v->storage == t->storage);
  lt_tensor_free(v);
  CHECK_OK(lt_expand(t, 2, A(-1, 4), &v, &err));
  LAYOUT(v, 2, A(3, 4), A(1, 0), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_expand(t, 3, A(2, 3, 4), &v, &err));
  LAYOUT(v, 3, A(2, 3, 4), A(0, 1, 0), 0);
  VALUES(v, 24, D(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
  lt_tensor_free(v);
  CHECK_OK(lt_expand(t, 2, A(3, 1), &v, &err));
  LAYOUT(v, 2, A(3, 1), A(1, 1), 0);
  CHECK(lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_expand(t, 2, A(3, 0), &v, &err));
  LAYOUT(v, 2, A(3, 0), A(1, 0), 0);
  lt_tensor_free(v);
  CHECK_OK(lt_expand(t, 3, A(0, 3, 1), &v, &err));
  LAYOUT(v, 3, A(0, 3, 1), A(0, 1, 1), 0);
  lt_tensor_free(v);
  v = NULL;
  CHECK_ERR(lt_expand(t, 2, A(4, 4), &v, &err), LT_EARG);
  CHECK_ERR(lt_expand(t, 2, A(3, -2), &v, &err), LT_EARG);
  CHECK_ERR(lt_expand(t, 3, A(-1, 3, 4), &v, &err), LT_EARG);
  CHECK_ERR(lt_expand(t, 1, A(3), &v, &err), LT_EARG);
  CHECK_ERR(lt_expand(t, 4, A(INT64_C(1) << 40, INT64_C(1) << 40, 3, 1), &v, &err), LT_ERANGE);
  int64_t many[LT_MAX_NDIM + 1];
  for (int i = 0; i <= LT_MAX_NDIM; i++) many[i] = 1;
  many[LT_MAX_NDIM - 1] = 3;
  CHECK_ERR(lt_expand(t, LT_MAX_NDIM + 1, many, &v, &err), LT_EARG);
  CHECK(v == NULL);
  many[LT_MAX_NDIM - 2] = 3;
  CHECK_OK(lt_expand(t, LT_MAX_NDIM, many + 1, &v, &err));
  CHECK(v->ndim == LT_MAX_NDIM && v->strides[0] == 0 && v->strides[LT_MAX_NDIM - 2] == 1);
  lt_tensor_free(v);
  lt_tensor_free(t);
  /* a 0-d tensor expands to anything */
  lt_tensor *z = NULL;
  CHECK_OK(lt_tensor_new(LT_FLOAT64, 0, NULL, 0, &z, &err));
  *(double *)(void *)lt_data(z) = 7;
  CHECK_OK(lt_expand(z, 2, A(2, 2), &v, &err));
  LAYOUT(v, 2, A(2, 2), A(0, 0), 0);
  VALUES(v, 4, D(7, 7, 7, 7));
  lt_tensor_free(v);
  lt_tensor_free(z);
}

static void test_contiguous(void) {
  lt_tensor *t = arange(2, A(4, 5)), *v = NULL;
  CHECK(lt_is_contiguous(t));
  CHECK_OK(lt_narrow(t, 0, 1, 2, &v, &err));
  CHECK(lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 1, 1, 2, &v, &err));
  CHECK(!lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 1, 1, 1, &v, &err)); /* {4,1} strides {5,1}: not contiguous */
  CHECK(!lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 0, 2, 1, &v, &err)); /* {1,5}: contiguous */
  CHECK(lt_is_contiguous(v));
  lt_tensor *w = NULL;
  CHECK_OK(lt_transpose(v, 0, 1, &w, &err)); /* {5,1} strides {1,5}: contiguous */
  CHECK(lt_is_contiguous(w));
  lt_tensor_free(w);
  lt_tensor_free(v);
  CHECK_OK(lt_select(t, 1, 2, &v, &err)); /* {4} stride {5} */
  CHECK(!lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_select(t, 0, 2, &v, &err));
  CHECK(lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_slice(t, 1, 4, 5, -1, &v, &err));
  CHECK(!lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_narrow(t, 1, 1, 0, &v, &err)); /* empty */
  CHECK(lt_is_contiguous(v));
  lt_tensor_free(v);
  lt_tensor_free(t);
  t = arange(2, A(1, 5));
  CHECK_OK(lt_expand(t, 2, A(3, 5), &v, &err));
  CHECK(!lt_is_contiguous(v));
  lt_tensor_free(v);
  CHECK_OK(lt_expand(t, 3, A(1, 1, 5), &v, &err)); /* stride 0 on a size-1 dim */
  CHECK(lt_is_contiguous(v));
  lt_tensor_free(v);
  lt_tensor_free(t);
}

static void test_misc(void) {
  /* clone: a new contiguous copy, same dtype, writable */
  lt_tensor *t = arange(2, A(3, 4)), *tt = NULL, *c = NULL;
  t->readonly = LT_RO_HOST;
  CHECK_OK(lt_transpose(t, 0, 1, &tt, &err));
  CHECK(tt->readonly == LT_RO_HOST); /* views share the read-only state */
  CHECK_OK(lt_clone(tt, &c, &err));
  LAYOUT(c, 2, A(4, 3), A(3, 1), 0);
  CHECK(c->storage != t->storage && c->readonly == LT_WRITABLE && c->dtype == LT_FLOAT64);
  VALUES(c, 12, D(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
  CHECK(lt_check_writable(tt, &err) == LT_EREADONLY && strstr(err.msg, "read-only"));
  CHECK(lt_readonly_reason(c) == NULL);
  CHECK(lt_check_writable(c, &err) == LT_OK);
  lt_tensor_free(c);
  lt_tensor_free(tt);
  lt_tensor_free(t);

  /* device names */
  char buf[32];
  DLDevice d = {kDLCPU, 0};
  lt_device_str(d, buf, sizeof buf);
  CHECK(strcmp(buf, "cpu") == 0);
  d.device_type = kDLCUDA;
  d.device_id = 1;
  lt_device_str(d, buf, sizeof buf);
  CHECK(strcmp(buf, "cuda:1") == 0);

  /* lt_fail with err NULL only returns the code */
  CHECK(lt_fail(NULL, LT_EARG, "x %d", 1) == LT_EARG);
  lt_error e2;
  CHECK(lt_fail(&e2, LT_ERANGE, "value %d", 42) == LT_ERANGE && strcmp(e2.msg, "value 42") == 0);
}

/* The cache of large blocks (lt_storage.c): a block released and one of nearly its size asked
   for next reuse one mapping; a zero-filled request gets zeros from it; one much smaller does
   not take it. Off under AddressSanitizer (then only the zero fill is checked). */
static void test_block_cache(void) {
  const size_t n = (size_t)8 << 20;
  int on = lt_storage_cache_limit() >= 4 * n;
  lt_storage *s = lt_storage_new(n, 0);
  CHECK(s != NULL);
  memset(s->data, 0xAB, n);
  void *first = s->data;
  lt_storage_release(s);
  s = lt_storage_new(n - 4096, 1); /* within a quarter: the same mapping, zeroed */
  CHECK(s != NULL);
  if (on) CHECK(s->data == first);
  const unsigned char *d = s->data;
  size_t nonzero = 0;
  for (size_t i = 0; i < n - 4096; i++) nonzero += d[i] != 0;
  CHECK(nonzero == 0);
  lt_storage_release(s);
  s = lt_storage_new(n / 2, 0); /* half the size: not the cached mapping */
  CHECK(s != NULL && s->data != first);
  lt_storage *t = lt_storage_new(n, 0); /* the cached one is still there for this one */
  CHECK(t != NULL);
  if (on) CHECK(t->data == first);
  lt_storage_release(s);
  lt_storage_release(t);
}

/* The cache keeps the last blocks released: blocks of sizes never asked for again (a script's
   one-off temporaries) do not fill its slots for good. Before, four of them did, and every
   later large result was a fresh mapping with its page faults (bench_compute's abs ran at
   NumPy's speed instead of 1.5x). */
static void test_block_cache_recent(void) {
  const size_t n = (size_t)4 << 20;
  if (lt_storage_cache_limit() < 16 * n) return; /* off (ASan) or set small */
  lt_storage *odd[6];
  for (int i = 0; i < 6; i++) CHECK((odd[i] = lt_storage_new(n + (size_t)i * n / 2, 0)) != NULL);
  for (int i = 0; i < 6; i++) lt_storage_release(odd[i]); /* more than the slots */
  for (int round = 0; round < 3; round++) {
    lt_storage *s = lt_storage_new(5 * n, 0); /* a size none of them has */
    CHECK(s != NULL);
    memset(s->data, 0xCD, 5 * n);
    lt_storage_release(s);
    s = lt_storage_new(5 * n, 0); /* not zeroed: a kept block still holds 0xCD (a fresh one, even
                                     at the same address, is the kernel's zeros) */
    CHECK(s != NULL && ((unsigned char *)s->data)[12345] == 0xCD);
    lt_storage_release(s);
  }
}

int main(void) {
  test_block_cache();
  test_block_cache_recent();
  test_shape_numel();
  test_tensor_new();
  test_refcount();
  test_wrap_release();
  test_view();
  test_reshape();
  test_transpose_permute();
  test_narrow_select();
  test_slice();
  test_unsqueeze_squeeze();
  test_flatten();
  test_expand();
  test_contiguous();
  test_misc();
  return tu_finish("test_tensor");
}
