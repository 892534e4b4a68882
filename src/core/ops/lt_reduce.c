/*
 * lt_reduce.c -- reductions: sum, prod, mean, min, max, argmin, argmax, all, any, var, std,
 * nansum, nanmean (a sum that skips NaN and counts what it kept), over every element or over one
 * dim (see lt_reduce.h).
 *
 * A reduction folds runs of elements into a state (red_state): one fold function per (fold
 * kind, input dtype), generated from one macro per kind, called once per strided run, never per
 * element. Over one dim, lt_iter walks the output positions (the input viewed without the dim)
 * and each position folds the reduced dim in one call; over every element, lt_iter walks the
 * input itself in its memory order and every run folds into one state. Sums over a dim whose
 * neighbouring outputs lie closer in memory than the reduced elements (column sums) add a block
 * of outputs side by side instead (red_cols), so the inner loop still walks memory in order.
 * Integers sum and multiply in uint64 (wrap-around, no undefined behaviour), floating dtypes in
 * double, complex in double pairs; var and std take two passes (the mean, then squared
 * deviations). Large reductions run on the pool's threads (lt_pool.h): over a dim, by pieces
 * of the outputs (each output is folded by one thread, as on one); over every element, by
 * pieces of the input whose partial states combine in piece order (fold_all), pieces that
 * depend on the size alone: a result never depends on the thread count.
 */
#include "lt_reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_pool.h"
#include "lt_simd.h"

/* {====== fold functions ====== */

typedef struct {
  uint64_t u;    /* integer sum or product */
  double re, im; /* floating or complex sum or product */
  double mean;   /* var: the mean the deviations are taken from */
  double sq;     /* var: sum of squared deviations */
  union {
    int64_t i;
    uint64_t u;
    double f;
  } best;       /* min/max: the value so far */
  int64_t at;   /* min/max: its position */
  int64_t pos;  /* elements folded so far (positions of later runs start there) */
  int64_t kept; /* nansum: elements that were not NaN */
  int have;     /* min/max: best is set */
  int flag;     /* all/any */
} red_state;

/* Folds n elements, the first at p, step bytes apart (step may be negative or zero). */
typedef void (*fold_fn)(red_state *s, const char *p, int64_t step, int64_t n);

/* Element values: the comparison value (CV) and the accumulated value (AV). */
#define CV_SAME(x) (x)
#define CV_BOOL(x) ((int64_t)((x) != 0))
#define CV_F16(x) ((double)lt_f16_to_f32(x))
#define CV_BF16(x) ((double)lt_bf16_to_f32(x))
#define CV_FLT(x) ((double)(x))
#define AV_BOOL(x) ((uint64_t)((x) != 0))
#define AV_INT(x) ((uint64_t)(x)) /* modulo 2^64: sign-extends negative values */

#define ELEM(T, p, i, step) (*(const T *)(const void *)((p) + (i) * (step)))

/*
 * The real dtypes, from LT_DTYPES by category: X(E, T, CT, CV, BF, ACC, AV, AF): storage type T;
 * comparison type CT, value CV(x) and best-field BF for min/max; sum type ACC, value AV(x) and
 * state field AF. RED_REALS covers bool, the integers and the floating dtypes, RED_FLOATS the
 * floating ones; complex has folds of its own below.
 */
#define RED_BOOL(X, E, T) X(E, T, int64_t, CV_BOOL, i, uint64_t, AV_BOOL, u)
#define RED_SINT(X, E, T) X(E, T, int64_t, CV_SAME, i, uint64_t, AV_INT, u)
#define RED_UINT(X, E, T) X(E, T, uint64_t, CV_SAME, u, uint64_t, AV_INT, u)
#define RED_FLT(X, E, T) X(E, T, double, CV_FLT, f, double, CV_FLT, re)
#define RED_F16(X, E, T) X(E, T, double, CV_F16, f, double, CV_F16, re)
#define RED_BF16(X, E, T) X(E, T, double, CV_BF16, f, double, CV_BF16, re)
#define RED_CPX(X, E, T)
#define RED_REAL_ROW(X, E, n, T, c, b, K) RED_##K(X, E, T)
#define RED_REALS(X) LT_DTYPES_EACH(RED_REAL_ROW, X)
#define RED_FLOAT_ROW(X, E, n, T, c, b, K) RED_FLOAT_##K(X, E, T)
#define RED_FLOAT_BOOL(X, E, T)
#define RED_FLOAT_SINT(X, E, T)
#define RED_FLOAT_UINT(X, E, T)
#define RED_FLOAT_FLT RED_FLT
#define RED_FLOAT_F16 RED_F16
#define RED_FLOAT_BF16 RED_BF16
#define RED_FLOAT_CPX(X, E, T)
#define RED_FLOATS(X) LT_DTYPES_EACH(RED_FLOAT_ROW, X)

