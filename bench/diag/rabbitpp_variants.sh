#!/bin/bash
# rabbitpp multicore (issue 9: 16 threads <= 2 s): variants of the community detection
# (src/rabbitpp/batch.cpp) timed alternately in one process on communities:n=8000000 by
# bench/diag/rabbitpp_variants.cpp, on the GPU node's host (run after scripts/bundle, carry ["dist"]):
#   A  the bundle's batch.cpp
#   L  A without the leaves' stored lists (rabbitpp_no_leaf_lists.patch: b837fe4 reverted)
#   H  A with a per-thread open-addressing root table instead of the n-sized slot map
#      (rabbitpp_root_table.patch)
#   S  A with 8-byte union-find records, a 32-bit strength (rabbitpp_record8.patch)
#   T  H and S together
# Every call prints the dendrogram's hash: the variants must agree. About 3 minutes with the set-up.
#   PGK_RV_REPS (8), PGK_RV_THREADS (16), PGK_RV_LETTERS (ALHST)
export OUT
here=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
B=$OUT/variants.txt
{ nproc; lscpu | grep -E "Model name|L3|Thread|Core|Socket|NUMA node"; } >> $B
host=$(find build -name libpgk_host.a | head -1)
[ -f "$host" ] || { echo "no libpgk_host.a"; exit 4; }
w=/tmp/rv && rm -rf $w && mkdir -p $w
cp source/src/rabbitpp/batch.cpp $w/A.cpp
variant() { # letter, patches
  local x=$1; shift; cp $w/A.cpp $w/$x.cpp
  for p in "$@"; do patch -s $w/$x.cpp < "$here/bench/diag/$p" || exit 5; done
}
variant L rabbitpp_no_leaf_lists.patch
variant H rabbitpp_root_table.patch
variant S rabbitpp_record8.patch
variant T rabbitpp_root_table.patch rabbitpp_record8.patch
for x in A L H S T; do
  g++ -O2 -g -std=c++17 -Isource -Ddetect_communities_batch=detect_communities_batch_$x \
    -Ddefault_batch=default_batch_$x -c $w/$x.cpp -o $w/$x.o &
done
wait
g++ -O2 -std=c++17 -Isource "$here/bench/diag/rabbitpp_variants.cpp" $w/[ALHST].o "$host" -lpthread -o $w/rv || exit 6
$w/rv communities:n=8000000 ${PGK_RV_THREADS:-16} ${PGK_RV_REPS:-8} ${PGK_RV_LETTERS:-ALHST} >> $B 2>&1
cat $B
# medians per letter
awk '$2 == "communities" { t[$1] = t[$1] " " $3 } END { for (k in t) print k, t[k] }' $B | while read k rest; do
  echo "$k median $(echo $rest | tr ' ' '\n' | sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), "of", NR}')"
done
