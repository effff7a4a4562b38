#!/bin/bash
# One device call (one H200, about 5 minutes): the carpcg gpu and mpi tests at the bundle's commit, then
# bench_carpcg with each double sweep replayed from a CUDA graph (the default) and launched kernel by
# kernel (-ksp_carpcg_graph 0 through each method's prefix), alternating, twice each. At most 8 files under $OUT.
#   run: bash bench/diag/carpcg_graph_ab.sh   (carry ["dist"], after scripts/bundle)
export OUT; repo=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
PGK_PART_REGEX=carpcg scripts/run-gpu-suite-part match > $OUT/tests.txt 2>&1; echo "carpcg tests rc $?" >> $OUT/tests.txt
tail -3 $OUT/tests.txt
grep -h -E "Failed|\*\*\*|tests passed" /tmp/r/ctest-match.log | head -20
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/bench.txt; mkdir -p /tmp/res
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
bench() {
  echo "== graph $1" >> $B
  local off=""
  [ "$1" = off ] && off="-mc_ksp_carpcg_graph 0 -carp_ksp_carpcg_graph 0 -cimmino_ksp_carpcg_graph 0"
  build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "fem2d:n=2001;fem2d:n=601" \
    -methods mc,carp,cimmino,cg -solve_seconds 1 -row_seconds 3 -results /tmp/res $off >> $B 2>&1
}
for m in on off on off; do bench $m; done
cat /tmp/res/*.jsonl > $OUT/jsonl.txt
grep -E "^== |^  carpcg|^fem2d" $B | cut -c1-120 | head -60
