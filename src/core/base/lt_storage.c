/*
 * lt_storage.c -- handles and copy-on-write (see lt_storage.h; the blocks are lt_block.c's).
 */
#include "lt_storage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_account.h"

/* {====== handles ====== */

static lt_storage *handle_new(lt_block *b, DLDevice device) {
  lt_storage *s = malloc(sizeof *s);
  if (!s) return NULL;
  lt_storage_adopt(s, b, device, NULL);
  s->pinned = 0; /* an allocation of its own: the caller pins it where it must */
  return s;
}

lt_storage *lt_storage_new(size_t nbytes, int zero) {
  lt_block *b = lt_block_new(nbytes, zero);
  if (!b) return NULL;
  DLDevice cpu = {kDLCPU, 0};
  lt_storage *s = handle_new(b, cpu);
  if (!s) lt_block_release(b);
  return s;
}

lt_storage *lt_storage_wrap(void *data, size_t nbytes, size_t charge, DLDevice device,
                            lt_release_fn release, void *ctx) {
  lt_block *b = lt_block_wrap(data, nbytes, charge, release, ctx);
  if (!b) return NULL;
  lt_storage *s = handle_new(b, device);
  if (!s) {
    b->release = NULL; /* not called: the caller still owns the memory */
    lt_block_release(b);
    return NULL;
  }
  s->pinned = 1;
  return s;
}

void lt_storage_adopt(lt_storage *s, lt_block *b, DLDevice device, void *home) {
  atomic_init(&s->refs, 1);
  s->data = b->data;
  s->device = device;
  s->block = b;
  s->shared = 0;
  s->pinned = 1;
  s->revoked = 0;
  s->lent = 0;
  s->kept = NULL;
  s->home = home;
}

static void release_kept(lt_storage *s) {
  for (lt_kept *k = s->kept, *next; k; k = next) {
    next = k->next;
    lt_block_release(k->block);
    free(k);
  }
  s->kept = NULL;
}

void lt_storage_release(lt_storage *s) {
  if (!s) return;
  /* the last reference (the usual case): no other thread holds one to add or drop, so a load
     settles it without a locked read-modify-write */
  if (atomic_load_explicit(&s->refs, memory_order_acquire) != 1 &&
      atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
    return;
  lt_block_release(s->block); /* NULL once revoked */
  release_kept(s);
  free(s->home ? s->home : s);
}

/* Where a revoked handle points: never dereferenced (every access checks revoked first). */
static _Alignas(64) unsigned char revoked_data[64];

void lt_storage_revoke(lt_storage *s) {
  if (s->revoked) return;
  s->revoked = 1;
  s->pinned = 1;
  s->shared = 0;
  s->device.device_type = (DLDeviceType)0; /* not a device: lt_readable() fails */
  /* While the collector runs inside an allocation (a finalizer revoked it), the allocation's
     caller may be reading the block: it stays, and goes with the handle. */
  if (lt_account_collecting()) return;
  lt_block *b = s->block;
  s->block = NULL;
  s->data = revoked_data;
  lt_block_release(b);
  release_kept(s); /* views borrowed from a revoked tensor are void, as the tensor is */
}

lt_storage *lt_storage_share(lt_storage *s) {
  if (s->pinned || !s->block->base) return NULL;
  lt_storage *c = handle_new(lt_block_retain(s->block), s->device);
  if (!c) {
    lt_block_release(s->block);
    return NULL;
  }
  c->shared = 1;
  s->shared = 1;
  return c;
}

int lt_storage_unshare(lt_storage *s) {
  if (!s->shared) return 0;
  lt_block *old = s->block;
  if (atomic_load_explicit(&old->refs, memory_order_acquire) > 1) {
    /* while the collector runs inside an allocation, its caller may be reading old */
    if (lt_account_collecting()) return -1;
    lt_kept *k = NULL;
    if (s->lent && !(k = malloc(sizeof *k))) return -1;
    lt_block *b = lt_block_new(old->nbytes, 0);
    if (!b) {
      free(k);
      return -1;
    }
    memcpy(b->data, old->data, old->nbytes);
    s->block = b;
    s->data = b->data;
    if (k) { /* a borrowed view shows old: it lives as long as s */
      k->block = old;
      k->next = s->kept;
      s->kept = k;
      s->lent = 0; /* b is new: nothing borrowed it yet */
    } else {
      lt_block_release(old);
    }
  }
  s->shared = 0; /* the block is this handle's alone now */
  return 0;
}

int lt_storage_pin(lt_storage *s) {
  if (lt_storage_unshare(s)) return -1;
  s->pinned = 1;
  return 0;
}

int lt_storage_pin_if_free(lt_storage *s) {
  if (lt_storage_exclusive(s)) (void)lt_storage_pin(s); /* no copy here: cannot fail */
  return s->pinned;
}

/* }====== */
