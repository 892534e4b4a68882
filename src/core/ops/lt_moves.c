/*
 * lt_moves.c -- index values into byte offsets, and the element moves (lt_moves.h): copies by
 * element size (1, 2, 4, 8, 16 bytes), combinations (sum, prod, amax, amin) by dtype, split
 * over the worker pool when the caller says the destinations are distinct. Lua-free; called by
 * lt_gather.c only.
 */
#include "lt_moves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_pool.h"

/* {====== index values -> byte offsets ====== */

typedef struct {
  const char *p; /* contiguous index values */
  int is64, base, add;
  int64_t n, stride;
  int64_t *off;
} idx_job;

/* Position of value v in a dim of size n, or -1. */
static inline int64_t norm_pos(int64_t v, int64_t n, int base) {
  if (v < 0) return v >= -n ? v + n : -1;
  v -= base;
  return v >= 0 && v < n ? v : -1;
}

static int idx_piece(void *ctx, int64_t lo, int64_t hi) {
  const idx_job *j = ctx;
  for (int64_t k = lo; k < hi; k++) {
    int64_t v = j->is64 ? ((const int64_t *)j->p)[k] : ((const int32_t *)j->p)[k];
    int64_t pos = norm_pos(v, j->n, j->base);
    if (pos < 0) return 1;
    j->off[k] = (j->add ? j->off[k] : 0) + pos * j->stride;
  }
  return 0;
}

/* off[k] (=, or += with add) position of idx's k-th value (row-major) times stride (bytes), for
   a dim of size n; dim (0-based) names it in the message, -1: a flat position. */
int lt_index_offsets(const lt_tensor *idx, int base, int64_t n, int dim, int64_t stride, int add,
                     int64_t *off, lt_error *err) {
  const lt_tensor *c;
  lt_tensor *owned;
  int rc = lt_contiguous_as(idx, idx->dtype, &c, &owned, err);
  if (rc) return rc;
  int64_t m = lt_numel(c);
  idx_job j = {lt_data(c), c->dtype == LT_INT64, base, add, n, stride, off};
  int64_t bad = m > 0 ? lt_pool_run(m, lt_pool_grain(m, 16), idx_piece, &j) : -1;
  if (bad >= 0) { /* find the first bad value, for the message */
    for (int64_t k = 0; k < m; k++) {
      int64_t v = j.is64 ? ((const int64_t *)j.p)[k] : ((const int32_t *)j.p)[k];
      if (norm_pos(v, n, base) >= 0) continue;
      const char *hint = v == 0 && base == 1 ? " (indices are 1-based)" : "";
      if (dim < 0)
        rc = lt_fail(err, LT_ERANGE, "index %lld is out of range for a tensor of %lld elements%s",
                     (long long)v, (long long)n, hint);
      else
        rc = lt_fail(err, LT_ERANGE, "index %lld is out of range for dim %d of size %lld%s",
                     (long long)v, dim + 1, (long long)n, hint);
      break;
    }
  }
  lt_tensor_free(owned);
  return rc;
}

/* off[k] (+= with add) the byte offset sum_d i_d * st[d] of the k-th position of shape. */
void lt_walk_offsets(int ndim, const int64_t *shape, const int64_t *st, int add, int64_t *off) {
  int64_t n = 1, pos[LT_MAX_NDIM] = {0}, cur = 0;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  for (int64_t k = 0; k < n; k++) {
    off[k] = (add ? off[k] : 0) + cur;
    for (int d = ndim - 1; d >= 0; d--) {
      if (++pos[d] < shape[d]) {
        cur += st[d];
        break;
      }
      cur -= (shape[d] - 1) * st[d];
      pos[d] = 0;
    }
  }
}

int lt_new_offsets(int64_t n, int64_t **out, lt_error *err) {
  int64_t bytes; /* n may count the elements of an expanded view: checked */
  int rc = lt_size_mul(n > 0 ? n : 1, (int64_t)sizeof **out, &bytes, err);
  if (rc) return rc;
  *out = (uint64_t)bytes <= SIZE_MAX ? malloc((size_t)bytes) : NULL;
  return *out ? LT_OK : lt_fail(err, LT_ENOMEM, "out of memory");
}

