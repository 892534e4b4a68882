/*
 * lt_dlpack.c -- producing and consuming DLPack managed tensors (see lt_dlpack.h).
 */
#include "lt_dlpack.h"
#include "lt_checked.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"

/* Type codes and device types by number: an external dlpack.h 1.0 lacks the newer names. */
enum { FP8_FIRST = 7, FP8_LAST = 14, FP6_E2M3 = 15, FP6_E3M2 = 16, FP4_E2M1 = 17 };
enum { DEV_VULKAN = 7, DEV_LAST = 18 };

/* {====== export ====== */

/*
 * One allocation per export: room for a tensor header first, then the managed tensor, the
 * memory block it keeps alive (the block, not the handle: a handle may move to a new block when
 * a clone is written), room for a storage handle, then shape and strides. When the export comes
 * back to ltensor (import_own), the allocation becomes the imported tensor: the header is
 * written in front, the handle adopts the export's block reference, and shape and strides stay
 * where they are, so a round trip allocates once.
 */
typedef struct {
  union {
    DLManagedTensorVersioned v;
    DLManagedTensor l;
  } m;
  lt_block *block;
  const char *lo, *hi; /* the bytes the exported elements occupy: an import may not leave them */
  int ndim;            /* as exported: shape and strides have room for this many */
  lt_storage handle;   /* unused until import_own */
  int64_t dims[];      /* shape, then strides */
} export_block;

/* Bytes before the export_block: a tensor header (without its dims), suitably aligned. */
#define HEAD_ROOM \
  ((sizeof(lt_tensor) + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t))

static void *export_base(export_block *b) { return (char *)b - HEAD_ROOM; }

static void delete_versioned(DLManagedTensorVersioned *self) {
  export_block *b = self->manager_ctx;
  lt_block_release(b->block);
  free(export_base(b));
}

static void delete_legacy(DLManagedTensor *self) {
  export_block *b = self->manager_ctx;
  lt_block_release(b->block);
  free(export_base(b));
}

