/*
 * lt_pool.c -- the worker pool (see lt_pool.h).
 *
 * ltensor's own pool rather than OpenMP: docs/PERFORMANCE.md, "Threads", says why (hosts with
 * OpenMP or OpenBLAS threads of their own, fork, ThreadSanitizer, static linking). The design is
 * one mutex and two condition variables: a caller that gets the pool (`busy`, tried, never waited
 * for) publishes its job under `m` with a new generation number and wakes the workers; each
 * worker that wakes joins the job (under `m`, while the job is open and wants more workers),
 * then takes pieces by an atomic counter, as the caller does. When the caller finds no piece
 * left it closes the job and waits until every joined worker has left it, so the job (on the
 * caller's stack) outlives every use. Workers block every signal (the host's handlers stay on
 * its own threads) except the faults their own reads cause, and never run anything but pieces.
 *
 * Watching: a worker that leaves a job watches (unlocked, with the processor's pause) for the
 * next one for up to 200 us (LTENSOR_SPIN_US) before it sleeps on the condition variable, and a
 * caller watches its workers leave for as long before it waits; ops run back to back (a model's
 * layers, a loop over calls) then find their workers awake. Woken from sleep, a worker joined
 * 20-70 us after the job was published on 2 vCPUs (one piece of conv2d's takes 60-250 us), and
 * the example CNN of examples/model (ten small ops a forward pass) ran slower at 2 threads than
 * at 1; watching, it runs 1.3x torch at 2 threads (0.75-0.82x sleeping), conv2d 1x64x56x56 at 2
 * threads 1.4x (0.84-1.09x). OpenMP's threads spin the same way after a region (libgomp's
 * default), which is where torch's 2-thread speed on such ops comes from. The watch is bounded,
 * so an idle pool costs nothing: a host that wants no watching sets LTENSOR_SPIN_US=0.
 *
 * Placement (Linux): a worker that joins a job on the processor the caller published it from
 * moves itself off that processor (move_off) before it takes pieces. The kernel may wake the
 * worker onto the waker's processor (wake-affine), where it time-shares with the caller, which
 * is busy with the job's pieces; and once there, its previous processor is the caller's, which
 * the next wake prefers again. Measured on 2 vCPUs (issue 28, Winograd conv2d 1x64x56x56 at 2
 * threads, 22 processes each way, the other vCPU busy with a test suite): the worker joined on
 * the caller's processor at 45% of its joins before, 3% after, and the median best time per call
 * went from 0.99 to 0.90 ms. On an idle guest it joins there at under 6% of its joins either way
 * and the move changes nothing measurable (the slow 2-thread runs seen there come and go with
 * time, in both builds alike: the host's, not the pool's).
 */
#if defined(__linux__)
#define _GNU_SOURCE /* pthread_sigmask; sched_getcpu, sched_setaffinity, CPU_SET */
#include <sched.h>
#elif !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask */
#endif
#if !defined(_WIN32)
#include <signal.h>
#endif
#include "lt_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#if !defined(_WIN32)
#include <time.h>
#endif

#include "lt_os.h"

/* {====== the thread count ====== */

static atomic_int nthreads; /* 0: not decided yet */

/* The cores this process may run on, or those online. */
static int default_threads(void) {
  const char *env = getenv("LTENSOR_NUM_THREADS");
  if (env && *env) {
    char *end;
    long v = strtol(env, &end, 10);
    if (*end == '\0' && v >= 1) return v > LT_POOL_MAX_THREADS ? LT_POOL_MAX_THREADS : (int)v;
  }
  int n = lt_os_cpu_count();
  return n > LT_POOL_MAX_THREADS ? LT_POOL_MAX_THREADS : n;
}

int lt_pool_threads(void) {
  int n = atomic_load_explicit(&nthreads, memory_order_relaxed);
  if (n == 0) { /* two first callers compute the same default */
    int zero = 0, d = default_threads();
    atomic_compare_exchange_strong(&nthreads, &zero, d);
    n = atomic_load_explicit(&nthreads, memory_order_relaxed);
  }
  return n;
}

int lt_pool_set_threads(int n) {
  if (n < 1) return -1;
  if (n > LT_POOL_MAX_THREADS) n = LT_POOL_MAX_THREADS;
  atomic_store(&nthreads, n);
  /* the BLAS follows at its next call (lt_blas.c asks lt_pool_threads) */
  return 0;
}

int64_t lt_pool_grain(int64_t n, double item_bytes) {
  double total = (double)n * item_bytes;
  if (n <= 1 || total < (double)LT_PAR_MIN_BYTES) return n > 0 ? n : 1;
  double piece = total / LT_PAR_PIECES;
  if (piece < (double)LT_PAR_PIECE_BYTES) piece = (double)LT_PAR_PIECE_BYTES;
  double g = piece / (item_bytes > 0 ? item_bytes : 1);
  if (g < 1) return 1;
  if (g >= (double)n) return n;
  int64_t grain = (int64_t)g;
  return (n + grain - 1) / grain > LT_PAR_PIECES ? (n + LT_PAR_PIECES - 1) / LT_PAR_PIECES : grain;
}

