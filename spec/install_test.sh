#!/usr/bin/env bash
# The installed host library: `cmake --install` into a temporary prefix, then out-of-tree hosts
# (spec/install/) built against it with CMake (find_package) and with pkg-config, and run; and,
# when the build has ltensor_python (Python's embedding library was found), a host of
# ltensor::python (spec/install_python/).
# usage: install_test.sh BUILD_DIR SOURCE_DIR [SANITIZE]
set -euo pipefail
build=$1 src=$2 sanitize=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
flags=()
[ -z "$sanitize" ] || flags=(-fsanitize="$sanitize" -fno-omit-frame-pointer)
run() { # command..., its output shown only when it fails
  "$@" >"$tmp/log" 2>&1 || { echo "failed: $*"; cat "$tmp/log"; exit 1; }
}
needed() { # binary: its NEEDED libltensor entry, if any
  readelf -d "$1" | grep -o 'libltensor[^]]*' || true
}

run cmake --install "$build" --prefix "$prefix"
for f in include/ltensor/ltensor.h include/ltensor/dlpack.h; do
  [ -f "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
for f in libltensor.a libltensor.so ltensor.pc ltensor-shared.pc ltensorConfig.cmake ltensorConfigVersion.cmake \
         core.so init.lua dlpack.lua; do
  [ -n "$(find "$prefix" -name "$f")" ] || { echo "not installed: $f"; exit 1; }
done
# the LuaLS definitions, where the README's .luarc.json example points
for f in ltensor.lua ltensor/tensor.lua ltensor/math.lua ltensor/index.lua ltensor/sort.lua \
         ltensor/random.lua ltensor/file.lua ltensor/dlpack.lua; do
  [ -f "$prefix/share/lua/5.4/ltensor/meta/$f" ] || { echo "not installed: share/lua/5.4/ltensor/meta/$f"; exit 1; }
done
echo "installed into $prefix"

# CMake: ltensor::ltensor (static) and ltensor::ltensor_shared
run cmake -S "$src/spec/install" -B "$tmp/host" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="${flags[*]}" -DCMAKE_EXE_LINKER_FLAGS="${flags[*]}"
run cmake --build "$tmp/host"
[ -z "$(needed "$tmp/host/host")" ] || { echo "host links libltensor.so"; exit 1; }
[ -n "$(needed "$tmp/host/host_shared")" ] || { echo "host_shared lacks libltensor.so"; exit 1; }
cd "$tmp" # nothing of ltensor in the working directory either
for h in host host_shared; do
  out=$("$tmp/host/$h") || { echo "cmake $h failed: $out"; exit 1; }
  [ "$out" = OK ] || { echo "cmake $h: $out"; exit 1; }
  echo "cmake $h: OK"
done

# pkg-config: ltensor links libltensor.a, so the README's recipes, cc host.c $(pkg-config
# --cflags --libs ltensor) with or without --static, give a host that runs without
# LD_LIBRARY_PATH; ltensor-shared links libltensor.so, found at run time through an rpath
pc=$(dirname "$(find "$prefix" -name ltensor.pc | head -n1)")
export PKG_CONFIG_PATH=$pc
libdir=$(pkg-config --variable=libdir ltensor-shared)
cflags=(-std=c11 -Wall -Wextra -Wpedantic -Werror ${flags[@]+"${flags[@]}"})
pc_host() { # name, pkg-config's arguments, more link flags: builds it, runs it with no LD_LIBRARY_PATH
  local name=$1 pcargs=$2 out
  shift 2
  run cc "${cflags[@]}" -o "$tmp/$name" "$src/spec/install/host.c" $(pkg-config $pcargs) "$@"
  out=$(env -u LD_LIBRARY_PATH "$tmp/$name") || { echo "pkg-config $pcargs: $out"; exit 1; }
  [ "$out" = OK ] || { echo "pkg-config $pcargs: $out"; exit 1; }
}
for static in "" --static; do
  pc_host "host_pc$static" "$static --cflags --libs ltensor"
  [ -z "$(needed "$tmp/host_pc$static")" ] || { echo "pkg-config $static ltensor links libltensor.so"; exit 1; }
  echo "pkg-config ${static:+$static }--libs ltensor: libltensor.a, runs without LD_LIBRARY_PATH: OK"
done
pc_host host_pc_shared "--cflags --libs ltensor-shared" -Wl,-rpath,"$libdir"
[ -n "$(needed "$tmp/host_pc_shared")" ] || { echo "pkg-config ltensor-shared does not link libltensor.so"; exit 1; }
echo "pkg-config --libs ltensor-shared with -Wl,-rpath: libltensor.so, runs: OK"

# CMake: ltensor::python, when the build made it
if [ -n "$(find "$build" -maxdepth 2 -name libltensor_python.a)" ]; then
  for f in include/ltensor/ltensor_python.h; do
    [ -f "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
  done
  for f in libltensor_python.a ltensorPythonTargets.cmake; do
    [ -n "$(find "$prefix" -name "$f")" ] || { echo "not installed: $f"; exit 1; }
  done
  run cmake -S "$src/spec/install_python" -B "$tmp/host_python" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="${flags[*]}" -DCMAKE_EXE_LINKER_FLAGS="${flags[*]}"
  run cmake --build "$tmp/host_python"
  # CPython keeps its own state alive at exit: the suite's suppressions (spec/lsan.supp)
  out=$(LSAN_OPTIONS="suppressions=$src/spec/lsan.supp:print_suppressions=0" \
    "$tmp/host_python/host_python") || { echo "cmake host_python failed: $out"; exit 1; }
  [ "$out" = OK ] || { echo "cmake host_python: $out"; exit 1; }
  echo "cmake host_python (ltensor::python): OK"
  # where pkg-config finds no python3-embed, find_package(ltensor) still works, without the target
  PKG_CONFIG_LIBDIR=/nonexistent run cmake -S "$src/spec/install" -B "$tmp/host_nopy" \
    -DCMAKE_PREFIX_PATH="$prefix"
  if PKG_CONFIG_LIBDIR=/nonexistent cmake -S "$src/spec/install_python" -B "$tmp/host_nopy2" \
    -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/log" 2>&1; then
    echo "ltensor::python defined without python3-embed"; exit 1
  fi
  grep -q "ltensor::python not found" "$tmp/log" || { cat "$tmp/log"; exit 1; }
  echo "cmake without python3-embed: ltensor found, no ltensor::python: OK"
fi
