/*
 * fuzz_index.c -- libFuzzer target: indexing, slicing, element writes and the view methods of
 * the Lua binding.
 *
 * One long-lived lua_State (made on the first input, with ltensor_open) runs every input as a
 * small program that is not Lua source: the input's bytes choose a tensor (dtype, <= 4 dims of
 * sizes 0..4, and a variant: plain, transposed, a copy-on-write clone, read-only through a
 * ReadOnlyTensorWrapper, expanded, stepped, or host memory pushed with ltensor_push_borrowed),
 * then a sequence of operations on up to 8 tensor slots: reads t[key] and writes t[key] = v
 * with keys built from the bytes (integers small, negative, zero and huge; floats; booleans;
 * strings; tables of entries with nil holes and {a, b, step} ranges; tensors; nil), the view
 * methods (view/reshape with -1, transpose, permute, narrow, select, unsqueeze, squeeze,
 * flatten, expand), get/set with index lists, and tolist, tostring, clone, contiguous, copy_,
 * fill_, bytes, __close and ltensor_revoke. Each operation runs under lua_pcall: errors are
 * expected; crashes, sanitizer reports and leaks are not. A full garbage collection runs every
 * GC_EVERY inputs, and the host buffers' release callbacks free them (a use after release is a
 * heap-use-after-free).
 *
 * Results are kept in slots only while small (at most SLOT_MAX elements, counting a 0 size as
 * 1), so that no program can ask for a giant materialization (tolist of an expanded tensor).
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_lua.h"
#include "ltensor.h"
#include "lua_ud.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSLOTS 8
#define SLOT_MAX 4096
#define MAX_OPS 64
/* A full collection every GC_EVERY inputs (compile with -DGC_EVERY=n to change). With 1, the
   memory an input allocates is freed before it ends, so libFuzzer's leak check (which runs
   LeakSanitizer, slowly, after every input that frees less than it allocated) rarely runs. */
#ifndef GC_EVERY
#define GC_EVERY 64
#endif

static lua_State *L;
static int ref_lt, ref_dlpack;
static unsigned long runs;

