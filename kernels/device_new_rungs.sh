#!/usr/bin/env bash
# One device call: build tilesim-bench and kernels_tests there (the app off; nlohmann-json, CLI11
# and GoogleTest carried as Debian packages in DEBS_DIR), run kernels_tests, then the full
# ladder's items of the rungs the bundled files assets/measured/bench_<gpu>.json lack (ladder
# check first: odd sizes, every order, fresh inputs, poisoned outputs; baselines in the same
# process), one JSON per --only filter, for scripts/merge_bench.py.
# Usage (on the GPU machine, repo root): kernels/device_new_rungs.sh DEBS_DIR COMMIT FILTER...
# NVML=1: each ladder runs under scripts/nvml.py (SM clock and power every ~2 ms, each printed row
# time-stamped: OUT/nvml_FILTER.json); LADDER_ARGS: more tilesim-bench flags (e.g. --repeats 4000
# --max-seconds 2, so each timed row holds the GPU for 2 s).
set -u
debs=$1 commit=$2
shift 2
export PATH=/usr/local/cuda/bin:$PATH
echo "=== build ($(date -u +%H:%M:%S))"
mkdir -p /tmp/deps && for f in "$debs"/*.deb; do dpkg -x "$f" /tmp/deps; done
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILESIM_BUILD_APP=OFF \
  -DCMAKE_PREFIX_PATH=/tmp/deps/usr -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.log" 2>&1 &&
  ninja -C /tmp/b tilesim-bench kernels_tests >> "$OUT/build.log" 2>&1
echo "build rc=$?"; tail -3 "$OUT/build.log"
bin=$(dirname "$(find /tmp/b -name tilesim-bench -type f | head -1)")
tests=$(find /tmp/b -name kernels_tests -type f | head -1)
echo "=== tests ($(date -u +%H:%M:%S))"
timeout 150 "$tests" > "$OUT/tests.log" 2>&1
echo "kernels_tests rc=$?"; grep -E "FAILED|PASSED|SKIPPED \[|Failure" "$OUT/tests.log" | head -20
for f in "$@"; do
  echo "=== ladder --only $f ($(date -u +%H:%M:%S))"
  wrap=()
  [ "${NVML:-0}" = 1 ] && wrap=(python3 scripts/nvml.py --out "$OUT/nvml_$f.json" -- stdbuf -oL)
  timeout 300 "${wrap[@]}" "$bin/tilesim-bench" --ladder full --only "$f" --commit "$commit" \
    --json "$OUT/bench_$f.json" ${LADDER_ARGS:-} > "$OUT/ladder_$f.log" 2>&1
  echo "ladder $f rc=$?"; grep -vE "correct$" "$OUT/ladder_$f.log" | tail -30
  grep -cE " correct$" "$OUT/ladder_$f.log"
done
echo "=== end ($(date -u +%H:%M:%S))"
