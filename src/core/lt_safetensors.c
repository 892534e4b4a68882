/*
 * lt_safetensors.c -- the .safetensors format (see lt_safetensors.h): a strict JSON parser for
 * just the header's shape (objects, strings, arrays of non-negative integers), the checks of
 * the offsets, loading (read or mapped) and saving.
 */
#include "lt_safetensors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====== dtypes ====== */

typedef struct {
  const char *name;
  lt_dtype dt;
  DLDataType dl;
} st_dtype;

#define ST_OWN(n, E)       \
  {                        \
    n, LT_##E, { 0, 0, 0 } \
  }
#define ST_F8(n, code)           \
  {                              \
    n, LT_OPAQUE, { code, 8, 1 } \
  }
static const st_dtype st_dtypes[] = {
    ST_OWN("BOOL", BOOL),
    ST_OWN("U8", UINT8),
    ST_OWN("I8", INT8),
    ST_OWN("I16", INT16),
    ST_OWN("I32", INT32),
    ST_OWN("I64", INT64),
    ST_OWN("U16", UINT16),
    ST_OWN("U32", UINT32),
    ST_OWN("U64", UINT64),
    ST_OWN("F16", FLOAT16),
    ST_OWN("BF16", BFLOAT16),
    ST_OWN("F32", FLOAT32),
    ST_OWN("F64", FLOAT64),
    ST_F8("F8_E4M3", kDLFloat8_e4m3fn),
    ST_F8("F8_E5M2", kDLFloat8_e5m2),
    ST_F8("F8_E8M0", kDLFloat8_e8m0fnu),
};
#define ST_NDTYPES ((int)(sizeof st_dtypes / sizeof st_dtypes[0]))

static DLDataType st_dl(const st_dtype *d) {
  return d->dt == LT_OPAQUE ? d->dl : lt_dtypes[d->dt].dl;
}

static const st_dtype *dtype_by_name(const char *s, size_t n) {
  for (int i = 0; i < ST_NDTYPES; i++)
    if (strlen(st_dtypes[i].name) == n && memcmp(st_dtypes[i].name, s, n) == 0)
      return &st_dtypes[i];
  return NULL;
}

static const st_dtype *dtype_of(const lt_tensor *t) {
  for (int i = 0; i < ST_NDTYPES; i++) {
    DLDataType d = st_dl(&st_dtypes[i]);
    if (d.code == t->dl_dtype.code && d.bits == t->dl_dtype.bits && d.lanes == t->dl_dtype.lanes)
      return &st_dtypes[i];
  }
  return NULL;
}

/* }====== */

/* {====== the JSON of the header ====== */

typedef struct {
  const unsigned char *p, *end;
  lt_error *err;
  char *buf; /* the last string read, UTF-8, NUL-terminated */
  size_t len, cap;
  const unsigned char *start;
} json;

