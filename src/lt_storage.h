/*
 * lt_storage.h -- reference-counted blocks of tensor data.
 *
 * Owns: allocation (64-byte aligned, optionally zeroed), the atomic reference count, and the
 * release of memory that ltensor did not allocate (a DLPack producer's deleter, a host's release
 * callback) exactly once, on whichever thread drops the last reference. Lua-free.
 */
#ifndef LT_STORAGE_H
#define LT_STORAGE_H

#include <stdatomic.h>
#include <stddef.h>

#include "dlpack.h"

#define LT_ALIGN 64

typedef struct lt_storage lt_storage;

/* Called once when the last reference to a wrapped block goes. */
typedef void (*lt_release_fn)(void *ctx, void *data);

struct lt_storage {
  atomic_long refs;
  void *data;         /* first byte, LT_ALIGN-aligned when ltensor allocated it */
  size_t nbytes;      /* bytes addressable from data (0 when unknown for wrapped memory) */
  DLDevice device;    /* where data lives */
  void *base;         /* what to free: the malloc'd or mapped block; NULL for wrapped memory */
  size_t map_len;     /* > 0 when base was mapped with mmap (large blocks) */
  lt_release_fn release;
  void *release_ctx;
};

/* A new block of nbytes (>= 0), LT_ALIGN-aligned, zero-filled when zero != 0.
   Returns NULL when out of memory. The count starts at 1. */
lt_storage *lt_storage_new(size_t nbytes, int zero);

/* Wraps memory owned elsewhere; release(ctx, data) runs when the last reference goes.
   Returns NULL when out of memory, and then has not called release. */
lt_storage *lt_storage_wrap(void *data, size_t nbytes, DLDevice device, lt_release_fn release,
                            void *ctx);

static inline lt_storage *lt_storage_retain(lt_storage *s) {
  atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
  return s;
}

/* Drops a reference; frees or releases the block with the last one. NULL is ignored. */
void lt_storage_release(lt_storage *s);

#endif
