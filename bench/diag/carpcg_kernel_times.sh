#!/bin/bash
# Run once in the twenty-ninth session in another form (bench/results/ncu_carpcg_iteration_kernels_ea26bf0_h200.txt); about 2 minutes on one H200: where a multicolor
# carpcg iteration at 361k rows (0.146-0.153 ms at 67fbceb, 6.3 MatMults) goes. ncu times every kernel of
# about five iterations on its own (gpu__time_duration, serialized, clocks as they run); their sum per
# iteration is the device's busy time, and the rest of the 0.15 ms is launch gaps and the host's sync
# for the dots. Decides whether the next step is the CG updates on device scalars in the graph (gaps)
# or faster colour kernels (busy). nsys is not usable on these machines (KINDS.md).
#   run: bash bench/diag/carpcg_kernel_times.sh   (carry ["dist"], after scripts/bundle)
# Forty-seventh session: PGK_SCHEMES (default multicolor; e.g. "carp cimmino"), PGK_GEN (default fem2d:n=601) and
# PGK_MAX_IT (default 25; carp's ~12 kernels an iteration need about 40 to reach the 330th launch) choose the solve;
# the graph on/off pair runs for multicolor only (the option is multicolor's).
export OUT
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for scheme in ${PGK_SCHEMES:-multicolor}; do
graphs="1 0"; [ "$scheme" = multicolor ] || graphs=0
for g in $graphs; do
  tag=$scheme.graph$g; [ "$scheme" = multicolor ] && tag=graph$g
  # test_solve_generated, not bench_carpcg: under ncu bench_carpcg's MatMult timing takes ~200 ms a call and its capped
  # solve ends before the skipped launches (twenty-ninth session). --cache-control none: warm L2, as in a solve (the
  # default flushes the caches before every kernel: 162 us of kernels an iteration against a 149 us iteration).
  "$ncu" --clock-control none --cache-control none --launch-skip 200 --launch-count 130 --metrics gpu__time_duration.sum --csv \
    build/tests/test_solve_generated -use_gpu_aware_mpi 0 -gen "${PGK_GEN:-fem2d:n=601}" -mat_type aijcusparse -ksp_type carpcg \
    -ksp_carpcg_scheme "$scheme" -ksp_max_it "${PGK_MAX_IT:-25}" -ksp_carpcg_graph "$g" > "$OUT/ncu_$tag.csv" 2> "$OUT/ncu_$tag.err"
  # Per kernel name: launches and total us per iteration (one dots_final_kernel an iteration).
  python3 - "$OUT/ncu_$tag.csv" <<'PY'
import csv, sys, collections, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; rows = rows[1:]
k, m, v, u = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value"), head.index("Metric Unit")
tot = collections.defaultdict(float); cnt = collections.Counter()
for r in rows:
    if r[m] != "gpu__time_duration.sum": continue
    t = float(r[v].replace(",", "")) * {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}[r[u]]
    found = re.findall(r"([A-Za-z_]\w*)(?:<[^()]*>)?\(", r[k])
    name = (found[0] if found else r[k])[-40:]; tot[name] += t; cnt[name] += 1
its = max(1, cnt.get("dots_final_kernel", 0))
print(f"{sys.argv[1]}: {sum(cnt.values())} kernels, about {its:.1f} iterations")
for name in sorted(tot, key=lambda n: -tot[n]):
    print(f"  {name:42s} {cnt[name]:4d} launches {tot[name]:9.1f} us total {tot[name] / its:8.2f} us an iteration")
print(f"  busy an iteration: {sum(tot.values()) / its:.1f} us")
PY
done
done
