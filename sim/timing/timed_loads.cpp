// The timed engine's memory steps (memory_path.hpp holds the pipes): a tile load and, for a
// matmul's A and B tiles, its write into shared memory once it arrives; an output tile's store;
// the recent miss rate the dots' time noise follows.
#include <algorithm>

#include "sim/timing/timed_run.hpp"

namespace tilesim::sim::timed {

// When the last DRAM fill of the input tile a load reads arrives in L2, and why then
// (MemoryPath::load).
Arrival* TimedRun::filled(const SlotState& s, StepOp op, std::int64_t k) {
  const std::int64_t kt = m_p.k_tiles(), tn = m_p.tiles_n();
  if (op == StepOp::load_a) return &m_a_filled[static_cast<std::size_t>(s.tile.pid_m * kt + k)];
  if (op == StepOp::load_b) return &m_b_filled[static_cast<std::size_t>(k * tn + s.tile.pid_n)];
  return &m_a_filled[static_cast<std::size_t>(s.tile.pid_m * tn + s.tile.pid_n)];
}

// A tile load through the memory path; then, for tiles staged in shared memory (matmul A/B), the
// write's wavefronts. (A transpose's write is part of its transpose step's shared job.)
void TimedRun::load(const AccessResult& r, std::int64_t issue, StepOp op, const Pending& e,
                    TimedEvent* ev) {
  SmState& sm = sm_of(e.slot);
  Arrival a = m_memory.load(r, issue, &sm.fill,
                            filled(slot_of(e.slot), op, m_k[static_cast<std::size_t>(e.step)]),
                            l2_load_weight(m_costs, op));
  // A Triton cp.async stage is usable a round trip later (kCpAsyncRoundTripCycles), a latency
  // where it is the longer part of the wait.
  const std::int64_t round_trip = op == StepOp::load_a   ? m_costs.cp_async_round_trip_a_ps
                                  : op == StepOp::load_b ? m_costs.cp_async_round_trip_b_ps
                                                         : 0;
  if (round_trip > a.at - issue) a.cause = TimeCause::latency;
  a.at += round_trip;
  ev->end_ps = a.at;
  ev->cause = a.cause;
  if (op == StepOp::load) return;
  const std::int64_t w = smem_write_ps(m_costs, op);
  // Written when the data arrives, in event order (write()): the end here assumes the pipe is
  // free then, write() corrects it. Booked now, for the future, on the busy-until clock, the
  // write would hold back every dot ready before it arrives: an SM's oldest program, whose next
  // tiles arrive just as its dot ends, would keep the pipe while the others wait, and the DRAM
  // latency would show through however many programs the SM holds (docs/MODEL.md).
  const std::int64_t end = a.at + w;
  if (end - a.at > a.at - issue)
    ev->cause = w > smem_write_free_ps(m_costs, op) ? TimeCause::bank_conflict : TimeCause::smem;
  ev->end_ps = end;
  if (w > 0) {
    const PendingWrite pw{a.at, e.step, next_event(), e.slot};
    const auto at = std::upper_bound(
        sm.writes.begin(), sm.writes.end(), pw,
        [](const PendingWrite& x, const PendingWrite& y) { return x.key() < y.key(); });
    sm.writes.insert(at, pw);
  }
}

// Serves, in arrival order, the matmul tile writes of `sm` that have arrived by `t`: called
// before any use of the SM's shared-memory pipe at `t` (a dot), so that the pipe takes every
// request in the order it came, without an event per write.
void TimedRun::drain(SmState& sm, std::int64_t t) {
  std::size_t n = 0;
  for (; n < sm.writes.size() && sm.writes[n].arrive <= t; ++n) write(sm, sm.writes[n]);
  sm.writes.erase(sm.writes.begin(), sm.writes.begin() + static_cast<std::ptrdiff_t>(n));
}

// A matmul tile's write into shared memory, once its data has arrived: the SM's shared-memory
// pipe serves requests in the order they come (first in, first out); the tile is usable when
// it is written.
void TimedRun::write(SmState& sm, const PendingWrite& w) {
  SlotState& s = slot_of(w.slot);
  const StepOp op = m_op[static_cast<std::size_t>(w.step)];
  sm.smem_free = std::max(w.arrive, sm.smem_free) + smem_write_ps(m_costs, op);
  const std::int64_t end = sm.smem_free;
  if (op == StepOp::load_a) s.load_a_done = std::max(s.load_a_done, end);
  if (op == StepOp::load_b) s.load_b_done = std::max(s.load_b_done, end);
  if (TimedEvent* ev = recorded(w.event); ev && end > ev->end_ps) {
    ev->end_ps = end;
    if (end - w.arrive > w.arrive - ev->start_ps) ev->cause = TimeCause::smem;
  }
}

// The output tile leaves through the fill path and the L2; the program retires once its bytes
// are out of the SM, the kernel ends when the last one reaches L2 (or DRAM, for write-backs).
void TimedRun::store(const AccessResult& r, const Pending& e, TimedEvent* ev) {
  const StoreDone d = m_memory.store(r, e.t, &sm_of(e.slot).fill);
  ev->cause = d.cause;
  ev->end_ps = d.out;
  waited(e.slot, d.cause, d.out - e.t);
  slot_of(e.slot).progress = d.out;
  m_kernel_end = std::max(m_kernel_end, d.done);
}

// The L2 miss rate of the tile loads over about the last L2-full of sectors (an exponential
// average, one update per load): what the memory system is going through now.
void TimedRun::recent_misses(const AccessResult& r) {
  const double sectors = static_cast<double>(std::int64_t{r.hit_sectors} + r.miss_sectors);
  if (sectors <= 0) return;
  const double w = std::min(1.0, sectors / m_l2_sectors);
  m_recent_miss += w * (static_cast<double>(r.miss_sectors) / sectors - m_recent_miss);
}

}  // namespace tilesim::sim::timed