static const char *const DTYPE_NAMES[] = {
    "bool",   "uint8",   "int8",     "int16",   "int32",   "int64",     "uint16",    "uint32",
    "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
#define NDT (sizeof DTYPE_NAMES / sizeof DTYPE_NAMES[0])

static const char *const STRINGS[] = {"shape", "size",  "",   "1",    "x",    "__index",
                                      "dtype", "numel", "-1", "ndim", "__gc", "view"};
#define NSTRINGS (sizeof STRINGS / sizeof STRINGS[0])

static void fail(const char *what) {
  fprintf(stderr, "fuzz_index: %s\n", what);
  abort();
}

/* {====== values from bytes ====== */

static void push_huge_int(lua_State *l, fz_in *in) {
  static const lua_Integer huge[] = {LUA_MININTEGER,          LUA_MAXINTEGER,
                                     LUA_MININTEGER + 1,      LUA_MAXINTEGER - 1,
                                     (lua_Integer)1 << 31,    -((lua_Integer)1 << 31) - 1,
                                     (lua_Integer)1 << 32,    (lua_Integer)1 << 53,
                                     -((lua_Integer)1 << 53), (lua_Integer)1 << 62};
  uint8_t b = fz_u8(in);
  if (b < 0xF0)
    lua_pushinteger(l, huge[b % (sizeof huge / sizeof huge[0])]);
  else
    lua_pushinteger(l, (lua_Integer)fz_i64(in));
}

static void push_float(lua_State *l, fz_in *in) {
  static const double f[] = {2.0,     -1.0, 1.5,  -0.0,    1e300, 3.0, 0x1p63,
                             -0x1p63, 0.5,  -2.5, 65520.0, 1e20,  4.0};
  uint8_t b = fz_u8(in);
  switch (b % 16) {
    case 13: lua_pushnumber(l, NAN); break;
    case 14: lua_pushnumber(l, b & 0x10 ? HUGE_VAL : -HUGE_VAL); break;
    case 15: {
      uint64_t u = fz_u64(in);
      double d;
      memcpy(&d, &u, sizeof d);
      lua_pushnumber(l, d);
      break;
    }
    default: lua_pushnumber(l, f[b % 16]);
  }
}

static void push_string(lua_State *l, fz_in *in) {
  uint8_t b = fz_u8(in);
  if (b < 0xE0) {
    lua_pushstring(l, STRINGS[b % NSTRINGS]);
  } else {
    char s[8];
    size_t n = b % 8;
    for (size_t i = 0; i < n; i++) s[i] = (char)fz_u8(in);
    lua_pushlstring(l, s, n);
  }
}

/* A small integer (-6..6), or sometimes a huge one. */
static void push_index(lua_State *l, fz_in *in) {
  uint8_t b = fz_u8(in);
  if (b < 0xF0)
    lua_pushinteger(l, (lua_Integer)(b % 13) - 6);
  else
    push_huge_int(l, in);
}

/* A dim argument: mostly -6..6, sometimes huge, a float, a string or nil. */
static void push_dim(lua_State *l, fz_in *in) {
  uint8_t b = fz_u8(in);
  if (b < 0xF0) {
    lua_pushinteger(l, (lua_Integer)(b % 13) - 6);
    return;
  }
  switch (b % 4) {
    case 0: push_huge_int(l, in); break;
    case 1: push_float(l, in); break;
    case 2: push_string(l, in); break;
    default: lua_pushnil(l);
  }
}

/* A size: -1 (inferred), 0..6, or sometimes huge or negative. */
static void push_size(lua_State *l, fz_in *in) {
  uint8_t b = fz_u8(in);
  if (b < 0x20)
    lua_pushinteger(l, -1);
  else if (b < 0xF0)
    lua_pushinteger(l, b % 7);
  else if (b < 0xF8)
    push_huge_int(l, in);
  else
    lua_pushinteger(l, -(lua_Integer)(b % 4) - 2);
}

/* The tensor in slot i (1-based) of the slots table at `slots`, or the base in slot 1. */
static void push_slot(lua_State *l, int slots, int i) {
  if (lua_rawgeti(l, slots, i) == LUA_TNIL) {
    lua_pop(l, 1);
    lua_rawgeti(l, slots, 1);
  }
}

/* {a, b, step} with any of them missing (nil holes), or of a wrong type. */
static void push_range(lua_State *l, fz_in *in) {
  uint8_t present = fz_u8(in);
  lua_createtable(l, 3, 0);
  for (int j = 1; j <= 3; j++) {
    if (!(present & (1u << (j - 1)))) continue;
    uint8_t b = fz_u8(in);
    switch (b % 8) {
      case 5: push_huge_int(l, in); break;
      case 6: push_float(l, in); break;
      case 7:
        if (b & 0x80)
          push_string(l, in);
        else
          lua_pushboolean(l, 1);
        break;
      default: push_index(l, in);
    }
    lua_rawseti(l, -2, j);
  }
  if (present & 0x80) { /* a fourth entry, ignored or not */
    push_index(l, in);
    lua_rawseti(l, -2, 4);
  }
}

static void push_key(lua_State *l, fz_in *in, int slots, int depth);

/* A table key: entries that select (integers) or range ({a, b, step}), with nil holes and
   anything else mixed in. */
static void push_key_table(lua_State *l, fz_in *in, int slots, int depth) {
  int n = fz_u8(in) % 6;
  lua_createtable(l, n, 0);
  for (int j = 1; j <= n; j++) {
    uint8_t b = fz_u8(in);
    switch (b % 10) {
      case 0: continue; /* a hole */
      case 1:
      case 2:
      case 3: push_index(l, in); break;
      case 4:
      case 5:
      case 6: push_range(l, in); break;
      case 7: lua_createtable(l, 0, 0); break; /* {}: the whole dim */
      case 8: push_float(l, in); break;
      default:
        if (depth < 3)
          push_key(l, in, slots, depth + 1);
        else
          lua_pushboolean(l, 0);
    }
    if (lua_isnil(l, -1)) {
      lua_pop(l, 1);
      continue;
    }
    lua_rawseti(l, -2, j);
  }
}

static void push_key(lua_State *l, fz_in *in, int slots, int depth) {
  uint8_t b = fz_u8(in);
  switch (b % 12) {
    case 0:
    case 1:
    case 2: push_index(l, in); break;
    case 3: push_huge_int(l, in); break;
    case 4: lua_pushinteger(l, 0); break;
    case 5: push_float(l, in); break;
    case 6: lua_pushboolean(l, b & 0x10); break;
    case 7: push_string(l, in); break;
    case 8:
    case 9:
    case 10: push_key_table(l, in, slots, depth); break;
    default:
      if (b & 0x10)
        push_slot(l, slots, 1 + fz_u8(in) % NSLOTS);
      else
        lua_pushnil(l);
  }
}

/* A value to write: numbers of every kind, booleans, nil, strings, nested tables (rows that
   may or may not match the shape, {re, im}), or a tensor (possibly overlapping the target). */
static void push_value(lua_State *l, fz_in *in, int slots, int depth) {
  uint8_t b = fz_u8(in);
  switch (b % 10) {
    case 0:
    case 1: lua_pushinteger(l, (lua_Integer)fz_u16(in) - 300); break;
    case 2: push_huge_int(l, in); break;
    case 3: push_float(l, in); break;
    case 4: lua_pushboolean(l, b & 0x10); break;
    case 5:
      if (b & 0x10)
        lua_pushnil(l);
      else
        push_string(l, in);
      break;
    case 6:
    case 7: {
      int n = fz_u8(in) % 5;
      lua_createtable(l, n, 0);
      for (int j = 1; j <= n; j++) {
        if (depth < 3)
          push_value(l, in, slots, depth + 1);
        else
          lua_pushinteger(l, j);
        lua_rawseti(l, -2, j);
      }
      break;
    }
    default: push_slot(l, slots, 1 + fz_u8(in) % NSLOTS);
  }
}

/* }====== */

/* {====== tensors in slots ====== */

/* Whether the value on top is a live tensor small enough to keep (and so to materialize). */
static int keepable(lua_State *l) {
  ltl_ud *ud = ltl_testud(l, -1);
  if (!ud || !ud->t || ud->t->storage->revoked) return 0;
  const lt_tensor *t = ud->t;
  if (t->ndim > 16) return 0;
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) {
    int64_t s = t->shape[i] > 1 ? t->shape[i] : 1;
    if (s > SLOT_MAX || (n *= s) > SLOT_MAX) return 0;
  }
  return 1;
}

