/*
 * test_math.c -- reductions (lt_reduce), matrix products (lt_matmul) and cat (lt_cat): values
 * computed by hand and by naive loops, every dim with and without keepdim, transposed and
 * reversed inputs, the dtypes each operation takes, NaN, empty tensors, accuracy, errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_linalg.h"
#include "lt_math.h"
#include "lt_reduce.h"
#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"

/* {====== helpers ====== */

/* Integer element (wrapping uint64 for uint64). */
static int64_t geti(const lt_tensor *t, const int64_t *idx) {
  lt_scalar s;
  lt_load(t->dtype, addr(t, idx), &s);
  return s.kind == LT_SK_UINT ? (int64_t)s.v.u : s.v.i;
}

static void setc(lt_tensor *t, const int64_t *idx, double re, double im) {
  lt_scalar s;
  s.kind = LT_SK_COMPLEX;
  s.v.f = re;
  s.im = im;
  if (!lt_dtypes[t->dtype].is_complex) s.kind = LT_SK_FLOAT;
  CHECK(lt_store(t->dtype, addr(t, idx), &s) == LT_STORE_OK);
}

static void set(lt_tensor *t, const int64_t *idx, double v) { setc(t, idx, v, 0); }

/* A new tensor of dtype dt and shape holding vals (row-major). */
static lt_tensor *from(lt_dtype dt, int ndim, const int64_t *shape, const double *vals) {
  lt_tensor *t = make(dt, ndim, shape);
  if (lt_numel(t) == 0) return t;
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do set(t, idx, vals[k++]);
  while (next_index(t->ndim, t->shape, idx));
  return t;
}

/* Element k (row-major) of t. */
static double at(const lt_tensor *t, int64_t k) {
  int64_t idx[LT_MAX_NDIM];
  for (int d = t->ndim - 1; d >= 0; d--) {
    idx[d] = t->shape[d] ? k % t->shape[d] : 0;
    k = t->shape[d] ? k / t->shape[d] : 0;
  }
  return get(t, idx, NULL);
}

static double at_im(const lt_tensor *t, int64_t k) {
  int64_t idx[LT_MAX_NDIM];
  double im;
  for (int d = t->ndim - 1; d >= 0; d--) {
    idx[d] = k % t->shape[d];
    k /= t->shape[d];
  }
  get(t, idx, &im);
  return im;
}

static int same_shape(const lt_tensor *t, int ndim, const int64_t *shape) {
  if (t->ndim != ndim) return 0;
  for (int d = 0; d < ndim; d++)
    if (t->shape[d] != shape[d]) return 0;
  return 1;
}

