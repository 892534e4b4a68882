/*
 * lt_funcs.c -- the elementwise functions (see lt_funcs.h): the kernels and the rows lt_funcs[]
 * made from the table lt_funcs_table.h, the two calls that run a row (lt_unary, lt_binary), and
 * lerp, nan_to_num and polar.
 *
 * Every kernel of the table is generated here from its expression: one function per (function,
 * computation dtype), called once per inner run of lt_iter, with a contiguous path the compiler
 * vectorizes (blocks of LT_BLOCK elements, lt_iter.h) and, for a binary one, a path for a
 * broadcast second operand. A row's vectorized kernels (lt_vmath.h) take contiguous runs
 * straight and others through a buffer; its streaming twins (lt_stream.h) replace the float
 * kernels of operations larger than the cache (lt_stream_worth). Large operations run on the
 * pool's threads through lt_elementwise.c's driver (lt_elementwise.h): a kernel reads no state but
 * its operands.
 */
#include "lt_funcs.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_elementwise.h"
#include "lt_iter.h"
#include "lt_simd.h"
#include "lt_stream.h"
#include "lt_vmath.h"

/* {====== what the table's expressions use ====== */

/* libm's fn for the type of v (floorf for a float, floor for a double), called on v; LM2 with
   two arguments of one type. */
#define LM(fn, v) _Generic((v), float : fn##f, default : fn)(v)
#define LM2(fn, v, w) _Generic((v), float : fn##f, default : fn)(v, w)
/* The bits of the integer type T. */
#define LT_BITS(T) ((int)(8 * sizeof(T)))

/* Integer floor division and remainder with the sign of the divisor (Python's, torch's), in T
   (U: the unsigned type it wraps in); a zero divisor sets bad. x / -1 wraps (INT_MIN / -1). */
#define IDIV_S(x, y)             \
  ((y) == 0    ? (bad = 1, (T)0) \
   : (y) == -1 ? (T)(0 - (U)(x)) \
               : (T)((x) / (y) - (((x) % (y) != 0) && (((x) < 0) != ((y) < 0)))))
#define IREM_S(x, y)          \
  ((y) == 0 ? (bad = 1, (T)0) \
   : (y) == -1                \
       ? (T)0                 \
       : (T)((x) % (y) + ((((x) % (y)) != 0 && (((x) % (y) < 0) != ((y) < 0))) ? (y) : 0)))
#define IDIV_U(x, y) ((y) == 0 ? (bad = 1, (T)0) : (T)((x) / (y)))
#define IREM_U(x, y) ((y) == 0 ? (bad = 1, (T)0) : (T)((x) % (y)))

/* Complex division, in the part type R. */
#define CPX_DIV(x, y)                                                                  \
  ((T){(R)(((x).re * (y).re + (x).im * (y).im) / ((y).re * (y).re + (y).im * (y).im)), \
       (R)(((x).im * (y).re - (x).re * (y).im) / ((y).re * (y).re + (y).im * (y).im))})

static uint64_t ipow(uint64_t base, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

static double fl_floordiv(double a, double b) {
  if (b == 0) return a / b;
  double mod = fmod(a, b), div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return copysign(0.0, a / b);
  double f = floor(div);
  return div - f > 0.5 ? f + 1.0 : f;
}

static double fl_rem(double a, double b) {
  double r = fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

#define SQRT_2_OVER_PI 0x1.9884533d43651p-1
#define SQRT1_2 0x1.6a09e667f3bcdp-1
/* selu's scale and alpha (torch's, from the SELU paper) */
#define SELU_SCALE 1.0507009873554804934193349852946
#define SELU_ALPHA 1.6732632423543772848170429916717
#define LOG2_E 0x1.71547652b82fep+0 /* 1 / log(2) */

static double gelu_tanh_d(double x) {
  return 0.5 * x * (1.0 + tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)));
}

/* }====== */

/* {====== kernel generators ====== */

/* The dtypes of a kernel category: G(E, DT, T, U, R, expr) for each, T the C type it computes
   in, U the unsigned type its integers wrap in, R a complex's part type. */