/* Pops the value on top into slot dst when it is a keepable tensor. */
static void keep(lua_State *l, int slots, int dst) {
  if (keepable(l))
    lua_rawseti(l, slots, dst);
  else
    lua_pop(l, 1);
}

/* Host memory behind the borrowed variant: freed by its release callback. */
static void release_host(void *ctx) { free(ctx); }

/* Pushes the dlpack module, then dlpack.from_dlpack(dlpack[inner](the tensor at t)) above it. */
static void through_dlpack(lua_State *l, int t, const char *inner) {
  lua_rawgeti(l, LUA_REGISTRYINDEX, ref_dlpack);
  lua_getfield(l, -1, "from_dlpack");
  lua_getfield(l, -2, inner);
  lua_pushvalue(l, t);
  lua_call(l, 1, 1);
  lua_call(l, 1, 1);
}

/* make_base(in, slots): the tensor of slot 1 (and its source in slot 2). */
static int make_base(lua_State *l) {
  fz_in *in = lua_touserdata(l, 1);
  const int slots = 2;
  uint8_t db = fz_u8(in), nb = fz_u8(in), vb = fz_u8(in);
  const char *dt = DTYPE_NAMES[db % NDT];
  int ndim = nb % 5;
  int64_t shape[4], numel = 1;
  for (int i = 0; i < ndim; i++) numel *= (shape[i] = fz_u8(in) % 5);
  lua_rawgeti(l, LUA_REGISTRYINDEX, ref_lt);
  const int lt = lua_gettop(l);
  if (vb % 8 == 7) { /* host memory (bools of any byte value), maybe read-only */
    static const DLDataType dls[NDT] = {
        {kDLBool, 8, 1},   {kDLUInt, 8, 1},     {kDLInt, 8, 1},      {kDLInt, 16, 1},
        {kDLInt, 32, 1},   {kDLInt, 64, 1},     {kDLUInt, 16, 1},    {kDLUInt, 32, 1},
        {kDLUInt, 64, 1},  {kDLFloat, 16, 1},   {kDLBfloat, 16, 1},  {kDLFloat, 32, 1},
        {kDLFloat, 64, 1}, {kDLComplex, 64, 1}, {kDLComplex, 128, 1}};
    DLDataType dl = dls[db % NDT];
    size_t bytes = (size_t)numel * dl.bits / 8;
    unsigned char *mem = malloc(bytes ? bytes : 1);
    for (size_t i = 0; i < bytes; i++) mem[i] = (unsigned char)(i * 7u + db);
    DLTensor desc = {mem, {kDLCPU, 0}, ndim, dl, ndim ? shape : NULL, NULL, 0};
    if (ltensor_push_borrowed(l, &desc, vb & 0x80 ? LTENSOR_READ_ONLY : 0, release_host, mem,
                              NULL) != LTENSOR_OK)
      return lua_error(l);
    lua_pushvalue(l, -1);
    lua_rawseti(l, slots, 1);
    lua_rawseti(l, slots, 2);
    return 0;
  }
  /* lt.arange(numel, dt):reshape(shape) -- arange of bool is refused: go through int64 */
  lua_getfield(l, lt, "arange");
  lua_pushinteger(l, numel);
  lua_call(l, 1, 1);
  lua_pushstring(l, dt);
  fz_method(l, -2, "to", 1);
  lua_createtable(l, ndim, 0);
  for (int i = 0; i < ndim; i++) {
    lua_pushinteger(l, shape[i]);
    lua_rawseti(l, -2, i + 1);
  }
  fz_method(l, -2, "reshape", 1);
  const int t = lua_gettop(l);
  lua_pushvalue(l, t);
  lua_rawseti(l, slots, 2);
  switch (vb % 8) {
    case 1: /* transposed: not contiguous */
      lua_pushinteger(l, 1);
      lua_pushinteger(l, -1);
      fz_method(l, t, "transpose", 2);
      break;
    case 2: fz_method(l, t, "clone", 0); break; /* copy-on-write: shares slot 2's block */
    case 3: {                                   /* read-only, through a wrapper and DLPack */
      through_dlpack(l, t, "ReadOnlyTensorWrapper");
      break;
    }
    case 4: { /* expanded: a new leading dim of stride 0 */
      lua_pushinteger(l, 1);
      fz_method(l, t, "unsqueeze", 1);
      lua_createtable(l, ndim + 1, 0);
      lua_pushinteger(l, 2);
      lua_rawseti(l, -2, 1);
      for (int i = 0; i < ndim; i++) {
        lua_pushinteger(l, -1);
        lua_rawseti(l, -2, i + 2);
      }
      fz_method(l, -2, "expand", 1);
      break;
    }
    case 5: { /* every other element of dim 1 */
      if (ndim == 0) return 0;
      lua_createtable(l, 1, 0);
      lua_createtable(l, 3, 0);
      lua_pushinteger(l, 1);
      lua_rawseti(l, -2, 1);
      lua_pushinteger(l, -1);
      lua_rawseti(l, -2, 2);
      lua_pushinteger(l, 2);
      lua_rawseti(l, -2, 3);
      lua_rawseti(l, -2, 1);
      lua_gettable(l, t);
      break;
    }
    case 6: /* exported through DLPack and back: a pinned block */
      through_dlpack(l, t, "to_dlpack");
      break;
    default: lua_pushvalue(l, t);
  }
  lua_rawseti(l, slots, 1);
  return 0;
}

