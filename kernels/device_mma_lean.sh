#!/usr/bin/env bash
# One device call for the mma.sync rungs (issue 27): environment, the rungs' correctness and timing
# ladder beside cuBLAS (same process), SASS of their K loops, Nsight Compute on one 4096^3 fp16
# launch each, compute-sanitizer memcheck and racecheck on the new rung. Binaries are built
# elsewhere (sm_90a) and carried with this script in one folder.
# Usage (on the GPU machine, repo root): kernels/device_mma_lean.sh DIR OUT_DIR COMMIT [steps...]
# DIR holds tilesim-bench, tilesim-run-one, kernels_tests and the rungs' .o files.
# steps: env check ladder sass ncu sanitize tests (default: all but check and tests). Logs go to
# OUT_DIR/logs, packed into OUT_DIR/logs.tgz at the end. RUNGS: the rungs timed and profiled.
set -u
bin=$1 out=$2 commit=$3
shift 3
steps=${*:-env ladder sass ncu sanitize}
rungs=${RUNGS:-matmul_mma_sync_swizzled matmul_mma_sync_lean}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
logs=$out/logs
mkdir -p "$logs"
for s in $steps; do
  echo "=== $s ($(date -u +%H:%M:%S))"
  case $s in
    env)
      nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv
      ldd "$bin/tilesim-bench" | grep -E "cudart|cublas|not found"
      "$bin/tilesim-bench" --device ;;
    check)
      timeout 200 "$bin/tilesim-bench" --ladder check --only mma > "$logs/check_mma.log" 2>&1
      echo "check (every mma rung) rc=$?"; grep -E "correct$|failure" "$logs/check_mma.log" ;;
    ladder)
      for v in $rungs; do
        timeout 150 "$bin/tilesim-bench" --ladder full --only "$v" --commit "$commit" \
          --json "$logs/bench_$v.json" > "$logs/ladder_$v.log" 2>&1
        echo "ladder $v rc=$?"
        grep -E "correct$|TF/s|failure" "$logs/ladder_$v.log" | grep -vE "^  " | head -40
      done ;;
    sass)
      for o in "$bin"/*.o; do
        cuobjdump -sass "$o" > "$logs/$(basename "$o" .o).sass" 2>&1
      done
      ls -la "$logs"/*.sass ;;
    ncu)
      for v in $rungs; do
        timeout 150 ncu --clock-control none --set full -k "regex:$v" -c 1 -f -o "$logs/ncu_$v" \
          "$bin/tilesim-run-one" --variant "$v" --kernel matmul --m 4096 --n 4096 --k 4096 \
          --dtype fp16 --order grouped --group-m 8 --block-m 128 --block-n 256 --block-k 32 \
          > "$logs/ncu_$v.log" 2>&1
        echo "ncu $v rc=$?"
        ncu -i "$logs/ncu_$v.ncu-rep" --page details --csv > "$logs/ncu_${v}_details.csv" 2>&1
        ncu -i "$logs/ncu_$v.ncu-rep" --page source --csv --print-source sass \
          > "$logs/ncu_${v}_source.csv" 2>&1
        grep -E '"(Duration|Registers Per Thread|Warp Cycles Per Issued Instruction|Issued Ipc Active|Executed Instructions|Stall [A-Za-z ]+)"' \
          "$logs/ncu_${v}_details.csv" | awk -F'","' '{print $(NF-2)" = "$NF}' | head -40
      done ;;
    sanitize)
      v=${SAN_RUNG:-matmul_mma_sync_lean}
      timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/tilesim-bench" \
        --ladder check --only "$v" --check-max-elems 2e8 > "$logs/memcheck.log" 2>&1
      echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|correct$" "$logs/memcheck.log" | tail -4
      timeout 150 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$bin/tilesim-bench" --ladder check --only "$v" --check-max-elems 2e8 \
        > "$logs/racecheck.log" 2>&1
      echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|correct$" "$logs/racecheck.log" | tail -4 ;;
    tests)
      timeout 200 "$bin/kernels_tests" > "$logs/tests.log" 2>&1
      echo "kernels_tests rc=$?"; grep -E "FAILED|PASSED|SKIPPED \[|Failure" "$logs/tests.log" | head -20
      timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/kernels_tests" \
        --gtest_filter='MmaSyncTiles.EveryConfigurationIsCorrectAtSmall*' > "$logs/tiles_memcheck.log" 2>&1
      echo "tiles memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$logs/tiles_memcheck.log" | head -3 ;;
  esac
done
echo "=== end ($(date -u +%H:%M:%S))"
tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$logs"
