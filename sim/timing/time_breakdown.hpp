// Time breakdown: what a kernel's time went to, cause by cause, and the summary of a timed run
// that every output (CLI, app, sweep) shows. Teaches: the bound of a kernel is the cause that
// takes the largest share of its time — DRAM, L2, shared memory (and bank conflicts), math,
// latency that no other program hides, or the tail of the last wave.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/base/enum_names.hpp"
#include "sim/timing/step_costs.hpp"

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
  issue,          // the warps' instruction stream: schedulers issue under one a cycle, a warp fewer
  tail,           // the last wave: this SM is idle while others finish
};
inline constexpr int kTimeCauses = 10;
// Every cause and its name, in the order above: the one table that printing (CLI, JSON) and every
// legend (the app's SM timeline) read.
inline constexpr enum_names::Table<TimeCause, kTimeCauses> kTimeCauseNames{{
    {TimeCause::launch, "launch"},
    {TimeCause::latency, "latency"},
    {TimeCause::dram, "dram"},
    {TimeCause::l2, "l2"},
    {TimeCause::sm_load, "sm_load"},
    {TimeCause::smem, "smem"},
    {TimeCause::bank_conflict, "bank_conflict"},
    {TimeCause::math, "math"},
    {TimeCause::issue, "issue"},
    {TimeCause::tail, "tail"},
}};
std::string_view to_string(TimeCause c);
// Whether a program's own time can go to `c` (ProgramSpan::time_by_cause): every cause but the
// tail, which is an SM's idle end.
constexpr bool is_program_cause(TimeCause c) {
  return c != TimeCause::tail;
}

// Seconds per cause; they add up to the kernel time (each is an average over SMs).
struct TimeBreakdown {
  std::array<double, kTimeCauses> seconds{};
  double operator[](TimeCause c) const { return seconds[static_cast<int>(c)]; }
  double total() const;
  TimeCause bound() const;  // the largest cause
};

// A timed run in numbers: the kernel time, where it went and how busy each shared pipe was.
struct TimingSummary {
  std::int64_t kernel_ps = 0;  // first launch to the last byte stored (0: not timed)
  double time_s() const { return static_cast<double>(kernel_ps) * 1e-12; }
  TimeBreakdown breakdown;
  StepCosts costs;
  // Busy fraction of each shared pipe over the kernel time (SM pipes: mean over SMs).
  double dram_busy = 0, l2_busy = 0, fill_busy = 0, dot_busy = 0;
};

}  // namespace tilesim::sim
