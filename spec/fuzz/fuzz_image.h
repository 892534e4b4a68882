/*
 * fuzz_image.h -- what the two image fuzz targets share (fuzz_png.c, fuzz_jpeg.c): any bytes,
 * given the format's signature when they lack it, decoded through lt_image_decode in the mode
 * the input's length picks, under a memory budget of 256 MiB (declared sizes past it must be
 * refused, not allocated). Where a decode succeeds the result must be an H x W x C tensor of
 * uint8 or uint16 with C 1 to 4, and a small one must survive a PNG round trip exactly.
 * abort() on any broken promise; AddressSanitizer and libFuzzer report the rest.
 */
#ifndef FUZZ_IMAGE_H
#define FUZZ_IMAGE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_account.h"
#include "lt_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_image_check(const lt_tensor *t) {
  if (t->ndim != 3 || t->shape[2] < 1 || t->shape[2] > 4 || t->shape[0] < 1 || t->shape[1] < 1)
    abort();
  if (t->dtype != LT_UINT8 && t->dtype != LT_UINT16) abort();
  if (lt_numel(t) > (1 << 16)) return;
  lt_image_bytes b;
  lt_error err;
  if (lt_image_encode("fuzz", t, LT_IMG_PNG, NULL, &b, &err) != LT_OK) abort();
  lt_tensor *back = NULL;
  if (lt_image_decode("fuzz", b.data, b.len, LT_IMG_UNCHANGED, &back, &err) != LT_OK) abort();
  if (back->dtype != t->dtype || lt_numel(back) != lt_numel(t) ||
      memcmp(lt_data(back), lt_data(t), (size_t)lt_numel(t) * lt_esize(t)) != 0)
    abort();
  lt_tensor_free(back);
  lt_image_bytes_free(&b);
}

/* Decodes data, with sig put first when it does not start with it. */
static int fuzz_image_run(const uint8_t *data, size_t size, const uint8_t *sig, size_t nsig) {
  static lt_account *budget;
  if (!budget) {
    budget = lt_account_new(NULL, NULL);
    if (!budget) abort();
    lt_account_set_limit(budget, (int64_t)256 << 20);
    lt_account_use(budget);
  }
  int has = size >= nsig && memcmp(data, sig, nsig) == 0;
  size_t n = has ? size : size + nsig;
  /* a copy of exactly n bytes: reading past it is a heap overflow */
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) return 0;
  if (!has) memcpy(buf, sig, nsig);
  memcpy(buf + (has ? 0 : nsig), data, size);
  lt_tensor *t = NULL;
  lt_error err;
  if (lt_image_decode("fuzz", buf, n, (lt_image_mode)(size % 4), &t, &err) == LT_OK) {
    fuzz_image_check(t);
    lt_tensor_free(t);
  }
  free(buf);
  if (lt_account_used(budget) != 0) abort(); /* everything charged was given back */
  return 0;
}

#endif
