#!/usr/bin/env bash
# run_python.sh's choice of petsc4py build and interpreter, on fake PETSc prefixes and fake
# interpreters (scripts that answer run_python.sh's question, which extension suffixes they
# import): a build's own interpreter first; where it is missing (a bundle on a GPU node), an
# interpreter of this machine of a build's ABI; a skip with the reason where none fits.
#
#   check_choice.sh      (prints "every run_python.sh choice right" on success)
set -u
run=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run_python.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/sys"
# fake_python PATH TAG: an interpreter whose extension suffix is .TAG-x86_64-linux-gnu.so.
fake_python() {
  printf '#!/bin/sh\n[ "$1" = -c ] && echo ".%s-x86_64-linux-gnu.so .abi3.so .so"\n' "$2" >"$1"
  chmod +x "$1"
}
fake_python "$tmp/py311" cpython-311
fake_python "$tmp/bin/python3" cpython-312 # python3 on PATH
fake_python "$tmp/sys/python3" cpython-313 # /usr/bin/python3
# The check_run.sh stand-in: prints what it would run and the PYTHONPATH.
printf '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done; shift\necho "RAN $1 PYTHONPATH=$PYTHONPATH"\n' >"$tmp/check"
chmod +x "$tmp/check"
# build PREFIX DIR TAG RECORDED: a petsc4py build in PREFIX/DIR whose extension is of TAG.
build() {
  mkdir -p "$1/$2/petsc4py/lib"
  touch "$1/$2/petsc4py/__init__.py" "$1/$2/petsc4py/lib/PETSc.$3-x86_64-linux-gnu.so"
  [ -z "$4" ] || echo "$4" >"$1/$2/.pgk-python"
}
build "$tmp/both" python cpython-311 "$tmp/py311"
build "$tmp/both" python-cp312 cpython-312 /nonexistent/python3.12
build "$tmp/node" python cpython-311 /nonexistent/python3.11
build "$tmp/node" python-cp312 cpython-312 /nonexistent/python3.12
build "$tmp/sys313" python cpython-311 /nonexistent/python3.11
build "$tmp/sys313" python-cp313 cpython-313 /nonexistent/python3.13
build "$tmp/none" python cpython-310 /nonexistent/python3.10
build "$tmp/own" lib cpython-313 ""
mkdir -p "$tmp/empty"

failures=0
# verdict NAME WANT_RC REGEX PREFIX PYTHON: run_python.sh's exit code and a line of its output.
verdict() {
  local name=$1 want=$2 re=$3 out rc
  out=$(PATH="$tmp/bin:/usr/bin:/bin" PGK_SYSTEM_PYTHON="$tmp/sys/python3" PYTHONPATH='' \
    "$run" "$5" "$4" "$tmp/check" --expect x -- script.py 2>&1); rc=$?
  if [ $rc -eq "$want" ] && grep -Eq -- "$re" <<<"$out"; then echo "ok: $name: exit $rc"
  else echo "FAIL: $name: exit $rc (expected $want), output:"; sed 's/^/    /' <<<"$out"; failures=$((failures + 1)); fi
}
verdict "own interpreter present: the build it was made for" 0 "^RAN $tmp/py311 PYTHONPATH=$tmp/both/python\$" "$tmp/both" /nonexistent/cmake-python
verdict "own interpreters missing: python3 on PATH, its ABI's build" 0 "^RAN $tmp/bin/python3 PYTHONPATH=$tmp/node/python-cp312\$" "$tmp/node" /nonexistent/cmake-python
verdict "the choice is said" 0 "^run_python: petsc4py at $tmp/node/python-cp312 with $tmp/bin/python3 \(built with /nonexistent/python3.12" "$tmp/node" /nonexistent/cmake-python
verdict "PYTHON (cmake's) before python3 on PATH" 0 "^RAN $tmp/py311 PYTHONPATH=$tmp/node/python\$" "$tmp/node" "$tmp/py311"
verdict "/usr/bin/python3 last" 0 "^RAN $tmp/sys/python3 PYTHONPATH=$tmp/sys313/python-cp313\$" "$tmp/sys313" /nonexistent/cmake-python
verdict "PETSc's own petsc4py (lib/) with PYTHON's ABI" 0 "^RAN $tmp/sys/python3 PYTHONPATH=$tmp/own/lib\$" "$tmp/own" "$tmp/sys/python3"
verdict "no interpreter of a build's ABI: skip with both sides" 77 "^SKIP: no interpreter here fits.*python \(for /nonexistent/python3.10, extension PETSc.cpython-310-x86_64-linux-gnu.so\).*$tmp/bin/python3 \(extensions .cpython-312" "$tmp/none" /nonexistent/cmake-python
verdict "no build: skip" 77 "^SKIP: no petsc4py with the PETSc at $tmp/empty" "$tmp/empty" "$tmp/py311"
if [ $failures = 0 ]; then echo "every run_python.sh choice right"; else echo "$failures wrong"; exit 1; fi