/* Sums: blocks of SUM_BLOCK elements add up in partial sums that are then added together
   (the error grows with the block length and the number of blocks, not with n); within a
   contiguous block, eight independent accumulators: no dependency chain through one register,
   and the float32 and float64 loops vectorize. The conversions and additions, not memory, bound
   the float sums: each fold is compiled per vector path (lt_simd.h) and runs the one of the level
   in use -- the same operations in the same order on every path, so the same result, bit for
   bit. */
#define FOLD_PARAMS (red_state * s, const char *p, int64_t step, int64_t n)
#define FOLD_ARGS (s, p, step, n)
#define SUM_BLOCK 4096 /* a multiple of 8 */
#define SUM_FOLD(E, T, CT, CV, BF, ACC, AV, AF)                                               \
  static LT_SIMD_INLINE void sumb_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    ACC total = 0;                                                                            \
    for (int64_t i = 0; i < n;) {                                                             \
      int64_t end = n - i > SUM_BLOCK ? i + SUM_BLOCK : n;                                    \
      ACC a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;                     \
      if (step == (int64_t)sizeof(T)) {                                                       \
        const T *q = (const T *)(const void *)p;                                              \
        for (; i + 8 <= end; i += 8) {                                                        \
          a0 += AV(q[i]);                                                                     \
          a1 += AV(q[i + 1]);                                                                 \
          a2 += AV(q[i + 2]);                                                                 \
          a3 += AV(q[i + 3]);                                                                 \
          a4 += AV(q[i + 4]);                                                                 \
          a5 += AV(q[i + 5]);                                                                 \
          a6 += AV(q[i + 6]);                                                                 \
          a7 += AV(q[i + 7]);                                                                 \
        }                                                                                     \
        for (; i < end; i++) a0 += AV(q[i]);                                                  \
      } else {                                                                                \
        for (; i < end; i++) a0 += AV(ELEM(T, p, i, step));                                   \
      }                                                                                       \
      total += ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));                             \
    }                                                                                         \
    s->AF += total;                                                                           \
    s->pos += n;                                                                              \
  }                                                                                           \
  LT_SIMD_CLONES_VOID(sumc_##E, sumb_##E, FOLD_PARAMS, FOLD_ARGS)                             \
  static void sum_##E(red_state *s, const char *p, int64_t step, int64_t n) {                 \
    LT_SIMD_PICK(sumc_##E)(s, p, step, n);                                                    \
  }

#define PROD_FOLD(E, T, CT, CV, BF, ACC, AV, AF)                               \
  static void prod_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    ACC a = 1;                                                                 \
    for (int64_t i = 0; i < n; i++) a *= AV(ELEM(T, p, i, step));              \
    s->AF *= a;                                                                \
    s->pos += n;                                                               \
  }

/* min/max: the first extreme value wins; a NaN wins over everything and stops the fold. */
#define EXTREME_FOLD(NAME, CMP, E, T, CT, CV, BF)                                \
  static void NAME##_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    int64_t pos = s->pos;                                                        \
    s->pos += n;                                                                 \
    if (n == 0) return;                                                          \
    if (!s->have) {                                                              \
      s->best.BF = CV(ELEM(T, p, 0, step));                                      \
      s->at = pos;                                                               \
      s->have = 1;                                                               \
    }                                                                            \
    CT best = s->best.BF;                                                        \
    int64_t at = s->at;                                                          \
    if (best != best) return;                                                    \
    for (int64_t i = 0; i < n; i++) {                                            \
      CT x = CV(ELEM(T, p, i, step));                                            \
      if (x CMP best || x != x) {                                                \
        best = x;                                                                \
        at = pos + i;                                                            \
        if (x != x) break;                                                       \
      }                                                                          \
    }                                                                            \
    s->best.BF = best;                                                           \
    s->at = at;                                                                  \
  }
#define MIN_FOLD(E, T, CT, CV, BF, ACC, AV, AF) EXTREME_FOLD(min, <, E, T, CT, CV, BF)
#define MAX_FOLD(E, T, CT, CV, BF, ACC, AV, AF) EXTREME_FOLD(max, >, E, T, CT, CV, BF)

/* all/any: nonzero test (NaN is nonzero); stops once the answer is known. */
#define ALL_FOLD(E, T, CT, CV, BF, ACC, AV, AF)                               \
  static void all_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    for (int64_t i = 0; i < n && s->flag; i++)                                \
      if (!(CV(ELEM(T, p, i, step)) != 0)) s->flag = 0;                       \
  }                                                                           \
  static void any_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    for (int64_t i = 0; i < n && !s->flag; i++)                               \
      if (CV(ELEM(T, p, i, step)) != 0) s->flag = 1;                          \
  }

