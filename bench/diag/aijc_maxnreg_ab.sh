#!/bin/bash
# NOTE: its first run (bundle 86b3a0d) did not test the cap: the hook was not in the committed tree
# that scripts/bundle archives, so A, B and C ran the same code (an A/A/A noise measurement,
# bench/results/bench_aijcompound_exp_86b3a0d_h200_aaa_noise.txt). The second (bundle 26dbbc4, hook
# bench/diag/aijcompound_maxnreg_hook.patch committed, without the ncu step) did:
# bench/results/bench_aijcompound_exp_26dbbc4_h200_maxnreg.txt. Rejected.
# Experiment driver (thirty-second session, branch exp-maxnreg, not merged): does the quaternion +SYM
# product gain from more resident threads? Its static/dynamic kernels take 54-56 registers, so an SM
# holds 1024 threads (every static shape the tuner has asks for 1024 or 2048). A: the bundle (no
# cap); B: __maxnreg__(48) on spmv_static/spmv_dynamic (PGK_AIJC_MAXNREG; 1280 threads an SM for
# the 2048-thread dynamic shapes, 20-32 bytes of spills); C: __maxnreg__(40) (1536 threads, 72-84
# bytes of spills). Then ncu of the uncapped SI-32+SYM-AoS static kernel (stall reasons, L2/DRAM; quatsurf's
# copy has 32-bit columns, template flag N = false).
#   run: AB_NO_GTEST=1 bash bench/diag/aijc_maxnreg_ab.sh   (carry ["dist"], bundle of exp-maxnreg)
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/spmv.cu '#define PGK_AIJC_MAXNREG 48'
rebuild C kernels/aijcompound/spmv.cu '#define PGK_AIJC_MAXNREG 40'
restore kernels/aijcompound/spmv.cu
for v in A B C; do run $v "quatsurf:n=800"; done
cp /tmp/libs/A "$lib"
grep -E "^== |^built|tuned:|MISSED|met  .*copy|SYM-AoS (static|dynamic)" $B | cut -c1-140
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
timeout 150 "$ncu" --kernel-name-base mangled --kernel-name 'regex:spmv_staticI.*QuaternionEntryE.*OuterE3E.*InnerE0ELb1ELb0E' -c 8 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
  --section LaunchStats --section SchedulerStats build/bench/bench_aijcompound -use_gpu_aware_mpi 0 \
  -matrices quatsurf:n=800 -rows ours -runs 1 -warmup 0 > $OUT/ncu_quat.txt 2>&1
echo "ncu rc $?"; grep -E "spmv_static|Duration|Throughput|Registers Per|Achieved Occ|Block Size|Grid Size" $OUT/ncu_quat.txt | head -60
