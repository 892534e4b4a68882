/*
 * lt_blas.c -- ltensor's calls into CBLAS (see lt_blas.h): loading the library, the guard every
 * call passes, and one switch per operation over the four BLAS dtypes. Compiled only when CMake
 * found a BLAS with cblas.h (LTENSOR_HAVE_BLAS). Lua-free; called by lt_linalg.c; asks the pool
 * (lt_pool.h) for the thread count the BLAS should run on, lt_os.h for mappings and the library.
 *
 * The BLAS is not linked: it is loaded (lt_os.h: dlopen, LoadLibrary) at the first product that
 * asks for it (LTENSOR_BLAS_LIBS, a ':'-separated list CMake wrote: the soname of the library it
 * found, then its path). OpenBLAS starts its threads when it is loaded, so a linked one would start
 * them at `require "ltensor"`, before any operation (SPEC: no thread before the first large
 * operation); loaded here they start with the first matrix product. A machine without the
 * library at run time keeps ltensor's own kernel (lt_blas_active says no).
 *
 * The guard. OpenBLAS (0.3.x: driver/others/memory.c, blas_server.c) can hang a process in two
 * ways, and every run of calls passes lt_blas_enter / lt_blas_leave so that neither can happen:
 * - Memory. Every OpenBLAS thread works in a buffer of BUFFER_SIZE (128 MiB on x86-64) taken
 *   from a pool that never shrinks: each worker thread takes one when it starts (when the
 *   library is loaded, when the thread count is raised, at the first call after a fork), a
 *   calling thread one per call (gemm, large gemv) when none in the pool is free.
 *   blas_memory_alloc retries a refused mmap and malloc for ever, so under an address-space limit
 *   (RLIMIT_AS), a strict commit limit or a full address space a product spins for ever (and a
 *   worker that could not start its buffer spins from the load on). So the guard first maps what
 *   OpenBLAS would take, block by block, and gives it back: before loading (the workers it will
 *   start), before raising the thread count or restarting stopped workers (their buffers and
 *   stacks), and before a thread's first call or a call beyond the concurrency seen so far; for
 *   the last it has OpenBLAS's own blas_memory_alloc fill the pool (buffers held, then freed
 *   into the pool), so that later calls find pooled buffers and allocate nothing. When the memory
 *   is not there: no load, fewer BLAS threads, or the run is refused and ltensor's own kernel
 *   computes the product (lt_linalg.c). A run the pool covers costs two atomic increments and
 *   two loads (about 10-30 ns; the mutex is for the rest).
 * - fork. OpenBLAS's fork handler stops its worker threads; under a running call the caller then
 *   waits for ever for workers that are gone. Runs hold the guard shared; a fork handler
 *   registered after OpenBLAS's (so that it runs before it) waits for the runs under way and
 *   holds new ones off until the fork is done; later runs restart the workers (after checking
 *   their memory), in the parent and in the child.
 * The guard cannot see memory taken by other threads between its check and OpenBLAS's
 * allocation, nor BLAS calls made by other code in the process; a build of OpenBLAS with a
 * larger BUFFER_SIZE needs LT_BLAS_BUFFER_BYTES raised to match.
 */
#include "lt_blas.h"
#include "lt_cpu.h"
#include "lt_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lt_os.h"

#ifndef LTENSOR_BLAS_LIBS
#if defined(_WIN32)
#define LTENSOR_BLAS_LIBS "libopenblas.dll:openblas.dll:libcblas.dll"
#else
#define LTENSOR_BLAS_LIBS "libopenblas.so.0:libcblas.so.3:libblas.so.3"
#endif
#endif

/* One OpenBLAS buffer (BUFFER_SIZE, 32 << 22 on x86-64 and most others, and its header). */
#ifndef LT_BLAS_BUFFER_BYTES
#define LT_BLAS_BUFFER_BYTES (((size_t)128 << 20) + ((size_t)64 << 10))
#endif
/* Mapped on top of every check: the small allocations around a call. */
#ifndef LT_BLAS_MARGIN_BYTES
#define LT_BLAS_MARGIN_BYTES ((size_t)16 << 20)
#endif
/* The library's own mappings (Debian's OpenBLAS 0.3.21 with every CPU's kernels: 37 MB). */
#ifndef LT_BLAS_LIB_BYTES
#define LT_BLAS_LIB_BYTES ((size_t)64 << 20)
#endif
/* The floats of the sscal that makes the workers take their buffers (OpenBLAS splits it over
   its threads above 2^20: sync_workers). */