int lt_dlpack_export(lt_tensor *t, int versioned, int copy, int read_only, void **out,
                     lt_error *err) {
  if (t->storage->revoked) return lt_fail(err, LT_EREVOKED, "tensor has been released");
  int rc = lt_check_mapping(t, err); /* a consumer would read zeros where the file was */
  if (rc) return rc;
  read_only = read_only || (!copy && t->readonly != LT_WRITABLE); /* a copy is the consumer's */
  if (read_only && !versioned)
    return lt_fail(err, LT_EREADONLY,
                   "a read-only tensor cannot be exported as a legacy DLPack capsule, which "
                   "cannot mark it read-only (ask for max_version >= 1)");
  lt_tensor *src = NULL;
  if (copy) {
    if ((rc = lt_clone(t, &src, err))) return rc;
    t = src;
  } else if (!read_only && (rc = lt_tensor_pin(t, err))) {
    return rc; /* the consumer may write: t gets a block of its own that is never shared again */
  }
  char *base = malloc(HEAD_ROOM + sizeof(export_block) + 2 * (size_t)t->ndim * sizeof(int64_t));
  if (!base) {
    lt_tensor_free(src);
    return lt_fail(err, LT_ENOMEM, "not enough memory");
  }
  export_block *b = (export_block *)(base + HEAD_ROOM);
  memset(&b->m, 0, sizeof b->m);
  b->block = lt_block_retain(t->storage->block);
  b->lo = b->hi = NULL;
  b->ndim = t->ndim;
  if (lt_numel(t) > 0) lt_byte_extent(t, &b->lo, &b->hi);
  if (t->ndim > 0) {
    memcpy(b->dims, t->shape, (size_t)t->ndim * sizeof(int64_t));
    memcpy(b->dims + t->ndim, t->strides, (size_t)t->ndim * sizeof(int64_t));
  }
  DLTensor *dl = versioned ? &b->m.v.dl_tensor : &b->m.l.dl_tensor;
  dl->data = lt_data(t); /* never NULL, even when empty: torch before 2.3 never frees those */
  dl->device = t->storage->device;
  dl->ndim = t->ndim;
  dl->dtype = t->dl_dtype;
  dl->shape = t->ndim > 0 ? b->dims : NULL;
  dl->strides = t->ndim > 0 ? b->dims + t->ndim : NULL;
  dl->byte_offset = 0;
  if (versioned) {
    b->m.v.version.major = LT_DLPACK_MAJOR;
    b->m.v.version.minor = LT_DLPACK_MINOR;
    b->m.v.manager_ctx = b;
    b->m.v.deleter = delete_versioned;
    b->m.v.flags = (read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0) |
                   (copy ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
    if ((size_t)t->dl_dtype.bits * t->dl_dtype.lanes < 8 && !t->packed)
      b->m.v.flags |= DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  } else {
    b->m.l.manager_ctx = b;
    b->m.l.deleter = delete_legacy;
  }
  lt_tensor_free(src); /* the export holds its own block reference */
  *out = &b->m;
  return LT_OK;
}

uint64_t lt_dlpack_flags(const DLManagedTensorVersioned *m) { return m ? m->flags : 0; }

/* }====== */

/* {====== import ====== */

void lt_dlpack_delete(void *managed, int versioned) {
  if (versioned) {
    DLManagedTensorVersioned *m = managed;
    if (m->deleter) m->deleter(m);
  } else {
    DLManagedTensor *m = managed;
    if (m->deleter) m->deleter(m);
  }
}

static void release_versioned(void *ctx, void *data) {
  (void)data;
  lt_dlpack_delete(ctx, 1);
}

static void release_legacy(void *ctx, void *data) {
  (void)data;
  lt_dlpack_delete(ctx, 0);
}

/* Whether DLPack defines this (code, bits, lanes); *dt is LT_OPAQUE when ltensor cannot
   compute with it. */
static int valid_dtype(DLDataType d, lt_dtype *dt) {
  *dt = lt_dtype_from_dl(d);
  if (*dt != LT_OPAQUE) return 1;
  if (d.lanes < 1 || d.bits == 0) return 0;
  switch (d.code) {
    case kDLInt:
    case kDLUInt: return d.bits == 8 || d.bits == 16 || d.bits == 32 || d.bits == 64;
    case kDLFloat: return d.bits == 16 || d.bits == 32 || d.bits == 64;
    case kDLBfloat: return d.bits == 16;
    case kDLComplex: return d.bits == 32 || d.bits == 64 || d.bits == 128;
    case kDLBool: return d.bits == 8;
    case kDLOpaqueHandle: return d.bits % 8 == 0;
    case FP6_E2M3:
    case FP6_E3M2: return d.bits == 6;
    case FP4_E2M1: return d.bits == 4;
    default: return d.code >= FP8_FIRST && d.code <= FP8_LAST && d.bits == 8;
  }
}

static int valid_device(DLDeviceType t) {
  return ((int)t >= kDLCPU && (int)t <= kDLOpenCL) || ((int)t >= DEV_VULKAN && (int)t <= DEV_LAST);
}

/* Checks dl; on success fills the element count and the dtype. Message in err. */
/* Where a valid tensor's elements lie, in bytes from its first element (data + byte_offset):
   [lo, hi), lo <= 0 (negative strides walk backwards). Both 0 for an empty tensor. */
typedef struct {
  int64_t lo, hi;
} extent;

/* The element count of a shape whose sizes are all positive, into *numel, when it fits: the
   usual import's shape, checked without a call. 0 for anything else (lt_shape_numel says why). */
static int positive_numel(int ndim, const int64_t *shape, int64_t *numel) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    if (shape[i] <= 0 || lt_mul_overflow(n, shape[i], &n)) return 0;
  *numel = n;
  return 1;
}

