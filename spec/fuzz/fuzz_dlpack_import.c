/*
 * fuzz_dlpack_import.c -- libFuzzer target: lt_dlpack_import on arbitrary managed tensors.
 *
 * The input describes a DLManagedTensorVersioned (or, chosen by a byte, a legacy
 * DLManagedTensor): version, ndim (any int32), shape and strides (each NULL or an array of the
 * input's values, allocated to exactly min(ndim, 72) entries so that reading past them is a
 * heap overflow), dtype, device, flags, byte_offset, and a data pointer: NULL, a harness-owned
 * buffer (exactly as large as the input says, at an offset), a misaligned pointer into it, or a
 * wild address that must never be dereferenced. The import runs with a counting deleter; on
 * success the tensor goes through views, element reads, copies, fills, exports and re-imports,
 * and is freed. Elements are read (and written) only where this harness has computed that they
 * lie inside its buffer; otherwise only operations that touch no element run.
 *
 * Checked on every input (abort() on failure):
 * - the deleter ran exactly once (zero times for a NULL deleter), with its own managed tensor;
 * - nothing touched the managed tensor, its shape and strides, or the data after the deleter
 *   ran (they are freed or poisoned there, so AddressSanitizer reports it);
 * - a READ_ONLY tensor's buffer is unchanged at the end;
 * - nothing leaks (libFuzzer's leak check).
 *
 * Input layout (bytes read in order; past the end every byte reads as 0):
 *   mode       bit0 versioned, bit1 shape NULL, bit2 strides NULL, bit3 deleter NULL,
 *              bits4-5 data: 0 buffer, 1 NULL, 2 buffer+1 (misaligned), 3 wild address
 *   version    byte v: v < 0xE0: 1.(v&7); else major = u32, minor = u32
 *   ndim       byte b: b < 0xF0: b % 7; b < 0xF8: 60 + b % 8; else i32
 *   per dim    shape byte s (< 0xF0: s % 6; else i64), stride byte t (< 0xF0: t % 9 - 4,
 *              where -4 means "row-major"; else i64)
 *   dtype      byte: < 0xF0: an entry of DTYPES; else code u8, bits u8, lanes u16
 *   device     byte: < 0xF0: an entry of DEVICES, id byte; else type i32, id i32
 *   flags      byte: < 0xF8: its low 3 bits; else u64
 *   offset     byte: < 0xF0: b % 40; else u64
 *   buffer     size u16 % 4096, offset byte (clamped to the size)
 *   ops        the rest: which views, reads, writes and exports to run (see exercise())
 */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "lt_copy.h"
#include "lt_dlpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NDIM_CAP 72

static const DLDataType DTYPES[] = {
    {kDLBool, 8, 1},          {kDLUInt, 8, 1},      {kDLInt, 8, 1},       {kDLInt, 16, 1},
    {kDLInt, 32, 1},          {kDLInt, 64, 1},      {kDLUInt, 16, 1},     {kDLUInt, 32, 1},
    {kDLUInt, 64, 1},         {kDLFloat, 16, 1},    {kDLBfloat, 16, 1},   {kDLFloat, 32, 1},
    {kDLFloat, 64, 1},        {kDLComplex, 64, 1},  {kDLComplex, 128, 1}, {kDLFloat, 32, 4},
    {7, 8, 1} /* fp8 */,      {17, 4, 1} /* fp4 */, {15, 6, 1} /* fp6 */, {16, 6, 2},
    {kDLOpaqueHandle, 64, 1}, {kDLInt, 4, 1},       {kDLInt, 1, 1},       {kDLBool, 1, 1},
    {kDLFloat, 8, 1},         {kDLInt, 0, 1},       {kDLInt, 8, 0},       {18, 8, 1},
    {kDLComplex, 32, 1},      {kDLUInt, 8, 3},
};
#define NDTYPES_IN (sizeof DTYPES / sizeof DTYPES[0])

static const int DEVICES[] = {
    kDLCPU, kDLCPU, kDLCPU, kDLCUDA, kDLCUDAHost, kDLROCMHost, kDLOpenCL,      5,
    6,      7,      0,      18,      19,          kDLROCM,     kDLCUDAManaged, -1};
#define NDEVICES_IN (sizeof DEVICES / sizeof DEVICES[0])

