// Timed engine: programs run in simulated time. Each step takes time from what it does and where
// its data comes from (an L2 hit, or a DRAM miss that also queues behind every other miss), the
// shared pipes it competes for (DRAM, the L2, its SM's fill path, math and shared memory) and its
// pipeline (loads for k + stages - 1 go out while step k computes). Events are executed in time
// order, so the L2 sees accesses in the order the GPU would.
// Teaches: a program that misses waits longer and falls behind its neighbours, so row-major waves
// drift apart and re-read B; the time breakdown names what the kernel waits on.
//
// Determinism: time is an integer number of picoseconds; the next event is the one with the
// smallest (time, pid, step), so the same scenario gives the same events on every machine.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "sim/program/occupancy.hpp"
#include "sim/replay/engine.hpp"
#include "sim/timing/step_costs.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

// One event as it ran: what (pid, step), when (start and end, picoseconds) and what it waited on.
struct TimedEvent {
  std::int32_t pid = 0;
  std::int32_t step = 0;
  std::int64_t start_ps = 0;  // issue (loads, stores) or start (dot) time
  std::int64_t end_ps = 0;    // data in shared memory / registers, dot done, store accepted
  TimeCause cause = TimeCause::latency;  // what decided end_ps
};

// One program on its slot, and what its time went to as the engine attributed it while it ran:
// its dots' pipe time by cause (math, issue, smem, bank_conflict); its waits by cause, the same
// the time breakdown weighs its SM's rest by (launch, issue of a copy's instruction stream,
// latency, dram, l2, sm_load, smem and bank_conflict of its tiles' writes and transposes); and
// its ready dots' waits for the pipe while a neighbour's dot held it, by that dot's cause (the
// breakdown counts those as the pipe's busy time). The causes add up to about the span, not
// exactly: a dot's K-step noise lengthens or shortens the span, not its causes; never tail (an
// SM's idle end, no program's).
struct ProgramSpan {
  std::int64_t pid = 0;
  int slot = 0, sm = 0;
  std::int64_t start_ps = 0, end_ps = 0;
  std::array<std::int64_t, kTimeCauses> time_by_cause{};  // ps
};
// The cause that took most of a program's time (the first of equals in TimeCause's order).
TimeCause main_cause(const ProgramSpan& s);

struct TimedResult {
  TimingSummary timing;
  double time_s() const { return timing.time_s(); }
  Counters counters;                  // flush included, as replay() gives them
  std::vector<ProgramSpan> programs;  // by pid
  std::int64_t line_ops = 0;
  std::vector<TileReuse> a_reuse, b_reuse;
};

struct TimedOptions {
  TimingOptions timing;
  std::vector<TimedEvent>* events = nullptr;     // when set: every event, in execution order
  std::vector<AccessResult>* records = nullptr;  // when set: each event's L2 record
  // When set: called after every event with the memory model as it stands (the timeline saves
  // its checkpoints here, so a timed timeline is built in one pass).
  std::function<void(const Engine&)> after_event;
  std::function<void(double)> progress;       // fraction done in [0, 1]
  const std::atomic<bool>* cancel = nullptr;  // set -> throws runtime_error("cancelled")
};

TimedResult run_timed(const Problem& p, const Machine& m, const Occupancy& occ,
                      const TimedOptions& opt = {});

// The timed replay as `run` and `sweep` print it: counters in time order, and the time;
// `programs`, when set, receives each program's span (by pid).
ReplayResult replay_timed(const Problem& p, const Machine& m, const Occupancy& occ,
                          const TimingOptions& timing = {},
                          const std::function<void(double)>& progress = {},
                          const std::atomic<bool>* cancel = nullptr,
                          std::vector<ProgramSpan>* programs = nullptr);

}  // namespace tilesim::sim
