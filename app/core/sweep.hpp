// Sweep of GROUP_SIZE_M or block sizes: for each setting, the distinct input bytes the first
// wave of programs touches (sim::footprint). When a wave's footprint fits in L2, that is what the
// wave must read from DRAM — the figure grouped launch orders shrink. Runs on a worker thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "sim/problem.hpp"

namespace tilesim::app {

enum class SweepAxis { group_size_m, block_size };

struct SweepBar {
  std::string label;        // "GROUP_SIZE_M = 8" or "64x64x32"
  sim::ProblemSpec spec;
  std::int64_t programs = 0;  // programs in the first wave
  std::int64_t tiles = 0;     // distinct input tiles they touch
  std::int64_t bytes = 0;     // distinct input bytes they touch
  bool is_current = false;    // the setting now open
};

// The settings a sweep visits (valid problems only).
std::vector<sim::ProblemSpec> sweep_settings(const sim::ProblemSpec& base, SweepAxis axis);
std::vector<SweepBar> run_sweep(const sim::ProblemSpec& base, SweepAxis axis,
                                std::int64_t wave_programs, std::stop_token stop,
                                std::atomic<double>& progress);
std::string sweep_key(const sim::ProblemSpec& base, SweepAxis axis, std::int64_t wave_programs);

}  // namespace tilesim::app
