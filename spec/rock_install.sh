#!/usr/bin/env bash
# The rock installs offline from a copy of this checkout, and after `luarocks path` a plain
# lua5.4 finds ltensor from any folder. Both rockspecs pass `luarocks lint` and agree with each
# other and with the version the sources carry; the rock builds the module alone (not the host
# libraries it would not install); the specs pass against the installed rock, run as the
# rockspec's test section runs them (`luarocks test` itself would fetch busted as a rock, which
# an offline machine cannot: Debian's busted runs the same task).
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
release=$(ls ltensor-[0-9]*.rockspec)
for r in "$release" ltensor-dev-1.rockspec; do
  luarocks --lua-version=5.4 lint "$r" || { echo "luarocks lint $r failed"; exit 1; }
done
# one release rockspec, whose version is the sources' (CMake's project, ltensor.h, lt._VERSION)
[ "$(echo "$release" | wc -w)" = 1 ] || { echo "more than one release rockspec: $release"; exit 1; }
ver=${release#ltensor-}; ver=${ver%-*.rockspec}
grep -q "^project(ltensor VERSION $ver " CMakeLists.txt || { echo "CMakeLists.txt is not $ver"; exit 1; }
grep -q "#define LTENSOR_VERSION \"$ver\"" src/ltensor.h || { echo "ltensor.h is not $ver"; exit 1; }
grep -q "lt._VERSION = \"ltensor $ver\"" lua/ltensor/init.lua || { echo "init.lua is not $ver"; exit 1; }
# the dev rockspec differs from the release one in its version and source only
diff <(grep -v '^version = \|^  tag = \|^  branch = ' "$release") \
  <(grep -v '^version = \|^  tag = \|^  branch = ' ltensor-dev-1.rockspec) ||
  { echo "ltensor-dev-1.rockspec and $release differ beyond version and source"; exit 1; }
echo "rockspecs: lint OK, release $ver, dev-1 the same build"
luarocks --lua-version=5.4 make --tree="$tmp/tree" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; exit 1; }
if grep -E "Built target (ltensor_static|ltensor_shared|ltensor_pylua)" "$tmp/make.log"; then
  echo "the rock builds libraries it does not install"; exit 1
fi
# the LuaLS definitions, where docs/GUIDE.md's .luarc.json example points (the tree's share/lua/5.4)
[ -f "$tmp/tree/share/lua/5.4/ltensor/meta/ltensor.lua" ] ||
  { echo "the rock does not install the LuaLS definitions (share/lua/5.4/ltensor/meta)"; exit 1; }
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

# the rockspec's test section: busted's task "rock" (.busted) against the installed rock
busted=$(command -v busted)
cd "$tmp/checkout"
LUA_PATH="$LUA_PATH;;" LUA_CPATH="$LUA_CPATH;;" lua5.4 "$busted" --run=rock -o TAP >"$tmp/test.log" 2>&1 ||
  { grep -v '^ok' "$tmp/test.log" | tail -40; echo "the specs fail against the installed rock"; exit 1; }
echo "specs against the installed rock: $(grep -c '^ok' "$tmp/test.log") passed"
