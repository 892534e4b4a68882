/*
 * host.c -- a small "game host" that embeds Lua 5.4 and lends its own buffers to a script.
 *
 * The host owns a 48 x 64 RGBA8 frame buffer per frame and a float32 vertex array. For each
 * frame it pushes the frame buffer (ltensor_push_borrowed, with a lease) and the vertex array
 * (read-only), calls draw(frame, verts, n) from frame.lua, which draws into the host's memory in
 * place, and then revokes both leases: the frame is the host's again, and anything the script
 * kept raises "tensor has been released" from then on. The last frame is written as a binary
 * PPM (P6).
 *
 * Lua needs no ltensor files on disk: ltensor is linked statically and ltensor_open() preloads
 * its modules. The script is frame.lua next to this file (LTENSOR_HOST_SCRIPT).
 *
 * What is checked (the exit status is nonzero on any mismatch): pixels of the host's own
 * buffer have the colours drawn; the script's write to the vertex array raised "read-only" and
 * changed nothing; the script's stale references raised "tensor has been released"; each
 * buffer's release callback ran exactly once, at revoke time; the PPM file has the right
 * header and size.
 *
 * Usage: host_example [output.ppm]   (default frame.ppm)
 */
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ltensor.h"

#ifndef LTENSOR_HOST_SCRIPT
#define LTENSOR_HOST_SCRIPT "frame.lua"
#endif

enum { WIDTH = 64, HEIGHT = 48, NFRAMES = 3, NTRI = 2, NVERTS = 3 * NTRI };

/* {====== the host's memory ====== */

/* One frame buffer per frame (a real host would recycle two or three once their release
   callbacks have run), and the vertex array, rewritten before each frame. */
static uint8_t frames[NFRAMES][HEIGHT][WIDTH][4];
static float verts[NVERTS][2];

/* Release callbacks: how many times each buffer was given back. */
static int frame_released[NFRAMES];
static int verts_released[NFRAMES]; /* per lending of the vertex array */

static void release_count(void *ctx) { (*(int *)ctx)++; }

/* The triangles of frame n (from 1): two triangles sliding right 2 pixels a frame. */
static void set_vertices(int n) {
  static const float base[NVERTS][2] = {{10, 12}, {30, 12}, {20, 26},  /* green */
                                        {40, 10}, {58, 18}, {44, 26}}; /* orange */
  for (int i = 0; i < NVERTS; i++) {
    verts[i][0] = base[i][0] + 2.0f * (float)(n - 1);
    verts[i][1] = base[i][1];
  }
}

/* }====== */

/* {====== checks ====== */

static int n_failed;

