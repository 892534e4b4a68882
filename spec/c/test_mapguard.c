/*
 * test_mapguard.c -- the mapping guard (lt_mapguard.h) at the core's level: a mapped file
 * truncated under its tensors, read on this thread and on worker threads of the pool; the
 * handler passing faults it does not own to the one installed before it; removal restoring that
 * one. POSIX only, as the guard.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lt_file.h"
#include "lt_mapguard.h"
#include "lt_pool.h"
#include "test_util.h"

/* A file of n float32 values 1, 2, 3, ... in the temporary folder; its path in buf. */
static void make_file(char *buf, size_t len, size_t n) {
  snprintf(buf, len, "/tmp/lt-mapguard-XXXXXX");
  int fd = mkstemp(buf);
  CHECK(fd >= 0);
  float *v = malloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++) v[i] = (float)(i + 1);
  CHECK(write(fd, v, n * sizeof *v) == (ssize_t)(n * sizeof *v));
  free(v);
  close(fd);
}

/* The file at path mapped as a 1-d float32 tensor of n elements. */
static lt_tensor *map_file(const char *path, int64_t n) {
  lt_file f;
  lt_error err;
  lt_storage *st = NULL;
  lt_tensor *t = NULL;
  CHECK(lt_file_open(&f, path, &err) == LT_OK);
  CHECK(lt_file_map(&f, &st, &err) == LT_OK);
  lt_file_close(&f);
  CHECK(lt_file_tensor(st, LT_FLOAT32, lt_dtypes[LT_FLOAT32].dl, 1, &n, 0, 0, &t, &err) == LT_OK);
  lt_storage_release(st);
  t->readonly = LT_RO_MAPPED;
  return t;
}

static void truncate_file(const char *path) {
  int fd = open(path, O_WRONLY | O_TRUNC);
  CHECK(fd >= 0);
  close(fd);
}

/* Sums pieces of the tensor on the pool's workers only (the caller's thread skips its pieces:
   the first fault, which maps zeros over the rest, must come from a worker). */
typedef struct {
  const volatile float *p;
  int64_t grain;
  pthread_t caller;
  atomic_int on_workers;
  double part[LT_PAR_PIECES]; /* one per piece: lt_pool_grain makes at most that many */
} sum_job;

static int sum_piece(void *ctx, int64_t lo, int64_t hi) {
  sum_job *j = ctx;
  if (pthread_equal(pthread_self(), j->caller)) { /* leaves the pieces to the workers a while */
    if (!atomic_load(&j->on_workers)) usleep(1000);
    return 0;
  }
  double s = 0;
  for (int64_t i = lo; i < hi; i++) s += j->p[i];
  j->part[lo / j->grain] = s;
  atomic_fetch_add(&j->on_workers, 1);
  return 0;
}

static void test_truncated(void) {
  tu_set_context("a truncated mapping, read on this thread");
  char path[64];
  lt_error err;
  make_file(path, sizeof path, 4096);
  lt_tensor *t = map_file(path, 4096);
  CHECK(lt_check_readable(t, &err) == LT_OK);
  CHECK(((const float *)lt_data(t))[4095] == 4096.0f);
  truncate_file(path);
  volatile float got = ((const volatile float *)lt_data(t))[4095]; /* faults: zero pages now */
  CHECK(got == 0.0f);
  CHECK(lt_map_damaged(t));
  CHECK(!lt_readable(t));
  CHECK(lt_check_readable(t, &err) == LT_EREVOKED);
  CHECKF(strstr(err.msg, "file was truncated while mapped") && strstr(err.msg, path), "%s",
         err.msg);
  const void *bytes;
  lt_tensor *owned;
  CHECK(lt_file_bytes(t, &bytes, &owned, &err) == LT_EREVOKED); /* no save of what was lost */
  lt_tensor_free(t);                                            /* unmaps the zero pages */
  unlink(path);

  tu_set_context("a truncated mapping, read on the pool's workers");
  int64_t n = 4 << 20; /* 16 MiB: many pieces */
  make_file(path, sizeof path, (size_t)n);
  t = map_file(path, n);
  lt_pool_set_threads(4);
  truncate_file(path);
  sum_job *j = calloc(1, sizeof *j);
  j->p = (const float *)lt_data(t);
  j->grain = lt_pool_grain(n, 4);
  j->caller = pthread_self();
  /* a thread the pool starts for a job waits for the next one: jobs until workers took pieces */
  for (int tries = 0; tries < 200 && !atomic_load(&j->on_workers); tries++)
    CHECK(lt_pool_run(n, j->grain, sum_piece, j) == -1); /* every piece ran */
  CHECK(lt_pool_started() > 0 && atomic_load(&j->on_workers) > 0);
  CHECK(lt_map_damaged(t));
  free(j);
  lt_tensor_free(t);
  unlink(path);
}

static volatile sig_atomic_t host_calls;
static sigjmp_buf host_jump;

/* A host's own SIGBUS handler, installed before ltensor's: counts, and leaves a fault by jumping
   out of it. */
static void host_handler(int sig, siginfo_t *info, void *uctx) {
  (void)sig;
  (void)uctx;
  host_calls++;
  if (info->si_code > 0) siglongjmp(host_jump, 1);
}

static void test_chain(void) {
  tu_set_context("faults that are not ltensor's go to the handler before it");
  lt_error err;
  struct sigaction sa, cur;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = host_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  CHECK(lt_mapguard_enable(0, &err) == LT_OK);
  CHECK(sigaction(SIGBUS, &sa, NULL) == 0);
  CHECK(lt_mapguard_enable(1, &err) == LT_OK);
  CHECK(lt_mapguard_enabled());
  CHECK(sigaction(SIGBUS, NULL, &cur) == 0 && cur.sa_sigaction != host_handler);
  raise(SIGBUS); /* sent, not a fault: passed on */
  CHECK(host_calls == 1);
  /* a fault in a mapping of the host's own, not ltensor's */
  char path[64];
  make_file(path, sizeof path, 4096);
  int fd = open(path, O_RDONLY);
  const volatile float *p = mmap(NULL, 4096 * sizeof(float), PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  CHECK(p != MAP_FAILED);
  truncate_file(path);
  volatile float got = -1;
  if (sigsetjmp(host_jump, 1) == 0) got = p[4095];
  CHECK(host_calls == 2 && got == -1);
  munmap((void *)(uintptr_t)p, 4096 * sizeof(float));
  unlink(path);

  tu_set_context("removing the guard restores the handler before it");
  CHECK(lt_mapguard_enable(0, &err) == LT_OK);
  CHECK(!lt_mapguard_enabled());
  CHECK(sigaction(SIGBUS, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
        cur.sa_sigaction == host_handler);
  signal(SIGBUS, SIG_DFL);
}

int main(void) {
  lt_error err;
  CHECK(!lt_mapguard_enabled()); /* off until asked */
  CHECK(lt_mapguard_enable(1, &err) == LT_OK);
  test_truncated();
  test_chain();
  return tu_finish("test_mapguard");
}
