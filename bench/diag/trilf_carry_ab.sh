#!/bin/bash
# trilf's apply scans chained (-pc_trilf_scan_carry auto, which chains on these rows) against the
# three-kernel fix-up (fixup) in one build, which needs bench/diag/trilf_apply_chained.patch (the
# scratch commit 5a701ab; bundle that): the bundle's set-up, the gpu label's trilf tests unless
# TESTS=0, bench_trilf on issue 15's three 4.2M rows with each carry, alternated ROUNDS times
# (default 2), then ANISO2 with CG (jacobi, trilf auto, trilf fixup; SOLVE_RUNS timed solves each,
# default 3). On a GPU node from the repository root with dist/ carried: bash
# bench/diag/trilf_carry_ab.sh. Output under $OUT.
set -u
# shellcheck source=bench/diag/trilf_ab_common.sh
. bench/diag/trilf_ab_common.sh
trilf_tests
trilf_ab scan_carry fixup auto
build/bench/bench_trilf -matrices "aniso2d:n=2500,variant=2|cg" -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 \
  -configs jacobi,trilf -extra_configs "trilf fixup:pc_type=trilf,pc_trilf_scan_carry=fixup" \
  -solve_runs "${SOLVE_RUNS:-3}" >"$out/bench_aniso2_cg.txt" 2>&1
echo "ANISO2 with CG rc=$? at $(($(date +%s) - t0)) s"
grep -E "MatMult 0|^  trilf  |^  (jacobi|trilf) |best trilf" "$out/bench_aniso2_cg.txt"
