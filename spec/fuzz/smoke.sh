#!/bin/bash
# The fuzzing smoke test (CTest: fuzz_smoke): configures and builds the libFuzzer targets
# of spec/fuzz in a build directory of their own, then runs each for a few seconds, all at
# once, on a copy of its seed corpus. The seeds include the input of every bug the fuzzers have
# found, so this is also their regression check. Fails on any crash, sanitizer report or leak.
#
#   smoke.sh CLANG SOURCE_DIR BUILD_DIR [SECONDS]     (SECONDS: 10 by default)
set -u
clang=$1 src=$2 build=$3 secs=${4:-10}
targets="fuzz_dlpack_import fuzz_index fuzz_bytes fuzz_npy_header fuzz_zip_dir fuzz_safetensors_header
  fuzz_png fuzz_jpeg"
jobs=$(nproc 2>/dev/null || echo 2)

log=$build/smoke.log
mkdir -p "$build"
if ! cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER="$clang" -DLTENSOR_FUZZ=ON \
     -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_TESTS=OFF -DLTENSOR_BUILD_BENCH=OFF >"$log" 2>&1 ||
   ! cmake --build "$build" -j "$jobs" --target $targets >>"$log" 2>&1; then
  tail -n 40 "$log"
  echo "fuzz smoke: configuring or building the fuzz targets failed (log: $log)"
  exit 1
fi

run=$build/smoke
rm -rf "$run"
pids=""
for t in $targets; do
  mkdir -p "$run/$t"
  cp "$src/spec/fuzz/corpus/$t/"* "$run/$t/"
  # a fixed seed and a run count, not a time: CI gets the same inputs every time (new bugs are
  # for `make fuzz` to find, not for a random CI failure)
  "$build/fuzz/$t" -seed=1 -runs=$((secs * 1000)) -max_total_time=$((secs * 6)) -timeout=10 \
    -print_final_stats=1 \
    -artifact_prefix="$run/$t-" "$run/$t" >"$run/$t.log" 2>&1 &
  pids="$pids $!"
done

status=0
set -- $pids
for t in $targets; do
  if wait "$1"; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/$t.log")
    cov=$(grep -o 'cov: [0-9]*' "$run/$t.log" | tail -n 1)
    echo "$t: ok, $runs runs, $cov"
  else
    status=1
    echo "== $t FAILED; its log ends:"
    grep -v '^#[0-9]' "$run/$t.log" | tail -n 40
    ls "$run/$t-"* 2>/dev/null | sed 's/^/input: /'
  fi
  shift
done
exit $status
