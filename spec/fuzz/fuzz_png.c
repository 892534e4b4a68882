/*
 * fuzz_png.c -- libFuzzer target: lt_image_decode on PNG bytes (libpng under ltensor's error
 * handling, limits and budget). The input is the file, with the PNG signature put first when it
 * lacks it; its length modulo 4 picks the mode (unchanged, gray, rgb, rgba). See fuzz_image.h.
 */
#include "fuzz_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  return fuzz_image_run(data, size, sig, sizeof sig);
}
