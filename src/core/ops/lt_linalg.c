/*
 * lt_linalg.c -- matrix products (torch.matmul), concatenation (torch.cat) and stacking
 * (torch.stack); see lt_linalg.h.
 *
 * matmul computes in the computation dtype (the promoted dtype; float16 and bfloat16 compute
 * in float32 and round once at the end), one product per batch entry, lt_iter walking the
 * broadcast batch dims. float32, float64, complex64 and complex128 go to the BLAS when one was
 * built in and is on (lt_blas.h): an operand whose matrices are row-major or transposed with a
 * unit stride goes as it is, its other stride the leading dimension; any other is packed once
 * into a contiguous copy; a result row or column is a gemv, a single element a dot. Otherwise
 * (also when the BLAS's guard refuses a run: OpenBLAS's buffers would not fit in memory) both
 * operands are made contiguous and ltensor's own kernel runs. The kernel, one macro over the
 * computation dtypes, loops i-k-j in blocks so that the inner loop runs along contiguous rows of
 * the right operand and of the result (it vectorizes) and a block of the right operand stays in
 * cache. Integers wrap (unsigned arithmetic, no undefined behaviour).
 */
#include "lt_linalg.h"
#include "lt_checked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_blas.h"
#include "lt_copy.h"
#include "lt_cpu.h"
#include "lt_gemm.h"
#include "lt_iter.h"
#include "lt_math.h"
#include "lt_promote.h"

/* {====== matmul ====== */

/* Block sizes of the kernel: MM_KB rows of MM_JB columns of the right operand at a time. */
#ifndef LT_MM_KB
#define LT_MM_KB 128
#endif
#ifndef LT_MM_JB
#define LT_MM_JB 512
#endif

/* c (n x m, zero-filled) += a (n x k) * b (k x m), all contiguous. */
typedef void (*mm_fn)(char *c, const char *a, const char *b, int64_t n, int64_t k, int64_t m);

/* MAC(acc, x, y): acc += x * y in the computation dtype. */
#define MAC_FLT(T, W, acc, x, y) ((acc) += (x) * (y))
#define MAC_INT(T, W, acc, x, y) ((acc) = (T)((W)(acc) + (W)(x) * (W)(y)))
#define MAC_CPX(T, W, acc, x, y)               \
  do {                                         \
    T x_ = (x), y_ = (y);                      \
    (acc).re += x_.re * y_.re - x_.im * y_.im; \
    (acc).im += x_.re * y_.im + x_.im * y_.re; \
  } while (0)

