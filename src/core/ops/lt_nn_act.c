/*
 * lt_nn_act.c -- torch.nn.functional's activations with parameters, softmin and glu (see
 * lt_nn_act.h). Each activation is one expression of x and its parameters a and b (read from
 * the kernel's context, stored there in the computation dtype), made into a kernel per dtype
 * below; lt_elementwise.c's driver runs it over the input (the pool's threads for large
 * tensors, float16 and bfloat16 through float32, in place or not).
 */
#include "lt_nn_act.h"

#include <math.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_elementwise.h"
#include "lt_funcs.h"
#include "lt_softmax.h"

/* libm's fn for the type of v (expm1f for a float, expm1 for a double). */
#define LM(fn, v) _Generic((v), float : fn##f, default : fn)(v)

/* The parameters of a call, each stored as one element of the computation dtype. */
typedef struct {
  _Alignas(16) unsigned char p0[16];
  _Alignas(16) unsigned char p1[16];
} act_ctx;

/* A kernel NAME for the C type T: o = expr of x, a and b. */
#define ACT_KERNEL(NAME, T, expr)                                            \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    const act_ctx *c = ctx;                                                  \
    T a, b;                                                                  \
    memcpy(&a, c->p0, sizeof a);                                             \
    memcpy(&b, c->p1, sizeof b);                                             \
    (void)a;                                                                 \
    (void)b;                                                                 \
    LT_UNARY_LOOP(T, T, expr);                                               \
    return 0;                                                                \
  }
