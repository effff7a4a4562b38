# Whether to resolve libcuda.so.1 to the CUDA toolkit's stub. Source it; do not run it.
# Used by tests/support/check_run.sh, scripts/common.sh (scripts/demo) and tested by
# tests/support/check_cuda_stub_decision.sh.
#
# A CUDA-enabled PETSc links libcuda.so.1, which only a GPU driver installs. On a machine
# without a driver the stub lets the programs start (every CUDA call then fails cleanly and
# PETSc runs its CPU paths). The stub must never shadow a real driver, and GPU nodes do not
# always list theirs in the ldconfig cache (containers mount it read-only, e.g. at
# /usr/local/nvidia/lib64 reached through LD_LIBRARY_PATH). So the stub is used only when no
# real libcuda.so.1 is found anywhere the dynamic loader or a driver install would put it AND
# there is no /dev/nvidiactl (the driver's control node: a driver is there even if its library
# was not found).
#
# Knobs (for the test; defaults are the real system):
#   PGK_LDCONFIG           command that prints the loader cache (default: ldconfig)
#   PGK_DRIVER_DIRS        folders a driver installs libcuda.so.1 into (space separated)
#   PGK_NVIDIACTL          the driver's control node (default /dev/nvidiactl)

PGK_DEFAULT_DRIVER_DIRS="/usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /lib/x86_64-linux-gnu /lib64 /usr/lib/wsl/lib /run/nvidia/driver/usr/lib/x86_64-linux-gnu"

# _pgk_is_real_libcuda FILE: FILE exists and is not a toolkit stub (stubs live in a folder
# named "stubs" of the toolkit; build/cuda-stub/libcuda.so.1 is a link to one).
_pgk_is_real_libcuda() {
  local target
  [ -e "$1" ] || return 1
  target=$(readlink -f "$1" 2>/dev/null) || target=$1
  case "$target" in */stubs/*) return 1 ;; esac
  return 0
}

# pgk_find_real_libcuda: prints the first real libcuda.so.1 found and returns 0; returns 1
# when there is none.
pgk_find_real_libcuda() {
  local ldconfig=${PGK_LDCONFIG:-}
  if [ -z "$ldconfig" ]; then
    ldconfig=$(command -v ldconfig 2>/dev/null || true)
    [ -n "$ldconfig" ] || { [ -x /sbin/ldconfig ] && ldconfig=/sbin/ldconfig; }
  fi
  local path dir
  if [ -n "$ldconfig" ]; then
    # Lines look like "	libcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1".
    while read -r path; do
      if _pgk_is_real_libcuda "$path"; then echo "$path"; return 0; fi
    done < <($ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libcuda\.so\.1 .*=> *//p')
  fi
  local IFS=:
  for dir in ${LD_LIBRARY_PATH:-}; do
    [ -n "$dir" ] || continue
    if _pgk_is_real_libcuda "$dir/libcuda.so.1"; then echo "$dir/libcuda.so.1"; return 0; fi
  done
  IFS=' '
  for dir in ${PGK_DRIVER_DIRS-$PGK_DEFAULT_DRIVER_DIRS}; do
    if _pgk_is_real_libcuda "$dir/libcuda.so.1"; then echo "$dir/libcuda.so.1"; return 0; fi
  done
  return 1
}

# pgk_cuda_stub_needed: returns 0 when the stub must be used (no driver at all).
pgk_cuda_stub_needed() {
  [ -e "${PGK_NVIDIACTL:-/dev/nvidiactl}" ] && return 1
  pgk_find_real_libcuda >/dev/null && return 1
  return 0
}

# pgk_use_cuda_stub STUB_DIR: put STUB_DIR (holding libcuda.so.1) first in LD_LIBRARY_PATH
# when pgk_cuda_stub_needed (and set PGK_CUDA_STUB_IN_USE to it); otherwise leave the
# environment alone. An empty STUB_DIR or one without libcuda.so.1 does nothing.
pgk_use_cuda_stub() {
  local stub=${1:-}
  [ -n "$stub" ] && [ -e "$stub/libcuda.so.1" ] || return 0
  case ":${LD_LIBRARY_PATH:-}:" in *":$stub:"*) return 0 ;; esac # already there
  if pgk_cuda_stub_needed; then
    export LD_LIBRARY_PATH="$stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    PGK_CUDA_STUB_IN_USE=$stub # for messages: why CUDA calls fail
  fi
  return 0
}