/* {====== the managed tensor and its deleter ====== */

static struct {
  void *managed; /* what the deleter must be called with */
  int64_t *shape, *strides;
  unsigned char *buf; /* the data buffer (poisoned by the deleter, freed at the end) */
  size_t bufsize;
  int deleted;
} g;

static void fail(const char *what) {
  fprintf(stderr, "fuzz_dlpack_import: %s\n", what);
  abort();
}

static void on_delete(void *self, void *ctx) {
  if (self != g.managed || ctx != &g) fail("deleter called with a foreign managed tensor");
  if (g.deleted++) fail("deleter called twice");
  free(g.shape);
  free(g.strides);
  free(self);
  g.shape = g.strides = NULL;
  if (g.buf) ASAN_POISON_MEMORY_REGION(g.buf, g.bufsize);
}

static void del_versioned(DLManagedTensorVersioned *self) { on_delete(self, self->manager_ctx); }
static void del_legacy(DLManagedTensor *self) { on_delete(self, self->manager_ctx); }

/* }====== */

/* {====== what may be read ====== */

/* Whether every element of t lies inside the harness's buffer (trivially so when t is empty),
   and there are few enough of them to read or copy (an expanded view can have 2^62, all at one
   address). */
#define READ_MAX (1 << 16)
static int covered(const lt_tensor *t) {
  if (lt_numel(t) == 0) return 1;
  if (lt_numel(t) > READ_MAX) return 0;
  if (!g.buf || t->storage->revoked) return 0;
  const __int128 limit = (__int128)1 << 100;
  __int128 lo = 0, hi = 0;
  for (int i = 0; i < t->ndim; i++) {
    __int128 span = (__int128)(t->shape[i] - 1) * t->strides[i];
    if (span < 0)
      lo += span;
    else
      hi += span;
    if (lo < -limit || hi > limit) return 0;
  }
  __int128 es = (__int128)lt_esize(t);
  __int128 base = (__int128)(uintptr_t)t->storage->data + (__int128)t->offset * es;
  __int128 first = base + lo * es, end = base + (hi + 1) * es;
  return first >= (__int128)(uintptr_t)g.buf && end <= (__int128)(uintptr_t)g.buf + g.bufsize;
}

static volatile double g_sink;

/* Reads every element of t, in index order. */
static void read_all(const lt_tensor *t) {
  int64_t idx[LT_MAX_NDIM] = {0};
  int64_t n = lt_numel(t);
  size_t es = lt_esize(t);
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int d = 0; d < t->ndim; d++) off += idx[d] * t->strides[d];
    lt_scalar s;
    lt_load(t->dtype, lt_data(t) + off * (int64_t)es, &s);
    g_sink += s.kind == LT_SK_FLOAT || s.kind == LT_SK_COMPLEX ? s.v.f : (double)s.v.i;
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (++idx[d] < t->shape[d]) break;
      idx[d] = 0;
    }
  }
}

/* }====== */

/* {====== exercising an imported tensor ====== */

/* A dim argument: mostly in range, sometimes one past either end or far out. */
static int pick_dim(fz_in *in, int ndim) {
  uint8_t b = fz_u8(in);
  if (b >= 0xF8) return fz_i32(in);
  return (int)(b % (unsigned)(ndim + 3)) - 1;
}

static int64_t pick_i64(fz_in *in) {
  uint8_t b = fz_u8(in);
  if (b >= 0xF0) return fz_i64(in);
  return (int64_t)(b % 11) - 3;
}

static void exercise(lt_tensor *t, fz_in *in, int depth);

/*
 * Was a bug (fixed in lt_copy.c, kept as a hook): lt_fill wrote complex64 through uint64_t*,
 * a misaligned store for 4-byte aligned data; regress-c64-fill-misaligned reproduces it.
 */
static int known_fill_bug(const lt_tensor *t) {
  (void)t;
  return 0;
}

/* Looks at a view: its elements when they may be read, and a little more for the first
   levels. */
static void visit(lt_tensor *v, fz_in *in, int depth) {
  if (lt_readable(v) && covered(v)) read_all(v);
  if (depth < 2 && (fz_u8(in) & 1)) exercise(v, in, depth + 1);
  lt_tensor_free(v);
}

