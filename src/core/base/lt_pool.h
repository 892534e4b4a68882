/*
 * lt_pool.h -- the worker pool that bulk operations split their work across, and the one
 * process-wide thread count.
 *
 * Owns: the workers (pthreads, started lazily by the first job that has more than one piece,
 * parked on a condition variable between jobs), the count (lt_pool_set_threads; default: the
 * cores the process may use, or LTENSOR_NUM_THREADS), and the rule for cutting work into pieces
 * (lt_pool_grain). A job is a range [0, n) of items cut into pieces of `grain` items; the piece
 * boundaries depend only on n and the grain, never on the thread count, so a caller that keeps
 * one partial result per piece and combines them in piece order gets the same result at every
 * thread count. One job runs at a time: a second caller (another thread, another Lua state), a
 * piece that starts a job of its own, or a count of 1 runs its pieces on its own thread, in
 * order. After fork the child has no workers; its first job starts them again. Lua-free.
 *
 * Calls nothing of ltensor. Called by lt_iter.c (lt_iter_run_par), lt_copy.c, lt_reduce.c and,
 * for the count, the binding (lt.set_num_threads, ltensor_set_num_threads).
 */
#ifndef LT_POOL_H
#define LT_POOL_H

#include <stdint.h>

/* Work of fewer bytes (read plus written) runs on the caller's thread, in one piece: below it
   waking a worker costs more than the work (bench/math.c measures the crossover). */
#ifndef LT_PAR_MIN_BYTES
#define LT_PAR_MIN_BYTES ((int64_t)64 << 10)
#endif
/* Larger work is cut into at most LT_PAR_PIECES pieces of at least LT_PAR_PIECE_BYTES. */
#ifndef LT_PAR_PIECE_BYTES
#define LT_PAR_PIECE_BYTES ((int64_t)32 << 10)
#endif
#ifndef LT_PAR_PIECES
#define LT_PAR_PIECES 128
#endif
/* The largest thread count (caller included). */
#define LT_POOL_MAX_THREADS 256

/* One piece: items [lo, hi). Nonzero marks the piece failed. */
typedef int (*lt_pool_fn)(void *ctx, int64_t lo, int64_t hi);

/* The items per piece for n items of about item_bytes bytes each: n (one piece) when the whole
   is under LT_PAR_MIN_BYTES. Depends on n and item_bytes only. */
int64_t lt_pool_grain(int64_t n, double item_bytes);

/* Runs fn over [0, n) in pieces [k * grain, min(n, (k + 1) * grain)), spread over the workers
   and the caller, and returns when every piece is done: -1, or the index of the first piece
   that failed (every piece before it ran; later ones may or may not have). fn must not write
   state the pieces share other than their own outputs. */
int64_t lt_pool_run(int64_t n, int64_t grain, lt_pool_fn fn, void *ctx);

/* The thread count jobs use (the caller counts as one). */
int lt_pool_threads(void);
/* Sets it (capped at LT_POOL_MAX_THREADS); -1 when n < 1, else 0. Workers beyond a lowered
   count stay parked. */
int lt_pool_set_threads(int n);
/* Threads the pool has started (0 before the first job with more than one piece). */
int lt_pool_started(void);
/* How long, in ns, a worker that leaves a job watches for the next before it sleeps, and a
   caller watches its workers leave before it waits (lt_pool.c says why): LTENSOR_SPIN_US
   microseconds (0: never; at most 1 s; read once), else 200 us; 0 where there is no monotonic
   clock to bound it (Windows). */
long lt_pool_spin_ns(void);

#endif
