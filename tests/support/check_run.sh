#!/usr/bin/env bash
# Runs one test command and judges it; used by every ctest entry outside the unit label.
#
#   check_run.sh [--gpu] [--fail] [--expect REGEX]... [--reject REGEX]... -- COMMAND [ARGS...]
#
#   --gpu     the test needs a CUDA device: exit 77 (ctest: skipped) with the reason when this
#             build has no CUDA kernels or the machine has no usable device
#   --fail    the command must exit non-zero (an error path); default: it must exit 0
#   --expect  an extended regular expression the output must contain (each one)
#   --reject  one it must not contain
# Crashes (signals, segmentation faults) always fail, --fail or not.
set -u
gpu=0 fail=0 expects=() rejects=()
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=1 ;;
    --fail) fail=1 ;;
    --expect) expects+=("$2"); shift ;;
    --reject) rejects+=("$2"); shift ;;
    --) shift; break ;;
    *) echo "check_run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

# A CUDA-enabled PETSc links libcuda.so.1, which only a GPU driver provides. On a machine
# without one, the test environment (and only it) resolves it to the toolkit's stub, whose
# calls all fail cleanly, so PETSc runs its CPU paths.
if [ -n "${PGK_CUDA_STUB_DIR:-}" ] && ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  export LD_LIBRARY_PATH="$PGK_CUDA_STUB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

if [ $gpu = 1 ]; then
  if [ -z "${PGK_GPU_PROBE:-}" ]; then
    echo "SKIP: this build has no CUDA kernels (PETSc without CUDA)"; exit 77
  fi
  if ! probe=$("$PGK_GPU_PROBE" 2>&1); then
    echo "SKIP: no usable CUDA device: $probe"; exit 77
  fi
fi

out=$(mktemp); trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
cat "$out"
status=0
if [ $rc -ge 128 ] || grep -Eq 'Segmentation [Vv]iolation|Caught signal|signal 11|core dumped' "$out"; then
  echo "check_run: FAIL: crashed (exit $rc)"; status=1
elif [ $fail = 0 ] && [ $rc -ne 0 ]; then
  echo "check_run: FAIL: exit code $rc, expected 0"; status=1
elif [ $fail = 1 ] && [ $rc -eq 0 ]; then
  echo "check_run: FAIL: exit code 0, expected an error"; status=1
fi
for re in ${expects[@]+"${expects[@]}"}; do
  grep -Eq -- "$re" "$out" || { echo "check_run: FAIL: output lacks /$re/"; status=1; }
done
for re in ${rejects[@]+"${rejects[@]}"}; do
  if grep -Eq -- "$re" "$out"; then echo "check_run: FAIL: output contains /$re/"; status=1; fi
done
exit $status
