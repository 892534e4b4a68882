/*
 * lt_gather.c -- indexing with tensors (lt_gather.h): every operation, built on lt_moves.h.
 *
 * Each is one pattern: a list of n items, item b moving a block of "rest" elements (the dims an
 * index keeps whole, possibly none) from src + soff[b] to dst + doff[b], where an offset array
 * may be replaced by a constant step. This file works out the shapes, checks them, and computes
 * the offsets (lt_index_offsets checks every index value); only then is anything written.
 * Reads split the items over the pool; writes go in item order. Lua-free; called by the
 * binding. Calls lt_moves.c, lt_copy.c, lt_iter.c, lt_tensor.c.
 */
#include "lt_moves.h"

#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"

/* {====== checks ====== */

int lt_check_index_dtype(const lt_tensor *idx, const char *what, lt_error *err) {
  if (idx->dtype == LT_INT64 || idx->dtype == LT_INT32) return lt_check_readable(idx, err);
  return lt_fail(err, LT_EARG, "%s must be an int64 or int32 tensor (got %s)", what,
                 lt_dtype_name(idx->dtype));
}

static const char *const putop_names[] = {"copy", "sum", "prod", "mean", "amax", "amin"};

int lt_check_putop(lt_putop op, lt_dtype dt, lt_error *err) {
  if (dt >= LT_NDTYPES)
    return lt_fail(err, LT_EOPAQUE, "the tensor's dtype cannot be computed with");
  int bad = (lt_dtypes[dt].is_complex && (op == LT_PUT_AMAX || op == LT_PUT_AMIN)) ||
            (dt == LT_BOOL && op == LT_PUT_MEAN);
  if (bad)
    return lt_fail(err, LT_EARG, "reduce '%s' is not supported for %s", putop_names[op],
                   lt_dtype_name(dt));
  return LT_OK;
}

static void shape_str(const lt_tensor *t, char *buf, size_t n) {
  lt_shape_str(t->ndim, t->shape, buf, n);
}

/* }====== */

/* {====== advanced indexing ====== */

typedef struct {
  int nb, ondim, bpos, nr;
  int64_t nB;
  int64_t bshape[LT_MAX_NDIM], oshape[LT_MAX_NDIM];
  int rdims[LT_MAX_NDIM];
} adv_plan;

static int adv_plan_make(const lt_tensor *v, const lt_adv_key *k, adv_plan *p, lt_error *err) {
  if (k->n < 1 || k->n > v->ndim)
    return lt_fail(err, LT_EARG, "too many indices for a tensor of %d dims", v->ndim);
  for (int j = 0; j < k->n; j++) {
    int rc = lt_check_index_dtype(k->idx[j], "an index", err);
    if (rc) return rc;
    if (k->dims[j] < 0 || k->dims[j] >= v->ndim || (j > 0 && k->dims[j] <= k->dims[j - 1]))
      return lt_fail(err, LT_EARG, "index dims must be distinct and increasing");
  }
  int rc = lt_broadcast_shape(k->n, k->idx, &p->nb, p->bshape, err);
  if (rc) return rc;
  /* index tensors may be expanded views: their broadcast shape is checked before anything is
     sized from it */
  if ((rc = lt_shape_numel(p->nb, p->bshape, &p->nB, err))) return rc;
  p->bpos = k->dims[k->n - 1] - k->dims[0] == k->n - 1 ? k->dims[0] : 0; /* adjacent: in place */
  p->nr = 0;
  for (int d = 0, j = 0; d < v->ndim; d++) {
    if (j < k->n && k->dims[j] == d)
      j++;
    else
      p->rdims[p->nr++] = d;
  }
  p->ondim = p->nb + p->nr;
  if (p->ondim > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "the result would have %d dims (at most %d)", p->ondim,
                   LT_MAX_NDIM);
  for (int i = 0; i < p->nr; i++) p->oshape[i < p->bpos ? i : i + p->nb] = v->shape[p->rdims[i]];
  for (int i = 0; i < p->nb; i++) p->oshape[p->bpos + i] = p->bshape[i];
  return LT_OK;
}

