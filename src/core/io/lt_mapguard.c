/*
 * lt_mapguard.c -- the mapping guard (see lt_mapguard.h): the registry of mapped files and the
 * SIGBUS handler that turns a truncated file's fault into zero pages and a damaged mark.
 *
 * The handler runs on the faulting thread, inside the faulting read. It takes no lock and
 * allocates nothing: it walks the registry's slots (atomic words, chunks that are never freed),
 * and calls mmap, a plain system call on Linux, the BSDs and macOS although POSIX does not list
 * it as async-signal-safe (the JVM's handler for its mapped buffers relies on the same).
 */
#if !defined(_WIN32)
#define _GNU_SOURCE /* sigaction's SA_SIGINFO and MAP_ANONYMOUS under -std=c11 */
#endif
#include "lt_mapguard.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif
#endif

/* {====== the registry ====== */

enum { SLOTS = 64 };

/* A slot is free when lo is 0 (no mapping starts at address 0). hi is the end of the mapping
   rounded up to a page, flag the address of its damaged mark. Writers fill hi and flag, then
   publish lo; the handler reads lo first. */
typedef struct chunk {
  _Atomic(uintptr_t) lo[SLOTS], hi[SLOTS], flag[SLOTS];
  _Atomic(struct chunk *) next;
} chunk;

static chunk first;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* writers of the registry and state */
static size_t page_size;                                 /* set under lock before any use */

static size_t page(void) {
  if (!page_size) {
#if !defined(_WIN32)
    long p = sysconf(_SC_PAGESIZE);
    page_size = p > 0 ? (size_t)p : 4096;
#else
    page_size = 4096;
#endif
  }
  return page_size;
}

static void fill(chunk *c, int i, uintptr_t lo, uintptr_t hi, atomic_int *damaged) {
  atomic_store_explicit(&c->hi[i], hi, memory_order_relaxed);
  atomic_store_explicit(&c->flag[i], (uintptr_t)damaged, memory_order_relaxed);
  atomic_store_explicit(&c->lo[i], lo, memory_order_release);
}

long lt_mapguard_add(void *addr, size_t len, atomic_int *damaged) {
  uintptr_t lo = (uintptr_t)addr;
  pthread_mutex_lock(&lock);
  size_t p = page();
  uintptr_t hi = lo + (len + p - 1) / p * p;
  long ticket = -1, k = 0;
  chunk *c = &first, *last = NULL;
  for (; c && ticket < 0; last = c, c = atomic_load(&c->next), k++)
    for (int i = 0; i < SLOTS; i++)
      if (!atomic_load_explicit(&c->lo[i], memory_order_relaxed)) {
        fill(c, i, lo, hi, damaged);
        ticket = k * SLOTS + i;
        break;
      }
  if (ticket < 0 && (c = calloc(1, sizeof *c)) != NULL) {
    fill(c, 0, lo, hi, damaged);
    atomic_store_explicit(&last->next, c, memory_order_release); /* after its slot is filled */
    ticket = k * SLOTS;
  }
  pthread_mutex_unlock(&lock);
  return ticket;
}

void lt_mapguard_remove(long ticket) {
  if (ticket < 0) return;
  pthread_mutex_lock(&lock);
  chunk *c = &first;
  for (long k = ticket / SLOTS; k > 0 && c; k--) c = atomic_load(&c->next);
  if (c) atomic_store_explicit(&c->lo[ticket % SLOTS], 0, memory_order_release);
  pthread_mutex_unlock(&lock);
}

/* }====== */

/* {====== the handler ====== */

static atomic_int active; /* the guard is on: faults in registered mappings are taken */

#if !defined(_WIN32)

static int installed;         /* ltensor's handler was installed (under lock) */
static struct sigaction prev; /* what was installed before it */

/* A fault that is not ltensor's: to the handler before ours, or the default action. */
static void pass_on(int sig, siginfo_t *info, void *uctx) {
  if (prev.sa_flags & SA_SIGINFO) {
    prev.sa_sigaction(sig, info, uctx);
    return;
  }
  if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
    return;
  }
  /* the default action (an ignored SIGBUS from a fault ends the process all the same): a
     fault runs the faulting access again when the handler returns, which then meets it; a
     signal sent by kill() is raised again, pending until this handler returns */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGBUS, &dfl, NULL);
  if (info->si_code <= 0) raise(sig);
}

static void on_bus(int sig, siginfo_t *info, void *uctx) {
  int saved = errno;
  uintptr_t a = (uintptr_t)info->si_addr;
  if (info->si_code > 0 && atomic_load_explicit(&active, memory_order_acquire)) {
    for (chunk *c = &first; c; c = atomic_load_explicit(&c->next, memory_order_acquire))
      for (int i = 0; i < SLOTS; i++) {
        uintptr_t lo = atomic_load_explicit(&c->lo[i], memory_order_acquire);
        if (!lo || a < lo) continue;
        uintptr_t hi = atomic_load_explicit(&c->hi[i], memory_order_relaxed);
        if (a >= hi) continue;
        uintptr_t from = a & ~(uintptr_t)(page_size - 1); /* >= lo: mappings start on a page */
        void *z = mmap((void *)from, hi - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                       -1, 0);
        if (z == MAP_FAILED) break; /* nothing to read there: as without the guard */
        atomic_int *damaged = (atomic_int *)atomic_load_explicit(&c->flag[i], memory_order_relaxed);
        atomic_store_explicit(damaged, 1, memory_order_release);
        errno = saved;
        return;
      }
  }
  errno = saved;
  pass_on(sig, info, uctx);
}

int lt_mapguard_enable(int on, lt_error *err) {
  int rc = LT_OK;
  pthread_mutex_lock(&lock);
  page();
  if (on && !installed) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_bus;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &old) != 0) {
      rc = lt_fail(err, LT_EARG, "cannot install the SIGBUS handler (%s)", strerror(errno));
    } else {
      prev = old;
      installed = 1;
    }
  } else if (!on && installed) {
    struct sigaction cur;
    if (sigaction(SIGBUS, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
        cur.sa_sigaction == on_bus) {
      sigaction(SIGBUS, &prev, NULL);
      installed = 0;
    } /* else another handler sits on top of ours: it stays, and ours passes faults on */
  }
  if (!rc) atomic_store_explicit(&active, on != 0, memory_order_release);
  pthread_mutex_unlock(&lock);
  return rc;
}

#else /* Windows: a mapped file cannot be truncated there; nothing to install */

int lt_mapguard_enable(int on, lt_error *err) {
  (void)err;
  atomic_store(&active, on != 0);
  return LT_OK;
}

#endif

int lt_mapguard_enabled(void) { return atomic_load(&active); }

/* }====== */
