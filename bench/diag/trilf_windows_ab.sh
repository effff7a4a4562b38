#!/bin/bash
# The trilf apply in windows (-pc_trilf_apply_windows, bench/diag/trilf_apply_windows.patch) against
# path order on issue 15's three 4.2M rows, in one build: the bundle's set-up, the gpu label's trilf
# tests unless TESTS=0, then bench_trilf with the windows off and on, alternated ROUNDS times
# (default 2). On a GPU node from the repository root with dist/ carried: bash
# bench/diag/trilf_windows_ab.sh. Output under $OUT.
set -u
# shellcheck source=bench/diag/trilf_ab_common.sh
. bench/diag/trilf_ab_common.sh
trilf_tests
trilf_ab apply_windows off on
