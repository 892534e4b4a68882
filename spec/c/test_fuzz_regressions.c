/*
 * test_fuzz_regressions.c -- the core-level bugs the fuzzers of spec/fuzz found, each as a
 * plain check (their fuzzer inputs are in spec/fuzz/corpus/ as regress-*). Under `make asan`
 * (UBSan) each of these was a report; most also give a wrong result without it.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_dlpack.h"
#include "test_util.h"

static int g_deleted;
static void count_delete(DLManagedTensorVersioned *self) {
  (void)self;
  g_deleted++;
}

/* A versioned managed tensor over data, on the stack of the caller. */
static DLManagedTensorVersioned managed(void *data, int ndim, int64_t *shape, int64_t *strides,
                                        DLDataType dt) {
  DLManagedTensorVersioned m;
  memset(&m, 0, sizeof m);
  m.version.major = 1;
  m.version.minor = 3;
  m.deleter = count_delete;
  m.dl_tensor.data = data;
  m.dl_tensor.device.device_type = kDLCPU;
  m.dl_tensor.ndim = ndim;
  m.dl_tensor.dtype = dt;
  m.dl_tensor.shape = shape;
  m.dl_tensor.strides = strides;
  return m;
}

static const DLDataType INT8 = {kDLInt, 8, 1};

/* Imports an int8 tensor of the given shape and strides over 8 static bytes, through *m (which
   the tensor keeps: on the caller's stack), expecting rc; counts deleter calls from 0. */
static lt_tensor *import_int8(DLManagedTensorVersioned *m, int ndim, int64_t *shape,
                              int64_t *strides, int rc, lt_error *err) {
  static char data[8];
  lt_tensor *t = NULL;
  *m = managed(data, ndim, shape, strides, INT8);
  g_deleted = 0;
  CHECK_RC(lt_dlpack_import(m, 1, &t, err), rc);
  return t;
}

/* fuzz_dlpack_import, regress-dlpack-span-int64-max: a stride of INT64_MAX on a dim of 2
   made the farthest element INT64_MAX bytes away, and the check of span + 1 overflowed (and
   so accepted the tensor). */
static void test_import_span_overflow(void) {
  int64_t shape[1] = {2}, strides[1] = {INT64_MAX};
  DLManagedTensorVersioned m;
  lt_error err;
  lt_tensor *t = import_int8(&m, 1, shape, strides, LT_ERANGE, &err);
  CHECK(t == NULL);
  CHECK(g_deleted == 1);
  CHECKF(strstr(err.msg, "too large") != NULL, "%s", err.msg);
  /* one less is still a valid (if unusual) tensor */
  strides[0] = INT64_MAX - 1;
  t = import_int8(&m, 1, shape, strides, LT_OK, &err);
  lt_tensor_free(t);
  CHECK(g_deleted == 1); /* this import's deleter, as the first's above */
}

/* fuzz_dlpack_import, regress-unsqueeze-huge-stride: unsqueeze gives the new size-1 dim the
   stride size * stride of the dim it goes before, which overflowed for a DLPack tensor's
   huge stride. */
static void test_unsqueeze_huge_stride(void) {
  int64_t shape[1] = {2}, strides[1] = {4673492543952257023};
  DLManagedTensorVersioned m;
  lt_error err;
  lt_tensor *u = NULL, *t = import_int8(&m, 1, shape, strides, LT_OK, &err);
  if (!t) return;
  CHECK_RC(lt_unsqueeze(t, 0, &u, &err), LT_OK);
  if (u) {
    CHECK(u->ndim == 2 && u->shape[0] == 1 && u->shape[1] == 2);
    CHECK(u->strides[1] == strides[0]);
    CHECK(lt_data(u) == lt_data(t));
    lt_tensor_free(u);
  }
  lt_tensor_free(t);
  CHECK(g_deleted == 1);
}

/* fuzz_dlpack_import, regress-empty-huge-stride: an empty tensor's strides are not checked
   (they address nothing), but select and slice on its other dims computed offsets with them:
   select(dim 2, index 5) of a (0, 5) tensor with a stride of 5.2e18 overflowed. */
static void test_empty_huge_stride(void) {
  int64_t shape[2] = {0, 5}, strides[2] = {5, 5188147870229528057};
  DLManagedTensorVersioned m;
  lt_error err;
  lt_tensor *v = NULL, *t = import_int8(&m, 2, shape, strides, LT_OK, &err);
  if (!t) return;
  CHECK(t->shape[0] == 0 && t->shape[1] == 5);
  CHECK(t->strides[0] == 5 && t->strides[1] == 1); /* row-major */
  CHECK_RC(lt_select(t, 1, 4, &v, &err), LT_OK);
  lt_tensor_free(v);
  CHECK_RC(lt_slice(t, 1, 4, 1, 1, &v, &err), LT_OK);
  lt_tensor_free(v);
  CHECK_RC(lt_unsqueeze(t, 1, &v, &err), LT_OK);
  lt_tensor_free(v);
  lt_tensor_free(t);
  CHECK(g_deleted == 1);
}

/* A new float32 tensor of shape (3), or NULL (counted as a failure). */
static lt_tensor *float32_3(lt_error *err) {
  int64_t shape[1] = {3};
  lt_tensor *t = NULL;
  CHECK_RC(lt_tensor_new(LT_FLOAT32, 1, shape, 1, &t, err), LT_OK);
  return t;
}

/* fuzz_dlpack_import, regress-check-dim-int-max: the error message of an out-of-range dim
   printed dim + 1 in int, which overflowed for INT_MAX. */
