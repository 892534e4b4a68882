/*
 * lt_image.c -- the common part of images as tensors (see lt_image.h): telling PNG from JPEG by
 * signature, reading a file whole, the pixels an encoder takes from any tensor (a contiguous
 * view of uint8 / uint16, or floats in [0, 1] scaled to uint8), and writing the encoded bytes
 * through lt_file's temporary-and-rename.
 */
#include "lt_image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_file.h"

void lt_image_bytes_free(lt_image_bytes *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

int lt_image_bytes_put(lt_image_bytes *b, const void *p, size_t n) {
  if (n > b->cap - b->len) {
    size_t cap = b->cap ? b->cap : 65536;
    while (cap - b->len < n) {
      if (cap > SIZE_MAX / 2) return LT_ENOMEM;
      cap *= 2;
    }
    unsigned char *d = realloc(b->data, cap);
    if (!d) return LT_ENOMEM;
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return LT_OK;
}

int lt_image_alloc(const char *name, int64_t h, int64_t w, int c, int wide, lt_tensor **out,
                   lt_error *err) {
  if (h < 1 || w < 1 || h > LT_IMAGE_MAX_SIDE || w > LT_IMAGE_MAX_SIDE)
    return lt_fail(err, LT_ERANGE, "%s: image of %lld x %lld is larger than ltensor reads (%d)",
                   name, (long long)h, (long long)w, LT_IMAGE_MAX_SIDE);
  int64_t shape[3] = {h, w, c};
  int rc = lt_tensor_new(wide ? LT_UINT16 : LT_UINT8, 3, shape, 0, out, err);
  if (rc == LT_ENOMEM) /* sides up to 65535: the product fits */
    return lt_fail_nomem_at(err, (size_t)(h * w * c * (wide ? 2 : 1)), "%s: ", name);
  return rc;
}

/* {====== decoding ====== */

static const lt_image_codec *codec_of(lt_image_format fmt) {
  return fmt == LT_IMG_PNG ? &lt_image_png : &lt_image_jpeg;
}

const char *lt_image_version(lt_image_format fmt) {
  const lt_image_codec *c = codec_of(fmt);
  return c->version ? c->version() : NULL;
}

static int missing(const lt_image_codec *c, lt_error *err) {
  return lt_fail(err, LT_EARG, "ltensor was built without %s support", c->name);
}

static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

int lt_image_decode(const char *name, const void *buf, size_t len, lt_image_mode mode,
                    lt_tensor **out, lt_error *err) {
  const unsigned char *p = buf;
  const lt_image_codec *c = NULL;
  if (len >= 8 && memcmp(p, png_sig, 8) == 0)
    c = &lt_image_png;
  else if (len >= 3 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
    c = &lt_image_jpeg;
  if (c) return c->decode ? c->decode(name, buf, len, mode, out, err) : missing(c, err);
  if (len == 0) return lt_fail(err, LT_EARG, "%s: empty, not an image", name);
  return lt_fail(err, LT_EARG, "%s: not a PNG or JPEG image (unknown signature)", name);
}

int lt_image_read(const char *path, lt_image_mode mode, lt_tensor **out, lt_error *err) {
  lt_file f;
  int rc = lt_file_open(&f, path, err);
  if (rc) return rc;
  if (f.size > SIZE_MAX / 2) {
    lt_file_close(&f);
    return lt_fail(err, LT_ERANGE, "%s: file of %llu bytes is too large", path,
                   (unsigned long long)f.size);
  }
  size_t n = (size_t)f.size;
  void *buf = malloc(n ? n : 1);
  if (!buf) {
    lt_file_close(&f);
    return lt_fail(err, LT_ENOMEM, "%s: not enough memory to read %zu bytes", path, n);
  }
  rc = lt_file_pread(&f, 0, buf, n, err);
  lt_file_close(&f);
  if (!rc) rc = lt_image_decode(path, buf, n, mode, out, err);
  free(buf);
  return rc;
}

/* }====== */

/* {====== encoding ====== */

/* floats in [0, 1] to uint8 as torchvision's save_image: x * 255 + 0.5, clamped, truncated. */
static unsigned char to_u8(double x) {
  double v = x * 255.0 + 0.5;
  if (!(v > 0)) return 0; /* NaN too */
  return v >= 255.0 ? 255 : (unsigned char)v;
}

/* A new uint8 tensor of t's shape from floating-point t. */
static int scale_floats(const lt_tensor *t, lt_tensor **out, lt_error *err) {
  lt_dtype dt = t->dtype == LT_FLOAT64 ? LT_FLOAT64 : LT_FLOAT32;
  const lt_tensor *src;
  lt_tensor *owned = NULL, *res = NULL;
  int rc = lt_contiguous_as(t, dt, &src, &owned, err);
  if (!rc) rc = lt_tensor_new(LT_UINT8, t->ndim, t->shape, 0, &res, err);
  if (!rc) {
    int64_t n = lt_numel(src);
    unsigned char *d = (unsigned char *)lt_data(res);
    if (dt == LT_FLOAT64) {
      const double *s = (const double *)lt_data(src);
      for (int64_t i = 0; i < n; i++) d[i] = to_u8(s[i]);
    } else {
      const float *s = (const float *)lt_data(src);
      for (int64_t i = 0; i < n; i++) d[i] = to_u8(s[i]);
    }
  }
  lt_tensor_free(owned);
  return lt_give(rc, res, out);
}

/* The pixels of t for an encoder of fmt, checked: H x W or H x W x C (C 1-4 for PNG, 1 or 3
   for JPEG), at least 1 x 1, uint8, uint16 (PNG) or floating point. */
static int pixels_of(const char *name, const lt_tensor *t, lt_image_format fmt, lt_image_pixels *px,
                     lt_error *err) {
  const char *fname = fmt == LT_IMG_PNG ? "PNG" : "JPEG";
  memset(px, 0, sizeof *px);
  int rc = lt_check_readable(t, err);
  if (rc) return rc;
  if (t->ndim != 2 && t->ndim != 3)
    return lt_fail(err, LT_EARG, "%s: expected an H x W or H x W x C tensor, got %d dims", name,
                   t->ndim);
  px->h = t->shape[0];
  px->w = t->shape[1];
  px->c = t->ndim == 3 ? (int)(t->shape[2] < 5 ? t->shape[2] : 5) : 1;
  int ok_c = fmt == LT_IMG_PNG ? px->c >= 1 && px->c <= 4 : px->c == 1 || px->c == 3;
  if (!ok_c)
    return lt_fail(err, LT_EARG, "%s: %s takes %s channels, got %lld", name, fname,
                   fmt == LT_IMG_PNG ? "1, 2, 3 or 4" : "1 or 3", (long long)t->shape[2]);
  if (px->h < 1 || px->w < 1)
    return lt_fail(err, LT_EARG, "%s: cannot encode an empty image (%lld x %lld)", name,
                   (long long)px->h, (long long)px->w);
  int64_t most = fmt == LT_IMG_PNG ? 0x7fffffff : 65500; /* the formats' own limits */
  if (px->h > most || px->w > most)                      /* before any copy of an expanded view */
    return lt_fail(err, LT_ERANGE, "%s: image of %lld x %lld is too large for %s (at most %lld)",
                   name, (long long)px->h, (long long)px->w, fname, (long long)most);
  const lt_tensor *src = t;
  if (t->dtype == LT_UINT16 && fmt == LT_IMG_PNG) {
    px->wide = 1;
  } else if (lt_dtypes[t->dtype].is_float) {
    if ((rc = scale_floats(t, &px->owned, err))) return rc;
    src = px->owned;
  } else if (t->dtype != LT_UINT8) {
    return lt_fail(err, LT_EARG, "%s: %s takes uint8%s or floating-point tensors, got %s", name,
                   fname, fmt == LT_IMG_PNG ? ", uint16" : "", lt_dtype_name(t->dtype));
  }
  if (src == t) {
    const lt_tensor *res;
    if ((rc = lt_contiguous_as(t, t->dtype, &res, &px->owned, err))) return rc;
    src = res;
  }
  px->data = (const unsigned char *)lt_data(src);
  return LT_OK;
}

int lt_image_encode(const char *name, const lt_tensor *t, lt_image_format fmt,
                    const lt_image_opts *opts, lt_image_bytes *b, lt_error *err) {
  memset(b, 0, sizeof *b);
  int quality = opts && opts->quality != -1 ? opts->quality : LT_IMAGE_QUALITY;
  int level = opts && opts->compression != -1 ? opts->compression : LT_IMAGE_COMPRESSION;
  if (quality < 1 || quality > 100)
    return lt_fail(err, LT_ERANGE, "quality must be 1 to 100, got %d", quality);
  if (level < 0 || level > 9)
    return lt_fail(err, LT_ERANGE, "compression must be 0 to 9, got %d", level);
  const lt_image_codec *c = codec_of(fmt);
  if (!c->encode) return missing(c, err); /* before the tensor is looked at */
  lt_image_pixels px;
  int rc = pixels_of(name, t, fmt, &px, err);
  if (!rc) rc = c->encode(name, &px, fmt == LT_IMG_PNG ? level : quality, b, err);
  lt_tensor_free(px.owned);
  if (rc) lt_image_bytes_free(b);
  return rc;
}

/* Whether s ends with ext, ASCII letters in any case. */
static int ends_with(const char *s, const char *ext) {
  size_t n = strlen(s), e = strlen(ext);
  if (n <= e) return 0;
  for (size_t i = 0; i < e; i++)
    if ((s[n - e + i] | 0x20) != ext[i]) return 0;
  return 1;
}

int lt_image_format_of(const char *path, lt_image_format *fmt, lt_error *err) {
  if (ends_with(path, ".png")) {
    *fmt = LT_IMG_PNG;
  } else if (ends_with(path, ".jpg") || ends_with(path, ".jpeg")) {
    *fmt = LT_IMG_JPEG;
  } else {
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    const char *ext = dot && (!slash || dot > slash) ? dot : "";
    return lt_fail(err, LT_EARG, "%s: unknown image extension '%s' (expected .png, .jpg or .jpeg)",
                   path, ext);
  }
  return LT_OK;
}

int lt_image_write(const char *path, const lt_tensor *t, const lt_image_opts *opts, lt_error *err) {
  lt_image_format fmt;
  lt_image_bytes b;
  int rc = lt_image_format_of(path, &fmt, err);
  if (rc || (rc = lt_image_encode(path, t, fmt, opts, &b, err))) return rc;
  lt_file_out w;
  if (!(rc = lt_file_create(&w, path, err))) {
    if ((rc = lt_file_write(&w, b.data, b.len, err)))
      lt_file_abort(&w);
    else
      rc = lt_file_commit(&w, err);
  }
  lt_image_bytes_free(&b);
  return rc;
}

/* }====== */
