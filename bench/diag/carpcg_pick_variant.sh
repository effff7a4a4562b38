#!/bin/bash
# On the GPU node, after carpcg_variants_ab.sh in the same call: pick the library variant the label parts that
# follow (on the same machine) should test, and leave the bundle's build holding it.
#   PGK_PICK_BASE (default: the first variant) is the reference; PGK_PICK_BUNDLE (default: the last variant) names
#   the variant whose files the bundle holds (carpcg_variants_ab.sh puts the bundle's own sources back at its end).
# Each (method, size) counts its best of the rounds; a variant qualifies when its geometric mean over the pairs
# against the base is at most 1 and no pair is more than 1.02 slower; the qualifying variant with the lowest mean
# wins, else the base. A variant whose gtest failed never wins. Unless the winner is the bundle's variant, its files
# go over the bundle's sources and the whole build is redone. Writes $OUT/pick.txt (ratios, choice, sha256 of the
# switched files). Used first in the forty-seventh session (as a two-variant script in the ignored .variants/;
# this form dry-run here on a made-up results file).
set -u
R=$PWD B=$OUT/variants_ab.txt
[ -f "$B" ] || { echo "pick: no $B (run carpcg_variants_ab.sh first)" >&2; exit 2; }
mapfile -t names < <(sed -n 's/^variant \([^ ]*\) built.*/\1/p' "$B")
[ ${#names[@]} -gt 0 ] || { echo "pick: no variant in $B" >&2; exit 2; }
base=${PGK_PICK_BASE:-${names[0]}} bundle=${PGK_PICK_BUNDLE:-${names[-1]}}
failed=$(sed -n 's/^variant \([^ ]*\) built, gtest rc [1-9].*/\1/p' "$B" | tr '\n' ' ')
choice=$(awk -v base="$base" -v failed=" $failed" '
  /^== round/ {v=$5; sub(",", "", v)} /^fem2d:n=[0-9]*:/ {p=$1}
  $1=="carpcg" && $8+0>0 {k=$2" "p; if (!((v,k) in t) || $8 < t[v,k]) t[v,k]=$8; keys[k]=1; seen[v]=1}
  END {best=base; bestg=1
    for (v in seen) { if (v==base) continue; n=0; s=0; worst=0
      for (k in keys) if ((base,k) in t && (v,k) in t) {r=t[v,k]/t[base,k]; n++; s+=log(r); if (r>worst) worst=r
        printf "%s/%s %-28s %.4f (%.4f against %.4f)\n", v, base, k, r, t[v,k], t[base,k] > "/dev/stderr"}
      if (n==0) continue; g=exp(s/n); bad=index(failed, " " v " ")>0
      printf "%s/%s: geomean %.4f, worst %.4f over %d pairs%s\n", v, base, g, worst, n, bad?", gtest failed":"" > "/dev/stderr"
      if (!bad && g<=1.0 && worst<=1.02 && g<bestg) {best=v; bestg=g}}
    print best}' "$B" 2> "$OUT/pick.txt")
echo "choice: $choice (base $base, the bundle holds $bundle)" | tee -a "$OUT/pick.txt"
case " $failed" in *" $choice "*) echo "pick: the base's gtest failed" | tee -a "$OUT/pick.txt"; exit 5 ;; esac
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs
if [ "$choice" != "$bundle" ]; then
  while read -r f; do cp "$R/.variants/$choice/$f" "source/$f"; done < "$R/.variants/FILES"
  cmake --build build -j"$(nproc)" > /tmp/rebuild_pick.log 2>&1 || { tail -20 /tmp/rebuild_pick.log; exit 4; }
  echo "$choice's files over the bundle's sources, whole build rc 0" >> "$OUT/pick.txt"
fi
while read -r f; do (cd source && sha256sum "$f"); done < "$R/.variants/FILES" >> "$OUT/pick.txt"
cat "$OUT/pick.txt"
