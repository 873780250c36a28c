// Animation maths (see animation.hpp): clock time -> (position, fraction) -> what moves.
#include "app/core/animation.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::app {

std::int64_t UniformClock::event_at(double t) const {
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(t)));
}

double TimedClock::start(std::int64_t event) const {
  return static_cast<double>(
      m_order->time_ps(std::clamp<std::int64_t>(event, 0, m_order->events())));
}

std::int64_t TimedClock::event_at(double t) const {
  // The last event started at or before t: times of positions are non-decreasing.
  std::int64_t lo = 0, hi = m_order->events();  // answer in [0, events - 1]
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<double>(m_order->time_ps(mid)) <= t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

AnimPoint anim_point(const EventClock& clock, double t) {
  const std::int64_t e = clock.event_at(t);
  const double s = clock.start(e), len = clock.end(e) - s;
  const double frac = len > 0 ? std::clamp((t - s) / len, 0.0, 1.0) : 1.0;
  return {e + 1, frac};
}

std::vector<AnimPoint> animation_frames(const EventClock& clock, std::int64_t from, std::int64_t to,
                                        double seconds_per_unit, double fps) {
  to = std::max(to, from + 1);
  const double t0 = clock.start(from), t1 = clock.start(to);
  const double wall = (t1 - t0) * std::max(seconds_per_unit, 1e-6);
  const auto n = std::max<std::int64_t>(2, std::llround(wall * fps) + 1);
  std::vector<AnimPoint> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i + 1 < n; ++i)
    out.push_back(anim_point(clock, t0 + (t1 - t0) * double(i) / double(n - 1)));
  out.push_back({to, 1.0});  // the last frame rests on the target, whatever the clock's rounding
  return out;
}

Motion motion_of(const sim::EventInfo& ev, const sim::AccessResult& l2, std::int64_t k_tiles,
                 double fraction) {
  Motion m;
  fraction = std::clamp(fraction, 0.0, 1.0);
  switch (ev.op) {
    case sim::StepOp::load_a:
    case sim::StepOp::load_b:
    case sim::StepOp::load: {
      m.kind = Motion::Kind::load;
      m.operand = ev.op == sim::StepOp::load_b ? sim::Operand::b : sim::Operand::a;
      const MemLevel dest = ev.op == sim::StepOp::load ? MemLevel::regs : MemLevel::smem;
      m.l2_hit = l2.miss_sectors == 0 && l2.hit_sectors > 0;
      if (m.l2_hit)
        m.path = {MemLevel::l2, dest};
      else if (dest == MemLevel::regs)
        m.path = {MemLevel::dram, MemLevel::l2, MemLevel::smem, MemLevel::regs};
      else
        m.path = {MemLevel::dram, MemLevel::l2, MemLevel::smem};
      // A hit pauses at L2 for the first quarter (it is served there), then moves on.
      const double moving = m.l2_hit ? std::max(0.0, (fraction - 0.25) / 0.75) : fraction;
      m.along = moving * double(m.path.size() - 1);
      m.arrived = moving;
      break;
    }
    case sim::StepOp::store:
      m.kind = Motion::Kind::store;
      m.operand = sim::Operand::c;
      m.path = {MemLevel::regs, MemLevel::l2};  // tl.store: registers to L2 (written back later)
      m.along = fraction * double(m.path.size() - 1);
      m.arrived = fraction;
      break;
    case sim::StepOp::dot: {
      m.kind = Motion::Kind::dot;
      m.operand = sim::Operand::c;
      m.path = {MemLevel::regs};
      const double k = double(std::max<std::int64_t>(0, ev.k));
      m.acc = std::clamp((k + fraction) / double(std::max<std::int64_t>(1, k_tiles)), 0.0, 1.0);
      m.arrived = fraction;
      break;
    }
    default:
      break;
  }
  return m;
}

double level_coordinate(const Motion& m) {
  if (m.path.empty()) return 0;
  const double a = std::clamp(m.along, 0.0, double(m.path.size() - 1));
  const auto i = static_cast<std::size_t>(std::floor(a));
  const double from = double(static_cast<int>(m.path[i]));
  if (i + 1 >= m.path.size()) return from;
  const double to = double(static_cast<int>(m.path[i + 1]));
  return from + (to - from) * (a - double(i));
}

}  // namespace tilesim::app
