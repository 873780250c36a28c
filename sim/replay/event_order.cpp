// Event orders (see event_order.hpp): the round schedule answers in closed form; the timed order
// answers from its recorded events plus two indexes (pid, step) -> event and sorted first events.
#include "sim/replay/event_order.hpp"

#include <algorithm>
#include <array>

namespace tilesim::sim {

EventOrder::EventOrder(const Problem& p, const Machine& m, std::int64_t slots)
    : m_problem(p), m_sms(m.sms), m_slots(slots), m_steps(sim::steps_per_program(p)) {}

const std::vector<ProgramSpan>& EventOrder::programs() const {
  static const std::vector<ProgramSpan> none;
  return none;
}

std::int64_t EventOrder::position_at(std::int64_t t_ps) const {
  std::int64_t lo = 0, hi = events();  // time_ps(lo) <= t_ps holds for lo = 0 (time 0)
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (time_ps(mid) <= t_ps)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

EventInfo EventOrder::info_of(std::int64_t e, std::int64_t pid, std::int64_t step, int slot) const {
  EventInfo info;
  info.index = e;
  info.pid = pid;
  info.step = step;
  info.slot = slot;
  info.sm = slot % m_sms;
  info.wave = pid / m_slots;
  info.op = step_op(m_problem, step, &info.k);
  info.tile = tile_of(m_problem, pid);
  return info;
}

// ---- round order ----

RoundOrder::RoundOrder(const Problem& p, const Machine& m, std::int64_t slots, EventOrderKind kind)
    : EventOrder(p, m, slots), m_schedule(p.programs(), slots, sim::steps_per_program(p), kind) {}

EventInfo RoundOrder::event_info(std::int64_t e) const {
  const std::int64_t round = m_schedule.round_of(e);
  const std::int64_t slot = m_schedule.active(round).at(e - m_schedule.round_begin(round));
  EventInfo info =
      info_of(e, m_schedule.pid(slot, round), m_schedule.step(slot, round), static_cast<int>(slot));
  info.round = round;
  return info;
}

std::vector<ResidentProgram> RoundOrder::residents(std::int64_t position) const {
  std::vector<ResidentProgram> out;
  const EventInfo next = event_info(position);
  const RoundSlots active = m_schedule.active(next.round);
  const std::int64_t S = m_slots, T = m_steps;
  for (std::int64_t j = 0; j < std::min(S, m_problem.programs()); ++j) {
    // Steps this slot has run: all rounds before the next event's, and this round's if it comes
    // before the next event's slot. A finished program's slot already holds the next pid, which
    // has not run a step yet; a slot that has not started holds its first pid.
    const std::int64_t done =
        m_schedule.steps_before(j, next.round) + (active.contains(j) && j < next.slot ? 1 : 0);
    ResidentProgram r;
    r.slot = static_cast<int>(j);
    r.sm = r.slot % m_sms;
    r.pid = done / T * S + j;
    r.next_step = done % T;
    if (r.pid >= m_problem.programs()) continue;
    step_op(m_problem, r.next_step, &r.k);
    r.tile = tile_of(m_problem, r.pid);
    out.push_back(r);
  }
  return out;
}

namespace {

// Positions of one round's boundaries, ascending, for k-iterations or program ends.
void round_boundaries(const Problem& p, const SlotSchedule& sc, std::int64_t T, std::int64_t r,
                      bool program_ends, std::vector<std::int64_t>* out) {
  out->clear();
  const std::int64_t b = sc.round_begin(r);
  if (program_ends) {
    // Positions just after a program's last step: slots whose step in round r is T - 1.
    const RoundSlots a = sc.active(r);
    for (std::int64_t i = 0; i < a.count(); ++i)
      if (sc.step(a.at(i), r) == T - 1) out->push_back(b + i + 1);
    return;
  }
  std::int64_t k = -1;
  const StepOp op = step_op(p, r % T, &k);  // slot 0 starts at round 0
  if (p.kernel() != Kernel::matmul || op == StepOp::map || op == StepOp::load_a ||
      op == StepOp::store)
    out->push_back(b);
  if (r == sc.rounds() - 1) out->push_back(sc.events());
}

std::int64_t round_neighbour(const Problem& p, const SlotSchedule& sc, std::int64_t T,
                             std::int64_t pos, int direction, bool program_ends) {
  const std::int64_t total = sc.events(), R = sc.rounds();
  std::vector<std::int64_t> list;
  const std::int64_t r0 = pos < total ? sc.round_of(pos) : R - 1;
  if (direction >= 0) {
    for (std::int64_t r = r0; r < R; ++r) {
      round_boundaries(p, sc, T, r, program_ends, &list);
      for (const auto b : list)
        if (b > pos) return b;
    }
    return total;
  }
  for (std::int64_t r = r0; r >= 0; --r) {
    round_boundaries(p, sc, T, r, program_ends, &list);
    for (auto i = list.rbegin(); i != list.rend(); ++i)
      if (*i < pos) return *i;
  }
  return 0;
}

}  // namespace

std::int64_t RoundOrder::next_k_boundary(std::int64_t pos, int direction) const {
  return round_neighbour(m_problem, m_schedule, m_steps, pos, direction, false);
}

std::int64_t RoundOrder::next_program_end(std::int64_t pos, int direction) const {
  return round_neighbour(m_problem, m_schedule, m_steps, pos, direction, true);
}

// ---- timed order ----

TimedOrder::TimedOrder(const Problem& p, const Machine& m, std::int64_t slots,
                       std::vector<TimedEvent> ev, std::vector<ProgramSpan> programs,
                       std::int64_t kernel_ps)
    : EventOrder(p, m, slots),
      m_events(std::move(ev)),
      m_programs(std::move(programs)),
      m_kernel_ps(kernel_ps) {
  m_event_of.assign(m_events.size(), 0);
  for (std::size_t e = 0; e < m_events.size(); ++e)
    m_event_of[static_cast<std::size_t>(m_events[e].pid * m_steps + m_events[e].step)] =
        static_cast<std::int64_t>(e);
  m_first.reserve(m_programs.size());
  for (std::int64_t pid = 0; pid < static_cast<std::int64_t>(m_programs.size()); ++pid)
    m_first.push_back(event_of(pid, 0));
  std::sort(m_first.begin(), m_first.end());
  // Events run in time order but a dot's recorded start can be its dispatch, later than events
  // after it: a running maximum keeps the time of a position non-decreasing.
  std::int64_t t = 0;
  for (auto& e : m_events) {
    t = std::max(t, e.start_ps);
    m_time.push_back(t);
  }
}

EventInfo TimedOrder::event_info(std::int64_t e) const {
  const TimedEvent& ev = m_events.at(static_cast<std::size_t>(e));
  EventInfo info = info_of(e, ev.pid, ev.step, m_programs[static_cast<std::size_t>(ev.pid)].slot);
  info.round = e;
  return info;
}

std::int64_t TimedOrder::time_ps(std::int64_t position) const {
  if (position >= events()) return std::max(m_kernel_ps, m_time.empty() ? 0 : m_time.back());
  return m_time[static_cast<std::size_t>(std::max<std::int64_t>(0, position))];
}

std::int64_t TimedOrder::programs_started(std::int64_t position) const {
  return std::lower_bound(m_first.begin(), m_first.end(), position) - m_first.begin();
}

std::int64_t TimedOrder::steps_done(std::int64_t pid, std::int64_t position) const {
  std::int64_t lo = 0, hi = m_steps;  // first step whose event is at or after `position`
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (event_of(pid, mid) < position)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

std::vector<ResidentProgram> TimedOrder::residents(std::int64_t position) const {
  std::vector<ResidentProgram> out;
  for (const ProgramSpan& span : m_programs) {
    if (event_of(span.pid, 0) >= position || event_of(span.pid, m_steps - 1) < position) continue;
    ResidentProgram r;
    r.pid = span.pid;
    r.slot = span.slot;
    r.sm = span.sm;
    r.next_step = steps_done(span.pid, position);
    step_op(m_problem, r.next_step, &r.k);
    r.tile = tile_of(m_problem, r.pid);
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.slot < b.slot; });
  return out;
}

std::int64_t TimedOrder::next_k_boundary(std::int64_t pos, int direction) const {
  // Positions just before an event of slot 0's program that starts a K-iteration (map, load_a,
  // store; every step for copy and transpose), as the round order counts them.
  const bool matmul = m_problem.kernel() == Kernel::matmul;
  const auto is_boundary = [&](std::int64_t e) {
    const TimedEvent& ev = m_events[static_cast<std::size_t>(e)];
    if (m_programs[static_cast<std::size_t>(ev.pid)].slot != 0) return false;
    std::int64_t k = -1;
    const StepOp op = step_op(m_problem, ev.step, &k);
    return !matmul || op == StepOp::map || op == StepOp::load_a || op == StepOp::store;
  };
  const std::int64_t total = events();
  if (direction >= 0) {
    for (std::int64_t e = pos + 1; e < total; ++e)
      if (is_boundary(e)) return e;
    return total;
  }
  for (std::int64_t e = std::min(pos, total) - 1; e > 0; --e)
    if (is_boundary(e)) return e;
  return 0;
}

std::int64_t TimedOrder::next_program_end(std::int64_t pos, int direction) const {
  const std::int64_t total = events();
  const auto last = [&](std::int64_t e) {
    return m_events[static_cast<std::size_t>(e)].step == m_steps - 1;
  };
  if (direction >= 0) {
    for (std::int64_t e = std::max<std::int64_t>(pos, 0); e < total; ++e)
      if (last(e)) return e + 1;
    return total;
  }
  for (std::int64_t e = std::min(pos, total) - 2; e >= 0; --e)
    if (last(e)) return e + 1;
  return 0;
}

std::int64_t timed_order_bytes(std::int64_t events, std::int64_t programs) {
  return events * static_cast<std::int64_t>(sizeof(TimedEvent) + 2 * sizeof(std::int64_t)) +
         programs * static_cast<std::int64_t>(sizeof(ProgramSpan));
}

}  // namespace tilesim::sim
