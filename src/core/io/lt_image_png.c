/*
 * lt_image_png.c -- PNG through libpng (see lt_image.h): decoding into the rows of the result
 * tensor with libpng's transformations doing the modes (palette and low bit depths expanded,
 * tRNS to alpha, gray to rgb, rgb to gray, alpha added or stripped, 16-bit samples swapped to
 * the machine's order), and encoding from the rows of a contiguous tensor.
 *
 * libpng reports errors by longjmp: the state that must survive one (the tensor, the row
 * pointers, the message) lives in a heap block, so no automatic variable is changed between
 * setjmp and longjmp, and everything is freed after setjmp returns. Without libpng
 * (LTENSOR_HAVE_PNG unset) the codec lt_image_png has neither decoder nor encoder, and
 * lt_image.c says "ltensor was built without PNG support".
 *
 * Calls lt_image.c (lt_image_alloc, lt_image_bytes_put), lt_tensor.c and libpng. Read by
 * lt_image.c only (lt_image_png).
 */
#include "lt_image.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LTENSOR_HAVE_PNG
#include <png.h>

/* What a decode or encode keeps across libpng's longjmp: on the heap (see the header). */
typedef struct {
  const char *name;
  const unsigned char *p; /* the input (decoding) */
  size_t len, pos;
  int truncated;
  char msg[200];
  lt_tensor *t;
  png_bytep *rows;
  lt_image_bytes *out; /* the output (encoding) */
} png_job;

