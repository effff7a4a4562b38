#!/usr/bin/env bash
# run_python.sh PYTHON PETSC_PREFIX CHECK_RUN [check_run.sh options] -- SCRIPT [ARGS...]
#
# Runs an examples/python script under check_run.sh with the petsc4py built against PETSc at
# PETSC_PREFIX on PYTHONPATH: <prefix>/python (scripts/bootstrap's build, whose interpreter is
# in .pgk-python and replaces PYTHON) or <prefix>/lib (PETSc's own --with-petsc4py). Where
# there is none, exit 77 (ctest: skipped) with the reason.
set -u
python=$1 prefix=$2 check=$3; shift 3
dir=""
for d in "$prefix/python" "$prefix/lib"; do
  if [ -f "$d/petsc4py/__init__.py" ]; then dir=$d; break; fi
done
if [ -z "$dir" ]; then
  echo "SKIP: no petsc4py with the PETSc at $prefix (neither $prefix/python nor $prefix/lib has one;" \
    "scripts/bootstrap builds it unless PGK_WITH_PETSC4PY=0, a PETSc of your own needs --with-petsc4py)"
  exit 77
fi
[ -f "$dir/.pgk-python" ] && python=$(cat "$dir/.pgk-python")
if ! [ -x "$python" ]; then # e.g. a bundle on a GPU node: petsc4py's extension is built for that interpreter's ABI
  echo "SKIP: the petsc4py at $dir was built for $python, which this machine does not have"
  exit 77
fi
export PYTHONPATH="$dir${PYTHONPATH:+:$PYTHONPATH}"
opts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
shift # the "--"
exec "$check" ${opts[@]+"${opts[@]}"} -- "$python" "$@"
