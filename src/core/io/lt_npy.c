/*
 * lt_npy.c -- the .npy format (see lt_npy.h): the strict header parser, loading (read or
 * mapped) and saving.
 */
#include "lt_npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

static int host_little(void) {
  const uint16_t one = 1;
  unsigned char c;
  memcpy(&c, &one, 1);
  return c == 1;
}

/* {====== the header ====== */

int lt_npy_header_size(const void *buf, size_t len, uint64_t size, uint64_t *off, lt_error *err) {
  const unsigned char *p = buf;
  if (len < 10 || memcmp(p, magic, 6) != 0)
    return lt_fail(err, LT_EARG, "not a .npy file (no NumPy magic string at its start)");
  int major = p[6], minor = p[7];
  if (major < 1 || major > 3 || minor != 0)
    return lt_fail(err, LT_EARG,
                   "unsupported .npy format version %d.%d (ltensor reads 1.0, 2.0, 3.0)", major,
                   minor);
  uint64_t hlen, pre = major == 1 ? 10 : 12;
  if (len < pre) return lt_fail(err, LT_EARG, "header is truncated");
  hlen = (uint64_t)p[8] | (uint64_t)p[9] << 8;
  if (major > 1) hlen |= (uint64_t)p[10] << 16 | (uint64_t)p[11] << 24;
  if (pre + hlen > size)
    return lt_fail(err, LT_EARG, "header claims %llu bytes but the file holds %llu",
                   (unsigned long long)(pre + hlen), (unsigned long long)size);
  if (pre + hlen > LT_NPY_MAX_HEADER)
    return lt_fail(err, LT_EARG, "header of %llu bytes is larger than ltensor reads (%llu)",
                   (unsigned long long)hlen, (unsigned long long)LT_NPY_MAX_HEADER);
  *off = pre + hlen;
  return LT_OK;
}

typedef struct {
  const char *p, *end;
  lt_error *err;
} scan;

static void skip_ws(scan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static int expect(scan *s, char c) {
  skip_ws(s);
  if (s->p >= s->end || *s->p != c)
    return lt_fail(s->err, LT_EARG, "header is not the dict NumPy writes (expected '%c')", c);
  s->p++;
  return LT_OK;
}

/* A quoted string without escapes into buf (n bytes). */
static int get_string(scan *s, char *buf, size_t n) {
  skip_ws(s);
  if (s->p >= s->end || (*s->p != '\'' && *s->p != '"'))
    return lt_fail(s->err, LT_EARG, "header is not the dict NumPy writes (expected a string)");
  char q = *s->p++;
  size_t k = 0;
  while (s->p < s->end && *s->p != q) {
    if (*s->p == '\\' || (unsigned char)*s->p < 0x20 || k + 1 >= n)
      return lt_fail(s->err, LT_EARG, "header holds a string ltensor does not read");
    buf[k++] = *s->p++;
  }
  if (s->p >= s->end) return lt_fail(s->err, LT_EARG, "header is truncated inside a string");
  s->p++;
  buf[k] = 0;
  return LT_OK;
}

static int word(scan *s, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(s->end - s->p) >= n && memcmp(s->p, w, n) == 0) {
    s->p += n;
    return 1;
  }
  return 0;
}

