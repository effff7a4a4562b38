#!/usr/bin/env bash
# Proves that check_run.sh --valgrind fails an error-path test (--fail) whose program has a
# memory error: runs pgk-planted-memory-error under valgrind through check_run.sh
#   clean   with --fail --valgrind: must pass (the error path itself is fine)
#   planted with --fail --valgrind: must FAIL with "valgrind reported memory errors"
#   planted with --fail only:       passes (the hole --valgrind closes; shows the plant works)
#
#   check_valgrind_planted.sh CHECK_RUN VALGRIND ERROR_CODE PROGRAM
# Exit 77 (skipped) with check_run.sh's reason where valgrind is missing.
set -u
check=$1 vg=$2 code=$3 prog=$4
vgcmd=("$vg" -q "--error-exitcode=$code" "$prog")
run() { # EXPECTED_RC LABEL CHECK_RUN_ARGS... -- COMMAND...
  local want=$1 label=$2; shift 2
  local out rc
  out=$("$check" "$@" 2>&1); rc=$?
  printf '%s\n' "$out" | sed "s/^/  [$label] /"
  if [ $rc -eq 77 ]; then printf "%s\n" "$out" | grep -m1 "^SKIP:"; exit 77; fi
  if [ $rc -ne "$want" ]; then echo "FAIL: $label: check_run.sh exited $rc, expected $want"; exit 1; fi
  last_out=$out
}
run 0 clean --needs-tool valgrind "$vg" --valgrind "$code" --fail --expect "clean error path" -- "${vgcmd[@]}" clean
run 1 planted --needs-tool valgrind "$vg" --valgrind "$code" --fail --expect "planted error path" -- "${vgcmd[@]}" planted
printf '%s\n' "$last_out" | grep -q "check_run: FAIL: valgrind reported memory errors" ||
  { echo "FAIL: the planted run failed for another reason than valgrind's report"; exit 1; }
printf '%s\n' "$last_out" | grep -q "Invalid read" || { echo "FAIL: valgrind did not report the planted invalid read"; exit 1; }
run 0 "planted, no --valgrind" --needs-tool valgrind "$vg" --fail -- "${vgcmd[@]}" planted
echo "planted memory error caught: check_run.sh --valgrind fails an error path with a memory error"
