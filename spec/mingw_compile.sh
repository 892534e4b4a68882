#!/usr/bin/env bash
# Windows, where most game developers build: every C source of the library compiles with
# mingw-w64 (Debian's x86_64-w64-mingw32-gcc), compile-only against Lua 5.4's headers, with the
# warnings of the native build as errors. The operating-system calls live in src/core/base/lt_os.c.
# usage: mingw_compile.sh CC SOURCE_DIR LUA_INCLUDE_DIR BUILD_DIR
set -euo pipefail
cc=$1 src=$2 luainc=$3 build=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Lua's headers alone (not the rest of /usr/include, which is glibc's)
mkdir "$tmp/lua"
cp "$luainc"/lua.h "$luainc"/luaconf.h "$luainc"/lualib.h "$luainc"/lauxlib.h "$tmp/lua/"
flags=(-std=c11 -O0 -Wall -Wextra -Wpedantic -Werror -D__USE_MINGW_ANSI_STDIO=1
       -DLTENSOR_HAVE_BLAS=1 -I"$src/src/core/base" -I"$src/src/core/simd" -I"$src/src/core/ops"
       -I"$src/src/core/io" -I"$src/src" -I"$src/src/binding" -I"$tmp/lua")
n=0 failed=0
for f in "$src"/src/core/*/*.c "$src"/src/binding/*.c "$build"/lt_luasrc.c; do
  extra=()
  case $f in */binding/*|*/lt_luasrc.c) extra=(-DLTENSOR_BUILD_DLL) ;; esac
  n=$((n + 1))
  if ! "$cc" "${flags[@]}" "${extra[@]}" -c "$f" -o "$tmp/o.o" 2>"$tmp/err"; then
    failed=$((failed + 1))
    echo "== $f"; head -20 "$tmp/err"
  fi
done
echo "mingw-w64: $((n - failed)) of $n sources compile"
[ "$failed" = 0 ]
