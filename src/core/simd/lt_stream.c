/*
 * lt_stream.c -- the streaming-store kernels (see lt_stream.h) and the threshold that decides
 * on them.
 *
 * The one file of the core written with intrinsics: C has no spelling for a non-temporal store
 * that GCC would vectorize (clang's __builtin_nontemporal_store has no GCC twin), so each loop
 * is written for AVX (_mm256_stream_ps/_pd), compiled for that target alone and called only
 * where the processor has it (__builtin_cpu_supports, asked once). Each loop runs plain scalar
 * stores until the output is 32-byte aligned, then streams whole vectors, then finishes the
 * tail with scalar stores, and fences. The scalar expressions are the reference: the same ones
 * lt_math.c and lt_funcs.c compute, and the portable loop where AVX is missing (which
 * lt_stream_worth never picks, but which keeps the functions defined everywhere).
 */
#include "lt_stream.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "lt_os.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define LT_STREAM_AVX 1
#include <immintrin.h>
#define LT_AVX __attribute__((target("avx")))
#endif

/* {====== the threshold ====== */

#define LT_STREAM_DEFAULT_LLC (32.0 * 1024 * 1024)

/* The bytes from which an operation streams; -1: never. Computed on first use (every thread
   computes the same value, so a race only repeats the work). */
static _Atomic(double) stream_min = 0;
static atomic_int stream_ready = 0;

static double stream_threshold(void) {
  if (atomic_load_explicit(&stream_ready, memory_order_acquire))
    return atomic_load_explicit(&stream_min, memory_order_relaxed);
  double min = -1;
#ifdef LT_STREAM_AVX
  if (__builtin_cpu_supports("avx")) {
    double llc = (double)lt_os_cache_bytes();
    min = (llc > 0 ? llc : LT_STREAM_DEFAULT_LLC) * 0.75;
  }
#endif
  const char *env = getenv("LTENSOR_STREAM_BYTES");
  if (env && *env) {
    char *end;
    double v = strtod(env, &end);
    if (*end == '\0' && v == v) min = min < 0 ? -1 : v < 0 ? -1 : v;
  }
  atomic_store_explicit(&stream_min, min, memory_order_relaxed);
  atomic_store_explicit(&stream_ready, 1, memory_order_release);
  return min;
}

int lt_stream_worth(double bytes) {
  double min = stream_threshold();
  return min >= 0 && bytes >= min;
}

/* }====== */

/* {====== the kernels ====== */

/* The scalar expressions, of v (unary) or x and w (binary), for a float type T with libm
   suffix F. */
#define S_ABS(F, v) fabs##F(v)
#define S_NEG(F, v) (-(v))
#define S_FLOOR(F, v) floor##F(v)
#define S_CEIL(F, v) ceil##F(v)
#define S_ROUND(F, v) nearbyint##F(v)
#define S_TRUNC(F, v) trunc##F(v)
#define S_FRAC(F, v) ((v)-trunc##F(v))
#define S_RELU(F, v) ((v) > 0 || (v) != (v) ? (v) : 0)
#define S_ADD(x, w) ((x) + (w))
#define S_SUB(x, w) ((x) - (w))
#define S_MUL(x, w) ((x) * (w))
#define S_DIV(x, w) ((x) / (w))
#define S_MAX(x, w) (((x) != (x) || (x) > (w)) ? (x) : (w))
#define S_MIN(x, w) (((x) != (x) || (x) < (w)) ? (x) : (w))

/* The operations, each with its scalar expression S_<op> above. */
#define STREAM_UNOPS(X, T, F) \
  X(ABS, T, F)                \
  X(NEG, T, F)                \
  X(FLOOR, T, F)              \
  X(CEIL, T, F)               \
  X(ROUND, T, F)              \
  X(TRUNC, T, F)              \
  X(FRAC, T, F)               \
  X(RELU, T, F)
#define STREAM_BINOPS(X, T) \
  X(ADD, T)                 \
  X(SUB, T)                 \
  X(MUL, T)                 \
  X(DIV, T)                 \
  X(MAX, T)                 \
  X(MIN, T)

/* The portable loops (also the heads and tails of the vector ones). */
#define UN_CASE(OP, T, F)             \
  case LT_SU_##OP:                    \
    for (int64_t i = 0; i < n; i++) { \
      T v = x[i];                     \
      y[i] = (T)(S_##OP(F, v));       \
    }                                 \
    break;
#define UN_SCALAR(T, F)                                                       \
  static void un_scalar_##T(lt_stream_unop op, T *y, const T *x, int64_t n) { \
    switch (op) {                                                             \
      STREAM_UNOPS(UN_CASE, T, F)                                             \
      case LT_SU_COUNT: break;                                                \
    }                                                                         \
  }
