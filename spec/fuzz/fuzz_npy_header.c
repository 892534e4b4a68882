/*
 * fuzz_npy_header.c -- libFuzzer target: the .npy header parser and loader on a memory buffer.
 *
 * The input is the whole file. lt_npy_parse runs on it; where it succeeds the target checks that
 * the data it claims lies inside the input, loads the tensor from memory (lt_npy_from_memory),
 * reads every element through a copy, and saves the tensor's header again (lt_npy_prepare),
 * which must parse back to the same dtype, shape and element count. abort() on any mismatch;
 * AddressSanitizer reports reads outside the input, libFuzzer leaks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly size bytes: reading past it is a heap overflow */
  uint8_t *buf = malloc(size ? size : 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  lt_npy_info h;
  lt_error err;
  if (lt_npy_parse(buf, size, size, &h, &err) == LT_OK) {
    if (h.data_off > size || h.nbytes > size - h.data_off) abort();
    lt_tensor *t = NULL;
    if (lt_npy_from_memory("fuzz.npy", buf, size, &t, &err) != LT_OK) abort();
    if (lt_numel(t) != h.numel || t->ndim != h.ndim) abort();
    lt_tensor *c = NULL;
    if (lt_clone(t, &c, &err) == LT_OK) lt_tensor_free(c);
    lt_npy_out o;
    if (lt_npy_prepare("fuzz.npy", t, &o, &err) == LT_OK) {
      lt_npy_info back;
      uint64_t total = o.header_len + o.nbytes;
      if (lt_npy_parse(o.header, o.header_len, total, &back, &err) != LT_OK) abort();
      if (back.dtype != h.dtype || back.ndim != h.ndim || back.numel != h.numel || back.swap)
        abort();
      for (int i = 0; i < h.ndim; i++)
        if (back.shape[i] != h.shape[i]) abort();
      lt_npy_out_free(&o);
    }
    lt_tensor_free(t);
  }
  free(buf);
  return 0;
}
