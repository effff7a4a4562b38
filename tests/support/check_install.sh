#!/usr/bin/env bash
# cmake --install into a scratch prefix, then build a consumer with find_package(petscgpukit)
# and another with pkg-config, and run both.
#   check_install.sh BUILD_DIR PETSC_DIR SOURCE_DIR
set -eu
build=$1 petsc=$2 src=$3
prefix=$build/test-install; rm -rf "$prefix" "$build/test-consumer"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S "$src/tests/support/install_consumer" -B "$build/test-consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER=mpicxx >/dev/null
cmake --build "$build/test-consumer" >/dev/null
"$build/test-consumer/c"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$petsc/lib/pkgconfig"
mpicxx $(pkg-config --cflags petscgpukit) "$src/tests/support/install_consumer/main.cpp" -o "$build/test-consumer/c_pc" $(pkg-config --libs petscgpukit) -Wl,-rpath,"$petsc/lib"
"$build/test-consumer/c_pc"
plugin=$(pkg-config --variable=plugin petscgpukit)
test -f "$plugin" && echo "pkg-config plugin path exists: $plugin"
