/*
 * test_kernels.c -- lt_copy (every dtype pair, strided, broadcast, overlapping, failing) and
 * lt_fill, read-only and opaque tensors, a large transposed copy, and the tiled path of
 * transposing copies for every element size (odd shapes, negative strides, batched).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"

/* {====== helpers ====== */

static void set(lt_tensor *t, const int64_t *idx, double v) {
  lt_scalar s;
  s.kind = LT_SK_FLOAT;
  s.v.f = v;
  s.im = 0;
  CHECK(lt_store(t->dtype, addr(t, idx), &s) == LT_STORE_OK);
}

/* Sets the elements of t (row-major order) from f(k). */
static void fill_with(lt_tensor *t, double (*f)(int64_t)) {
  if (lt_numel(t) == 0) return;
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0;
  do set(t, idx, f(k++));
  while (next_index(t->ndim, t->shape, idx));
}

/* Number of elements of t (row-major) that differ from f(k); the first is reported. */
static int64_t mismatches(const lt_tensor *t, double (*f)(int64_t), int line) {
  if (lt_numel(t) == 0) return 0;
  int64_t idx[LT_MAX_NDIM] = {0}, k = 0, bad = 0;
  do {
    double im, v = get(t, idx, &im), w = f(k);
    if (v != w || im != 0) {
      if (!bad)
        fprintf(stderr, "line %d: %s element %lld is %g%+gi, expected %g\n", line,
                lt_dtypes[t->dtype].name, (long long)k, v, im, w);
      bad++;
    }
    k++;
  } while (next_index(t->ndim, t->shape, idx));
  return bad;
}
#define MATCHES(t, f) (mismatches((t), (f), __LINE__) == 0)

/* Value patterns (all exact in every dtype, bool excepted: see the bool variants) */
static double pat(int64_t k) { return (double)((k * 37) % 101); } /* 0..100 */
static double pat_bool(int64_t k) { return (double)(((k * 37) % 101) % 2); }
static double pat_as_bool(int64_t k) { return pat(k) != 0; }
static double pat_rev12(int64_t k) { return pat(11 - k); }
static double pat_tr34(int64_t k) { return pat((k % 3) * 4 + k / 3); } /* {3,4} read as {4,3}^T */
static double pat_bcast4(int64_t k) { return pat(k % 4); }
static double pat_bool_rev12(int64_t k) { return pat_bool(11 - k); }
static double pat_bool_tr34(int64_t k) { return pat_bool((k % 3) * 4 + k / 3); }
static double pat_bool_bcast4(int64_t k) { return pat_bool(k % 4); }
static double pat_as_bool_rev12(int64_t k) { return pat_rev12(k) != 0; }
static double pat_as_bool_tr34(int64_t k) { return pat_tr34(k) != 0; }
static double pat_as_bool_bcast4(int64_t k) { return pat_bcast4(k) != 0; }
static double zero(int64_t k) {
  (void)k;
  return 0;
}
static double seven(int64_t k) {
  (void)k;
  return 7;
}

/* }====== */

/* Every source dtype into every destination dtype, in four layouts. */
static void test_all_pairs(void) {
  for (int sd = 0; sd < LT_NDTYPES; sd++) {
    for (int dd = 0; dd < LT_NDTYPES; dd++) {
      lt_dtype s = (lt_dtype)sd, d = (lt_dtype)dd;
      int sb = s == LT_BOOL, db = d == LT_BOOL;
      /* expected results: bool sources hold 0/1; bool destinations get != 0 */
      double (*w_plain)(int64_t) = sb ? pat_bool : db ? pat_as_bool : pat;
      double (*w_rev)(int64_t) = sb ? pat_bool_rev12 : db ? pat_as_bool_rev12 : pat_rev12;
      double (*w_tr)(int64_t) = sb ? pat_bool_tr34 : db ? pat_as_bool_tr34 : pat_tr34;
      double (*w_bc)(int64_t) = sb ? pat_bool_bcast4 : db ? pat_as_bool_bcast4 : pat_bcast4;
      lt_tensor *src = make(s, 1, A(12)), *src2 = NULL, *v = NULL, *dst = NULL;
      fill_with(src, sb ? pat_bool : pat);
      /* contiguous */
      dst = make(d, 1, A(12));
      CHECK_OK(lt_copy(dst, src, &err));
      CHECKF(MATCHES(dst, w_plain), "%s -> %s contiguous", lt_dtypes[s].name, lt_dtypes[d].name);
      lt_tensor_free(dst);
      /* negative stride */
      CHECK_OK(lt_slice(src, 0, 11, 12, -1, &v, &err));
      dst = make(d, 1, A(12));
      CHECK_OK(lt_copy(dst, v, &err));
      CHECKF(MATCHES(dst, w_rev), "%s -> %s reversed", lt_dtypes[s].name, lt_dtypes[d].name);
      lt_tensor_free(dst);
      lt_tensor_free(v);
      /* transposed source: src viewed {3,4}, transposed to {4,3} */
      CHECK_OK(lt_view(src, 2, A(3, 4), &src2, &err));
      CHECK_OK(lt_transpose(src2, 0, 1, &v, &err));
      dst = make(d, 2, A(4, 3));
      CHECK_OK(lt_copy(dst, v, &err));
      CHECKF(MATCHES(dst, w_tr), "%s -> %s transposed", lt_dtypes[s].name, lt_dtypes[d].name);
      lt_tensor_free(dst);
      /* transposed destination: writing src2 {3,4} into a {4,3} tensor's transpose */
      lt_tensor *base = make(d, 2, A(4, 3)), *dt = NULL;
      CHECK_OK(lt_transpose(base, 0, 1, &dt, &err));
      CHECK_OK(lt_copy(dt, src2, &err));
      CHECKF(MATCHES(base, w_tr), "%s -> %s into a transposed dst", lt_dtypes[s].name,
             lt_dtypes[d].name);
      lt_tensor_free(dt);
      lt_tensor_free(base);
      lt_tensor_free(v);
      lt_tensor_free(src2);
      /* broadcast source: the first 4 elements, expanded over 3 rows */
      CHECK_OK(lt_narrow(src, 0, 0, 4, &v, &err));
      dst = make(d, 2, A(3, 4));
      CHECK_OK(lt_copy(dst, v, &err));
      CHECKF(MATCHES(dst, w_bc), "%s -> %s broadcast", lt_dtypes[s].name, lt_dtypes[d].name);
      lt_tensor_free(dst);
      lt_tensor_free(v);
      lt_tensor_free(src);
    }
  }
}

