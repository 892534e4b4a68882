/*
 * lua_fft.c -- the namespace lt.fft (torch.fft): fft, ifft, rfft, irfft, hfft, ihfft
 * (input, n, dim, norm); fft2, ifft2, rfft2, irfft2, hfft2, ihfft2 (input, s, dim = {-2, -1},
 * norm); fftn, ifftn, rfftn, irfftn, hfftn, ihfftn (input, s, dim, norm); fftfreq, rfftfreq
 * (n, d, {dtype}); fftshift, ifftshift (input, dim). Every argument after the input may also come
 * in a trailing options table ({n =, s =, dim =, norm =}), torch's keywords; dims are 1-based
 * (negative from the end), s and dim lists are Lua sequences.
 *
 * Argument handling only: the transforms are the core's (lt_fft_api.h), whose messages the
 * function's name is put before. Read only by lua_init.c (ltl_part_fft, after ltl_part_spaces,
 * which makes the table it fills); calls the base (lua_ud.h), lua_spaces.h and the core.
 */
#include "lt_fft_api.h"
#include "lua_spaces.h"
#include "lua_ud.h"

/* How a transform reads its sizes and dims: one n and one dim, or lists of them (two by
   default, or every dim). */
typedef enum { ONE_DIM, TWO_DIMS, ALL_DIMS } fft_shape;

typedef struct {
  const char *name; /* "fft.rfft2": how messages name it */
  lt_fft_func func;
  fft_shape shape;
} fft_entry;

static const fft_entry entries[] = {
    {"fft.fft", LT_FFTF_FFT, ONE_DIM},     {"fft.ifft", LT_FFTF_IFFT, ONE_DIM},
    {"fft.rfft", LT_FFTF_RFFT, ONE_DIM},   {"fft.irfft", LT_FFTF_IRFFT, ONE_DIM},
    {"fft.hfft", LT_FFTF_HFFT, ONE_DIM},   {"fft.ihfft", LT_FFTF_IHFFT, ONE_DIM},
    {"fft.fft2", LT_FFTF_FFT, TWO_DIMS},   {"fft.ifft2", LT_FFTF_IFFT, TWO_DIMS},
    {"fft.rfft2", LT_FFTF_RFFT, TWO_DIMS}, {"fft.irfft2", LT_FFTF_IRFFT, TWO_DIMS},
    {"fft.fftn", LT_FFTF_FFT, ALL_DIMS},   {"fft.ifftn", LT_FFTF_IFFT, ALL_DIMS},
    {"fft.rfftn", LT_FFTF_RFFT, ALL_DIMS}, {"fft.irfftn", LT_FFTF_IRFFT, ALL_DIMS},
    {"fft.hfft2", LT_FFTF_HFFT, TWO_DIMS}, {"fft.ihfft2", LT_FFTF_IHFFT, TWO_DIMS},
    {"fft.hfftn", LT_FFTF_HFFT, ALL_DIMS}, {"fft.ihfftn", LT_FFTF_IHFFT, ALL_DIMS},
};
enum { NENTRIES = sizeof entries / sizeof entries[0] };

/* The stack index of argument k (0-based after the input) given at position pos or as the
   option at opt (0: neither); both raise. */
static int pick(lua_State *L, int last, int k, int opt, const char *fname, const char *key) {
  int pos = 2 + k, has_pos = pos <= last && !lua_isnil(L, pos);
  if (has_pos && !lua_isnil(L, opt))
    return ltl_error(L, "%s: %s given twice (as argument %d and as an option)", fname, key, pos);
  return has_pos ? pos : (lua_isnil(L, opt) ? 0 : opt);
}

/* An integer at idx, or raises naming key. */
static lua_Integer int_at(lua_State *L, int idx, const char *fname, const char *key) {
  int isnum;
  lua_Integer v = lua_tointegerx(L, idx, &isnum);
  if (!isnum)
    return ltl_error(L, "%s: %s must be an integer, got %s", fname, key, luaL_typename(L, idx));
  return v;
}