#define CAT_F32(G, E, P) G(E, FLOAT32, float, float, float, P)
#define CAT_F64(G, E, P) G(E, FLOAT64, double, double, double, P)
#define CAT_FLT(G, E, P) CAT_F32(G, E, P) CAT_F64(G, E, P)
#define CAT_SINT(G, E, P)                    \
  G(E, INT8, int8_t, uint32_t, int8_t, P)    \
  G(E, INT16, int16_t, uint32_t, int16_t, P) \
  G(E, INT32, int32_t, uint32_t, int32_t, P) \
  G(E, INT64, int64_t, uint64_t, int64_t, P)
#define CAT_UINT(G, E, P)                       \
  G(E, UINT8, uint8_t, uint32_t, uint8_t, P)    \
  G(E, UINT16, uint16_t, uint32_t, uint16_t, P) \
  G(E, UINT32, uint32_t, uint32_t, uint32_t, P) \
  G(E, UINT64, uint64_t, uint64_t, uint64_t, P)
#define CAT_INT(G, E, P) CAT_SINT(G, E, P) CAT_UINT(G, E, P)
#define CAT_BOOL(G, E, P) G(E, BOOL, uint8_t, uint32_t, uint8_t, P)
#define CAT_REAL(G, E, P) CAT_BOOL(G, E, P) CAT_INT(G, E, P) CAT_FLT(G, E, P)
#define CAT_CPX(G, E, P)                      \
  G(E, COMPLEX64, lt_c64, uint32_t, float, P) \
  G(E, COMPLEX128, lt_c128, uint64_t, double, P)
/* The C type of a float dtype. */
#define CT_FLOAT32 float
#define CT_FLOAT64 double

/* The types an expression sees, declared in its kernel (each used, for -Wunused-local-typedefs). */
#define KERNEL_TYPES(CT, WT, PT) \
  typedef CT T;                  \
  typedef WT U;                  \
  typedef PT R;                  \
  (void)sizeof(U);               \
  (void)sizeof(R)

/* A unary kernel k_E_DT: o = expr(x), o of type OT (T, R or uint8_t); its body kb_E_DT compiled
   per vector path (lt_simd.h: floor, ceil, round, trunc, abs and the classifications vectorize
   only with AVX's rounding and compares), k_E_DT running the path of the level in use. */
#define GEN_UN(E, DT, CT, WT, PT, OT, expr)                                               \
  static LT_SIMD_INLINE int kb_##E##_##DT(void *ctx, char *const *p, const int64_t *st,   \
                                          int64_t n) {                                    \
    KERNEL_TYPES(CT, WT, PT);                                                             \
    int bad = 0;                                                                          \
    (void)ctx;                                                                            \
    LT_UNARY_LOOP(T, OT, expr);                                                           \
    return bad;                                                                           \
  }                                                                                       \
  LT_SIMD_CLONES_RET(int, kc_##E##_##DT, kb_##E##_##DT, LT_KERNEL_PARAMS, LT_KERNEL_ARGS) \
  static int k_##E##_##DT(void *ctx, char *const *p, const int64_t *st, int64_t n) {      \
    return LT_SIMD_PICK(kc_##E##_##DT)(ctx, p, st, n);                                    \
  }
#define GEN_K1(E, DT, CT, WT, PT, expr) GEN_UN(E, DT, CT, WT, PT, T, expr)
#define GEN_K1B(E, DT, CT, WT, PT, expr) GEN_UN(E, DT, CT, WT, PT, uint8_t, expr)
#define GEN_K1R(E, DT, CT, WT, PT, expr) GEN_UN(E, DT, CT, WT, PT, R, expr)

/* A binary kernel k_E_DT: o = expr(x, y), o of type OT (T or uint8_t). */
#define GEN_BIN(E, DT, CT, WT, PT, OT, expr)                                                \
  static int k_##E##_##DT(void *ctx, char *const *p, const int64_t *st, int64_t n) {        \
    KERNEL_TYPES(CT, WT, PT);                                                               \
    int bad = 0;                                                                            \
    (void)ctx;                                                                              \
    OT *oo = (OT *)(void *)p[0];                                                            \
    const T *aa = (const T *)(const void *)p[1], *bb = (const T *)(const void *)p[2];       \
    if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T) &&                      \
        st[2] == (int64_t)sizeof(T)) {                                                      \
      BLOCKED(n, T x = aa[k]; T y = bb[k]; oo[k] = (expr));                                 \
    } else if (st[0] == (int64_t)sizeof(OT) && st[1] == (int64_t)sizeof(T) && st[2] == 0) { \
      const T y = *bb;                                                                      \
      BLOCKED(n, T x = aa[k]; oo[k] = (expr));                                              \
    } else {                                                                                \
      for (int64_t i = 0; i < n; i++) {                                                     \
        T x = *(const T *)(const void *)(p[1] + i * st[1]);                                 \
        T y = *(const T *)(const void *)(p[2] + i * st[2]);                                 \
        *(OT *)(void *)(p[0] + i * st[0]) = (expr);                                         \
      }                                                                                     \
    }                                                                                       \
    return bad;                                                                             \
  }
