#!/bin/bash
# NOTE (thirty-eighth session): since the list arena alone gets huge pages (Options::huge_pages), M's
# patch (rabbitpp_state_hugepages_landed.patch) no longer reverses, so the letters built on M do not
# build; MatGetOrdering variants are timed by bench/diag/rabbitpp_node_ab.sh instead.
# rabbitpp multicore (issue 9: 16 threads <= 2 s): variants of the community detection
# (src/rabbitpp/batch.cpp) timed alternately in one process on communities:n=8000000 by
# bench/rabbitpp/variants_host.cpp, on the GPU node's host (run after scripts/bundle, carry ["dist"]):
#   A  the bundle's batch.cpp (since the second landing below: G's code)
#   R  main before the second landing (A with rabbitpp_staged_gather.patch reversed: 9e37eae's code,
#      the first landing, rabbitpp_table_records_arena.patch)
#   O  main before the first landing (R with rabbitpp_table_records_arena.patch reversed); the letters
#      L to Q below are built on O, as they were measured before that landing
#   W  M with huge pages advised on the arena before it is faulted in (rabbitpp_arena_hugepages.patch)
#   M  A on 4 KiB pages: the huge pages advised on the state and the arena (Pages::huge, since this
#      session's landing) reversed (rabbitpp_state_hugepages_landed.patch); R, W, Y and Z are built on M
#   X  R with the gather's new roots noted in the list as met (no scan of the table) and each child's
#      list prefetched by the sizing walk (rabbitpp_used_slots_prefetch.patch)
#   K  X with huge pages advised on the arena
#   J  X with a vertex's children links, round and list place packed in one 24-byte record
#      (rabbitpp_link_records.patch on X)
#   G  X with the gathered entries first copied into one per-thread array, the lookups then run
#      over it with the prefetches a fixed distance ahead (rabbitpp_staged_gather.patch on R,
#      X included): landed, so G is A
#   Z  M with huge pages advised on the union-find records, the n-sized index arrays and the arena
#      (rabbitpp_state_hugepages.patch; W advises the arena only; A as landed also list_begin_)
#   Y  M with the set-up's parts and the rounds' decide and apply timed and printed
#      (rabbitpp_phase_times.patch)
#   N  A without the stored lists' flags: a list is live while the first ancestor of another round is
#      unprocessed (checked by the compaction), so a round no longer walks its vertices' children
#      to clear their flags (rabbitpp_lists_live_by_ancestors.patch). Once that patch is on main
#      (A has list_is_live), N is A with it reversed, R is built without it, and Y uses
#      rabbitpp_phase_times_after_N.patch.
#   C, D, E  A with the lookups prefetched 6 and 12 (C), 12 and 24 (D), 16 and 32 (E) entries ahead
#      instead of 8 and 16 (rabbitpp_prefetch_distance_6/12/16.patch; on 2 cores 8 was best)
#   L  O without the leaves' stored lists (rabbitpp_no_leaf_lists.patch: b837fe4 reverted)
#   H  O with a per-thread open-addressing root table instead of the n-sized slot map
#      (rabbitpp_root_table.patch)
#   S  O with 8-byte union-find records, a 32-bit strength (rabbitpp_record8.patch)
#   T  H and S together
#   P  T with the lookups prefetched 16 and 32 entries ahead instead of 8 and 16 (rabbitpp_prefetch16.patch)
#   B  T with each root's strength kept in its table slot, the target chosen in the table's scan
#      (rabbitpp_best_in_scan.patch)
#   U  T with the list arena's pages faulted in on the pool at allocation, huge pages advised
#      (rabbitpp_arena_prefault.patch)
#   V  the first landing (rabbitpp_table_records_arena.patch): T, the arena faulted in on the pool
#      without the huge-page advice, the slot map's plumbing gone (rabbitpp_t_to_prepared.patch on T)
#   F  T with find_root forced inline (rabbitpp_inline_find_root.patch)
#   Q  T without reading the rows' weights where every weight is 2 (rabbitpp_weights_two.patch)
#   I  T with each round's decide and apply timed, printed with PGK_ROUNDS set (rabbitpp_round_times.patch)
# The patches of L to Q apply to O (main's batch.cpp of 32d6c2c to 6e41072).
# Then (PGK_RV_BENCH=1) bench_rabbitpp through MatGetOrdering, the bundle's code against A (or
# PGK_RV_BENCH_VARIANT), 10 runs a row, in the order PGK_RV_BENCH_ORDER (default: A, then the variant, vA).
# The variant's plugin is built from the bundle's source with the variant's batch.cpp and with the
# patches of PGK_RV_BENCH_REVERSE (names in bench/diag, `git diff` paths) reversed, in the order given;
# by default the four changes of af2f13e, so that vA is 4c960ef's library. With PGK_RV_BENCH_APPLY,
# patches applied to that source after (e.g. rabbitpp_hugepages_arena_only.patch, with
# PGK_RV_BENCH_REVERSE="").
# With PGK_RV_SYMMETRY=1 (the blocked check is on main since af2f13e), before the letters:
# bench/rabbitpp/symmetry_host.cpp times the symmetric-pattern check by search, by blocks and as
# dispatched, and rabbitpp's graph phase, on PGK_RV_SYMMETRY_SPECS, 10 runs each; then the same for each of
# PGK_RV_SYMMETRY_VARIANTS (e.g. "times:common_symmetry_phase_times.patch
# huge:common_symmetry_phase_times.patch,common_symmetry_mirrors_hugepages.patch"), the blocked check's passes timed.
# Every call prints the dendrogram's hash: the variants must agree. About 3 minutes with the set-up.
#   PGK_RV_REPS (8), PGK_RV_THREADS (16), PGK_RV_LETTERS (RAW)
export OUT
here=$PWD
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle || exit 3
B=$OUT/variants.txt
{ nproc; lscpu | grep -E "Model name|L3|Thread|Core|Socket|NUMA node"; } >> $B
host=$(find build -name libpgk_host.a | head -1)
[ -f "$host" ] || { echo "no libpgk_host.a"; exit 4; }
w=/tmp/rv && rm -rf $w && mkdir -p $w
if [ -n "$PGK_RV_SYMMETRY" ]; then
  g++ -O2 -std=c++17 -Isource "$here/bench/rabbitpp/symmetry_host.cpp" "$host" -lpthread -o $w/symmetry || exit 6
  $w/symmetry ${PGK_RV_THREADS:-16} 10 ${PGK_RV_SYMMETRY_SPECS:-communities:n=8000000 lap3d27:n=150} > $OUT/symmetry.txt 2>&1
  # PGK_RV_SYMMETRY_VARIANTS: "name:patch,patch,..." each: the harness linked against the library's
  # csr_symmetry.cpp with the patches applied in order, run once after the other with PGK_SYM_TIMES set.
  for v in $PGK_RV_SYMMETRY_VARIANTS; do
    name=${v%%:*}; cp source/src/common/csr_symmetry.cpp $w/sym_$name.cpp
    for p in $(echo "${v#*:}" | tr , ' '); do patch -s $w/sym_$name.cpp < "$here/bench/diag/$p" || exit 5; done
    g++ -O2 -std=c++17 -Isource -c $w/sym_$name.cpp -o $w/sym_$name.o || exit 6
    g++ -O2 -std=c++17 -Isource "$here/bench/rabbitpp/symmetry_host.cpp" $w/sym_$name.o "$host" -lpthread -o $w/symmetry_$name || exit 6
    echo "== symmetry variant $name: ${v#*:}" >> $OUT/symmetry.txt
    PGK_SYM_TIMES=1 $w/symmetry_$name ${PGK_RV_THREADS:-16} 10 ${PGK_RV_SYMMETRY_SPECS:-communities:n=8000000 lap3d27:n=150} >> $OUT/symmetry.txt 2>&1
  done
  cat $OUT/symmetry.txt
