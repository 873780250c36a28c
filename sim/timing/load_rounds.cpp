// The element loops' load rounds (see load_rounds.hpp): one round's end, and the load's end and
// its wait by cause once the last round is back.
#include "sim/timing/load_rounds.hpp"

#include <algorithm>
#include <cmath>

#include "sim/base/fixed_random.hpp"
#include "sim/timing/timed_run.hpp"
#include "sim/timing/transpose_pipe.hpp"

namespace tilesim::sim {

std::int64_t round_end(const StepCosts& c, double round_cv, DramReads* reads, int readers,
                       std::int64_t pid, std::int64_t issue, LoadRounds* r) {
  const std::int64_t bytes = c.load_round_bytes;
  const double per_sm = reads->issue(issue, bytes);
  const double factor = 1 + round_cv * fixed_noise(pid, r->done);
  const std::int64_t dram = loaded_round_ps(c, per_sm, reads->read_share());
  const std::int64_t end = issue + queued_round_ps(c, dram, readers, factor);
  r->queued += readers * c.smem_turn_ps;
  r->slowest += std::llround(static_cast<double>(dram) * factor * c.round_slowest_warp);
  reads->back_at(end, bytes);
  return end;
}

RoundsDone rounds_done(const LoadRounds& r, std::int64_t last_back, std::int64_t since,
                       TimeCause reads) {
  // The slowest warp's rounds come back `slowest` after the mean's.
  const std::int64_t rounds_end = last_back + r.slowest;
  const bool rounds_last = rounds_end > r.other_end;
  RoundsDone d;
  d.end = rounds_last ? rounds_end : r.other_end;
  const std::int64_t waited = d.end - since;
  d.queued = rounds_last ? std::min(waited, r.queued) : 0;
  d.rest = waited - d.queued;
  d.cause = !rounds_last ? r.other_cause : 2 * d.queued > waited ? reads : TimeCause::latency;
  d.rest_cause = rounds_last ? TimeCause::latency : r.other_cause;
  return d;
}

namespace timed {

// The load on e.slot whose event `ev` (recorded next) has its rest (DRAM and L2 queues, fill
// path) done at ev.end_ps: its first round goes out at `issue`.
void TimedRun::first_round(const Pending& e, std::int64_t issue, const TimedEvent& ev) {
  LoadRounds& r = slot_of(e.slot).rounds;
  r = LoadRounds{};
  r.other_end = ev.end_ps, r.other_cause = ev.cause;
  r.event = next_event();
  const int readers = sm_of(e.slot).transposes.jobs();
  m_queue.push({round_end(m_costs, m_m.load_round_cv, &m_memory.reads(), readers, e.pid, issue, &r),
                e.pid, kRoundStep, e.slot});
}

// A load round of the program on e.slot is back at e.t: the next goes out, or the tile has
// arrived once the rest of the load has too, and the program goes on.
void TimedRun::round_back(const Pending& e) {
  SlotState& s = slot_of(e.slot);
  LoadRounds& r = s.rounds;
  if (++r.done < m_costs.load_rounds) {
    const int readers = sm_of(e.slot).transposes.jobs();
    m_queue.push({round_end(m_costs, m_m.load_round_cv, &m_memory.reads(), readers, e.pid, e.t, &r),
                  e.pid, kRoundStep, e.slot});
    return;
  }
  const TimeCause reads = transpose_read_cause(m_costs);
  const RoundsDone d = rounds_done(r, e.t, std::max(s.load_issue, s.progress), reads);
  if (TimedEvent* ev = recorded(r.event)) ev->end_ps = d.end, ev->cause = d.cause;
  waited(e.slot, d.rest_cause, d.rest);
  waited(e.slot, reads, d.queued);
  s.progress = d.end;
  push_next(s, e.pid, kLoadStep, e.slot);
}

}  // namespace timed
}  // namespace tilesim::sim
