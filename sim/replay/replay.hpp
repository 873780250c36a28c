// The one replay entry point: the counters of a whole run in the order asked for, and its time.
// The time is always the timed engine's: a round order (lockstep, staggered) has no time of its
// own, so its counters come with the timed replay's time beside them (predicted_timing).
// Teaches: the order changes which bytes come from DRAM; the prediction of time stays one model.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "sim/replay/engine.hpp"
#include "sim/timing/timed_engine.hpp"

namespace tilesim::sim {

struct ReplayOptions {
  EventOrderKind order = kDefaultEventOrder;
  TimingOptions timing;                          // the timed engine's (rung) options
  std::function<void(double)> progress;          // fraction done in [0, 1], now and then
  const std::atomic<bool>* cancel = nullptr;     // set -> throws runtime_error("cancelled")
  std::vector<ProgramSpan>* programs = nullptr;  // when set: each program's span, by pid
};

// The counters in opt.order (ReplayResult::order says which), the timed engine's time and
// breakdown, and (when asked) its per-program spans, whatever the order.
ReplayResult replay(const Problem& p, const Machine& m, const Occupancy& occ,
                    const ReplayOptions& opt = {});

// The predicted time of a run in any order: the timed engine's.
TimingSummary predicted_timing(const Problem& p, const Machine& m, const Occupancy& occ,
                               const TimingOptions& timing = {},
                               const std::atomic<bool>* cancel = nullptr);

}  // namespace tilesim::sim