static double two(int64_t k) {
  (void)k;
  return 2;
}
static double one(int64_t k) {
  (void)k;
  return 1;
}

static void test_shapes(void) {
  /* 0-d source broadcast to anything, 0-d to 0-d */
  lt_tensor *z = make(LT_INT16, 0, NULL), *d = make(LT_FLOAT32, 2, A(3, 4)), *z2 = NULL;
  *(int16_t *)(void *)lt_data(z) = 2;
  CHECK_OK(lt_copy(d, z, &err));
  CHECK(MATCHES(d, two));
  z2 = make(LT_COMPLEX128, 0, NULL);
  CHECK_OK(lt_copy(z2, z, &err));
  CHECK(MATCHES(z2, two));
  lt_tensor_free(z2);
  /* a {3,4} cannot go into a 0-d */
  z2 = make(LT_INT16, 0, NULL);
  CHECK_ERR(lt_copy(z2, d, &err), LT_EARG);
  lt_tensor_free(z2);
  lt_tensor_free(z);
  /* broadcast mismatches */
  lt_tensor *s3 = make(LT_FLOAT32, 1, A(3)), *s134 = make(LT_FLOAT32, 3, A(1, 3, 4));
  CHECK_ERR(lt_copy(d, s3, &err), LT_EARG);
  CHECK(strstr(err.msg, "mismatch") != NULL);
  CHECK_ERR(lt_copy(d, s134, &err), LT_EARG); /* more dims than dst */
  lt_tensor *s31 = make(LT_FLOAT64, 2, A(3, 1));
  fill_with(s31, one);
  CHECK_OK(lt_copy(d, s31, &err)); /* {3,1} broadcasts along dim 2 */
  CHECK(MATCHES(d, one));
  lt_tensor_free(s31);
  lt_tensor_free(s134);
  lt_tensor_free(s3);
  /* empty tensors: nothing to do, but shapes must still broadcast */
  lt_tensor *e = make(LT_INT32, 2, A(0, 4)), *s4 = make(LT_FLOAT64, 1, A(4)),
            *s5 = make(LT_FLOAT64, 1, A(5)), *e0 = make(LT_FLOAT64, 1, A(0));
  CHECK_OK(lt_copy(e, s4, &err));
  CHECK_ERR(lt_copy(e, e0, &err), LT_EARG); /* {0} does not broadcast to {0,4} */
  CHECK_ERR(lt_copy(e, s5, &err), LT_EARG);
  CHECK_ERR(lt_copy(s4, e0, &err), LT_EARG); /* {0} does not broadcast to {4} */
  CHECK_OK(lt_fill(e, &(lt_scalar){.kind = LT_SK_INT, .v.i = 3}, &err));
  lt_tensor_free(e0);
  lt_tensor_free(s5);
  lt_tensor_free(s4);
  lt_tensor_free(e);
  /* a destination with a stride-0 dim is refused, by copy and by fill */
  lt_tensor *row = make(LT_FLOAT32, 2, A(1, 4)), *ex = NULL, *src = make(LT_FLOAT32, 2, A(3, 4));
  CHECK_OK(lt_expand(row, 2, A(3, 4), &ex, &err));
  CHECK_ERR(lt_copy(ex, src, &err), LT_EARG);
  CHECK_ERR(lt_fill(ex, &(lt_scalar){.kind = LT_SK_INT, .v.i = 1}, &err), LT_EARG);
  lt_tensor_free(ex);
  CHECK_OK(lt_expand(row, 3, A(1, 1, 4), &ex, &err)); /* stride 0 on a size-1 dim is fine */
  lt_tensor *s14 = make(LT_INT8, 1, A(4));
  fill_with(s14, seven);
  CHECK_OK(lt_copy(ex, s14, &err));
  CHECK(MATCHES(row, seven));
  lt_tensor_free(s14);
  lt_tensor_free(ex);
  lt_tensor_free(src);
  lt_tensor_free(row);
  lt_tensor_free(d);
}

/* Overlapping copies give the same result as copying from a snapshot of the source. */
typedef int (*view_fn)(const lt_tensor *base, lt_tensor **out);
static int v_head9(const lt_tensor *b, lt_tensor **o) { return lt_narrow(b, 0, 0, 9, o, &err); }
static int v_tail9(const lt_tensor *b, lt_tensor **o) { return lt_narrow(b, 0, 1, 9, o, &err); }
static int v_all(const lt_tensor *b, lt_tensor **o) { return lt_tensor_alias(b, o, &err); }
static int v_rev(const lt_tensor *b, lt_tensor **o) { return lt_slice(b, 0, 9, 10, -1, o, &err); }
static int v_even(const lt_tensor *b, lt_tensor **o) { return lt_slice(b, 0, 0, 5, 2, o, &err); }
static int v_first5(const lt_tensor *b, lt_tensor **o) { return lt_narrow(b, 0, 0, 5, o, &err); }
static int v_sq(const lt_tensor *b, lt_tensor **o) { /* elements 0..8 as {3,3} */
  lt_tensor *n = NULL;
  int rc = lt_narrow(b, 0, 0, 9, &n, &err);
  if (!rc) rc = lt_view(n, 2, A(3, 3), o, &err);
  lt_tensor_free(n);
  return rc;
}
static int v_sq_t(const lt_tensor *b, lt_tensor **o) {
  lt_tensor *n = NULL;
  int rc = v_sq(b, &n);
  if (!rc) rc = lt_transpose(n, 0, 1, o, &err);
  lt_tensor_free(n);
  return rc;
}
static int v_sq_row0(const lt_tensor *b, lt_tensor **o) { return lt_narrow(b, 0, 0, 3, o, &err); }
static int v_sq_row1(const lt_tensor *b, lt_tensor **o) { return lt_narrow(b, 0, 3, 3, o, &err); }

