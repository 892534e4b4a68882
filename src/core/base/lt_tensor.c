/*
 * lt_tensor.c -- tensor headers, size arithmetic, access rules and views (see lt_tensor.h).
 * Nothing here allocates element data except lt_tensor_new; copies are lt_copy.c's.
 */
#include "lt_tensor.h"
#include "lt_account.h"
#include "lt_checked.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lt_fail(lt_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

int lt_fail_nomem_at(lt_error *err, size_t nbytes, const char *where, ...) {
  char at[160];
  va_list ap;
  va_start(ap, where);
  vsnprintf(at, sizeof at, where, ap);
  va_end(ap);
  int64_t budget = lt_account_refusal();
  lt_account *a = lt_account_current();
  if (budget >= 0 && a)
    return lt_fail(err, LT_ENOMEM,
                   "%snot enough memory (budget %lld bytes, %lld in use, %llu asked)", at,
                   (long long)budget, (long long)lt_account_used(a), (unsigned long long)nbytes);
  if (lt_account_collecting())
    return lt_fail(err, LT_ENOMEM,
                   "%scannot copy a shared (cloned) tensor while the collector runs inside an "
                   "allocation (a finalizer wrote to a tensor)",
                   at);
  return lt_fail(err, LT_ENOMEM, "%snot enough memory for %llu bytes", at,
                 (unsigned long long)nbytes);
}

int lt_fail_nomem(lt_error *err, size_t nbytes) { return lt_fail_nomem_at(err, nbytes, "%s", ""); }

/* {====== sizes ====== */

int lt_size_mul(int64_t a, int64_t b, int64_t *out, lt_error *err) {
  if (a < 0 || b < 0 || lt_mul_overflow(a, b, out))
    return lt_fail(err, LT_ERANGE, "size %lld x %lld is too large (overflow)", (long long)a,
                   (long long)b);
  return LT_OK;
}

int lt_shape_numel(int ndim, const int64_t *shape, int64_t *out, lt_error *err) {
  /* The product of the nonzero sizes must fit too: strides are computed from it. */
  int64_t n = 1;
  int zero = 0;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return lt_fail(err, LT_ERANGE, "size %lld of dim %d is negative", (long long)shape[i], i + 1);
    if (shape[i] == 0)
      zero = 1;
    else if (lt_size_mul(n, shape[i], &n, NULL))
      return lt_fail(err, LT_ERANGE, "shape has too many elements (overflow)");
  }
  *out = zero ? 0 : n;
  return LT_OK;
}

int lt_nbytes(const lt_tensor *t, int64_t *out, lt_error *err) {
  int64_t n = lt_numel(t);
  if (!t->packed) return lt_size_mul(n, (int64_t)lt_esize(t), out, err);
  int64_t bits;
  int rc = lt_size_mul(n, (int64_t)t->dl_dtype.bits * t->dl_dtype.lanes, &bits, err);
  if (!rc) *out = bits / 8 + (bits % 8 != 0);
  return rc;
}

int64_t lt_numel(const lt_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] == 0) return 0;
  for (int i = 0; i < t->ndim; i++) n *= t->shape[i]; /* checked when the shape was made */
  return n;
}

void lt_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i] > 1 ? shape[i] : 1;
  }
}

int lt_is_contiguous(const lt_tensor *t) {
  int64_t s = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] == 0) return 1;
    if (t->shape[i] != 1 && t->strides[i] != s) return 0;
    s *= t->shape[i];
  }
  return 1;
}

/* }====== */

/* {====== access rules ====== */

const char *lt_readonly_reason(const lt_tensor *t) {
  switch (t->readonly) {
    case LT_RO_DLPACK: return "tensor is read-only (imported from DLPack with the READ_ONLY flag)";
    case LT_RO_HOST: return "tensor is read-only (the host program shared it read-only)";
    case LT_RO_WRAPPER: return "tensor is read-only (it came from a ReadOnlyTensorWrapper)";
    case LT_RO_MAPPED:
      if (t->storage->block && t->storage->block->release_ctx)
        return ((const lt_block_note *)t->storage->block->release_ctx)->note;
      return "tensor is read-only (mapped read-only from a file; clone() gives a writable copy)";
    default: return NULL;
  }
}

