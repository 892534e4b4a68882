/*
 * fuzz_zip_dir.c -- libFuzzer target: the zip reader of .npz files on a memory buffer.
 *
 * The input is the whole archive. lt_zip_read_dir reads its central directory through a read
 * callback that aborts on any read outside the input (the reader must check every offset
 * against the archive's size before reading); a directory it accepts must keep its promises:
 * members that do not overlap (each one's least span ends by its limit, the next member's start
 * or the directory) and no deflated member claiming more than 1032 times its bytes. Then every
 * member is extracted (inflated where zlib is built in, CRC-checked), and a member that extracts
 * must have exactly the size its entry claims; members named *.npy are also parsed as .npy
 * files. Leaks are libFuzzer's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_npy.h"
#include "lt_zip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  const uint8_t *p;
  size_t n;
} mem;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t n, lt_error *err) {
  const mem *m = ctx;
  (void)err;
  if (off > m->n || n > m->n - off) abort(); /* the reader promised to check */
  memcpy(buf, m->p + off, n);
  return LT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *buf = malloc(size ? size : 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  mem m = {buf, size};
  lt_zip_dir dir;
  lt_error err;
  if (lt_zip_read_dir(mem_read, &m, size, &dir, &err) == LT_OK) {
    if (dir.cd_off > size) abort();
    for (int i = 0; i < dir.n; i++) {
      const lt_zip_entry *e = &dir.e[i];
      if (e->local > dir.cd_off || e->csize > dir.cd_off - e->local) abort();
      if (e->limit > dir.cd_off || e->local > e->limit ||
          30 + strlen(e->name) + e->csize > e->limit - e->local)
        abort();
      if (e->method == 8 && e->usize / 1032 > e->csize + 64) abort();
      void *bytes = NULL;
      if (lt_zip_extract(mem_read, &m, &dir, e, &bytes, &err) != LT_OK) continue;
      size_t len = strlen(e->name);
      if (len >= 4 && strcmp(e->name + len - 4, ".npy") == 0) {
        lt_tensor *t = NULL;
        if (lt_npy_from_memory(e->name, bytes, (size_t)e->usize, &t, &err) == LT_OK)
          lt_tensor_free(t);
      }
      free(bytes);
    }
    lt_zip_dir_free(&dir);
  }
  free(buf);
  return 0;
}