static void check_overlap(lt_dtype dt, view_fn dview, view_fn sview, const char *what) {
  lt_tensor *a = make(dt, 1, A(10)), *b = make(dt, 1, A(10));
  fill_with(a, pat);
  fill_with(b, pat);
  lt_tensor *ad = NULL, *as = NULL, *bd = NULL, *bs = NULL, *snap = NULL;
  CHECK_OK(dview(a, &ad));
  CHECK_OK(sview(a, &as));
  CHECK_OK(dview(b, &bd));
  CHECK_OK(sview(b, &bs));
  CHECK_OK(lt_clone(bs, &snap, &err));
  CHECK_OK(lt_copy(ad, as, &err));
  CHECK_OK(lt_copy(bd, snap, &err));
  int bad = 0;
  for (int64_t i = 0; i < 10; i++) bad += get(a, &i, NULL) != get(b, &i, NULL);
  CHECKF(bad == 0, "overlapping copy (%s, %s): %d elements differ from a snapshot copy", what,
         lt_dtypes[dt].name, bad);
  lt_tensor *objs[] = {ad, as, bd, bs, snap, a, b};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) lt_tensor_free(objs[i]);
}

static double ov_shift_r(int64_t k) { return k == 0 ? pat(0) : pat(k - 1); }
static double ov_shift_l(int64_t k) { return k == 9 ? pat(9) : pat(k + 1); }

static void test_overlap(void) {
  lt_dtype dts[] = {LT_UINT8, LT_FLOAT64, LT_COMPLEX128, LT_FLOAT16};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    check_overlap(dts[i], v_tail9, v_head9, "shift right");
    check_overlap(dts[i], v_head9, v_tail9, "shift left");
    check_overlap(dts[i], v_all, v_rev, "reverse in place");
    check_overlap(dts[i], v_rev, v_all, "reverse in place (dst reversed)");
    check_overlap(dts[i], v_first5, v_even, "gather evens");
    check_overlap(dts[i], v_even, v_first5, "scatter to evens");
    check_overlap(dts[i], v_sq, v_sq_t, "transpose in place");
    check_overlap(dts[i], v_sq, v_sq_row0, "broadcast a row over its own matrix");
    check_overlap(dts[i], v_sq, v_sq_row1, "broadcast the middle row");
  }
  /* and with the results spelled out */
  lt_tensor *a = make(LT_INT32, 1, A(10)), *d = NULL, *s = NULL;
  fill_with(a, pat);
  CHECK_OK(lt_narrow(a, 0, 1, 9, &d, &err));
  CHECK_OK(lt_narrow(a, 0, 0, 9, &s, &err));
  CHECK_OK(lt_copy(d, s, &err));
  CHECK(MATCHES(a, ov_shift_r));
  fill_with(a, pat);
  CHECK_OK(lt_copy(s, d, &err));
  CHECK(MATCHES(a, ov_shift_l));
  /* a tensor onto itself */
  fill_with(a, pat);
  CHECK_OK(lt_copy(a, a, &err));
  CHECK(MATCHES(a, pat));
  lt_tensor_free(s);
  lt_tensor_free(d);
  lt_tensor_free(a);
}

static double tr22(int64_t k) { return (double)((k % 2) * 2 + k / 2); }
static double id22(int64_t k) { return (double)k; }

/* A frame (as the Lua binding makes on the C stack) holds its strides apart from its shape; the
   unused room after the shape may hold anything, e.g. what an earlier view left there. */
static void test_frame_copy(void) {
  lt_tensor *t = make(LT_FLOAT64, 2, A(2, 2)), *tt = NULL;
  fill_with(t, id22);
  CHECK_OK(lt_transpose(t, 0, 1, &tt, &err)); /* shape {2,2} strides {1,2} */
  lt_frame f;
  memset(&f, 0, sizeof f);
  f.room.dims[2] = 1; /* stale: equal to tt's strides */
  f.room.dims[3] = 2;
  lt_tensor *dst = lt_frame_of(&f, t);
  CHECK(dst->strides[0] == 2 && dst->strides[1] == 1);
  CHECK_OK(lt_copy(dst, tt, &err)); /* t = t^T, through the frame */
  CHECKF(MATCHES(t, tr22), "lt_copy into a frame took a transposed source for the frame itself");
  /* and the frame as the source */
  fill_with(t, id22);
  lt_frame g;
  memset(&g, 0, sizeof g);
  lt_tensor *src = lt_frame_of(&g, tt); /* shape {2,2}, strides {1,2} */
  g.room.dims[2] = 2;                   /* stale: equal to t's strides */
  g.room.dims[3] = 1;
  CHECK_OK(lt_copy(t, src, &err));
  CHECKF(MATCHES(t, tr22), "lt_copy from a frame took it for its destination");
  lt_tensor_free(tt);
  lt_tensor_free(t);
}

static double nan_case(int64_t k) { return k == 1 ? NAN : (double)k; }
static double inf_case(int64_t k) { return k == 2 ? -INFINITY : (double)k; }

