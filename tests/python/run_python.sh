#!/usr/bin/env bash
# run_python.sh PYTHON PETSC_PREFIX CHECK_RUN [check_run.sh options] -- SCRIPT [ARGS...]
#
# Runs an examples/python script under check_run.sh with a petsc4py built against PETSc at
# PETSC_PREFIX on PYTHONPATH, and an interpreter of this machine that fits it. The builds:
# <prefix>/python (scripts/bootstrap's, for the python3 it ran with), <prefix>/python-cp<XY>
# (scripts/bootstrap's for PGK_PETSC4PY_EXTRA_PYTHONS, e.g. the CPython 3.12 a bundle carries for
# a GPU node), each with its interpreter's path in .pgk-python; <prefix>/lib (PETSc's own
# --with-petsc4py, for PYTHON). petsc4py's extension only loads into an interpreter of its ABI
# (PETSc.cpython-312-x86_64-linux-gnu.so), so the choice is: a build's own interpreter where it
# exists here, else the first of PYTHON, python3 on PATH and /usr/bin/python3 whose extension
# suffixes include a build's. Where there is no build, or none fits an interpreter here, exit 77
# (ctest: skipped) with the reason.
set -u
python=$1 prefix=$2 check=$3; shift 3
system_python=${PGK_SYSTEM_PYTHON:-/usr/bin/python3} # overridable for tests/python/check_choice.sh

builds=()
for d in "$prefix/python" "$prefix"/python-* "$prefix/lib"; do
  [ -f "$d/petsc4py/__init__.py" ] && builds+=("$d")
done
if [ ${#builds[@]} = 0 ]; then
  echo "SKIP: no petsc4py with the PETSc at $prefix (neither $prefix/python nor $prefix/lib has one;" \
    "scripts/bootstrap builds it unless PGK_WITH_PETSC4PY=0, a PETSc of your own needs --with-petsc4py)"
  exit 77
fi

# abi_of BUILD: the file name suffix of its compiled petsc4py extension (".cpython-312-x86_64-linux-gnu.so").
abi_of() {
  local so
  for so in "$1"/petsc4py/lib/PETSc*.so; do
    [ -f "$so" ] && { echo "${so##*/PETSc}"; return; }
  done
}
# recorded BUILD: the interpreter the build is for (PYTHON for PETSc's own).
recorded() { if [ -f "$1/.pgk-python" ]; then cat "$1/.pgk-python"; else echo "$python"; fi; }
# suffixes PY: the extension suffixes interpreter PY imports, one line; fails where PY does not run.
suffixes() {
  [ -n "$1" ] && command -v "$1" >/dev/null 2>&1 || return 1
  "$1" -c 'import importlib.machinery as m; print(" ".join(m.EXTENSION_SUFFIXES))' 2>/dev/null
}
# fits PY BUILD: PY runs here and loads BUILD's extension.
fits() {
  local have abi; abi=$(abi_of "$2"); have=$(suffixes "$1") || return 1
  [ -n "$abi" ] && [[ " $have " == *" $abi "* ]]
}

dir="" why=""
for d in "${builds[@]}"; do # a build's own interpreter first
  if fits "$(recorded "$d")" "$d"; then dir=$d python=$(recorded "$d") why="the interpreter it was built with"; break; fi
done
if [ -z "$dir" ]; then # else an interpreter of this machine of the ABI of a build
  for py in "$python" "$(command -v python3)" "$system_python"; do
    for d in "${builds[@]}"; do
      if fits "$py" "$d"; then dir=$d why="built with $(recorded "$d"), not here; this one has its ABI" python=$py; break 2; fi
    done
  done
fi
if [ -z "$dir" ]; then # e.g. a bundle on a GPU node whose Python is of no ABI it carries
  tried=""
  for py in "$python" "$(command -v python3)" "$system_python"; do
    have=$(suffixes "$py") && tried+=" $py (extensions ${have%% *})" || tried+=" ${py:-python3} (does not run)"
  done
  built=""
  for d in "${builds[@]}"; do built+=" ${d#"$prefix"/} (for $(recorded "$d"), extension PETSc$(abi_of "$d"))"; done
  echo "SKIP: no interpreter here fits a petsc4py at $prefix; built:$built; interpreters here:$tried"
  exit 77
fi
echo "run_python: petsc4py at $dir with $python ($why)"
export PYTHONPATH="$dir${PYTHONPATH:+:$PYTHONPATH}"
# Unbuffered output: a crash still shows what was printed. The fault handler names the Python
# line of a crash where PETSc's own signal handler is off (add -no_signal_handler to the options).
export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
opts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
shift # the "--"
exec "$check" ${opts[@]+"${opts[@]}"} -- "$python" "$@"
