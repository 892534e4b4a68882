/*
 * lt_safetensors.c -- the .safetensors format (see lt_safetensors.h): loading (read or mapped)
 * and saving. The header's parser is lt_safetensors_header.c's.
 */
#include "lt_safetensors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====== loading and saving ====== */

/* A mapping cannot normalize bools: a mapped BOOL tensor holding a byte other than 0 and 1 is
   refused, so that it reads as the plain load does. One pass over its bytes. */
static int check_bools(const char *label, const unsigned char *p, uint64_t n, lt_error *err) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i] > 1)
      return lt_fail(err, LT_EARG,
                     "%s holds bool byte %d at element %llu (not 0 or 1), which a mapping "
                     "cannot normalize; load it without mmap",
                     label, p[i], (unsigned long long)i + 1);
  return LT_OK;
}

int lt_safetensors_load(const char *path, int map, int strict, lt_file_set *set, lt_error *err) {
  lt_file f;
  int rc = lt_file_open(&f, path, err);
  if (rc) return rc;
  unsigned char pre[8];
  char *head = NULL;
  lt_st_entry *e = NULL;
  lt_storage *st = NULL;
  uint64_t hlen = 0;
  if (f.size < 8) {
    rc = lt_fail(err, LT_EARG,
                 "%s: not a safetensors file (%llu bytes, less than its 8-byte "
                 "header size)",
                 path, (unsigned long long)f.size);
    goto done;
  }
  if ((rc = lt_file_pread(&f, 0, pre, 8, err))) goto done;
  for (int i = 7; i >= 0; i--) hlen = hlen << 8 | pre[i];
  if (hlen > f.size - 8) {
    rc = lt_fail(err, LT_EARG,
                 "%s: header claims %llu bytes but the file holds %llu after its "
                 "size",
                 path, (unsigned long long)hlen, (unsigned long long)(f.size - 8));
    goto done;
  }
  if (hlen > LT_ST_MAX_HEADER) {
    rc = lt_fail(err, LT_EARG, "%s: header of %llu bytes is larger than ltensor reads (%llu)", path,
                 (unsigned long long)hlen, (unsigned long long)LT_ST_MAX_HEADER);
    goto done;
  }
  if (!(head = malloc(hlen ? (size_t)hlen : 1))) {
    rc = lt_fail(err, LT_ENOMEM, "not enough memory");
    goto done;
  }
  if ((rc = lt_file_pread(&f, 8, head, (size_t)hlen, err))) goto done;
  uint64_t data = 8 + hlen;
  if ((rc = lt_file_named(
           path, lt_safetensors_parse(head, (size_t)hlen, f.size - data, strict, set, &e, err),
           err)))
    goto done;
  if (map) {
    for (int i = 0; i < set->n && !rc; i++) {
      if (e[i].skip || e[i].end == e[i].begin) continue;
      uint64_t at = data + e[i].begin, esize = ((uint64_t)e[i].dl.bits + 7) / 8;
      uint64_t align = e[i].dtype == LT_OPAQUE ? esize : lt_dtypes[e[i].dtype].align;
      if (at % align)
        rc = lt_fail(err, LT_EARG,
                     "%s: tensor '%s' at byte %llu is not aligned for its dtype, so "
                     "it cannot be mapped; load it without mmap",
                     path, set->names[i], (unsigned long long)at);
      else if (at % esize)
        rc = lt_fail(err, LT_EARG,
                     "%s: tensor '%s': data offset %llu is not a multiple of the element size "
                     "%d: mmap cannot give zero copy; load it without mmap",
                     path, set->names[i], (unsigned long long)at, (int)esize);
    }
    if (rc || (rc = lt_file_map(&f, &st, err))) goto done;
  }
  for (int i = 0; i < set->n; i++) {
    if (e[i].skip) continue; /* left out: set->why[i] says why */
    lt_storage *own = st;
    uint64_t off = data + e[i].begin, nbytes = e[i].end - e[i].begin;
    char label[160];
    snprintf(label, sizeof label, "%s: tensor '%s'", path, set->names[i]);
    if (map && e[i].dtype == LT_BOOL)
      rc = check_bools(label, (const unsigned char *)st->data + off, nbytes, err);
    if (!map) {
      if ((rc = lt_file_named(label, lt_file_alloc(nbytes, &own, err), err))) goto done;
      rc = lt_file_pread(&f, off, own->data, (size_t)nbytes, err);
      off = 0;
      if (!rc && e[i].dtype == LT_BOOL) /* as NumPy reads them: 0 and 1 */
        for (unsigned char *p = own->data, *end = p + nbytes; p < end; p++) *p = *p != 0;
    }
    if (!rc)
      rc = lt_file_named(label,
                         lt_file_tensor(own, e[i].dtype, e[i].dl, e[i].ndim, e[i].shape, 0,
                                        nbytes ? off : 0, &set->tensors[i], err),
                         err);
    if (!map) lt_storage_release(own);
    if (rc) goto done;
    if (map) set->tensors[i]->readonly = LT_RO_MAPPED;
  }
done:
  lt_storage_release(st);
  free(head);
  free(e);
  lt_file_close(&f);
  if (rc) lt_file_set_free(set);
  return rc;
}