static int get_shape(scan *s, lt_npy_info *h) {
  if (expect(s, '(')) return LT_EARG;
  h->ndim = 0;
  int commas = 0;
  for (;;) {
    skip_ws(s);
    if (s->p < s->end && *s->p == ')') break;
    if (s->p >= s->end || *s->p < '0' || *s->p > '9')
      return lt_fail(s->err, LT_EARG, "header shape is not a tuple of sizes");
    if (h->ndim == LT_MAX_NDIM)
      return lt_fail(s->err, LT_EARG, "header shape has more than %d dims", LT_MAX_NDIM);
    if (*s->p == '0' && s->p + 1 < s->end && s->p[1] >= '0' && s->p[1] <= '9')
      return lt_fail(s->err, LT_EARG, "header shape has a size with a leading zero");
    int64_t v = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
      if (__builtin_mul_overflow(v, (int64_t)10, &v) ||
          __builtin_add_overflow(v, (int64_t)(*s->p - '0'), &v))
        return lt_fail(s->err, LT_ERANGE, "header shape has a size beyond 2^63");
      s->p++;
    }
    if (s->p < s->end && *s->p == 'L') s->p++; /* Python 2's long literal */
    h->shape[h->ndim++] = v;
    skip_ws(s);
    if (s->p < s->end && *s->p == ',') {
      s->p++;
      commas++;
    } else if (s->p < s->end && *s->p == ')') {
      break;
    } else {
      return lt_fail(s->err, LT_EARG, "header shape is not a tuple of sizes");
    }
  }
  s->p++;                          /* ')' */
  if (h->ndim == 1 && commas == 0) /* (3) is a number, not a tuple */
    return lt_fail(s->err, LT_EARG, "header shape is not a tuple of sizes");
  return LT_OK;
}

/* Each dtype's NumPy kind ('b', 'u', 'i', 'f', 'c'; 0: none), with its size the .npy dtype both
   ways. */
static const char npy_kinds[LT_NDTYPES] = {
    [LT_BOOL] = 'b',    [LT_UINT8] = 'u',     [LT_INT8] = 'i',      [LT_INT16] = 'i',
    [LT_INT32] = 'i',   [LT_INT64] = 'i',     [LT_UINT16] = 'u',    [LT_UINT32] = 'u',
    [LT_UINT64] = 'u',  [LT_FLOAT16] = 'f',   [LT_BFLOAT16] = 0,    [LT_FLOAT32] = 'f',
    [LT_FLOAT64] = 'f', [LT_COMPLEX64] = 'c', [LT_COMPLEX128] = 'c'};

/* descr ("<f4") to dtype and byte order. */
static int get_descr(const char *d, lt_npy_info *h, lt_error *err) {
  char order = d[0];
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return lt_fail(err, LT_EARG, "dtype '%s' has no byte order", d);
  char kind = d[1];
  const char *digits = d + 2;
  int size = 0;
  for (const char *c = digits; *c; c++) {
    if (*c < '0' || *c > '9' || size > 1000) {
      size = -1;
      break;
    }
    size = size * 10 + (*c - '0');
  }
  if (!*digits) size = -1;
  switch (kind) {
    case 'O':
      return lt_fail(err, LT_EARG,
                     "object arrays (dtype '%s') hold Python objects, which "
                     "ltensor does not load",
                     d);
    case 'V':
      return lt_fail(err, LT_EARG,
                     "void dtype '%s' (structured or raw bytes, as "
                     "bfloat16 from ml_dtypes) is not supported",
                     d);
    case 'U':
    case 'S':
    case 'a': return lt_fail(err, LT_EARG, "string dtype '%s' is not supported", d);
    case 'M':
    case 'm': return lt_fail(err, LT_EARG, "datetime dtype '%s' is not supported", d);
    default: break;
  }
  lt_dtype dt = LT_NDTYPES;
  for (int i = 0; i < LT_NDTYPES && dt == LT_NDTYPES; i++)
    if (npy_kinds[i] == kind && lt_dtypes[i].size == (size_t)size) dt = (lt_dtype)i;
  if (dt == LT_NDTYPES) return lt_fail(err, LT_EARG, "dtype '%s' has no ltensor dtype", d);
  if (order == '|' && size > 1)
    return lt_fail(err, LT_EARG, "dtype '%s' of %d bytes has no byte order", d, size);
  int little = host_little();
  h->dtype = dt;
  h->swap = size > 1 && ((order == '<' && !little) || (order == '>' && little));
  return LT_OK;
}

