/*
 * lt_os.c -- the operating-system calls of the core (see lt_os.h): POSIX, or Windows.
 */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE, sched_getaffinity, CPU_COUNT */
#include <dlfcn.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h> /* malloc_trim */
#endif
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "lt_os.h"

#include <stdio.h>
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
size_t lt_os_cache_bytes(void) {
  SYSTEM_LOGICAL_PROCESSOR_INFORMATION info[256];
  DWORD len = sizeof info;
  size_t best = 0;
  if (!GetLogicalProcessorInformation(info, &len)) return 0; /* more than 256 entries: unknown */
  for (DWORD i = 0; i < len / sizeof info[0]; i++)
    if (info[i].Relationship == RelationCache && info[i].Cache.Type != CacheInstruction &&
        info[i].Cache.Size > best)
      best = info[i].Cache.Size;
  return best;
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
void lt_os_heap_trim(void) { (void)HeapCompact(GetProcessHeap(), 0); }

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
#if defined(__linux__)
/* The size of cpu0's cache number i from sysfs ("32768K"), 0 for an instruction cache or none:
   the kernel's view of one cache instance, where a virtual machine's CPUID (which glibc's
   sysconf reads) may describe a whole socket's. */
static long sysfs_cache(int i) {
  char path[96], text[32];
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int ok = fgets(text, sizeof text, f) != NULL && strncmp(text, "Instruction", 11) != 0;
  fclose(f);
  if (!ok) return 0;
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
  if (!(f = fopen(path, "r"))) return 0;
  long v = 0;
  char unit = 0;
  if (fscanf(f, "%ld%c", &v, &unit) < 1) v = 0;
  fclose(f);
  return unit == 'K' ? v * 1024 : unit == 'M' ? v * 1024 * 1024 : v;
}
#endif
size_t lt_os_cache_bytes(void) {
  long best = 0;
#if defined(__linux__)
  for (int i = 0; i < 16; i++) {
    long v = sysfs_cache(i);
    if (v < 0) break;
    if (v > best) best = v;
  }
#endif
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  if (best <= 0) best = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (best <= 0) best = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return best > 0 ? (size_t)best : 0;
}
void *lt_os_lib_open(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
void *lt_os_lib_sym(void *lib, const char *name) { return dlsym(lib, name); }
void lt_os_lib_close(void *lib) { dlclose(lib); }
void lt_os_heap_trim(void) {
#if defined(__GLIBC__)
  (void)malloc_trim(0);
#endif
}

#endif