static void exercise(lt_tensor *t, fz_in *in, int depth) {
  lt_error err;
  int safe = covered(t), readable = lt_readable(t);
  /* copying (clone, reshape or flatten that must copy, export with copy) reads elements */
  int may_copy = safe || !readable;
  if (readable && safe) read_all(t);
  int nops = fz_u8(in) % 8;
  for (int k = 0; k < nops && fz_more(in); k++) {
    lt_tensor *v = NULL;
    int rc = -1;
    switch (fz_u8(in) % 13) {
      case 0: {
        int d0 = pick_dim(in, t->ndim), d1 = pick_dim(in, t->ndim);
        rc = lt_transpose(t, d0, d1, &v, &err);
        break;
      }
      case 1: {
        int d = pick_dim(in, t->ndim);
        rc = lt_select(t, d, pick_i64(in), &v, &err);
        break;
      }
      case 2: {
        int d = pick_dim(in, t->ndim);
        int64_t start = pick_i64(in);
        rc = lt_narrow(t, d, start, pick_i64(in), &v, &err);
        break;
      }
      case 3: {
        int d = pick_dim(in, t->ndim);
        int64_t start = pick_i64(in), count = pick_i64(in);
        rc = lt_slice(t, d, start, count, pick_i64(in), &v, &err);
        break;
      }
      case 4: rc = lt_unsqueeze(t, pick_dim(in, t->ndim), &v, &err); break;
      case 5: rc = lt_squeeze(t, pick_dim(in, t->ndim), &v, &err); break;
      case 6: {
        int perm[LT_MAX_NDIM];
        uint8_t how = fz_u8(in);
        for (int i = 0; i < t->ndim; i++)
          perm[i] = how & 1   ? t->ndim - 1 - i
                    : how & 2 ? (i + how / 4) % t->ndim
                              : pick_dim(in, t->ndim);
        rc = lt_permute(t, perm, &v, &err);
        break;
      }
      case 7:
      case 8: { /* view or reshape: a few sizes, one of them maybe -1 */
        int64_t shape[LT_MAX_NDIM];
        int n = fz_u8(in) % 5;
        for (int i = 0; i < n; i++) shape[i] = fz_u8(in) & 0x80 ? -1 : pick_i64(in);
        if (fz_u8(in) & 1) {
          n = 1;
          shape[0] = -1;
        }
        if (k % 2 == 0 || !may_copy)
          rc = lt_view(t, n, shape, &v, &err);
        else
          rc = lt_reshape(t, n, shape, &v, NULL, &err);
        break;
      }
      case 9:
        if (may_copy) {
          int s = pick_dim(in, t->ndim);
          rc = lt_flatten(t, s, pick_dim(in, t->ndim), &v, &err);
        }
        break;
      case 10: { /* expand: -1 keeps a dim, new leading dims broadcast */
        int64_t sizes[LT_MAX_NDIM];
        int n = t->ndim + fz_u8(in) % 3;
        if (n > LT_MAX_NDIM) n = LT_MAX_NDIM;
        for (int i = 0; i < n; i++) sizes[i] = fz_u8(in) & 1 ? -1 : pick_i64(in);
        rc = lt_expand(t, n, sizes, &v, &err);
        break;
      }
      case 11: { /* export, then delete it or import it again */
        uint8_t how = fz_u8(in);
        int versioned = how & 1, copy = (how & 2) && may_copy, ro = (how & 4) != 0;
        void *m = NULL;
        if (lt_dlpack_export(t, versioned, copy, ro, &m, &err) == LT_OK) {
          if (how & 8) {
            lt_dlpack_delete(m, versioned);
          } else {
            lt_tensor *back = NULL;
            if (lt_dlpack_import(m, versioned, &back, &err) == LT_OK) visit(back, in, depth);
          }
        }
        break;
      }
      case 12: { /* clone (reads) or fill (writes) */
        if (!safe) break;
        if (fz_u8(in) & 1) {
          rc = lt_clone(t, &v, &err);
        } else if (lt_check_writable(t, NULL) == LT_OK && !known_fill_bug(t)) {
          lt_scalar s = {LT_SK_FLOAT, {.f = (double)pick_i64(in)}, 0};
          (void)lt_fill(t, &s, &err);
        }
        break;
      }
    }
    if (rc == LT_OK && v) visit(v, in, depth);
  }
}

/* }====== */

