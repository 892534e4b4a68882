/*
 * lua_random.c -- random numbers in Lua: the Generator objects (lt.Generator, the process's
 * generator as lt.default_generator, lt.manual_seed / seed / initial_seed), the constructors
 * rand, randn, randint, randperm, normal, bernoulli, multinomial, rand_like, randn_like,
 * randint_like, and the in-place methods uniform_, normal_, random_, bernoulli_. Every one takes
 * a trailing options table {generator = g, dtype = ...} (dtype where a new tensor is made).
 *
 * Argument handling only: the stream and its transforms are the core's (lt_random.h). A
 * Generator userdata holds a pointer to an lt_generator: its own (inline) or the process's,
 * which every Lua state shares. Read by lua_init.c (ltl_part_random) and, for ltl_generator_opt
 * (lua_random.h), lua_nn_norm.c; calls the base (lua_ud.h) and the core.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lt_copy.h"
#include "lt_iter.h"
#include "lt_random.h"
#include "lua_parts.h"
#include "lua_random.h"
#include "lua_ud.h"

#define GEN_NAME "ltensor.Generator"

/* Registry keys: the Generator metatable, and this state's userdata of the process generator. */
static const char gen_key = 0, default_key = 0;

typedef struct {
  lt_generator *g; /* &own, or the process's */
  lt_generator own;
} gen_ud;

/* {====== generators ====== */

static lua_Integer seed_to_lua(uint64_t s) {
  return s <= (uint64_t)LUA_MAXINTEGER ? (lua_Integer)s : -(lua_Integer)(UINT64_MAX - s) - 1;
}

/* The Generator at idx, or NULL. */
static gen_ud *test_gen(lua_State *L, int idx) {
  gen_ud *u = lua_touserdata(L, idx);
  if (!u || lua_rawlen(L, idx) != sizeof(gen_ud) || !lua_getmetatable(L, idx)) return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &gen_key);
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? u : NULL;
}

static lt_generator *check_gen(lua_State *L, int idx) {
  gen_ud *u = test_gen(L, idx);
  if (!u) luaL_typeerror(L, idx, "Generator");
  return u->g;
}

lt_generator *ltl_generator_opt(lua_State *L, int idx, const char *fname) {
  if (lua_isnoneornil(L, idx)) return lt_default_generator();
  gen_ud *u = test_gen(L, idx);
  if (!u) ltl_error(L, "%s: generator must be a Generator, got %s", fname, luaL_typename(L, idx));
  return u->g;
}

/* A seed nobody chose: the time, the clock, an address and a count, mixed (splitmix64), kept
   below 2^63 so that it reads back as a non-negative integer. */
static uint64_t fresh_seed(void) {
  static _Atomic uint64_t count;
  int here;
  uint64_t x = (uint64_t)time(NULL) ^ (uint64_t)clock() << 32 ^ (uint64_t)(uintptr_t)&here ^
               atomic_fetch_add(&count, 1) * UINT64_C(0x9E3779B97F4A7C15);
  x ^= x >> 30;
  x *= UINT64_C(0xBF58476D1CE4E5B9);
  x ^= x >> 27;
  x *= UINT64_C(0x94D049BB133111EB);
  x ^= x >> 31;
  return x & (uint64_t)INT64_MAX;
}

/* lt.Generator([seed]): a generator of its own (torch's default seed when none is given). */
static int f_generator(lua_State *L) {
  ltl_args(L, 0, 1, 0, "Generator");
  uint64_t seed = lua_isnoneornil(L, 1) ? LT_DEFAULT_SEED : (uint64_t)ltl_check_int(L, 1, "seed");
  gen_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  lt_generator_init(&u->own, seed);
  u->g = &u->own;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &gen_key);
  lua_setmetatable(L, -2);
  return 1;
}

/* g:manual_seed(seed): reseeds (offset 0); returns g. */
static int g_manual_seed(lua_State *L) {
  ltl_args(L, 2, 1, 0, "manual_seed");
  lt_generator *g = check_gen(L, 1);
  lt_generator_seed(g, (uint64_t)ltl_check_int(L, 2, "seed"));
  lua_settop(L, 1);
  return 1;
}

