// Timeline: a replay you can step through forward and backward (by event, K-iteration, program
// or wave) and seek anywhere. Each event keeps a small record of what its L2 access did (Ripes
// style); checkpoints of the whole engine state every ~1M line operations make any seek a
// restore plus a short replay, so the state at a step is the same however it was reached.
// The app reads snapshot() each frame; it is computed once per position and then cached.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine.hpp"

namespace tilesim::sim {

enum class Granularity { event, k_iteration, program, wave };
std::string_view to_string(Granularity g);

struct ResidentProgram {
  std::int64_t pid = 0;
  int slot = 0, sm = 0;
  std::int64_t next_step = 0;  // steps done so far; the next step it runs
  std::int64_t k = -1;         // K-iteration of its next step (-1: map or store)
  TileCoord tile;              // its output tile
};

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
  std::int64_t wave = 0;                   // wave of the next event (waves at the end)
  std::vector<ResidentProgram> residents;  // sorted by slot; empty at the end
  // Input tiles, row-major: A (a_rows = tiles_m, a_cols = k_tiles) for matmul or the input
  // (tiles_m, tiles_n) for copy/transpose; B (b_rows = k_tiles, b_cols = tiles_n) or empty.
  std::int64_t a_rows = 0, a_cols = 0, b_rows = 0, b_cols = 0;
  std::vector<TileView> a_tiles, b_tiles;
  Counters counters;  // so far
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
  ScheduleKind schedule = kDefaultSchedule;      // when slots start (sim/schedule.hpp)
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
  // Which program runs which step in which event (event_of, programs_started, ...).
  const SlotSchedule& schedule() const { return m_engine.schedule(); }
  std::int64_t position() const { return m_engine.position(); }
  std::int64_t memory_bytes() const;  // records + checkpoints held

  void seek(std::int64_t position);  // clamped to 0 .. events()
  // The position one step of granularity g away (direction +1 or -1), clamped; no seek.
  //  event: +-1. k_iteration: the next/previous round in which slot 0's program (with lockstep:
  //  every program) starts a new K-iteration (load_a) or the store (for copy/transpose: the
  //  next round). program: the next/previous position at which a program has just finished.
  //  wave: wave starts.
  std::int64_t neighbour(Granularity g, int direction) const;
  std::int64_t step(Granularity g, int direction) {
    seek(neighbour(g, direction));
    return position();
  }

  const Snapshot& snapshot();  // of position(); cached until the position changes
  EventInfo event_info(std::int64_t event) const { return m_engine.event_info(event); }
  const AccessResult& record(std::int64_t event) const { return m_records.at(event); }
  const Counters& final_counters() const { return m_final; }

 private:
  void build_snapshot();

  Engine m_engine;
  Occupancy m_occupancy;
  std::vector<AccessResult> m_records;          // (events,)
  std::vector<EngineCheckpoint> m_checkpoints;  // sorted by position, first at 0
  Counters m_final;
  std::optional<Snapshot> m_snapshot;
};

}  // namespace tilesim::sim
