/*
 * lt_file.h -- the file system, for lt_npy.c, lt_zip.c and lt_safetensors.c: opening, sizing and
 * reading a file, writing one through a temporary name renamed over the target, and read-only
 * mappings wrapped as storage. Every operating-system call of the file formats lives in
 * lt_file.c (POSIX) or lt_file_win.c (Windows). Also the shared shape of
 * a loaded set of named tensors (.npz, .safetensors). Lua-free.
 *
 * Calls lt_storage.c, lt_tensor.c and lt_mapguard.c (every mapping is registered there). Called
 * by the three format files and the binding (lt_file_set_free).
 *
 * Messages name the file: "x.npy: cannot open (No such file or directory)".
 */
#ifndef LT_FILE_H
#define LT_FILE_H

#include <stdint.h>

#include "lt_tensor.h"

/* {====== reading ====== */

typedef struct {
#if defined(_WIN32)
  void *fd; /* a HANDLE, NULL when closed */
#else
  int fd; /* -1 when closed */
#endif
  uint64_t size;
  const char *path; /* for messages; not owned */
} lt_file;

/* Opens path for reading and sizes it. */
int lt_file_open(lt_file *f, const char *path, lt_error *err);
void lt_file_close(lt_file *f);
/* Reads exactly n bytes at off (the caller checked off + n <= f->size); a short read is an
   error ("file changed while it was read"). */
int lt_file_pread(lt_file *f, uint64_t off, void *buf, size_t n, lt_error *err);

/* The platform's part of lt_file_map: maps len > 0 bytes of f read-only at *addr; and undoes
   it (lt_file.c on POSIX, lt_file_win.c on Windows). */
int lt_file_os_map(lt_file *f, size_t len, void **addr, lt_error *err);
void lt_file_os_unmap(void *addr, size_t len);

/* Maps the whole of f read-only as a pinned storage (data: the file's first byte) whose last
   release unmaps it. Its block's release context is an lt_map_note (lt_tensor.h) whose note says
   "mapped read-only from PATH"; the mapping is registered with the mapping guard
   (lt_mapguard.h). Tensors on it must be marked LT_RO_MAPPED. */
int lt_file_map(lt_file *f, lt_storage **out, lt_error *err);

/* }====== */

/* {====== writing: a temporary file in the target's folder, renamed over it when complete ====== */

typedef struct {
#if defined(_WIN32)
  void *fd; /* a HANDLE */
#else
  int fd;
#endif
  const char *path; /* the target; not owned */
  char *tmp;        /* the temporary name */
  char *target;     /* what a symbolic link at path names, or NULL */
  uint64_t written;
  int failed;
} lt_file_out;

int lt_file_create(lt_file_out *w, const char *path, lt_error *err);
/* Tells the file system that n bytes will be written (allocates them where it can). */
void lt_file_reserve(lt_file_out *w, uint64_t n);
/* Appends n bytes. */
int lt_file_write(lt_file_out *w, const void *buf, size_t n, lt_error *err);
/* Writes n bytes at off (before the current end: a header filled in afterwards). */
int lt_file_pwrite(lt_file_out *w, uint64_t off, const void *buf, size_t n, lt_error *err);
/* Closes and renames the temporary over the target (mapped readers keep the old file). */
int lt_file_commit(lt_file_out *w, lt_error *err);
/* Closes and removes the temporary (after a failure). */
void lt_file_abort(lt_file_out *w);

/* }====== */

/* {====== helpers shared by the formats ====== */

/* Named tensors, in the file's order. A tensor that a lenient load left out (an unknown
   dtype) has a NULL tensor and a message in why[i]; why[i] is NULL for the others. */
typedef struct {
  int n;
  char **names;
  lt_tensor **tensors;
  char **why;
  int has_meta; /* safetensors: a __metadata__ object was present */
  int nmeta;
  char **meta_keys, **meta_vals;
} lt_file_set;

void lt_file_set_free(lt_file_set *s);
/* Grows s by one entry (name copied, len bytes); the tensor slot is NULL. */
int lt_file_set_add(lt_file_set *s, const char *name, size_t len, lt_error *err);
/* Records why entry i was left out (message copied). */
int lt_file_set_skip(lt_file_set *s, int i, const char *why, lt_error *err);

/* Returns rc; when it is an error, err's message becomes "name: message". */
int lt_file_named(const char *name, int rc, lt_error *err);

/* Looks for two equal strings among names[0..n) by sorting an index (O(n log n)): *dup
   receives the index of one of them, or -1 when they are all different. LT_ENOMEM only. */
int lt_file_find_duplicate(const char *const *names, int n, int *dup, lt_error *err);

/* A storage of nbytes for a loaded tensor's data, through the storage allocator; its refusal
   is passed on as LT_ENOMEM with its reason (lt_fail_nomem: the memory budget, or none). */
int lt_file_alloc(uint64_t nbytes, lt_storage **out, lt_error *err);

/* The bytes n elements of DLPack type dl take in a file: n * bits * lanes / 8, sub-byte types
   packed (the caller checks that they fill whole bytes). */
static inline uint64_t lt_file_nbytes(DLDataType dl, uint64_t n) {
  uint64_t bits = (uint64_t)dl.bits * dl.lanes;
  return bits % 8 == 0 ? n * (bits / 8) : (n * bits + 7) / 8;
}

/* A tensor header over storage st (a reference is taken): dl type dl (dt its dtype, LT_OPAQUE
   for types ltensor cannot compute with; sub-byte types are packed), shape, row-major strides
   unless fortran (column major), first element at byte offset boff of st, which must be a
   multiple of the element size (a mapping refuses otherwise, saying so). */
int lt_file_tensor(lt_storage *st, lt_dtype dt, DLDataType dl, int ndim, const int64_t *shape,
                   int fortran, uint64_t boff, lt_tensor **out, lt_error *err);

/* The bytes of t in row-major order: t's own memory when it is contiguous (*owned NULL), else
   those of a contiguous copy, *owned, which the caller frees. Opaque dtypes too, and packed
   sub-byte ones when contiguous (their bytes as they are). Refuses a tensor whose mapped file
   was truncated. */
int lt_file_bytes(const lt_tensor *t, const void **data, lt_tensor **owned, lt_error *err);

/* Reverses the bytes of each of n elements of size esize (2, 4 or 8; complex: per part). */
void lt_file_swap(void *data, uint64_t n, size_t esize);

/* }====== */

#endif
