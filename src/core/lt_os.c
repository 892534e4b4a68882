/*
 * lt_os.c -- the operating-system calls of the core (see lt_os.h): POSIX, or Windows.
 */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE, sched_getaffinity, CPU_COUNT */
#include <dlfcn.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "lt_os.h"

#include <string.h>

#if defined(_WIN32)

void *lt_os_map(size_t len) {
  return VirtualAlloc(NULL, len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}
void lt_os_unmap(void *base, size_t len) {
  (void)len; /* a whole reservation is released at once */
  VirtualFree(base, 0, MEM_RELEASE);
}
void lt_os_advise_huge(void *p, size_t len) { /* large pages need a privilege: not asked for */
  (void)p;
  (void)len;
}
int lt_os_cpu_count(void) {
  DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  return n >= 1 ? (int)n : 1;
}
void *lt_os_lib_open(const char *name) { return (void *)LoadLibraryA(name); }
void *lt_os_lib_sym(void *lib, const char *name) {
  FARPROC f = GetProcAddress((HMODULE)lib, name);
  void *p;
  _Static_assert(sizeof f == sizeof p, "function and object pointers differ in size");
  memcpy(&p, &f, sizeof p);
  return p;
}
void lt_os_lib_close(void *lib) { FreeLibrary((HMODULE)lib); }

#else

void *lt_os_map(size_t len) {
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}
void lt_os_unmap(void *base, size_t len) { munmap(base, len); }
void lt_os_advise_huge(void *p, size_t len) {
#ifdef MADV_HUGEPAGE
  madvise(p, len, MADV_HUGEPAGE); /* advice only: failure is harmless */
#else
  (void)p;
  (void)len;
#endif
}
int lt_os_cpu_count(void) {
  long n = 0;
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
#endif
#if defined(_SC_NPROCESSORS_ONLN)
  if (n < 1) n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
  return n >= 1 ? (n > 1 << 20 ? 1 << 20 : (int)n) : 1;
}
void *lt_os_lib_open(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
void *lt_os_lib_sym(void *lib, const char *name) { return dlsym(lib, name); }
void lt_os_lib_close(void *lib) { dlclose(lib); }

#endif