/* t matches vals exactly (row-major), with shape and dtype. */
static int equals(const lt_tensor *t, lt_dtype dt, int ndim, const int64_t *shape,
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
#define EQUALS(t, dt, ndim, shape, ...) \
  equals((t), (dt), (ndim), (shape), (const double[]){__VA_ARGS__}, __LINE__)

/* Reduces and frees nothing: the caller frees the result. */
static lt_tensor *red(lt_redop op, const lt_tensor *a, int dim, int keepdim) {
  lt_tensor *o = NULL;
  CHECK_OK(lt_reduce(op, a, dim, keepdim, 1, &o, NULL, &err));
  return o;
}

/* }====== */

/* {====== reductions: hand-computed values ====== */

static void test_reduce_hand(void) {
  /* [[1, 2, 3], [4, 5, 6]] */
  const double v6[] = {1, 2, 3, 4, 5, 6};
  lt_tensor *i32 = from(LT_INT32, 2, A(2, 3), v6), *f32 = from(LT_FLOAT32, 2, A(2, 3), v6), *o;

  o = red(LT_SUM, i32, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 21));
  lt_tensor_free(o);
  o = red(LT_SUM, i32, -1, 1);
  CHECK(EQUALS(o, LT_INT64, 2, A(1, 1), 21));
  lt_tensor_free(o);
  o = red(LT_SUM, i32, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(3), 5, 7, 9));
  lt_tensor_free(o);
  o = red(LT_SUM, i32, 0, 1);
  CHECK(EQUALS(o, LT_INT64, 2, A(1, 3), 5, 7, 9));
  lt_tensor_free(o);
  o = red(LT_SUM, i32, 1, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(2), 6, 15));
  lt_tensor_free(o);
  o = red(LT_SUM, i32, 1, 1);
  CHECK(EQUALS(o, LT_INT64, 2, A(2, 1), 6, 15));
  lt_tensor_free(o);
  o = red(LT_SUM, f32, 1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 1, A(2), 6, 15));
  lt_tensor_free(o);

  o = red(LT_PROD, i32, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 720));
  lt_tensor_free(o);
  o = red(LT_PROD, i32, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(3), 4, 10, 18));
  lt_tensor_free(o);
  o = red(LT_PROD, f32, 1, 1);
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(2, 1), 6, 120));
  lt_tensor_free(o);

  o = red(LT_MEAN, f32, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, 3.5));
  lt_tensor_free(o);
  o = red(LT_MEAN, f32, 0, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 1, A(3), 2.5, 3.5, 4.5));
  lt_tensor_free(o);
  o = red(LT_MEAN, f32, 1, 1);
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(2, 1), 2, 5));
  lt_tensor_free(o);

  /* min/max with positions: [[3, 1, 3], [0, 7, 7]] */
  const double mm[] = {3, 1, 3, 0, 7, 7};
  lt_tensor *m = from(LT_INT8, 2, A(2, 3), mm), *ix = NULL;
  CHECK_OK(lt_reduce(LT_MAX, m, 1, 0, 1, &o, &ix, &err));
  CHECK(EQUALS(o, LT_INT8, 1, A(2), 3, 7));
  CHECK(EQUALS(ix, LT_INT64, 1, A(2), 0, 1)); /* first occurrence */
  lt_tensor_free(o);
  lt_tensor_free(ix);
  CHECK_OK(lt_reduce(LT_MIN, m, 0, 1, 1, &o, &ix, &err));
  CHECK(EQUALS(o, LT_INT8, 2, A(1, 3), 0, 1, 3));
  CHECK(EQUALS(ix, LT_INT64, 2, A(1, 3), 1, 0, 0));
  lt_tensor_free(o);
  lt_tensor_free(ix);
  CHECK_OK(lt_reduce(LT_MAX, m, 0, 0, 1, &o, NULL, &err)); /* positions not asked for */
  CHECK(EQUALS(o, LT_INT8, 1, A(3), 3, 7, 7));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_MAX, m, -1, 0, 1, &o, &ix, &err));
  CHECK(EQUALS(o, LT_INT8, 0, NULL, 7));
  CHECK(ix == NULL); /* over every element: no positions */
  lt_tensor_free(o);
  o = red(LT_MIN, m, -1, 1);
  CHECK(EQUALS(o, LT_INT8, 2, A(1, 1), 0));
  lt_tensor_free(o);
  o = red(LT_ARGMAX, m, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 4));
  lt_tensor_free(o);
  o = red(LT_ARGMIN, m, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 3));
  lt_tensor_free(o);
  o = red(LT_ARGMAX, m, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(3), 0, 1, 1));
  lt_tensor_free(o);
  o = red(LT_ARGMIN, m, 1, 1);
  CHECK(EQUALS(o, LT_INT64, 2, A(2, 1), 1, 0));
  lt_tensor_free(o);

  /* all/any: [[1, 0, 2], [3, 4, 5]] */
  const double aa[] = {1, 0, 2, 3, 4, 5};
  lt_tensor *b = from(LT_UINT8, 2, A(2, 3), aa);
  o = red(LT_ALL, b, -1, 0);
  CHECK(EQUALS(o, LT_BOOL, 0, NULL, 0));
  lt_tensor_free(o);
  o = red(LT_ANY, b, -1, 0);
  CHECK(EQUALS(o, LT_BOOL, 0, NULL, 1));
  lt_tensor_free(o);
  o = red(LT_ALL, b, 1, 0);
  CHECK(EQUALS(o, LT_BOOL, 1, A(2), 0, 1));
  lt_tensor_free(o);
  o = red(LT_ALL, b, 0, 1);
  CHECK(EQUALS(o, LT_BOOL, 2, A(1, 3), 1, 0, 1));
  lt_tensor_free(o);
  lt_tensor_free(b);
  const double zz[] = {0, 0, 0, 0, 0, 1};
  b = from(LT_FLOAT32, 2, A(2, 3), zz);
  o = red(LT_ANY, b, 1, 0);
  CHECK(EQUALS(o, LT_BOOL, 1, A(2), 0, 1));
  lt_tensor_free(o);
  lt_tensor_free(b);

  /* var/std of 1..6: mean 3.5, squared deviations 17.5 */
  CHECK_OK(lt_reduce(LT_VAR, f32, -1, 0, 1, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, 3.5));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_VAR, f32, -1, 0, 0, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, (float)(17.5 / 6)));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_STD, f32, -1, 1, 1, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(1, 1), (float)sqrt(3.5)));
  lt_tensor_free(o);
  /* over dim 1: rows {1,2,3}, {4,5,6}: var 1 (correction 1), 2/3 (correction 0) */
  CHECK_OK(lt_reduce(LT_VAR, f32, 1, 0, 1, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 1, A(2), 1, 1));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_VAR, f32, 1, 1, 0, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(2, 1), (float)(2.0 / 3), (float)(2.0 / 3)));
  lt_tensor_free(o);
  /* over dim 0: columns {1,4}, ... var 4.5, std 1.5*sqrt(2) */
  CHECK_OK(lt_reduce(LT_STD, f32, 0, 0, 1, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 1, A(3), (float)sqrt(4.5), (float)sqrt(4.5), (float)sqrt(4.5)));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_STD, f32, 0, 0, 0, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 1, A(3), 1.5, 1.5, 1.5));
  lt_tensor_free(o);
  /* N - correction <= 0: NaN */
  CHECK_OK(lt_reduce(LT_VAR, f32, 1, 0, 3, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 1, A(2), NAN, NAN));
  lt_tensor_free(o);
  lt_tensor *one = from(LT_FLOAT64, 1, A(1), v6);
  CHECK_OK(lt_reduce(LT_STD, one, -1, 0, 1, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, NAN));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_STD, one, 0, 0, 0, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, 0));
  lt_tensor_free(o);
  lt_tensor_free(one);

  /* integer sums: bool counts, int8 and uint8 widen to int64, int64 wraps */
  const double bl[] = {1, 0, 1, 1};
  lt_tensor *t = from(LT_BOOL, 1, A(4), bl);
  o = red(LT_SUM, t, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 3));
  lt_tensor_free(o);
  o = red(LT_PROD, t, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 0));
  lt_tensor_free(o);
  o = red(LT_MAX, t, -1, 0);
  CHECK(EQUALS(o, LT_BOOL, 0, NULL, 1));
  lt_tensor_free(o);
  lt_tensor_free(t);
  const double big[] = {100, 100, 100, -128};
  t = from(LT_INT8, 1, A(4), big);
  o = red(LT_SUM, t, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 172));
  lt_tensor_free(o);
  o = red(LT_PROD, t, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, -128000000));
  lt_tensor_free(o);
  lt_tensor_free(t);
  const double u8[] = {200, 255, 255};
  t = from(LT_UINT8, 1, A(3), u8);
  o = red(LT_SUM, t, 0, 1);
  CHECK(EQUALS(o, LT_INT64, 1, A(1), 710));
  lt_tensor_free(o);
  o = red(LT_MAX, t, 0, 0);
  CHECK(EQUALS(o, LT_UINT8, 0, NULL, 255));
  lt_tensor_free(o);
  lt_tensor_free(t);
  t = make(LT_INT64, 1, A(2));
  ((int64_t *)(void *)lt_data(t))[0] = INT64_MAX;
  ((int64_t *)(void *)lt_data(t))[1] = 1;
  o = red(LT_SUM, t, -1, 0);
  CHECK(o && *(int64_t *)(void *)lt_data(o) == INT64_MIN);
  lt_tensor_free(o);
  ((int64_t *)(void *)lt_data(t))[1] = 2;
  o = red(LT_PROD, t, 0, 0);
  CHECK(o && *(int64_t *)(void *)lt_data(o) == -2); /* (2^63 - 1) * 2 mod 2^64 */
  lt_tensor_free(o);
  lt_tensor_free(t);
  t = make(LT_UINT64, 1, A(2));
  ((uint64_t *)(void *)lt_data(t))[0] = UINT64_MAX;
  ((uint64_t *)(void *)lt_data(t))[1] = 5;
  o = red(LT_MAX, t, -1, 0);
  CHECK(o && o->dtype == LT_UINT64 && *(uint64_t *)(void *)lt_data(o) == UINT64_MAX);
  lt_tensor_free(o);
  o = red(LT_SUM, t, -1, 0);
  CHECK(o && o->dtype == LT_INT64 && *(int64_t *)(void *)lt_data(o) == 4);
  lt_tensor_free(o);
  lt_tensor_free(t);

  /* float16 sums round once: 2048 + 1 + 1 is 2050 (2049 is not a float16) */
  const double h[] = {2048, 1, 1};
  t = from(LT_FLOAT16, 1, A(3), h);
  o = red(LT_SUM, t, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT16, 0, NULL, 2050));
  lt_tensor_free(o);
  o = red(LT_MEAN, t, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT16, 0, NULL, 683.5)); /* 2050/3 = 683.33 rounds to 683.5 */
  lt_tensor_free(o);
  lt_tensor_free(t);
  const double hb[] = {256, 1, 1};
  t = from(LT_BFLOAT16, 1, A(3), hb);
  o = red(LT_SUM, t, -1, 0);
  CHECK(EQUALS(o, LT_BFLOAT16, 0, NULL, 258));
  lt_tensor_free(o);
  o = red(LT_VAR, t, -1, 0);
  CHECK(EQUALS(o, LT_BFLOAT16, 0, NULL, 21632)); /* 43350 / 2 = 21675 to 8 bits */
  lt_tensor_free(o);
  lt_tensor_free(t);

  /* a 0-d tensor reduces over dim 0 as over all */
  const double five[] = {5};
  t = from(LT_FLOAT64, 0, NULL, five);
  o = red(LT_SUM, t, 0, 0);
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, 5));
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_MAX, t, 0, 1, 1, &o, &ix, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, 5));
  CHECK(EQUALS(ix, LT_INT64, 0, NULL, 0));
  lt_tensor_free(o);
  lt_tensor_free(ix);
  o = red(LT_ARGMAX, t, -1, 1);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 0));
  lt_tensor_free(o);
  CHECK_FAILS(lt_reduce(LT_SUM, t, 1, 0, 1, &o, NULL, &err), "out of range");
  lt_tensor_free(t);

  lt_tensor_free(m);
  lt_tensor_free(i32);
  lt_tensor_free(f32);
}

/* }====== */

/* {====== reductions against a naive reference, every layout, dim and dtype ====== */

/* The value pattern of element k (row-major) for dtype dt. */
static double pattern(lt_dtype dt, int64_t k) {
  int64_t r = (k * 5) % 7; /* 0..6, repeats (ties for min/max) */
  if (dt == LT_BOOL) return (k % 5) % 3 != 0;
  if (!lt_dtypes[dt].is_signed && !lt_dtypes[dt].is_float && !lt_dtypes[dt].is_complex)
    return (double)r;
  if (lt_dtypes[dt].is_float || lt_dtypes[dt].is_complex)
    return (double)(r - 3) * 0.5 + (k % 2 ? 0.25 : 0);
  return (double)(r - 3);
}

/* A (2,3) or (2,3,4) tensor of dtype dt in a layout: 0 contiguous, 1 transposed (a permuted
   contiguous tensor), 2 reversed along dims 0 and last (negative strides), 3 every other
   element of a larger tensor. Element k of the logical tensor is pattern(dt, k). */