/* The byte offsets in v of the nB index positions (every value checked). */
static int adv_offsets(const lt_tensor *v, const lt_adv_key *k, const adv_plan *p, int base,
                       int64_t **res, lt_error *err) {
  int64_t *off = NULL;
  int rc = lt_new_offsets(p->nB, &off, err);
  if (rc) return rc;
  int64_t es = (int64_t)lt_esize(v);
  for (int j = 0; j < k->n && p->nB > 0; j++) {
    lt_tensor *e;
    rc = lt_broadcast_to(k->idx[j], p->nb, p->bshape, &e, err);
    if (!rc) {
      int d = k->dims[j];
      rc = lt_index_offsets(e, base, v->shape[d], k->udims[j], v->strides[d] * es, j > 0, off, err);
      lt_tensor_free(e);
    }
    if (rc) {
      free(off);
      return rc;
    }
  }
  *res = off;
  return LT_OK;
}

int lt_adv_shape(const lt_tensor *v, const lt_adv_key *key, int *ndim, int64_t *shape,
                 lt_error *err) {
  adv_plan p;
  int rc = adv_plan_make(v, key, &p, err);
  if (rc) return rc;
  *ndim = p.ondim;
  memcpy(shape, p.oshape, (size_t)p.ondim * sizeof *shape);
  return LT_OK;
}

int lt_adv_read(const lt_tensor *v, const lt_adv_key *key, int base, lt_tensor **out,
                lt_error *err) {
  adv_plan p;
  int64_t *off = NULL;
  lt_tensor *o = NULL;
  int rc = lt_check_readable(v, err);
  if (!rc) rc = adv_plan_make(v, key, &p, err);
  if (!rc) rc = adv_offsets(v, key, &p, base, &off, err);
  if (!rc) rc = lt_tensor_new(v->dtype, p.ondim, p.oshape, 0, &o, err);
  if (rc) {
    free(off);
    return rc;
  }
  int64_t es = (int64_t)lt_esize(v);
  lt_moves m = {.dt = v->dtype, .es = (size_t)es, .op = LT_PUT_COPY, .n = p.nB};
  m.dst = lt_data(o);
  m.src = lt_data(v);
  m.soff = off;
  m.dstep = es;
  for (int i = p.bpos + p.nb; i < p.ondim; i++) m.dstep *= p.oshape[i];
  m.nr = p.nr;
  for (int i = 0; i < p.nr; i++) {
    m.rs[i] = v->shape[p.rdims[i]];
    m.rd[i] = o->strides[i < p.bpos ? i : i + p.nb] * es;
    m.rsr[i] = v->strides[p.rdims[i]] * es;
  }
  lt_moves_run(&m, 1);
  free(off);
  *out = o;
  return LT_OK;
}

typedef union {
  lt_c128 c;
  int64_t i;
  char b[16];
} elem_buf;

/* The scalar s stored as one element of dt into buf. */
static int store_scalar(lt_dtype dt, elem_buf *buf, const lt_scalar *s, lt_error *err) {
  if (lt_store(dt, buf->b, s) == LT_STORE_OK) return LT_OK;
  char sv[64];
  lt_scalar_str(s, sv, sizeof sv);
  return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, sv, lt_dtype_name(dt));
}

/* src as a tensor of dt that shares no memory with t: src itself, or a new copy (*conv). */
static int source_for(const lt_tensor *t, const lt_tensor *src, const lt_tensor **res,
                      lt_tensor **conv, lt_error *err) {
  *conv = NULL;
  *res = src;
  int rc = lt_check_readable(src, err);
  if (rc || (src->dtype == t->dtype && !lt_shares_block(src, t))) return rc;
  rc = lt_tensor_new(t->dtype, src->ndim, src->shape, 0, conv, err);
  if (!rc) rc = lt_copy(*conv, src, err);
  if (rc) {
    lt_tensor_free(*conv);
    *conv = NULL;
    return rc;
  }
  *res = *conv;
  return LT_OK;
}

