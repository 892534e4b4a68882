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

/* How the host API is declared: exported from the shared library (built with
   LTENSOR_BUILD_DLL on Windows), imported by its users, plain for static use (define
   LTENSOR_STATIC on Windows). A host may define LTENSOR_API itself. */
#ifndef LTENSOR_API
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(LTENSOR_BUILD_DLL)
#define LTENSOR_API extern __declspec(dllexport)
#elif defined(LTENSOR_STATIC)
#define LTENSOR_API extern
#else
#define LTENSOR_API extern __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define LTENSOR_API extern __attribute__((visibility("default")))
#else
#define LTENSOR_API extern
#endif
#endif

/* The C module ltensor.core: pushes its table. A host that links ltensor statically registers
   it with luaL_requiref(L, "ltensor.core", luaopen_ltensor_core, 0). */
LUAMOD_API int luaopen_ltensor_core(lua_State *L);

/* {====== the host API ======
 *
 * For programs that embed Lua 5.4 and hand their buffers to scripts. Unless documented
 * otherwise a function returns LTENSOR_OK (0) or an error status, never raises a Lua error into
 * its caller, and on failure pushes one string, the message, on the Lua stack.
 */

#define LTENSOR_OK 0
#define LTENSOR_ERRMEM 1  /* out of memory */
#define LTENSOR_ERRARG 2  /* an invalid argument or DLPack tensor */
#define LTENSOR_ERRTYPE 3 /* the value is not a tensor (or is released) */

/* Flags of ltensor_push_borrowed. */
#define LTENSOR_READ_ONLY 1u

/*
 * Makes ltensor loadable in L without any file: registers package.preload entries for
 * "ltensor.core" and the Lua modules "ltensor", "ltensor.dlpack" and "ltensor.format", whose
 * sources are compiled into the library. Scripts then `require "ltensor"` as usual. For a host
 * that links libltensor statically. Pushes nothing on success.
 */
LTENSOR_API int ltensor_open(lua_State *L);

/*
 * Pushes the `ltensor` module table (what `require "ltensor"` returns), loading it from the
 * sources compiled into the library if no script has required it yet; it needs no `package`
 * library, for a sandboxed host that opens only some of Lua's libraries. The table is recorded
 * in the registry's loaded-modules table (package.loaded), so later calls and a later
 * `require "ltensor"` give the same table. On failure pushes the message instead.
 * Tensors print as torch prints (tostring) whether or not this or require ever ran.
 */
LTENSOR_API int ltensor_push_module(lua_State *L);

/*
 * Pushes a tensor that owns m (DLPack's consumer side). Ownership passes in every case: on
 * failure (invalid tensor, out of memory) m's deleter has run exactly once and the message is
 * pushed instead. m == NULL is an error. The _legacy form takes a DLManagedTensor. The size of
 * m's data is charged to L's collector, as for a tensor ltensor allocates. The deleter may run
 * inside lua_close: it must not create Lua objects in L then (Lua does not finalize objects
 * created while it closes; they would leak).
 */
LTENSOR_API int ltensor_push_managed(lua_State *L, DLManagedTensorVersioned *m);
LTENSOR_API int ltensor_push_managed_legacy(lua_State *L, DLManagedTensor *m);

/* Called once, with ctx, when Lua and every export are done with borrowed memory. */
typedef void (*ltensor_release_fn)(void *ctx);

/* A borrowed buffer the host can take back (see ltensor_revoke_lease). */
typedef struct ltensor_lease ltensor_lease;

/*
 * Pushes a tensor over host memory described by desc (data, device, ndim, dtype, shape,
 * strides (NULL: row-major), byte_offset; validated as an import is), without copying. flags:
 * LTENSOR_READ_ONLY makes every script write raise. release(ctx) runs exactly once, when the
 * tensor, its views and every DLPack export of it are gone, or on failure before this returns
 * (then the message is pushed instead). When lease is not NULL, *lease receives a handle for
 * ltensor_revoke_lease (NULL on failure). Clones a script makes are copies, never the host's
 * memory.
 */
