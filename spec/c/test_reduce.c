/*
 * test_reduce.c -- reductions (lt_reduce, lt_reduce_dims) on values computed by hand: every dim
 * with and without keepdim, NaN, empty tensors, the accuracy of long sums, transposed inputs to
 * argmin/argmax, complex inputs, errors. The rows of every reduction against a naive reference
 * over every dtype and layout are test_math.c's.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_reduce.h"
#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"
#include "test_values.h"

/* {====== helpers ====== */

/* Reduces and frees nothing: the caller frees the result. */
static lt_tensor *red(lt_redop op, const lt_tensor *a, int dim, int keepdim) {
  lt_tensor *o = NULL;
  CHECK_OK(lt_reduce(op, a, dim, keepdim, 1, &o, NULL, &err));
  return o;
}

/* op over t (dim, keepdim) is exactly vals (row-major), of dtype dt and shape. */
static int red_is(lt_redop op, const lt_tensor *t, int dim, int keepdim, lt_dtype dt, int ndim,
                  const int64_t *shape, const double *vals, int line) {
  lt_tensor *o = red(op, t, dim, keepdim);
  int ok = equals(o, dt, ndim, shape, vals, line);
  lt_tensor_free(o);
  return ok;
}
#define RED_IS(op, t, dim, keepdim, dt, ndim, shape, ...)                                   \
  red_is((op), (t), (dim), (keepdim), (dt), (ndim), (shape), (const double[]){__VA_ARGS__}, \
         __LINE__)

/* }====== */

/* {====== reductions: hand-computed values ====== */

static void test_reduce_sums(void) {
  /* [[1, 2, 3], [4, 5, 6]] */
  const double v6[] = {1, 2, 3, 4, 5, 6};
  lt_tensor *i32 = from(LT_INT32, 2, A(2, 3), v6), *f32 = from(LT_FLOAT32, 2, A(2, 3), v6), *o;

  CHECK(RED_IS(LT_SUM, i32, -1, 0, LT_INT64, 0, NULL, 21));
  CHECK(RED_IS(LT_SUM, i32, -1, 1, LT_INT64, 2, A(1, 1), 21));
  CHECK(RED_IS(LT_SUM, i32, 0, 0, LT_INT64, 1, A(3), 5, 7, 9));
  CHECK(RED_IS(LT_SUM, i32, 0, 1, LT_INT64, 2, A(1, 3), 5, 7, 9));
  CHECK(RED_IS(LT_SUM, i32, 1, 0, LT_INT64, 1, A(2), 6, 15));
  CHECK(RED_IS(LT_SUM, i32, 1, 1, LT_INT64, 2, A(2, 1), 6, 15));
  CHECK(RED_IS(LT_SUM, f32, 1, 0, LT_FLOAT32, 1, A(2), 6, 15));

  CHECK(RED_IS(LT_PROD, i32, -1, 0, LT_INT64, 0, NULL, 720));
  CHECK(RED_IS(LT_PROD, i32, 0, 0, LT_INT64, 1, A(3), 4, 10, 18));
  CHECK(RED_IS(LT_PROD, f32, 1, 1, LT_FLOAT32, 2, A(2, 1), 6, 120));

  CHECK(RED_IS(LT_MEAN, f32, -1, 0, LT_FLOAT32, 0, NULL, 3.5));
  CHECK(RED_IS(LT_MEAN, f32, 0, 0, LT_FLOAT32, 1, A(3), 2.5, 3.5, 4.5));
  CHECK(RED_IS(LT_MEAN, f32, 1, 1, LT_FLOAT32, 2, A(2, 1), 2, 5));

  /* integer sums: bool counts, int8 and uint8 widen to int64, int64 wraps */
  const double bl[] = {1, 0, 1, 1};
  lt_tensor *t = from(LT_BOOL, 1, A(4), bl);
  CHECK(RED_IS(LT_SUM, t, -1, 0, LT_INT64, 0, NULL, 3));
  CHECK(RED_IS(LT_PROD, t, 0, 0, LT_INT64, 0, NULL, 0));
  CHECK(RED_IS(LT_MAX, t, -1, 0, LT_BOOL, 0, NULL, 1));
  lt_tensor_free(t);
  const double big[] = {100, 100, 100, -128};
  t = from(LT_INT8, 1, A(4), big);
  CHECK(RED_IS(LT_SUM, t, -1, 0, LT_INT64, 0, NULL, 172));
  CHECK(RED_IS(LT_PROD, t, -1, 0, LT_INT64, 0, NULL, -128000000));
  lt_tensor_free(t);
  const double u8[] = {200, 255, 255};
  t = from(LT_UINT8, 1, A(3), u8);
  CHECK(RED_IS(LT_SUM, t, 0, 1, LT_INT64, 1, A(1), 710));
  CHECK(RED_IS(LT_MAX, t, 0, 0, LT_UINT8, 0, NULL, 255));
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
  CHECK(RED_IS(LT_SUM, t, -1, 0, LT_FLOAT16, 0, NULL, 2050));
  CHECK(
      RED_IS(LT_MEAN, t, -1, 0, LT_FLOAT16, 0, NULL, 683.5)); /* 2050/3 = 683.33 rounds to 683.5 */
  lt_tensor_free(t);
  const double hb[] = {256, 1, 1};
  t = from(LT_BFLOAT16, 1, A(3), hb);
  CHECK(RED_IS(LT_SUM, t, -1, 0, LT_BFLOAT16, 0, NULL, 258));
  CHECK(RED_IS(LT_VAR, t, -1, 0, LT_BFLOAT16, 0, NULL, 21632)); /* 43350 / 2 = 21675 to 8 bits */
  lt_tensor_free(t);
  lt_tensor_free(i32);
  lt_tensor_free(f32);
}