static lt_tensor *layout(lt_dtype dt, int ndim, int kind) {
  const int64_t *shape = ndim == 2 ? A(2, 3) : A(2, 3, 4);
  lt_tensor *base = NULL, *v = NULL;
  switch (kind) {
    case 0: base = make(dt, ndim, shape); break;
    case 1: {
      int perm2[] = {1, 0}, perm3[] = {2, 0, 1}; /* stored (3,2) and (4,2,3) */
      int64_t st[3] = {0, 0, 0};
      for (int d = 0; d < ndim; d++) st[d] = shape[(ndim == 2 ? perm2 : perm3)[d]];
      lt_tensor *c = make(dt, ndim, st);
      int inv2[] = {1, 0}, inv3[] = {1, 2, 0};
      CHECK_OK(lt_permute(c, ndim == 2 ? inv2 : inv3, &base, &err));
      lt_tensor_free(c);
      break;
    }
    case 2: {
      lt_tensor *c = make(dt, ndim, shape), *w = NULL;
      CHECK_OK(lt_slice(c, 0, shape[0] - 1, shape[0], -1, &w, &err));
      CHECK_OK(lt_slice(w, ndim - 1, shape[ndim - 1] - 1, shape[ndim - 1], -1, &base, &err));
      lt_tensor_free(c);
      lt_tensor_free(w);
      break;
    }
    default: {
      int64_t big[3] = {0, 0, 0};
      for (int d = 0; d < ndim; d++) big[d] = shape[d] * 2;
      lt_tensor *c = make(dt, ndim, big), *w = NULL;
      base = c;
      for (int d = 0; d < ndim; d++) {
        CHECK_OK(lt_slice(base, d, 1, shape[d], 2, &w, &err));
        lt_tensor_free(base);
        base = w;
      }
      break;
    }
  }
  v = base;
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do setc(v, idx, pattern(dt, k), lt_dtypes[dt].is_complex ? (double)(k % 3) - 1 : 0), k++;
  while (next_index(v->ndim, v->shape, idx));
  return v;
}

/* Tolerance of a floating result dtype. */
static double tol(lt_dtype dt) {
  switch (dt) {
    case LT_FLOAT16: return 2e-3;
    case LT_BFLOAT16: return 1e-2;
    case LT_FLOAT32:
    case LT_COMPLEX64: return 1e-6;
    default: return 1e-12;
  }
}

static int close_to(double got, double want, lt_dtype dt) {
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  return fabs(got - want) <= tol(dt) * (fabs(want) > 1 ? fabs(want) : 1);
}

typedef struct {
  double re, im; /* floating or complex value */
  uint64_t u;    /* integer sum or product */
  int64_t at;    /* min/max/arg position */
} ref_val;

/* Reference reduction of the n values (logical order) vals/ims/ivs by op. */
static ref_val reference(lt_redop op, lt_dtype dt, int64_t n, const double *vals, const double *ims,
                         const int64_t *ivs, int correction) {
  ref_val r = {0, 0, 0, 0};
  int isint = !lt_dtypes[dt].is_float && !lt_dtypes[dt].is_complex;
  switch (op) {
    case LT_SUM:
    case LT_MEAN:
      for (int64_t i = 0; i < n; i++) {
        r.re += vals[i];
        r.im += ims[i];
        r.u += (uint64_t)ivs[i];
      }
      if (op == LT_MEAN) {
        r.re /= (double)n;
        r.im /= (double)n;
      }
      break;
    case LT_PROD:
      r.re = 1;
      r.u = 1;
      for (int64_t i = 0; i < n; i++) {
        double re = r.re * vals[i] - r.im * ims[i];
        r.im = r.re * ims[i] + r.im * vals[i];
        r.re = re;
        r.u *= (uint64_t)ivs[i];
      }
      break;
    case LT_MIN:
    case LT_MAX:
    case LT_ARGMIN:
    case LT_ARGMAX: {
      int mx = op == LT_MAX || op == LT_ARGMAX;
      r.re = vals[0];
      for (int64_t i = 1; i < n; i++) {
        if (isnan(r.re)) break;
        if (isnan(vals[i]) || (mx ? vals[i] > r.re : vals[i] < r.re)) {
          r.re = vals[i];
          r.at = i;
        }
      }
      break;
    }
    case LT_ALL: /* a complex element is nonzero when either part is (ims is 0 for reals) */
      r.re = 1;
      for (int64_t i = 0; i < n; i++)
        if (vals[i] == 0 && ims[i] == 0) r.re = 0;
      break;
    case LT_ANY:
      for (int64_t i = 0; i < n; i++)
        if (vals[i] != 0 || ims[i] != 0) r.re = 1;
      break;
    case LT_VAR:
    case LT_STD: {
      double m = 0, s = 0;
      for (int64_t i = 0; i < n; i++) m += vals[i];
      m /= (double)n;
      for (int64_t i = 0; i < n; i++) s += (vals[i] - m) * (vals[i] - m);
      r.re = n - correction <= 0 ? NAN : s / (double)(n - correction);
      if (op == LT_STD) r.re = sqrt(r.re);
      break;
    }
  }
  (void)isint;
  return r;
}

static const char *const opname[] = {"sum",    "prod", "mean", "min", "max", "argmin",
                                     "argmax", "all",  "any",  "var", "std"};

/* Checks one output element against a reference. */
static void check_elem(lt_redop op, lt_dtype in, const lt_tensor *o, const lt_tensor *ix, int64_t k,
                       ref_val r, const char *what) {
  lt_dtype od = o->dtype;
  double got = at(o, k);
  int isint = !lt_dtypes[in].is_float && !lt_dtypes[in].is_complex;
  switch (op) {
    case LT_SUM:
    case LT_PROD:
      if (isint) {
        int64_t idx[LT_MAX_NDIM], kk = k;
        for (int d = o->ndim - 1; d >= 0; d--) {
          idx[d] = kk % o->shape[d];
          kk /= o->shape[d];
        }
        CHECKF(geti(o, idx) == (int64_t)r.u, "%s: element %lld is %lld, expected %lld", what,
               (long long)k, (long long)geti(o, idx), (long long)r.u);
        return;
      }
      /* fall through */
    case LT_MEAN:
    case LT_VAR:
    case LT_STD:
      CHECKF(close_to(got, r.re, od), "%s: element %lld is %.9g, expected %.9g", what, (long long)k,
             got, r.re);
      if (lt_dtypes[od].is_complex)
        CHECKF(close_to(at_im(o, k), r.im, od),
               "%s: element %lld has imaginary part %.9g, "
               "expected %.9g",
               what, (long long)k, at_im(o, k), r.im);
      return;
    case LT_MIN:
    case LT_MAX:
      CHECKF(got == r.re || (isnan(got) && isnan(r.re)), "%s: element %lld is %g, expected %g",
             what, (long long)k, got, r.re);
      if (ix)
        CHECKF(at(ix, k) == (double)r.at, "%s: position %lld is %g, expected %lld", what,
               (long long)k, at(ix, k), (long long)r.at);
      return;
    case LT_ARGMIN:
    case LT_ARGMAX:
      CHECKF(got == (double)r.at, "%s: element %lld is %g, expected %lld", what, (long long)k, got,
             (long long)r.at);
      return;
    default:
      CHECKF(got == r.re, "%s: element %lld is %g, expected %g", what, (long long)k, got, r.re);
  }
}

static lt_dtype expected_dtype(lt_redop op, lt_dtype in) {
  int fl = lt_dtypes[in].is_float || lt_dtypes[in].is_complex;
  switch (op) {
    case LT_SUM:
    case LT_PROD: return fl ? in : LT_INT64;
    case LT_ARGMIN:
    case LT_ARGMAX: return LT_INT64;
    case LT_ALL:
    case LT_ANY: return LT_BOOL;
    default: return in;
  }
}

static int op_accepts(lt_redop op, lt_dtype dt) {
  const lt_dtype_info *d = &lt_dtypes[dt];
  if (d->is_complex)
    return op == LT_SUM || op == LT_PROD || op == LT_MEAN || op == LT_ALL || op == LT_ANY;
  if (op == LT_MEAN || op == LT_VAR || op == LT_STD) return d->is_float;
  return 1;
}