#define BIN_CASE(OP, T)               \
  case LT_SB_##OP:                    \
    for (int64_t i = 0; i < n; i++) { \
      T x = a[i * sa], w = b[i * sb]; \
      y[i] = S_##OP(x, w);            \
    }                                 \
    break;
#define BIN_SCALAR(T)                                                                          \
  static void bin_scalar_##T(lt_stream_binop op, T *y, const T *a, int sa, const T *b, int sb, \
                             int64_t n) {                                                      \
    switch (op) {                                                                              \
      STREAM_BINOPS(BIN_CASE, T)                                                               \
      case LT_SB_COUNT: break;                                                                 \
    }                                                                                          \
  }
UN_SCALAR(float, f)
UN_SCALAR(double, )
BIN_SCALAR(float)
BIN_SCALAR(double)

#ifdef LT_STREAM_AVX

/* Elements before y + head is 32-byte aligned (all n when y is not aligned to its element). */
static int64_t aligned_head(const void *y, int64_t esize, int64_t n) {
  uintptr_t mis = (uintptr_t)y & 31;
  if (mis % (uintptr_t)esize) return n;
  int64_t head = mis ? (int64_t)(32 - mis) / esize : 0;
  return head < n ? head : n;
}

/* One streaming loop: V the vector type, W lanes, LOAD/STREAM its intrinsics, VEXPR of v. */
#define UN_AVX(NAME, T, V, W, LOAD, STREAM, VEXPR, OP)               \
  LT_AVX static void NAME(T *y, const T *x, int64_t n) {             \
    int64_t head = aligned_head(y, (int64_t)sizeof(T), n), i = head; \
    un_scalar_##T(OP, y, x, head);                                   \
    for (; i + 2 * W <= n; i += 2 * W) {                             \
      V v = LOAD(x + i);                                             \
      STREAM(y + i, VEXPR);                                          \
      v = LOAD(x + i + W);                                           \
      STREAM(y + i + W, VEXPR);                                      \
    }                                                                \
    un_scalar_##T(OP, y + i, x + i, n - i);                          \
    _mm_sfence();                                                    \
  }
#define BIN_AVX(NAME, T, V, W, LOAD, SET1, STREAM, VEXPR, OP)                        \
  LT_AVX static void NAME(T *y, const T *a, int sa, const T *b, int sb, int64_t n) { \
    int64_t head = aligned_head(y, (int64_t)sizeof(T), n), i = head;                 \
    bin_scalar_##T(OP, y, a, sa, b, sb, head);                                       \
    V a1 = SET1(a[0]), b1 = SET1(b[0]);                                              \
    for (; i + W <= n; i += W) {                                                     \
      V x = sa ? LOAD(a + i) : a1, w = sb ? LOAD(b + i) : b1;                        \
      STREAM(y + i, VEXPR);                                                          \
    }                                                                                \
    bin_scalar_##T(OP, y + i, a + i * sa, sa, b + i * sb, sb, n - i);                \
    _mm_sfence();                                                                    \
  }

