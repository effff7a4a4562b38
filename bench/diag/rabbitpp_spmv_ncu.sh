#!/bin/bash
# Issue 9's MatMult target (after rabbitpp <= 1.9x the ideal time): where the bytes beyond the
# compulsory ones come from. On the GPU node (after scripts/bundle, carry ["dist"]):
#   1. bench_rabbitpp as the issue runs it (communities:n=8000000, 16 threads, orderings original,
#      random, rabbit, rabbitpp; 10 runs a row, 50 MatMults a row): the user's figures on this node;
#   2. the same MatMults under Nsight Compute (one product after each ordering, plus the upload's),
#      with the DRAM bytes read and written, the L2 read sectors from the SMs and their misses,
#      and the kernel time, against the compulsory bytes of CompulsoryBytes (bench/rabbitpp/spmv_after.cpp).
# Output: $OUT/rabbitpp_spmv_ncu.txt and $OUT/rabbitpp_ncu.csv.
export OUT
here=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
B=$OUT/rabbitpp_spmv_ncu.txt
spec=${PGK_NCU_SPEC:-communities:n=8000000}
orders=${PGK_NCU_ORDERS:-original,random,rabbit,rabbitpp}
{
  echo "## rabbitpp: the MatMult after each ordering, with its DRAM and L2 traffic ($(basename "$(ls "$here"/dist/petscgpukit-*-bundle.tar.xz | head -1)"), $(date +%F))"
  nvidia-smi --query-gpu=name,memory.total,clocks.max.memory --format=csv,noheader
  nproc
} >> "$B"
if [ -z "${PGK_NCU_ONLY:-}" ]; then
  echo "== bench_rabbitpp $(date +%T)" >> "$B"
  build/bench/bench_rabbitpp -use_gpu_aware_mpi 0 -matrices "$spec" -threads 16 -orderings "$orders" -spy 0 \
    -runs 10 -min_runs 10 -row_seconds 100 -phase_runs 2 -results /tmp/res_bench >> "$B" 2>&1
fi
echo "== ncu $(date +%T)" >> "$B"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum
ncu --kernel-name regex:'csr|spmv|SpMV|Csr' --metrics "$metrics" --csv --log-file "$OUT/rabbitpp_ncu.csv" \
  build/bench/bench_rabbitpp -use_gpu_aware_mpi 0 -matrices "$spec" -threads 16 -orderings "$orders" -spy 0 \
  -runs 1 -min_runs 1 -warmup 0 -cpu_warmup 0 -phase_runs 1 -spmv_runs 1 -spmv_warmup 0 -results /tmp/res_ncu >> "$B" 2>&1
echo "ncu rc $? $(date +%T)" >> "$B"
# Kernel name, metric, value per profiled kernel, in launch order (the orderings' MatMults in -orderings' order,
# two each: the upload's and the timed one).
python3 - "$OUT/rabbitpp_ncu.csv" >> "$B" << 'EOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
ix = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
by = {}
for r in rows:
    by.setdefault(int(r[ix["ID"]]), [r[ix["Kernel Name"]][:60], {}])[1][r[ix["Metric Name"]]] = (r[ix["Metric Value"]], r[ix["Metric Unit"]])
for k in sorted(by):
    name, m = by[k]
    print(k, name, "; ".join(f"{a}={v} {u}" for a, (v, u) in sorted(m.items())))
EOF
grep -E "^== |ncu rc|ideal|x ideal|MatGetOrdering rabbitpp (cpu|gpu)|seconds_communities|^[0-9]+ " "$B" | cut -c1-260