/* One reduction of t over dim (-1: all) against the reference. */
static void check_reduction(lt_redop op, const lt_tensor *t, int dim, int keepdim,
                            const char *lay) {
  char what[160];
  snprintf(what, sizeof what, "%s of %s %dd %s dim %d keepdim %d", opname[op],
           lt_dtypes[t->dtype].name, t->ndim, lay, dim, keepdim);
  lt_tensor *o = NULL, *ix = NULL;
  int correction = op == LT_VAR ? 1 : 0; /* std with correction 0, var with 1 */
  err.msg[0] = 0;
  int rc = lt_reduce(op, t, dim, keepdim, correction, &o,
                     (op == LT_MIN || op == LT_MAX) ? &ix : NULL, &err);
  if (!op_accepts(op, t->dtype)) {
    CHECKF(rc != LT_OK && err.msg[0], "%s: accepted", what);
    if (rc == LT_OK) lt_tensor_free(o);
    return;
  }
  CHECKF(rc == LT_OK, "%s: %s", what, err.msg);
  if (rc != LT_OK) return;
  /* shape */
  int64_t want[LT_MAX_NDIM];
  int nd = 0;
  for (int d = 0; d < t->ndim; d++) {
    if (dim < 0 || d == dim) {
      if (keepdim) want[nd++] = 1;
    } else {
      want[nd++] = t->shape[d];
    }
  }
  CHECKF(same_shape(o, nd, want) && o->dtype == expected_dtype(op, t->dtype),
         "%s: shape/dtype (%d dims, %s)", what, o->ndim, lt_dtypes[o->dtype].name);
  CHECKF(lt_is_contiguous(o), "%s: result not contiguous", what);
  if (dim >= 0 && ix) CHECKF(same_shape(ix, nd, want) && ix->dtype == LT_INT64, "%s: idx", what);
  if (dim < 0) CHECK(ix == NULL);
  /* values: for each output position, the reduced elements in logical order */
  int64_t len = dim < 0 ? lt_numel(t) : t->shape[dim];
  double vals[64], ims[64];
  int64_t ivs[64];
  int64_t nout = lt_numel(o);
  for (int64_t k = 0; k < nout; k++) {
    /* the input index of output position k with the reduced coordinate j */
    int64_t oidx[LT_MAX_NDIM], kk = k;
    int64_t rest[LT_MAX_NDIM];
    int nr = 0;
    for (int d = 0; d < t->ndim; d++)
      if (dim >= 0 && d != dim) rest[nr++] = t->shape[d];
    for (int d = nr - 1; d >= 0; d--) {
      oidx[d] = kk % rest[d];
      kk /= rest[d];
    }
    for (int64_t j = 0; j < len; j++) {
      int64_t idx[LT_MAX_NDIM];
      if (dim < 0) {
        int64_t q = j;
        for (int d = t->ndim - 1; d >= 0; d--) {
          idx[d] = q % t->shape[d];
          q /= t->shape[d];
        }
      } else {
        for (int d = 0, r = 0; d < t->ndim; d++) idx[d] = d == dim ? j : oidx[r++];
      }
      vals[j] = get(t, idx, &ims[j]);
      ivs[j] = geti(t, idx);
    }
    check_elem(op, t->dtype, o, ix, k, reference(op, t->dtype, len, vals, ims, ivs, correction),
               what);
  }
  lt_tensor_free(o);
  lt_tensor_free(ix);
}

static void test_reduce_matrix(void) {
  static const lt_dtype dts[] = {LT_BOOL,     LT_UINT8,   LT_INT8,    LT_INT16,     LT_INT32,
                                 LT_INT64,    LT_UINT16,  LT_UINT32,  LT_UINT64,    LT_FLOAT16,
                                 LT_BFLOAT16, LT_FLOAT32, LT_FLOAT64, LT_COMPLEX64, LT_COMPLEX128};
  static const char *const lays[] = {"contiguous", "transposed", "reversed", "strided"};
  for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++)
    for (int ndim = 2; ndim <= 3; ndim++)
      for (int lay = 0; lay < 4; lay++) {
        lt_tensor *t = layout(dts[di], ndim, lay);
        for (int op = LT_SUM; op <= LT_STD; op++)
          for (int dim = -1; dim < ndim; dim++)
            for (int kd = 0; kd <= 1; kd++) check_reduction((lt_redop)op, t, dim, kd, lays[lay]);
        lt_tensor_free(t);
      }
}

/* }====== */

/* {====== reductions: NaN, empty tensors, accuracy, complex, errors ====== */

static void test_reduce_nan(void) {
  /* [[1, NaN, 5], [NaN, 9, NaN]] */
  const double v[] = {1, NAN, 5, NAN, 9, NAN};
  lt_dtype dts[] = {LT_FLOAT16, LT_FLOAT32, LT_FLOAT64};
  for (int i = 0; i < 3; i++) {
    lt_tensor *t = from(dts[i], 2, A(2, 3), v), *o, *ix;
    o = red(LT_MAX, t, -1, 0);
    CHECK(EQUALS(o, dts[i], 0, NULL, NAN));
    lt_tensor_free(o);
    o = red(LT_MIN, t, -1, 0);
    CHECK(EQUALS(o, dts[i], 0, NULL, NAN));
    lt_tensor_free(o);
    o = red(LT_ARGMAX, t, -1, 0);
    CHECK(EQUALS(o, LT_INT64, 0, NULL, 1)); /* the first NaN */
    lt_tensor_free(o);
    o = red(LT_ARGMIN, t, -1, 0);
    CHECK(EQUALS(o, LT_INT64, 0, NULL, 1));
    lt_tensor_free(o);
    CHECK_OK(lt_reduce(LT_MAX, t, 1, 0, 1, &o, &ix, &err));
    CHECK(EQUALS(o, dts[i], 1, A(2), NAN, NAN));
    CHECK(EQUALS(ix, LT_INT64, 1, A(2), 1, 0));
    lt_tensor_free(o);
    lt_tensor_free(ix);
    CHECK_OK(lt_reduce(LT_MIN, t, 0, 0, 1, &o, &ix, &err));
    CHECK(EQUALS(o, dts[i], 1, A(3), NAN, NAN, NAN));
    CHECK(EQUALS(ix, LT_INT64, 1, A(3), 1, 0, 1));
    lt_tensor_free(o);
    lt_tensor_free(ix);
    o = red(LT_SUM, t, 0, 0);
    CHECK(EQUALS(o, dts[i], 1, A(3), NAN, NAN, NAN));
    lt_tensor_free(o);
    o = red(LT_MEAN, t, -1, 0);
    CHECK(EQUALS(o, dts[i], 0, NULL, NAN));
    lt_tensor_free(o);
    o = red(LT_ALL, t, -1, 0); /* NaN is nonzero */
    CHECK(EQUALS(o, LT_BOOL, 0, NULL, 1));
    lt_tensor_free(o);
    o = red(LT_VAR, t, 1, 0);
    CHECK(EQUALS(o, dts[i], 1, A(2), NAN, NAN));
    lt_tensor_free(o);
    lt_tensor_free(t);
  }
  /* a NaN after the maximum still wins; -inf and inf are ordinary */
  const double w[] = {-INFINITY, INFINITY, 2, NAN, 3};
  lt_tensor *t = from(LT_FLOAT32, 1, A(5), w), *o, *ix;
  CHECK_OK(lt_reduce(LT_MAX, t, 0, 0, 1, &o, &ix, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, NAN));
  CHECK(EQUALS(ix, LT_INT64, 0, NULL, 3));
  lt_tensor_free(o);
  lt_tensor_free(ix);
  lt_tensor *s = NULL;
  CHECK_OK(lt_slice(t, 0, 0, 3, 1, &s, &err));
  o = red(LT_MAX, s, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, INFINITY));
  lt_tensor_free(o);
  o = red(LT_ARGMIN, s, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 0));
  lt_tensor_free(o);
  lt_tensor_free(s);
  lt_tensor_free(t);
}