/* var, second pass: squared deviations from s->mean. */
#define SQDEV_FOLD(E, T, CT, CV, BF, ACC, AV, AF)                               \
  static void sqdev_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    double m = s->mean, a = 0;                                                  \
    for (int64_t i = 0; i < n; i++) {                                           \
      double d = CV(ELEM(T, p, i, step)) - m;                                   \
      a += d * d;                                                               \
    }                                                                           \
    s->sq += a;                                                                 \
  }

RED_REALS(SUM_FOLD)
RED_REALS(PROD_FOLD)
RED_REALS(MIN_FOLD)
RED_REALS(MAX_FOLD)
RED_REALS(ALL_FOLD)
RED_FLOATS(SQDEV_FOLD)

/* min/max of contiguous float32 and float64 runs, vectorized (each compiled per vector path):
   blocks of EXT_BLOCK elements are scanned in EXT_LANES lanes for their extreme and for NaN or
   inf (x - x is not 0); a block that holds neither and beats the value so far gives the first
   position of its extreme, any other block runs the exact fold above -- so the same value and
   position, the first extreme winning and a NaN stopping the fold. Strided runs take that fold
   too. */
#define EXT_BLOCK 2048
#define EXT_LANES 16
#define EXT_FOLD(NAME, CMP, E, T)                                                                \
  static LT_SIMD_INLINE void NAME##b_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    if (step != (int64_t)sizeof(T) || n < EXT_LANES || (s->have && s->best.f != s->best.f)) {    \
      NAME##_##E(s, p, step, n);                                                                 \
      return;                                                                                    \
    }                                                                                            \
    const T *q = (const T *)(const void *)p;                                                     \
    for (int64_t i0 = 0; i0 < n; i0 += EXT_BLOCK) {                                              \
      int64_t len = n - i0 < EXT_BLOCK ? n - i0 : EXT_BLOCK, i = 0;                              \
      T acc[EXT_LANES], z[EXT_LANES];                                                            \
      for (int j = 0; j < EXT_LANES; j++) acc[j] = q[i0], z[j] = 0;                              \
      for (; i + EXT_LANES <= len; i += EXT_LANES)                                               \
        for (int j = 0; j < EXT_LANES; j++) {                                                    \
          T x = q[i0 + i + j];                                                                   \
          acc[j] = x CMP acc[j] ? x : acc[j];                                                    \
          z[j] += x - x;                                                                         \
        }                                                                                        \
      T m = acc[0], zs = 0;                                                                      \
      for (; i < len; i++)                                                                       \
        acc[0] = q[i0 + i] CMP acc[0] ? q[i0 + i] : acc[0], z[0] += q[i0 + i] - q[i0 + i];       \
      for (int j = 0; j < EXT_LANES; j++) m = acc[j] CMP m ? acc[j] : m, zs += z[j];             \
      if (zs != 0 || !s->have) {                                                                 \
        NAME##_##E(s, (const char *)(q + i0), step, len);                                        \
        if (s->best.f != s->best.f) {                                                            \
          s->pos += n - i0 - len;                                                                \
          return;                                                                                \
        }                                                                                        \
        continue;                                                                                \
      }                                                                                          \
      if ((double)m CMP s->best.f) {                                                             \
        int64_t k = 0;                                                                           \
        while (q[i0 + k] != m) k++;                                                              \
        s->best.f = (double)q[i0 + k];                                                           \
        s->at = s->pos + k;                                                                      \
      }                                                                                          \
      s->pos += len;                                                                             \
    }                                                                                            \
  }                                                                                              \
  LT_SIMD_CLONES_VOID(NAME##c_##E, NAME##b_##E, FOLD_PARAMS, FOLD_ARGS)                          \
  static void v##NAME##_##E(red_state *s, const char *p, int64_t step, int64_t n) {              \
    LT_SIMD_PICK(NAME##c_##E)(s, p, step, n);                                                    \
  }
EXT_FOLD(min, <, FLOAT32, float)
EXT_FOLD(min, <, FLOAT64, double)
EXT_FOLD(max, >, FLOAT32, float)
EXT_FOLD(max, >, FLOAT64, double)

/* nansum (and nanmean's sum): the elements that are not NaN, and how many (integers and bool
   have no NaN: every element counts). The select keeps the loop free of branches. */
#define NANSUM_FOLD(E, T, CT, CV, BF, ACC, AV, AF)                               \
  static void nansum_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    ACC a = 0;                                                                   \
    int64_t k = 0;                                                               \
    for (int64_t i = 0; i < n; i++) {                                            \
      T x = ELEM(T, p, i, step);                                                 \
      int keep = CV(x) == CV(x);                                                 \
      a += keep ? AV(x) : 0;                                                     \
      k += keep;                                                                 \
    }                                                                            \
    s->AF += a;                                                                  \
    s->kept += k;                                                                \
    s->pos += n;                                                                 \
  }
RED_REALS(NANSUM_FOLD)