fi
cp source/src/rabbitpp/batch.cpp $w/A.cpp
# Once N's change is on main (A has list_is_live): R and Y are built from A without it, N is A without it.
n_landed=$(grep -c list_is_live $w/A.cpp || true)
# Once the huge pages are on main (A asks for Pages::huge): M is A without them; R, W, Y and Z are built on M.
hp_landed=$(grep -c Pages::huge $w/A.cpp || true)
cp $w/A.cpp $w/M.cpp
[ "$hp_landed" = 0 ] || patch -s -R $w/M.cpp < "$here/bench/diag/rabbitpp_state_hugepages_landed.patch" || exit 5
cp $w/M.cpp $w/R.cpp
[ "$n_landed" = 0 ] || patch -s -R $w/R.cpp < "$here/bench/diag/rabbitpp_lists_live_by_ancestors.patch" || exit 5
patch -s -R $w/R.cpp < "$here/bench/diag/rabbitpp_staged_gather.patch" || exit 5
cp $w/R.cpp $w/O.cpp && patch -s -R $w/O.cpp < "$here/bench/diag/rabbitpp_table_records_arena.patch" || exit 5
variant() { # letter, base, patches
  local x=$1 base=$2; shift 2; cp $w/$base.cpp $w/$x.cpp
  for p in "$@"; do patch -s $w/$x.cpp < "$here/bench/diag/$p" || exit 5; done
}
variant W M rabbitpp_arena_hugepages.patch
variant Z M rabbitpp_state_hugepages.patch
if [ "$n_landed" = 0 ]; then
  variant Y M rabbitpp_phase_times.patch
  variant N A rabbitpp_lists_live_by_ancestors.patch