int lt_adv_write(lt_tensor *v, const lt_adv_key *key, const lt_tensor *src, const lt_scalar *fill,
                 lt_putop op, int exact, int base, lt_error *err) {
  adv_plan p;
  elem_buf buf;
  int64_t *off = NULL, *soff = NULL, es = (int64_t)lt_esize(v);
  lt_tensor *conv = NULL, *bc = NULL;
  char a[96], b[96];
  int rc = lt_check_writable(v, err);
  if (!rc) rc = lt_check_no_internal_overlap(v, err);
  if (!rc) rc = lt_check_putop(op, v->dtype, err);
  if (!rc) rc = adv_plan_make(v, key, &p, err);
  if (rc) return rc;
  if (!src) {
    rc = store_scalar(v->dtype, &buf, fill, err);
  } else {
    lt_shape_str(p.ondim, p.oshape, b, sizeof b);
    shape_str(src, a, sizeof a);
    int same = src->ndim == p.ondim;
    for (int i = 0; same && i < p.ondim; i++) same = src->shape[i] == p.oshape[i];
    if (exact && !same)
      return lt_fail(err, LT_EARG, "source of shape %s does not match the indexed shape %s", a, b);
    rc = source_for(v, src, &src, &conv, err);
    if (!rc && lt_broadcast_to(src, p.ondim, p.oshape, &bc, NULL))
      rc = lt_fail(err, LT_EARG, "value of shape %s cannot be broadcast to the indexed shape %s", a,
                   b);
  }
  if (!rc) rc = adv_offsets(v, key, &p, base, &off, err);
  if (!rc && bc) rc = lt_new_offsets(p.nB, &soff, err);
  if (!rc) {
    lt_moves m = {.dt = v->dtype, .es = (size_t)es, .op = op, .n = p.nB};
    m.dst = lt_data(v);
    m.doff = off;
    m.src = bc ? lt_data(bc) : buf.b;
    m.nr = p.nr;
    if (bc) {
      int64_t bst[LT_MAX_NDIM];
      for (int i = 0; i < p.nb; i++) bst[i] = bc->strides[p.bpos + i] * es;
      lt_walk_offsets(p.nb, p.bshape, bst, 0, soff);
      m.soff = soff;
    }
    for (int i = 0; i < p.nr; i++) {
      m.rs[i] = v->shape[p.rdims[i]];
      m.rd[i] = v->strides[p.rdims[i]] * es;
      m.rsr[i] = bc ? bc->strides[i < p.bpos ? i : i + p.nb] * es : 0;
    }
    lt_moves_run(&m, 0);
  }
  free(off);
  free(soff);
  lt_tensor_free(bc);
  lt_tensor_free(conv);
  return rc;
}

/* }====== */

/* {====== along one dim ====== */

/* A plain copy of n items of like's dtype from src to dst (the caller sets the steps or offsets
   and any rest dims). */
static lt_moves copy_moves(const lt_tensor *like, int64_t n, char *dst, const char *src) {
  lt_moves m = {.dt = like->dtype, .es = lt_esize(like), .op = LT_PUT_COPY, .n = n};
  m.dst = dst;
  m.src = src;
  return m;
}

/* The n elements of the new contiguous o: src's elements at the byte offsets off from its data,
   on the pool's threads. */
static void gather_into(lt_tensor *o, const lt_tensor *src, const int64_t *off, int64_t n) {
  lt_moves m = copy_moves(src, n, lt_data(o), lt_data(src));
  m.dstep = (int64_t)m.es;
  m.soff = off;
  lt_moves_run(&m, 1);
}