static void test_reduce_empty(void) {
  lt_tensor *e = make(LT_FLOAT32, 1, A(0)), *o = NULL, *ix = NULL;
  o = red(LT_SUM, e, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, 0));
  lt_tensor_free(o);
  o = red(LT_PROD, e, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, 1));
  lt_tensor_free(o);
  o = red(LT_ALL, e, -1, 0);
  CHECK(EQUALS(o, LT_BOOL, 0, NULL, 1));
  lt_tensor_free(o);
  o = red(LT_ANY, e, 0, 0);
  CHECK(EQUALS(o, LT_BOOL, 0, NULL, 0));
  lt_tensor_free(o);
  o = red(LT_MEAN, e, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, NAN));
  lt_tensor_free(o);
  o = red(LT_VAR, e, -1, 0);
  CHECK(EQUALS(o, LT_FLOAT32, 0, NULL, NAN));
  lt_tensor_free(o);
  CHECK_FAILS(lt_reduce(LT_MAX, e, -1, 0, 1, &o, NULL, &err), "cannot reduce an empty tensor");
  CHECK_FAILS(lt_reduce(LT_MIN, e, -1, 0, 1, &o, NULL, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_ARGMAX, e, -1, 0, 1, &o, NULL, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_ARGMIN, e, 0, 0, 1, &o, NULL, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_MAX, e, 0, 0, 1, &o, &ix, &err), "empty");
  lt_tensor_free(e);

  /* (2, 0): over dim 1 every row is empty; over dim 0 there is nothing to compute */
  e = make(LT_INT32, 2, A(2, 0));
  o = red(LT_SUM, e, 1, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(2), 0, 0));
  lt_tensor_free(o);
  o = red(LT_PROD, e, 1, 1);
  CHECK(EQUALS(o, LT_INT64, 2, A(2, 1), 1, 1));
  lt_tensor_free(o);
  o = red(LT_ALL, e, 1, 0);
  CHECK(EQUALS(o, LT_BOOL, 1, A(2), 1, 1));
  lt_tensor_free(o);
  o = red(LT_SUM, e, 0, 0);
  CHECK(o && same_shape(o, 1, A(0)) && o->dtype == LT_INT64);
  lt_tensor_free(o);
  CHECK_OK(lt_reduce(LT_MAX, e, 0, 1, 1, &o, &ix, &err)); /* reduces a non-empty dim */
  CHECK(o && same_shape(o, 2, A(1, 0)) && ix && same_shape(ix, 2, A(1, 0)));
  lt_tensor_free(o);
  lt_tensor_free(ix);
  CHECK_FAILS(lt_reduce(LT_MAX, e, 1, 0, 1, &o, &ix, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_ARGMIN, e, 1, 0, 1, &o, NULL, &err), "empty");
  lt_tensor_free(e);
  e = make(LT_FLOAT64, 2, A(0, 3));
  o = red(LT_MEAN, e, 0, 0);
  CHECK(EQUALS(o, LT_FLOAT64, 1, A(3), NAN, NAN, NAN));
  lt_tensor_free(o);
  lt_tensor_free(e);
}

/* 1e7 copies of 0.1f sum to 1e6 within 1e-6 relative (a float accumulator would drift). */
static void test_reduce_accuracy(void) {
  int64_t n = 10000000;
  lt_tensor *t = make(LT_FLOAT32, 1, A(n)), *o;
  float *p = (float *)(void *)lt_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = 0.1f;
  o = red(LT_SUM, t, -1, 0);
  double s = o ? *(float *)(void *)lt_data(o) : 0;
  CHECKF(fabs(s - 1e6) <= 1e-6 * 1e6, "sum of 1e7 x 0.1f is %.9g", s);
  lt_tensor_free(o);
  o = red(LT_MEAN, t, 0, 0);
  s = o ? *(float *)(void *)lt_data(o) : 0;
  CHECKF(fabs(s - 0.1) <= 1e-6 * 0.1, "mean of 1e7 x 0.1f is %.9g", s);
  lt_tensor_free(o);
  /* strided (every other element of 2e7): the same */
  lt_tensor_free(t);
  t = make(LT_FLOAT32, 1, A(2 * n));
  p = (float *)(void *)lt_data(t);
  for (int64_t i = 0; i < 2 * n; i++) p[i] = i % 2 ? 0.1f : 1e30f;
  lt_tensor *v = NULL;
  CHECK_OK(lt_slice(t, 0, 1, n, 2, &v, &err));
  o = red(LT_SUM, v, -1, 0);
  s = o ? *(float *)(void *)lt_data(o) : 0;
  CHECKF(fabs(s - 1e6) <= 1e-6 * 1e6, "strided sum of 1e7 x 0.1f is %.9g", s);
  lt_tensor_free(o);
  lt_tensor_free(v);
  lt_tensor_free(t);
  /* var of large values with a small spread (one pass would cancel catastrophically) */
  const double big[] = {1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4};
  t = from(LT_FLOAT64, 1, A(4), big);
  CHECK_OK(lt_reduce(LT_VAR, t, -1, 0, 1, &o, NULL, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, 5.0 / 3));
  lt_tensor_free(o);
  lt_tensor_free(t);
  /* float64 sums of many elements: 2^20 copies of 0.1 */
  n = 1 << 20;
  t = make(LT_FLOAT64, 1, A(n));
  double *q = (double *)(void *)lt_data(t);
  for (int64_t i = 0; i < n; i++) q[i] = 0.1;
  o = red(LT_SUM, t, -1, 0);
  s = o ? *(double *)(void *)lt_data(o) : 0;
  CHECKF(fabs(s - 0.1 * (double)n) <= 1e-12 * 0.1 * (double)n, "float64 sum is %.17g", s);
  lt_tensor_free(o);
  lt_tensor_free(t);
}

static void test_reduce_transposed_arg(void) {
  /* stored (3,2) [[0,1],[2,9],[4,5]] transposed: logical (2,3) [[0,2,4],[1,9,5]]; the max is
     at logical position 4 (row-major), stored position 3 */
  const double v[] = {0, 1, 2, 9, 4, 5};
  lt_tensor *c = from(LT_INT32, 2, A(3, 2), v), *t = NULL, *o;
  CHECK_OK(lt_transpose(c, 0, 1, &t, &err));
  o = red(LT_ARGMAX, t, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 4));
  lt_tensor_free(o);
  o = red(LT_ARGMAX, t, -1, 1);
  CHECK(EQUALS(o, LT_INT64, 2, A(1, 1), 4));
  lt_tensor_free(o);
  o = red(LT_ARGMIN, t, 1, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(2), 0, 0));
  lt_tensor_free(o);
  o = red(LT_ARGMAX, t, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(3), 1, 1, 1));
  lt_tensor_free(o);
  o = red(LT_SUM, t, 1, 0);
  CHECK(EQUALS(o, LT_INT64, 1, A(2), 6, 15));
  lt_tensor_free(o);
  lt_tensor_free(t);
  /* reversed: [5,4,9,2,1,0]: argmin 5, argmax 2 */
  lt_tensor *f = NULL, *r = NULL;
  CHECK_OK(lt_view(c, 1, A(6), &f, &err));
  CHECK_OK(lt_slice(f, 0, 5, 6, -1, &r, &err));
  o = red(LT_ARGMIN, r, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 5));
  lt_tensor_free(o);
  o = red(LT_ARGMAX, r, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 2));
  lt_tensor_free(o);
  lt_tensor_free(r);
  lt_tensor_free(f);
  /* an expanded tensor (stride 0): positions of the first of equal values */
  lt_tensor *x = NULL;
  CHECK_OK(lt_expand(c, 3, A(2, 3, 2), &x, &err));
  o = red(LT_ARGMAX, x, -1, 0);
  CHECK(EQUALS(o, LT_INT64, 0, NULL, 3));
  lt_tensor_free(o);
  o = red(LT_SUM, x, 0, 0);
  CHECK(EQUALS(o, LT_INT64, 2, A(3, 2), 0, 2, 4, 18, 8, 10));
  lt_tensor_free(o);
  lt_tensor_free(x);
  lt_tensor_free(c);
}

