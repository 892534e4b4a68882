/*
 * test_matmul.c -- matrix products (lt_matmul and friends) and cat (lt_cat): values computed by
 * naive loops, every rank torch.matmul takes, transposed operands, every dtype, errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_linalg.h"
#include "lt_tensor.h"
#include "test_core.h"
#include "test_util.h"
#include "test_values.h"

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

/* A tensor on a device the host cannot read is refused by the products and cat. */
static void test_device_operands(void) {
  lt_tensor *t = make(LT_FLOAT32, 2, A(1, 3)), *u = make(LT_FLOAT32, 2, A(3, 1)), *o = NULL;
  DLDevice dev = t->storage->device;
  t->storage->device.device_type = kDLCUDA;
  CHECK_FAILS(lt_matmul(t, u, &o, &err), "cuda");
  const lt_tensor *ts[2] = {u, t};
  CHECK_FAILS(lt_cat(ts, 2, 0, &o, &err), "cuda");
  t->storage->device = dev;
  lt_tensor_free(u);
  lt_tensor_free(t);
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
  test_matmul_values();
  test_matmul_errors();
  test_device_operands();
  test_cat();
  return tu_finish("test_matmul");
}
