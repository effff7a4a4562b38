#!/bin/bash
# Experiment driver for the 16-bit column offsets of the aijcompound SpMV (kernels/aijcompound/
# layouts.hpp, PGK_AIJC_OFFSETS): one device call. Builds the bundle (A: offsets for quaternion
# entries, the commit's default), then rebuilds the library with PGK_AIJC_OFFSETS=0 (B: 32-bit
# columns everywhere, the code before) and =2 (C: offsets for every kind), runs the gpu aijcompound
# gtest on A and on C (C's test binary rebuilt with it), and bench_aijcompound with the libraries
# swapped in turn: quaternion A B A B, 3x3 B C B C, complex B C.
#   run: bash bench/diag/aijc_offsets_ab.sh   (carry ["dist"], after scripts/bundle)
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/bench.txt; mkdir -p /tmp/res /tmp/libs
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1); echo "library: $lib" >> $B
cp "$lib" /tmp/libs/A
g=$(find build -name pgk_gpu_aijcompound_tests -type f | head -1)
timeout 200 $g > $OUT/gtest_A.txt 2>&1; echo "gtest A rc $?: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/gtest_A.txt | tr '\n' ' ')" >> $B
h=source/kernels/aijcompound/layouts.hpp; [ -f $h ] || h=$(find . -path '*kernels/aijcompound/layouts.hpp' | head -1)
cp $h /tmp/layouts.hpp.orig
variant() { # name, value of PGK_AIJC_OFFSETS
  printf '#define PGK_AIJC_OFFSETS %s\n' "$2" | cat - /tmp/layouts.hpp.orig > $h
  t0=$(date +%s); cmake --build build --target petscgpukit -j16 > /tmp/build_$1.log 2>&1 || { tail -20 /tmp/build_$1.log; exit 4; }
  echo "built $1 in $(( $(date +%s) - t0 )) s" >> $B; cp "$lib" /tmp/libs/$1
}
variant B 0
variant C 2
cmake --build build --target pgk_gpu_aijcompound_tests -j16 > /tmp/build_Ct.log 2>&1 || tail -5 /tmp/build_Ct.log >> $B
timeout 200 $g > $OUT/gtest_C.txt 2>&1; echo "gtest C rc $?: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/gtest_C.txt | tr '\n' ' ')" >> $B
cp /tmp/layouts.hpp.orig $h
run() {
  cp /tmp/libs/$1 "$lib"
  echo "== library $1 $2" >> $B
  build/bench/bench_aijcompound -use_gpu_aware_mpi 0 -matrices "$2" -rows ours,user \
    -runs 20 -warmup 5 -results /tmp/res >> $B 2>&1
}
for v in A B A B; do run $v "quatsurf:n=800"; done
for v in B C B C; do run $v "vec3d27:n=47"; done
for v in B C; do run $v "helmholtz2dc:n=1120"; done
cp /tmp/libs/A "$lib"
cat /tmp/res/*.jsonl > $OUT/jsonl.txt 2>/dev/null
grep -E "^== |^built|^gtest|tuned:|MISSED|met  " $B | cut -c1-160
