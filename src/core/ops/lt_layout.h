/*
 * lt_layout.h -- rearranging tensors with torch's names: the stacks hstack, vstack, dstack and
 * column_stack, the piece bounds of tensor_split, movedim, take_along_dim, repeat_interleave,
 * rot90, diag_embed, broadcast_tensors, and the products kron, tensordot and inner. Dims are
 * 0-based; the binding (lua_layout.c) maps its 1-based numbers onto them.
 *
 * Each is composed of the core's views and operations (lt_cat, lt_permute, lt_flip,
 * lt_index_select, lt_gather, lt_binary, lt_matmul) rather than kernels of its own: results
 * are what those give (new contiguous tensors, or views where torch gives views: movedim,
 * broadcast_tensors). Lua-free.
 *
 * Calls lt_tensor.c, lt_copy.c, lt_iter.c (broadcasting), lt_linalg.c, lt_gather.c,
 * lt_shape.c, lt_funcs.c. Called by the binding (lua_layout.c).
 */
#ifndef LT_LAYOUT_H
#define LT_LAYOUT_H

#include "lt_tensor.h"

/* {====== stacking and splitting ====== */

/* The stacks that first give each tensor enough dims, then concatenate (torch's rules). */
typedef enum {
  LT_HSTACK,       /* at least 1-d; along dim 0 for 1-d tensors, else dim 1 */
  LT_VSTACK,       /* at least 2-d (a 1-d tensor of n is a row 1 x n); along dim 0 */
  LT_DSTACK,       /* at least 3-d (n: 1 x n x 1; m x n: m x n x 1); along dim 2 */
  LT_COLUMN_STACK, /* 0-d and 1-d tensors as columns (n x 1); along dim 1 */
} lt_stack_kind;

/* The stack `kind` of ts[0..n) (n >= 1; dtypes promoted as lt_cat's). */
int lt_stack_as(lt_stack_kind kind, const lt_tensor *const *ts, int n, lt_tensor **out,
                lt_error *err);

/* The pieces of torch.tensor_split of a dim of size total, as starts[i] and lens[i]
   (npieces entries: sections, or nidx + 1). With indices NULL: sections >= 1 pieces, the first
   total % sections of them one longer. With indices: a cut before each index (an index counts
   the elements before its cut; negatives count from the end; each clamped to 0..total, as
   Python slices), piece i running from cut i - 1 to cut i (empty when cut i comes first). */
int lt_split_bounds(int64_t total, int64_t sections, int nidx, const int64_t *indices,
                    int64_t *starts, int64_t *lens, lt_error *err);

/* }====== */

/* {====== moving, taking, repeating ====== */

/* torch.movedim: a view of t with dim src[i] at position dst[i] (n pairs, each list of
   distinct 0-based dims); the other dims keep their order in the places left. */
int lt_movedim(const lt_tensor *t, int n, const int *src, const int *dst, lt_tensor **out,
               lt_error *err);
/* torch.take_along_dim: dim >= 0: t and idx (integer, same number of dims) broadcast in every
   dim but dim, then t's elements along dim at idx's positions (counted from base); dim < 0: the
   flattened t at the flattened idx's positions (a 1-d result). */
int lt_take_along_dim(const lt_tensor *t, const lt_tensor *idx, int dim, int base, lt_tensor **out,
                      lt_error *err);
/* The index torch.repeat_interleave(repeats) gives: position i (counted from base) written
   repeats[i] times, for a 0-d or 1-d integer tensor of repeats >= 0 (NULL: the scalar count
   for each of n positions). output_size >= 0 must equal the total. int64. */
int lt_repeat_index(const lt_tensor *repeats, int64_t count, int64_t n, int64_t output_size,
                    int64_t base, lt_tensor **out, lt_error *err);
/* torch.repeat_interleave(repeats) alone: lt_repeat_index of a 1-d integer tensor, in its
   dtype. */
int lt_repeat_positions(const lt_tensor *repeats, int64_t output_size, int64_t base,
                        lt_tensor **out, lt_error *err);
/* torch.repeat_interleave: each element of t along dim (dim < 0: of the flattened t) repeated
   repeats[i] times (repeats a tensor of one value or one per element, or NULL: count). */
int lt_repeat_interleave(const lt_tensor *t, const lt_tensor *repeats, int64_t count, int dim,
                         int64_t output_size, lt_tensor **out, lt_error *err);
/* torch.rot90: t rotated k quarter turns from dim d0 towards d1 (distinct; t at least 2-d). */
int lt_rot90(const lt_tensor *t, int64_t k, int d0, int d1, lt_tensor **out, lt_error *err);
/* torch.diag_embed: a new tensor of t->ndim + 1 dims, zero but for the diagonal `offset` of
   dims d1 and d2 (distinct, 0-based in the result), which holds t's last dim. */
int lt_diag_embed(const lt_tensor *t, int64_t offset, int d1, int d2, lt_tensor **out,
                  lt_error *err);
/* torch.diagflat: the flattened t on diagonal `offset` of a square matrix (lt_diag). */
int lt_diagflat(const lt_tensor *t, int64_t offset, lt_tensor **out, lt_error *err);
/* torch.broadcast_tensors: views of ts[0..n) expanded to their broadcast shape, into outs. */
int lt_broadcast_tensors(const lt_tensor *const *ts, int n, lt_tensor **outs, lt_error *err);

/* }====== */

/* {====== products ====== */

/* torch.kron: the Kronecker product (dims aligned to the last; dtype as lt_binary's mul). */
int lt_kron(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);
/* torch.tensordot: the sum over a's dims da[i] and b's db[i] (n pairs, distinct dims of equal
   sizes); the result has a's other dims, then b's. Through lt_matmul. */
int lt_tensordot(const lt_tensor *a, const lt_tensor *b, int n, const int *da, const int *db,
                 lt_tensor **out, lt_error *err);
/* torch.inner: a 0-d operand multiplies; else the sum over both last dims (equal sizes). */
int lt_inner(const lt_tensor *a, const lt_tensor *b, lt_tensor **out, lt_error *err);

/* }====== */

#endif
