#!/usr/bin/env bash
# One device call for the sweeps: environment, kernels_tests, tilesim-bench --sweep both (JSON into
# OUT_DIR), then compute-sanitizer memcheck and racecheck on the templated rung's checks.
# Usage (on the GPU machine, repo root, binaries built here and carried):
#   kernels/device_sweep.sh BIN_DIR OUT_DIR COMMIT [TESTS_ASSETS_DIR]
set -u
bin=$1 out=$2 commit=$3 assets_at=${4:-}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
# kernels_tests reads assets/ at the path it was built with: point that path at this checkout's.
if [ -n "$assets_at" ] && [ ! -e "$assets_at" ]; then
  mkdir -p "$(dirname "$assets_at")" && ln -s "$PWD/assets" "$assets_at"
fi
echo "=== env ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv
ldd "$bin/tilesim-bench" | grep -E "cudart|cublas|not found"
"$bin/tilesim-bench" --device
echo "=== tests ($(date -u +%H:%M:%S))"
timeout 200 "$bin/kernels_tests" > "$out/tests.log" 2>&1
echo "kernels_tests rc=$?"; grep -E "FAILED|PASSED|SKIPPED \[|Failure" "$out/tests.log" | head -20
echo "=== sweeps ($(date -u +%H:%M:%S))"
timeout 330 "$bin/tilesim-bench" --sweep both --commit "$commit" --json "$out/bench_sweep.json" \
  > "$out/sweep.log" 2>&1
echo "sweep rc=$?"
grep -vE "^  [^ ]+ .*correct$" "$out/sweep.log" | grep -vE "^  (correctness|timing)" | head -120
grep -cE "correct$" "$out/sweep.log"; grep -E "FAILED" "$out/sweep.log" | head
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$bin/kernels_tests" \
    --gtest_filter='MmaSyncTiles.EveryConfigurationIsCorrectAtSmall*' > "$out/$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$out/$tool.log" | head -4
done
echo "=== end ($(date -u +%H:%M:%S))"