#define GEN_K2(E, DT, CT, WT, PT, expr) GEN_BIN(E, DT, CT, WT, PT, T, expr)
#define GEN_K2B(E, DT, CT, WT, PT, expr) GEN_BIN(E, DT, CT, WT, PT, uint8_t, expr)

/* A kernel of lt_vmath.h as the kernel of E for a float dtype: contiguous runs straight, others
   through buffers of VBUF elements. */
#define VBUF 256
#define GEN_V1(E, DT, VFN) GEN_V1_(k_##E##_##DT, CT_##DT, VFN)
#define GEN_V1_(NAME, T, VFN)                                                             \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {              \
    (void)ctx;                                                                            \
    if (st[0] == (int64_t)sizeof(T) && st[1] == (int64_t)sizeof(T)) {                     \
      VFN((T *)(void *)p[0], (const T *)(const void *)p[1], n);                           \
      return 0;                                                                           \
    }                                                                                     \
    T buf[VBUF];                                                                          \
    for (int64_t i0 = 0; i0 < n; i0 += VBUF) {                                            \
      int64_t len = n - i0 < VBUF ? n - i0 : VBUF;                                        \
      for (int64_t j = 0; j < len; j++)                                                   \
        buf[j] = *(const T *)(const void *)(p[1] + (i0 + j) * st[1]);                     \
      VFN(buf, buf, len);                                                                 \
      for (int64_t j = 0; j < len; j++) *(T *)(void *)(p[0] + (i0 + j) * st[0]) = buf[j]; \
    }                                                                                     \
    return 0;                                                                             \
  }
#define GEN_V2(E, DT, VFN) GEN_V2_(k_##E##_##DT, CT_##DT, VFN)
#define GEN_V2_(NAME, T, VFN)                                                                  \
  static int NAME(void *ctx, char *const *p, const int64_t *st, int64_t n) {                   \
    (void)ctx;                                                                                 \
    if (st[0] == (int64_t)sizeof(T) && st[1] == (int64_t)sizeof(T) &&                          \
        st[2] == (int64_t)sizeof(T)) {                                                         \
      VFN((T *)(void *)p[0], (const T *)(const void *)p[1], (const T *)(const void *)p[2], n); \
      return 0;                                                                                \
    }                                                                                          \
    T ba[VBUF], bb[VBUF];                                                                      \
    for (int64_t i0 = 0; i0 < n; i0 += VBUF) {                                                 \
      int64_t len = n - i0 < VBUF ? n - i0 : VBUF;                                             \
      for (int64_t j = 0; j < len; j++) {                                                      \
        ba[j] = *(const T *)(const void *)(p[1] + (i0 + j) * st[1]);                           \
        bb[j] = *(const T *)(const void *)(p[2] + (i0 + j) * st[2]);                           \
      }                                                                                        \
      VFN(ba, ba, bb, len);                                                                    \
      for (int64_t j = 0; j < len; j++) *(T *)(void *)(p[0] + (i0 + j) * st[0]) = ba[j];       \
    }                                                                                          \
    return 0;                                                                                  \
  }

/* The streaming twins NAME_nt of the float32 and float64 kernels of E: contiguous runs (a
   binary one's inputs contiguous or broadcast) go to lt_stream.h's operation SOP, others to
   the kernel itself. */
#define GEN_S1(E, SOP) UN_NT(k_##E##_FLOAT32, float, SOP) UN_NT(k_##E##_FLOAT64, double, SOP)
#define UN_NT(NAME, T, SOP)                                                                     \
  static int NAME##_nt(void *ctx, char *const *p, const int64_t *st, int64_t n) {               \
    if (st[0] != (int64_t)sizeof(T) || st[1] != (int64_t)sizeof(T)) return NAME(ctx, p, st, n); \
    lt_stream_unary(SOP, sizeof(T) == 4 ? LT_FLOAT32 : LT_FLOAT64, p[0], p[1], n);              \
    return 0;                                                                                   \
  }
