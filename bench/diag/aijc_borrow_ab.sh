#!/bin/bash
# Experiment driver, prepared in the thirty-second session and not run (no device time left):
# quaternion +SYM rows borrow their lower partner's entry from the lane below by shuffle where that
# lane loads it at the same mirrored step (on a ring mesh: the (r-1, r) entry at step 1), a third
# of the partner reads from L2 (bench/diag/aijcompound_borrow.patch on main: the walk change,
# PGK_AIJC_BORROW, and a register cap PGK_AIJC_MAXNREG=64 that keeps 1024 threads an SM; the
# uncapped kernel takes 66 registers). A: the patch; B: PGK_AIJC_BORROW=0 (main's walk under the
# same cap, which its 56 registers do not reach). The gpu aijcompound gtest on A (the bits must not
# change), then quaternion A B A B.
#   git apply bench/diag/aijcompound_borrow.patch && git commit -am exp && scripts/bundle
#   run: bash bench/diag/aijc_borrow_ab.sh   (carry ["dist"])
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/spmv.cu '#define PGK_AIJC_BORROW 0'
restore kernels/aijcompound/spmv.cu
# C: main's walk uncapped (__maxnreg__(255) binds nothing), i.e. main's kernels
rebuild C kernels/aijcompound/spmv.cu $'#define PGK_AIJC_BORROW 0\n#define PGK_AIJC_MAXNREG 255'
restore kernels/aijcompound/spmv.cu
for v in A B C A B C; do echo "start $v $(date +%T)" >> $B; run $v "quatsurf:n=800"; done
finish "^== |^built|^gtest|tuned:|MISSED|met  .*copy|SYM-AoS (static|dynamic)"
