/*
 * lt_math.c -- the elementwise operations beyond the table of lt_funcs.h: clamp (a one-pass
 * kernel for float tensors with number bounds, else lt_binary's maximum and minimum), where and
 * masked_fill (see lt_math.h). They run under the driver of lt_elementwise.c.
 */
#include "lt_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_elementwise.h"
#include "lt_simd.h"

/* {====== clamp, where, masked_fill ====== */

/* clamp of a float tensor by number bounds in one pass: maximum(x, lo), then minimum(., hi),
   each as the binary kernels' (NaN in x or in a bound propagates); an absent bound is -inf or
   +inf, which leaves every x as it is. Written as four selects (GCC vectorizes those, not the
   conditions joined by ||). */
static inline float clamp1_f(float x, float lo, float hi) {
  float m = x > lo ? x : lo;
  m = x != x ? x : m;
  float r = m < hi ? m : hi;
  return m != m ? m : r;
}
static inline double clamp1_d(double x, double lo, double hi) {
  double m = x > lo ? x : lo;
  m = x != x ? x : m;
  double r = m < hi ? m : hi;
  return m != m ? m : r;
}
#define CLAMP1(x, lo, hi) _Generic((x), float : clamp1_f, double : clamp1_d)(x, lo, hi)
#define CLAMP_RUN(E, T)                                                                           \
  typedef struct {                                                                                \
    T lo, hi;                                                                                     \
  } clamp_##E##_ctx;                                                                              \
  static LT_SIMD_INLINE int clampb_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    const clamp_##E##_ctx *c = ctx;                                                               \
    const T lo = c->lo, hi = c->hi;                                                               \
    LT_UNARY_LOOP(T, T, CLAMP1(x, lo, hi));                                                       \
    return 0;                                                                                     \
  }                                                                                               \
  LT_SIMD_CLONES_RET(int, clampc_##E, clampb_##E, LT_KERNEL_PARAMS, LT_KERNEL_ARGS)               \
  static int clamp_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) {                 \
    return LT_SIMD_PICK(clampc_##E)(ctx, p, st, n);                                               \
  }
CLAMP_RUN(FLOAT32, float)
CLAMP_RUN(FLOAT64, double)

/* A bound as the float dtype dt computes it in lt_binary (lt_operand_as: beyond the range,
   +-inf); absent: `none`. */
static int clamp_bound(const lt_operand *o, lt_dtype dt, double none, double *v, lt_error *err) {
  if (!o) {
    *v = none;
    return LT_OK;
  }
  const lt_tensor *t;
  lt_tensor *owned;
  int rc = lt_operand_as(o, dt, &t, &owned, err);
  if (rc) return rc;
  *v = dt == LT_FLOAT32 ? (double)*(const float *)(const void *)lt_data(t)
                        : *(const double *)(const void *)lt_data(t);
  lt_tensor_free(owned);
  return LT_OK;
}

/* clamp of a float32 or float64 tensor by number bounds (not booleans): one pass (CLAMP_RUN),
   with the result lt_binary's maximum and minimum give (the dtype stays a's). */
static int clamp_fused(const lt_tensor *a, const lt_operand *lo, const lt_operand *hi,
                       lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  double l, h;
  if ((rc = clamp_bound(lo, a->dtype, -INFINITY, &l, err)) ||
      (rc = clamp_bound(hi, a->dtype, INFINITY, &h, err)))
    return rc;
  clamp_FLOAT32_ctx c32 = {(float)l, (float)h};
  clamp_FLOAT64_ctx c64 = {l, h};
  int f32 = a->dtype == LT_FLOAT32;
  return lt_run_elementwise(f32 ? clamp_FLOAT32 : clamp_FLOAT64, f32 ? (void *)&c32 : (void *)&c64,
                            1, &a, a->ndim, a->shape, a->dtype, a->dtype, inplace, out, "failed",
                            err);
}

static int number_bound(const lt_operand *o) { return !o || (!o->t && !o->is_bool); }

int lt_clamp(const lt_tensor *a, const lt_operand *lo, const lt_operand *hi, lt_tensor *inplace,
             lt_tensor **out, lt_error *err) {
  if (!lo && !hi) return lt_fail(err, LT_EARG, "at least one of min and max is needed");
  if ((a->dtype == LT_FLOAT32 || a->dtype == LT_FLOAT64) && number_bound(lo) && number_bound(hi))
    return clamp_fused(a, lo, hi, inplace, out, err);
  lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *step = NULL;
  int rc = LT_OK;
  const lt_operand *cur = &oa;
  lt_operand tmp;
  if (lo) {
    rc = lt_binary(LT_MAXIMUM, cur, lo, hi ? NULL : inplace, &step, err);
    if (rc) return rc;
    tmp = (lt_operand){step, {LT_SK_INT, {0}, 0}, 0};
    cur = &tmp;
  }
  if (hi) {
    lt_tensor *r;
    rc = lt_binary(LT_MINIMUM, cur, hi, inplace, &r, err);
    if (step && step != inplace) lt_tensor_free(step);
    if (rc) return rc;
    *out = r;
    return LT_OK;
  }
  *out = step;
  return LT_OK;
}

/* where: out = cond ? a : b, in the promoted dtype of a and b. */
#define WHERE_RUN(b) WHERE_RUN_(b, LT_UBITS_##b)
#define WHERE_RUN_(b, T)                                                          \
  static int where_##b(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                                    \
    for (int64_t i = 0; i < n; i++) {                                             \
      const T *src = *(const uint8_t *)(p[1] + i * st[1])                         \
                         ? (const T *)(const void *)(p[2] + i * st[2])            \
                         : (const T *)(const void *)(p[3] + i * st[3]);           \
      memcpy(p[0] + i * st[0], src, sizeof(T));                                   \
    }                                                                             \
    return 0;                                                                     \
  }