static void test_conversions(void) {
  /* float -> integer: NaN, inf and out-of-range values fail, naming the value and the dtype */
  static const lt_dtype ints[] = {LT_UINT8, LT_INT8,   LT_INT16,  LT_INT32,
                                  LT_INT64, LT_UINT16, LT_UINT32, LT_UINT64};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    lt_tensor *f = make(LT_FLOAT32, 1, A(3)), *h = make(LT_FLOAT16, 1, A(3)),
              *c = make(LT_COMPLEX64, 1, A(3)), *d = make(ints[i], 1, A(3));
    fill_with(f, nan_case);
    CHECK_ERR(lt_copy(d, f, &err), LT_ERANGE);
    CHECKF(strstr(err.msg, "nan") && strstr(err.msg, lt_dtypes[ints[i]].name), "message: %s",
           err.msg);
    fill_with(f, inf_case);
    CHECK_ERR(lt_copy(d, f, &err), LT_ERANGE);
    CHECKF(strstr(err.msg, "-inf") && strstr(err.msg, lt_dtypes[ints[i]].name), "message: %s",
           err.msg);
    fill_with(h, nan_case);
    CHECK_ERR(lt_copy(d, h, &err), LT_ERANGE);
    CHECKF(strstr(err.msg, "nan") != NULL, "message: %s", err.msg);
    fill_with(c, nan_case);
    CHECK_ERR(lt_copy(d, c, &err), LT_ERANGE);
    CHECKF(strstr(err.msg, "nan") != NULL, "message: %s", err.msg);
    lt_tensor_free(d);
    lt_tensor_free(c);
    lt_tensor_free(h);
    lt_tensor_free(f);
  }
  /* truncation toward zero and the range boundaries, in bulk */
  lt_tensor *f = make(LT_FLOAT64, 1, A(4)), *i8 = make(LT_INT8, 1, A(4)),
            *u8 = make(LT_UINT8, 1, A(4)), *i64 = make(LT_INT64, 1, A(2)),
            *u64 = make(LT_UINT64, 1, A(2)), *f2 = make(LT_FLOAT64, 1, A(2));
  double *fp = (double *)(void *)lt_data(f), *f2p = (double *)(void *)lt_data(f2);
  fp[0] = 2.9, fp[1] = -2.9, fp[2] = 127.9, fp[3] = -128.9;
  CHECK_OK(lt_copy(i8, f, &err));
  const int8_t *i8p = (const int8_t *)lt_data(i8);
  CHECK(i8p[0] == 2 && i8p[1] == -2 && i8p[2] == 127 && i8p[3] == -128);
  fp[2] = 128.0;
  CHECK_ERR(lt_copy(i8, f, &err), LT_ERANGE);
  CHECK(strstr(err.msg, "128") && strstr(err.msg, "int8"));
  fp[0] = -0.5, fp[1] = 255.9, fp[2] = 0.0, fp[3] = 1.5;
  CHECK_OK(lt_copy(u8, f, &err));
  const uint8_t *u8p = (const uint8_t *)lt_data(u8);
  CHECK(u8p[0] == 0 && u8p[1] == 255 && u8p[2] == 0 && u8p[3] == 1);
  fp[0] = -1.0;
  CHECK_ERR(lt_copy(u8, f, &err), LT_ERANGE);
  f2p[0] = -0x1p63, f2p[1] = nextafter(0x1p63, 0);
  CHECK_OK(lt_copy(i64, f2, &err));
  const int64_t *i64p = (const int64_t *)(void *)lt_data(i64);
  CHECK(i64p[0] == INT64_MIN && i64p[1] == INT64_C(9223372036854774784));
  f2p[1] = 0x1p63;
  CHECK_ERR(lt_copy(i64, f2, &err), LT_ERANGE);
  f2p[0] = 0x1p63, f2p[1] = nextafter(0x1p64, 0);
  CHECK_OK(lt_copy(u64, f2, &err));
  const uint64_t *u64p = (const uint64_t *)(void *)lt_data(u64);
  CHECK(u64p[0] == UINT64_C(1) << 63 && u64p[1] == UINT64_C(18446744073709549568));
  f2p[1] = 0x1p64;
  CHECK_ERR(lt_copy(u64, f2, &err), LT_ERANGE);
  /* float -> bool: != 0, NaN is true */
  lt_tensor *b = make(LT_BOOL, 1, A(4));
  fp[0] = NAN, fp[1] = 0.0, fp[2] = -0.0, fp[3] = 1e-300;
  CHECK_OK(lt_copy(b, f, &err));
  const uint8_t *bp = (const uint8_t *)lt_data(b);
  CHECK(bp[0] == 1 && bp[1] == 0 && bp[2] == 0 && bp[3] == 1);
  /* integer -> narrower integer wraps */
  lt_tensor *w = make(LT_INT64, 1, A(4));
  int64_t *wp = (int64_t *)(void *)lt_data(w);
  wp[0] = 300, wp[1] = -1, wp[2] = 200, wp[3] = INT64_C(0x100000000) + 5;
  CHECK_OK(lt_copy(u8, w, &err));
  CHECK(u8p[0] == 44 && u8p[1] == 255 && u8p[2] == 200 && u8p[3] == 5);
  CHECK_OK(lt_copy(i8, w, &err));
  CHECK(i8p[0] == 44 && i8p[1] == -1 && i8p[2] == -56 && i8p[3] == 5);
  wp[0] = 256, wp[1] = 0, wp[2] = -1, wp[3] = INT64_MIN;
  CHECK_OK(lt_copy(b, w, &err));
  CHECK(bp[0] == 1 && bp[1] == 0 && bp[2] == 1 && bp[3] == 1);
  lt_tensor *ub = make(LT_UINT64, 1, A(2)), *ib = make(LT_INT64, 1, A(2)),
            *fb = make(LT_FLOAT64, 1, A(2));
  uint64_t *ubp = (uint64_t *)(void *)lt_data(ub);
  ubp[0] = UINT64_MAX, ubp[1] = UINT64_C(1) << 63;
  CHECK_OK(lt_copy(ib, ub, &err));
  CHECK(((int64_t *)(void *)lt_data(ib))[0] == -1 &&
        ((int64_t *)(void *)lt_data(ib))[1] == INT64_MIN);
  CHECK_OK(lt_copy(fb, ub, &err));
  CHECK(((double *)(void *)lt_data(fb))[0] == 0x1p64 &&
        ((double *)(void *)lt_data(fb))[1] == 0x1p63);
  /* integers to float32 round once; lt_fill (through lt_store) agrees with lt_copy */
  lt_tensor *f32 = make(LT_FLOAT32, 1, A(2)), *f32b = make(LT_FLOAT32, 1, A(2));
  int64_t big = (INT64_C(1) << 60) + (INT64_C(1) << 36) + 1;
  lt_tensor *w2 = NULL;
  wp[0] = big, wp[1] = -big;
  CHECK_OK(lt_narrow(w, 0, 0, 2, &w2, &err));
  CHECK_OK(lt_copy(f32, w2, &err));
  const float *f32p = (const float *)(void *)lt_data(f32);
  CHECK(f32p[0] == (float)big && f32p[1] == (float)-big);
  CHECK_OK(lt_fill(f32b, &(lt_scalar){.kind = LT_SK_INT, .v.i = big}, &err));
  CHECKF(((const float *)(void *)lt_data(f32b))[0] == f32p[0], "fill %a, copy %a",
         (double)((const float *)(void *)lt_data(f32b))[0], (double)f32p[0]);
  /* float16 overflow to inf, complex -> real drops im, real -> complex sets im = 0 */
  lt_tensor *h = make(LT_FLOAT16, 1, A(2)), *c = make(LT_COMPLEX64, 1, A(2)),
            *c2 = make(LT_COMPLEX128, 1, A(2));
  f2p[0] = 65520.0, f2p[1] = -65504.0;
  CHECK_OK(lt_copy(h, f2, &err));
  const uint16_t *hp = (const uint16_t *)(void *)lt_data(h);
  CHECK(hp[0] == 0x7c00 && hp[1] == 0xfbff);
  lt_c64 *cp = (lt_c64 *)(void *)lt_data(c);
  cp[0] = (lt_c64){1.5f, 2.5f}, cp[1] = (lt_c64){0.0f, -1.0f};
  CHECK_OK(lt_copy(f2, c, &err));
  CHECK(f2p[0] == 1.5 && f2p[1] == 0.0);
  lt_tensor *b2 = make(LT_BOOL, 1, A(2));
  CHECK_OK(lt_copy(b2, c, &err));
  CHECK(((uint8_t *)lt_data(b2))[0] == 1 && ((uint8_t *)lt_data(b2))[1] == 1); /* 0-1i: true */
  CHECK_OK(lt_copy(c2, c, &err));
  const lt_c128 *c2p = (const lt_c128 *)(void *)lt_data(c2);
  CHECK(c2p[0].re == 1.5 && c2p[0].im == 2.5 && c2p[1].re == 0 && c2p[1].im == -1);
  memset(lt_data(c2), 0xff, 32); /* NaN garbage in the imaginary parts */
  f2p[0] = 3.0, f2p[1] = -4.0;
  CHECK_OK(lt_copy(c2, f2, &err));
  CHECK(c2p[0].re == 3 && c2p[0].im == 0 && c2p[1].re == -4 && c2p[1].im == 0);
  memset(lt_data(c), 0xff, 16);
  CHECK_OK(lt_copy(c, w2, &err));
  CHECK(cp[0].re == (float)big && cp[0].im == 0 && cp[1].im == 0);
  lt_tensor *objs[] = {f, i8, u8, i64, u64, f2, b, w, ub, ib, fb, f32, f32b, h, c, c2, b2, w2};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) lt_tensor_free(objs[i]);
}

