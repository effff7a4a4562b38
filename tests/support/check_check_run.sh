#!/usr/bin/env bash
# check_run.sh's verdicts on fake commands and a fake GPU probe: skips with their reason, and
# failures where a skip or a pass would hide something (PGK_REQUIRE_GPU=1, valgrind's exit code
# under --fail).
#
#   check_check_run.sh      (prints "every check_run.sh verdict right" on success)
set -u
check=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/check_run.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\necho "cudaErrorNoDevice: no CUDA-capable device is detected"\nexit 1\n' >"$tmp/probe-none"
printf '#!/bin/sh\necho "1 device(s); current: Fake GPU"\n' >"$tmp/probe-one"
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/tool"
chmod +x "$tmp"/probe-* "$tmp/tool"
unset PGK_CUDA_STUB_DIR PGK_REQUIRE_GPU
failures=0
# verdict NAME WANT_RC REGEX ENV... -- CHECK_RUN_ARGS...: check_run.sh's exit code and a line of its output.
verdict() {
  local name=$1 want=$2 re=$3 envs=() out rc; shift 3
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  out=$(env ${envs[@]+"${envs[@]}"} "$check" "$@" 2>&1); rc=$?
  if [ $rc -eq "$want" ] && grep -Eq -- "$re" <<<"$out"; then echo "ok: $name: exit $rc"
  else echo "FAIL: $name: exit $rc (expected $want), output:"; sed 's/^/    /' <<<"$out"; failures=$((failures + 1)); fi
}
verdict "gpu test, no CUDA build: skip" 77 "^SKIP: this build has no CUDA kernels" -- --gpu -- true
verdict "gpu test, no CUDA build, PGK_REQUIRE_GPU=1: fail" 1 "^check_run: FAIL: this build has no CUDA kernels.*PGK_REQUIRE_GPU=1" PGK_REQUIRE_GPU=1 -- --gpu -- true
verdict "gpu test, no device: skip with the CUDA error" 77 "^SKIP: no usable CUDA device: cudaErrorNoDevice: no CUDA-capable" PGK_GPU_PROBE="$tmp/probe-none" -- --gpu -- true
verdict "gpu test, no device, PGK_REQUIRE_GPU=1: fail" 1 "^check_run: FAIL: no usable CUDA device: cudaErrorNoDevice.*PGK_REQUIRE_GPU=1" PGK_GPU_PROBE="$tmp/probe-none" PGK_REQUIRE_GPU=1 -- --gpu -- true
verdict "gpu test, device: runs" 0 "ran" PGK_GPU_PROBE="$tmp/probe-one" PGK_REQUIRE_GPU=1 -- --gpu -- echo ran
verdict "missing tool (NOTFOUND): skip" 77 "^SKIP: valgrind not found \\(cmake" -- --needs-tool valgrind PGK_VALGRIND-NOTFOUND -- true
verdict "missing tool (bogus path): skip" 77 "^SKIP: valgrind not found at /nonexistent/valgrind" -- --needs-tool valgrind /nonexistent/valgrind -- true
verdict "missing tool (empty path): skip" 77 "^SKIP: compute-sanitizer not found" -- --needs-tool compute-sanitizer -- true
verdict "missing tool, gpu test, PGK_REQUIRE_GPU=1: fail" 1 "^check_run: FAIL: compute-sanitizer not found at /nonexistent" PGK_GPU_PROBE="$tmp/probe-one" PGK_REQUIRE_GPU=1 -- --gpu --needs-tool compute-sanitizer /nonexistent/compute-sanitizer -- true
verdict "tool present: runs" 0 "ran" -- --needs-tool tool "$tmp/tool" -- "$tmp/tool" echo ran
verdict "--fail, error exit: pass" 0 "" -- --fail -- sh -c "exit 3"
verdict "--fail, exit 0: fail" 1 "expected an error" -- --fail -- true
verdict "--fail --valgrind 9, exit 3: pass" 0 "" -- --fail --valgrind 9 -- sh -c "exit 3"
verdict "--fail --valgrind 9, exit 9: fail" 1 "valgrind reported memory errors" -- --fail --valgrind 9 -- sh -c "exit 9"
verdict "--fail --valgrind 9, ERROR SUMMARY: fail" 1 "valgrind reported memory errors" -- --fail --valgrind 9 -- sh -c "echo '==42== ERROR SUMMARY: 2 errors from 1 contexts'; exit 3"
verdict "--valgrind 9, ERROR SUMMARY 0: pass" 0 "" -- --valgrind 9 -- sh -c "echo '==42== ERROR SUMMARY: 0 errors from 0 contexts'"
verdict "--fail, crash: fail" 1 "crashed" -- --fail -- sh -c 'kill -SEGV $$'
verdict "--expect / --reject" 1 "output contains /bad/" -- --expect good --reject bad -- echo good bad
if [ $failures -ne 0 ]; then echo "$failures verdict(s) wrong"; exit 1; fi
echo "every check_run.sh verdict right"
