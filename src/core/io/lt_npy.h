/*
 * lt_npy.h -- NumPy's .npy format: format 1.0, 2.0 and 3.0 headers parsed strictly as the
 * literal dict NumPy writes (never evaluated), C and Fortran order (Fortran loads as the
 * column-major view it is, no copy), either byte order (swapped on load), every dtype NumPy and
 * ltensor share. Lua-free.
 *
 * The header parser works on a memory buffer (the fuzz target calls it that way), and every size
 * is checked against the bytes the file holds before anything is allocated.
 *
 * Calls lt_file.c, lt_tensor.c, lt_storage.c. Called by lt_zip.c (.npz members) and the binding.
 */
#ifndef LT_NPY_H
#define LT_NPY_H

#include <stdint.h>

#include "lt_file.h"

/* The most header bytes ltensor reads (NumPy's own limit is 10000 by default). */
#define LT_NPY_MAX_HEADER ((size_t)1 << 20)
/* Bytes that tell the header's length: magic, version, length field. */
#define LT_NPY_PREFIX 12

typedef struct {
  lt_dtype dtype;
  int swap;    /* stored in the other byte order */
  int fortran; /* column-major */
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  int64_t numel;
  uint64_t nbytes;   /* of the data */
  uint64_t data_off; /* bytes before the data: prefix and header */
} lt_npy_info;

/* From the first min(len, LT_NPY_PREFIX) bytes of a .npy of size bytes: the bytes before its data
   (*off), checked against size and LT_NPY_MAX_HEADER. Message without the file name. */
int lt_npy_header_size(const void *buf, size_t len, uint64_t size, uint64_t *off, lt_error *err);
/* Parses the header in buf (len >= the header size lt_npy_header_size gave) of a .npy of size
   bytes into h, checking that the data fits in size. Message without the file name. */
int lt_npy_parse(const void *buf, size_t len, uint64_t size, lt_npy_info *h, lt_error *err);

/* Loads path; map != 0 maps it instead of reading (read-only tensor on the mapping). */
int lt_npy_load(const char *path, int map, lt_tensor **out, lt_error *err);
/* A new tensor from a .npy held in memory (an .npz member); name for messages. */
int lt_npy_from_memory(const char *name, const void *buf, size_t len, lt_tensor **out,
                       lt_error *err);

/* What saving t as .npy writes: the header, then nbytes of data. */
typedef struct {
  char header[2048];
  size_t header_len;
  const void *data;
  uint64_t nbytes;
  lt_tensor *owned; /* a contiguous copy data points into, or NULL */
} lt_npy_out;
/* Prepares t for saving (messages name `name`); lt_npy_out_free releases the copy. */
int lt_npy_prepare(const char *name, const lt_tensor *t, lt_npy_out *o, lt_error *err);
void lt_npy_out_free(lt_npy_out *o);
/* Saves t to path (a new file renamed over path). */
int lt_npy_save(const char *path, const lt_tensor *t, lt_error *err);

#endif
