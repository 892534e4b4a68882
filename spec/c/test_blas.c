/*
 * test_blas.c -- matrix products cannot hang the process (issue 25, round 3 of hostile inputs):
 * the guard of lt_blas.c around OpenBLAS, seen through lt_matmul.
 *
 * - Under an address-space cap (RLIMIT_AS, as a sandboxing host sets it) a product gives the
 *   right result at once: before the guard, OpenBLAS retried the mmap of its 128 MiB buffer for
 *   ever (its workers from the load on, the caller at its first product). Capped when the BLAS
 *   was never loaded, when it was loaded but never used, and when it was warm at 1 thread (then
 *   the BLAS itself must still take the run: its pooled buffer needs no new memory, and at 1
 *   thread no worker restarts after the fork), with a second thread and a raised thread count
 *   in the last case.
 * - fork from one thread while three others run products, 40 times: before the guard,
 *   OpenBLAS's fork handler stopped its workers under a running product, which then waited for
 *   them for ever. Every child computes a product too (restarting the BLAS's workers).
 * Every case runs in a child process killed after a deadline, so that a hang fails the test
 * instead of hanging the suite. The capped cases are skipped under the sanitizers, which
 * reserve terabytes of address space; under ThreadSanitizer the forked children compute nothing
 * (the BLAS would restart its workers there, and it does not allow threads started after a
 * fork), nor under AddressSanitizer (its runtime's locks are not taken across fork: see
 * forked_child). Without a BLAS in the build the
 * same cases check ltensor's own kernel.
 */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid, kill, nanosleep */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lt_blas.h"
#include "lt_linalg.h"
#include "lt_pool.h"
#include "test_core.h"

#include "test_limits.h"
#define N 200 /* products of N x N matrices: OpenBLAS splits them over its threads */
#define CAP_EXTRA ((rlim_t)96 << 20) /* the own kernel fits; an OpenBLAS buffer (128 MiB) not */

static void nap_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Runs fn in a child process: its exit status, 128 + the signal that ended it, or -1 when it
   ran past `seconds` (then it is killed). A child of the test's own process leads a process
   group, killed whole: a child that hung in a child of its own leaves no process behind. */
static int depth; /* in_child calls above this process */
static int in_child(int (*fn)(void), int seconds) {
  fflush(stdout);
  fflush(stderr);
  int lead = depth == 0;
  pid_t pid = fork();
  if (pid == 0) {
    if (lead) setpgid(0, 0);
    depth++;
    _exit(fn());
  }
  if (pid < 0) return -2;
  if (lead) setpgid(pid, pid);
  for (long ms = 0; ms < seconds * 1000L; ms += 5) {
    int st;
    if (waitpid(pid, &st, WNOHANG) == pid) {
      if (lead) kill(-pid, SIGKILL); /* its children, if a case left any */
      return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    nap_ms(5);
  }
  kill(lead ? -pid : pid, SIGKILL);
  waitpid(pid, NULL, 0);
  return -1;
}

/* {====== products with known results ====== */

static const lt_dtype dtypes[] = {LT_FLOAT32, LT_FLOAT64, LT_COMPLEX64, LT_COMPLEX128};
#define NDT ((int)(sizeof dtypes / sizeof dtypes[0]))

/* Small integers (exact in every dtype and every order of summation). */
static double re_at(int64_t i, int64_t j, int seed) {
  return (double)((i * 7 + j * 3 + seed) % 9 - 4);
}
static double im_at(int64_t i, int64_t j, int seed) { return (double)((i + j * 2 + seed) % 5 - 2); }

static lt_tensor *operand(lt_dtype dt, int seed) {
  lt_tensor *t = make(dt, 2, A(N, N));
  char *p = lt_data(t);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++, p += lt_esize(t)) {
      double re = re_at(i, j, seed), im = im_at(i, j, seed);
      switch (dt) {
        case LT_FLOAT32: *(float *)(void *)p = (float)re; break;
        case LT_FLOAT64: *(double *)(void *)p = re; break;
        case LT_COMPLEX64:
          ((float *)(void *)p)[0] = (float)re, ((float *)(void *)p)[1] = (float)im;
          break;
        default: ((double *)(void *)p)[0] = re, ((double *)(void *)p)[1] = im; break;
      }
    }
  return t;
}

static lt_tensor *lhs[NDT], *rhs[NDT];
static double want_re[N][N], want_im[N][N], want_real[N][N]; /* complex and real products */

static void make_operands(void) {
  for (int d = 0; d < NDT; d++) lhs[d] = operand(dtypes[d], 1), rhs[d] = operand(dtypes[d], 5);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double r = 0, im = 0, real = 0;
      for (int k = 0; k < N; k++) {
        double ar = re_at(i, k, 1), ai = im_at(i, k, 1), br = re_at(k, j, 5), bi = im_at(k, j, 5);
        real += ar * br;
        r += ar * br - ai * bi;
        im += ar * bi + ai * br;
      }
      want_real[i][j] = real, want_re[i][j] = r, want_im[i][j] = im;
    }
}

/* lhs * rhs in dtype d: 1 when it succeeded with the right elements. */
static int product_right(int d) {
  lt_tensor *c = NULL;
  lt_error e;
  if (lt_matmul(lhs[d], rhs[d], &c, &e) != LT_OK) {
    fprintf(stderr, "matmul %s: %s\n", lt_dtypes[dtypes[d]].name, e.msg);
    return 0;
  }
  int cx = lt_dtypes[dtypes[d]].is_complex, ok = 1;
  for (int64_t i = 0; i < N && ok; i++)
    for (int64_t j = 0; j < N && ok; j++) {
      double im, re = get(c, A(i, j), &im);
      ok = cx ? re == want_re[i][j] && im == want_im[i][j] : re == want_real[i][j];
    }
  lt_tensor_free(c);
  return ok;
}