static void ws(json *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static int bad(json *j, const char *what) {
  return lt_fail(j->err, LT_EARG, "header is not valid JSON (%s at byte %ld of the header)", what,
                 (long)(j->p - j->start));
}

static int put(json *j, unsigned c) {
  if (j->len + 1 >= j->cap) {
    size_t cap = j->cap ? 2 * j->cap : 64;
    char *b = realloc(j->buf, cap);
    if (!b) return lt_fail(j->err, LT_ENOMEM, "not enough memory");
    j->buf = b;
    j->cap = cap;
  }
  j->buf[j->len++] = (char)c;
  return LT_OK;
}

static int put_utf8(json *j, unsigned cp) {
  int rc = 0;
  if (cp < 0x80) return put(j, cp);
  if (cp < 0x800) return put(j, 0xC0 | cp >> 6) || put(j, 0x80 | (cp & 0x3F));
  if (cp < 0x10000)
    rc = put(j, 0xE0 | cp >> 12) || put(j, 0x80 | (cp >> 6 & 0x3F)) || put(j, 0x80 | (cp & 0x3F));
  else
    rc = put(j, 0xF0 | cp >> 18) || put(j, 0x80 | (cp >> 12 & 0x3F)) ||
         put(j, 0x80 | (cp >> 6 & 0x3F)) || put(j, 0x80 | (cp & 0x3F));
  return rc ? LT_ENOMEM : LT_OK;
}

/* Length of the valid UTF-8 sequence at p (< end), 0 when invalid. */
static int utf8_len(const unsigned char *p, const unsigned char *end) {
  unsigned c = p[0];
  int n = c < 0x80                 ? 1
          : c >= 0xC2 && c <= 0xDF ? 2
          : c >= 0xE0 && c <= 0xEF ? 3
          : c >= 0xF0 && c <= 0xF4 ? 4
                                   : 0;
  if (n == 0 || end - p < n) return 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && p[1] < 0xA0) return 0; /* overlong */
  if (c == 0xED && p[1] > 0x9F) return 0; /* surrogates */
  if (c == 0xF0 && p[1] < 0x90) return 0; /* overlong */
  if (c == 0xF4 && p[1] > 0x8F) return 0; /* beyond U+10FFFF */
  return n;
}

static int hex4(json *j, unsigned *v) {
  if (j->end - j->p < 4) return bad(j, "a truncated \\u escape");
  *v = 0;
  for (int i = 0; i < 4; i++) {
    unsigned c = j->p[i], d = c >= '0' && c <= '9'                     ? c - '0'
                              : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                                       : 16;
    if (d == 16) return bad(j, "a bad \\u escape");
    *v = *v << 4 | d;
  }
  j->p += 4;
  return LT_OK;
}

