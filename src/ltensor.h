/*
 * ltensor.h -- the public C API of ltensor for host programs that embed Lua 5.4.
 *
 * Link with libltensor (CMake: find_package(ltensor CONFIG), target ltensor::ltensor;
 * pkg-config: ltensor). Tensors cross Lua states and threads through DLPack; a userdata is never
 * shared between states.
 */
#ifndef LTENSOR_H
#define LTENSOR_H

#include <lua.h>

#include "dlpack.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LTENSOR_VERSION "0.1.0"

/* The C module ltensor.core: pushes its table. A host that links ltensor statically registers
   it with luaL_requiref(L, "ltensor.core", luaopen_ltensor_core, 0). */
LUAMOD_API int luaopen_ltensor_core(lua_State *L);

/* {====== the DLPack C exchange API for Lua ======
 *
 * DLPack 1.3's DLPackExchangeAPI with a (lua_State *, stack index) in place of each Python
 * object. A tensor's metatable carries it as the light userdata __dlpack_c_exchange_api (also
 * reachable as t.__dlpack_c_exchange_api); a ReadOnlyTensorWrapper carries the const table,
 * which exports READ_ONLY, pushes read-only tensors and never gives a copy-on-write clone its
 * own memory. Check header.version.major == 1 before use. Every function returns 0, or -1 with
 * an error message pushed on the Lua stack; none of them raises a Lua error.
 */
typedef struct ltensor_exchange_api {
  DLPackExchangeAPIHeader header; /* version 1.3, prev_api NULL */
  /* DLPack's allocator: a fresh, zeroed host tensor like prototype (CPU only). */
  DLPackManagedTensorAllocator managed_tensor_allocator;
  /* An owning export of the tensor or wrapper at idx (never copies; the regular table gives
     a copy-on-write clone its own memory first, as any writable export does). */
  int (*managed_tensor_from_lua_no_sync)(lua_State *L, int idx, DLManagedTensorVersioned **out);
  /* Pushes a tensor made from tensor, whose ownership passes in every case (on failure its
     deleter has run). */
  int (*managed_tensor_to_lua_no_sync)(lua_State *L, DLManagedTensorVersioned *tensor);
  /* Fills out with a non-owning view of the tensor or wrapper at idx (shape and strides point
     into the tensor: valid while it lives and is not reshaped). Allocates nothing, except when
     the regular table must first give a copy-on-write clone its own memory. */
  int (*dltensor_from_lua_no_sync)(lua_State *L, int idx, DLTensor *out);
  /* ltensor launches no device work: *out_current_stream = NULL for every device. */
  DLPackCurrentWorkStream current_work_stream;
} ltensor_exchange_api;

/* The two tables, static for the life of the process. */
LUA_API const ltensor_exchange_api *ltensor_exchange(void);
LUA_API const ltensor_exchange_api *ltensor_exchange_const(void);

/* }====== */

#ifdef __cplusplus
}
#endif

#endif
