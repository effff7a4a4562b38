#!/bin/bash
# How the trilf apply stores z (-pc_trilf_apply_store gather|scatter, kernels/trilf/internal.hpp) on
# issue 15's three 4.2M rows, alternating, set-up and apply only (bench_trilf -solves 0 -kernels 0),
# then the trilf gpu tests but the sanitizer entries. On a GPU node from the repository root with
# dist/ carried: bash bench/diag/trilf_apply_store_ab.sh. Output under $OUT.
set -u
out=${OUT:-/tmp/r/out}
mkdir -p "$out"
rm -f /tmp/r/BUILT # this commit's bundle, even on a machine an earlier call set up
scripts/run-gpu-suite-part setup >"$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PGK_REQUIRE_GPU=1
rows="aniso2d5:n=2048|gmres;aniso2d5:n=2048,ax=1,ay=0.01|gmres;convdiff2d:n=2048,peclet=2000|gmres"
for round in 1 2; do
  for store in gather scatter; do
    build/bench/bench_trilf -matrices "$rows" -solves 0 -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 -bt_pc_trilf_apply_store $store \
      >"$out/bench_${store}_$round.txt" 2>&1
    echo "round $round $store rc=$?"
    grep -E "MatMult 0|^  trilf " "$out/bench_${store}_$round.txt" | head -12
  done
done
cd build || exit 3
ctest -L '^gpu$' -R 'trilf|Trilf' -E 'sanitizer' -j 8 --timeout 300 --output-on-failure >"$out/ctest_trilf.txt" 2>&1
echo "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*" "$out/ctest_trilf.txt" | head -20