/* The integers at idx (one integer, or a sequence of them when list) into v; their count. */
static int ints_at(lua_State *L, int idx, int list, lua_Integer *v, const char *fname,
                   const char *key) {
  if (!list || lua_type(L, idx) == LUA_TNUMBER) {
    v[0] = int_at(L, idx, fname, key);
    return 1;
  }
  if (lua_type(L, idx) != LUA_TTABLE)
    return ltl_error(L, "%s: %s must be a table of integers, got %s", fname, key,
                     luaL_typename(L, idx));
  lua_Unsigned n = lua_rawlen(L, idx);
  if (n > LT_MAX_NDIM)
    return ltl_error(L, "%s: %s has more than %d entries", fname, key, LT_MAX_NDIM);
  for (lua_Unsigned i = 0; i < n; i++) {
    lua_rawgeti(L, idx, (lua_Integer)i + 1);
    int isnum;
    v[i] = lua_tointegerx(L, -1, &isnum);
    if (!isnum)
      return ltl_error(L, "%s: %s[%d] must be an integer, got %s", fname, key, (int)i + 1,
                       luaL_typename(L, -1));
    lua_pop(L, 1);
  }
  return (int)n;
}

/* 1-based (negative from the end) dims into 0-based ones. */
static void to_dims(lua_State *L, const lua_Integer *v, int n, int ndim, int *dims,
                    const char *fname) {
  for (int i = 0; i < n; i++) {
    if (v[i] == 0 || v[i] < -ndim || v[i] > ndim)
      ltl_error(L, "%s: dim %I out of range for a tensor of %d dims (dims are 1-based)", fname,
                v[i], ndim);
    dims[i] = (int)(v[i] < 0 ? v[i] + ndim : v[i] - 1);
  }
}

static const char *const norms[] = {"backward", "ortho", "forward", NULL};

/* entries[which] (which < NENTRIES: the f_ functions below pass constants). */
static int transform(lua_State *L, int which) {
  static const char *const keys_n[] = {"n", "dim", "norm"}, *const keys_s[] = {"s", "dim", "norm"};
  const fft_entry *e = &entries[which];
  int one = e->shape == ONE_DIM;
  const char *fname = e->name, *size_key = one ? "n" : "s";
  ltl_args(L, 0, 4, 1, fname);
  int last = ltl_opts(L, 1, fname, one ? keys_n : keys_s, 3), o = lua_gettop(L) - 2;
  lt_tensor *t = ltl_check(L, 1);
  int at_s = pick(L, last, 0, o, fname, size_key), at_dim = pick(L, last, 1, o + 1, fname, "dim");
  int at_norm = pick(L, last, 2, o + 2, fname, "norm");
  lt_fft_norm norm = (lt_fft_norm)(at_norm ? ltl_choice_option(L, at_norm, 0, fname, "norm", norms)
                                           : LT_FFT_BACKWARD);
  lua_Integer v[LT_MAX_NDIM];
  int64_t s[LT_MAX_NDIM];
  int dims[LT_MAX_NDIM], ns = -1, nd = -1;
  if (at_s) {
    ns = ints_at(L, at_s, !one, v, fname, size_key);
    for (int i = 0; i < ns; i++) {
      if (v[i] < 1 && (one || v[i] != -1))
        return ltl_error(L, "%s: %s must be at least 1 (the number of data points)%s, got %I",
                         fname, size_key, one ? "" : " or -1", v[i]);
      s[i] = (int64_t)v[i];
    }
  }
  if (t->ndim > 0 && (at_dim || e->shape != ALL_DIMS)) {
    if (at_dim) {
      nd = ints_at(L, at_dim, !one, v, fname, "dim");
    } else {
      nd = one ? 1 : 2;
      v[0] = one ? -1 : -2, v[1] = -1;
    }
    to_dims(L, v, nd, t->ndim, dims, fname);
  }
  if (ns >= 0 && nd >= 0 && ns != nd)
    return ltl_error(L, "%s: s and dim must have the same length when both are given (%d and %d)",
                     fname, ns, nd);
  lua_settop(L, last);
  lt_error err;
  int count = nd >= 0 ? nd : ns >= 0 ? ns : 0;
  return ltl_result(L,
                    lt_fft_nd(t, e->func, count, nd >= 0 ? dims : NULL, ns >= 0 ? s : NULL, norm,
                              ltl_out(L), &err),
                    &err, fname);
}

