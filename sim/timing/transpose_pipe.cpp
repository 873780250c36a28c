// Transposes on their SM's shared-memory pipe (see transpose_pipe.hpp): their work and its split
// by cause, and the timed engine's steps that join the pipe and leave it.
#include "sim/timing/transpose_pipe.hpp"

#include <algorithm>

#include "sim/timing/timed_run.hpp"

namespace tilesim::sim {

std::int64_t transpose_work_ps(const StepCosts& c) {
  return c.load_a_smem_ps + c.transpose_smem_ps;
}

TimeCause transpose_read_cause(const StepCosts& c) {
  return c.transpose_smem_ps > c.transpose_smem_free_ps ? TimeCause::bank_conflict
                                                        : TimeCause::smem;
}

std::int64_t conflict_free_part(const StepCosts& c, std::int64_t waited) {
  const auto free = static_cast<double>(c.load_a_smem_free_ps + c.transpose_smem_free_ps);
  const auto work = static_cast<double>(transpose_work_ps(c));
  if (work <= 0) return waited;
  return std::min(waited,
                  static_cast<std::int64_t>(static_cast<double>(waited) * free / work + 0.5));
}

namespace timed {

void TimedRun::share_join(SmState& sm, const Pending& e, std::int64_t work) {
  sm.transposes.join(e.t, work,
                     {.pid = e.pid, .step = e.step, .event = next_event(), .slot = e.slot});
  share_schedule(sm, e.slot % m_m.sms);
}

// Queues the next finish of the SM's transposes (the earlier ones queued are now stale).
void TimedRun::share_schedule(const SmState& sm, int sm_index) {
  const std::int64_t t = sm.transposes.next_finish();
  if (t >= 0) m_queue.push({t, kShareDone, sm_index, sm.transposes.version()});
}

// Every transpose done by e.t ends now, in order of (finish, pid); their programs go on. Its
// time on the pipe is its program's wait, on shared memory and, for its conflicts' share of
// the work, on bank conflicts.
void TimedRun::share_done(const Pending& e) {
  SmState& sm = m_sm[static_cast<std::size_t>(e.step)];
  if (e.slot != sm.transposes.version()) return;
  sm.transposes.finish_by(e.t, &m_share_done);
  for (const SharedPipe::Job& j : m_share_done) {
    SlotState& s = slot_of(j.slot);
    s.progress = e.t;
    if (TimedEvent* ev = recorded(j.event)) ev->end_ps = e.t;
    const std::int64_t waited_ps = e.t - j.joined;
    const std::int64_t free = conflict_free_part(m_costs, waited_ps);
    waited(j.slot, TimeCause::smem, free);
    waited(j.slot, TimeCause::bank_conflict, waited_ps - free);
    push_next(s, j.pid, j.step, j.slot);
  }
  share_schedule(sm, static_cast<int>(e.step));
}

}  // namespace timed
}  // namespace tilesim::sim