int lt_npy_parse(const void *buf, size_t len, uint64_t size, lt_npy_info *h, lt_error *err) {
  uint64_t off;
  int rc = lt_npy_header_size(buf, len, size, &off, err);
  if (rc) return rc;
  if (off > len) return lt_fail(err, LT_EARG, "header is truncated");
  const char *text = (const char *)buf + (((const unsigned char *)buf)[6] == 1 ? 10 : 12);
  scan s = {text, (const char *)buf + off, err};
  if (expect(&s, '{')) return LT_EARG;
  int seen[3] = {0, 0, 0};
  char descr[64];
  for (;;) {
    skip_ws(&s);
    if (s.p < s.end && *s.p == '}') break;
    char key[32];
    if (get_string(&s, key, sizeof key) || expect(&s, ':')) return LT_EARG;
    int k = strcmp(key, "descr") == 0           ? 0
            : strcmp(key, "fortran_order") == 0 ? 1
            : strcmp(key, "shape") == 0         ? 2
                                                : -1;
    if (k < 0) return lt_fail(err, LT_EARG, "header has an unknown key '%s'", key);
    if (seen[k]++) return lt_fail(err, LT_EARG, "header has key '%s' twice", key);
    skip_ws(&s);
    if (k == 0) {
      if (s.p < s.end && *s.p == '[')
        return lt_fail(err, LT_EARG, "structured dtypes (a list as descr) are not supported");
      if (get_string(&s, descr, sizeof descr)) return LT_EARG;
    } else if (k == 1) {
      if (word(&s, "True"))
        h->fortran = 1;
      else if (word(&s, "False"))
        h->fortran = 0;
      else
        return lt_fail(err, LT_EARG, "header fortran_order is neither True nor False");
    } else if (get_shape(&s, h)) {
      return LT_EARG;
    }
    skip_ws(&s);
    if (s.p < s.end && *s.p == ',') {
      s.p++;
      continue;
    }
    if (s.p < s.end && *s.p == '}') break;
    return lt_fail(err, LT_EARG, "header is not the dict NumPy writes (expected ',' or '}')");
  }
  s.p++;
  skip_ws(&s);
  while (s.p < s.end && *s.p == 0) s.p++; /* some writers pad with NUL */
  if (s.p != s.end) return lt_fail(err, LT_EARG, "header has bytes after its dict");
  for (int k = 0; k < 3; k++)
    if (!seen[k])
      return lt_fail(err, LT_EARG, "header lacks key '%s'",
                     k == 0   ? "descr"
                     : k == 1 ? "fortran_order"
                              : "shape");
  if ((rc = get_descr(descr, h, err))) return rc;
  lt_error why;
  if (lt_shape_numel(h->ndim, h->shape, &h->numel, &why))
    return lt_fail(err, LT_ERANGE, "header shape has too many elements (overflow)");
  uint64_t es = lt_dtypes[h->dtype].size;
  h->data_off = off;
  if ((uint64_t)h->numel > (size - off) / es) /* the bytes, without overflow */
    return lt_fail(err, LT_EARG,
                   "header claims %lld elements of %d bytes but the file holds %llu bytes after "
                   "the header",
                   (long long)h->numel, (int)es, (unsigned long long)(size - off));
  h->nbytes = (uint64_t)h->numel * es;
  return LT_OK;
}

/* }====== */

/* {====== loading ====== */

/* A read tensor's last touches: byte order, bools as 0 and 1. */
static void settle(lt_tensor *t, const lt_npy_info *h) {
  char *p = lt_data(t);
  if (h->swap) {
    size_t es = lt_dtypes[h->dtype].size;
    if (lt_dtypes[h->dtype].is_complex)
      lt_file_swap(p, 2 * (uint64_t)h->numel, es / 2);
    else
      lt_file_swap(p, (uint64_t)h->numel, es);
  }
  if (h->dtype == LT_BOOL)
    for (int64_t i = 0; i < h->numel; i++) p[i] = p[i] != 0;
}

/* A mapping cannot normalize bools: data holding a byte other than 0 and 1 is refused, so that
   a mapped tensor reads as the plain load does. One pass over the bytes. */
