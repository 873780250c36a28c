// The timed engine's result assembly: each SM's totals (its pipes' busy time, its programs' waits
// by cause, its last retire) become the kernel's time breakdown and pipe busy fractions.
// Teaches: an SM's time is its dot pipe's busy time by cause, the rest shared among what its
// programs waited on, and its idle end (the tail of the last wave).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

// What one SM did over a timed run, ps.
struct SmTotals {
  std::int64_t fill_ps = 0, dot_ps = 0;          // its fill path's and dot pipe's busy time
  std::int64_t last_retire = 0;                  // when its last program retired
  std::array<std::int64_t, kTimeCauses> busy{};  // dot pipe time by cause
  std::array<std::int64_t, kTimeCauses> wait{};  // its programs' waits by cause (weights)
};

// The breakdown and the SM pipes' busy fractions of `out` for a kernel of out->kernel_ps, from
// every SM's totals (averaged over them): an SM's busy time by cause (scaled down if it exceeds
// the SM's time before its tail), then the rest shared among the causes its programs waited on,
// in proportion to those waits (all of it to the tail when they never waited), and its idle end
// after its last retire as the tail. The causes add up to the kernel time.
void summarize_sms(std::span<const SmTotals> sms, TimingSummary* out);

// Adds `ps` to the cause's total when positive.
inline void add_time(std::array<std::int64_t, kTimeCauses>* a, TimeCause c, std::int64_t ps) {
  if (ps > 0) (*a)[static_cast<std::size_t>(c)] += ps;
}

}  // namespace tilesim::sim
