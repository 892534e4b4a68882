/*
 * lua_ud.h -- the binding's base (lua_ud.c, and lua_args.c for the arguments of a call): what
 * every other binding file may use. Not installed. Every binding file may include it; it
 * includes no other binding header.
 *
 * A tensor in Lua is a full userdata holding one lt_tensor pointer; NULL once released (by
 * __gc, __close or a host revoke), after which every use raises LTL_RELEASED. Its block also
 * holds a tag, the address of ltl_tensor_key: a value is a tensor when it is a userdata of
 * exactly sizeof(ltl_ud) bytes carrying the tag. That check costs no registry lookup (it is on
 * every element access) and, unlike a metatable comparison, cannot be fooled by
 * debug.setmetatable on a foreign userdata. A ReadOnlyTensorWrapper is laid out the same way,
 * tagged with &ltl_wrapper_key.
 * The tensor metatable lives in the registry under the light-userdata key ltl_tensor_key (and
 * under the name "ltensor.Tensor" for luaL_checkudata users).
 */
#ifndef LUA_UD_H
#define LUA_UD_H

#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>

/* Lua 5.4 only (docs/GUIDE.md, "Lua versions"): 64-bit integers, <close>, lua_newuserdatauv. */
#if !defined(LUA_VERSION_NUM) || LUA_VERSION_NUM != 504
#error \
    "ltensor needs the Lua 5.4 headers (liblua5.4-dev): Lua 5.1, LuaJIT and 5.3 lack 64-bit integers, <close> and lua_newuserdatauv"
#endif

#include "lt_account.h"
#include "lt_promote.h" /* lt_operand */
#include "lt_tensor.h"

#define LTL_TENSOR_NAME "ltensor.Tensor"
/* What every use of a released (or revoked) tensor raises. */
#define LTL_RELEASED "tensor has been released"

/* {====== userdata and tags ====== */

typedef struct ltl_state ltl_state;

typedef struct {
  /* &ltl_tensor_key or &ltl_wrapper_key: identifies the userdata without a metatable lookup.
     First, so that reading it from any userdata of at least a pointer stays inside the block
     (lua_index.c, self_ud). */
  const char *tag;
  lt_tensor *t;
  /* What `<close>` released while a finalizer ran (ltl_close_ud): scripts see a released tensor,
     and the header is freed by __gc, when no C frame can hold it any more. */
  lt_tensor *closed;
  /* The bookkeeping of the state that made it (a userdata lives and dies in one state): whose
     memory account a call on it charges (ltl_enter). */
  ltl_state *st;
} ltl_ud;

extern const char ltl_tensor_key, ltl_wrapper_key;
/* The user value of a tensor userdata that holds the view t[i] last gave (lua_index.c); a
   tensor closed or released drops it. Wrappers have no user value. */
#define LTL_UV_ROW 1

/* The ltensor userdata at idx tagged `tag` (&ltl_tensor_key or &ltl_wrapper_key; NULL: either),
   or NULL. Released ones included (ud->t == NULL). */
static inline ltl_ud *ltl_toud(lua_State *L, int idx, const char *tag) {
  ltl_ud *ud = lua_touserdata(L, idx);
  if (!ud || lua_rawlen(L, idx) != sizeof(ltl_ud)) return NULL;
  if (tag ? ud->tag == tag : ud->tag == &ltl_tensor_key || ud->tag == &ltl_wrapper_key) return ud;
  return NULL;
}
/* The tensor at idx, or NULL when the value is not a tensor (released ones included). */
static inline ltl_ud *ltl_testud(lua_State *L, int idx) {
  return ltl_toud(L, idx, &ltl_tensor_key);
}
/* The ReadOnlyTensorWrapper at idx, or NULL. */
static inline ltl_ud *ltl_testwrapper(lua_State *L, int idx) {
  return ltl_toud(L, idx, &ltl_wrapper_key);
}

/* A new tensor userdata (t == NULL) with the tensor metatable, on top of the stack. Fill ud->t
   after: if anything raises before, the empty userdata is simply collected. */
/* A new wrapper userdata (t == NULL, no metatable yet: lua_wrapper.c sets its own). */
ltl_ud *ltl_new_wrapper_ud(lua_State *L);
ltl_ud *ltl_newud(lua_State *L);
/* Pushes a new contiguous tensor of dt and shape (zero-filled when zero != 0). Raises for a bad
   shape, no memory or a budget passed. */
