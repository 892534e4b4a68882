/*
 * lt_reduce_dims.c -- reductions over several dims at once (lt_reduce_dims), count_nonzero and
 * vector norms (see lt_reduce.h). Lua-free.
 *
 * A reduction over several dims is one lt_reduce over a single dim: the kept dims stay in
 * order and the reduced ones become one trailing dim -- a strided view when their strides
 * nest (any contiguous block, and most views of one), else a contiguous copy of the input with
 * the reduced dims moved last. count_nonzero and norm are compositions of lt_math's elementwise
 * operations and these reductions; they and logsumexp (lt_softmax.c) are the composed rows of the
 * table (lt_compose_*). Calls lt_reduce.c, lt_funcs.c, lt_softmax.c, lt_copy.c, lt_tensor.c;
 * called by the binding and lt_reduce.c's rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_math.h"
#include "lt_reduce.h"
#include "lt_softmax.h"

/* {====== several dims ====== */

/* Which dims of a are reduced (mask), after checking dims; ndims 0: every dim. */
static int reduced_mask(const lt_tensor *a, const int *dims, int ndims, unsigned char *mask,
                        lt_error *err) {
  memset(mask, ndims == 0, LT_MAX_NDIM);
  for (int i = 0; i < ndims; i++) {
    int d = dims[i];
    int n = a->ndim > 0 ? a->ndim : 1;
    if (d < 0 || d >= n) return lt_dim_error(err, d, n);
    if (mask[d]) return lt_fail(err, LT_EARG, "dim %d appears twice", d + 1);
    mask[d] = 1; /* a 0-d tensor's dim 0 too: it reduces as its one element */
  }
  return LT_OK;
}

/* The reduced dims of v (the last nred, after the kept ones) merged into one, in place, when
   their strides nest (sizes of 1 dropped); 0 when they do not. A frame's dims are reordered so
   that the larger strides come first: the order of a sum changes, not its set of elements. */
static int merge_trailing(lt_tensor *v, int nkeep) {
  int nred = v->ndim - nkeep;
  int64_t *sh = v->shape + nkeep, *st = v->strides + nkeep;
  for (int i = 1; i < nred; i++) /* insertion sort by decreasing |stride| */
    for (int j = i; j > 0 && llabs(st[j - 1]) < llabs(st[j]); j--) {
      int64_t s = sh[j], t = st[j];
      sh[j] = sh[j - 1];
      st[j] = st[j - 1];
      sh[j - 1] = s;
      st[j - 1] = t;
    }
  int64_t len = 1, step = 1;
  int have = 0;
  for (int i = nred - 1; i >= 0; i--) { /* innermost first */
    if (sh[i] == 0) {
      len = 0;
      break;
    }
    if (sh[i] == 1) continue;
    if (!have) {
      step = st[i];
      len = sh[i];
      have = 1;
    } else if (st[i] == step * len) {
      len *= sh[i];
    } else {
      return 0;
    }
  }
  v->ndim = nkeep + 1;
  v->shape[nkeep] = len;
  v->strides[nkeep] = step;
  return 1;
}

int lt_reduce_dims(lt_redop op, const lt_tensor *a, const int *dims, int ndims, int keepdim,
                   int correction, lt_tensor **out, lt_error *err) {
  unsigned char mask[LT_MAX_NDIM];
  if ((unsigned)op >= (unsigned)LT_NREDOPS) return lt_fail(err, LT_EARG, "unknown reduction");
  const lt_red_row *r = &lt_reductions[op];
  if (ndims < 0 || ndims > LT_MAX_NDIM) return lt_fail(err, LT_EARG, "too many dims");
  if (r->compose) {
    lt_red_args ra = {ndims, {0}, keepdim, correction, 2};
    if (ndims > 0) memcpy(ra.dims, dims, (size_t)ndims * sizeof *dims); /* dims may be NULL */
    return r->compose(a, &ra, out, err);
  }
  int rc = lt_check_readable(a, err);
  if (rc || (rc = reduced_mask(a, dims, ndims, mask, err))) return rc;
  if (a->ndim == 0) return lt_reduce(op, a, 0, 0, correction, out, NULL, err);
  int nred = 0, last = 0;
  for (int d = 0; d < a->ndim; d++)
    if (mask[d]) {
      nred++;
      last = d;
    }
  if (nred == 1) return lt_reduce(op, a, last, keepdim, correction, out, NULL, err);
  if (r->finish == LT_FINISH_POS) return lt_fail(err, LT_EARG, "%s takes one dim", r->name);
  /* the view: kept dims in order, then the reduced ones */
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, a);
  int nkeep = 0, k = a->ndim - nred;
  for (int d = 0; d < a->ndim; d++) {
    int to = mask[d] ? k++ : nkeep++;
    v->shape[to] = a->shape[d];
    v->strides[to] = a->strides[d];
  }
  if (r->fold == LT_FOLD_MIN || r->fold == LT_FOLD_MAX)
    for (int d = 0; d < a->ndim; d++)
      if (mask[d] && a->shape[d] == 0)
        return lt_fail(err, LT_EARG, "cannot reduce an empty dimension (dimension %d has size 0)",
                       d + 1);
  lt_tensor *copy = NULL, *o = NULL;
  lt_frame fc;
  if (!merge_trailing(v, nkeep)) {
    if ((rc = lt_clone(v, &copy, err))) return rc;
    v = lt_frame_of(&fc, copy);
    rc = merge_trailing(v, nkeep); /* contiguous: always merges */
  }
  rc = lt_reduce(op, v, nkeep, 0, correction, &o, NULL, err);
  lt_tensor_free(copy);
  if (rc || !keepdim) {
    *out = o;
    return rc;
  }
  int64_t shape[LT_MAX_NDIM];
  for (int d = 0; d < a->ndim; d++) shape[d] = mask[d] ? 1 : a->shape[d];
  rc = lt_view(o, a->ndim, shape, out, err); /* o is contiguous: a view always exists */
  lt_tensor_free(o);
  return rc;
}