#define MM_KERNEL(E, T, W, MAC)                                                                   \
  static void mm_##E(char *cp, const char *ap, const char *bp, int64_t n, int64_t k, int64_t m) { \
    T *restrict c = (T *)(void *)cp;                                                              \
    const T *restrict a = (const T *)(const void *)ap;                                            \
    const T *restrict b = (const T *)(const void *)bp;                                            \
    if (m == 1) { /* matrix-vector: dot products */                                               \
      for (int64_t i = 0; i < n; i++) {                                                           \
        T acc = c[i];                                                                             \
        for (int64_t p = 0; p < k; p++) MAC(T, W, acc, a[i * k + p], b[p]);                       \
        c[i] = acc;                                                                               \
      }                                                                                           \
      return;                                                                                     \
    }                                                                                             \
    for (int64_t j0 = 0; j0 < m; j0 += LT_MM_JB) {                                                \
      int64_t j1 = m - j0 < LT_MM_JB ? m : j0 + LT_MM_JB;                                         \
      for (int64_t p0 = 0; p0 < k; p0 += LT_MM_KB) {                                              \
        int64_t p1 = k - p0 < LT_MM_KB ? k : p0 + LT_MM_KB;                                       \
        for (int64_t i = 0; i < n; i++) {                                                         \
          T *restrict ci = c + i * m;                                                             \
          for (int64_t p = p0; p < p1; p++) {                                                     \
            const T x = a[i * k + p];                                                             \
            const T *restrict bq = b + p * m;                                                     \
            for (int64_t j = j0; j < j1; j++) MAC(T, W, ci[j], x, bq[j]);                         \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  }

/* The computation dtypes by category: MM_<category>(E, T, bits) gives MM_KERNEL(E, T, W, MAC),
   W the type the products accumulate in (the unsigned type integers wrap in; a complex dtype's
   part type). Bool is refused; float16 and bfloat16 compute in float32. */
#define MM_WIDE_8 uint32_t
#define MM_WIDE_16 uint32_t
#define MM_WIDE_32 uint32_t
#define MM_WIDE_64 uint64_t
#define MM_PART_64 float
#define MM_PART_128 double
#define MM_BOOL(E, T, b)
#define MM_SINT(E, T, b) MM_KERNEL(E, T, MM_WIDE_##b, MAC_INT)
#define MM_UINT(E, T, b) MM_KERNEL(E, T, MM_WIDE_##b, MAC_INT)
#define MM_FLT(E, T, b) MM_KERNEL(E, T, T, MAC_FLT)
#define MM_F16(E, T, b)
#define MM_BF16(E, T, b)
#define MM_CPX(E, T, b) MM_KERNEL(E, T, MM_PART_##b, MAC_CPX)
LT_DTYPES_BY_CATEGORY(MM)

#define MM_ENTRY(E, T, b) [LT_##E] = mm_##E,
#define MM_ENTRY_BOOL(E, T, b)
#define MM_ENTRY_SINT MM_ENTRY
#define MM_ENTRY_UINT MM_ENTRY
#define MM_ENTRY_FLT MM_ENTRY
#define MM_ENTRY_F16(E, T, b)
#define MM_ENTRY_BF16(E, T, b)
#define MM_ENTRY_CPX MM_ENTRY
/* NULL: bool (refused), float16 and bfloat16 (computed in float32). */
static const mm_fn mm_kernels[LT_NDTYPES] = {LT_DTYPES_BY_CATEGORY(MM_ENTRY)};

typedef struct {
  mm_fn k;
  int64_t n, kk, m;
} mm_ctx;

/* One run over the batch: operand 0 the result, 1 and 2 the operands (matrix starts). */
static int mm_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  const mm_ctx *c = ctx;
  for (int64_t i = 0; i < n; i++)
    c->k(p[0] + i * st[0], p[1] + i * st[1], p[2] + i * st[2], c->n, c->kk, c->m);
  return 0;
}

/* "2x3x4" */
static void shape_str(const lt_tensor *t, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = 0;
  for (int d = 0; d < t->ndim && len < size; d++) {
    int w = snprintf(buf + len, size - len, d ? "x%lld" : "%lld", (long long)t->shape[d]);
    if (w < 0) break;
    len += (size_t)w;
  }
}

/* "matmul: <pre> (2x3) and (4x5)<post>" (test_math pins the prefix) */
static int size_error(const char *pre, const char *post, const lt_tensor *a, const lt_tensor *b,
                      lt_error *err) {
  char sa[96], sb[96];
  shape_str(a, sa, sizeof sa);
  shape_str(b, sb, sizeof sb);
  return lt_fail(err, LT_EARG, "%s (%s) and (%s)%s", pre, sa, sb, post);
}

/* A frame over t's first element with the batch shape: t's batch dims (tnb of them,
   right-aligned with the nb of the result) keep their strides; broadcast dims step 0. */
static lt_tensor *batch_frame(lt_frame *f, const lt_tensor *t, int tnb, int nb,
                              const int64_t *batch) {
  lt_tensor *v = lt_frame_of(f, t);
  v->ndim = nb;
  for (int d = nb - 1; d >= 0; d--) {
    int td = d - (nb - tnb);
    v->shape[d] = batch[d];
    v->strides[d] = td < 0 || t->shape[td] == 1 ? 0 : t->strides[td];
  }
  return v;
}

/* The shapes of one product: c (batch x n x m) = a (batch x n x k) b (batch x k x m); na and nbb
   are the operands' batch dims, nb the result's (shape[0..nb)). */
typedef struct {
  int64_t n, k, m;
  int na, nbb, nb;
  int64_t shape[LT_MAX_NDIM];
} mm_dims;

/* Runs run(ctx) over the batch of res, a and b (their matrix starts). */
static void over_batch(const mm_dims *d, lt_tensor *res, const lt_tensor *a, const lt_tensor *b,
                       lt_run_fn run, void *ctx) {
  lt_frame fo, fa, fb;
  lt_tensor *ops[3] = {batch_frame(&fo, res, d->nb, d->nb, d->shape),
                       batch_frame(&fa, a, d->na, d->nb, d->shape),
                       batch_frame(&fb, b, d->nbb, d->nb, d->shape)};
  char *base[3] = {lt_data(res), lt_data(a), lt_data(b)};
  lt_iter it;
  lt_iter_init(&it, 3, ops);
  lt_iter_run(&it, base, run, ctx);
}

/* {------ through the BLAS ------ */
#ifdef LTENSOR_HAVE_BLAS

/* How a matrix (rows x cols, element strides rs, cs) reaches the BLAS without a copy: row-major
   with leading dimension ld (trans 0), or as the transpose of a row-major cols x rows matrix
   (trans 1). Returns 0 when neither describes it (overlapping, negative or non-unit strides). */
typedef struct {
  int trans;
  int ld;
} blas_mat;

static int blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, blas_mat *l) {
  int64_t c1 = cols > 1 ? cols : 1, r1 = rows > 1 ? rows : 1;
  if ((cols <= 1 || cs == 1) && (rows <= 1 || rs >= c1)) {
    l->trans = 0;
    l->ld = rows <= 1 ? (int)c1 : (int)rs;
    return lt_blas_fits(rows <= 1 ? c1 : rs);
  }
  if ((rows <= 1 || rs == 1) && (cols <= 1 || cs >= r1)) {
    l->trans = 1;
    l->ld = cols <= 1 ? (int)r1 : (int)cs;
    return lt_blas_fits(cols <= 1 ? r1 : cs);
  }
  return 0;
}

/* The matrix of operand t of a product (a 1-d a is a row, a 1-d b a column). */
static int operand_layout(const lt_tensor *t, int is_b, blas_mat *l) {
  int nd = t->ndim;
  if (nd == 1)
    return is_b ? blas_layout(t->shape[0], 1, t->strides[0], 1, l)
                : blas_layout(1, t->shape[0], 1, t->strides[0], l);
  return blas_layout(t->shape[nd - 2], t->shape[nd - 1], t->strides[nd - 2], t->strides[nd - 1], l);
}

typedef struct {
  lt_dtype dt;
  int n, k, m;
  blas_mat a, b;
  double alpha[2], beta[2];
} blas_ctx;

/* One product: c (n x m, contiguous) = alpha a b + beta c. A result of one element with plain
   alpha and beta is a dot; a result column or row is a matrix-vector product. */
static void blas_one(const blas_ctx *c, char *y, const char *a, const char *b) {
  int ainc = c->a.trans ? c->a.ld : 1; /* a's step along k when n == 1 */
  int binc = c->b.trans ? 1 : c->b.ld; /* b's step along k when m == 1 */
  if (c->n == 1 && c->m == 1 && c->alpha[0] == 1 && c->alpha[1] == 0 && c->beta[0] == 0 &&
      c->beta[1] == 0)
    lt_blas_dot(c->dt, c->k, a, ainc, b, binc, y);
  else if (c->m == 1) /* y (n) = a (n x k) b */
    lt_blas_gemv(c->dt, c->a.trans, c->a.trans ? c->k : c->n, c->a.trans ? c->n : c->k, c->alpha, a,
                 c->a.ld, b, binc, c->beta, y, 1);
  else if (c->n == 1) /* y (m) = b^T (m x k) a */
    lt_blas_gemv(c->dt, !c->b.trans, c->b.trans ? c->m : c->k, c->b.trans ? c->k : c->m, c->alpha,
                 b, c->b.ld, a, ainc, c->beta, y, 1);
  else
    lt_blas_gemm(c->dt, c->a.trans, c->b.trans, c->n, c->m, c->k, c->alpha, a, c->a.ld, b, c->b.ld,
                 c->beta, y, c->m);
}

static int blas_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    blas_one(ctx, p[0] + i * st[0], p[1] + i * st[1], p[2] + i * st[2]);
  return 0;
}

