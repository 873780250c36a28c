#!/usr/bin/env bash
# Shared set-up for scripts/run and scripts/test: install missing Debian packages, configure, build.
# Sourced, not run. Honours BUILD_DIR (default build/), CMAKE_ARGS (extra configure flags).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$repo/build}"

# Packages the build, the app, the tests and the headless screenshots need (Debian 12 / Ubuntu).
tilesim_packages=(
  build-essential cmake ninja-build pkg-config git
  libimgui-dev libglfw3-dev libgl-dev libgl1-mesa-dri libstb-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev googletest
  xvfb xauth fonts-dejavu-core libgif-dev
)

install_missing_packages() {
  local missing=()
  for p in "${tilesim_packages[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "tilesim: installing missing packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
      echo "tilesim: need root or sudo to install: ${missing[*]}" >&2; return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# CUDA is optional: use nvcc from PATH or the usual install folder when present.
find_nvcc() {
  if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
  fi
}

configure_and_build() {
  find_nvcc
  cmake -S "$repo" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-}
  cmake --build "$BUILD_DIR" -j "$(nproc)"
}
