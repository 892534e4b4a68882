/*
 * lt_storage.h -- reference-counted tensor data, shared copy-on-write between clones.
 *
 * Two levels. A *block* is memory: allocated by ltensor (64-byte aligned; large ones mapped
 * 2 MiB aligned with huge pages) or wrapped from elsewhere (a DLPack producer's, a host's),
 * released exactly once, on whichever thread drops the last reference. A *storage* is what a
 * tensor and all its views hold: a handle on one block. t:clone() gives the clone a new handle on
 * the same block; the first write through a handle whose block is shared copies the block for
 * that handle alone (lt_storage_unshare), so every view of the writer follows it and the other
 * side keeps the original. Exports hold the block itself, so they stay valid whatever the
 * handles do later. Counts are atomic. Lua-free.
 *
 * Every block is charged to the allocating thread's memory account (lt_account.h) before its
 * memory is taken, and refunded when it is released: the one place tensor memory is counted.
 * A refused charge fails the allocation like a lack of memory (lt_account_refusal says which).
 *
 * Calls lt_account.c and lt_os.c only. lt_block.c makes and releases blocks, lt_storage.c
 * handles. Called by lt_tensor.c, lt_copy.c, lt_dlpack.c and the binding
 * (which asks the copy-on-write questions below instead of reading the fields).
 */
#ifndef LT_STORAGE_H
#define LT_STORAGE_H

#include <stdatomic.h>
#include <stddef.h>

#include "dlpack.h"

typedef struct lt_account lt_account;

#define LT_ALIGN 64

typedef struct lt_storage lt_storage;
typedef struct lt_block lt_block;

/* Called once when the last reference to wrapped memory goes. */
typedef void (*lt_release_fn)(void *ctx, void *data);

/* How the release context of a block that describes itself in messages begins (a file mapping's,
   lt_file.c): note is the phrase a read-only message gives ("mapped read-only from x.npy"). */
typedef struct {
  const char *note;
} lt_block_note;

/* Where a released mapping waits in lt_block.c's cache: its size class's list and the list of
   all, in the order of release. */
typedef struct lt_cached {
  lt_block *next, *prev, *newer, *older;
  int cls;
} lt_cached;

struct lt_block {
  atomic_long refs;
  void *data;    /* first byte */
  size_t nbytes; /* bytes from data (0 when unknown: wrapped memory) */
  void *base;    /* what to free: the malloc'd or mapped block; NULL for wrapped memory */
  size_t map_len;
  lt_release_fn release;
  void *release_ctx;
  lt_account *acct; /* charged when the block was made (NULL: nothing was), refunded at release */
  size_t charged;
  lt_cached cached; /* while it waits in the cache */
};

/* Blocks a handle keeps alive after leaving them (lt_storage_lend). */
typedef struct lt_kept {
  lt_block *block;
  struct lt_kept *next;
} lt_kept;

struct lt_storage {
  atomic_long refs;
  void *data;      /* == block->data */
  DLDevice device; /* where data lives */
  lt_block *block;
  int shared;    /* the block may have other handles: unshare before writing */
  int pinned;    /* writers outside ltensor may hold data: never share the block */
  int revoked;   /* the host took the memory back: no access through this handle */
  int lent;      /* a non-owning view of block was handed out: keep it when unsharing */
  lt_kept *kept; /* blocks left by unsharing while lent, released with the handle */
  void *home;    /* NULL: the handle is its own allocation; else the allocation it lives in */
};

/* A new block of nbytes (>= 0), LT_ALIGN-aligned, zero-filled when zero != 0, with its handle.
   Returns NULL when out of memory. The count starts at 1. */
lt_storage *lt_storage_new(size_t nbytes, int zero);

/* The most bytes of released large blocks kept mapped for reuse (LTENSOR_BLOCK_CACHE, read once;
   default 256 MiB, 0 under AddressSanitizer). */
size_t lt_storage_cache_limit(void);

