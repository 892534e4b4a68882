/*
 * lt_layout.c -- stacks, split bounds, movedim, take_along_dim, repeat_interleave, rot90,
 * diag_embed, broadcast_tensors, kron, tensordot and inner (lt_layout.h), composed of the core's
 * views and operations. Lua-free. Called by the binding (lua_layout.c) only.
 */
#include <stdlib.h>

#include "lt_copy.h"
#include "lt_funcs.h"
#include "lt_gather.h"
#include "lt_iter.h"
#include "lt_layout.h"
#include "lt_linalg.h"
#include "lt_shape.h"

/* {====== stacking and splitting ====== */

/* v (a frame of t) with a size-1 dim inserted at position at. */
static void insert_one(lt_tensor *v, int at) {
  for (int i = v->ndim; i > at; i--) {
    v->shape[i] = v->shape[i - 1];
    v->strides[i] = v->strides[i - 1];
  }
  v->shape[at] = 1;
  v->strides[at] = 1;
  v->ndim++;
}

/* The frame of t as stack `kind` takes it (enough dims); the dim to concatenate along. */
static int stack_view(lt_stack_kind kind, lt_frame *f, const lt_tensor *t) {
  lt_tensor *v = lt_frame_of(f, t);
  switch (kind) {
    case LT_HSTACK:
      if (v->ndim == 0) insert_one(v, 0);
      return 0; /* the caller picks 1 unless the first tensor is 1-d */
    case LT_VSTACK:
      while (v->ndim < 2) insert_one(v, 0);
      return 0;
    case LT_DSTACK:
      if (v->ndim == 0) insert_one(v, 0);
      if (v->ndim == 1) insert_one(v, 0);
      if (v->ndim == 2) insert_one(v, 2);
      return 2;
    case LT_COLUMN_STACK:
      if (v->ndim == 0) insert_one(v, 0);
      if (v->ndim == 1) insert_one(v, 1);
      return 1;
  }
  return 0;
}

int lt_stack_as(lt_stack_kind kind, const lt_tensor *const *ts, int n, lt_tensor **out,
                lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected a non-empty list of tensors");
  lt_frame *fs = malloc((size_t)n * sizeof *fs);
  const lt_tensor **vs = malloc((size_t)n * sizeof *vs);
  int rc = LT_OK, dim = 0;
  if (!fs || !vs) {
    rc = lt_fail(err, LT_ENOMEM, "not enough memory for %d tensors", n);
  } else {
    for (int i = 0; i < n; i++) {
      dim = stack_view(kind, &fs[i], ts[i]);
      vs[i] = &fs[i].t;
    }
    if (kind == LT_HSTACK) dim = vs[0]->ndim == 1 ? 0 : 1;
    rc = lt_cat(vs, n, dim, out, err);
  }
  free(fs);
  free(vs);
  return rc;
}

int lt_split_bounds(int64_t total, int64_t sections, int nidx, const int64_t *indices,
                    int64_t *starts, int64_t *lens, lt_error *err) {
  if (!indices) {
    if (sections < 1)
      return lt_fail(err, LT_EARG, "number of sections must be positive, got %lld",
                     (long long)sections);
    int64_t q = total / sections, r = total % sections, at = 0;
    for (int64_t i = 0; i < sections; i++) {
      starts[i] = at;
      lens[i] = q + (i < r);
      at += lens[i];
    }
    return LT_OK;
  }
  int64_t prev = 0;
  for (int i = 0; i <= nidx; i++) {
    int64_t cut = total;
    if (i < nidx) {
      cut = indices[i];
      if (cut < 0) cut = cut < -total ? 0 : cut + total;
      if (cut > total) cut = total;
    }
    starts[i] = prev;
    lens[i] = cut > prev ? cut - prev : 0;
    prev = cut;
  }
  return LT_OK;
}

/* }====== */

/* {====== moving, taking, repeating ====== */