int lt_check_mapping(const lt_tensor *t, lt_error *err) {
  if (!lt_map_damaged(t)) return LT_OK;
  const lt_map_note *n = t->storage->block->release_ctx;
  return lt_fail(err, LT_EREVOKED,
                 "%s: file was truncated while mapped; its tensors cannot be read any more "
                 "(load it again)",
                 n->path);
}

int lt_check_readable(const lt_tensor *t, lt_error *err) {
  if (lt_readable(t)) return LT_OK;
  if (t->storage->revoked) return lt_fail(err, LT_EREVOKED, "tensor has been released");
  if (lt_map_damaged(t)) return lt_check_mapping(t, err);
  if (t->dtype != LT_OPAQUE) {
    char dev[32];
    lt_device_str(t->storage->device, dev, sizeof dev);
    return lt_fail(err, LT_EOPAQUE,
                   "tensor data is on device '%s', which the host cannot read; its elements "
                   "cannot be accessed here",
                   dev);
  }
  return lt_fail(err, LT_EOPAQUE,
                 "elements of DLPack type (code %d, bits %d, lanes %d) cannot be read or "
                 "written by ltensor",
                 t->dl_dtype.code, t->dl_dtype.bits, t->dl_dtype.lanes);
}

void lt_shape_str(int ndim, const int64_t *shape, char *buf, size_t n) {
  size_t used = 0;
  int w = snprintf(buf, n, "[");
  used = w > 0 ? (size_t)w : 0;
  for (int i = 0; i < ndim && used + 8 < n; i++) {
    w = snprintf(buf + used, n - used, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (w > 0) used += (size_t)w;
  }
  if (used + 5 < n)
    snprintf(buf + used, n - used, "]");
  else if (n > 4)
    snprintf(buf + n - 5, 5, "...]");
}

void lt_device_str(DLDevice d, char *buf, size_t n) {
  static const char *const names[] = {NULL,     "cpu",       "cuda",    "cuda_host",    "opencl",
                                      NULL,     NULL,        "vulkan",  "metal",        "vpi",
                                      "rocm",   "rocm_host", "ext_dev", "cuda_managed", "oneapi",
                                      "webgpu", "hexagon",   "maia",    "trn"};
  int dt = (int)d.device_type;
  const char *name = dt >= 0 && dt < (int)(sizeof names / sizeof names[0]) ? names[dt] : NULL;
  if (dt == kDLCPU)
    snprintf(buf, n, "cpu");
  else if (name)
    snprintf(buf, n, "%s:%d", name, (int)d.device_id);
  else
    snprintf(buf, n, "device%d:%d", dt, (int)d.device_id);
}

int lt_check_writable(const lt_tensor *t, lt_error *err) {
  const char *why = lt_readonly_reason(t);
  if (why) return lt_fail(err, LT_EREADONLY, "%s", why);
  return lt_check_readable(t, err);
}

int lt_prepare_write(lt_tensor *t, lt_error *err) {
  int rc = lt_check_writable(t, err);
  if (rc) return rc;
  if (t->storage->shared && lt_storage_unshare(t->storage))
    return lt_fail_nomem(err, t->storage->block->nbytes);
  return LT_OK;
}

int lt_tensor_pin(lt_tensor *t, lt_error *err) {
  if (t->storage->pinned) return LT_OK;
  if (lt_storage_pin(t->storage)) return lt_fail_nomem(err, t->storage->block->nbytes);
  return LT_OK;
}

/* }====== */

/* {====== headers ====== */

lt_tensor *lt_tensor_alloc(int ndim) {
  if (ndim < 0 || ndim > LT_MAX_NDIM) return NULL;
  lt_tensor *t = malloc(sizeof *t + 2 * (size_t)ndim * sizeof(int64_t));
  if (!t) return NULL;
  t->storage = NULL;
  t->offset = 0;
  t->dtype = LT_FLOAT32;
  t->dl_dtype = lt_dtypes[LT_FLOAT32].dl;
  t->ndim = ndim;
  t->readonly = LT_WRITABLE;
  t->packed = 0;
  t->shape = t->dims;
  t->strides = t->dims + ndim;
  return t;
}

void lt_tensor_free(lt_tensor *t) {
  if (!t) return;
  lt_storage *s = t->storage;
  int inside = s && s->home == (void *)t; /* t lives in s's allocation (lt_dlpack's import) */
  lt_storage_release(s);                  /* frees t too, with s's last reference */
  if (!inside) free(t);
}

int lt_tensor_new(lt_dtype dt, int ndim, const int64_t *shape, int zero, lt_tensor **out,
                  lt_error *err) {
  int64_t n;
  if (ndim < 0 || ndim > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "too many dimensions (%d, at most %d)", ndim, LT_MAX_NDIM);
  int rc = lt_shape_numel(ndim, shape, &n, err);
  if (rc) return rc;
  int64_t bytes;
  if (lt_size_mul(n, (int64_t)lt_dtypes[dt].size, &bytes, NULL) ||
      (uint64_t)bytes > (uint64_t)(PTRDIFF_MAX - 2 * LT_ALIGN))
    return lt_fail(err, LT_ERANGE, "tensor of %lld elements of %s is too large", (long long)n,
                   lt_dtype_name(dt));
  lt_tensor *t = lt_tensor_alloc(ndim);
  if (!t) return lt_fail(err, LT_ENOMEM, "not enough memory");
  t->storage = lt_storage_new((size_t)bytes, zero);
  if (!t->storage) {
    lt_tensor_free(t);
    return lt_fail_nomem(err, (size_t)bytes);
  }
  t->dtype = dt;
  t->dl_dtype = lt_dtypes[dt].dl;
  if (ndim > 0) memcpy(t->shape, shape, (size_t)ndim * sizeof(int64_t));
  lt_contiguous_strides(ndim, shape, t->strides);
  *out = t;
  return LT_OK;
}

/* }====== */

/* {====== views ====== */

/* Gives v the layout ndim, shape, strides (the last step of a view that passed its checks). */
static int set_layout(lt_tensor *v, int ndim, const int64_t *shape, const int64_t *strides) {
  v->ndim = ndim;
  memcpy(v->shape, shape, (size_t)ndim * sizeof(int64_t));
  memcpy(v->strides, strides, (size_t)ndim * sizeof(int64_t));
  return LT_OK;
}

lt_tensor *lt_frame_of(lt_frame *f, const lt_tensor *t) {
  lt_tensor *v = &f->t;
  v->storage = t->storage;
  v->offset = t->offset;
  v->dtype = t->dtype;
  v->dl_dtype = t->dl_dtype;
  v->ndim = t->ndim;
  v->readonly = t->readonly;
  v->packed = t->packed;
  v->shape = f->room.dims;
  v->strides = f->room.dims + LT_MAX_NDIM;
  memcpy(v->shape, t->shape, (size_t)t->ndim * sizeof(int64_t));
  memcpy(v->strides, t->strides, (size_t)t->ndim * sizeof(int64_t));
  return v;
}

int lt_tensor_alias(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  lt_tensor *v = lt_tensor_alloc(t->ndim);
  if (!v) return lt_fail(err, LT_ENOMEM, "not enough memory");
  v->storage = lt_storage_retain(t->storage);
  v->offset = t->offset;
  v->dtype = t->dtype;
  v->dl_dtype = t->dl_dtype;
  v->readonly = t->readonly;
  v->packed = t->packed;
  memcpy(v->shape, t->shape, (size_t)t->ndim * sizeof(int64_t));
  memcpy(v->strides, t->strides, (size_t)t->ndim * sizeof(int64_t));
  *out = v;
  return LT_OK;
}

/* The end of a view operation: an in-place one ran on v, a frame of the tensor (lt_frame_of),
   with result rc; on success v gets its own header. */
static int view_result(int rc, const lt_tensor *v, lt_tensor **out, lt_error *err) {
  return rc ? rc : lt_tensor_alias(v, out, err);
}

int lt_check_dim(const lt_tensor *t, int dim, lt_error *err) {
  if (dim < 0 || dim >= t->ndim) return lt_dim_error(err, dim, t->ndim);
  return LT_OK;
}

int lt_dim_error(lt_error *err, int dim, int ndim) {
  return lt_fail(err, LT_ERANGE, "dim %lld out of range (expected 1 to %d)", (long long)dim + 1,
                 ndim); /* dim may be INT_MAX */
}

/* The 0-based index i as the 1-based number an error message shows; i may be INT64_MAX. */
static const char *one_based(int64_t i, char buf[24]) {
  if (i >= 0)
    snprintf(buf, 24, "%llu", (unsigned long long)i + 1);
  else
    snprintf(buf, 24, "%lld", (long long)i + 1);
  return buf;
}

/* Elements packed several to a byte have no byte address of their own. */
static int packed_offset_error(lt_error *err) {
  return lt_fail(err, LT_EARG,
                 "this view would start inside a byte of a packed sub-byte tensor; only views "
                 "that keep the first element are possible");
}

void lt_drop_dim_(lt_tensor *v, int d) {
  memmove(v->shape + d, v->shape + d + 1, (size_t)(v->ndim - d - 1) * sizeof(int64_t));
  memmove(v->strides + d, v->strides + d + 1, (size_t)(v->ndim - d - 1) * sizeof(int64_t));
  v->ndim--;
}

int lt_infer_shape(int64_t numel, int ndim, const int64_t *shape, int64_t *res, lt_error *err) {
  int infer = -1, zero = 0;
  int64_t known = 1;
  for (int i = 0; i < ndim; i++) {
    res[i] = shape[i];
    if (shape[i] == -1) {
      if (infer >= 0) return lt_fail(err, LT_EARG, "only one dimension can be inferred (-1)");
      infer = i;
    } else if (shape[i] < 0) {
      return lt_fail(err, LT_ERANGE, "invalid size %lld for dim %d", (long long)shape[i], i + 1);
    } else if (shape[i] == 0) {
      zero = 1;
    }
  }
  for (int i = 0; i < ndim && !zero; i++)
    if (i != infer && lt_size_mul(known, shape[i], &known, NULL))
      return lt_fail(err, LT_ERANGE, "shape has too many elements (overflow)");
  if (zero) known = 0;
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      return lt_fail(err, LT_EARG, "shape is invalid for input of size %lld (cannot infer -1)",
                     (long long)numel);
    res[infer] = numel / known;
    known = numel;
  }
  if (known != numel)
    return lt_fail(err, LT_EARG, "shape of %lld elements is invalid for input of size %lld",
                   (long long)known, (long long)numel);
  return lt_shape_numel(ndim, res, &known, err); /* sizes beside a zero must not overflow */
}

