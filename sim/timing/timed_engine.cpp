// Timed engine: a discrete-event loop over resident programs. Shared pipes are "busy until"
// clocks (DRAM and L2 for the GPU, fill path, dot pipe and shared memory per SM): a request
// starts when both it and the pipe are ready and holds the pipe for its bytes over the pipe's
// rate. Transposes are the exception: they share their SM's shared-memory pipe equally
// (sim/timing/shared_pipe.hpp). The L2 contents come from the round engine's memory model
// (Engine::apply), fed in time order.
#include "sim/timing/timed_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "sim/timing/dot_share.hpp"
#include "sim/memory/dram_reads.hpp"
#include "sim/timing/shared_pipe.hpp"

namespace tilesim::sim {
namespace {

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
// transpose: map, load, ...) is back (TimedRun::round_done).
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

// Holds a pipe from max(ready, free) for `duration`; returns the end.
std::int64_t reserve(std::int64_t* free, std::int64_t ready, std::int64_t duration) {
  const std::int64_t start = std::max(ready, *free);
  *free = start + duration;
  return *free;
}

// A fixed pseudo-random number in [-1, 1) per pid (splitmix64): the same on every machine.
double jitter_of(std::int64_t pid) {
  std::uint64_t z = static_cast<std::uint64_t>(pid) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

// A fixed pseudo-random number of mean 0 and variance 1 per (pid, K step): the sum of three
// uniforms in [-1, 1) (each of variance 1/3) from one splitmix64 draw; within [-3, 3].
double noise_of(std::int64_t pid, std::int64_t k) {
  std::uint64_t z = (static_cast<std::uint64_t>(pid) << 24) + static_cast<std::uint64_t>(k) +
                    0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  constexpr double kScale = 0x1.0p-20;  // 21-bit fields -> [0, 2)
  const auto u = [&](int shift) {
    return static_cast<double>((z >> shift) & 0x1FFFFF) * kScale - 1.0;
  };
  return u(0) + u(21) + u(42);
}

std::int64_t scaled(std::int64_t ps, double factor) {
  // Durations are >= 0: adding 0.5 and truncating rounds them (llround is a library call, and
  // this runs a few times per event).
  return factor == 1.0 ? ps : static_cast<std::int64_t>(static_cast<double>(ps) * factor + 0.5);
}

std::int64_t ps_of_bytes(std::int64_t bytes, double ps_per_byte) {
  return static_cast<std::int64_t>(static_cast<double>(bytes) * ps_per_byte + 0.5);
}

// The program resident on one slot and where its pipeline stands.
struct SlotState {
  std::int64_t pid = -1;
  double speed = 1;             // factor on this program's SM-side times (Machine::program_jitter)
  TileCoord tile;               // its output tile
  std::int64_t start = 0;       // launch time
  std::int64_t t_event = 0;     // time of its last event (events of a program are in order)
  std::int64_t progress = 0;    // end of its last dot (or map, load, transpose): data ready
  std::int64_t load_issue = 0;  // issue time of its last load
  std::int64_t load_a_done = 0, load_b_done = 0;
  TimeCause load_a_cause = TimeCause::latency, load_b_cause = TimeCause::latency;
  std::array<std::int64_t, kMaxStages + 1> dot_done{};  // ring: dot k at k % (kMaxStages + 1)
  // A copy's or transpose's tile load in rounds (StepCosts::load_rounds): rounds done so far,
  // when the rest of the load (DRAM and L2 queues, fill path) lets it arrive and why, and its
  // event's index (-1: none kept).
  std::int64_t rounds_done = 0, load_other = 0, load_event = -1;
  std::int64_t round_queue = 0;  // of its rounds' time, the waits behind transposes' reads
  std::int64_t round_slowest = 0;  // the wait for its slowest warp after the last round, ps
  TimeCause load_other_cause = TimeCause::latency;
  bool resident = false;  // launched and not yet retired
};

// A tile that has been loaded and waits to be written into shared memory when it arrives.
struct PendingWrite {
  std::int64_t arrive = 0, step = 0, event = -1;  // event: its load's index in the events, or -1
  int slot = 0;
  auto key() const { return std::tie(arrive, slot, step); }
};

struct SmState {
  std::int64_t fill_free = 0, dot_free = 0, smem_free = 0;
  // Transposes in progress (each its tile's write, then its column reads), sharing the
  // shared-memory pipe equally; a load round counts them all as readers.
  SharedPipe transposes;
  std::vector<PendingWrite> writes;  // by arrival; served before the pipe's next use (drain)
  std::vector<Pending> ready_dots;   // dots whose data is in, waiting for the pipe
  bool dispatch_queued = false;
  std::int64_t last_retire = 0;
  std::int64_t dot_ps = 0, fill_ps = 0;
  std::array<std::int64_t, kTimeCauses> busy{};  // dot pipe time by cause
  std::array<std::int64_t, kTimeCauses> wait{};  // programs' waits by cause (weights)
};

class TimedRun {
 public:
  TimedRun(const Problem& p, const Machine& m, const Occupancy& occ, const TimedOptions& opt)
      : m_p(p),
        m_m(m),
        m_opt(opt),
        m_costs(step_costs(p, m, opt.timing, occ.programs_per_sm)),
        m_diffusion_ps(m.dot_time_diffusion_s * 1e12),
        m_diffusion_miss_ps(m.dot_time_diffusion_miss_s * 1e12),
        m_l2_sectors(static_cast<double>(effective_l2_bytes(m)) / L2Cache::kSectorBytes),
        m_engine(p, m, occ.programs_per_sm),
        m_steps(steps_per_program(p)),
        m_slots(std::min<std::int64_t>(m_engine.slots(), p.programs())),
        m_slot(static_cast<std::size_t>(m_slots)),
        m_sm(static_cast<std::size_t>(m.sms)),
        m_share(m.older_program_share, occ.programs_per_sm, m.sms, m_slots),
        m_reads(m.sms, static_cast<double>(effective_l2_bytes(m))) {
    if (opt.events) opt.events->reserve(static_cast<std::size_t>(m_engine.total_events()));
    if (opt.records) opt.records->reserve(static_cast<std::size_t>(m_engine.total_events()));
    m_programs.resize(static_cast<std::size_t>(p.programs()));
    m_a_filled.resize(m_engine.a_reuse().size());
    m_b_filled.resize(m_engine.b_reuse().size());
    // (steps,) the operation and K-iteration of every step, the same for every program.
    m_op.resize(static_cast<std::size_t>(m_steps));
    m_k.resize(static_cast<std::size_t>(m_steps));
    for (std::int64_t t = 0; t < m_steps; ++t)
      m_op[static_cast<std::size_t>(t)] = step_op(p, t, &m_k[static_cast<std::size_t>(t)]);
  }

  TimedResult run() {
    for (std::int64_t s = 0; s < m_slots; ++s) launch(static_cast<int>(s), 0);
    const std::int64_t total = m_engine.total_events();
    // Progress every 1/256 of the events; a cancel check at least every 4,096 events, so that a
    // large replay (tens of millions of events) stops within milliseconds, sanitizers included.
    const std::int64_t report = std::max<std::int64_t>(1, total / 256);
    const std::int64_t check = std::min<std::int64_t>(report, 4096);
    std::int64_t next_report = report, next_check = check;
    while (!m_queue.empty()) {
      const Pending e = m_queue.top();
      m_queue.pop();
      if (e.pid == kDispatch) {
        dispatch(e);
        continue;
      }
      if (e.pid == kShareDone) {
        share_done(e);
        continue;
      }
      if (e.step == m_steps) {
        retire(e);
        continue;
      }
      if (e.step == kRoundStep) {
        round_done(e);
        continue;
      }
      if (m_op[static_cast<std::size_t>(e.step)] == StepOp::dot)
        queue_dot(e);
      else
        execute(e);
      if (m_engine.position() >= next_check) {
        next_check += check;
        if (m_opt.cancel && m_opt.cancel->load(std::memory_order_relaxed))
          throw std::runtime_error("cancelled");
        if (m_engine.position() >= next_report) {
          next_report += report;
          if (m_opt.progress)
            m_opt.progress(static_cast<double>(m_engine.position()) / static_cast<double>(total));
        }
      }
    }
    if (m_opt.progress) m_opt.progress(1.0);
    return finish();
  }

 private:
  void launch(int slot, std::int64_t t) {
    SlotState& s = m_slot[static_cast<std::size_t>(slot)];
    s = SlotState{};
    s.pid = m_next_pid++;
    s.tile = tile_of(m_p, s.pid);
    s.speed = 1 + m_m.program_jitter * jitter_of(s.pid);
    s.start = t;
    s.resident = true;
    m_share.join(slot);
    ProgramSpan& span = m_programs[static_cast<std::size_t>(s.pid)];
    span.pid = s.pid;
    span.slot = slot;
    span.sm = slot % m_m.sms;
    span.start_ps = t;
    m_queue.push({t, s.pid, 0, slot});
  }

  // A dot whose tiles are in waits for its SM's pipe; when the pipe is free it goes to the ready
  // dot the share by age picks (sim/timing/dot_share.hpp): the older of two always-ready programs gets
  // `older_program_share` of the dots (0.6, measured), so it runs ahead and the younger falls
  // behind, as on the GPU (block_timeline: 211 vs 274 us for a first wave's pair,
  // docs/MODEL.md). That uneven share is what makes row-major waves drift apart.
  void queue_dot(const Pending& e) {
    SmState& sm = m_sm[static_cast<std::size_t>(e.slot % m_m.sms)];
    sm.ready_dots.push_back(e);
    drain(sm, e.t);
    if (!sm.dispatch_queued) {
      sm.dispatch_queued = true;
      m_queue.push({std::max({e.t, sm.dot_free, sm.smem_free}), kDispatch, e.slot % m_m.sms, -1});
    }
  }

  void dispatch(const Pending& e) {
    SmState& sm = m_sm[static_cast<std::size_t>(e.step)];
    sm.dispatch_queued = false;
    if (sm.ready_dots.empty()) return;
    drain(sm, e.t);
    const std::int64_t start = std::max({e.t, sm.dot_free, sm.smem_free});
    if (start > e.t) {
      sm.dispatch_queued = true;
      m_queue.push({start, kDispatch, e.step, -1});
      return;
    }
    const auto pick = m_share.pick(sm.ready_dots.begin(), sm.ready_dots.end());
    Pending dot = *pick;
    sm.ready_dots.erase(pick);
    dot.t = start;
    execute(dot);
    if (!sm.ready_dots.empty()) {
      sm.dispatch_queued = true;
      m_queue.push({std::max(sm.dot_free, sm.smem_free), kDispatch, e.step, -1});
    }
  }

  void retire(const Pending& e) {
    m_slot[static_cast<std::size_t>(e.slot)].resident = false;
    m_share.leave(e.slot);
    m_programs[static_cast<std::size_t>(e.pid)].end_ps = e.t;
    SmState& sm = m_sm[static_cast<std::size_t>(e.slot % m_m.sms)];
    sm.last_retire = std::max(sm.last_retire, e.t);
    if (m_next_pid < m_p.programs()) launch(e.slot, e.t);
  }

  // Issue time of load_a(k) (load_b(k) goes out with it): after the previous load, once its
  // buffer is free: dot k - stages has finished reading it (stages = 1: no overlap at all).
  std::int64_t load_issue(const SlotState& s, std::int64_t k) const {
    const int stages = m_p.spec().stages;
    return k >= stages ? std::max(s.load_issue, dot_done(s, k - stages)) : s.load_issue;
  }

  // The earliest time step `step` of the program on `slot` takes effect. A program's events stay
  // in program order (never before its previous event); a load issued earlier than that still
  // gets its own issue time for its timing.
  std::int64_t ready_time(const SlotState& s, std::int64_t step) const {
    const StepOp op = m_op[static_cast<std::size_t>(step)];
    const std::int64_t k = m_k[static_cast<std::size_t>(step)];
    const std::int64_t t = s.t_event;
    if (op == StepOp::load_a) return std::max(t, load_issue(s, k));
    if (op == StepOp::load_b) return std::max(t, s.load_issue);
    if (op == StepOp::dot)
      return std::max({t, s.load_a_done, s.load_b_done, k > 0 ? dot_done(s, k - 1) : s.progress});
    return std::max(t, s.progress);  // map, load (copy/transpose), transpose, store
  }

  static std::int64_t dot_done(const SlotState& s, std::int64_t k) {
    return s.dot_done[static_cast<std::size_t>(k % (kMaxStages + 1))];
  }

  void execute(const Pending& e) {
    SlotState& s = m_slot[static_cast<std::size_t>(e.slot)];
    SmState& sm = m_sm[static_cast<std::size_t>(e.slot % m_m.sms)];
    const StepOp op = m_op[static_cast<std::size_t>(e.step)];
    const std::int64_t k = m_k[static_cast<std::size_t>(e.step)];
    const AccessResult r = m_engine.apply(op, k, s.tile);
    if (m_opt.records) m_opt.records->push_back(r);
    if (m_opt.after_event) m_opt.after_event(m_engine);
    TimedEvent ev;
    ev.pid = static_cast<std::int32_t>(e.pid);
    ev.step = static_cast<std::int32_t>(e.step);
    ev.start_ps = e.t;
    switch (op) {
      case StepOp::map:
        // The launch, then (a copy or transpose) its warps' instruction stream: in a warp it
        // runs between the memory waits, all of it in series with them; here it runs first.
        ev.end_ps = e.t + m_costs.launch_ps + m_costs.stream_ps;
        ev.cause = m_costs.stream_ps > m_costs.launch_ps ? TimeCause::issue : TimeCause::launch;
        s.progress = ev.end_ps;
        s.load_issue = ev.end_ps;
        add(&sm.wait, TimeCause::launch, m_costs.launch_ps);
        add(&sm.wait, TimeCause::issue, m_costs.stream_ps);
        break;
      case StepOp::load_a:
      case StepOp::load_b:
      case StepOp::load: {
        const std::int64_t issue = op == StepOp::load_a   ? load_issue(s, k)
                                   : op == StepOp::load_b ? s.load_issue
                                                          : std::max(e.t, s.progress);
        s.load_issue = issue;
        if (op != StepOp::load) recent_misses(r);
        load(r, issue, op, filled(s, op, k), e, &ev);
        ev.start_ps = issue;
        if (op == StepOp::load_a) s.load_a_done = ev.end_ps, s.load_a_cause = ev.cause;
        if (op == StepOp::load_b) s.load_b_done = ev.end_ps, s.load_b_cause = ev.cause;
        if (op == StepOp::load && m_costs.load_rounds > 0) {
          // The tile comes in rounds, one event each (round_done): the program goes on after
          // the last.
          s.load_other = ev.end_ps, s.load_other_cause = ev.cause;
          s.rounds_done = 0, s.round_queue = 0, s.round_slowest = 0;
          s.load_event = m_opt.events ? static_cast<std::int64_t>(m_opt.events->size()) : -1;
          s.t_event = e.t;
          if (m_opt.events) m_opt.events->push_back(ev);
          m_queue.push({round_end(issue, sm, s), e.pid, kRoundStep, e.slot});
          return;
        }
        if (op == StepOp::load) {
          add(&sm.wait, ev.cause, ev.end_ps - std::max(issue, s.progress));
          s.progress = ev.end_ps;
        }
        break;
      }
      case StepOp::dot:
        dot(s, sm, m_share.residents(e.slot), k, e.t, &ev);
        break;
      case StepOp::transpose: {
        // The tile's write (its STS, joined here: the load left it to this job) and its column
        // reads, in processor sharing with the SM's other transposes; the store follows when
        // share_done() finds it done.
        const std::int64_t work =
            scaled(m_costs.load_a_smem_ps + m_costs.transpose_smem_ps, s.speed);
        ev.cause = transpose_read_cause();
        ev.end_ps = e.t + work;  // alone on the pipe; share_done() sets the real end
        share_join(sm, e, work);
        s.t_event = e.t;
        if (m_opt.events) m_opt.events->push_back(ev);
        return;  // no next step until the pipe has served it
      }
      case StepOp::store:
        store(r, e.t, sm, s, &ev);
        break;
    }
    s.t_event = e.t;
    if (m_opt.events) m_opt.events->push_back(ev);
    push_next(s, e.pid, e.step, e.slot);
  }

  void push_next(const SlotState& s, std::int64_t pid, std::int64_t step, int slot) {
    const std::int64_t next = step + 1;
    if (next < m_steps)
      m_queue.push({ready_time(s, next), pid, next, slot});
    else
      m_queue.push({s.progress, pid, m_steps, slot});  // retire once the store is out
  }

  // What a transpose's column reads wait on: bank conflicts where they conflict.
  TimeCause transpose_read_cause() const {
    return m_costs.transpose_smem_ps > m_costs.transpose_smem_free_ps ? TimeCause::bank_conflict
                                                                      : TimeCause::smem;
  }

  // Of `waited` ps on the shared pipe for a transpose, the conflict-free wavefronts' share of its
  // work (the tile's write and its reads at degree 1); the rest is its bank conflicts'.
  std::int64_t conflict_free_part(std::int64_t waited) const {
    const auto free =
        static_cast<double>(m_costs.load_a_smem_free_ps + m_costs.transpose_smem_free_ps);
    const auto work = static_cast<double>(m_costs.load_a_smem_ps + m_costs.transpose_smem_ps);
    if (work <= 0) return waited;
    return static_cast<std::int64_t>(static_cast<double>(waited) * free / work + 0.5);
  }

  void share_join(SmState& sm, const Pending& e, std::int64_t work) {
    const std::int64_t event = m_opt.events ? static_cast<std::int64_t>(m_opt.events->size()) : -1;
    sm.transposes.join(e.t, work, {.pid = e.pid, .step = e.step, .event = event, .slot = e.slot});
    share_schedule(sm, e.slot % m_m.sms);
  }

  // Queues the next finish of the SM's transposes (the earlier ones queued are now stale).
  void share_schedule(const SmState& sm, int sm_index) {
    const std::int64_t t = sm.transposes.next_finish();
    if (t >= 0) m_queue.push({t, kShareDone, sm_index, sm.transposes.version()});
  }

  // Every transpose done by e.t ends now, in order of (finish, pid); their programs go on. Its
  // time on the pipe is its program's wait, on shared memory and, for its conflicts' share of
  // the work, on bank conflicts.
  void share_done(const Pending& e) {
    SmState& sm = m_sm[static_cast<std::size_t>(e.step)];
    if (e.slot != sm.transposes.version()) return;
    sm.transposes.finish_by(e.t, &m_share_done);
    for (const SharedPipe::Job& j : m_share_done) {
      SlotState& s = m_slot[static_cast<std::size_t>(j.slot)];
      s.progress = e.t;
      if (j.event >= 0) (*m_opt.events)[static_cast<std::size_t>(j.event)].end_ps = e.t;
      const std::int64_t waited = e.t - j.joined;
      const std::int64_t free = std::min(waited, conflict_free_part(waited));
      add(&sm.wait, TimeCause::smem, free);
      add(&sm.wait, TimeCause::bank_conflict, waited - free);
      push_next(s, j.pid, j.step, j.slot);
    }
    share_schedule(sm, static_cast<int>(e.step));
  }

  // A tile load: DRAM for its misses (and the write-backs its evictions cause), the L2 and the
  // SM's fill path for all its sectors; then, for tiles staged in shared memory, the write.
  // When the last DRAM fill of an input tile arrives in L2: a later load that hits sectors still
  // on their way waits for them (the L2 merges it with the miss in flight).
  std::int64_t* filled(const SlotState& s, StepOp op, std::int64_t k) {
    const std::int64_t kt = m_p.k_tiles(), tn = m_p.tiles_n();
    if (op == StepOp::load_a) return &m_a_filled[static_cast<std::size_t>(s.tile.pid_m * kt + k)];
    if (op == StepOp::load_b) return &m_b_filled[static_cast<std::size_t>(k * tn + s.tile.pid_n)];
    return &m_a_filled[static_cast<std::size_t>(s.tile.pid_m * tn + s.tile.pid_n)];
  }

  void load(const AccessResult& r, std::int64_t issue, StepOp op, std::int64_t* filled,
            const Pending& e, TimedEvent* ev) {
    const double speed = m_slot[static_cast<std::size_t>(e.slot)].speed;
    SmState& sm = m_sm[static_cast<std::size_t>(e.slot % m_m.sms)];
    const std::int64_t sectors = std::int64_t{r.hit_sectors} + r.miss_sectors;
    const std::int64_t bytes = sectors * L2Cache::kSectorBytes;
    std::int64_t arrive =
        issue + (r.miss_sectors > 0 ? m_costs.dram_latency_ps : m_costs.l2_hit_latency_ps);
    TimeCause cause = TimeCause::latency;
    const auto later = [&](std::int64_t t, TimeCause c) {
      if (t > arrive) arrive = t, cause = c;
    };
    const std::int64_t dram_bytes =
        (std::int64_t{r.miss_sectors} + r.writeback_sectors) * L2Cache::kSectorBytes;
    m_reads.traffic(std::int64_t{r.miss_sectors} * L2Cache::kSectorBytes,
                    std::int64_t{r.writeback_sectors} * L2Cache::kSectorBytes);
    if (dram_bytes > 0) {
      const std::int64_t d = ps_of_bytes(dram_bytes, m_costs.dram_ps_per_byte);
      m_dram_busy += d;
      const std::int64_t end = reserve(&m_dram_free, issue, d);
      if (r.miss_sectors > 0) later(end + m_costs.l2_hit_latency_ps, TimeCause::dram);
    }
    if (r.hit_sectors > 0) later(*filled, TimeCause::dram);
    const std::int64_t l2 = ps_of_bytes(bytes, m_costs.l2_ps_per_byte);
    m_l2_busy += l2;
    later(reserve(&m_l2_free, issue, l2), TimeCause::l2);
    const std::int64_t fill = ps_of_bytes(bytes, m_costs.fill_ps_per_byte);
    sm.fill_ps += fill;
    later(reserve(&sm.fill_free, issue, fill), TimeCause::sm_load);
    if (r.miss_sectors > 0) *filled = std::max(*filled, arrive);
    ev->end_ps = arrive;
    ev->cause = cause;
    // Staged in shared memory (matmul A/B tiles): the write's wavefronts.
    // (A transpose's write is part of its transpose step's shared job.)
    if (op == StepOp::load) return;
    const std::int64_t w =
        scaled(op == StepOp::load_b ? m_costs.load_b_smem_ps : m_costs.load_a_smem_ps, speed);
    const std::int64_t w_free =
        op == StepOp::load_b ? m_costs.load_b_smem_free_ps : m_costs.load_a_smem_free_ps;
    // Written when the data arrives, in event order (write()): the end here assumes the pipe is
    // free then, write() corrects it. Booked now, for the future, on the busy-until clock, the
    // write would hold back every dot ready before it arrives: an SM's oldest program, whose next
    // tiles arrive just as its dot ends, would keep the pipe while the others wait, and the DRAM
    // latency would show through however many programs the SM holds (docs/MODEL.md).
    const std::int64_t end = arrive + w;
    if (end - arrive > arrive - issue)
      ev->cause = w > w_free ? TimeCause::bank_conflict : TimeCause::smem;
    ev->end_ps = end;
    if (w > 0) {
      const PendingWrite pw{arrive, e.step,
                            m_opt.events ? static_cast<std::int64_t>(m_opt.events->size()) : -1,
                            e.slot};
      const auto at = std::upper_bound(
          sm.writes.begin(), sm.writes.end(), pw,
          [](const PendingWrite& a, const PendingWrite& b) { return a.key() < b.key(); });
      sm.writes.insert(at, pw);
    }
  }

  // Serves, in arrival order, the matmul tile writes of `sm` that have arrived by `t`: called
  // before any use of the SM's shared-memory pipe at `t` (a dot), so that the pipe takes every
  // request in the order it came, without an event per write. (A transpose's write is part of
  // its shared job.)
  void drain(SmState& sm, std::int64_t t) {
    std::size_t n = 0;
    for (; n < sm.writes.size() && sm.writes[n].arrive <= t; ++n) write(sm, sm.writes[n]);
    sm.writes.erase(sm.writes.begin(), sm.writes.begin() + static_cast<std::ptrdiff_t>(n));
  }

  // A matmul tile's write into shared memory, once its data has arrived: the SM's shared-memory
  // pipe serves requests in the order they come (first in, first out); the tile is usable when
  // it is written.
  void write(SmState& sm, const PendingWrite& e) {
    SlotState& s = m_slot[static_cast<std::size_t>(e.slot)];
    const StepOp op = m_op[static_cast<std::size_t>(e.step)];
    const std::int64_t w =
        scaled(op == StepOp::load_b ? m_costs.load_b_smem_ps : m_costs.load_a_smem_ps, s.speed);
    const std::int64_t end = reserve(&sm.smem_free, e.arrive, w);
    if (op == StepOp::load_a) s.load_a_done = std::max(s.load_a_done, end);
    if (op == StepOp::load_b) s.load_b_done = std::max(s.load_b_done, end);
    if (op == StepOp::load) s.progress = std::max(s.progress, end);
    if (e.event >= 0) {
      TimedEvent& ev = (*m_opt.events)[static_cast<std::size_t>(e.event)];
      if (end > ev.end_ps) {
        ev.end_ps = end;
        if (end - e.arrive > e.arrive - ev.start_ps) ev.cause = TimeCause::smem;
      }
    }
  }

  // Threads with few loads in flight: the tile comes in load_rounds round trips, each issued when
  // the previous one is back. A round takes the DRAM's latency under the reads that all such
  // loads keep in flight when it is issued, at the reads' share of the DRAM's rate (Little's
  // law, loaded_round_ps; m_reads), varied per (pid, round) by
  // Machine::load_round_cv, plus its wait at the SM's load/store pipe behind one shared-memory
  // read per warp of every transpose reading there now (SmState::transposes; conflicted reads
  // hold the pipe longer, so the loads wait with them; queued_round_ps, which round_queue
  // tallies for the time breakdown).
  std::int64_t round_end(std::int64_t issue, const SmState& sm, SlotState& s) {
    const std::int64_t bytes = m_costs.load_round_bytes;
    const double per_sm = m_reads.issue(issue, bytes);
    const int readers = sm.transposes.jobs();
    const double factor = 1 + m_m.load_round_cv * noise_of(s.pid, s.rounds_done);
    const std::int64_t dram = loaded_round_ps(m_costs, per_sm, m_reads.read_share());
    const std::int64_t end = issue + queued_round_ps(m_costs, dram, readers, factor);
    s.round_queue += readers * m_costs.smem_turn_ps;
    s.round_slowest +=
        std::llround(static_cast<double>(dram) * factor * m_costs.round_slowest_warp);
    m_reads.back_at(end, bytes);
    return end;
  }

  // A load round of the program on e.slot is back at e.t: the next goes out, or the tile has
  // arrived once the rest of the load has too.
  void round_done(const Pending& e) {
    SlotState& s = m_slot[static_cast<std::size_t>(e.slot)];
    SmState& sm = m_sm[static_cast<std::size_t>(e.slot % m_m.sms)];
    if (++s.rounds_done < m_costs.load_rounds) {
      m_queue.push({round_end(e.t, sm, s), e.pid, kRoundStep, e.slot});
      return;
    }
    // The program goes on when its slowest warp's rounds are back (round_slowest after the
    // mean's). The load's wait: its rounds' waits behind the SM's transposes go to their
    // shared-memory reads (bank conflicts when those conflict), the rest to the DRAM's latency,
    // or to what the rest of the load waited on when that came last.
    const std::int64_t rounds_end = e.t + s.round_slowest;
    const bool rounds_last = rounds_end > s.load_other;
    const std::int64_t end = rounds_last ? rounds_end : s.load_other;
    const std::int64_t waited = end - std::max(s.load_issue, s.progress);
    const std::int64_t queued = rounds_last ? std::min(waited, s.round_queue) : 0;
    const TimeCause reads = transpose_read_cause();
    const TimeCause cause = !rounds_last          ? s.load_other_cause
                            : 2 * queued > waited ? reads
                                                  : TimeCause::latency;
    if (s.load_event >= 0) {
      TimedEvent& ev = (*m_opt.events)[static_cast<std::size_t>(s.load_event)];
      ev.end_ps = end, ev.cause = cause;
    }
    add(&sm.wait, rounds_last ? TimeCause::latency : s.load_other_cause, waited - queued);
    add(&sm.wait, reads, queued);
    s.progress = end;
    push_next(s, e.pid, kLoadStep, e.slot);
  }

  // `residents`: the programs on the SM now; they share its schedulers (a last wave's fewer
  // programs issue faster each).
  void dot(SlotState& s, SmState& sm, int residents, std::int64_t k, std::int64_t t,
           TimedEvent* ev) {
    const std::int64_t prev = k > 0 ? dot_done(s, k - 1) : s.progress;
    // Waiting for the K-slab's tiles: the cause of the one that came last.
    const bool a_last = s.load_a_done >= s.load_b_done;
    const std::int64_t data = std::max(s.load_a_done, s.load_b_done);
    if (data > prev) add(&sm.wait, a_last ? s.load_a_cause : s.load_b_cause, data - prev);
    const StepCosts& c = m_costs;
    const std::int64_t start = std::max({t, sm.dot_free, sm.smem_free});
    // Operand reads beside the math (the slower one sets the pace) or before it (they add up).
    const bool overlap = c.operands_overlap_math;
    const std::int64_t core =
        overlap ? std::max(c.dot_math_ps, c.dot_smem_ps) : c.dot_math_ps + c.dot_smem_ps;
    // The warps cannot go faster than they issue their instructions: when that takes longer than
    // the pipes, the whole dot is the instruction stream's time (the math hides inside it).
    const std::int64_t paced = core + c.dot_overhead_ps;
    const std::int64_t issue = c.issue_ps(residents);
    const bool issue_bound = issue > paced;
    std::int64_t dur = scaled((issue_bound ? issue : paced) + c.dot_spill_ps, s.speed);
    // Time noise where the SM's pace is its warps' latency, not its issue slots (an issue-bound
    // SM fills a stalled warp's slots from the others): larger the more of the step's tiles came
    // from DRAM (Machine::dot_time_diffusion_s).
    const double diffusion = m_diffusion_ps + m_recent_miss * m_diffusion_miss_ps;
    if (!issue_bound && diffusion > 0) {
      const double sd = std::sqrt(diffusion * static_cast<double>(dur));
      dur =
          std::max<std::int64_t>(0, dur + static_cast<std::int64_t>(sd * noise_of(s.pid, k) + 0.5));
    }
    sm.dot_free = start + dur;
    sm.smem_free = start + c.dot_smem_ps + c.dot_spill_ps;
    sm.dot_ps += dur;
    add(&sm.busy, TimeCause::math, c.dot_spill_ps);
    if (issue_bound) {
      add(&sm.busy, TimeCause::issue, issue);
      ev->cause = TimeCause::issue;
    } else {
      // Busy time by cause: math, then the part of the operand reads the math did not cover,
      // split into conflict-free wavefronts and the extra ones of bank conflicts.
      const std::int64_t covered = overlap ? c.dot_math_ps : 0;
      const std::int64_t free_part = std::max<std::int64_t>(0, c.dot_smem_free_ps - covered);
      const std::int64_t smem_part = std::max<std::int64_t>(0, c.dot_smem_ps - covered);
      add(&sm.busy, TimeCause::math, c.dot_math_ps + c.dot_overhead_ps);
      add(&sm.busy, TimeCause::smem, free_part);
      add(&sm.busy, TimeCause::bank_conflict, smem_part - free_part);
      ev->cause = c.dot_math_ps >= c.dot_smem_ps       ? TimeCause::math
                  : c.dot_smem_ps > c.dot_smem_free_ps ? TimeCause::bank_conflict
                                                       : TimeCause::smem;
    }
    ev->start_ps = start;
    ev->end_ps = start + dur;
    s.dot_done[static_cast<std::size_t>(k % (kMaxStages + 1))] = ev->end_ps;
    s.progress = ev->end_ps;
  }

  // The output tile leaves through the fill path and the L2; the program retires once its bytes
  // are out of the SM, the kernel ends when the last one reaches L2 (write-backs queue on DRAM).
  void store(const AccessResult& r, std::int64_t t, SmState& sm, SlotState& s, TimedEvent* ev) {
    const std::int64_t bytes =
        (std::int64_t{r.hit_sectors} + r.miss_sectors) * L2Cache::kSectorBytes;
    const std::int64_t fill = ps_of_bytes(bytes, m_costs.fill_ps_per_byte);
    sm.fill_ps += fill;
    const std::int64_t out = reserve(&sm.fill_free, t, fill);
    const std::int64_t l2 = ps_of_bytes(bytes, m_costs.l2_ps_per_byte);
    m_l2_busy += l2;
    std::int64_t done = std::max(out, reserve(&m_l2_free, t, l2)) + m_costs.l2_hit_latency_ps;
    ev->cause = out - t >= l2 ? TimeCause::sm_load : TimeCause::l2;
    m_reads.traffic(0, std::int64_t{r.writeback_sectors} * L2Cache::kSectorBytes);
    if (r.writeback_sectors > 0) {
      const std::int64_t d = ps_of_bytes(std::int64_t{r.writeback_sectors} * L2Cache::kSectorBytes,
                                         m_costs.dram_ps_per_byte);
      m_dram_busy += d;
      const std::int64_t end = reserve(&m_dram_free, t, d);
      if (end > done) done = end, ev->cause = TimeCause::dram;
    }
    ev->end_ps = out;
    add(&sm.wait, ev->cause, out - t);
    s.progress = out;
    m_kernel_end = std::max(m_kernel_end, done);
  }

  // The L2 miss rate of the tile loads over about the last L2-full of sectors (an exponential
  // average, one update per load): what the memory system is going through now.
  void recent_misses(const AccessResult& r) {
    const double sectors = static_cast<double>(std::int64_t{r.hit_sectors} + r.miss_sectors);
    if (sectors <= 0) return;
    const double w = std::min(1.0, sectors / m_l2_sectors);
    m_recent_miss += w * (static_cast<double>(r.miss_sectors) / sectors - m_recent_miss);
  }

  static void add(std::array<std::int64_t, kTimeCauses>* a, TimeCause c, std::int64_t ps) {
    if (ps > 0) (*a)[static_cast<std::size_t>(c)] += ps;
  }

  TimedResult finish() {
    TimedResult res;
    TimingSummary& out = res.timing;
    out.kernel_ps = m_kernel_end;
    for (const auto& span : m_programs) out.kernel_ps = std::max(out.kernel_ps, span.end_ps);
    res.counters = m_engine.counters();
    out.costs = m_costs;
    res.programs = std::move(m_programs);
    res.line_ops = m_engine.line_ops();
    res.a_reuse = m_engine.a_reuse();
    res.b_reuse = m_engine.b_reuse();
    const double kernel = static_cast<double>(std::max<std::int64_t>(1, out.kernel_ps));
    out.dram_busy = static_cast<double>(m_dram_busy) / kernel;
    out.l2_busy = static_cast<double>(m_l2_busy) / kernel;
    // Each SM's kernel time: its dot pipe's busy time by cause, then the rest shared among the
    // causes its programs waited on (weighted by those waits), and its idle end as the tail.
    std::array<double, kTimeCauses> sum{};
    for (const SmState& sm : m_sm) {
      out.fill_busy += static_cast<double>(sm.fill_ps) / kernel / m_m.sms;
      out.dot_busy += static_cast<double>(sm.dot_ps) / kernel / m_m.sms;
      const double tail = kernel - static_cast<double>(std::min(sm.last_retire, out.kernel_ps));
      double busy = 0;
      for (int c = 0; c < kTimeCauses; ++c) busy += static_cast<double>(sm.busy[c]);
      const double scale = busy > kernel - tail ? (kernel - tail) / busy : 1.0;
      for (int c = 0; c < kTimeCauses; ++c) sum[c] += static_cast<double>(sm.busy[c]) * scale;
      const double rest = kernel - tail - busy * scale;
      double weights = 0;
      for (int c = 0; c < kTimeCauses; ++c) weights += static_cast<double>(sm.wait[c]);
      for (int c = 0; c < kTimeCauses; ++c)
        sum[c] += weights > 0 ? rest * static_cast<double>(sm.wait[c]) / weights
                              : (c == static_cast<int>(TimeCause::tail) ? rest : 0.0);
      sum[static_cast<int>(TimeCause::tail)] += tail;
    }
    for (int c = 0; c < kTimeCauses; ++c)
      out.breakdown.seconds[static_cast<std::size_t>(c)] = sum[c] / m_m.sms * 1e-12;
    return res;
  }

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
  std::vector<std::int64_t> m_a_filled, m_b_filled;  // per input tile, like Engine's reuse
  std::vector<StepOp> m_op;
  std::vector<std::int64_t> m_k;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> m_queue;
  std::int64_t m_dram_free = 0, m_l2_free = 0, m_kernel_end = 0;
  std::int64_t m_dram_busy = 0, m_l2_busy = 0;
  DramReads m_reads;  // the element loops' load rounds in flight, and the reads' share
  std::vector<SharedPipe::Job> m_share_done;  // share_done()'s scratch: the jobs ending now
};

}  // namespace

TimedResult run_timed(const Problem& p, const Machine& m, const Occupancy& occ,
                      const TimedOptions& opt) {
  return TimedRun(p, m, occ, opt).run();
}

ReplayResult replay_timed(const Problem& p, const Machine& m, const Occupancy& occ,
                          const TimingOptions& timing, const std::function<void(double)>& progress,
                          const std::atomic<bool>* cancel, std::vector<ProgramSpan>* programs) {
  TimedOptions opt;
  opt.timing = timing;
  opt.progress = progress;
  opt.cancel = cancel;
  TimedResult t = run_timed(p, m, occ, opt);
  ReplayResult out;
  out.occupancy = occ;
  out.waves = cdiv(p.programs(), static_cast<std::int64_t>(m.sms) * occ.programs_per_sm);
  out.line_ops = t.line_ops;
  out.counters = t.counters;
  out.roofline = roofline(out.counters, p, m);
  out.timing = t.timing;
  out.a_reuse = std::move(t.a_reuse);
  out.b_reuse = std::move(t.b_reuse);
  if (programs) *programs = std::move(t.programs);
  return out;
}

}  // namespace tilesim::sim