static void test_reduce_extremes(void) {
  lt_tensor *o;
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
  CHECK(RED_IS(LT_MIN, m, -1, 1, LT_INT8, 2, A(1, 1), 0));
  CHECK(RED_IS(LT_ARGMAX, m, -1, 0, LT_INT64, 0, NULL, 4));
  CHECK(RED_IS(LT_ARGMIN, m, -1, 0, LT_INT64, 0, NULL, 3));
  CHECK(RED_IS(LT_ARGMAX, m, 0, 0, LT_INT64, 1, A(3), 0, 1, 1));
  CHECK(RED_IS(LT_ARGMIN, m, 1, 1, LT_INT64, 2, A(2, 1), 1, 0));

  /* a 0-d tensor reduces over dim 0 as over all */
  const double five[] = {5};
  lt_tensor *t = from(LT_FLOAT64, 0, NULL, five);
  CHECK(RED_IS(LT_SUM, t, 0, 0, LT_FLOAT64, 0, NULL, 5));
  CHECK_OK(lt_reduce(LT_MAX, t, 0, 1, 1, &o, &ix, &err));
  CHECK(EQUALS(o, LT_FLOAT64, 0, NULL, 5));
  CHECK(EQUALS(ix, LT_INT64, 0, NULL, 0));
  lt_tensor_free(o);
  lt_tensor_free(ix);
  CHECK(RED_IS(LT_ARGMAX, t, -1, 1, LT_INT64, 0, NULL, 0));
  CHECK_FAILS(lt_reduce(LT_SUM, t, 1, 0, 1, &o, NULL, &err), "out of range");
  lt_tensor_free(t);
  lt_tensor_free(m);
}

static void test_reduce_flags(void) {
  /* all/any: [[1, 0, 2], [3, 4, 5]] */
  const double aa[] = {1, 0, 2, 3, 4, 5};
  lt_tensor *b = from(LT_UINT8, 2, A(2, 3), aa);
  CHECK(RED_IS(LT_ALL, b, -1, 0, LT_BOOL, 0, NULL, 0));
  CHECK(RED_IS(LT_ANY, b, -1, 0, LT_BOOL, 0, NULL, 1));
  CHECK(RED_IS(LT_ALL, b, 1, 0, LT_BOOL, 1, A(2), 0, 1));
  CHECK(RED_IS(LT_ALL, b, 0, 1, LT_BOOL, 2, A(1, 3), 1, 0, 1));
  lt_tensor_free(b);
  const double zz[] = {0, 0, 0, 0, 0, 1};
  b = from(LT_FLOAT32, 2, A(2, 3), zz);
  CHECK(RED_IS(LT_ANY, b, 1, 0, LT_BOOL, 1, A(2), 0, 1));
  lt_tensor_free(b);
}

static void test_reduce_var(void) {
  const double v6[] = {1, 2, 3, 4, 5, 6};
  lt_tensor *f32 = from(LT_FLOAT32, 2, A(2, 3), v6), *o;
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
  lt_tensor_free(f32);
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
  CHECK(RED_IS(LT_MAX, s, -1, 0, LT_FLOAT32, 0, NULL, INFINITY));
  CHECK(RED_IS(LT_ARGMIN, s, -1, 0, LT_INT64, 0, NULL, 0));
  lt_tensor_free(s);
  lt_tensor_free(t);
}

