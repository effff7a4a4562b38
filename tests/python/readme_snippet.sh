#!/usr/bin/env bash
# readme_snippet.sh README LIB PY_RUN...: the Python quick start of README's "From Python" section
# (the heredoc after `python3 - <<'PY'`), run as written with the plugin at LIB in place of the
# README's build/petsc_plugin/libpetscgpukit.so, through run_python.sh (PY_RUN...: its arguments up
# to and including the check_run.sh options and the "--"), so the README's snippet cannot rot.
set -eu
readme=$1 lib=$2; shift 2
snippet=$(mktemp --suffix=.py)
trap 'rm -f "$snippet"' EXIT
awk '/^### From Python/ {s = 1} s && /^python3 - <<.PY.$/ {p = 1; next} p && /^PY$/ {exit} p' "$readme" |
  sed "s#build/petsc_plugin/libpetscgpukit.so#$lib#" >"$snippet"
if ! grep -q "petsc4py.init" "$snippet"; then
  echo "readme_snippet: FAIL: no python3 heredoc under '### From Python' in $readme"; exit 1
fi
"$@" "$snippet"