LTENSOR_API int ltensor_push_borrowed(lua_State *L, const DLTensor *desc, unsigned flags,
                                      ltensor_release_fn release, void *ctx, ltensor_lease **lease);

/*
 * Takes a borrowed buffer back (a per-frame buffer at the end of the frame): from now on every
 * script access through the tensor or any view of it raises "tensor has been released".
 * release(ctx) runs now, or later when the last DLPack export of it is gone. Consumes lease.
 * Must run on the thread that uses L, outside any script call. NULL is ignored.
 */
LTENSOR_API void ltensor_revoke_lease(ltensor_lease *lease);

/* Revokes the tensor at idx (and every view sharing its memory), as above. */
LTENSOR_API int ltensor_revoke(lua_State *L, int idx);

/*
 * Exports the tensor (or ReadOnlyTensorWrapper) at idx as a new owning managed tensor, valid
 * after L is closed and releasable on any thread. read_only sets READ_ONLY (always set for
 * read-only tensors and wrappers). A writable export of a copy-on-write clone gives the clone
 * its own memory first.
 */
LTENSOR_API int ltensor_export(lua_State *L, int idx, int read_only,
                               DLManagedTensorVersioned **out);

/* Fills out with a non-owning view of the tensor at idx: valid while that tensor lives and is
   not revoked. Allocates nothing (except to unshare a copy-on-write clone). */
LTENSOR_API int ltensor_borrow(lua_State *L, int idx, DLTensor *out);

/*
 * Caps the tensor memory of L: the bytes of tensor data its tensors hold (made, imported,
 * pushed, loaded or mapped from files; lt.config().memory_used). A tensor that would pass the
 * cap raises "not enough memory (budget N bytes, ...)" before its memory is taken, after one
 * full collection was tried. bytes < 0 removes the cap. A script may set a lower limit
 * (lt.config{memory_limit = n}), never a higher one. Opens ltensor in L if needed.
 */
LTENSOR_API int ltensor_set_memory_limit(lua_State *L, int64_t bytes);
/* The bytes of tensor data charged to L now (its live tensors, and dead ones the collector has
   not freed yet), or -1 when ltensor was never opened in L. */
LTENSOR_API int64_t ltensor_memory_used(lua_State *L);

/* The one process-wide count of threads that bulk operations use (lt.set_num_threads in
   scripts; the caller's thread counts as one; 1 runs everything on the caller's thread).
   Default: the cores the process may use, or the environment variable LTENSOR_NUM_THREADS.
   n < 1 is ignored. Safe to call from any thread at any time. */
LTENSOR_API void ltensor_set_num_threads(int n);
LTENSOR_API int ltensor_get_num_threads(void);

/*
 * The mapping guard, off by default because it changes process-wide state: on != 0 installs a
 * SIGBUS handler (chaining to the one installed before it), so that a file mapped with
 * lt.load(path, {mmap = true}) and then truncated by another writer no longer kills the process
 * at the next read: the read completes (the lost bytes read as zeros) and every later access to
 * the mapping's tensors raises "FILE: file was truncated while mapped". on == 0 restores the
 * previous handler (unless another was installed on top since). Scripts reach it as
 * lt.config{guard_mappings = true}. Install it after any SIGBUS handler of the host's own, or
 * chain to it. On Windows it installs nothing: the system refuses to truncate a mapped file.
 * Returns LTENSOR_OK, or LTENSOR_ERRARG when the system refuses the handler (nothing pushed:
 * it takes no state).
 */
LTENSOR_API int ltensor_guard_mappings(int on);

/* For C functions that scripts call (these raise, as luaL_check* do): */
/* Whether the value at idx is a live tensor. Pushes nothing. */
LTENSOR_API int ltensor_is_tensor(lua_State *L, int idx);
/* The DLTensor view of argument arg (as ltensor_borrow); raises "bad argument" otherwise. */
LTENSOR_API void ltensor_check_tensor(lua_State *L, int arg, DLTensor *out);

/* }====== */

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
LTENSOR_API const ltensor_exchange_api *ltensor_exchange(void);
LTENSOR_API const ltensor_exchange_api *ltensor_exchange_const(void);

/* }====== */

#ifdef __cplusplus
}
#endif

#endif