static void test_reduce_complex(void) {
  /* (1+2i), (3-1i), (0+1i) */
  lt_tensor *t = make(LT_COMPLEX64, 1, A(3)), *o;
  setc(t, A(0), 1, 2);
  setc(t, A(1), 3, -1);
  setc(t, A(2), 0, 1);
  o = red(LT_SUM, t, -1, 0);
  CHECK(o && o->dtype == LT_COMPLEX64 && at(o, 0) == 4 && at_im(o, 0) == 2);
  lt_tensor_free(o);
  /* (1+2i)(3-i) = 5+5i; (5+5i)i = -5+5i */
  o = red(LT_PROD, t, 0, 0);
  CHECK(o && o->dtype == LT_COMPLEX64 && at(o, 0) == -5 && at_im(o, 0) == 5);
  lt_tensor_free(o);
  o = red(LT_MEAN, t, 0, 1);
  CHECK(o && same_shape(o, 1, A(1)) && fabs(at(o, 0) - 4.0 / 3) < 1e-6 &&
        fabs(at_im(o, 0) - 2.0 / 3) < 1e-6);
  lt_tensor_free(o);
  CHECK_FAILS(lt_reduce(LT_MAX, t, -1, 0, 1, &o, NULL, &err), "not supported for complex");
  CHECK_FAILS(lt_reduce(LT_ARGMIN, t, 0, 0, 1, &o, NULL, &err), "not supported for complex");
  CHECK_FAILS(lt_reduce(LT_VAR, t, 0, 0, 1, &o, NULL, &err), "complex");
  /* all and any as torch: nonzero when either part is; (0+1i) counts */
  o = red(LT_ALL, t, 0, 0);
  CHECK(o && o->dtype == LT_BOOL && at(o, 0) == 1);
  lt_tensor_free(o);
  setc(t, A(2), 0, 0);
  o = red(LT_ALL, t, -1, 0);
  CHECK(o && at(o, 0) == 0);
  lt_tensor_free(o);
  o = red(LT_ANY, t, -1, 0);
  CHECK(o && at(o, 0) == 1);
  lt_tensor_free(o);
  lt_tensor_free(t);
}

static void test_reduce_errors(void) {
  lt_tensor *t = make(LT_INT64, 2, A(2, 3)), *o = NULL;
  CHECK_FAILS(lt_reduce(LT_MEAN, t, -1, 0, 1, &o, NULL, &err),
              "input dtype must be floating point or complex, got int64");
  CHECK_FAILS(lt_reduce(LT_VAR, t, 0, 0, 1, &o, NULL, &err), "floating point");
  CHECK_FAILS(lt_reduce(LT_STD, t, -1, 0, 1, &o, NULL, &err), "must be floating point");
  CHECK_FAILS(lt_reduce(LT_SUM, t, 2, 0, 1, &o, NULL, &err), "out of range");
  CHECK_FAILS(lt_reduce(LT_MAX, t, 7, 1, 1, &o, NULL, &err), "out of range");
  lt_tensor_free(t);
  t = make(LT_BOOL, 1, A(3));
  CHECK_FAILS(lt_reduce(LT_MEAN, t, 0, 0, 1, &o, NULL, &err), "got bool");
  lt_tensor_free(t);
  /* opaque and device tensors are not readable */
  t = make(LT_FLOAT32, 1, A(3));
  t->dtype = LT_OPAQUE;
  t->dl_dtype.code = kDLFloat8_e4m3;
  t->dl_dtype.bits = 8;
  CHECK_FAILS(lt_reduce(LT_SUM, t, -1, 0, 1, &o, NULL, &err), "cannot be read");
  t->dtype = LT_FLOAT32;
  t->dl_dtype = lt_dtypes[LT_FLOAT32].dl;
  DLDevice dev = t->storage->device;
  t->storage->device.device_type = kDLCUDA;
  CHECK_FAILS(lt_reduce(LT_SUM, t, 0, 0, 1, &o, NULL, &err), "cuda");
  lt_tensor *u = make(LT_FLOAT32, 2, A(3, 1));
  CHECK_FAILS(lt_matmul(t, u, &o, &err), "cuda");
  const lt_tensor *ts[2] = {u, t};
  CHECK_FAILS(lt_cat(ts, 2, 0, &o, &err), "cuda");
  t->storage->device = dev;
  lt_tensor_free(u);
  lt_tensor_free(t);
}

/* }====== */

/* {====== matmul ====== */

/* Reference matmul in double (complex) of a and b with torch.matmul's shapes; the expected
   result has shape `shape` (nd dims). Element k of the result is compared. */
static void check_matmul(const lt_tensor *a, const lt_tensor *b, lt_dtype want, int nd,
                         const int64_t *shape, const char *what) {
  lt_tensor *o = NULL;
  err.msg[0] = 0;
  int rc = lt_matmul(a, b, &o, &err);
  CHECKF(rc == LT_OK, "%s: %s", what, err.msg);
  if (rc) return;
  CHECKF(o->dtype == want && same_shape(o, nd, shape) && lt_is_contiguous(o),
         "%s: got %s with %d dims", what, lt_dtypes[o->dtype].name, o->ndim);
  if (o->dtype != want || !same_shape(o, nd, shape)) {
    lt_tensor_free(o);
    return;
  }
  int a1 = a->ndim == 1, b1 = b->ndim == 1;
  int64_t n = a1 ? 1 : a->shape[a->ndim - 2], k = a->shape[a->ndim - 1];
  int64_t m = b1 ? 1 : b->shape[b->ndim - 1];
  int nb = nd - (a1 ? 0 : 1) - (b1 ? 0 : 1);
  int wrap32 = want == LT_INT32;
  int64_t bad = 0;
  for (int64_t q = 0; q < lt_numel(o); q++) {
    /* q -> batch index, i, j */
    int64_t oidx[LT_MAX_NDIM], r = q;
    for (int d = nd - 1; d >= 0; d--) {
      oidx[d] = r % shape[d];
      r /= shape[d];
    }
    int64_t i = a1 ? 0 : oidx[nb], j = b1 ? 0 : oidx[nd - 1];
    double re = 0, im = 0;
    uint32_t acc32 = 0;
    for (int64_t p = 0; p < k; p++) {
      int64_t ia[LT_MAX_NDIM], ib[LT_MAX_NDIM];
      int ba = a->ndim - (a1 ? 1 : 2), bb = b->ndim - (b1 ? 1 : 2);
      for (int d = 0; d < ba; d++) {
        int64_t s = oidx[nb - ba + d];
        ia[d] = a->shape[d] == 1 ? 0 : s;
      }
      for (int d = 0; d < bb; d++) {
        int64_t s = oidx[nb - bb + d];
        ib[d] = b->shape[d] == 1 ? 0 : s;
      }
      if (a1) {
        ia[0] = p;
      } else {
        ia[ba] = i;
        ia[ba + 1] = p;
      }
      if (b1) {
        ib[0] = p;
      } else {
        ib[bb] = p;
        ib[bb + 1] = j;
      }
      double xi, yi, x = get(a, ia, &xi), y = get(b, ib, &yi);
      re += x * y - xi * yi;
      im += x * yi + xi * y;
      acc32 += (uint32_t)geti(a, ia) * (uint32_t)geti(b, ib);
    }
    double got_im, got = get(o, oidx, &got_im);
    int ok;
    if (wrap32)
      ok = geti(o, oidx) == (int64_t)(int32_t)acc32;
    else
      ok = close_to(got, re, want) && close_to(got_im, im, want);
    if (!ok && !bad++)
      CHECKF(0, "%s: element %lld is %.9g%+.9gi, expected %.9g%+.9gi", what, (long long)q, got,
             got_im, re, im);
  }
  CHECK(bad == 0);
  (void)n;
  (void)m;
  lt_tensor_free(o);
}

/* A tensor of shape with pseudo-random small values (exact in float16), optionally stored
   transposed in its last two dims. */