#define RND(M) (M | _MM_FROUND_NO_EXC)
#define UN_AVX_ALL(S, T, V, W, L, ST, P)                                                          \
  UN_AVX(abs_##S, T, V, W, L, ST, _mm256_andnot_##P(_mm256_set1_##P(-0.0), v), LT_SU_ABS)         \
  UN_AVX(neg_##S, T, V, W, L, ST, _mm256_xor_##P(_mm256_set1_##P(-0.0), v), LT_SU_NEG)            \
  UN_AVX(floor_##S, T, V, W, L, ST, _mm256_round_##P(v, RND(_MM_FROUND_TO_NEG_INF)), LT_SU_FLOOR) \
  UN_AVX(ceil_##S, T, V, W, L, ST, _mm256_round_##P(v, RND(_MM_FROUND_TO_POS_INF)), LT_SU_CEIL)   \
  UN_AVX(round_##S, T, V, W, L, ST, _mm256_round_##P(v, RND(_MM_FROUND_CUR_DIRECTION)),           \
         LT_SU_ROUND)                                                                             \
  UN_AVX(trunc_##S, T, V, W, L, ST, _mm256_round_##P(v, RND(_MM_FROUND_TO_ZERO)), LT_SU_TRUNC)    \
  UN_AVX(frac_##S, T, V, W, L, ST,                                                                \
         _mm256_sub_##P(v, _mm256_round_##P(v, RND(_MM_FROUND_TO_ZERO))), LT_SU_FRAC)             \
  UN_AVX(relu_##S, T, V, W, L, ST,                                                                \
         _mm256_and_##P(v, _mm256_cmp_##P(v, _mm256_setzero_##P(), _CMP_NLE_UQ)), LT_SU_RELU)
/* maximum and minimum: the instruction gives w unless x > w (x < w); a NaN x is kept. */
#define PICK_NAN(P, r, x) _mm256_blendv_##P(r, x, _mm256_cmp_##P(x, x, _CMP_UNORD_Q))
#define BIN_AVX_ALL(S, T, V, W, L, SET1, ST, P)                                           \
  BIN_AVX(add_##S, T, V, W, L, SET1, ST, _mm256_add_##P(x, w), LT_SB_ADD)                 \
  BIN_AVX(sub_##S, T, V, W, L, SET1, ST, _mm256_sub_##P(x, w), LT_SB_SUB)                 \
  BIN_AVX(mul_##S, T, V, W, L, SET1, ST, _mm256_mul_##P(x, w), LT_SB_MUL)                 \
  BIN_AVX(div_##S, T, V, W, L, SET1, ST, _mm256_div_##P(x, w), LT_SB_DIV)                 \
  BIN_AVX(max_##S, T, V, W, L, SET1, ST, PICK_NAN(P, _mm256_max_##P(x, w), x), LT_SB_MAX) \
  BIN_AVX(min_##S, T, V, W, L, SET1, ST, PICK_NAN(P, _mm256_min_##P(x, w), x), LT_SB_MIN)
UN_AVX_ALL(f32, float, __m256, 8, _mm256_loadu_ps, _mm256_stream_ps, ps)
UN_AVX_ALL(f64, double, __m256d, 4, _mm256_loadu_pd, _mm256_stream_pd, pd)
BIN_AVX_ALL(f32, float, __m256, 8, _mm256_loadu_ps, _mm256_set1_ps, _mm256_stream_ps, ps)
BIN_AVX_ALL(f64, double, __m256d, 4, _mm256_loadu_pd, _mm256_set1_pd, _mm256_stream_pd, pd)

typedef void (*un_fn_f32)(float *, const float *, int64_t);
typedef void (*un_fn_f64)(double *, const double *, int64_t);
typedef void (*bin_fn_f32)(float *, const float *, int, const float *, int, int64_t);
typedef void (*bin_fn_f64)(double *, const double *, int, const double *, int, int64_t);
#define UN_TABLE(S)                                                                \
  {                                                                                \
    [LT_SU_ABS] = abs_##S, [LT_SU_NEG] = neg_##S, [LT_SU_FLOOR] = floor_##S,       \
    [LT_SU_CEIL] = ceil_##S, [LT_SU_ROUND] = round_##S, [LT_SU_TRUNC] = trunc_##S, \
    [LT_SU_FRAC] = frac_##S, [LT_SU_RELU] = relu_##S                               \
  }
#define BIN_TABLE(S)                                                                            \
  {                                                                                             \
    [LT_SB_ADD] = add_##S, [LT_SB_SUB] = sub_##S, [LT_SB_MUL] = mul_##S, [LT_SB_DIV] = div_##S, \
    [LT_SB_MAX] = max_##S, [LT_SB_MIN] = min_##S                                                \
  }
static const un_fn_f32 un_f32[LT_SU_COUNT] = UN_TABLE(f32);
static const un_fn_f64 un_f64[LT_SU_COUNT] = UN_TABLE(f64);
static const bin_fn_f32 bin_f32[LT_SB_COUNT] = BIN_TABLE(f32);
static const bin_fn_f64 bin_f64[LT_SB_COUNT] = BIN_TABLE(f64);

static int has_avx(void) { return __builtin_cpu_supports("avx"); }

#endif

/* }====== */

void lt_stream_unary(lt_stream_unop op, lt_dtype dt, void *y, const void *x, int64_t n) {
  if ((unsigned)op >= LT_SU_COUNT || n <= 0) return;
#ifdef LT_STREAM_AVX
  if (has_avx()) {
    if (dt == LT_FLOAT32)
      un_f32[op](y, x, n);
    else
      un_f64[op](y, x, n);
    return;
  }
#endif
  if (dt == LT_FLOAT32)
    un_scalar_float(op, y, x, n);
  else
    un_scalar_double(op, y, x, n);
}

void lt_stream_binary(lt_stream_binop op, lt_dtype dt, void *y, const void *a, int sa,
                      const void *b, int sb, int64_t n) {
  if ((unsigned)op >= LT_SB_COUNT || n <= 0) return;
  sa = sa != 0;
  sb = sb != 0;
#ifdef LT_STREAM_AVX
  if (has_avx()) {
    if (dt == LT_FLOAT32)
      bin_f32[op](y, a, sa, b, sb, n);
    else
      bin_f64[op](y, a, sa, b, sb, n);
    return;
  }
#endif
  if (dt == LT_FLOAT32)
    bin_scalar_float(op, y, a, sa, b, sb, n);
  else
    bin_scalar_double(op, y, a, sa, b, sb, n);
}