/* g:seed(): reseeds with a fresh seed; returns it. */
static int g_seed(lua_State *L) {
  ltl_args(L, 2, 0, 0, "seed");
  lt_generator *g = check_gen(L, 1);
  uint64_t s = fresh_seed();
  lt_generator_seed(g, s);
  lua_pushinteger(L, seed_to_lua(s));
  return 1;
}

static int g_initial_seed(lua_State *L) {
  uint64_t seed, offset;
  ltl_args(L, 2, 0, 0, "initial_seed");
  lt_generator_get(check_gen(L, 1), &seed, &offset);
  lua_pushinteger(L, seed_to_lua(seed));
  return 1;
}

/* g:get_state(): string.pack("<I8I8", seed, offset), offset in 128-bit blocks. */
static int g_get_state(lua_State *L) {
  uint64_t v[2];
  ltl_args(L, 2, 0, 0, "get_state");
  lt_generator_get(check_gen(L, 1), &v[0], &v[1]);
  char s[16];
  for (int i = 0; i < 16; i++) s[i] = (char)(unsigned char)(v[i / 8] >> (8 * (i % 8)));
  lua_pushlstring(L, s, 16);
  return 1;
}

/* g:set_state(s): s as get_state gives it; returns g. */
static int g_set_state(lua_State *L) {
  ltl_args(L, 2, 1, 0, "set_state");
  lt_generator *g = check_gen(L, 1);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  if (len != 16)
    return luaL_argerror(
        L, 2,
        lua_pushfstring(L, "state must be the 16 bytes get_state gives, got %I", (lua_Integer)len));
  uint64_t v[2] = {0, 0};
  for (int i = 0; i < 16; i++) v[i / 8] |= (uint64_t)(unsigned char)s[i] << (8 * (i % 8));
  lt_generator_set(g, v[0], v[1]);
  lua_settop(L, 1);
  return 1;
}

static int g_tostring(lua_State *L) {
  uint64_t seed, offset;
  lt_generator_get(check_gen(L, 1), &seed, &offset);
  lua_pushfstring(L, "Generator(seed=%I, offset=%I)", seed_to_lua(seed), seed_to_lua(offset));
  return 1;
}

/* Pushes this state's userdata of the process generator. */
static lt_generator *push_default(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &default_key);
  return lt_default_generator();
}

/* lt.manual_seed(seed): reseeds the process generator; returns it. */
static int f_manual_seed(lua_State *L) {
  ltl_args(L, 0, 1, 0, "manual_seed");
  lt_generator_seed(push_default(L), (uint64_t)ltl_check_int(L, 1, "seed"));
  return 1;
}

static int f_seed(lua_State *L) {
  ltl_args(L, 0, 0, 0, "seed");
  uint64_t s = fresh_seed();
  lt_generator_seed(lt_default_generator(), s);
  lua_pushinteger(L, seed_to_lua(s));
  return 1;
}

static int f_initial_seed(lua_State *L) {
  uint64_t seed, offset;
  ltl_args(L, 0, 0, 0, "initial_seed");
  lt_generator_get(lt_default_generator(), &seed, &offset);
  lua_pushinteger(L, seed_to_lua(seed));
  return 1;
}

/* }====== */

/* {====== arguments ====== */

typedef struct {
  lt_generator *g;
  lt_dtype dt; /* LT_NDTYPES: none given */
} rnd_opts;

/*
 * The arguments of fname: at most most positional ones (after the tensor, with self), then the
 * options table: generator, and dtype with with_dtype. Returns the index of the last positional
 * argument. The option values stay on the stack above the arguments, so that the generator
 * they name lives as long as the call: positional arguments are read up to that index only.
 */
static int read_opts(lua_State *L, int self, int most, int with_dtype, const char *fname,
                     rnd_opts *o) {
  static const char *const keys[] = {"generator", "dtype"};
  ltl_args(L, self, most, 1, fname);
  int last = ltl_opts(L, self + 1, fname, keys, 1 + with_dtype);
  int at = lua_gettop(L) - with_dtype;
  o->g = lt_default_generator();
  if (!lua_isnil(L, at)) {
    gen_ud *u = test_gen(L, at);
    if (!u) ltl_error(L, "%s: generator must be a Generator, got %s", fname, luaL_typename(L, at));
    o->g = u->g;
  }
  o->dt = with_dtype ? ltl_dtype_option(L, at + 1, fname, LT_NDTYPES) : LT_NDTYPES;
  return last;
}

