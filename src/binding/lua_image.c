/*
 * lua_image.c -- lt.image: read, decode, write and encode, PNG and JPEG images as H x W x C
 * tensors. Parses the arguments and options (mode, quality, compression) and calls the core
 * (lt_image.h), whose messages name the file ("bytes" for a string); the function's name is
 * added once here ("image.read: photo.png: truncated PNG (...)").
 *
 * Read only by lua_init.c (ltl_part_image, opened after ltl_part_spaces made lt.image); calls
 * the base (lua_ud.h), lua_spaces.h and the core.
 */
#include <string.h>

#include "lt_image.h"
#include "lua_parts.h"
#include "lua_spaces.h"
#include "lua_ud.h"

static const char bytes_key = 0; /* registry key of the metatable of an encoding's box */

static int bytes_gc(lua_State *L) {
  lt_image_bytes *b = lua_touserdata(L, 1);
  lt_image_bytes_free(b);
  return 0;
}

/* The decode mode option of fname at idx (a value ltl_opts pushed). */
static lt_image_mode mode_option(lua_State *L, int idx, const char *fname) {
  static const char *const modes[] = {"unchanged", "gray", "rgb", "rgba", NULL};
  return (lt_image_mode)ltl_choice_option(L, idx, LT_IMG_UNCHANGED, fname, "mode", modes);
}

/* lt.image.read(path [, {mode = "unchanged" | "gray" | "rgb" | "rgba"}]) */
static int f_read(lua_State *L) {
  static const char *const keys[] = {"mode"};
  ltl_args(L, 0, 1, 1, "image.read");
  const char *path = luaL_checkstring(L, 1);
  ltl_opts(L, 2, "image.read", keys, 1);
  lt_image_mode mode = mode_option(L, -1, "image.read");
  lt_error err;
  return ltl_result(L, lt_image_read(path, mode, ltl_out(L), &err), &err, "image.read");
}

/* lt.image.decode(bytes [, {mode = ...}]) */
static int f_decode(lua_State *L) {
  static const char *const keys[] = {"mode"};
  ltl_args(L, 0, 1, 1, "image.decode");
  size_t len;
  const char *bytes = luaL_checklstring(L, 1, &len);
  ltl_opts(L, 2, "image.decode", keys, 1);
  lt_image_mode mode = mode_option(L, -1, "image.decode");
  lt_error err;
  return ltl_result(L, lt_image_decode("bytes", bytes, len, mode, ltl_out(L), &err), &err,
                    "image.decode");
}

/* The integer option key at idx of fname, within lo..hi; -1 when it is nil. */
static int int_option(lua_State *L, int idx, const char *fname, const char *key, int lo, int hi) {
  if (lua_isnil(L, idx)) return -1;
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok)
    return ltl_error(
        L, "%s: %s must be an integer, got %s", fname, key,
        lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx));
  if (v < lo || v > hi)
    return ltl_error(L, "%s: %s must be %d to %d, got %I", fname, key, lo, hi, v);
  return (int)v;
}

/* The encoder options of fname (the options table from first on) for fmt. */
static lt_image_opts encode_options(lua_State *L, int first, const char *fname,
                                    lt_image_format fmt) {
  static const char *const keys[] = {"quality", "compression"};
  ltl_opts(L, first, fname, keys, 2);
  lt_image_opts o = {int_option(L, -2, fname, "quality", 1, 100),
                     int_option(L, -1, fname, "compression", 0, 9)};
  if (o.quality != -1 && fmt != LT_IMG_JPEG)
    ltl_error(L, "%s: quality is for JPEG (PNG is lossless: compression sets its zlib level)",
              fname);
  if (o.compression != -1 && fmt != LT_IMG_PNG)
    ltl_error(L, "%s: compression is for PNG (JPEG takes quality)", fname);
  lua_pop(L, 2);
  return o;
}

/* lt.image.write(path, t [, {quality = 90, compression = 6}]) */
static int f_write(lua_State *L) {
  ltl_args(L, 0, 2, 1, "image.write");
  const char *path = luaL_checkstring(L, 1);
  lt_image_format fmt;
  lt_error err;
  if (lt_image_format_of(path, &fmt, &err)) return ltl_fail(L, "image.write", &err);
  lt_image_opts o = encode_options(L, 3, "image.write", fmt);
  const lt_tensor *t = ltl_check(L, 2);
  if (lt_image_write(path, t, &o, &err)) return ltl_fail(L, "image.write", &err);
  return 0;
}

/* lt.image.encode(t, "png" | "jpeg" [, {quality = 90, compression = 6}]) -> string */
static int f_encode(lua_State *L) {
  static const char *const formats[] = {"png", "jpeg", "jpg", NULL};
  ltl_args(L, 0, 2, 1, "image.encode");
  const char *name = lua_tostring(L, 2);
  int k = 0;
  while (formats[k] && (!name || lua_type(L, 2) != LUA_TSTRING || strcmp(name, formats[k]))) k++;
  if (!formats[k])
    return ltl_error(L, "image.encode: format must be 'png' or 'jpeg', got %s",
                     lua_type(L, 2) == LUA_TSTRING ? name : luaL_typename(L, 2));
  lt_image_format fmt = k == 0 ? LT_IMG_PNG : LT_IMG_JPEG;
  lt_image_opts o = encode_options(L, 3, "image.encode", fmt);
  const lt_tensor *t = ltl_check(L, 1);
  lt_image_bytes *b = lua_newuserdatauv(L, sizeof *b, 0); /* freed by the collector on a raise */
  memset(b, 0, sizeof *b);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &bytes_key);
  lua_setmetatable(L, -2);
  lt_error err;
  if (lt_image_encode("bytes", t, fmt, &o, b, &err)) return ltl_fail(L, "image.encode", &err);
  lua_pushlstring(L, (const char *)b->data, b->len);
  lt_image_bytes_free(b);
  return 1;
}

static const luaL_Reg image_funcs[] = {
    {"read", f_read}, {"decode", f_decode}, {"write", f_write}, {"encode", f_encode}, {NULL, NULL}};

static void open_image(lua_State *L, const ltl_tables *at) {
  lua_newtable(L);
  lua_pushcfunction(L, bytes_gc);
  lua_setfield(L, -2, "__gc");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &bytes_key);
  ltl_space_register(L, at, "image", image_funcs);
}

const ltl_part ltl_part_image = {NULL, NULL, NULL, NULL, open_image};