else
  variant Y M rabbitpp_phase_times_after_N.patch
  cp $w/A.cpp $w/N.cpp && patch -s -R $w/N.cpp < "$here/bench/diag/rabbitpp_lists_live_by_ancestors.patch" || exit 5
fi
variant C A rabbitpp_prefetch_distance_6.patch
variant D A rabbitpp_prefetch_distance_12.patch
variant E A rabbitpp_prefetch_distance_16.patch
variant X R rabbitpp_used_slots_prefetch.patch
variant K R rabbitpp_used_slots_prefetch.patch rabbitpp_arena_hugepages.patch
variant J R rabbitpp_used_slots_prefetch.patch rabbitpp_link_records.patch
variant G R rabbitpp_staged_gather.patch
variant L O rabbitpp_no_leaf_lists.patch
variant H O rabbitpp_root_table.patch
variant S O rabbitpp_record8.patch
variant T O rabbitpp_root_table.patch rabbitpp_record8.patch
variant P O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_prefetch16.patch
variant I O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_round_times.patch
variant B O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_best_in_scan.patch
variant U O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_arena_prefault.patch
variant V O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_t_to_prepared.patch
variant F O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_inline_find_root.patch
variant Q O rabbitpp_root_table.patch rabbitpp_record8.patch rabbitpp_weights_two.patch
for x in A M R O W Z Y N C D E X K J G L H S T P I B U V F Q; do
  g++ -O2 -g -std=c++17 -Isource -Ddetect_communities_batch=detect_communities_batch_$x \
    -Ddefault_batch=default_batch_$x -c $w/$x.cpp -o $w/$x.o &
done
wait
g++ -O2 -std=c++17 -Isource "$here/bench/rabbitpp/variants_host.cpp" $w/[AMROWZYNCDEXKJGLHSTPIBUVFQ].o "$host" -lpthread -o $w/rv || exit 6
$w/rv communities:n=8000000 ${PGK_RV_THREADS:-16} ${PGK_RV_REPS:-8} ${PGK_RV_LETTERS:-RAW} >> $B 2>&1
[ -z "$PGK_RV_ROUNDS" ] || PGK_ROUNDS=1 $w/rv communities:n=8000000 ${PGK_RV_THREADS:-16} 1 I > $OUT/rounds.txt 2>&1
cat $B
# medians per letter
awk '$2 == "communities" { t[$1] = t[$1] " " $3 } END { for (k in t) print k, t[k] }' $B | while read k rest; do
  echo "$k median $(echo $rest | tr ' ' '\n' | sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), "of", NR}')"
done
[ -n "$PGK_RV_BENCH" ] || exit 0
# MatGetOrdering (the user's call) with the bundle's batch.cpp (A) and with R's (or the variant's), in turn.
B2=$OUT/bench_rabbitpp.txt
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1)
buildv() {
  t0=$(date +%s)
  cmake --build build --target petscgpukit bench_rabbitpp -j16 > /tmp/build_$1.log 2>&1 || { tail -20 /tmp/build_$1.log; exit 7; }
  echo "built $1 in $(( $(date +%s) - t0 )) s" >> $B2; cp build/bench/bench_rabbitpp /tmp/bench_$1; cp "$lib" /tmp/lib_$1
}
buildv A
bv=${PGK_RV_BENCH_VARIANT:-A} # the variant built into the plugin against A
rm -rf $w/source_A && cp -a source $w/source_A # restored after the variant's build
cp $w/$bv.cpp source/src/rabbitpp/batch.cpp
for p in ${PGK_RV_BENCH_REVERSE-rabbitpp_state_hugepages_landed.patch rabbitpp_lists_live_by_ancestors.patch rabbitpp_numbering_keys_prefetch.patch common_symmetry_blocks.patch}; do
  patch -s -p1 -R -d source < "$here/bench/diag/$p" || exit 8
done
for p in $PGK_RV_BENCH_APPLY; do patch -s -p1 -d source < "$here/bench/diag/$p" || exit 8; done
buildv v$bv
rm -rf source && mv $w/source_A source
for v in ${PGK_RV_BENCH_ORDER:-A v$bv}; do
  cp /tmp/lib_$v "$lib"; echo "== $v $(date +%T)" >> $B2
  /tmp/bench_$v -use_gpu_aware_mpi 0 -matrices "communities:n=8000000" -threads 16 -orderings rabbitpp -spy 0 \
    -runs 10 -min_runs 10 -row_seconds 100 -phase_runs ${PGK_RV_PHASE_RUNS:-3} -results /tmp/res_$v >> $B2 2>&1
done
cp /tmp/lib_A "$lib"
grep -E "^== |^built|cpu 16 threads|seconds_(graph|communities|numbering|regroup)|rabbitpp figures +(modularity|communities)" $B2 | cut -c1-170
