/*
 * lt_mapguard.h -- the mapping guard: what keeps a process alive when a file that ltensor mapped
 * is truncated under the mapping by another writer (np.save over it, io.open(path, "wb")).
 * Reading a mapped page that the file no longer covers raises SIGBUS, which kills the process;
 * NumPy and torch die the same way.
 *
 * Every mapping of a file (lt_file_map) is registered here, whether or not the guard is on. The
 * guard itself is a SIGBUS handler, installed only when the host or a script asks for it
 * (ltensor_guard_mappings, lt.config{guard_mappings = true}), because signal dispositions belong
 * to the whole process. On a fault inside a registered mapping the handler maps zero pages over
 * the rest of that mapping (from the faulting page on), marks the mapping damaged (the
 * `damaged` flag of its lt_map_note) and returns: the read completes, seeing zeros, on whatever
 * thread it ran (the pool's workers leave SIGBUS unblocked for this), and from then on every
 * access to a tensor of the mapping raises "FILE: file was truncated while mapped" (lt_tensor.h,
 * lt_check_mapping). A fault anywhere else goes to the handler that was installed before (or to
 * the default action, which ends the process as it would have without ltensor).
 *
 * The registry is a lock-free table the handler reads without locking or allocating; registering
 * and removing take a mutex. POSIX only: on Windows a mapped file cannot be truncated (the
 * writer's call fails), so lt_mapguard_enable installs nothing there and the registry goes
 * unread.
 * Lua-free.
 *
 * Calls nothing else of the core. Called by lt_file.c (registering mappings) and the binding
 * (turning the guard on and off).
 */
#ifndef LT_MAPGUARD_H
#define LT_MAPGUARD_H

#include <stdatomic.h>
#include <stddef.h>

#include "lt_tensor.h"

/* Registers the len > 0 bytes mapped at addr, whose damage is recorded in *damaged. Returns a
   ticket for lt_mapguard_remove, or -1 when out of memory (the mapping then simply stays
   unguarded). */
long lt_mapguard_add(void *addr, size_t len, atomic_int *damaged);
/* Removes a registration before its mapping goes (ticket < 0: nothing). */
void lt_mapguard_remove(long ticket);

/* Installs (on != 0) or removes the SIGBUS handler. Removing restores the handler that was
   there before, unless another was installed on top of ltensor's since (that one stays; ltensor's
   then passes every fault on). LT_EARG when the system refuses. On Windows it installs nothing
   and succeeds: the system refuses to truncate a mapped file. */
int lt_mapguard_enable(int on, lt_error *err);
/* Whether the guard is on. */
int lt_mapguard_enabled(void);

#endif