/* t in f, a 0-d tensor seen as 1-d of size 1. */
static lt_tensor *as_1d(lt_frame *f, const lt_tensor *t) {
  lt_tensor *v = lt_frame_of(f, t);
  if (v->ndim == 0) {
    v->ndim = 1;
    v->shape[0] = 1;
    v->strides[0] = 1;
  }
  return v;
}

/* The index idx of index_select and its kin as a 1-d view in f. */
static int index_1d(const lt_tensor *idx, lt_frame *f, lt_tensor **res, lt_error *err) {
  int rc = lt_check_index_dtype(idx, "index", err);
  if (rc) return rc;
  if (idx->ndim > 1)
    return lt_fail(err, LT_EARG, "index must be 0-d or 1-d (got %d dims)", idx->ndim);
  *res = as_1d(f, idx);
  return LT_OK;
}

static int one_dim_key(const lt_tensor *t, int dim, const lt_tensor *idx, lt_frame *f,
                       lt_adv_key *k, lt_error *err) {
  int rc = lt_check_dim(t, dim, err);
  lt_tensor *v = NULL;
  if (!rc) rc = index_1d(idx, f, &v, err);
  if (rc) return rc;
  k->n = 1;
  k->dims[0] = k->udims[0] = dim;
  k->idx[0] = v;
  return LT_OK;
}

/* A 0-d t counts as 1-d of size 1 (tv), indexed by one position. */
static int zero_d_check(const lt_tensor *t, const lt_tensor *idx, lt_error *err) {
  if (t->ndim == 0 && lt_numel(idx) != 1)
    return lt_fail(err, LT_EARG, "a 0-d tensor takes an index of one element (got %lld)",
                   (long long)lt_numel(idx));
  return LT_OK;
}

int lt_index_select(const lt_tensor *t, int dim, const lt_tensor *idx, int base, lt_tensor **out,
                    lt_error *err) {
  lt_frame ft, f;
  lt_adv_key k;
  const lt_tensor *tv = as_1d(&ft, t);
  int rc = one_dim_key(tv, dim, idx, &f, &k, err);
  if (!rc) rc = zero_d_check(t, idx, err);
  if (!rc) rc = lt_adv_read(tv, &k, base, out, err);
  if (!rc && t->ndim == 0) (*out)->ndim = 0; /* [1] -> [] */
  return rc;
}

int lt_index_put(lt_tensor *t, int dim, const lt_tensor *idx, const lt_tensor *src,
                 const lt_scalar *fill, lt_putop op, int base, lt_error *err) {
  lt_frame ft, fs, f;
  lt_adv_key k;
  lt_tensor *tv = as_1d(&ft, t);
  int rc = one_dim_key(tv, dim, idx, &f, &k, err);
  if (!rc) rc = zero_d_check(t, idx, err);
  if (!rc && t->ndim == 0 && src && src->ndim == 0) src = as_1d(&fs, src);
  return rc ? rc : lt_adv_write(tv, &k, src, fill, op, 1, base, err);
}

/* The checks of gather and scatter: idx (as iv) against t (tv) and src (sv, or NULL). */
static int along_check(const lt_tensor *tv, int dim, const lt_tensor *iv, const lt_tensor *sv,
                       lt_error *err) {
  int rc = lt_check_dim(tv, dim, err);
  if (rc) return rc;
  if (iv->ndim != tv->ndim)
    return lt_fail(err, LT_EARG, "index must have as many dims as the input (%d, got %d)", tv->ndim,
                   iv->ndim);
  if (sv && sv->ndim != iv->ndim)
    return lt_fail(err, LT_EARG, "src must have as many dims as the index (%d, got %d)", iv->ndim,
                   sv->ndim);
  char a[96], b[96];
  for (int d = 0; d < iv->ndim; d++) {
    const lt_tensor *big = d != dim && iv->shape[d] > tv->shape[d] ? tv
                           : sv && iv->shape[d] > sv->shape[d]     ? sv
                                                                   : NULL;
    if (!big) continue;
    shape_str(iv, a, sizeof a);
    shape_str(big, b, sizeof b);
    return lt_fail(err, LT_EARG, "index of shape %s is larger than the %s of shape %s at dim %d", a,
                   big == tv ? "input" : "source", b, d + 1);
  }
  return LT_OK;
}

