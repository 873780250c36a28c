#!/usr/bin/env bash
# Issue 27, docs/PERFORMANCE.md Follow-up 9: the turned-tile Hopper trials 6h-6j beside 6c on an H100.
# DIR (the folder of this script on the device) holds tilesim-bench, tilesim-run-one and
# wgmma_paired (kernels/wgmma_paired.cpp linked as its header says), each stripped and xz -9'd
# (NAME.s.xz), carried with the checkout. Steps: env (cuobjdump registers) check paired sanitize
# ncu. Env: GS (grouped G values, 16), DTYPES, ROUNDS (15), RUNGS (6h-6j; 6c always first),
# ORDER (grouped), SAN_T (s per sanitizer, 60), NCU_RUNGS (VARIANT:G ...), CHECK_ONLY (turned).
# Usage (on the GPU machine, repo root, this script copied beside the binaries):
#   DIR/device_wgmma_turned.sh OUT_DIR STEPS...   e.g. GS="16 8" DIR/... $OUT env check paired sanitize
set -u
d=$(dirname "$0"); out=$1; shift
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
for n in tilesim-bench tilesim-run-one wgmma_paired; do
  [ -x "$d/$n" ] || { xz -dc "$d/$n.s.xz" > "$d/$n" && chmod +x "$d/$n"; }
done
T="matmul_wgmma_persistent_turned matmul_wgmma_persistent_turned_mc matmul_wgmma_persistent_turned_mcb"
for s in "$@"; do
  echo "=== $s ($(date -u +%H:%M:%S))"
  case $s in
    env)
      nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
      cuobjdump --dump-resource-usage "$d/tilesim-bench" 2>/dev/null | grep -A1 "persistent_kernel" \
        | grep -oE "Li(128|256)ELi(128|256)ELi4ELi1ELi[12]ELb[01]ELb1|REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+ LOCAL:[0-9]+" | paste - - | sort -u ;;
    check)
      timeout 90 "$d/tilesim-bench" --ladder check --only ${CHECK_ONLY:-turned} > "$out/check.log" 2>&1
      echo "check rc=$?"; grep -E "correct$|fail|FAIL" "$out/check.log" | tail -8 ;;
    paired)
      for t in ${DTYPES:-fp16 bf16}; do for g in ${GS:-16}; do
        timeout 100 "$d/wgmma_paired" 4096 $t ${ORDER:-grouped} $g ${ROUNDS:-15} matmul_wgmma_persistent ${RUNGS:-$T}
      done; done ;;
    sanitize)
      timeout ${SAN_T:-60} compute-sanitizer --tool memcheck --error-exitcode 9 "$d/tilesim-bench" \
        --ladder check --only turned --check-max-elems 2e8 > "$out/memcheck.log" 2>&1
      echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|correct$" "$out/memcheck.log" | tail -4
      timeout ${SAN_T:-60} compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$d/tilesim-bench" --ladder check --only turned --check-max-elems 2e8 > "$out/racecheck.log" 2>&1
      echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|correct$" "$out/racecheck.log" | tail -4 ;;
    ncu)
      for vg in ${NCU_RUNGS:-matmul_wgmma_persistent:16 matmul_wgmma_persistent_turned:8}; do
        v=${vg%:*} gm=${vg#*:}
        timeout 60 ncu --clock-control none --section SpeedOfLight --section LaunchStats --section Occupancy \
          --metrics sm__cycles_active.avg,sm__cycles_elapsed.max,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
          -k "regex:persistent" -c 1 "$d/tilesim-run-one" --variant "$v" --kernel matmul --m 4096 --n 4096 --k 4096 \
          --dtype fp16 --order grouped --group-m $gm > "$out/ncu_$v.log" 2>&1
        echo "ncu $v rc=$?"
        grep -E "Duration|Registers Per|Grid Size|Block Size|Dynamic Shared|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|sm__|lts__" "$out/ncu_$v.log" | sed 's/  */ /g'
      done ;;
  esac
done
echo "=== end ($(date -u +%H:%M:%S))"