/* Complex sums and products, in double. */
#define CPX_FOLDS(E, T, b)                                                     \
  static void sum_##E(red_state *s, const char *p, int64_t step, int64_t n) {  \
    double re = 0, im = 0;                                                     \
    for (int64_t i = 0; i < n; i++) {                                          \
      T x = ELEM(T, p, i, step);                                               \
      re += x.re;                                                              \
      im += x.im;                                                              \
    }                                                                          \
    s->re += re;                                                               \
    s->im += im;                                                               \
    s->pos += n;                                                               \
  }                                                                            \
  static void prod_##E(red_state *s, const char *p, int64_t step, int64_t n) { \
    double re = s->re, im = s->im;                                             \
    for (int64_t i = 0; i < n; i++) {                                          \
      T x = ELEM(T, p, i, step);                                               \
      double r = re * x.re - im * x.im;                                        \
      im = re * x.im + im * x.re;                                              \
      re = r;                                                                  \
    }                                                                          \
    s->re = re;                                                                \
    s->im = im;                                                                \
    s->pos += n;                                                               \
  }                                                                            \
  /* all/any as torch: an element is nonzero when either part is (NaN is) */   \
  static void all_##E(red_state *s, const char *p, int64_t step, int64_t n) {  \
    for (int64_t i = 0; i < n && s->flag; i++) {                               \
      T x = ELEM(T, p, i, step);                                               \
      if (!(x.re != 0 || x.im != 0)) s->flag = 0;                              \
    }                                                                          \
  }                                                                            \
  static void any_##E(red_state *s, const char *p, int64_t step, int64_t n) {  \
    for (int64_t i = 0; i < n && !s->flag; i++) {                              \
      T x = ELEM(T, p, i, step);                                               \
      if (x.re != 0 || x.im != 0) s->flag = 1;                                 \
    }                                                                          \
  }
LT_DTYPES_CPX(CPX_FOLDS)

/*
 * Column sums: when neighbouring outputs are closer in memory than neighbouring elements of the
 * reduced dim (a sum over dim 0 of a row-major matrix), folding one output at a time would
 * stride through memory. Instead a block of VB outputs accumulates side by side, one row of the
 * reduced dim per call, and the inner loop runs along memory.
 */
#define VB 256
typedef struct {
  uint64_t u[VB];
  double re[VB], im[VB];
} red_cols;

/* Adds n elements, the first at p, step bytes apart, to the accumulators of the block. */
typedef void (*cols_fn)(red_cols *a, const char *p, int64_t step, int64_t n);

#define COLS_SUM(E, T, CT, CV, BF, ACC, AV, AF)                               \
  static void cols_##E(red_cols *a, const char *p, int64_t step, int64_t n) { \
    if (step == (int64_t)sizeof(T)) {                                         \
      const T *q = (const T *)(const void *)p;                                \
      for (int64_t i = 0; i < n; i++) a->AF[i] += AV(q[i]);                   \
    } else {                                                                  \
      for (int64_t i = 0; i < n; i++) a->AF[i] += AV(ELEM(T, p, i, step));    \
    }                                                                         \
  }
RED_REALS(COLS_SUM)
#define COLS_CPX(E, T, b)                                                     \
  static void cols_##E(red_cols *a, const char *p, int64_t step, int64_t n) { \
    for (int64_t i = 0; i < n; i++) {                                         \
      T x = ELEM(T, p, i, step);                                              \
      a->re[i] += x.re;                                                       \
      a->im[i] += x.im;                                                       \
    }                                                                         \
  }
LT_DTYPES_CPX(COLS_CPX)

/* The fold functions by lt_fold, and var's second pass after them. */
enum { F_SQDEV = LT_FOLD_NANSUM + 1, F_N };