LT_ELEMENT_BITS(WHERE_RUN)
#define WHERE_ENTRY(E, n, T, c, b, K) [LT_##E] = where_##b,
static const lt_kernel wheres[LT_NDTYPES] = {LT_DTYPES(WHERE_ENTRY)};

int lt_where(const lt_tensor *cond, const lt_operand *a, const lt_operand *b, lt_tensor **out,
             lt_error *err) {
  const lt_operand *ops[2] = {a, b};
  const lt_tensor *ins[3] = {cond, a->t, b->t};
  for (int i = 0; i < 3; i++) { /* an opaque operand has no dtype to promote (and convert) to */
    int rc = ins[i] ? lt_check_readable(ins[i], err) : LT_OK;
    if (rc) return rc;
  }
  lt_dtype rt = lt_result_type(2, ops);
  lt_operand oc = {cond, {LT_SK_INT, {0}, 0}, 0};
  const lt_tensor *tc, *ta, *tb;
  lt_tensor *c1 = NULL, *a1 = NULL, *b1 = NULL;
  int rc;
  if ((rc = lt_operand_as(&oc, LT_BOOL, &tc, &c1, err)) ||
      (rc = lt_operand_as(a, rt, &ta, &a1, err)) || (rc = lt_operand_as(b, rt, &tb, &b1, err))) {
    lt_tensor_free(c1);
    lt_tensor_free(a1);
    return rc;
  }
  const lt_tensor *in[3] = {tc, ta, tb};
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  rc = lt_broadcast_shape(3, in, &ndim, shape, err);
  if (rc == LT_OK)
    rc = lt_run_elementwise(wheres[rt], NULL, 3, in, ndim, shape, rt, rt, NULL, out, "failed", err);
  lt_tensor_free(c1);
  lt_tensor_free(a1);
  lt_tensor_free(b1);
  return rc;
}

/* }====== */

int lt_masked_fill(lt_tensor *t, const lt_tensor *mask, const lt_operand *value, int inplace,
                   lt_tensor **out, lt_error *err) {
  if (mask->dtype != LT_BOOL) return lt_fail(err, LT_EARG, "mask must be a bool tensor");
  if (value->t && value->t->ndim != 0)
    return lt_fail(err, LT_EARG, "value must be a number, boolean or 0-d tensor");
  lt_operand ot = {t, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *r;
  int rc = lt_where(mask, value, &ot, &r, err);
  if (rc) return rc;
  if (inplace) { /* the mask must not grow t's shape; the copy converts to t's dtype */
    if (r->ndim != t->ndim || memcmp(r->shape, t->shape, (size_t)t->ndim * sizeof(int64_t))) {
      char have[128], want[128];
      lt_shape_str(t->ndim, t->shape, have, sizeof have);
      lt_shape_str(r->ndim, r->shape, want, sizeof want);
      lt_tensor_free(r);
      return lt_fail(err, LT_EARG, "output with shape %s doesn't match the broadcast shape %s",
                     have, want);
    }
    rc = lt_copy(t, r, err);
    lt_tensor_free(r);
    if (rc == LT_OK) *out = t;
    return rc;
  }
  if (r->dtype == t->dtype) {
    *out = r;
    return LT_OK;
  }
  rc = lt_cast(r, t->dtype, out, err);
  lt_tensor_free(r);
  return rc;
}
