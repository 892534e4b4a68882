/*
 * test_threads.c -- the worker pool (lt_pool.h) under the core's bulk operations.
 *
 * One set of large operations (elementwise with broadcasting, a scalar and a division by zero;
 * reductions over every element and over a dim, argmax with ties and a NaN, var; copies of
 * transposed and strided views; casts, one of a value that does not fit; fills) is computed at
 * 1 thread, then at 2, 3 and 4, twice at 4, and at 4 from two host threads at once: every
 * result, floating ones included, must be the same bytes as at 1 thread (the documented
 * tolerance of ltensor's thread counts is none: pieces depend on sizes alone), every error the
 * same message; with the workers watching for the next job (the default) and, in c_threads_env,
 * sleeping at once (LTENSOR_SPIN_US=0). Also: no thread exists before the first large operation
 * (/proc/self/task), small operations start none, a job started inside a piece runs serially, and
 * after fork the child computes the same results with workers of its own (not under
 * ThreadSanitizer, which does not follow threads started after a fork).
 */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid, opendir */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lt_copy.h"
#include "lt_math.h"
#include "lt_pool.h"
#include "lt_reduce.h"
#include "test_core.h"

#if defined(UNDER_TSAN)
#define TSAN_THREADS 1 /* ThreadSanitizer's own background thread, started by then */
#else
#define TSAN_THREADS 0
#endif

#define ROWS 600
#define COLS 500
#define N (ROWS * COLS) /* 300000 elements: 1.2 MB of float32, about 37 pieces an operation */
#define MAXRES 40