static lt_tensor *mat(lt_dtype dt, int ndim, const int64_t *shape, int transposed, int seed) {
  lt_tensor *t;
  if (transposed && ndim >= 2) {
    int64_t st[LT_MAX_NDIM];
    memcpy(st, shape, (size_t)ndim * sizeof(int64_t));
    st[ndim - 2] = shape[ndim - 1];
    st[ndim - 1] = shape[ndim - 2];
    lt_tensor *c = make(dt, ndim, st);
    CHECK_OK(lt_transpose(c, ndim - 2, ndim - 1, &t, &err));
    lt_tensor_free(c);
  } else {
    t = make(dt, ndim, shape);
  }
  if (lt_numel(t) == 0) return t;
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do {
    int64_t h = (k * 7919 + seed * 104729) % 17;
    setc(t, idx, (double)(h - 8) * 0.5, lt_dtypes[dt].is_complex ? (double)(k % 5) - 2 : 0);
    k++;
  } while (next_index(t->ndim, t->shape, idx));
  return t;
}

static void test_matmul_values(void) {
  static const lt_dtype dts[] = {LT_FLOAT32, LT_FLOAT64, LT_COMPLEX64, LT_FLOAT16, LT_INT32};
  struct {
    int na;
    int64_t sa[4];
    int nb;
    int64_t sb[4];
    int nr;
    int64_t sr[4];
  } cases[] = {
      {1, {5}, 1, {5}, 0, {0}},                         /* dot */
      {2, {3, 4}, 2, {4, 5}, 2, {3, 5}},                /* matrices */
      {1, {4}, 2, {4, 5}, 1, {5}},                      /* vector x matrix */
      {2, {3, 4}, 1, {4}, 1, {3}},                      /* matrix x vector */
      {3, {2, 3, 4}, 3, {2, 4, 5}, 3, {2, 3, 5}},       /* batched */
      {4, {2, 1, 3, 4}, 3, {5, 4, 2}, 4, {2, 5, 3, 2}}, /* broadcast batch */
      {1, {4}, 3, {2, 4, 3}, 2, {2, 3}},                /* vector x batch */
      {3, {2, 3, 4}, 1, {4}, 2, {2, 3}},                /* batch x vector */
      {2, {3, 4}, 3, {2, 4, 6}, 3, {2, 3, 6}},          /* matrix x batch */
      {2, {1, 700}, 2, {700, 600}, 2, {1, 600}},        /* across the blocks */
      {2, {9, 140}, 2, {140, 530}, 2, {9, 530}},
  };
  for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++)
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
      for (int tr = 0; tr < 4; tr++) {
        lt_dtype dt = dts[di];
        if (c >= 9 && (dt == LT_FLOAT16 || tr)) continue; /* (float16 sums of 700 round) */
        lt_tensor *a = mat(dt, cases[c].na, cases[c].sa, tr & 1, 1);
        lt_tensor *b = mat(dt, cases[c].nb, cases[c].sb, tr & 2, 2);
        char what[96];
        snprintf(what, sizeof what, "matmul %s case %zu layout %d", lt_dtypes[dt].name, c, tr);
        check_matmul(a, b, dt, cases[c].nr, cases[c].sr, what);
        lt_tensor_free(a);
        lt_tensor_free(b);
      }
  /* by hand: [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]]; [1,2,3].[4,5,6] = 32 */
  const double a4[] = {1, 2, 3, 4}, b4[] = {5, 6, 7, 8}, v3[] = {1, 2, 3}, w3[] = {4, 5, 6};
  lt_tensor *a = from(LT_FLOAT32, 2, A(2, 2), a4), *b = from(LT_FLOAT32, 2, A(2, 2), b4), *o;
  CHECK_OK(lt_matmul(a, b, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(2, 2), 19, 22, 43, 50));
  lt_tensor_free(o);
  lt_tensor *v = from(LT_FLOAT64, 1, A(3), v3), *w = from(LT_INT64, 1, A(3), w3);
  CHECK_OK(lt_matmul(v, w, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, 32)); /* promoted */
  lt_tensor_free(o);
  lt_tensor_free(v);
  lt_tensor_free(w);
  /* int32 wraps: 65536 * 65536 + 1 * 1 = 2^32 + 1 -> 1; int8 wraps too */
  const double big[] = {65536, 1};
  v = from(LT_INT32, 1, A(2), big);
  CHECK_OK(lt_matmul(v, v, &o, &err));
  CHECK(EQUALS(o, LT_INT32, 0, NULL, 1));
  lt_tensor_free(o);
  lt_tensor_free(v);
  const double i8[] = {100, 100};
  v = from(LT_INT8, 1, A(2), i8);
  CHECK_OK(lt_matmul(v, v, &o, &err));
  CHECK(EQUALS(o, LT_INT8, 0, NULL, 32)); /* 20000 mod 256 = 32 */
  lt_tensor_free(o);
  lt_tensor_free(v);
  const double u16[] = {65535, 65535};
  v = from(LT_UINT16, 1, A(2), u16);
  CHECK_OK(lt_matmul(v, v, &o, &err));
  CHECK(EQUALS(o, LT_UINT16, 0, NULL, 2)); /* 2 * (2^16-1)^2 mod 2^16 */
  lt_tensor_free(o);
  lt_tensor_free(v);
  /* complex: (1+i)(1-i) + (2i)(2i) = 2 - 4 = -2 */
  v = make(LT_COMPLEX64, 1, A(2));
  w = make(LT_COMPLEX64, 1, A(2));
  setc(v, A(0), 1, 1);
  setc(v, A(1), 0, 2);
  setc(w, A(0), 1, -1);
  setc(w, A(1), 0, 2);
  CHECK_OK(lt_matmul(v, w, &o, &err));
  CHECK(o && o->dtype == LT_COMPLEX64 && at(o, 0) == -2 && at_im(o, 0) == 0);
  lt_tensor_free(o);
  /* complex64 with float64 gives complex128 */
  lt_tensor *d = from(LT_FLOAT64, 1, A(2), a4);
  CHECK_OK(lt_matmul(v, d, &o, &err));
  CHECK(o && o->dtype == LT_COMPLEX128 && at(o, 0) == 1 && at_im(o, 0) == 5);
  lt_tensor_free(o);
  lt_tensor_free(d);
  lt_tensor_free(v);
  lt_tensor_free(w);
  /* float16 results; int32 x float32 is float32 */
  lt_tensor *h = from(LT_FLOAT16, 2, A(2, 2), a4), *i = from(LT_INT32, 2, A(2, 2), b4);
  CHECK_OK(lt_matmul(h, i, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT16, 2, A(2, 2), 19, 22, 43, 50));
  lt_tensor_free(o);
  CHECK_OK(lt_matmul(i, a, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(2, 2), 23, 34, 31, 46));
  lt_tensor_free(o);
  lt_tensor_free(h);
  lt_tensor_free(i);
  /* k = 0: zeros; n = 0: empty */
  lt_tensor *z1 = make(LT_FLOAT32, 2, A(2, 0)), *z2 = make(LT_FLOAT32, 2, A(0, 3));
  CHECK_OK(lt_matmul(z1, z2, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT32, 2, A(2, 3), 0, 0, 0, 0, 0, 0));
  lt_tensor_free(o);
  CHECK_FAILS(lt_matmul(z2, b, &o, &err), "(0x3) and (2x2) do not match");
  lt_tensor *z3 = make(LT_FLOAT32, 2, A(0, 2));
  CHECK_OK(lt_matmul(z3, b, &o, &err));
  CHECK(o && same_shape(o, 2, A(0, 2)));
  lt_tensor_free(o);
  lt_tensor_free(z1);
  lt_tensor_free(z2);
  lt_tensor_free(z3);
  lt_tensor_free(a);
  lt_tensor_free(b);
}