/* Strides that let newshape view (oldshape, oldstride) without copying; 0 when impossible.
   Dims of the old tensor that are contiguous with each other form chunks; each chunk must
   map onto whole dims of the new shape. */
static int view_strides(int on, const int64_t *oshape, const int64_t *ostride, int nn,
                        const int64_t *nshape, int64_t *nstride, int64_t numel) {
  if (on == 0) {
    for (int i = 0; i < nn; i++) nstride[i] = 1;
    return 1;
  }
  if (numel == 0) {
    lt_contiguous_strides(nn, nshape, nstride);
    return 1;
  }
  int vd = nn - 1;
  uint64_t chunk_stride = (uint64_t)ostride[on - 1];
  int64_t tnumel = 1, vnumel = 1;
  for (int td = on - 1; td >= 0; td--) {
    tnumel *= oshape[td];
    if (td == 0 ||
        (oshape[td - 1] != 1 && (uint64_t)ostride[td - 1] != (uint64_t)tnumel * chunk_stride)) {
      while (vd >= 0 && (vnumel < tnumel || nshape[vd] == 1)) {
        nstride[vd] = (int64_t)((uint64_t)vnumel * chunk_stride);
        vnumel *= nshape[vd];
        vd--;
      }
      if (vnumel != tnumel) return 0;
      if (td > 0) {
        chunk_stride = (uint64_t)ostride[td - 1];
        tnumel = 1;
        vnumel = 1;
      }
    }
  }
  return vd == -1;
}