/* res (contiguous, dtype ct, holding beta's addend) = alpha a b + beta res through the BLAS. An
   operand goes as it is when its dtype is ct and its matrices have a BLAS layout; else it is
   packed once into a contiguous copy in ct. Returns 1 when done (*rc says how), 0 when the BLAS
   did not take it and res is untouched: the sizes do not fit the BLAS, or its guard refused the
   run (lt_blas_enter); the caller runs its own kernel. */
static int blas_product(const mm_dims *d, const lt_tensor *a, const lt_tensor *b, lt_tensor *res,
                        const double *alpha, const double *beta, int *rc, lt_error *err) {
  if (!lt_blas_fits(d->n) || !lt_blas_fits(d->k) || !lt_blas_fits(d->m) ||
      !lt_blas_fits(d->n * d->m))
    return 0;
  blas_ctx c = {res->dtype,           (int)d->n,         (int)d->k, (int)d->m, {0, 0}, {0, 0},
                {alpha[0], alpha[1]}, {beta[0], beta[1]}};
  const lt_tensor *ops[2] = {a, b};
  lt_tensor *owned[2] = {NULL, NULL};
  blas_mat *lay[2] = {&c.a, &c.b};
  int done = 1;
  *rc = LT_OK;
  for (int i = 0; i < 2 && *rc == LT_OK && done; i++)
    if (ops[i]->dtype != res->dtype || !operand_layout(ops[i], i, lay[i])) {
      *rc = lt_contiguous_as(ops[i], res->dtype, &ops[i], &owned[i], err);
      done = *rc != LT_OK || operand_layout(ops[i], i, lay[i]); /* else too large for an int */
    }
  if (*rc == LT_OK && done && (done = lt_blas_enter())) { /* packing stays outside the run */
    over_batch(d, res, ops[0], ops[1], blas_run, &c);
    lt_blas_leave();
  }
  lt_tensor_free(owned[0]);
  lt_tensor_free(owned[1]);
  return done;
}

