#!/usr/bin/env bash
# Installs every system package pp-mlir needs to build and test (Debian 12,
# as root). Idempotent: does nothing when everything is already installed.
#   scripts/install-deps.sh         what the build and the suite need
#   scripts/install-deps.sh --dev   also the developer tools of scripts/
#                                   (clang-tidy, universal-ctags)
set -euo pipefail

packages=(
  cmake ninja-build ccache clang-22 python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev googletest
  libopenmpi-dev openmpi-bin
  coinor-libcbc-dev pkg-config  # the exact schedule solver (lib/Schedule/Exact.cpp)
  libopenblas-dev  # GEMMs of CPU stage functions (runtime/lib/CpuGemm.cpp)
  libdnnl-dev  # oneDNN bf16 GEMM, measured against OpenBLAS (bench/bf16-gemm.sh)
  libclang-rt-22-dev valgrind  # sanitizers and libFuzzer (scripts/sanitize.sh, fuzz.sh), valgrind.sh
)
if [ "${1:-}" = "--dev" ]; then
  packages+=(clang-tidy-22 universal-ctags)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
