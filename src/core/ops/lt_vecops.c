/*
 * lt_vecops.c -- isclose, allclose, equal, dist, outer and cross (see lt_vecops.h). Lua-free.
 *
 * isclose is one kernel over the broadcast operands (the elements read as float64, complex as
 * two); the others are compositions of lt_math's elementwise operations, the reductions and
 * views: outer multiplies an (n, 1) view by a (1, m) one, cross builds each component from
 * selected views and stacks them, dist is lt_norm of the difference.
 */
#include <math.h>
#include <string.h>

#include "lt_iter.h"
#include "lt_linalg.h"
#include "lt_math.h"
#include "lt_reduce.h"
#include "lt_vecops.h"

/* {====== isclose ====== */

typedef struct {
  lt_dtype dt;
  double rtol, atol;
  int equal_nan;
} close_ctx;

/* The element at p as (re, im). */
static void load_c(lt_dtype dt, const char *p, double *re, double *im) {
  lt_scalar s;
  lt_load(dt, p, &s);
  *im = 0;
  switch (s.kind) {
    case LT_SK_INT: *re = (double)s.v.i; break;
    case LT_SK_UINT: *re = (double)s.v.u; break;
    case LT_SK_COMPLEX: *im = s.im; /* fall through */
    default: *re = s.v.f; break;
  }
}

static int close_run(void *vc, char *const *p, const int64_t *st, int64_t n) {
  const close_ctx *c = vc;
  for (int64_t k = 0; k < n; k++) {
    double ar, ai, br, bi;
    load_c(c->dt, p[1] + k * st[1], &ar, &ai);
    load_c(c->dt, p[2] + k * st[2], &br, &bi);
    int close = ar == br && ai == bi;
    if (!close && c->equal_nan) close = isnan(ar) && isnan(br);
    if (!close && (c->rtol != 0 || c->atol != 0)) {
      double diff = hypot(ar - br, ai - bi), allowed = c->atol + c->rtol * hypot(br, bi);
      close = isfinite(diff) && diff <= allowed;
    }
    *(uint8_t *)(p[0] + k * st[0]) = (uint8_t)close;
  }
  return 0;
}

int lt_isclose(const lt_tensor *a, const lt_tensor *b, double rtol, double atol, int equal_nan,
               lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc || (rc = lt_check_readable(b, err))) return rc;
  if (a->dtype != b->dtype)
    return lt_fail(err, LT_EARG, "inputs must have the same dtype, got %s and %s",
                   lt_dtype_name(a->dtype), lt_dtype_name(b->dtype));
  if (!(rtol >= 0)) return lt_fail(err, LT_EARG, "rtol must be >= 0, got %g", rtol);
  if (!(atol >= 0)) return lt_fail(err, LT_EARG, "atol must be >= 0, got %g", atol);
  if (equal_nan && lt_dtypes[a->dtype].is_complex)
    return lt_fail(err, LT_EARG, "equal_nan is not supported for complex inputs");
  const lt_tensor *ts[2] = {a, b};
  int nd;
  int64_t shape[LT_MAX_NDIM];
  if ((rc = lt_broadcast_shape(2, ts, &nd, shape, err))) return rc;
  lt_tensor *y = NULL, *va = NULL, *vb = NULL;
  if ((rc = lt_tensor_new(LT_BOOL, nd, shape, 0, &y, err)) ||
      (rc = lt_broadcast_to(a, nd, shape, &va, err)) ||
      (rc = lt_broadcast_to(b, nd, shape, &vb, err)))
    goto done;
  if (lt_numel(y) > 0) {
    close_ctx c = {a->dtype, rtol, atol, equal_nan};
    lt_tensor *ops[3] = {y, va, vb};
    lt_iter it;
    lt_iter_init(&it, 3, ops);
    char *base[3] = {lt_data(y), lt_data(va), lt_data(vb)};
    (void)lt_iter_run_par(&it, base, close_run, &c, 1.0 + 2.0 * (double)lt_esize(a));
  }
done:
  lt_tensor_free(va);
  lt_tensor_free(vb);
  if (rc)
    lt_tensor_free(y);
  else
    *out = y;
  return rc;
}

/* *res: whether every element of the bool tensor t (freed) is true. */
static int all_of(lt_tensor *t, int *res, lt_error *err) {
  lt_tensor *r;
  int rc = lt_reduce(LT_ALL, t, -1, 0, 0, &r, NULL, err);
  lt_tensor_free(t);
  if (rc) return rc;
  *res = *(const uint8_t *)lt_data(r) != 0;
  lt_tensor_free(r);
  return LT_OK;
}

int lt_allclose(const lt_tensor *a, const lt_tensor *b, double rtol, double atol, int equal_nan,
                int *res, lt_error *err) {
  lt_tensor *c;
  int rc = lt_isclose(a, b, rtol, atol, equal_nan, &c, err);
  return rc ? rc : all_of(c, res, err);
}

int lt_equal(const lt_tensor *a, const lt_tensor *b, int *res, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc || (rc = lt_check_readable(b, err))) return rc;
  *res = 0;
  if (a->ndim != b->ndim) return LT_OK;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d]) return LT_OK;
  lt_operand x = {a, {LT_SK_INT, {0}, 0}, 0}, y = {b, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *eq;
  if ((rc = lt_binary(LT_EQ, &x, &y, NULL, &eq, err))) return rc;
  return all_of(eq, res, err);
}

