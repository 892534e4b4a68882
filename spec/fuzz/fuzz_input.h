/*
 * fuzz_input.h -- reading a fuzzer's input as a stream of small decisions.
 *
 * Every read succeeds: past the end of the input it gives zeros, so any byte string is a
 * complete program and the fuzzer's mutations keep their meaning where they land.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  const uint8_t *p;
  size_t n, i;
} fz_in;

static inline int fz_more(const fz_in *in) { return in->i < in->n; }

static inline uint8_t fz_u8(fz_in *in) { return in->i < in->n ? in->p[in->i++] : 0; }

/* k bytes, little-endian. */
static inline uint64_t fz_le(fz_in *in, int k) {
  uint64_t v = 0;
  for (int j = 0; j < k; j++) v |= (uint64_t)fz_u8(in) << (8 * j);
  return v;
}

static inline uint16_t fz_u16(fz_in *in) { return (uint16_t)fz_le(in, 2); }
static inline uint32_t fz_u32(fz_in *in) { return (uint32_t)fz_le(in, 4); }
static inline uint64_t fz_u64(fz_in *in) { return fz_le(in, 8); }
/* Two's complement reinterpretations, without implementation-defined conversions. */
static inline int32_t fz_i32(fz_in *in) {
  uint32_t u = fz_u32(in);
  return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}
static inline int64_t fz_i64(fz_in *in) {
  uint64_t u = fz_u64(in);
  return u <= INT64_MAX ? (int64_t)u : (int64_t)(u - 0x8000000000000000u) + INT64_MIN;
}

#endif
