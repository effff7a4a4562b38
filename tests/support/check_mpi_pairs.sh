#!/usr/bin/env bash
# How check_run.sh places the ranks of 2-rank jobs: each rank bound to one CPU, the two ranks on
# different CPUs; where this test may use 4 or more CPUs, two jobs running at once on 4 different
# CPUs (a pair each; Open MPI alone puts every such job on cores 0 and 1); a job of 3 ranks left to
# Open MPI (a 2-rank placement would make it fail); --bind-to core on a command line still one CPU a
# rank.
#
#   check_mpi_pairs.sh MPIEXEC   (prints "ranks placed in pairs" or "ranks bound ..." on success)
set -u
mpiexec=${1:?usage: check_mpi_pairs.sh MPIEXEC}
check=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/check_run.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mask='sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status'
allowed=$(eval "$mask")
[ -n "$allowed" ] || { echo "FAIL: no Cpus_allowed_list in /proc/self/status (Linux only)"; exit 1; }
ncpus=$(nproc)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# one_cpu_each FILE WHAT: FILE holds a job's rank masks; each a single CPU, all different.
one_cpu_each() {
  local n distinct
  n=$(grep -c . "$1") distinct=$(sort -u "$1" | grep -c .)
  if [ "$n" -ne 2 ] || grep -q '[,-]' "$1" || [ "$distinct" -ne 2 ]; then fail "$2: the ranks' masks are not two different single CPUs:" "$(tr '\n' ' ' <"$1")"; fi
}
# Two 2-rank jobs at once (the first holds its CPUs for 3 s, so the second starts while it runs).
# Where there are 4 or more CPUs they must get 4 different ones. A parallel ctest may hold every
# free pair for a moment (a job then gets Open MPI's binding, cores 0 and 1, by design), so up to 3
# attempts; under Open MPI's binding alone every attempt gives both jobs the same two CPUs.
for attempt in 1 2 3; do
  "$check" -- "$mpiexec" -n 2 bash -c "$mask; sleep 3" >"$tmp/a" 2>&1 &
  sleep 1
  "$check" -- "$mpiexec" -n 2 bash -c "$mask" >"$tmp/b" 2>&1 || fail "the second 2-rank job failed: $(cat "$tmp/b")"
  wait $! || fail "the first 2-rank job failed: $(cat "$tmp/a")"
  [ "$ncpus" -lt 4 ] || [ "$(sort -u "$tmp/a" "$tmp/b" | grep -c .)" -eq 4 ] && break
  echo "attempt $attempt: two 2-rank jobs at once shared CPUs: $(tr '\n' ' ' <"$tmp/a")/ $(tr '\n' ' ' <"$tmp/b")"
  [ $attempt = 3 ] && fail "two 2-rank jobs at once shared CPUs in 3 attempts on a machine with $ncpus CPUs"
done
one_cpu_each "$tmp/a" "first job"
one_cpu_each "$tmp/b" "second job"
"$check" -- "$mpiexec" --bind-to core -n 2 bash -c "$mask" >"$tmp/c" 2>&1 || fail "the --bind-to core job failed: $(cat "$tmp/c")"
one_cpu_each "$tmp/c" "--bind-to core job"
"$check" -- "$mpiexec" -n 3 bash -c "$mask" >"$tmp/d" 2>&1 || fail "the 3-rank job failed: $(cat "$tmp/d")"
[ "$(grep -c . "$tmp/d")" -eq 3 ] || fail "the 3-rank job printed $(grep -c . "$tmp/d") masks, not 3"
[ $failures = 0 ] || exit 1
if [ "$ncpus" -ge 4 ]; then echo "ranks placed in pairs: $(tr '\n' ' ' <"$tmp/a")/ $(tr '\n' ' ' <"$tmp/b")"
else echo "ranks bound one CPU each (Open MPI's binding; $ncpus CPUs, too few for pairs): $(tr '\n' ' ' <"$tmp/a")"; fi
