#!/bin/bash
# Where the test suite's 2-rank jobs run, on a GPU node: the eight gpu.carpcg.mpi.* tests (2 ranks
# each, one GPU) and the two SNES ex19 + trilf 2-rank tests (host and device) at ctest -j 10, so
# that all run at once, under three placements:
#   pairs   check_run.sh's (a free pair of CPUs a job, a rankfile binds rank k to its k-th CPU);
#   ompi    PGK_MPI_PAIRS=0: Open MPI's own binding (jobs of <= 2 ranks: rank k on core k, each job);
#   unbound PGK_MPI_PAIRS=0 and OMPI_MCA_hwloc_base_binding_policy=none.
# Order: pairs, ompi, unbound, pairs (PGK_AB_RUNS: another list; PGK_AB_TIMEOUT: seconds a run). Run after scripts/run-gpu-suite-part set the bundle up under
# /tmp/r. Output under $OUT/binding_ab/: a line a run (wall seconds, ctest's verdict), each test's
# seconds, and the node's view of the placements.
set -u
out=${OUT:-/tmp/r/out}/binding_ab
mkdir -p "$out"
cd /tmp/r/petscgpukit-bundle/build || exit 3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 PGK_REQUIRE_GPU=1
export LD_LIBRARY_PATH=/tmp/r/petscgpukit-bundle/syslibs
echo "node: $(nproc) CPUs; $(nvidia-smi -L | head -1)" >"$out/node.txt"
tests='^(gpu\.carpcg\.mpi\..*|(gpu\.)?tutorial\.snes_ex19\.trilf_mpi)$'
i=0
for p in ${PGK_AB_RUNS:-pairs ompi unbound pairs}; do
  i=$((i + 1))
  case $p in
    pairs) envs=() ;;
    ompi) envs=(PGK_MPI_PAIRS=0) ;;
    unbound) envs=(PGK_MPI_PAIRS=0 OMPI_MCA_hwloc_base_binding_policy=none) ;;
  esac
  t0=$(date +%s.%N)
  env ${envs[@]+"${envs[@]}"} timeout "${PGK_AB_TIMEOUT:-400}" ctest -j 10 -R "$tests" --timeout 600 >"$out/run$i-$p.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "run $i $p: ctest rc=$rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s wall; $(grep -E 'tests passed' "$out/run$i-$p.log")" >>"$out/summary.txt"
  grep -E "Test +#" "$out/run$i-$p.log" | awk -v r="$i" -v p="$p" '{print "run " r " " p ": " $4 " " $(NF-1)}' >>"$out/per_test.txt"
done
cat "$out/node.txt" "$out/summary.txt"
