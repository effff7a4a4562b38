#!/bin/bash
# One device call (nvidia-h200-x2, about 8 minutes): the carpcg benchmark at the bundle's commit (all
# five stop-48 patches applied, 0cb9e1a or later), the mpi label at that commit, then the patches
# taken back one by one from the newest (pdl, subwarp rule, cub temp, launch bounds, cg updates), the
# benchmark rerun after the three that touch carpcg's speed. The bundle's build ends reverted, so
# BUILT is removed: the next call sets the bundle up again. At most 8 files under $OUT.
#   run: bash bench/diag/ab_reverse_and_mpi.sh   (carry ["dist"], after scripts/bundle)
export OUT; repo=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=$OUT/bench.txt; mkdir -p /tmp/res
bench() {
  echo "== $1" >> $B
  CUDA_VISIBLE_DEVICES=0 build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "fem2d:n=2001;fem2d:n=601" \
    -methods mc,carp,cimmino,cg -solve_seconds 1 -row_seconds 3 -results /tmp/res >> $B 2>&1
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
bench "head (all five)"
bench "head again (noise)"
(cd $repo && scripts/run-gpu-suite-part mpi > $OUT/mpi.txt 2>&1; echo "mpi rc $?" >> $OUT/mpi.txt)
tail -4 $OUT/mpi.txt
for p in carpcg_colour_pdl review_subwarp_mask_lane_rule review_cub_temp_once carpcg_colour_launch_bounds carpcg_cg_updates_no_wait; do
  t0=$(date +%s)
  patch -R -p1 -d source < $repo/bench/diag/$p.patch >> $B 2>&1 && cmake --build build -j32 > /tmp/b.log 2>&1 ||
    { tail -20 /tmp/b.log >> $B; echo "build failed after taking back $p"; break; }
  echo "rebuilt without $p in $(($(date +%s) - t0)) s" >> $B
  case $p in review_*) ;; *) bench "- $p" ;; esac
done
rm -f /tmp/r/BUILT
cat /tmp/res/*.jsonl > $OUT/jsonl.txt
grep -E "^== |rebuilt|MatMults \(" $B
