#!/bin/bash
# Builds and runs bench/rabbitpp/spmv_l2_window.cu on the GPU node (no bundle, no set-up: `run` copies
# the working tree): the host sources it needs compiled with g++ -O2 -g, the driver with nvcc.
#   PGK_L2W_SPEC (communities:n=8000000) PGK_L2W_THREADS (16); output in $OUT/spmv_l2_window.txt
set -u
d=/tmp/l2w && rm -rf $d
bash bench/diag/host_objects.sh $d/obj || exit 3
nvcc -O2 -std=c++17 -arch=sm_90 -I. bench/rabbitpp/spmv_l2_window.cu bench/common/copy_bandwidth.cu kernels/common/event_timer.cu $d/obj/*.o -lcusparse -lpthread -o $d/run || exit 4
B=${OUT:-/tmp}/spmv_l2_window.txt
{ echo "## spmv_l2_window ($(git rev-parse --short HEAD 2>/dev/null), $(date +%F))"; nvidia-smi --query-gpu=name --format=csv,noheader; } >> "$B"
$d/run "${PGK_L2W_SPEC:-communities:n=8000000}" "${PGK_L2W_THREADS:-16}" >> "$B" 2>&1
echo "rc $?" >> "$B"
cat "$B"
