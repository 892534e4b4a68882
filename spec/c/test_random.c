/*
 * test_random.c -- Philox4x32-10 of the core (src/core/ops/lt_random.c): Random123's published
 * known answers for the one-block function, and both chunk kernels (the AVX2 one where the CPU
 * has it, and the portable one) against it, over counters that carry into the high word; then
 * the reservation of blocks from one generator by several threads, which must never overlap.
 */
#include <pthread.h>
#include <stdlib.h>

#include "lt_random.h"
#include "test_util.h"

static void test_known_answers(void) {
  static const struct {
    uint32_t ctr[4], key[2], out[4];
  } kat[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
    uint32_t out[4];
    lt_philox4x32(kat[k].ctr, kat[k].key, out);
    CHECKF(memcmp(out, kat[k].out, sizeof out) == 0, "known answer %d: %08x %08x %08x %08x", (int)k,
           out[0], out[1], out[2], out[3]);
  }
}

static void test_chunks(void) {
  static const uint64_t starts[] = {0, 1, 0xFFFFFFF0u, UINT64_C(0x123456789abcdef0),
                                    UINT64_MAX - 30};
  static const uint32_t keys[][2] = {{0, 0}, {0xdeadbeef, 0x01234567}, {0xffffffff, 0xffffffff}};
  uint32_t w[4 * LT_PHILOX_CHUNK];
  for (int portable = 0; portable <= 1; portable++)
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++)
      for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        tu_set_context("portable %d, start %zu, key %zu", portable, s, k);
        lt_philox_chunk(keys[k][0], keys[k][1], starts[s], w, portable);
        int bad = 0;
        for (int i = 0; i < LT_PHILOX_CHUNK; i++) {
          uint64_t b = starts[s] + (uint64_t)i;
          uint32_t ctr[4] = {(uint32_t)b, (uint32_t)(b >> 32), 0, 0}, out[4];
          lt_philox4x32(ctr, keys[k], out);
          bad += memcmp(out, w + 4 * i, sizeof out) != 0;
        }
        CHECKF(bad == 0, "%d blocks differ", bad);
      }
  tu_set_context("%s", "");
}

#define NTHREADS 4
#define TAKES 20000
static lt_generator shared;
static uint64_t taken[NTHREADS][TAKES];

static void *taker(void *arg) {
  uint64_t *mine = arg, seed;
  for (int i = 0; i < TAKES; i++) mine[i] = lt_generator_reserve(&shared, 3, &seed);
  return NULL;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void test_reserve_threads(void) {
  lt_generator_init(&shared, 5);
  pthread_t th[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) CHECK(pthread_create(&th[i], NULL, taker, taken[i]) == 0);
  for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
  qsort(taken, NTHREADS * TAKES, sizeof(uint64_t), cmp_u64);
  const uint64_t *all = &taken[0][0];
  int overlap = 0;
  for (int i = 0; i < NTHREADS * TAKES; i++) overlap += all[i] != (uint64_t)i * 3;
  CHECKF(overlap == 0, "%d reservations overlap or leave gaps", overlap);
  uint64_t seed, offset;
  lt_generator_get(&shared, &seed, &offset);
  CHECK(seed == 5 && offset == (uint64_t)NTHREADS * TAKES * 3);
}

int main(void) {
  test_known_answers();
  test_chunks();
  test_reserve_threads();
  return tu_finish("test_random");
}