static int validate(const DLTensor *dl, uint64_t flags, int64_t *numel, lt_dtype *dtp, extent *ext,
                    lt_error *err) {
  if (dl->ndim < 0 || dl->ndim > LT_MAX_NDIM)
    return lt_fail(err, LT_EARG, "DLPack tensor has %d dims (ltensor takes 0 to %d)", (int)dl->ndim,
                   LT_MAX_NDIM);
  if (dl->ndim > 0 && !dl->shape)
    return lt_fail(err, LT_EARG, "DLPack tensor of %d dims has a NULL shape", (int)dl->ndim);
  lt_dtype dt;
  if (!valid_dtype(dl->dtype, &dt))
    return lt_fail(err, LT_EARG, "DLPack tensor has an invalid dtype (code %d, bits %d, lanes %d)",
                   dl->dtype.code, dl->dtype.bits, dl->dtype.lanes);
  if (!valid_device(dl->device.device_type))
    return lt_fail(err, LT_EARG, "DLPack tensor has an unknown device type %d",
                   (int)dl->device.device_type);
  if (!positive_numel(dl->ndim, dl->shape, numel)) { /* a zero, negative or huge size */
    lt_error why; /* its own buffer: err->msg cannot be both the output and an argument */
    int rc = lt_shape_numel(dl->ndim, dl->shape, numel, &why);
    if (rc) return lt_fail(err, rc, "DLPack tensor: %s", why.msg);
  }
  uint64_t bits = (uint64_t)dl->dtype.bits * dl->dtype.lanes;
  int packed = bits < 8 && !(flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
  uint64_t esize = packed ? 1 : (bits + 7) / 8;
  if (dl->byte_offset % esize != 0 || (packed && dl->byte_offset != 0) ||
      dl->byte_offset > (uint64_t)INT64_MAX / 2)
    return lt_fail(err, LT_EARG,
                   "DLPack tensor byte_offset %llu is not a multiple of the element size (%d)",
                   (unsigned long long)dl->byte_offset, (int)esize);
  if (*numel > 0 && !dl->data)
    return lt_fail(err, LT_EARG, "DLPack tensor of %lld elements has NULL data", (long long)*numel);
  *dtp = dt;
  ext->lo = ext->hi = 0;
  if (*numel > 0 && dt != LT_OPAQUE &&
      ((uintptr_t)dl->data + dl->byte_offset) % lt_dtypes[dt].align != 0)
    return lt_fail(err, LT_EARG,
                   "DLPack tensor data is not aligned for %s (address %% %d != 0); copy it to "
                   "an aligned buffer first",
                   lt_dtypes[dt].name, (int)lt_dtypes[dt].align);
  if (*numel > 0) { /* the farthest element from the start, in bytes, must be addressable */
    int64_t span = 0, back = 0, part; /* back: how far negative strides walk below the start */
    for (int i = 0; i < dl->ndim; i++) {
      int64_t st = dl->strides ? dl->strides[i] : 0;
      if (st == INT64_MIN || lt_mul_overflow(dl->shape[i] - 1, st < 0 ? -st : st, &part) ||
          lt_add_overflow(span, part, &span))
        return lt_fail(err, LT_ERANGE, "DLPack tensor strides overflow its address space");
      if (st < 0) back += part; /* <= span: no overflow */
    }
    if (!dl->strides) span = *numel - 1;
    if (lt_add_overflow(span, (int64_t)1, &part) || /* span may be INT64_MAX */
        lt_mul_overflow(part, (int64_t)esize, &part) ||
        lt_add_overflow(part, (int64_t)dl->byte_offset, &part))
      return lt_fail(err, LT_ERANGE, "DLPack tensor is too large for the address space");
    /* and every element's address must exist: no wrap above the data pointer, none below it
       (negative strides walk backwards by at most span elements) */
    uintptr_t base = (uintptr_t)dl->data;
    if (base > UINTPTR_MAX - (uint64_t)part || base + dl->byte_offset < (uint64_t)back * esize)
      return lt_fail(err, LT_ERANGE, "DLPack tensor elements lie outside the address space");
    ext->lo = -back * (int64_t)esize;             /* back <= span: the products fit */
    ext->hi = (span - back + 1) * (int64_t)esize; /* <= part - byte_offset */
  }
  return LT_OK;
}

/* Stand-in address for the data of empty tensors that came with NULL data. */
static _Alignas(64) unsigned char empty_data[64];

/*
 * ltensor's own export coming back (from this or another state, any thread): nothing to
 * allocate, its allocation becomes the tensor (see export_block), with a pinned handle that takes
 * over the export's block reference. Whoever held it may have changed its fields, so it was
 * validated as any import (ext), and its elements must lie inside the bytes that were exported;
 * byte_offset counts.
 */
static int import_own(DLManagedTensorVersioned *m, const extent *ext, lt_dtype dt, lt_tensor **out,
                      lt_error *err) {
  export_block *b = m->manager_ctx;
  const DLTensor *dl = &m->dl_tensor;
  /* validate() saw that no element's address wraps: these sums do not overflow */
  uintptr_t first = (uintptr_t)dl->data + dl->byte_offset, block = (uintptr_t)b->block->data;
  int64_t esize = (int64_t)(((size_t)dl->dtype.bits * dl->dtype.lanes + 7) / 8);
  if (dl->ndim != b->ndim) {
    delete_versioned(m);
    return lt_fail(err, LT_EARG, "DLPack tensor has %d dims where it was exported with %d",
                   (int)dl->ndim, b->ndim);
  }
  if (ext->hi > 0 && (first - (uintptr_t)-ext->lo < (uintptr_t)b->lo ||
                      first + (uintptr_t)ext->hi > (uintptr_t)b->hi || (first - block) % esize)) {
    delete_versioned(m);
    return lt_fail(err, LT_ERANGE,
                   "DLPack tensor elements lie outside the memory it was exported "
                   "with");
  }
  /* shape and strides stay in the export; brought back there when the holder moved them */
  int n = dl->ndim;
  if (n > 0 && (dl->shape != b->dims || !dl->strides || dl->strides != b->dims + n || !ext->hi)) {
    int64_t dims[2 * LT_MAX_NDIM];
    memcpy(dims, dl->shape, (size_t)n * sizeof(int64_t));
    if (dl->strides && ext->hi > 0)
      memcpy(dims + n, dl->strides, (size_t)n * sizeof(int64_t));
    else /* compact, and an empty tensor's strides address nothing: row-major */
      lt_contiguous_strides(n, dims, dims + n);
    memcpy(b->dims, dims, 2 * (size_t)n * sizeof(int64_t));
  }
  lt_tensor *t = export_base(b);
  lt_storage_adopt(&b->handle, b->block, dl->device, t);
  t->storage = &b->handle;
  t->dl_dtype = dl->dtype;
  t->dtype = dt;
  t->ndim = dl->ndim;
  t->packed = (size_t)dl->dtype.bits * dl->dtype.lanes < 8 &&
              !(m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
  /* the first element lies in the block (checked above) */
  t->offset = ext->hi > 0 ? (int64_t)(first - block) / esize : 0;
  t->readonly = m->flags & DLPACK_FLAG_BITMASK_READ_ONLY ? LT_RO_DLPACK : LT_WRITABLE;
  t->shape = b->dims;
  t->strides = b->dims + n;
  *out = t;
  return LT_OK;
}

int lt_dlpack_import(void *managed, int versioned, lt_tensor **out, lt_error *err) {
  if (!managed) return lt_fail(err, LT_EARG, "DLPack managed tensor is NULL");
  const DLTensor *dl;
  uint64_t flags = 0;
  if (versioned) {
    DLManagedTensorVersioned *m = managed;
    if (m->version.major != LT_DLPACK_MAJOR) {
      unsigned major = m->version.major, minor = m->version.minor;
      lt_dlpack_delete(managed, 1);
      return lt_fail(err, LT_EARG,
                     "unsupported DLPack version %u.%u (ltensor reads major version %d)", major,
                     minor, LT_DLPACK_MAJOR);
    }
    dl = &m->dl_tensor;
    flags = m->flags;
  } else {
    dl = &((DLManagedTensor *)managed)->dl_tensor;
  }
  int64_t numel;
  lt_dtype dt = LT_OPAQUE;
  extent ext;
  int rc = validate(dl, flags, &numel, &dt, &ext, err);
  if (!rc && versioned && ((DLManagedTensorVersioned *)managed)->deleter == delete_versioned)
    return import_own(managed, &ext, dt, out, err);
  lt_tensor *t = rc ? NULL : lt_tensor_alloc(dl->ndim);
  if (!rc && !t) rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  if (rc) {
    lt_dlpack_delete(managed, versioned);
    return rc;
  }
  void *data = dl->data ? dl->data : empty_data;
  size_t span = (size_t)(ext.hi - ext.lo); /* what the importer's memory account is charged */
  t->storage = lt_storage_wrap(data, 0, span, dl->device,
                               versioned ? release_versioned : release_legacy, managed);
  if (!t->storage) {
    lt_tensor_free(t);
    lt_dlpack_delete(managed, versioned);
    return lt_fail_nomem_at(err, span, "DLPack import: ");
  }
  /* from here on the storage owns the managed tensor: freeing t calls the deleter */
  uint64_t bits = (uint64_t)dl->dtype.bits * dl->dtype.lanes;
  t->dl_dtype = dl->dtype;
  t->dtype = dt;
  t->packed = bits < 8 && !(flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
  t->offset = dl->data ? (int64_t)(dl->byte_offset / lt_esize(t)) : 0;
  t->readonly = flags & DLPACK_FLAG_BITMASK_READ_ONLY ? LT_RO_DLPACK : LT_WRITABLE;
  if (dl->ndim > 0) {
    memcpy(t->shape, dl->shape, (size_t)dl->ndim * sizeof(int64_t));
    /* an empty tensor's strides address nothing and are not checked (any value passes), but
       views compute offsets with them (select(1, 4) of a (0, 5) tensor adds 4 * stride):
       row-major ones instead, whose products fit like the shape's */
    if (dl->strides && numel > 0)
      memcpy(t->strides, dl->strides, (size_t)dl->ndim * sizeof(int64_t));
    else
      lt_contiguous_strides(dl->ndim, t->shape, t->strides);
  }
  *out = t;
  return LT_OK;
}

/* }====== */