/* }====== */

/* {====== element moves ====== */

/* Combines n elements of one dtype: d[i] = d[i] op s[i], byte strides dst and sst. */
typedef void (*comb_fn)(lt_putop op, char *d, const char *s, int64_t n, int64_t dst, int64_t sst);

#define LOOP(T, STMT)                                   \
  for (int64_t i = 0; i < n; i++, d += dst, s += sst) { \
    T *a = (T *)(void *)d;                              \
    T v = *(const T *)(const void *)s;                  \
    STMT;                                               \
  }
#define OPS(T, SUM, PROD, MAX, MIN)         \
  switch (op) {                             \
    case LT_PUT_SUM:                        \
    case LT_PUT_MEAN: LOOP(T, SUM); break;  \
    case LT_PUT_PROD: LOOP(T, PROD); break; \
    case LT_PUT_AMAX: LOOP(T, MAX); break;  \
    case LT_PUT_AMIN: LOOP(T, MIN); break;  \
    default: break;                         \
  }
#define COMB_INT(T)                                                                  \
  OPS(T, *a = (T)((uint64_t)*a + (uint64_t)v), *a = (T)((uint64_t)*a * (uint64_t)v), \
      if (v > *a) *a = v, if (v < *a) *a = v)
#define COMB_BOOL(E, T, b) \
  COMB_F(E, T, OPS(T, *a = *a || v, *a = *a && v, *a = *a || v, *a = *a && v))
#define COMB_SINT(E, T, b) COMB_F(E, T, COMB_INT(T))
#define COMB_UINT(E, T, b) COMB_F(E, T, COMB_INT(T))
#define COMB_FLT(E, T, b) \
  COMB_F(E, T, OPS(T, *a += v, *a *= v, if (v != v || v > *a) *a = v, if (v != v || v < *a) *a = v))
#define HALF(TO, FROM, EXPR) \
  float x = FROM(*a);        \
  float y = FROM(v);         \
  *a = TO(EXPR)
#define COMB_HALF(TO, FROM)                                  \
  OPS(uint16_t, HALF(TO, FROM, x + y), HALF(TO, FROM, x *y), \
      HALF(TO, FROM, (y != y || y > x) ? y : x), HALF(TO, FROM, (y != y || y < x) ? y : x))
#define COMB_F16(E, T, b) COMB_F(E, T, COMB_HALF(lt_f32_to_f16, lt_f16_to_f32))
#define COMB_BF16(E, T, b) COMB_F(E, T, COMB_HALF(lt_f32_to_bf16, lt_bf16_to_f32))
#define CMUL(T)                       \
  T r;                                \
  r.re = a->re * v.re - a->im * v.im; \
  r.im = a->re * v.im + a->im * v.re; \
  *a = r
#define COMB_CPX(E, T, b) \
  COMB_F(E, T,            \
         OPS(T, (a->re += v.re, a->im += v.im), CMUL(T), ((void)a, (void)v), ((void)a, (void)v)))
#define COMB_F(E, T, BODY)                                                                         \
  static void comb_##E(lt_putop op, char *d, const char *s, int64_t n, int64_t dst, int64_t sst) { \
    BODY                                                                                           \
  }
LT_DTYPES_BY_CATEGORY(COMB)
#undef COMB_F

static const comb_fn combs[LT_NDTYPES] = {
#define X(E, n, T, c, b, K) [LT_##E] = comb_##E,
    LT_DTYPES(X)
#undef X
};