static void test_fill(void) {
  for (int dt = 0; dt < LT_NDTYPES; dt++) {
    lt_tensor *t = make((lt_dtype)dt, 2, A(3, 4)), *v = NULL;
    double want = dt == LT_BOOL ? 1 : 7;
    CHECK_OK(lt_fill(t, &(lt_scalar){.kind = LT_SK_INT, .v.i = 7}, &err));
    int64_t idx[2] = {0, 0}, bad = 0;
    do {
      double im, x = get(t, idx, &im);
      bad += x != want || im != 0;
    } while (next_index(2, t->shape, idx));
    CHECKF(bad == 0, "fill %s with 7: %lld wrong", lt_dtypes[dt].name, (long long)bad);
    if (dt == LT_BOOL) CHECK(((uint8_t *)lt_data(t))[5] == 1);
    /* a float: truncated for integers */
    CHECK_OK(lt_fill(t, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = 2.5}, &err));
    double w25 = dt == LT_BOOL ? 1 : lt_dtypes[dt].is_int ? 2 : 2.5;
    CHECK(get(t, (int64_t[]){2, 3}, NULL) == w25);
    /* strided views: transposed, reversed columns, one column */
    CHECK_OK(lt_transpose(t, 0, 1, &v, &err));
    CHECK_OK(lt_fill(v, &(lt_scalar){.kind = LT_SK_INT, .v.i = 0}, &err));
    lt_tensor_free(v);
    CHECK(MATCHES(t, zero));
    CHECK_OK(lt_slice(t, 1, 3, 2, -2, &v, &err)); /* columns 3, 1 */
    CHECK_OK(lt_fill(v, &(lt_scalar){.kind = LT_SK_UINT, .v.u = 1}, &err));
    lt_tensor_free(v);
    idx[0] = idx[1] = 0;
    bad = 0;
    do bad += get(t, idx, NULL) != (idx[1] % 2 == 1 ? 1 : 0);
    while (next_index(2, t->shape, idx));
    CHECKF(bad == 0, "strided fill of %s: %lld wrong", lt_dtypes[dt].name, (long long)bad);
    /* a complex value: real part for real dtypes, (re, im) for complex ones */
    CHECK_OK(lt_fill(t, &(lt_scalar){.kind = LT_SK_COMPLEX, .v.f = 3, .im = 4}, &err));
    double im, re = get(t, (int64_t[]){1, 1}, &im);
    CHECK(re == (dt == LT_BOOL ? 1 : 3) && im == (lt_dtypes[dt].is_complex ? 4 : 0));
    /* out of range: fails, naming value and dtype, and writes nothing */
    if (lt_dtypes[dt].is_int) {
      CHECK_OK(lt_fill(t, &(lt_scalar){.kind = LT_SK_INT, .v.i = 5}, &err));
      CHECK_ERR(lt_fill(t, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = NAN}, &err), LT_ERANGE);
      CHECKF(strstr(err.msg, "nan") && strstr(err.msg, lt_dtypes[dt].name), "%s", err.msg);
      CHECK_ERR(lt_fill(t, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = 1e20}, &err), LT_ERANGE);
      CHECK_ERR(lt_fill(t, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = -INFINITY}, &err), LT_ERANGE);
      CHECKF(strstr(err.msg, "-inf") != NULL, "%s", err.msg);
      idx[0] = idx[1] = 0;
      bad = 0;
      do bad += get(t, idx, NULL) != 5;
      while (next_index(2, t->shape, idx));
      CHECKF(bad == 0, "failed fill of %s wrote %lld elements", lt_dtypes[dt].name, (long long)bad);
    }
    lt_tensor_free(t);
  }
  /* range boundaries of fill */
  lt_tensor *i8 = make(LT_INT8, 1, A(3)), *u8 = make(LT_UINT8, 1, A(3));
  CHECK_OK(lt_fill(i8, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = -128.9}, &err));
  CHECK(((int8_t *)lt_data(i8))[2] == -128);
  CHECK_ERR(lt_fill(i8, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = 128.0}, &err), LT_ERANGE);
  /* an integer out of range is refused before anything is written */
  CHECK_ERR(lt_fill(i8, &(lt_scalar){.kind = LT_SK_INT, .v.i = 200}, &err), LT_ERANGE);
  CHECK(strcmp(err.msg, "value 200 cannot be converted to int8 without overflow") == 0);
  CHECK(((int8_t *)lt_data(i8))[1] == -128);
  CHECK_OK(lt_fill(i8, &(lt_scalar){.kind = LT_SK_INT, .v.i = 127}, &err));
  CHECK(((int8_t *)lt_data(i8))[1] == 127);
  CHECK_OK(lt_fill(u8, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = -0.5}, &err));
  CHECK(((uint8_t *)lt_data(u8))[0] == 0);
  CHECK_ERR(lt_fill(u8, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = -1.0}, &err), LT_ERANGE);
  lt_tensor_free(u8);
  lt_tensor_free(i8);
  /* 0-d */
  lt_tensor *z = make(LT_FLOAT64, 0, NULL);
  CHECK_OK(lt_fill(z, &(lt_scalar){.kind = LT_SK_FLOAT, .v.f = -3.25}, &err));
  CHECK(*(double *)(void *)lt_data(z) == -3.25);
  lt_tensor_free(z);
}

