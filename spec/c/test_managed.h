/*
 * test_managed.h -- hand-built DLPack tensors for the C tests (test_dlpack.c, test_exchange.c,
 * test_host.c, numpy_host.c): a dtype, a CPU tensor description, and the managed-tensor header
 * (version, context, deleter, flags) around it; tm_block, a block whose data is an allocation
 * of its own, with a deleter that counts. Tests with other needs keep their own block type
 * (what it allocates and how its deleter counts); these fill in what every block has.
 */
#ifndef TEST_MANAGED_H
#define TEST_MANAGED_H

#include <stdint.h>
#include <stdlib.h>

#include "dlpack.h"

static inline DLDataType dt_of(int code, int bits, int lanes) {
  DLDataType d;
  d.code = (uint8_t)code;
  d.bits = (uint8_t)bits;
  d.lanes = (uint16_t)lanes;
  return d;
}

/* A CPU tensor description over data (byte_offset 0; strides NULL for compact). */
static inline DLTensor tm_desc(void *data, DLDataType dt, int ndim, int64_t *shape,
                               int64_t *strides) {
  DLTensor d;
  d.data = data;
  d.device.device_type = kDLCPU;
  d.device.device_id = 0;
  d.ndim = ndim;
  d.dtype = dt;
  d.shape = shape;
  d.strides = strides;
  d.byte_offset = 0;
  return d;
}

/* Makes m a managed tensor of description d with context ctx: a DLManagedTensorVersioned
   (version 1.3, the deleter del_v, flags) when versioned, else a DLManagedTensor (del_l). */
static inline void tm_manage(void *m, int versioned, DLTensor d, void *ctx,
                             void (*del_v)(DLManagedTensorVersioned *),
                             void (*del_l)(DLManagedTensor *), uint64_t flags) {
  if (versioned) {
    DLManagedTensorVersioned *v = m;
    v->dl_tensor = d;
    v->version.major = 1;
    v->version.minor = 3;
    v->manager_ctx = ctx;
    v->deleter = del_v;
    v->flags = flags;
  } else {
    DLManagedTensor *l = m;
    l->dl_tensor = d;
    l->manager_ctx = ctx;
    l->deleter = del_l;
  }
}

/* A versioned managed tensor whose data is an allocation of its own, exactly as large as the
   elements need (so that AddressSanitizer sees a read past it). */
typedef struct {
  DLManagedTensorVersioned m; /* first: &b->m is what is passed */
  void *data;
  int64_t shape[4];
  int *deleted; /* counts the deleter's calls */
} tm_block;

static inline void tm_block_delete(DLManagedTensorVersioned *self) {
  tm_block *b = self->manager_ctx;
  ++*b->deleted;
  free(b->data);
  free(b);
}

/* A tm_block of bytes of zeroed data (at least 1) counting in *deleted; the caller fills shape
   and the data, then tm_manage(&b->m, 1, ..., b, tm_block_delete, NULL, flags). */
static inline tm_block *tm_block_new(size_t bytes, int *deleted) {
  tm_block *b = calloc(1, sizeof *b);
  if (!b || !(b->data = calloc(bytes ? bytes : 1, 1))) abort();
  b->deleted = deleted;
  return b;
}

#endif