/* v viewed with shape (one -1 allowed); 0 on success, LT_EARG when strides forbid it. */
static int view_(lt_tensor *v, int ndim, const int64_t *shape, lt_error *err) {
  int64_t res[LT_MAX_NDIM], st[LT_MAX_NDIM];
  if (ndim < 0 || ndim > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "too many dimensions (%d, at most %d)", ndim, LT_MAX_NDIM);
  int64_t numel = lt_numel(v);
  int rc = lt_infer_shape(numel, ndim, shape, res, err);
  if (rc) return rc;
  if (!view_strides(v->ndim, v->shape, v->strides, ndim, res, st, numel))
    return lt_fail(err, LT_EARG,
                   "view size is not compatible with the tensor's size and stride (a dimension "
                   "spans two contiguous subspaces); use reshape instead");
  return set_layout(v, ndim, res, st);
}

int lt_view(const lt_tensor *t, int ndim, const int64_t *shape, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(view_(v, ndim, shape, err), v, out, err);
}

static int transpose_(lt_tensor *v, int d0, int d1, lt_error *err) {
  int rc;
  if ((rc = lt_check_dim(v, d0, err)) || (rc = lt_check_dim(v, d1, err))) return rc;
  int64_t sh = v->shape[d0], st = v->strides[d0];
  v->shape[d0] = v->shape[d1];
  v->strides[d0] = v->strides[d1];
  v->shape[d1] = sh;
  v->strides[d1] = st;
  return LT_OK;
}

