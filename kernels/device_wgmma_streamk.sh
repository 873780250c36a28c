#!/usr/bin/env bash
# One device call for the stream-K rung (6g, issue 27): kernels/device_wgmma_persistent.sh with
# the rungs of this comparison (6c beside 6g, cuBLAS in the same process), plus the registers and
# spills of the sm_90a kernels (cuobjdump) and the assets path kernels_tests was built with.
# Usage (on the GPU machine, repo root): kernels/device_wgmma_streamk.sh DIR OUT_DIR [steps...]
# DIR as for device_wgmma_persistent.sh (tilesim-bench, tilesim-run-one, kernels_tests,
# wgmma_orders, built for sm_90a), plus device_wgmma_persistent.sh itself. BUILD_ROOT: the
# repository path the binaries were built in. The device tool ships the checkout its session
# started in, not a helper's worktree: copy DIR into an ignored folder of that checkout
# (Follow-up 7 used .devcarry/streamk/) and name it in the call's carry.
set -u
bin=$1 out=$2
shift 2
export RUNGS=${RUNGS:-matmul_wgmma_persistent matmul_wgmma_streamk}
export SAN_RUNG=${SAN_RUNG:-streamk} SIZES=${SIZES:-4096} GSIZES=${GSIZES:-8,16}
export PATH=/usr/local/cuda/bin:$PATH
root=${BUILD_ROOT:-/work/wt-streamk}
if [ ! -e "$root/assets" ]; then mkdir -p "$root" && ln -s "$PWD/assets" "$root/assets"; fi
echo "=== registers (cuobjdump, sm_90a kernels)"
cuobjdump --dump-resource-usage "$bin/tilesim-bench" 2>/dev/null | grep -A1 -E "wgmma_(streamk|persistent)_kernel" |
  grep -oE "REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+ LOCAL:[0-9]+" | sort | uniq -c
# The check step of the persistent script covers every wgmma rung; this call checks 6g alone.
steps=${*:-env check orders ncu sanitize tests}
for s in $steps; do
  if [ "$s" = check ]; then
    echo "=== check streamk ($(date -u +%H:%M:%S))"
    mkdir -p "$out/logs"
    timeout 120 "$bin/tilesim-bench" --ladder check --only streamk > "$out/logs/check_streamk.log" 2>&1
    echo "check (6g) rc=$?"; grep -E "correct$|failure|FAIL" "$out/logs/check_streamk.log"
  elif [ "$s" = ncu2 ]; then  # one 4096^3 fp16 grouped G = 16 launch per rung: time, tensor
    # pipe, L2 hit rate and DRAM throughput
    mkdir -p "$out/logs"
    for v in $RUNGS; do
      timeout 60 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis --section LaunchStats --metrics \
        sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,sm__cycles_active.avg,gpc__cycles_elapsed.max \
        -k "regex:wgmma" -c 1 --csv --page details "$bin/tilesim-run-one" --variant "$v" \
        --kernel matmul --m 4096 --n 4096 --k 4096 --dtype fp16 --order grouped --group-m 16 \
        --block-m 128 --block-n 256 --block-k 64 > "$out/logs/ncu2_$v.csv" 2>&1
      echo "ncu2 $v rc=$?"
      grep -E '"(Duration|Grid Size|Memory Throughput|DRAM Throughput|L2 Hit Rate|L1/TEX Hit Rate|Compute \(SM\) Throughput|sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active|lts__t_sector_hit_rate.pct|sm__cycles_active.avg|gpc__cycles_elapsed.max)"' \
        "$out/logs/ncu2_$v.csv" | awk -F'","' '{print $(NF-2)" = "$NF}'
    done
  elif [ "$s" = sanitize ]; then  # as the persistent script's, with shorter limits (a hang in
    # the owners' waits would otherwise hold the machine for 150 s a tool)
    mkdir -p "$out/logs"
    for tool in memcheck racecheck; do
      extra=; [ $tool = racecheck ] && extra="--racecheck-report all"
      timeout 60 compute-sanitizer --tool $tool $extra --error-exitcode 9 "$bin/tilesim-bench" \
        --ladder check --only "$SAN_RUNG" --check-max-elems 2e8 > "$out/logs/$tool.log" 2>&1
      echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|correct$" "$out/logs/$tool.log" | tail -4
    done
  else
    bash "$bin/device_wgmma_persistent.sh" "$bin" "$out" "$s"
    [ -f "$out/logs.tgz" ] && mv "$out/logs.tgz" "$out/logs_$s.tgz"
  fi
done