/* The dtype of a call: positionally at arg (when arg <= last) or as the option, else def. */
static lt_dtype dtype_at(lua_State *L, int arg, int last, const rnd_opts *o, lt_dtype def,
                         const char *fname) {
  if (arg > last) return o->dt == LT_NDTYPES ? def : o->dt;
  return ltl_dtype_pick(L, arg, o->dt, def, fname);
}

/* The optional number argument arg, def when it is absent, nil, or past the positional ones. */
static lua_Number opt_number(lua_State *L, int arg, int last, lua_Number def) {
  return arg > last ? def : luaL_optnumber(L, arg, def);
}

/* A number for a message: NaN without its sign ("nan", never "-nan"). */
static lua_Number shown(lua_Number v) { return v != v ? fabs(v) : v; }

/* The shape from argument arg on (a table or sizes; none: 0-d), then a dtype (*dt: def when
   none), which must end the positional arguments (last). */
static int check_shape(lua_State *L, int arg, int last, int64_t *shape, const rnd_opts *o,
                       lt_dtype def, lt_dtype *dt, const char *fname) {
  int next = arg, ndim = 0;
  if (arg <= last && lua_type(L, arg) != LUA_TSTRING) {
    if (lua_type(L, arg) != LUA_TTABLE && lua_type(L, arg) != LUA_TNUMBER)
      luaL_typeerror(L, arg, "shape (table or integers)");
    ndim = ltl_check_sizes(L, arg, shape, 0, &next);
  }
  *dt = dtype_at(L, next, last, o, def, fname);
  if (last > next) ltl_too_many(L, 0, next, 1, fname);
  return ndim;
}

static lt_dtype float_dtype(lua_State *L, lt_dtype dt, const char *fname) {
  if (!lt_dtypes[dt].is_float)
    ltl_error(L, "%s: dtype must be a floating dtype, got %s", fname, lt_dtype_name(dt));
  return dt;
}

/* Pushes t (or a copy) as contiguous float64, owned by a userdata on the stack (t itself is
   held by the caller's). Its data is read with f64_data after the caller's last allocation: a
   finalizer an allocation runs may give t a block of its own. */
static const lt_tensor *push_f64(lua_State *L, const lt_tensor *t, const char *fname) {
  const lt_tensor *c;
  lt_tensor *owned;
  lt_error err;
  ltl_ud *ud = ltl_newud(L);
  if (lt_contiguous_as(t, LT_FLOAT64, &c, &owned, &err)) ltl_fail(L, fname, &err);
  ud->t = owned; /* NULL when t itself is contiguous float64 */
  return c;
}
static const double *f64_data(const lt_tensor *c) {
  return (const double *)(const void *)lt_data(c);
}

/* Fills t; the core's errors raised naming fname. */
static void fill(lua_State *L, lt_tensor *t, const lt_rand_dist *d, lt_generator *g,
                 const char *fname) {
  lt_error err;
  if (lt_random_fill(t, d, g, &err)) ltl_fail(L, fname, &err);
}

/* Pushes a new tensor of dt and shape filled from d: the one result of a constructor. */
static int make(lua_State *L, lt_dtype dt, int ndim, const int64_t *shape, const lt_rand_dist *d,
                const rnd_opts *o, const char *fname) {
  fill(L, ltl_push_new(L, dt, ndim, shape, 0), d, o->g, fname);
  return 1;
}