int lt_transpose(const lt_tensor *t, int d0, int d1, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(transpose_(v, d0, d1, err), v, out, err);
}

static int permute_(lt_tensor *v, const int *perm, lt_error *err) {
  unsigned char seen[LT_MAX_NDIM] = {0};
  int64_t sh[LT_MAX_NDIM], st[LT_MAX_NDIM];
  for (int i = 0; i < v->ndim; i++) {
    int rc = lt_check_dim(v, perm[i], err);
    if (rc) return rc;
    if (seen[perm[i]]++)
      return lt_fail(err, LT_EARG, "dimension %d repeats in permutation", perm[i] + 1);
    sh[i] = v->shape[perm[i]];
    st[i] = v->strides[perm[i]];
  }
  return set_layout(v, v->ndim, sh, st);
}

int lt_permute(const lt_tensor *t, const int *perm, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(permute_(v, perm, err), v, out, err);
}

int lt_slice_(lt_tensor *v, int dim, int64_t start, int64_t count, int64_t step, lt_error *err) {
  int rc = lt_check_dim(v, dim, err);
  if (rc) return rc;
  int64_t n = v->shape[dim];
  if (step == 0) return lt_fail(err, LT_EARG, "slice step cannot be zero");
  if (count < 0) return lt_fail(err, LT_ERANGE, "slice length %lld is negative", (long long)count);
  if (count > 0) {
    int64_t last;
    if (start < 0 || start >= n || lt_mul_overflow(count - 1, step, &last) ||
        lt_add_overflow(start, last, &last) || last < 0 || last >= n)
      return lt_fail(err, LT_ERANGE, "slice out of range for dim %d of size %lld", dim + 1,
                     (long long)n);
    if (v->packed && start * v->strides[dim] != 0) return packed_offset_error(err);
    v->offset += start * v->strides[dim];
  } else if (start < 0 || start > n) {
    char pos[24];
    return lt_fail(err, LT_ERANGE, "slice start %s out of range for dim %d of size %lld",
                   one_based(start, pos), dim + 1, (long long)n);
  }
  v->shape[dim] = count;
  if (count > 1) v->strides[dim] *= step; /* |step| * (count-1) * stride stays in range */
  return LT_OK;
}

int lt_slice(const lt_tensor *t, int dim, int64_t start, int64_t count, int64_t step,
             lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(lt_slice_(v, dim, start, count, step, err), v, out, err);
}

int lt_narrow(const lt_tensor *t, int dim, int64_t start, int64_t length, lt_tensor **out,
              lt_error *err) {
  int rc = lt_check_dim(t, dim, err);
  if (rc) return rc;
  int64_t n = t->shape[dim];
  char pos[24];
  if (start < 0 || start > n)
    return lt_fail(err, LT_ERANGE, "start %s out of range for dim %d of size %lld",
                   one_based(start, pos), dim + 1, (long long)n);
  if (length < 0 || length > n - start)
    return lt_fail(err, LT_ERANGE, "start %lld + length %lld exceeds size %lld of dim %d",
                   (long long)start + 1, (long long)length, (long long)n, dim + 1);
  return lt_slice(t, dim, start, length, 1, out, err);
}

