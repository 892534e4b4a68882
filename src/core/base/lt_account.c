/*
 * lt_account.c -- charges, refunds, budgets and the collector's trigger (see lt_account.h).
 */
#include "lt_account.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct lt_account {
  atomic_llong used, peak;
  atomic_long refs; /* the owner's, one per charged block, one per thread using it */
  atomic_int closed;
  int64_t limit; /* the owner's: read and written on the threads that run it */
  int64_t base;  /* the used bytes after the last collection, or fewer seen since */
  int64_t slack; /* pressure once used passes base + slack */
  lt_pressure_fn pressure;
  void *ctx;
};

/* {====== the calling thread's account ====== */

LT_TLS lt_account *lt_account_cur_;
LT_TLS int lt_account_fresh_;          /* the next charge may ask for pressure */
static LT_TLS int collecting;          /* pressure functions running (nested: finalizers) */
static LT_TLS int64_t refused_at = -1; /* the limit that refused the last charge */

/* The thread's reference to its current account is also the value of a thread-specific key,
   whose destructor drops it when the thread exits. */
static pthread_key_t current_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void account_release(lt_account *a) {
  if (a && atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) == 1) free(a);
}

static void drop_at_exit(void *a) { account_release(a); }
static void make_key(void) { (void)pthread_key_create(&current_key, drop_at_exit); }

void lt_account_switch(lt_account *a) {
  if (a) atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
  lt_account *old = lt_account_cur_;
  lt_account_cur_ = a;
  (void)pthread_once(&key_once, make_key);
  (void)pthread_setspecific(current_key, a);
  account_release(old);
}

lt_account *lt_account_detach(void) {
  lt_account *a = lt_account_cur_;
  lt_account_cur_ = NULL;
  if (a) (void)pthread_setspecific(current_key, NULL);
  return a;
}

void lt_account_attach(lt_account *a) {
  lt_account_switch(a);
  account_release(a); /* the reference detach handed out, now the thread's again */
}

int lt_account_collecting(void) { return collecting; }

int64_t lt_account_refusal(void) { return refused_at; }

/* }====== */

/* {====== accounts ====== */

lt_account *lt_account_new(lt_pressure_fn pressure, void *ctx) {
  lt_account *a = malloc(sizeof *a);
  if (!a) return NULL;
  atomic_init(&a->used, 0);
  atomic_init(&a->peak, 0);
  atomic_init(&a->refs, 1);
  atomic_init(&a->closed, 0);
  a->limit = LT_NO_LIMIT;
  a->base = 0;
  a->slack = 0;
  a->pressure = pressure;
  a->ctx = ctx;
  return a;
}

void lt_account_close(lt_account *a) {
  if (!a) return;
  atomic_store_explicit(&a->closed, 1, memory_order_release);
  if (lt_account_cur_ == a) lt_account_use(NULL);
  account_release(a);
}

int64_t lt_account_used(const lt_account *a) {
  return atomic_load_explicit(&a->used, memory_order_relaxed);
}

int64_t lt_account_peak(const lt_account *a) {
  return atomic_load_explicit(&a->peak, memory_order_relaxed);
}

int64_t lt_account_limit(const lt_account *a) { return a->limit; }

void lt_account_set_limit(lt_account *a, int64_t limit) { a->limit = limit < 0 ? 0 : limit; }

void lt_account_rebase(lt_account *a, int64_t slack) {
  a->base = lt_account_used(a);
  a->slack = slack < 0 ? 0 : slack;
}

/* }====== */

/* {====== charges ====== */

/* Charges larger than this are not counted: no allocation of that size can succeed, and
   counting it could overflow the sums. */
#define LT_CHARGE_MAX (INT64_MAX / 4)

/* Whether used + n passes the trigger or the limit (base, slack and used stay below
   LT_CHARGE_MAX * 2 in any real process, so the sums do not overflow). */
static int pressed(lt_account *a, int64_t used, int64_t n) {
  if (used < a->base) a->base = used; /* memory came back since: the trigger follows it down */
  return used + n > a->base + a->slack || used + n > a->limit;
}

lt_account *lt_account_charge(size_t nbytes, int *refused) {
  *refused = 0;
  refused_at = -1;
  lt_account *a = lt_account_cur_;
  if (!a || nbytes > (size_t)LT_CHARGE_MAX) return NULL;
  int64_t n = (int64_t)nbytes;
  if (lt_account_fresh_ && a->pressure && !atomic_load_explicit(&a->closed, memory_order_acquire) &&
      pressed(a, lt_account_used(a), n)) {
    atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed); /* whatever the finalizers do */
    collecting++;
    lt_account_fresh_ = 0;
    a->pressure(a, nbytes, a->ctx);
    collecting--;
    if (lt_account_cur_ != a) lt_account_use(a); /* a finalizer ran code of another state */
    /* once per use, even if a finalizer's calls made it fresh again: a second collection inside
       one call would free little, and the caller may hold what the first one's finalizers let
       go of */
    lt_account_fresh_ = 0;
    account_release(a);
  }
  long long after = atomic_fetch_add_explicit(&a->used, n, memory_order_relaxed) + n;
  if (after > a->limit) {
    atomic_fetch_sub_explicit(&a->used, n, memory_order_relaxed);
    refused_at = a->limit;
    *refused = 1;
    return NULL;
  }
  long long peak = atomic_load_explicit(&a->peak, memory_order_relaxed);
  while (after > peak && !atomic_compare_exchange_weak_explicit(
                             &a->peak, &peak, after, memory_order_relaxed, memory_order_relaxed)) {
  }
  atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
  return a;
}

void lt_account_refund(lt_account *a, size_t nbytes) {
  if (!a) return;
  atomic_fetch_sub_explicit(&a->used, (int64_t)nbytes, memory_order_relaxed);
  account_release(a);
}

/* }====== */