#define GEN_S2(E, SOP) BIN_NT(k_##E##_FLOAT32, float, SOP) BIN_NT(k_##E##_FLOAT64, double, SOP)
#define BIN_NT(NAME, T, SOP)                                                                      \
  static int NAME##_nt(void *ctx, char *const *p, const int64_t *st, int64_t n) {                 \
    const int64_t es = (int64_t)sizeof(T);                                                        \
    if (st[0] != es || (st[1] != 0 && st[1] != es) || (st[2] != 0 && st[2] != es))                \
      return NAME(ctx, p, st, n);                                                                 \
    lt_stream_binary(SOP, sizeof(T) == 4 ? LT_FLOAT32 : LT_FLOAT64, p[0], p[1], st[1] != 0, p[2], \
                     st[2] != 0, n);                                                              \
    return 0;                                                                                     \
  }

/* }====== */

/* {====== the kernels and the rows of the table ====== */

#define LT_K1(E, CAT, expr) CAT_##CAT(GEN_K1, E, expr)
#define LT_K1B(E, CAT, expr) CAT_##CAT(GEN_K1B, E, expr)
#define LT_K1R(E, CAT, expr) CAT_##CAT(GEN_K1R, E, expr)
#define LT_K2(E, CAT, expr) CAT_##CAT(GEN_K2, E, expr)
#define LT_K2B(E, CAT, expr) CAT_##CAT(GEN_K2B, E, expr)
#define LT_V1(E, DT, vfn) GEN_V1(E, DT, vfn)
#define LT_V2(E, DT, vfn) GEN_V2(E, DT, vfn)
#define LT_S1(E, sop) GEN_S1(E, sop)
#define LT_S2(E, sop) GEN_S2(E, sop)
#include "lt_funcs_table.h"

/* The forms of the table's form letters. */
#define FORMS_ 0
#define FORMS_M LT_FORM_METHOD
#define FORMS_MI (LT_FORM_METHOD | LT_FORM_INPLACE)
#define FORMS_ML (LT_FORM_METHOD | LT_FORM_MODULE)
#define FORMS_MIL (LT_FORM_METHOD | LT_FORM_INPLACE | LT_FORM_MODULE)
/* A row's kernel entry for one dtype of a category. */
#define ROW_K(E, DT, CT, WT, PT, expr) [LT_##E].k[LT_##DT] = k_##E##_##DT,

