#!/usr/bin/env bash
# CMake's LTENSOR_DLPACK_HEADER: an external dlpack.h >= 1.0 builds, an older one is refused.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A DLPack 0.8 header: configuring must stop with a message that says why.
printf '#ifndef DLPACK_DLPACK_H_\n#define DLPACK_DLPACK_H_\n#define DLPACK_MAJOR_VERSION 0\n#define DLPACK_MINOR_VERSION 8\n#endif\n' \
  >"$tmp/old.h"
if cmake -S "$src" -B "$tmp/old" -DLTENSOR_DLPACK_HEADER="$tmp/old.h" -DLTENSOR_BUILD_TESTS=OFF \
  -DLTENSOR_BUILD_BENCH=OFF >"$tmp/old.log" 2>&1; then
  echo "a DLPack 0.8 header was accepted"; exit 1
fi
grep -q "needs DLPack >= 1.0" "$tmp/old.log" || { cat "$tmp/old.log"; exit 1; }
echo "DLPack 0.8 header refused"

# A plain DLPack 1.3 header (ours without its ltensor-only blocks): the module builds with it.
sed -e '/^#ifdef LTENSOR_EXTERNAL_DLPACK/,/^#endif$/d' -e '/^\/\* Flags added after DLPack 1.0/,$d' \
  "$src/src/dlpack.h" >"$tmp/dlpack.h"
cmake -S "$src" -B "$tmp/new" -DLTENSOR_DLPACK_HEADER="$tmp/dlpack.h" -DLTENSOR_BUILD_TESTS=OFF \
  -DLTENSOR_BUILD_BENCH=OFF -DLTENSOR_WERROR=ON >"$tmp/new.log" 2>&1 || { cat "$tmp/new.log"; exit 1; }
grep -q "building against DLPack 1.3" "$tmp/new.log" || { cat "$tmp/new.log"; exit 1; }
cmake --build "$tmp/new" --target ltensor_module -j2 >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; exit 1; }
echo "external DLPack 1.3 header builds"

# A DLPack 0.6 header (Debian 12's libdlpack-dev) included before ltensor.h: the compiler stops
# at ltensor's #error, which says what to do, not at a struct-size assertion.
cat >"$tmp/dlpack06.h" <<'H'
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#include <stdint.h>
#define DLPACK_VERSION 60
#define DLPACK_ABI_VERSION 1
typedef enum { kDLCPU = 1 } DLDeviceType;
typedef struct { DLDeviceType device_type; int device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct { void *data; DLDevice device; int ndim; DLDataType dtype; int64_t *shape;
                 int64_t *strides; uint64_t byte_offset; } DLTensor;
#endif
H
printf '#include "dlpack06.h"\n#include "ltensor.h"\nint main(void) { return 0; }\n' >"$tmp/old_first.c"
lua_inc=$(pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
if cc -std=c11 -fsyntax-only -I"$tmp" -I"$src/src" $lua_inc "$tmp/old_first.c" >"$tmp/cc.log" 2>&1; then
  echo "ltensor.h compiled after a DLPack 0.6 dlpack.h"; exit 1
fi
grep -q "ltensor needs DLPack >= 1.0, but a dlpack.h older than 1.0" "$tmp/cc.log" ||
  { cat "$tmp/cc.log"; exit 1; }
echo "DLPack 0.6 header before ltensor.h refused by #error"
# ltensor.h first, then the old header (its include guard skips it): compiles.
printf '#include "ltensor.h"\n#include "dlpack06.h"\nint main(void) { return 0; }\n' >"$tmp/new_first.c"
cc -std=c11 -fsyntax-only -I"$tmp" -I"$src/src" $lua_inc "$tmp/new_first.c" ||
  { echo "ltensor.h first did not compile"; exit 1; }
echo "ltensor.h before a DLPack 0.6 header compiles"
