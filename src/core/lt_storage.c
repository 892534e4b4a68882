/*
 * lt_storage.c -- blocks, handles, and copy-on-write (see lt_storage.h).
 */
#include "lt_storage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_os.h"

/* Blocks from this size on are mapped directly, 2 MiB aligned and marked for transparent huge
   pages: first touches then fault 2 MiB at a time instead of 4 KiB (measured 20x faster for a
   fresh 64 MiB block on these machines), and fresh mappings are already zero. */
#define LT_MAP_MIN ((size_t)4 << 20)
#define LT_HUGE ((size_t)2 << 20)

/* {====== the cache of large blocks ======
 *
 * A fresh mapping costs its page faults and the kernel's zeroing on first touch: for a 64 MiB
 * result that was more than the operation itself (x:abs() took 15.5 ms, of which 9 ms were
 * faults; abs_ in place 6.5 ms). So the last few large blocks released are kept mapped, up to
 * LTENSOR_BLOCK_CACHE bytes in all (default 256 MiB; 0 turns the cache off, and it is off under
 * AddressSanitizer, whose use-after-free checks a reused block would blind), and a new block
 * of nearly the same size takes one of them. The slots are lock-free: a block is taken out of a
 * slot by exchanging the slot for NULL before anything of it is read, so no two threads own one
 * block, and a fork cannot leave a lock held.
 */

#define LT_CACHE_SLOTS 4
#define LT_CACHE_DEFAULT ((size_t)256 << 20)

static _Atomic(lt_block *) cache[LT_CACHE_SLOTS];
static atomic_size_t cache_bytes; /* the mappings in the slots, reserved before a put */
static atomic_size_t cache_max;   /* the limit + 1, 0 until read from the environment */

size_t lt_storage_cache_limit(void) {
  size_t m = atomic_load_explicit(&cache_max, memory_order_relaxed);
  if (m == 0) {
    size_t lim = LT_CACHE_DEFAULT;
#if defined(__SANITIZE_ADDRESS__)
    lim = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    lim = 0;
#endif
#endif
    const char *env = getenv("LTENSOR_BLOCK_CACHE");
    if (env && *env) {
      char *end;
      unsigned long long v = strtoull(env, &end, 10);
      if (*end == '\0') lim = v >= SIZE_MAX ? SIZE_MAX - 1 : (size_t)v;
    }
    m = lim + 1;
    atomic_store_explicit(&cache_max, m, memory_order_relaxed);
  }
  return m - 1;
}

/* Unmaps a cached (or uncacheable) mapping and frees its header. */
static void cache_drop(lt_block *b) {
  lt_os_unmap(b->base, b->map_len);
  free(b);
}

/* A cached mapping of between len and len + len / 4 bytes, now the caller's, or NULL. */
static lt_block *cache_take(size_t len) {
  if (atomic_load_explicit(&cache_bytes, memory_order_relaxed) < len) return NULL;
  for (int i = 0; i < LT_CACHE_SLOTS; i++) {
    if (!atomic_load_explicit(&cache[i], memory_order_relaxed)) continue;
    lt_block *b = atomic_exchange_explicit(&cache[i], NULL, memory_order_acquire);
    if (!b) continue;
    if (b->map_len >= len && b->map_len - len <= len / 4) {
      atomic_fetch_sub_explicit(&cache_bytes, b->map_len, memory_order_relaxed);
      return b;
    }
    lt_block *none = NULL; /* not this size: back into its slot, or dropped if it was refilled */
    if (!atomic_compare_exchange_strong_explicit(&cache[i], &none, b, memory_order_release,
                                                 memory_order_relaxed)) {
      atomic_fetch_sub_explicit(&cache_bytes, b->map_len, memory_order_relaxed);
      cache_drop(b);
    }
  }
  return NULL;
}

/* Keeps the released mapping b: in an empty slot, or in place of the block the round-robin
   counter names (so the cache holds the last blocks released, and blocks of a size nobody asks
   for again cannot fill it for good); then drops other blocks while the cache holds more than
   its limit. Returns whether b was taken (0: larger than the limit, the caller unmaps it). */
