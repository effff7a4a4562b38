#!/bin/bash
# For the next device session (one call, about 6 minutes on a fresh single-GPU machine): the carpcg
# benchmark on fem2d:n=2001 and n=601 at the bundle's commit, then after each prepared patch in turn
# (applied to the bundle's source and rebuilt), then the gpu+mpi tests of every component the
# patches touch, sanitizer entries included. At most 8 files under $OUT (the device tool's limit).
#   run: bash bench/diag/next_carpcg_ab.sh   (carry ["dist"], after scripts/bundle)
export OUT; repo=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=$OUT/bench.txt; mkdir -p /tmp/res
bench() {
  echo "== $1" >> $B
  build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "fem2d:n=2001;fem2d:n=601" -methods mc,carp,cimmino,cg \
    -solve_seconds 1 -row_seconds 3 -results /tmp/res >> $B 2>&1
}
bench base
for p in carpcg_cg_updates_no_wait carpcg_colour_launch_bounds review_cub_temp_once review_subwarp_mask_lane_rule carpcg_colour_pdl; do
  patch -p1 -d source < $repo/bench/diag/$p.patch >> $B 2>&1 && cmake --build build -j16 > /tmp/b.log 2>&1 ||
    { tail -20 /tmp/b.log >> $B; echo "build failed after $p"; exit 4; }
  bench "+ $p"
done
cat /tmp/res/*.jsonl > $OUT/jsonl.txt
cd $repo && PGK_PART_REGEX='carpcg|Carpcg|rabbitpp|Rabbitpp|trilf|Trilf|rcm|Rcm|list_rank|ListRank|symmetriz|Symmetriz|csr|Csr' \
  scripts/run-gpu-suite-part match >> $B 2>&1
echo "match rc $?"
grep -E "^== |MatMults \(" $B
