#!/usr/bin/env bash
# Runs two solver commands that print -ksp_converged_reason and compares their iteration
# counts solve by solve: in every linear solve the first command may need at most PERCENT%
# more iterations than the second (the baseline) in the same solve. A nonlinear solve (SNES
# ex19: one linear solve per Newton step) is judged on every step, not only the last; both
# commands must make the same number of linear solves, and every one must converge.
#
#   compare_iterations.sh PERCENT CMD_A... --- CMD_B...
set -u
pct=$1; shift
a=(); while [ $# -gt 0 ] && [ "$1" != "---" ]; do a+=("$1"); shift; done
shift
b=("$@")
# One line per linear solve: its iteration count, or "diverged:<reason>".
solves() {
  sed -n -e 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' \
    -e 's/.*Linear solve did not converge due to \([A-Z_]*\).*/diverged:\1/p'
}
out_a=$("${a[@]}" 2>&1) || { echo "$out_a"; echo "compare_iterations: first command failed"; exit 1; }
out_b=$("${b[@]}" 2>&1) || { echo "$out_b"; echo "compare_iterations: baseline command failed"; exit 1; }
mapfile -t ia < <(printf '%s\n' "$out_a" | solves)
mapfile -t ib < <(printf '%s\n' "$out_b" | solves)
printf '%s\n' "$out_a" | grep -E "petscgpukit|type: |converged|permuted|ordering|built on|coverage|paths" | awk '!seen[$0]++' | head -40
if [ ${#ia[@]} -eq 0 ] || [ ${#ib[@]} -eq 0 ]; then
  echo "compare_iterations: FAIL: no linear solve reported (${#ia[@]} tested, ${#ib[@]} baseline; is -ksp_converged_reason on?)"; exit 1
fi
status=0
if [ ${#ia[@]} -ne ${#ib[@]} ]; then
  echo "compare_iterations: FAIL: ${#ia[@]} linear solves (tested) vs ${#ib[@]} (baseline): the solves cannot be paired"; status=1
fi
n=$((${#ia[@]} < ${#ib[@]} ? ${#ia[@]} : ${#ib[@]}))
for ((k = 0; k < n; k++)); do
  x=${ia[k]} y=${ib[k]}
  if [[ $x == diverged:* || $y == diverged:* ]]; then
    echo "solve $((k + 1)): $x (tested) vs $y (baseline): FAIL: a solve did not converge"; status=1
  elif [ $((x * 100)) -le $((y * (100 + pct))) ]; then
    echo "solve $((k + 1)): $x (tested) vs $y (baseline), allowed +$pct%: ok"
  else
    echo "solve $((k + 1)): $x (tested) vs $y (baseline), allowed +$pct%: FAIL"; status=1
  fi
done
if [ $status = 0 ]; then echo "iterations within $pct% in all $n linear solves"; exit 0; fi
echo "compare_iterations: FAIL: not every linear solve is within $pct% of the baseline's"; exit 1