/* LT_EARG unless the n dims of list (named what) are distinct. */
static int distinct_dims(int n, const int *dims, const char *what, lt_error *err) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (dims[i] == dims[j])
        return lt_fail(err, LT_EARG, "dim %d appears twice in %s", dims[i] + 1, what);
  return LT_OK;
}

int lt_movedim(const lt_tensor *t, int n, const int *src, const int *dst, lt_tensor **out,
               lt_error *err) {
  int rc, nd = t->ndim, perm[LT_MAX_NDIM], used[LT_MAX_NDIM] = {0}, taken[LT_MAX_NDIM] = {0};
  if ((rc = distinct_dims(n, src, "source", err)) ||
      (rc = distinct_dims(n, dst, "destination", err)))
    return rc;
  if (nd == 0) return lt_tensor_alias(t, out, err); /* dims 1 and -1 of a 0-d tensor */
  for (int i = 0; i < nd; i++) perm[i] = -1;
  for (int i = 0; i < n; i++) {
    perm[dst[i]] = src[i];
    used[src[i]] = taken[dst[i]] = 1;
  }
  for (int i = 0, s = 0; i < nd; i++) {
    if (taken[i]) continue;
    while (used[s]) s++;
    perm[i] = s++;
  }
  return lt_permute(t, perm, out, err);
}

int lt_take_along_dim(const lt_tensor *t, const lt_tensor *idx, int dim, int base, lt_tensor **out,
                      lt_error *err) {
  int rc;
  if ((rc = lt_check_index_dtype(idx, "indices", err))) return rc;
  lt_tensor *a = NULL, *b = NULL;
  if (dim < 0) {
    int64_t flat = -1;
    if ((rc = lt_reshape(t, 1, &flat, &a, NULL, err)) == LT_OK &&
        (rc = lt_reshape(idx, 1, &flat, &b, NULL, err)) == LT_OK)
      rc = lt_gather(a, 0, b, base, out, err);
  } else if (t->ndim != idx->ndim) {
    rc = lt_fail(err, LT_EARG, "input and indices must have the same number of dims, got %d and %d",
                 t->ndim, idx->ndim);
  } else {
    /* the broadcast shape of every dim but dim, each operand keeping its own size there */
    int64_t sa[LT_MAX_NDIM], sb[LT_MAX_NDIM];
    for (int d = 0; d < t->ndim; d++) {
      int64_t x = t->shape[d], y = idx->shape[d];
      if (d != dim && x != y && x != 1 && y != 1) {
        char s1[96], s2[96];
        lt_shape_str(t->ndim, t->shape, s1, sizeof s1);
        lt_shape_str(idx->ndim, idx->shape, s2, sizeof s2);
        return lt_fail(err, LT_EARG, "input %s and indices %s do not broadcast in dim %d", s1, s2,
                       d + 1);
      }
      sa[d] = sb[d] = x == 1 ? y : x;
    }
    if (t->ndim) {
      sa[dim] = t->shape[dim];
      sb[dim] = idx->shape[dim];
    }
    if ((rc = lt_expand(t, t->ndim, sa, &a, err)) == LT_OK &&
        (rc = lt_expand(idx, idx->ndim, sb, &b, err)) == LT_OK)
      rc = lt_gather(a, dim, b, base, out, err);
  }
  lt_tensor_free(a);
  lt_tensor_free(b);
  return rc;
}

/* The repeats as an int64 contiguous tensor of n values (one broadcast to n), into *res
   (*owned: a copy the caller frees). */
static int read_repeats(const lt_tensor *r, int64_t n, const int64_t **vals, int64_t *step,
                        lt_tensor **owned, lt_error *err) {
  const lt_tensor *c = NULL;
  if (!lt_dtypes[r->dtype < LT_NDTYPES ? r->dtype : LT_BOOL].is_int)
    return lt_fail(err, LT_EARG, "repeats must be an integer tensor, got %s",
                   lt_dtype_name(r->dtype));
  if (r->ndim > 1)
    return lt_fail(err, LT_EARG, "repeats must be a 0-d or 1-d tensor, got %d dims", r->ndim);
  int64_t m = lt_numel(r);
  if (m != 1 && m != n)
    return lt_fail(err, LT_EARG, "repeats must have one value or one per element (%lld), got %lld",
                   (long long)n, (long long)m);
  int rc = lt_contiguous_as(r, LT_INT64, &c, owned, err);
  if (rc) return rc;
  *vals = (const int64_t *)lt_data(c);
  *step = m == 1 ? 0 : 1;
  return LT_OK;
}