static void test_readonly(void) {
  static const lt_readonly modes[] = {LT_RO_DLPACK, LT_RO_HOST, LT_RO_WRAPPER};
  for (size_t m = 0; m < 3; m++) {
    lt_tensor *t = make(LT_FLOAT32, 2, A(2, 3)), *src = make(LT_FLOAT32, 2, A(2, 3)), *v = NULL;
    fill_with(src, seven);
    t->readonly = modes[m];
    CHECK_ERR(lt_copy(t, src, &err), LT_EREADONLY);
    CHECKF(strstr(err.msg, "read-only") != NULL, "message: %s", err.msg);
    CHECK_ERR(lt_fill(t, &(lt_scalar){.kind = LT_SK_INT, .v.i = 1}, &err), LT_EREADONLY);
    CHECKF(strstr(err.msg, "read-only") != NULL, "message: %s", err.msg);
    CHECK(MATCHES(t, zero));
    /* views inherit it */
    CHECK_OK(lt_transpose(t, 0, 1, &v, &err));
    CHECK_ERR(lt_fill(v, &(lt_scalar){.kind = LT_SK_INT, .v.i = 1}, &err), LT_EREADONLY);
    lt_tensor_free(v);
    /* reading from a read-only tensor is fine */
    CHECK_OK(lt_copy(src, t, &err));
    CHECK(MATCHES(src, zero));
    lt_tensor_free(src);
    lt_tensor_free(t);
  }
  lt_tensor *t = make(LT_FLOAT32, 1, A(2));
  t->readonly = LT_RO_DLPACK;
  CHECK_ERR(lt_fill(t, &(lt_scalar){.kind = LT_SK_INT, .v.i = 1}, &err), LT_EREADONLY);
  CHECK(strstr(err.msg, "DLPack") != NULL);
  lt_tensor_free(t);
}

static void test_opaque(void) {
  /* an fp8 tensor: kept, but its elements cannot be read or written */
  lt_tensor *o = make(LT_UINT8, 1, A(4)), *u = make(LT_UINT8, 1, A(4));
  o->dtype = LT_OPAQUE;
  o->dl_dtype = (DLDataType){kDLFloat8_e4m3fn, 8, 1};
  CHECK_ERR(lt_copy(o, u, &err), LT_EOPAQUE);
  CHECK_ERR(lt_copy(u, o, &err), LT_EOPAQUE);
  CHECK(strstr(err.msg, "code 10") != NULL);
  CHECK_ERR(lt_fill(o, &(lt_scalar){.kind = LT_SK_INT, .v.i = 1}, &err), LT_EOPAQUE);
  lt_tensor_free(o);
  /* data on a device the host cannot read */
  lt_tensor *g = make(LT_FLOAT32, 1, A(4));
  g->storage->device.device_type = kDLCUDA;
  CHECK_ERR(lt_copy(u, g, &err), LT_EOPAQUE);
  CHECK(strstr(err.msg, "cuda:0") != NULL);
  CHECK_ERR(lt_copy(g, u, &err), LT_EOPAQUE);
  CHECK_ERR(lt_fill(g, &(lt_scalar){.kind = LT_SK_INT, .v.i = 1}, &err), LT_EOPAQUE);
  g->storage->device.device_type = kDLCUDAHost; /* pinned host memory is readable */
  CHECK_OK(lt_copy(u, g, &err));
  lt_tensor_free(g);
  lt_tensor_free(u);
}

