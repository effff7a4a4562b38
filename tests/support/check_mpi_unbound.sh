#!/usr/bin/env bash
# check_run.sh starts a 2-rank job with its ranks unbound: each may run on every CPU this script
# may, not Open MPI's default of rank k on core k (which put every concurrent 2-rank test of a
# parallel ctest on the same two cores). And a command line that binds on purpose (--bind-to core,
# Open MPI) still binds, so the check can tell the two apart.
#
#   check_mpi_unbound.sh MPIEXEC [IS_OPEN_MPI]   (prints "ranks unbound" on success)
set -u
mpiexec=${1:?usage: check_mpi_unbound.sh MPIEXEC [IS_OPEN_MPI]} open_mpi=${2:-OFF}
check=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/check_run.sh
mask() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status; }
want=$(mask)
[ -n "$want" ] || { echo "FAIL: no Cpus_allowed_list in /proc/self/status (Linux only)"; exit 1; }
case $want in *,* | *-*) ;; *) echo "FAIL: this test may run on one CPU only ($want): a bound and an unbound rank look alike"; exit 1 ;; esac
# The masks of the job's ranks, one a line, as check_run.sh runs it (check_run.sh prints the output).
ranks() { "$check" -- "$mpiexec" "$@" -n 2 bash -c 'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status'; }
unset OMPI_MCA_hwloc_base_binding_policy
out=$(ranks) || { echo "FAIL: the 2-rank job failed:"; echo "$out"; exit 1; }
same=$(grep -cxF -- "$want" <<<"$out")
if [ "$same" -ne 2 ]; then
  echo "FAIL: $same of 2 ranks may use this test's CPUs ($want); the ranks' masks:"; echo "$out"; exit 1
fi
if [ "$open_mpi" = ON ]; then
  out=$(ranks --bind-to core) || { echo "FAIL: the 2-rank job with --bind-to core failed:"; echo "$out"; exit 1; }
  same=$(grep -cxF -- "$want" <<<"$out")
  if [ "$same" -ne 0 ]; then
    echo "FAIL: --bind-to core left $same of 2 ranks on every CPU ($want); the ranks' masks:"; echo "$out"; exit 1
  fi
fi
echo "ranks unbound (each on $want)"