int lt_repeat_index(const lt_tensor *repeats, int64_t count, int64_t n, int64_t output_size,
                    int64_t base, lt_tensor **out, lt_error *err) {
  const int64_t *rv = &count;
  int64_t step = 0, total = 0;
  lt_tensor *owned = NULL, *res = NULL;
  int rc = LT_OK;
  if (!repeats && count < 0)
    return lt_fail(err, LT_EARG, "repeats must be non-negative, got %lld", (long long)count);
  if (repeats && (rc = read_repeats(repeats, n, &rv, &step, &owned, err))) return rc;
  for (int64_t i = 0; i < n && rc == LT_OK; i++) {
    int64_t r = rv[i * step];
    if (r < 0)
      rc = lt_fail(err, LT_EARG, "repeats must be non-negative, got %lld", (long long)r);
    else if (r > INT64_MAX - total)
      rc = lt_fail(err, LT_ERANGE, "the repeats add up to more than an int64 holds");
    else
      total += r;
  }
  if (rc == LT_OK && output_size >= 0 && output_size != total)
    rc = lt_fail(err, LT_EARG, "output_size %lld is not the sum of the repeats (%lld)",
                 (long long)output_size, (long long)total);
  if (rc == LT_OK && (rc = lt_tensor_new(LT_INT64, 1, &total, 0, &res, err)) == LT_OK) {
    int64_t *o = (int64_t *)lt_data(res), k = 0;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0, r = rv[i * step]; j < r; j++) o[k++] = i + base;
  }
  lt_tensor_free(owned);
  return lt_give(rc, res, out);
}

int lt_repeat_positions(const lt_tensor *repeats, int64_t output_size, int64_t base,
                        lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(repeats, err);
  if (rc) return rc;
  if (repeats->ndim != 1)
    return lt_fail(err, LT_EARG, "repeats must be a 1-d tensor, got %d dims", repeats->ndim);
  lt_tensor *res = NULL;
  rc = lt_repeat_index(repeats, 0, repeats->shape[0], output_size, base, &res, err);
  if (rc == LT_OK && repeats->dtype != LT_INT64) rc = lt_cast_over(&res, repeats->dtype, err);
  return lt_give(rc, res, out);
}

int lt_repeat_interleave(const lt_tensor *t, const lt_tensor *repeats, int64_t count, int dim,
                         int64_t output_size, lt_tensor **out, lt_error *err) {
  lt_tensor *flat = NULL, *idx = NULL;
  int rc = lt_check_readable(t, err);
  if (rc == LT_OK && (dim < 0 || t->ndim == 0)) {
    int64_t all = -1;
    rc = lt_reshape(t, 1, &all, &flat, NULL, err);
    dim = 0;
  }
  const lt_tensor *src = flat ? flat : t;
  if (rc == LT_OK) rc = lt_repeat_index(repeats, count, src->shape[dim], output_size, 0, &idx, err);
  if (rc == LT_OK) rc = lt_index_select(src, dim, idx, 0, out, err);
  lt_tensor_free(flat);
  lt_tensor_free(idx);
  return rc;
}

int lt_rot90(const lt_tensor *t, int64_t k, int d0, int d1, lt_tensor **out, lt_error *err) {
  if (t->ndim < 2)
    return lt_fail(err, LT_EARG, "expected a tensor of at least 2 dims, got %d", t->ndim);
  if (d0 == d1) return lt_fail(err, LT_EARG, "the rotation dims are the same dim (%d)", d0 + 1);
  k %= 4;
  if (k < 0) k += 4;
  if (k == 0) return lt_clone(t, out, err);
  if (k == 2) return lt_flip(t, 2, (const int[]){d0, d1}, out, err);
  lt_tensor *f = NULL; /* flipped along d1 then transposed (k 1), along d0 (k 3), as torch */
  int rc = lt_flip(t, 1, k == 1 ? &d1 : &d0, &f, err);
  if (rc == LT_OK) rc = lt_transpose(f, d0, d1, out, err);
  lt_tensor_free(f);
  return rc;
}

