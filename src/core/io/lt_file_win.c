/*
 * lt_file_win.c -- files and mappings on Windows (see lt_file.h): the reading, mapping and
 * writing sections that lt_file.c has for POSIX (lt_file.c wraps the mappings as storage), through
 * CreateFile, ReadFile/WriteFile at explicit offsets, CreateFileMapping/MapViewOfFile and
 * MoveFileEx. Paths are passed to the ANSI (A) functions as they are. Files are opened sharing
 * read, write and delete, so that a save can replace a file whose mapping tensors still hold (they
 * keep the old contents, as on POSIX). Compiled on Windows only (CMake; spec/mingw_compile.sh
 * compiles it with mingw-w64).
 */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_file.h"

/* "Windows error N": FormatMessage's text would need freeing and a code page. */
static const char *win_error(DWORD e, char *buf, size_t n) {
  snprintf(buf, n, "Windows error %lu", (unsigned long)e);
  return buf;
}

/* Whether path names a folder (0 when it does not exist). */
static int is_folder(const char *path) {
  DWORD a = GetFileAttributesA(path);
  return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

static void at_offset(OVERLAPPED *o, uint64_t off) {
  memset(o, 0, sizeof *o);
  o->Offset = (DWORD)off;
  o->OffsetHigh = (DWORD)(off >> 32);
}

/* {====== reading ====== */

int lt_file_open(lt_file *f, const char *path, lt_error *err) {
  char e[48];
  f->path = path;
  f->fd = NULL;
  if (is_folder(path)) return lt_fail(err, LT_EARG, "%s: is a folder, not a file", path);
  HANDLE h = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return lt_fail(err, LT_EARG, "%s: cannot open (%s)", path,
                   win_error(GetLastError(), e, sizeof e));
  LARGE_INTEGER size;
  if (!GetFileSizeEx(h, &size) || GetFileType(h) != FILE_TYPE_DISK) {
    DWORD code = GetLastError();
    CloseHandle(h);
    return lt_fail(err, LT_EARG, "%s: not a regular file (%s)", path, win_error(code, e, sizeof e));
  }
  f->fd = h;
  f->size = (uint64_t)size.QuadPart;
  return LT_OK;
}

void lt_file_close(lt_file *f) {
  if (f->fd) CloseHandle((HANDLE)f->fd);
  f->fd = NULL;
}

int lt_file_pread(lt_file *f, uint64_t off, void *buf, size_t n, lt_error *err) {
  char e[48], *p = buf;
  while (n > 0) {
    DWORD chunk = n > ((size_t)1 << 30) ? (DWORD)1 << 30 : (DWORD)n, got = 0;
    OVERLAPPED o;
    at_offset(&o, off);
    if (!ReadFile((HANDLE)f->fd, p, chunk, &got, &o))
      return lt_fail(err, LT_EARG, "%s: read failed (%s)", f->path,
                     win_error(GetLastError(), e, sizeof e));
    if (got == 0)
      return lt_fail(err, LT_EARG, "%s: the file got shorter while it was read", f->path);
    p += got;
    off += got;
    n -= got;
  }
  return LT_OK;
}

/* }====== */

/* {====== mappings ====== */

int lt_file_os_map(lt_file *f, size_t len, void **addr, lt_error *err) {
  char e[48];
  HANDLE mh = CreateFileMappingA((HANDLE)f->fd, NULL, PAGE_READONLY, 0, 0, NULL);
  void *p = mh ? MapViewOfFile(mh, FILE_MAP_READ, 0, 0, len) : NULL;
  DWORD code = GetLastError();
  if (mh) CloseHandle(mh); /* the view keeps the mapping */
  if (!p)
    return lt_fail(err, code == ERROR_NOT_ENOUGH_MEMORY ? LT_ENOMEM : LT_EARG,
                   "%s: cannot map (%s)", f->path, win_error(code, e, sizeof e));
  *addr = p;
  return LT_OK;
}

void lt_file_os_unmap(void *addr, size_t len) {
  (void)len;
  UnmapViewOfFile(addr);
}

/* }====== */

/* {====== writing ====== */

int lt_file_create(lt_file_out *w, const char *path, lt_error *err) {
  char e[48];
  w->path = path;
  w->written = 0;
  w->failed = 0;
  w->fd = NULL;
  w->target = NULL;
  if (is_folder(path)) return lt_fail(err, LT_EARG, "%s: is a folder, not a file", path);
  size_t n = strlen(path);
  w->tmp = malloc(n + 48);
  if (!w->tmp) return lt_fail(err, LT_ENOMEM, "not enough memory");
  static volatile LONG serial;
  HANDLE h = INVALID_HANDLE_VALUE;
  DWORD code = 0;
  for (int attempt = 0; attempt < 100 && h == INVALID_HANDLE_VALUE; attempt++) {
    snprintf(w->tmp, n + 48, "%s.tmp-%lu-%ld", path, (unsigned long)GetCurrentProcessId(),
             (long)InterlockedIncrement(&serial));
    h = CreateFileA(w->tmp, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, NULL, CREATE_NEW,
                    FILE_ATTRIBUTE_NORMAL, NULL);
    code = GetLastError();
    if (h == INVALID_HANDLE_VALUE && code != ERROR_FILE_EXISTS) break;
  }
  if (h == INVALID_HANDLE_VALUE) {
    free(w->tmp);
    w->tmp = NULL;
    return lt_fail(err, LT_EARG, "%s: cannot create (%s)", path, win_error(code, e, sizeof e));
  }
  w->fd = h;
  return LT_OK;
}

static int write_at(lt_file_out *w, int append, uint64_t off, const void *buf, size_t n,
                    lt_error *err) {
  char e[48];
  const char *p = buf;
  if (append) off = w->written;
  while (n > 0) {
    DWORD chunk = n > ((size_t)1 << 30) ? (DWORD)1 << 30 : (DWORD)n, put = 0;
    OVERLAPPED o;
    at_offset(&o, off);
    if (!WriteFile((HANDLE)w->fd, p, chunk, &put, &o) || put == 0) {
      w->failed = 1;
      return lt_fail(err, LT_EARG, "%s: write failed (%s)", w->path,
                     put ? win_error(GetLastError(), e, sizeof e) : "no space left");
    }
    p += put;
    off += put;
    if (append) w->written += put;
    n -= put;
  }
  return LT_OK;
}

void lt_file_reserve(lt_file_out *w, uint64_t n) { /* advice only: nothing asked of Windows */
  (void)w;
  (void)n;
}

int lt_file_write(lt_file_out *w, const void *buf, size_t n, lt_error *err) {
  return write_at(w, 1, 0, buf, n, err);
}

int lt_file_pwrite(lt_file_out *w, uint64_t off, const void *buf, size_t n, lt_error *err) {
  return write_at(w, 0, off, buf, n, err);
}

int lt_file_commit(lt_file_out *w, lt_error *err) {
  char e[48];
  BOOL closed = CloseHandle((HANDLE)w->fd);
  w->fd = NULL;
  if (!closed || !MoveFileExA(w->tmp, w->path, MOVEFILE_REPLACE_EXISTING)) {
    DWORD code = GetLastError();
    lt_file_abort(w);
    return lt_fail(err, LT_EARG, "%s: %s (%s)", w->path, closed ? "cannot replace" : "write failed",
                   win_error(code, e, sizeof e));
  }
  free(w->tmp);
  w->tmp = NULL;
  return LT_OK;
}

void lt_file_abort(lt_file_out *w) {
  if (w->fd) CloseHandle((HANDLE)w->fd);
  w->fd = NULL;
  if (w->tmp) DeleteFileA(w->tmp);
  free(w->tmp);
  w->tmp = NULL;
}

/* }====== */

#else
typedef int lt_file_win_unused; /* ISO C: a translation unit is not empty */
#endif