/* folds[kind][dtype]; NULL: not defined for that dtype. */
#define SUM_ENTRY(E, ...) [LT_##E] = sum_##E,
#define PROD_ENTRY(E, ...) [LT_##E] = prod_##E,
#define MIN_ENTRY(E, ...) [LT_##E] = min_##E,
#define MAX_ENTRY(E, ...) [LT_##E] = max_##E,
#define ALL_ENTRY(E, ...) [LT_##E] = all_##E,
#define ANY_ENTRY(E, ...) [LT_##E] = any_##E,
#define SQDEV_ENTRY(E, ...) [LT_##E] = sqdev_##E,
#define NANSUM_ENTRY(E, ...) [LT_##E] = nansum_##E,
#define COLS_ENTRY(E, ...) [LT_##E] = cols_##E,
#define CPX_SUM_ENTRY(E, T, b) [LT_##E] = sum_##E,
#define CPX_PROD_ENTRY(E, T, b) [LT_##E] = prod_##E,
#define CPX_COLS_ENTRY(E, T, b) [LT_##E] = cols_##E,
#define CPX_ALL_ENTRY(E, T, b) [LT_##E] = all_##E,
#define CPX_ANY_ENTRY(E, T, b) [LT_##E] = any_##E,
#define CPX_ENTRIES(K) LT_DTYPES_CPX(CPX_##K##_ENTRY)
static const fold_fn folds[F_N][LT_NDTYPES] = {
    [LT_FOLD_SUM] = {RED_REALS(SUM_ENTRY) CPX_ENTRIES(SUM)},
    [LT_FOLD_PROD] = {RED_REALS(PROD_ENTRY) CPX_ENTRIES(PROD)},
    [LT_FOLD_MIN] = {RED_REALS(MIN_ENTRY)},
    [LT_FOLD_MAX] = {RED_REALS(MAX_ENTRY)},
    [LT_FOLD_ALL] = {RED_REALS(ALL_ENTRY) CPX_ENTRIES(ALL)},
    [LT_FOLD_ANY] = {RED_REALS(ANY_ENTRY) CPX_ENTRIES(ANY)},
    [LT_FOLD_NANSUM] = {RED_REALS(NANSUM_ENTRY)},
    [F_SQDEV] = {RED_FLOATS(SQDEV_ENTRY)},
};
static const cols_fn cols[LT_NDTYPES] = {RED_REALS(COLS_ENTRY) CPX_ENTRIES(COLS)};

/* }====== */

/* {====== running a reduction ====== */

typedef struct {
  const lt_red_row *r;
  lt_dtype in, out;    /* input dtype, result dtype */
  fold_fn fold, fold2; /* fold2: var's second pass, else NULL */
  int correction;
  int64_t len, step; /* over a dim: its length and byte stride */
  int with_idx;      /* over a dim: operand 2 receives min/max positions */
  red_state s;       /* over every element: the running state */
} red_ctx;

static void state_init(const lt_red_row *r, red_state *s) {
  memset(s, 0, sizeof *s);
  if (r->fold == LT_FOLD_PROD) {
    s->u = 1;
    s->re = 1;
  }
  if (r->fold == LT_FOLD_ALL) s->flag = 1;
}

/* Writes the result of a state that folded nred elements to val (and the position to idx). */
static void finish(const red_ctx *c, const red_state *s, int64_t nred, char *val, char *idx) {
  const lt_dtype_info *in = &lt_dtypes[c->in];
  lt_scalar v = {LT_SK_FLOAT, {0}, 0};
  lt_finish fin = c->r->finish;
  int extreme = c->r->fold == LT_FOLD_MIN || c->r->fold == LT_FOLD_MAX;
  if ((fin == LT_FINISH_VALUE && !extreme) || fin == LT_FINISH_MEAN) {
    double div = fin != LT_FINISH_MEAN          ? 1.0
                 : c->r->fold == LT_FOLD_NANSUM ? (double)s->kept /* nanmean */
                                                : (double)nred;
    if (in->is_complex) {
      v.kind = LT_SK_COMPLEX;
      v.v.f = s->re / div;
      v.im = s->im / div;
    } else if (in->is_float) {
      v.v.f = s->re / div;
    } else {
      v.kind = LT_SK_INT;
      memcpy(&v.v.i, &s->u, sizeof v.v.i); /* two's complement, without an out-of-range cast */
    }
  } else if (fin == LT_FINISH_VALUE) { /* the minimum or maximum */
    if (in->is_float) {
      v.v.f = s->best.f;
    } else if (c->in == LT_BOOL || in->is_signed) {
      v.kind = LT_SK_INT;
      v.v.i = s->best.i;
    } else {
      v.kind = LT_SK_UINT;
      v.v.u = s->best.u;
    }
    if (idx) memcpy(idx, &s->at, sizeof s->at);
  } else if (fin == LT_FINISH_POS || fin == LT_FINISH_FLAG) {
    v.kind = LT_SK_INT;
    v.v.i = fin == LT_FINISH_POS ? s->at : s->flag;
  } else { /* var, std */
    double d = (double)nred - (double)c->correction;
    v.v.f = d <= 0 ? NAN : s->sq / d;
    if (fin == LT_FINISH_STD) v.v.f = sqrt(v.v.f);
  }
  (void)lt_store_wrap(c->out, val, &v); /* an integer result wraps, as torch's sums do */
}

