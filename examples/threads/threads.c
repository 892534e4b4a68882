/*
 * threads.c -- tensors handed between threads, each with its own lua_State, through DLPack.
 *
 * Four worker threads stand in a ring; each opens its own Lua state (ltensor_open) and runs
 * ring.lua. A userdata never leaves its state: a tensor travels as an owning
 * DLManagedTensorVersioned*. The sender exports it (ltensor_export) and puts the pointer in
 * the next thread's queue (mutex + condition variable); the receiver pushes it into its own
 * state (ltensor_push_managed: ownership passes), lets the script add to it in place, exports
 * it again and passes it on. Thread 0 produces the tensors: half are made by the script
 * (lt.arange, ltensor's own memory), half are host buffers lent with ltensor_push_borrowed. After
 * a few rounds each tensor stops at its last consumer, which checks the values and drops it.
 *
 * Ownership along the ring: each import holds the export it came from, and each export holds
 * the block of the tensor it was made from, so the exports of one tensor form a chain that
 * keeps the memory alive; when the last consumer drops its tensor, the chain unwinds and every
 * deleter runs once, on that thread, whichever thread made the export.
 *
 * What is checked (nonzero exit on any mismatch): the final values (every hop's addition is
 * there, so every write was seen by the next thread); the data pointer is the same at every
 * hop (nothing was copied); every export's deleter ran exactly once (each export is wrapped in
 * a counting managed tensor before it travels), all of them when the last consumer dropped the
 * tensor and none before; every host buffer's release callback ran exactly once, then. Leaks
 * show under AddressSanitizer; races under ThreadSanitizer (LTENSOR_SANITIZE=thread).
 */
#include <lauxlib.h>
#include <lualib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltensor.h"

#ifndef LTENSOR_RING_SCRIPT
#define LTENSOR_RING_SCRIPT "ring.lua"
#endif

enum {
  NTHREADS = 4,
  NROUNDS = 3,
  NTENSORS = 2 * NTHREADS, /* ids 0..3 made by the script, 4..7 lent by the host */
  LEN = 1000,              /* elements per tensor */
  MAX_EXPORTS = NTENSORS * NROUNDS * NTHREADS
};

static atomic_int n_failed;

#define CHECK(cond, ...)                                            \
  do {                                                              \
    if (!(cond)) {                                                  \
      atomic_fetch_add(&n_failed, 1);                               \
      fprintf(stderr, "threads.c:%d: FAIL: %s: ", __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                 \
      fputc('\n', stderr);                                          \
    }                                                               \
  } while (0)

/* {====== the plan ====== */

/* Tensor id visits threads 1, 2, ..., 0, 1, ... (hop h arrives at thread h % NTHREADS) and
   stops at thread id % NTHREADS in its last round. */
static int last_hop(int id) {
  int f = id % NTHREADS;
  return (NROUNDS - 1) * NTHREADS + (f ? f : NTHREADS);
}

/* What thread w adds to a tensor that arrives there (and goes on). */
static int addend(int w) { return w + 1; }

/* The sum of the additions tensor id has seen when it reaches its last consumer. */
static int total_added(int id) {
  int sum = 0;
  for (int h = 1; h < last_hop(id); h++) sum += addend(h % NTHREADS);
  return sum;
}

/* How many tensors arrive at thread w, over the whole run. */
static int arrivals(int w) {
  int n = 0;
  for (int id = 0; id < NTENSORS; id++)
    for (int h = 1; h <= last_hop(id); h++) n += h % NTHREADS == w;
  return n;
}

static int host_made(int id) { return id >= NTENSORS / 2; }

/* }====== */

/* {====== counting deleters ====== */

/* An export, wrapped before it travels: same tensor, a deleter that counts and then runs the
   export's own. The records live until the end so that a second call would be counted. */
typedef struct {
  DLManagedTensorVersioned m; /* first: the deleter finds the record from it */
  DLManagedTensorVersioned *inner;
  int id;
  atomic_int deleted;
} export_record;

static export_record exports[MAX_EXPORTS];
static atomic_int n_exports;
/* Per tensor: exports made, deleter calls (a second call to one deleter counts too). */
static atomic_int made[NTENSORS], deleted[NTENSORS];

static void counting_deleter(DLManagedTensorVersioned *self) {
  export_record *r = (export_record *)self;
  atomic_fetch_add(&deleted[r->id], 1);
  if (atomic_fetch_add(&r->deleted, 1) > 0) return; /* a second call: counted, no more */
  DLManagedTensorVersioned *inner = r->inner;
  r->inner = NULL; /* the record forgets the tensor, so that LeakSanitizer sees what is left */
  memset(&r->m, 0, sizeof r->m);
  inner->deleter(inner);
}

static DLManagedTensorVersioned *wrap(DLManagedTensorVersioned *inner, int id) {
  int k = atomic_fetch_add(&n_exports, 1);
  if (k >= MAX_EXPORTS) { /* cannot happen with the plan above */
    CHECK(0, "more than %d exports", MAX_EXPORTS);
    inner->deleter(inner);
    return NULL;
  }
  export_record *r = &exports[k];
  r->m = *inner; /* shape and strides point into inner, alive until our deleter runs */
  r->m.manager_ctx = r;
  r->m.deleter = counting_deleter;
  r->inner = inner;
  r->id = id;
  atomic_fetch_add(&made[id], 1);
  return &r->m;
}

/* The host's buffers: released (freed) by their callback, on whichever thread drops the last
   reference. */
typedef struct {
  int32_t *data;
  atomic_int released;
} host_buffer;

static host_buffer host_buffers[NTENSORS];

static void host_release(void *ctx) {
  host_buffer *b = ctx;
  if (atomic_fetch_add(&b->released, 1) > 0) return; /* a second call: counted, no more */
  free(b->data);
  b->data = NULL;
}

/* }====== */

/* {====== the queues ====== */

typedef struct {
  DLManagedTensorVersioned *m; /* owning */
  int id, hop;                 /* hop: the arrival number, from 1 */
  intptr_t data;               /* where the elements were when the tensor was produced */
} message;

/* At most NTENSORS messages exist at once. */
typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  message items[NTENSORS];
  int head, count;
} queue;

