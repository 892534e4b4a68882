/*
 * lua_parts.h -- the openers of the parts of ltensor.core (not installed). Each part's file
 * defines its opener; lua_init.c, the one file that knows every part, alone calls them.
 */
#ifndef LUA_PARTS_H
#define LUA_PARTS_H

#include <lauxlib.h>
#include <lua.h>

/* Absolute stack indices of the tables a part fills: the tensor metatable, the methods and
   properties tables __index reads, and the module table. */
typedef struct {
  int mt, methods, props, module;
} ltl_tables;

/* What a part adds: functions for the metatable, the methods and properties tables and the
   module table (each NULL-terminated, or NULL for none), and an opener for what a table of
   functions cannot say (or NULL): closures, metatables of its own, and the module forms of its
   methods (ltl_module_forms: lt.f for t:f where torch has torch.f). lua_init.c sets the tables
   first, then calls open. */
typedef struct {
  const luaL_Reg *metameth, *methods, *props, *funcs;
  void (*open)(lua_State *L, const ltl_tables *at);
} ltl_part;

/* Constructors, methods, properties, __gc/__close (lua_tensor.c). */
extern const ltl_part ltl_part_tensor;
/* __index, __newindex, __len, get/set (lua_index.c). */
extern const ltl_part ltl_part_index;
/* Operators, elementwise methods, linear algebra (lua_math.c). */
extern const ltl_part ltl_part_math;
/* sigmoid, relu, gelu, erf, atan2, lerp, nan_to_num, ... (lua_funcs.c). */
extern const ltl_part ltl_part_funcs;
/* Reductions: sum, mean, max, var, norm, ... (lua_reduce.c). */
extern const ltl_part ltl_part_reduce;
/* softmax, logsumexp, isclose, allclose, equal, dist, outer, cross (lua_softmax.c). */
extern const ltl_part ltl_part_softmax;
/* flip, roll, repeat, split, chunk, tril, diagonal, eye, linspace, meshgrid, ... (lua_shape.c). */
extern const ltl_part ltl_part_shape;
/* tensor_split, movedim, rot90, hstack, kron, tensordot, tril_indices, ... (lua_layout.c). */
extern const ltl_part ltl_part_layout;
/* sort, topk, unique, cumsum, searchsorted, bincount, histc, ... (lua_sort.c). */
extern const ltl_part ltl_part_sort;
/* nanmedian, quantile, cov, corrcoef, diff, histogram, logcumsumexp, lt.trapezoid
   (lua_stats.c). */
extern const ltl_part ltl_part_stats;
/* lt.einsum (lua_einsum.c). */
extern const ltl_part ltl_part_einsum;
/* Generators, rand, randn, randint, ..., uniform_, normal_, ... (lua_random.c). */
extern const ltl_part ltl_part_random;
/* The capsule metatables (in the registry), __dlpack, from_dlpack, to_dlpack (lua_dlpack.c). */
extern const ltl_part ltl_part_dlpack;
/* lt.save and lt.load: .npy, .npz, .safetensors (lua_file.c). */
extern const ltl_part ltl_part_file;
/* The wrapper metatable and ReadOnlyTensorWrapper (lua_wrapper.c). */
extern const ltl_part ltl_part_wrapper;
/* The namespace tables lt.linalg and lt.nn.functional, before the parts that fill them
   (lua_spaces.c). */
extern const ltl_part ltl_part_spaces;
/* lt.nn.functional's activations and losses; lt.selu, lt.celu, lt.threshold (lua_nn_act.c). */
extern const ltl_part ltl_part_nn_act;
/* lt.nn.functional's linear, norms, pad, interpolate, attention, embedding (lua_nn_norm.c). */
extern const ltl_part ltl_part_nn_norm;
/* lt.linalg's solve, inv, det, cholesky, lu, ... and t:inverse, t:det, ... (lua_linalg_solve.c). */
extern const ltl_part ltl_part_linalg_solve;
/* lt.linalg.matrix_exp, multi_dot, vecdot, cross, diagonal; t:matrix_exp (lua_linalg_funcs.c). */
extern const ltl_part ltl_part_linalg_funcs;
/* lt.linalg's qr, svd, eigh, eig, lstsq, pinv, matrix_rank, norms, cond; t:pinverse
   (lua_linalg_decomp.c; after ltl_part_spaces). */
extern const ltl_part ltl_part_linalg_decomp;
/* lt.config: the BLAS, the memory budget (lua_config.c). */
extern const ltl_part ltl_part_config;
/* index_select, gather, scatter, take, masked_select, nonzero, ..., lt.where(cond)
   (lua_gather.c; after ltl_part_math, whose lt.where it extends). */
extern const ltl_part ltl_part_gather;
/* cdist, pdist, isin, bucketize, unique_consecutive (lua_dist.c). */
extern const ltl_part ltl_part_dist;

/* conv1d/2d/3d, conv_transpose1d/2d, the pools, unfold, fold in lt.nn.functional
   (lua_nn_conv.c; after ltl_part_spaces). */
extern const ltl_part ltl_part_nn_conv;
/* lt.fft: torch.fft's transforms, frequencies and shifts (lua_fft.c; after ltl_part_spaces). */
extern const ltl_part ltl_part_fft;

/* lt.image: PNG and JPEG images read and written as tensors (lua_image.c; after
   ltl_part_spaces). */
extern const ltl_part ltl_part_image;

#endif
