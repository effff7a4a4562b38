#!/bin/bash
# Here, before a device call: the source files of carpcg library variants for carpcg_variants_ab.sh, each
# variant the committed tree (HEAD) with its patches applied in order, in .variants/NAME/ (ignored by git
# through .git/info/exclude; name ".variants" in the call's carry). Every variant holds the union of the
# files any variant changes, so the node can switch between them by copying.
#   bash bench/diag/carpcg_make_variants.sh A: B:bench/diag/some.patch C:@scratch-C
#   (e.g. the forty-ninth session's A: F:...prefetch_l1.patch H:...prefetch_l1_shared_path.patch, at f0fc996)
# A spec NAME:@COMMIT takes the files as at COMMIT instead (a commit on a scratch line: the variant the label
# parts test is then a commit, and the bundle can be made from it); the union then includes every file that
# differs between HEAD and COMMIT. Forty-seventh session.
set -eu
root=$(git rev-parse --show-toplevel)
cd "$root"
grep -qx '/.variants/' .git/info/exclude 2>/dev/null || echo '/.variants/' >> .git/info/exclude
rm -rf .variants && mkdir -p .variants
wt=$(mktemp -d)
trap 'git worktree remove --force "$wt/t" 2>/dev/null; rm -rf "$wt"' EXIT
head=$(git rev-parse HEAD)
libdirs=(src kernels petsc_plugin tests include) # a commit variant's files: the library's and its tests'
git worktree add -q --detach "$wt/t" "$head"
files=()
for spec in "$@"; do # the union of changed files
  case ${spec#*:} in @*) mapfile -t -O "${#files[@]}" files < <(git diff --name-only "$head" "${spec#*:@}" -- "${libdirs[@]}"); continue ;; esac
  IFS=',' read -r -a patches <<< "${spec#*:}"
  for p in "${patches[@]}"; do
    [ -n "$p" ] && mapfile -t -O "${#files[@]}" files < <(git apply --numstat "$p" | cut -f3)
  done
done
mapfile -t files < <(printf '%s\n' "${files[@]}" | sed '/^$/d' | sort -u)
[ ${#files[@]} -gt 0 ] || { echo "carpcg_make_variants: no patch changes a file" >&2; exit 2; }
for spec in "$@"; do
  name=${spec%%:*}
  (cd "$wt/t" && git checkout -q -- . && git clean -qfd && git checkout -q --detach "$head")
  case ${spec#*:} in
    @*) (cd "$wt/t" && git checkout -q --detach "${spec#*:@}") ;;
    *)
      IFS=',' read -r -a patches <<< "${spec#*:}"
      for p in "${patches[@]}"; do [ -z "$p" ] || (cd "$wt/t" && git apply "$root/$p"); done
      ;;
  esac
  for f in "${files[@]}"; do
    [ -f "$wt/t/$f" ] || { echo "carpcg_make_variants: $name has no $f (a variant cannot delete a file)" >&2; exit 2; }
    mkdir -p ".variants/$name/$(dirname "$f")" && cp "$wt/t/$f" ".variants/$name/$f"
  done
  echo "variant $name: ${spec#*:} (${#files[@]} files)"
done
printf '%s\n' "${files[@]}" > .variants/FILES
