/*
 * lt_dlpack.h -- DLPack import and export of core tensors.
 *
 * Owns: the managed tensors ltensor produces (shape and strides live in the manager context,
 * which holds a block reference, so the data outlives the tensor, its Lua state and its
 * thread; one allocation, which becomes the tensor when the export comes back to ltensor, so a
 * round trip allocates once), and the validation of managed tensors it consumes. Ownership is
 * exact: an import takes the managed tensor whatever happens, and on every failure calls its
 * deleter exactly once before returning. Lua-free.
 *
 * Calls lt_copy.c (an export with copy), lt_tensor.c, lt_storage.c. Called by the binding.
 */
#ifndef LT_DLPACK_H
#define LT_DLPACK_H

#include "dlpack.h"
#include "lt_tensor.h"

/* The version ltensor writes into the managed tensors it produces. */
#define LT_DLPACK_MAJOR 1
#define LT_DLPACK_MINOR 3

/*
 * Exports t. versioned: a DLManagedTensorVersioned* (version 1.3) into *out, else a legacy
 * DLManagedTensor*. copy: export a fresh contiguous copy (and set IS_COPIED) instead of sharing.
 * read_only: set READ_ONLY even when t is writable. A read-only t exports READ_ONLY unless it is
 * copied (the copy is the consumer's, as NumPy exports it); READ_ONLY is what the legacy form
 * cannot say: that fails with LT_EREADONLY.
 * Strides are always filled; data is never NULL, an empty tensor's included (torch before 2.3
 * never calls the deleter of a tensor with NULL data: it would leak).
 */
int lt_dlpack_export(lt_tensor *t, int versioned, int copy, int read_only, void **out,
                     lt_error *err);

/*
 * Imports a managed tensor (versioned: DLManagedTensorVersioned*, else DLManagedTensor*),
 * taking ownership. Validates: major version 1, ndim 0..64, shape != NULL when ndim > 0,
 * sizes >= 0, element count and byte extent without overflow, a valid dtype (code 0..17 with
 * bits that fit it, lanes >= 1), a known device type, data != NULL unless the tensor is empty,
 * byte_offset a multiple of the element size. NULL strides mean compact row-major (and an
 * empty tensor gets row-major strides whatever it came with: they address nothing). Types
 * ltensor cannot compute with, and devices the host cannot read, come back opaque. READ_ONLY
 * makes a read-only tensor. On failure the deleter has run (once) and *out is untouched.
 */
int lt_dlpack_import(void *managed, int versioned, lt_tensor **out, lt_error *err);

/* Calls the deleter of a managed tensor (versioned or legacy), if it has one. */
void lt_dlpack_delete(void *managed, int versioned);

/* Flags of a versioned managed tensor ltensor produced or received (0 for NULL). */
uint64_t lt_dlpack_flags(const DLManagedTensorVersioned *m);

#endif