static int check_bools(const unsigned char *p, uint64_t n, lt_error *err) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i] > 1)
      return lt_fail(err, LT_EARG,
                     "bool data holds byte %d at element %llu (not 0 or 1), which a mapping "
                     "cannot normalize; load it without mmap",
                     p[i], (unsigned long long)i + 1);
  return LT_OK;
}

int lt_npy_load(const char *path, int map, lt_tensor **out, lt_error *err) {
  lt_file f;
  int rc = lt_file_open(&f, path, err);
  if (rc) return rc;
  unsigned char pre[LT_NPY_PREFIX];
  size_t n = f.size < LT_NPY_PREFIX ? (size_t)f.size : LT_NPY_PREFIX;
  uint64_t off = 0;
  char *head = NULL;
  lt_npy_info h;
  lt_storage *st = NULL;
  if ((rc = lt_file_pread(&f, 0, pre, n, err))) goto done;
  if ((rc = lt_file_named(path, lt_npy_header_size(pre, n, f.size, &off, err), err))) goto done;
  if (!(head = malloc((size_t)off))) {
    rc = lt_fail(err, LT_ENOMEM, "not enough memory");
    goto done;
  }
  if ((rc = lt_file_pread(&f, 0, head, (size_t)off, err))) goto done;
  if ((rc = lt_file_named(path, lt_npy_parse(head, (size_t)off, f.size, &h, err), err))) goto done;
  if (map) {
    if (h.swap) {
      rc = lt_fail(err, LT_EARG,
                   "%s: data is in the other byte order, which a mapping cannot "
                   "swap; load it without mmap",
                   path);
      goto done;
    }
    if (off % lt_dtypes[h.dtype].align) {
      rc = lt_fail(err, LT_EARG,
                   "%s: data at byte %llu is not aligned for %s, so it cannot be "
                   "mapped; load it without mmap",
                   path, (unsigned long long)off, lt_dtype_name(h.dtype));
      goto done;
    }
    if ((rc = lt_file_map(&f, &st, err))) goto done;
    if (h.dtype == LT_BOOL &&
        (rc =
             lt_file_named(path, check_bools((unsigned char *)st->data + off, h.nbytes, err), err)))
      goto done;
    rc = lt_file_named(path,
                       lt_file_tensor(st, h.dtype, lt_dtypes[h.dtype].dl, h.ndim, h.shape,
                                      h.fortran, off, out, err),
                       err);
    if (!rc) (*out)->readonly = LT_RO_MAPPED;
  } else {
    if ((rc = lt_file_named(path, lt_file_alloc(h.nbytes, &st, err), err))) goto done;
    if ((rc = lt_file_pread(&f, off, st->data, (size_t)h.nbytes, err))) goto done;
    rc =
        lt_file_tensor(st, h.dtype, lt_dtypes[h.dtype].dl, h.ndim, h.shape, h.fortran, 0, out, err);
    if (!rc) settle(*out, &h);
  }
done:
  lt_storage_release(st);
  free(head);
  lt_file_close(&f);
  return rc;
}

int lt_npy_from_memory(const char *name, const void *buf, size_t len, lt_tensor **out,
                       lt_error *err) {
  lt_npy_info h;
  int rc = lt_file_named(name, lt_npy_parse(buf, len, len, &h, err), err);
  if (rc) return rc;
  lt_storage *st;
  if ((rc = lt_file_named(name, lt_file_alloc(h.nbytes, &st, err), err))) return rc;
  memcpy(st->data, (const char *)buf + h.data_off, (size_t)h.nbytes);
  rc = lt_file_tensor(st, h.dtype, lt_dtypes[h.dtype].dl, h.ndim, h.shape, h.fortran, 0, out, err);
  lt_storage_release(st);
  if (!rc) settle(*out, &h);
  return rc;
}

/* }====== */

/* {====== saving ====== */

/* Whether t's elements lie column-major and compact from its first one. */
static int fortran_contiguous(const lt_tensor *t) {
  int64_t s = 1;
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] == 0) return 1;
    if (t->shape[i] != 1 && t->strides[i] != s) return 0;
    s *= t->shape[i];
  }
  return 1;
}

