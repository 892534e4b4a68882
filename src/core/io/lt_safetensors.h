/*
 * lt_safetensors.h -- Hugging Face's .safetensors format: an 8-byte little-endian header size,
 * a UTF-8 JSON header (name -> {dtype, shape, data_offsets}, and an optional __metadata__ of
 * string -> string) parsed by a small strict parser of our own, then the data, every byte of it
 * covered by exactly one tensor. Every dtype of the format: C64 is complex64; those ltensor
 * cannot compute with (the F8_* floats, and F4, F6_E2M3, F6_E3M2, packed several to a byte) are
 * kept as opaque tensors and saved back unchanged. A dtype the format adds later fails its
 * tensor alone in a lenient load (strict = 0), which leaves it out and says why. Writing
 * follows the format's writers: tensors by alignment then name, the header padded with spaces
 * to a multiple of 8, so that every tensor of a mapped file is aligned. Lua-free.
 *
 * lt_safetensors_header.c parses the header (and owns the dtype table); lt_safetensors.c loads
 * and saves. Calls lt_file.c, lt_tensor.c, lt_storage.c. Called by the binding and the fuzz
 * target.
 */
#ifndef LT_SAFETENSORS_H
#define LT_SAFETENSORS_H

#include "lt_file.h"

/* The largest header ltensor reads (the format's reference reader's limit). */
#define LT_ST_MAX_HEADER ((uint64_t)100000000)

typedef struct {
  lt_dtype dtype; /* LT_OPAQUE for the float8, float6 and float4 types */
  DLDataType dl;
  int skip; /* a dtype ltensor does not know (lenient parse): left out, set's why says so */
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  uint64_t begin, end; /* data_offsets, from the first byte after the header */
} lt_st_entry;

/* Parses the JSON header (len bytes) of a file with data_len bytes after it: names and
   metadata into set (tensors left NULL), one entry per name into *entries (malloc'd, set->n of
   them, in the order of their offsets, as set's names are). Checks dtypes, shapes, that no name
   comes twice (sorted, O(n log n)), and that the offsets cover the data exactly. An unknown
   dtype raises when strict, else marks its entry skipped. Message without the file name. */
int lt_safetensors_parse(const void *header, size_t len, uint64_t data_len, int strict,
                         lt_file_set *set, lt_st_entry **entries, lt_error *err);

/* The format's name of DLPack type dl ("F32", "C64", "F4"), or NULL when it has none. */
const char *lt_st_dtype_name(DLDataType dl);
/* Length of the valid UTF-8 sequence at p (< end), 0 when invalid. */
int lt_st_utf8_len(const unsigned char *p, const unsigned char *end);

/* Loads path into set (names in offset order); map != 0 maps the file (read-only tensors
   sharing the mapping; refused for data the mapping cannot give with zero copy, and for BOOL
   data holding bytes other than 0 and 1). strict == 0: a tensor of an unknown dtype is left
   out (NULL, with set->why[i]) and the others load. */
int lt_safetensors_load(const char *path, int map, int strict, lt_file_set *set, lt_error *err);
/* Saves n named tensors; with has_meta, a __metadata__ of nmeta string pairs. */
int lt_safetensors_save(const char *path, int n, const char **names, const lt_tensor **tensors,
                        int has_meta, int nmeta, const char **keys, const char **vals,
                        lt_error *err);

#endif
