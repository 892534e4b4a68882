/*
 * lt_tensor.h -- the core tensor: a view (dtype, shape, strides, offset) over a storage.
 *
 * Owns: tensor creation, shape and size arithmetic (every product checked for overflow), the
 * views (view, transpose, permute, narrow, select, slice, unsqueeze, squeeze, expand),
 * contiguity, read-only state and the copy-on-write questions a writer asks. Views never
 * allocate element data: what may copy (clone, cast, reshape, flatten) is lt_copy.h's.
 * Dimensions are 0-based here; the Lua binding maps its 1-based, negative-from-the-end numbers
 * onto them. Every view holds a reference to the storage, so a view keeps its base's data
 * alive. Lua-free.
 *
 * Calls lt_storage.c and lt_dtype.c only. Called by every other core file and the binding.
 *
 * Functions that can fail return an LT_E* code and, when err is not NULL, a message in it.
 */
#ifndef LT_TENSOR_H
#define LT_TENSOR_H

#include <stdint.h>

#include "lt_dtype.h"
#include "lt_storage.h"

#define LT_MAX_NDIM 64

/* Status codes. */
enum { LT_OK = 0, LT_ENOMEM, LT_EARG, LT_ERANGE, LT_EREADONLY, LT_EOPAQUE, LT_EREVOKED };

typedef struct {
  char msg[256];
} lt_error;

/* Records a message (printf-style) in err when it is not NULL; returns code. */
int lt_fail(lt_error *err, int code, const char *fmt, ...)
#if defined(__MINGW32__) /* checked as C99's printf: the build asks mingw-w64 for its C99 stdio */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* LT_ENOMEM after an allocation of nbytes of tensor data failed (lt_storage_new, _wrap,
   _unshare): "not enough memory (budget B bytes, U in use, N asked)" when the memory budget
   refused it (lt_account.h), else "not enough memory for N bytes". lt_fail_nomem_at puts the
   formatted `where` ("x.npy: ") first. */
