#!/usr/bin/env bash
# Configures and builds pp-mlir in build/ (Ninja, Release, ccache when
# present). Extra arguments go to the build step (e.g. a target name).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}

# Debian's LLVM/MLIR is built with clang; building with the same compiler keeps
# MLIR's name-based TypeIDs identical on both sides of libMLIR.so (see the
# comment at PP_LINK_MLIR_DYLIB in CMakeLists.txt).
if [ ! -f "$build/build.ninja" ]; then
  CC=${CC:-clang-22} CXX=${CXX:-clang++-22} cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_INSTALL_PREFIX="$build/install"
fi
cmake --build "$build" -j "$(nproc)" "$@"
