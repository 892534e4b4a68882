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
