/*
 * test_util.h -- a tiny check framework for the C unit tests of the core.
 *
 * CHECK(cond) counts a check and, when cond is false, prints file:line and the expression.
 * CHECKF(cond, fmt, ...) does the same and prints a printf-style detail line.
 * tu_finish() prints "N checks, M failed" and returns the exit status of main (nonzero on any
 * failure). Printing stops after TU_MAX_REPORTS failures (they are still counted), so that an
 * exhaustive loop that goes wrong does not flood the log. dims_eq compares shapes or strides.
 * UNDER_TSAN is defined in a ThreadSanitizer build.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TU_MAX_REPORTS 60

/* UNDER_TSAN: built with ThreadSanitizer (GCC's macro, or clang's feature test). */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

static long tu_checks, tu_failed;
static char tu_context[64]; /* what the current loop is testing, for failure reports */

/* Names what the current loop is testing (printf-style), for failure reports; "" for nothing. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static inline void
tu_set_context(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tu_context, sizeof tu_context, fmt, ap);
  va_end(ap);
}

static inline int tu_fail(const char *file, int line, const char *expr) {
  tu_failed++;
  if (tu_failed <= TU_MAX_REPORTS)
    fprintf(stderr, "%s:%d: CHECK failed%s%s%s: %s\n", file, line, tu_context[0] ? " [" : "",
            tu_context, tu_context[0] ? "]" : "", expr);
  if (tu_failed == TU_MAX_REPORTS) fprintf(stderr, "(further failures are counted only)\n");
  return tu_failed <= TU_MAX_REPORTS;
}

#define CHECK(cond)                                        \
  do {                                                     \
    tu_checks++;                                           \
    if (!(cond)) (void)tu_fail(__FILE__, __LINE__, #cond); \
  } while (0)

/* The variadic part is the format and its arguments. */
#define CHECKF(cond, ...)                                \
  do {                                                   \
    tu_checks++;                                         \
    if (!(cond) && tu_fail(__FILE__, __LINE__, #cond)) { \
      fprintf(stderr, "    ");                           \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, "\n");                             \
    }                                                    \
  } while (0)

/* Checks that a call returned status `want` (0 is success). */
#define CHECK_RC(call, want)                                                             \
  do {                                                                                   \
    int tu_rc_ = (call);                                                                 \
    CHECKF(tu_rc_ == (want), "%s returned %d, expected %d", #call, tu_rc_, (int)(want)); \
  } while (0)

static inline int tu_finish(const char *name) {
  printf("%s: %ld checks, %ld failed\n", name, tu_checks, tu_failed);
  return tu_failed != 0;
}

/* Whether the n values of a and b are equal (NULL arrays only equal when n is 0). */
static inline int dims_eq(const int64_t *a, const int64_t *b, int n) {
  if (n == 0) return 1;
  if (!a || !b) return 0;
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

#endif