/* Over a dim: operand 0 is the result, 1 the input without the dim, 2 the positions. */
static int dim_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  red_ctx *c = ctx;
  if (c->r->fold == LT_FOLD_SUM && !c->fold2 && n > 1 && llabs(st[1]) < llabs(c->step)) {
    red_cols a;
    for (int64_t i0 = 0; i0 < n; i0 += VB) {
      int64_t nb = n - i0 < VB ? n - i0 : VB;
      const char *in = p[1] + i0 * st[1];
      memset(&a, 0, sizeof a);
      for (int64_t j = 0; j < c->len; j++) cols[c->in](&a, in + j * c->step, st[1], nb);
      for (int64_t i = 0; i < nb; i++) {
        red_state s;
        state_init(c->r, &s);
        s.u = a.u[i];
        s.re = a.re[i];
        s.im = a.im[i];
        finish(c, &s, c->len, p[0] + (i0 + i) * st[0], NULL);
      }
    }
    return 0;
  }
  for (int64_t i = 0; i < n; i++) {
    red_state s;
    const char *in = p[1] + i * st[1];
    state_init(c->r, &s);
    c->fold(&s, in, c->step, c->len);
    if (c->fold2 && c->len > 0) {
      s.mean = s.re / (double)c->len;
      c->fold2(&s, in, c->step, c->len);
    }
    finish(c, &s, c->len, p[0] + i * st[0], c->with_idx ? p[2] + i * st[2] : NULL);
  }
  return 0;
}

/* Over every element: each run of the input folds into one state. */
typedef struct {
  fold_fn fold;
  red_state *s;
} fold_ctx;

static int fold_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  const fold_ctx *f = ctx;
  f->fold(f->s, p[0], st[0], n);
  return 0;
}

/* Adds the state of a later piece, b, to a (the pieces before it). */
static void combine(const red_ctx *c, red_state *a, const red_state *b) {
  const lt_dtype_info *in = &lt_dtypes[c->in];
  lt_fold fold = c->r->fold;
  if (fold == LT_FOLD_SUM || fold == LT_FOLD_NANSUM) {
    a->kept += b->kept;
    a->u += b->u; /* the fields a reduction does not use stay 0 */
    a->re += b->re;
    a->im += b->im;
    a->sq += b->sq;
  } else if (fold ==
             LT_FOLD_PROD) { /* a real product has im 0: the complex product is the real one */
    double re = a->re * b->re - a->im * b->im;
    a->im = a->re * b->im + a->im * b->re;
    a->re = re;
    a->u *= b->u;
  } else if (fold == LT_FOLD_MIN || fold == LT_FOLD_MAX) {
    if (!b->have) return;
    int less = fold == LT_FOLD_MIN, take = !a->have;
    if (take) {
    } else if (in->is_float) { /* the first NaN wins */
      double x = b->best.f, y = a->best.f;
      take = y == y && (x != x || (less ? x < y : x > y));
    } else if (c->in == LT_BOOL || in->is_signed) {
      take = less ? b->best.i < a->best.i : b->best.i > a->best.i;
    } else {
      take = less ? b->best.u < a->best.u : b->best.u > a->best.u;
    }
    if (take) {
      a->best = b->best;
      a->at = b->at;
      a->have = 1;
    }
  } else if (fold == LT_FOLD_ALL) {
    a->flag = a->flag && b->flag;
  } else {
    a->flag = a->flag || b->flag;
  }
}

typedef struct {
  const red_ctx *c;
  fold_fn fold;
  const lt_iter *it;
  char *const *base;
  red_state *parts;
  int64_t grain;
  double mean;
} fold_job;

static int fold_piece(void *ctx, int64_t lo, int64_t hi) {
  const fold_job *j = ctx;
  red_state *s = &j->parts[lo / j->grain];
  state_init(j->c->r, s);
  s->pos = lo; /* positions count from the first element */
  s->mean = j->mean;
  fold_ctx f = {j->fold, s};
  return lt_iter_range(j->it, j->base, fold_run, &f, lo, hi);
}

/*
 * Folds the n elements of the iteration into *s with fold (mean: var's, for its second pass).
 * Large inputs fold in pieces (lt_pool_grain: they depend on n alone) on the pool's threads,
 * whose states then combine in order: the result is the same at every thread count.
 */
static int fold_all(const red_ctx *c, fold_fn fold, const lt_iter *it, char *const *base, int64_t n,
                    size_t esize, double mean, red_state *s, lt_error *err) {
  int64_t grain = lt_pool_grain(n, (double)esize), np = (n + grain - 1) / grain;
  state_init(c->r, s);
  s->mean = mean;
  if (np == 1) {
    fold_ctx f = {fold, s};
    lt_iter_run(it, base, fold_run, &f);
    return LT_OK;
  }
  red_state *parts = malloc((size_t)np * sizeof *parts);
  if (!parts) return lt_fail(err, LT_ENOMEM, "not enough memory");
  fold_job j = {c, fold, it, base, parts, grain, mean};
  lt_pool_run(n, grain, fold_piece, &j);
  *s = parts[0];
  for (int64_t k = 1; k < np; k++) combine(c, s, &parts[k]);
  free(parts);
  return LT_OK;
}