/* Wraps memory owned elsewhere; release(ctx, data) runs when the last reference goes. The
   storage is pinned; charge bytes (the extent of what tensors may address in it) are charged to
   the thread's account. Returns NULL when out of memory or refused, and then has not called
   release. */
lt_storage *lt_storage_wrap(void *data, size_t nbytes, size_t charge, DLDevice device,
                            lt_release_fn release, void *ctx);

static inline lt_storage *lt_storage_retain(lt_storage *s) {
  atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
  return s;
}

/* Makes s, memory inside the allocation `home`, a pinned handle on b that adopts a reference
   to b the caller holds (takes no new one). Its last release drops b and frees home: whoever
   else lives in home (a tensor header, lt_tensor_free) must hold a reference to s. */
void lt_storage_adopt(lt_storage *s, lt_block *b, DLDevice device, void *home);

/* Drops a reference; the last one drops the block. NULL is ignored. */
void lt_storage_release(lt_storage *s);

/* A second handle on s's block, for a copy-on-write clone; NULL when s is pinned or not
   ltensor's memory (the caller copies eagerly), or when out of memory. */
lt_storage *lt_storage_share(lt_storage *s);

/* Before a write: gives s a block of its own if its block is shared. 0, or -1 when out of
   memory, refused, or while the collector runs inside an allocation (lt_account_collecting; s
   unchanged). */
int lt_storage_unshare(lt_storage *s);

/* A writable pointer to s's memory escapes (a writable export, data_ptr()): unshares and
   pins. 0, or -1 when out of memory. */
int lt_storage_pin(lt_storage *s);

/* {====== copy-on-write questions (the binding asks these rather than reading the fields) ====== */

/* Whether s's block may have other handles: a write through s must unshare it first
   (lt_prepare_write does). */
static inline int lt_storage_is_shared(const lt_storage *s) { return s->shared; }
/* Whether pinning s copies nothing: s is not pinned yet and its block has no other handle. */
static inline int lt_storage_exclusive(const lt_storage *s) {
  return !s->pinned &&
         (!s->shared || atomic_load_explicit(&s->block->refs, memory_order_acquire) == 1);
}
/* Pins s when that copies nothing (lt_storage_exclusive), so that an export stays a live view
   of it: a later clone then copies eagerly instead of sharing the block. Returns whether s is
   pinned afterwards. */
int lt_storage_pin_if_free(lt_storage *s);
/* A non-owning view of s's memory was handed out (a borrowed DLTensor): the block s has now
   stays alive as long as s does, even when a write later gives s a block of its own (the view
   then shows the values of before, as a read-only export of a shared clone does). */
static inline void lt_storage_lend(lt_storage *s) { s->lent = 1; }
/* Whether s's memory came from outside ltensor (a DLPack producer's, a host's): ltensor's own
   blocks, re-imported from its exports, were counted when they were allocated. */
static inline int lt_storage_wrapped(const lt_storage *s) { return s->block && !s->block->base; }
/* Whether the host took the memory back (no access through s). */
static inline int lt_storage_revoked(const lt_storage *s) { return s->revoked; }

/* }====== */

/* Revokes s (a host's per-frame buffer): every tensor and view on this handle loses access
   at once (its device reads as 0, so element access fails), and the handle drops its block;
   the block's memory is released when no export holds it any more (and not before the handle
   goes when the revocation came from a finalizer while the collector ran inside an
   allocation). */
void lt_storage_revoke(lt_storage *s);

/* A new block of nbytes (lt_block.c), charged to the thread's account first; NULL when out of
   memory or refused. For the storage layer. */
lt_block *lt_block_new(size_t nbytes, int zero);
/* A block over memory owned elsewhere, charging charge bytes; NULL when out of memory or
   refused (release not called). */
lt_block *lt_block_wrap(void *data, size_t nbytes, size_t charge, lt_release_fn release, void *ctx);

static inline lt_block *lt_block_retain(lt_block *b) {
  atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
  return b;
}
void lt_block_release(lt_block *b);

#endif
