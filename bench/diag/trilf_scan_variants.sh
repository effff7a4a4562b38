#!/bin/bash
# The trilf apply's tile scan (kernels/trilf/tridiag.cu) under other occupancies, on issue 15's three
# 4.2M rows: the bundle's build, then the scan kernel with __launch_bounds__(256, 2), (256, 3) and
# (256, 4) (100 / 80 / 64 registers; the library runs 3 blocks an SM since 67deb11, 2 before), and tiles
# of 4 and 16 items a thread (1024 / 4096 rows) instead of 8. Each variant rebuilds the bundle's library and
# runs bench_trilf -solves 0 -kernels 0 (median of 10 after 2); the source is restored at the end.
# Why: the scatter store (commit 5ab3c75, reverted) took 16 bytes a row off the apply
# and no time on the x row, so the scans wait on latency, not bandwidth. On a GPU node from the
# repository root with dist/ carried: bash bench/diag/trilf_scan_variants.sh [variant...] (default: base
# minb2 minb4 items4 items16 base; base_again is base; minb3 equals base since 67deb11). Output under $OUT (bench files only: a call
# returns few files; build logs stay in /tmp/r/logs).
set -u
out=${OUT:-/tmp/r/out}
logs=/tmp/r/logs
mkdir -p "$out"
rm -f /tmp/r/BUILT # this commit's bundle, even on a machine an earlier call set up
scripts/run-gpu-suite-part setup >"$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; exit 3; }
mkdir -p "$logs"
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs:${LD_LIBRARY_PATH:-}
src=source/kernels/trilf/tridiag.cu
cp "$src" "$logs/tridiag.cu.orig"
rows="aniso2d5:n=2048|gmres;aniso2d5:n=2048,ax=1,ay=0.01|gmres;convdiff2d:n=2048,peclet=2000|gmres"
# tile_scan's bounds, whatever their minimum blocks (the library's are (kScanThreads, 3) since 67deb11)
bounds='/^__global__ void __launch_bounds__(kScanThreads[, 0-9]*)$/{N;s/(kScanThreads[, 0-9]*)\n    tile_scan/(kScanThreads, MINB)\n    tile_scan/}'
variant() { # name, sed program (empty: the bundle's source)
  cp "$logs/tridiag.cu.orig" "$src"
  [ -n "$2" ] && sed -i "$2" "$src"
  diff -q "$logs/tridiag.cu.orig" "$src" >/dev/null && [ -n "$2" ] && { echo "$1: the edit did not apply"; return; }
  cmake --build build -j"$(nproc)" --target bench_trilf >"$logs/build_$1.log" 2>&1 || { echo "$1: build failed"; tail -5 "$logs/build_$1.log"; return; }
  build/bench/bench_trilf -matrices "$rows" -solves 0 -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 >"$out/bench_$1.txt" 2>&1
  echo "$1 rc=$?"
  grep -E "MatMult 0|^  trilf  " "$out/bench_$1.txt"
}
[ $# -gt 0 ] || set -- base minb2 minb4 items4 items16 base_again
round=0
for v in "$@"; do
  round=$((round + 1))
  case $v in
    base*) variant "${v}_$round" "" ;;
    minb2) variant "minb2_$round" "${bounds/MINB/2}" ;;
    minb3) variant "minb3_$round" "${bounds/MINB/3}" ;;
    minb4) variant "minb4_$round" "${bounds/MINB/4}" ;;
    items4) variant "items4_$round" "s/kScanItems = 8,/kScanItems = 4,/" ;;
    items16) variant "items16_$round" "s/kScanItems = 8,/kScanItems = 16,/" ;;
    *) echo "unknown variant $v" ;;
  esac
done
cp "$logs/tridiag.cu.orig" "$src"
cmake --build build -j"$(nproc)" --target bench_trilf >"$logs/build_restore.log" 2>&1
echo "restored rc=$?"
