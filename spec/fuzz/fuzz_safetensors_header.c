/*
 * fuzz_safetensors_header.c -- libFuzzer target: the .safetensors header parser on a memory
 * buffer.
 *
 * The input is the whole file: an 8-byte little-endian header size, the JSON header, the data.
 * Where the size fits the input, lt_safetensors_parse runs on the header, strict unless the
 * input's length is odd (then a tensor of an unknown dtype is left out, with a reason); where it
 * succeeds the target checks what the parser promises: one entry per name, sorted by offset,
 * each holding exactly its elements' bytes (sub-byte ones packed; a skipped one any bytes, and
 * only in a lenient parse), together covering the data with no hole or overlap, no NUL in a name
 * or metadata string. abort() on any mismatch; leaks are libFuzzer's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 8) return 0;
  uint64_t hlen = 0;
  for (int i = 7; i >= 0; i--) hlen = hlen << 8 | data[i];
  if (hlen > size - 8) hlen = size - 8; /* still fuzz the JSON of a lying size */
  uint8_t *head = malloc(hlen ? (size_t)hlen : 1);
  if (!head) return 0;
  memcpy(head, data + 8, (size_t)hlen);
  uint64_t data_len = size - 8 - hlen;
  lt_file_set set;
  memset(&set, 0, sizeof set);
  lt_st_entry *e = NULL;
  lt_error err;
  int strict = size % 2 == 0;
  if (lt_safetensors_parse(head, (size_t)hlen, data_len, strict, &set, &e, &err) == LT_OK) {
    uint64_t at = 0;
    for (int i = 0; i < set.n; i++) {
      int64_t numel = 1;
      for (int d = 0; d < e[i].ndim; d++) numel *= e[i].shape[d];
      if (e[i].skip != (set.why[i] != NULL) || (e[i].skip && strict)) abort();
      if (e[i].begin != at || e[i].end < e[i].begin) abort();
      if (!e[i].skip && e[i].end - e[i].begin != lt_file_nbytes(e[i].dl, (uint64_t)numel)) abort();
      at = e[i].end;
      if (!set.names[i]) abort();
    }
    if (at != data_len) abort();
    if (set.nmeta && !set.has_meta) abort();
    free(e);
  }
  lt_file_set_free(&set);
  free(head);
  return 0;
}
