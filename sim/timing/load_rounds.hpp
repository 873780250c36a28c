// The element loops' tile loads in rounds: a copy's or transpose's threads keep few loads in
// flight, so its tile comes in StepCosts::load_rounds round trips, each issued when the previous
// one is back; the program goes on when its slowest warp's last round is back and the rest of the
// load (DRAM and L2 queues, fill path) has let the tile arrive.
// Teaches: with few loads in flight, a copy waits on DRAM latency, not on its bandwidth.
#pragma once

#include <cstdint>

#include "sim/memory/dram_reads.hpp"
#include "sim/timing/step_costs.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

// One program's tile load in rounds, as it stands.
struct LoadRounds {
  std::int64_t done = 0;                       // rounds back so far
  std::int64_t other_end = 0;                  // when the rest of the load lets the tile arrive, ps
  TimeCause other_cause = TimeCause::latency;  // and what that waited on
  std::int64_t event = -1;   // the load's index in the recorded events (-1: none kept)
  std::int64_t queued = 0;   // of its rounds' time, the waits behind transposes' reads, ps
  std::int64_t slowest = 0;  // the wait for its slowest warp after the last round, ps
};

// When a round issued at `issue` by program `pid` is back: the DRAM's latency under the reads
// that all such loads keep in flight then, at the reads' share of the DRAM's rate (Little's law,
// loaded_round_ps; `reads`), varied per (pid, round) by `round_cv` (Machine::load_round_cv), plus
// its wait at the SM's load/store pipe behind one shared-memory read per warp of each of the
// `readers` transposes reading there now (conflicted reads hold the pipe longer, so the loads
// wait with them; queued_round_ps). Adds its share to `r->queued` and `r->slowest`.
std::int64_t round_end(const StepCosts& c, double round_cv, DramReads* reads, int readers,
                       std::int64_t pid, std::int64_t issue, LoadRounds* r);

// A load whose last round came back at `last_back`, for a program that waited from `since`
// (ps): when it goes on and what it waited on. The rounds' waits behind the SM's transposes go
// to those transposes' reads (`reads`: smem, or bank_conflict where they conflict), the rest to
// the DRAM's latency, or, when the rest of the load came last, to what that waited on.
struct RoundsDone {
  std::int64_t end = 0;                       // the tile is in, ps
  TimeCause cause = TimeCause::latency;       // the load event's cause
  TimeCause rest_cause = TimeCause::latency;  // of the program's wait, the part not queued
  std::int64_t rest = 0, queued = 0;          // its wait split in two, ps
};
RoundsDone rounds_done(const LoadRounds& r, std::int64_t last_back, std::int64_t since,
                       TimeCause reads);

}  // namespace tilesim::sim
