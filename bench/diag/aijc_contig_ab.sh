#!/bin/bash
# Experiment driver for bench/diag/aijcompound_static_contiguous.patch (measured 2026-12-01, rejected). One device call (one H200, ~4 min): bench_aijcompound with the static schedule's rows strided over the
# grid (PGK_AIJC_CONTIG=0, the seed's static) and in one contiguous chunk per block (=1), alternating,
# quaternion twice each, then the 3x3 and complex rows once each. At most 8 files under $OUT.
#   run: bash bench/diag/aijc_contig_ab.sh   (carry ["dist"], after scripts/bundle)
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/bench.txt; mkdir -p /tmp/res
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
run() {
  echo "== PGK_AIJC_CONTIG=$1 $2" >> $B
  PGK_AIJC_CONTIG=$1 build/bench/bench_aijcompound -use_gpu_aware_mpi 0 -matrices "$2" -rows ours,user \
    -runs 20 -warmup 5 -results /tmp/res >> $B 2>&1
}
for m in 0 1 0 1; do run $m "quatsurf:n=800"; done
for mat in "vec3d27:n=47" "helmholtz2dc:n=1120"; do for m in 0 1; do run $m "$mat"; done; done
cat /tmp/res/*.jsonl > $OUT/jsonl.txt 2>/dev/null
grep -E "^== |tuned:|MISSED|met  " $B | cut -c1-150