/* The result dtype of row r over dtype dt, or a message in err. */
static int result_dtype(const lt_red_row *r, lt_dtype dt, lt_dtype *rt, lt_error *err) {
  static const char *const expects[] = {[LT_TAKES_REAL] = "bool, integer or floating point",
                                        [LT_TAKES_FLOAT] = "floating point",
                                        [LT_TAKES_INEXACT] = "floating point or complex"};
  const lt_dtype_info *d = &lt_dtypes[dt];
  unsigned cat = 1u << lt_category_of(dt); /* LT_TAKES_* */
  if (!(r->takes & cat))
    return lt_fail(err, LT_EARG, "not supported for %s (%s expected)", d->name,
                   r->takes < sizeof expects / sizeof expects[0] && expects[r->takes]
                       ? expects[r->takes]
                       : "another dtype");
  switch (r->rule) {
    case LT_RRULE_SAME: *rt = dt; break;
    case LT_RRULE_WIDE: *rt = d->is_float || d->is_complex ? dt : LT_INT64; break;
    case LT_RRULE_INT64: *rt = LT_INT64; break;
    case LT_RRULE_BOOL: *rt = LT_BOOL; break;
    case LT_RRULE_REAL:
      *rt = dt == LT_COMPLEX64 ? LT_FLOAT32 : dt == LT_COMPLEX128 ? LT_FLOAT64 : dt;
      break;
    case LT_RRULE_FLOAT: *rt = d->is_float || d->is_complex ? dt : LT_FLOAT32; break;
  }
  return LT_OK;
}

static int needs_nonempty(const lt_red_row *r) {
  return r->fold == LT_FOLD_MIN || r->fold == LT_FOLD_MAX;
}

static void ctx_init(red_ctx *c, lt_redop op, lt_dtype in, lt_dtype rt, int correction) {
  memset(c, 0, sizeof *c);
  c->r = &lt_reductions[op];
  c->in = in;
  c->out = rt;
  c->correction = correction;
  c->fold = folds[c->r->fold][in];
  if ((c->r->fold == LT_FOLD_MIN || c->r->fold == LT_FOLD_MAX) &&
      (in == LT_FLOAT32 || in == LT_FLOAT64)) {
    int mx = c->r->fold == LT_FOLD_MAX;
    c->fold =
        in == LT_FLOAT32 ? (mx ? vmax_FLOAT32 : vmin_FLOAT32) : (mx ? vmax_FLOAT64 : vmin_FLOAT64);
  }
  if (c->r->finish == LT_FINISH_VAR || c->r->finish == LT_FINISH_STD) c->fold2 = folds[F_SQDEV][in];
}

/* Reduces every element of a into a new tensor (0-d, or ndim ones with keepdim). */
static int reduce_all(const red_ctx *proto, const lt_tensor *a, int keepdim, lt_tensor **out,
                      lt_error *err) {
  red_ctx c = *proto;
  int64_t numel = lt_numel(a), ones[LT_MAX_NDIM];
  if (numel == 0 && needs_nonempty(c.r))
    return lt_fail(err, LT_EARG, "cannot reduce an empty tensor");
  for (int d = 0; d < a->ndim; d++) ones[d] = 1;
  lt_tensor *o, *copy = NULL;
  int rc = lt_tensor_new(c.out, keepdim ? a->ndim : 0, ones, 0, &o, err);
  if (rc) return rc;
  const lt_tensor *src = a;
  /* argmin/argmax give positions in row-major order: walk a contiguous copy */
  if (c.r->finish == LT_FINISH_POS && !lt_is_contiguous(a)) {
    if ((rc = lt_clone(a, &copy, err))) {
      lt_tensor_free(o);
      return rc;
    }
    src = copy;
  }
  state_init(c.r, &c.s);
  if (numel > 0) {
    lt_tensor *ops[1] = {(lt_tensor *)src};
    char *base[1] = {lt_data(src)};
    lt_iter it;
    lt_iter_init(&it, 1, ops);
    rc = fold_all(&c, c.fold, &it, base, numel, lt_esize(src), 0, &c.s, err);
    if (rc == LT_OK && c.fold2) {
      red_state dev;
      rc =
          fold_all(&c, c.fold2, &it, base, numel, lt_esize(src), c.s.re / (double)numel, &dev, err);
      c.s.sq = dev.sq;
    }
  }
  if (rc == LT_OK) finish(&c, &c.s, numel, lt_data(o), NULL);
  lt_tensor_free(copy);
  if (rc) {
    lt_tensor_free(o);
    return rc;
  }
  *out = o;
  return LT_OK;
}