/* }====== */

/* {====== the pool ====== */

typedef struct {
  lt_pool_fn fn;
  void *ctx;
  int64_t n, grain, npieces;
  atomic_int_fast64_t next;   /* the next piece to take */
  atomic_int_fast64_t failed; /* the first failed piece so far, or npieces */
  int want, joined;           /* under m: workers wanted, joined */
  atomic_int active;          /* written under m: workers still in the job (the caller watches) */
  int closed;                 /* under m: no worker joins any more */
  int cpu;                    /* the caller's processor when it published the job, or -1 */
} job;

static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER; /* held by the caller running a job */
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;    /* the fields below, job's marked */
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static job *current;                   /* the open job, or NULL */
static uint64_t generation;            /* bumped for every job published */
static atomic_uint_fast64_t published; /* generation's copy, for workers that watch unlocked */
static atomic_int started;             /* workers alive (written under m) */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Whether this thread runs pieces (a job it starts then runs serially): a pthread key rather
   than _Thread_local, whose dynamic TLS in a dlopen'ed core.so crashes LeakSanitizer's scan of
   the threads at exit (GCC 12). The key is made once, by the first job or worker. */
static pthread_key_t inside_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static char inside_mark; /* the key's value while inside */
static void make_key(void) { (void)pthread_key_create(&inside_key, NULL); }
static int is_inside(void) {
  pthread_once(&key_once, make_key);
  return pthread_getspecific(inside_key) != NULL;
}
static void set_inside(int on) { (void)pthread_setspecific(inside_key, on ? &inside_mark : NULL); }

long lt_pool_spin_ns(void) {
#if !defined(_WIN32)
  static atomic_long ns = -1;
  long v = atomic_load_explicit(&ns, memory_order_relaxed);
  if (v < 0) { /* two first callers compute the same value */
    const char *env = getenv("LTENSOR_SPIN_US");
    char *end;
    long us = env && *env ? strtol(env, &end, 10) : 200;
    if (env && *env && (*end != '\0' || us < 0)) us = 200;
    v = (us > 1000000 ? 1000000 : us) * 1000;
    atomic_store_explicit(&ns, v, memory_order_relaxed);
  }
  return v;
#else
  return 0;
#endif
}

/* Watches (unlocked) for at most lt_pool_spin_ns() until ready(arg), with the processor's pause
   between looks; whether it became ready. Without a monotonic clock (Windows) it does not watch. */
static int watch(int (*ready)(const void *), const void *arg) {
#if !defined(_WIN32)
  long limit = lt_pool_spin_ns();
  struct timespec t0, t;
  if (limit == 0) return ready(arg);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 1;; i++) {
    if (ready(arg)) return 1;
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
    if (i % 32 == 0) {
      clock_gettime(CLOCK_MONOTONIC, &t);
      if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > limit) return 0;
    }
  }
#else
  return ready(arg);
#endif
}

/* A job after generation *arg has been published. */
static int published_after(const void *arg) {
  return atomic_load_explicit(&published, memory_order_relaxed) != *(const uint64_t *)arg;
}

/* Every worker has left job *arg. */
static int all_left(const void *arg) {
  return atomic_load_explicit(&((job *)arg)->active, memory_order_acquire) == 0;
}

/* Takes pieces until none is left. */
static void work(job *j) {
  for (;;) {
    int64_t k = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
    if (k >= j->npieces) return;
    if (k > atomic_load_explicit(&j->failed, memory_order_relaxed)) continue;
    int64_t lo = k * j->grain, hi = lo + j->grain < j->n ? lo + j->grain : j->n;
    if (j->fn(j->ctx, lo, hi)) {
      int_fast64_t f = atomic_load(&j->failed);
      while (k < f && !atomic_compare_exchange_weak(&j->failed, &f, k)) {
      }
    }
  }
}

/* The processor this thread runs on, or -1 where the system does not say. */
static int cpu_now(void) {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

/* Moves this thread off processor `cpu` (to another of those it may run on, if any), then
   allows it every one of those again: the kernel migrates it at once, and later wakes start
   from where it is. (The file's header says why.) */
static void move_off(int cpu) {
#if defined(__linux__)
  cpu_set_t all, off;
  if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof all, &all) != 0) return;
  if (!CPU_ISSET(cpu, &all) || CPU_COUNT(&all) < 2) return;
  off = all;
  CPU_CLR(cpu, &off);
  if (sched_setaffinity(0, sizeof off, &off) == 0) (void)sched_setaffinity(0, sizeof all, &all);
