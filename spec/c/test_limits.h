/*
 * test_limits.h -- what the tests that cap their own address space (RLIMIT_AS, as a sandboxing
 * host sets it) share: whether a sanitizer runs (ASan and TSan reserve terabytes of address
 * space, so no cap can be set there) and the cap. POSIX; include after the system headers.
 */
#ifndef TEST_LIMITS_H
#define TEST_LIMITS_H

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Caps this process's address space at what it maps now plus extra bytes; 0 when it cannot. */
static inline int tl_cap_address_space(size_t extra) {
  long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld", &pages) != 1) pages = 0;
    fclose(f);
  }
  struct rlimit r;
  if (pages <= 0 || getrlimit(RLIMIT_AS, &r) != 0) return 0;
  r.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)extra;
  if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max) r.rlim_cur = r.rlim_max;
  return setrlimit(RLIMIT_AS, &r) == 0;
}

#endif
