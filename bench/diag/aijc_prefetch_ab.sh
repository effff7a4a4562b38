#!/bin/bash
# Experiment driver (run on bundle a650714, whose spmv.cu had the macros PGK_AIJC_PREFETCH_COMPLEX and PGK_AIJC_SPLIT;
# main keeps PGK_AIJC_PREFETCH only; D is bench/diag/aijcompound_split_lanes.patch) for the SpMV index prefetch (kernels/aijcompound/spmv.cu, PGK_AIJC_PREFETCH): one
# device call (one H200). Builds the bundle (A: prefetch on, the commit's default), then rebuilds only
# the library with -DPGK_AIJC_PREFETCH=0 (B: the code before it) and with PGK_AIJC_PREFETCH_COMPLEX=1
# (C: complex entries walk the mirrored prefetch path too) and PGK_AIJC_SPLIT=1 (D: quaternion rows on two
# lanes, half an entry each), and runs bench_aijcompound with the three
# libraries swapped in turn: quaternion A B D A B D, 3x3 A B, complex A B C. At most 8 files under $OUT.
#   run: bash bench/diag/aijc_prefetch_ab.sh   (carry ["dist"], after scripts/bundle)
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/bench.txt; mkdir -p /tmp/res /tmp/libs
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1); echo "library: $lib" >> $B
cp "$lib" /tmp/libs/A
g=$(find build -name pgk_gpu_aijcompound_tests -type f | head -1)
timeout 200 $g > $OUT/gtest_A.txt 2>&1; echo "gtest A rc $?: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/gtest_A.txt | tr '\n' ' ')" >> $B
f=source/kernels/aijcompound/spmv.cu; [ -f $f ] || f=$(find . -path '*kernels/aijcompound/spmv.cu' | head -1)
cp $f /tmp/spmv.cu.orig
variant() { # name, macro lines prepended
  cp /tmp/spmv.cu.orig $f; printf '%s\n' "$2" | cat - /tmp/spmv.cu.orig > $f
  t0=$(date +%s); cmake --build build --target petscgpukit -j16 > /tmp/build_$1.log 2>&1 || { tail -20 /tmp/build_$1.log; exit 4; }
  echo "built $1 in $(( $(date +%s) - t0 )) s" >> $B; cp "$lib" /tmp/libs/$1
}
variant B '#define PGK_AIJC_PREFETCH 0'
variant C '#define PGK_AIJC_PREFETCH_COMPLEX 1'
variant D '#define PGK_AIJC_SPLIT 1'
cmake --build build --target pgk_gpu_aijcompound_tests -j16 > /tmp/build_Dt.log 2>&1
timeout 200 $g > $OUT/gtest_D.txt 2>&1; echo "gtest D rc $?: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/gtest_D.txt | tr '\n' ' ')" >> $B
cp /tmp/spmv.cu.orig $f
run() {
  cp /tmp/libs/$1 "$lib"
  echo "== library $1 $2" >> $B
  build/bench/bench_aijcompound -use_gpu_aware_mpi 0 -matrices "$2" -rows ours,user \
    -runs 20 -warmup 5 -results /tmp/res >> $B 2>&1
}
for v in A B D A B D; do run $v "quatsurf:n=800"; done
for v in A B; do run $v "vec3d27:n=47"; done
for v in A B C; do run $v "helmholtz2dc:n=1120"; done
cp /tmp/libs/A "$lib"
cat /tmp/res/*.jsonl > $OUT/jsonl.txt 2>/dev/null
grep -E "^== |^built|tuned:|MISSED|met  " $B | cut -c1-160