/* The integers [low, high) for dtype dt: low < high, both held by dt. Raises, naming fname. */
static lt_rand_dist int_range(lua_State *L, lt_dtype dt, lua_Integer low, lua_Integer high,
                              const char *fname) {
  int64_t lo, hi;
  lt_error err;
  if (lt_random_int_bounds(dt, &lo, &hi, &err)) ltl_fail(L, fname, &err);
  if (low >= high)
    ltl_error(L, "%s: low must be below high, got low = %I, high = %I", fname, low, high);
  if (low < lo || high - 1 > hi)
    ltl_error(L, "%s: [%I, %I) does not fit %s (which holds %I to %I)", fname, low, high,
              lt_dtype_name(dt), (lua_Integer)lo, (lua_Integer)hi);
  lt_rand_dist d = {.kind = LT_RAND_INT, .low = low, .range = (uint64_t)high - (uint64_t)low};
  return d;
}

/* }====== */

/* {====== constructors ====== */

/* lt.normal(mean, std [, dtype]) with a tensor mean or std (or both): the broadcast shape, the
   dtype of the first tensor unless one is given. */
static int normal_tensors(lua_State *L, const rnd_opts *o, int last) {
  if (last >= 3 && lua_type(L, 3) != LUA_TSTRING) ltl_too_many(L, 0, 2, 1, "normal");
  if (last > 3) ltl_too_many(L, 0, 3, 1, "normal");
  lt_tensor *ts[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++)
    if (ltl_testud(L, i + 1)) {
      ts[i] = ltl_check(L, i + 1);
      ltl_check_readable(L, ts[i]);
      if (ts[i]->dtype == LT_OPAQUE || lt_dtypes[ts[i]->dtype].is_complex)
        luaL_argerror(L, i + 1, "expected a real tensor");
    } else {
      luaL_checknumber(L, i + 1);
    }
  int ndim;
  int64_t shape[LT_MAX_NDIM];
  lt_error err;
  if (lt_broadcast_shape(2, (const lt_tensor *const *)ts, &ndim, shape, &err))
    ltl_fail(L, "normal", &err);
  lt_tensor *first = ts[0] ? ts[0] : ts[1];
  lt_dtype def = lt_dtypes[first->dtype].is_float ? first->dtype : LT_FLOAT32;
  lt_dtype dt = float_dtype(L, dtype_at(L, 3, last, o, def, "normal"), "normal");
  const lt_tensor *v[2];
  for (int i = 0; i < 2; i++) {
    ltl_ud *b = ltl_newud(L); /* the operand broadcast, or the number as a 0-d tensor */
    if (ts[i]) {
      LTL_CHECK(L, lt_broadcast_to(ts[i], ndim, shape, &b->t, &err), err);
    } else {
      LTL_CHECK(L, lt_tensor_new(LT_FLOAT64, 0, NULL, 0, &b->t, &err), err);
      *(double *)(void *)lt_data(b->t) = lua_tonumber(L, i + 1);
      lt_tensor *s;
      LTL_CHECK(L, lt_broadcast_to(b->t, ndim, shape, &s, &err), err);
      lt_tensor_free(b->t);
      b->t = s;
    }
    v[i] = push_f64(L, b->t, "normal");
  }
  lt_tensor *r = ltl_push_new(L, dt, ndim, shape, 0);
  lt_rand_dist d = {.kind = LT_RAND_NORMAL, .b = 1, .mean = f64_data(v[0]), .std = f64_data(v[1])};
  fill(L, r, &d, o->g, "normal");
  return 1;
}

/* lt.rand / randn (shape [, dtype]), lt.normal(mean, std, shape [, dtype]) */
static int make_real(lua_State *L, lt_rand_kind kind, const char *fname, int nparams) {
  rnd_opts o;
  int64_t shape[LT_MAX_NDIM];
  int last = read_opts(L, 0, LT_MAX_NDIM + 3, 1, fname, &o);
  lt_rand_dist d = {.kind = kind, .b = 1};
  if (nparams && (ltl_testud(L, 1) || ltl_testud(L, 2))) return normal_tensors(L, &o, last);
  if (nparams) {
    d.a = luaL_checknumber(L, 1);
    d.b = luaL_checknumber(L, 2);
    if (!(d.b >= 0))
      luaL_argerror(L, 2, lua_pushfstring(L, "std must be non-negative, got %f", shown(d.b)));
  }
  lt_dtype dt;
  int ndim = check_shape(L, nparams + 1, last, shape, &o, LT_FLOAT32, &dt, fname);
  return make(L, float_dtype(L, dt, fname), ndim, shape, &d, &o, fname);
}
static int f_rand(lua_State *L) { return make_real(L, LT_RAND_UNIFORM, "rand", 0); }
static int f_randn(lua_State *L) { return make_real(L, LT_RAND_NORMAL, "randn", 0); }
static int f_normal(lua_State *L) { return make_real(L, LT_RAND_NORMAL, "normal", 2); }

