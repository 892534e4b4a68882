/*
 * test_core.h -- the fixture of the C tests of the core (test_tensor.c, test_kernels.c,
 * test_math.c): the error record every call writes, checks of a call's status and message,
 * array literals, and tensors built and read element by element. Include after test_util.h.
 */
#ifndef TEST_CORE_H
#define TEST_CORE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_tensor.h"
#include "test_util.h"

static lt_error err; /* the error record of the calls under test */

/* A call that must succeed; prints the error message when it does not. */
#define CHECK_OK(call)                                                        \
  do {                                                                        \
    err.msg[0] = 0;                                                           \
    int ok_rc_ = (call);                                                      \
    CHECKF(ok_rc_ == LT_OK, "%s failed with %d: %s", #call, ok_rc_, err.msg); \
  } while (0)

/* A call that must fail with `code` and leave a message. */
#define CHECK_ERR(call, code)                                                                \
  do {                                                                                       \
    err.msg[0] = 0;                                                                          \
    int er_rc_ = (call);                                                                     \
    CHECKF(er_rc_ == (code), "%s returned %d, expected %d (%s)", #call, er_rc_, (int)(code), \
           err.msg);                                                                         \
    CHECKF(err.msg[0] != 0, "%s left no error message", #call);                              \
  } while (0)

/* The call fails (any code) with a message containing `part`. */
#define CHECK_FAILS(call, part)                                                               \
  do {                                                                                        \
    err.msg[0] = 0;                                                                           \
    int er_rc_ = (call);                                                                      \
    CHECKF(er_rc_ != LT_OK, "%s succeeded, expected an error", #call);                        \
    CHECKF(err.msg[0] != 0 && strstr(err.msg, (part)) != NULL, "%s: message '%s' lacks '%s'", \
           #call, err.msg, (part));                                                           \
  } while (0)

#define A(...) ((const int64_t[]){__VA_ARGS__})

/* A zero-filled tensor; exits with status 2 when it cannot be made (the test cannot run). */
static inline lt_tensor *make(lt_dtype dt, int ndim, const int64_t *shape) {
  lt_tensor *t = NULL;
  if (lt_tensor_new(dt, ndim, shape, 1, &t, &err) != LT_OK) {
    fprintf(stderr, "lt_tensor_new: %s\n", err.msg);
    exit(2);
  }
  return t;
}

/* The address of the element of t at a multi-index. */
static inline char *addr(const lt_tensor *t, const int64_t *idx) {
  char *p = lt_data(t);
  for (int i = 0; i < t->ndim; i++) p += idx[i] * t->strides[i] * (int64_t)lt_esize(t);
  return p;
}

/* Element as (re, im) doubles (im may be NULL). */
static inline double get(const lt_tensor *t, const int64_t *idx, double *im) {
  lt_scalar s;
  lt_load(t->dtype, addr(t, idx), &s);
  if (im) *im = s.kind == LT_SK_COMPLEX ? s.im : 0;
  return s.kind == LT_SK_INT ? (double)s.v.i : s.kind == LT_SK_UINT ? (double)s.v.u : s.v.f;
}

/* Advances a row-major multi-index; 0 once it has wrapped around. */
static inline int next_index(int ndim, const int64_t *shape, int64_t *idx) {
  for (int i = ndim - 1; i >= 0; i--) {
    if (++idx[i] < shape[i]) return 1;
    idx[i] = 0;
  }
  return 0;
}

#endif