#define LT_BLAS_SYNC_FLOATS (1 << 21)
/* The most runs at once the pool is filled for; more wait for one of them. */
#ifndef LT_BLAS_MAX_CALLERS
#define LT_BLAS_MAX_CALLERS 32
#endif
/* The most blocks one check maps (larger counts map larger blocks). */
#define LT_BLAS_BLOCKS 320

static atomic_int enabled = 1; /* process-wide, like the BLAS's own thread count */

/* {====== loading ====== */

/* The CBLAS interface as the standard declares it (no cblas.h needed: the library is opened at
   run time): the enums' values, and the entry points used, with 32-bit integers (the LP64
   interface every distribution's BLAS exports under these names). */
enum { LT_CBLAS_ROW_MAJOR = 101, LT_CBLAS_NO_TRANS = 111, LT_CBLAS_TRANS = 112 };
typedef void lt_gemm_s(int, int, int, int, int, int, float, const float *, int, const float *, int,
                       float, float *, int);
typedef void lt_gemm_d(int, int, int, int, int, int, double, const double *, int, const double *,
                       int, double, double *, int);
typedef void lt_gemm_c(int, int, int, int, int, int, const void *, const void *, int, const void *,
                       int, const void *, void *, int);
typedef void lt_gemv_s(int, int, int, int, float, const float *, int, const float *, int, float,
                       float *, int);
typedef void lt_gemv_d(int, int, int, int, double, const double *, int, const double *, int, double,
                       double *, int);
typedef void lt_gemv_c(int, int, int, int, const void *, const void *, int, const void *, int,
                       const void *, void *, int);
typedef float lt_dot_s(int, const float *, int, const float *, int);
typedef double lt_dot_d(int, const double *, int, const double *, int);
typedef void lt_dot_c(int, const void *, int, const void *, int, void *);
typedef void lt_set_threads(int);
typedef int lt_get_threads(void);
typedef void *lt_mem_alloc(int);
typedef void lt_mem_free(void *);
typedef int lt_thread_init(void);
typedef void lt_scal_s(int, float, float *, int);

/* clang-format off */
#define LT_BLAS_FUNCS(X)                                                                 \
  X(cblas_sgemm, lt_gemm_s) X(cblas_dgemm, lt_gemm_d)                                    \
  X(cblas_cgemm, lt_gemm_c) X(cblas_zgemm, lt_gemm_c)                                    \
  X(cblas_sgemv, lt_gemv_s) X(cblas_dgemv, lt_gemv_d)                                    \
  X(cblas_cgemv, lt_gemv_c) X(cblas_zgemv, lt_gemv_c)                                    \
  X(cblas_sdot, lt_dot_s) X(cblas_ddot, lt_dot_d)                                        \
  X(cblas_cdotu_sub, lt_dot_c) X(cblas_zdotu_sub, lt_dot_c)
/* OpenBLAS's own: the thread count, the buffer pool the guard fills, and the threaded sscal
   that makes its workers take their buffers (blas_memory_alloc and _free are exported by every
   OpenBLAS since GotoBLAS; a BLAS without them gets only the fork part of the guard). */
#define LT_OPENBLAS_FUNCS(X)                                                             \
  X(openblas_set_num_threads, lt_set_threads) X(openblas_get_num_threads, lt_get_threads)  \
  X(blas_memory_alloc, lt_mem_alloc) X(blas_memory_free, lt_mem_free)                    \
  X(cblas_sscal, lt_scal_s)
/* clang-format on */

static struct {
#define LT_X_FIELD(f, type) type *f;
  LT_BLAS_FUNCS(LT_X_FIELD)
  LT_OPENBLAS_FUNCS(LT_X_FIELD)
#undef LT_X_FIELD
  lt_thread_init *blas_thread_init; /* its worker threads' start (builds without: no workers) */
  int guarded;                      /* OpenBLAS with every function above: its memory is checked */
  void *lib;                        /* the library, for lt_blas_sym (its LAPACK) */
} blas;

