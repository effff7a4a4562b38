#!/bin/bash
# The trilf apply in windows (-pc_trilf_apply_windows, bench/diag/trilf_apply_windows.patch) against
# path order on issue 15's three 4.2M rows, in one build: the bundle's set-up, the gpu label's trilf
# tests unless TESTS=0, then bench_trilf with the windows off and on, alternated ROUNDS times
# (default 2). On a GPU node from the repository root with dist/ carried: bash
# bench/diag/trilf_windows_ab.sh. Output under $OUT.
set -u
# shellcheck source=bench/diag/trilf_ab_common.sh
. bench/diag/trilf_ab_common.sh
trilf_tests
for ((round = 1; round <= ${ROUNDS:-2}; ++round)); do
  for w in off on; do
    trilf_rows -bt_pc_trilf_apply_windows $w >"$out/bench_${w}_$round.txt" 2>&1
    echo "windows $w round $round rc=$? at $(($(date +%s) - t0)) s"
    grep -E "MatMult 0|^  trilf  " "$out/bench_${w}_$round.txt"
  done
done
