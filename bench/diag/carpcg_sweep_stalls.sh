#!/bin/bash
# On the GPU node (carry ["dist"], after scripts/bundle; may follow carpcg_variants_ab.sh / carpcg_pick_variant.sh
# in the same call, which leave the bundle's build as the picked variant): where carp's block sweep waits, by
# instruction. ncu profiles one block_sweep_kernel launch of a carp solve on fem2d (PGK_GEN, default
# fem2d:n=1001: 1M rows, one CUDA-block wave) with the WarpStateStats, SourceCounters, Occupancy, LaunchStats and
# SpeedOfLight sections and the per-reason stall ratios, keeps the report, and prints the SASS lines with the most
# stall samples and each one's leading reasons. Why: at 704528a the sweep took 9.0 of 15.3 cycles an instruction
# on L1TEX with 24 warps an SM; fa98412 fits 32 and took 25% off the iteration at 1M, but which loads the rows'
# chain waits for (the row's index, bounds, entries, the copy) decides what comes next. About a minute.
# Results: $OUT/sweep_stalls.txt, $OUT/sweep_stalls.ncu-rep, $OUT/sweep_source.csv. Forty-eighth session.
export OUT
[ -d /tmp/r/petscgpukit-bundle/build ] || { scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
T=$OUT/sweep_stalls.txt
# --cache-control none and --clock-control none: the caches and clocks of a solve; launch 20: after the warm-up.
"$ncu" --clock-control none --cache-control none -k regex:block_sweep --launch-skip 20 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --section Occupancy --section LaunchStats --section SpeedOfLight \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' --import-source no \
  -o "$OUT/sweep_stalls" -f build/tests/test_solve_generated -use_gpu_aware_mpi 0 -gen "${PGK_GEN:-fem2d:n=1001}" \
  -mat_type aijcusparse -ksp_type carpcg -ksp_carpcg_scheme carp -ksp_max_it 40 > "$OUT/sweep_ncu.log" 2>&1
rc=$?
{
echo "ncu rc $rc ($(sha256sum source/kernels/carpcg/sweeps.cu))"
"$ncu" -i "$OUT/sweep_stalls.ncu-rep" --page details 2>&1
echo "## stall reasons, warps an issued instruction"
"$ncu" -i "$OUT/sweep_stalls.ncu-rep" --page raw --csv 2> /dev/null | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
if len(rows) < 3: sys.exit("no raw page")
head, vals = rows[0], rows[2]
pairs = [(h.split("stalled_")[1].split("_per_issue")[0], v) for h, v in zip(head, vals) if "issue_stalled_" in h]
for name, v in sorted(pairs, key=lambda p: -float(p[1].replace(",", "") or 0))[:14]: print(f"  {name:28s} {v}")
' 2>&1
"$ncu" -i "$OUT/sweep_stalls.ncu-rep" --page source --print-source sass --csv > "$OUT/sweep_source.csv" 2> "$OUT/sweep_source.err"
echo "## SASS lines with the most warp stall samples (--page source)"
python3 - "$OUT/sweep_source.csv" 2>&1 <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
hi = next((i for i, r in enumerate(rows) if any("Source" == c.strip() for c in r)), None)
if hi is None: sys.exit("no source table: " + " | ".join(rows[0][:8]) if rows else "empty")
head = [c.strip() for c in rows[hi]]; body = rows[hi + 1:]
src = head.index("Source")
samp = next(i for i, c in enumerate(head) if c.startswith("Warp Stall Sampling (All"))
reasons = [i for i, c in enumerate(head) if c.startswith("stall_") or c.startswith("smsp__pcsamp_warps_issue_stalled")]
num = lambda s: float(s.replace(",", "") or 0) if s.replace(",", "").replace(".", "", 1).isdigit() else 0.0
total = sum(num(r[samp]) for r in body if len(r) > samp)
print(f"{len(body)} SASS lines, {total:.0f} samples")
for r in sorted(body, key=lambda r: -num(r[samp]) if len(r) > samp else 0)[:40]:
    top = sorted(((num(r[i]), head[i]) for i in reasons if i < len(r)), reverse=True)[:3]
    print(f"{num(r[samp]) / max(total, 1):6.1%}  {r[src].strip()[:70]:70s}  " + ", ".join(f"{n.replace('stall_', '')} {v:.0f}" for v, n in top if v))
PY
} > "$T"
tail -60 "$T"