#endif
/* }------ */

/* Checks a and b for matmul and fills d; *rt the result dtype. */
static int matmul_dims(const lt_tensor *a, const lt_tensor *b, mm_dims *d, lt_dtype *rt,
                       lt_error *err) {
  int rc;
  if ((rc = lt_check_readable(a, err)) || (rc = lt_check_readable(b, err))) return rc;
  if (a->ndim == 0 || b->ndim == 0)
    return lt_fail(err, LT_EARG, "both arguments need at least 1 dimension, got %d-d and %d-d",
                   a->ndim, b->ndim);
  *rt = lt_promote(a->dtype, b->dtype);
  if (!mm_kernels[lt_compute_type(*rt)])
    return lt_fail(err, LT_EARG, "matmul is not supported for %s", lt_dtype_name(*rt));
  /* (n x k) times (k x m); a 1-d a is one row, a 1-d b one column */
  d->n = a->ndim > 1 ? a->shape[a->ndim - 2] : 1;
  d->k = a->shape[a->ndim - 1];
  int64_t kb = b->ndim > 1 ? b->shape[b->ndim - 2] : b->shape[0];
  d->m = b->ndim > 1 ? b->shape[b->ndim - 1] : 1;
  if (d->k != kb) return size_error("sizes", " do not match", a, b, err);
  /* batch dims broadcast */
  d->na = a->ndim > 2 ? a->ndim - 2 : 0;
  d->nbb = b->ndim > 2 ? b->ndim - 2 : 0;
  d->nb = 0;
  if (lt_broadcast_join(&d->nb, d->shape, d->na, a->shape) ||
      lt_broadcast_join(&d->nb, d->shape, d->nbb, b->shape))
    return size_error("batch dimensions of sizes", " do not broadcast", a, b, err);
  return LT_OK;
}

/* res (dtype ct, zero-filled) = a b with ltensor's own kernel. */
static int own_product(const mm_dims *d, const lt_tensor *a, const lt_tensor *b, lt_tensor *res,
                       lt_error *err) {
  const lt_tensor *ca, *cb;
  lt_tensor *oa = NULL, *ob = NULL;
  int rc;
  if ((rc = lt_contiguous_as(a, res->dtype, &ca, &oa, err)) == LT_OK &&
      (rc = lt_contiguous_as(b, res->dtype, &cb, &ob, err)) == LT_OK) {
    mm_ctx c = {mm_kernels[res->dtype], d->n, d->k, d->m};
    over_batch(d, res, ca, cb, mm_run, &c);
  }
  lt_tensor_free(oa);
  lt_tensor_free(ob);
  return rc;
}

/* One run of the batch through lt_gemm_f32: the products of n batch positions, matrices
   contiguous (p, st: the result's, a's and b's starts and byte steps). */
typedef struct {
  const mm_dims *d;
  int rc;
  lt_error *err;
} gemm_ctx;