/* A string into j->buf. */
static int string(json *j) {
  ws(j);
  if (j->p >= j->end || *j->p != '"') return bad(j, "expected a string");
  j->p++;
  j->len = 0;
  for (;;) {
    if (j->p >= j->end) return bad(j, "an unterminated string");
    unsigned c = *j->p;
    if (c == '"') break;
    if (c < 0x20) return bad(j, "a control character in a string");
    int rc;
    if (c == '\\') {
      if (++j->p >= j->end) return bad(j, "an unterminated string");
      c = *j->p++;
      switch (c) {
        case '"':
        case '\\':
        case '/': rc = put(j, c); break;
        case 'b': rc = put(j, '\b'); break;
        case 'f': rc = put(j, '\f'); break;
        case 'n': rc = put(j, '\n'); break;
        case 'r': rc = put(j, '\r'); break;
        case 't': rc = put(j, '\t'); break;
        case 'u': {
          unsigned cp, lo;
          if ((rc = hex4(j, &cp))) return rc;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return bad(j, "a lone surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u')
              return bad(j, "a lone surrogate");
            j->p += 2;
            if ((rc = hex4(j, &lo))) return rc;
            if (lo < 0xDC00 || lo > 0xDFFF) return bad(j, "a lone surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          if (cp == 0) return bad(j, "a NUL character in a string");
          rc = put_utf8(j, cp);
          break;
        }
        default: return bad(j, "a bad escape");
      }
    } else {
      int n = utf8_len(j->p, j->end);
      if (!n) return bad(j, "a string that is not UTF-8");
      rc = 0;
      for (int i = 0; i < n && !rc; i++) rc = put(j, j->p[i]);
      j->p += n;
    }
    if (rc) return rc;
  }
  j->p++;
  if (put(j, 0)) return LT_ENOMEM;
  j->len--;
  return LT_OK;
}

static int punct(json *j, char c) {
  ws(j);
  if (j->p < j->end && *j->p == (unsigned char)c) {
    j->p++;
    return 1;
  }
  return 0;
}

static int need(json *j, char c) {
  if (punct(j, c)) return LT_OK;
  char what[24];
  snprintf(what, sizeof what, "expected '%c'", c);
  return bad(j, what);
}

/* A non-negative integer below 2^63. */
static int integer(json *j, uint64_t *v) {
  ws(j);
  if (j->p >= j->end || *j->p < '0' || *j->p > '9')
    return bad(j, "expected a non-negative integer");
  if (*j->p == '0' && j->end - j->p > 1 && j->p[1] >= '0' && j->p[1] <= '9')
    return bad(j, "a number with a leading zero");
  *v = 0;
  while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
    if (*v > ((uint64_t)INT64_MAX - 9) / 10)
      return lt_fail(j->err, LT_ERANGE, "header holds an integer beyond 2^63");
    *v = *v * 10 + (uint64_t)(*j->p++ - '0');
  }
  if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
    return bad(j, "a number that is not an integer");
  return LT_OK;
}

/* {"k": "v", ...} into set's metadata. */
static int metadata(json *j, lt_file_set *set) {
  int rc;
  if ((rc = need(j, '{'))) return rc;
  set->has_meta = 1;
  if (punct(j, '}')) return LT_OK;
  do {
    if ((rc = string(j))) return rc;
    for (int i = 0; i < set->nmeta; i++)
      if (strcmp(set->meta_keys[i], j->buf) == 0)
        return lt_fail(j->err, LT_EARG, "header has metadata key '%s' twice", j->buf);
    if ((set->nmeta & (set->nmeta - 1)) == 0) {
      size_t cap = set->nmeta ? 2 * (size_t)set->nmeta : 1;
      char **k = realloc(set->meta_keys, cap * sizeof *k);
      if (k) set->meta_keys = k;
      char **v = k ? realloc(set->meta_vals, cap * sizeof *v) : NULL;
      if (v) set->meta_vals = v;
      if (!k || !v) return lt_fail(j->err, LT_ENOMEM, "not enough memory");
    }
    char *key = malloc(j->len + 1);
    if (!key) return lt_fail(j->err, LT_ENOMEM, "not enough memory");
    memcpy(key, j->buf, j->len + 1);
    if ((rc = need(j, ':'))) {
      free(key);
      return rc;
    }
    ws(j);
    if (j->p < j->end && *j->p != '"') {
      lt_fail(j->err, LT_EARG, "__metadata__ value of '%s' is not a string", key);
      free(key);
      return LT_EARG;
    }
    if ((rc = string(j))) {
      free(key);
      return rc;
    }
    char *val = malloc(j->len + 1);
    if (!val) {
      free(key);
      return lt_fail(j->err, LT_ENOMEM, "not enough memory");
    }
    memcpy(val, j->buf, j->len + 1);
    set->meta_keys[set->nmeta] = key;
    set->meta_vals[set->nmeta++] = val;
  } while (punct(j, ','));
  return need(j, '}');
}

/* {"dtype": ..., "shape": [...], "data_offsets": [b, e]} of the tensor named name. */
static int entry(json *j, const char *name, lt_st_entry *e) {
  int rc, seen[3] = {0, 0, 0};
  if ((rc = need(j, '{'))) return rc;
  do {
    if ((rc = string(j))) return rc;
    int k = strcmp(j->buf, "dtype") == 0          ? 0
            : strcmp(j->buf, "shape") == 0        ? 1
            : strcmp(j->buf, "data_offsets") == 0 ? 2
                                                  : -1;
    if (k < 0) return lt_fail(j->err, LT_EARG, "tensor '%s' has an unknown key '%s'", name, j->buf);
    if (seen[k]++) return lt_fail(j->err, LT_EARG, "tensor '%s' has key '%s' twice", name, j->buf);
    if ((rc = need(j, ':'))) return rc;
    if (k == 0) {
      if ((rc = string(j))) return rc;
      const st_dtype *d = dtype_by_name(j->buf, j->len);
      if (!d)
        return lt_fail(j->err, LT_EARG, "tensor '%s' has dtype '%s', which ltensor does not read",
                       name, j->buf);
      e->dtype = d->dt;
      e->dl = st_dl(d);
    } else if (k == 1) {
      if ((rc = need(j, '['))) return rc;
      e->ndim = 0;
      if (!punct(j, ']')) {
        do {
          uint64_t v;
          if (e->ndim == LT_MAX_NDIM)
            return lt_fail(j->err, LT_EARG, "tensor '%s' has more than %d dims", name, LT_MAX_NDIM);
          if ((rc = integer(j, &v))) return rc;
          e->shape[e->ndim++] = (int64_t)v;
        } while (punct(j, ','));
        if ((rc = need(j, ']'))) return rc;
      }
    } else {
      if ((rc = need(j, '[')) || (rc = integer(j, &e->begin)) || (rc = need(j, ',')) ||
          (rc = integer(j, &e->end)) || (rc = need(j, ']')))
        return rc;
    }
  } while (punct(j, ','));
  if ((rc = need(j, '}'))) return rc;
  for (int k = 0; k < 3; k++)
    if (!seen[k])
      return lt_fail(j->err, LT_EARG, "tensor '%s' lacks '%s'", name,
                     k == 0   ? "dtype"
                     : k == 1 ? "shape"
                              : "data_offsets");
  int64_t numel;
  lt_error why;
  if (lt_shape_numel(e->ndim, e->shape, &numel, &why) ||
      (uint64_t)numel > UINT64_MAX / (e->dl.bits / 8))
    return lt_fail(j->err, LT_ERANGE, "tensor '%s' has too many elements (overflow)", name);
  uint64_t nbytes = (uint64_t)numel * (e->dl.bits / 8);
  if (e->end < e->begin || e->end - e->begin != nbytes)
    return lt_fail(j->err, LT_EARG,
                   "tensor '%s' of %lld elements needs %llu bytes but its data_offsets [%llu, "
                   "%llu] hold %lld",
                   name, (long long)numel, (unsigned long long)nbytes, (unsigned long long)e->begin,
                   (unsigned long long)e->end, (long long)(e->end - e->begin));
  return LT_OK;
}

/* }====== */

/* {====== parsing ====== */

static int by_offset(const void *a, const void *b) {
  const lt_st_entry *x = *(lt_st_entry *const *)a, *y = *(lt_st_entry *const *)b;
  if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Sorts set's names and the entries by offset and checks that they tile the data. */
static int tile(lt_file_set *set, lt_st_entry **entries, uint64_t data_len, lt_error *err) {
  int n = set->n;
  lt_st_entry *e = *entries;
  lt_st_entry **order = malloc((size_t)(n ? n : 1) * sizeof *order);
  lt_st_entry *sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted);
  char **names = malloc((size_t)(n ? n : 1) * sizeof *names);
  if (!order || !sorted || !names) {
    free(order);
    free(sorted);
    free(names);
    return lt_fail(err, LT_ENOMEM, "not enough memory");
  }
  for (int i = 0; i < n; i++) order[i] = &e[i];
  qsort(order, (size_t)n, sizeof *order, by_offset);
  for (int i = 0; i < n; i++) {
    sorted[i] = *order[i];
    names[i] = set->names[order[i] - e];
  }
  free(order);
  if (n > 0) memcpy(set->names, names, (size_t)n * sizeof *names); /* none: set->names NULL */
  free(names);
  free(e);
  *entries = sorted;
  uint64_t at = 0;
  for (int i = 0; i < n; i++) {
    if (sorted[i].begin > at)
      return lt_fail(err, LT_EARG, "data has a hole: bytes %llu to %llu belong to no tensor",
                     (unsigned long long)at, (unsigned long long)sorted[i].begin);
    if (sorted[i].begin < at)
      return lt_fail(err, LT_EARG,
                     "tensor '%s' overlaps the one before it (data_offsets start at "
                     "%llu, before %llu)",
                     set->names[i], (unsigned long long)sorted[i].begin, (unsigned long long)at);
    at = sorted[i].end;
  }
  if (at != data_len)
    return lt_fail(err, LT_EARG,
                   "tensors cover %llu bytes of data but the file holds %llu after "
                   "the header",
                   (unsigned long long)at, (unsigned long long)data_len);
  return LT_OK;
}

int lt_safetensors_parse(const void *header, size_t len, uint64_t data_len, lt_file_set *set,
                         lt_st_entry **entries, lt_error *err) {
  json j = {header, (const unsigned char *)header + len, err, NULL, 0, 0, header};
  lt_st_entry *e = NULL;
  size_t cap = 0;
  int rc = need(&j, '{');
  if (!rc && !punct(&j, '}')) {
    do {
      if ((rc = string(&j))) break;
      if (strcmp(j.buf, "__metadata__") == 0) {
        if (set->has_meta) {
          rc = lt_fail(err, LT_EARG, "header has __metadata__ twice");
          break;
        }
        if ((rc = need(&j, ':')) || (rc = metadata(&j, set))) break;
        continue;
      }
      for (int i = 0; i < set->n && !rc; i++)
        if (strcmp(set->names[i], j.buf) == 0)
          rc = lt_fail(err, LT_EARG, "header names tensor '%s' twice", j.buf);
      if (rc) break;
      if ((size_t)set->n == cap) {
        cap = cap ? 2 * cap : 8;
        lt_st_entry *ne = realloc(e, cap * sizeof *e);
        if (!ne) {
          rc = lt_fail(err, LT_ENOMEM, "not enough memory");
          break;
        }
        e = ne;
      }
      if ((rc = lt_file_set_add(set, j.buf, j.len, err))) break;
      if ((rc = need(&j, ':')) || (rc = entry(&j, set->names[set->n - 1], &e[set->n - 1]))) break;
    } while (punct(&j, ','));
    if (!rc) rc = need(&j, '}');
  }
  if (!rc) {
    ws(&j);
    if (j.p != j.end) rc = bad(&j, "bytes after the header's object");
  }
  free(j.buf);
  if (!rc && !e && !(e = malloc(sizeof *e))) rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  if (!rc) rc = tile(set, &e, data_len, err);
  if (rc) {
    free(e);
    return rc;
  }
  *entries = e;
  return LT_OK;
}

/* }====== */

/* {====== loading and saving ====== */

static int named(const char *name, int rc, lt_error *err) {
  if (rc && err) {
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    lt_fail(err, rc, "%s: %s", name, msg);
  }
  return rc;
}

int lt_safetensors_load(const char *path, int map, lt_file_set *set, lt_error *err) {
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
  if ((rc =
           named(path, lt_safetensors_parse(head, (size_t)hlen, f.size - data, set, &e, err), err)))
    goto done;
  if (map) {
    for (int i = 0; i < set->n; i++)
      if ((data + e[i].begin) % (e[i].dl.bits / 8) && e[i].end > e[i].begin) {
        rc = lt_fail(err, LT_EARG,
                     "%s: tensor '%s' at byte %llu is not aligned for its dtype, so "
                     "it cannot be mapped; load it without mmap",
                     path, set->names[i], (unsigned long long)(data + e[i].begin));
        goto done;
      }
    if ((rc = lt_file_map(&f, &st, err))) goto done;
  }
  for (int i = 0; i < set->n; i++) {
    lt_storage *own = st;
    uint64_t off = data + e[i].begin, nbytes = e[i].end - e[i].begin;
    if (!map) {
      if (!(own = lt_storage_new((size_t)nbytes, 0))) {
        rc = lt_fail_nomem_at(err, (size_t)nbytes, "%s: tensor '%s': ", path, set->names[i]);
        goto done;
      }
      rc = lt_file_pread(&f, off, own->data, (size_t)nbytes, err);
      off = 0;
    }
    if (!rc)
      rc = lt_file_tensor(own, e[i].dtype, e[i].dl, e[i].ndim, e[i].shape, 0, nbytes ? off : 0,
                          &set->tensors[i], err);
    if (!map) lt_storage_release(own);
    if (rc) goto done;
    if (map) set->tensors[i]->readonly = LT_RO_MAPPED;
    if (!map && e[i].dtype == LT_BOOL) {
      char *p = own->data;
      for (uint64_t k = 0; k < nbytes; k++) p[k] = p[k] != 0;
    }
  }
done:
  lt_storage_release(st);
  free(head);
  free(e);
  lt_file_close(&f);
  if (rc) lt_file_set_free(set);
  return rc;
}

/* A growing buffer for the header. */
typedef struct {
  char *p;
  size_t len, cap;
  int failed;
} text;

static void add(text *t, const char *s, size_t n) {
  if (t->failed) return;
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
  add(t, "\"", 1);
  while (p < end) {
    char esc[8];
    if (*p == '"' || *p == '\\') {
      esc[0] = '\\';
      esc[1] = (char)*p++;
      add(t, esc, 2);
    } else if (*p < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", *p++);
      add(t, esc, 6);
    } else {
      int n = utf8_len(p, end);
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
  const st_dtype *d;
  size_t align;
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
    it[i].d = dtype_of(t);
    it[i].align = ((size_t)t->dl_dtype.bits * t->dl_dtype.lanes + 7) / 8;
    if (strcmp(names[i], "__metadata__") == 0)
      rc = lt_fail(err, LT_EARG,
                   "%s: '__metadata__' is the format's key for metadata, not a "
                   "tensor name (pass opts.metadata)",
                   path);
    else if (!it[i].d && t->dtype != LT_OPAQUE && lt_dtypes[t->dtype].is_complex)
      rc = lt_fail(err, LT_EARG,
                   "%s: '%s' is %s, which safetensors has no dtype for (save the "
                   "real and imaginary parts as two tensors)",
                   path, names[i], lt_dtypes[t->dtype].name);
    else if (!it[i].d)
      rc = lt_fail(err, LT_EARG,
                   "%s: '%s' has DLPack type (code %d, bits %d, lanes %d), which "
                   "safetensors has no dtype for",
                   path, names[i], t->dl_dtype.code, t->dl_dtype.bits, t->dl_dtype.lanes);
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
    adds(&h, it[i].d->name);
    adds(&h, "\",\"shape\":[");
    for (int d = 0; d < t->ndim; d++) {
      snprintf(num, sizeof num, d ? ",%lld" : "%lld", (long long)t->shape[d]);
      adds(&h, num);
    }
    uint64_t nbytes = (uint64_t)lt_numel(t) * it[i].align;
    snprintf(num, sizeof num, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)at,
             (unsigned long long)(at + nbytes));
    adds(&h, num);
    at += nbytes;
  }
  adds(&h, "}");
  while (!h.failed && h.len % 8) adds(&h, " "); /* the data starts 8-aligned */
  if (!rc && h.failed) rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  lt_file_out w;
  if (!rc && !(rc = lt_file_create(&w, path, err))) {
    unsigned char pre[8];
    for (int i = 0; i < 8; i++) pre[i] = (unsigned char)((uint64_t)h.len >> (8 * i));
    lt_file_reserve(&w, 8 + h.len + at);
    if (!(rc = lt_file_write(&w, pre, 8, err))) rc = lt_file_write(&w, h.p, h.len, err);
    for (int i = 0; i < n && !rc; i++) {
      const void *data;
      lt_tensor *owned;
      if ((rc = named(path, lt_file_bytes(it[i].t, &data, &owned, err), err))) break;
      rc = lt_file_write(&w, data, (size_t)lt_numel(it[i].t) * it[i].align, err);
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
