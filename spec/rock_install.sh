#!/usr/bin/env bash
# The rock installs offline from a copy of this checkout, and after `luarocks path` a plain
# lua5.4 finds ltensor from any folder.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
# the files a fresh clone would have (tracked, plus new ones not ignored)
mkdir "$tmp/checkout"
git ls-files --cached --others --exclude-standard -z | tar --null -T - -cf - |
  tar -xf - -C "$tmp/checkout"
cd "$tmp/checkout"
luarocks --lua-version=5.4 make --tree="$tmp/tree" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; exit 1; }
eval "$(luarocks --lua-version=5.4 --tree="$tmp/tree" path)"
cd /
out=$(lua5.4 -e 'local lt = require "ltensor"; io.write(tostring(lt.arange(3)))')
[ "$out" = "tensor([0, 1, 2])" ] || { echo "unexpected output: $out"; exit 1; }
echo "rock installed and loaded: $out"
# the rock builds its matrix products on the BLAS this machine has (OpenBLAS by pkg-config)
if pkg-config --exists openblas 2>/dev/null; then
  blas=$(lua5.4 -e 'io.write(tostring(require "ltensor".config().blas))')
  [ "$blas" = openblas ] || { echo "the rock does not use OpenBLAS: lt.config().blas = $blas"; exit 1; }
  echo "rock matrix products through: $blas"
fi
