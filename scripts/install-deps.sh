#!/usr/bin/env bash
# Installs every system package pp-mlir needs to build and test (Debian 12,
# as root). Idempotent: does nothing when everything is already installed.
#   scripts/install-deps.sh         what the build and the suite need
#   scripts/install-deps.sh --dev   also the developer tools of scripts/
#                                   (clang-tidy, clang-format, universal-ctags)
#   scripts/install-deps.sh --torch also a Python virtual environment with
#                                   PyTorch and torch-mlir for the exporter
#                                   (python/pp-import-torch, docs/Frontends.md)
#                                   in $PP_TORCH_VENV (default .venv-torch);
#                                   several GB (torch's CUDA libraries)
# The flags combine (--dev --torch).
set -euo pipefail

packages=(
  cmake ninja-build ccache clang-22 python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev googletest
  libopenmpi-dev openmpi-bin
  coinor-libcbc-dev pkg-config  # the exact schedule solver (lib/Schedule/Exact.cpp)
  libopenblas-dev  # GEMMs of CPU stage functions (runtime/lib/CpuGemm.cpp)
  libdnnl-dev  # oneDNN bf16 GEMM and convolutions, measured against OpenBLAS (bench/bf16-gemm.sh, conv-onednn.sh)
  libclang-rt-22-dev valgrind  # sanitizers and libFuzzer (scripts/sanitize.sh, fuzz.sh), valgrind.sh
)
dev=0 torch=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    --torch) torch=1 ;;
    *) ;;  # ignored, as before --torch existed
  esac
done
if [ $dev -eq 1 ]; then
  packages+=(clang-tidy-22 clang-format-22 universal-ctags)
fi
if [ $torch -eq 1 ]; then
  packages+=(python3-venv)
fi

# The versions of the --torch environment, pinned together: torch-mlir's
# nightly wheels do not name the torch they were built with, these were
# checked to work together (docs/Frontends.md).
torch_pins=(
  torch==2.15.0
  torchvision==0.29.2
  torch-mlir==20261001
  transformers==5.23.0
  numpy==2.4.6
)

# Creates the --torch virtual environment, or completes it when its pins
# changed; does nothing when it holds them (a stamp file lists the pins).
install_torch_venv() {
  local root venv
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  venv="${PP_TORCH_VENV:-$root/.venv-torch}"
  if [ -x "$venv/bin/python" ] &&
     [ "$(cat "$venv/.pp-pins" 2>/dev/null)" = "${torch_pins[*]}" ]; then
    echo "install-deps: torch environment $venv present"
    return 0
  fi
  echo "install-deps: installing ${torch_pins[*]} into $venv"
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${torch_pins[@]}"
  echo "${torch_pins[*]}" >"$venv/.pp-pins"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  [ $torch -eq 0 ] || install_torch_venv
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
[ $torch -eq 0 ] || install_torch_venv
