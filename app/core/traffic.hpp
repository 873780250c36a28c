// Traffic of the programs launched so far, without an L2 model: the bytes their loads request
// and the distinct input bytes they touch (sim::footprint) — what DRAM must deliver at least.
// The gap between the two is the reuse a perfect cache could exploit; the launch order moves
// the footprint, not the requests (Triton's 90 vs 54 tiles).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>

#include "app/core/ui_state.hpp"
#include "sim/problem.hpp"

namespace tilesim::app {

// Programs 0 .. programs-1 in `p`'s order and in `second` (the compare order, if any).
CompareStats compute_traffic(const sim::Problem& p, std::optional<sim::LaunchOrder> second,
                             std::int64_t programs, std::stop_token stop,
                             std::atomic<double>& progress);
std::string traffic_key(const sim::ProblemSpec& s, std::optional<sim::LaunchOrder> second,
                        std::int64_t programs);

}  // namespace tilesim::app
