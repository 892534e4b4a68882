/*
 * lt_account.h -- who pays for tensor memory: the one place every byte of tensor data is
 * charged, refused when it would pass a budget, and refunded when it goes.
 *
 * An account belongs to an owner (the Lua binding makes one per lua_State). Each thread has a
 * current account (lt_account_use): every block the storage layer allocates, wraps (an import,
 * a file mapping, a host's buffer) or copies for a copy-on-write writer on that thread is
 * charged to it before the memory is taken, and refunded to the same account when the block is
 * released, on whatever thread and however late (an export outliving its Lua state included).
 * No current account (a worker of the pool, a program using the core alone): nothing is
 * charged.
 *
 * Before a charge passes the account's trigger or its limit, the owner's pressure function runs
 * once (per lt_account_use) on the charging thread: the binding runs a full collection there,
 * so that dead tensors give their memory back before new memory is taken (the Lua collector
 * cannot see memory outside its heap; see docs/MEMORY.md). While it runs, copy-on-write
 * unsharing is refused and revocations keep their block until the handle goes
 * (lt_account_collecting), because the caller of the charge may be reading those blocks.
 *
 * Counts are atomic; limit and trigger are the owner's, read and written on the threads that
 * run it. Lua-free. Calls nothing else of the core. Called by lt_storage.c (charge, refund),
 * lt_tensor.c (the refusal's message) and the binding (accounts, limits, use).
 */
#ifndef LT_ACCOUNT_H
#define LT_ACCOUNT_H

#include <stddef.h>
#include <stdint.h>

typedef struct lt_account lt_account;

/* Asked before a charge of `need` bytes passes a's trigger or limit; may free memory (refunds
   reach a at once). ctx is what lt_account_new was given. */
typedef void (*lt_pressure_fn)(lt_account *a, size_t need, void *ctx);

/* No limit. */
#define LT_NO_LIMIT INT64_MAX

/* A new account with no limit, charged nothing, whose owner holds the one reference; NULL when
   out of memory. */
lt_account *lt_account_new(lt_pressure_fn pressure, void *ctx);
/* The owner goes: no more pressure calls, the calling thread stops charging a, and the owner's
   reference is dropped (blocks still charged keep a until they are refunded). NULL: nothing. */
void lt_account_close(lt_account *a);

/* Thread-local variables read on every call of the binding: in a shared object, the
   initial-exec model reads them with one instruction instead of a call (the few bytes come from
   the static TLS that the C library keeps for modules loaded later). */
#if defined(__GNUC__) && defined(__ELF__)
#define LT_TLS _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define LT_TLS _Thread_local
#endif

/* The calling thread's current account, and whether its next charge may ask for pressure:
   lt_account_use's, read through it and lt_account_current. */
extern LT_TLS lt_account *lt_account_cur_;
extern LT_TLS int lt_account_fresh_;
void lt_account_switch(lt_account *a);

/* Makes a the calling thread's current account (NULL: none), and lets its next charge ask for
   pressure again. The thread holds a reference to it until another one is made current. */
static inline void lt_account_use(lt_account *a) {
  lt_account_fresh_ = 1;
  if (a != lt_account_cur_) lt_account_switch(a);
}
/* The calling thread's current account, or NULL. */
static inline lt_account *lt_account_current(void) { return lt_account_cur_; }
/* For allocations nobody's account should pay (memory handed to a foreign consumer): the
   thread's current account, taken away with the thread's reference to it, which
   lt_account_attach gives back. */
lt_account *lt_account_detach(void);
void lt_account_attach(lt_account *a);

/* Bytes charged to a and not yet refunded (tensor data alive, or dead but not yet collected). */
int64_t lt_account_used(const lt_account *a);
/* The most bytes ever charged at once. */
int64_t lt_account_peak(const lt_account *a);
int64_t lt_account_limit(const lt_account *a);
/* Charges that would take the used bytes past limit are refused (LT_NO_LIMIT: none). */
void lt_account_set_limit(lt_account *a, int64_t limit);
/* After a collection: the used bytes are the new base, and pressure is asked again once the
   used bytes pass base + slack. */
void lt_account_rebase(lt_account *a, int64_t slack);

/* Whether the pressure function is running on this thread (see above). */
int lt_account_collecting(void);

/* {====== for the storage layer ====== */

/* Charges nbytes to the calling thread's current account before they are allocated. Returns
   the account, with a reference for the charge (NULL when the thread has none: nothing was
   charged). On refusal returns NULL and sets *refused; lt_account_refusal then says why. */
lt_account *lt_account_charge(size_t nbytes, int *refused);
/* Gives back a charge of nbytes to a (from lt_account_charge) and drops its reference. NULL:
   nothing. Any thread. */
void lt_account_refund(lt_account *a, size_t nbytes);
/* The limit that refused the calling thread's last charge, or -1 when it was not refused. */
int64_t lt_account_refusal(void);

/* }====== */

#endif
