// Engine: programs launched in pid order onto SM slots; resident programs advance one step each
// in turn, so a wave of concurrent programs shares one L2 (and its reuse).
// Teaches: the launch order decides which programs run together, hence which input tiles are in
// L2 at the same time, hence how many bytes come from DRAM.
//
// Schedule (sim/program/schedule.hpp, exact because every program has the same number of steps):
// slots = SMs x programs per SM; pid -> slot pid % slots, slot -> SM slot % SMs (blocks spread
// over SMs first, as the hardware does); wave w = pids [w * slots, (w + 1) * slots), the w-th
// program of every slot. The engine runs rounds: each round executes the next step of every
// resident program in slot order; a finished program's slot takes the next pid at once.
// Lockstep (the default): all slots start together, so each wave stays synchronised. Staggered:
// slot s starts s * T / slots rounds late, the desynchronised steady state of a long grid.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/machine/machine.hpp"
#include "sim/memory/counters.hpp"
#include "sim/memory/l2_cache.hpp"
#include "sim/memory/tile_lru.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/program/problem.hpp"
#include "sim/program/program_trace.hpp"
#include "sim/program/schedule.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

// Where event `index` sits in the schedule (closed form + a binary search, no replay needed).
struct EventInfo {
  std::int64_t index = 0;  // 0-based event number
  std::int64_t pid = 0;
  std::int64_t wave = 0;   // pid / slots: which program of its slot this is
  std::int64_t round = 0;  // rounds: each resident program runs one step per round
  int slot = 0;            // 0 .. slots-1; the program's place on its SM is slot / SMs
  int sm = 0;              // slot % SMs
  std::int64_t step = 0;   // step within the program (program_step(p, pid, step))
  StepOp op = StepOp::map;
  std::int64_t k = -1;  // K-iteration for load_a / load_b / dot, else -1
  TileCoord tile;       // the program's output tile
};

// Per input tile, so far: how often it was loaded and where its sectors came from.
struct TileReuse {
  std::int64_t loads = 0;         // tl.load steps of this tile
  std::int64_t hit_sectors = 0;   // sectors served from L2
  std::int64_t dram_sectors = 0;  // sectors fetched from DRAM (x 32 bytes)
  bool operator==(const TileReuse&) const = default;
};

// Everything that determines the future of a replay: restore() it and stepping on gives exactly
// what the original run gave.
struct EngineCheckpoint {
  std::int64_t position = 0;
  Counters counters;
  std::vector<L2LineState> l2;  // resident lines, LRU first
  std::vector<TileReuse> a_reuse, b_reuse;
  std::int64_t bytes() const;  // memory this checkpoint holds
};

class Engine {
 public:
  // `rounds`: the round order run() follows (lockstep or staggered). A timed replay feeds the
  // engine itself (apply) and leaves it at lockstep.
  Engine(const Problem& p, const Machine& m, int programs_per_sm,
         EventOrderKind rounds = EventOrderKind::lockstep);

  const Problem& problem() const { return m_problem; }
  const Machine& machine() const { return m_machine; }
  int programs_per_sm() const { return m_programs_per_sm; }
  std::int64_t slots() const { return m_slots; }  // SMs x programs per SM
  std::int64_t waves() const;                     // cdiv(programs, slots)
  std::int64_t steps_per_program() const { return m_steps; }
  std::int64_t total_events() const { return m_problem.programs() * m_steps; }
  const SlotSchedule& schedule() const { return m_schedule; }
  EventInfo event_info(std::int64_t event) const;
  // First event of wave w: pid w * slots' first step (w = waves() gives total_events()). With
  // the staggered schedule programs of wave w - 1 still run after it.
  std::int64_t wave_begin(std::int64_t wave) const;

  std::int64_t position() const { return m_position; }  // events executed so far
  bool done() const { return m_position == total_events(); }
  // Execute the next event; its L2 record is returned. The last event also flushes the L2
  // (its record then includes the final write-backs).
  AccessResult step();
  // Execute up to `count` events (stops at the end); records[i] gets event position()+i's record
  // when records is not null. Returns the number executed.
  std::int64_t run(std::int64_t count, AccessResult* records = nullptr);