/* A growing buffer for the header, which stops growing at the largest header the format's
   readers accept (failed 2; 1: out of memory). */
typedef struct {
  char *p;
  size_t len, cap;
  int failed;
} text;

static void add(text *t, const char *s, size_t n) {
  if (t->failed) return;
  if (n > LT_ST_MAX_HEADER - t->len) {
    t->failed = 2;
    return;
  }
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + n + 1) cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p) {
      t->failed = 1;
      return;
    }
    t->p = p;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = 0;
}

static void adds(text *t, const char *s) { add(t, s, strlen(s)); }

/* A JSON string; 0 when s is not UTF-8. */
static int add_string(text *t, const char *s) {
  const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
  if ((size_t)(end - p) > LT_ST_MAX_HEADER - t->len) t->failed = 2; /* escapes only add */
  add(t, "\"", 1);
  while (p < end && !t->failed) {
    char esc[8];
    if (*p == '"' || *p == '\\') {
      esc[0] = '\\';
      esc[1] = (char)*p++;
      add(t, esc, 2);
    } else if (*p < 0x20) {
      memcpy(esc, "\\u00", 4);
      esc[4] = "0123456789abcdef"[*p >> 4];
      esc[5] = "0123456789abcdef"[*p++ & 15];
      add(t, esc, 6);
    } else {
      int n = lt_st_utf8_len(p, end);
      if (!n) return 0;
      add(t, (const char *)p, (size_t)n);
      p += n;
    }
  }
  add(t, "\"", 1);
  return 1;
}

typedef struct {
  const char *name;
  const lt_tensor *t;
  const char *d; /* the format's name of its dtype */
  size_t align;
  uint64_t nbytes; /* in the file: sub-byte elements packed */
} item;

static int by_align(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->align != y->align) return x->align > y->align ? -1 : 1;
  return strcmp(x->name, y->name);
}

