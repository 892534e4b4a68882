/*
 * lt_zip.c -- zip archives for .npz (see lt_zip.h): the central directory (classic and zip64),
 * member extraction with CRC checks, inflate and deflate through zlib when the build has it,
 * and the .npz loader and writer on top.
 */
#include "lt_zip.h"

#include "lt_account.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_npy.h"

#ifdef LTENSOR_HAVE_ZLIB
#include <zlib.h>
#endif

enum {
  SIG_LOCAL = 0x04034b50,
  SIG_CENTRAL = 0x02014b50,
  SIG_END = 0x06054b50,
  SIG_END64 = 0x06064b50,
  SIG_LOC64 = 0x07064b50,
  LOCAL_LEN = 30,
  CENTRAL_LEN = 46,
  END_LEN = 22,
  END64_LEN = 56,
  LOC64_LEN = 20,
};

static uint64_t rd16(const unsigned char *p) { return (uint64_t)p[0] | (uint64_t)p[1] << 8; }
static uint64_t rd32(const unsigned char *p) { return rd16(p) | rd16(p + 2) << 16; }
static uint64_t rd64(const unsigned char *p) { return rd32(p) | rd32(p + 4) << 32; }
static void wr16(unsigned char *p, uint64_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
static void wr32(unsigned char *p, uint64_t v) {
  wr16(p, v);
  wr16(p + 2, v >> 16);
}
static void wr64(unsigned char *p, uint64_t v) {
  wr32(p, v);
  wr32(p + 4, v >> 32);
}

/* {====== CRC-32 ====== */

#ifdef LTENSOR_HAVE_ZLIB
uint32_t lt_zip_crc32(uint32_t crc, const void *p, size_t n) {
  const unsigned char *b = p;
  while (n > 0) { /* zlib takes an unsigned int of bytes at a time */
    unsigned chunk = n > (1u << 30) ? 1u << 30 : (unsigned)n;
    crc = (uint32_t)crc32(crc, b, chunk);
    b += chunk;
    n -= chunk;
  }
  return crc;
}
int lt_zip_can_deflate(void) { return 1; }
#else
static uint32_t crc_table[256];
static void crc_init(void) { /* idempotent: racing threads write the same values */
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}
uint32_t lt_zip_crc32(uint32_t crc, const void *p, size_t n) {
  if (!crc_table[1]) crc_init();
  const unsigned char *b = p;
  crc = ~crc;
  for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ b[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}
int lt_zip_can_deflate(void) { return 0; }
#endif

/* }====== */

/* {====== the central directory ====== */

void lt_zip_dir_free(lt_zip_dir *dir) {
  for (int i = 0; i < dir->n; i++) free(dir->e[i].name);
  free(dir->e);
  dir->e = NULL;
  dir->n = 0;
}

/* The zip64 extended information of a central entry: the fields whose classic value is all
   ones, in the order usize, csize, local offset. */
static int zip64_fields(const unsigned char *x, size_t xlen, lt_zip_entry *e, int need_u,
                        int need_c, int need_o, lt_error *err) {
  size_t at = 0;
  while (at + 4 <= xlen) {
    uint64_t id = rd16(x + at), len = rd16(x + at + 2);
    if (at + 4 + len > xlen) break;
    if (id == 1) {
      const unsigned char *f = x + at + 4;
      uint64_t want = 8 * (uint64_t)(need_u + need_c + need_o);
      if (len < want) break;
      if (need_u) e->usize = rd64(f), f += 8;
      if (need_c) e->csize = rd64(f), f += 8;
      if (need_o) e->local = rd64(f);
      return LT_OK;
    }
    at += 4 + len;
  }
  return lt_fail(err, LT_EARG, "member '%s' lacks the zip64 sizes its entry refers to", e->name);
}

/* A member's start and index, for sorting by start. */
typedef struct {
  uint64_t local;
  int i;
} member_start;

static int by_start(const void *a, const void *b) {
  const member_start *x = a, *y = b;
  if (x->local != y->local) return x->local < y->local ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/*
 * Sorts the members by where they start and checks that each one's least span (local header,
 * its name, the compressed bytes) ends before the next starts, or before the directory; gives
 * each its limit, which lt_zip_extract holds the real span to (the local header's own name
 * and extra lengths are read only there). An archive whose directory points several members at
 * one stretch of bytes (a zip bomb made of references) fails here.
 */
static int check_spans(lt_zip_dir *dir, lt_error *err) {
  int n = dir->n;
  member_start *order = malloc((n > 0 ? (size_t)n : 1) * sizeof *order);
  if (!order) return lt_fail(err, LT_ENOMEM, "not enough memory");
  for (int i = 0; i < n; i++) order[i] = (member_start){dir->e[i].local, i};
  qsort(order, (size_t)n, sizeof *order, by_start);
  int rc = LT_OK;
  for (int k = 0; k < n && !rc; k++) {
    lt_zip_entry *e = &dir->e[order[k].i];
    e->next = k + 1 < n ? order[k + 1].i : -1;
    e->limit = k + 1 < n ? order[k + 1].local : dir->cd_off;
    uint64_t least = LOCAL_LEN + (uint64_t)strlen(e->name) + e->csize; /* no overflow: < 2^64 */
    if (e->local > e->limit || least > e->limit - e->local)
      rc = e->next >= 0
               ? lt_fail(err, LT_EARG, "members '%s' and '%s' overlap", e->name,
                         dir->e[e->next].name)
               : lt_fail(err, LT_EARG, "member '%s' overlaps the central directory", e->name);
  }
  free(order);
  return rc;
}

/* Where the central directory lies: its member count, size and offset, and the offset it must
   end by (the first end record). */
typedef struct {
  uint64_t count, size, off, limit;
} cd_place;

/* The zip64 end record, found through the locator just before the classic end record at
   end_off: the directory's place from there. */
static int read_end64(lt_zip_read_fn rd, void *ctx, uint64_t end_off, cd_place *cd, lt_error *err) {
  unsigned char loc[LOC64_LEN], e64[END64_LEN];
  int rc;
  if (end_off < LOC64_LEN)
    return lt_fail(err, LT_EARG, "archive lacks its zip64 end record locator");
  if ((rc = rd(ctx, end_off - LOC64_LEN, loc, LOC64_LEN, err))) return rc;
  uint64_t e64_off = rd64(loc + 8);
  if (rd32(loc) != SIG_LOC64 || e64_off > end_off - LOC64_LEN ||
      end_off - LOC64_LEN - e64_off < END64_LEN)
    return lt_fail(err, LT_EARG, "archive lacks a valid zip64 end record");
  if ((rc = rd(ctx, e64_off, e64, END64_LEN, err))) return rc;
  if (rd32(e64) != SIG_END64 || rd32(e64 + 16) != 0 || rd32(e64 + 20) != 0 ||
      rd64(e64 + 24) != rd64(e64 + 32))
    return lt_fail(err, LT_EARG, "archive has an invalid zip64 end record");
  cd->count = rd64(e64 + 32);
  cd->size = rd64(e64 + 40);
  cd->off = rd64(e64 + 48);
  cd->limit = e64_off;
  return LT_OK;
}

/* The end record in the archive's last tail_len bytes (read into tail, at tail_off): the last
   signature whose comment reaches exactly to the end; then the directory's place, checked
   against the archive's bounds. */
static int read_end(lt_zip_read_fn rd, void *ctx, const unsigned char *tail, size_t tail_len,
                    uint64_t tail_off, cd_place *cd, lt_error *err) {
  long at = -1;
  for (long i = (long)tail_len - END_LEN; i >= 0 && at < 0; i--)
    if (rd32(tail + i) == SIG_END && rd16(tail + i + 20) == tail_len - (size_t)i - END_LEN) at = i;
  if (at < 0)
    return lt_fail(err, LT_EARG, "not a zip archive (no end of central directory record)");
  const unsigned char *end = tail + at;
  uint64_t end_off = tail_off + (uint64_t)at;
  *cd = (cd_place){rd16(end + 10), rd32(end + 12), rd32(end + 16), end_off};
  if (rd16(end + 4) != 0 || rd16(end + 6) != 0 || rd16(end + 8) != cd->count)
    return lt_fail(err, LT_EARG, "archive spans several disks, which ltensor does not read");
  int rc;
  if ((cd->count == 0xFFFF || cd->size == 0xFFFFFFFF || cd->off == 0xFFFFFFFF) &&
      (rc = read_end64(rd, ctx, end_off, cd, err)))
    return rc;
  if (cd->off > cd->limit || cd->size > cd->limit - cd->off)
    return lt_fail(err, LT_EARG, "central directory (%llu bytes at %llu) lies outside the archive",
                   (unsigned long long)cd->size, (unsigned long long)cd->off);
  if (cd->count > cd->size / CENTRAL_LEN || cd->count > (uint64_t)INT32_MAX)
    return lt_fail(err, LT_EARG, "central directory claims %llu members but holds %llu bytes",
                   (unsigned long long)cd->count, (unsigned long long)cd->size);
  return LT_OK;
}

/* A member's sizes and place that disagree or lie outside the archive (before the directory at
   cd_off). */
static int check_sizes(const lt_zip_entry *e, uint64_t cd_off, lt_error *err) {
  if (e->method == 0 && e->usize != e->csize)
    return lt_fail(err, LT_EARG, "stored member '%s' has sizes %llu and %llu", e->name,
                   (unsigned long long)e->csize, (unsigned long long)e->usize);
  if (e->local > cd_off || e->csize > cd_off - e->local)
    return lt_fail(err, LT_EARG, "member '%s' (%llu bytes at %llu) lies outside the archive",
                   e->name, (unsigned long long)e->csize, (unsigned long long)e->local);
  /* deflate shrinks by at most 1032:1: a larger claim is a lie, refused before allocating */
  if (e->method == 8 && e->usize / 1032 > e->csize + 64)
    return lt_fail(err, LT_EARG,
                   "member '%s' claims %llu bytes from %llu compressed (deflate expands at most "
                   "1032 times)",
                   e->name, (unsigned long long)e->usize, (unsigned long long)e->csize);
  return LT_OK;
}

/* The central entry at c, avail bytes before the directory's end, as member dir->n (its name
   allocated, counted in dir->n at once so that lt_zip_dir_free frees it); *len its length. */
static int read_entry(const unsigned char *c, uint64_t avail, uint64_t cd_off, lt_zip_dir *dir,
                      size_t *len, lt_error *err) {
  unsigned long long i = (unsigned long long)dir->n + 1;
  if (avail < CENTRAL_LEN || rd32(c) != SIG_CENTRAL)
    return lt_fail(err, LT_EARG, "central directory entry %llu is damaged", i);
  size_t nlen = (size_t)rd16(c + 28), xlen = (size_t)rd16(c + 30), clen = (size_t)rd16(c + 32);
  if (avail - CENTRAL_LEN < nlen + xlen + clen)
    return lt_fail(err, LT_EARG, "central directory entry %llu runs past the directory", i);
  lt_zip_entry *e = &dir->e[dir->n];
  if (!(e->name = malloc(nlen + 1))) return lt_fail(err, LT_ENOMEM, "not enough memory");
  dir->n++;
  memcpy(e->name, c + CENTRAL_LEN, nlen);
  e->name[nlen] = 0;
  if (memchr(e->name, 0, nlen))
    return lt_fail(err, LT_EARG, "member %llu has a NUL in its name", i);
  e->method = (int)rd16(c + 10);
  e->crc = (uint32_t)rd32(c + 16);
  e->csize = rd32(c + 20);
  e->usize = rd32(c + 24);
  e->local = rd32(c + 42);
  if (rd16(c + 8) & 1) return lt_fail(err, LT_EARG, "member '%s' is encrypted", e->name);
  if (e->method != 0 && e->method != 8)
    return lt_fail(err, LT_EARG,
                   "member '%s' uses compression method %d (ltensor reads stored and deflated "
                   "members)",
                   e->name, e->method);
  int nu = e->usize == 0xFFFFFFFF, nc = e->csize == 0xFFFFFFFF, no = e->local == 0xFFFFFFFF;
  int rc;
  if ((nu || nc || no) && (rc = zip64_fields(c + CENTRAL_LEN + nlen, xlen, e, nu, nc, no, err)))
    return rc;
  *len = CENTRAL_LEN + nlen + xlen + clen;
  return check_sizes(e, cd_off, err);
}

int lt_zip_read_dir(lt_zip_read_fn rd, void *ctx, uint64_t size, lt_zip_dir *dir, lt_error *err) {
  dir->n = 0;
  dir->e = NULL;
  if (size < END_LEN) return lt_fail(err, LT_EARG, "not a zip archive (too short)");
  size_t tail_len = size < END_LEN + 65535 ? (size_t)size : END_LEN + 65535;
  unsigned char *tail = malloc(tail_len), *cd = NULL;
  if (!tail) return lt_fail(err, LT_ENOMEM, "not enough memory");
  uint64_t tail_off = size - tail_len;
  cd_place at = {0, 0, 0, 0};
  int rc = rd(ctx, tail_off, tail, tail_len, err);
  if (!rc) rc = read_end(rd, ctx, tail, tail_len, tail_off, &at, err);
  if (!rc && (!(cd = malloc(at.size ? (size_t)at.size : 1)) ||
              !(dir->e = calloc(at.count ? (size_t)at.count : 1, sizeof *dir->e))))
    rc = lt_fail(err, LT_ENOMEM, "not enough memory");
  if (!rc) rc = rd(ctx, at.off, cd, (size_t)at.size, err);
  size_t p = 0, len = 0;
  for (uint64_t i = 0; !rc && i < at.count; i++, p += len)
    rc = read_entry(cd + p, at.size - p, at.off, dir, &len, err);
  if (!rc) {
    dir->cd_off = at.off;
    rc = check_spans(dir, err);
  }
  free(tail);
  free(cd);
  if (rc) lt_zip_dir_free(dir);
  return rc;
}

/* }====== */

/* {====== members ====== */

#ifdef LTENSOR_HAVE_ZLIB
static int inflate_all(const lt_zip_entry *e, const unsigned char *in, unsigned char *out,
                       lt_error *err) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return lt_fail(err, LT_ENOMEM, "not enough memory");
  uint64_t in_left = e->csize, out_left = e->usize;
  z.next_in = (unsigned char *)(uintptr_t)in;
  z.next_out = out;
  int zr = Z_OK;
  while (zr == Z_OK) {
    if (z.avail_in == 0) {
      z.avail_in = in_left > (1u << 30) ? 1u << 30 : (unsigned)in_left;
      in_left -= z.avail_in;
    }
    if (z.avail_out == 0) {
      z.avail_out = out_left > (1u << 30) ? 1u << 30 : (unsigned)out_left;
      out_left -= z.avail_out;
    }
    unsigned before_in = z.avail_in, before_out = z.avail_out;
    zr = inflate(&z, Z_NO_FLUSH);
    if (zr == Z_BUF_ERROR && z.avail_out == 0 && out_left == 0) break; /* more than usize */
    if (zr == Z_OK && before_in == z.avail_in && before_out == z.avail_out) zr = Z_BUF_ERROR;
  }
  int ok = zr == Z_STREAM_END && out_left == 0 && z.avail_out == 0;
  inflateEnd(&z);
  if (!ok)
    return lt_fail(err, LT_EARG, "member '%s' does not inflate to the %llu bytes it claims",
                   e->name, (unsigned long long)e->usize);
  return LT_OK;
}
#endif

int lt_zip_extract(lt_zip_read_fn rd, void *ctx, const lt_zip_dir *dir, const lt_zip_entry *e,
                   void **out, lt_error *err) {
  unsigned char lh[LOCAL_LEN];
  int rc;
  if (e->limit < e->local || e->limit - e->local < LOCAL_LEN) /* lt_zip_read_dir checked it */
    return lt_fail(err, LT_EARG, "member '%s' has no local header", e->name);
  if ((rc = rd(ctx, e->local, lh, LOCAL_LEN, err))) return rc;
  if (rd32(lh) != SIG_LOCAL)
    return lt_fail(err, LT_EARG, "member '%s' has a damaged local header", e->name);
  uint64_t data = e->local + LOCAL_LEN + rd16(lh + 26) + rd16(lh + 28);
  if (data > e->limit || e->csize > e->limit - data) /* its real span, as the header says */
    return e->next >= 0
               ? lt_fail(err, LT_EARG, "members '%s' and '%s' overlap", e->name,
                         dir->e[e->next].name)
               : lt_fail(err, LT_EARG, "member '%s' overlaps the central directory", e->name);
  if (e->method == 8 && !lt_zip_can_deflate())
    return lt_fail(err, LT_EARG,
                   "member '%s' is compressed, and this ltensor was built without "
                   "zlib (install zlib1g-dev and rebuild)",
                   e->name);
  if (e->csize > SIZE_MAX - 1 || e->usize > SIZE_MAX - 1)
    return lt_fail(err, LT_ENOMEM, "member '%s' is too large", e->name);
  unsigned char *raw = malloc(e->csize ? (size_t)e->csize : 1);
  if (!raw) return lt_fail(err, LT_ENOMEM, "not enough memory for member '%s'", e->name);
  if ((rc = rd(ctx, data, raw, (size_t)e->csize, err))) {
    free(raw);
    return rc;
  }
  unsigned char *res = raw;
#ifdef LTENSOR_HAVE_ZLIB
  if (e->method == 8) {
    res = malloc(e->usize ? (size_t)e->usize : 1);
    if (!res) rc = lt_fail(err, LT_ENOMEM, "not enough memory for member '%s'", e->name);
    if (!rc) rc = inflate_all(e, raw, res, err);
    free(raw);
    if (rc) {
      free(res);
      return rc;
    }
  }
#endif
  uint32_t crc = lt_zip_crc32(0, res, (size_t)e->usize);
  if (crc != e->crc) {
    free(res);
    return lt_fail(err, LT_EARG, "member '%s' fails its CRC check (0x%08x, expected 0x%08x)",
                   e->name, (unsigned)crc, (unsigned)e->crc);
  }
  *out = res;
  return LT_OK;
}

/* }====== */

/* {====== .npz ====== */

static int file_read(void *ctx, uint64_t off, void *buf, size_t n, lt_error *err) {
  return lt_file_pread(ctx, off, buf, n, err);
}

/* Every member is a .npy, each name once, before anything is extracted. */
static int unique_npys(const char *path, const lt_zip_dir *dir, lt_error *err) {
  for (int i = 0; i < dir->n; i++) {
    const char *name = dir->e[i].name;
    size_t len = strlen(name);
    if (len < 4 || strcmp(name + len - 4, ".npy") != 0)
      return lt_fail(err, LT_EARG, "%s: member '%s' is not a .npy", path, name);
  }
  const char **names = malloc((dir->n > 0 ? (size_t)dir->n : 1) * sizeof *names);
  if (!names) return lt_fail(err, LT_ENOMEM, "not enough memory");
  for (int i = 0; i < dir->n; i++) names[i] = dir->e[i].name;
  int dup, rc = lt_file_find_duplicate(names, dir->n, &dup, err);
  free(names);
  if (!rc && dup >= 0)
    rc = lt_fail(err, LT_EARG, "%s: member '%s' appears twice", path, dir->e[dup].name);
  return rc;
}

int lt_npz_load(const char *path, lt_file_set *set, lt_error *err) {
  lt_file f;
  int rc = lt_file_open(&f, path, err);
  if (rc) return rc;
  lt_zip_dir dir;
  if ((rc = lt_file_named(path, lt_zip_read_dir(file_read, &f, f.size, &dir, err), err))) {
    lt_file_close(&f);
    return rc;
  }
  rc = unique_npys(path, &dir, err);
  for (int i = 0; i < dir.n && !rc; i++) {
    const char *name = dir.e[i].name;
    if ((rc = lt_file_set_add(set, name, strlen(name) - 4, err))) break;
    /* the member's bytes (as stored, and inflated) are held while its tensor is made: they
       count against the budget as the tensor does */
    uint64_t cs = dir.e[i].csize, us = dir.e[i].method == 8 ? dir.e[i].usize : 0;
    size_t held = us > SIZE_MAX - cs || cs > SIZE_MAX ? SIZE_MAX : (size_t)(cs + us);
    int refused = 0;
    lt_account *acct = lt_account_charge(held, &refused);
    if (refused) {
      rc = lt_fail_nomem_at(err, held, "%s: member '%s': ", path, name);
      break;
    }
    void *bytes;
    rc = lt_file_named(path, lt_zip_extract(file_read, &f, &dir, &dir.e[i], &bytes, err), err);
    if (!rc) {
      char label[512];
      snprintf(label, sizeof label, "%s: member '%s'", path, name);
      rc = lt_npy_from_memory(label, bytes, (size_t)dir.e[i].usize, &set->tensors[set->n - 1], err);
      free(bytes);
    }
    lt_account_refund(acct, held);
  }
  lt_zip_dir_free(&dir);
  lt_file_close(&f);
  if (rc) lt_file_set_free(set);
  return rc;
}

typedef struct {
  uint64_t local, csize, usize;
  uint32_t crc;
  int method, utf8;
} written;

/* Writes one member's data (header then payload), deflated or stored; sizes and CRC into m. */
static int write_member(lt_file_out *w, const lt_npy_out *o, int compress, written *m,
                        lt_error *err) {
  m->usize = o->header_len + o->nbytes;
  m->crc = lt_zip_crc32(lt_zip_crc32(0, o->header, o->header_len), o->data, (size_t)o->nbytes);
  m->method = compress ? 8 : 0;
  uint64_t start = w->written;
  if (!compress) {
    int rc = lt_file_write(w, o->header, o->header_len, err);
    if (!rc) rc = lt_file_write(w, o->data, (size_t)o->nbytes, err);
    m->csize = w->written - start;
    return rc;
  }
#ifdef LTENSOR_HAVE_ZLIB
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return lt_fail(err, LT_ENOMEM, "not enough memory");
  enum { CHUNK = 1 << 18 };
  unsigned char *buf = malloc(CHUNK);
  int rc = buf ? LT_OK : lt_fail(err, LT_ENOMEM, "not enough memory");
  const unsigned char *parts[2] = {(const unsigned char *)o->header, o->data};
  uint64_t lens[2] = {o->header_len, o->nbytes};
  for (int k = 0; k < 2 && !rc; k++) {
    const unsigned char *p = parts[k];
    uint64_t left = lens[k];
    int last = k == 1;
    do {
      unsigned take = left > (1u << 30) ? 1u << 30 : (unsigned)left;
      z.next_in = (unsigned char *)(uintptr_t)p;
      z.avail_in = take;
      p += take;
      left -= take;
      int flush = last && left == 0 ? Z_FINISH : Z_NO_FLUSH, zr;
      do {
        z.next_out = buf;
        z.avail_out = CHUNK;
        zr = deflate(&z, flush);
        if (zr == Z_STREAM_ERROR) rc = lt_fail(err, LT_EARG, "deflate failed");
        if (!rc) rc = lt_file_write(w, buf, CHUNK - z.avail_out, err);
      } while (!rc && (z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END)));
    } while (!rc && left > 0);
  }
  deflateEnd(&z);
  free(buf);
  m->csize = w->written - start;
  return rc;
#else
  (void)start;
  return lt_fail(err, LT_EARG,
                 "compress needs zlib, which this ltensor was built without "
                 "(install zlib1g-dev and rebuild)");
#endif
}

/* Writes a member's name as the archive stores it: name + ".npy". */
static int write_name(lt_file_out *w, const char *name, lt_error *err) {
  int rc = lt_file_write(w, name, strlen(name), err);
  return rc ? rc : lt_file_write(w, ".npy", 4, err);
}

/* Member name of the archive at path, with its local header, written once before the data and
   again after, when sizes and CRC are known; zip64 sizes from lim bytes on. */
static int write_local(lt_file_out *w, const char *path, const char *name, const lt_tensor *t,
                       int compress, uint64_t lim, written *m, int *z64, lt_error *err) {
  char label[512];
  snprintf(label, sizeof label, "%s: '%s'", path, name);
  lt_npy_out o;
  int rc;
  if ((rc = lt_npy_prepare(label, t, &o, err))) return rc;
  size_t nlen = strlen(name) + 4;
  unsigned char hd[LOCAL_LEN + 20];
  m->local = w->written;
  m->utf8 = 0;
  for (const char *c = name; *c; c++)
    if ((unsigned char)*c >= 0x80) m->utf8 = 1;
  uint64_t usize = o.header_len + o.nbytes;
  *z64 = usize >= lim || usize + usize / 256 + 64 >= lim; /* deflate may grow a little */
  memset(hd, 0, sizeof hd);
  wr32(hd, SIG_LOCAL);
  wr16(hd + 4, *z64 ? 45 : 20);
  wr16(hd + 6, m->utf8 ? 0x800 : 0);
  wr16(hd + 8, compress ? 8 : 0);
  wr16(hd + 12, 0x21); /* 1980-01-01: archives come out the same every time */
  wr16(hd + 26, nlen);
  wr16(hd + 28, *z64 ? 20 : 0);
  if (!(rc = lt_file_write(w, hd, LOCAL_LEN, err)) && !(rc = write_name(w, name, err)) && *z64)
    rc = lt_file_write(w, hd + LOCAL_LEN, 20, err); /* room for the zip64 sizes */
  if (!rc) rc = write_member(w, &o, compress, m, err);
  lt_npy_out_free(&o);
  if (rc) return rc;
  wr32(hd + 14, m->crc);
  wr32(hd + 18, *z64 ? 0xFFFFFFFF : m->csize);
  wr32(hd + 22, *z64 ? 0xFFFFFFFF : m->usize);
  unsigned char *x = hd + LOCAL_LEN;
  wr16(x, 1);
  wr16(x + 2, 16);
  wr64(x + 4, m->usize);
  wr64(x + 12, m->csize);
  if (!*z64 && m->csize >= lim)
    return lt_fail(err, LT_EARG,
                   "%s: member '%s' grew past 4 GiB when deflated; save it without compress", path,
                   name);
  if (!(rc = lt_file_pwrite(w, m->local, hd, LOCAL_LEN, err)) && *z64)
    rc = lt_file_pwrite(w, m->local + LOCAL_LEN + nlen, x, 20, err);
  return rc;
}

/* A member's central directory entry; *z64: whether it needed zip64 fields. */
static int write_central(lt_file_out *w, const char *name, const written *m, uint64_t lim, int *z64,
                         lt_error *err) {
  unsigned char hd[CENTRAL_LEN + 28];
  int zu = m->usize >= lim, zc = m->csize >= lim, zo = m->local >= lim;
  int xlen = (zu || zc || zo) ? 4 + 8 * (zu + zc + zo) : 0;
  *z64 = xlen > 0;
  memset(hd, 0, sizeof hd);
  wr32(hd, SIG_CENTRAL);
  wr16(hd + 4, 3 << 8 | 45); /* made by: unix, 4.5 */
  wr16(hd + 6, xlen || m->usize + m->usize / 256 + 64 >= lim ? 45 : 20);
  wr16(hd + 8, m->utf8 ? 0x800 : 0);
  wr16(hd + 10, m->method);
  wr16(hd + 14, 0x21);
  wr32(hd + 16, m->crc);
  wr32(hd + 20, zc ? 0xFFFFFFFF : m->csize);
  wr32(hd + 24, zu ? 0xFFFFFFFF : m->usize);
  wr16(hd + 28, strlen(name) + 4);
  wr16(hd + 30, (uint64_t)xlen);
  wr32(hd + 38, (uint64_t)0644 << 16); /* unix mode rw-r--r-- */
  wr32(hd + 42, zo ? 0xFFFFFFFF : m->local);
  unsigned char *x = hd + CENTRAL_LEN, *f = x + 4;
  if (xlen) {
    wr16(x, 1);
    wr16(x + 2, (uint64_t)xlen - 4);
    if (zu) wr64(f, m->usize), f += 8;
    if (zc) wr64(f, m->csize), f += 8;
    if (zo) wr64(f, m->local);
  }
  int rc;
  if (!(rc = lt_file_write(w, hd, CENTRAL_LEN, err)) && !(rc = write_name(w, name, err)))
    rc = lt_file_write(w, x, (size_t)xlen, err);
  return rc;
}

/* The end records of n members whose directory (cd_size bytes) starts at cd_off: the zip64 ones
   too where any count, size or offset passes the classic fields (end64). */
static int write_end(lt_file_out *w, int n, uint64_t cd_off, int end64, lt_error *err) {
  uint64_t cd_size = w->written - cd_off;
  unsigned char e[END64_LEN + LOC64_LEN + END_LEN];
  memset(e, 0, sizeof e);
  unsigned char *p = e;
  if (end64) {
    uint64_t e64_off = w->written;
    wr32(p, SIG_END64);
    wr64(p + 4, END64_LEN - 12);
    wr16(p + 12, 3 << 8 | 45);
    wr16(p + 14, 45);
    wr64(p + 24, (uint64_t)n);
    wr64(p + 32, (uint64_t)n);
    wr64(p + 40, cd_size);
    wr64(p + 48, cd_off);
    p += END64_LEN;
    wr32(p, SIG_LOC64);
    wr64(p + 8, e64_off);
    wr32(p + 16, 1);
    p += LOC64_LEN;
  }
  wr32(p, SIG_END);
  wr16(p + 8, end64 ? 0xFFFF : (uint64_t)n);
  wr16(p + 10, end64 ? 0xFFFF : (uint64_t)n);
  wr32(p + 12, end64 ? 0xFFFFFFFF : cd_size);
  wr32(p + 16, end64 ? 0xFFFFFFFF : cd_off);
  p += END_LEN;
  return lt_file_write(w, e, (size_t)(p - e), err);
}

int lt_npz_save_ex(const char *path, int n, const char **names, const lt_tensor **tensors,
                   int compress, uint64_t zip64_from, lt_error *err) {
  if (compress && !lt_zip_can_deflate())
    return lt_fail(err, LT_EARG,
                   "%s: compress needs zlib, which this ltensor was built without "
                   "(install zlib1g-dev and rebuild)",
                   path);
  /* every field is checked before a byte is written: the name (with ".npy") has 16 bits; the
     extra fields ltensor writes are at most 28 bytes; counts, sizes and offsets beyond the
     classic fields go to zip64 records; the .npy header is lt_npy_prepare's */
  for (int i = 0; i < n; i++) {
    size_t len = strlen(names[i]);
    if (len > 0xFFFF - 4)
      return lt_fail(err, LT_ERANGE,
                     "%s: member name '%.32s...' is %llu bytes; a zip archive holds names of "
                     "at most 65535 bytes, '.npy' included",
                     path, names[i], (unsigned long long)len);
  }
  uint64_t lim = zip64_from ? zip64_from : 0xFFFFFFFF;
  written *m = calloc(n ? (size_t)n : 1, sizeof *m);
  if (!m) return lt_fail(err, LT_ENOMEM, "not enough memory");
  lt_file_out w;
  int rc = lt_file_create(&w, path, err);
  if (rc) {
    free(m);
    return rc;
  }
  int any64 = 0, z64 = 0;
  for (int i = 0; i < n && !rc; i++, any64 |= z64)
    rc = write_local(&w, path, names[i], tensors[i], compress, lim, &m[i], &z64, err);
  uint64_t cd_off = w.written;
  for (int i = 0; i < n && !rc; i++, any64 |= z64)
    rc = write_central(&w, names[i], &m[i], lim, &z64, err);
  uint64_t cd_size = w.written - cd_off;
  if (!rc)
    rc = write_end(
        &w, n, cd_off,
        any64 || (uint64_t)n >= (lim < 0xFFFF ? lim : 0xFFFF) || cd_off >= lim || cd_size >= lim,
        err);
  free(m);
  if (rc)
    lt_file_abort(&w);
  else
    rc = lt_file_commit(&w, err);
  return rc;
}

/* }====== */
