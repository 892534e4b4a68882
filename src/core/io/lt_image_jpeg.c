/*
 * lt_image_jpeg.c -- JPEG through libjpeg-turbo (see lt_image.h): decoding scanlines straight
 * into the rows of the result tensor (gray, RGB, or RGBA through libjpeg-turbo's extended color
 * spaces; CMYK files give their four channels unchanged), and encoding a contiguous tensor's
 * rows (gray or RGB, 4:2:0 chroma as Pillow and libjpeg default to).
 *
 * libjpeg reports errors through error_exit, which must not return: it longjmps back, and the
 * state that survives (the tensor, the output buffer, the message) lives in a heap block, freed
 * after setjmp returns. Truncated data (libjpeg's "premature end of JPEG file" warning, after
 * which it would invent gray rows) and bad Huffman codes are errors here. Without libjpeg
 * (LTENSOR_HAVE_JPEG unset) the codec lt_image_jpeg has neither decoder nor encoder, and
 * lt_image.c says "ltensor was built without JPEG support".
 *
 * Calls lt_image.c (lt_image_alloc), lt_tensor.c and libjpeg. Read by lt_image.c only
 * (lt_image_jpeg).
 */
#include "lt_image.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LTENSOR_HAVE_JPEG
#include <limits.h>
#include <setjmp.h>

#include <jerror.h>
#include <jpeglib.h>

/* What a decode or encode keeps across the error longjmp: on the heap (see the header). */
typedef struct {
  struct jpeg_error_mgr pub; /* first: libjpeg's err pointer is this block's address */
  jmp_buf jb;
  char msg[JMSG_LENGTH_MAX];
  int truncated;
  lt_tensor *t;
  unsigned char *buf; /* jpeg_mem_dest's output */
  unsigned long len;
  union { /* the codec's own state, changed by libjpeg until the longjmp */
    struct jpeg_decompress_struct d;
    struct jpeg_compress_struct c;
  } ci;
} jpeg_job;

static void on_fatal(j_common_ptr ci) {
  jpeg_job *j = (jpeg_job *)ci->err;
  ci->err->format_message(ci, j->msg);
  longjmp(j->jb, 1);
}

/* Warnings (level -1) that mean the pixels would be made up end the decode; traces are
   dropped. */
static void on_message(j_common_ptr ci, int level) {
  jpeg_job *j = (jpeg_job *)ci->err;
  if (level >= 0) return;
  int code = ci->err->msg_code;
  if (code == JWRN_JPEG_EOF || code == JWRN_HUFF_BAD_CODE) {
    j->truncated = code == JWRN_JPEG_EOF;
    ci->err->format_message(ci, j->msg);
    longjmp(j->jb, 1);
  }
  ci->err->num_warnings++;
}

static jpeg_job *new_job(void) {
  jpeg_job *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  jpeg_std_error(&j->pub);
  j->pub.error_exit = on_fatal;
  j->pub.emit_message = on_message;
  return j;
}

/* The output color space and channels of mode for a file of color space cs. */
static int pick_space(J_COLOR_SPACE cs, lt_image_mode mode, J_COLOR_SPACE *out, int *c) {
  int cmyk = cs == JCS_CMYK || cs == JCS_YCCK;
  switch (mode) {
    case LT_IMG_UNCHANGED:
      *out = cs == JCS_GRAYSCALE ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
      break;
    case LT_IMG_GRAY: *out = JCS_GRAYSCALE; break;
    case LT_IMG_RGB: *out = JCS_RGB; break;
    case LT_IMG_RGBA: *out = JCS_EXT_RGBA; break;
  }
  *c = *out == JCS_GRAYSCALE ? 1 : *out == JCS_RGB ? 3 : 4;
  return cmyk && *out != JCS_CMYK; /* libjpeg converts CMYK to nothing else */
}

