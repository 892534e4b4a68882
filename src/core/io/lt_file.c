/*
 * lt_file.c -- files and mappings (see lt_file.h): reading, mapping and writing through POSIX
 * (open, pread, write, mmap, rename), and the helpers the formats share. On Windows the first
 * three sections are lt_file_win.c's (CreateFile, ReadFile, MapViewOfFile, MoveFileEx).
 */
#if !defined(_WIN32)
#define _GNU_SOURCE /* mkstemp, pread, pwrite, lstat, realpath; renameat2 on Linux */
#endif
#include "lt_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_mapguard.h"

#if !defined(_WIN32)
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* {====== reading ====== */

int lt_file_open(lt_file *f, const char *path, lt_error *err) {
  f->path = path;
  f->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (f->fd < 0) return lt_fail(err, LT_EARG, "%s: cannot open (%s)", path, strerror(errno));
  struct stat st;
  int ok = fstat(f->fd, &st) == 0, e = errno;
  if (!ok || !S_ISREG(st.st_mode)) {
    close(f->fd);
    f->fd = -1;
    return lt_fail(err, LT_EARG, "%s: %s", path,
                   !ok                   ? strerror(e)
                   : S_ISDIR(st.st_mode) ? "is a folder, not a file"
                                         : "not a regular file");
  }
  f->size = (uint64_t)st.st_size;
  return LT_OK;
}

void lt_file_close(lt_file *f) {
  if (f->fd >= 0) close(f->fd);
  f->fd = -1;
}

int lt_file_pread(lt_file *f, uint64_t off, void *buf, size_t n, lt_error *err) {
  char *p = buf;
  while (n > 0) {
    size_t chunk = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;
    ssize_t r = pread(f->fd, p, chunk, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return lt_fail(err, LT_EARG, "%s: read failed (%s)", f->path, strerror(errno));
    if (r == 0) return lt_fail(err, LT_EARG, "%s: the file got shorter while it was read", f->path);
    p += r;
    off += (uint64_t)r;
    n -= (size_t)r;
  }
  return LT_OK;
}

/* }====== */

/* {====== mappings ====== */

int lt_file_os_map(lt_file *f, size_t len, void **addr, lt_error *err) {
  void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, f->fd, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    return lt_fail(err, e == ENOMEM ? LT_ENOMEM : LT_EARG, "%s: cannot map (%s)", f->path,
                   strerror(e));
  }
  *addr = p;
  return LT_OK;
}

void lt_file_os_unmap(void *addr, size_t len) { munmap(addr, len); }

/* }====== */

/* {====== writing ====== */

int lt_file_create(lt_file_out *w, const char *path, lt_error *err) {
  w->path = path;
  w->written = 0;
  w->failed = 0;
  w->fd = -1;
  w->target = NULL;
  /* a symbolic link is written through, as an overwrite would: the temporary goes next to
     the file it names, and replaces that file */
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !(w->target = realpath(path, NULL)))
    return lt_fail(err, LT_EARG, "%s: cannot follow the link (%s)", path, strerror(errno));
  const char *to = w->target ? w->target : path;
  if (stat(to, &st) == 0 && !S_ISREG(st.st_mode)) { /* never exchanged with a folder */
    free(w->target);
    w->target = NULL;
    return lt_fail(err, LT_EARG, "%s: %s", path,
                   S_ISDIR(st.st_mode) ? "is a folder, not a file" : "not a regular file");
  }
  size_t n = strlen(to);
  w->tmp = malloc(n + 16);
  if (!w->tmp) {
    free(w->target);
    w->target = NULL;
    return lt_fail(err, LT_ENOMEM, "not enough memory");
  }
  memcpy(w->tmp, to, n);
  memcpy(w->tmp + n, ".tmp-XXXXXX", 12);
  w->fd = mkstemp(w->tmp);
  if (w->fd < 0) {
    int e = errno;
    free(w->tmp);
    free(w->target);
    w->tmp = w->target = NULL;
    return lt_fail(err, LT_EARG, "%s: cannot create (%s)", path, strerror(e));
  }
  fchmod(w->fd, 0644); /* mkstemp makes 0600, which would change the file's mode on a save */
  return LT_OK;
}

