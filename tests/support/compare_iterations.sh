#!/usr/bin/env bash
# Runs two solver commands that print -ksp_converged_reason and compares their iteration
# counts solve by solve: in every linear solve the first command (tested) may need at most
# PERCENT% more iterations than the second (the baseline) in the same solve. A nonlinear solve
# (SNES ex19: one linear solve per Newton step) is judged on every step, not only the last.
#
#   compare_iterations.sh [--total TOTAL_PERCENT] PERCENT CMD_A... --- CMD_B...
#
#   --total   also: the tested run's iterations summed over all solves may be at most
#             TOTAL_PERCENT% more than the baseline's sum
# Every tested solve must converge. A baseline solve that did not converge counts as beaten by
# a tested solve that did; the baseline's run stops there (SNES gives up), so tested solves
# after it have no pair. The tested run may also finish in fewer solves (fewer Newton steps);
# any other difference in the number of solves fails.
set -u
total_pct=""
if [ "${1-}" = --total ]; then total_pct=$2; shift 2; fi
pct=$1; shift
a=(); while [ $# -gt 0 ] && [ "$1" != "---" ]; do a+=("$1"); shift; done
shift
b=("$@")
# One line per linear solve: its iteration count, or "diverged:<reason>".
solves() {
  # (a KSP with an options prefix prints "Linear <prefix> solve ...")
  sed -n -e 's/.*Linear \([A-Za-z0-9_]* \)\{0,1\}solve converged due to [A-Z_]* iterations \([0-9]*\).*/\2/p' \
    -e 's/.*Linear \([A-Za-z0-9_]* \)\{0,1\}solve did not converge due to \([A-Z_]*\).*/diverged:\2/p'
}
out_a=$("${a[@]}" 2>&1) || { echo "$out_a"; echo "compare_iterations: first command failed"; exit 1; }
out_b=$("${b[@]}" 2>&1) || { echo "$out_b"; echo "compare_iterations: baseline command failed"; exit 1; }
mapfile -t ia < <(printf '%s\n' "$out_a" | solves)
mapfile -t ib < <(printf '%s\n' "$out_b" | solves)
printf '%s\n' "$out_a" | grep -E "petscgpukit|type: |converged|permuted|ordering|built on|coverage|paths|device|operator: " | awk '!seen[$0]++' | head -40
if [ ${#ia[@]} -eq 0 ] || [ ${#ib[@]} -eq 0 ]; then
  echo "compare_iterations: FAIL: no linear solve reported (${#ia[@]} tested, ${#ib[@]} baseline; is -ksp_converged_reason on?)"; exit 1
fi
status=0 sum_a=0 sum_b=0 baseline_diverged=0
na=${#ia[@]} nb=${#ib[@]}
for ((k = 0; k < (na > nb ? na : nb); k++)); do
  x=${ia[k]-} y=${ib[k]-}
  pair="solve $((k + 1)): ${x:-none} (tested) vs ${y:-none} (baseline)"
  if [[ $x == diverged:* ]]; then
    echo "$pair: FAIL: the tested solve did not converge"; status=1
  elif [ -z "$x" ]; then
    echo "$pair: ok (the tested run finished in fewer solves)"
  elif [ -z "$y" ]; then
    if [ $baseline_diverged = 1 ]; then echo "$pair: ok (the baseline stopped at its unconverged solve)"
    else echo "$pair: FAIL: the tested run needs more solves than the baseline"; status=1; fi
  elif [[ $y == diverged:* ]]; then
    echo "$pair: ok (the baseline did not converge)"; baseline_diverged=1
  elif [ $((x * 100)) -le $((y * (100 + pct))) ]; then
    echo "$pair, allowed +$pct%: ok"
  else
    echo "$pair, allowed +$pct%: FAIL"; status=1
  fi
  [[ $x =~ ^[0-9]+$ ]] && sum_a=$((sum_a + x))
  [[ $y =~ ^[0-9]+$ ]] && sum_b=$((sum_b + y))
done
if printf '%s\n' "$out_a" | grep -q "Nonlinear solve did not converge"; then
  echo "compare_iterations: FAIL: the tested nonlinear solve did not converge"; status=1
fi
if [ -n "$total_pct" ]; then
  if [ $baseline_diverged = 1 ]; then
    echo "total: $sum_a (tested) vs $sum_b (baseline, which did not converge every solve): ok"
  elif [ $((sum_a * 100)) -le $((sum_b * (100 + total_pct))) ]; then
    echo "total: $sum_a (tested) vs $sum_b (baseline), allowed +$total_pct%: ok"
  else
    echo "total: $sum_a (tested) vs $sum_b (baseline), allowed +$total_pct%: FAIL"; status=1
  fi
fi
if [ $status = 0 ]; then
  note=${total_pct:+, within $total_pct% in total}
  [ $baseline_diverged = 0 ] || note=", the baseline did not converge every solve"
  echo "iterations within $pct% in every linear solve (${#ia[@]} tested, ${#ib[@]} baseline)$note"
  exit 0
fi
echo "compare_iterations: FAIL: a linear solve breaks the rule (above)"; exit 1
