// Timeline: a replay you can step through forward and backward (by event, K-iteration, program
// or wave) and seek anywhere. Each event keeps a small record of what its L2 access did (Ripes
// style); checkpoints of the whole engine state every ~1M line operations make any seek a
// restore plus a short replay, so the state at a step is the same however it was reached.
// The app reads snapshot() each frame; it is computed once per position and then cached.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/replay/engine.hpp"
#include "sim/replay/event_order.hpp"

namespace tilesim::sim {

enum class Granularity { event, k_iteration, program, wave };
std::string_view to_string(Granularity g);

// One input tile as the app draws it.
struct TileView {
  float resident_fraction = 0;  // resident L2 sectors / sectors of the tile's in-range bytes
  TileReuse reuse;              // loads, L2 hit sectors, DRAM sectors so far
};

// The event just executed (the one that led to this position).
struct CurrentEvent {
  EventInfo info;
  AccessResult l2;  // hit / miss / evicted / written-back sectors (zero for map, dot, transpose)
};

struct Snapshot {
  std::int64_t position = 0;  // events executed, 0 .. events
  std::int64_t events = 0;
  std::int64_t time_ps = 0;                // simulated time of the position (timed order; else 0)
  std::int64_t wave = 0;                   // wave of the next event (waves at the end)
  std::vector<ResidentProgram> residents;  // sorted by slot; empty at the end
  // Input tiles, row-major: A (a_rows = tiles_m, a_cols = k_tiles) for matmul or the input
  // (tiles_m, tiles_n) for copy/transpose; B (b_rows = k_tiles, b_cols = tiles_n) or empty.
  std::int64_t a_rows = 0, a_cols = 0, b_rows = 0, b_cols = 0;
  std::vector<TileView> a_tiles, b_tiles;
  Counters counters;  // so far
  // Before the event shown (position - 1; equal to `counters` at position 0): what a view shows
  // while that event's tile is still on its way, so the figures change when it arrives.
  Counters counters_before;
  std::int64_t l2_resident_lines = 0;
  std::optional<CurrentEvent> current;  // none at position 0
};

// The end of a counters-only replay (no per-event records) as a snapshot: the counters and the
// input tiles' reuse as at the timeline's last position, with no residents, no current event
// and no L2 residency (the replay keeps no L2 state): what is shown when a timeline is too large.
Snapshot end_of_run_snapshot(const Problem& p, const ReplayResult& r);

// A timeline that would need more memory than allowed; the message gives the figures.
class TimelineTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TimelineCost {
  std::int64_t events = 0;
  std::int64_t line_ops = 0;      // estimated replay work
  std::int64_t record_bytes = 0;  // per-event records
  std::int64_t checkpoints = 0;
  std::int64_t checkpoint_bytes = 0;  // upper estimate
  std::int64_t total_bytes() const { return record_bytes + checkpoint_bytes; }
};

struct TimelineOptions {
  std::int64_t memory_budget_bytes = 2ll << 30;  // refuse (TimelineTooLarge) above this
  std::int64_t checkpoint_line_ops = 1 << 19;    // replay work between two checkpoints
  std::function<void(double)> progress;          // building: fraction done in [0, 1]
  const std::atomic<bool>* cancel = nullptr;     // building: set -> throws runtime_error
  // timed: events in the timed engine's order, each with its simulated time; lockstep or
  // staggered: in rounds (sim/program/schedule.hpp).
  EventOrderKind order = kDefaultEventOrder;
  TimingOptions timing;  // the timed engine's, whatever the order (timing())
};

TimelineCost estimate_timeline_cost(const Problem& p, const Machine& m, const Occupancy& occ,
                                    const TimelineOptions& opt = {});

class Timeline {
 public:
  // Replays everything once (recording events and checkpoints); throws TimelineTooLarge first
  // when estimate_timeline_cost() exceeds the budget. Starts at position 0.
  Timeline(const Problem& p, const Machine& m, const Occupancy& occ,
           const TimelineOptions& opt = {});

  const Problem& problem() const { return m_engine.problem(); }
  const Machine& machine() const { return m_engine.machine(); }
  const Occupancy& occupancy() const { return m_occupancy; }
  std::int64_t events() const { return m_records.size(); }
  std::int64_t waves() const { return m_engine.waves(); }
  std::int64_t slots() const { return m_engine.slots(); }
  // Which program runs which step in which event (event_of, programs_started, times, ...).
  const EventOrder& order() const { return *m_order; }
  std::shared_ptr<const EventOrder> shared_order() const { return m_order; }
  // The timed engine's summary (kernel time, breakdown), in every order (sim::predicted_timing).
  const TimingSummary& timing() const { return m_timing; }
  std::int64_t position() const { return m_engine.position(); }
  std::int64_t memory_bytes() const;  // records + checkpoints held

  void seek(std::int64_t position);  // clamped to 0 .. events()
  // The position one step of granularity g away (direction +1 or -1), clamped; no seek.
  //  event: +-1. k_iteration: the next/previous round in which slot 0's program (with lockstep:
  //  every program) starts a new K-iteration (load_a) or the store (for copy/transpose: the
  //  next round); in the timed order, the next/previous such event of slot 0's program.
  //  program: the next/previous position at which a program has just finished. wave: wave
  //  starts (pid w * slots' first event).
  std::int64_t neighbour(Granularity g, int direction) const;
  std::int64_t step(Granularity g, int direction) {
    seek(neighbour(g, direction));
    return position();
  }

  const Snapshot& snapshot();  // of position(); cached until the position changes
  EventInfo event_info(std::int64_t event) const { return m_order->event_info(event); }
  const AccessResult& record(std::int64_t event) const { return m_records.at(event); }
  const Counters& final_counters() const { return m_final; }

 private:
  void build_snapshot();
  void build_rounds(const TimelineOptions& opt);
  void build_timed(const TimelineOptions& opt);
  void advance(std::int64_t target);  // replay forward from position() in the event order
  Counters m_counters_before;         // at position() - 1, set by seek
  void maybe_checkpoint(const Engine& e);

  Engine m_engine;
  Occupancy m_occupancy;
  std::vector<AccessResult> m_records;          // (events,)
  std::vector<EngineCheckpoint> m_checkpoints;  // sorted by position, first at 0
  Counters m_final;
  TimingSummary m_timing;
  std::shared_ptr<const EventOrder> m_order;
  std::optional<Snapshot> m_snapshot;
  std::int64_t m_checkpoint_line_ops = 0, m_ops_at_checkpoint = 0, m_events_at_checkpoint = 0;
};

}  // namespace tilesim::sim
