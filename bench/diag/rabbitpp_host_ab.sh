#!/bin/bash
# rabbitpp's multicore call alone, variants of src/ in alternating processes (issue 9: the community
# phase on 16 threads). Runs bench_rabbitpp_phases (bench/rabbitpp/phases_host.cpp: rabbitpp_batch,
# host only, no PETSc) built with g++ -O2 -g (the library's RelWithDebInfo flags) straight from this
# tree's src/, so it needs no bundle and no set-up: `run` copies the working tree to the node.
#   PGK_HAB_VARIANTS "name:patch,patch ..."  bench/diag patches applied to src/ (a leading '-'
#                    reverses one); "A", the tree as it is, always comes first
#   PGK_HAB_SPEC     the graph (communities:n=8000000, the issue's)
#   PGK_HAB_THREADS  16
#   PGK_HAB_RUNS     calls of each arena page size in one process, after one warm-up each (3)
#   PGK_HAB_ROUNDS   processes per variant, the variants alternating A B .. A B .. (3)
# Prints every call, then per variant and page size the median over all its calls of the wall time
# and the community phase. Output in $OUT/rabbitpp_host_ab.txt (or /tmp/rabbitpp_host_ab.txt).
set -u
here=$PWD
B=${OUT:-/tmp}/rabbitpp_host_ab.txt
spec=${PGK_HAB_SPEC:-communities:n=8000000} threads=${PGK_HAB_THREADS:-16}
variants="A: ${PGK_HAB_VARIANTS:-}"
{
  echo "## rabbitpp_batch alone, variants alternating ($(git rev-parse --short HEAD 2> /dev/null), $(date +%F))"
  nproc; lscpu | grep -E "Model name|L3"
  echo "THP enabled: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
} >> "$B"
build() { # name patches: /tmp/hab_NAME/phases
  local d=/tmp/hab_$1 p
  rm -rf "$d" && mkdir -p "$d/obj" && cp -a src bench tests "$d"/ || exit 3
  for p in $(echo "$2" | tr , ' '); do
    case $p in
      -*) patch -s -R -p1 -d "$d" < "$here/bench/diag/${p#-}" || exit 4 ;;
      *) patch -s -p1 -d "$d" < "$here/bench/diag/$p" || exit 4 ;;
    esac
  done
  (cd "$d" && bash "$here/bench/diag/host_objects.sh" obj bench/rabbitpp/phases_host.cpp &&
    g++ -pthread obj/*.o -o phases) > "$d/build.log" 2>&1 || { tail -20 "$d/build.log"; exit 5; }
}
t0=$(date +%s)
for v in $variants; do build "${v%%:*}" "${v#*:}"; done
echo "built $(echo $variants | wc -w) variants in $(($(date +%s) - t0)) s" >> "$B"
for r in $(seq "${PGK_HAB_ROUNDS:-3}"); do
  for v in $variants; do
    echo "== ${v%%:*} round $r $(date +%T)" >> "$B"
    /tmp/hab_${v%%:*}/phases "$spec" "$threads" "${PGK_HAB_RUNS:-3}" | sed "s/^/${v%%:*} /" >> "$B"
  done
done
median() { sort -g | awk '{a[NR] = $1} END {if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), NR}'; }
for v in $variants; do
  for pg in huge 4k; do
    calls=$(grep -E "^${v%%:*} $pg +run [0-9]+:" "$B")
    echo "${v%%:*} $pg: wall median $(echo "$calls" | sed 's/.*wall \([0-9.]*\).*/\1/' | median)," \
      "communities median $(echo "$calls" | sed 's/.*communities \([0-9.]*\).*/\1/' | median)," \
      "sys median $(echo "$calls" | sed 's/.*sys \([0-9.]*\).*/\1/' | median) (value, calls)" >> "$B"
  done
done
grep -E "^(built|[A-Za-z0-9]+ (huge|4k):)" "$B"
