#!/usr/bin/env bash
# One device call for the ping-pong rung (6f, issue 27): kernels/device_wgmma_persistent.sh with
# the rungs of this comparison, plus the registers and spills of the sm_90a kernels (cuobjdump)
# and the assets path that kernels_tests was built with (its RungInstructions tests read
# assets/measured/).
# Usage (on the GPU machine, repo root): kernels/device_wgmma_pingpong.sh DIR OUT_DIR [steps...]
# DIR as for device_wgmma_persistent.sh (tilesim-bench, tilesim-run-one, kernels_tests,
# wgmma_orders, built for sm_90a). BUILD_ROOT: the repository path the binaries were built in.
# The device tool ships the checkout its session started in, not a helper's worktree: copy this
# script, device_wgmma_persistent.sh and a tarball of DIR into an ignored folder of that checkout
# (Follow-up 6 used .devcarry/pingpong/) and name it in the call's carry.
set -u
bin=$1 out=$2
shift 2
export RUNGS=${RUNGS:-matmul_wgmma_persistent matmul_wgmma_pingpong}
export SAN_RUNG=${SAN_RUNG:-pingpong} GSIZES=${GSIZES:-8,16,32}
export PATH=/usr/local/cuda/bin:$PATH
root=${BUILD_ROOT:?set BUILD_ROOT to the repository path the binaries were built in}
if [ ! -e "$root/assets" ]; then mkdir -p "$root" && ln -s "$PWD/assets" "$root/assets"; fi
echo "=== registers (cuobjdump, sm_90a kernels)"
cuobjdump --dump-resource-usage "$bin/tilesim-bench" 2>/dev/null | grep -A1 -E "wgmma_(pingpong|persistent)" |
  grep -oE "Function [^:]+|REG:[0-9]+|STACK:[0-9]+|LOCAL:[0-9]+" | paste -sd' ' | sed 's/Function /\n/g'
echo
exec "$(dirname "$0")/device_wgmma_persistent.sh" "$bin" "$out" "$@"
