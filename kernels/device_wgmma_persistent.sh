#!/usr/bin/env bash
# One device call for the Hopper rungs (issue 27): environment, correctness of every wgmma rung at
# the check sizes (odd sizes, 4 launch orders, fp16 + bf16), every launch order of each rung beside
# cuBLAS GemmEx in one process (kernels/wgmma_orders.cpp), Nsight Compute on one 4096^3 fp16
# grouped launch per rung, compute-sanitizer memcheck and racecheck on the persistent rung(s),
# kernels_tests. Binaries are built elsewhere (sm_90a) and carried with this script in one folder.
# Usage (on the GPU machine, repo root): kernels/device_wgmma_persistent.sh DIR OUT_DIR [steps...]
# DIR holds tilesim-bench, tilesim-run-one, kernels_tests and wgmma_orders, the last linked here
# with the link line of tilesim-run-one (build/build.ninja) with wgmma_orders.cpp.o in place of
# calibrate_run_one.cpp.o.
# steps: env check orders ncu sanitize tests (default: all). Env: RUNGS (timed and profiled),
# SIZES (4096,8192), DTYPES (fp16,bf16), GSIZES (8,16; not GROUPS, a bash variable), SAN_RUNG (persistent).
set -u
bin=$1 out=$2
shift 2
steps=${*:-env check orders ncu sanitize tests}
rungs=${RUNGS:-matmul_wgmma_tma matmul_wgmma_tma_store matmul_wgmma_persistent}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
logs=$out/logs
mkdir -p "$logs"
for s in $steps; do
  echo "=== $s ($(date -u +%H:%M:%S))"
  case $s in
    env)
      nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv
      ldd "$bin/tilesim-bench" | grep -E "cudart|cublas|not found" ;;
    check)
      timeout 200 "$bin/tilesim-bench" --ladder check --only wgmma > "$logs/check_wgmma.log" 2>&1
      echo "check (every wgmma rung) rc=$?"; grep -E "correct$|failure|FAIL" "$logs/check_wgmma.log" ;;
    orders)
      timeout 400 "$bin/wgmma_orders" "${SIZES:-4096,8192}" "${DTYPES:-fp16,bf16}" \
        "${GSIZES:-8,16}" $rungs > "$logs/orders.log" 2>&1
      echo "orders rc=$?"; cat "$logs/orders.log" ;;
    ncu)
      for v in $rungs; do
        timeout 120 ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis \
          --section WarpStateStats --section SchedulerStats --section LaunchStats \
          -k "regex:wgmma" -c 1 -f -o "$logs/ncu_$v" \
          "$bin/tilesim-run-one" --variant "$v" --kernel matmul --m 4096 --n 4096 --k 4096 \
          --dtype fp16 --order grouped --group-m 8 --block-m 128 --block-n 256 --block-k 64 \
          > "$logs/ncu_$v.log" 2>&1
        echo "ncu $v rc=$?"
        ncu -i "$logs/ncu_$v.ncu-rep" --page details --csv > "$logs/ncu_${v}_details.csv" 2>&1
        grep -E '"(Duration|Grid Size|Registers Per Thread|Compute \(SM\) Throughput|Memory Throughput|Warp Cycles Per Issued Instruction|Issued Ipc Active|Executed Instructions|Stall [A-Za-z ]+)"' \
          "$logs/ncu_${v}_details.csv" | awk -F'","' '{print $(NF-2)" = "$NF}' | head -40
        ncu -i "$logs/ncu_$v.ncu-rep" --page raw --csv > "$logs/ncu_${v}_raw.csv" 2>&1
        python3 - "$logs/ncu_${v}_raw.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) >= 3:
    for name, unit, val in zip(rows[0], rows[1], rows[2]):
        if ("pipe_tensor" in name or "pipe_shared" in name) and "pct_of_peak_sustained_active" in name:
            print(f"{name} = {val} {unit}")
PY
      done ;;
    sanitize)
      v=${SAN_RUNG:-persistent}
      timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/tilesim-bench" \
        --ladder check --only "$v" --check-max-elems 2e8 > "$logs/memcheck.log" 2>&1
      echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|correct$" "$logs/memcheck.log" | tail -4
      timeout 150 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$bin/tilesim-bench" --ladder check --only "$v" --check-max-elems 2e8 \
        > "$logs/racecheck.log" 2>&1
      echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|correct$" "$logs/racecheck.log" | tail -4 ;;
    tests)
      timeout 200 "$bin/kernels_tests" > "$logs/tests.log" 2>&1
      echo "kernels_tests rc=$?"; grep -E "FAILED|PASSED|SKIPPED \[|Failure" "$logs/tests.log" | head -20 ;;
  esac
done
echo "=== end ($(date -u +%H:%M:%S))"
tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$logs"