/* What an input describes (the layout above), before the managed tensor is made of it. */
typedef struct {
  int versioned, has_deleter, which, room;
  uint8_t mode;
  uint32_t major, minor;
  int32_t ndim;
  int64_t *shape, *strides; /* exactly `room` entries each */
  DLDataType dtype;
  DLDevice device;
  uint64_t flags, byte_offset;
  size_t bufsize, bufoff;
} desc;

/* mode, version, ndim and the dims. */
static void read_dims(fz_in *in, desc *d) {
  d->mode = fz_u8(in);
  d->versioned = d->mode & 1;
  d->has_deleter = !(d->mode & 8);
  d->which = (d->mode >> 4) & 3;
  d->major = 1;
  uint8_t vb = fz_u8(in);
  if (vb < 0xE0) {
    d->minor = vb & 7;
  } else {
    d->major = fz_u32(in);
    d->minor = fz_u32(in);
  }
  uint8_t nb = fz_u8(in);
  if (nb < 0xF0)
    d->ndim = nb % 7;
  else if (nb < 0xF8)
    d->ndim = 60 + nb % 8;
  else
    d->ndim = fz_i32(in);
  d->room = d->ndim < 0 ? 0 : d->ndim > NDIM_CAP ? NDIM_CAP : d->ndim;
  /* exactly `room` entries (at least one byte, so that malloc(0) is not NULL) */
  d->shape = malloc(d->room ? (size_t)d->room * sizeof(int64_t) : 1);
  d->strides = malloc(d->room ? (size_t)d->room * sizeof(int64_t) : 1);
  int64_t rowmajor = 1;
  for (int i = d->room - 1; i >= 0; i--) { /* read in order, strides filled below */
    uint8_t sb = fz_u8(in);
    d->shape[i] = sb < 0xF0 ? sb % 6 : fz_i64(in);
    uint8_t tb = fz_u8(in);
    d->strides[i] = tb < 0xF0 ? (int64_t)(tb % 9) - 4 : fz_i64(in);
    if (d->strides[i] == -4) d->strides[i] = rowmajor;
    if (d->shape[i] > 1 && __builtin_mul_overflow(rowmajor, d->shape[i], &rowmajor))
      rowmajor = INT64_MAX;
  }
}

/* dtype, device, flags, byte_offset and the buffer's size and offset. */
static void read_rest(fz_in *in, desc *d) {
  uint8_t db = fz_u8(in);
  if (db < 0xF0) {
    d->dtype = DTYPES[db % NDTYPES_IN];
  } else {
    d->dtype.code = fz_u8(in);
    d->dtype.bits = fz_u8(in);
    d->dtype.lanes = fz_u16(in);
  }
  uint8_t devb = fz_u8(in);
  if (devb < 0xF0) {
    d->device.device_type = (DLDeviceType)DEVICES[devb % NDEVICES_IN];
    d->device.device_id = fz_u8(in) % 3;
  } else {
    d->device.device_type = (DLDeviceType)fz_i32(in);
    d->device.device_id = fz_i32(in);
  }
  uint8_t fb = fz_u8(in);
  d->flags = fb < 0xF8 ? fb & 7u : fz_u64(in);
  uint8_t ob = fz_u8(in);
  d->byte_offset = ob < 0xF0 ? ob % 40u : fz_u64(in);
  d->bufsize = fz_u16(in) % 4096;
  d->bufoff = fz_u8(in);
  if (d->bufoff > d->bufsize) d->bufoff = d->bufsize;
}

/* The data pointer: into g.buf, which holds input bytes (a pattern when the input runs out),
   NULL, misaligned, or a wild address. */
static void *make_data(fz_in *in, const desc *d) {
  void *ptr = NULL;
  if (d->which != 1 && d->which != 3) {
    g.buf = malloc(d->bufsize ? d->bufsize : 1);
    g.bufsize = d->bufsize;
    for (size_t i = 0; i < d->bufsize; i++)
      g.buf[i] = in->i + i < in->n ? in->p[in->i + i] : (unsigned char)(i * 37u);
    ptr = g.buf + d->bufoff + (d->which == 2);
    if (d->which == 2 && d->bufoff == d->bufsize) ptr = g.buf + d->bufoff; /* stay inside */
  } else if (d->which == 3) {
    ptr = (void *)(uintptr_t)(0x10000u + 64u * fz_u8(in));
  }
  return ptr;
}

