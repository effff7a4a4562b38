# Sourced by the aijcompound A/B drivers in bench/diag (run on a GPU node from the repository root,
# carry ["dist"], after scripts/bundle): sets the bundle up, keeps its library as variant A, runs the
# gpu aijcompound gtest on it, and defines
#   rebuild NAME FILE LINE   FILE (a source of the bundle) with LINE prepended, the library rebuilt
#                            and kept as variant NAME (FILE is restored by the caller: restore FILE)
#   gtest NAME               the gpu aijcompound gtest (rebuilt) on the present sources
#   run NAME MATRICES        bench_aijcompound with library NAME swapped in
# Results go to $OUT/bench.txt ($B); bench rows' JSON lines to /tmp/res.
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/bench.txt; mkdir -p /tmp/res /tmp/libs /tmp/orig
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1); echo "library: $lib" >> $B
cp "$lib" /tmp/libs/A
g=$(find build -name pgk_gpu_aijcompound_tests -type f | head -1)
gtest() {
  cmake --build build --target pgk_gpu_aijcompound_tests -j16 > /tmp/build_t$1.log 2>&1 || tail -5 /tmp/build_t$1.log >> $B
  timeout 200 $g > $OUT/gtest_$1.txt 2>&1; echo "gtest $1 rc $?: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/gtest_$1.txt | tr '\n' ' ')" >> $B
}
source_path() { [ -f source/$1 ] && echo source/$1 || find . -path "*$1" | head -1; }
rebuild() { # name, file, line prepended
  local f; f=$(source_path "$2"); [ -f /tmp/orig/$(basename $f) ] || cp $f /tmp/orig/$(basename $f)
  printf '%s\n' "$3" | cat - /tmp/orig/$(basename $f) > $f
  t0=$(date +%s); cmake --build build --target petscgpukit -j16 > /tmp/build_$1.log 2>&1 || { tail -20 /tmp/build_$1.log; exit 4; }
  echo "built $1 in $(( $(date +%s) - t0 )) s" >> $B; cp "$lib" /tmp/libs/$1
}
restore() { local f; f=$(source_path "$1"); cp /tmp/orig/$(basename $f) $f; }
run() {
  cp /tmp/libs/$1 "$lib"
  echo "== library $1 $2" >> $B
  build/bench/bench_aijcompound -use_gpu_aware_mpi 0 -matrices "$2" -rows ours,user \
    -runs 20 -warmup 5 -results /tmp/res >> $B 2>&1
}
[ -n "$AB_NO_GTEST" ] || gtest A # AB_NO_GTEST=1: skip it (a run that keeps no library change)
# finish PATTERN: library A back in place, the JSON lines to $OUT, and the lines of $B matching PATTERN
finish() {
  cp /tmp/libs/A "$lib"
  cat /tmp/res/*.jsonl > $OUT/jsonl.txt 2>/dev/null
  grep -E "$1" $B | cut -c1-150
}