static void test_reduce_empty(void) {
  lt_tensor *e = make(LT_FLOAT32, 1, A(0)), *o = NULL, *ix = NULL;
  CHECK(RED_IS(LT_SUM, e, -1, 0, LT_FLOAT32, 0, NULL, 0));
  CHECK(RED_IS(LT_PROD, e, -1, 0, LT_FLOAT32, 0, NULL, 1));
  CHECK(RED_IS(LT_ALL, e, -1, 0, LT_BOOL, 0, NULL, 1));
  CHECK(RED_IS(LT_ANY, e, 0, 0, LT_BOOL, 0, NULL, 0));
  CHECK(RED_IS(LT_MEAN, e, -1, 0, LT_FLOAT32, 0, NULL, NAN));
  CHECK(RED_IS(LT_VAR, e, -1, 0, LT_FLOAT32, 0, NULL, NAN));
  CHECK_FAILS(lt_reduce(LT_MAX, e, -1, 0, 1, &o, NULL, &err), "cannot reduce an empty tensor");
  CHECK_FAILS(lt_reduce(LT_MIN, e, -1, 0, 1, &o, NULL, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_ARGMAX, e, -1, 0, 1, &o, NULL, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_ARGMIN, e, 0, 0, 1, &o, NULL, &err), "empty");
  CHECK_FAILS(lt_reduce(LT_MAX, e, 0, 0, 1, &o, &ix, &err), "empty");
  lt_tensor_free(e);

  /* (2, 0): over dim 1 every row is empty; over dim 0 there is nothing to compute */
  e = make(LT_INT32, 2, A(2, 0));
  CHECK(RED_IS(LT_SUM, e, 1, 0, LT_INT64, 1, A(2), 0, 0));
  CHECK(RED_IS(LT_PROD, e, 1, 1, LT_INT64, 2, A(2, 1), 1, 1));
  CHECK(RED_IS(LT_ALL, e, 1, 0, LT_BOOL, 1, A(2), 1, 1));
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
  CHECK(RED_IS(LT_MEAN, e, 0, 0, LT_FLOAT64, 1, A(3), NAN, NAN, NAN));
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
  lt_tensor *c = from(LT_INT32, 2, A(3, 2), v), *t = NULL;
  CHECK_OK(lt_transpose(c, 0, 1, &t, &err));
  CHECK(RED_IS(LT_ARGMAX, t, -1, 0, LT_INT64, 0, NULL, 4));
  CHECK(RED_IS(LT_ARGMAX, t, -1, 1, LT_INT64, 2, A(1, 1), 4));
  CHECK(RED_IS(LT_ARGMIN, t, 1, 0, LT_INT64, 1, A(2), 0, 0));
  CHECK(RED_IS(LT_ARGMAX, t, 0, 0, LT_INT64, 1, A(3), 1, 1, 1));
  CHECK(RED_IS(LT_SUM, t, 1, 0, LT_INT64, 1, A(2), 6, 15));
  lt_tensor_free(t);
  /* reversed: [5,4,9,2,1,0]: argmin 5, argmax 2 */
  lt_tensor *f = NULL, *r = NULL;
  CHECK_OK(lt_view(c, 1, A(6), &f, &err));
  CHECK_OK(lt_slice(f, 0, 5, 6, -1, &r, &err));
  CHECK(RED_IS(LT_ARGMIN, r, -1, 0, LT_INT64, 0, NULL, 5));
  CHECK(RED_IS(LT_ARGMAX, r, 0, 0, LT_INT64, 0, NULL, 2));
  lt_tensor_free(r);
  lt_tensor_free(f);
  /* an expanded tensor (stride 0): positions of the first of equal values */
  lt_tensor *x = NULL;
  CHECK_OK(lt_expand(c, 3, A(2, 3, 2), &x, &err));
  CHECK(RED_IS(LT_ARGMAX, x, -1, 0, LT_INT64, 0, NULL, 3));
  CHECK(RED_IS(LT_SUM, x, 0, 0, LT_INT64, 2, A(3, 2), 0, 2, 4, 18, 8, 10));
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
  CHECK_FAILS(lt_reduce(LT_MAX, t, -1, 0, 1, &o, NULL, &err), "not supported for complex64");
  CHECK_FAILS(lt_reduce(LT_ARGMIN, t, 0, 0, 1, &o, NULL, &err), "not supported for complex64");
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
              "not supported for int64 (floating point or complex expected)");
  CHECK_FAILS(lt_reduce(LT_VAR, t, 0, 0, 1, &o, NULL, &err), "floating point expected");
  CHECK_FAILS(lt_reduce(LT_STD, t, -1, 0, 1, &o, NULL, &err), "not supported for int64");
  CHECK_FAILS(lt_reduce(LT_NORM, t, -1, 0, 1, &o, NULL, &err), "not a fold reduction");
  CHECK_FAILS(lt_reduce(LT_SUM, t, 2, 0, 1, &o, NULL, &err), "out of range");
  CHECK_FAILS(lt_reduce(LT_MAX, t, 7, 1, 1, &o, NULL, &err), "out of range");
  lt_tensor_free(t);
  t = make(LT_BOOL, 1, A(3));
  CHECK_FAILS(lt_reduce(LT_MEAN, t, 0, 0, 1, &o, NULL, &err), "not supported for bool");
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
  CHECK_FAILS(lt_reduce_dims(LT_NORM, t, NULL, 0, 0, 1, &o, &err), "cuda");
  t->storage->device = dev;
  lt_tensor_free(t);
}

/* }====== */

int main(void) {
  test_reduce_sums();
  test_reduce_extremes();
  test_reduce_flags();
  test_reduce_var();
  test_reduce_nan();
  test_reduce_empty();
  test_reduce_accuracy();
  test_reduce_transposed_arg();
  test_reduce_complex();
  test_reduce_errors();
  return tu_finish("test_reduce");
}
