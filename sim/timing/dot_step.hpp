// One dot step (a K-iteration's tl.dot) on its SM's dot pipe: how long it holds the pipe and what
// that time went to. The operand reads from shared memory run beside the math (the slower sets
// the pace) or before it (they add up); the warps cannot go faster than they issue their
// instructions; spilled accumulators add their local-memory time.
// Teaches: a dot is bound by its math, its shared-memory reads (bank conflicts included) or its
// instruction issue, whichever is slowest.
#pragma once

#include <array>
#include <cstdint>

#include "sim/timing/step_costs.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

struct DotTime {
  std::int64_t ps = 0;       // the dot pipe's time, noise included
  std::int64_t smem_ps = 0;  // how long its operand reads (and spills) hold the shared-memory pipe
  bool issue_bound = false;  // the instruction stream sets the pace
  TimeCause cause = TimeCause::math;             // what decided ps
  std::array<std::int64_t, kTimeCauses> busy{};  // the pipe's time by cause (before noise)
};

// A dot with `residents` programs on its SM (they share its schedulers: a last wave's fewer
// programs issue faster each). `diffusion_ps`: D of the time noise (Machine::dot_time_diffusion_s
// and _miss_s, in ps); `noise`: a fixed number of mean 0 and variance 1 (fixed_noise(pid, k)).
// The noise applies where the SM's pace is its warps' latency, not its issue slots (an
// issue-bound SM fills a stalled warp's slots from the others): ps + sqrt(D * ps) * noise.
// `math_scale`: the math's time over its full-rate time (the clock's fall, StepCosts::clock_rate).
DotTime dot_time(const StepCosts& c, int residents, double diffusion_ps, double noise,
                 double math_scale = 1.0);

}  // namespace tilesim::sim
