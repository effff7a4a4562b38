#!/bin/bash
# Experiment driver (thirty-second session): do 16-bit column offsets help or hurt the quaternion
# products where they apply? quatsurf as generated is a torus whose seam keeps every matrix of it on
# 32-bit columns; renumbered by block RCM (quatsurf:n=800@rcm, bench_aijcompound) its bandwidth is
# about two rings, so main's offsets apply. A: main (PGK_AIJC_OFFSETS 2); B: PGK_AIJC_OFFSETS=0
# (32-bit columns). bench_aijcompound with the libraries swapped in turn: quatsurf@rcm A B A B,
# then quatsurf as generated on A (the numbering's own effect).
#   run: AB_NO_GTEST=1 bash bench/diag/aijc_rcm_offsets_ab.sh   (carry ["dist"], after scripts/bundle)
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/layouts.hpp '#define PGK_AIJC_OFFSETS 0'
restore kernels/aijcompound/layouts.hpp
for v in A B A B; do run $v "quatsurf:n=800@rcm"; done
run A "quatsurf:n=800"
finish "^== |^built|tuned:|MISSED|met  .*copy|by its own|offsets|SYM-AoS static (256x4|1024x1)|SI-32-(AoS|SoA) static (512x4|256x4)"
