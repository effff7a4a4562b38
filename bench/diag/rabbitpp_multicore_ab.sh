#!/bin/bash
# A/B of the thirty-third session's rabbitpp multicore change (issue 9: 16 threads <= 2 s): MatGetOrdering
# rabbitpp with the cpu backend at 16 threads on the graph (communities:n=8000000), the code at
# HEAD (A) against the code before it (B: bench/diag/rabbitpp_multicore_before.patch applied to the
# bundle's sources, bench_rabbitpp rebuilt), A B A. The permutations are the same (bench_rabbitpp
# prints modularity and communities; the tests compare them bit for bit).
#   run: carry ["dist"], after scripts/bundle; about 4-5 minutes with the set-up.
export OUT
here=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/bench.txt
nproc >> $B; lscpu | grep -E "Model name|L3" >> $B
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1); echo "library: $lib" >> $B
# MatGetOrdering runs the plugin's copy (the shared library), the direct rows bench_rabbitpp's own:
# both are kept per variant.
build() {
  cmake --build build --target petscgpukit bench_rabbitpp -j16 > /tmp/build_$1.log 2>&1 || { tail -20 /tmp/build_$1.log; exit 4; }
  cp build/bench/bench_rabbitpp /tmp/bench_$1; cp "$lib" /tmp/lib_$1
}
run() {
  cp /tmp/lib_$1 "$lib"
  echo "== $1" >> $B
  /tmp/bench_$1 -use_gpu_aware_mpi 0 -matrices "communities:n=8000000" -threads 16 -orderings rabbitpp -spy 0 \
    -results /tmp/res_$1 >> $B 2>&1
}
build A
patch -d source -p1 < "$here/bench/diag/rabbitpp_multicore_before.patch" > /tmp/patch.log || { cat /tmp/patch.log; exit 5; }
build B
patch -R -d source -p1 < "$here/bench/diag/rabbitpp_multicore_before.patch" > /dev/null
for v in A B A; do run $v; done
cp /tmp/lib_A "$lib"
grep -E "^== |cpu 16 threads|seconds_(graph|communities|numbering|regroup)|rabbitpp figures +(modularity|communities)" $B | cut -c1-150