static int gemm_run(void *ctx, char *const *p, const int64_t *st, int64_t n) {
  gemm_ctx *c = ctx;
  const mm_dims *d = c->d;
  int64_t es = (int64_t)sizeof(float);
  lt_gemm_f32_args g = {.batch = n,
                        .m = d->n,
                        .n = d->m,
                        .k = d->k,
                        .a = (const float *)(const void *)p[1],
                        .na = st[1] ? n : 1,
                        .bsa = st[1] / es,
                        .rsa = d->k,
                        .csa = 1,
                        .b = (const float *)(const void *)p[2],
                        .bsb = st[2] / es,
                        .rsb = d->m,
                        .csb = 1,
                        .c = (float *)(void *)p[0],
                        .bsc = st[0] / es,
                        .ldc = d->m};
  if (c->rc == LT_OK) c->rc = lt_gemm_f32(&g, c->err);
  return 0;
}

/* Whether a float32 product of these sizes goes to lt_gemm_f32: a matrix times a matrix (the
   vector forms are memory-bound: the BLAS's gemv or the own kernel), on a vector path, when no
   BLAS takes float32 or the BLAS's kernels do not know the processor (lt_blas_knows_cpu). */
static int gemm_takes(const mm_dims *d, lt_dtype ct) {
  if (ct != LT_FLOAT32 || d->n < 2 || d->m < 2 || lt_cpu_level() == LT_CPU_SCALAR) return 0;
  return !lt_blas_active(ct) || !lt_blas_knows_cpu();
}

/* res (float32, zero-filled) = a b through lt_gemm_f32, the operands made contiguous float32. */
static int gemm_product(const mm_dims *d, const lt_tensor *a, const lt_tensor *b, lt_tensor *res,
                        lt_error *err) {
  const lt_tensor *ca, *cb;
  lt_tensor *oa = NULL, *ob = NULL;
  gemm_ctx c = {d, LT_OK, err};
  if ((c.rc = lt_contiguous_as(a, LT_FLOAT32, &ca, &oa, err)) == LT_OK &&
      (c.rc = lt_contiguous_as(b, LT_FLOAT32, &cb, &ob, err)) == LT_OK)
    over_batch(d, res, ca, cb, gemm_run, &c);
  lt_tensor_free(oa);
  lt_tensor_free(ob);
  return c.rc;
}

/* res (dtype ct, zero-filled) = a b: ltensor's own float32 product where gemm_takes says so,
   the BLAS where it takes ct and the run, else the own kernel. Nothing to do when the result is
   empty or k is 0. */
static int product(const mm_dims *d, const lt_tensor *a, const lt_tensor *b, lt_tensor *res,
                   lt_error *err) {
  if (lt_numel(res) == 0 || d->k == 0) return LT_OK;
  if (gemm_takes(d, res->dtype)) return gemm_product(d, a, b, res, err);
#ifdef LTENSOR_HAVE_BLAS
  static const double one[2] = {1, 0}, zero[2] = {0, 0};
  int rc;
  if (lt_blas_active(res->dtype) && blas_product(d, a, b, res, one, zero, &rc, err)) return rc;
#endif
  return own_product(d, a, b, res, err);
}

int lt_matmul(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  mm_dims d;
  lt_dtype rt;
  int rc = matmul_dims(a, b, &d, &rt, err);
  if (rc) return rc;
  lt_dtype ct = lt_compute_type(rt);
  int64_t shape[LT_MAX_NDIM];
  int nd = d.nb;
  memcpy(shape, d.shape, (size_t)d.nb * sizeof(int64_t));
  if (a->ndim > 1) shape[nd++] = d.n;
  if (b->ndim > 1) shape[nd++] = d.m;
  lt_tensor *res = NULL;
  if ((rc = lt_tensor_new(ct, nd, shape, 1, &res, err)) || (rc = product(&d, a, b, res, err))) {
    lt_tensor_free(res);
    return rc;
  }
  if (ct == rt) {
    *out = res;
    return LT_OK;
  }
  rc = lt_cast(res, rt, out, err);
  lt_tensor_free(res);
  return rc;
}

/* {------ the torch forms with fixed ranks: mm, bmm, mv, dot, addmm ------ */

static int rank_error(const char *name, const char *want, const lt_tensor *t, lt_error *err) {
  return lt_fail(err, LT_EARG, "%s must be %s, got a %d-d tensor", name, want, t->ndim);
}