/* lt.randint(low, high, shape [, dtype]) or lt.randint(high, shape [, dtype]): half-open, int64
   unless a dtype is given. */
static int f_randint(lua_State *L) {
  rnd_opts o;
  int64_t shape[LT_MAX_NDIM];
  int last = read_opts(L, 0, LT_MAX_NDIM + 3, 1, "randint", &o);
  int two = lua_type(L, 2) == LUA_TTABLE;
  lua_Integer low = two ? 0 : ltl_check_int(L, 1, "low");
  lua_Integer high = ltl_check_int(L, two ? 1 : 2, "high");
  int at = two ? 2 : 3, ndim = 0; /* the shape's argument */
  lt_dtype dt = o.dt == LT_NDTYPES ? LT_INT64 : o.dt;
  if (at <= last) {
    ndim = check_shape(L, at, last, shape, &o, LT_INT64, &dt, "randint");
  } else { /* only an empty table there (taken for options): 0-d */
    int empty = lua_type(L, at) == LUA_TTABLE;
    if (empty) {
      lua_pushnil(L);
      empty = !lua_next(L, at);
      if (!empty) lua_pop(L, 2);
    }
    if (!empty) luaL_typeerror(L, at, "shape (table or integers)");
  }
  lt_rand_dist d = int_range(L, dt, low, high, "randint");
  return make(L, dt, ndim, shape, &d, &o, "randint");
}

/* lt.randperm(n [, dtype]): a permutation of 1..n, int64 unless a dtype is given. */
static int f_randperm(lua_State *L) {
  rnd_opts o;
  int last = read_opts(L, 0, 2, 1, "randperm", &o);
  lua_Integer n = ltl_check_int(L, 1, "n");
  luaL_argcheck(L, n >= 0, 1, "n must be non-negative");
  lt_dtype dt = dtype_at(L, 2, last, &o, LT_INT64, "randperm");
  int64_t lo, hi;
  lt_error err;
  if (lt_random_int_bounds(dt, &lo, &hi, &err) || dt == LT_BOOL)
    return ltl_error(L, "randperm: dtype must be an integer or floating dtype, got %s",
                     lt_dtype_name(dt));
  if (n > hi) return ltl_error(L, "randperm: %s cannot hold %I", lt_dtype_name(dt), n);
  lt_tensor **p = ltl_out(L);
  if (lt_randperm(n, o.g, p, &err)) return ltl_fail(L, "randperm", &err);
  if (dt == LT_INT64) return 1;
  return ltl_result(L, lt_cast(*p, dt, ltl_out(L), &err), &err, "randperm");
}

/* lt.bernoulli(p): 1 with probability p[i], in p's dtype and shape. */
static int f_bernoulli(lua_State *L) {
  rnd_opts o;
  read_opts(L, 0, 1, 0, "bernoulli", &o);
  lt_tensor *p = ltl_check(L, 1);
  ltl_check_readable(L, p);
  if (p->dtype == LT_OPAQUE || !lt_dtypes[p->dtype].is_float)
    return luaL_argerror(L, 1, "probabilities must have a floating dtype");
  const lt_tensor *c = push_f64(L, p, "bernoulli");
  lt_tensor *r = ltl_push_new(L, p->dtype, p->ndim, p->shape, 0);
  lt_rand_dist d = {.kind = LT_RAND_BERNOULLI, .p = f64_data(c)};
  fill(L, r, &d, o.g, "bernoulli");
  return 1;
}

