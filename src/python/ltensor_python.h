/*
 * ltensor_python.h -- tensors between CPython and Lua 5.4 in one process, through DLPack: the
 * optional library ltensor_python (CMake target ltensor::python) for hosts that embed both.
 *
 * It uses only ltensor's host API (ltensor.h), so it links with either ltensor library
 * (ltensor::ltensor or ltensor::ltensor_shared), and with Python's embedding library. Include
 * this header first: it includes Python.h, which must come before the system headers.
 *
 * Both calls must be made by a thread that holds the GIL and uses L (L's thread); neither
 * raises a Lua error into its caller. Memory crosses without copies (unless a consumer asks
 * __dlpack__ for copy=True); the tensor's memory stays valid as long as either side holds it.
 */
#ifndef LTENSOR_PYTHON_H
#define LTENSOR_PYTHON_H

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include "ltensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Pushes a Lua tensor sharing the memory of obj: an object with __dlpack__ (a NumPy array, a
 * torch tensor, an export of ltensor_py_export) or a DLPack PyCapsule itself ("dltensor" or
 * "dltensor_versioned"). __dlpack__ is called with max_version=(1, 3) first; a producer that
 * rejects the keyword with a TypeError (NumPy 1.x, torch 1.x) is called again without
 * arguments. The capsule is consumed: its pointer passes to the tensor, which owns it from then
 * on (ltensor_push_managed), and it is renamed "used_dltensor" / "used_dltensor_versioned" so
 * its destructor no longer deletes. A versioned tensor marked READ_ONLY becomes a read-only Lua
 * tensor. obj itself is borrowed.
 *
 * Returns LTENSOR_OK with the tensor pushed, or an error status with the message pushed
 * instead: LTENSOR_ERRARG (obj is NULL, has no __dlpack__, __dlpack__ raised or returned no
 * DLPack capsule, the capsule was already consumed, or ltensor refused the tensor),
 * LTENSOR_ERRMEM (out of memory, or __dlpack__ raised MemoryError). On every path no Python
 * exception is left set (a raised one is cleared after its text went into the message); a
 * capsule that was consumed has had its tensor's deleter run when the push failed, and one that
 * was not is left as it was.
 */
LTENSOR_API int ltensor_py_push(lua_State *L, PyObject *obj);

/*
 * A new Python object exporting the tensor (or ReadOnlyTensorWrapper) at idx, for
 * numpy.from_dlpack, torch.from_dlpack and any other DLPack consumer. It holds an owning export
 * of the tensor (ltensor_export), not a Lua reference, so it and every capsule it gave stay
 * valid after lua_close; the tensor's memory is released when the object and all those
 * capsules (and what consumed them) are gone, on whatever thread drops the last.
 *
 * obj.__dlpack_device__() gives (device_type, device_id). obj.__dlpack__(stream=None, *,
 * max_version=None, dl_device=None, copy=None) makes a fresh export on each call: a
 * "dltensor_versioned" capsule when max_version >= (1, 0) (READ_ONLY set for a read-only
 * tensor, IS_COPIED for a copy), else a legacy "dltensor" one, which a read-only tensor refuses
 * with BufferError (it cannot mark it read-only) unless copy=True. copy=True gives a new
 * contiguous copy that the consumer owns; copy=False or None shares the memory. dl_device other
 * than the tensor's own device raises BufferError (ltensor does not copy between devices);
 * stream must be None or an int (ltensor does no device work). An unconsumed capsule deletes
 * its export when it is collected.
 *
 * Returns the new reference, or NULL with a Python exception set: TypeError when the value at
 * idx is no live tensor, MemoryError, ValueError otherwise (the message is ltensor's). The Lua
 * stack is left as it was on every path.
 */
LTENSOR_API PyObject *ltensor_py_export(lua_State *L, int idx);

#ifdef __cplusplus
}
#endif

#endif