int lt_fail_nomem(lt_error *err, size_t nbytes);
int lt_fail_nomem_at(lt_error *err, size_t nbytes, const char *where, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Why a tensor refuses writes (0: it does not). */
typedef enum {
  LT_WRITABLE = 0,
  LT_RO_DLPACK,  /* imported with DLPACK_FLAG_BITMASK_READ_ONLY */
  LT_RO_HOST,    /* pushed read-only by the host program */
  LT_RO_WRAPPER, /* came through a ReadOnlyTensorWrapper */
  LT_RO_MAPPED,  /* a file mapped read-only: its block's release context is an lt_block_note */
} lt_readonly;

typedef struct lt_tensor {
  lt_storage *storage;
  int64_t offset;      /* in elements, from storage->data to element (0, ..., 0) */
  lt_dtype dtype;      /* LT_OPAQUE for types ltensor keeps but cannot compute with */
  DLDataType dl_dtype; /* the DLPack type, always set */
  int ndim;
  lt_readonly readonly;
  int packed;       /* sub-byte elements packed several to a byte (DLPack fp4/fp6 unpadded) */
  int64_t *shape;   /* ndim sizes */
  int64_t *strides; /* ndim strides, in elements, may be zero or negative */
  int64_t dims[];   /* storage for shape then strides */
} lt_tensor;

/* The release context of a mapped file's block (lt_file.c makes it; every LT_RO_MAPPED tensor
   lies on one): the note read-only messages give, the file's name, and whether the file shrank
   under the mapping. `damaged` is set by the fault handler of the mapping guard (lt_mapguard.c),
   which mapped zero pages over what the file lost; from then on the tensors of the mapping are
   not readable (lt_readable, lt_check_mapping). */
typedef struct {
  lt_block_note note; /* first: lt_readonly_reason reads it as an lt_block_note */
  const char *path;
  atomic_int damaged;
} lt_map_note;

/* Whether t lies on a mapping whose file was truncated under it (see lt_map_note). */
static inline int lt_map_damaged(const lt_tensor *t) {
  if (t->readonly != LT_RO_MAPPED || !t->storage->block) return 0;
  lt_map_note *n = (lt_map_note *)t->storage->block->release_ctx;
  return atomic_load_explicit(&n->damaged, memory_order_relaxed) != 0;
}

/* Bytes per element (opaque sub-byte types round up). */
static inline size_t lt_esize(const lt_tensor *t) {
  return ((size_t)t->dl_dtype.bits * t->dl_dtype.lanes + 7) / 8;
}

/* Address of element (0, ..., 0). */
static inline char *lt_data(const lt_tensor *t) {
  return (char *)t->storage->data + t->offset * (int64_t)lt_esize(t);
}

/* LT_ERANGE, "dim %lld out of range (expected 1 to %d)" (dim + 1, ndim), the one message for
   a dim argument out of range; lt_check_dim: that error unless 0 <= dim < t->ndim. */
int lt_dim_error(lt_error *err, int dim, int ndim);
int lt_check_dim(const lt_tensor *t, int dim, lt_error *err);
/* Resolves one -1 in shape (ndim sizes) against numel into res; LT_EARG when the shape does
   not hold numel elements, LT_ERANGE for a negative size or an overflow. */
int lt_infer_shape(int64_t numel, int ndim, const int64_t *shape, int64_t *res, lt_error *err);
/* The one checked product for sizes and byte counts computed from a user's numbers (shapes,
   repeats, index counts, sample counts, element sizes): *out = a * b, a and b >= 0; LT_ERANGE,
   "size a x b is too large (overflow)", when the product does not fit int64. Every size product
   of the core goes through it or through lt_shape_numel, its product over a shape. */
int lt_size_mul(int64_t a, int64_t b, int64_t *out, lt_error *err);
/* Product of shape[0..ndim) into *out; LT_ERANGE on a negative size or overflow. */
int lt_shape_numel(int ndim, const int64_t *shape, int64_t *out, lt_error *err);
int64_t lt_numel(const lt_tensor *t);
/* The bytes t's elements take, as torch's nbytes (numel x element size, whatever the strides):
   packed sub-byte types count ceil(numel x bits / 8). LT_ERANGE when that overflows (an
   expanded view of very many elements). */
int lt_nbytes(const lt_tensor *t, int64_t *out, lt_error *err);
int lt_is_contiguous(const lt_tensor *t);
/* Fills row-major strides for shape. */
void lt_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
/* Fast check that the elements of t can be read from the host (see lt_check_readable). */
static inline int lt_readable(const lt_tensor *t) {
  DLDeviceType d = t->storage->device.device_type;
  return t->dtype != LT_OPAQUE && (d == kDLCPU || d == kDLCUDAHost || d == kDLROCMHost) &&
         !lt_map_damaged(t);
}
/* "[2, 3]": a shape for messages (cut short with "..." when buf is too small). */
void lt_shape_str(int ndim, const int64_t *shape, char *buf, size_t n);
/* "cpu", "cuda:0", ... as torch names devices. */
void lt_device_str(DLDevice d, char *buf, size_t n);
/* Message naming why t refuses writes, or NULL when it is writable. */
const char *lt_readonly_reason(const lt_tensor *t);
/* LT_OK when t may be written; LT_EREADONLY or LT_EOPAQUE with a message otherwise. */
int lt_check_writable(const lt_tensor *t, lt_error *err);
/* Before writing t's elements: lt_check_writable, then a block of its own if t's block is
   shared with a copy-on-write clone (every view of t follows). */
int lt_prepare_write(lt_tensor *t, lt_error *err);
/* Whether t may be written right now without lt_prepare_write: writable, readable, and its
   block not shared with a clone (the fast path of an element write). */
static inline int lt_write_ready(const lt_tensor *t) {
  return !t->readonly && !lt_storage_is_shared(t->storage) && lt_readable(t);
}
/* Whether a and b see one block of memory (a clone that shares its source's block does; an
   eager copy does not). */
static inline int lt_shares_block(const lt_tensor *a, const lt_tensor *b) {
  return a->storage == b->storage || a->storage->block == b->storage->block;
}
/* A writable address of t's memory escapes (data_ptr(), a writable export): gives t a block of
   its own if it shares one, and pins it so it is never shared again. LT_ENOMEM when the copy
   fails. */
int lt_tensor_pin(lt_tensor *t, lt_error *err);
/* LT_OK when the elements of t can be read as numbers (host device, known dtype, not on a
   damaged mapping). */
int lt_check_readable(const lt_tensor *t, lt_error *err);
/* LT_OK unless t lies on a mapping whose file was truncated under it (LT_EREVOKED, naming the
   file): what reads t's bytes without reading its elements (an export, a save) asks this. */
int lt_check_mapping(const lt_tensor *t, lt_error *err);

/* An uninitialised header for ndim dims (shape/strides pointers set), NULL when out of
   memory. Takes no storage reference. */
lt_tensor *lt_tensor_alloc(int ndim);
/* Releases the storage reference and the header. NULL is ignored. */
void lt_tensor_free(lt_tensor *t);

/* The end of an operation that made t (NULL if it failed before): *out = t when rc is LT_OK,
   else t is freed. Returns rc. */
static inline int lt_give(int rc, lt_tensor *t, lt_tensor **out) {
  if (rc)
    lt_tensor_free(t);
  else
    *out = t;
  return rc;
}

/* A new contiguous tensor on fresh storage; zero != 0 zero-fills it. */
int lt_tensor_new(lt_dtype dt, int ndim, const int64_t *shape, int zero, lt_tensor **out,
                  lt_error *err);
/* A header sharing t's storage, dtype, offset, shape, strides and read-only state. */
int lt_tensor_alias(const lt_tensor *t, lt_tensor **out, lt_error *err);

/*
 * A header with room for LT_MAX_NDIM dims, for views that live on the C stack: it borrows the
 * storage of the tensor it was made from (no reference), so it must not outlive it. The view
 * operations below work in place on a frame (lt_*_ functions); the allocating forms wrap them.
 */
typedef union {
  lt_tensor t;
  struct {
    char head[sizeof(lt_tensor)];
    int64_t dims[2 * LT_MAX_NDIM];
  } room;
} lt_frame;

/* Copies t's header into f (borrowing t's storage); returns &f->t. */
lt_tensor *lt_frame_of(lt_frame *f, const lt_tensor *t);

/* In-place views of a frame; on failure the frame is unchanged. */
int lt_select_(lt_tensor *v, int dim, int64_t index, lt_error *err);
/* Removes dim d (0-based, in range) from v's shape and strides, whatever its size (lt_select_
   would refuse a dim of size 0). */
void lt_drop_dim_(lt_tensor *v, int d);
int lt_slice_(lt_tensor *v, int dim, int64_t start, int64_t count, int64_t step, lt_error *err);

/* {====== views: each *out shares t's storage ====== */
/* shape may hold one -1 (inferred). Fails when the strides cannot express it. */
int lt_view(const lt_tensor *t, int ndim, const int64_t *shape, lt_tensor **out, lt_error *err);
int lt_transpose(const lt_tensor *t, int d0, int d1, lt_tensor **out, lt_error *err);
/* perm is a permutation of 0..ndim-1. */
int lt_permute(const lt_tensor *t, const int *perm, lt_tensor **out, lt_error *err);
int lt_narrow(const lt_tensor *t, int dim, int64_t start, int64_t length, lt_tensor **out,
              lt_error *err);
int lt_select(const lt_tensor *t, int dim, int64_t index, lt_tensor **out, lt_error *err);
/* count elements from start, step apart (step != 0; negative walks backwards). */
int lt_slice(const lt_tensor *t, int dim, int64_t start, int64_t count, int64_t step,
             lt_tensor **out, lt_error *err);
int lt_unsqueeze(const lt_tensor *t, int dim, lt_tensor **out, lt_error *err);
/* dim < 0: every size-1 dim. A dim whose size is not 1 is kept, as in torch. */
int lt_squeeze(const lt_tensor *t, int dim, lt_tensor **out, lt_error *err);
/* sizes may hold -1 (keep); new leading dims and size-1 dims broadcast with stride 0. */
int lt_expand(const lt_tensor *t, int ndim, const int64_t *sizes, lt_tensor **out, lt_error *err);
/* }====== */

#endif
