/*
 * fuzz_jpeg.c -- libFuzzer target: lt_image_decode on JPEG bytes (libjpeg-turbo under ltensor's
 * error handling, limits and budget). The input is the file, with the SOI marker put first when
 * it lacks it; its length modulo 4 picks the mode (unchanged, gray, rgb, rgba). See
 * fuzz_image.h.
 */
#include "fuzz_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint8_t sig[3] = {0xff, 0xd8, 0xff};
  return fuzz_image_run(data, size, sig, sizeof sig);
}
