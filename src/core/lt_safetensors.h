/*
 * lt_safetensors.h -- Hugging Face's .safetensors format: an 8-byte little-endian header size,
 * a UTF-8 JSON header (name -> {dtype, shape, data_offsets}, and an optional __metadata__ of
 * string -> string) parsed by a small strict parser of our own, then the data, every byte of it
 * covered by exactly one tensor. Every dtype of the format: those ltensor cannot compute with
 * (F8_E4M3, F8_E5M2, F8_E8M0) are kept as opaque tensors and saved back unchanged. Writing
 * follows the format's writers: tensors by alignment then name, the header padded with spaces
 * to a multiple of 8, so that every tensor of a mapped file is aligned. Lua-free.
 *
 * Calls lt_file.c, lt_tensor.c, lt_storage.c. Called by the binding and the fuzz target.
 */
#ifndef LT_SAFETENSORS_H
#define LT_SAFETENSORS_H

#include "lt_file.h"

/* The largest header ltensor reads (the format's reference reader's limit). */
#define LT_ST_MAX_HEADER ((uint64_t)100000000)

typedef struct {
  lt_dtype dtype; /* LT_OPAQUE for the float8 types */
  DLDataType dl;
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  uint64_t begin, end; /* data_offsets, from the first byte after the header */
} lt_st_entry;

/* Parses the JSON header (len bytes) of a file with data_len bytes after it: names and
   metadata into set (tensors left NULL), one entry per name into *entries (malloc'd, set->n of
   them, in the order of their offsets, as set's names are). Checks dtypes, shapes, and that the
   offsets cover the data exactly. Message without the file name. */
int lt_safetensors_parse(const void *header, size_t len, uint64_t data_len, lt_file_set *set,
                         lt_st_entry **entries, lt_error *err);

/* Loads path into set (names in offset order); map != 0 maps the file (read-only tensors
   sharing the mapping). */
int lt_safetensors_load(const char *path, int map, lt_file_set *set, lt_error *err);
/* Saves n named tensors; with has_meta, a __metadata__ of nmeta string pairs. */
int lt_safetensors_save(const char *path, int n, const char **names, const lt_tensor **tensors,
                        int has_meta, int nmeta, const char **keys, const char **vals,
                        lt_error *err);

#endif