static int write_at(lt_file_out *w, int append, uint64_t off, const void *buf, size_t n,
                    lt_error *err) {
  const char *p = buf;
  while (n > 0) {
    size_t chunk = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;
    ssize_t r = append ? write(w->fd, p, chunk) : pwrite(w->fd, p, chunk, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      w->failed = 1;
      return lt_fail(err, LT_EARG, "%s: write failed (%s)", w->path,
                     r < 0 ? strerror(errno) : "no space left");
    }
    p += r;
    off += (uint64_t)r;
    if (append) w->written += (uint64_t)r;
    n -= (size_t)r;
  }
  return LT_OK;
}

void lt_file_reserve(lt_file_out *w, uint64_t n) {
#if defined(__linux__)
  /* as NumPy's tofile does: the blocks reserved at once, the size left to the writes; advice
     only, a failure changes nothing */
  if (n > 0) (void)fallocate(w->fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)n);
#else
  (void)w;
  (void)n;
#endif
}

int lt_file_write(lt_file_out *w, const void *buf, size_t n, lt_error *err) {
  return write_at(w, 1, 0, buf, n, err);
}

int lt_file_pwrite(lt_file_out *w, uint64_t off, const void *buf, size_t n, lt_error *err) {
  return write_at(w, 0, off, buf, n, err);
}

/*
 * Puts the complete file tmp at path, atomically. Where the file system can, the two names are
 * exchanged and the old file (now at tmp) removed: a plain rename over an existing file makes
 * ext4 (auto_da_alloc) push the new file's data to the disk at once, which made saving 256 MiB
 * three times slower than np.save's overwrite in place (bench_files); an exchange does not.
 */
static int replace(const char *tmp, const char *path) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
    unlink(tmp); /* the old file: mapped tensors keep it until they go */
    return 0;
  }
  if (errno != ENOENT && errno != EINVAL && errno != ENOSYS && errno != EPERM) return -1;
#endif
  return rename(tmp, path); /* no old file, or no exchange here */
}

int lt_file_commit(lt_file_out *w, lt_error *err) {
  int rc = close(w->fd);
  w->fd = -1;
  if (rc != 0) {
    int e = errno;
    lt_file_abort(w);
    return lt_fail(err, LT_EARG, "%s: write failed (%s)", w->path, strerror(e));
  }
  if (replace(w->tmp, w->target ? w->target : w->path) != 0) {
    int e = errno;
    lt_file_abort(w);
    return lt_fail(err, LT_EARG, "%s: cannot replace (%s)", w->path, strerror(e));
  }
  free(w->tmp);
  free(w->target);
  w->tmp = w->target = NULL;
  return LT_OK;
}

void lt_file_abort(lt_file_out *w) {
  if (w->fd >= 0) close(w->fd);
  w->fd = -1;
  if (w->tmp) unlink(w->tmp);
  free(w->tmp);
  free(w->target);
  w->tmp = w->target = NULL;
}

/* }====== */
#endif /* !_WIN32 */

/* {====== mappings as storage (the platform maps: lt_file_os_map) ====== */

typedef struct {
  lt_map_note mn; /* first: lt_tensor.c reads it */
  void *addr;
  size_t len;
  long ticket; /* the mapping guard's */
  char msg[];  /* the note, then the path */
} mapping;

static void unmap(void *ctx, void *data) {
  mapping *m = ctx;
  (void)data;
  lt_mapguard_remove(m->ticket);
  if (m->len) lt_file_os_unmap(m->addr, m->len);
  free(m);
}

/* Where an empty file's (zero-length) mapping points: never read. */
static _Alignas(64) unsigned char empty_map[64];

int lt_file_map(lt_file *f, lt_storage **out, lt_error *err) {
  if (f->size > (uint64_t)SIZE_MAX) return lt_fail(err, LT_ERANGE, "%s: too large to map", f->path);
  static const char fmt[] =
      "tensor is read-only (mapped read-only from %s; clone() gives a "
      "writable copy)";
  size_t plen = strlen(f->path), msglen = sizeof fmt + plen;
  mapping *m = malloc(sizeof *m + msglen + plen + 1);
  if (!m) return lt_fail(err, LT_ENOMEM, "not enough memory");
  snprintf(m->msg, msglen, fmt, f->path);
  memcpy(m->msg + msglen, f->path, plen + 1);
  m->mn.note.note = m->msg;
  m->mn.path = m->msg + msglen;
  atomic_init(&m->mn.damaged, 0);
  m->len = (size_t)f->size;
  m->addr = empty_map;
  m->ticket = -1;
  int rc = m->len ? lt_file_os_map(f, m->len, &m->addr, err) : LT_OK;
  if (rc) {
    free(m);
    return rc;
  }
  if (m->len) m->ticket = lt_mapguard_add(m->addr, m->len, &m->mn.damaged);
  DLDevice cpu = {kDLCPU, 0};
  lt_storage *s = lt_storage_wrap(m->addr, m->len, m->len, cpu, unmap, m);
  if (!s) {
    size_t len = m->len;
    unmap(m, NULL);
    return lt_fail_nomem_at(err, len, "%s: ", f->path);
  }
  *out = s;
  return LT_OK;
}

