// The memory path of the timed engine: DRAM and the L2 for the whole GPU, each SM's fill path
// from the L2, as "busy until" clocks. A request starts when both it and the pipe are ready and
// holds the pipe for its bytes over the pipe's rate; its data arrives after the latency or
// after the last pipe that held it back, and that pipe is what it waited on.
// Teaches: a load that misses queues behind every other miss; an eviction's write-back takes
// DRAM time from the reads.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/memory/dram_reads.hpp"
#include "sim/replay/engine.hpp"
#include "sim/timing/step_costs.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

// A shared pipe as a "busy until" clock, with the time it has been held (ps).
struct Pipe {
  std::int64_t free = 0;  // when it takes the next request
  std::int64_t busy = 0;  // the sum of its requests' durations
  // Holds the pipe from max(ready, free) for `duration`; returns the end.
  std::int64_t hold(std::int64_t ready, std::int64_t duration) {
    free = std::max(ready, free) + duration;
    busy += duration;
    return free;
  }
};

// Picoseconds for `bytes` at `ps_per_byte`, rounded to the nearest.
std::int64_t ps_of_bytes(std::int64_t bytes, double ps_per_byte);

// Where a tile load's data is and what decided it: the L2 (hit), DRAM (miss), or the pipe
// that held it back last.
struct Arrival {
  std::int64_t at = 0;  // ps
  TimeCause cause = TimeCause::latency;
};

// A store leaving its SM: `out` when its bytes have left the SM (the program retires then),
// `done` when they are in the L2 (or, for the write-backs its evictions cause, in DRAM).
struct StoreDone {
  std::int64_t out = 0, done = 0;
  TimeCause cause = TimeCause::sm_load;  // what `done` or `out` waited on
};

class MemoryPath {
 public:
  // `l2_bytes`: the replay's L2 capacity (DramReads averages the read share over about that).
  MemoryPath(const StepCosts& c, int sms, double l2_bytes) : m_c(&c), m_reads(sms, l2_bytes) {}

  // A tile load issued at `issue` with L2 outcome `r`, through its SM's `fill` path: DRAM for
  // its misses (and the write-backs its evictions cause), the L2 and the fill path for all its
  // sectors. `*filled`: when the last DRAM fill of its input tile is in (its slowest warp's wait
  // included: StepCosts::tile_slowest_warp_ps) and what held that fill back; a load that hits
  // sectors still on their way waits for them (the L2 merges it with the miss in flight), for the
  // fill's cause — latency where the fill met no queue, else DRAM; a load that misses moves it.
  // `l2_weight`: what a byte weighs on the L2's output alone (l2_load_weight; 1: a cp.async
  // tile); DRAM, the write side and the fill path take the bytes as they are.
  Arrival load(const AccessResult& r, std::int64_t issue, Pipe* fill, Arrival* filled,
               double l2_weight = 1);
  // An output tile's store at `t` through its SM's `fill` path and the L2.
  StoreDone store(const AccessResult& r, std::int64_t t, Pipe* fill);

  // The element loops' load rounds in flight, and the reads' share of the DRAM.
  DramReads& reads() { return m_reads; }
  const Pipe& dram() const { return m_dram; }
  const Pipe& l2() const { return m_l2; }
  const Pipe& l2_write() const { return m_l2_write; }

 private:
  // Sends a request's DRAM sectors (misses read, write-backs written) at `t`; returns when the
  // DRAM has served them (t when there are none).
  std::int64_t to_dram(std::int64_t read_sectors, std::int64_t write_sectors, std::int64_t t);

  const StepCosts* m_c;
  Pipe m_dram, m_l2, m_l2_write;
  DramReads m_reads;
};

// A matmul tile's write into shared memory (its wavefronts, bank conflicts included) and the same
// without conflicts; 0 for a copy's or transpose's tile (the transpose writes it in its own step).
std::int64_t smem_write_ps(const StepCosts& c, StepOp op);
// What a byte of an `op` load weighs on the L2's output (StepCosts::l2_weight_a).
double l2_load_weight(const StepCosts& c, StepOp op);
std::int64_t smem_write_free_ps(const StepCosts& c, StepOp op);

}  // namespace tilesim::sim
