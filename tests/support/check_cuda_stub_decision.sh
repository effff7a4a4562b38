#!/usr/bin/env bash
# Runs cuda_stub.sh's decision (use the toolkit's stub libcuda.so.1 or not) against fake
# folders: the stub only where no real libcuda.so.1 is found anywhere and there is no
# /dev/nvidiactl; a real driver outside the ldconfig cache is never shadowed.
#
#   check_cuda_stub_decision.sh      (prints "every stub decision right" on success)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/cuda_stub.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/toolkit/stubs" "$tmp/build/cuda-stub" "$tmp/nvidia/lib64" "$tmp/sysdir" "$tmp/empty" "$tmp/other"
: >"$tmp/toolkit/stubs/libcuda.so"
ln -s "$tmp/toolkit/stubs/libcuda.so" "$tmp/build/cuda-stub/libcuda.so.1"
: >"$tmp/nvidia/lib64/libcuda.so.1" # a "real" driver library
printf '#!/bin/sh\nexit 0\n' >"$tmp/ldconfig-empty"
printf '#!/bin/sh\nprintf "\\tlibcudart.so.13 (libc6,x86-64) => /usr/lib/libcudart.so.13\\n"\n' >>"$tmp/ldconfig-empty"
printf '#!/bin/sh\nprintf "\\tlibcuda.so.1 (libc6,x86-64) => %s\\n"\n' "$tmp/nvidia/lib64/libcuda.so.1" >"$tmp/ldconfig-driver"
printf '#!/bin/sh\nprintf "\\tlibcuda.so.1 (libc6,x86-64) => %s\\n"\n' "$tmp/build/cuda-stub/libcuda.so.1" >"$tmp/ldconfig-stub"
chmod +x "$tmp"/ldconfig-*
: >"$tmp/nvidiactl"

failures=0
# expect NAME yes|no: runs pgk_use_cuda_stub on the fake stub folder in a subshell with the
# environment given before it, and checks whether the stub went first in LD_LIBRARY_PATH.
expect() {
  local name=$1 want=$2 got
  got=$(pgk_use_cuda_stub "$tmp/build/cuda-stub"
        case "${LD_LIBRARY_PATH:-}" in "$tmp/build/cuda-stub"*) echo yes ;; *) echo no ;; esac)
  if [ "$got" = "$want" ]; then echo "ok: $name: stub $got"; else echo "FAIL: $name: stub $got, expected $want"; return 1; fi
}
# No driver anywhere.
nothing() { export PGK_LDCONFIG=$tmp/ldconfig-empty PGK_DRIVER_DIRS="$tmp/sysdir $tmp/empty" PGK_NVIDIACTL=$tmp/no-nvidiactl LD_LIBRARY_PATH=$tmp/other; }

(nothing; expect "no driver anywhere" yes) || failures=$((failures + 1))
(nothing; unset LD_LIBRARY_PATH; expect "no driver, no LD_LIBRARY_PATH" yes) || failures=$((failures + 1))
(nothing; LD_LIBRARY_PATH=$tmp/other:$tmp/nvidia/lib64; expect "driver only in an LD_LIBRARY_PATH folder" no) || failures=$((failures + 1))
(nothing; LD_LIBRARY_PATH=:$tmp/nvidia/lib64:; expect "driver in LD_LIBRARY_PATH with empty entries" no) || failures=$((failures + 1))
(nothing; PGK_LDCONFIG=$tmp/ldconfig-driver; expect "driver in the ldconfig cache" no) || failures=$((failures + 1))
(nothing; PGK_DRIVER_DIRS="$tmp/sysdir $tmp/nvidia/lib64"; expect "driver in a usual driver folder" no) || failures=$((failures + 1))
(nothing; PGK_NVIDIACTL=$tmp/nvidiactl; expect "no library found but /dev/nvidiactl exists" no) || failures=$((failures + 1))
# The stub itself is never mistaken for a driver, wherever it is listed.
ln -s libcuda.so "$tmp/toolkit/stubs/libcuda.so.1"
(nothing; LD_LIBRARY_PATH=$tmp/other:$tmp/toolkit/stubs; expect "only the toolkit's stubs folder in LD_LIBRARY_PATH" yes) || failures=$((failures + 1)) || failures=$((failures + 1))
rm -f "$tmp/toolkit/stubs/libcuda.so.1"
(nothing; PGK_LDCONFIG=$tmp/ldconfig-stub; expect "the ldconfig cache lists only a stub" yes) || failures=$((failures + 1))
# Already first: not added twice.
(nothing; LD_LIBRARY_PATH=$tmp/build/cuda-stub:$tmp/other; pgk_use_cuda_stub "$tmp/build/cuda-stub"
 case "$LD_LIBRARY_PATH" in "$tmp/build/cuda-stub:$tmp/build/cuda-stub"*) echo "FAIL: stub added twice"; exit 1 ;; esac
 echo "ok: stub already in LD_LIBRARY_PATH is not added twice") || failures=$((failures + 1))
# A build without a stub folder changes nothing.
(nothing; pgk_use_cuda_stub "$tmp/empty"; [ "$LD_LIBRARY_PATH" = "$tmp/other" ] && echo "ok: no stub folder, no change" ||
 { echo "FAIL: LD_LIBRARY_PATH changed without a stub: $LD_LIBRARY_PATH"; exit 1; }) || failures=$((failures + 1))

if [ $failures -ne 0 ]; then echo "$failures stub decision(s) wrong"; exit 1; fi
echo "every stub decision right"