/* off[k]: the byte offset in t of the k-th position of iv with its dim's coordinate replaced by
   the index value there. */
static int along_offsets(const lt_tensor *t, int dim, const lt_tensor *iv, int base, int64_t **res,
                         lt_error *err) {
  int64_t n = lt_numel(iv), es = (int64_t)lt_esize(t), st[LT_MAX_NDIM];
  int64_t *off = NULL;
  int rc = lt_new_offsets(n, &off, err);
  if (rc) return rc;
  for (int d = 0; d < iv->ndim; d++) st[d] = d == dim ? 0 : t->strides[d] * es;
  lt_walk_offsets(iv->ndim, iv->shape, st, 0, off);
  rc = lt_index_offsets(iv, base, t->shape[dim], dim, t->strides[dim] * es, 1, off, err);
  if (rc) {
    free(off);
    return rc;
  }
  *res = off;
  return LT_OK;
}

int lt_gather(const lt_tensor *t, int dim, const lt_tensor *idx, int base, lt_tensor **out,
              lt_error *err) {
  lt_frame ft, fi;
  int64_t *off = NULL;
  lt_tensor *o = NULL;
  const lt_tensor *tv = as_1d(&ft, t), *iv = as_1d(&fi, idx);
  int rc = lt_check_index_dtype(idx, "index", err);
  if (!rc) rc = lt_check_readable(t, err);
  if (!rc) rc = along_check(tv, dim, iv, NULL, err);
  if (!rc) rc = along_offsets(tv, dim, iv, base, &off, err);
  if (!rc) rc = lt_tensor_new(t->dtype, idx->ndim, idx->shape, 0, &o, err);
  if (rc) {
    free(off);
    return rc;
  }
  gather_into(o, tv, off, lt_numel(iv));
  free(off);
  *out = o;
  return LT_OK;
}

int lt_scatter(lt_tensor *t, int dim, const lt_tensor *idx, const lt_tensor *src,
               const lt_scalar *fill, lt_putop op, int include_self, int base, lt_error *err) {
  lt_frame ft, fi, fs;
  elem_buf buf, ident;
  int64_t *doff = NULL, *soff = NULL, *counts = NULL, es = (int64_t)lt_esize(t);
  lt_tensor *conv = NULL, *work = NULL;
  lt_tensor *tv = as_1d(&ft, t);
  const lt_tensor *iv = as_1d(&fi, idx), *sv = NULL;
  int rc = lt_check_writable(t, err);
  if (!rc) rc = lt_check_no_internal_overlap(t, err);
  if (!rc) rc = lt_check_putop(op, t->dtype, err);
  if (!rc) rc = lt_check_index_dtype(idx, "index", err);
  if (!rc && src) {
    rc = source_for(t, src, &src, &conv, err);
    if (!rc) sv = as_1d(&fs, src);
  } else if (!rc) {
    rc = store_scalar(t->dtype, &buf, fill, err);
  }
  if (!rc) rc = along_check(tv, dim, iv, sv, err);
  /* a mean counts per element: it works on a contiguous copy when t is not contiguous */
  if (!rc && op == LT_PUT_MEAN && !lt_is_contiguous(tv)) rc = lt_clone(tv, &work, err);
  lt_tensor *w = work ? work : tv;
  int64_t n = lt_numel(iv);
  if (!rc) rc = along_offsets(w, dim, iv, base, &doff, err);
  if (!rc && sv) rc = lt_new_offsets(n, &soff, err);
  if (!rc && op == LT_PUT_MEAN && !(counts = calloc((size_t)lt_numel(w) + 1, sizeof *counts)))
    rc = lt_fail(err, LT_ENOMEM, "out of memory");
  if (!rc) {
    lt_moves m = {.dt = t->dtype, .es = (size_t)es, .op = LT_PUT_COPY, .n = n};
    m.dst = lt_data(w);
    m.doff = doff;
    if (op != LT_PUT_COPY && !include_self) { /* the written positions start from the identity */
      lt_scalar s;
      lt_put_identity(op, t->dtype, &s);
      lt_store(t->dtype, ident.b, &s);
      m.src = ident.b;
      lt_moves_run(&m, 0);
    }
    if (sv) {
      int64_t st[LT_MAX_NDIM];
      for (int d = 0; d < sv->ndim; d++) st[d] = sv->strides[d] * es;
      lt_walk_offsets(iv->ndim, iv->shape, st, 0, soff);
    }
    m.op = op;
    m.src = sv ? lt_data(sv) : buf.b;
    m.soff = soff;
    lt_moves_run(&m, 0);
    if (counts) {
      char *base_p = lt_data(w);
      for (int64_t b = 0; b < n; b++) counts[doff[b] / es]++;
      for (int64_t e = 0, ne = lt_numel(w); e < ne; e++)
        if (counts[e]) lt_mean_div(t->dtype, base_p + e * es, counts[e] + (include_self != 0));
    }
    if (work) rc = lt_copy(tv, work, err);
  }
  free(doff);
  free(soff);
  free(counts);
  lt_tensor_free(work);
  lt_tensor_free(conv);
  return rc;
}

