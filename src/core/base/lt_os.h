/*
 * lt_os.h -- what the core asks of the operating system, in one place: anonymous memory
 * mappings, the processor count and cache size, and loading a shared library at run time. POSIX
 * (Linux, the BSDs, macOS) and Windows (VirtualAlloc, GetActiveProcessorCount, LoadLibrary) behind
 * one interface, so the rest of the core compiles for either (CI compiles every source with
 * mingw-w64). Lua-free.
 *
 * Calls nothing else of the core. Called by lt_storage.c (large blocks), lt_pool.c (the default
 * thread count), lt_stream.c (the cache size) and lt_blas.c (the BLAS, opened at the first
 * product).
 */
#ifndef LT_OS_H
#define LT_OS_H

#include <stddef.h>

/* len bytes of fresh zero-filled read-write memory, page aligned; NULL when refused. */
void *lt_os_map(size_t len);
/* Gives back a mapping made by lt_os_map (base and len as it was made). */
void lt_os_unmap(void *base, size_t len);
/* Asks for huge pages under [p, p + len); advice only, ignored where unsupported. */
void lt_os_advise_huge(void *p, size_t len);

/* Gives the C heap's free pages back to the system, where the C library can (glibc's
   malloc_trim; Windows's HeapCompact): freed blocks amid live ones otherwise stay resident. */
void lt_os_heap_trim(void);

/* The processors this process may run on (at least 1). */
int lt_os_cpu_count(void);
/* The size in bytes of the largest (last-level) data cache, or 0 where the system does not
   say. */
size_t lt_os_cache_bytes(void);

/* A shared library opened by name (dlopen's or LoadLibrary's search), or NULL. */
void *lt_os_lib_open(const char *name);
/* The address of the symbol `name` in an open library, or NULL. */
void *lt_os_lib_sym(void *lib, const char *name);
void lt_os_lib_close(void *lib);

#endif