/* }====== */

/* {====== operations ====== */

enum { OP_REVOKE = 16 };

/* Pushes k sizes as one table (or as separate arguments); returns the argument count. */
static int push_sizes(lua_State *l, fz_in *in) {
  uint8_t b = fz_u8(in);
  int n = b % 6;
  if (b & 0x80) {
    for (int i = 0; i < n; i++) push_size(l, in);
    return n;
  }
  lua_createtable(l, n, 0);
  for (int i = 0; i < n; i++) {
    push_size(l, in);
    lua_rawseti(l, -2, i + 1);
  }
  return 1;
}

/* permute's arguments: a permutation of the dims (or not, of ndim - 1 to ndim + 1 of them), as
   a table or as arguments; returns how many it pushed. */
static int push_perm(lua_State *l, fz_in *in, int ndim) {
  uint8_t b = fz_u8(in);
  int n = ndim + (int)(b % 3) - 1;
  if (n < 0) n = 0;
  if (b & 0x80) lua_createtable(l, n, 0);
  for (int i = 0; i < n; i++) {
    if (b & 0x40)
      lua_pushinteger(l, n - i);
    else
      push_dim(l, in);
    if (b & 0x80) lua_rawseti(l, -2, i + 1);
  }
  return b & 0x80 ? 1 : n;
}