lt_tensor *ltl_push_new(lua_State *L, lt_dtype dt, int ndim, const int64_t *shape, int zero);
/* The same, with the tensor metatable taken from the bookkeeping at stack index sidx
   (ltl_push_state): one registry lookup less where a function needs the bookkeeping anyway. */
ltl_ud *ltl_newud_in(lua_State *L, int sidx);
/* The live tensor at idx; raises for a non-tensor (naming argument idx) or a released one. */
lt_tensor *ltl_check(lua_State *L, int idx);
/* Drops the tensor reference of a tensor or wrapper userdata (NULL or released: nothing). */
void ltl_release_ud(ltl_ud *ud);
/* __close of the tensor at idx (not a tensor, or released: nothing). The reference goes at once
   unless a C function may still be using the tensor: while a finalizer runs (it may have
   started inside an allocation of a C function that took the lt_tensor pointer before), while
   the tensor sits on the stack of a running C function (which called back into Lua: a
   metamethod of an options table, a protocol method), or in a coroutine (whose resumer's stack
   cannot be looked at). Then the header is only detached from the userdata, and __gc frees it
   (ltl_release_ud). Scripts see a released tensor at once either way. */
void ltl_close_ud(lua_State *L, int idx);

/* }====== */

/* {====== per-state bookkeeping ====== */

/* Metatables of a state, by user value index of its bookkeeping userdata: the tensor's, then
   the four capsule metatables in ltl_capsule_names order. */
enum { LTL_MT_TENSOR = 1, LTL_MT_CAPSULE = 2, LTL_MT_COUNT = 5 };
/* Registry names of the capsule metatables: "dltensor", "dltensor_versioned", then the two
   "used_" ones (made by lua_dlpack.c). */
extern const char *const ltl_capsule_names[4];
struct ltl_state {
  unsigned fresh; /* finalizable userdata made since the last collection they asked for */
  unsigned every; /* how many make it ask for the next */
  /* lua_topointer of each metatable (index LTL_MT_*; 0 unused): kept alive by the user values,
     so comparing a metatable's address tells which it is without pushing any */
  const void *mt[LTL_MT_COUNT + 1];
  /* The memory account every tensor of the state is charged to (NULL once the state closes),
     and the state's main thread, which the account's pressure function collects on. */
  lt_account *acct;
  lua_State *main;
  int64_t host_limit; /* the budget the host set (LT_NO_LIMIT: none); a script stays below it */
};
/* Registers the bookkeeping of L: the tensor metatable at mt and the capsule metatables
   (already in the registry). Marks L's ltensor as open. */
void ltl_register_state(lua_State *L, int mt);
/* Pushes metatable `which` (LTL_MT_*) of L's ltensor, which must be open; returns the
   bookkeeping. */
ltl_state *ltl_push_metatable(lua_State *L, int which);
/* Sets metatable `which` on the value at the top; returns the bookkeeping. */
ltl_state *ltl_set_metatable(lua_State *L, int which);
/* The bookkeeping of L's ltensor, which must be open. */
ltl_state *ltl_state_of(lua_State *L);
/* The same, also pushed (its user values are the metatables: lua_getiuservalue(L, i, LTL_MT_*)). */
ltl_state *ltl_push_state(lua_State *L);
/* Counts one new finalizable userdata; every so many, a full collection (lua_ud.c says why). */
void ltl_count_finalizable(lua_State *L, ltl_state *st);
/* Sets the functions of l (NULL-terminated) into the table at idx. */
void ltl_setfuncs(lua_State *L, int idx, const luaL_Reg *l);
/* Module forms: for each name in names (NULL-terminated), the method of that name (the table at
   methods) is also the function module[name], which takes the tensor first (`lt.flip(t, 1)` is
   `t:flip(1)`), as torch.flip is Tensor.flip. A name that is no method is a mistake in the
   list: it raises when the module opens. */
void ltl_module_forms(lua_State *L, int methods, int module, const char *const *names);
/*
 * Memory. Every block of tensor data is charged, by the core's storage layer, to the memory
 * account of the calling thread (lt_account.h); the binding makes the state's account current
 * whenever a call begins to work with the state's tensors (ltl_check, ltl_newud, ltl_push_state,
 * ltl_prepare_write), so no call site charges anything itself. Before a charge would pass the
 * account's trigger or budget, the account asks for pressure: a full collection on the state's
 * main thread (docs/MEMORY.md says why a full one), after which the trigger is set again from
 * the memory still in use.
 */
