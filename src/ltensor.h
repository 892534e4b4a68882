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

#ifdef __cplusplus
}
#endif

#endif
