/*
 * lt_zip.h -- the zip archives of NumPy's .npz: a reader and a writer of ltensor's own. Stored
 * members, and deflated ones through zlib where the build found it (LTENSOR_HAVE_ZLIB; without
 * it a compressed member raises a clear error); zip64 records for members, offsets and counts
 * beyond the classic fields; CRC-32 checked on every member read. Lua-free.
 *
 * The reader works through a read callback, so the fuzz target runs it on a memory buffer; every
 * size is checked against the archive's size before anything is allocated.
 *
 * Calls lt_file.c and lt_npy.c (members). Called by the binding and the fuzz target.
 */
#ifndef LT_ZIP_H
#define LT_ZIP_H

#include <stdint.h>

#include "lt_file.h"

/* Reads n bytes at off (the caller checked that they lie inside the archive). */
typedef int (*lt_zip_read_fn)(void *ctx, uint64_t off, void *buf, size_t n, lt_error *err);

typedef struct {
  char *name;
  uint64_t csize, usize; /* compressed and uncompressed sizes */
  uint64_t local;        /* offset of the local header */
  uint32_t crc;
  int method; /* 0 stored, 8 deflated */
  /* where the next member's local header starts, or the central directory: the member's bytes
     must end before it; next is that member's index, -1 for the central directory */
  uint64_t limit;
  int next;
} lt_zip_entry;

typedef struct {
  int n;
  lt_zip_entry *e;
  uint64_t cd_off; /* where the central directory starts: members lie before it */
} lt_zip_dir;

/* Reads the central directory of an archive of size bytes, and checks it before anything is
   extracted: members lie inside the archive, before the directory, without overlapping one
   another (a member's span is at least its local header, name and compressed bytes), and none
   claims more bytes than its compressed ones can give (stored: as many; deflated: at most
   1032 times as many), so that what the archive inflates to is bounded by its size. Message
   without the file name. */
int lt_zip_read_dir(lt_zip_read_fn rd, void *ctx, uint64_t size, lt_zip_dir *dir, lt_error *err);
void lt_zip_dir_free(lt_zip_dir *dir);
/* The bytes of member e (malloc'd into *out, e->usize of them), inflated and CRC-checked. */
int lt_zip_extract(lt_zip_read_fn rd, void *ctx, const lt_zip_dir *dir, const lt_zip_entry *e,
                   void **out, lt_error *err);
/* Whether deflate is available (zlib was found). */
int lt_zip_can_deflate(void);
/* CRC-32 (zip's) of n bytes, continuing crc (0 to start). */
uint32_t lt_zip_crc32(uint32_t crc, const void *p, size_t n);

/* Loads an .npz: member "x.npy" becomes the tensor named "x". */
int lt_npz_load(const char *path, lt_file_set *set, lt_error *err);
/* Saves n named tensors as members "name.npy", deflated when compress. zip64_from: members,
   offsets and counts from this size on use zip64 records (0: the format's limits). */
int lt_npz_save_ex(const char *path, int n, const char **names, const lt_tensor **tensors,
                   int compress, uint64_t zip64_from, lt_error *err);
static inline int lt_npz_save(const char *path, int n, const char **names,
                              const lt_tensor **tensors, int compress, lt_error *err) {
  return lt_npz_save_ex(path, n, names, tensors, compress, 0, err);
}

#endif
