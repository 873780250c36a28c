#!/usr/bin/env bash
# Shared set-up for scripts/run, scripts/test and the sanitizer and fuzz scripts: install missing
# Debian packages, configure, build, and time each phase. Sourced, not run. Honours BUILD_DIR
# (default build/), CMAKE_ARGS (extra configure flags of the plain build).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$repo/build}"

# Packages the build, the app, the tests and the headless screenshots need (Debian 12 / Ubuntu).
tilesim_packages=(
  build-essential cmake ninja-build pkg-config git
  libimgui-dev libglfw3-dev libgl-dev libgl1-mesa-dri libstb-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev googletest
  xvfb xauth fonts-dejavu-core fonts-wqy-microhei libgif-dev ccache
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

# Compiles go through ccache when it is installed. What that saves: a rebuild after a change, and
# the same file compiled with the same flags in another clone or worktree of this machine. A fresh
# CI machine (CI=true) starts with an empty cache and its three builds (plain, clang ASan+fuzz,
# TSan) share no compile, so there every compile would miss and pay ccache's extra preprocessor
# pass: CI skips it unless TILESIM_CCACHE=1 (a CI whose cache folder survives between runs).
launcher_args() {
  command -v ccache >/dev/null || return 0
  [ "${CI:-}" = true ] && [ "${TILESIM_CCACHE:-0}" != 1 ] && return 0
  echo -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache
}

# log_phase NAME SECONDS [NOTE]: one line of the phase list in TILESIM_PHASE_LOG (when set).
log_phase() {
  [ -n "${TILESIM_PHASE_LOG:-}" ] || return 0
  printf '%-34s %3d:%02d%s\n' "$1" $(($2 / 60)) $(($2 % 60)) "${3:+  $3}" >>"$TILESIM_PHASE_LOG"
}

# phase NAME COMMAND...: runs COMMAND (a program, not a shell function: errexit does not reach
# inside one run this way), printing the UTC time it starts and the seconds it took, so a CI log
# shows where its minutes go; scripts/test lists every phase again at the end.
phase() {
  local name="$1" t0=$SECONDS rc=0
  shift
  echo "tilesim: [$(date -u +%H:%M:%S)] $name: started"
  "$@" || rc=$?
  local took=$((SECONDS - t0)) note=""
  [ $rc -eq 0 ] || note="FAILED (exit $rc)"
  echo "tilesim: [$(date -u +%H:%M:%S)] $name: ${note:-done} in ${took} s"
  log_phase "$name" "$took" "$note"
  return $rc
}

configure_and_build() {
  find_nvcc
  phase "plain: configure" cmake -S "$repo" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    $(launcher_args) ${CMAKE_ARGS:-}
  phase "plain: build" cmake --build "$BUILD_DIR" -j "$(nproc)"
}

# The clang AddressSanitizer + UndefinedBehaviorSanitizer build, which also holds the libFuzzer
# targets (its libraries carry the fuzzers' coverage instrumentation): scripts/sanitize builds
# and tests it, scripts/fuzz builds the fuzz targets in it and runs them.
ASAN_DIR="$repo/build-asan"
configure_asan() {
  phase "asan: configure" env CC=clang CXX=clang++ cmake -S "$repo" -B "$ASAN_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESIM_SANITIZE=ON -DTILESIM_FUZZ=ON \
    -DTILESIM_WITH_CUDA=OFF -DTILESIM_BUILD_APP=ON $(launcher_args)
}