static int decode_body(struct jpeg_decompress_struct *ci, jpeg_job *j, const char *name,
                       const void *buf, size_t len, lt_image_mode mode, lt_error *err) {
  jpeg_create_decompress(ci);
  jpeg_mem_src(ci, (const unsigned char *)buf, (unsigned long)len);
  jpeg_read_header(ci, TRUE);
  int c;
  if (pick_space(ci->jpeg_color_space, mode, &ci->out_color_space, &c))
    return lt_fail(err, LT_EARG, "%s: a CMYK JPEG reads only with mode 'unchanged'", name);
  int64_t h = ci->image_height, w = ci->image_width;
  /* Huffman coding spends at least a bit on every 8 x 8 block of the first component (its DC
     code), so a file declaring more pixels than 512 a byte lies (arithmetic coding may not) */
  if (!ci->arith_code && (uint64_t)h * (uint64_t)w / 512 > (uint64_t)len)
    return lt_fail(err, LT_EARG, "%s: truncated JPEG (%lld x %lld pixels declared in %zu bytes)",
                   name, (long long)h, (long long)w, len);
  /* libjpeg's own buffers (a progressive file's coefficients) are bounded too */
  ci->mem->max_memory_to_use = (long)(64 << 20) + (long)(8 * h * w < LONG_MAX / 2 ? 8 * h * w : 0);
  int rc = lt_image_alloc(name, h, w, c, 0, &j->t, err);
  if (rc) return rc;
  jpeg_start_decompress(ci);
  if ((int64_t)ci->output_height != h || (int64_t)ci->output_width != w ||
      ci->output_components != c)
    return lt_fail(err, LT_EARG, "%s: corrupt JPEG (unexpected output layout)", name);
  unsigned char *data = (unsigned char *)lt_data(j->t);
  size_t row = (size_t)w * (size_t)c;
  while (ci->output_scanline < ci->output_height) {
    JSAMPROW rows[4];
    JDIMENSION y = ci->output_scanline, n = ci->output_height - y < 4 ? ci->output_height - y : 4;
    for (JDIMENSION k = 0; k < n; k++) rows[k] = data + (size_t)(y + k) * row;
    jpeg_read_scanlines(ci, rows, n);
  }
  jpeg_finish_decompress(ci);
  return LT_OK;
}

static int jpeg_decode(const char *name, const void *buf, size_t len, lt_image_mode mode,
                       lt_tensor **out, lt_error *err) {
  if (len > ULONG_MAX) return lt_fail(err, LT_ERANGE, "%s: too large for libjpeg", name);
  jpeg_job *j = new_job();
  if (!j) return lt_fail(err, LT_ENOMEM, "%s: not enough memory", name);
  j->ci.d.err = &j->pub;
  int rc;
  if (setjmp(j->jb))
    rc = lt_fail(err, LT_EARG, "%s: %s JPEG (%s)", name, j->truncated ? "truncated" : "corrupt",
                 j->msg);
  else
    rc = decode_body(&j->ci.d, j, name, buf, len, mode, err);
  jpeg_destroy_decompress(&j->ci.d);
  rc = lt_give(rc, j->t, out);
  free(j);
  return rc;
}

static void encode_body(struct jpeg_compress_struct *ci, jpeg_job *j, const lt_image_pixels *px,
                        int quality) {
  jpeg_create_compress(ci);
  jpeg_mem_dest(ci, &j->buf, &j->len);
  ci->image_width = (JDIMENSION)px->w;
  ci->image_height = (JDIMENSION)px->h;
  ci->input_components = px->c;
  ci->in_color_space = px->c == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(ci);
  jpeg_set_quality(ci, quality, TRUE);
  jpeg_start_compress(ci, TRUE);
  size_t row = (size_t)px->w * (size_t)px->c;
  while (ci->next_scanline < ci->image_height) {
    /* libjpeg reads the rows it is given and never writes them */
    JSAMPROW r = (JSAMPROW)(uintptr_t)(px->data + (size_t)ci->next_scanline * row);
    jpeg_write_scanlines(ci, &r, 1);
  }
  jpeg_finish_compress(ci);
}

static int jpeg_encode(const char *name, const lt_image_pixels *px, int quality, lt_image_bytes *b,
                       lt_error *err) {
  jpeg_job *j = new_job();
  if (!j) return lt_fail(err, LT_ENOMEM, "%s: not enough memory", name);
  j->ci.c.err = &j->pub;
  int rc = LT_OK;
  if (setjmp(j->jb))
    rc = lt_fail(err, LT_EARG, "%s: cannot encode JPEG (%s)", name, j->msg);
  else
    encode_body(&j->ci.c, j, px, quality);
  jpeg_destroy_compress(&j->ci.c);
  if (rc) {
    free(j->buf);
  } else { /* jpeg_mem_dest's buffer comes from malloc: the result takes it */
    b->data = j->buf;
    b->len = b->cap = j->len;
  }
  free(j);
  return rc;
}

static const char *jpeg_version(void) {
#define LT_STR2(x) #x
#define LT_STR(x) LT_STR2(x)
#if defined(LIBJPEG_TURBO_VERSION)
  return "libjpeg-turbo " LT_STR(LIBJPEG_TURBO_VERSION);
#else
  return "libjpeg " LT_STR(JPEG_LIB_VERSION);
#endif
}

const lt_image_codec lt_image_jpeg = {"JPEG", jpeg_decode, jpeg_encode, jpeg_version};

#else /* no libjpeg */

const lt_image_codec lt_image_jpeg = {"JPEG", NULL, NULL, NULL};

#endif