static inline void ltl_enter(ltl_state *st) { lt_account_use(st->acct); }
/* Sets the state's budget (LT_NO_LIMIT: none). From the host (from_host 1) it becomes the
   ceiling a script's own limit cannot pass; from a script, a limit above that ceiling is
   refused: returns -1 and changes nothing. */
int ltl_set_memory_limit(ltl_state *st, int64_t limit, int from_host);

/* }====== */

/* {====== errors ====== */

/*
 * Raises the formatted message (lua_pushfstring's formats): the one way the binding raises its
 * own messages and the core's. The vocabulary: the core's messages are short lowercase phrases
 * that name no function; the binding names a function at most once -- through luaL_argerror
 * ("bad argument #2 to 'narrow' (...)") or, where the message is about the call itself, as the
 * message's first word ("get: expected ...", raised with luaL_error) -- never both.
 */
int ltl_error(lua_State *L, const char *fmt, ...);
/* Raises err's message (the core's), through ltl_error. */
int ltl_raise(lua_State *L, const lt_error *err);
/* Raises LTL_RELEASED. */
int ltl_released(lua_State *L);
#define LTL_CHECK(L, rc, err)     \
  do {                            \
    if (rc) ltl_raise(L, &(err)); \
  } while (0)

/* }====== */

/* {====== running protected (the host and exchange APIs, which never raise) ====== */

/* Runs fn with the light userdata ud as its one argument under lua_pcall, one result. Returns
   lua_pcall's status (LUA_ERRMEM, with nothing pushed, when the stack cannot grow). */
int ltl_pcall(lua_State *L, lua_CFunction fn, void *ud);
/* Pushes msg (kept only for the call) and returns status. A string is a Lua allocation, which
   can fail and raise: it is made under lua_pcall, so that the caller sees Lua's own
   out-of-memory message instead of an error thrown past it. */
int ltl_push_message(lua_State *L, const char *msg, int status);
/* Pushes a tensor importing the managed tensor m (versioned or legacy), marked `readonly`
   (an lt_readonly) when that is not LT_WRITABLE, under lua_pcall. Ownership of m passes in
   every case (its deleter has run on failure). Returns lua_pcall's status; on failure the
   message is pushed (unless the stack could not grow). */
int ltl_push_import(lua_State *L, void *m, int versioned, int readonly);

/* }====== */

/* {====== arguments ====== */

/*
 * The arguments of a call to fname, counted as Lua's own libraries count them: trailing nils
 * are absent (taken off the stack, so a script may forward optional arguments), and more than
 * self + most arguments raise "fname: too many arguments (at most <most> [after the tensor]
 * [, then an options table])", the one wording. self is 1 for a method of a tensor (argument 1
 * is the tensor), 2 for a method of a Generator ("after the generator"), else 0; with opts, one
 * table more may follow when it is an options table (a table without element 1: ltl_opts).
 * Returns the number of arguments left.
 */
int ltl_args(lua_State *L, int self, int most, int opts, const char *fname);
/* The same rule where the count depends on the call (sizes as arguments, a variadic list): once
   the options were read and the stack cut to the positional arguments, more than `used` of them
   (self included) raise the same "too many arguments (at most <used - self> ...)". */
void ltl_args_end(lua_State *L, int self, int used, int opts, const char *fname);
/* Raises that wording: "fname: too many arguments (at most <most> [after the tensor][, then an
   options table])". */
int ltl_too_many(lua_State *L, int self, int most, int opts, const char *fname);
/* The dtype of a call, given positionally at arg (a dtype name; none or nil: not given) or as
   the dtype option (the value at optidx that ltl_opts pushed; 0: the call has no options):
   def when neither, and both raise "fname: dtype given twice". */
lt_dtype ltl_dtype_arg(lua_State *L, int arg, int optidx, lt_dtype def, const char *fname);
/* The same with the option already read (opt: ltl_dtype_option's value, LT_NDTYPES when the call
   gave none), for a call whose options were taken off the stack. */
