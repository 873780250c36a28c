// A transpose's use of its SM's shared-memory pipe: its tile's write and its column reads are one
// job that shares the pipe equally with the SM's other transposes (sim/timing/shared_pipe.hpp);
// its time there is its program's wait, split into the conflict-free wavefronts (smem) and the
// extra ones of bank conflicts.
// Teaches: a 32-way conflicted transpose holds the pipe 32 times longer than a padded one.
#pragma once

#include <cstdint>

#include "sim/timing/step_costs.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

// A transpose's work on the pipe alone, ps: its tile's write (the load left it to this job) and
// its column reads, conflicts included.
std::int64_t transpose_work_ps(const StepCosts& c);
// What a transpose's column reads wait on: bank conflicts where they conflict, else smem.
TimeCause transpose_read_cause(const StepCosts& c);
// Of `waited` ps on the pipe for a transpose, the conflict-free wavefronts' share of its work
// (the tile's write and its reads at degree 1), rounded, at most `waited`; the rest is its bank
// conflicts'.
std::int64_t conflict_free_part(const StepCosts& c, std::int64_t waited);

}  // namespace tilesim::sim