/* Threads of this process, from /proc/self/task (-1 where there is none). */
static int task_count(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

/* {====== inputs ====== */

static lt_tensor *xf, *yf, *xd, *xi, *xl, *zi, *xnan, *big;

static uint64_t rng = 88172645463325252ULL;
static double uniform(void) { /* xorshift64: the same inputs in every process */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static void make_inputs(void) {
  int64_t shape[2] = {ROWS, COLS}, n = N;
  xf = make(LT_FLOAT32, 2, shape);
  yf = make(LT_FLOAT32, 1, A(COLS));
  xd = make(LT_FLOAT64, 1, &n);
  xi = make(LT_INT32, 2, shape);
  xl = make(LT_INT64, 1, &n);
  zi = make(LT_INT32, 1, &n);
  xnan = make(LT_FLOAT32, 1, &n);
  big = make(LT_FLOAT64, 1, &n);
  float *f = (float *)(void *)lt_data(xf), *nf = (float *)(void *)lt_data(xnan);
  double *d = (double *)(void *)lt_data(xd), *b = (double *)(void *)lt_data(big);
  int32_t *i = (int32_t *)(void *)lt_data(xi), *z = (int32_t *)(void *)lt_data(zi);
  int64_t *l = (int64_t *)(void *)lt_data(xl);
  for (int64_t k = 0; k < N; k++) {
    f[k] = (float)(uniform() * 2000 - 1000);
    nf[k] = (float)uniform();
    d[k] = uniform() * 1e6 - 5e5;
    i[k] = (int32_t)(uniform() * 2001) - 1000;
    l[k] = (int64_t)(uniform() * 3) - 1; /* -1, 0, 1: a product that stays small */
    z[k] = 1 + (int32_t)(uniform() * 7);
    b[k] = uniform() * 100;
  }
  f[1234] = f[250000] = 5000; /* the maximum twice, in different pieces: the first wins */
  f[2000] = f[260000] = -5000;
  nf[180000] = nf[290000] = (float)NAN; /* the first NaN wins argmax */
  nf[5] = 2;
  z[220000] = 0;                /* integer division by zero */
  b[150000] = b[280000] = 1e10; /* past int32: the cast names the first */
  float *yy = (float *)(void *)lt_data(yf);
  for (int k = 0; k < COLS; k++) yy[k] = (float)(k % 17) * 0.25f;
}

/* }====== */

/* {====== the operations ====== */

/* What compute makes: results, error messages, and its own error record and count of calls
   that went wrong (the fixture's err and CHECK counters are not for two threads at once). */
typedef struct {
  lt_tensor *t[MAXRES];
  char msg[8][300];
  int n, nmsg, bad;
  lt_error e;
} results;

/* A call of compute's that must succeed. */
#define OK(r, call)                  \
  do {                               \
    if ((call) != LT_OK) (r)->bad++; \
  } while (0)

static void keep(results *r, lt_tensor *t) {
  if (r->n < MAXRES) r->t[r->n++] = t;
}

static void keep_err(results *r, int rc) {
  if (rc == LT_OK) r->bad++;
  if (r->nmsg < 8) snprintf(r->msg[r->nmsg++], sizeof r->msg[0], "%d %s", rc, r->e.msg);
}

static lt_operand opnd(const lt_tensor *t) { return (lt_operand){t, {LT_SK_INT, {0}, 0}, 0}; }

static lt_tensor *binary(results *r, lt_func op, const lt_operand *a, const lt_operand *b) {
  lt_tensor *o = NULL;
  OK(r, lt_binary(op, a, b, NULL, &o, &r->e));
  return o;
}

static lt_tensor *reduce(results *r, lt_redop op, const lt_tensor *a, int dim, lt_tensor **idx) {
  lt_tensor *o = NULL;
  OK(r, lt_reduce(op, a, dim, 0, 1, &o, idx, &r->e));
  return o;
}

static void compute(results *r) {
  memset(r, 0, sizeof *r);
  lt_operand a = opnd(xf), b = opnd(yf), s = {NULL, {LT_SK_FLOAT, {.f = 0.75}, 0}, 0};
  lt_operand ia = opnd(xi), iz = opnd(zi), il = opnd(xl);
  keep(r, binary(r, LT_ADD, &a, &b)); /* broadcast over rows */
  keep(r, binary(r, LT_MUL, &a, &s));
  keep(r, binary(r, LT_GT, &a, &b));
  keep(r, binary(r, LT_MAXIMUM, &ia, &ia));
  lt_tensor *o = NULL;
  OK(r, lt_unary(LT_EXP, yf, NULL, &o, &r->e)); /* small: on the caller's thread */
  keep(r, o);
  OK(r, lt_unary(LT_SIN, xd, NULL, &o, &r->e));
  keep(r, o);
  lt_tensor *flat_i = NULL;
  OK(r, lt_view(xi, 1, A(N), &flat_i, &r->e));
  lt_operand fi = opnd(flat_i);
  keep_err(r, lt_binary(LT_FLOORDIV, &fi, &iz, NULL, &o, &r->e));
  lt_operand lo = {NULL, {LT_SK_INT, {.i = 3}, 0}, 0};
  keep(r, binary(r, LT_FLOORDIV, &fi, &lo));
  keep(r, binary(r, LT_MUL, &il, &il));
  /* reductions: over everything, over each dim */
  const lt_tensor *reds[] = {xf, xd, xi, xl, xnan};
  for (size_t k = 0; k < sizeof reds / sizeof reds[0]; k++) {
    keep(r, reduce(r, LT_SUM, reds[k], -1, NULL));
    keep(r, reduce(r, LT_ARGMAX, reds[k], -1, NULL));
  }
  keep(r, reduce(r, LT_PROD, xl, -1, NULL));
  keep(r, reduce(r, LT_MEAN, xd, -1, NULL));
  keep(r, reduce(r, LT_VAR, xf, -1, NULL));
  keep(r, reduce(r, LT_ARGMIN, xf, -1, NULL));
  keep(r, reduce(r, LT_MAX, xnan, -1, NULL));
  keep(r, reduce(r, LT_ALL, zi, -1, NULL));
  keep(r, reduce(r, LT_ANY, xl, -1, NULL));
  keep(r, reduce(r, LT_SUM, xf, 0, NULL)); /* column sums */
  keep(r, reduce(r, LT_SUM, xf, 1, NULL));
  lt_tensor *at = NULL;
  keep(r, reduce(r, LT_MAX, xi, 1, &at));
  keep(r, at);
  lt_tensor *tr = NULL; /* a non-contiguous input: argmax walks a copy */
  OK(r, lt_transpose(xf, 0, 1, &tr, &r->e));
  keep(r, reduce(r, LT_ARGMAX, tr, -1, NULL));
  keep(r, reduce(r, LT_STD, tr, 0, NULL));
  /* copies and casts */
  OK(r, lt_clone(tr, &o, &r->e)); /* the transposing copy */
  keep(r, o);
  lt_tensor *sl = NULL;
  OK(r, lt_slice(xd, 0, 1, N / 2, 2, &sl, &r->e));
  OK(r, lt_cast(sl, LT_FLOAT32, &o, &r->e));
  keep(r, o);
  OK(r, lt_cast(xi, LT_FLOAT64, &o, &r->e));
  keep(r, o);
  OK(r, lt_cast(xf, LT_INT16, &o, &r->e));
  keep(r, o);
  keep_err(r, lt_cast(big, LT_INT32, &o, &r->e));
  lt_tensor *fl = make(LT_FLOAT32, 2, A(ROWS, COLS));
  lt_scalar v = {LT_SK_FLOAT, {.f = 1.5}, 0};
  lt_tensor *col = NULL; /* a strided fill */
  OK(r, lt_select(fl, 1, 3, &col, &r->e));
  OK(r, lt_fill(fl, &v, &r->e));
  v.v.f = -2;
  OK(r, lt_fill(col, &v, &r->e));
  keep(r, fl);
  lt_tensor_free(col);
  lt_tensor_free(sl);
  lt_tensor_free(tr);
  lt_tensor_free(flat_i);
}

static void release(results *r) {
  for (int k = 0; k < r->n; k++) lt_tensor_free(r->t[k]);
  r->n = 0;
}

static int same_bytes(const lt_tensor *x, const lt_tensor *y) {
  if (!x || !y || x->dtype != y->dtype || x->ndim != y->ndim ||
      !dims_eq(x->shape, y->shape, x->ndim) || !lt_is_contiguous(x) || !lt_is_contiguous(y))
    return 0;
  return memcmp(lt_data(x), lt_data(y), (size_t)lt_numel(x) * lt_esize(x)) == 0;
}

static void check_same(const results *ref, const results *r, const char *what) {
  tu_set_context("%s", what);
  CHECK(r->n == ref->n && r->nmsg == ref->nmsg && r->bad == 0);
  for (int k = 0; k < r->n && k < ref->n; k++)
    CHECKF(same_bytes(ref->t[k], r->t[k]), "result %d differs", k);
  for (int k = 0; k < r->nmsg && k < ref->nmsg; k++)
    CHECKF(strcmp(ref->msg[k], r->msg[k]) == 0, "error '%s', expected '%s'", r->msg[k],
           ref->msg[k]);
  tu_set_context("%s", "");
}

/* }====== */

/* {====== the checks ====== */

static results ref;

static void *host_thread(void *arg) {
  results *r = arg;
  compute(r);
  return NULL;
}

/* A piece that runs a job of its own: that one runs serially, on this thread. */
static int64_t inner_sum[64];
static int inner_piece(void *ctx, int64_t lo, int64_t hi) {
  int64_t *acc = ctx;
  for (int64_t i = lo; i < hi; i++) *acc += i;
  return 0;
}
static int outer_piece(void *ctx, int64_t lo, int64_t hi) {
  (void)ctx;
  for (int64_t k = lo; k < hi; k++) {
    int64_t acc = 0;
    if (lt_pool_run(1000, 10, inner_piece, &acc) != -1) return 1;
    inner_sum[k] = acc;
  }
  return 0;
}
static int failing_piece(void *ctx, int64_t lo, int64_t hi) {
  (void)ctx;
  return lo <= 37 && 37 < hi; /* item 37 fails */
}

static void check_fork(void) {
#if !defined(UNDER_TSAN)
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) { /* the child: no workers; its first large job starts them again */
    lt_pool_set_threads(3);
    results r;
    compute(&r);
    int ok = r.n == ref.n && r.nmsg == ref.nmsg && r.bad == 0 && lt_pool_started() == 2 &&
             task_count() == 3;
    for (int k = 0; ok && k < r.n; k++) ok = same_bytes(ref.t[k], r.t[k]);
    _exit(ok ? 0 : 1);
  }
  CHECK(pid > 0);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the forked child failed (status %d)",
         status);
#endif
}