/* lt.multinomial(probs, n [, replacement]) */
static int f_multinomial(lua_State *L) {
  rnd_opts o;
  int last = read_opts(L, 0, 3, 0, "multinomial", &o);
  lt_tensor *p = ltl_check(L, 1);
  lua_Integer n = ltl_check_int(L, 2, "number of samples");
  int repl = last >= 3 ? ltl_opt_bool(L, 3, 0, "replacement") : 0;
  ltl_check_readable(L, p);
  lt_error err;
  return ltl_result(L, lt_multinomial(p, n, repl, o.g, ltl_out(L), &err), &err, "multinomial");
}

/* lt.rand_like / randn_like (t [, dtype]) */
static int make_like(lua_State *L, lt_rand_kind kind, const char *fname) {
  rnd_opts o;
  int last = read_opts(L, 0, 2, 1, fname, &o);
  lt_tensor *t = ltl_check(L, 1);
  lt_dtype def = t->dtype == LT_OPAQUE ? LT_FLOAT32 : t->dtype;
  lt_dtype dt = float_dtype(L, dtype_at(L, 2, last, &o, def, fname), fname);
  lt_rand_dist d = {.kind = kind, .b = 1};
  return make(L, dt, t->ndim, t->shape, &d, &o, fname);
}
static int f_rand_like(lua_State *L) { return make_like(L, LT_RAND_UNIFORM, "rand_like"); }
static int f_randn_like(lua_State *L) { return make_like(L, LT_RAND_NORMAL, "randn_like"); }

/* lt.randint_like(t, [low,] high [, dtype]): t's shape and dtype unless a dtype is given. */
static int f_randint_like(lua_State *L) {
  rnd_opts o;
  int last = read_opts(L, 0, 4, 1, "randint_like", &o);
  lt_tensor *t = ltl_check(L, 1);
  int two = last >= 3 && lua_type(L, 3) == LUA_TNUMBER, darg = two ? 4 : 3;
  lua_Integer low = two ? ltl_check_int(L, 2, "low") : 0;
  lua_Integer high = ltl_check_int(L, two ? 3 : 2, "high");
  if (last > darg) ltl_too_many(L, 0, darg, 1, "randint_like");
  lt_dtype dt = dtype_at(L, darg, last, &o, t->dtype, "randint_like");
  if (dt == LT_OPAQUE) return luaL_argerror(L, 1, "tensor of an opaque dtype");
  lt_rand_dist d = int_range(L, dt, low, high, "randint_like");
  return make(L, dt, t->ndim, t->shape, &d, &o, "randint_like");
}

/* }====== */

/* {====== in place ====== */

/* The tensor of an in-place method, made ready for writing (after the options were read), and
   what the method returns: t, filled from d. */
static int fill_self(lua_State *L, const lt_rand_dist *d, const rnd_opts *o, const char *fname) {
  lt_tensor *t = ltl_check(L, 1);
  ltl_prepare_write(L, t);
  fill(L, t, d, o->g, fname);
  lua_settop(L, 1);
  return 1;
}

/* t:uniform_([a, b]): [a, b), default [0, 1); t:normal_([mean, std]). */
static int fill_real(lua_State *L, lt_rand_kind kind, const char *fname) {
  rnd_opts o;
  int last = read_opts(L, 1, 2, 0, fname, &o);
  lt_rand_dist d = {.kind = kind, .a = opt_number(L, 2, last, 0), .b = opt_number(L, 3, last, 1)};
  if (kind == LT_RAND_UNIFORM && !(d.a <= d.b))
    return luaL_argerror(
        L, 3,
        lua_pushfstring(L, "b must be at least a, got a = %f, b = %f", shown(d.a), shown(d.b)));
  if (kind == LT_RAND_NORMAL && !(d.b >= 0))
    return luaL_argerror(L, 3, lua_pushfstring(L, "std must be non-negative, got %f", shown(d.b)));
  return fill_self(L, &d, &o, fname);
}
static int m_uniform_(lua_State *L) { return fill_real(L, LT_RAND_UNIFORM, "uniform_"); }
static int m_normal_(lua_State *L) { return fill_real(L, LT_RAND_NORMAL, "normal_"); }

/* t:random_(): [0, the largest integer t's dtype holds] (floats: 2^digits); t:random_(to):
   [0, to); t:random_(from, to): [from, to). */
