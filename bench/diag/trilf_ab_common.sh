# shellcheck shell=bash
# Sourced by the trilf A/B drivers in bench/diag (trilf_windows_ab.sh, trilf_carry_ab.sh; on a GPU
# node from the repository root, carry ["dist"], after scripts/bundle): sets this commit's bundle up
# (even on a machine an earlier call set up), enters it with the suite's environment, and defines
#   trilf_tests          the gpu label's trilf tests without the compute-sanitizer entries (the
#                        labels run those), unless TESTS=0; log in $out/trilf_tests.log
#   trilf_rows ARGS...   bench_trilf -solves 0 -kernels 0 (median of 10 after 2) on issue 15's three
#                        4.2M rows with ARGS, output on stdout
#   trilf_ab OPT V...    trilf_rows with -bt_pc_trilf_OPT V for each V in turn, ROUNDS times (default
#                        2): $out/bench_V_ROUND.txt, with the rows' MatMult and trilf lines echoed
# $out is $OUT (default /tmp/r/out); $t0 the start, for elapsed times.
out=${OUT:-/tmp/r/out}
mkdir -p "$out"
rm -f /tmp/r/BUILT
scripts/run-gpu-suite-part setup >"$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 PGK_REQUIRE_GPU=1
t0=$(date +%s)
trilf_tests() {
  [ "${TESTS:-1}" != 0 ] || return 0
  (cd build && ctest -L '^gpu$' -R '[Tt]rilf' -E sanitizer -LE '^valgrind$' --output-on-failure -j 8 --timeout 300 \
    >"$out/trilf_tests.log" 2>&1)
  echo "trilf gpu tests rc=$? after $(($(date +%s) - t0)) s"
  grep -E "tests passed|Failed|Not Run|\*\*\*" "$out/trilf_tests.log" | tail -8
}
trilf_rows() {
  build/bench/bench_trilf -matrices "aniso2d5:n=2048|gmres;aniso2d5:n=2048,ax=1,ay=0.01|gmres;convdiff2d:n=2048,peclet=2000|gmres" \
    -solves 0 -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 "$@"
}
trilf_ab() {
  local opt=$1 round v
  shift
  for ((round = 1; round <= ${ROUNDS:-2}; ++round)); do
    for v in "$@"; do
      trilf_rows "-bt_pc_trilf_$opt" "$v" >"$out/bench_${v}_$round.txt" 2>&1
      echo "$opt $v round $round rc=$? at $(($(date +%s) - t0)) s"
      grep -E "MatMult 0|^  trilf  " "$out/bench_${v}_$round.txt"
    done
  done
}
