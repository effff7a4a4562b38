#!/bin/bash
# Issue 11's device sweep experiments on the GPU node, after scripts/bundle (carry ["dist"]):
#   bash bench/diag/carpcg_sweeps.sh flags   # bench_carpcg_flags (bench/carpcg/flag_sweep.cu): the colours
#                                            # as phases of one kernel with neighbour-only waits, for 256,
#                                            # 512 and 1024 threads a block (ran at ad41c56 as carpcg_flags.sh)
#   bash bench/diag/carpcg_sweeps.sh chain   # bench_carpcg_chain (bench/carpcg/chain_sweep.cu): colour-kernel
#                                            # kinds (loads ahead, slices, programmatic launches, the ordered
#                                            # sum's shuffles first, 48 registers) and two launch-cost probes,
#                                            # PGK_ROUNDS rounds (default 2; ran at 0510675 and 4b9c5cf)
# Each on fem2d at 361k, 1M and 4M rows (PGK_SIZES), then its bitwise checks under compute-sanitizer
# memcheck on a small grid. Results in $OUT/carpcg_<experiment>.txt. Then, if PGK_BENCH is set, bench_carpcg
# -methods $PGK_BENCH (e.g. mc) on fem2d at the same sizes, in $OUT/bench_carpcg.txt (PGK_BENCH_ROUNDS rounds, each
# once per ';'-separated option list of PGK_BENCH_VARIANTS, e.g. ";-mc_ksp_carpcg_overlap_colour_blocks 2147483647"
# for the default against plain launches); then, if PGK_PART is set,
# that part of the labels on the same set-up (scripts/run-gpu-suite-part), its log in $OUT/$PGK_PART.log.
export OUT
what=${1:?usage: carpcg_sweeps.sh flags|chain}
case $what in
  flags) args=(256 512 1024) check=(env PGK_FLAGS_CHECK_ONLY=1 PGK_FLAGS_BANDS=16) sanitized=(256 1024) rounds=${PGK_ROUNDS:-1} ;;
  chain) args=() check=(env PGK_CHAIN_CHECK_ONLY=1) sanitized=() rounds=${PGK_ROUNDS:-2} ;;
  *) echo "carpcg_sweeps.sh: flags or chain" >&2; exit 2 ;;
esac
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
repo=$PWD
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/carpcg_$what.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
for round in $(seq "$rounds"); do
  for n in ${PGK_SIZES:-601 1001 2001}; do
    timeout 120 build/bench/bench_carpcg_$what $n 1.0 "${args[@]}" >> $B 2>&1
    echo "== round $round fem2d:n=$n: rc $?" >> $B
  done
done
"${check[@]}" timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
  build/bench/bench_carpcg_$what 40 1.0 "${sanitized[@]}" >> $B 2>&1
echo "== memcheck fem2d:n=40: rc $?" >> $B
if [ -n "${PGK_BENCH:-}" ]; then
  problems=$(printf 'fem2d:n=%s;' ${PGK_SIZES:-601 1001 2001})
  IFS=';' read -r -a variants <<< "${PGK_BENCH_VARIANTS:-}"
  [ ${#variants[@]} -gt 0 ] || variants=("")
  for round in $(seq "${PGK_BENCH_ROUNDS:-1}"); do
    for v in "${variants[@]}"; do
      echo "== bench_carpcg round $round, options: ${v:-none}" >> $OUT/bench_carpcg.txt
      # shellcheck disable=SC2086 # a variant is a list of options
      timeout 240 build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "${problems%;}" -methods "$PGK_BENCH" \
        -solve_seconds 1 -row_seconds 3 $v >> $OUT/bench_carpcg.txt 2>&1
      echo "== bench_carpcg round $round ($v): rc $?" >> $B
    done
  done
fi
if [ -n "${PGK_PART:-}" ]; then
  cd "$repo" && scripts/run-gpu-suite-part "$PGK_PART" > $OUT/$PGK_PART.log 2>&1
  echo "== $PGK_PART: rc $?" >> $B
fi