/* The stack of a thread started with default attributes, and its guard page. */
static size_t stack_bytes(void) {
  pthread_attr_t a;
  size_t s = 0;
  if (pthread_attr_init(&a) == 0) {
    (void)pthread_attr_getstacksize(&a, &s);
    pthread_attr_destroy(&a);
  }
  return (s ? s : (size_t)8 << 20) + ((size_t)64 << 10);
}

/* Whether `first` bytes (and the margin) and n blocks of `each` bytes can be mapped now: maps
   them one by one, as the BLAS would, and gives them back. Above LT_BLAS_BLOCKS blocks one
   mapping stands for several. */
static int mappable(size_t first, int n, size_t each) {
  void *held[LT_BLAS_BLOCKS];
  size_t size[LT_BLAS_BLOCKS];
  int per = (n > 0 ? n : 0) / (LT_BLAS_BLOCKS - 2) + 1; /* blocks per mapping */
  size[0] = first + LT_BLAS_MARGIN_BYTES;
  int k = (held[0] = lt_os_map(size[0])) != NULL, ok = k;
  for (int left = n; ok && left > 0; left -= per) {
    size[k] = each * (size_t)(left < per ? left : per);
    ok = (held[k] = lt_os_map(size[k])) != NULL;
    k += ok;
  }
  while (k > 0) k--, lt_os_unmap(held[k], size[k]);
  return ok;
}

/* Makes every OpenBLAS worker take its buffer now, at `threads` threads: a threaded sscal
   returns once each worker has done its part, which a worker does after allocating (a worker
   still after its buffer and a product after one would race for the last memory). x: a
   mapping of LT_BLAS_SYNC_FLOATS floats. */
static void sync_workers(void *x, int threads) {
  blas.openblas_set_num_threads(threads);
  blas.cblas_sscal(LT_BLAS_SYNC_FLOATS, 2.0f, x, 1);
}
#define LT_BLAS_SYNC_BYTES ((size_t)LT_BLAS_SYNC_FLOATS * sizeof(float))

/* The threads OpenBLAS starts when loaded: its environment variables, at most the processors
   this process may use (as OpenBLAS counts them). */
static int threads_at_load(void) {
  static const char *const vars[] = {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"};
  int n = lt_os_cpu_count();
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    long k = v ? strtol(v, NULL, 10) : 0;
    if (k > 0) {
      if (k < n) n = (int)k;
      break;
    }
  }
  return n > LT_POOL_MAX_THREADS ? LT_POOL_MAX_THREADS : n;
}

enum { LT_BLAS_UNKNOWN, LT_BLAS_LOADED, LT_BLAS_ABSENT };

/* Opens the first library of the list that has every entry point, once the workers OpenBLAS
   starts at once can have their memory (and *x the sync's: sync_workers). Never closed:
   products may run until the process ends. LT_BLAS_LOADED, LT_BLAS_ABSENT (none of them), or
   LT_BLAS_UNKNOWN (not now: no memory). */