static void on_error(png_structp png, png_const_charp msg) {
  png_job *j = png_get_error_ptr(png);
  snprintf(j->msg, sizeof j->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) {
  (void)png; /* benign problems (an ancillary chunk's CRC) are not the caller's */
  (void)msg;
}

static void on_read(png_structp png, png_bytep out, size_t n) {
  png_job *j = png_get_io_ptr(png);
  if (n > j->len - j->pos) {
    j->truncated = 1;
    png_error(png, "unexpected end of data");
  }
  memcpy(out, j->p + j->pos, n);
  j->pos += n;
}

static int little_endian(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* Sets libpng's transformations for mode on an image of color type ct and bit depth depth. */
static void set_transforms(png_structp png, png_infop info, int ct, int depth, lt_image_mode mode) {
  int trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  int gray = !(ct & PNG_COLOR_MASK_COLOR), alpha = (ct & PNG_COLOR_MASK_ALPHA) != 0;
  if (ct == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (gray && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (depth == 16 && little_endian()) png_set_swap(png);
  switch (mode) {
    case LT_IMG_UNCHANGED: /* a palette's transparency becomes alpha; gray and rgb keep theirs */
      if (trns && ct == PNG_COLOR_TYPE_PALETTE) png_set_tRNS_to_alpha(png);
      break;
    case LT_IMG_GRAY:
      if (alpha) png_set_strip_alpha(png);
      if (!gray) /* ITU-R 601 luma, as Pillow's "L" and libjpeg's gray */
        png_set_rgb_to_gray_fixed(png, 1, 29900, 58700);
      break;
    case LT_IMG_RGB:
      if (alpha) png_set_strip_alpha(png);
      if (gray) png_set_gray_to_rgb(png);
      break;
    case LT_IMG_RGBA:
      if (trns) png_set_tRNS_to_alpha(png);
      if (gray) png_set_gray_to_rgb(png);
      if (!alpha && !trns) png_set_add_alpha(png, depth == 16 ? 0xffff : 0xff, PNG_FILLER_AFTER);
      break;
  }
  png_set_interlace_handling(png);
}

/* The body of a decode, which libpng may leave by longjmp. */
static int decode_body(png_structp png, png_infop info, png_job *j, lt_image_mode mode,
                       lt_error *err) {
  png_set_read_fn(png, j, on_read);
  png_set_user_limits(png, LT_IMAGE_MAX_SIDE, LT_IMAGE_MAX_SIDE);
  png_set_chunk_malloc_max(png, (png_alloc_size_t)16 << 20);
#ifdef PNG_IGNORE_ADLER32
  /* every chunk's CRC is checked: zlib's Adler-32 of the same bytes again is a tenth of the
     decode's instructions (bench_image) and adds no protection */
  png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
  png_read_info(png, info);
  png_uint_32 w, h;
  int depth, ct;
  png_get_IHDR(png, info, &w, &h, &depth, &ct, NULL, NULL, NULL);
  set_transforms(png, info, ct, depth, mode);
  png_read_update_info(png, info);
  int c = png_get_channels(png, info), wide = png_get_bit_depth(png, info) == 16;
  size_t row = (size_t)w * (size_t)c * (wide ? 2 : 1);
  /* deflate inflates at most 1032:1: a file declaring more rows than its bytes can hold lies */
  if (((uint64_t)row + 1) * h / 1032 > j->len)
    return lt_fail(err, LT_EARG, "%s: truncated PNG (%lu x %lu pixels declared in %zu bytes)",
                   j->name, (unsigned long)h, (unsigned long)w, j->len);
  int rc = lt_image_alloc(j->name, h, w, c, wide, &j->t, err);
  if (rc) return rc;
  if (png_get_rowbytes(png, info) != row)
    return lt_fail(err, LT_EARG, "%s: corrupt PNG (rows of %zu bytes, expected %zu)", j->name,
                   (size_t)png_get_rowbytes(png, info), row);
  j->rows = malloc((size_t)h * sizeof *j->rows);
  if (!j->rows) return lt_fail(err, LT_ENOMEM, "%s: not enough memory for row pointers", j->name);
  unsigned char *data = (unsigned char *)lt_data(j->t);
  for (png_uint_32 y = 0; y < h; y++) j->rows[y] = data + (size_t)y * row;
  png_read_image(png, j->rows);
  png_read_end(png, NULL);
  return LT_OK;
}

/* The IHDR's width and height, big-endian at bytes 16 and 20 of a well-formed file. */
static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int png_decode(const char *name, const void *buf, size_t len, lt_image_mode mode,
                      lt_tensor **out, lt_error *err) {
  const unsigned char *p = buf;
  /* sizes past ltensor's limit (which libpng's user limits would call "Invalid IHDR data") */
  if (len >= 24 && memcmp(p + 12, "IHDR", 4) == 0 &&
      (be32(p + 16) > LT_IMAGE_MAX_SIDE || be32(p + 20) > LT_IMAGE_MAX_SIDE))
    return lt_image_alloc(name, be32(p + 20), be32(p + 16), 1, 0, out, err);
  png_job *j = calloc(1, sizeof *j);
  if (!j) return lt_fail(err, LT_ENOMEM, "%s: not enough memory", name);
  j->name = name;
  j->p = buf;
  j->len = len;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, j, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  int rc;
  if (!info) {
    rc = lt_fail(err, LT_ENOMEM, "%s: not enough memory for libpng", name);
  } else if (setjmp(png_jmpbuf(png))) {
    rc = lt_fail(err, LT_EARG, "%s: %s PNG (%s)", name, j->truncated ? "truncated" : "corrupt",
                 j->msg);
  } else {
    rc = decode_body(png, info, j, mode, err);
  }
  png_destroy_read_struct(&png, info ? &info : NULL, NULL);
  free(j->rows);
  rc = lt_give(rc, j->t, out);
  free(j);
  return rc;
}

static void on_write(png_structp png, png_bytep d, size_t n) {
  png_job *j = png_get_io_ptr(png);
  if (lt_image_bytes_put(j->out, d, n)) png_error(png, "out of memory");
}

static void on_flush(png_structp png) { (void)png; }

static void encode_body(png_structp png, png_infop info, const lt_image_pixels *px, int level,
                        png_job *j) {
  static const int types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                              PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_write_fn(png, j, on_write, on_flush);
  png_set_IHDR(png, info, (png_uint_32)px->w, (png_uint_32)px->h, px->wide ? 16 : 8,
               types[px->c - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, level);
  /* per row the better of Sub and Paeth: files within 1% of Pillow's (which tries all five
     filters) for a fifth fewer instructions than libpng's five (bench_image); level 0
     (stored) filters nothing */
  png_set_filter(png, 0, level ? PNG_FILTER_SUB | PNG_FILTER_PAETH : PNG_FILTER_NONE);
  png_write_info(png, info);
  if (px->wide && little_endian()) png_set_swap(png);
  size_t row = (size_t)px->w * (size_t)px->c * (px->wide ? 2 : 1);
  for (int64_t y = 0; y < px->h; y++) png_write_row(png, px->data + (size_t)y * row);
  png_write_end(png, NULL);
}

static int png_encode(const char *name, const lt_image_pixels *px, int compression,
                      lt_image_bytes *b, lt_error *err) {
  png_job *j = calloc(1, sizeof *j);
  if (!j) return lt_fail(err, LT_ENOMEM, "%s: not enough memory", name);
  j->out = b;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, j, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  int rc = LT_OK;
  if (!info)
    rc = lt_fail(err, LT_ENOMEM, "%s: not enough memory for libpng", name);
  else if (setjmp(png_jmpbuf(png)))
    rc = lt_fail(err, LT_EARG, "%s: cannot encode PNG (%s)", name, j->msg);
  else
    encode_body(png, info, px, compression, j);
  png_destroy_write_struct(&png, info ? &info : NULL);
  free(j);
  return rc;
}

static const char *png_version(void) { return png_get_libpng_ver(NULL); }

const lt_image_codec lt_image_png = {"PNG", png_decode, png_encode, png_version};

#else /* no libpng */

const lt_image_codec lt_image_png = {"PNG", NULL, NULL, NULL};

#endif
