/*
 * lt_elementwise.c -- the elementwise driver every kernel of the core runs under (see
 * lt_elementwise.h): operands converted to a computation dtype, and one kernel run over
 * broadcast inputs.
 *
 * Every operation runs in a computation dtype (lt_promote.h): inputs of another dtype are first
 * cast (lt_cast), a scalar becomes a 0-d tensor; then the kernel runs over each inner run of
 * lt_iter over the broadcast operands, on the pool's threads when the operation is large
 * (lt_iter_run_par: the kernels take no state but their operands and a read-only context), and
 * the result is cast once into its dtype, or written through the in-place checks.
 *
 * Calls lt_copy.c, lt_iter.c, lt_tensor.c; called by lt_funcs.c (the table's functions),
 * lt_math.c (clamp, where), and the other kernel files through lt_elementwise.h.
 */
#include "lt_elementwise.h"

#include <string.h>

#include "lt_copy.h"
#include "lt_iter.h"

/* {====== operands ====== */

/* An operand in dtype dt: the tensor itself (*owned NULL) or a converted copy (*owned set). A
   scalar becomes a 0-d tensor. */
int lt_operand_as(const lt_operand *o, lt_dtype dt, const lt_tensor **t, lt_tensor **owned,
                  lt_error *err) {
  *owned = NULL;
  if (o->t) {
    int rc = lt_check_readable(o->t, err);
    if (rc) return rc;
    if (o->t->dtype == dt) {
      *t = o->t;
      return LT_OK;
    }
    rc = lt_cast(o->t, dt, owned, err);
    *t = *owned;
    return rc;
  }
  union {
    lt_c128 c;
    unsigned char b[16];
  } elem;
  /* torch refuses to wrap an integer scalar, but computes with a float one beyond the dtype's
     range (giving inf) */
  int (*store)(lt_dtype, void *, const lt_scalar *) =
      lt_dtypes[dt].is_float || lt_dtypes[dt].is_complex ? lt_store_wrap : lt_store;
  if (store(dt, &elem, &o->s) != LT_STORE_OK) {
    char str[64];
    lt_scalar_str(&o->s, str, sizeof str);
    return lt_fail(err, LT_ERANGE, LT_STORE_RANGE_FMT, str, lt_dtype_name(dt));
  }
  int rc = lt_tensor_new(dt, 0, NULL, 0, owned, err);
  if (rc) return rc;
  memcpy(lt_data(*owned), &elem, lt_dtypes[dt].size);
  *t = *owned;
  return LT_OK;
}

/* }====== */

/* {====== running elementwise operations ====== */

/*
 * Runs kernel k (given ctx) over out (computation dtype oc) and inputs in[0..nin) (already in
 * their computation dtypes), broadcast to shape. The result lands in *res: `inplace` when given
 * (cast from oc if needed), else a new tensor of dtype rt. Declared in lt_elementwise.h.
 */
int lt_run_elementwise(lt_kernel k, void *ctx, int nin, const lt_tensor *const *in, int ndim,
                       const int64_t *shape, lt_dtype oc, lt_dtype rt, lt_tensor *inplace,
                       lt_tensor **res, const char *kernel_fail, lt_error *err) {
  lt_tensor *dst = NULL, *tmp = NULL, *views[LT_ITER_MAXOPS] = {NULL};
  lt_tensor *aside[LT_ITER_MAXOPS] = {NULL};
  int rc = LT_OK;
  if (inplace) {
    if ((rc = lt_prepare_write(inplace, err))) return rc;
    if (inplace->ndim != ndim || memcmp(inplace->shape, shape, (size_t)ndim * sizeof(int64_t))) {
      char have[128], want[128];
      lt_shape_str(inplace->ndim, inplace->shape, have, sizeof have);
      lt_shape_str(ndim, shape, want, sizeof want);
      return lt_fail(err, LT_EARG, "output with shape %s doesn't match the broadcast shape %s",
                     have, want);
    }
    if ((rc = lt_check_no_internal_overlap(inplace, err))) return rc;
  }
  if (inplace && inplace->dtype == oc) {
    dst = inplace;
  } else {
    rc = lt_tensor_new(oc, ndim, shape, 0, &tmp, err);
    if (rc) return rc;
    dst = tmp;
  }
  lt_tensor *ops[LT_ITER_MAXOPS];
  char *base[LT_ITER_MAXOPS];
  ops[0] = dst;
  base[0] = lt_data(dst);
  for (int i = 0; i < nin && rc == LT_OK; i++) {
    const lt_tensor *src = in[i];
    if (dst == inplace && lt_partial_overlap(dst, src)) {
      rc = lt_clone(src, &aside[i], err);
      src = aside[i];
    }
    if (rc == LT_OK) rc = lt_broadcast_to(src, ndim, shape, &views[i], err);
    if (rc == LT_OK) {
      ops[i + 1] = views[i];
      base[i + 1] = lt_data(views[i]);
    }
  }
  if (rc == LT_OK && lt_numel(dst) > 0) {
    lt_iter it;
    double bytes = 0; /* per element, every operand's: what decides on threads */
    for (int i = 0; i <= nin; i++) bytes += (double)lt_esize(ops[i]);
    lt_iter_init(&it, nin + 1, ops);
    if (lt_iter_run_par(&it, base, k, ctx, bytes)) rc = lt_fail(err, LT_EARG, "%s", kernel_fail);
  }
  for (int i = 0; i < nin; i++) {
    lt_tensor_free(views[i]);
    lt_tensor_free(aside[i]);
  }
  if (rc) {
    lt_tensor_free(tmp);
    return rc;
  }
  if (inplace) {
    if (dst != inplace) {
      rc = lt_copy(inplace, dst, err);
      lt_tensor_free(tmp);
    }
    *res = inplace;
    return rc;
  }
  if (oc != rt) {
    rc = lt_cast(dst, rt, res, err);
    lt_tensor_free(tmp);
    return rc;
  }
  *res = dst;
  return LT_OK;
}

/* }====== */