/* }====== */

/* {====== helpers shared by the formats ====== */

void lt_file_set_free(lt_file_set *s) {
  for (int i = 0; i < s->n; i++) {
    free(s->names[i]);
    free(s->why[i]);
    lt_tensor_free(s->tensors[i]);
  }
  for (int i = 0; i < s->nmeta; i++) {
    free(s->meta_keys[i]);
    free(s->meta_vals[i]);
  }
  free(s->names);
  free(s->tensors);
  free(s->why);
  free(s->meta_keys);
  free(s->meta_vals);
  memset(s, 0, sizeof *s);
}

int lt_file_set_add(lt_file_set *s, const char *name, size_t len, lt_error *err) {
  if ((s->n & (s->n - 1)) == 0) { /* 0, 1, 2, 4, ...: grow to twice */
    size_t cap = s->n ? 2 * (size_t)s->n : 1;
    char **nn = realloc(s->names, cap * sizeof *nn);
    if (nn) s->names = nn;
    lt_tensor **nt = nn ? realloc(s->tensors, cap * sizeof *nt) : NULL;
    if (nt) s->tensors = nt;
    char **nw = nt ? realloc(s->why, cap * sizeof *nw) : NULL;
    if (nw) s->why = nw;
    if (!nn || !nt || !nw) return lt_fail(err, LT_ENOMEM, "not enough memory");
  }
  char *copy = malloc(len + 1);
  if (!copy) return lt_fail(err, LT_ENOMEM, "not enough memory");
  memcpy(copy, name, len);
  copy[len] = 0;
  s->names[s->n] = copy;
  s->tensors[s->n] = NULL;
  s->why[s->n] = NULL;
  s->n++;
  return LT_OK;
}

int lt_file_set_skip(lt_file_set *s, int i, const char *why, lt_error *err) {
  size_t n = strlen(why) + 1;
  free(s->why[i]);
  if (!(s->why[i] = malloc(n))) return lt_fail(err, LT_ENOMEM, "not enough memory");
  memcpy(s->why[i], why, n);
  return LT_OK;
}