static void test_large(void) {
  const int64_t n = 1000;
  lt_tensor *s = make(LT_FLOAT32, 2, A(n, n)), *st = NULL, *d = make(LT_FLOAT32, 2, A(n, n)),
            *d64 = make(LT_FLOAT64, 2, A(n, n));
  float *sp = (float *)(void *)lt_data(s);
  for (int64_t i = 0; i < n * n; i++) sp[i] = (float)i;
  CHECK_OK(lt_transpose(s, 0, 1, &st, &err));
  CHECK_OK(lt_copy(d, st, &err));
  CHECK_OK(lt_copy(d64, st, &err));
  const float *dp = (const float *)(void *)lt_data(d);
  const double *d64p = (const double *)(void *)lt_data(d64);
  int64_t bad = 0, bad64 = 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      bad += dp[i * n + j] != (float)(j * n + i);
      bad64 += d64p[i * n + j] != (double)(j * n + i);
    }
  CHECKF(bad == 0, "large transposed copy: %lld wrong", (long long)bad);
  CHECKF(bad64 == 0, "large transposed float32 -> float64 copy: %lld wrong", (long long)bad64);
  /* and back, transposed again, into a strided destination */
  lt_tensor *dt = NULL;
  memset(lt_data(s), 0, (size_t)(n * n) * sizeof(float));
  CHECK_OK(lt_transpose(s, 0, 1, &dt, &err));
  CHECK_OK(lt_copy(dt, d64, &err));
  bad = 0;
  for (int64_t i = 0; i < n * n; i++) bad += sp[i] != (float)i;
  CHECKF(bad == 0, "large copy into a transposed dst: %lld wrong", (long long)bad);
  lt_tensor_free(dt);
  lt_tensor_free(st);
  lt_tensor_free(d64);
  lt_tensor_free(d);
  lt_tensor_free(s);
}

/* {====== blocked (tiled) transposing copies ====== */

/*
 * Same-dtype copies whose inner dim is contiguous in the destination and strided in the source,
 * with another dim contiguous in the source, go through tiles (lt_copy.c). Each case below
 * lays a source and a destination over storages of their own with the given strides (in
 * elements, negative allowed), copies, and compares every byte of the destination's storage
 * with an element-by-element copy: the elements of the view must be the source's, every other
 * byte must be untouched.
 */
#define MARGIN 3 /* elements of storage before and after each layout */

/* Elements a layout spans; *lo is the lowest element offset (<= 0) from element (0, ..., 0). */
static int64_t span_of(int ndim, const int64_t *shape, const int64_t *st, int64_t *lo) {
  int64_t a = 0, b = 0;
  for (int i = 0; i < ndim; i++) {
    int64_t d = (shape[i] - 1) * st[i];
    if (d < 0)
      a += d;
    else
      b += d;
  }
  *lo = a;
  return b - a + 1;
}

static lt_tensor *layout(lt_frame *f, const lt_tensor *base, int ndim, const int64_t *shape,
                         const int64_t *st, int64_t offset) {
  lt_tensor *v = lt_frame_of(f, base);
  v->ndim = ndim;
  memcpy(v->shape, shape, (size_t)ndim * sizeof(int64_t));
  memcpy(v->strides, st, (size_t)ndim * sizeof(int64_t));
  v->offset = offset;
  return v;
}

static long layout_cases;

static void check_layout_copy(lt_dtype dt, int ndim, const int64_t *shape, const int64_t *dst_st,
                              const int64_t *src_st, int line) {
  size_t es = lt_dtypes[dt].size;
  int64_t dlo, slo;
  int64_t dn = span_of(ndim, shape, dst_st, &dlo) + 2 * MARGIN;
  int64_t sn = span_of(ndim, shape, src_st, &slo) + 2 * MARGIN;
  lt_tensor *db = make(dt, 1, A(dn)), *sb = make(dt, 1, A(sn));
  if (!db || !sb) {
    lt_tensor_free(db);
    lt_tensor_free(sb);
    return;
  }
  unsigned char *dp = (unsigned char *)lt_data(db), *sp = (unsigned char *)lt_data(sb);
  size_t dbytes = (size_t)dn * es, sbytes = (size_t)sn * es;
  for (size_t k = 0; k < sbytes; k++) sp[k] = (unsigned char)((k * 2654435761u) >> 11);
  memset(dp, 0xA5, dbytes);
  unsigned char *want = malloc(dbytes);
  CHECK(want != NULL);
  if (!want) return;
  memcpy(want, dp, dbytes);
  int64_t doff = MARGIN - dlo, soff = MARGIN - slo, idx[LT_MAX_NDIM] = {0}, numel = 1;
  for (int i = 0; i < ndim; i++) numel *= shape[i];
  if (numel > 0) {
    do {
      int64_t d = doff, s = soff;
      for (int i = 0; i < ndim; i++) {
        d += idx[i] * dst_st[i];
        s += idx[i] * src_st[i];
      }
      memcpy(want + d * (int64_t)es, sp + s * (int64_t)es, es);
    } while (next_index(ndim, shape, idx));
  }
  lt_frame fd, fs;
  lt_tensor *dv = layout(&fd, db, ndim, shape, dst_st, doff);
  lt_tensor *sv = layout(&fs, sb, ndim, shape, src_st, soff);
  CHECK_OK(lt_copy(dv, sv, &err));
  size_t k = 0;
  while (k < dbytes && dp[k] == want[k]) k++;
  char sh[64], ds[96], ss[96];
  lt_shape_str(ndim, shape, sh, sizeof sh);
  lt_shape_str(ndim, dst_st, ds, sizeof ds);
  lt_shape_str(ndim, src_st, ss, sizeof ss);
  CHECKF(k == dbytes,
         "line %d: %s copy of shape %s, dst strides %s, src strides %s: storage byte %zu "
         "(element %zu) is %02x, expected %02x",
         line, lt_dtypes[dt].name, sh, ds, ss, k, k / es, k < dbytes ? dp[k] : 0,
         k < dbytes ? want[k] : 0);
  layout_cases++;
  free(want);
  lt_tensor_free(db);
  lt_tensor_free(sb);
}
#define LAYOUT_COPY(dt, ndim, shape, dst_st, src_st) \
  check_layout_copy(dt, ndim, shape, dst_st, src_st, __LINE__)

