#!/usr/bin/env bash
# One device call: environment, tests, compute-sanitizer on small sizes, then the timing ladder.
# Usage (on the GPU machine, repo root): kernels/device_run.sh BIN_DIR OUT_DIR COMMIT [steps...]
# steps: env tests memcheck racecheck ladder (default: all). Logs go to OUT_DIR.
set -u
bin=$1 out=$2 commit=$3
shift 3
steps=${*:-env tests memcheck racecheck ladder}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
for s in $steps; do
  echo "=== $s ($(date -u +%H:%M:%S))"
  case $s in
    env)
      nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv
      nvcc --version | tail -1; ldd "$bin/tilesim-bench" | grep -E "cuda|cublas|not found"
      "$bin/tilesim-bench" --device ;;
    tests)
      timeout 150 "$bin/kernels_tests" 2>&1 | tee "$out/tests.log" | grep -E "FAILED|PASSED|SKIPPED|Failure|error" | head -40 ;;
    memcheck)
      timeout 150 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
        "$bin/tilesim-bench" --ladder check --check-max-elems 2e8 --max-seconds 1 > "$out/memcheck.log" 2>&1
      echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|correct|failure" "$out/memcheck.log" | tail -20 ;;
    racecheck)
      timeout 60 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$bin/tilesim-bench" --ladder check --check-max-elems 2e6 --only smem > "$out/racecheck.log" 2>&1
      echo "racecheck smem rc=$?"
      for v in register_blocked mma_sync; do
        timeout 60 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
          "$bin/tilesim-bench" --ladder check --check-max-elems 2e8 --only $v >> "$out/racecheck.log" 2>&1
        echo "racecheck $v rc=$?"
      done
      grep -E "RACECHECK SUMMARY|correct" "$out/racecheck.log" | tail -20 ;;
    ladder)
      timeout 220 "$bin/tilesim-bench" --ladder full --commit "$commit" --json "$out/bench.json" 2>&1 | tee "$out/ladder.log" | tail -80 ;;
  esac
done
