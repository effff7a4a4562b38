#!/bin/bash
# rabbitpp multicore through MatGetOrdering (issue 9: 16 threads <= 2 s), variants in turn on the
# GPU node (run after scripts/bundle, carry ["dist"], typically after `run-gpu-suite-part mpi` in the
# same call). Each variant runs bench_rabbitpp on communities:n=8000000, 16 threads, 10 runs a row
# after one warm-up: the flagged row (the issue's benchmark), the unflagged row (the same arrays
# without MAT_SYMMETRIC: the plugin checks the pattern) and the GPU row.
#   PGK_AB_BUILDS  "name:patch,patch ..."  plugins built from the bundle's source with those
#                  bench/diag patches applied (`git diff` paths); "A" (the bundle as is) is always built
#   PGK_AB_RUNS    "label:build:arg,arg ..."  what runs, in order; args are bench_rabbitpp options with
#                  commas for spaces. Default: the bundle, the bundle on 4 KiB pages
#                  (-mat_ordering_rabbitpp_huge_pages 0), then each build of PGK_AB_BUILDS.
#   PGK_AB_ROUNDS  times the whole list runs (1; the node drifts between rows as much as variants differ: use 2)
#   PGK_AB_HOST    if set, first bench_rabbitpp_phases (bench/rabbitpp/phases_host.cpp: rabbitpp_batch with its
#                  system time and page faults, huge and 4 KiB arena pages alternately) for each build,
#                  PGK_AB_HOST_RUNS (4) runs each, flagged
# About 90 s a run, plus 10 s a build.
export OUT
here=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
B=$OUT/rabbitpp_ab.txt
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1)
[ -f "$lib" ] || { echo "no libpetscgpukit.so"; exit 4; }
{
  echo "## rabbitpp through MatGetOrdering, variants in turn ($(git -C "$here" rev-parse --short HEAD 2> /dev/null))"
  nproc; lscpu | grep -E "Model name|L3"
  echo "THP enabled: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
} >> $B
buildv() {
  local t0=$(date +%s)
  cmake --build build --target petscgpukit bench_rabbitpp bench_rabbitpp_phases -j16 > /tmp/build_$1.log 2>&1 || { tail -20 /tmp/build_$1.log; exit 7; }
  echo "built $1 in $(($(date +%s) - t0)) s" >> $B
  cp build/bench/bench_rabbitpp /tmp/bench_$1 && cp build/bench/bench_rabbitpp_phases /tmp/phases_$1 && cp "$lib" /tmp/lib_$1
}
buildv A
runs="A:A: 4k:A:-mat_ordering_rabbitpp_huge_pages,0"
for v in $PGK_AB_BUILDS; do
  name=${v%%:*}
  rm -rf /tmp/ab_source && cp -a source /tmp/ab_source # restored after the build
  for p in $(echo "${v#*:}" | tr , ' '); do patch -s -p1 -d source < "$here/bench/diag/$p" || exit 8; done
  buildv "$name"
  rm -rf source && mv /tmp/ab_source source
  runs="$runs $name:$name:"
done
if [ -n "$PGK_AB_HOST" ]; then
  for b in A ${PGK_AB_BUILDS}; do
    b=${b%%:*}
    echo "== host phases, build $b $(date +%T)" >> $B
    /tmp/phases_$b communities:n=8000000 16 ${PGK_AB_HOST_RUNS:-4} >> $B 2>&1
  done
fi
for r in $(seq ${PGK_AB_ROUNDS:-1}); do
  for x in ${PGK_AB_RUNS:-$runs}; do
    label=${x%%:*} rest=${x#*:}
    build=${rest%%:*} args=$(echo "${rest#*:}" | tr , ' ')
    cp /tmp/lib_$build "$lib"
    echo "== $label (plugin $build; $args) round $r $(date +%T)" >> $B
    /tmp/bench_$build -use_gpu_aware_mpi 0 -matrices "communities:n=8000000" -threads 16 -orderings rabbitpp -spy 0 \
      -runs 10 -min_runs 10 -row_seconds 100 -phase_runs 2 -results /tmp/res_${label}_$r $args >> $B 2>&1
  done
done
cp /tmp/lib_A "$lib"
grep -E "^== |^built|median of|MatGetOrdering rabbitpp (cpu|gpu)|seconds_(graph|communities|numbering|regroup)" $B | cut -c1-170