int lt_file_named(const char *name, int rc, lt_error *err) {
  if (rc && err) {
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    lt_fail(err, rc, "%s: %s", name, msg);
  }
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

int lt_file_find_duplicate(const char *const *names, int n, int *dup, lt_error *err) {
  *dup = -1;
  if (n < 2) return LT_OK;
  const char *const **order = malloc((size_t)n * sizeof *order);
  if (!order) return lt_fail(err, LT_ENOMEM, "not enough memory");
  for (int i = 0; i < n; i++) order[i] = &names[i];
  qsort(order, (size_t)n, sizeof *order, by_name);
  for (int i = 1; i < n && *dup < 0; i++)
    if (strcmp(*order[i - 1], *order[i]) == 0) {
      int a = (int)(order[i - 1] - names), b = (int)(order[i] - names);
      *dup = a > b ? a : b; /* the later one, in the file's order */
    }
  free(order);
  return LT_OK;
}

int lt_file_alloc(uint64_t nbytes, lt_storage **out, lt_error *err) {
  if (nbytes > SIZE_MAX)
    return lt_fail(err, LT_ENOMEM, "not enough memory for %llu bytes", (unsigned long long)nbytes);
  if (!(*out = lt_storage_new((size_t)nbytes, 0)))
    return lt_fail_nomem(err, (size_t)nbytes); /* the allocator's reason: the budget, or none */
  return LT_OK;
}

int lt_file_tensor(lt_storage *st, lt_dtype dt, DLDataType dl, int ndim, const int64_t *shape,
                   int fortran, uint64_t boff, lt_tensor **out, lt_error *err) {
  size_t esize = ((size_t)dl.bits * dl.lanes + 7) / 8;
  if (boff % esize)
    return lt_fail(err, LT_EARG,
                   "data offset %llu is not a multiple of the element size %d: mmap cannot give "
                   "zero copy; load it without mmap",
                   (unsigned long long)boff, (int)esize);
  lt_tensor *t = lt_tensor_alloc(ndim);
  if (!t) return lt_fail(err, LT_ENOMEM, "not enough memory");
  t->storage = lt_storage_retain(st);
  t->dtype = dt;
  t->dl_dtype = dl;
  t->ndim = ndim;
  t->readonly = LT_WRITABLE;
  t->packed = (size_t)dl.bits * dl.lanes < 8; /* the files pack sub-byte types */
  t->offset = (int64_t)(boff / esize);
  if (ndim > 0) memcpy(t->shape, shape, (size_t)ndim * sizeof(int64_t));
  if (!fortran) {
    lt_contiguous_strides(ndim, t->shape, t->strides);
  } else {
    int64_t s = 1;
    for (int i = 0; i < ndim; i++) {
      t->strides[i] = s;
      s *= shape[i] > 1 ? shape[i] : 1;
    }
  }
  *out = t;
  return LT_OK;
}

/* Copies the elements of t (esize bytes each) in row-major order to dst. */
static void gather(const lt_tensor *t, char *dst) {
  size_t es = lt_esize(t);
  int64_t n = lt_numel(t);
  if (n == 0) return;
  int64_t idx[LT_MAX_NDIM] = {0};
  const char *base = lt_data(t);
  int64_t off = 0; /* in elements, from base */
  for (int64_t k = 0; k < n; k++) {
    memcpy(dst + (size_t)k * es, base + off * (int64_t)es, es);
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (++idx[d] < t->shape[d]) {
        off += t->strides[d];
        break;
      }
      off -= (idx[d] - 1) * t->strides[d];
      idx[d] = 0;
    }
  }
}

int lt_file_bytes(const lt_tensor *t, const void **data, lt_tensor **owned, lt_error *err) {
  *owned = NULL;
  if (t->storage->revoked) return lt_fail(err, LT_EREVOKED, "tensor has been released");
  int rc = lt_check_mapping(t, err);
  if (rc) return rc;
  DLDeviceType d = t->storage->device.device_type;
  if (!(d == kDLCPU || d == kDLCUDAHost || d == kDLROCMHost)) {
    char dev[32];
    lt_device_str(t->storage->device, dev, sizeof dev);
    return lt_fail(err, LT_EARG, "tensor data is on device '%s', which the host cannot read", dev);
  }
  if (lt_is_contiguous(t)) { /* packed ones too: a view of one starts on a byte */
    *data = lt_data(t);
    return LT_OK;
  }
  if (t->packed)
    return lt_fail(err, LT_EARG,
                   "a strided view of a packed sub-byte tensor cannot be saved (its elements "
                   "do not lie in whole bytes)");
  if (t->dtype != LT_OPAQUE) { /* the fast strided copy */
    if ((rc = lt_clone(t, owned, err))) return rc;
  } else {
    lt_storage *st;
    if ((rc = lt_file_alloc((uint64_t)lt_numel(t) * lt_esize(t), &st, err))) return rc;
    rc = lt_file_tensor(st, t->dtype, t->dl_dtype, t->ndim, t->shape, 0, 0, owned, err);
    lt_storage_release(st);
    if (rc) return rc;
    gather(t, lt_data(*owned));
  }
  *data = lt_data(*owned);
  return LT_OK;
}

void lt_file_swap(void *data, uint64_t n, size_t esize) {
  unsigned char *p = data;
  switch (esize) {
#define SWAP_CASE(bits)                               \
  case bits / 8:                                      \
    for (uint64_t i = 0; i < n; i++, p += bits / 8) { \
      uint##bits##_t v;                               \
      memcpy(&v, p, sizeof v);                        \
      v = __builtin_bswap##bits(v);                   \
      memcpy(p, &v, sizeof v);                        \
    }                                                 \
    break;
    SWAP_CASE(16)
    SWAP_CASE(32)
    SWAP_CASE(64)
#undef SWAP_CASE
    default: break;
  }
}

/* }====== */
