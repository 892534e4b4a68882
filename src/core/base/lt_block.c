/*
 * lt_block.c -- the memory of tensors: blocks made, kept for reuse, and given back (the block
 * half of lt_storage.h; lt_storage.c has the handles and copy-on-write). Every block made here
 * is charged to the thread's memory account first (lt_account.h) and refunded when released.
 *
 * Three sizes of block:
 * - small (below LT_MID_MIN): one C heap allocation, the header then the data;
 * - mid-sized: a mapping of its own, page aligned;
 * - large (LT_MAP_MIN and up): a mapping 2 MiB aligned at data and marked for transparent huge
 *   pages (first touches fault 2 MiB at a time: measured 20x faster for a fresh 64 MiB block).
 * Mapped blocks released are kept in a cache for reuse (below), so a loop of temporaries does
 * not pay page faults and the kernel's zeroing for each; beyond the cache they are unmapped,
 * so memory a script drops goes back to the system. (The C heap would keep freed mid-sized
 * blocks wherever a live allocation sits above them, and glibc trims and refaults its top when
 * a collection frees many at once: a loop of 1 MiB temporaries ran 3x slower than with an
 * explicit collection each iteration.) Small blocks stay in the C heap, whose free pages are
 * given back once many bytes of them were freed (heap_block_freed).
 *
 * Calls lt_account.c and lt_os.c.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_account.h"
#include "lt_os.h"
#include "lt_storage.h"

#define LT_MAP_MIN ((size_t)4 << 20)
#define LT_HUGE ((size_t)2 << 20)

/* AddressSanitizer checks heap blocks (overflows into a redzone, use after free): under it
   mid-sized blocks come from the heap, and the cache is off. */
#if defined(__SANITIZE_ADDRESS__)
#define LT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LT_ASAN 1
#endif
#endif
#ifdef LT_ASAN
#define LT_MID_MIN LT_MAP_MIN
#else
#define LT_MID_MIN ((size_t)128 << 10)
#endif

/* {====== the cache of mapped blocks ======
 *
 * Released mappings are kept, up to LTENSOR_BLOCK_CACHE bytes in all (default 256 MiB; 0 turns
 * the cache off, and it is off under AddressSanitizer, whose use-after-free checks a reused
 * block would blind), by size class: a mapping's length is rounded up to one of 8 steps per
 * octave, so any block of a class fits any request of it. Past the limit the blocks released
 * longest ago go first, so the cache holds what was released last and sizes nobody asks for
 * again cannot fill it for good. One lock guards it (a take or a put is a few pointer moves);
 * fork takes it first, so a child never inherits it held.
 */

#define LT_CACHE_DEFAULT ((size_t)256 << 20)
#define LT_STEPS 8      /* size classes per octave */
#define LT_CLASS_LOG 17 /* the first octave: 128 KiB */
#define LT_NCLASSES ((int)(sizeof(size_t) * 8 - LT_CLASS_LOG) * LT_STEPS)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static lt_block *by_class[LT_NCLASSES]; /* each class's blocks, released last first */
static lt_block *newest, *oldest;       /* all of them, in the order of release */
static atomic_size_t cache_bytes;       /* written under the lock */
static atomic_size_t cache_max;         /* the limit + 1, 0 until read from the environment */