static queue queues[NTHREADS];
static atomic_int aborted; /* a worker failed: the others stop waiting */

static void queue_send(int w, message msg) {
  queue *q = &queues[w];
  pthread_mutex_lock(&q->mu);
  q->items[(q->head + q->count++) % NTENSORS] = msg;
  pthread_cond_signal(&q->cv);
  pthread_mutex_unlock(&q->mu);
}

/* Waits for the next message of thread w; 0 when the run was aborted. */
static int queue_receive(int w, message *msg) {
  queue *q = &queues[w];
  pthread_mutex_lock(&q->mu);
  while (q->count == 0 && !atomic_load(&aborted)) pthread_cond_wait(&q->cv, &q->mu);
  int got = q->count > 0;
  if (got) {
    *msg = q->items[q->head];
    q->head = (q->head + 1) % NTENSORS;
    q->count--;
  }
  pthread_mutex_unlock(&q->mu);
  return got;
}

static void abort_all(void) {
  atomic_store(&aborted, 1);
  for (int w = 0; w < NTHREADS; w++) {
    pthread_mutex_lock(&queues[w].mu);
    pthread_cond_broadcast(&queues[w].cv);
    pthread_mutex_unlock(&queues[w].mu);
  }
}

/* }====== */

/* {====== the workers ====== */

