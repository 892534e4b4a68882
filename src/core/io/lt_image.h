/*
 * lt_image.h -- images as tensors: PNG and JPEG decoded into, and encoded from, H x W x C
 * tensors (uint8, or uint16 for 16-bit PNG, in native byte order). The format of bytes is told
 * by their signature, never by a name; the format of a path to write by its extension.
 *
 * Owns the common part (lt_image.c: signatures, modes, reading a file, the pixels an encoder
 * takes from any tensor, writing a file) and the contract of the two codecs, lt_image_png.c
 * (libpng) and lt_image_jpeg.c (libjpeg-turbo). Each codec decodes straight into the rows of
 * the result tensor (no second full-size buffer), refuses declared sizes whose product
 * overflows or passes the memory budget before it allocates (the tensor is made through
 * lt_tensor_new, which charges the budget), and turns the library's longjmp errors into an
 * lt_error naming the input and the problem ("photo.png: truncated PNG (...)"), freeing what
 * was allocated before. Built without a library (LTENSOR_HAVE_PNG / LTENSOR_HAVE_JPEG unset),
 * its calls fail with "ltensor was built without PNG support" (or JPEG). Lua-free.
 *
 * Calls lt_tensor.c, lt_copy.c, lt_file.c, libpng and libjpeg. Called by the binding
 * (lua_image.c), the fuzz targets, the cross-checks and the bench.
 */
#ifndef LT_IMAGE_H
#define LT_IMAGE_H

#include <stddef.h>

#include "lt_tensor.h"

/* What decoding gives: the file's own channels, or converted to 1, 3 or 4. */
typedef enum { LT_IMG_UNCHANGED, LT_IMG_GRAY, LT_IMG_RGB, LT_IMG_RGBA } lt_image_mode;
typedef enum { LT_IMG_PNG, LT_IMG_JPEG } lt_image_format;

/* Encoder settings: JPEG quality 1..100, PNG zlib level 0..9 (-1: the default). */
typedef struct {
  int quality;
  int compression;
} lt_image_opts;

#define LT_IMAGE_QUALITY 90     /* JPEG, as lt.image.write documents */
#define LT_IMAGE_COMPRESSION 6  /* PNG: zlib's default level, as Pillow's */
#define LT_IMAGE_MAX_SIDE 65535 /* the largest width or height decoded (JPEG's own limit) */

/* An encoded image: malloc'd bytes (lt_image_bytes_free releases them). */
typedef struct {
  unsigned char *data;
  size_t len, cap;
} lt_image_bytes;

void lt_image_bytes_free(lt_image_bytes *b);

/* The version of the library a format goes through ("1.6.39", "libjpeg-turbo 2.1.5"), or NULL
   when ltensor was built without it. */
const char *lt_image_version(lt_image_format fmt);

/* Decodes len bytes at buf (PNG or JPEG, told by the signature) into a new tensor; messages
   begin with name ("bytes" for a script's string). */
int lt_image_decode(const char *name, const void *buf, size_t len, lt_image_mode mode,
                    lt_tensor **out, lt_error *err);
/* Reads and decodes the file at path (messages name it). */
int lt_image_read(const char *path, lt_image_mode mode, lt_tensor **out, lt_error *err);

/* Encodes t (H x W or H x W x C; uint8, uint16 for PNG, or floating point in [0, 1], scaled by
   255, rounded, clamped, NaN 0; any strides) as fmt into *b (which it initializes). opts NULL:
   the defaults. Messages begin with name (the path, or "bytes"). */
int lt_image_encode(const char *name, const lt_tensor *t, lt_image_format fmt,
                    const lt_image_opts *opts, lt_image_bytes *b, lt_error *err);
/* The format a path's extension names (.png, .jpg, .jpeg, any case); LT_EARG naming it else. */
int lt_image_format_of(const char *path, lt_image_format *fmt, lt_error *err);
/* Encodes t as the format of path's extension and writes it (a temporary renamed over path). */
int lt_image_write(const char *path, const lt_tensor *t, const lt_image_opts *opts, lt_error *err);

/* {====== for the codecs (lt_image_png.c, lt_image_jpeg.c) only ====== */

/* The pixels an encoder reads: H x W x C contiguous of the dtype it takes (t itself, or a
   converted copy held in owned). */
typedef struct {
  const unsigned char *data;
  int64_t h, w;
  int c, wide; /* wide: 16-bit samples */
  lt_tensor *owned;
} lt_image_pixels;

/* Appends n bytes to b (LT_ENOMEM when it cannot grow). */
int lt_image_bytes_put(lt_image_bytes *b, const void *p, size_t n);
/* The H x W x C result tensor of a decoder, after the sizes were checked (each side 1 to
   LT_IMAGE_MAX_SIDE, the product in range): LT_ENOMEM naming name when the budget refuses. */
int lt_image_alloc(const char *name, int64_t h, int64_t w, int c, int wide, lt_tensor **out,
                   lt_error *err);

/* A codec: its decoder and encoder (NULL in a build without its library; the encoder's setting
   is the JPEG quality or the PNG zlib level) and its library's version. */
typedef struct {
  const char *name; /* "PNG", "JPEG": for messages */
  int (*decode)(const char *name, const void *buf, size_t len, lt_image_mode mode, lt_tensor **out,
                lt_error *err);
  int (*encode)(const char *name, const lt_image_pixels *px, int setting, lt_image_bytes *b,
                lt_error *err);
  const char *(*version)(void);
} lt_image_codec;

extern const lt_image_codec lt_image_png;  /* lt_image_png.c */
extern const lt_image_codec lt_image_jpeg; /* lt_image_jpeg.c */

/* }====== */

#endif
