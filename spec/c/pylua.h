/*
 * pylua.h -- test support between CPython and Lua 5.4 in one process, for the interop tests
 * (numpy_host.c, torch_host.c, test_require.c) and the NumPy benches: starting the embedded
 * Python, plain values, and raw DLPack capsules on both sides (what hosts use is ltensor's
 * Python library, src/python/ltensor_python.h; the capsule functions here check ltensor's Lua
 * capsule convention itself, and serve torch_host_require and test_require, which link no
 * ltensor library).
 *
 * Python's side of DLPack is a PyCapsule named "dltensor" (DLManagedTensor*) or
 * "dltensor_versioned" (DLManagedTensorVersioned*), renamed "used_dltensor" /
 * "used_dltensor_versioned" by the consumer that took the pointer. Lua's side is ltensor's
 * capsule convention: a full userdata of exactly sizeof(void *) holding the pointer, with the
 * registry metatable "dltensor" / "dltensor_versioned"; the consumer sets the pointer to NULL
 * and switches the metatable to the registry's "used_dltensor" / "used_dltensor_versioned".
 * Nothing here links ltensor: the registry metatables must exist (load ltensor.core first).
 *
 * Every function reports failure as NULL / -1 with a Python exception set, and never lets a
 * Lua error escape (allocations in Lua run in protected mode). Ownership of a managed tensor
 * is never lost: it is either moved to the other side or left where it was.
 * The caller holds the GIL; the Lua state is used from this thread only.
 */
#ifndef PYLUA_H
#define PYLUA_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <lua.h>

/* Readies the Exporter type. Call once after Py_Initialize; 0, or -1 with an exception. */
int pylua_init(void);

/* Starts the embedded Python with this program's argv (so sys.prefix is the libpython's, not a
   python3 found on PATH), without its signal handlers, and calls pylua_init. Returns the
   __main__ dict (borrowed), or NULL after printing why, prefixed by `who`. */
PyObject *pylua_start(int argc, char **argv, const char *who);

/* {====== Python -> Lua ====== */

/* Consumes the DLPack PyCapsule `capsule` ("dltensor" or "dltensor_versioned": the pointer is
   taken and the capsule renamed "used_...", so its own destructor no longer calls the
   deleter) and pushes an owning Lua capsule of the same kind. 0, or -1 with an exception
   (nothing pushed, the PyCapsule untouched). */
int pylua_push_pycapsule(lua_State *L, PyObject *capsule);

/* Pushes an owning Lua capsule for the managed tensor `managed` (a DLManagedTensor*, or a
   DLManagedTensorVersioned* when versioned). Ownership always passes: on failure (-1 with an
   exception, nothing pushed) the deleter has been called. */
int pylua_push_managed(lua_State *L, void *managed, int versioned);

/* }====== */

/* {====== Lua -> Python ====== */

/* Consumes the Lua capsule at idx (pointer set to NULL, metatable "used_...") and returns a
   new PyCapsule of the same name owning the managed tensor: its destructor calls the deleter
   only while the capsule still has its original name (nobody consumed it). NULL with an
   exception when the value is not an unconsumed capsule (the value is then untouched). */
PyObject *pylua_take_capsule(lua_State *L, int idx);

/* A new object whose __dlpack__(stream=None, *, max_version=None, dl_device=None, copy=None)
   returns `capsule` (the same one on every call, so a second consumer fails cleanly) and whose
   __dlpack_device__() returns the (device_type, device_id) of the tensor, read now. For
   np.from_dlpack(obj). The object keeps a reference to the capsule. */
PyObject *pylua_exporter_new(PyObject *capsule);

/* }====== */

/* {====== plain values ====== */

/* The Lua value at idx as a Python object: nil None, boolean bool, integer int, float float,
   string bytes, table list of its sequence part 1..#t (recursively). Other types fail. */
PyObject *pylua_to_py(lua_State *L, int idx);

/* Pushes `obj` as a Lua value: None nil, bool, int (int64 range), float, complex {re, im},
   bytes and str strings, list and tuple tables (recursively). 0, or -1 with an exception. */
int pylua_push_py(lua_State *L, PyObject *obj);

/* }====== */

#endif