#define CHECK(cond, ...)                                         \
  do {                                                           \
    if (!(cond)) {                                               \
      n_failed++;                                                \
      fprintf(stderr, "host.c:%d: FAIL: %s: ", __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                              \
      fputc('\n', stderr);                                       \
    }                                                            \
  } while (0)

/* Pixel (x, y) of frame f is (r, g, b, a). */
static void check_pixel(int f, int x, int y, int r, int g, int b, int a, const char *what) {
  const uint8_t *p = frames[f][y][x];
  CHECK(p[0] == r && p[1] == g && p[2] == b && p[3] == a,
        "frame %d, %s at (%d, %d): got (%d, %d, %d, %d), want (%d, %d, %d, %d)", f + 1, what, x, y,
        p[0], p[1], p[2], p[3], r, g, b, a);
}

/* What frame.lua draws into frame n (from 1), at a few places. */
static void check_frame(int n) {
  int f = n - 1;
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      if (frames[f][y][x][3] != 255) {
        CHECK(0, "frame %d: pixel (%d, %d) is not opaque", n, x, y);
        return;
      }
  /* the sky: rows 0..7, red 4x, blue 252 - 4x */
  for (int x = 0; x < WIDTH; x += 9) check_pixel(f, x, 3, 4 * x, 0, 252 - 4 * x, 255, "sky");
  check_pixel(f, 63, 7, 252, 0, 0, 255, "sky");
  check_pixel(f, 0, 8, 16, 24, 48, 255, "background");
  check_pixel(f, 2, 43, 16, 24, 48, 255, "background");
  check_pixel(f, 2, 44, 0, 0, 0, 255, "status bar");
  check_pixel(f, 63, 47, 0, 0, 0, 255, "status bar");
  /* the player: columns 3 + 8(n-1) .. +9, rows 29..36 */
  int x0 = 3 + 8 * (n - 1);
  check_pixel(f, x0, 29, 200, 40, 40, 255, "player");
  check_pixel(f, x0 + 9, 36, 200, 40, 40, 255, "player");
  check_pixel(f, x0 - 1, 33, 16, 24, 48, 255, "left of the player");
  check_pixel(f, x0 + 10, 33, 16, 24, 48, 255, "right of the player");
  check_pixel(f, x0 + 4, 28, 16, 24, 48, 255, "above the player");
  /* the triangles: filled at their centroids, with a point at each corner */
  static const int colors[NTRI][3] = {{40, 200, 80}, {240, 160, 32}};
  for (int k = 0; k < NTRI; k++) {
    float cx = (verts[3 * k][0] + verts[3 * k + 1][0] + verts[3 * k + 2][0]) / 3;
    float cy = (verts[3 * k][1] + verts[3 * k + 1][1] + verts[3 * k + 2][1]) / 3;
    check_pixel(f, (int)lroundf(cx), (int)lroundf(cy), colors[k][0], colors[k][1], colors[k][2],
                255, "triangle");
  }
  for (int i = 0; i < NVERTS; i++) {
    int x = (int)lroundf(verts[i][0]), y = (int)lroundf(verts[i][1]);
    if (x < WIDTH) check_pixel(f, x, y, 255, 255, 0, 255, "corner point");
  }
  check_pixel(f, 12, 25, 16, 24, 48, 255, "beside a triangle");
}

/* }====== */

/* {====== running the script ====== */

static int msgh(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

/* The string field `key` of the script's global table `report` (NULL if absent), into buf. */
static const char *report_string(lua_State *L, const char *key, char *buf, size_t size) {
  int top = lua_gettop(L);
  lua_getglobal(L, "report");
  const char *s =
      lua_istable(L, -1) && lua_getfield(L, -1, key) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  if (s) snprintf(buf, size, "%s", s);
  lua_settop(L, top);
  return s ? buf : NULL;
}

/* The integer field `key` of `report` (-1 if absent). */
static lua_Integer report_integer(lua_State *L, const char *key) {
  int top = lua_gettop(L);
  lua_getglobal(L, "report");
  lua_Integer v =
      lua_istable(L, -1) && lua_getfield(L, -1, key) == LUA_TNUMBER ? lua_tointeger(L, -1) : -1;
  lua_settop(L, top);
  return v;
}

/* Lends the buffers of frame n (from 1) to draw(frame, verts, n), then takes them back. */
static int run_frame(lua_State *L, int n) {
  int f = n - 1;
  set_vertices(n);
  int64_t frame_shape[3] = {HEIGHT, WIDTH, 4}, verts_shape[2] = {NVERTS, 2};
  DLTensor frame_desc = {.data = frames[f],
                         .device = {kDLCPU, 0},
                         .ndim = 3,
                         .dtype = {kDLUInt, 8, 1},
                         .shape = frame_shape};
  DLTensor verts_desc = {.data = verts,
                         .device = {kDLCPU, 0},
                         .ndim = 2,
                         .dtype = {kDLFloat, 32, 1},
                         .shape = verts_shape};
  ltensor_lease *frame_lease, *verts_lease;

  int base = lua_gettop(L);
  lua_pushcfunction(L, msgh);
  lua_getglobal(L, "draw");
  if (ltensor_push_borrowed(L, &frame_desc, 0, release_count, &frame_released[f], &frame_lease) !=
      LTENSOR_OK) {
    fprintf(stderr, "host: cannot lend the frame buffer: %s\n", lua_tostring(L, -1));
    lua_settop(L, base);
    return 0;
  }
  if (ltensor_push_borrowed(L, &verts_desc, LTENSOR_READ_ONLY, release_count, &verts_released[f],
                            &verts_lease) != LTENSOR_OK) {
    fprintf(stderr, "host: cannot lend the vertex array: %s\n", lua_tostring(L, -1));
    lua_settop(L, base);
    ltensor_revoke_lease(frame_lease);
    return 0;
  }
  lua_pushinteger(L, n);
  int rc = lua_pcall(L, 3, 0, base + 1);
  if (rc != LUA_OK) fprintf(stderr, "host: draw failed: %s\n", lua_tostring(L, -1));
  lua_settop(L, base);

  /* A lease keeps its buffer lent, whatever the script did with its tensors, until the host
     takes it back: then (no export of it being alive) the release callback runs at once. */
  CHECK(frame_released[f] == 0 && verts_released[f] == 0, "frame %d: released during draw", n);
  ltensor_revoke_lease(frame_lease);
  ltensor_revoke_lease(verts_lease);
  CHECK(frame_released[f] == 1, "frame %d: frame buffer released %d times at revoke", n,
        frame_released[f]);
  CHECK(verts_released[f] == 1, "frame %d: vertex array released %d times at revoke", n,
        verts_released[f]);
  return rc == LUA_OK;
}

/* }====== */

/* {====== the PPM ====== */

/* Frame f as a binary PPM (P6: RGB, alpha dropped); 1 on success. */
static int write_ppm(const char *path, int f) {
  FILE *out = fopen(path, "wb");
  if (!out) return 0;
  int ok = fprintf(out, "P6\n%d %d\n255\n", WIDTH, HEIGHT) > 0;
  for (int y = 0; y < HEIGHT && ok; y++)
    for (int x = 0; x < WIDTH && ok; x++) ok = fwrite(frames[f][y][x], 1, 3, out) == 3;
  return fclose(out) == 0 && ok;
}

/* The file at path is a WIDTH x HEIGHT P6 image of the right size, with frame f's pixels. */
static void check_ppm(const char *path, int f) {
  FILE *in = fopen(path, "rb");
  CHECK(in != NULL, "cannot open %s", path);
  if (!in) return;
  int w = 0, h = 0, maxval = 0;
  char magic[3] = "";
  int fields = fscanf(in, "%2s %d %d %d", magic, &w, &h, &maxval);
  int sep = fgetc(in); /* exactly one whitespace byte before the pixels */
  long header = ftell(in);
  fseek(in, 0, SEEK_END);
  long size = ftell(in);
  CHECK(fields == 4 && strcmp(magic, "P6") == 0 && w == WIDTH && h == HEIGHT && maxval == 255 &&
            sep == '\n',
        "%s: bad header", path);
  CHECK(size == header + 3L * WIDTH * HEIGHT, "%s: %ld bytes, want %ld", path, size,
        header + 3L * WIDTH * HEIGHT);
  uint8_t px[3] = {0};
  fseek(in, header + 3L * (33 * WIDTH + 3 + 8 * f + 4), SEEK_SET); /* inside the player */
  CHECK(fread(px, 1, 3, in) == 3 && px[0] == 200 && px[1] == 40 && px[2] == 40,
        "%s: the player's pixel is (%d, %d, %d)", path, px[0], px[1], px[2]);
  fclose(in);
}

/* }====== */

int main(int argc, char **argv) {
  const char *ppm = argc > 1 ? argv[1] : "frame.ppm";
  lua_State *L = luaL_newstate();
  if (!L) return 1;
  luaL_openlibs(L);
  /* ltensor_open preloads ltensor: the script's require finds it without any .lua file */
  if (ltensor_open(L) != LTENSOR_OK || luaL_dofile(L, LTENSOR_HOST_SCRIPT) != LUA_OK) {
    fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  lua_settop(L, 0);

  char buf[256];
  for (int n = 1; n <= NFRAMES; n++) {
    if (!run_frame(L, n)) {
      n_failed++;
      break;
    }
    check_frame(n);
    /* the vertex array was lent read-only: the script's write raised and changed nothing */
    const char *ro = report_string(L, "readonly_error", buf, sizeof buf);
    CHECK(ro && strstr(ro, "read-only"), "frame %d: the write to verts gave: %s", n,
          ro ? ro : "(nothing)");
    CHECK(verts[0][0] == 10.0f + 2.0f * (float)(n - 1), "frame %d: verts changed", n);
    /* from frame 2 on, the script touched the previous frame's tensors: they were released */
    CHECK(report_integer(L, "stale_checks") == n - 1, "frame %d: %lld stale checks", n,
          (long long)report_integer(L, "stale_checks"));
    if (n > 1) {
      const char *stale = report_string(L, "stale_error", buf, sizeof buf);
      CHECK(stale && strstr(stale, "tensor has been released"), "frame %d: stale access gave: %s",
            n, stale ? stale : "(nothing)");
    }
    /* and from C: the script's last_frame is no longer a live tensor */
    lua_getglobal(L, "last_frame");
    CHECK(!ltensor_is_tensor(L, -1), "frame %d: last_frame is still live", n);
    lua_pop(L, 1);
  }

  CHECK(write_ppm(ppm, NFRAMES - 1), "cannot write %s", ppm);
  check_ppm(ppm, NFRAMES - 1);

  lua_close(L); /* collects the script's stale tensors: no release may run a second time */
  for (int f = 0; f < NFRAMES; f++)
    CHECK(frame_released[f] == 1 && verts_released[f] == 1,
          "buffers of frame %d released %d and %d times", f + 1, frame_released[f],
          verts_released[f]);

  if (n_failed) {
    fprintf(stderr, "host: %d checks failed\n", n_failed);
    return 1;
  }
  printf("host: %d frames drawn by the script into the host's buffers; wrote %s\n", NFRAMES, ppm);
  return 0;
}
