#!/bin/bash
# The multicore cycle check's own time (issue 9's call at 16 threads): bench_rabbitpp_phases built from
# this tree's src/ with bench/diag/rabbitpp_cycle_check_timer.patch (a steady clock around the check,
# printed per call), no bundle, no set-up. PGK_CC_SPEC (communities:n=8000000) PGK_CC_THREADS (16).
set -u
here=$PWD d=/tmp/cc
rm -rf $d && mkdir -p $d && cp -a src bench $d/ && patch -s -p1 -d $d < bench/diag/rabbitpp_cycle_check_timer.patch || exit 3
(cd $d && bash "$here/bench/diag/host_objects.sh" obj bench/rabbitpp/phases_host.cpp && g++ -pthread obj/*.o -o phases) || exit 4
B=${OUT:-/tmp}/rabbitpp_cycle_check_cost.txt
{ echo "## cycle check cost ($(date +%F)), $(nproc) cores"; lscpu | grep -E "Model name"; } >> "$B"
$d/phases "${PGK_CC_SPEC:-communities:n=8000000}" "${PGK_CC_THREADS:-16}" 1 >> "$B" 2>&1
echo "rc $?" >> "$B"
cat "$B"