static int named_size_error(const char *na, const lt_tensor *a, const char *nb, const lt_tensor *b,
                            const char *what, lt_error *err) {
  char sa[96], sb[96];
  shape_str(a, sa, sizeof sa);
  shape_str(b, sb, sizeof sb);
  return lt_fail(err, LT_EARG, "%s and %s %s (%s and %s)", na, nb, what, sa, sb);
}

/* The operands of mm, bmm and mv: self (a) of rank ra, the other (b, named nb) of rank rb, each
   described as wa, wb in the messages; batched (rank 3): the same batch size; then sizes that
   multiply. */
static int check_product(const lt_tensor *a, int ra, const char *wa, const char *nb,
                         const lt_tensor *b, int rb, const char *wb, lt_error *err) {
  if (a->ndim != ra) return rank_error("self", wa, a, err);
  if (b->ndim != rb) return rank_error(nb, wb, b, err);
  if (ra == 3 && a->shape[0] != b->shape[0])
    return named_size_error("self", a, nb, b, "must have the same batch size", err);
  if (a->shape[ra - 1] != b->shape[rb == 1 ? 0 : rb - 2])
    return named_size_error("self", a, nb, b, "shapes cannot be multiplied", err);
  return LT_OK;
}

int lt_mm(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  int rc = check_product(a, 2, "a matrix", "mat2", b, 2, "a matrix", err);
  return rc ? rc : lt_matmul(a, b, out, err);
}

int lt_bmm(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  int rc = check_product(a, 3, "a 3-d tensor", "mat2", b, 3, "a 3-d tensor", err);
  return rc ? rc : lt_matmul(a, b, out, err);
}

int lt_mv(const lt_tensor *a, const lt_tensor *v, lt_tensor **out, lt_error *err) {
  int rc = check_product(a, 2, "a matrix", "vec", v, 1, "a 1-d tensor", err);
  return rc ? rc : lt_matmul(a, v, out, err);
}

int lt_dot(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  if (a->ndim != 1 || b->ndim != 1)
    return lt_fail(err, LT_EARG, "1-d tensors expected, got %d-d and %d-d", a->ndim, b->ndim);
  if (a->shape[0] != b->shape[0])
    return named_size_error("self", a, "other", b, "must have the same size", err);
  return lt_matmul(a, b, out, err);
}

/* A scalar as {re, im}. */
static void scalar_pair(const lt_scalar *s, double *p) {
  p[0] = s->kind == LT_SK_INT ? (double)s->v.i : s->kind == LT_SK_UINT ? (double)s->v.u : s->v.f;
  p[1] = s->kind == LT_SK_COMPLEX ? s->im : 0;
}

static int scalar_is(const lt_scalar *s, double v) {
  double p[2];
  scalar_pair(s, p);
  return p[0] == v && p[1] == 0;
}

/* alpha and beta must fit the result's kind: integers for integer results, no complex number
   for real ones (torch's rule). */
static int check_coef(const char *name, const lt_scalar *s, lt_dtype rt, lt_error *err) {
  if (lt_dtypes[rt].is_int && s->kind != LT_SK_INT && s->kind != LT_SK_UINT)
    return lt_fail(err, LT_EARG, "%s must be an integer for %s tensors", name, lt_dtype_name(rt));
  if (s->kind == LT_SK_COMPLEX && !lt_dtypes[rt].is_complex)
    return lt_fail(err, LT_EARG, "%s must be a real number for %s tensors", name,
                   lt_dtype_name(rt));
  return LT_OK;
}

/* beta input + alpha p (p the product, of shape n x m) with the elementwise operations. */
static int combine(const lt_tensor *input, const lt_scalar *beta, const lt_scalar *alpha,
                   lt_tensor *p, lt_dtype rt, lt_tensor **out, lt_error *err) {
  lt_tensor *ap = NULL, *bi = NULL;
  int rc = LT_OK;
  if (!scalar_is(alpha, 1))
    rc = lt_binary(LT_MUL, &(lt_operand){.t = p}, &(lt_operand){.s = *alpha}, NULL, &ap, err);
  const lt_tensor *pa = ap ? ap : p;
  if (rc == LT_OK && scalar_is(beta, 0)) { /* torch ignores input then, NaN and all */
    rc = pa->dtype == rt ? lt_clone(pa, out, err) : lt_cast(pa, rt, out, err);
  } else if (rc == LT_OK) {
    if (!scalar_is(beta, 1))
      rc = lt_binary(LT_MUL, &(lt_operand){.t = (lt_tensor *)input}, &(lt_operand){.s = *beta},
                     NULL, &bi, err);
    if (rc == LT_OK)
      rc = lt_binary(LT_ADD, &(lt_operand){.t = bi ? bi : (lt_tensor *)input},
                     &(lt_operand){.t = (lt_tensor *)pa}, NULL, out, err);
  }
  lt_tensor_free(ap);
  lt_tensor_free(bi);
  return rc;
}

