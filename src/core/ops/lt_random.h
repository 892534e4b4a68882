/*
 * lt_random.h -- random numbers: the Philox4x32-10 generator, its state, and the fills that
 * turn its stream into uniform, normal, integer and Bernoulli elements, permutations and
 * multinomial samples. Lua-free.
 *
 * The stream. Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
 * SC 2011): multipliers 0xD2511F53 and 0xCD9E8D57, Weyl key increments 0x9E3779B9 and
 * 0xBB67AE85, 10 rounds. A generator is a 64-bit seed and a 64-bit offset, a count of 128-bit
 * blocks used. Block b is Philox of the counter (b low 32 bits, b high 32 bits, 0, 0) under the
 * key (seed low 32 bits, seed high 32 bits): four 32-bit words. The words of a fill that starts
 * at offset o are numbered j = 0, 1, ...: word j is word j % 4 of block o + j / 4. A fill of n
 * elements that takes w words per element uses words w k .. w k + w - 1 for element k (in the
 * row-major order of the tensor's shape, whatever its strides), and advances the offset by
 * ceil(w n / 4) blocks, so the next fill starts on a fresh block. Every element depends only on
 * (seed, o, k): the fill is split across the worker pool with the same result at every thread
 * count.
 *
 * The transforms (u32: one word; x64(a, b) = a << 32 | b, the 64-bit draw of two words;
 * u53(a, b) = x64(a, b) >> 11 = a << 21 ^ b >> 11, the top 53 of those bits):
 *   uniform float32 (w = 1): u = (u32 >> 8) * 2^-24 in [0, 1); the element is a + (b - a) u
 *     computed in float32 (exactly u for [0, 1)). float16 and bfloat16 draw this float32 and
 *     round it.
 *   uniform float64 (w = 2): u = u53(word 2k, word 2k + 1) * 2^-53; a + (b - a) u in double.
 *   normal float32 (w = 1): Box-Muller on the pair of words 2m, 2m + 1 (m = k / 2):
 *     u1 = 1 - (word 2m >> 8) * 2^-24 in (0, 1] (never log(0)), u2 = (word 2m + 1 >> 8) * 2^-24,
 *     r = sqrt(-2 log u1), z = r cos(2 pi u2) for even k, r sin(2 pi u2) for odd k; the element
 *     is mean + std z. Computed in float32 with lt_vmath's log, sin and cos (their lt_vmath_nc.c
 * form, without FMA contraction: the same bits on every vector path) and sqrtf (measured within
 *     1.6e-6 of the same formula in double over 2^20 draws: the angle rounds in float32).
 *   normal float64 (w = 2): the same on block-sized pairs: u1 = 1 - u53(word 4m, 4m + 1) 2^-53,
 *     u2 = u53(word 4m + 2, 4m + 3) 2^-53, in double with libm.
 *   integers in [low, low + range) (w = 2): x = word 2k << 32 | word 2k + 1 (64 bits); the
 *     element is low + floor(x range / 2^64) (Lemire's multiply, without the rejection step, so
 *     the element-to-counter mapping stays fixed: the bias is below range / 2^64, under 2^-32
 *     for ranges below 2^32). Written as int64, then converted to the tensor's dtype.
 *   bernoulli (w = 1): 1 when u32 * 2^-32 < p (p = 0 never, p = 1 always).
 *   permutation of 1..n: Fisher-Yates from the end: for i = n - 1 down to 1 (0-based), draw
 *     d = n - 1 - i is the 64-bit x of words 2d, 2d + 1, j = floor(x (i + 1) / 2^64), swap
 *     positions i and j. Advances the offset as a w = 2 fill of n elements.
 *   multinomial: probabilities in float64, rows of C categories, draws numbered row-major, each
 *     a float64 uniform u (w = 2). With replacement, sample s of row r is draw r n + s: the
 *     first category whose running sum exceeds u * (row sum). Without, category c of row r is
 *     draw r C + c: key log(1 - u) / p (Efraimidis-Spirakis; p = 0 never chosen), the n
 *     largest keys in decreasing order (ties: the lower category first).
 *
 * Generator state is guarded by a spin lock: a fill reserves its blocks (reads the seed and
 * moves the offset) in one step, so two threads never get the same blocks.
 *
 * Calls lt_tensor.c, lt_copy.c, lt_iter.c, lt_pool.c, lt_vmath.c. Called by the binding
 * (lua_random.c) and spec/c/test_random.c.
 */
