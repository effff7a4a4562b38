# Shared helpers for the petscgpukit scripts. Source it; do not run it.
# Every step runs with its output in a log file; a failure names the step and the log.

PGK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PGK_CACHE=${PGK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petscgpukit}
PGK_LOGDIR=${PGK_LOGDIR:-$PGK_CACHE/logs}
mkdir -p "$PGK_CACHE" "$PGK_LOGDIR"

pgk_say() { printf '[petscgpukit] %s\n' "$*" >&2; }

pgk_die() { pgk_say "ERROR: $*"; exit 1; }

# pgk_step NAME CMD...: run CMD with stdout+stderr in $PGK_LOGDIR/NAME.log.
pgk_step() {
  local name=$1; shift
  local log="$PGK_LOGDIR/$name.log"
  pgk_say "step '$name' (log: $log)"
  if ! "$@" >"$log" 2>&1; then
    pgk_say "step '$name' FAILED; last lines of $log:"
    tail -n 25 "$log" >&2
    pgk_die "step '$name' failed; full log: $log"
  fi
}

pgk_as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Run as root (the CI and dev machines); OpenMPI refuses root without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# A CUDA-enabled PETSc links libcuda.so.1, which only a GPU driver installs. Without any
# driver, resolve it to the toolkit's stub (every call fails cleanly, so PETSc runs on the
# CPU); the decision is tests/support/cuda_stub.sh's, shared with the test environment.
. "$PGK_ROOT/tests/support/cuda_stub.sh"
pgk_use_cuda_stub_if_no_driver() { pgk_use_cuda_stub "$1/cuda-stub"; }

# Stock OpenMPI is not GPU-aware, and PETSc then refuses GPU runs unless told
# -use_gpu_aware_mpi 0. Add that to PETSC_OPTIONS when ompi_info reports no CUDA support.
pgk_gpu_aware_mpi_option() {
  if command -v ompi_info >/dev/null && ! ompi_info --parsable --all 2>/dev/null | grep -q 'mpi_built_with_cuda_support:value:true'; then
    case " ${PETSC_OPTIONS:-} " in *use_gpu_aware_mpi*) ;; *) export PETSC_OPTIONS="${PETSC_OPTIONS:-} -use_gpu_aware_mpi 0" ;; esac
  fi
}