/* t:get(i, j, ...) or t:set(i, j, ..., v) (set): ndim indices, or one more or fewer. */
static void get_set(lua_State *l, fz_in *in, int slots, int t, int ndim, int set) {
  uint8_t b = fz_u8(in);
  int n = ndim + (b % 4 == 3 ? 1 : 0) - (b % 4 == 2 && ndim > 0 ? 1 : 0);
  for (int i = 0; i < n; i++) {
    if (b & 0x80)
      push_key(l, in, slots, 3);
    else
      push_index(l, in);
  }
  if (set) push_value(l, in, slots, 2);
  fz_method(l, t, set ? "set" : "get", n + set);
}

/* Reading all of t, and the odd methods (the result kept in slot dst). */
static void read_whole(lua_State *l, fz_in *in, int slots, int t, int dst) {
  static const char *const reads[] = {"tolist", "item",          "clone", "contiguous",    "bytes",
                                      "zero_",  "is_contiguous", "numel", "storage_offset"};
  uint8_t b = fz_u8(in);
  if (b % 11 == 9) { /* tostring (ltensor.format) */
    lua_getglobal(l, "tostring");
    lua_pushvalue(l, t);
    lua_call(l, 1, 1);
  } else if (b % 11 == 10) {
    lua_len(l, t);
  } else {
    fz_method(l, t, reads[b % 11], 0);
    keep(l, slots, dst);
  }
}

/* The views that take dims and indices: ops 3, 5, 6 and 7 of run_op, with their arguments in
   order (d: a dim, i: an index). */
static const struct {
  const char *method, *args;
} DIM_VIEWS[] = {
    [3] = {"transpose", "dd"},
    [5] = {"narrow", "dii"},
    [6] = {"select", "di"},
    [7] = {"unsqueeze", "d"},
};

/* Calls view op of DIM_VIEWS on the tensor at t, its arguments drawn from in. */
static void dim_view(lua_State *l, fz_in *in, int t, int op) {
  const char *a = DIM_VIEWS[op].args;
  for (const char *c = a; *c; c++) {
    if (*c == 'd')
      push_dim(l, in);
    else
      push_index(l, in);
  }
  fz_method(l, t, DIM_VIEWS[op].method, (int)strlen(a));
}