#ifndef LT_RANDOM_H
#define LT_RANDOM_H

#include <stdatomic.h>
#include <stdint.h>

#include "lt_tensor.h"

/* torch's default seed: a fresh process draws the same numbers every run. */
#define LT_DEFAULT_SEED UINT64_C(67280421310721)

typedef struct {
  atomic_flag lock; /* guards seed and offset */
  uint64_t seed, offset;
} lt_generator;

/* Sets g to (seed, offset 0), lock included: for a new generator. */
void lt_generator_init(lt_generator *g, uint64_t seed);
/* The process's generator (the one every call without a generator of its own uses). */
lt_generator *lt_default_generator(void);
/* Seed and offset 0 (as torch's manual_seed). */
void lt_generator_seed(lt_generator *g, uint64_t seed);
/* Reads or sets both halves of the state at once. */
void lt_generator_get(lt_generator *g, uint64_t *seed, uint64_t *offset);
void lt_generator_set(lt_generator *g, uint64_t seed, uint64_t offset);
/* Takes nblocks blocks: returns the offset they start at and the seed, and moves the offset. */
uint64_t lt_generator_reserve(lt_generator *g, uint64_t nblocks, uint64_t *seed);

/* One Philox4x32-10 block: out = Philox(ctr, key). */
void lt_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
/* The blocks ctr .. ctr + LT_PHILOX_CHUNK - 1 of the key (ka, kb) into w (4 LT_PHILOX_CHUNK
   words, stream order), by the vectorized kernel the fills use (AVX-512 or AVX2 intrinsics as
   lt_cpu_level() says, else the portable loop), or the portable one when `portable` is
   nonzero: spec/c/test_random.c checks both against lt_philox4x32. */
#define LT_PHILOX_CHUNK 64
void lt_philox_chunk(uint32_t ka, uint32_t kb, uint64_t ctr, uint32_t *w, int portable);

typedef enum { LT_RAND_UNIFORM, LT_RAND_NORMAL, LT_RAND_INT, LT_RAND_BERNOULLI } lt_rand_kind;

typedef struct {
  lt_rand_kind kind;
  double a, b;     /* uniform [a, b); normal mean a, std b; bernoulli probability a */
  int64_t low;     /* integers: low + [0, range) */
  uint64_t range;  /* at least 1 */
  const double *p; /* bernoulli: per-element probabilities (row-major, numel of t) or NULL */
  /* normal: per-element means and standard deviations (row-major, numel of t), or NULL for a
     and b; the element is then mean[k] + std[k] z, z the standard normal of the stream */
  const double *mean, *std;
} lt_rand_dist;

/* The integers a dtype holds exactly, as int64: [*lo, *hi] (uint64 capped at 2^63 - 1; floats
   +-2^digits; bool 0, 1). LT_EARG for complex dtypes. */
int lt_random_int_bounds(lt_dtype dt, int64_t *lo, int64_t *hi, lt_error *err);

/* Fills t (writable, any layout without repeated elements) with draws of d from g. Uniform and
   normal need a floating t, integers and Bernoulli any real dtype (integers must fit it: the
   caller checks with lt_random_int_bounds). LT_EARG for a probability outside [0, 1] or a
   negative standard deviation. */
int lt_random_fill(lt_tensor *t, const lt_rand_dist *d, lt_generator *g, lt_error *err);

/* A new int64 tensor holding a permutation of 1..n (n >= 0). */
int lt_randperm(int64_t n, lt_generator *g, lt_tensor **out, lt_error *err);

/* n samples (1-based category positions, int64) of each row of probs (1-d: one row, result
   {n}; 2-d: result {rows, n}). probs: floating, finite, non-negative, each row with a positive
   sum; n >= 1, and without replacement at most the row's nonzero count. */
int lt_multinomial(const lt_tensor *probs, int64_t n, int replacement, lt_generator *g,
                   lt_tensor **out, lt_error *err);

#endif
