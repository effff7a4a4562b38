#!/usr/bin/env bash
# compare_iterations.sh judges every linear solve of a run, not only the last: fake solver
# outputs (printf) with several solves, each case with the verdict it must get.
#
#   check_compare_iterations.sh     (prints "every comparison judged right" on success)
set -u
cmp=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/compare_iterations.sh
# solver IT... : prints one -ksp_converged_reason line per count ("div" = a diverged solve), then
# SNES's verdict ("snesfail" as the last word: the nonlinear solve did not converge).
solver() {
  local it nonlinear="converged due to CONVERGED_FNORM_RELATIVE"
  for it in "$@"; do
    case $it in
      div) echo "  Linear solve did not converge due to DIVERGED_ITS iterations 10000" ;;
      snesfail) nonlinear="did not converge due to DIVERGED_LINEAR_SOLVE" ;;
      *) echo "  Linear solve converged due to CONVERGED_RTOL iterations $it" ;;
    esac
  done
  echo "Nonlinear solve $nonlinear iterations $#"
}
export -f solver
failures=0
case_() { # NAME want(pass|fail) "[--total PCT] PERCENT" "TESTED COUNTS" "BASELINE COUNTS"
  local name=$1 want=$2 out got
  # shellcheck disable=SC2086 # $3 is a list of options on purpose
  out=$("$cmp" $3 bash -c "solver $4" --- bash -c "solver $5" 2>&1) && got=pass || got=fail
  if [ "$got" = "$want" ] && { [ "$got" = fail ] || grep -q "iterations within" <<<"$out"; }; then
    echo "ok: $name: $got"
  else
    echo "FAIL: $name: $got, expected $want"; printf '%s\n' "$out" | sed 's/^/    /'; failures=$((failures + 1))
  fi
}
case_ "one solve, equal" pass 0 "12" "12"
case_ "one solve, 10% more allowed" pass 10 "11" "10"
case_ "one solve, too many" fail 10 "12" "10"
case_ "every Newton step within" pass 0 "5 7 9" "6 7 9"
case_ "only the first Newton step breaks the rule" fail 0 "9 7 9" "6 7 9"
case_ "only a middle Newton step breaks the rule" fail 10 "6 9 9" "6 7 9"
case_ "a tested solve did not converge" fail 10 "6 div 9" "6 7 9"
case_ "the tested nonlinear solve did not converge" fail 10 "6 7 snesfail" "6 7 9"
case_ "the tested run needs more solves" fail 10 "6 7 9 4" "6 7 9"
case_ "the tested run finishes in fewer solves" pass 10 "6 7" "6 7 9"
case_ "the baseline stops at an unconverged solve" pass 10 "6 7 9 4" "6 7 div snesfail"
case_ "the baseline stops, an earlier pair still breaks the rule" fail 10 "9 7 9 4" "6 7 div snesfail"
case_ "no solve reported" fail 10 "" ""
case_ "--total: each step within 30%, the sum within 0%" pass "--total 0 30" "12 10 5" "10 10 10"
case_ "--total: the sum more than the baseline's" fail "--total 0 30" "12 10 10" "10 10 10"
case_ "--total: one step more than 30%" fail "--total 0 30" "14 1 1" "10 10 10"
out=$("$cmp" 0 bash -c "solver 5 7" --- bash -c "solver 6 7")
grep -q "solve 1: 5 (tested) vs 6 (baseline)" <<<"$out" && grep -q "solve 2: 7 (tested) vs 7 (baseline)" <<<"$out" &&
  echo "ok: each solve's pair is printed" || { echo "FAIL: the pairs are not printed:"; echo "$out"; failures=$((failures + 1)); }
if [ $failures -ne 0 ]; then echo "$failures comparison(s) judged wrong"; exit 1; fi
echo "every comparison judged right"