static void test_matmul_errors(void) {
  lt_tensor *a = make(LT_FLOAT32, 2, A(2, 3)), *b = make(LT_FLOAT32, 2, A(4, 5)), *o = NULL;
  CHECK_FAILS(lt_matmul(a, b, &o, &err), "sizes (2x3) and (4x5) do not match");
  lt_tensor *v = make(LT_FLOAT32, 1, A(4));
  CHECK_FAILS(lt_matmul(a, v, &o, &err), "do not match");
  CHECK_FAILS(lt_matmul(v, a, &o, &err), "do not match");
  lt_tensor *s = make(LT_FLOAT32, 0, NULL);
  CHECK_FAILS(lt_matmul(s, a, &o, &err), "at least 1 dimension");
  CHECK_FAILS(lt_matmul(a, s, &o, &err), "at least 1 dimension");
  lt_tensor *x = make(LT_FLOAT32, 3, A(2, 2, 3)), *y = make(LT_FLOAT32, 3, A(3, 3, 4));
  CHECK_FAILS(lt_matmul(x, y, &o, &err), "broadcast");
  lt_tensor *bl = make(LT_BOOL, 2, A(3, 3)), *bm = make(LT_BOOL, 2, A(3, 3));
  CHECK_FAILS(lt_matmul(bl, bm, &o, &err), "bool");
  lt_tensor_free(a);
  lt_tensor_free(b);
  lt_tensor_free(v);
  lt_tensor_free(s);
  lt_tensor_free(x);
  lt_tensor_free(y);
  lt_tensor_free(bl);
  lt_tensor_free(bm);
}

/* }====== */

/* {====== cat ====== */

static void test_cat(void) {
  /* x = (2,3,2) int32 0..11, y float32 of the same shape, 100 + k */
  double xv[24], yv[48];
  for (int k = 0; k < 24; k++) xv[k] = k;
  for (int k = 0; k < 48; k++) yv[k] = 100 + k;
  for (int dim = 0; dim < 3; dim++) {
    int64_t ys[3] = {2, 3, 2};
    ys[dim] = 4; /* y is longer along dim */
    lt_tensor *x = from(LT_INT32, 3, A(2, 3, 2), xv), *y = from(LT_FLOAT32, 3, ys, yv), *o;
    const lt_tensor *ts[3] = {x, y, x};
    CHECK_OK(lt_cat(ts, 3, dim, &o, &err));
    int64_t want[3] = {2, 3, 2};
    want[dim] = 2 * want[dim] + 4;
    CHECK(o && o->dtype == LT_FLOAT32 && same_shape(o, 3, want) && lt_is_contiguous(o));
    if (o && same_shape(o, 3, want)) {
      int64_t idx[3] = {0, 0, 0}, bad = 0;
      do {
        int64_t c = idx[dim], src[3] = {idx[0], idx[1], idx[2]};
        int64_t xl = dim == 0 ? 2 : dim == 1 ? 3 : 2;
        double w;
        if (c < xl) {
          w = xv[(src[0] * 3 + src[1]) * 2 + src[2]];
        } else if (c < xl + 4) {
          src[dim] = c - xl;
          w = yv[(src[0] * ys[1] + src[1]) * ys[2] + src[2]];
        } else {
          src[dim] = c - xl - 4;
          w = xv[(src[0] * 3 + src[1]) * 2 + src[2]];
        }
        if (get(o, idx, NULL) != w) bad++;
      } while (next_index(3, want, idx));
      CHECKF(bad == 0, "cat along dim %d: %lld elements wrong", dim, (long long)bad);
    }
    lt_tensor_free(o);
    lt_tensor_free(x);
    lt_tensor_free(y);
  }
  /* non-contiguous pieces and promotion: bool + uint8 -> uint8; int8 + uint8 -> int16 */
  const double bv[] = {1, 0, 1, 1, 0, 0}, uv[] = {200, 7, 9, 255, 3, 1};
  lt_tensor *b = from(LT_BOOL, 2, A(3, 2), bv), *u = from(LT_UINT8, 2, A(2, 3), uv), *bt, *o;
  CHECK_OK(lt_transpose(b, 0, 1, &bt, &err)); /* [[1,1,0],[0,1,0]] */
  const lt_tensor *p2[2] = {bt, u};
  CHECK_OK(lt_cat(p2, 2, 0, &o, &err));
  CHECK(EQUALS(o, LT_UINT8, 2, A(4, 3), 1, 1, 0, 0, 1, 0, 200, 7, 9, 255, 3, 1));
  lt_tensor_free(o);
  CHECK_OK(lt_cat(p2, 2, 1, &o, &err));
  CHECK(EQUALS(o, LT_UINT8, 2, A(2, 6), 1, 1, 0, 200, 7, 9, 0, 1, 0, 255, 3, 1));
  lt_tensor_free(o);
  const double iv[] = {-1, -2, -3};
  lt_tensor *i8 = from(LT_INT8, 2, A(1, 3), iv);
  const lt_tensor *p3[2] = {u, i8};
  CHECK_OK(lt_cat(p3, 2, 0, &o, &err));
  CHECK(EQUALS(o, LT_INT16, 2, A(3, 3), 200, 7, 9, 255, 3, 1, -1, -2, -3));
  lt_tensor_free(o);
  /* reversed piece */
  lt_tensor *r = NULL;
  CHECK_OK(lt_slice(u, 1, 2, 3, -1, &r, &err));
  const lt_tensor *p4[2] = {r, r};
  CHECK_OK(lt_cat(p4, 2, 1, &o, &err));
  CHECK(EQUALS(o, LT_UINT8, 2, A(2, 6), 9, 7, 200, 9, 7, 200, 1, 3, 255, 1, 3, 255));
  lt_tensor_free(o);
  /* a single piece is a copy */
  CHECK_OK(lt_cat(p4, 1, 0, &o, &err));
  CHECK(EQUALS(o, LT_UINT8, 2, A(2, 3), 9, 7, 200, 1, 3, 255));
  CHECK(o && o->storage != r->storage);
  lt_tensor_free(o);
  /* 1-d empty tensors are skipped (their dtype still counts); empty pieces along dim too */
  lt_tensor *e = make(LT_FLOAT64, 1, A(0)), *e2 = make(LT_UINT8, 2, A(0, 3));
  const lt_tensor *p5[4] = {e, u, e2, e};
  CHECK_OK(lt_cat(p5, 4, 0, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 2, A(2, 3), 200, 7, 9, 255, 3, 1));
  lt_tensor_free(o);
  const lt_tensor *p6[2] = {e, e};
  CHECK_OK(lt_cat(p6, 2, 0, &o, &err));
  CHECK(o && same_shape(o, 1, A(0)));
  lt_tensor_free(o);
  /* 1-d */
  const lt_tensor *p7[2] = {i8, i8};
  lt_tensor *flat = NULL;
  CHECK_OK(lt_view(i8, 1, A(3), &flat, &err));
  const lt_tensor *p8[3] = {flat, e, flat};
  CHECK_OK(lt_cat(p8, 3, 0, &o, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 1, A(6), -1, -2, -3, -1, -2, -3));
  lt_tensor_free(o);
  /* errors */
  CHECK_FAILS(lt_cat(p7, 2, 2, &o, &err), "out of range");
  CHECK_FAILS(lt_cat(p7, 2, -1, &o, &err), "out of range");
  CHECK_FAILS(lt_cat(p7, 0, 0, &o, &err), "non-empty");
  CHECK_FAILS(lt_cat(p3, 2, 1, &o, &err), "sizes of tensors must match");
  const lt_tensor *p9[2] = {u, flat};
  CHECK_FAILS(lt_cat(p9, 2, 0, &o, &err), "number of dimensions");
  lt_tensor *s = make(LT_FLOAT32, 0, NULL);
  const lt_tensor *p10[2] = {s, s};
  CHECK_FAILS(lt_cat(p10, 2, 0, &o, &err), "zero-dimensional");
  lt_tensor_free(s);
  lt_tensor_free(flat);
  lt_tensor_free(e);
  lt_tensor_free(e2);
  lt_tensor_free(r);
  lt_tensor_free(i8);
  lt_tensor_free(b);
  lt_tensor_free(bt);
  lt_tensor_free(u);
}

/* }====== */

int main(void) {
  test_reduce_hand();
  test_reduce_matrix();
  test_reduce_nan();
  test_reduce_empty();
  test_reduce_accuracy();
  test_reduce_transposed_arg();
  test_reduce_complex();
  test_reduce_errors();
  test_matmul_values();
  test_matmul_errors();
  test_cat();
  return tu_finish("test_math");
}
