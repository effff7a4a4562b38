#!/bin/bash
# Compiles the host sources the rabbitpp diagnostics link (src/common, src/matgen, src/rabbitpp, and
# the extra files given) of the tree in the current directory into OBJDIR, one object per source, in
# parallel, with the library's RelWithDebInfo flags (g++ -O2 -g). Used by rabbitpp_host_ab.sh and
# spmv_l2_window.sh, which link the objects with their own drivers.
#   bench/diag/host_objects.sh OBJDIR [extra.cpp ...]
set -u
obj=$1
shift
mkdir -p "$obj" || exit 2
ls src/common/*.cpp src/matgen/*.cpp src/rabbitpp/*.cpp "$@" |
  xargs -P "$(nproc)" -I{} sh -c 'g++ -O2 -g -std=c++17 -pthread -I. -c "$1" -o "$2/$(echo "$1" | tr / _).o"' _ {} "$obj"
