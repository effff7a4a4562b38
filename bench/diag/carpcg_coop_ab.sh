#!/bin/bash
# EXPERIMENT, rejected (branch exp-coop, c77a173; bench/diag/carpcg_coop_phases.patch applies to main at 30be69e): multicolor's double sweep as one cooperative kernel (kernels/carpcg/phases.cu,
# PGK_CARPCG_COOP=1) against the 17 launches in a graph (main). First the gpu carpcg gtests with the switch on
# (the double sweep against the reference and the colour-by-colour pieces, bit for bit), then bench_carpcg
# multicolor at 4M and 361k rows, alternating on/off.   run: carry ["dist"], after scripts/bundle
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
t=$(find build -name pgk_gpu_carpcg_tests -type f | head -1)
PGK_CARPCG_COOP=1 timeout 100 $t --gtest_filter='GpuCarpcg.*' > $OUT/gtest_coop.txt 2>&1; echo "gtest coop rc $?"
grep -E "PASSED|FAILED|double sweep" $OUT/gtest_coop.txt | sort | uniq -c | head -12
for v in 1 0 1 0; do
  echo "== coop $v"
  PGK_CARPCG_COOP=$v build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "fem2d:n=2001;fem2d:n=601" -methods mc \
    -solve_seconds 1 -row_seconds 3 -results /tmp/res$v 2>&1 | grep -E "^fem2d|^  carpcg"
done | tee $OUT/bench_coop.txt | cut -c1-140
