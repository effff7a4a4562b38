#!/usr/bin/env bash
# check_shared_runtime.sh LIB PLANTED: LIB (libpetscgpukit.so) needs the shared C++ runtime
# (libstdc++.so.6) and carries no copy of it; PLANTED, a library linked with -static-libstdc++,
# must fail the same check (cmake/cxx_runtime.cmake says why a static copy breaks under petsc4py).
set -u
# verdict LIB: "" when LIB needs libstdc++.so.6 and defines none of its symbols, else the reason.
verdict() {
  local copies
  readelf -d "$1" | grep -q 'NEEDED.*\[libstdc++\.so\.6\]' || { echo "libstdc++.so.6 is not among its NEEDED libraries"; return; }
  # std::ostream, std::locale, std::ios_base definitions: a static runtime inside.
  copies=$(nm -D --defined-only "$1" | grep -cE ' (_ZNSo|_ZNSt6locale|_ZNSt8ios_base)')
  [ "$copies" = 0 ] || echo "it defines $copies symbols of std::ostream, std::locale or std::ios_base"
}
status=0
why=$(verdict "$1")
if [ -n "$why" ]; then echo "FAIL: $1: $why"; status=1; else echo "ok: $1 needs libstdc++.so.6 and has no copy of it"; fi
why=$(verdict "$2")
if [ -z "$why" ]; then echo "FAIL: the planted static-runtime library $2 passed the check"; status=1; else echo "caught: planted $2: $why"; fi
exit $status