lt_dtype ltl_dtype_pick(lua_State *L, int arg, lt_dtype opt, lt_dtype def, const char *fname);
/* The integer argument arg (what: how a message names it). Raises. */
lua_Integer ltl_check_int(lua_State *L, int arg, const char *what);
/* The same, def when it is none or nil. */
lua_Integer ltl_opt_int(lua_State *L, int arg, lua_Integer def, const char *what);
/* A dtype name argument. Raises. */
lt_dtype ltl_check_dtype(lua_State *L, int arg);
/* A dtype name argument, or def when it is none or nil. Raises. */
lt_dtype ltl_opt_dtype(lua_State *L, int arg, lt_dtype def);
/* A 1-based (negative from the end) dim argument, as 0-based, for a tensor of ndim dims.
   Raises. Functions that let a 0-d tensor take dim 1 (or -1), as torch's do, pass ndim 1. */
int ltl_check_dim(lua_State *L, int arg, int ndim);
/* The same, def (0-based) when it is none or nil. */
int ltl_opt_dim(lua_State *L, int arg, int ndim, int def);
/*
 * The trailing options table of a call, where torch's keyword-only arguments go
 * (`t:var(1, {correction = 0})`): the last argument, from first on, when it is a table without
 * an element 1 (a sequence there is a positional argument: dims, a shape). Every key must be
 * one of the nkeys names in keys, else it raises naming the key ("unknown option 'foo' (expected
 * dtype)", the function named once). Pushes the value of each key in keys' order (nil when the
 * table lacks it, or when there is no options table) and returns the index of the last
 * positional argument (the top before the call, less the options table). Values are read with
 * lua_getfield: a metamethod may run, so read the options before taking pointers to tensors.
 * The usual sequence: ltl_args, ltl_opts, the values read into C (or kept above the arguments),
 * lua_settop(L, last) when they are no longer needed there.
 */
int ltl_opts(lua_State *L, int first, const char *fname, const char *const *keys, int nkeys);
/* ltl_opts for a call whose one option is dtype: reads it (ltl_dtype_option, LT_NDTYPES when
   not given) and cuts the stack to the positional arguments; returns the last one's index. */
int ltl_dtype_opts(lua_State *L, int first, const char *fname, lt_dtype *opt);
/* The dtype option at idx (a value ltl_opts pushed) of a call to fname: def when it is nil, else
   a dtype name ("fname: dtype must be a dtype name, got table", "fname: unknown dtype 'x'"). */
lt_dtype ltl_dtype_option(lua_State *L, int idx, const char *fname, lt_dtype def);
/* The boolean argument arg, def when it is none or nil; raises for anything else (what: how the
   message names it). */
int ltl_opt_bool(lua_State *L, int arg, int def, const char *what);
/* The boolean option `key` of fname at idx (a value ltl_opts pushed): def when it is nil;
   raises "fname: key must be a boolean, got T" for anything else. */
int ltl_bool_option(lua_State *L, int idx, int def, const char *fname, const char *key);
/* The dim option of fname at idx (1-based, negative from the end) of a tensor of ndim dims (0-d:
   as 1): 0-based, def when it is nil; raises "fname: dim D out of range (expected 1 to N)". */
int ltl_dim_option(lua_State *L, int idx, int ndim, int def, const char *fname);
/* The string option `key` of fname at idx: the index in choices (NULL-terminated) of its value,
   def when it is nil; raises "fname: key must be 'a', 'b' or 'c', got X" for anything else. */
int ltl_choice_option(lua_State *L, int idx, int def, const char *fname, const char *key,
                      const char *const *choices);
/* 0-based position of the 1-based (or negative) index i in dim (0-based) of size n. Raises. */
int64_t ltl_norm_index(lua_State *L, lua_Integer i, int64_t n, int dim);
/* Raises "index i is out of range for dim d of size n" at the caller's position (luaL_where
   level 1), saying that indices are 1-based when i is 0. */
int ltl_index_error(lua_State *L, lua_Integer i, int64_t n, int dim);
/*
 * Reads sizes given either as one table at arg or as integer arguments from arg on; stops at
 * the first non-number argument. Returns the number of sizes and sets *next to the argument
 * after them. allow_neg1 admits -1 (inferred or kept). Raises.
 */
int ltl_check_sizes(lua_State *L, int arg, int64_t *sizes, int allow_neg1, int *next);