int lt_npy_prepare(const char *name, const lt_tensor *t, lt_npy_out *o, lt_error *err) {
  o->owned = NULL;
  if (t->dtype == LT_BFLOAT16)
    return lt_fail(err, LT_EARG,
                   "%s: bfloat16 has no NumPy dtype, so .npy cannot hold it "
                   "(save it as .safetensors, or convert with t:to('float32'))",
                   name);
  if (t->dtype == LT_OPAQUE)
    return lt_fail(err, LT_EARG,
                   "%s: DLPack type (code %d, bits %d, lanes %d) has no NumPy "
                   "dtype (save it as .safetensors)",
                   name, t->dl_dtype.code, t->dl_dtype.bits, t->dl_dtype.lanes);
  int rc = lt_check_readable(t, err);
  if (rc) return lt_file_named(name, rc, err);
  size_t es = lt_dtypes[t->dtype].size;
  int fortran =
      !lt_is_contiguous(t) && t->ndim > 1 && fortran_contiguous(t) && !t->storage->revoked;
  if (fortran) {
    o->data = lt_data(t);
  } else if ((rc = lt_file_bytes(t, &o->data, &o->owned, err))) {
    return lt_file_named(name, rc, err);
  }
  o->nbytes = (uint64_t)lt_numel(t) * es;
  char shape[LT_MAX_NDIM * 22 + 8];
  size_t k = 0;
  shape[k++] = '(';
  for (int i = 0; i < t->ndim; i++)
    k += (size_t)snprintf(shape + k, sizeof shape - k, i ? ", %lld" : "%lld",
                          (long long)t->shape[i]);
  if (t->ndim == 1) shape[k++] = ',';
  shape[k++] = ')';
  shape[k] = 0;
  char *h = o->header;
  int len = snprintf(h + 10, sizeof o->header - 80,
                     "{'descr': '%c%c%d', 'fortran_order': %s, 'shape': %s, }",
                     es == 1         ? '|'
                     : host_little() ? '<'
                                     : '>',
                     npy_kinds[t->dtype], (int)es, fortran ? "True" : "False", shape);
  /* the header of version 1.0 holds its length in 16 bits: everything ltensor writes (at most
     64 dims) fits the buffer, which fits that field */
  _Static_assert(sizeof o->header - 10 <= 0xFFFF, "a .npy 1.0 header length is 16 bits");
  if (len < 0 || (size_t)len >= sizeof o->header - 80)
    return lt_fail(err, LT_ERANGE, "%s: .npy header does not fit %d bytes", name,
                   (int)sizeof o->header);
  size_t total = 10 + (size_t)len + 1; /* and '\n' */
  total = (total + 63) / 64 * 64;      /* NumPy aligns the data to 64 bytes */
  memset(h + 10 + len, ' ', total - 10 - (size_t)len - 1);
  h[total - 1] = '\n';
  memcpy(h, magic, 6);
  h[6] = 1;
  h[7] = 0;
  h[8] = (char)((total - 10) & 0xff);
  h[9] = (char)((total - 10) >> 8);
  o->header_len = total;
  return LT_OK;
}

void lt_npy_out_free(lt_npy_out *o) {
  lt_tensor_free(o->owned);
  o->owned = NULL;
}

int lt_npy_save(const char *path, const lt_tensor *t, lt_error *err) {
  lt_npy_out o;
  int rc = lt_npy_prepare(path, t, &o, err);
  if (rc) return rc;
  lt_file_out w;
  if (!(rc = lt_file_create(&w, path, err))) {
    lt_file_reserve(&w, o.header_len + o.nbytes);
    if ((rc = lt_file_write(&w, o.header, o.header_len, err)) ||
        (rc = lt_file_write(&w, o.data, (size_t)o.nbytes, err)))
      lt_file_abort(&w);
    else
      rc = lt_file_commit(&w, err);
  }
  lt_npy_out_free(&o);
  return rc;
}

/* }====== */
