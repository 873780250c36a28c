// The timed engine's run, inside sim/timing (not part of sim.hpp): its event queue, the state of
// every slot and SM, and the steps it executes. Each part of the model defines its steps in its
// own file: timed_engine.cpp (the event loop, launch, retire, the steps in order),
// timed_loads.cpp (loads, shared-memory writes and stores through memory_path.hpp),
// load_rounds.cpp (the element loops' rounds), transpose_pipe.cpp (transposes on the shared
// pipe), dot_step.cpp (dots and their dispatch), timed_result.cpp (the result).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

#include "sim/timing/dot_share.hpp"
#include "sim/timing/load_rounds.hpp"
#include "sim/timing/memory_path.hpp"
#include "sim/timing/shared_pipe.hpp"
#include "sim/timing/timed_engine.hpp"
#include "sim/timing/timed_result.hpp"

namespace tilesim::sim::timed {

// A pending event: the next step of the program on `slot`, not before time t. step == steps
// means "the program retires" (not an event of the trace); pid == kDispatch means "SM `step`'s
// dot pipe is free: start the ready dot its share by age picks" (after every event of that time,
// so that all the dots ready then are candidates).
constexpr std::int64_t kDispatch = std::numeric_limits<std::int64_t>::max();
// pid == kShareDone: SM `step`'s transposes (SmState::transposes) have one finishing now, if
// `slot` still equals that pipe's version (a later join or finish made it stale). It sorts
// after the programs' events of the same time, so a load round issued then still counts the
// finishing transpose as a reader.
constexpr std::int64_t kShareDone = kDispatch - 1;
// step == kRoundStep: a load round of the program's tile load (step kLoadStep of a copy or
// transpose: map, load, ...) is back (TimedRun::round_back).
constexpr std::int64_t kRoundStep = -1, kLoadStep = 1;
struct Pending {
  std::int64_t t = 0, pid = 0, step = 0;
  int slot = 0;
  bool operator>(const Pending& o) const {
    if (t != o.t) return t > o.t;
    if (pid != o.pid) return pid > o.pid;
    return step > o.step;
  }
};

// The program resident on one slot and where its pipeline stands.
struct SlotState {
  std::int64_t pid = -1;
  TileCoord tile;               // its output tile
  std::int64_t t_event = 0;     // time of its last event (events of a program are in order)
  std::int64_t progress = 0;    // end of its last dot (or map, load, transpose): data ready
  std::int64_t load_issue = 0;  // issue time of its last load
  std::int64_t load_a_done = 0, load_b_done = 0;
  TimeCause load_a_cause = TimeCause::latency, load_b_cause = TimeCause::latency;
  std::array<std::int64_t, kMaxStages + 1> dot_done{};   // ring: dot k at k % (kMaxStages + 1)
  std::array<std::int64_t, kMaxStages + 1> dot_start{};  // the same ring, for its start
  LoadRounds rounds;  // a copy's or transpose's tile load in rounds (StepCosts::load_rounds)
};

// A tile that has been loaded and waits to be written into shared memory when it arrives.
struct PendingWrite {
  std::int64_t arrive = 0, step = 0, event = -1;  // event: its load's index in the events, or -1
  int slot = 0;
  auto key() const { return std::tie(arrive, slot, step); }
};

struct SmState {
  Pipe fill;  // its L2 fill path (loads and stores)
  std::int64_t dot_free = 0, smem_free = 0;
  // Transposes in progress (each its tile's write, then its column reads), sharing the
  // shared-memory pipe equally; a load round counts them all as readers.
  SharedPipe transposes;
  std::vector<PendingWrite> writes;  // by arrival; served before the pipe's next use (drain)
  std::vector<Pending> ready_dots;   // dots whose data is in, waiting for the pipe
  bool dispatch_queued = false;
  std::int64_t next_launch = 0;  // the earliest a new program may start here (dispatch_ps)
  TimeCause pipe_cause = TimeCause::math;  // what the last dot on its pipe was bound by
  SmTotals totals;
};

class TimedRun {
 public:
  TimedRun(const Problem& p, const Machine& m, const Occupancy& occ, const TimedOptions& opt);
  TimedResult run();