size_t lt_storage_cache_limit(void) {
  size_t m = atomic_load_explicit(&cache_max, memory_order_relaxed);
  if (m == 0) {
    size_t lim = LT_CACHE_DEFAULT;
#ifdef LT_ASAN
    lim = 0;
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

#if !defined(_WIN32)
static void lock_cache(void) { pthread_mutex_lock(&cache_lock); }
static void unlock_cache(void) { pthread_mutex_unlock(&cache_lock); }
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void watch_fork(void) { (void)pthread_atfork(lock_cache, unlock_cache, unlock_cache); }
#endif

/* The length of the mapping for a request of len bytes (at least 1 << LT_CLASS_LOG), rounded up
   to its size class, and the class's index; 0 when the rounding overflows. */
static size_t class_len(size_t len, int *cls) {
  int k = LT_CLASS_LOG;
  while (k + 1 < (int)(sizeof(size_t) * 8) && len >> (k + 1)) k++;
  size_t step = (size_t)1 << (k - 3);
  if (len > SIZE_MAX - step) return 0;
  size_t rounded = (len + step - 1) & ~(step - 1);
  if (rounded >> (k + 1)) { /* rounded up to the next octave */
    k++;
    step <<= 1;
  }
  *cls = (k - LT_CLASS_LOG) * LT_STEPS + (int)(rounded / step) - LT_STEPS;
  return *cls < LT_NCLASSES ? rounded : 0;
}

/* Unmaps a cached (or uncacheable) mapping and frees its header. */
static void cache_drop(lt_block *b) {
  lt_os_unmap(b->base, b->map_len);
  free(b);
}

/* Takes b out of both lists (under the lock). */
static void unlink_cached(lt_block *b) {
  lt_cached *c = &b->cached;
  if (c->prev)
    c->prev->cached.next = c->next;
  else
    by_class[c->cls] = c->next;
  if (c->next) c->next->cached.prev = c->prev;
  if (c->newer)
    c->newer->cached.older = c->older;
  else
    newest = c->older;
  if (c->older)
    c->older->cached.newer = c->newer;
  else
    oldest = c->newer;
  atomic_store_explicit(&cache_bytes, cache_bytes - b->map_len, memory_order_relaxed);
}

/* A cached mapping of class cls, now the caller's, or NULL. */
static lt_block *cache_take(int cls) {
  if (atomic_load_explicit(&cache_bytes, memory_order_relaxed) == 0) return NULL;
  pthread_mutex_lock(&cache_lock);
  lt_block *b = by_class[cls];
  if (b) unlink_cached(b);
  pthread_mutex_unlock(&cache_lock);
  return b;
}

/* Keeps the released mapping b of class cls, dropping the blocks released longest ago while
   the cache holds more than its limit. Returns whether b was taken (0: the cache is off or
   smaller than b; the caller unmaps it). */
static int cache_put(lt_block *b, int cls) {
  size_t lim = lt_storage_cache_limit();
  if (b->map_len > lim) return 0;
#if !defined(_WIN32)
  (void)pthread_once(&fork_once, watch_fork);
#endif
  lt_block *drop = NULL; /* unmapped after the lock is let go, linked through cached.next */
  pthread_mutex_lock(&cache_lock);
  lt_cached *c = &b->cached;
  c->cls = cls;
  c->prev = NULL;
  c->next = by_class[cls];
  if (c->next) c->next->cached.prev = b;
  by_class[cls] = b;
  c->newer = NULL;
  c->older = newest;
  if (newest) newest->cached.newer = b;
  newest = b;
  if (!oldest) oldest = b;
  atomic_store_explicit(&cache_bytes, cache_bytes + b->map_len, memory_order_relaxed);
  while (cache_bytes > lim && oldest != b) {
    lt_block *o = oldest;
    unlink_cached(o);
    o->cached.next = drop;
    drop = o;
  }
  pthread_mutex_unlock(&cache_lock);
  while (drop) {
    lt_block *next = drop->cached.next;
    cache_drop(drop);
    drop = next;
  }
  return 1;
}

/* }====== */

/* {====== blocks ====== */

/* Freed small blocks stay resident wherever a live allocation sits above them in the C heap:
   once the bytes freed since the last trim pass both LT_TRIM_MIN and twice the bytes of small
   blocks still live, the heap's free pages are given back. */
#define LT_TRIM_MIN ((size_t)32 << 20)

static atomic_size_t heap_live, heap_freed; /* bytes of small blocks live, freed since a trim */

static void heap_block_freed(size_t nbytes) {
  size_t live = atomic_fetch_sub_explicit(&heap_live, nbytes, memory_order_relaxed) - nbytes;
  size_t freed = atomic_fetch_add_explicit(&heap_freed, nbytes, memory_order_relaxed) + nbytes;
  if (freed < LT_TRIM_MIN || freed / 2 < live) return;
  if (!atomic_compare_exchange_strong_explicit(&heap_freed, &freed, 0, memory_order_relaxed,
                                               memory_order_relaxed))
    return; /* another thread trims */
  lt_os_heap_trim();
}

/* Where the data of a mapping at base starts: large blocks at the first 2 MiB boundary. */
static void *map_data(void *base, size_t nbytes) {
  if (nbytes < LT_MAP_MIN) return base;
  return (void *)(((uintptr_t)base + LT_HUGE - 1) & ~(uintptr_t)(LT_HUGE - 1));
}

static lt_block *block_map(size_t nbytes, int zero) {
  int cls;
  size_t len = class_len(nbytes >= LT_MAP_MIN ? nbytes + LT_HUGE : nbytes, &cls);
  if (!len) return NULL;
  lt_block *b = cache_take(cls);
  if (b) { /* a large one is already advised */
    b->data = map_data(b->base, nbytes);
    if (zero) memset(b->data, 0, nbytes);
  } else {
    if (!(b = malloc(sizeof *b))) return NULL;
    if (!(b->base = lt_os_map(len))) {
      free(b);
      return NULL;
    }
    b->map_len = len;
    b->data = map_data(b->base, nbytes);
    if (nbytes >= LT_MAP_MIN) lt_os_advise_huge(b->data, nbytes);
  }
  atomic_init(&b->refs, 1);
  b->nbytes = nbytes;
  b->release = NULL;
  b->release_ctx = NULL;
  return b;
}

static lt_block *block_alloc(size_t nbytes, int zero) {
  if (nbytes > SIZE_MAX - LT_HUGE - sizeof(lt_block)) return NULL;
  if (nbytes >= LT_MID_MIN) return block_map(nbytes, zero);
  /* One allocation: the header, then the data at the next LT_ALIGN boundary. */
  size_t total = sizeof(lt_block) + LT_ALIGN + nbytes;
  void *base = zero ? calloc(1, total) : malloc(total);
  if (!base) return NULL;
  atomic_fetch_add_explicit(&heap_live, nbytes, memory_order_relaxed);
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

lt_block *lt_block_new(size_t nbytes, int zero) {
  int refused;
  lt_account *acct = lt_account_charge(nbytes, &refused);
  if (refused) return NULL;
  lt_block *b = block_alloc(nbytes, zero);
  if (!b) {
    lt_account_refund(acct, nbytes);
    return NULL;
  }
  b->acct = acct;
  b->charged = nbytes;
  return b;
}

lt_block *lt_block_wrap(void *data, size_t nbytes, size_t charge, lt_release_fn release,
                        void *ctx) {
  int refused;
  lt_account *acct = lt_account_charge(charge, &refused);
  if (refused) return NULL;
  lt_block *b = malloc(sizeof *b);
  if (!b) {
    lt_account_refund(acct, charge);
    return NULL;
  }
  atomic_init(&b->refs, 1);
  b->data = data;
  b->nbytes = nbytes;
  b->base = NULL;
  b->map_len = 0;
  b->release = release;
  b->release_ctx = ctx;
  b->acct = acct;
  b->charged = charge;
  return b;
}

void lt_block_release(lt_block *b) {
  if (!b) return;
  /* acq_rel: the thread that frees must see every write made through other references. The
     last reference needs no locked read-modify-write: no other thread holds one to add or drop
     (the acquire load sees their writes as the fetch_sub would). */
  if (atomic_load_explicit(&b->refs, memory_order_acquire) != 1 &&
      atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
    return;
  lt_account *acct = b->acct;
  size_t charged = b->charged;
  if (b->map_len) {
    int cls;
    (void)class_len(b->map_len, &cls); /* a class length is its own class's */
    if (!cache_put(b, cls)) cache_drop(b);
  } else if (b->base) {
    size_t nbytes = b->nbytes;
    free(b->base); /* header and data are one allocation */
    heap_block_freed(nbytes);
  } else {
    if (b->release) b->release(b->release_ctx, b->data);
    free(b);
  }
  lt_account_refund(acct, charged); /* after the memory went: a waiting charge may now fit */
}

/* }====== */