int main(void) {
  const char *env = getenv("LTENSOR_NUM_THREADS"), *spin = getenv("LTENSOR_SPIN_US");
  CHECKF(lt_pool_threads() >= 1, "default count %d", lt_pool_threads());
  if (env && atoi(env) >= 1) CHECK(lt_pool_threads() == atoi(env));
  /* the watch before sleeping: 200 us unless LTENSOR_SPIN_US says (c_threads_env: 0) */
  CHECKF(lt_pool_spin_ns() == (spin ? atol(spin) * 1000 : 200000), "spin %ld ns",
         lt_pool_spin_ns());
  make_inputs();
  int tasks0 = task_count();
  CHECKF(tasks0 == 1, "%d threads before any operation", tasks0);
  lt_pool_set_threads(4); /* small operations start no thread */
  lt_tensor *o = NULL;
  lt_operand b = opnd(yf);
  results small = {0};
  o = binary(&small, LT_ADD, &b, &b);
  lt_tensor_free(o);
  o = reduce(&small, LT_SUM, yf, -1, NULL);
  CHECK(small.bad == 0);
  lt_tensor_free(o);
  CHECK(lt_pool_started() == 0);
  CHECK(task_count() == tasks0);
  CHECK(lt_pool_set_threads(0) == -1 && lt_pool_threads() == 4);

  lt_pool_set_threads(1);
  compute(&ref);
  CHECKF(lt_pool_started() == 0 && task_count() == tasks0, "1 thread started %d",
         lt_pool_started());
  CHECK(ref.n >= 30 && ref.nmsg == 2 && ref.bad == 0);
  CHECKF(strstr(ref.msg[0], "integer division by zero") != NULL, "%s", ref.msg[0]);
  CHECKF(strstr(ref.msg[1], "value 10000000000 cannot be converted to int32") != NULL, "%s",
         ref.msg[1]);
  /* spot checks against the inputs: ties and NaN keep the first */
  CHECK(*(int64_t *)(void *)lt_data(ref.t[9]) == 1234);    /* argmax xf */
  CHECK(*(int64_t *)(void *)lt_data(ref.t[17]) == 180000); /* argmax xnan */
  CHECK(*(int64_t *)(void *)lt_data(ref.t[21]) == 2000);   /* argmin xf */

  results r;
  for (int n = 2; n <= 4; n++) {
    char what[32];
    snprintf(what, sizeof what, "%d threads", n);
    lt_pool_set_threads(n);
    compute(&r);
    check_same(&ref, &r, what);
    release(&r);
    CHECKF(lt_pool_started() == n - 1, "%d workers at %d threads", lt_pool_started(), n);
  }
  compute(&r); /* 4 again: the same run to run */
  check_same(&ref, &r, "4 threads again");
  release(&r);
  CHECKF(task_count() == 4 + TSAN_THREADS, "%d threads at 4", task_count());

  results r2; /* two host threads at once: both finish, both right */
  pthread_t h1, h2;
  CHECK(pthread_create(&h1, NULL, host_thread, &r) == 0);
  CHECK(pthread_create(&h2, NULL, host_thread, &r2) == 0);
  pthread_join(h1, NULL);
  pthread_join(h2, NULL);
  check_same(&ref, &r, "host thread 1");
  check_same(&ref, &r2, "host thread 2");
  release(&r);
  release(&r2);

  int64_t outer[1] = {0};
  CHECK(lt_pool_run(64, 1, outer_piece, outer) == -1); /* a job inside a piece */
  for (int k = 0; k < 64; k++) CHECK(inner_sum[k] == 999 * 1000 / 2);
  CHECK(lt_pool_run(100, 3, failing_piece, NULL) == 12); /* the piece of item 37 */
  CHECK(lt_pool_grain(1000, 4) == 1000);                 /* 4 KB: one piece */
  CHECK(lt_pool_grain(1 << 20, 4) == 8192);              /* 4 MiB: 32 KiB pieces */
  CHECK(lt_pool_grain(1 << 26, 4) == (1 << 26) / LT_PAR_PIECES);

  check_fork();
  release(&ref);
  lt_tensor *ins[] = {xf, yf, xd, xi, xl, zi, xnan, big};
  for (size_t k = 0; k < sizeof ins / sizeof ins[0]; k++) lt_tensor_free(ins[k]);
  return tu_finish("test_threads");
}

/* }====== */
