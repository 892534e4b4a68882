#!/usr/bin/env bash
# The newcomer's next step after `make run` (README): their own script, in a directory of their
# own, run against the built module through `eval "$(make -s env)"` and through `make shell`.
# usage: make_env.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" # nothing of ltensor here
cat >mine.lua <<'LUA'
local lt = require "ltensor"
print(lt.arange(3) * 2)
LUA
want='tensor([0, 2, 4])'

# eval "$(make -s env)": export lines and nothing else on stdout
unset LUA_PATH LUA_CPATH
exports=$(make -s -C "$src" env BUILD="$build")
echo "$exports" | grep -qv '^export LUA_C\{0,1\}PATH=' && { echo "make env printed more: $exports"; exit 1; }
out=$(eval "$exports" && lua5.4 mine.lua) || { echo "make env: $out"; exit 1; }
[ "$out" = "$want" ] || { echo "make env: got '$out', want '$want'"; exit 1; }
echo "eval \"\$(make -s env)\": OK"

# make shell: one line saying what it set, then the user's shell (started in the checkout, as
# make -C runs there) reading their commands
out=$(echo "lua5.4 $tmp/mine.lua" | SHELL=/bin/sh make -s -C "$src" shell BUILD="$build") ||
  { echo "make shell: $out"; exit 1; }
[ "$(echo "$out" | sed -n 1p)" = "ltensor: LUA_PATH and LUA_CPATH set for $build/lua/ltensor/core.so; exit to leave" ] ||
  { echo "make shell's first line: $out"; exit 1; }
[ "$(echo "$out" | sed -n 2p)" = "$want" ] || { echo "make shell: got '$out', want '$want'"; exit 1; }
[ "$(echo "$out" | wc -l)" = 2 ] || { echo "make shell printed more: $out"; exit 1; }
echo "make shell: OK"
