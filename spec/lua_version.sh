#!/usr/bin/env bash
# Lua 5.4 only: configuring against other Lua headers stops with a message that says why, and
# compiling the binding against them (a build without CMake) stops at ltensor's #error.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lua51"
# A Lua 5.1 lua.h as far as the checks read it (LuaJIT's says 501 too).
printf '#ifndef lua_h\n#define lua_h\n#define LUA_VERSION_NUM 501\ntypedef struct lua_State lua_State;\n#endif\n' \
  >"$tmp/lua51/lua.h"
printf '#include "lua.h"\n' >"$tmp/lua51/lauxlib.h"
if cmake -S "$src" -B "$tmp/b" -DLUA_INCLUDE_DIR="$tmp/lua51" -DLTENSOR_BUILD_TESTS=OFF \
  -DLTENSOR_BUILD_BENCH=OFF >"$tmp/cmake.log" 2>&1; then
  echo "Lua 5.1 headers were accepted by CMake"; exit 1
fi
grep -q "ltensor supports Lua 5.4 only" "$tmp/cmake.log" || { cat "$tmp/cmake.log"; exit 1; }
echo "CMake refuses Lua 5.1 headers"
if cc -std=c11 -fsyntax-only -I"$tmp/lua51" -I"$src/src/core/base" -I"$src/src/core/simd" \
  -I"$src/src/core/ops" -I"$src/src/core/io" -I"$src/src" \
  "$src/src/binding/lua_ud.c" >"$tmp/cc.log" 2>&1; then
  echo "the binding compiled against Lua 5.1 headers"; exit 1
fi
grep -q "ltensor needs the Lua 5.4 headers" "$tmp/cc.log" || { cat "$tmp/cc.log"; exit 1; }
echo "the binding refuses Lua 5.1 headers (#error)"
