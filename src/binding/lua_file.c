/*
 * lua_file.c -- lt.save and lt.load: .npy, .npz and .safetensors files, read or mapped. The
 * format is chosen by the path's extension; parsing, checking and writing are the core's
 * (lt_npy.c, lt_zip.c, lt_safetensors.c), whose messages name the file.
 *
 * Read only by lua_init.c (ltl_part_file); calls the base (lua_ud.h) and the core.
 */
#include <stdlib.h>
#include <string.h>

#include "lt_npy.h"
#include "lt_safetensors.h"
#include "lt_zip.h"
#include "lua_parts.h"
#include "lua_ud.h"

typedef enum { F_NPY, F_NPZ, F_SAFETENSORS } file_kind;

static file_kind check_kind(lua_State *L, const char *path) {
  static const char *const ext[] = {".npy", ".npz", ".safetensors"};
  size_t n = strlen(path);
  for (int k = 0; k < 3; k++) {
    size_t e = strlen(ext[k]);
    if (n > e) {
      const char *p = path + n - e;
      size_t i = 0;
      while (i < e && (p[i] | 0x20) == (ext[k][i] | 0x20)) i++;
      if (i == e) return (file_kind)k;
    }
  }
  return (file_kind)ltl_error(L, "%s: unknown file type (expected .npy, .npz or .safetensors)",
                              path);
}

/* {====== a set of loaded tensors, freed by the collector if anything raises ====== */

static const char set_key = 0; /* registry key of the box metatable */

static int box_gc(lua_State *L) {
  lt_file_set *s = lua_touserdata(L, 1);
  if (s) lt_file_set_free(s);
  return 0;
}

static lt_file_set *push_box(lua_State *L) {
  lt_file_set *s = lua_newuserdatauv(L, sizeof *s, 0);
  memset(s, 0, sizeof *s);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &set_key);
  lua_setmetatable(L, -2);
  return s;
}

/* Moves the tensor of entry i into a new userdata on the stack. */
static void push_entry(lua_State *L, lt_file_set *s, int i) {
  ltl_ud *ud = ltl_newud(L);
  ud->t = s->tensors[i];
  s->tensors[i] = NULL;
}

/* Pushes name -> tensor, then (safetensors) the metadata or nil and the names in order, and
   (lenient) name -> why of the tensors left out, which are in neither of the others. */
static int push_set(lua_State *L, lt_file_set *s, int extras, int skipped) {
  lua_createtable(L, 0, s->n);
  int tab = lua_gettop(L), k = 0;
  if (extras) lua_createtable(L, s->n, 0);
  if (skipped) lua_newtable(L);
  for (int i = 0; i < s->n; i++) {
    if (!s->tensors[i]) { /* left out */
      lua_pushstring(L, s->why[i]);
      lua_setfield(L, tab + 2, s->names[i]);
      continue;
    }
    push_entry(L, s, i);
    lua_setfield(L, tab, s->names[i]);
    if (extras) {
      lua_pushstring(L, s->names[i]);
      lua_rawseti(L, tab + 1, ++k);
    }
  }
  if (!extras) return 1;
  if (s->has_meta) {
    lua_createtable(L, 0, s->nmeta);
    for (int i = 0; i < s->nmeta; i++) {
      lua_pushstring(L, s->meta_vals[i]);
      lua_setfield(L, -2, s->meta_keys[i]);
    }
  } else {
    lua_pushnil(L);
  }
  lua_rotate(L, tab + 1, 1); /* tensors, metadata, names[, left out]; the box frees the names */
  return skipped ? 4 : 3;
}

/* }====== */

/* The start of lt.load and lt.save (fname): the path, at most most arguments in all, then the
   options of the two keys, whose values are left on top in keys' order; returns the file's kind
   (by the path's extension). */
static file_kind begin(lua_State *L, int most, const char *fname, const char *const *keys,
                       const char **path) {
  ltl_args(L, 0, most, 1, fname);
  *path = luaL_checkstring(L, 1);
  ltl_opts(L, most + 1, fname, keys, 2);
  return check_kind(L, *path);
}

/* lt.load(path [, {mmap = true, strict = false}]) */
static int f_load(lua_State *L) {
  static const char *const keys[] = {"mmap", "strict"};
  const char *path;
  file_kind k = begin(L, 1, "load", keys, &path);
  int map = ltl_bool_option(L, -2, 0, "load", "mmap");
  int strict = ltl_bool_option(L, -1, 1, "load", "strict");
  lt_error err;
  if (!strict && k != F_SAFETENSORS)
    return ltl_error(L, "%s: strict = false is for .safetensors files", path);
  if (k == F_NPY) {
    ltl_ud *ud = ltl_newud(L);
    LTL_CHECK(L, lt_npy_load(path, map, &ud->t, &err), err);
    return 1;
  }
  lt_file_set *s = push_box(L);
  int rc;
  if (k == F_NPZ) {
    if (map)
      return ltl_error(L,
                       "%s: an .npz cannot be mapped (its members are zip entries, perhaps "
                       "compressed); load it without mmap",
                       path);
    rc = lt_npz_load(path, s, &err);
  } else {
    rc = lt_safetensors_load(path, map, strict, s, &err);
  }
  LTL_CHECK(L, rc, err);
  return push_set(L, s, k == F_SAFETENSORS, !strict);
}