static int cache_put(lt_block *b) {
  static atomic_uint next; /* the slot the next put replaces when none is empty */
  size_t lim = lt_storage_cache_limit();
  if (b->map_len > lim) return 0;
  unsigned at = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) % LT_CACHE_SLOTS;
  atomic_fetch_add_explicit(&cache_bytes, b->map_len, memory_order_relaxed);
  int placed = 0;
  for (int k = 0; k < LT_CACHE_SLOTS && !placed; k++) {
    lt_block *none = NULL;
    placed = atomic_compare_exchange_strong_explicit(&cache[(at + k) % LT_CACHE_SLOTS], &none, b,
                                                     memory_order_release, memory_order_relaxed);
  }
  lt_block *old = placed ? NULL : atomic_exchange_explicit(&cache[at], b, memory_order_acq_rel);
  if (old) {
    atomic_fetch_sub_explicit(&cache_bytes, old->map_len, memory_order_relaxed);
    cache_drop(old);
  }
  /* over the limit: the other blocks are dropped, the next to be replaced first (whoever takes
     a block out of a slot owns it, so a block dropped here is dropped once) */
  for (int k = 1; k <= LT_CACHE_SLOTS; k++) {
    if (atomic_load_explicit(&cache_bytes, memory_order_relaxed) <= lim) break;
    _Atomic(lt_block *) *slot = &cache[(at + k) % LT_CACHE_SLOTS];
    if (atomic_load_explicit(slot, memory_order_relaxed) == b) continue;
    lt_block *o = atomic_exchange_explicit(slot, NULL, memory_order_acquire);
    if (o) {
      atomic_fetch_sub_explicit(&cache_bytes, o->map_len, memory_order_relaxed);
      cache_drop(o);
    }
  }
  return 1;
}

/* }====== */

/* {====== blocks ====== */

static lt_block *block_map(size_t nbytes, int zero) {
  size_t len = nbytes + LT_HUGE;
  lt_block *b = cache_take(len);
  if (b) { /* its mapping is already 2 MiB aligned at data and advised */
    uintptr_t first = ((uintptr_t)b->base + LT_HUGE - 1) & ~(uintptr_t)(LT_HUGE - 1);
    if (zero) memset((void *)first, 0, nbytes);
    atomic_init(&b->refs, 1);
    b->data = (void *)first;
    b->nbytes = nbytes;
    return b;
  }
  b = malloc(sizeof *b);
  if (!b) return NULL;
  void *base = lt_os_map(len);
  if (!base) {
    free(b);
    return NULL;
  }
  uintptr_t first = ((uintptr_t)base + LT_HUGE - 1) & ~(uintptr_t)(LT_HUGE - 1);
  lt_os_advise_huge((void *)first, nbytes);
  atomic_init(&b->refs, 1);
  b->data = (void *)first;
  b->nbytes = nbytes;
  b->base = base;
  b->map_len = len;
  b->release = NULL;
  b->release_ctx = NULL;
  return b;
}

static lt_block *block_new(size_t nbytes, int zero) {
  if (nbytes > SIZE_MAX - LT_HUGE - sizeof(lt_block)) return NULL;
  if (nbytes >= LT_MAP_MIN) return block_map(nbytes, zero);
  /* One allocation: the header, then the data at the next LT_ALIGN boundary. */
  size_t total = sizeof(lt_block) + LT_ALIGN + nbytes;
  void *base = zero ? calloc(1, total) : malloc(total);
  if (!base) return NULL;
  lt_block *b = base;
  uintptr_t first = (uintptr_t)base + sizeof(lt_block);
  first = (first + LT_ALIGN - 1) & ~(uintptr_t)(LT_ALIGN - 1);
  atomic_init(&b->refs, 1);
  b->data = (void *)first;
  b->nbytes = nbytes;
  b->base = base;
  b->map_len = 0;
  b->release = NULL;
  b->release_ctx = NULL;
  return b;
}

void lt_block_release(lt_block *b) {
  if (!b) return;
  /* acq_rel: the thread that frees must see every write made through other references. */
  if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1) return;
  if (b->map_len) {
    if (!cache_put(b)) cache_drop(b);
  } else if (b->base) {
    free(b->base); /* header and data are one allocation */
  } else {
    if (b->release) b->release(b->release_ctx, b->data);
    free(b);
  }
}

/* }====== */

/* {====== handles ====== */

static lt_storage *handle_new(lt_block *b, DLDevice device) {
  lt_storage *s = malloc(sizeof *s);
  if (!s) return NULL;
  lt_storage_adopt(s, b, device, NULL);
  s->pinned = 0; /* an allocation of its own: the caller pins it where it must */
  return s;
}

lt_storage *lt_storage_new(size_t nbytes, int zero) {
  lt_block *b = block_new(nbytes, zero);
  if (!b) return NULL;
  DLDevice cpu = {kDLCPU, 0};
  lt_storage *s = handle_new(b, cpu);
  if (!s) lt_block_release(b);
  return s;
}

lt_storage *lt_storage_wrap(void *data, size_t nbytes, DLDevice device, lt_release_fn release,
                            void *ctx) {
  lt_block *b = malloc(sizeof *b);
  if (!b) return NULL;
  atomic_init(&b->refs, 1);
  b->data = data;
  b->nbytes = nbytes;
  b->base = NULL;
  b->map_len = 0;
  b->release = release;
  b->release_ctx = ctx;
  lt_storage *s = handle_new(b, device);
  if (!s) {
    free(b); /* release not called: the caller still owns the memory */
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
  if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1) return;
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
    lt_kept *k = NULL;
    if (s->lent && !(k = malloc(sizeof *k))) return -1;
    lt_block *b = block_new(old->nbytes, 0);
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
