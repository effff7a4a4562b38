#!/bin/bash
# Experiment driver for the 16-bit column offsets of the aijcompound SpMV (kernels/aijcompound/
# layouts.hpp, PGK_AIJC_OFFSETS): one device call, run on bundle b3867bc (quaternion offsets by
# default). A: that default; B: PGK_AIJC_OFFSETS=0 (32-bit columns everywhere, the code before);
# C: =2 (offsets for every kind, the default from f7bb5c9 on). The gpu aijcompound gtest on A and
# C, then bench_aijcompound with the libraries swapped in turn: quaternion A B A B, 3x3 B C B C,
# complex B C.   run: bash bench/diag/aijc_offsets_ab.sh   (carry ["dist"], after scripts/bundle)
. "$(dirname "$0")/aijc_ab_common.sh"
rebuild B kernels/aijcompound/layouts.hpp '#define PGK_AIJC_OFFSETS 0'
rebuild C kernels/aijcompound/layouts.hpp '#define PGK_AIJC_OFFSETS 2'
gtest C
restore kernels/aijcompound/layouts.hpp
for v in A B A B; do run $v "quatsurf:n=800"; done
for v in B C B C; do run $v "vec3d27:n=47"; done
for v in B C; do run $v "helmholtz2dc:n=1120"; done
cp /tmp/libs/A "$lib"
cat /tmp/res/*.jsonl > $OUT/jsonl.txt 2>/dev/null
grep -E "^== |^built|^gtest|tuned:|MISSED|met  " $B | cut -c1-160