int lt_select_(lt_tensor *v, int dim, int64_t index, lt_error *err) {
  int rc = lt_check_dim(v, dim, err);
  if (rc) return rc;
  char pos[24];
  if (index < 0 || index >= v->shape[dim])
    return lt_fail(err, LT_ERANGE, "index %s is out of range for dim %d of size %lld",
                   one_based(index, pos), dim + 1, (long long)v->shape[dim]);
  if (v->packed && index * v->strides[dim] != 0) return packed_offset_error(err);
  v->offset += index * v->strides[dim];
  lt_drop_dim_(v, dim);
  return LT_OK;
}

int lt_select(const lt_tensor *t, int dim, int64_t index, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(lt_select_(v, dim, index, err), v, out, err);
}

static int unsqueeze_(lt_tensor *v, int dim, lt_error *err) {
  if (dim < 0 || dim > v->ndim) return lt_dim_error(err, dim, v->ndim + 1);
  if (v->ndim >= LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "too many dimensions (at most %d)", LT_MAX_NDIM);
  /* the stride of a size-1 dim is never used to address: when size * stride overflows (a
     DLPack tensor's huge stride), any value does */
  int64_t st = 1;
  if (dim < v->ndim && lt_mul_overflow(v->shape[dim], v->strides[dim], &st)) st = v->strides[dim];
  memmove(v->shape + dim + 1, v->shape + dim, (size_t)(v->ndim - dim) * sizeof(int64_t));
  memmove(v->strides + dim + 1, v->strides + dim, (size_t)(v->ndim - dim) * sizeof(int64_t));
  v->shape[dim] = 1;
  v->strides[dim] = st;
  v->ndim++;
  return LT_OK;
}

int lt_unsqueeze(const lt_tensor *t, int dim, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(unsqueeze_(v, dim, err), v, out, err);
}

static int squeeze_(lt_tensor *v, int dim, lt_error *err) {
  int rc;
  if (dim >= 0) {
    if ((rc = lt_check_dim(v, dim, err))) return rc;
    if (v->shape[dim] == 1) lt_drop_dim_(v, dim);
    return LT_OK;
  }
  for (int i = v->ndim - 1; i >= 0; i--)
    if (v->shape[i] == 1) lt_drop_dim_(v, i);
  return LT_OK;
}

int lt_squeeze(const lt_tensor *t, int dim, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(squeeze_(v, dim, err), v, out, err);
}

static int expand_(lt_tensor *v, int ndim, const int64_t *sizes, lt_error *err) {
  if (ndim < v->ndim)
    return lt_fail(err, LT_EARG, "the number of sizes (%d) must be at least the tensor's dims (%d)",
                   ndim, v->ndim);
  if (ndim > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "too many dimensions (%d, at most %d)", ndim, LT_MAX_NDIM);
  int64_t sh[LT_MAX_NDIM], st[LT_MAX_NDIM], numel;
  int lead = ndim - v->ndim;
  for (int i = 0; i < ndim; i++) {
    int64_t want = sizes[i];
    if (i < lead) {
      if (want < 0)
        return lt_fail(err, LT_EARG, "size %lld is not allowed for new leading dim %d",
                       (long long)want, i + 1);
      sh[i] = want;
      st[i] = 0;
      continue;
    }
    int64_t have = v->shape[i - lead];
    if (want == -1) want = have;
    if (want == have) {
      sh[i] = have;
      st[i] = v->strides[i - lead];
    } else if (have == 1 && want >= 0) {
      sh[i] = want;
      st[i] = 0;
    } else {
      return lt_fail(err, LT_EARG, "size %lld of dim %d must be 1 to expand to %lld",
                     (long long)have, i + 1, (long long)want);
    }
  }
  int rc = lt_shape_numel(ndim, sh, &numel, err);
  if (rc) return rc;
  int64_t bytes;
  if (lt_size_mul(numel, (int64_t)lt_esize(v), &bytes, NULL))
    return lt_fail(err, LT_ERANGE, "%lld elements are too many bytes (overflow)", (long long)numel);
  return set_layout(v, ndim, sh, st);
}

int lt_expand(const lt_tensor *t, int ndim, const int64_t *sizes, lt_tensor **out, lt_error *err) {
  lt_frame f;
  lt_tensor *v = lt_frame_of(&f, t);
  return view_result(expand_(v, ndim, sizes, err), v, out, err);
}

/* }====== */
