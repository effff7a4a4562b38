#!/usr/bin/env bash
# Runs two solver commands that print -ksp_converged_reason and compares their iteration
# counts: the first may need at most PERCENT% more iterations than the second (the baseline).
#
#   compare_iterations.sh PERCENT CMD_A... --- CMD_B...
set -u
pct=$1; shift
a=(); while [ $# -gt 0 ] && [ "$1" != "---" ]; do a+=("$1"); shift; done
shift
b=("$@")
its() { sed -n 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' | tail -1; }
out_a=$("${a[@]}" 2>&1) || { echo "$out_a"; echo "compare_iterations: first command failed"; exit 1; }
out_b=$("${b[@]}" 2>&1) || { echo "$out_b"; echo "compare_iterations: baseline command failed"; exit 1; }
ia=$(printf '%s\n' "$out_a" | its); ib=$(printf '%s\n' "$out_b" | its)
printf '%s\n' "$out_a" | grep -E "petscgpukit|type: |converged|permuted|ordering|built on|coverage|paths" | awk '!seen[$0]++' | head -40
if [ -z "$ia" ] || [ -z "$ib" ]; then echo "compare_iterations: a solve did not converge (its: '$ia' vs '$ib')"; exit 1; fi
echo "iterations: $ia (tested) vs $ib (baseline), allowed +$pct%"
if [ $((ia * 100)) -le $((ib * (100 + pct))) ]; then echo "iterations within $pct%"; exit 0; fi
echo "compare_iterations: FAIL: $ia > $ib + $pct%"; exit 1
