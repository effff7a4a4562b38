#!/bin/bash
# Experiment driver for the y stores of the aijcompound SpMV (kernels/aijcompound/spmv.cu,
# PGK_AIJC_YSTORE): one device call on the bundle of the change. A: the bundle (2: double2 stores,
# bs 4 rows swapped between lane pairs so that each store instruction writes whole sectors);
# B: PGK_AIJC_YSTORE=0 (one double at a time, the code before). The gpu aijcompound gtest on A,
# then bench_aijcompound with the libraries swapped in turn: quaternion A B A B, complex A B.
#   run: bash bench/diag/aijc_ystore_ab.sh   (carry ["dist"], after scripts/bundle)
# Ran at 494d5c6 (thirty-second session); rejected, the change is bench/diag/aijcompound_ystore.patch
# (apply it to fc57d21 to run this again).
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/spmv.cu '#define PGK_AIJC_YSTORE 0'
restore kernels/aijcompound/spmv.cu
for v in A B A B; do run $v "quatsurf:n=800"; done
for v in A B; do run $v "helmholtz2dc:n=1120"; done
finish "^== |^built|^gtest|tuned:|MISSED|met  |by its own"
