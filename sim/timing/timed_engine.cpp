// Timed engine: a discrete-event loop over resident programs, and each program's steps in order.
// Shared pipes are "busy until" clocks (DRAM and L2 for the GPU, fill path, dot pipe and shared
// memory per SM; memory_path.hpp); transposes share their SM's shared-memory pipe equally
// (transpose_pipe.hpp). The L2 contents come from the round engine's memory model
// (Engine::apply), fed in time order. The parts: timed_run.hpp.
#include "sim/timing/timed_engine.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/timing/timed_run.hpp"
#include "sim/timing/transpose_pipe.hpp"

namespace tilesim::sim {

TimeCause main_cause(const ProgramSpan& s) {
  return static_cast<TimeCause>(std::max_element(s.time_by_cause.begin(), s.time_by_cause.end()) -
                                s.time_by_cause.begin());
}

namespace timed {

TimedRun::TimedRun(const Problem& p, const Machine& m, const Occupancy& occ,
                   const TimedOptions& opt)
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
      m_memory(m_costs, m.sms, static_cast<double>(effective_l2_bytes(m))) {
  // Nothing reads the L2's lines but the timeline's after_event: the rest may model it by tiles
  // (same results, sim/memory/tile_lru.hpp).
  if (!opt.after_event) m_engine.use_tile_lru();
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

TimedResult TimedRun::run() {
  // The launch overhead before the first programs: every SM waits it (time by cause: launch).
  if (m_costs.start_ps > 0)
    for (SmState& sm : m_sm) add_time(&sm.totals.wait, TimeCause::launch, m_costs.start_ps);
  for (std::int64_t s = 0; s < m_slots; ++s) launch(static_cast<int>(s), m_costs.start_ps);
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
      round_back(e);
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

void TimedRun::launch(int slot, std::int64_t t) {
  SlotState& s = slot_of(slot);
  s = SlotState{};
  s.pid = m_next_pid++;
  s.tile = tile_of(m_p, s.pid);
  m_share.join(slot);
  ProgramSpan& span = m_programs[static_cast<std::size_t>(s.pid)];
  span.pid = s.pid;
  span.slot = slot;
  span.sm = slot % m_m.sms;
  span.start_ps = t;
  // The SM takes one new program a dispatch interval: one that finds it busy waits (launch).
  SmState& sm = sm_of(slot);
  const std::int64_t start = std::max(t, sm.next_launch);
  sm.next_launch = start + m_costs.dispatch_ps;
  if (start > t) waited(slot, TimeCause::launch, start - t);
  m_queue.push({start, s.pid, 0, slot});
}

void TimedRun::retire(const Pending& e) {
  m_share.leave(e.slot);
  m_programs[static_cast<std::size_t>(e.pid)].end_ps = e.t;
  SmState& sm = sm_of(e.slot);
  sm.totals.last_retire = std::max(sm.totals.last_retire, e.t);
  if (m_next_pid < m_p.programs()) launch(e.slot, e.t);
}

void TimedRun::waited(int slot, TimeCause cause, std::int64_t ps) {
  add_time(&sm_of(slot).totals.wait, cause, ps);
  add_time(&m_programs[static_cast<std::size_t>(slot_of(slot).pid)].time_by_cause, cause, ps);
}

// Issue time of load_a(k) (load_b(k) goes out with it): after the previous load, once its
// buffer is free: dot k - stages has finished reading it (stages = 1: no overlap at all); in a
// software pipeline of one instruction stream also not before dot k - stages + 1 has started
// (StepCosts::loads_in_program_order). A loop staged through registers issues its K step's
// instructions first (StepCosts::staged_issue_ps), and reloads its spilled offsets
// (StepCosts::staged_reload_ps).
std::int64_t TimedRun::load_issue(const SlotState& s, std::int64_t k) const {
  const int stages = m_costs.pipeline_stages;
  std::int64_t t = k >= stages ? std::max(s.load_issue, dot_done(s, k - stages)) : s.load_issue;
  if (m_costs.loads_in_program_order && stages >= 2 && k >= stages - 1)
    t = std::max(t, s.dot_start[static_cast<std::size_t>((k - stages + 1) % (kMaxStages + 1))]);
  return t + m_costs.staged_issue_ps + m_costs.staged_reload_ps;
}

// The earliest time step `step` of the program on `slot` takes effect. A program's events stay
// in program order (never before its previous event); a load issued earlier than that still
// gets its own issue time for its timing.
std::int64_t TimedRun::ready_time(const SlotState& s, std::int64_t step) const {
  const StepOp op = m_op[static_cast<std::size_t>(step)];
  const std::int64_t k = m_k[static_cast<std::size_t>(step)];
  const std::int64_t t = s.t_event;
  if (op == StepOp::load_a) return std::max(t, load_issue(s, k));
  if (op == StepOp::load_b) return std::max(t, s.load_issue);
  if (op == StepOp::dot)
    return std::max({t, s.load_a_done, s.load_b_done, k > 0 ? dot_done(s, k - 1) : s.progress});
  return std::max(t, s.progress);  // map, load (copy/transpose), transpose, store
}

void TimedRun::execute(const Pending& e) {
  SlotState& s = slot_of(e.slot);
  SmState& sm = sm_of(e.slot);
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
      waited(e.slot, TimeCause::launch, m_costs.launch_ps);
      waited(e.slot, TimeCause::issue, m_costs.stream_ps);
      break;
    case StepOp::load_a:
    case StepOp::load_b:
    case StepOp::load: {
      const std::int64_t issue = op == StepOp::load_a   ? load_issue(s, k)
                                 : op == StepOp::load_b ? s.load_issue
                                                        : std::max(e.t, s.progress);
      s.load_issue = issue;
      if (op != StepOp::load) recent_misses(r);
      load(r, issue, op, e, &ev);
      ev.start_ps = issue;
      if (op == StepOp::load_a) s.load_a_done = ev.end_ps, s.load_a_cause = ev.cause;
      if (op == StepOp::load_b) s.load_b_done = ev.end_ps, s.load_b_cause = ev.cause;
      if (op == StepOp::load && m_costs.load_rounds > 0) {
        // The tile comes in rounds, one event each (round_back): the program goes on after
        // the last.
        s.t_event = e.t;
        first_round(e, issue, ev);
        record(ev);
        return;
      }
      if (op == StepOp::load) {
        waited(e.slot, ev.cause, ev.end_ps - std::max(issue, s.progress));
        s.progress = ev.end_ps;
      }
      break;
    }
    case StepOp::dot:
      dot(s, sm, e.slot, k, e.t, &ev);
      break;
    case StepOp::transpose: {
      // The tile's write (its STS, joined here: the load left it to this job) and its column
      // reads, in processor sharing with the SM's other transposes; the store follows when
      // share_done() finds it done.
      const std::int64_t work = transpose_work_ps(m_costs);
      ev.cause = transpose_read_cause(m_costs);
      ev.end_ps = e.t + work;  // alone on the pipe; share_done() sets the real end
      share_join(sm, e, work);
      s.t_event = e.t;
      record(ev);
      return;  // no next step until the pipe has served it
    }
    case StepOp::store:
      store(r, e, &ev);
      break;
  }
  s.t_event = e.t;
  record(ev);
  push_next(s, e.pid, e.step, e.slot);
}

void TimedRun::push_next(const SlotState& s, std::int64_t pid, std::int64_t step, int slot) {
  const std::int64_t next = step + 1;
  if (next < m_steps)
    m_queue.push({ready_time(s, next), pid, next, slot});
  else
    m_queue.push({s.progress, pid, m_steps, slot});  // retire once the store is out
}

}  // namespace timed

TimedResult run_timed(const Problem& p, const Machine& m, const Occupancy& occ,
                      const TimedOptions& opt) {
  return timed::TimedRun(p, m, occ, opt).run();
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