int lt_addmm(const lt_tensor *input, const lt_tensor *a, const lt_tensor *b, const lt_scalar *beta,
             const lt_scalar *alpha, lt_tensor **out, lt_error *err) {
  int rc;
  if ((rc = lt_check_readable(input, err))) return rc;
  if (a->ndim != 2) return rank_error("mat1", "a matrix", a, err);
  if (b->ndim != 2) return rank_error("mat2", "a matrix", b, err);
  if (a->shape[1] != b->shape[0])
    return named_size_error("mat1", a, "mat2", b, "shapes cannot be multiplied", err);
  mm_dims d;
  lt_dtype pt;
  if ((rc = matmul_dims(a, b, &d, &pt, err))) return rc;
  const int64_t shape[2] = {d.n, d.m};
  lt_tensor *view = NULL;
  if (lt_broadcast_to(input, 2, shape, &view, err)) {
    char si[96], sp[64];
    shape_str(input, si, sizeof si);
    snprintf(sp, sizeof sp, "%lldx%lld", (long long)d.n, (long long)d.m);
    return lt_fail(err, LT_EARG, "input of size (%s) does not broadcast to the product's (%s)", si,
                   sp);
  }
  lt_dtype rt = lt_promote(input->dtype, pt);
  if ((rc = check_coef("alpha", alpha, rt, err)) || (rc = check_coef("beta", beta, rt, err)))
    goto done;
  lt_tensor *res = NULL;
#ifdef LTENSOR_HAVE_BLAS
  /* fused: res = input, then res = alpha a b + beta res in the BLAS call; not for k = 0, where
     the result is beta input (a BLAS returns early), nor when the BLAS does not take the run */
  if (lt_blas_active(rt) && d.k > 0 && d.n > 0 && d.m > 0) {
    double al[2], be[2];
    scalar_pair(alpha, al);
    scalar_pair(beta, be);
    int keep = be[0] != 0 || be[1] != 0, done = 1;
    if ((rc = lt_tensor_new(rt, 2, shape, 1, &res, err)) == LT_OK && keep)
      rc = lt_copy(res, view, err);
    if (rc == LT_OK) done = blas_product(&d, a, b, res, al, be, &rc, err);
    if (rc == LT_OK && done) {
      *out = res;
      res = NULL;
    }
    lt_tensor_free(res);
    res = NULL;
    if (rc != LT_OK || done) goto done;
  }
#endif
  if ((rc = lt_matmul(a, b, &res, err)) == LT_OK) {
    rc = combine(input, beta, alpha, res, rt, out, err);
    lt_tensor_free(res);
  }
done:
  lt_tensor_free(view);
  return rc;
}

int lt_baddbmm(const lt_tensor *input, const lt_tensor *a, const lt_tensor *b,
               const lt_scalar *beta, const lt_scalar *alpha, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(input, err);
  if (rc || (rc = check_product(a, 3, "a 3-d tensor", "batch2", b, 3, "a 3-d tensor", err)))
    return rc;
  const int64_t shape[3] = {a->shape[0], a->shape[1], b->shape[2]};
  lt_tensor *view = NULL, *p = NULL;
  if (lt_broadcast_to(input, 3, shape, &view, err)) {
    char si[96], sp[96];
    shape_str(input, si, sizeof si);
    lt_shape_str(3, shape, sp, sizeof sp);
    return lt_fail(err, LT_EARG, "input of size (%s) does not broadcast to the product's %s", si,
                   sp);
  }
  lt_dtype rt = lt_promote(input->dtype, lt_promote(a->dtype, b->dtype));
  if ((rc = check_coef("alpha", alpha, rt, err)) == LT_OK &&
      (rc = check_coef("beta", beta, rt, err)) == LT_OK && (rc = lt_matmul(a, b, &p, err)) == LT_OK)
    rc = combine(view, beta, alpha, p, rt, out, err);
  lt_tensor_free(p);
  lt_tensor_free(view);
  return rc;
}