/* }====== */

/* {====== count_nonzero and norm ====== */

int lt_count_nonzero(const lt_tensor *a, const int *dims, int ndims, int keepdim, lt_tensor **out,
                     lt_error *err) {
  lt_operand x = {a, {LT_SK_INT, {0}, 0}, 0}, zero = {NULL, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *nz;
  int rc = lt_check_readable(a, err);
  if (rc || (rc = lt_binary(LT_NE, &x, &zero, NULL, &nz, err))) return rc;
  rc = lt_reduce_dims(LT_SUM, nz, dims, ndims, keepdim, 0, out, err);
  lt_tensor_free(nz);
  return rc;
}

/* Replace the intermediate *a by op(*a), *a op b, or its reduction (freeing the old one; *a is
   NULL on failure). */
static int step_unary(lt_func op, lt_tensor **a, lt_error *err) {
  lt_tensor *r;
  int rc = lt_unary(op, *a, NULL, &r, err);
  lt_tensor_free(*a);
  *a = rc ? NULL : r;
  return rc;
}
static int step_binary(lt_func op, lt_tensor **a, const lt_operand *b, lt_error *err) {
  lt_operand x = {*a, {LT_SK_INT, {0}, 0}, 0};
  lt_tensor *r;
  int rc = lt_binary(op, &x, b, NULL, &r, err);
  lt_tensor_free(*a);
  *a = rc ? NULL : r;
  return rc;
}
static int step_reduce(lt_redop op, lt_tensor **a, const int *dims, int ndims, int keepdim,
                       lt_error *err) {
  lt_tensor *r;
  int rc = lt_reduce_dims(op, *a, dims, ndims, keepdim, 0, &r, err);
  lt_tensor_free(*a);
  *a = rc ? NULL : r;
  return rc;
}

int lt_norm(const lt_tensor *a, double p, const int *dims, int ndims, int keepdim, lt_tensor **out,
            lt_error *err) {
  int rc = lt_check_readable(a, err);
  if (rc) return rc;
  const lt_dtype_info *d = &lt_dtypes[a->dtype];
  if (!d->is_float && !d->is_complex)
    return lt_fail(err, LT_EARG, "not supported for %s (floating point or complex expected)",
                   d->name);
  if (p != p) return lt_fail(err, LT_EARG, "p must not be nan");
  if (isinf(p) && ndims == 0 && lt_numel(a) == 0)
    return lt_fail(err, LT_EARG, "cannot take the %s norm of an empty tensor",
                   p > 0 ? "inf" : "-inf");
  lt_tensor *x;
  if ((rc = lt_unary(LT_ABS, a, NULL, &x, err))) return rc; /* real, also for complex */
  lt_dtype rt = x->dtype;
  lt_operand zero = {NULL, {LT_SK_INT, {0}, 0}, 0};
  lt_operand pw = {NULL, {LT_SK_FLOAT, {.f = p}, 0}, 0};
  lt_operand inv = {NULL, {LT_SK_FLOAT, {.f = 1 / p}, 0}, 0};
  if (isinf(p)) {
    rc = step_reduce(p > 0 ? LT_MAX : LT_MIN, &x, dims, ndims, keepdim, err);
  } else if (p == 0) { /* the number of nonzero elements, in the real dtype */
    if ((rc = step_binary(LT_NE, &x, &zero, err)) == LT_OK &&
        (rc = step_reduce(LT_SUM, &x, dims, ndims, keepdim, err)) == LT_OK) {
      lt_tensor *r;
      rc = lt_cast(x, rt, &r, err);
      lt_tensor_free(x);
      x = rc ? NULL : r;
    }
  } else if (p == 1) {
    rc = step_reduce(LT_SUM, &x, dims, ndims, keepdim, err);
  } else if (p == 2) { /* x * x rather than x ^ 2: exact, and no pow per element */
    lt_operand self = {x, {LT_SK_INT, {0}, 0}, 0};
    lt_tensor *sq;
    rc = lt_binary(LT_MUL, &self, &self, NULL, &sq, err);
    lt_tensor_free(x);
    x = rc ? NULL : sq;
    if (rc == LT_OK && (rc = step_reduce(LT_SUM, &x, dims, ndims, keepdim, err)) == LT_OK)
      rc = step_unary(LT_SQRT, &x, err);
  } else if ((rc = step_binary(LT_POW, &x, &pw, err)) == LT_OK &&
             (rc = step_reduce(LT_SUM, &x, dims, ndims, keepdim, err)) == LT_OK) {
    rc = step_binary(LT_POW, &x, &inv, err);
  }
  if (rc == LT_OK) *out = x;
  return rc;
}

/* }====== */

/* {====== the composed rows of the table ====== */

int lt_compose_COUNT_NONZERO(const lt_tensor *a, const lt_red_args *ra, lt_tensor **out,
                             lt_error *err) {
  return lt_count_nonzero(a, ra->dims, ra->ndims, ra->keepdim, out, err);
}

int lt_compose_NORM(const lt_tensor *a, const lt_red_args *ra, lt_tensor **out, lt_error *err) {
  return lt_norm(a, ra->p, ra->dims, ra->ndims, ra->keepdim, out, err);
}

int lt_compose_LOGSUMEXP(const lt_tensor *a, const lt_red_args *ra, lt_tensor **out,
                         lt_error *err) {
  return lt_logsumexp(a, ra->dims, ra->ndims, ra->keepdim, out, err);
}

/* }====== */