const lt_func_row lt_funcs[] = {
#define LT_FN(E, nm, nin_, rule_, forms_, opt_, hint_, fail_)                  \
  [LT_##E].name = #nm, [LT_##E].nin = nin_, [LT_##E].rule = LT_RULE_##rule_,   \
  [LT_##E].forms = FORMS_##forms_, [LT_##E].opt = opt_, [LT_##E].hint = hint_, \
  [LT_##E].fail = fail_,
#define LT_K1(E, CAT, expr) CAT_##CAT(ROW_K, E, ~)
#define LT_K1B(E, CAT, expr) CAT_##CAT(ROW_K, E, ~)
#define LT_K1R(E, CAT, expr) CAT_##CAT(ROW_K, E, ~)
#define LT_K2(E, CAT, expr) CAT_##CAT(ROW_K, E, ~)
#define LT_K2B(E, CAT, expr) CAT_##CAT(ROW_K, E, ~)
#define LT_V1(E, DT, vfn) [LT_##E].k[LT_##DT] = k_##E##_##DT,
#define LT_V2(E, DT, vfn) [LT_##E].k[LT_##DT] = k_##E##_##DT,
#define LT_S1(E, sop) \
  [LT_##E].nt[LT_FLOAT32] = k_##E##_FLOAT32_nt, [LT_##E].nt[LT_FLOAT64] = k_##E##_FLOAT64_nt,
#define LT_S2(E, sop) \
  [LT_##E].nt[LT_FLOAT32] = k_##E##_FLOAT32_nt, [LT_##E].nt[LT_FLOAT64] = k_##E##_FLOAT64_nt,
#include "lt_funcs_table.h"
};
_Static_assert(sizeof lt_funcs / sizeof lt_funcs[0] == LT_NFUNCS, "a row for every function");

/* }====== */

/* {====== running a row ====== */

/* The dtypes of row r over operands of promoted dtype p: the result's (*rt), the one the kernel
   computes in (*ct), and the one it writes (*oc, then cast to *rt). */
static void row_types(const lt_func_row *r, lt_dtype p, lt_dtype *rt, lt_dtype *ct, lt_dtype *oc) {
  lt_category cat = lt_category_of(p);
  lt_dtype real = p == LT_COMPLEX64 ? LT_FLOAT32 : LT_FLOAT64;
  *rt = p;
  *ct = lt_compute_type(p);
  *oc = *ct;
  switch (r->rule) {
    case LT_RULE_SAME: break;
    case LT_RULE_FLOAT:
      if (cat <= LT_CAT_INT) *rt = *ct = *oc = LT_FLOAT32;
      break;
    case LT_RULE_POW:
      if (cat == LT_CAT_BOOL) *rt = *ct = *oc = LT_INT64;
      break;
    case LT_RULE_REAL:
      if (cat == LT_CAT_COMPLEX) *rt = *oc = real;
      break;
    case LT_RULE_BOOL: *rt = *oc = LT_BOOL; break;
    case LT_RULE_LOGICAL: *rt = *ct = *oc = LT_BOOL; break;
  }
}

/* The operands ops[0..n) converted to ct (in[], owned[] to free) and their broadcast shape; frees
   what it made on failure. */
static int convert(int n, const lt_operand *const *ops, lt_dtype ct, const lt_tensor **in,
                   lt_tensor **owned, int *ndim, int64_t *shape, lt_error *err) {
  int rc = LT_OK;
  for (int i = 0; i < n; i++) owned[i] = NULL;
  for (int i = 0; i < n && rc == LT_OK; i++) rc = lt_operand_as(ops[i], ct, &in[i], &owned[i], err);
  if (rc == LT_OK) rc = lt_broadcast_shape(n, in, ndim, shape, err);
  if (rc)
    for (int i = 0; i < n; i++) lt_tensor_free(owned[i]);
  return rc;
}

static int check_cast(lt_dtype rt, const lt_tensor *inplace, lt_error *err) {
  if (inplace && !lt_can_cast(rt, inplace->dtype))
    return lt_fail(err, LT_EARG, "result type %s can't be cast to the tensor's dtype %s",
                   lt_dtype_name(rt), lt_dtype_name(inplace->dtype));
  return LT_OK;
}

/* Whether every tensor among the n operands may be read. */
static int check_readable(int n, const lt_operand *const *ops, lt_error *err) {
  for (int i = 0; i < n; i++) {
    int rc = ops[i]->t ? lt_check_readable(ops[i]->t, err) : LT_OK;
    if (rc) return rc;
  }
  return LT_OK;
}

/* Runs k (its streaming twin instead when it has one and the operation is large) given ctx
   over the n operands converted to ct, the result of dtype rt computed as oc. */
static int run_converted(lt_kernel k, lt_kernel twin, void *ctx, int n,
                         const lt_operand *const *ops, lt_dtype ct, lt_dtype oc, lt_dtype rt,
                         lt_tensor *inplace, lt_tensor **out, const char *fail, lt_error *err) {
  const lt_tensor *in[3];
  lt_tensor *owned[3];
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  int rc = convert(n, ops, ct, in, owned, &ndim, shape, err);
  if (rc) return rc;
  double numel = 1; /* in double: an expanded view's sizes may multiply past int64 */
  for (int d = 0; d < ndim; d++) numel *= (double)shape[d];
  if (twin && lt_stream_worth((double)(n + 1) * numel * (double)lt_dtypes[ct].size)) k = twin;
  rc = lt_run_elementwise(k, ctx, n, in, ndim, shape, oc, rt, inplace, out, fail, err);
  for (int i = 0; i < n; i++) lt_tensor_free(owned[i]);
  return rc;
}

/* Runs row f over its operands ops[0..n) (n = the row's nin), the result in *out or inplace. */
static int run_row(lt_func f, int n, const lt_operand *const *ops, lt_tensor *inplace,
                   lt_tensor **out, lt_error *err) {
  if ((unsigned)f >= (unsigned)LT_NFUNCS || lt_funcs[f].nin != n)
    return lt_fail(err, LT_EARG, "not a function of %d operand%s", n, n == 1 ? "" : "s");
  const lt_func_row *r = &lt_funcs[f];
  int rc = check_readable(n, ops, err);
  if (rc) return rc;
  lt_dtype p = lt_result_type(n, ops), rt, ct, oc;
  row_types(r, p, &rt, &ct, &oc);
  if (!r->k[ct])
    return lt_fail(err, LT_EARG, "not supported for %s%s%s%s", lt_dtypes[p].name,
                   r->hint ? " (" : "", r->hint ? r->hint : "", r->hint ? ")" : "");
  if ((rc = check_cast(rt, inplace, err))) return rc;
  return run_converted(r->k[ct], r->nt[ct], NULL, n, ops, ct, oc, rt, inplace, out,
                       r->fail ? r->fail : "failed", err);
}

int lt_unary(lt_func f, const lt_tensor *a, lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  const lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0}, *ops[1] = {&oa};
  return run_row(f, 1, ops, inplace, out, err);
}

int lt_binary(lt_func f, const lt_operand *a, const lt_operand *b, lt_tensor *inplace,
              lt_tensor **out, lt_error *err) {
  const lt_operand *ops[2] = {a, b};
  return run_row(f, 2, ops, inplace, out, err);
}

/* }====== */

/* {====== lerp and nan_to_num ====== */

/* lerp, torch's two-sided form (exact at weight 0 and 1); contiguous runs (the weight one value
   or contiguous too) in blocks the compiler vectorizes, with the same expression. */
#define LERP_OF(T, x, y, w) ((w < 0 ? -w : w) < (T)0.5 ? x + w * (y - x) : y - (y - x) * ((T)1 - w))
#define LERP(E, T)                                                                      \
  static int lerp_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) {        \
    (void)ctx;                                                                          \
    T *o = (T *)(void *)p[0];                                                           \
    const T *a = (const T *)(const void *)p[1], *b = (const T *)(const void *)p[2];     \
    const T *wp = (const T *)(const void *)p[3];                                        \
    int64_t sz = (int64_t)sizeof(T);                                                    \
    if (st[0] == sz && st[1] == sz && st[2] == sz && st[3] == 0) {                      \
      const T w = *wp, v = (T)1 - w; /* LERP_OF's side, taken once for every element */ \
      if ((w < 0 ? -w : w) < (T)0.5)                                                    \
        BLOCKED(n, T x = a[k]; T y = b[k]; o[k] = x + w * (y - x));                     \
      else                                                                              \
        BLOCKED(n, T x = a[k]; T y = b[k]; o[k] = y - (y - x) * v);                     \
      return 0;                                                                         \
    }                                                                                   \
    if (st[0] == sz && st[1] == sz && st[2] == sz && st[3] == sz) {                     \
      BLOCKED(n, T x = a[k]; T y = b[k]; T w = wp[k]; o[k] = LERP_OF(T, x, y, w));      \
      return 0;                                                                         \
    }                                                                                   \
    for (int64_t i = 0; i < n; i++) {                                                   \
      T x = *(const T *)(const void *)(p[1] + i * st[1]);                               \
      T y = *(const T *)(const void *)(p[2] + i * st[2]);                               \
      T w = *(const T *)(const void *)(p[3] + i * st[3]);                               \
      *(T *)(void *)(p[0] + i * st[0]) = LERP_OF(T, x, y, w);                           \
    }                                                                                   \
    return 0;                                                                           \
  }
LERP(FLOAT32, float)
LERP(FLOAT64, double)

int lt_lerp(const lt_operand *a, const lt_operand *end, const lt_operand *weight,
            lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  const lt_operand *ops[3] = {a, end, weight};
  int rc = check_readable(3, ops, err);
  if (rc) return rc;
  lt_dtype rt = lt_result_type(2, ops); /* a float weight does not make integers lerp */
  if (weight->t) rt = lt_promote(rt, weight->t->dtype);
  if (lt_category_of(rt) != LT_CAT_FLOAT)
    return lt_fail(err, LT_EARG, "not supported for %s", lt_dtype_name(rt));
  lt_dtype ct = lt_compute_type(rt);
  if ((rc = check_cast(rt, inplace, err))) return rc;
  return run_converted(ct == LT_FLOAT32 ? lerp_FLOAT32 : lerp_FLOAT64, NULL, NULL, 3, ops, ct, ct,
                       rt, inplace, out, "failed", err);
}

/* nan_to_num: the three replacements in the computation dtype. */
typedef struct {
  double nan, posinf, neginf;
} nan_repl;

static float to_f32(double v) { /* without the undefined conversion of a value beyond float */
  return v > FLT_MAX ? INFINITY : v < -FLT_MAX ? -INFINITY : (float)v;
}

#define NAN_TO_NUM(E, T, CONV)                                                         \
  static int nan_to_num_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    const nan_repl *c = ctx;                                                           \
    const T vn = CONV(c->nan), vp = CONV(c->posinf), vm = CONV(c->neginf);             \
    for (int64_t i = 0; i < n; i++) {                                                  \
      T x = *(const T *)(const void *)(p[1] + i * st[1]);                              \
      *(T *)(void *)(p[0] + i * st[0]) = x != x              ? vn                      \
                                         : x == (T)INFINITY  ? vp                      \
                                         : x == -(T)INFINITY ? vm                      \
                                                             : x;                      \
    }                                                                                  \
    return 0;                                                                          \
  }
#define SAME_DOUBLE(v) (v)
NAN_TO_NUM(FLOAT32, float, to_f32)
NAN_TO_NUM(FLOAT64, double, SAME_DOUBLE)

int lt_nan_to_num(const lt_tensor *a, const double *nan, const double *posinf, const double *neginf,
                  lt_tensor *inplace, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  lt_category cat = lt_category_of(a->dtype);
  if (cat == LT_CAT_COMPLEX)
    return lt_fail(err, LT_EARG, "not supported for %s", lt_dtype_name(a->dtype));
  if (cat <= LT_CAT_INT) { /* nothing to replace */
    if (inplace) {
      if ((rc = lt_prepare_write(inplace, err))) return rc;
      *out = inplace;
      return LT_OK;
    }
    return lt_clone(a, out, err);
  }
  double big = lt_float_max(a->dtype);
  nan_repl c = {nan ? *nan : 0.0, posinf ? *posinf : big, neginf ? *neginf : -big};
  lt_dtype ct = lt_compute_type(a->dtype);
  const lt_operand oa = {a, {LT_SK_INT, {0}, 0}, 0}, *ops[1] = {&oa};
  return run_converted(ct == LT_FLOAT32 ? nan_to_num_FLOAT32 : nan_to_num_FLOAT64, NULL, &c, 1, ops,
                       ct, ct, a->dtype, inplace, out, "failed", err);
}

/* }====== */

/* {====== polar ====== */

/* abs * (cos(angle) + i sin(angle)), of float32 (complex64) or float64 (complex128) operands. */
#define POLAR(E, T, C)                                                            \
  static int polar_##E(void *ctx, char *const *p, const int64_t *st, int64_t n) { \
    (void)ctx;                                                                    \
    for (int64_t i = 0; i < n; i++) {                                             \
      T r = *(const T *)(const void *)(p[1] + i * st[1]);                         \
      T a = *(const T *)(const void *)(p[2] + i * st[2]);                         \
      *(C *)(void *)(p[0] + i * st[0]) = (C){r * LM(cos, a), r * LM(sin, a)};     \
    }                                                                             \
    return 0;                                                                     \
  }
POLAR(FLOAT32, float, lt_c64)
POLAR(FLOAT64, double, lt_c128)

int lt_polar(const lt_tensor *abs, const lt_tensor *angle, lt_tensor **out, lt_error *err) {
  lt_dtype dt = abs->dtype;
  if ((dt != LT_FLOAT32 && dt != LT_FLOAT64) || angle->dtype != dt)
    return lt_fail(err, LT_EARG,
                   "expected abs and angle both float32 or both float64, got %s and %s",
                   lt_dtype_name(dt), lt_dtype_name(angle->dtype));
  const lt_operand oa = {abs, {LT_SK_INT, {0}, 0}, 0}, ob = {angle, {LT_SK_INT, {0}, 0}, 0};
  const lt_operand *ops[2] = {&oa, &ob};
  int rc = check_readable(2, ops, err);
  if (rc) return rc;
  lt_dtype ct = dt == LT_FLOAT32 ? LT_COMPLEX64 : LT_COMPLEX128;
  return run_converted(dt == LT_FLOAT32 ? polar_FLOAT32 : polar_FLOAT64, NULL, NULL, 2, ops, dt, ct,
                       ct, NULL, out, "failed", err);
}

/* }====== */