static int msgh(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

/* Calls the global function fname with the tensor at index 1 and nint integers; LUA_OK, or
   reports the error. Leaves the stack as it found it. */
static int call_script(lua_State *L, int w, const char *fname, int nint, const lua_Integer *ints) {
  int top = lua_gettop(L);
  lua_pushcfunction(L, msgh);
  lua_getglobal(L, fname);
  lua_pushvalue(L, 1);
  for (int i = 0; i < nint; i++) lua_pushinteger(L, ints[i]);
  int rc = lua_pcall(L, 1 + nint, 0, top + 1);
  if (rc != LUA_OK) CHECK(0, "thread %d: %s: %s", w, fname, lua_tostring(L, -1));
  lua_settop(L, top);
  return rc;
}

/* Exports the tensor at index 1 of thread w's state, empties the stack, collects garbage (so
   the export alone holds the memory) and sends the tensor to the next thread. 0 on failure. */
static int pass_on(lua_State *L, int w, message msg) {
  DLManagedTensorVersioned *out;
  if (ltensor_export(L, 1, 0, &out) != LTENSOR_OK) {
    CHECK(0, "thread %d: export: %s", w, lua_tostring(L, -1));
    return 0;
  }
  lua_settop(L, 0);
  lua_gc(L, LUA_GCCOLLECT);
  CHECK((intptr_t)out->dl_tensor.data + (intptr_t)out->dl_tensor.byte_offset == msg.data,
        "thread %d: tensor %d moved in memory", w, msg.id);
  msg.m = wrap(out, msg.id);
  if (!msg.m) return 0;
  msg.hop++;
  queue_send(msg.hop % NTHREADS, msg);
  return 1;
}

/* Thread 0 makes the tensors and sends each on its way. */
static int produce(lua_State *L) {
  for (int id = 0; id < NTENSORS; id++) {
    if (host_made(id)) {
      host_buffer *b = &host_buffers[id];
      b->data = malloc(LEN * sizeof *b->data);
      if (!b->data) return 0;
      for (int i = 0; i < LEN; i++) b->data[i] = 10 * i;
      int64_t shape[1] = {LEN};
      DLTensor desc = {.data = b->data,
                       .device = {kDLCPU, 0},
                       .ndim = 1,
                       .dtype = {kDLInt, 32, 1},
                       .shape = shape};
      if (ltensor_push_borrowed(L, &desc, 0, host_release, b, NULL) != LTENSOR_OK) {
        CHECK(0, "push_borrowed: %s", lua_tostring(L, -1));
        return 0;
      }
    } else {
      lua_getglobal(L, "produce");
      lua_pushinteger(L, LEN);
      if (lua_pcall(L, 1, 1, 0) != LUA_OK || !ltensor_is_tensor(L, -1)) {
        CHECK(0, "produce: %s", lua_tostring(L, -1));
        return 0;
      }
    }
    DLTensor dl;
    if (ltensor_borrow(L, 1, &dl) != LTENSOR_OK) return 0;
    message msg = {NULL, id, 0, (intptr_t)dl.data + (intptr_t)dl.byte_offset};
    if (!pass_on(L, 0, msg)) return 0;
  }
  return 1;
}

/* The last consumer of msg's tensor (at index 1): checks it, drops it, and checks that the
   whole chain of exports was released then, and not before. */
static int finish(lua_State *L, int w, const message *msg) {
  lua_Integer args[3] = {total_added(msg->id), host_made(msg->id) ? 10 : 1, msg->data};
  if (call_script(L, w, "check", 3, args) != LUA_OK) return 0;
  int id = msg->id, n = atomic_load(&made[id]);
  CHECK(n == last_hop(id) && atomic_load(&deleted[id]) == 0,
        "tensor %d: %d exports, %d deleted before the last consumer dropped it", id, n,
        atomic_load(&deleted[id]));
  lua_settop(L, 0);
  lua_gc(L, LUA_GCCOLLECT); /* the tensor goes: every deleter of the chain runs, here */
  CHECK(atomic_load(&deleted[id]) == n, "tensor %d: %d deleter calls for %d exports", id,
        atomic_load(&deleted[id]), n);
  if (host_made(id)) {
    int released = atomic_load(&host_buffers[id].released);
    CHECK(released == 1, "tensor %d: host buffer released %d times", id, released);
  }
  return 1;
}

static void *worker(void *arg) {
  int w = (int)(intptr_t)arg, ok = 1;
  lua_State *L = luaL_newstate();
  if (!L) {
    CHECK(0, "thread %d: cannot make a Lua state", w);
    abort_all();
    return NULL;
  }
  luaL_openlibs(L);
  if (ltensor_open(L) != LTENSOR_OK || luaL_dofile(L, LTENSOR_RING_SCRIPT) != LUA_OK) {
    CHECK(0, "thread %d: %s", w, lua_tostring(L, -1));
    ok = 0;
  }
  lua_settop(L, 0); /* the tensors of a hop sit at index 1 */
  if (ok && w == 0) ok = produce(L);
  for (int n = arrivals(w); ok && n > 0; n--) {
    message msg;
    if (!queue_receive(w, &msg)) break;
    if (ltensor_push_managed(L, msg.m) != LTENSOR_OK) { /* its deleter has run */
      CHECK(0, "thread %d: push_managed: %s", w, lua_tostring(L, -1));
      ok = 0;
    } else if (msg.hop == last_hop(msg.id)) {
      ok = finish(L, w, &msg);
    } else {
      lua_Integer args[2] = {addend(w), msg.data};
      ok = call_script(L, w, "step", 2, args) == LUA_OK && pass_on(L, w, msg);
    }
  }
  if (!ok) abort_all();
  lua_close(L);
  return NULL;
}

/* }====== */

int main(void) {
  pthread_t threads[NTHREADS];
  for (int w = 0; w < NTHREADS; w++) {
    pthread_mutex_init(&queues[w].mu, NULL);
    pthread_cond_init(&queues[w].cv, NULL);
  }
  int started = 0;
  for (; started < NTHREADS; started++)
    if (pthread_create(&threads[started], NULL, worker, (void *)(intptr_t)started) != 0) {
      CHECK(0, "cannot start thread %d", started);
      abort_all();
      break;
    }
  for (int w = 0; w < started; w++) pthread_join(threads[w], NULL);

  /* after a failure, tensors may be left in the queues: their owner is now this thread */
  for (int w = 0; w < NTHREADS; w++) {
    message msg;
    while (queues[w].count > 0 && queue_receive(w, &msg)) msg.m->deleter(msg.m);
    pthread_cond_destroy(&queues[w].cv);
    pthread_mutex_destroy(&queues[w].mu);
  }

  int total = 0;
  for (int id = 0; id < NTENSORS; id++) total += last_hop(id);
  CHECK(atomic_load(&n_exports) == total, "%d exports, want %d", atomic_load(&n_exports), total);
  for (int k = 0; k < atomic_load(&n_exports) && k < MAX_EXPORTS; k++)
    CHECK(atomic_load(&exports[k].deleted) == 1, "export %d (tensor %d): deleter ran %d times", k,
          exports[k].id, atomic_load(&exports[k].deleted));
  for (int id = 0; id < NTENSORS; id++)
    if (host_made(id))
      CHECK(atomic_load(&host_buffers[id].released) == 1, "host buffer %d released %d times", id,
            atomic_load(&host_buffers[id].released));

  int failed = atomic_load(&n_failed);
  if (failed) {
    fprintf(stderr, "threads: %d checks failed\n", failed);
    return 1;
  }
  printf(
      "threads: %d tensors went %d rounds around %d threads: %d hand-offs, no copy, every "
      "deleter ran once\n",
      NTENSORS, NROUNDS, NTHREADS, total);
  return 0;
}