int lt_diag_embed(const lt_tensor *t, int64_t offset, int d1, int d2, lt_tensor **out,
                  lt_error *err) {
  int rc, nd = t->ndim + 1;
  if (t->ndim < 1) return lt_fail(err, LT_EARG, "expected a tensor of at least 1 dim, got 0");
  if ((rc = lt_check_readable(t, err))) return rc;
  if (d1 == d2) return lt_fail(err, LT_EARG, "dim1 and dim2 are the same dim (%d)", d1 + 1);
  int64_t len = t->shape[t->ndim - 1], shape[LT_MAX_NDIM + 1];
  if (offset > INT64_MAX - len || offset < len - INT64_MAX)
    return lt_fail(err, LT_ERANGE, "offset %lld is too large", (long long)offset);
  int64_t side = len + (offset < 0 ? -offset : offset);
  if (nd > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "the result would have more than %d dims", LT_MAX_NDIM);
  for (int i = 0, j = 0; i < nd; i++) shape[i] = i == d1 || i == d2 ? side : t->shape[j++];
  lt_tensor *res = NULL, *diag = NULL;
  if ((rc = lt_tensor_new(t->dtype, nd, shape, 1, &res, err)) == LT_OK &&
      (rc = lt_diagonal(res, offset, d1, d2, &diag, err)) == LT_OK)
    rc = lt_copy(diag, t, err);
  lt_tensor_free(diag);
  return lt_give(rc, res, out);
}

int lt_diagflat(const lt_tensor *t, int64_t offset, lt_tensor **out, lt_error *err) {
  int64_t all = -1;
  lt_tensor *flat = NULL;
  int rc = lt_reshape(t, 1, &all, &flat, NULL, err);
  if (rc == LT_OK) rc = lt_diag(flat, offset, out, err);
  lt_tensor_free(flat);
  return rc;
}

int lt_broadcast_tensors(const lt_tensor *const *ts, int n, lt_tensor **outs, lt_error *err) {
  int64_t shape[LT_MAX_NDIM];
  int nd, rc = lt_broadcast_shape(n, ts, &nd, shape, err);
  for (int i = 0; i < n; i++) outs[i] = NULL;
  for (int i = 0; i < n && rc == LT_OK; i++) rc = lt_broadcast_to(ts[i], nd, shape, &outs[i], err);
  if (rc)
    for (int i = 0; i < n; i++) {
      lt_tensor_free(outs[i]);
      outs[i] = NULL;
    }
  return rc;
}

/* }====== */

/* {====== products ====== */

/* The frame of t with 2 nd dims: t's dims (aligned to the last, size-1 ones in front) at the
   even positions (odd: second 0) or the odd ones, size 1 elsewhere. */
static void interleave(lt_frame *f, const lt_tensor *t, int nd, int second) {
  lt_tensor *v = lt_frame_of(f, t);
  v->ndim = 2 * nd;
  for (int i = 0; i < nd; i++) {
    int src = i - (nd - t->ndim), at = 2 * i + second;
    v->shape[2 * i + 1 - second] = 1;
    v->strides[2 * i + 1 - second] = 0;
    v->shape[at] = src >= 0 ? t->shape[src] : 1;
    v->strides[at] = src >= 0 ? t->strides[src] : 0;
  }
}

