#!/bin/bash
# trilf's apply with each scan's carry fix read where the next pass loads the row ("fused": the
# forward's in the backward scan's loads, the backward's in the final gather, five kernels an apply
# instead of seven; bench/diag/trilf_apply_fused_fix.patch), with only the forward's fused
# ("forward": trilf_apply_fused_fix_forward.patch, six kernels), against main's fix-up kernels
# ("fixup"). All three give the same bits. The bundle must hold main with the fused patch applied
# (a scratch commit; bundle it from a worktree). One call: the bundle's set-up, the gpu label's
# trilf tests unless TESTS=0, then bench_trilf on issue 15's three 4.2M rows (-solves 0 -kernels 0,
# median of 10 after 2) for fused, fixup, forward, forward, fixup, fused (or $SEQUENCE; each switch takes the
# current patch off the node's sources, puts the next one on and rebuilds incrementally), then
# ANISO2 with CG (jacobi, trilf fused; SOLVE_RUNS timed solves, default 3; 0 skips it). On a GPU
# node from the repository root with dist/ carried: TESTS=0 bash bench/diag/trilf_fused_fix_ab.sh.
# Output under $OUT; about 8 minutes.
set -u
diag=$PWD/bench/diag
for p in trilf_apply_fused_fix.patch trilf_apply_fused_fix_forward.patch; do
  [ -f "$diag/$p" ] || { echo "no $diag/$p" >&2; exit 2; }
done
# shellcheck source=bench/diag/trilf_ab_common.sh
. bench/diag/trilf_ab_common.sh
trilf_tests
patch_of() { # variant -> its patch against main (none for fixup)
  case $1 in
    fused) echo "$diag/trilf_apply_fused_fix.patch" ;;
    forward) echo "$diag/trilf_apply_fused_fix_forward.patch" ;;
  esac
}
current=fused
switch_to() { # fused | forward | fixup: the node's sources and build
  local from to
  from=$(patch_of "$current") to=$(patch_of "$1")
  if [ -n "$from" ]; then (cd source && git apply -R "$from") || { echo "taking $current off failed" >&2; exit 3; }; fi
  if [ -n "$to" ]; then (cd source && git apply "$to") || { echo "putting $1 on failed" >&2; exit 3; }; fi
  current=$1
  cmake --build build -j16 >"$out/rebuild_$1.log" 2>&1 || { tail -20 "$out/rebuild_$1.log"; exit 3; }
  echo "now $1 at $(($(date +%s) - t0)) s; apply_scan.cu $(sha256sum source/kernels/trilf/apply_scan.cu | cut -c1-16)"
}
rows() { # variant round
  # shellcheck disable=SC2086 # BENCH_ARGS is a word list
  trilf_rows ${BENCH_ARGS:-} >"$out/bench_$1_$2.txt" 2>&1
  echo "$1 round $2 rc=$? at $(($(date +%s) - t0)) s"
  grep -E "MatMult 0|^  trilf  " "$out/bench_$1_$2.txt"
}
echo "fused at start; apply_scan.cu $(sha256sum source/kernels/trilf/apply_scan.cu | cut -c1-16)"
# SEQUENCE: the variants in order (the bundle's is fused; end on the variant to keep on the node);
# BENCH_ARGS: more bench_trilf options (e.g. -configs trilf for the scalar variant only).
declare -A round
for v in ${SEQUENCE:-fused fixup forward forward fixup fused}; do
  [ "$v" = "$current" ] || switch_to "$v"
  round[$v]=$((${round[$v]:-0} + 1))
  rows "$v" "${round[$v]}"
done
[ "${SOLVE_RUNS:-3}" != 0 ] || exit 0
build/bench/bench_trilf -matrices "aniso2d:n=2500,variant=2|cg" -kernels 0 -runs 10 -warmup 2 -use_gpu_aware_mpi 0 \
  -configs jacobi,trilf -solve_runs "${SOLVE_RUNS:-3}" >"$out/bench_aniso2_cg_fused.txt" 2>&1
echo "ANISO2 with CG (fused) rc=$? at $(($(date +%s) - t0)) s"
grep -E "MatMult 0|^  trilf  |^  (jacobi|trilf) |best trilf" "$out/bench_aniso2_cg_fused.txt"