/* }------ */

/* }====== */

/* {====== cat ====== */

/* torch skips 1-d empty tensors whatever the other shapes (legacy behaviour). */
static int skipped(const lt_tensor *t) { return t->ndim == 1 && t->shape[0] == 0; }

int lt_cat(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected a non-empty list of tensors");
  int rc, ref = -1;
  lt_dtype dt = LT_BOOL;
  for (int i = 0; i < n; i++) {
    if ((rc = lt_check_readable(ts[i], err))) return rc;
    dt = i ? lt_promote(dt, ts[i]->dtype) : ts[i]->dtype;
    if (ref < 0 && !skipped(ts[i])) ref = i;
  }
  if (ref < 0) return lt_tensor_new(dt, 1, (const int64_t[]){0}, 0, out, err);
  const lt_tensor *r = ts[ref];
  if (r->ndim == 0)
    return lt_fail(err, LT_EARG, "zero-dimensional tensor (at position %d) cannot be concatenated",
                   ref + 1);
  if (dim < 0 || dim >= r->ndim) return lt_dim_error(err, dim, r->ndim);
  int64_t shape[LT_MAX_NDIM], total = 0;
  for (int i = 0; i < n; i++) {
    const lt_tensor *t = ts[i];
    if (skipped(t)) continue;
    if (t->ndim != r->ndim)
      return lt_fail(err, LT_EARG,
                     "tensors must have the same number of dimensions: got %d and %d "
                     "(tensor number %d in the list)",
                     r->ndim, t->ndim, i + 1);
    for (int d = 0; d < t->ndim; d++)
      if (d != dim && t->shape[d] != r->shape[d])
        return lt_fail(err, LT_EARG,
                       "sizes of tensors must match except in dim %d; expected size "
                       "%lld but got size %lld for tensor number %d in the list",
                       dim + 1, (long long)r->shape[d], (long long)t->shape[d], i + 1);
    if (lt_add_overflow(total, t->shape[dim], &total))
      return lt_fail(err, LT_ERANGE, "the result is too large");
  }
  memcpy(shape, r->shape, (size_t)r->ndim * sizeof(int64_t));
  shape[dim] = total;
  lt_tensor *o;
  if ((rc = lt_tensor_new(dt, r->ndim, shape, 0, &o, err))) return rc;
  int64_t at = 0;
  for (int i = 0; i < n && rc == LT_OK; i++) {
    const lt_tensor *t = ts[i];
    if (skipped(t) || t->shape[dim] == 0) continue;
    lt_frame f;
    lt_tensor *v = lt_frame_of(&f, o);
    if ((rc = lt_slice_(v, dim, at, t->shape[dim], 1, err)) == LT_OK) rc = lt_copy(v, t, err);
    at += t->shape[dim];
  }
  return lt_give(rc, o, out);
}

/* }====== */

/* {====== stack ====== */

int lt_stack(const lt_tensor *const *ts, int n, int dim, lt_tensor **out, lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected a non-empty list of tensors");
  const lt_tensor *r = ts[0];
  if (dim < 0 || dim > r->ndim) return lt_dim_error(err, dim, r->ndim + 1);
  for (int i = 1; i < n; i++)
    if (ts[i]->ndim != r->ndim ||
        memcmp(ts[i]->shape, r->shape, (size_t)r->ndim * sizeof(int64_t)) != 0) {
      char a[128], b[128];
      lt_shape_str(r->ndim, r->shape, a, sizeof a);
      lt_shape_str(ts[i]->ndim, ts[i]->shape, b, sizeof b);
      return lt_fail(err, LT_EARG,
                     "expects each tensor to be equal size, but got %s at entry 1 and %s at "
                     "entry %d",
                     a, b, i + 1);
    }
  /* each tensor unsqueezed at dim, then cat */
  lt_tensor **views = calloc((size_t)n, sizeof *views);
  if (!views) return lt_fail(err, LT_ENOMEM, "not enough memory");
  int rc = LT_OK;
  for (int i = 0; i < n && rc == LT_OK; i++) rc = lt_unsqueeze(ts[i], dim, &views[i], err);
  if (rc == LT_OK) rc = lt_cat((const lt_tensor *const *)views, n, dim, out, err);
  for (int i = 0; i < n; i++) lt_tensor_free(views[i]);
  free(views);
  return rc;
}

/* }====== */