int lt_kron(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
  if (2 * nd > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "tensors of more than %d dims are not supported", LT_MAX_NDIM / 2);
  lt_frame fa, fb;
  interleave(&fa, a, nd, 0);
  interleave(&fb, b, nd, 1);
  lt_tensor *p = NULL;
  int rc = lt_binary(LT_MUL, &(lt_operand){.t = &fa.t}, &(lt_operand){.t = &fb.t}, NULL, &p, err);
  if (rc) return rc;
  int64_t shape[LT_MAX_NDIM]; /* no overflow: the product holds these sizes' elements */
  for (int i = 0; i < nd; i++) shape[i] = p->shape[2 * i] * p->shape[2 * i + 1];
  rc = lt_view(p, nd, shape, out, err);
  lt_tensor_free(p);
  return rc;
}

/* The n x m matrix view of t permuted by perm, its first `rows` dims merged into n (a copy when
   the strides cannot express it). */
static int as_matrix(const lt_tensor *t, const int *perm, int rows, lt_tensor **out,
                     lt_error *err) {
  lt_tensor *p = NULL;
  int64_t shape[2] = {1, 1};
  for (int i = 0; i < t->ndim; i++) shape[i >= rows] *= t->shape[perm[i]];
  int rc = lt_permute(t, perm, &p, err);
  if (rc == LT_OK) rc = lt_reshape(p, 2, shape, out, NULL, err);
  lt_tensor_free(p);
  return rc;
}

int lt_tensordot(const lt_tensor *a, const lt_tensor *b, int n, const int *da, const int *db,
                 lt_tensor **out, lt_error *err) {
  int rc, pa[LT_MAX_NDIM], pb[LT_MAX_NDIM], ia = 0, ib = n, in_a[LT_MAX_NDIM] = {0},
                                            in_b[LT_MAX_NDIM] = {0};
  if ((rc = distinct_dims(n, da, "a's dims", err)) || (rc = distinct_dims(n, db, "b's dims", err)))
    return rc;
  for (int i = 0; i < n; i++) {
    if (a->shape[da[i]] != b->shape[db[i]])
      return lt_fail(err, LT_EARG,
                     "contracted dims must have one size, got %lld (dim %d of a) and %lld (dim "
                     "%d of b)",
                     (long long)a->shape[da[i]], da[i] + 1, (long long)b->shape[db[i]], db[i] + 1);
    in_a[da[i]] = in_b[db[i]] = 1;
    pa[a->ndim - n + i] = da[i]; /* a: its free dims, then the contracted ones */
    pb[i] = db[i];               /* b: the contracted dims, then its free ones */
  }
  int64_t shape[LT_MAX_NDIM];
  int nd = 0;
  for (int d = 0; d < a->ndim; d++)
    if (!in_a[d]) shape[nd++] = a->shape[pa[ia++] = d];
  for (int d = 0; d < b->ndim; d++)
    if (!in_b[d]) shape[nd++] = b->shape[pb[ib++] = d];
  if (nd > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "the result would have more than %d dims", LT_MAX_NDIM);
  lt_tensor *ma = NULL, *mb = NULL, *p = NULL;
  if ((rc = as_matrix(a, pa, a->ndim - n, &ma, err)) == LT_OK &&
      (rc = as_matrix(b, pb, n, &mb, err)) == LT_OK && (rc = lt_matmul(ma, mb, &p, err)) == LT_OK)
    rc = lt_view(p, nd, shape, out, err);
  lt_tensor_free(ma);
  lt_tensor_free(mb);
  lt_tensor_free(p);
  return rc;
}

int lt_inner(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err) {
  if (a->ndim == 0 || b->ndim == 0)
    return lt_binary(LT_MUL, &(lt_operand){.t = a}, &(lt_operand){.t = b}, NULL, out, err);
  int la = a->ndim - 1, lb = b->ndim - 1;
  if (a->shape[la] != b->shape[lb]) {
    char s1[96], s2[96];
    lt_shape_str(a->ndim, a->shape, s1, sizeof s1);
    lt_shape_str(b->ndim, b->shape, s2, sizeof s2);
    return lt_fail(err, LT_EARG, "the last dims must have one size, got shapes %s and %s", s1, s2);
  }
  return lt_tensordot(a, b, 1, &la, &lb, out, err);
}

/* }====== */
