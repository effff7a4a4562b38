#!/usr/bin/env bash
# The layering check must catch each kind of violation: copies the source layers to a scratch
# folder, checks that the copy passes, then plants one violation per rule and checks that
# scripts/check-layering fails on it, naming the file and the rule.
#   check_layering_planted.sh SOURCE_DIR
set -u
src=$1
check=$src/scripts/check-layering
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for d in src kernels petsc_plugin tests bench examples; do cp -r "$src/$d" "$work/"; done
"$check" "$work" >/dev/null || { echo "FAIL: the unmodified copy does not pass"; "$check" "$work"; exit 1; }
status=0
# plant FILE LINE EXPECTED_MESSAGE_REGEX: prepend LINE to FILE, expect a failure, undo.
plant() {
  local file=$work/$1 line=$2 want=$3
  mkdir -p "$(dirname "$file")"; touch "$file"; cp "$file" "$file.orig"
  { echo "$line"; cat "$file.orig"; } >"$file"
  out=$("$check" "$work"); rc=$?
  if [ $rc -eq 0 ] || ! grep -Eq "^$1:1: .*$want" <<<"$out"; then
    echo "FAIL: '$line' in $1 was not reported as /$want/ (exit $rc):"; echo "$out"; status=1
  else
    echo "caught: $1: $(grep -E "^$1:1: " <<<"$out")"
  fi
  mv "$file.orig" "$file"
}
plant src/common/csr_check.cpp '#include <petscmat.h>' 'src/ is host C\+\+ without PETSc or CUDA'
plant src/trilf/weights.cpp '#include <cuda_runtime.h>' 'src/ is host C\+\+ without PETSc or CUDA'
plant src/batchrcm/serial.cpp '#include "kernels/common/transfer.hpp"' 'src/ includes only src/'
plant kernels/common/permute.cu '#include <petscdevice_cuda.h>' 'kernels/ is CUDA without PETSc'
plant kernels/trilf/weights.cu '#include "petsc_plugin/sys/pgk_petsc.hpp"' 'kernels/ includes only src/ and kernels/'
plant src/trilf/paths.cpp '#include "src/batchrcm/rcm.hpp"' 'component trilf includes component batchrcm'
plant kernels/batchrcm/batch.cu '#include "kernels/trilf/primitives.hpp"' 'component batchrcm includes component trilf'
plant petsc_plugin/pc/trilf.cpp '#include "src/batchrcm/rcm.hpp"' 'component trilf includes component batchrcm'
plant tests/unit/trilf/paths.cpp '#include "src/batchrcm/rcm.hpp"' 'component trilf includes component batchrcm'
plant src/common/envelope.cpp '#include "src/trilf/weights.hpp"' 'shared code includes the component trilf'
plant examples/tour.cpp '#include "petsc_plugin/sys/csr_access.hpp"' 'examples/ may not include a private plugin header'
plant bench/trilf.cpp '#include "petsc_plugin/sys/pgk_petsc.hpp"' 'bench/ may not include a private plugin header'
[ $status = 0 ] && echo "layering check: every planted violation caught"
exit $status
