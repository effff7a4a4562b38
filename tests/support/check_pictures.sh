#!/usr/bin/env bash
# check_pictures.sh PYTHON DIR EXT [--min-size W H] STEM... -- COMMAND [ARGS...]
#
# Runs COMMAND (usually check_run.sh with its own checks) inside a fresh folder DIR, so that
# pictures saved under relative names land there, then opens every DIR/STEM.EXT with
# check_images.py (decoded completely: size and not blank). EXT is the format PETSc saves by
# default (png with libpng, ppm without; CMake reads it from petscconf.h): the pictures are
# written without an extension on purpose (PETSc 3.26 keeps a save name's dot, "a.png" -> "a..png").
# Exit: COMMAND's when it fails; 1 when a picture is missing or fails a check; 77 (skipped) when
# PETSc saves a format check_images.py cannot decode (gif, jpg).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=$1 dir=$2 ext=$3; shift 3
size=()
if [ "${1-}" = --min-size ]; then size=(--min-size "$2" "$3"); shift 3; fi
files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$dir/$1.$ext"); shift; done
shift # the "--"
case $ext in
  png | ppm) ;;
  *) echo "SKIP: this PETSc saves pictures as .$ext, which check_images.py cannot decode (configure PETSc --with-libpng)"; exit 77 ;;
esac
rm -rf "$dir" && mkdir -p "$dir" || exit 1
(cd "$dir" && "$@")
rc=$?
[ $rc = 0 ] || { echo "check_pictures: the command failed (exit $rc)"; exit $rc; }
echo "check_pictures: files in $dir: $(cd "$dir" && find . -type f | sort | paste -sd' ')"
exec "$python" "$here/check_images.py" ${size[@]+"${size[@]}"} "${files[@]}"