#else
  (void)cpu;
#endif
}

static void *worker(void *arg) {
  (void)arg;
  pthread_once(&key_once, make_key);
  set_inside(1);
  pthread_mutex_lock(&m);
  uint64_t seen = generation;
  for (;;) {
    while (generation == seen) pthread_cond_wait(&work_cv, &m);
    seen = generation;
    job *j = current;
    if (!j || j->closed || j->joined >= j->want) continue;
    j->joined++;
    j->active++;
    int cpu = j->cpu;
    pthread_mutex_unlock(&m);
    if (cpu >= 0 && cpu_now() == cpu) move_off(cpu);
    work(j);
    pthread_mutex_lock(&m);
    /* the job may end once active is 0: j is not touched after it */
    if (atomic_fetch_sub(&j->active, 1) == 1) pthread_cond_signal(&done_cv);
    if (generation == seen) { /* watch for the next job, unlocked */
      pthread_mutex_unlock(&m);
      (void)watch(published_after, &seen);
      pthread_mutex_lock(&m);
    }
  }
  return NULL;
}

/* fork: the forking thread holds both locks across it, so the child inherits a pool at rest; the
   child has none of the workers, and its next job starts them again. (Windows has no fork.) */
#if !defined(_WIN32)
static void before_fork(void) {
  pthread_mutex_lock(&busy);
  pthread_mutex_lock(&m);
}
static void after_fork_parent(void) {
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&busy);
}
static void after_fork_child(void) {
  /* the parent's workers may have been waiting: the child's condition variables start afresh */
  pthread_cond_init(&work_cv, NULL);
  pthread_cond_init(&done_cv, NULL);
  current = NULL;
  atomic_store(&started, 0);
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&busy);
}
static void register_fork(void) {
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}
#else
static void register_fork(void) {}
#endif

/* Starts workers until `want` are alive (under m); fewer when the system refuses. */
static void start_workers(int want) {
  pthread_once(&once, register_fork);
  int have = atomic_load_explicit(&started, memory_order_relaxed);
  if (have >= want) return;
#if !defined(_WIN32)
  sigset_t all, old;
  sigfillset(&all);
  /* but the faults a piece's own access causes: blocked, they end the process without running
     any handler (the kernel forces them), where the mapping guard's SIGBUS handler (lt_mapguard.h)
     would have let a read of a truncated mapped file finish */
  sigdelset(&all, SIGBUS);
  sigdelset(&all, SIGSEGV);
  sigdelset(&all, SIGFPE);
  sigdelset(&all, SIGILL);
  pthread_sigmask(SIG_SETMASK, &all, &old); /* inherited by the new threads */
#endif
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (; have < want; have++) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker, NULL) != 0) break;
  }
  pthread_attr_destroy(&attr);
#if !defined(_WIN32)
  pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
  atomic_store(&started, have);
}

int lt_pool_started(void) { return atomic_load(&started); }

/* The pieces in order on this thread. */
static int64_t run_serial(int64_t n, int64_t grain, lt_pool_fn fn, void *ctx) {
  for (int64_t k = 0, lo = 0; lo < n; k++, lo += grain)
    if (fn(ctx, lo, lo + grain < n ? lo + grain : n)) return k;
  return -1;
}

int64_t lt_pool_run(int64_t n, int64_t grain, lt_pool_fn fn, void *ctx) {
  if (n <= 0) return -1;
  if (grain < 1) grain = 1;
  int64_t npieces = (n + grain - 1) / grain;
  int threads = lt_pool_threads();
  if (npieces == 1 || threads == 1 || is_inside() || pthread_mutex_trylock(&busy) != 0)
    return run_serial(n, grain, fn, ctx);
  job j = {fn, ctx, n, grain, npieces, 0, npieces, 0, 0, 0, 0, cpu_now()};
  int64_t want = npieces - 1 < threads - 1 ? npieces - 1 : threads - 1;
  pthread_mutex_lock(&m);
  start_workers((int)want);
  j.want = (int)want;
  current = &j;
  generation++;
  atomic_store_explicit(&published, generation, memory_order_relaxed);
  pthread_cond_broadcast(&work_cv);
  pthread_mutex_unlock(&m);
  set_inside(1);
  work(&j);
  set_inside(0);
  pthread_mutex_lock(&m);
  j.closed = 1;
  if (atomic_load(&j.active) > 0) { /* watch the workers leave, unlocked */
    pthread_mutex_unlock(&m);
    (void)watch(all_left, &j);
    pthread_mutex_lock(&m);
  }
  while (atomic_load(&j.active) > 0) pthread_cond_wait(&done_cv, &m);
  current = NULL;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&busy);
  int64_t f = atomic_load(&j.failed);
  return f < npieces ? f : -1;
}

/* }====== */
