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

#include "sim/counters.hpp"
#include "sim/engine.hpp"
#include "sim/occupancy.hpp"
#include "sim/step_costs.hpp"

namespace tilesim::sim {

// What a moment of an SM's time went to. `math`, `smem` and `bank_conflict` are the SM's dot pipe
// busy; the others are time no dot ran while a resident program waited on that (or, for tail,
// the SM had nothing left to run while others still did).
enum class TimeCause {
  launch,         // programs starting (block launch, prologue)
  latency,        // a load in flight that no bandwidth limit held back: latency not hidden
  dram,           // waiting behind other DRAM traffic (bandwidth)
  l2,             // waiting behind other L2 traffic (bandwidth)
  sm_load,        // the SM's own fill path from L2 (bytes per cycle per SM)
  smem,           // shared memory: operands of a dot, tiles written or transposed
  bank_conflict,  // the extra wavefronts bank conflicts add to shared memory
  math,           // the dot's math pipe (FMA or tensor cores), loop overhead and spills included
  tail,           // the last wave: this SM is idle while others finish
};
inline constexpr int kTimeCauses = 9;
std::string_view to_string(TimeCause c);

// Seconds per cause; they add up to the kernel time (each is an average over SMs).
struct TimeBreakdown {
  std::array<double, kTimeCauses> seconds{};
  double operator[](TimeCause c) const { return seconds[static_cast<int>(c)]; }
  double total() const;
  TimeCause bound() const;  // the largest cause
};

// One event as it ran: what (pid, step), when (start and end, picoseconds) and what it waited on.
struct TimedEvent {
  std::int32_t pid = 0;
  std::int32_t step = 0;
  std::int64_t start_ps = 0;  // issue (loads, stores) or start (dot) time
  std::int64_t end_ps = 0;    // data in shared memory / registers, dot done, store accepted
  TimeCause cause = TimeCause::latency;  // what decided end_ps
};

// One program on its slot.
struct ProgramSpan {
  std::int64_t pid = 0;
  int slot = 0, sm = 0;
  std::int64_t start_ps = 0, end_ps = 0;
};

struct TimedResult {
  std::int64_t kernel_ps = 0;  // first launch to last byte stored
  double time_s() const { return static_cast<double>(kernel_ps) * 1e-12; }
  Counters counters;  // flush included, as replay() gives them
  TimeBreakdown breakdown;
  StepCosts costs;
  // Busy fraction of each shared pipe over the kernel time (SM pipes: mean over SMs).
  double dram_busy = 0, l2_busy = 0, fill_busy = 0, dot_busy = 0;
  std::vector<ProgramSpan> programs;  // by pid
  std::int64_t line_ops = 0;
  std::vector<TileReuse> a_reuse, b_reuse;
};

struct TimedOptions {
  TimingOptions timing;
  std::vector<TimedEvent>* events = nullptr;     // when set: every event, in execution order
  std::vector<AccessResult>* records = nullptr;  // when set: each event's L2 record
  std::function<void(double)> progress;          // fraction done in [0, 1]
  const std::atomic<bool>* cancel = nullptr;     // set -> throws runtime_error("cancelled")
};

TimedResult run_timed(const Problem& p, const Machine& m, const Occupancy& occ,
                      const TimedOptions& opt = {});

}  // namespace tilesim::sim
