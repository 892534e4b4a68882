/*
 * host.c -- a C host that runs the models of examples/model in Lua: the recipe for a game or an
 * app that keeps its own buffers. It embeds Lua 5.4 with ltensor linked statically
 * (ltensor_open: no ltensor files on disk), has model.lua load the weights train.py saved
 * (mapped: lt.load with mmap = true), lends its own input buffers to the forward passes
 * (ltensor_push_borrowed, read-only, taken back after the call with ltensor_revoke_lease),
 * reads the outputs in place (ltensor_borrow) and compares them with torch's.
 *
 * The host's inputs and torch's outputs come from outputs.safetensors, read here with the
 * host's own small reader (the 8-byte header length, the JSON header, the raw bytes), as a host
 * would fill its buffers from a camera frame or a game state.
 *
 * Usage: model_host DIR   (DIR: where train.py wrote model.safetensors and outputs.safetensors)
 * Exits nonzero when an output differs from torch's by more than 1e-5 of its largest magnitude
 * (model.lua says why that scale), or on any error.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltensor.h"

#ifndef LTENSOR_MODEL_DIR
#define LTENSOR_MODEL_DIR "."
#endif

/* {====== the host's reader of outputs.safetensors ====== */

typedef struct {
  char *bytes; /* the whole file */
  long size;
  const char *header; /* the JSON header, NUL-terminated in bytes */
  long data;          /* where the tensors' bytes begin */
} st_file;

static int st_open(st_file *f, const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  fseek(fp, 0, SEEK_END);
  f->size = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  f->bytes = malloc((size_t)f->size + 1);
  int ok = f->bytes && fread(f->bytes, 1, (size_t)f->size, fp) == (size_t)f->size && f->size > 8;
  fclose(fp);
  if (!ok) return 0;
  uint64_t n = 0;
  for (int i = 7; i >= 0; i--) n = n << 8 | (unsigned char)f->bytes[i];
  if (n > (uint64_t)f->size - 8) return 0;
  f->data = 8 + (long)n;
  f->bytes[f->size] = 0;
  char *h = malloc((size_t)n + 1);
  if (!h) return 0;
  memcpy(h, f->bytes + 8, (size_t)n);
  h[n] = 0;
  f->header = h;
  return 1;
}

/* The tensor `name`: its data, its shape (*ndim sizes) and byte count; NULL when absent. */
static void *st_tensor(const st_file *f, const char *name, int64_t *shape, int *ndim,
                       long *nbytes) {
  char key[128];
  snprintf(key, sizeof key, "\"%s\": {", name);
  const char *e = strstr(f->header, key), *s, *o;
  if (!e || !(s = strstr(e, "\"shape\": [")) || !(o = strstr(e, "\"data_offsets\": [")))
    return NULL;
  *ndim = 0;
  for (s += 10; *s != ']' && *ndim < 8; (*ndim)++) {
    shape[*ndim] = strtoll(s, (char **)&s, 10);
    if (*s == ',') s++;
  }
  long a = strtol(o + 17, (char **)&o, 10), b = strtol(o + 1, NULL, 10);
  if (a < 0 || b < a || f->data + b > f->size) return NULL;
  *nbytes = b - a;
  return f->bytes + f->data + a;
}

/* }====== */

/* The largest difference of the float32 tensor out from want, relative to want's largest
   magnitude; -1 when their sizes differ. */
static double max_error(const DLTensor *out, const float *want, long n) {
  long count = 1;
  for (int d = 0; d < out->ndim; d++) count *= (long)out->shape[d];
  if (count != n || out->dtype.code != kDLFloat || out->dtype.bits != 32) return -1;
  const float *got = (const float *)((const char *)out->data + out->byte_offset);
  double diff = 0, scale = 0;
  for (long i = 0; i < n; i++) { /* results of ltensor's functions are contiguous */
    diff = fmax(diff, fabs((double)got[i] - (double)want[i]));
    scale = fmax(scale, fabs((double)want[i]));
  }
  return diff / (scale > 0 ? scale : 1);
}

/* Runs the forward pass `fn` (a function of the Lua table at index 1) on the host buffer
   `input` (dtype dt), compares its result with torch's `want`; 1 when they agree. */
static int run(lua_State *L, st_file *f, const char *fn, const char *input, DLDataType dt,
               const char *want) {
  int64_t shape[8], wshape[8];
  int ndim, wndim;
  long nbytes, wbytes;
  void *in = st_tensor(f, input, shape, &ndim, &nbytes);
  const float *w = st_tensor(f, want, wshape, &wndim, &wbytes);
  if (!in || !w) return fprintf(stderr, "%s or %s missing\n", input, want), 0;
  DLTensor desc = {in, {kDLCPU, 0}, ndim, dt, shape, NULL, 0};
  ltensor_lease *lease = NULL;
  lua_getfield(L, 1, fn);
  if (ltensor_push_borrowed(L, &desc, LTENSOR_READ_ONLY, NULL, NULL, &lease) ||
      lua_pcall(L, 1, 1, 0) != LUA_OK)
    return fprintf(stderr, "%s: %s\n", fn, lua_tostring(L, -1)), 0;
  ltensor_revoke_lease(lease); /* the input buffer is the host's again */
  DLTensor out;
  if (ltensor_borrow(L, -1, &out)) return fprintf(stderr, "%s: no tensor\n", fn), 0;
  double err = max_error(&out, w, wbytes / 4);
  lua_pop(L, 1);
  printf("%-6s %s: max error %.2e of its scale\n", fn, err >= 0 && err <= 1e-5 ? "ok  " : "FAIL",
         err);
  return err >= 0 && err <= 1e-5;
}

/* The forward passes as functions of one tensor, over the mapped weights. */
static const char *const script =
    "local dir = ...\n"
    "local model = require 'model'\n"
    "local w = model.load(dir)\n"
    "return { cnn = function(x) return model.cnn(w, x) end,\n"
    "         block = function(t) return model.block(w, t) end }\n";

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char path[4096];
  snprintf(path, sizeof path, "%s/outputs.safetensors", dir);
  st_file f = {0};
  if (!st_open(&f, path)) return fprintf(stderr, "cannot read %s\n", path), 1;
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  ltensor_open(L);
  lua_getglobal(L, "package"); /* model.lua next to this file */
  lua_pushstring(L, LTENSOR_MODEL_DIR "/?.lua");
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  int ok = luaL_loadstring(L, script) == LUA_OK;
  lua_pushstring(L, dir);
  if (!ok || lua_pcall(L, 1, 1, 0) != LUA_OK) {
    fprintf(stderr, "model.lua: %s\n", lua_tostring(L, -1));
    return 1;
  }
  int pass = run(L, &f, "cnn", "cnn.input", (DLDataType){kDLFloat, 32, 1}, "cnn.fc");
  pass &= run(L, &f, "block", "block.tokens", (DLDataType){kDLInt, 64, 1}, "block.logits");
  lua_close(L);
  free((void *)f.header);
  free(f.bytes);
  printf("%s\n", pass ? "the host's outputs match torch's" : "MISMATCH");
  return pass ? 0 : 1;
}
