#!/bin/bash
# Issue 11's load-chain experiment on the GPU node (bench/carpcg/chain_sweep.cu): bench_carpcg_chain on
# fem2d at 361k, 1M and 4M rows (the library's colour kernel, the row pointer read with the norm, the
# colours as slices), then its checks under compute-sanitizer memcheck on a small grid. Run after
# scripts/bundle (carry ["dist"]); results in $OUT/carpcg_chain.txt. Then, if PGK_PART is set, that part
# of the labels on the same set-up (scripts/run-gpu-suite-part), its log in $OUT/$PGK_PART.log.
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
repo=$PWD
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/carpcg_chain.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
for round in ${PGK_ROUNDS:-1 2}; do
  for n in ${PGK_SIZES:-601 1001 2001}; do
    timeout 120 build/bench/bench_carpcg_chain $n 1.0 >> $B 2>&1
    echo "== round $round fem2d:n=$n: rc $?" >> $B
  done
done
PGK_CHAIN_CHECK_ONLY=1 timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
  build/bench/bench_carpcg_chain 40 1.0 >> $B 2>&1
echo "== memcheck fem2d:n=40: rc $?" >> $B
if [ -n "${PGK_PART:-}" ]; then
  cd "$repo" && scripts/run-gpu-suite-part "$PGK_PART" > $OUT/$PGK_PART.log 2>&1
  echo "== $PGK_PART: rc $?" >> $B
fi