typedef struct {
  const char *name;
  const lt_tensor *t;
} named_tensor;

static int by_name(const void *a, const void *b) {
  return strcmp(((const named_tensor *)a)->name, ((const named_tensor *)b)->name);
}

/* The tensors of the table at idx, sorted by name, into scratch memory the collector frees. */
static int collect(lua_State *L, int idx, const char *path, const char ***names,
                   const lt_tensor ***tensors) {
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    size_t len;
    if (lua_type(L, -2) != LUA_TSTRING)
      return ltl_error(L, "%s: tensor names must be strings", path);
    if (strlen(lua_tolstring(L, -2, &len)) != len)
      return ltl_error(L, "%s: tensor names cannot hold a NUL byte", path);
    if (!ltl_testud(L, -1))
      return ltl_error(L, "%s: '%s' is not a tensor", path, lua_tostring(L, -2));
    lua_pop(L, 1);
    n++;
  }
  size_t m = (size_t)(n ? n : 1);
  named_tensor *pairs =
      lua_newuserdatauv(L, m * (sizeof(named_tensor) + sizeof(char *) + sizeof(lt_tensor *)), 0);
  *names = (const char **)(pairs + m);
  *tensors = (const lt_tensor **)(*names + m);
  int i = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    pairs[i].name = lua_tostring(L, -2); /* the table keeps the key */
    pairs[i++].t = ltl_check(L, -1);
    lua_pop(L, 1);
  }
  /* sorted by name: files come out the same whatever the table's order */
  qsort(pairs, (size_t)n, sizeof *pairs, by_name);
  for (i = 0; i < n; i++) {
    (*names)[i] = pairs[i].name;
    (*tensors)[i] = pairs[i].t;
  }
  return n;
}

/* lt.save(path, x [, {compress = true, metadata = {...}}]) */
static int f_save(lua_State *L) {
  static const char *const keys[] = {"compress", "metadata"};
  const char *path;
  file_kind k = begin(L, 2, "save", keys, &path);
  int meta = lua_gettop(L); /* the metadata option */
  int compress = ltl_bool_option(L, meta - 1, 0, "save", "compress");
  lt_error err;
  if (compress && k != F_NPZ) return ltl_error(L, "%s: compress is for .npz files", path);
  if (!lua_isnil(L, meta) && k != F_SAFETENSORS)
    return ltl_error(L, "%s: metadata is for .safetensors files", path);
  if (k == F_NPY) {
    if (!ltl_testud(L, 2)) return ltl_error(L, "%s: expected a tensor to save", path);
    LTL_CHECK(L, lt_npy_save(path, ltl_check(L, 2), &err), err);
    return 0;
  }
  if (lua_type(L, 2) != LUA_TTABLE)
    return ltl_error(L, "%s: expected a table of name -> tensor to save", path);
  const char **names = NULL;
  const lt_tensor **tensors = NULL;
  int n = collect(L, 2, path, &names, &tensors);
  if (k == F_NPZ) {
    LTL_CHECK(L, lt_npz_save(path, n, names, tensors, compress, &err), err);
    return 0;
  }
  int nmeta = 0;
  const char **mk = NULL, **mv = NULL;
  if (!lua_isnil(L, meta)) {
    if (lua_type(L, meta) != LUA_TTABLE)
      return ltl_error(L, "%s: metadata must be a table of strings", path);
    lua_pushnil(L);
    while (lua_next(L, meta)) {
      size_t kl, vl;
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
        return ltl_error(L, "%s: metadata keys and values must be strings", path);
      if (strlen(lua_tolstring(L, -2, &kl)) != kl || strlen(lua_tolstring(L, -1, &vl)) != vl)
        return ltl_error(L, "%s: metadata strings cannot hold a NUL byte", path);
      lua_pop(L, 1);
      nmeta++;
    }
    mk = lua_newuserdatauv(L, (size_t)(nmeta ? nmeta : 1) * 2 * sizeof(char *), 0);
    mv = mk + nmeta;
    int i = 0;
    lua_pushnil(L);
    while (lua_next(L, meta)) {
      mk[i] = lua_tostring(L, -2);
      mv[i++] = lua_tostring(L, -1);
      lua_pop(L, 1);
    }
  }
  LTL_CHECK(L,
            lt_safetensors_save(path, n, names, tensors, !lua_isnil(L, meta), nmeta, mk, mv, &err),
            err);
  return 0;
}

static void open_file(lua_State *L, const ltl_tables *at) {
  (void)at;
  lua_newtable(L);
  lua_pushcfunction(L, box_gc);
  lua_setfield(L, -2, "__gc");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &set_key);
}

static const luaL_Reg funcs[] = {{"load", f_load}, {"save", f_save}, {NULL, NULL}};

const ltl_part ltl_part_file = {NULL, NULL, NULL, funcs, open_file};
