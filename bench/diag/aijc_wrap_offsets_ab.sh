#!/bin/bash
# Experiment driver for column offsets around the cycle of columns (branch wrap-offsets, thirty-second
# session): quatsurf is a torus numbered ring by ring, so rows of the first and last ring couple
# columns n (n - 1) away and the 16-bit offsets of f7bb5c9 never applied to it (its device copy kept
# 32-bit columns). With offsets taken the other way round (c - r -+ nbcols where |c - r| > 32767)
# they do. A: the bundle (wrapped offsets); B: PGK_AIJC_OFFSETS=0 (32-bit columns everywhere: for
# quatsurf what main does). The gpu aijcompound gtest on A, then bench_aijcompound with the
# libraries swapped in turn, quaternion A B A B.
#   run: bash bench/diag/aijc_wrap_offsets_ab.sh   (carry ["dist"], after scripts/bundle)
# Ran at 18cc7cf; rejected: the change is bench/diag/aijcompound_wrap_offsets.patch (apply it to a7e1a50).
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/layouts.hpp '#define PGK_AIJC_OFFSETS 0'
restore kernels/aijcompound/layouts.hpp
for v in A B A B; do run $v "quatsurf:n=800"; done
finish "^== |^built|^gtest|tuned:|MISSED|met  .*copy|by its own|SI-32\+SYM-AoS static (256x4|1024x1)"
