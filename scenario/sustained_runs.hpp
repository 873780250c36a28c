// Rungs held under sustained load (assets/measured/power_ladder_GPU.csv): tilesim-bench's rows
// repeated for 1-2 s each while NVML sampled the SM clock and board power (scripts/nvml.py,
// scripts/clock_summary.py ladder). What the ladder's short runs do not show: under seconds of
// load a matmul sits at the board's power cap, and the cap sets the clock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::scenario {

struct SustainedRun {
  std::string variant;  // a tilesim-bench variant ("matmul_wgmma_persistent", "cublas_gemmex")
  std::int64_t m = 0, n = 0, k = 0;
  sim::DType dtype = sim::DType::fp16;
  sim::LaunchOrder order = sim::LaunchOrder::row_major;
  double median_ms = 0;  // under the sustained load
  double sm_mhz = 0;     // NVML's SM clock meanwhile (median)
  double power_w = 0;    // NVML's board power meanwhile (median)
};

struct SustainedRuns {
  std::string gpu;                 // "NVIDIA H100 80GB HBM3" (the file's "# gpu:" line)
  std::string date;                // "2026-11-27" (its "# date:" line)
  std::vector<SustainedRun> runs;  // the clean rows (a run's first row shares its window with
                                   // the set-up and is left out)
};

// Throws std::runtime_error naming the file, the line and the field on malformed input.
SustainedRuns parse_sustained_runs(std::string_view csv, const std::string& source);
// assets/measured/power_ladder_<machine_key>.csv, read on first use and kept; null when the
// preset has none or it does not read.
const SustainedRuns* bundled_sustained_runs(const std::string& machine_key);
// The run of `variant` on `spec`'s sizes, dtype and launch order (the bench rows' grouping is
// GROUP_SIZE_M 8, the ladder's); null when none.
const SustainedRun* find_sustained(const SustainedRuns& runs, const std::string& variant,
                                   const sim::ProblemSpec& spec);

}  // namespace tilesim::scenario