/* The managed tensor (versioned or legacy) of d with data ptr, recorded in g. */
static void *make_managed(const desc *d, void *ptr) {
  DLTensor dl = {ptr,
                 d->device,
                 d->ndim,
                 d->dtype,
                 (d->mode & 2) ? NULL : d->shape,
                 (d->mode & 4) ? NULL : d->strides,
                 d->byte_offset};
  void *managed;
  if (d->versioned) {
    DLManagedTensorVersioned *m = malloc(sizeof *m);
    m->version.major = d->major;
    m->version.minor = d->minor;
    m->manager_ctx = &g;
    m->deleter = d->has_deleter ? del_versioned : NULL;
    m->flags = d->flags;
    m->dl_tensor = dl;
    managed = m;
  } else {
    DLManagedTensor *m = malloc(sizeof *m);
    m->manager_ctx = &g;
    m->deleter = d->has_deleter ? del_legacy : NULL;
    m->dl_tensor = dl;
    managed = m;
  }
  g.managed = managed;
  g.shape = d->shape;
  g.strides = d->strides;
  return managed;
}

/* What this input describes, for reading a crash (LT_FUZZ_VERBOSE set). */
static void describe(const desc *d) {
  fprintf(stderr, "%s %u.%u ndim %d shape%s strides%s:", d->versioned ? "versioned" : "legacy",
          (unsigned)d->major, (unsigned)d->minor, (int)d->ndim, (d->mode & 2) ? " NULL" : "",
          (d->mode & 4) ? " NULL" : "");
  for (int i = 0; i < d->room && i < 8; i++)
    fprintf(stderr, " %lld/%lld", (long long)d->shape[i], (long long)d->strides[i]);
  fprintf(stderr,
          "\n  dtype (%d, %d, %d) device (%d, %d) flags %llu byte_offset %llu data %s "
          "(buffer %zu bytes, at %zu) deleter %s\n",
          d->dtype.code, d->dtype.bits, d->dtype.lanes, (int)d->device.device_type,
          (int)d->device.device_id, (unsigned long long)d->flags,
          (unsigned long long)d->byte_offset,
          d->which == 0   ? "buffer"
          : d->which == 1 ? "NULL"
          : d->which == 2 ? "misaligned"
                          : "wild",
          d->bufsize, d->bufoff, d->has_deleter ? "yes" : "NULL");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size, 0};
  memset(&g, 0, sizeof g);
  desc d;
  read_dims(&in, &d);
  read_rest(&in, &d);
  void *managed = make_managed(&d, make_data(&in, &d));
  unsigned char *snapshot = NULL;
  if (g.buf) {
    snapshot = malloc(d.bufsize ? d.bufsize : 1);
    memcpy(snapshot, g.buf, d.bufsize);
  }
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("LT_FUZZ_VERBOSE") != NULL;
  if (verbose) describe(&d);

  lt_tensor *t = NULL;
  lt_error err;
  int rc = lt_dlpack_import(managed, d.versioned, &t, &err);
  if (verbose) fprintf(stderr, "  import: %s\n", rc ? err.msg : "ok");
  if (rc == LT_OK) {
    if (!t) fail("import succeeded without a tensor");
    /* what the tensor says must be what was described */
    if (t->ndim != d.ndim) fail("ndim changed");
    exercise(t, &in, 0);
    if (fz_u8(&in) == 0x5A) lt_storage_revoke(t->storage);
    lt_tensor_free(t);
  } else if (rc == LT_ENOMEM) {
    fail("import ran out of memory on a tiny input");
  }

  if (g.deleted != d.has_deleter)
    fail(d.has_deleter ? "deleter did not run exactly once" : "a NULL deleter was called");
  if (!d.has_deleter) { /* nobody else frees them */
    free(g.shape);
    free(g.strides);
    free(managed);
  }
  if (g.buf) {
    ASAN_UNPOISON_MEMORY_REGION(g.buf, g.bufsize);
    if (d.versioned && (d.flags & DLPACK_FLAG_BITMASK_READ_ONLY) &&
        memcmp(snapshot, g.buf, d.bufsize) != 0)
      fail("a READ_ONLY tensor's memory was written");
    free(g.buf);
    free(snapshot);
  }
  return 0;
}