/* run_op(in, slots, op): one operation on one slot. */
static int run_op(lua_State *l) {
  fz_in *in = lua_touserdata(l, 1);
  const int slots = 2;
  int op = (int)lua_tointeger(l, 3);
  int src = 1 + fz_u8(in) % NSLOTS, dst = 1 + fz_u8(in) % NSLOTS;
  push_slot(l, slots, src);
  const int t = lua_gettop(l);
  ltl_ud *ud = ltl_testud(l, t);
  int ndim = ud && ud->t ? ud->t->ndim : 0;
  switch (op) {
    case 0: /* t[key] */
      push_key(l, in, slots, 0);
      lua_gettable(l, t);
      keep(l, slots, dst);
      break;
    case 1: /* t[key] = v */
      push_key(l, in, slots, 0);
      push_value(l, in, slots, 0);
      lua_settable(l, t);
      break;
    case 2: /* view / reshape */
      fz_method(l, t, fz_u8(in) & 1 ? "view" : "reshape", push_sizes(l, in));
      keep(l, slots, dst);
      break;
    case 3:
    case 5:
    case 6:
    case 7:
      dim_view(l, in, t, op);
      keep(l, slots, dst);
      break;
    case 4: /* permute */
      fz_method(l, t, "permute", push_perm(l, in, ndim));
      keep(l, slots, dst);
      break;
    case 8: {
      int n = fz_u8(in) & 1;
      if (n) push_dim(l, in);
      fz_method(l, t, "squeeze", n);
      keep(l, slots, dst);
      break;
    }
    case 9: {
      int n = fz_u8(in) % 3;
      for (int i = 0; i < n; i++) push_dim(l, in);
      fz_method(l, t, "flatten", n);
      keep(l, slots, dst);
      break;
    }
    case 10:
      fz_method(l, t, "expand", push_sizes(l, in));
      keep(l, slots, dst);
      break;
    case 11:
    case 12: get_set(l, in, slots, t, ndim, op == 12); break;
    case 13: read_whole(l, in, slots, t, dst); break;
    case 14: /* copy_(v) / fill_(v) */
      push_value(l, in, slots, 0);
      fz_method(l, t, fz_u8(in) & 1 ? "copy_" : "fill_", 1);
      break;
    case 15: /* __close: the userdata lets go; later uses raise */
      if (luaL_getmetafield(l, t, "__close") != LUA_TNIL) {
        lua_pushvalue(l, t);
        lua_call(l, 1, 0);
      }
      break;
  }
  return 0;
}

/* }====== */

static void setup(void) {
  L = luaL_newstate();
  if (!L) fail("no Lua state");
  luaL_openlibs(L);
  if (ltensor_open(L) != LTENSOR_OK) fail("ltensor_open failed");
  if (luaL_dostring(L, "return (require 'ltensor'), (require 'ltensor.dlpack')") != LUA_OK)
    fail(lua_tostring(L, -1));
  ref_dlpack = luaL_ref(L, LUA_REGISTRYINDEX);
  ref_lt = luaL_ref(L, LUA_REGISTRYINDEX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("LT_FUZZ_VERBOSE") != NULL;
  if (!L) setup();
  fz_in in = {data, size, 0};
  lua_settop(L, 0);
  lua_createtable(L, NSLOTS, 0); /* index 1: the slots */
  lua_pushcfunction(L, make_base);
  lua_pushlightuserdata(L, &in);
  lua_pushvalue(L, 1);
  if (lua_pcall(L, 2, 0, 0) == LUA_OK) {
    for (int k = 0; k < MAX_OPS && fz_more(&in); k++) {
      int op = fz_u8(&in) % 17;
      if (op == OP_REVOKE) { /* the host takes a tensor's memory back (outside any call) */
        push_slot(L, 1, 1 + fz_u8(&in) % NSLOTS);
        if (ltensor_revoke(L, -1) != LTENSOR_OK) lua_pop(L, 1); /* its message */
        lua_pop(L, 1);
        continue;
      }
      lua_pushcfunction(L, run_op);
      lua_pushlightuserdata(L, &in);
      lua_pushvalue(L, 1);
      lua_pushinteger(L, op);
      if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        if (lua_type(L, -1) != LUA_TSTRING) fail("an error that is not a string message");
        if (verbose) fprintf(stderr, "  op %d: %s\n", op, lua_tostring(L, -1));
        lua_pop(L, 1);
      }
      if (lua_gettop(L) != 1) fail("stack not balanced");
    }
  } else {
    if (verbose) fprintf(stderr, "fuzz_index: no tensor: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  lua_settop(L, 0);
  if (++runs % GC_EVERY == 0) lua_gc(L, LUA_GCCOLLECT);
  return 0;
}