/* Reduces a over dim into new tensors: the result, and the positions when idx is not NULL. */
static int reduce_dim(red_ctx *c, const lt_tensor *a, int dim, int keepdim, lt_tensor **out,
                      lt_tensor **idx, lt_error *err) {
  int64_t len = a->shape[dim], shape[LT_MAX_NDIM];
  if (len == 0 && needs_nonempty(c->r))
    return lt_fail(err, LT_EARG, "cannot reduce an empty dimension (dimension %d has size 0)",
                   dim + 1);
  int nd = 0;
  for (int d = 0; d < a->ndim; d++)
    if (d != dim)
      shape[nd++] = a->shape[d];
    else if (keepdim)
      shape[nd++] = 1;
  lt_tensor *o = NULL, *ix = NULL;
  int rc = lt_tensor_new(c->out, nd, shape, 0, &o, err);
  if (rc == LT_OK && idx) rc = lt_tensor_new(LT_INT64, nd, shape, 0, &ix, err);
  if (rc) {
    lt_tensor_free(o);
    return rc;
  }
  c->len = len;
  c->step = a->strides[dim] * (int64_t)lt_esize(a);
  c->with_idx = ix != NULL;
  if (lt_numel(o) > 0) {
    lt_frame fo, fi, fx;
    lt_tensor *ops[3] = {lt_frame_of(&fo, o), lt_frame_of(&fi, a), NULL};
    if (keepdim) lt_drop_dim_(ops[0], dim);
    lt_drop_dim_(ops[1], dim);
    int nops = 2;
    if (ix) {
      ops[2] = lt_frame_of(&fx, ix);
      if (keepdim) lt_drop_dim_(ops[2], dim);
      nops = 3;
    }
    char *base[3] = {lt_data(o), lt_data(a), ix ? lt_data(ix) : NULL};
    lt_iter it;
    lt_iter_init(&it, nops, ops);
    double bytes = (double)len * (double)lt_esize(a) + (double)lt_esize(o); /* per output */
    lt_iter_run_par(&it, base, dim_run, c, bytes);
  }
  *out = o;
  if (idx) *idx = ix;
  return LT_OK;
}

int lt_reduce(lt_redop op, const lt_tensor *a, int dim, int keepdim, int correction,
              lt_tensor **out, lt_tensor **idx, lt_error *err) {
  if (idx) *idx = NULL;
  if ((unsigned)op >= (unsigned)LT_NREDOPS || lt_reductions[op].fold == LT_FOLD_NONE)
    return lt_fail(err, LT_EARG, "not a fold reduction");
  const lt_red_row *r = &lt_reductions[op];
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  lt_dtype rt = a->dtype;
  if ((rc = result_dtype(r, a->dtype, &rt, err))) return rc;
  red_ctx c;
  ctx_init(&c, op, a->dtype, rt, correction);
  /* positions come with the values of a minimum or maximum over a dim */
  int with_idx = idx && needs_nonempty(r) && r->finish == LT_FINISH_VALUE;
  if (dim < 0) return reduce_all(&c, a, keepdim, out, err);
  if (a->ndim == 0) {
    if (dim != 0) return lt_dim_error(err, dim, 1); /* a 0-d tensor takes dim 1 (or -1) */
    /* a 0-d tensor reduces over dim 0 as a tensor of one element */
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, a);
    v->ndim = 1;
    v->shape[0] = 1;
    v->strides[0] = 1;
    return reduce_dim(&c, v, 0, 0, out, with_idx ? idx : NULL, err);
  }
  if (dim >= a->ndim) return lt_dim_error(err, dim, a->ndim);
  /* over the one dim of a 1-d tensor: the whole-tensor fold, which splits across the pool's
     threads (a dim reduction splits over its outputs, here one) and gives the same bits as
     t:sum() */
  if (a->ndim == 1 && !with_idx) return reduce_all(&c, a, keepdim, out, err);
  return reduce_dim(&c, a, dim, keepdim, out, with_idx ? idx : NULL, err);
}

/* }====== */

/* {====== the rows ====== */

#define FORMS_M LT_FORM_METHOD
#define FORMS_L LT_FORM_MODULE
#define FORMS_ML (LT_FORM_METHOD | LT_FORM_MODULE)
#define COMPOSE_NONE(E) lt_compose_##E
#define COMPOSE_SUM(E) NULL
#define COMPOSE_PROD(E) NULL
#define COMPOSE_MIN(E) NULL
#define COMPOSE_MAX(E) NULL
#define COMPOSE_ALL(E) NULL
#define COMPOSE_ANY(E) NULL
#define COMPOSE_NANSUM(E) NULL

const lt_red_row lt_reductions[] = {
#define LT_RED(E, nm, fold_, finish_, rule_, takes_, args_, forms_)                               \
  [LT_##E] = {#nm,     LT_FOLD_##fold_, LT_FINISH_##finish_, LT_RRULE_##rule_, LT_TAKES_##takes_, \
              (args_), FORMS_##forms_,  COMPOSE_##fold_(E)},
#include "lt_reduce_table.h"
};
_Static_assert(sizeof lt_reductions / sizeof lt_reductions[0] == LT_NREDOPS,
               "a row for every reduction");

/* }====== */