/* }====== */

/* {====== dist, outer, cross ====== */

int lt_dist(const lt_tensor *a, const lt_tensor *b, double p, lt_tensor **out, lt_error *err) {
  lt_operand x = {a, {LT_SK_INT, {0}, 0}, 0}, y = {b, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *d;
  int rc = lt_binary(LT_SUB, &x, &y, NULL, &d, err);
  if (rc) return rc;
  if (isinf(p) && lt_numel(d) == 0) { /* torch: 0, where norm refuses */
    lt_tensor *z;
    rc = lt_norm(d, 1, NULL, 0, 0, &z, err);
    lt_tensor_free(d);
    if (rc == LT_OK) *out = z;
    return rc;
  }
  rc = lt_norm(d, p, NULL, 0, 0, out, err);
  lt_tensor_free(d);
  return rc;
}

int lt_outer(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  if (a->ndim != 1) return lt_fail(err, LT_EARG, "self must be a 1-d tensor, got %d dims", a->ndim);
  if (b->ndim != 1) return lt_fail(err, LT_EARG, "vec2 must be a 1-d tensor, got %d dims", b->ndim);
  lt_frame fa, fb;
  lt_tensor *va = lt_frame_of(&fa, a), *vb = lt_frame_of(&fb, b);
  va->ndim = 2;
  va->shape[1] = 1;
  va->strides[1] = 0;
  vb->ndim = 2;
  vb->shape[1] = b->shape[0];
  vb->strides[1] = b->strides[0];
  vb->shape[0] = 1;
  vb->strides[0] = 0;
  lt_operand x = {va, {LT_SK_INT, {0}, 0}, 0}, y = {vb, {LT_SK_INT, {0}, 0}, 0};
  return lt_binary(LT_MUL, &x, &y, NULL, out, err);
}

/* *c = a_i * b_j - a_j * b_i, the components selected along dim (views in frames). */
static int cross_part(const lt_tensor *a, const lt_tensor *b, int dim, int i, int j, lt_tensor **c,
                      lt_error *err) {
  lt_frame f0, f1, f2, f3;
  lt_tensor *ai = lt_frame_of(&f0, a), *bj = lt_frame_of(&f1, b);
  lt_tensor *aj = lt_frame_of(&f2, a), *bi = lt_frame_of(&f3, b);
  lt_select_(ai, dim, i, NULL);
  lt_select_(bj, dim, j, NULL);
  lt_select_(aj, dim, j, NULL);
  lt_select_(bi, dim, i, NULL);
  lt_operand o1 = {ai, {LT_SK_INT, {0}, 0}, 0}, o2 = {bj, {LT_SK_INT, {0}, 0}, 0};
  lt_operand o3 = {aj, {LT_SK_INT, {0}, 0}, 0}, o4 = {bi, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *p, *q;
  int rc = lt_binary(LT_MUL, &o1, &o2, NULL, &p, err);
  if (rc) return rc;
  if ((rc = lt_binary(LT_MUL, &o3, &o4, NULL, &q, err)) == LT_OK) {
    lt_operand op = {p, {LT_SK_INT, {0}, 0}, 0}, oq = {q, {LT_SK_INT, {0}, 0}, 0};
    rc = lt_binary(LT_SUB, &op, &oq, NULL, c, err);
    lt_tensor_free(q);
  }
  lt_tensor_free(p);
  return rc;
}

int lt_cross(const lt_tensor *a, const lt_tensor *b, int dim, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc || (rc = lt_check_readable(b, err))) return rc;
  if (a->ndim != b->ndim)
    return lt_fail(err, LT_EARG, "inputs must have the same number of dims, got %d and %d", a->ndim,
                   b->ndim);
  if (a->dtype != b->dtype)
    return lt_fail(err, LT_EARG, "inputs must have the same dtype, got %s and %s",
                   lt_dtype_name(a->dtype), lt_dtype_name(b->dtype));
  const lt_tensor *ts[2] = {a, b};
  int nd;
  int64_t shape[LT_MAX_NDIM];
  if ((rc = lt_broadcast_shape(2, ts, &nd, shape, err))) return rc;
  if (dim < 0) {
    for (int d = 0; d < nd && dim < 0; d++)
      if (shape[d] == 3) dim = d;
    if (dim < 0) return lt_fail(err, LT_EARG, "no dim of size 3 in the inputs");
  } else if (dim >= nd) {
    return lt_dim_error(err, dim, nd);
  }
  if (a->shape[dim] != 3 || b->shape[dim] != 3)
    return lt_fail(err, LT_EARG, "dim %d must have size 3, got %lld and %lld", dim + 1,
                   (long long)a->shape[dim], (long long)b->shape[dim]);
  lt_tensor *c[3] = {NULL, NULL, NULL};
  if ((rc = cross_part(a, b, dim, 1, 2, &c[0], err)) == LT_OK &&
      (rc = cross_part(a, b, dim, 2, 0, &c[1], err)) == LT_OK &&
      (rc = cross_part(a, b, dim, 0, 1, &c[2], err)) == LT_OK)
    rc = lt_stack((const lt_tensor *const *)c, 3, dim, out, err);
  for (int i = 0; i < 3; i++) lt_tensor_free(c[i]);
  return rc;
}

/* }====== */
