// Dots (see dot_step.hpp): one dot's time by cause, and the timed engine's steps that queue a
// ready dot for its SM's pipe, hand the pipe out by age (sim/timing/dot_share.hpp) and run it.
#include "sim/timing/dot_step.hpp"

#include <algorithm>
#include <cmath>

#include "sim/base/fixed_random.hpp"
#include "sim/timing/timed_run.hpp"

namespace tilesim::sim {

DotTime dot_time(const StepCosts& c, int residents, double diffusion_ps, double noise,
                 double math_scale) {
  DotTime d;
  const std::int64_t math_ps = math_scale == 1.0
                                   ? c.dot_math_ps
                                   : std::llround(static_cast<double>(c.dot_math_ps) * math_scale);
  // Operand reads beside the math (the slower one sets the pace, plus the exposed share of the
  // other) or before it (they add up). `covered`: the part of the two that runs at once.
  const bool overlap = c.operands_overlap_math;
  const std::int64_t covered =
      overlap ? std::llround((1.0 - c.exposed_share) *
                             static_cast<double>(std::min(math_ps, c.dot_smem_ps)))
              : 0;
  const std::int64_t core = math_ps + c.dot_smem_ps - covered;
  // The warps cannot go faster than they issue their instructions: when that takes longer than
  // the pipes, the whole dot is the instruction stream's time (the math hides inside it).
  const std::int64_t paced = core + c.dot_overhead_ps;
  const std::int64_t issue = c.issue_ps(residents);
  d.issue_bound = issue > paced;
  d.ps = (d.issue_bound ? issue : paced) + c.dot_spill_ps;
  if (!d.issue_bound && diffusion_ps > 0) {
    const double sd = std::sqrt(diffusion_ps * static_cast<double>(d.ps));
    d.ps = std::max<std::int64_t>(0, d.ps + static_cast<std::int64_t>(sd * noise + 0.5));
  }
  d.smem_ps = c.dot_smem_ps + c.dot_spill_ps;
  add_time(&d.busy, TimeCause::math, c.dot_spill_ps);
  if (d.issue_bound) {
    add_time(&d.busy, TimeCause::issue, issue);
    d.cause = TimeCause::issue;
    return d;
  }
  // Busy time by cause: math, then the part of the operand reads the math did not cover, split
  // into conflict-free wavefronts and the extra ones of bank conflicts.
  const std::int64_t free_part = std::max<std::int64_t>(0, c.dot_smem_free_ps - covered);
  const std::int64_t smem_part = std::max<std::int64_t>(0, c.dot_smem_ps - covered);
  add_time(&d.busy, TimeCause::math, math_ps + c.dot_overhead_ps);
  add_time(&d.busy, TimeCause::smem, free_part);
  add_time(&d.busy, TimeCause::bank_conflict, smem_part - free_part);
  d.cause = math_ps >= c.dot_smem_ps             ? TimeCause::math
            : c.dot_smem_ps > c.dot_smem_free_ps ? TimeCause::bank_conflict
                                                 : TimeCause::smem;
  return d;
}

namespace timed {

// A dot whose tiles are in waits for its SM's pipe; when the pipe is free it goes to the ready
// dot the share by age picks (sim/timing/dot_share.hpp): the older of two always-ready programs
// gets `older_program_share` of the dots (0.6, measured), so it runs ahead and the younger falls
// behind, as on the GPU (block_timeline: 211 vs 274 us for a first wave's pair,
// docs/MODEL_HISTORY.md, *Programs drift apart*). That uneven share is what makes row-major waves
// drift apart.
void TimedRun::queue_dot(const Pending& e) {
  SmState& sm = sm_of(e.slot);
  sm.ready_dots.push_back(e);
  drain(sm, e.t);
  if (!sm.dispatch_queued) {
    sm.dispatch_queued = true;
    m_queue.push({std::max({e.t, sm.dot_free, sm.smem_free}), kDispatch, e.slot % m_m.sms, -1});
  }
}

void TimedRun::dispatch(const Pending& e) {
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
  // Its wait for the pipe once its tiles are written (drain() has written those that arrived),
  // busy with its neighbours' dots: the program's own time goes to what the pipe was doing (the
  // breakdown counts that time as the pipe's busy time, not as a wait).
  const SlotState& s = slot_of(dot.slot);
  const std::int64_t ready = std::max({dot.t, s.load_a_done, s.load_b_done});
  add_time(&m_programs[static_cast<std::size_t>(dot.pid)].time_by_cause, sm.pipe_cause,
           start - ready);
  dot.t = start;
  execute(dot);
  if (!sm.ready_dots.empty()) {
    sm.dispatch_queued = true;
    m_queue.push({std::max(sm.dot_free, sm.smem_free), kDispatch, e.step, -1});
  }
}

// Dot k of the program on `slot`, dispatched at t. Its time noise grows with the share of the
// recent tile loads that came from DRAM (Machine::dot_time_diffusion_miss_s).
void TimedRun::dot(SlotState& s, SmState& sm, int slot, std::int64_t k, std::int64_t t,
                   TimedEvent* ev) {
  const std::int64_t prev = k > 0 ? dot_done(s, k - 1) : s.progress;
  // Waiting for the K-slab's tiles: the cause of the one that came last.
  // A loop staged through registers spends the first staged_issue_ps of that wait issuing.
  const bool a_last = s.load_a_done >= s.load_b_done;
  const std::int64_t data = std::max(s.load_a_done, s.load_b_done);
  if (data > prev) {
    const std::int64_t issuing = std::min(data - prev, m_costs.staged_issue_ps);
    if (issuing > 0) waited(slot, TimeCause::issue, issuing);
    // Then its spilled offsets' reloads, one L2 round trip each: latency.
    const std::int64_t reloading = std::min(data - prev - issuing, m_costs.staged_reload_ps);
    if (reloading > 0) waited(slot, TimeCause::latency, reloading);
    waited(slot, a_last ? s.load_a_cause : s.load_b_cause, data - prev - issuing - reloading);
  }
  const std::int64_t start = std::max({t, sm.dot_free, sm.smem_free});
  const double diffusion = m_diffusion_ps + m_recent_miss * m_diffusion_miss_ps;
  const DotTime d = dot_time(m_costs, m_share.residents(slot), diffusion, fixed_noise(s.pid, k),
                             1.0 / m_costs.clock_rate(start));
  sm.dot_free = start + d.ps;
  sm.smem_free = start + d.smem_ps;
  sm.totals.dot_ps += d.ps;
  auto& mine = m_programs[static_cast<std::size_t>(s.pid)].time_by_cause;
  for (int c = 0; c < kTimeCauses; ++c) {
    sm.totals.busy[static_cast<std::size_t>(c)] += d.busy[static_cast<std::size_t>(c)];
    mine[static_cast<std::size_t>(c)] += d.busy[static_cast<std::size_t>(c)];
  }
  ev->cause = d.cause;
  sm.pipe_cause = d.cause;
  ev->start_ps = start;
  ev->end_ps = start + d.ps;
  s.dot_done[static_cast<std::size_t>(k % (kMaxStages + 1))] = ev->end_ps;
  s.dot_start[static_cast<std::size_t>(k % (kMaxStages + 1))] = start;
  s.progress = ev->end_ps;
}

}  // namespace timed
}  // namespace tilesim::sim
