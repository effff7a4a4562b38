#!/bin/bash
# trilf's apply scans chained (-pc_trilf_scan_carry auto, which chains on these rows) against the
# three-kernel fix-up (fixup) in one build, which needs bench/diag/trilf_apply_chained.patch (the
# scratch commit 5a701ab; bundle that): the bundle's set-up, the gpu label's trilf tests unless
# TESTS=0 (compute-sanitizer entries excluded; the labels run them), bench_trilf -solves 0 -kernels 0
# (median of 10 after 2) on issue 15's three 4.2M rows, alternated ROUNDS times (default 2), then
# ANISO2 with CG (jacobi, trilf auto, trilf fixup; SOLVE_RUNS timed solves each, default 3). On a
# GPU node from the repository root with dist/ carried: bash bench/diag/trilf_carry_ab.sh.
# Output under $OUT.
set -u
out=${OUT:-/tmp/r/out}
mkdir -p "$out"
rm -f /tmp/r/BUILT # this commit's bundle, even on a machine an earlier call set up
scripts/run-gpu-suite-part setup >"$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 PGK_REQUIRE_GPU=1
t0=$(date +%s)
if [ "${TESTS:-1}" != 0 ]; then
  (cd build && ctest -L '^gpu$' -R '[Tt]rilf' -E sanitizer -LE '^valgrind$' --output-on-failure -j 8 --timeout 300 \
    >"$out/trilf_tests.log" 2>&1)
  echo "trilf gpu tests rc=$? after $(($(date +%s) - t0)) s"
  grep -E "tests passed|Failed|Not Run|\*\*\*" "$out/trilf_tests.log" | tail -8
fi
rows="aniso2d5:n=2048|gmres;aniso2d5:n=2048,ax=1,ay=0.01|gmres;convdiff2d:n=2048,peclet=2000|gmres"
for ((round = 1; round <= ${ROUNDS:-2}; ++round)); do
  for carry in fixup auto; do
    build/bench/bench_trilf -matrices "$rows" -solves 0 -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 \
      -bt_pc_trilf_scan_carry $carry >"$out/bench_${carry}_$round.txt" 2>&1
    echo "carry $carry round $round rc=$? at $(($(date +%s) - t0)) s"
    grep -E "MatMult 0|^  trilf  " "$out/bench_${carry}_$round.txt"
  done
done
build/bench/bench_trilf -matrices "aniso2d:n=2500,variant=2|cg" -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 \
  -configs jacobi,trilf -extra_configs "trilf fixup:pc_type=trilf,pc_trilf_scan_carry=fixup" \
  -solve_runs "${SOLVE_RUNS:-3}" >"$out/bench_aniso2_cg.txt" 2>&1
echo "ANISO2 with CG rc=$? at $(($(date +%s) - t0)) s"
grep -E "MatMult 0|^  trilf  |^  (jacobi|trilf) |best trilf" "$out/bench_aniso2_cg.txt"
