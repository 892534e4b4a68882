/*
 * test_values.h -- what the C tests of the math share (test_math.c, test_reduce.c,
 * test_matmul.c): tensors made from values, their elements read back as doubles, exact
 * comparison of a result (EQUALS). Static helpers, included once per test program.
 */
#ifndef TEST_VALUES_H
#define TEST_VALUES_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"

/* Integer element (wrapping uint64 for uint64). */
static inline int64_t geti(const lt_tensor *t, const int64_t *idx) {
  lt_scalar s;
  lt_load(t->dtype, addr(t, idx), &s);
  return s.kind == LT_SK_UINT ? (int64_t)s.v.u : s.v.i;
}

static inline void setc(lt_tensor *t, const int64_t *idx, double re, double im) {
  lt_scalar s;
  s.kind = LT_SK_COMPLEX;
  s.v.f = re;
  s.im = im;
  if (!lt_dtypes[t->dtype].is_complex) s.kind = LT_SK_FLOAT;
  CHECK(lt_store(t->dtype, addr(t, idx), &s) == LT_STORE_OK);
}

static inline void set(lt_tensor *t, const int64_t *idx, double v) { setc(t, idx, v, 0); }

/* A new tensor of dtype dt and shape holding vals (row-major). */
static inline lt_tensor *from(lt_dtype dt, int ndim, const int64_t *shape, const double *vals) {
  lt_tensor *t = make(dt, ndim, shape);
  if (lt_numel(t) == 0) return t;
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do set(t, idx, vals[k++]);
  while (next_index(t->ndim, t->shape, idx));
  return t;
}

/* Element k (row-major) of t. */
static inline double at(const lt_tensor *t, int64_t k) {
  int64_t idx[LT_MAX_NDIM];
  for (int d = t->ndim - 1; d >= 0; d--) {
    idx[d] = t->shape[d] ? k % t->shape[d] : 0;
    k = t->shape[d] ? k / t->shape[d] : 0;
  }
  return get(t, idx, NULL);
}

static inline double at_im(const lt_tensor *t, int64_t k) {
  int64_t idx[LT_MAX_NDIM];
  double im;
  for (int d = t->ndim - 1; d >= 0; d--) {
    idx[d] = k % t->shape[d];
    k /= t->shape[d];
  }
  get(t, idx, &im);
  return im;
}

static inline int same_shape(const lt_tensor *t, int ndim, const int64_t *shape) {
  if (t->ndim != ndim) return 0;
  for (int d = 0; d < ndim; d++)
    if (t->shape[d] != shape[d]) return 0;
  return 1;
}

/* t matches vals exactly (row-major), with shape and dtype. */
static inline int equals(const lt_tensor *t, lt_dtype dt, int ndim, const int64_t *shape,
                         const double *vals, int line) {
  if (!t) {
    fprintf(stderr, "line %d: no tensor\n", line);
    return 0;
  }
  if (t->dtype != dt || !same_shape(t, ndim, shape)) {
    fprintf(stderr, "line %d: got %s with %d dims, expected %s with %d\n", line,
            lt_dtypes[t->dtype].name, t->ndim, lt_dtypes[dt].name, ndim);
    return 0;
  }
  for (int64_t k = 0; k < lt_numel(t); k++) {
    double v = at(t, k);
    if (!(v == vals[k] || (isnan(v) && isnan(vals[k])))) {
      fprintf(stderr, "line %d: element %lld is %.17g, expected %.17g\n", line, (long long)k, v,
              vals[k]);
      return 0;
    }
  }
  return 1;
}
/* Tolerance of a floating result dtype. */
static inline double tol(lt_dtype dt) {
  switch (dt) {
    case LT_FLOAT16: return 2e-3;
    case LT_BFLOAT16: return 1e-2;
    case LT_FLOAT32:
    case LT_COMPLEX64: return 1e-6;
    default: return 1e-12;
  }
}

/* got is want within the tolerance of dt (relative, or absolute below 1); NaN is NaN. */
static inline int close_to(double got, double want, lt_dtype dt) {
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  return fabs(got - want) <= tol(dt) * (fabs(want) > 1 ? fabs(want) : 1);
}

#define EQUALS(t, dt, ndim, shape, ...) \
  equals((t), (dt), (ndim), (shape), (const double[]){__VA_ARGS__}, __LINE__)

#endif
