#!/usr/bin/env bash
# Runs one test command and judges it; used by every ctest entry outside the unit label.
#
#   check_run.sh [--gpu | --no-gpu] [--fail] [--needs-tool NAME PATH]... [--valgrind CODE]
#                [--expect REGEX]... [--reject REGEX]... -- COMMAND [ARGS...]
#
#   --gpu         the test needs a CUDA device: exit 77 (ctest: skipped) with the reason when
#                 this build has no CUDA kernels or the machine has no usable device
#   --no-gpu      the test is about a run without a CUDA device (its error path): exit 77 with
#                 the reason where a usable device is present
#   --needs-tool  the command needs the program NAME found at PATH (cmake's find_program
#                 result, "NAME-NOTFOUND" when it is missing): exit 77 with the reason when PATH
#                 is not an executable file
#   --fail        the command must exit non-zero (an error path); default: it must exit 0
#   --valgrind    the command runs under valgrind --error-exitcode=CODE: exit code CODE or a
#                 non-zero "ERROR SUMMARY" is a memory error and fails the test, --fail or not
#   --expect      an extended regular expression the output must contain (each one)
#   --reject      one it must not contain
# Crashes (signals, segmentation faults) always fail, --fail or not.
#
# PGK_REQUIRE_GPU=1 (set by scripts/run-on-gpu-node): a --gpu test that would be skipped fails
# instead, so that a GPU node cannot pass by skipping.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gpu=0 no_gpu=0 fail=0 valgrind_code="" expects=() rejects=() tools=()
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=1 ;;
    --no-gpu) no_gpu=1 ;;
    --fail) fail=1 ;;
    --needs-tool) # NAME PATH; an empty PATH that vanished from the list must not eat the "--"
      if [ "${3-}" = -- ]; then tools+=("$2" ""); shift; else tools+=("$2" "${3-}"); shift 2; fi ;;
    --valgrind) valgrind_code=$2; shift ;;
    --expect) expects+=("$2"); shift ;;
    --reject) rejects+=("$2"); shift ;;
    --) shift; break ;;
    *) echo "check_run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

# A CUDA-enabled PETSc links libcuda.so.1, which only a GPU driver provides. On a machine
# without any driver, the test environment (and only it) resolves it to the toolkit's stub,
# whose calls all fail cleanly, so PETSc runs its CPU paths (cuda_stub.sh says when).
. "$here/cuda_stub.sh"
pgk_use_cuda_stub "${PGK_CUDA_STUB_DIR:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Open MPI 4 makes its session directory /tmp/ompi.<host>.<uid> at every launch (mpiexec or a
# singleton) and aborts in orte_init ("mkdir ... File exists") when two launches race to create
# it; ctest -j runs launches side by side (two clean-clone CI runs failed one test each that way).
# Each test gets a base of its own, short enough for Open MPI's socket paths, unless one is set.
ompi_tmp=""
if [ -z "${OMPI_MCA_orte_tmpdir_base:-}" ] && ompi_tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgk-ompi.XXXXXX"); then
  export OMPI_MCA_orte_tmpdir_base=$ompi_tmp
fi
trap '[ -n "$ompi_tmp" ] && rm -rf "$ompi_tmp"' EXIT