 private:
  // timed_engine.cpp: the programs' lives and their steps in order.
  void launch(int slot, std::int64_t t);
  void retire(const Pending& e);
  std::int64_t load_issue(const SlotState& s, std::int64_t k) const;
  std::int64_t ready_time(const SlotState& s, std::int64_t step) const;
  static std::int64_t dot_done(const SlotState& s, std::int64_t k) {
    return s.dot_done[static_cast<std::size_t>(k % (kMaxStages + 1))];
  }
  void execute(const Pending& e);
  void push_next(const SlotState& s, std::int64_t pid, std::int64_t step, int slot);
  SlotState& slot_of(int slot) { return m_slot[static_cast<std::size_t>(slot)]; }
  SmState& sm_of(int slot) { return m_sm[static_cast<std::size_t>(slot % m_m.sms)]; }
  // The index the next recorded event gets (-1: events are not kept).
  std::int64_t next_event() const {
    return m_opt.events ? static_cast<std::int64_t>(m_opt.events->size()) : -1;
  }
  TimedEvent* recorded(std::int64_t event) {
    return event >= 0 ? &(*m_opt.events)[static_cast<std::size_t>(event)] : nullptr;
  }
  void record(const TimedEvent& ev) {
    if (m_opt.events) m_opt.events->push_back(ev);
  }
  // The program on `slot` waited `ps` on `cause`: its SM's weights for the time breakdown, and
  // the program's own time by cause.
  void waited(int slot, TimeCause cause, std::int64_t ps);
  // timed_result.cpp: the result, once every program has retired.
  TimedResult finish();

  // timed_loads.cpp: tile loads through the memory path, matmul tiles' writes, stores.
  Arrival* filled(const SlotState& s, StepOp op, std::int64_t k);
  void load(const AccessResult& r, std::int64_t issue, StepOp op, const Pending& e, TimedEvent* ev);
  void drain(SmState& sm, std::int64_t t);
  void write(SmState& sm, const PendingWrite& w);
  void store(const AccessResult& r, const Pending& e, TimedEvent* ev);
  void recent_misses(const AccessResult& r);
  // load_rounds.cpp's use: the next round of the load on e.slot, or the load's end.
  void first_round(const Pending& e, std::int64_t issue, const TimedEvent& ev);
  void round_back(const Pending& e);

  // transpose_pipe.cpp's use: a transpose joins its SM's shared pipe, and leaves it.
  void share_join(SmState& sm, const Pending& e, std::int64_t work);
  void share_schedule(const SmState& sm, int sm_index);
  void share_done(const Pending& e);

  // dot_step.cpp's use: dots wait for their SM's pipe, which the share by age hands out.
  void queue_dot(const Pending& e);
  void dispatch(const Pending& e);
  void dot(SlotState& s, SmState& sm, int slot, std::int64_t k, std::int64_t t, TimedEvent* ev);

  const Problem& m_p;
  const Machine& m_m;
  const TimedOptions& m_opt;
  StepCosts m_costs;
  double m_diffusion_ps = 0;       // Machine::dot_time_diffusion_s in ps
  double m_diffusion_miss_ps = 0;  // Machine::dot_time_diffusion_miss_s in ps
  double m_l2_sectors = 1;         // the replay's L2 capacity in sectors
  double m_recent_miss = 0;        // recent_misses()
  Engine m_engine;
  std::int64_t m_steps = 1, m_slots = 1, m_next_pid = 0;
  std::vector<SlotState> m_slot;
  std::vector<SmState> m_sm;
  DotShare m_share;  // who gets each SM's dot pipe
  std::vector<ProgramSpan> m_programs;
  std::vector<Arrival> m_a_filled, m_b_filled;  // per input tile, like Engine's reuse
  std::vector<StepOp> m_op;
  std::vector<std::int64_t> m_k;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> m_queue;
  MemoryPath m_memory;  // DRAM and the L2, and the element loops' reads in flight
  std::int64_t m_kernel_end = 0;
  std::vector<SharedPipe::Job> m_share_done;  // share_done()'s scratch: the jobs ending now
};

}  // namespace tilesim::sim::timed