/* }====== */

/* {====== flat and masked ====== */

int lt_take(const lt_tensor *t, const lt_tensor *idx, int base, lt_tensor **out, lt_error *err) {
  int64_t n = lt_numel(idx), total = lt_numel(t), es = (int64_t)lt_esize(t);
  int contig = lt_is_contiguous(t);
  int64_t *off = NULL;
  lt_tensor *o = NULL;
  int rc = lt_check_index_dtype(idx, "index", err);
  if (!rc) rc = lt_check_readable(t, err);
  if (!rc) rc = lt_new_offsets(n, &off, err);
  if (!rc) rc = lt_index_offsets(idx, base, total, -1, contig ? es : 1, 0, off, err);
  if (!rc) rc = lt_tensor_new(t->dtype, idx->ndim, idx->shape, 0, &o, err);
  if (rc) {
    free(off);
    return rc;
  }
  for (int64_t k = 0; !contig && k < n; k++) { /* flat positions -> byte offsets */
    int64_t p = off[k], o2 = 0;
    for (int d = t->ndim - 1; d >= 0; d--) {
      o2 += (p % t->shape[d]) * t->strides[d];
      p /= t->shape[d];
    }
    off[k] = o2 * es;
  }
  gather_into(o, t, off, n);
  free(off);
  *out = o;
  return LT_OK;
}

/* The number of true elements of the bool tensor m; with off, also the byte offsets in t (m's
   shape) of those elements, row-major. */
static int64_t mask_scan(const lt_tensor *m, const lt_tensor *t, int64_t *off) {
  int nd = m->ndim;
  if (lt_numel(m) == 0) return 0;
  int64_t es = (int64_t)lt_esize(t), k = 0, pos[LT_MAX_NDIM] = {0}, tc = 0;
  int64_t len = nd ? m->shape[nd - 1] : 1, ms = nd ? m->strides[nd - 1] : 0;
  int64_t ts = nd ? t->strides[nd - 1] * es : 0;
  const char *mp = lt_data(m);
  for (;;) {
    if (!off) { /* a count: bools are 0 or 1 */
      for (int64_t j = 0; j < len; j++) k += mp[j * ms] != 0;
    } else { /* without a branch: a random mask would mispredict every other element */
      for (int64_t j = 0; j < len; j++) {
        off[k] = tc + j * ts;
        k += mp[j * ms] != 0;
      }
    }
    int d = nd - 2;
    for (; d >= 0; d--) {
      mp += m->strides[d];
      tc += t->strides[d] * es;
      if (++pos[d] < m->shape[d]) break;
      mp -= m->shape[d] * m->strides[d];
      tc -= m->shape[d] * t->strides[d] * es;
      pos[d] = 0;
    }
    if (d < 0) return k;
  }
}

