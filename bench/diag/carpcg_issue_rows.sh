#!/bin/bash
# bench_carpcg on the issue 11 rows that had never run on a device: 2D Helmholtz at kh = 0.1 with 1M
# unknowns (symmetric indefinite; the issue: GMRES(30)+Jacobi, BiCGStab+Jacobi and CGNE do not
# converge, MINRES+Jacobi 1.57 s, carpcg within 3x of it), the same with convection (cell Peclet ~1,
# nonsymmetric indefinite: carpcg converges where every Jacobi-cost built-in fails, and faster than
# GMRES(30)+ILU(0)), and convection-diffusion at cell Peclet ~10 (the bench's default device list).
# Run on the GPU node after scripts/bundle (carry ["dist"]). Each problem is its own bench_carpcg
# process under its own time limit, so a call that runs out keeps what finished.
#   PGK_ROWS     the specs, ';' between them (default: the three above)
#   PGK_CAP      seconds a solve may take (-solve_seconds; default 12)
#   PGK_LIMIT    seconds each process may take (default 200)
#   PGK_EXTRA    more bench_carpcg options (e.g. "-methods mc,carp -max_it 400000")
#   PGK_AIJC     if set, then bench_aijcompound on these matrices (every row, median of 20 after 5)
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
rows=${PGK_ROWS:-"helmholtz2d:n=1000,kh=0.1;helmholtz2d:n=1000,kh=0.1,peclet=1000;convdiff2d:n=1000,peclet=10000"}
B=$OUT/carpcg_rows.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $B
IFS=';' read -ra specs <<< "$rows"
for s in "${specs[@]}"; do
  t0=$(date +%s)
  timeout "${PGK_LIMIT:-200}" build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "$s" -runs 10 -long_runs 3 \
    -row_seconds 12 -solve_seconds "${PGK_CAP:-12}" -results $OUT/res ${PGK_EXTRA:-} >> $B 2>&1
  echo "== $s: rc $? in $(( $(date +%s) - t0 )) s" >> $B
done
if [ -n "${PGK_AIJC:-}" ]; then
  timeout 200 build/bench/bench_aijcompound -use_gpu_aware_mpi 0 -matrices "$PGK_AIJC" -runs 20 -warmup 5 \
    -results $OUT/res > $OUT/aijcompound.txt 2>&1
  echo "== bench_aijcompound $PGK_AIJC: rc $?" >> $B
  grep -E "^== |met |MISSED|tuned" $OUT/aijcompound.txt | cut -c1-200
fi
grep -E "^== |CONVERGED|DIVERGED|MatMult|MISSED|met" $B | cut -c1-200