static int m_random_(lua_State *L) {
  rnd_opts o;
  int last = read_opts(L, 1, 2, 0, "random_", &o);
  lt_tensor *t = ltl_check(L, 1);
  if (t->dtype == LT_OPAQUE) return ltl_error(L, "random_: tensor of an opaque dtype");
  lt_rand_dist d;
  if (last == 1) {
    int64_t lo, hi;
    lt_error err;
    if (lt_random_int_bounds(t->dtype, &lo, &hi, &err)) return ltl_fail(L, "random_", &err);
    d = (lt_rand_dist){.kind = LT_RAND_INT, .range = (uint64_t)hi + 1};
  } else {
    lua_Integer from = last == 3 ? ltl_check_int(L, 2, "from") : 0;
    lua_Integer to = ltl_check_int(L, last, "to");
    d = int_range(L, t->dtype, from, to, "random_");
  }
  return fill_self(L, &d, &o, "random_");
}

/* t:bernoulli_([p]): p a number (default 0.5) or a tensor broadcast to t. */
static int m_bernoulli_(lua_State *L) {
  rnd_opts o;
  int last = read_opts(L, 1, 1, 0, "bernoulli_", &o);
  lt_tensor *t = ltl_check(L, 1);
  lt_rand_dist d = {.kind = LT_RAND_BERNOULLI, .a = 0.5};
  const lt_tensor *c = NULL;
  if (last >= 2 && ltl_testud(L, 2)) {
    lt_tensor *p = ltl_check(L, 2);
    ltl_check_readable(L, p);
    if (p->dtype == LT_OPAQUE || lt_dtypes[p->dtype].is_complex)
      return luaL_argerror(L, 2, "probabilities must be real");
    lt_error err;
    lt_tensor **v = ltl_out(L);
    ltl_result(L, lt_broadcast_to(p, t->ndim, t->shape, v, &err), &err, "bernoulli_");
    c = push_f64(L, *v, "bernoulli_");
  } else if (last >= 2) {
    d.a = luaL_checknumber(L, 2);
  }
  t = ltl_check(L, 1);
  ltl_prepare_write(L, t);
  if (c) d.p = f64_data(c); /* after the last allocation */
  fill(L, t, &d, o.g, "bernoulli_");
  lua_settop(L, 1);
  return 1;
}

/* }====== */

static const luaL_Reg random_methods[] = {{"uniform_", m_uniform_},
                                          {"normal_", m_normal_},
                                          {"random_", m_random_},
                                          {"bernoulli_", m_bernoulli_},
                                          {NULL, NULL}};

static const luaL_Reg random_funcs[] = {{"Generator", f_generator},
                                        {"manual_seed", f_manual_seed},
                                        {"seed", f_seed},
                                        {"initial_seed", f_initial_seed},
                                        {"rand", f_rand},
                                        {"randn", f_randn},
                                        {"normal", f_normal},
                                        {"randint", f_randint},
                                        {"randperm", f_randperm},
                                        {"bernoulli", f_bernoulli},
                                        {"multinomial", f_multinomial},
                                        {"rand_like", f_rand_like},
                                        {"randn_like", f_randn_like},
                                        {"randint_like", f_randint_like},
                                        {NULL, NULL}};

static const luaL_Reg gen_methods[] = {{"manual_seed", g_manual_seed},   {"seed", g_seed},
                                       {"initial_seed", g_initial_seed}, {"get_state", g_get_state},
                                       {"set_state", g_set_state},       {NULL, NULL}};

/* The Generator metatable (registry, &gen_key) and this state's userdata of the process
   generator (registry, &default_key; the module's default_generator). */
static void open_random(lua_State *L, const ltl_tables *at) {
  lua_createtable(L, 0, 4); /* metatable */
  lua_createtable(L, 0, 5);
  luaL_setfuncs(L, gen_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, g_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushliteral(L, GEN_NAME);
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, "locked");
  lua_setfield(L, -2, "__metatable");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &gen_key);
  gen_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->g = lt_default_generator();
  lt_generator_init(&u->own, 0); /* unused */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &gen_key);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &default_key);
  lua_setfield(L, at->module, "default_generator");
}

const ltl_part ltl_part_random = {NULL, random_methods, NULL, random_funcs, open_random};