static int check_mask(const lt_tensor *mask, lt_error *err) {
  if (mask->dtype != LT_BOOL)
    return lt_fail(err, LT_EARG, "mask must be a bool tensor (got %s)", lt_dtype_name(mask->dtype));
  return lt_check_readable(mask, err);
}

int lt_masked_select(const lt_tensor *t, const lt_tensor *mask, lt_tensor **out, lt_error *err) {
  const lt_tensor *ops[2] = {t, mask};
  int nd;
  int64_t shape[LT_MAX_NDIM], *off = NULL;
  lt_tensor *tb = NULL, *mb = NULL, *o = NULL;
  int rc = check_mask(mask, err);
  if (!rc) rc = lt_check_readable(t, err);
  if (!rc) rc = lt_broadcast_shape(2, ops, &nd, shape, err);
  if (!rc) rc = lt_broadcast_to(t, nd, shape, &tb, err);
  if (!rc) rc = lt_broadcast_to(mask, nd, shape, &mb, err);
  int64_t k = rc ? 0 : mask_scan(mb, tb, NULL);
  if (!rc) rc = lt_new_offsets(k + 1, &off, err); /* mask_scan writes one more */
  if (!rc) rc = lt_tensor_new(t->dtype, 1, &k, 0, &o, err);
  if (!rc) {
    mask_scan(mb, tb, off);
    gather_into(o, tb, off, k);
    *out = o;
  }
  free(off);
  lt_tensor_free(tb);
  lt_tensor_free(mb);
  return rc;
}

int lt_mask_read(const lt_tensor *v, const lt_tensor *mask, lt_tensor **out, lt_error *err) {
  int rc = check_mask(mask, err);
  if (!rc) rc = lt_check_readable(v, err);
  if (rc) return rc;
  int m = mask->ndim;
  if (m < 1 || m > v->ndim)
    return lt_fail(err, LT_EARG, "too many indices for a tensor of %d dims", v->ndim);
  for (int i = 0; i < m; i++)
    if (mask->shape[i] != v->shape[i]) {
      char a[96], b[96];
      shape_str(mask, a, sizeof a);
      lt_shape_str(m, v->shape, b, sizeof b);
      return lt_fail(err, LT_EARG, "mask of shape %s does not match the shape %s it indexes", a, b);
    }
  lt_frame f;
  lt_tensor *lead = lt_frame_of(&f, v), *o = NULL;
  lead->ndim = m;
  int64_t k = mask_scan(mask, lead, NULL), shape[LT_MAX_NDIM], es = (int64_t)lt_esize(v);
  int64_t *off = NULL;
  if ((rc = lt_new_offsets(k + 1, &off, err))) return rc; /* mask_scan writes one more */
  shape[0] = k;
  for (int i = m; i < v->ndim; i++) shape[1 + i - m] = v->shape[i];
  rc = lt_tensor_new(v->dtype, 1 + v->ndim - m, shape, 0, &o, err);
  if (!rc) {
    mask_scan(mask, lead, off);
    lt_moves mv = copy_moves(v, k, lt_data(o), lt_data(v));
    mv.dstep = es;
    mv.soff = off;
    mv.nr = v->ndim - m;
    for (int i = 0; i < mv.nr; i++) {
      mv.rs[i] = v->shape[m + i];
      mv.rd[i] = o->strides[1 + i] * es;
      mv.rsr[i] = v->strides[m + i] * es;
      mv.dstep *= v->shape[m + i];
    }
    lt_moves_run(&mv, 1);
    *out = o;
  }
  free(off);
  return rc;
}

