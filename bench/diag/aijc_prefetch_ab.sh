#!/bin/bash
# Experiment driver (run on bundle a650714, whose spmv.cu had the macros PGK_AIJC_PREFETCH_COMPLEX and PGK_AIJC_SPLIT;
# main keeps PGK_AIJC_PREFETCH only; D is bench/diag/aijcompound_split_lanes.patch) for the SpMV index prefetch
# (kernels/aijcompound/spmv.cu, PGK_AIJC_PREFETCH): one device call (one H200). A: the bundle's library (prefetch on,
# the commit's default); B: -DPGK_AIJC_PREFETCH=0 (the code before it); C: PGK_AIJC_PREFETCH_COMPLEX=1 (complex
# entries walk the mirrored prefetch path too); D: PGK_AIJC_SPLIT=1 (quaternion rows on two lanes, half an entry
# each). bench_aijcompound with the libraries swapped in turn: quaternion A B D A B D, 3x3 A B, complex A B C.
#   run: bash bench/diag/aijc_prefetch_ab.sh   (carry ["dist"], after scripts/bundle)
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/spmv.cu '#define PGK_AIJC_PREFETCH 0'
rebuild C kernels/aijcompound/spmv.cu '#define PGK_AIJC_PREFETCH_COMPLEX 1'
rebuild D kernels/aijcompound/spmv.cu '#define PGK_AIJC_SPLIT 1'
gtest D
restore kernels/aijcompound/spmv.cu
for v in A B D A B D; do run $v "quatsurf:n=800"; done
for v in A B; do run $v "vec3d27:n=47"; done
for v in A B C; do run $v "helmholtz2dc:n=1120"; done
cp /tmp/libs/A "$lib"
cat /tmp/res/*.jsonl > $OUT/jsonl.txt 2>/dev/null
grep -E "^== |^built|tuned:|MISSED|met  " $B | cut -c1-160