static void test_dim_int_max(void) {
  lt_error err;
  lt_tensor *v = NULL, *t = float32_3(&err);
  if (!t) return;
  CHECK_RC(lt_transpose(t, INT_MAX, 0, &v, &err), LT_ERANGE);
  CHECKF(strcmp(err.msg, "dim 2147483648 out of range (expected 1 to 1)") == 0, "%s", err.msg);
  CHECK_RC(lt_select(t, INT_MAX, 0, &v, &err), LT_ERANGE);
  CHECK_RC(lt_unsqueeze(t, INT_MAX, &v, &err), LT_ERANGE);
  CHECKF(strcmp(err.msg, "dim 2147483648 out of range (expected 1 to 2)") == 0, "%s", err.msg);
  CHECK(v == NULL);
  lt_tensor_free(t);
}

/* The same for the index of an error message: start + 1 of a start of INT64_MAX. */
static void test_index_int64_max(void) {
  lt_error err;
  lt_tensor *v = NULL, *t = float32_3(&err);
  if (!t) return;
  CHECK_RC(lt_slice(t, 0, INT64_MAX, 0, 1, &v, &err), LT_ERANGE);
  CHECKF(strstr(err.msg, "start 9223372036854775808 out") != NULL, "%s", err.msg);
  CHECK_RC(lt_narrow(t, 0, INT64_MAX, 1, &v, &err), LT_ERANGE);
  CHECKF(strstr(err.msg, "start 9223372036854775808 out") != NULL, "%s", err.msg);
  CHECK_RC(lt_select(t, 0, INT64_MAX, &v, &err), LT_ERANGE);
  CHECKF(strstr(err.msg, "index 9223372036854775808 is") != NULL, "%s", err.msg);
  CHECK_RC(lt_narrow(t, 0, INT64_MIN, 1, &v, &err), LT_ERANGE);
  CHECKF(strstr(err.msg, "start -9223372036854775807 out") != NULL, "%s", err.msg);
  CHECK_RC(lt_select(t, 0, -1, &v, &err), LT_ERANGE);
  CHECKF(strstr(err.msg, "index 0 is") != NULL, "%s", err.msg);
  CHECK(v == NULL);
  lt_tensor_free(t);
}

/* fuzz_bytes, regress-bf16-int-double-rounding: an integer stored into bfloat16 went through
   a double first and was rounded twice. 0x7EBFFFFFFFFFFEC3 is 253.4987... * 2^55: its
   bfloat16 is 253 * 2^55 (0x5EFD), but the double 0x7EC0000000000000 lies exactly halfway
   between 253 and 254 * 2^55 and rounded to even, 254 (0x5EFE). */
static void test_bf16_from_int(void) {
  uint16_t h;
  lt_scalar s = {LT_SK_INT, {.i = 0x7EBFFFFFFFFFFEC3}, 0};
  CHECK(lt_store(LT_BFLOAT16, &h, &s) == LT_STORE_OK);
  CHECKF(h == 0x5EFD, "bfloat16 of 0x7EBFFFFFFFFFFEC3 is 0x%04X", h);
  s.v.i = -0x7EBFFFFFFFFFFEC3;
  CHECK(lt_store(LT_BFLOAT16, &h, &s) == LT_STORE_OK);
  CHECKF(h == 0xDEFD, "bfloat16 of -0x7EBFFFFFFFFFFEC3 is 0x%04X", h);
  s.kind = LT_SK_UINT;
  s.v.u = 0xFD7FFFFFFFFFFFFFu; /* below halfway between 0xFD and 0xFE << 56; its double is
                                  exactly halfway */
  CHECK(lt_store(LT_BFLOAT16, &h, &s) == LT_STORE_OK);
  CHECKF(h == 0x5F7D, "bfloat16 of 0xFD7FFFFFFFFFFFFF is 0x%04X", h);
  s.kind = LT_SK_INT;
  s.v.i = INT64_MIN; /* exact: -2^63 */
  CHECK(lt_store(LT_BFLOAT16, &h, &s) == LT_STORE_OK);
  CHECKF(h == 0xDF00, "bfloat16 of INT64_MIN is 0x%04X", h);
  /* beyond 65504 a write raises (as torch's); an operand (lt_store_wrap) still rounds */
  s.v.i = 65519; /* float16: below the halfway point to 65536, so 65504 */
  CHECK(lt_store(LT_FLOAT16, &h, &s) == LT_STORE_RANGE);
  CHECK(lt_store_wrap(LT_FLOAT16, &h, &s) == LT_STORE_OK);
  CHECKF(h == 0x7BFF, "float16 of 65519 is 0x%04X", h);
  s.v.i = 65520; /* halfway, rounds to even: past the largest float16, inf */
  CHECK(lt_store_wrap(LT_FLOAT16, &h, &s) == LT_STORE_OK);
  CHECKF(h == 0x7C00, "float16 of 65520 is 0x%04X", h);
  /* the rounding helper itself: exact below 2^53, odd-rounded above */
  CHECK(lt_u64_to_f64_odd(((uint64_t)1 << 53) - 1) == 0x1p53 - 1);
  CHECK(lt_u64_to_f64_odd(((uint64_t)1 << 53) + 2) == 0x1p53 + 2);
  CHECK(lt_u64_to_f64_odd(((uint64_t)1 << 54) + 2) == 0x1p54 + 4); /* sticky: odd */
  CHECK(lt_i64_to_f64_odd(INT64_MIN) == -0x1p63);
}

int main(void) {
  test_import_span_overflow();
  test_unsqueeze_huge_stride();
  test_empty_huge_stride();
  test_dim_int_max();
  test_index_int64_max();
  test_bf16_from_int();
  return tu_finish("test_fuzz_regressions");
}