/* Copies a run of n elements of es bytes. */
static void copy_run(size_t es, char *d, const char *s, int64_t n, int64_t dst, int64_t sst) {
  if (dst == (int64_t)es && sst == (int64_t)es) {
    memcpy(d, s, (size_t)n * es);
    return;
  }
  switch (es) {
#define X(bits)                                                                  \
  case bits / 8:                                                                 \
    for (int64_t i = 0; i < n; i++, d += dst, s += sst)                          \
      *(LT_UBITS_##bits *)(void *)d = *(const LT_UBITS_##bits *)(const void *)s; \
    break;
    LT_ELEMENT_BITS(X)
#undef X
    default:
      for (int64_t i = 0; i < n; i++, d += dst, s += sst) memmove(d, s, es);
  }
}

/* One item: its block of rest elements. */
static void move_block(const lt_moves *m, comb_fn comb, char *d, const char *s) {
  if (m->nr == 0) {
    if (comb)
      comb(m->op, d, s, 1, 0, 0);
    else
      memcpy(d, s, m->es);
    return;
  }
  int in = m->nr - 1;
  int64_t pos[LT_MAX_NDIM] = {0};
  for (;;) {
    if (comb)
      comb(m->op, d, s, m->rs[in], m->rd[in], m->rsr[in]);
    else
      copy_run(m->es, d, s, m->rs[in], m->rd[in], m->rsr[in]);
    int k = in - 1;
    for (; k >= 0; k--) {
      d += m->rd[k];
      s += m->rsr[k];
      if (++pos[k] < m->rs[k]) break;
      d -= m->rs[k] * m->rd[k];
      s -= m->rs[k] * m->rsr[k];
      pos[k] = 0;
    }
    if (k < 0) return;
  }
}

/* Gathers from random places wait on memory: the address PREFETCH items ahead is asked for
   early, so several misses are in flight at once. */
#define PREFETCH 16
#if defined(__GNUC__)
#define LT_PREFETCH(p) __builtin_prefetch(p)
#else
#define LT_PREFETCH(p) ((void)(p))
#endif

/* Items [lo, hi) of a gather of single elements (m->nr == 0, LT_PUT_COPY, m->soff), moved as
   1- to 16-byte words; returns 0, having done nothing, for another element size. */
static int gather_elements(const lt_moves *m, int64_t lo, int64_t hi) {
  char *d = m->dst + lo * m->dstep;
  switch (m->es) {
#define X(bits)                                                             \
  case bits / 8:                                                            \
    if (m->doff)                                                            \
      for (int64_t b = lo; b < hi; b++)                                     \
        *(LT_UBITS_##bits *)(void *)(m->dst + m->doff[b]) =                 \
            *(const LT_UBITS_##bits *)(const void *)(m->src + m->soff[b]);  \
    else                                                                    \
      for (int64_t b = lo; b < hi; b++, d += m->dstep) {                    \
        if (b + PREFETCH < hi) LT_PREFETCH(m->src + m->soff[b + PREFETCH]); \
        *(LT_UBITS_##bits *)(void *)d =                                     \
            *(const LT_UBITS_##bits *)(const void *)(m->src + m->soff[b]);  \
      }                                                                     \
    break;
    LT_ELEMENT_BITS(X)
#undef X
    default: return 0;
  }
  return 1;
}

static int moves_piece(void *ctx, int64_t lo, int64_t hi) {
  const lt_moves *m = ctx;
  if (m->nr == 0 && m->op == LT_PUT_COPY && m->soff && gather_elements(m, lo, hi)) return 0;
  comb_fn comb = m->op == LT_PUT_COPY ? NULL : combs[m->dt];
  for (int64_t b = lo; b < hi; b++)
    move_block(m, comb, m->dst + (m->doff ? m->doff[b] : b * m->dstep),
               m->src + (m->soff ? m->soff[b] : b * m->sstep));
  return 0;
}

/* Drops size-1 rest dims and merges neighbours that step evenly on both sides. Returns 0 when
   the blocks are empty. */
static int coalesce(lt_moves *m) {
  int k = 0;
  for (int i = 0; i < m->nr; i++) {
    if (m->rs[i] == 0) return 0;
    if (m->rs[i] == 1) continue;
    if (k > 0 && m->rd[k - 1] == m->rd[i] * m->rs[i] && m->rsr[k - 1] == m->rsr[i] * m->rs[i]) {
      m->rs[k - 1] *= m->rs[i];
      m->rd[k - 1] = m->rd[i];
      m->rsr[k - 1] = m->rsr[i];
      continue;
    }
    m->rs[k] = m->rs[i], m->rd[k] = m->rd[i], m->rsr[k] = m->rsr[i];
    k++;
  }
  m->nr = k;
  return 1;
}

/* Runs the moves; par: the items may be split over the pool (their destinations distinct). */
void lt_moves_run(lt_moves *m, int par) {
  if (m->n == 0 || !coalesce(m)) return;
  if (!par) {
    moves_piece(m, 0, m->n);
    return;
  }
  int64_t rest = 1;
  for (int i = 0; i < m->nr; i++) rest *= m->rs[i];
  double item = (double)rest * 2.0 * (double)m->es + (m->doff ? 8 : 0) + (m->soff ? 8 : 0);
  lt_pool_run(m->n, lt_pool_grain(m->n, item), moves_piece, m);
}

/* }====== */

/* {====== reductions: identities and the mean ====== */

/* The value the positions a scatter_reduce writes start from when include_self is false. */
void lt_put_identity(lt_putop op, lt_dtype dt, lt_scalar *s) {
  const lt_dtype_info *in = &lt_dtypes[dt];
  int bits = (int)in->size * 8, big = op == LT_PUT_AMIN; /* amin starts from the largest */
  s->kind = LT_SK_INT;
  s->v.i = op == LT_PUT_PROD;
  s->im = 0;
  if (op != LT_PUT_AMAX && op != LT_PUT_AMIN) return;
  if (in->is_float) {
    s->kind = LT_SK_FLOAT;
    s->v.f = big ? INFINITY : -INFINITY;
  } else if (dt == LT_BOOL) {
    s->v.i = big;
  } else if (in->is_signed) {
    int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    s->v.i = big ? hi : -hi - 1;
  } else if (big && bits == 64) {
    s->kind = LT_SK_UINT;
    s->v.u = UINT64_MAX;
  } else if (big) {
    s->v.i = ((int64_t)1 << bits) - 1;
  }
}

/* The element at p divided by the count c > 0 (floor division for integers, as torch's mean). */
void lt_mean_div(lt_dtype dt, char *p, int64_t c) {
  switch (dt) {
#define DIV_BOOL(E, T, b)
#define DIV_SINT(E, T, b)                   \
  case LT_##E: {                            \
    int64_t x = *(T *)(void *)p, q = x / c; \
    if (x % c != 0 && x < 0) q--;           \
    *(T *)(void *)p = (T)q;                 \
    break;                                  \
  }
/* DIV_CASE: the element, of C type T, set to v (DIV_AT(T): its value before) */
#define DIV_AT(T) (*(T *)(void *)p)
#define DIV_CASE(E, T, v) \
  case LT_##E:            \
    DIV_AT(T) = (v);      \
    break;
#define DIV_UINT(E, T, b) DIV_CASE(E, T, (T)(DIV_AT(T) / (uint64_t)c))
#define DIV_FLT(E, T, b) DIV_CASE(E, T, DIV_AT(T) / (T)c)
#define DIV_F16(E, T, b) DIV_CASE(E, T, lt_f32_to_f16(lt_f16_to_f32(DIV_AT(T)) / (float)c))
#define DIV_BF16(E, T, b) DIV_CASE(E, T, lt_f32_to_bf16(lt_bf16_to_f32(DIV_AT(T)) / (float)c))
#define DIV_CPX(E, T, b)   \
  case LT_##E: {           \
    T *z = (T *)(void *)p; \
    z->re /= c;            \
    z->im /= c;            \
    break;                 \
  }
    LT_DTYPES_BY_CATEGORY(DIV)
    default: break;
  }
}

/* }====== */
