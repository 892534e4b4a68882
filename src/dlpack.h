/*
 * dlpack.h -- the DLPack ABI, version 1.3, declared by ltensor.
 *
 * Written from the field lists of the DLPack specification: the type names, field order and
 * include guard match the upstream header, so a program that includes the upstream dlpack.h
 * first still compiles against ltensor (this file then expands to nothing) and the two agree on
 * every byte. The static asserts pin the x86-64 layout.
 */
#ifdef LTENSOR_EXTERNAL_DLPACK /* set by CMake's LTENSOR_DLPACK_HEADER (checked >= 1.0) */
#include LTENSOR_EXTERNAL_DLPACK
#endif

#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 3

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif

#ifndef DLPACK_DLL
#define DLPACK_DLL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of a managed tensor; a consumer checks major before touching anything else. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Where the data lives. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* The kind of number an element is; bits and lanes complete it in DLDataType. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;   /* a DLDataTypeCode */
  uint8_t bits;   /* bits of one lane */
  uint16_t lanes; /* 1 for scalars */
} DLDataType;

/* A view of memory: no ownership. strides may be NULL (compact row-major), in elements. */
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

/* The legacy (unversioned) managed tensor. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/* The versioned managed tensor (DLPack >= 1.0). */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* {====== the C exchange API (DLPack 1.3): a table of functions a framework offers, so that
   another framework converts its tensors without going through the interpreter ====== */

/* Allocates a tensor like prototype (dtype, ndim, shape, device). 0, or -1 after calling
   SetError(error_ctx, kind, message). */
typedef int (*DLPackManagedTensorAllocator)(DLTensor *prototype, DLManagedTensorVersioned **out,
                                            void *error_ctx,
                                            void (*SetError)(void *error_ctx, const char *kind,
                                                             const char *message));
/* An owning managed tensor of the framework object. */
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void *py_object,
                                                     DLManagedTensorVersioned **out);
/* A framework object from a managed tensor, whose ownership is taken. */
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned *tensor,
                                                   void **out_py_object);
/* A non-owning DLTensor of the framework object, filled in place. */
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void *py_object, DLTensor *out);
/* The stream the framework currently works on for a device (NULL when none). */
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void **out_current_stream);

typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader *prev_api; /* an older table, or NULL */
} DLPackExchangeAPIHeader;

typedef struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
  DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
  DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
  DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

/* }====== */

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_DLPACK_H_ */

/* A dlpack.h included before this file declared the types: it must be DLPack 1.0 or later
   (0.x headers, such as Debian 12's libdlpack-dev 0.6, have no DLPACK_MAJOR_VERSION, no
   versioned managed tensor and other struct sizes). */
#if !defined(DLPACK_MAJOR_VERSION) || DLPACK_MAJOR_VERSION < 1
#error \
    "ltensor needs DLPack >= 1.0, but a dlpack.h older than 1.0 (DLPack 0.x, such as Debian 12's libdlpack-dev 0.6) was included before ltensor.h: include ltensor.h first, or use a dlpack.h of version 1.0 or later"
#endif

/* What an external header older than 1.3 lacks: the exchange API types ltensor.h uses. */
#if DLPACK_MAJOR_VERSION == 1 && DLPACK_MINOR_VERSION < 3 && !defined(LTENSOR_DLPACK_EXCHANGE)
#define LTENSOR_DLPACK_EXCHANGE
typedef int (*DLPackManagedTensorAllocator)(DLTensor *prototype, DLManagedTensorVersioned **out,
                                            void *error_ctx,
                                            void (*SetError)(void *error_ctx, const char *kind,
                                                             const char *message));
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void **out_current_stream);
typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader *prev_api;
} DLPackExchangeAPIHeader;
#endif

/* Flags added after DLPack 1.0, for an external header of 1.0. */
#ifndef DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)
#endif

/* The x86-64 layout, whichever header declared the types. */
#if defined(__x86_64__) && !defined(__cplusplus)
_Static_assert(sizeof(DLTensor) == 48, "DLTensor must be 48 bytes on x86-64");
_Static_assert(sizeof(DLManagedTensor) == 64, "DLManagedTensor must be 64 bytes on x86-64");
_Static_assert(sizeof(DLManagedTensorVersioned) == 80,
               "DLManagedTensorVersioned must be 80 bytes on x86-64");
#endif