  // Execute step `step` of program `pid` as the next event, whatever the slot schedule says: the
  // timed engine (sim/timing/timed_engine.hpp) orders events itself and feeds them here. Do not mix
  // with run(): the round cursor does not follow.
  AccessResult apply(std::int64_t pid, std::int64_t step);
  // The same for a step whose operation, K-iteration and program tile the caller already knows.
  AccessResult apply(StepOp op, std::int64_t k, TileCoord tile);

  // For a replay that reads only counters and records (never l2()): the L2 is modelled tile by
  // tile (sim/memory/tile_lru.hpp) while the accesses allow it, with the same results, and line
  // by line from the first access that does not. Call before the first event. Fully
  // associative L2 only (otherwise nothing changes).
  void use_tile_lru();

  const Counters& counters() const { return m_counters; }  // so far
  // The line-by-line L2 (throws std::logic_error while use_tile_lru() models it by tiles).
  const L2Cache& l2() const;
  // Input tiles: A (tiles_m, k_tiles) row-major for matmul, the input (tiles_m, tiles_n) for
  // copy and transpose; B (k_tiles, tiles_n) for matmul, empty otherwise.
  const std::vector<TileReuse>& a_reuse() const { return m_a_reuse; }
  const std::vector<TileReuse>& b_reuse() const { return m_b_reuse; }
  // L2 line operations so far (one per line touched per row segment): the replay's work unit.
  std::int64_t line_ops() const { return m_line_ops; }

  EngineCheckpoint save() const;
  void restore(const EngineCheckpoint& c);

 private:
  AccessResult execute(std::int64_t pid, std::int64_t step);
  AccessResult execute(StepOp op, std::int64_t k, TileCoord tile);
  AccessResult memory_step(StepOp op, TileCoord tile, std::int64_t k);
  void set_cursor();
  void leave_tile_lru();  // the tile model's state into m_l2, which goes on from there
  void line_model(const std::vector<L2LineState>& lines);  // m_l2 holding `lines`, no m_tiles

  Problem m_problem;
  Machine m_machine;
  int m_programs_per_sm = 1;
  std::int64_t m_slots = 1, m_steps = 1;
  std::int64_t m_position = 0;
  std::int64_t m_line_ops = 0;
  SlotSchedule m_schedule;
  // The next event: its round, the round's active slots, and its rank among them.
  std::int64_t m_round = 0, m_rank = 0;
  RoundSlots m_active;
  // Exactly one of the two is set: the line model, or (use_tile_lru) the tile model.
  std::optional<L2Cache> m_l2;
  std::optional<TileLru> m_tiles;
  Counters m_counters;
  std::vector<TileReuse> m_a_reuse, m_b_reuse;
};

// The full replay, counters only (no per-event records): what `run` and `sweep` print.
struct ReplayResult {
  Occupancy occupancy;
  EventOrderKind order = kDefaultEventOrder;  // the order the counters were replayed in
  std::int64_t waves = 0;
  std::int64_t line_ops = 0;
  Counters counters;  // at the end, flush included
  Roofline roofline;
  TimingSummary timing;  // the timed engine's prediction (sim/timing/timed_engine.hpp)
  std::vector<TileReuse> a_reuse, b_reuse;
};
// The counters of a round order (lockstep or staggered), no time: a part of sim::replay
// (sim/replay/replay.hpp), which every caller uses. progress(fraction in [0, 1]) is called now
// and then; a set `cancel` stops early and throws std::runtime_error("cancelled").
ReplayResult replay_rounds(const Problem& p, const Machine& m, const Occupancy& occ,
                           EventOrderKind rounds = EventOrderKind::lockstep,
                           const std::function<void(double)>& progress = {},
                           const std::atomic<bool>* cancel = nullptr);

}  // namespace tilesim::sim
