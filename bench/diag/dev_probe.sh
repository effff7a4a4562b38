#!/bin/bash
# One device call: set-up, carpcg benches (lanes 4 and 8), an ncu look at the multicolor colour
# kernel, then the carpcg gpu+mpi subset (sanitizers included). At most 8 files under $OUT.
export OUT; repo=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p /tmp/res; B=$OUT/bench.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
for L in 8; do
  build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "fem2d:n=2001" -methods mc,cimmino -solve_seconds 1 -row_seconds 3 \
    -mc_ksp_carpcg_lanes_per_row $L -cimmino_ksp_carpcg_lanes_per_row $L -results /tmp/res >> $B 2>&1
done
build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "fem2d:n=2001;fem2d:n=601" -methods mc,carp,cimmino,cg -solve_seconds 1 -row_seconds 3 -results /tmp/res >> $B 2>&1
cat /tmp/res/*.jsonl > $OUT/jsonl.txt
timeout 150 ncu --clock-control none -k regex:colour_kernel -s 40 -c 4 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  build/tests/test_solve_generated -use_gpu_aware_mpi 0 -gen fem2d:n=2001 -mat_type aijcusparse -ksp_type carpcg -ksp_carpcg_scheme multicolor -ksp_max_it 6 -ksp_view -log_view > $OUT/ncu.txt 2>&1
cd $repo && PGK_PART_REGEX='carpcg|Carpcg' scripts/run-gpu-suite-part match >> $B 2>&1; echo "match rc $?"
grep -h "iteration" $B | grep MatMults