int lt_safetensors_save(const char *path, int n, const char **names, const lt_tensor **tensors,
                        int has_meta, int nmeta, const char **keys, const char **vals,
                        lt_error *err) {
  item *it = malloc((size_t)(n ? n : 1) * sizeof *it);
  if (!it) return lt_fail(err, LT_ENOMEM, "not enough memory");
  int rc = LT_OK;
  for (int i = 0; i < n && !rc; i++) {
    const lt_tensor *t = tensors[i];
    it[i].name = names[i];
    it[i].t = t;
    it[i].d = lt_st_dtype_name(t->dl_dtype);
    it[i].align = ((size_t)t->dl_dtype.bits * t->dl_dtype.lanes + 7) / 8;
    if (strcmp(names[i], "__metadata__") == 0)
      rc = lt_fail(err, LT_EARG,
                   "%s: '__metadata__' is the format's key for metadata, not a "
                   "tensor name (pass opts.metadata)",
                   path);
    else if (!it[i].d && t->dtype != LT_OPAQUE && lt_dtypes[t->dtype].is_complex)
      rc = lt_fail(err, LT_EARG,
                   "%s: '%s' is %s, which safetensors has no dtype for (it has C64: "
                   "t:to('complex64'), or save the real and imaginary parts as two tensors)",
                   path, names[i], lt_dtype_name(t->dtype));
    else if (!it[i].d)
      rc = lt_fail(err, LT_EARG,
                   "%s: '%s' has DLPack type (code %d, bits %d, lanes %d), which "
                   "safetensors has no dtype for",
                   path, names[i], t->dl_dtype.code, t->dl_dtype.bits, t->dl_dtype.lanes);
    else if (t->dl_dtype.bits < 8 && !t->packed)
      rc = lt_fail(err, LT_EARG,
                   "%s: '%s' holds its %d-bit elements one to a byte (padded), where "
                   "safetensors' %s packs them, in an order the format leaves open",
                   path, names[i], t->dl_dtype.bits, it[i].d);
    else if ((uint64_t)lt_numel(t) * t->dl_dtype.bits % 8)
      rc = lt_fail(err, LT_EARG, "%s: '%s' has %lld elements of %d bits, which fill no whole bytes",
                   path, names[i], (long long)lt_numel(t), t->dl_dtype.bits);
    if (!rc) it[i].nbytes = lt_file_nbytes(t->dl_dtype, (uint64_t)lt_numel(t));
  }
  if (rc) {
    free(it);
    return rc;
  }
  qsort(it, (size_t)n, sizeof *it, by_align);
  text h = {NULL, 0, 0, 0};
  adds(&h, "{");
  int first = 1, ok = 1;
  if (has_meta) {
    adds(&h, "\"__metadata__\":{");
    for (int i = 0; i < nmeta && ok; i++) {
      if (i) adds(&h, ",");
      ok = add_string(&h, keys[i]);
      adds(&h, ":");
      ok = ok && add_string(&h, vals[i]);
    }
    adds(&h, "}");
    first = 0;
  }
  if (!ok) rc = lt_fail(err, LT_EARG, "%s: metadata holds a string that is not UTF-8", path);
  uint64_t at = 0;
  for (int i = 0; i < n && !rc; i++) {
    const lt_tensor *t = it[i].t;
    char num[48];
    if (!first) adds(&h, ",");
    first = 0;
    if (!add_string(&h, it[i].name)) {
      rc = lt_fail(err, LT_EARG, "%s: tensor name is not UTF-8", path);
      break;
    }
    adds(&h, ":{\"dtype\":\"");
    adds(&h, it[i].d);
    adds(&h, "\",\"shape\":[");
    for (int d = 0; d < t->ndim; d++) {
      snprintf(num, sizeof num, d ? ",%lld" : "%lld", (long long)t->shape[d]);
      adds(&h, num);
    }
    uint64_t nbytes = it[i].nbytes;
    snprintf(num, sizeof num, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)at,
             (unsigned long long)(at + nbytes));
    adds(&h, num);
    at += nbytes;
  }
  adds(&h, "}");
  while (!h.failed && h.len % 8) adds(&h, " "); /* the data starts 8-aligned */
  if (!rc && h.failed == 1) rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  if (!rc && h.failed == 2) /* a file its readers (ltensor's too) would refuse */
    rc = lt_fail(err, LT_ERANGE,
                 "%s: header (names, shapes and metadata) would be larger than safetensors "
                 "readers accept (%llu bytes)",
                 path, (unsigned long long)LT_ST_MAX_HEADER);
  lt_file_out w;
  if (!rc && !(rc = lt_file_create(&w, path, err))) {
    unsigned char pre[8];
    for (int i = 0; i < 8; i++) pre[i] = (unsigned char)((uint64_t)h.len >> (8 * i));
    lt_file_reserve(&w, 8 + h.len + at);
    if (!(rc = lt_file_write(&w, pre, 8, err))) rc = lt_file_write(&w, h.p, h.len, err);
    for (int i = 0; i < n && !rc; i++) {
      const void *data;
      lt_tensor *owned;
      if ((rc = lt_file_named(path, lt_file_bytes(it[i].t, &data, &owned, err), err))) break;
      rc = lt_file_write(&w, data, (size_t)it[i].nbytes, err);
      lt_tensor_free(owned);
    }
    if (rc)
      lt_file_abort(&w);
    else
      rc = lt_file_commit(&w, err);
  }
  free(h.p);
  free(it);
  return rc;
}

/* }====== */
