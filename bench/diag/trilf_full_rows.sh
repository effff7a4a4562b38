#!/bin/bash
# bench_trilf's default device rows, one bench_trilf run a row, in the order given (default: issue
# 15's three 4.2M rows, then ANISO2's two, then the rest), each appending its records to
# $OUT/bench_trilf.jsonl and its output to $OUT/rows.txt, so that a call cut by its time limit keeps every finished row. A row is not
# started once DEADLINE seconds (default 540) have passed since the start. On a GPU node from the
# repository root (carry ["dist"], after scripts/bundle); reuses a set-up an earlier call on the same
# machine made (scripts/run-gpu-suite-part setup).
#   DEADLINE=400 bash bench/diag/trilf_full_rows.sh ["row|ksp" ...]
set -u
out=${OUT:-/tmp/r/out}
mkdir -p "$out"
start=$(date +%s)
scripts/run-gpu-suite-part setup >"$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs:${LD_LIBRARY_PATH:-}
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(
  "aniso2d5:n=2048|gmres" "aniso2d5:n=2048,ax=1,ay=0.01|gmres" "convdiff2d:n=2048,peclet=2000|gmres"
  "aniso2d:n=2500,variant=2|cg" "aniso2d:n=2500,variant=3|cg" "aniso3d:n=160|cg"
  "aniso3d:n=160,ax=0.0001,ay=0.01,az=1|cg" "lap3d7:n=160|cg" "elast3d:n=96|cg"
  "convdiff2d:n=2000,peclet=20000|bcgs" "convdiff3d:n=160,peclet=1000|bcgs")
k=0
for row in "${rows[@]}"; do
  k=$((k + 1))
  elapsed=$(($(date +%s) - start))
  if [ "$elapsed" -ge "${DEADLINE:-540}" ]; then
    echo "row $k ($row) not started: $elapsed s passed"
    continue
  fi
  build/bench/bench_trilf -matrices "$row" -results "$out" -use_gpu_aware_mpi 0 >/tmp/r/row.txt 2>&1
  echo "row $k ($row) rc=$? at $(($(date +%s) - start)) s" | tee -a "$out/rows.txt"
  cat /tmp/r/row.txt >>"$out/rows.txt"
done