static int open_blas(void **x) {
  if (!mappable(LT_BLAS_LIB_BYTES, threads_at_load() - 1, LT_BLAS_BUFFER_BYTES + stack_bytes()) ||
      !(*x = lt_os_map(LT_BLAS_SYNC_BYTES)))
    return LT_BLAS_UNKNOWN;
  char names[] = LTENSOR_BLAS_LIBS;
  for (char *name = names; *name;) {
    char *end = strchr(name, ':'), *next = end ? end + 1 : name + strlen(name);
    if (end) *end = '\0';
    void *h = lt_os_lib_open(name);
    name = next;
    if (!h) continue;
    int all = 1, own = 1;
#define LT_X_SYM(f, type)                           \
  *(void **)(void *)&blas.f = lt_os_lib_sym(h, #f); \
  all = all && blas.f;
    LT_BLAS_FUNCS(LT_X_SYM)
#undef LT_X_SYM
    if (!all) {
      lt_os_lib_close(h);
      continue;
    }
#define LT_X_SYM(f, type)                           \
  *(void **)(void *)&blas.f = lt_os_lib_sym(h, #f); \
  own = own && blas.f;
    LT_OPENBLAS_FUNCS(LT_X_SYM)
#undef LT_X_SYM
    *(void **)(void *)&blas.blas_thread_init = lt_os_lib_sym(h, "blas_thread_init");
    blas.guarded = own;
    blas.lib = h;
    return LT_BLAS_LOADED;
  }
  return LT_BLAS_ABSENT;
}

/* }====== */

/* {====== the guard ====== */

enum { LT_G_UNLOADED, LT_G_LOADING, LT_G_LOADED };

/* A run starts by counting itself in `calls` and then finding `gate` at 0 (seq_cst both): a
   thread that needs no run under way raises `gate` and then waits for `calls` to be 0, so that
   one of the two sees the other. The fields of g are written only by such a thread (or under
   LT_G_LOADING), and read by runs after they found `gate` at 0. */
static atomic_int calls; /* runs under way (between lt_blas_enter and lt_blas_leave) */
static atomic_int gate;  /* threads waiting for no run under way, or holding that */

static struct {
  pthread_mutex_t m; /* the waits below, and the fields */
  pthread_cond_t cv; /* calls fell to 0 with gate raised; gate, excl or state changed */
  int state;         /* LT_G_*: whether a thread is loading the library */
  int excl;          /* a fork is under way: no run starts, nothing is settled */
  int callers;       /* runs at once the pooled buffers are proven for */
  int wanted;        /* lt_pool_threads() when the thread count was settled; 0: not yet */
  int applied;       /* the BLAS's thread count */
  int started;       /* the most threads OpenBLAS has had (its blas_num_threads) */
  int live;          /* OpenBLAS's workers run (a fork stops them) */
} g = {.m = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static atomic_int status; /* LT_BLAS_UNKNOWN until loaded, or found absent */

/* When the memory to load the library, to restart its workers or for a run's buffer was not
   there, the next `skip` products (of any thread) use the own kernel without looking again (a
   look maps a block per worker); the count doubles at each failure, up to LT_BLAS_BACKOFF, and
   a load or a restart resets it. */
#define LT_BLAS_BACKOFF 1024
static atomic_int skip;
static int backoff; /* under g.m */
static void back_off(void) {
  backoff = backoff == 0 ? 1 : backoff < LT_BLAS_BACKOFF ? 2 * backoff : LT_BLAS_BACKOFF;
  atomic_store(&skip, backoff);
}
/* Whether this product is one to skip (counted). */
static int skipping(void) {
  int k = atomic_load(&skip);
  while (k > 0 && !atomic_compare_exchange_weak(&skip, &k, k - 1)) {
  }
  return k > 0;
}

/* Waits (under g.m, gate raised by the caller) until no run is under way and no fork. */
static void wait_alone(void) {
  while (atomic_load(&calls) > 0 || g.excl) pthread_cond_wait(&g.cv, &g.m);
}

/* Whether this thread has had a buffer of its own from the pool (a pthread key: see lt_pool.c
   on _Thread_local). */
static pthread_key_t warm_key;
static char warm_mark;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static void make_key(void) { (void)pthread_key_create(&warm_key, NULL); }
static int warm_here(void) { return pthread_getspecific(warm_key) != NULL; }

/* fork (POSIX). Two sets of handlers: `lock_*`, registered before the first load, keep the
   guard's mutex consistent in the child (held across the fork, then released, or made anew in
   the child, which has none of the parent's other threads, runs or loads); `run_*`, registered
   after OpenBLAS's own (so its prepare handler runs first), hold the runs off across the fork
   while OpenBLAS stops its workers. */
#if !defined(_WIN32)
static void lock_prepare(void) { pthread_mutex_lock(&g.m); }
static void lock_parent(void) { pthread_mutex_unlock(&g.m); }
static void lock_child(void) {
  pthread_cond_init(&g.cv, NULL);
  atomic_store(&calls, 0);
  atomic_store(&gate, 0);
  g.excl = g.live = 0;
  if (g.state == LT_G_LOADING) g.state = LT_G_UNLOADED;
  pthread_mutex_unlock(&g.m);
}
static void run_prepare(void) {
  pthread_mutex_lock(&g.m);
  atomic_fetch_add(&gate, 1);
  wait_alone();
  g.excl = 1;
  pthread_mutex_unlock(&g.m);
}
static void run_parent(void) {
  pthread_mutex_lock(&g.m);
  g.excl = g.live = 0; /* OpenBLAS's handler stopped its workers */
  atomic_fetch_sub(&gate, 1);
  pthread_cond_broadcast(&g.cv);
  pthread_mutex_unlock(&g.m);
}
static void register_lock(void) { pthread_atfork(lock_prepare, lock_parent, lock_child); }
static void register_run(void) { pthread_atfork(run_prepare, run_parent, NULL); }
#else
static void register_lock(void) {}
static void register_run(void) {}
#endif
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static int run_registered; /* written by the one loading thread */

/* Loads the library unless it is loaded or absent. The mutex is not held while the library is
   opened or the handlers registered (a fork's prepare handlers take it). */
static int load(void) {
  int s = atomic_load_explicit(&status, memory_order_acquire);
  if (s != LT_BLAS_UNKNOWN || skipping()) return s == LT_BLAS_LOADED;
  pthread_once(&lock_once, register_lock);
  pthread_once(&key_once, make_key);
  pthread_mutex_lock(&g.m);
  while (g.state == LT_G_LOADING) pthread_cond_wait(&g.cv, &g.m);
  if (g.state == LT_G_LOADED || atomic_load(&status) == LT_BLAS_ABSENT) {
    int done = g.state == LT_G_LOADED;
    pthread_mutex_unlock(&g.m);
    return done;
  }
  g.state = LT_G_LOADING;
  pthread_mutex_unlock(&g.m);
  void *x = NULL;
  s = open_blas(&x);
  if (s == LT_BLAS_LOADED && !run_registered) {
    register_run();
    run_registered = 1;
  }
  if (s == LT_BLAS_LOADED && blas.guarded) { /* the workers started: their buffers, as a run */
    pthread_mutex_lock(&g.m);
    atomic_fetch_add(&gate, 1);
    wait_alone();
    sync_workers(x, blas.openblas_get_num_threads());
    g.live = 1; /* before any fork can stop them again */
    atomic_fetch_sub(&gate, 1);
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.m);
  }
  if (x) lt_os_unmap(x, LT_BLAS_SYNC_BYTES);
  pthread_mutex_lock(&g.m);
  g.state = s == LT_BLAS_LOADED ? LT_G_LOADED : LT_G_UNLOADED;
  if (s == LT_BLAS_LOADED)
    g.started = g.applied = blas.openblas_get_num_threads ? blas.openblas_get_num_threads() : 1;
  if (s == LT_BLAS_UNKNOWN)
    back_off();
  else
    backoff = 0;
  pthread_cond_broadcast(&g.cv);
  pthread_mutex_unlock(&g.m);
  if (s != LT_BLAS_UNKNOWN) atomic_store_explicit(&status, s, memory_order_release);
  return s == LT_BLAS_LOADED;
}

/* Whether a run, the c-th under way, may start without settling: the thread count settled, the
   workers running if it is more than 1, and a pooled buffer for this thread. */
static int ready(int c) {
  if (g.wanted != lt_pool_threads()) return 0;
  return !blas.guarded || ((g.applied == 1 || g.live) && c <= g.callers && warm_here());
}

/* Has OpenBLAS fill its pool with n buffers (held at once, then freed into it), each mapped
   first; returns how many it held. */
static int fill(int n) {
  void *held[LT_BLAS_BLOCKS];
  int k = 0;
  if (n > LT_BLAS_BLOCKS) n = LT_BLAS_BLOCKS;
  while (k < n && mappable(0, 1, LT_BLAS_BUFFER_BYTES) &&
         (held[k] = blas.blas_memory_alloc(0)) != NULL)
    k++;
  for (int i = 0; i < k; i++) blas.blas_memory_free(held[i]);
  return k;
}

/* With no run under way (under g.m, gate raised): sets the BLAS's thread count to the pool's, or to
   1 when the workers' memory is not there, and makes the pool cover this thread and busy + 1 runs
   at once. 0 when not even this run can have a buffer. */
static int settle(int busy) {
  int n = lt_pool_threads();
  g.wanted = n;
  if (!blas.guarded) {
    if (n != g.applied && blas.openblas_set_num_threads) blas.openblas_set_num_threads(n);
    g.applied = n;
    return 1;
  }
  /* stopped workers restart at any change of the count and at a threaded call (OpenBLAS
     0.3.21's openblas_set_num_threads starts them even for 1); new ones start when the count
     passes the most so far: a buffer and a stack each */
  int restart = !g.live && (n != g.applied || n > 1) ? g.started - 1 : 0;
  int more = n > g.started ? n - g.started : 0;
  if (restart + more > 0) {
    void *x = NULL;
    if (mappable(0, restart + more, LT_BLAS_BUFFER_BYTES + stack_bytes()) &&
        (x = lt_os_map(LT_BLAS_SYNC_BYTES))) {
      if (!g.live && blas.blas_thread_init) blas.blas_thread_init();
      g.live = 1;
      blas.openblas_set_num_threads(n);
      int s = blas.openblas_get_num_threads();
      if (s > g.started) g.started = s;
      sync_workers(x, g.started);
      g.applied = g.started;
      lt_os_unmap(x, LT_BLAS_SYNC_BYTES);
      backoff = 0;
    } else if (!g.live && g.applied > 1) { /* any call would restart the workers */
      g.wanted = 0;
      back_off();
      return 0;
    } else {
      n = 1; /* workers running, or stopped at a count of 1: no thread starts; until the count
                changes (lt.set_num_threads), when the guard looks again */
    }
  }
  if (n != g.applied) {
    blas.openblas_set_num_threads(n);
    g.applied = n;
  }
  int want = busy + 1 > g.callers ? busy + 1 : g.callers;
  if (want > LT_BLAS_MAX_CALLERS) want = LT_BLAS_MAX_CALLERS;
  if (warm_here() && g.callers >= want) return 1;
  /* a thread new to the pool needs a buffer of its own (OpenBLAS's TLS builds keep one per
     thread), more runs at once one each; stopped workers' buffers sit free in the pool and are
     held too, so that the callers' come on top */
  int extra = g.live ? 0 : g.started - 1;
  int got = fill((g.callers >= want ? 1 : want) + extra) - extra;
  if (got > g.callers) g.callers = got;
  if (got > 0) (void)pthread_setspecific(warm_key, &warm_mark);
  if (warm_here() && g.callers > 0) return 1; /* alone now: one buffer is enough */
  back_off();
  return 0;
}

void lt_blas_leave(void) {
  if (atomic_fetch_sub(&calls, 1) == 1 && atomic_load(&gate) > 0) {
    pthread_mutex_lock(&g.m); /* a thread waits for no run under way */
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.m);
  }
}

int lt_blas_enter(void) {
  if (atomic_load_explicit(&status, memory_order_acquire) != LT_BLAS_LOADED) return 0;
  if (atomic_load(&skip) > 0 && skipping()) return 0;
  if (atomic_load(&gate) == 0) {
    int c = atomic_fetch_add(&calls, 1) + 1;
    if (atomic_load(&gate) == 0 && ready(c)) return 1;
    lt_blas_leave();
  }
  pthread_mutex_lock(&g.m); /* settle the BLAS with no run under way, then run */
  int busy = atomic_load(&calls);
  atomic_fetch_add(&gate, 1);
  wait_alone();
  int ok = settle(busy);
  if (ok) atomic_fetch_add(&calls, 1);
  atomic_fetch_sub(&gate, 1);
  pthread_cond_broadcast(&g.cv);
  pthread_mutex_unlock(&g.m);
  return ok;
}

/* }====== */

const char *lt_blas_name(void) {
  if (!load()) return NULL;
  return blas.openblas_set_num_threads ? "openblas" : "cblas";
}

const char *lt_blas_core(void) {
  char *(*corename)(void) = NULL;
  *(void **)(void *)&corename = lt_blas_sym("openblas_get_corename"); /* POSIX's dlsym idiom */
  return corename ? corename() : NULL;
}

int lt_blas_knows_cpu(void) {
  /* OpenBLAS's x86 kernel sets without AVX2 (its names, as openblas_get_corename gives them) */
  static const char *const old[] = {"prescott",    "core2",     "penryn",     "dunnington",
                                    "nehalem",     "atom",      "opteron",    "barcelona",
                                    "bobcat",      "athlon",    "katmai",     "northwood",
                                    "sandybridge", "bulldozer", "piledriver", "steamroller",
                                    "excavator",   "banias",    "coppermine", NULL};
  const char *core = lt_cpu_level() >= LT_CPU_AVX2 ? lt_blas_core() : NULL;
  if (!core) return 1;
  for (int i = 0; old[i]; i++) {
    size_t n = strlen(old[i]), j = 0;
    while (j < n && core[j] && (core[j] | 0x20) == old[i][j]) j++;
    if (j == n && (core[j] == 0 || (core[j] | 0x20) == '_')) return 0;
  }
  return 1;
}

int lt_blas_active(lt_dtype dt) {
  return (dt == LT_FLOAT32 || dt == LT_FLOAT64 || dt == LT_COMPLEX64 || dt == LT_COMPLEX128) &&
         atomic_load_explicit(&enabled, memory_order_relaxed) && load();
}

int lt_blas_enable(int on) { return atomic_exchange(&enabled, on != 0); }

void *lt_blas_sym(const char *name) { return load() ? lt_os_lib_sym(blas.lib, name) : NULL; }

/* {====== calls ====== */

static int tr(int t) { return t ? LT_CBLAS_TRANS : LT_CBLAS_NO_TRANS; }

void lt_blas_gemm(lt_dtype dt, int transa, int transb, int m, int n, int k, const double *alpha,
                  const void *a, int lda, const void *b, int ldb, const double *beta, void *c,
                  int ldc) {
  const int o = LT_CBLAS_ROW_MAJOR;
  switch (dt) {
    case LT_FLOAT32:
      blas.cblas_sgemm(o, tr(transa), tr(transb), m, n, k, (float)alpha[0], a, lda, b, ldb,
                       (float)beta[0], c, ldc);
      break;
    case LT_FLOAT64:
      blas.cblas_dgemm(o, tr(transa), tr(transb), m, n, k, alpha[0], a, lda, b, ldb, beta[0], c,
                       ldc);
      break;
    case LT_COMPLEX64: {
      const float al[2] = {(float)alpha[0], (float)alpha[1]},
                  be[2] = {(float)beta[0], (float)beta[1]};
      blas.cblas_cgemm(o, tr(transa), tr(transb), m, n, k, al, a, lda, b, ldb, be, c, ldc);
      break;
    }
    case LT_COMPLEX128:
      blas.cblas_zgemm(o, tr(transa), tr(transb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      break;
    default: break; /* lt_blas_active refused it */
  }
}

void lt_blas_gemv(lt_dtype dt, int trans, int m, int n, const double *alpha, const void *a, int lda,
                  const void *x, int incx, const double *beta, void *y, int incy) {
  const int o = LT_CBLAS_ROW_MAJOR;
  switch (dt) {
    case LT_FLOAT32:
      blas.cblas_sgemv(o, tr(trans), m, n, (float)alpha[0], a, lda, x, incx, (float)beta[0], y,
                       incy);
      break;
    case LT_FLOAT64:
      blas.cblas_dgemv(o, tr(trans), m, n, alpha[0], a, lda, x, incx, beta[0], y, incy);
      break;
    case LT_COMPLEX64: {
      const float al[2] = {(float)alpha[0], (float)alpha[1]},
                  be[2] = {(float)beta[0], (float)beta[1]};
      blas.cblas_cgemv(o, tr(trans), m, n, al, a, lda, x, incx, be, y, incy);
      break;
    }
    case LT_COMPLEX128:
      blas.cblas_zgemv(o, tr(trans), m, n, alpha, a, lda, x, incx, beta, y, incy);
      break;
    default: break;
  }
}

void lt_blas_dot(lt_dtype dt, int n, const void *x, int incx, const void *y, int incy, void *out) {
  switch (dt) {
    case LT_FLOAT32: {
      float r = blas.cblas_sdot(n, x, incx, y, incy);
      memcpy(out, &r, sizeof r);
      break;
    }
    case LT_FLOAT64: {
      double r = blas.cblas_ddot(n, x, incx, y, incy);
      memcpy(out, &r, sizeof r);
      break;
    }
    case LT_COMPLEX64: blas.cblas_cdotu_sub(n, x, incx, y, incy, out); break;
    case LT_COMPLEX128: blas.cblas_zdotu_sub(n, x, incx, y, incy, out); break;
    default: break;
  }
}

/* }====== */