static int all_right(void) {
  int ok = 1;
  for (int d = 0; d < NDT; d++) ok &= product_right(d);
  return ok;
}

/* Whether the guard lets a run of BLAS calls start now (0 without a BLAS). */
static int blas_runs(void) {
#ifdef LTENSOR_HAVE_BLAS
  if (!lt_blas_active(LT_FLOAT32) || !lt_blas_enter()) return 0;
  lt_blas_leave();
  return 1;
#else
  return 0;
#endif
}

/* }====== */

/* {====== under an address-space cap ====== */

/* Capped before any product: the BLAS cannot have its buffers, the own kernel computes. */
static int capped_cold(void) {
  CHECK(tl_cap_address_space(CAP_EXTRA));
  CHECKF(all_right(), "a product under the cap");
  CHECKF(!blas_runs(), "the guard let a run start that needs a new buffer under the cap");
  CHECKF(all_right(), "a product under the cap, again");
  return tu_failed != 0;
}

static atomic_int second_ok;
static void *second_thread(void *arg) {
  (void)arg;
  int ok = 1;
  for (int r = 0; r < 3; r++) ok &= all_right();
  atomic_store(&second_ok, ok);
  return NULL;
}

/* Capped after this thread's products warmed the BLAS: it still takes the runs (its pooled
   buffer needs nothing new), on fewer threads if their memory is not there; a second thread,
   new to the BLAS, gets its products right too, at once. */
static int capped_warm(void) {
  CHECK(tl_cap_address_space(CAP_EXTRA));
  CHECKF(all_right(), "a product under the cap");
#ifdef LTENSOR_HAVE_BLAS
  CHECKF(!lt_blas_active(LT_FLOAT32) || blas_runs(), "the guard refused a run the pool covers");
#endif
  pthread_t t;
  CHECK(pthread_create(&t, NULL, second_thread, NULL) == 0);
  for (int r = 0; r < 3; r++) CHECKF(all_right(), "a product beside another thread's");
  pthread_join(t, NULL);
  CHECK(atomic_load(&second_ok));
  lt_pool_set_threads(6); /* workers the cap has no room for */
  CHECKF(all_right(), "a product at 6 threads under the cap");
  return tu_failed != 0;
}

static void check_capped(void) {
  if (SANITIZED) {
    printf(
        "test_blas: the address-space cap cases are skipped under the sanitizers (their "
        "shadow memory needs terabytes of address space)\n");
    return;
  }
  int rc = in_child(capped_cold, 20);
  CHECKF(rc == 0, "capped before the BLAS was loaded: %s (%d)", rc == -1 ? "hung" : "failed", rc);
  (void)lt_blas_name(); /* loads the BLAS (when the build has one), uses it not */
  rc = in_child(capped_cold, 20);
  CHECKF(rc == 0, "capped after the BLAS was loaded: %s (%d)", rc == -1 ? "hung" : "failed", rc);
  int threads = lt_pool_threads();
  lt_pool_set_threads(1); /* OpenBLAS restarts its workers after a fork unless at 1 thread */
  CHECK(all_right());     /* warm */
  rc = in_child(capped_warm, 20);
  lt_pool_set_threads(threads);
  CHECKF(rc == 0, "capped when warm: %s (%d)", rc == -1 ? "hung" : "failed", rc);
}

/* }====== */

/* {====== fork under running products ====== */

static atomic_int stop, bad;
static atomic_long products;

static void *producer(void *arg) {
  int d = (int)(intptr_t)arg;
  while (!atomic_load(&stop)) {
    if (!product_right(d)) atomic_store(&bad, 1);
    atomic_fetch_add(&products, 1);
  }
  return NULL;
}

static int forked_child(void) {
#if defined(UNDER_TSAN)
  return 0; /* the BLAS would restart its workers here, which ThreadSanitizer does not allow */
#else
  /* Under AddressSanitizer (GCC 12's runtime) a child forked while other threads allocate may
     find the runtime's allocator or thread registry locked, its fork taking neither: the child
     then blocks in malloc or in starting the BLAS's workers, whatever ltensor does. Since float32
     products run ltensor's own kernel on a CPU the BLAS does not know (lt_blas_knows_cpu), and
     allocate outside the BLAS's fork guard, the child computes only under the plain build. */
  if (SANITIZED) return 0;
  return !(product_right(0) && product_right(1));
#endif
}

/* The forking process: three threads run products while this one forks. */
static int fork_storm(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    CHECK(pthread_create(&t[i], NULL, producer, (void *)(intptr_t)i) == 0);
  while (atomic_load(&products) < 3) nap_ms(1);
  for (int i = 0; i < 40; i++) {
    int rc = in_child(forked_child, 15);
    CHECKF(rc == 0, "fork %d: the child %s (%d)", i, rc == -1 ? "hung" : "failed", rc);
    nap_ms(2);
  }
  long before = atomic_load(&products);
  while (atomic_load(&products) < before + 3) nap_ms(1); /* the products go on after the forks */
  atomic_store(&stop, 1);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  CHECK(!atomic_load(&bad));
  return tu_failed != 0;
}

/* }====== */

int main(void) {
  make_operands();
  check_capped();
  int rc = in_child(fork_storm, 60);
  CHECKF(rc == 0, "fork under running products: %s (%d)", rc == -1 ? "hung" : "failed", rc);
  CHECK(all_right());
  for (int d = 0; d < NDT; d++) lt_tensor_free(lhs[d]), lt_tensor_free(rhs[d]);
  return tu_finish("test_blas");
}
