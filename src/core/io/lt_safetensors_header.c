/*
 * lt_safetensors_header.c -- the header of a .safetensors file (see lt_safetensors.h): the
 * format's dtypes, a strict JSON parser for just the header's shape (objects, strings, arrays of
 * non-negative integers), and lt_safetensors_parse: the entries, their sizes, names given once,
 * and offsets that tile the data. Loading and saving are lt_safetensors.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_safetensors.h"

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
#define ST_OPAQUE(n, code, bits)    \
  {                                 \
    n, LT_OPAQUE, { code, bits, 1 } \
  }
/* Every dtype of the format. Those ltensor cannot compute with are kept as opaque tensors; the
   sub-byte ones (F4, F6_*) are packed in the file, 2 or 4/3 to a byte, and stay packed. */
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
    ST_OWN("C64", COMPLEX64),
    ST_OPAQUE("F8_E4M3", kDLFloat8_e4m3fn, 8),
    ST_OPAQUE("F8_E5M2", kDLFloat8_e5m2, 8),
    ST_OPAQUE("F8_E4M3FNUZ", kDLFloat8_e4m3fnuz, 8),
    ST_OPAQUE("F8_E5M2FNUZ", kDLFloat8_e5m2fnuz, 8),
    ST_OPAQUE("F8_E8M0", kDLFloat8_e8m0fnu, 8),
    ST_OPAQUE("F4", kDLFloat4_e2m1fn, 4),
    ST_OPAQUE("F6_E2M3", kDLFloat6_e2m3fn, 6),
    ST_OPAQUE("F6_E3M2", kDLFloat6_e3m2fn, 6),
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

const char *lt_st_dtype_name(DLDataType dl) {
  for (int i = 0; i < ST_NDTYPES; i++) {
    DLDataType d = st_dl(&st_dtypes[i]);
    if (d.code == dl.code && d.bits == dl.bits && d.lanes == dl.lanes) return st_dtypes[i].name;
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

int lt_st_utf8_len(const unsigned char *p, const unsigned char *end) {
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
      int n = lt_st_utf8_len(j->p, j->end);
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
  if ((rc = need(j, '}'))) return rc;
  int dup;
  if ((rc = lt_file_find_duplicate((const char *const *)set->meta_keys, set->nmeta, &dup, j->err)))
    return rc;
  if (dup >= 0)
    return lt_fail(j->err, LT_EARG, "header has metadata key '%s' twice", set->meta_keys[dup]);
  return LT_OK;
}

/* {"dtype": ..., "shape": [...], "data_offsets": [b, e]} of set's tensor i. A dtype ltensor
   does not know raises when strict, else marks the entry skipped (set's why[i] says why): its
   offsets still count, its size cannot be checked. */
static int entry(json *j, lt_file_set *set, int i, int strict, lt_st_entry *e) {
  const char *name = set->names[i];
  int rc, seen[3] = {0, 0, 0};
  e->skip = 0;
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
      if (!d && strict)
        return lt_fail(j->err, LT_EARG,
                       "tensor '%s' has dtype '%s', which ltensor does not read (load with "
                       "{strict = false} to leave it out)",
                       name, j->buf);
      if (!d) {
        char why[160];
        snprintf(why, sizeof why, "dtype '%.100s' is not one ltensor reads", j->buf);
        if ((rc = lt_file_set_skip(set, i, why, j->err))) return rc;
        e->skip = 1;
        e->dtype = LT_OPAQUE;
        e->dl = (DLDataType){0, 0, 0};
      } else {
        e->dtype = d->dt;
        e->dl = st_dl(d);
      }
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
  uint64_t bits = e->skip ? 8 : e->dl.bits;
  if (lt_shape_numel(e->ndim, e->shape, &numel, &why) || (uint64_t)numel > UINT64_MAX / bits)
    return lt_fail(j->err, LT_ERANGE, "tensor '%s' has too many elements (overflow)", name);
  if ((uint64_t)numel * bits % 8)
    return lt_fail(j->err, LT_EARG,
                   "tensor '%s' of %lld elements of %d bits does not fill whole bytes", name,
                   (long long)numel, (int)bits);
  uint64_t nbytes = (uint64_t)numel * bits / 8;
  if (e->skip) {
    if (e->end < e->begin)
      return lt_fail(j->err, LT_EARG,
                     "tensor '%s' has data_offsets [%llu, %llu] that end before "
                     "they begin",
                     name, (unsigned long long)e->begin, (unsigned long long)e->end);
    return LT_OK;
  }
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
  char **names = malloc(2 * (size_t)(n ? n : 1) * sizeof *names), **why = names + n;
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
    why[i] = set->why[order[i] - e];
  }
  free(order);
  if (n > 0) { /* none: set's arrays are NULL */
    memcpy(set->names, names, (size_t)n * sizeof *names);
    memcpy(set->why, why, (size_t)n * sizeof *why);
  }
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

int lt_safetensors_parse(const void *header, size_t len, uint64_t data_len, int strict,
                         lt_file_set *set, lt_st_entry **entries, lt_error *err) {
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
      if ((rc = need(&j, ':')) || (rc = entry(&j, set, set->n - 1, strict, &e[set->n - 1]))) break;
    } while (punct(&j, ','));
    if (!rc) rc = need(&j, '}');
  }
  int dup;
  if (!rc && !(rc = lt_file_find_duplicate((const char *const *)set->names, set->n, &dup, err)) &&
      dup >= 0)
    rc = lt_fail(err, LT_EARG, "header names tensor '%s' twice", set->names[dup]);
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