int lt_masked_scatter(lt_tensor *t, const lt_tensor *mask, const lt_tensor *src, lt_error *err) {
  int64_t *off = NULL, *soff = NULL, es = (int64_t)lt_esize(t), k = 0;
  lt_tensor *mb = NULL, *conv = NULL;
  char a[96], b[96];
  int rc = lt_check_writable(t, err);
  if (!rc) rc = lt_check_no_internal_overlap(t, err);
  if (!rc) rc = check_mask(mask, err);
  if (!rc && lt_broadcast_to(mask, t->ndim, t->shape, &mb, NULL)) {
    shape_str(mask, a, sizeof a);
    shape_str(t, b, sizeof b);
    rc = lt_fail(err, LT_EARG, "mask of shape %s cannot be broadcast to the tensor's shape %s", a,
                 b);
  }
  if (!rc) rc = source_for(t, src, &src, &conv, err);
  if (!rc && (k = mask_scan(mb, t, NULL)) > lt_numel(src))
    rc = lt_fail(err, LT_EARG,
                 "source has %lld elements, fewer than the %lld true elements of "
                 "the mask",
                 (long long)lt_numel(src), (long long)k);
  if (!rc) rc = lt_new_offsets(k + 1, &off, err); /* mask_scan writes one more */
  if (!rc) rc = lt_new_offsets(lt_numel(src), &soff, err);
  if (!rc) {
    int64_t st[LT_MAX_NDIM];
    for (int d = 0; d < src->ndim; d++) st[d] = src->strides[d] * es;
    lt_walk_offsets(src->ndim, src->shape, st, 0, soff);
    mask_scan(mb, t, off);
    lt_moves m = copy_moves(t, k, lt_data(t), lt_data(src));
    m.doff = off;
    m.soff = soff;
    lt_moves_run(&m, 1); /* the positions are distinct */
  }
  free(off);
  free(soff);
  lt_tensor_free(mb);
  lt_tensor_free(conv);
  return rc;
}

static inline int is_nonzero(lt_dtype dt, const char *p) {
  switch (dt) {
    case LT_BOOL:
    case LT_UINT8:
    case LT_INT8: return *p != 0;
    case LT_INT32: return *(const int32_t *)(const void *)p != 0;
    case LT_INT64: return *(const int64_t *)(const void *)p != 0;
    case LT_FLOAT32: return *(const float *)(const void *)p != 0;
    case LT_FLOAT64: return *(const double *)(const void *)p != 0;
    default: {
      lt_scalar s;
      lt_load(dt, p, &s);
      switch (s.kind) {
        case LT_SK_INT: return s.v.i != 0;
        case LT_SK_UINT: return s.v.u != 0;
        case LT_SK_FLOAT: return s.v.f != 0;
        default: return s.v.f != 0 || s.im != 0;
      }
    }
  }
}

/* Walks t row-major: counts its nonzero elements, and with res writes their positions (from
   base) as rows of ndim int64. */
static int64_t nonzero_scan(const lt_tensor *t, int base, int64_t *res) {
  int nd = t->ndim;
  int64_t n = lt_numel(t), es = (int64_t)lt_esize(t), pos[LT_MAX_NDIM] = {0}, k = 0;
  const char *p = lt_data(t);
  for (int64_t i = 0; i < n; i++) {
    if (is_nonzero(t->dtype, p)) {
      for (int d = 0; res && d < nd; d++) res[k * nd + d] = pos[d] + base;
      k++;
    }
    for (int d = nd - 1; d >= 0; d--) {
      p += t->strides[d] * es;
      if (++pos[d] < t->shape[d]) break;
      p -= t->shape[d] * t->strides[d] * es;
      pos[d] = 0;
    }
  }
  return k;
}

int lt_nonzero(const lt_tensor *t, int base, lt_tensor **out, lt_error *err) {
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  int64_t shape[2] = {nonzero_scan(t, base, NULL), t->ndim};
  rc = lt_tensor_new(LT_INT64, 2, shape, 0, out, err);
  if (!rc) nonzero_scan(t, base, (int64_t *)(void *)lt_data(*out));
  return rc;
}

/* }====== */