/* A new tensor userdata on top of the stack; returns its slot, the out argument of the core
   function that makes the result: `return ltl_result(L, lt_x(t, ..., ltl_out(L), &err), &err,
   "x")`. */
lt_tensor **ltl_out(lua_State *L);
/* What such a function returns: 1 (the tensor on top) when rc is LT_OK, else it raises err's
   message as fname's ("fname: message"). */
int ltl_result(lua_State *L, int rc, const lt_error *err, const char *fname);
/* Raises err's message (the core's) as fname's: "fname: message". */
int ltl_fail(lua_State *L, const char *fname, const lt_error *err);

/* The headers of n tensors, in a scratch block pushed on the stack (per call: no state shared
   between Lua states and threads): the elements 1..n of the table at idx when in_table, else
   the arguments idx..idx+n-1. From a table, the block's user value keeps the tensors (the
   script's table does not: a finalizer run by a later allocation could empty it). Raises
   "<what>: <noun> i is a <type>, not a tensor" for anything else, or for a released one. */
const lt_tensor **ltl_tensors(lua_State *L, int idx, lua_Integer n, int in_table, const char *what,
                              const char *noun);

/* }====== */

/* {====== elements <-> Lua values ====== */

/* The value at idx as an operand of an elementwise operation (a tensor, number or boolean);
   raises "<what>: expected a tensor, number or boolean" otherwise. */
void ltl_check_operand(lua_State *L, int idx, lt_operand *o, const char *what);
/* Pushes the scalar s of a tensor of dtype dt. */
void ltl_push_scalar(lua_State *L, lt_dtype dt, const lt_scalar *s);

/* Pushes the element at p; the hot path of t[i]. */
static inline void ltl_push_element(lua_State *L, lt_dtype dt, const char *p) {
  switch (dt) {
    case LT_FLOAT32: lua_pushnumber(L, *(const float *)p); return;
    case LT_FLOAT64: lua_pushnumber(L, *(const double *)p); return;
    case LT_INT64: lua_pushinteger(L, *(const int64_t *)p); return;
    case LT_INT32: lua_pushinteger(L, *(const int32_t *)p); return;
    case LT_UINT8: lua_pushinteger(L, *(const uint8_t *)p); return;
    default: {
      lt_scalar s;
      lt_load(dt, p, &s);
      ltl_push_scalar(L, dt, &s);
    }
  }
}

/* The Lua value at idx as a scalar for a tensor of dtype dt; 0 when it is not one. */
int ltl_to_scalar(lua_State *L, int idx, lt_dtype dt, lt_scalar *s);
/* Raises "value <s> cannot be converted to <dt> without overflow". */
void ltl_scalar_error(lua_State *L, const lt_scalar *s, lt_dtype dt);
/* Writes the Lua value at idx into the element at p of a writable tensor of dtype dt. */
void ltl_store_value(lua_State *L, int idx, lt_dtype dt, char *p);
/* The same, the hot path of t[i] = v: a float32 or float64 element and a number of magnitude
   below 2^53 (in range, and an integer converts exactly through lua_Number) is stored here; every
   other value (NaN, larger, strings, other dtypes) goes to ltl_store_value and its checks. */
static inline void ltl_store_element(lua_State *L, int idx, lt_dtype dt, char *p) {
  if ((dt == LT_FLOAT32 || dt == LT_FLOAT64) && lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number v = lua_tonumber(L, idx);
    if (v > -9007199254740992.0 && v < 9007199254740992.0) {
      if (dt == LT_FLOAT32)
        *(float *)p = (float)v;
      else
        *(double *)p = (double)v;
      return;
    }
  }
  ltl_store_value(L, idx, dt, p);
}
/* Whether the table at the top has a key other than 1..n (n its length); if so, pushes it. */
int ltl_extra_key(lua_State *L, lua_Integer n);
/* Pushes a new tensor made from the (nested) table at idx; dtype inferred unless
   dt < LT_NDTYPES. */
lt_tensor *ltl_from_table(lua_State *L, int idx, lt_dtype dt);
/* Before writing through t: raises for read-only or opaque tensors, and gives a copy-on-write
   clone (or its source) a block of its own, charging the copy to the collector. */
void ltl_prepare_write(lua_State *L, lt_tensor *t);
/* Raises unless t's elements may be read (opaque dtypes, released memory). */
void ltl_check_readable(lua_State *L, const lt_tensor *t);

/* }====== */

#endif