/* One dtype per element size: 1, 2, 4, 8, 16 bytes. */
static const lt_dtype by_size[] = {LT_UINT8, LT_INT16, LT_INT32, LT_INT64, LT_COMPLEX128};
#define NSIZES ((int)(sizeof by_size / sizeof by_size[0]))

static void test_blocked_2d(void) {
  static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65};
  const int ns = (int)(sizeof sizes / sizeof sizes[0]);
  for (int z = 0; z < NSIZES; z++) {
    lt_dtype dt = by_size[z];
    for (int i = 0; i < ns; i++)
      for (int j = 0; j < ns; j++) {
        int64_t r = sizes[i], c = sizes[j];
        const int64_t *sh = A(r, c);
        /* b:copy_(a:t()) for a contiguous c x r */
        LAYOUT_COPY(dt, 2, sh, A(c, 1), A(1, r));
        /* negative strides on either side, in either dim */
        LAYOUT_COPY(dt, 2, sh, A(c, 1), A(-1, -r));
        LAYOUT_COPY(dt, 2, sh, A(c, -1), A(-1, r));
        LAYOUT_COPY(dt, 2, sh, A(-c, -1), A(1, r));
        LAYOUT_COPY(dt, 2, sh, A(-c, 1), A(1, -r));
        /* padded rows on both sides (views of wider matrices) */
        LAYOUT_COPY(dt, 2, sh, A(c + 3, 1), A(1, r + 2));
        /* into a transposed destination from a contiguous source */
        LAYOUT_COPY(dt, 2, sh, A(1, r), A(c, 1));
      }
    /* tiles of every kind at once, and more than one outer tile in each direction */
    LAYOUT_COPY(dt, 2, A(130, 257), A(257, 1), A(1, 130));
    LAYOUT_COPY(dt, 2, A(257, 130), A(130, 1), A(-1, 257));
    LAYOUT_COPY(dt, 2, A(300, 6), A(6, 1), A(1, 300));
    LAYOUT_COPY(dt, 2, A(6, 300), A(-300, 1), A(1, -6));
  }
}

/* Every permutation of a contiguous 3-d and 4-d source into a contiguous destination. */
static void test_blocked_batched(void) {
  static const int perms3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int64_t s3[3] = {5, 33, 17};
  const int64_t s4[4] = {3, 5, 7, 9};
  for (int z = 0; z < NSIZES; z++) {
    lt_dtype dt = by_size[z];
    for (int p = 0; p < 6; p++) {
      int64_t st[3], vs[3], vst[3], dst[3];
      lt_contiguous_strides(3, s3, st);
      for (int i = 0; i < 3; i++) {
        vs[i] = s3[perms3[p][i]];
        vst[i] = st[perms3[p][i]];
      }
      lt_contiguous_strides(3, vs, dst);
      LAYOUT_COPY(dt, 3, vs, dst, vst);
      vst[1] = -vst[1]; /* and with one dim walked backwards */
      LAYOUT_COPY(dt, 3, vs, dst, vst);
    }
    for (int code = 0; code < 256; code++) { /* every permutation of 0..3 */
      int perm[4], seen = 0;
      for (int i = 0; i < 4; i++) {
        perm[i] = (code >> (2 * i)) & 3;
        seen |= 1 << perm[i];
      }
      if (seen != 15) continue;
      int64_t st[4], vs[4], vst[4], dst[4];
      lt_contiguous_strides(4, s4, st);
      for (int i = 0; i < 4; i++) {
        vs[i] = s4[perm[i]];
        vst[i] = st[perm[i]];
      }
      lt_contiguous_strides(4, vs, dst);
      LAYOUT_COPY(dt, 4, vs, dst, vst);
    }
  }
}

/* Layouts that are not the transpose pattern (or only nearly): still copied right. */
static void test_blocked_others(void) {
  for (int z = 0; z < NSIZES; z++) {
    lt_dtype dt = by_size[z];
    LAYOUT_COPY(dt, 2, A(9, 11), A(11, 1), A(2, 22));           /* source contiguous nowhere */
    LAYOUT_COPY(dt, 2, A(9, 11), A(11, 1), A(1, 0));            /* source broadcast along the run */
    LAYOUT_COPY(dt, 2, A(9, 11), A(11, 1), A(0, 9));            /* broadcast along the other dim */
    LAYOUT_COPY(dt, 2, A(9, 11), A(22, 2), A(1, 9));            /* destination strided everywhere */
    LAYOUT_COPY(dt, 3, A(4, 9, 11), A(99, 11, 1), A(1, 4, 36)); /* source contiguous in dim 0 */
    LAYOUT_COPY(dt, 3, A(4, 9, 11), A(99, 11, 1), A(0, 1, 9));  /* batch broadcast */
  }
}

/* }====== */

int main(void) {
  test_all_pairs();
  test_shapes();
  test_overlap();
  test_frame_copy();
  test_conversions();
  test_fill();
  test_readonly();
  test_opaque();
  test_large();
  test_blocked_2d();
  test_blocked_batched();
  test_blocked_others();
  printf("test_kernels: %ld layouts copied\n", layout_cases);
  return tu_finish("test_kernels");
}