static int f_fft(lua_State *L) { return transform(L, 0); }
static int f_ifft(lua_State *L) { return transform(L, 1); }
static int f_rfft(lua_State *L) { return transform(L, 2); }
static int f_irfft(lua_State *L) { return transform(L, 3); }
static int f_hfft(lua_State *L) { return transform(L, 4); }
static int f_ihfft(lua_State *L) { return transform(L, 5); }
static int f_fft2(lua_State *L) { return transform(L, 6); }
static int f_ifft2(lua_State *L) { return transform(L, 7); }
static int f_rfft2(lua_State *L) { return transform(L, 8); }
static int f_irfft2(lua_State *L) { return transform(L, 9); }
static int f_fftn(lua_State *L) { return transform(L, 10); }
static int f_ifftn(lua_State *L) { return transform(L, 11); }
static int f_rfftn(lua_State *L) { return transform(L, 12); }
static int f_irfftn(lua_State *L) { return transform(L, 13); }
static int f_hfft2(lua_State *L) { return transform(L, 14); }
static int f_ihfft2(lua_State *L) { return transform(L, 15); }
static int f_hfftn(lua_State *L) { return transform(L, 16); }
static int f_ihfftn(lua_State *L) { return transform(L, 17); }
_Static_assert(NENTRIES == 18, "one f_ function per entry");

/* lt.fft.fftfreq(n, d = 1, {dtype = "float32"}) and rfftfreq. */
static int freq(lua_State *L, int onesided, const char *fname) {
  ltl_args(L, 0, 2, 1, fname);
  lt_dtype opt;
  ltl_dtype_opts(L, 1, fname, &opt);
  lua_Integer n = int_at(L, 1, fname, "n");
  lua_Number d = 1.0;
  if (!lua_isnoneornil(L, 2)) {
    int isnum;
    d = lua_tonumberx(L, 2, &isnum);
    if (!isnum) return ltl_error(L, "%s: d must be a number, got %s", fname, luaL_typename(L, 2));
  }
  lt_error err;
  lt_dtype dt = opt == LT_NDTYPES ? LT_FLOAT32 : opt;
  return ltl_result(L, lt_fftfreq((int64_t)n, (double)d, dt, onesided, ltl_out(L), &err), &err,
                    fname);
}
static int f_fftfreq(lua_State *L) { return freq(L, 0, "fft.fftfreq"); }
static int f_rfftfreq(lua_State *L) { return freq(L, 1, "fft.rfftfreq"); }

/* lt.fft.fftshift(input, dim) and ifftshift: dim an integer, a sequence of them, or none (every
   dim). */
static int shift(lua_State *L, int inverse, const char *fname) {
  static const char *const keys[] = {"dim"};
  ltl_args(L, 0, 2, 1, fname);
  int last = ltl_opts(L, 1, fname, keys, 1);
  lt_tensor *t = ltl_check(L, 1);
  int at = pick(L, last, 0, lua_gettop(L), fname, "dim"), dims[LT_MAX_NDIM], nd = 0;
  if (at && t->ndim > 0) {
    lua_Integer v[LT_MAX_NDIM];
    nd = ints_at(L, at, 1, v, fname, "dim");
    to_dims(L, v, nd, t->ndim, dims, fname);
  }
  lua_settop(L, last);
  lt_error err;
  return ltl_result(L, lt_fftshift(t, nd, at ? dims : NULL, inverse, ltl_out(L), &err), &err,
                    fname);
}
static int f_fftshift(lua_State *L) { return shift(L, 0, "fft.fftshift"); }
static int f_ifftshift(lua_State *L) { return shift(L, 1, "fft.ifftshift"); }

static const luaL_Reg fft_funcs[] = {
    {"fft", f_fft},
    {"ifft", f_ifft},
    {"rfft", f_rfft},
    {"irfft", f_irfft},
    {"hfft", f_hfft},
    {"ihfft", f_ihfft},
    {"fft2", f_fft2},
    {"ifft2", f_ifft2},
    {"rfft2", f_rfft2},
    {"irfft2", f_irfft2},
    {"hfft2", f_hfft2},
    {"ihfft2", f_ihfft2},
    {"fftn", f_fftn},
    {"ifftn", f_ifftn},
    {"rfftn", f_rfftn},
    {"irfftn", f_irfftn},
    {"hfftn", f_hfftn},
    {"ihfftn", f_ihfftn},
    {"fftfreq", f_fftfreq},
    {"rfftfreq", f_rfftfreq},
    {"fftshift", f_fftshift},
    {"ifftshift", f_ifftshift},
    {NULL, NULL},
};

static void open_fft(lua_State *L, const ltl_tables *at) {
  ltl_space_register(L, at, "fft", fft_funcs);
}

const ltl_part ltl_part_fft = {NULL, NULL, NULL, NULL, open_fft};
