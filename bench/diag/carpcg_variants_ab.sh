#!/bin/bash
# On the GPU node (carry ["dist", ".variants"], after scripts/bundle and bench/diag/carpcg_make_variants.sh
# here): each variant of .variants/ copied over the bundle's sources and built (the library and the gpu carpcg
# gtest); the whole GpuCarpcg gtest on each (the bits must not change); then PGK_ROUNDS rounds (default 2) of
# bench_carpcg -methods $PGK_METHODS (default mc,carp,cimmino) on fem2d at PGK_SIZES (default 601 1001 2001),
# the variants in turn, each round in the order of the names. At the end the bundle's own sources are put back
# and rebuilt, so that label parts run after it on the same set-up test the committed tree.
# Results: $OUT/variants_ab.txt, the gtest logs $OUT/gtest_NAME.txt.
export OUT
R=$PWD
[ -f .variants/FILES ] || { echo "carpcg_variants_ab: no .variants/FILES (carry .variants)" >&2; exit 2; }
scripts/run-gpu-suite-part setup > /tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 3; }
cd /tmp/r/petscgpukit-bundle && export LD_LIBRARY_PATH=$PWD/syslibs
B=$OUT/variants_ab.txt t0=$(date +%s)
mapfile -t files < "$R/.variants/FILES"
mkdir -p /tmp/orig /tmp/libs
for f in "${files[@]}"; do mkdir -p "/tmp/orig/$(dirname "$f")" && cp "source/$f" "/tmp/orig/$f"; done
lib=$(find build -name 'libpetscgpukit.so*' -type f | head -1)
gt=$(find build -name pgk_gpu_carpcg_tests -type f | head -1)
build_from() { # the sources under $1, built
  for f in "${files[@]}"; do cp "$1/$f" "source/$f"; done
  cmake --build build --target petscgpukit pgk_gpu_carpcg_tests -j"$(nproc)" > /tmp/build.log 2>&1 || { tail -20 /tmp/build.log; exit 4; }
}
names=()
for d in "$R"/.variants/*/; do
  v=$(basename "$d"); names+=("$v")
  build_from "$d"; cp "$lib" "/tmp/libs/$v"
  timeout 120 "$gt" > "$OUT/gtest_$v.txt" 2>&1
  rc=$?
  echo "variant $v built, gtest rc $rc ($(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gtest_$v.txt" | tr '\n' ' ')) at $(($(date +%s) - t0)) s" >> "$B"
done
# shellcheck disable=SC2086 # a list of sizes
problems=$(printf 'fem2d:n=%s;' ${PGK_SIZES:-601 1001 2001})
for round in $(seq "${PGK_ROUNDS:-2}"); do
  for v in "${names[@]}"; do
    cp "/tmp/libs/$v" "$lib"
    echo "== round $round, variant $v, at $(($(date +%s) - t0)) s" >> "$B"
    timeout 200 build/bench/bench_carpcg -use_gpu_aware_mpi 0 -problems "${problems%;}" -methods "${PGK_METHODS:-mc,carp,cimmino}" \
      -solve_seconds 1 -row_seconds 3 >> "$B" 2>&1
  done
done
build_from /tmp/orig
echo "the bundle's sources rebuilt at $(($(date +%s) - t0)) s" >> "$B"
grep -E '^variant|^== round|iteration .* ms|^the bundle' "$B"