# Why this test cannot run here (empty: it can).
reasons=()
for ((i = 0; i < ${#tools[@]}; i += 2)); do
  name=${tools[i]} path=${tools[i + 1]}
  if [ -z "$path" ] || [[ $path == *-NOTFOUND ]]; then
    reasons+=("$name not found (cmake's find_program found none; install it or set its path at configure time)")
  elif [ ! -x "$path" ] || [ -d "$path" ]; then
    reasons+=("$name not found at $path")
  fi
done
if [ $gpu = 1 ]; then
  if [ -z "${PGK_GPU_PROBE:-}" ]; then
    reasons+=("this build has no CUDA kernels (PETSc without CUDA)")
  elif ! probe=$("$PGK_GPU_PROBE" 2>&1); then
    reasons+=("no usable CUDA device: $probe${PGK_CUDA_STUB_IN_USE:+ [no libcuda.so.1 driver library or /dev/nvidiactl found, so the CUDA toolkit stub is in use]}")
  fi
fi
if [ $no_gpu = 1 ] && [ -n "${PGK_GPU_PROBE:-}" ] && "$PGK_GPU_PROBE" >/dev/null 2>&1; then
  reasons+=("a usable CUDA device is present, and this test checks a run without one")
fi
if [ ${#reasons[@]} -gt 0 ]; then
  reason=$(printf '%s; ' "${reasons[@]}"); reason=${reason%; }
  if [ $gpu = 1 ] && [ "${PGK_REQUIRE_GPU:-0}" = 1 ]; then
    echo "check_run: FAIL: $reason (PGK_REQUIRE_GPU=1: a GPU node must run every GPU test)"; exit 1
  fi
  echo "SKIP: $reason"; exit 77
fi

# A 2-rank test runs on a pair of CPUs of its own where this test may use 4 or more: Open MPI binds
# the ranks of a job of at most 2 ranks rank k to core k, and each mpiexec of a parallel ctest does
# so on its own, so every 2-rank test running at once shared cores 0 and 1 of a 16-core GPU node,
# busy-polling there (SNES ex19 on 2 ranks: 247 s there, 16 s on this project's 2-core CI machine).
# Unbound ranks are worse: a job's two ranks then share a core whenever the machine is busy, and
# each reduction waits for a time slice (the same test beside one busy process on 2 cores: 414 s
# unbound, 25 s bound). So the test takes the first free pair (a lock file a pair, held while it
# runs) and a rankfile binds rank 0 to its first CPU and rank 1 to its second. Not for jobs of other
# sizes (Open MPI binds those to sockets), nor with fewer than 4 CPUs, every pair taken or no flock:
# Open MPI's own binding then, as with PGK_MPI_PAIRS=0. check_mpi_pairs.sh checks it.
pgk_cpus() { # the CPUs this process may run on, one a line
  local list range
  list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)
  for range in ${list//,/ }; do
    if [[ $range == *-* ]]; then seq "${range%-*}" "${range#*-}"; else echo "$range"; fi
  done
}
pgk_two_rank_jobs_only() { # each mpiexec or mpirun in the command line is followed by -n 2 (or -np 2)
  local arg launchers=0 counted=0 want_count=0
  for arg in "$@"; do
    if [ $want_count = 1 ]; then [ "$arg" = 2 ] || return 1; want_count=0 counted=$((counted + 1)); continue; fi
    case ${arg##*/} in
      mpiexec | mpirun) [ $counted = $launchers ] || return 1; launchers=$((launchers + 1)) ;;
      -n | -np) [ $counted -lt $launchers ] && want_count=1 ;; # the launcher's, not its program's
    esac
  done
  [ $launchers -gt 0 ] && [ $counted = $launchers ] && [ $want_count = 0 ]
}
pair_locks=${TMPDIR:-/tmp}/pgk-cpu-pairs-$(id -u) # one lock file a pair, shared by every test of this user
if [ "${PGK_MPI_PAIRS:-1}" != 0 ] && [ -z "${OMPI_MCA_rmaps_rank_file_path:-}" ] && [ -n "$ompi_tmp" ] &&
  pgk_two_rank_jobs_only "$@" && command -v flock >/dev/null && mkdir -p "$pair_locks" 2>/dev/null; then
  mapfile -t cpus < <(pgk_cpus)
  for ((k = 0; ${#cpus[@]} >= 4 && k + 1 < ${#cpus[@]}; k += 2)); do
    exec {pair_lock}>"$pair_locks/${cpus[k]}-${cpus[k + 1]}" || continue
    if flock -n "$pair_lock"; then
      printf 'rank 0=localhost slot=%s\nrank 1=localhost slot=%s\n' "${cpus[k]}" "${cpus[k + 1]}" >"$ompi_tmp/rankfile"
      export OMPI_MCA_rmaps_rank_file_path=$ompi_tmp/rankfile OMPI_MCA_rmaps_rank_file_physical=1
      break
    fi
    exec {pair_lock}>&-
  done
fi

out=$(mktemp); trap 'rm -f "$out"; [ -n "$ompi_tmp" ] && rm -rf "$ompi_tmp"' EXIT
"$@" >"$out" 2>&1
rc=$?
cat "$out"
status=0
if [ $rc -ge 128 ] || grep -Eq 'Segmentation [Vv]iolation|Caught signal|signal 11|core dumped' "$out"; then
  echo "check_run: FAIL: crashed (exit $rc)"; status=1
elif [ -n "$valgrind_code" ] && { [ $rc -eq "$valgrind_code" ] || grep -Eq '^==[0-9]+== ERROR SUMMARY: [1-9]' "$out"; }; then
  # Before the --fail judgement: an error path that corrupts memory is a failure too.
  echo "check_run: FAIL: valgrind reported memory errors (exit $rc; valgrind's error exit code is $valgrind_code)"; status=1
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