/* The float32 and float64 kernels of E. */
#define ACT_FLT(E, expr) ACT_KERNEL(k_##E##_f32, float, expr) ACT_KERNEL(k_##E##_f64, double, expr)
/* The integer kernels of E. */
#define ACT_INT(E, expr)                  \
  ACT_KERNEL(k_##E##_i8, int8_t, expr)    \
  ACT_KERNEL(k_##E##_i16, int16_t, expr)  \
  ACT_KERNEL(k_##E##_i32, int32_t, expr)  \
  ACT_KERNEL(k_##E##_i64, int64_t, expr)  \
  ACT_KERNEL(k_##E##_u8, uint8_t, expr)   \
  ACT_KERNEL(k_##E##_u16, uint16_t, expr) \
  ACT_KERNEL(k_##E##_u32, uint32_t, expr) \
  ACT_KERNEL(k_##E##_u64, uint64_t, expr)

/* min(max(x, a), b), NaN kept: with a > b every x gives b, as torch's */
#define HARDTANH(x) ((x) < a ? (a > b ? b : a) : (x) > b ? b : (x))

ACT_FLT(LEAKY_RELU, x > 0 ? x : x * a)
ACT_FLT(ELU, x > 0 ? x : a * LM(expm1, x))
ACT_FLT(CELU, x > 0 ? x : a * LM(expm1, x / a))
ACT_FLT(SOFTPLUS, x *a > b ? x : LM(log1p, LM(exp, x *a)) / a)
ACT_FLT(HARDTANH, HARDTANH(x))
ACT_INT(HARDTANH, HARDTANH(x))
ACT_FLT(THRESHOLD, x <= a ? b : x)
ACT_INT(THRESHOLD, x <= a ? b : x)

#define ROW_FLT(E) [LT_FLOAT32] = k_##E##_f32, [LT_FLOAT64] = k_##E##_f64
#define ROW_INT(E)                                                              \
  [LT_INT8] = k_##E##_i8, [LT_INT16] = k_##E##_i16, [LT_INT32] = k_##E##_i32,   \
  [LT_INT64] = k_##E##_i64, [LT_UINT8] = k_##E##_u8, [LT_UINT16] = k_##E##_u16, \
  [LT_UINT32] = k_##E##_u32, [LT_UINT64] = k_##E##_u64

/* The kernels by activation and computation dtype; NULL: refused. */
static const lt_kernel act_kernels[LT_NACTS][LT_NDTYPES] = {
    [LT_ACT_LEAKY_RELU] = {ROW_FLT(LEAKY_RELU)},
    [LT_ACT_ELU] = {ROW_FLT(ELU)},
    [LT_ACT_CELU] = {ROW_FLT(CELU)},
    [LT_ACT_SOFTPLUS] = {ROW_FLT(SOFTPLUS)},
    [LT_ACT_HARDTANH] = {ROW_FLT(HARDTANH), ROW_INT(HARDTANH)},
    [LT_ACT_THRESHOLD] = {ROW_FLT(THRESHOLD), ROW_INT(THRESHOLD)},
};

/* Stores the parameter v as an element of dtype ct at p: an integer dtype takes trunc(v) and
   refuses a value out of its range; a float one rounds (beyond its range: an infinity). */
static int store_param(lt_dtype ct, double v, unsigned char *p, lt_error *err) {
  lt_scalar s = {LT_SK_FLOAT, {.f = v}, 0};
  if (lt_dtypes[ct].is_float) return lt_store_wrap(ct, p, &s) ? LT_EARG : LT_OK;
  if (lt_store(ct, p, &s) == LT_STORE_OK) return LT_OK;
  return lt_fail(err, LT_ERANGE, "value %.17g cannot be converted to %s without overflow", v,
                 lt_dtype_name(ct));
}

int lt_nn_act(lt_act act, const lt_tensor *a, double p0, double p1, lt_tensor *inplace,
              lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  if ((unsigned)act >= (unsigned)LT_NACTS) return lt_fail(err, LT_EARG, "not an activation");
  lt_dtype ct = a->dtype == LT_OPAQUE ? LT_OPAQUE : lt_compute_type(a->dtype);
  lt_kernel k = ct == LT_OPAQUE ? NULL : act_kernels[act][ct];
  if (!k) return lt_fail(err, LT_EARG, "not supported for %s", lt_dtype_name(a->dtype));
  if (act == LT_ACT_CELU && p0 == 0) return lt_fail(err, LT_EARG, "alpha cannot be 0");
  act_ctx c;
  memset(&c, 0, sizeof c);
  if ((rc = store_param(ct, p0, c.p0, err)) || (rc = store_param(ct, p1, c.p1, err))) return rc;
  const lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0};
  const lt_tensor *in;
  lt_tensor *owned;
  if ((rc = lt_operand_as(&oa, ct, &in, &owned, err))) return rc;
  rc = lt_run_elementwise(k, &c, 1, &in, a->ndim, a->shape, ct, a->dtype, inplace, out, "failed",
                          err);
  lt_tensor_free(owned);
  return rc;
}

int lt_nn_softmin(const lt_tensor *a, int dim, lt_dtype dtype, lt_tensor **out, lt_error *err) {
  lt_tensor *neg = NULL;
  int rc = lt_unary(LT_NEG, a, NULL, &neg, err);
  if (rc == LT_OK) rc = lt_softmax(LT_SOFTMAX, neg, dim, dtype, out, err);
  lt_tensor_free(neg);
  return rc;
}

int lt_nn_glu(const lt_tensor *a, int dim, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  if (a->dtype == LT_OPAQUE || !lt_dtypes[a->dtype].is_float)
    return lt_fail(err, LT_EARG, "not supported for %s", lt_dtype_name(a->dtype));
  if (a->ndim == 0)
    return lt_fail(err, LT_EARG, "a 0-d input has no dimension to halve (glu needs an even size)");
  if ((rc = lt_check_dim(a, dim, err))) return rc;
  int64_t n = a->shape[dim];
  if (n % 2)
    return lt_fail(err, LT_EARG, "halving dimension must be even, but dim %d is size %lld", dim + 1,
                   (long long)n);
  lt_tensor *first = NULL, *second = NULL, *gate = NULL;
  rc = lt_narrow(a, dim, 0, n / 2, &first, err);
  if (rc == LT_OK) rc = lt_narrow(a, dim, n / 2, n / 2, &second, err);
  if (rc == LT_OK) rc = lt_unary(LT_SIGMOID, second, NULL, &gate, err);
  if (rc == LT_OK) {
    const lt_operand x = {first, {LT_SK_INT, {0}, 0}, 0}, y = {gate, {LT_SK_INT, {0}, 0}, 0};
    rc = lt_binary(LT_MUL, &x, &y, NULL, out, err);
  }
  lt_tensor_free(first);
  lt_tensor_free(second);
  lt_tensor_free(gate);
  return rc;
}
